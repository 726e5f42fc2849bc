//! What the Sudoku and race end-to-end tests share: the built binary and its JSON lines.

use std::process::{Command, Output};

use serde_json::Value;

/// Runs the built `kiln` with `args`.
pub fn kiln(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kiln"))
        .args(args)
        .output()
        .unwrap()
}

/// Every line of `output`'s stdout, parsed as JSON.
pub fn lines(output: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}
