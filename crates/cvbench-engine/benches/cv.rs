//! Criterion benchmarks: one PEGASOS and one LSQSGD update, and TreeCV against
//! standard k-CV at fixed n, d, k (SYNTHETIC dense data, seeded).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use cvbench_engine::cv::standard::standard_cv;
use cvbench_engine::cv::treecv::{treecv, Strategy};
use cvbench_engine::cv::{Chunks, Order};
use cvbench_engine::data::Dataset;
use cvbench_engine::learners::{IncrementalLearner, Lsqsgd, Pegasos};
use cvbench_engine::seed;
use std::hint::black_box;

fn synthetic(n: usize, d: usize, classification: bool) -> Dataset {
    let mut s = seed::mix64(11);
    let mut u = || {
        s = seed::mix64(s);
        (s >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    };
    let rows: Vec<Vec<f64>> = (0..n).map(|_| (0..d).map(|_| u()).collect()).collect();
    let y = rows
        .iter()
        .map(|r| {
            let t = r.iter().step_by(3).sum::<f64>() + 0.3 * u();
            if classification {
                if t > 0.0 {
                    1.0
                } else {
                    -1.0
                }
            } else {
                0.5 + 0.2 * t
            }
        })
        .collect();
    Dataset::from_dense_rows("bench-synthetic", &rows, y)
}

fn updates(c: &mut Criterion) {
    let cls = synthetic(1000, 54, true);
    let reg = synthetic(1000, 90, false);
    let peg = Pegasos::default();
    let lsq = Lsqsgd::default();
    let mut g = c.benchmark_group("one_update");
    g.bench_function("pegasos_d54", |b| {
        let mut m = peg.init(&cls);
        let mut i = 0usize;
        b.iter(|| {
            peg.update(&mut m, &cls, &[i % 1000]);
            i += 1;
        })
    });
    g.bench_function("lsqsgd_d90", |b| {
        let mut m = lsq.init(&reg);
        let mut i = 0usize;
        b.iter(|| {
            lsq.update(&mut m, &reg, &[i % 1000]);
            i += 1;
        })
    });
    g.finish();
}

fn cv_runs(c: &mut Criterion) {
    let n = 20_000;
    let data = synthetic(n, 54, true);
    let peg = Pegasos::default();
    let mut g = c.benchmark_group("cv_pegasos_n20000_d54");
    g.sample_size(10);
    for k in [10usize, 100] {
        let chunks = Chunks::shuffled(n, k, &mut seed::rng(1)).unwrap();
        g.bench_with_input(BenchmarkId::new("treecv", k), &k, |b, _| {
            b.iter(|| {
                black_box(treecv(
                    &peg,
                    &data,
                    &chunks,
                    Order::Fixed,
                    Strategy::Copy,
                    1,
                ))
            })
        });
        g.bench_with_input(BenchmarkId::new("standard", k), &k, |b, _| {
            b.iter(|| black_box(standard_cv(&peg, &data, &chunks, Order::Fixed, 1)))
        });
    }
    g.finish();
}

criterion_group!(benches, updates, cv_runs);
criterion_main!(benches);
