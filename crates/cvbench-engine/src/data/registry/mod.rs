//! The dataset registry and the data directory.
//!
//! The registry (`registry.toml` in this folder, embedded at compile time) says,
//! for every named dataset, which files it needs, where to download them,
//! their sha256 pins, how to parse them and the default preprocessing.
//! [`DataDir`] finds those files on disk (plain or compressed); a missing
//! file is one clear [`DataError::Missing`] that says where it looked and
//! how to get the file.
//!
//! - [`data_dir`]: the data directory, where dataset files are looked for.
//! - [`verified`]: registry files checked against their sha256 pins on
//!   first use, the result cached.
//! - [`status`](mod@status): what `cvbench datasets` shows, each dataset's files found
//!   or missing.
//! - `tests`: this module's unit tests.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

pub use data_dir::{DataDir, DataDirSource, DATA_DIR_ENV};
use serde::{Deserialize, Serialize};
pub use status::{status, status_of, DatasetStatus};

use super::read::compress::{self, Compression};
use super::read::{idx, libsvm, uci};
use super::transform::{apply_all, Transform};
use super::{DataError, Dataset};

pub mod data_dir;
pub mod status;
#[cfg(test)]
mod tests;
pub mod verified;

/// The embedded registry text.
pub const REGISTRY_TOML: &str = include_str!("registry.toml");

/// On-disk format of a dataset's files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// LibSVM sparse text (one file).
    Libsvm,
    /// MNIST IDX: an images file and a labels file.
    Idx,
    /// UCI `covtype.data` (comma-separated, class last).
    UciCovtype,
    /// UCI `YearPredictionMSD.txt` (comma-separated, year first).
    UciMsd,
    /// UCI madelon: a `.data` file and a `.labels` file.
    Madelon,
}

/// Whether a format reads a labels file next to its main file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelsFile {
    /// Always (MNIST IDX: images and labels).
    Required,
    /// When given (madelon: without it, the labels are unknown).
    Optional,
    /// Never (the labels are in the main file).
    None,
}

impl Format {
    /// Every format, in the order the docs list them.
    pub const ALL: [Format; 5] = [
        Format::Libsvm,
        Format::Idx,
        Format::UciCovtype,
        Format::UciMsd,
        Format::Madelon,
    ];

    /// The format's name in configs and the registry (`format = "..."`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Libsvm => "libsvm",
            Format::Idx => "idx",
            Format::UciCovtype => "uci_covtype",
            Format::UciMsd => "uci_msd",
            Format::Madelon => "madelon",
        }
    }

    /// Every format's name, quoted and joined by ` | ` (for messages).
    pub fn names() -> String {
        Format::ALL
            .iter()
            .map(|f| format!("\"{}\"", f.name()))
            .collect::<Vec<_>>()
            .join(" | ")
    }

    /// Whether the format reads a labels file.
    pub fn labels_file(self) -> LabelsFile {
        match self {
            Format::Idx => LabelsFile::Required,
            Format::Madelon => LabelsFile::Optional,
            Format::Libsvm | Format::UciCovtype | Format::UciMsd => LabelsFile::None,
        }
    }

    /// Whether a labels file may (or must) be given with this format.
    pub fn check_labels(self, given: bool) -> Result<(), DataError> {
        match (self.labels_file(), given) {
            (LabelsFile::Required, false) => Err(DataError::Spec(format!(
                "format \"{}\" needs `labels = \"<labels file>\"` next to `path` (the images)",
                self.name()
            ))),
            (LabelsFile::None, true) => Err(DataError::Spec(format!(
                "`labels` is only allowed with format \"idx\" or \"madelon\", not \"{}\"",
                self.name()
            ))),
            _ => Ok(()),
        }
    }

    /// How many files the format reads in the registry (its labels file included).
    pub fn n_files(self) -> usize {
        match self.labels_file() {
            LabelsFile::None => 1,
            LabelsFile::Required | LabelsFile::Optional => 2,
        }
    }

    /// Read a dataset of this format: the one dispatch from a format to its
    /// reader, for the registry and for `path = ...` datasets alike.
    /// `min_features` raises a LibSVM file's feature count (dense formats
    /// have their own).
    pub fn read_files(
        self,
        main: &Path,
        labels: Option<&Path>,
        min_features: Option<usize>,
    ) -> Result<Dataset, DataError> {
        self.check_labels(labels.is_some())?;
        match (self, labels) {
            (Format::Libsvm, _) => libsvm::read_libsvm(main, min_features),
            (Format::Idx, Some(l)) => idx::read_mnist(main, l, "idx"),
            (Format::UciCovtype, _) => uci::read_covtype(main),
            (Format::UciMsd, _) => uci::read_msd(main),
            (Format::Madelon, l) => uci::read_madelon(main, l),
            (Format::Idx, None) => Err(DataError::Spec("format \"idx\" needs `labels`".into())),
        }
    }

    /// Read the files of this format (in registry order) into a dataset with
    /// at least `n_features` features (exactly, for dense formats).
    pub fn read(self, files: &[PathBuf], n_features: usize) -> Result<Dataset, DataError> {
        if files.len() != self.n_files() {
            return Err(DataError::Invalid(format!(
                "format {self:?} reads {} file(s), got {}",
                self.n_files(),
                files.len()
            )));
        }
        let labels = files.get(1).map(PathBuf::as_path);
        let ds = self.read_files(&files[0], labels, Some(n_features))?;
        if ds.d() != n_features {
            return Err(DataError::Format {
                path: files[0].clone(),
                msg: format!(
                    "expected {n_features} features, found {} (highest index / column count)",
                    ds.d()
                ),
            });
        }
        Ok(ds)
    }
}

/// What kind of learning task a dataset is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Task {
    /// ±1 labels (after the default transforms).
    Binary,
    /// Several classes (e.g. digits).
    Multiclass,
    /// Real targets.
    Regression,
}

/// One file of a registry dataset.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileEntry {
    /// File name in the data directory (also found with a compression suffix).
    pub name: String,
    /// Download URLs, tried in order.
    pub urls: Vec<String>,
    /// Compression of the download; it is stored as `name` + suffix.
    pub compression: Compression,
    /// Lower-case hex sha256 of the decompressed content; `None` = unpinned.
    #[serde(default)]
    pub sha256: Option<String>,
    /// Lower-case hex sha256 of the downloaded bytes, when a public pin exists.
    #[serde(default)]
    pub download_sha256: Option<String>,
    /// Where the pin comes from.
    #[serde(default)]
    pub pin_source: Option<String>,
}

impl FileEntry {
    /// Whether any checksum is pinned for this file.
    pub fn is_pinned(&self) -> bool {
        self.sha256.is_some() || self.download_sha256.is_some()
    }

    /// The pin a found copy at `path` is checked against: the decompressed
    /// `sha256`, else (`true`) the `download_sha256` of the bytes when the
    /// copy is stored with the download's compression; `None`: no pin
    /// applies.
    pub fn pin_for(&self, path: &Path) -> Option<(&str, bool)> {
        match (&self.sha256, &self.download_sha256) {
            (Some(s), _) => Some((s, false)),
            (None, Some(d)) if Compression::from_path(path) == self.compression => Some((d, true)),
            _ => None,
        }
    }
}

/// One registry dataset (with any `base` already resolved).
#[derive(Clone, Debug, PartialEq)]
pub struct DatasetEntry {
    /// Registry name (what configs and `cvbench fetch` use).
    pub name: String,
    /// One-line description.
    pub description: String,
    /// Whom to cite.
    pub citation: String,
    /// The learning task (after the default transforms).
    pub task: Task,
    /// File format.
    pub format: Format,
    /// Feature count as read (before transforms).
    pub n_features: usize,
    /// Expected rows after the default transforms, if known.
    pub rows: Option<usize>,
    /// Files, in the order the format reads them.
    pub files: Vec<FileEntry>,
    /// Default preprocessing, applied in order after reading.
    pub transforms: Vec<Transform>,
    /// The synthetic generator that stands in for this dataset where it is
    /// not available (e.g. `covtype-like`).
    pub synthetic_standin: Option<String>,
    /// The entry this one derives from, if any.
    pub base: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    name: String,
    description: String,
    citation: String,
    task: Task,
    #[serde(default)]
    base: Option<String>,
    #[serde(default)]
    format: Option<Format>,
    #[serde(default)]
    n_features: Option<usize>,
    #[serde(default)]
    rows: Option<usize>,
    #[serde(default)]
    files: Vec<FileEntry>,
    #[serde(default)]
    transforms: Vec<Transform>,
    #[serde(default)]
    synthetic_standin: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRegistry {
    dataset: Vec<RawEntry>,
}

/// All registry datasets, by name.
#[derive(Clone, Debug)]
pub struct Registry {
    entries: BTreeMap<String, DatasetEntry>,
}

impl Registry {
    /// The registry embedded in the binary (parsed once; its validity is
    /// checked by unit tests, so this cannot fail in a tested build).
    pub fn builtin() -> &'static Registry {
        static REG: OnceLock<Registry> = OnceLock::new();
        REG.get_or_init(|| match Registry::from_toml(REGISTRY_TOML) {
            Ok(r) => r,
            Err(e) => panic!("the embedded src/data/registry/registry.toml is invalid: {e}"),
        })
    }

    /// Parse and validate a registry (the embedded one, or a test registry).
    pub fn from_toml(text: &str) -> Result<Registry, DataError> {
        let raw: RawRegistry =
            toml::from_str(text).map_err(|e| DataError::Registry(e.to_string()))?;
        let mut by_name: BTreeMap<String, RawEntry> = BTreeMap::new();
        let mut order = Vec::new();
        for e in raw.dataset {
            if by_name.contains_key(&e.name) {
                return Err(DataError::Registry(format!(
                    "duplicate dataset `{}`",
                    e.name
                )));
            }
            order.push(e.name.clone());
            by_name.insert(e.name.clone(), e);
        }
        let mut entries = BTreeMap::new();
        for name in &order {
            let e = &by_name[name];
            let entry = if let Some(base_name) = &e.base {
                let b = by_name.get(base_name).ok_or_else(|| {
                    DataError::Registry(format!("`{name}`: unknown base `{base_name}`"))
                })?;
                if b.base.is_some() {
                    return Err(DataError::Registry(format!(
                        "`{name}`: base `{base_name}` has a base itself (one level only)"
                    )));
                }
                if e.format.is_some() || e.n_features.is_some() || !e.files.is_empty() {
                    return Err(DataError::Registry(format!(
                        "`{name}`: an entry with a base takes format, n_features and files from it"
                    )));
                }
                let mut transforms = b.transforms.clone();
                transforms.extend(e.transforms.iter().cloned());
                DatasetEntry {
                    name: name.clone(),
                    description: e.description.clone(),
                    citation: e.citation.clone(),
                    task: e.task,
                    format: b.format.ok_or_else(|| {
                        DataError::Registry(format!("`{base_name}`: missing format"))
                    })?,
                    n_features: b.n_features.ok_or_else(|| {
                        DataError::Registry(format!("`{base_name}`: missing n_features"))
                    })?,
                    rows: e.rows,
                    files: b.files.clone(),
                    transforms,
                    synthetic_standin: e
                        .synthetic_standin
                        .clone()
                        .or_else(|| b.synthetic_standin.clone()),
                    base: Some(base_name.clone()),
                }
            } else {
                DatasetEntry {
                    name: name.clone(),
                    description: e.description.clone(),
                    citation: e.citation.clone(),
                    task: e.task,
                    format: e.format.ok_or_else(|| {
                        DataError::Registry(format!(
                            "`{name}`: missing format (libsvm | idx | uci_covtype | uci_msd | madelon)"
                        ))
                    })?,
                    n_features: e.n_features.ok_or_else(|| {
                        DataError::Registry(format!("`{name}`: missing n_features"))
                    })?,
                    rows: e.rows,
                    files: e.files.clone(),
                    transforms: e.transforms.clone(),
                    synthetic_standin: e.synthetic_standin.clone(),
                    base: None,
                }
            };
            validate_entry(&entry)?;
            entries.insert(name.clone(), entry);
        }
        Ok(Registry { entries })
    }

    /// The entry called `name`, or an error listing the known names.
    pub fn get(&self, name: &str) -> Result<&DatasetEntry, DataError> {
        self.entries
            .get(name)
            .ok_or_else(|| DataError::UnknownDataset {
                name: name.to_string(),
                known: self.names(),
            })
    }

    /// All dataset names, sorted.
    pub fn names(&self) -> Vec<String> {
        self.entries.keys().cloned().collect()
    }

    /// All entries, sorted by name.
    pub fn entries(&self) -> impl Iterator<Item = &DatasetEntry> {
        self.entries.values()
    }
}

fn validate_entry(e: &DatasetEntry) -> Result<(), DataError> {
    let err = |m: String| Err(DataError::Registry(format!("`{}`: {m}", e.name)));
    if e.files.len() != e.format.n_files() {
        return err(format!(
            "format {:?} needs {} file(s), {} listed",
            e.format,
            e.format.n_files(),
            e.files.len()
        ));
    }
    for f in &e.files {
        if f.urls.is_empty() {
            return err(format!("file `{}` has no URL", f.name));
        }
        if f.name.is_empty() || f.name.contains('/') || f.name.contains('\\') || f.name == ".." {
            return err(format!("file name `{}` must be a plain file name", f.name));
        }
        for h in f.sha256.iter().chain(&f.download_sha256) {
            if h.len() != 64
                || !h
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
            {
                return err(format!(
                    "file `{}`: checksum `{h}` is not 64 lower-case hex digits",
                    f.name
                ));
            }
        }
    }
    Ok(())
}

/// Result of checking one found file against its pin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verification {
    /// The decompressed sha256 (or, for a file stored exactly as downloaded,
    /// the download sha256) matches the pin.
    Verified {
        /// The computed sha256 of the decompressed content.
        sha256: String,
    },
    /// Nothing is pinned for this file; here is what it hashes to.
    Unpinned {
        /// The computed sha256 of the decompressed content.
        sha256: String,
    },
}

/// Check a found file against the entry's pins. A mismatch is a
/// [`DataError::Checksum`]. The decompressed pin is checked when present;
/// otherwise a `download_sha256` pin is checked against the raw bytes when
/// the file is stored with the download's compression. A match is
/// remembered ([`verified::record`]): loading the file then does not
/// hash it again.
pub fn verify_file(path: &Path, file: &FileEntry) -> Result<Verification, DataError> {
    let actual = compress::sha256_decompressed(path)?;
    let Some((expected, raw)) = file.pin_for(path) else {
        return Ok(Verification::Unpinned { sha256: actual });
    };
    let got = if raw {
        let f = std::fs::File::open(path).map_err(|e| DataError::io(path, e))?;
        compress::sha256_reader(f).map_err(|e| DataError::io(path, e))?
    } else {
        actual.clone()
    };
    if got != expected {
        return Err(DataError::Checksum {
            path: path.to_path_buf(),
            expected: expected.to_string(),
            actual: got,
        });
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    verified::record(path, expected, dir);
    Ok(Verification::Verified { sha256: actual })
}

impl DatasetEntry {
    /// Whether the dataset's targets are real numbers (`task =
    /// "regression"`): not class labels for a classifier.
    pub fn is_regression(&self) -> bool {
        self.task == Task::Regression
    }

    /// How to get this dataset's file `file` into `dir` (used in errors and
    /// in the `cvbench datasets` listing).
    pub fn how_to_get(&self, dir: &DataDir, file: &FileEntry) -> String {
        let mut s = format!(
            "To get it:\n  - on a machine with internet: `cvbench fetch {}` (or `make fetch`), which downloads into {}\n  - or download {} into {}{}\n  - or set {DATA_DIR_ENV} (or --data-dir) to a directory that has it (plain or .xz/.bz2/.gz)",
            self.name,
            dir.path().display(),
            file.urls[0],
            dir.path().display(),
            if file.compression == Compression::None {
                String::new()
            } else {
                format!(" (keep it as {}{})", file.name, file.compression.suffix())
            }
        );
        if let Some(g) = &self.synthetic_standin {
            s.push_str(&format!(
                "\n  - or use the synthetic stand-in: synthetic = {{ generator = \"{g}\" }} (labelled synthetic in all outputs)"
            ));
        }
        s
    }

    /// Find every file of this dataset in `dir`, or return one
    /// [`DataError::Missing`] for the first missing file.
    pub fn locate(&self, dir: &DataDir) -> Result<Vec<PathBuf>, DataError> {
        self.files
            .iter()
            .map(|f| {
                dir.find(&f.name).ok_or_else(|| DataError::Missing {
                    dataset: self.name.clone(),
                    file: f.name.clone(),
                    looked: dir.candidates(&f.name),
                    hint: self.how_to_get(dir, f),
                })
            })
            .collect()
    }

    /// Read the files as they are (no transforms); named after the entry.
    /// Each file is first checked against its pin ([`verified`]).
    pub fn load_raw(&self, dir: &DataDir) -> Result<Dataset, DataError> {
        let paths = self.locate(dir)?;
        for (p, f) in paths.iter().zip(&self.files) {
            if let Some((pin, raw)) = f.pin_for(p) {
                verified::check(&self.name, p, pin, raw, dir.path())?;
            }
        }
        let mut ds = self.format.read(&paths, self.n_features)?;
        ds.name = self.name.clone();
        Ok(ds)
    }

    /// Read the files and apply the default transforms.
    pub fn load(&self, dir: &DataDir) -> Result<Dataset, DataError> {
        apply_all(&self.transforms, self.load_raw(dir)?)
    }

    /// Locate and verify every file (sha256 of the decompressed content).
    pub fn verify(&self, dir: &DataDir) -> Result<Vec<(PathBuf, Verification)>, DataError> {
        let paths = self.locate(dir)?;
        paths
            .into_iter()
            .zip(&self.files)
            .map(|(p, f)| verify_file(&p, f).map(|v| (p, v)))
            .collect()
    }
}

/// Load a builtin registry dataset by name, with its default transforms.
pub fn load(name: &str, dir: &DataDir) -> Result<Dataset, DataError> {
    Registry::builtin().get(name)?.load(dir)
}
