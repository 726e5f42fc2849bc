//! Steps per second of the default TSP annealer (2-opt + Or-opt, 5-NN candidates) on
//! pcb442, at a mid-run temperature so moves are both accepted and rejected; and move
//! evaluations per second of the kicks that end a headless run (kick, descend, accept or
//! go back), from the greedy tour of pcb442 and of 5,000 random cities (where one kick in
//! 10 walks a window of the tour anew).

use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;

use kiln_core::anneal::{Rng, RunConfig, Runner, Schedule};
use kiln_core::problems::tsp::ils::{self, Budget};
use kiln_core::problems::tsp::{Cost, Init, Instance, Layout, MoveSet, TspProblem, random, tsplib};

const STEPS: u64 = 1 << 20;

fn pcb442() -> Arc<Instance> {
    let text = include_str!("../../../puzzles/tsp/pcb442.tsp");
    Arc::new(tsplib::parse(text, "pcb442").unwrap())
}

fn annealer_steps(c: &mut Criterion) {
    let instance = pcb442();
    let mut group = c.benchmark_group("tsp");
    group.throughput(Throughput::Elements(STEPS));
    for (name, moves, t) in [
        ("two_opt_pcb442_T10", MoveSet::TwoOpt, 10.0),
        ("two_opt_pcb442_T1", MoveSet::TwoOpt, 1.0),
        ("swap_pcb442_T10", MoveSet::Swap, 10.0),
    ] {
        let mut rng = Rng::seed_from_u64(1);
        let problem = TspProblem::new(
            instance.clone(),
            moves,
            Cost::Euclidean,
            5,
            Init::Nearest,
            &mut rng,
        );
        let mut runner = Runner::new(problem, RunConfig::new(Schedule::Constant, t), 1);
        group.bench_function(name, |b| b.iter(|| runner.step_batch(STEPS)));
    }
    group.finish();
}

/// Evaluations a kicks bench spends: a few thousand kicks on pcb442.
const EVALUATIONS: u64 = 1 << 22;

fn kick_evaluations(c: &mut Criterion) {
    let mut group = c.benchmark_group("tsp");
    group.throughput(Throughput::Elements(EVALUATIONS));
    let uniform5000 = Arc::new(random::instance(5_000, Layout::Uniform, 1));
    for (name, instance) in [
        ("kicks_pcb442", pcb442()),
        ("kicks_uniform5000", uniform5000),
    ] {
        let mut rng = Rng::seed_from_u64(1);
        let mut problem = TspProblem::new(
            instance,
            MoveSet::TwoOpt,
            Cost::Euclidean,
            5,
            Init::Nearest,
            &mut rng,
        );
        // The local search's own lists, as a run of this size has them.
        problem.choose_local_candidates(None);
        let budget = Budget {
            evaluations: EVALUATIONS,
            deadline: None,
            target: None,
        };
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut kicked = problem.clone();
                ils::iterate(&mut kicked, rng.clone(), budget)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, annealer_steps, kick_evaluations);
criterion_main!(benches);
