//! `cvbench svm -s 1..4`: nu-SVC, one-class SVM, epsilon-SVR and nu-SVR,
//! trained by the engine's [`cvbench_engine::api::formulation`] as
//! `svm-train -s 1..4` trains them (its printed lines and model file), and
//! `--test` predicted as `svm-predict` prints it (accuracy for `-s 1/2`,
//! mean squared error and squared correlation coefficient for `-s 3/4`).
//! `-n` and `-p` are read as svm-train reads them (single precision,
//! `strtof`) unless `--exact-params`; their defaults (0.5, 0.1) are
//! svm-train's doubles. `-v K` cross-validates on svm-train's folds
//! ([`cvbench_engine::api::formulation_cv`]: parallel rounds on one shared
//! kernel cache) and prints its lines; for every `-s 1..4`, `--seeding sir`
//! (one chain) or `sir_two_chains` (two) seeds each round from the previous
//! one, made feasible for the formulation's constraints
//! ([`cvbench_engine::api::formulation_cv::cross_validate_formulation_seeded`]:
//! exact to the stopping tolerance, not bit for bit). `-b 1` trains
//! svm-train's probability model (nu-SVC's pairwise `probA` / `probB`, the
//! SVRs' Laplace `probA`, on `rand()`'s default state as svm-train) and
//! prints its internal CVs' lines; `-s 2 -b 1` is refused as svm-train
//! refuses it. `-b 1 -v K` runs svm-train's CV with the probability model
//! ([`cvbench_engine::api::formulation_cv::cross_validate_formulation_probability`]:
//! rounds one after another on svm-train's `rand()` stream; nu-SVC
//! predicts by its probabilities). `-wi` is refused as svm-train ignores
//! it for these types.

use cvbench_engine::api::data::Dataset;
use cvbench_engine::api::formulation::{fit_formulation_with, SvmType};
use cvbench_engine::api::formulation_cv::{
    cross_validate_formulation, cross_validate_formulation_probability,
    cross_validate_formulation_seeded, CvSummary, FormulationCvOptions,
};
use cvbench_engine::api::params::SvmParams;
use cvbench_engine::api::strategies::SeedingMethod;
use cvbench_engine::api::training::nonfinite_warning;

use super::args::{SvmArgs, SvmUsage};
use super::output::{fmt_g, folds_json, jnum, Out};

/// `svm-train`'s name of `-s N`.
fn type_name(s: &str) -> &'static str {
    match s {
        "0" => "C-SVC",
        "1" => "nu-SVC",
        "2" => "one-class SVM",
        "3" => "epsilon-SVR",
        _ => "nu-SVR",
    }
}

impl SvmArgs {
    /// The formulation `-s`, `-n` and `-p` ask for (`None` for C-SVC), `nu`
    /// and `p` as svm-train reads them; an option that does nothing with
    /// this `-s`, or a value svm-train refuses, is a usage error.
    pub fn formulation(&self) -> Result<Option<SvmType>, SvmUsage> {
        let s = self.svm_type.as_str();
        let uses_nu = ["1", "2", "4"].contains(&s);
        if let (Some(v), false) = (&self.nu, uses_nu) {
            return Err(SvmUsage(format!(
                "-n {v} sets nu of nu-SVC, one-class SVM and nu-SVR (-s 1, 2, 4); with -s {s} ({}, kernels -t 0 to 3) it does nothing: add -s 1, 2 or 4, or drop -n",
                type_name(s)
            )));
        }
        if let (Some(v), false) = (&self.epsilon_svr, s == "3") {
            return Err(SvmUsage(format!(
                "-p {v} sets epsilon of epsilon-SVR (-s 3); with -s {s} ({}, kernels -t 0 to 3) it does nothing: add -s 3, or drop -p",
                type_name(s)
            )));
        }
        let value = |flag: &str, given: &Option<String>, default: &str| {
            let text = given.as_deref().unwrap_or(default);
            match text.trim().parse::<f64>() {
                // svm-train 3.24 as Debian builds it parses a given -n, -p
                // with strtof; its defaults are C doubles (p = 0.1).
                Ok(v) if v.is_finite() => Ok(if self.exact_params || given.is_none() {
                    v
                } else {
                    f64::from(v as f32)
                }),
                _ => Err(SvmUsage(format!("{flag} {text}: expected a finite number"))),
            }
        };
        let t = match s {
            "1" => SvmType::NuSvc {
                nu: value("-n", &self.nu, "0.5")?,
            },
            "2" => SvmType::OneClass {
                nu: value("-n", &self.nu, "0.5")?,
            },
            "3" => SvmType::EpsilonSvr {
                p: value("-p", &self.epsilon_svr, "0.1")?,
            },
            "4" => SvmType::NuSvr {
                nu: value("-n", &self.nu, "0.5")?,
            },
            _ => return Ok(None),
        };
        if t.validate().is_err() {
            return Err(SvmUsage(match t {
                SvmType::EpsilonSvr { .. } => format!(
                    "-p {}: epsilon of epsilon-SVR must be >= 0 (svm-train refuses it: \"p < 0\")",
                    self.epsilon_svr.as_deref().unwrap_or("0.1")
                ),
                _ => format!(
                    "-n {}: nu must be in (0, 1] (svm-train refuses it: \"nu <= 0 or nu > 1\")",
                    self.nu.as_deref().unwrap_or("0.5")
                ),
            }));
        }
        Ok(Some(t))
    }

    /// Refuse, for `-s 1..4`, what is not built for them yet and what
    /// svm-train ignores for them.
    pub(super) fn check_formulation(&self) -> Result<(), SvmUsage> {
        let s = &self.svm_type;
        let name = type_name(s);
        let no = |m: String| Err(SvmUsage(m));
        if self.folds.is_some() {
            if self.cv.stratified && s != "1" {
                return no(format!(
                    "--stratified with -s {s} ({name}): its targets are not classes (svm-train does not stratify them either): drop --stratified"
                ));
            }
            use cvbench_engine::api::strategies::SeedingMethod;
            let method = self.cv.seeding();
            let chain_seeding = matches!(
                method,
                SeedingMethod::None | SeedingMethod::Sir | SeedingMethod::SirTwoChains
            );
            let seeding = [
                (!chain_seeding, "--seeding"),
                (self.cv.order.is_some(), "--order"),
                (self.cv.seeder.is_some(), "--seeder"),
            ];
            if let Some((_, flag)) = seeding.into_iter().find(|(given, _)| *given) {
                let why = format!(
                    "{name} (-s {s}) takes --seeding none, sir (one chain) or sir_two_chains (two chains) alone"
                );
                return no(format!(
                    "{flag} with -s {s} ({name}): {why}; without it -s {s} -v runs every round from zero, as svm-train: drop {flag}"
                ));
            }
        }
        if self.probability == "1" && s == "2" {
            return no(format!(
                "-b 1 with -s 2 ({name}): one-class SVM probability output not supported yet (svm-train refuses it too): drop -b 1"
            ));
        }
        if self.probability == "1"
            && self.folds.is_some()
            && self.cv.seeding() != cvbench_engine::api::strategies::SeedingMethod::None
        {
            return no(format!(
                "-b 1 with -v and --seeding (-s {s}, {name}): the probability model's internal CVs draw from svm-train's rand() stream round after round, so its rounds are not seeded: drop --seeding, or -b 1"
            ));
        }
        if let Some(w) = self.weight.first() {
            let w = w.replacen(':', " ", 1);
            return no(format!(
                "-w{w} with -s {s} ({name}): svm-train accepts class weights here but ignores them (only C-SVC, -s 0, weights C per class): drop -w"
            ));
        }
        if self.peer {
            return no(format!(
                "--peer runs svm-train for C-SVC (-s 0) only: drop --peer, or run svm-train -s {s} itself"
            ));
        }
        Ok(())
    }
}

/// Train `svm_type` on `ds` with `params` (as `svm-train` parses them)
/// as `svm-train -s 1..4` does: print its lines, write
/// its model file, and with `--test` print what `svm-predict` prints.
pub(super) fn run(
    args: &SvmArgs,
    svm_type: SvmType,
    ds: &Dataset,
    test: Option<Dataset>,
    params: &SvmParams,
    out: &Out,
) -> anyhow::Result<()> {
    if let Some(k) = args.folds {
        return run_cv(args, svm_type, ds, k, params, out);
    }
    let t = std::time::Instant::now();
    let probability = (args.probability == "1").then_some(1);
    let fit = fit_formulation_with(ds, params, svm_type, probability)?;
    let secs = t.elapsed().as_secs_f64();
    if !args.json {
        for w in &fit.warnings {
            eprintln!("{w}");
        }
    }
    for l in &fit.lines {
        out.info(l);
    }
    for s in &fit.solves {
        if s.hit_max_iter {
            eprintln!("\n{}", cvbench_engine::api::training::MAX_ITER_WARNING);
        }
        if let Some(w) = nonfinite_warning(s) {
            eprintln!("{w}");
        }
    }
    let model_path = args.model_path();
    let text = fit.model_text(&model_path)?;
    crate::atomic_write::write_atomic(&model_path, text.as_bytes())
        .map_err(cvbench_engine::api::errors::ModelFileError::Output)?;
    let mut json = super::output::base_json(args, ds, params);
    json["svm_type"] = svm_type.name().into();
    json["model_file"] = model_path.display().to_string().into();
    json["iterations"] = fit.solves.iter().map(|s| s.iterations).sum::<u64>().into();
    json["n_sv"] = fit.total_sv.into();
    json["seconds"] = jnum(secs);
    if let (Some(tpath), Some(td)) = (&args.test, test) {
        let pred = fit.predict(&td);
        let (mut lines, result) = predicted(svm_type, &pred, &td.y);
        if probability.is_some() {
            // svm-predict without -b 1 on a model with probabilities.
            lines.insert(
                0,
                "Model supports probability estimates, but disabled in prediction.".into(),
            );
        }
        let mut result = result;
        result["file"] = tpath.display().to_string().into();
        json["test"] = result;
        for l in lines {
            out.result(&l);
        }
    }
    if args.json {
        println!("{json}");
    }
    Ok(())
}

/// Cross-validate `svm_type` on `ds` with `k` folds as `svm-train -s 1..4
/// -v k` does: each round's lines in fold order (as `-s 0 -v` prints its
/// parallel rounds), then svm-train's summary lines.
fn run_cv(
    args: &SvmArgs,
    svm_type: SvmType,
    ds: &Dataset,
    k: usize,
    params: &SvmParams,
    out: &Out,
) -> anyhow::Result<()> {
    if k > ds.n() && !args.json {
        eprintln!("{}", cvbench_engine::api::cv::FOLDS_OVER_DATA_WARNING);
    }
    // svm-train's rand() stream: the folds' draws, then (-b 1) the rounds'
    // internal CVs'.
    let mut rng = cvbench_engine::api::cv::GlibcRand::default_seed();
    let folds = args.cv_folds(ds, k, svm_type.is_classification(), &mut rng)?;
    let (strategy, budget) = args.cv.strategy(args.cache_mb_for(ds.n()));
    let mut cv_params = params.clone();
    cv_params.cache_mb = budget;
    let opts = FormulationCvOptions {
        cache: strategy.cache,
        threads: strategy.threads,
    };
    let method = args.cv.seeding();
    let probability = args.probability == "1";
    let cv = if probability {
        cross_validate_formulation_probability(ds, &folds, &cv_params, svm_type, &mut rng, opts)?
    } else if method == SeedingMethod::None {
        cross_validate_formulation(ds, &folds, &cv_params, svm_type, opts)?
    } else {
        cross_validate_formulation_seeded(ds, &folds, &cv_params, svm_type, opts, method)?
    };
    for r in &cv.result.rounds {
        for l in r.lines() {
            out.info(&l);
        }
        for s in &r.solves {
            if s.hit_max_iter {
                eprintln!("\n{}", cvbench_engine::api::training::MAX_ITER_WARNING);
            }
            if let Some(w) = nonfinite_warning(s) {
                eprintln!("{w}");
            }
        }
    }
    let res = &cv.result;
    if probability {
        out.stat("probability = 1: the rounds one after another, each with its probability model (svm-train's rand() stream)");
    }
    if method != SeedingMethod::None {
        out.stat(&format!(
            "seeding = {method}: rounds seeded from the previous round, exact to the stopping tolerance (-e); without --seeding the numbers are svm-train's bit for bit"
        ));
    }
    out.stat(&format!(
        "folds = {}, cache = {} ({} MB), threads = {}, solves = {}, #iter = {}, kernel evals = {} (shared cache: {}), wall {:.3}s",
        folds.kind,
        strategy.cache,
        cvbench_engine::api::params::fmt_param(budget),
        strategy.threads,
        res.rounds.iter().map(|r| r.solves.len()).sum::<usize>(),
        res.total_iterations(),
        res.kernel_evals,
        res.shared_evals,
        res.wall_s
    ));
    for l in cv.summary.lines() {
        out.result(&l);
    }
    if args.json {
        let mut json = super::output::base_json(args, ds, params);
        json["svm_type"] = svm_type.name().into();
        json["folds"] = folds_json(&folds, &strategy, budget);
        if method != SeedingMethod::None {
            json["seeding"] = method.as_str().into();
        }
        json["iterations"] = res.total_iterations().into();
        json["kernel_evals"] = res.kernel_evals.into();
        json["seconds"] = jnum(res.wall_s);
        match cv.summary {
            CvSummary::Accuracy { correct, .. } => {
                json["cv_accuracy_pct"] = jnum(cv.summary.accuracy_pct().unwrap_or(0.0));
                json["correct"] = correct.into();
            }
            CvSummary::Regression {
                mse,
                squared_correlation,
            } => {
                json["cv_mse"] = jnum(mse);
                json["cv_squared_correlation"] = jnum(squared_correlation);
            }
        }
        println!("{json}");
    }
    Ok(())
}

/// `svm-predict`'s summary of predictions `pred` of targets `y`: the
/// accuracy (classification, one-class), or the mean squared error and
/// the squared correlation coefficient (regression); and as JSON.
fn predicted(svm_type: SvmType, pred: &[f64], y: &[f64]) -> (Vec<String>, serde_json::Value) {
    let total = pred.len();
    if !svm_type.is_regression() {
        let correct = pred.iter().zip(y).filter(|(p, t)| p == t).count();
        let pct = 100.0 * correct as f64 / total.max(1) as f64;
        let line = format!(
            "Accuracy = {}% ({correct}/{total}) (classification)",
            fmt_g(pct)
        );
        let j = serde_json::json!({"accuracy_pct": jnum(pct), "correct": correct, "total": total});
        return (vec![line], j);
    }
    let (mut err, mut sp, mut st, mut spp, mut stt, mut spt) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    for (&p, &t) in pred.iter().zip(y) {
        err += (p - t) * (p - t);
        sp += p;
        st += t;
        spp += p * p;
        stt += t * t;
        spt += p * t;
    }
    let n = total as f64;
    let mse = err / n;
    let r2 =
        ((n * spt - sp * st) * (n * spt - sp * st)) / ((n * spp - sp * sp) * (n * stt - st * st));
    let lines = vec![
        format!("Mean squared error = {} (regression)", fmt_g(mse)),
        format!(
            "Squared correlation coefficient = {} (regression)",
            fmt_g(r2)
        ),
    ];
    let j = serde_json::json!({"mse": jnum(mse), "squared_correlation": jnum(r2), "total": total});
    (lines, j)
}
