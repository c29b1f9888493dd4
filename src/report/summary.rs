//! The report's opening: what was run, what held, what did not and why,
//! and what to run next, in words a reader can act on (papers, data and
//! runs; never the code that judged them).

use crate::results::scorecard::{anchor, Counted, ScoreRow, StoredRun, Verdict, VERDICTS};
use std::fmt::Write as _;

/// Heading of the opening section.
pub const SUMMARY: &str = "Summary";

/// At most this many rows that did not hold are listed one by one.
const LISTED: usize = 10;

/// What the opening is made of: the runs rendered, the scorecard rows, how
/// many run folders were left out and how many runs are flagged by the
/// provenance check.
pub struct Inputs<'a> {
    /// The runs in the report.
    pub runs: &'a [StoredRun],
    /// The scorecard's rows (papers with a run here).
    pub rows: &'a [ScoreRow],
    /// Folders that look like runs but were left out.
    pub skipped: usize,
    /// Runs made from code older than the code that renders them.
    pub flagged: usize,
}

/// Whether a run comes from the quick configs (a first look, not the
/// papers' settings).
fn is_quick(r: &StoredRun) -> bool {
    r.manifest.config_path.contains("configs/quick/") || r.manifest.name.starts_with("quick-")
}

/// The config's `note` (what its author wants a reader to know), if any.
fn note(r: &StoredRun) -> Option<String> {
    let v: toml::Value = toml::from_str(&r.manifest.config).ok()?;
    v.get("note")?.as_str().map(str::to_string)
}

/// Seconds in words (`12.0 s`, `3.5 min`, `1.2 h`).
pub(super) fn duration(s: f64) -> String {
    if s >= 3600.0 {
        format!("{:.1} h", s / 3600.0)
    } else if s >= 120.0 {
        format!("{:.1} min", s / 60.0)
    } else {
        format!("{s:.1} s")
    }
}

/// `text` cut at a clause boundary after about `max` characters.
fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max).collect();
    let at = cut.rfind("; ").unwrap_or(cut.len());
    format!("{} …", cut[..at].trim_end())
}

/// The verdicts of `vs` counted, in the scorecard's order.
fn counts(vs: &[Verdict]) -> String {
    VERDICTS
        .iter()
        .filter_map(|v| {
            let c = vs.iter().filter(|x| *x == v).count();
            (c > 0).then(|| format!("{c} {}", v.label()))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A verdict that says the paper's value or pattern held (a theorem: not
/// contradicted by the simulation).
fn held(v: Verdict) -> bool {
    matches!(
        v,
        Verdict::Reproduced | Verdict::PatternReproduced | Verdict::NotContradicted
    )
}

/// The opening section.
pub fn section(i: &Inputs<'_>) -> String {
    let mut md = format!("## {SUMMARY}\n\n");
    ran(&mut md, i.runs);
    verdicts(&mut md, i.rows);
    next(&mut md, i);
    md
}

/// What was run.
fn ran(md: &mut String, runs: &[StoredRun]) {
    if runs.is_empty() {
        md.push_str("**What was run:** nothing: this folder holds no run that could be read. `cvbench run CONFIG --out DIR` makes one; `make quick` makes four in a minute.\n\n");
        return;
    }
    let cells: usize = runs.iter().map(|r| r.manifest.cells.len()).sum();
    let compute: f64 = runs
        .iter()
        .map(|r| r.manifest.compute_seconds.unwrap_or(r.manifest.seconds))
        .sum();
    let mut hosts: Vec<String> = runs
        .iter()
        .map(|r| {
            format!(
                "{} ({} CPUs)",
                r.manifest.machine.hostname, r.manifest.machine.cpus
            )
        })
        .collect();
    hosts.sort();
    hosts.dedup();
    let names: Vec<String> = runs.iter().map(|r| format!("`{}`", r.name)).collect();
    let listed = if runs.len() <= 8 {
        format!(" ({})", names.join(", "))
    } else {
        String::new()
    };
    let quick = runs.iter().filter(|r| is_quick(r)).count();
    let _ = writeln!(
        md,
        "**What was run:** {} run{}{listed}, {cells} cells, {} of compute, on {}.{}\n",
        runs.len(),
        if runs.len() == 1 { "" } else { "s" },
        duration(compute),
        hosts.join(", "),
        if quick == runs.len() {
            " These are the quick configs: a first look with few repetitions and small or generated data, not the papers' settings, so their verdicts are indicative only."
        } else if quick > 0 {
            " Some are quick runs (few repetitions, small or generated data): their verdicts are indicative only."
        } else {
            ""
        }
    );
    let notes: Vec<String> = runs
        .iter()
        .filter_map(|r| note(r).map(|n| format!("- `{}`: {n}", r.name)))
        .collect();
    if !notes.is_empty() && notes.len() <= 8 {
        let _ = writeln!(md, "{}\n", notes.join("\n"));
    }
}

/// What held, what held in part, and what did not (with the row's own
/// numbers and the data it ran on).
fn verdicts(md: &mut String, rows: &[ScoreRow]) {
    let papers: Vec<&ScoreRow> = rows
        .iter()
        .filter(|r| r.counted == Counted::Paper)
        .collect();
    if papers.is_empty() {
        md.push_str("**What held:** no run here checks a paper's artifact (a run of your own data has no paper to compare with; its tables are below).\n\n");
        return;
    }
    // Each artifact's verdicts over the sub-rows that ran.
    let mut arts: Vec<(String, &str, Vec<Verdict>)> = Vec::new();
    for r in &papers {
        if matches!(r.verdict, Verdict::NotRun | Verdict::NotBuilt) {
            continue;
        }
        let a = r.paper_artifact();
        match arts.iter_mut().find(|x| x.0 == r.paper && x.1 == a) {
            Some(x) => x.2.push(r.verdict),
            None => arts.push((r.paper.clone(), a, vec![r.verdict])),
        }
    }
    // Artifacts that held in every sub-row that ran, by paper.
    let mut held_by_paper: Vec<(&str, Vec<&str>)> = Vec::new();
    for (paper, art, vs) in &arts {
        if vs.iter().all(|v| held(*v)) {
            match held_by_paper.iter_mut().find(|x| x.0 == paper.as_str()) {
                Some(x) => x.1.push(art),
                None => held_by_paper.push((paper, vec![art])),
            }
        }
    }
    let held_words: Vec<String> = held_by_paper
        .iter()
        .map(|(p, a)| format!("{p}: {}", a.join(", ")))
        .collect();
    let _ = writeln!(
        md,
        "**What held:** {}.\n",
        if held_words.is_empty() {
            "no artifact held in every sub-row that ran".to_string()
        } else {
            held_words.join("; ")
        }
    );
    // Artifacts with sub-rows of different verdicts, or partly reproduced.
    let mixed: Vec<String> = arts
        .iter()
        .filter(|(_, _, vs)| {
            vs.contains(&Verdict::PartlyReproduced)
                || (vs.iter().any(|v| held(*v)) && !vs.iter().all(|v| held(*v)))
        })
        .map(|(p, a, vs)| format!("{p} {a} ({})", counts(vs)))
        .collect();
    if !mixed.is_empty() {
        let _ = writeln!(
            md,
            "**What held in part** (the verdicts of the sub-rows that ran: one per dataset, setting or method): {}.\n",
            mixed.join("; ")
        );
    }
    let guide: Vec<Verdict> = rows
        .iter()
        .filter(|r| r.counted == Counted::Guide)
        .map(|r| r.verdict)
        .collect();
    if !guide.is_empty() {
        let _ = writeln!(
            md,
            "**The LIBSVM practical guide** (Hsu, Chang & Lin; a fourth source, counted apart from the three papers): {}.\n",
            counts(&guide)
        );
    }
    listed(
        md,
        &papers,
        Verdict::NotReproduced,
        "What did not hold, and why",
    );
    listed(
        md,
        &papers,
        Verdict::Inconclusive,
        "What the runs cannot decide, and why",
    );
}

/// The sub-rows of `rows` with verdict `v`, one line each (at most
/// [`LISTED`]) with our numbers, the data and a link to the detail.
fn listed(md: &mut String, rows: &[&ScoreRow], v: Verdict, title: &str) {
    let these: Vec<&&ScoreRow> = rows.iter().filter(|r| r.verdict == v).collect();
    if these.is_empty() {
        return;
    }
    let _ = writeln!(
        md,
        "**{title}** ({} sub-row{}; each with our numbers, the data it ran on and a link to its detail):\n",
        these.len(),
        if these.len() == 1 { "" } else { "s" }
    );
    for r in these.iter().take(LISTED) {
        let _ = writeln!(
            md,
            "- {}, {}: {} — data: {} ([detail](#{}))",
            r.paper,
            r.artifact,
            clip(&r.ours, 700),
            r.data.label(),
            anchor(&r.section)
        );
    }
    if these.len() > LISTED {
        let _ = writeln!(
            md,
            "- and {} more: see the [scorecard](#scorecard).",
            these.len() - LISTED
        );
    }
    md.push('\n');
}

/// What to run next.
fn next(md: &mut String, i: &Inputs<'_>) {
    let count = |v: Verdict| i.rows.iter().filter(|r| r.verdict == v).count();
    let mut todo: Vec<String> = Vec::new();
    if i.runs.iter().any(is_quick) {
        todo.push("`make reproduce` runs the papers' settings on real data (hours; each config's expected duration is in `docs/outputs.md`) and writes the full report to `results/`.".into());
    }
    let inconclusive = count(Verdict::Inconclusive);
    if inconclusive > 0 {
        todo.push(format!("{inconclusive} sub-row{} inconclusive: a run exists but its numbers cannot decide the rule (a cell timed once, a speed-up whose interval holds the threshold, or a simulation off its closed form). The row says what would decide it: more timed repeats (`timing_repeats` in the config) or more repetitions.", if inconclusive == 1 { " is" } else { "s are" }));
    }
    let not_run = count(Verdict::NotRun);
    if not_run > 0 {
        todo.push(format!("{not_run} sub-row{} no run here; where the harness can estimate it, the row names the missing run and its expected time.", if not_run == 1 { " has" } else { "s have" }));
    }
    if i.flagged > 0 {
        todo.push(format!("{} run{} stale: made from a tree with uncommitted changes, without a recorded revision, or before a commit that may have moved {} numbers ([Provenance](#provenance) says which, and the commits). `make refresh` from a clean checkout re-runs exactly the stale runs.", i.flagged, if i.flagged == 1 { " is" } else { "s are" }, if i.flagged == 1 { "its" } else { "their" }));
    }
    if i.skipped > 0 {
        todo.push(format!(
            "{} folder{} left out of this report ([Skipped folders](#skipped-folders) says why).",
            i.skipped,
            if i.skipped == 1 { " was" } else { "s were" }
        ));
    }
    if todo.is_empty() {
        md.push_str("**Next:** nothing is left to run for the artifacts above.\n\n");
    } else {
        let _ = writeln!(md, "**Next:**\n");
        for t in todo {
            let _ = writeln!(md, "- {t}");
        }
        md.push('\n');
    }
}
