//! Repeated timing of a cell, shared by the kinds that time our solver
//! against its peers: cells under two minutes run `timing_repeats` times
//! (the median and the range go on the rows), longer ones once.

use crate::config::{ConfigError, ConfigFile};
use std::time::Instant;
use toml::Spanned;

/// Most repetitions of a timed cell.
pub const MAX_TIMING_REPEATS: u32 = 100;

/// A first run this long is not repeated: cells under two minutes are
/// timed `timing_repeats` times, longer ones once.
pub const REPEAT_BELOW_S: f64 = 120.0;

/// The config key `timing_repeats`, checked: 1 to [`MAX_TIMING_REPEATS`]
/// (default 1), with the key's line:col on error.
pub fn check_repeats(cfg: &ConfigFile, r: &Option<Spanned<u32>>) -> Result<u32, ConfigError> {
    match r {
        None => Ok(1),
        Some(r) if (1..=MAX_TIMING_REPEATS).contains(r.get_ref()) => Ok(*r.get_ref()),
        Some(r) => Err(cfg.invalid(
            r.span(),
            &format!("timing_repeats = {} is out of range", r.get_ref()),
            &format!("use 1 to {MAX_TIMING_REPEATS}"),
        )),
    }
}

/// A cell's wall seconds over its timed runs, sorted.
#[derive(Clone, Debug, PartialEq)]
pub struct Walls(Vec<f64>);

impl Walls {
    /// The runs' wall seconds (any order).
    pub fn of(mut w: Vec<f64>) -> Walls {
        w.sort_by(f64::total_cmp);
        Walls(w)
    }

    /// The median (the mean of the middle two for an even count; NaN
    /// without runs).
    pub fn median(&self) -> f64 {
        let w = &self.0;
        match w.len() {
            0 => f64::NAN,
            l if l % 2 == 1 => w[l / 2],
            l => 0.5 * (w[l / 2 - 1] + w[l / 2]),
        }
    }

    /// The fastest run.
    pub fn min(&self) -> Option<f64> {
        self.0.first().copied()
    }

    /// The slowest run.
    pub fn max(&self) -> Option<f64> {
        self.0.last().copied()
    }

    /// How many runs.
    pub fn runs(&self) -> u64 {
        self.0.len() as u64
    }
}

/// Run `f` up to `repeats` times (once when the first run takes
/// [`REPEAT_BELOW_S`] or more): the first run's result and every run's
/// wall seconds, measured around `f`.
pub fn timed<T, E>(repeats: u32, mut f: impl FnMut() -> Result<T, E>) -> Result<(T, Walls), E> {
    timed_by(repeats, || {
        let t = Instant::now();
        let out = f()?;
        Ok((out, t.elapsed().as_secs_f64()))
    })
}

/// As [`timed`], with `f` giving its own wall seconds (e.g. a peer's
/// process time, or a solve that times its own parts).
pub fn timed_by<T, E>(
    repeats: u32,
    mut f: impl FnMut() -> Result<(T, f64), E>,
) -> Result<(T, Walls), E> {
    let (first, s) = f()?;
    let mut walls = vec![s];
    while walls.len() < repeats.max(1) as usize && walls[0] < REPEAT_BELOW_S {
        walls.push(f()?.1);
    }
    Ok((first, Walls::of(walls)))
}

/// A cell's timed runs: the median, smallest and largest wall seconds of
/// its runs, and how many (one for a cell timed once).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    /// Median wall seconds.
    pub median: f64,
    /// Smallest.
    pub min: f64,
    /// Largest.
    pub max: f64,
    /// Timed runs.
    pub repeats: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_of_odd_and_even_counts() {
        assert_eq!(Walls::of(vec![3.0, 1.0, 2.0]).median(), 2.0);
        assert_eq!(Walls::of(vec![4.0, 1.0, 2.0, 3.0]).median(), 2.5);
        assert!(Walls::of(vec![]).median().is_nan());
        let w = Walls::of(vec![5.0, 1.0, 3.0]);
        assert_eq!((w.min(), w.max(), w.runs()), (Some(1.0), Some(5.0), 3));
    }

    #[test]
    fn short_cells_repeat_and_long_ones_run_once() {
        let mut calls = 0;
        let (first, w) = timed_by::<_, ()>(5, || {
            calls += 1;
            Ok((calls, 1.0))
        })
        .unwrap();
        assert_eq!((first, w.runs(), calls), (1, 5, 5));
        let mut calls = 0;
        let (_, w) = timed_by::<_, ()>(5, || {
            calls += 1;
            Ok(((), REPEAT_BELOW_S))
        })
        .unwrap();
        assert_eq!((w.runs(), calls), (1, 1));
        let (_, w) = timed::<_, ()>(0, || Ok(())).unwrap();
        assert_eq!(w.runs(), 1);
    }

    #[test]
    fn an_error_in_a_repeat_is_the_cells_error() {
        let mut calls = 0;
        let r = timed_by(3, || {
            calls += 1;
            if calls == 2 {
                Err("second run failed")
            } else {
                Ok(((), 0.1))
            }
        });
        assert_eq!(r.unwrap_err(), "second run failed");
    }
}
