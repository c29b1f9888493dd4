//! The config-facing description of a dataset.
//!
//! Exactly one source, plus optional transforms and a display label:
//!
//! ```toml
//! # a registry dataset (its default transforms run first)
//! dataset = { name = "covtype-binary" }
//! # a synthetic one
//! dataset = { synthetic = { generator = "covtype-like", n = 100000, seed = 1 } }
//! # a file
//! dataset = { path = "data/my.svm.xz", format = "libsvm", transforms = [{ minmax = {} }] }
//! dataset = { path = "imgs.idx", labels = "labels.idx", format = "idx", label = "my MNIST" }
//! ```

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::read::libsvm;
use super::registry::data_dir::DataDir;
use super::registry::{Format, Registry};
use super::synthetic::SyntheticSpec;
use super::transform::{apply_all, Transform};
use super::{DataError, Dataset};

/// A dataset as a config describes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DatasetSpec {
    /// A registry name (see `cvbench datasets`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A synthetic generator call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub synthetic: Option<SyntheticSpec>,
    /// A data file (relative paths: the config file's folder first, then
    /// the working directory, then the data directory).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<PathBuf>,
    /// The file's format (required with `path`): libsvm | idx | uci_covtype |
    /// uci_msd | madelon.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<Format>,
    /// The labels file, for `format = "idx"` (required) or `"madelon"` (optional).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub labels: Option<PathBuf>,
    /// Minimum feature count for `format = "libsvm"` (e.g. 123 for a9a.t).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n_features: Option<usize>,
    /// Registry datasets whose rows follow this one's, each read with its
    /// registry transforms, before `transforms` apply to the whole (e.g.
    /// `name = "a9a", append = ["a9a.t"]`: a9a's training and test rows as
    /// one set of 48,842).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub append: Vec<String>,
    /// Transforms applied after loading (after a registry dataset's own).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub transforms: Vec<Transform>,
    /// Display name in outputs (synthetic data is always marked synthetic).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

impl DatasetSpec {
    /// A spec for a registry dataset.
    pub fn registry(name: impl Into<String>) -> DatasetSpec {
        DatasetSpec {
            name: Some(name.into()),
            synthetic: None,
            path: None,
            format: None,
            labels: None,
            n_features: None,
            append: Vec::new(),
            transforms: Vec::new(),
            label: None,
        }
    }

    /// A spec for a synthetic dataset.
    pub fn synthetic(s: SyntheticSpec) -> DatasetSpec {
        DatasetSpec {
            synthetic: Some(s),
            ..DatasetSpec::registry("")
        }
        .without_name()
    }

    fn without_name(mut self) -> DatasetSpec {
        self.name = None;
        self
    }

    /// Check that the fields make sense together; errors say what is allowed.
    pub fn validate(&self) -> Result<(), DataError> {
        let sources = [
            self.name.is_some(),
            self.synthetic.is_some(),
            self.path.is_some(),
        ]
        .iter()
        .filter(|b| **b)
        .count();
        if sources != 1 {
            return Err(DataError::Spec(format!(
                "give exactly one of `name = \"<registry name>\"`, `synthetic = {{ generator = ... }}` or `path = \"...\"` (with `format`); found {sources}"
            )));
        }
        for n in self.name.iter().chain(&self.append) {
            Registry::builtin().get(n)?;
        }
        if self.path.is_none()
            && (self.format.is_some() || self.labels.is_some() || self.n_features.is_some())
        {
            return Err(DataError::Spec(
                "`format`, `labels` and `n_features` are only allowed with `path`".into(),
            ));
        }
        if self.path.is_some() {
            let Some(format) = self.format else {
                return Err(DataError::Spec(format!(
                    "`path` needs `format` = {}",
                    Format::names()
                )));
            };
            format.check_labels(self.labels.is_some())?;
            if self.n_features.is_some() && format != Format::Libsvm {
                return Err(DataError::Spec(
                    "`n_features` is only allowed with format \"libsvm\"".into(),
                ));
            }
        }
        Ok(())
    }

    /// The name to show in outputs: `label` if given, else the registry
    /// name, the synthetic dataset's name, or the file name. Synthetic data
    /// always shows "synthetic".
    pub fn display_name(&self) -> String {
        if let Some(s) = &self.synthetic {
            let generated = s.dataset_name();
            match &self.label {
                Some(l) if l.contains("synthetic") => l.clone(),
                Some(l) => format!("{l} (synthetic)"),
                None => generated,
            }
        } else if let Some(l) = &self.label {
            l.clone()
        } else if let Some(n) = &self.name {
            n.clone()
        } else if let Some(p) = &self.path {
            libsvm::dataset_name_from_path(p)
        } else {
            "unnamed".into()
        }
    }

    /// Load the dataset: read or generate it, apply the registry's default
    /// transforms (for `name`), then this spec's transforms; the result is
    /// named [`DatasetSpec::display_name`].
    pub fn load(&self, dir: &DataDir) -> Result<Dataset, DataError> {
        self.validate()?;
        let ds = if let Some(n) = &self.name {
            Registry::builtin().get(n)?.load(dir)?
        } else if let Some(s) = &self.synthetic {
            s.generate()?
        } else if let (Some(p), Some(format)) = (&self.path, self.format) {
            let main = resolve_path(p, dir);
            let labels = self.labels.as_deref().map(|l| resolve_path(l, dir));
            let mut files: Vec<(&Path, &Path)> = vec![(p.as_path(), main.as_path())];
            if let (Some(g), Some(f)) = (self.labels.as_deref(), labels.as_deref()) {
                files.push((g, f));
            }
            for (given, found) in files {
                if !found.exists() {
                    let mut looked = vec![given.to_path_buf()];
                    if !given.is_absolute() {
                        looked.push(dir.path().join(given));
                    }
                    return Err(DataError::Missing {
                        dataset: self.display_name(),
                        file: given.display().to_string(),
                        looked,
                        hint: "Fix the path: a relative path is looked up in the config file's folder, then in the working directory, then in the data directory (--data-dir or CVBENCH_DATA_DIR).".into(),
                    });
                }
            }
            format.read_files(&main, labels.as_deref(), self.n_features)?
        } else {
            return Err(DataError::Spec("no dataset source".into()));
        };
        let mut ds = ds;
        for n in &self.append {
            ds = super::join::concat(ds, Registry::builtin().get(n)?.load(dir)?);
        }
        let mut ds = apply_all(&self.transforms, ds)?;
        ds.name = self.display_name();
        Ok(ds)
    }
}

/// A relative path is tried against the working directory, then the data
/// directory; the first that exists wins (else the path as given, so the
/// error names it).
fn resolve_path(p: &Path, dir: &DataDir) -> PathBuf {
    if p.is_absolute() || p.exists() {
        return p.to_path_buf();
    }
    let in_dir = dir.path().join(p);
    if in_dir.exists() {
        in_dir
    } else {
        p.to_path_buf()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize)]
    struct Cfg {
        dataset: DatasetSpec,
    }

    fn parse(s: &str) -> Result<DatasetSpec, String> {
        let c: Cfg = toml::from_str(s).map_err(|e| e.to_string())?;
        c.dataset.validate().map_err(|e| e.to_string())?;
        Ok(c.dataset)
    }

    #[test]
    fn three_kinds_of_source() {
        let a = parse(r#"dataset = { name = "a9a" }"#).unwrap();
        assert_eq!(a.display_name(), "a9a");
        let s = parse(r#"dataset = { synthetic = { generator = "linear-classification", n = 50, d = 3, seed = 1 }, label = "toy" }"#).unwrap();
        assert_eq!(s.display_name(), "toy (synthetic)");
        let ds = s.load(&DataDir::new("/nonexistent")).unwrap();
        assert_eq!((ds.n(), ds.d()), (50, 3));
        assert!(ds.is_synthetic());
        let p = parse(r#"dataset = { path = "x/y.svm.xz", format = "libsvm", n_features = 9 }"#)
            .unwrap();
        assert_eq!(p.display_name(), "y.svm");
    }

    #[test]
    fn invalid_specs_say_what_is_allowed() {
        let e = parse(r#"dataset = { name = "a9a", path = "x", format = "libsvm" }"#).unwrap_err();
        assert!(e.contains("exactly one of"), "{e}");
        let e = parse(r#"dataset = {}"#).unwrap_err();
        assert!(e.contains("exactly one of"), "{e}");
        let e = parse(r#"dataset = { path = "x" }"#).unwrap_err();
        assert!(e.contains("libsvm") && e.contains("madelon"), "{e}");
        let e = parse(r#"dataset = { path = "x", format = "csv" }"#).unwrap_err();
        assert!(e.contains("libsvm"), "{e}");
        let e = parse(r#"dataset = { path = "x", format = "idx" }"#).unwrap_err();
        assert!(e.contains("labels"), "{e}");
        let e = parse(r#"dataset = { name = "nope" }"#).unwrap_err();
        assert!(e.contains("known datasets") && e.contains("a9a"), "{e}");
        let e = parse(r#"dataset = { name = "a9a", colour = 1 }"#).unwrap_err();
        assert!(e.contains("colour") && e.contains("transforms"), "{e}");
        let e = parse(r#"dataset = { name = "a9a", append = ["a9b"] }"#).unwrap_err();
        assert!(e.contains("a9b") && e.contains("known datasets"), "{e}");
        let e = parse(r#"dataset = { name = "a9a", format = "libsvm" }"#).unwrap_err();
        assert!(e.contains("only allowed with `path`"), "{e}");
    }

    #[test]
    fn path_source_with_transforms() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("f.svm"), "2 1:7 2:1\n4 2:3\n").unwrap();
        let spec = DatasetSpec {
            path: Some(PathBuf::from("f.svm")),
            format: Some(Format::Libsvm),
            transforms: vec![
                Transform::DropFeature { index: 1 },
                Transform::Map {
                    from: vec![2.0, 4.0],
                    to: vec![-1.0, 1.0],
                },
            ],
            label: Some("mine".into()),
            ..DatasetSpec::registry("").without_name()
        };
        // Relative path found in the data directory.
        let ds = spec.load(&DataDir::new(dir.path())).unwrap();
        assert_eq!((ds.name.as_str(), ds.n(), ds.d()), ("mine", 2, 1));
        assert_eq!(ds.y, vec![-1.0, 1.0]);
        // A missing file names the path.
        let missing = DatasetSpec {
            path: Some(PathBuf::from("nope.svm")),
            ..spec
        };
        let e = missing.load(&DataDir::new(dir.path())).unwrap_err();
        assert!(e.to_string().contains("nope.svm"), "{e}");
    }

    #[test]
    fn synthetic_label_always_marked() {
        let s = DatasetSpec::synthetic(SyntheticSpec {
            generator: super::super::synthetic::Generator::CovtypeLike,
            n: Some(10),
            d: None,
            seed: 1,
            noise: None,
        });
        assert!(s
            .display_name()
            .starts_with("synthetic-covtype-like(n=10,d=54"));
        let ds = s.load(&DataDir::new("/nonexistent")).unwrap();
        assert_eq!(ds.name, s.display_name());
    }
}
