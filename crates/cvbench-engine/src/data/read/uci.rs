//! Dense text tables as published by the UCI repository: one row per line,
//! values separated by commas or whitespace, the label in the first or last
//! column or in a separate file.
//!
//! - `covtype.data`: comma-separated, 54 features, class (1..=7) last.
//! - `YearPredictionMSD.txt`: comma-separated, year first, then 90 features.
//! - madelon `*.data`: space-separated integers (with a trailing space),
//!   500 features; labels (±1) one per line in a separate `*.labels` file.

use std::io::BufRead;
use std::path::Path;

use super::{compress, DataError, Dataset, Features};

/// How the values of a line are separated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Separator {
    /// Commas (spaces around values are tolerated).
    Comma,
    /// Runs of spaces/tabs.
    Whitespace,
}

/// Where the label/target of a row is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelColumn {
    /// The first value of the line.
    First,
    /// The last value of the line.
    Last,
    /// Not in this file: every value is a feature and labels are 0.
    None,
}

/// Read a dense text table. Every non-blank line must have the same number
/// of values; when `n_features` is given, it must be exactly that many
/// features (plus the label column, if any). The dataset is named after the
/// file (compression suffix removed).
pub fn read_dense_text(
    path: &Path,
    sep: Separator,
    label: LabelColumn,
    n_features: Option<usize>,
) -> Result<Dataset, DataError> {
    let r = compress::open(path)?;
    super::limits::non_empty(read_dense_text_from(r, path, sep, label, n_features)?, path)
}

/// Like [`read_dense_text`], from any buffered reader; `source` names the
/// input in errors and in the dataset name.
pub fn read_dense_text_from(
    mut r: impl BufRead,
    source: &Path,
    sep: Separator,
    label: LabelColumn,
    n_features: Option<usize>,
) -> Result<Dataset, DataError> {
    let extra = usize::from(label != LabelColumn::None);
    let mut width: Option<usize> = n_features.map(|d| d + extra);
    let mut values: Vec<f64> = Vec::new();
    let mut y: Vec<f64> = Vec::new();
    let mut row: Vec<f64> = Vec::new();
    let mut line: Vec<u8> = Vec::new();
    let mut line_no = 0usize;
    loop {
        line.clear();
        let k = super::limits::read_line_bounded(&mut r, &mut line)
            .map_err(|e| super::limits::line_error(source, line_no + 1, e))?;
        if k == 0 {
            break;
        }
        line_no += 1;
        let text = std::str::from_utf8(&line)
            .map_err(|_| DataError::Parse {
                path: source.to_path_buf(),
                line: line_no,
                msg: "expected UTF-8 text, found invalid bytes".into(),
            })?
            .trim();
        if text.is_empty() {
            continue;
        }
        let err = |msg: String| DataError::Parse {
            path: source.to_path_buf(),
            line: line_no,
            msg,
        };
        row.clear();
        let mut push = |tok: &str, col: usize| -> Result<(), DataError> {
            let v = tok
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| {
                    err(format!(
                        "expected a finite number in column {}, found `{tok}`",
                        col + 1
                    ))
                })?;
            row.push(v);
            Ok(())
        };
        match sep {
            Separator::Comma => {
                for (c, tok) in text.split(',').enumerate() {
                    push(tok.trim(), c)?;
                }
            }
            Separator::Whitespace => {
                for (c, tok) in text.split_ascii_whitespace().enumerate() {
                    push(tok, c)?;
                }
            }
        }
        let w = *width.get_or_insert(row.len());
        if row.len() != w {
            return Err(err(format!(
                "expected {w} values ({}{}), found {}",
                w - extra,
                if extra == 1 {
                    " features + 1 label"
                } else {
                    " features"
                },
                row.len()
            )));
        }
        match label {
            LabelColumn::First => {
                y.push(row[0]);
                values.extend_from_slice(&row[1..]);
            }
            LabelColumn::Last => {
                y.push(row[w - 1]);
                values.extend_from_slice(&row[..w - 1]);
            }
            LabelColumn::None => {
                y.push(0.0);
                values.extend_from_slice(&row);
            }
        }
    }
    let d = width.map_or(0, |w| w - extra);
    Ok(Dataset {
        index_base: super::IndexBase::One,
        name: super::libsvm::dataset_name_from_path(source),
        x: Features::Dense { d, values },
        y,
    })
}

/// Read a file of one numeric label per line (blank lines skipped).
pub fn read_labels(path: &Path) -> Result<Vec<f64>, DataError> {
    let ds = read_dense_text(path, Separator::Whitespace, LabelColumn::First, Some(0))?;
    Ok(ds.y)
}

/// UCI `covtype.data`: 54 comma-separated features, class 1..=7 last.
pub fn read_covtype(path: &Path) -> Result<Dataset, DataError> {
    read_dense_text(path, Separator::Comma, LabelColumn::Last, Some(54))
}

/// UCI `YearPredictionMSD.txt`: year first, then 90 comma-separated features.
pub fn read_msd(path: &Path) -> Result<Dataset, DataError> {
    read_dense_text(path, Separator::Comma, LabelColumn::First, Some(90))
}

/// UCI madelon: a space-separated `.data` file (500 features) and, when
/// given, a `.labels` file with one ±1 label per line (the unlabelled test
/// set has none: labels are then 0). Row counts must agree.
pub fn read_madelon(data: &Path, labels: Option<&Path>) -> Result<Dataset, DataError> {
    let mut ds = read_dense_text(data, Separator::Whitespace, LabelColumn::None, Some(500))?;
    if let Some(lp) = labels {
        let y = read_labels(lp)?;
        if y.len() != ds.n() {
            return Err(DataError::Format {
                path: lp.to_path_buf(),
                msg: format!(
                    "{} labels, but {} has {} rows",
                    y.len(),
                    data.display(),
                    ds.n()
                ),
            });
        }
        ds.y = y;
    }
    Ok(ds)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(
        text: &str,
        sep: Separator,
        label: LabelColumn,
        d: Option<usize>,
    ) -> Result<Dataset, DataError> {
        read_dense_text_from(text.as_bytes(), Path::new("mem.csv"), sep, label, d)
    }

    #[test]
    fn comma_label_last_and_first() {
        let ds = parse(
            "1,2,3\n4, 5 ,6\r\n\n",
            Separator::Comma,
            LabelColumn::Last,
            None,
        )
        .unwrap();
        assert_eq!((ds.n(), ds.d()), (2, 2));
        assert_eq!(ds.y, vec![3.0, 6.0]);
        assert_eq!(ds.row(1).to_dense(2), vec![4.0, 5.0]);
        let ds = parse(
            "2001,0.5,-1\n",
            Separator::Comma,
            LabelColumn::First,
            Some(2),
        )
        .unwrap();
        assert_eq!(ds.y, vec![2001.0]);
        assert_eq!(ds.row(0).to_dense(2), vec![0.5, -1.0]);
    }

    #[test]
    fn whitespace_with_trailing_space() {
        let ds = parse(
            "1 2 3 \n4 5 6 \n",
            Separator::Whitespace,
            LabelColumn::None,
            Some(3),
        )
        .unwrap();
        assert_eq!((ds.n(), ds.d()), (2, 3));
        assert_eq!(ds.y, vec![0.0, 0.0]);
    }

    #[test]
    fn errors_name_line_and_expectation() {
        let e = parse("1,2,3\n1,2\n", Separator::Comma, LabelColumn::Last, None).unwrap_err();
        let m = e.to_string();
        assert!(
            m.contains("mem.csv:2:") && m.contains("expected 3 values"),
            "{m}"
        );
        let e = parse("1,2,3\n1,x,3\n", Separator::Comma, LabelColumn::Last, None).unwrap_err();
        let m = e.to_string();
        assert!(
            m.contains("mem.csv:2:") && m.contains("column 2") && m.contains("`x`"),
            "{m}"
        );
        let e = parse("1,2,3\n", Separator::Comma, LabelColumn::Last, Some(54)).unwrap_err();
        assert!(e.to_string().contains("54 features + 1 label"), "{e}");
        let e = parse("1,2,\n", Separator::Comma, LabelColumn::Last, None).unwrap_err();
        assert!(e.to_string().contains("column 3"), "{e}");
    }

    #[test]
    fn madelon_data_and_labels() {
        let dir = tempfile::tempdir().unwrap();
        let dp = dir.path().join("m.data");
        let lp = dir.path().join("m.labels");
        let row: String = (0..500).map(|j| format!("{} ", j % 7)).collect();
        std::fs::write(&dp, format!("{row}\n{row}\n")).unwrap();
        std::fs::write(&lp, "1\n-1\n").unwrap();
        let ds = read_madelon(&dp, Some(&lp)).unwrap();
        assert_eq!((ds.n(), ds.d()), (2, 500));
        assert_eq!(ds.y, vec![1.0, -1.0]);
        std::fs::write(&lp, "1\n").unwrap();
        assert!(read_madelon(&dp, Some(&lp)).is_err());
    }
}
