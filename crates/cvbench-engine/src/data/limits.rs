//! Size limits: sizes that come from inputs (a config's `n` and `d`, a
//! LibSVM file's largest feature index) are checked against what they can
//! mean and against this machine's memory before anything is allocated, so
//! that a typo gives an error, not an abort or a panic.

use super::DataError;
use std::sync::OnceLock;

/// The most features a dataset may have: 2^27 (134,217,728). A dense weight
/// vector of that width takes 1 GiB; the widest public LibSVM datasets
/// (kdd2010, about 30 million features) fit well below it.
pub const MAX_FEATURES: usize = 1 << 27;

/// This machine's physical memory in bytes (`MemTotal` of `/proc/meminfo`;
/// 16 GiB where that is not available).
pub fn memory_bytes() -> u64 {
    static MEM: OnceLock<u64> = OnceLock::new();
    *MEM.get_or_init(|| {
        std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|t| {
                t.lines()
                    .find_map(|l| l.strip_prefix("MemTotal:"))
                    .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            })
            .map_or(16 << 30, |kb| kb.saturating_mul(1024))
    })
}

fn gib(bytes: u128) -> String {
    format!("{:.1} GiB", bytes as f64 / f64::from(1u32 << 30))
}

/// Check that `count` values of `elem_bytes` bytes each (for `what`) fit in
/// this machine's memory; the error says how much was asked for.
pub fn check_alloc(what: &str, count: u128, elem_bytes: u128) -> Result<(), DataError> {
    let bytes = count.saturating_mul(elem_bytes);
    let mem = u128::from(memory_bytes());
    if bytes > mem {
        return Err(DataError::Invalid(format!(
            "{what} needs {} of memory, more than this machine has ({}): use a smaller size",
            gib(bytes),
            gib(mem)
        )));
    }
    Ok(())
}

/// Check a feature count against [`MAX_FEATURES`].
pub fn check_features(what: &str, d: usize) -> Result<(), DataError> {
    if d > MAX_FEATURES {
        return Err(DataError::Invalid(format!(
            "{what}: {d} features is more than cvbench supports ({MAX_FEATURES})"
        )));
    }
    Ok(())
}

/// Check an `n × d` dense f64 matrix (for `what`): `d` within
/// [`MAX_FEATURES`] and the values within this machine's memory.
pub fn check_dense(what: &str, n: usize, d: usize) -> Result<(), DataError> {
    check_features(what, d)?;
    check_alloc(
        &format!("{what} ({n} × {d} dense values)"),
        n as u128 * d as u128,
        8,
    )
}

/// How much cvbench reads of one kind of file, and what to do about a file
/// over it: every file whose size comes from the user is read through one
/// of these limits (the constants below, one per kind of file), so that a
/// wrong path (`/dev/zero`, a huge binary) is an error naming the limit and
/// the fix, not memory exhaustion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileLimit {
    /// The kind of file, for messages ("a config file").
    pub kind: &'static str,
    /// The most bytes read: of the whole file, or of one line for line
    /// limits.
    pub bytes: usize,
    /// What to do about a file over the limit.
    pub fix: &'static str,
}

impl FileLimit {
    fn mib(&self) -> usize {
        self.bytes >> 20
    }
}

/// The longest line a text data file may have: 64 MiB. The widest public
/// LibSVM rows take a few hundred KiB; a longer "line" is a file that is not
/// line-oriented text (such as `/dev/zero`), read no further.
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// A line of a text data file (LibSVM, CSV, a labels file): [`MAX_LINE_BYTES`].
pub const DATA_LINE: FileLimit = FileLimit {
    kind: "a text data file",
    bytes: MAX_LINE_BYTES,
    fix: "this is not a line-oriented text data file; check the path and the format",
};

/// A line of a model file (`svm-train`'s format): a support vector's line is
/// as wide as a data row, so the same 64 MiB.
pub const MODEL_LINE: FileLimit = FileLimit {
    kind: "a model file",
    bytes: MAX_LINE_BYTES,
    fix: "give a model file written by svm-train or `cvbench svm`",
};

/// A config file (TOML): 16 MiB. The largest configs are a few KiB.
pub const CONFIG_FILE: FileLimit = FileLimit {
    kind: "a config file",
    bytes: 16 << 20,
    fix: "give the config's .toml file (configs are a few KiB; see configs/)",
};

/// A grid search's `.out` file read back by `cvbench grid -resume`: 64 MiB
/// (a line per grid point, at most 10,000 points per search, about 60
/// bytes a line).
pub const GRID_OUT_FILE: FileLimit = FileLimit {
    kind: "a grid search's .out file",
    bytes: 64 << 20,
    fix: "give the .out file that `cvbench grid` or grid.py wrote (-resume PATH)",
};

/// The cache of verified registry files (`data::registry::verified`): 4 MiB; a
/// larger one is ignored (the files are hashed again).
pub const VERIFIED_CACHE_FILE: FileLimit = FileLimit {
    kind: "the cache of verified dataset files",
    bytes: 4 << 20,
    fix: "delete it; it is rebuilt as datasets are verified",
};

/// Read one line (through its `\n`, if any) into `buf`, appending, but never
/// more than [`MAX_LINE_BYTES`]: returns the bytes read (0 at the end), or
/// an error naming the limit when the line is longer.
pub fn read_line_bounded(
    r: &mut impl std::io::BufRead,
    buf: &mut Vec<u8>,
) -> std::io::Result<usize> {
    read_line_limited(r, buf, &DATA_LINE)
}

/// [`read_line_bounded`] with the line limit of another kind of file.
pub fn read_line_limited(
    r: &mut impl std::io::BufRead,
    buf: &mut Vec<u8>,
    limit: &FileLimit,
) -> std::io::Result<usize> {
    let mut read = 0;
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(read);
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(p) => (p + 1, true),
            None => (chunk.len(), false),
        };
        if buf.len() + take > limit.bytes {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "a line longer than {} MiB (no newline?), the limit for a line of {}: {}",
                    limit.mib(),
                    limit.kind,
                    limit.fix
                ),
            ));
        }
        buf.extend_from_slice(&chunk[..take]);
        r.consume(take);
        read += take;
        if done {
            return Ok(read);
        }
    }
}

/// The lines of `r` (without `\n` or `\r\n`, as [`std::io::BufRead::lines`]),
/// each at most `limit.bytes` long: a longer line or one that is not UTF-8
/// is an [`std::io::ErrorKind::InvalidData`] error naming the limit.
pub fn lines_limited<R: std::io::BufRead>(r: R, limit: FileLimit) -> LimitedLines<R> {
    LimitedLines { r, limit }
}

/// The iterator of [`lines_limited`].
pub struct LimitedLines<R> {
    r: R,
    limit: FileLimit,
}

impl<R: std::io::BufRead> Iterator for LimitedLines<R> {
    type Item = std::io::Result<String>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut buf = Vec::new();
        match read_line_limited(&mut self.r, &mut buf, &self.limit) {
            Ok(0) => None,
            Ok(_) => {
                if buf.last() == Some(&b'\n') {
                    buf.pop();
                    if buf.last() == Some(&b'\r') {
                        buf.pop();
                    }
                }
                Some(String::from_utf8(buf).map_err(|_| {
                    std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        format!(
                            "a line of {} that is not UTF-8 text: {}",
                            self.limit.kind, self.limit.fix
                        ),
                    )
                }))
            }
            Err(e) => Some(Err(e)),
        }
    }
}

/// Read a whole text file of the kind `limit` names: a regular file (a
/// folder, FIFO, device or socket is an error saying so, checked before it
/// is opened, so that a FIFO does not block), at most `limit.bytes` long,
/// UTF-8. Errors are [`std::io::Error`]s whose text names the limit and the
/// fix (callers attach the path).
pub fn read_text_limited(path: &std::path::Path, limit: &FileLimit) -> std::io::Result<String> {
    use std::io::{Error, ErrorKind, Read};
    let meta = std::fs::metadata(path)?;
    let not_file = if meta.is_dir() {
        Some("a folder")
    } else if !meta.is_file() {
        Some("not a regular file (a FIFO, device or socket)")
    } else {
        None
    };
    if let Some(what) = not_file {
        return Err(Error::new(
            ErrorKind::InvalidInput,
            format!("is {what}, not {}: {}", limit.kind, limit.fix),
        ));
    }
    let mut out = Vec::new();
    std::fs::File::open(path)?
        .take(limit.bytes as u64 + 1)
        .read_to_end(&mut out)?;
    if out.len() > limit.bytes {
        return Err(Error::new(
            ErrorKind::InvalidData,
            format!(
                "larger than {} MiB, the limit for {}: {}",
                limit.mib(),
                limit.kind,
                limit.fix
            ),
        ));
    }
    String::from_utf8(out).map_err(|e| {
        Error::new(
            ErrorKind::InvalidData,
            format!(
                "not UTF-8 text (byte {} is not valid UTF-8), so not {}: {}",
                e.utf8_error().valid_up_to() + 1,
                limit.kind,
                limit.fix
            ),
        )
    })
}

/// The error of [`read_line_bounded`] at line `line` of `path`: a too-long
/// line is a parse error naming the line; others are I/O errors.
pub fn line_error(path: &std::path::Path, line: usize, e: std::io::Error) -> DataError {
    if e.kind() == std::io::ErrorKind::InvalidData {
        DataError::Parse {
            path: path.to_path_buf(),
            line,
            msg: e.to_string(),
        }
    } else {
        DataError::io(path, e)
    }
}

/// A data file's dataset, unless it has no rows: an empty file (or one of
/// blank and comment lines only) is an error that says so, not a dataset
/// that later fails with a misleading message (about labels or folds).
pub fn non_empty(ds: super::Dataset, path: &std::path::Path) -> Result<super::Dataset, DataError> {
    if ds.n() > 0 {
        return Ok(ds);
    }
    Err(DataError::Format {
        path: path.to_path_buf(),
        msg: "no data rows: the file is empty or holds only blank and comment lines; check that it is the right file and that it was written or downloaded completely".into(),
    })
}

/// Read all of `r`, but never more than this machine's memory: an error
/// naming the limit (for `what`) otherwise.
pub fn read_to_end_bounded(r: impl std::io::Read, what: &str) -> Result<Vec<u8>, std::io::Error> {
    use std::io::Read;
    let limit = memory_bytes();
    let mut out = Vec::new();
    r.take(limit.saturating_add(1)).read_to_end(&mut out)?;
    if out.len() as u64 > limit {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "{what} is larger than this machine's memory ({})",
                gib(u128::from(limit))
            ),
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_reject_what_cannot_fit() {
        assert!(memory_bytes() > 1 << 20);
        check_dense("x", 1000, 54).unwrap();
        let e = check_dense("x", 1 << 32, 54).unwrap_err().to_string();
        assert!(
            e.contains("GiB") && e.contains("more than this machine"),
            "{e}"
        );
        let e = check_dense("x", 10, usize::MAX).unwrap_err().to_string();
        assert!(e.contains("more than cvbench supports"), "{e}");
        assert!(check_alloc("y", u128::MAX, 8).is_err());
    }

    #[test]
    fn lines_are_read_whole_up_to_the_limit() {
        let mut r = std::io::BufReader::with_capacity(3, &b"ab\ncdef\nlast"[..]);
        let mut b = Vec::new();
        assert_eq!(read_line_bounded(&mut r, &mut b).unwrap(), 3);
        assert_eq!(b, b"ab\n");
        b.clear();
        assert_eq!(read_line_bounded(&mut r, &mut b).unwrap(), 5);
        b.clear();
        assert_eq!(read_line_bounded(&mut r, &mut b).unwrap(), 4);
        assert_eq!(b, b"last");
        b.clear();
        assert_eq!(read_line_bounded(&mut r, &mut b).unwrap(), 0);
        // An endless line (like /dev/zero) stops at the limit.
        let mut zero = std::io::BufReader::new(std::io::repeat(0));
        let e = read_line_bounded(&mut zero, &mut b).unwrap_err();
        assert!(e.to_string().contains("64 MiB"), "{e}");
        assert!(b.len() <= MAX_LINE_BYTES);
    }
}
