//! Ridge regression from sufficient statistics: an *exactly incremental and
//! order-insensitive* learner. The model is `(A, b) = (sum x x^T, sum y x)`;
//! predictions use `w = (A + lambda I)^{-1} b`. Any order of the same points
//! gives the same `(A, b)` (up to floating-point summation order), so TreeCV
//! must equal standard CV for it — the harness's exactness invariant.
//!
//! Save/revert is exact downdating: subtract the points' contributions.

use super::{positive, IncrementalLearner, LearnerError};
use crate::data::Dataset;

/// Ridge regression with penalty `lambda`.
#[derive(Clone, Debug, PartialEq)]
pub struct Ridge {
    /// Penalty `lambda > 0`.
    pub lambda: f64,
}

impl Ridge {
    /// The default penalty.
    pub const DEFAULT_LAMBDA: f64 = 1.0;

    /// The most features ridge takes: its model is a `d × d` matrix (128 MiB
    /// at this width), and TreeCV keeps several models at once.
    pub const MAX_FEATURES: usize = 4096;

    /// Check, before any model is allocated, that data with `d` features
    /// fits: at most [`Ridge::MAX_FEATURES`].
    pub fn check_features(&self, d: usize) -> Result<(), LearnerError> {
        if d > Self::MAX_FEATURES {
            return Err(LearnerError::TooWide {
                learner: self.name(),
                d,
                max: Self::MAX_FEATURES,
                what: "8 × d² bytes per model",
            });
        }
        Ok(())
    }

    /// Ridge regression with penalty `lambda` (finite, > 0).
    pub fn new(lambda: f64) -> Result<Ridge, LearnerError> {
        Ok(Ridge {
            lambda: positive("lambda", lambda)?,
        })
    }
}

/// Sufficient statistics of ridge regression.
#[derive(Clone, Debug, PartialEq)]
pub struct RidgeModel {
    /// Feature count.
    pub d: usize,
    /// `A = sum x x^T`, row-major `d × d`.
    pub a: Vec<f64>,
    /// `b = sum y x`.
    pub b: Vec<f64>,
    /// Number of points added.
    pub count: u64,
}

impl RidgeModel {
    fn add(&mut self, data: &Dataset, i: usize, sign: f64) {
        let x = data.row(i).to_dense(self.d);
        let y = data.y[i];
        for (r, xr) in x.iter().enumerate() {
            if *xr == 0.0 {
                continue;
            }
            let row = &mut self.a[r * self.d..(r + 1) * self.d];
            for (a, xc) in row.iter_mut().zip(&x) {
                *a += sign * xr * xc;
            }
            self.b[r] += sign * y * xr;
        }
        if sign > 0.0 {
            self.count += 1;
        } else {
            self.count -= 1;
        }
    }

    /// Solve `(A + lambda I) w = b` by Cholesky factorisation.
    pub fn weights(&self, lambda: f64) -> Vec<f64> {
        let d = self.d;
        let mut l = self.a.clone();
        for j in 0..d {
            l[j * d + j] += lambda;
        }
        // In-place Cholesky: lower triangle of l becomes L with L L^T = A + lambda I.
        for j in 0..d {
            let mut s = l[j * d + j];
            for k in 0..j {
                s -= l[j * d + k] * l[j * d + k];
            }
            let diag = s.max(f64::MIN_POSITIVE).sqrt();
            l[j * d + j] = diag;
            for i in j + 1..d {
                let mut s = l[i * d + j];
                for k in 0..j {
                    s -= l[i * d + k] * l[j * d + k];
                }
                l[i * d + j] = s / diag;
            }
        }
        // Forward then backward substitution.
        let mut z = self.b.clone();
        for i in 0..d {
            for k in 0..i {
                z[i] -= l[i * d + k] * z[k];
            }
            z[i] /= l[i * d + i];
        }
        for i in (0..d).rev() {
            for k in i + 1..d {
                z[i] -= l[k * d + i] * z[k];
            }
            z[i] /= l[i * d + i];
        }
        z
    }
}

impl IncrementalLearner for Ridge {
    type Model = RidgeModel;
    type Journal = Vec<usize>;

    fn name(&self) -> String {
        format!("ridge(lambda={:e})", self.lambda)
    }

    fn init(&self, data: &Dataset) -> RidgeModel {
        let d = data.d();
        RidgeModel {
            d,
            a: vec![0.0; d * d],
            b: vec![0.0; d],
            count: 0,
        }
    }

    fn update(&self, model: &mut RidgeModel, data: &Dataset, points: &[usize]) {
        for &i in points {
            model.add(data, i, 1.0);
        }
    }

    fn loss(&self, model: &RidgeModel, data: &Dataset, i: usize) -> f64 {
        self.mean_loss(model, data, &[i])
    }

    /// Solves for `w` once, then averages the squared errors.
    fn mean_loss(&self, model: &RidgeModel, data: &Dataset, points: &[usize]) -> f64 {
        if points.is_empty() {
            return 0.0;
        }
        let w = model.weights(self.lambda);
        points
            .iter()
            .map(|&i| {
                let e = data.row(i).dot(&w) - data.y[i];
                e * e
            })
            .sum::<f64>()
            / points.len() as f64
    }

    fn update_journaled(
        &self,
        model: &mut RidgeModel,
        data: &Dataset,
        points: &[usize],
    ) -> Vec<usize> {
        self.update(model, data, points);
        points.to_vec()
    }

    /// Exact downdate: subtract the journaled points' contributions.
    fn revert(&self, model: &mut RidgeModel, data: &Dataset, journal: Vec<usize>) {
        for &i in journal.iter().rev() {
            model.add(data, i, -1.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_normal_equations() {
        // y = 2 x0 - x1 exactly; tiny lambda recovers the coefficients.
        let rows: Vec<Vec<f64>> = (0..20)
            .map(|i| vec![i as f64 * 0.1, ((i * 7) % 5) as f64])
            .collect();
        let y = rows.iter().map(|r| 2.0 * r[0] - r[1]).collect();
        let data = Dataset::from_dense_rows("t", &rows, y);
        let l = Ridge { lambda: 1e-10 };
        let mut m = l.init(&data);
        l.update(&mut m, &data, &(0..20).collect::<Vec<_>>());
        let w = m.weights(l.lambda);
        assert!(
            (w[0] - 2.0).abs() < 1e-6 && (w[1] + 1.0).abs() < 1e-6,
            "{w:?}"
        );
        assert!(l.mean_loss(&m, &data, &[0, 5, 9]) < 1e-10);
    }

    #[test]
    fn downdate_restores_model() {
        let rows: Vec<Vec<f64>> = (0..8).map(|i| vec![1.0, i as f64]).collect();
        let data = Dataset::from_dense_rows("t", &rows, (0..8).map(f64::from).collect());
        let l = Ridge { lambda: 1.0 };
        let mut m = l.init(&data);
        l.update(&mut m, &data, &[0, 1, 2]);
        let before = m.clone();
        let j = l.update_journaled(&mut m, &data, &[3, 4, 7]);
        l.revert(&mut m, &data, j);
        for (a, b) in m.a.iter().zip(&before.a) {
            assert!((a - b).abs() < 1e-12);
        }
        assert_eq!(m.count, 3);
    }
}
