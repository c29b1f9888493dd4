//! Datasets joined row-wise: one dataset's rows followed by another's (a
//! training set and its test split as one larger set, e.g. a9a's 32,561
//! training rows and 16,281 test rows as issue 58's 48,842-row binary set).
//!
//! The feature numbering is made common first ([`super::align_index_bases`]:
//! a file index means the same feature in both), the result has the larger
//! feature count, and it is sparse where either part is (dense rows keep
//! their non-zeros), else dense. Labels and values are kept as they are.

use super::{align_index_bases, Dataset, Features};

/// `a`'s rows then `b`'s, named `a`'s name (see the module doc).
pub fn concat(mut a: Dataset, mut b: Dataset) -> Dataset {
    align_index_bases(&mut a, &mut b);
    let d = a.d().max(b.d());
    let x = match (a.x, b.x) {
        (Features::Dense { d: da, values: va }, Features::Dense { d: db, values: vb }) => {
            let mut values = Vec::with_capacity((a.y.len() + b.y.len()) * d);
            for (dx, vx, n) in [(da, va, a.y.len()), (db, vb, b.y.len())] {
                for i in 0..n {
                    values.extend_from_slice(&vx[i * dx..(i + 1) * dx]);
                    values.resize(values.len() + (d - dx), 0.0);
                }
            }
            Features::Dense { d, values }
        }
        (xa, xb) => {
            let (mut indptr, mut indices, mut values) = (vec![0usize], Vec::new(), Vec::new());
            for (x, n) in [(xa, a.y.len()), (xb, b.y.len())] {
                push_sparse(&x, n, &mut indptr, &mut indices, &mut values);
            }
            Features::Sparse {
                d,
                indptr,
                indices,
                values,
            }
        }
    };
    let mut y = a.y;
    y.extend_from_slice(&b.y);
    Dataset {
        index_base: a.index_base,
        name: a.name,
        x,
        y,
    }
}

/// The `n` rows of `x` appended to a CSR's arrays (a dense row's non-zeros).
fn push_sparse(
    x: &Features,
    n: usize,
    indptr: &mut Vec<usize>,
    indices: &mut Vec<u32>,
    values: &mut Vec<f64>,
) {
    match x {
        Features::Sparse {
            indptr: p,
            indices: ix,
            values: vs,
            ..
        } => {
            for i in 0..n {
                indices.extend_from_slice(&ix[p[i]..p[i + 1]]);
                values.extend_from_slice(&vs[p[i]..p[i + 1]]);
                indptr.push(indices.len());
            }
        }
        Features::Dense { d, values: vs } => {
            for i in 0..n {
                for (j, &v) in vs[i * d..(i + 1) * d].iter().enumerate() {
                    if v != 0.0 {
                        indices.push(j as u32);
                        values.push(v);
                    }
                }
                indptr.push(indices.len());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::IndexBase;

    fn sparse(d: usize, rows: &[&[(u32, f64)]], y: &[f64]) -> Dataset {
        let mut indptr = vec![0];
        let (mut ix, mut vs) = (Vec::new(), Vec::new());
        for r in rows {
            for &(j, v) in *r {
                ix.push(j);
                vs.push(v);
            }
            indptr.push(ix.len());
        }
        Dataset::from_csr("a", d, indptr, ix, vs, y.to_vec())
    }

    #[test]
    fn rows_follow_each_other_with_the_wider_feature_count() {
        let a = sparse(3, &[&[(0, 1.0), (2, 2.0)], &[]], &[1.0, -1.0]);
        let b = sparse(5, &[&[(4, 3.0)]], &[1.0]);
        let j = concat(a, b.clone());
        assert_eq!((j.n(), j.d(), j.name.as_str()), (3, 5, "a"));
        assert_eq!(j.y, vec![1.0, -1.0, 1.0]);
        assert_eq!(j.row(0).to_dense(5), vec![1.0, 0.0, 2.0, 0.0, 0.0]);
        assert_eq!(j.row(1).to_dense(5), vec![0.0; 5]);
        assert_eq!(j.row(2).to_dense(5), vec![0.0, 0.0, 0.0, 0.0, 3.0]);
        // Dense with dense: dense, padded; dense with sparse: sparse.
        let da = Dataset::from_dense_rows("da", &[vec![1.0, 0.0], vec![0.0, 4.0]], vec![1.0, 2.0]);
        let db = Dataset::from_dense_rows("db", &[vec![5.0, 6.0, 7.0]], vec![3.0]);
        let j = concat(da.clone(), db);
        assert!(!j.is_sparse());
        assert_eq!(j.row(0).to_dense(3), vec![1.0, 0.0, 0.0]);
        assert_eq!(j.row(2).to_dense(3), vec![5.0, 6.0, 7.0]);
        let j = concat(da, b);
        assert!(j.is_sparse());
        assert_eq!(j.d(), 5);
        assert_eq!(j.row(1).to_dense(5), vec![0.0, 4.0, 0.0, 0.0, 0.0]);
        assert_eq!(j.row(2).to_dense(5), vec![0.0, 0.0, 0.0, 0.0, 3.0]);
    }

    #[test]
    fn a_file_index_means_the_same_feature_in_both_parts() {
        // `a` from a file with index 0 (its feature 0 is the file's 0),
        // `b` from a 1-based file (its feature 0 is the file's 1).
        let mut a = sparse(2, &[&[(0, 1.0)]], &[1.0]);
        a.index_base = IndexBase::Zero;
        let b = sparse(2, &[&[(0, 2.0)]], &[1.0]);
        let j = concat(a, b);
        assert_eq!(j.index_base, IndexBase::Zero);
        assert_eq!(j.row(0).to_dense(3), vec![1.0, 0.0, 0.0]);
        assert_eq!(j.row(1).to_dense(3), vec![0.0, 2.0, 0.0]);
    }
}
