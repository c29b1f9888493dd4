//! The rules that turn Wen et al.'s rows into verdicts, each a function of
//! numbers from the records (and the paper's), so that each can be flipped by
//! a unit test: Table 1's LibSVM row and seeding rows, Table 3 and the
//! leave-one-out figure. `scorecard.rs` gathers the numbers and calls them.

use super::ablation::MIN_EVIDENCE_S;
use super::rows::SeedingRow;
pub use crate::experiments::timing::Spread;
use crate::results::scorecard::{DataUsed, Verdict};

/// A baseline whose support vectors are at least this fraction of its
/// training rows is degenerate: every point a support vector, the kernel
/// matrix close to the identity (Madelon and MNIST on raw values at the
/// paper's gamma). Its Table 1 rows are at most "pattern reproduced".
pub const DEGENERATE_SV_FRACTION: f64 = 0.99;

/// A method's iterations (relative to the baseline's) off the paper's by
/// more than this factor either way: its Table 1 row is at most "pattern
/// reproduced".
pub const ITER_OFF: f64 = 1.5;

/// The reason a Table 1 row is capped at "pattern reproduced" when the
/// baseline's mean support-vector fraction `sv_fraction` shows a degenerate
/// problem.
pub fn degenerate(sv_fraction: Option<f64>) -> Option<String> {
    let f = sv_fraction?;
    (f >= DEGENERATE_SV_FRACTION).then(|| {
        format!("every training point a support vector (nSV / training rows {f:.2}): the kernel matrix is close to the identity, a degenerate problem")
    })
}

/// How two cells' times compare: the seconds a verdict uses (the cells'
/// median wall seconds where both have them, a cell timed once giving its
/// one run's wall time; else the rows' summed round seconds, which count a
/// per-round baseline's rounds that ran two at a time once each, and so
/// overstate a speed-up against it on several threads) and, when both were
/// timed several times and their [min, max] ranges overlap, the words
/// saying the difference is inside the spread.
pub fn compare_times(
    base_total: f64,
    total: f64,
    spreads: (Option<Spread>, Option<Spread>),
) -> (f64, f64, Option<String>) {
    match spreads {
        (Some(b), Some(m)) => {
            let inside = b.repeats >= 2 && m.repeats >= 2 && m.min <= b.max && b.min <= m.max;
            let why = inside.then(|| {
                format!(
                    "the difference is inside the spread of the timed runs (median {:.3} s in [{:.3}, {:.3}] against {:.3} s in [{:.3}, {:.3}], {} and {} runs)",
                    m.median, m.min, m.max, b.median, b.min, b.max, m.repeats, b.repeats
                )
            });
            (b.median, m.median, why)
        }
        _ => (base_total, total, None),
    }
}

/// The rule of Table 1's LibSVM row.
pub const BASELINE_RULE: &str = "reproduced: accuracy within 0.01 points and #iter within 1% of the paper's LibSVM, on the paper's data (on a degenerate problem too: the row's own numbers then match exactly, and the row says the problem is degenerate); pattern reproduced: the accuracy alone, or, where the paper's accuracy is its majority-class rate (Heart, Madelon, MNIST: a kernel matrix close to the identity), ours equal to our majority-class rate on substitute data; a degenerate problem (the baseline's support vectors at least 99% of its training rows: kernel close to the identity, every point a support vector) caps the seeding rows, not this one";

/// Verdict of the LibSVM row from the accuracy difference, the iteration
/// ratio, whether the paper's accuracy is its majority rate and ours is ours
/// (`majority_both`) and the data. A degenerate problem does not cap this
/// row: matching the paper's LibSVM accuracy and iterations is a
/// reproduction of that row whatever the problem (the row says it is
/// degenerate; the seeding rows are capped).
pub fn baseline_verdict(
    acc_diff: f64,
    iter_ratio: f64,
    majority_both: bool,
    data: &DataUsed,
) -> Verdict {
    let acc = acc_diff.abs() <= 0.01 || (majority_both && !matches!(data, DataUsed::Paper(_)));
    let iters = (iter_ratio - 1.0).abs() <= 0.01;
    match (acc, iters, data) {
        (true, true, DataUsed::Paper(_)) => Verdict::Reproduced,
        (true, _, _) => Verdict::PatternReproduced,
        _ => Verdict::NotReproduced,
    }
}

/// The rule of Table 1's seeding rows.
pub const SEEDING_RULE: &str = "one verdict per method the paper reports (ATO, MIR, SIR); seconds are the median of the timed runs where a cell was timed several times (else its one run): pattern reproduced: the method exact (same optimum as the baseline), with fewer SMO iterations than the baseline and faster in total than it, as in the paper's row; reproduced: that plus the paper's accuracy, on the paper's data and setting; at most pattern reproduced where the problem is degenerate (the baseline's support vectors at least 99% of its training rows) or the method's #iter relative to the baseline's is more than 1.5x off the paper's; not run: the method or the baseline has no run, or they ran with different kernel caches or threads (a speed verdict compares like with like), or both took under 0.5 s (no evidence of a speed-up), or their timed runs' ranges overlap (the difference is inside the spread)";

/// The seeded methods of Table 1, each judged on its own.
pub const TABLE1_SEEDED: [&str; 3] = ["ato", "mir", "sir"];

/// The paper's Table 1 row of a dataset: the accuracy, and the #iter of
/// LibSVM and of each seeded method (`ato`, `mir`, `sir`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PaperTable1 {
    /// LibSVM's (= every exact method's) accuracy, %.
    pub accuracy: f64,
    /// LibSVM's iterations.
    pub libsvm_iterations: f64,
    /// (method, iterations) of the seeded methods.
    pub iterations: Vec<(&'static str, f64)>,
}

impl PaperTable1 {
    fn iterations_of(&self, m: &str) -> Option<f64> {
        self.iterations.iter().find(|x| x.0 == m).map(|x| x.1)
    }
}

/// Verdicts of a Table 1 seeding group (the rows of one dataset, setting,
/// k = 10): one `(method, verdict, words)` per method of [`TABLE1_SEEDED`].
/// `sv_fraction` is the baseline's mean nSV / training rows.
pub fn seeding_verdicts(
    rows: &[&SeedingRow],
    paper: &PaperTable1,
    data: &DataUsed,
    sv_fraction: Option<f64>,
    spread: &dyn Fn(&str) -> Option<Spread>,
) -> Vec<(&'static str, Verdict, String)> {
    let base = rows.iter().find(|r| r.method == "ours");
    TABLE1_SEEDED
        .iter()
        .map(|&m| {
            let Some(base) = base else {
                return (m, Verdict::NotRun, "no baseline run".to_string());
            };
            let Some(r) = rows.iter().find(|r| r.method == m) else {
                return (m, Verdict::NotRun, format!("{} not run", m.to_uppercase()));
            };
            if r.setup != base.setup {
                return (
                    m,
                    Verdict::NotRun,
                    format!(
                        "not like with like: the baseline ran with {}, {} with {} (the ablation configs compare them at equal cache and threads); #iter {:.0} against {:.0}; {}",
                        base.setup,
                        m.to_uppercase(),
                        r.setup,
                        r.iterations,
                        base.iterations,
                        exactness_words(&[r])
                    ),
                );
            }
            let (bt, mt, inside) =
                compare_times(base.total_s, r.total_s, (spread("ours"), spread(m)));
            if bt.max(mt) < MIN_EVIDENCE_S {
                return (
                    m,
                    Verdict::NotRun,
                    format!(
                        "too short to be evidence of a speed-up: baseline {bt:.3} s, {} {mt:.3} s (#iter {:.0} against {:.0}; {})",
                        m.to_uppercase(),
                        r.iterations,
                        base.iterations,
                        exactness_words(&[r])
                    ),
                );
            }
            if let Some(why) = inside {
                return (
                    m,
                    Verdict::NotRun,
                    format!(
                        "no evidence of a speed-up: {why} (#iter {:.0} against {:.0}; {})",
                        r.iterations,
                        base.iterations,
                        exactness_words(&[r])
                    ),
                );
            }
            let exact = r.exactness == "exact";
            let fewer = r.iterations < base.iterations;
            let faster = mt < bt;
            let mut words = format!(
                "#iter baseline {:.0}, {} {:.0}; speed-up {:.2}x ({mt:.3} s against {bt:.3} s); {}; accuracy {:.2}%",
                base.iterations,
                m.to_uppercase(),
                r.iterations,
                bt / mt,
                exactness_words(&[r]),
                base.accuracy_pct
            );
            let acc = (base.accuracy_pct - paper.accuracy).abs() <= 0.01;
            let mut v = match (exact && fewer && faster, acc, data) {
                (true, true, DataUsed::Paper(_)) => Verdict::Reproduced,
                (true, _, _) => Verdict::PatternReproduced,
                _ => Verdict::NotReproduced,
            };
            let mut caps: Vec<String> = degenerate(sv_fraction).into_iter().collect();
            if let Some(off) = iterations_off(r.iterations / base.iterations, paper, m) {
                caps.push(off);
            }
            if !caps.is_empty() {
                if v == Verdict::Reproduced {
                    v = Verdict::PatternReproduced;
                }
                words.push_str(&format!("; at most pattern reproduced: {}", caps.join("; ")));
            }
            (m, v, words)
        })
        .collect()
}

/// Why method `m`'s iterations relative to the baseline's (`ours`) are off
/// the paper's by more than [`ITER_OFF`], or `None` when they are not (or the
/// paper has no such number).
fn iterations_off(ours: f64, paper: &PaperTable1, m: &str) -> Option<String> {
    let p = paper.iterations_of(m)? / paper.libsvm_iterations;
    let r = ours / p;
    (p.is_finite() && r.is_finite() && !(1.0 / ITER_OFF..=ITER_OFF).contains(&r)).then(|| {
        format!(
            "{}'s #iter is {:.2} of the baseline's against the paper's {:.2} ({:.1}x off)",
            m.to_uppercase(),
            ours,
            p,
            r.max(1.0 / r)
        )
    })
}

/// What "exact" means in a verdict, and where held-out rows flipped.
pub fn exactness_words(seeded: &[&&SeedingRow]) -> String {
    let flips: Vec<String> = seeded
        .iter()
        .filter(|r| r.rows_flipped > 0)
        .map(|r| {
            format!(
                "{} flipped {} row(s) ({})",
                r.method.to_uppercase(),
                r.rows_flipped,
                r.folds_changed
            )
        })
        .collect();
    let all = seeded.iter().all(|r| r.exactness == "exact");
    let head = if all {
        "exact (every round's objective within 1e-3 relative of the baseline's, at most one held-out row flipped per fold)"
    } else {
        "NOT exact (a round's objective off by more than 1e-3 relative, or more than one held-out row flipped in a fold)"
    };
    if flips.is_empty() {
        format!("{head}; no row flipped")
    } else {
        format!("{head}; {}", flips.join(", "))
    }
}

/// The rule of Table 3.
pub const TABLE3_RULE: &str = "pattern reproduced: SIR faster than the baseline at every k run (median seconds where timed several times), and the largest speed-up at the same k as in the paper (among the k run); not run: fewer than two k that are evidence (Table 3 is a trend over k; a k where SIR and the baseline ran with different kernel caches or threads, or both took under 0.5 s, or their timed runs' ranges overlap, is not evidence); else not reproduced (times are this machine's, so never 'reproduced')";

/// One k of Table 3: our SIR speed-up over the baseline, the paper's, and
/// whether it is evidence (`None`) or why not.
#[derive(Clone, Debug, PartialEq)]
pub struct Table3Point {
    /// k as configured.
    pub k: String,
    /// Baseline total / SIR total, ours.
    pub ours: f64,
    /// The paper's LibSVM / SIR.
    pub paper: f64,
    /// Why this k is no evidence of a speed-up (different set-ups, too short).
    pub not_evidence: Option<String>,
}

impl Table3Point {
    /// A point from the baseline and SIR rows of one k.
    pub fn of(
        k: &str,
        base: &SeedingRow,
        sir: &SeedingRow,
        paper: f64,
        spreads: (Option<Spread>, Option<Spread>),
    ) -> Table3Point {
        let (bt, st, inside) = compare_times(base.total_s, sir.total_s, spreads);
        let not_evidence = if base.setup != sir.setup {
            Some(format!(
                "not like with like (baseline {}, SIR {})",
                base.setup, sir.setup
            ))
        } else if bt.max(st) < MIN_EVIDENCE_S {
            Some(format!(
                "too short to be evidence ({st:.3} s against {bt:.3} s)"
            ))
        } else {
            inside
        };
        Table3Point {
            k: k.to_string(),
            ours: bt / st,
            paper,
            not_evidence,
        }
    }
}

/// Table 3 verdict from its points (the ones that are not evidence are left
/// out; with fewer than two left, "not run").
pub fn table3_verdict(points: &[Table3Point]) -> Verdict {
    let s: Vec<&Table3Point> = points.iter().filter(|p| p.not_evidence.is_none()).collect();
    // Table 3 is a trend over k: one k cannot show it.
    if s.len() < 2 {
        return Verdict::NotRun;
    }
    let faster = s.iter().all(|x| x.ours > 1.0);
    let argmax = |f: &dyn Fn(&Table3Point) -> f64| {
        s.iter()
            .max_by(|a, b| f(a).total_cmp(&f(b)))
            .map(|x| x.k.clone())
    };
    let same_peak = argmax(&|x| x.ours) == argmax(&|x| x.paper);
    if faster && same_peak {
        Verdict::PatternReproduced
    } else {
        Verdict::NotReproduced
    }
}

/// The rule of the leave-one-out figure.
pub const LOOCV_RULE: &str = "pattern reproduced: the baseline slower than SIR, and SIR within 1.25x of the fastest of AVG, TOP, ATO, MIR and SIR (the paper: SIR fastest except on Heart and Madelon, where MIR is slightly faster); not run: the methods ran with different kernel caches or threads (like with like), or every one took under 0.5 s, or the baseline's and SIR's timed runs overlap (seconds are medians where cells were timed several times); the row counts each method's rounds solved again from zero (a held-out decision value within eps of 0), which cost a seeded and a baseline solve";

/// A method's rounds solved again from zero: where a warm-started model
/// puts a held-out decision value within `eps` of 0 (more than one row in
/// ten, or the one row of a leave-one-out round), the round is solved again
/// from `alpha = 0` so that its labels are `svm-train`'s
/// ([`crate::svm::rounds::is_degenerate`]), and it costs its seeded solve
/// and a baseline solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// Method (`ours` = the baseline, never re-solved).
    pub method: String,
    /// Rounds solved again from zero.
    pub again: usize,
    /// Rounds.
    pub rounds: usize,
}

/// What a speed row says of the rounds solved again from zero, so that a
/// reader sees why a seeded method costs a baseline solve: `None` where no
/// round was.
pub fn resolved_note(counts: &[Resolved]) -> Option<String> {
    let hit: Vec<String> = counts
        .iter()
        .filter(|c| c.again > 0)
        .map(|c| format!("{} {} of {}", c.method.to_uppercase(), c.again, c.rounds))
        .collect();
    (!hit.is_empty()).then(|| {
        format!(
            "rounds solved again from zero ({}): the warm-started model put a held-out decision value within eps of 0, where a warm start's labels need not be svm-train's, so the round was solved from alpha = 0 to give svm-train's labels, at the cost of its seeded solve and a baseline solve",
            hit.join(", ")
        )
    })
}

/// One method of a leave-one-out group: its time over SIR's, its set-up
/// and its seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct LoocvPoint {
    /// Method (`ours` = the baseline).
    pub method: String,
    /// Its total over SIR's.
    pub over_sir: f64,
    /// Its kernel cache and threads.
    pub setup: String,
    /// Its total seconds (the median where timed several times).
    pub total_s: f64,
    /// Its timed runs, where it was timed several times.
    pub spread: Option<Spread>,
}

/// LOOCV verdict of one (dataset, setting), and why not when it is "not run".
pub fn loocv_verdict(points: &[LoocvPoint]) -> (Verdict, Option<String>) {
    let Some(base) = points.iter().find(|r| r.method == "ours") else {
        return (Verdict::NotRun, Some("no baseline run".into()));
    };
    let judged: Vec<&LoocvPoint> = points
        .iter()
        .filter(|r| {
            matches!(
                r.method.as_str(),
                "ours" | "avg" | "top" | "ato" | "mir" | "sir"
            )
        })
        .collect();
    let mut setups: Vec<&str> = judged.iter().map(|r| r.setup.as_str()).collect();
    setups.sort_unstable();
    setups.dedup();
    if setups.len() > 1 {
        return (
            Verdict::NotRun,
            Some(format!(
                "not like with like: the methods ran with {}",
                setups.join(" / ")
            )),
        );
    }
    let longest = judged.iter().map(|r| r.total_s).fold(0.0, f64::max);
    if longest < MIN_EVIDENCE_S {
        return (
            Verdict::NotRun,
            Some(format!(
                "too short to be evidence: the slowest method took {longest:.3} s"
            )),
        );
    }
    let sir = judged.iter().find(|r| r.method == "sir");
    if let Some((_, _, Some(why))) =
        sir.map(|s| compare_times(base.total_s, s.total_s, (base.spread, s.spread)))
    {
        return (
            Verdict::NotRun,
            Some(format!("baseline against SIR: {why}")),
        );
    }
    let fastest = judged
        .iter()
        .filter(|r| r.method != "ours")
        .map(|r| r.over_sir)
        .fold(f64::INFINITY, f64::min);
    if base.over_sir > 1.0 && 1.0 <= 1.25 * fastest {
        (Verdict::PatternReproduced, None)
    } else {
        (Verdict::NotReproduced, None)
    }
}

#[cfg(test)]
#[path = "scorecard_rules_tests.rs"]
mod tests;
