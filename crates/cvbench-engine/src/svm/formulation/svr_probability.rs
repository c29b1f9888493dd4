//! The SVRs' probability model (`svm-train -s 3|4 -b 1`), LIBSVM 3.24's
//! `svm_svr_probability`: `svm_cross_validation` with 5 folds of the same
//! problem without probability (one `rand()` shuffle, `j = i + rand() %
//! (l - i)`, fold `f` the shuffled rows `f l / 5 .. (f + 1) l / 5`, each
//! round trained on the others in shuffled order), the residuals `y -
//! f(x)`, their mean absolute value `mae`, the residuals above `5 std`
//! (`std = sqrt(2 mae^2)`) left out, and `sigma` the mean absolute value
//! of the rest: the scale of the Laplace noise `target = f(x) + z`, the
//! model file's `probA`.

use super::function_model::{train_one_function_with, FunctionFit};
use crate::svm::cache::SharedKernelCache;
use crate::svm::cv::folds::GlibcRand;
use crate::svm::error::SvmError;
use crate::svm::kernel::KernelData;
use crate::svm::model::params::{CheckedParams, SvmType};
use crate::svm::multiclass::probability::{shuffle, PROB_FOLDS};

/// `svm_cross_validation`'s warning where there are fewer rows than folds.
pub const FOLDS_WARNING: &str = "WARNING: # folds > # data. Will use # folds = # data instead (i.e., leave-one-out cross validation)";

/// What [`svr_probability`] gives.
#[derive(Clone, Debug)]
pub struct SvrProbability {
    /// The Laplace scale (`probA`).
    pub sigma: f64,
    /// The internal CV's trainings, fold after fold (`svm-train` prints
    /// their lines).
    pub inner: Vec<FunctionFit>,
    /// `svm_cross_validation`'s warning on standard error, if any.
    pub warning: Option<String>,
}

impl SvrProbability {
    /// The line `svm_svr_probability` prints (two lines of text), `sigma`
    /// as `%g`.
    pub fn info_lines(&self) -> Vec<String> {
        vec![
            "Prob. model for test data: target value = predicted value + z,".into(),
            format!(
                "z: Laplace distribution e^(-|z|/sigma)/(2sigma),sigma= {}",
                crate::data::transform::scale::printf_g(self.sigma)
            ),
        ]
    }
}

/// `svm_svr_probability` of epsilon-SVR or nu-SVR (`svm_type`) on `rows`
/// of `kd` (features assumed finite, targets finite), the shuffle drawn
/// from `rng` (svm-train's: [`GlibcRand::default_seed`]).
pub fn svr_probability(
    kd: &KernelData<'_>,
    rows: &[usize],
    params: &CheckedParams,
    svm_type: SvmType,
    shared: Option<&SharedKernelCache>,
    rng: &mut GlibcRand,
) -> Result<SvrProbability, SvmError> {
    if !svm_type.is_regression() {
        return Err(SvmError::InvalidParam(format!(
            "{}: the Laplace probability model is the SVRs' (epsilon_svr, nu_svr)",
            svm_type.name()
        )));
    }
    let l = rows.len();
    let (nr_fold, warning) = if PROB_FOLDS > l {
        (l, Some(FOLDS_WARNING.to_string()))
    } else {
        (PROB_FOLDS, None)
    };
    let perm = shuffle(l, rng);
    let mut ymv = vec![0.0; l];
    let mut inner = Vec::with_capacity(nr_fold);
    for f in 0..nr_fold {
        let (begin, end) = (f * l / nr_fold, (f + 1) * l / nr_fold);
        let train: Vec<usize> = perm[..begin]
            .iter()
            .chain(&perm[end..])
            .map(|&k| rows[k])
            .collect();
        let fit = train_one_function_with(kd, &train, params, svm_type, shared)?;
        for &k in &perm[begin..end] {
            ymv[k] = fit.model.predict(kd.ds.row(rows[k]));
        }
        inner.push(fit);
    }
    let mut mae = 0.0;
    for (k, v) in ymv.iter_mut().enumerate() {
        *v = kd.ds.y[rows[k]] - *v;
        mae += v.abs();
    }
    mae /= l as f64;
    let std = (2.0 * mae * mae).sqrt();
    let mut count = 0usize;
    mae = 0.0;
    for v in &ymv {
        if v.abs() > 5.0 * std {
            count += 1;
        } else {
            mae += v.abs();
        }
    }
    mae /= (l - count) as f64;
    Ok(SvrProbability {
        sigma: mae,
        inner,
        warning,
    })
}

/// [`train_one_function_with`] for an SVR with its probability model
/// (`-b 1`): [`svr_probability`] first (as `svm_train` does), then the
/// training, its model's `probA` the Laplace scale.
pub fn train_svr_probability_with(
    kd: &KernelData<'_>,
    rows: &[usize],
    params: &CheckedParams,
    svm_type: SvmType,
    shared: Option<&SharedKernelCache>,
    rng: &mut GlibcRand,
) -> Result<(FunctionFit, SvrProbability), SvmError> {
    svm_type.validate()?;
    crate::svm::smo::solve_input::check_train_rows(rows, kd.ds.n())?;
    if let Some(&r) = rows.iter().find(|&&r| !kd.ds.y[r].is_finite()) {
        return Err(SvmError::NonFinite(format!(
            "target of row {r} is {}",
            kd.ds.y[r]
        )));
    }
    let prob = svr_probability(kd, rows, params, svm_type, shared, rng)?;
    let mut fit = train_one_function_with(kd, rows, params, svm_type, shared)?;
    fit.model.prob_a = Some(prob.sigma);
    Ok((fit, prob))
}

/// [`train_svr_probability_with`] on `rows` of `ds` (the kernel prepared
/// here, features checked, the support vectors in `ds`'s own feature
/// indices), `rand()` seeded with `srand(seed)` (1: svm-train's).
pub fn train_svr_probability(
    ds: &crate::data::Dataset,
    rows: &[usize],
    params: &crate::svm::model::params::SvmParams,
    svm_type: SvmType,
    seed: u32,
) -> Result<(FunctionFit, SvrProbability), SvmError> {
    let params = params.check()?;
    crate::svm::model::solution::check_training_features(ds, params.kernel)?;
    let kd = KernelData::new(ds, params.kernel);
    let mut rng = GlibcRand::new(seed);
    let (mut fit, prob) = train_svr_probability_with(&kd, rows, &params, svm_type, None, &mut rng)?;
    kd.restore_features(&mut fit.model.sv);
    Ok((fit, prob))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Dataset;
    use crate::svm::model::params::SvmParams;

    fn line(n: usize) -> Dataset {
        let rows: Vec<Vec<f64>> = (0..n).map(|i| vec![i as f64 / n as f64]).collect();
        let y = (0..n).map(|i| (i as f64 * 0.7).sin()).collect();
        Dataset::from_dense_rows("line", &rows, y)
    }

    #[test]
    fn sigma_is_the_mean_absolute_cv_residual_without_outliers() {
        let ds = line(40);
        let params = SvmParams::libsvm_defaults(1).check().unwrap();
        let kd = KernelData::new(&ds, params.kernel);
        let rows: Vec<usize> = (0..ds.n()).collect();
        let t = SvmType::EpsilonSvr { p: 0.1 };
        let mut rng = GlibcRand::default_seed();
        let p = svr_probability(&kd, &rows, &params, t, None, &mut rng).unwrap();
        assert_eq!(p.inner.len(), PROB_FOLDS);
        assert!(p.warning.is_none());
        // The same shuffle, the same folds: the residuals recomputed here.
        let perm = shuffle(ds.n(), &mut GlibcRand::default_seed());
        let mut res = vec![0.0; ds.n()];
        for (f, fit) in p.inner.iter().enumerate() {
            let (b, e) = (f * ds.n() / PROB_FOLDS, (f + 1) * ds.n() / PROB_FOLDS);
            for &k in &perm[b..e] {
                res[k] = (ds.y[k] - fit.model.predict(ds.row(k))).abs();
            }
        }
        let mae = res.iter().sum::<f64>() / ds.n() as f64;
        let cut = 5.0 * (2.0 * mae * mae).sqrt();
        let kept: Vec<f64> = res.into_iter().filter(|&r| r <= cut).collect();
        let want = kept.iter().sum::<f64>() / kept.len() as f64;
        assert!((p.sigma - want).abs() <= 1e-12 * want, "{} {want}", p.sigma);
    }

    #[test]
    fn fewer_rows_than_folds_warn_and_one_class_is_refused() {
        let ds = line(3);
        let params = SvmParams::libsvm_defaults(1).check().unwrap();
        let kd = KernelData::new(&ds, params.kernel);
        let mut rng = GlibcRand::default_seed();
        let t = SvmType::NuSvr { nu: 0.5 };
        let p = svr_probability(&kd, &[0, 1, 2], &params, t, None, &mut rng).unwrap();
        assert_eq!(p.inner.len(), 3);
        assert_eq!(p.warning.as_deref(), Some(FOLDS_WARNING));
        let t = SvmType::OneClass { nu: 0.5 };
        assert!(svr_probability(&kd, &[0, 1, 2], &params, t, None, &mut rng).is_err());
    }
}
