//! [`KernelBlock::weighted_sums`] on sparse data, computed along the
//! queries: a step of queries is scattered into a dense feature-major
//! matrix, each sparse basis row adds its stored features' rows of it
//! ([`crate::svm::simd::sparse_lanes`]), so one basis row's values come out for
//! every query of the step at once, and each query's sums and bound take
//! the basis rows' terms in basis order, one basis row at a time. Every
//! dot product sums the products of the features both rows store in
//! feature order (the other terms are exact zeros), and every sum adds the
//! same terms in the same order as [`KernelBlock::sums_of_row`], so the
//! results are those of the inverted index to the bit, for a fraction of
//! its scattered adds (a9a: 14 stored values per row of 123 features).

use rayon::prelude::*;

use super::{KernelBlock, WeightedSums, EXP_ZERO_BELOW, SUBNORMAL_BOUND};
use crate::svm::kernel::KernelKind;
use crate::svm::simd::by_cpu;
use crate::svm::simd::sparse_lanes::{
    entries, query_step, step_exponents, values_in_place, with_queries, Entries,
};

/// Basis rows whose values go through `exp` together.
const CHUNK: usize = 64;

/// The running sums and bound terms of a step's queries, one entry per
/// query (see [`KernelBlock::sums_of_row`]).
struct Sums {
    s1: Vec<f64>,
    s2: Vec<f64>,
    spread: Vec<f64>,
    mag: Vec<f64>,
    tiny: Vec<f64>,
}

/// One basis row's part of [`add_terms`]: its values along the queries
/// (exponents and kernel values), weights and squared norm, and the
/// queries' squared norms and distance error bounds.
struct Term<'a> {
    exps: &'a [f64],
    vals: &'a [f64],
    w: f64,
    /// The second weight, if the sums have one.
    w2: Option<f64>,
    nb: f64,
    nq: &'a [f64],
    dist_eps: &'a [f64],
    /// `gamma` of an RBF kernel (`None`: another kernel).
    gamma: Option<f64>,
    /// Whether the bound's terms are wanted (else only the sums).
    bounds: bool,
}

/// Add one basis row's terms to every query's sums, as
/// [`KernelBlock::sums_of_row`] adds them (the same operations in the same
/// order per query; a subnormal term adds `0` where the bound gets none,
/// which leaves its non-negative sum's bits as they are).
// Indexed loops over several slices cut to one length: they vectorise.
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn add_terms_body(acc: &mut Sums, t: &Term<'_>) {
    let m = t.vals.len();
    let (s1, s2) = (&mut acc.s1[..m], &mut acc.s2[..m]);
    let (spread, mag, tiny) = (&mut acc.spread[..m], &mut acc.mag[..m], &mut acc.tiny[..m]);
    let (exps, nq, de) = (&t.exps[..m], &t.nq[..m], &t.dist_eps[..m]);
    let w = t.w;
    for i in 0..m {
        s1[i] += w * t.vals[i];
    }
    if let Some(w2) = t.w2 {
        for i in 0..m {
            s2[i] += w2 * t.vals[i];
        }
    }
    if !t.bounds {
        return;
    }
    match t.gamma {
        Some(gamma) => {
            for i in 0..m {
                let (e, v) = (exps[i], t.vals[i]);
                let under = v < f64::MIN_POSITIVE
                    && w != 0.0
                    && e >= EXP_ZERO_BELOW - gamma * de[i] * (nq[i] + t.nb);
                tiny[i] += if under {
                    w.abs() * SUBNORMAL_BOUND
                } else {
                    0.0
                };
                spread[i] += w.abs() * v.abs() * (nq[i] + t.nb);
                mag[i] += (w * v).abs();
            }
        }
        None => {
            for i in 0..m {
                spread[i] += w.abs() * 1.0 * (nq[i] + t.nb);
                mag[i] += (w * t.vals[i]).abs();
            }
        }
    }
}

by_cpu!(
    /// See [`add_terms_body`].
    fn add_terms(acc: &mut Sums, t: &Term<'_>) = add_terms_body
);

impl KernelBlock<'_> {
    /// [`KernelBlock::weighted_sums`] for a block of sparse basis rows (see
    /// the module doc); without `bounds`, only the sums (`err1` is not
    /// computed).
    pub(super) fn weighted_sums_along(
        &self,
        queries: &[usize],
        w1: &[f64],
        w2: Option<&[f64]>,
        bounds: bool,
    ) -> Vec<WeightedSums> {
        let d = self.kd.d();
        let step = query_step(d);
        self.kd
            .count_block_evals((queries.len() * self.basis.len()) as u64);
        let entries: Vec<Entries<'_>> = self
            .basis
            .iter()
            .map(|&b| entries(&self.kd.ds, b as usize))
            .collect();
        let mut out = vec![WeightedSums::default(); queries.len()];
        out.par_chunks_mut(step)
            .zip(queries.par_chunks(step))
            .for_each_init(
                || vec![0.0f64; d * step],
                |qm, (o, q)| self.step_sums(&entries, q, qm, (w1, w2, bounds), o),
            );
        out
    }

    /// The sums of one step of queries `q` into `out`; `qm` (`d × step`)
    /// is all zero on entry and on return.
    fn step_sums(
        &self,
        entries: &[Entries<'_>],
        q: &[usize],
        qm: &mut [f64],
        (w1, w2, bounds): (&[f64], Option<&[f64]>, bool),
        out: &mut [WeightedSums],
    ) {
        let m = q.len();
        let nq: Vec<f64> = q.iter().map(|&r| self.kd.norms[r]).collect();
        let dist_eps: Vec<f64> = q.iter().map(|&r| 4.0 * self.dist_rel_error(r)).collect();
        let zeros = || vec![0.0f64; m];
        let mut acc = Sums {
            s1: zeros(),
            s2: zeros(),
            spread: zeros(),
            mag: zeros(),
            tiny: zeros(),
        };
        let gamma = match self.kd.kind {
            KernelKind::Rbf { gamma } => Some(gamma),
            _ => None,
        };
        let rows = CHUNK.min(entries.len());
        let (mut ex, mut kv) = (vec![0.0f64; rows * m], vec![0.0f64; rows * m]);
        with_queries(&self.kd.ds, q, qm, |qm| {
            for (c, chunk) in entries.chunks(CHUNK).enumerate() {
                let k0 = c * CHUNK;
                let (ex, kv) = (&mut ex[..chunk.len() * m], &mut kv[..chunk.len() * m]);
                let bnorms = &self.basis_norms[k0..k0 + chunk.len()];
                step_exponents(self.kd.kind, (chunk, bnorms), (qm, &nq), ex);
                // Without the bound the exponents are not read again: the
                // values replace them.
                let kv: &[f64] = if bounds {
                    kv.copy_from_slice(ex);
                    values_in_place(self.kd.kind, kv);
                    kv
                } else {
                    values_in_place(self.kd.kind, ex);
                    ex
                };
                for (kk, (exps, vals)) in ex.chunks_exact(m).zip(kv.chunks_exact(m)).enumerate() {
                    let k = k0 + kk;
                    let term = Term {
                        exps,
                        vals,
                        w: w1[k],
                        w2: w2.map(|w2| w2[k]),
                        nb: self.basis_norms[k],
                        nq: &nq,
                        dist_eps: &dist_eps,
                        gamma,
                        bounds,
                    };
                    add_terms(&mut acc, &term);
                }
            }
        });
        for (i, (o, &r)) in out.iter_mut().zip(q).enumerate() {
            *o = WeightedSums {
                s1: acc.s1[i],
                s2: acc.s2[i],
                err1: if bounds {
                    self.error_bound(r, acc.spread[i], acc.mag[i]) + acc.tiny[i]
                } else {
                    f64::INFINITY
                },
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Layout;
    use super::*;
    use crate::svm::kernel::KernelData;
    use crate::svm::simd::sparse_lanes::{sparse_test_set, SPARSE_TEST_KINDS};

    #[test]
    fn the_sums_along_the_queries_are_the_inverted_index_sums_to_the_bit() {
        // About one value in ten stored: the inverted layout.
        let (ds, basis, queries) = sparse_test_set("synthetic-sparse-sums");
        // RBF values that underflow besides: the bound's subnormal terms.
        for kind in SPARSE_TEST_KINDS
            .into_iter()
            .chain([KernelKind::Rbf { gamma: 90.0 }])
        {
            let kd = KernelData::new(&ds, kind);
            let w1: Vec<f64> = (0..basis.len()).map(|k| (k as f64 * 0.9).cos()).collect();
            let w2: Vec<f64> = (0..basis.len())
                .map(|k| if k % 3 == 0 { 0.0 } else { k as f64 * 0.01 })
                .collect();
            let block = KernelBlock::new(&kd, basis.clone());
            assert!(matches!(block.layout, Layout::Inverted { .. }));
            let got = block.weighted_sums(&queries, &w1, Some(&w2));
            let s = basis.len();
            let mut ex = vec![0.0; queries.len() * s];
            block.exponents(&queries, &mut ex);
            let mut kv = ex.clone();
            values_in_place(kind, &mut kv);
            for (i, &q) in queries.iter().enumerate() {
                let r = i * s..(i + 1) * s;
                let want = block.sums_of_row(q, &ex[r.clone()], &kv[r], &w1, Some(&w2));
                let bits = |w: &WeightedSums| (w.s1.to_bits(), w.s2.to_bits(), w.err1.to_bits());
                assert_eq!(bits(&got[i]), bits(&want), "{kind:?} query {q}");
            }
            // Without the bound: the same sums to the bit.
            let unbounded = block.unbounded_sums(&queries, &w1, &w2);
            for (u, g) in unbounded.iter().zip(&got) {
                assert_eq!(
                    (u.s1.to_bits(), u.s2.to_bits()),
                    (g.s1.to_bits(), g.s2.to_bits())
                );
                assert_eq!(u.err1, f64::INFINITY);
            }
        }
    }
}
