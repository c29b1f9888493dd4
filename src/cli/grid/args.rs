//! `cvbench grid`'s command line: grid.py's single-dash options, svm-train's
//! options and ours, parsed by hand (clap only collects them), and the help.

use std::path::PathBuf;

use cvbench_engine::api::errors::GridError;
use cvbench_engine::api::grid_search::{Axis, Reuse};
use cvbench_engine::api::strategies::SolverKind;

/// The raw arguments of `cvbench grid` (grid.py's single-dash options are
/// parsed here, not by clap).
#[derive(clap::Args, Debug, Clone, PartialEq)]
#[command(disable_help_flag = true)]
pub struct GridArgs {
    /// grid.py's options, svm-train's options, then the dataset (see `cvbench grid --help`).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    pub args: Vec<String>,
}

/// The help text (grid.py's, plus our options).
pub const HELP: &str = "\
Usage: cvbench grid [grid_options] [svm_options] dataset

grid_options (as grid.py's):
-log2c {begin,end,step | \"null\"} : set the range of c (default -5,15,2)
-log2g {begin,end,step | \"null\"} : set the range of g (default 3,-15,-2)
-v n : n-fold cross validation (default 5), LIBSVM's folds
-svmtrain pathname : accepted and ignored (the solver is built in)
-gnuplot {pathname | \"null\"} : \"null\" draws no figure (any path: draw with plotters)
-out {pathname | \"null\"} : (default dataset.out)
-png {pathname | \"null\"} : figure file (default dataset.png; an .svg is written beside it)
-resume [pathname] : resume from an output file (default dataset.out)

svm_options (as svm-train's): -s 0..4, -t 0|2|4, -c/-g/-n/-p are not allowed (use
-log2c/-log2g/-nu/-log2p), -e eps, -m cachesize, -h 0|1, -q

-t 4 (precomputed kernel, svm-train's format: `label 0:i 1:K(x_i,x_1) ...`): the file is
    the kernel matrix, read once; no gamma axis (-log2g refused), the grid is over C and
    nu or epsilon; every point is svm-train -t 4 -c C ... -v K's number on its folds.
    -s 0: every solve with its own -m cache (the gamma level does not apply)

-s 1..4 (nu-SVC, one-class, epsilon-SVR, nu-SVR; not grid.py's, which has C and gamma only):
-nu {begin,end,step | \"null\"} : linear nu range of -s 1, 2, 4 (default 0.1,0.7,0.2 for
    -s 1 and 2, whose grid is (nu, gamma): they have no C, -log2c is refused; null for -s 4:
    svm-train's nu = 0.5)
-log2p {begin,end,step | \"null\"} : range of log2 epsilon of -s 3 (default null:
    svm-train's -p 0.1)
    Every point is svm-train -s N -c C -g G -n NU / -p P -v K's numbers on its folds; for each
    nu or epsilon in range order, the (C, gamma) points in grid.py's order. -s 1/2 choose the
    highest CV accuracy (grid.py's lines), -s 3/4 the LEAST CV mean squared error (lines say
    mse=; grid.py -s 3 would maximise it). Ties: grid.py's (same gamma and nu/epsilon,
    smaller C), else the first in that order. Reuse: one kernel cache per gamma over every
    point and fold (--reuse gamma) and threads; -s 3 also warm starts (--reuse cpath): within
    one gamma and fold the points are a chain, epsilon from the largest down and C ascending,
    each solved from the same C's solution at the previous epsilon (as it is: feasible) or
    the previous C's (scaled by C'/C); exact to the stopping tolerance, not bit for bit
    (every MSE within 1e-3 relative of svm-train's in our tests, the same choice). -s 3's
    default is gamma+cpath+threads (2.2x less CPU than from zero on abalone_scale);
    --reuse gamma+threads gives svm-train's numbers bit for bit. The other formulations:
    gamma+threads (cpath refused). Not for -s 1..4: -resume, -png, --json, --solver batched,
    --reuse newton/folds; no figure is drawn; -out is written

cvbench options:
--reuse LEVEL : none (grid.py's way), a list of levels, or all (gamma+cpath+newton+threads).
    Exact (grid.py's rates and choice, to the bit): gamma (distance blocks) and threads;
    the default is gamma+threads (-s 3: gamma+cpath+threads, see above). Inexact, opt-in (each solve stops at LIBSVM's tolerance
    from another start, so a rate can differ from grid.py's by a held-out row or so):
    cpath (warm start along C), newton (Newton steps on the free set between SMO rounds),
    folds[-METHOD] (alpha seeding across folds). More than two classes: per class
    pair, gamma (one shared kernel cache), cpath (each fold and pair along C) and threads
    apply, newton does not, folds is refused
--threads N : worker threads (default: all cores); results do not depend on it
--memory-mb MB : budget for the gamma blocks (default 2048, or half the available memory where
    that is less; at least 100); no number depends on it
--json PATH : a machine-readable table (c, g, rate, iterations, kernel evaluations, seconds);
    `--json -` prints it on standard output (grid.py's lines then go to standard error)
--exact-params : use C and gamma as computed (default: rounded to single precision,
    as the installed svm-train reads them)
--seed N : seed of the fold seeders' random choices (default 1)
--solver smo|batched : the solver (default smo, LIBSVM's iteration for iteration; batched:
    working sets with kernel rows as blocks, LIBSVM's optimum to the stopping tolerance)";

/// Parsed options.
#[derive(Clone, Debug)]
pub(super) struct Opts {
    pub(super) c: Option<Axis>,
    pub(super) g: Option<Axis>,
    pub(super) fold: usize,
    pub(super) out: Option<PathBuf>,
    pub(super) png: Option<PathBuf>,
    pub(super) resume: Option<PathBuf>,
    pub(super) kernel_type: u8,
    pub(super) eps: f64,
    pub(super) cache_mb: f64,
    pub(super) shrinking: bool,
    pub(super) reuse: Reuse,
    pub(super) threads: Option<usize>,
    pub(super) memory_mb: f64,
    pub(super) json: Option<PathBuf>,
    pub(super) exact_params: bool,
    pub(super) seed: u64,
    pub(super) solver: SolverKind,
    pub(super) dataset: PathBuf,
    /// `-s`: 0 (C-SVC, grid.py's grid) or 1..4 (the formulation grid).
    pub(super) svm_type: u8,
    /// Options given for `-s 1..4` (checked there): the raw `-log2p` and
    /// `-nu` texts, and the option names given that grid.py's C-SVC grid
    /// has and `-s 1..4` may refuse.
    pub(super) formulation: FormulationOpts,
}

/// What the command line gave for `-s 1..4`, checked by [`super::formulations::run`].
#[derive(Clone, Debug, Default)]
pub(super) struct FormulationOpts {
    /// `-log2p`'s text.
    pub(super) log2p: Option<String>,
    /// `-nu`'s text.
    pub(super) nu: Option<String>,
    /// Options given that `-s 1..4` may refuse (`-log2c`, `-png`, ...).
    pub(super) given: Vec<String>,
}

/// A usage error (exit 2) saying `msg`.
pub(super) fn usage_err(msg: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(GridError::Usage(msg.into()))
}

/// Parse `cvbench grid`'s arguments (the dataset last, as grid.py's).
pub(super) fn parse(args: &[String]) -> anyhow::Result<Opts> {
    if args.is_empty() {
        return Err(usage_err(format!("no dataset given\n{HELP}")));
    }
    let dataset = PathBuf::from(&args[args.len() - 1]);
    if dataset.to_string_lossy().starts_with('-') {
        return Err(usage_err(format!(
            "the last argument must be the dataset, got `{}`\n  usage: cvbench grid [options] dataset",
            dataset.display()
        )));
    }
    let title = dataset
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "dataset".into());
    let opts_in = &args[..args.len() - 1];
    let mut o = Opts {
        c: Some(Axis::default_c()),
        g: Some(Axis::default_g()),
        fold: 5,
        out: Some(PathBuf::from(format!("{title}.out"))),
        png: Some(PathBuf::from(format!("{title}.png"))),
        resume: None,
        kernel_type: 2,
        eps: 1e-3,
        cache_mb: 100.0,
        shrinking: true,
        reuse: Reuse::exact_levels(),
        threads: None,
        memory_mb: cvbench_engine::api::params::grid_memory_mb(true),
        json: None,
        exact_params: false,
        seed: 1,
        solver: SolverKind::Smo,
        dataset,
        svm_type: 0,
        formulation: Default::default(),
    };
    let mut i = 0;
    let value = |i: usize, flag: &str| -> anyhow::Result<&String> {
        opts_in
            .get(i + 1)
            .ok_or_else(|| usage_err(format!("{flag} needs a value")))
    };
    let num = |s: &str, flag: &str| -> anyhow::Result<f64> {
        s.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| usage_err(format!("{flag} {s}: not a finite number")))
    };
    while i < opts_in.len() {
        let flag = opts_in[i].as_str();
        match flag {
            "-log2c" => {
                o.formulation.given.push(flag.into());
                o.c = Axis::parse(flag, value(i, flag)?)?;
                i += 1;
            }
            "-log2g" => {
                o.formulation.given.push(flag.into());
                o.g = Axis::parse(flag, value(i, flag)?)?;
                i += 1;
            }
            "-v" => {
                let v = value(i, flag)?;
                o.fold = v
                    .parse::<usize>()
                    .ok()
                    .filter(|&k| k >= 2)
                    .ok_or_else(|| usage_err(format!("-v {v}: n-fold cross validation needs an integer n >= 2")))?;
                i += 1;
            }
            "-c" | "-g" => return Err(usage_err("Use -log2c and -log2g.")),
            "-svmtrain" => {
                value(i, flag)?;
                i += 1;
            }
            "-gnuplot" => {
                o.formulation.given.push(flag.into());
                if value(i, flag)? == "null" {
                    o.png = None;
                }
                i += 1;
            }
            "-out" => {
                let v = value(i, flag)?;
                o.out = (v != "null").then(|| PathBuf::from(v));
                i += 1;
            }
            "-png" => {
                o.formulation.given.push(flag.into());
                let v = value(i, flag)?;
                o.png = (v != "null").then(|| PathBuf::from(v));
                i += 1;
            }
            "-resume" => {
                o.formulation.given.push(flag.into());
                if i + 1 == opts_in.len() || opts_in[i + 1].starts_with('-') {
                    o.resume = Some(PathBuf::from(format!("{title}.out")));
                } else {
                    o.resume = Some(PathBuf::from(&opts_in[i + 1]));
                    i += 1;
                }
            }
            "-s" => {
                let v = value(i, flag)?;
                o.svm_type = match v.as_str() {
                    "0" => 0,
                    "1" => 1,
                    "2" => 2,
                    "3" => 3,
                    "4" => 4,
                    _ => {
                        return Err(usage_err(format!(
                            "-s {v}: svm type must be 0 (C-SVC), 1 (nu-SVC), 2 (one-class), 3 (epsilon-SVR) or 4 (nu-SVR)"
                        )))
                    }
                };
                i += 1;
            }
            "-log2p" => {
                o.formulation.log2p = Some(value(i, flag)?.clone());
                i += 1;
            }
            "-nu" => {
                o.formulation.nu = Some(value(i, flag)?.clone());
                i += 1;
            }
            "-n" | "-p" => {
                return Err(usage_err(format!(
                    "{flag}: the grid searches it: use {} begin,end,step (see cvbench grid --help)",
                    if flag == "-n" { "-nu" } else { "-log2p" }
                )))
            }
            "-t" => {
                let v = value(i, flag)?;
                o.kernel_type = match v.as_str() {
                    "0" => 0,
                    "2" => 2,
                    "4" => 4,
                    _ => {
                        return Err(usage_err(format!(
                            "-t {v}: kernel type not supported (0 = linear, 2 = RBF, 4 = precomputed)"
                        )))
                    }
                };
                i += 1;
            }
            "-e" => {
                o.eps = num(value(i, flag)?, flag)?;
                i += 1;
            }
            "-m" => {
                o.cache_mb = num(value(i, flag)?, flag)?;
                i += 1;
            }
            "-h" => {
                let v = value(i, flag)?;
                o.shrinking = match v.as_str() {
                    "0" => false,
                    "1" => true,
                    _ => return Err(usage_err(format!("-h {v}: use 0 or 1"))),
                };
                i += 1;
            }
            "-q" => {}
            "--reuse" => {
                o.formulation.given.push(flag.into());
                o.reuse = Reuse::parse(value(i, flag)?).map_err(usage_err)?;
                i += 1;
            }
            "--threads" => {
                let v = value(i, flag)?;
                // The bound of `cvbench run --threads` (results do not depend on it).
                let cores = std::thread::available_parallelism().map_or(1, usize::from);
                let max = (8 * cores).max(64);
                o.threads = Some(
                    v.parse::<usize>()
                        .ok()
                        .filter(|&t| (1..=max).contains(&t))
                        .ok_or_else(|| usage_err(format!("--threads {v}: use 1..={max}")))?,
                );
                i += 1;
            }
            "--memory-mb" => {
                let v = num(value(i, flag)?, flag)?;
                if v <= 0.0 {
                    return Err(usage_err(format!("--memory-mb {v}: must be > 0")));
                }
                o.memory_mb = v;
                i += 1;
            }
            "--json" => {
                o.formulation.given.push(flag.into());
                o.json = Some(PathBuf::from(value(i, flag)?));
                i += 1;
            }
            "--seed" => {
                let v = value(i, flag)?;
                o.seed = v
                    .parse()
                    .map_err(|_| usage_err(format!("--seed {v}: not an integer")))?;
                i += 1;
            }
            "--solver" => {
                o.formulation.given.push(flag.into());
                o.solver = crate::cli::svm::parse_solver(value(i, flag)?).map_err(usage_err)?;
                i += 1;
            }
            "--exact-params" => o.exact_params = true,
            "--libsvm-folds" => {}
            other if !other.starts_with('-') => {
                return Err(usage_err(format!(
                    "too many arguments: `{other}` is not an option's value, and the dataset (`{}`) is the last argument\n  usage: cvbench grid [grid_options] [svm_options] dataset",
                    o.dataset.display()
                )))
            }
            other => {
                return Err(usage_err(format!(
                    "unknown option `{other}` (svm-train options supported: -s 0..4, -t 0|2|4, -e, -m, -h, -q)\n  see `cvbench grid --help`"
                )))
            }
        }
        i += 1;
    }
    if o.kernel_type == 4 {
        // The kernel values are the data: no gamma to search.
        if o.g.is_some() && o.formulation.given.iter().any(|g| g == "-log2g") {
            return Err(usage_err(
                "-log2g with -t 4: a precomputed kernel has no gamma (its grid is over C, and nu or epsilon): drop -log2g",
            ));
        }
        o.g = None;
    }
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_grid_py_options() {
        let o = parse(&args(
            "-log2c -1,3,2 -log2g null -v 10 -out null -png null -m 200 -h 0 data/x.txt",
        ))
        .unwrap();
        assert_eq!(o.c.unwrap().values().unwrap(), vec![-1.0, 1.0, 3.0]);
        assert!(o.g.is_none());
        assert_eq!(o.fold, 10);
        assert!(o.out.is_none() && o.png.is_none());
        assert_eq!(o.cache_mb, 200.0);
        assert!(!o.shrinking);
        let d = parse(&args("heart")).unwrap();
        assert_eq!(d.out, Some(PathBuf::from("heart.out")));
        assert_eq!(d.png, Some(PathBuf::from("heart.png")));
        let r = parse(&args("-resume -v 5 heart")).unwrap();
        assert_eq!(r.resume, Some(PathBuf::from("heart.out")));
    }

    #[test]
    fn rejects_bad_input_before_work() {
        for bad in [
            "-log2c 1,2 heart",
            "-log2c 1,2,0 heart",
            "-log2g 1,5,-1 heart",
            "-log2c 0,1e9,1e-9 heart",
            "-c 1 heart",
            "-v 1 heart",
            "-t 1 heart",
            "-t 4 -log2g 1,3,1 heart",
            "-w1 2 heart",
            "-log2c",
        ] {
            assert!(parse(&args(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_word_before_the_dataset_is_too_many_arguments() {
        let e = parse(&args("-v 3 ff extra")).unwrap_err().to_string();
        assert!(e.contains("too many arguments: `ff`"), "{e}");
        assert!(
            e.contains("the dataset (`extra`) is the last argument"),
            "{e}"
        );
        let e = parse(&args("-v 3 -ff extra")).unwrap_err().to_string();
        assert!(e.contains("unknown option `-ff`"), "{e}");
    }
}
