//! The batched solver's element-wise hot loops, compiled for the widest
//! vector unit the CPU has (AVX-512, AVX2, or portable code), picked at run
//! time by [`crate::svm::simd`]: `acc += w * row` (the gradient's block
//! product, [`super::rows`]) and the narrowing of kernel values to `f32`
//! ([`crate::svm::kernel::basis_rows`]; its sparse dot products are
//! [`crate::svm::simd::sparse_lanes`]'). Every
//! lane computes the same expression in the same order as the portable
//! loop (no fused multiply-add, no reduction across lanes), so the values
//! are bit-identical on every variant.

use std::mem::MaybeUninit;

use crate::svm::simd::by_cpu;

/// `acc[t] += w * row[t]` with `row` in single precision.
#[inline(always)]
fn axpy_f32_body(acc: &mut [f64], w: f64, row: &[f32]) {
    for (a, &v) in acc.iter_mut().zip(row) {
        *a += w * f64::from(v);
    }
}

/// `acc += sum_k w_k rows_k`, the terms added in order.
#[inline(always)]
fn block_axpy_body(acc: &mut [f64], terms: &[(&[f32], f64)]) {
    for &(row, w) in terms {
        axpy_f32_body(acc, w, row);
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
    /// See [`narrow_body`].
    pub(in crate::svm) fn narrow(v: &[f64], out: &mut [MaybeUninit<f32>]) = narrow_body
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
        let r1: Vec<f32> = (0..37).map(|i| (i as f32 * 0.1).cos()).collect();
        let r2: Vec<f32> = (0..37).map(|i| (i as f32 * 0.3).sin()).collect();
        let terms = [(&r1[..], 0.7), (&r2[..], -1.3)];
        let mut want = vec![1.0; 37];
        block_axpy_body(&mut want, &terms);
        let mut got = vec![1.0; 37];
        block_axpy(&mut got, &terms);
        assert_eq!(want, got);
        let v: Vec<f64> = (0..6).map(|i| (i as f64 * 0.71).cos() * 1e-3).collect();
        let mut narrow_want = vec![MaybeUninit::new(0f32); 6];
        let mut narrow_got = vec![MaybeUninit::new(1f32); 6];
        narrow_body(&v, &mut narrow_want);
        narrow(&v, &mut narrow_got);
        for ((w, g), &x) in narrow_want.iter().zip(&narrow_got).zip(&v) {
            // SAFETY: every entry was written above.
            let (w, g) = unsafe { (w.assume_init(), g.assume_init()) };
            assert_eq!(
                (w.to_bits(), g.to_bits()),
                ((x as f32).to_bits(), (x as f32).to_bits())
            );
        }
    }
}
