//! Datasets: dense and sparse (CSR) feature storage, labels/targets, readers,
//! the dataset registry, fetching with checksums, synthetic generators and
//! preprocessing transforms.
//!
//! Rooms (folders) by job, and the files beside them:
//!
//! - [`read`]: the readers of LibSVM, IDX and UCI files (and the LibSVM
//!   writer), behind transparent `.xz`/`.bz2`/`.gz`/`.zip` decompression.
//! - [`registry`]: named datasets (`registry.toml`), the data directory,
//!   sha256 verification on first use (cached) and availability status.
//! - [`transform`]: config-facing preprocessing steps, made of column-wise
//!   operations (statistics, maps, dropping a column), and `svm-scale`'s
//!   feature ranges.
//! - [`synthetic`]: seeded generators (names always contain "synthetic").
//! - [`spec`]: the config-facing [`DatasetSpec`] tying it all together.
//! - [`join`]: one dataset's rows followed by another's (a training set
//!   and its test split as one set).
//! - [`limits`]: size checks against what an input can mean and the machine's memory.
//! - [`error`]: the single error type [`DataError`].

// Hidden from the public docs (lib.rs): links to private items resolve
// in the `--document-private-items` view.
#![allow(rustdoc::private_intra_doc_links)]

use std::fmt;

pub mod error;
pub mod join;
pub mod limits;
pub mod read;
pub mod registry;
pub mod spec;
pub mod synthetic;
pub mod transform;

pub use error::DataError;
pub use read::libsvm::{read_libsvm, write_libsvm};
pub use registry::data_dir::DataDir;
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

/// How the 0-based feature indices of a [`Dataset`] map to the indices of
/// the LibSVM file it was read from (and to those written back: model
/// files, LibSVM files). LIBSVM's `svm-train` takes any non-negative index;
/// most files start at 1, scikit-learn's `dump_svmlight_file` at 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum IndexBase {
    /// Index `j` is the file's `j + 1` (no index 0 in the file; the default
    /// for data that did not come from a file).
    #[default]
    One,
    /// Index `j` is the file's `j` (the file has an index 0).
    Zero,
}

impl IndexBase {
    /// What to add to a 0-based index to get the file's index.
    pub fn offset(self) -> usize {
        match self {
            IndexBase::One => 1,
            IndexBase::Zero => 0,
        }
    }
}

/// A dataset: features, one real label/target per row, and a name that says
/// where it came from (synthetic datasets carry "synthetic" in the name).
#[derive(Clone, Debug, PartialEq)]
pub struct Dataset {
    /// How feature `j` is numbered in files (`j + 1`, or `j` for a file
    /// with an index 0).
    pub index_base: IndexBase,
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

    /// The highest feature index a LibSVM file of this data can hold
    /// (`svm-train`'s `max_index`, from which its default gamma
    /// `1/max_index` comes): `d` with 1-based indices, `d - 1` with 0-based.
    pub fn libsvm_max_index(&self) -> usize {
        (self.d() + self.index_base.offset()).saturating_sub(1)
    }

    /// Number features from 0 as a file with index 0 does (feature `j`
    /// becomes `j + 1`, a new feature 0 is empty): so that two datasets
    /// read from files with different first indices, or a model and its
    /// test data, number the same file index alike
    /// ([`align_index_bases`]). Nothing changes when already [`IndexBase::Zero`].
    pub fn rebase_to_zero(&mut self) {
        if self.index_base == IndexBase::Zero {
            return;
        }
        self.index_base = IndexBase::Zero;
        let n = self.y.len();
        match &mut self.x {
            Features::Sparse { d, indices, .. } => {
                *d += 1;
                for j in indices.iter_mut() {
                    *j += 1;
                }
            }
            Features::Dense { d, values } => {
                let old = *d;
                let mut v = Vec::with_capacity(n * (old + 1));
                for i in 0..n {
                    v.push(0.0);
                    v.extend_from_slice(&values[i * old..(i + 1) * old]);
                }
                *d += 1;
                *values = v;
            }
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
            index_base: self.index_base,
            name: name.into(),
            x,
            y,
        }
    }

    /// Build a sparse (CSR) dataset of `d` features: row `i` is
    /// `indices[indptr[i]..indptr[i + 1]]` (0-based, ascending within the
    /// row) with their `values`.
    pub fn from_csr(
        name: impl Into<String>,
        d: usize,
        indptr: Vec<usize>,
        indices: Vec<u32>,
        values: Vec<f64>,
        y: Vec<f64>,
    ) -> Dataset {
        Dataset {
            index_base: IndexBase::One,
            name: name.into(),
            x: Features::Sparse {
                d,
                indptr,
                indices,
                values,
            },
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
            index_base: IndexBase::One,
            name: name.into(),
            x: Features::Dense { d, values },
            y,
        }
    }
}

/// Make `a` and `b` number their features alike: when one was read from a
/// file with an index 0 and the other not, the other is renumbered from 0
/// ([`Dataset::rebase_to_zero`]), so that a file's index means the same
/// feature in both (training and test data; a model's support vectors and
/// the data it predicts).
pub fn align_index_bases(a: &mut Dataset, b: &mut Dataset) {
    if a.index_base != b.index_base {
        a.rebase_to_zero();
        b.rebase_to_zero();
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
