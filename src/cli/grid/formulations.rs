//! `cvbench grid -s 1..4`: a grid of nu-SVC, one-class, epsilon-SVR or
//! nu-SVR ([`cvbench_engine::api::formulation_grid`]): C and gamma as
//! grid.py's (`-log2c`, `-log2g`; nu-SVC and one-class have no C) and the
//! formulation's own parameter (`-nu` linear, `-log2p` exponents), every
//! point `svm-train -s N ... -v K`'s numbers on its folds. For `-s 1/2`
//! grid.py's lines (the accuracy it maximises); for `-s 3/4` the same
//! lines saying `mse=`, and the LEAST mean squared error is chosen (grid.py
//! run on `-s 3` maximises the number after "Cross", the MSE).

use std::io::Write;

use anyhow::anyhow;

use super::args::{usage_err, Opts};
use super::base_params::{base_params, point_params};
use super::outputs::OutFile;
use crate::peers::libsvm as peer;
use crate::pyfmt::{grid_rate, py_exponent, py_float};
use cvbench_engine::api::data::{printf_g, read_libsvm};
use cvbench_engine::api::errors::SvmError;
use cvbench_engine::api::formulation::SvmType;
use cvbench_engine::api::formulation_cv::{libsvm_folds, CvSummary};
use cvbench_engine::api::formulation_grid::{
    formulation_points, nu_values, run_formulation_grid, FormulationBest, FormulationGridOptions,
    FormulationPoint, FormulationPointResult, NamedPoint,
};
use cvbench_engine::api::grid_search::Axis;
use cvbench_engine::api::strategies::SolverKind;

/// The default nu range of nu-SVC and one-class (their grid is nu x gamma).
const DEFAULT_NU: &str = "0.1,0.7,0.2";

/// The third axis: its name on the lines, and its values as named
/// (`log2 p` or nu) with the value each gives.
struct Third {
    /// `p` or `nu` (the `best` part), `log2p` or `nu` (the `.out` file).
    best_name: &'static str,
    out_name: &'static str,
    /// Whether a value names an exponent (`p = 2^value`).
    exponent: bool,
    /// Whether the axis is searched (printed on the lines).
    searched: bool,
    /// Values as named (`[None]` where not searched).
    named: Vec<Option<f64>>,
    /// Whether the user gave the range (exponents printed as floats).
    user: bool,
}

/// Check the options for `-s 1..4`: exit 2 on what does not apply.
fn check(o: &Opts) -> anyhow::Result<Third> {
    let s = o.svm_type;
    let name = ["C-SVC", "nu-SVC", "one-class SVM", "epsilon-SVR", "nu-SVR"][s as usize];
    let f = &o.formulation;
    let given = |flag: &str| f.given.iter().any(|g| g == flag);
    if (s == 1 || s == 2) && o.c.is_some() && given("-log2c") {
        return Err(usage_err(format!(
            "-log2c with -s {s} ({name}): it has no C (svm-train ignores -c); its grid is nu x gamma: drop -log2c, give -nu begin,end,step"
        )));
    }
    if f.log2p.is_some() && s != 3 {
        return Err(usage_err(format!(
            "-log2p sets epsilon of epsilon-SVR (-s 3); with -s {s} ({name}) it does nothing: drop -log2p, or use -nu for nu"
        )));
    }
    if f.nu.is_some() && s == 3 {
        return Err(usage_err(
            "-nu sets nu of -s 1, 2, 4; epsilon-SVR (-s 3) has epsilon: use -log2p begin,end,step",
        ));
    }
    for (flag, why) in [
        ("-resume", "resuming is built for C-SVC (-s 0) only"),
        ("--json", "the JSON table is built for C-SVC (-s 0) only"),
    ] {
        if given(flag) {
            return Err(usage_err(format!(
                "{flag} with -s {s} ({name}): {why}: drop {flag}"
            )));
        }
    }
    if given("-png") && o.png.is_some() {
        return Err(usage_err(format!(
            "-png with -s {s} ({name}): no figure is drawn for -s 1..4 (three axes): drop -png"
        )));
    }
    if o.solver != SolverKind::Smo {
        return Err(usage_err(format!(
            "--solver {} solves C-SVC (-s 0) only; -s {s} ({name}) runs LIBSVM's SMO: drop --solver",
            o.solver.as_str()
        )));
    }
    if o.reuse.newton || o.reuse.fold_seeding.is_some() {
        return Err(usage_err(format!(
            "--reuse {} with -s {s} ({name}): only the exact levels gamma (one kernel cache per gamma) and threads, and cpath for -s 3, are built for -s 1..4",
            o.reuse.name()
        )));
    }
    if o.reuse.c_path && s != 3 && given("--reuse") {
        return Err(usage_err(format!(
            "--reuse {} with -s {s} ({name}): cpath (warm starts) is built for -s 3 only; only the exact levels gamma (one kernel cache per gamma) and threads are built for -s {s}",
            o.reuse.name()
        )));
    }
    let third = if s == 3 {
        let axis = match &f.log2p {
            Some(t) => Axis::parse("-log2p", t)?,
            None => None,
        };
        Third {
            best_name: "p",
            out_name: "log2p",
            exponent: true,
            searched: axis.is_some(),
            named: match &axis {
                Some(a) => a.values()?.into_iter().map(Some).collect(),
                None => vec![None],
            },
            user: true,
        }
    } else {
        let text =
            f.nu.clone()
                .or_else(|| (s != 4).then(|| DEFAULT_NU.to_string()));
        let named = match text.as_deref() {
            Some("null") | None => vec![None],
            Some(t) => nu_values("-nu", t)?.into_iter().map(Some).collect(),
        };
        Third {
            best_name: "nu",
            out_name: "nu",
            exponent: false,
            searched: named[0].is_some(),
            named,
            user: true,
        }
    };
    Ok(third)
}

/// Whether the epsilon-SVR grid warm-starts: `--reuse` with `cpath`, or
/// `-s 3` without `--reuse` (its default is gamma+cpath+threads).
fn warm_start(o: &Opts) -> bool {
    let given = o.formulation.given.iter().any(|g| g == "--reuse");
    o.svm_type == 3 && (o.reuse.c_path || !given)
}

/// Run `cvbench grid -s 1..4` with parsed options.
pub(super) fn run(o: &Opts) -> anyhow::Result<()> {
    let s = o.svm_type;
    let third = check(o)?;
    // nu-SVC and one-class have no C.
    let c_axis = if s == 1 || s == 2 { None } else { o.c.clone() };
    let named: Vec<NamedPoint> = formulation_points(c_axis.clone(), o.g.clone(), &third.named)?;
    super::outputs::check(&Opts {
        png: None,
        ..o.clone()
    })?;
    let ds = read_libsvm(&o.dataset, None).map_err(|e| {
        anyhow!(
            "dataset not found or unreadable: {}: {e}",
            o.dataset.display()
        )
    })?;
    if o.kernel_type == 4 {
        crate::cli::svm::check_precomputed_file(&o.dataset, &ds).map_err(|e| usage_err(e.0))?;
    }
    let default_gamma = cvbench_engine::api::params::default_gamma(ds.libsvm_max_index());
    let round = |v: f64| {
        if o.exact_params {
            v
        } else {
            f64::from(v as f32)
        }
    };
    let base = base_params(o, default_gamma);
    let mut points: Vec<FormulationPoint> = Vec::with_capacity(named.len());
    for &(lc, lg, t) in &named {
        let params = point_params(o, &base, lc, lg, default_gamma)?;
        // A given -n / -p is read with strtof; svm-train's defaults are doubles.
        let svm_type = match (s, t) {
            (1, Some(nu)) => SvmType::NuSvc { nu: round(nu) },
            (2, Some(nu)) => SvmType::OneClass { nu: round(nu) },
            (3, Some(e)) => SvmType::EpsilonSvr {
                p: round(2f64.powf(e)),
            },
            (3, None) => SvmType::EpsilonSvr { p: 0.1 },
            (4, Some(nu)) => SvmType::NuSvr { nu: round(nu) },
            (4, None) => SvmType::NuSvr { nu: 0.5 },
            _ => SvmType::NuSvc { nu: 0.5 },
        };
        points.push(FormulationPoint {
            c: params.c,
            gamma: params.kernel.gamma().unwrap_or(0.0),
            svm_type,
        });
    }
    let base_parsed = if o.exact_params {
        base.clone()
    } else {
        peer::as_parsed_by_svm_train(&base)
    };
    let template = points
        .first()
        .map_or(SvmType::NuSvc { nu: 0.5 }, |p| p.svm_type);
    let folds = libsvm_folds(&ds, o.fold, template)?;
    let mut out_file = match &o.out {
        Some(p) => Some(OutFile::open(p, false)?),
        None => None,
    };
    let regression = s == 3 || s == 4;
    let mut best = FormulationBest::new(regression);
    let mut best_summary: Option<CvSummary> = None;
    let fmt_third = |v: f64| -> String {
        if third.exponent {
            py_exponent(v, third.user)
        } else {
            py_float(v)
        }
    };
    // The number of a point as printed: grid.py's rate, or svm-train's %g MSE.
    let number = |r: &FormulationPointResult| -> String {
        match r.summary {
            CvSummary::Accuracy { correct, total } => py_float(grid_rate(correct, total)),
            CvSummary::Regression { mse, .. } => format!("mse={}", printf_g(mse)),
        }
    };
    let names = |(lc, lg, t): NamedPoint| -> Vec<String> {
        let user = |a: &Option<Axis>| a.as_ref().is_none_or(|a| a.user);
        let mut v = Vec::new();
        if let Some(c) = lc {
            v.push(py_exponent(c, user(&c_axis)));
        }
        if let Some(g) = lg {
            v.push(py_exponent(g, user(&o.g)));
        }
        if let (Some(t), true) = (t, third.searched) {
            v.push(fmt_third(t));
        }
        v
    };
    let value_of_third = |t: f64| if third.exponent { 2f64.powf(t) } else { t };
    let best_text = |best: &FormulationBest, sum: &Option<CvSummary>| -> Vec<String> {
        let mut v = Vec::new();
        if let Some(c) = best.log2c {
            v.push(format!("c={}", py_float(2f64.powf(c))));
        }
        if let Some(g) = best.log2g {
            v.push(format!("g={}", py_float(2f64.powf(g))));
        }
        if let (Some(t), true) = (best.third, third.searched) {
            v.push(format!(
                "{}={}",
                third.best_name,
                py_float(value_of_third(t))
            ));
        }
        v.push(match sum {
            Some(CvSummary::Accuracy { correct, total }) => {
                format!("rate={}", py_float(grid_rate(*correct, *total)))
            }
            Some(CvSummary::Regression { mse, .. }) => format!("mse={}", printf_g(*mse)),
            None => "rate=nan".into(),
        });
        v
    };
    let mut done: Vec<Option<FormulationPointResult>> = vec![None; points.len()];
    let mut next = 0usize;
    let mut sink = |k: usize, r: FormulationPointResult| -> Result<(), SvmError> {
        if let Some(f) = out_file.as_mut() {
            let (lc, lg, t) = named[k];
            let mut l = String::new();
            if let Some(c) = lc {
                l.push_str(&format!(
                    "log2c={} ",
                    py_exponent(c, c_axis.as_ref().is_none_or(|a| a.user))
                ));
            }
            if let Some(g) = lg {
                l.push_str(&format!(
                    "log2g={} ",
                    py_exponent(g, o.g.as_ref().is_none_or(|a| a.user))
                ));
            }
            if let (Some(t), true) = (t, third.searched) {
                l.push_str(&format!("{}={} ", third.out_name, fmt_third(t)));
            }
            let num = number(&r);
            l.push_str(&if regression {
                num
            } else {
                format!("rate={num}")
            });
            f.write_line(&(l + "\n"))?;
        }
        done[k] = Some(r);
        while next < points.len() {
            let Some(r) = &done[next] else { break };
            let (lc, lg, t) = named[next];
            if best.update(lc, lg, t, r.score()) {
                best_summary = Some(r.summary);
            }
            let mut fields = vec!["[local]".to_string()];
            fields.extend(names(named[next]));
            fields.push(number(r));
            let line = format!(
                "{} (best {})",
                fields.join(" "),
                best_text(&best, &best_summary).join(", ")
            );
            let mut so = std::io::stdout().lock();
            writeln!(so, "{line}")
                .and_then(|_| so.flush())
                .map_err(|source| SvmError::Io {
                    what: "writing grid output".into(),
                    source,
                })?;
            next += 1;
        }
        Ok(())
    };
    // Without the threads level, one training at a time.
    let threads = if o.reuse.threads {
        o.threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
    } else {
        1
    };
    let pool = cvbench_engine::api::params::thread_pool(threads).map_err(|e| anyhow!("{e}"))?;
    let gopts = FormulationGridOptions {
        memory_mb: o.memory_mb,
        shared_cache: o.reuse.gamma_blocks,
        warm_start: warm_start(o),
    };
    pool.install(|| run_formulation_grid(&ds, &folds, &base_parsed, &points, &gopts, &mut sink))?;
    if let Some(f) = out_file {
        f.finish()?;
    }
    // The final line: the best point's values and its number.
    let mut last: Vec<String> = Vec::new();
    if let Some(c) = best.log2c {
        last.push(py_float(2f64.powf(c)));
    }
    if let Some(g) = best.log2g {
        last.push(py_float(2f64.powf(g)));
    }
    if let (Some(t), true) = (best.third, third.searched) {
        last.push(py_float(value_of_third(t)));
    }
    last.push(match best_summary {
        Some(CvSummary::Accuracy { correct, total }) => py_float(grid_rate(correct, total)),
        Some(CvSummary::Regression { mse, .. }) => format!("mse={}", printf_g(mse)),
        None => "nan".into(),
    });
    println!("{}", last.join(" "));
    Ok(())
}
