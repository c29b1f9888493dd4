//! Fuzz tests on stable Rust (proptest): the LibSVM, IDX and UCI readers and
//! the config path (parse, shared checks, each kind's plan) get arbitrary
//! bytes and mutated real-looking inputs, and config keys and sizes at their
//! edges (`fuzz_config_keys_and_sizes`). Each must return a value or an
//! error: never panic, abort, or ask the allocator for more than a small
//! multiple of the input's size (a counting global allocator records the
//! largest single request).
//!
//! `FUZZ_CASES` sets the cases per test (default: a few hundred, seconds in
//! debug) and `FUZZ_SEED` their seed (default fixed); `make fuzz` runs a long campaign in release and prints the count
//! of inputs tried (lines `fuzz-inputs <test> <count>`).

use cvbench::config::ConfigFile;
use cvbench::data::idx::{read_idx_images_from, read_idx_labels_from};
use cvbench::data::libsvm::read_libsvm_from;
use cvbench::data::uci::{read_dense_text_from, LabelColumn, Separator};
use cvbench::data::DataDir;
use cvbench::experiments::Context;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The global allocator, recording the largest single request and refusing
/// any above [`HARD_CAP`] (the process then aborts with "memory allocation of
/// N bytes failed": a clear failure instead of a machine swapping, since a
/// huge zeroed request can succeed lazily and be filled for hours).
struct Counting;

static MAX_REQUEST: AtomicUsize = AtomicUsize::new(0);

/// No input here needs more than this in one allocation.
const HARD_CAP: usize = 1 << 30;

// SAFETY: every method forwards to `System` unchanged, or returns null (an
// allocation failure, which callers must handle); the counter is an atomic.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        MAX_REQUEST.fetch_max(l.size(), Ordering::Relaxed);
        if l.size() > HARD_CAP {
            return std::ptr::null_mut();
        }
        System.alloc(l)
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        MAX_REQUEST.fetch_max(l.size(), Ordering::Relaxed);
        if l.size() > HARD_CAP {
            return std::ptr::null_mut();
        }
        System.alloc_zeroed(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new_size: usize) -> *mut u8 {
        MAX_REQUEST.fetch_max(new_size, Ordering::Relaxed);
        if new_size > HARD_CAP {
            return std::ptr::null_mut();
        }
        System.realloc(p, l, new_size)
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// The fuzz tests run one at a time, so that the allocation record is theirs.
static SERIAL: Mutex<()> = Mutex::new(());

fn cases(default: u32) -> u32 {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The test suite draws the same inputs on every run (seed
/// [`DEFAULT_SEED`]), so CI cannot fail by chance; `FUZZ_SEED=random` (what
/// `make fuzz` sets) or `FUZZ_SEED=<u64>` explores or replays other inputs.
fn runner(cases: u32) -> TestRunner {
    let seed = match std::env::var("FUZZ_SEED").ok().as_deref() {
        Some("random") => RngSeed::Random,
        Some(v) => RngSeed::Fixed(v.parse().expect("FUZZ_SEED is `random` or a u64")),
        None => RngSeed::Fixed(DEFAULT_SEED),
    };
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        rng_seed: seed,
        ..Config::default()
    })
}

/// The seed of the test suite's fuzz inputs.
const DEFAULT_SEED: u64 = 20_261_123;

/// Run `f` on `input` and check the largest allocation request stays
/// within `factor` times the input plus a fixed slack.
fn bounded<T>(input_len: usize, factor: usize, f: impl FnOnce() -> T) -> Result<T, TestCaseError> {
    MAX_REQUEST.store(0, Ordering::Relaxed);
    let out = f();
    let max = MAX_REQUEST.load(Ordering::Relaxed);
    let limit = factor * input_len + (1 << 20);
    prop_assert!(
        max <= limit,
        "largest allocation {max} bytes for a {input_len}-byte input (limit {limit})"
    );
    Ok(out)
}

/// A mutation of a seed input.
#[derive(Clone, Debug)]
enum Mutation {
    Flip(usize, u8),
    Insert(usize, usize),
    Delete(usize, usize),
    Truncate(usize),
    Repeat(usize, usize),
    /// Insert a token at the start of a line.
    InsertLine(usize, usize),
    /// Replace what follows a `= ` up to the end of its line with a token.
    ReplaceValue(usize, usize),
}

fn mutation(n_tokens: usize) -> impl Strategy<Value = Mutation> {
    prop_oneof![
        2 => (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Mutation::Flip(p, b)),
        2 => (any::<usize>(), 0..n_tokens).prop_map(|(p, t)| Mutation::Insert(p, t)),
        2 => (any::<usize>(), 1usize..16).prop_map(|(p, k)| Mutation::Delete(p, k)),
        1 => any::<usize>().prop_map(Mutation::Truncate),
        2 => (any::<usize>(), 1usize..64).prop_map(|(p, k)| Mutation::Repeat(p, k)),
        4 => (any::<usize>(), 0..n_tokens).prop_map(|(p, t)| Mutation::InsertLine(p, t)),
        4 => (any::<usize>(), 0..n_tokens).prop_map(|(p, t)| Mutation::ReplaceValue(p, t)),
    ]
}

fn apply(seed: &[u8], muts: &[Mutation], tokens: &[&[u8]]) -> Vec<u8> {
    let mut v = seed.to_vec();
    for m in muts {
        let at = |p: usize, v: &Vec<u8>| if v.is_empty() { 0 } else { p % (v.len() + 1) };
        match *m {
            Mutation::Flip(p, b) => {
                if !v.is_empty() {
                    let i = p % v.len();
                    v[i] = b;
                }
            }
            Mutation::Insert(p, t) => {
                let i = at(p, &v);
                v.splice(i..i, tokens[t].iter().copied());
            }
            Mutation::Delete(p, k) => {
                let i = at(p, &v);
                let j = (i + k).min(v.len());
                v.drain(i..j);
            }
            Mutation::Truncate(p) => {
                let i = at(p, &v);
                v.truncate(i);
            }
            Mutation::InsertLine(p, t) => {
                let starts: Vec<usize> = std::iter::once(0)
                    .chain(
                        v.iter()
                            .enumerate()
                            .filter(|(_, &b)| b == b'\n')
                            .map(|(i, _)| i + 1),
                    )
                    .collect();
                let i = starts[p % starts.len()];
                let mut tok = tokens[t].to_vec();
                if tok.last() != Some(&b'\n') {
                    tok.push(b'\n');
                }
                v.splice(i..i, tok);
            }
            Mutation::ReplaceValue(p, t) => {
                let eqs: Vec<usize> = v
                    .windows(2)
                    .enumerate()
                    .filter(|(_, w)| w == b"= ")
                    .map(|(i, _)| i + 2)
                    .collect();
                if !eqs.is_empty() {
                    let i = eqs[p % eqs.len()];
                    let j = v[i..]
                        .iter()
                        .position(|&b| b == b'\n')
                        .map_or(v.len(), |k| i + k);
                    v.splice(i..j, tokens[t].iter().copied());
                }
            }
            Mutation::Repeat(p, k) => {
                let i = at(p, &v);
                let j = (i + k).min(v.len());
                let chunk = v[i..j].to_vec();
                v.splice(j..j, chunk);
            }
        }
    }
    v
}

/// A seed chosen from `seeds` with up to 8 mutations, or arbitrary bytes.
fn input(seeds: Vec<Vec<u8>>, tokens: &'static [&'static [u8]]) -> impl Strategy<Value = Vec<u8>> {
    let n = seeds.len();
    prop_oneof![
        1 => proptest::collection::vec(any::<u8>(), 0..600),
        5 => (0..n, proptest::collection::vec(mutation(tokens.len()), 0..6))
            .prop_map(move |(s, m)| apply(&seeds[s], &m, tokens)),
    ]
}

static NUMBER_TOKENS: &[&[u8]] = &[
    b"4294967295",
    b"4294967296",
    b"18446744073709551615",
    b"134217729",
    b"-1",
    b"0",
    b"1e309",
    b"-1e-320",
    b"nan",
    b"inf",
    b":",
    b"::",
    b" ",
    b",",
    b"\t",
    b"\n",
    b"\r\n",
    b"#",
    b"qid:",
    b"\xff\xfe",
    b"+1 ",
];

fn report(name: &str, count: &AtomicUsize) {
    println!("fuzz-inputs {name} {}", count.load(Ordering::Relaxed));
}

#[test]
fn fuzz_libsvm_reader() {
    let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let seeds: Vec<Vec<u8>> = vec![
        b"+1 1:0.5 3:-2\n-1 2:1e-3 7:0\n".to_vec(),
        b"1 qid:3 4:1 # tail\n\n# comment\n-1 1:1\r\n".to_vec(),
        b"0.25 1:1 2:2 3:3 4:4 5:5 6:6 7:7 8:8 9:9 10:10\n".to_vec(),
        b"-1 123:1\n+1 1:1 2:1\n".to_vec(),
    ];
    let count = AtomicUsize::new(0);
    runner(cases(3000))
        .run(
            &(input(seeds, NUMBER_TOKENS), prop::option::of(0usize..300)),
            |(bytes, min)| {
                count.fetch_add(1, Ordering::Relaxed);
                let r = bounded(bytes.len(), 48, || {
                    read_libsvm_from(&bytes[..], Path::new("fuzz.svm"), min)
                })?;
                if let Ok(ds) = r {
                    // Whatever parses is a consistent dataset of bounded width.
                    prop_assert!(ds.d() <= cvbench::data::limits::MAX_FEATURES);
                    for i in 0..ds.n() {
                        let _ = ds.row(i).norm_sq();
                    }
                }
                Ok(())
            },
        )
        .unwrap();
    report("libsvm", &count);
}

fn idx_file(magic: u32, dims: &[u32], body: &[u8]) -> Vec<u8> {
    let mut v = magic.to_be_bytes().to_vec();
    for d in dims {
        v.extend_from_slice(&d.to_be_bytes());
    }
    v.extend_from_slice(body);
    v
}

static IDX_TOKENS: &[&[u8]] = &[
    b"\xff\xff\xff\xff",
    b"\x00\x00\x00\x00",
    b"\x00\x00\x08\x03",
    b"\x00\x00\x08\x01",
    b"\x00\x00\x00\x1c",
    b"\x7f\xff\xff\xff",
    b"\x00",
    b"\xff",
];

#[test]
fn fuzz_idx_reader() {
    let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let seeds = vec![
        idx_file(2051, &[2, 2, 3], &[0, 1, 2, 3, 4, 5, 255, 0, 0, 0, 0, 7]),
        idx_file(2049, &[3], &[3, 8, 1]),
        idx_file(2051, &[1, 4, 4], &[9; 16]),
        idx_file(2049, &[0], &[]),
    ];
    let count = AtomicUsize::new(0);
    runner(cases(3000))
        .run(&input(seeds, IDX_TOKENS), |bytes| {
            count.fetch_add(1, Ordering::Relaxed);
            let p = Path::new("fuzz.idx");
            if let Ok(img) = bounded(bytes.len(), 24, || read_idx_images_from(&bytes[..], p))? {
                prop_assert_eq!(img.pixels.len(), img.n * img.rows * img.cols);
            }
            if let Ok(y) = bounded(bytes.len(), 24, || read_idx_labels_from(&bytes[..], p))? {
                prop_assert!(y.len() <= bytes.len());
            }
            Ok(())
        })
        .unwrap();
    report("idx", &count);
}

#[test]
fn fuzz_uci_reader() {
    let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let seeds: Vec<Vec<u8>> = vec![
        b"1,2,3\n4, 5 ,6\r\n\n".to_vec(),
        b"2001,0.5,-1\n1999,1e3,2\n".to_vec(),
        b"1 2 3 \n4 5 6 \n".to_vec(),
        b"-1\n1\n1\n".to_vec(),
    ];
    let count = AtomicUsize::new(0);
    let layout = (
        prop_oneof![Just(Separator::Comma), Just(Separator::Whitespace)],
        prop_oneof![
            Just(LabelColumn::First),
            Just(LabelColumn::Last),
            Just(LabelColumn::None)
        ],
        prop::option::of(0usize..8),
    );
    runner(cases(3000))
        .run(
            &(input(seeds, NUMBER_TOKENS), layout),
            |(bytes, (sep, label, d))| {
                count.fetch_add(1, Ordering::Relaxed);
                let r = bounded(bytes.len(), 48, || {
                    read_dense_text_from(&bytes[..], Path::new("fuzz.csv"), sep, label, d)
                })?;
                if let Ok(ds) = r {
                    for i in 0..ds.n() {
                        let _ = ds.row(i).norm_sq();
                    }
                }
                Ok(())
            },
        )
        .unwrap();
    report("uci", &count);
}

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

/// The fuzz target for config keys and sizes.
#[path = "fuzz_inputs/config_keys.rs"]
mod config_keys;

/// The fuzz target for output paths (`export -o`, `run --out`, `report DIR`).
#[path = "fuzz_inputs/output_paths.rs"]
mod output_paths;

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
    let limit = cvbench::data::limits::CONFIG_FILE.bytes;
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
    let model = bounded(cvbench::data::limits::MODEL_LINE.bytes, 3, || {
        cvbench::svm::model_file::read_model(Path::new("/dev/zero")).map(|_| ())
    })
    .unwrap();
    assert!(model.is_err());
    report("config-file-reads", &count);
}

/// Grid ranges (issue 40, 9): arbitrary `[begin, end, step]` triples, huge
/// and tiny exponents included, through the `svm_grid` config and the
/// `-log2c` option's one check: either refused, or every point has C and
/// gamma finite and > 0 in single precision and at most 10,000 points.
#[test]
fn fuzz_grid_ranges() {
    use cvbench::svm::grid::range::{Axis, MAX_POINTS};
    let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let count = AtomicUsize::new(0);
    let exponent = prop_oneof![
        -200.0f64..200.0,
        Just(-149.0),
        Just(127.0),
        Just(128.0),
        Just(-150.0),
        Just(2000.0),
        Just(-2000.0),
        Just(1e300),
        Just(f64::MAX),
        any::<f64>(),
    ];
    let step = prop_oneof![-50.0f64..50.0, Just(0.0), Just(1e-300), any::<f64>()];
    runner(cases(1000))
        .run(&(exponent.clone(), exponent, step), |(b, e, s)| {
            count.fetch_add(1, Ordering::Relaxed);
            let text = format!("{b},{e},{s}");
            let cli = bounded(64, 1 << 12, || Axis::parse("-log2c", &text))?;
            match &cli {
                Ok(Some(axis)) => {
                    let v = axis.values().unwrap();
                    prop_assert!(v.len() <= MAX_POINTS);
                    for x in v {
                        let c = 2f64.powf(x) as f32;
                        prop_assert!(c.is_finite() && c > 0.0, "2^{x} passed");
                    }
                }
                Ok(None) => prop_assert!(false, "not null"),
                Err(err) => prop_assert!(err.to_string().contains("-log2c"), "{err}"),
            }
            // The config reads the same numbers (TOML floats) through the same check.
            let fmt = |x: f64| {
                if x.is_nan() {
                    "nan".to_string()
                } else if x.is_infinite() {
                    if x > 0.0 { "inf" } else { "-inf" }.to_string()
                } else {
                    format!("{x:?}")
                }
            };
            let toml = format!(
                "kind = \"svm_grid\"\nname = \"g\"\nseed = 1\nreuse = [\"none\"]\nlog2c = [{}, {}, {}]\n[[datasets]]\nsynthetic = {{ generator = \"linear-classification\", n = 20, d = 2 }}\n",
                fmt(b),
                fmt(e),
                fmt(s)
            );
            let cfg = ConfigFile::from_text("fuzz.toml", toml);
            let parsed: cvbench::experiments::svm_grid::config::SvmGridConfig = cfg.parse().unwrap();
            let grid = parsed.grid(&cfg);
            prop_assert_eq!(grid.is_ok(), cli.is_ok(), "{} {:?}", text, grid.err().map(|e| e.to_string()));
            if let Err(err) = grid {
                let err = err.to_string();
                prop_assert!(err.starts_with("fuzz.toml:5:") && err.contains("log2c"), "{err}");
            }
            Ok(())
        })
        .unwrap();
    report("grid-ranges", &count);
}

/// Environment values (issue 40, 10): any value of every CVBENCH_* variable
/// (negative, NaN, infinite, huge, empty, not UTF-8) is accepted within its
/// range or refused naming the variable, never a panic; an accepted
/// progress interval makes a progress display without panicking.
#[test]
fn fuzz_environment_values() {
    use cvbench::config::env;
    let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let count = AtomicUsize::new(0);
    let value = prop_oneof![
        proptest::sample::select(
            &[
                "",
                "0",
                "1",
                "-1",
                "1e20",
                "1e400",
                "NaN",
                "-nan",
                "inf",
                "-inf",
                " 5 ",
                "31536000",
                "31536001",
                "18446744073709551616",
                "0x10",
                "1_000",
                "+3",
                ".5",
            ][..]
        )
        .prop_map(|s| s.as_bytes().to_vec()),
        prop::collection::vec(any::<u8>(), 0..12),
    ];
    let var = proptest::sample::select(
        &[
            env::PROGRESS_SECS,
            env::LOCK_TIMEOUT_S,
            env::TEST_CELL_DELAY_MS,
        ][..],
    );
    runner(cases(600))
        .run(&(var, value), |(var, bytes)| {
            count.fetch_add(1, Ordering::Relaxed);
            if bytes.contains(&0) {
                return Ok(());
            }
            #[cfg(unix)]
            {
                use std::os::unix::ffi::OsStrExt;
                std::env::set_var(var, std::ffi::OsStr::from_bytes(&bytes));
            }
            #[cfg(not(unix))]
            std::env::set_var(var, String::from_utf8_lossy(&bytes).into_owned());
            let checked = env::check();
            let progress = env::progress_interval();
            let lock = env::lock_timeout();
            let delay = env::test_cell_delay();
            if let Err(e) = &checked {
                prop_assert!(e.to_string().contains(var), "{e}");
            }
            prop_assert_eq!(
                checked.is_ok(),
                progress.is_ok() && lock.is_ok() && delay.is_ok()
            );
            if let Ok(Some(d)) = progress {
                prop_assert!(d.as_secs() <= env::MAX_SECONDS);
                let p = cvbench::runner::progress::Progress::new(
                    cvbench::runner::progress::ProgressMode::Lines,
                    "fuzz",
                    0,
                );
                p.finish();
            }
            std::env::remove_var(var);
            Ok(())
        })
        .unwrap();
    report("env-values", &count);
}
