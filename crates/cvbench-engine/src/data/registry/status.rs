//! What `cvbench datasets` shows: each registry dataset's files as found
//! in a data directory, and how to get the missing ones.

use super::data_dir::DataDir;
use super::{FileEntry, Registry};
use std::fmt;
use std::path::PathBuf;

/// One dataset's state in a data directory, for `cvbench datasets`.
#[derive(Clone, Debug)]
pub struct DatasetStatus {
    /// Registry name.
    pub name: String,
    /// One-line description.
    pub description: String,
    /// Each file and where it was found (`None` = missing).
    pub files: Vec<(String, Option<PathBuf>)>,
    /// How to get the first missing file, if any is missing.
    pub hint: Option<String>,
    /// Whether every file has a pinned checksum.
    pub pinned: bool,
}

impl DatasetStatus {
    /// Whether every file was found.
    pub fn available(&self) -> bool {
        self.files.iter().all(|(_, p)| p.is_some())
    }
}

impl fmt::Display for DatasetStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<20} {}{}",
            self.name,
            if self.available() {
                "available"
            } else {
                "MISSING"
            },
            if self.pinned {
                ""
            } else {
                " (checksum unpinned)"
            }
        )?;
        writeln!(f, "    {}", self.description)?;
        for (name, p) in &self.files {
            match p {
                Some(p) => writeln!(f, "    {name}: {}", p.display())?,
                None => writeln!(f, "    {name}: not found")?,
            }
        }
        if let Some(h) = &self.hint {
            for line in h.lines() {
                writeln!(f, "    {line}")?;
            }
        }
        Ok(())
    }
}

/// The state of every builtin registry dataset in `dir` (no hashing: fast).
pub fn status(dir: &DataDir) -> Vec<DatasetStatus> {
    status_of(Registry::builtin(), dir)
}

/// Like [`status`], for any registry.
pub fn status_of(reg: &Registry, dir: &DataDir) -> Vec<DatasetStatus> {
    reg.entries()
        .map(|e| {
            let files: Vec<(String, Option<PathBuf>)> = e
                .files
                .iter()
                .map(|f| (f.name.clone(), dir.find(&f.name)))
                .collect();
            let hint = e
                .files
                .iter()
                .zip(&files)
                .find(|(_, (_, p))| p.is_none())
                .map(|(f, _)| e.how_to_get(dir, f));
            DatasetStatus {
                name: e.name.clone(),
                description: e.description.clone(),
                pinned: e.files.iter().all(FileEntry::is_pinned),
                files,
                hint,
            }
        })
        .collect()
}
