//! `cvbench svm -v K -m M [--cache C] [--seeding S] --threads T FILE`'s
//! one-vs-one CV on the engine crate alone (no harness), for timing it
//! where the harness cannot be built in release (benches/multiclass_cv.sh,
//! `BIN_KIND=example`): the same calls with svm-train's defaults (C = 1,
//! gamma = 1 / the largest feature index, eps = 0.001, shrinking), LIBSVM's
//! folds, and the same `Cross Validation Accuracy` and kernel-evaluation
//! lines.
//!
//! Usage: `multiclass_cv FILE K M per_solve|shared none|SEEDING THREADS
//! [flips]`; with `flips`, a seeded run is compared with the unseeded one
//! on the same cache: held-out rows voted otherwise, per fold.

use cvbench_engine::svm::multiclass::{
    cross_validate_ovo, cross_validate_ovo_seeded, seeds, OvoCvOptions,
};
use cvbench_engine::svm::{
    CacheMode, CvStrategy, Folds, KernelKind, SeedingMethod, SolverKind, SvmParams,
};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() != 7 && !(a.len() == 8 && a[7] == "flips") {
        eprintln!("usage: multiclass_cv FILE K M per_solve|shared none|SEEDING THREADS [flips]");
        std::process::exit(2);
    }
    let ds = cvbench_engine::data::read::libsvm::read_libsvm(std::path::Path::new(&a[1]), None)
        .unwrap_or_else(|e| panic!("{}: {e}", a[1]));
    let k: usize = a[2].parse().expect("K");
    let m: f64 = a[3].parse().expect("M");
    let cache = CacheMode::parse(&a[4]).expect("cache mode");
    let seeding = SeedingMethod::parse(&a[5]).expect("seeding");
    let threads: usize = a[6].parse().expect("threads");
    let params = SvmParams {
        kernel: KernelKind::Rbf {
            gamma: 1.0 / ds.d() as f64,
        },
        c: 1.0,
        eps: 0.001,
        cache_mb: m,
        shrinking: true,
        max_iter: None,
        // SOLVER=batched: the batched working-set solver (issue 44).
        solver: std::env::var("SOLVER")
            .ok()
            .map(|s| SolverKind::parse(&s).expect("SOLVER: smo or batched"))
            .unwrap_or(SolverKind::Smo),
    };
    let folds = Folds::libsvm(&ds, k).expect("folds");
    let strategy = CvStrategy::of(seeding, cache, threads);
    let unseeded = || {
        let opts = OvoCvOptions {
            cache,
            threads,
            probability: None,
        };
        cross_validate_ovo(&ds, &folds, &params, &[], opts).unwrap_or_else(|e| panic!("{e}"))
    };
    let res = if seeds(&strategy) {
        cross_validate_ovo_seeded(&ds, &folds, &params, &[], &strategy, 1)
            .unwrap_or_else(|e| panic!("{e}"))
    } else {
        unseeded()
    };
    if a.len() == 8 {
        let base = unseeded();
        let per_fold: Vec<usize> = (0..folds.k())
            .map(|h| {
                let test = folds.test_rows(h);
                test.iter()
                    .filter(|&&r| res.predictions[r] != base.predictions[r])
                    .count()
            })
            .collect();
        println!("[flips] per fold against the unseeded run: {per_fold:?}");
    }
    println!(
        "[stats] seeding = {}, cache = {cache}, threads = {threads}, #iter = {}, kernel evals = {} (shared cache: {} evals), wall {:.3}s",
        strategy.label(),
        res.total_iterations(),
        res.kernel_evals,
        res.shared_evals,
        res.wall_s
    );
    println!("Cross Validation Accuracy = {}%", res.accuracy_pct);
}
