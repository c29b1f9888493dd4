//! Record rows and Polars tables: one row per cell (or per fold), written as
//! Parquet and CSV atomically, and read back for re-rendering.

use polars::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Errors writing or reading result tables and figures.
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    /// File system error.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A file could not be written (no space left, read-only file system,
    /// permission denied, ...): what is there stays as it was.
    #[error("{path}: cannot be written: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// An output path that would destroy something (a Parquet table, the
    /// input, a device, a folder) or cannot be written as given.
    #[error("{path}: {message}\n  fix: {fix}")]
    Refused {
        /// The output path as given.
        path: PathBuf,
        /// What is wrong.
        message: String,
        /// What to do.
        fix: String,
    },
    /// Polars error.
    #[error("{path}: table error: {source}")]
    Table {
        /// The file.
        path: PathBuf,
        /// The Polars error.
        source: PolarsError,
    },
    /// Drawing error.
    #[error("{path}: figure error: {message}")]
    Figure {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// Records whose columns disagree, or other malformed content.
    #[error("{0}")]
    Malformed(String),
}

/// One value in a record. Non-finite floats are stored as JSON `null` in
/// the per-cell files and read back as NaN.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Value {
    /// Boolean.
    Bool(bool),
    /// Integer.
    Int(i64),
    /// Float.
    Float(f64),
    /// String.
    Str(String),
}

#[derive(Deserialize)]
#[serde(untagged)]
enum StoredValue {
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Null(()),
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match StoredValue::deserialize(d)? {
            StoredValue::Bool(b) => Value::Bool(b),
            StoredValue::Int(i) => Value::Int(i),
            StoredValue::Float(f) => Value::Float(f),
            StoredValue::Str(s) => Value::Str(s),
            StoredValue::Null(()) => Value::Float(f64::NAN),
        })
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::Str(s.to_string())
    }
}
impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::Str(s)
    }
}
impl From<f64> for Value {
    fn from(v: f64) -> Self {
        Value::Float(v)
    }
}
impl From<u64> for Value {
    fn from(v: u64) -> Self {
        Value::Int(v as i64)
    }
}
impl From<usize> for Value {
    fn from(v: usize) -> Self {
        Value::Int(v as i64)
    }
}
impl From<i64> for Value {
    fn from(v: i64) -> Self {
        Value::Int(v)
    }
}
impl From<bool> for Value {
    fn from(v: bool) -> Self {
        Value::Bool(v)
    }
}

/// One row: ordered named values. Every record of a table has the same columns.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Record(pub Vec<(String, Value)>);

impl Record {
    /// An empty record.
    pub fn new() -> Record {
        Record(Vec::new())
    }

    /// Append a column value (builder style).
    pub fn with(mut self, name: &str, v: impl Into<Value>) -> Record {
        self.0.push((name.to_string(), v.into()));
        self
    }

    /// Append a column value.
    pub fn push(&mut self, name: &str, v: impl Into<Value>) {
        self.0.push((name.to_string(), v.into()));
    }

    /// Set a column's value (replacing it, or appending the column).
    pub fn set(&mut self, name: &str, v: impl Into<Value>) {
        let v = v.into();
        match self.0.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = v,
            None => self.0.push((name.to_string(), v)),
        }
    }

    /// The value of a column.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// A column as text (numbers formatted; empty when absent).
    pub fn text(&self, name: &str) -> String {
        match self.get(name) {
            Some(Value::Str(x)) => x.clone(),
            Some(Value::Int(i)) => i.to_string(),
            Some(Value::Float(x)) => x.to_string(),
            Some(Value::Bool(b)) => b.to_string(),
            None => String::new(),
        }
    }

    /// A numeric column as `f64` (NaN when absent or not a number).
    pub fn number(&self, name: &str) -> f64 {
        match self.get(name) {
            Some(Value::Float(x)) => *x,
            Some(Value::Int(x)) => *x as f64,
            _ => f64::NAN,
        }
    }
}

/// Column `c` (named `name`) of every record, mapped by `f`; an error when a
/// record's column `c` is not `name`.
fn values<T>(
    records: &[Record],
    c: usize,
    name: &str,
    f: impl Fn(Value) -> T,
) -> Result<Vec<T>, ResultsError> {
    records
        .iter()
        .map(|r| match r.0.get(c) {
            Some((n, v)) if n == name => Ok(f(v.clone())),
            _ => Err(ResultsError::Malformed(format!(
                "records disagree on column {c} (`{name}`)"
            ))),
        })
        .collect()
}

/// Build a DataFrame from records with identical columns. A column's type is
/// its first record's; other records' values are converted to it (text), or
/// stored as null when they cannot be (numbers, booleans).
pub fn to_frame(records: &[Record]) -> Result<DataFrame, ResultsError> {
    let Some(first) = records.first() else {
        return Ok(DataFrame::empty());
    };
    let mut cols = Vec::with_capacity(first.0.len());
    for (c, (name, proto)) in first.0.iter().enumerate() {
        let key = name.as_str().into();
        let col = match proto {
            Value::Str(_) => Column::new(
                key,
                values(records, c, name, |v| match v {
                    Value::Str(s) => s,
                    Value::Int(i) => i.to_string(),
                    Value::Float(f) => f.to_string(),
                    Value::Bool(b) => b.to_string(),
                })?,
            ),
            Value::Int(_) => Column::new(
                key,
                values(records, c, name, |v| match v {
                    Value::Int(i) => Some(i),
                    _ => None,
                })?,
            ),
            Value::Float(_) => Column::new(
                key,
                values(records, c, name, |v| match v {
                    Value::Float(f) => Some(f),
                    Value::Int(i) => Some(i as f64),
                    _ => None,
                })?,
            ),
            Value::Bool(_) => Column::new(
                key,
                values(records, c, name, |v| match v {
                    Value::Bool(b) => Some(b),
                    _ => None,
                })?,
            ),
        };
        cols.push(col);
    }
    DataFrame::new(records.len(), cols)
        .map_err(|e| ResultsError::Malformed(format!("cannot build table: {e}")))
}

/// Write `bytes` to `path` atomically: into a temporary file in the same
/// folder (named by [`super::atomic::temp_path`], unique to the process and
/// call, so concurrent writers never share one), then renamed over `path`.
/// The temporary file is registered with the interruption cleanup and
/// removed when writing fails; `path` is then left as it was.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), ResultsError> {
    let failed = |source| ResultsError::Write {
        path: path.to_path_buf(),
        source,
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(failed)?;
    }
    let tmp = super::atomic::temp_path(path);
    // An interruption waits for this write (and removes the temporary file
    // should it still exist), so no temporary file survives it.
    let _writing = crate::interrupt::write_guard();
    let _registered = crate::interrupt::register(&tmp);
    let done = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path));
    if done.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    done.map_err(failed)
}

/// Write a frame as CSV, atomically.
pub fn write_csv(df: &DataFrame, path: &Path) -> Result<(), ResultsError> {
    write_atomic(path, &csv_bytes(df, path)?)
}

/// A frame as CSV bytes (`path` names it in errors).
pub fn csv_bytes(df: &DataFrame, path: &Path) -> Result<Vec<u8>, ResultsError> {
    let mut buf = Vec::new();
    CsvWriter::new(&mut buf)
        .finish(&mut df.clone())
        .map_err(|source| ResultsError::Table {
            path: path.to_path_buf(),
            source,
        })?;
    Ok(buf)
}

/// Write a frame as Parquet, atomically.
pub fn write_parquet(df: &DataFrame, path: &Path) -> Result<(), ResultsError> {
    encode(
        path,
        |buf, df| ParquetWriter::new(buf).finish(df).map(drop),
        df,
    )
}

/// Encode a frame into memory with `write`, then write the bytes atomically.
fn encode(
    path: &Path,
    write: impl FnOnce(&mut Vec<u8>, &mut DataFrame) -> PolarsResult<()>,
    df: &DataFrame,
) -> Result<(), ResultsError> {
    let mut buf = Vec::new();
    write(&mut buf, &mut df.clone()).map_err(|source| ResultsError::Table {
        path: path.to_path_buf(),
        source,
    })?;
    write_atomic(path, &buf)
}

/// The extension of the stored tables (Parquet): `cvbench export` never
/// writes a file so named.
pub const TABLE_EXTENSION: &str = "parquet";

/// Write a frame as both `<stem>.parquet` and `<stem>.csv` in `dir`.
pub fn write_table(df: &DataFrame, dir: &Path, stem: &str) -> Result<Vec<PathBuf>, ResultsError> {
    let p = dir.join(format!("{stem}.{TABLE_EXTENSION}"));
    let c = dir.join(format!("{stem}.csv"));
    write_parquet(df, &p)?;
    write_csv(df, &c)?;
    Ok(vec![p, c])
}

/// Read a Parquet table.
pub fn read_parquet(path: &Path) -> Result<DataFrame, ResultsError> {
    let f = std::fs::File::open(path).map_err(|source| ResultsError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    ParquetReader::new(f)
        .finish()
        .map_err(|source| ResultsError::Table {
            path: path.to_path_buf(),
            source,
        })
}

/// Convert a frame back into records (for re-rendering from stored tables).
pub fn from_frame(df: &DataFrame) -> Result<Vec<Record>, ResultsError> {
    let mut out = vec![Record::new(); df.height()];
    for col in df.columns() {
        let name = col.name().to_string();
        let s = col.as_materialized_series();
        for (i, rec) in out.iter_mut().enumerate() {
            let v = s
                .get(i)
                .map_err(|e| ResultsError::Malformed(format!("column {name}: {e}")))?;
            let v = match v {
                AnyValue::Boolean(b) => Value::Bool(b),
                AnyValue::Int64(x) => Value::Int(x),
                AnyValue::Int32(x) => Value::Int(x.into()),
                AnyValue::UInt64(x) => Value::Int(x as i64),
                AnyValue::UInt32(x) => Value::Int(x.into()),
                AnyValue::Float64(x) => Value::Float(x),
                AnyValue::Float32(x) => Value::Float(x.into()),
                AnyValue::String(x) => Value::Str(x.to_string()),
                AnyValue::StringOwned(x) => Value::Str(x.to_string()),
                AnyValue::Null => Value::Float(f64::NAN),
                other => Value::Str(other.to_string()),
            };
            rec.push(&name, v);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_through_parquet_and_csv() {
        let dir = tempfile::tempdir().unwrap();
        let recs: Vec<Record> = (0..3)
            .map(|i| {
                Record::new()
                    .with("name", format!("r{i}"))
                    .with("k", i as u64)
                    .with("estimate", 0.5 + i as f64)
                    .with("ok", i % 2 == 0)
            })
            .collect();
        let df = to_frame(&recs).unwrap();
        let files = write_table(&df, dir.path(), "records").unwrap();
        assert!(files.iter().all(|f| f.exists()));
        let back = from_frame(&read_parquet(&files[0]).unwrap()).unwrap();
        assert_eq!(back, recs);
        let csv = std::fs::read_to_string(&files[1]).unwrap();
        assert!(
            csv.starts_with("name,k,estimate,ok\nr0,0,0.5,true"),
            "{csv}"
        );
        let nan = Record::new().with("x", f64::NAN).with("y", 1.5);
        let json = serde_json::to_string(&nan).unwrap();
        let back: Record = serde_json::from_str(&json).unwrap();
        assert!(
            matches!(back.get("x"), Some(Value::Float(v)) if v.is_nan()),
            "{json}"
        );
        let bad = vec![recs[0].clone(), Record::new().with("other", 1.0)];
        assert!(to_frame(&bad).is_err());
    }
}
