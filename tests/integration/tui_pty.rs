//! The real binary in a pseudo-terminal: it draws, obeys keys, quits cleanly and leaves the
//! terminal as it found it.

use std::fs;
use std::ops::{Deref, DerefMut};
use std::path::Path;
use std::thread;
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, MasterPty};

use crate::common::scratch::scratch;
use crate::common::screens::{self, Pty};

/// kiln in a pseudo-terminal, and the terminal's modes before it started.
pub(crate) struct Tui {
    pty: Pty,
    cooked: String,
}

impl Deref for Tui {
    type Target = Pty;
    fn deref(&self) -> &Pty {
        &self.pty
    }
}

impl DerefMut for Tui {
    fn deref_mut(&mut self) -> &mut Pty {
        &mut self.pty
    }
}

/// The terminal modes that raw mode changes, to compare before and after.
fn modes(master: &dyn MasterPty) -> String {
    let t = master.get_termios().expect("a unix pty has termios");
    format!("{:?} {:?}", t.local_flags, t.input_flags)
}

impl Tui {
    fn start(args: &[&str], cols: u16, rows: u16) -> Tui {
        Tui::start_with(args, cols, rows, &[])
    }

    fn start_with(args: &[&str], cols: u16, rows: u16, env: &[(&str, &str)]) -> Tui {
        Tui::start_in(Path::new(env!("CARGO_MANIFEST_DIR")), args, cols, rows, env)
    }

    /// Runs kiln with `dir` as its working directory.
    pub(crate) fn start_in(
        dir: &Path,
        args: &[&str],
        cols: u16,
        rows: u16,
        env: &[(&str, &str)],
    ) -> Tui {
        let pair = screens::open(cols, rows);
        let cooked = modes(&*pair.master);
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_kiln"));
        cmd.args(args);
        cmd.cwd(dir);
        cmd.env("TERM", "xterm-256color");
        cmd.env("LANG", "C.UTF-8");
        cmd.env_remove("LC_ALL");
        cmd.env_remove("LC_CTYPE");
        cmd.env_remove("NO_COLOR");
        for (key, value) in env {
            cmd.env(key, value);
        }
        Tui {
            pty: Pty::spawn(pair, cmd, cols, rows),
            cooked,
        }
    }

    pub(crate) fn assert_restored(&self) {
        let parser = self.screen.lock().unwrap();
        assert!(
            !parser.screen().alternate_screen(),
            "still on the alternate screen"
        );
        assert!(!parser.screen().hide_cursor(), "cursor still hidden");
        assert_eq!(
            modes(&*self.master),
            self.cooked,
            "terminal left in raw mode"
        );
    }
}

#[test]
fn keys_drive_the_live_sudoku_and_quit_restores_the_terminal() {
    let _cores = crate::common::busy();
    let mut tui = Tui::start(&[], 80, 24);
    let first = tui.wait_for("Energy");
    assert!(first.contains("┌───────┬───────┬───────┐"), "{first}");
    assert!(first.contains("space pause"), "{first}");

    tui.press(" ");
    tui.wait_for("PAUSED");
    // Paused, the screen stops changing and almost nothing is sent.
    thread::sleep(Duration::from_millis(300));
    let paused = tui.output_rate(Duration::from_secs(1));
    assert!(paused < 200.0, "a paused screen sent {paused} bytes/s");

    tui.press("r");
    tui.wait_for("reheats    1");

    // Esc, ? and q close the help and do nothing else.
    for closer in ["\x1b", "?", "q"] {
        tui.press("?");
        tui.wait_for("this help");
        tui.press(closer);
        let closed = tui.wait_until("the help close", |text| !text.contains("this help"));
        assert!(closed.contains("PAUSED"), "{closed}");
    }
    assert!(
        tui.child.try_wait().unwrap().is_none(),
        "q in the help quit"
    );

    tui.press(" ");
    tui.wait_for("running");
    let running = tui.output_rate(Duration::from_secs(2));
    println!("bytes/s to the terminal: running {running:.0}, paused {paused:.0}");

    tui.press("q");
    assert_eq!(tui.wait_exit(), 0);
    tui.assert_restored();
}

/// `ESC [ 200 ~` starts a bracketed paste that never ends: the keys after it still quit
/// (a parser that waited for the paste's end would hold them for ever).
#[test]
fn an_unfinished_paste_does_not_hold_the_keys_after_it() {
    let _cores = crate::common::busy();
    for quit in ["q", "\x03", "\x04"] {
        let mut tui = Tui::start(&[], 80, 24);
        tui.wait_for("Energy");
        tui.press(b"\x1b[200~");
        thread::sleep(Duration::from_millis(100));
        tui.press(quit);
        assert_eq!(tui.wait_exit(), 0, "{quit:?} after an unfinished paste");
        tui.assert_restored();
    }
}

#[test]
fn tab_cycles_through_the_three_demos() {
    let _cores = crate::common::busy();
    let mut tui = Tui::start(&[], 80, 24);
    tui.wait_for("[Sudoku]");
    tui.press("\t");
    let tsp = tui.wait_for("[TSP]");
    assert!(tsp.contains("berlin52"), "{tsp}");
    tui.press("n");
    tui.wait_for("2/4");
    tui.press("\t");
    let image = tui.wait_for("[Image]");
    assert!(image.contains("kernel"), "{image}");
    tui.press("\t");
    tui.wait_for("[Sudoku]");
    tui.press("q");
    assert_eq!(tui.wait_exit(), 0);
}

#[test]
fn a_race_shows_one_pane_per_preset_and_who_finished() {
    let _cores = crate::common::busy();
    let mut tui = Tui::start(
        &[
            "race",
            "puzzles/sudoku/hardest11.txt",
            "--index",
            "1",
            "--presets",
            "kiln,yarpiz",
        ],
        80,
        24,
    );
    // At the pace of `kiln sudoku` (30k steps/s): kiln solves puzzle 1 by propagation
    // alone, yarpiz anneals for 61,562 steps, about 2 s.
    let text = tui.wait_for("finished: 1. kiln (");
    assert!(
        text.contains("╭ kiln") && text.contains("╭ yarpiz running"),
        "{text}"
    );
    let done = tui.wait_for(" wins by ");
    let finish_line = done.lines().next().unwrap_or_default();
    let margin: f64 = finish_line
        .split(" kiln wins by ")
        .nth(1)
        .and_then(|rest| rest.trim_end().strip_suffix(" s"))
        .and_then(|seconds| seconds.parse().ok())
        .unwrap_or_else(|| panic!("no margin:\n{done}"));
    assert!((1.5..3.0).contains(&margin), "{done}");
    tui.press("q");
    assert_eq!(tui.wait_exit(), 0);
    tui.assert_restored();
}

#[test]
fn a_tsp_race_shows_both_tours_and_the_standings_and_q_quits() {
    let _cores = crate::common::busy();
    let mut tui = Tui::start(
        &[
            "race",
            "tsp",
            "puzzles/tsp/berlin52.tsp",
            "--moves",
            "swap,two-opt",
        ],
        80,
        24,
    );
    let text = tui.wait_until("both panes with counters", |t| {
        t.matches("best  ").count() == 2 && t.contains("--moves · 1. ")
    });
    println!("{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with(" kiln race · berlin52 (52 cities) · --moves · 1. "),
        "{text}"
    );
    assert!(lines[0].contains("2. "), "{text}");
    // Side by side under their titles, each with its tour drawn in braille.
    assert!(lines[1].starts_with("╭ swap #"), "{text}");
    assert!(lines[1].contains("╮╭ two-opt #"), "{text}");
    let braille = |line: &str, from: usize, to: usize| {
        line.chars()
            .skip(from)
            .take(to - from)
            .any(|c| ('\u{2801}'..='\u{28ff}').contains(&c))
    };
    assert!(
        lines.iter().any(|l| braille(l, 1, 24)),
        "no tour on the left:\n{text}"
    );
    assert!(
        lines.iter().any(|l| braille(l, 41, 64)),
        "no tour on the right:\n{text}"
    );
    assert!(lines[23].starts_with(" space pause"), "{text}");
    tui.press("q");
    assert_eq!(tui.wait_exit(), 0);
    tui.assert_restored();
}

#[test]
fn a_live_run_with_trace_writes_its_history_from_the_first_sample_to_the_last() {
    let _cores = crate::common::busy();
    let dir = scratch("trace");
    let args = [
        "tsp", "--random", "200", "--speed", "100000", "--trace", "live.csv",
    ];
    let mut tui = Tui::start_in(&dir, &args, 80, 24, &[]);
    tui.wait_for("iteration");
    thread::sleep(Duration::from_millis(1500));
    tui.press("q");
    assert_eq!(tui.wait_exit(), 0);
    tui.assert_restored();
    let text = fs::read_to_string(dir.join("live.csv")).unwrap();
    let rows = kiln::search::trace::parse(&text, "live.csv").unwrap();
    assert!(text.starts_with(kiln::search::trace::HEADER), "{text}");
    assert_eq!(rows[0].iteration, 0, "{text}");
    let last = rows.last().unwrap();
    // About 100k steps a second for 1.5 s and more: the last row is the run at `q`.
    assert!(rows.len() > 10, "{text}");
    assert!(last.iteration > 100_000, "{text}");
    assert!(
        rows.windows(2).all(|w| w[0].iteration < w[1].iteration),
        "{text}"
    );
    // A second run refuses the file before the screen changes.
    let mut again = Tui::start_in(&dir, &args, 80, 24, &[]);
    assert_eq!(again.wait_exit(), 2);
    assert_eq!(fs::read_to_string(dir.join("live.csv")).unwrap(), text);
}

#[test]
fn sigterm_and_sighup_end_the_app_and_restore_the_terminal() {
    let _cores = crate::common::busy();
    for (signal, code) in [("TERM", 143), ("HUP", 129)] {
        let mut tui = Tui::start(&[], 80, 24);
        tui.wait_for("Energy");
        let pid = tui.child.process_id().unwrap();
        let killed = std::process::Command::new("kill")
            .args([format!("-{signal}"), pid.to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        assert_eq!(tui.wait_exit(), code, "128 + SIG{signal}");
        tui.assert_restored();
    }
}

#[test]
fn closing_the_terminal_ends_the_app() {
    let _cores = crate::common::busy();
    let Tui {
        pty:
            Pty {
                master,
                mut child,
                writer,
                ..
            },
        ..
    } = Tui::start(&[], 80, 24);
    thread::sleep(Duration::from_millis(500));
    // The terminal window goes away: kiln gets SIGHUP and must not spin on a dead tty.
    drop(writer);
    drop(master);
    let deadline = Instant::now() + Duration::from_secs(10);
    while child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "kiln outlived its terminal");
        thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_small_terminal_says_so_and_recovers_on_resize() {
    let _cores = crate::common::busy();
    let mut tui = Tui::start(&[], 40, 12);
    tui.wait_for("terminal too small (need");
    tui.resize(80, 24);
    tui.wait_for("Energy");
    tui.press("\x03");
    assert_eq!(tui.wait_exit(), 0);
    tui.assert_restored();
}

#[test]
fn no_color_marks_conflicts_with_reverse_video_and_no_colour() {
    let _cores = crate::common::busy();
    let mut tui = Tui::start_with(&[], 80, 24, &[("NO_COLOR", "1")]);
    tui.wait_for("Energy");
    tui.press(" ");
    let text = tui.wait_for("PAUSED");
    assert!(
        text.contains('◂') || text.contains('▴'),
        "nothing to mark:\n{text}"
    );
    let parser = tui.screen.lock().unwrap();
    let screen = parser.screen();
    let (mut reversed, mut coloured) = (0, 0);
    for row in 0..24 {
        for col in 0..80 {
            let cell = screen.cell(row, col).unwrap();
            reversed += usize::from(cell.inverse());
            coloured += usize::from(cell.fgcolor() != vt100::Color::Default);
        }
    }
    drop(parser);
    assert!(reversed > 0, "no cell in reverse video");
    assert_eq!(coloured, 0, "NO_COLOR yet {coloured} coloured cells");
    tui.press("q");
    assert_eq!(tui.wait_exit(), 0);
}

#[test]
fn ascii_mode_draws_without_box_drawing() {
    let _cores = crate::common::busy();
    let mut tui = Tui::start(&["--ascii"], 80, 24);
    let text = tui.wait_for("Energy");
    assert!(text.contains("+-------+-------+-------+"), "{text}");
    assert!(!text.contains('│') && !text.contains('█'), "{text}");
    tui.press("q");
    assert_eq!(tui.wait_exit(), 0);
}

#[test]
fn the_attract_loop_moves_on_to_the_next_puzzle() {
    let _cores = crate::common::busy();
    let mut tui = Tui::start(&["--speed", "full"], 80, 24);
    tui.wait_for("[Sudoku] 1/12");
    let banner = tui.wait_for("next in");
    assert!(banner.contains("SOLVED by annealing in"), "{banner}");
    tui.wait_for("[Sudoku] 2/12");
    tui.press("q");
    assert_eq!(tui.wait_exit(), 0);
}

#[test]
fn once_stays_on_the_finished_run() {
    let _cores = crate::common::busy();
    let mut tui = Tui::start(&["--speed", "full", "--once"], 80, 24);
    tui.wait_for("SOLVED by annealing in");
    thread::sleep(Duration::from_secs(6));
    let text = tui.text();
    assert!(
        text.contains("[Sudoku] 1/12") && !text.contains("next in"),
        "{text}"
    );
    tui.press("q");
    assert_eq!(tui.wait_exit(), 0);
}

#[test]
fn dumb_and_old_terminals_get_ascii_without_colour() {
    let _cores = crate::common::busy();
    for (term, lang) in [("dumb", "C.UTF-8"), ("vt100", "C.UTF-8"), ("xterm", "C")] {
        let mut tui = Tui::start_with(&[], 80, 24, &[("TERM", term), ("LANG", lang)]);
        let text = tui.wait_for("Energy");
        assert!(
            text.contains("+-------+-------+-------+"),
            "{term} {lang}:\n{text}"
        );
        assert!(text.is_ascii(), "{term} {lang}:\n{text}");
        tui.press("q");
        assert_eq!(tui.wait_exit(), 0);
    }
    let mut forced = Tui::start_with(&["--unicode"], 80, 24, &[("TERM", "dumb")]);
    let text = forced.wait_for("Energy");
    assert!(text.contains("┌───────┬"), "{text}");
    forced.press("q");
    assert_eq!(forced.wait_exit(), 0);
}

/// The most an 80x24 and a 200x50 screen may take, in bytes a second while running.
const BUDGET_80X24: f64 = 20_000.0;
const BUDGET_200X50: f64 = 230_000.0;

#[test]
fn every_view_keeps_to_its_bandwidth_and_sends_nothing_paused() {
    let _cores = crate::common::busy();
    let views: [(&str, &[&str], &str); 6] = [
        ("Sudoku", &[], "[Sudoku]"),
        ("TSP berlin52", &["tsp"], "berlin52"),
        ("TSP pcb442", &["tsp", "puzzles/tsp/pcb442.tsp"], "pcb442"),
        (
            "TSP 1000 random",
            &["tsp", "--random", "1000"],
            "1000 cities",
        ),
        ("Image", &["image"], "kernel"),
        (
            "Race",
            &[
                "race",
                "puzzles/sudoku/hardest11.txt",
                "--index",
                "2",
                "--presets",
                "ga,lundy",
                "--speed",
                "30000",
            ],
            "kiln race",
        ),
    ];
    // The two sizes side by side: what is measured is bytes a frame budget lets through,
    // which sharing the cores can only lower, and the test takes half the time.
    let tables: Vec<Vec<String>> = thread::scope(|scope| {
        let sizes = [(80, 24, BUDGET_80X24), (200, 50, BUDGET_200X50)];
        let handles: Vec<_> = sizes
            .into_iter()
            .map(|(cols, rows, budget)| {
                scope.spawn(move || {
                    views
                        .iter()
                        .map(|&(name, args, marker)| {
                            view_rates(name, args, marker, (cols, rows), budget)
                        })
                        .collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    println!("{}", tables.concat().join("\n"));
}

/// One view's bytes a second running and paused at `cols`x`rows`, checked against `budget`,
/// as a table row.
fn view_rates(
    name: &str,
    args: &[&str],
    marker: &str,
    (cols, rows): (u16, u16),
    budget: f64,
) -> String {
    let mut tui = Tui::start(args, cols, rows);
    tui.wait_for(marker);
    thread::sleep(Duration::from_millis(500));
    let running = tui.output_rate(Duration::from_secs(2));
    tui.press(" ");
    // The frame owed to the budget may still come.
    thread::sleep(Duration::from_millis(700));
    let paused = tui.output_rate(Duration::from_secs(1));
    tui.press("q");
    assert_eq!(tui.wait_exit(), 0);
    assert!(
        running <= budget,
        "{name} at {cols}x{rows}: {running:.0} bytes/s"
    );
    assert!(
        paused < 100.0,
        "{name} at {cols}x{rows} paused: {paused:.0} bytes/s"
    );
    format!(
        "| {name} | {cols}x{rows} | {:.1} KB/s | {paused:.0} B/s |",
        running / 1000.0
    )
}

fn puzzle(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .display()
        .to_string()
}

#[test]
fn e_saves_the_board_and_the_best_grid_in_new_files_every_time() {
    let _cores = crate::common::busy();
    let dir = scratch("save");
    // Someone else's file under the number the third save would take.
    fs::write(dir.join("kiln-sudoku-default-3.json"), "not kiln's").unwrap();
    let default = puzzle("puzzles/sudoku/default.txt");
    let mut tui = Tui::start_in(&dir, &["sudoku", &default], 80, 24, &[]);
    tui.wait_for("Energy");

    tui.press("e");
    tui.wait_for("saved kiln-sudoku-default-1.png, .json");
    let png = image::open(dir.join("kiln-sudoku-default-1.png")).unwrap();
    assert!(png.width() > 300 && png.width() == png.height(), "{png:?}");
    let first = fs::read(dir.join("kiln-sudoku-default-1.json")).unwrap();
    let line: serde_json::Value = serde_json::from_slice(&first).unwrap();
    assert_eq!(line["problem"], "sudoku");
    assert_eq!(line["solution"].as_str().unwrap().len(), 81, "{line}");

    tui.press("e");
    tui.wait_for("saved kiln-sudoku-default-2.png, .json");
    tui.press("e");
    tui.wait_for("saved kiln-sudoku-default-4.png, .json");
    assert_eq!(
        fs::read(dir.join("kiln-sudoku-default-1.json")).unwrap(),
        first
    );
    assert_eq!(
        fs::read_to_string(dir.join("kiln-sudoku-default-3.json")).unwrap(),
        "not kiln's"
    );
    assert!(!dir.join("kiln-sudoku-default-3.png").exists());
    image::open(dir.join("kiln-sudoku-default-4.png")).unwrap();

    tui.press("q");
    assert_eq!(tui.wait_exit(), 0);
}

#[test]
fn output_gets_the_best_tour_on_quit_and_is_never_overwritten() {
    let _cores = crate::common::busy();
    let dir = scratch("output");
    let mut tui = Tui::start_in(&dir, &["tsp", "--output", "best.tour"], 80, 24, &[]);
    tui.wait_for("berlin52");
    tui.press("q");
    assert_eq!(tui.wait_exit(), 0);
    let tour = fs::read_to_string(dir.join("best.tour")).unwrap();
    assert!(
        tour.contains("TYPE : TOUR") && tour.ends_with("-1\nEOF\n"),
        "{tour}"
    );
    assert_eq!(
        tour.lines().filter(|l| l.parse::<u32>().is_ok()).count(),
        52
    );

    // A file that exists before the run: refused before the screen opens.
    let mut refused = Tui::start_in(&dir, &["tsp", "--output", "best.tour"], 80, 24, &[]);
    assert_ne!(refused.wait_exit(), 0);
    assert!(
        refused.text().contains("--force replaces it"),
        "{}",
        refused.text()
    );

    // A file that appears during the run: refused on quit, after the terminal is restored.
    let mut tui = Tui::start_in(&dir, &["tsp", "--output", "late.tour"], 80, 24, &[]);
    tui.wait_for("berlin52");
    fs::write(dir.join("late.tour"), "mine").unwrap();
    tui.press("q");
    assert_ne!(tui.wait_exit(), 0);
    tui.assert_restored();
    assert!(
        tui.text().contains("late.tour: not written"),
        "{}",
        tui.text()
    );
    assert_eq!(fs::read_to_string(dir.join("late.tour")).unwrap(), "mine");
}

#[test]
fn the_live_view_writes_pictures_by_extension_on_quit() {
    let _cores = crate::common::busy();
    let dir = scratch("output-pictures");
    let mut tui = Tui::start_in(&dir, &["tsp", "--output", "tour.png"], 80, 24, &[]);
    tui.wait_for("berlin52");
    tui.press("q");
    assert_eq!(tui.wait_exit(), 0);
    assert_eq!(image::open(dir.join("tour.png")).unwrap().width(), 801);

    let mut tui = Tui::start_in(&dir, &["sudoku", "--output", "grid.svg"], 80, 24, &[]);
    tui.wait_for("9x9");
    tui.press("q");
    assert_eq!(tui.wait_exit(), 0);
    let svg = fs::read_to_string(dir.join("grid.svg")).unwrap();
    assert!(svg.contains("<svg") && svg.contains("<path"), "{svg}");

    // Several puzzles: the live view writes only the one chosen.
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/sudoku/easy20.txt");
    let mut refused = Tui::start_in(&dir, &["sudoku", file, "--output", "all.txt"], 80, 24, &[]);
    assert_ne!(refused.wait_exit(), 0);
    assert!(
        refused.text().contains("choose one with --index"),
        "{}",
        refused.text()
    );
}

#[test]
fn without_a_controlling_terminal_the_live_view_exits_instead_of_spinning() {
    let _cores = crate::common::busy();
    // `setsid` puts kiln in a session of its own: its output is still the pty, but the pty
    // is nobody's controlling terminal, so no SIGHUP would ever end it.
    let pair = screens::open(80, 24);
    let mut cmd = CommandBuilder::new("setsid");
    cmd.args(["-w", env!("CARGO_BIN_EXE_kiln")]);
    cmd.env("TERM", "xterm-256color");
    let mut child = pair.slave.spawn_command(cmd).unwrap();
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().unwrap();
    let output = thread::spawn(move || {
        let mut text = Vec::new();
        let _ = reader.read_to_end(&mut text);
        String::from_utf8_lossy(&text).into_owned()
    });
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "kiln kept running without a terminal"
        );
        thread::sleep(Duration::from_millis(20));
    };
    assert!(!status.success());
    drop(pair.master);
    let text = output.join().unwrap();
    assert!(text.contains("needs a controlling terminal"), "{text}");
}

#[test]
fn headless_only_flags_are_refused_in_the_live_view() {
    for (args, message) in [
        (
            &["tsp", "--seeds", "1..3"][..],
            "kiln: --seeds: only headless runs make batches",
        ),
        (
            &["tsp", "--no-polish"][..],
            "kiln: --no-polish: only headless runs end with a local search",
        ),
        (
            &["tsp", "--ils"][..],
            "kiln: --ils: only headless runs end with a local search",
        ),
    ] {
        let mut tui = Tui::start(args, 100, 30);
        assert_eq!(tui.wait_exit(), 2, "{args:?}");
        assert!(tui.text().contains(message), "{args:?}: {}", tui.text());
    }
}
