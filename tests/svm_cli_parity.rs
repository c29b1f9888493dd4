//! `cvbench svm` and `cvbench grid` at the edges where they must do what
//! `svm-train` and `grid.py` do: feature indices far beyond the data,
//! labels that are not integers, one row, one class, overflowing kernels,
//! repeated options, the lines printed by default, and grid's default
//! level. Where `svm-train` / `svm-grid` and the datasets are installed the
//! numbers are checked against them; otherwise that part prints
//! `SKIPPED: ...` and the self-contained checks still run.

use std::path::Path;
use std::process::Command;

use crate::common;
use common::{assert_usage_error, cvbench, data_source, ok, stderr, stdout};

fn skip(why: &str) {
    println!("SKIPPED: {why}");
}

fn on_path(p: &str) -> bool {
    cvbench::peers::libsvm::find_program(p).is_some()
}

/// A program's stdout with `args` in `cwd`.
fn run(program: &str, args: &[&str], cwd: &Path) -> String {
    let o = Command::new(program)
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap_or_else(|e| panic!("run {program}: {e}"));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The line of `out` that starts with `start`.
fn line<'a>(out: &'a str, start: &str) -> &'a str {
    out.lines()
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no `{start}` line in:\n{out}"))
}

/// A real dataset decompressed into `dir` with its labels mapped by
/// `relabel` (None where the dataset is not installed).
fn relabelled(name: &str, dir: &Path, relabel: impl Fn(&str) -> String) -> Option<String> {
    let src = data_source(name)?;
    let bytes = cvbench_engine::api::files::read_all(&src).expect("read dataset");
    let text = String::from_utf8(bytes).expect("a text file");
    let out: String = text
        .lines()
        .map(|l| {
            let (y, rest) = l.split_once(' ').unwrap_or((l, ""));
            format!("{} {rest}\n", relabel(y))
        })
        .collect();
    let path = dir.join(format!("{name}.relabelled"));
    std::fs::write(&path, out).unwrap();
    Some(path.file_name().unwrap().to_string_lossy().into_owned())
}

#[test]
fn a_feature_index_far_beyond_the_data_trains_in_little_memory() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("wide"), "1 134217728:1\n-1 1:-0.5\n").unwrap();
    // Under a 2 GB address-space limit a dense layout of 2^27 features
    // (gigabytes per scratch row) fails; memory must follow the non-zeros.
    let bin = env!("CARGO_BIN_EXE_cvbench");
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 2000000; exec '{bin}' svm -q wide wide.model && exec '{bin}' svm -q -v 2 wide"
        ))
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    let model = std::fs::read_to_string(dir.path().join("wide.model")).unwrap();
    assert!(model.contains("134217728:1"), "{model}");
    assert!(model.contains("total_sv 2"), "{model}");
    if on_path("svm-train") {
        run("svm-train", &["-q", "wide", "theirs.model"], dir.path());
        let theirs = std::fs::read_to_string(dir.path().join("theirs.model")).unwrap();
        for key in ["total_sv", "rho", "label", "nr_sv"] {
            assert_eq!(line(&model, key), line(&theirs, key).trim_end(), "{key}");
        }
        assert!(theirs.contains("134217728:1"), "{theirs}");
    } else {
        skip("svm-train not installed: model not compared");
    }
}

#[test]
fn fractional_labels_are_grouped_and_counted_as_svm_train_does() {
    let dir = tempfile::tempdir().unwrap();
    // Self-contained: four blobs labelled 1.5, 2, 3 and 3.7; svm-train puts
    // 1.5 in class 1 and 3.7 in class 3 (two blobs one class), predicts 1
    // and 3, and so counts no row labelled 1.5 or 3.7 correct.
    let mut s = String::new();
    for i in 0..80 {
        let (label, cx) = [("1.5", 0.0), ("2", 3.0), ("3", 6.0), ("3.7", 9.0)][i % 4];
        let t = i as f64 * 0.61;
        s.push_str(&format!(
            "{label} 1:{} 2:{}\n",
            cx + 0.3 * t.sin(),
            0.3 * t.cos()
        ));
    }
    std::fs::write(dir.path().join("frac"), &s).unwrap();
    let o = cvbench(&["svm", "-q", "-v", "4", "frac"], dir.path());
    let out = ok(&o);
    let acc = line(&out, "Cross Validation Accuracy");
    let pct: f64 = acc
        .trim_start_matches("Cross Validation Accuracy = ")
        .trim_end_matches('%')
        .parse()
        .unwrap();
    assert!(
        pct <= 50.0 + 1e-9,
        "rows labelled 1.5 and 3.7 counted correct: {acc}"
    );
    assert!(stderr(&o).contains("not C ints"), "{}", stderr(&o));
    if on_path("svm-train") {
        let theirs = run("svm-train", &["-q", "-v", "4", "frac"], dir.path());
        assert_eq!(acc, line(&theirs, "Cross Validation Accuracy"));
    }
    // Real data: glass with class 1 written 1.5, every CV path.
    let Some(glass) = relabelled("glass.scale", dir.path(), |y| {
        if y == "1" {
            "1.5".into()
        } else {
            y.into()
        }
    }) else {
        return skip("glass.scale not installed (CVBENCH_DATA_DIR)");
    };
    let want = if on_path("svm-train") {
        line(
            &run("svm-train", &["-q", "-v", "5", &glass], dir.path()),
            "Cross",
        )
        .to_string()
    } else {
        skip("svm-train not installed: glass compared across our paths only");
        line(
            &ok(&cvbench(&["svm", "-q", "-v", "5", &glass], dir.path())),
            "Cross",
        )
        .to_string()
    };
    for extra in [
        &[][..],
        &["-b", "1"],
        &["--cache", "per_solve"],
        &["--threads", "1"],
    ] {
        let mut args = vec!["svm", "-q", "-v", "5"];
        args.extend_from_slice(extra);
        args.push(&glass);
        let got = ok(&cvbench(&args, dir.path()));
        if extra == ["-b", "1"] && !on_path("svm-train") {
            continue;
        }
        if extra == ["-b", "1"] {
            let mut theirs = vec!["-q", "-v", "5", "-b", "1"];
            theirs.push(&glass);
            let t = run("svm-train", &theirs, dir.path());
            assert_eq!(line(&got, "Cross"), line(&t, "Cross"), "-b 1");
        } else {
            assert_eq!(line(&got, "Cross"), want, "{extra:?}");
        }
    }
}

#[test]
fn grid_groups_fractional_labels_as_svm_grid_does() {
    let dir = tempfile::tempdir().unwrap();
    let Some(hs) = relabelled("heart_scale", dir.path(), |y| {
        if y == "1" || y == "+1" {
            "2.5".into()
        } else {
            "2".into()
        }
    }) else {
        return skip("heart_scale not installed (CVBENCH_DATA_DIR)");
    };
    let args = [
        "-log2c", "0,0,1", "-log2g", "-3,-3,1", "-gnuplot", "null", "-out", "null", "-png", "null",
    ];
    let mut ours = vec!["grid"];
    ours.extend_from_slice(&args);
    ours.push(&hs);
    let o = cvbench(&ours, dir.path());
    let got = ok(&o);
    // One class (2): every row predicted 2, the 150 rows labelled 2 right.
    assert!(got.contains("55.5556"), "{got}");
    assert!(stderr(&o).contains("not C ints"), "{}", stderr(&o));
    let cv = ok(&cvbench(
        &["svm", "-q", "-v", "5", "-g", "0.125", &hs],
        dir.path(),
    ));
    assert_eq!(line(&cv, "Cross"), "Cross Validation Accuracy = 55.5556%");
}

#[test]
fn one_row_cross_validation_prints_svm_train_lines() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("one"), "1 1:0.5\n").unwrap();
    let o = cvbench(&["svm", "-v", "5", "one"], dir.path());
    let out = ok(&o);
    assert_eq!(out, "Total nSV = 0\nCross Validation Accuracy = 0%\n");
    assert!(stderr(&o).contains("# folds > # data"), "{}", stderr(&o));
    if on_path("svm-train") {
        assert_eq!(out, run("svm-train", &["-v", "5", "one"], dir.path()));
    }
}

#[test]
fn one_class_training_prints_total_nsv() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("same"), "1 1:0.5\n1 1:0.7\n1 2:1\n").unwrap();
    let out = ok(&cvbench(&["svm", "same", "same.model"], dir.path()));
    assert!(
        out.contains("WARNING: training data in only one class"),
        "{out}"
    );
    assert!(out.ends_with("Total nSV = 0\n"), "{out}");
    if on_path("svm-train") {
        assert_eq!(out, run("svm-train", &["same", "theirs.model"], dir.path()));
    }
}

#[test]
fn an_overflowing_kernel_warns_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("big"),
        "1 1:3 2:4\n-1 1:-3 2:5\n1 1:2 2:-4\n-1 1:-2 2:-5\n",
    )
    .unwrap();
    let o = cvbench(
        &[
            "svm",
            "-q",
            "-t",
            "1",
            "-d",
            "100",
            "-g",
            "2",
            "big",
            "big.model",
        ],
        dir.path(),
    );
    let err = stderr(&o);
    assert!(
        err.contains("not finite") || err.contains("overflow"),
        "{err}"
    );
}

#[test]
fn default_output_is_svm_train_stdout_and_extras_need_stats() {
    let dir = tempfile::tempdir().unwrap();
    let data = common::svm::blobs_file(dir.path());
    let data = data.to_str().unwrap();
    let out = ok(&cvbench(&["svm", "-v", "3", data], dir.path()));
    assert!(!out.contains("Total #iter"), "{out}");
    assert!(!out.contains("Seeding ="), "{out}");
    // svm-train's progress marks end in `*` on the line before each
    // "optimization finished".
    let lines: Vec<&str> = out.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        if l.starts_with("optimization finished") {
            assert!(i > 0 && lines[i - 1].ends_with('*'), "{out}");
        }
    }
    if on_path("svm-train") {
        assert_eq!(out, run("svm-train", &["-v", "3", data], dir.path()));
        // Shrinking, the unshrink, the -h 0 warning and probability CVs:
        // glass with -b 1, every line and mark.
        if let Some(glass) = relabelled("glass.scale", dir.path(), |y| y.to_string()) {
            let ours = ok(&cvbench(&["svm", "-b", "1", &glass, "g.model"], dir.path()));
            let theirs = run("svm-train", &["-b", "1", &glass, "t.model"], dir.path());
            assert_eq!(ours, theirs);
        }
    } else {
        skip("svm-train not installed: stdout not compared");
    }
    let stats = ok(&cvbench(
        &["svm", "-v", "3", "--stats", "--seeding", "ato", data],
        dir.path(),
    ));
    assert!(stats.contains("Total #iter = "), "{stats}");
}

#[test]
fn repeated_options_take_the_last_value_as_svm_train_does() {
    let dir = tempfile::tempdir().unwrap();
    let data = common::svm::blobs_file(dir.path());
    let data = data.to_str().unwrap();
    let twice = ok(&cvbench(
        &["svm", "-q", "-c", "1", "-c", "2", "-v", "3", data],
        dir.path(),
    ));
    let once = ok(&cvbench(
        &["svm", "-q", "-c", "2", "-v", "3", data],
        dir.path(),
    ));
    assert_eq!(twice, once);
}

#[test]
fn option_errors_quote_what_the_user_typed() {
    let dir = tempfile::tempdir().unwrap();
    let data = common::svm::blobs_file(dir.path());
    let data = data.to_str().unwrap();
    let e = assert_usage_error(
        &cvbench(&["svm", "-w1", "1e40", data], dir.path()),
        &["1e40"],
    );
    assert!(!e.contains("inf"), "{e}");
    let e = assert_usage_error(
        &cvbench(&["svm", "-n", "0.5", data], dir.path()),
        &["-n 0.5"],
    );
    assert!(e.contains("-t 0 to 3"), "{e}");
}

#[test]
fn grid_defaults_to_an_exact_level() {
    let dir = tempfile::tempdir().unwrap();
    let data = common::svm::blobs_file(dir.path());
    let data = data.to_str().unwrap();
    let args = [
        "grid", "-log2c", "-1,3,2", "-log2g", "-3,1,2", "-v", "3", "-gnuplot", "null", "-out",
        "null", "--json", "-",
    ];
    let mut with = args.to_vec();
    with.push(data);
    let json: serde_json::Value = serde_json::from_str(&ok(&cvbench(&with, dir.path()))).unwrap();
    assert_eq!(json["reuse"], "gamma+threads", "{json}");
    let help = ok(&cvbench(&["grid", "--help"], dir.path()));
    assert!(help.contains("the default is gamma+threads"), "{help}");
}
