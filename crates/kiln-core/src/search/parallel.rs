//! Independent chains on several threads: each batch runs every chain at once, each for its
//! share of the steps or at its own pace ([`Sharing`]), and the run ends when one reaches
//! the target (or all have spent their budgets). For puzzles solved by restarts, k chains
//! find a solution about k times sooner on k cores.
//!
//! Deterministic for a given set of chains when they run in [`Sharing::Lockstep`]: every
//! chain runs exactly its share of each batch, and when several reach the target in the
//! same batch the first one counts. A time limit is kept on the wall clock for all chains
//! together: more chains than cores share the time, they do not each get it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use super::{Control, Explained, PhaseWork, Sample, Search, StopReason, postpone};

/// Steps a batch of chains on threads takes at least, all chains together, when nothing
/// watches between batches: each batch starts a thread per chain, and at 16,384 steps
/// (8,192 a chain) two TSP chains made 55M steps each in 5 s against 75M at this size.
pub const BATCH: u64 = 1 << 20;

/// Pieces a chain's share of a batch is taken in when the chains keep their own pace: a
/// chain at the target ends the batch for the others within one piece.
const PIECES: u64 = 16;

/// How a batch's steps are shared among the chains.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sharing {
    /// Every chain runs exactly its share: the same chains give the same run, so a run
    /// with a step budget reproduces. A chain whose steps cost more holds the others up.
    Lockstep,
    /// Every chain takes pieces of the batch until they are all taken or a chain reaches
    /// the target: none waits for a slower one, so a chain whose steps are cheap (a local
    /// search beside another's anneal) makes more of them. For runs only a time limit
    /// ends, which do not reproduce anyway (docs/json.md).
    Paced,
}

impl Sharing {
    /// How a run's chains share their batches: in lockstep under a step budget, which
    /// reproduces the run only so; at their own pace without one.
    pub fn for_budget(max_steps: Option<u64>) -> Self {
        match max_steps {
            Some(_) => Sharing::Lockstep,
            None => Sharing::Paced,
        }
    }
}

/// Several chains of one search run as one, on a thread each.
pub struct Parallel<S: Search> {
    chains: Vec<S>,
    sharing: Sharing,
    /// The chain that reached the target first.
    winner: Option<usize>,
    /// Each chain's best energy at the last sample.
    best: Vec<f64>,
    time_limit: Option<Duration>,
    /// When the first batch began.
    started: Option<Instant>,
}

impl<S: Search> Parallel<S> {
    /// Runs `chains` (at least one) side by side, together for at most `time_limit` on
    /// the wall clock, each batch shared as `sharing` says.
    pub fn new(chains: Vec<S>, time_limit: Option<Duration>, sharing: Sharing) -> Self {
        assert!(!chains.is_empty(), "a parallel search needs a chain");
        Parallel {
            best: vec![f64::INFINITY; chains.len()],
            chains,
            sharing,
            winner: None,
            time_limit,
            started: None,
        }
    }

    fn wall(&self) -> Duration {
        self.started.map(|t| t.elapsed()).unwrap_or_default()
    }

    fn find_winner(&mut self) {
        self.winner = self
            .chains
            .iter()
            .position(|c| c.stopped() == Some(StopReason::Target));
    }

    /// The chain whose result stands for the run, with its number (from 0): the winner,
    /// else the one with the lowest best energy now.
    pub fn into_leader(mut self) -> (usize, S) {
        for (best, chain) in self.best.iter_mut().zip(&mut self.chains) {
            *best = chain.sample().best_energy;
        }
        let leader = self.leader();
        (leader, self.chains.swap_remove(leader))
    }

    /// How many chains run side by side.
    pub fn chains(&self) -> usize {
        self.chains.len()
    }

    /// The chain whose state stands for the run: the winner, else the lowest best energy
    /// at the last sample.
    fn leader(&self) -> usize {
        self.winner.unwrap_or_else(|| {
            (0..self.best.len())
                .min_by(|&a, &b| self.best[a].total_cmp(&self.best[b]))
                .unwrap_or(0)
        })
    }
}

impl<S: Search> Search for Parallel<S> {
    type Snapshot = S::Snapshot;

    fn step_batch(&mut self, n: u64) -> u64 {
        if self.stopped().is_some() {
            return 0;
        }
        self.started.get_or_insert_with(Instant::now);
        let chains = self.chains.len() as u64;
        let done = match self.sharing {
            // A chain alone has no one to wait for: its share is the batch.
            _ if chains == 1 => self.chains[0].step_batch(n),
            Sharing::Lockstep => {
                let share = n.div_ceil(chains);
                on_threads(&mut self.chains, |chain| chain.step_batch(share))
            }
            Sharing::Paced => {
                let left = AtomicU64::new(n);
                let piece = (n / (chains * PIECES)).max(1);
                on_threads(&mut self.chains, |chain| paced(chain, &left, piece))
            }
        };
        self.find_winner();
        done
    }

    /// Every chain takes one step; the explanation is the leading chain's.
    fn step_explained(&mut self) -> Option<Explained> {
        if self.stopped().is_some() {
            return None;
        }
        self.started.get_or_insert_with(Instant::now);
        let leader = self.leader();
        let told: Vec<_> = self.chains.iter_mut().map(S::step_explained).collect();
        self.find_winner();
        told.into_iter().nth(leader).flatten()
    }

    /// Steps, restarts and reheats summed over the chains; energies, phase and control
    /// of the leading chain, best energy over all; time on the wall clock.
    fn sample(&mut self) -> Sample {
        let samples: Vec<Sample> = self.chains.iter_mut().map(|c| c.sample()).collect();
        for (best, sample) in self.best.iter_mut().zip(&samples) {
            *best = sample.best_energy;
        }
        let mut sample = samples[self.leader()];
        sample.iteration = samples.iter().map(|s| s.iteration).sum();
        sample.restarts = samples.iter().map(|s| s.restarts).sum();
        sample.reheats = samples.iter().map(|s| s.reheats).sum();
        sample.elapsed = self.wall();
        sample.best_energy = samples
            .iter()
            .map(|s| s.best_energy)
            .fold(f64::INFINITY, f64::min);
        // A chain with no control (conflict learning) accepts nothing: it has no moves to
        // accept, and counting it would halve the annealers' rate.
        let (sum, annealing) = (samples.iter())
            .filter(|s| s.control != Control::None)
            .fold((0.0, 0), |(sum, n), s| (sum + s.acceptance, n + 1));
        if annealing > 0 {
            sample.acceptance = sum / f64::from(annealing);
        }
        sample
    }

    fn winner(&self) -> Option<usize> {
        self.winner
    }

    fn threads(&self) -> usize {
        self.chains.iter().map(S::threads).sum()
    }

    /// Each kind of chain's work, chains of one phase added up.
    fn phases(&mut self) -> Vec<PhaseWork> {
        PhaseWork::merged(self.chains.iter_mut().flat_map(|c| c.phases()))
    }

    /// Stopped when one chain reached the target, or when every chain has stopped.
    fn stopped(&self) -> Option<StopReason> {
        if self.winner.is_some() {
            return Some(StopReason::Target);
        }
        // A proof holds for every chain: none can reach the target.
        if self
            .chains
            .iter()
            .any(|c| c.stopped() == Some(StopReason::Refuted))
        {
            return Some(StopReason::Refuted);
        }
        if self.time_limit.is_some_and(|limit| self.wall() >= limit) {
            return Some(StopReason::TimeLimit);
        }
        let reasons: Option<Vec<StopReason>> = self.chains.iter().map(|c| c.stopped()).collect();
        reasons.map(|r| r[0])
    }

    fn snapshot(&self) -> S::Snapshot {
        self.chains[self.leader()].snapshot()
    }

    fn best_snapshot(&mut self) -> S::Snapshot {
        let leader = self.leader();
        self.chains[leader].best_snapshot()
    }

    fn reheat(&mut self, temperature: f64) {
        for chain in &mut self.chains {
            chain.reheat(temperature);
        }
    }

    /// The chains' deadlines and the run's wall clock alike move by `idle`.
    fn waited(&mut self, idle: Duration) {
        postpone(&mut self.started, idle);
        for chain in &mut self.chains {
            chain.waited(idle);
        }
    }

    fn restart(&mut self) {
        self.winner = None;
        for chain in &mut self.chains {
            chain.restart();
        }
    }
}

/// Runs `step` on every chain at once, the first on this thread; the steps they made.
fn on_threads<S: Search>(chains: &mut [S], step: impl Fn(&mut S) -> u64 + Sync) -> u64 {
    let (first, rest) = chains.split_first_mut().expect("at least one chain");
    let step = &step;
    thread::scope(|scope| {
        let others: Vec<_> = rest
            .iter_mut()
            .map(|chain| scope.spawn(move || step(chain)))
            .collect();
        let mut done = step(first);
        for other in others {
            done += other.join().expect("a chain panicked");
        }
        done
    })
}

/// Steps `chain` a `piece` at a time while the batch has steps `left`, until it stops; one
/// at the target takes what is left, ending the batch for every chain.
fn paced<S: Search>(chain: &mut S, left: &AtomicU64, piece: u64) -> u64 {
    let mut done = 0;
    while chain.stopped().is_none() {
        let Ok(before) = left.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |l| {
            (l > 0).then(|| l.saturating_sub(piece))
        }) else {
            break;
        };
        done += chain.step_batch(before.min(piece));
        if chain.stopped() == Some(StopReason::Target) {
            left.store(0, Ordering::Relaxed);
        }
    }
    done
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anneal::toy::Bits;
    use crate::anneal::{RunConfig, Runner, Schedule};

    /// Chains on 200 bits at a temperature where reaching zero ones takes thousands of
    /// steps and depends on the seed (at equilibrium about one bit is set).
    fn chains(seeds: &[u64], max_steps: Option<u64>) -> Parallel<Runner<Bits>> {
        let mut config = RunConfig::new(Schedule::Constant, 0.2);
        config.budget.target = Some(0.0);
        config.budget.max_steps = max_steps;
        Parallel::new(
            seeds
                .iter()
                .map(|&s| Runner::new(Bits::ones(200), config.clone(), s))
                .collect(),
            None,
            Sharing::Lockstep,
        )
    }

    #[test]
    fn many_chains_share_one_time_limit_on_the_wall_clock() {
        // Far more chains than cores, none able to finish: the limit holds for all.
        let config = RunConfig::new(Schedule::Constant, 5.0);
        let limit = Duration::from_millis(200);
        let mut p = Parallel::new(
            (0..32)
                .map(|s| Runner::new(Bits::ones(200), config.clone(), s))
                .collect(),
            Some(limit),
            Sharing::Lockstep,
        );
        let started = Instant::now();
        while p.stopped().is_none() {
            p.step_batch(1 << 16);
        }
        assert_eq!(p.stopped(), Some(StopReason::TimeLimit));
        let took = started.elapsed();
        assert!(took < limit + Duration::from_millis(150), "{took:?}");
        assert!(p.sample().elapsed >= limit);
    }

    #[test]
    fn time_spent_idle_is_not_counted_against_the_limit() {
        let config = RunConfig::new(Schedule::Constant, 5.0);
        let limit = Duration::from_millis(50);
        let chains = (1..=2).map(|s| Runner::new(Bits::ones(200), config.clone(), s));
        let mut p = Parallel::new(chains.collect(), Some(limit), Sharing::Lockstep);
        p.step_batch(1000);
        thread::sleep(limit);
        assert_eq!(p.stopped(), Some(StopReason::TimeLimit));
        // Paused for an hour in the meantime: the hour is not the run's.
        p.waited(Duration::from_secs(3600));
        assert_eq!(p.stopped(), None);
    }

    fn run(p: &mut Parallel<Runner<Bits>>) -> Sample {
        while p.stopped().is_none() {
            p.step_batch(1000);
        }
        p.sample()
    }

    #[test]
    fn the_first_chain_to_the_target_ends_the_run_and_counts_for_it() {
        let mut p = chains(&[1, 2, 3], Some(10_000_000));
        let sample = run(&mut p);
        assert_eq!(p.stopped(), Some(StopReason::Target));
        let winner = p.winner.expect("a winner");
        assert_eq!(p.chains[winner].stopped(), Some(StopReason::Target));
        // No chain that got there earlier is passed over.
        assert!(p.chains[..winner].iter().all(|c| c.stopped().is_none()));
        assert_eq!(sample.best_energy, 0.0);
        assert!(p.best_snapshot().iter().all(|&b| !b));
        assert!(p.snapshot().iter().all(|&b| !b));
        // Every chain ran the same batches: steps add up across them.
        let steps: u64 = p.chains.iter().map(|c| c.iterations()).sum();
        assert_eq!(sample.iteration, steps);
    }

    #[test]
    fn the_same_chains_give_the_same_run() {
        let a = run(&mut chains(&[4, 5], Some(10_000_000)));
        let b = run(&mut chains(&[4, 5], Some(10_000_000)));
        assert_eq!((a.iteration, a.restarts), (b.iteration, b.restarts));
    }

    #[test]
    fn without_a_winner_the_run_ends_when_every_budget_is_spent() {
        let mut p = chains(&[6, 7], Some(500));
        let sample = run(&mut p);
        assert_eq!(p.stopped(), Some(StopReason::MaxSteps));
        assert_eq!(sample.iteration, 1000);
        assert!(sample.best_energy > 0.0);
        assert_eq!(p.step_batch(1000), 0);
    }

    /// A chain whose every step takes `cost` of the wall clock, at the target after
    /// `target` steps.
    struct Timed {
        cost: Duration,
        steps: u64,
        target: u64,
    }

    impl Search for Timed {
        type Snapshot = u64;

        fn step_batch(&mut self, n: u64) -> u64 {
            let n = n.min(self.target - self.steps);
            thread::sleep(self.cost * n as u32);
            self.steps += n;
            n
        }
        fn sample(&mut self) -> Sample {
            Sample {
                iteration: self.steps,
                ..Sample::default()
            }
        }
        fn stopped(&self) -> Option<StopReason> {
            (self.steps >= self.target).then_some(StopReason::Target)
        }
        fn snapshot(&self) -> u64 {
            self.steps
        }
        fn best_snapshot(&mut self) -> u64 {
            self.steps
        }
        fn restart(&mut self) {}
    }

    fn timed(micros: [u64; 2], target: u64, sharing: Sharing) -> Parallel<Timed> {
        let chain = |m| Timed {
            cost: Duration::from_micros(m),
            steps: 0,
            target,
        };
        Parallel::new(micros.map(chain).into(), None, sharing)
    }

    #[test]
    fn in_lockstep_a_fast_chain_takes_no_more_than_a_slow_ones_share() {
        let mut p = timed([20, 200], u64::MAX, Sharing::Lockstep);
        assert_eq!(p.step_batch(200), 200);
        assert_eq!(p.chains[0].steps, p.chains[1].steps);
    }

    #[test]
    fn at_their_own_pace_a_fast_chain_takes_more_of_the_batch() {
        // Steps ten times cheaper: the fast chain takes most of the pieces in the time
        // the slow one takes its first few.
        let mut p = timed([20, 200], u64::MAX, Sharing::Paced);
        assert_eq!(p.step_batch(3200), 3200);
        let (fast, slow) = (p.chains[0].steps, p.chains[1].steps);
        assert!(fast > 3 * slow, "fast {fast}, slow {slow}");
    }

    #[test]
    fn at_their_own_pace_a_chain_at_the_target_ends_the_batch() {
        // The fast chain reaches its target a tenth of the way into the batch; the slow
        // one stops within a piece (100 steps) instead of taking the rest.
        let mut p = timed([20, 200], 160, Sharing::Paced);
        let done = p.step_batch(3200);
        assert_eq!(p.stopped(), Some(StopReason::Target));
        assert_eq!(p.winner(), Some(0));
        assert!(p.chains[1].steps <= 200, "{} steps", p.chains[1].steps);
        assert_eq!(done, 160 + p.chains[1].steps);
    }
}
