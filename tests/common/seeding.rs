//! What the alpha-seeding test files share (`tests/svm_seeding*.rs`):
//! generated data, heart_scale where the data folder has it, a seeded CV
//! run, and the check that a run reaches the baseline's optimum.

use std::path::PathBuf;

use cvbench_engine::data::{read_libsvm, Dataset};
use cvbench_engine::svm::cv::folds::Folds;
use cvbench_engine::svm::{
    seeded_cross_validate, SeededCvResult, SeededOptions, SeedingMethod, SvmParams,
};
use rand::RngExt;

/// Two overlapping Gaussian blobs (synthetic).
pub fn blobs(n: usize, d: usize, seed: u64, sep: f64) -> Dataset {
    let mut rng = cvbench_engine::seed::rng(seed);
    let mut rows = Vec::new();
    let mut y = Vec::new();
    for i in 0..n {
        let label = if i % 3 == 0 { 1.0 } else { -1.0 };
        let row: Vec<f64> = (0..d)
            .map(|j| rng.random_range(-1.0..1.0) + if j == 0 { sep * label } else { 0.0 })
            .collect();
        rows.push(row);
        y.push(label);
    }
    Dataset::from_dense_rows("synthetic-blobs", &rows, y)
}

/// heart_scale from `CVBENCH_DATA_DIR`, or `None` (printing why the test
/// skips) where it is not there.
pub fn heart() -> Option<Dataset> {
    let Some(dir) = std::env::var_os("CVBENCH_DATA_DIR") else {
        println!("SKIPPED: CVBENCH_DATA_DIR is not set");
        return None;
    };
    let dir = PathBuf::from(dir);
    let p = [dir.join("heart_scale.xz"), dir.join("heart_scale")]
        .into_iter()
        .find(|p| p.is_file());
    match p {
        Some(p) => Some(read_libsvm(&p, None).expect("readable heart_scale")),
        None => {
            println!("SKIPPED: heart_scale not in {}", dir.display());
            None
        }
    }
}

/// The seeded k-fold CV of method `m` (on rayon with a 64 MB shared cache
/// where `par`), seed 7.
pub fn run(
    ds: &Dataset,
    folds: &Folds,
    p: &SvmParams,
    m: SeedingMethod,
    par: bool,
) -> SeededCvResult {
    seeded_cross_validate(
        ds,
        folds,
        p,
        &SeededOptions {
            method: m,
            shared_cache_mb: if par { Some(64.0) } else { None },
            parallel: par,
            seed: 7,
        },
    )
    .unwrap_or_else(|e| panic!("{} failed: {e}", m.as_str()))
}

/// Every round of `got` against the baseline `base`: objective within 1e-3
/// relative, same iteration-independent outcome, at most one flip per fold.
pub fn assert_same_optimum(base: &SeededCvResult, got: &SeededCvResult, what: &str) {
    assert_eq!(base.cv.rounds.len(), got.cv.rounds.len());
    for (b, g) in base.cv.rounds.iter().zip(&got.cv.rounds) {
        let (ob, og) = (b.stats.objective, g.stats.objective);
        assert!(
            (ob - og).abs() <= 1e-3 * ob.abs().max(1e-12),
            "{what}: fold {} objective {og} vs baseline {ob}",
            b.fold
        );
        assert_eq!(b.n_train, g.n_train);
    }
    let flips_per_fold = |h: usize| got.cv.rounds[h].correct.abs_diff(base.cv.rounds[h].correct);
    for h in 0..base.cv.rounds.len() {
        assert!(
            flips_per_fold(h) <= 1,
            "{what}: fold {h} changed by more than one row"
        );
    }
    let flipped = base
        .cv
        .predictions
        .iter()
        .zip(&got.cv.predictions)
        .filter(|(a, b)| a != b)
        .count();
    assert!(
        flipped <= base.cv.rounds.len(),
        "{what}: {flipped} predictions flipped"
    );
}
