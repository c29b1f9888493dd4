//! The parameters of `cvbench grid`'s points, for the C-SVC grid and the
//! grid of `-s 1..4` alike: the base every point starts from (kernel, `-e`,
//! `-m`, `-h` from the command line) and one point's C and gamma as
//! svm-train reads them.

use super::args::Opts;
use crate::peers::libsvm as peer;
use cvbench_engine::api::errors::SvmError;
use cvbench_engine::api::params::{KernelKind, SvmParams};

/// The parameters every point starts from: `-t` (linear, precomputed, or
/// RBF with svm-train's default gamma `default_gamma`), C 1, and `-e`,
/// `-m`, `-h` and the solver from `o`.
pub(super) fn base_params(o: &Opts, default_gamma: f64) -> SvmParams {
    SvmParams {
        kernel: match o.kernel_type {
            0 => KernelKind::Linear,
            4 => KernelKind::Precomputed,
            _ => KernelKind::Rbf {
                gamma: default_gamma,
            },
        },
        c: 1.0,
        eps: o.eps,
        cache_mb: o.cache_mb,
        shrinking: o.shrinking,
        max_iter: None,
        solver: o.solver,
    }
}

/// One point's parameters from `base`: C `2^log2c` (1 when not searched)
/// and, for RBF, gamma `2^log2g`, checked and read as svm-train reads them
/// (single precision) unless `--exact-params`; a gamma not searched is
/// svm-train's default `default_gamma`, computed in double as svm-train
/// does.
pub(super) fn point_params(
    o: &Opts,
    base: &SvmParams,
    log2c: Option<f64>,
    log2g: Option<f64>,
    default_gamma: f64,
) -> Result<SvmParams, SvmError> {
    let mut params = base.clone();
    params.c = log2c.map_or(1.0, |e| 2f64.powf(e));
    if let KernelKind::Rbf { .. } = params.kernel {
        params.kernel = KernelKind::Rbf {
            gamma: log2g.map_or(default_gamma, |e| 2f64.powf(e)),
        };
    }
    let mut params = if o.exact_params {
        params.validate()?;
        params
    } else {
        peer::as_parsed_checked(&params)?
    };
    if log2g.is_none() {
        if let KernelKind::Rbf { .. } = params.kernel {
            params.kernel = KernelKind::Rbf {
                gamma: default_gamma,
            };
        }
    }
    Ok(params)
}
