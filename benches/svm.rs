//! SVM benchmarks against LIBSVM's `svm-train` on the same folds.
//!
//! - `svm_fold/<data>`: one training fold (fold 0 of LIBSVM's 10 folds held
//!   out), our single-threaded solve vs an `svm-train` process on the same
//!   rows (its time includes reading the file, which is small next to the
//!   solve except on heart_scale).
//! - `svm_cv10/a9a`: 10-fold CV, our sequential baseline, our parallel folds
//!   with one shared kernel cache, and `svm-train -v 10`, on the same folds.
//!
//! - `svm_predict/a9a`: predicting fold 0 with the model of the other folds:
//!   the batched kernel block (`predict_rows`) against LIBSVM's pair-by-pair
//!   `k_function` (`SvmModel::predict`), the same labels.
//! - `svm_kernel_columns64/a9a`: 64 kernel columns over all rows with the
//!   integer-distance table against `exp`, the same values bit for bit.
//! - `svm_cv10/a9a` also runs SIR and tree (shared cache, 2 threads) beside
//!   the unseeded run with the same cache and threads.
//!
//! Data come from `CVBENCH_DATA_DIR`; a9a is cut to its first
//! `CVBENCH_BENCH_A9A_ROWS` rows (default 3000; `all` for the full set,
//! which takes hours at the paper's C = 100, gamma = 0.5). Without the data
//! or `svm-train`, the affected benchmarks print `SKIPPED: ...`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use cvbench::peers::libsvm::{self as peer, PeerOutcome};
use cvbench_engine::data::{read_libsvm, Dataset};
use cvbench_engine::svm::cv::folds::Folds;
use cvbench_engine::svm::cv::rounds::predict_rows;
use cvbench_engine::svm::cv::{cross_validate, CvOptions};
use cvbench_engine::svm::kernel::KernelData;
use cvbench_engine::svm::model::solution::train;
use cvbench_engine::svm::{
    run_cv, CacheMode, CvStrategy, SeedingMethod, SharedKernelCache, SvmParams,
};

fn load(name: &str) -> Option<Dataset> {
    let Some(dir) = std::env::var_os("CVBENCH_DATA_DIR") else {
        println!("SKIPPED: CVBENCH_DATA_DIR is not set");
        return None;
    };
    let dir = PathBuf::from(dir);
    let p = [dir.join(format!("{name}.xz")), dir.join(name)]
        .into_iter()
        .find(|p| p.is_file());
    match p {
        Some(p) => read_libsvm(&p, None).ok(),
        None => {
            println!("SKIPPED: {name} not in {}", dir.display());
            None
        }
    }
}

fn a9a_rows() -> Option<usize> {
    match std::env::var("CVBENCH_BENCH_A9A_ROWS").as_deref() {
        Ok("all") => None,
        Ok(v) => v.parse().ok(),
        Err(_) => Some(3000),
    }
}

fn a9a() -> Option<Dataset> {
    let ds = load("a9a")?;
    Some(match a9a_rows() {
        Some(m) if m < ds.n() => {
            let rows: Vec<usize> = (0..m).collect();
            ds.subset(&rows, format!("a9a[..{m}]"))
        }
        _ => ds,
    })
}

fn bench_fold(c: &mut Criterion) {
    let cases: Vec<(Option<Dataset>, SvmParams)> = vec![
        (load("heart_scale"), SvmParams::rbf(2182.0, 0.2)),
        (a9a(), SvmParams::rbf(100.0, 0.5)),
    ];
    let tmp = tempfile::tempdir().expect("tempdir");
    for (ds, params) in cases {
        let Some(ds) = ds else { continue };
        let folds = Folds::libsvm(&ds, 10).expect("folds");
        let rows = folds.train_rows(0);
        let ours = peer::as_parsed_by_svm_train(&params);
        let mut g = c.benchmark_group(format!("svm_fold/{}", ds.name));
        g.sample_size(10);
        g.bench_function("ours", |b| {
            b.iter(|| train(&ds, &rows, &ours, None).expect("train"))
        });
        if peer::available() {
            let file = tmp.path().join(format!("{}.train", ds.name));
            peer::write_rows(&ds, &rows, &file).expect("write fold");
            let model = tmp.path().join("m");
            g.bench_function("svm-train", |b| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        let t = Instant::now();
                        let out = peer::run_svm_train(&file, &params, None, Some(&model));
                        assert!(matches!(out, Ok(PeerOutcome::Ran(_))));
                        total += t.elapsed();
                    }
                    total
                })
            });
        } else {
            println!("SKIPPED: {}", peer::SKIPPED_NO_SVM_TRAIN);
        }
        g.finish();
    }
}

fn bench_predict(c: &mut Criterion) {
    let Some(ds) = a9a() else { return };
    let params = SvmParams::libsvm_defaults(ds.d());
    let folds = Folds::libsvm(&ds, 10).expect("folds");
    let out = train(&ds, &folds.train_rows(0), &params, None).expect("train");
    let kd = KernelData::new(&ds, params.kernel);
    let test = folds.test_rows(0).to_vec();
    let batched = predict_rows(&kd, &out.model, &test, None, None).0;
    // The support vectors' columns in a shared cache (as a k-fold CV with
    // one leaves them): the labels read from it must be the same.
    let shared = SharedKernelCache::new(ds.n(), 2000.0);
    let mut scratch = vec![0.0; kd.d()];
    for &j in &out.model.sv_rows {
        shared.column(&kd, j, &mut scratch);
    }
    assert_eq!(
        predict_rows(&kd, &out.model, &test, None, Some(&shared)).0,
        batched
    );
    let pairwise: Vec<f64> = test
        .iter()
        .map(|&r| out.model.predict(kd.ds.row(r)))
        .collect();
    assert_eq!(batched, pairwise, "the batched labels are LIBSVM's");
    let mut g = c.benchmark_group(format!("svm_predict/{}", ds.name));
    g.sample_size(10);
    g.bench_function("batched_block", |b| {
        b.iter(|| predict_rows(&kd, &out.model, &test, None, None))
    });
    g.bench_function("shared_cache_columns", |b| {
        b.iter(|| predict_rows(&kd, &out.model, &test, None, Some(&shared)))
    });
    g.bench_function("pairwise_k_function", |b| {
        b.iter(|| {
            test.iter()
                .map(|&r| out.model.predict(kd.ds.row(r)))
                .collect::<Vec<f64>>()
        })
    });
    g.finish();
}

/// Kernel columns of a9a (all rows against 64 rows), exponentials against
/// the integer-distance table (`svm::exp_table`): the same values bit for
/// bit, the table's speed-up measured.
fn bench_kernel_columns(c: &mut Criterion) {
    let Some(ds) = a9a() else { return };
    let params = SvmParams::libsvm_defaults(ds.d());
    let table = KernelData::new(&ds, params.kernel);
    if !table.has_exp_table() {
        println!("SKIPPED: a9a has no exp table (not integer data?)");
        return;
    }
    let plain = KernelData::new(&ds, params.kernel).without_exp_table();
    let rows: Vec<u32> = (0..ds.n() as u32).collect();
    let cols: Vec<usize> = (0..ds.n()).step_by((ds.n() / 64).max(1)).take(64).collect();
    let fill = |kd: &KernelData, out: &mut Vec<f32>, scratch: &mut Vec<f64>| {
        for &a in &cols {
            kd.fill_column(a, 1, &rows, None, out, scratch);
        }
    };
    let (mut out_t, mut out_p) = (vec![0f32; rows.len()], vec![0f32; rows.len()]);
    let mut scratch = vec![0.0; table.d()];
    for &a in &cols {
        table.fill_column(a, 1, &rows, None, &mut out_t, &mut scratch);
        plain.fill_column(a, 1, &rows, None, &mut out_p, &mut scratch);
        assert!(out_t
            .iter()
            .zip(&out_p)
            .all(|(x, y)| x.to_bits() == y.to_bits()));
    }
    let mut g = c.benchmark_group(format!("svm_kernel_columns64/{}", ds.name));
    g.sample_size(10);
    g.bench_function("exp_table", |b| {
        b.iter(|| fill(&table, &mut out_t, &mut scratch))
    });
    g.bench_function("exp", |b| b.iter(|| fill(&plain, &mut out_p, &mut scratch)));
    g.finish();
}

fn bench_cv(c: &mut Criterion) {
    let Some(ds) = a9a() else { return };
    let params = SvmParams::rbf(100.0, 0.5);
    let ours = peer::as_parsed_by_svm_train(&params);
    let folds = Folds::libsvm(&ds, 10).expect("folds");
    let mut g = c.benchmark_group(format!("svm_cv10/{}", ds.name));
    g.sample_size(10);
    g.bench_function("ours_sequential", |b| {
        b.iter(|| cross_validate(&ds, &folds, &ours, &CvOptions::default()).expect("cv"))
    });
    g.bench_function("ours_parallel_shared_cache", |b| {
        let opts = CvOptions {
            parallel: true,
            shared_cache_mb: Some(ours.cache_mb),
        };
        b.iter(|| cross_validate(&ds, &folds, &ours, &opts).expect("cv"))
    });
    for method in [SeedingMethod::None, SeedingMethod::Sir, SeedingMethod::Tree] {
        let strategy = CvStrategy::of(method, CacheMode::Shared, 2);
        g.bench_function(format!("{}_shared_2_threads", strategy.label()), |b| {
            b.iter(|| run_cv(&ds, &folds, &ours, &strategy, 1).expect("cv"))
        });
    }
    if peer::available() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let file = tmp.path().join("all.libsvm");
        let all: Vec<usize> = (0..ds.n()).collect();
        peer::write_rows(&ds, &all, &file).expect("write");
        g.bench_function("svm-train -v 10", |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let t = Instant::now();
                    let out = peer::run_svm_train(&file, &params, Some(10), None);
                    assert!(matches!(out, Ok(PeerOutcome::Ran(_))));
                    total += t.elapsed();
                }
                total
            })
        });
    } else {
        println!("SKIPPED: {}", peer::SKIPPED_NO_SVM_TRAIN);
    }
    g.finish();
}

criterion_group!(
    benches,
    bench_fold,
    bench_predict,
    bench_kernel_columns,
    bench_cv
);
criterion_main!(benches);
