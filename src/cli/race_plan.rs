//! `kiln race PROBLEM ARGS...`: the problem's own arguments, where any flag given a
//! comma-separated list is raced. clap reads the words once with the problem's own parser
//! (every value as text) to find the lists; each pane's arguments, one value of each raced
//! flag, are then parsed by the same parser with its real value types, so every flag of
//! every problem can be raced with no code of its own. Several listed flags race
//! every combination of their values, as long as that makes no more than four panes.

use clap::builder::{Arg, ArgAction};
use clap::parser::ValueSource;
use clap::{ArgMatches, CommandFactory, Parser, value_parser};

use crate::cli::{Cli, Command, check_live};
use crate::headless::spec::with_part;
use crate::input::InputError;
use crate::problems::ProblemCommand;
use crate::race::MAX_RACERS;
use crate::race::lineup::{Entrant, Lineup};
use crate::search::Trace;

/// One pane of a race as its command line reads: its name, the values it races and the
/// command it runs, until [`Plan::resolve`] makes it an [`Entrant`].
#[derive(Debug)]
pub struct Pane {
    /// The raced values, e.g. `swap-adjacent`, or `swap/clustered` for two flags.
    pub name: String,
    /// (flag without dashes, value) for each raced flag, in the order given.
    pub raced: Vec<(String, String)>,
    /// The pane's command line, parsed as `kiln PROBLEM ARGS...`: its global flags here,
    /// its problem in `problem`.
    pub cli: Cli,
    /// The pane's problem and its flags.
    pub problem: ProblemCommand,
}

/// A race of one problem: its panes, in the order of the values given.
#[derive(Debug)]
pub struct Plan {
    /// The problem's command name (`tsp`).
    pub problem: String,
    /// The raced flags, without dashes.
    pub flags: Vec<String>,
    /// One per combination of the raced values.
    pub panes: Vec<Pane>,
}

/// Why a race's command line was refused: a flag of the problem refused its value (said
/// as clap says it), or the race itself is not one.
#[derive(Debug)]
pub enum Refusal {
    /// A flag refused its value.
    Parse(clap::Error),
    /// The race is not one (too few or too many panes, say).
    Race(InputError),
}

impl From<InputError> for Refusal {
    fn from(e: InputError) -> Self {
        Refusal::Race(e)
    }
}

/// A flag given a comma-separated list: its id, its own long name (as JSON reports it, also
/// when raced under an alias) and the values.
struct Listed {
    id: String,
    flag: String,
    values: Vec<String>,
}

/// The arguments as clap reads them: `kiln PROBLEM WORDS...` parsed by the problem's own
/// parser with every value taken as text, so that a list (`swap,two-opt`) parses wherever
/// one value would. Nothing here tells flags from values: clap does.
struct Read {
    /// The problem's command, built (globals included).
    command: clap::Command,
    matches: ArgMatches,
}

/// A value-taking argument of `kiln PROBLEM` that takes its value as text.
fn as_text(arg: Arg) -> Arg {
    match arg.get_action().takes_values() {
        true => arg.value_parser(value_parser!(String)),
        false => arg,
    }
}

impl Read {
    fn new(problem: &str, words: &[String]) -> Result<Self, Refusal> {
        let not_a_problem = || {
            Refusal::Race(InputError::new(
                "race",
                format!("`kiln {problem}` is not a problem to race"),
            ))
        };
        if Cli::command().find_subcommand(problem).is_none() {
            return Err(not_a_problem());
        }
        let mut cli = Cli::command()
            .mut_args(as_text)
            .mut_subcommand(problem, |command| command.mut_args(as_text));
        let line = ["kiln", problem].into_iter().map(String::from);
        let mut matches = cli
            .try_get_matches_from_mut(line.chain(words.iter().cloned()))
            .map_err(Refusal::Parse)?;
        let (Some(command), Some((_, matches))) =
            (cli.find_subcommand(problem), matches.remove_subcommand())
        else {
            return Err(not_a_problem());
        };
        Ok(Read {
            command: command.clone(),
            matches,
        })
    }

    /// The flags given on the command line, not positionals and not defaults.
    fn given(&self) -> impl Iterator<Item = &Arg> {
        self.command.get_arguments().filter(|arg| {
            self.matches.value_source(arg.get_id().as_str()) == Some(ValueSource::CommandLine)
        })
    }

    /// The flags given a comma-separated list, in the order they were given.
    fn listed(&self) -> Result<Vec<Listed>, InputError> {
        let mut found = Vec::new();
        for arg in self.given().filter(|arg| !arg.is_positional()) {
            let id = arg.get_id().as_str();
            let flag = arg.get_long().unwrap_or(id).to_string();
            let Some(value) = self
                .matches
                .get_raw(id)
                .into_iter()
                .flatten()
                .filter_map(|value| value.to_str())
                .find(|value| value.contains(','))
            else {
                continue;
            };
            let values: Vec<String> = value.split(',').map(|v| v.trim().to_string()).collect();
            let typed = format!("--{flag}");
            if values.iter().any(String::is_empty) {
                return Err(InputError::new(
                    &typed,
                    format!("'{value}' has an empty value"),
                ));
            }
            if let Some((_, twice)) = values
                .iter()
                .enumerate()
                .find(|(i, v)| values[..*i].contains(v))
            {
                return Err(InputError::new(&typed, format!("{twice} is named twice")));
            }
            let at = self.matches.index_of(id).unwrap_or(usize::MAX);
            found.push((
                at,
                Listed {
                    id: id.to_string(),
                    flag,
                    values,
                },
            ));
        }
        found.sort_by_key(|(at, _)| *at);
        Ok(found.into_iter().map(|(_, listed)| listed).collect())
    }

    /// The words again, as clap read them, with `chosen` (id, value) in place of the lists:
    /// positionals first, then every flag given, each value as `--flag=VALUE`.
    fn words(&self, chosen: &[(&str, &str)]) -> Vec<String> {
        let mut positionals = Vec::new();
        let mut flags = Vec::new();
        for arg in self.given() {
            let id = arg.get_id().as_str();
            let name = match (arg.get_long(), arg.get_short()) {
                (Some(long), _) => format!("--{long}"),
                (None, Some(short)) => format!("-{short}"),
                (None, None) => String::new(),
            };
            let chosen = chosen.iter().find(|(raced, _)| *raced == id);
            let occurrences: Vec<Vec<String>> = self
                .matches
                .get_raw_occurrences(id)
                .into_iter()
                .flatten()
                .map(|values| {
                    let values = values.map(|v| v.to_string_lossy().into_owned());
                    match chosen {
                        Some((_, value)) => vec![value.to_string()],
                        None => values.collect(),
                    }
                })
                .collect();
            match arg.get_action() {
                _ if arg.is_positional() => {
                    positionals.push((arg.get_index(), occurrences.concat()));
                }
                ArgAction::Count => {
                    let times = self.matches.get_count(id);
                    flags.extend((0..times).map(|_| name.clone()));
                }
                action if !action.takes_values() => flags.push(name),
                _ => {
                    for values in occurrences {
                        match values.as_slice() {
                            [one] => flags.push(format!("{name}={one}")),
                            many => {
                                flags.push(name.clone());
                                flags.extend(many.iter().cloned());
                            }
                        }
                    }
                }
            }
        }
        positionals.sort_by_key(|(index, _)| *index);
        positionals
            .into_iter()
            .flat_map(|(_, values)| values)
            .chain(flags)
            .collect()
    }
}

/// Parses `kiln race PROBLEM WORDS...` into its panes.
pub fn plan(problem: &str, words: &[String]) -> Result<Plan, Refusal> {
    // `kiln race tsp --help` lists the flags there are to race: those of `kiln tsp`.
    if words.iter().any(|w| w == "--help" || w == "-h") {
        let help = Cli::try_parse_from(["kiln", problem, "--help"]);
        return Err(Refusal::Parse(help.expect_err("--help stops the parser")));
    }
    let read = Read::new(problem, words)?;
    let lists = read.listed()?;
    let panes: usize = lists.iter().map(|l| l.values.len()).product();
    if lists.is_empty() {
        return Err(InputError::new(
            "race",
            format!(
                "give one flag 2 to {MAX_RACERS} comma-separated values to race \
                 (e.g. kiln race tsp --moves swap,two-opt)"
            ),
        )
        .into());
    }
    if !(2..=MAX_RACERS).contains(&panes) {
        let flags: Vec<String> = lists.iter().map(|l| format!("--{}", l.flag)).collect();
        return Err(InputError::new(
            flags.join(" "),
            format!("a race has 2 to {MAX_RACERS} panes, not {panes}"),
        )
        .into());
    }
    let mut plan = Plan {
        problem: problem.to_string(),
        flags: lists.iter().map(|l| l.flag.clone()).collect(),
        panes: Vec::with_capacity(panes),
    };
    for n in 0..panes {
        // Pane n takes value (n / stride) % len of each list, the first list slowest.
        let mut stride = panes;
        let mut raced = Vec::new();
        let mut chosen = Vec::new();
        for list in &lists {
            stride /= list.values.len();
            let value = &list.values[(n / stride) % list.values.len()];
            chosen.push((list.id.as_str(), value.as_str()));
            raced.push((list.flag.clone(), value.clone()));
        }
        let line = ["kiln", problem]
            .into_iter()
            .map(String::from)
            .chain(read.words(&chosen));
        let mut cli = Cli::try_parse_from(line).map_err(Refusal::Parse)?;
        let Some(Command::Problem(problem)) = cli.command.take() else {
            return Err(Refusal::Race(InputError::new(
                "race",
                format!("`kiln {problem}` is not a problem to race"),
            )));
        };
        let name = raced
            .iter()
            .map(|(_, v)| v.as_str())
            .collect::<Vec<_>>()
            .join("/");
        plan.panes.push(Pane {
            name,
            raced,
            cli,
            problem,
        });
    }
    Ok(plan)
}

impl Plan {
    /// The race, resolved before anything runs into what each pane runs (its spec, its
    /// input read and checked: `BuiltIn::racer`), once what the panes' parser cannot
    /// check is checked: each pane's own flags (as `kiln PROBLEM` checks them, live or
    /// `headless`), nothing that makes a pane more than one run or writes one file from
    /// every pane, one puzzle per Sudoku pane; and each pane's `--trace` named by the pane
    /// (`t.csv` becomes `t-two-opt.csv`), none of them an existing file. Nothing after
    /// this reads a pane's flags.
    pub fn resolve(self, headless: bool) -> color_eyre::Result<Lineup> {
        let mut entrants = Vec::with_capacity(self.panes.len());
        for mut pane in self.panes {
            pane.cli.check_view(headless)?;
            let part = pane.file_part();
            let problem = pane.problem.get_mut();
            problem.check()?;
            if !headless {
                check_live(problem)?;
            }
            let shared = problem.shared();
            let one_run = "a race pane is one run: race --seed A,B instead";
            if shared.seeds {
                return Err(InputError::new("--seeds", one_run).into());
            }
            if shared.shard {
                return Err(InputError::new("--shard", one_run).into());
            }
            if shared.output {
                return Err(InputError::new(
                    "--output",
                    "a race writes no --output (its panes would share the file); --trace \
                     writes one file per pane",
                )
                .into());
            }
            let trace = problem.trace_mut();
            if let Some(path) = trace {
                let path = with_part(path, &part);
                Trace::check_new(&path)?;
                *trace = Some(path);
            }
            entrants.push(Entrant {
                maker: problem.racer()?,
                name: pane.name,
                raced: pane.raced,
            });
        }
        Ok(Lineup {
            problem: self.problem,
            flags: self.flags,
            entrants,
        })
    }
}

impl Pane {
    /// The pane's name as part of a file name: `[A-Za-z0-9._-]` kept, anything else `-`.
    pub fn file_part(&self) -> String {
        self.name
            .chars()
            .map(|c| match c {
                'a'..='z' | 'A'..='Z' | '0'..='9' | '.' | '_' | '-' => c,
                _ => '-',
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    fn names(line: &str) -> Vec<String> {
        let (problem, rest) = line.split_once(' ').unwrap();
        match plan(problem, &words(rest)) {
            Ok(plan) => plan.panes.into_iter().map(|p| p.name).collect(),
            Err(e) => panic!("{line}: {e:?}"),
        }
    }

    fn refused(line: &str) -> String {
        let (problem, rest) = line.split_once(' ').unwrap();
        match plan(problem, &words(rest)) {
            Ok(plan) => panic!("{line}: raced {} panes", plan.panes.len()),
            Err(Refusal::Race(e)) => e.to_string(),
            Err(Refusal::Parse(e)) => crate::cli::errors::one_line(&e),
        }
    }

    #[test]
    fn a_listed_flag_makes_one_pane_per_value_parsed_by_the_problem() {
        let plan = plan(
            "tsp",
            &words("puzzles/tsp/berlin52.tsp --moves swap-adjacent,swap,two-opt --seed 7"),
        )
        .unwrap();
        assert_eq!(plan.flags, ["moves"]);
        let moves: Vec<String> = plan
            .panes
            .iter()
            .map(|p| match &p.problem {
                ProblemCommand::Tsp(args) => {
                    assert_eq!(args.anneal.seed, 7);
                    assert!(args.file.is_some());
                    format!("{:?}", args.moves)
                }
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(moves.len(), 3);
        assert_ne!(moves[0], moves[2]);
        let names: Vec<&str> = plan.panes.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["swap-adjacent", "swap", "two-opt"]);
    }

    #[test]
    fn equals_and_short_forms_are_raced_and_positionals_are_not() {
        assert_eq!(
            names("tsp --random 200 --layout=uniform,clustered"),
            ["uniform", "clustered"]
        );
        assert_eq!(
            names("image --kernel n8,8-16 --density 0.3"),
            ["n8", "8-16"]
        );
        assert_eq!(
            names("sudoku puzzles/sudoku/easy20.txt --index 1 --preset kiln,lundy,ga"),
            ["kiln", "lundy", "ga"]
        );
    }

    #[test]
    fn two_listed_flags_race_every_combination_within_four_panes() {
        assert_eq!(
            names("tsp --random 50 --moves swap,two-opt --layout uniform,clustered"),
            [
                "swap/uniform",
                "swap/clustered",
                "two-opt/uniform",
                "two-opt/clustered"
            ]
        );
        let e =
            refused("tsp --random 50 --moves swap,two-opt,swap-adjacent --layout uniform,normal");
        assert_eq!(e, "--moves --layout: a race has 2 to 4 panes, not 6");
    }

    #[test]
    fn too_few_or_too_many_panes_and_bad_values_are_refused() {
        assert!(refused("tsp --random 50").starts_with("race: give one flag 2 to 4"));
        assert_eq!(
            refused("tsp --random 50 --moves swap,swap"),
            "--moves: swap is named twice"
        );
        assert_eq!(
            refused("tsp --seed 1,2,3,4,5"),
            "--seed: a race has 2 to 4 panes, not 5"
        );
        let e = refused("tsp --moves swap,sideways");
        assert!(e.contains("sideways"), "{e}");
        assert!(refused("tsp --moves swap,").contains("empty value"));
    }

    #[test]
    fn every_other_word_reaches_each_pane_as_given() {
        let plan = plan(
            "tsp",
            &words("--random 60 --no-polish --moves=swap,two-opt --seed 9 --speed 5 --quiet"),
        )
        .unwrap();
        for pane in &plan.panes {
            let ProblemCommand::Tsp(args) = &pane.problem else {
                panic!("{:?}", pane.problem);
            };
            assert!(args.no_polish);
            assert_eq!(args.anneal.seed, 9);
            assert!(pane.cli.globals.quiet);
            assert!(pane.cli.globals.speed.is_some());
        }
        // Raced under an alias, a flag is named by its own name.
        let presets = super::plan(
            "sudoku",
            &words("puzzles/sudoku/easy20.txt --presets kiln,lundy --index 2"),
        )
        .unwrap();
        assert_eq!(presets.flags, ["preset"]);
        assert_eq!(presets.panes[1].raced, [("preset".into(), "lundy".into())]);
    }

    #[test]
    fn file_parts_keep_only_safe_characters() {
        let pane = |name: &str| Pane {
            name: name.to_string(),
            raced: Vec::new(),
            cli: Cli::parse_from(["kiln"]),
            problem: ProblemCommand::Tsp(crate::flags::parse(&[])),
        };
        assert_eq!(pane("swap-adjacent").file_part(), "swap-adjacent");
        assert_eq!(pane("swap/clustered").file_part(), "swap-clustered");
        assert_eq!(pane("0.3 x").file_part(), "0.3-x");
    }
}
