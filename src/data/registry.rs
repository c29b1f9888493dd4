//! The dataset registry and the data directory.
//!
//! The registry (`src/data/registry.toml`, embedded at compile time) says,
//! for every named dataset, which files it needs, where to download them,
//! their sha256 pins, how to parse them and the default preprocessing.
//! [`DataDir`] finds those files on disk (plain or compressed); a missing
//! file is one clear [`DataError::Missing`] that says where it looked and
//! how to get the file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

pub use super::data_dir::{DataDir, DataDirSource, DATA_DIR_ENV};
pub use super::status::{status, status_of, DatasetStatus};
use serde::{Deserialize, Serialize};

use super::compress::{self, Compression};
use super::transform::{apply_all, Transform};
use super::{idx, libsvm, uci, DataError, Dataset};

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
            Err(e) => panic!("the embedded src/data/registry.toml is invalid: {e}"),
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
/// the file is stored with the download's compression.
pub fn verify_file(path: &Path, file: &FileEntry) -> Result<Verification, DataError> {
    let actual = compress::sha256_decompressed(path)?;
    if let Some(expected) = &file.sha256 {
        if *expected != actual {
            return Err(DataError::Checksum {
                path: path.to_path_buf(),
                expected: expected.clone(),
                actual,
            });
        }
        return Ok(Verification::Verified { sha256: actual });
    }
    if let Some(expected) = &file.download_sha256 {
        if Compression::from_path(path) == file.compression {
            let f = std::fs::File::open(path).map_err(|e| DataError::io(path, e))?;
            let raw = compress::sha256_reader(f).map_err(|e| DataError::io(path, e))?;
            if raw != *expected {
                return Err(DataError::Checksum {
                    path: path.to_path_buf(),
                    expected: expected.clone(),
                    actual: raw,
                });
            }
            return Ok(Verification::Verified { sha256: actual });
        }
    }
    Ok(Verification::Unpinned { sha256: actual })
}

impl DatasetEntry {
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
    pub fn load_raw(&self, dir: &DataDir) -> Result<Dataset, DataError> {
        let paths = self.locate(dir)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_names_are_the_config_names_and_labels_rules_hold() {
        for f in Format::ALL {
            let parsed: Format = toml::from_str::<toml::Table>(&format!("f = \"{}\"", f.name()))
                .unwrap()["f"]
                .clone()
                .try_into()
                .unwrap();
            assert_eq!(parsed, f);
            assert!(Format::names().contains(f.name()));
        }
        assert!(Format::Idx.check_labels(false).is_err());
        assert!(Format::Libsvm.check_labels(true).is_err());
        assert!(Format::Madelon.check_labels(false).is_ok());
        let e = Format::Idx
            .read_files(Path::new("x"), None, None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("needs `labels"), "{e}");
    }

    #[test]
    fn builtin_registry_parses_and_has_required_entries() {
        let reg = Registry::from_toml(REGISTRY_TOML).unwrap();
        for name in [
            "a9a",
            "a9a.t",
            "w8a",
            "heart_scale",
            "heart",
            "madelon",
            "madelon.t",
            "mnist",
            "mnist.t",
            "mnist-even-odd",
            "covtype-binary",
            "yearpredictionmsd",
            "breast-cancer",
            "breast-cancer_scale",
            "housing_scale",
        ] {
            let e = reg.get(name).unwrap();
            assert!(!e.files.is_empty(), "{name}");
        }
        let m = reg.get("mnist-even-odd").unwrap();
        assert_eq!(m.format, Format::Idx);
        assert_eq!(m.files.len(), 2);
        assert_eq!(m.transforms[0], Transform::EvenOdd);
        // Every checksum in the registry is either a shared-data pin or a
        // documented public pin; unpinned files say so.
        assert!(!reg.get("heart").unwrap().files[0].is_pinned());
        assert!(reg.get("covtype").unwrap().files[0]
            .download_sha256
            .is_some());
    }

    #[test]
    fn builtin_pins_match_shared_sha256sums() {
        // The shared SHA256SUMS.uncompressed, as of writing; kept here so the
        // test runs without the shared directory.
        let sums = "\
f5d5ffd8d865ff41328e7ee043e4b020816914ff6843ff15b98905ddbedce906  a9a
1f448a153f0320399a7e40836eb207655b0bde0f21fc941cc472193daa9f5de9  a9a.t
445505b580a88e9e19b533b4f126d3dda1883bc7551e46907041ca263aa3c5d9  breast-cancer
8fe6bce62147e0715a192378d29acf839b4a8a71d75ae4c88245a3526c20a6e4  breast-cancer_scale
5defa0a4c4c5bdaf3f55ae3828310252e8565c13ee37ce279e0b86d82e7f4ce9  heart_scale
bbacd2f526a038499717d5dc4b8895e6baf1e2351895b9360a84bcb31e104476  housing_scale
ae60251b63a46c6ace348b77749e79e25d4098d629d1dead2852c3d4daf1f8ea  madelon.t
0b6e37711efdc7ab74250c51e7d6966bffd9f8f2b0e9971e882c3a7a380c2314  madelon_train.data
10bffcc3b017467cb810d326b931951adcbde2b4870faf981da2991993b48689  madelon_train.labels
cb9a46475147de1a58d9f15ef4c318e5b85de344e0f9ab92626fa446aa815dc9  madelon_valid.data
fbac32fa87fac41ab731994a1c824e7b25396069bff6df242c01fe240fcb34dc  madelon_valid.labels
0fa7898d509279e482958e8ce81c8e77db3f2f8254e26661ceb7762c4d494ce7  t10k-images-idx3-ubyte
ff7bcfd416de33731a308c3f266cc351222c34898ecbeaf847f06e48f7ec33f2  t10k-labels-idx1-ubyte
ba891046e6505d7aadcbbe25680a0738ad16aec93bde7f9b65e87a2fc25776db  train-images-idx3-ubyte
65a50cbbf4e906d70832878ad85ccda5333a97f0f4c3dd2ef09a8a9eef7101c5  train-labels-idx1-ubyte
b464b4f6ce6a5d9e181ffc793e19a04751036273722312398ef7673705014902  w8a
d3df2ea9000d4e25adac705a4444690dca8feb18e3a9a7444836f374e15e3b15  svmguide1
bf6175a6ee3804597d2b63ea72619614dadae8f0d4ee452783d9f5cbfb0f25d7  svmguide1.t
bfe04715056855e54186d73f20900011d1f1be95e220f434d9314b6262e849fd  svmguide3
8b9d951201fcb7c6f07d2fd435b91245f9135a35db28716b3e56581f8b8591ac  svmguide3.t";
        let pins: BTreeMap<&str, &str> = sums
            .lines()
            .map(|l| {
                let (h, n) = l.split_once("  ").unwrap();
                (n, h)
            })
            .collect();
        for e in Registry::builtin().entries() {
            for f in &e.files {
                if let Some(h) = &f.sha256 {
                    assert_eq!(pins.get(f.name.as_str()), Some(&h.as_str()), "{}", f.name);
                }
            }
        }
    }

    #[test]
    fn unknown_name_lists_known_ones() {
        let e = Registry::builtin().get("a9b").unwrap_err().to_string();
        assert!(
            e.contains("a9b") && e.contains("a9a") && e.contains("w8a"),
            "{e}"
        );
    }

    #[test]
    fn bad_registries_are_rejected() {
        let bad_format = r#"
[[dataset]]
name = "x"
description = "d"
citation = "c"
task = "binary"
format = "arff"
n_features = 1
[[dataset.files]]
name = "x"
urls = ["http://127.0.0.1/x"]
compression = "none"
"#;
        let e = Registry::from_toml(bad_format).unwrap_err().to_string();
        assert!(e.contains("libsvm"), "{e}");
        let bad_hash = bad_format.replace("arff", "libsvm").replace(
            "compression = \"none\"",
            "compression = \"none\"\nsha256 = \"abc\"",
        );
        let e = Registry::from_toml(&bad_hash).unwrap_err().to_string();
        assert!(e.contains("64 lower-case hex"), "{e}");
    }

    #[test]
    fn missing_dataset_is_one_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let dd = DataDir::new(dir.path());
        let e = load("covtype-binary", &dd).unwrap_err();
        let msg = e.to_string();
        assert!(matches!(e, DataError::Missing { .. }));
        for needle in [
            "covtype-binary",
            "covtype.data.gz",
            "covtype.data.xz",
            "cvbench fetch covtype-binary",
            "make fetch",
            "https://archive.ics.uci.edu/ml/machine-learning-databases/covtype/covtype.data.gz",
            "CVBENCH_DATA_DIR",
            "covtype-like",
        ] {
            assert!(msg.contains(needle), "missing `{needle}` in:\n{msg}");
        }
    }

    #[test]
    fn finds_compressed_files_loads_and_verifies() {
        let dir = tempfile::tempdir().unwrap();
        let dd = DataDir::new(dir.path());
        // heart_scale-shaped test file under a test registry, stored as .gz.
        let text = b"+1 1:0.5 13:1\n-1 2:1\n";
        let f = std::fs::File::create(dir.path().join("tiny.gz")).unwrap();
        let mut w = flate2::write::GzEncoder::new(f, flate2::Compression::default());
        std::io::Write::write_all(&mut w, text).unwrap();
        w.finish().unwrap();
        let hash = compress::sha256_reader(&text[..]).unwrap();
        let reg = Registry::from_toml(&format!(
            r#"
[[dataset]]
name = "tiny"
description = "d"
citation = "c"
task = "binary"
format = "libsvm"
n_features = 13
transforms = [{{ one_vs_rest = {{ positive = -1 }} }}]
[[dataset.files]]
name = "tiny"
urls = ["http://127.0.0.1:9/tiny"]
compression = "none"
sha256 = "{hash}"
[[dataset]]
name = "tiny-wrong"
description = "d"
citation = "c"
task = "binary"
format = "libsvm"
n_features = 13
[[dataset.files]]
name = "tiny"
urls = ["http://127.0.0.1:9/tiny"]
compression = "none"
sha256 = "{}"
"#,
            "0".repeat(64)
        ))
        .unwrap();
        let e = reg.get("tiny").unwrap();
        let ds = e.load(&dd).unwrap();
        assert_eq!((ds.name.as_str(), ds.n(), ds.d()), ("tiny", 2, 13));
        assert_eq!(ds.y, vec![-1.0, 1.0]);
        let v = e.verify(&dd).unwrap();
        assert!(matches!(v[0].1, Verification::Verified { .. }));
        let err = reg.get("tiny-wrong").unwrap().verify(&dd).unwrap_err();
        assert!(err.to_string().contains("sha256 mismatch"), "{err}");
        let st = status_of(&reg, &dd);
        assert!(st.iter().all(|s| s.available()));
        let st = status(&dd);
        let a9a = st.iter().find(|s| s.name == "a9a").unwrap();
        assert!(!a9a.available());
        assert!(a9a.to_string().contains("cvbench fetch a9a"), "{a9a}");
    }

    #[test]
    fn data_dir_resolution_prefers_flag() {
        let d = DataDir::resolve(Some(PathBuf::from("/x")));
        assert_eq!(
            (d.path(), d.source()),
            (Path::new("/x"), DataDirSource::Flag)
        );
        let c = d.candidates("a9a");
        assert_eq!(c[0], Path::new("/x/a9a"));
        assert_eq!(c[1], Path::new("/x/a9a.xz"));
    }
}
