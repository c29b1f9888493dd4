//! What `svm-train` prints of a solve, from the engine's counters: one
//! place for the command line and the Python package's `verbose`.

use crate::svm::smo::solve_stats::SolveStats;

/// `svm-train`'s warning where the iteration limit stopped a solve (it
/// writes it on standard error, with `-q` too).
pub const MAX_ITER_WARNING: &str = "WARNING: reaching max number of iterations";

/// `svm-train`'s warning at a gradient reconstruction with few free
/// variables.
pub const H0_WARNING: &str = "WARNING: using -h 0 may be faster";

/// The solve's progress as `svm-train` prints it before "optimization
/// finished": its `.` and `*` marks with the `-h 0` warnings between them
/// (each on a line of its own); empty where the solver printed nothing
/// (the batched solver).
pub fn progress_text(stats: &SolveStats) -> String {
    let mut text = String::with_capacity(stats.progress.len());
    for c in stats.progress.chars() {
        match c {
            'W' => {
                text.push('\n');
                text.push_str(H0_WARNING);
                text.push('\n');
            }
            c => text.push(c),
        }
    }
    text
}

/// The lines after the progress: "optimization finished", `nu` (only
/// where given: both classes with the same C), the objective and rho, the
/// support vectors.
pub fn solve_lines(stats: &SolveStats, nu: Option<f64>) -> Vec<String> {
    named_solve_lines(stats, nu.map(|v| ("nu", v)))
}

/// The lines after the progress, with the value the solver prints between
/// "optimization finished" and the objective (`nu = `, or for LIBSVM's
/// other formulations `C = `, `epsilon = `), where given.
pub(crate) fn named_solve_lines(stats: &SolveStats, info: Option<(&str, f64)>) -> Vec<String> {
    let mut out = vec![format!(
        "optimization finished, #iter = {}",
        stats.iterations
    )];
    if let Some((name, v)) = info {
        out.push(format!("{name} = {v:.6}"));
    }
    out.push(format!(
        "obj = {:.6}, rho = {:.6}",
        stats.objective, stats.rho
    ));
    out.push(format!("nSV = {}, nBSV = {}", stats.n_sv, stats.n_bsv));
    out
}

/// A warning where the solve's objective or rho is not finite (a kernel
/// that overflows at its parameters).
pub fn nonfinite_warning(stats: &SolveStats) -> Option<String> {
    (!stats.objective.is_finite() || !stats.rho.is_finite()).then(|| {
        format!(
            "WARNING: the solve ended with obj = {}, rho = {}: the kernel values overflow at these \
             parameters (a large degree or gamma with the polynomial kernel, or unscaled data), so \
             the model predicts nothing useful: lower the degree or gamma, or scale the data",
            stats.objective, stats.rho
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_marks_and_warnings_read_as_svm_train_prints_them() {
        let stats = SolveStats {
            progress: "..W*".into(),
            iterations: 2100,
            objective: -1.5,
            rho: 0.25,
            n_sv: 3,
            n_bsv: 1,
            ..Default::default()
        };
        assert_eq!(progress_text(&stats), format!("..\n{H0_WARNING}\n*"));
        assert_eq!(
            solve_lines(&stats, Some(0.5)),
            vec![
                "optimization finished, #iter = 2100",
                "nu = 0.500000",
                "obj = -1.500000, rho = 0.250000",
                "nSV = 3, nBSV = 1"
            ]
        );
        assert!(nonfinite_warning(&stats).is_none());
        let nan = SolveStats {
            objective: f64::NAN,
            ..stats
        };
        assert!(nonfinite_warning(&nan).unwrap().contains("obj = NaN"));
    }
}
