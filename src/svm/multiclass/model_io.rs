//! A one-vs-one model in LIBSVM's model file format, any number of classes:
//! [`write_multi_model`] writes what `svm_save_model` writes (`nr_class`,
//! `total_sv`, one `rho` per pair, `label`, `nr_sv` per class, then per
//! support vector its `nr_class - 1` coefficients and `index:value`
//! entries), numbers in shortest round-trip form as
//! [`crate::svm::model_file`] writes them; [`read_multi_model`] reads such
//! a file (also one `svm-train` wrote).

use std::io::{BufRead, Write};
use std::path::Path;

use super::model::MultiModel;
use crate::data::{Dataset, Features};
use crate::svm::kernel::KernelKind;
use crate::svm::model_file::{entries, label_text, num, ModelFileError};

/// The model as the text of a LIBSVM model file.
pub fn multi_model_text(model: &MultiModel, path: &Path) -> Result<String, ModelFileError> {
    use std::fmt::Write as _;
    let mut s = String::from("svm_type c_svc\n");
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
    for k in 0..model.total_sv() {
        let coefs: Vec<String> = model.sv_coef.iter().map(|col| num(col[k])).collect();
        s.push_str(&coefs.join(" "));
        for (j, v) in entries(model.sv.row(k)) {
            let _ = write!(s, " {}:{}", j + 1, num(v));
        }
        s.push('\n');
    }
    Ok(s)
}

/// Write `model` to `path` in LIBSVM's model format.
pub fn write_multi_model(model: &MultiModel, path: &Path) -> Result<(), ModelFileError> {
    let text = multi_model_text(model, path)?;
    let io = |source| ModelFileError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut f = std::fs::File::create(path).map_err(io)?;
    f.write_all(text.as_bytes()).map_err(io)?;
    f.flush().map_err(io)
}

/// Read a C-SVC model with any number of classes in LIBSVM's format.
pub fn read_multi_model(path: &Path) -> Result<MultiModel, ModelFileError> {
    let f = std::fs::File::open(path).map_err(|source| ModelFileError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    read_multi_model_from(std::io::BufReader::new(f), path)
}

/// The header fields [`read_multi_model_from`] collects.
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

/// [`read_multi_model`] from any reader; `path` names the file in errors.
pub fn read_multi_model_from(r: impl BufRead, path: &Path) -> Result<MultiModel, ModelFileError> {
    let perr = |line: usize, msg: String| ModelFileError::Parse {
        path: path.to_path_buf(),
        line,
        msg,
    };
    let mut h = Header::default();
    let mut lines = r.lines().enumerate();
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
    let mut d = 0usize;
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
        n += 1;
    }
    if n != total_sv {
        return Err(herr(format!(
            "total_sv is {total_sv}, but the file holds {n} support vectors (truncated?)"
        )));
    }
    Ok(MultiModel {
        kernel,
        labels: h.labels,
        nr_sv: h.nr_sv,
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
        sv_rows: vec![],
        sv_coef,
        rho: h.rho,
        prob,
    })
}
