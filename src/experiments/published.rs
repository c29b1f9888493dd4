//! The one loader of the papers' published numbers
//! (`experiments/<paper>/published.toml`, embedded at build time) and its
//! one error policy: a file that does not parse, a missing key or a row the
//! code asks for that the file lacks is a [`PublishedError`] naming the file
//! and the key, never an empty table or a NaN. Each kind declares its
//! typed schema (serde structs without defaults for the numbers it judges
//! by) and loads it through [`parse`].

use serde::de::DeserializeOwned;

/// A published file that cannot give the numbers a verdict needs.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PublishedError {
    /// The file does not parse into the kind's schema (a syntax error, a
    /// missing key, a key of the wrong type); `message` names the key and
    /// its line.
    #[error("{file}: {message}\n  fix: correct the file (the schema is the kind's published-numbers struct), then rebuild: the file is embedded at build time")]
    Parse {
        /// The file, e.g. `experiments/svm/published.toml`.
        file: &'static str,
        /// The parser's message (key, line and column).
        message: String,
    },
    /// The file parses but lacks a row or key the verdicts ask for.
    #[error("{file}: no `{key}`\n  fix: add it to the file (the paper's number, transcribed), then rebuild: the file is embedded at build time")]
    Missing {
        /// The file.
        file: &'static str,
        /// What is missing, e.g. `[[table1]] dataset = "heart"`.
        key: String,
    },
}

/// Parse the published file `file` (its embedded `text`) into the kind's
/// schema `T`.
pub fn parse<T: DeserializeOwned>(file: &'static str, text: &str) -> Result<T, PublishedError> {
    toml::from_str(text).map_err(|e| PublishedError::Parse {
        file,
        message: e.to_string().trim_end().replace('\n', " "),
    })
}

/// The row of `rows` whose `key(row)` is `want`, or the error naming the
/// file and the missing row (`what` is the table, e.g. `[[table1]]`).
pub fn row<'a, R>(
    file: &'static str,
    what: &str,
    rows: &'a [R],
    want: &str,
    key: impl Fn(&R) -> &str,
) -> Result<&'a R, PublishedError> {
    rows.iter()
        .find(|r| key(r) == want)
        .ok_or_else(|| PublishedError::Missing {
            file,
            key: format!("{what} dataset = \"{want}\""),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Schema {
        table: Vec<Row>,
    }

    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Row {
        dataset: String,
        libsvm_s: f64,
    }

    #[test]
    fn a_missing_key_names_the_file_and_the_key() {
        let e = parse::<Schema>(
            "experiments/x/published.toml",
            "[[table]]\ndataset = \"a\"\n",
        )
        .unwrap_err();
        let msg = e.to_string();
        assert!(msg.starts_with("experiments/x/published.toml: "), "{msg}");
        assert!(msg.contains("libsvm_s"), "{msg}");
        assert!(msg.contains("fix: "), "{msg}");
    }

    #[test]
    fn a_syntax_error_and_a_missing_row_are_errors_not_empty_tables() {
        let e = parse::<Schema>("f.toml", "[[table]\n").unwrap_err();
        assert!(matches!(e, PublishedError::Parse { file: "f.toml", .. }));
        let s: Schema = parse("f.toml", "[[table]]\ndataset = \"a\"\nlibsvm_s = 1.0\n").unwrap();
        assert_eq!(
            row("f.toml", "[[table]]", &s.table, "a", |r| &r.dataset)
                .unwrap()
                .libsvm_s,
            1.0
        );
        let e = row("f.toml", "[[table]]", &s.table, "b", |r| &r.dataset).unwrap_err();
        assert_eq!(
            e,
            PublishedError::Missing {
                file: "f.toml",
                key: "[[table]] dataset = \"b\"".into()
            }
        );
        assert!(e
            .to_string()
            .contains("f.toml: no `[[table]] dataset = \"b\"`"));
    }
}
