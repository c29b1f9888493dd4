//! Datasets: dense and sparse (CSR) feature storage, labels/targets, readers,
//! the dataset registry, fetching with checksums, synthetic generators and
//! preprocessing transforms.
//!
//! - [`atomic`]: output files written whole or not at all; one-file checks.
//! - [`compress`]: open files with transparent `.xz`/`.bz2`/`.gz`/`.zip` decompression.
//! - [`libsvm`], [`idx`], [`uci`]: readers (and the LibSVM writer).
//! - [`limits`]: size checks against what an input can mean and the machine's memory.
//! - [`transform`]: config-facing preprocessing steps.
//! - [`registry`]: named datasets (`registry.toml`), the data directory,
//!   checksum verification and availability status.
//! - [`fetch`]: verified, atomic downloads of registry datasets.
//! - [`verified`]: registry files checked against their sha256 on first use (cached).
//! - [`synthetic`]: seeded generators (names always contain "synthetic").
//! - [`spec`]: the config-facing [`DatasetSpec`] tying it all together.
//! - [`error`]: the single error type [`DataError`].

use std::fmt;

pub mod atomic;
pub mod compress;
pub mod data_dir;
pub mod error;
#[cfg(feature = "harness")]
pub mod fetch;
pub mod idx;
pub mod libsvm;
pub mod limits;
pub mod registry;
pub mod scale;
pub mod spec;
pub mod status;
pub mod synthetic;
pub mod transform;
pub mod uci;
pub mod verified;

pub use data_dir::DataDir;
pub use error::DataError;
pub use libsvm::{read_libsvm, write_libsvm};
pub use registry::{DatasetEntry, Registry};
pub use spec::DatasetSpec;
pub use synthetic::SyntheticSpec;
pub use transform::Transform;

/// One row of a [`Dataset`], borrowed from dense or CSR storage.
#[derive(Clone, Copy, Debug)]
pub enum Row<'a> {
    /// All `d` values of a dense row.
    Dense(&'a [f64]),
    /// The non-zero entries of a sparse row: 0-based sorted indices and values.
    Sparse(&'a [u32], &'a [f64]),
}

impl<'a> Row<'a> {
    /// Inner product with a dense vector `w` (whose length is the feature count).
    #[inline]
    pub fn dot(&self, w: &[f64]) -> f64 {
        match *self {
            Row::Dense(x) => x.iter().zip(w).map(|(a, b)| a * b).sum(),
            Row::Sparse(idx, val) => idx.iter().zip(val).map(|(&j, &v)| v * w[j as usize]).sum(),
        }
    }

    /// `w += a * x`.
    #[inline]
    pub fn axpy(&self, a: f64, w: &mut [f64]) {
        match *self {
            Row::Dense(x) => {
                for (wi, xi) in w.iter_mut().zip(x) {
                    *wi += a * xi;
                }
            }
            Row::Sparse(idx, val) => {
                for (&j, &v) in idx.iter().zip(val) {
                    w[j as usize] += a * v;
                }
            }
        }
    }

    /// Number of stored values: the non-zeros of a sparse row, every value
    /// of a dense one.
    #[inline]
    pub fn stored(&self) -> usize {
        match *self {
            Row::Dense(x) => x.len(),
            Row::Sparse(idx, _) => idx.len(),
        }
    }

    /// Squared Euclidean norm `||x||^2`.
    #[inline]
    pub fn norm_sq(&self) -> f64 {
        match *self {
            Row::Dense(x) => x.iter().map(|v| v * v).sum(),
            Row::Sparse(_, val) => val.iter().map(|v| v * v).sum(),
        }
    }

    /// Inner product of two rows of the same dataset (dense·dense or sparse·sparse;
    /// mixed rows are handled too).
    #[inline]
    pub fn dot_row(&self, other: &Row<'_>) -> f64 {
        match (*self, *other) {
            (Row::Dense(a), Row::Dense(b)) => a.iter().zip(b).map(|(x, y)| x * y).sum(),
            (Row::Sparse(ia, va), Row::Sparse(ib, vb)) => {
                let (mut p, mut q, mut s) = (0usize, 0usize, 0.0);
                while p < ia.len() && q < ib.len() {
                    match ia[p].cmp(&ib[q]) {
                        std::cmp::Ordering::Equal => {
                            s += va[p] * vb[q];
                            p += 1;
                            q += 1;
                        }
                        std::cmp::Ordering::Less => p += 1,
                        std::cmp::Ordering::Greater => q += 1,
                    }
                }
                s
            }
            (Row::Dense(a), Row::Sparse(i, v)) | (Row::Sparse(i, v), Row::Dense(a)) => i
                .iter()
                .zip(v)
                .map(|(&j, &x)| x * a.get(j as usize).copied().unwrap_or(0.0))
                .sum(),
        }
    }

    /// The row as a dense vector of length `d`.
    pub fn to_dense(&self, d: usize) -> Vec<f64> {
        match *self {
            Row::Dense(x) => x.to_vec(),
            Row::Sparse(idx, val) => {
                let mut out = vec![0.0; d];
                for (&j, &v) in idx.iter().zip(val) {
                    out[j as usize] = v;
                }
                out
            }
        }
    }
}

/// Feature storage: row-major dense, or compressed sparse rows.
#[derive(Clone, Debug, PartialEq)]
pub enum Features {
    /// Row-major `n × d` values.
    Dense {
        /// Number of features.
        d: usize,
        /// `n * d` values, row after row.
        values: Vec<f64>,
    },
    /// Compressed sparse rows.
    Sparse {
        /// Number of features.
        d: usize,
        /// Row `i` occupies `indices[indptr[i]..indptr[i+1]]`.
        indptr: Vec<usize>,
        /// 0-based feature indices, sorted within each row.
        indices: Vec<u32>,
        /// The non-zero values.
        values: Vec<f64>,
    },
}

/// A dataset: features, one real label/target per row, and a name that says
/// where it came from (synthetic datasets carry "synthetic" in the name).
#[derive(Clone, Debug, PartialEq)]
pub struct Dataset {
    /// Name used in every output (contains "synthetic" for generated data).
    pub name: String,
    /// Feature storage.
    pub x: Features,
    /// Labels (±1 for binary classification) or real targets.
    pub y: Vec<f64>,
}

impl Dataset {
    /// Number of rows.
    pub fn n(&self) -> usize {
        self.y.len()
    }

    /// Number of features.
    pub fn d(&self) -> usize {
        match &self.x {
            Features::Dense { d, .. } | Features::Sparse { d, .. } => *d,
        }
    }

    /// Whether the features are stored sparse.
    pub fn is_sparse(&self) -> bool {
        matches!(self.x, Features::Sparse { .. })
    }

    /// Row `i`.
    #[inline]
    pub fn row(&self, i: usize) -> Row<'_> {
        match &self.x {
            Features::Dense { d, values } => Row::Dense(&values[i * d..(i + 1) * d]),
            Features::Sparse {
                indptr,
                indices,
                values,
                ..
            } => {
                let (a, b) = (indptr[i], indptr[i + 1]);
                Row::Sparse(&indices[a..b], &values[a..b])
            }
        }
    }

    /// Whether the name marks this dataset as synthetic.
    pub fn is_synthetic(&self) -> bool {
        self.name.contains("synthetic")
    }

    /// A new dataset made of the given rows, in the given order.
    pub fn subset(&self, rows: &[usize], name: impl Into<String>) -> Dataset {
        let y = rows.iter().map(|&i| self.y[i]).collect();
        let x = match &self.x {
            Features::Dense { d, values } => {
                let mut v = Vec::with_capacity(rows.len() * d);
                for &i in rows {
                    v.extend_from_slice(&values[i * d..(i + 1) * d]);
                }
                Features::Dense { d: *d, values: v }
            }
            Features::Sparse {
                d,
                indptr,
                indices,
                values,
            } => {
                let mut p = Vec::with_capacity(rows.len() + 1);
                let (mut ix, mut vs) = (Vec::new(), Vec::new());
                p.push(0);
                for &i in rows {
                    ix.extend_from_slice(&indices[indptr[i]..indptr[i + 1]]);
                    vs.extend_from_slice(&values[indptr[i]..indptr[i + 1]]);
                    p.push(ix.len());
                }
                Features::Sparse {
                    d: *d,
                    indptr: p,
                    indices: ix,
                    values: vs,
                }
            }
        };
        Dataset {
            name: name.into(),
            x,
            y,
        }
    }

    /// Build a dense dataset from rows of equal length.
    pub fn from_dense_rows(name: impl Into<String>, rows: &[Vec<f64>], y: Vec<f64>) -> Dataset {
        let d = rows.first().map_or(0, |r| r.len());
        let mut values = Vec::with_capacity(rows.len() * d);
        for r in rows {
            assert_eq!(r.len(), d, "rows must have equal length");
            values.extend_from_slice(r);
        }
        Dataset {
            name: name.into(),
            x: Features::Dense { d, values },
            y,
        }
    }
}

impl fmt::Display for Dataset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({} rows × {} features, {})",
            self.name,
            self.n(),
            self.d(),
            if self.is_sparse() { "sparse" } else { "dense" }
        )
    }
}
