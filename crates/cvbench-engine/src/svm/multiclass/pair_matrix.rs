//! A class pair's kernel block assembled from its classes' own blocks
//! (issue 58), for the one-vs-one CV by pair blocks
//! ([`super::pair_blocks`]).
//!
//! Pair `(a, b)`'s block (its rows `a`'s then `b`'s) holds `K_aa`, `K_bb` and the cross values `K_ab`.
//! Class `a`'s own block `K_aa` is part of the block of each of its pairs,
//! so computing each pair's block whole computes it once per pair: for ten
//! even classes the 45 pair triangles cost `0.9 n^2` kernel values. Here
//! each class's block is computed once (a triangle, ten of them `0.05 n^2`)
//! and copied into its pairs' blocks, and a pair computes only its cross
//! values (a rectangle, 45 of them `0.45 n^2`): `0.5 n^2` in all.
//!
//! Every value comes from the lane tiles ([`matrix::lane_block`]), each
//! [`KernelData::fill_column`]'s to the bit, and `K(a, b)` and `K(b, a)`
//! are the same bits, so a pair's assembled block is the block computed
//! whole, bit for bit (the tests compare them).

use rayon::prelude::*;

use crate::svm::kernel::lane_tile::TILE;
use crate::svm::kernel::{matrix, KernelData};

/// One class's rows (dataset rows, increasing) and their kernel matrix
/// (`n_c x n_c`, column after column).
pub(super) struct ClassBlock {
    /// The class's rows, in the dataset's order.
    pub rows: Vec<usize>,
    matrix: Vec<f32>,
}

impl ClassBlock {
    /// Class block of `rows` (increasing) of `kd`, its triangle computed on
    /// the current rayon pool and mirrored.
    pub fn new(kd: &KernelData<'_>, rows: Vec<usize>) -> ClassBlock {
        let n = rows.len();
        let matrix = matrix::symmetric_matrix(n, None, TILE, |a0, cols| {
            let mine = &rows[a0..(a0 + TILE).min(n)];
            matrix::lane_block(kd, mine, &rows[a0..], cols, n);
        });
        ClassBlock { rows, matrix }
    }

    /// The kernel values the block cost (its triangle with the diagonal).
    pub fn evals(&self) -> u64 {
        matrix::matrix_evals(self.rows.len())
    }
}

/// The block of pair `(a, b)`: its rows `a`'s then `b`'s, its matrix
/// (column after column) copied from the class blocks, with the cross
/// values `K(b_j, a_i)` computed into `a`'s columns (a tile of `a`'s rows
/// against all of `b`'s at a time, on the current rayon pool) and copied
/// into `b`'s. Written into `spare` where it can hold the matrix. Returns
/// the matrix and the kernel values computed (`n_a n_b`).
pub(super) fn pair_matrix(
    kd: &KernelData<'_>,
    a: &ClassBlock,
    b: &ClassBlock,
    spare: Option<Vec<f32>>,
) -> (Vec<f32>, u64) {
    let (na, nb) = (a.rows.len(), b.rows.len());
    let n = na + nb;
    let mut m = matrix::spare_or_zeroed(spare, n * n);
    if n == 0 {
        return (m, 0);
    }
    let (m_a, m_b) = m.split_at_mut(na * n);
    // a's columns, a tile at a time: a's block, then K(b_j, a_i).
    m_a.par_chunks_mut(TILE * n)
        .enumerate()
        .for_each(|(t, cols)| {
            let a0 = t * TILE;
            let mine = &a.rows[a0..(a0 + TILE).min(na)];
            for (lane, col) in cols.chunks_exact_mut(n).enumerate() {
                col[..na].copy_from_slice(&a.matrix[(a0 + lane) * na..(a0 + lane + 1) * na]);
            }
            if nb > 0 {
                matrix::lane_block(kd, mine, &b.rows, &mut cols[na..], n);
            }
        });
    // b's columns: K(a_i, b_j) = K(b_j, a_i) from a's columns (row i of
    // the tile's columns read across), then b's block.
    let m_a: &[f32] = m_a;
    m_b.par_chunks_mut(TILE * n)
        .enumerate()
        .for_each(|(t, cols)| {
            let (b0, lanes) = (t * TILE, cols.len() / n);
            for i in 0..na {
                let from = i * n + na + b0;
                for (lane, &v) in m_a[from..from + lanes].iter().enumerate() {
                    cols[lane * n + i] = v;
                }
            }
            for (lane, col) in cols.chunks_exact_mut(n).enumerate() {
                col[na..].copy_from_slice(&b.matrix[(b0 + lane) * nb..(b0 + lane + 1) * nb]);
            }
        });
    (m, (na * nb) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Dataset;
    use crate::svm::cache::SharedKernelCache;
    use crate::svm::kernel::matrix::{fill_all_into, MatrixValues, TEST_KINDS};

    /// Sparse rows of two interleaved classes (synthetic), more rows than a
    /// tile so that the tiles' edges are crossed.
    fn two_classes() -> (Dataset, Vec<usize>, Vec<usize>) {
        let n = 150;
        let rows: Vec<Vec<f64>> = (0..n)
            .map(|i| {
                (0..7)
                    .map(|j| {
                        let v = ((i * 7 + j) as f64 * 0.613).sin();
                        if v.abs() < 0.3 {
                            0.0
                        } else {
                            v
                        }
                    })
                    .collect()
            })
            .collect();
        let y: Vec<f64> = (0..n).map(|i| ((i * i) % 3 == 0) as u8 as f64).collect();
        let ds = Dataset::from_dense_rows("synthetic-pair", &rows, y.clone());
        let a = (0..n).filter(|&i| y[i] == 0.0).collect();
        let b = (0..n).filter(|&i| y[i] == 1.0).collect();
        (ds, a, b)
    }

    #[test]
    fn an_assembled_pair_block_is_the_block_computed_whole() {
        let (ds, a_rows, b_rows) = two_classes();
        for kind in TEST_KINDS {
            let kd = KernelData::new(&ds, kind);
            let (a, b) = (
                ClassBlock::new(&kd, a_rows.clone()),
                ClassBlock::new(&kd, b_rows.clone()),
            );
            let (m, evals) = pair_matrix(&kd, &a, &b, Some(vec![1.0; 5]));
            assert_eq!(evals, (a_rows.len() * b_rows.len()) as u64);
            // The whole matrix of the pair's rows, a's then b's.
            let order: Vec<usize> = a_rows.iter().chain(&b_rows).copied().collect();
            let sub = ds.subset(&order, "pair".to_string());
            let kd_sub = KernelData::new(&sub, kind);
            let n = ds.n();
            let sh = SharedKernelCache::new(n, 100.0).whole_columns(true);
            fill_all_into(&kd_sub, &sh, None, MatrixValues::Libsvm);
            let whole = sh.into_matrix().expect("the whole matrix");
            assert_eq!(m.len(), whole.len());
            for (x, (v, w)) in m.iter().zip(&whole).enumerate() {
                assert_eq!(v.to_bits(), w.to_bits(), "{kind:?}: ({}, {})", x % n, x / n);
            }
        }
    }
}
