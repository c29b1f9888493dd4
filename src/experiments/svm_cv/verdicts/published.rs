//! Wen et al.'s published numbers (`experiments/svm/published.toml`),
//! typed: Table 1 and Table 3 per paper dataset, and which of our datasets
//! stands in for which of the paper's (`[[stand_in]]`: data, not name
//! matching; a dataset not listed there, such as a user's own, is never
//! scored against the paper).

use crate::experiments::published::{parse, row, PublishedError};
use crate::experiments::svm_cv::config::PUBLISHED;
use crate::results::scorecard::DataUsed;
use serde::Deserialize;

/// The file, as errors name it.
pub const FILE: &str = "experiments/svm/published.toml";

/// The k of Table 3's columns.
pub const TABLE3_K: [&str; 3] = ["3", "10", "100"];

/// The paper's Tables 1 and 3 and the stand-ins.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Published {
    /// Table 1 (k = 10), one row per paper dataset, in the paper's order.
    pub table1: Vec<Table1Row>,
    /// Table 3: LibSVM and SIR seconds for k = 3, 10, 100.
    pub table3: Vec<Table3Row>,
    /// Which of our datasets stands in for which of the paper's.
    pub stand_in: Vec<StandIn>,
}

/// A row of Table 1: seconds, iterations and accuracy per method.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table1Row {
    /// The paper's dataset as our registry names it (`a9a`).
    pub dataset: String,
    /// As the paper names it (`Adult`).
    pub name: String,
    /// Whether the published accuracy is the majority-class rate.
    #[serde(default)]
    pub accuracy_is_majority: bool,
    /// The paper's C.
    #[serde(rename = "C")]
    pub c: f64,
    /// The paper's gamma.
    pub gamma: f64,
    /// LibSVM's seconds.
    pub libsvm_s: f64,
    /// ATO's initialization seconds.
    pub ato_init_s: f64,
    /// ATO's remaining seconds.
    pub ato_rest_s: f64,
    /// MIR's initialization seconds.
    pub mir_init_s: f64,
    /// MIR's remaining seconds.
    pub mir_rest_s: f64,
    /// SIR's initialization seconds.
    pub sir_init_s: f64,
    /// SIR's remaining seconds.
    pub sir_rest_s: f64,
    /// LibSVM's SMO iterations.
    pub libsvm_iterations: f64,
    /// ATO's.
    pub ato_iterations: f64,
    /// MIR's.
    pub mir_iterations: f64,
    /// SIR's.
    pub sir_iterations: f64,
    /// LibSVM's accuracy, %.
    pub libsvm_accuracy: f64,
    /// SIR's accuracy, %.
    pub sir_accuracy: f64,
}

impl Table1Row {
    /// Method `m`'s iterations (`libsvm`, `ato`, `mir`, `sir`).
    pub fn iterations(&self, m: &str) -> Option<f64> {
        match m {
            "libsvm" => Some(self.libsvm_iterations),
            "ato" => Some(self.ato_iterations),
            "mir" => Some(self.mir_iterations),
            "sir" => Some(self.sir_iterations),
            _ => None,
        }
    }

    /// Method `m`'s (initialization, rest) seconds; LibSVM's initialization is 0.
    pub fn seconds(&self, m: &str) -> Option<(f64, f64)> {
        match m {
            "libsvm" => Some((0.0, self.libsvm_s)),
            "ato" => Some((self.ato_init_s, self.ato_rest_s)),
            "mir" => Some((self.mir_init_s, self.mir_rest_s)),
            "sir" => Some((self.sir_init_s, self.sir_rest_s)),
            _ => None,
        }
    }

    /// The paper's SIR speed-up over LibSVM.
    pub fn sir_speedup(&self) -> f64 {
        self.libsvm_s / (self.sir_init_s + self.sir_rest_s)
    }
}

/// A row of Table 3.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table3Row {
    /// The paper's dataset as our registry names it.
    pub dataset: String,
    /// LibSVM's seconds at k = 3, 10, 100.
    pub libsvm_s: [f64; 3],
    /// SIR's seconds at k = 3, 10, 100.
    pub sir_s: [f64; 3],
}

impl Table3Row {
    /// LibSVM over SIR at column `col` of [`TABLE3_K`].
    pub fn speedup(&self, col: usize) -> Option<f64> {
        Some(self.libsvm_s.get(col)? / self.sir_s.get(col)?)
    }
}

/// One of our datasets standing in for one of the paper's.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StandIn {
    /// Our dataset's name in the records.
    pub ours: String,
    /// The paper's dataset (a [`Table1Row::dataset`]).
    pub paper: String,
    /// How it differs from the paper's data (`None`: it is the paper's).
    #[serde(default)]
    pub differs: Option<String>,
    /// Whether the paper's C and gamma on it are the paper's setting.
    #[serde(default = "yes")]
    pub paper_setting: bool,
}

fn yes() -> bool {
    true
}

impl Published {
    /// The embedded file, checked: every stand-in names a Table 1 and a
    /// Table 3 row.
    pub fn load() -> Result<Published, PublishedError> {
        let p: Published = parse(FILE, PUBLISHED)?;
        for s in &p.stand_in {
            p.table1(&s.paper)?;
            p.table3(&s.paper)?;
        }
        Ok(p)
    }

    /// Table 1's row of the paper dataset `key`.
    pub fn table1(&self, key: &str) -> Result<&Table1Row, PublishedError> {
        row(FILE, "[[table1]]", &self.table1, key, |r| &r.dataset)
    }

    /// Table 3's row of the paper dataset `key`.
    pub fn table3(&self, key: &str) -> Result<&Table3Row, PublishedError> {
        row(FILE, "[[table3]]", &self.table3, key, |r| &r.dataset)
    }

    /// The stand-in entry of our dataset `dataset` (`None`: not one of the
    /// paper's datasets nor a stand-in for one).
    pub fn stand_in(&self, dataset: &str) -> Option<&StandIn> {
        self.stand_in.iter().find(|s| s.ours == dataset)
    }

    /// The paper dataset our `dataset` stands in for.
    pub fn key_of(&self, dataset: &str) -> Option<&str> {
        self.stand_in(dataset).map(|s| s.paper.as_str())
    }

    /// Table 1's row for our `dataset` (through its stand-in entry).
    pub fn table1_for(&self, dataset: &str) -> Option<&Table1Row> {
        self.table1(self.key_of(dataset)?).ok()
    }

    /// Table 3's row for our `dataset` (through its stand-in entry).
    pub fn table3_for(&self, dataset: &str) -> Option<&Table3Row> {
        self.table3(self.key_of(dataset)?).ok()
    }

    /// What data a run's `dataset` at `setting` is, against the paper's.
    pub fn data_used(&self, dataset: &str, setting: &str) -> DataUsed {
        let differs = self.stand_in(dataset).and_then(|s| s.differs.clone());
        match (differs, setting == "paper") {
            (Some(b), true) => DataUsed::Substitute(b),
            (Some(b), false) => {
                DataUsed::Substitute(format!("{b}; setting `{setting}`, not the paper's"))
            }
            (None, true) => DataUsed::Paper(dataset.to_string()),
            (None, false) => {
                DataUsed::Substitute(format!("{dataset} at setting `{setting}`, not the paper's"))
            }
        }
    }

    /// Whether a run's (dataset, setting) is the paper's setting for the
    /// paper's dataset: labelled `paper`, on data the paper's C and gamma
    /// apply to (not MNIST pixels / 255).
    pub fn at_paper_setting(&self, dataset: &str, setting: &str) -> bool {
        setting == "paper" && self.stand_in(dataset).is_some_and(|s| s.paper_setting)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_tables_parse_typed() {
        let p = Published::load().unwrap();
        assert_eq!(p.table1.len(), 5);
        assert_eq!(p.table3.len(), 5);
        assert_eq!(p.table3("a9a").unwrap().libsvm_s, [733.0, 6783.0, 41288.0]);
        assert_eq!(
            p.table1_for("heart_scale").unwrap().libsvm_iterations,
            6988.0
        );
        assert_eq!(p.table1("heart").unwrap().name, "Heart");
        // A dataset that is no stand-in (a user's own, whatever its name) is
        // not the paper's.
        assert!(p.key_of("my-heart-data").is_none());
        assert!(p.table1_for("a9a-paper").is_none());
        let e = p.table1("covtype").unwrap_err().to_string();
        assert!(
            e.contains("experiments/svm/published.toml: no `[[table1]] dataset = \"covtype\"`"),
            "{e}"
        );
    }
}
