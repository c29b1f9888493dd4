//! `cvbench svm` against LIBSVM 3.24's `svm-train` and `svm-predict` on a
//! real dataset: the same standard output, the same model file (every
//! token equal; numbers equal to the bit as parsed: ours writes the
//! shortest round-trip form where svm-train writes `%.17g`, and no trailing
//! space), `svm-predict` (and `svm-predict -b 1` for a `-b 1` model) on our
//! model printing and predicting what it does on svm-train's, and `--test`
//! printing svm-predict's lines. Without svm-train / svm-predict on `PATH`
//! or the data, a `SKIPPED: ...` line and nothing checked.

use std::path::Path;
use std::process::Command;

use super::{cvbench, data_source, ok};

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

/// Each option set of `cases` on dataset `name`: svm-train's output and
/// model, svm-predict on both models, and `--test`.
pub fn compare(name: &str, cases: &[&str]) {
    if !libsvm_tools() {
        return;
    }
    let Some(src) = data_source(name) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let bytes = cvbench_engine::api::files::read_all(&src).unwrap();
    std::fs::write(d.join(name), bytes).unwrap();
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
            cvbench(&v, d)
        };
        let mut lib_args = opts.clone();
        lib_args.extend([name, "lib.model"]);
        let lib_out = run("svm-train", &lib_args, d);
        let our_out = ok(&call(&[name, "our.model"]));
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
        let tested = ok(&call(&["-q", "--test", name, name, "t.model"]));
        assert_eq!(tested, p_lib, "{name} {case}: --test");
        println!("{name} {case}: svm-train's output, model and predictions");
    }
}
