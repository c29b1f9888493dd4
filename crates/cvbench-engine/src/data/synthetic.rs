//! Seeded synthetic datasets, used as shape-matched stand-ins where a real
//! dataset is not available, and for tests. Every generated dataset's name
//! contains "synthetic" so that no output can pass it off as real data.
//!
//! Generation is row by row from one random stream, so for a given seed and
//! `d` the first `m` rows are the same whatever `n` is; the hidden model
//! (weights, thresholds) comes from a separate stream and does not depend on
//! `n` at all.

use rand::RngExt;
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};

use super::{DataError, Dataset, Features};
use crate::seed;

/// Which generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Generator {
    /// Like CoverType class 1 vs rest after unit-variance scaling: see [`covtype_like`].
    CovtypeLike,
    /// Like YearPredictionMSD with targets scaled to [0, 1]: see [`msd_like`].
    MsdLike,
    /// Gaussian features, ±1 labels from a noisy linear rule: see [`linear_classification`].
    LinearClassification,
    /// Gaussian features, real targets from a noisy linear model: see [`linear_regression`].
    LinearRegression,
}

impl Generator {
    /// The config name (`covtype-like`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Generator::CovtypeLike => "covtype-like",
            Generator::MsdLike => "msd-like",
            Generator::LinearClassification => "linear-classification",
            Generator::LinearRegression => "linear-regression",
        }
    }

    /// Default `(n, d, noise)`.
    pub fn defaults(self) -> (usize, usize, f64) {
        match self {
            Generator::CovtypeLike => (581_012, 54, COVTYPE_NOISE),
            Generator::MsdLike => (463_715, 90, MSD_NOISE),
            Generator::LinearClassification => (1_000, 10, 0.1),
            Generator::LinearRegression => (1_000, 10, 0.1),
        }
    }
}

/// A generator call, as written in configs:
/// `synthetic = { generator = "covtype-like", n = 10000, seed = 1 }`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SyntheticSpec {
    /// Which generator.
    pub generator: Generator,
    /// Rows (default: the generator's, e.g. 581,012 for covtype-like).
    #[serde(default)]
    pub n: Option<usize>,
    /// Features (default: the generator's).
    #[serde(default)]
    pub d: Option<usize>,
    /// Seed (default 0).
    #[serde(default)]
    pub seed: u64,
    /// Noise level (default: the generator's; see each generator).
    #[serde(default)]
    pub noise: Option<f64>,
}

impl SyntheticSpec {
    /// The parameters with defaults filled in: `(n, d, noise)`.
    pub fn resolved(&self) -> (usize, usize, f64) {
        let (n, d, noise) = self.generator.defaults();
        (
            self.n.unwrap_or(n),
            self.d.unwrap_or(d),
            self.noise.unwrap_or(noise),
        )
    }

    /// The name the generated dataset will carry (contains "synthetic").
    pub fn dataset_name(&self) -> String {
        let (n, d, noise) = self.resolved();
        name(self.generator, n, d, noise, self.seed)
    }

    /// Generate the dataset.
    pub fn generate(&self) -> Result<Dataset, DataError> {
        let (n, d, noise) = self.resolved();
        match self.generator {
            Generator::CovtypeLike => covtype_like(n, d, noise, self.seed),
            Generator::MsdLike => msd_like(n, d, noise, self.seed),
            Generator::LinearClassification => linear_classification(n, d, noise, self.seed),
            Generator::LinearRegression => linear_regression(n, d, noise, self.seed),
        }
    }
}

/// Default label noise of [`covtype_like`]: the standard deviation of the
/// Gaussian noise added to the unit-variance linear score; calibrated so
/// that the hidden linear rule itself errs on about 30% of the rows.
pub const COVTYPE_NOISE: f64 = 1.6;
/// Default target noise of [`msd_like`] (relative to the signal's sd).
pub const MSD_NOISE: f64 = 2.0;
/// Share of positives in [`covtype_like`] (CoverType class 1: 211,840 / 581,012).
pub const COVTYPE_POSITIVE_RATE: f64 = 211_840.0 / 581_012.0;

fn name(g: Generator, n: usize, d: usize, noise: f64, seed: u64) -> String {
    format!(
        "synthetic-{}(n={n},d={d},noise={noise},seed={seed})",
        g.as_str()
    )
}

/// The most features a generator makes (its hidden model is calibrated on
/// 20,000 rows of width `d`, so `d` bounds the work before the first row).
pub const MAX_SYNTHETIC_D: usize = 100_000;

fn check(g: Generator, n: usize, d: usize, min_d: usize, noise: f64) -> Result<(), DataError> {
    if d > MAX_SYNTHETIC_D {
        return Err(DataError::Invalid(format!(
            "synthetic {}: d = {d} is too large (at most {MAX_SYNTHETIC_D})",
            g.as_str()
        )));
    }
    super::limits::check_dense(&format!("synthetic {}", g.as_str()), n, d)?;
    if d < min_d {
        return Err(DataError::Invalid(format!(
            "synthetic {}: d = {d} is too small (at least {min_d})",
            g.as_str()
        )));
    }
    if !(noise.is_finite() && noise >= 0.0) {
        return Err(DataError::Invalid(format!(
            "synthetic {}: noise must be finite and >= 0, got {noise}",
            g.as_str()
        )));
    }
    Ok(())
}

/// Standard normal draw (Box–Muller; one of the pair is discarded to keep
/// the stream simple and row-prefix stable).
#[inline]
fn normal(rng: &mut Pcg64Mcg) -> f64 {
    let u1: f64 = 1.0 - rng.random::<f64>(); // (0, 1]
    let u2: f64 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// Draw an index from cumulative weights `cum` (last element = 1).
#[inline]
fn categorical(rng: &mut Pcg64Mcg, cum: &[f64]) -> usize {
    let u: f64 = rng.random::<f64>();
    cum.iter().position(|&c| u < c).unwrap_or(cum.len() - 1)
}

/// Normalise positive weights into a cumulative distribution.
fn cumulative(w: &[f64]) -> Vec<f64> {
    let s: f64 = w.iter().sum();
    let mut acc = 0.0;
    let mut out: Vec<f64> = w
        .iter()
        .map(|x| {
            acc += x / s;
            acc
        })
        .collect();
    if let Some(l) = out.last_mut() {
        *l = 1.0;
    }
    out
}

/// Means and standard deviations of CoverType's 10 continuous columns
/// (elevation, aspect, slope, distances, hillshades), rounded.
const COVTYPE_CONT: [(f64, f64); 10] = [
    (2959.0, 280.0),
    (155.7, 111.9),
    (14.1, 7.5),
    (269.4, 212.5),
    (46.4, 58.3),
    (2350.1, 1559.3),
    (212.1, 26.8),
    (223.3, 19.8),
    (142.5, 38.3),
    (1980.3, 1324.2),
];

/// The hidden model of [`covtype_like`].
struct CovtypeModel {
    n_cont: usize,
    groups: Vec<(usize, usize)>, // (first column, size) of each one-hot group
    group_cum: Vec<Vec<f64>>,
    cont_w: Vec<f64>,
    group_w: Vec<Vec<f64>>,
    /// Per-column scale making every column unit-variance (like `standardize`).
    col_scale: Vec<f64>,
    threshold: f64,
    noise: f64,
}

impl CovtypeModel {
    fn new(d: usize, noise: f64, seed: u64) -> CovtypeModel {
        let mut rng = seed::rng(seed::derive(seed, "synthetic/covtype-like/model"));
        let n_cont = 10.min(d);
        let n_bin = d - n_cont;
        let mut groups = Vec::new();
        if n_bin > 0 {
            let first = 4.min(n_bin);
            groups.push((n_cont, first));
            if n_bin > first {
                groups.push((n_cont + first, n_bin - first));
            }
        }
        // Skewed category frequencies, like wilderness areas and soil types.
        let group_cum: Vec<Vec<f64>> = groups
            .iter()
            .map(|&(_, k)| {
                let w: Vec<f64> = (0..k)
                    .map(|_| {
                        let u: f64 = rng.random::<f64>();
                        (3.0 * u).exp() - 0.9
                    })
                    .collect();
                cumulative(&w)
            })
            .collect();
        let cont_w: Vec<f64> = (0..n_cont).map(|_| normal(&mut rng)).collect();
        let group_w: Vec<Vec<f64>> = groups
            .iter()
            .map(|&(_, k)| (0..k).map(|_| normal(&mut rng)).collect())
            .collect();
        // Column scales: continuous sd, indicator sd sqrt(p(1-p)).
        let mut col_scale = vec![1.0; d];
        for (j, s) in col_scale.iter_mut().enumerate().take(n_cont) {
            *s = 1.0 / COVTYPE_CONT[j].1;
        }
        for (g, &(start, k)) in groups.iter().enumerate() {
            let mut prev = 0.0;
            for c in 0..k {
                let p = group_cum[g][c] - prev;
                prev = group_cum[g][c];
                let sd = (p * (1.0 - p)).sqrt();
                col_scale[start + c] = if sd > 0.0 { 1.0 / sd } else { 1.0 };
            }
        }
        let mut m = CovtypeModel {
            n_cont,
            groups,
            group_cum,
            cont_w,
            group_w,
            col_scale,
            threshold: 0.0,
            noise,
        };
        // Normalise the clean score to unit variance and set the threshold
        // so that COVTYPE_POSITIVE_RATE of the noisy scores are positive,
        // both from a calibration sample independent of n.
        let mut cal = seed::rng(seed::derive(seed, "synthetic/covtype-like/calibration"));
        let k = 20_000;
        let mut row = vec![0.0; d];
        let clean: Vec<f64> = (0..k).map(|_| m.draw_row(&mut cal, &mut row)).collect();
        let mean = clean.iter().sum::<f64>() / k as f64;
        let sd = (clean.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / k as f64).sqrt();
        let sd = if sd > 0.0 { sd } else { 1.0 };
        for w in &mut m.cont_w {
            *w /= sd;
        }
        for gw in &mut m.group_w {
            for w in gw.iter_mut() {
                *w /= sd;
            }
        }
        let mut noisy: Vec<f64> = clean
            .iter()
            .map(|s| (s - mean) / sd + noise * normal(&mut cal))
            .collect();
        let q = ((1.0 - COVTYPE_POSITIVE_RATE) * k as f64) as usize;
        let (_, t, _) = noisy.select_nth_unstable_by(q, f64::total_cmp);
        m.threshold = *t + mean / sd;
        m
    }

    /// Fill `row` (scaled features) and return the clean linear score.
    #[inline]
    fn draw_row(&self, rng: &mut Pcg64Mcg, row: &mut [f64]) -> f64 {
        row.fill(0.0);
        let mut score = 0.0;
        for j in 0..self.n_cont {
            let z = normal(rng);
            let (mu, sd) = COVTYPE_CONT[j];
            row[j] = (mu + sd * z) * self.col_scale[j];
            score += self.cont_w[j] * z;
        }
        for (g, &(start, _)) in self.groups.iter().enumerate() {
            let c = categorical(rng, &self.group_cum[g]);
            row[start + c] = self.col_scale[start + c];
            score += self.group_w[g][c];
        }
        score
    }
}

/// CoverType-like binary data: `n × d` dense (default 581,012 × 54).
///
/// Columns: 10 continuous columns drawn from Gaussians with CoverType's
/// means and standard deviations, then 44 indicator columns in two one-hot
/// groups of 4 and 40 (like wilderness area and soil type) with skewed
/// frequencies. Every column is then divided by its standard deviation and
/// not centred — the same form as the real `covtype-binary` after its
/// default transforms. Labels: `+1` where a hidden linear score plus
/// Gaussian noise (sd `noise`, default [`COVTYPE_NOISE`]) exceeds a
/// threshold set so that about 36.5% of rows are positive; with the default
/// noise the hidden linear rule itself errs on about 30% of rows.
pub fn covtype_like(n: usize, d: usize, noise: f64, seed: u64) -> Result<Dataset, DataError> {
    check(Generator::CovtypeLike, n, d, 1, noise)?;
    let model = CovtypeModel::new(d, noise, seed);
    let mut rng = seed::rng(seed::derive(seed, "synthetic/covtype-like/rows"));
    let mut values = vec![0.0; n * d];
    let mut y = Vec::with_capacity(n);
    for row in values.chunks_mut(d) {
        let s = model.draw_row(&mut rng, row);
        let noisy = s + model.noise * normal(&mut rng);
        y.push(if noisy > model.threshold { 1.0 } else { -1.0 });
    }
    Ok(Dataset {
        index_base: super::IndexBase::One,
        name: name(Generator::CovtypeLike, n, d, noise, seed),
        x: Features::Dense { d, values },
        y,
    })
}

/// YearPredictionMSD-like regression data: `n × d` dense (default
/// 463,715 × 90). Features are Gaussian with per-column means and scales
/// drawn once per seed (the first 12 like timbre averages, the rest like
/// timbre covariances, on raw, unscaled magnitudes). A year-like target is
/// a hidden linear function of the standardised features plus Gaussian
/// noise (`noise` = noise sd relative to the signal sd, default
/// [`MSD_NOISE`]), clipped to 1922..=2011 and scaled to `[0, 1]` with the
/// real data's range, so targets lie in `[0, 1]` (mean about 0.86).
pub fn msd_like(n: usize, d: usize, noise: f64, seed: u64) -> Result<Dataset, DataError> {
    check(Generator::MsdLike, n, d, 1, noise)?;
    let mut mrng = seed::rng(seed::derive(seed, "synthetic/msd-like/model"));
    let cols: Vec<(f64, f64)> = (0..d)
        .map(|j| {
            let u: f64 = mrng.random::<f64>();
            let v: f64 = mrng.random::<f64>();
            if j < 12 {
                (-15.0 + 60.0 * u, 5.0 + 45.0 * v)
            } else {
                (-50.0 + 100.0 * u, 10.0 + 290.0 * v)
            }
        })
        .collect();
    let w: Vec<f64> = (0..d).map(|_| normal(&mut mrng)).collect();
    let wn = w
        .iter()
        .map(|x| x * x)
        .sum::<f64>()
        .sqrt()
        .max(f64::MIN_POSITIVE);
    let signal_sd = 1.0 / (1.0 + noise * noise).sqrt();
    let mut rng = seed::rng(seed::derive(seed, "synthetic/msd-like/rows"));
    let mut values = vec![0.0; n * d];
    let mut y = Vec::with_capacity(n);
    for row in values.chunks_mut(d) {
        let mut s = 0.0;
        for (j, v) in row.iter_mut().enumerate() {
            let z = normal(&mut rng);
            *v = cols[j].0 + cols[j].1 * z;
            s += w[j] / wn * z;
        }
        // Unit-variance score: signal plus noise, mapped to years.
        let score = signal_sd * (s + noise * normal(&mut rng));
        let year = (1998.4 + 10.9 * score).clamp(1922.0, 2011.0);
        y.push((year - 1922.0) / (2011.0 - 1922.0));
    }
    Ok(Dataset {
        index_base: super::IndexBase::One,
        name: name(Generator::MsdLike, n, d, noise, seed),
        x: Features::Dense { d, values },
        y,
    })
}

fn unit_weights(rng: &mut Pcg64Mcg, d: usize) -> Vec<f64> {
    let w: Vec<f64> = (0..d).map(|_| normal(rng)).collect();
    let norm = w
        .iter()
        .map(|x| x * x)
        .sum::<f64>()
        .sqrt()
        .max(f64::MIN_POSITIVE);
    w.into_iter().map(|x| x / norm).collect()
}

/// `n` rows `x ~ N(0, I_d)` (row-major) and their scores `w·x + noise·ε`
/// for a hidden unit weight vector `w`, both drawn from streams of `seed`
/// named for the generator `tag`.
fn linear_rows(n: usize, d: usize, noise: f64, seed: u64, tag: &str) -> (Vec<f64>, Vec<f64>) {
    let w = unit_weights(
        &mut seed::rng(seed::derive(seed, &format!("synthetic/{tag}/model"))),
        d,
    );
    let mut rng = seed::rng(seed::derive(seed, &format!("synthetic/{tag}/rows")));
    let mut values = vec![0.0; n * d];
    let mut scores = Vec::with_capacity(n);
    for row in values.chunks_mut(d) {
        let mut s = 0.0;
        for (v, wj) in row.iter_mut().zip(&w) {
            *v = normal(&mut rng);
            s += wj * *v;
        }
        scores.push(s + noise * normal(&mut rng));
    }
    (values, scores)
}

/// Small linear classification data: `x ~ N(0, I_d)`, a hidden unit weight
/// vector `w`, `y = sign(w·x + noise·ε)` in ±1 (ε standard normal).
pub fn linear_classification(
    n: usize,
    d: usize,
    noise: f64,
    seed: u64,
) -> Result<Dataset, DataError> {
    check(Generator::LinearClassification, n, d, 1, noise)?;
    let (values, scores) = linear_rows(n, d, noise, seed, "linear-classification");
    let y = scores
        .into_iter()
        .map(|s| if s >= 0.0 { 1.0 } else { -1.0 })
        .collect();
    Ok(Dataset {
        index_base: super::IndexBase::One,
        name: name(Generator::LinearClassification, n, d, noise, seed),
        x: Features::Dense { d, values },
        y,
    })
}

/// Small linear regression data: `x ~ N(0, I_d)`, a hidden unit weight
/// vector `w`, `y = w·x + noise·ε`.
pub fn linear_regression(n: usize, d: usize, noise: f64, seed: u64) -> Result<Dataset, DataError> {
    check(Generator::LinearRegression, n, d, 1, noise)?;
    let (values, y) = linear_rows(n, d, noise, seed, "linear-regression");
    Ok(Dataset {
        index_base: super::IndexBase::One,
        name: name(Generator::LinearRegression, n, d, noise, seed),
        x: Features::Dense { d, values },
        y,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn covtype_like_shape_rates_and_determinism() {
        let n = 40_000;
        let ds = covtype_like(n, 54, COVTYPE_NOISE, 3).unwrap();
        assert!(ds.is_synthetic());
        assert_eq!((ds.n(), ds.d()), (n, 54));
        let pos = ds.y.iter().filter(|&&v| v > 0.0).count() as f64 / n as f64;
        assert!((pos - 0.3646).abs() < 0.02, "positive rate {pos}");
        // Exactly one indicator set per one-hot group.
        for i in 0..100 {
            let r = ds.row(i).to_dense(54);
            assert_eq!(r[10..14].iter().filter(|v| **v != 0.0).count(), 1);
            assert_eq!(r[14..54].iter().filter(|v| **v != 0.0).count(), 1);
        }
        // Unit variance columns (continuous ones, roughly).
        let col0: Vec<f64> = (0..n).map(|i| ds.row(i).to_dense(54)[0]).collect();
        let m = col0.iter().sum::<f64>() / n as f64;
        let var = col0.iter().map(|v| (v - m).powi(2)).sum::<f64>() / n as f64;
        assert!((var - 1.0).abs() < 0.05, "var {var}");
        // Determinism and prefix stability.
        let small = covtype_like(1000, 54, COVTYPE_NOISE, 3).unwrap();
        assert_eq!(small.y[..], ds.y[..1000]);
        assert_eq!(small.row(999).to_dense(54), ds.row(999).to_dense(54));
        let other = covtype_like(1000, 54, COVTYPE_NOISE, 4).unwrap();
        assert_ne!(other.y, small.y);
    }

    #[test]
    fn covtype_like_hidden_rule_errs_about_30_percent() {
        // The noise-free rule's error = fraction of labels the noise flipped.
        let n = 40_000;
        let model = CovtypeModel::new(54, COVTYPE_NOISE, 11);
        let mut rng = seed::rng(seed::derive(11, "synthetic/covtype-like/rows"));
        let mut row = vec![0.0; 54];
        let mut wrong = 0usize;
        for _ in 0..n {
            let s = model.draw_row(&mut rng, &mut row);
            let noisy = s + model.noise * normal(&mut rng);
            if (s > model.threshold) != (noisy > model.threshold) {
                wrong += 1;
            }
        }
        let err = wrong as f64 / n as f64;
        assert!((err - 0.30).abs() < 0.025, "hidden-rule error {err}");
    }

    #[test]
    fn msd_like_targets_in_unit_interval() {
        let ds = msd_like(5000, 90, MSD_NOISE, 1).unwrap();
        assert!(ds.is_synthetic());
        assert_eq!((ds.n(), ds.d()), (5000, 90));
        assert!(ds.y.iter().all(|&t| (0.0..=1.0).contains(&t)));
        let mean = ds.y.iter().sum::<f64>() / 5000.0;
        assert!((mean - 0.86).abs() < 0.02, "mean {mean}");
    }

    #[test]
    fn linear_generators() {
        let c = linear_classification(500, 5, 0.0, 1).unwrap();
        assert!(c.y.iter().all(|&v| v == 1.0 || v == -1.0));
        assert!(c.name.contains("synthetic"));
        let r = linear_regression(500, 5, 0.1, 1).unwrap();
        assert_eq!((r.n(), r.d()), (500, 5));
        assert!(linear_regression(5, 0, 0.1, 1).is_err());
        assert!(linear_regression(5, 2, f64::NAN, 1).is_err());
    }

    #[test]
    fn spec_from_toml() {
        let s: SyntheticSpec = toml::from_str(
            r#"generator = "covtype-like"
n = 100
seed = 2"#,
        )
        .unwrap();
        assert_eq!(s.resolved(), (100, 54, COVTYPE_NOISE));
        assert_eq!(s.generate().unwrap().n(), 100);
        let e = toml::from_str::<SyntheticSpec>(r#"generator = "covtype""#).unwrap_err();
        assert!(e.to_string().contains("covtype-like"), "{e}");
    }
}
