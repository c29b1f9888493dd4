//! Config files: reading, the experiment kind, typed parsing with unknown keys
//! rejected, and errors that name the file, line and column and say how to fix
//! them. The generic part knows nothing of any paper: each experiment kind
//! parses its own schema with [`ConfigFile::parse`].

pub mod env;

use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// A config error: always names the file, and the line and column when known.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("{path}: cannot read config: {source}")]
    Io {
        /// The config file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// TOML syntax or schema error (unknown key, wrong type, missing key).
    #[error("{path}:{line}:{col}: {message}\n  fix: {fix}")]
    Parse {
        /// The config file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// What is wrong.
        message: String,
        /// How to fix it.
        fix: String,
    },
    /// A value that parses but is not allowed (k > n, empty grid, ...).
    #[error("{path}:{line}:{col}: {message}\n  fix: {fix}")]
    Invalid {
        /// The config file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// What is wrong.
        message: String,
        /// How to fix it.
        fix: String,
    },
    /// An environment variable cvbench reads has a value it cannot use
    /// (see [`env`](mod@env)).
    #[error("environment variable {var}={value:?} {message}\n  fix: {fix}")]
    Env {
        /// The variable.
        var: String,
        /// Its value (lossily decoded when not UTF-8).
        value: String,
        /// What is wrong.
        message: String,
        /// How to fix it.
        fix: String,
    },
    /// A dataset of the config could not be loaded.
    #[error("{path}:{line}:{col}: {message}")]
    Dataset {
        /// The config file.
        path: PathBuf,
        /// 1-based line of the dataset entry.
        line: usize,
        /// 1-based column.
        col: usize,
        /// The data error, prefixed with the dataset's name unless it names it.
        message: String,
        /// Why it could not be loaded (the message says how to fix it).
        source: Box<cvbench_engine::api::errors::DataError>,
    },
}

/// A config file's path and text.
#[derive(Clone, Debug)]
pub struct ConfigFile {
    /// Where it was read from.
    pub path: PathBuf,
    /// Its text (recorded verbatim in every results folder).
    pub text: String,
}

#[derive(Deserialize)]
struct Header {
    kind: Option<toml::Spanned<String>>,
}

impl ConfigFile {
    /// Read a config file: a regular file of UTF-8 text within
    /// [`CONFIG_FILE`](cvbench_engine::api::files::CONFIG_FILE)'s size (a folder,
    /// FIFO or device, or a larger file, is an error naming the limit).
    pub fn read(path: &Path) -> Result<ConfigFile, ConfigError> {
        let limit = &cvbench_engine::api::files::CONFIG_FILE;
        let text =
            cvbench_engine::api::files::read_text_limited(path, limit).map_err(|source| {
                ConfigError::Io {
                    path: path.to_path_buf(),
                    source,
                }
            })?;
        Ok(ConfigFile {
            path: path.to_path_buf(),
            text,
        })
    }

    /// A config from text (tests, stored manifests).
    pub fn from_text(path: impl Into<PathBuf>, text: impl Into<String>) -> ConfigFile {
        ConfigFile {
            path: path.into(),
            text: text.into(),
        }
    }

    /// The experiment kind named by the top-level `kind` key.
    pub fn kind(&self, known: &[&str]) -> Result<String, ConfigError> {
        let h: Header = self.parse_loose()?;
        match h.kind {
            None => Err(self.invalid(
                0..0,
                "missing top-level key `kind`",
                &format!(
                    "add `kind = \"...\"` at the top; known kinds: {}",
                    known.join(", ")
                ),
            )),
            Some(k) if !known.contains(&k.get_ref().as_str()) => Err(self.invalid(
                k.span(),
                &format!("unknown experiment kind `{}`", k.get_ref()),
                &format!("use one of: {}", known.join(", ")),
            )),
            Some(k) => Ok(k.into_inner()),
        }
    }

    fn parse_loose<T: DeserializeOwned>(&self) -> Result<T, ConfigError> {
        toml::from_str(&self.text).map_err(|e| self.toml_error(&e))
    }

    /// Parse into the kind's schema (which should `deny_unknown_fields`).
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, ConfigError> {
        self.parse_loose()
    }

    fn toml_error(&self, e: &toml::de::Error) -> ConfigError {
        let (line, col) = self.line_col(e.span().map_or(0, |s| s.start));
        let message = e.message().trim().to_string();
        let fix = if message.contains("unknown field") {
            "remove or rename the key; the message lists the keys allowed here".to_string()
        } else if message.contains("missing field") {
            "add the missing key (see the configs/ folder for complete examples)".to_string()
        } else if message.contains(" must be an integer >= ") {
            "give a value the message allows, e.g. k = [5, 10, \"n\"] or n = [100, \"all\"]"
                .to_string()
        } else if message.contains("unknown variant") {
            "use one of the values the message lists".to_string()
        } else {
            "see docs/config.md (every key a config accepts)".to_string()
        };
        ConfigError::Parse {
            path: self.path.clone(),
            line,
            col,
            message,
            fix,
        }
    }

    /// 1-based line and column of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let before = &self.text[..offset];
        let line = before.matches('\n').count() + 1;
        let col = before.rfind('\n').map_or(offset, |p| offset - p - 1) + 1;
        (line, col)
    }

    /// An error unless a list is non-empty: `what` names its key (the error
    /// points at the list).
    pub fn non_empty<T>(
        &self,
        what: &str,
        list: &toml::Spanned<Vec<T>>,
    ) -> Result<(), ConfigError> {
        if !list.get_ref().is_empty() {
            return Ok(());
        }
        Err(self.invalid(
            list.span(),
            &format!("`{what}` is empty: the grid has no cells"),
            &format!("add at least one entry to `{what}`"),
        ))
    }

    /// A `threads` entry (key `key`), checked: 1 to [`MAX_CELL_THREADS`],
    /// as `--threads` refuses 0 (no kind reads 0 as "all cores": leave the
    /// key out for that), with the entry's line:col on error.
    pub fn threads(&self, key: &str, t: &toml::Spanned<usize>) -> Result<usize, ConfigError> {
        let v = *t.get_ref();
        if (1..=MAX_CELL_THREADS).contains(&v) {
            return Ok(v);
        }
        Err(self.invalid(
            t.span(),
            &format!("{key} = {v} is out of range"),
            &format!("use 1 to {MAX_CELL_THREADS}, or leave `{key}` out for the default"),
        ))
    }

    /// Check that the config's `name` (at `span`) is a plain folder name: the
    /// run is written to `<out>/<name>/` and `--fresh` deletes inside it, so a
    /// name must not leave `<out>` (no `/`, `\\`, `..`, `.`, empty, absolute
    /// or control characters; at most 200 bytes).
    pub fn check_folder_name(&self, name: &str, span: Range<usize>) -> Result<(), ConfigError> {
        let problem = if name.is_empty() {
            Some("is empty")
        } else if name == "." || name == ".." {
            Some("is `.` or `..`")
        } else if name.contains(['/', '\\']) {
            Some("contains a path separator (`/` or `\\`)")
        } else if name.chars().any(char::is_control) {
            Some("contains a control character")
        } else if name.len() > 200 {
            Some("is longer than 200 bytes")
        } else if name.starts_with('-') || name.starts_with(' ') || name.ends_with(' ') {
            Some("starts with `-` or has leading/trailing spaces")
        } else if is_results_root_file(name) {
            Some("is the name of a file `cvbench report` writes beside the run folders (REPORT.md, index.html, tables and figures)")
        } else {
            None
        };
        match problem {
            None => Ok(()),
            Some(p) => Err(self.invalid(
                span,
                &format!("name = {name:?} {p}: the name is the results folder under --out"),
                "use a plain folder name such as \"table2-a9a\" (letters, digits, `-`, `_`, `.`)",
            )),
        }
    }

    /// A validation error at `span`, with a fix.
    pub fn invalid(&self, span: Range<usize>, message: &str, fix: &str) -> ConfigError {
        let (line, col) = self.line_col(span.start);
        ConfigError::Invalid {
            path: self.path.clone(),
            line,
            col,
            message: message.to_string(),
            fix: fix.to_string(),
        }
    }
}

/// Most threads a config's `threads` key may ask for (any kind).
pub const MAX_CELL_THREADS: usize = 256;

/// The file name extensions of what `cvbench report` writes at the results
/// root beside the run folders (`REPORT.md`, `index.html`, the overview
/// tables and figures): a run folder may not be named like one.
pub const RESULTS_ROOT_FILE_EXTENSIONS: &[&str] =
    &["md", "html", "htm", "csv", "parquet", "json", "png", "svg"];

/// Whether `name` (a run folder) could clash with a file at the results root.
pub fn is_results_root_file(name: &str) -> bool {
    name.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && RESULTS_ROOT_FILE_EXTENSIONS
                .iter()
                .any(|e| e.eq_ignore_ascii_case(ext))
    })
}

/// A `k` value: an integer, or `"n"` for leave-one-out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KValue {
    /// A fixed number of folds.
    Folds(usize),
    /// `k = n` (LOOCV).
    Loo,
}

impl KValue {
    /// The number of folds for `n` points.
    pub fn resolve(self, n: usize) -> usize {
        match self {
            KValue::Folds(k) => k,
            KValue::Loo => n,
        }
    }

    /// Label used in outputs: the number, or `n`.
    pub fn label(self) -> String {
        match self {
            KValue::Folds(k) => k.to_string(),
            KValue::Loo => "n".to_string(),
        }
    }
}

/// An `n` value: a subsample size, or `"all"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NValue {
    /// Use this many points (a seeded random subsample).
    Size(usize),
    /// Use the whole dataset.
    All,
}

/// A value that is an integer or a word (`k`: a number or "n"; `n`: a
/// number or "all"), read by one visitor so that any other value (a float
/// such as 2.5, a negative number, a boolean, another word) gets an error
/// saying what is allowed, not serde's "did not match any variant".
struct IntOrWord {
    /// The key, for messages (`k`, `n`).
    key: &'static str,
    /// The one word allowed besides integers.
    word: &'static str,
    /// What the word means.
    meaning: &'static str,
    /// The smallest integer allowed.
    min: u64,
}

enum IntOrWordValue {
    Int(u64),
    Word,
}

impl IntOrWord {
    /// The value of `key`: an integer of at least `min`, or `word`, which
    /// means `meaning`.
    fn new(key: &'static str, word: &'static str, meaning: &'static str, min: u64) -> Self {
        IntOrWord {
            key,
            word,
            meaning,
            min,
        }
    }

    fn expected(&self) -> String {
        format!(
            "{} must be an integer >= {} or \"{}\" ({})",
            self.key, self.min, self.word, self.meaning
        )
    }
}

impl<'de> serde::de::Visitor<'de> for &IntOrWord {
    type Value = IntOrWordValue;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(&self.expected())
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<IntOrWordValue, E> {
        if v < self.min {
            return Err(E::custom(format!(
                "{} = {v}: {}",
                self.key,
                self.expected()
            )));
        }
        Ok(IntOrWordValue::Int(v))
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<IntOrWordValue, E> {
        match u64::try_from(v) {
            Ok(v) => self.visit_u64(v),
            Err(_) => Err(E::custom(format!(
                "{} = {v}: {}",
                self.key,
                self.expected()
            ))),
        }
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<IntOrWordValue, E> {
        Err(E::custom(format!(
            "{} = {v} is not an integer: {}",
            self.key,
            self.expected()
        )))
    }

    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<IntOrWordValue, E> {
        Err(E::custom(format!(
            "{} = {v}: {}",
            self.key,
            self.expected()
        )))
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<IntOrWordValue, E> {
        if v == self.word {
            return Ok(IntOrWordValue::Word);
        }
        Err(E::custom(format!(
            "{} = \"{v}\": {}",
            self.key,
            self.expected()
        )))
    }
}

/// A value too large for this machine's `usize` is an error, not a wrap.
fn to_usize<E: serde::de::Error>(key: &str, v: u64) -> Result<usize, E> {
    usize::try_from(v).map_err(|_| E::custom(format!("{key} = {v} is too large")))
}

impl IntOrWord {
    fn read<'de, D: serde::Deserializer<'de>>(&self, d: D) -> Result<IntOrWordValue, D::Error> {
        d.deserialize_any(self)
    }

    /// Reads the value: an integer as `int` of it, the word as `word`.
    fn read_as<'de, D: serde::Deserializer<'de>, T>(
        &self,
        d: D,
        int: fn(usize) -> T,
        word: T,
    ) -> Result<T, D::Error> {
        match self.read(d)? {
            IntOrWordValue::Int(v) => Ok(int(to_usize(self.key, v)?)),
            IntOrWordValue::Word => Ok(word),
        }
    }
}

impl<'de> Deserialize<'de> for KValue {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // Every kind's folds are 2..=n: 0 and 1 are refused here, at the
        // value's line:col (`n` is checked when the data is loaded).
        IntOrWord::new("k", "n", "leave-one-out", 2).read_as(d, KValue::Folds, KValue::Loo)
    }
}

impl<'de> Deserialize<'de> for NValue {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        IntOrWord::new("n", "all", "the whole dataset", 1).read_as(d, NValue::Size, NValue::All)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct S {
        kind: String,
        k: Vec<toml::Spanned<KValue>>,
    }

    #[test]
    fn unknown_key_names_line_and_column() {
        let c = ConfigFile::from_text("x.toml", "kind = \"a\"\nk = [5]\nbogus = 1\n");
        let e = c.parse::<S>().unwrap_err().to_string();
        assert!(e.starts_with("x.toml:3:1:"), "{e}");
        assert!(e.contains("bogus") && e.contains("fix:"), "{e}");
    }

    #[test]
    fn k_values_and_spans() {
        let c = ConfigFile::from_text("x.toml", "kind = \"a\"\nk = [5, \"n\"]\n");
        let s: S = c.parse().unwrap();
        assert_eq!(*s.k[0].get_ref(), KValue::Folds(5));
        assert_eq!(*s.k[1].get_ref(), KValue::Loo);
        assert_eq!(c.line_col(s.k[1].span().start), (2, 9));
        let bad = ConfigFile::from_text("x.toml", "kind = \"a\"\nk = [\"m\"]\n");
        assert!(bad
            .parse::<S>()
            .unwrap_err()
            .to_string()
            .contains("x.toml:2:"));
    }

    #[test]
    fn k_and_n_errors_say_what_is_allowed() {
        for (text, want) in [
            (
                "k = [2.5]",
                "k = 2.5 is not an integer: k must be an integer >= 2 or \"n\" (leave-one-out)",
            ),
            ("k = [-3]", "k = -3: k must be an integer >= 2"),
            ("k = [1]", "k = 1: k must be an integer >= 2"),
            ("k = [true]", "k = true: "),
            ("k = [\"m\"]", "k = \"m\": "),
        ] {
            let c = ConfigFile::from_text("x.toml", format!("kind = \"a\"\n{text}\n"));
            let e = c.parse::<S>().unwrap_err().to_string();
            assert!(e.contains(want) && e.contains("x.toml:2:"), "{e}");
            assert!(!e.contains("untagged"), "{e}");
        }
        #[derive(Deserialize, Debug)]
        #[allow(dead_code)]
        struct N {
            n: Vec<NValue>,
        }
        let c = ConfigFile::from_text("x.toml", "n = [0]\n");
        let e = c.parse::<N>().unwrap_err().to_string();
        assert!(e.contains("n must be an integer >= 1 or \"all\""), "{e}");
        let c = ConfigFile::from_text("x.toml", "n = [\"all\", 7]\n");
        assert_eq!(c.parse::<N>().unwrap().n, [NValue::All, NValue::Size(7)]);
    }

    #[test]
    fn kind_is_checked() {
        let c = ConfigFile::from_text("x.toml", "kind = \"nope\"\n");
        let e = c.kind(&["treecv"]).unwrap_err().to_string();
        assert!(e.contains("x.toml:1:8") && e.contains("treecv"), "{e}");
    }
}
