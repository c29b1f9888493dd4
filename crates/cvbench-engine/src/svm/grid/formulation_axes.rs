//! The axes of a formulation grid (`cvbench grid -s 1..4`) and its visiting
//! order: C and gamma as grid.py's (`-log2c`, `-log2g`: [`Axis`]), the
//! formulation's own parameter as a third axis, epsilon's as exponents
//! (`-log2p`, an [`Axis`]) and nu's as linear values ([`nu_values`]).
//!
//! The order: for each value of the third axis in the order of its range
//! (begin to end), grid.py's `(C, gamma)` points in grid.py's order
//! ([`Grid`]); where C and gamma are both not searched, one point per third
//! value. The choice's tie-break is applied in this order.

use super::range::{range_error, three_numbers, Grid, MAX_POINTS};
use super::{Axis, GridError};

/// A point of a formulation grid as it is named: `log2 C`, `log2 gamma`
/// and the third value (`log2 p` or nu), each `None` where not searched.
pub type NamedPoint = (Option<f64>, Option<f64>, Option<f64>);

/// The values `begin, begin + step, ...` up to `end` of a linear nu range
/// given to `flag` as `begin,end,step` (the `i`-th value `begin + i step`,
/// rounded to 12 significant digits so that `0.1,0.9,0.2` gives 0.3, not
/// 0.30000000000000004), each in `(0, 1]` as LIBSVM's nu must be.
pub fn nu_values(flag: &str, text: &str) -> Result<Vec<f64>, GridError> {
    let bad = |why: String| range_error(flag, text, why);
    let v = three_numbers(flag, text, "")?;
    let [begin, end, step] = v;
    if step == 0.0 {
        return Err(bad("step 0 never reaches the end of the range".into()));
    }
    if (step > 0.0 && begin > end) || (step < 0.0 && begin < end) {
        return Err(bad(format!(
            "the range is empty: step {step} goes away from end {end} (use a step with the sign of end - begin)"
        )));
    }
    let count = ((end - begin) / step + 1e-9).floor() + 1.0;
    if count > MAX_POINTS as f64 {
        return Err(bad(format!(
            "more than {MAX_POINTS} values on one axis: use a larger step"
        )));
    }
    let out: Vec<f64> = (0..count as usize)
        .map(|i| round12(begin + i as f64 * step))
        .collect();
    if let Some(x) = out.iter().find(|&&x| !(x > 0.0 && x <= 1.0)) {
        return Err(bad(format!(
            "nu = {x} is outside (0, 1] (svm-train refuses it: \"nu <= 0 or nu > 1\"): keep the range within (0, 1]"
        )));
    }
    Ok(out)
}

/// `x` rounded to 12 significant digits.
fn round12(x: f64) -> f64 {
    format!("{x:.11e}").parse().unwrap_or(x)
}

/// Every point of the grid in its visiting order (see the module's doc):
/// `third` holds the third axis's values (`[None]` where it is not
/// searched). Errors on an invalid range or more than [`MAX_POINTS`] points.
pub fn formulation_points(
    c: Option<Axis>,
    g: Option<Axis>,
    third: &[Option<f64>],
) -> Result<Vec<NamedPoint>, GridError> {
    let inner: Vec<(Option<f64>, Option<f64>)> = if c.is_none() && g.is_none() {
        vec![(None, None)]
    } else {
        Grid::new(c, g)?
            .points
            .iter()
            .map(|p| (p.log2c, p.log2g))
            .collect()
    };
    let total = inner.len().saturating_mul(third.len());
    if total > MAX_POINTS {
        return Err(GridError::Usage(format!(
            "the grid has {} x {} = {total} points, more than {MAX_POINTS}: use larger steps or shorter ranges",
            inner.len(),
            third.len()
        )));
    }
    Ok(third
        .iter()
        .flat_map(|&t| inner.iter().map(move |&(c, g)| (c, g, t)))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nu_ranges() {
        assert_eq!(
            nu_values("-nu", "0.1,0.9,0.2").unwrap(),
            vec![0.1, 0.3, 0.5, 0.7, 0.9]
        );
        assert_eq!(
            nu_values("-nu", "0.5,0.1,-0.2").unwrap(),
            vec![0.5, 0.3, 0.1]
        );
        for bad in [
            "0,0.5,0.1",
            "0.5,1.5,0.5",
            "0.1,0.5",
            "0.1,0.5,0",
            "0.5,0.1,0.1",
            "a,1,1",
        ] {
            assert!(nu_values("-nu", bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn third_axis_outermost_grid_py_order_inside() {
        let c = Axis::parse("-log2c", "-1,1,2").unwrap();
        let g = Axis::parse("-log2g", "0,1,1").unwrap();
        let pts = formulation_points(c, g, &[Some(-3.0), Some(-1.0)]).unwrap();
        assert_eq!(pts.len(), 8);
        assert_eq!(pts[0], (Some(1.0), Some(1.0), Some(-3.0)));
        assert!(pts[..4].iter().all(|p| p.2 == Some(-3.0)));
        assert_eq!(pts[4].2, Some(-1.0));
        assert_eq!(
            formulation_points(None, None, &[Some(0.5)]).unwrap(),
            vec![(None, None, Some(0.5))]
        );
    }
}
