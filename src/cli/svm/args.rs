//! The options of `cvbench svm` (named as `svm-train`'s) and the checks
//! that refuse what it does not implement or what would do nothing.

use std::path::PathBuf;

use cvbench_engine::api::strategies::{
    CacheMode, CvStrategy, RoundOrder, SeederKind, SeedingMethod, SolverKind,
};

/// A command line that asks for something `cvbench svm` does not do, or for
/// an option that would do nothing (exit code 2).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct SvmUsage(pub String);

/// The cross-validation strategy flags: they apply with `-v K` only.
#[derive(clap::Args, Debug, Clone, PartialEq)]
pub struct CvFlags {
    /// With -v: stratified folds (a seeded shuffle within each class) instead
    /// of LIBSVM's folds (`svm-train -v K`'s, the default).
    #[arg(long)]
    pub stratified: bool,
    /// With -v --stratified: the seed of the stratified folds.
    #[arg(long)]
    pub seed: Option<u64>,
    /// LIBSVM's folds (the default with -v; kept for old scripts).
    #[arg(long, hide = true, conflicts_with = "stratified")]
    pub libsvm_folds: bool,
    /// With -v: run the folds in parallel (the default: kept for old
    /// scripts).
    #[arg(long, hide = true)]
    pub parallel: bool,
    /// With -v: a kernel cache of this many MB shared by all folds.
    #[arg(long, allow_negative_numbers = true)]
    pub shared_cache_mb: Option<f64>,
    /// With -v: alpha seeding between rounds (Wen et al. 2017), a preset of
    /// a round order and a seeder (names from the registry, see the help).
    #[arg(long, value_parser = parse_seeding, help = seeding_help())]
    pub seeding: Option<SeedingMethod>,
    /// With -v: the round order; overrides the order of --seeding.
    #[arg(long, value_parser = parse_order, help = order_help())]
    pub order: Option<RoundOrder>,
    /// With -v: the seeder; overrides the seeder of --seeding (alone: with
    /// its first meaningful order).
    #[arg(long, value_parser = parse_seeder, help = seeder_help())]
    pub seeder: Option<SeederKind>,
    /// With -v: the kernel cache, shared by every solve (the default) or
    /// per_solve (each solve its own, as svm-train), within -m MB in all
    /// (--shared-cache-mb MB means shared within MB); it changes no number.
    #[arg(long, value_parser = parse_cache)]
    pub cache: Option<CacheMode>,
    /// With -v: threads of the run (default: all cores; results do not
    /// depend on it; --threads 1 runs on one core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
}

impl CvFlags {
    /// The flags given on the command line (each applies only with `-v`).
    fn given(&self) -> Vec<&'static str> {
        let mut g = Vec::new();
        let mut add = |on: bool, name| {
            if on {
                g.push(name);
            }
        };
        add(self.stratified, "--stratified");
        add(self.seed.is_some(), "--seed");
        add(self.libsvm_folds, "--libsvm-folds");
        add(self.parallel, "--parallel");
        add(self.shared_cache_mb.is_some(), "--shared-cache-mb");
        add(self.seeding.is_some(), "--seeding");
        add(self.order.is_some(), "--order");
        add(self.seeder.is_some(), "--seeder");
        add(self.cache.is_some(), "--cache");
        add(self.threads.is_some(), "--threads");
        g
    }

    /// The CV strategy the flags ask for, and the kernel-cache budget in MB
    /// (`cache_mb` is `-m`).
    pub fn strategy(&self, cache_mb: f64) -> (CvStrategy, f64) {
        let (cache, budget) = match (self.cache, self.shared_cache_mb) {
            (Some(c), _) => (c, cache_mb),
            (None, Some(mb)) => (CacheMode::Shared, mb),
            (None, None) => (CacheMode::Shared, cache_mb),
        };
        let threads = match self.threads {
            Some(t) => usize::from(t),
            None => rayon::current_num_threads(),
        };
        let strategy =
            CvStrategy::with_overrides(self.seeding(), self.order, self.seeder, cache, threads);
        (strategy, budget)
    }

    /// The seeding method (none unless given).
    pub fn seeding(&self) -> SeedingMethod {
        self.seeding.unwrap_or(SeedingMethod::None)
    }
}

/// Options of `cvbench svm`, named as `svm-train`'s. `-h` selects shrinking
/// (as in `svm-train`); help is `--help`.
#[derive(clap::Args, Debug, Clone, PartialEq)]
#[command(disable_help_flag = true, args_override_self = true)]
pub struct SvmArgs {
    /// LibSVM-format training file (may be .xz, .bz2 or .gz compressed).
    pub datafile: PathBuf,
    /// Where to write the model (default: DATAFILE's file name plus `.model`,
    /// in the current folder, as `svm-train`). Not with -v.
    pub model_file: Option<PathBuf>,
    /// SVM type (`svm-train -s`): 0 C-SVC, 1 nu-SVC, 2 one-class SVM, 3
    /// epsilon-SVR, 4 nu-SVR (-wi with C-SVC only; -b 1 but with -s 2,
    /// and with -v not with alpha seeding for -s 1..4; alpha seeding with
    /// C-SVC, and sir / sir_two_chains with -s 1..4; --solver batched with
    /// every type).
    #[arg(short = 's', default_value = "0")]
    pub svm_type: String,
    /// Kernel: 0 linear, 1 polynomial, 2 RBF, 3 sigmoid, 4 precomputed
    /// (`svm-train -t`; with 4 each row is `label 0:SERIAL 1:K(x,x_1) ...`).
    #[arg(short = 't', default_value = "2")]
    pub kernel_type: String,
    /// Cost C (`svm-train -c`).
    #[arg(short = 'c', default_value_t = 1.0, allow_negative_numbers = true)]
    pub c: f64,
    /// Gamma of the RBF, polynomial and sigmoid kernels (default
    /// 1/num_features, as `svm-train`; 0 means the default too).
    #[arg(short = 'g', allow_negative_numbers = true)]
    pub gamma: Option<f64>,
    /// Stopping tolerance (`svm-train -e`).
    #[arg(short = 'e', default_value_t = 1e-3, allow_negative_numbers = true)]
    pub eps: f64,
    /// Kernel cache size in MB (`svm-train -m`; it changes no result). Default:
    /// the whole kernel matrix where it fits in half the available memory,
    /// at least svm-train's 100 MB.
    #[arg(short = 'm', allow_negative_numbers = true)]
    pub cache_mb: Option<f64>,
    /// Shrinking heuristic, 0 or 1 (`svm-train -h`).
    #[arg(short = 'h', default_value_t = 1, value_parser = clap::value_parser!(u8).range(0..=1))]
    pub shrinking: u8,
    /// Probability estimates, 0 or 1 (`svm-train -b`).
    #[arg(short = 'b', default_value = "0")]
    pub probability: String,
    /// Degree of the polynomial kernel (-t 1; default 3, `svm-train -d`).
    #[arg(short = 'd', allow_negative_numbers = true)]
    pub degree: Option<String>,
    /// coef0 of the polynomial and sigmoid kernels (-t 1, 3; default 0,
    /// `svm-train -r`).
    #[arg(short = 'r', allow_negative_numbers = true)]
    pub coef0: Option<String>,
    /// nu of nu-SVC, one-class SVM and nu-SVR (-s 1, 2, 4; default 0.5,
    /// `svm-train -n`).
    #[arg(short = 'n', allow_negative_numbers = true)]
    pub nu: Option<String>,
    /// epsilon of epsilon-SVR's loss (-s 3; default 0.1, `svm-train -p`).
    #[arg(short = 'p', allow_negative_numbers = true)]
    pub epsilon_svr: Option<String>,
    /// Class weight: -wLABEL WEIGHT sets C of class LABEL to WEIGHT * C
    /// (svm-train -wi; repeatable).
    // The command line's `-wLABEL WEIGHT` reaches the parser as
    // `-w LABEL:WEIGHT` (`svm_weight_args`).
    #[arg(short = 'w', value_name = "LABEL:WEIGHT", allow_hyphen_values = true, action = clap::ArgAction::Append)]
    pub weight: Vec<String>,
    /// k-fold cross-validation (`svm-train -v k`).
    #[arg(short = 'v', value_parser = parse_folds, allow_negative_numbers = true)]
    pub folds: Option<usize>,
    /// Quiet: print no optimisation output (`svm-train -q`).
    #[arg(short = 'q', long = "quiet")]
    pub quiet: bool,
    /// The cross-validation strategy (with -v only).
    #[command(flatten)]
    pub cv: CvFlags,
    /// Without -v: predict this LibSVM test file with the model read back
    /// from the model file, and print `svm-predict`'s
    /// `Accuracy = ...% (correct/total) (classification)` line.
    #[arg(long)]
    pub test: Option<PathBuf>,
    /// Also print counters and timings (before the last line).
    #[arg(long)]
    pub stats: bool,
    /// Print one JSON object (what ran, the results, the files written)
    /// instead of svm-train's text.
    #[arg(long)]
    pub json: bool,
    /// Use -c/-g/-e exactly as given. By default they are rounded to single
    /// precision, as the svm-train that `make peers` installs reads them, so
    /// that both print the same numbers.
    #[arg(long)]
    pub exact_params: bool,
    /// Also run `svm-train` with the same options and print its results.
    #[arg(long)]
    pub peer: bool,
    /// The solver: smo (LIBSVM's, iteration for iteration; the default) or
    /// batched (working sets of hundreds of variables, kernel rows as blocks:
    /// LIBSVM's optimum to the stopping tolerance, not its iterations).
    #[arg(long, value_parser = parse_solver, default_value = "smo", help = solver_help())]
    pub solver: SolverKind,
    /// Print help.
    #[arg(long, action = clap::ArgAction::Help)]
    pub help: Option<bool>,
}

/// `--seeding`'s help, its names from [`SeedingMethod`]'s registry.
fn seeding_help() -> String {
    let (kfold, loo): (Vec<_>, Vec<_>) = SeedingMethod::ALL.iter().partition(|m| !m.loocv_only());
    let names =
        |v: Vec<&SeedingMethod>| v.iter().map(|m| m.as_str()).collect::<Vec<_>>().join(", ");
    format!(
        "With -v: alpha seeding between rounds (Wen et al. 2017), a preset of a round order and a seeder: {} (k-fold and leave-one-out), {} (leave-one-out only). Exact to the stopping tolerance (-e), not bit for bit with svm-train. With -s 1..4 (nu-SVC, one-class, epsilon-SVR, nu-SVR): sir (one chain) or sir_two_chains (two), each round started from the previous one's solution made feasible for the formulation's equality constraints and bounds",
        names(kfold),
        names(loo)
    )
}

/// `--order`'s help, its names from [`RoundOrder`]'s registry.
fn order_help() -> String {
    format!(
        "With -v: the round order ({}); overrides the order of --seeding",
        RoundOrder::names()
    )
}

/// `--seeder`'s help, its names from [`SeederKind`]'s registry.
fn seeder_help() -> String {
    format!(
        "With -v: the seeder ({}); overrides the seeder of --seeding (alone: with its first meaningful order)",
        SeederKind::names()
    )
}

fn parse_seeding(s: &str) -> Result<SeedingMethod, String> {
    SeedingMethod::parse(s).ok_or_else(|| {
        format!(
            "unknown seeding method `{s}`: use {}",
            SeedingMethod::names()
        )
    })
}

/// `--solver`'s help, its names from [`SolverKind`]'s registry.
fn solver_help() -> String {
    format!(
        "The solver: {} (smo: LIBSVM's, iteration for iteration, the default; batched: working sets of hundreds of variables with their kernel rows as blocks, LIBSVM's optimum to the stopping tolerance)",
        SolverKind::names()
    )
}

/// Parse `--solver` (also `cvbench grid`'s).
pub fn parse_solver(s: &str) -> Result<SolverKind, String> {
    SolverKind::parse(s).ok_or_else(|| format!("unknown solver `{s}`: use {}", SolverKind::names()))
}

fn parse_order(s: &str) -> Result<RoundOrder, String> {
    RoundOrder::parse(s)
        .ok_or_else(|| format!("unknown round order `{s}`: use {}", RoundOrder::names()))
}

fn parse_seeder(s: &str) -> Result<SeederKind, String> {
    SeederKind::parse(s).ok_or_else(|| format!("unknown seeder `{s}`: use {}", SeederKind::names()))
}

fn parse_cache(s: &str) -> Result<CacheMode, String> {
    CacheMode::parse(s)
        .ok_or_else(|| format!("unknown cache mode `{s}`: use {}", CacheMode::names()))
}

fn parse_folds(s: &str) -> Result<usize, String> {
    match s.parse::<i64>() {
        Ok(k) if k >= 2 => Ok(k as usize),
        Ok(_) => Err(format!(
            "n-fold cross validation needs n >= 2, got {s} (svm-train: \"n must >= 2\")"
        )),
        Err(_) => Err(format!("expected a number of folds >= 2, got `{s}`")),
    }
}

impl SvmArgs {
    /// Refuse what `cvbench svm` does not implement and options that would
    /// do nothing in this call: one line naming the option and what is
    /// supported.
    pub fn check(&self) -> Result<(), SvmUsage> {
        let no = |m: String| Err(SvmUsage(m));
        if !["0", "1", "2", "3", "4"].contains(&self.svm_type.as_str()) {
            return no(format!(
                "-s {}: the SVM types are svm-train's 0 (C-SVC), 1 (nu-SVC), 2 (one-class SVM), 3 (epsilon-SVR) and 4 (nu-SVR)",
                self.svm_type
            ));
        }
        self.formulation()?;
        if !["0", "1", "2", "3", "4"].contains(&self.kernel_type.as_str()) {
            return no(format!(
                "-t {}: the kernels are 0 (linear), 1 (polynomial), 2 (RBF, the default), 3 (sigmoid) and 4 (precomputed: the data file holds the kernel values)",
                self.kernel_type
            ));
        }
        if self.probability != "0" && self.probability != "1" {
            return no(format!(
                "-b {}: probability estimates are -b 0 (none) or -b 1",
                self.probability
            ));
        }
        if ["0", "4"].contains(&self.kernel_type.as_str()) && self.gamma.is_some() {
            let kernel = if self.kernel_type == "0" {
                "linear"
            } else {
                "precomputed"
            };
            return no(format!(
                "-g sets the RBF, polynomial and sigmoid kernels' gamma; with -t {} ({kernel}) it does nothing: drop it",
                self.kernel_type
            ));
        }
        if self.degree.is_some() && self.kernel_type != "1" {
            return no(format!(
                "-d sets the polynomial kernel's degree; with -t {} it does nothing: add -t 1 or drop -d",
                self.kernel_type
            ));
        }
        if self.coef0.is_some() && !["1", "3"].contains(&self.kernel_type.as_str()) {
            return no(format!(
                "-r sets coef0 of the polynomial and sigmoid kernels; with -t {} it does nothing: add -t 1 or -t 3, or drop -r",
                self.kernel_type
            ));
        }
        self.kernel_extras()?;
        self.class_weights()?;
        if self.svm_type != "0" {
            self.check_formulation()?;
        }
        match self.folds {
            None => {
                if let Some(flag) = self.cv.given().first() {
                    return no(format!(
                        "{flag} applies to cross-validation only: add -v K, or drop {flag}"
                    ));
                }
            }
            Some(_) => {
                if self.test.is_some() {
                    return no("--test predicts with the trained model, and -v trains none (as svm-train -v): drop -v or --test".into());
                }
                if let Some(m) = &self.model_file {
                    return no(format!(
                        "model file {}: -v writes no model (as svm-train -v): drop -v or the model file",
                        m.display()
                    ));
                }
                if self.cv.seed.is_some() && !self.cv.stratified {
                    return no("--seed is the seed of --stratified folds; LIBSVM's folds (the default) use glibc rand() seeded with 1: add --stratified or drop --seed".into());
                }
            }
        }
        Ok(())
    }

    /// The kernel cache in MB for `n` training rows: `-m` where given, else
    /// [`cvbench_engine::api::params::default_cache_mb`].
    pub fn cache_mb_for(&self, n: usize) -> f64 {
        self.cache_mb
            .unwrap_or_else(|| cvbench_engine::api::params::default_cache_mb(n))
    }

    /// The model file: as given, else `svm-train`'s default (the data file's
    /// name plus `.model`, in the current folder).
    pub fn model_path(&self) -> PathBuf {
        self.model_file.clone().unwrap_or_else(|| {
            let name = self
                .datafile
                .file_name()
                .map_or_else(|| "data".into(), |n| n.to_string_lossy().into_owned());
            PathBuf::from(format!("{name}.model"))
        })
    }
}
