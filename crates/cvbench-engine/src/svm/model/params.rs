//! Parameters of one C-SVC solve: `svm-train`'s options and defaults, the
//! default gamma (computed here only) and their validation.

use crate::svm::cv::strategy::SolverKind;
use crate::svm::error::SvmError;
use crate::svm::kernel::KernelKind;

/// `svm-train`'s default RBF gamma for data with `num_features` features:
/// `1 / num_features` (0 for data without features). The one place the
/// default is computed: every entry point resolves a gamma through
/// [`gamma_or_default`].
pub fn default_gamma(num_features: usize) -> f64 {
    if num_features > 0 {
        1.0 / num_features as f64
    } else {
        0.0
    }
}

/// Whether a gamma as given asks for `svm-train`'s default: none given, or 0
/// (`svm-train` starts from `gamma = 0` and replaces a 0, `-g 0` included,
/// by `1/num_features` after reading the data).
pub fn is_default_gamma(given: Option<f64>) -> bool {
    given.is_none_or(|g| g == 0.0)
}

/// The RBF gamma `svm-train` uses for `given` (a `-g` option, a config's
/// `gamma`) on data with `num_features` features: the value itself, or
/// [`default_gamma`] where [`is_default_gamma`].
pub fn gamma_or_default(given: Option<f64>, num_features: usize) -> f64 {
    match given {
        Some(g) if !is_default_gamma(given) => g,
        _ => default_gamma(num_features),
    }
}

/// Parameters of one C-SVC solve. Defaults are `svm-train`'s, except that
/// the RBF `gamma` has no dataset-independent default (`svm-train` uses
/// `1/num_features`; see [`SvmParams::libsvm_defaults`]); a `gamma` here is
/// the one the kernel uses (a 0 given by a user is resolved by
/// [`gamma_or_default`] before it gets here).
#[derive(Clone, Debug, PartialEq)]
pub struct SvmParams {
    /// The kernel.
    pub kernel: KernelKind,
    /// The box constraint `C` (`-c`, default 1).
    pub c: f64,
    /// Stopping tolerance on the maximal violating pair (`-e`, default 1e-3).
    pub eps: f64,
    /// Size of the `Q` column cache in MB (`-m`, default 100).
    pub cache_mb: f64,
    /// Whether to use the shrinking heuristic (`-h`, default on).
    pub shrinking: bool,
    /// Maximal number of SMO iterations; `None` uses LIBSVM's
    /// `max(10^7, 100 l)`.
    pub max_iter: Option<u64>,
    /// The solver (`--solver`, default the LIBSVM-identical SMO).
    pub solver: SolverKind,
}

impl SvmParams {
    /// `svm-train`'s defaults for a dataset with `num_features` features:
    /// RBF with `gamma = 1/num_features`, C = 1, eps = 1e-3, 100 MB, shrinking.
    pub fn libsvm_defaults(num_features: usize) -> SvmParams {
        SvmParams {
            kernel: KernelKind::Rbf {
                gamma: default_gamma(num_features),
            },
            ..SvmParams::rbf(1.0, 1.0)
        }
    }

    /// RBF kernel with the given C and gamma; other settings at LIBSVM's defaults.
    pub fn rbf(c: f64, gamma: f64) -> SvmParams {
        SvmParams {
            kernel: KernelKind::Rbf { gamma },
            c,
            eps: 1e-3,
            cache_mb: 100.0,
            shrinking: true,
            max_iter: None,
            solver: SolverKind::Smo,
        }
    }

    /// Linear kernel with the given C; other settings at LIBSVM's defaults.
    pub fn linear(c: f64) -> SvmParams {
        SvmParams {
            kernel: KernelKind::Linear,
            ..SvmParams::rbf(c, 1.0)
        }
    }

    /// Check every parameter's domain.
    pub fn validate(&self) -> Result<(), SvmError> {
        if !(self.c.is_finite() && self.c > 0.0) {
            return Err(SvmError::InvalidParam(format!(
                "C must be finite and > 0, got {}",
                fmt_param(self.c)
            )));
        }
        if !(self.eps.is_finite() && self.eps > 0.0) {
            return Err(SvmError::InvalidParam(format!(
                "eps must be finite and > 0, got {}",
                fmt_param(self.eps)
            )));
        }
        if !(self.cache_mb.is_finite() && self.cache_mb > 0.0) {
            return Err(SvmError::InvalidParam(format!(
                "cache size must be finite and > 0 MB, got {}",
                fmt_param(self.cache_mb)
            )));
        }
        if let Some(gamma) = self.kernel.gamma() {
            if !(gamma.is_finite() && gamma >= 0.0) {
                return Err(SvmError::InvalidParam(format!(
                    "gamma must be finite and >= 0, got {}",
                    fmt_param(gamma)
                )));
            }
        }
        crate::svm::kernel::kind::check_kernel(&self.kernel)?;
        if self.max_iter == Some(0) {
            return Err(SvmError::InvalidParam("max_iter must be > 0".into()));
        }
        Ok(())
    }
}

/// Parameters whose every value has been checked ([`SvmParams::check`]):
/// what the solver takes, so that validation happens once, where parameters
/// enter (a CLI option, a config setting, a grid point), not in every solve.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckedParams(SvmParams);

impl SvmParams {
    /// These parameters, checked ([`SvmParams::validate`]).
    pub fn check(&self) -> Result<CheckedParams, SvmError> {
        self.validate()?;
        Ok(CheckedParams(self.clone()))
    }
}

impl CheckedParams {
    /// The same parameters with another kernel-cache size (a share of one
    /// budget); the size is checked like every other value.
    pub fn with_cache_mb(&self, cache_mb: f64) -> Result<CheckedParams, SvmError> {
        SvmParams {
            cache_mb,
            ..self.0.clone()
        }
        .check()
    }
}

impl std::ops::Deref for CheckedParams {
    type Target = SvmParams;

    fn deref(&self) -> &SvmParams {
        &self.0
    }
}

/// A parameter value as a user would write it: plain for ordinary
/// magnitudes, scientific (`1e-50`, `1e300`) for tiny or huge ones, so that
/// an error never shows a valid tiny value as `0`.
pub fn fmt_param(v: f64) -> String {
    let a = v.abs();
    if v != 0.0 && a.is_finite() && !(1e-4..1e15).contains(&a) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checked_params_are_checked_once_and_keep_their_checks() {
        let p = SvmParams::rbf(2.0, 0.5).check().unwrap();
        assert_eq!((p.c, p.cache_mb), (2.0, 100.0));
        assert_eq!(p.with_cache_mb(25.0).unwrap().cache_mb, 25.0);
        assert!(p.with_cache_mb(0.0).is_err());
        assert!(p.with_cache_mb(f64::NAN).is_err());
        assert!(SvmParams::rbf(-1.0, 0.5).check().is_err());
        assert!(SvmParams::rbf(1.0, f64::INFINITY).check().is_err());
    }

    #[test]
    fn gamma_zero_is_svm_trains_default() {
        assert_eq!(gamma_or_default(Some(0.0), 13), 1.0 / 13.0);
        assert_eq!(gamma_or_default(Some(-0.0), 4), 0.25);
        assert_eq!(gamma_or_default(None, 4), 0.25);
        assert_eq!(gamma_or_default(Some(0.5), 4), 0.5);
        assert_eq!(gamma_or_default(Some(0.0), 0), 0.0);
        assert!(is_default_gamma(None) && is_default_gamma(Some(0.0)));
        assert!(!is_default_gamma(Some(1e-30)));
    }
}

/// LIBSVM's formulation (`svm-train -s`) with its own parameter: `-n` nu
/// for nu-SVC, one-class and nu-SVR, `-p` epsilon for epsilon-SVR (the
/// kernel, `C`, `-e`, `-m`, `-h` stay in [`SvmParams`]). Trained by
/// [`crate::svm::formulation`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SvmType {
    /// `-s 0`: C-SVC.
    CSvc,
    /// `-s 1`: nu-SVC, `-n nu` (default 0.5).
    NuSvc {
        /// `nu` in `(0, 1]`.
        nu: f64,
    },
    /// `-s 2`: one-class SVM, `-n nu` (default 0.5).
    OneClass {
        /// `nu` in `(0, 1]`.
        nu: f64,
    },
    /// `-s 3`: epsilon-SVR, `-p epsilon` (default 0.1).
    EpsilonSvr {
        /// The epsilon of the loss, `>= 0`.
        p: f64,
    },
    /// `-s 4`: nu-SVR, `-n nu` (default 0.5).
    NuSvr {
        /// `nu` in `(0, 1]`.
        nu: f64,
    },
}

impl SvmType {
    /// The name `svm_save_model` writes on the `svm_type` line.
    pub fn name(&self) -> &'static str {
        match self {
            SvmType::CSvc => "c_svc",
            SvmType::NuSvc { .. } => "nu_svc",
            SvmType::OneClass { .. } => "one_class",
            SvmType::EpsilonSvr { .. } => "epsilon_svr",
            SvmType::NuSvr { .. } => "nu_svr",
        }
    }

    /// `svm-train`'s `-s` number.
    pub fn number(&self) -> u8 {
        match self {
            SvmType::CSvc => 0,
            SvmType::NuSvc { .. } => 1,
            SvmType::OneClass { .. } => 2,
            SvmType::EpsilonSvr { .. } => 3,
            SvmType::NuSvr { .. } => 4,
        }
    }

    /// Whether the model predicts classes from labels (C-SVC, nu-SVC).
    pub fn is_classification(&self) -> bool {
        matches!(self, SvmType::CSvc | SvmType::NuSvc { .. })
    }

    /// Whether the model predicts a real value (epsilon-SVR, nu-SVR).
    pub fn is_regression(&self) -> bool {
        matches!(self, SvmType::EpsilonSvr { .. } | SvmType::NuSvr { .. })
    }

    /// `svm_check_parameter`'s checks of `nu` and `p` ("nu <= 0 or nu > 1",
    /// "p < 0").
    pub fn validate(&self) -> Result<(), SvmError> {
        match *self {
            SvmType::CSvc => Ok(()),
            SvmType::NuSvc { nu } | SvmType::OneClass { nu } | SvmType::NuSvr { nu } => {
                if nu > 0.0 && nu <= 1.0 {
                    Ok(())
                } else {
                    Err(SvmError::InvalidParam(format!(
                        "nu <= 0 or nu > 1 (nu = {})",
                        fmt_param(nu)
                    )))
                }
            }
            SvmType::EpsilonSvr { p } => {
                if p.is_finite() && p >= 0.0 {
                    Ok(())
                } else {
                    Err(SvmError::InvalidParam(format!(
                        "p < 0 (p = {})",
                        fmt_param(p)
                    )))
                }
            }
        }
    }
}
