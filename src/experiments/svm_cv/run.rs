//! Running one `svm_cv` cell: a whole k-fold CV run with our solver (from
//! alpha = 0 or seeded) or with LIBSVM's tools, recorded one row per round.

use super::config::Method;
use super::plan::SvmPlan;
use super::rows::SvmRow;
use super::seeded::{
    estimate_whole_run, finish, fold_row, seeded_rows, solved, Tail, ROLE_ONE_CLASS, ROLE_ROUND,
};
use crate::experiments::memory::PeakWatch;
use crate::experiments::timing::{timed, Repeats, Walls};
use crate::experiments::{ExperimentError, Plan, PlanHead};
use crate::peers::libsvm::{self as peer, PeerOutcome, PeerTrain};
use crate::peers::onedal;
use crate::results::rows::to_records;
use crate::results::Record;
use cvbench_engine::api::cv::{run_cv_first_rounds, Folds};
use cvbench_engine::api::data::Dataset;
use cvbench_engine::api::params::SvmParams;
use cvbench_engine::api::seed;
use cvbench_engine::api::strategies::{CacheMode, CvStrategy, SeedingMethod};
use cvbench_engine::api::training::train;
use std::time::Instant;

/// The tail of a LIBSVM row (nothing seeded, nothing shared).
pub(super) fn peer_tail(role: &str) -> Tail {
    Tail {
        seed_s: None,
        role: role.to_string(),
        wrong_rows: String::new(),
        parallel: false,
        shared_cache: false,
    }
}

/// `row` with what `svm-train` printed (its model's values for one binary
/// fold, the sums over its solves for `-v k` or one-vs-one, with each
/// pair's iterations); our solver's counters and set-up time stay unknown.
fn trained(mut row: SvmRow, t: &PeerTrain, v: bool) -> SvmRow {
    if !v && t.iterations.len() > 1 {
        row.pair_iterations = super::seeded::pair_iterations(&t.iterations);
    }
    if v || t.iterations.len() > 1 {
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
pub(super) struct CellRun<'a> {
    pub plan: &'a SvmPlan,
    pub i: usize,
    pub data: &'a Dataset,
    pub params: &'a SvmParams,
    pub t0: Instant,
}

impl CellRun<'_> {
    /// The wall seconds since the cell started.
    pub(super) fn wall(&self) -> f64 {
        self.t0.elapsed().as_secs_f64()
    }

    /// The strategy and kernel-cache budget (MB) of one of our solver's
    /// cells: the config's `(cache, threads)` variant within the setting's
    /// `cache_mb`, else the method's default (`ours`: per solve, 1 thread;
    /// the parallel methods: the run's pool and a shared cache of 4x the
    /// setting's cache, at least 400 MB).
    pub(super) fn strategy(&self, method: Method) -> (CvStrategy, f64) {
        let seeding = method.seeding().unwrap_or(SeedingMethod::None);
        let pool = rayon::current_num_threads().max(2);
        let wide = self.params.cache_mb.max(100.0) * 4.0;
        if let Some((cache, t)) = self.plan.specs[self.i].axes {
            return (CvStrategy::of(seeding, cache, t), self.params.cache_mb);
        }
        match method {
            Method::Ours | Method::Train => (
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
    /// by [`timed`] (the first run's rows, every run's wall seconds).
    fn ours(&self, folds: &Folds, method: Method) -> Result<Vec<SvmRow>, String> {
        let (strategy, budget) = self.strategy(method);
        let mut params = self.params.clone();
        params.cache_mb = budget;
        let seed = self.plan.head.cells[self.i].seed;
        let first = self.plan.first_rounds.unwrap_or(folds.k());
        let (res, walls) = timed(self.plan.plan_repeats(), || {
            run_cv_first_rounds(self.data, folds, &params, &strategy, seed, first)
                .map_err(|e| e.to_string())
        })?;
        let mut rows = seeded_rows(&self.plan.base(self.i), self.data, folds, &res);
        finish(&mut rows, Some(res.cv.accuracy_pct), self.wall());
        stamp(&walls, &mut rows, &strategy, budget);
        let ran = res.cv.rounds.len();
        if ran < folds.k() {
            let once_s: f64 = res
                .extra
                .iter()
                .map(|e| e.seed_s + e.stats.timings.init_s + e.stats.timings.train_s)
                .sum();
            estimate_whole_run(&mut rows, once_s, ran, folds.k());
        }
        Ok(rows)
    }

    /// Our SMO, one training on all rows (the unit of the headline cost
    /// measure), on the cell's thread count with a per-solve cache of the
    /// setting's size; timed by [`timed`]. One row, fold = -1.
    fn train(&self) -> Result<Vec<SvmRow>, String> {
        let (strategy, budget) = self.strategy(Method::Train);
        let mut params = self.params.clone();
        params.cache_mb = budget;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(strategy.threads)
            .build()
            .map_err(|e| e.to_string())?;
        let all: Vec<usize> = (0..self.data.n()).collect();
        let (out, walls) = timed(self.plan.plan_repeats(), || {
            pool.install(|| train(self.data, &all, &params, None))
                .map_err(|e| e.to_string())
        })?;
        let row = fold_row(
            &self.plan.base(self.i),
            -1,
            [all.len(), 0, 0],
            Tail {
                seed_s: Some(0.0),
                ..peer_tail("train")
            },
        );
        let mut rows = vec![solved(row, &out.stats, 0.0)];
        finish(&mut rows, None, self.wall());
        stamp(&walls, &mut rows, &strategy, budget);
        Ok(rows)
    }

    /// Intel's oneDAL SVC on the cell's threads: a CV on our folds
    /// (`folds`), or one fit on all rows (`None`); timed `timing_repeats`
    /// times inside Python, around the fits and predictions only. One row,
    /// fold = -1.
    fn onedal(&self, folds: Option<&Folds>) -> Result<Vec<SvmRow>, String> {
        let work = tempdir(&self.plan.head.cells[self.i].key).map_err(|e| e.to_string())?;
        let n = self.data.n();
        let file = work.path().join("all.libsvm");
        let all: Vec<usize> = (0..n).collect();
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
        let threads = self.plan.specs[self.i].axes.map_or(1, |(_, t)| t);
        let r = onedal::run(
            &file,
            self.data.d(),
            fold_of.as_deref(),
            self.params,
            threads,
            self.plan.plan_repeats().runs as usize,
        )
        .map_err(|e| e.to_string())?;
        let (role, n_test) = if folds.is_some() {
            ("cv", n)
        } else {
            ("train", 0)
        };
        let mut row = fold_row(
            &self.plan.base(self.i),
            -1,
            [n, n_test, r.correct],
            peer_tail(role),
        );
        row.n_sv = r.n_sv.iter().sum::<usize>() as u64;
        let walls = Walls::of(r.seconds);
        row.train_s = walls.median();
        let mut rows = vec![row];
        let acc = folds.map(|_| 100.0 * r.correct as f64 / n as f64);
        finish(&mut rows, acc, self.wall());
        stamp_peer(&walls, &mut rows, r.threads, self.params.cache_mb);
        for row in &mut rows {
            row.peak_rss_mb = r.max_rss_mb;
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
            let weights = self.plan.setting_weights(self.i);
            let split = [train.as_slice(), test];
            let out =
                peer::run_fold_weighted(self.data, split, self.params, weights, work.path(), &name)
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
            let one_class = train
                .iter()
                .all(|&r| Some(&self.data.y[r]) == train.first().map(|&t| &self.data.y[t]));
            let role = if one_class {
                ROLE_ONE_CLASS
            } else {
                ROLE_ROUND
            };
            let mut row = trained(
                fold_row(&base, h as i64, sizes, peer_tail(role)),
                &f.train,
                false,
            );
            if one_class && f.train.obj.is_empty() {
                // svm-train solved nothing: its model's alphas are all 0.
                row.objective = Some(0.0);
            }
            row.predict_s = Some(f.predict.map_or(0.0, |p| p.wall_s));
            rows.push(row);
        }
        let acc = 100.0 * total_correct as f64 / self.data.n() as f64;
        finish(&mut rows, Some(acc), self.wall());
        Ok(rows)
    }

    /// LIBSVM's own `svm-train -v k` (`Some(k)`) or one `svm-train` on all
    /// rows (`None`), on the whole dataset with the setting's cache, timed by
    /// [`timed`] (process wall seconds, file parsing included): one row,
    /// fold = -1.
    fn libsvm_whole(&self, cv: Option<usize>) -> Result<Vec<SvmRow>, String> {
        let n = self.data.n();
        let work = tempdir(&self.plan.head.cells[self.i].key).map_err(|e| e.to_string())?;
        let all: Vec<usize> = (0..n).collect();
        let file = work.path().join("all.libsvm");
        let model = work.path().join("all.model");
        peer::write_rows(self.data, &all, &file).map_err(|e| e.to_string())?;
        let (t, walls) = timed(self.plan.plan_repeats(), || {
            let weights = self.plan.setting_weights(self.i);
            match peer::run_svm_train_weighted(&file, self.params, weights, cv, Some(&model)) {
                Ok(PeerOutcome::Ran(t)) => Ok(t),
                Ok(PeerOutcome::Skipped(why)) => Err(why),
                Err(e) => Err(e.to_string()),
            }
        })?;
        let acc = t.cv_accuracy_pct;
        let wall = self.wall();
        let correct = acc.map_or(0, |a| (a / 100.0 * n as f64).round() as usize);
        let (role, n_test) = if cv.is_some() {
            ("cv", n)
        } else {
            ("train", 0)
        };
        let row = fold_row(
            &self.plan.base(self.i),
            -1,
            [n, n_test, correct],
            peer_tail(role),
        );
        let mut rows = vec![trained(row, &t, cv.is_some())];
        finish(&mut rows, acc, wall);
        stamp_peer(&walls, &mut rows, 1, self.params.cache_mb);
        Ok(rows)
    }
}

/// Write our solver's strategy (with its threads), the cache budget and
/// the timings `walls` on every row.
pub(super) fn stamp(walls: &Walls, rows: &mut [SvmRow], strategy: &CvStrategy, budget: f64) {
    for r in rows.iter_mut() {
        r.order = strategy.order.as_str().into();
        r.seeder = strategy.seeder.as_str().into();
        r.cache = strategy.cache.as_str().into();
    }
    stamp_peer(walls, rows, strategy.threads, budget);
}

/// Write a peer's threads, its cache budget and the timings `walls` on
/// every row (order, seeder and cache stay empty: they are our solver's).
fn stamp_peer(walls: &Walls, rows: &mut [SvmRow], threads: usize, budget: f64) {
    for r in rows {
        r.cache_mb = Some(budget);
        r.threads = threads as u64;
        r.timing_repeats = walls.runs();
        r.wall_median_s = Some(walls.median());
        r.wall_min_s = walls.min();
        r.wall_max_s = walls.max();
        r.wall_runs_s = crate::experiments::timing::runs_text(walls);
    }
}

impl Plan for SvmPlan {
    fn head(&self) -> &PlanHead {
        &self.head
    }

    /// Training rows summed over the rounds run, `n (k - 1)` for all k,
    /// times the timed repetitions of our solver's cells.
    fn cost(&self, i: usize) -> Option<f64> {
        let c = &self.specs[i];
        let n = self.datasets[c.dataset].1.n() as f64;
        let k = c.k.resolve(n as usize) as f64;
        let reps = if c.method == Method::Libsvm {
            1.0
        } else {
            f64::from(self.plan_repeats().runs)
        };
        // k rounds of n (k - 1) / k rows; a first-rounds estimate runs
        // fewer (the config allows it for our solver's methods only).
        let rounds = self.first_rounds.map_or(k, |r| (r as f64).min(k));
        let trainings = if c.method.is_fit() {
            1.0
        } else {
            (k - 1.0) / k * rounds
        };
        Some(n * trainings * reps)
    }

    fn run_cell(&self, i: usize) -> Result<Vec<Record>, ExperimentError> {
        let c = &self.specs[i];
        let cell = &self.head.cells[i];
        let (_, data) = &self.datasets[c.dataset];
        let (_, setting) = &self.settings[c.setting];
        // The cell's solver (the peers' cells keep the default, unused).
        let params = &SvmParams {
            solver: c.solver,
            ..setting.clone()
        };
        let k = c.k.resolve(data.n());
        let run = CellRun {
            plan: self,
            i,
            data,
            params,
            t0: Instant::now(),
        };
        // The cell's peak memory: ours in this process (the mark reset
        // now); a peer's is its own process's, or none.
        let watch = PeakWatch::start();
        let rows = match c.method {
            Method::LibsvmV => run.libsvm_whole(Some(k)),
            Method::LibsvmFit => run.libsvm_whole(None),
            Method::Train if self.one_vs_one(i) => run.ovo_train(),
            Method::Train => run.train(),
            Method::OnedalFit => run.onedal(None),
            m => {
                let folds = self.folds(data, k, cell)?;
                match m {
                    Method::Libsvm => run.libsvm(&folds),
                    Method::Onedal => run.onedal(Some(&folds)),
                    m if self.one_vs_one(i) => run.ovo_cv(&folds, m),
                    m => run.ours(&folds, m),
                }
            }
        }
        .map_err(|message| ExperimentError::Cell {
            cell: cell.key.clone(),
            message,
        })?;
        let mut rows = rows;
        if c.method.peer().is_none() {
            let peak = watch.peak_mb();
            for r in &mut rows {
                r.peak_rss_mb = peak;
            }
        }
        Ok(to_records(&rows)?)
    }
}

impl SvmPlan {
    pub(super) fn plan_repeats(&self) -> Repeats {
        self.repeats
    }
}

/// The peer's folder for this cell's files (fold files, models), removed
/// when it drops and on an interruption (after the peer is stopped).
fn tempdir(key: &str) -> std::io::Result<crate::interrupt::TempDir> {
    crate::interrupt::TempDir::new(&format!("cvbench-svm-{:016x}", seed::derive(0, key)))
}
