//! Every `kiln` command in the README's `sh` blocks runs as written, in order, in one scratch
//! directory (so `kiln plot` finds the traces the race before it wrote). Commands shown for
//! the live view run headless here (stdout is a pipe) with a one-second limit per puzzle and
//! without their pace.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The `kiln ...` lines of the README's ```sh blocks.
fn examples(readme: &str) -> Vec<String> {
    let mut commands = Vec::new();
    let mut in_sh = false;
    for line in readme.lines() {
        match line.trim() {
            "```sh" => in_sh = true,
            "```" => in_sh = false,
            text if in_sh && text.starts_with("kiln ") => {
                let command = text.split(" #").next().unwrap_or(text).trim();
                commands.push(command.to_string());
            }
            _ => {}
        }
    }
    commands
}

/// `word` with a path into the checkout made absolute.
fn resolved(word: &str, root: &Path) -> String {
    if word.starts_with("puzzles/") {
        root.join(word).display().to_string()
    } else {
        word.to_string()
    }
}

#[test]
fn every_readme_example_runs() {
    let _cores = crate::common::busy();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let commands = examples(&readme);
    assert!(commands.len() >= 15, "{commands:?}");
    let dir = crate::common::scratch::scratch("readme");
    for command in &commands {
        let mut args: Vec<String> = command
            .split_whitespace()
            .skip(1)
            .map(|w| resolved(w, &root))
            .collect();
        let live = !args.iter().any(|a| a == "--headless")
            && !["presets", "plot"].contains(&args[0].as_str());
        if live {
            // A pace is the live view's alone: headless, the example runs flat out.
            if let Some(at) = args.iter().position(|a| a == "--speed") {
                args.drain(at..at + 2);
            }
            args.extend(["--time-limit", "1"].map(String::from));
        }
        let out = Command::new(env!("CARGO_BIN_EXE_kiln"))
            .args(&args)
            .current_dir(&dir)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        // A live example may leave a puzzle unsolved in its second; the others must succeed.
        let ok = out.status.success() || (live && out.status.code() == Some(1));
        assert!(ok, "`{command}` exited {:?}: {stderr}", out.status);
        let stdout = String::from_utf8_lossy(&out.stdout);
        if args[0] != "presets" && args[0] != "plot" {
            assert!(!stdout.is_empty(), "`{command}` printed nothing");
            for line in stdout.lines() {
                serde_json::from_str::<serde_json::Value>(line)
                    .unwrap_or_else(|e| panic!("`{command}`: {e}: {line}"));
            }
        }
    }
    assert!(dir.join("race.svg").is_file(), "kiln plot wrote no figure");
    assert!(dir.join("pcb442.tour").is_file() && dir.join("stripes.png").is_file());
}
