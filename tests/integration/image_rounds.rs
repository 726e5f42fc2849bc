//! Denoising in rounds: fusing two labellings takes the better of them patch by patch, and
//! a run of several rounds ends no worse than its best round.

use std::collections::VecDeque;

use kiln::anneal::{BATCH, Problem, Rng, RunConfig, Schedule};
use kiln::headless::progress::Progress;
use kiln::problems::image::{Bitmap, Denoise, Neighbourhood, Plan, Rounds};
use kiln::search::{Search, Trace, run_traced};
use rand::{RngExt, SeedableRng};

fn random_problem(seed: u64) -> (Denoise, Bitmap, Neighbourhood, Rng) {
    let mut rng = Rng::seed_from_u64(seed);
    let (w, h) = (rng.random_range(1..10), rng.random_range(1..10));
    let noisy = Bitmap::random(w, h, rng.random_range(0.0..1.0), &mut rng);
    let n = if seed.is_multiple_of(2) {
        Neighbourhood::Four
    } else {
        Neighbourhood::Eight
    };
    let lambda = [0.5, 1.0, 2.0][seed as usize % 3];
    let beta = [0.25, 0.5, 0.75, 1.0, 1.5][seed as usize % 5];
    (Denoise::new(&noisy, lambda, beta, n), noisy, n, rng)
}

/// `image` with about `share` of its pixels flipped.
fn perturbed(image: &Bitmap, share: f64, rng: &mut Rng) -> Bitmap {
    let mut out = image.clone();
    for bit in &mut out.bits {
        if rng.random::<f64>() < share {
            *bit ^= 1;
        }
    }
    out
}

/// The connected patches (in the energy's neighbourhood) of pixels where `a` and `b`
/// differ, found here independently of the code under test.
fn patches(a: &Bitmap, b: &Bitmap, n: Neighbourhood) -> Vec<Vec<usize>> {
    let (w, h) = (a.width as isize, a.height as isize);
    let steps: &[(isize, isize)] = match n {
        Neighbourhood::Four => &[(0, 1), (1, 0), (0, -1), (-1, 0)],
        Neighbourhood::Eight => &[
            (0, 1),
            (1, 0),
            (0, -1),
            (-1, 0),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ],
    };
    let mut seen: Vec<bool> = (0..a.len()).map(|i| a.bits[i] == b.bits[i]).collect();
    let mut out = Vec::new();
    for start in 0..a.len() {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut patch = vec![];
        let mut queue = VecDeque::from([start]);
        while let Some(i) = queue.pop_front() {
            patch.push(i);
            let (r, c) = (i as isize / w, i as isize % w);
            for (dr, dc) in steps {
                let (r2, c2) = (r + dr, c + dc);
                if (0..h).contains(&r2) && (0..w).contains(&c2) {
                    let j = (r2 * w + c2) as usize;
                    if !seen[j] {
                        seen[j] = true;
                        queue.push_back(j);
                    }
                }
            }
        }
        out.push(patch);
    }
    out
}

fn energy_of(problem: &Denoise, labels: &Bitmap) -> f64 {
    let mut p = problem.clone();
    p.set_labels(labels);
    p.energy()
}

#[test]
fn fusing_takes_the_best_mix_of_patches() {
    let mut mixes = 0;
    for seed in 0..60u64 {
        let (mut d, noisy, n, mut rng) = random_problem(seed);
        let a = perturbed(&noisy, rng.random_range(0.0..0.5), &mut rng);
        let b = perturbed(&a, rng.random_range(0.05..0.4), &mut rng);
        d.set_labels(&a);
        let before = d.energy();
        let gain = d.fuse(&b);
        let fused = d.snapshot();
        assert!(gain <= 0.0, "seed {seed}");
        assert!((d.energy() - before - gain).abs() < 1e-9, "seed {seed}");
        assert!(d.energy() <= energy_of(&d, &b) + 1e-9, "seed {seed}");
        // Every pixel comes from one of the two, and no mix of whole patches is better.
        assert!((0..a.len()).all(|i| fused.bits[i] == a.bits[i] || fused.bits[i] == b.bits[i]));
        let patches = patches(&a, &b, n);
        if patches.len() > 10 {
            continue;
        }
        mixes += 1;
        let best = (0..1u32 << patches.len())
            .map(|take| {
                let mut mix = a.clone();
                for (k, patch) in patches.iter().enumerate() {
                    if take >> k & 1 == 1 {
                        for &i in patch {
                            mix.bits[i] = b.bits[i];
                        }
                    }
                }
                energy_of(&d, &mix)
            })
            .fold(f64::INFINITY, f64::min);
        assert!(
            (d.energy() - best).abs() < 1e-9,
            "seed {seed}: {} vs {best}",
            d.energy()
        );
    }
    assert!(mixes > 20, "only {mixes} cases small enough to enumerate");
}

/// Random discs with 15 % of the pixels flipped, 64x48: short rounds end in different
/// places, so fusing them has something to choose.
fn noisy_discs(seed: u64) -> Denoise {
    let mut rng = Rng::seed_from_u64(seed);
    let (w, h) = (64, 48);
    let mut image = Bitmap::white(w, h);
    for _ in 0..8 {
        let (cx, cy, r) = (
            rng.random_range(0.0..w as f64),
            rng.random_range(0.0..h as f64),
            rng.random_range(3.0..10.0),
        );
        for y in 0..h {
            for x in 0..w {
                if (x as f64 - cx).hypot(y as f64 - cy) < r {
                    image.bits[y * w + x] = 1;
                }
            }
        }
    }
    image.add_noise(0.15, &mut rng);
    Denoise::new(&image, 1.0, 0.75, Neighbourhood::Eight)
}

fn rounds(seed: u64, count: usize, steps: u64) -> Rounds {
    let mut d = noisy_discs(seed);
    d.icm();
    let mut config = RunConfig::new(Schedule::Exponential { t_min: 0.05 }, 1.5);
    config.budget.max_steps = Some(steps);
    let plan = Plan {
        rounds: Some(count),
        multiscale: true,
    };
    Rounds::new(d, plan, config, seed)
}

#[test]
fn rounds_end_no_worse_than_their_best_round_within_the_budget() {
    let mut improved = 0;
    for seed in 0..4 {
        let mut run = rounds(seed, 4, 200_000);
        run_traced(&mut run, BATCH, &mut Trace::off(), &mut Progress::off());
        let (outcome, report) = run.finish();
        assert_eq!(report.round_energies.len(), 4);
        assert_eq!(report.start_energies.len(), 4);
        let best_round = report
            .round_energies
            .iter()
            .copied()
            .fold(f64::INFINITY, f64::min);
        assert!(outcome.energy <= best_round, "seed {seed}");
        improved += usize::from(outcome.energy < best_round);
        assert_eq!(energy_of(&noisy_discs(seed), &outcome.best), outcome.energy);
        assert!(
            (190_000..=200_000).contains(&outcome.iterations),
            "{} iterations",
            outcome.iterations
        );
        assert_eq!(outcome.restarts, 3);
    }
    assert!(
        improved >= 2,
        "fusion beat the best round in {improved} of 4 runs"
    );
}

#[test]
fn the_same_seed_gives_the_same_rounds() {
    let finish = |seed| {
        let mut run = rounds(seed, 3, 90_000);
        run_traced(&mut run, BATCH, &mut Trace::off(), &mut Progress::off());
        run.finish().0.best
    };
    assert_eq!(finish(7), finish(7));
    assert_ne!(finish(7), finish(8));
}

#[test]
fn samples_count_across_rounds_and_report_the_fused_best() {
    let mut run = rounds(3, 3, 60_000);
    let mut last = 0;
    let mut best = f64::INFINITY;
    while run.stopped().is_none() {
        run.step_batch(5_000);
        let sample = run.sample();
        assert!(sample.iteration >= last);
        assert!(sample.best_energy <= best);
        last = sample.iteration;
        best = sample.best_energy;
    }
    assert_eq!(last, 60_000);
    // Once over, the run shows its fused result as its state.
    let sample = run.sample();
    assert_eq!(sample.energy, sample.best_energy);
    let shown = run.snapshot();
    assert_eq!(run.best_snapshot(), shown);
    assert_eq!(shown, run.finish().0.best);
}
