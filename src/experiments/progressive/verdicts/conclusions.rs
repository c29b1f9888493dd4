//! The two conclusions Blum, Kalai & Langford draw from Figure 1 and the
//! Section 5 table, tested on our repetitions (a Welch z test of the means),
//! and the report's conclusions section (`overview`).

use crate::experiments::progressive::paper::{BklSummary, Procedure, TieKind};
use crate::experiments::progressive::rows::{bkl_summaries, read_rows, study, Row};
use crate::experiments::progressive::stats::Summary;
use crate::experiments::ExperimentError;
use crate::results::md_table::MdTable;
use crate::results::Record;
use std::fmt::Write as _;

/// Heading of the conclusions section.
pub const CONCLUSIONS_SECTION: &str = "BKL: the paper's conclusions against ours";
/// A difference is significant beyond this many standard errors.
pub const Z: f64 = 2.0;

pub fn summaries(rows: &[Row], name: &str) -> Vec<BklSummary> {
    bkl_summaries(&study(rows, name))
}

/// A two-sample (Welch) z statistic of `a.mean − b.mean`.
pub fn welch_z(a: &Summary, b: &Summary) -> f64 {
    (a.mean - b.mean) / (a.se.powi(2) + b.se.powi(2)).sqrt()
}

/// The outcome of a comparison "`better` is smaller than `worse`" in words.
pub fn outcome(z: f64) -> &'static str {
    if z < -Z {
        "holds (significant)"
    } else if z > Z {
        "REVERSED (significant)"
    } else {
        "tie (no significant difference)"
    }
}

fn find(
    s: &[BklSummary],
    p: Procedure,
    n_train: usize,
    sz: usize,
    tie: TieKind,
) -> Option<&BklSummary> {
    s.iter().find(|x| {
        x.procedure == p && x.n_train == n_train && x.s == sz && x.delay == 0 && x.tie == tie
    })
}

/// Conclusion A: PV(5, 10)'s estimate is closer to its true error than
/// Hold-out(9, 10)'s: (z, PV discrepancy, HO discrepancy) per tie rule.
pub fn conclusion_a(rows: &[Row]) -> Vec<(TieKind, f64, Summary, Summary)> {
    let s = summaries(rows, "table");
    TieKind::ALL
        .into_iter()
        .filter_map(|t| {
            let pv = find(&s, Procedure::Progressive, 5, 10, t)?;
            let ho = find(&s, Procedure::HoldOut, 9, 10, t)?;
            Some((
                t,
                welch_z(&pv.disc_fresh, &ho.disc_fresh),
                pv.disc_fresh,
                ho.disc_fresh,
            ))
        })
        .collect()
}

/// Conclusion B: the progressive hypothesis at n = 15 (5 + 10) has a smaller
/// true error than the hold-out's at n = 19 (9 + 10): (z, PV, HO).
pub fn conclusion_b(rows: &[Row]) -> Option<(f64, Summary, Summary)> {
    let s = summaries(rows, "figure1");
    let pv = find(&s, Procedure::Progressive, 5, 10, TieKind::Half)?;
    let ho = find(&s, Procedure::HoldOut, 9, 10, TieKind::Half)?;
    Some((
        welch_z(&pv.true_exact, &ho.true_exact),
        pv.true_exact,
        ho.true_exact,
    ))
}

/// The conclusions section: both of the paper's conclusions with the test
/// used and its outcome (a tie is stated as a tie), from every run's stored
/// records.
pub fn overview(runs: &[(String, Vec<Record>)]) -> Result<String, ExperimentError> {
    let mut t = MdTable::new([
        "run",
        "conclusion (the paper)",
        "ties",
        "ours: better",
        "ours: worse",
        "z",
        "outcome",
    ]);
    for (run, records) in runs {
        let rows: Vec<Row> = read_rows(records)?;
        let vs = |pv: &Summary, ho: &Summary| {
            [
                format!("{:.3} ± {:.3}", pv.mean, pv.se),
                format!("{:.3} ± {:.3}", ho.mean, ho.se),
            ]
        };
        for (tie, z, pv, ho) in conclusion_a(&rows) {
            let [better, worse] = vs(&pv, &ho);
            t.row([
                format!("`{run}`"),
                "PV(5,10) estimates better than Hold-out(9,10): \\|true − est.\\| .088 ± .011 vs .109 ± .015".into(),
                tie.label().to_string(),
                better,
                worse,
                format!("{z:.1}"),
                outcome(z).to_string(),
            ]);
        }
        if let Some((z, pv, ho)) = conclusion_b(&rows) {
            let [better, worse] = vs(&pv, &ho);
            t.row([
                format!("`{run}`"),
                "progressive with n = 15 (5 + 10) has a lower true error than hold-out with n = 19 (9 + 10)".into(),
                "any (true error does not depend on it)".into(),
                better,
                worse,
                format!("{z:.1}"),
                outcome(z).to_string(),
            ]);
        }
    }
    let mut md = String::new();
    if !t.is_empty() {
        let _ = writeln!(md, "### {CONCLUSIONS_SECTION}\n");
        let _ = writeln!(md, "Each conclusion is tested on our repetitions with a two-sample (Welch) z test of the means (the settings draw independent data, so the comparison is unpaired); |z| ≤ {Z} is reported as a tie.\n");
        md.push_str(&t.markdown());
        md.push('\n');
    }
    Ok(md)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn welch_z_of_known_summaries() {
        let a = Summary::of(&[1.0, 3.0]);
        let b = Summary::of(&[1.0, 3.0]);
        assert_eq!(welch_z(&a, &b), 0.0);
        let c = Summary::of(&[5.0, 7.0]);
        // (2 - 6) / sqrt(1 + 1)
        assert!((welch_z(&a, &c) + 4.0 / 2f64.sqrt()).abs() < 1e-12);
    }
}
