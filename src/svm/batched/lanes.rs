//! The batched solver's two element-wise hot loops, compiled for the widest
//! vector unit the CPU has (AVX-512, AVX2, or portable code), picked at run
//! time by [`crate::svm::simd`]: `acc += x * b` over a row of the
//! basis (the sparse dot products of [`super::kernel_rows`]) and
//! `acc += w * row` (the gradient's block product, [`super::rows`]). Every
//! lane computes the same expression in the same order as the portable
//! loop (no fused multiply-add, no reduction across lanes), so the values
//! are bit-identical on every variant.

use std::mem::MaybeUninit;

use crate::svm::simd::by_cpu;

/// `acc[k] += x * b[k]`.
#[inline(always)]
fn axpy_body(acc: &mut [f64], x: f64, b: &[f64]) {
    for (a, &v) in acc.iter_mut().zip(b) {
        *a += x * v;
    }
}

/// `acc[t] += w * row[t]` with `row` in single precision.
#[inline(always)]
fn axpy_f32_body(acc: &mut [f64], w: f64, row: &[f32]) {
    for (a, &v) in acc.iter_mut().zip(row) {
        *a += w * f64::from(v);
    }
}

/// For each query of `queries` (its non-zero features and values), the
/// dot products with the basis `bm` (`d × s`, feature-major) into `out`
/// (`queries × s`, row-major).
#[inline(always)]
fn sparse_dots_body(rows: &[(&[u32], &[f64])], bm: &[f64], s: usize, out: &mut [f64]) {
    for (acc, &(ix, vx)) in out.chunks_mut(s).zip(rows) {
        acc.fill(0.0);
        for (&j, &x) in ix.iter().zip(vx) {
            let j = j as usize;
            axpy_body(acc, x, &bm[j * s..(j + 1) * s]);
        }
    }
}

/// `acc += sum_k w_k rows_k`, the terms added in order.
#[inline(always)]
fn block_axpy_body(acc: &mut [f64], terms: &[(&[f32], f64)]) {
    for &(row, w) in terms {
        axpy_f32_body(acc, w, row);
    }
}

/// `e[k * m + i] = -gamma * (qn[i] + bn[k] - 2 e[k * m + i])` with
/// `m = qn.len()`: the RBF exponents of rows of dot products (LIBSVM's
/// training formula, the query's squared norm first).
#[inline(always)]
fn rbf_exponents_body(e: &mut [f64], qn: &[f64], bn: &[f64], gamma: f64) {
    for (row, &nb) in e.chunks_exact_mut(qn.len().max(1)).zip(bn) {
        for (o, &nq) in row.iter_mut().zip(qn) {
            *o = -gamma * (nq + nb - 2.0 * *o);
        }
    }
}

/// `out[i] = v[i] as f32`.
#[inline(always)]
fn narrow_body(v: &[f64], out: &mut [MaybeUninit<f32>]) {
    for (o, &x) in out.iter_mut().zip(v) {
        o.write(x as f32);
    }
}

by_cpu!(
    /// See [`rbf_exponents_body`].
    pub(super) fn rbf_exponents(e: &mut [f64], qn: &[f64], bn: &[f64], gamma: f64) =
        rbf_exponents_body
);

by_cpu!(
    /// See [`narrow_body`].
    pub(super) fn narrow(v: &[f64], out: &mut [MaybeUninit<f32>]) = narrow_body
);

by_cpu!(
    /// See [`sparse_dots_body`].
    pub(super) fn sparse_dots(rows: &[(&[u32], &[f64])], bm: &[f64], s: usize, out: &mut [f64]) =
        sparse_dots_body
);

by_cpu!(
    /// See [`block_axpy_body`].
    pub(super) fn block_axpy(acc: &mut [f64], terms: &[(&[f32], f64)]) = block_axpy_body
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_equals_the_portable_loop() {
        let bm: Vec<f64> = (0..5 * 7).map(|i| (i as f64 * 0.37).sin()).collect();
        let (ix, vx) = (vec![0u32, 2, 4], vec![0.5, -1.25, 3.0]);
        let rows = [(&ix[..], &vx[..]), (&ix[1..], &vx[1..])];
        let mut want = vec![0.0; 2 * 7];
        sparse_dots_body(&rows, &bm, 7, &mut want);
        let mut got = vec![9.0; 2 * 7];
        sparse_dots(&rows, &bm, 7, &mut got);
        assert_eq!(want, got);
        let r1: Vec<f32> = (0..37).map(|i| (i as f32 * 0.1).cos()).collect();
        let r2: Vec<f32> = (0..37).map(|i| (i as f32 * 0.3).sin()).collect();
        let terms = [(&r1[..], 0.7), (&r2[..], -1.3)];
        let mut want = vec![1.0; 37];
        block_axpy_body(&mut want, &terms);
        let mut got = vec![1.0; 37];
        block_axpy(&mut got, &terms);
        assert_eq!(want, got);
        let (qn, bn) = ([0.3, 1.7, 2.5], [0.9, 0.1]);
        let mut want: Vec<f64> = (0..6).map(|i| (i as f64 * 0.71).cos()).collect();
        let mut got = want.clone();
        rbf_exponents_body(&mut want, &qn, &bn, 0.37);
        rbf_exponents(&mut got, &qn, &bn, 0.37);
        assert_eq!(want, got);
        assert_eq!(
            want[4],
            -0.37 * (qn[1] + bn[1] - 2.0 * (4.0f64 * 0.71).cos())
        );
        let mut narrow_want = vec![MaybeUninit::new(0f32); 6];
        let mut narrow_got = vec![MaybeUninit::new(1f32); 6];
        narrow_body(&want, &mut narrow_want);
        narrow(&want, &mut narrow_got);
        for ((w, g), &v) in narrow_want.iter().zip(&narrow_got).zip(&want) {
            // SAFETY: every entry was written above.
            let (w, g) = unsafe { (w.assume_init(), g.assume_init()) };
            assert_eq!(
                (w.to_bits(), g.to_bits()),
                ((v as f32).to_bits(), (v as f32).to_bits())
            );
        }
    }
}
