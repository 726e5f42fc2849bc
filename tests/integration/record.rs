//! `--record FILE.cast`: the real binary's live view recorded in a pseudo-terminal, the
//! recording replayed into a vt100 screen and compared with the screen the terminal itself
//! ended on; and the files and runs `--record` refuses. (A `kiln serve --record-dir`
//! session is replayed in `serve`.)

use std::fs;

use crate::common::cast::replay;
use crate::common::kiln;
use crate::common::scratch::scratch;
use crate::tui_pty::Tui;

/// Runs `args` live at 80x24 with `--record`, resizes the terminal to 100x30 once the run
/// has ended, quits once the screen is still, and replays the recording.
fn recorded_run(args: &[&str], ended: &str) {
    let dir = scratch("record");
    let mut words = args.to_vec();
    words.extend(["--record", "run.cast"]);
    let mut tui = Tui::start_in(&dir, &words, 80, 24, &[]);
    tui.wait_for(ended);
    tui.resize_view(100, 30);
    let last = tui.settled();
    tui.press("q");
    assert_eq!(tui.wait_exit(), 0, "{args:?}");
    tui.assert_restored();

    let cast = replay(&dir.join("run.cast"));
    cast.assert_replays((80, 24), "xterm-256color", &["100x30"], &last);
    let replayed = cast.screen.screen();
    assert!(
        replayed.alternate_screen() && replayed.contents().contains(ended),
        "{args:?}: the replay ends on the view's last frame:\n{}",
        replayed.contents()
    );
}

/// A short live tour, over in about 1.5 s.
const TOUR: [&str; 6] = ["--random", "30", "--max-steps", "30000", "--speed", "20000"];

#[test]
fn a_live_run_replays_to_the_screen_it_ended_on() {
    let _cores = crate::common::busy();
    recorded_run(&[&["tsp"][..], &TOUR].concat(), "step budget used up");
}

#[test]
fn a_race_replays_to_the_screen_it_ended_on() {
    let _cores = crate::common::busy();
    let race = [&["race", "tsp", "--moves", "swap,two-opt"][..], &TOUR].concat();
    recorded_run(&race, "#2 done");
}

#[test]
fn an_existing_recording_is_refused_before_the_terminal_is_taken() {
    let dir = scratch("record-exists");
    fs::write(dir.join("old.cast"), "mine").unwrap();
    let mut tui = Tui::start_in(&dir, &["--record", "old.cast"], 80, 24, &[]);
    assert_eq!(tui.wait_exit(), 2);
    let screen = tui.text();
    assert_eq!(
        screen.trim(),
        "kiln: --record: old.cast exists; choose another name",
        "one line, on the terminal as it was"
    );
    tui.assert_restored();
    assert_eq!(fs::read_to_string(dir.join("old.cast")).unwrap(), "mine");
}

#[test]
fn a_run_with_nothing_to_record_is_refused() {
    let dir = scratch("record-refused");
    let cast = dir.join("x.cast");
    let cast = cast.to_str().unwrap();
    let record_dir = dir.join("missing");
    let record_dir = record_dir.to_str().unwrap();
    // `--headless --record` and `plot --record` are among the flags `limits_headless`
    // refuses; stdout not a terminal is headless all the same.
    for (args, says) in [
        (
            &["tsp", "--random", "10", "--record", cast][..],
            "--record: only the live view is recorded, and this run is headless",
        ),
        (
            &["race", "tsp", "--moves", "swap,two-opt", "--record", cast],
            "this run is headless",
        ),
        (
            &["serve", "--record", cast],
            "--record: `kiln serve` records each session with --record-dir DIR",
        ),
        (&["serve", "--record-dir", record_dir], "--record-dir: "),
    ] {
        let output = kiln(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 0, "no file was made");
}
