//! `cvbench grid [grid options] [svm-train options] DATASET`: a drop-in for
//! LIBSVM's `grid.py` (`svm-grid`). Same options, same defaults, the same
//! line per grid point, final `C gamma rate` line, `.out` file, resume file
//! and tie-break; every rate is the one `svm-train -c C -g G -v K` prints
//! (LIBSVM's folds, exact reuse) or within one flipped held-out row per fold
//! of it (warm-started reuse). Instead of gnuplot, the contour is drawn with
//! plotters (SVG and PNG). See `cvbench grid --help`.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context as _};

use crate::data::read_libsvm;
use crate::peers::libsvm as peer;
use crate::results::grid_contour::{self, ContourData};
use crate::svm::folds::Folds;
use crate::svm::grid::pyfmt::{grid_rate, py_exponent, py_float};
use crate::svm::grid::select::Best;
use crate::svm::grid::{run_grid, Axis, Grid, GridError, GridOptions, PointResult, Reuse};
use crate::svm::kernel::KernelKind;
use crate::svm::SvmParams;

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

svm_options (as svm-train's): -s 0, -t 0|2, -c/-g are not allowed (use -log2c/-log2g),
-e eps, -m cachesize, -h 0|1, -q

cvbench options:
--reuse LEVEL : none (grid.py's way), all (default: gamma+cpath+newton+threads), or a list of
    gamma (distance blocks, exact), cpath (warm start along C), newton (Newton steps on
    the free set between SMO rounds), folds[-METHOD] (alpha seeding across folds),
    threads; e.g. gamma+threads (exact and parallel)
--threads N : worker threads (default: all cores); results do not depend on it
--memory-mb MB : budget for the gamma blocks (default 2048)
--json PATH : a machine-readable table (c, g, rate, iterations, kernel evaluations, seconds)
--exact-params : use C and gamma as computed (default: rounded to single precision,
    as the installed svm-train reads them)
--seed N : seed of the fold seeders' random choices (default 1)";

/// Parsed options.
#[derive(Clone, Debug)]
struct Opts {
    c: Option<Axis>,
    g: Option<Axis>,
    fold: usize,
    out: Option<PathBuf>,
    png: Option<PathBuf>,
    resume: Option<PathBuf>,
    kernel_type: u8,
    eps: f64,
    cache_mb: f64,
    shrinking: bool,
    reuse: Reuse,
    threads: Option<usize>,
    memory_mb: f64,
    json: Option<PathBuf>,
    exact_params: bool,
    seed: u64,
    dataset: PathBuf,
}

fn usage_err(msg: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(GridError::Usage(msg.into()))
}

fn parse(args: &[String]) -> anyhow::Result<Opts> {
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
        reuse: Reuse::all(),
        threads: None,
        memory_mb: 2048.0,
        json: None,
        exact_params: false,
        seed: 1,
        dataset,
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
                o.c = Axis::parse(flag, value(i, flag)?)?;
                i += 1;
            }
            "-log2g" => {
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
                let v = value(i, flag)?;
                o.png = (v != "null").then(|| PathBuf::from(v));
                i += 1;
            }
            "-resume" => {
                if i + 1 == opts_in.len() || opts_in[i + 1].starts_with('-') {
                    o.resume = Some(PathBuf::from(format!("{title}.out")));
                } else {
                    o.resume = Some(PathBuf::from(&opts_in[i + 1]));
                    i += 1;
                }
            }
            "-s" => {
                let v = value(i, flag)?;
                if v != "0" {
                    return Err(usage_err(format!(
                        "-s {v}: only C-SVC (-s 0) is implemented"
                    )));
                }
                i += 1;
            }
            "-t" => {
                let v = value(i, flag)?;
                o.kernel_type = match v.as_str() {
                    "0" => 0,
                    "2" => 2,
                    _ => {
                        return Err(usage_err(format!(
                            "-t {v}: kernel type not supported (0 = linear, 2 = RBF)"
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
            "--exact-params" => o.exact_params = true,
            "--libsvm-folds" => {}
            other => {
                return Err(usage_err(format!(
                    "unknown option `{other}` (svm-train options supported: -s 0, -t 0|2, -e, -m, -h, -q)\n  see `cvbench grid --help`"
                )))
            }
        }
        i += 1;
    }
    Ok(o)
}

/// A resume file's entries `(log2c, log2g) -> rate`, in first-seen order
/// (a later line for the same point replaces the rate, as in grid.py).
/// Resumed points: `((log2c, log2g), rate)` in first-seen order.
type Resumed = Vec<((Option<f64>, Option<f64>), f64)>;

fn read_resume(path: &Path) -> anyhow::Result<Resumed> {
    let text = std::fs::read_to_string(path).with_context(|| {
        format!(
            "file for resumption not found or unreadable: {}",
            path.display()
        )
    })?;
    let mut out: Resumed = Vec::new();
    let grab = |line: &str, key: &str, extra: &str| -> Option<String> {
        let at = line.find(key)? + key.len();
        let s: String = line[at..]
            .chars()
            .take_while(|ch| ch.is_ascii_digit() || *ch == '.' || extra.contains(*ch))
            .collect();
        (!s.is_empty()).then_some(s)
    };
    for (ln, line) in text.lines().enumerate() {
        let line = line.trim();
        let Some(rate) = grab(line, "rate=", "") else {
            continue;
        };
        let parse = |s: String| -> anyhow::Result<f64> {
            s.parse().map_err(|_| {
                usage_err(format!(
                    "{}:{}: `{s}` is not a number: fix or remove the line",
                    path.display(),
                    ln + 1
                ))
            })
        };
        let rate = parse(rate)?;
        let c = grab(line, "log2c=", "-").map(parse).transpose()?;
        let g = grab(line, "log2g=", "-").map(parse).transpose()?;
        match out.iter_mut().find(|(k, _)| *k == (c, g)) {
            Some(e) => e.1 = rate,
            None => out.push(((c, g), rate)),
        }
    }
    Ok(out)
}

/// One computed point as `--json` writes it.
#[derive(serde::Serialize)]
struct JsonPoint<'a> {
    log2c: Option<f64>,
    log2g: Option<f64>,
    c: f64,
    g: f64,
    rate: f64,
    correct: usize,
    n: usize,
    iterations: u64,
    kernel_evals: u64,
    seconds: f64,
    folds: &'a [crate::svm::grid::FoldStat],
}

/// Run `cvbench grid` with its raw arguments.
pub fn run(args: &GridArgs) -> anyhow::Result<()> {
    if args.args.iter().any(|a| a == "--help" || a == "-help") {
        println!("{HELP}");
        return Ok(());
    }
    let o = parse(&args.args)?;
    let grid = Grid::new(o.c.clone(), o.g.clone())?;
    let resumed = match &o.resume {
        Some(p) => read_resume(p)?,
        None => vec![],
    };
    let ds = read_libsvm(&o.dataset, None)
        .with_context(|| format!("dataset not found or unreadable: {}", o.dataset.display()))?;
    // More than two classes: LIBSVM's one-vs-one CV at every point.
    let one_vs_one = crate::svm::multiclass::is_multiclass(&ds);
    let default_gamma = if ds.d() > 0 { 1.0 / ds.d() as f64 } else { 0.0 };
    let base = SvmParams {
        kernel: if o.kernel_type == 0 {
            KernelKind::Linear
        } else {
            KernelKind::Rbf {
                gamma: default_gamma,
            }
        },
        c: 1.0,
        eps: o.eps,
        cache_mb: o.cache_mb,
        shrinking: o.shrinking,
        max_iter: None,
    };
    // Each point's parameters as svm-train reads them (checked before any work).
    let is_resumed =
        |p: &crate::svm::grid::Point| resumed.iter().any(|(k, _)| *k == (p.log2c, p.log2g));
    let todo: Vec<usize> = (0..grid.points.len())
        .filter(|&i| !is_resumed(&grid.points[i]))
        .collect();
    let mut values: Vec<(f64, f64)> = Vec::with_capacity(todo.len());
    for &i in &todo {
        let p = grid.points[i];
        let mut params = base.clone();
        params.c = p.c();
        if let KernelKind::Rbf { .. } = params.kernel {
            params.kernel = KernelKind::Rbf {
                gamma: p.gamma(default_gamma),
            };
        }
        let mut params = if o.exact_params {
            params.validate()?;
            params
        } else {
            peer::as_parsed_checked(&params)?
        };
        if p.log2g.is_none() {
            if let KernelKind::Rbf { .. } = params.kernel {
                // svm-train computes its default 1/num_features in double.
                params.kernel = KernelKind::Rbf {
                    gamma: default_gamma,
                };
            }
        }
        let gamma = params.kernel.gamma().unwrap_or(0.0);
        values.push((params.c, gamma));
    }
    let mut base_parsed = if o.exact_params {
        base.clone()
    } else {
        peer::as_parsed_by_svm_train(&base)
    };
    base_parsed.c = 1.0;
    let folds = Folds::libsvm(&ds, o.fold)?;
    if o.fold > ds.n() {
        eprintln!("{}", crate::svm::folds::FOLDS_OVER_DATA_WARNING);
    }

    let mut out_file = match &o.out {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .write(true)
                .append(o.resume.is_some())
                .truncate(o.resume.is_none())
                .open(p)
                .with_context(|| format!("cannot write the output file {}", p.display()))?,
        ),
        None => None,
    };

    let fmt_exp = |v: Option<f64>, axis: &Option<Axis>, resumed: bool| -> Option<String> {
        v.map(|x| {
            if resumed {
                py_float(x)
            } else {
                py_exponent(x, axis.as_ref().is_none_or(|a| a.user))
            }
        })
    };
    let mut best = Best::default();
    let stdout = std::io::stdout();
    let emit = |log2c: Option<f64>,
                log2g: Option<f64>,
                rate: f64,
                worker: &str,
                resumed: bool,
                best: &mut Best,
                out_file: &mut Option<std::fs::File>|
     -> anyhow::Result<()> {
        best.update(log2c, log2g, rate);
        let cs = fmt_exp(log2c, &o.c, resumed);
        let gs = fmt_exp(log2g, &o.g, resumed);
        let names: Vec<&str> = [cs.as_deref(), gs.as_deref()]
            .into_iter()
            .flatten()
            .collect();
        let mut line = format!("[{worker}] {} {} (best ", names.join(" "), py_float(rate));
        let mut out_line = String::new();
        if let Some(c) = &cs {
            let bc = best.log2c.map_or(f64::NAN, |e| 2f64.powf(e));
            line.push_str(&format!("c={}, ", py_float(bc)));
            out_line.push_str(&format!("log2c={c} "));
        }
        if let Some(g) = &gs {
            let bg = best.log2g.map_or(f64::NAN, |e| 2f64.powf(e));
            line.push_str(&format!("g={}, ", py_float(bg)));
            out_line.push_str(&format!("log2g={g} "));
        }
        line.push_str(&format!("rate={})", py_float(best.rate)));
        let mut so = stdout.lock();
        writeln!(so, "{line}")?;
        so.flush()?;
        if let (Some(f), false) = (out_file.as_mut(), resumed) {
            writeln!(f, "{out_line}rate={}", py_float(rate))?;
            f.flush()?;
        }
        Ok(())
    };
    for ((c, g), rate) in &resumed {
        emit(*c, *g, *rate, "resumed", true, &mut best, &mut out_file)?;
    }

    let pb = indicatif::ProgressBar::new(todo.len() as u64);
    pb.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} grid points, ETA {eta}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let mut done: Vec<Option<PointResult>> = vec![None; todo.len()];
    let mut next = 0usize;
    let mut all_rates: HashMap<usize, f64> = HashMap::new();
    let mut sink = |k: usize, r: PointResult| -> Result<(), crate::svm::SvmError> {
        done[k] = Some(r);
        pb.inc(1);
        while next < todo.len() {
            let Some(r) = &done[next] else { break };
            let p = grid.points[todo[next]];
            let rate = grid_rate(r.correct, r.n);
            all_rates.insert(todo[next], rate);
            pb.suspend(|| {
                emit(
                    p.log2c,
                    p.log2g,
                    rate,
                    "local",
                    false,
                    &mut best,
                    &mut out_file,
                )
            })
            .map_err(|e| crate::svm::SvmError::Io {
                what: "writing grid output".into(),
                source: std::io::Error::other(e.to_string()),
            })?;
            next += 1;
        }
        Ok(())
    };
    let gopts = GridOptions {
        reuse: o.reuse.clone(),
        memory_mb: o.memory_mb,
        distances: None,
        seed: o.seed,
    };
    let threads = o
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| anyhow!("cannot start {threads} threads: {e}"))?;
    let cost = if one_vs_one {
        pool.install(|| {
            crate::svm::multiclass::grid::run_grid_ovo(
                &ds,
                &folds,
                &base_parsed,
                &values,
                o.memory_mb,
                &mut sink,
            )
        })?;
        crate::svm::grid::GridCost::default()
    } else {
        pool.install(|| run_grid(&ds, &folds, &base_parsed, &values, &gopts, &mut sink))?
    };
    pb.finish_and_clear();
    drop(out_file);

    let mut best_cg: Vec<String> = Vec::new();
    if let Some(c) = best.log2c {
        best_cg.push(py_float(2f64.powf(c)));
    }
    if let Some(g) = best.log2g {
        best_cg.push(py_float(2f64.powf(g)));
    }
    println!("{} {}", best_cg.join(" "), py_float(best.rate));

    if let Some(path) = &o.json {
        let pts: Vec<JsonPoint> = todo
            .iter()
            .zip(&done)
            .filter_map(|(&i, r)| r.as_ref().map(|r| (i, r)))
            .map(|(i, r)| JsonPoint {
                log2c: grid.points[i].log2c,
                log2g: grid.points[i].log2g,
                c: r.c,
                g: r.gamma,
                rate: grid_rate(r.correct, r.n),
                correct: r.correct,
                n: r.n,
                iterations: r.iterations(),
                kernel_evals: r.kernel_evals(),
                seconds: r.seconds(),
                folds: &r.folds,
            })
            .collect();
        let doc = serde_json::json!({
            "dataset": o.dataset.display().to_string(),
            "folds": folds.kind,
            "reuse": o.reuse.name(),
            "exact": o.reuse.exact(),
            "threads": threads,
            "best": {"log2c": best.log2c, "log2g": best.log2g, "rate": best.rate},
            "cost": cost,
            "points": pts,
        });
        std::fs::write(path, serde_json::to_string_pretty(&doc)? + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
    }

    if let (Some(png), Some(c_axis), Some(g_axis)) = (&o.png, &o.c, &o.g) {
        let mut pts: Vec<(f64, f64, f64)> = Vec::new();
        for (i, p) in grid.points.iter().enumerate() {
            let rate = all_rates.get(&i).copied().or_else(|| {
                resumed
                    .iter()
                    .find(|(k, _)| *k == (p.log2c, p.log2g))
                    .map(|(_, r)| *r)
            });
            if let (Some(c), Some(g), Some(r)) = (p.log2c, p.log2g, rate) {
                pts.push((c, g, r));
            }
        }
        let title = o
            .dataset
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let data = ContourData {
            title: title.clone(),
            subtitle: format!(
                "{title}: {} rows, {}-fold CV (LIBSVM folds), {} grid points, one run",
                ds.n(),
                folds.k(),
                pts.len()
            ),
            points: pts,
            c_range: (c_axis.begin, c_axis.end),
            g_range: (g_axis.begin, g_axis.end),
            best: best.log2c.zip(best.log2g).map(|(c, g)| (c, g, best.rate)),
        };
        grid_contour::render_to(&data, png).map_err(|e| anyhow!(e))?;
    }
    Ok(())
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
            "-w1 2 heart",
            "-log2c",
        ] {
            assert!(parse(&args(bad)).is_err(), "{bad}");
        }
    }
}
