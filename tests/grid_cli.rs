//! `cvbench grid` against LIBSVM's own `svm-grid` (grid.py) and `svm-train`:
//! the same lines, the same `.out` file and the same choice on heart_scale
//! (SKIPPED when the data or the peers are missing); bad input exits 2
//! before any work.

use std::path::{Path, PathBuf};
use std::process::Command;

fn cvbench() -> Command {
    Command::new(env!("CARGO_BIN_EXE_cvbench"))
}

fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// heart_scale decompressed into `dir` (svm-grid reads plain files).
fn heart_plain(dir: &Path) -> Option<PathBuf> {
    let Some(data) = std::env::var_os("CVBENCH_DATA_DIR") else {
        println!("SKIPPED: CVBENCH_DATA_DIR is not set");
        return None;
    };
    let data = PathBuf::from(data);
    let src = [data.join("heart_scale"), data.join("heart_scale.xz")]
        .into_iter()
        .find(|p| p.is_file());
    let Some(src) = src else {
        println!("SKIPPED: heart_scale not in {}", data.display());
        return None;
    };
    let bytes = cvbench_engine::api::files::read_all(&src).expect("readable heart_scale");
    let out = dir.join("heart_scale");
    std::fs::write(&out, bytes).unwrap();
    Some(out)
}

fn peers() -> Option<(PathBuf, PathBuf, PathBuf)> {
    match (which("python3"), which("svm-grid"), which("svm-train")) {
        (Some(p), Some(g), Some(t)) => Some((p, g, t)),
        _ => {
            println!("SKIPPED: python3, svm-grid or svm-train not found (make peers installs LIBSVM's tools)");
            None
        }
    }
}

fn run_ok(cmd: &mut Command) -> String {
    let out = cmd.output().expect("runs");
    assert!(
        out.status.success(),
        "{:?} failed: {}",
        cmd,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn same_lines_out_file_and_choice_as_svm_grid_on_heart_scale() {
    let dir = tempfile::tempdir().unwrap();
    let Some(file) = heart_plain(dir.path()) else {
        return;
    };
    let Some((py, grid, train)) = peers() else {
        return;
    };
    for ranges in [vec![], vec!["-log2c", "-3,7.5,1.5", "-log2g", "-9,-1,2"]] {
        let theirs_out = dir.path().join("theirs.out");
        let mut t = Command::new(&py);
        t.current_dir(dir.path())
            .arg(&grid)
            .args(["-svmtrain", train.to_str().unwrap(), "-gnuplot", "null"])
            .args(["-out", theirs_out.to_str().unwrap()])
            .args(&ranges)
            .arg(&file);
        let theirs = run_ok(&mut t);
        for reuse in ["none", "gamma+threads"] {
            let ours_out = dir.path().join(format!("ours-{reuse}.out"));
            let mut o = cvbench();
            o.current_dir(dir.path())
                .args(["grid", "-gnuplot", "null", "--reuse", reuse])
                .args(["-out", ours_out.to_str().unwrap()])
                .args(&ranges)
                .arg(&file);
            let ours = run_ok(&mut o);
            assert_eq!(ours, theirs, "stdout, reuse {reuse}, ranges {ranges:?}");
            // The same lines; ours are written as points finish (issue 40).
            let sorted = |p: &Path| {
                let mut v: Vec<String> = std::fs::read_to_string(p)
                    .unwrap()
                    .lines()
                    .map(String::from)
                    .collect();
                v.sort();
                v
            };
            assert_eq!(
                sorted(&ours_out),
                sorted(&theirs_out),
                ".out file, reuse {reuse}"
            );
        }
        // Warm-started reuse: every rate within one row per fold (5 folds).
        let mut o = cvbench();
        o.current_dir(dir.path())
            .args(["grid", "-gnuplot", "null", "-out", "null", "--reuse", "all"])
            .args(&ranges)
            .arg(&file);
        let ours = run_ok(&mut o);
        let rate = |l: &str| -> f64 {
            let head = l.split(" (best").next().unwrap();
            head.rsplit(' ').next().unwrap().parse().unwrap()
        };
        let ol: Vec<&str> = ours.lines().collect();
        let tl: Vec<&str> = theirs.lines().collect();
        assert_eq!(ol.len(), tl.len());
        for (a, b) in ol.iter().zip(&tl).take(tl.len() - 1) {
            assert!(
                (rate(a) - rate(b)).abs() <= 5.0 * 100.0 / 270.0 + 1e-9,
                "{a} vs {b}"
            );
        }
    }
}

#[test]
fn resume_gives_the_same_final_line() {
    let dir = tempfile::tempdir().unwrap();
    let Some(file) = heart_plain(dir.path()) else {
        return;
    };
    let full = run_ok(
        cvbench()
            .current_dir(dir.path())
            .args([
                "grid", "-png", "null", "-log2c", "-1,5,2", "-log2g", "-5,1,2", "--reuse", "gamma",
            ])
            .arg(&file),
    );
    let out = dir.path().join("heart_scale.out");
    let lines: Vec<String> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(lines.len(), 16);
    std::fs::write(&out, lines[..7].join("\n") + "\n").unwrap();
    let resumed = run_ok(
        cvbench()
            .current_dir(dir.path())
            .args([
                "grid", "-png", "null", "-log2c", "-1,5,2", "-log2g", "-5,1,2", "--reuse", "gamma",
                "-resume",
            ])
            .arg(&file),
    );
    assert_eq!(resumed.lines().last(), full.lines().last());
    assert_eq!(
        resumed
            .lines()
            .filter(|l| l.starts_with("[resumed]"))
            .count(),
        7
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 16);
}

#[test]
fn bad_input_exits_2_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-file");
    for (args, needle) in [
        (vec!["-log2c", "1,2"], "three numbers"),
        (vec!["-log2c", "1,2,0"], "step 0"),
        (vec!["-log2g", "1,5,-1"], "empty"),
        (vec!["-log2c", "0,1e9,1e-9"], "more than 10000"),
        (
            vec!["-log2c", "-72,127,1", "-log2g", "0,99,1"],
            "more than 10000",
        ),
        (
            vec!["-log2c", "null", "-log2g", "null"],
            "null simultaneously",
        ),
        (vec!["-c", "1"], "Use -log2c"),
        (vec!["-v", "1"], "n >= 2"),
        (vec!["--reuse", "gamma+folds"], "cannot be combined"),
    ] {
        let out = cvbench()
            .current_dir(dir.path())
            .arg("grid")
            .args(&args)
            .arg(&missing)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!dir.path().join("no-such-file.out").exists());
    }
    // More than two labels: LIBSVM's one-vs-one at every point (issue 41).
    let multi = dir.path().join("three");
    std::fs::write(&multi, "1 1:0.1\n2 1:0.2\n3 1:0.3\n1 1:0.4\n").unwrap();
    let out = cvbench()
        .current_dir(dir.path())
        .args([
            "grid", "-out", "null", "-png", "null", "-log2c", "0,1,1", "-log2g", "0,1,1", "-v", "2",
        ])
        .arg(&multi)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    assert_eq!(last.split(' ').count(), 3, "C gamma rate: {stdout}");
}
