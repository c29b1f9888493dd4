//! The results folder given by `--out`: checked, and the run folder with its
//! `cells/` made and probed for writing, before any cell runs, or refused
//! with an [`ExperimentError::Output`] that says what to do (exit code 2).

use crate::experiments::ExperimentError;
use std::io::ErrorKind;
use std::path::Path;

fn refuse(out: &Path, message: String, fix: &str) -> ExperimentError {
    ExperimentError::Output {
        path: out.to_path_buf(),
        message,
        fix: fix.to_string(),
    }
}

/// Checks that need nothing created: `out` is not a dangling symbolic link,
/// not a file, and not under a file.
pub fn check(out: &Path) -> Result<(), ExperimentError> {
    if let Ok(m) = std::fs::symlink_metadata(out) {
        if m.file_type().is_symlink() && std::fs::metadata(out).is_err() {
            let target = std::fs::read_link(out).unwrap_or_default();
            return Err(refuse(
                out,
                format!(
                    "is a symbolic link to {}, which does not exist",
                    target.display()
                ),
                "create the folder it points to, remove the link, or give another --out",
            ));
        }
        if !out.is_dir() {
            return Err(refuse(
                out,
                "is a file, not a folder".into(),
                "give a folder for the results (created if missing)",
            ));
        }
        return Ok(());
    }
    // The nearest ancestor that exists must be a folder.
    if let Some(anc) = out
        .ancestors()
        .skip(1)
        .find(|a| !a.as_os_str().is_empty() && std::fs::symlink_metadata(a).is_ok())
    {
        if !anc.is_dir() {
            return Err(refuse(
                out,
                format!(
                    "cannot be made: {} is a file, so no folder can be made under it",
                    anc.display()
                ),
                "give a path whose parents are folders",
            ));
        }
    }
    Ok(())
}

/// [`check`], then make `<run>/cells/` (`run` is the run folder under
/// `out`) and check that a file can be written there.
pub fn make(out: &Path, run: &Path) -> Result<(), ExperimentError> {
    check(out)?;
    let cells = run.join("cells");
    // `create_dir_all` tolerates another process creating it at the same time.
    std::fs::create_dir_all(&cells).map_err(|e| unwritable(out, &cells, &e))?;
    probe(out, &cells)
}

/// Check that a file can be written in the existing folder `dir` (under
/// `out`), creating and removing a probe file there (under the write lock,
/// so that an interruption waits until it is gone).
pub fn probe(out: &Path, dir: &Path) -> Result<(), ExperimentError> {
    let _writing = crate::interrupt::write_guard();
    tempfile::Builder::new()
        .prefix(".cvbench-probe-")
        .tempfile_in(dir)
        .map(drop)
        .map_err(|e| unwritable(out, dir, &e))
}

/// The refusal of `out` when `dir` (a folder under it) cannot be made or
/// written, by the kind of `e`.
fn unwritable(out: &Path, dir: &Path, e: &std::io::Error) -> ExperimentError {
    let (message, fix) = match e.kind() {
        ErrorKind::PermissionDenied => (
            format!("cannot be written: permission denied for {}", dir.display()),
            "give a folder you can write, or change its permissions",
        ),
        ErrorKind::ReadOnlyFilesystem => (
            format!(
                "cannot be written: {} is on a read-only file system",
                dir.display()
            ),
            "give a folder on a writable file system",
        ),
        ErrorKind::StorageFull => (
            format!("cannot be written: no space left for {}", dir.display()),
            "free some space or give a folder on another disk",
        ),
        _ => (
            format!("cannot be written: {}: {e}", dir.display()),
            "give a folder you can write",
        ),
    };
    refuse(out, message, fix)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dangling_links_files_and_paths_under_files_are_refused() {
        let d = tempfile::tempdir().unwrap();
        let file = d.path().join("f");
        std::fs::write(&file, "x").unwrap();
        let e = check(&file).unwrap_err().to_string();
        assert!(
            e.contains("is a file, not a folder") && e.contains("fix:"),
            "{e}"
        );
        let e = check(&file.join("sub/deeper")).unwrap_err().to_string();
        assert!(e.contains("no folder can be made under it"), "{e}");
        #[cfg(unix)]
        {
            let link = d.path().join("link");
            std::os::unix::fs::symlink(d.path().join("nowhere"), &link).unwrap();
            let e = check(&link).unwrap_err().to_string();
            assert!(e.contains("symbolic link") && e.contains("nowhere"), "{e}");
        }
        let ok = d.path().join("new/out");
        make(&ok, &ok.join("run")).unwrap();
        assert!(ok.join("run/cells").is_dir());
        assert_eq!(std::fs::read_dir(ok.join("run/cells")).unwrap().count(), 0);
    }
}
