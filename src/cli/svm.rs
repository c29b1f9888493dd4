//! `cvbench svm DATAFILE [-c C] [-g GAMMA] [-e EPS] [-m CACHE_MB] [-h 0|1]
//! [-v K] [--libsvm-folds] [--seeding METHOD]`: one C-SVC solve (or one
//! k-fold CV, optionally alpha-seeded) that prints what `svm-train` prints,
//! with `svm-train`'s defaults, plus `Total #iter` and the seconds.

use std::path::PathBuf;

use crate::data::read_libsvm;
use crate::peers::libsvm::{self as peer, PeerOutcome};
use crate::svm::folds::Folds;
use crate::svm::kernel::KernelKind;
use crate::svm::seeded_cv::{seeded_cross_validate, SeededOptions};
use crate::svm::seeding::SeedingMethod;
use crate::svm::smo::SolveStats;
use crate::svm::solution::train;
use crate::svm::SvmParams;

/// Options of `cvbench svm`, named as `svm-train`'s. `-h` selects shrinking
/// (as in `svm-train`); help is `--help`.
#[derive(clap::Args, Debug, Clone, PartialEq)]
#[command(disable_help_flag = true)]
pub struct SvmArgs {
    /// LibSVM-format data file (may be .xz, .bz2 or .gz compressed).
    pub datafile: PathBuf,
    /// Cost C (`svm-train -c`).
    #[arg(short = 'c', default_value_t = 1.0, allow_negative_numbers = true)]
    pub c: f64,
    /// RBF gamma (default 1/num_features, as `svm-train`).
    #[arg(short = 'g', allow_negative_numbers = true)]
    pub gamma: Option<f64>,
    /// Kernel: 0 linear, 2 RBF (`svm-train -t`).
    #[arg(short = 't', default_value_t = 2, value_parser = parse_kernel_type)]
    pub kernel_type: u8,
    /// Stopping tolerance (`svm-train -e`).
    #[arg(short = 'e', default_value_t = 1e-3, allow_negative_numbers = true)]
    pub eps: f64,
    /// Kernel cache size in MB (`svm-train -m`).
    #[arg(short = 'm', default_value_t = 100.0, allow_negative_numbers = true)]
    pub cache_mb: f64,
    /// Shrinking heuristic, 0 or 1 (`svm-train -h`).
    #[arg(short = 'h', default_value_t = 1, value_parser = clap::value_parser!(u8).range(0..=1))]
    pub shrinking: u8,
    /// k-fold cross-validation (`svm-train -v k`).
    #[arg(short = 'v', value_parser = parse_folds, allow_negative_numbers = true)]
    pub folds: Option<usize>,
    /// With -v: LIBSVM's own folds (glibc rand(), seed 1), reproducing `svm-train -v k`.
    #[arg(long)]
    pub libsvm_folds: bool,
    /// With -v and without --libsvm-folds: seed of the stratified folds.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// With -v: run the folds in parallel.
    #[arg(long)]
    pub parallel: bool,
    /// With -v: a kernel cache of this many MB shared by all folds.
    #[arg(long, allow_negative_numbers = true)]
    pub shared_cache_mb: Option<f64>,
    /// With -v: alpha seeding between rounds (Wen et al. 2017): none, ato,
    /// mir, sir, tree (k-fold and leave-one-out), avg, top (leave-one-out only).
    #[arg(long, default_value = "none", value_parser = parse_seeding)]
    pub seeding: SeedingMethod,
    /// Without -v: predict this LibSVM test file and print `svm-predict`'s
    /// `Accuracy = ...% (correct/total) (classification)` line.
    #[arg(long)]
    pub test: Option<PathBuf>,
    /// Also print counters and timings.
    #[arg(long)]
    pub stats: bool,
    /// Use -c/-g/-e exactly as given. By default they are rounded to f32, as
    /// the installed `svm-train` (Debian 3.24+ds, which parses them with
    /// `strtof`) does, so that both print the same numbers.
    #[arg(long)]
    pub exact_params: bool,
    /// Also run `svm-train` with the same options and print its output.
    #[arg(long)]
    pub peer: bool,
    /// Print help.
    #[arg(long, action = clap::ArgAction::Help)]
    pub help: Option<bool>,
}

fn parse_seeding(s: &str) -> Result<SeedingMethod, String> {
    SeedingMethod::parse(s).ok_or_else(|| {
        format!("unknown seeding method {s:?}: use none, ato, mir, sir, avg, top or tree")
    })
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

fn parse_kernel_type(s: &str) -> Result<u8, String> {
    match s {
        "0" => Ok(0),
        "2" => Ok(2),
        _ => Err(format!(
            "kernel type {s} is not supported (0 = linear, 2 = RBF)"
        )),
    }
}

/// `printf("%g", x)`: 6 significant digits, trailing zeros removed.
pub fn fmt_g(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    if !x.is_finite() {
        return format!("{x}");
    }
    let sci = format!("{x:.5e}");
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let strip = |s: String| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    };
    if (-4..6).contains(&exp) {
        strip(format!("{:.*}", (5 - exp) as usize, x))
    } else {
        let m = strip(mant.to_string());
        format!("{m}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs())
    }
}

fn print_solve(iterations: u64, nu: f64, stats: &SolveStats, show_stats: bool) {
    println!("optimization finished, #iter = {iterations}");
    println!("nu = {nu:.6}");
    println!("obj = {:.6}, rho = {:.6}", stats.objective, stats.rho);
    println!("nSV = {}, nBSV = {}", stats.n_sv, stats.n_bsv);
    println!("Total nSV = {}", stats.n_sv);
    if show_stats {
        println!(
            "[stats] kernel_evals = {}, cache hits/misses = {}/{}, shared fills = {}, \
             shrink events = {} ({} vars), reconstructions = {}, kkt = {:.3e}, \
             init {:.4}s, train {:.4}s, predict {:.4}s",
            stats.kernel_evals,
            stats.cache_hits,
            stats.cache_misses,
            stats.shared_hits,
            stats.shrink_events,
            stats.shrunk_vars,
            stats.reconstructions,
            stats.kkt_violation,
            stats.timings.init_s,
            stats.timings.train_s,
            stats.timings.predict_s
        );
    }
}

/// Run the command.
pub fn run(args: &SvmArgs) -> anyhow::Result<()> {
    let ds = read_libsvm(&args.datafile, None)?;
    let kernel = if args.kernel_type == 0 {
        KernelKind::Linear
    } else {
        KernelKind::Rbf {
            gamma: args
                .gamma
                .unwrap_or(if ds.d() > 0 { 1.0 / ds.d() as f64 } else { 0.0 }),
        }
    };
    let given = SvmParams {
        kernel,
        c: args.c,
        eps: args.eps,
        cache_mb: args.cache_mb,
        shrinking: args.shrinking == 1,
        max_iter: None,
    };
    let mut params = if args.exact_params {
        given.validate()?;
        given.clone()
    } else {
        peer::as_parsed_checked(&given)?
    };
    if let Some(mb) = args.shared_cache_mb {
        if !(mb.is_finite() && mb > 0.0) {
            return Err(crate::svm::SvmError::InvalidParam(format!(
                "--shared-cache-mb must be finite and > 0, got {}",
                crate::svm::fmt_param(mb)
            ))
            .into());
        }
    }
    if args.gamma.is_none() {
        // svm-train computes the default 1/num_features in double.
        params.kernel = given.kernel;
    }
    match args.folds {
        None => {
            let rows: Vec<usize> = (0..ds.n()).collect();
            let out = train(&ds, &rows, &params, None)?;
            if out.single_class {
                println!("WARNING: training data in only one class. See README for details.");
            } else {
                print_solve(out.stats.iterations, out.nu, &out.stats, args.stats);
                if out.stats.hit_max_iter {
                    println!("WARNING: reaching max number of iterations");
                }
            }
            if let Some(test) = &args.test {
                let td = read_libsvm(test, Some(ds.d()))?;
                let t = std::time::Instant::now();
                let correct = (0..td.n())
                    .filter(|&i| out.model.predict(td.row(i)) == td.y[i])
                    .count();
                let secs = t.elapsed().as_secs_f64();
                println!(
                    "Accuracy = {}% ({correct}/{}) (classification)",
                    fmt_g(100.0 * correct as f64 / td.n().max(1) as f64),
                    td.n()
                );
                if args.stats {
                    println!("[stats] predict {secs:.4}s");
                }
            }
        }
        Some(k) => {
            let folds = if args.libsvm_folds {
                Folds::libsvm(&ds, k)?
            } else if k >= ds.n() {
                Folds::loocv(ds.n())
            } else {
                Folds::stratified(&ds, k, args.seed)?
            };
            args.seeding.check_k(folds.k(), ds.n())?;
            let opts = SeededOptions {
                method: args.seeding,
                parallel: args.parallel,
                shared_cache_mb: args.shared_cache_mb,
                seed: args.seed,
            };
            let seeded = seeded_cross_validate(&ds, &folds, &params, &opts)?;
            let res = &seeded.cv;
            for r in &res.rounds {
                if r.single_class {
                    println!("WARNING: training data in only one class. See README for details.");
                } else {
                    print_solve(r.stats.iterations, r.nu, &r.stats, args.stats);
                }
            }
            println!("Cross Validation Accuracy = {}%", fmt_g(res.accuracy_pct));
            println!("Total #iter = {}", seeded.total_iterations());
            println!(
                "Seeding = {}, init = {:.6}s, total = {:.6}s",
                args.seeding.as_str(),
                seeded.init_seconds(),
                res.wall_s
            );
            if args.stats {
                println!(
                    "[stats] folds = {}, round iterations = {}, extra solves = {}, kernel evals = {}, parallel = {}, shared cache = {}",
                    folds.kind,
                    res.total_iterations,
                    seeded.extra.len(),
                    res.total_kernel_evals,
                    seeded.parallel,
                    seeded.shared_cache
                );
            }
        }
    }
    if args.peer {
        let (plain, _temp) = args.datafile_plain()?;
        match peer::run_svm_train(&plain, &given, args.folds, None)? {
            PeerOutcome::Ran(t) => println!(
                "[svm-train] #iter = {:?}, obj = {:?}, nSV = {:?}, CV accuracy = {:?}, wall {:.4}s",
                t.iterations, t.obj, t.n_sv, t.cv_accuracy_pct, t.wall_s
            ),
            PeerOutcome::Skipped(s) => println!("[svm-train] {s}"),
        }
    }
    Ok(())
}

impl SvmArgs {
    /// The data file as `svm-train` can read it: the file itself, or a
    /// decompressed temporary copy (removed when the returned guard drops,
    /// also on error or Ctrl-C).
    fn datafile_plain(&self) -> anyhow::Result<(PathBuf, Option<crate::interrupt::TempFile>)> {
        use crate::data::compress::Compression;
        if Compression::from_path(&self.datafile) == Compression::None {
            return Ok((self.datafile.clone(), None));
        }
        let bytes = crate::data::compress::read_all(&self.datafile)?;
        let tmp = crate::interrupt::TempFile::with_contents("cvbench-svm-peer-", ".libsvm", &bytes)
            .map_err(|source| crate::svm::SvmError::Io {
                what: "writing a decompressed copy for svm-train".into(),
                source,
            })?;
        Ok((tmp.path().to_path_buf(), Some(tmp)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{Args, Command, FromArgMatches};

    #[test]
    fn fmt_g_matches_printf() {
        assert_eq!(fmt_g(77.03703703703704), "77.037");
        assert_eq!(fmt_g(100.0), "100");
        assert_eq!(fmt_g(84.81481481481481), "84.8148");
        assert_eq!(fmt_g(0.5), "0.5");
        assert_eq!(fmt_g(1234567.0), "1.23457e+06");
        assert_eq!(fmt_g(0.0000123), "1.23e-05");
    }

    #[test]
    fn parses_svm_train_style_flags_as_a_subcommand() {
        let cmd = SvmArgs::augment_args(Command::new("svm"));
        let root = Command::new("cvbench").subcommand(cmd);
        root.clone().debug_assert();
        let m = root
            .try_get_matches_from([
                "cvbench",
                "svm",
                "heart",
                "-c",
                "2182",
                "-g",
                "0.2",
                "-h",
                "0",
                "-v",
                "10",
                "--libsvm-folds",
            ])
            .unwrap();
        let (_, sub) = m.subcommand().unwrap();
        let a = SvmArgs::from_arg_matches(sub).unwrap();
        assert_eq!(a.c, 2182.0);
        assert_eq!(a.gamma, Some(0.2));
        assert_eq!(a.shrinking, 0);
        assert_eq!(a.folds, Some(10));
        assert!(a.libsvm_folds);
        assert_eq!(a.kernel_type, 2);
    }
}
