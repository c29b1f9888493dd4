//! A solve's `Q` column from a column of the shared kernel cache:
//! `out_t = y_a y_t K(a, rows_t)`, gathered through the solver's row order
//! and signed by flipping the sign bit (exact: LIBSVM's `(float)(y_i y_j
//! K_ij)` is the same single-precision value with its sign set by `y_i y_j`,
//! zeros included). Written branch-free so that the compiler vectorises the
//! gather (compiled for AVX-512 and AVX2 and chosen at run time by
//! [`crate::svm::simd`], with a portable fallback).

use crate::svm::simd::by_cpu;

/// `k` with its sign bit flipped where `flip` (`1 << 31`) is set.
#[inline(always)]
fn signed(k: f32, flip: u32) -> f32 {
    f32::from_bits(k.to_bits() ^ flip)
}

/// The loop, after checking every row against `full` (a vectorised pass);
/// the values are appended (`out` needs no zero fill first).
#[inline(always)]
fn gather_body(full: &[f32], rows: &[u32], y: &[i8], ya: i8, out: &mut Vec<f32>) {
    assert!(rows.len() == y.len(), "one label per row");
    let max = rows.iter().fold(0u32, |m, &r| m.max(r)) as usize;
    assert!(
        rows.is_empty() || max < full.len(),
        "a row outside the column"
    );
    out.reserve_exact(rows.len());
    out.extend(rows.iter().zip(y).map(|(&r, &yr)| {
        // SAFETY: every row was checked against `full.len()` above.
        let k = unsafe { *full.get_unchecked(r as usize) };
        // +1 is 0x01 and -1 is 0xff: their xor has bit 7 set when they differ.
        signed(k, (((ya ^ yr) as u8 as u32) & 0x80) << 24)
    }));
}

by_cpu!(
    /// Append `±full[rows[t]]` to `out`, negative where `y[t] != ya`
    /// (labels `±1`).
    ///
    /// # Panics
    /// If a row is outside `full` or the lengths differ.
    pub(crate) fn signed_gather(full: &[f32], rows: &[u32], y: &[i8], ya: i8, out: &mut Vec<f32>) =
        gather_body;
    variants gather_avx512, gather_avx2
);

/// Append `full[t]` to `out`, negated (the sign bit flipped, zeros
/// included) when `flip`: a contiguous run of [`signed_gather`]'s values.
pub(crate) fn signed_copy(full: &[f32], flip: bool, out: &mut Vec<f32>) {
    let mask = u32::from(flip) << 31;
    out.reserve_exact(full.len());
    out.extend(full.iter().map(|&k| signed(k, mask)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_pcg::Pcg64;

    /// Every compiled variant against the branchy sign flip, zeros included.
    #[test]
    fn every_variant_flips_exactly_where_the_labels_differ() {
        let mut rng = Pcg64::seed_from_u64(5);
        for n in [0usize, 1, 15, 16, 17, 100, 1003] {
            let full: Vec<f32> = (0..n + 7)
                .map(|i| match i % 5 {
                    0 => 0.0,
                    1 => -0.0,
                    _ => rng.random_range(0.0..1.0),
                })
                .collect();
            let rows: Vec<u32> = (0..n).map(|_| rng.random_range(0..n as u32 + 7)).collect();
            let y: Vec<i8> = (0..n)
                .map(|_| if rng.random_bool(0.5) { 1 } else { -1 })
                .collect();
            for ya in [1i8, -1] {
                let want: Vec<u32> = rows
                    .iter()
                    .zip(&y)
                    .map(|(&r, &yr)| {
                        let k = full[r as usize];
                        (if yr == ya { k } else { -k }).to_bits()
                    })
                    .collect();
                // Appended after what `out` held (a column's first entries).
                let mut outs = Vec::new();
                let mut o = vec![9.0f32; 3];
                signed_gather(&full, &rows, &y, ya, &mut o);
                outs.push(o);
                #[cfg(target_arch = "x86_64")]
                {
                    let mut o = vec![9.0f32; 3];
                    gather_body(&full, &rows, &y, ya, &mut o);
                    outs.push(o);
                    if std::arch::is_x86_feature_detected!("avx2") {
                        let mut o = vec![9.0f32; 3];
                        // SAFETY: AVX2 is supported (checked above).
                        unsafe { gather_avx2(&full, &rows, &y, ya, &mut o) };
                        outs.push(o);
                    }
                    if std::arch::is_x86_feature_detected!("avx512f") {
                        let mut o = vec![9.0f32; 3];
                        // SAFETY: AVX-512F is supported (checked above).
                        unsafe { gather_avx512(&full, &rows, &y, ya, &mut o) };
                        outs.push(o);
                    }
                }
                for o in outs {
                    assert_eq!(o[..3], [9.0; 3], "n = {n}: the first entries kept");
                    let bits: Vec<u32> = o[3..].iter().map(|v| v.to_bits()).collect();
                    assert_eq!(bits, want, "n = {n}, ya = {ya}");
                }
            }
        }
    }

    #[test]
    #[should_panic(expected = "outside")]
    fn a_row_outside_the_column_panics() {
        let mut o = Vec::new();
        signed_gather(&[1.0], &[1], &[1], 1, &mut o);
    }
}
