//! The `svm_cv` kind with `svm_type` (issue 56): the config's refusals
//! (an unknown formulation, seeding the engine does not build for it, a
//! parameter the formulation does not take, oneDAL's missing one-class, a
//! regression set in a C-SVC config), each naming its config line; and a
//! small end-to-end run of epsilon-SVR whose unseeded CV prints what
//! `svm-train -s 3 -v 10` prints on the same folds (skipped, saying so,
//! without svm-train or the data).

use cvbench_engine::api::formulation::SvmType;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output};

use crate::common;
use common::config_check::{refused_config, validate_config};

fn skip(why: &str) {
    let _ = writeln!(std::io::stderr(), "SKIPPED: svm_cv formulation test: {why}");
}

/// A small regression file (synthetic: y = x1 + x2 / 2 + a wiggle),
/// written beside the configs.
fn write_regression(dir: &Path) {
    let mut text = String::new();
    for i in 0..60 {
        let (a, b) = ((i % 10) as f64 / 10.0, (i / 10) as f64 / 6.0 - 0.5);
        let y = a + b / 2.0 + 0.05 * ((i * 7 % 11) as f64 / 11.0);
        text.push_str(&format!("{y} 1:{a} 2:{b}\n"));
    }
    std::fs::write(dir.join("synthetic-regression.txt"), text).unwrap();
}

fn config(svm_type: Option<&str>, methods: &str, setting: &str, data: &str) -> String {
    let t = svm_type.map_or(String::new(), |t| format!("svm_type = \"{t}\"\n"));
    format!(
        "kind = \"svm_cv\"\nname = \"f\"\nseed = 1\n{t}k = [5]\nmethods = [{methods}]\ntiming_repeats = 3\n\n[[datasets]]\n{data}\n\n[[settings]]\nlabel = \"s\"\n{setting}\n"
    )
}

const FILE: &str =
    "path = \"synthetic-regression.txt\"\nformat = \"libsvm\"\nlabel = \"synthetic-regression\"";

/// `cvbench run` of config `text` in `d` (CSV records): its report section
/// and its records' CSV text.
fn run_config(d: &Path, text: &str) -> (String, String) {
    std::fs::write(d.join("f.toml"), text).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_cvbench"))
        .args(["run", "f.toml", "--out", "r", "--csv"])
        .current_dir(d)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let md = std::fs::read_to_string(d.join("r/f/report-section.md")).unwrap();
    let records = std::fs::read_to_string(d.join("r/f/records.csv")).unwrap();
    (md, records)
}

fn validate(dir: &Path, text: &str) -> Output {
    validate_config(dir, "f.toml", text)
}

fn refused(dir: &Path, text: &str, words: &[&str]) {
    refused_config(dir, "f.toml", text, words)
}

#[test]
fn formulation_configs_refuse_what_does_not_apply() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_regression(d);
    let ok = config(Some("epsilon_svr"), "\"ours\", \"sir\"", "p = 0.1", FILE);
    let o = validate(d, &ok);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    refused(
        d,
        &config(Some("epsilon-svr"), "\"ours\"", "", FILE),
        &[
            "unknown svm_type `epsilon-svr`",
            "`epsilon_svr`",
            "`nu_svr`",
        ],
    );
    // Seeding nu-SVR: refused, quoting the engine, exactly where the
    // engine refuses it (the check asks the engine).
    let nu_sir = config(Some("nu_svr"), "\"ours\", \"sir\"", "nu = 0.5", FILE);
    let engine = cvbench::experiments::svm_cv::formulation::engine_seeds(
        cvbench_engine::api::formulation::SvmType::NuSvr { nu: 0.5 },
        cvbench::experiments::svm_cv::Method::Sir,
    );
    match engine {
        Err(e) => refused(d, &nu_sir, &["method `sir`", "the engine refuses it", &e]),
        Ok(()) => assert!(validate(d, &nu_sir).status.success()),
    }
    // The batched solver: an axis of every formulation (the nu ones with
    // Solver_NU's two equality constraints), as the engine says.
    let batched = |t: &str, setting: &str| {
        config(Some(t), "\"ours\", \"train\"", setting, FILE)
            .replace("k = [5]", "solvers = [\"smo\", \"batched\"]\nk = [5]")
    };
    for (t, setting, svm_type) in [
        ("epsilon_svr", "p = 0.1", SvmType::EpsilonSvr { p: 0.1 }),
        ("nu_svr", "nu = 0.5", SvmType::NuSvr { nu: 0.5 }),
    ] {
        let o = validate(d, &batched(t, setting));
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        cvbench::experiments::svm_cv::formulation::engine_solves(
            svm_type,
            cvbench_engine::api::strategies::SolverKind::Batched,
        )
        .expect("the engine solves it on the batched solver");
    }
    refused(
        d,
        &config(Some("nu_svr"), "\"ours\"", "p = 0.2", FILE),
        &["`p` (epsilon) is epsilon_svr's parameter"],
    );
    refused(
        d,
        &config(Some("epsilon_svr"), "\"ours\", \"ato\"", "", FILE),
        &["method `ato` is C-SVC's"],
    );
    refused(
        d,
        &config(Some("one_class"), "\"ours\", \"onedal\"", "", FILE),
        &["no one-class SVM"],
    );
    // C-SVC (no svm_type): a regression set and a nu are refused.
    refused(
        d,
        &config(None, "\"ours\"", "", FILE),
        &["is a regression set", "set svm_type"],
    );
    refused(
        d,
        &config(Some("c_svc"), "\"ours\"", "nu = 0.5", FILE),
        &["`nu` is the parameter of nu_svc"],
    );
    if let Ok(data) = std::env::var("CVBENCH_DATA_DIR") {
        // A registry regression set with integer targets (rings) too.
        std::fs::write(
            d.join("f.toml"),
            config(None, "\"ours\"", "", "name = \"abalone_scale\""),
        )
        .unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_cvbench"))
            .args(["validate", "f.toml", "--quiet", "--data-dir", &data])
            .current_dir(d)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            !o.status.success() && err.contains("regression set"),
            "{err}"
        );
    }
}

#[test]
fn the_batched_solver_is_an_axis_of_svr_runs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_regression(d);
    let text = config(
        Some("epsilon_svr"),
        "\"ours\", \"sir\", \"train\"",
        "c = 4\ngamma = 0.5\np = 0.05",
        FILE,
    )
    .replace("k = [5]", "solvers = [\"smo\", \"batched\"]\nk = [5]");
    let (md, records) = run_config(d, &text);
    let mut lines = records.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let of = |m: &str, s: &str| {
        rows.iter()
            .filter(|r| r[col("method")] == m && r[col("solver")] == s)
            .count()
    };
    // Each CV method's five rounds on each solver, one training each.
    for m in ["ours", "sir"] {
        assert_eq!((of(m, "smo"), of(m, "batched")), (5, 5), "{records}");
    }
    assert_eq!(
        (of("train", "smo"), of("train", "batched")),
        (1, 1),
        "{records}"
    );
    // Labelled apart in the table and checked against the SMO's unseeded CV.
    for label in ["ours+batched", "sir+batched"] {
        assert!(
            md.contains(&format!("`{label}` MSE")) && md.contains("within"),
            "{md}"
        );
    }
    assert!(
        md.contains("`ours+batched` against the SMO's unseeded CV"),
        "{md}"
    );
    assert!(
        md.contains("`sir+batched` against unseeded, the same solver"),
        "{md}"
    );
    assert!(!md.contains("**outside**"), "{md}");
}

#[test]
fn svr_cv_prints_svm_train_lines() {
    if !cvbench::peers::libsvm::available() {
        return skip("svm-train not installed (make peers)");
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_regression(d);
    let text = config(
        Some("epsilon_svr"),
        "\"ours\", \"sir\", \"libsvm_v\", \"train\", \"libsvm_fit\"",
        "c = 4\ngamma = 0.5\np = 0.05",
        FILE,
    );
    let (md, records) = run_config(d, &text);
    let mut lines = records.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let of =
        |m: &str| -> Vec<&Vec<&str>> { rows.iter().filter(|r| r[col("method")] == m).collect() };
    // Five rounds of ours, one row of svm-train -v, every repeat's seconds.
    assert_eq!(of("ours").len(), 5, "{records}");
    assert_eq!(of("libsvm_v").len(), 1, "{records}");
    for r in &rows {
        assert_eq!(r[col("timing_repeats")], "3", "{records}");
        assert_eq!(r[col("wall_runs_s")].split(';').count(), 3, "{records}");
        assert_eq!(r[col("svm_type")], "epsilon_svr");
    }
    // The same MSE line as svm-train -s 3 -v 5, and the same iterations.
    let ours_line = of("ours")[0][col("cv_lines")];
    assert!(
        ours_line.contains("Cross Validation Mean squared error = "),
        "{records}"
    );
    assert_eq!(ours_line, of("libsvm_v")[0][col("cv_lines")], "{records}");
    let iters: u64 = of("ours")
        .iter()
        .map(|r| r[col("iterations")].parse::<u64>().unwrap())
        .sum();
    assert_eq!(
        iters.to_string(),
        of("libsvm_v")[0][col("iterations")],
        "{records}"
    );
    assert!(md.contains("CV MSE"), "{md}");
    assert!(md.contains("on its folds"), "{md}");
    assert!(md.contains(": exact"), "{md}");
    assert!(!md.contains("**differs**"), "{md}");
    assert!(md.contains("`sir` against unseeded"), "{md}");
}
