//! Issue 43: verdicts a reviewer can sign. The papers' published numbers
//! load through one typed loader with one error policy, and which of our
//! datasets stands in for which of the paper's is data.

use cvbench::experiments::published::{parse, PublishedError};
use cvbench::experiments::svm_cv::verdicts::published::Published as WenPublished;
use cvbench::results::scorecard::DataUsed;

/// Every paper's embedded published file loads into its typed schema.
#[test]
fn every_published_file_loads_typed() {
    let wen = WenPublished::load().expect("experiments/svm/published.toml");
    assert_eq!(wen.table1.len(), 5);
    cvbench::experiments::treecv::verdicts::published::Published::load()
        .unwrap_or_else(|e| panic!("{e}"));
    cvbench::experiments::svm_grid::verdicts::published::Published::load()
        .unwrap_or_else(|e| panic!("{e}"));
}

/// A broken published file is an error naming the file and the key, never
/// an empty table (the svm published file used to load as empty tables,
/// and every number read from them as NaN).
#[test]
fn a_broken_published_file_names_the_file_and_the_key() {
    let text =
        include_str!("../experiments/svm/published.toml").replacen("libsvm_s = 6783.0\n", "", 1);
    let e = parse::<WenPublished>("experiments/svm/published.toml", &text).unwrap_err();
    let PublishedError::Parse { file, message } = &e else {
        panic!("{e:?}");
    };
    assert_eq!(*file, "experiments/svm/published.toml");
    assert!(message.contains("libsvm_s"), "{message}");
}

/// Stand-ins are data: the paper's datasets and the listed substitutes are
/// scored, a dataset whose name merely contains a paper dataset's (a user's
/// own `my-heart-data`, `mnist-5k-mine`) is not.
#[test]
fn stand_ins_are_data_not_substring_matches() {
    let p = WenPublished::load().unwrap();
    assert_eq!(p.key_of("heart_scale"), Some("heart"));
    assert_eq!(p.key_of("mnist-raw-5k"), Some("mnist"));
    assert_eq!(p.key_of("my-heart-data"), None);
    assert_eq!(p.key_of("mnist-5k-mine"), None);
    assert!(matches!(p.data_used("a9a", "paper"), DataUsed::Paper(_)));
    assert!(matches!(
        p.data_used("mnist-even-odd-5k", "paper"),
        DataUsed::Substitute(w) if w.contains("pixels / 255")
    ));
    assert!(!p.at_paper_setting("mnist-even-odd-5k", "paper"));
    assert!(p.at_paper_setting("mnist-raw-5k", "paper"));
}

/// One evidence rule for every timing verdict: a ratio counts when its
/// interval lies on one side of the threshold, a cell timed once has no
/// interval, and there is no floor on seconds.
#[test]
fn the_evidence_rule_decides_by_the_interval_not_by_seconds() {
    use cvbench::experiments::evidence::{ratio, Sample, Side};
    use cvbench::experiments::timing::Spread;
    let s = |median: f64, min: f64, max: f64, repeats: u64| {
        Sample::from(Spread {
            median,
            min,
            max,
            repeats,
            runs: vec![],
        })
    };
    // Milliseconds, ranges apart: decided (the old 0.5 s floor said "not run").
    let fast = ratio(&s(0.006, 0.0058, 0.0062, 5), &s(0.003, 0.0029, 0.0031, 5));
    assert_eq!(fast.side(1.0), Side::Above);
    // Overlapping ranges: inconclusive, whatever the medians say.
    let overlap = ratio(&s(10.4, 8.9, 11.1, 5), &s(10.2, 9.5, 12.6, 5));
    assert_eq!(overlap.side(1.0), Side::Inconclusive);
    // Timed once: no interval, however large the ratio.
    let once = ratio(&s(3086.0, 3086.0, 3086.0, 1), &s(41.4, 40.0, 43.0, 5));
    assert_eq!(once.side(20.0), Side::Inconclusive);
    assert!(once.words().contains("timed once"));
}

/// The headline counts paper artifacts only; checks of ours (against a
/// peer program as it is today, our own speed targets) are counted apart,
/// and "inconclusive" is a verdict of its own, not "not run".
#[test]
fn the_headline_counts_checks_apart_and_inconclusive_on_its_own() {
    use cvbench::results::scorecard::{headline, Counted, ScoreRow, Verdict};
    let row = |artifact: &str, verdict: Verdict, counted: Counted| ScoreRow {
        paper: "P".into(),
        artifact: artifact.into(),
        paper_value: String::new(),
        ours: String::new(),
        data: DataUsed::None,
        verdict,
        rule: "r".into(),
        section: "s".into(),
        counted,
    };
    let rows = [
        row(
            "Table 1, Heart: SIR row",
            Verdict::Inconclusive,
            Counted::Paper,
        ),
        row("Table 1, Heart: ATO row", Verdict::NotRun, Counted::Paper),
        row("cvbench grid, a9a", Verdict::Reproduced, Counted::Check),
    ];
    let h = headline(&rows);
    assert!(
        h.contains("1 artifacts (1 with at least one sub-row run), 2 claims judged (2 sub-rows;"),
        "{h}"
    );
    assert!(h.contains("1 inconclusive (a run exists but its numbers cannot decide the rule, e.g. an interval that holds the threshold or a cell timed once), 1 not run (no run)"), "{h}");
    assert!(
        h.contains("Counted apart, not paper artifacts: 1 checks of ours"),
        "{h}"
    );
}
