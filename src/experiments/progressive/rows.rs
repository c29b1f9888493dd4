//! The progressive kind's record rows: one typed [`Row`] shape for every
//! study, turned into harness records (and back) by the generic
//! [`to_records`](crate::results::rows::to_records) / [`from_records`]
//! path.

use serde::{Deserialize, Serialize};

use std::collections::BTreeMap;

use super::paper::{summarize, BklRecord, BklSummary, Procedure, TieKind};
use super::theorems::{KFoldRecord, ProgressiveRecord};
use crate::results::rows::{from_records, minus_one, nan_none, Core};
use crate::results::{Record, ResultsError};

/// One record row: the shared [`Core`] columns, then the columns of the
/// progressive studies; every study fills the ones that apply to it (a
/// missing number is `None`, stored as `-1` or NaN).
///
/// Core: `rep` is the repetition, `dataset` the population (as
/// `population`), `synthetic` whether it is the synthetic problem, `method`
/// the procedure (as `procedure`); no cell is timed (`seconds` is NaN).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Row {
    /// The shared columns.
    #[serde(flatten)]
    pub core: Core,
    /// `figure1`, `table`, `delay`, `kfold`, `progressive_check`,
    /// `stream` (one row per checkpoint) or `stream_summary`.
    pub study: String,
    /// Population / dataset name.
    pub population: String,
    /// Learner name.
    pub learner: String,
    /// Procedure (`hold_out`, `progressive`, `kfold`).
    pub procedure: String,
    /// Tie rule (`half`, `random`, or `""`).
    pub tie: String,
    /// Data set size.
    #[serde(with = "minus_one")]
    pub n: Option<i64>,
    /// Training points before the test set.
    #[serde(with = "minus_one")]
    pub n_train: Option<i64>,
    /// Test / progressive / hold-out size.
    #[serde(with = "minus_one")]
    pub s: Option<i64>,
    /// Folds.
    #[serde(with = "minus_one")]
    pub k: Option<i64>,
    /// Progressive delay.
    #[serde(with = "minus_one")]
    pub delay: Option<i64>,
    /// Stream position (points learnt).
    #[serde(with = "minus_one")]
    pub t: Option<i64>,
    /// The procedure's estimate (stream: running progressive loss).
    #[serde(with = "nan_none")]
    pub estimate: Option<f64>,
    /// Exact / test-set true error of the produced hypothesis.
    #[serde(with = "nan_none")]
    pub true_error: Option<f64>,
    /// True error measured on fresh examples.
    #[serde(with = "nan_none")]
    pub true_fresh: Option<f64>,
    /// Hold-out estimate (k-fold: fold 1; progressive check / stream: plain hold-out).
    #[serde(with = "nan_none")]
    pub holdout_estimate: Option<f64>,
    /// True error of the hold-out hypothesis.
    #[serde(with = "nan_none")]
    pub holdout_true: Option<f64>,
    /// `ê'_P`: the progressive hypothesis on `s` fresh points.
    #[serde(with = "nan_none")]
    pub fresh_estimate: Option<f64>,
    /// Stream: test error at `t` (summary: of the final model).
    #[serde(with = "nan_none")]
    pub test_error: Option<f64>,
    /// Survivors (BKL).
    #[serde(with = "minus_one")]
    pub survivors: Option<i64>,
}

impl Row {
    /// A row of cell `core` (kind, run, cell and seed filled): the core
    /// columns that follow from the study's columns are set here — `rep`,
    /// `dataset` (the population), `synthetic` (from the population's name)
    /// and `method` (the procedure).
    pub fn new(core: Core, rep: usize, population: String, procedure: &str) -> Row {
        Row {
            core: Core {
                rep: Some(rep as i64),
                dataset: population.clone(),
                synthetic: population.contains("synthetic"),
                method: procedure.to_string(),
                ..core
            },
            population,
            procedure: procedure.to_string(),
            ..Row::default()
        }
    }

    /// The repetition (0 when missing).
    pub fn rep(&self) -> usize {
        count(self.core.rep)
    }

    /// `population / learner`, the key the theorem tables group by.
    pub fn population_learner(&self) -> String {
        format!("{} / {}", self.population, self.learner)
    }

    /// A BKL row (figure 1, table, delay) as the paper module's record;
    /// `None` for another procedure or tie rule.
    pub fn bkl(&self) -> Option<BklRecord> {
        let procedure = match self.procedure.as_str() {
            "hold_out" => Procedure::HoldOut,
            "progressive" => Procedure::Progressive,
            _ => return None,
        };
        let tie = match self.tie.as_str() {
            "half" => TieKind::Half,
            "random" => TieKind::Random,
            _ => return None,
        };
        Some(BklRecord {
            procedure,
            n_train: count(self.n_train),
            s: count(self.s),
            delay: count(self.delay),
            rep: self.rep(),
            tie,
            estimate: value(self.estimate),
            true_exact: value(self.true_error),
            true_fresh: value(self.true_fresh),
            survivors: count(self.survivors),
        })
    }
}

/// Stored records as rows (records of runs made before the core columns
/// existed read too: their missing core columns take their defaults).
pub fn read_rows(records: &[Record]) -> Result<Vec<Row>, ResultsError> {
    from_records(records)
}

/// The rows of one study.
pub fn study<'a>(rows: &'a [Row], name: &str) -> Vec<&'a Row> {
    rows.iter().filter(|r| r.study == name).collect()
}

/// The feature count `N` of BKL rows, read from their population's name
/// (`synthetic-bkl(N=1000)`); 1000 when none names it.
pub fn n_features_of(rows: &[&Row]) -> usize {
    rows.iter()
        .find_map(|r| {
            let p = &r.population;
            let start = p.find("N=")? + 2;
            let end = p[start..].find(|c: char| !c.is_ascii_digit())? + start;
            p[start..end].parse().ok()
        })
        .unwrap_or(1000)
}

/// Summaries of BKL rows per (procedure, sizes, delay, tie rule).
pub fn bkl_summaries(rows: &[&Row]) -> Vec<BklSummary> {
    let recs: Vec<BklRecord> = rows.iter().filter_map(|r| r.bkl()).collect();
    summarize(&recs, n_features_of(rows))
}

/// k-fold check rows grouped by population / learner.
pub fn kfold_groups<'a>(
    rows: impl IntoIterator<Item = &'a Row>,
) -> BTreeMap<String, Vec<KFoldRecord>> {
    let mut groups: BTreeMap<String, Vec<KFoldRecord>> = BTreeMap::new();
    for r in rows {
        groups
            .entry(r.population_learner())
            .or_default()
            .push(KFoldRecord {
                n: count(r.n),
                k: count(r.k),
                rep: r.rep(),
                est_k: value(r.estimate),
                true_k: value(r.true_error),
                est_1: value(r.holdout_estimate),
                true_1: value(r.holdout_true),
            });
    }
    groups
}

/// Progressive-check rows grouped by (population / learner, n_train, s).
pub fn pv_groups<'a>(
    rows: impl IntoIterator<Item = &'a Row>,
) -> BTreeMap<(String, usize, usize), Vec<ProgressiveRecord>> {
    let mut groups: BTreeMap<(String, usize, usize), Vec<ProgressiveRecord>> = BTreeMap::new();
    for r in rows {
        let (n_train, s) = (count(r.n_train), count(r.s));
        groups
            .entry((r.population_learner(), n_train, s))
            .or_default()
            .push(ProgressiveRecord {
                n_train,
                s,
                rep: r.rep(),
                est_p: value(r.estimate),
                true_p: value(r.true_error),
                fresh_p: value(r.fresh_estimate),
                est_ho: value(r.holdout_estimate),
                true_ho: value(r.holdout_true),
            });
    }
    groups
}

/// A stored count as `usize` (a missing one as 0).
pub(super) fn count(x: Option<i64>) -> usize {
    x.map_or(0, |v| v.max(0) as usize)
}

/// A stored number (a missing one as NaN, which propagates into summaries).
pub(super) fn value(x: Option<f64>) -> f64 {
    x.unwrap_or(f64::NAN)
}

/// A computed number as a column value (NaN, stored as NaN, is `None`).
pub(super) fn finite(x: f64) -> Option<f64> {
    Some(x).filter(|v| v.is_finite())
}

/// The procedure's name in records (`hold_out`, `progressive`).
pub(super) fn procedure_name(p: Procedure) -> &'static str {
    match p {
        Procedure::HoldOut => "hold_out",
        Procedure::Progressive => "progressive",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::rows::to_records;
    use crate::results::table::{from_frame, to_frame};
    use crate::results::Value;

    /// The columns of a progressive record before the core columns existed.
    const OLD_COLUMNS: [&str; 21] = [
        "study",
        "population",
        "synthetic",
        "learner",
        "procedure",
        "tie",
        "n",
        "n_train",
        "s",
        "k",
        "delay",
        "rep",
        "t",
        "estimate",
        "true_error",
        "true_fresh",
        "holdout_estimate",
        "holdout_true",
        "fresh_estimate",
        "test_error",
        "survivors",
    ];

    fn bkl_row() -> Row {
        Row {
            study: "table".into(),
            learner: "eliminator(tie=half)".into(),
            tie: "half".into(),
            n: Some(15),
            n_train: Some(5),
            s: Some(10),
            delay: Some(0),
            estimate: Some(0.2),
            true_error: Some(0.25),
            survivors: Some(3),
            ..Row::new(
                Core {
                    seed: u64::MAX.to_string(),
                    seconds: f64::NAN,
                    ..Core::default()
                },
                7,
                "synthetic-bkl(N=1000)".into(),
                "hold_out",
            )
        }
    }

    #[test]
    fn rows_keep_the_old_columns_in_order_after_the_core_and_read_back() {
        let row = bkl_row();
        assert_eq!(
            (
                row.core.rep,
                row.core.dataset.as_str(),
                row.core.synthetic,
                row.core.method.as_str()
            ),
            (Some(7), "synthetic-bkl(N=1000)", true, "hold_out")
        );
        let recs = to_records(std::slice::from_ref(&row)).unwrap();
        let names: Vec<&str> = recs[0].0.iter().map(|(n, _)| n.as_str()).collect();
        // The core columns first, in their order.
        let core = to_records(&[Core::default()]).unwrap();
        let core: Vec<&str> = core[0].0.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names[..core.len()], core[..]);
        let old: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| OLD_COLUMNS.contains(n))
            .collect();
        let old_in_order: Vec<&str> = OLD_COLUMNS
            .iter()
            .copied()
            .filter(|n| !matches!(*n, "rep" | "synthetic"))
            .collect();
        assert_eq!(names[core.len()..], old_in_order[..]);
        assert_eq!(old.len(), OLD_COLUMNS.len());
        assert_eq!(recs[0].get("k"), Some(&Value::Int(-1)));
        assert!(matches!(recs[0].get("true_fresh"), Some(Value::Float(x)) if x.is_nan()));
        // Through a frame and back, as the report reads stored runs.
        let back = read_rows(&from_frame(&to_frame(&recs).unwrap()).unwrap()).unwrap();
        assert!(back[0].core.seconds.is_nan());
        let same = |r: &Row| Row {
            core: Core {
                seconds: 0.0,
                ..r.core.clone()
            },
            ..r.clone()
        };
        assert_eq!(same(&back[0]), same(&row));
        // A record stored before the core columns existed reads too.
        let mut stored = recs[0].clone();
        stored.0.retain(|(n, _)| OLD_COLUMNS.contains(&n.as_str()));
        let old_row = &read_rows(&[stored]).unwrap()[0];
        assert_eq!(old_row.core.rep, Some(7));
        assert!(old_row.core.synthetic && old_row.core.kind.is_empty());
        assert_eq!((old_row.n_train, old_row.k), (Some(5), None));
        assert_eq!(old_row.bkl().unwrap().n_train, 5);
    }
}
