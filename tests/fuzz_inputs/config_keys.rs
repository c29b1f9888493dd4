//! Config keys and sizes at their edges (issue 21): duplicate and colliding
//! labels, list entries given twice, every numeric field at 0, 1, its
//! documented limit and the limit + 1.

use super::{cases, report, runner, runner_part, SERIAL};
use cvbench::config::ConfigFile;
use cvbench::experiments::Context;
use cvbench_engine::api::data::DataDir;
use proptest::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A value of a numeric config field: 0, 1, its documented limit, the limit
/// + 1, or (for a list entry) a value in range.
fn edge(limit: u64) -> impl Strategy<Value = u64> {
    prop_oneof![Just(0), Just(1), Just(limit), Just(limit + 1)]
}

/// Labels that collide when joined with `|` (`x|s` + `b` against `x` + `s|b`)
/// or hold the escape character.
const LABELS: &[&str] = &["x", "x|s", "s|b", "b", "s", "a\\\\|b", "a\\\\"];

fn validate_text(text: &str) -> Result<Vec<String>, String> {
    let data = std::env::temp_dir();
    let cfg = ConfigFile::from_text("fuzz.toml", text.to_string());
    let ctx = Context::new(DataDir::new(&data));
    cvbench::runner::validate(&cfg, &ctx)
        .map(|p| p.cells().iter().map(|c| c.key.clone()).collect())
        .map_err(|e| e.to_string())
}

fn distinct(keys: &[String]) -> bool {
    let set: std::collections::HashSet<&String> = keys.iter().collect();
    set.len() == keys.len()
}

/// Config keys and sizes: duplicate and colliding labels, list entries given
/// twice, and every numeric field at 0, 1, its documented limit and the
/// limit + 1. A config validates exactly when its entries are distinct and
/// its sizes within their limits; then its cell keys are distinct; an error
/// names the file, line and column.
#[test]
fn fuzz_config_keys_and_sizes() {
    let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let count = AtomicUsize::new(0);
    let label = || proptest::sample::select(LABELS);
    // svm_cv: two datasets, two settings, two k, two methods.
    let svm = (
        (label(), label(), label(), label()),
        (0u64..=41, 0u64..=41),
        proptest::sample::select(&["ours", "ours_shared_parallel"][..]),
        proptest::sample::select(&["ours", "ours_shared_parallel"][..]),
    );
    runner(cases(120))
        .run(&svm, |((d1, d2, s1, s2), (k1, k2), m1, m2)| {
            count.fetch_add(1, Ordering::Relaxed);
            let text = format!(
                "kind = \"svm_cv\"\nname = \"s\"\nseed = 1\nk = [{k1}, {k2}]\nmethods = [\"{m1}\", \"{m2}\"]\n\
                 [[datasets]]\nsynthetic = {{ generator = \"linear-classification\", n = 40, d = 3 }}\nlabel = \"{d1}\"\n\
                 [[datasets]]\nsynthetic = {{ generator = \"linear-classification\", n = 40, d = 3, seed = 2 }}\nlabel = \"{d2}\"\n\
                 [[settings]]\nlabel = \"{s1}\"\nc = 1\n[[settings]]\nlabel = \"{s2}\"\nc = 2\n"
            );
            let ok = d1 != d2 && s1 != s2 && k1 != k2 && m1 != m2 && [k1, k2].iter().all(|k| (2..=40).contains(k));
            match validate_text(&text) {
                Ok(keys) => {
                    prop_assert!(ok, "validated: {text}");
                    prop_assert_eq!(keys.len(), 16);
                    prop_assert!(distinct(&keys), "colliding keys {keys:?}");
                }
                Err(e) => {
                    prop_assert!(!ok, "refused a valid config: {e}\n{text}");
                    prop_assert!(e.starts_with("fuzz.toml:"), "{e}");
                }
            }
            Ok(())
        })
        .unwrap();
    // treecv: repetitions (config and block) at the edges, duplicate entries.
    let treecv = (
        (
            edge(100_000),
            prop_oneof![Just(None), edge(100_000).prop_map(Some)],
        ),
        (label(), label()),
        (0u64..=41, 0u64..=41),
        proptest::sample::select(&["standard", "treecv"][..]),
        proptest::sample::select(&["standard", "treecv"][..]),
    );
    // Its large plans take most of this test's time: two runners share its
    // cases, each on a thread (the lock above keeps the other fuzz tests
    // off, whose allocation records these plans would spoil).
    let treecv_part = |part: u64| {
        runner_part(cases(120).div_ceil(2), part)
        .run(&treecv, |((reps, block), (l1, l2), (k1, k2), m1, m2)| {
            count.fetch_add(1, Ordering::Relaxed);
            // Only one dataset, k and method with large repetitions (a plan
            // of 100,000 cells per grid point is legal but slow to list here).
            let big = reps > 1 && block.is_none() || block.is_some_and(|b| b > 1);
            let (ks, ms, second) = if big {
                (format!("[{k1}]"), format!("[\"{m1}\"]"), String::new())
            } else {
                (
                    format!("[{k1}, {k2}]"),
                    format!("[\"{m1}\", \"{m2}\"]"),
                    format!("[[datasets]]\nsynthetic = {{ generator = \"linear-classification\", n = 40, d = 3, seed = 2 }}\nlabel = \"{l2}\"\n"),
                )
            };
            let block_line = block.map_or(String::new(), |b| format!("repetitions = {b}\n"));
            let text = format!(
                "kind = \"treecv\"\nname = \"t\"\nseed = 1\nrepetitions = {reps}\n\
                 [[datasets]]\nsynthetic = {{ generator = \"linear-classification\", n = 40, d = 3 }}\nlabel = \"{l1}\"\n\
                 {second}[[learners]]\ntype = \"pegasos\"\n[[grid]]\nmethods = {ms}\norders = [\"fixed\"]\nk = {ks}\n{block_line}"
            );
            let in_range = |r: u64| (1..=100_000).contains(&r);
            let ok = (big || l1 != l2)
                && in_range(reps)
                && block.is_none_or(in_range)
                && (2..=40).contains(&k1)
                && (big || ((2..=40).contains(&k2) && k1 != k2 && m1 != m2));
            match validate_text(&text) {
                Ok(keys) => {
                    prop_assert!(ok, "validated: {text}");
                    prop_assert!(distinct(&keys), "colliding keys");
                }
                Err(e) => {
                    prop_assert!(!ok, "refused a valid config: {e}\n{text}");
                    prop_assert!(e.starts_with("fuzz.toml:"), "{e}");
                }
            }
            Ok(())
        })
        .unwrap()
    };
    std::thread::scope(|s| {
        let other = s.spawn(|| treecv_part(1));
        treecv_part(0);
        other.join().unwrap();
    });
    // progressive: every size of a theorems block, the BKL table and a
    // stream block at the edges (the stream's data is missing, so a stream
    // within its limits fails on its data, after its sizes were checked).
    let progressive = (
        (edge(100_000), edge(1_000_000)),
        (edge(1_000_000), edge(100_000), edge(1_000_000)),
        (edge(100_000), edge(10_000), edge(100_000)),
    );
    runner(cases(120))
        .run(&progressive, |((t_reps, kf_n), (nf, tab_reps, fresh), (s_reps, checkpoints, members))| {
            count.fetch_add(1, Ordering::Relaxed);
            let text = format!(
                "kind = \"progressive\"\nname = \"p\"\nseed = 1\n\
                 [bkl]\nn_features = {nf}\ntable = {{ repetitions = {tab_reps}, fresh_examples = {fresh} }}\n\
                 [[theorems]]\npopulation = {{ synthetic = {{ n_features = 5 }} }}\nrepetitions = {t_reps}\nkfold = [{{ n = {kf_n}, k = 2 }}]\n\
                 [[stream]]\ntrain = \"no-such-dataset\"\ntest_fraction = 0.5\nlearners = [{{ type = \"pegasos\" }}]\n\
                 repetitions = {s_reps}\ncheckpoints = {checkpoints}\nmembers = {members}\n"
            );
            let r = |v: u64, lo: u64, hi: u64| (lo..=hi).contains(&v);
            let sizes_ok = r(t_reps, 1, 100_000)
                && r(kf_n, 2, 1_000_000)
                && kf_n % 2 == 0
                && r(nf, 1, 1_000_000)
                && r(tab_reps, 1, 100_000)
                && fresh <= 1_000_000;
            let stream_ok =
                r(s_reps, 1, 100_000) && r(checkpoints, 1, 10_000) && r(members, 1, 100_000);
            match validate_text(&text) {
                Ok(_) => prop_assert!(false, "validated without its stream data: {text}"),
                Err(e) => {
                    prop_assert!(e.starts_with("fuzz.toml:"), "{e}");
                    // The missing data is reported only once every size passed.
                    let about_data = e.contains("no-such-dataset");
                    prop_assert_eq!(about_data, sizes_ok && stream_ok, "{}\n{}", e, text);
                }
            }
            Ok(())
        })
        .unwrap();
    report("config-keys-sizes", &count);
}
