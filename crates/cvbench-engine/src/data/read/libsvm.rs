//! LibSVM / SVMlight text format: `label [qid:N] index:value ...  [# comment]`.
//!
//! Indices are non-negative and strictly increasing within a line, as
//! `svm-train` reads them: most files start at 1, scikit-learn's
//! `dump_svmlight_file` writes 0-based files by default. The reader stores
//! them 0-based in CSR form (the file's `j - 1`, or `j` when the file has an
//! index 0: [`IndexBase`]) and drops explicit zeros; memory follows the
//! non-zeros, not the highest index. The writer writes the indices as the
//! file had them and uses shortest round-trip float formatting, so
//! `read(write(x)) == x` bit for bit, and its output is accepted by LIBSVM's
//! `svm-train` (`strtod`-parsable numbers).

use std::io::{BufRead, BufWriter, Write};
use std::path::Path;

use super::{compress, DataError, Dataset, Features, IndexBase, Row};

/// Read a LibSVM-format file (optionally `.xz`/`.bz2`/`.gz` compressed).
///
/// The feature count is the highest index seen (plus one for a file with an
/// index 0), raised to `min_features` when given (e.g. a9a.t never uses feature 123, so load it with
/// `Some(123)`). Blank lines and `#` comments are skipped, `qid:` tokens are
/// ignored, trailing whitespace and `\r\n` line ends are accepted.
/// The dataset is named after the file, without its compression suffix.
pub fn read_libsvm(path: &Path, min_features: Option<usize>) -> Result<Dataset, DataError> {
    let r = compress::open(path)?;
    super::limits::non_empty(read_libsvm_from(r, path, min_features)?, path)
}

/// Like [`read_libsvm`], from any buffered reader; `source` is only used for
/// the dataset name and in error messages.
pub fn read_libsvm_from(
    mut r: impl BufRead,
    source: &Path,
    min_features: Option<usize>,
) -> Result<Dataset, DataError> {
    let mut indptr = vec![0usize];
    let mut indices: Vec<u32> = Vec::new();
    let mut values: Vec<f64> = Vec::new();
    let mut y: Vec<f64> = Vec::new();
    // File indices as written until the end, when the base is known.
    let mut max_index = 0usize;
    let mut zero_based = false;
    let mut buf: Vec<u8> = Vec::new();
    let mut line_no = 0usize;

    loop {
        buf.clear();
        let k = super::limits::read_line_bounded(&mut r, &mut buf)
            .map_err(|e| super::limits::line_error(source, line_no + 1, e))?;
        if k == 0 {
            break;
        }
        line_no += 1;
        let err = |msg: String| DataError::Parse {
            path: source.to_path_buf(),
            line: line_no,
            msg,
        };
        let content = match buf.iter().position(|&b| b == b'#') {
            Some(p) => &buf[..p],
            None => &buf[..],
        };
        if content.starts_with(BOM) {
            return Err(err(
                "found a UTF-8 byte-order mark (\\u{feff}) before the label: save the file without a BOM (svm-train refuses it too: \"Wrong input format\")".into(),
            ));
        }
        let text = std::str::from_utf8(content)
            .map_err(|_| err("expected ASCII/UTF-8 text, found invalid bytes".into()))?;
        let mut tokens = text.split_ascii_whitespace();
        let Some(label_tok) = tokens.next() else {
            continue; // blank or comment-only line
        };
        let label = parse_finite(label_tok).ok_or_else(|| {
            err(format!(
                "expected a numeric label, found `{}`",
                label_tok.escape_debug()
            ))
        })?;
        let mut prev: Option<usize> = None;
        for tok in tokens {
            let Some((idx_s, val_s)) = tok.split_once(':') else {
                return Err(err(format!(
                    "expected `index:value` after the label, found `{tok}`"
                )));
            };
            if idx_s == "qid" {
                if val_s.parse::<u64>().is_err() {
                    return Err(err(format!(
                        "expected `qid:<non-negative integer>`, found `{tok}`"
                    )));
                }
                continue;
            }
            let Ok(idx) = idx_s.parse::<usize>() else {
                return Err(err(format!(
                    "expected a non-negative integer feature index, found `{idx_s}` in `{tok}`"
                )));
            };
            if let Some(p) = prev.filter(|&p| idx <= p) {
                return Err(err(format!(
                    "expected strictly increasing feature indices, found {idx} after {p}"
                )));
            }
            if idx > super::limits::MAX_FEATURES {
                return Err(err(format!(
                    "feature index {idx} is too large: cvbench supports at most {} features (a dense weight vector of {idx} features would take {} GiB)",
                    super::limits::MAX_FEATURES,
                    (idx as u128 * 8) >> 30
                )));
            }
            prev = Some(idx);
            zero_based |= idx == 0;
            let val = parse_finite(val_s).ok_or_else(|| {
                err(format!(
                    "expected a finite number as the value of feature {idx}, found `{val_s}`"
                ))
            })?;
            if val != 0.0 {
                indices.push(idx as u32);
                values.push(val);
            }
        }
        max_index = max_index.max(prev.unwrap_or(0));
        y.push(label);
        indptr.push(indices.len());
    }

    let index_base = if zero_based {
        IndexBase::Zero
    } else {
        for j in indices.iter_mut() {
            *j -= 1;
        }
        IndexBase::One
    };
    let features = if zero_based { max_index + 1 } else { max_index };
    let d = features.max(min_features.unwrap_or(0));
    super::limits::check_features(&format!("{}: n_features", source.display()), d)?;
    Ok(Dataset {
        index_base,
        name: dataset_name_from_path(source),
        x: Features::Sparse {
            d,
            indptr,
            indices,
            values,
        },
        y,
    })
}

/// Write the given rows of `dataset` (in that order) in LibSVM format:
/// indices as its file had them ([`IndexBase`]: 1-based unless it was read
/// from a file with an index 0), zeros omitted, labels and values in shortest
/// round-trip form (reading the output back gives identical bits).
/// Works for dense and sparse datasets.
pub fn write_libsvm(
    dataset: &Dataset,
    rows: &[usize],
    writer: impl Write,
) -> Result<(), DataError> {
    if let Some(&bad) = rows.iter().find(|&&i| i >= dataset.n()) {
        return Err(DataError::Invalid(format!(
            "write_libsvm: row {bad} out of range for {} ({} rows)",
            dataset.name,
            dataset.n()
        )));
    }
    let werr = |e| DataError::Write {
        what: format!("LibSVM data of {}", dataset.name),
        source: e,
    };
    let mut w = BufWriter::new(writer);
    let base = dataset.index_base.offset();
    for &i in rows {
        let label = dataset.y[i];
        if !label.is_finite() {
            return Err(DataError::Invalid(format!(
                "write_libsvm: row {i} of {} has a non-finite label {label}",
                dataset.name
            )));
        }
        write_f64(&mut w, label).map_err(werr)?;
        match dataset.row(i) {
            Row::Dense(x) => {
                for (j, &v) in x.iter().enumerate() {
                    if v != 0.0 {
                        write!(w, " {}:", j + base).map_err(werr)?;
                        write_f64(&mut w, v).map_err(werr)?;
                    }
                }
            }
            Row::Sparse(idx, val) => {
                for (&j, &v) in idx.iter().zip(val) {
                    if v != 0.0 {
                        write!(w, " {}:", j as usize + base).map_err(werr)?;
                        write_f64(&mut w, v).map_err(werr)?;
                    }
                }
            }
        }
        w.write_all(b"\n").map_err(werr)?;
    }
    w.flush().map_err(werr)?;
    Ok(())
}

/// Write a float so that parsing it back (Rust `parse` or C `strtod`) gives
/// the same value: integers below 1e15 without a fraction (`1`, `-1`), other
/// values in Rust's shortest round-trip form (`0.5`, `1e-7`).
fn write_f64(w: &mut impl Write, v: f64) -> std::io::Result<()> {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        write!(w, "{v}")
    } else {
        write!(w, "{v:?}")
    }
}

/// The UTF-8 byte-order mark, which some editors put at the start of a file.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// Parse a finite f64 (rejects `nan`, `inf`).
fn parse_finite(s: &str) -> Option<f64> {
    s.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// The file name of `path` without a `.xz`/`.bz2`/`.gz` suffix.
pub(crate) fn dataset_name_from_path(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    for suf in [".xz", ".bz2", ".gz"] {
        if let Some(stem) = name.strip_suffix(suf) {
            return stem.to_string();
        }
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    fn parse(text: &str, min: Option<usize>) -> Result<Dataset, DataError> {
        read_libsvm_from(text.as_bytes(), Path::new("mem/test.txt"), min)
    }

    #[test]
    fn parses_basic_file_to_csr() {
        let ds = parse(
            "+1 1:0.5 3:-2 \n-1 2:1e-3\t7:0\r\n\n# comment line\n0.25 qid:3 4:1 # tail\n",
            None,
        )
        .unwrap();
        assert_eq!(ds.name, "test.txt");
        assert_eq!(ds.y, vec![1.0, -1.0, 0.25]);
        assert_eq!(ds.d(), 7);
        match &ds.x {
            Features::Sparse {
                indptr,
                indices,
                values,
                ..
            } => {
                assert_eq!(indptr, &vec![0, 2, 3, 4]);
                assert_eq!(indices, &vec![0, 2, 1, 3]);
                assert_eq!(values, &vec![0.5, -2.0, 1e-3, 1.0]);
            }
            _ => panic!("expected sparse"),
        }
    }

    #[test]
    fn min_features_raises_d_only() {
        assert_eq!(parse("1 2:1\n", Some(123)).unwrap().d(), 123);
        assert_eq!(parse("1 200:1\n", Some(123)).unwrap().d(), 200);
        let empty = parse("", Some(5)).unwrap();
        assert_eq!((empty.n(), empty.d()), (0, 5));
    }

    #[test]
    fn label_only_rows_are_kept() {
        let ds = parse("1\n-1 1:2\n", None).unwrap();
        assert_eq!(ds.n(), 2);
        assert_eq!(ds.row(0).norm_sq(), 0.0);
    }

    #[test]
    fn bad_lines_name_the_line_and_expectation() {
        let cases = [
            ("1 1:1\n1 2:x\n", 2, "finite number"),
            ("1 1:1\n\nabc 1:1\n", 3, "numeric label"),
            ("1 3:1 2:1\n", 1, "strictly increasing"),
            ("1 -1:1\n", 1, "non-negative integer"),
            ("1 0:1 0:2\n", 1, "found 0 after 0"),
            ("1 1:1\n1 foo\n", 2, "index:value"),
            ("1 1:nan\n", 1, "finite"),
            ("1 qid:x 1:1\n", 1, "qid"),
            ("+1 4294967295:1\n-1 1:1\n", 1, "too large"),
            ("1 134217729:1\n", 1, "too large"),
            // Issue 40: a BOM is named, escaped, not shown invisibly.
            ("\u{feff}+1 1:1\n", 1, "byte-order mark (\\u{feff})"),
            ("1 1:1\n\u{200b}1 1:1\n", 2, "found `\\u{200b}1`"),
        ];
        for (text, line, what) in cases {
            let err = parse(text, None).unwrap_err();
            match &err {
                DataError::Parse { line: l, .. } => assert_eq!(*l, line, "{text:?}: {err}"),
                other => panic!("expected a parse error, got {other}"),
            }
            let msg = err.to_string();
            assert!(msg.contains(&format!("mem/test.txt:{line}:")), "{msg}");
            assert!(msg.contains(what), "{msg} should mention {what}");
        }
    }

    #[test]
    fn zero_based_files_keep_index_0_apart_from_index_1_and_write_back_as_read() {
        // scikit-learn's dump_svmlight_file writes 0-based indices.
        let text = "1 0:0.5 1:2\n-1 1:3 4:1\n";
        let ds = parse(text, None).unwrap();
        assert_eq!(ds.index_base, IndexBase::Zero);
        assert_eq!((ds.d(), ds.libsvm_max_index()), (5, 4));
        assert_eq!(ds.row(0).dot_row(&ds.row(1)), 6.0, "index 0 meets no 1");
        let mut out = Vec::new();
        write_libsvm(&ds, &[0, 1], &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), text);
        // A 1-based file is numbered as before.
        let one = parse("1 1:0.5 2:2\n", None).unwrap();
        assert_eq!(
            (one.index_base, one.d(), one.libsvm_max_index()),
            (IndexBase::One, 2, 2)
        );
        // Renumbered from 0, it meets the 0-based data at the same file index.
        let mut one = parse("-1 1:3 4:1\n", None).unwrap();
        let mut zero = ds.clone();
        crate::data::align_index_bases(&mut one, &mut zero);
        assert_eq!(one.row(0).dot_row(&zero.row(1)), 10.0);
        let mut out = Vec::new();
        write_libsvm(&one, &[0], &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "-1 1:3 4:1\n");
    }

    #[test]
    fn round_trip_is_exact() {
        let mut rng = crate::seed::rng(7);
        let (n, d) = (50, 20);
        let mut rows = Vec::new();
        let mut y = Vec::new();
        for i in 0..n {
            let r: Vec<f64> = (0..d)
                .map(|_| {
                    if rng.random_range(0.0..1.0) < 0.5 {
                        0.0
                    } else {
                        let m: f64 = rng.random_range(-1.0..1.0);
                        m * 10f64.powi(rng.random_range(-30..30))
                    }
                })
                .collect();
            rows.push(r);
            y.push(if i % 3 == 0 {
                rng.random_range(-5.0..5.0)
            } else {
                [-1.0, 1.0][i % 2]
            });
        }
        let dense = Dataset::from_dense_rows("t", &rows, y.clone());
        let order: Vec<usize> = (0..n).rev().collect();
        let mut out = Vec::new();
        write_libsvm(&dense, &order, &mut out).unwrap();
        let back = read_libsvm_from(&out[..], Path::new("t"), Some(d)).unwrap();
        assert_eq!(back.n(), n);
        for (k, &i) in order.iter().enumerate() {
            assert_eq!(back.y[k].to_bits(), y[i].to_bits());
            let got = back.row(k).to_dense(d);
            for j in 0..d {
                assert_eq!(got[j].to_bits(), rows[i][j].to_bits(), "row {i} col {j}");
            }
        }
        // Sparse → text → sparse is the identity, and re-writing gives identical text.
        let all: Vec<usize> = (0..n).collect();
        let mut again = Vec::new();
        write_libsvm(&back, &all, &mut again).unwrap();
        assert_eq!(again, out);
    }

    #[test]
    fn writer_format_is_svm_train_friendly() {
        let ds = parse("-1 2:0.5 10:3\n1 1:1e-7\n", None).unwrap();
        let mut out = Vec::new();
        write_libsvm(&ds, &[0, 1], &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "-1 2:0.5 10:3\n1 1:1e-7\n");
    }

    #[test]
    fn writer_rejects_out_of_range_rows() {
        let ds = parse("1 1:1\n", None).unwrap();
        assert!(write_libsvm(&ds, &[1], Vec::new()).is_err());
    }

    #[test]
    fn reads_compressed_file_and_strips_suffix_from_name() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("tiny.gz");
        let f = std::fs::File::create(&p).unwrap();
        let mut w = flate2::write::GzEncoder::new(f, flate2::Compression::default());
        w.write_all(b"1 1:1\n-1 2:1\n").unwrap();
        w.finish().unwrap();
        let ds = read_libsvm(&p, None).unwrap();
        assert_eq!((ds.name.as_str(), ds.n(), ds.d()), ("tiny", 2, 2));
    }
}
