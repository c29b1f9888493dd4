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
    /// Our records contradict the paper's value or pattern.
    NotReproduced,
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
            Verdict::NotReproduced => "NOT reproduced",
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

/// One row of the scorecard.
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

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// The scorecard as a Markdown table, with a count of each verdict above it.
pub fn markdown(rows: &[ScoreRow]) -> String {
    let mut md = String::new();
    let count = |v: Verdict| rows.iter().filter(|r| r.verdict == v).count();
    let _ = writeln!(
        md,
        "{} artifacts: {} reproduced, {} pattern reproduced, {} not reproduced, {} not run, {} not built. Every verdict is computed from the stored records by the rule in its row (code: `Kind::scorecard`).\n",
        rows.len(),
        count(Verdict::Reproduced),
        count(Verdict::PatternReproduced),
        count(Verdict::NotReproduced),
        count(Verdict::NotRun),
        count(Verdict::NotBuilt)
    );
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
}
