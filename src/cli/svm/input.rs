//! What `cvbench svm` reads, as `svm-train` reads it: the training and test
//! files (a file, a pipe or a device; a folder or a missing path is refused
//! naming it; `--peer` needs a regular file), and the training labels
//! grouped into classes by `(int)label`
//! (LIBSVM's `svm_group_classes`), with one warning where that cast changes
//! a label.

use std::path::Path;

use super::args::SvmUsage;
use cvbench_engine::api::data::{read_libsvm, Dataset};
use cvbench_engine::api::errors::SvmError;
use cvbench_engine::api::params::KernelKind;
use cvbench_engine::api::training::{check_training_features, libsvm_class_label};

/// Refuse a training or test file that cannot be read as one: a missing
/// path or a folder. A pipe or a device is read, as `svm-train` reads it.
pub fn check_input_file(what: &str, f: &Path) -> Result<(), SvmUsage> {
    let fix = "give a LibSVM-format file; .xz, .bz2 and .gz are read too";
    match std::fs::metadata(f) {
        Ok(m) if m.is_dir() => Err(SvmUsage(format!(
            "{what} {} is a folder, not a file: {fix}",
            f.display()
        ))),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(SvmUsage(format!(
            "{what} {}: no such file ({fix})",
            f.display()
        ))),
        Err(e) => Err(SvmUsage(format!(
            "{what} {}: cannot be read ({e}): {fix}",
            f.display()
        ))),
    }
}

/// With `-t 4`, `svm-train`'s checks of a precomputed-kernel training file
/// (a `0:SERIAL` on every row, from 1 to the number of rows; see
/// [`check_training_features`]), refused naming the file and its line.
pub fn check_precomputed(args: &super::args::SvmArgs, ds: &Dataset) -> Result<(), SvmUsage> {
    if args.kernel_type != "4" {
        return Ok(());
    }
    check_precomputed_file(&args.datafile, ds)
}

/// [`check_precomputed`] of the data `ds` read from `path` (also
/// `cvbench grid -t 4`'s).
pub fn check_precomputed_file(path: &Path, ds: &Dataset) -> Result<(), SvmUsage> {
    match check_training_features(ds, KernelKind::Precomputed) {
        Err(SvmError::Precomputed(e)) => {
            let line = line_of_row(path, e.row()).map_or(String::new(), |l| format!(":{l}"));
            Err(SvmUsage(format!(
                "{}{line}: with -t 4 (precomputed kernel), {e}",
                path.display()
            )))
        }
        // Other problems with the data are the training's to report.
        _ => Ok(()),
    }
}

/// The line (from 1) of a data file holding its row `row` (from 0): the
/// `row + 1`-th line with a label (blank and comment-only lines hold none).
fn line_of_row(path: &Path, row: usize) -> Option<usize> {
    let bytes = cvbench_engine::api::files::read_all(path).ok()?;
    bytes
        .split(|&b| b == b'\n')
        .enumerate()
        .filter(|(_, l)| {
            let content = l.split(|&b| b == b'#').next().unwrap_or(&[]);
            content.iter().any(|b| !b.is_ascii_whitespace())
        })
        .nth(row)
        .map(|(i, _)| i + 1)
}

/// The training data of `cvbench svm`.
pub struct Training {
    /// The data with every label as written: the engine groups classes by
    /// `(int)label` ([`cvbench_engine::api::training::class_label`]) and counts a
    /// prediction correct only when it equals the label as written (as
    /// `svm-train -v` and `svm-predict` count).
    pub ds: Dataset,
}

impl Training {
    /// Read the training file (a pipe or a device too, streamed line by
    /// line within the line-length limit), warning once on stderr where
    /// `svm-train`'s cast of a label to `int` changes it.
    pub fn read(path: &Path) -> anyhow::Result<Training> {
        let ds = read_libsvm(path, None)?;
        warn_cast_labels(path, &ds.y);
        Ok(Training { ds })
    }
}

/// Print (stderr) the one warning about labels `svm-train` casts, where
/// some label of `y` is not a C `int`.
pub fn warn_cast_labels(path: &Path, y: &[f64]) {
    if y.iter().any(|&v| f64::from(libsvm_class_label(v)) != v) {
        eprintln!("{}", cast_warning(path, y));
    }
}

/// `--peer` runs `svm-train` on the training file, which it reads twice
/// (once to count, once to parse): a pipe, whose content cvbench has read,
/// cannot be read again, so `--peer` needs a regular file.
pub fn check_peer_file(f: &Path) -> Result<(), SvmUsage> {
    if std::fs::metadata(f).is_ok_and(|m| m.is_file()) {
        return Ok(());
    }
    Err(SvmUsage(format!(
        "--peer: training file {} is not a regular file (a pipe or a device): svm-train reads its file twice, which a pipe does not allow: save the data to a file, or drop --peer",
        f.display()
    )))
}

/// The one warning about labels that are not `int` values: the labels the
/// cast changes (up to three) and what they become.
fn cast_warning(path: &Path, y: &[f64]) -> String {
    let mut changed: Vec<f64> = Vec::new();
    for &v in y {
        if f64::from(libsvm_class_label(v)) != v && !changed.contains(&v) {
            changed.push(v);
        }
    }
    let shown: Vec<String> = changed
        .iter()
        .take(3)
        .map(|&v| {
            format!(
                "{} -> {}",
                cvbench_engine::api::params::fmt_param(v),
                libsvm_class_label(v)
            )
        })
        .collect();
    let more = if changed.len() > 3 {
        format!(" and {} more", changed.len() - 3)
    } else {
        String::new()
    };
    format!(
        "WARNING: {}: labels that are not C ints ({}{more}); as svm-train, cvbench groups classes by (int)label (a value outside the int range becomes -2147483648) and counts a prediction correct only when it equals the label as written: relabel the data with integers to avoid this",
        path.display(),
        shown.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cast_warning_names_each_changed_label_once() {
        let w = cast_warning(Path::new("d.txt"), &[1.5, 1.5, -7.0, 3e9]);
        assert!(w.contains("d.txt"), "{w}");
        assert!(w.contains("1.5 -> 1"), "{w}");
        assert!(w.contains("3000000000 -> -2147483648"), "{w}");
        assert!(!w.contains("-7 ->"), "{w}");
        assert_eq!(w.matches("1.5 ->").count(), 1, "{w}");
    }
}
