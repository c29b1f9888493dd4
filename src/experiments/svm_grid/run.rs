//! Running one `svm_grid` cell: a gamma row of the grid with one reuse
//! level (rows per point and fold, plus the cell's costs), `svm-grid` on the
//! whole grid, or the practical guide's test-set table.

use super::plan::{GridPlan, Work};
use super::rows::{records, GridRow, ROLE_CELL, ROLE_FOLD, ROLE_GUIDE, ROLE_PEER, ROLE_PEER_POINT};
use super::verdicts::published::Published;
use crate::experiments::timing::{timed_by, Walls};
use crate::experiments::{ExperimentError, Plan, PlanHead};
use crate::peers::libsvm as peer;
use crate::pyfmt::grid_rate;
use crate::results::rows::Core;
use crate::results::Record;
use cvbench_engine::api::cv::Folds;
use cvbench_engine::api::data::{Dataset, Row};
use cvbench_engine::api::grid_search::{
    bytes_needed, fold_distances, run_grid, Best, Distances, FoldOrder, GridCost, GridOptions,
    Point, PointResult, Reuse,
};
use cvbench_engine::api::params::{KernelKind, SvmParams};
use cvbench_engine::api::training::train;
use cvbench_engine::api::{solver_path, SolverPath};

/// More than two classes: the one-vs-one grid ([`solver_path`] decides).
fn one_vs_one(ds: &Dataset) -> bool {
    solver_path(ds, false, false) == SolverPath::OneVsOne
}
use std::sync::Arc;
use std::time::Instant;

/// `1 / (highest feature index present)`: `svm-train`'s default gamma for
/// the file it reads (a feature that never occurs does not count).
pub(super) fn default_gamma(ds: &Dataset) -> f64 {
    let mut max = 0usize;
    for i in 0..ds.n() {
        let hi = match ds.row(i) {
            Row::Sparse(idx, _) => idx
                .last()
                .map_or(0, |&j| j as usize + ds.index_base.offset()),
            Row::Dense(x) => x
                .iter()
                .rposition(|&v| v != 0.0)
                .map_or(0, |j| j + ds.index_base.offset()),
        };
        max = max.max(hi);
    }
    cvbench_engine::api::params::default_gamma(max)
}

/// `(C, gamma)` of a point as `svm-train` reads them (single precision; the
/// default gamma in double).
fn point_params(p: &Point, default_g: f64) -> (f64, f64) {
    let given = SvmParams::rbf(p.c(), p.gamma(default_g));
    let parsed = peer::as_parsed_by_svm_train(&given);
    let g = match (p.log2g, parsed.kernel) {
        (None, _) => default_g,
        (_, KernelKind::Rbf { gamma }) => gamma,
        _ => default_g,
    };
    (parsed.c, g)
}

/// One solve of a cell's points: the results, costs, threads, and whether
/// it computed the distance blocks (rather than finding them cached).
struct Solved {
    res: Vec<PointResult>,
    cost: GridCost,
    threads: usize,
    fresh_blocks: bool,
}

/// Whether two runs of the same points gave the same rates and the same SMO
/// iterations at every point.
fn same_outcome(a: &[PointResult], b: &[PointResult]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| (x.correct, x.n, x.iterations()) == (y.correct, y.n, y.iterations()))
}

impl GridPlan {
    fn base(&self, i: usize) -> GridRow {
        let spec = &self.specs[i];
        let d = &self.datasets[spec.dataset];
        GridRow {
            core: Core {
                dataset: d.name.clone(),
                synthetic: d.raw.is_synthetic(),
                ..self.head.core(i)
            },
            n: d.data.n() as u64,
            d: d.data.d() as u64,
            k: self.k as u64,
            threads: 1,
            ..GridRow::default()
        }
    }

    fn cell_err(&self, i: usize, e: impl std::fmt::Display) -> ExperimentError {
        ExperimentError::Cell {
            cell: self.head.cells[i].key.clone(),
            message: e.to_string(),
        }
    }

    /// Cross-validate `points` of the dataset with `reuse`.
    fn solve(
        &self,
        i: usize,
        ds: &Dataset,
        points: &[Point],
        reuse: &Reuse,
    ) -> Result<Solved, ExperimentError> {
        let folds = Folds::libsvm(ds, self.k).map_err(|e| self.cell_err(i, e))?;
        let dg = default_gamma(ds);
        let values: Vec<(f64, f64)> = points.iter().map(|p| point_params(p, dg)).collect();
        let base = peer::as_parsed_by_svm_train(&SvmParams::rbf(1.0, dg));
        let threads = if reuse.threads { self.threads } else { 1 };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| self.cell_err(i, e))?;
        let mut out: Vec<Option<PointResult>> = vec![None; points.len()];
        let t0 = std::time::Instant::now();
        let (distances, fresh) = if one_vs_one(ds) {
            (None, None) // the one-vs-one grid shares a cache per gamma instead
        } else {
            self.distances(i, ds, &folds, reuse, &base, &pool)
        };
        let dist_s = t0.elapsed().as_secs_f64();
        let opts = GridOptions {
            reuse: reuse.clone(),
            memory_mb: self.memory_mb,
            seed: self.head.cells[i].seed,
            distances,
        };
        let mut sink = |j: usize, r: PointResult| {
            out[j] = Some(r);
            Ok(())
        };
        let mut cost = pool
            .install(|| {
                if one_vs_one(ds) {
                    super::ovo::solve_ovo(ds, &folds, &base, &values, self.memory_mb, &mut sink)
                } else {
                    run_grid(ds, &folds, &base, &values, &opts, &mut sink)
                }
            })
            .map_err(|e| self.cell_err(i, e))?;
        let fresh_blocks = fresh.is_some();
        if let Some(pairs) = fresh {
            cost.distance_pairs = pairs;
            cost.block_seconds += dist_s;
            cost.wall_seconds += dist_s;
        }
        let res = out
            .into_iter()
            .map(|r| r.ok_or_else(|| self.cell_err(i, "a grid point was not solved")))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Solved {
            res,
            cost,
            threads,
            fresh_blocks,
        })
    }

    /// [`GridPlan::solve`] timed `timing_repeats` times (once when the
    /// first run takes two minutes or more and the config says why cells
    /// may be timed fewer times): the first run and every run's
    /// wall seconds. A repeat computes the distance blocks again when the
    /// first run did (each run times the same work), and must give the
    /// first run's rates and SMO iterations at every point.
    fn solve_timed(
        &self,
        i: usize,
        ds: &Dataset,
        points: &[Point],
        reuse: &Reuse,
    ) -> Result<(Solved, Walls), ExperimentError> {
        let mut first: Option<Solved> = None;
        let ((), walls) = timed_by(self.repeats, || {
            if first.as_ref().is_some_and(|f| f.fresh_blocks) {
                self.forget_distances();
            }
            let run = self.solve(i, ds, points, reuse)?;
            let s = run.cost.wall_seconds;
            match &first {
                None => first = Some(run),
                Some(f) if same_outcome(&f.res, &run.res) => {}
                Some(_) => {
                    return Err(self.cell_err(
                        i,
                        "a repeated timing run gave other rates or SMO iterations than the first: the grid is not deterministic here (please report this)",
                    ))
                }
            }
            Ok(((), s))
        })?;
        let first = first.ok_or_else(|| self.cell_err(i, "no timed run"))?;
        Ok((first, walls))
    }

    /// Drop the cached distance blocks (a timing repeat computes them again).
    fn forget_distances(&self) {
        *self.dist_cache.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// The distance blocks for a cell with gamma blocks: from the cache
    /// when the last cell of the same dataset and level computed them, else
    /// computed now (and cached; `Some(pairs)` then says so). `None` when
    /// the level has no gamma blocks or they exceed the memory budget.
    fn distances(
        &self,
        i: usize,
        ds: &Dataset,
        folds: &Folds,
        reuse: &Reuse,
        base: &SvmParams,
        pool: &rayon::ThreadPool,
    ) -> (Option<Arc<Distances>>, Option<u64>) {
        let fits = bytes_needed(ds.n(), 1) <= self.memory_mb * (1u64 << 20) as f64;
        if !reuse.gamma_blocks || !fits {
            return (None, None);
        }
        let key = (self.specs[i].dataset, reuse.name());
        let mut cache = self.dist_cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((d, l, dist)) = cache.as_ref() {
            if (*d, l.clone()) == key && dist.n == ds.n() {
                return (Some(Arc::clone(dist)), None);
            }
        }
        *cache = None; // free the previous level's blocks first
        let order = FoldOrder::new(ds, folds);
        let dist = Arc::new(pool.install(|| fold_distances(&order, base.kernel, reuse.threads)));
        let pairs = dist.pairs;
        *cache = Some((key.0, key.1, Arc::clone(&dist)));
        (Some(dist), Some(pairs))
    }

    fn rows_cell(
        &self,
        i: usize,
        level: usize,
        log2g: &[Option<f64>],
    ) -> Result<Vec<GridRow>, ExperimentError> {
        let reuse = &self.levels[level];
        let ds = &self.datasets[self.specs[i].dataset].data;
        let points: Vec<Point> = self
            .grid
            .points
            .iter()
            .filter(|p| log2g.contains(&p.log2g))
            .copied()
            .collect();
        let (
            Solved {
                res, cost, threads, ..
            },
            walls,
        ) = self.solve_timed(i, ds, &points, reuse)?;
        let mut base = self.base(i);
        base.core.method = reuse.name();
        base.exact = reuse.exact();
        base.threads = threads as u64;
        let mut rows = Vec::new();
        for (p, r) in points.iter().zip(&res) {
            for f in &r.folds {
                rows.push(GridRow {
                    core: Core {
                        seconds: f.seconds,
                        ..base.core.clone()
                    },
                    role: ROLE_FOLD.into(),
                    log2c: p.log2c,
                    log2g: p.log2g,
                    c: Some(r.c),
                    gamma: Some(r.gamma),
                    fold: Some(f.fold as i64),
                    n_test: f.n_test as u64,
                    correct: f.correct as u64,
                    iterations: f.iterations,
                    kernel_evals: f.kernel_evals,
                    warm: f.warm,
                    newton_steps: f.newton_steps,
                    ..base.clone()
                });
            }
            if r.extra_iterations > 0 || r.extra_kernel_evals > 0 {
                rows.push(GridRow {
                    role: ROLE_FOLD.into(),
                    log2c: p.log2c,
                    log2g: p.log2g,
                    c: Some(r.c),
                    gamma: Some(r.gamma),
                    iterations: r.extra_iterations,
                    kernel_evals: r.extra_kernel_evals,
                    note: "solves that are not rounds (seeded CV's tree nodes, seeders)".into(),
                    ..base.clone()
                });
            }
        }
        let mut cell = GridRow {
            core: Core {
                seconds: cost.wall_seconds,
                ..base.core.clone()
            },
            role: ROLE_CELL.into(),
            log2g: match log2g {
                [one] => *one,
                _ => None,
            },
            distance_pairs: cost.distance_pairs,
            kernel_fills: cost.kernel_fills,
            block_s: Some(cost.block_seconds),
            note: cost.gamma_blocks_note.clone().unwrap_or_default(),
            ..base
        };
        cell.stamp(&walls);
        rows.push(cell);
        Ok(rows)
    }

    /// Cell `i`'s dataset written as a LibSVM file for a peer program, in
    /// a temporary folder that lives as long as the returned guard.
    fn peer_file(
        &self,
        i: usize,
    ) -> Result<(crate::interrupt::TempDir, std::path::PathBuf), ExperimentError> {
        let ds = &self.datasets[self.specs[i].dataset].data;
        let dir =
            crate::interrupt::TempDir::unique("grid-peer").map_err(|e| self.cell_err(i, e))?;
        let file = dir.path().join(&ds.name);
        let f = std::fs::File::create(&file).map_err(|e| self.cell_err(i, e))?;
        let all: Vec<usize> = (0..ds.n()).collect();
        cvbench_engine::api::data::write_libsvm(ds, &all, f).map_err(|e| self.cell_err(i, e))?;
        Ok((dir, file))
    }

    /// A peer program's run of cell `i`, timed as the config asks: its first
    /// run and every run's `seconds`.
    fn timed_peer<R, E: std::fmt::Display>(
        &self,
        i: usize,
        run: impl Fn() -> Result<R, E>,
        seconds: fn(&R) -> f64,
    ) -> Result<(R, Walls), ExperimentError> {
        timed_by(self.repeats, || {
            run()
                .map(|r| {
                    let s = seconds(&r);
                    (r, s)
                })
                .map_err(|e| self.cell_err(i, e))
        })
    }

    fn peer_cell(&self, i: usize) -> Result<Vec<GridRow>, ExperimentError> {
        let (_dir, file) = self.peer_file(i)?;
        let (run, walls) = self.timed_peer(
            i,
            || crate::peers::grid::run_svm_grid(&file, &self.grid, self.k),
            |r| r.wall_s,
        )?;
        let mut base = self.base(i);
        base.core.method = "svm-grid".into();
        let mut rows: Vec<GridRow> = run
            .points
            .iter()
            .map(|&(c, g, rate)| GridRow {
                role: ROLE_PEER_POINT.into(),
                log2c: c,
                log2g: g,
                rate: Some(rate),
                ..base.clone()
            })
            .collect();
        let mut peer = GridRow {
            core: Core {
                seconds: run.wall_s,
                ..base.core.clone()
            },
            role: ROLE_PEER.into(),
            c: run.best.0,
            gamma: run.best.1,
            log2c: run.best.0.map(f64::log2),
            log2g: run.best.1.map(f64::log2),
            rate: Some(run.best.2),
            ..base
        };
        peer.stamp(&walls);
        rows.push(peer);
        Ok(rows)
    }

    fn sklearn_cell(&self, i: usize) -> Result<Vec<GridRow>, ExperimentError> {
        let ds = &self.datasets[self.specs[i].dataset].data;
        let (_dir, file) = self.peer_file(i)?;
        let folds = Folds::libsvm(ds, self.k).map_err(|e| self.cell_err(i, e))?;
        let mut fold_of = vec![0usize; ds.n()];
        for h in 0..folds.k() {
            for &r in folds.test_rows(h) {
                fold_of[r] = h;
            }
        }
        let dg = default_gamma(ds);
        let mut cs: Vec<f64> = Vec::new();
        let mut gs: Vec<f64> = Vec::new();
        for p in &self.grid.points {
            let (c, g) = point_params(p, dg);
            if !cs.contains(&c) {
                cs.push(c);
            }
            if !gs.contains(&g) {
                gs.push(g);
            }
        }
        let (run, walls) = self.timed_peer(
            i,
            || crate::peers::grid::run_sklearn_grid(&file, &cs, &gs, &fold_of, self.threads),
            |r| r.fit_s,
        )?;
        let mut base = self.base(i);
        base.core.method = "sklearn".into();
        base.threads = self.threads as u64;
        let mut row = GridRow {
            core: Core {
                seconds: run.fit_s,
                ..base.core.clone()
            },
            role: ROLE_PEER.into(),
            c: Some(run.c),
            gamma: Some(run.gamma),
            log2c: Some(run.c.log2()),
            log2g: Some(run.gamma.log2()),
            rate: Some(run.score_pct),
            note: "scikit-learn GridSearchCV(SVC(), cv = LIBSVM's folds, n_jobs = threads); rate = mean fold accuracy".into(),
            ..base
        };
        row.stamp(&walls);
        Ok(vec![row])
    }

    /// Train on all of `train` at `(c, gamma)`, predict `test`.
    fn test_accuracy(
        &self,
        i: usize,
        train_ds: &Dataset,
        test: &Dataset,
        c: f64,
        gamma: f64,
    ) -> Result<(usize, f64), ExperimentError> {
        let params = peer::as_parsed_by_svm_train(&SvmParams::rbf(c, gamma));
        let all: Vec<usize> = (0..train_ds.n()).collect();
        let t = Instant::now();
        let correct = if one_vs_one(train_ds) {
            super::ovo::ovo_correct(train_ds, test, &params).map_err(|e| self.cell_err(i, e))?
        } else {
            let out = train(train_ds, &all, &params, None).map_err(|e| self.cell_err(i, e))?;
            (0..test.n())
                .filter(|&r| out.model.predict(test.row(r)) == test.y[r])
                .count()
        };
        Ok((correct, t.elapsed().as_secs_f64()))
    }

    fn guide_cell(&self, i: usize, ti: usize) -> Result<Vec<GridRow>, ExperimentError> {
        let t = &self.tests[ti];
        let d = &self.datasets[t.dataset];
        let mut base = self.base(i);
        base.core.method = "guide".into();
        let mut rows = Vec::new();
        let mut step = |name: &str,
                        train_ds: &Dataset,
                        test: &Dataset,
                        p: Point,
                        cv: Option<f64>|
         -> Result<(), ExperimentError> {
            let dg = default_gamma(train_ds);
            let (c, g) = (p.c(), p.gamma(dg));
            let (correct, secs) = self.test_accuracy(i, train_ds, test, c, g)?;
            rows.push(GridRow {
                core: Core {
                    seconds: secs,
                    ..base.core.clone()
                },
                role: ROLE_GUIDE.into(),
                step: name.into(),
                log2c: p.log2c,
                log2g: p.log2g,
                c: Some(c),
                gamma: Some(g),
                n_test: test.n() as u64,
                correct: correct as u64,
                rate: Some(100.0 * correct as f64 / test.n().max(1) as f64),
                cv_rate: cv,
                ..base.clone()
            });
            Ok(())
        };
        let default = Point {
            log2c: None,
            log2g: None,
        };
        step("original-default", &d.raw, &t.raw, default, None)?;
        step("scaled-default", &d.data, &t.scaled, default, None)?;
        // The grid, exactly as grid.py runs it (exact reuse), and its choice.
        let exact = Reuse::parse("gamma+threads").map_err(|e| self.cell_err(i, e))?;
        let res = self.solve(i, &d.data, &self.grid.points, &exact)?.res;
        let mut best = Best::default();
        for (p, r) in self.grid.points.iter().zip(&res) {
            best.update(p.log2c, p.log2g, grid_rate(r.correct, r.n));
        }
        let chosen = Point {
            log2c: best.log2c,
            log2g: best.log2g,
        };
        step("grid-chosen", &d.data, &t.scaled, chosen, Some(best.rate))?;
        if let Some(pubrow) = Published::load()?
            .guide
            .into_iter()
            .find(|g| g.dataset == d.name)
        {
            let gp = Point {
                log2c: Some(pubrow.log2c),
                log2g: Some(pubrow.log2g),
            };
            let cv = self
                .grid
                .points
                .iter()
                .position(|p| *p == gp)
                .map(|j| grid_rate(res[j].correct, res[j].n));
            let cv = match cv {
                Some(v) => Some(v),
                None => {
                    let r = self.solve(i, &d.data, &[gp], &exact)?.res;
                    r.first().map(|r| grid_rate(r.correct, r.n))
                }
            };
            step("guide-point", &d.data, &t.scaled, gp, cv)?;
        }
        Ok(rows)
    }
}

impl Plan for GridPlan {
    fn head(&self) -> &PlanHead {
        &self.head
    }

    fn run_cell(&self, i: usize) -> Result<Vec<Record>, ExperimentError> {
        let rows = match self.specs[i].work.clone() {
            Work::Rows { level, log2g } => self.rows_cell(i, level, &log2g)?,
            Work::Peer => self.peer_cell(i)?,
            Work::Sklearn => self.sklearn_cell(i)?,
            Work::Guide(ti) => self.guide_cell(i, ti)?,
        };
        Ok(records(&rows)?)
    }
}
