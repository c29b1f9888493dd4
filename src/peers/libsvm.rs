//! LIBSVM as a peer: run `svm-train` / `svm-predict` (LIBSVM 3.24, Debian's
//! `libsvm-tools`) on exactly our training folds and parse what they print.
//!
//! The folds are written with the LibSVM writer (shortest round-trip floats,
//! so `svm-train` reads the very same doubles). `gamma` is always passed
//! explicitly, because `svm-train`'s default `1/num_features` would use the
//! largest index present in the fold file. Wall times are those of the
//! processes, file parsing included.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use cvbench_engine::api::data::{write_libsvm, Dataset};
use cvbench_engine::api::errors::SvmError;
use cvbench_engine::api::params::{ClassWeight, KernelKind, SvmParams};

/// The message printed when `svm-train` is missing.
pub const SKIPPED_NO_SVM_TRAIN: &str = "skipped: svm-train not found (make peers installs it)";

/// A peer run, or the reason it was skipped.
#[derive(Clone, Debug, PartialEq)]
pub enum PeerOutcome<T> {
    /// The peer ran.
    Ran(T),
    /// The peer could not run (e.g. not installed); the message says why.
    Skipped(String),
}

/// What `svm-train` printed: one entry per solve (one for a plain run, `k`
/// with `-v k`), and the CV accuracy with `-v`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PeerTrain {
    /// `#iter` of each solve.
    pub iterations: Vec<u64>,
    /// `obj` of each solve.
    pub obj: Vec<f64>,
    /// `rho` of each solve.
    pub rho: Vec<f64>,
    /// `nSV` of each solve.
    pub n_sv: Vec<usize>,
    /// `nBSV` of each solve.
    pub n_bsv: Vec<usize>,
    /// `Cross Validation Accuracy` in percent (with `-v`).
    pub cv_accuracy_pct: Option<f64>,
    /// Wall-clock seconds of the process.
    pub wall_s: f64,
}

/// What `svm-predict` printed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PeerPredict {
    /// Accuracy in percent.
    pub accuracy_pct: f64,
    /// Correct predictions.
    pub correct: usize,
    /// Predicted rows.
    pub total: usize,
    /// Wall-clock seconds of the process.
    pub wall_s: f64,
}

/// One training fold run through `svm-train` and its held-out fold through
/// `svm-predict`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PeerFold {
    /// The training run.
    pub train: PeerTrain,
    /// The prediction run (None when the test fold is empty).
    pub predict: Option<PeerPredict>,
}

/// The path of a program on `PATH`, if any.
pub fn find_program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Whether `svm-train` and `svm-predict` are installed.
pub fn available() -> bool {
    find_program("svm-train").is_some() && find_program("svm-predict").is_some()
}

/// The parameters `svm-train` actually uses when given `params` on its
/// command line. Debian's `libsvm-tools` 3.24+ds parses the numeric options
/// (`-c`, `-g`, `-e`, `-m`, ...) with `strtof`, i.e. rounds them to `f32`
/// (found by tracing its `exp` arguments: `-g 0.2` gives
/// `gamma = 0.20000000298...`; with the rounded values our solver reproduces
/// its iterations and objective exactly). Comparisons with the peer run our
/// solver on these values; `gamma = 1/num_features` (no `-g`) is computed in
/// double by `svm-train`, but we always pass `-g`.
pub fn as_parsed_by_svm_train(params: &SvmParams) -> SvmParams {
    let r = |v: f64| f64::from(v as f32);
    SvmParams {
        kernel: match params.kernel {
            KernelKind::Linear => KernelKind::Linear,
            KernelKind::Precomputed => KernelKind::Precomputed,
            KernelKind::Rbf { gamma } => KernelKind::Rbf { gamma: r(gamma) },
            KernelKind::Poly {
                gamma,
                degree,
                coef0,
            } => KernelKind::Poly {
                gamma: r(gamma),
                degree,
                coef0: r(coef0),
            },
            KernelKind::Sigmoid { gamma, coef0 } => KernelKind::Sigmoid {
                gamma: r(gamma),
                coef0: r(coef0),
            },
        },
        c: r(params.c),
        eps: r(params.eps),
        cache_mb: r(params.cache_mb),
        ..params.clone()
    }
}

/// Class weights as `svm-train` reads `-wLABEL WEIGHT`: the weight in
/// single precision (as `-c`, [`as_parsed_by_svm_train`]).
pub fn weights_as_parsed_by_svm_train(weights: &[ClassWeight]) -> Vec<ClassWeight> {
    weights
        .iter()
        .map(|w| ClassWeight {
            label: w.label,
            weight: f64::from(w.weight as f32),
        })
        .collect()
}

/// `svm-train`'s options for class weights: `-wLABEL WEIGHT` each, in the
/// order given.
pub fn svm_train_weight_args(weights: &[ClassWeight]) -> Vec<String> {
    weights
        .iter()
        .flat_map(|w| [format!("-w{}", w.label), format!("{}", w.weight)])
        .collect()
}

/// [`as_parsed_by_svm_train`] for parameters a user gave: checks them
/// ([`SvmParams::validate`]) and fails, naming the value as given, when single
/// precision turns a valid value into 0 or infinity (`-c 1e-50`, `-c 1e300`).
pub fn as_parsed_checked(given: &SvmParams) -> Result<SvmParams, SvmError> {
    given.validate()?;
    let p = as_parsed_by_svm_train(given);
    let gamma = |k: &KernelKind| k.gamma().unwrap_or(1.0);
    for (what, g, r) in [
        ("C", given.c, p.c),
        ("eps", given.eps, p.eps),
        ("cache size (MB)", given.cache_mb, p.cache_mb),
        ("gamma", gamma(&given.kernel), gamma(&p.kernel)),
    ] {
        if g != 0.0 && (r == 0.0 || !r.is_finite()) {
            return Err(SvmError::InvalidParam(format!(
                "{what} = {} is {} in single precision, which is how svm-train reads it: use a value between 1.2e-38 and 3.4e38, or exact parameters (`cvbench svm --exact-params`; `libsvm_float_params = false` in a config)",
                cvbench_engine::api::params::fmt_param(g),
                if r == 0.0 { "0" } else { "infinite" }
            )));
        }
    }
    Ok(p)
}

/// `svm-train` options equivalent to `params` (C-SVC, explicit gamma).
pub fn svm_train_args(params: &SvmParams) -> Vec<String> {
    let mut a = vec![
        "-s".to_string(),
        "0".into(),
        "-t".into(),
        params.kernel.libsvm_code().to_string(),
        "-c".into(),
        format!("{}", params.c),
    ];
    if let Some(gamma) = params.kernel.gamma() {
        a.push("-g".into());
        a.push(format!("{gamma}"));
    }
    if let KernelKind::Poly { degree, .. } = params.kernel {
        a.extend(["-d".into(), degree.to_string()]);
    }
    if let KernelKind::Poly { coef0, .. } | KernelKind::Sigmoid { coef0, .. } = params.kernel {
        a.extend(["-r".into(), format!("{coef0}")]);
    }
    a.extend([
        "-e".into(),
        format!("{}", params.eps),
        "-m".into(),
        format!("{}", params.cache_mb),
        "-h".into(),
        if params.shrinking { "1" } else { "0" }.into(),
    ]);
    a
}

fn value_after<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let p = line.find(key)? + key.len();
    let rest = line[p..].trim_start();
    let end = rest
        .find(|c: char| c == ',' || c == '%' || c.is_whitespace())
        .unwrap_or(rest.len());
    Some(&rest[..end])
}

fn parse_num<T: std::str::FromStr>(s: Option<&str>, line: &str) -> Result<T, SvmError> {
    s.and_then(|v| v.parse().ok())
        .ok_or_else(|| SvmError::Peer(format!("cannot parse svm-train line `{line}`")))
}

/// Parse `svm-train`'s standard output.
pub fn parse_svm_train_output(text: &str) -> Result<PeerTrain, SvmError> {
    let mut t = PeerTrain::default();
    for line in text.lines() {
        let line = line.trim_start_matches(['.', '*']);
        if line.starts_with("optimization finished") {
            t.iterations
                .push(parse_num(value_after(line, "#iter ="), line)?);
        } else if line.starts_with("obj =") {
            t.obj.push(parse_num(value_after(line, "obj ="), line)?);
            t.rho.push(parse_num(value_after(line, "rho ="), line)?);
        } else if line.starts_with("nSV =") {
            t.n_sv.push(parse_num(value_after(line, "nSV ="), line)?);
            t.n_bsv.push(parse_num(value_after(line, "nBSV ="), line)?);
        } else if line.starts_with("Cross Validation Accuracy =") {
            t.cv_accuracy_pct = Some(parse_num(
                value_after(line, "Cross Validation Accuracy ="),
                line,
            )?);
        }
    }
    Ok(t)
}

/// Parse `svm-predict`'s `Accuracy = 85.1852% (23/27) (classification)`.
pub fn parse_svm_predict_output(text: &str) -> Result<PeerPredict, SvmError> {
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("Accuracy = ") {
            let bad = || SvmError::Peer(format!("cannot parse svm-predict line `{line}`"));
            let pct_end = rest.find('%').ok_or_else(bad)?;
            let accuracy_pct: f64 = rest[..pct_end].parse().map_err(|_| bad())?;
            let open = rest.find('(').ok_or_else(bad)?;
            let close = rest.find(')').ok_or_else(bad)?;
            let (c, n) = rest[open + 1..close].split_once('/').ok_or_else(bad)?;
            return Ok(PeerPredict {
                accuracy_pct,
                correct: c.parse().map_err(|_| bad())?,
                total: n.parse().map_err(|_| bad())?,
                wall_s: 0.0,
            });
        }
    }
    Err(SvmError::Peer(format!(
        "no `Accuracy =` line in svm-predict output: {text}"
    )))
}

fn run(program: &str, args: &[String]) -> Result<(String, f64), SvmError> {
    let t = Instant::now();
    let out =
        crate::interrupt::output(Command::new(program).args(args)).map_err(|e| SvmError::Io {
            what: format!("running {program}"),
            source: e,
        })?;
    let wall = t.elapsed().as_secs_f64();
    if !out.status.success() {
        return Err(SvmError::Peer(format!(
            "{program} {} failed ({}): {}",
            args.join(" "),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    Ok((String::from_utf8_lossy(&out.stdout).into_owned(), wall))
}

/// Run `svm-train` on a LibSVM file, with `-v k` when `cv_folds` is given,
/// writing the model to `model_out` otherwise (or, without `model_out`,
/// beside the data file as `<data_file>.model`: never into the current
/// folder, where svm-train itself would put it).
pub fn run_svm_train(
    data_file: &Path,
    params: &SvmParams,
    cv_folds: Option<usize>,
    model_out: Option<&Path>,
) -> Result<PeerOutcome<PeerTrain>, SvmError> {
    run_svm_train_weighted(data_file, params, &[], cv_folds, model_out)
}

/// [`run_svm_train`] with class weights (`-wLABEL WEIGHT`, passed as given).
pub fn run_svm_train_weighted(
    data_file: &Path,
    params: &SvmParams,
    weights: &[ClassWeight],
    cv_folds: Option<usize>,
    model_out: Option<&Path>,
) -> Result<PeerOutcome<PeerTrain>, SvmError> {
    if find_program("svm-train").is_none() {
        return Ok(PeerOutcome::Skipped(SKIPPED_NO_SVM_TRAIN.into()));
    }
    let mut args = svm_train_args(params);
    args.extend(svm_train_weight_args(weights));
    if let Some(k) = cv_folds {
        args.push("-v".into());
        args.push(k.to_string());
    }
    args.push(data_file.display().to_string());
    if cv_folds.is_none() {
        let beside = PathBuf::from(format!("{}.model", data_file.display()));
        args.push(model_out.unwrap_or(&beside).display().to_string());
    }
    let (stdout, wall) = run("svm-train", &args)?;
    let mut t = parse_svm_train_output(&stdout)?;
    t.wall_s = wall;
    Ok(PeerOutcome::Ran(t))
}

/// Run `svm-predict` and parse its accuracy.
pub fn run_svm_predict(
    test_file: &Path,
    model_file: &Path,
    output_file: &Path,
) -> Result<PeerOutcome<PeerPredict>, SvmError> {
    if find_program("svm-predict").is_none() {
        return Ok(PeerOutcome::Skipped(
            "skipped: svm-predict not found (make peers installs it)".into(),
        ));
    }
    let args = vec![
        test_file.display().to_string(),
        model_file.display().to_string(),
        output_file.display().to_string(),
    ];
    let (stdout, wall) = run("svm-predict", &args)?;
    let mut p = parse_svm_predict_output(&stdout)?;
    p.wall_s = wall;
    Ok(PeerOutcome::Ran(p))
}

/// Write rows of `ds` to a LibSVM file.
pub fn write_rows(ds: &Dataset, rows: &[usize], path: &Path) -> Result<(), SvmError> {
    let f = std::fs::File::create(path).map_err(|e| SvmError::Io {
        what: format!("creating {}", path.display()),
        source: e,
    })?;
    write_libsvm(ds, rows, f)?;
    Ok(())
}

/// Train `svm-train` on `train_rows` and predict `test_rows` with
/// `svm-predict`, through files in `workdir` (named with `tag`).
pub fn run_fold(
    ds: &Dataset,
    train_rows: &[usize],
    test_rows: &[usize],
    params: &SvmParams,
    workdir: &Path,
    tag: &str,
) -> Result<PeerOutcome<PeerFold>, SvmError> {
    run_fold_weighted(ds, [train_rows, test_rows], params, &[], workdir, tag)
}

/// [`run_fold`] with class weights (`-wLABEL WEIGHT`, passed as given):
/// `rows` are the training and the held-out rows.
pub fn run_fold_weighted(
    ds: &Dataset,
    [train_rows, test_rows]: [&[usize]; 2],
    params: &SvmParams,
    weights: &[ClassWeight],
    workdir: &Path,
    tag: &str,
) -> Result<PeerOutcome<PeerFold>, SvmError> {
    if !available() {
        return Ok(PeerOutcome::Skipped(SKIPPED_NO_SVM_TRAIN.into()));
    }
    let train_file = workdir.join(format!("{tag}.train"));
    let test_file = workdir.join(format!("{tag}.test"));
    let model_file = workdir.join(format!("{tag}.model"));
    let out_file = workdir.join(format!("{tag}.out"));
    write_rows(ds, train_rows, &train_file)?;
    let train = match run_svm_train_weighted(&train_file, params, weights, None, Some(&model_file))?
    {
        PeerOutcome::Ran(t) => t,
        PeerOutcome::Skipped(s) => return Ok(PeerOutcome::Skipped(s)),
    };
    let predict = if test_rows.is_empty() {
        None
    } else {
        write_rows(ds, test_rows, &test_file)?;
        match run_svm_predict(&test_file, &model_file, &out_file)? {
            PeerOutcome::Ran(p) => Some(p),
            PeerOutcome::Skipped(s) => return Ok(PeerOutcome::Skipped(s)),
        }
    };
    Ok(PeerOutcome::Ran(PeerFold { train, predict }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_svm_train_and_predict_output() {
        let text = "..*.*\noptimization finished, #iter = 958\nnu = 0.002565\n\
                    obj = -755.790528, rho = 0.525890\nnSV = 128, nBSV = 0\nTotal nSV = 128\n\
                    Cross Validation Accuracy = 77.037%\n";
        let t = parse_svm_train_output(text).unwrap();
        assert_eq!(t.iterations, vec![958]);
        assert_eq!(t.obj, vec![-755.790528]);
        assert_eq!(t.rho, vec![0.525890]);
        assert_eq!((t.n_sv[0], t.n_bsv[0]), (128, 0));
        assert_eq!(t.cv_accuracy_pct, Some(77.037));
        let p = parse_svm_predict_output("Accuracy = 85.1852% (23/27) (classification)\n").unwrap();
        assert_eq!((p.correct, p.total), (23, 27));
        assert!((p.accuracy_pct - 85.1852).abs() < 1e-9);
    }

    #[test]
    fn args_mirror_params() {
        let a = svm_train_args(&SvmParams::rbf(2182.0, 0.2));
        assert_eq!(a.join(" "), "-s 0 -t 2 -c 2182 -g 0.2 -e 0.001 -m 100 -h 1");
        let mut p = SvmParams::rbf(1.0, 0.5);
        p.kernel = KernelKind::Poly {
            gamma: 0.5,
            degree: 2,
            coef0: 1.5,
        };
        let w = [ClassWeight {
            label: 1,
            weight: 2.0,
        }];
        let mut a = svm_train_args(&p);
        a.extend(svm_train_weight_args(&w));
        assert_eq!(
            a.join(" "),
            "-s 0 -t 1 -c 1 -g 0.5 -d 2 -r 1.5 -e 0.001 -m 100 -h 1 -w1 2"
        );
    }
}
