//! The models' choices as the command line spells them: clap reads and lists the names the
//! models give their variants (`Named`), so the flags, their help and the JSON agree.

use clap::builder::{PossibleValuesParser, TypedValueParser};

use crate::Named;

/// Parses one of `T`'s names into its variant; help and errors list the names.
pub fn named<T: Named + Send + Sync>() -> impl TypedValueParser<Value = T> {
    PossibleValuesParser::new(T::ALL.iter().map(|v| v.name()))
        .map(|name| T::from_name(&name).expect("clap let through only the names listed"))
}
