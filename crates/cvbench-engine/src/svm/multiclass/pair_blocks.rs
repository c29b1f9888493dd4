//! The one-vs-one CV in bounded memory (issue 58): where the whole `n x n`
//! kernel matrix does not fit the shared cache's budget, the class pairs
//! run one after another, and each pair's **kernel block** (the rows of its
//! two classes, every fold's) is made once into a cache that serves the
//! pair's k fold solves (run in parallel), then dropped. Where the budget
//! holds its two classes' own blocks beside it, the block is assembled from
//! them and the pair's cross values ([`super::pair_matrix`], the class
//! blocks kept by [`super::class_blocks`]); else it is computed whole.
//!
//! A shared cache of whole columns that cannot hold them all is the worst
//! case of a least-recently-used cache: the (fold, pair) solves cycle
//! through every row's column, so almost every request misses (MNIST-20k
//! under a 1,500 MB share: 48 s, against 6 s with the whole matrix). A
//! pair's block is `(n_a + n_b)^2` values (for ten even classes about
//! `n^2 / 25`: MNIST-60k's pairs take about 580 MB each, where the whole
//! matrix takes 13.7 GB); computed whole, the pairs' triangles cost about
//! `0.9 n^2` kernel values, assembled `0.5 n^2`.
//!
//! Exact: a pair's solve sees the same kernel values (every one
//! `fill_column`'s), read through the map from dataset rows to the block's
//! positions, so every iteration and coefficient is the whole-matrix
//! path's and LIBSVM's (the tests compare them).

use rayon::prelude::*;

use super::class_blocks::ClassBlocks;
use super::groups::Groups;
use super::pair_matrix::pair_matrix;
use super::train::{solve_pair_at, PairFit};
use crate::svm::cache::SharedKernelCache;
use crate::svm::kernel::matrix::MatrixValues;
use crate::svm::kernel::{matrix, KernelData};
use crate::svm::model::params::CheckedParams;
use crate::svm::SvmError;

/// A row that is not in the pair's block.
const OUT: u32 = u32::MAX;

/// The (fold, pair) jobs `jobs` (`(h, p, (i, j))`: fold `h`'s pair `p` of
/// classes `i, j` of `groups[h]`) solved pair block by pair block within
/// `budget_mb` (see the module doc), each job's [`PairFit`] at its place in
/// `jobs`; `None` where some pair's block does not fit the budget (the
/// caller then runs its own path). `wcs[h].0`: fold `h`'s classes' C;
/// `perms[h][p]`: the probability fit's shuffle of fold `h`'s pair `p`.
#[allow(clippy::too_many_arguments)]
pub(super) fn solve_by_pair_blocks(
    kd: &KernelData<'_>,
    groups: &[Groups],
    wcs: &[(Vec<f64>, Vec<String>)],
    jobs: &[(usize, usize, (usize, usize))],
    params: &CheckedParams,
    budget_mb: f64,
    perms: Option<&[Vec<Vec<usize>>]>,
) -> Option<Result<(Vec<PairFit>, u64), SvmError>> {
    let ds = &kd.ds;
    // The pairs by their labels, in the order of first appearance, each
    // with its jobs.
    let mut pairs: Vec<((u64, u64), Vec<usize>)> = Vec::new();
    for (x, &(h, _, (i, j))) in jobs.iter().enumerate() {
        let key = (groups[h].labels[i].to_bits(), groups[h].labels[j].to_bits());
        match pairs.iter_mut().find(|(k, _)| *k == key) {
            Some((_, xs)) => xs.push(x),
            None => pairs.push((key, vec![x])),
        }
    }
    // Every pair's rows by class (its classes' rows of every fold), each
    // in the dataset's order, and the union in that order; all must fit the
    // budget before any work.
    let sides: Vec<[Vec<usize>; 2]> = pairs
        .iter()
        .map(|(_, xs)| {
            [0, 1].map(|side| {
                let mut rows: Vec<usize> = xs
                    .iter()
                    .flat_map(|&x| {
                        let (h, _, (i, j)) = jobs[x];
                        groups[h]
                            .class_rows(if side == 0 { i } else { j })
                            .iter()
                            .copied()
                    })
                    .collect();
                rows.sort_unstable();
                rows.dedup();
                rows
            })
        })
        .collect();
    let blocks: Vec<Vec<usize>> = sides
        .iter()
        .map(|[a, b]| {
            let mut rows: Vec<usize> = a.iter().chain(b).copied().collect();
            rows.sort_unstable();
            rows
        })
        .collect();
    if blocks
        .iter()
        .any(|rows| matrix::whole_matrix_mb(rows.len(), budget_mb).is_none())
    {
        return None;
    }
    let values = params.solver.matrix_values();
    let mut classes = ClassBlocks::new(
        &pairs.iter().map(|(k, _)| *k).collect::<Vec<_>>(),
        &sides,
        matrix::WHOLE_SHARE * budget_mb * (1u64 << 20) as f64,
        values == MatrixValues::Libsvm && !kd.kind.is_precomputed(),
    );
    let mut out: Vec<Option<PairFit>> = vec![None; jobs.len()];
    let mut block_evals = 0u64;
    let mut at = vec![OUT; ds.n()];
    let mut spare: Option<Vec<f32>> = None;
    for (x_pair, (((_, xs), rows), [a, b])) in pairs.iter().zip(&blocks).zip(&sides).enumerate() {
        // Shared: the rows a's then b's, the block assembled from the
        // class blocks; else the rows in the dataset's order, the block
        // computed whole (into the previous pair's buffer where it is
        // large enough). Either is the same values.
        let shared = classes.hold(kd, x_pair, &mut spare, &mut block_evals);
        let order: Vec<usize> = match shared {
            true => a.iter().chain(b).copied().collect(),
            false => rows.clone(),
        };
        for (p, &r) in order.iter().enumerate() {
            at[r] = p as u32;
        }
        let sub = ds.subset(&order, format!("{}-pair", ds.name));
        let kd_sub = KernelData::new(&sub, kd.kind);
        let mb = matrix::whole_matrix_mb(order.len(), budget_mb).unwrap_or(budget_mb);
        let sh = match classes.pair(x_pair) {
            Some((ca, cb)) if shared => {
                let (m, evals) = pair_matrix(kd, ca, cb, spare.take());
                let sh = SharedKernelCache::new(order.len(), mb).whole_columns(true);
                sh.set_all(m);
                block_evals += evals;
                sh
            }
            _ => matrix::shared_cache_into(&kd_sub, mb, spare.take(), values),
        };
        let solved = xs
            .par_iter()
            .map(|&x| {
                let (h, p, ij) = jobs[x];
                let perm = perms.map(|v| v[h][p].as_slice());
                solve_pair_at(
                    &kd_sub,
                    &groups[h],
                    &wcs[h].0,
                    ij,
                    params,
                    Some(&sh),
                    perm,
                    None,
                    Some(&at),
                )
                .map(|(fit, _)| fit)
            })
            .collect::<Result<Vec<_>, _>>();
        let solved = match solved {
            Ok(s) => s,
            Err(e) => return Some(Err(e)),
        };
        for (&x, fit) in xs.iter().zip(solved) {
            out[x] = Some(fit);
        }
        block_evals += sh.kernel_evals();
        for &r in rows {
            at[r] = OUT;
        }
        spare = sh.into_matrix();
    }
    Some(Ok((out.into_iter().flatten().collect(), block_evals)))
}

#[cfg(test)]
mod tests {
    use crate::data::Dataset;
    use crate::svm::cv::folds::Folds;
    use crate::svm::cv::strategy::{CacheMode, SolverKind};
    use crate::svm::kernel::matrix::matrix_evals;
    use crate::svm::model::params::SvmParams;
    use crate::svm::multiclass::{cross_validate_ovo, OvoCvOptions};

    /// Five interleaved classes of uneven sizes (300 rows).
    fn five() -> Dataset {
        let rows: Vec<Vec<f64>> = (0..300)
            .map(|i| {
                let t = i as f64;
                vec![
                    (t * 0.37).sin() + (i % 5) as f64 * 0.6,
                    (t * 0.11).cos(),
                    ((i * 7) % 13) as f64 / 13.0,
                ]
            })
            .collect();
        let y = (0..300)
            .map(|i| [3.0, -1.0, 7.0, 0.0, 2.0][(i * i + i / 7) % 5])
            .collect();
        Dataset::from_dense_rows("synthetic-five", &rows, y)
    }

    /// Under a budget too small for the whole matrix but large enough for
    /// every pair's block, the CV runs pair by pair and gives the whole
    /// matrix's numbers: every held-out prediction, every pair's iterations,
    /// objective and rho, on 1 and 2 threads; each class's block computed
    /// once and each pair's cross values once where the budget holds the
    /// class blocks, some class blocks twice where it holds two.
    #[test]
    fn pair_blocks_give_the_whole_matrix_numbers() {
        let ds = five();
        let folds = Folds::libsvm(&ds, 5).expect("folds");
        let run = |cache_mb: f64, threads: usize| {
            let params = SvmParams {
                cache_mb,
                ..SvmParams::rbf(2.0, 0.7)
            };
            let opts = OvoCvOptions {
                cache: CacheMode::Shared,
                threads,
                probability: None,
            };
            cross_validate_ovo(&ds, &folds, &params, &[], opts).expect("a CV")
        };
        // 300 x 300 singles take 0.34 MB: 100 MB holds it whole; 0.3 MB
        // does not (the shared share is 0.225 MB), but every pair (at most
        // about 150 rows, 0.09 MB) fits.
        let whole = run(100.0, 2);
        assert_eq!(whole.shared_evals, matrix_evals(300));
        let mut count = std::collections::BTreeMap::new();
        for &v in &ds.y {
            *count.entry(v.to_bits()).or_insert(0usize) += 1;
        }
        let sizes: Vec<usize> = count.into_values().collect();
        // Each class's block once and each pair's cross values: exactly
        // their values (so the pair path ran, not a column cache).
        let mut shared = sizes.iter().map(|&s| matrix_evals(s)).sum::<u64>();
        // Each pair's block computed whole.
        let mut whole_pairs = 0;
        for a in 0..sizes.len() {
            for b in a + 1..sizes.len() {
                shared += (sizes[a] * sizes[b]) as u64;
                whole_pairs += matrix_evals(sizes[a] + sizes[b]);
            }
        }
        // 0.3 MB holds every class block beside a pair's; 0.15 MB a pair's
        // and two (blocks dropped and computed again).
        for (mb, threads) in [(0.3, 1), (0.3, 2), (0.15, 2)] {
            let blocks = run(mb, threads);
            assert_eq!(blocks.predictions, whole.predictions);
            assert_eq!(blocks.correct, whole.correct);
            for (a, b) in blocks.folds.iter().zip(&whole.folds) {
                for (p, q) in a.pairs.iter().zip(&b.pairs) {
                    assert_eq!(p.classes, q.classes);
                    assert_eq!(p.stats.iterations, q.stats.iterations);
                    assert_eq!(p.stats.objective.to_bits(), q.stats.objective.to_bits());
                    assert_eq!(p.stats.rho.to_bits(), q.stats.rho.to_bits());
                    assert_eq!(p.coef, q.coef);
                }
            }
            if mb == 0.3 {
                assert_eq!(blocks.shared_evals, shared);
            } else {
                assert!(blocks.shared_evals > shared && blocks.shared_evals < whole_pairs);
            }
        }
        // The batched solver's matrix products: each pair's block whole.
        let batched = |mb: f64| {
            let params = SvmParams {
                cache_mb: mb,
                solver: SolverKind::Batched,
                ..SvmParams::rbf(2.0, 0.7)
            };
            let opts = OvoCvOptions {
                cache: CacheMode::Shared,
                threads: 2,
                probability: None,
            };
            cross_validate_ovo(&ds, &folds, &params, &[], opts).expect("a CV")
        };
        assert_eq!(batched(0.3).shared_evals, whole_pairs);
    }
}
