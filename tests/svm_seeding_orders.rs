//! The seeded CV's round orders: warm rounds on a degenerate kernel solved
//! again from zero, two chains each started from zero, and predictions put
//! back in the caller's row order.

use crate::common;

use common::seeding::{assert_same_optimum, blobs, run};
use cvbench_engine::api::cv::Folds;
use cvbench_engine::api::data::Dataset;
use cvbench_engine::api::params::SvmParams;
use cvbench_engine::api::strategies::SeedingMethod;
use rand::RngExt;

/// A kernel close to the identity (gamma so large that every off-diagonal
/// value is about 1e-15): every held-out decision value is of the order of
/// rounding, so a warm start's labels would be rounding noise. Every
/// warm-started round is found degenerate and solved again from zero, so
/// each order predicts exactly what the per-round baseline (LIBSVM's path)
/// predicts, and says so in `cold_resolve`; the baseline never re-solves.
#[test]
fn warm_rounds_on_a_near_identity_kernel_are_solved_again_from_zero() {
    use cvbench_engine::api::cv::run_cv;
    use cvbench_engine::api::strategies::{CacheMode, CvStrategy, RoundOrder, SeederKind};
    // Balanced classes, so that `rho` is 0 up to rounding.
    let mut rng = cvbench_engine::api::seed::rng(11);
    let rows: Vec<Vec<f64>> = (0..150)
        .map(|_| (0..50).map(|_| rng.random_range(-1.0..1.0)).collect())
        .collect();
    let y = (0..150)
        .map(|i| if i % 2 == 0 { 1.0 } else { -1.0 })
        .collect();
    let ds = Dataset::from_dense_rows("synthetic-near-identity", &rows, y);
    let p = SvmParams::rbf(10.0, 2.0);
    let folds = Folds::libsvm(&ds, 5).expect("folds");
    let strategy = |order, seeder| CvStrategy {
        order,
        seeder,
        cache: CacheMode::PerSolve,
        threads: 1,
    };
    let base = run_cv(
        &ds,
        &folds,
        &p,
        &strategy(RoundOrder::PerRound, SeederKind::Zero),
        7,
    )
    .expect("baseline");
    assert!(base.cv.rounds.iter().all(|r| !r.cold_resolve));
    for (order, seeder, warm_rounds) in [
        (RoundOrder::Chain, SeederKind::Sir, 4),
        (RoundOrder::TwoChains, SeederKind::Sir, 3),
        (RoundOrder::Tree, SeederKind::Carry, 5),
        (RoundOrder::FullModel, SeederKind::Carry, 5),
    ] {
        let got = run_cv(&ds, &folds, &p, &strategy(order, seeder), 7).expect("seeded");
        let resolved = got.cv.rounds.iter().filter(|r| r.cold_resolve).count();
        assert_eq!(resolved, warm_rounds, "{order:?}: rounds solved again");
        // A re-solved round's seconds include the discarded warm solve's.
        for r in &got.cv.rounds {
            let t = &r.stats.timings;
            assert_eq!(r.cold_resolve, r.discarded_s > 0.0, "{order:?}");
            assert!(t.init_s + t.train_s + t.predict_s >= r.discarded_s);
        }
        assert_eq!(got.cv.predictions, base.cv.predictions, "{order:?}");
        for (a, b) in got.cv.rounds.iter().zip(&base.cv.rounds) {
            assert_eq!(
                a.stats.objective, b.stats.objective,
                "{order:?} fold {}",
                a.fold
            );
            assert!(a.stats.iterations >= b.stats.iterations);
        }
    }
    // A kernel that is exactly the identity (every off-diagonal value
    // underflows to 0) with C = 1, as madelon's at the paper setting: on
    // balanced training folds every alpha ends exactly at C and every
    // gradient exactly at 0, so the arithmetic is exact on any path (any
    // CPU, any SIMD width): the warm rounds are kept, and still predict
    // exactly what the baseline predicts, in fewer iterations. (With C = 10
    // the alphas end free at 1 up to rounding, rho is rounding noise, and the
    // guard solves the rounds again, as the C = 10 cases above check.)
    let p = SvmParams::rbf(1.0, 1e4);
    let base = run_cv(
        &ds,
        &folds,
        &p,
        &strategy(RoundOrder::PerRound, SeederKind::Zero),
        7,
    )
    .expect("baseline");
    for (order, seeder) in [
        (RoundOrder::Chain, SeederKind::Sir),
        (RoundOrder::Tree, SeederKind::Carry),
    ] {
        for cache in [CacheMode::PerSolve, CacheMode::Shared] {
            let s = CvStrategy {
                cache,
                ..strategy(order, seeder)
            };
            let got = run_cv(&ds, &folds, &p, &s, 7).expect("seeded");
            assert_eq!(
                got.cv.predictions, base.cv.predictions,
                "{order:?} {cache:?}"
            );
            assert!(
                got.cv.rounds.iter().all(|r| !r.cold_resolve),
                "{order:?} {cache:?}: an exact identity is not degenerate"
            );
            assert_eq!(
                got.cv.predictions, base.cv.predictions,
                "{order:?} {cache:?}"
            );
            assert!(got.cv.total_iterations < base.cv.total_iterations);
        }
    }
}

/// Two chains: rounds `0` and `ceil(k/2)` start from `alpha = 0` (the
/// baseline's solves, iteration for iteration), every other round is seeded
/// from the round before it in its half (fewer iterations than the
/// baseline's in total), and the halves' split does not depend on threads.
#[test]
fn two_chains_start_each_half_from_zero_and_seed_the_rest() {
    use cvbench_engine::api::cv::run_cv;
    use cvbench_engine::api::strategies::{CacheMode, CvStrategy, RoundOrder, SeederKind};
    let ds = blobs(120, 4, 5, 0.6);
    let p = SvmParams::rbf(2.0, 0.5);
    let folds = Folds::stratified(&ds, 7, 3).expect("folds");
    let base = run(&ds, &folds, &p, SeedingMethod::None, false);
    for threads in [1, 2] {
        let s = CvStrategy {
            order: RoundOrder::TwoChains,
            seeder: SeederKind::Sir,
            cache: CacheMode::PerSolve,
            threads,
        };
        let got = run_cv(&ds, &folds, &p, &s, 7).expect("two chains");
        assert_same_optimum(&base, &got, "two_chains");
        let seeded: Vec<usize> = got
            .cv
            .rounds
            .iter()
            .filter(|r| r.seed_s > 0.0)
            .map(|r| r.fold)
            .collect();
        assert_eq!(seeded, [1, 2, 3, 5, 6], "threads {threads}");
        for h in [0, 4] {
            assert_eq!(
                got.cv.rounds[h].stats.iterations, base.cv.rounds[h].stats.iterations,
                "round {h} is a solve from zero"
            );
        }
        assert!(got.cv.total_iterations < base.cv.total_iterations);
        assert!(got.parallel == (threads > 1));
    }
}

/// Every method's prediction of a row is that of the row's own round, put
/// back in the caller's row order (the run works on the rows in fold order):
/// the unseeded run's predictions equal training each round by hand on its
/// rows and predicting its held-out rows with LIBSVM's prediction kernel.
#[test]
fn predictions_come_back_in_the_callers_row_order() {
    use cvbench_engine::api::cv::run_cv;
    use cvbench_engine::api::strategies::{CacheMode, CvStrategy, RoundOrder, SeederKind};
    use cvbench_engine::api::training::train;
    let ds = blobs(120, 6, 4, 0.4);
    let p = SvmParams::rbf(1.0, 0.3);
    let folds = Folds::libsvm(&ds, 5).expect("folds");
    assert!(
        folds.folds.concat() != (0..ds.n()).collect::<Vec<_>>(),
        "LIBSVM's folds are shuffled"
    );
    let mut expected = vec![f64::NAN; ds.n()];
    for h in 0..folds.k() {
        let out = train(&ds, &folds.train_rows(h), &p, None).expect("train");
        for &r in folds.test_rows(h) {
            expected[r] = out.model.predict(ds.row(r));
        }
    }
    for cache in [CacheMode::PerSolve, CacheMode::Shared] {
        let s = CvStrategy {
            order: RoundOrder::PerRound,
            seeder: SeederKind::Zero,
            cache,
            threads: 2,
        };
        let got = run_cv(&ds, &folds, &p, &s, 7).expect("cv");
        assert_eq!(got.cv.predictions, expected, "{cache:?}");
    }
}
