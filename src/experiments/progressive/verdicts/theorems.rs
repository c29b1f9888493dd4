//! Theorems 1–5 checked over every theorem run's records: rows checked and
//! rows that contradict each theorem at 95%.

use super::stored::TypedRun;
use crate::experiments::progressive::rows::{kfold_groups, pv_groups, study, Row};
use crate::experiments::progressive::theorems::{by_n_k, moment_rows, tail_rows, theorem5_row};

/// What the theorem checks found over every run.
pub struct TheoremOutcome {
    /// Rows checked.
    pub rows: usize,
    /// Rows where our records contradict the theorem at 95%.
    pub violations: usize,
    /// Both, in words.
    pub words: String,
}

/// Whether a row is a theorem check (k-fold or progressive).
pub fn is_theorem_row(r: &Row) -> bool {
    matches!(r.study.as_str(), "kfold" | "progressive_check")
}

/// Theorem `t` (1–5) over every theorem run: rows checked and rows where our
/// records contradict it at 95%.
pub fn theorem(t: u32, runs: &[&TypedRun]) -> Option<TheoremOutcome> {
    let (mut rows, mut violations) = (0, 0);
    for run in runs {
        let c = run.config.as_ref();
        let ms = c.map_or_else(|| vec![1, 2, 3, 4], |c| c.moments.clone());
        let a = c.map_or_else(|| vec![0.05, 0.1, 0.2], |c| c.tail_a.clone());
        match t {
            1..=3 => {
                for recs in kfold_groups(study(&run.rows, "kfold")).values() {
                    if t == 3 {
                        for (n, k, sel) in by_n_k(recs) {
                            let d: Vec<f64> = sel.iter().map(|r| r.est_k - r.true_k).collect();
                            for row in tail_rows("k-fold", &d, n / k, &a) {
                                rows += 1;
                                violations += usize::from(row.violated());
                            }
                        }
                        continue;
                    }
                    for m in moment_rows(recs, &ms) {
                        // Theorem 2: m >= 2 and 2 < k < n only.
                        if t == 2 && (m.m < 2 || m.k <= 2 || m.k >= m.n) {
                            continue;
                        }
                        rows += 1;
                        violations += usize::from(if t == 1 {
                            m.kfold_larger()
                        } else {
                            !m.kfold_smaller()
                        });
                    }
                }
            }
            _ => {
                for recs in pv_groups(study(&run.rows, "progressive_check")).values() {
                    if t == 4 {
                        let s = recs.first().map_or(0, |r| r.s);
                        let d: Vec<f64> = recs.iter().map(|r| r.est_p - r.true_p).collect();
                        for row in tail_rows("progressive", &d, s, &a) {
                            rows += 1;
                            violations += usize::from(row.violated());
                        }
                    } else if let Some(r5) = theorem5_row(recs) {
                        rows += 1;
                        violations += usize::from(r5.diff.mean + r5.diff.ci95() < 0.0);
                    }
                }
            }
        }
    }
    (rows > 0).then(|| TheoremOutcome {
        rows,
        violations,
        words: format!("{} of {rows} rows contradict it at 95%", violations),
    })
}

/// Theorems 1–5: name, claim and rule.
pub const THEOREMS: [(&str, &str, &str); 5] = [
    ("Theorem 1", "every moment E|ê−ē|^m of the k-fold estimate ≤ the n/k hold-out's", "not contradicted by the simulation: no (n, k, m) row where the k-fold moment is significantly larger (paired 95% interval)"),
    ("Theorem 2", "strictly smaller for m ≥ 2, 2 < k < n", "not contradicted by the simulation: every (n, k, m ≥ 2, 2 < k < n) row has the k-fold moment significantly smaller"),
    ("Theorem 3", "Pr[ê − ē > a] ≤ exp(−2a²n/k) for the k-fold estimate", "not contradicted by the simulation: no (n, k, a) row where the lower end of the Wilson 95% interval of either tail exceeds the bound"),
    ("Theorem 4", "Pr[ê_P − ē_P > a] ≤ exp(−2a²s) for progressive validation", "not contradicted by the simulation: no (n, s, a) row where the lower end of the Wilson 95% interval of either tail exceeds the bound"),
    ("Theorem 5", "E(ê_P − ē_P)² ≤ E(ê'_P − ē_P)² (progressive no worse than a fresh hold-out of s)", "not contradicted by the simulation: no (n_train, s) row where fresh − progressive is significantly negative"),
];
