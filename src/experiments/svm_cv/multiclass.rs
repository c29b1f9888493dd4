//! `svm_cv` cells on LIBSVM's one-vs-one C-SVC: datasets whose labels are
//! not -1/+1 (more than two classes, or two other labels) and settings with
//! class weights, as `svm-train` runs them. Our solver's CV is
//! [`cross_validate_ovo`] (every (fold, pair) solve a job, optionally on one
//! shared kernel cache), one training is [`train_ovo`]; LIBSVM's rows come
//! from the same peer calls as binary cells (with `-wi`, in `run.rs`).
//! Seeded CV per class pair is not built: the plan refuses those methods
//! here ([`check_one_vs_one`]), as it does oneDAL and first-rounds
//! estimates.
//!
//! Rows: one per fold, with the fold's accuracy and its pairs' SMO
//! iterations summed in `iterations` and listed in `pair_iterations`
//! (objective, support vectors and counters summed over the pairs too).

use super::config::{Method, SvmCvConfig};
use super::rows::SvmRow;
use super::run::{peer_tail, stamp, CellRun};
use super::seeded::{finish, fold_row, Tail, ROLE_ONE_CLASS};
use crate::config::{ConfigError, ConfigFile};
use crate::data::Dataset;
use crate::experiments::timing::timed;
use crate::svm::folds::Folds;
use crate::svm::kernel::KernelData;
use crate::svm::multiclass::{
    cross_validate_ovo, train_ovo, weighted_c, ClassWeight, OvoCvOptions, PairFit,
};
use crate::svm::solution::check_finite_features;
use crate::svm::CacheMode;
use std::sync::Arc;

/// Numbers space-separated (the `pair_iterations` column).
pub(super) fn join(v: &[u64]) -> String {
    v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
}

/// The distinct labels of `ds`, in order of first appearance.
fn labels_of(ds: &Dataset) -> Vec<f64> {
    let mut out: Vec<f64> = Vec::new();
    for &y in &ds.y {
        if !out.contains(&y) {
            out.push(y);
        }
    }
    out
}

/// Check the methods and options of the one-vs-one (dataset, setting)
/// combinations (`ovo_data[d]`: dataset `d`'s labels are not -1/+1;
/// `weights[s]`: setting `s`'s class weights): every method must be one
/// that runs one-vs-one ([`Method::one_vs_one`]), and no first-rounds
/// estimate. A weight for a label the dataset lacks is `svm-train`'s
/// warning (printed here), not an error.
pub(super) fn check_one_vs_one(
    cfg: &ConfigFile,
    c: &SvmCvConfig,
    datasets: &[(String, Arc<Dataset>)],
    ovo_data: &[bool],
    weights: &[Vec<ClassWeight>],
) -> Result<(), ConfigError> {
    for ((name, data), &ovo) in datasets.iter().zip(ovo_data) {
        let labels = labels_of(data);
        for (s, w) in c.settings.get_ref().iter().zip(weights) {
            let label = &s.get_ref().label;
            for warning in weighted_c(1.0, &labels, w).1 {
                eprintln!(
                    "{}: setting `{label}` on dataset {name}: {warning} (svm-train only warns: the weight is ignored)",
                    cfg.path.display()
                );
            }
            if !ovo && w.is_empty() {
                continue;
            }
            let why = if ovo {
                format!(
                    "dataset {name} has {} labels ({}), not -1/+1",
                    labels.len(),
                    labels
                        .iter()
                        .take(6)
                        .map(|l| l.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            } else {
                format!("setting `{label}` has class weights")
            };
            if let Some(m) = c.methods.get_ref().iter().find(|m| !m.one_vs_one()) {
                let ok: Vec<&str> = ONE_VS_ONE_METHODS.iter().map(|m| m.as_str()).collect();
                return Err(cfg.invalid(
                    c.methods.span(),
                    &format!(
                        "method `{}` runs binary C-SVC only, but {why}: it runs LIBSVM's one-vs-one C-SVC, for which seeded CV per class pair and the oneDAL peer are not built",
                        m.as_str()
                    ),
                    &format!(
                        "list only {} for this dataset, or make it binary with labels -1/+1 (a one_vs_rest or map transform) and no weights",
                        ok.join(", ")
                    ),
                ));
            }
            if let Some(r) = &c.first_rounds {
                return Err(cfg.invalid(
                    r.span(),
                    &format!("first_rounds estimates a seeded binary run, but {why}"),
                    "remove first_rounds",
                ));
            }
        }
    }
    Ok(())
}

/// The methods that run one-vs-one, in the order the errors list them.
const ONE_VS_ONE_METHODS: [Method; 6] = [
    Method::Ours,
    Method::OursSharedParallel,
    Method::Train,
    Method::Libsvm,
    Method::LibsvmV,
    Method::LibsvmFit,
];

impl Method {
    /// Whether the method runs on one-vs-one cells (more than two classes,
    /// other labels than -1/+1, class weights): our solver from alpha = 0
    /// and LIBSVM's tools; not the seeded methods nor oneDAL.
    pub fn one_vs_one(self) -> bool {
        ONE_VS_ONE_METHODS.contains(&self)
    }
}

/// `row` with the sums of the pairs' statistics (iterations, objective,
/// support vectors, counters, seconds), their iterations listed, and the
/// largest KKT violation.
fn pairs_solved(mut row: SvmRow, pairs: &[PairFit]) -> SvmRow {
    let sum = |f: &dyn Fn(&PairFit) -> u64| pairs.iter().map(f).sum::<u64>();
    let sumf = |f: &dyn Fn(&PairFit) -> f64| pairs.iter().map(f).sum::<f64>();
    let iters: Vec<u64> = pairs.iter().map(|p| p.stats.iterations).collect();
    row.iterations = iters.iter().sum();
    row.pair_iterations = join(&iters);
    row.objective = Some(sumf(&|p| p.stats.objective));
    row.rho = None;
    row.n_sv = sum(&|p| p.stats.n_sv as u64);
    row.n_bsv = sum(&|p| p.stats.n_bsv as u64);
    row.kernel_evals = Some(sum(&|p| p.stats.kernel_evals) as f64);
    row.cache_hits = Some(sum(&|p| p.stats.cache_hits) as f64);
    row.cache_misses = Some(sum(&|p| p.stats.cache_misses) as f64);
    row.shared_hits = Some(sum(&|p| p.stats.shared_hits) as f64);
    row.shrink_events = Some(sum(&|p| p.stats.shrink_events) as f64);
    row.kkt_violation = Some(
        pairs
            .iter()
            .map(|p| p.stats.kkt_violation)
            .fold(0.0, f64::max),
    );
    row.init_s = Some(sumf(&|p| p.stats.timings.init_s));
    row.train_s = sumf(&|p| p.stats.timings.train_s);
    row
}

impl CellRun<'_> {
    /// Our solver's one-vs-one CV on `folds` (LIBSVM's `svm-train -v k`
    /// for LIBSVM's folds) with the cell's cache and threads, timed by
    /// [`timed`]: one row per fold.
    pub(super) fn ovo_cv(&self, folds: &Folds, method: Method) -> Result<Vec<SvmRow>, String> {
        let (strategy, budget) = self.strategy(method);
        let mut params = self.params.clone();
        params.cache_mb = budget;
        let weights = self.plan.setting_weights(self.i);
        let opts = OvoCvOptions {
            cache: strategy.cache,
            threads: strategy.threads,
        };
        let (res, walls) = timed(self.plan.plan_repeats(), || {
            cross_validate_ovo(self.data, folds, &params, weights, opts).map_err(|e| e.to_string())
        })?;
        let base = self.plan.base(self.i);
        let shared = strategy.cache == CacheMode::Shared;
        let mut rows = Vec::with_capacity(folds.k());
        for (h, fit) in res.folds.iter().enumerate() {
            let test = folds.test_rows(h);
            let wrong: Vec<String> = test
                .iter()
                .filter(|&&r| res.predictions[r] != self.data.y[r])
                .map(|r| r.to_string())
                .collect();
            let sizes = [
                self.data.n() - test.len(),
                test.len(),
                test.len() - wrong.len(),
            ];
            let role = if fit.labels.len() == 1 {
                ROLE_ONE_CLASS
            } else {
                "round"
            };
            let tail = Tail {
                seed_s: Some(0.0),
                role: role.into(),
                wrong_rows: wrong.join(" "),
                parallel: strategy.threads > 1,
                shared_cache: shared,
            };
            let mut row = pairs_solved(fold_row(&base, h as i64, sizes, tail), &fit.pairs);
            if fit.pairs.is_empty() {
                row.objective = Some(0.0);
            }
            row.shared_kernel_evals = shared.then_some(res.shared_evals as f64);
            rows.push(row);
        }
        finish(&mut rows, Some(res.accuracy_pct), self.wall());
        stamp(&walls, &mut rows, &strategy, budget);
        Ok(rows)
    }

    /// Our solver's one-vs-one training on all rows (the unit of the
    /// headline cost measure) on the cell's threads with a per-solve cache,
    /// timed by [`timed`]: one row, fold = -1.
    pub(super) fn ovo_train(&self) -> Result<Vec<SvmRow>, String> {
        let (strategy, budget) = self.strategy(Method::Train);
        let mut params = self.params.clone();
        params.cache_mb = budget;
        let params = params.check().map_err(|e| e.to_string())?;
        check_finite_features(self.data).map_err(|e| e.to_string())?;
        let weights = self.plan.setting_weights(self.i);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(strategy.threads)
            .build()
            .map_err(|e| e.to_string())?;
        let kd = KernelData::new(self.data, params.kernel);
        let all: Vec<usize> = (0..self.data.n()).collect();
        let (fit, walls) = timed(self.plan.plan_repeats(), || {
            pool.install(|| train_ovo(&kd, &all, &params, weights, None))
                .map_err(|e| e.to_string())
        })?;
        let tail = Tail {
            seed_s: Some(0.0),
            ..peer_tail("train")
        };
        let row = fold_row(&self.plan.base(self.i), -1, [all.len(), 0, 0], tail);
        let mut rows = vec![pairs_solved(row, &fit.pairs)];
        finish(&mut rows, None, self.wall());
        stamp(&walls, &mut rows, &strategy, budget);
        Ok(rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_and_onedal_methods_do_not_run_one_vs_one() {
        assert!(Method::Ours.one_vs_one());
        assert!(Method::LibsvmV.one_vs_one());
        for m in [Method::Sir, Method::Ato, Method::Tree, Method::Onedal] {
            assert!(!m.one_vs_one(), "{}", m.as_str());
        }
        assert_eq!(join(&[3, 14, 15]), "3 14 15");
        assert_eq!(join(&[]), "");
    }
}
