//! What the tests share: the built binary and its JSON lines, screens
//! in a pty or over SSH, and recordings replayed.

pub(crate) mod cast;
pub(crate) mod scratch;
pub(crate) mod screens;
pub(crate) mod server;

use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

/// The tests of this crate share one process and the machine's cores. A test that holds
/// kiln to a wall-clock limit runs `alone()`; the tests that run the binary or keep the
/// cores busy (live runs at full speed, the binary in a pty) run `busy()`, so they never
/// overlap it.
static CORES: RwLock<()> = RwLock::new(());

pub(crate) fn alone() -> RwLockWriteGuard<'static, ()> {
    CORES
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

pub(crate) fn busy() -> RwLockReadGuard<'static, ()> {
    CORES
        .read()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

use std::process::{Command, Output};

use serde_json::Value;

/// Runs the built `kiln` with `args`.
pub(crate) fn kiln(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kiln"))
        .args(args)
        .output()
        .unwrap()
}

/// Every line of `output`'s stdout, parsed as JSON.
pub(crate) fn lines(output: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `line` without the fields named in `keys`, wherever they are (a race's ranking entries
/// too), the rest left byte for byte as kiln printed it. The fields removed hold numbers,
/// null or arrays of numbers: the time fields, which no two runs share.
pub(crate) fn without_fields(line: &str, keys: &[&str]) -> String {
    let mut kept = line.to_string();
    for key in keys {
        let pattern = format!("\"{key}\":");
        while let Some(start) = kept.find(&pattern) {
            let value = start + pattern.len();
            let end = if kept[value..].starts_with('[') {
                value + kept[value..].find(']').unwrap() + 1
            } else {
                value + kept[value..].find([',', '}']).unwrap()
            };
            // Take the comma after the field, or before it when it is the last one.
            let (start, end) = match (kept.as_bytes()[end], kept.as_bytes()[start - 1]) {
                (b',', _) => (start, end + 1),
                (_, b',') => (start - 1, end),
                _ => (start, end),
            };
            kept.replace_range(start..end, "");
        }
    }
    kept
}
