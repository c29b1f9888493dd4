//! Running one formulation cell: our CV (the engine's formulation CV on
//! svm-train's folds, unseeded or seeded; one row per round), one training
//! of ours, `svm-train -s N` with `-v k` or once, or oneDAL's estimator (a
//! CV on the same folds, or one fit); every cell timed by
//! [`timed`] and every repeat's seconds on its rows.

use super::plan::FormulationPlan;
use super::rows::{FormulationRow, ROLE_CV, ROLE_ROUND, ROLE_TRAIN};
use crate::experiments::svm_cv::config::Method;
use crate::experiments::timing::{runs_text, timed, Walls};
use crate::experiments::{ExperimentError, Plan, PlanHead};
use crate::peers::libsvm::{self as peer, PeerOutcome};
use crate::peers::libsvm_formulation::run_svm_train_formulation;
use crate::peers::onedal_formulation;
use crate::results::rows::to_records;
use crate::results::Record;
use cvbench_engine::api::cv::Folds;
use cvbench_engine::api::data::Dataset;
use cvbench_engine::api::formulation::{fit_formulation, SvmType};
use cvbench_engine::api::formulation_cv::{
    cross_validate_formulation_seeded, libsvm_folds, CvSummary, FormulationCvOptions,
};
use cvbench_engine::api::params::SvmParams;
use cvbench_engine::api::seed;
use cvbench_engine::api::strategies::{CacheMode, SeedingMethod};

/// One cell being run.
struct CellRun<'a> {
    plan: &'a FormulationPlan,
    i: usize,
    data: &'a Dataset,
    params: &'a SvmParams,
    svm_type: SvmType,
}

/// Write the run's summary and the timings `walls` on every row.
fn stamp(rows: &mut [FormulationRow], summary: Option<&CvSummary>, walls: &Walls, threads: usize) {
    for r in rows.iter_mut() {
        match summary {
            Some(CvSummary::Regression {
                mse,
                squared_correlation,
            }) => {
                r.cv_mse = Some(*mse);
                r.cv_squared_correlation = Some(*squared_correlation);
            }
            Some(s @ CvSummary::Accuracy { .. }) => r.cv_accuracy_pct = s.accuracy_pct(),
            None => {}
        }
        if let Some(s) = summary {
            r.cv_lines = s.lines().join("; ");
        }
        r.threads = threads as u64;
        r.timing_repeats = walls.runs();
        r.wall_median_s = walls.median();
        r.wall_min_s = walls.min().unwrap_or(f64::NAN);
        r.wall_max_s = walls.max().unwrap_or(f64::NAN);
        r.wall_runs_s = runs_text(walls);
        r.core.seconds = walls.median();
    }
}

impl CellRun<'_> {
    fn folds(&self) -> Result<Folds, String> {
        let k = self.plan.specs[self.i].k.resolve(self.data.n());
        libsvm_folds(self.data, k, self.svm_type).map_err(|e| e.to_string())
    }

    /// Our CV, unseeded (`ours`) or seeded: one row per round.
    fn ours(&self, method: Method) -> Result<Vec<FormulationRow>, String> {
        let folds = self.folds()?;
        let seeding = method.seeding().unwrap_or(SeedingMethod::None);
        let opts = FormulationCvOptions {
            cache: CacheMode::Shared,
            threads: self.plan.threads,
        };
        let (cv, walls) = timed(self.plan.repeats, || {
            cross_validate_formulation_seeded(
                self.data,
                &folds,
                self.params,
                self.svm_type,
                opts,
                seeding,
            )
            .map_err(|e| e.to_string())
        })?;
        let base = self.plan.base(self.i);
        let mut rows = Vec::new();
        for round in &cv.result.rounds {
            let test = folds.test_rows(round.fold);
            let preds = test
                .iter()
                .map(|&r| (cv.result.predictions[r], self.data.y[r]));
            let mut row = FormulationRow {
                fold: round.fold as i64,
                role: ROLE_ROUND.into(),
                seeding: seeding.as_str().into(),
                n_train: round.n_train as u64,
                n_test: round.n_test as u64,
                iterations: round.solves.iter().map(|s| s.iterations).sum(),
                objective: Some(round.solves.iter().map(|s| s.objective).sum()),
                rho: round.solves.first().map(|s| s.rho),
                n_sv: round.solves.iter().map(|s| s.n_sv as u64).sum(),
                n_bsv: round.solves.iter().map(|s| s.n_bsv as u64).sum(),
                kernel_evals: Some(cv.result.kernel_evals as f64),
                ..base.clone()
            };
            if self.svm_type.is_regression() {
                let sse: f64 = preds.map(|(p, t)| (p - t) * (p - t)).sum();
                row.fold_mse = Some(sse / test.len().max(1) as f64);
            } else {
                row.correct = preds.filter(|(p, t)| p == t).count() as u64;
            }
            rows.push(row);
        }
        stamp(&mut rows, Some(&cv.summary), &walls, self.plan.threads);
        Ok(rows)
    }

    /// One training of ours on all rows: one row, fold = -1.
    fn train(&self) -> Result<Vec<FormulationRow>, String> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.plan.threads)
            .build()
            .map_err(|e| e.to_string())?;
        let (fit, walls) = timed(self.plan.repeats, || {
            pool.install(|| fit_formulation(self.data, self.params, self.svm_type))
                .map_err(|e| e.to_string())
        })?;
        let mut rows = vec![FormulationRow {
            fold: -1,
            role: ROLE_TRAIN.into(),
            seeding: SeedingMethod::None.as_str().into(),
            n_train: self.data.n() as u64,
            iterations: fit.solves.iter().map(|s| s.iterations).sum(),
            objective: Some(fit.solves.iter().map(|s| s.objective).sum()),
            rho: fit.solves.first().map(|s| s.rho),
            n_sv: fit.total_sv as u64,
            n_bsv: fit.solves.iter().map(|s| s.n_bsv as u64).sum(),
            kernel_evals: Some(fit.solves.iter().map(|s| s.kernel_evals as f64).sum()),
            ..self.plan.base(self.i)
        }];
        stamp(&mut rows, None, &walls, self.plan.threads);
        Ok(rows)
    }

    /// `svm-train -s N` on the whole dataset: `-v k` (`Some(k)`) or one
    /// training; one row, fold = -1, with its summary and lines.
    fn libsvm(&self, cv: Option<usize>) -> Result<Vec<FormulationRow>, String> {
        let work = tempdir(&self.plan.head.cells[self.i].key).map_err(|e| e.to_string())?;
        let all: Vec<usize> = (0..self.data.n()).collect();
        let file = work.path().join("all.libsvm");
        let model = work.path().join("all.model");
        peer::write_rows(self.data, &all, &file).map_err(|e| e.to_string())?;
        let (t, walls) = timed(self.plan.repeats, || {
            match run_svm_train_formulation(&file, self.params, self.svm_type, cv, Some(&model)) {
                Ok(PeerOutcome::Ran(t)) => Ok(t),
                Ok(PeerOutcome::Skipped(why)) => Err(why),
                Err(e) => Err(e.to_string()),
            }
        })?;
        let n = self.data.n();
        let mut row = FormulationRow {
            fold: -1,
            role: if cv.is_some() { ROLE_CV } else { ROLE_TRAIN }.into(),
            n_train: n as u64,
            n_test: if cv.is_some() { n as u64 } else { 0 },
            iterations: t.train.iterations.iter().sum(),
            objective: Some(t.train.obj.iter().sum()),
            rho: t.train.rho.first().copied(),
            n_sv: t.train.n_sv.iter().sum::<usize>() as u64,
            n_bsv: t.train.n_bsv.iter().sum::<usize>() as u64,
            cv_accuracy_pct: t.train.cv_accuracy_pct,
            cv_mse: t.mse,
            cv_squared_correlation: t.squared_correlation,
            cv_lines: t.summary_lines.join("; "),
            peer: "svm-train".into(),
            ..self.plan.base(self.i)
        };
        if let Some(a) = t.train.cv_accuracy_pct {
            row.correct = (a / 100.0 * n as f64).round() as u64;
        }
        let mut rows = vec![row];
        stamp(&mut rows, None, &walls, 1);
        Ok(rows)
    }

    /// oneDAL's estimator: a CV on our folds (`folds`), or one fit.
    fn onedal(&self, folds: Option<&Folds>) -> Result<Vec<FormulationRow>, String> {
        let work = tempdir(&self.plan.head.cells[self.i].key).map_err(|e| e.to_string())?;
        let n = self.data.n();
        let all: Vec<usize> = (0..n).collect();
        let file = work.path().join("all.libsvm");
        peer::write_rows(self.data, &all, &file).map_err(|e| e.to_string())?;
        let fold_of = folds.map(|f| {
            let mut of = vec![0; n];
            for h in 0..f.k() {
                for &r in f.test_rows(h) {
                    of[r] = h;
                }
            }
            of
        });
        let r = onedal_formulation::run(
            &file,
            self.data.d(),
            fold_of.as_deref(),
            self.params,
            self.svm_type,
            self.plan.threads,
            self.plan.repeats.runs as usize,
        )
        .map_err(|e| e.to_string())?;
        let cv = folds.is_some();
        let mut row = FormulationRow {
            fold: -1,
            role: if cv { ROLE_CV } else { ROLE_TRAIN }.into(),
            n_train: n as u64,
            n_test: if cv { n as u64 } else { 0 },
            n_sv: r.n_sv.iter().sum::<usize>() as u64,
            correct: r.correct.unwrap_or(0) as u64,
            peer: format!("{} {}", r.module, r.version),
            ..self.plan.base(self.i)
        };
        if cv {
            row.cv_mse = r.mse;
            row.cv_squared_correlation = r.squared_correlation;
            row.cv_accuracy_pct = r.correct.map(|c| 100.0 * c as f64 / n as f64);
        }
        let mut rows = vec![row];
        stamp(&mut rows, None, &Walls::of(r.seconds), r.threads);
        Ok(rows)
    }
}

impl Plan for FormulationPlan {
    fn head(&self) -> &PlanHead {
        &self.head
    }

    /// Training rows over the rounds (`n (k - 1)`; `n` for one training),
    /// times the timed repetitions.
    fn cost(&self, i: usize) -> Option<f64> {
        let c = &self.specs[i];
        let n = self.datasets[c.dataset].1.n() as f64;
        let k = c.k.resolve(n as usize) as f64;
        let trainings = if c.method.is_fit() { 1.0 } else { k - 1.0 };
        Some(n * trainings * f64::from(self.repeats.runs))
    }

    fn run_cell(&self, i: usize) -> Result<Vec<Record>, ExperimentError> {
        let c = &self.specs[i];
        let cell = &self.head.cells[i];
        let (_, data) = &self.datasets[c.dataset];
        let (_, params, svm_type) = &self.settings[c.setting];
        let params = &SvmParams {
            solver: c.solver,
            ..params.clone()
        };
        let run = CellRun {
            plan: self,
            i,
            data,
            params,
            svm_type: *svm_type,
        };
        let k = c.k.resolve(data.n());
        let rows = match c.method {
            Method::LibsvmV => run.libsvm(Some(k)),
            Method::LibsvmFit => run.libsvm(None),
            Method::Train => run.train(),
            Method::OnedalFit => run.onedal(None),
            Method::Onedal => run.folds().and_then(|f| run.onedal(Some(&f))),
            m => run.ours(m),
        }
        .map_err(|message| ExperimentError::Cell {
            cell: cell.key.clone(),
            message,
        })?;
        Ok(to_records(&rows)?)
    }
}

/// The peer's folder for this cell's files, removed when it drops.
fn tempdir(key: &str) -> std::io::Result<crate::interrupt::TempDir> {
    crate::interrupt::TempDir::new(&format!("cvbench-svmf-{:016x}", seed::derive(0, key)))
}
