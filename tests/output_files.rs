//! The files `cvbench svm` and `cvbench grid` write for the user: none of
//! them may be one of the inputs under another name (a hard or symbolic
//! link is caught by device and inode), a failed write (a full disk) leaves
//! no partial file and the earlier file as it was (exit 2, naming the
//! file), and `grid --json` after `-resume` holds every point.

use crate::common;

use common::{assert_usage_error, cvbench, cvbench_env, ok};
use std::path::Path;

/// A small two-class LibSVM file that every grid point separates quickly.
fn small_data(dir: &Path, name: &str) -> std::path::PathBuf {
    let mut s = String::new();
    for i in 0..40 {
        let y = if i % 2 == 0 { 1 } else { -1 };
        let a = (i as f64 * 0.37).sin() + 0.6 * y as f64;
        let b = (i as f64 * 0.11).cos();
        s.push_str(&format!("{y} 1:{a} 2:{b} 3:{}\n", (i % 5) as f64 / 5.0));
    }
    let p = dir.join(name);
    std::fs::write(&p, s).unwrap();
    p
}

/// Names ending in `.tmp` in `dir` (a temporary file left behind).
fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

#[cfg(unix)]
#[test]
fn grid_outputs_through_a_hard_link_to_the_dataset_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let data = small_data(d, "hs");
    let before = std::fs::read(&data).unwrap();
    std::fs::hard_link(&data, d.join("hs_hard")).unwrap();
    std::fs::hard_link(&data, d.join("hs_hard.png")).unwrap();
    std::fs::hard_link(&data, d.join("hs_hard.json")).unwrap();
    let grid = ["grid", "-log2c", "1,1,1", "-log2g", "1,1,1", "-v", "2"];
    for (flag, value) in [
        ("-out", "hs_hard"),
        ("-png", "hs_hard.png"),
        ("--json", "hs_hard.json"),
    ] {
        let mut args = grid.to_vec();
        args.extend([flag, value]);
        if flag != "-png" {
            args.extend(["-png", "null"]);
        }
        args.push("hs");
        let o = cvbench(&args, d);
        assert_usage_error(&o, &[flag, "is the dataset"]);
        assert_eq!(
            std::fs::read(&data).unwrap(),
            before,
            "{flag} overwrote the dataset"
        );
    }
    // The resume file is an input too (for every output but -out).
    std::fs::write(d.join("r.out"), "log2c=1 log2g=1 rate=50\n").unwrap();
    std::fs::hard_link(d.join("r.out"), d.join("r_hard.json")).unwrap();
    let mut args = grid.to_vec();
    args.extend(["-out", "null", "-png", "null", "-resume", "r.out"]);
    args.extend(["--json", "r_hard.json", "hs"]);
    assert_usage_error(&cvbench(&args, d), &["--json", "is the resume file"]);
}

#[cfg(unix)]
#[test]
fn svm_model_file_through_a_link_to_an_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let data = small_data(d, "train");
    let before = std::fs::read(&data).unwrap();
    std::fs::hard_link(&data, d.join("train_hard")).unwrap();
    std::os::unix::fs::symlink(&data, d.join("train_link")).unwrap();
    for model in ["train_hard", "train_link", "train"] {
        let o = cvbench(&["svm", "-q", "train", model], d);
        assert_usage_error(&o, &["model file", "is the training file"]);
        assert_eq!(std::fs::read(&data).unwrap(), before);
    }
    let test = small_data(d, "test");
    std::fs::hard_link(&test, d.join("test_hard")).unwrap();
    let o = cvbench(&["svm", "-q", "--test", "test", "train", "test_hard"], d);
    assert_usage_error(&o, &["is the --test file"]);
}

#[test]
fn a_model_written_to_a_full_disk_leaves_the_old_file_and_no_temporary() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    small_data(d, "train");
    std::fs::write(d.join("train.model"), "svm_type c_svc\nan earlier model\n").unwrap();
    let full = [("CVBENCH_TEST_FAIL_WRITES_AFTER", "20")];
    let o = cvbench_env(&["svm", "-q", "train", "train.model"], d, &full);
    assert_usage_error(&o, &["train.model", "No space left on device"]);
    assert_eq!(
        std::fs::read_to_string(d.join("train.model")).unwrap(),
        "svm_type c_svc\nan earlier model\n"
    );
    // A new model file that fails is not there at all.
    let o = cvbench_env(&["svm", "-q", "train", "new.model"], d, &full);
    assert_usage_error(&o, &["new.model", "No space left on device"]);
    assert!(!d.join("new.model").exists());
    assert!(temporaries(d).is_empty(), "{:?}", temporaries(d));
    // Without the failure the model is written whole.
    ok(&cvbench(&["svm", "-q", "train", "new.model"], d));
    assert!(std::fs::read_to_string(d.join("new.model"))
        .unwrap()
        .contains("\nSV\n"));
}

#[cfg(target_os = "linux")]
#[test]
fn outputs_to_dev_full_fail_with_exit_2_and_leave_the_device_alone() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    small_data(d, "train");
    let o = cvbench(&["svm", "-q", "train", "/dev/full"], d);
    assert_usage_error(&o, &["/dev/full", "No space left on device"]);
    let grid = [
        "grid", "-log2c", "1,1,1", "-log2g", "1,1,1", "-v", "2", "-png", "null",
    ];
    for extra in [["-out", "/dev/full"], ["--json", "/dev/full"]] {
        let mut args = grid.to_vec();
        args.extend(extra);
        args.push("train");
        assert_usage_error(
            &cvbench(&args, d),
            &["/dev/full", "No space left on device"],
        );
    }
    // The devices are still devices (written in place, never replaced).
    for dev in ["/dev/full", "/dev/null"] {
        assert!(!std::fs::metadata(dev).unwrap().is_file(), "{dev}");
    }
    ok(&cvbench(&["svm", "-q", "train", "/dev/null"], d));
    assert!(!std::fs::metadata("/dev/null").unwrap().is_file());
}

#[test]
fn grid_files_on_a_full_disk_keep_only_whole_lines_and_no_temporary() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    small_data(d, "hs");
    let args = [
        "grid", "-log2c", "-1,3,2", "-log2g", "-1,1,1", "-v", "2", "-png", "null", "-out",
        "hs.out", "--json", "hs.json", "hs",
    ];
    // Room for two lines of the .out file, not for a third.
    let full = [("CVBENCH_TEST_FAIL_WRITES_AFTER", "60")];
    let o = cvbench_env(&args, d, &full);
    assert_usage_error(&o, &["hs.out", "No space left on device"]);
    let out = std::fs::read_to_string(d.join("hs.out")).unwrap();
    assert!(out.is_empty() || out.ends_with('\n'), "{out:?}");
    assert!(out.lines().all(|l| l.contains("rate=")), "{out:?}");
    assert!(!d.join("hs.json").exists());
    assert!(temporaries(d).is_empty(), "{:?}", temporaries(d));
    // The --json file alone on a full disk: the .out file is complete.
    let args_json = [
        "grid", "-log2c", "-1,3,2", "-log2g", "-1,1,1", "-v", "2", "-png", "null", "-out", "null",
        "--json", "hs.json", "hs",
    ];
    let o = cvbench_env(&args_json, d, &full);
    assert_usage_error(&o, &["hs.json", "No space left on device"]);
    assert!(!d.join("hs.json").exists());
    assert!(temporaries(d).is_empty(), "{:?}", temporaries(d));
}

#[test]
fn grid_json_after_resume_holds_every_point_and_marks_the_resumed_ones() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    small_data(d, "hs");
    let grid = [
        "grid", "-log2c", "-1,3,2", "-log2g", "-3,1,2", "-v", "2", "-png", "null",
    ];
    let full_json = d.join("full.json");
    let mut args = grid.to_vec();
    args.extend(["-out", "hs.out", "--json", "full.json", "hs"]);
    ok(&cvbench(&args, d));
    let out = std::fs::read_to_string(d.join("hs.out")).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 9);
    std::fs::write(d.join("hs.out"), lines[..4].join("\n") + "\n").unwrap();
    let mut args = grid.to_vec();
    args.extend([
        "-resume",
        "hs.out",
        "-out",
        "hs.out",
        "--json",
        "resumed.json",
        "hs",
    ]);
    ok(&cvbench(&args, d));
    let read = |p: &Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
    };
    let (full, resumed) = (read(&full_json), read(&d.join("resumed.json")));
    let points = resumed["points"].as_array().unwrap();
    assert_eq!(points.len(), 9, "every grid point, resumed or computed");
    let marked: Vec<bool> = points
        .iter()
        .map(|p| p["resumed"].as_bool().unwrap())
        .collect();
    assert_eq!(marked.iter().filter(|&&r| r).count(), 4);
    assert_eq!(resumed["resumed"], 4);
    // The same (log2c, log2g, rate) set as the full run, and the same best.
    let key = |p: &serde_json::Value| {
        format!(
            "{} {} {}",
            p["log2c"],
            p["log2g"],
            p["rate"].as_f64().unwrap()
        )
    };
    let mut a: Vec<String> = full["points"].as_array().unwrap().iter().map(key).collect();
    let mut b: Vec<String> = points.iter().map(key).collect();
    a.sort();
    b.sort();
    assert_eq!(a, b);
    // "best" is the best of the points listed (ties go to the first visited,
    // the resumed ones first, as grid.py).
    let best = &resumed["best"];
    assert_eq!(best["rate"], full["best"]["rate"]);
    assert!(
        points.iter().any(|p| p["log2c"] == best["log2c"]
            && p["log2g"] == best["log2g"]
            && p["rate"] == best["rate"]),
        "{best} is not among the points"
    );
    // A resumed point has no counts; a computed one has them.
    let r = points.iter().find(|p| p["resumed"] == true).unwrap();
    assert!(r["correct"].is_null() && r["iterations"].is_null(), "{r}");
    let c = points.iter().find(|p| p["resumed"] == false).unwrap();
    assert!(c["correct"].is_u64() && c["n"] == 40, "{c}");
}
