//! Small summary statistics used by the progressive-validation experiment.

/// Mean, sample standard deviation (n - 1) and standard error of the mean.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Number of values.
    pub n: usize,
    /// Mean.
    pub mean: f64,
    /// Sample standard deviation (0 for fewer than two values).
    pub std: f64,
    /// Standard error of the mean, `std / sqrt(n)`.
    pub se: f64,
}

impl Summary {
    /// Summarise `values` (NaN summary for an empty slice).
    pub fn of(values: &[f64]) -> Summary {
        let n = values.len();
        if n == 0 {
            return Summary {
                n,
                mean: f64::NAN,
                std: f64::NAN,
                se: f64::NAN,
            };
        }
        let mean = values.iter().sum::<f64>() / n as f64;
        let std = if n > 1 {
            (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt()
        } else {
            0.0
        };
        Summary {
            n,
            mean,
            std,
            se: std / (n as f64).sqrt(),
        }
    }

    /// Half-width of the normal-approximation 95% confidence interval of the mean.
    pub fn ci95(&self) -> f64 {
        1.96 * self.se
    }
}

/// A Wilson score 95% interval for a binomial proportion `k / n`.
pub fn wilson95(k: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.96f64;
    let (nf, p) = (n as f64, k as f64 / n as f64);
    let denom = 1.0 + z * z / nf;
    let centre = (p + z * z / (2.0 * nf)) / denom;
    let half = z * (p * (1.0 - p) / nf + z * z / (4.0 * nf * nf)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_of_known_values() {
        let s = Summary::of(&[1.0, 2.0, 3.0, 4.0]);
        assert_eq!(s.mean, 2.5);
        assert!((s.std - (5.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert!((s.se - s.std / 2.0).abs() < 1e-12);
        let (lo, hi) = wilson95(5, 10);
        assert!(lo < 0.5 && hi > 0.5 && (0.5 - lo - (hi - 0.5)).abs() < 1e-12);
    }
}
