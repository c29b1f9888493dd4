//! Scorecard rows of the `svm_grid` kind: the practical guide's Appendix A
//! numbers, agreement with `svm-grid` (grid.py), and the speed target.

use super::published::{GuideRow, Published};
use crate::config::ConfigFile;
use crate::experiments::evidence::{self, evidence_rule, Sample, Side};
use crate::experiments::published::PublishedError;
use crate::experiments::svm_grid::levels::{choose, levels};
use crate::experiments::svm_grid::rows::{GridRow, ROLE_GUIDE, ROLE_PEER, ROLE_PEER_POINT};
use crate::experiments::timing::Spread;
use crate::pyfmt::grid_rate;
use crate::results::scorecard::{Counted, DataUsed, ScoreRow, StoredRun, Verdict};

const PAPER: &str = "Hsu, Chang & Lin, A Practical Guide to SVC";
const SECTION: &str = "Model selection — Hsu, Chang & Lin's practical guide and grid.py";

/// Published test accuracies are given to three decimals.
const TOL: f64 = 0.001;

/// A row that checks ours against today's `svm-grid` or our own speed
/// target, not one of the guide's artifacts: counted apart.
fn check(r: ScoreRow) -> ScoreRow {
    ScoreRow {
        counted: Counted::Check,
        ..r
    }
}

fn row(
    artifact: String,
    paper_value: String,
    ours: String,
    data: DataUsed,
    verdict: Verdict,
    rule: &str,
) -> ScoreRow {
    ScoreRow {
        // The guide is a fourth source, counted apart from the three papers.
        counted: Counted::Guide,
        paper: PAPER.into(),
        artifact,
        paper_value,
        ours,
        data,
        verdict,
        rule: rule.into(),
        section: SECTION.into(),
    }
}

/// The rows, from every stored `svm_grid` run.
pub fn scorecard(runs: &[&StoredRun]) -> Result<Vec<ScoreRow>, PublishedError> {
    let published = Published::load()?;
    let mut all: Vec<(String, Vec<GridRow>)> = Vec::new();
    for r in runs {
        if let Ok(rows) = GridRow::read(&r.records) {
            all.push((r.name.clone(), rows));
        }
    }
    let mut out = Vec::new();
    for p in &published.guide {
        let steps = [
            (
                "original-default",
                "default parameters, original data",
                p.original,
            ),
            (
                "scaled-default",
                "default parameters, scaled data",
                p.scaled,
            ),
            ("guide-point", "at the guide's (C, gamma)", p.grid),
            (
                "grid-chosen",
                "at the (C, gamma) our grid (= today's grid.py) chooses",
                p.grid,
            ),
        ];
        for (step, what, value) in steps {
            let found = all
                .iter()
                .flat_map(|(_, rows)| rows)
                .find(|r| r.role == ROLE_GUIDE && r.core.dataset == p.dataset && r.step == step);
            let artifact = format!(
                "Appendix A, {} ({}): test accuracy {what}",
                p.guide_name, p.dataset
            );
            let Some(r) = found else {
                out.push(row(
                    artifact,
                    format!("{value}%"),
                    "–".into(),
                    DataUsed::None,
                    Verdict::NotRun,
                    "needs a run of configs/grid/guide.toml",
                ));
                continue;
            };
            let ours = r.rate.unwrap_or(f64::NAN);
            let ok = (ours - value).abs() <= TOL;
            let at = format!(
                " at C = {}, gamma = {}",
                r.c.unwrap_or(f64::NAN),
                r.gamma.unwrap_or(f64::NAN)
            );
            let (verdict, rule) = if ok {
                (
                    Verdict::Reproduced,
                    "|ours - published| <= 0.001 percentage points",
                )
            } else if step == "grid-chosen" {
                (
                    Verdict::NotReproduced,
                    "|ours - published| <= 0.001 pp; differs because the chosen point differs: LIBSVM's fold assignment changed since the guide was written, so today's grid.py (and ours, identical to it) picks another (C, gamma); the guide's own point is scored in the row above",
                )
            } else {
                (
                    Verdict::NotReproduced,
                    "|ours - published| <= 0.001 percentage points",
                )
            };
            out.push(row(
                artifact,
                format!("{value}%"),
                format!(
                    "{ours:.3}%{}",
                    if step == "grid-chosen" || step == "guide-point" {
                        at
                    } else {
                        String::new()
                    }
                ),
                DataUsed::Paper(format!("{} / {}.t", p.dataset, p.dataset)),
                verdict,
                rule,
            ));
        }
        // The CV rate grid.py printed at its choice, where the guide gives it.
        if let Some(published) = p.cv_rate {
            out.push(cv_rate_row(p, published, &all));
        }
    }
    // Agreement with svm-grid: the exact levels' choice and every point's rate.
    for (run, rows) in &all {
        let Some(cfg_grid) = grid_of(runs, run) else {
            continue;
        };
        for (ds, lvls) in levels(rows) {
            let Some(peer) = rows
                .iter()
                .find(|r| r.role == ROLE_PEER && r.core.dataset == ds)
            else {
                continue;
            };
            let peer_pts: Vec<&GridRow> = rows
                .iter()
                .filter(|r| r.role == ROLE_PEER_POINT && r.core.dataset == ds)
                .collect();
            for (name, s) in lvls.iter().filter(|(_, s)| s.exact) {
                let Some(b) = choose(&cfg_grid, s) else {
                    continue;
                };
                let same_choice = b.log2c == peer.log2c && b.log2g == peer.log2g;
                let equal = peer_pts
                    .iter()
                    .filter(|pp| {
                        let k = (pp.log2c.map(f64::to_bits), pp.log2g.map(f64::to_bits));
                        s.points.get(&k).is_some_and(|&(c, n)| {
                            grid_rate(c as usize, n as usize) == pp.rate.unwrap_or(f64::NAN)
                        })
                    })
                    .count();
                let ok = same_choice && equal == peer_pts.len() && equal == s.points.len();
                out.push(check(row(
                    format!("grid.py's choice and rates, {ds} (run {run}, reuse {name})"),
                    format!("svm-grid: log2 C = {}, log2 gamma = {}, {}%", axis(peer.log2c), axis(peer.log2g), peer.rate.unwrap_or(f64::NAN)),
                    format!("log2 C = {}, log2 gamma = {}, {}%; {equal} of {} points equal", axis(b.log2c), axis(b.log2g), b.rate, peer_pts.len()),
                    DataUsed::Paper(ds.clone()),
                    if ok { Verdict::Reproduced } else { Verdict::NotReproduced },
                    "same chosen point and the same printed rate at every grid point as svm-grid run in the same run",
                )));
            }
            // Speed: every reuse on against svm-grid in the same run.
            if let Some((name, s)) = lvls.iter().find(|(n, _)| n == "all") {
                // A speed-up counts only where the level chose svm-grid's point.
                let same = choose(&cfg_grid, s)
                    .is_some_and(|b| b.log2c == peer.log2c && b.log2g == peer.log2g);
                let (verdict, ours) = speed_verdict(&peer.spread(), &s.spread(), same);
                out.push(check(row(
                    format!("cvbench grid, reuse all, vs svm-grid: {ds} (run {run})"),
                    format!("target: at least {SPEED_TARGET}x faster than svm-grid (issue 19)"),
                    format!("{ours}, reuse {name}"),
                    DataUsed::Paper(ds.clone()),
                    verdict,
                    SPEED_RULE,
                )));
            }
        }
    }
    Ok(out)
}

/// The rule of the guide's printed CV rate.
const CV_RATE_RULE: &str = "reproduced: our grid's 5-fold CV rate at the guide's chosen point within 0.0001 percentage points of the rate the guide printed (both printed as grid.py prints them); the row names the chosen point";

/// The guide's printed CV rate at its choice against ours at the point our
/// grid (as today's grid.py) chose, from the guide run's `grid-chosen` row.
fn cv_rate_row(p: &GuideRow, published: f64, all: &[(String, Vec<GridRow>)]) -> ScoreRow {
    let artifact = format!(
        "Appendix A, {} ({}): grid.py's 5-fold CV rate at its choice",
        p.guide_name, p.dataset
    );
    let paper_value = format!(
        "{published}% at log2 C = {}, log2 gamma = {}",
        p.log2c, p.log2g
    );
    let found = all
        .iter()
        .flat_map(|(_, rows)| rows)
        .find(|r| r.role == ROLE_GUIDE && r.core.dataset == p.dataset && r.step == "grid-chosen");
    let Some((r, rate)) = found.and_then(|r| Some((r, r.cv_rate?))) else {
        return row(
            artifact,
            paper_value,
            "–".into(),
            DataUsed::None,
            Verdict::NotRun,
            CV_RATE_RULE,
        );
    };
    let same_point = r.log2c == Some(p.log2c) && r.log2g == Some(p.log2g);
    let ok = same_point && (rate - published).abs() <= 1e-4;
    row(
        artifact,
        paper_value,
        format!(
            "{rate}% at log2 C = {}, log2 gamma = {}{}",
            axis(r.log2c),
            axis(r.log2g),
            if ok {
                ""
            } else {
                "; LIBSVM's fold assignment changed since the guide was written (today's svm-grid prints the same rate as ours)"
            }
        ),
        DataUsed::Paper(p.dataset.clone()),
        if ok {
            Verdict::Reproduced
        } else {
            Verdict::NotReproduced
        },
        CV_RATE_RULE,
    )
}

/// The speed target against `svm-grid` (issue 19).
pub const SPEED_TARGET: f64 = 20.0;

/// The rule of the speed row.
pub const SPEED_RULE: &str = concat!("a check of our own speed target, not a paper's artifact: reproduced: svm-grid's median wall seconds over the median of the level's cells at least 20x by the evidence rule (", evidence_rule!(), "), same run, same machine, and the level chooses svm-grid's point; NOT reproduced: another point, or the interval below 20x; inconclusive: the interval holds 20x, or either side was timed once");

/// The speed verdict and the words of the row: the ratio of medians of
/// `peer` (svm-grid) over `ours` with its interval against
/// [`SPEED_TARGET`], where `same` says our level chose svm-grid's point.
pub fn speed_verdict(peer: &Spread, ours: &Spread, same: bool) -> (Verdict, String) {
    let x = evidence::ratio(&Sample::from(peer.clone()), &Sample::from(ours.clone()));
    let mut text = format!(
        "{} (svm-grid {:.2} s over ours {:.2} s, medians of {} and {} timed runs)",
        x.words(),
        peer.median,
        ours.median,
        peer.repeats,
        ours.repeats
    );
    if !same {
        text.push_str("; NOT svm-grid's chosen point");
        return (Verdict::NotReproduced, text);
    }
    let v = match x.side(SPEED_TARGET) {
        Side::Above => Verdict::Reproduced,
        Side::Below => Verdict::NotReproduced,
        Side::Inconclusive => {
            text.push_str(if x.how == evidence::How::Once {
                "; inconclusive: a side timed once has no interval"
            } else {
                "; inconclusive: the interval holds the 20x target"
            });
            Verdict::Inconclusive
        }
    };
    (v, text)
}

fn grid_of(runs: &[&StoredRun], name: &str) -> Option<cvbench_engine::api::grid_search::Grid> {
    let r = runs.iter().find(|r| r.name == name)?;
    let cfg = ConfigFile::from_text(&r.manifest.config_path, r.manifest.config.clone());
    let c: crate::experiments::svm_grid::config::SvmGridConfig = cfg.parse().ok()?;
    c.grid(&cfg).ok()
}

/// A grid axis value as grid.py prints it: the number, or `null` for an
/// axis the grid does not search.
fn axis(v: Option<f64>) -> String {
    v.map_or_else(|| "null".to_string(), |x| x.to_string())
}

#[cfg(test)]
mod tests {
    use super::{axis, speed_verdict, SPEED_TARGET};
    use crate::experiments::timing::Spread;
    use crate::results::scorecard::Verdict;

    fn sp(median: f64, min: f64, max: f64, repeats: u64) -> Spread {
        Spread {
            median,
            min,
            max,
            repeats,
            runs: Vec::new(),
        }
    }

    /// Issue 43: the 20x target is judged by the evidence rule; the stored
    /// svmguide1 runs (15.8x in [15.4, 20.2], 18.9x in [17.9, 20.3]) turn
    /// from NOT reproduced to inconclusive, and a run timed once (a9a,
    /// madelon: "reproduced" before) is inconclusive.
    #[test]
    fn the_speed_rule_is_the_evidence_rule() {
        // 64 / 3.0 = 21.3x, ranges clear of 20x: reproduced.
        let (v, t) = speed_verdict(&sp(64.0, 63.0, 65.0, 5), &sp(3.0, 2.95, 3.05, 1), true);
        assert_eq!(v, Verdict::Inconclusive, "{t}");
        let (v, t) = speed_verdict(&sp(64.0, 63.0, 65.0, 5), &sp(3.0, 2.95, 3.05, 5), true);
        assert_eq!(v, Verdict::Reproduced, "{t}");
        assert!(t.contains("5 and 5"), "{t}");
        // The stored grid-svmguide1 row: 75.15 s / 3.97 s, the interval holds 20x.
        let (v, t) = speed_verdict(&sp(75.15, 72.0, 80.0, 5), &sp(3.97, 3.95, 4.02, 5), true);
        assert_eq!(v, Verdict::Inconclusive, "{t}");
        assert!(t.contains("holds the 20x target"), "{t}");
        // Clearly below: NOT reproduced.
        let (v, t) = speed_verdict(&sp(48.9, 46.0, 50.0, 5), &sp(6.6, 5.4, 7.4, 5), true);
        assert_eq!(v, Verdict::NotReproduced, "{t}");
        // Another chosen point never counts, however fast.
        let (v, t) = speed_verdict(&sp(100.0, 100.0, 100.0, 5), &sp(1.0, 1.0, 1.0, 5), false);
        assert_eq!(v, Verdict::NotReproduced);
        assert!(t.contains("NOT svm-grid's chosen point"));
        // Timed once: no interval, inconclusive however large the ratio.
        let once = sp(
            3.0 * SPEED_TARGET,
            3.0 * SPEED_TARGET,
            3.0 * SPEED_TARGET,
            1,
        );
        let (v, t) = speed_verdict(&once, &sp(1.0, 1.0, 1.0, 1), true);
        assert_eq!(v, Verdict::Inconclusive);
        assert!(t.contains("timed once"), "{t}");
    }

    /// Issue 43: the guide's printed CV rate (96.8922% on svmguide1) is
    /// scored: today's grid.py and ours print 96.9893% at the same point.
    #[test]
    fn the_guides_cv_rate_is_scored() {
        use super::cv_rate_row;
        use crate::experiments::svm_grid::rows::{GridRow, ROLE_GUIDE};
        use crate::experiments::svm_grid::verdicts::published::Published;
        let p = Published::load().unwrap();
        let g = p.guide.iter().find(|g| g.dataset == "svmguide1").unwrap();
        assert_eq!(g.cv_rate, Some(96.8922));
        let chosen = |rate: f64| GridRow {
            role: ROLE_GUIDE.into(),
            step: "grid-chosen".into(),
            log2c: Some(1.0),
            log2g: Some(1.0),
            cv_rate: Some(rate),
            core: crate::results::rows::Core {
                dataset: "svmguide1".into(),
                ..Default::default()
            },
            ..GridRow::default()
        };
        let all = |rate: f64| vec![("grid-guide".to_string(), vec![chosen(rate)])];
        let r = cv_rate_row(g, 96.8922, &all(96.9893));
        assert_eq!(r.verdict, Verdict::NotReproduced, "{}", r.ours);
        assert!(r.ours.contains("fold assignment changed"), "{}", r.ours);
        assert_eq!(
            cv_rate_row(g, 96.8922, &all(96.8922)).verdict,
            Verdict::Reproduced
        );
        assert_eq!(cv_rate_row(g, 96.8922, &[]).verdict, Verdict::NotRun);
    }

    #[test]
    fn grid_axes_print_as_numbers_or_null() {
        assert_eq!(axis(Some(3.0)), "3");
        assert_eq!(axis(Some(-7.5)), "-7.5");
        assert_eq!(axis(None), "null");
    }
}
