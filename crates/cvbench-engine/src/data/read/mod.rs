//! Reading data files (and writing LibSVM ones): one module per format,
//! every file opened through transparent decompression.
//!
//! - [`libsvm`]: LibSVM / SVMlight text, read into CSR and written back bit
//!   for bit.
//! - [`idx`]: the IDX format of the original MNIST files.
//! - [`uci`]: dense text tables as the UCI repository publishes them.
//! - [`compress`]: `.xz`, `.bz2`, `.gz` and single-file `.zip` decompression,
//!   and the sha256 of a file's decompressed bytes.
//!
//! Every size that comes from a file is checked with the data layer's
//! [`limits`] before anything is allocated.

// What the readers take from the data layer, named `super::...` in them.
use crate::data::{limits, DataError, Dataset, Features, IndexBase, Row};

pub mod compress;
pub mod idx;
pub mod libsvm;
pub mod uci;
