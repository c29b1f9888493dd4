//! nu-SVC: LIBSVM's `solve_nu_svc` for each class pair, and `svm_train`'s
//! one-vs-one around it (the same grouping, pairs and model layout as
//! C-SVC's, [`crate::svm::multiclass::train`]).
//!
//! `solve_nu_svc`: alphas filled from `nu l / 2` down per label
//! (`min(1, sum)` each), `Solver_NU` on `SVC_Q` with `p = 0`, bounds 1;
//! then with its `r`: `coef_k = a_k (y_k / r)`, `rho / r`, `obj / r^2`,
//! both upper bounds `1 / r` (printed as `C = 1/r`). With `--solver
//! batched` the same problem is solved by the batched working-set solver
//! (`formulation/batched.rs`), to LIBSVM's optimum within the tolerance.

use rayon::prelude::*;

use super::batched::solve_nu_svc_batched;
use super::Solved;
use crate::svm::cache::qmatrix::SvcQ;
use crate::svm::cache::SharedKernelCache;
use crate::svm::cv::strategy::SolverKind;
use crate::svm::error::SvmError;
use crate::svm::kernel::KernelData;
use crate::svm::model::params::CheckedParams;
use crate::svm::multiclass::train::{assemble, OvoFit, PairFit};
use crate::svm::multiclass::Groups;
use crate::svm::smo::general::{solve_general, Problem, Start};

/// `solve_nu_svc` on dataset rows `rows` of `kd` with labels `y` (`±1`):
/// the coefficients `a_k y_k / r`, with rho and the objective scaled.
pub(crate) fn solve_nu_svc(
    kd: &KernelData<'_>,
    rows: &[u32],
    y: &[i8],
    params: &CheckedParams,
    nu: f64,
    shared: Option<&SharedKernelCache>,
) -> Result<Solved, SvmError> {
    solve_nu_svc_from(kd, rows, y, params, nu, shared, None)
}

/// [`solve_nu_svc`] from `start` where given (in the solver's unscaled
/// variables, feasible: `0 <= a <= 1`, `sum_{y=+1} a = sum_{y=-1} a = nu l
/// / 2`; with its gradient where computed), else from LIBSVM's fill.
pub(crate) fn solve_nu_svc_from(
    kd: &KernelData<'_>,
    rows: &[u32],
    y: &[i8],
    params: &CheckedParams,
    nu: f64,
    shared: Option<&SharedKernelCache>,
    start: Option<Start>,
) -> Result<Solved, SvmError> {
    let l = rows.len();
    let (mut sum_pos, mut sum_neg) = (nu * l as f64 / 2.0, nu * l as f64 / 2.0);
    let min1 = |s: f64| if s < 1.0 { s } else { 1.0 }; // std::min(1.0, s)
    let alpha: Vec<f64> = y
        .iter()
        .map(|&yk| {
            let sum = if yk == 1 { &mut sum_pos } else { &mut sum_neg };
            let a = min1(*sum);
            *sum -= a;
            a
        })
        .collect();
    let (alpha, gradient) = match start {
        None => (alpha, None),
        Some(s) if s.alpha.len() == l => (s.alpha, s.gradient),
        Some(_) => {
            return Err(SvmError::InvalidParam(
                "a nu-SVC start has l variables".into(),
            ))
        }
    };
    let (alpha, mut stats, r) = match params.solver {
        SolverKind::Smo => {
            let sol = solve_general(Problem {
                q: SvcQ::new(kd, rows.to_vec(), y.to_vec(), params.cache_mb, shared),
                p: vec![0.0; l],
                y: y.to_vec(),
                alpha,
                c: vec![1.0; l],
                eps: params.eps,
                shrinking: params.shrinking,
                max_iter: params.max_iter,
                nu: true,
                gradient,
            })?;
            (sol.alpha, sol.stats, sol.r)
        }
        SolverKind::Batched => {
            let sol = solve_nu_svc_batched(kd, rows, y, params, (&alpha, gradient), shared)?;
            (sol.alpha, sol.stats, sol.r)
        }
    };
    let alpha = alpha
        .iter()
        .zip(y)
        .map(|(&a, &yk)| a * (f64::from(yk) / r))
        .collect();
    stats.rho /= r;
    stats.objective /= r * r;
    Ok(Solved {
        alpha,
        stats,
        upper_bound: 1.0 / r,
        info: Some(("C", 1.0 / r)),
        end: None,
    })
}

/// Class pair `classes`'s fit from its solve (its `svm_train_one`'s
/// counts), and the C it printed.
pub(crate) fn pair_fit(classes: (usize, usize), s: Solved) -> (PairFit, f64) {
    let c = s.info.map_or(0.0, |(_, c)| c);
    let stats = s.counted_stats();
    (
        PairFit {
            classes,
            stats,
            nu: None,
            coef: s.alpha,
            prob: None,
            seed_s: 0.0,
        },
        c,
    )
}

/// `svm_check_parameter`'s nu-SVC check: for every class pair,
/// `nu (n_i + n_j) / 2 <= min(n_i, n_j)`.
pub fn check_nu_feasible(groups: &Groups, nu: f64) -> Result<(), SvmError> {
    for (i, j) in groups.pairs() {
        let (n1, n2) = (groups.count[i], groups.count[j]);
        if nu * (n1 + n2) as f64 / 2.0 > n1.min(n2) as f64 {
            return Err(SvmError::InvalidParam("specified nu is infeasible".into()));
        }
    }
    Ok(())
}

/// What [`train_nu_svc`] returns: the one-vs-one fit (the model, and each
/// pair's solve with `svm_train_one`'s counts), and each pair's printed
/// `C = 1/r`.
#[derive(Clone, Debug)]
pub struct NuSvcFit {
    /// The model and the pairs' solutions (their `nu` is `None`).
    pub ovo: OvoFit,
    /// `1 / r` of each pair, in the pairs' order.
    pub c: Vec<f64>,
}

/// Train a nu-SVC (any number of classes, one-vs-one) on `rows` of `kd`'s
/// data (features assumed finite), the pairs solved as parallel jobs of the
/// current rayon pool. The model's support vectors are in `kd`'s feature
/// numbering (see [`KernelData::restore_features`]).
pub fn train_nu_svc_with(
    kd: &KernelData<'_>,
    rows: &[usize],
    params: &CheckedParams,
    nu: f64,
    shared: Option<&SharedKernelCache>,
) -> Result<NuSvcFit, SvmError> {
    train_nu_svc_checked(kd, rows, params, nu, shared, true)
}

/// [`train_nu_svc_with`], nu's feasibility on the rows' classes checked
/// only with `check_nu` (`svm_train` itself never checks it: svm-train
/// checks it once, in `svm_check_parameter`, on the whole data, so a CV
/// fold whose classes make nu infeasible still trains, from the start
/// `solve_nu_svc` fills).
pub(crate) fn train_nu_svc_checked(
    kd: &KernelData<'_>,
    rows: &[usize],
    params: &CheckedParams,
    nu: f64,
    shared: Option<&SharedKernelCache>,
    check_nu: bool,
) -> Result<NuSvcFit, SvmError> {
    crate::svm::smo::solve_input::check_train_rows(rows, kd.ds.n())?;
    let groups = Groups::new(&kd.ds, rows)?;
    if check_nu {
        check_nu_feasible(&groups, nu)?;
    }
    let fits = groups
        .pairs()
        .into_par_iter()
        .map(|(i, j)| {
            let (ri, rj) = (groups.class_rows(i), groups.class_rows(j));
            let prow: Vec<u32> = ri.iter().chain(rj).map(|&r| r as u32).collect();
            let y: Vec<i8> = std::iter::repeat_n(1i8, ri.len())
                .chain(std::iter::repeat_n(-1i8, rj.len()))
                .collect();
            let s = solve_nu_svc(kd, &prow, &y, params, nu, shared)?;
            Ok(pair_fit((i, j), s))
        })
        .collect::<Result<Vec<_>, SvmError>>()?;
    let (pairs, c): (Vec<PairFit>, Vec<f64>) = fits.into_iter().unzip();
    let model = assemble(kd, &groups, &pairs);
    Ok(NuSvcFit {
        ovo: OvoFit {
            model,
            pairs,
            warnings: vec![],
        },
        c,
    })
}

/// [`train_nu_svc_with`] on `rows` of `ds` (the kernel prepared here,
/// features checked, the support vectors in `ds`'s own feature indices).
pub fn train_nu_svc(
    ds: &crate::data::Dataset,
    rows: &[usize],
    params: &crate::svm::model::params::SvmParams,
    nu: f64,
) -> Result<NuSvcFit, SvmError> {
    let params = params.check()?;
    crate::svm::model::params::SvmType::NuSvc { nu }.validate()?;
    crate::svm::model::solution::check_training_features(ds, params.kernel)?;
    let kd = KernelData::new(ds, params.kernel);
    // Every row trained on and the matrix within 3/4 of -m: the matrix at
    // once (the same bits), each pair's own cache the rest, as C-SVC's.
    let values = params.solver.matrix_values();
    let prefilled = (rows.len() == ds.n())
        .then(|| crate::svm::kernel::matrix::prefilled(&kd, params.cache_mb, values))
        .flatten();
    let mut fit = match &prefilled {
        Some(sh) => {
            let local = params.with_cache_mb(params.cache_mb * 0.25)?;
            train_nu_svc_with(&kd, rows, &local, nu, Some(sh))?
        }
        None => train_nu_svc_with(&kd, rows, &params, nu, None)?,
    };
    kd.restore_features(&mut fit.ovo.model.sv);
    Ok(fit)
}
