//! The headline cost of an exact SVM k-fold CV, as rows: its wall time in
//! units of one training on all rows (beside TreeCV's cost in passes), and
//! against the peers timed in the same run with the same kernel-cache
//! memory — `svm-train -v k` and one `svm-train`, Intel's oneDAL CV and one
//! fit — with each compared cell's timed runs, so that our own speed
//! targets are judged by the one evidence rule ([`crate::experiments::evidence`]).
//!
//! Every time is the median of the cell's timed repetitions. Our CV runs
//! are the ablation's ([`super::ablation_rows`]); the fastest at each thread
//! count is the one compared. Both sides read these rows: the cost table
//! (`render/cost.rs`) and the lines that check them against our own speed
//! targets (`verdicts/targets.rs`); they live here, at the kind's top,
//! because a verdict never imports a renderer (issue 55).

use super::ablation_rows::{ablation, AblationRow};
use super::solver_axis::solver_rank;
use crate::experiments::evidence;
use crate::experiments::svm_cv::config::Method;
use crate::experiments::svm_cv::rows::{k_num, SvmRow};
use crate::experiments::svm_cv::variants::base_method;
use crate::experiments::timing::Spread;

/// One (dataset, setting, k, threads) of a run with a one-training cell.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CostRow {
    /// Dataset.
    pub dataset: String,
    /// Setting label.
    pub setting: String,
    /// k.
    pub k: String,
    /// Threads of our runs (and of oneDAL's, when it ran with as many).
    pub threads: u64,
    /// Kernel-cache budget, MB, of our runs (the peers get the same `-m`).
    pub cache_mb: f64,
    /// The fastest of our CV runs: "seeder, order, cache".
    pub best: String,
    /// Its median wall seconds.
    pub best_s: f64,
    /// Its CV accuracy, %.
    pub best_accuracy_pct: f64,
    /// Its prediction share of the wall time, %.
    pub best_predict_pct: f64,
    /// Its seeding share of the wall time, %.
    pub best_seed_pct: f64,
    /// Our one training on all rows, median wall seconds.
    pub train_s: f64,
    /// `best_s / train_s`: the CV's cost in trainings.
    pub cv_in_trainings: f64,
    /// `svm-train -v k`, median wall seconds (NaN when not run).
    pub svm_train_v_s: f64,
    /// Its printed CV accuracy, %.
    pub svm_train_v_accuracy_pct: f64,
    /// One `svm-train` on all rows, median wall seconds.
    pub svm_train_fit_s: f64,
    /// oneDAL's CV on our folds, median wall seconds.
    pub onedal_cv_s: f64,
    /// Its CV accuracy, %.
    pub onedal_accuracy_pct: f64,
    /// oneDAL's threads.
    pub onedal_threads: u64,
    /// oneDAL's one fit, median wall seconds.
    pub onedal_fit_s: f64,
    /// The solver of our CV runs and of our one training
    /// ([`cvbench_engine::api::strategies::SolverKind`]; one row per solver).
    pub solver: String,
    /// The timed runs of the fastest CV run (`best_s` is their median).
    #[serde(skip)]
    pub best_runs: Option<Spread>,
    /// The timed runs of our one training.
    #[serde(skip)]
    pub train_runs: Option<Spread>,
    /// The timed runs of `svm-train -v k` (`None`: not run).
    #[serde(skip)]
    pub svm_train_v_runs: Option<Spread>,
    /// The timed runs of oneDAL's CV (`None`: not run).
    #[serde(skip)]
    pub onedal_cv_runs: Option<Spread>,
}

impl CostRow {
    /// The CV in trainings as a ratio with its interval (fastest CV over
    /// one training), by the one evidence rule.
    pub fn in_trainings(&self) -> evidence::Ratio {
        evidence::ratio(
            &sample(self.best_runs.clone(), self.best_s),
            &sample(self.train_runs.clone(), self.train_s),
        )
    }

    /// `svm-train -v k`'s seconds over our fastest CV's (`None`: not run).
    pub fn vs_svm_train_v(&self) -> Option<evidence::Ratio> {
        self.svm_train_v_runs
            .clone()
            .map(|v| evidence::ratio(&v.into(), &sample(self.best_runs.clone(), self.best_s)))
    }

    /// oneDAL's CV seconds over our fastest CV's (`None`: not run).
    pub fn vs_onedal_cv(&self) -> Option<evidence::Ratio> {
        self.onedal_cv_runs
            .clone()
            .map(|v| evidence::ratio(&v.into(), &sample(self.best_runs.clone(), self.best_s)))
    }
}

/// The timed runs, or (none recorded) one run of `seconds`.
fn sample(runs: Option<Spread>, seconds: f64) -> evidence::Sample {
    runs.map_or_else(|| evidence::Sample::once(seconds), evidence::Sample::from)
}

/// A cell's timed runs as its record holds them (median and range; a
/// record without them: its cell's wall, timed once).
pub fn runs_of(r: &SvmRow) -> Spread {
    let m = r.wall_median_s.unwrap_or(r.cell_wall_s);
    Spread {
        median: m,
        min: r.wall_min_s.unwrap_or(m),
        max: r.wall_max_s.unwrap_or(m),
        runs: crate::experiments::timing::parse_runs(&r.wall_runs_s),
        repeats: if r.wall_median_s.is_some() {
            r.timing_repeats.max(1)
        } else {
            1
        },
    }
}

/// The record of `method`'s cell for a dataset, setting, k (`None`: any
/// k) and threads (`None`: any), made by any solver (the peers) or the one
/// named (our one training).
pub(crate) fn peer<'a>(
    records: &'a [SvmRow],
    method: Method,
    key: (&str, &str, Option<&str>),
    threads: Option<u64>,
) -> Option<&'a SvmRow> {
    find(records, method, key, threads, None)
}

/// [`peer`] of one solver (`Some`) or of any (`None`).
fn find<'a>(
    records: &'a [SvmRow],
    method: Method,
    key: (&str, &str, Option<&str>),
    threads: Option<u64>,
    solver: Option<&str>,
) -> Option<&'a SvmRow> {
    // A method's records carry its variant after its name: "train [per_solve, 2t]".
    records.iter().find(|r| {
        base_method(&r.core.method) == method.as_str()
            && r.core.dataset == key.0
            && r.setting == key.1
            && key.2.is_none_or(|k| r.k == k)
            && threads.is_none_or(|t| r.threads == t)
            && solver.is_none_or(|s| r.solver_or_smo() == s)
    })
}

fn median(r: Option<&SvmRow>) -> f64 {
    r.map_or(f64::NAN, |r| r.wall_median_s.unwrap_or(r.cell_wall_s))
}

/// The cost rows of a run's records: one per (dataset, setting, k, threads,
/// solver) that has both our CV runs and our one training on that solver
/// (empty otherwise).
pub fn cost(records: &[SvmRow]) -> Vec<CostRow> {
    let runs = ablation(records);
    let mut groups: Vec<Vec<&AblationRow>> = Vec::new();
    for r in &runs {
        let same = |g: &&AblationRow| {
            (&g.dataset, &g.setting, &g.k, g.threads, &g.solver)
                == (&r.dataset, &r.setting, &r.k, r.threads, &r.solver)
        };
        match groups.iter_mut().find(|g| same(&g[0])) {
            Some(g) => g.push(r),
            None => groups.push(vec![r]),
        }
    }
    let mut out = Vec::new();
    for g in groups {
        let Some(b) = g
            .iter()
            .min_by(|a, b| a.wall_median_s.total_cmp(&b.wall_median_s))
        else {
            continue;
        };
        let key = (b.dataset.as_str(), b.setting.as_str());
        let Some(train) = find(
            records,
            Method::Train,
            (key.0, key.1, None),
            Some(b.threads),
            Some(&b.solver),
        ) else {
            continue;
        };
        let k = Some(b.k.as_str());
        let v = peer(records, Method::LibsvmV, (key.0, key.1, k), None);
        let od = peer(records, Method::Onedal, (key.0, key.1, k), Some(b.threads))
            .or_else(|| peer(records, Method::Onedal, (key.0, key.1, k), None));
        let odf = peer(
            records,
            Method::OnedalFit,
            (key.0, key.1, None),
            Some(b.threads),
        )
        .or_else(|| peer(records, Method::OnedalFit, (key.0, key.1, None), None));
        let train_s = median(Some(train));
        out.push(CostRow {
            dataset: b.dataset.clone(),
            setting: b.setting.clone(),
            k: b.k.clone(),
            threads: b.threads,
            cache_mb: b.cache_mb,
            best: format!("{}, {}, {}", b.seeder, b.order, b.cache),
            best_s: b.wall_median_s,
            best_accuracy_pct: b.accuracy_pct,
            best_predict_pct: b.predict_pct,
            best_seed_pct: b.seed_pct,
            train_s,
            cv_in_trainings: b.wall_median_s / train_s,
            svm_train_v_s: median(v),
            svm_train_v_accuracy_pct: v.and_then(|r| r.cv_accuracy_pct).unwrap_or(f64::NAN),
            svm_train_fit_s: median(peer(records, Method::LibsvmFit, (key.0, key.1, None), None)),
            onedal_cv_s: median(od),
            onedal_accuracy_pct: od.and_then(|r| r.cv_accuracy_pct).unwrap_or(f64::NAN),
            onedal_threads: od.map_or(0, |r| r.threads),
            onedal_fit_s: median(odf),
            solver: b.solver.clone(),
            best_runs: Some(Spread {
                median: b.wall_median_s,
                min: b.wall_min_s,
                max: b.wall_max_s,
                repeats: b.repeats,
                runs: b.wall_runs.clone(),
            }),
            train_runs: Some(runs_of(train)),
            svm_train_v_runs: v.map(runs_of),
            onedal_cv_runs: od.map(runs_of),
        });
    }
    out.sort_by(|a, b| {
        (&a.dataset, &a.setting)
            .cmp(&(&b.dataset, &b.setting))
            .then(k_num(&a.k).total_cmp(&k_num(&b.k)))
            .then(a.threads.cmp(&b.threads))
            .then(solver_rank(&a.solver).cmp(&solver_rank(&b.solver)))
    });
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A test fixture: a fabricated record of a run's cell.
    pub(crate) fn row(method: &str, seeder: &str, role: &str, threads: u64, wall: f64) -> SvmRow {
        let mut r = SvmRow::default();
        r.core.method = method.into();
        r.core.dataset = "d".into();
        r.setting = "s".into();
        r.k = "10".into();
        r.role = role.into();
        r.threads = threads;
        // Five timed runs within 1% of the median.
        r.timing_repeats = 5;
        r.wall_median_s = Some(wall);
        r.wall_min_s = Some(0.99 * wall);
        r.wall_max_s = Some(1.01 * wall);
        r.cell_wall_s = wall;
        r.cache_mb = Some(100.0);
        r.cv_accuracy_pct = Some(90.0);
        if !method.starts_with("onedal") && method != "libsvm_v" {
            r.seeder = seeder.into();
            r.order = "chain".into();
            r.cache = "shared".into();
        }
        r
    }

    /// CV runs at one and two threads, one training at two, and the peers.
    pub(crate) fn sample_records() -> Vec<SvmRow> {
        vec![
            row("ours [shared, 2t]", "zero", "round", 2, 30.0),
            row("sir [shared, 2t]", "sir", "round", 2, 12.0),
            row("sir [shared, 1t]", "sir", "round", 1, 20.0),
            row("train [per_solve, 2t]", "zero", "train", 2, 8.0),
            row("libsvm_v", "", "cv", 1, 240.0),
            row("onedal [2t]", "", "cv", 2, 24.0),
            row("onedal_fit [2t]", "", "train", 2, 3.0),
        ]
    }

    /// The fastest CV run at each thread count over the one training at
    /// those threads, beside the peers of the same run (the table's
    /// rendering is tested in `render/cost.rs`).
    #[test]
    fn the_fastest_cv_at_equal_threads_over_one_training() {
        let c = cost(&sample_records());
        // Only threads = 2 has a one-training cell.
        assert_eq!(c.len(), 1, "{c:?}");
        let r = &c[0];
        assert_eq!((r.best_s, r.train_s), (12.0, 8.0));
        assert_eq!(r.cv_in_trainings, 1.5);
        assert!(r.best.starts_with("sir"));
        assert_eq!(
            (r.svm_train_v_s, r.onedal_cv_s, r.onedal_fit_s),
            (240.0, 24.0, 3.0)
        );
    }

    #[test]
    fn no_training_cell_no_row() {
        assert!(cost(&[row("sir", "sir", "round", 2, 1.0)]).is_empty());
    }
}
