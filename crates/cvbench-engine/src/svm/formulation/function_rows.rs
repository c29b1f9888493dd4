//! A one-decision-function model's values (one-class, epsilon-SVR, nu-SVR)
//! for many rows at once, each [`FunctionModel::decision_value`]'s to the
//! bit: [`TILE`] rows per pass, one SIMD lane per row
//! ([`crate::svm::kernel::lane_tile`]), as the one-vs-one models' rows
//! ([`crate::svm::multiclass::predict_rows`]). Each lane sums
//! `sv_coef_t K(sv_t, x)` in the support vectors' order from zero and
//! subtracts `rho`, as `svm_predict_values` does; the kernel values are
//! `k_function`'s (the direct squared distance for the RBF kernel, every
//! feature in index order). A held-out fold of a CV is predicted this way:
//! the support vectors are read once per tile instead of once per row.
//! Tiles are independent jobs on the current rayon pool (the values do not
//! depend on the thread count); precomputed kernels and data too sparse for
//! a dense walk go row by row.

use rayon::prelude::*;

use super::function_model::FunctionModel;
use crate::data::Dataset;
use crate::svm::kernel::lane_tile::{Tile, TILE};
use crate::svm::multiclass::predict_rows::{lane_sums, tile_kernel_values, tiles_pay};

impl FunctionModel {
    /// [`FunctionModel::decision_value`] of every row `rows` of `ds`, to
    /// the bit, on the current rayon pool.
    pub fn decision_values_rows(&self, ds: &Dataset, rows: &[usize]) -> Vec<f64> {
        let d = ds.d().max(self.sv.d());
        if self.kernel.is_precomputed() || !tiles_pay(ds, &self.sv, d) {
            return rows
                .par_iter()
                .map(|&r| self.decision_value(ds.row(r)))
                .collect();
        }
        let nsv = self.sv.n();
        let svs: Vec<f64> = (0..nsv).flat_map(|s| self.sv.row(s).to_dense(d)).collect();
        let per_tile: Vec<Vec<f64>> = rows
            .par_chunks(TILE)
            .map(|chunk| {
                let mut tile = Tile::new(d);
                tile.load(ds, chunk);
                let kv = tile_kernel_values(self.kernel, &tile, &svs);
                let mut acc = [0.0f64; TILE];
                lane_sums(&self.sv_coef, &kv, &mut acc);
                acc[..chunk.len()].iter().map(|a| a - self.rho).collect()
            })
            .collect();
        per_tile.into_iter().flatten().collect()
    }

    /// [`FunctionModel::predict`] of every row `rows` of `ds`.
    pub fn predict_rows(&self, ds: &Dataset, rows: &[usize]) -> Vec<f64> {
        self.decision_values_rows(ds, rows)
            .into_iter()
            .map(|v| self.output(v))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::data::Dataset;
    use crate::svm::formulation::train_one_function;
    use crate::svm::kernel::KernelKind;
    use crate::svm::model::params::{SvmParams, SvmType};

    #[test]
    fn every_row_is_predicted_as_predict_does_to_the_bit() {
        for sparse in [false, true] {
            let rows: Vec<Vec<f64>> = (0..90)
                .map(|i| {
                    (0..5)
                        .map(|j| {
                            let v = ((i * 5 + j) as f64 * 0.61).sin();
                            if sparse && (i + j) % 3 == 0 {
                                0.0
                            } else {
                                v
                            }
                        })
                        .collect()
                })
                .collect();
            let y: Vec<f64> = (0..90).map(|i| (i as f64 * 0.3).cos()).collect();
            let ds = Dataset::from_dense_rows("synthetic-regression", &rows, y);
            for kernel in [
                KernelKind::Rbf { gamma: 0.7 },
                KernelKind::Linear,
                KernelKind::Poly {
                    gamma: 0.5,
                    degree: 2,
                    coef0: 1.0,
                },
            ] {
                for svm_type in [
                    SvmType::EpsilonSvr { p: 0.05 },
                    SvmType::NuSvr { nu: 0.4 },
                    SvmType::OneClass { nu: 0.3 },
                ] {
                    let params = SvmParams {
                        kernel,
                        ..SvmParams::rbf(2.0, 0.7)
                    };
                    let all: Vec<usize> = (0..ds.n()).collect();
                    let model = train_one_function(&ds, &all, &params, svm_type)
                        .expect("a model")
                        .model;
                    let got = model.decision_values_rows(&ds, &all);
                    let labels = model.predict_rows(&ds, &all);
                    for r in 0..ds.n() {
                        let want = model.decision_value(ds.row(r));
                        assert_eq!(got[r].to_bits(), want.to_bits(), "row {r} {kernel:?}");
                        assert_eq!(labels[r], model.predict(ds.row(r)));
                    }
                }
            }
        }
    }
}
