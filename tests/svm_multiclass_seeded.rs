//! Alpha seeding per class pair on multi-class data (issue 41): every
//! round order and seeder of the binary seeded CV runs on each class
//! pair's folds, and every (fold, pair) solve reaches the unseeded
//! one-vs-one run's optimum (objective within 1e-3 relative), with at most
//! one held-out row flipped per fold against the unseeded run's votes; the
//! numbers do not depend on the thread count. `cvbench svm` takes
//! `--seeding` on more than two classes and refuses it with class weights,
//! `-b 1`, or a training fold that lacks a class (exit 2, one line).

use crate::common;

use std::path::Path;

use common::svm::{blobs, blobs_file, records, run_config, svm};
use common::text;
use cvbench_engine::api::cv::{
    cross_validate_ovo, cross_validate_ovo_seeded, Folds, OvoCvOptions, OvoCvResult,
};
use cvbench_engine::api::data::Dataset;
use cvbench_engine::api::params::SvmParams;
use cvbench_engine::api::strategies::{CacheMode, CvStrategy, SeedingMethod};

/// The seeded methods that run k-fold (AVG and TOP are leave-one-out only).
const METHODS: [SeedingMethod; 5] = [
    SeedingMethod::Sir,
    SeedingMethod::Ato,
    SeedingMethod::Mir,
    SeedingMethod::Tree,
    SeedingMethod::SirTwoChains,
];

fn unseeded(ds: &Dataset, folds: &Folds, params: &SvmParams) -> OvoCvResult {
    let opts = OvoCvOptions {
        cache: CacheMode::PerSolve,
        threads: 1,
        probability: None,
    };
    cross_validate_ovo(ds, folds, params, &[], opts).unwrap()
}

fn seeded(
    ds: &Dataset,
    folds: &Folds,
    params: &SvmParams,
    (m, cache, threads): (SeedingMethod, CacheMode, usize),
) -> OvoCvResult {
    let strategy = CvStrategy::of(m, cache, threads);
    cross_validate_ovo_seeded(ds, folds, params, &[], &strategy, 1)
        .unwrap_or_else(|e| panic!("{m:?} {cache:?} {threads}: {e}"))
}

/// Every (fold, pair) objective of `r` within 1e-3 relative of `base`'s and
/// at most one held-out row per fold voted otherwise; returns the flips.
fn same_optimum(base: &OvoCvResult, r: &OvoCvResult, folds: &Folds, what: &str) -> usize {
    assert_eq!(r.folds.len(), base.folds.len(), "{what}");
    for (h, (a, b)) in base.folds.iter().zip(&r.folds).enumerate() {
        assert_eq!(a.labels, b.labels, "{what}: fold {h}'s classes");
        assert_eq!(a.pairs.len(), b.pairs.len(), "{what}: fold {h}'s pairs");
        for (p, q) in a.pairs.iter().zip(&b.pairs) {
            assert_eq!(p.classes, q.classes, "{what}");
            let (x, y) = (p.stats.objective, q.stats.objective);
            assert!(
                (x - y).abs() <= 1e-3 * x.abs().max(1.0),
                "{what}: fold {h}, pair {:?}: objective {y} against the unseeded {x}",
                p.classes
            );
        }
    }
    let mut flips = 0;
    for h in 0..folds.k() {
        let f = folds
            .test_rows(h)
            .iter()
            .filter(|&&i| r.predictions[i] != base.predictions[i])
            .count();
        assert!(f <= 1, "{what}: fold {h}: {f} held-out rows flipped");
        flips += f;
    }
    flips
}

#[test]
fn every_seeded_order_reaches_the_unseeded_optimum_per_pair() {
    let ds = blobs();
    let folds = Folds::libsvm(&ds, 5).unwrap();
    let params = SvmParams::rbf(4.0, 0.5);
    let base = unseeded(&ds, &folds, &params);
    assert_eq!(base.folds[0].labels.len(), 5);
    for m in METHODS {
        for cache in [CacheMode::PerSolve, CacheMode::Shared] {
            let r = seeded(&ds, &folds, &params, (m, cache, 2));
            let flips = same_optimum(&base, &r, &folds, &format!("{m:?} {cache:?}"));
            assert!(
                (r.accuracy_pct - base.accuracy_pct).abs() <= 100.0 * flips as f64 / 150.0,
                "{m:?}: accuracy {} against {}",
                r.accuracy_pct,
                base.accuracy_pct
            );
            if m == SeedingMethod::Tree {
                assert!(
                    !r.extra.is_empty(),
                    "the tree's inner nodes are extra solves"
                );
            }
        }
    }
}

#[test]
fn threads_change_no_number_of_a_seeded_multiclass_cv() {
    let ds = blobs();
    let folds = Folds::libsvm(&ds, 10).unwrap();
    let params = SvmParams::rbf(2.0, 1.0);
    let numbers = |r: &OvoCvResult| {
        let pairs: Vec<(u64, u64, u64, u64)> = r
            .folds
            .iter()
            .flat_map(|f| &f.pairs)
            .map(|p| {
                let coef: u64 = p.coef.iter().map(|c| c.to_bits() % 1_000_003).sum();
                (
                    p.stats.iterations,
                    p.stats.objective.to_bits(),
                    p.stats.rho.to_bits(),
                    coef,
                )
            })
            .collect();
        let pred: Vec<u64> = r.predictions.iter().map(|p| p.to_bits()).collect();
        (pairs, pred, r.total_iterations(), r.correct)
    };
    for m in METHODS {
        for cache in [CacheMode::PerSolve, CacheMode::Shared] {
            let one = seeded(&ds, &folds, &params, (m, cache, 1));
            for threads in [2, 3] {
                let r = seeded(&ds, &folds, &params, (m, cache, threads));
                assert_eq!(
                    numbers(&r),
                    numbers(&one),
                    "{m:?} {cache:?}: {threads} threads against 1"
                );
            }
        }
    }
}

#[test]
fn a_fold_without_a_class_and_class_weights_are_refused() {
    // Class 9 has one row: the fold that holds it trains without it.
    let mut ds = blobs();
    ds.y[7] = 9.0;
    let folds = Folds::libsvm(&ds, 5).unwrap();
    let params = SvmParams::rbf(1.0, 1.0);
    let strategy = CvStrategy::of(SeedingMethod::Sir, CacheMode::Shared, 1);
    let err = cross_validate_ovo_seeded(&ds, &folds, &params, &[], &strategy, 1)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("no row of class 9") && err.contains("without seeding"),
        "{err}"
    );
    let ds = blobs();
    let w = [cvbench_engine::api::params::ClassWeight {
        label: 2,
        weight: 2.0,
    }];
    let err = cross_validate_ovo_seeded(&ds, &folds, &params, &w, &strategy, 1)
        .unwrap_err()
        .to_string();
    assert!(err.contains("class weights"), "{err}");
}

#[test]
fn cvbench_svm_seeds_per_pair_and_refuses_what_it_cannot_seed() {
    let dir = tempfile::tempdir().unwrap();
    blobs_file(dir.path());
    let plain = svm(&["-v", "5", "-q", "blobs5.txt"], dir.path());
    assert_eq!(plain.status.code(), Some(0), "{}", text(&plain.stderr));
    for m in ["sir", "tree"] {
        let out = svm(
            &[
                "-v",
                "5",
                "--seeding",
                m,
                "--cache",
                "shared",
                "--stats",
                "blobs5.txt",
            ],
            dir.path(),
        );
        assert_eq!(out.status.code(), Some(0), "{m}: {}", text(&out.stderr));
        let so = text(&out.stdout);
        assert!(so.contains("Total #iter = "), "{so}");
        assert!(
            so.contains(&format!("Seeding = {m} per class pair")),
            "{so}"
        );
        assert!(so.contains("kernel evals = "), "{so}");
        assert!(
            so.trim_end()
                .ends_with(text(&plain.stdout).trim_end().lines().last().unwrap()),
            "{m}: the accuracy line of the unseeded run: {so}"
        );
    }
    for (args, want) in [
        (
            &["-v", "5", "--seeding", "sir", "-w2", "3", "blobs5.txt"][..],
            "-wi with alpha seeding",
        ),
        (
            &["-v", "5", "--seeder", "sir", "-b", "1", "blobs5.txt"],
            "-b 1 with alpha seeding",
        ),
    ] {
        let out = svm(args, dir.path());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains(want), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: one line: {err}");
    }
}

#[test]
fn vowel_seeded_per_pair_is_exact() {
    let Some(src) = common::data_source("vowel.scale") else {
        return;
    };
    let bytes = cvbench_engine::api::files::read_all(&src).unwrap();
    let ds =
        cvbench_engine::api::data::read_libsvm_from(&bytes[..], Path::new("vowel"), None).unwrap();
    let folds = Folds::libsvm(&ds, 10).unwrap();
    let params = SvmParams::rbf(1.0, 1.0 / ds.d() as f64);
    let base = unseeded(&ds, &folds, &params);
    for m in [SeedingMethod::Sir, SeedingMethod::Tree] {
        let r = seeded(&ds, &folds, &params, (m, CacheMode::Shared, 2));
        let flips = same_optimum(&base, &r, &folds, &format!("vowel {m:?}"));
        println!(
            "vowel {m:?}: {} iterations against {}, {} kernel evaluations against {}, {flips} flipped",
            r.total_iterations(),
            base.total_iterations(),
            r.kernel_evals,
            base.kernel_evals
        );
    }
}

#[test]
fn svm_cv_kind_runs_seeded_methods_per_class_pair() {
    let dir = tempfile::tempdir().unwrap();
    blobs_file(dir.path());
    let cfg = r#"kind = "svm_cv"
name = "s"
seed = 3
k = [5]
methods = ["ours", "sir", "tree"]

[[datasets]]
path = "blobs5.txt"
format = "libsvm"

[[settings]]
label = "rbf"
c = 4
gamma = 0.5
"#;
    let o = run_config(dir.path(), cfg);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let recs = records(dir.path(), "s");
    let rounds = |m: &str| -> Vec<_> {
        recs.iter()
            .filter(|r| r["method"] == m && r["fold"].parse::<i64>().unwrap() >= 0)
            .collect()
    };
    let base = rounds("ours");
    assert_eq!(base.len(), 5);
    for m in ["sir", "tree"] {
        let rr = rounds(m);
        assert_eq!(rr.len(), 5, "{m}");
        for (a, b) in base.iter().zip(&rr) {
            // Ten pairs' iterations per fold, summed in `iterations`.
            let pairs: Vec<u64> = b["pair_iterations"]
                .split(' ')
                .map(|v| v.parse().unwrap())
                .collect();
            assert_eq!(pairs.len(), 10, "{m}");
            assert_eq!(pairs.iter().sum::<u64>().to_string(), b["iterations"]);
            let (x, y): (f64, f64) = (
                a["objective"].parse().unwrap(),
                b["objective"].parse().unwrap(),
            );
            assert!((x - y).abs() <= 1e-3 * x.abs().max(1.0), "{m}: {x} {y}");
        }
    }
    let extra = recs
        .iter()
        .filter(|r| r["method"] == "tree" && r["fold"] == "-2")
        .count();
    assert!(
        extra > 0,
        "the tree's inner nodes per pair are rows of fold -2"
    );
}

#[test]
fn more_than_two_classes_share_one_kernel_cache_by_default() {
    let dir = tempfile::tempdir().unwrap();
    blobs_file(dir.path());
    let run = |extra: &[&str]| {
        let mut args = vec!["-v", "5", "--stats"];
        args.extend_from_slice(extra);
        args.push("blobs5.txt");
        let out = svm(&args, dir.path());
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let default = run(&[]);
    assert!(default.contains("cache = shared"), "{default}");
    let per_solve = run(&["--cache", "per_solve"]);
    assert!(per_solve.contains("cache = per_solve"), "{per_solve}");
    // The same numbers: every line but the counters.
    let numbers = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| !l.starts_with("[stats]"))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(numbers(&default), numbers(&per_solve));
}
