//! Finding the run folders under a results root and checking each before
//! the report trusts it: a manifest of a known kind, records that can be
//! read (a truncated file cannot), carry that kind's columns, hold that
//! kind's rows and every cell the manifest lists. A folder that fails a
//! check is skipped and listed with the reason, never silently left out.

use crate::experiments::{kinds, Kind};
use crate::results::manifest::Manifest;
use crate::results::table::{from_frame, read_parquet, Record, Value};
use rayon::prelude::*;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A run folder the report leaves out, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The folder's name under the results root.
    pub name: String,
    /// Why it was left out, and what to do.
    pub reason: String,
}

/// A run folder that passed the checks.
pub struct Found {
    /// The run folder.
    pub dir: PathBuf,
    /// Its manifest.
    pub manifest: Manifest,
    /// Its kind.
    pub kind: &'static dyn Kind,
    /// Its records.
    pub records: Vec<Record>,
}

/// Columns every record of a kind carries (what its tables are made of;
/// [`crate::experiments::Kind::required_columns`]); none for a kind this
/// cvbench does not know.
pub fn required_columns(kind: &str) -> &'static [&'static str] {
    crate::experiments::registry::kind_named(kind).map_or(&[], |k| k.required_columns())
}

/// Whether a folder looks like a run folder (so that its absence of a
/// manifest is worth a line): it holds records or cell files.
fn looks_like_a_run(dir: &Path) -> bool {
    ["records.parquet", "records.csv", "cells"]
        .iter()
        .any(|f| dir.join(f).exists())
}

/// Every run folder directly under `root`, in name order: those that pass
/// the checks, and those skipped with the reason.
pub fn find(root: &Path) -> std::io::Result<(Vec<Found>, Vec<Skipped>)> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    // Each folder's records are read and checked on their own, in parallel;
    // the outcomes are gathered in name order.
    let checked: Vec<_> = dirs.into_par_iter().map(|d| (check(&d), d)).collect();
    let (mut found, mut skipped) = (Vec::new(), Vec::new());
    for (outcome, dir) in checked {
        let name = dir
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        match outcome {
            Ok(Some(f)) => found.push(f),
            Ok(None) => {}
            Err(reason) => skipped.push(Skipped { name, reason }),
        }
    }
    Ok((found, skipped))
}

/// Check one folder: `Ok(None)` when it is not a run folder at all.
fn check(dir: &Path) -> Result<Option<Found>, String> {
    let mpath = dir.join("manifest.json");
    if !mpath.is_file() {
        return if looks_like_a_run(dir) {
            Err("no manifest.json (an interrupted or partly copied run): re-run its config, or `cvbench collect` it".into())
        } else {
            Ok(None)
        };
    }
    let text = std::fs::read_to_string(&mpath).map_err(|e| format!("manifest.json: {e}"))?;
    let manifest: Manifest = serde_json::from_str(&text)
        .map_err(|e| format!("manifest.json is not a cvbench manifest ({e})"))?;
    let known = kinds();
    let Some(kind) = known.iter().copied().find(|k| k.name() == manifest.kind) else {
        let names: Vec<&str> = known.iter().map(|k| k.name()).collect();
        return Err(format!(
            "manifest kind `{}` is not one this cvbench knows ({})",
            manifest.kind,
            names.join(", ")
        ));
    };
    let rpath = dir.join("records.parquet");
    if !rpath.is_file() {
        return Err("no records.parquet: re-run its config".into());
    }
    let frame = read_parquet(&rpath).map_err(|e| {
        format!("records.parquet cannot be read (truncated or not a Parquet table): {e}")
    })?;
    let records = from_frame(&frame).map_err(|e| format!("records.parquet: {e}"))?;
    check_records(&manifest, &records)?;
    Ok(Some(Found {
        dir: dir.to_path_buf(),
        manifest,
        kind,
        records,
    }))
}

/// The records hold rows of the manifest's kind, with its columns, for every
/// cell the manifest lists.
pub fn check_records(manifest: &Manifest, records: &[Record]) -> Result<(), String> {
    let kind = manifest.kind.as_str();
    if records.is_empty() {
        return Err("records.parquet holds no rows".into());
    }
    let have: BTreeSet<&str> = records[0].0.iter().map(|(c, _)| c.as_str()).collect();
    let missing: Vec<&str> = required_columns(kind)
        .iter()
        .copied()
        .filter(|c| !have.contains(c))
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "records.parquet lacks the {kind} column(s) {} (records of another kind or table?)",
            missing.join(", ")
        ));
    }
    if have.contains("kind") {
        if let Some(other) = records.iter().find_map(|r| match r.get("kind") {
            Some(Value::Str(k)) if k != kind => Some(k.clone()),
            _ => None,
        }) {
            return Err(format!(
                "records.parquet holds `{other}` rows, but the manifest's kind is `{kind}`"
            ));
        }
    }
    if have.contains("cell") {
        let present: BTreeSet<String> = records.iter().map(|r| r.text("cell")).collect();
        let absent: Vec<&str> = manifest
            .cells
            .iter()
            .map(|(k, _)| k.as_str())
            .filter(|k| !present.contains(*k))
            .collect();
        if !absent.is_empty() {
            return Err(format!(
                "records.parquet holds {} of the manifest's {} cells (missing e.g. `{}`): truncated, or records of another run",
                manifest.cells.len() - absent.len(),
                manifest.cells.len(),
                absent[0]
            ));
        }
    }
    Ok(())
}

/// The report's section listing the skipped folders (empty when none).
pub fn section(skipped: &[Skipped]) -> String {
    if skipped.is_empty() {
        return String::new();
    }
    let mut t = crate::results::md_table::MdTable::new(["folder", "why it is not in this report"]);
    for s in skipped {
        t.row([
            format!("`{}`", s.name),
            crate::results::md_table::MdTable::text(&s.reason),
        ]);
    }
    format!(
        "## Skipped folders\n\n{} folder(s) under this results folder look like runs but were left out:\n\n{}\n",
        skipped.len(),
        t.markdown()
    )
}
