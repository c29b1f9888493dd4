//! The `treecv` kind's typed rows: [`TreecvRow`] (a record: one per cell),
//! [`SummaryRow`] (the summary table: one per grid point), and the grouping
//! of records into grid points with their mean and spread over
//! repetitions, which the renderers and the scorecard share.

use crate::results::rows::Core;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::BTreeMap;

/// One record: a cell's CV estimate and the work it took. The core columns
/// hold the dataset, the CV method, the repetition, the cell's seed and the
/// seconds of the CV run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TreecvRow {
    /// The columns every kind's records start with.
    #[serde(flatten)]
    pub core: Core,
    /// The learner's type (`pegasos`, `lsqsgd`, `ridge`).
    pub learner: String,
    /// The learner with its hyper-parameters, e.g. `pegasos(lambda=1e-6)`.
    pub learner_params: String,
    /// The loss of the estimate (`misclassification`, `squared_error`).
    pub loss: String,
    /// The order points are fed in (`fixed`, `randomized`).
    pub order: String,
    /// The number of folds as configured: an integer, or `n` (LOOCV).
    pub k: String,
    /// The number of folds.
    #[serde(deserialize_with = "whole")]
    pub k_value: i64,
    /// The points the cell ran on (a seeded subsample of the dataset).
    #[serde(deserialize_with = "whole")]
    pub n: i64,
    /// Features.
    #[serde(deserialize_with = "whole")]
    pub d: i64,
    /// The CV estimate (mean loss over held-out points).
    pub estimate: f64,
    /// Point-updates made by the learner.
    #[serde(deserialize_with = "whole")]
    pub updates: u64,
    /// `updates / n`.
    pub passes: f64,
    /// Model copies made.
    #[serde(deserialize_with = "whole")]
    pub copies: u64,
    /// The most models alive at once (the parallel methods: `k`, a fully
    /// parallel schedule's, for any thread count).
    #[serde(deserialize_with = "whole")]
    pub peak_models: u64,
}

/// An integer column, stored as an integer; read back from an integer or a
/// whole float (records built elsewhere may carry counts as floats).
fn whole<'de, D: Deserializer<'de>, T: TryFrom<i64>>(d: D) -> Result<T, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Number {
        Int(i64),
        Float(f64),
    }
    let v = match Number::deserialize(d)? {
        Number::Int(i) => i,
        Number::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => f as i64,
        Number::Float(f) => return Err(D::Error::custom(format!("{f} is not a whole number"))),
    };
    T::try_from(v).map_err(|_| D::Error::custom(format!("{v} is out of range")))
}

/// A row of the summary table (`summary.csv`): one grid point, its
/// repetitions aggregated.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SummaryRow {
    /// Dataset.
    pub dataset: String,
    /// Whether the dataset is synthetic.
    pub synthetic: bool,
    /// Learner type.
    pub learner: String,
    /// CV method.
    pub method: String,
    /// Order.
    pub order: String,
    /// Folds as configured (`n`: LOOCV).
    pub k: String,
    /// Folds.
    pub k_value: i64,
    /// Points.
    pub n: i64,
    /// Repetitions.
    pub reps: usize,
    /// Mean CV estimate.
    pub estimate_mean: f64,
    /// Sample std of the CV estimate.
    pub estimate_std: f64,
    /// Mean seconds.
    pub seconds_mean: f64,
    /// Sample std of the seconds.
    pub seconds_std: f64,
    /// Mean point-updates.
    pub updates_mean: f64,
    /// Mean passes.
    pub passes_mean: f64,
    /// Mean model copies.
    pub copies_mean: f64,
    /// The most models alive at once, over repetitions.
    pub peak_models_max: f64,
}

impl SummaryRow {
    /// The summary of one grid point.
    pub fn of(key: &GroupKey, g: &Group) -> SummaryRow {
        let (dataset, learner, method, order, k, n) = key.clone();
        SummaryRow {
            dataset,
            synthetic: g.synthetic,
            learner,
            method,
            order,
            k,
            k_value: g.k_value,
            n,
            reps: g.estimate.count,
            estimate_mean: g.estimate.mean,
            estimate_std: g.estimate.std(),
            seconds_mean: g.seconds.mean,
            seconds_std: g.seconds.std(),
            updates_mean: g.updates.mean,
            passes_mean: g.passes.mean,
            copies_mean: g.copies.mean,
            peak_models_max: g.peak,
        }
    }
}

/// Running mean and sample standard deviation (Welford).
#[derive(Default, Clone, Debug)]
pub struct Stats {
    /// Values added.
    pub count: usize,
    /// Their mean.
    pub mean: f64,
    m2: f64,
}

impl Stats {
    /// Add a value.
    pub fn add(&mut self, x: f64) {
        self.count += 1;
        let d = x - self.mean;
        self.mean += d / self.count as f64;
        self.m2 += d * (x - self.mean);
    }

    /// The sample standard deviation (0 for fewer than two values).
    pub fn std(&self) -> f64 {
        if self.count > 1 {
            (self.m2 / (self.count - 1) as f64).sqrt()
        } else {
            0.0
        }
    }
}

use crate::experiments::evidence::{self, Ratio, Sample};

/// A grid point: (dataset, learner, method, order, k, n).
pub type GroupKey = (String, String, String, String, String, i64);

/// The repetitions of one grid point, aggregated.
#[derive(Default, Clone, Debug)]
pub struct Group {
    /// CV estimate.
    pub estimate: Stats,
    /// Seconds.
    pub seconds: Stats,
    /// Every repetition's seconds (the timed repeats the one evidence rule
    /// bootstraps).
    pub seconds_runs: Vec<f64>,
    /// Point-updates.
    pub updates: Stats,
    /// Passes.
    pub passes: Stats,
    /// Model copies.
    pub copies: Stats,
    /// The most models alive at once.
    pub peak: f64,
    /// Whether the dataset is synthetic.
    pub synthetic: bool,
    /// Folds.
    pub k_value: i64,
}

/// The rows grouped by grid point, in key order.
pub fn groups(rows: &[TreecvRow]) -> BTreeMap<GroupKey, Group> {
    let mut g: BTreeMap<GroupKey, Group> = BTreeMap::new();
    for r in rows {
        let key = (
            r.core.dataset.clone(),
            r.learner.clone(),
            r.core.method.clone(),
            r.order.clone(),
            r.k.clone(),
            r.n,
        );
        let e = g.entry(key).or_default();
        e.estimate.add(r.estimate);
        e.seconds.add(r.core.seconds);
        e.seconds_runs.push(r.core.seconds);
        e.updates.add(r.updates as f64);
        e.passes.add(r.passes);
        e.copies.add(r.copies as f64);
        e.peak = e.peak.max(r.peak_models as f64);
        e.synthetic = r.core.synthetic;
        e.k_value = r.k_value;
    }
    g
}

/// Table 2's columns: (method, order, heading).
pub const COLS: [(&str, &str, &str); 4] = [
    ("treecv", "fixed", "TreeCV fixed"),
    ("treecv", "randomized", "TreeCV randomized"),
    ("standard", "fixed", "Standard fixed"),
    ("standard", "randomized", "Standard randomized"),
];

/// Table 2's header: `k`, then the headings of [`COLS`].
pub fn table2_head() -> impl Iterator<Item = &'static str> {
    std::iter::once("k").chain(COLS.iter().map(|c| c.2))
}

/// Sort key of a `k` label: numbers in numeric order, then `n`.
pub fn k_order(k: &str) -> (usize, String) {
    match k.parse::<usize>() {
        Ok(v) => (v, String::new()),
        Err(_) => (usize::MAX, k.to_string()),
    }
}

/// Repetitions per point: "R" when every group has R, "R1–R2" otherwise.
pub fn reps_label<'a>(groups: impl Iterator<Item = &'a Group>) -> String {
    let (mut lo, mut hi) = (usize::MAX, 0);
    for g in groups {
        lo = lo.min(g.estimate.count);
        hi = hi.max(g.estimate.count);
    }
    match (lo, hi) {
        (usize::MAX, _) => "0".into(),
        (a, b) if a == b => a.to_string(),
        (a, b) => format!("{a}–{b}"),
    }
}

/// A run's grid points looked up as Figure 2 compares them: by learner,
/// method, order, k and n, over every dataset of the learner.
pub struct Timings {
    /// The grid points.
    pub groups: BTreeMap<GroupKey, Group>,
}

impl Timings {
    /// Mean seconds of (learner, method, order, k, n).
    pub fn seconds(&self, l: &str, m: &str, o: &str, k: &str, n: i64) -> Option<f64> {
        self.groups
            .iter()
            .find(|(kk, _)| kk.1 == l && kk.2 == m && kk.3 == o && kk.4 == k && kk.5 == n)
            .map(|(_, v)| v.seconds.mean)
    }
    /// The sizes (n) that (learner, method, k) ran at.
    pub fn ns<'a>(&'a self, l: &'a str, m: &'a str, k: &'a str) -> impl Iterator<Item = i64> + 'a {
        self.groups
            .keys()
            .filter(move |kk| kk.1 == l && kk.2 == m && kk.4 == k)
            .map(|kk| kk.5)
    }
    /// The largest n (learner, method, k) ran at.
    pub fn largest_n(&self, l: &str, m: &str, k: &str) -> Option<i64> {
        self.ns(l, m, k).max()
    }
    /// The k labels (learner, method) ran with, in numeric order.
    pub fn ks(&self, l: &str, m: &str) -> Vec<String> {
        let mut ks: Vec<String> = self
            .groups
            .keys()
            .filter(|k| k.1 == l && k.2 == m)
            .map(|k| k.4.clone())
            .collect();
        ks.sort_by_key(|k| k_order(k));
        ks.dedup();
        ks
    }
    /// The learners, in key order (a learner on several datasets may repeat).
    pub fn learners(&self) -> Vec<String> {
        let mut v: Vec<String> = self.groups.keys().map(|k| k.1.clone()).collect();
        v.dedup();
        v
    }
    /// Every repetition's seconds of (learner, method, order, k, n).
    pub fn runs(&self, l: &str, m: &str, o: &str, k: &str, n: i64) -> Option<Sample> {
        self.groups
            .iter()
            .find(|(kk, _)| kk.1 == l && kk.2 == m && kk.3 == o && kk.4 == k && kk.5 == n)
            .map(|(_, v)| Sample::Runs(v.seconds_runs.clone()))
    }
    /// standard / TreeCV time at the largest n where both ran, per k
    /// (numeric order), as a ratio of medians with its interval by the one
    /// evidence rule.
    pub fn speedups(&self, l: &str, o: &str) -> Vec<(String, i64, Ratio)> {
        self.ks(l, "standard")
            .into_iter()
            .filter(|k| k != "n")
            .filter_map(|k| {
                let n = self.largest_n(l, "standard", &k)?;
                let r = evidence::ratio(
                    &self.runs(l, "standard", o, &k, n)?,
                    &self.runs(l, "treecv", o, &k, n)?,
                );
                Some((k, n, r))
            })
            .collect()
    }
    /// randomized / fixed time of (method, k) at n: a ratio of medians
    /// with its interval by the one evidence rule.
    pub fn rand_factor(&self, l: &str, m: &str, k: &str, n: i64) -> Option<Ratio> {
        Some(evidence::ratio(
            &self.runs(l, m, "randomized", k, n)?,
            &self.runs(l, m, "fixed", k, n)?,
        ))
    }
    /// Repetitions per grid point (see [`reps_label`]).
    pub fn reps(&self) -> String {
        reps_label(self.groups.values())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::rows::{from_records, to_records};
    use crate::results::{Record, Value};

    #[test]
    fn records_keep_their_columns_after_the_core_ones() {
        let row = TreecvRow {
            core: Core {
                kind: "treecv".into(),
                rep: Some(2),
                seed: u64::MAX.to_string(),
                dataset: "a9a".into(),
                method: "treecv".into(),
                seconds: 0.5,
                ..Core::default()
            },
            learner: "pegasos".into(),
            k: "n".into(),
            k_value: 100,
            n: 100,
            estimate: 0.25,
            updates: 700,
            passes: 7.0,
            ..TreecvRow::default()
        };
        let recs = to_records(std::slice::from_ref(&row)).unwrap();
        let names: Vec<&str> = recs[0].0.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names[9..],
            [
                "learner",
                "learner_params",
                "loss",
                "order",
                "k",
                "k_value",
                "n",
                "d",
                "estimate",
                "updates",
                "passes",
                "copies",
                "peak_models"
            ]
        );
        assert_eq!(recs[0].get("updates"), Some(&Value::Int(700)));
        assert_eq!(recs[0].get("passes"), Some(&Value::Float(7.0)));
        assert_eq!(from_records::<TreecvRow>(&recs).unwrap(), vec![row]);
        // A record written before the core columns, with counts as floats.
        let old = Record::new()
            .with("dataset", "a9a")
            .with("synthetic", true)
            .with("learner", "lsqsgd")
            .with("rep", 3i64)
            .with("updates", 4.0)
            .with("peak_models", 1.0);
        let back = &from_records::<TreecvRow>(&[old]).unwrap()[0];
        assert_eq!((back.core.rep, back.core.synthetic), (Some(3), true));
        assert_eq!((back.updates, back.peak_models, back.copies), (4, 1, 0));
        assert!(from_records::<TreecvRow>(&[Record::new().with("n", 1.5)]).is_err());
    }
}
