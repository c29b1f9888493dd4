//! Running a `treecv` cell: the repetition's subsample, one CV method with
//! the cell's learner, and the record it gives.

use super::config::Method;
use super::plan::TreecvPlan;
use super::rows::TreecvRow;
use crate::experiments::{finite_or_fail, ExperimentError, Plan, PlanHead};
use crate::results::rows::{to_records, Core};
use crate::results::Record;
use cvbench_engine::api::data::{Dataset, Features};
use cvbench_engine::api::learners::{
    standard_cv, standard_cv_parallel, treecv, AnyLearner, Chunks, Counters, CvOutcome,
    IncrementalLearner, Order, Strategy,
};
use cvbench_engine::api::seed;
use rand::seq::SliceRandom;
use std::time::Instant;

impl Plan for TreecvPlan {
    fn head(&self) -> &PlanHead {
        &self.head
    }

    /// Learner updates times the mean stored features per row.
    fn cost(&self, i: usize) -> Option<f64> {
        let c = &self.specs[i];
        let data = &self.datasets[c.dataset].1;
        let per_row = match &data.x {
            Features::Sparse { indices, .. } => indices.len() as f64 / data.n().max(1) as f64,
            Features::Dense { d, .. } => *d as f64,
        };
        let (n, k) = (c.n as f64, c.k.resolve(c.n) as f64);
        let passes = match c.method {
            Method::Standard | Method::StandardParallel => k - 1.0,
            Method::Treecv | Method::TreecvRevert | Method::TreecvParallel => k.log2() + 1.0,
            Method::TrainOnce => 1.0,
        };
        Some(n * passes * per_row.max(1.0))
    }

    /// The dataset's and learner's specs and the cell's grid point: a cell
    /// is reused when another part of the config (e.g. the grid) changes.
    fn cell_spec(&self, i: usize) -> Option<String> {
        let c = &self.specs[i];
        Some(format!(
            "seed={}|data={}|learner={}|method={}|order={}|k={}|n={}|rep={}",
            self.head.base_seed,
            self.dataset_specs[c.dataset],
            self.learner_specs[c.learner],
            c.method.as_str(),
            c.order.as_str(),
            c.k.label(),
            c.n,
            c.rep
        ))
    }

    fn run_cell(&self, i: usize) -> Result<Vec<Record>, ExperimentError> {
        let c = &self.specs[i];
        let cell = &self.head.cells[i];
        let (dname, data) = &self.datasets[c.dataset];
        // The repetition's random subsample/permutation: shared by every
        // method, order and k of this (dataset, n, rep), so comparisons are paired.
        let mut perm: Vec<usize> = (0..data.n()).collect();
        perm.shuffle(&mut seed::rng(seed::derive(
            self.head.base_seed,
            &format!("{dname}|n={}|rep={}", c.n_label, c.rep),
        )));
        perm.truncate(c.n);
        let sub = data.subset(&perm, dname.clone());
        let k = c.k.resolve(c.n);
        let learner = &self.learners[c.learner];
        let out = match learner {
            AnyLearner::Pegasos(l) => run_method(l, &sub, c.method, c.order, k, cell.seed),
            AnyLearner::Lsqsgd(l) => run_method(l, &sub, c.method, c.order, k, cell.seed),
            AnyLearner::Ridge(l) => run_method(l, &sub, c.method, c.order, k, cell.seed),
        };
        let fail = |message: String| ExperimentError::Cell {
            cell: cell.key.clone(),
            message,
        };
        let out =
            out.ok_or_else(|| fail(format!("k = {k} folds do not fit n = {} points", c.n)))?;
        finite_or_fail(&cell.key, "the CV estimate", out.estimate)?;
        let row = TreecvRow {
            core: Core {
                rep: Some(c.rep as i64),
                dataset: dname.clone(),
                synthetic: data.is_synthetic(),
                method: c.method.as_str().into(),
                seconds: out.seconds,
                ..self.head.core(i)
            },
            learner: learner.short().into(),
            learner_params: learner.name(),
            loss: learner.loss_name().into(),
            order: c.order.as_str().into(),
            k: c.k.label(),
            k_value: k as i64,
            n: c.n as i64,
            d: data.d() as i64,
            estimate: out.estimate,
            updates: out.work.updates,
            passes: out.work.updates as f64 / c.n as f64,
            copies: out.work.copies,
            peak_models: out.work.peak_models,
        };
        Ok(to_records(&[row])?)
    }
}

/// Run one CV method with a concrete learner (`None` when `k` folds do not
/// fit the data, which planning rules out).
fn run_method<L: IncrementalLearner>(
    l: &L,
    data: &Dataset,
    method: Method,
    order: Order,
    k: usize,
    seed: u64,
) -> Option<CvOutcome> {
    let chunks = || Chunks::new((0..data.n()).collect(), k);
    Some(match method {
        Method::Treecv => treecv(l, data, &chunks()?, order, Strategy::Copy, seed),
        Method::TreecvRevert => treecv(l, data, &chunks()?, order, Strategy::SaveRevert, seed),
        Method::TreecvParallel => treecv(l, data, &chunks()?, order, Strategy::Parallel, seed),
        Method::Standard => standard_cv(l, data, &chunks()?, order, seed),
        Method::StandardParallel => standard_cv_parallel(l, data, &chunks()?, order, seed),
        Method::TrainOnce => train_once(l, data, order, seed),
    })
}

/// No CV: one training pass over all points, its estimate the training loss
/// (the unit of cost that CV methods are compared against).
fn train_once<L: IncrementalLearner>(l: &L, data: &Dataset, order: Order, seed: u64) -> CvOutcome {
    let start = Instant::now();
    let counters = Counters::default();
    let mut m = l.init(data);
    counters.born();
    let all: Vec<usize> = (0..data.n()).collect();
    cvbench_engine::api::learners::feed_points(l, &mut m, data, &all, order, seed, &counters);
    let estimate = l.mean_loss(&m, data, &all);
    CvOutcome {
        estimate,
        work: counters.work(),
        seconds: start.elapsed().as_secs_f64(),
    }
}
