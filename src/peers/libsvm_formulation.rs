//! LIBSVM's `svm-train -s 1..4` (nu-SVC, one-class, epsilon-SVR, nu-SVR)
//! as a peer: the C-SVC options of [`super::libsvm::svm_train_args`] with
//! the formulation's `-s` and its own parameter (`-n nu`, `-p epsilon`),
//! with `-v k` or one training, and what it prints parsed: each solve's
//! iterations, objective, rho and support vectors, and `-v k`'s summary
//! (the accuracy for `-s 1/2`, the mean squared error and squared
//! correlation coefficient for `-s 3/4`) with its lines kept verbatim, so
//! that a caller can compare them with ours character for character.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use super::libsvm::{
    find_program, parse_svm_train_output, svm_train_args, PeerOutcome, PeerTrain,
    SKIPPED_NO_SVM_TRAIN,
};
use cvbench_engine::api::errors::SvmError;
use cvbench_engine::api::formulation::SvmType;
use cvbench_engine::api::params::SvmParams;

/// What one `svm-train -s N` run printed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FormulationTrain {
    /// Each solve's numbers, `-v k`'s accuracy, and the process's seconds.
    pub train: PeerTrain,
    /// `Cross Validation Mean squared error = ...` (`-s 3/4 -v k`).
    pub mse: Option<f64>,
    /// `Cross Validation Squared correlation coefficient = ...`.
    pub squared_correlation: Option<f64>,
    /// The `Cross Validation ...` lines as printed.
    pub summary_lines: Vec<String>,
}

/// The options of `svm-train -s N` for `params` and `svm_type` (its `-n`
/// or `-p` written as given: round them as `svm-train` parses them first
/// where ours must see the same numbers).
pub fn formulation_args(params: &SvmParams, svm_type: SvmType) -> Vec<String> {
    let mut a = svm_train_args(params);
    if let Some(i) = a.iter().position(|x| x == "-s") {
        a[i + 1] = svm_type.number().to_string();
    }
    match svm_type {
        SvmType::CSvc => {}
        SvmType::NuSvc { nu } | SvmType::OneClass { nu } | SvmType::NuSvr { nu } => {
            a.extend(["-n".into(), format!("{nu}")]);
        }
        SvmType::EpsilonSvr { p } => a.extend(["-p".into(), format!("{p}")]),
    }
    a
}

/// Parse `svm-train -s N`'s standard output.
pub fn parse_formulation_output(text: &str) -> Result<FormulationTrain, SvmError> {
    let train = parse_svm_train_output(text)?;
    let mut out = FormulationTrain {
        train,
        ..FormulationTrain::default()
    };
    for line in text.lines() {
        if !line.starts_with("Cross Validation") {
            continue;
        }
        out.summary_lines.push(line.to_string());
        let value =
            |key: &str| -> Result<Option<f64>, SvmError> {
                match line.strip_prefix(key) {
                    Some(v) => v.trim().parse().map(Some).map_err(|_| {
                        SvmError::Peer(format!("cannot parse svm-train line `{line}`"))
                    }),
                    None => Ok(None),
                }
            };
        if let Some(v) = value("Cross Validation Mean squared error =")? {
            out.mse = Some(v);
        }
        if let Some(v) = value("Cross Validation Squared correlation coefficient =")? {
            out.squared_correlation = Some(v);
        }
    }
    Ok(out)
}

/// Run `svm-train -s N` on a LibSVM file: `-v k` with `cv_folds`, else one
/// training writing its model to `model_out` (or beside the data file).
pub fn run_svm_train_formulation(
    data_file: &Path,
    params: &SvmParams,
    svm_type: SvmType,
    cv_folds: Option<usize>,
    model_out: Option<&Path>,
) -> Result<PeerOutcome<FormulationTrain>, SvmError> {
    let Some(program) = find_program("svm-train") else {
        return Ok(PeerOutcome::Skipped(SKIPPED_NO_SVM_TRAIN.into()));
    };
    let mut args = formulation_args(params, svm_type);
    if let Some(k) = cv_folds {
        args.extend(["-v".into(), k.to_string()]);
    }
    args.push(data_file.display().to_string());
    if cv_folds.is_none() {
        let beside = PathBuf::from(format!("{}.model", data_file.display()));
        args.push(model_out.unwrap_or(&beside).display().to_string());
    }
    let t = Instant::now();
    let out =
        crate::interrupt::output(Command::new(&program).args(&args)).map_err(|e| SvmError::Io {
            what: "running svm-train".into(),
            source: e,
        })?;
    let wall = t.elapsed().as_secs_f64();
    if !out.status.success() {
        return Err(SvmError::Peer(format!(
            "svm-train {} failed ({}): {}",
            args.join(" "),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    let mut parsed = parse_formulation_output(&String::from_utf8_lossy(&out.stdout))?;
    parsed.train.wall_s = wall;
    Ok(PeerOutcome::Ran(parsed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn args_carry_the_formulation_and_its_parameter() {
        let p = SvmParams::rbf(4.0, 0.5);
        let a = formulation_args(&p, SvmType::EpsilonSvr { p: 0.25 });
        assert_eq!(a[..2], ["-s", "3"]);
        assert!(a.ends_with(&["-p".to_string(), "0.25".to_string()]));
        let a = formulation_args(&p, SvmType::NuSvc { nu: 0.5 });
        assert_eq!(a[..2], ["-s", "1"]);
        assert!(a.ends_with(&["-n".to_string(), "0.5".to_string()]));
    }

    #[test]
    fn reads_the_regression_summary() {
        let text = "*\noptimization finished, #iter = 12\nnu = 0.5\nobj = -3.5, rho = 0.25\nnSV = 7, nBSV = 3\n\
                    Cross Validation Mean squared error = 0.434375\n\
                    Cross Validation Squared correlation coefficient = 0.684392\n";
        let t = parse_formulation_output(text).unwrap();
        assert_eq!(t.train.iterations, [12]);
        assert_eq!(t.mse, Some(0.434375));
        assert_eq!(t.squared_correlation, Some(0.684392));
        assert_eq!(t.summary_lines.len(), 2);
        assert_eq!(t.train.cv_accuracy_pct, None);
    }
}
