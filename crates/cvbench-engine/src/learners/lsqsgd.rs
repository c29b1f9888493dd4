//! LSQSGD: robust stochastic approximation (Nemirovski, Juditsky, Lan, Shapiro
//! 2009) for the squared loss, as used in the TreeCV paper (§5).
//!
//! Step on point `(x, y)`: `w <- Proj_{||w|| <= 1}(w - alpha (<w,x> - y) x)`
//! with the constant step `alpha = n^{-1/2}` (`n` = dataset size). The model
//! is the *average* iterate `wbar_t = (1/t) sum_{s=1..t} w_s`. Loss: squared
//! error `(<wbar, x> - y)^2`.

use super::{positive, IncrementalLearner, LearnerError};
use crate::data::Dataset;

/// LSQSGD hyper-parameters.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Lsqsgd {
    /// Constant step size; `None` means the paper's `n^{-1/2}`.
    pub step: Option<f64>,
    /// Radius of the l2 ball the iterates are projected onto (paper: 1).
    pub radius: Option<f64>,
}

/// An LSQSGD model: the current iterate, the running average and the count.
#[derive(Clone, Debug, PartialEq)]
pub struct LsqsgdModel {
    /// Current iterate `w_t`.
    pub w: Vec<f64>,
    /// `||w_t||^2`, maintained incrementally.
    pub w_norm_sq: f64,
    /// Average iterate `wbar_t`.
    pub wbar: Vec<f64>,
    /// Number of steps taken.
    pub t: u64,
    /// Step size `alpha` fixed at initialisation.
    pub alpha: f64,
}

impl Lsqsgd {
    /// LSQSGD with a constant step (`None`: the paper's `n^{-1/2}`) and an
    /// l2-ball radius (`None`: 1); given values must be finite and > 0.
    pub fn new(step: Option<f64>, radius: Option<f64>) -> Result<Lsqsgd, LearnerError> {
        Ok(Lsqsgd {
            step: step.map(|s| positive("step", s)).transpose()?,
            radius: radius.map(|r| positive("radius", r)).transpose()?,
        })
    }

    fn radius(&self) -> f64 {
        self.radius.unwrap_or(1.0)
    }
}

impl IncrementalLearner for Lsqsgd {
    type Model = LsqsgdModel;
    type Journal = LsqsgdModel;

    fn name(&self) -> String {
        let alpha = match self.step {
            Some(a) => format!("{a:e}"),
            None => "n^-1/2".to_string(),
        };
        // The radius is named only when given, so that the names of the
        // default learner (every stored run) stay as they were.
        match self.radius {
            Some(r) => format!("lsqsgd(alpha={alpha},radius={r:e})"),
            None => format!("lsqsgd(alpha={alpha})"),
        }
    }

    fn init(&self, data: &Dataset) -> LsqsgdModel {
        let alpha = self
            .step
            .unwrap_or_else(|| 1.0 / (data.n().max(1) as f64).sqrt());
        LsqsgdModel {
            w: vec![0.0; data.d()],
            w_norm_sq: 0.0,
            wbar: vec![0.0; data.d()],
            t: 0,
            alpha,
        }
    }

    fn update(&self, m: &mut LsqsgdModel, data: &Dataset, points: &[usize]) {
        let r = self.radius();
        for &i in points {
            let x = data.row(i);
            let wx = x.dot(&m.w);
            // gradient step: w <- w - alpha (<w,x> - y) x
            let a = -m.alpha * (wx - data.y[i]);
            m.w_norm_sq += 2.0 * a * wx + a * a * x.norm_sq();
            x.axpy(a, &mut m.w);
            // projection onto the l2 ball of radius r
            if m.w_norm_sq > r * r {
                let s = r / m.w_norm_sq.sqrt();
                m.w.iter_mut().for_each(|v| *v *= s);
                m.w_norm_sq = m.w.iter().map(|v| v * v).sum();
            }
            // averaging: wbar_t = wbar_{t-1} + (w_t - wbar_{t-1}) / t
            m.t += 1;
            let inv = 1.0 / m.t as f64;
            for (b, w) in m.wbar.iter_mut().zip(&m.w) {
                *b += (w - *b) * inv;
            }
        }
    }

    fn loss(&self, m: &LsqsgdModel, data: &Dataset, i: usize) -> f64 {
        let e = data.row(i).dot(&m.wbar) - data.y[i];
        e * e
    }

    fn update_journaled(
        &self,
        model: &mut LsqsgdModel,
        data: &Dataset,
        points: &[usize],
    ) -> LsqsgdModel {
        let saved = model.clone();
        self.update(model, data, points);
        saved
    }

    fn revert(&self, model: &mut LsqsgdModel, _data: &Dataset, journal: LsqsgdModel) {
        *model = journal;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stays_in_ball_and_averages() {
        let rows: Vec<Vec<f64>> = (0..200).map(|i| vec![1.0, (i % 7) as f64]).collect();
        let y: Vec<f64> = (0..200).map(|i| 5.0 + (i % 7) as f64).collect();
        let data = Dataset::from_dense_rows("t", &rows, y);
        let l = Lsqsgd::default();
        let mut m = l.init(&data);
        assert!((m.alpha - 1.0 / 200f64.sqrt()).abs() < 1e-15);
        let pts: Vec<usize> = (0..200).collect();
        l.update(&mut m, &data, &pts);
        let n: f64 = m.w.iter().map(|v| v * v).sum::<f64>().sqrt();
        assert!(n <= 1.0 + 1e-12);
        let nb: f64 = m.wbar.iter().map(|v| v * v).sum::<f64>().sqrt();
        assert!(
            nb <= 1.0 + 1e-12,
            "average of points in a ball is in the ball"
        );
        assert_eq!(m.t, 200);
    }

    #[test]
    fn average_of_two_steps() {
        let data = Dataset::from_dense_rows("t", &[vec![1.0], vec![1.0]], vec![0.5, 0.5]);
        let l = Lsqsgd {
            step: Some(0.5),
            radius: None,
        };
        let mut m = l.init(&data);
        l.update(&mut m, &data, &[0, 1]);
        // w1 = 0 - 0.5 (0 - 0.5) = 0.25; w2 = 0.25 - 0.5 (0.25 - 0.5) = 0.375
        assert!((m.w[0] - 0.375).abs() < 1e-15);
        assert!((m.wbar[0] - 0.3125).abs() < 1e-15);
    }
}
