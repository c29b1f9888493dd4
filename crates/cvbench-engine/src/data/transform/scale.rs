//! `svm-scale -s` / `-r`: feature ranges learned on a training set and
//! applied to it and to a test set.
//!
//! As LIBSVM's `svm-scale`: the minimum and maximum of each feature are over
//! every training row, implicit zeros of sparse rows included; a value equal
//! to the minimum maps to `lower`, equal to the maximum to `upper`, others
//! linearly (test values outside the training range map outside
//! `[lower, upper]`); a feature constant on the training set is dropped
//! (written as nothing, i.e. 0); zeros are scaled too, and results that are
//! 0 are not stored. With `like_svm_scale_text`, each value is rounded to
//! `svm-scale`'s `%g` output (six significant digits) and read back, so the
//! data equal what `svm-train` reads from `svm-scale`'s file.

use crate::data::{DataError, Dataset, Features};

/// Per-feature ranges learned on a training set.
#[derive(Clone, Debug, PartialEq)]
pub struct ScaleRanges {
    /// Target lower bound (`svm-scale -l`, default -1).
    pub lower: f64,
    /// Target upper bound (`svm-scale -u`, default 1).
    pub upper: f64,
    /// Minimum of each feature on the training set.
    pub min: Vec<f64>,
    /// Maximum of each feature on the training set.
    pub max: Vec<f64>,
}

impl ScaleRanges {
    /// Learn the ranges of every feature of `train` for `[lower, upper]`.
    pub fn learn(train: &Dataset, lower: f64, upper: f64) -> Result<ScaleRanges, DataError> {
        if !(lower.is_finite() && upper.is_finite() && lower < upper) {
            return Err(DataError::Transform {
                transform: "scale".into(),
                dataset: train.name.clone(),
                msg: format!("lower {lower} must be below upper {upper}, both finite"),
            });
        }
        let d = train.d();
        let mut min = vec![f64::INFINITY; d];
        let mut max = vec![f64::NEG_INFINITY; d];
        for i in 0..train.n() {
            let x = train.row(i).to_dense(d);
            for (j, &v) in x.iter().enumerate() {
                min[j] = min[j].min(v);
                max[j] = max[j].max(v);
            }
        }
        if train.n() == 0 {
            min.iter_mut().for_each(|m| *m = 0.0);
            max.iter_mut().for_each(|m| *m = 0.0);
        }
        Ok(ScaleRanges {
            lower,
            upper,
            min,
            max,
        })
    }

    /// One value of feature `j` scaled (`None`: the feature is dropped).
    pub fn scale_value(&self, j: usize, v: f64) -> Option<f64> {
        let (lo, hi) = (*self.min.get(j)?, *self.max.get(j)?);
        if lo == hi {
            return None;
        }
        Some(if v == lo {
            self.lower
        } else if v == hi {
            self.upper
        } else {
            self.lower + (self.upper - self.lower) * (v - lo) / (hi - lo)
        })
    }

    /// Apply to `ds` (the training set or a test set): features beyond the
    /// training set's are dropped, as `svm-scale -r` does. The result is
    /// sparse (zeros not stored), named `<name>-scaled`.
    pub fn apply(&self, ds: &Dataset, like_svm_scale_text: bool) -> Dataset {
        let d = self.min.len();
        let mut indptr = Vec::with_capacity(ds.n() + 1);
        let (mut indices, mut values) = (Vec::new(), Vec::new());
        indptr.push(0);
        for i in 0..ds.n() {
            let x = ds.row(i).to_dense(ds.d().max(d));
            for (j, &v) in x.iter().enumerate().take(d) {
                if let Some(s) = self.scale_value(j, v) {
                    let s = if like_svm_scale_text {
                        printf_g(s).parse().unwrap_or(s)
                    } else {
                        s
                    };
                    if s != 0.0 {
                        indices.push(j as u32);
                        values.push(s);
                    }
                }
            }
            indptr.push(indices.len());
        }
        Dataset {
            index_base: ds.index_base,
            name: format!("{}-scaled", ds.name),
            x: Features::Sparse {
                d,
                indptr,
                indices,
                values,
            },
            y: ds.y.clone(),
        }
    }
}

/// C's `printf("%g", x)` (six significant digits, trailing zeros dropped).
pub fn printf_g(x: f64) -> String {
    if x == 0.0 {
        return if x.is_sign_negative() { "-0" } else { "0" }.into();
    }
    if !x.is_finite() {
        return if x.is_nan() {
            "nan".into()
        } else if x > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        };
    }
    let sci = format!("{x:.5e}");
    let (mant, exp) = sci.split_once('e').expect("{:e} has an exponent");
    let exp: i32 = exp.parse().expect("exponent is an integer");
    if (-4..6).contains(&exp) {
        let decimals = (5 - exp) as usize;
        strip_zeros(&format!("{x:.decimals$}"))
    } else {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", strip_zeros(mant), exp.abs())
    }
}

fn strip_zeros(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learns_on_train_and_applies_to_test() {
        let tr = Dataset::from_dense_rows(
            "synthetic-scale",
            &[
                vec![0.0, 5.0, 2.0],
                vec![10.0, 5.0, 4.0],
                vec![5.0, 5.0, 3.0],
            ],
            vec![1.0, -1.0, 1.0],
        );
        let r = ScaleRanges::learn(&tr, -1.0, 1.0).unwrap();
        let s = r.apply(&tr, false);
        assert_eq!(s.row(0).to_dense(3), vec![-1.0, 0.0, -1.0]);
        assert_eq!(s.row(1).to_dense(3), vec![1.0, 0.0, 1.0]);
        assert_eq!(s.row(2).to_dense(3), vec![0.0, 0.0, 0.0]);
        let te = Dataset::from_dense_rows("synthetic-scale-t", &[vec![20.0, 1.0, 1.0]], vec![1.0]);
        // outside the training range: outside [-1, 1]; constant feature dropped
        assert_eq!(r.apply(&te, false).row(0).to_dense(3), vec![3.0, 0.0, -2.0]);
        let third = ScaleRanges::learn(
            &Dataset::from_dense_rows("synthetic", &[vec![0.0], vec![3.0]], vec![1.0, 1.0]),
            -1.0,
            1.0,
        )
        .unwrap();
        let one = Dataset::from_dense_rows("synthetic", &[vec![1.0]], vec![1.0]);
        assert_eq!(third.apply(&one, true).row(0).to_dense(1), vec![-0.333333]);
        assert!(ScaleRanges::learn(&tr, 1.0, -1.0).is_err());
    }
}
