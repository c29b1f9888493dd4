//! A one-vs-one C-SVC model laid out as LIBSVM's `svm_model`, and its
//! prediction by voting (`svm_predict_values`).

use crate::data::{Dataset, Row};
use crate::svm::kernel::{k_function, KernelKind};
use crate::svm::model::solution::SvmModel;

/// A trained C-SVC with any number of classes, as LIBSVM stores it: the
/// support vectors grouped by class (class order of `labels`), and for each
/// class pair `(i, j)`, `i < j` (in that order, `p = 0, 1, ...`), a decision
/// function whose coefficients for class `i`'s support vectors are in
/// column `j - 1` and for class `j`'s in column `i` of `sv_coef`.
#[derive(Clone, Debug)]
pub struct MultiModel {
    /// The kernel.
    pub kernel: KernelKind,
    /// The class labels, in LIBSVM's order.
    pub labels: Vec<f64>,
    /// Support vectors per class.
    pub nr_sv: Vec<usize>,
    /// The support vectors, grouped by class.
    pub sv: Dataset,
    /// Row of each support vector in the training dataset (empty for a
    /// model read from a file).
    pub sv_rows: Vec<usize>,
    /// `nr_class - 1` columns of one coefficient per support vector.
    pub sv_coef: Vec<Vec<f64>>,
    /// The bias of each pair's decision function.
    pub rho: Vec<f64>,
    /// Platt's `(probA, probB)` of each pair, for probability estimates
    /// (`svm-train -b 1`; [`super::probability`]).
    pub prob: Option<(Vec<f64>, Vec<f64>)>,
}

impl MultiModel {
    /// A binary (or single-class) model laid out as LIBSVM stores it: two
    /// classes, one pair, `labels[0]`'s support vectors (coefficient > 0)
    /// first, as [`SvmModel`] holds them; its decision value and prediction
    /// are [`SvmModel`]'s, summed in the same order.
    pub fn from_binary(m: &SvmModel) -> MultiModel {
        let first = m.sv_coef.iter().filter(|&&c| c > 0.0).count();
        let (nr_sv, rho) = if m.labels.len() == 2 {
            (vec![first, m.sv_coef.len() - first], vec![m.rho])
        } else {
            (vec![m.sv_coef.len()], vec![])
        };
        MultiModel {
            kernel: m.kernel,
            labels: m.labels.clone(),
            nr_sv,
            sv: m.sv.clone(),
            sv_rows: m.sv_rows.clone(),
            sv_coef: if m.labels.len() == 2 {
                vec![m.sv_coef.clone()]
            } else {
                vec![]
            },
            rho,
            prob: None,
        }
    }

    /// Number of classes.
    pub fn nr_class(&self) -> usize {
        self.labels.len()
    }

    /// Number of support vectors.
    pub fn total_sv(&self) -> usize {
        self.nr_sv.iter().sum()
    }

    /// Each pair's decision value for `x` (LIBSVM's `dec_values`), in pair
    /// order, summed as `svm_predict_values` sums them: class `i`'s support
    /// vectors, then class `j`'s, then `- rho`.
    pub fn decision_values(&self, x: Row<'_>) -> Vec<f64> {
        let kvalue: Vec<f64> = (0..self.sv.n())
            .map(|s| k_function(self.kernel, x, self.sv.row(s)))
            .collect();
        self.decision_values_of(&kvalue)
    }

    /// [`MultiModel::decision_values`] from the kernel values of `x` with
    /// every support vector.
    pub fn decision_values_of(&self, kvalue: &[f64]) -> Vec<f64> {
        let k = self.nr_class();
        let mut start = vec![0usize; k];
        for i in 1..k {
            start[i] = start[i - 1] + self.nr_sv[i - 1];
        }
        let mut dec = Vec::with_capacity(k * k.saturating_sub(1) / 2);
        let mut p = 0;
        for i in 0..k {
            for j in i + 1..k {
                let (si, sj) = (start[i], start[j]);
                let (ci, cj) = (self.nr_sv[i], self.nr_sv[j]);
                let (coef1, coef2) = (&self.sv_coef[j - 1], &self.sv_coef[i]);
                let mut sum = 0.0;
                for t in si..si + ci {
                    sum += coef1[t] * kvalue[t];
                }
                for t in sj..sj + cj {
                    sum += coef2[t] * kvalue[t];
                }
                sum -= self.rho[p];
                dec.push(sum);
                p += 1;
            }
        }
        dec
    }

    /// The predicted label of `x`: one vote per pair (to `i` when its
    /// decision value is > 0, else to `j`); the first class with the most
    /// votes wins.
    pub fn predict(&self, x: Row<'_>) -> f64 {
        self.vote(&self.decision_values(x))
    }

    /// The label that `dec` (one decision value per pair) votes for.
    pub fn vote(&self, dec: &[f64]) -> f64 {
        let k = self.nr_class();
        let mut votes = vec![0usize; k];
        let mut p = 0;
        for i in 0..k {
            for j in i + 1..k {
                if dec[p] > 0.0 {
                    votes[i] += 1;
                } else {
                    votes[j] += 1;
                }
                p += 1;
            }
        }
        let mut best = 0;
        for c in 1..k {
            if votes[c] > votes[best] {
                best = c;
            }
        }
        self.labels[best]
    }
}
