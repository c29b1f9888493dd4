//! PEGASOS (Shalev-Shwartz, Singer, Srebro, Cotter 2011): a linear SVM trained
//! by stochastic sub-gradient steps, one pass, the model is the *last* iterate.
//!
//! Step `t` on point `(x, y)` (the paper's update, TreeCV paper §5):
//! `eta_t = 1 / (lambda t)`;
//! `w <- (1 - eta_t lambda) w + [y <w, x> < 1] eta_t y x`;
//! optionally `w <- min(1, (1/sqrt(lambda)) / ||w||) w` (projection).
//! The step counter `t` is part of the model.
//!
//! The weight vector is stored as `w = scale * v` so that the shrink step
//! costs O(1) and an update costs O(nnz(x)) on sparse data; the arithmetic is
//! the same update.

use super::{positive, IncrementalLearner, LearnerError};
use crate::data::Dataset;

/// PEGASOS hyper-parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Pegasos {
    /// Regularisation parameter `lambda` (the paper: 1e-6).
    pub lambda: f64,
    /// Project onto the ball of radius `1/sqrt(lambda)` after each step.
    pub project: bool,
}

impl Default for Pegasos {
    fn default() -> Self {
        Pegasos {
            lambda: Pegasos::DEFAULT_LAMBDA,
            project: false,
        }
    }
}

impl Pegasos {
    /// The default `lambda` (the TreeCV paper's).
    pub const DEFAULT_LAMBDA: f64 = 1e-6;

    /// PEGASOS with regularisation `lambda` (finite, > 0), projecting onto
    /// the `1/sqrt(lambda)` ball after each step if `project`.
    pub fn new(lambda: f64, project: bool) -> Result<Pegasos, LearnerError> {
        Ok(Pegasos {
            lambda: positive("lambda", lambda)?,
            project,
        })
    }
}

/// A PEGASOS model: `w = scale * v` and the step counter `t`.
#[derive(Clone, Debug, PartialEq)]
pub struct PegasosModel {
    /// Unscaled weights.
    pub v: Vec<f64>,
    /// Scale factor of `v`.
    pub scale: f64,
    /// `||v||^2`, maintained for the projection.
    pub v_norm_sq: f64,
    /// Number of points seen so far (the step counter).
    pub t: u64,
}

impl PegasosModel {
    /// The weight vector `w = scale * v`.
    pub fn weights(&self) -> Vec<f64> {
        self.v.iter().map(|x| x * self.scale).collect()
    }

    /// The decision value `<w, x>` on row `i`.
    #[inline]
    pub fn score(&self, data: &Dataset, i: usize) -> f64 {
        self.scale * data.row(i).dot(&self.v)
    }
}

impl Pegasos {
    /// One PEGASOS step on row `i`.
    #[inline]
    fn step(&self, m: &mut PegasosModel, data: &Dataset, i: usize) {
        let x = data.row(i);
        let y = data.y[i];
        m.t += 1;
        let eta = 1.0 / (self.lambda * m.t as f64);
        let margin = y * m.scale * x.dot(&m.v);
        // w <- (1 - eta lambda) w
        let shrink = 1.0 - eta * self.lambda;
        if shrink <= 0.0 {
            // t = 1: the shrink factor is exactly zero, w becomes 0.
            m.v.iter_mut().for_each(|v| *v = 0.0);
            m.scale = 1.0;
            m.v_norm_sq = 0.0;
        } else {
            m.scale *= shrink;
        }
        // + [y <w,x> < 1] eta y x
        if margin < 1.0 {
            let a = eta * y / m.scale;
            // ||v + a x||^2 = ||v||^2 + 2a <v,x> + a^2 ||x||^2
            m.v_norm_sq += 2.0 * a * x.dot(&m.v) + a * a * x.norm_sq();
            x.axpy(a, &mut m.v);
        }
        if self.project {
            let norm = m.scale * m.v_norm_sq.max(0.0).sqrt();
            let radius = 1.0 / self.lambda.sqrt();
            if norm > radius {
                m.scale *= radius / norm;
            }
        }
        if m.scale < 1e-100 || m.scale > 1e100 {
            // Fold the scale into v to keep the numbers in range.
            let s = m.scale;
            m.v.iter_mut().for_each(|v| *v *= s);
            m.v_norm_sq *= s * s;
            m.scale = 1.0;
        }
    }
}

impl IncrementalLearner for Pegasos {
    type Model = PegasosModel;
    type Journal = PegasosModel;

    fn name(&self) -> String {
        // `project` is named only when set, so that the names of the
        // unprojected learner (every stored run) stay as they were.
        if self.project {
            format!("pegasos(lambda={:e},project)", self.lambda)
        } else {
            format!("pegasos(lambda={:e})", self.lambda)
        }
    }

    fn init(&self, data: &Dataset) -> PegasosModel {
        PegasosModel {
            v: vec![0.0; data.d()],
            scale: 1.0,
            v_norm_sq: 0.0,
            t: 0,
        }
    }

    fn update(&self, model: &mut PegasosModel, data: &Dataset, points: &[usize]) {
        for &i in points {
            self.step(model, data, i);
        }
    }

    /// Misclassification: `sign(<w,x>) != y`, predicting +1 at a score of 0.
    fn loss(&self, model: &PegasosModel, data: &Dataset, i: usize) -> f64 {
        let pred = if model.score(data, i) >= 0.0 {
            1.0
        } else {
            -1.0
        };
        if pred == data.y[i] {
            0.0
        } else {
            1.0
        }
    }

    /// PEGASOS changes every coordinate (the shrink step), so the journal is
    /// a snapshot of the model.
    fn update_journaled(
        &self,
        model: &mut PegasosModel,
        data: &Dataset,
        points: &[usize],
    ) -> PegasosModel {
        let saved = model.clone();
        self.update(model, data, points);
        saved
    }

    fn revert(&self, model: &mut PegasosModel, _data: &Dataset, journal: PegasosModel) {
        *model = journal;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(lambda: f64, data: &Dataset, pts: &[usize]) -> Vec<f64> {
        let mut w = vec![0.0; data.d()];
        for (t, &i) in pts.iter().enumerate() {
            let t = (t + 1) as f64;
            let eta = 1.0 / (lambda * t);
            let x = data.row(i).to_dense(data.d());
            let m: f64 = data.y[i] * w.iter().zip(&x).map(|(a, b)| a * b).sum::<f64>();
            for wj in w.iter_mut() {
                *wj *= 1.0 - eta * lambda;
            }
            if m < 1.0 {
                for (wj, xj) in w.iter_mut().zip(&x) {
                    *wj += eta * data.y[i] * xj;
                }
            }
        }
        w
    }

    #[test]
    fn scaled_update_equals_textbook_update() {
        let rows: Vec<Vec<f64>> = (0..50)
            .map(|i| vec![(i as f64 * 0.37).sin(), (i as f64 * 0.11).cos(), 1.0])
            .collect();
        let y: Vec<f64> = (0..50)
            .map(|i| if i % 3 == 0 { 1.0 } else { -1.0 })
            .collect();
        let data = Dataset::from_dense_rows("t", &rows, y);
        let l = Pegasos {
            lambda: 0.01,
            project: false,
        };
        let pts: Vec<usize> = (0..50).rev().collect();
        let mut m = l.init(&data);
        l.update(&mut m, &data, &pts);
        let w = m.weights();
        let w2 = naive(0.01, &data, &pts);
        for (a, b) in w.iter().zip(&w2) {
            assert!((a - b).abs() < 1e-9 * (1.0 + b.abs()), "{a} vs {b}");
        }
        assert_eq!(m.t, 50);
    }

    #[test]
    fn journal_reverts_exactly() {
        let rows: Vec<Vec<f64>> = (0..10).map(|i| vec![i as f64, 1.0]).collect();
        let y: Vec<f64> = (0..10).map(|i| if i < 5 { -1.0 } else { 1.0 }).collect();
        let data = Dataset::from_dense_rows("t", &rows, y);
        let l = Pegasos::default();
        let mut m = l.init(&data);
        l.update(&mut m, &data, &[0, 9]);
        let before = m.clone();
        let j = l.update_journaled(&mut m, &data, &[1, 2, 8]);
        assert_ne!(m, before);
        l.revert(&mut m, &data, j);
        assert_eq!(m, before);
    }
}
