//! A held-out fold's kernel values against every training row of its
//! round, computed once and read by every model trained on that round (a
//! grid's points at one gamma): one-decision-function predictions
//! (one-class, the SVRs) without a kernel value per (point, held-out row,
//! support vector).
//!
//! The block holds, for each [`TILE`] of held-out rows, `K(x_lane, x_t)` for
//! every training row `t` of the round, as [`tile_kernel_values`] computes
//! it (`k_function`'s value, to the bit). A model's prediction sums
//! `coef_t K(x, x_t)` over its support vectors in the training rows' order
//! (the order of its `sv_coef`) from zero and subtracts `rho`: each value
//! is [`FunctionModel::predict_rows`]'s to the bit (the test compares
//! them). Built only where the tiles pay ([`tiles_pay`]; not for
//! precomputed kernels), and only as large as the caller allows.

use rayon::prelude::*;

use super::function_model::{FunctionFit, FunctionModel};
use crate::data::Dataset;
use crate::svm::kernel::lane_tile::{Tile, TILE};
use crate::svm::multiclass::predict_rows::{tile_kernel_values, tiles_pay};

/// One round's held-out kernel block (see the module doc).
pub(crate) struct HeldOutKernel {
    /// Per tile of held-out rows: `K(x_lane, x_t)` at `t * TILE + lane`.
    tiles: Vec<Vec<f64>>,
    /// Held-out rows.
    n_test: usize,
    /// Training rows.
    n_train: usize,
}

impl HeldOutKernel {
    /// The megabytes of the block of `n_test` held-out rows against
    /// `n_train` training rows.
    pub(crate) fn mb(n_test: usize, n_train: usize) -> f64 {
        (n_test.div_ceil(TILE) * TILE) as f64 * n_train as f64 * 8.0 / (1u64 << 20) as f64
    }

    /// The block of held-out rows `test` against training rows `train` of
    /// `ds` under `model`'s kernel, or `None` where the tiles do not pay
    /// (the caller predicts row by row, as before).
    pub(crate) fn new(
        ds: &Dataset,
        kernel: crate::svm::kernel::KernelKind,
        train: &[usize],
        test: &[usize],
    ) -> Option<HeldOutKernel> {
        let d = ds.d();
        if kernel.is_precomputed() || !tiles_pay(ds, ds, d) {
            return None;
        }
        let rows: Vec<f64> = train.iter().flat_map(|&r| ds.row(r).to_dense(d)).collect();
        let tiles = test
            .par_chunks(TILE)
            .map(|chunk| {
                let mut tile = Tile::new(d);
                tile.load(ds, chunk);
                tile_kernel_values(kernel, &tile, &rows)
            })
            .collect();
        Some(HeldOutKernel {
            tiles,
            n_test: test.len(),
            n_train: train.len(),
        })
    }

    /// `fit`'s predictions of the held-out rows (their order), `fit` trained
    /// on this block's training rows (its `coef` one per training row);
    /// `None` where it was not.
    pub(crate) fn predict(&self, fit: &FunctionFit) -> Option<Vec<f64>> {
        (fit.coef.len() == self.n_train).then(|| self.values(&fit.model, &fit.coef))
    }

    fn values(&self, model: &FunctionModel, coef: &[f64]) -> Vec<f64> {
        let svs: Vec<(usize, f64)> = coef
            .iter()
            .enumerate()
            .filter(|(_, a)| a.abs() > 0.0)
            .map(|(t, &a)| (t, a))
            .collect();
        let mut out = Vec::with_capacity(self.n_test);
        for (i, kv) in self.tiles.iter().enumerate() {
            let mut acc = [0.0f64; TILE];
            for &(t, c) in &svs {
                let k = &kv[t * TILE..(t + 1) * TILE];
                for l in 0..TILE {
                    acc[l] += c * k[l];
                }
            }
            let len = (self.n_test - i * TILE).min(TILE);
            out.extend(acc[..len].iter().map(|a| model.output(a - model.rho)));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svm::formulation::train_one_function;
    use crate::svm::kernel::KernelKind;
    use crate::svm::model::params::{SvmParams, SvmType};

    /// Every held-out prediction from the block is `predict_rows`'s to the
    /// bit, for each one-function formulation and kernel.
    #[test]
    fn block_predictions_are_predict_rows_to_the_bit() {
        let rows: Vec<Vec<f64>> = (0..90)
            .map(|i| (0..5).map(|j| ((i * 5 + j) as f64 * 0.37).sin()).collect())
            .collect();
        let y: Vec<f64> = (0..90).map(|i| (i as f64 * 0.21).cos() * 3.0).collect();
        let ds = Dataset::from_dense_rows("synthetic-regression", &rows, y);
        let train: Vec<usize> = (0..90).filter(|i| i % 3 != 1).collect();
        let test: Vec<usize> = (0..90).filter(|i| i % 3 == 1).collect();
        let sub = ds.subset(&train, "synthetic-train");
        for kernel in [
            KernelKind::Rbf { gamma: 0.7 },
            KernelKind::Linear,
            KernelKind::Poly {
                gamma: 0.5,
                coef0: 1.0,
                degree: 2,
            },
        ] {
            let held = HeldOutKernel::new(&ds, kernel, &train, &test).expect("dense rows pay");
            for t in [
                SvmType::EpsilonSvr { p: 0.1 },
                SvmType::NuSvr { nu: 0.4 },
                SvmType::OneClass { nu: 0.3 },
            ] {
                let params = SvmParams {
                    kernel,
                    c: 2.0,
                    ..SvmParams::libsvm_defaults(5)
                };
                let all: Vec<usize> = (0..sub.n()).collect();
                let fit = train_one_function(&sub, &all, &params, t).expect("trains");
                let want = fit.model.predict_rows(&ds, &test);
                let got = held.predict(&fit).expect("one coef per training row");
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&got), bits(&want), "{kernel:?} {t:?}");
            }
        }
    }
}
