//! The reuse levels agree: exact ones bit for bit (rates, iterations), warm
//! started ones within one flipped held-out row per fold; any thread count
//! gives the same numbers.

use super::engine::{run_grid, GridOptions, PointResult};
use super::reuse::Reuse;
use crate::data::Dataset;
use crate::svm::cv::folds::Folds;
use crate::svm::model::params::SvmParams;

/// Two overlapping Gaussian-like blobs (deterministic, synthetic).
fn blobs(n: usize) -> Dataset {
    let mut rows = Vec::with_capacity(n);
    let mut y = Vec::with_capacity(n);
    let mut s: u64 = 12345;
    let mut next = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    };
    for i in 0..n {
        let label = if i % 3 == 0 { -1.0 } else { 1.0 };
        let shift = if label > 0.0 { 0.4 } else { -0.4 };
        rows.push(vec![next() + shift, next() - shift, next() * 0.5, 0.0]);
        y.push(label);
    }
    Dataset::from_dense_rows("synthetic-grid-blobs", &rows, y)
}

fn points() -> Vec<(f64, f64)> {
    let mut p = Vec::new();
    for g in [-3i32, -1, 1] {
        for c in [3i32, -1, 1, 5] {
            p.push((2f64.powi(c), 2f64.powi(g)));
        }
    }
    p
}

fn run(ds: &Dataset, reuse: Reuse, threads: usize) -> Vec<PointResult> {
    run_at(ds, reuse, threads, &points())
}

fn run_at(ds: &Dataset, reuse: Reuse, threads: usize, pts: &[(f64, f64)]) -> Vec<PointResult> {
    let folds = Folds::libsvm(ds, 5).unwrap();
    let base = SvmParams::rbf(1.0, 1.0);
    let pool = crate::svm::cv::pool::build(threads).unwrap();
    let mut out: Vec<Option<PointResult>> = vec![None; pts.len()];
    pool.install(|| {
        run_grid(
            ds,
            &folds,
            &base,
            pts,
            &GridOptions {
                reuse,
                memory_mb: 64.0,
                seed: 3,
                distances: None,
            },
            &mut |i, r| {
                assert!(out[i].is_none(), "point {i} reported twice");
                out[i] = Some(r);
                Ok(())
            },
        )
        .unwrap()
    });
    out.into_iter()
        .map(|r| r.expect("every point reported"))
        .collect()
}

/// Per point: correct predictions and per fold (correct, iterations, kernel evaluations).
type Key = Vec<(usize, Vec<(usize, u64, u64)>)>;

fn key(r: &[PointResult]) -> Key {
    r.iter()
        .map(|p| {
            (
                p.correct,
                p.folds
                    .iter()
                    .map(|f| (f.correct, f.iterations, f.kernel_evals))
                    .collect(),
            )
        })
        .collect()
}

#[test]
fn exact_levels_are_bit_identical_and_thread_count_free() {
    let ds = blobs(150);
    let none = run(&ds, Reuse::none(), 1);
    let iters = |r: &[PointResult]| -> Vec<Vec<(usize, u64)>> {
        r.iter()
            .map(|p| p.folds.iter().map(|f| (f.correct, f.iterations)).collect())
            .collect()
    };
    for (reuse, threads) in [
        ("threads", 2),
        ("gamma", 1),
        ("gamma+threads", 1),
        ("gamma+threads", 2),
    ] {
        let r = run(&ds, Reuse::parse(reuse).unwrap(), threads);
        assert_eq!(iters(&r), iters(&none), "{reuse} on {threads} threads");
    }
    // Same level, any thread count: every counter equal.
    for reuse in ["gamma+threads", "all", "folds+threads"] {
        let a = run(&ds, Reuse::parse(reuse).unwrap(), 1);
        let b = run(&ds, Reuse::parse(reuse).unwrap(), 3);
        assert_eq!(key(&a), key(&b), "{reuse}");
    }
}

#[test]
fn warm_started_levels_flip_at_most_one_row_per_fold() {
    let ds = blobs(150);
    let none = run(&ds, Reuse::none(), 1);
    for reuse in [
        "cpath",
        "newton",
        "cpath+newton",
        "all",
        "folds",
        "folds-sir",
    ] {
        let r = run(&ds, Reuse::parse(reuse).unwrap(), 2);
        for (a, b) in r.iter().zip(&none) {
            for (fa, fb) in a.folds.iter().zip(&b.folds) {
                assert!(
                    fa.correct.abs_diff(fb.correct) <= 1,
                    "{reuse}: C={} g={} fold {}: {} vs {}",
                    a.c,
                    a.gamma,
                    fa.fold,
                    fa.correct,
                    fb.correct
                );
            }
        }
    }
    // The C path warm starts every point but the smallest C of each gamma,
    // and saves iterations overall.
    let cp = run(&ds, Reuse::parse("gamma+cpath").unwrap(), 1);
    let warm = cp.iter().flat_map(|p| &p.folds).filter(|f| f.warm).count();
    assert_eq!(warm, 3 * 3 * 5);
    let total = |r: &[PointResult]| r.iter().map(|p| p.iterations()).sum::<u64>();
    assert!(
        total(&cp) < total(&none),
        "{} vs {}",
        total(&cp),
        total(&none)
    );
}

#[test]
fn reuse_names_round_trip_and_bad_ones_fail() {
    for s in [
        "none",
        "all",
        "gamma",
        "gamma+cpath",
        "folds+threads",
        "folds-sir",
        "cpath+threads",
        "gamma+cpath+newton",
        "newton+threads",
    ] {
        assert_eq!(Reuse::parse(s).unwrap().name(), s);
    }
    assert!(Reuse::parse("gamma+folds").is_err());
    assert!(Reuse::parse("fast").is_err());
    assert!(Reuse::parse("folds-avg").is_err());
    assert!(Reuse::parse("folds+newton").is_err());
    assert!(!Reuse::parse("newton").unwrap().exact());
    assert!(Reuse::none().exact() && Reuse::parse("gamma+threads").unwrap().exact());
    assert!(!Reuse::all().exact());
}

#[test]
fn newton_rounds_reach_the_stopping_rule_in_fewer_iterations() {
    use super::newton::train_newton;
    use crate::svm::kernel::KernelData;
    use crate::svm::model::solution::train_seeded;
    let ds = blobs(300);
    let rows: Vec<usize> = (0..ds.n()).collect();
    for (c, g) in [(2f64.powi(12), 4.0), (2f64.powi(8), 1.0), (0.5, 0.25)] {
        let params = SvmParams::rbf(c, g);
        let kd = KernelData::new(&ds, params.kernel);
        let plain = train_seeded(&kd, &rows, &params.check().unwrap(), None, None).unwrap();
        let (nw, ns) = train_newton(&kd, &rows, &params, None, None).unwrap();
        // Both end by LIBSVM's stopping rule.
        assert!(!nw.stats.hit_max_iter);
        assert!(
            nw.stats.kkt_violation <= params.eps,
            "C={c}: {}",
            nw.stats.kkt_violation
        );
        // The same optimum within the stopping tolerance.
        let (a, b) = (plain.stats.objective, nw.stats.objective);
        assert!(
            (a - b).abs() <= 1e-5 * a.abs().max(1.0),
            "C={c}: {a} vs {b}"
        );
        assert!(
            nw.stats.iterations <= plain.stats.iterations,
            "C={c}: {} vs {}",
            nw.stats.iterations,
            plain.stats.iterations
        );
        if c > 1000.0 {
            assert!(ns.steps > 0, "C={c}: no Newton step");
        }
    }
}

/// A kernel close to the identity (every off-diagonal value about 1e-15):
/// every held-out decision value is of the order of rounding, and a warm
/// start's or Newton step's labels would be rounding noise. Those folds are
/// solved again from zero ([`crate::svm::cv::rounds::is_degenerate`]), so the
/// warm-started levels give the exact level's rate at every point.
#[test]
fn degenerate_folds_of_a_near_identity_kernel_match_the_exact_level() {
    let mut s: u64 = 99;
    let mut next = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    };
    let rows: Vec<Vec<f64>> = (0..150)
        .map(|_| (0..50).map(|_| next()).collect())
        .collect();
    let y = (0..150)
        .map(|i| if i % 2 == 0 { 1.0 } else { -1.0 })
        .collect();
    let ds = Dataset::from_dense_rows("synthetic-near-identity", &rows, y);
    let pts: Vec<(f64, f64)> = (1..8).map(|c| (2f64.powi(c), 2.0)).collect();
    let none = run_at(&ds, Reuse::none(), 1, &pts);
    for reuse in ["cpath", "newton", "all"] {
        let r = run_at(&ds, Reuse::parse(reuse).unwrap(), 2, &pts);
        for (a, b) in r.iter().zip(&none) {
            let fa: Vec<usize> = a.folds.iter().map(|f| f.correct).collect();
            let fb: Vec<usize> = b.folds.iter().map(|f| f.correct).collect();
            assert_eq!(fa, fb, "{reuse}: C={}", a.c);
        }
    }
}
