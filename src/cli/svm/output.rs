//! What `cvbench svm` prints, and where: numbers as `printf("%g")` prints
//! them ([`fmt_g`]) and as JSON ([`jnum`]), and the output ([`Out`]):
//! `svm-train`'s text (quiet or not), our `--stats` lines, or JSON; with the
//! lines of one solve as `svm-train` prints them, the JSON object every call
//! starts from ([`base_json`]) and `--test`'s accuracy ([`tested`]).

use std::path::Path;

use cvbench_engine::api::data::Dataset;
use cvbench_engine::api::params::SvmParams;
use cvbench_engine::api::training::read_model;

use super::args::SvmArgs;

use cvbench_engine::api::training::{
    nonfinite_warning, progress_text, solve_lines, SolveStats, MAX_ITER_WARNING,
};

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

/// Where the output goes: svm-train's text (quiet or not), or JSON.
pub(super) struct Out {
    /// `-q`: no optimisation lines.
    pub(super) quiet: bool,
    /// `--json`: one JSON object instead of text.
    pub(super) json: bool,
    /// `--stats`: our own `[stats]` lines too.
    pub(super) stats: bool,
}

impl Out {
    /// An optimisation line (silenced by -q and --json).
    pub(super) fn info(&self, line: &str) {
        if !self.quiet && !self.json {
            println!("{line}");
        }
    }

    /// A result line (silenced by --json only).
    pub(super) fn result(&self, line: &str) {
        if !self.json {
            println!("{line}");
        }
    }

    /// A `--stats` line.
    pub(super) fn stat(&self, line: &str) {
        if self.stats && !self.json {
            println!("[stats] {line}");
        }
    }

    /// A binary solve's lines, as `svm-train` prints them (its progress
    /// marks, the optimisation lines with `iterations` as `#iter`, `Total
    /// nSV`), and our `--stats` line of its counters.
    pub(super) fn solve(&self, iterations: u64, nu: f64, stats: &SolveStats) {
        self.progress(stats);
        let stats = &SolveStats {
            iterations,
            ..stats.clone()
        };
        for l in solve_lines(stats, Some(nu)) {
            self.info(&l);
        }
        self.info(&format!("Total nSV = {}", stats.n_sv));
        self.stat(&format!(
            "kernel_evals = {}, cache hits/misses = {}/{}, shared fills = {}, \
             shrink events = {} ({} vars), reconstructions = {}, working sets = {}, kkt = {:.3e}, \
             init {:.4}s, train {:.4}s, predict {:.4}s",
            stats.kernel_evals,
            stats.cache_hits,
            stats.cache_misses,
            stats.shared_hits,
            stats.shrink_events,
            stats.shrunk_vars,
            stats.reconstructions,
            stats.working_sets,
            stats.kkt_violation,
            stats.timings.init_s,
            stats.timings.train_s,
            stats.timings.predict_s
        ));
    }

    /// What `svm-train` prints during a solve, before "optimization
    /// finished": its `.` and `*` marks and "WARNING: using -h 0 may be
    /// faster" lines on standard output (not with `-q`), then, where the
    /// iteration limit stopped it, "WARNING: reaching max number of
    /// iterations" on standard error (with `-q` too), and a warning there
    /// where the objective or rho is not finite.
    pub(super) fn progress(&self, stats: &SolveStats) {
        if !stats.progress.is_empty() {
            self.info(&progress_text(stats));
        }
        if stats.hit_max_iter {
            eprintln!("\n{}", MAX_ITER_WARNING);
        }
        if let Some(w) = nonfinite_warning(stats) {
            eprintln!("{w}");
        }
    }
}

/// The `--json` object of a cross-validation's folds and strategy (binary
/// or one-vs-one alike).
pub(super) fn folds_json(
    folds: &cvbench_engine::api::cv::Folds,
    strategy: &cvbench_engine::api::strategies::CvStrategy,
    budget: f64,
) -> serde_json::Value {
    serde_json::json!({
        "k": folds.k(),
        "kind": folds.kind,
        "seeding": strategy.label(),
        "order": strategy.order.as_str(),
        "seeder": strategy.seeder.as_str(),
        "cache": strategy.cache.as_str(),
        "cache_mb": jnum(budget),
        "threads": strategy.threads,
    })
}

/// A number for JSON (`null` when not finite).
pub(super) fn jnum(x: f64) -> serde_json::Value {
    serde_json::Number::from_f64(x).map_or(serde_json::Value::Null, serde_json::Value::Number)
}

/// The JSON object every `cvbench svm` call starts from: the command, the
/// data and the parameters the solver uses.
pub(super) fn base_json(args: &SvmArgs, ds: &Dataset, params: &SvmParams) -> serde_json::Value {
    serde_json::json!({
        "command": "svm",
        "datafile": args.datafile.display().to_string(),
        "rows": ds.n(),
        "features": ds.d(),
        "kernel": params.kernel.name(),
        "c": jnum(params.c),
        "gamma": params.kernel.gamma().map_or(serde_json::Value::Null, jnum),
        "eps": jnum(params.eps),
    })
}

/// `--test`: predict `td` (read from `tpath`) with the model as written to
/// `model_path`, read back (its indices numbered as the test file's), as
/// `svm-predict` does; the accuracy into `json` and its line returned.
pub(super) fn tested(
    model_path: &Path,
    tpath: &Path,
    mut td: Dataset,
    out: &Out,
    json: &mut serde_json::Value,
) -> anyhow::Result<String> {
    let mut model = read_model(model_path)?;
    cvbench_engine::api::data::align_index_bases(&mut model.sv, &mut td);
    let t = std::time::Instant::now();
    let correct = (0..td.n())
        .filter(|&i| model.predict(td.row(i)) == td.y[i])
        .count();
    out.stat(&format!("predict {:.4}s", t.elapsed().as_secs_f64()));
    let pct = 100.0 * correct as f64 / td.n().max(1) as f64;
    json["test"] = serde_json::json!({
        "file": tpath.display().to_string(),
        "accuracy_pct": jnum(pct),
        "correct": correct,
        "total": td.n(),
    });
    Ok(format!(
        "Accuracy = {}% ({correct}/{}) (classification)",
        fmt_g(pct),
        td.n()
    ))
}
