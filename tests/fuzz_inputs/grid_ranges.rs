//! Grid ranges through the `svm_grid` config and `cvbench grid`'s
//! `-log2c` option.

use super::{bounded, cases, report, runner, SERIAL};
use cvbench::config::ConfigFile;
use proptest::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Grid ranges (issue 40, 9): arbitrary `[begin, end, step]` triples, huge
/// and tiny exponents included, through the `svm_grid` config and the
/// `-log2c` option's one check: either refused, or every point has C and
/// gamma finite and > 0 in single precision and at most 10,000 points.
#[test]
fn fuzz_grid_ranges() {
    use cvbench_engine::api::grid_search::{Axis, MAX_POINTS};
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
