//! The C path's warm start: an optimum at C scaled to the start of the
//! solve at a larger C' (used by the binary grid's chains and by the
//! one-vs-one grid per class pair).

use super::newton::Warm;
use crate::svm::model::solution::TrainOutput;

/// The warm start for C' from the optimum at C: `alpha' = t alpha`,
/// `G' = t (G + e) - e`, `G_bar' = t G_bar` with `t = C'/C` (alphas at C
/// go to exactly C'). Without the gradient when rounding could put an alpha
/// at the bound that was not at it before (the solver then recomputes it).
/// `None` after a single-class solve or when C' < C.
pub fn scale_warm(prev: &TrainOutput, c0: f64, c1: f64) -> Option<Warm> {
    if prev.single_class {
        return None;
    }
    let at = Optimum {
        alpha: &prev.alpha,
        gradient: &prev.gradient,
        g_bar: &prev.g_bar,
        c: c0,
    };
    scale_solution(at, c1)
}

/// An optimum a warm start starts from: a solve's unsigned `alpha`, its
/// gradient `G = Q alpha - e` and `G_bar`, all bounded by `c` (one C for
/// both classes).
#[derive(Clone, Copy, Debug)]
pub struct Optimum<'a> {
    /// The unsigned alphas.
    pub alpha: &'a [f64],
    /// `G = Q alpha - e`.
    pub gradient: &'a [f64],
    /// `G_bar`.
    pub g_bar: &'a [f64],
    /// The C the alphas are bounded by.
    pub c: f64,
}

impl Optimum<'_> {
    /// `C'/C` for C' = `c1`; `None` when `c1 < C` (no warm start).
    fn ratio_to(&self, c1: f64) -> Option<f64> {
        if c1 < self.c {
            None
        } else {
            Some(c1 / self.c)
        }
    }
}

/// [`scale_warm`] from any optimum `at` to C' = `c1`; `None` when `c1` is
/// below its C.
pub fn scale_solution(at: Optimum<'_>, c1: f64) -> Option<Warm> {
    let t = at.ratio_to(c1)?;
    let (c0, alpha, gradient, g_bar) = (at.c, at.alpha, at.gradient, at.g_bar);
    let mut consistent = true;
    let alpha: Vec<f64> = alpha
        .iter()
        .map(|&a| {
            if a >= c0 {
                c1
            } else {
                let s = a * t;
                if s >= c1 {
                    consistent = false;
                    c1
                } else {
                    s
                }
            }
        })
        .collect();
    let grad = consistent.then(|| {
        (
            gradient.iter().map(|&g| t * (g + 1.0) - 1.0).collect(),
            g_bar.iter().map(|&gb| t * gb).collect(),
        )
    });
    Some((alpha, grad))
}

/// The warm start for C' from the optimum at C along the ray `s alpha`:
/// the factor `s` in `[1, C'/C]` that minimises the dual objective
/// `s^2 a - s b` (`a = alpha' Q alpha / 2 = sum alpha (G + 1) / 2`,
/// `b = sum alpha`, both from the optimum's gradient, no kernel
/// evaluation). At `s = C'/C` it is [`scale_solution`] (an optimum with
/// most alphas at the bound, small C); at `s = 1` the optimum itself (no
/// alpha at the bound: the larger C changes nothing, hard margin); between,
/// `alpha' = s alpha`, `G' = s (G + e) - e` and `G_bar' = 0` (no alpha
/// reaches C'). Feasible in every case (`s` keeps `sum y alpha = 0`).
/// `None` when `c1` is below the optimum's C.
pub fn ray_solution(at: Optimum<'_>, c1: f64) -> Option<Warm> {
    let t = at.ratio_to(c1)?;
    let (alpha, gradient, g_bar) = (at.alpha, at.gradient, at.g_bar);
    let a: f64 = 0.5
        * alpha
            .iter()
            .zip(gradient)
            .map(|(&x, &g)| x * (g + 1.0))
            .sum::<f64>();
    let b: f64 = alpha.iter().sum();
    let s = if a > 0.0 {
        (b / (2.0 * a)).clamp(1.0, t)
    } else {
        t
    };
    if s.is_nan() || s >= t {
        return scale_solution(at, c1);
    }
    Some((
        alpha.iter().map(|&x| s * x).collect(),
        Some((
            gradient.iter().map(|&g| s * (g + 1.0) - 1.0).collect(),
            vec![0.0; g_bar.len()],
        )),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at<'a>(alpha: &'a [f64], gradient: &'a [f64], g_bar: &'a [f64], c: f64) -> Optimum<'a> {
        Optimum {
            alpha,
            gradient,
            g_bar,
            c,
        }
    }

    #[test]
    fn ray_start_keeps_a_hard_margin_optimum_and_scales_a_bounded_one() {
        // sum alpha = 2 alpha' Q alpha / 2 (the KKT identity of an optimum
        // with no alpha at the bound): s = 1, the optimum itself.
        let (a, g) = ray_solution(at(&[1.0, 1.0], &[0.0, 0.0], &[0.0, 0.0], 1.0), 4.0).unwrap();
        assert_eq!(a, vec![1.0, 1.0]);
        assert_eq!(g, Some((vec![0.0, 0.0], vec![0.0, 0.0])));
        // The objective's minimum on the ray beyond C'/C: the binary
        // grid's scaled start, alphas at C going to C'.
        let far = ray_solution(at(&[1.0, 1.0], &[-0.9, -0.9], &[2.0, 2.0], 1.0), 4.0);
        assert_eq!(
            far,
            scale_solution(at(&[1.0, 1.0], &[-0.9, -0.9], &[2.0, 2.0], 1.0), 4.0)
        );
        assert_eq!(far.unwrap().0, vec![4.0, 4.0]);
        // Between: s = b / (2a) = 2, no alpha at C', G_bar = 0.
        let (a, g) = ray_solution(at(&[1.0, 0.5], &[-0.5, -0.5], &[1.0, 0.0], 1.0), 4.0).unwrap();
        let s = 1.5 / (2.0 * 0.5 * (0.5 + 0.25));
        assert_eq!(a, vec![s, s * 0.5]);
        let (gr, gb) = g.unwrap();
        assert_eq!(gr, vec![s * 0.5 - 1.0; 2]);
        assert_eq!(gb, vec![0.0, 0.0]);
        // A smaller C' gets no warm start.
        assert!(ray_solution(at(&[1.0], &[0.0], &[0.0], 2.0), 1.0).is_none());
    }
}
