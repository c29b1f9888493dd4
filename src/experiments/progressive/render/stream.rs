//! Progressive validation on data streams: the running progressive loss
//! figure, `stream.csv` and its Markdown table, from the stored stream rows.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::super::rows::{value, Row};
use super::out::Out;
use crate::experiments::ExperimentError;
use crate::results::figures::{Figure, Panel, Series, Style};
use crate::results::md_table::MdTable;
use crate::results::rows::{minus_one, nan_none};

/// One row of `stream.csv`: a stream summary.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StreamTableRow {
    /// The stream.
    pub dataset: String,
    /// The learner.
    pub learner: String,
    /// Stream length.
    #[serde(with = "minus_one")]
    pub n: Option<i64>,
    /// Repetition (stream order).
    #[serde(with = "minus_one")]
    pub rep: Option<i64>,
    /// Progressive estimate over the whole stream.
    #[serde(with = "nan_none")]
    pub progressive_estimate: Option<f64>,
    /// Test loss of the progressive hypothesis (sampled members).
    #[serde(with = "nan_none")]
    pub progressive_hypothesis_test_loss: Option<f64>,
    /// Its standard error over the sampled members.
    #[serde(with = "nan_none")]
    pub progressive_hypothesis_test_loss_se: Option<f64>,
    /// Test loss of the model after the whole stream.
    #[serde(with = "nan_none")]
    pub final_model_test_loss: Option<f64>,
    /// Hold-out size.
    #[serde(with = "minus_one")]
    pub holdout_size: Option<i64>,
    /// Hold-out estimate.
    #[serde(with = "nan_none")]
    pub holdout_estimate: Option<f64>,
    /// Test loss of the hold-out hypothesis.
    #[serde(with = "nan_none")]
    pub holdout_hypothesis_test_loss: Option<f64>,
}

impl From<&Row> for StreamTableRow {
    fn from(s: &Row) -> StreamTableRow {
        StreamTableRow {
            dataset: s.population.clone(),
            learner: s.learner.clone(),
            n: s.n,
            rep: s.core.rep,
            progressive_estimate: s.estimate,
            progressive_hypothesis_test_loss: s.true_error,
            progressive_hypothesis_test_loss_se: s.true_fresh,
            final_model_test_loss: s.test_error,
            holdout_size: s.s,
            holdout_estimate: s.holdout_estimate,
            holdout_hypothesis_test_loss: s.holdout_true,
        }
    }
}

/// Four decimals of a stored number (`NaN` when missing).
fn f4(x: Option<f64>) -> String {
    format!("{:.4}", value(x))
}

/// A stored count (`-1` when missing).
fn int(x: Option<i64>) -> String {
    x.unwrap_or(-1).to_string()
}

/// The stream figure (repetition 0 of each stream and learner), `stream.csv`
/// and the Markdown table of the stream summaries.
pub(super) fn stream_section(
    out: &mut Out,
    rows: &[&Row],
    summaries: &[&Row],
) -> Result<(), ExperimentError> {
    let run = out.run;
    let mut groups: BTreeMap<(String, String), Vec<&Row>> = BTreeMap::new();
    for r in rows {
        groups
            .entry((r.population.clone(), r.learner.clone()))
            .or_default()
            .push(r);
    }
    let mut panels = Vec::new();
    for ((data, learner), pts) in &groups {
        panels.push(stream_panel(data, learner, pts, summaries));
    }
    let cols = panels.len().clamp(1, 2);
    let fig = Figure {
        title: format!("Progressive validation on data streams — run `{run}`"),
        caption: "real data; one pass of each learner over a seeded random order; markers at log-spaced checkpoints; horizontal lines: the hold-out estimate (dashed, filled squares; train on the first 90%, test on the last 10%) and its hypothesis' test-set loss (solid, hollow diamonds), their markers at alternate checkpoints so that both show where they overlap".into(),
        rows: panels.len().div_ceil(cols),
        cols,
        panels,
    };
    out.figure(&fig, "stream")?;
    let table: Vec<StreamTableRow> = summaries.iter().map(|s| StreamTableRow::from(*s)).collect();
    out.table(&table, "stream")?;
    let _ = writeln!(out.md, "**Progressive validation on streams** — one pass of each learner over a random order of the training set; the running progressive loss (each model tested on the next point before learning it), the test-set loss of the current model at log-spaced checkpoints, and a hold-out estimate (train on the first 90%, test on the last 10%).\n\n![Streams, run {run}]({run}/stream.svg)\n");
    let mut t = MdTable::new([
        "dataset",
        "learner",
        "n",
        "progressive estimate",
        "test loss of the progressive hypothesis (sampled members ± s.e.)",
        "final model test loss",
        "hold-out estimate",
        "hold-out hypothesis test loss",
    ]);
    for s in summaries {
        t.row([
            s.population.clone(),
            s.learner.clone(),
            int(s.n),
            f4(s.estimate),
            format!("{} ± {}", f4(s.true_error), f4(s.true_fresh)),
            f4(s.test_error),
            f4(s.holdout_estimate),
            f4(s.holdout_true),
        ]);
    }
    out.md_table(&t);
    Ok(())
}

/// One panel: repetition 0 of `learner` on `data` (running progressive loss
/// and current test loss at the checkpoints; the hold-out lines from the
/// summary).
fn stream_panel(data: &str, learner: &str, pts: &[&Row], summaries: &[&Row]) -> Panel {
    let rep0: Vec<&Row> = pts
        .iter()
        .copied()
        .filter(|r| r.core.rep == Some(0))
        .collect();
    let sum = summaries
        .iter()
        .find(|r| r.population == data && r.learner == learner && r.core.rep == Some(0));
    let x = |r: &Row| (r.t.unwrap_or(-1) + 1) as f64;
    let xs: Vec<f64> = rep0.iter().map(|r| x(r)).collect();
    let (x0, x1) = (
        xs.first().copied().unwrap_or(1.0),
        xs.last().copied().unwrap_or(1.0),
    );
    let line = |label: String, points: Vec<(f64, f64, f64)>, i: usize| Series {
        bars: false,
        label,
        points,
        color: i,
        marker: i,
    };
    let mut series = vec![
        line(
            "running progressive loss".into(),
            rep0.iter()
                .map(|r| (x(r), value(r.estimate), 0.0))
                .collect(),
            0,
        ),
        line(
            "test-set loss of the current model".into(),
            rep0.iter()
                .map(|r| (x(r), value(r.test_error), 0.0))
                .collect(),
            1,
        ),
    ];
    if let Some(s) = sum {
        let (ho, ht) = (value(s.holdout_estimate), value(s.holdout_true));
        // Two horizontal lines that often nearly coincide: markers at
        // alternate checkpoints (even for the estimate, odd for the
        // hypothesis' loss) so that both stay visible where they overlap.
        let at = |y: f64, odd: bool| -> Vec<(f64, f64, f64)> {
            let mut v: Vec<(f64, f64, f64)> = xs
                .iter()
                .enumerate()
                .filter(|(i, _)| (i % 2 == 1) == odd)
                .map(|(_, x)| (*x, y, 0.0))
                .collect();
            if v.first().is_none_or(|p| p.0 > x0) {
                v.insert(0, (x0, y, 0.0));
            }
            if v.last().is_none_or(|p| p.0 < x1) {
                v.push((x1, y, 0.0));
            }
            v
        };
        series.push(line(
            format!("hold-out estimate (last {} points)", int(s.s)),
            at(ho, false),
            2,
        ));
        // A diamond, drawn hollow (a cross has no inside).
        series.push(Series {
            marker: 4,
            ..line(
                "test-set loss of the hold-out hypothesis".into(),
                at(ht, true),
                3,
            )
        });
    }
    // The hold-out estimate dashed with filled markers, its hypothesis'
    // loss solid with hollow ones: style and marker, not colour alone.
    let styles = (0..series.len())
        .map(|i| Style {
            dashed: i == 2,
            thin: false,
            hollow: i == 3,
        })
        .collect();
    Panel {
        title: format!("{learner} on {data}, one pass (1 repetition)"),
        styles,
        x_label: "points seen (log scale)".into(),
        y_label: if learner == "lsqsgd" {
            "squared error".into()
        } else {
            "misclassification rate".into()
        },
        log_x: true,
        series,
        ..Panel::default()
    }
}
