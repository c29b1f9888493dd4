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
        let mut r: Vec<String> = cells.into_iter().map(Into::into).collect();
        while r.len() < self.head.len() {
            r.push(String::new());
        }
        self.rows.push(r);
        self
    }

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

#[cfg(test)]
mod tests {
    use super::*;

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
