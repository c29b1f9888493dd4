//! A stored run of the `progressive` kind read back for the verdicts.

use crate::config::ConfigFile;
use crate::experiments::progressive::config::{parse, ProgressiveConfig};
use crate::experiments::progressive::rows::{read_rows, Row};
use crate::results::scorecard::StoredRun;

/// A stored run read back: its name, its config (when it still parses) and
/// its typed rows.
pub struct TypedRun<'a> {
    /// The run's name.
    pub name: &'a str,
    /// Its config, when it still parses.
    pub config: Option<ProgressiveConfig>,
    /// Its rows.
    pub rows: Vec<Row>,
}

impl<'a> TypedRun<'a> {
    /// The run's rows; a run whose records do not read as rows has none (its
    /// render reports the error).
    pub fn of(run: &'a StoredRun) -> TypedRun<'a> {
        TypedRun {
            name: &run.name,
            config: parse(&ConfigFile::from_text(
                &run.manifest.config_path,
                &run.manifest.config,
            ))
            .ok(),
            rows: read_rows(&run.records).unwrap_or_default(),
        }
    }

    /// Whether the run holds rows of study `name`.
    pub fn has(&self, name: &str) -> bool {
        self.rows.iter().any(|r| r.study == name)
    }
}
