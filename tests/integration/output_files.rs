//! `--output` never destroys a file: not an input of the same run, not an existing file
//! without `--force`; a bad path is refused before the run; a write that fails after the
//! run still prints the result, with the error, and exits 3.

use std::fs;
use std::process::Output;

use crate::common::kiln;
use crate::common::scratch::scratch;

/// `kiln` with `args`, headless and short.
fn headless(args: &[&str]) -> Output {
    kiln(&[args, &["--headless", "--max-steps", "20000"]].concat())
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn an_input_is_never_replaced_by_the_output() {
    let _cores = crate::common::busy();
    let dir = scratch("input");
    // A reference tour: an input whose extension `--output` could write.
    let instance = dir.join("berlin52.opt.tour");
    fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/tsp/berlin52.opt.tour"),
        &instance,
    )
    .unwrap();
    let before = fs::read(&instance).unwrap();
    let path = instance.to_str().unwrap();
    for extra in [&[][..], &["--force"][..]] {
        let mut args = vec!["tsp", "--tour", path, "--output", path];
        args.extend_from_slice(extra);
        let out = headless(&args);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("is an input of this run"),
            "{}",
            stderr(&out)
        );
        assert!(out.stdout.is_empty(), "refused before the run");
    }
    assert_eq!(fs::read(&instance).unwrap(), before);
}

#[test]
fn an_existing_file_needs_force() {
    let _cores = crate::common::busy();
    let dir = scratch("force");
    let output = dir.join("best.pbm");
    fs::write(&output, "mine").unwrap();
    let path = output.to_str().unwrap();
    let out = headless(&["image", "--size", "32x32", "--output", path]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("exists; --force replaces it"),
        "{}",
        stderr(&out)
    );
    assert_eq!(fs::read_to_string(&output).unwrap(), "mine");
    let out = headless(&["image", "--size", "32x32", "--output", path, "--force"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(fs::read(&output).unwrap().starts_with(b"P4"));
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 1, "no temporary left");
}

#[test]
fn a_path_that_cannot_be_written_is_refused_before_the_run() {
    let _cores = crate::common::busy();
    let out = headless(&["tsp", "--output", "/nonexistent-dir/best.tour"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    assert!(
        stderr(&out).contains("cannot write there"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_failed_write_still_prints_the_result_and_exits_3() {
    let _cores = crate::common::busy();
    let out = headless(&["tsp", "--output", "/dev/full"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let line: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["tour"].as_array().unwrap().len(), 52);
    assert!(
        line["output_error"].as_str().unwrap().contains("/dev/full"),
        "{line}"
    );
    assert!(stderr(&out).contains("not written"), "{}", stderr(&out));
}

/// Issue 33: a run killed (SIGKILL) while it wrote `--output` leaves its hidden temporary;
/// the next run to write that file removes it, and keeps those of live processes.
#[test]
fn a_killed_run_s_temporary_is_removed_by_the_next() {
    let _cores = crate::common::busy();
    let dir = scratch("stale");
    let output = dir.join("best.pbm");
    // A process that has ended: its PID is no one's (until the system reuses it).
    let mut gone = std::process::Command::new("true").spawn().unwrap();
    gone.wait().unwrap();
    let stale = dir.join(format!(".best.pbm.kiln-{}.tmp", gone.id()));
    let live = dir.join(format!(".best.pbm.kiln-{}.tmp", std::process::id()));
    for file in [&stale, &live] {
        fs::write(file, "partial").unwrap();
    }
    let out = headless(&[
        "image",
        "--size",
        "32x32",
        "--output",
        output.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(fs::read(&output).unwrap().starts_with(b"P4"));
    assert!(!stale.exists(), "the dead run's temporary is left");
    assert!(live.exists(), "a live run's temporary was removed");
}
