//! Training a binary C-SVC on rows of a dataset, the model, and prediction.
//!
//! [`train`] does what LIBSVM's `svm_train` does for two classes: labels are
//! ordered by first appearance (with LIBSVM 3.24's rule that a `-1`/`+1` pair
//! seen as `-1` first is swapped, so `+1` is the positive class), the rows
//! are grouped by class (positive class first, stable within a class), the
//! dual is solved with `C_+ = C_- = C`, and the support vectors are kept in
//! that grouped order, which is also the order in which decision values are
//! summed.

use crate::svm::model::params::CheckedParams;
use std::time::Instant;

use crate::data::{Dataset, Row};
use crate::svm::cache::SharedKernelCache;
use crate::svm::kernel::{k_function, KernelData, KernelKind};
use crate::svm::model::label::class_label;
use crate::svm::smo::solve_input::SolveInput;
use crate::svm::smo::solve_stats::SolveStats;
use crate::svm::{error::SvmError, model::params::SvmParams};

/// A trained binary C-SVC.
#[derive(Clone, Debug)]
pub struct SvmModel {
    /// The kernel.
    pub kernel: KernelKind,
    /// `labels[0]` is predicted when the decision value is > 0, `labels[1]`
    /// otherwise. A single-class model has one label and always predicts it.
    pub labels: Vec<f64>,
    /// The support vectors, in LIBSVM's order.
    pub sv: Dataset,
    /// Row index of each support vector in the training dataset.
    pub sv_rows: Vec<usize>,
    /// `y_i alpha_i` of each support vector.
    pub sv_coef: Vec<f64>,
    /// The bias: `f(x) = sum_i sv_coef_i K(sv_i, x) - rho`.
    pub rho: f64,
}

/// `sum_k coef_k K(sv_k, x) - rho`, summed in the support vectors' order
/// (LIBSVM's `svm_predict_values` for a two-class or one-function model).
pub(crate) fn kernel_expansion(
    kernel: KernelKind,
    sv: &Dataset,
    coef: &[f64],
    rho: f64,
    x: Row<'_>,
) -> f64 {
    let mut sum = 0.0;
    for (k, &c) in coef.iter().enumerate() {
        // LIBSVM's `k_function(x, sv)`; the other kernels are symmetric to
        // the bit, and keep their order here.
        sum += c * match kernel {
            KernelKind::Precomputed => k_function(kernel, x, sv.row(k)),
            _ => k_function(kernel, sv.row(k), x),
        };
    }
    sum - rho
}

impl SvmModel {
    /// The decision value `f(x)` (0 for a single-class model).
    pub fn decision_value(&self, x: Row<'_>) -> f64 {
        kernel_expansion(self.kernel, &self.sv, &self.sv_coef, self.rho, x)
    }

    /// The predicted label of `x` (LIBSVM's rule: `labels[0]` iff `f(x) > 0`).
    pub fn predict(&self, x: Row<'_>) -> f64 {
        if self.labels.len() < 2 {
            return self.labels[0];
        }
        if self.decision_value(x) > 0.0 {
            self.labels[0]
        } else {
            self.labels[1]
        }
    }

    /// Number of support vectors.
    pub fn n_sv(&self) -> usize {
        self.sv_coef.len()
    }
}

/// What [`train`] returns.
#[derive(Clone, Debug)]
pub struct TrainOutput {
    /// The model.
    pub model: SvmModel,
    /// Optimal (unsigned) alpha of each training row, in the caller's order.
    pub alpha: Vec<f64>,
    /// Final gradient `(Q alpha - e)_i` of each training row, in the caller's order.
    pub gradient: Vec<f64>,
    /// Final `G_bar_i = sum_{alpha_j = C} C Q_ij` of each training row, in the caller's order.
    pub g_bar: Vec<f64>,
    /// `+1`/`-1` of each training row as the solver saw it (`+1` = `labels[0]`).
    pub y: Vec<i8>,
    /// Counters, objective, rho, timings (prediction time is 0 here).
    pub stats: SolveStats,
    /// `sum(alpha) / (C l)`, LIBSVM's printed `nu`.
    pub nu: f64,
    /// True when the training rows held a single class (no solve was run).
    pub single_class: bool,
}

/// Labels in LIBSVM's order for the given rows: first appearance, with a
/// `-1` then `+1` pair swapped. Errors on non-finite or more than two labels.
pub fn libsvm_labels(ds: &Dataset, rows: &[usize]) -> Result<Vec<f64>, SvmError> {
    let mut labels: Vec<f64> = Vec::with_capacity(2);
    for &r in rows {
        let v = ds.y[r];
        if !v.is_finite() {
            return Err(SvmError::NonFinite(format!("label of row {r} is {v}")));
        }
        let v = class_label(v);
        if !labels.contains(&v) {
            labels.push(v);
            if labels.len() > 2 {
                let mut all: Vec<f64> = rows.iter().map(|&r| class_label(ds.y[r])).collect();
                all.sort_by(f64::total_cmp);
                all.dedup();
                return Err(SvmError::NotBinary(all.len()));
            }
        }
    }
    if labels.len() == 2 && labels[0] == -1.0 && labels[1] == 1.0 {
        labels.swap(0, 1);
    }
    Ok(labels)
}

/// Check that every feature value is finite.
pub fn check_finite_features(ds: &Dataset) -> Result<(), SvmError> {
    let vals = match &ds.x {
        crate::data::Features::Dense { values, .. } => values,
        crate::data::Features::Sparse { values, .. } => values,
    };
    if let Some(p) = vals.iter().position(|v| !v.is_finite()) {
        return Err(SvmError::NonFinite(format!(
            "feature value #{p} of {} is {}",
            ds.name, vals[p]
        )));
    }
    Ok(())
}

/// The checks of a training set before any kernel value: finite features
/// ([`check_finite_features`]) and, for the precomputed kernel, a serial
/// number on every row ([`crate::svm::kernel::precomputed::check_serials`]).
pub fn check_training_features(ds: &Dataset, kernel: KernelKind) -> Result<(), SvmError> {
    check_finite_features(ds)?;
    if kernel.is_precomputed() {
        crate::svm::kernel::precomputed::check_serials(ds)?;
    }
    Ok(())
}

/// Train a C-SVC on `rows` of `ds` from `alpha = 0`, or from `warm` (one
/// feasible alpha per row of `rows`, in that order). The model's support
/// vectors carry `ds`'s own feature indices.
pub fn train(
    ds: &Dataset,
    rows: &[usize],
    params: &SvmParams,
    warm: Option<&[f64]>,
) -> Result<TrainOutput, SvmError> {
    let params = params.check()?;
    check_training_features(ds, params.kernel)?;
    let kd = KernelData::new(ds, params.kernel);
    // Every row trained on and the matrix within 3/4 of -m: the matrix at
    // once, the solve's own cache the rest (the SMO's: the same solve, the
    // same bits; the batched solver's: matrix products, its optimum to the
    // tolerance).
    if rows.len() == ds.n() {
        let values = params.solver.matrix_values();
        if let Some(sh) = crate::svm::kernel::matrix::prefilled(&kd, params.cache_mb, values) {
            let local = params.with_cache_mb(params.cache_mb * 0.25)?;
            let mut out = train_with(&kd, rows, &local, warm, Some(&sh))?;
            kd.restore_features(&mut out.model.sv);
            return Ok(out);
        }
    }
    let mut out = train_with(&kd, rows, &params, warm, None)?;
    kd.restore_features(&mut out.model.sv);
    Ok(out)
}

/// [`train`] with a prepared [`KernelData`] and an optional shared kernel
/// cache (features are assumed finite: see [`check_finite_features`]).
pub fn train_with(
    kd: &KernelData<'_>,
    rows: &[usize],
    params: &CheckedParams,
    warm: Option<&[f64]>,
    shared: Option<&SharedKernelCache>,
) -> Result<TrainOutput, SvmError> {
    train_seeded(kd, rows, params, warm.map(|a| (a, None)), shared)
}

/// A warm start: alphas aligned with the training rows and, when known,
/// their `(G, G_bar)`.
pub type WarmStart<'a> = (&'a [f64], Option<(&'a [f64], &'a [f64])>);

/// [`train_with`] from a warm start whose gradient the caller may already
/// have: `warm = Some((alpha, Some((G, G_bar))))`, each aligned with `rows`
/// (alpha seeding updates them from the previous round instead of
/// recomputing them over every support vector).
pub fn train_seeded(
    kd: &KernelData<'_>,
    rows: &[usize],
    params: &CheckedParams,
    warm: Option<WarmStart<'_>>,
    shared: Option<&SharedKernelCache>,
) -> Result<TrainOutput, SvmError> {
    let (warm, grad) = match warm {
        Some((a, g)) => (Some(a), g),
        None => (None, None),
    };
    let t0 = Instant::now();
    let ds: &Dataset = &kd.ds;
    crate::svm::smo::solve_input::check_train_rows(rows, ds.n())?;
    if let Some(w) = warm {
        if w.len() != rows.len() {
            return Err(SvmError::InfeasibleWarmStart(format!(
                "alpha has {} entries for {} training rows",
                w.len(),
                rows.len()
            )));
        }
    }
    let labels = libsvm_labels(ds, rows)?;
    let y_caller: Vec<i8> = rows
        .iter()
        .map(|&r| {
            if class_label(ds.y[r]) == labels[0] {
                1
            } else {
                -1
            }
        })
        .collect();
    if labels.len() == 1 {
        let model = SvmModel {
            kernel: kd.kind,
            labels,
            sv: ds.subset(&[], format!("{}-sv", ds.name)),
            sv_rows: vec![],
            sv_coef: vec![],
            rho: 0.0,
        };
        let mut stats = SolveStats::default();
        stats.timings.init_s = t0.elapsed().as_secs_f64();
        return Ok(TrainOutput {
            model,
            alpha: vec![0.0; rows.len()],
            gradient: vec![-1.0; rows.len()],
            g_bar: vec![0.0; rows.len()],
            y: y_caller,
            stats,
            nu: 0.0,
            single_class: true,
        });
    }
    // svm_group_classes: positive class first, stable within each class
    // (the model's order of support vectors, and the SMO's of its rows).
    let grouped: Vec<usize> = (0..rows.len())
        .filter(|&k| y_caller[k] == 1)
        .chain((0..rows.len()).filter(|&k| y_caller[k] == -1))
        .collect();
    let order: Vec<usize> = if params.solver.groups_classes() {
        grouped.clone()
    } else {
        (0..rows.len()).collect()
    };
    let srows: Vec<u32> = order.iter().map(|&k| rows[k] as u32).collect();
    let sy: Vec<i8> = order.iter().map(|&k| y_caller[k]).collect();
    let salpha: Option<Vec<f64>> = warm.map(|w| order.iter().map(|&k| w[k]).collect());
    let sgrad: Option<(Vec<f64>, Vec<f64>)> = grad.and_then(|(g, gb)| {
        (g.len() == rows.len() && gb.len() == rows.len()).then(|| {
            (
                order.iter().map(|&k| g[k]).collect(),
                order.iter().map(|&k| gb[k]).collect(),
            )
        })
    });
    let grouping_s = t0.elapsed().as_secs_f64();

    let out = params.solver.solve(SolveInput {
        kd,
        rows: &srows,
        y: &sy,
        c_pos: params.c,
        c_neg: params.c,
        eps: params.eps,
        shrinking: params.shrinking,
        cache_mb: params.cache_mb,
        max_iter: params.max_iter,
        alpha0: salpha.as_deref(),
        grad0: sgrad.as_ref().map(|(g, gb)| (g.as_slice(), gb.as_slice())),
        shared,
    })?;
    let mut stats = out.stats;
    stats.timings.init_s += grouping_s;

    let mut alpha = vec![0.0; rows.len()];
    let mut gradient = vec![0.0; rows.len()];
    let mut g_bar = vec![0.0; rows.len()];
    let mut sum_alpha = 0.0;
    for (s, &k) in order.iter().enumerate() {
        alpha[k] = out.alpha[s];
        gradient[k] = out.gradient[s];
        g_bar[k] = out.g_bar[s];
        sum_alpha += out.alpha[s];
    }
    let (sv_rows, sv_coef): (Vec<usize>, Vec<f64>) = grouped
        .iter()
        .filter(|&&k| alpha[k] > 0.0)
        .map(|&k| (rows[k], f64::from(y_caller[k]) * alpha[k]))
        .unzip();
    let model = SvmModel {
        kernel: kd.kind,
        labels,
        sv: ds.subset(&sv_rows, format!("{}-sv", ds.name)),
        sv_rows,
        sv_coef,
        rho: stats.rho,
    };
    Ok(TrainOutput {
        model,
        alpha,
        gradient,
        g_bar,
        y: y_caller,
        nu: sum_alpha / (params.c * rows.len() as f64),
        stats,
        single_class: false,
    })
}
