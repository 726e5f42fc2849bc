//! Annealing throughput on images: pattern formation (256x256, d = 0.3, 8-16 kernel) and
//! denoising (the shipped shapes_128, n4), both through the real runner.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;

use kiln_core::anneal::{Problem, Rng, RunConfig, Runner, Schedule};
use kiln_core::problems::image::{Bitmap, Denoise, Edges, Kernel, Neighbourhood, Pattern, pbm};

const BATCH: u64 = 1 << 20;

fn bench_runner<P: Problem>(c: &mut Criterion, name: &str, problem: P, t: f64) {
    let mut runner = Runner::new(problem, RunConfig::new(Schedule::Constant, t), 1);
    let mut group = c.benchmark_group("image");
    group.throughput(Throughput::Elements(BATCH));
    group.bench_function(name, |b| b.iter(|| runner.step_batch(BATCH)));
    group.finish();
}

fn pattern(c: &mut Criterion) {
    let image = Bitmap::random(256, 256, 0.3, &mut Rng::seed_from_u64(1));
    let kernel = Kernel::from_spec("8-16").unwrap();
    let problem = Pattern::new(image, kernel, Edges::Wrap).unwrap();
    // A low temperature, like most of a run: mostly rejected proposals.
    bench_runner(c, "pattern_256_d030_8-16", problem, 0.3);
}

fn denoise(c: &mut Criterion) {
    let path = "../../puzzles/image/shapes_128_noisy.pbm";
    let noisy = pbm::parse(&std::fs::read(path).unwrap(), path).unwrap();
    let problem = Denoise::new(&noisy, 1.0, 1.0, Neighbourhood::Four);
    bench_runner(c, "denoise_shapes_128_n4", problem, 0.2);
}

criterion_group!(benches, pattern, denoise);
criterion_main!(benches);
