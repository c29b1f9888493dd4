//! The folds of `cvbench svm -v K`, for every formulation: `--stratified`'s
//! seeded folds, or `svm-train`'s ([`Folds::libsvm_of`]).

use cvbench_engine::api::cv::{Folds, GlibcRand};
use cvbench_engine::api::data::Dataset;

use super::args::SvmArgs;

impl SvmArgs {
    /// The folds of `-v k` on `ds`: `--stratified`'s (seeded by `--seed`,
    /// leave-one-out where `k >= n`), else `svm-train`'s drawn from `rng`
    /// (stratified by class where `libsvm_stratified`: C-SVC and nu-SVC).
    pub(super) fn cv_folds(
        &self,
        ds: &Dataset,
        k: usize,
        libsvm_stratified: bool,
        rng: &mut GlibcRand,
    ) -> anyhow::Result<Folds> {
        Ok(if self.cv.stratified {
            if k >= ds.n() {
                Folds::loocv(ds.n())
            } else {
                Folds::stratified(ds, k, self.cv.seed.unwrap_or(1))?
            }
        } else {
            Folds::libsvm_of(ds, k, libsvm_stratified, rng)?
        })
    }
}
