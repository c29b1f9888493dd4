//! One builder for every Markdown table the report shows: a header, rows of
//! cells, written as a GitHub-flavoured pipe table (`| a | b |`, then
//! `|---|---|`). Cells are taken as Markdown (so links, code and emphasis
//! pass through); [`MdTable::text`] escapes a literal cell.

/// A Markdown pipe table under construction.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MdTable {
    head: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl MdTable {
    /// A table with these column headers (Markdown).
    pub fn new<I, S>(head: I) -> MdTable
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        MdTable {
            head: head.into_iter().map(Into::into).collect(),
            rows: Vec::new(),
        }
    }

    /// Append a row of cells (Markdown). A short row is padded with empty
    /// cells; cells beyond the header are kept (the table is then ragged,
    /// which Markdown renderers tolerate, but no caller should do it).
    pub fn row<I, S>(&mut self, cells: I) -> &mut MdTable
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut r: Vec<String> = cells.into_iter().map(Into::into).map(no_nan).collect();
        while r.len() < self.head.len() {
            r.push(String::new());
        }
        self.rows.push(r);
        self
    }

    /// What a cell says where its number is missing (`no_nan`).
    pub const MISSING: &'static str = "– (not in the records)";

    /// A literal cell: `|` escaped and line breaks folded, so arbitrary text
    /// (a dataset name, an error message) cannot break the table.
    pub fn text(s: &str) -> String {
        s.replace('|', "\\|").replace(['\n', '\r'], " ")
    }

    /// Rows added so far.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether no row was added.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The table as Markdown, one line per row, ending in a newline.
    pub fn markdown(&self) -> String {
        let line = |cells: &[String]| format!("| {} |\n", cells.join(" | "));
        let mut out = line(&self.head);
        out.push('|');
        for _ in &self.head {
            out.push_str("---|");
        }
        out.push('\n');
        for r in &self.rows {
            out.push_str(&line(r));
        }
        out
    }
}

impl std::fmt::Display for MdTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.markdown())
    }
}

/// A cell as rendered: a number formatted from a missing value (`NaN`,
/// `NaNx`, `[NaN, NaN]`) never reaches a table; the cell says the value is
/// missing instead (the kinds say why where they know it).
fn no_nan(cell: String) -> String {
    // `NaN` as a number (`NaN`, `NaNx`, `-NaN`), not inside a word.
    let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    let nan = cell.match_indices("NaN").any(|(i, _)| {
        let after: String = cell[i + 3..].chars().take(2).collect();
        let mut a = after.chars();
        let next = match a.next() {
            Some('x') => a.next(),
            c => c,
        };
        !word(cell[..i].chars().next_back()) && !word(next)
    });
    if nan {
        MdTable::MISSING.to_string()
    } else {
        cell
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 43: no `NaN` in any rendered cell.
    #[test]
    fn a_nan_cell_says_it_is_missing() {
        let mut t = MdTable::new(["a", "b"]);
        t.row(["NaNx", "1.00"]);
        t.row([format!("{:.2}", f64::NAN), "x".into()]);
        let md = t.markdown();
        assert!(!md.contains("NaN"), "{md}");
        assert_eq!(md.matches(MdTable::MISSING).count(), 2, "{md}");
        // Not inside a word: a dataset may be called so.
        assert_eq!(no_nan("NaNcy-data".into()), "NaNcy-data");
    }

    #[test]
    fn writes_a_pipe_table_and_escapes_literal_cells() {
        let mut t = MdTable::new(["k", "name"]);
        t.row(["10", &MdTable::text("a|b\nc")]).row(["n"]);
        assert_eq!(
            t.markdown(),
            "| k | name |\n|---|---|\n| 10 | a\\|b c |\n| n |  |\n"
        );
        assert_eq!(t.len(), 2);
        assert!(!MdTable::new(["x"]).markdown().contains("| x |\n| "));
    }
}
