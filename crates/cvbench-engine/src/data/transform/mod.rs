//! Preprocessing applied after a dataset is loaded, in config order.
//!
//! Configs and the registry write transforms as TOML values of the
//! externally tagged [`Transform`] enum, e.g.
//!
//! ```toml
//! transforms = [
//!     { drop_feature = { index = 1 } },        # 1-based, as in LibSVM files
//!     { map = { from = [2, 4], to = [-1, 1] } },
//!     "even_odd",
//!     { standardize = { center = false } },
//!     { subsample = { n = 1000, seed = 7 } },
//! ]
//! ```
//!
//! - [`columns`]: the column-wise operations the steps are made of
//!   (per-column statistics, maps, dropping a column).
//! - [`scale`]: `svm-scale -s` / `-r`: feature ranges learned on a training
//!   set and applied to others.

use serde::{Deserialize, Serialize};

use super::{DataError, Dataset};
use crate::seed;
use columns::{column_moments, column_range, drop_feature, map_columns, map_sparse_densely};

mod columns;
pub mod scale;

fn default_lower() -> f64 {
    -1.0
}

fn default_upper() -> f64 {
    1.0
}

/// One preprocessing step. Unknown names or fields are rejected with a
/// message listing the allowed ones.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Transform {
    /// Binary labels: `+1` where the label equals `positive`, `-1` elsewhere.
    OneVsRest {
        /// The label value that becomes `+1`.
        positive: f64,
    },
    /// Digit labels to binary: odd digits `+1`, even digits `-1`.
    /// Every label must be an integer.
    EvenOdd,
    /// Relabel: `from[i]` becomes `to[i]`. Every label must be listed.
    Map {
        /// Label values to replace.
        from: Vec<f64>,
        /// Their replacements (same length as `from`).
        to: Vec<f64>,
    },
    /// Remove one feature. `index` is **1-based**, as in LibSVM files
    /// (`index = 1` removes the first feature; in a zero-based file, whose
    /// first feature is `0:`, `index` is the file's, from 0); later
    /// features shift down.
    DropFeature {
        /// 1-based feature number.
        index: usize,
    },
    /// Scale every feature to unit (population) variance; with
    /// `center = true` also subtract the mean (dense data only: centering
    /// sparse data would make it dense). Constant features are left as is.
    Standardize {
        /// Also centre to zero mean (dense only).
        #[serde(default)]
        center: bool,
    },
    /// Scale every feature linearly to `[lower, upper]` (default `[-1, 1]`),
    /// like LIBSVM's `svm-scale`: min and max are over all rows, implicit
    /// zeros of sparse data included; constant features become 0.
    Minmax {
        /// Lower bound (default -1).
        #[serde(default = "default_lower")]
        lower: f64,
        /// Upper bound (default 1).
        #[serde(default = "default_upper")]
        upper: f64,
    },
    /// Divide every feature value by `by` (e.g. 255 for pixel intensities).
    DivideFeatures {
        /// The divisor (finite, non-zero).
        by: f64,
    },
    /// Scale the targets linearly to `[0, 1]` (min → 0, max → 1).
    ScaleTarget,
    /// Keep only the first `n` rows (e.g. the MSD training split).
    First {
        /// Number of rows to keep (at most the dataset's size).
        n: usize,
    },
    /// Keep `n` rows drawn uniformly without replacement, in their original
    /// order. The draw depends only on `seed`.
    Subsample {
        /// Number of rows to keep (at most the dataset's size).
        n: usize,
        /// Seed of the draw (through [`crate::seed`]).
        seed: u64,
    },
}

impl Transform {
    /// The transform's config name (`one_vs_rest`, `standardize`, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            Transform::OneVsRest { .. } => "one_vs_rest",
            Transform::EvenOdd => "even_odd",
            Transform::Map { .. } => "map",
            Transform::DropFeature { .. } => "drop_feature",
            Transform::Standardize { .. } => "standardize",
            Transform::Minmax { .. } => "minmax",
            Transform::DivideFeatures { .. } => "divide_features",
            Transform::ScaleTarget => "scale_target",
            Transform::First { .. } => "first",
            Transform::Subsample { .. } => "subsample",
        }
    }

    /// A short human-readable description with parameters, for provenance.
    pub fn describe(&self) -> String {
        match self {
            Transform::OneVsRest { positive } => format!("one_vs_rest(positive={positive})"),
            Transform::EvenOdd => "even_odd(odd=+1)".into(),
            Transform::Map { from, to } => format!("map({from:?}->{to:?})"),
            Transform::DropFeature { index } => format!("drop_feature({index}, 1-based)"),
            Transform::Standardize { center } => format!("standardize(center={center})"),
            Transform::Minmax { lower, upper } => format!("minmax([{lower},{upper}])"),
            Transform::DivideFeatures { by } => format!("divide_features({by})"),
            Transform::ScaleTarget => "scale_target([0,1])".into(),
            Transform::First { n } => format!("first({n})"),
            Transform::Subsample { n, seed } => format!("subsample({n}, seed={seed})"),
        }
    }

    /// Apply to a dataset, consuming it.
    pub fn apply(&self, mut ds: Dataset) -> Result<Dataset, DataError> {
        let fail = |ds: &Dataset, msg: String| DataError::Transform {
            transform: self.kind().into(),
            dataset: ds.name.clone(),
            msg,
        };
        match self {
            Transform::OneVsRest { positive } => {
                for y in &mut ds.y {
                    *y = if *y == *positive { 1.0 } else { -1.0 };
                }
            }
            Transform::EvenOdd => {
                if let Some(bad) = ds.y.iter().find(|y| y.fract() != 0.0) {
                    return Err(fail(&ds, format!("expected integer labels, found {bad}")));
                }
                for y in &mut ds.y {
                    *y = if (*y as i64).rem_euclid(2) == 1 {
                        1.0
                    } else {
                        -1.0
                    };
                }
            }
            Transform::Map { from, to } => {
                if from.len() != to.len() {
                    return Err(fail(
                        &ds,
                        format!(
                            "`from` has {} values but `to` has {}; they must pair up",
                            from.len(),
                            to.len()
                        ),
                    ));
                }
                for i in 0..ds.y.len() {
                    match from.iter().position(|f| *f == ds.y[i]) {
                        Some(p) => ds.y[i] = to[p],
                        None => {
                            let msg = format!(
                                "row {i} has label {} which is not in `from` {from:?}",
                                ds.y[i]
                            );
                            return Err(fail(&ds, msg));
                        }
                    }
                }
            }
            Transform::DropFeature { index } => {
                // The file's numbering: from 1, or from 0 for a zero-based file.
                let (d, first) = (ds.d(), ds.index_base.offset());
                let Some(j) = index.checked_sub(first).filter(|&j| j < d) else {
                    let (base, last) = match first {
                        1 => ("1-based", d),
                        _ => ("0-based in this file", d.saturating_sub(1)),
                    };
                    let msg =
                        format!("index {index} out of range: indices are {base}, {first}..={last}");
                    return Err(fail(&ds, msg));
                };
                drop_feature(&mut ds.x, j);
            }
            Transform::Standardize { center } => {
                if *center && ds.is_sparse() {
                    return Err(fail(
                        &ds,
                        "center = true on sparse data would make it dense; use center = false \
                         (scale only)"
                            .into(),
                    ));
                }
                let (mean, var) = column_moments(&ds);
                let scale: Vec<f64> = var
                    .iter()
                    .map(|&v| if v > 0.0 { 1.0 / v.sqrt() } else { 1.0 })
                    .collect();
                let shift: Vec<f64> = if *center { mean } else { vec![0.0; ds.d()] };
                map_columns(&mut ds.x, |j, v| (v - shift[j]) * scale[j]);
            }
            Transform::Minmax { lower, upper } => {
                if !(lower.is_finite() && upper.is_finite() && lower < upper) {
                    return Err(fail(
                        &ds,
                        format!("expected finite lower < upper, got [{lower}, {upper}]"),
                    ));
                }
                let (lo, hi) = column_range(&ds);
                let (l, u) = (*lower, *upper);
                let f = |j: usize, v: f64| {
                    if hi[j] > lo[j] {
                        l + (u - l) * (v - lo[j]) / (hi[j] - lo[j])
                    } else {
                        0.0
                    }
                };
                if ds.is_sparse() {
                    // Implicit zeros may map to non-zero values.
                    ds.x = map_sparse_densely(&ds.x, f);
                } else {
                    map_columns(&mut ds.x, f);
                }
            }
            Transform::DivideFeatures { by } => {
                if !(by.is_finite() && *by != 0.0) {
                    return Err(fail(
                        &ds,
                        format!("expected a finite non-zero divisor, got {by}"),
                    ));
                }
                map_columns(&mut ds.x, |_, v| v / by);
            }
            Transform::ScaleTarget => {
                let lo = ds.y.iter().copied().fold(f64::INFINITY, f64::min);
                let hi = ds.y.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                if ds.y.is_empty() || hi <= lo {
                    return Err(fail(
                        &ds,
                        "targets are constant (or the dataset is empty); cannot scale to [0, 1]"
                            .into(),
                    ));
                }
                for y in &mut ds.y {
                    *y = (*y - lo) / (hi - lo);
                }
            }
            Transform::First { n } => {
                if *n > ds.n() {
                    return Err(fail(
                        &ds,
                        format!(
                            "asked for the first {n} rows, but there are only {}",
                            ds.n()
                        ),
                    ));
                }
                let rows: Vec<usize> = (0..*n).collect();
                let name = ds.name.clone();
                ds = ds.subset(&rows, name);
            }
            Transform::Subsample { n, seed } => {
                if *n > ds.n() {
                    return Err(fail(
                        &ds,
                        format!("asked for {n} rows, but there are only {}", ds.n()),
                    ));
                }
                let mut rng = seed::rng(seed::derive(*seed, "data/subsample"));
                let mut rows = rand::seq::index::sample(&mut rng, ds.n(), *n).into_vec();
                rows.sort_unstable();
                let name = ds.name.clone();
                ds = ds.subset(&rows, name);
            }
        }
        Ok(ds)
    }
}

/// Apply transforms in order.
pub fn apply_all(transforms: &[Transform], mut ds: Dataset) -> Result<Dataset, DataError> {
    for t in transforms {
        ds = t.apply(ds)?;
    }
    Ok(ds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::read::libsvm::read_libsvm_from;
    use std::path::Path;

    fn sparse(text: &str) -> Dataset {
        read_libsvm_from(text.as_bytes(), Path::new("t"), None).unwrap()
    }

    fn dense(rows: &[&[f64]], y: &[f64]) -> Dataset {
        let rows: Vec<Vec<f64>> = rows.iter().map(|r| r.to_vec()).collect();
        Dataset::from_dense_rows("t", &rows, y.to_vec())
    }

    fn parse(toml_text: &str) -> Result<Vec<Transform>, toml::de::Error> {
        #[derive(Deserialize)]
        struct W {
            transforms: Vec<Transform>,
        }
        toml::from_str::<W>(toml_text).map(|w| w.transforms)
    }

    #[test]
    fn config_syntax_parses_and_rejects_unknowns() {
        let t = parse(
            r#"transforms = [
                { one_vs_rest = { positive = 1 } }, "even_odd",
                { map = { from = [2, 4], to = [-1, 1] } },
                { drop_feature = { index = 1 } }, { standardize = {} },
                { standardize = { center = true } }, { minmax = {} },
                { divide_features = { by = 255 } }, "scale_target",
                { first = { n = 3 } }, { subsample = { n = 2, seed = 9 } } ]"#,
        )
        .unwrap();
        assert_eq!(t.len(), 11);
        assert_eq!(t[4], Transform::Standardize { center: false });
        assert_eq!(
            t[6],
            Transform::Minmax {
                lower: -1.0,
                upper: 1.0
            }
        );
        let e = parse(r#"transforms = [{ standardise = {} }]"#).unwrap_err();
        assert!(e.to_string().contains("standardize"), "{e}");
        let e = parse(r#"transforms = [{ first = { n = 3, m = 1 } }]"#).unwrap_err();
        assert!(e.to_string().contains("available keys: n"), "{e}");
    }

    #[test]
    fn one_vs_rest_even_odd_map() {
        let ds = dense(&[&[1.0], &[2.0], &[3.0]], &[1.0, 7.0, 4.0]);
        let a = Transform::OneVsRest { positive: 1.0 }
            .apply(ds.clone())
            .unwrap();
        assert_eq!(a.y, vec![1.0, -1.0, -1.0]);
        let b = Transform::EvenOdd.apply(ds.clone()).unwrap();
        assert_eq!(b.y, vec![1.0, 1.0, -1.0]);
        let m = Transform::Map {
            from: vec![1.0, 7.0, 4.0],
            to: vec![0.0, 0.0, 1.0],
        };
        assert_eq!(m.apply(ds.clone()).unwrap().y, vec![0.0, 0.0, 1.0]);
        let partial = Transform::Map {
            from: vec![1.0],
            to: vec![0.0],
        };
        let e = partial.apply(ds.clone()).unwrap_err().to_string();
        assert!(e.contains("label 7") && e.contains("map"), "{e}");
        let half = dense(&[&[1.0]], &[0.5]);
        assert!(Transform::EvenOdd.apply(half).is_err());
    }

    #[test]
    fn drop_feature_dense_and_sparse() {
        let t = Transform::DropFeature { index: 1 };
        let d = t
            .apply(dense(&[&[9.0, 1.0, 2.0], &[8.0, 3.0, 0.0]], &[1.0, -1.0]))
            .unwrap();
        assert_eq!(d.d(), 2);
        assert_eq!(d.row(1).to_dense(2), vec![3.0, 0.0]);
        let s = t.apply(sparse("1 1:9 2:1 3:2\n-1 2:3\n1 1:5\n")).unwrap();
        assert_eq!(s.d(), 2);
        assert_eq!(s.row(0).to_dense(2), vec![1.0, 2.0]);
        assert_eq!(s.row(1).to_dense(2), vec![3.0, 0.0]);
        assert_eq!(s.row(2).to_dense(2), vec![0.0, 0.0]);
        let e = Transform::DropFeature { index: 0 }.apply(s).unwrap_err();
        assert!(e.to_string().contains("1-based"), "{e}");
        // A zero-based file: the index is the file's own (0 is its first).
        let z = Transform::DropFeature { index: 0 };
        let z = z.apply(sparse("1 0:9 1:1 2:2\n")).unwrap();
        assert_eq!(z.row(0).to_dense(z.d()), vec![1.0, 2.0]);
        let e = Transform::DropFeature { index: 2 }.apply(z).unwrap_err();
        assert!(e.to_string().contains("0-based in this file, 0..=1"), "{e}");
    }

    #[test]
    fn standardize_dense_and_sparse_agree() {
        let rows: &[&[f64]] = &[
            &[1.0, 0.0, 5.0],
            &[3.0, 2.0, 5.0],
            &[0.0, 4.0, 5.0],
            &[0.0, 0.0, 5.0],
        ];
        let y = [1.0, -1.0, 1.0, -1.0];
        let t = Transform::Standardize { center: false };
        let d = t.apply(dense(rows, &y)).unwrap();
        let s = t
            .apply(sparse("1 1:1 3:5\n-1 1:3 2:2 3:5\n1 2:4 3:5\n-1 3:5\n"))
            .unwrap();
        for i in 0..4 {
            let (a, b) = (d.row(i).to_dense(3), s.row(i).to_dense(3));
            for j in 0..3 {
                assert!((a[j] - b[j]).abs() < 1e-12);
            }
        }
        // Unit variance after scaling; the constant column is untouched.
        let (_, var) = column_moments(&d);
        assert!((var[0] - 1.0).abs() < 1e-12 && (var[1] - 1.0).abs() < 1e-12);
        assert_eq!(d.row(0).to_dense(3)[2], 5.0);
        let c = Transform::Standardize { center: true }
            .apply(dense(rows, &y))
            .unwrap();
        let (mean, var) = column_moments(&c);
        assert!(mean[0].abs() < 1e-12 && (var[0] - 1.0).abs() < 1e-12);
        let e = Transform::Standardize { center: true }
            .apply(sparse("1 1:1\n"))
            .unwrap_err();
        assert!(e.to_string().contains("dense"), "{e}");
    }

    #[test]
    fn minmax_like_svm_scale() {
        let t = Transform::Minmax {
            lower: -1.0,
            upper: 1.0,
        };
        let d = t
            .apply(dense(&[&[0.0, 7.0], &[5.0, 7.0], &[10.0, 7.0]], &[1.0; 3]))
            .unwrap();
        assert_eq!(d.row(0).to_dense(2), vec![-1.0, 0.0]);
        assert_eq!(d.row(1).to_dense(2), vec![0.0, 0.0]);
        assert_eq!(d.row(2).to_dense(2), vec![1.0, 0.0]);
        // Sparse: implicit zeros count for the range and are mapped too.
        let s = t.apply(sparse("1 1:2\n1 1:4\n1 2:1\n")).unwrap();
        assert_eq!(s.row(0).to_dense(2), vec![0.0, -1.0]);
        assert_eq!(s.row(2).to_dense(2), vec![-1.0, 1.0]);
    }

    #[test]
    fn divide_and_scale_target() {
        let ds = dense(&[&[255.0, 51.0], &[0.0, 0.0]], &[1990.0, 2010.0]);
        let d = Transform::DivideFeatures { by: 255.0 }
            .apply(ds.clone())
            .unwrap();
        assert_eq!(d.row(0).to_dense(2), vec![1.0, 0.2]);
        let s = Transform::ScaleTarget.apply(ds).unwrap();
        assert_eq!(s.y, vec![0.0, 1.0]);
        let flat = dense(&[&[1.0]], &[3.0]);
        assert!(Transform::ScaleTarget.apply(flat).is_err());
        assert!(Transform::DivideFeatures { by: 0.0 }.apply(d).is_err());
    }

    #[test]
    fn first_and_subsample() {
        let rows: Vec<Vec<f64>> = (0..100).map(|i| vec![i as f64]).collect();
        let ds = Dataset::from_dense_rows("t", &rows, (0..100).map(f64::from).collect());
        let f = Transform::First { n: 10 }.apply(ds.clone()).unwrap();
        assert_eq!(f.y, (0..10).map(f64::from).collect::<Vec<_>>());
        let t = Transform::Subsample { n: 20, seed: 5 };
        let a = t.apply(ds.clone()).unwrap();
        let b = t.apply(ds.clone()).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.n(), 20);
        assert!(a.y.windows(2).all(|w| w[0] < w[1]), "original order kept");
        let c = Transform::Subsample { n: 20, seed: 6 }
            .apply(ds.clone())
            .unwrap();
        assert_ne!(a.y, c.y);
        assert!(Transform::First { n: 101 }.apply(ds.clone()).is_err());
        assert!(Transform::Subsample { n: 101, seed: 1 }.apply(ds).is_err());
    }

    #[test]
    fn apply_all_in_order() {
        let ds = dense(&[&[1.0, 2.0], &[3.0, 4.0]], &[2.0, 4.0]);
        let out = apply_all(
            &[
                Transform::DropFeature { index: 1 },
                Transform::Map {
                    from: vec![2.0, 4.0],
                    to: vec![-1.0, 1.0],
                },
            ],
            ds,
        )
        .unwrap();
        assert_eq!((out.d(), out.y.clone()), (1, vec![-1.0, 1.0]));
    }
}
