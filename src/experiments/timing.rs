//! Repeated timing of a cell, shared by the kinds that time our solver
//! against its peers: every cell runs `timing_repeats` times, at least
//! [`MIN_TIMED_RUNS`] unless the config says why not
//! (`timed_fewer_because`, which also lets a cell of two minutes or more
//! run once); every run's seconds, their median and range go on the rows;
//! a config with `min_timed_seconds` times short cells again until their
//! runs total that long ([`Repeats`], [`check_policy`]).

use crate::config::{ConfigError, ConfigFile};
use std::time::Instant;
use toml::Spanned;

/// Fewest timed runs of a cell (ours and the peers') unless the config
/// says why not (`timed_fewer_because`): three runs give a bootstrap
/// interval of the ratio of medians.
pub const MIN_TIMED_RUNS: u32 = 3;

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

/// Longest `min_timed_seconds` a config may ask for.
pub const MAX_MIN_TIMED_S: f64 = 600.0;

/// How many times a cell is timed: `runs` times, and a short cell more,
/// until its timed runs total `min_total_s` seconds or it has run `cap`
/// times (the config keys `timing_repeats`, `min_timed_seconds` and
/// `max_timing_repeats`), so that a short cell's interval is decided by
/// repeats rather than a floor. Only the wall seconds vary: the records are
/// the first run's rows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Repeats {
    /// Runs every cell gets (at least 1).
    pub runs: u32,
    /// Timed seconds a short cell is repeated until (0: none).
    pub min_total_s: f64,
    /// Most runs of a short cell (at least `runs`).
    pub cap: u32,
    /// A first run this long is not repeated ([`REPEAT_BELOW_S`] where the
    /// config says why cells may be timed fewer times; infinite, so that
    /// every cell runs `runs` times, where it does not).
    pub long_s: f64,
}

impl From<u32> for Repeats {
    fn from(runs: u32) -> Repeats {
        Repeats {
            runs: runs.max(1),
            min_total_s: 0.0,
            cap: runs.max(1),
            long_s: REPEAT_BELOW_S,
        }
    }
}

/// The timing policy of a config: `timing_repeats` checked (1 to
/// [`MAX_TIMING_REPEATS`]) against `timed_fewer_because`. Without a
/// reason, every cell (ours and the peers') is timed at least
/// [`MIN_TIMED_RUNS`] times (the default), long cells included; with one,
/// `timing_repeats` may be lower (default 1) and a first run of
/// [`REPEAT_BELOW_S`] or more is not repeated. Errors name the key's line:col.
pub fn check_policy(
    cfg: &ConfigFile,
    runs: &Option<Spanned<u32>>,
    because: &Option<Spanned<String>>,
) -> Result<Repeats, ConfigError> {
    let reason = because.as_ref().filter(|b| !b.get_ref().trim().is_empty());
    if let (Some(b), None) = (because, reason) {
        return Err(cfg.invalid(
            b.span(),
            "timed_fewer_because is empty",
            "say why cells may be timed fewer than 3 times, or remove the key",
        ));
    }
    let n = match (runs, reason) {
        (None, None) => MIN_TIMED_RUNS,
        (Some(r), None) if *r.get_ref() < MIN_TIMED_RUNS => {
            return Err(cfg.invalid(
                r.span(),
                &format!(
                    "timing_repeats = {} times cells fewer than {MIN_TIMED_RUNS} times",
                    r.get_ref()
                ),
                &format!(
                "use at least {MIN_TIMED_RUNS}, or say why not in timed_fewer_because = \"...\""
            ),
            ))
        }
        _ => check_repeats(cfg, runs)?,
    };
    Ok(Repeats {
        long_s: if reason.is_some() {
            REPEAT_BELOW_S
        } else {
            f64::INFINITY
        },
        ..Repeats::from(n)
    })
}

impl Repeats {
    /// Whether a cell whose timed runs took `walls` seconds runs again:
    /// never when its first run took `long_s` or more; else
    /// until it has run `runs` times and its runs total `min_total_s`
    /// seconds, `cap` runs at most.
    pub fn again(&self, walls: &[f64]) -> bool {
        let Some(first) = walls.first() else {
            return true;
        };
        let n = walls.len();
        if *first >= self.long_s || n >= self.cap.max(self.runs) as usize {
            return false;
        }
        n < self.runs as usize || walls.iter().sum::<f64>() < self.min_total_s
    }

    /// The timing keys of a config, checked: `timing_repeats` (1 to
    /// [`MAX_TIMING_REPEATS`], default 1); `min_timed_seconds` (above 0, at
    /// most [`MAX_MIN_TIMED_S`]); `max_timing_repeats` (only with
    /// `min_timed_seconds`, from `timing_repeats` to [`MAX_TIMING_REPEATS`],
    /// default [`MAX_TIMING_REPEATS`]); errors name the key's line:col.
    pub fn check(
        cfg: &ConfigFile,
        runs: &Option<Spanned<u32>>,
        min_total_s: &Option<Spanned<f64>>,
        cap: &Option<Spanned<u32>>,
        because: &Option<Spanned<String>>,
    ) -> Result<Repeats, ConfigError> {
        let policy = check_policy(cfg, runs, because)?;
        let runs = policy.runs;
        let Some(min) = min_total_s else {
            return match cap {
                None => Ok(policy),
                Some(c) => Err(cfg.invalid(
                    c.span(),
                    "max_timing_repeats is set without min_timed_seconds",
                    "set min_timed_seconds (the timed seconds a short cell is repeated until), or remove max_timing_repeats",
                )),
            };
        };
        let m = *min.get_ref();
        if !(m > 0.0 && m <= MAX_MIN_TIMED_S) {
            return Err(cfg.invalid(
                min.span(),
                &format!("min_timed_seconds = {m} is out of range"),
                &format!("use a number of seconds above 0 and at most {MAX_MIN_TIMED_S}"),
            ));
        }
        let cap = match cap {
            None => MAX_TIMING_REPEATS.max(runs),
            Some(c) if (runs..=MAX_TIMING_REPEATS).contains(c.get_ref()) => *c.get_ref(),
            Some(c) => {
                return Err(cfg.invalid(
                    c.span(),
                    &format!("max_timing_repeats = {} is out of range", c.get_ref()),
                    &format!("use timing_repeats ({runs}) to {MAX_TIMING_REPEATS}"),
                ))
            }
        };
        Ok(Repeats {
            runs,
            min_total_s: m,
            cap,
            long_s: policy.long_s,
        })
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

/// Run `f` as [`Repeats::again`] says (`repeats` times, once when the
/// first run takes [`REPEAT_BELOW_S`] or more): the first run's result and
/// every run's wall seconds, measured around `f`.
pub fn timed<T, E>(
    repeats: impl Into<Repeats>,
    mut f: impl FnMut() -> Result<T, E>,
) -> Result<(T, Walls), E> {
    timed_by(repeats, || {
        let t = Instant::now();
        let out = f()?;
        Ok((out, t.elapsed().as_secs_f64()))
    })
}

/// As [`timed`], with `f` giving its own wall seconds (e.g. a peer's
/// process time, or a solve that times its own parts).
pub fn timed_by<T, E>(
    repeats: impl Into<Repeats>,
    mut f: impl FnMut() -> Result<(T, f64), E>,
) -> Result<(T, Walls), E> {
    let repeats = repeats.into();
    let (first, s) = f()?;
    let mut walls = vec![s];
    while repeats.again(&walls) {
        walls.push(f()?.1);
    }
    Ok((first, Walls::of(walls)))
}

/// Minutes, rounded for planning: one decimal below 10, whole above (the
/// cost estimates of `validate`, `--dry-run` and the scorecard's missing runs).
pub fn planning_minutes(m: f64) -> String {
    if m < 10.0 {
        format!("{m:.1}")
    } else {
        format!("{m:.0}")
    }
}

/// A cell's timed runs: the median, smallest and largest wall seconds of
/// its runs, and how many (one for a cell timed once); and every run's
/// seconds where the records keep them (the `wall_runs_s` column).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Spread {
    /// Median wall seconds.
    pub median: f64,
    /// Smallest.
    pub min: f64,
    /// Largest.
    pub max: f64,
    /// Timed runs.
    pub repeats: u64,
    /// Every timed run's seconds (empty where the records keep only the
    /// median and the range: runs made before the column).
    pub runs: Vec<f64>,
}

/// The `wall_runs_s` column's text of a cell's timed runs: every run's
/// seconds, `;`-separated, in full precision.
pub fn runs_text(walls: &Walls) -> String {
    walls
        .0
        .iter()
        .map(|w| w.to_string())
        .collect::<Vec<_>>()
        .join(";")
}

/// The runs of a `wall_runs_s` text (empty for an empty or unreadable text:
/// a record made before the column).
pub fn parse_runs(text: &str) -> Vec<f64> {
    let v: Option<Vec<f64>> = text
        .split(';')
        .filter(|t| !t.trim().is_empty())
        .map(|t| t.trim().parse().ok())
        .collect();
    v.unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_timed_run_is_kept_in_its_text() {
        let w = Walls::of(vec![0.25, 0.125, 1.0 / 3.0]);
        let t = runs_text(&w);
        assert_eq!(parse_runs(&t), vec![0.125, 0.25, 1.0 / 3.0]);
        assert!(parse_runs("").is_empty() && parse_runs("1;x").is_empty());
    }

    #[test]
    fn a_short_cell_is_repeated_until_its_timed_seconds_or_the_cap() {
        let r = Repeats {
            runs: 3,
            min_total_s: 1.0,
            cap: 10,
            long_s: REPEAT_BELOW_S,
        };
        // Fabricated timings: 0.1 s runs go on past 3 until 1 s is timed...
        assert!(r.again(&[0.1; 3]));
        assert!(r.again(&[0.1; 9]));
        // ...or the cap; long runs stop at `runs`; a first run of two
        // minutes or more is never repeated.
        assert!(!r.again(&[0.1; 10]));
        assert!(!r.again(&[0.5, 0.5, 0.5]));
        assert!(r.again(&[0.5, 0.5]));
        assert!(!r.again(&[REPEAT_BELOW_S]));
        // Without a reason to time fewer: a long first run is repeated too.
        let all = Repeats {
            long_s: f64::INFINITY,
            ..Repeats::from(3)
        };
        assert!(all.again(&[REPEAT_BELOW_S * 2.0]));
        assert!(!all.again(&[REPEAT_BELOW_S * 2.0; 3]));
        // Without min_timed_seconds: exactly `timing_repeats`, as before.
        let plain = Repeats::from(3);
        assert!(plain.again(&[0.001, 0.001]));
        assert!(!plain.again(&[0.001; 3]));
        // timed_by counts the runs the rule asks for, and keeps the first
        // run's result.
        let mut i = 0;
        let (first, walls) = timed_by(r, || {
            i += 1;
            Ok::<_, ()>((i, 0.25))
        })
        .unwrap();
        assert_eq!((first, walls.runs()), (1, 4));
    }

    #[test]
    fn the_timing_keys_are_checked_with_their_line() {
        let check = |text: &str| {
            let cfg = ConfigFile::from_text("t.toml", text);
            #[derive(serde::Deserialize)]
            struct T {
                timing_repeats: Option<Spanned<u32>>,
                min_timed_seconds: Option<Spanned<f64>>,
                max_timing_repeats: Option<Spanned<u32>>,
                timed_fewer_because: Option<Spanned<String>>,
            }
            let t: T = cfg.parse().unwrap();
            Repeats::check(
                &cfg,
                &t.timing_repeats,
                &t.min_timed_seconds,
                &t.max_timing_repeats,
                &t.timed_fewer_because,
            )
            .map_err(|e| e.to_string())
        };
        // Without a reason: 3 runs of every cell, long ones included.
        let all = check("").unwrap();
        assert_eq!((all.runs, all.long_s), (3, f64::INFINITY));
        let e = check("timing_repeats = 1\n").unwrap_err();
        assert!(
            e.contains("t.toml:1") && e.contains("timed_fewer_because"),
            "{e}"
        );
        // With one: fewer runs, default 1, and a long first run once.
        let why = "timed_fewer_because = \"hours\"\n";
        assert_eq!(check(why).unwrap(), Repeats::from(1));
        assert_eq!(
            check(&format!("{why}timing_repeats = 2\n")).unwrap(),
            Repeats::from(2)
        );
        let e = check("timed_fewer_because = \" \"\n").unwrap_err();
        assert!(e.contains("is empty"), "{e}");
        let r = check("timing_repeats = 3\nmin_timed_seconds = 2.5\n").unwrap();
        assert_eq!((r.runs, r.min_total_s, r.cap), (3, 2.5, MAX_TIMING_REPEATS));
        let e = check("max_timing_repeats = 5\n").unwrap_err();
        assert!(
            e.contains("t.toml:1") && e.contains("set min_timed_seconds"),
            "{e}"
        );
        let e = check("min_timed_seconds = 0.0\n").unwrap_err();
        assert!(e.contains("min_timed_seconds = 0 is out of range"), "{e}");
        let e = check("timing_repeats = 5\nmin_timed_seconds = 1.0\nmax_timing_repeats = 4\n")
            .unwrap_err();
        assert!(
            e.contains("t.toml:3") && e.contains("use timing_repeats (5) to 100"),
            "{e}"
        );
    }

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
