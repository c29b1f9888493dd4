//! Figure 1's check: progressive validation's hypothesis below the
//! hold-out's, and the simulation against the closed form.

use super::conclusions::summaries;
use crate::experiments::progressive::paper::{BklSummary, Procedure, TieKind};
use crate::experiments::progressive::rows::Row;

/// What Figure 1's check found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Figure1 {
    /// Progressive below the hold-out at every checked n, and the
    /// simulation agrees with the closed form.
    Holds,
    /// The simulation agrees with the closed form, but progressive is not
    /// below the hold-out at some n: the paper's claim fails on our data.
    Fails,
    /// A simulated mean is off its closed form: the run's numbers cannot
    /// be trusted to decide the paper's claim either way (too few
    /// repetitions for a skewed error, or a fault of ours), so the verdict
    /// is inconclusive, whatever the comparison says.
    SimulationOff,
}

/// Figure 1's rule. The paper claims only the comparison (progressive's
/// hypothesis has the lower true error at every n); the agreement of the
/// simulation with the closed form is our check of the run, so its failure
/// makes the run unable to decide, not the paper wrong.
pub const FIGURE1_RULE: &str = "reproduced: progressive's mean true error below the hold-out's at every n where the hold-out's exceeds 0.01, and every simulated mean within 4 s.e. (+1e-3) of its closed form; a simulated mean off its closed form: inconclusive (that agreement checks our run, not the paper: the run cannot decide); otherwise not reproduced";

/// Figure 1: at every n where the hold-out's expected true error exceeds
/// 0.01 the progressive hypothesis' mean true error is below the hold-out's,
/// and every simulated mean is within 4 standard errors (+ 1e-3) of its
/// closed form. Returns what the check found and our words.
pub fn figure1_check(rows: &[Row]) -> Option<(Figure1, String)> {
    let s = summaries(rows, "figure1");
    let half: Vec<&BklSummary> = s
        .iter()
        .filter(|x| x.tie == TieKind::Half && x.delay == 0)
        .collect();
    if half.is_empty() {
        return None;
    }
    let mut below = 0;
    let mut checked = 0;
    let mut worst_z: f64 = 0.0;
    for ho in half.iter().filter(|x| x.procedure == Procedure::HoldOut) {
        if let Some(pv) = half.iter().find(|x| {
            x.procedure == Procedure::Progressive && x.n_train == ho.n_train && x.s == ho.s
        }) {
            if ho.expected_true > 0.01 {
                checked += 1;
                below += usize::from(pv.true_exact.mean < ho.true_exact.mean);
            }
        }
    }
    // The rule allows 4 s.e. plus 1e-3 (a floor for means with a tiny
    // s.e.); the words report the plain distance in s.e.
    // The point furthest beyond the allowance: (excess, point).
    let mut off: Option<(f64, &BklSummary)> = None;
    // Points whose repetitions all have the same true error (s.e. 0): their
    // distance in s.e. is undefined; counted apart with the largest gap.
    let (mut zero_se, mut zero_gap) = (0usize, 0.0f64);
    let mut worst = (0.0f64, 0.0f64);
    for x in &half {
        let diff = (x.true_exact.mean - x.expected_true).abs();
        let excess = diff - (4.0 * x.true_exact.se + 1e-3);
        if excess > 0.0 && off.is_none_or(|(e, _)| excess > e) {
            off = Some((excess, x));
        }
        // A gap below 1e-9 is floating-point rounding of an exact equality
        // (the closed form and a constant simulation), not a distance.
        let diff = if diff < 1e-9 { 0.0 } else { diff };
        if x.true_exact.se > 0.0 {
            if diff / x.true_exact.se > worst_z {
                worst_z = diff / x.true_exact.se;
                worst = (diff, x.true_exact.se);
            }
        } else {
            zero_se += 1;
            zero_gap = zero_gap.max(diff);
        }
    }
    let found = match off {
        Some(_) => Figure1::SimulationOff,
        None if checked > 0 && below == checked => Figure1::Holds,
        None => Figure1::Fails,
    };
    let zero = if zero_se > 0 {
        format!(" ({zero_se} points with s.e. 0, largest gap {zero_gap:.1e})")
    } else {
        String::new()
    };
    let reps = half[0].true_exact.n;
    let mut words = format!(
        "progressive below hold-out at {below} of {checked} n; simulation vs closed form: worst {worst_z:.1} s.e. (a gap of {:.1e} with s.e. {:.1e}; the rule allows 4 s.e. + 1e-3; gaps below 1e-9 are rounding, counted as 0){zero} ({reps} reps)",
        worst.0, worst.1,
    );
    if let Some((_, x)) = off {
        words.push_str(&format!(
            "; the simulated {} at n = {} is off its closed form ({:.4} against {:.4}, s.e. {:.1e}{}): the run cannot decide the figure (few repetitions can leave a rare error unseen and its s.e. understated; the paper's 1000 are in `make reproduce`)",
            x.procedure.label(),
            x.n_train + x.s,
            x.true_exact.mean,
            x.expected_true,
            x.true_exact.se,
            if x.true_exact.se == 0.0 {
                format!(": all {reps} repetitions gave the same true error")
            } else {
                String::new()
            },
        ));
    }
    Some((found, words))
}
