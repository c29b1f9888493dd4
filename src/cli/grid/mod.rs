//! `cvbench grid [grid options] [svm-train options] DATASET`: a drop-in for
//! LIBSVM's `grid.py` (`svm-grid`). Same options, same defaults, the same
//! line per grid point, final `C gamma rate` line, `.out` file, resume file
//! and tie-break; every rate is the one `svm-train -c C -g G -v K` prints
//! (LIBSVM's folds, exact reuse) or within one flipped held-out row per fold
//! of it (warm-started reuse). Instead of gnuplot, the contour is drawn with
//! plotters (SVG and PNG). See `cvbench grid --help`.
//!
//! - [`args`]: the options (grid.py's, svm-train's, ours) and the help.
//! - `base_params`: the points' parameters as svm-train reads them.
//! - [`formulations`]: `-s 1..4`, a grid of C, gamma and nu or epsilon
//!   (the least mean squared error for the SVRs).
//! - [`outputs`]: output paths checked before any work, the `.out` file
//!   written as points finish, the resume file read back.

mod args;
mod base_params;
mod formulations;
mod outputs;

use std::collections::HashMap;
use std::io::Write;

use anyhow::{anyhow, Context as _};

use args::{parse, usage_err};
pub use args::{GridArgs, HELP};
use base_params::{base_params, point_params};
use outputs::{is_stdout, read_resume, OutFile};

use crate::peers::libsvm as peer;
use crate::pyfmt::{grid_rate, py_exponent, py_float};
use crate::results::grid_contour::{self, ContourData};
use cvbench_engine::api::cv::Folds;
use cvbench_engine::api::data::read_libsvm;
use cvbench_engine::api::grid_search::{
    run_grid, Axis, Best, Grid, GridOptions, OvoGridOptions, PointResult,
};
use cvbench_engine::api::{solver_path, SolverPath};

/// One point as `--json` writes it: every point of the search, those read
/// from the `-resume` file (`resumed: true`: only their rate is known, the
/// counts and costs are `null`, `folds` empty) and those computed now.
#[derive(serde::Serialize)]
struct JsonPoint<'a> {
    log2c: Option<f64>,
    log2g: Option<f64>,
    c: f64,
    g: f64,
    rate: f64,
    resumed: bool,
    correct: Option<usize>,
    n: Option<usize>,
    iterations: Option<u64>,
    kernel_evals: Option<u64>,
    seconds: Option<f64>,
    folds: &'a [cvbench_engine::api::grid_search::FoldStat],
}

/// Run `cvbench grid` with its raw arguments.
pub fn run(args: &GridArgs) -> anyhow::Result<()> {
    if args.args.iter().any(|a| a == "--help" || a == "-help") {
        println!("{HELP}");
        return Ok(());
    }
    let o = parse(&args.args)?;
    if o.svm_type != 0 {
        return formulations::run(&o);
    }
    let grid = Grid::new(o.c.clone(), o.g.clone())?;
    outputs::check(&o)?;
    let resumed = match &o.resume {
        Some(p) => read_resume(p)?,
        None => vec![],
    };
    let ds = read_libsvm(&o.dataset, None)
        .with_context(|| format!("dataset not found or unreadable: {}", o.dataset.display()))?;
    crate::cli::svm::warn_cast_labels(&o.dataset, &ds.y);
    let mut o = o;
    if o.kernel_type == 4 {
        crate::cli::svm::check_precomputed_file(&o.dataset, &ds).map_err(|e| usage_err(e.0))?;
        // The distance blocks are of feature vectors: each solve has its own
        // -m cache of the file's values.
        o.reuse.gamma_blocks = false;
    }
    // More than two classes: LIBSVM's one-vs-one CV at every point.
    let one_vs_one = solver_path(&ds, false, false) == SolverPath::OneVsOne;
    // The reuse levels as they apply per class pair (checked before any work).
    let ovo = if one_vs_one {
        OvoGridOptions::from_reuse(&o.reuse, o.memory_mb).map_err(|e| {
            usage_err(format!(
                "{e} ({} has more than two classes)",
                o.dataset.display()
            ))
        })?
    } else {
        OvoGridOptions::exact(o.memory_mb)
    };
    let default_gamma = cvbench_engine::api::params::default_gamma(ds.libsvm_max_index());
    let base = base_params(&o, default_gamma);
    // Each point's parameters as svm-train reads them (checked before any work).
    let is_resumed = |p: &cvbench_engine::api::grid_search::Point| {
        resumed.iter().any(|(k, _)| *k == (p.log2c, p.log2g))
    };
    let todo: Vec<usize> = (0..grid.points.len())
        .filter(|&i| !is_resumed(&grid.points[i]))
        .collect();
    let mut values: Vec<(f64, f64)> = Vec::with_capacity(todo.len());
    for &i in &todo {
        let p = grid.points[i];
        let params = point_params(&o, &base, p.log2c, p.log2g, default_gamma)?;
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
        eprintln!("{}", cvbench_engine::api::cv::FOLDS_OVER_DATA_WARNING);
    }

    let mut out_file = match &o.out {
        Some(p) => Some(OutFile::open(p, o.resume.is_some())?),
        None => None,
    };
    crate::interrupt::set_message(outputs::interrupt_message(&o));

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
    // grid.py's lines go to standard output, or to standard error when
    // standard output carries the JSON document (`--json -`).
    let json_on_stdout = o.json.as_deref().is_some_and(is_stdout);
    let print_line = |line: &str| -> std::io::Result<()> {
        if json_on_stdout {
            let mut e = std::io::stderr().lock();
            writeln!(e, "{line}")?;
            e.flush()
        } else {
            let mut so = std::io::stdout().lock();
            writeln!(so, "{line}")?;
            so.flush()
        }
    };
    // The point's line in grid.py's visiting order (the best so far).
    let emit = |log2c: Option<f64>,
                log2g: Option<f64>,
                rate: f64,
                worker: &str,
                resumed: bool,
                best: &mut Best|
     -> std::io::Result<()> {
        best.update(log2c, log2g, rate);
        let cs = fmt_exp(log2c, &o.c, resumed);
        let gs = fmt_exp(log2g, &o.g, resumed);
        let names: Vec<&str> = [cs.as_deref(), gs.as_deref()]
            .into_iter()
            .flatten()
            .collect();
        let mut line = format!("[{worker}] {} {} (best ", names.join(" "), py_float(rate));
        if cs.is_some() {
            let bc = best.log2c.map_or(f64::NAN, |e| 2f64.powf(e));
            line.push_str(&format!("c={}, ", py_float(bc)));
        }
        if gs.is_some() {
            let bg = best.log2g.map_or(f64::NAN, |e| 2f64.powf(e));
            line.push_str(&format!("g={}, ", py_float(bg)));
        }
        line.push_str(&format!("rate={})", py_float(best.rate)));
        print_line(&line)
    };
    // The point's `.out` line, written as soon as the point is finished.
    let out_line = |log2c: Option<f64>, log2g: Option<f64>, rate: f64| -> String {
        let mut l = String::new();
        if let Some(c) = fmt_exp(log2c, &o.c, false) {
            l.push_str(&format!("log2c={c} "));
        }
        if let Some(g) = fmt_exp(log2g, &o.g, false) {
            l.push_str(&format!("log2g={g} "));
        }
        l + &format!("rate={}\n", py_float(rate))
    };
    for ((c, g), rate) in &resumed {
        emit(*c, *g, *rate, "resumed", true, &mut best)?;
    }

    let pb = indicatif::ProgressBar::new(todo.len() as u64);
    pb.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} grid points, ETA {eta}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let mut done: Vec<Option<PointResult>> = vec![None; todo.len()];
    let mut next = 0usize;
    let mut all_rates: HashMap<usize, f64> = HashMap::new();
    let io_err = |what: &str| {
        let what = what.to_string();
        move |source| cvbench_engine::api::errors::SvmError::Io { what, source }
    };
    let mut finished = 0u64;
    let mut sink =
        |k: usize, r: PointResult| -> Result<(), cvbench_engine::api::errors::SvmError> {
            if let Some(f) = out_file.as_mut() {
                let p = grid.points[todo[k]];
                f.write_line(&out_line(p.log2c, p.log2g, grid_rate(r.correct, r.n)))?;
            }
            done[k] = Some(r);
            pb.inc(1);
            finished += 1;
            test_hold(finished);
            while next < todo.len() {
                let Some(r) = &done[next] else { break };
                let p = grid.points[todo[next]];
                let rate = grid_rate(r.correct, r.n);
                all_rates.insert(todo[next], rate);
                pb.suspend(|| emit(p.log2c, p.log2g, rate, "local", false, &mut best))
                    .map_err(io_err("writing grid output"))?;
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
    // A pool that cannot start is a failure of the run (exit 1), not bad input.
    let pool = cvbench_engine::api::params::thread_pool(threads).map_err(|e| anyhow!("{e}"))?;
    let cost = if one_vs_one {
        pool.install(|| {
            cvbench_engine::api::grid_search::run_grid_ovo_with(
                &ds,
                &folds,
                &base_parsed,
                &values,
                &ovo,
                &mut sink,
            )
        })?;
        cvbench_engine::api::grid_search::GridCost::default()
    } else {
        pool.install(|| run_grid(&ds, &folds, &base_parsed, &values, &gopts, &mut sink))?
    };
    pb.finish_and_clear();
    if let Some(f) = out_file {
        f.finish()?;
    }

    let mut best_cg: Vec<String> = Vec::new();
    if let Some(c) = best.log2c {
        best_cg.push(py_float(2f64.powf(c)));
    }
    if let Some(g) = best.log2g {
        best_cg.push(py_float(2f64.powf(g)));
    }
    print_line(&format!("{} {}", best_cg.join(" "), py_float(best.rate)))?;

    if let Some(path) = &o.json {
        // The resumed points first, as they are printed, then the computed ones.
        let resumed_pts = resumed.iter().map(|&((log2c, log2g), rate)| JsonPoint {
            log2c,
            log2g,
            c: log2c.map_or(1.0, |e| 2f64.powf(e)),
            g: log2g.map_or(default_gamma, |e| 2f64.powf(e)),
            rate,
            resumed: true,
            correct: None,
            n: None,
            iterations: None,
            kernel_evals: None,
            seconds: None,
            folds: &[],
        });
        let pts: Vec<JsonPoint> = resumed_pts
            .chain(
                todo.iter()
                    .zip(&done)
                    .filter_map(|(&i, r)| r.as_ref().map(|r| (i, r)))
                    .map(|(i, r)| JsonPoint {
                        log2c: grid.points[i].log2c,
                        log2g: grid.points[i].log2g,
                        c: r.c,
                        g: r.gamma,
                        rate: grid_rate(r.correct, r.n),
                        resumed: false,
                        correct: Some(r.correct),
                        n: Some(r.n),
                        iterations: Some(r.iterations()),
                        kernel_evals: Some(r.kernel_evals()),
                        seconds: Some(r.seconds()),
                        folds: &r.folds,
                    }),
            )
            .collect();
        let doc = serde_json::json!({
            "dataset": o.dataset.display().to_string(),
            "folds": folds.kind,
            "reuse": o.reuse.name(),
            "exact": o.reuse.exact(),
            "threads": threads,
            "best": {"log2c": best.log2c, "log2g": best.log2g, "rate": best.rate},
            "resumed": resumed.len(),
            "cost": cost,
            "points": pts,
        });
        let text = serde_json::to_string_pretty(&doc)? + "\n";
        if is_stdout(path) {
            let mut so = std::io::stdout().lock();
            so.write_all(text.as_bytes())?;
            so.flush()?;
        } else {
            crate::atomic_write::write_atomic(path, text.as_bytes())?;
        }
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

/// Test-only hook, not for normal use: `CVBENCH_TEST_HOLD_GRID_POINTS=N`
/// holds the grid for good once `N` points are finished (and written), so
/// that tests interrupt it midway without racing it.
fn test_hold(finished: u64) {
    let hold = std::env::var("CVBENCH_TEST_HOLD_GRID_POINTS").ok();
    if hold
        .and_then(|v| v.parse::<u64>().ok())
        .is_some_and(|n| finished >= n)
    {
        loop {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }
}
