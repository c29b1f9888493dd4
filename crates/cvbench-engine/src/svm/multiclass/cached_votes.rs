//! Held-out votes of a one-vs-one CV read from the kernel matrix its solves
//! used, with LIBSVM's labels guaranteed.
//!
//! When the shared cache holds every held-out row's column
//! ([`crate::svm::kernel::matrix`]), each held-out row's kernel values with
//! the support vectors are already there, in single precision and the
//! training formula. Each pair's decision value is summed from them with a
//! bound on its distance from LIBSVM's (`svm_predict_values`, the direct
//! distance in double precision: [`cached_error_bound`], the bound the
//! binary CV's held-out sums use); a row whose every pair lies farther from
//! 0 than its bound gets LIBSVM's votes, hence its label. The other rows are
//! predicted with LIBSVM's arithmetic ([`MultiModel::predict_rows`]). So the
//! labels are LIBSVM's either way, and most rows cost a few reads per support
//! vector instead of a kernel evaluation.

use rayon::prelude::*;

use super::model::MultiModel;
use crate::svm::cache::column::Column;
use crate::svm::cache::SharedKernelCache;
use crate::svm::cv::rounds::unsure_sign;
use crate::svm::kernel::cached_sums::{cached_error_bound, CachedMagnitudes};
use crate::svm::kernel::lane_tile::{Tile, TILE};
use crate::svm::kernel::{KernelData, KernelKind};
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
    let plan = VotePlan::new(model, kd);
    let sv_cols: Option<Vec<&[f32]>> = model
        .sv_rows
        .iter()
        .map(|&s| shared.held_column(s))
        .collect();
    let runs = consecutive_runs(rows);
    let sure: Vec<Option<f64>> = match sv_cols {
        // The whole matrix is held and the rows come in runs of consecutive
        // rows (a fold's rows in the CV's class order): each support
        // vector's column holds a tile's values side by side.
        Some(sv_cols) if runs.len() * MIN_RUN <= rows.len() => runs
            .par_iter()
            .flat_map_iter(|run| run.chunks(TILE))
            .flat_map_iter(|chunk| {
                let (r0, m) = (chunk[0], chunk.len());
                let mut kv = vec![0.0f32; sv_cols.len() * TILE];
                for (to, col) in kv.chunks_exact_mut(TILE).zip(&sv_cols) {
                    // (A whole tile is a copy of known length, inlined.)
                    match <&[f32; TILE]>::try_from(col.get(r0..r0 + TILE).unwrap_or(&[])) {
                        Ok(from) if m == TILE => to.copy_from_slice(from),
                        _ => to[..m].copy_from_slice(&col[r0..r0 + m]),
                    }
                }
                plan.tile_votes(kd, kv, chunk)
            })
            .collect(),
        // K(r, sv) = K(sv, r) to the bit: each held-out row's own column
        // holds its values with every support vector.
        _ => {
            let peeked: Vec<Column>;
            let cols: Vec<&[f32]> = match rows.iter().map(|&r| shared.held_column(r)).collect() {
                Some(cols) => cols,
                None => {
                    peeked = rows
                        .iter()
                        .map(|&r| shared.peek(r))
                        .collect::<Option<_>>()?;
                    peeked.iter().map(|c| &c[..]).collect()
                }
            };
            rows.par_chunks(TILE)
                .zip(cols.par_chunks(TILE))
                .flat_map_iter(|(chunk, cols)| {
                    let mut kv = vec![0.0f32; model.total_sv() * TILE];
                    for (lane, col) in cols.iter().enumerate() {
                        for (t, &s) in model.sv_rows.iter().enumerate() {
                            kv[t * TILE + lane] = col[s];
                        }
                    }
                    plan.tile_votes(kd, kv, chunk)
                })
                .collect()
        }
    };
    Some(with_exact(model, kd, rows, sure))
}

/// [`predict_cached`] where no cache holds the held-out rows' columns (the
/// one-vs-one CV in pair blocks, issue 58): each tile's kernel values with
/// the support vectors computed in the training formula
/// (the lane tiles' dot products over the stored features, then the
/// distance and `exp` in single precision, as a shared cache's column holds
/// them), the votes of the rows
/// whose every pair lies beyond its bound from them, LIBSVM's arithmetic for
/// the others; so the labels are LIBSVM's, and most rows cost a dot product
/// per support vector instead of the direct distance in double precision.
/// `None` where [`predict_cached`] would be (another kernel, support vectors'
/// rows unknown).
pub fn predict_computed(
    model: &MultiModel,
    kd: &KernelData<'_>,
    rows: &[usize],
) -> Option<(Vec<f64>, usize)> {
    if !matches!(kd.kind, KernelKind::Rbf { .. } | KernelKind::Linear)
        || model.sv_rows.len() != model.total_sv()
    {
        return None;
    }
    let plan = VotePlan::new(model, kd);
    let svs = &model.sv_rows;
    let gamma = match kd.kind {
        KernelKind::Rbf { gamma } => Some(gamma),
        _ => None,
    };
    let sure: Vec<Option<f64>> = rows
        .par_chunks(TILE)
        .flat_map_iter(|chunk| {
            let m = chunk.len();
            let mut tile = Tile::new(kd.d());
            tile.load(&kd.ds, chunk);
            let mut dots = vec![0.0f64; svs.len() * TILE];
            tile.dots(&kd.ds, svs, &mut dots);
            let mut kv = vec![0.0f32; svs.len() * TILE];
            match gamma {
                Some(g) => {
                    for (t, &s) in svs.iter().enumerate() {
                        let nb = kd.norms[s];
                        for (d, &r) in dots[t * TILE..t * TILE + m].iter_mut().zip(chunk) {
                            *d = kd.norms[r] + nb - 2.0 * *d;
                        }
                    }
                    kd.exp_f32(g, &dots, &mut kv);
                }
                None => {
                    for (v, &d) in kv.iter_mut().zip(&dots) {
                        *v = kd.kind.of_dot(d) as f32;
                    }
                }
            }
            // Zero past the chunk, as `tile_votes` reads them.
            for t in 0..svs.len() {
                kv[t * TILE + m..(t + 1) * TILE].fill(0.0);
            }
            plan.tile_votes(kd, kv, chunk)
        })
        .collect();
    Some(with_exact(model, kd, rows, sure))
}

/// Every row's label: its sure vote, else LIBSVM's arithmetic
/// ([`MultiModel::predict_rows`] of the unsure rows at once); and how many
/// rows that recomputed.
fn with_exact(
    model: &MultiModel,
    kd: &KernelData<'_>,
    rows: &[usize],
    sure: Vec<Option<f64>>,
) -> (Vec<f64>, usize) {
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
    (labels, unsure.len())
}

/// What every tile's votes need of the model, computed once.
struct VotePlan<'m> {
    model: &'m MultiModel,
    /// The first support vector of each class.
    start: Vec<usize>,
    /// Each support vector's squared norm.
    nb: Vec<f64>,
    /// Per pair: `sum |w|` and `sum |w| ||b||^2` over its support vectors.
    w_abs: Vec<(f64, f64)>,
    /// The most non-zeros of a support vector.
    max_nnz: usize,
}

impl<'m> VotePlan<'m> {
    fn new(model: &'m MultiModel, kd: &KernelData<'_>) -> VotePlan<'m> {
        let k = model.nr_class();
        let mut start = vec![0usize; k];
        for i in 1..k {
            start[i] = start[i - 1] + model.nr_sv[i - 1];
        }
        let nb: Vec<f64> = model.sv_rows.iter().map(|&r| kd.norms[r]).collect();
        let mut w_abs = Vec::with_capacity(k * k.saturating_sub(1) / 2);
        for i in 0..k {
            for j in i + 1..k {
                let (mut wa, mut wnb) = (0.0, 0.0);
                for (from, count, coef) in [
                    (start[i], model.nr_sv[i], &model.sv_coef[j - 1]),
                    (start[j], model.nr_sv[j], &model.sv_coef[i]),
                ] {
                    for t in from..from + count {
                        wa += coef[t].abs();
                        wnb += coef[t].abs() * nb[t];
                    }
                }
                w_abs.push((wa, wnb));
            }
        }
        let max_nnz = model
            .sv_rows
            .iter()
            .map(|&r| kd.ds.row(r).stored())
            .max()
            .unwrap_or(0);
        VotePlan {
            model,
            start,
            nb,
            w_abs,
            max_nnz,
        }
    }

    /// The votes of up to [`TILE`] rows `chunk` (`kv[t * TILE + lane]`:
    /// `K(chunk[lane], sv_t)`, zero past the chunk), `None` for a row with
    /// a pair whose decision value is within its bound of 0.
    fn tile_votes(&self, kd: &KernelData<'_>, kv: Vec<f32>, chunk: &[usize]) -> Vec<Option<f64>> {
        let model = self.model;
        let m = chunk.len();
        let k = model.nr_class();
        let pairs = k * (k - 1) / 2;
        // RBF values are at most (about) 1: their largest bounds every |K|
        // in the tile (the linear kernel's are summed lane by lane).
        let kmax = matches!(kd.kind, KernelKind::Rbf { .. })
            .then(|| kv.iter().fold(0.0f64, |a, &b| a.max(f64::from(b).abs())));
        let mut acc = vec![LaneSums::default(); pairs];
        match kmax {
            Some(_) => self.class_blocks(&kv, &mut acc),
            None => self.pair_sums(&kv, &mut acc),
        }
        let mut dec = vec![vec![0.0f64; pairs]; m];
        let mut sure = vec![true; m];
        let mut p = 0;
        for i in 0..k {
            for j in i + 1..k {
                let s = model.nr_sv[i] + model.nr_sv[j];
                let rho = model.rho[p];
                let (w_abs, w_abs_nb) = self.w_abs[p];
                for lane in 0..m {
                    let s1 = acc[p].s1[lane];
                    let mags = match kmax {
                        // |w K| <= |w| max K: the same bound, without a sum per lane.
                        Some(kmax) => CachedMagnitudes {
                            mag: w_abs * kmax,
                            mag_nb: w_abs_nb * kmax,
                            w_abs,
                            w_abs_nb,
                        },
                        None => CachedMagnitudes {
                            mag: acc[p].mag[lane],
                            mag_nb: acc[p].mag_nb[lane],
                            w_abs,
                            w_abs_nb,
                        },
                    };
                    let err = cached_error_bound(kd, chunk[lane], self.max_nnz, s, &mags)
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

    /// Every pair's `sum w K` per lane, class block by class block: class
    /// `c`'s support vectors serve the `k - 1` pairs that hold `c` (column
    /// `r` of `sv_coef`: pair `(r, c)` for `r < c`, else `(c, r + 1)`), so
    /// each block of kernel values is read once for up to four pairs at a
    /// time. Classes in increasing order: each pair `(i, j)` adds class
    /// `i`'s terms, then class `j`'s, each in support-vector order — the
    /// order of a pair-by-pair sum, to the bit.
    fn class_blocks(&self, kv: &[f32], acc: &mut [LaneSums]) {
        let model = self.model;
        let k = model.nr_class();
        let pair_of = |i: usize, j: usize| i * (2 * k - i - 1) / 2 + (j - i - 1);
        let cols: Vec<usize> = (0..k - 1).collect();
        for c in 0..k {
            let range = self.start[c]..self.start[c] + model.nr_sv[c];
            let kv = &kv[range.start * TILE..range.end * TILE];
            for group in cols.chunks(GROUP) {
                let coefs: Vec<&[f64]> = group
                    .iter()
                    .map(|&r| &model.sv_coef[r][range.clone()])
                    .collect();
                let ps: Vec<usize> = group
                    .iter()
                    .map(|&r| {
                        if r < c {
                            pair_of(r, c)
                        } else {
                            pair_of(c, r + 1)
                        }
                    })
                    .collect();
                let mut block = [[0.0f64; TILE]; GROUP];
                for (b, &p) in block.iter_mut().zip(&ps) {
                    *b = acc[p].s1;
                }
                class_block(&coefs, kv, &mut block);
                for (b, &p) in block.iter().zip(&ps) {
                    acc[p].s1 = *b;
                }
            }
        }
    }

    /// Every pair's sums per lane with their magnitudes (the linear
    /// kernel's bound needs them lane by lane), pair by pair.
    fn pair_sums(&self, kv: &[f32], acc: &mut [LaneSums]) {
        let model = self.model;
        let k = model.nr_class();
        let mut p = 0;
        for i in 0..k {
            for j in i + 1..k {
                for (from, count, coef) in [
                    (self.start[i], model.nr_sv[i], &model.sv_coef[j - 1]),
                    (self.start[j], model.nr_sv[j], &model.sv_coef[i]),
                ] {
                    let range = from..from + count;
                    lane_sums(
                        &coef[range.clone()],
                        &self.nb[range.clone()],
                        &kv[from * TILE..(from + count) * TILE],
                        &mut acc[p],
                    );
                }
                p += 1;
            }
        }
    }
}

/// The shortest average run of consecutive rows read from the support
/// vectors' columns.
const MIN_RUN: usize = 8;

/// `rows` cut into runs of consecutive row numbers.
fn consecutive_runs(rows: &[usize]) -> Vec<&[usize]> {
    rows.chunk_by(|&a, &b| b == a + 1).collect()
}

/// Pairs summed together over one class's block of kernel values.
const GROUP: usize = 4;

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
fn lane_sums_body(coef: &[f64], nb: &[f64], kv: &[f32], acc: &mut LaneSums) {
    for ((&w, &b), k) in coef.iter().zip(nb).zip(kv.chunks_exact(TILE)) {
        for l in 0..TILE {
            let wk = w * f64::from(k[l]);
            let a = wk.abs();
            acc.s1[l] += wk;
            acc.mag[l] += a;
            acc.mag_nb[l] += a * b;
        }
    }
}

/// `acc[g][lane] += coefs[g][t] * kv[t * TILE + lane]` for the `G` pairs
/// of `coefs`, the block's values read once per support vector.
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn block_of<const G: usize>(coefs: &[&[f64]], kv: &[f32], acc: &mut [[f64; TILE]; GROUP]) {
    let n = kv.len() / TILE;
    let w: [&[f64]; G] = std::array::from_fn(|g| &coefs[g][..n]);
    let mut a: [[f64; TILE]; G] = std::array::from_fn(|g| acc[g]);
    for (t, k) in kv.chunks_exact(TILE).enumerate() {
        let k: [f64; TILE] = std::array::from_fn(|l| f64::from(k[l]));
        for g in 0..G {
            let wg = w[g][t];
            for l in 0..TILE {
                a[g][l] += wg * k[l];
            }
        }
    }
    acc[..G].copy_from_slice(&a);
}

/// [`block_of`] for 1 to [`GROUP`] pairs.
#[inline(always)]
fn class_block_body(coefs: &[&[f64]], kv: &[f32], acc: &mut [[f64; TILE]; GROUP]) {
    match coefs.len() {
        0 => {}
        1 => block_of::<1>(coefs, kv, acc),
        2 => block_of::<2>(coefs, kv, acc),
        3 => block_of::<3>(coefs, kv, acc),
        _ => block_of::<GROUP>(coefs, kv, acc),
    }
}

by_cpu!(class_block, class_block_body, (coefs: &[&[f64]], kv: &[f32], acc: &mut [[f64; TILE]; GROUP]));

by_cpu!(lane_sums, lane_sums_body, (coef: &[f64], nb: &[f64], kv: &[f32], acc: &mut LaneSums));

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Dataset;
    use crate::svm::kernel::matrix::fill_all;
    use crate::svm::model::params::SvmParams;
    use crate::svm::multiclass::train::train_ovo;

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
            // Without a cache: the values computed tile by tile, the same
            // labels, most rows decided without LIBSVM's arithmetic.
            let (computed, recomputed) =
                predict_computed(&model, &kd, &test).expect("RBF and linear have a bound");
            assert!(recomputed < test.len() / 2, "{recomputed} rows recomputed");
            assert_eq!(computed, want, "{kernel:?}, computed");
        }
    }

    /// Each pair's sums over class blocks, four pairs at a time and in every
    /// compiled variant, equal the one-pair-at-a-time sum to the bit.
    #[test]
    fn class_blocks_sum_as_one_pair_at_a_time() {
        let n = 37;
        let kv: Vec<f32> = (0..n * TILE)
            .map(|i| ((i as f64 * 0.713).sin() * 0.9) as f32)
            .collect();
        let coefs: Vec<Vec<f64>> = (0..GROUP)
            .map(|g| {
                (0..n)
                    .map(|t| ((t * 7 + g) as f64 * 1.37).cos() * 3.0)
                    .collect()
            })
            .collect();
        for used in 1..=GROUP {
            let refs: Vec<&[f64]> = coefs[..used].iter().map(|c| c.as_slice()).collect();
            let start: [[f64; TILE]; GROUP] =
                std::array::from_fn(|g| std::array::from_fn(|l| (g * TILE + l) as f64 * 0.01));
            let mut want = start;
            for g in 0..used {
                for t in 0..n {
                    for l in 0..TILE {
                        want[g][l] += coefs[g][t] * f64::from(kv[t * TILE + l]);
                    }
                }
            }
            let mut got = start;
            class_block(&refs, &kv, &mut got);
            let mut outs = vec![got];
            let mut portable = start;
            class_block_body(&refs, &kv, &mut portable);
            outs.push(portable);
            for out in outs {
                for g in 0..used {
                    let bits: Vec<u64> = out[g].iter().map(|v| v.to_bits()).collect();
                    let wbits: Vec<u64> = want[g].iter().map(|v| v.to_bits()).collect();
                    assert_eq!(bits, wbits, "{used} pairs, pair {g}");
                }
            }
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
