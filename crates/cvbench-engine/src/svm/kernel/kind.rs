//! The kernels' names, codes and formulas as LIBSVM has them, in one place:
//! `-t` codes, the model file's `kernel_type` names and header lines, and
//! the kernel value of a dot product for the kernels that are functions of
//! `<x, x'>` alone (linear, polynomial, sigmoid).
//!
//! The polynomial kernel is `powi(gamma <x, x'> + coef0, degree)` with
//! LIBSVM's own `powi` (square-and-multiply, [`libsvm_powi`]), and the
//! sigmoid kernel `tanh(gamma <x, x'> + coef0)`, both in LIBSVM's operation
//! order, so that their values are `svm-train`'s to the bit.

use crate::svm::error::SvmError;

/// The kernel function.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KernelKind {
    /// `K(x, x') = <x, x'>` (`svm-train -t 0`).
    Linear,
    /// `K(x, x') = exp(-gamma ||x - x'||^2)` (`svm-train -t 2`, the default).
    Rbf {
        /// The width parameter gamma.
        gamma: f64,
    },
    /// `K(x, x') = (gamma <x, x'> + coef0)^degree` (`svm-train -t 1`).
    Poly {
        /// The scale gamma (`-g`).
        gamma: f64,
        /// The degree (`-d`, default 3).
        degree: i32,
        /// The offset coef0 (`-r`, default 0).
        coef0: f64,
    },
    /// `K(x, x') = tanh(gamma <x, x'> + coef0)` (`svm-train -t 3`).
    Sigmoid {
        /// The scale gamma (`-g`).
        gamma: f64,
        /// The offset coef0 (`-r`, default 0).
        coef0: f64,
    },
    /// `K(x_i, x_j) = x_i[serial(x_j)]`: the kernel values are the data
    /// (`svm-train -t 4`; see [`crate::svm::kernel::precomputed`]).
    Precomputed,
}

/// LIBSVM's `powi(base, times)`: square-and-multiply over the bits of
/// `times` from the lowest (1 for `times <= 0`). Its rounding differs from
/// `f64::powi`'s, so the polynomial kernel uses this one.
pub fn libsvm_powi(base: f64, times: i32) -> f64 {
    let (mut tmp, mut ret) = (base, 1.0);
    let mut t = times;
    while t > 0 {
        if t % 2 == 1 {
            ret *= tmp;
        }
        tmp *= tmp;
        t /= 2;
    }
    ret
}

/// LIBSVM's `kernel_type` name of the precomputed kernel (`-t 4`), which
/// [`KERNEL_NAMES`] leaves out: it is no function of feature vectors.
pub const PRECOMPUTED_NAME: &str = "precomputed";

/// LIBSVM's `kernel_type` names, by `-t` code (0 to 3: the kernels of
/// feature vectors).
pub const KERNEL_NAMES: [&str; 4] = ["linear", "polynomial", "rbf", "sigmoid"];

/// The `-t` code of a kernel named by `name`: one of [`KERNEL_NAMES`], or
/// the first letters of exactly one of them (`poly`, `sig`, `lin`); `None`
/// for any other name.
pub fn kernel_code_of_name(name: &str) -> Option<u8> {
    if let Some(i) = KERNEL_NAMES.iter().position(|&k| k == name) {
        return u8::try_from(i).ok();
    }
    let mut hits = KERNEL_NAMES
        .iter()
        .enumerate()
        .filter(|(_, k)| !name.is_empty() && k.starts_with(name));
    match (hits.next(), hits.next()) {
        (Some((i, _)), None) => u8::try_from(i).ok(),
        _ => None,
    }
}

impl KernelKind {
    /// The kernel of a `-t` code (0 linear, 1 polynomial, 2 RBF, 3
    /// sigmoid) with its gamma, degree and coef0 (used where the kernel
    /// has them); `None` for another code (4, precomputed, included: its
    /// data is not feature vectors, so only its own callers name it).
    pub fn of_code(code: u8, gamma: f64, degree: i32, coef0: f64) -> Option<KernelKind> {
        Some(match code {
            0 => KernelKind::Linear,
            1 => KernelKind::Poly {
                gamma,
                degree,
                coef0,
            },
            2 => KernelKind::Rbf { gamma },
            3 => KernelKind::Sigmoid { gamma, coef0 },
            _ => return None,
        })
    }

    /// LIBSVM's `-t` code of this kernel (0 linear, 1 polynomial, 2 RBF,
    /// 3 sigmoid, 4 precomputed).
    pub fn libsvm_code(&self) -> u8 {
        match self {
            KernelKind::Linear => 0,
            KernelKind::Poly { .. } => 1,
            KernelKind::Rbf { .. } => 2,
            KernelKind::Sigmoid { .. } => 3,
            KernelKind::Precomputed => 4,
        }
    }

    /// LIBSVM's name of this kernel (the model file's `kernel_type`).
    pub fn name(&self) -> &'static str {
        match self {
            KernelKind::Precomputed => PRECOMPUTED_NAME,
            _ => KERNEL_NAMES[usize::from(self.libsvm_code())],
        }
    }

    /// Whether this is the precomputed kernel (`-t 4`), whose values are
    /// read from the data, never computed from it.
    pub fn is_precomputed(&self) -> bool {
        matches!(self, KernelKind::Precomputed)
    }

    /// The kernel's gamma (`None` for the linear and precomputed kernels).
    pub fn gamma(&self) -> Option<f64> {
        match *self {
            KernelKind::Linear | KernelKind::Precomputed => None,
            KernelKind::Rbf { gamma }
            | KernelKind::Poly { gamma, .. }
            | KernelKind::Sigmoid { gamma, .. } => Some(gamma),
        }
    }

    /// The same kernel with another gamma (the linear and precomputed
    /// kernels have none and stay as they are).
    pub fn with_gamma(&self, g: f64) -> KernelKind {
        match *self {
            KernelKind::Linear => KernelKind::Linear,
            KernelKind::Precomputed => KernelKind::Precomputed,
            KernelKind::Rbf { .. } => KernelKind::Rbf { gamma: g },
            KernelKind::Poly { degree, coef0, .. } => KernelKind::Poly {
                gamma: g,
                degree,
                coef0,
            },
            KernelKind::Sigmoid { coef0, .. } => KernelKind::Sigmoid { gamma: g, coef0 },
        }
    }

    /// Whether the kernel value is a function of the dot product alone
    /// (linear, polynomial, sigmoid: [`KernelKind::of_dot`]).
    pub fn is_dot_kernel(&self) -> bool {
        !matches!(self, KernelKind::Rbf { .. } | KernelKind::Precomputed)
    }

    /// The kernel value of a dot product `<x, x'>` in LIBSVM's arithmetic,
    /// for the kernels that are functions of it ([`KernelKind::is_dot_kernel`]);
    /// the RBF kernel also needs the norms, and the precomputed kernel is
    /// no function of a dot product: both get `NaN` here (a fast path
    /// taken for them by mistake shows at once).
    #[inline(always)]
    pub fn of_dot(&self, dot: f64) -> f64 {
        match *self {
            KernelKind::Linear => dot,
            KernelKind::Poly {
                gamma,
                degree,
                coef0,
            } => libsvm_powi(gamma * dot + coef0, degree),
            KernelKind::Sigmoid { gamma, coef0 } => (gamma * dot + coef0).tanh(),
            KernelKind::Rbf { .. } | KernelKind::Precomputed => f64::NAN,
        }
    }

    /// The model file's kernel lines as `svm_save_model` writes them:
    /// `kernel_type`, then `degree` (polynomial), `gamma` (all but linear)
    /// and `coef0` (polynomial, sigmoid), numbers through `num` (the
    /// precomputed kernel: `kernel_type` alone).
    pub fn model_header(&self, num: impl Fn(f64) -> String) -> String {
        let mut s = format!("kernel_type {}\n", self.name());
        if let KernelKind::Poly { degree, .. } = self {
            s.push_str(&format!("degree {degree}\n"));
        }
        if let Some(g) = self.gamma() {
            s.push_str(&format!("gamma {}\n", num(g)));
        }
        if let KernelKind::Poly { coef0, .. } | KernelKind::Sigmoid { coef0, .. } = self {
            s.push_str(&format!("coef0 {}\n", num(*coef0)));
        }
        s
    }

    /// The kernel of a model file's header: its `kernel_type` name and the
    /// `gamma`, `degree` and `coef0` lines it had (LIBSVM's defaults where
    /// absent: degree 3, coef0 0; gamma is required). The error says what
    /// is missing or unknown.
    pub fn from_model_header(
        name: &str,
        gamma: Option<f64>,
        degree: Option<i32>,
        coef0: Option<f64>,
    ) -> Result<KernelKind, String> {
        let need_gamma =
            || gamma.ok_or_else(|| format!("kernel_type {name} without a `gamma` line"));
        Ok(match name {
            "linear" => KernelKind::Linear,
            PRECOMPUTED_NAME => KernelKind::Precomputed,
            "rbf" => KernelKind::Rbf {
                gamma: need_gamma()?,
            },
            "polynomial" => KernelKind::Poly {
                gamma: need_gamma()?,
                degree: degree.unwrap_or(3),
                coef0: coef0.unwrap_or(0.0),
            },
            "sigmoid" => KernelKind::Sigmoid {
                gamma: need_gamma()?,
                coef0: coef0.unwrap_or(0.0),
            },
            other => {
                return Err(format!(
                "kernel_type {other} is not supported: cvbench reads {}, {PRECOMPUTED_NAME} models",
                KERNEL_NAMES.join(", ")
            ))
            }
        })
    }
}

/// Check the polynomial and sigmoid kernels' own parameters (gamma is
/// checked with the other parameters, [`crate::svm::model::params::SvmParams::validate`]): a
/// degree >= 0 (`svm-train`: "degree of polynomial kernel < 0") and a
/// finite coef0.
pub fn check_kernel(kind: &KernelKind) -> Result<(), SvmError> {
    if let KernelKind::Poly { degree, .. } = *kind {
        if degree < 0 {
            return Err(SvmError::InvalidParam(format!(
                "the polynomial kernel's degree (-d) must be >= 0, got {degree} (svm-train: \"degree of polynomial kernel < 0\")"
            )));
        }
    }
    if let KernelKind::Poly { coef0, .. } | KernelKind::Sigmoid { coef0, .. } = *kind {
        if !coef0.is_finite() {
            return Err(SvmError::InvalidParam(format!(
                "coef0 (-r) must be finite, got {coef0}"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn libsvm_powi_is_square_and_multiply() {
        assert_eq!(libsvm_powi(3.0, 0), 1.0);
        assert_eq!(libsvm_powi(3.0, -2), 1.0);
        assert_eq!(libsvm_powi(3.0, 5), 243.0);
        // The product order of LIBSVM's loop: ((b) * b^4), not ((b*b)*b)*...
        let b = 1.000_000_1_f64;
        let want = b * ((b * b) * (b * b));
        assert_eq!(libsvm_powi(b, 5).to_bits(), want.to_bits());
    }

    #[test]
    fn names_codes_and_headers_round_trip() {
        let kinds = [
            KernelKind::Linear,
            KernelKind::Poly {
                gamma: 0.5,
                degree: 2,
                coef0: 0.25,
            },
            KernelKind::Rbf { gamma: 0.5 },
            KernelKind::Sigmoid {
                gamma: 0.5,
                coef0: -1.0,
            },
        ];
        for (code, k) in kinds.iter().enumerate() {
            assert_eq!(usize::from(k.libsvm_code()), code);
            let header = k.model_header(|x| format!("{x}"));
            let mut lines = header.lines();
            let name = lines.next().unwrap().strip_prefix("kernel_type ").unwrap();
            let (mut g, mut d, mut c) = (None, None, None);
            for l in lines {
                let (key, v) = l.split_once(' ').unwrap();
                match key {
                    "gamma" => g = v.parse().ok(),
                    "degree" => d = v.parse().ok(),
                    "coef0" => c = v.parse().ok(),
                    _ => panic!("{l}"),
                }
            }
            assert_eq!(KernelKind::from_model_header(name, g, d, c).unwrap(), *k);
        }
        assert_eq!(
            KernelKind::from_model_header("precomputed", None, None, None).unwrap(),
            KernelKind::Precomputed
        );
        assert_eq!(
            KernelKind::Precomputed.model_header(|x| format!("{x}")),
            "kernel_type precomputed\n"
        );
        assert_eq!(KernelKind::Precomputed.libsvm_code(), 4);
        assert!(KernelKind::Precomputed.of_dot(1.0).is_nan());
        assert!(KernelKind::from_model_header("precomp", None, None, None).is_err());
        assert!(KernelKind::from_model_header("sigmoid", None, None, None).is_err());
        for (code, k) in kinds.iter().enumerate() {
            let code = code as u8;
            assert_eq!(kernel_code_of_name(k.name()), Some(code));
            assert_eq!(
                KernelKind::of_code(code, 0.5, 2, 0.25).map(|x| x.name()),
                Some(k.name())
            );
        }
    }

    #[test]
    fn kernel_names_and_unique_prefixes() {
        assert_eq!(kernel_code_of_name("poly"), Some(1));
        assert_eq!(kernel_code_of_name("rbf"), Some(2));
        assert_eq!(kernel_code_of_name("sig"), Some(3));
        assert_eq!(kernel_code_of_name(""), None);
        assert_eq!(kernel_code_of_name("gaussian"), None);
        assert_eq!(KernelKind::of_code(4, 1.0, 3, 0.0), None);
    }
}
