//! Writing a file whose path the user gave (`cvbench export -o FILE`,
//! `cvbench grid -png FILE`), without destroying anything on the way:
//!
//! - a regular file (or a new one) is replaced atomically
//!   ([`write_atomic`]), its folders made if missing;
//! - a symbolic link is written through: its target is replaced (or made,
//!   when its folder exists), the link stays;
//! - a character device or a FIFO (`/dev/stdout`, `/dev/null`, a named pipe)
//!   is opened and written as a shell redirection would, so that a write
//!   error (`/dev/full`: "No space left on device") is an error;
//! - a folder, a block device or a socket is refused, and so is a path that
//!   is one of the inputs or a table the results store (`extensions`, e.g.
//!   `.parquet`), whatever the link that leads to it.

use super::table::write_atomic;
use super::ResultsError;
use crate::atomic_write::same_file;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// What is at an output path, once symbolic links are followed.
#[derive(Debug, PartialEq, Eq)]
enum Target {
    /// A regular file, or nothing yet: written atomically at this path.
    File(PathBuf),
    /// A character device or a FIFO: opened and written in place.
    Stream(PathBuf),
}

fn refuse(path: &Path, message: impl Into<String>, fix: impl Into<String>) -> ResultsError {
    ResultsError::Refused {
        path: path.to_path_buf(),
        message: message.into(),
        fix: fix.into(),
    }
}

fn has_extension(path: &Path, extensions: &[&str]) -> Option<String> {
    let ext = path.extension()?.to_string_lossy().to_ascii_lowercase();
    extensions.contains(&ext.as_str()).then_some(ext)
}

/// Follow the symbolic links at `path` (not those of its folders) to the
/// path they lead to, which may not exist yet (a dangling link); `None` for
/// a loop.
fn follow_links(path: &Path) -> Option<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&p).ok()?;
                p = match p.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            _ => return Some(p),
        }
    }
    None
}

/// Check `path` as an output (see the module docs) and say where to write.
fn target(path: &Path, inputs: &[&Path], protected: &[&str]) -> Result<Target, ResultsError> {
    let Some(real) = follow_links(path) else {
        return Err(refuse(
            path,
            "is a loop of symbolic links",
            "give the path of a file, or remove the links",
        ));
    };
    let linked = real != path;
    if linked
        && !real
            .parent()
            .is_some_and(|d| d.as_os_str().is_empty() || d.is_dir())
    {
        return Err(refuse(
            path,
            format!(
                "is a symbolic link to {}, whose folder does not exist",
                real.display()
            ),
            "make the folder, give the path of the file itself, or remove the link",
        ));
    }
    for p in [path, real.as_path()] {
        if let Some(ext) = has_extension(p, protected) {
            return Err(refuse(
                path,
                format!(
                    "names a .{ext} file{}: the results store their tables so, and this would replace one with another format",
                    if p == path { String::new() } else { format!(" ({})", p.display()) }
                ),
                "give a name ending in the format written (e.g. .csv), or `-` for standard output",
            ));
        }
    }
    if let Some(input) = inputs.iter().find(|i| same_file(i, &real)) {
        return Err(refuse(
            path,
            format!(
                "is the input {}: writing it would destroy what is read",
                input.display()
            ),
            "give another output file",
        ));
    }
    let meta = match std::fs::metadata(&real) {
        Ok(m) => m,
        Err(e) => {
            // A new file: the nearest existing ancestor must be a folder.
            if let Some(anc) = real
                .ancestors()
                .skip(1)
                .find(|a| !a.as_os_str().is_empty() && std::fs::symlink_metadata(a).is_ok())
            {
                if !anc.is_dir() {
                    return Err(refuse(
                        path,
                        format!("cannot be made: {} is not a folder", anc.display()),
                        "give a path whose parents are folders",
                    ));
                }
            }
            if e.kind() == std::io::ErrorKind::NotFound {
                return Ok(Target::File(real));
            }
            return Err(ResultsError::Write {
                path: real,
                source: e,
            });
        }
    };
    let ft = meta.file_type();
    if ft.is_file() {
        return Ok(Target::File(real));
    }
    if ft.is_dir() {
        return Err(refuse(
            path,
            "is a folder",
            format!("give a file name (e.g. {})", path.join("out.csv").display()),
        ));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_char_device() || ft.is_fifo() {
            return Ok(Target::Stream(real));
        }
        if ft.is_block_device() {
            return Err(refuse(
                path,
                "is a block device (a disk): refusing to write a file over it",
                "give a regular file, or `-` for standard output",
            ));
        }
    }
    Err(refuse(
        path,
        "is neither a file, a character device nor a pipe (a socket?)",
        "give a regular file, or `-` for standard output",
    ))
}

/// Write `bytes` to the user-given `path` (see the module docs). `inputs`
/// are the files the command read (an output that is one of them is
/// refused), `protected` the extensions (lower case, no dot) never written
/// here. On an error nothing at `path` has changed, except for a stream
/// (device or pipe), which may have taken part of the bytes.
pub fn write_user_file(
    path: &Path,
    bytes: &[u8],
    inputs: &[&Path],
    protected: &[&str],
) -> Result<(), ResultsError> {
    match target(path, inputs, protected)? {
        Target::File(real) => write_atomic(&real, bytes),
        Target::Stream(real) => std::fs::OpenOptions::new()
            .write(true)
            .open(&real)
            .and_then(|mut f| f.write_all(bytes).and_then(|()| f.flush()))
            .map_err(|source| ResultsError::Write {
                path: path.to_path_buf(),
                source,
            }),
    }
}

/// Check `path` as [`write_user_file`] would, writing nothing: refuse it
/// before the work that makes the bytes.
pub fn check_user_file(
    path: &Path,
    inputs: &[&Path],
    protected: &[&str],
) -> Result<(), ResultsError> {
    target(path, inputs, protected).map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PARQUET: &[&str] = &["parquet"];

    #[test]
    fn files_links_devices_and_refusals() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path();
        // New file in a new folder; then replaced.
        let f = p.join("new/out.csv");
        write_user_file(&f, b"a", &[], PARQUET).unwrap();
        write_user_file(&f, b"b", &[], PARQUET).unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), b"b");
        #[cfg(unix)]
        {
            // A link is written through and stays a link.
            let link = p.join("link.csv");
            std::os::unix::fs::symlink(&f, &link).unwrap();
            write_user_file(&link, b"c", &[], PARQUET).unwrap();
            assert!(std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink());
            assert_eq!(std::fs::read(&f).unwrap(), b"c");
            // A dangling link, a link to a table: refused, nothing changes.
            let dangling = p.join("dangling.csv");
            std::os::unix::fs::symlink(p.join("nowhere/x.csv"), &dangling).unwrap();
            let e = write_user_file(&dangling, b"x", &[], PARQUET).unwrap_err();
            assert!(e.to_string().contains("whose folder does not exist"), "{e}");
            assert!(!p.join("nowhere").exists());
            // A dangling link into a folder that exists: the file is made.
            let new_target = p.join("made.csv");
            let to_new = p.join("to-new.csv");
            std::os::unix::fs::symlink("made.csv", &to_new).unwrap();
            write_user_file(&to_new, b"m", &[], PARQUET).unwrap();
            assert_eq!(std::fs::read(&new_target).unwrap(), b"m");
            assert!(std::fs::symlink_metadata(&to_new)
                .unwrap()
                .file_type()
                .is_symlink());
            let table = p.join("t.parquet");
            std::fs::write(&table, b"PAR1").unwrap();
            let to_table = p.join("to-table.csv");
            std::os::unix::fs::symlink(&table, &to_table).unwrap();
            let e = write_user_file(&to_table, b"x", &[], PARQUET).unwrap_err();
            assert!(e.to_string().contains(".parquet"), "{e}");
            assert_eq!(std::fs::read(&table).unwrap(), b"PAR1");
            // /dev/null is written to and stays a device; /dev/full fails.
            // As root, private nodes of them: a regression replaces those.
            use std::os::unix::fs::FileTypeExt;
            for (name, minor) in [("null", "3"), ("full", "7")] {
                let private = p.join(name);
                let node = if std::process::Command::new("mknod")
                    .arg(&private)
                    .args(["c", "1", minor])
                    .stderr(std::process::Stdio::null())
                    .status()
                    .is_ok_and(|s| s.success())
                {
                    private
                } else {
                    Path::new("/dev").join(name)
                };
                let written = write_user_file(&node, b"x", &[], PARQUET);
                if name == "full" {
                    let e = written.unwrap_err().to_string();
                    assert!(e.contains("No space left on device"), "{e}");
                } else {
                    written.unwrap();
                }
                let t = std::fs::symlink_metadata(&node).unwrap().file_type();
                assert!(t.is_char_device(), "{}", node.display());
            }
        }
        // The input itself, a .parquet name, a folder, a path under a file.
        let input = p.join("in.data");
        std::fs::write(&input, b"in").unwrap();
        let e = write_user_file(&input, b"x", &[&input], PARQUET).unwrap_err();
        assert!(e.to_string().contains("is the input"), "{e}");
        assert_eq!(std::fs::read(&input).unwrap(), b"in");
        let e = write_user_file(&p.join("S.PARQUET"), b"x", &[], PARQUET).unwrap_err();
        assert!(e.to_string().contains("fix:"), "{e}");
        let e = write_user_file(p, b"x", &[], PARQUET).unwrap_err();
        assert!(e.to_string().contains("is a folder"), "{e}");
        let e = write_user_file(&input.join("x.csv"), b"x", &[], PARQUET).unwrap_err();
        assert!(e.to_string().contains("is not a folder"), "{e}");
        assert!(!p.join("S.PARQUET").exists());
    }
}
