//! The kernel values of integer-valued data as a table.
//!
//! Where every stored feature value is an integer (binary data such as a9a
//! and w8a, counts) and the squared norms are small, LIBSVM's training
//! formula `exp(-gamma (||x_a||^2 + ||x_b||^2 - 2 <x_a, x_b>))` takes its
//! argument from a short list: every partial sum of the norms and dot
//! products is an integer below 2^53, so computed exactly, and the squared
//! distance is an integer `D` in `0..=2 max ||x||^2`. The kernel value is
//! then a function of `D` alone, and a table made once per dataset and gamma
//! with the same `exp` ([`fast_exp::exp_to_f32`], libm's value rounded to
//! single precision, to the bit) replaces the exponential: the same bits as
//! computing it, without the `exp`.

use crate::data::{Dataset, Features};
use crate::svm::kernel::fast_exp;

/// Largest squared norm of a row for which a table is made (the table then
/// holds at most `2 * MAX_NORM + 1` single-precision values, 64 KiB).
pub const MAX_NORM: f64 = 8192.0;

/// `exp(-gamma D)` in single precision for every integer squared distance
/// `D` the data can produce.
#[derive(Clone, Debug)]
pub struct ExpTable {
    values: Vec<f32>,
}

impl ExpTable {
    /// The table for `ds` (with squared norms `norms`) and `gamma`, if every
    /// stored value is an integer and every squared norm at most
    /// [`MAX_NORM`].
    pub fn new(ds: &Dataset, norms: &[f64], gamma: f64) -> Option<ExpTable> {
        let values = match &ds.x {
            Features::Sparse { values, .. } | Features::Dense { values, .. } => values,
        };
        // Integers (NaN and infinities are not) whose squares sum exactly.
        let integer = values
            .iter()
            .all(|v| v.fract() == 0.0 && v.abs() <= MAX_NORM);
        let max_norm = norms.iter().fold(0.0f64, |m, &v| m.max(v));
        if !integer || max_norm > MAX_NORM || !gamma.is_finite() {
            return None;
        }
        let dists: Vec<f64> = (0..=2 * max_norm as usize).map(|d| d as f64).collect();
        let mut table = vec![0f32; dists.len()];
        fast_exp::exp_to_f32(-gamma, &dists, &mut table);
        Some(ExpTable { values: table })
    }

    /// `exp(-gamma dist) as f32` for a squared distance made by the training
    /// formula on this table's data: read from the table where `dist` is one
    /// of its integers (always, on that data), else computed.
    #[inline(always)]
    pub fn value(&self, gamma: f64, dist: f64) -> f32 {
        let i = dist as usize;
        match self.values.get(i) {
            Some(&v) if i as f64 == dist => v,
            _ => computed(gamma, dist),
        }
    }

    /// `out[k] = self.value(gamma, dists[k])` for every `k`.
    #[inline]
    pub fn fill(&self, gamma: f64, dists: &[f64], out: &mut [f32]) {
        for (o, &d) in out.iter_mut().zip(dists) {
            *o = self.value(gamma, d);
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the table is empty (never: it holds `D = 0`).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

/// `exp(-gamma dist) as f32`, computed (a distance outside the table).
#[cold]
#[inline(never)]
fn computed(gamma: f64, dist: f64) -> f32 {
    let mut out = [0f32];
    fast_exp::exp_to_f32(-gamma, &[dist], &mut out);
    out[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svm::kernel::{KernelData, KernelKind};

    fn counts() -> Dataset {
        let rows: Vec<Vec<f64>> = (0..40)
            .map(|i| (0..9).map(|f| ((i * 7 + f * 3) % 5) as f64 - 1.0).collect())
            .collect();
        let y = (0..40)
            .map(|i| if i % 2 == 0 { 1.0 } else { -1.0 })
            .collect();
        Dataset::from_dense_rows("synthetic-counts", &rows, y)
    }

    #[test]
    fn table_columns_are_the_computed_columns_to_the_bit() {
        let ds = counts();
        let gamma = 0.37;
        let kd = KernelData::new(&ds, KernelKind::Rbf { gamma });
        assert!(kd.has_exp_table(), "integer data gets a table");
        let plain = KernelData::new(&ds, KernelKind::Rbf { gamma }).without_exp_table();
        let rows: Vec<u32> = (0..40).collect();
        let ys: Vec<i8> = (0..40).map(|i| if i % 3 == 0 { 1 } else { -1 }).collect();
        let mut scratch = vec![0.0; kd.d()];
        for a in 0..40 {
            let (mut t, mut c) = (vec![0f32; 40], vec![0f32; 40]);
            kd.fill_column(a, -1, &rows, Some(&ys), &mut t, &mut scratch);
            plain.fill_column(a, -1, &rows, Some(&ys), &mut c, &mut scratch);
            for (x, y) in t.iter().zip(&c) {
                assert_eq!(x.to_bits(), y.to_bits(), "row {a}");
            }
        }
    }

    #[test]
    fn fractional_or_wide_data_gets_no_table_and_odd_distances_are_computed() {
        let mut ds = counts();
        if let Features::Dense { values, .. } = &mut ds.x {
            values[3] = 0.5;
        }
        let norms: Vec<f64> = vec![1.0; ds.n()];
        assert!(ExpTable::new(&ds, &norms, 0.1).is_none());
        let ds = counts();
        assert!(ExpTable::new(&ds, &[MAX_NORM + 1.0], 0.1).is_none());
        let t = ExpTable::new(&ds, &[4.0], 0.25).expect("a table");
        assert_eq!(t.len(), 9);
        let mut want = [0f32];
        fast_exp::exp_to_f32(-0.25, &[2.5], &mut want);
        assert_eq!(t.value(0.25, 2.5).to_bits(), want[0].to_bits());
        fast_exp::exp_to_f32(-0.25, &[30.0], &mut want);
        assert_eq!(t.value(0.25, 30.0).to_bits(), want[0].to_bits());
        fast_exp::exp_to_f32(-0.25, &[3.0], &mut want);
        assert_eq!(t.value(0.25, 3.0).to_bits(), want[0].to_bits());
    }
}
