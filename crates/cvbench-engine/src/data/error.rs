//! The one error type of the data layer.
//!
//! Every variant carries enough context (file path, line number, dataset name,
//! what was expected) for the message alone to tell the user what went wrong
//! and, where possible, how to fix it.

use std::path::PathBuf;

/// Everything that can go wrong while locating, downloading, reading,
/// generating or transforming a dataset.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// An I/O error on a named file (open, read, write, rename).
    #[error("{}: {source}", path.display())]
    Io {
        /// The file involved.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },

    /// An output file could not be written (a full disk, no permission);
    /// nothing partial was left at `path` (the harness's atomic writes).
    #[error(
        "cannot write {}: {source} (nothing was written there; a file it held before is unchanged): free some space or give another path",
        path.display()
    )]
    Output {
        /// The output file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },

    /// An I/O error while writing to a caller-supplied writer.
    #[error("writing {what}: {source}")]
    Write {
        /// What was being written (e.g. "LibSVM data").
        what: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },

    /// A line of a text file could not be parsed.
    #[error("{}:{line}: {msg}", path.display())]
    Parse {
        /// The file being parsed.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What was found and what was expected.
        msg: String,
    },

    /// A binary or whole-file format problem (bad magic number, short file,
    /// row counts that do not match).
    #[error("{}: {msg}", path.display())]
    Format {
        /// The file involved.
        path: PathBuf,
        /// What is wrong.
        msg: String,
    },

    /// A dataset name that is not in the registry.
    #[error("unknown dataset `{name}`; known datasets: {}", known.join(", "))]
    UnknownDataset {
        /// The name asked for.
        name: String,
        /// Every name the registry knows.
        known: Vec<String>,
    },

    /// A registry dataset whose files are not in the data directory.
    #[error("{}", missing_message(dataset, file, looked, hint))]
    Missing {
        /// The dataset asked for.
        dataset: String,
        /// The file of that dataset that was not found.
        file: String,
        /// Every path that was tried.
        looked: Vec<PathBuf>,
        /// How to get the file (fetch command, URL, environment variable).
        hint: String,
    },

    /// A file whose (decompressed) sha256 differs from the registry's pin.
    #[error(
        "{}: sha256 mismatch: expected {expected}, got {actual} (the file is corrupt, truncated or a different version; delete it and fetch again)",
        path.display()
    )]
    Checksum {
        /// The file checked.
        path: PathBuf,
        /// The pinned sha256.
        expected: String,
        /// The sha256 computed from the content.
        actual: String,
    },

    /// A registry dataset's file whose content is not the registry's: its
    /// sha256 differs from the pin (checked when the dataset is loaded).
    #[error(
        "{}: the file of dataset `{dataset}` has sha256 {actual}, not the registry's {expected}: it is corrupt, truncated, or other data saved under the registry's name\n  fix: delete {} and run `cvbench fetch {dataset}`; or, to use this file as it is, give it in the config as `path = \"...\"` with its `format` instead of `name = \"{dataset}\"`",
        path.display(),
        path.display()
    )]
    WrongContent {
        /// The registry dataset.
        dataset: String,
        /// The file checked.
        path: PathBuf,
        /// The registry's sha256.
        expected: String,
        /// The sha256 of the file's content.
        actual: String,
    },

    /// A download failed.
    #[error("downloading {url}: {msg}")]
    Download {
        /// The URL tried.
        url: String,
        /// What went wrong.
        msg: String,
    },

    /// The embedded (or a supplied) registry is malformed.
    #[error("dataset registry: {0}")]
    Registry(String),

    /// A transform cannot be applied to this dataset.
    #[error("transform `{transform}` on {dataset}: {msg}")]
    Transform {
        /// The transform's name.
        transform: String,
        /// The dataset's name.
        dataset: String,
        /// What is wrong.
        msg: String,
    },

    /// A dataset specification (from a config) is invalid.
    #[error("dataset spec: {0}")]
    Spec(String),

    /// Invalid arguments to a data-layer function (e.g. row index out of range).
    #[error("{0}")]
    Invalid(String),
}

fn missing_message(dataset: &str, file: &str, looked: &[PathBuf], hint: &str) -> String {
    let mut s = format!("dataset `{dataset}`: file `{file}` not found. Looked at:");
    for p in looked {
        s.push_str("\n  - ");
        s.push_str(&p.display().to_string());
    }
    s.push('\n');
    s.push_str(hint);
    s
}

impl DataError {
    /// Shorthand for an [`DataError::Io`] on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        DataError::Io {
            path: path.into(),
            source,
        }
    }
}
