//! The report's scorecard: one row per paper artifact (a table, a figure, a
//! stated conclusion, a theorem) with the paper's value, ours, the data we
//! used and a verdict. The verdicts are computed by each experiment kind's
//! rules (`Kind::scorecard`) from the stored records, never written by hand;
//! this module holds the row type, the rendering and the provenance check of
//! run manifests.

use super::manifest::Manifest;
use super::Record;
use std::fmt::Write as _;
use std::path::PathBuf;

/// How far an artifact was reproduced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// The paper's numbers (within the stated tolerance) on the paper's data
    /// or setting.
    Reproduced,
    /// The paper's qualitative pattern (which method wins, what shrinks),
    /// within the stated tolerances; the numbers are not comparable
    /// (substitute or synthetic data, another machine).
    PatternReproduced,
    /// Part of the paper's pattern holds and part does not (the row says
    /// which), or it holds on the point estimates but not at the stated
    /// confidence.
    PartlyReproduced,
    /// A theorem checked by simulation: no row of the simulation contradicts
    /// it at the stated confidence. Not a reproduction of a table, and
    /// counted apart from them.
    NotContradicted,
    /// Our records contradict the paper's value or pattern.
    NotReproduced,
    /// A run exists but its numbers cannot decide the rule: a speed ratio
    /// whose interval over the timed repeats holds the threshold, or a
    /// cell timed once (`crate::experiments::evidence`).
    Inconclusive,
    /// The harness can run it, but no stored run has the records.
    NotRun,
    /// The harness cannot run it.
    NotBuilt,
}

impl Verdict {
    /// The verdict as printed.
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Reproduced => "reproduced",
            Verdict::PatternReproduced => "pattern reproduced",
            Verdict::PartlyReproduced => "partly reproduced",
            Verdict::NotContradicted => "not contradicted by the simulation",
            Verdict::NotReproduced => "NOT reproduced",
            Verdict::Inconclusive => "inconclusive",
            Verdict::NotRun => "not run",
            Verdict::NotBuilt => "not built",
        }
    }
}

/// What data an artifact's records come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DataUsed {
    /// The paper's own data (or the paper's own generator).
    Paper(String),
    /// Real data other than the paper's, or the paper's at another scale.
    Substitute(String),
    /// Generated stand-ins for the paper's data.
    Synthetic(String),
    /// No records.
    None,
}

impl DataUsed {
    /// As printed in the scorecard.
    pub fn label(&self) -> String {
        match self {
            DataUsed::Paper(s) => format!("real (the paper's): {s}"),
            DataUsed::Substitute(s) => format!("SUBSTITUTE: {s}"),
            DataUsed::Synthetic(s) => format!("SYNTHETIC: {s}"),
            DataUsed::None => "–".into(),
        }
    }
}

/// One row of the scorecard: a sub-row (one dataset, setting or method) of
/// a paper artifact ([`ScoreRow::paper_artifact`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreRow {
    /// Short paper name, e.g. `TreeCV (IJCAI 2015)`.
    pub paper: String,
    /// The artifact, e.g. `Table 2, PEGASOS`.
    pub artifact: String,
    /// The paper's value or claim.
    pub paper_value: String,
    /// Ours, from the records.
    pub ours: String,
    /// The data used.
    pub data: DataUsed,
    /// The computed verdict.
    pub verdict: Verdict,
    /// The rule that gave the verdict (and its tolerance), in words.
    pub rule: String,
    /// Title of the report section with the detail (linked by its anchor).
    pub section: String,
    /// How the headline counts the row: a paper artifact's sub-row, an
    /// exploratory one or a check of ours.
    pub counted: Counted,
}

/// How the headline counts a scorecard row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Counted {
    /// A sub-row of a paper's artifact, judged by a rule fixed before
    /// seeing our data (or derived from the paper's text, the derivation
    /// in the rule).
    #[default]
    Paper,
    /// A sub-row of a paper's artifact whose rule was fixed after seeing
    /// the data (a choice fitted to them, or a tolerance on a quantity the
    /// paper does not define): it cannot confirm the paper, so the
    /// headline counts it apart, like a check.
    Exploratory,
    /// A check of ours (against a peer program as it is today, or our own
    /// speed target), not a paper's artifact: counted apart.
    Check,
}

impl Counted {
    /// What the headline's table appends to the artifact's name.
    fn suffix(self) -> &'static str {
        match self {
            Counted::Paper => "",
            Counted::Exploratory => " (exploratory: rule fixed after seeing the data)",
            Counted::Check => " (check, not a paper artifact)",
        }
    }
}

/// A run folder as stored: its name, folder, manifest and records.
#[derive(Clone, Debug)]
pub struct StoredRun {
    /// Run (folder) name.
    pub name: String,
    /// The run folder.
    pub dir: PathBuf,
    /// Its manifest.
    pub manifest: Manifest,
    /// Its records.
    pub records: Vec<Record>,
}

/// The anchor of a Markdown heading as GitHub and `markdown_to_html` make it:
/// lower case, spaces to `-`, every character but letters, digits, `-` and
/// `_` dropped.
pub fn anchor(title: &str) -> String {
    title
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

impl ScoreRow {
    /// The paper artifact this row is a sub-row of: the artifact's name up
    /// to its first `", "` or `" ("` (`Table 1, Adult: SIR row` → `Table 1`,
    /// `Figure 2 (run)` → `Figure 2`; a name without either is its own
    /// artifact).
    pub fn paper_artifact(&self) -> &str {
        let a = self.artifact.as_str();
        let cut = [a.find(", "), a.find(" (")].into_iter().flatten().min();
        cut.map_or(a, |i| &a[..i])
    }
}

/// The verdicts in the order they are counted and printed.
pub const VERDICTS: [Verdict; 8] = [
    Verdict::Reproduced,
    Verdict::PatternReproduced,
    Verdict::PartlyReproduced,
    Verdict::NotContradicted,
    Verdict::NotReproduced,
    Verdict::Inconclusive,
    Verdict::NotRun,
    Verdict::NotBuilt,
];

/// The headline: one line per paper artifact (a table, a figure, a
/// conclusion, a theorem) with how many sub-rows (datasets, settings,
/// methods) it has and their verdicts, and a sentence counting artifacts
/// and sub-rows. Theorems checked by simulation ("not contradicted") are
/// counted apart from reproduced tables and figures, and exploratory rows
/// ([`Counted::Exploratory`]) and checks of ours ([`Counted::Check`]) apart
/// from the papers' artifacts.
pub fn headline(rows: &[ScoreRow]) -> String {
    let mut arts: Vec<(&str, &str, Counted, Vec<Verdict>)> = Vec::new();
    for r in rows {
        let a = r.paper_artifact();
        match arts
            .iter_mut()
            .find(|x| x.0 == r.paper && x.1 == a && x.2 == r.counted)
        {
            Some(x) => x.3.push(r.verdict),
            None => arts.push((&r.paper, a, r.counted, vec![r.verdict])),
        }
    }
    // Paper artifacts first, then the exploratory rows, then the checks.
    arts.sort_by_key(|a| a.2);
    let of = |c: Counted| -> Vec<&ScoreRow> { rows.iter().filter(|r| r.counted == c).collect() };
    let (papers, exploratory, checks) = (
        of(Counted::Paper),
        of(Counted::Exploratory),
        of(Counted::Check),
    );
    let count = |rows: &[&ScoreRow], v: Verdict| rows.iter().filter(|r| r.verdict == v).count();
    let ran = |vs: &[Verdict]| {
        vs.iter()
            .any(|v| !matches!(v, Verdict::NotRun | Verdict::NotBuilt))
    };
    let is_paper = |c: Counted| c == Counted::Paper;
    let paper_arts = arts.iter().filter(|a| is_paper(a.2)).count();
    let n_ran = arts.iter().filter(|a| is_paper(a.2) && ran(&a.3)).count();
    let theorems = arts
        .iter()
        .filter(|a| is_paper(a.2) && a.3.iter().all(|v| *v == Verdict::NotContradicted))
        .count();
    let mut md = String::new();
    let _ = writeln!(
        md,
        "{} paper artifacts ({} with at least one sub-row run), judged in {} sub-rows (one per dataset, setting or method). Sub-rows: {} reproduced, {} pattern reproduced, {} partly reproduced, {} NOT reproduced, {} inconclusive (a run exists but its numbers cannot decide the rule), {} not run (no run), {} not built; and {} not contradicted by the simulation ({} theorems checked by simulation, not counted with reproduced tables). Every verdict is computed from the stored records by the rule in its row.\n",
        paper_arts,
        n_ran,
        papers.len(),
        count(&papers, Verdict::Reproduced),
        count(&papers, Verdict::PatternReproduced),
        count(&papers, Verdict::PartlyReproduced),
        count(&papers, Verdict::NotReproduced),
        count(&papers, Verdict::Inconclusive),
        count(&papers, Verdict::NotRun),
        count(&papers, Verdict::NotBuilt),
        count(&papers, Verdict::NotContradicted),
        theorems,
    );
    if !exploratory.is_empty() {
        let _ = writeln!(
            md,
            "Counted apart as exploratory, not as the paper's artifacts: {} artifacts in {} sub-rows whose rule was fixed after seeing the data (the rule says what was fitted), so they cannot confirm the paper: {} reproduced, {} NOT reproduced, {} inconclusive, {} not run (marked \"exploratory\" below).\n",
            arts.iter().filter(|a| a.2 == Counted::Exploratory).count(),
            exploratory.len(),
            count(&exploratory, Verdict::Reproduced),
            count(&exploratory, Verdict::NotReproduced),
            count(&exploratory, Verdict::Inconclusive),
            count(&exploratory, Verdict::NotRun),
        );
    }
    if !checks.is_empty() {
        let _ = writeln!(
            md,
            "Counted apart, not paper artifacts: {} checks of ours (against a peer program as it is today, or our own speed targets) in {} sub-rows: {} met, {} NOT met, {} inconclusive, {} not run (marked \"check\" below; their verdicts read \"reproduced\" for met).\n",
            arts.iter().filter(|a| a.2 == Counted::Check).count(),
            checks.len(),
            count(&checks, Verdict::Reproduced),
            count(&checks, Verdict::NotReproduced),
            count(&checks, Verdict::Inconclusive),
            count(&checks, Verdict::NotRun),
        );
    }
    let _ = writeln!(md, "| paper | artifact | sub-rows | their verdicts |");
    let _ = writeln!(md, "|---|---|---|---|");
    for (paper, a, counted, vs) in &arts {
        let words: Vec<String> = VERDICTS
            .iter()
            .filter_map(|v| {
                let c = vs.iter().filter(|x| *x == v).count();
                (c > 0).then(|| format!("{c} {}", v.label()))
            })
            .collect();
        let a = format!("{a}{}", counted.suffix());
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} |",
            cell(paper),
            cell(&a),
            vs.len(),
            words.join(", ")
        );
    }
    md.push('\n');
    md
}

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// The scorecard as a Markdown table, with a count of each verdict above it.
pub fn markdown(rows: &[ScoreRow]) -> String {
    let mut md = String::new();
    md.push_str(&headline(rows));
    // Rules are long and shared by rows: numbered once under the table.
    let mut rules: Vec<&str> = Vec::new();
    for r in rows {
        if !rules.contains(&r.rule.as_str()) {
            rules.push(&r.rule);
        }
    }
    let _ = writeln!(
        md,
        "| paper | artifact | paper's value | ours | data | verdict | rule | detail |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|");
    for r in rows {
        let rule = rules.iter().position(|x| *x == r.rule).unwrap_or(0) + 1;
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | **{}** | R{rule} | [section](#{}) |",
            cell(&r.paper),
            cell(&r.artifact),
            cell(&r.paper_value),
            cell(&r.ours),
            cell(&r.data.label()),
            r.verdict.label(),
            anchor(&r.section)
        );
    }
    md.push('\n');
    let _ = writeln!(md, "Rules (a verdict is the first that applies; otherwise not reproduced; no records: not run):\n");
    for (i, rule) in rules.iter().enumerate() {
        let _ = writeln!(md, "- R{}: {rule}", i + 1);
    }
    md.push('\n');
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_match_github_style() {
        assert_eq!(anchor("Run `svm-cv-a9a`"), "run-svm-cv-a9a");
        assert_eq!(
            anchor("Table 2: pattern, paper vs ours"),
            "table-2-pattern-paper-vs-ours"
        );
    }

    #[test]
    fn markdown_counts_verdicts_and_links_sections() {
        let row = ScoreRow {
            counted: Counted::Paper,
            paper: "P".into(),
            artifact: "Table 1".into(),
            paper_value: "1".into(),
            ours: "1 | 2".into(),
            data: DataUsed::Synthetic("gen".into()),
            verdict: Verdict::NotRun,
            rule: "r".into(),
            section: "Run `x`".into(),
        };
        let md = markdown(&[row]);
        assert!(md.contains("1 not run"));
        assert!(md.contains("(#run-x)"));
        assert!(md.contains("1 \\| 2"));
        assert!(md.contains("SYNTHETIC: gen"));
    }

    /// Issue 18, 7: artifacts are counted per paper artifact with their
    /// datasets and settings as sub-rows, and theorems apart.
    #[test]
    fn headline_counts_paper_artifacts_and_keeps_theorems_apart() {
        let row = |artifact: &str, verdict: Verdict| ScoreRow {
            counted: Counted::Paper,
            paper: "P".into(),
            artifact: artifact.into(),
            paper_value: String::new(),
            ours: String::new(),
            data: DataUsed::None,
            verdict,
            rule: "r".into(),
            section: "s".into(),
        };
        let rows = [
            row(
                "Table 1, Adult: SIR row (setting `paper`)",
                Verdict::Reproduced,
            ),
            row("Table 1, Heart: SIR row", Verdict::NotRun),
            row("Figure 2 (run-a)", Verdict::PartlyReproduced),
            row("Theorem 1", Verdict::NotContradicted),
            row("Conclusion: A(5,10) beats B", Verdict::NotReproduced),
        ];
        assert_eq!(rows[0].paper_artifact(), "Table 1");
        assert_eq!(rows[2].paper_artifact(), "Figure 2");
        assert_eq!(rows[4].paper_artifact(), "Conclusion: A(5,10) beats B");
        let h = headline(&rows);
        assert!(
            h.starts_with(
                "4 paper artifacts (4 with at least one sub-row run), judged in 5 sub-rows"
            ),
            "{h}"
        );
        assert!(h.contains("1 reproduced, 0 pattern reproduced, 1 partly reproduced, 1 NOT reproduced, 0 inconclusive (a run exists but its numbers cannot decide the rule), 1 not run (no run)"), "{h}");
        assert!(
            h.contains("1 not contradicted by the simulation (1 theorems"),
            "{h}"
        );
        assert!(
            h.contains("| P | Table 1 | 2 | 1 reproduced, 1 not run |"),
            "{h}"
        );
        // Issue 43: a check of ours is counted apart from the paper artifacts.
        let mut with_check = rows.to_vec();
        with_check.push(ScoreRow {
            counted: Counted::Check,
            ..row("cvbench grid, a9a", Verdict::Reproduced)
        });
        let h = headline(&with_check);
        assert!(
            h.starts_with(
                "4 paper artifacts (4 with at least one sub-row run), judged in 5 sub-rows"
            ),
            "{h}"
        );
        assert!(h.contains("1 checks of ours (against a peer program as it is today, or our own speed targets) in 1 sub-rows: 1 met"), "{h}");
        assert!(
            h.contains("| P | cvbench grid (check, not a paper artifact) | 1 | 1 reproduced |"),
            "{h}"
        );
        // Issue 43: a row whose rule was fixed after seeing the data is
        // counted apart as exploratory, not with the paper's artifacts.
        let mut with_exploratory = rows.to_vec();
        with_exploratory[4].counted = Counted::Exploratory;
        let h = headline(&with_exploratory);
        assert!(
            h.starts_with(
                "3 paper artifacts (3 with at least one sub-row run), judged in 4 sub-rows"
            ),
            "{h}"
        );
        assert!(h.contains("Counted apart as exploratory, not as the paper's artifacts: 1 artifacts in 1 sub-rows whose rule was fixed after seeing the data (the rule says what was fitted), so they cannot confirm the paper: 0 reproduced, 1 NOT reproduced"), "{h}");
        assert!(
            h.contains("| P | Conclusion: A(5,10) beats B (exploratory: rule fixed after seeing the data) | 1 | 1 NOT reproduced |"),
            "{h}"
        );
        // A theorem that the simulation contradicts is no longer counted as a theorem row.
        let mut bad = rows.clone();
        bad[3].verdict = Verdict::NotReproduced;
        assert!(headline(&bad).contains("0 not contradicted by the simulation (0 theorems"));
    }
}
