//! Running one `svm_cv` cell: a whole k-fold CV run with our solver (from
//! alpha = 0 or seeded) or with LIBSVM's tools, recorded one row per round.

use super::config::Method;
use super::plan::SvmPlan;
use super::rows::SvmRow;
use super::seeded::{finish, fold_row, seeded_rows, Tail};
use crate::data::Dataset;
use crate::experiments::{ExperimentError, Plan, PlanHead};
use crate::peers::libsvm::{self as peer, PeerOutcome, PeerTrain};
use crate::results::rows::to_records;
use crate::results::Record;
use crate::seed;
use crate::svm::folds::Folds;
use crate::svm::{run_cv, CacheMode, CvStrategy, SeedingMethod, SvmParams};
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

    /// The strategy and kernel-cache budget (MB) of one of our solver's
    /// cells: the config's `(cache, threads)` variant within the setting's
    /// `cache_mb`, else the method's default (`ours`: per solve, 1 thread;
    /// the parallel methods: the run's pool and a shared cache of 4x the
    /// setting's cache, at least 400 MB).
    fn strategy(&self, method: Method) -> (CvStrategy, f64) {
        let seeding = method.seeding().unwrap_or(SeedingMethod::None);
        let pool = rayon::current_num_threads().max(2);
        let wide = self.params.cache_mb.max(100.0) * 4.0;
        if let Some((cache, t)) = self.plan.specs[self.i].axes {
            return (CvStrategy::of(seeding, cache, t), self.params.cache_mb);
        }
        match method {
            Method::Ours => (
                CvStrategy::of(seeding, CacheMode::PerSolve, 1),
                self.params.cache_mb,
            ),
            Method::OursSharedParallel => (CvStrategy::of(seeding, CacheMode::Shared, pool), wide),
            _ => {
                let threads = if self.plan.seeded_parallel { pool } else { 1 };
                if self.plan.seeded_shared_cache {
                    (CvStrategy::of(seeding, CacheMode::Shared, threads), wide)
                } else {
                    (
                        CvStrategy::of(seeding, CacheMode::PerSolve, threads),
                        self.params.cache_mb,
                    )
                }
            }
        }
    }

    /// Our SMO, from alpha = 0 or seeded, on the cell's strategy; timed
    /// `repeats` times (the first run's rows, every run's wall seconds).
    fn ours(&self, folds: &Folds, method: Method) -> Result<Vec<SvmRow>, String> {
        let (strategy, budget) = self.strategy(method);
        let mut params = self.params.clone();
        params.cache_mb = budget;
        let seed = self.plan.head.cells[self.i].seed;
        let mut walls = Vec::new();
        let mut first = None;
        for _ in 0..self.plan.repeats.max(1) {
            let t = Instant::now();
            let res =
                run_cv(self.data, folds, &params, &strategy, seed).map_err(|e| e.to_string())?;
            walls.push(t.elapsed().as_secs_f64());
            if first.is_none() {
                first = Some((res, self.wall()));
            }
        }
        let Some((res, wall)) = first else {
            return Err("no run".into());
        };
        let mut rows = seeded_rows(&self.plan.base(self.i), self.data, folds, &res);
        finish(&mut rows, Some(res.cv.accuracy_pct), wall);
        walls.sort_by(f64::total_cmp);
        let median = if walls.len() % 2 == 1 {
            walls[walls.len() / 2]
        } else {
            0.5 * (walls[walls.len() / 2 - 1] + walls[walls.len() / 2])
        };
        for r in &mut rows {
            r.order = strategy.order.as_str().into();
            r.seeder = strategy.seeder.as_str().into();
            r.cache = strategy.cache.as_str().into();
            r.cache_mb = Some(budget);
            r.threads = strategy.threads as u64;
            r.timing_repeats = walls.len() as u64;
            r.wall_median_s = Some(median);
            r.wall_min_s = walls.first().copied();
            r.wall_max_s = walls.last().copied();
        }
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

    /// Training rows summed over the rounds, `n (k - 1)`, times the timed
    /// repetitions of our solver's cells.
    fn cost(&self, i: usize) -> Option<f64> {
        let c = &self.specs[i];
        let n = self.datasets[c.dataset].1.n() as f64;
        let k = c.k.resolve(n as usize) as f64;
        let reps = if c.method.is_peer() {
            1.0
        } else {
            f64::from(self.plan_repeats())
        };
        Some(n * (k - 1.0) * reps)
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
                    Method::Libsvm => run.libsvm(&folds),
                    m => run.ours(&folds, m),
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

impl SvmPlan {
    fn plan_repeats(&self) -> u32 {
        self.repeats.max(1)
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
