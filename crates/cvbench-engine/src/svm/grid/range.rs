//! grid.py's ranges and the order in which it visits grid points.
//!
//! `-log2c begin,end,step` expands like grid.py's `range_f` (repeated
//! addition of `step` until `end` is passed), each axis is reordered by
//! grid.py's `permute_sequence` (middle first, then the middles of both
//! halves, interleaved), and the points are visited in grid.py's
//! `calculate_jobs` order, which alternately refines C and gamma. The order
//! matters: grid.py's tie-break (`rate == best and g == best_g and c <
//! best_c`) is applied in that order, so the chosen point depends on it.

use super::GridError;

/// The most points an axis or a whole grid may have.
pub const MAX_POINTS: usize = 10_000;

/// The exponents `x` allowed on an axis: `2^x` is then a finite number > 0
/// in single precision, the precision in which `svm-train` (and the grid,
/// unless `--exact-params`) reads C and gamma. `-log2c 2000,2001,1` would
/// give C = infinity.
pub const EXPONENTS: std::ops::RangeInclusive<f64> = -149.0..=127.0;

/// One axis of the grid: `log2` values `begin, begin + step, ...` up to `end`.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    /// First exponent.
    pub begin: f64,
    /// Last exponent (inclusive, when reached exactly).
    pub end: f64,
    /// Increment (non-zero, with the sign of `end - begin`).
    pub step: f64,
    /// grid.py keeps its default ranges as Python integers (printed `-5`)
    /// and parses user ranges with `float` (printed `-5.0`): true for the
    /// latter.
    pub user: bool,
}

impl Axis {
    /// grid.py's default C range, `-5,15,2`.
    pub fn default_c() -> Axis {
        Axis {
            begin: -5.0,
            end: 15.0,
            step: 2.0,
            user: false,
        }
    }

    /// grid.py's default gamma range, `3,-15,-2`.
    pub fn default_g() -> Axis {
        Axis {
            begin: 3.0,
            end: -15.0,
            step: -2.0,
            user: false,
        }
    }

    /// Parse `begin,end,step` as given to `flag` (`-log2c` or `-log2g`);
    /// `Ok(None)` for `null`. The range is checked: three finite numbers, a
    /// non-zero step pointing from `begin` to `end`, exponents within
    /// [`EXPONENTS`], at most [`MAX_POINTS`] values. The one check of a
    /// range, for `-log2c`/`-log2g` and the `svm_grid` config's keys alike.
    pub fn parse(flag: &str, text: &str) -> Result<Option<Axis>, GridError> {
        if text == "null" {
            return Ok(None);
        }
        let bad = |why: String| range_error(flag, text, why);
        let v = three_numbers(flag, text, " (or null)")?;
        let axis = Axis {
            begin: v[0],
            end: v[1],
            step: v[2],
            user: true,
        };
        axis.values().map_err(|e| match e {
            GridError::Range { why, .. } => bad(why),
            other => other,
        })?;
        Ok(Some(axis))
    }

    /// The exponents in increasing-index order (grid.py's `range_f`).
    pub fn values(&self) -> Result<Vec<f64>, GridError> {
        let bad = |why: String| GridError::Range {
            flag: String::new(),
            value: format!("{},{},{}", self.begin, self.end, self.step),
            why,
        };
        if self.step == 0.0 {
            return Err(bad("step 0 never reaches the end of the range".into()));
        }
        if (self.step > 0.0 && self.begin > self.end) || (self.step < 0.0 && self.begin < self.end)
        {
            return Err(bad(format!(
                "the range is empty: step {} goes away from end {} (use a step with the sign of end - begin)",
                self.step, self.end
            )));
        }
        let mut out = Vec::new();
        let mut x = self.begin;
        loop {
            if (self.step > 0.0 && x > self.end) || (self.step < 0.0 && x < self.end) {
                break;
            }
            if out.len() >= MAX_POINTS {
                return Err(bad(format!(
                    "more than {MAX_POINTS} values on one axis: use a larger step"
                )));
            }
            if !EXPONENTS.contains(&x) {
                return Err(bad(format!(
                    "2^{x} is not a finite number > 0 in single precision (as svm-train reads C and gamma): use exponents from {} to {}",
                    EXPONENTS.start(),
                    EXPONENTS.end()
                )));
            }
            out.push(x);
            let next = x + self.step;
            if next == x {
                return Err(bad(format!(
                    "step {} is too small to change {x}: the range never ends",
                    self.step
                )));
            }
            x = next;
        }
        Ok(out)
    }
}

/// grid.py's `permute_sequence`: the middle element, then the permuted
/// halves interleaved (left first).
pub fn permute<T: Copy>(seq: &[T]) -> Vec<T> {
    let n = seq.len();
    if n <= 1 {
        return seq.to_vec();
    }
    let mid = n / 2;
    let left = permute(&seq[..mid]);
    let right = permute(&seq[mid + 1..]);
    let mut out = Vec::with_capacity(n);
    out.push(seq[mid]);
    let (mut l, mut r) = (left.into_iter(), right.into_iter());
    loop {
        let a = l.next();
        let b = r.next();
        if a.is_none() && b.is_none() {
            break;
        }
        out.extend(a);
        out.extend(b);
    }
    out
}

/// A grid point as grid.py names it: the exponents (`None` for a null axis).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// `log2 C`, or `None` when C is not searched (svm-train's default 1).
    pub log2c: Option<f64>,
    /// `log2 gamma`, or `None` when gamma is not searched (svm-train's default).
    pub log2g: Option<f64>,
}

impl Point {
    /// `C = 2^log2c` (1 when not searched).
    pub fn c(&self) -> f64 {
        self.log2c.map_or(1.0, |e| 2f64.powf(e))
    }

    /// `gamma = 2^log2g`, or `default_gamma` when not searched.
    pub fn gamma(&self, default_gamma: f64) -> f64 {
        self.log2g.map_or(default_gamma, |e| 2f64.powf(e))
    }
}

/// The grid: both axes and the points in grid.py's visiting order.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    /// The C axis (`None`: `-log2c null`).
    pub c: Option<Axis>,
    /// The gamma axis (`None`: `-log2g null`).
    pub g: Option<Axis>,
    /// Every point, in grid.py's job order.
    pub points: Vec<Point>,
}

impl Grid {
    /// Expand the axes into points in grid.py's order. Errors when both axes
    /// are null, a range is invalid, or the grid has more than [`MAX_POINTS`]
    /// points.
    pub fn new(c: Option<Axis>, g: Option<Axis>) -> Result<Grid, GridError> {
        if c.is_none() && g.is_none() {
            return Err(GridError::Usage(
                "-log2c and -log2g should not be null simultaneously".into(),
            ));
        }
        let seq = |a: &Option<Axis>| -> Result<Vec<Option<f64>>, GridError> {
            Ok(match a {
                Some(a) => permute(&a.values()?).into_iter().map(Some).collect(),
                None => vec![None],
            })
        };
        let (cs, gs) = (seq(&c)?, seq(&g)?);
        let total = cs.len().saturating_mul(gs.len());
        if total > MAX_POINTS {
            return Err(GridError::Usage(format!(
                "the grid has {} x {} = {total} points, more than {MAX_POINTS}: use larger steps or shorter ranges",
                cs.len(),
                gs.len()
            )));
        }
        let (nc, ng) = (cs.len() as f64, gs.len() as f64);
        let (mut i, mut j) = (0usize, 0usize);
        let mut points = Vec::with_capacity(total);
        while (i as f64) < nc || (j as f64) < ng {
            if (i as f64) / nc < (j as f64) / ng {
                for &gk in &gs[..j] {
                    points.push(Point {
                        log2c: cs[i],
                        log2g: gk,
                    });
                }
                i += 1;
            } else {
                for &ck in &cs[..i] {
                    points.push(Point {
                        log2c: ck,
                        log2g: gs[j],
                    });
                }
                j += 1;
            }
        }
        Ok(Grid { c, g, points })
    }

    /// grid.py's default 11 x 10 grid.
    pub fn default_grid() -> Grid {
        Grid::new(Some(Axis::default_c()), Some(Axis::default_g()))
            .expect("the default ranges are valid")
    }
}

/// A [`GridError::Range`] of the range `text` given to `flag`.
pub(crate) fn range_error(flag: &str, text: &str, why: String) -> GridError {
    GridError::Range {
        flag: flag.to_string(),
        value: text.to_string(),
        why,
    }
}

/// The three finite numbers of a range `begin,end,step` given to `flag`
/// (`alternative` names what else the flag takes, e.g. " (or null)").
pub(crate) fn three_numbers(
    flag: &str,
    text: &str,
    alternative: &str,
) -> Result<[f64; 3], GridError> {
    let bad = |why: String| range_error(flag, text, why);
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() != 3 {
        return Err(bad(format!(
            "expected three numbers begin,end,step{alternative}, got {} value{}",
            parts.len(),
            if parts.len() == 1 { "" } else { "s" }
        )));
    }
    let mut v = [0.0; 3];
    for (slot, p) in v.iter_mut().zip(&parts) {
        let x: f64 = p
            .trim()
            .parse()
            .map_err(|_| bad(format!("`{p}` is not a number")))?;
        if !x.is_finite() {
            return Err(bad(format!("`{p}` is not a finite number")));
        }
        *slot = x;
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permute_matches_grid_py() {
        // grid.py: permute_sequence(list(range(-5, 16, 2)))
        let c: Vec<i32> = (-5..=15).step_by(2).collect();
        assert_eq!(permute(&c), vec![5, -1, 11, -3, 9, 3, 15, -5, 7, 1, 13]);
    }

    #[test]
    fn default_grid_has_110_points_in_grid_py_order() {
        let g = Grid::default_grid();
        assert_eq!(g.points.len(), 110);
        let first: Vec<(f64, f64)> = g.points[..4]
            .iter()
            .map(|p| (p.log2c.unwrap(), p.log2g.unwrap()))
            .collect();
        assert_eq!(
            first,
            vec![(5.0, -7.0), (-1.0, -7.0), (5.0, -1.0), (-1.0, -1.0)]
        );
    }

    #[test]
    fn bad_ranges_are_rejected() {
        for bad in [
            "1,2",
            "1,2,0",
            "1,5,-1",
            "a,2,1",
            "0,1e9,1e-9",
            "0,100000,1",
            "1,2,nan",
            "2000,2001,1",
            "-150,0,1",
        ] {
            assert!(Axis::parse("-log2c", bad).is_err(), "{bad}");
        }
        assert_eq!(Axis::parse("-log2c", "null").unwrap(), None);
        let a = Axis::parse("-log2c", "1,2,0.5").unwrap().unwrap();
        assert_eq!(a.values().unwrap(), vec![1.0, 1.5, 2.0]);
        let big = Grid::new(
            Axis::parse("-log2c", "-72,127,1").unwrap(),
            Axis::parse("-log2g", "0,99,1").unwrap(),
        );
        assert!(big.is_err());
        assert!(Grid::new(None, None).is_err());
    }
}
