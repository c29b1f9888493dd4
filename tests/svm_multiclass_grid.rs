//! Issue 41, "grid per pair": `cvbench grid` on multi-class data with the C
//! path per (fold, pair) (each gamma's Cs in increasing order, every class
//! pair's solve in every fold warm started from its optimum at the previous
//! C). Against the installed `svm-grid` / `svm-train` on LIBSVM's
//! multi-class sets from `CVBENCH_DATA_DIR` (vowel, glass): with the C path,
//! every point is within one flipped held-out row per fold of the exact
//! run (which is svm-train's) and the choice is svm-grid's; it takes fewer
//! SMO iterations than solving from zero; its rates and iterations are the
//! same on 1 and 2 threads; `--reuse none` prints svm-grid's lines exactly.
//! Prints `SKIPPED: ...` where the tools or the data are absent.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{assert_usage_error, cvbench, ok, text};
use cvbench::peers::grid as grid_peer;
use cvbench::peers::libsvm::find_program;

/// A small grid (3 x 3, steps of 2 in log2 C so that the C path has work).
const GRID: [&str; 4] = ["-log2c", "1,5,2", "-log2g", "-3,1,2"];
const FOLDS: &str = "5";

/// `name` from `CVBENCH_DATA_DIR`, decompressed into `dir`; `None` (and a
/// SKIPPED line) without svm-grid, svm-train or the data.
fn data_file(name: &str, dir: &Path) -> Option<PathBuf> {
    if !grid_peer::available() {
        println!("SKIPPED: {}", grid_peer::SKIPPED_NO_SVM_GRID);
        return None;
    }
    let src = common::data_source(name)?;
    let out = dir.join(name);
    std::fs::write(&out, cvbench_engine::api::files::read_all(&src).unwrap()).unwrap();
    Some(out)
}

/// svm-grid's standard output lines on `file` (one worker, grid.py's way).
fn svm_grid_lines(file: &Path) -> Vec<String> {
    let (py, grid, train) = (
        find_program("python3").unwrap(),
        find_program("svm-grid").unwrap(),
        find_program("svm-train").unwrap(),
    );
    let out = Command::new(py)
        .current_dir(file.parent().unwrap())
        .arg(grid)
        .arg("-svmtrain")
        .arg(train)
        .args(GRID)
        .args(["-v", FOLDS, "-gnuplot", "null", "-out", "null"])
        .arg(file)
        .output()
        .unwrap();
    assert!(out.status.success(), "svm-grid: {}", text(&out.stderr));
    text(&out.stdout).lines().map(str::to_string).collect()
}

/// One point of `--json`: (log2c, log2g) -> (correct per fold, iterations
/// per fold).
type Points = Vec<((f64, f64), Vec<u64>, Vec<u64>)>;

/// `cvbench grid` on `file` with `extra` options: its standard output lines
/// and its `--json` points.
fn ours(file: &Path, extra: &[&str]) -> (Vec<String>, Points) {
    let dir = file.parent().unwrap();
    let json = dir.join("ours.json");
    let mut args = vec!["grid"];
    args.extend(GRID);
    args.extend(["-v", FOLDS, "-gnuplot", "null", "-out", "null"]);
    args.extend(["--json", json.to_str().unwrap()]);
    args.extend(extra);
    args.push(file.to_str().unwrap());
    let out = cvbench(&args, dir);
    let lines = ok(&out).lines().map(str::to_string).collect();
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let mut points: Points = doc["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let per_fold = |key: &str| -> Vec<u64> {
                p["folds"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|f| f[key].as_u64().unwrap())
                    .collect()
            };
            (
                (p["log2c"].as_f64().unwrap(), p["log2g"].as_f64().unwrap()),
                per_fold("correct"),
                per_fold("iterations"),
            )
        })
        .collect();
    points.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
    (lines, points)
}

/// The `C gamma` of grid.py's final line.
fn choice(lines: &[String]) -> String {
    let last = lines.last().expect("a final line");
    last.split(' ').take(2).collect::<Vec<_>>().join(" ")
}

fn total_iterations(points: &Points) -> u64 {
    points.iter().flat_map(|p| &p.2).sum()
}

/// (a), (b), (d) on one data set; returns the C path's points.
fn c_path_against_svm_grid(name: &str) -> Option<()> {
    let dir = tempfile::tempdir().unwrap();
    let file = data_file(name, dir.path())?;
    let theirs = svm_grid_lines(&file);
    // (d) --reuse none: svm-grid's lines, in its order, and its final line.
    let (exact_lines, exact) = ours(&file, &["--reuse", "none"]);
    assert_eq!(exact_lines, theirs, "{name}: --reuse none against svm-grid");
    // --reuse gamma+threads is exact too: the same rates.
    let (_, shared) = ours(&file, &["--reuse", "gamma+threads"]);
    let rates = |p: &Points| p.iter().map(|x| x.1.clone()).collect::<Vec<_>>();
    assert_eq!(rates(&shared), rates(&exact), "{name}: gamma+threads");
    // (a) the C path: within one flipped row per fold, svm-grid's choice.
    let (path_lines, path) = ours(&file, &["--reuse", "gamma+cpath+threads"]);
    assert_eq!(path.len(), exact.len());
    for (p, e) in path.iter().zip(&exact) {
        assert_eq!(p.0, e.0);
        for (h, (a, b)) in p.1.iter().zip(&e.1).enumerate() {
            assert!(
                a.abs_diff(*b) <= 1,
                "{name} at log2c {} log2g {}, fold {h}: {a} right with the C path, {b} without",
                p.0 .0,
                p.0 .1
            );
        }
    }
    assert_eq!(choice(&path_lines), choice(&theirs), "{name}: the choice");
    // (b) fewer SMO iterations with the C path than from zero.
    let (with, without) = (total_iterations(&path), total_iterations(&exact));
    assert!(
        with < without,
        "{name}: {with} iterations with the C path, {without} without"
    );
    // `all` applies the same per-pair reuse.
    let (_, all) = ours(&file, &["--reuse", "all"]);
    assert_eq!(all, path, "{name}: --reuse all is gamma+cpath+threads");
    Some(())
}

#[test]
fn c_path_on_vowel_is_within_a_row_per_fold_of_svm_grid_with_fewer_iterations() {
    c_path_against_svm_grid("vowel.scale");
}

#[test]
fn c_path_on_glass_is_within_a_row_per_fold_of_svm_grid_with_fewer_iterations() {
    c_path_against_svm_grid("glass.scale");
}

#[test]
fn c_path_rates_and_iterations_do_not_depend_on_the_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let Some(file) = data_file("vowel.scale", dir.path()) else {
        return;
    };
    let (lines1, one) = ours(&file, &["--reuse", "all", "--threads", "1"]);
    let (lines2, two) = ours(&file, &["--reuse", "all", "--threads", "2"]);
    assert_eq!(
        one, two,
        "per-fold rates and iterations, 1 against 2 threads"
    );
    assert_eq!(lines1, lines2);
    // Without the `threads` reuse: the same numbers, one solve at a time.
    let (_, serial) = ours(&file, &["--reuse", "gamma+cpath"]);
    assert_eq!(serial, one);
}

#[test]
fn fold_seeding_is_refused_on_multiclass_data() {
    let dir = tempfile::tempdir().unwrap();
    let Some(file) = data_file("glass.scale", dir.path()) else {
        return;
    };
    let out = cvbench(
        &[
            "grid",
            "--reuse",
            "folds",
            "-gnuplot",
            "null",
            "-out",
            "null",
            file.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_usage_error(
        &out,
        &["--reuse folds", "one-vs-one", "more than two classes"],
    );
}
