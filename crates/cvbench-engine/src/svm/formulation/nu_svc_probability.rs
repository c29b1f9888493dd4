//! nu-SVC's probability estimates (`svm-train -s 1 -b 1`): for each class
//! pair, `svm_binary_svc_probability` with the internal CV's sub-trainings
//! nu-SVC's own (`svm_train` on the sub-problem with the same `nu`:
//! `solve_nu_svc`, its coefficients and rho scaled by `1/r`, nu's
//! feasibility never checked there), the pairs' shuffles drawn from
//! `rand()` pair after pair as C-SVC's
//! ([`crate::svm::multiclass::probability`]).

use rayon::prelude::*;

use super::nu_svc::{solve_nu_svc, train_nu_svc_with, NuSvcFit};
use crate::svm::cache::SharedKernelCache;
use crate::svm::cv::folds::GlibcRand;
use crate::svm::error::SvmError;
use crate::svm::kernel::KernelData;
use crate::svm::model::params::CheckedParams;
use crate::svm::multiclass::probability::{pair_probability_with, InnerFit, PairProbability};
use crate::svm::multiclass::train::probability_shuffles;
use crate::svm::multiclass::Groups;

/// The probability fit of class pair `(i, j)` of `groups` (nu-SVC's
/// sub-trainings) on its internal CV's shuffle `perm`.
fn nu_pair_probability(
    kd: &KernelData<'_>,
    groups: &Groups,
    (i, j): (usize, usize),
    params: &CheckedParams,
    nu: f64,
    shared: Option<&SharedKernelCache>,
    perm: &[usize],
) -> Result<PairProbability, SvmError> {
    let (ri, rj) = (groups.class_rows(i), groups.class_rows(j));
    let rows: Vec<u32> = ri.iter().chain(rj).map(|&r| r as u32).collect();
    let y: Vec<i8> = std::iter::repeat_n(1i8, ri.len())
        .chain(std::iter::repeat_n(-1i8, rj.len()))
        .collect();
    pair_probability_with(kd, &rows, &y, perm, |srows, sy| {
        let s = solve_nu_svc(kd, srows, sy, params, nu, shared)?;
        let c = s.info.map(|(_, c)| c);
        let stats = s.counted_stats();
        Ok((s.alpha, InnerFit { stats, nu: None, c }))
    })
}

/// [`train_nu_svc_with`] with probability estimates (`-b 1`): each pair's
/// internal CV shuffled by `rng` (`rand()`'s state; svm-train's is
/// [`GlibcRand::default_seed`]), its sigmoid in the pair's
/// [`crate::svm::multiclass::PairFit::prob`] and the model's `probA` /
/// `probB`. The pairs run as parallel jobs of the current rayon pool.
pub fn train_nu_svc_probability_with(
    kd: &KernelData<'_>,
    rows: &[usize],
    params: &CheckedParams,
    nu: f64,
    shared: Option<&SharedKernelCache>,
    rng: &mut GlibcRand,
) -> Result<NuSvcFit, SvmError> {
    let mut fit = train_nu_svc_with(kd, rows, params, nu, shared)?;
    let groups = Groups::new(&kd.ds, rows)?;
    let perms = probability_shuffles(&groups, rng);
    let probs = groups
        .pairs()
        .into_par_iter()
        .zip(perms.into_par_iter())
        .map(|(ij, perm)| nu_pair_probability(kd, &groups, ij, params, nu, shared, &perm))
        .collect::<Result<Vec<_>, SvmError>>()?;
    if !probs.is_empty() {
        let a = probs.iter().map(|p| p.a).collect();
        let b = probs.iter().map(|p| p.b).collect();
        fit.ovo.model.prob = Some((a, b));
    }
    for (pair, prob) in fit.ovo.pairs.iter_mut().zip(probs) {
        pair.prob = Some(prob);
    }
    Ok(fit)
}

/// [`train_nu_svc_probability_with`] on `rows` of `ds` (the kernel
/// prepared here, features checked, the support vectors in `ds`'s own
/// feature indices), `rand()` seeded with `srand(seed)` (1: svm-train's).
pub fn train_nu_svc_probability(
    ds: &crate::data::Dataset,
    rows: &[usize],
    params: &crate::svm::model::params::SvmParams,
    nu: f64,
    seed: u32,
) -> Result<NuSvcFit, SvmError> {
    let params = params.check()?;
    crate::svm::model::params::SvmType::NuSvc { nu }.validate()?;
    crate::svm::model::solution::check_training_features(ds, params.kernel)?;
    let kd = KernelData::new(ds, params.kernel);
    let mut rng = GlibcRand::new(seed);
    let mut fit = train_nu_svc_probability_with(&kd, rows, &params, nu, None, &mut rng)?;
    kd.restore_features(&mut fit.ovo.model.sv);
    Ok(fit)
}
