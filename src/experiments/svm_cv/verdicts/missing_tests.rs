//! Tests of the missing runs' names and cost estimates, on fabricated
//! cells (not measurements).

use super::missing::*;

const SEQ: &str = "per-solve cache, 1 thread";
const PAR: &str = "shared cache, 2 threads";

/// A fabricated stored cell.
fn cell(run: &str, d: &str, st: &str, k: &str, m: &str, setup: &str, seconds: f64) -> Cell {
    Cell {
        run: run.into(),
        dataset: d.into(),
        setting: st.into(),
        k: k.into(),
        n: 1000,
        method: m.into(),
        setup: setup.into(),
        seconds,
        whole: true,
    }
}

/// Heart at k = 10 with ATO at 2x and 4x the baseline's time; a9a's
/// baseline at k = 10 (600 s, one thread) and SIR beside it on two threads.
fn stored() -> Vec<Cell> {
    vec![
        cell("h1", "heart", "paper", "10", "ours", SEQ, 0.5),
        cell("h1", "heart", "paper", "10", "ato", SEQ, 1.0),
        cell("h2", "heart", "defaults", "10", "ours", SEQ, 0.25),
        cell("h2", "heart", "defaults", "10", "ato", SEQ, 1.0),
        cell("h2", "heart", "defaults", "10", "sir", SEQ, 0.125),
        cell("a", "a9a", "paper", "10", "ours", SEQ, 600.0),
        cell("a", "a9a", "paper", "10", "sir", PAR, 300.0),
    ]
}

#[test]
fn a_missing_method_costs_the_baseline_times_its_ratio_in_like_with_like_cells() {
    let cells = stored();
    let ato = Missing::of("a9a", "paper", "10", "ato", SEQ);
    let e = ato.estimate(&cells).unwrap();
    // 600 s x the median of 2 and 4; the range from 2 to 4.
    assert_eq!((e.seconds, e.range), (1800.0, (1200.0, 2400.0)));
    assert_eq!(
        ato.words(&cells),
        "ATO at k = 10, per-solve cache, 1 thread: about 30 min per timed run (20 to 40; the baseline's measured 600.0 s (`a`) x ATO's time over the baseline's in 2 like-with-like stored cells at k = 10 (median 3.00, range 2.00 to 4.00))"
    );
    // SIR on two threads beside a one-thread baseline is no pair: its only
    // like-with-like cell is Heart's (0.5).
    let sir = Missing::of("a9a", "paper", "10", "sir", SEQ);
    assert_eq!(sir.estimate(&cells).unwrap().seconds, 300.0);
    // A method never run beside the baseline: no estimate, said so.
    let mir = Missing::of("a9a", "paper", "10", "mir", SEQ);
    assert!(mir
        .words(&cells)
        .contains("no estimate: no stored run of MIR beside the baseline"));
}

#[test]
fn a_missing_baseline_scales_its_nearest_stored_cell_by_training_rows() {
    let cells = stored();
    // k = 100 from k = 10: 99 / 9 of the training rows.
    let b = Missing::of("a9a", "paper", "100", "ours", SEQ);
    let e = b.estimate(&cells).unwrap();
    assert!((e.seconds - 600.0 * 99.0 / 9.0).abs() < 1e-9);
    assert!(b.words(&cells).starts_with(
        "the baseline at k = 100, per-solve cache, 1 thread: about 110 min per timed run (the baseline's 600.0 s at k = 10 (`a`) x 11.000"
    ));
    // Another set-up at the same k: the stored cell's seconds, said so.
    let b = Missing::of("a9a", "paper", "10", "ours", PAR);
    assert!(b
        .words(&cells)
        .ends_with("about 10 min per timed run (the baseline's 600.0 s at k = 10, per-solve cache, 1 thread (`a`))"));
    // The same setting comes before the same set-up; k = n from the rows.
    let mut cells = cells;
    cells.push(cell("b", "a9a", "defaults", "3", "ours", PAR, 1.0));
    let loo = Missing::of("a9a", "paper", "n", "ours", PAR);
    let e = loo.estimate(&cells).unwrap();
    assert!((e.seconds - 600.0 * 999.0 / 9.0).abs() < 1e-6);
    // A first-rounds estimate is no source; no baseline on the dataset:
    // no estimate, said so.
    for c in cells.iter_mut().filter(|c| c.dataset == "a9a") {
        c.whole = false;
    }
    assert!(loo
        .words(&cells)
        .ends_with("(no estimate: no stored baseline run on a9a to scale from)"));
}

#[test]
fn the_missing_runs_of_each_row_kind() {
    // Table 1: the method at the baseline's set-up; the baseline where none ran.
    let rows = [("ours", SEQ), ("sir", PAR), ("tree", PAR)];
    assert_eq!(
        table1_missing("a9a", "paper", "10", &rows, "sir"),
        Some(Missing::of("a9a", "paper", "10", "sir", SEQ))
    );
    assert_eq!(
        table1_missing("a9a", "paper", "10", &rows, "ato"),
        Some(Missing::of("a9a", "paper", "10", "ato", SEQ))
    );
    assert_eq!(
        table1_missing("a9a", "paper", "10", &[("ours", SEQ), ("mir", SEQ)], "mir"),
        None
    );
    assert_eq!(
        table1_missing("a9a", "paper", "10", &[("sir", PAR)], "sir"),
        Some(Missing::of("a9a", "paper", "10", "ours", PAR))
    );
    // Table 3: both methods at every k without a like-with-like point,
    // those stored left out (a9a's SIR at k = 10 on two threads).
    let (t3, _) = table3_missing("a9a", "paper", PAR, &["3", "10", "100"], &[], &stored());
    let named: Vec<(&str, &str)> = t3
        .iter()
        .map(|m| (m.k.as_str(), m.method.as_str()))
        .collect();
    assert_eq!(
        named,
        [
            ("3", "ours"),
            ("3", "sir"),
            ("10", "ours"),
            ("100", "ours"),
            ("100", "sir")
        ]
    );
    assert!(
        table3_missing("a9a", "paper", PAR, &["3", "10"], &["3", "10"], &[])
            .0
            .is_empty()
    );
    // Both stored in a run the row does not read: named, not missing.
    let mut more = stored();
    more.push(cell("abl", "a9a", "paper", "3", "ours", PAR, 9.0));
    more.push(cell("abl", "a9a", "paper", "3", "sir", PAR, 3.0));
    assert!(table3_missing("a9a", "paper", PAR, &["3"], &[], &more)
        .0
        .is_empty());
    assert_eq!(
        table3_missing("a9a", "paper", PAR, &["3", "10"], &[], &more).1,
        ["k = 3: the baseline and SIR at shared cache, 2 threads are stored in `abl`, whose records this row does not read (it reads runs' seeding tables, and that run has none for them)"]
    );
    let words = missing_words(&t3[..2], &stored());
    assert!(
        words.starts_with("missing runs: the baseline at k = 3, shared cache, 2 threads: about")
    );
    assert!(words.contains("; SIR at k = 3, shared cache, 2 threads: about"));
    assert_eq!(missing_words(&[], &stored()), "");
    // Leave-one-out: every judged method at the baseline's set-up.
    let pts = [("ours", SEQ), ("sir", PAR), ("mir", SEQ), ("tree", PAR)];
    let judged = ["ours", "avg", "top", "ato", "mir", "sir"];
    assert_eq!(
        loocv_missing("heart", "paper", &judged, &pts),
        [Missing::of("heart", "paper", "n", "sir", SEQ)]
    );
    assert_eq!(
        loocv_missing("heart", "paper", &judged, &[("sir", PAR)]),
        [Missing::of("heart", "paper", "n", "ours", PAR)]
    );
}
