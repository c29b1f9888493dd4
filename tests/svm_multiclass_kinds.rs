//! Issue 41, the experiment kinds: `svm_cv` and `svm_grid` on multi-class
//! data (LIBSVM's one-vs-one C-SVC, rows per fold with per-pair
//! iterations), and an `svm_cv` setting's `kernel`, `degree`, `coef0` and
//! class `weights` reaching our solver and `svm-train` (-t -d -r -wi).
//! Comparisons with LIBSVM's tools are SKIPPED, saying so, where they are
//! not installed; the vowel config's run needs `CVBENCH_DATA_DIR`.

use crate::common;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::Command;

use common::cvbench;
use common::svm::{records, run_config};

fn skip(why: &str) {
    let _ = writeln!(std::io::stderr(), "SKIPPED: svm multiclass kinds: {why}");
}

/// Three classes labelled 7, 0 and -3 (first appearance in that order),
/// uneven sizes (30, 18, 12), in 4 features: each class around its own
/// centre, with a deterministic spread that makes some rows overlap.
fn three_class_file(path: &Path) {
    let mut s = String::new();
    let classes = [
        (7, 30, [1.0, 0.0, 0.5, -0.5]),
        (0, 18, [-1.0, 0.5, 0.0, 0.5]),
        (-3, 12, [0.0, -1.0, -0.5, 0.0]),
    ];
    let mut t = 0u32;
    for i in 0..30 {
        for (label, count, centre) in classes {
            if i >= count {
                continue;
            }
            t += 1;
            s.push_str(&label.to_string());
            for (j, c) in centre.iter().enumerate() {
                let noise = (((t * 37 + j as u32 * 101) % 97) as f64 / 97.0 - 0.5) * 1.6;
                s.push_str(&format!(" {}:{}", j + 1, c + noise));
            }
            s.push('\n');
        }
    }
    std::fs::write(path, s).unwrap();
}

/// A two-class (-1/+1) file of 60 rows in 3 features, overlapping classes.
fn binary_file(path: &Path) {
    let mut s = String::new();
    for i in 0..60u32 {
        let y = if i % 3 == 0 { -1 } else { 1 };
        s.push_str(&y.to_string());
        for j in 0..3u32 {
            let v = (((i * 53 + j * 29) % 89) as f64 / 89.0 - 0.5) * 2.0 + 0.3 * f64::from(y);
            s.push_str(&format!(" {}:{}", j + 1, v));
        }
        s.push('\n');
    }
    std::fs::write(path, s).unwrap();
}

/// `svm-train -v k` with `opts` on `file`: its accuracy line's number.
fn svm_train_v(dir: &Path, opts: &[&str], k: usize, file: &str) -> f64 {
    let mut args: Vec<String> = opts.iter().map(|s| s.to_string()).collect();
    args.extend(["-v".into(), k.to_string(), file.into()]);
    let o = Command::new("svm-train")
        .args(&args)
        .current_dir(dir)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let line = out
        .lines()
        .find(|l| l.starts_with("Cross Validation Accuracy = "))
        .unwrap_or_else(|| panic!("no accuracy line: {out}"));
    line["Cross Validation Accuracy = ".len()..]
        .trim_end_matches('%')
        .parse()
        .unwrap()
}

#[test]
fn three_classes_run_one_vs_one_per_fold_and_equal_svm_train() {
    let dir = tempfile::tempdir().unwrap();
    three_class_file(&dir.path().join("three.svm"));
    let cfg = r#"kind = "svm_cv"
name = "m"
seed = 3
k = [4]
methods = ["ours", "ours_shared_parallel", "train", "libsvm", "libsvm_v", "libsvm_fit"]

[[datasets]]
path = "three.svm"
format = "libsvm"

[[settings]]
label = "rbf"
c = 2
gamma = 0.5

[[settings]]
label = "poly-w"
kernel = "poly"
degree = 2
coef0 = 1
gamma = 0.5
weights = { "7" = 2, "-3" = 0.5 }
"#;
    let o = run_config(dir.path(), cfg);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let recs = records(dir.path(), "m");
    for setting in ["rbf", "poly-w"] {
        let ours: Vec<_> = recs
            .iter()
            .filter(|r| r["setting"] == setting && r["method"] == "ours")
            .collect();
        // One row per fold, each with the 3 pairs' iterations and their sum.
        assert_eq!(ours.len(), 4, "{setting}");
        for r in &ours {
            let pairs: Vec<u64> = r["pair_iterations"]
                .split(' ')
                .map(|v| v.parse().unwrap())
                .collect();
            assert_eq!(pairs.len(), 3, "{setting}: {r:?}");
            assert_eq!(pairs.iter().sum::<u64>().to_string(), r["iterations"]);
            assert!(r["fold_accuracy_pct"].parse::<f64>().is_ok(), "{r:?}");
        }
        let train: Vec<_> = recs
            .iter()
            .filter(|r| r["setting"] == setting && r["method"] == "train")
            .collect();
        assert_eq!(train.len(), 1);
        assert_eq!(train[0]["pair_iterations"].split(' ').count(), 3);
        // The shared cache changes no number.
        let shared: Vec<_> = recs
            .iter()
            .filter(|r| r["setting"] == setting && r["method"] == "ours_shared_parallel")
            .collect();
        for (a, b) in ours.iter().zip(&shared) {
            for col in ["correct", "iterations", "pair_iterations", "objective"] {
                assert_eq!(a[col], b[col], "{setting} {col}");
            }
        }
    }
    if !cvbench::peers::libsvm::available() {
        return skip("svm-train not installed (make peers): only our side was checked");
    }
    // Fold by fold against svm-train on the same training folds: same
    // held-out correct counts, pair iterations, summed objective.
    for setting in ["rbf", "poly-w"] {
        let pick = |m: &str| -> Vec<_> {
            recs.iter()
                .filter(|r| r["setting"] == setting && r["method"] == m)
                .collect()
        };
        for (a, b) in pick("ours").iter().zip(pick("libsvm")) {
            assert_eq!(a["fold"], b["fold"]);
            assert_eq!(a["correct"], b["correct"], "{setting}");
            assert_eq!(a["pair_iterations"], b["pair_iterations"], "{setting}");
            let (x, y): (f64, f64) = (
                a["objective"].parse().unwrap(),
                b["objective"].parse().unwrap(),
            );
            assert!(
                (x - y).abs() <= 1e-6 * y.abs().max(1.0),
                "{setting}: {x} {y}"
            );
        }
        let acc = |m: &str| -> f64 { pick(m)[0]["cv_accuracy_pct"].parse().unwrap() };
        assert!((acc("ours") - acc("libsvm_v")).abs() < 1e-3, "{setting}");
        let (t, f) = (pick("train")[0], pick("libsvm_fit")[0]);
        assert_eq!(t["pair_iterations"], f["pair_iterations"], "{setting}");
    }
    // And against svm-train -v run here with the setting's options: the
    // kernel, degree, coef0 and weights reached the peer.
    let direct = svm_train_v(
        dir.path(),
        &[
            "-t", "1", "-d", "2", "-r", "1", "-g", "0.5", "-w7", "2", "-w-3", "0.5",
        ],
        4,
        "three.svm",
    );
    let ours: f64 = recs
        .iter()
        .find(|r| r["setting"] == "poly-w" && r["method"] == "ours")
        .unwrap()["cv_accuracy_pct"]
        .parse()
        .unwrap();
    assert!(
        (ours - direct).abs() < 1e-3,
        "ours {ours}, svm-train {direct}"
    );
    // The report renders the run and its comparison with svm-train -v.
    let o = cvbench(&["report", "r"], dir.path());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let md = std::fs::read_to_string(dir.path().join("r/m/report-section.md")).unwrap();
    assert!(
        md.contains("equals what `svm-train -v k` prints in 2 of 2 cases"),
        "{md}"
    );
}

#[test]
fn kernel_degree_coef0_and_weights_reach_solver_and_peer_on_binary_data() {
    let dir = tempfile::tempdir().unwrap();
    binary_file(&dir.path().join("bin.svm"));
    // Weights: one-vs-one on two classes (as svm-train); no weights: the
    // binary path.
    let cfg = r#"kind = "svm_cv"
name = "b"
seed = 5
k = [5]
methods = ["ours", "train", "libsvm_v", "libsvm_fit"]

[[datasets]]
path = "bin.svm"
format = "libsvm"

[[settings]]
label = "poly-w1"
kernel = "polynomial"
degree = 2
coef0 = 0.5
gamma = 0.5
weights = { "1" = 2 }

[[settings]]
label = "sigmoid"
kernel = "sig"
coef0 = -0.5
gamma = 0.25
"#;
    let o = run_config(dir.path(), cfg);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let recs = records(dir.path(), "b");
    let num = |setting: &str, m: &str, col: &str| -> f64 {
        recs.iter()
            .find(|r| r["setting"] == setting && r["method"] == m)
            .unwrap()[col]
            .parse()
            .unwrap()
    };
    // The weighted setting ran one-vs-one: one pair per fold.
    assert!(recs
        .iter()
        .filter(|r| r["setting"] == "poly-w1" && r["method"] == "ours")
        .all(|r| r["pair_iterations"].split(' ').count() == 1));
    if !cvbench::peers::libsvm::available() {
        return skip("svm-train not installed (make peers): only our side ran");
    }
    for (setting, opts) in [
        (
            "poly-w1",
            vec!["-t", "1", "-d", "2", "-r", "0.5", "-g", "0.5", "-w1", "2"],
        ),
        ("sigmoid", vec!["-t", "3", "-r", "-0.5", "-g", "0.25"]),
    ] {
        // svm-train run here with the options: the CV accuracy of ours and
        // of the peer cell, and the objective of one training (which moves
        // with every one of the options) of ours and of the peer cell.
        let acc = svm_train_v(dir.path(), &opts, 5, "bin.svm");
        assert!(
            (num(setting, "ours", "cv_accuracy_pct") - acc).abs() < 1e-3,
            "{setting}"
        );
        assert!(
            (num(setting, "libsvm_v", "cv_accuracy_pct") - acc).abs() < 1e-3,
            "{setting}"
        );
        let obj = svm_train_obj(dir.path(), &opts, "bin.svm");
        for m in ["train", "libsvm_fit"] {
            let got = num(setting, m, "objective");
            assert!(
                (got - obj).abs() <= 1e-6 * obj.abs(),
                "{setting} {m}: {got} vs {obj}"
            );
        }
    }
}

/// One `svm-train` with `opts` on `file`: the `obj` it prints.
fn svm_train_obj(dir: &Path, opts: &[&str], file: &str) -> f64 {
    let mut args: Vec<&str> = opts.to_vec();
    args.extend([file, "direct.model"]);
    let o = Command::new("svm-train")
        .args(&args)
        .current_dir(dir)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let line = out
        .lines()
        .find(|l| l.starts_with("obj = "))
        .unwrap_or_else(|| panic!("no obj line: {out}"));
    line["obj = ".len()..]
        .split(',')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// A config's error: exit 2 and the message on stderr.
fn refused(dir: &Path, cfg: &str) -> String {
    let o = run_config(dir, cfg);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

#[test]
fn onedal_on_multiclass_data_weighted_seeding_and_bad_kernel_settings_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    three_class_file(&dir.path().join("three.svm"));
    binary_file(&dir.path().join("bin.svm"));
    let head = |file: &str, methods: &str| {
        format!(
            "kind = \"svm_cv\"\nname = \"x\"\nseed = 1\nk = [3]\nmethods = {methods}\n\n[[datasets]]\npath = \"{file}\"\nformat = \"libsvm\"\n\n"
        )
    };
    // oneDAL on three classes with class weights (it is given none): named,
    // with the dataset and the fix (unweighted it runs: below).
    let err = refused(
        dir.path(),
        &(head("three.svm", "[\"ours\", \"onedal\"]")
            + "[[settings]]\nlabel = \"a\"\nweights = { \"7\" = 2 }\n"),
    );
    assert!(err.contains("c.toml:5:"), "{err}");
    assert!(err.contains("method `onedal`"), "{err}");
    assert!(err.contains("3 labels"), "{err}");
    assert!(err.contains("one-vs-one"), "{err}");
    assert!(err.contains("no class weights"), "{err}");
    // Class weights make a binary set one-vs-one: seeded methods refused too.
    let err = refused(
        dir.path(),
        &(head("bin.svm", "[\"tree\"]") + "[[settings]]\nlabel = \"w\"\nweights = { \"1\" = 2 }\n"),
    );
    assert!(
        err.contains("method `tree`") && err.contains("class weights"),
        "{err}"
    );
    // A first-rounds estimate is of seeded binary runs only.
    let cfg = head("three.svm", "[\"ours\"]").replace("k = [3]", "k = [\"n\"]\nfirst_rounds = 2")
        + "[[settings]]\nlabel = \"a\"\n";
    let err = refused(dir.path(), &cfg);
    assert!(
        err.contains("first_rounds") && err.contains("3 labels"),
        "{err}"
    );
    // Bad settings, each at the setting's line.
    for (setting, needle) in [
        ("kernel = \"poly\"\ndegree = -1\n", "degree"),
        ("kernel = \"gaussian\"\n", "unknown kernel `gaussian`"),
        (
            "weights = { \"1\" = 0 }\n",
            "class weight must be finite and > 0",
        ),
        ("weights = { \"one\" = 2 }\n", "`one` is not a class label"),
        ("degree = 2\n", "`degree` is the polynomial kernel's"),
        ("linear = true\nkernel = \"rbf\"\n", "disagree"),
    ] {
        let cfg = head("bin.svm", "[\"ours\"]") + "[[settings]]\nlabel = \"s\"\n" + setting;
        let err = refused(dir.path(), &cfg);
        assert!(err.contains(needle), "{setting}: {err}");
        assert!(err.contains("c.toml:11:"), "{setting}: {err}");
    }
    // oneDAL has no polynomial or sigmoid kernel here: refused before any cell.
    let cfg = head("bin.svm", "[\"ours\", \"onedal\"]")
        + "[[settings]]\nlabel = \"s\"\nkernel = \"sigmoid\"\n";
    let err = refused(dir.path(), &cfg);
    assert!(
        err.contains("c.toml:11:") && err.contains("`onedal`"),
        "{err}"
    );
    // A weight for a label the data lacks: svm-train's warning, and the run goes on.
    let cfg =
        head("bin.svm", "[\"ours\"]") + "[[settings]]\nlabel = \"s\"\nweights = { \"5\" = 2 }\n";
    let o = run_config(dir.path(), &cfg);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("WARNING: class label 5 specified in weight is not found"),
        "{err}"
    );
}

/// Issue 58: oneDAL's CV and fit run on an unweighted multi-class set (its
/// SVC is one-vs-one inside) beside ours, each cell with its peak memory:
/// ours the process's high-water mark during the cell, oneDAL its Python
/// process's.
#[test]
fn onedal_runs_on_multiclass_data_and_every_cell_has_its_peak_memory() {
    if !cvbench::peers::onedal::available() {
        eprintln!("SKIPPED: {}", cvbench::peers::onedal::SKIPPED_NO_ONEDAL);
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    three_class_file(&dir.path().join("three.svm"));
    let cfg = "kind = \"svm_cv\"\nname = \"x\"\nseed = 1\nk = [3]\nmethods = [\"ours\", \"train\", \"onedal\", \"onedal_fit\"]\ncaches = [\"shared\"]\nthreads = [2]\ntiming_repeats = 1\ntimed_fewer_because = \"a test\"\n\n[[datasets]]\npath = \"three.svm\"\nformat = \"libsvm\"\n\n[[settings]]\nlabel = \"a\"\nc = 1\ngamma = 0.5\n";
    let o = run_config(dir.path(), cfg);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let recs = records(dir.path(), "x");
    let of = |m: &str| -> Vec<&BTreeMap<String, String>> {
        recs.iter().filter(|r| r["method"].starts_with(m)).collect()
    };
    let onedal = of("onedal");
    assert_eq!(onedal.len(), 2, "a CV row and a fit row");
    for r in onedal
        .iter()
        .chain(of("ours").iter())
        .chain(of("train").iter())
    {
        let mb: f64 = r["peak_rss_mb"].parse().unwrap_or(f64::NAN);
        assert!(mb > 1.0, "{}: peak_rss_mb {mb}", r["method"]);
    }
    let cv = onedal
        .iter()
        .find(|r| r["role"] == "cv")
        .unwrap_or_else(|| panic!("{onedal:?}"));
    let correct: f64 = cv["correct"].parse().unwrap();
    assert!(
        correct >= 0.9 * 60.0,
        "oneDAL's CV on three well-separated classes: {correct}"
    );
}

#[test]
fn svm_grid_on_three_classes_is_svm_train_cv_at_every_point() {
    let dir = tempfile::tempdir().unwrap();
    three_class_file(&dir.path().join("three.svm"));
    let cfg = r#"kind = "svm_grid"
name = "g"
seed = 1
k = 3
log2c = [-1, 3, 2]
log2g = [1, -3, -2]
reuse = ["none", "gamma"]
threads = 2

[[datasets]]
path = "three.svm"
format = "libsvm"
"#;
    let o = run_config(dir.path(), cfg);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let recs = records(dir.path(), "g");
    let folds: Vec<_> = recs
        .iter()
        .filter(|r| r["role"] == "fold" && r["fold"].parse::<i64>().is_ok_and(|f| f >= 0))
        .collect();
    assert_eq!(folds.len(), 2 * 9 * 3, "two levels, 9 points, 3 folds");
    let cells: Vec<_> = recs.iter().filter(|r| r["role"] == "cell").collect();
    assert!(
        cells.iter().all(|r| r["note"].contains("one-vs-one")),
        "{cells:?}"
    );
    if !cvbench::peers::libsvm::available() {
        return skip("svm-train not installed (make peers): rates not compared");
    }
    // Each point's rate is svm-train -v 3's at that (C, gamma).
    for lc in [-1i32, 1, 3] {
        for lg in [1i32, -1, -3] {
            let (c, g) = (2f64.powi(lc), 2f64.powi(lg));
            let want = svm_train_v(
                dir.path(),
                &["-c", &c.to_string(), "-g", &g.to_string()],
                3,
                "three.svm",
            );
            let correct: u64 = folds
                .iter()
                .filter(|r| {
                    r["method"] == "none"
                        && r["log2c"].parse::<f64>().ok() == Some(f64::from(lc))
                        && r["log2g"].parse::<f64>().ok() == Some(f64::from(lg))
                })
                .map(|r| r["correct"].parse::<u64>().unwrap())
                .sum();
            let ours = 100.0 * correct as f64 / 60.0;
            assert!(
                (ours - want).abs() < 1e-3,
                "C = {c}, g = {g}: {ours} vs {want}"
            );
        }
    }
}

#[test]
fn vowel_config_runs_equals_svm_train_and_renders() {
    let Ok(data) = std::env::var("CVBENCH_DATA_DIR") else {
        return skip("set CVBENCH_DATA_DIR to the datasets folder (vowel.scale)");
    };
    let dir = tempfile::tempdir().unwrap();
    let cfg = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/svm/multiclass-vowel.toml");
    let cfg = cfg.to_str().unwrap();
    let o = cvbench(
        &["run", cfg, "--out", "r", "--data-dir", &data, "--csv"],
        dir.path(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = cvbench(&["report", "r"], dir.path());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let recs = records(dir.path(), "svm-multiclass-vowel");
    let ours: Vec<_> = recs.iter().filter(|r| r["method"] == "ours").collect();
    assert_eq!(ours.len(), 2 * 5, "two settings, 5 folds");
    assert!(ours
        .iter()
        .all(|r| r["pair_iterations"].split(' ').count() == 55));
    let report = std::fs::read_to_string(dir.path().join("r/REPORT.md")).unwrap();
    assert!(report.contains("vowel.scale"), "{report}");
    if !cvbench::peers::libsvm::available() {
        return skip("svm-train not installed (make peers): accuracy not compared");
    }
    let md = std::fs::read_to_string(dir.path().join("r/svm-multiclass-vowel/report-section.md"))
        .unwrap();
    assert!(
        md.contains("equals what `svm-train -v k` prints in 2 of 2 cases"),
        "{md}"
    );
    assert!(
        md.contains("2 of 2 (dataset, setting, k) groups pass every per-fold check"),
        "{md}"
    );
}

#[test]
fn libsvm_multiclass_sets_are_in_the_registry() {
    let Ok(data) = std::env::var("CVBENCH_DATA_DIR") else {
        return skip("set CVBENCH_DATA_DIR to the datasets folder");
    };
    use cvbench_engine::api::data::{DataDir, Registry, Verification};
    let dir = DataDir::resolve(Some(std::path::PathBuf::from(&data)));
    for (name, n, d, classes) in [
        ("vowel.scale", 528, 10, 11),
        ("glass.scale", 214, 9, 6),
        ("dna.scale", 2000, 180, 3),
        ("dna.scale.t", 1186, 180, 3),
        ("satimage.scale", 4435, 36, 6),
        ("satimage.scale.t", 2000, 36, 6),
        ("segment.scale", 2310, 19, 7),
        ("pendigits", 7494, 16, 10),
        ("pendigits.t", 3498, 16, 10),
    ] {
        let entry = Registry::builtin().get(name).unwrap();
        for (path, v) in entry.verify(&dir).unwrap() {
            assert!(
                matches!(v, Verification::Verified { .. }),
                "{name}: {} {v:?}",
                path.display()
            );
        }
        let ds = entry.load(&dir).unwrap();
        assert_eq!((ds.n(), ds.d(), entry.rows), (n, d, Some(n)), "{name}");
        let mut labels: Vec<f64> = ds.y.clone();
        labels.sort_by(f64::total_cmp);
        labels.dedup();
        assert_eq!(labels.len(), classes, "{name}");
    }
}
