//! LIBSVM's model file format for a C-SVC with any number of classes (the
//! one place it is written and read): [`model_text`] is what
//! `svm_save_model` writes (the harness writes it to a file atomically;
//! `svm-predict` reads it and predicts the same labels), [`read_model`] reads such a file back (also one `svm-train`
//! wrote). A binary model ([`SvmModel`]) is the `nr_class` 2 case (1 for a
//! single-class training set): [`MultiModel::from_binary`] lays it out.
//!
//! The format is a header of `keyword value...` lines (`svm_type c_svc`,
//! `kernel_type linear|polynomial|rbf|sigmoid`, `degree`, `gamma`, `coef0`,
//! `nr_class`, `total_sv`, one `rho` per class pair, `label`, `probA` and
//! `probB` per pair with `-b 1`, `nr_sv` per class), the line `SV`, then one
//! line per support vector (grouped by class): its `nr_class - 1`
//! coefficients and `index:value ...` entries with the indices of the
//! training file (1-based, or 0-based where it had an index 0, as
//! `svm-train` writes them; [`crate::data::IndexBase`]). Numbers
//! are written in shortest round-trip form, so a model read back predicts bit
//! for bit what the model in memory predicts. Lines are read with the model
//! line bound ([`crate::data::limits::MODEL_LINE`]).

use std::io::BufRead;
use std::path::{Path, PathBuf};

use crate::data::{Dataset, Features, Row};
use crate::svm::kernel::KernelKind;
#[cfg(doc)]
use crate::svm::model::solution::SvmModel;
use crate::svm::multiclass::MultiModel;

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
    /// The file is not a C-SVC model in LIBSVM's format.
    #[error("{}:{line}: {msg}", path.display())]
    Parse {
        /// The model file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong, and what is expected.
        msg: String,
    },
    /// Writing the file failed; nothing partial was left there.
    #[error(transparent)]
    Output(crate::data::DataError),
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
    crate::svm::model::label::class_label(y) as i32
}

/// A label as LIBSVM stores it (a C `int`).
fn label_text(v: f64, path: &Path) -> Result<String, ModelFileError> {
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

/// A support vector's entries as `svm_save_model` writes them, each
/// preceded by a space: ` index:value` for every stored feature (indices
/// plus `base`), or ` 0:serial` alone for the precomputed kernel (its
/// `0:%d`: the serial number as an integer,
/// [`crate::svm::kernel::precomputed`]).
pub(crate) fn push_sv_entries(s: &mut String, kernel: KernelKind, row: Row<'_>, base: usize) {
    use std::fmt::Write as _;
    if kernel.is_precomputed() {
        let serial = crate::svm::kernel::precomputed::serial(row);
        let _ = write!(s, " 0:{}", serial.min(i32::MAX as usize));
        return;
    }
    for (j, v) in entries(row) {
        let _ = write!(s, " {}:{}", j + base, num(v));
    }
}

/// The model as the text of a LIBSVM model file.
pub fn model_text(model: &MultiModel, path: &Path) -> Result<String, ModelFileError> {
    model_text_as(model, "c_svc", path)
}

/// [`model_text`] with another classification `svm_type` line (`nu_svc`:
/// a nu-SVC's model has a C-SVC's layout).
pub fn model_text_as(
    model: &MultiModel,
    svm_type: &str,
    path: &Path,
) -> Result<String, ModelFileError> {
    use std::fmt::Write as _;
    let mut s = format!("svm_type {svm_type}\n");
    s.push_str(&model.kernel.model_header(num));
    let _ = writeln!(s, "nr_class {}", model.nr_class());
    let _ = writeln!(s, "total_sv {}", model.total_sv());
    s.push_str("rho");
    for &r in &model.rho {
        let _ = write!(s, " {}", num(r));
    }
    s.push_str("\nlabel");
    for &l in &model.labels {
        let _ = write!(s, " {}", label_text(l, path)?);
    }
    if let Some((a, b)) = &model.prob {
        for (key, v) in [("probA", a), ("probB", b)] {
            s.push('\n');
            s.push_str(key);
            for &x in v {
                let _ = write!(s, " {}", num(x));
            }
        }
    }
    s.push_str("\nnr_sv");
    for &c in &model.nr_sv {
        let _ = write!(s, " {c}");
    }
    s.push_str("\nSV\n");
    let base = model.sv.index_base.offset();
    for k in 0..model.total_sv() {
        let coefs: Vec<String> = model.sv_coef.iter().map(|col| num(col[k])).collect();
        s.push_str(&coefs.join(" "));
        push_sv_entries(&mut s, model.kernel, model.sv.row(k), base);
        s.push('\n');
    }
    Ok(s)
}

/// Read a C-SVC model with any number of classes in LIBSVM's format.
pub fn read_model(path: &Path) -> Result<MultiModel, ModelFileError> {
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
    prob_a: Vec<f64>,
    prob_b: Vec<f64>,
}

/// [`read_model`] from any reader; `path` names the file in errors.
pub fn read_model_from(r: impl BufRead, path: &Path) -> Result<MultiModel, ModelFileError> {
    let perr = |line: usize, msg: String| ModelFileError::Parse {
        path: path.to_path_buf(),
        line,
        msg,
    };
    let mut h = Header::default();
    let mut lines =
        crate::data::limits::lines_limited(r, crate::data::limits::MODEL_LINE).enumerate();
    let mut in_sv = false;
    let mut header_lines = 0;
    for (i, line) in lines.by_ref() {
        let line_no = i + 1;
        header_lines = line_no;
        let err = |msg: String| perr(line_no, msg);
        let line = line.map_err(|source| ModelFileError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let mut tok = line.split_ascii_whitespace();
        let Some(key) = tok.next() else { continue };
        let rest: Vec<&str> = tok.collect();
        let one = || -> Result<&str, ModelFileError> {
            match rest.as_slice() {
                [v] => Ok(*v),
                _ => Err(err(format!("expected `{key} VALUE`, found `{line}`"))),
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
                let v = one()?;
                if v != "c_svc" {
                    return Err(err(format!(
                        "svm_type {v} is not supported: cvbench reads C-SVC models (svm_type c_svc)"
                    )));
                }
            }
            "kernel_type" => {
                let v = one()?;
                KernelKind::from_model_header(v, Some(0.0), None, None).map_err(err)?;
                h.kernel = Some(v.to_string());
            }
            "gamma" => h.gamma = Some(number(one()?)?),
            "coef0" => h.coef0 = Some(number(one()?)?),
            "degree" => {
                let v = one()?;
                h.degree = Some(
                    v.parse()
                        .map_err(|_| err(format!("expected an integer degree, found `{v}`")))?,
                );
            }
            "probA" => h.prob_a = rest.iter().map(|s| number(s)).collect::<Result<_, _>>()?,
            "probB" => h.prob_b = rest.iter().map(|s| number(s)).collect::<Result<_, _>>()?,
            "prob_density_marks" => {}
            "nr_class" => h.nr_class = Some(count(one()?)?),
            "total_sv" => h.total_sv = Some(count(one()?)?),
            "rho" => h.rho = rest.iter().map(|s| number(s)).collect::<Result<_, _>>()?,
            "label" => h.labels = rest.iter().map(|s| number(s)).collect::<Result<_, _>>()?,
            "nr_sv" => h.nr_sv = rest.iter().map(|s| count(s)).collect::<Result<_, _>>()?,
            "SV" => {
                in_sv = true;
                break;
            }
            other => {
                return Err(err(format!(
                    "unknown keyword `{other}`: expected a LIBSVM model file (svm_type, kernel_type, degree, gamma, coef0, nr_class, total_sv, rho, label, nr_sv, then SV)"
                )))
            }
        }
    }
    let herr = |msg: String| perr(header_lines.max(1), msg);
    if !in_sv {
        return Err(herr(
            "no `SV` line: not a LIBSVM model file (or a truncated one)".into(),
        ));
    }
    let nr_class = h
        .nr_class
        .ok_or_else(|| herr("no `nr_class` line".into()))?;
    let kernel = match &h.kernel {
        Some(name) => {
            KernelKind::from_model_header(name, h.gamma, h.degree, h.coef0).map_err(herr)?
        }
        None => return Err(herr("no `kernel_type` line".into())),
    };
    let total_sv = h
        .total_sv
        .ok_or_else(|| herr("no `total_sv` line".into()))?;
    let pairs = nr_class * nr_class.saturating_sub(1) / 2;
    if nr_class == 0 || h.labels.len() != nr_class {
        return Err(herr(format!(
            "nr_class {nr_class} with {} labels on the `label` line",
            h.labels.len()
        )));
    }
    if h.rho.len() != pairs {
        return Err(herr(format!(
            "expected {pairs} value(s) on the `rho` line (one per class pair), found {}",
            h.rho.len()
        )));
    }
    if h.nr_sv.len() != nr_class || h.nr_sv.iter().sum::<usize>() != total_sv {
        return Err(herr(format!(
            "nr_sv must give {nr_class} counts adding up to total_sv = {total_sv}, found {:?}",
            h.nr_sv
        )));
    }
    let prob = match (h.prob_a.len(), h.prob_b.len()) {
        (0, 0) => None,
        (a, b) if a == pairs && b == pairs && pairs > 0 => Some((h.prob_a, h.prob_b)),
        (a, b) => {
            return Err(herr(format!(
                "probA and probB must give {pairs} value(s) each (one per class pair), found {a} and {b}"
            )))
        }
    };
    let ncoef = nr_class - 1;
    let mut sv_coef = vec![Vec::with_capacity(total_sv.min(1 << 20)); ncoef];
    let mut indptr = vec![0usize];
    let (mut indices, mut values) = (Vec::new(), Vec::new());
    // File indices as written until the end, when the base is known.
    let mut max_index = 0usize;
    let mut zero_based = false;
    let mut n = 0usize;
    for (i, line) in lines {
        let err = |msg: String| perr(i + 1, msg);
        let line = line.map_err(|source| ModelFileError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let mut tok = line.split_ascii_whitespace().peekable();
        if tok.peek().is_none() {
            continue;
        }
        if n == total_sv {
            return Err(err(format!(
                "more support vectors than total_sv = {total_sv}"
            )));
        }
        for col in sv_coef.iter_mut() {
            let c = tok.next().unwrap_or("");
            let v: f64 = c
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| {
                    err(format!(
                        "expected {ncoef} coefficient(s) before the features, found `{c}`"
                    ))
                })?;
            col.push(v);
        }
        let mut prev: Option<usize> = None;
        for t in tok {
            let parsed = t
                .split_once(':')
                .and_then(|(a, b)| Some((a.parse::<usize>().ok()?, b.parse::<f64>().ok()?)));
            let Some((j, v)) = parsed.filter(|(j, v)| prev.is_none_or(|p| *j > p) && v.is_finite())
            else {
                return Err(err(format!(
                    "expected `index:value` with increasing non-negative indices, found `{t}`"
                )));
            };
            if j > crate::data::limits::MAX_FEATURES {
                return Err(err(format!("feature index {j} is too large")));
            }
            prev = Some(j);
            zero_based |= j == 0;
            if v != 0.0 {
                indices.push(j as u32);
                values.push(v);
            }
        }
        max_index = max_index.max(prev.unwrap_or(0));
        indptr.push(indices.len());
        n += 1;
    }
    if n != total_sv {
        return Err(herr(format!(
            "total_sv is {total_sv}, but the file holds {n} support vectors (truncated?)"
        )));
    }
    let index_base = if zero_based {
        crate::data::IndexBase::Zero
    } else {
        for j in indices.iter_mut() {
            *j -= 1;
        }
        crate::data::IndexBase::One
    };
    let d = max_index + usize::from(zero_based);
    Ok(MultiModel {
        kernel,
        labels: h.labels,
        nr_sv: h.nr_sv,
        sv: Dataset {
            index_base,
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
        sv_rows: vec![],
        sv_coef,
        rho: h.rho,
        prob,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svm::model::params::SvmParams;
    use crate::svm::model::solution::{train, SvmModel};

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
            let text = model_text(&MultiModel::from_binary(&m), p).unwrap();
            assert!(text.starts_with("svm_type c_svc\nkernel_type "), "{text}");
            assert!(text.contains("\nlabel 1 -1\n"), "{text}");
            let back = read_model_from(text.as_bytes(), p).unwrap();
            assert_eq!(back.kernel, m.kernel);
            assert_eq!(back.rho, vec![m.rho]);
            assert_eq!(back.sv_coef, vec![m.sv_coef.clone()]);
            for i in 0..ds.n() {
                let (a, b) = (
                    m.decision_value(ds.row(i)),
                    back.decision_values(ds.row(i))[0],
                );
                assert_eq!(a.to_bits(), b.to_bits(), "row {i}");
                assert_eq!(m.predict(ds.row(i)), back.predict(ds.row(i)), "row {i}");
            }
        }
    }

    #[test]
    fn a_zero_based_model_reads_and_writes_its_0_entries() {
        // As svm-train writes it for a file whose first feature is `0:`.
        let text = "svm_type c_svc\nkernel_type rbf\ngamma 0.25\nnr_class 2\ntotal_sv 2\nrho 0.5\nlabel 1 -1\nnr_sv 1 1\nSV\n1 0:0.5 1:1\n-1 1:2 4:1\n";
        let m = read_model_from(text.as_bytes(), Path::new("z.model")).unwrap();
        assert_eq!(m.sv.index_base, crate::data::IndexBase::Zero);
        assert_eq!(m.sv.row(0).dot_row(&m.sv.row(1)), 2.0);
        let again = model_text(&m, Path::new("z.model")).unwrap();
        assert!(again.ends_with("SV\n1 0:0.5 1:1\n-1 1:2 4:1\n"), "{again}");
    }

    #[test]
    fn single_class_models_round_trip() {
        let ds = Dataset::from_dense_rows("one", &[vec![1.0], vec![2.0]], vec![3.0, 3.0]);
        let m = train(&ds, &[0, 1], &SvmParams::linear(1.0), None)
            .unwrap()
            .model;
        let text = model_text(&MultiModel::from_binary(&m), Path::new("m")).unwrap();
        assert!(
            text.contains("nr_class 1\ntotal_sv 0\nrho\nlabel 3\nnr_sv 0\nSV\n"),
            "{text}"
        );
        let back = read_model_from(text.as_bytes(), Path::new("m")).unwrap();
        assert_eq!(back.predict(ds.row(0)), 3.0);
    }

    #[test]
    fn malformed_models_name_the_line() {
        let p = Path::new("bad.model");
        let cases = [
            ("svm_type nu_svc\n", "bad.model:1: svm_type nu_svc is not supported"),
            ("svm_type c_svc\nkernel_type poly\n", "bad.model:2: kernel_type poly"),
            ("svm_type c_svc\nkernel_type precomp\n", "bad.model:2: kernel_type precomp is not supported"),
            ("svm_type c_svc\nkernel_type linear\nnr_class 2\n", "no `SV` line"),
            (
                "svm_type c_svc\nkernel_type linear\nnr_class 2\ntotal_sv 2\nrho 0\nlabel 1 -1\nnr_sv 1 1\nSV\n1 1:1\n",
                "the file holds 1 support vectors",
            ),
            (
                "svm_type c_svc\nkernel_type linear\nnr_class 2\ntotal_sv 1\nrho 0\nlabel 1 -1\nnr_sv 1 0\nSV\n1 2:1 1:1\n",
                "bad.model:9: expected `index:value`",
            ),
            (
                "svm_type c_svc\nkernel_type linear\nnr_class 2\ntotal_sv 1\nrho 0\nlabel 1 -1\nSV\n1 1:1\n",
                "nr_sv must give 2 counts",
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
        let e = model_text(&MultiModel::from_binary(&m), p)
            .unwrap_err()
            .to_string();
        assert!(e.contains("label 0.5 is not an integer"), "{e}");
        // Issue 40: a whole number outside the int range is named as such.
        let big = SvmModel {
            labels: vec![3e9, 1.0],
            ..m
        };
        let e = model_text(&MultiModel::from_binary(&big), p)
            .unwrap_err()
            .to_string();
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
