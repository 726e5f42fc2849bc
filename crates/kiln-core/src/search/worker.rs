//! Runs a `Runner` on its own thread, steered by commands, reporting telemetry.
//!
//! The worker never waits for the UI: reports go through an unbounded channel that the UI
//! drains every frame (a few dozen a second), and the board goes through a one-slot mailbox
//! where the newest snapshot replaces any the UI has not taken yet. Every report and board
//! carries the number of the publication it belongs to, so the UI can show a board only
//! with the counters and state of the same moment. Paused or finished, the worker blocks on
//! its command channel instead of spinning.

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use super::explain::{Acceptance, Measured};
use super::{Explained, PhaseWork, Sample, Search, StopReason};

/// The name of the annealing thread; the TUI's panic hook recognises it.
pub const WORKER_THREAD: &str = "kiln-annealer";

/// How long `Worker::best` waits for the worker to answer (it answers within a tick).
const BEST_WAIT: Duration = Duration::from_secs(2);
/// How often a running worker publishes a sample.
const PUBLISH_EVERY: Duration = Duration::from_millis(40);
/// A rate-limited worker does its steps in ticks of this length.
const TICK: Duration = Duration::from_millis(20);
/// Steps between looks at the command channel within a tick.
const SLICE: u64 = 1 << 14;
/// The same for chains on threads, which start a thread each per slice: 8,192 steps a
/// chain cost two TSP chains a quarter of their steps (`parallel::BATCH`).
const PARALLEL_SLICE: u64 = 1 << 17;
/// While the acceptance is measured at a fast pace, this many steps of every slice are
/// explained: about 0.2 % of them, enough to refill the measure several times a second.
const EXPLAINED_PER_SLICE: u64 = 32;

/// Steps per second: a watchable pace, or as fast as the machine goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Speed {
    /// This many steps a second, spread evenly over each second.
    Limited(u64),
    /// This many steps a second for now, a watched run's default: the live view steps it
    /// up the ladder as the run goes (`Speed::risen`), so that the chain is seen at a
    /// watchable pace first and the run still reaches its verdict within a minute.
    Rising(u64),
    /// As many steps as the machine can take.
    Full,
}

impl Speed {
    /// The speeds the `+`/`-` keys walk through, slowest first: 1, 2, 5, 10, 20, 50, ...
    /// steps a second up to 20M, then full speed.
    pub const LADDER: [Speed; 24] = {
        let mut ladder = [Speed::Full; 24];
        let mut i = 0;
        let mut decade = 1;
        while i < 23 {
            ladder[i] = Speed::Limited(decade * [1, 2, 5][i % 3]);
            i += 1;
            if i % 3 == 0 {
                decade *= 10;
            }
        }
        ladder
    };

    /// Steps a second now, `None` at full speed.
    pub fn rate(self) -> Option<u64> {
        match self {
            Speed::Limited(rate) | Speed::Rising(rate) => Some(rate),
            Speed::Full => None,
        }
    }

    /// A rising pace one rung further up the ladder (full speed at its top); any other
    /// speed as it is.
    pub fn risen(self) -> Speed {
        match self {
            Speed::Rising(rate) => match Speed::Limited(rate).faster() {
                Speed::Limited(next) => Speed::Rising(next),
                top => top,
            },
            speed => speed,
        }
    }

    /// The next speed up the ladder from this one (on it or not).
    pub fn faster(self) -> Speed {
        let next = Self::LADDER.iter().find(|s| s.above(self));
        next.copied().unwrap_or(Speed::Full)
    }

    /// The next speed down the ladder from this one (on it or not); the slowest stays.
    pub fn slower(self) -> Speed {
        let next = Self::LADDER.iter().rev().find(|s| self.above(**s));
        next.copied().unwrap_or(Self::LADDER[0])
    }

    fn above(self, other: Speed) -> bool {
        match (self.rate(), other.rate()) {
            (None, Some(_)) => true,
            (Some(a), Some(b)) => a > b,
            (_, None) => false,
        }
    }

    /// Steps in one tick (a single step at the slowest pace is still a step).
    fn per_tick(self) -> u64 {
        match self.rate() {
            Some(rate) => (rate as f64 * TICK.as_secs_f64()).ceil().max(1.0) as u64,
            None => SLICE,
        }
    }

    /// Whether the pace is slow enough to follow each proposal (up to 20 a second): then
    /// every step is explained, and `s` takes one.
    pub fn one_by_one(self) -> bool {
        self.rate().is_some_and(|rate| rate <= ONE_BY_ONE)
    }
}

/// The fastest pace at which each proposal can be followed on screen.
const ONE_BY_ONE: u64 = 20;

/// The steps a paced run owes: `rate` a second since `since`, of which `done` are taken.
/// Counting from one start (not tick by tick, which rounds every tick up to a whole step)
/// keeps a slow pace exact: 10 a second is 10, not one per 20 ms tick.
#[derive(Debug, Clone, Copy)]
struct Pace {
    since: Instant,
    done: u64,
}

impl Pace {
    fn new(now: Instant) -> Pace {
        Pace {
            since: now,
            done: 0,
        }
    }

    fn owed(&self, rate: u64, now: Instant) -> u64 {
        let due = rate as f64 * now.saturating_duration_since(self.since).as_secs_f64();
        (due as u64).saturating_sub(self.done)
    }

    /// When `steps` more than those done are due.
    fn due(&self, rate: u64, steps: u64) -> Instant {
        let at = (self.done + steps) as f64 / rate.max(1) as f64;
        self.since + Duration::from_secs_f64(at.min(1e9))
    }
}

/// How many annealing threads may compute at once across the process, when a server runs
/// many runs side by side (`share_cores`); unset, every worker runs freely.
static CORES: OnceLock<Cores> = OnceLock::new();

/// A counting semaphore of cores.
struct Cores {
    all: usize,
    free: Mutex<usize>,
    freed: Condvar,
}

/// Cores held while a slice of steps runs.
struct Core(&'static Cores, usize);

impl Cores {
    fn new(all: usize) -> Self {
        Cores {
            all: all.max(1),
            free: Mutex::new(all.max(1)),
            freed: Condvar::new(),
        }
    }

    /// Waits for `threads` cores (all of them, if it asks for more), one for each thread
    /// a slice computes on: chains side by side count each.
    fn take(&'static self, threads: usize) -> Core {
        let wanted = threads.clamp(1, self.all);
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        while *free < wanted {
            free = self.freed.wait(free).unwrap_or_else(|e| e.into_inner());
        }
        *free -= wanted;
        Core(self, wanted)
    }
}

impl Drop for Core {
    fn drop(&mut self) {
        *self.0.free.lock().unwrap_or_else(|e| e.into_inner()) += self.1;
        // A waiter may want fewer cores than were freed, or more than one waiter may fit.
        self.0.freed.notify_all();
    }
}

/// From now on at most `cores` workers compute at the same moment, however many runs there
/// are: a run at a live pace computes for a moment each tick and keeps its pace, while runs
/// at full speed take turns. Set once (by `kiln serve`); later calls change nothing.
pub fn share_cores(cores: usize) {
    let _ = CORES.set(Cores::new(cores));
}

/// What the UI asks of a running worker; each is carried out between slices of steps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Command {
    /// Pause a running search, or resume a paused one.
    TogglePause,
    /// One tick's worth of steps while paused.
    Step,
    /// Raise the temperature to the reheat temperature.
    Reheat,
    /// Start again from a fresh random state.
    Restart,
    /// Go on at this pace from now.
    SetSpeed(Speed),
    /// Hand the UI the best state found instead of the current one (or back).
    ShowBest(bool),
    /// Measure the acceptance of uphill moves at any pace and report it (or stop).
    Explain(bool),
    /// Send a copy of the best state found, once (`Worker::best`).
    SendBest,
    /// End the thread (sent when the `Worker` is dropped).
    Quit,
}

/// What the worker tells the UI.
#[derive(Debug, Clone, PartialEq)]
pub enum Report {
    /// Telemetry of this publication.
    Sample(Sample),
    /// The run was paused (`true`) or resumed (`false`).
    Paused(bool),
    /// The run ended, and why; the worker waits for commands (a reheat or restart revives
    /// it).
    Finished(StopReason),
    /// What each phase of the run did, in steps and time, sent with every sample of a run
    /// that has ended: the shares the end banner gives are these, not estimates from the
    /// samples (published every few frames, they straddle the phase boundaries).
    Phases(Vec<PhaseWork>),
    /// A finished run goes on (a reheat or restart after its end).
    Revived,
    /// The step just taken, explained, at a pace slow enough to follow each one (and for
    /// `s`); `None` once steps are no longer followed one by one, or after a reheat or
    /// restart changed the state by other means.
    Moved(Option<Box<Explained>>),
    /// The acceptance of the latest decisions, while it is asked for (`Explain`).
    Acceptance(Box<Measured>),
    /// The annealing thread panicked with this message.
    Crashed(String),
}

/// A report with the publication it belongs to and the worker's clock at that moment.
#[derive(Debug, Clone, PartialEq)]
pub struct Stamped {
    /// Publications are numbered from 1; a board of publication `seq` shows the state
    /// every report up to `seq` describes.
    pub seq: u64,
    /// When the worker sent it, so the UI can time pauses and samples as the worker saw
    /// them, not as it drained them.
    pub at: Instant,
    /// What happened.
    pub report: Report,
}

/// A board and the publication it belongs to.
#[derive(Debug, Clone)]
pub struct Frame<S> {
    /// The publication (see [`Stamped::seq`]) whose reports describe this board.
    pub seq: u64,
    /// The state to show: the current one, or the best one while `ShowBest(true)` holds.
    pub board: S,
}

/// Newest-wins mailbox for board snapshots.
struct Mailbox<S> {
    slot: Mutex<Option<Frame<S>>>,
    wanted: AtomicBool,
}

/// The UI's end of a worker.
pub struct Worker<S> {
    commands: Sender<Command>,
    reports: Receiver<Stamped>,
    mailbox: Arc<Mailbox<S>>,
    /// Answers to `Command::SendBest`.
    best: Receiver<S>,
    thread: Option<JoinHandle<()>>,
}

impl<S: Send + 'static> Worker<S> {
    /// Starts `search` (an annealing `Runner`, say) at `speed`; `reheat_to` is the
    /// temperature of a reheat.
    pub fn spawn<E>(search: E, speed: Speed, reheat_to: f64) -> Self
    where
        E: Search<Snapshot = S>,
    {
        let (commands, command_rx) = mpsc::channel();
        let (report_tx, reports) = mpsc::channel();
        let (best_tx, best) = mpsc::channel();
        let mailbox = Arc::new(Mailbox {
            slot: Mutex::new(None),
            wanted: AtomicBool::new(true),
        });
        let shared = Arc::clone(&mailbox);
        let thread = thread::Builder::new()
            .name(WORKER_THREAD.to_string())
            .spawn(move || {
                let crash_tx = report_tx.clone();
                let body = AssertUnwindSafe(move || {
                    Loop {
                        search,
                        commands: command_rx,
                        reports: report_tx,
                        mailbox: shared,
                        best: best_tx,
                        speed,
                        reheat_to,
                        paused: false,
                        show_best: false,
                        explaining: false,
                        acceptance: Acceptance::default(),
                        seq: 0,
                        pace: Pace::new(Instant::now()),
                    }
                    .run()
                });
                if let Err(payload) = panic::catch_unwind(body) {
                    // A crash ends everything at once, whatever the board shows.
                    let _ = crash_tx.send(Stamped {
                        seq: 0,
                        at: Instant::now(),
                        report: Report::Crashed(panic_message(&*payload)),
                    });
                }
            })
            .expect("the OS refused to start the annealing thread");
        Worker {
            commands,
            reports,
            mailbox,
            best,
            thread: Some(thread),
        }
    }

    /// Passes `command` to the thread; it is carried out within a slice of steps. Sending
    /// to a worker that has gone does nothing.
    pub fn send(&self, command: Command) {
        // A worker that has gone away has nothing left to steer.
        let _ = self.commands.send(command);
    }

    /// Everything reported since the last call. Take the frame first: every report of a
    /// publication is sent before its board, so the reports up to a taken frame are here.
    pub fn drain(&self) -> impl Iterator<Item = Stamped> + '_ {
        self.reports.try_iter()
    }

    /// The newest board, if one arrived since the last call; asks for the next one.
    pub fn take_frame(&self) -> Option<Frame<S>> {
        let taken = self.mailbox.slot.lock().ok()?.take();
        if taken.is_some() {
            self.mailbox.wanted.store(true, Ordering::Release);
        }
        taken
    }

    /// The newest board alone (see `take_frame`).
    pub fn take_snapshot(&self) -> Option<S> {
        self.take_frame().map(|frame| frame.board)
    }

    /// A copy of the best state found so far, whatever the board shows; `None` if the
    /// worker has gone or does not answer in time.
    pub fn best(&self) -> Option<S> {
        // An answer that came after an earlier call gave up is stale.
        while self.best.try_recv().is_ok() {}
        self.send(Command::SendBest);
        self.best.recv_timeout(BEST_WAIT).ok()
    }
}

impl<S> Drop for Worker<S> {
    fn drop(&mut self) {
        let _ = self.commands.send(Command::Quit);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The message a panic was raised with, for showing to the user; "unknown panic" when its
/// payload is not a string.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

struct Loop<E: Search> {
    search: E,
    commands: Receiver<Command>,
    reports: Sender<Stamped>,
    mailbox: Arc<Mailbox<E::Snapshot>>,
    best: Sender<E::Snapshot>,
    speed: Speed,
    reheat_to: f64,
    paused: bool,
    show_best: bool,
    /// Whether the acceptance is measured at every pace (the explain panel is open).
    explaining: bool,
    /// The latest decisions explained.
    acceptance: Acceptance,
    /// The number of the last publication.
    seq: u64,
    /// The steps a limited speed owes, counted from when it was set (or resumed).
    pace: Pace,
}

impl<E: Search> Loop<E> {
    fn run(mut self) {
        // A search can be over before it starts (a puzzle propagation already solved).
        match self.search.stopped() {
            Some(reason) => self.announce(Report::Finished(reason)),
            None => self.publish(true),
        }
        let mut last_publish = Instant::now();
        loop {
            let idle = self.paused || self.search.stopped().is_some();
            let command = if idle {
                let waiting = Instant::now();
                let command = self.commands.recv();
                self.search.waited(waiting.elapsed());
                match command {
                    Ok(c) => Some(c),
                    Err(_) => return,
                }
            } else {
                match self.commands.try_recv() {
                    Ok(c) => Some(c),
                    Err(mpsc::TryRecvError::Empty) => None,
                    Err(mpsc::TryRecvError::Disconnected) => return,
                }
            };
            if let Some(command) = command {
                if !self.obey(command) {
                    return;
                }
                continue;
            }
            let steps = match self.speed.rate() {
                None => self.slice(),
                Some(rate) => {
                    let owed = self.pace.owed(rate, Instant::now());
                    // Behind by more than a tick (a pace the machine cannot keep, or time
                    // spent paused or finished): the debt is dropped, not run in a burst.
                    if owed > 2 * self.speed.per_tick() {
                        self.pace = Pace::new(Instant::now());
                    }
                    owed.min(self.speed.per_tick())
                }
            };
            let (done, cut) = if self.speed.one_by_one() {
                (self.explain_steps(steps), None)
            } else {
                self.run_tick(steps)
            };
            self.pace.done += done;
            if let Some(command) = cut
                && !self.obey(command)
            {
                return;
            }
            if let Some(reason) = self.search.stopped() {
                self.announce(Report::Finished(reason));
                continue;
            }
            if last_publish.elapsed() >= PUBLISH_EVERY {
                self.publish(false);
                last_publish = Instant::now();
            }
            if let Some(rate) = self.speed.rate() {
                // Wakes when the next step is due, or a tick's worth of them at a fast pace.
                let wake = self.pace.due(rate, self.speed.per_tick());
                let now = Instant::now();
                if wake > now {
                    // Sleep in the command channel so a key still gets through at once.
                    let command = self.commands.recv_timeout(wake - now);
                    self.search.waited(now.elapsed());
                    match command {
                        Ok(c) => {
                            if !self.obey(c) {
                                return;
                            }
                        }
                        Err(RecvTimeoutError::Timeout) => {}
                        Err(RecvTimeoutError::Disconnected) => return,
                    }
                }
            }
        }
    }

    /// Steps between looks at the command channel.
    fn slice(&self) -> u64 {
        match self.search.threads() {
            1 => SLICE,
            _ => PARALLEL_SLICE,
        }
    }

    /// Runs `steps` steps in slices, so that a key gets through within a slice however
    /// fast the speed is set; a pace the machine cannot keep stops after a tick. Returns the
    /// steps taken and the command that cut them short, if one did.
    fn run_tick(&mut self, steps: u64) -> (u64, Option<Command>) {
        let started = Instant::now();
        let mut done = 0;
        while done < steps && self.search.stopped().is_none() {
            let slice = (steps - done).min(self.slice());
            let core = CORES.get().map(|c| c.take(self.search.threads()));
            let explained = if self.explaining {
                EXPLAINED_PER_SLICE.min(slice)
            } else {
                0
            };
            for _ in 0..explained {
                if let Some(told) = self.search.step_explained() {
                    self.acceptance.record(&told.decision);
                }
            }
            self.search.step_batch(slice - explained);
            drop(core);
            done += slice;
            if done == steps {
                break;
            }
            match self.commands.try_recv() {
                Ok(command) => return (done, Some(command)),
                Err(mpsc::TryRecvError::Disconnected) => return (done, Some(Command::Quit)),
                Err(mpsc::TryRecvError::Empty) => {}
            }
            // A pace the machine cannot keep runs flat out, publishing as it goes.
            if started.elapsed() >= TICK {
                break;
            }
        }
        (done, None)
    }

    /// Carries out a command; `false` means quit.
    fn obey(&mut self, command: Command) -> bool {
        match command {
            Command::Quit => return false,
            Command::TogglePause => {
                self.paused = !self.paused;
                self.pace = Pace::new(Instant::now());
                self.announce(Report::Paused(self.paused));
                return true;
            }
            Command::Step => {
                if self.paused {
                    if self.speed.one_by_one() {
                        self.explain_steps(1);
                        return true;
                    }
                    self.search.step_batch(self.speed.per_tick());
                    self.send(Report::Moved(None));
                }
            }
            Command::Reheat | Command::Restart => {
                let ended = self.search.stopped().is_some();
                if command == Command::Reheat {
                    self.search.reheat(self.reheat_to);
                } else {
                    self.search.restart();
                    self.acceptance.clear();
                }
                self.send(Report::Moved(None));
                if ended && self.search.stopped().is_none() {
                    self.announce(Report::Revived);
                    return true;
                }
            }
            Command::SetSpeed(speed) => {
                self.speed = speed;
                self.pace = Pace::new(Instant::now());
                if !speed.one_by_one() {
                    self.send(Report::Moved(None));
                }
            }
            Command::Explain(on) => self.explaining = on,
            Command::ShowBest(best) => {
                self.show_best = best;
                self.mailbox.wanted.store(true, Ordering::Release);
            }
            Command::SendBest => {
                let _ = self.best.send(self.search.best_snapshot());
            }
        }
        self.publish(true);
        true
    }

    /// Takes `steps` steps one at a time, each explained and published with the board it
    /// left; returns the steps taken.
    fn explain_steps(&mut self, steps: u64) -> u64 {
        let mut done = 0;
        while done < steps && self.search.stopped().is_none() {
            let told = self.search.step_explained();
            done += 1;
            if let Some(told) = &told {
                self.acceptance.record(&told.decision);
            }
            self.announce(Report::Moved(told.map(Box::new)));
        }
        done
    }

    /// Publishes `report` with a sample and the board of this moment.
    fn announce(&mut self, report: Report) {
        self.seq += 1;
        self.send(report);
        self.publish_numbered(true);
    }

    /// Publishes a sample, and the board if the UI took the last one or `force` says the
    /// UI must see this moment (a finish, a pause, the effect of a key).
    fn publish(&mut self, force: bool) {
        self.seq += 1;
        self.publish_numbered(force);
    }

    fn publish_numbered(&mut self, force: bool) {
        let sample = self.search.sample();
        self.send(Report::Sample(sample));
        if self.explaining {
            self.send(Report::Acceptance(Box::new(self.acceptance.measured())));
        }
        // A run that has ended says what each phase did, after the sample whose steps it
        // counts and before the board the UI takes the reports with.
        if self.search.stopped().is_some() {
            let phases = self.search.phases();
            self.send(Report::Phases(phases));
        }
        if self.mailbox.wanted.swap(false, Ordering::AcqRel) || force {
            let board = if self.show_best {
                self.search.best_snapshot()
            } else {
                self.search.snapshot()
            };
            if let Ok(mut slot) = self.mailbox.slot.lock() {
                *slot = Some(Frame {
                    seq: self.seq,
                    board,
                });
            }
        }
    }

    fn send(&self, report: Report) {
        let _ = self.reports.send(Stamped {
            seq: self.seq,
            at: Instant::now(),
            report,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anneal::toy::Bits;
    use crate::anneal::{Problem, RunConfig, Runner, Schedule};

    fn wait_for(worker: &Worker<Vec<bool>>, mut pred: impl FnMut(&Report) -> bool) -> Report {
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            for r in worker.drain().map(|s| s.report) {
                if pred(&r) {
                    return r;
                }
            }
            thread::sleep(Duration::from_millis(2));
        }
        panic!("the worker never reported what was expected");
    }

    #[test]
    fn chains_hold_a_core_each_and_no_more_than_there_are() {
        let cores: &'static Cores = Box::leak(Box::new(Cores::new(2)));
        let free = || *cores.free.lock().unwrap();
        let pair = cores.take(2);
        assert_eq!(free(), 0);
        // A single chain waits until the pair gives its cores back.
        let (sender, taken) = mpsc::channel();
        let waiter = thread::spawn(move || {
            let one = cores.take(1);
            sender.send(()).unwrap();
            drop(one);
        });
        assert!(taken.recv_timeout(Duration::from_millis(50)).is_err());
        drop(pair);
        taken.recv_timeout(Duration::from_secs(10)).unwrap();
        waiter.join().unwrap();
        assert_eq!(free(), 2);
        // More chains than cores take them all rather than waiting for ever.
        let all = cores.take(5);
        assert_eq!((free(), all.1), (0, 2));
    }

    fn hot_runner() -> Runner<Bits> {
        Runner::new(Bits::ones(64), RunConfig::new(Schedule::Constant, 5.0), 1)
    }

    #[test]
    fn finishes_at_the_target_and_hands_over_the_board() {
        let mut config = RunConfig::new(Schedule::Constant, 0.0);
        config.budget.target = Some(0.0);
        let worker = Worker::spawn(Runner::new(Bits::ones(64), config, 1), Speed::Full, 1.0);
        let finished = wait_for(&worker, |r| matches!(r, Report::Finished(_)));
        assert_eq!(finished, Report::Finished(StopReason::Target));
        let board = worker.take_snapshot().expect("a board after finishing");
        assert!(board.len() == 64);
    }

    #[test]
    fn a_search_done_before_it_starts_still_reports_finishing() {
        let mut config = RunConfig::new(Schedule::Constant, 1.0);
        config.budget.target = Some(0.0);
        let solved = Bits {
            bits: vec![false; 8],
        };
        let worker = Worker::spawn(Runner::new(solved, config, 1), Speed::Full, 1.0);
        let finished = wait_for(&worker, |r| matches!(r, Report::Finished(_)));
        assert_eq!(finished, Report::Finished(StopReason::Target));
    }

    #[test]
    fn a_deadline_counts_only_the_time_spent_searching_not_the_pace_s_sleep() {
        let mut config = RunConfig::new(Schedule::Constant, 5.0);
        config.budget.deadline = Some(Instant::now() + Duration::from_millis(100));
        let worker = Worker::spawn(
            Runner::new(Bits::ones(64), config, 1),
            Speed::Limited(100),
            1.0,
        );
        thread::sleep(Duration::from_millis(400));
        assert!(
            !worker
                .drain()
                .any(|r| matches!(r.report, Report::Finished(_))),
            "a run at 100 steps a second searched for less than its 100 ms"
        );
        worker.send(Command::SetSpeed(Speed::Full));
        let finished = wait_for(&worker, |r| matches!(r, Report::Finished(_)));
        assert_eq!(finished, Report::Finished(StopReason::TimeLimit));
    }

    #[test]
    fn pause_stops_the_iterations_and_step_advances_them() {
        let worker = Worker::spawn(hot_runner(), Speed::Limited(1_000), 1.0);
        worker.send(Command::TogglePause);
        wait_for(&worker, |r| *r == Report::Paused(true));
        thread::sleep(Duration::from_millis(60));
        let mut last = 0;
        for r in worker.drain() {
            if let Report::Sample(s) = r.report {
                last = s.iteration;
            }
        }
        thread::sleep(Duration::from_millis(100));
        assert!(
            worker.drain().next().is_none(),
            "a paused worker stays quiet"
        );
        worker.send(Command::Step);
        let Report::Sample(s) = wait_for(&worker, |r| matches!(r, Report::Sample(_))) else {
            unreachable!()
        };
        assert_eq!(s.iteration, last + 20);
    }

    #[test]
    fn reheat_is_reported_in_the_next_sample() {
        let worker = Worker::spawn(hot_runner(), Speed::Limited(100), 9.0);
        worker.send(Command::Reheat);
        let r = wait_for(
            &worker,
            |r| matches!(r, Report::Sample(s) if s.reheats == 1),
        );
        let Report::Sample(s) = r else { unreachable!() };
        assert_eq!(s.control, crate::search::Control::Temperature(9.0));
    }

    #[test]
    fn a_panic_in_the_problem_is_reported_not_lost() {
        struct Boom;
        impl Problem for Boom {
            type Move = ();
            type Snapshot = ();
            fn energy(&self) -> f64 {
                1.0
            }
            fn propose(&self, _: &mut crate::search::Rng) {}
            fn delta(&self, _: &()) -> f64 {
                panic!("boom in delta")
            }
            fn apply(&mut self, _: &()) {}
            fn randomize(&mut self, _: &mut crate::search::Rng) {}
            fn snapshot(&self) {}
        }
        let worker = Worker::spawn(
            Runner::new(Boom, RunConfig::new(Schedule::Constant, 1.0), 1),
            Speed::Full,
            1.0,
        );
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(Report::Crashed(m)) = worker
                .drain()
                .map(|s| s.report)
                .find(|r| matches!(r, Report::Crashed(_)))
            {
                assert_eq!(m, "boom in delta");
                break;
            }
            assert!(Instant::now() < deadline);
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// Cooled to all zeros, then wandering hot: the current board has ones, the best has
    /// none.
    fn wandered() -> Runner<Bits> {
        let mut config = RunConfig::new(Schedule::Constant, 0.0);
        config.budget.max_steps = Some(2_000);
        let mut runner = Runner::new(Bits::ones(16), config, 1);
        runner.run(|_| true);
        runner.reheat(1e9);
        runner.restart();
        runner
    }

    #[test]
    fn show_best_hands_over_the_best_state() {
        let runner = wandered();
        let worker = Worker::spawn(runner, Speed::Limited(10), 1e9);
        worker.send(Command::TogglePause);
        wait_for(&worker, |r| *r == Report::Paused(true));
        worker.take_snapshot();
        worker.send(Command::ShowBest(true));
        let deadline = Instant::now() + Duration::from_secs(10);
        let board = loop {
            if let Some(board) = worker.take_snapshot() {
                break board;
            }
            assert!(Instant::now() < deadline);
            thread::sleep(Duration::from_millis(2));
        };
        assert!(board.iter().all(|b| !b), "{board:?}");
    }

    #[test]
    fn best_answers_with_the_best_state_while_the_board_shows_the_current_one() {
        let runner = wandered();
        let worker = Worker::spawn(runner, Speed::Limited(1_000), 1e9);
        let best = worker.best().expect("a running worker answers");
        assert!(best.iter().all(|b| !b), "{best:?}");
        worker.send(Command::TogglePause);
        wait_for(&worker, |r| *r == Report::Paused(true));
        assert_eq!(worker.best(), Some(best), "a paused worker answers too");
    }

    #[test]
    fn a_worker_at_any_speed_pauses_and_quits_at_once() {
        let worker = Worker::spawn(hot_runner(), Speed::Limited(u64::MAX), 1.0);
        wait_for(
            &worker,
            |r| matches!(r, Report::Sample(s) if s.iteration > 0),
        );
        let asked = Instant::now();
        worker.send(Command::TogglePause);
        wait_for(&worker, |r| *r == Report::Paused(true));
        assert!(
            asked.elapsed() < Duration::from_millis(100),
            "{:?}",
            asked.elapsed()
        );
        let asked = Instant::now();
        drop(worker);
        assert!(
            asked.elapsed() < Duration::from_millis(100),
            "{:?}",
            asked.elapsed()
        );
    }

    #[test]
    fn the_speed_ladder_goes_one_two_five_from_one_to_full() {
        let rates: Vec<u64> = Speed::LADDER.iter().filter_map(|s| s.rate()).collect();
        assert_eq!(rates[..7], [1, 2, 5, 10, 20, 50, 100]);
        assert_eq!(rates.last(), Some(&20_000_000));
        assert_eq!(Speed::LADDER.last(), Some(&Speed::Full));
        assert_eq!(Speed::Full.faster(), Speed::Full);
        assert_eq!(Speed::Limited(1).slower(), Speed::Limited(1));
        assert_eq!(Speed::Limited(20_000_000).faster(), Speed::Full);
        assert_eq!(Speed::Full.slower(), Speed::Limited(20_000_000));
        // Off the ladder (`--speed 30`): the next one up or down.
        assert_eq!(Speed::Limited(30).faster(), Speed::Limited(50));
        assert_eq!(Speed::Limited(30).slower(), Speed::Limited(20));
        assert_eq!(Speed::Limited(10).per_tick(), 1);
        assert_eq!(Speed::Limited(1_000).per_tick(), 20);
        assert!(Speed::Limited(20).one_by_one() && !Speed::Limited(50).one_by_one());
    }

    #[test]
    fn a_rising_pace_climbs_the_ladder_to_full_speed_and_keys_hold_it() {
        let mut speed = Speed::Rising(30_000);
        let mut rungs = vec![speed];
        while speed != Speed::Full {
            speed = speed.risen();
            rungs.push(speed);
        }
        assert_eq!(rungs[1], Speed::Rising(50_000));
        assert_eq!(rungs[rungs.len() - 2], Speed::Rising(20_000_000));
        assert_eq!(rungs.len(), 11, "{rungs:?}");
        // A key takes the rung it is on up or down, and the pace stays there.
        assert_eq!(Speed::Rising(200_000).faster(), Speed::Limited(500_000));
        assert_eq!(Speed::Rising(200_000).slower(), Speed::Limited(100_000));
        assert_eq!(Speed::Limited(200_000).risen(), Speed::Limited(200_000));
        assert_eq!(Speed::Rising(1_000).per_tick(), 20);
        assert!(!Speed::Full.one_by_one());
    }

    /// The energy and steps of the next sample.
    fn next_sample(worker: &Worker<Vec<bool>>) -> Sample {
        match wait_for(worker, |r| matches!(r, Report::Sample(_))) {
            Report::Sample(s) => s,
            _ => unreachable!(),
        }
    }

    #[test]
    fn a_step_at_a_slow_pace_is_one_proposal_explained_with_the_board_it_left() {
        let worker = Worker::spawn(hot_runner(), Speed::Limited(2), 1.0);
        worker.send(Command::TogglePause);
        wait_for(&worker, |r| *r == Report::Paused(true));
        let mut last = next_sample(&worker);
        while let Some(r) = worker.drain().last() {
            if let Report::Sample(s) = r.report {
                last = s;
            }
        }
        for _ in 0..20 {
            worker.send(Command::Step);
            let Report::Moved(Some(told)) = wait_for(&worker, |r| matches!(r, Report::Moved(_)))
            else {
                panic!("a step at 2/s is explained");
            };
            let now = next_sample(&worker);
            assert_eq!(now.iteration, last.iteration + 1);
            let d = told.decision;
            assert_eq!(d.energy, last.energy);
            let change = if d.accepted { d.delta } else { 0.0 };
            assert_eq!(now.energy, last.energy + change);
            let board = worker.take_snapshot().expect("the board after the move");
            assert_eq!(board.iter().filter(|b| **b).count() as f64, now.energy);
            last = now;
        }
        worker.send(Command::SetSpeed(Speed::Limited(1_000)));
        assert_eq!(
            wait_for(&worker, |r| matches!(r, Report::Moved(_))),
            Report::Moved(None),
            "a fast pace clears the move shown"
        );
    }

    #[test]
    fn the_acceptance_is_measured_at_full_speed_when_asked() {
        let worker = Worker::spawn(hot_runner(), Speed::Full, 1.0);
        worker.send(Command::Explain(true));
        let mut measured = Measured::default();
        while measured.proposals < crate::search::explain::RECENT as u32 {
            if let Report::Acceptance(m) = wait_for(&worker, |r| matches!(r, Report::Acceptance(_)))
            {
                measured = *m;
            }
        }
        // At T = 5 on 64 bits, a flip up costs 1: taken with p = exp(-1/5) = 0.82.
        let bucket = measured.buckets[0];
        let (seen, rule) = (bucket.measured().unwrap(), bucket.expected().unwrap());
        assert!((rule - (-0.2f64).exp()).abs() < 1e-6);
        assert!((seen - rule).abs() < 0.05, "measured {seen}, rule {rule}");
    }

    #[test]
    fn a_slow_pace_owes_exactly_its_rate() {
        let start = Instant::now();
        let mut pace = Pace::new(start);
        assert_eq!(pace.owed(10, start + Duration::from_millis(99)), 0);
        assert_eq!(pace.owed(10, start + Duration::from_millis(100)), 1);
        pace.done = 1;
        assert_eq!(pace.due(10, 1), start + Duration::from_millis(200));
        assert_eq!(pace.owed(10, start + Duration::from_secs(10)), 99);
    }

    /// Steps a worker at `rate` takes in `seconds`, from its samples' iteration counts.
    fn steps_in(rate: u64, seconds: f64) -> f64 {
        let worker = Worker::spawn(hot_runner(), Speed::Limited(rate), 1.0);
        let iteration = |worker: &Worker<Vec<bool>>| {
            let samples = worker.drain().filter_map(|s| match s.report {
                Report::Sample(s) => Some(s.iteration),
                _ => None,
            });
            samples.last()
        };
        thread::sleep(Duration::from_millis(300));
        let first = iteration(&worker).unwrap_or(0);
        let started = Instant::now();
        thread::sleep(Duration::from_secs_f64(seconds));
        let last = iteration(&worker).unwrap_or(0);
        (last - first) as f64 / started.elapsed().as_secs_f64()
    }

    #[test]
    fn slow_speeds_take_their_rate_not_a_step_a_tick() {
        // 10 a second ran 50 a second before (a step every 20 ms tick at least).
        for rate in [5, 10, 30] {
            let measured = steps_in(rate, 1.0);
            assert!(
                (measured - rate as f64).abs() <= rate as f64 * 0.5 + 3.0,
                "{rate}/s ran {measured:.1}/s"
            );
        }
    }
}
