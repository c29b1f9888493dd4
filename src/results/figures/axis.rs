//! Axes of the figures: log or linear transforms, tick positions and
//! labels, value ranges with padding, and the `Ranged` axis plotters draws.

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};

pub(super) fn tx(v: f64, log: bool) -> f64 {
    if log {
        v.max(1e-300).log10()
    } else {
        v
    }
}

/// A tick label for a value in original units, with `decimals` decimals
/// (linear axes) or as a power of ten (log axes: `1e3`, `2e4`, `0.5`, `10`).
pub(super) fn tick_label(v: f64, log: bool, decimals: usize) -> String {
    if log {
        let x = 10f64.powf(v);
        if x == 0.0 {
            return "0".into();
        }
        let e = x.abs().log10().floor();
        let mant = x / 10f64.powf(e);
        let mant = (mant * 10.0).round() / 10.0;
        if (-2.0..=2.0).contains(&e) {
            let d = if e < 0.0 { (-e) as usize + 1 } else { 0 };
            let s = format!("{x:.d$}");
            return if s.contains('.') {
                s.trim_end_matches('0').trim_end_matches('.').into()
            } else {
                s
            };
        }
        if (mant - 1.0).abs() < 1e-9 {
            format!("1e{e:.0}")
        } else {
            format!("{}e{e:.0}", format!("{mant:.1}").trim_end_matches(".0"))
        }
    } else if v != 0.0 && (v.abs() >= 1e6 || v.abs() < 1e-4) {
        format!("{v:.1e}")
    } else {
        format!("{v:.decimals$}")
    }
}

/// Tick positions (in plotted units) for `[lo, hi]`: powers of ten on log
/// axes (with 2 and 5 between them when the range is short), a 1-2-5 step
/// otherwise; and the decimals that make every label distinct.
pub(super) fn ticks(lo: f64, hi: f64, log: bool) -> (Vec<f64>, usize) {
    if log {
        let mut t: Vec<f64> = ((lo.ceil() as i64)..=(hi.floor() as i64))
            .map(|e| e as f64)
            .collect();
        if t.len() < 3 {
            let mut more = Vec::new();
            for e in (lo.floor() as i64)..=(hi.ceil() as i64) {
                for m in [1.0f64, 2.0, 5.0] {
                    let v = e as f64 + m.log10();
                    if v >= lo && v <= hi {
                        more.push(v);
                    }
                }
            }
            t = more;
        }
        if t.len() >= 2 {
            return (t, 0);
        }
    }
    let span = (hi - lo).abs().max(1e-12);
    let raw = span / 6.0;
    let p = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * p);
    let first = (lo / step).ceil() * step;
    let mut t = Vec::new();
    let mut v = first;
    while v <= hi + step * 1e-9 && t.len() < 50 {
        t.push(if v.abs() < step * 1e-9 { 0.0 } else { v });
        v += step;
    }
    if log {
        // A log axis spanning less than a factor of 2: label in original units.
        return (t, 0);
    }
    let mut decimals = (-(step.log10().floor())).max(0.0) as usize;
    // More decimals until the labels are distinct.
    while decimals < 8 {
        let labels: Vec<String> = t.iter().map(|v| tick_label(*v, false, decimals)).collect();
        let mut d = labels.clone();
        d.dedup();
        if d.len() == labels.len() {
            break;
        }
        decimals += 1;
    }
    (t, decimals)
}

pub(super) fn range(vals: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in vals.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let pad = if hi > lo {
        (hi - lo) * 0.06
    } else {
        lo.abs() * 0.05 + 0.05
    };
    (lo - pad, hi + pad)
}

/// A linear axis over `[lo, hi]` with our own tick positions.
pub(super) struct Axis {
    pub(super) lo: f64,
    pub(super) hi: f64,
    pub(super) ticks: Vec<f64>,
}

impl Ranged for Axis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;
    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let f = (v - self.lo) / (self.hi - self.lo);
        limit.0 + (f * f64::from(limit.1 - limit.0)).round() as i32
    }
    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }
    fn range(&self) -> std::ops::Range<f64> {
        self.lo..self.hi
    }
}
