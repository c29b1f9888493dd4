//! `svm_cv` cells on LIBSVM's one-vs-one C-SVC: datasets whose labels are
//! not -1/+1 (more than two classes, or two other labels) and settings with
//! class weights, as `svm-train` runs them. Our solver's CV is
//! [`cross_validate_ovo`] (every (fold, pair) solve a job, optionally on one
//! shared kernel cache), one training is [`train_ovo`]; LIBSVM's rows come
//! from the same peer calls as binary cells (with `-wi`, in `run.rs`).
//! The seeded methods run per class pair ([`cross_validate_ovo_seeded`]:
//! each pair's folds on the binary round orders and seeders); the plan
//! refuses oneDAL and first-rounds estimates (`one_vs_one.rs`).
//!
//! Rows: one per fold, with the fold's accuracy and its pairs' SMO
//! iterations summed in `iterations` and listed in `pair_iterations`
//! (objective, support vectors and counters summed over the pairs too);
//! a seeded run adds one row per extra solve (a tree's inner nodes, per
//! pair) with `fold = -2`.

use super::config::Method;
use super::rows::SvmRow;
use super::run::{peer_tail, stamp, CellRun};
use super::seeded::{finish, fold_row, pair_iterations, solved, Tail, ROLE_ONE_CLASS, ROLE_ROUND};
use crate::experiments::timing::timed;
use cvbench_engine::svm::cv::folds::Folds;
use cvbench_engine::svm::kernel::KernelData;
use cvbench_engine::svm::model::solution::check_finite_features;
use cvbench_engine::svm::multiclass::{
    cross_validate_ovo, cross_validate_ovo_seeded, seeds, train_ovo, OvoCvOptions, PairFit,
};
use cvbench_engine::svm::CacheMode;

/// `row` with the sums of the pairs' statistics (iterations, objective,
/// support vectors, counters, seconds), their iterations listed, and the
/// largest KKT violation.
fn pairs_solved(mut row: SvmRow, pairs: &[PairFit]) -> SvmRow {
    let sum = |f: &dyn Fn(&PairFit) -> u64| pairs.iter().map(f).sum::<u64>();
    let sumf = |f: &dyn Fn(&PairFit) -> f64| pairs.iter().map(f).sum::<f64>();
    let iters: Vec<u64> = pairs.iter().map(|p| p.stats.iterations).collect();
    row.iterations = iters.iter().sum();
    row.pair_iterations = pair_iterations(&iters);
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
        let opts = || OvoCvOptions {
            cache: strategy.cache,
            threads: strategy.threads,
            probability: None,
        };
        let seed = self.plan.head.cells[self.i].seed;
        let (res, walls) = timed(self.plan.plan_repeats(), || {
            if seeds(&strategy) {
                cross_validate_ovo_seeded(self.data, folds, &params, weights, &strategy, seed)
            } else {
                cross_validate_ovo(self.data, folds, &params, weights, opts())
            }
            .map_err(|e| e.to_string())
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
                ROLE_ROUND
            };
            let seed_s: f64 = fit.pairs.iter().map(|p| p.seed_s).sum();
            let tail = Tail {
                seed_s: Some(seed_s),
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
        for e in &res.extra {
            let tail = Tail {
                seed_s: Some(e.seed_s),
                role: format!("extra: {}", e.label),
                wrong_rows: String::new(),
                parallel: strategy.threads > 1,
                shared_cache: shared,
            };
            let row = fold_row(&base, -2, [e.n_train, 0, 0], tail);
            rows.push(solved(row, &e.stats, 0.0));
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
            pool.install(|| train_ovo(&kd, &all, &params, weights, None, None))
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
