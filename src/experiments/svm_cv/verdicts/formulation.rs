//! Verdicts of an `svm_cv` run of a formulation other than C-SVC (issue
//! 56), checks of ours counted apart from the papers: our unseeded CV
//! equals `svm-train -s N -v k` (the same `Cross Validation` lines and SMO
//! iterations on the same folds), a seeded CV is within tolerance of the
//! unseeded one, the seeded against the unseeded time (same run, threads
//! and cache budget: like with like), and the speed targets
//! against `svm-train -v k` and oneDAL. Every timing verdict goes through
//! the one evidence rule ([`crate::experiments::evidence`]).

use crate::experiments::evidence::{self, Ratio, Side};
use crate::experiments::svm_cv::formulation::rows::{runs, FormulationRow, RunRow};
use crate::experiments::svm_cv::verdicts::targets::judged;
use crate::results::scorecard::{Counted, DataUsed, ScoreRow, StoredRun, Verdict};

/// Who the rows are checks of.
const WHO: &str = "cvbench engine (issue 56)";

/// A seeded CV's MSE (or accuracy, in points) within this relative
/// distance of the unseeded one's: seeded rounds stop at the solver's
/// tolerance, not at svm-train's exact iterate (the engine's own test
/// uses the same bound).
pub const SEEDED_REL_TOL: f64 = 1e-2;

/// The speed targets for a formulation on a dataset, fixed before
/// any run: at least this many times faster than `svm-train -v k`, than
/// oneDAL's CV, and one training at most this share of oneDAL's fit
/// (`None`: no target, the ratio is shown against 1). epsilon-SVR's are
/// set on cadata, nu-SVC's on a9a; elsewhere the ratios are shown only.
pub fn targets(svm_type: &str, dataset: &str) -> (Option<f64>, Option<f64>, Option<f64>) {
    match (svm_type, dataset) {
        ("epsilon_svr", "cadata_scale" | "cadata") => (Some(20.0), Some(3.0), Some(0.8)),
        ("nu_svc", "a9a") => (Some(15.0), None, None),
        _ => (None, None, None),
    }
}

/// The title of a formulation run's report section (its anchor is the
/// scorecard's link).
pub fn section_title(run: &str) -> String {
    format!("Run `{run}`")
}

/// One verdict line: its words, and the scorecard's row of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The Markdown list item (without the leading `- `).
    pub text: String,
    /// What is checked, for the scorecard's artifact column.
    pub artifact: String,
    /// The target or the claim.
    pub want: String,
    /// Ours, with the numbers.
    pub ours: String,
    /// The verdict.
    pub verdict: Verdict,
    /// Whether the scorecard counts it (a claim: exactness, tolerance or a
    /// target; a ratio shown against 1 without a target is not).
    pub scored: bool,
}

fn verdict_of(side: Side, want: Side) -> Verdict {
    match side {
        Side::Inconclusive => Verdict::Inconclusive,
        s if s == want => Verdict::Reproduced,
        _ => Verdict::NotReproduced,
    }
}

/// A speed line: `slow`'s time over `fast`'s against `threshold`.
fn speed(at: &str, what: &str, x: &Ratio, threshold: Option<f64>, want: Side) -> Line {
    let (t, target) = match threshold {
        Some(t) => (
            t,
            format!(
                "target {} {t}x",
                if want == Side::Above {
                    "at least"
                } else {
                    "at most"
                }
            ),
        ),
        None => (1.0, "no target: against 1".to_string()),
    };
    // Without a target: "faster" when the ratio lies on the side `want`
    // names (ours the faster), "slower" on the other.
    let answer = match (threshold, x.side(t)) {
        (None, Side::Inconclusive) | (Some(_), _) => judged(x, t, want),
        (None, s) if s == want => "faster".to_string(),
        (None, _) => "slower".to_string(),
    };
    Line {
        text: format!("{at}: {what} {} ({target}): {answer}", x.short()),
        artifact: format!("{at}: {what}"),
        want: target,
        ours: x.words(),
        verdict: verdict_of(x.side(t), want),
        scored: threshold.is_some(),
    }
}

fn metric_close(a: &RunRow, b: &RunRow) -> Option<(f64, f64)> {
    match (
        a.row.cv_mse,
        b.row.cv_mse,
        a.row.cv_accuracy_pct,
        b.row.cv_accuracy_pct,
    ) {
        (Some(x), Some(y), _, _) => Some((x, y)),
        (_, _, Some(x), Some(y)) => Some((x, y)),
        _ => None,
    }
}

/// Every verdict line of a formulation run's rows, by (dataset, setting, k).
pub fn lines(rows: &[FormulationRow]) -> Vec<Line> {
    let mut out = Vec::new();
    for ((d, s, k), by) in runs(rows) {
        let Some(first) = by.values().next() else {
            continue;
        };
        let svm_type = first.row.svm_type.clone();
        let (vs_train_t, vs_onedal_t, fit_t) = targets(&svm_type, &d);
        let at = format!("{d} `{s}` {svm_type}, k = {k}");
        let ours = by.get("ours");
        let threads = ours.map_or(0, |o| o.row.threads);
        if let (Some(o), Some(v)) = (ours, by.get("libsvm_v")) {
            let same = o.row.cv_lines == v.row.cv_lines && o.iterations == v.iterations;
            out.push(Line {
                text: format!(
                    "{at}: ours (unseeded) against `svm-train -s {} -v {k}` on its folds: `{}` / `{}`, {} / {} SMO iterations: {}",
                    number(&svm_type),
                    o.row.cv_lines,
                    v.row.cv_lines,
                    o.iterations,
                    v.iterations,
                    if same { "exact" } else { "**differs**" }
                ),
                artifact: format!("{at}: ours equals `svm-train -v {k}`"),
                want: "the same `Cross Validation` lines and SMO iterations".into(),
                ours: format!("{} ({} iterations)", o.row.cv_lines, o.iterations),
                verdict: if same { Verdict::Reproduced } else { Verdict::NotReproduced },
                scored: true,
            });
        }
        // Our CVs by label (method, `+batched` where the batched solver
        // ran): each but the unseeded SMO run is exact to the tolerance.
        let cvs: Vec<&String> = by.keys().filter(|m| is_our_cv(m)).collect();
        for &label in &cvs {
            let (Some(o), Some(sd)) = (ours, by.get(label)) else {
                continue;
            };
            if label == "ours" {
                continue;
            }
            if let Some((x, y)) = metric_close(sd, o) {
                let rel = (x - y).abs() / y.abs().max(f64::MIN_POSITIVE);
                let ok = rel <= SEEDED_REL_TOL;
                out.push(Line {
                    text: format!(
                        "{at}: `{label}` {} against unseeded {} (relative {rel:.2e}, tolerance {SEEDED_REL_TOL}): {}",
                        sd.row.metric(),
                        o.row.metric(),
                        if ok { "within" } else { "**outside**" }
                    ),
                    artifact: format!("{at}: `{label}` within tolerance of unseeded"),
                    want: format!("relative difference at most {SEEDED_REL_TOL}"),
                    ours: format!("{rel:.2e}"),
                    verdict: if ok { Verdict::Reproduced } else { Verdict::NotReproduced },
                    scored: true,
                });
            }
        }
        for &label in &cvs {
            // Seeded against the same solver's unseeded run; the batched
            // unseeded run against the SMO's.
            let (base, what) = match label.split_once('+') {
                Some(("ours", _)) => ("ours".to_string(), "the SMO's unseeded CV"),
                Some((_, solver)) => (format!("ours+{solver}"), "unseeded, the same solver"),
                None if label == "ours" => continue,
                None => ("ours".to_string(), "unseeded"),
            };
            let (Some(o), Some(sd)) = (by.get(&base), by.get(label)) else {
                continue;
            };
            let x = evidence::ratio(&o.row.sample(), &sd.row.sample());
            let times = if label.contains('+') {
                format!("`{base}` time / `{label}` time")
            } else {
                "unseeded time / seeded time".to_string()
            };
            out.push(speed(
                &at,
                &format!("`{label}` against {what} (same run, {threads} threads, same cache budget), {times}"),
                &x,
                None,
                Side::Above,
            ));
        }
        for &method in &cvs {
            let Some(m) = by.get(method) else { continue };
            if let Some(v) = by.get("libsvm_v") {
                let x = evidence::ratio(&v.row.sample(), &m.row.sample());
                out.push(speed(
                    &at,
                    &format!("`{method}` ({} threads) against `svm-train -v {k}` (1 thread, same `-m`), its time / ours", m.row.threads),
                    &x,
                    vs_train_t,
                    Side::Above,
                ));
            }
            if let Some(v) = by.get("onedal") {
                let x = evidence::ratio(&v.row.sample(), &m.row.sample());
                out.push(speed(
                    &at,
                    &format!("`{method}` against oneDAL's CV on the same folds ({} threads each), its time / ours", v.row.threads),
                    &x,
                    vs_onedal_t,
                    Side::Above,
                ));
            }
        }
        for train in by.keys().filter(|m| m.split('+').next() == Some("train")) {
            let (Some(t), Some(f)) = (by.get(train), by.get("onedal_fit")) else {
                continue;
            };
            let x = evidence::ratio(&t.row.sample(), &f.row.sample());
            out.push(speed(
                &at,
                &format!(
                    "one training of ours{} against oneDAL's fit ({} threads each), ours / its time",
                    if train == "train" { String::new() } else { format!(" (`{train}`)") },
                    t.row.threads
                ),
                &x,
                fit_t,
                Side::Below,
            ));
        }
        if let (Some(t), Some(f)) = (by.get("train"), by.get("libsvm_fit")) {
            let x = evidence::ratio(&f.row.sample(), &t.row.sample());
            out.push(speed(
                &at,
                "one training of ours against one `svm-train`, its time / ours",
                &x,
                None,
                Side::Above,
            ));
        }
    }
    out
}

/// Whether a run label is one of our CVs (`ours`, `sir`,
/// `sir_two_chains`, each with or without `+solver`).
fn is_our_cv(label: &str) -> bool {
    matches!(
        label.split('+').next(),
        Some("ours" | "sir" | "sir_two_chains")
    )
}

/// `svm-train`'s `-s` number of a formulation name.
fn number(svm_type: &str) -> String {
    crate::experiments::svm_cv::formulation::parse(svm_type)
        .map_or_else(|| "?".into(), |t| t.number().to_string())
}

/// The scorecard rows of every stored formulation run.
pub fn scorecard(runs: &[&StoredRun]) -> Vec<ScoreRow> {
    let mut out = Vec::new();
    for run in runs {
        let Ok(rows) = FormulationRow::read(&run.records) else {
            continue;
        };
        let synthetic = rows.iter().any(|r| r.core.synthetic);
        for l in lines(&rows).into_iter().filter(|l| l.scored) {
            let data = rows
                .iter()
                .find(|r| l.artifact.starts_with(&r.core.dataset))
                .map(|r| r.core.dataset.clone())
                .unwrap_or_default();
            out.push(ScoreRow {
                paper: WHO.into(),
                artifact: l.artifact,
                paper_value: l.want,
                ours: format!("{} (`{}`)", l.ours, run.name),
                data: if synthetic {
                    DataUsed::Synthetic(data)
                } else {
                    DataUsed::Paper(data)
                },
                verdict: l.verdict,
                rule: format!(
                    "exactness: the same printed lines and iterations as svm-train; seeded: relative difference at most {SEEDED_REL_TOL}; speed: {}",
                    evidence::RULE
                ),
                section: section_title(&run.name),
                counted: Counted::Check,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::rows::Core;

    fn row(method: &str, secs: &[f64], mse: f64, iters: u64, lines: &str) -> FormulationRow {
        FormulationRow {
            core: Core {
                dataset: "cadata_scale".into(),
                method: method.into(),
                ..Core::default()
            },
            svm_type: "epsilon_svr".into(),
            setting: "defaults".into(),
            k: "10".into(),
            fold: -1,
            iterations: iters,
            cv_mse: Some(mse),
            cv_lines: lines.into(),
            threads: 2,
            timing_repeats: secs.len() as u64,
            wall_median_s: secs[secs.len() / 2],
            wall_min_s: secs[0],
            wall_max_s: secs[secs.len() - 1],
            wall_runs_s: secs
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(";"),
            ..FormulationRow::default()
        }
    }

    #[test]
    fn exact_seeded_and_targets() {
        let l = "Cross Validation Mean squared error = 0.5";
        let rows = vec![
            row("ours", &[1.0, 1.1, 1.2], 0.5, 100, l),
            row("sir", &[0.5, 0.55, 0.6], 0.5001, 40, "x"),
            row("libsvm_v", &[30.0, 31.0, 32.0], 0.5, 100, l),
            row("onedal", &[2.0, 2.1, 2.2], 0.49, 0, ""),
        ];
        let out = lines(&rows);
        let find = |s: &str| out.iter().find(|x| x.text.contains(s)).unwrap();
        assert_eq!(find("on its folds").verdict, Verdict::Reproduced);
        assert!(find("on its folds").text.ends_with("exact"));
        assert_eq!(find("tolerance 0.01): within").verdict, Verdict::Reproduced);
        let t = find("`ours` (2 threads) against `svm-train");
        assert_eq!(t.verdict, Verdict::Reproduced, "{}", t.text);
        assert!(t.text.contains("target at least 20x"), "{}", t.text);
        // oneDAL at about 1.8x: the 3x target is missed.
        let o = find("`ours` against oneDAL");
        assert_eq!(o.verdict, Verdict::NotReproduced, "{}", o.text);
        // A differing line is no longer exact.
        let mut bad = rows.clone();
        bad[2].iterations = 101;
        let out = lines(&bad);
        assert!(out.iter().any(|x| x.text.ends_with("**differs**")));
        // Timed once: inconclusive by the one rule.
        let once = vec![
            row("ours", &[1.0], 0.5, 1, l),
            row("libsvm_v", &[30.0], 0.5, 1, l),
        ];
        let out = lines(&once);
        let t = out
            .iter()
            .find(|x| x.text.contains("against `svm-train -v"))
            .unwrap();
        assert_eq!(t.verdict, Verdict::Inconclusive, "{}", t.text);
        // No target on another dataset: the ratio against 1.
        let mut other = rows.clone();
        for r in &mut other {
            r.core.dataset = "housing_scale".into();
        }
        let out = lines(&other);
        let t = out
            .iter()
            .find(|x| x.text.contains("`ours` (2 threads) against `svm-train"))
            .unwrap();
        assert!(
            t.text.contains("no target: against 1") && t.text.ends_with("faster"),
            "{}",
            t.text
        );
        // One training: ours / theirs above 1 is ours the slower.
        let mut fits = vec![
            row("train", &[2.0, 2.1, 2.2], 0.5, 1, ""),
            row("onedal_fit", &[1.0, 1.05, 1.1], 0.5, 1, ""),
        ];
        for r in &mut fits {
            r.core.dataset = "housing_scale".into();
        }
        let out = lines(&fits);
        let t = out
            .iter()
            .find(|x| x.text.contains("oneDAL's fit"))
            .unwrap();
        assert!(t.text.ends_with("slower"), "{}", t.text);
        assert_eq!(t.verdict, Verdict::NotReproduced, "{}", t.text);
    }
}
