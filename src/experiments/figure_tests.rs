//! Every figure kind rendered from small records through its kind's render,
//! and its SVG checked for the legend: one entry per series (its label is in
//! the SVG), distinct labels and distinct styles within a panel.

use super::kinds;
use crate::config::ConfigFile;
use crate::experiments::progressive::kind::Row;
use crate::results::figures::check_rendered;
use crate::results::rows::{to_records, Core};
use crate::results::Record;
use std::path::Path;

fn render(kind: &str, dir: &Path, config: &str, records: &[Record]) -> Vec<String> {
    let k = kinds().into_iter().find(|k| k.name() == kind).unwrap();
    let cfg = ConfigFile::from_text("test.toml", config);
    k.render(dir, &cfg, records).unwrap();
    let svgs: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "svg"))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    svgs
}

fn treecv_records() -> Vec<Record> {
    let mut out = Vec::new();
    for (learner, d) in [
        ("pegasos", "covtype-like-synthetic"),
        ("lsqsgd", "msd-like-synthetic"),
    ] {
        for n in [1000i64, 5000] {
            for rep in 0..2i64 {
                for m in ["treecv", "standard"] {
                    for o in ["fixed", "randomized"] {
                        for k in ["5", "10", "100", "n"] {
                            out.push(
                                Record::new()
                                    .with("dataset", d)
                                    .with("synthetic", true)
                                    .with("learner", learner)
                                    .with("method", m)
                                    .with("order", o)
                                    .with("k", k)
                                    .with("k_value", k.parse::<i64>().unwrap_or(n))
                                    .with("n", n)
                                    .with("rep", rep)
                                    .with("estimate", 0.3 + 0.01 * rep as f64)
                                    .with("seconds", 1e-6 * n as f64 * (1.0 + rep as f64))
                                    .with("updates", 1.0)
                                    .with("passes", 1.0)
                                    .with("copies", 0.0)
                                    .with("peak_models", 1.0),
                            );
                        }
                    }
                }
            }
        }
    }
    out
}

const TREECV: &str = "kind = \"treecv\"\nname = \"t\"\nseed = 1\nrepetitions = 2\npaper_table = \"pegasos\"\n[[datasets]]\nname = \"a9a\"\n[[learners]]\ntype = \"pegasos\"\n[[grid]]\nmethods = [\"treecv\"]\norders = [\"fixed\"]\nk = [5]\n";

fn progressive_records() -> Vec<Record> {
    let row = |rep: usize, population: &str, procedure: &str| {
        Row::new(Core::default(), rep, population.into(), procedure)
    };
    let mut out = Vec::new();
    for rep in 0..20usize {
        let w = (rep % 5) as f64 * 0.01;
        for n_train in 0..4i64 {
            for (p, base) in [("hold_out", 0.45), ("progressive", 0.3)] {
                for tie in ["half", "random"] {
                    let t = base - 0.05 * n_train as f64 + w;
                    out.push(Row {
                        study: "figure1".into(),
                        learner: "eliminator".into(),
                        tie: tie.into(),
                        n_train: Some(n_train),
                        s: Some(10),
                        delay: Some(0),
                        estimate: Some(t + 0.02),
                        true_error: Some(t),
                        true_fresh: Some(t),
                        survivors: Some(3),
                        ..row(rep, "synthetic-bkl(N=1000,tie=half)", p)
                    });
                }
            }
        }
        for k in [3i64, 5] {
            out.push(Row {
                study: "kfold".into(),
                learner: "eliminator".into(),
                n: Some(15),
                k: Some(k),
                estimate: Some(0.2 + w),
                true_error: Some(0.21),
                holdout_estimate: Some(0.2 + 2.0 * w),
                holdout_true: Some(0.22),
                ..row(rep, "synthetic-bkl(N=1000,tie=half)", "")
            });
        }
    }
    for t in [0i64, 9, 99] {
        out.push(Row {
            study: "stream".into(),
            learner: "pegasos".into(),
            t: Some(t),
            estimate: Some(0.3),
            test_error: Some(0.25),
            ..row(0, "a9a", "")
        });
    }
    out.push(Row {
        study: "stream_summary".into(),
        learner: "pegasos".into(),
        n: Some(100),
        s: Some(10),
        estimate: Some(0.3),
        true_error: Some(0.25),
        true_fresh: Some(0.01),
        test_error: Some(0.24),
        holdout_estimate: Some(0.28),
        holdout_true: Some(0.26),
        ..row(0, "a9a", "")
    });
    to_records(&out).unwrap()
}

const PROGRESSIVE: &str = "kind = \"progressive\"\nname = \"p\"\nseed = 1\n";

fn svm_records() -> Vec<Record> {
    let mut out = Vec::new();
    let methods = [
        "ours",
        "ours_shared_parallel",
        "libsvm",
        "sir",
        "mir",
        "avg",
        "top",
        "ato",
        "tree",
    ];
    for k in ["3", "10", "n"] {
        let kv: i64 = k.parse().unwrap_or(20);
        for m in methods {
            if k != "n" && matches!(m, "avg" | "top") {
                continue;
            }
            for fold in 0..kv.min(3) {
                out.push(
                    Record::new()
                        .with("dataset", "heart_scale")
                        .with("setting", "paper")
                        .with("k", k)
                        .with("k_value", kv)
                        .with("method", m)
                        .with("fold", fold)
                        .with("correct", 5i64)
                        .with("iterations", 100.0)
                        .with("objective", -10.0)
                        .with("n_sv", 10.0)
                        .with("init_s", 0.001)
                        .with(
                            "train_s",
                            0.01 * (1 + methods.iter().position(|x| *x == m).unwrap_or(0)) as f64,
                        )
                        .with("predict_s", 0.001)
                        .with("seed_s", if m == "ours" { 0.0 } else { 0.001 })
                        .with("cv_accuracy_pct", 80.0)
                        .with("majority_pct", 55.0)
                        .with("cell_wall_s", 0.1)
                        .with("wrong_rows", "1 2"),
                );
            }
        }
    }
    out
}

const SVM: &str = "kind = \"svm_cv\"\nname = \"s\"\nseed = 1\nfolds = \"libsvm\"\nk = [3, 10]\nmethods = [\"ours\"]\n[[datasets]]\nname = \"heart_scale\"\n[[settings]]\nlabel = \"paper\"\nc = 1\ngamma = 0.5\n";

#[test]
fn every_figure_kind_has_one_legend_entry_per_series_and_distinct_styles() {
    let _ = check_rendered();
    let mut all = Vec::new();
    for (kind, config, records, expect) in [
        ("treecv", TREECV, treecv_records(), &["figure2.svg"][..]),
        (
            "progressive",
            PROGRESSIVE,
            progressive_records(),
            &["figure1.svg", "theorem3.svg", "stream.svg"][..],
        ),
        (
            "svm_cv",
            SVM,
            svm_records(),
            &["time_vs_k.svg", "loocv_relative_to_sir.svg"][..],
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let svgs = render(kind, dir.path(), config, &records);
        for e in expect {
            assert!(svgs.iter().any(|s| s == e), "{kind}: no {e} among {svgs:?}");
        }
        all.extend(svgs);
        let problems = check_rendered();
        assert!(problems.is_empty(), "{kind}: {problems:#?}");
    }
    // A Table 2 run (one n) draws the Table 2 figure.
    let dir = tempfile::tempdir().unwrap();
    let one_n: Vec<Record> = treecv_records()
        .into_iter()
        .filter(|r| r.number("n") == 1000.0 && r.text("learner") == "pegasos")
        .collect();
    let svgs = render("treecv", dir.path(), TREECV, &one_n);
    assert!(svgs.iter().any(|s| s == "table2.svg"), "{svgs:?}");
    let problems = check_rendered();
    assert!(problems.is_empty(), "table2: {problems:#?}");
    assert!(all.len() >= 6);
}
