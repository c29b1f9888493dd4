//! The precomputed kernel (`svm-train -t 4`) against the RBF kernel it
//! was computed from, on generated data (no files needed): a Gram matrix
//! written in f64 with LIBSVM's training formula of the RBF kernel
//! (`exp(-gamma (||x_i||^2 + ||x_j||^2 - 2 <x_i, x_j>))`, the norms and
//! dot products summed in index order) holds the very values `-t 2`
//! trains with, so the training on it is the same solve: the same
//! iterations, objective, rho, support vectors and coefficients, to the
//! bit; and the same `-v 5` accuracy on LIBSVM's folds, each held-out row's
//! values read by its serial number (with a shared kernel cache, the whole
//! matrix at once, and with each solve its own). A Gram matrix of the
//! prediction formula (the direct squared distance) rounds a few values
//! differently and trains to the same support vectors on this data.

use cvbench_engine::api::cv::{run_cv, Folds};
use cvbench_engine::api::data::{Dataset, Features, IndexBase};
use cvbench_engine::api::errors::SvmError;
use cvbench_engine::api::params::{KernelKind, SvmParams};
use cvbench_engine::api::strategies::{CacheMode, CvStrategy, SeedingMethod};
use cvbench_engine::api::training::train;

const GAMMA: f64 = 0.5;

/// `n` rows of `d` features from a fixed linear congruential sequence,
/// labelled by a noisy linear rule (both classes, overlapping).
fn data(n: usize, d: usize) -> Dataset {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    };
    let mut values = Vec::with_capacity(n * d);
    let mut y = Vec::with_capacity(n);
    for _ in 0..n {
        let row: Vec<f64> = (0..d).map(|_| next()).collect();
        let score = row[0] + 0.5 * row[1] - row[2] * row[3] + 0.4 * next();
        y.push(if score > 0.0 { 1.0 } else { -1.0 });
        values.extend(row);
    }
    Dataset {
        index_base: IndexBase::One,
        name: "generated".into(),
        x: Features::Dense { d, values },
        y,
    }
}

/// The precomputed-kernel dataset of `ds` (row `i`: `0:i+1`, then
/// `j+1:K(x_i, x_j)`), the kernel value of rows `a`, `b` from `k`.
fn gram(ds: &Dataset, k: impl Fn(&[f64], &[f64]) -> f64) -> Dataset {
    let n = ds.n();
    let rows: Vec<Vec<f64>> = (0..n).map(|i| ds.row(i).to_dense(ds.d())).collect();
    let (mut indptr, mut indices, mut values) = (vec![0], Vec::new(), Vec::new());
    for (i, a) in rows.iter().enumerate() {
        indices.push(0u32);
        values.push((i + 1) as f64);
        for (j, b) in rows.iter().enumerate() {
            indices.push(j as u32 + 1);
            values.push(k(a, b));
        }
        indptr.push(indices.len());
    }
    Dataset {
        index_base: IndexBase::Zero,
        name: "generated-gram".into(),
        x: Features::Sparse {
            d: n + 1,
            indptr,
            indices,
            values,
        },
        y: ds.y.clone(),
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).fold(0.0, |s, (u, v)| s + u * v)
}

/// LIBSVM's training formula of the RBF kernel.
fn rbf_training(a: &[f64], b: &[f64]) -> f64 {
    (-GAMMA * (dot(a, a) + dot(b, b) - 2.0 * dot(a, b))).exp()
}

/// LIBSVM's prediction formula (`k_function`): the direct squared distance.
fn rbf_direct(a: &[f64], b: &[f64]) -> f64 {
    let dist = a.iter().zip(b).fold(0.0, |s, (u, v)| s + (u - v) * (u - v));
    (-GAMMA * dist).exp()
}

fn params(kernel: KernelKind) -> SvmParams {
    SvmParams {
        kernel,
        ..SvmParams::rbf(2.0, GAMMA)
    }
}

#[test]
fn a_gram_of_the_training_formula_trains_as_the_rbf_kernel_to_the_bit() {
    let ds = data(120, 6);
    let pre = gram(&ds, rbf_training);
    let rows: Vec<usize> = (0..ds.n()).collect();
    let rbf = train(&ds, &rows, &params(KernelKind::Rbf { gamma: GAMMA }), None).unwrap();
    let got = train(&pre, &rows, &params(KernelKind::Precomputed), None).unwrap();
    assert_eq!(got.stats.iterations, rbf.stats.iterations);
    assert_eq!(got.stats.objective.to_bits(), rbf.stats.objective.to_bits());
    assert_eq!(got.stats.rho.to_bits(), rbf.stats.rho.to_bits());
    assert_eq!(got.model.sv_rows, rbf.model.sv_rows);
    assert_eq!(got.model.sv_coef, rbf.model.sv_coef);
    assert!(rbf.model.n_sv() > 10 && rbf.model.n_sv() < ds.n());
    // Each training row predicted from its own kernel row, as svm-predict.
    for i in 0..ds.n() {
        let (a, b) = (
            got.model.decision_value(pre.row(i)),
            rbf.model.decision_value(ds.row(i)),
        );
        assert!(
            (a - b).abs() <= 1e-9 * (1.0 + b.abs()),
            "row {i}: {a} vs {b}"
        );
    }

    let folds = Folds::libsvm(&ds, 5).unwrap();
    for cache in [CacheMode::Shared, CacheMode::PerSolve] {
        let strategy = CvStrategy::of(SeedingMethod::None, cache, 2);
        let want = run_cv(
            &ds,
            &folds,
            &params(KernelKind::Rbf { gamma: GAMMA }),
            &strategy,
            1,
        )
        .unwrap();
        let cv = run_cv(&pre, &folds, &params(KernelKind::Precomputed), &strategy, 1).unwrap();
        assert_eq!(cv.cv.correct, want.cv.correct, "{cache:?}");
        assert_eq!(cv.total_iterations(), want.total_iterations(), "{cache:?}");
    }
}

#[test]
fn a_gram_of_the_prediction_formula_trains_to_the_same_support_vectors() {
    let ds = data(120, 6);
    let pre = gram(&ds, rbf_direct);
    let rows: Vec<usize> = (0..ds.n()).collect();
    let rbf = train(&ds, &rows, &params(KernelKind::Rbf { gamma: GAMMA }), None).unwrap();
    let got = train(&pre, &rows, &params(KernelKind::Precomputed), None).unwrap();
    assert_eq!(got.model.sv_rows, rbf.model.sv_rows);
    let rel = (got.stats.objective - rbf.stats.objective).abs() / rbf.stats.objective.abs();
    assert!(rel < 1e-6, "objective {rel}");
}

#[test]
fn rows_without_serial_numbers_are_typed_errors() {
    let ds = data(20, 4);
    let rows: Vec<usize> = (0..ds.n()).collect();
    // The feature rows themselves: numbered from 1, no serial numbers.
    let e = train(&ds, &rows, &params(KernelKind::Precomputed), None).unwrap_err();
    assert!(
        matches!(e, SvmError::Precomputed(ref p) if p.row() == 0),
        "{e}"
    );
    let mut pre = gram(&ds, rbf_training);
    if let Features::Sparse { indptr, values, .. } = &mut pre.x {
        values[indptr[3]] = 21.0; // row 4 says it is row 21 of 20
    }
    let e = train(&pre, &rows, &params(KernelKind::Precomputed), None).unwrap_err();
    assert!(e.to_string().contains("row 4"), "{e}");
    assert!(e.to_string().contains("out of range"), "{e}");
}
