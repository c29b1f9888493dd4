//! The data directory: where dataset files are looked for (`--data-dir`,
//! else `$CVBENCH_DATA_DIR`, else `./data`), and the file names tried.

use crate::data::read::compress::Compression;
use std::fmt;
use std::path::{Path, PathBuf};

/// Environment variable naming the data directory.
pub const DATA_DIR_ENV: &str = "CVBENCH_DATA_DIR";

/// Where the data directory setting came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataDirSource {
    /// A command-line flag (or explicit argument).
    Flag,
    /// The `CVBENCH_DATA_DIR` environment variable.
    Env,
    /// The default `./data`.
    Default,
}

/// The directory holding dataset files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataDir {
    path: PathBuf,
    source: DataDirSource,
}

impl DataDir {
    /// `flag` if given, else `$CVBENCH_DATA_DIR` if set and non-empty, else `./data`.
    pub fn resolve(flag: Option<PathBuf>) -> DataDir {
        if let Some(p) = flag {
            return DataDir {
                path: p,
                source: DataDirSource::Flag,
            };
        }
        match std::env::var_os(DATA_DIR_ENV) {
            Some(v) if !v.is_empty() => DataDir {
                path: PathBuf::from(v),
                source: DataDirSource::Env,
            },
            _ => DataDir {
                path: PathBuf::from("data"),
                source: DataDirSource::Default,
            },
        }
    }

    /// A data directory at an explicit path.
    pub fn new(path: impl Into<PathBuf>) -> DataDir {
        DataDir {
            path: path.into(),
            source: DataDirSource::Flag,
        }
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Where the setting came from.
    pub fn source(&self) -> DataDirSource {
        self.source
    }

    /// Every path at which file `name` is looked for, in order:
    /// `name`, `name.xz`, `name.bz2`, `name.gz`, `name.zip`.
    pub fn candidates(&self, name: &str) -> Vec<PathBuf> {
        Compression::ALL
            .iter()
            .map(|c| self.path.join(format!("{name}{}", c.suffix())))
            .collect()
    }

    /// The first existing candidate for file `name`.
    pub fn find(&self, name: &str) -> Option<PathBuf> {
        self.candidates(name).into_iter().find(|p| p.is_file())
    }
}

impl fmt::Display for DataDir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let how = match self.source {
            DataDirSource::Flag => "from --data-dir",
            DataDirSource::Env => "from CVBENCH_DATA_DIR",
            DataDirSource::Default => "default; set CVBENCH_DATA_DIR or --data-dir to change",
        };
        write!(f, "{} ({how})", self.path.display())
    }
}
