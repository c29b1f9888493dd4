//! `cvbench grid`'s files: every output path checked before any work; the
//! `.out` file written point by point as each finishes (grid.py's visiting
//! order is for printing, not for storing), so that an interrupted grid
//! goes on with `-resume`; the resume file read as grid.py reads it.

use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
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
/// same canonical path.
fn same_file(a: &Path, b: &Path) -> bool {
    a == b
        || matches!(
            (a.canonicalize(), b.canonicalize()),
            (Ok(x), Ok(y)) if x == y
        )
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
pub(super) struct OutFile {
    file: std::fs::File,
}

impl OutFile {
    /// Open `path`: appended to when resuming (after completing a last line
    /// a killed run left unfinished), else started afresh (as grid.py).
    pub(super) fn open(path: &Path, append: bool) -> anyhow::Result<OutFile> {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .read(true)
            .write(true)
            .append(append)
            .truncate(!append)
            .open(path)
            .with_context(|| format!("cannot write the output file {}", path.display()))?;
        if append {
            let len = file.seek(SeekFrom::End(0))?;
            if len > 0 {
                let mut last = [0u8];
                file.seek(SeekFrom::End(-1))?;
                file.read_exact(&mut last)?;
                if last[0] != b'\n' {
                    file.write_all(b"\n")?;
                }
            }
        }
        Ok(OutFile { file })
    }

    /// Write one point's line (`line` ends with a newline) whole: an
    /// interruption waits for it, so the file never ends in a partial line.
    pub(super) fn write_line(&mut self, line: &str) -> std::io::Result<()> {
        let _writing = crate::interrupt::write_guard();
        self.file.write_all(line.as_bytes())?;
        self.file.flush()
    }
}

/// A resume file's entries `(log2c, log2g) -> rate`, in first-seen order
/// (a later line for the same point replaces the rate, as in grid.py).
/// Resumed points: `((log2c, log2g), rate)` in first-seen order.
pub(super) type Resumed = Vec<((Option<f64>, Option<f64>), f64)>;

/// Read a resume file (grid.py's `-resume`): every line with `rate=`.
pub(super) fn read_resume(path: &Path) -> anyhow::Result<Resumed> {
    let text = crate::data::limits::read_text_limited(path, &crate::data::limits::GRID_OUT_FILE)
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
