//! The config path: config texts (small configs of every kind and the
//! quick configs, mutated) through parsing, the shared checks and each
//! kind's plan, and config files of arbitrary bytes through the bounded
//! file read.

use super::{bounded, cases, input, report, runner, SERIAL};
use cvbench::config::ConfigFile;
use cvbench::experiments::Context;
use cvbench_engine::data::DataDir;
use proptest::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

static CONFIG_TOKENS: &[&[u8]] = &[
    b"\"../x\"",
    b"\"/tmp/x\"",
    b"\"\"",
    b"\"..\"",
    b"[]",
    b"{}",
    b"0",
    b"-1",
    b"2",
    b"4294967296",
    b"18446744073709551615",
    b"nan",
    b"inf",
    b"1e-50",
    b"\"n\"",
    b"\"all\"",
    b"\"heart_scale\"",
    b"=",
    b"\"",
    b"\n",
    b",",
    b"[[datasets]]\nsynthetic = { generator = \"linear-classification\", n = 40, d = 3 }\n",
    b"[[datasets]]\nname = \"heart_scale\"\n",
    b"label = \"same\"\n",
    b"transforms = [{ minmax = {} }]\n",
    b"name = \"a\"\n",
    b"n = []\n",
    b"k = [2]\n",
    b"c = 0\n",
    b"gamma = nan\n",
    b"n_features = 1000000000\n",
    b"repetitions = 4294967296\n",
    b"9223372036854775807",
    b"[[datasets]]\nsynthetic = { generator = \"covtype-like\", n = 9223372036854775807 }\n",
    b"[[datasets]]\nsynthetic = { generator = \"msd-like\", n = 10, d = 9223372036854775807 }\n",
    b"[[datasets]]\nsynthetic = { generator = \"linear-regression\", n = 1099511627776, d = 1 }\n",
    b"[[datasets]]\npath = \"Cargo.toml\"\nformat = \"libsvm\"\n",
    b"[[settings]]\nlabel = \"y\"\nc = 1e300\n",
    b"population = { synthetic = { n_features = 9223372036854775807 } }\n",
];

const SMALL_CONFIGS: &[&str] = &[
    r#"kind = "treecv"
name = "t"
seed = 1
repetitions = 2
[[datasets]]
synthetic = { generator = "linear-classification", n = 60, d = 3 }
label = "a"
[[learners]]
type = "pegasos"
lambda = 1e-4
[[grid]]
methods = ["treecv", "standard"]
orders = ["fixed"]
k = [2, 3]
n = [30, "all"]
"#,
    r#"kind = "svm_cv"
name = "s"
seed = 7
k = [2, 3]
methods = ["ours"]
[[datasets]]
synthetic = { generator = "linear-classification", n = 50, d = 4 }
[[settings]]
label = "x"
c = 1
gamma = 0.5
eps = 1e-3
"#,
    r#"kind = "progressive"
name = "p"
seed = 3
tail_a = [0.1]
[bkl]
n_features = 100
[bkl.figure1]
n_min = 4
n_max = 6
s = 2
repetitions = 3
[[theorems]]
population = { synthetic = { n_features = 50, tie = "half" } }
repetitions = 4
kfold = [{ n = 6, k = 3 }]
progressive = [{ n_train = 2, s = 3 }]
"#,
];

/// Whether planning this config is cheap enough for a fuzz case: every
/// synthetic dataset small and few repetitions (planning generates the data).
fn cheap_to_plan(text: &str) -> bool {
    fn walk(v: &toml::Value) -> bool {
        match v {
            toml::Value::Table(t) => {
                if let Some(toml::Value::Table(s)) = t.get("synthetic") {
                    // Small sizes plan fast; absurd ones must be refused before
                    // anything is allocated, so they plan fast too.
                    let small = |k: &str, max: i64| matches!(s.get(k), Some(toml::Value::Integer(x)) if *x <= max || *x >= 1 << 40);
                    let has_generator = s.contains_key("generator");
                    if has_generator
                        && !(small("n", 2000) && (s.get("d").is_none() || small("d", 100)))
                    {
                        return false;
                    }
                }
                if let Some(r) = t.get("repetitions") {
                    if !matches!(r, toml::Value::Integer(x) if *x <= 20) {
                        return false;
                    }
                }
                t.values().all(walk)
            }
            toml::Value::Array(a) => a.len() <= 50 && a.iter().all(walk),
            _ => true,
        }
    }
    toml::from_str::<toml::Value>(text).is_ok_and(|v| walk(&v))
}

#[test]
fn fuzz_config_path() {
    let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let data = tempfile::tempdir().unwrap();
    let mut seeds: Vec<Vec<u8>> = SMALL_CONFIGS
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect();
    let quick = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/quick");
    for e in std::fs::read_dir(quick).unwrap().flatten() {
        seeds.push(std::fs::read(e.path()).unwrap());
    }
    let count = AtomicUsize::new(0);
    let planned = AtomicUsize::new(0);
    runner(cases(2000))
        .run(&input(seeds, CONFIG_TOKENS), |bytes| {
            count.fetch_add(1, Ordering::Relaxed);
            let text = String::from_utf8_lossy(&bytes).into_owned();
            let cfg = ConfigFile::from_text("fuzz.toml", text.clone());
            if !cheap_to_plan(&text) {
                // Parsing alone: every kind's schema, and the shared checks.
                for kind in ["treecv", "svm_cv", "progressive"] {
                    let _ = cfg.kind(&[kind]);
                }
                let _ = cfg.parse::<cvbench::experiments::treecv::TreecvConfig>();
                let _ = cfg.parse::<cvbench::experiments::svm_cv::SvmCvConfig>();
                let _ = cfg.parse::<cvbench::experiments::progressive::kind::ProgressiveConfig>();
                return Ok(());
            }
            planned.fetch_add(1, Ordering::Relaxed);
            let ctx = Context::new(DataDir::new(data.path()));
            if let Ok(plan) = cvbench::runner::validate(&cfg, &ctx) {
                // A plan that validates has a safe folder name and cells.
                let name = plan.name();
                prop_assert!(
                    !name.is_empty() && !name.contains('/') && name != ".." && name != ".",
                    "unsafe name {name:?} passed validation"
                );
            }
            Ok(())
        })
        .unwrap();
    report("config", &count);
    println!(
        "fuzz-planned config {} (the others parsed only)",
        planned.load(Ordering::Relaxed)
    );
}

/// Bounded reads (issue 40, 6): a config file of arbitrary bytes (not UTF-8
/// included) gives a value or an error, never a panic, and allocates in
/// proportion to its size; a file at the config limit is read, one byte
/// over it is refused after reading at most the limit; devices and folders
/// are refused unread, and a model file without newlines stops at its line
/// limit.
#[test]
fn fuzz_config_file_reads_are_bounded() {
    let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.toml");
    let count = AtomicUsize::new(0);
    let seeds: Vec<Vec<u8>> = SMALL_CONFIGS
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect();
    runner(cases(300))
        .run(&input(seeds, CONFIG_TOKENS), |bytes| {
            count.fetch_add(1, Ordering::Relaxed);
            std::fs::write(&path, &bytes).unwrap();
            let r = bounded(bytes.len(), 4, || ConfigFile::read(&path))?;
            if let Ok(cfg) = r {
                prop_assert_eq!(cfg.text.as_bytes(), &bytes[..]);
                let _ = cfg.kind(&["treecv", "svm_cv", "progressive", "svm_grid"]);
            }
            Ok(())
        })
        .unwrap();
    // A sparse file of zeros at the limit and one byte over it: read into a
    // buffer that grows by doubling, so at most 4x the limit.
    let limit = cvbench_engine::data::limits::CONFIG_FILE.bytes;
    for (len, ok) in [(limit, true), (limit + 1, false)] {
        std::fs::File::create(&path)
            .unwrap()
            .set_len(len as u64)
            .unwrap();
        let r = bounded(limit, 4, || ConfigFile::read(&path).map(|_| ())).unwrap();
        assert_eq!(r.is_ok(), ok, "{len}: {r:?}");
        if let Err(e) = r {
            assert!(e.to_string().contains("larger than 16 MiB"), "{e}");
        }
    }
    for special in ["/dev/zero", "/dev/null", "/"] {
        let e = bounded(0, 1, || ConfigFile::read(Path::new(special)))
            .unwrap()
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("not a regular file") || e.contains("a folder"),
            "{e}"
        );
    }
    let model = bounded(cvbench_engine::data::limits::MODEL_LINE.bytes, 3, || {
        cvbench_engine::svm::model::file::read_model(Path::new("/dev/zero")).map(|_| ())
    })
    .unwrap();
    assert!(model.is_err());
    report("config-file-reads", &count);
}
