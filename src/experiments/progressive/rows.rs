//! The progressive kind's record rows: one [`Row`] shape for every study,
//! and its conversion to and from harness records.

use super::paper::Procedure;
use crate::results::Record;

/// One record row; every study fills the columns that apply to it.
#[derive(Clone, Debug)]
pub struct Row {
    /// `figure1`, `table`, `delay`, `kfold`, `progressive_check`,
    /// `stream` (one row per checkpoint) or `stream_summary`.
    pub study: String,
    /// Population / dataset name.
    pub population: String,
    /// Learner name.
    pub learner: String,
    /// Procedure (`hold_out`, `progressive`, `kfold`, `stream`).
    pub procedure: String,
    /// Tie rule (`half`, `random`, or `""`).
    pub tie: String,
    /// Data set size.
    pub n: i64,
    /// Training points before the test set.
    pub n_train: i64,
    /// Test / progressive / hold-out size.
    pub s: i64,
    /// Folds.
    pub k: i64,
    /// Progressive delay.
    pub delay: i64,
    /// Repetition.
    pub rep: i64,
    /// Stream position (points learnt).
    pub t: i64,
    /// The procedure's estimate (stream: running progressive loss).
    pub estimate: f64,
    /// Exact / test-set true error of the produced hypothesis.
    pub true_error: f64,
    /// True error measured on fresh examples.
    pub true_fresh: f64,
    /// Hold-out estimate (k-fold: fold 1; progressive check / stream: plain hold-out).
    pub holdout_estimate: f64,
    /// True error of the hold-out hypothesis.
    pub holdout_true: f64,
    /// `ê'_P`: the progressive hypothesis on `s` fresh points.
    pub fresh_estimate: f64,
    /// Stream: test error at `t` (summary: of the final model).
    pub test_error: f64,
    /// Survivors (BKL), or -1.
    pub survivors: i64,
}

impl Default for Row {
    fn default() -> Self {
        Row {
            study: String::new(),
            population: String::new(),
            learner: String::new(),
            procedure: String::new(),
            tie: String::new(),
            n: -1,
            n_train: -1,
            s: -1,
            k: -1,
            delay: -1,
            rep: -1,
            t: -1,
            estimate: f64::NAN,
            true_error: f64::NAN,
            true_fresh: f64::NAN,
            holdout_estimate: f64::NAN,
            holdout_true: f64::NAN,
            fresh_estimate: f64::NAN,
            test_error: f64::NAN,
            survivors: -1,
        }
    }
}

impl Row {
    /// As a harness record.
    pub fn record(&self) -> Record {
        Record::new()
            .with("study", self.study.as_str())
            .with("population", self.population.as_str())
            .with("synthetic", self.population.contains("synthetic"))
            .with("learner", self.learner.as_str())
            .with("procedure", self.procedure.as_str())
            .with("tie", self.tie.as_str())
            .with("n", self.n)
            .with("n_train", self.n_train)
            .with("s", self.s)
            .with("k", self.k)
            .with("delay", self.delay)
            .with("rep", self.rep)
            .with("t", self.t)
            .with("estimate", self.estimate)
            .with("true_error", self.true_error)
            .with("true_fresh", self.true_fresh)
            .with("holdout_estimate", self.holdout_estimate)
            .with("holdout_true", self.holdout_true)
            .with("fresh_estimate", self.fresh_estimate)
            .with("test_error", self.test_error)
            .with("survivors", self.survivors)
    }

    /// Back from a stored record (missing columns keep their defaults).
    pub fn from_record(r: &Record) -> Row {
        use crate::results::Value;
        let s = |c: &str| match r.get(c) {
            Some(Value::Str(x)) => x.clone(),
            _ => String::new(),
        };
        let i = |c: &str| match r.get(c) {
            Some(Value::Int(x)) => *x,
            Some(Value::Float(x)) if x.is_finite() => *x as i64,
            _ => -1,
        };
        let f = |c: &str| match r.get(c) {
            Some(Value::Float(x)) => *x,
            Some(Value::Int(x)) => *x as f64,
            _ => f64::NAN,
        };
        Row {
            study: s("study"),
            population: s("population"),
            learner: s("learner"),
            procedure: s("procedure"),
            tie: s("tie"),
            n: i("n"),
            n_train: i("n_train"),
            s: i("s"),
            k: i("k"),
            delay: i("delay"),
            rep: i("rep"),
            t: i("t"),
            estimate: f("estimate"),
            true_error: f("true_error"),
            true_fresh: f("true_fresh"),
            holdout_estimate: f("holdout_estimate"),
            holdout_true: f("holdout_true"),
            fresh_estimate: f("fresh_estimate"),
            test_error: f("test_error"),
            survivors: i("survivors"),
        }
    }
}

/// The procedure's name in records (`hold_out`, `progressive`).
pub(super) fn procedure_name(p: Procedure) -> &'static str {
    match p {
        Procedure::HoldOut => "hold_out",
        Procedure::Progressive => "progressive",
    }
}
