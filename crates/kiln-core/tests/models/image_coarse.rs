//! The coarse grids of the multi-scale start: flip deltas equal full recomputation at every
//! level, the finest grid is the denoising energy itself, and a block labelling costs
//! exactly what its upscaled labelling costs one level finer.

use kiln_core::anneal::{Problem, Rng};
use kiln_core::problems::image::coarse::Coarse;
use kiln_core::problems::image::{Bitmap, Change, Denoise, Neighbourhood};
use rand::{RngExt, SeedableRng};

/// A random denoising grid with odd and even sides, either neighbourhood, quarter weights.
fn random_grid(seed: u64) -> (Bitmap, f64, f64, bool, Rng) {
    let mut rng = Rng::seed_from_u64(seed);
    let (w, h) = (rng.random_range(1..15), rng.random_range(1..15));
    let noisy = Bitmap::random(w, h, rng.random_range(0.0..1.0), &mut rng);
    let lambda = [0.5, 1.0, 2.0][seed as usize % 3];
    let beta = [0.25, 0.5, 0.75, 1.0, 1.5][seed as usize % 5];
    (noisy, lambda, beta, seed % 2 == 1, rng)
}

/// Random flips; each one's delta must equal the change of the full energy.
fn check_deltas(grid: &mut Coarse, rng: &mut Rng, what: &str) {
    let mut energy = grid.energy();
    for _ in 0..150 {
        let mv = grid.propose(rng);
        let delta = grid.delta(&mv);
        grid.apply(&mv);
        let now = grid.energy();
        assert!(
            (now - energy - delta).abs() < 1e-9,
            "{what}: delta {delta}, energy changed by {}",
            now - energy
        );
        energy = now;
    }
}

#[test]
fn coarse_delta_matches_full_energy_at_every_level() {
    for seed in 0..40 {
        let (noisy, lambda, beta, diagonals, mut rng) = random_grid(seed);
        let mut grid = Coarse::denoising(&noisy, lambda, beta, diagonals);
        for level in 0..3 {
            let halved = grid.halve();
            check_deltas(&mut grid, &mut rng, &format!("seed {seed} level {level}"));
            grid = halved;
        }
    }
}

#[test]
fn the_finest_grid_is_the_denoising_energy() {
    for seed in 0..30 {
        let (noisy, lambda, beta, diagonals, mut rng) = random_grid(seed);
        let n = if diagonals {
            Neighbourhood::Eight
        } else {
            Neighbourhood::Four
        };
        let mut denoise = Denoise::new(&noisy, lambda, beta, n);
        let mut grid = Coarse::denoising(&noisy, lambda, beta, diagonals);
        for _ in 0..100 {
            // Both pad the image with a one-pixel frame: a flip is the same index in both.
            let i = grid.propose(&mut rng);
            grid.apply(&i);
            denoise.apply(&Change::Flip(i));
            assert_eq!(grid.energy(), denoise.energy(), "seed {seed}");
            assert_eq!(grid.labels(), denoise.snapshot());
        }
    }
}

#[test]
fn a_block_labelling_costs_what_its_upscaled_labelling_costs() {
    for seed in 0..40 {
        let (noisy, lambda, beta, diagonals, mut rng) = random_grid(seed);
        let mut fine = Coarse::denoising(&noisy, lambda, beta, diagonals);
        for level in 0..3 {
            let mut coarse = fine.halve();
            for _ in 0..20 {
                let mv = coarse.propose(&mut rng);
                coarse.apply(&mv);
                fine.upscale_from(&coarse.labels());
                assert!(
                    (fine.energy() - coarse.energy()).abs() < 1e-9,
                    "seed {seed} level {level}: fine {} coarse {}",
                    fine.energy(),
                    coarse.energy()
                );
            }
            fine = coarse;
        }
    }
}

#[test]
fn the_multiscale_start_reports_the_state_it_leaves() {
    for seed in 0..10 {
        let (noisy, lambda, beta, diagonals, mut rng) = random_grid(seed);
        let n = if diagonals {
            Neighbourhood::Eight
        } else {
            Neighbourhood::Four
        };
        let mut d = Denoise::new(&noisy, lambda, beta, n);
        d.icm();
        let energy = d.multiscale_start(seed, None);
        assert_eq!(energy, d.energy());
        // It ends with ICM: no single flip lowers the energy.
        for _ in 0..500 {
            let i = Change::Flip(match d.propose(&mut rng) {
                Change::Flip(i) => i,
                Change::Region(r) => r.seed,
            });
            assert!(d.delta(&i) >= 0.0, "seed {seed}");
        }
    }
}
