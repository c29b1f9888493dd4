//! One `[[settings]]` entry of an `svm_cv` config: C, the kernel (its
//! name from LIBSVM's list, gamma, degree, coef0), class weights and the
//! solver's options, and the parameters it gives our solver and
//! `svm-train` (with `libsvm_float_params`, as `svm-train` parses them).

use crate::peers::libsvm as peer;
use cvbench_engine::api::params::{check_weights, ClassWeight, KernelKind, SvmParams};
use cvbench_engine::api::strategies::{kernel_code_of_name, KERNEL_NAMES};
use serde::Deserialize;
use std::collections::BTreeMap;

/// A hyper-parameter setting.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setting {
    /// Name in outputs, e.g. "paper" or "libsvm-defaults".
    pub label: String,
    /// Box constraint C (default 1).
    pub c: Option<f64>,
    /// RBF gamma (default 1 / number of features; 0 means the default, as
    /// `svm-train -g 0`).
    pub gamma: Option<f64>,
    /// Linear kernel instead of RBF (the same as `kernel = "linear"`).
    #[serde(default)]
    pub linear: bool,
    /// The kernel by LIBSVM's name ([`KERNEL_NAMES`]: `linear`,
    /// `polynomial`, `rbf`, `sigmoid`) or its first letters (`poly`);
    /// default `rbf`.
    pub kernel: Option<String>,
    /// The polynomial kernel's degree (`svm-train -d`, default 3, >= 0).
    pub degree: Option<i64>,
    /// The polynomial and sigmoid kernels' coef0 (`svm-train -r`, default 0).
    pub coef0: Option<f64>,
    /// Class weights, `{ "<label>" = w, ... }` (`svm-train -wLABEL w`: the
    /// class's C is multiplied by w > 0). A setting with weights runs
    /// LIBSVM's one-vs-one C-SVC, as `svm-train` does.
    pub weights: Option<BTreeMap<String, f64>>,
    /// Stopping tolerance (default 1e-3).
    pub eps: Option<f64>,
    /// Kernel cache in MB (default 100).
    pub cache_mb: Option<f64>,
    /// Shrinking (default true).
    pub shrinking: Option<bool>,
    /// nu of nu-SVC, one-class and nu-SVR (`svm-train -n`, default 0.5);
    /// a config with `svm_type` of one of them only.
    pub nu: Option<f64>,
    /// epsilon of epsilon-SVR's loss (`svm-train -p`, default 0.1); a
    /// config with `svm_type = "epsilon_svr"` only.
    pub p: Option<f64>,
}

impl Setting {
    /// The `-t` code of the setting's kernel; the error says what is wrong
    /// (an unknown name, `linear = true` with another kernel, a `degree`
    /// or `coef0` the kernel does not use, a degree out of range).
    pub fn kernel_code(&self) -> Result<u8, String> {
        let code = match &self.kernel {
            None if self.linear => KernelKind::Linear.libsvm_code(),
            None => KernelKind::Rbf { gamma: 1.0 }.libsvm_code(),
            Some(name) => kernel_code_of_name(name).ok_or_else(|| {
                format!(
                    "unknown kernel `{name}`: use one of {} (or its first letters, e.g. `poly`)",
                    KERNEL_NAMES.join(", ")
                )
            })?,
        };
        let name = KERNEL_NAMES[usize::from(code)];
        if self.linear && name != KernelKind::Linear.name() {
            return Err(format!(
                "`linear = true` and kernel = \"{name}\" disagree: keep one of them"
            ));
        }
        let kind = KernelKind::of_code(code, 1.0, 3, 0.0);
        let poly = matches!(kind, Some(KernelKind::Poly { .. }));
        let has_coef0 = poly || matches!(kind, Some(KernelKind::Sigmoid { .. }));
        if self.degree.is_some() && !poly {
            return Err(format!(
                "`degree` is the polynomial kernel's, but the kernel is {name}: remove it or set kernel = \"polynomial\""
            ));
        }
        if self.coef0.is_some() && !has_coef0 {
            return Err(format!(
                "`coef0` is the polynomial and sigmoid kernels', but the kernel is {name}: remove it"
            ));
        }
        if let Some(d) = self.degree {
            if i32::try_from(d).is_err() {
                return Err(format!(
                    "degree = {d} is out of range: use 0 to {}",
                    i32::MAX
                ));
            }
        }
        Ok(code)
    }

    /// The setting's class weights in key order, with `float` as
    /// `svm-train` reads them (single precision); the error names the bad
    /// entry (a label that is not an integer, a weight that is not finite
    /// and > 0).
    pub fn class_weights(&self, float: bool) -> Result<Vec<ClassWeight>, String> {
        let mut out = Vec::new();
        for (label, &weight) in self.weights.iter().flatten() {
            let label: i32 = label.trim().parse().map_err(|_| {
                format!(
                    "weights: `{label}` is not a class label (an integer, as svm-train's -wLABEL)"
                )
            })?;
            out.push(ClassWeight { label, weight });
        }
        check_weights(&out).map_err(|e| format!("weights: {e}"))?;
        Ok(if float {
            peer::weights_as_parsed_by_svm_train(&out)
        } else {
            out
        })
    }

    /// Whether the setting's kernel has a gamma (all but the linear one).
    pub fn uses_gamma(&self) -> bool {
        self.params(1, false).kernel.gamma().is_some()
    }

    /// The solver parameters of this setting for data with `d` features;
    /// with `float`, as this LIBSVM build parses them (single precision).
    /// The kernel is RBF where [`Setting::kernel_code`] fails (which the
    /// plan checks first).
    pub fn params(&self, d: usize, float: bool) -> SvmParams {
        let gamma = cvbench_engine::api::params::gamma_or_default(self.gamma, d);
        let degree = self.degree.and_then(|v| i32::try_from(v).ok()).unwrap_or(3);
        let kernel = self
            .kernel_code()
            .ok()
            .and_then(|code| KernelKind::of_code(code, gamma, degree, self.coef0.unwrap_or(0.0)))
            .unwrap_or(KernelKind::Rbf { gamma });
        let mut p = SvmParams {
            kernel,
            ..SvmParams::rbf(self.c.unwrap_or(1.0), gamma)
        };
        if let Some(e) = self.eps {
            p.eps = e;
        }
        if let Some(m) = self.cache_mb {
            p.cache_mb = m;
        }
        if let Some(h) = self.shrinking {
            p.shrinking = h;
        }
        if float {
            // The peer always passes -c, -g and -e, which this svm-train build
            // reads as single precision (see peer::as_parsed_by_svm_train).
            p = peer::as_parsed_by_svm_train(&p);
        }
        p
    }
}
