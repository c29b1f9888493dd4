//! `cvbench svm [options] DATAFILE [MODEL_FILE]`: a drop-in for LIBSVM's
//! `svm-train` (`-s 0..4`: C-SVC, nu-SVC, one-class SVM, epsilon-SVR,
//! nu-SVR; kernels `-t 0..3`): the same options, defaults and output
//! (`-s 1..4` in `formulation`). Without `-v` it trains one model, prints what `svm-train` prints
//! and writes the model in LIBSVM's format (to `MODEL_FILE`, by default
//! `DATAFILE`'s file name plus `.model` in the current folder, as
//! `svm-train` does), which `svm-predict` reads. With `-v K` it runs K-fold
//! cross-validation on LIBSVM's own folds (optionally alpha-seeded for
//! C-SVC) and its last lines of output are `svm-train`'s `Cross Validation
//! Accuracy = ...%` (or, for `-s 3/4`, its mean squared error and squared
//! correlation coefficient).
//!
//! Options that do nothing in a given call (`--seeding` without `-v`,
//! `--test` with `-v`, `svm-train` options for models cvbench does not
//! implement) are refused with one line and exit code 2, before any work.

use std::path::{Path, PathBuf};

use crate::peers::libsvm::{self as peer, PeerOutcome, PeerTrain};
use cvbench_engine::api::cv::{run_cv, GlibcRand};
use cvbench_engine::api::data::{read_libsvm, Dataset};
use cvbench_engine::api::params::SvmParams;
use cvbench_engine::api::training::{train, MultiModel};
use cvbench_engine::api::{solver_path, SolverPath};
use model_file::write_model;

mod args;
mod cv_folds;
pub use args::{parse_solver, CvFlags, SvmArgs, SvmUsage};
mod input;
use input::Training;
pub use input::{check_precomputed_file, warn_cast_labels};
mod formulation;
mod model_file;
mod multi;
pub use multi::svm_weight_args;
mod output;
pub use output::fmt_g;
use output::{folds_json, jnum, Out};

/// The parameters the solver uses: as given with `--exact-params`, else as
/// `svm-train` parses them.
fn solver_params(args: &SvmArgs, ds: &Dataset) -> anyhow::Result<(SvmParams, SvmParams)> {
    let kernel = args.kernel_kind(cvbench_engine::api::params::gamma_or_default(
        args.gamma,
        ds.libsvm_max_index(),
    ))?;
    let given = SvmParams {
        kernel,
        c: args.c,
        eps: args.eps,
        cache_mb: args.cache_mb_for(ds.n()),
        shrinking: args.shrinking == 1,
        max_iter: None,
        solver: args.solver,
    };
    let mut params = if args.exact_params {
        given.validate()?;
        given.clone()
    } else {
        peer::as_parsed_checked(&given)?
    };
    if let Some(mb) = args.cv.shared_cache_mb {
        if !(mb.is_finite() && mb > 0.0) {
            return Err(cvbench_engine::api::errors::SvmError::InvalidParam(format!(
                "--shared-cache-mb must be finite and > 0, got {}",
                cvbench_engine::api::params::fmt_param(mb)
            ))
            .into());
        }
    }
    if cvbench_engine::api::params::is_default_gamma(args.gamma) {
        // svm-train computes the default 1/num_features in double.
        params.kernel = params
            .kernel
            .with_gamma(given.kernel.gamma().unwrap_or(0.0));
    }
    Ok((given, params))
}

/// Check, before any training, that the model file can be written and is
/// none of the `inputs` (the same file under any name: a hard or symbolic
/// link is caught by device and inode).
fn check_model_path(path: &Path, inputs: &[(&str, &Path)]) -> Result<(), SvmUsage> {
    if let Some((what, input)) = inputs
        .iter()
        .find(|(_, i)| *i == path || crate::atomic_write::same_file(i, path))
    {
        return Err(SvmUsage(format!(
            "model file {} is the {what} {}: writing the model would destroy it; give another model file",
            path.display(),
            input.display()
        )));
    }
    if path.is_dir() {
        return Err(SvmUsage(format!(
            "model file {} is a folder: give a file name",
            path.display()
        )));
    }
    if let Some(why) = not_to_replace(path) {
        return Err(SvmUsage(format!(
            "model file {} {why}, or give another model file",
            path.display()
        )));
    }
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
    if let Some(p) = parent {
        if !p.is_dir() {
            return Err(SvmUsage(format!(
                "model file {}: folder {} does not exist (create it, or give another path)",
                path.display(),
                p.display()
            )));
        }
    }
    Ok(())
}

/// Why an existing file at the model path must not be replaced, if it must
/// not: it has no write permission (root could still replace it), or it is
/// neither empty nor a LIBSVM model (a data file named by mistake, say by a
/// shell glob that gave two files). A missing file, an empty one and a model
/// (its first line `svm_type ...`) may be replaced.
fn not_to_replace(path: &Path) -> Option<String> {
    use std::io::Read;
    let meta = std::fs::metadata(path).ok()?;
    if meta.permissions().readonly() {
        return Some("is read-only: make it writable to replace it".into());
    }
    if meta.len() == 0 {
        return None;
    }
    let mut head = Vec::with_capacity(9);
    let read = std::fs::File::open(path).and_then(|f| f.take(9).read_to_end(&mut head));
    match read {
        Ok(_) if head == b"svm_type " => None,
        Ok(_) => Some("exists and is not a LIBSVM model (it does not begin with `svm_type`): cvbench replaces only an earlier model, where svm-train would overwrite any file; remove it".into()),
        Err(e) => Some(format!("exists and cannot be read ({e}): remove it")),
    }
}

/// Run the command.
pub fn run(args: &SvmArgs) -> anyhow::Result<()> {
    args.check()?;
    // Files are checked before the work.
    for (what, f) in [
        ("training file", Some(&args.datafile)),
        ("--test", args.test.as_ref()),
    ] {
        if let Some(f) = f {
            input::check_input_file(what, f)?;
        }
    }
    if args.peer {
        input::check_peer_file(&args.datafile)?;
    }
    if args.folds.is_none() {
        let mut inputs = vec![("training file", args.datafile.as_path())];
        inputs.extend(args.test.as_deref().map(|t| ("--test file", t)));
        check_model_path(&args.model_path(), &inputs)?;
    }
    let out = Out {
        quiet: args.quiet,
        json: args.json,
        stats: args.stats,
    };
    if let Some(svm_type) = args.formulation()? {
        // Regression and one-class targets are real numbers: no label cast.
        let ds = if svm_type.is_classification() {
            Training::read(&args.datafile)?.ds
        } else {
            read_libsvm(&args.datafile, None)?
        };
        input::check_precomputed(args, &ds)?;
        let test = match &args.test {
            Some(t) => Some(read_libsvm(t, None)?),
            None => None,
        };
        let (_, params) = solver_params(args, &ds)?;
        return formulation::run(args, svm_type, &ds, test, &params, &out);
    }
    let training = Training::read(&args.datafile)?;
    let ds = &training.ds;
    input::check_precomputed(args, ds)?;
    // The test set is read before training.
    let test = match &args.test {
        Some(t) => Some(read_libsvm(t, None)?),
        None => None,
    };
    let (given, params) = solver_params(args, ds)?;
    let mut json = output::base_json(args, ds, &params);
    json["solver"] = params.solver.as_str().into();
    // More than two classes, or class weights: LIBSVM's one-vs-one path.
    let one_vs_one =
        solver_path(ds, !args.weight.is_empty(), args.probability == "1") == SolverPath::OneVsOne;
    if one_vs_one && args.peer && !args.weight.is_empty() {
        return Err(SvmUsage(
            "--peer does not pass -wi to svm-train: drop --peer, or run svm-train itself".into(),
        )
        .into());
    }
    if args.folds.is_some_and(|k| k > ds.n()) && !args.json {
        eprintln!("{}", cvbench_engine::api::cv::FOLDS_OVER_DATA_WARNING);
    }
    let last = match (one_vs_one, args.folds) {
        (_, Some(k)) if ds.n() == 1 => {
            // svm-train's leave-one-out of one row trains on no rows: no
            // class, no support vector, and its prediction is never the label.
            out.info("Total nSV = 0");
            json["folds"] = serde_json::json!({ "k": k.min(1) });
            json["cv_accuracy_pct"] = jnum(0.0);
            json["correct"] = 0.into();
            Some("Cross Validation Accuracy = 0%".to_string())
        }
        (true, _) => multi::run_multi(args, ds, test, &params, &out, &mut json)?,
        (false, None) => {
            let model_path = args.model_path();
            let rows: Vec<usize> = (0..ds.n()).collect();
            let t = std::time::Instant::now();
            let trained = train(ds, &rows, &params, None)?;
            let secs = t.elapsed().as_secs_f64();
            if trained.single_class {
                out.info("WARNING: training data in only one class. See README for details.");
                out.info("Total nSV = 0");
            } else {
                out.solve(trained.stats.iterations, trained.nu, &trained.stats);
            }
            write_model(&MultiModel::from_binary(&trained.model), &model_path)?;
            json["model_file"] = model_path.display().to_string().into();
            json["iterations"] = trained.stats.iterations.into();
            json["working_sets"] = trained.stats.working_sets.into();
            json["objective"] = jnum(trained.stats.objective);
            json["rho"] = jnum(trained.stats.rho);
            json["n_sv"] = trained.model.n_sv().into();
            json["seconds"] = jnum(secs);
            match (&args.test, test) {
                (Some(tpath), Some(td)) => {
                    Some(output::tested(&model_path, tpath, td, &out, &mut json)?)
                }
                _ => None,
            }
        }
        (false, Some(k)) => {
            let folds = args.cv_folds(ds, k, true, &mut GlibcRand::default_seed())?;
            let (strategy, budget) = args.cv.strategy(args.cache_mb_for(ds.n()));
            cvbench_engine::api::strategies::check_axes(
                strategy.order,
                strategy.seeder,
                folds.k(),
                ds.n(),
            )?;
            let mut cv_params = params.clone();
            cv_params.cache_mb = budget;
            let seeded = run_cv(ds, &folds, &cv_params, &strategy, args.cv.seed.unwrap_or(1))?;
            let res = &seeded.cv;
            // Correct where the prediction equals the label as written.
            let correct = res.correct;
            let accuracy_pct = 100.0 * correct as f64 / ds.n() as f64;
            for r in &res.rounds {
                if r.single_class {
                    out.info("WARNING: training data in only one class. See README for details.");
                    out.info("Total nSV = 0");
                } else {
                    out.solve(r.stats.iterations, r.nu, &r.stats);
                }
            }
            out.stat(&format!("Total #iter = {}", seeded.total_iterations()));
            out.stat(&format!(
                "Seeding = {}, init = {:.6}s, total = {:.6}s",
                strategy.label(),
                seeded.init_seconds(),
                res.wall_s
            ));
            out.stat(&format!(
                "folds = {}, order = {}, seeder = {}, cache = {} ({} MB), threads = {}, round iterations = {}, extra solves = {}, kernel evals = {}, parallel = {}, shared cache = {}",
                folds.kind,
                strategy.order,
                strategy.seeder,
                strategy.cache,
                cvbench_engine::api::params::fmt_param(budget),
                strategy.threads,
                res.total_iterations,
                seeded.extra.len(),
                res.total_kernel_evals,
                if seeded.parallel { "yes" } else { "no" },
                if seeded.shared_cache { "yes" } else { "no" }
            ));
            let predict_s: f64 = res.rounds.iter().map(|r| r.stats.timings.predict_s).sum();
            let share = |s: f64| 100.0 * s / res.wall_s.max(1e-12);
            out.stat(&format!(
                "time: wall {:.3}s, seeding {:.3}s ({:.1}%), prediction {:.3}s ({:.1}%)",
                res.wall_s,
                seeded.seed_seconds(),
                share(seeded.seed_seconds()),
                predict_s,
                share(predict_s)
            ));
            json["folds"] = folds_json(&folds, &strategy, budget);
            json["cv_accuracy_pct"] = jnum(accuracy_pct);
            json["correct"] = correct.into();
            json["iterations"] = seeded.total_iterations().into();
            json["seconds"] = jnum(res.wall_s);
            Some(format!(
                "Cross Validation Accuracy = {}%",
                fmt_g(accuracy_pct)
            ))
        }
    };
    if args.peer {
        let line = run_peer(args, &given)?;
        json["peer"] = line.clone().into();
        out.result(&line);
    }
    if let Some(l) = last {
        out.result(&l);
    }
    if args.json {
        println!("{json}");
    }
    Ok(())
}

/// Run `svm-train` with the same options; one line saying what it printed.
fn run_peer(args: &SvmArgs, given: &SvmParams) -> anyhow::Result<String> {
    let (plain, _temp) = args.datafile_plain()?;
    // svm-train writes a model without -v: into a temporary file, not beside ours.
    let model_tmp = if args.folds.is_none() {
        Some(
            crate::interrupt::TempFile::with_contents("cvbench-svm-peer-", ".model", b"").map_err(
                |source| cvbench_engine::api::errors::SvmError::Io {
                    what: "creating a temporary model file for svm-train".into(),
                    source,
                },
            )?,
        )
    } else {
        None
    };
    // svm-train's own default gamma (1/num_features in double, from the
    // same file): `-g 0`, as a run without -g.
    let mut given = given.clone();
    if cvbench_engine::api::params::is_default_gamma(args.gamma) && given.kernel.gamma().is_some() {
        given.kernel = given.kernel.with_gamma(0.0);
    }
    let outcome = peer::run_svm_train(
        &plain,
        &given,
        args.folds,
        model_tmp.as_ref().map(|t| t.path()),
    )?;
    Ok(match outcome {
        PeerOutcome::Ran(t) => peer_line(&t),
        PeerOutcome::Skipped(s) => format!("[svm-train] {s}"),
    })
}

/// `svm-train`'s results on one line, without Rust formatting.
fn peer_line(t: &PeerTrain) -> String {
    let mut s = match (t.iterations.as_slice(), t.obj.as_slice(), t.n_sv.as_slice()) {
        ([it], [obj], [nsv]) => format!("[svm-train] #iter = {it}, obj = {obj:.6}, nSV = {nsv}"),
        (its, _, _) => format!(
            "[svm-train] Total #iter = {} ({} solves)",
            its.iter().sum::<u64>(),
            its.len()
        ),
    };
    if let Some(a) = t.cv_accuracy_pct {
        s.push_str(&format!(", CV accuracy = {}%", fmt_g(a)));
    }
    s.push_str(&format!(", wall {:.4}s", t.wall_s));
    s
}

impl SvmArgs {
    /// The data file as `svm-train` can read it: the file itself, or a
    /// decompressed temporary copy (removed when the returned guard drops,
    /// also on error or Ctrl-C).
    fn datafile_plain(&self) -> anyhow::Result<(PathBuf, Option<crate::interrupt::TempFile>)> {
        use cvbench_engine::api::files::Compression;
        if Compression::from_path(&self.datafile) == Compression::None {
            return Ok((self.datafile.clone(), None));
        }
        let bytes = cvbench_engine::api::files::read_all(&self.datafile)?;
        let tmp = crate::interrupt::TempFile::with_contents("cvbench-svm-peer-", ".libsvm", &bytes)
            .map_err(|source| cvbench_engine::api::errors::SvmError::Io {
                what: "writing a decompressed copy for svm-train".into(),
                source,
            })?;
        Ok((tmp.path().to_path_buf(), Some(tmp)))
    }
}

#[cfg(test)]
mod tests;
