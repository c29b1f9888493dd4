//! Running one `svm_cv` cell: a whole k-fold CV run with our solver (from
//! alpha = 0 or seeded) or with LIBSVM's tools, recorded one row per round.

use super::config::Method;
use super::plan::SvmPlan;
use super::rows::SvmRow;
use super::seeded::{finish, fold_row, round_row, seeded_rows, wrong_rows, Tail};
use crate::data::Dataset;
use crate::experiments::{ExperimentError, Plan, PlanHead};
use crate::peers::libsvm::{self as peer, PeerOutcome, PeerTrain};
use crate::results::rows::to_records;
use crate::results::Record;
use crate::seed;
use crate::svm::cv::{cross_validate, CvOptions};
use crate::svm::folds::Folds;
use crate::svm::{seeded_cross_validate, SeededOptions, SeedingMethod, SvmParams};
use std::time::Instant;

/// The tail of a LIBSVM row (nothing seeded, nothing shared).
fn peer_tail(role: &str) -> Tail {
    Tail {
        seed_s: None,
        role: role.to_string(),
        wrong_rows: String::new(),
        parallel: false,
        shared_cache: false,
    }
}

/// `row` with what `svm-train` printed (its first model's values for one
/// fold, the sums over its k models for `-v k`); our solver's counters and
/// set-up time stay unknown.
fn trained(mut row: SvmRow, t: &PeerTrain, v: bool) -> SvmRow {
    if v {
        row.iterations = t.iterations.iter().sum();
        row.objective = Some(t.obj.iter().sum());
        row.n_sv = t.n_sv.iter().sum::<usize>() as u64;
        row.n_bsv = t.n_bsv.iter().sum::<usize>() as u64;
    } else {
        row.iterations = t.iterations.first().copied().unwrap_or(0);
        row.objective = Some(t.obj.first().copied().unwrap_or(f64::NAN));
        row.rho = Some(t.rho.first().copied().unwrap_or(f64::NAN));
        row.n_sv = t.n_sv.first().copied().unwrap_or(0) as u64;
        row.n_bsv = t.n_bsv.first().copied().unwrap_or(0) as u64;
    }
    row.train_s = t.wall_s;
    row
}

/// One cell being run: its plan, index, data and parameters, and when it started.
struct CellRun<'a> {
    plan: &'a SvmPlan,
    i: usize,
    data: &'a Dataset,
    params: &'a SvmParams,
    t0: Instant,
}

impl CellRun<'_> {
    /// The wall seconds since the cell started.
    fn wall(&self) -> f64 {
        self.t0.elapsed().as_secs_f64()
    }

    /// Our SMO from alpha = 0, rounds in sequence or in parallel on a shared cache.
    fn ours(&self, folds: &Folds, parallel: bool) -> Result<Vec<SvmRow>, String> {
        let opts = CvOptions {
            parallel,
            shared_cache_mb: parallel.then(|| self.params.cache_mb.max(100.0) * 4.0),
        };
        let res =
            cross_validate(self.data, folds, self.params, &opts).map_err(|e| e.to_string())?;
        let wall = self.wall();
        let base = self.plan.base(self.i);
        let mut rows: Vec<SvmRow> = res
            .rounds
            .iter()
            .map(|r| {
                let tail = Tail {
                    seed_s: Some(0.0),
                    role: "round".into(),
                    wrong_rows: wrong_rows(self.data, folds, &res, r),
                    parallel: opts.parallel,
                    shared_cache: opts.shared_cache_mb.is_some(),
                };
                round_row(&base, r, tail)
            })
            .collect();
        finish(&mut rows, Some(res.accuracy_pct), wall);
        Ok(rows)
    }

    /// Our SMO with alpha seeding.
    fn seeded(&self, folds: &Folds, method: SeedingMethod) -> Result<Vec<SvmRow>, String> {
        let opts = SeededOptions {
            method,
            shared_cache_mb: self
                .plan
                .seeded_shared_cache
                .then(|| self.params.cache_mb.max(100.0) * 4.0),
            parallel: self.plan.seeded_parallel,
            seed: self.plan.head.cells[self.i].seed,
        };
        let res = seeded_cross_validate(self.data, folds, self.params, &opts)
            .map_err(|e| e.to_string())?;
        let wall = self.wall();
        let mut rows = seeded_rows(&self.plan.base(self.i), self.data, folds, &res);
        finish(&mut rows, Some(res.cv.accuracy_pct), wall);
        Ok(rows)
    }

    /// `svm-train` on each of our training folds, `svm-predict` on the held-out fold.
    fn libsvm(&self, folds: &Folds) -> Result<Vec<SvmRow>, String> {
        let work = tempdir(&self.plan.head.cells[self.i].key).map_err(|e| e.to_string())?;
        let base = self.plan.base(self.i);
        let mut rows = Vec::new();
        let mut total_correct = 0;
        for h in 0..folds.k() {
            let (train, test) = (folds.train_rows(h), folds.test_rows(h));
            let name = format!("f{h}");
            let out = peer::run_fold(self.data, &train, test, self.params, work.path(), &name)
                .map_err(|e| e.to_string())?;
            let PeerOutcome::Ran(f) = out else {
                return Err(format!(
                    "svm-train is not available ({})",
                    peer::SKIPPED_NO_SVM_TRAIN
                ));
            };
            let correct = f.predict.as_ref().map_or(0, |p| p.correct);
            total_correct += correct;
            let sizes = [train.len(), test.len(), correct];
            let mut row = trained(
                fold_row(&base, h as i64, sizes, peer_tail("round")),
                &f.train,
                false,
            );
            row.predict_s = Some(f.predict.map_or(0.0, |p| p.wall_s));
            rows.push(row);
        }
        let acc = 100.0 * total_correct as f64 / self.data.n() as f64;
        finish(&mut rows, Some(acc), self.wall());
        Ok(rows)
    }

    /// LIBSVM's own `svm-train -v k` on the whole dataset: one row, fold = -1.
    fn libsvm_v(&self, k: usize) -> Result<Vec<SvmRow>, String> {
        let n = self.data.n();
        let work = tempdir(&self.plan.head.cells[self.i].key).map_err(|e| e.to_string())?;
        let all: Vec<usize> = (0..n).collect();
        let file = work.path().join("all.libsvm");
        peer::write_rows(self.data, &all, &file).map_err(|e| e.to_string())?;
        let PeerOutcome::Ran(t) =
            peer::run_svm_train(&file, self.params, Some(k), None).map_err(|e| e.to_string())?
        else {
            return Err("svm-train is not available".into());
        };
        let acc = t.cv_accuracy_pct.unwrap_or(f64::NAN);
        let wall = self.wall();
        let correct = (acc / 100.0 * n as f64).round() as usize;
        let row = fold_row(
            &self.plan.base(self.i),
            -1,
            [n, n, correct],
            peer_tail("cv"),
        );
        let mut rows = vec![trained(row, &t, true)];
        finish(&mut rows, Some(acc), wall);
        Ok(rows)
    }
}

impl Plan for SvmPlan {
    fn head(&self) -> &PlanHead {
        &self.head
    }

    fn run_cell(&self, i: usize) -> Result<Vec<Record>, ExperimentError> {
        let c = &self.specs[i];
        let cell = &self.head.cells[i];
        let (_, data) = &self.datasets[c.dataset];
        let (_, params) = &self.settings[c.setting];
        let k = c.k.resolve(data.n());
        let run = CellRun {
            plan: self,
            i,
            data,
            params,
            t0: Instant::now(),
        };
        let rows = match c.method {
            Method::LibsvmV => run.libsvm_v(k),
            m => {
                let folds = self.folds(data, k, cell)?;
                match m {
                    Method::Ours => run.ours(&folds, false),
                    Method::OursSharedParallel => run.ours(&folds, true),
                    Method::Libsvm => run.libsvm(&folds),
                    _ => run.seeded(&folds, m.seeding().unwrap_or(SeedingMethod::None)),
                }
            }
        }
        .map_err(|message| ExperimentError::Cell {
            cell: cell.key.clone(),
            message,
        })?;
        Ok(to_records(&rows)?)
    }
}

fn tempdir(key: &str) -> std::io::Result<tempdir_lite::TempDir> {
    tempdir_lite::TempDir::new(&format!("cvbench-svm-{:016x}", seed::derive(0, key)))
}

/// A minimal self-deleting temporary directory (the peer's fold files).
mod tempdir_lite {
    use std::path::{Path, PathBuf};

    /// A directory under the system temp dir, removed on drop.
    pub struct TempDir(PathBuf);

    impl TempDir {
        /// Create `<tmp>/<name>-<pid>`.
        pub fn new(name: &str) -> std::io::Result<TempDir> {
            let p = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
            std::fs::create_dir_all(&p)?;
            Ok(TempDir(p))
        }
        /// The path.
        pub fn path(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}
