//! What the tests against LIBSVM 3.24's `svm-train` and `svm-predict`
//! share: running a tool and reading its output, whether the tools are
//! installed (a `SKIPPED` line if not), a dataset copied into a test's
//! folder, two model files compared token by token, a kernel matrix
//! written in svm-train's precomputed format (`-t 4`), the number of a
//! `-v` line, and `cvbench grid`'s lines read back; and [`compare`]:
//! `cvbench svm` against svm-train on a real dataset (the same standard
//! output, the same model file token by token, `svm-predict`, and
//! `svm-predict -b 1` for a `-b 1` model, on our model printing and
//! predicting what it does on svm-train's, and `--test` printing
//! svm-predict's lines).

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use cvbench_engine::api::data::Dataset;

/// `program args` in `dir`: its standard output (it must succeed).
pub fn run(program: &str, args: &[&str], dir: &Path) -> String {
    let o = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("run {program}: {e}"));
    assert!(o.status.success(), "{program} {args:?}: {o:?}");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// svm-train's standard output for `args` in `dir` (it must succeed).
pub fn svm_train(args: &[&str], dir: &Path) -> String {
    run("svm-train", args, dir)
}

/// Whether svm-train is installed (a SKIPPED line if not).
pub fn has_svm_train() -> bool {
    let there = cvbench::peers::libsvm::find_program("svm-train").is_some();
    if !there {
        println!("SKIPPED: svm-train (LIBSVM 3.24) is not on PATH");
    }
    there
}

/// Whether svm-train and svm-predict are installed (a SKIPPED line if not).
pub fn libsvm_tools() -> bool {
    let there = ["svm-train", "svm-predict"]
        .iter()
        .all(|p| cvbench::peers::libsvm::find_program(p).is_some());
    if !there {
        println!("SKIPPED: svm-train / svm-predict (LIBSVM 3.24) are not on PATH");
    }
    there
}

/// Dataset `name` of `CVBENCH_DATA_DIR` decompressed into `dir` under its
/// name; `false` (after a SKIPPED line) without it.
pub fn dataset_into(name: &str, dir: &Path) -> bool {
    let Some(src) = super::data_source(name) else {
        return false;
    };
    let bytes = cvbench_engine::api::files::read_all(&src).unwrap();
    std::fs::write(dir.join(name), bytes).unwrap();
    true
}

/// The two model files hold the same tokens, numbers equal to the bit.
pub fn assert_same_model(ours: &str, lib: &str, what: &str) {
    let (a, b): (Vec<&str>, Vec<&str>) = (ours.lines().collect(), lib.lines().collect());
    assert_eq!(a.len(), b.len(), "{what}: lines");
    let same = |x: &str, y: &str| match (x.parse::<f64>(), y.parse::<f64>()) {
        (Ok(u), Ok(v)) => u.to_bits() == v.to_bits(),
        _ => x == y,
    };
    for (k, (la, lb)) in a.iter().zip(&b).enumerate() {
        let (ta, tb): (Vec<&str>, Vec<&str>) = (
            la.split_whitespace().collect(),
            lb.split_whitespace().collect(),
        );
        let equal = ta.len() == tb.len()
            && ta
                .iter()
                .zip(&tb)
                .all(|(x, y)| match (x.split_once(':'), y.split_once(':')) {
                    (Some((i, u)), Some((j, v))) => i == j && same(u, v),
                    (None, None) => same(x, y),
                    _ => false,
                });
        assert!(equal, "{what}: model line {}:\nours {la}\nlib  {lb}", k + 1);
    }
}

/// The kernel matrix of `ds` in svm-train's precomputed format (`label
/// 0:i 1:K(x_i,x_1) ... l:K(x_i,x_l)`, every value in shortest round-trip
/// form): the linear kernel (`gamma` none) or `exp(-gamma ||x - y||^2)`,
/// in double precision.
pub fn precomputed_text(ds: &Dataset, gamma: Option<f64>) -> String {
    let rows: Vec<Vec<f64>> = (0..ds.n()).map(|i| ds.row(i).to_dense(ds.d())).collect();
    let k = |a: &[f64], b: &[f64]| match gamma {
        None => a.iter().zip(b).map(|(u, v)| u * v).sum::<f64>(),
        Some(g) => (-g * a.iter().zip(b).map(|(u, v)| (u - v) * (u - v)).sum::<f64>()).exp(),
    };
    let mut s = String::new();
    for (i, a) in rows.iter().enumerate() {
        let _ = write!(s, "{} 0:{}", ds.y[i], i + 1);
        for (j, b) in rows.iter().enumerate() {
            let _ = write!(s, " {}:{}", j + 1, k(a, b));
        }
        s.push('\n');
    }
    s
}

/// svm-train's `-v` number for `args` in `dir`: the last word of its line
/// starting with `prefix`, a `%` dropped.
pub fn svm_train_cv(args: &[&str], dir: &Path, prefix: &str) -> String {
    let out = svm_train(args, dir);
    let line = out
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no `{prefix}` in {out}"));
    line.rsplit(' ')
        .next()
        .unwrap()
        .trim_end_matches('%')
        .to_string()
}

/// A grid point as `cvbench grid` prints it: the fields before the number
/// (parsed), and the number as printed (`mse=...` for the SVRs).
pub type GridLine = (Vec<f64>, String);

/// `cvbench grid`'s standard output read back: every point line (`[local]
/// ... NUMBER (best ...)`) and the final line.
pub fn grid_lines(out: &str) -> (Vec<GridLine>, String) {
    let lines: Vec<&str> = out.lines().collect();
    let (last, points) = lines.split_last().expect("grid lines");
    let points = points
        .iter()
        .map(|l| {
            let head = l
                .strip_prefix("[local] ")
                .unwrap()
                .split(" (best")
                .next()
                .unwrap();
            let mut f: Vec<&str> = head.split(' ').collect();
            let number = f.pop().unwrap().to_string();
            (f.iter().map(|x| x.parse().unwrap()).collect(), number)
        })
        .collect();
    (points, last.to_string())
}

/// Each option set of `cases` on dataset `name`: svm-train's output and
/// model, svm-predict on both models, and `--test`.
pub fn compare(name: &str, cases: &[&str]) {
    if !libsvm_tools() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    if !dataset_into(name, d) {
        return;
    }
    for case in cases {
        let opts: Vec<&str> = case.split_whitespace().collect();
        let with = |extra: &[&str]| -> Vec<String> {
            let mut v = vec!["svm".to_string()];
            v.extend(opts.iter().chain(extra).map(|s| s.to_string()));
            v
        };
        let call = |extra: &[&str]| {
            let v = with(extra);
            let v: Vec<&str> = v.iter().map(String::as_str).collect();
            super::cvbench(&v, d)
        };
        let mut lib_args = opts.clone();
        lib_args.extend([name, "lib.model"]);
        let lib_out = run("svm-train", &lib_args, d);
        let our_out = super::ok(&call(&[name, "our.model"]));
        assert_eq!(our_out, lib_out, "{name} {case}: standard output");
        let read = |f: &str| std::fs::read_to_string(d.join(f)).unwrap();
        assert_same_model(
            &read("our.model"),
            &read("lib.model"),
            &format!("{name} {case}"),
        );
        let p_lib = run("svm-predict", &[name, "lib.model", "lib.pred"], d);
        let p_our = run("svm-predict", &[name, "our.model", "our.pred"], d);
        assert_eq!(p_our, p_lib, "{name} {case}: svm-predict's summary");
        assert_eq!(
            read("our.pred"),
            read("lib.pred"),
            "{name} {case}: predictions"
        );
        if case.contains("-b 1") {
            let b = |model: &str, out: &str| run("svm-predict", &["-b", "1", name, model, out], d);
            let (p_lib, p_our) = (b("lib.model", "lib.prob"), b("our.model", "our.prob"));
            assert_eq!(p_our, p_lib, "{name} {case}: svm-predict -b 1's output");
            assert_eq!(
                read("our.prob"),
                read("lib.prob"),
                "{name} {case}: svm-predict -b 1's predictions"
            );
        }
        let tested = super::ok(&call(&["-q", "--test", name, name, "t.model"]));
        assert_eq!(tested, p_lib, "{name} {case}: --test");
        println!("{name} {case}: svm-train's output, model and predictions");
    }
}
