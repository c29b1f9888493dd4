//! A one-vs-one CV's rows laid out class by class.
//!
//! Every class pair's problem reads its kernel values from whole columns of
//! the shared cache ([`crate::svm::kernel::matrix::shared_cache`]), one column entry per
//! row of the pair. With the rows in file order those entries are spread
//! over the whole column (a 26-class set reads about one entry per cache
//! line of every column it touches); with the rows grouped by class they are
//! two contiguous ranges. The CV therefore runs on a copy of the dataset
//! whose rows are grouped by class (classes in order of first appearance),
//! and within a class by fold (each fold's rows in the fold's order), with
//! the folds mapped to the copy's positions: each fold's rows keep their
//! order, so every (fold, pair) problem has the same rows in the same order
//! as before (LIBSVM's), and the same solve; only the rows' numbers change,
//! and the predictions are mapped back. A training set (the other folds'
//! rows, fold after fold, grouped by class) is then a run of consecutive
//! rows per class with one hole, the held-out fold: its `Q` columns are
//! copies of column ranges ([`crate::svm::cache::qmatrix`]).

use crate::data::Dataset;
use crate::svm::cv::folds::Folds;

/// The dataset with its rows grouped by class, and where each row went.
#[derive(Debug)]
pub struct ClassOrder {
    /// The rows grouped by class.
    pub ds: Dataset,
    /// `pos[r]`: the position of the caller's row `r` in [`ClassOrder::ds`].
    pub pos: Vec<usize>,
}

impl ClassOrder {
    /// Group the rows of `ds` by class, and within a class by fold (`folds`:
    /// each fold's rows in its order; rows in no fold last, in file order).
    pub fn new(ds: &Dataset, folds: &Folds) -> ClassOrder {
        let mut classes: Vec<u64> = Vec::new();
        let class_of: Vec<usize> =
            ds.y.iter()
                .map(|y| {
                    let key = y.to_bits();
                    match classes.iter().position(|&c| c == key) {
                        Some(c) => c,
                        None => {
                            classes.push(key);
                            classes.len() - 1
                        }
                    }
                })
                .collect();
        // (fold, position in it) of each row.
        let mut in_fold = vec![(folds.k(), 0); ds.n()];
        for (f, rows) in folds.folds.iter().enumerate() {
            for (at, &r) in rows.iter().enumerate() {
                if let Some(slot) = in_fold.get_mut(r) {
                    *slot = (f, at);
                }
            }
        }
        let mut perm: Vec<usize> = (0..ds.n()).collect();
        perm.sort_by_key(|&r| (class_of[r], in_fold[r])); // stable
        let mut pos = vec![0; ds.n()];
        for (p, &r) in perm.iter().enumerate() {
            pos[r] = p;
        }
        ClassOrder {
            ds: ds.subset(&perm, ds.name.clone()),
            pos,
        }
    }

    /// `folds` over the grouped rows: each fold's rows, in their order.
    pub fn folds(&self, folds: &Folds) -> Folds {
        Folds {
            n: folds.n,
            folds: folds
                .folds
                .iter()
                .map(|f| f.iter().map(|&r| self.pos[r]).collect())
                .collect(),
            kind: folds.kind.clone(),
        }
    }

    /// Per-row values of the grouped rows back in the caller's row order.
    pub fn back<T: Copy>(&self, values: &[T]) -> Vec<T> {
        self.pos.iter().map(|&p| values[p]).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_grouped_stably_and_map_back() {
        let rows: Vec<Vec<f64>> = (0..7).map(|i| vec![i as f64]).collect();
        let y = vec![3.0, -1.0, 3.0, 0.0, -1.0, 3.0, 0.0];
        let ds = Dataset::from_dense_rows("synthetic-order", &rows, y);
        let folds = Folds {
            n: 7,
            folds: vec![vec![6, 0, 3], vec![1, 5, 2, 4]],
            kind: "test".into(),
        };
        let o = ClassOrder::new(&ds, &folds);
        assert_eq!(o.ds.y, vec![3.0, 3.0, 3.0, -1.0, -1.0, 0.0, 0.0]);
        // Class 3: row 0 (fold 0), then rows 5 and 2 (fold 1, in its order).
        let x: Vec<f64> = (0..7).map(|p| o.ds.row(p).to_dense(1)[0]).collect();
        assert_eq!(x, vec![0.0, 5.0, 2.0, 1.0, 4.0, 6.0, 3.0]);
        let f = o.folds(&folds);
        assert_eq!(f.folds, vec![vec![5, 0, 6], vec![3, 1, 2, 4]]);
        // Each training set's rows of a class are consecutive but for the
        // held-out fold's.
        assert_eq!(f.train_rows(0), vec![3, 1, 2, 4]);
        let values: Vec<f64> = o.ds.y.clone();
        assert_eq!(o.back(&values), ds.y);
    }

    #[test]
    fn a_cv_predicts_each_row_as_its_folds_model_does() {
        use crate::svm::kernel::KernelData;
        use crate::svm::multiclass::{cross_validate_ovo, train_ovo, OvoCvOptions};
        use crate::svm::{cv::strategy::CacheMode, model::params::SvmParams};
        // Three interleaved classes, so that grouping moves every row.
        let rows: Vec<Vec<f64>> = (0..60)
            .map(|i| {
                vec![
                    ((i * 7) as f64 * 0.3).sin() + (i % 3) as f64,
                    (i as f64 * 0.11).cos(),
                ]
            })
            .collect();
        let y = (0..60).map(|i| [5.0, -1.0, 2.0][i % 3]).collect();
        let ds = Dataset::from_dense_rows("synthetic-interleaved", &rows, y);
        let folds = Folds::libsvm(&ds, 4).expect("folds");
        let params = SvmParams::rbf(4.0, 0.8);
        for cache in [CacheMode::PerSolve, CacheMode::Shared] {
            let opts = OvoCvOptions {
                cache,
                threads: 2,
                probability: None,
            };
            let res = cross_validate_ovo(&ds, &folds, &params, &[], opts).expect("a CV");
            if cache == CacheMode::Shared {
                // The kernel matrix filled up front counts (60 rows: it fits).
                let matrix = crate::svm::kernel::matrix::matrix_evals(60);
                assert_eq!(res.shared_evals, matrix);
                assert!(res.kernel_evals > matrix);
            }
            let kd = KernelData::new(&ds, params.kernel);
            let checked = params.check().expect("valid parameters");
            for h in 0..folds.k() {
                let model = train_ovo(&kd, &folds.train_rows(h), &checked, &[], None, None)
                    .expect("a model")
                    .model;
                for &r in folds.test_rows(h) {
                    assert_eq!(res.predictions[r], model.predict(ds.row(r)), "row {r}");
                }
            }
        }
    }
}
