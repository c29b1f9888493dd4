//! Column-wise operations on a dataset's features, what the transforms
//! ([`super`]) are made of: per-column statistics (mean and
//! variance, min and max, implicit zeros of sparse data included), a map
//! over every stored value or over every entry of a sparse matrix, and
//! removing a column.

use crate::data::{Dataset, Features};

/// Apply `f(column, value)` to every stored value (implicit sparse zeros are
/// not visited, so `f(j, 0)` must be 0 for sparse data).
pub(super) fn map_columns(x: &mut Features, f: impl Fn(usize, f64) -> f64) {
    match x {
        Features::Dense { d, values } => {
            let d = *d;
            if d == 0 {
                return;
            }
            for row in values.chunks_mut(d) {
                for (j, v) in row.iter_mut().enumerate() {
                    *v = f(j, *v);
                }
            }
        }
        Features::Sparse {
            indices, values, ..
        } => {
            for (&j, v) in indices.iter().zip(values.iter_mut()) {
                *v = f(j as usize, *v);
            }
        }
    }
}

/// Apply `f` to every entry of a sparse matrix, implicit zeros included;
/// zeros of the result are dropped again.
pub(super) fn map_sparse_densely(x: &Features, f: impl Fn(usize, f64) -> f64) -> Features {
    let Features::Sparse {
        d,
        indptr,
        indices,
        values,
    } = x
    else {
        return x.clone();
    };
    let d = *d;
    let zero_image: Vec<f64> = (0..d).map(|j| f(j, 0.0)).collect();
    let n = indptr.len() - 1;
    let mut new_ptr = Vec::with_capacity(n + 1);
    let (mut new_idx, mut new_val) = (Vec::new(), Vec::new());
    new_ptr.push(0);
    let mut dense = vec![0.0; d];
    for i in 0..n {
        dense.copy_from_slice(&zero_image);
        for p in indptr[i]..indptr[i + 1] {
            let j = indices[p] as usize;
            dense[j] = f(j, values[p]);
        }
        for (j, &v) in dense.iter().enumerate() {
            if v != 0.0 {
                new_idx.push(j as u32);
                new_val.push(v);
            }
        }
        new_ptr.push(new_idx.len());
    }
    Features::Sparse {
        d,
        indptr: new_ptr,
        indices: new_idx,
        values: new_val,
    }
}

/// Per-column mean and population variance (implicit zeros included).
pub(super) fn column_moments(ds: &Dataset) -> (Vec<f64>, Vec<f64>) {
    let (n, d) = (ds.n(), ds.d());
    let mut mean = vec![0.0; d];
    let mut var = vec![0.0; d];
    if n == 0 {
        return (mean, var);
    }
    let nf = n as f64;
    match &ds.x {
        Features::Dense { values, .. } => {
            if d == 0 {
                return (mean, var);
            }
            for row in values.chunks(d) {
                for (m, v) in mean.iter_mut().zip(row) {
                    *m += v;
                }
            }
            mean.iter_mut().for_each(|m| *m /= nf);
            for row in values.chunks(d) {
                for j in 0..d {
                    let c = row[j] - mean[j];
                    var[j] += c * c;
                }
            }
        }
        Features::Sparse {
            indices, values, ..
        } => {
            let mut nnz = vec![0usize; d];
            for (&j, &v) in indices.iter().zip(values) {
                mean[j as usize] += v;
                nnz[j as usize] += 1;
            }
            mean.iter_mut().for_each(|m| *m /= nf);
            for (&j, &v) in indices.iter().zip(values) {
                let c = v - mean[j as usize];
                var[j as usize] += c * c;
            }
            for j in 0..d {
                var[j] += (n - nnz[j]) as f64 * mean[j] * mean[j];
            }
        }
    }
    var.iter_mut().for_each(|v| *v /= nf);
    (mean, var)
}

/// Per-column min and max (implicit zeros of sparse data included).
pub(super) fn column_range(ds: &Dataset) -> (Vec<f64>, Vec<f64>) {
    let d = ds.d();
    let mut lo = vec![f64::INFINITY; d];
    let mut hi = vec![f64::NEG_INFINITY; d];
    match &ds.x {
        Features::Dense { values, .. } => {
            if d > 0 {
                for row in values.chunks(d) {
                    for j in 0..d {
                        lo[j] = lo[j].min(row[j]);
                        hi[j] = hi[j].max(row[j]);
                    }
                }
            }
        }
        Features::Sparse {
            indptr,
            indices,
            values,
            ..
        } => {
            let mut nnz = vec![0usize; d];
            for (&j, &v) in indices.iter().zip(values) {
                let j = j as usize;
                lo[j] = lo[j].min(v);
                hi[j] = hi[j].max(v);
                nnz[j] += 1;
            }
            let n = indptr.len() - 1;
            for j in 0..d {
                if nnz[j] < n {
                    lo[j] = lo[j].min(0.0);
                    hi[j] = hi[j].max(0.0);
                }
            }
        }
    }
    (lo, hi)
}

/// Remove 0-based column `c`.
pub(super) fn drop_feature(x: &mut Features, c: usize) {
    match x {
        Features::Dense { d, values } => {
            let old = *d;
            let mut out = Vec::with_capacity(values.len() / old.max(1) * (old - 1));
            for row in values.chunks(old) {
                out.extend_from_slice(&row[..c]);
                out.extend_from_slice(&row[c + 1..]);
            }
            *values = out;
            *d = old - 1;
        }
        Features::Sparse {
            d,
            indptr,
            indices,
            values,
        } => {
            let n = indptr.len() - 1;
            let mut new_ptr = Vec::with_capacity(n + 1);
            new_ptr.push(0);
            let (mut w, c) = (0usize, c as u32);
            for i in 0..n {
                for p in indptr[i]..indptr[i + 1] {
                    let j = indices[p];
                    if j == c {
                        continue;
                    }
                    indices[w] = if j > c { j - 1 } else { j };
                    values[w] = values[p];
                    w += 1;
                }
                new_ptr.push(w);
            }
            indices.truncate(w);
            values.truncate(w);
            *indptr = new_ptr;
            *d -= 1;
        }
    }
}
