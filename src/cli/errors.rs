//! clap's errors said the way kiln says every other error: one line, `kiln: MESSAGE`, exit
//! code 2. clap's own rendering takes 3-7 lines (message, usage, a hint to try --help).

use clap::error::{ContextKind, ContextValue, ErrorKind};

use crate::input::excerpt;

/// The message (without `kiln: `) for a command-line error. Not for `--help` and
/// `--version`, which print as clap prints them.
pub fn one_line(error: &clap::Error) -> String {
    let message = described(error).unwrap_or_else(|| first_line(error));
    match suggestion(error) {
        Some(s) => format!("{message} ({s})"),
        None => message,
    }
}

fn described(error: &clap::Error) -> Option<String> {
    // What the user typed is quoted short: a 100 KB value is not a 100 KB line.
    let arg =
        || string(error, ContextKind::InvalidArg).map(|a| excerpt(&flag_name(&a)).into_owned());
    let value = || string(error, ContextKind::InvalidValue).map(|v| excerpt(&v).into_owned());
    Some(match error.kind() {
        ErrorKind::ValueValidation => {
            let why = std::error::Error::source(error)?;
            format!("{}: {why}", arg()?)
        }
        ErrorKind::InvalidValue if value()?.is_empty() => {
            format!("{}: a value is required", arg()?)
        }
        ErrorKind::InvalidValue => {
            let valid = strings(error, ContextKind::ValidValue).join(", ");
            format!("{}: '{}' is not one of {valid}", arg()?, value()?)
        }
        ErrorKind::UnknownArgument => format!("unexpected argument '{}'", arg()?),
        ErrorKind::InvalidSubcommand => format!(
            "unknown command '{}'",
            excerpt(&string(error, ContextKind::InvalidSubcommand)?)
        ),
        ErrorKind::ArgumentConflict => {
            let prior = match error.get(ContextKind::PriorArg) {
                Some(ContextValue::String(p)) => flag_name(p),
                Some(ContextValue::Strings(p)) => p
                    .iter()
                    .map(|p| flag_name(p))
                    .collect::<Vec<_>>()
                    .join(" or "),
                _ => "the other flags given".to_string(),
            };
            if prior == arg()? {
                format!("{prior} is given more than once")
            } else {
                format!("{} cannot be used with {prior}", arg()?)
            }
        }
        ErrorKind::MissingRequiredArgument => {
            let missing: Vec<String> = strings(error, ContextKind::InvalidArg)
                .iter()
                .map(|a| flag_name(a))
                .collect();
            // kiln has no flag that is required by itself: a missing flag is one that
            // another flag given applies only with (clap's `requires`).
            if missing.iter().all(|m| m.starts_with('-')) {
                format!("a flag given needs {}", missing.join(" and "))
            } else {
                format!("missing {}", missing.join(" and "))
            }
        }
        _ => return None,
    })
}

/// `--time-limit <SECS>` -> `--time-limit`; a positional `[FILE]` stays as it is.
fn flag_name(arg: &str) -> String {
    match arg.split_once(' ') {
        Some((flag, _)) if flag.starts_with('-') => flag.to_string(),
        _ => arg.to_string(),
    }
}

fn string(error: &clap::Error, kind: ContextKind) -> Option<String> {
    match error.get(kind)? {
        ContextValue::String(s) => Some(s.clone()),
        _ => None,
    }
}

fn strings(error: &clap::Error, kind: ContextKind) -> Vec<String> {
    match error.get(kind) {
        Some(ContextValue::Strings(s)) => s.clone(),
        Some(ContextValue::String(s)) => vec![s.clone()],
        _ => Vec::new(),
    }
}

/// clap's "did you mean" and tips, joined.
fn suggestion(error: &clap::Error) -> Option<String> {
    let mut parts = Vec::new();
    for kind in [
        ContextKind::SuggestedSubcommand,
        ContextKind::SuggestedArg,
        ContextKind::SuggestedValue,
    ] {
        let names = strings(error, kind);
        if !names.is_empty() {
            parts.push(format!("did you mean '{}'?", names.join("' or '")));
        }
    }
    if let Some(ContextValue::StyledStrs(tips)) = error.get(ContextKind::Suggested) {
        parts.extend(tips.iter().map(|t| t.to_string()));
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// clap's own message, first line, without its `error: `.
fn first_line(error: &clap::Error) -> String {
    let text = error.render().to_string();
    let line = text.lines().next().unwrap_or("bad command line");
    line.strip_prefix("error: ").unwrap_or(line).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::Cli;
    use clap::Parser;

    fn message(args: &[&str]) -> String {
        let words = std::iter::once("kiln").chain(args.iter().copied());
        one_line(&Cli::try_parse_from(words).unwrap_err())
    }

    #[test]
    fn every_kind_reads_as_one_line() {
        let cases: [(&[&str], &str); 7] = [
            (
                &["sudoku", "--time-limit", "1e20"],
                "--time-limit: 1e20 is not in (0, 31536000] (seconds, a year at most)",
            ),
            (
                &["tsp", "--moves", "three-opt"],
                "--moves: 'three-opt' is not one of two-opt, swap-adjacent, swap (did you mean 'two-opt'?)",
            ),
            (
                &["sudoku", "--sed", "3"],
                "unexpected argument '--sed' (did you mean '--seed'?)",
            ),
            (
                &["sudok"],
                "unknown command 'sudok' (did you mean 'sudoku'?)",
            ),
            (
                &["image", "x.pbm", "--size", "8x8"],
                "[FILE] cannot be used with --size",
            ),
            (&["race"], "missing <FILE>"),
            (&["image", "--lambda", "2"], "a flag given needs --denoise"),
        ];
        for (args, expected) in cases {
            assert_eq!(message(args), expected, "{args:?}");
        }
    }
}
