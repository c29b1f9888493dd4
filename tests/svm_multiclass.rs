//! `cvbench svm` as a drop-in for all of `svm-train`'s C-SVC: one-vs-one
//! multi-class, the polynomial and sigmoid kernels (`-t 1`, `-t 3`, `-d`,
//! `-r`) and class weights (`-wi`). Against the installed `svm-train` and
//! `svm-predict`: every optimization line (`#iter`, `nu`, `obj`, `rho`,
//! `nSV`, `nBSV` of each class pair), `Total nSV`, the `-v` accuracy line,
//! and `svm-predict`'s predictions from our model file equal those from
//! `svm-train`'s. On LIBSVM's multi-class sets in `CVBENCH_DATA_DIR`
//! (subsampled to keep debug builds fast) and on generated data. Prints
//! `SKIPPED: ...` where the tools or the data are absent.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::svm::{blobs, svm};
use common::text;
use cvbench::peers::libsvm as peer;

fn run(prog: &str, args: &[&str], dir: &Path) -> Output {
    Command::new(prog)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("run {prog}: {e}"))
}

/// The lines of `svm-train`'s standard output without its progress marks
/// (lines of `.` and `*` only).
fn lines(out: &Output) -> Vec<String> {
    text(&out.stdout)
        .lines()
        .filter(|l| !l.is_empty() && !l.chars().all(|c| c == '.' || c == '*'))
        // cvbench's own summary lines of a binary CV (not svm-train's).
        .filter(|l| !l.starts_with("Total #iter = ") && !l.starts_with("Seeding = "))
        .map(str::to_string)
        .collect()
}

fn tools() -> bool {
    if !peer::available() {
        println!("SKIPPED: {}", peer::SKIPPED_NO_SVM_TRAIN);
        return false;
    }
    true
}

/// `name` from `CVBENCH_DATA_DIR`, decompressed into `dir`, every `step`-th
/// row only; `None` (and a SKIPPED line) without data or tools.
fn data_file(name: &str, dir: &Path, step: usize) -> Option<PathBuf> {
    if !tools() {
        return None;
    }
    common::svm::data_file(name, dir, step)
}

/// Train with both programs (`extra` options), compare every printed line,
/// then predict `file` with `svm-predict` from both model files and compare
/// the predictions; then `-v k` with both and compare every line.
fn same_as_svm_train(dir: &Path, file: &str, extra: &[&str], k: usize) {
    let with = |model: &str| {
        let mut a: Vec<&str> = extra.to_vec();
        a.push(file);
        a.push(model);
        a.into_iter().map(str::to_string).collect::<Vec<_>>()
    };
    let ours_args = with("ours.model");
    let ours_args: Vec<&str> = ours_args.iter().map(String::as_str).collect();
    let theirs_args = with("theirs.model");
    let theirs_args: Vec<&str> = theirs_args.iter().map(String::as_str).collect();
    let ours = svm(&ours_args, dir);
    assert!(ours.status.success(), "{extra:?}: {}", text(&ours.stderr));
    let theirs = run("svm-train", &theirs_args, dir);
    assert!(theirs.status.success(), "{}", text(&theirs.stderr));
    assert_eq!(
        lines(&ours),
        lines(&theirs),
        "{file} {extra:?}: training output"
    );
    assert_eq!(
        text(&ours.stderr),
        text(&theirs.stderr),
        "{file} {extra:?}: warnings"
    );
    let predict = |model: &str, out: &str| {
        let p = run("svm-predict", &[file, model, out], dir);
        assert!(p.status.success(), "{}", text(&p.stderr));
        (lines(&p), std::fs::read_to_string(dir.join(out)).unwrap())
    };
    assert_eq!(
        predict("ours.model", "ours.pred"),
        predict("theirs.model", "theirs.pred"),
        "{file} {extra:?}: svm-predict from both models"
    );
    let kk = k.to_string();
    let mut cv: Vec<&str> = extra.to_vec();
    cv.extend(["-v", &kk, file]);
    let ours = svm(&cv, dir);
    assert!(ours.status.success(), "{cv:?}: {}", text(&ours.stderr));
    let theirs = run("svm-train", &cv, dir);
    let (o, t) = (lines(&ours), lines(&theirs));
    assert!(t
        .last()
        .unwrap()
        .starts_with("Cross Validation Accuracy = "));
    assert_eq!(o, t, "{file} {cv:?}: -v output");
    assert_eq!(
        text(&ours.stderr),
        text(&theirs.stderr),
        "{file} {cv:?}: warnings"
    );
}

#[test]
fn libsvm_multiclass_sets_give_svm_train_s_numbers() {
    let dir = tempfile::tempdir().unwrap();
    for (name, step, k) in [
        ("glass.scale", 1, 5),
        ("vowel.scale", 2, 4),
        ("dna.scale", 10, 3),
        ("segment.scale", 8, 5),
        ("satimage.scale", 12, 4),
        ("letter.scale", 25, 3),
        ("pendigits", 15, 4),
    ] {
        let Some(f) = data_file(name, dir.path(), step) else {
            return;
        };
        let file = f.file_name().unwrap().to_str().unwrap().to_string();
        same_as_svm_train(dir.path(), &file, &[], k);
    }
}

/// MNIST's ten digits: the first 400 training images, pixels / 255, as a
/// LibSVM file (the registry stores the original IDX files).
#[test]
fn mnist_ten_digits_give_svm_train_s_numbers() {
    if !tools() {
        return;
    }
    let Some(data) = std::env::var_os("CVBENCH_DATA_DIR").map(PathBuf::from) else {
        println!("SKIPPED: CVBENCH_DATA_DIR is not set");
        return;
    };
    let (images, labels) = (
        data.join("train-images-idx3-ubyte.xz"),
        data.join("train-labels-idx1-ubyte.xz"),
    );
    if !images.is_file() || !labels.is_file() {
        println!("SKIPPED: MNIST's IDX files not found in {}", data.display());
        return;
    }
    let mut ds = cvbench_engine::api::data::read_mnist(&images, &labels, "mnist").unwrap();
    if let cvbench_engine::api::data::Features::Dense { values, .. } = &mut ds.x {
        values.iter_mut().for_each(|v| *v /= 255.0);
    }
    let rows: Vec<usize> = (0..400).collect();
    let dir = tempfile::tempdir().unwrap();
    let f = std::fs::File::create(dir.path().join("mnist400")).unwrap();
    cvbench_engine::api::data::write_libsvm(&ds, &rows, f).unwrap();
    same_as_svm_train(dir.path(), "mnist400", &[], 3);
}

#[test]
fn every_kernel_and_class_weights_on_multiclass_data() {
    let dir = tempfile::tempdir().unwrap();
    let Some(f) = data_file("glass.scale", dir.path(), 1) else {
        return;
    };
    let file = f.file_name().unwrap().to_str().unwrap().to_string();
    for extra in [
        &["-t", "0", "-c", "4"][..],
        &["-t", "1", "-d", "2", "-r", "0.5", "-g", "0.3"],
        &["-t", "1"],
        &["-t", "3", "-g", "0.05", "-r", "-0.2"],
        &["-w1", "2", "-w3", "0.5", "-c", "3"],
        &["-w9", "2"],
    ] {
        same_as_svm_train(dir.path(), &file, extra, 4);
    }
}

#[test]
fn new_kernels_and_weights_on_binary_data() {
    let dir = tempfile::tempdir().unwrap();
    let Some(f) = data_file("heart_scale", dir.path(), 1) else {
        return;
    };
    let file = f.file_name().unwrap().to_str().unwrap().to_string();
    for extra in [
        &["-t", "1", "-d", "2", "-r", "0.1", "-g", "0.2"][..],
        &["-t", "3", "-r", "0.3"],
        &["-w1", "2", "-w-1", "0.7"],
        &["-w1", "1.1", "-w-1", "0.3"],
        &["-w1", "1"],
        &["-w5", "3"],
    ] {
        same_as_svm_train(dir.path(), &file, extra, 5);
    }
}

/// Generated data: three classes labelled 7, -3 and 0 (in that order of
/// appearance), of 40, 13 and 2 rows, in two features, interleaved.
fn generated() -> String {
    let mut s = String::new();
    let mut t = 0.37f64;
    let mut next = || {
        t = (t * 997.0 + 0.123).fract();
        t
    };
    let mut rows: Vec<(i32, f64, f64)> = Vec::new();
    for i in 0..40 {
        rows.push((7, next() + 0.2 * f64::from(i % 3), next()));
        if i % 3 == 0 && rows.iter().filter(|r| r.0 == -3).count() < 13 {
            rows.push((-3, next() - 0.5, next() + 0.4));
        }
        if i == 10 || i == 30 {
            rows.push((0, next() * 0.3, -next()));
        }
    }
    for (y, a, b) in rows {
        s.push_str(&format!("{y} 1:{a:.6} 2:{b:.6}\n"));
    }
    s
}

#[test]
fn generated_uneven_classes_with_a_two_row_class() {
    if !tools() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("gen.txt"), generated()).unwrap();
    for extra in [
        &["-c", "10"][..],
        &["-t", "1", "-g", "1", "-r", "1"],
        &["-w0", "5"],
    ] {
        same_as_svm_train(dir.path(), "gen.txt", extra, 5);
    }
    // More folds than the small class has rows: some folds train without it.
    same_as_svm_train(dir.path(), "gen.txt", &["-c", "2"], 10);
    // More folds than rows: svm-train's warning, then leave-one-out.
    same_as_svm_train(dir.path(), "gen.txt", &["-c", "2"], 80);
}

#[test]
fn bad_kernel_options_and_weights_are_refused_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("gen.txt"), generated()).unwrap();
    for (args, want) in [
        (
            &["-t", "1", "-d", "-2", "gen.txt"][..],
            "degree (-d) must be >= 0",
        ),
        (&["-t", "1", "-d", "2.5", "gen.txt"], "-d 2.5"),
        (
            &["-w7", "-1", "gen.txt"],
            "-w7 -1: a class weight must be finite and > 0",
        ),
        (
            &["-s", "2", "-v", "3", "--stratified", "gen.txt"],
            "--stratified with -s 2 (one-class SVM)",
        ),
        (
            &["-v", "3", "--seeding", "sir", "-w7", "2", "gen.txt"],
            "-wi with alpha seeding",
        ),
    ] {
        let out = svm(args, dir.path());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains(want), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: one line: {err}");
    }
}

#[test]
fn cache_and_threads_change_no_number_and_sharing_saves_kernel_evaluations() {
    use cvbench_engine::api::cv::{cross_validate_ovo, Folds, OvoCvOptions};
    use cvbench_engine::api::params::SvmParams;
    use cvbench_engine::api::strategies::CacheMode;
    let ds = blobs();
    let folds = Folds::libsvm(&ds, 5).unwrap();
    let params = SvmParams::rbf(4.0, 0.5);
    let run = |cache, threads| {
        cross_validate_ovo(
            &ds,
            &folds,
            &params,
            &[],
            OvoCvOptions {
                cache,
                threads,
                probability: None,
            },
        )
        .unwrap()
    };
    let base = run(CacheMode::PerSolve, 1);
    assert_eq!(base.folds[0].labels.len(), 5);
    let numbers = |r: &cvbench_engine::api::cv::OvoCvResult| {
        let pairs: Vec<(u64, u64, u64)> = r
            .folds
            .iter()
            .flat_map(|f| &f.pairs)
            .map(|p| {
                (
                    p.stats.iterations,
                    p.stats.objective.to_bits(),
                    p.stats.rho.to_bits(),
                )
            })
            .collect();
        let pred: Vec<u64> = r.predictions.iter().map(|p| p.to_bits()).collect();
        (pairs, pred, r.correct)
    };
    for (cache, threads) in [
        (CacheMode::PerSolve, 2),
        (CacheMode::Shared, 1),
        (CacheMode::Shared, 3),
    ] {
        let r = run(cache, threads);
        assert_eq!(numbers(&r), numbers(&base), "{cache:?}, {threads} threads");
        if cache == CacheMode::Shared {
            assert!(
                r.kernel_evals < base.kernel_evals,
                "shared: {} kernel evaluations, per solve {}",
                r.kernel_evals,
                base.kernel_evals
            );
        }
    }
}

#[test]
fn grid_on_multiclass_data_prints_svm_grid_s_lines() {
    let dir = tempfile::tempdir().unwrap();
    let Some(f) = data_file("glass.scale", dir.path(), 1) else {
        return;
    };
    let Some(grid) = ["/usr/bin/svm-grid", "svm-grid"]
        .into_iter()
        .find(|p| Command::new(p).arg("-h").output().is_ok())
    else {
        println!("SKIPPED: svm-grid not found");
        return;
    };
    let file = f.file_name().unwrap().to_str().unwrap();
    let train = peer::find_program("svm-train").unwrap();
    let opts = [
        "-log2c", "-1,3,2", "-log2g", "-3,1,2", "-v", "4", "-gnuplot", "null", "-out", "null",
    ];
    let mut theirs_args: Vec<&str> = vec!["-svmtrain", train.to_str().unwrap()];
    theirs_args.extend(opts);
    theirs_args.push(file);
    let theirs = run(grid, &theirs_args, dir.path());
    assert!(theirs.status.success(), "{}", text(&theirs.stderr));
    let mut ours_args = vec!["grid"];
    ours_args.extend(opts);
    ours_args.push(file);
    let ours = common::cvbench(&ours_args, dir.path());
    assert!(ours.status.success(), "{}", text(&ours.stderr));
    let (mut o, mut t) = (lines(&ours), lines(&theirs));
    // The final `C gamma rate` line, then every point's line in any order.
    assert_eq!(o.pop(), t.pop(), "final line");
    o.sort();
    t.sort();
    assert_eq!(o, t);
}

/// The numbers of a model file's `key` line.
fn header_numbers(path: &Path, key: &str) -> Vec<f64> {
    let text = std::fs::read_to_string(path).unwrap();
    let line = text
        .lines()
        .find(|l| l.split(' ').next() == Some(key))
        .unwrap_or_else(|| panic!("no {key} line in {}", path.display()));
    line.split(' ')
        .skip(1)
        .map(|v| v.parse().unwrap())
        .collect()
}

#[test]
fn probability_estimates_are_svm_train_s_and_svm_predict_s() {
    let dir = tempfile::tempdir().unwrap();
    let Some(glass) = data_file("glass.scale", dir.path(), 1) else {
        return;
    };
    let Some(heart) = data_file("heart_scale", dir.path(), 1) else {
        return;
    };
    let name = |p: &PathBuf| p.file_name().unwrap().to_str().unwrap().to_string();
    for (file, extra) in [
        (name(&glass), &["-b", "1"][..]),
        (name(&glass), &["-b", "1", "-t", "1", "-w2", "3"]),
        (name(&heart), &["-b", "1", "-c", "4"]),
    ] {
        // Every line (the internal CVs' solves included), the same -v
        // accuracy, and svm-predict's accuracy from both models.
        same_as_svm_train(dir.path(), &file, extra, 4);
        for key in ["probA", "probB"] {
            assert_eq!(
                header_numbers(&dir.path().join("ours.model"), key),
                header_numbers(&dir.path().join("theirs.model"), key),
                "{file} {extra:?}: {key}"
            );
        }
        let predict = |model: &str, out: &str| {
            let p = run("svm-predict", &["-b", "1", &file, model, out], dir.path());
            assert!(p.status.success(), "{}", text(&p.stderr));
            std::fs::read_to_string(dir.path().join(out)).unwrap()
        };
        assert_eq!(
            predict("ours.model", "ours.prob"),
            predict("theirs.model", "theirs.prob"),
            "{file} {extra:?}: svm-predict -b 1"
        );
    }
}
