//! Issue 58, bounded memory: a one-vs-one `cvbench svm -v` under a kernel
//! cache budget far smaller than its kernel matrix stays within the
//! budget's order of memory (the class pairs' blocks, one at a time) and
//! prints the same accuracy as with the whole matrix in the cache.
//!
//! The child's peak resident memory is read with `getrusage(RUSAGE_CHILDREN)`
//! after it exits: this file holds one test, so the child whose peak it
//! reports is the only one waited for before the reading (the second run,
//! with the large budget, comes after it).

use std::fmt::Write as _;
use std::process::Command;

/// Ten classes of 600 rows in 10 dense features (6,000 rows: the kernel
/// matrix takes 137 MB in single precision), labelled synthetic.
fn synthetic(path: &std::path::Path) {
    let mut s = String::new();
    let mut t = 0.377f64;
    for i in 0..6000usize {
        let class = i % 10;
        let _ = write!(s, "{class}");
        for j in 0..10usize {
            t = (t * 997.0 + 0.123).fract();
            let centre = if j % 10 == class { 1.0 } else { 0.0 };
            let _ = write!(s, " {}:{:.6}", j + 1, centre + 0.8 * (t - 0.5));
        }
        s.push('\n');
    }
    std::fs::write(path, s).unwrap();
}

/// The peak resident memory in MB of the children waited for so far.
fn children_peak_mb() -> f64 {
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `ru` is a valid, writable rusage.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut ru) };
    assert_eq!(rc, 0, "getrusage");
    ru.ru_maxrss as f64 / 1024.0
}

fn cv_line(out: &std::process::Output) -> String {
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text.lines()
        .find(|l| l.starts_with("Cross Validation Accuracy = "))
        .unwrap_or_else(|| panic!("no CV line: {text}"))
        .to_string()
}

#[test]
fn a_multiclass_cv_under_a_small_budget_stays_small_and_gives_the_same_accuracy() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("synthetic-ten-classes.libsvm");
    synthetic(&file);
    let run = |mb: &str| {
        Command::new(env!("CARGO_BIN_EXE_cvbench"))
            .args(["svm", "-q", "-c", "2", "-g", "0.5", "-v", "5", "-m", mb])
            .arg(&file)
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    // 40 MB: the whole matrix (137 MB) does not fit, each pair's block
    // (1,200 rows, 5.5 MB) does.
    let small = run("40");
    let peak = children_peak_mb();
    let small_line = cv_line(&small);
    assert!(
        peak < 100.0,
        "peak {peak:.0} MB under -m 40, where the matrix alone takes 137 MB"
    );
    // 1,000 MB: the whole matrix in the cache; the same accuracy.
    let whole = run("1000");
    assert_eq!(small_line, cv_line(&whole));
    assert!(
        children_peak_mb() > 137.0,
        "the whole matrix was held: the peak must be above its size"
    );
}
