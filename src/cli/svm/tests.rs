//! Unit tests of `cvbench svm`'s argument handling.

use super::*;
use clap::{Args, Command, FromArgMatches};

#[test]
fn fmt_g_matches_printf() {
    assert_eq!(fmt_g(77.03703703703704), "77.037");
    assert_eq!(fmt_g(100.0), "100");
    assert_eq!(fmt_g(84.81481481481481), "84.8148");
    assert_eq!(fmt_g(0.5), "0.5");
    assert_eq!(fmt_g(1234567.0), "1.23457e+06");
    assert_eq!(fmt_g(0.0000123), "1.23e-05");
}

#[test]
fn parses_svm_train_style_flags_as_a_subcommand() {
    let cmd = SvmArgs::augment_args(Command::new("svm"));
    let root = Command::new("cvbench").subcommand(cmd);
    root.clone().debug_assert();
    let m = root
        .try_get_matches_from([
            "cvbench",
            "svm",
            "heart",
            "-c",
            "2182",
            "-g",
            "0.2",
            "-h",
            "0",
            "-v",
            "10",
            "--libsvm-folds",
        ])
        .unwrap();
    let (_, sub) = m.subcommand().unwrap();
    let a = SvmArgs::from_arg_matches(sub).unwrap();
    assert_eq!(a.c, 2182.0);
    assert_eq!(a.gamma, Some(0.2));
    assert_eq!(a.shrinking, 0);
    assert_eq!(a.folds, Some(10));
    assert!(a.cv.libsvm_folds);
    assert_eq!(a.kernel_type, "2");
}

fn parse(args: &[&str]) -> Result<SvmArgs, String> {
    let cmd = SvmArgs::augment_args(Command::new("svm"));
    let root = Command::new("cvbench").subcommand(cmd);
    let mut all = vec!["cvbench", "svm"];
    all.extend_from_slice(args);
    let m = root
        .try_get_matches_from(super::svm_weight_args(all))
        .map_err(|e| e.to_string())?;
    let (_, sub) = m.subcommand().ok_or("no subcommand")?;
    SvmArgs::from_arg_matches(sub).map_err(|e| e.to_string())
}

fn refused(args: &[&str]) -> String {
    let a = parse(args).unwrap_or_else(|e| panic!("{args:?} should parse: {e}"));
    match a.check() {
        Err(e) => e.to_string(),
        Ok(()) => panic!("{args:?} should be refused"),
    }
}

#[test]
fn svm_train_options_it_does_not_implement_are_refused_in_one_line() {
    for (args, want) in [
        (vec!["d", "-s", "5"], "-s 5: the SVM types are"),
        (
            vec!["d", "-s", "1", "-v", "5", "--seeding", "ato"],
            "--seeding with -s 1 (nu-SVC)",
        ),
        (
            vec!["d", "-s", "2", "-b", "1"],
            "-b 1 with -s 2 (one-class SVM): one-class SVM probability output not supported yet",
        ),
        (
            vec!["d", "-s", "4", "-b", "1", "-v", "5", "--seeding", "sir"],
            "-b 1 with -v and --seeding (-s 4, nu-SVR)",
        ),
        (vec!["d", "-s", "1", "-n", "0"], "nu <= 0 or nu > 1"),
        (vec!["d", "-s", "3", "-p", "-1"], "p < 0"),
        (
            vec!["d", "-t", "5"],
            "-t 5: the kernels are 0 (linear), 1 (polynomial), 2 (RBF, the default), 3 (sigmoid) and 4 (precomputed",
        ),
        (vec!["d", "-t", "4", "-g", "1"], "with -t 4 (precomputed) it does nothing"),
        (
            vec!["d", "-b", "2"],
            "-b 2: probability estimates are -b 0 (none) or -b 1",
        ),
        (
            vec!["d", "-d", "3"],
            "-d sets the polynomial kernel's degree",
        ),
        (vec!["d", "-t", "1", "-d", "-1"], "degree (-d) must be >= 0"),
        (vec!["d", "-t", "1", "-d", "x"], "-d x"),
        (vec!["d", "-r", "1"], "-r sets coef0"),
        (vec!["d", "-t", "3", "-r", "nan"], "-r nan"),
        (vec!["d", "-n", "0.5"], "-n 0.5"),
        (vec!["d", "-p", "0.1"], "-p 0.1"),
        (
            vec!["d", "-w1", "0"],
            "-w1 0: a class weight must be finite and > 0",
        ),
        (vec!["d", "-wx", "1"], "-wx 1"),
        (
            vec!["d", "-t", "0", "-g", "0.5"],
            "with -t 0 (linear) it does nothing",
        ),
    ] {
        let e = refused(&args);
        assert!(e.contains(want), "{args:?}: {e}");
        assert!(!e.contains('\n'), "one line: {e}");
    }
    for ok in [
        vec!["d", "-s", "0", "-t", "0", "-b", "0", "-q"],
        vec!["d", "m.model", "-c", "2"],
        vec!["d", "-v", "5", "--seeding", "sir", "--parallel"],
        vec!["d", "-s", "1", "-v", "5", "--stratified"],
        vec![
            "d",
            "-s",
            "3",
            "-v",
            "5",
            "--seeding",
            "none",
            "--threads",
            "1",
        ],
        vec!["d", "-v", "5", "--stratified", "--seed", "3"],
        vec!["d", "--test", "t"],
        vec!["d", "-t", "1", "-d", "2", "-r", "0.5", "-g", "0.1"],
        vec!["d", "-t", "3", "-r", "-1"],
        vec!["d", "-w1", "5", "-w-1", "0.5", "-c", "2"],
        vec!["d", "-s", "1", "-n", "0.3"],
        vec!["d", "-s", "2", "-t", "0"],
        vec!["d", "-s", "3", "-p", "0", "--test", "t"],
        vec!["d", "-s", "4", "-n", "1", "-t", "1", "-d", "2"],
    ] {
        let a = parse(&ok).unwrap();
        assert!(a.check().is_ok(), "{ok:?}: {:?}", a.check());
    }
}

#[test]
fn options_that_would_do_nothing_are_refused() {
    for (args, want) in [
        (
            vec!["d", "--seeding", "ato"],
            "--seeding applies to cross-validation only",
        ),
        (
            vec!["d", "--parallel"],
            "--parallel applies to cross-validation only",
        ),
        (
            vec!["d", "--shared-cache-mb", "10"],
            "--shared-cache-mb applies",
        ),
        (vec!["d", "--stratified"], "--stratified applies"),
        (
            vec!["d", "-v", "3", "--test", "t"],
            "--test predicts with the trained model",
        ),
        (vec!["d", "m", "-v", "3"], "-v writes no model"),
        (
            vec!["d", "-v", "3", "--seed", "2"],
            "--seed is the seed of --stratified",
        ),
    ] {
        let e = refused(&args);
        assert!(e.contains(want), "{args:?}: {e}");
    }
}

#[test]
fn the_default_model_file_is_the_data_file_name_plus_model() {
    let a = parse(&["some/dir/heart_scale"]).unwrap();
    assert_eq!(
        a.model_path(),
        std::path::PathBuf::from("heart_scale.model")
    );
    let a = parse(&["heart_scale", "out/x.model"]).unwrap();
    assert_eq!(a.model_path(), std::path::PathBuf::from("out/x.model"));
}

#[test]
fn the_batched_solver_takes_every_formulation() {
    for s in ["0", "1", "2", "3", "4"] {
        let a = parse(&["d", "-s", s, "--solver", "batched"]).unwrap();
        assert!(a.check().is_ok(), "-s {s} --solver batched");
    }
}
