//! Tests of the Wen et al. verdict rules: each rule flipped by the numbers
//! it reads.

use super::scorecard_rules::*;
use crate::experiments::svm_cv::rows::SeedingRow;
use crate::results::scorecard::{DataUsed, Verdict};

fn row(m: &str, total: f64, iters: f64, exact: &str) -> SeedingRow {
    SeedingRow {
        dataset: "madelon".into(),
        setting: "paper".into(),
        k: "10".into(),
        method: m.into(),
        total_s: total,
        iterations: iters,
        accuracy_pct: 50.0,
        majority_pct: 50.0,
        exactness: exact.into(),
        ..SeedingRow::default()
    }
}

fn madelon_paper() -> PaperTable1 {
    PaperTable1 {
        accuracy: 50.0,
        libsvm_iterations: 9000.0,
        iterations: vec![("ato", 5408.0), ("mir", 1800.0), ("sir", 1800.0)],
    }
}

/// Issue 18, 6: "exact" says what it means and where rows flipped.
#[test]
fn exactness_words_name_the_rule_and_the_flips() {
    let mut a = row("sir", 1.0, 5.0, "exact");
    a.rows_flipped = 1;
    a.folds_changed = "3:117".into();
    let b = row("mir", 1.0, 5.0, "exact");
    let w = exactness_words(&[&&a, &&b]);
    assert!(
        w.contains("within 1e-3 relative") && w.contains("SIR flipped 1 row(s) (3:117)"),
        "{w}"
    );
    let c = row("ato", 1.0, 5.0, "not exact");
    assert!(exactness_words(&[&&c]).starts_with("NOT exact"));
    assert!(exactness_words(&[&&b]).ends_with("no row flipped"));
}

/// Issue 18, 2: a degenerate problem (every point a support vector) or
/// iterations far off the paper's cap a Table 1 row at "pattern".
#[test]
fn degenerate_problem_or_iterations_off_cap_table1_at_pattern() {
    let paper_data = DataUsed::Paper("madelon".into());
    let rows = [
        row("ours", 10.0, 9000.0, "baseline"),
        row("ato", 5.0, 5400.0, "exact"),
        row("mir", 5.0, 1800.0, "exact"),
        row("sir", 5.0, 900.0, "exact"),
    ];
    let refs: Vec<&SeedingRow> = rows.iter().collect();
    let timed = |m: &str| {
        let t = rows.iter().find(|r| r.method == m)?.total_s;
        Some(sp(t, t * 0.99, t * 1.01, 5))
    };
    let v = seeding_verdicts(&refs, &madelon_paper(), &paper_data, Some(0.5), &timed);
    // ATO and MIR as the paper's; SIR at half the paper's #iter: 2x off.
    assert_eq!(v[0].1, Verdict::Reproduced, "{:?}", v[0]);
    assert_eq!(v[1].1, Verdict::Reproduced, "{:?}", v[1]);
    assert_eq!(v[2].1, Verdict::PatternReproduced, "{:?}", v[2]);
    assert!(v[2].2.contains("2.0x off"), "{}", v[2].2);
    // Every point a support vector: every row at most pattern, with the reason.
    let v = seeding_verdicts(&refs, &madelon_paper(), &paper_data, Some(1.0), &timed);
    assert!(v.iter().all(|x| x.1 == Verdict::PatternReproduced), "{v:?}");
    assert!(v[0].2.contains("every training point a support vector"));
    // The LibSVM row is not capped: matching the paper's accuracy and
    // iterations reproduces that row (its words say the problem is degenerate).
    assert_eq!(
        baseline_verdict(0.0, 1.0, true, &paper_data),
        Verdict::Reproduced
    );
    assert_eq!(
        baseline_verdict(0.0, 1.2, true, &paper_data),
        Verdict::PatternReproduced
    );
    assert!(degenerate(Some(0.98)).is_none() && degenerate(None).is_none());
}

fn sp(median: f64, min: f64, max: f64, repeats: u64) -> Spread {
    Spread {
        median,
        min,
        max,
        repeats,
        runs: Vec::new(),
    }
}

/// A decided ratio (five runs each, tight ranges) of `x`.
fn decided(x: f64) -> crate::experiments::evidence::Ratio {
    compare_times(
        0.0,
        0.0,
        (
            Some(sp(x, x * 0.99, x * 1.01, 5)),
            Some(sp(1.0, 0.99, 1.01, 5)),
        ),
    )
    .2
}

/// Issue 18, 3 and 1, and issue 43: a Table 3 verdict needs at least two
/// k that are evidence (like with like, an interval on one side of 1);
/// two k run like with like but undecided are inconclusive, not "not run".
#[test]
fn table3_needs_two_k_that_are_evidence() {
    let p = |k: &str, ours: f64, paper: f64| Table3Point {
        k: k.into(),
        ours: decided(ours),
        paper,
        not_evidence: None,
        like: true,
    };
    assert_eq!(table3_verdict(&[p("10", 3.0, 2.0)]), Verdict::NotRun);
    // Two of the paper's three k: the trend over them, not the pattern.
    let two = [p("3", 2.0, 1.5), p("10", 3.0, 2.0)];
    assert_eq!(table3_verdict(&two), Verdict::PartlyReproduced);
    // Issue 57: the pattern needs k = 100, the paper's headline column.
    let three = [p("3", 2.0, 1.5), p("10", 3.0, 2.0), p("100", 9.0, 30.0)];
    assert_eq!(table3_verdict(&three), Verdict::PatternReproduced);
    let peak_elsewhere = [p("3", 4.0, 1.5), p("10", 3.0, 2.0)];
    assert_eq!(table3_verdict(&peak_elsewhere), Verdict::NotReproduced);
    // Milliseconds timed five times, decided: evidence (no 0.5 s floor).
    let base = row("ours", 0.01, 100.0, "baseline");
    let sir = row("sir", 0.005, 50.0, "exact");
    let short = Table3Point::of(
        "3",
        &base,
        &sir,
        1.5,
        (
            Some(sp(0.010, 0.0099, 0.0101, 5)),
            Some(sp(0.005, 0.0049, 0.0051, 5)),
        ),
    );
    assert!(short.not_evidence.is_none(), "{short:?}");
    assert_eq!(
        table3_verdict(&[short, p("10", 3.0, 2.0), p("100", 9.0, 30.0)]),
        Verdict::PatternReproduced
    );
    // Summed seconds only (no wall times): timed once, inconclusive.
    let once = Table3Point::of("3", &base, &sir, 1.5, (None, None));
    assert!(once.not_evidence.as_deref().unwrap().contains("timed once"));
    assert_eq!(
        table3_verdict(&[once, p("10", 3.0, 2.0)]),
        Verdict::Inconclusive
    );
    let mut shared = row("sir", 5.0, 50.0, "exact");
    shared.setup = "shared cache, 1 thread".into();
    let unlike = Table3Point::of(
        "3",
        &row("ours", 10.0, 100.0, "baseline"),
        &shared,
        1.5,
        (None, None),
    );
    assert!(unlike.not_evidence.is_some() && !unlike.like);
    assert_eq!(
        table3_verdict(&[unlike, p("10", 3.0, 2.0)]),
        Verdict::NotRun
    );
}

/// Issue 18: a cell timed once (over two minutes) is compared by its one
/// run's wall time, not by the summed round seconds, which count a
/// per-round baseline's rounds that ran two at a time once each (w8a at
/// k = 100 on 2 threads: 752 s summed against 377 s of wall time); issue
/// 43: a cell timed once has no interval.
#[test]
fn a_cell_timed_once_is_compared_by_its_wall_time_not_the_summed_rounds() {
    let once = |median: f64| sp(median, median, median, 1);
    let five = |median: f64| sp(median, median * 0.9, median * 1.1, 5);
    let (b, m, x) = compare_times(752.0, 38.4, (Some(once(377.4)), Some(five(39.0))));
    assert_eq!((b, m), (377.4, 39.0));
    assert_eq!(
        x.side(1.0),
        crate::experiments::evidence::Side::Inconclusive
    );
    assert!(x.words().contains("timed once"));
    let (b, m, _) = compare_times(465.0, 177.0, (Some(once(234.5)), Some(once(177.7))));
    assert_eq!((b, m), (234.5, 177.7));
    // Without wall times the summed seconds are all there is.
    assert_eq!(compare_times(2.0, 1.0, (None, Some(once(1.0)))).0, 2.0);
}

/// Issue 43: the evidence rule decides a seeding row: cells timed several
/// times are compared on their medians with the interval of the ratio;
/// overlapping ranges are inconclusive (a verdict of its own, no longer
/// "not run"), and short runs count when their repeats decide (the 0.5 s
/// floor is gone: the Heart rows, all under 0.5 s, were "not run").
#[test]
fn the_evidence_rule_decides_seeding_rows() {
    let paper_data = DataUsed::Paper("madelon".into());
    let rows = [
        row("ours", 10.0, 9000.0, "baseline"),
        row("sir", 5.0, 1800.0, "exact"),
    ];
    let refs: Vec<&SeedingRow> = rows.iter().collect();
    let apart = |m: &str| match m {
        "ours" => Some(sp(10.0, 9.5, 10.5, 5)),
        _ => Some(sp(5.0, 4.8, 5.3, 5)),
    };
    let v = seeding_verdicts(&refs, &madelon_paper(), &paper_data, Some(0.5), &apart);
    assert_eq!(v[2].1, Verdict::Reproduced, "{:?}", v[2]);
    assert!(v[2].2.contains("2.00x [1.79, 2.19]"), "{}", v[2].2);
    let overlap = |m: &str| match m {
        "ours" => Some(sp(10.0, 6.0, 14.0, 5)),
        _ => Some(sp(5.0, 4.8, 7.0, 5)),
    };
    let v = seeding_verdicts(&refs, &madelon_paper(), &paper_data, Some(0.5), &overlap);
    assert_eq!(v[2].1, Verdict::Inconclusive);
    assert!(v[2].2.contains("inconclusive"), "{}", v[2].2);
    // Heart-sized: 3 ms against 6 ms, five runs each, ranges apart.
    let ms = |m: &str| match m {
        "ours" => Some(sp(0.006, 0.0058, 0.0062, 5)),
        _ => Some(sp(0.003, 0.0029, 0.0031, 5)),
    };
    let v = seeding_verdicts(&refs, &madelon_paper(), &paper_data, Some(0.5), &ms);
    assert_eq!(v[2].1, Verdict::Reproduced, "{:?}", v[2]);
    // Slower by the rule: NOT reproduced.
    let slower = |m: &str| match m {
        "ours" => Some(sp(5.0, 4.9, 5.1, 5)),
        _ => Some(sp(10.0, 9.9, 10.1, 5)),
    };
    let v = seeding_verdicts(&refs, &madelon_paper(), &paper_data, Some(0.5), &slower);
    assert_eq!(v[2].1, Verdict::NotReproduced, "{:?}", v[2]);
    // The median decides, not the first run's total.
    let (b, m, _) = compare_times(1.0, 9.0, (apart("ours"), apart("sir")));
    assert_eq!((b, m), (10.0, 5.0));
    let p = Table3Point::of(
        "10",
        &rows[0],
        &rows[1],
        2.0,
        (overlap("ours"), overlap("sir")),
    );
    assert!(p.not_evidence.unwrap().contains("inconclusive"));
}

#[test]
fn baseline_and_loocv_rules() {
    let sub = DataUsed::Substitute("x".into());
    assert_eq!(
        baseline_verdict(0.0, 1.2, false, &sub),
        Verdict::PatternReproduced
    );
    assert_eq!(
        baseline_verdict(21.5, 1.1, false, &sub),
        Verdict::NotReproduced
    );
    // MNIST subset on raw pixels: 50.44% = its majority rate, as the paper's 50.85% is.
    assert_eq!(
        baseline_verdict(-0.41, 0.08, true, &sub),
        Verdict::PatternReproduced
    );
    let paper = DataUsed::Paper("mnist".into());
    assert_eq!(
        baseline_verdict(-0.41, 0.08, true, &paper),
        Verdict::NotReproduced
    );
    let pts = |v: &[(&str, f64)], setup: &str, scale: f64| {
        v.iter()
            .map(|(m, x)| LoocvPoint {
                method: m.to_string(),
                over_sir: *x,
                setup: setup.into(),
                total_s: x * scale,
                spread: Some(sp(x * scale, x * scale * 0.99, x * scale * 1.01, 5)),
                resolve_s: 0.0,
            })
            .collect::<Vec<_>>()
    };
    let ok = [("ours", 5.0), ("sir", 1.0), ("mir", 0.9)];
    assert_eq!(
        loocv_verdict(&pts(&ok, "s", 1.0)).0,
        Verdict::PatternReproduced
    );
    let avg_wins = [("ours", 5.0), ("sir", 1.0), ("avg", 0.5)];
    assert_eq!(
        loocv_verdict(&pts(&avg_wins, "s", 1.0)).0,
        Verdict::NotReproduced
    );
    assert_eq!(
        loocv_verdict(&pts(&[("sir", 1.0)], "s", 1.0)).0,
        Verdict::NotRun
    );
    // Timed once (no spreads): inconclusive, a run exists; a baseline
    // with another cache: not run (the like-with-like run is not stored).
    let once = |v: &[(&str, f64)]| {
        let mut p = pts(v, "s", 1.0);
        p.iter_mut().for_each(|p| p.spread = None);
        p
    };
    assert_eq!(loocv_verdict(&once(&ok)).0, Verdict::Inconclusive);
    let mut unlike = pts(&ok, "s", 1.0);
    unlike[0].setup = "per-solve cache, 1 thread".into();
    let (v, why) = loocv_verdict(&unlike);
    assert_eq!(v, Verdict::NotRun);
    assert!(why.unwrap().starts_with("not like with like"));
    // The baseline's and SIR's timed runs overlap: no verdict.
    let mut spread = pts(&ok, "s", 1.0);
    for p in spread.iter_mut() {
        p.spread = Some(Spread {
            median: p.total_s,
            min: 0.5,
            max: 6.0,
            repeats: 5,
            runs: Vec::new(),
        });
    }
    let (v, why) = loocv_verdict(&spread);
    assert_eq!(v, Verdict::Inconclusive);
    assert!(why.unwrap().contains("holds 1"));
    // Issue 43: 1.27 against the 1.25 cut (the stored Heart LOOCV rows,
    // decided under 0.5 s before) is decided by the interval: inconclusive
    // with overlapping ranges, NOT reproduced with tight ones.
    let cut = [("ours", 2.0), ("sir", 1.27), ("avg", 1.0)];
    let mut wide = pts(&cut, "s", 0.01);
    for p in wide.iter_mut() {
        p.spread = Some(Spread {
            median: p.total_s,
            min: p.total_s * 0.8,
            max: p.total_s * 1.2,
            repeats: 5,
            runs: Vec::new(),
        });
    }
    assert_eq!(loocv_verdict(&wide).0, Verdict::Inconclusive);
    let mut tight = wide.clone();
    for p in tight.iter_mut() {
        p.spread = Some(Spread {
            median: p.total_s,
            min: p.total_s * 0.995,
            max: p.total_s * 1.005,
            repeats: 5,
            runs: Vec::new(),
        });
    }
    assert_eq!(loocv_verdict(&tight).0, Verdict::NotReproduced);
}

#[test]
fn rounds_solved_again_are_named_in_the_row() {
    let r = |m: &str, again: usize| Resolved {
        method: m.into(),
        again,
        rounds: 2000,
    };
    assert_eq!(resolved_note(&[r("ours", 0), r("sir", 0)]), None);
    let note = resolved_note(&[r("ours", 0), r("avg", 2000), r("sir", 3)]).unwrap();
    assert!(note.starts_with("rounds solved again from zero (AVG 2000 of 2000, SIR 3 of 2000)"));
    assert!(!note.contains("OURS"));
}

#[test]
fn rounds_solved_again_are_judged_with_and_without_their_cost() {
    // Madelon's leave-one-out (issue 43): 99 of SIR's and MIR's 100 rounds
    // solved again from zero, each at the baseline's 0.87 s; timed five
    // times, tightly.
    let p = |m: &str, total: f64, resolve: f64| LoocvPoint {
        method: m.into(),
        over_sir: total / 121.1,
        setup: "s".into(),
        total_s: total,
        spread: Some(sp(total, total * 0.99, total * 1.01, 5)),
        resolve_s: resolve,
    };
    let seeded = [
        p("ours", 87.4, 0.0),
        p("sir", 121.1, 86.5),
        p("mir", 119.8, 86.5),
    ];
    // With the re-solves in SIR's time, the baseline is faster: NOT
    // reproduced; on the seeded solves' cost alone (34.6 s against 87.4 s)
    // the paper's pattern holds, but what our exact CV costs does not show
    // it: partly reproduced, and the row says why.
    let mut with_resolves = seeded.clone();
    with_resolves.iter_mut().for_each(|p| p.resolve_s = 0.0);
    assert_eq!(loocv_verdict(&with_resolves).0, Verdict::NotReproduced);
    let (v, why) = loocv_verdict(&seeded);
    assert_eq!(v, Verdict::PartlyReproduced);
    assert!(
        why.as_deref()
            .is_some_and(|w| w.contains("seeded solves alone") && w.contains("NOT reproduced")),
        "{why:?}"
    );
    // Where the pattern holds with the re-solves too, it counts in full.
    let mut cheap = seeded.clone();
    cheap[1] = p("sir", 40.0, 5.0);
    cheap[2] = p("mir", 41.0, 5.0);
    assert_eq!(loocv_verdict(&cheap).0, Verdict::PatternReproduced);
    // The row shows both: the verdict's basis, and ours beside it.
    let words = loocv_ratios(&seeded);
    assert!(
        words.starts_with("seeded solves: baseline 2.53, SIR 1.00, MIR 0.96;"),
        "{words}"
    );
    assert!(
        words.ends_with("(ours, our exactness policy's cost): baseline 0.72, SIR 1.00, MIR 0.99"),
        "{words}"
    );
    assert_eq!(
        loocv_ratios(&with_resolves),
        "baseline 0.72, SIR 1.00, MIR 0.99"
    );
}
