//! Closed forms for the BKL problem: the true error of the eliminator as a
//! function of the number of surviving features, and its distribution after
//! `m` training examples.
//!
//! # Derivation
//!
//! Let `C` be the surviving features after training, `c = |C|`. The target
//! feature `t` always survives (it agrees with every label). Whether another
//! feature survives depends only on the training data, so on a fresh example
//! `x` (uniform on `{0,1}^N`, label `y = x_t`) the `c - 1` other survivors
//! are i.i.d. fair bits independent of `y`. The vote agreeing with `y` is
//! `A = 1 + B` with `B ~ Bin(c - 1, 1/2)`; the vote is wrong when
//! `c - A > A`, i.e. `B < (c - 2)/2`, and tied when `B = (c - 2)/2` (even `c`).
//! Scoring a tie as 1/2:
//!
//! - odd `c = 2j + 1`: `err = P(Bin(2j, 1/2) <= j - 1) = (1 - r_j) / 2`,
//!   with `r_j = C(2j, j) / 4^j` (the central term, by symmetry);
//! - even `c = 2j`: `P(Bin(2j-1, 1/2) <= j-1) = 1/2` and
//!   `P(Bin(2j-1, 1/2) = j-1) = C(2j-1, j-1)/2^(2j-1) = r_j`, so
//!   `err = (1/2 - r_j) + r_j / 2 = (1 - r_j) / 2`.
//!
//! Hence `err(c) = (1 - C(2j, j)/4^j) / 2` with `j = floor(c / 2)`:
//! `err(1) = 0`, `err(2) = err(3) = 1/4`, `err(4) = err(5) = 5/16`, ...,
//! `err(c) ~ 1/2 - 1/sqrt(2 pi c)` for large `c`. (`c = 0` cannot happen
//! without label noise; every vote is then a tie and `err(0) = 1/2`.)
//!
//! The true error does not depend on the tie rule: for a fixed survivor
//! set, flipping every bit of `x` maps the tied examples with `y = 1` onto
//! those with `y = 0`, so a fair coin, a fixed default label and the 1/2
//! score all have expected loss 1/2 on ties. Tie rules change only the
//! *measured* losses (0/1 against 1/2), i.e. the estimates.
//!
//! After `m` training examples each non-target feature survives each example
//! independently with probability 1/2, so `c - 1 ~ Bin(N - 1, 2^-m)`, which
//! gives the expected true error (and its variance) of the hold-out
//! hypothesis trained on `m` examples without simulation.

/// `r_j = C(2j, j) / 4^j`, computed by the stable product
/// `prod_{i=1..j} (2i - 1) / (2i)`.
fn central_ratio(j: usize) -> f64 {
    (1..=j).fold(1.0, |r, i| r * (2 * i - 1) as f64 / (2 * i) as f64)
}

/// Exact true error of the eliminator with `c` surviving features (the target
/// among them) under the uniform distribution, ties scored 1/2 (equal for
/// every tie rule; see the module documentation).
pub fn true_error_of_survivors(c: usize) -> f64 {
    if c == 0 {
        return 0.5;
    }
    0.5 * (1.0 - central_ratio(c / 2))
}

/// The table `err(c)` for `c = 0..=n_features`.
pub fn true_error_table(n_features: usize) -> Vec<f64> {
    let mut out = Vec::with_capacity(n_features + 1);
    out.push(0.5);
    let mut r = 1.0;
    for c in 1..=n_features {
        let j = c / 2;
        if c >= 2 && c % 2 == 0 {
            r *= (2 * j - 1) as f64 / (2 * j) as f64;
        }
        out.push(0.5 * (1.0 - r));
    }
    out
}

/// Distribution of the survivor count `c` after `m` training examples with
/// `n_features` features: entry `c` is `P(|C| = c)`, `c = 0..=n_features`
/// (`c - 1 ~ Bin(n_features - 1, 2^-m)`; entry 0 is 0).
pub fn survivors_pmf(n_features: usize, m: usize) -> Vec<f64> {
    let mut pmf = vec![0.0; n_features + 1];
    if n_features == 0 {
        return pmf;
    }
    let trials = n_features - 1;
    if m == 0 {
        pmf[n_features] = 1.0;
        return pmf;
    }
    let p = 0.5f64.powi(m.min(10_000) as i32);
    let (lp, lq) = (p.ln(), (-p).ln_1p());
    let mut log_pmf = trials as f64 * lq;
    for k in 0..=trials {
        pmf[k + 1] = log_pmf.exp();
        if k < trials {
            log_pmf += ((trials - k) as f64 / (k + 1) as f64).ln() + lp - lq;
        }
    }
    pmf
}

/// Mean and variance of the true error of the eliminator trained on `m`
/// uniform examples with `n_features` features.
pub fn true_error_moments(n_features: usize, m: usize) -> (f64, f64) {
    let err = true_error_table(n_features);
    let pmf = survivors_pmf(n_features, m);
    let mean: f64 = pmf.iter().zip(&err).map(|(p, e)| p * e).sum();
    let second: f64 = pmf.iter().zip(&err).map(|(p, e)| p * e * e).sum();
    (mean, (second - mean * mean).max(0.0))
}

/// Expected true error of the eliminator trained on `m` uniform examples.
pub fn expected_true_error(n_features: usize, m: usize) -> f64 {
    true_error_moments(n_features, m).0
}

/// Expected true error of the progressive hypothesis after `m` training
/// examples and `s` progressive points: the mean over `i = 1..s` of the
/// expected true error after `m + i - 1` examples.
pub fn expected_progressive_true_error(n_features: usize, m: usize, s: usize) -> f64 {
    if s == 0 {
        return expected_true_error(n_features, m);
    }
    (0..s)
        .map(|i| expected_true_error(n_features, m + i))
        .sum::<f64>()
        / s as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_values_by_hand() {
        let e = true_error_of_survivors;
        assert_eq!(e(1), 0.0);
        assert_eq!(e(2), 0.25);
        assert_eq!(e(3), 0.25);
        assert_eq!(e(4), 5.0 / 16.0);
        assert_eq!(e(5), 5.0 / 16.0);
        assert_eq!(e(0), 0.5);
        let t = true_error_table(50);
        for (c, v) in t.iter().enumerate() {
            assert!((v - e(c)).abs() < 1e-15, "c = {c}");
        }
    }

    #[test]
    fn enumeration_agrees_with_closed_form() {
        // Enumerate all 2^(c-1) values of the non-target survivors.
        for c in 1..=14usize {
            let mut err = 0.0;
            for bits in 0u32..(1 << (c - 1)) {
                let agree = 1 + bits.count_ones() as usize;
                let disagree = c - agree;
                err += match agree.cmp(&disagree) {
                    std::cmp::Ordering::Greater => 0.0,
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                };
            }
            err /= f64::from(1u32 << (c - 1));
            assert!((err - true_error_of_survivors(c)).abs() < 1e-12, "c = {c}");
        }
    }

    #[test]
    fn large_c_asymptotics() {
        let c = 100_000;
        let approx = 0.5 - 1.0 / (2.0 * std::f64::consts::PI * c as f64).sqrt();
        assert!((true_error_of_survivors(c) - approx).abs() < 1e-6);
    }

    #[test]
    fn pmf_sums_to_one_and_has_the_right_mean() {
        for m in [0usize, 1, 5, 9, 20, 60] {
            let pmf = survivors_pmf(1000, m);
            let total: f64 = pmf.iter().sum();
            assert!((total - 1.0).abs() < 1e-9, "m = {m}: {total}");
            let mean: f64 = pmf.iter().enumerate().map(|(c, p)| c as f64 * p).sum();
            let expect = 1.0 + 999.0 * 0.5f64.powi(m as i32);
            assert!((mean - expect).abs() < 1e-6, "m = {m}");
        }
        // Many examples: only the target survives, error 0.
        assert!(expected_true_error(1000, 80) < 1e-12);
        // No examples: all 1000 features vote.
        assert!((expected_true_error(1000, 0) - true_error_of_survivors(1000)).abs() < 1e-15);
    }
}
