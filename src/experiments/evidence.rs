//! The one evidence rule of every timing verdict: a speed ratio (one
//! cell's seconds over another's) counts when its 95% interval over the
//! cells' timed repeats lies on one side of the verdict's threshold;
//! otherwise the comparison is inconclusive, a verdict of its own. There is
//! no floor on seconds: a short run is evidence when its repeats decide it.
//!
//! The interval is a percentile bootstrap ([`RESAMPLES`] resamples, seeded
//! with [`SEED`], so the same records always give the same interval) of the
//! ratio of the two cells' median seconds, each cell's repeats resampled
//! with replacement, where the records hold every repeat's seconds. Where
//! they hold only the median and the range (the stored rows:
//! `wall_median_s`, `wall_min_s`, `wall_max_s`), the interval is the range
//! bound [numerator's min / denominator's max, numerator's max /
//! denominator's min]: every
//! resample's median lies in its cell's range, so this bound contains the
//! bootstrap interval, and a ratio it decides the bootstrap decides too
//! (it may leave inconclusive what the bootstrap would decide). A cell
//! timed once has no interval: its comparisons are inconclusive.

use super::timing::Spread;
use cvbench_engine::api::seed;
use rand::RngExt as _;

/// Confidence level of the intervals.
pub const LEVEL: f64 = 0.95;

/// Bootstrap resamples per interval.
pub const RESAMPLES: usize = 2000;

/// The bootstrap's seed (fixed: an interval is a function of the records).
pub const SEED: u64 = 0x0e71_de9c_e5ee_d001;

/// The rule in words, as a literal for `concat!` in the kinds' rule texts.
macro_rules! evidence_rule {
    () => {
        "a speed-up counts when its 95% interval over the timed repeats lies on one side of the threshold (percentile bootstrap of the ratio of medians, 2000 resamples, fixed seed; where the records keep only each cell's median and range, the range bound min/max to max/min, which contains the bootstrap interval); otherwise, or where a cell was timed once, the comparison is inconclusive"
    };
}
pub(crate) use evidence_rule;

/// The rule in words, for the scorecard's rule texts and table captions.
pub const RULE: &str = evidence_rule!();

/// A cell's timed runs, as its records hold them.
#[derive(Clone, Debug, PartialEq)]
pub enum Sample {
    /// Every repeat's seconds.
    Runs(Vec<f64>),
    /// The median, smallest and largest seconds of `repeats` runs.
    Summary(Spread),
}

impl Sample {
    /// A cell timed once (or whose records hold only a total).
    pub fn once(seconds: f64) -> Sample {
        Sample::Runs(vec![seconds])
    }

    /// The median seconds.
    pub fn median(&self) -> f64 {
        match self {
            Sample::Runs(r) => median(r),
            Sample::Summary(s) => s.median,
        }
    }

    /// How many timed runs.
    pub fn repeats(&self) -> u64 {
        match self {
            Sample::Runs(r) => r.len() as u64,
            Sample::Summary(s) => s.repeats,
        }
    }

    fn range(&self) -> (f64, f64) {
        match self {
            Sample::Runs(r) => (
                r.iter().copied().fold(f64::INFINITY, f64::min),
                r.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            ),
            Sample::Summary(s) => (s.min, s.max),
        }
    }
}

impl From<Spread> for Sample {
    /// Every run where the records keep them (the bootstrap), else the
    /// median and range (the range bound).
    fn from(s: Spread) -> Sample {
        if s.runs.len() as u64 == s.repeats && s.repeats >= 1 {
            Sample::Runs(s.runs)
        } else {
            Sample::Summary(s)
        }
    }
}

fn median(v: &[f64]) -> f64 {
    let mut w = v.to_vec();
    w.sort_by(f64::total_cmp);
    match w.len() {
        0 => f64::NAN,
        l if l % 2 == 1 => w[l / 2],
        l => 0.5 * (w[l / 2 - 1] + w[l / 2]),
    }
}

/// How an interval was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// Percentile bootstrap of every repeat.
    Bootstrap,
    /// The range bound of the cells' medians and ranges.
    Range,
    /// A cell timed once: no interval.
    Once,
}

/// A ratio of two cells' median seconds and its interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ratio {
    /// Numerator median over denominator median.
    pub point: f64,
    /// Lower end of the interval.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
    /// How the interval was found.
    pub how: How,
    /// The cells' timed runs (numerator, denominator).
    pub repeats: (u64, u64),
}

/// Which side of a threshold a ratio lies on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The whole interval above the threshold.
    Above,
    /// The whole interval below it.
    Below,
    /// The interval holds the threshold, or there is no interval.
    Inconclusive,
}

/// `num`'s median seconds over `den`'s, with its interval.
pub fn ratio(num: &Sample, den: &Sample) -> Ratio {
    let point = num.median() / den.median();
    let repeats = (num.repeats(), den.repeats());
    if repeats.0 < 2 || repeats.1 < 2 {
        return Ratio {
            point,
            lo: point,
            hi: point,
            how: How::Once,
            repeats,
        };
    }
    if let (Sample::Runs(a), Sample::Runs(b)) = (num, den) {
        let mut rng = seed::rng(SEED);
        let mut draw = |v: &[f64]| {
            let r: Vec<f64> = (0..v.len())
                .map(|_| v[rng.random_range(0..v.len())])
                .collect();
            median(&r)
        };
        let mut ratios: Vec<f64> = (0..RESAMPLES).map(|_| draw(a) / draw(b)).collect();
        ratios.sort_by(f64::total_cmp);
        let q = |p: f64| ratios[((ratios.len() - 1) as f64 * p).round() as usize];
        let tail = (1.0 - LEVEL) / 2.0;
        return Ratio {
            point,
            lo: q(tail),
            hi: q(1.0 - tail),
            how: How::Bootstrap,
            repeats,
        };
    }
    let ((a_lo, a_hi), (b_lo, b_hi)) = (num.range(), den.range());
    Ratio {
        point,
        lo: a_lo / b_hi,
        hi: a_hi / b_lo,
        how: How::Range,
        repeats,
    }
}

impl Ratio {
    /// Which side of `threshold` the interval lies on.
    pub fn side(&self, threshold: f64) -> Side {
        if self.how == How::Once || !(self.lo.is_finite() && self.hi.is_finite()) {
            Side::Inconclusive
        } else if self.lo > threshold {
            Side::Above
        } else if self.hi < threshold {
            Side::Below
        } else {
            Side::Inconclusive
        }
    }

    /// The ratio with its interval, e.g. `2.96x [2.51, 3.40]` or
    /// `2.96x (timed once: no interval)`.
    pub fn words(&self) -> String {
        match self.how {
            How::Once => format!(
                "{:.2}x (timed once: no interval; {} and {} runs)",
                self.point, self.repeats.0, self.repeats.1
            ),
            How::Bootstrap => format!(
                "{:.2}x [{:.2}, {:.2}] (95% bootstrap, {} and {} runs)",
                self.point, self.lo, self.hi, self.repeats.0, self.repeats.1
            ),
            How::Range => format!(
                "{:.2}x [{:.2}, {:.2}] (95% range bound, {} and {} runs)",
                self.point, self.lo, self.hi, self.repeats.0, self.repeats.1
            ),
        }
    }

    /// The ratio and its interval for a table cell: `2.96x [2.51, 3.40]`,
    /// `2.96x (timed once: no interval)`.
    pub fn short(&self) -> String {
        match self.how {
            How::Once => format!("{:.2}x (timed once: no interval)", self.point),
            _ => format!("{:.2}x [{:.2}, {:.2}]", self.point, self.lo, self.hi),
        }
    }

    /// Why the ratio does not decide against `threshold` (`None` when it
    /// does).
    pub fn undecided(&self, threshold: f64) -> Option<String> {
        (self.side(threshold) == Side::Inconclusive).then(|| {
            if self.how == How::Once {
                format!(
                    "inconclusive: {} (time each cell at least twice: `timing_repeats`)",
                    self.words()
                )
            } else {
                format!("inconclusive: {} holds {threshold}", self.words())
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spread(median: f64, min: f64, max: f64, repeats: u64) -> Sample {
        Sample::Summary(Spread {
            median,
            min,
            max,
            repeats,
            runs: vec![],
        })
    }

    #[test]
    fn the_range_bound_decides_only_clear_differences() {
        // 2 s against 1 s, ranges apart: above 1.
        let r = ratio(&spread(2.0, 1.9, 2.1, 5), &spread(1.0, 0.9, 1.1, 5));
        assert_eq!(r.how, How::Range);
        assert_eq!(r.side(1.0), Side::Above);
        assert!((r.lo - 1.9 / 1.1).abs() < 1e-12 && (r.hi - 2.1 / 0.9).abs() < 1e-12);
        // Overlapping ranges: inconclusive, whatever the medians say.
        let r = ratio(&spread(1.1, 0.8, 1.3, 5), &spread(1.0, 0.9, 1.2, 5));
        assert_eq!(r.side(1.0), Side::Inconclusive);
        assert!(r.undecided(1.0).unwrap().contains("holds 1"));
    }

    #[test]
    fn records_with_every_run_are_bootstrapped_and_older_ones_range_bound() {
        let with = |runs: Vec<f64>| Spread {
            median: median(&runs),
            min: 0.0,
            max: 0.0,
            repeats: runs.len() as u64,
            runs,
        };
        let a = Sample::from(with(vec![2.0, 2.1, 1.9, 2.05, 1.95]));
        let b = Sample::from(with(vec![1.0, 1.1, 0.9, 1.05, 0.95]));
        assert_eq!(ratio(&a, &b).how, How::Bootstrap);
        let old = spread(2.0, 1.9, 2.1, 5);
        assert_eq!(ratio(&old, &b).how, How::Range);
        assert!(ratio(&old, &b).words().contains("range bound"));
    }

    #[test]
    fn a_cell_timed_once_has_no_interval() {
        let r = ratio(&Sample::once(100.0), &spread(1.0, 0.9, 1.1, 5));
        assert_eq!((r.how, r.side(1.0)), (How::Once, Side::Inconclusive));
        assert!(r.words().contains("timed once"));
    }

    #[test]
    fn short_runs_count_when_their_repeats_decide() {
        // 0.01 s against 0.02 s: far under the old 0.5 s floor, but ten
        // repeats each, tightly spread: below 1 (twice as fast).
        let a: Vec<f64> = (0..10).map(|i| 0.010 + 1e-5 * f64::from(i)).collect();
        let b: Vec<f64> = (0..10).map(|i| 0.020 + 1e-5 * f64::from(i)).collect();
        let r = ratio(&Sample::Runs(a.clone()), &Sample::Runs(b.clone()));
        assert_eq!(r.how, How::Bootstrap);
        assert_eq!(r.side(1.0), Side::Below);
        // Seeded: the same runs give the same interval.
        assert_eq!(r, ratio(&Sample::Runs(a), &Sample::Runs(b)));
    }

    #[test]
    fn the_bootstrap_interval_lies_inside_the_range_bound() {
        let a = vec![1.0, 1.4, 1.1, 0.9, 1.3, 1.2];
        let b = vec![1.0, 1.05, 0.95, 1.1, 0.9, 1.02];
        let boot = ratio(&Sample::Runs(a.clone()), &Sample::Runs(b.clone()));
        let (sa, sb) = (Sample::Runs(a), Sample::Runs(b));
        let bound = ratio(
            &spread(sa.median(), 0.9, 1.4, 6),
            &spread(sb.median(), 0.9, 1.1, 6),
        );
        assert!(
            bound.lo <= boot.lo && boot.hi <= bound.hi,
            "{boot:?} {bound:?}"
        );
    }
}
