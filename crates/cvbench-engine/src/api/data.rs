//! Datasets and their files: the [`Dataset`] a fit, CV or grid takes, the
//! readers and writer of LIBSVM's format and the other formats the registry
//! names, and the registry lookups (which datasets exist, where their files
//! are, whether they are present and verified).

/// A dataset (dense or CSR rows, labels), one row of it, its features and
/// how its file numbered them.
pub use crate::data::{Dataset, Features, IndexBase, Row};

/// LIBSVM's sparse text format: read a file (any compression) or a
/// stream, write one; align two datasets' feature numbering (a model's
/// support vectors and a test file).
pub use crate::{
    data::read::libsvm::read_libsvm_from,
    data::{align_index_bases, read_libsvm, write_libsvm},
};

/// The other readers: MNIST's IDX files and dense text (UCI) files.
pub use crate::{
    data::read::idx::{read_idx_images_from, read_idx_labels_from, read_mnist},
    data::read::uci::{read_dense_text_from, LabelColumn, Separator},
};

/// `svm-scale`'s per-feature ranges (a range file read and applied); C's
/// `printf("%g")`, as LIBSVM's tools print numbers.
pub use crate::data::transform::scale::{printf_g, ScaleRanges};

/// The dataset registry: its entries and files, the data folder (and where
/// its path came from), a dataset by name, the status of every dataset,
/// one file checked against its pinned SHA-256, the file caching verified
/// checksums in a data folder.
pub use crate::{
    data::registry::verified::CACHE_FILE as VERIFIED_CACHE_FILE,
    data::registry::{
        load as load_dataset, status as dataset_status, verify_file, DataDirSource, FileEntry,
        Verification,
    },
    data::{DataDir, DatasetEntry, DatasetSpec, Registry},
};
