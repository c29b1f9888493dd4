//! A one-vs-one model's decision values and votes for many rows at once,
//! [`TILE`] rows per pass, each value [`MultiModel::decision_values`]'s to
//! the bit.
//!
//! `svm_predict_values` computes, for one row, its kernel value with every
//! support vector (the direct squared distance for the RBF kernel), then
//! each pair's sum over its two classes' support vectors. Here [`TILE`]
//! rows go through both steps side by side, one SIMD lane per row
//! ([`crate::svm::kernel::lane_tile`]): the support vectors are read once per tile
//! instead of once per row, and every lane's sums keep LIBSVM's terms and
//! order. Tiles are independent jobs on the current rayon pool, so the
//! values do not depend on the thread count. Data so sparse that a dense walk
//! over every feature would cost more than LIBSVM's merge of the stored
//! ones is predicted row by row.

use rayon::prelude::*;

use super::model::MultiModel;
use crate::data::Dataset;
use crate::svm::kernel::lane_tile::{Tile, TILE};
use crate::svm::kernel::KernelKind;
use crate::svm::simd::by_cpu;

/// Dense support vectors beyond this many bytes are not built (row by row
/// instead).
const MAX_DENSE_SV_BYTES: usize = 1 << 30;

impl MultiModel {
    /// Each pair's decision value for every row `rows` of `ds`
    /// ([`MultiModel::decision_values`] of each row, to the bit), on the
    /// current rayon pool.
    pub fn decision_values_rows(&self, ds: &Dataset, rows: &[usize]) -> Vec<Vec<f64>> {
        let d = ds.d().max(self.sv.d());
        if self.kernel.is_precomputed() || !self.tiles_pay(ds, d) {
            return rows
                .par_iter()
                .map(|&r| self.decision_values(ds.row(r)))
                .collect();
        }
        let nsv = self.total_sv();
        let svs: Vec<f64> = (0..nsv).flat_map(|s| self.sv.row(s).to_dense(d)).collect();
        let per_tile: Vec<Vec<Vec<f64>>> = rows
            .par_chunks(TILE)
            .map(|chunk| {
                let mut tile = Tile::new(d);
                tile.load(ds, chunk);
                let kv = tile_kernel_values(self.kernel, &tile, &svs);
                let dec = self.pair_sums(&kv);
                (0..chunk.len())
                    .map(|lane| dec.chunks_exact(TILE).map(|p| p[lane]).collect())
                    .collect()
            })
            .collect();
        per_tile.into_iter().flatten().collect()
    }

    /// The label [`MultiModel::predict`] gives each row `rows` of `ds`.
    pub fn predict_rows(&self, ds: &Dataset, rows: &[usize]) -> Vec<f64> {
        self.decision_values_rows(ds, rows)
            .iter()
            .map(|dec| self.vote(dec))
            .collect()
    }

    /// Whether tiles pay for these support vectors ([`tiles_pay`]).
    fn tiles_pay(&self, ds: &Dataset, d: usize) -> bool {
        tiles_pay(ds, &self.sv, d)
    }

    /// Every pair's `sum_t coef_t K_t - rho` over its two classes' support
    /// vectors, lane by lane (`kv[t * TILE + lane]`), in
    /// [`MultiModel::decision_values_of`]'s order: `out[p * TILE + lane]`.
    fn pair_sums(&self, kv: &[f64]) -> Vec<f64> {
        let k = self.nr_class();
        let mut start = vec![0usize; k];
        for i in 1..k {
            start[i] = start[i - 1] + self.nr_sv[i - 1];
        }
        let mut out = Vec::with_capacity(k * k.saturating_sub(1) / 2 * TILE);
        let mut p = 0;
        for i in 0..k {
            for j in i + 1..k {
                let (si, sj) = (start[i], start[j]);
                let (ci, cj) = (self.nr_sv[i], self.nr_sv[j]);
                let mut acc = [0.0f64; TILE];
                lane_sums(
                    &self.sv_coef[j - 1][si..si + ci],
                    &kv[si * TILE..(si + ci) * TILE],
                    &mut acc,
                );
                lane_sums(
                    &self.sv_coef[i][sj..sj + cj],
                    &kv[sj * TILE..(sj + cj) * TILE],
                    &mut acc,
                );
                for a in acc.iter_mut() {
                    *a -= self.rho[p];
                }
                out.extend_from_slice(&acc);
                p += 1;
            }
        }
        out
    }
}

/// `K(x_lane, sv_t)` at `out[t * TILE + lane]` for every support vector `t`
/// of `svs` (dense, `tile.d()` values each) and lane of `tile`, as
/// `k_function` computes it (the direct squared distance for the RBF
/// kernel), each lane's value to the bit.
pub(crate) fn tile_kernel_values(kernel: KernelKind, tile: &Tile, svs: &[f64]) -> Vec<f64> {
    let mut kv = vec![0.0; svs.len() / tile.d().max(1) * TILE];
    match kernel {
        KernelKind::Rbf { gamma } => {
            tile.sq_dists(svs, &mut kv);
            kv.iter_mut().for_each(|v| *v = (-gamma * *v).exp());
        }
        kind => {
            tile.dense_dots(svs, &mut kv);
            kv.iter_mut().for_each(|v| *v = kind.of_dot(*v));
        }
    }
    kv
}

/// Whether a dense walk over `d` features per (row of `ds`, support vector
/// of `sv`) costs less than LIBSVM's merge of their stored features,
/// counted as [`TILE`] lanes per step against one, within the memory cap.
pub(crate) fn tiles_pay(ds: &Dataset, sv: &Dataset, d: usize) -> bool {
    let nnz = |x: &Dataset| {
        let n = x.n().max(1);
        (0..x.n()).map(|r| x.row(r).stored()).sum::<usize>() as f64 / n as f64
    };
    let merge = nnz(ds) + nnz(sv);
    let bytes = d.saturating_mul(sv.n()).saturating_mul(8);
    // No feature at all (rows of labels alone): row by row, as LIBSVM.
    sv.n() > 0 && d > 0 && (d as f64) <= (TILE / 4) as f64 * merge && bytes <= MAX_DENSE_SV_BYTES
}

/// `acc[lane] += coef[t] * kv[t * TILE + lane]`, `t` in order.
#[inline(always)]
fn lane_sums_body(coef: &[f64], kv: &[f64], acc: &mut [f64; TILE]) {
    for (&c, k) in coef.iter().zip(kv.chunks_exact(TILE)) {
        for l in 0..TILE {
            acc[l] += c * k[l];
        }
    }
}

by_cpu!(
    /// [`lane_sums_body`] on the widest vector unit.
    pub(crate) fn lane_sums(coef: &[f64], kv: &[f64], acc: &mut [f64; TILE]) = lane_sums_body
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svm::kernel::KernelData;
    use crate::svm::model::params::SvmParams;
    use crate::svm::multiclass::train::train_ovo;

    #[test]
    fn every_row_votes_as_predict_does_to_the_bit() {
        // Three classes, dense and sparse, every kernel: rows tiled together
        // give each row's own decision values.
        for sparse in [false, true] {
            let rows: Vec<Vec<f64>> = (0..75)
                .map(|i| {
                    (0..6)
                        .map(|j| {
                            let v = ((i * 6 + j) as f64 * 0.57).sin();
                            if sparse && (i + 2 * j) % 3 != 0 {
                                0.0
                            } else {
                                v + (i % 3) as f64 * 0.4
                            }
                        })
                        .collect()
                })
                .collect();
            let y = (0..75).map(|i| (i % 3) as f64 * 2.0 - 1.0).collect();
            let ds = Dataset::from_dense_rows("synthetic-3-class", &rows, y);
            for kernel in [
                KernelKind::Rbf { gamma: 0.5 },
                KernelKind::Linear,
                KernelKind::Poly {
                    gamma: 0.5,
                    degree: 2,
                    coef0: 1.0,
                },
            ] {
                let kd = KernelData::new(&ds, kernel);
                let params = SvmParams {
                    kernel,
                    ..SvmParams::rbf(1.0, 0.5)
                }
                .check()
                .expect("valid parameters");
                let all: Vec<usize> = (0..ds.n()).collect();
                let model = train_ovo(&kd, &all, &params, &[], None, None)
                    .expect("a model")
                    .model;
                let tiled = model.decision_values_rows(&ds, &all);
                assert!(model.tiles_pay(&ds, ds.d()) || sparse);
                for (&r, dec) in all.iter().zip(&tiled) {
                    let want = model.decision_values(ds.row(r));
                    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                    assert_eq!(bits(dec), bits(&want), "row {r} {kernel:?}");
                }
                let votes = model.predict_rows(&ds, &all);
                for (&r, v) in all.iter().zip(votes) {
                    assert_eq!(v, model.predict(ds.row(r)));
                }
            }
        }
    }
}
