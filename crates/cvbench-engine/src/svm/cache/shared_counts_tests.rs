//! The counters of a run with a shared kernel cache count what the run asks
//! for, not who filled the cache first: a solve's and a prediction's counts
//! are the same whatever the cache happens to hold (which, where solves run
//! in parallel, depends on timing), and the cache counts each column asked
//! for whole once, its refills apart.

use std::sync::atomic::Ordering::Relaxed;

use crate::data::Dataset;
use crate::svm::cache::SharedKernelCache;
use crate::svm::cv::rounds::predict_rows;
use crate::svm::kernel::{KernelData, KernelKind};
use crate::svm::model::params::SvmParams;
use crate::svm::model::solution::train_with;

/// `n` dense rows of 12 features (so that reading cached columns is
/// preferred), two classes.
fn data(n: usize) -> Dataset {
    let rows: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            (0..12)
                .map(|j| ((i * 12 + j) as f64 * 0.37).sin() + if i % 3 == 0 { 0.3 } else { 0.0 })
                .collect()
        })
        .collect();
    let y = (0..n)
        .map(|i| if i % 3 == 0 { 1.0 } else { -1.0 })
        .collect();
    Dataset::from_dense_rows("synthetic-shared-counts", &rows, y)
}

/// A cache of `n` columns with every column computed.
fn filled(kd: &KernelData<'_>, n: usize) -> SharedKernelCache {
    let sh = SharedKernelCache::new(n, 1.0);
    let mut scratch = vec![0.0; kd.d()];
    for a in 0..n {
        sh.column(kd, a, &mut scratch);
    }
    sh
}

#[test]
fn the_cache_counts_each_column_asked_once_and_its_refills_apart() {
    let ds = data(12);
    let kd = KernelData::new(&ds, KernelKind::Rbf { gamma: 0.1 });
    // Room for two columns: asking 0, 1, 2 evicts 0; asking 0 again refills it.
    let sh = SharedKernelCache::new(12, 0.0);
    assert_eq!(sh.capacity_columns(), 2);
    let mut scratch = vec![0.0; kd.d()];
    for a in [0, 1, 2, 0, 2] {
        sh.column(&kd, a, &mut scratch);
    }
    assert_eq!(sh.kernel_evals.load(Relaxed), 3 * 12, "three columns asked");
    assert_eq!(sh.extra_kernel_evals.load(Relaxed), 12, "one refill");
    // Settled (one solve at a time): every fill follows from the inputs.
    let sh = SharedKernelCache::new(12, 0.0).settled(true);
    for a in [0, 1, 2, 0, 2] {
        sh.column(&kd, a, &mut scratch);
    }
    assert_eq!(sh.kernel_evals.load(Relaxed), 4 * 12);
    assert_eq!(sh.extra_kernel_evals.load(Relaxed), 0);
    // A column inserted whole is counted by whoever computed it.
    let sh = SharedKernelCache::new(12, 1.0);
    sh.insert(5, sh_col(&kd, 5));
    sh.column(&kd, 5, &mut scratch);
    assert_eq!(sh.kernel_evals.load(Relaxed), 0);
    assert_eq!(sh.extra_kernel_evals.load(Relaxed), 0);
}

fn sh_col(kd: &KernelData<'_>, a: usize) -> std::sync::Arc<[f32]> {
    let fresh = SharedKernelCache::new(kd.ds.n(), 1.0);
    std::sync::Arc::from(&fresh.column(kd, a, &mut vec![0.0; kd.d()])[..])
}

#[test]
fn a_solves_counts_do_not_depend_on_what_the_shared_cache_holds() {
    // 40 training rows of 100: every column request is shorter than half a
    // shared column, so the solve fills its own entries, reading them from
    // the shared cache where it happens to hold the column (an unsettled
    // cache, as solves running in parallel share).
    let ds = data(100);
    let kd = KernelData::new(&ds, KernelKind::Rbf { gamma: 0.1 });
    let params = SvmParams::rbf(1.0, 0.1).check().unwrap();
    let rows: Vec<usize> = (0..40).collect();
    let empty = SharedKernelCache::new(100, 1.0);
    let cold = train_with(&kd, &rows, &params, None, Some(&empty)).unwrap();
    let full = filled(&kd, 100);
    let warm = train_with(&kd, &rows, &params, None, Some(&full)).unwrap();
    assert!(
        cold.stats.kernel_evals > rows.len() as u64,
        "the solve filled entries beyond the diagonal"
    );
    let counts = |o: &crate::svm::model::solution::TrainOutput| {
        let s = &o.stats;
        (
            s.iterations,
            s.kernel_evals,
            s.cache_hits,
            s.cache_misses,
            s.shared_hits,
        )
    };
    assert_eq!(counts(&cold), counts(&warm));
    assert_eq!(cold.alpha, warm.alpha);
}

#[test]
fn a_predictions_block_count_does_not_depend_on_what_the_shared_cache_holds() {
    let ds = data(100);
    let kd = KernelData::new(&ds, KernelKind::Rbf { gamma: 0.1 });
    let params = SvmParams::rbf(1.0, 0.1).check().unwrap();
    let rows: Vec<usize> = (0..70).collect();
    let test: Vec<usize> = (70..100).collect();
    let out = train_with(&kd, &rows, &params, None, None).unwrap();
    let predict = |sh: &SharedKernelCache| {
        let before = kd.block_evals();
        let (labels, _) = predict_rows(&kd, &out.model, &test, None, Some(sh));
        (labels, kd.block_evals() - before)
    };
    // A cache that solves running in parallel fill (not settled): empty, or
    // holding every column, as timing may leave it.
    let empty = SharedKernelCache::new(100, 1.0);
    let full = filled(&kd, 100);
    assert_eq!(predict(&empty), predict(&full));
}
