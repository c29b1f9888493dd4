//! LIBSVM's `svm_group_classes` and the weighted C of each class.

use crate::data::Dataset;
use crate::svm::error::SvmError;
use crate::svm::model::label::class_label;

/// The training rows grouped by class, as LIBSVM's `svm_group_classes`
/// leaves them: classes in order of first appearance (with LIBSVM 3.24's
/// swap of a `-1`, `+1` pair so that `+1` comes first when there are two
/// classes), rows of a class in their given order, class after class.
#[derive(Clone, Debug, PartialEq)]
pub struct Groups {
    /// The class labels, in LIBSVM's order.
    pub labels: Vec<f64>,
    /// Where each class starts in `rows`.
    pub start: Vec<usize>,
    /// Rows per class.
    pub count: Vec<usize>,
    /// The dataset rows, grouped by class.
    pub rows: Vec<usize>,
}

impl Groups {
    /// Group `rows` of `ds` by class (see the type's doc). Errors on a
    /// non-finite label.
    pub fn new(ds: &Dataset, rows: &[usize]) -> Result<Groups, SvmError> {
        let mut labels: Vec<f64> = Vec::new();
        let mut count: Vec<usize> = Vec::new();
        let mut class_of = Vec::with_capacity(rows.len());
        for &r in rows {
            let v = ds.y[r];
            if !v.is_finite() {
                return Err(SvmError::NonFinite(format!("label of row {r} is {v}")));
            }
            let v = class_label(v);
            let c = match labels.iter().position(|&u| u == v) {
                Some(c) => c,
                None => {
                    labels.push(v);
                    count.push(0);
                    labels.len() - 1
                }
            };
            count[c] += 1;
            class_of.push(c);
        }
        if labels.len() == 2 && labels[0] == -1.0 && labels[1] == 1.0 {
            labels.swap(0, 1);
            count.swap(0, 1);
            class_of.iter_mut().for_each(|c| *c = 1 - *c);
        }
        let mut start = Vec::with_capacity(labels.len());
        let mut s = 0;
        for &c in &count {
            start.push(s);
            s += c;
        }
        let mut next = start.clone();
        let mut grouped = vec![0; rows.len()];
        for (&r, &c) in rows.iter().zip(&class_of) {
            grouped[next[c]] = r;
            next[c] += 1;
        }
        Ok(Groups {
            labels,
            start,
            count,
            rows: grouped,
        })
    }

    /// Number of classes.
    pub fn nr_class(&self) -> usize {
        self.labels.len()
    }

    /// The rows of class `c`.
    pub fn class_rows(&self, c: usize) -> &[usize] {
        &self.rows[self.start[c]..self.start[c] + self.count[c]]
    }

    /// The class pairs `(i, j)`, `i < j`, in LIBSVM's order.
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        let k = self.nr_class();
        (0..k)
            .flat_map(|i| (i + 1..k).map(move |j| (i, j)))
            .collect()
    }
}

/// Whether `ds` has more than two classes ([`class_label`]) (and so needs the
/// one-vs-one path).
pub fn is_multiclass(ds: &Dataset) -> bool {
    let mut seen: Vec<f64> = Vec::with_capacity(3);
    for v in ds.y.iter().map(|&v| class_label(v)) {
        if !seen.contains(&v) {
            seen.push(v);
            if seen.len() > 2 {
                return true;
            }
        }
    }
    false
}

/// A class weight (`svm-train -wLABEL WEIGHT`): class `label`'s C is
/// multiplied by `weight`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClassWeight {
    /// The class label (an integer, as `svm-train` reads it).
    pub label: i32,
    /// The factor on C (> 0 and finite).
    pub weight: f64,
}

/// Check the weights: each finite and > 0 is what a C needs.
pub fn check_weights(weights: &[ClassWeight]) -> Result<(), SvmError> {
    for w in weights {
        if !(w.weight.is_finite() && w.weight > 0.0) {
            return Err(SvmError::InvalidParam(format!(
                "-w{} {}: a class weight must be finite and > 0 (it multiplies C)",
                w.label,
                crate::svm::model::params::fmt_param(w.weight)
            )));
        }
    }
    Ok(())
}

/// The C of each class of `labels` (LIBSVM's `weighted_C`: `c` times every
/// weight given for that label, in the order given), and `svm-train`'s
/// warning for each weight whose label is not among `labels`.
pub fn weighted_c(c: f64, labels: &[f64], weights: &[ClassWeight]) -> (Vec<f64>, Vec<String>) {
    let mut wc = vec![c; labels.len()];
    let mut warnings = Vec::new();
    for w in weights {
        match labels.iter().position(|&l| l == f64::from(w.label)) {
            Some(j) => wc[j] *= w.weight,
            None => warnings.push(format!(
                "WARNING: class label {} specified in weight is not found",
                w.label
            )),
        }
    }
    (wc, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ds(y: &[f64]) -> Dataset {
        let rows: Vec<Vec<f64>> = y.iter().map(|&v| vec![v]).collect();
        Dataset::from_dense_rows("g", &rows, y.to_vec())
    }

    #[test]
    fn classes_by_first_appearance_rows_stable() {
        let d = ds(&[7.0, 0.0, -3.0, 0.0, 7.0, -3.0, -3.0]);
        let g = Groups::new(&d, &(0..7).collect::<Vec<_>>()).unwrap();
        assert_eq!(g.labels, vec![7.0, 0.0, -3.0]);
        assert_eq!(g.count, vec![2, 2, 3]);
        assert_eq!(g.start, vec![0, 2, 4]);
        assert_eq!(g.rows, vec![0, 4, 1, 3, 2, 5, 6]);
        assert_eq!(g.pairs(), vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(g.class_rows(2), &[2, 5, 6]);
    }

    #[test]
    fn fractional_labels_join_the_class_of_their_integer_part() {
        // svm-train's (int)label: 1.5 is class 1, 2.5 and 2 are one class.
        let d = ds(&[1.5, 2.0, 1.0, 2.5, 3.7]);
        let g = Groups::new(&d, &(0..5).collect::<Vec<_>>()).unwrap();
        assert_eq!(g.labels, vec![1.0, 2.0, 3.0]);
        assert_eq!(g.count, vec![2, 2, 1]);
        assert!(!is_multiclass(&ds(&[2.5, 2.0, 2.0, 2.5, -1.0])));
        assert!(is_multiclass(&ds(&[1.5, 2.0, 3.2])));
    }

    #[test]
    fn a_minus_one_plus_one_pair_is_swapped_only_with_two_classes() {
        let d = ds(&[-1.0, 1.0, -1.0]);
        let g = Groups::new(&d, &[0, 1, 2]).unwrap();
        assert_eq!(
            (g.labels.clone(), g.rows.clone()),
            (vec![1.0, -1.0], vec![1, 0, 2])
        );
        let d = ds(&[-1.0, 1.0, 2.0]);
        let g = Groups::new(&d, &[0, 1, 2]).unwrap();
        assert_eq!(g.labels, vec![-1.0, 1.0, 2.0]);
    }

    #[test]
    fn weights_multiply_c_and_warn_for_absent_labels() {
        let w = [
            ClassWeight {
                label: 2,
                weight: 3.0,
            },
            ClassWeight {
                label: 5,
                weight: 2.0,
            },
            ClassWeight {
                label: 2,
                weight: 0.5,
            },
        ];
        let (wc, warn) = weighted_c(2.0, &[1.0, 2.0], &w);
        assert_eq!(wc, vec![2.0, 3.0]);
        assert_eq!(
            warn,
            vec!["WARNING: class label 5 specified in weight is not found".to_string()]
        );
        assert!(check_weights(&[ClassWeight {
            label: 1,
            weight: 0.0
        }])
        .is_err());
    }
}
