//! `cvbench grid`'s files: every output path checked before any work; the
//! `.out` file written point by point as each finishes (grid.py's visiting
//! order is for printing, not for storing), so that an interrupted grid
//! goes on with `-resume`; the resume file read as grid.py reads it.

use std::path::{Path, PathBuf};

use anyhow::Context as _;

use super::args::{usage_err, Opts};

/// Whether a `--json` value means standard output (`-`, as everywhere).
pub(super) fn is_stdout(p: &Path) -> bool {
    p.as_os_str() == "-"
}

/// The files this grid will write, each with the option that names it.
fn outputs(o: &Opts) -> Vec<(&'static str, PathBuf)> {
    let mut v: Vec<(&'static str, PathBuf)> = Vec::new();
    if let Some(p) = &o.out {
        v.push(("-out", p.clone()));
    }
    // The figure is drawn only when both axes are searched (as grid.py's).
    if let (Some(p), true) = (&o.png, o.c.is_some() && o.g.is_some()) {
        v.push(("-png", p.clone()));
        v.push(("-png (the .svg beside it)", p.with_extension("svg")));
    }
    if let Some(p) = o.json.as_ref().filter(|p| !is_stdout(p)) {
        v.push(("--json", p.clone()));
    }
    v
}

/// Check every output path before any work: a file name (not a folder) in
/// a folder that exists, a `.png` figure, no output onto the dataset, the
/// resume file (but for `-out`, as grid.py appends to it) or another output.
pub(super) fn check(o: &Opts) -> anyhow::Result<()> {
    if let Some(png) = o.png.as_ref().filter(|_| o.c.is_some() && o.g.is_some()) {
        let ext = png.extension().map(|e| e.to_string_lossy().to_lowercase());
        if ext.as_deref() != Some("png") {
            return Err(usage_err(format!(
                "-png {}: the figure file must end in .png (an .svg is written beside it), e.g. -png {}",
                png.display(),
                png.with_extension("png").display()
            )));
        }
    }
    let outs = outputs(o);
    for (i, (flag, p)) in outs.iter().enumerate() {
        if p.is_dir() {
            return Err(usage_err(format!(
                "{flag} {}: is a folder; give a file name",
                p.display()
            )));
        }
        let parent = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        if !parent.is_dir() {
            return Err(usage_err(format!(
                "{flag} {}: folder {} does not exist (create it, or give another path)",
                p.display(),
                parent.display()
            )));
        }
        if same_file(p, &o.dataset) {
            return Err(usage_err(format!(
                "{flag} {} is the dataset: give another file",
                p.display()
            )));
        }
        if *flag != "-out" && o.resume.as_ref().is_some_and(|r| same_file(p, r)) {
            return Err(usage_err(format!(
                "{flag} {} is the resume file: give another file",
                p.display()
            )));
        }
        if let Some((other, _)) = outs[..i].iter().find(|(_, q)| same_file(p, q)) {
            return Err(usage_err(format!(
                "{other} and {flag} name the same file {}: give different files",
                p.display()
            )));
        }
    }
    Ok(())
}

/// Whether `a` and `b` are one file: the same path, or (both existing) the
/// same device and inode, so that a hard or symbolic link to the dataset is
/// caught ([`crate::atomic_write::same_file`]).
fn same_file(a: &Path, b: &Path) -> bool {
    a == b || crate::atomic_write::same_file(a, b)
}

/// What an interruption says: where the finished points are and that
/// `-resume` goes on from them.
pub(super) fn interrupt_message(o: &Opts) -> String {
    match (&o.out, &o.resume) {
        (None, _) => {
            "-out null keeps no grid point: run the same command again (with -out FILE to keep the points, and -resume FILE to go on after an interruption)".into()
        }
        (Some(out), Some(r)) if !same_file(out, r) => format!(
            "the grid points finished now are in {}, the earlier ones in {}: put both in one file and run the same command with -resume FILE to go on",
            out.display(),
            r.display()
        ),
        (Some(out), _) => format!(
            "the finished grid points are in {out}; run the same command with -resume {out} to go on: without -resume, {out} is started afresh",
            out = out.display()
        ),
    }
}

/// The `.out` file, one `log2c=.. log2g=.. rate=..` line per finished point.
/// It is replaced whole after every point (a temporary file renamed over
/// it, [`cvbench_engine::api::files`]), so that a full disk or an interruption
/// never leaves a partial line or a truncated file: it holds every point
/// finished before the failure, and `-resume` goes on from them.
pub(super) struct OutFile {
    path: PathBuf,
    text: Vec<u8>,
    /// A device or a FIFO (`-out /dev/null`): each line written in place.
    stream: bool,
}

impl OutFile {
    /// Open `path`: appended to when resuming (after completing a last line
    /// a killed run left unfinished), else started afresh (as grid.py).
    pub(super) fn open(path: &Path, append: bool) -> anyhow::Result<OutFile> {
        let mut text = Vec::new();
        let stream = crate::atomic_write::is_stream(path);
        if append && !stream && path.exists() {
            text = cvbench_engine::api::files::read_text_limited(
                path,
                &cvbench_engine::api::files::GRID_OUT_FILE,
            )
            .with_context(|| format!("cannot read the output file {}", path.display()))?
            .into_bytes();
            if text.last().is_some_and(|&b| b != b'\n') {
                text.push(b'\n');
            }
        }
        let f = OutFile {
            path: path.to_path_buf(),
            text,
            stream,
        };
        if !stream {
            crate::atomic_write::write_atomic(&f.path, &f.text)?;
        }
        Ok(f)
    }

    /// Add one point's line (`line` ends with a newline): the file is
    /// replaced by one holding it, or left as it was on an error.
    pub(super) fn write_line(
        &mut self,
        line: &str,
    ) -> Result<(), cvbench_engine::api::errors::DataError> {
        if self.stream {
            let _writing = crate::interrupt::write_guard();
            return crate::atomic_write::write_stream(&self.path, line.as_bytes()).map_err(
                |source| cvbench_engine::api::errors::DataError::Output {
                    path: self.path.clone(),
                    source,
                },
            );
        }
        let before = self.text.len();
        self.text.extend_from_slice(line.as_bytes());
        let done = crate::atomic_write::replace_unsynced(&self.path, &self.text);
        if done.is_err() {
            self.text.truncate(before);
        }
        done
    }

    /// Write the file a last time and sync it to disk.
    pub(super) fn finish(self) -> Result<(), cvbench_engine::api::errors::DataError> {
        if self.stream {
            return Ok(());
        }
        crate::atomic_write::write_atomic(&self.path, &self.text)
    }
}

/// A resume file's entries `(log2c, log2g) -> rate`, in first-seen order
/// (a later line for the same point replaces the rate, as in grid.py).
/// Resumed points: `((log2c, log2g), rate)` in first-seen order.
pub(super) type Resumed = Vec<((Option<f64>, Option<f64>), f64)>;

/// Read a resume file (grid.py's `-resume`): every line with `rate=`.
pub(super) fn read_resume(path: &Path) -> anyhow::Result<Resumed> {
    let text = cvbench_engine::api::files::read_text_limited(
        path,
        &cvbench_engine::api::files::GRID_OUT_FILE,
    )
    .with_context(|| {
        format!(
            "file for resumption not found or unreadable: {}",
            path.display()
        )
    })?;
    let mut out: Resumed = Vec::new();
    let grab = |line: &str, key: &str, extra: &str| -> Option<String> {
        let at = line.find(key)? + key.len();
        let s: String = line[at..]
            .chars()
            .take_while(|ch| ch.is_ascii_digit() || *ch == '.' || extra.contains(*ch))
            .collect();
        (!s.is_empty()).then_some(s)
    };
    for (ln, line) in text.lines().enumerate() {
        let line = line.trim();
        let Some(rate) = grab(line, "rate=", "") else {
            continue;
        };
        let parse = |s: String| -> anyhow::Result<f64> {
            s.parse().map_err(|_| {
                usage_err(format!(
                    "{}:{}: `{s}` is not a number: fix or remove the line",
                    path.display(),
                    ln + 1
                ))
            })
        };
        let rate = parse(rate)?;
        let c = grab(line, "log2c=", "-").map(parse).transpose()?;
        let g = grab(line, "log2g=", "-").map(parse).transpose()?;
        match out.iter_mut().find(|(k, _)| *k == (c, g)) {
            Some(e) => e.1 = rate,
            None => out.push(((c, g), rate)),
        }
    }
    Ok(out)
}
