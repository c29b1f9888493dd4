//! LIBSVM's model file format for a binary C-SVC: [`write_model`] writes what
//! `svm-train` writes (so `svm-predict` reads it and predicts the same
//! labels), [`read_model`] reads such a file back (also one `svm-train`
//! wrote).
//!
//! The format is a header of `keyword value...` lines (`svm_type c_svc`,
//! `kernel_type linear|polynomial|rbf|sigmoid`, `degree`, `gamma`, `coef0`, `nr_class`, `total_sv`, `rho`, `label`,
//! `nr_sv`), the line `SV`, then one line per support vector:
//! `coef index:value ...` with 1-based indices. Numbers are written in
//! shortest round-trip form, so a model read back predicts bit for bit what
//! the model in memory predicts.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use super::kernel::KernelKind;
use super::solution::SvmModel;
use crate::data::{Dataset, Features, Row};

/// What can go wrong writing or reading a model file.
#[derive(Debug, thiserror::Error)]
pub enum ModelFileError {
    /// Reading or writing the file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The model file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The file is not a binary C-SVC model in LIBSVM's format.
    #[error("{}:{line}: {msg}", path.display())]
    Parse {
        /// The model file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong, and what is expected.
        msg: String,
    },
    /// The model cannot be written in LIBSVM's format.
    #[error("cannot write {}: {msg}", path.display())]
    Unwritable {
        /// The model file.
        path: PathBuf,
        /// Why.
        msg: String,
    },
}

/// A number in shortest round-trip form that C's `strtod` reads back exactly.
pub(crate) fn num(x: f64) -> String {
    let a = x.abs();
    if x == 0.0 || (1e-4..1e15).contains(&a) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

/// The class `svm-train` puts a label in, and the label its model stores and
/// predicts: `(int)label` as C converts a double on x86-64 (truncated toward
/// zero; a value outside the `int` range, which C leaves undefined, becomes
/// `INT_MIN`, as `cvttsd2si` gives). LIBSVM's `svm_group_classes` groups the
/// classes by this value.
pub fn libsvm_class_label(y: f64) -> i32 {
    let t = y.trunc();
    if t >= f64::from(i32::MIN) && t <= f64::from(i32::MAX) {
        t as i32
    } else {
        i32::MIN
    }
}

/// A label as LIBSVM stores it (a C `int`).
pub(crate) fn label_text(v: f64, path: &Path) -> Result<String, ModelFileError> {
    if f64::from(libsvm_class_label(v)) == v {
        return Ok(format!("{}", libsvm_class_label(v)));
    }
    let what = if v.fract() != 0.0 {
        "is not an integer"
    } else {
        "is outside the C int range (-2147483648 to 2147483647)"
    };
    Err(ModelFileError::Unwritable {
        path: path.to_path_buf(),
        msg: format!(
            "label {} {what}, and LIBSVM's model format stores labels as C ints: train on labels cast as svm-train casts them (`cvbench svm` does)",
            num(v)
        ),
    })
}

/// The non-zero entries of a row as (0-based index, value).
pub(crate) fn entries(row: Row<'_>) -> Vec<(usize, f64)> {
    match row {
        Row::Dense(x) => x
            .iter()
            .enumerate()
            .filter(|(_, v)| **v != 0.0)
            .map(|(j, v)| (j, *v))
            .collect(),
        Row::Sparse(idx, val) => idx
            .iter()
            .zip(val)
            .map(|(&j, &v)| (j as usize, v))
            .collect(),
    }
}

/// The model as the text of a LIBSVM model file.
pub fn model_text(model: &SvmModel, path: &Path) -> Result<String, ModelFileError> {
    use std::fmt::Write as _;
    let mut s = String::from("svm_type c_svc\n");
    s.push_str(&model.kernel.model_header(num));
    let nr_class = model.labels.len();
    let _ = writeln!(s, "nr_class {nr_class}");
    let _ = writeln!(s, "total_sv {}", model.n_sv());
    s.push_str("rho");
    if nr_class == 2 {
        let _ = write!(s, " {}", num(model.rho));
    }
    s.push_str("\nlabel");
    for &l in &model.labels {
        let _ = write!(s, " {}", label_text(l, path)?);
    }
    // Support vectors are grouped by class, labels[0]'s (coefficient > 0) first.
    let first = model.sv_coef.iter().filter(|&&c| c > 0.0).count();
    s.push_str("\nnr_sv");
    if nr_class == 2 {
        let _ = write!(s, " {first} {}", model.n_sv() - first);
    } else {
        s.push_str(" 0");
    }
    s.push_str("\nSV\n");
    for (k, &c) in model.sv_coef.iter().enumerate() {
        s.push_str(&num(c));
        for (j, v) in entries(model.sv.row(k)) {
            let _ = write!(s, " {}:{}", j + 1, num(v));
        }
        s.push('\n');
    }
    Ok(s)
}

/// Write `model` to `path` in LIBSVM's model format.
pub fn write_model(model: &SvmModel, path: &Path) -> Result<(), ModelFileError> {
    let text = model_text(model, path)?;
    let io = |source| ModelFileError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut f = std::fs::File::create(path).map_err(io)?;
    f.write_all(text.as_bytes()).map_err(io)?;
    f.flush().map_err(io)
}

/// Read a binary C-SVC model (linear or RBF kernel) in LIBSVM's format.
pub fn read_model(path: &Path) -> Result<SvmModel, ModelFileError> {
    let f = std::fs::File::open(path).map_err(|source| ModelFileError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    read_model_from(std::io::BufReader::new(f), path)
}

/// The header fields [`read_model_from`] collects.
#[derive(Default)]
struct Header {
    kernel: Option<String>,
    gamma: Option<f64>,
    degree: Option<i32>,
    coef0: Option<f64>,
    nr_class: Option<usize>,
    total_sv: Option<usize>,
    rho: Vec<f64>,
    labels: Vec<f64>,
    nr_sv: Vec<usize>,
}

/// [`read_model`] from any reader; `path` names the file in errors.
pub fn read_model_from(r: impl BufRead, path: &Path) -> Result<SvmModel, ModelFileError> {
    let mut h = Header::default();
    let mut lines =
        crate::data::limits::lines_limited(r, crate::data::limits::MODEL_LINE).enumerate();
    let mut in_sv = false;
    for (i, line) in lines.by_ref() {
        let line_no = i + 1;
        let err = |msg: String| ModelFileError::Parse {
            path: path.to_path_buf(),
            line: line_no,
            msg,
        };
        let line = line.map_err(|source| ModelFileError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let mut tok = line.split_ascii_whitespace();
        let Some(key) = tok.next() else { continue };
        let rest: Vec<&str> = tok.collect();
        let one = |what: &str| -> Result<&str, ModelFileError> {
            match rest.as_slice() {
                [v] => Ok(*v),
                _ => Err(err(format!("expected `{what} VALUE`, found `{line}`"))),
            }
        };
        let number = |s: &str| -> Result<f64, ModelFileError> {
            s.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| err(format!("expected a finite number, found `{s}`")))
        };
        let count = |s: &str| -> Result<usize, ModelFileError> {
            s.parse::<usize>()
                .map_err(|_| err(format!("expected a count, found `{s}`")))
        };
        match key {
            "svm_type" => {
                let v = one(key)?;
                if v != "c_svc" {
                    return Err(err(format!(
                        "svm_type {v} is not supported: cvbench reads C-SVC models (svm_type c_svc)"
                    )));
                }
            }
            "kernel_type" => {
                let v = one(key)?;
                KernelKind::from_model_header(v, Some(0.0), None, None).map_err(err)?;
                h.kernel = Some(v.to_string());
            }
            "gamma" => h.gamma = Some(number(one(key)?)?),
            "degree" => {
                let v = one(key)?;
                h.degree = Some(
                    v.parse()
                        .map_err(|_| err(format!("expected an integer degree, found `{v}`")))?,
                );
            }
            "coef0" => h.coef0 = Some(number(one(key)?)?),
            "probA" | "probB" | "prob_density_marks" => {}
            "nr_class" => h.nr_class = Some(count(one(key)?)?),
            "total_sv" => h.total_sv = Some(count(one(key)?)?),
            "rho" => h.rho = rest.iter().map(|s| number(s)).collect::<Result<_, _>>()?,
            "label" => h.labels = rest.iter().map(|s| number(s)).collect::<Result<_, _>>()?,
            "nr_sv" => h.nr_sv = rest.iter().map(|s| count(s)).collect::<Result<_, _>>()?,
            "SV" => {
                in_sv = true;
                break;
            }
            other => {
                return Err(err(format!(
                    "unknown keyword `{other}`: expected a LIBSVM model file (svm_type, kernel_type, gamma, nr_class, total_sv, rho, label, nr_sv, then SV)"
                )))
            }
        }
    }
    let header_err = |msg: String| ModelFileError::Parse {
        path: path.to_path_buf(),
        line: 1,
        msg,
    };
    if !in_sv {
        return Err(header_err(
            "no `SV` line: not a LIBSVM model file (or a truncated one)".into(),
        ));
    }
    let nr_class = h
        .nr_class
        .ok_or_else(|| header_err("no `nr_class` line".into()))?;
    if !(1..=2).contains(&nr_class) || h.labels.len() != nr_class {
        return Err(header_err(format!(
            "nr_class {nr_class} with {} labels: cvbench reads binary (or single-class) models",
            h.labels.len()
        )));
    }
    let kernel = match &h.kernel {
        Some(name) => {
            KernelKind::from_model_header(name, h.gamma, h.degree, h.coef0).map_err(header_err)?
        }
        None => return Err(header_err("no `kernel_type` line".into())),
    };
    let total_sv = h
        .total_sv
        .ok_or_else(|| header_err("no `total_sv` line".into()))?;
    let rho = match (nr_class, h.rho.as_slice()) {
        (2, [r]) => *r,
        (1, []) => 0.0,
        _ => {
            return Err(header_err(format!(
                "expected {} value(s) on the `rho` line, found {}",
                nr_class - 1,
                h.rho.len()
            )))
        }
    };
    if !h.nr_sv.is_empty() && h.nr_sv.iter().sum::<usize>() != total_sv {
        return Err(header_err(format!(
            "nr_sv adds up to {}, but total_sv is {total_sv}",
            h.nr_sv.iter().sum::<usize>()
        )));
    }
    let mut sv_coef = Vec::with_capacity(total_sv.min(1 << 20));
    let mut indptr = vec![0usize];
    let (mut indices, mut values) = (Vec::new(), Vec::new());
    let mut d = 0usize;
    for (i, line) in lines {
        let line_no = i + 1;
        let err = |msg: String| ModelFileError::Parse {
            path: path.to_path_buf(),
            line: line_no,
            msg,
        };
        let line = line.map_err(|source| ModelFileError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let mut tok = line.split_ascii_whitespace();
        let Some(c) = tok.next() else { continue };
        if sv_coef.len() == total_sv {
            return Err(err(format!(
                "more support vectors than total_sv = {total_sv}"
            )));
        }
        let c: f64 = c
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
            .ok_or_else(|| err(format!("expected a coefficient, found `{c}`")))?;
        sv_coef.push(c);
        let mut prev = 0usize;
        for t in tok {
            let parsed = t
                .split_once(':')
                .and_then(|(a, b)| Some((a.parse::<usize>().ok()?, b.parse::<f64>().ok()?)));
            let Some((j, v)) = parsed.filter(|(j, v)| *j > prev && v.is_finite()) else {
                return Err(err(format!(
                    "expected `index:value` with increasing 1-based indices, found `{t}`"
                )));
            };
            if j > crate::data::limits::MAX_FEATURES {
                return Err(err(format!("feature index {j} is too large")));
            }
            prev = j;
            if v != 0.0 {
                indices.push((j - 1) as u32);
                values.push(v);
            }
        }
        d = d.max(prev);
        indptr.push(indices.len());
    }
    if sv_coef.len() != total_sv {
        return Err(header_err(format!(
            "total_sv is {total_sv}, but the file holds {} support vectors (truncated?)",
            sv_coef.len()
        )));
    }
    let n = sv_coef.len();
    Ok(SvmModel {
        kernel,
        labels: h.labels,
        sv: Dataset {
            name: format!(
                "{}-sv",
                path.file_name()
                    .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
            ),
            x: Features::Sparse {
                d,
                indptr,
                indices,
                values,
            },
            y: vec![0.0; n],
        },
        sv_rows: (0..n).collect(),
        sv_coef,
        rho,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svm::solution::train;
    use crate::svm::SvmParams;

    fn toy() -> Dataset {
        let rows: Vec<Vec<f64>> = (0..40)
            .map(|i| {
                let t = f64::from(i) / 7.0;
                vec![
                    t.sin(),
                    (1.3 * t).cos(),
                    if i % 3 == 0 { 0.0 } else { t / 9.0 },
                ]
            })
            .collect();
        let y = rows
            .iter()
            .map(|r| if r[0] + 0.4 * r[1] > 0.1 { 1.0 } else { -1.0 })
            .collect();
        Dataset::from_dense_rows("toy", &rows, y)
    }

    #[test]
    fn a_written_model_reads_back_and_predicts_the_same() {
        let ds = toy();
        let rows: Vec<usize> = (0..ds.n()).collect();
        for params in [SvmParams::rbf(3.0, 0.7), SvmParams::linear(0.5)] {
            let m = train(&ds, &rows, &params, None).unwrap().model;
            let p = Path::new("toy.model");
            let text = model_text(&m, p).unwrap();
            assert!(text.starts_with("svm_type c_svc\nkernel_type "), "{text}");
            assert!(text.contains("\nlabel 1 -1\n"), "{text}");
            let back = read_model_from(text.as_bytes(), p).unwrap();
            assert_eq!(back.kernel, m.kernel);
            assert_eq!(back.rho.to_bits(), m.rho.to_bits());
            assert_eq!(back.sv_coef, m.sv_coef);
            for i in 0..ds.n() {
                let (a, b) = (m.decision_value(ds.row(i)), back.decision_value(ds.row(i)));
                assert_eq!(a.to_bits(), b.to_bits(), "row {i}");
            }
        }
    }

    #[test]
    fn single_class_models_round_trip() {
        let ds = Dataset::from_dense_rows("one", &[vec![1.0], vec![2.0]], vec![3.0, 3.0]);
        let m = train(&ds, &[0, 1], &SvmParams::linear(1.0), None)
            .unwrap()
            .model;
        let text = model_text(&m, Path::new("m")).unwrap();
        let back = read_model_from(text.as_bytes(), Path::new("m")).unwrap();
        assert_eq!(back.predict(ds.row(0)), 3.0);
    }

    #[test]
    fn malformed_models_name_the_line() {
        let p = Path::new("bad.model");
        let cases = [
            ("svm_type nu_svc\n", "bad.model:1: svm_type nu_svc is not supported"),
            ("svm_type c_svc\nkernel_type poly\n", "bad.model:2: kernel_type poly"),
            ("svm_type c_svc\nkernel_type precomputed\n", "bad.model:2: kernel_type precomputed is not supported"),
            ("svm_type c_svc\nkernel_type linear\nnr_class 2\n", "no `SV` line"),
            (
                "svm_type c_svc\nkernel_type linear\nnr_class 2\ntotal_sv 2\nrho 0\nlabel 1 -1\nnr_sv 1 1\nSV\n1 1:1\n",
                "the file holds 1 support vectors",
            ),
            (
                "svm_type c_svc\nkernel_type linear\nnr_class 2\ntotal_sv 1\nrho 0\nlabel 1 -1\nSV\n1 2:1 1:1\n",
                "bad.model:8: expected `index:value`",
            ),
            ("hello\n", "unknown keyword `hello`"),
        ];
        for (text, want) in cases {
            let e = read_model_from(text.as_bytes(), p).unwrap_err().to_string();
            assert!(e.contains(want), "{text:?}: {e}");
        }
        let m = SvmModel {
            kernel: KernelKind::Linear,
            labels: vec![0.5, 1.0],
            sv: Dataset::from_dense_rows("x", &[], vec![]),
            sv_rows: vec![],
            sv_coef: vec![],
            rho: 0.0,
        };
        let e = model_text(&m, p).unwrap_err().to_string();
        assert!(e.contains("label 0.5 is not an integer"), "{e}");
        // Issue 40: a whole number outside the int range is named as such.
        let big = SvmModel {
            labels: vec![3e9, 1.0],
            ..m
        };
        let e = model_text(&big, p).unwrap_err().to_string();
        assert!(
            e.contains("label 3000000000 is outside the C int range"),
            "{e}"
        );
        assert!(!e.contains("not an integer"), "{e}");
    }

    #[test]
    fn class_labels_are_cast_as_svm_train_casts_them() {
        assert_eq!(libsvm_class_label(1.5), 1);
        assert_eq!(libsvm_class_label(-1.5), -1);
        assert_eq!(libsvm_class_label(-7.0), -7);
        assert_eq!(libsvm_class_label(3e9), i32::MIN);
        assert_eq!(libsvm_class_label(-3e9), i32::MIN);
        assert_eq!(libsvm_class_label(-2147483648.0), i32::MIN);
        assert_eq!(libsvm_class_label(2147483647.9), i32::MAX);
    }
}
