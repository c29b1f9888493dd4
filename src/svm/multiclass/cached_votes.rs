//! Held-out votes of a one-vs-one CV read from the kernel matrix its solves
//! used, with LIBSVM's labels guaranteed.
//!
//! When the shared cache holds every held-out row's column
//! ([`crate::svm::kernel_matrix`]), each held-out row's kernel values with
//! the support vectors are already there, in single precision and the
//! training formula. Each pair's decision value is summed from them with a
//! bound on its distance from LIBSVM's (`svm_predict_values`, the direct
//! distance in double precision: [`cached_error_bound`], the bound the
//! binary CV's held-out sums use); a row whose every pair lies farther from
//! 0 than its bound gets LIBSVM's votes, hence its label. The other rows are
//! predicted with LIBSVM's arithmetic ([`MultiModel::predict_rows`]). So the
//! labels are LIBSVM's either way, and most rows cost a few reads per support
//! vector instead of a kernel evaluation.

use std::sync::Arc;

use rayon::prelude::*;

use super::model::MultiModel;
use crate::svm::cache::SharedKernelCache;
use crate::svm::cached_sums::{cached_error_bound, CachedMagnitudes};
use crate::svm::kernel::{KernelData, KernelKind};
use crate::svm::lane_tile::TILE;
use crate::svm::rounds::unsure_sign;
use crate::svm::simd::by_cpu;

/// The label of every row `rows` (rows of `kd`'s dataset) as
/// [`MultiModel::predict`] gives it, from the columns `shared` holds of
/// every held-out row, and how many rows were recomputed with LIBSVM's
/// arithmetic; `None` where it does not hold them all, the model
/// does not know its support vectors' rows, or the kernel has no bound
/// (polynomial, sigmoid).
pub fn predict_cached(
    model: &MultiModel,
    kd: &KernelData<'_>,
    shared: &SharedKernelCache,
    rows: &[usize],
) -> Option<(Vec<f64>, usize)> {
    if !matches!(kd.kind, KernelKind::Rbf { .. } | KernelKind::Linear)
        || model.sv_rows.len() != model.total_sv()
        || shared.n() != kd.ds.n()
    {
        return None;
    }
    // K(r, sv) = K(sv, r) to the bit: each held-out row's own column holds
    // its values with every support vector (one small column per row
    // instead of a scattered read from every support vector's).
    let cols: Vec<Arc<[f32]>> = rows
        .iter()
        .map(|&r| shared.peek(r))
        .collect::<Option<_>>()?;
    let max_nnz = model
        .sv_rows
        .iter()
        .map(|&r| kd.ds.row(r).stored())
        .max()
        .unwrap_or(0);
    let sure: Vec<Option<f64>> = rows
        .par_chunks(TILE)
        .zip(cols.par_chunks(TILE))
        .flat_map_iter(|(chunk, cols)| tile_votes(model, kd, cols, max_nnz, chunk))
        .collect();
    let unsure: Vec<usize> = rows
        .iter()
        .zip(&sure)
        .filter(|(_, s)| s.is_none())
        .map(|(&r, _)| r)
        .collect();
    let mut exact = model.predict_rows(&kd.ds, &unsure).into_iter();
    let labels = sure
        .into_iter()
        .map(|s| s.unwrap_or_else(|| exact.next().expect("one label per unsure row")))
        .collect();
    Some((labels, unsure.len()))
}

/// The votes of up to [`TILE`] rows (`cols`: their kernel columns), `None`
/// for a row with a pair whose
/// decision value is within its bound of 0.
fn tile_votes(
    model: &MultiModel,
    kd: &KernelData<'_>,
    cols: &[Arc<[f32]>],
    max_nnz: usize,
    chunk: &[usize],
) -> Vec<Option<f64>> {
    let nsv = model.total_sv();
    let m = chunk.len();
    // kv[t * TILE + lane] = K(row lane, sv_t), from the row's column.
    let mut kv = vec![0.0f64; nsv * TILE];
    for (t, &s) in model.sv_rows.iter().enumerate() {
        for (lane, col) in cols.iter().enumerate() {
            kv[t * TILE + lane] = f64::from(col[s]);
        }
    }
    let k = model.nr_class();
    let mut start = vec![0usize; k];
    for i in 1..k {
        start[i] = start[i - 1] + model.nr_sv[i - 1];
    }
    let nb: Vec<f64> = model.sv_rows.iter().map(|&r| kd.norms[r]).collect();
    // RBF values are at most (about) 1: their largest bounds every |K| in
    // the tile (the linear kernel's are summed lane by lane).
    let kmax = matches!(kd.kind, KernelKind::Rbf { .. })
        .then(|| kv.iter().fold(0.0f64, |a, &b| a.max(b.abs())));
    let mut dec = vec![vec![0.0f64; k * (k - 1) / 2]; m];
    let mut sure = vec![true; m];
    let mut p = 0;
    for i in 0..k {
        for j in i + 1..k {
            let mut acc = LaneSums::default();
            let (mut w_abs, mut w_abs_nb) = (0.0, 0.0);
            for (from, count, coef) in [
                (start[i], model.nr_sv[i], &model.sv_coef[j - 1]),
                (start[j], model.nr_sv[j], &model.sv_coef[i]),
            ] {
                let range = from..from + count;
                let kv = &kv[from * TILE..(from + count) * TILE];
                match kmax {
                    Some(_) => lane_dec(&coef[range.clone()], kv, &mut acc.s1),
                    None => lane_sums(&coef[range.clone()], &nb[range.clone()], kv, &mut acc),
                }
                for t in range {
                    w_abs += coef[t].abs();
                    w_abs_nb += coef[t].abs() * nb[t];
                }
            }
            let s = model.nr_sv[i] + model.nr_sv[j];
            let rho = model.rho[p];
            for lane in 0..m {
                let s1 = acc.s1[lane];
                let mags = match kmax {
                    // |w K| <= |w| max K: the same bound, without a sum per lane.
                    Some(kmax) => CachedMagnitudes {
                        mag: w_abs * kmax,
                        mag_nb: w_abs_nb * kmax,
                        w_abs,
                        w_abs_nb,
                    },
                    None => CachedMagnitudes {
                        mag: acc.mag[lane],
                        mag_nb: acc.mag_nb[lane],
                        w_abs,
                        w_abs_nb,
                    },
                };
                let err = cached_error_bound(kd, chunk[lane], max_nnz, s, &mags)
                    + 2.0 * f64::EPSILON * s1.abs();
                // A bound of 0 would claim bit-identity; these sums never do.
                if unsure_sign(s1, err.max(f64::MIN_POSITIVE), rho) {
                    sure[lane] = false;
                }
                dec[lane][p] = s1 - rho;
            }
            p += 1;
        }
    }
    dec.iter()
        .zip(sure)
        .map(|(d, ok)| ok.then(|| model.vote(d)))
        .collect()
}

/// A pair's sums per lane: `sum w K`, `sum |w K|`, `sum |w K| ||b||^2`.
#[derive(Clone, Debug)]
struct LaneSums {
    s1: [f64; TILE],
    mag: [f64; TILE],
    mag_nb: [f64; TILE],
}

impl Default for LaneSums {
    fn default() -> LaneSums {
        LaneSums {
            s1: [0.0; TILE],
            mag: [0.0; TILE],
            mag_nb: [0.0; TILE],
        }
    }
}

/// Add the terms of `coef` (support vectors' norms `nb`, kernel values
/// `kv[t * TILE + lane]`) to `acc`, lane by lane (indexed lanes: the
/// loop the compiler vectorises).
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn lane_sums_body(coef: &[f64], nb: &[f64], kv: &[f64], acc: &mut LaneSums) {
    for ((&w, &b), k) in coef.iter().zip(nb).zip(kv.chunks_exact(TILE)) {
        for l in 0..TILE {
            let wk = w * k[l];
            let a = wk.abs();
            acc.s1[l] += wk;
            acc.mag[l] += a;
            acc.mag_nb[l] += a * b;
        }
    }
}

/// `dec[lane] += coef[t] * kv[t * TILE + lane]`, lane by lane.
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn lane_dec_body(coef: &[f64], kv: &[f64], dec: &mut [f64; TILE]) {
    for (&w, k) in coef.iter().zip(kv.chunks_exact(TILE)) {
        for l in 0..TILE {
            dec[l] += w * k[l];
        }
    }
}

by_cpu!(lane_dec, lane_dec_body, (coef: &[f64], kv: &[f64], dec: &mut [f64; TILE]));

by_cpu!(lane_sums, lane_sums_body, (coef: &[f64], nb: &[f64], kv: &[f64], acc: &mut LaneSums));

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Dataset;
    use crate::svm::kernel_matrix::fill_all;
    use crate::svm::multiclass::train::train_ovo;
    use crate::svm::SvmParams;

    #[test]
    fn cached_votes_are_libsvms_labels() {
        let rows: Vec<Vec<f64>> = (0..90)
            .map(|i| {
                (0..5)
                    .map(|j| ((i * 5 + j) as f64 * 0.37).sin() + (i % 3) as f64 * 0.3)
                    .collect()
            })
            .collect();
        let y = (0..90).map(|i| [4.0, -2.0, 7.0][i % 3]).collect();
        let ds = Dataset::from_dense_rows("synthetic-3-class", &rows, y);
        for kernel in [KernelKind::Rbf { gamma: 2.0 }, KernelKind::Linear] {
            let kd = KernelData::new(&ds, kernel);
            let params = SvmParams {
                kernel,
                ..SvmParams::rbf(10.0, 2.0)
            }
            .check()
            .expect("valid parameters");
            let train: Vec<usize> = (0..60).collect();
            let model = train_ovo(&kd, &train, &params, &[], None, None)
                .expect("a model")
                .model;
            let test: Vec<usize> = (60..90).collect();
            let sh = SharedKernelCache::new(ds.n(), 10.0);
            assert!(
                predict_cached(&model, &kd, &sh, &test).is_none(),
                "nothing cached"
            );
            fill_all(&kd, &sh);
            let (got, recomputed) =
                predict_cached(&model, &kd, &sh, &test).expect("every column held");
            assert!(recomputed < test.len() / 2, "{recomputed} rows recomputed");
            let want: Vec<f64> = test.iter().map(|&r| model.predict(ds.row(r))).collect();
            assert_eq!(got, want, "{kernel:?}");
        }
    }

    #[test]
    fn polynomial_kernels_have_no_bound() {
        let ds = Dataset::from_dense_rows(
            "synthetic-tiny",
            &[vec![0.0], vec![1.0], vec![2.0]],
            vec![1.0, 2.0, 3.0],
        );
        let kernel = KernelKind::Poly {
            gamma: 1.0,
            degree: 2,
            coef0: 0.0,
        };
        let kd = KernelData::new(&ds, kernel);
        let params = SvmParams {
            kernel,
            ..SvmParams::rbf(1.0, 1.0)
        }
        .check()
        .expect("valid parameters");
        let model = train_ovo(&kd, &[0, 1, 2], &params, &[], None, None)
            .expect("a model")
            .model;
        let sh = SharedKernelCache::new(3, 1.0);
        fill_all(&kd, &sh);
        assert!(predict_cached(&model, &kd, &sh, &[0, 1, 2]).is_none());
    }
}
