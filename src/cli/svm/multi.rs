//! `cvbench svm` on more than two classes, or with class weights (`-wi`):
//! LIBSVM's one-vs-one C-SVC ([`cvbench_engine::api::training`]), with
//! `svm-train`'s output (each pair's optimization lines, `Total nSV`, the
//! `Cross Validation Accuracy` line), its model file and `--test` line.
//! Also the parsing of the kernel options (`-d`, `-r`) and weights.

use cvbench_engine::api::cv::{
    cross_validate_ovo, cross_validate_ovo_seeded, GlibcRand, OvoCvOptions,
};
use cvbench_engine::api::data::Dataset;
use cvbench_engine::api::params::{check_weights, ClassWeight, KernelData, KernelKind, SvmParams};
use cvbench_engine::api::strategies::{seeds, CacheMode};
use cvbench_engine::api::training::{solve_lines, train_ovo, PairFit, SolveStats};
use cvbench_engine::api::{solver_path, SolverPath};

use super::args::{SvmArgs, SvmUsage};
use super::model_file::write_model;
use super::output::{fmt_g, folds_json, jnum, Out};

impl SvmArgs {
    /// The kernel `-t` asks for with the given gamma, and `-d` / `-r`
    /// (svm-train's defaults: degree 3, coef0 0). A degree that is not an
    /// integer >= 0 or a coef0 that is not a finite number is refused.
    pub fn kernel_kind(&self, gamma: f64) -> Result<KernelKind, SvmUsage> {
        let degree = match &self.degree {
            None => 3,
            Some(s) => s.trim().parse::<i32>().map_err(|_| {
                SvmUsage(format!(
                    "-d {s}: the polynomial kernel's degree must be an integer >= 0"
                ))
            })?,
        };
        let coef0 = match &self.coef0 {
            None => 0.0,
            Some(s) => s
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| SvmUsage(format!("-r {s}: coef0 must be a finite number")))?,
        };
        let kind = match self.kernel_type.as_str() {
            "0" => KernelKind::Linear,
            "1" => KernelKind::Poly {
                gamma,
                degree,
                coef0,
            },
            "3" => KernelKind::Sigmoid { gamma, coef0 },
            "4" => KernelKind::Precomputed,
            _ => KernelKind::Rbf { gamma },
        };
        cvbench_engine::api::strategies::check_kernel(&kind)
            .map_err(|e| SvmUsage(e.to_string()))?;
        Ok(kind)
    }

    /// Check the kernel options (`-d`, `-r`) on their own.
    pub(super) fn kernel_extras(&self) -> Result<(), SvmUsage> {
        self.kernel_kind(1.0).map(|_| ())
    }

    /// The class weights `-wLABEL WEIGHT`, in the order given (as given:
    /// see [`weights_as_parsed`] for `svm-train`'s single precision).
    pub fn class_weights(&self) -> Result<Vec<ClassWeight>, SvmUsage> {
        let mut out = Vec::new();
        for pair in &self.weight {
            let (label, w) = pair.split_once(':').unwrap_or((pair.as_str(), ""));
            let bad = |why: &str| SvmUsage(format!("-w{label} {w}: {why}"));
            let label: i32 = label.parse().map_err(|_| {
                bad("the class label of a weight must be an integer (-wLABEL WEIGHT, e.g. -w1 2)")
            })?;
            let weight: f64 = w
                .parse()
                .map_err(|_| bad("the weight must be a number (-wLABEL WEIGHT, e.g. -w1 2)"))?;
            let given = ClassWeight { label, weight };
            let parsed = weights_as_parsed(&[given], self.exact_params)[0].weight;
            if !(parsed.is_finite() && parsed > 0.0) {
                let range = if weight.is_finite() && parsed.is_infinite() {
                    " and at most about 3.4e38 (read in single precision, as -c; --exact-params reads it in double)"
                } else {
                    ""
                };
                return Err(bad(&format!(
                    "a class weight must be finite and > 0{range} (it multiplies C)"
                )));
            }
            out.push(given);
        }
        check_weights(&out).map_err(|e| SvmUsage(e.to_string()))?;
        Ok(out)
    }
}

/// The command line with `svm-train`'s class-weight syntax `-wLABEL
/// WEIGHT` (one option, its label attached, and a separate value) after the
/// `svm` subcommand (the first argument) rewritten as `-w LABEL:WEIGHT`, which the option parser
/// takes; everything else unchanged.
pub fn svm_weight_args<T: Into<std::ffi::OsString>>(
    args: impl IntoIterator<Item = T>,
) -> Vec<std::ffi::OsString> {
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    let svm = 1;
    if args.get(svm).is_none_or(|a| a != "svm") {
        return args;
    }
    let mut out: Vec<std::ffi::OsString> = args[..=svm].to_vec();
    let mut i = svm + 1;
    while i < args.len() {
        let label = args[i]
            .to_str()
            .and_then(|a| a.strip_prefix("-w"))
            .filter(|l| !l.is_empty());
        match (label, args.get(i + 1).and_then(|v| v.to_str())) {
            (Some(l), Some(v)) => {
                out.push("-w".into());
                out.push(format!("{l}:{v}").into());
                i += 2;
            }
            _ => {
                out.push(args[i].clone());
                i += 1;
            }
        }
    }
    out
}

/// The weights as `svm-train` reads them: in single precision (as `-c`),
/// unless `exact`.
pub fn weights_as_parsed(weights: &[ClassWeight], exact: bool) -> Vec<ClassWeight> {
    if exact {
        weights.to_vec()
    } else {
        crate::peers::libsvm::weights_as_parsed_by_svm_train(weights)
    }
}

impl Out {
    /// One pair's optimization lines, as `svm-train` prints them (`nu`
    /// only where both classes have the same C).
    fn pair(&self, p: &PairFit) {
        if let Some(prob) = &p.prob {
            for f in &prob.inner {
                self.progress(&f.stats);
                self.solve_lines(&f.stats, f.nu);
                self.info(&format!("Total nSV = {}", f.stats.n_sv));
            }
            for n in &prob.notes {
                self.info(n);
            }
        }
        self.progress(&p.stats);
        self.solve_lines(&p.stats, p.nu);
    }

    /// A solve's lines (`nu` only where both classes have the same C).
    fn solve_lines(&self, stats: &SolveStats, nu: Option<f64>) {
        for l in solve_lines(stats, nu) {
            self.info(&l);
        }
    }

    /// What `svm-train` prints for one training: its weight warnings (on
    /// standard error), each pair, `Total nSV`.
    fn training(&self, warnings: &[String], nr_class: usize, pairs: &[PairFit], total_sv: usize) {
        if !self.json {
            for w in warnings {
                eprintln!("{w}");
            }
        }
        if nr_class == 1 {
            self.info("WARNING: training data in only one class. See README for details.");
        }
        for p in pairs {
            self.pair(p);
        }
        self.info(&format!("Total nSV = {total_sv}"));
    }
}

/// Train (or cross-validate) one-vs-one and print what `svm-train` prints;
/// returns the last line (the `--test` or CV accuracy line).
pub(super) fn run_multi(
    args: &SvmArgs,
    ds: &Dataset,
    test: Option<Dataset>,
    params: &SvmParams,
    out: &Out,
    json: &mut serde_json::Value,
) -> anyhow::Result<Option<String>> {
    let weights = weights_as_parsed(&args.class_weights()?, args.exact_params);
    let checked = params.check()?;
    let probability = args.probability == "1";
    // svm-train never seeds rand(): the folds and the probability CVs draw
    // from its default state, in that order.
    let mut rng = GlibcRand::default_seed();
    cvbench_engine::api::training::check_finite_features(ds)?;
    json["classes"] = "one-vs-one".into();
    match args.folds {
        None => {
            let model_path = args.model_path();
            let kd = KernelData::new(ds, params.kernel);
            let rows: Vec<usize> = (0..ds.n()).collect();
            let t = std::time::Instant::now();
            let mut fit = train_ovo(
                &kd,
                &rows,
                &checked,
                &weights,
                None,
                probability.then_some(&mut rng),
            )?;
            let secs = t.elapsed().as_secs_f64();
            kd.restore_features(&mut fit.model.sv);
            let m = &fit.model;
            out.training(&fit.warnings, m.nr_class(), &fit.pairs, m.total_sv());
            out.stat(&format!(
                "pairs = {}, kernel_evals = {}, train {secs:.4}s",
                fit.pairs.len(),
                fit.kernel_evals()
            ));
            write_model(m, &model_path)?;
            json["model_file"] = model_path.display().to_string().into();
            json["nr_class"] = m.nr_class().into();
            json["iterations"] = fit.iterations().into();
            json["pair_iterations"] = fit
                .pairs
                .iter()
                .map(|p| p.stats.iterations)
                .collect::<Vec<_>>()
                .into();
            json["n_sv"] = m.total_sv().into();
            json["seconds"] = jnum(secs);
            let (Some(tpath), Some(td)) = (&args.test, test) else {
                return Ok(None);
            };
            super::output::tested(&model_path, tpath, td, out, json).map(Some)
        }
        Some(k) => {
            let (mut strategy, budget) = args.cv.strategy(args.cache_mb_for(ds.n()));
            // More than two classes: one kernel cache for every (fold, pair)
            // solve unless asked otherwise (it changes no number).
            if args.cv.cache.is_none()
                && args.cv.shared_cache_mb.is_none()
                && solver_path(ds, false, false) == SolverPath::OneVsOne
            {
                strategy.cache = CacheMode::Shared;
            }
            let seeded = seeds(&strategy);
            if seeded && probability {
                return Err(SvmUsage(
                    "-b 1 with alpha seeding: the seeded one-vs-one CV predicts by votes, not probabilities; drop -b 1 or the seeding (--seeding, --order, --seeder)".into(),
                )
                .into());
            }
            if seeded && !weights.is_empty() {
                return Err(SvmUsage(
                    "-wi with alpha seeding: the seeders keep one C for both classes of a pair, so class weights are not built with them; drop the weights or the seeding (--seeding, --order, --seeder)".into(),
                )
                .into());
            }
            let folds = args.cv_folds(ds, k, true, &mut rng)?;
            let mut cv_params = params.clone();
            cv_params.cache_mb = budget;
            let res = if seeded {
                let seed = args.cv.seed.unwrap_or(1);
                cross_validate_ovo_seeded(ds, &folds, &cv_params, &weights, &strategy, seed)?
            } else {
                cross_validate_ovo(
                    ds,
                    &folds,
                    &cv_params,
                    &weights,
                    OvoCvOptions {
                        cache: strategy.cache,
                        threads: strategy.threads,
                        probability: probability.then_some(rng),
                    },
                )?
            };
            for f in &res.folds {
                out.training(&f.warnings, f.labels.len(), &f.pairs, f.total_sv);
            }
            if seeded {
                out.stat(&format!("Total #iter = {}", res.total_iterations()));
                out.stat(&format!(
                    "Seeding = {} per class pair, seeding {:.6}s, total = {:.6}s",
                    strategy.label(),
                    res.seed_s,
                    res.wall_s
                ));
            }
            out.stat(&format!(
                "folds = {}, seeding = {}, cache = {} ({} MB), threads = {}, pair solves = {} (+{} extra), #iter = {}, kernel evals = {} (shared cache: {} evals, {} column fills served), wall {:.3}s",
                folds.kind,
                strategy.label(),
                strategy.cache,
                cvbench_engine::api::params::fmt_param(budget),
                strategy.threads,
                res.folds.iter().map(|f| f.pairs.len()).sum::<usize>(),
                res.extra.len(),
                res.total_iterations(),
                res.kernel_evals,
                res.shared_evals,
                res.shared_hits,
                res.wall_s
            ));
            json["folds"] = folds_json(&folds, &strategy, budget);
            json["cv_accuracy_pct"] = jnum(res.accuracy_pct);
            json["correct"] = res.correct.into();
            json["iterations"] = res.total_iterations().into();
            json["kernel_evals"] = res.kernel_evals.into();
            json["seconds"] = jnum(res.wall_s);
            Ok(Some(format!(
                "Cross Validation Accuracy = {}%",
                fmt_g(res.accuracy_pct)
            )))
        }
    }
}
