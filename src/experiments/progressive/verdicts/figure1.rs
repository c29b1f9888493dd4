//! Figure 1's check: progressive validation's hypothesis below the
//! hold-out's, and the simulation against the closed form.

use super::conclusions::summaries;
use crate::experiments::progressive::paper::{BklSummary, Procedure, TieKind};
use crate::experiments::progressive::rows::Row;

/// Figure 1: at every n where the hold-out's expected true error exceeds
/// 0.01 the progressive hypothesis' mean true error is below the hold-out's,
/// and every simulated mean is within 4 standard errors (+ 1e-3) of its
/// closed form. Returns (holds, words).
pub fn figure1_check(rows: &[Row]) -> Option<(bool, String)> {
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
    let mut within = true;
    // Points whose repetitions all have the same true error (s.e. 0): their
    // distance in s.e. is undefined; counted apart with the largest gap.
    let (mut zero_se, mut zero_gap) = (0usize, 0.0f64);
    let mut worst = (0.0f64, 0.0f64);
    for x in &half {
        let diff = (x.true_exact.mean - x.expected_true).abs();
        within &= diff <= 4.0 * x.true_exact.se + 1e-3;
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
    let ok = checked > 0 && below == checked && within;
    let zero = if zero_se > 0 {
        format!(" ({zero_se} points with s.e. 0, largest gap {zero_gap:.1e})")
    } else {
        String::new()
    };
    Some((
        ok,
        format!(
            "progressive below hold-out at {below} of {checked} n; simulation vs closed form: worst {worst_z:.1} s.e. (a gap of {:.1e} with s.e. {:.1e}; the rule allows 4 s.e. + 1e-3; gaps below 1e-9 are rounding, counted as 0){zero} ({} reps)",
            worst.0,
            worst.1,
            half[0].true_exact.n
        ),
    ))
}
