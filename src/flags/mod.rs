//! The flags every problem shares (annealing, batches, `--output`), their value ranges and
//! the choices they name: the pieces each problem's own flags are made of.

pub mod anneal_args;
pub mod batch_args;
pub mod output_args;
pub mod ranges;
pub mod values;

use clap::{Args, Parser};

/// The first of `flags` (name, whether given) that was given.
pub fn first_given(flags: &[(&'static str, bool)]) -> Option<&'static str> {
    flags
        .iter()
        .find(|(_, given)| *given)
        .map(|(flag, _)| *flag)
}

/// Parses the flags of one subcommand, `words` as the user would type them after it: how
/// the built-in demos are described, in the user's own terms.
pub fn parse<A: Args>(words: &[&str]) -> A {
    /// One subcommand's flags and nothing else.
    #[derive(Parser)]
    struct Only<A: Args> {
        #[command(flatten)]
        args: A,
    }
    Only::<A>::parse_from(std::iter::once("kiln").chain(words.iter().copied())).args
}
