//! Tests of the BKL reproduction: closed form against sampling, progressive
//! validation against the hold-out, meta-hypotheses' true errors.

use rand::RngExt;

use super::exact::{expected_true_error, true_error_of_survivors};
use super::generator::{BklProblem, FreshSet};
use super::paper::{run_bkl, run_rep, summarize, BklRun, Procedure, TieKind};
use cvbench_engine::api::data::Dataset;
use cvbench_engine::api::learners::{
    contiguous_folds, hold_out, kfold_hypothesis, meta_loss, progressive, progressive_with_truth,
    Eliminator, EliminatorModel, IncrementalLearner, TieRule,
};
use cvbench_engine::api::seed;

/// Train the eliminator (through the `Dataset` path) on `m` fresh examples.
fn trained(problem: &BklProblem, m: usize, s: u64) -> (usize, EliminatorModel) {
    let mut rng = seed::rng(s);
    let target = problem.draw_target(&mut rng);
    let sample = problem.draw(target, m, &mut rng).unwrap();
    let data = sample.to_dataset();
    let l = Eliminator::new(TieRule::Half);
    let mut model = l.init(&data);
    let all: Vec<usize> = (0..m).collect();
    l.update(&mut model, &data, &all);
    (target, model)
}

#[test]
fn closed_form_matches_a_million_fresh_examples() {
    let problem = BklProblem::new(1000).unwrap();
    let mut checked = 0;
    for (m, s) in [(4usize, 11u64), (6, 12), (8, 13)] {
        let (target, model) = trained(&problem, m, s);
        let c = model.n_alive();
        assert!(model.is_alive(target));
        let mut rng = seed::rng(seed::derive(s, "fresh"));
        let fresh = FreshSet::draw(model.alive_features(), target, 1_000_000, &mut rng).unwrap();
        let sampled = fresh.error(&model, &TieRule::Half, &mut rng).unwrap();
        let exact = true_error_of_survivors(c);
        // Standard error <= 0.5 / 1000; allow 5 of them.
        assert!(
            (sampled - exact).abs() < 2.5e-3,
            "m = {m}, c = {c}: sampled {sampled} vs exact {exact}"
        );
        // The random tie rule has the same true error.
        let sampled_r = fresh
            .error(&model, &TieRule::Random { seed: 1 }, &mut rng)
            .unwrap();
        assert!((sampled_r - exact).abs() < 2.5e-3, "random ties, c = {c}");
        checked += usize::from(c > 1);
    }
    assert!(
        checked >= 2,
        "the check must cover non-trivial survivor counts"
    );
}

#[test]
fn restricted_fresh_set_matches_full_width_examples() {
    // Full-width fresh examples (all 1000 columns) against the closed form.
    let problem = BklProblem::new(1000).unwrap();
    let (target, model) = trained(&problem, 5, 99);
    let mut rng = seed::rng(5);
    let all: Vec<usize> = (0..1000).collect();
    let fresh = FreshSet::draw(all, target, 100_000, &mut rng).unwrap();
    let sampled = fresh.error(&model, &TieRule::Half, &mut rng).unwrap();
    let exact = true_error_of_survivors(model.n_alive());
    assert!((sampled - exact).abs() < 8e-3, "{sampled} vs {exact}");
}

#[test]
fn expected_true_error_matches_simulation() {
    // Compact simulation of c after m examples, 4000 repetitions.
    let problem = BklProblem::new(1000).unwrap();
    for m in [3usize, 7, 10] {
        let mut rng = seed::rng(seed::derive(7, &format!("m={m}")));
        let reps = 4000;
        let errs: Vec<f64> = (0..reps)
            .map(|_| {
                let t = problem.draw_target(&mut rng);
                let sample = problem.draw(t, m, &mut rng).unwrap();
                let mut model = EliminatorModel::all_alive(1000);
                for i in 0..m {
                    model.absorb_bits(sample.row(i), sample.label(i));
                }
                true_error_of_survivors(model.n_alive())
            })
            .collect();
        let s = super::stats::Summary::of(&errs);
        let expect = expected_true_error(1000, m);
        assert!(
            (s.mean - expect).abs() < 5.0 * s.se + 1e-9,
            "m = {m}: simulated {} ± {} vs exact {expect}",
            s.mean,
            s.se
        );
    }
}

#[test]
fn progressive_with_one_point_is_the_hold_out() {
    let problem = BklProblem::new(1000).unwrap();
    for r in 0..20u64 {
        let mut rng = seed::rng(seed::derive(3, &format!("rep={r}")));
        let t = problem.draw_target(&mut rng);
        let data = problem.draw(t, 7, &mut rng).unwrap().to_dataset();
        let l = Eliminator::new(TieRule::Random { seed: r });
        let train: Vec<usize> = (0..6).collect();
        let ho = hold_out(&l, &data, &train, &[6]).unwrap();
        let (pv, truths) = progressive_with_truth(&l, &data, &train, &[6], 0, |m| {
            true_error_of_survivors(m.n_alive())
        })
        .unwrap();
        assert_eq!(pv.estimate, ho.estimate);
        assert_eq!(pv.losses, ho.losses);
        assert_eq!(truths, vec![true_error_of_survivors(ho.model.n_alive())]);
    }
}

#[test]
fn delay_of_s_minus_one_is_the_hold_out_and_zero_delay_trains_on_earlier_points() {
    let problem = BklProblem::new(200).unwrap();
    let mut rng = seed::rng(17);
    let t = problem.draw_target(&mut rng);
    let data = problem.draw(t, 12, &mut rng).unwrap().to_dataset();
    let l = Eliminator::new(TieRule::Half);
    let train = [0, 1];
    let test: Vec<usize> = (2..12).collect();
    let ho = hold_out(&l, &data, &train, &test).unwrap();
    let pv = progressive(&l, &data, &train, &test, 9, |_, m| assert_eq!(m, &ho.model)).unwrap();
    assert_eq!(pv.losses, ho.losses);
    // Delay 0: hypothesis i has seen 2 + i examples; delay 3: 2 + max(0, i - 3).
    for delay in [0usize, 3] {
        progressive(&l, &data, &train, &test, delay, |i, m| {
            assert_eq!(m.seen() as usize, 2 + i.saturating_sub(delay));
        })
        .unwrap();
    }
    // The final model has seen everything.
    let mut full = l.init(&data);
    l.update(&mut full, &data, &(0..12).collect::<Vec<_>>());
    assert_eq!(pv.final_model, full);
}

/// All `2^d` points of `{0,1}^d`, labelled by feature `target`.
fn all_points(d: usize, target: usize) -> Dataset {
    let rows: Vec<Vec<f64>> = (0..1u32 << d)
        .map(|x| (0..d).map(|j| f64::from(x >> j & 1)).collect())
        .collect();
    let y = rows
        .iter()
        .map(|r| if r[target] > 0.5 { 1.0 } else { -1.0 })
        .collect();
    Dataset::from_dense_rows("synthetic-cube", &rows, y)
}

/// A BKL sample of 6 points with `d` features drawn from seed `s`, every
/// point of `{0,1}^d` labelled by the same target (the distribution, exactly),
/// the eliminator with ties scored 1/2, and the generator for further draws.
fn sample_and_cube(d: usize, s: u64) -> (Dataset, Dataset, Eliminator, rand_pcg::Pcg64Mcg) {
    let problem = BklProblem::new(d).unwrap();
    let mut rng = seed::rng(s);
    let t = problem.draw_target(&mut rng);
    let data = problem.draw(t, 6, &mut rng).unwrap().to_dataset();
    (data, all_points(d, t), Eliminator::new(TieRule::Half), rng)
}

/// The exact true error of the averaged (L1) meta-hypothesis of `models`:
/// its mean loss over every point of the cube.
fn averaged_true_error(l: &Eliminator, models: &[EliminatorModel], cube: &Dataset) -> f64 {
    (0..cube.n())
        .map(|i| meta_loss(l, models, cube, i, None))
        .sum::<f64>()
        / cube.n() as f64
}

#[test]
fn kfold_hypothesis_true_error_is_the_mean_of_the_folds() {
    // N = 12: the true error is an exact average over all 4096 points.
    let (data, cube, l, mut rng) = sample_and_cube(12, 2024);
    let order: Vec<usize> = (0..6).collect();
    let folds = contiguous_folds(&order, 3).unwrap();
    let mut models = Vec::new();
    let kf = kfold_hypothesis(&l, &data, &folds, None, |_, m| models.push(m.clone())).unwrap();
    assert_eq!(models.len(), 3);
    // Fold estimates are the fold hypotheses' losses on their folds.
    for (i, f) in folds.iter().enumerate() {
        assert_eq!(kf.fold_estimates[i], l.mean_loss(&models[i], &data, f));
    }
    let mean_closed: f64 = models
        .iter()
        .map(|m| true_error_of_survivors(m.n_alive()))
        .sum::<f64>()
        / 3.0;
    // Exact true error of the averaged (L1) meta-hypothesis.
    let averaged = averaged_true_error(&l, &models, &cube);
    let all: Vec<usize> = (0..cube.n()).collect();
    assert!(
        (averaged - mean_closed).abs() < 1e-12,
        "{averaged} vs {mean_closed}"
    );
    // Each member's exact error is the closed form too.
    for m in &models {
        let e = l.mean_loss(m, &cube, &all);
        assert!((e - true_error_of_survivors(m.n_alive())).abs() < 1e-12);
    }
    // The randomized meta-hypothesis (one random pick per query), sampled.
    let draws = 200_000;
    let mut hits = 0.0;
    for _ in 0..draws {
        let i = rng.random_range(0..cube.n());
        let j = rng.random_range(0..models.len());
        hits += meta_loss(&l, &models, &cube, i, Some(j));
    }
    let sampled = hits / draws as f64;
    assert!(
        (sampled - mean_closed).abs() < 5e-3,
        "{sampled} vs {mean_closed}"
    );
}

#[test]
fn progressive_hypothesis_true_error_is_the_mean_of_its_members() {
    let (data, cube, l, _) = sample_and_cube(10, 77);
    let mut models = Vec::new();
    let (_, truths) = progressive_with_truth(&l, &data, &[0], &[1, 2, 3, 4, 5], 0, |m| {
        models.push(m.clone());
        true_error_of_survivors(m.n_alive())
    })
    .unwrap();
    let averaged = averaged_true_error(&l, &models, &cube);
    let mean: f64 = truths.iter().sum::<f64>() / truths.len() as f64;
    assert!((averaged - mean).abs() < 1e-12);
}

#[test]
fn runs_are_paired_repeatable_and_tie_rules_share_models() {
    let base = BklRun {
        n_features: 1000,
        n_train: 5,
        s: 10,
        procedure: Procedure::HoldOut,
        delay: 0,
        fresh: 2000,
        reps: 8,
        seed: 42,
    };
    let pv = BklRun {
        procedure: Procedure::Progressive,
        ..base.clone()
    };
    let a = run_bkl(&base).unwrap();
    assert_eq!(a, run_bkl(&base).unwrap(), "repeatable");
    assert_eq!(a.len(), 16);
    let b = run_bkl(&pv).unwrap();
    for (h, p) in a.iter().zip(&b) {
        assert_eq!((h.rep, h.tie), (p.rep, p.tie));
        // PV's hypotheses have seen more data: never more survivors.
        assert!(p.survivors <= h.survivors);
    }
    for pair in a.chunks(2) {
        assert_eq!(pair[0].tie, TieKind::Half);
        assert_eq!(pair[1].tie, TieKind::Random);
        assert_eq!(pair[0].true_exact, pair[1].true_exact);
        assert_eq!(pair[0].survivors, pair[1].survivors);
        // Random-tie estimates are multiples of 1/s.
        let k = pair[1].estimate * 10.0;
        assert!((k - k.round()).abs() < 1e-9);
    }
    let sums = summarize(&[a, b].concat(), 1000);
    assert_eq!(sums.len(), 4);
    // Single repetition API agrees with the batch.
    assert_eq!(
        run_rep(&base, 3).unwrap(),
        run_bkl(&base).unwrap()[6..8].to_vec()
    );
}

#[test]
fn bad_settings_are_errors_not_panics() {
    let mut run = BklRun {
        n_features: 0,
        n_train: 5,
        s: 10,
        procedure: Procedure::HoldOut,
        delay: 0,
        fresh: 0,
        reps: 1,
        seed: 1,
    };
    assert!(run_bkl(&run).is_err());
    run.n_features = 10;
    run.s = 0;
    assert!(run_bkl(&run).is_err());
    let problem = BklProblem::new(10).unwrap();
    let mut rng = seed::rng(1);
    assert!(problem.draw(10, 3, &mut rng).is_err());
    assert!(FreshSet::draw(vec![0, 1], 5, 10, &mut rng).is_err());
    let data = problem.draw(0, 4, &mut rng).unwrap().to_dataset();
    let l = Eliminator::new(TieRule::Half);
    assert!(hold_out(&l, &data, &[0], &[]).is_err());
    assert!(hold_out(&l, &data, &[0], &[9]).is_err());
    assert!(progressive(&l, &data, &[0], &[], 0, |_, _| {}).is_err());
    assert!(contiguous_folds(&[0, 1], 3).is_err());
}

mod theorem_checks {
    use super::super::generator::BklProblem;
    use super::super::paper::TieKind;
    use super::super::stream::{log_spaced, progressive_stream, StreamSpec};
    use super::super::theorems::*;
    use cvbench_engine::api::learners::Pegasos;
    use cvbench_engine::api::seed;

    fn pop(n_features: usize) -> BklPopulation {
        BklPopulation {
            problem: BklProblem::new(n_features).unwrap(),
            tie: TieKind::Half,
        }
    }

    #[test]
    fn kfold_records_are_consistent_and_moments_favour_kfold() {
        let p = pop(64);
        // Train on 4 of 6 points: about 5 of 64 features survive.
        let check = KFoldCheck {
            n: 6,
            k: 3,
            reps: 400,
            shuffle: false,
            seed: 9,
        };
        let recs = run_kfold_check(&p, &check).unwrap();
        assert_eq!(recs.len(), 400);
        assert_eq!(recs, run_kfold_check(&p, &check).unwrap(), "repeatable");
        for r in &recs {
            for v in [r.est_k, r.true_k, r.est_1, r.true_1] {
                assert!((0.0..=1.0).contains(&v));
            }
            // Fold 1 tests on n/k = 2 points with ties scored 1/2.
            assert!((r.est_1 * 4.0 - (r.est_1 * 4.0).round()).abs() < 1e-9);
        }
        let rows = moment_rows(&recs, &[1, 2, 3, 4]);
        assert_eq!(rows.len(), 4);
        // Theorem 2 (m = 2): the k-fold discrepancy is strictly smaller; with
        // a hold-out of 2 points the gap is large, far beyond noise here.
        let m2 = &rows[1];
        assert!(m2.diff.mean > 3.0 * m2.diff.se, "{m2:?}");
        assert!(m2.ratio() < 1.0);
    }

    #[test]
    fn tails_and_theorem5_rows() {
        let p = pop(64);
        let check = ProgressiveCheck {
            n_train: 3,
            s: 5,
            reps: 300,
            seed: 4,
        };
        let recs = run_progressive_check(&p, &check).unwrap();
        let row = theorem5_row(&recs).unwrap();
        assert_eq!(row.progressive.n, 300);
        // Both sides are variances of an average of 5 terms bounded in [0, 1].
        assert!(row.progressive.mean <= 0.25 / 5.0 * 1.5 && row.fresh.mean <= 0.25 / 5.0 * 1.5);
        let dev: Vec<f64> = recs.iter().map(|r| r.est_p - r.true_p).collect();
        let tails = tail_rows("progressive", &dev, 5, &[0.0, 0.2, 0.5]);
        assert_eq!(tails.len(), 3);
        assert_eq!(tails[0].bound, 1.0);
        for t in &tails {
            assert!(t.upper_ci.0 <= t.upper && t.upper <= t.upper_ci.1);
        }
        // a = 0.5, s = 5: bound e^-2.5 = 0.082.
        assert!(tails[2].upper <= tails[2].bound + 0.05);
    }

    #[test]
    fn dataset_population_with_pegasos_runs_and_checks_dimensions() {
        let problem = BklProblem::new(40).unwrap();
        let mut rng = seed::rng(1);
        let pool = problem.draw(3, 300, &mut rng).unwrap().to_dataset();
        let test = problem.draw(3, 200, &mut rng).unwrap().to_dataset();
        let l = Pegasos {
            lambda: 1e-2,
            project: false,
        };
        let p = DatasetPopulation::new(l.clone(), &pool, &test).unwrap();
        let recs = run_kfold_check(
            &p,
            &KFoldCheck {
                n: 30,
                k: 3,
                reps: 5,
                shuffle: true,
                seed: 2,
            },
        )
        .unwrap();
        assert_eq!(recs.len(), 5);
        let other = BklProblem::new(41)
            .unwrap()
            .draw(0, 5, &mut rng)
            .unwrap()
            .to_dataset();
        assert!(DatasetPopulation::new(l.clone(), &pool, &other).is_err());
        // The stream: one pass over the pool.
        let spec = StreamSpec {
            checkpoints: 8,
            holdout: 30,
            members: 20,
            seed: 5,
        };
        let res = progressive_stream(&l, &pool, &test, &spec).unwrap();
        assert_eq!(res.n, 300);
        assert!(!res.points.is_empty() && res.points.len() <= 8);
        assert_eq!(res.points.last().unwrap().t, 299);
        assert!((res.points.last().unwrap().running_loss - res.progressive_estimate).abs() < 1e-12);
        assert!(res.progressive_true.is_finite());
        assert!(progressive_stream(&l, &pool, &other, &spec).is_err());
        assert_eq!(log_spaced(1000, 4), vec![1, 10, 100, 1000]);
    }
}

#[test]
fn published_toml_parses() {
    let text = include_str!("../../../experiments/progressive/published.toml");
    let p = super::verdicts::published::Published::from_toml(text).unwrap();
    assert_eq!(p.table.len(), 3);
    assert_eq!(p.table[0].procedure, Procedure::Progressive);
    assert_eq!((p.table[2].n_train, p.table[2].s), (9, 10));
}

/// The full table at the paper's size (1000 repetitions); run with
/// `cargo test --release -- --ignored --nocapture paper_table`.
#[test]
#[ignore]
fn paper_table() {
    let text = include_str!("../../../experiments/progressive/published.toml");
    let published = super::verdicts::published::Published::from_toml(text).unwrap();
    let mut recs = Vec::new();
    for row in &published.table {
        let run = BklRun {
            n_features: 1000,
            n_train: row.n_train,
            s: row.s,
            procedure: row.procedure,
            delay: 0,
            fresh: 10_000,
            reps: 1000,
            seed: 1999,
        };
        recs.extend(run_bkl(&run).unwrap());
    }
    let sums = summarize(&recs, 1000);
    for c in super::verdicts::section5_table::compare_table(&published, &sums) {
        let o = &c.ours;
        println!(
            "{:20} {:6}: true {:.3} (pub {:.3}) fresh {:.3} ±se {:.4} sd {:.3} | exact E {:.4} | disc {:.3} ±se {:.4} sd {:.3} (pub {:.3}) z {:+.1} | disc_exact {:.3}",
            c.published.label,
            o.tie.label(),
            o.true_exact.mean,
            c.published.true_error,
            o.true_fresh.mean,
            o.true_fresh.se,
            o.true_fresh.std,
            o.expected_true,
            o.disc_fresh.mean,
            o.disc_fresh.se,
            o.disc_fresh.std,
            c.published.discrepancy,
            c.discrepancy_z(),
            o.disc_exact.mean,
        );
    }
    let cmp = super::verdicts::section5_table::compare_table(&published, &sums);
    println!("{:?}", super::verdicts::section5_table::tie_rule_fit(&cmp));
}

#[test]
fn kind_plans_runs_and_renders_a_tiny_config() {
    use crate::config::ConfigFile;
    use crate::experiments::{Context, Kind};
    let text = r#"
kind = "progressive"
name = "tiny"
seed = 1
tail_a = [0.1, 0.3]
[bkl]
n_features = 200
[bkl.figure1]
n_min = 12
n_max = 13
s = 2
repetitions = 5
[bkl.table]
repetitions = 5
fresh_examples = 50
delays = [2]
[[theorems]]
population = { synthetic = { n_features = 64 } }
repetitions = 20
kfold = [{ n = 6, k = 3 }]
progressive = [{ n_train = 3, s = 4 }]
"#;
    let cfg = ConfigFile::from_text("tiny.toml", text);
    let dir = tempfile::tempdir().unwrap();
    let ctx = Context::new(cvbench_engine::api::data::DataDir::new(dir.path()));
    let kind = super::kind::ProgressiveKind;
    let plan = kind.plan(&cfg, &ctx).unwrap();
    // figure1: 2 n × 2 procedures; table: 3 rows + 1 delay; theorems: 2.
    assert_eq!(plan.cells().len(), 10);
    let mut records = Vec::new();
    for i in 0..plan.cells().len() {
        records.extend(plan.run_cell(i).unwrap());
    }
    crate::results::table::to_frame(&records).unwrap();
    let out = kind.render(dir.path(), &cfg, &records).unwrap();
    assert!(out.markdown.contains("Which tie rule?"));
    assert!(out.markdown.contains("Theorems 1–2") && out.markdown.contains("Theorem 5"));
    assert!(dir.path().join("figure1.svg").exists() && dir.path().join("figure1.png").exists());
    // A bad config is an error with a location, not a panic.
    let bad = ConfigFile::from_text("bad.toml", text.replace("n_min = 12", "n_min = 1"));
    assert!(kind.plan(&bad, &ctx).is_err());
    let unknown = ConfigFile::from_text("bad.toml", format!("{text}\nbogus = 1\n"));
    assert!(kind.plan(&unknown, &ctx).is_err());
}

#[test]
fn old_key_spellings_are_errors_that_name_the_new_keys() {
    use crate::config::{ConfigError, ConfigFile};
    let text = "kind = \"progressive\"\nname = \"p\"\nseed = 1\n[bkl.table]\nrepetitions = 5\nfresh_examples = 50\n[[theorems]]\npopulation = { synthetic = { n_features = 64 } }\nrepetitions = 2\nkfold = [{ n = 6, k = 3 }]\n[[stream]]\ntrain = \"a9a\"\ntest = \"a9a.t\"\nlearners = [{ type = \"pegasos\" }]\n";
    assert!(super::config::parse(&ConfigFile::from_text("p.toml", text)).is_ok());
    for (from, to, line, col, message) in [
        (
            "repetitions = 5",
            "reps = 5",
            5,
            8,
            "`reps` is now `repetitions`",
        ),
        (
            "fresh_examples = 50",
            "fresh = 50",
            6,
            9,
            "`fresh` is now `fresh_examples`",
        ),
        (
            "repetitions = 2",
            "reps = 2",
            9,
            8,
            "`reps` is now `repetitions`",
        ),
        (
            "learners = [{ type = \"pegasos\" }]",
            "learners = [{ type = \"pegasos\" }]\nreps = 3",
            15,
            8,
            "`reps` is now `repetitions`",
        ),
    ] {
        let cfg = ConfigFile::from_text("p.toml", text.replacen(from, to, 1));
        match super::config::parse(&cfg) {
            Err(e @ ConfigError::Invalid { .. }) => {
                let shown = e.to_string();
                assert!(
                    shown.starts_with(&format!("p.toml:{line}:{col}: {message}")),
                    "{shown}"
                );
                assert!(shown.contains("fix: rename"), "{shown}");
            }
            other => panic!("{to}: {other:?}"),
        }
    }
    // `fresh` is not an old spelling where there never was one.
    let cfg = ConfigFile::from_text(
        "p.toml",
        text.replacen("repetitions = 2", "repetitions = 2\nfresh = 1", 1),
    );
    assert!(matches!(
        super::config::parse(&cfg),
        Err(ConfigError::Parse { .. })
    ));
}
