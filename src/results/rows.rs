//! Typed record rows: one generic path between a kind's
//! `#[derive(Serialize, Deserialize)]` row struct and the harness's
//! [`Record`]s (and so Polars frames).
//!
//! A row struct lists its columns in order; it starts with the shared
//! [`Core`] columns (`#[serde(flatten)]`), then its own. Numbers that may be
//! missing are `Option`s: an `Option<f64>` is stored as NaN when `None`, an
//! `Option<i64>` as `-1` (with `#[serde(with = "minus_one")]`), the
//! representations the stored tables have always used. Text columns are
//! plain `String`s (empty when not applicable), and 64-bit seeds are stored
//! as decimal text, which no integer column can hold.

use super::table::{Record, ResultsError, Value};
use rayon::prelude::*;
use serde::de::{DeserializeOwned, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;

/// The columns every kind's records start with, in this order.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Core {
    /// The experiment kind (`treecv`, `progressive`, `svm_cv`).
    pub kind: String,
    /// The run (the config's `name`).
    pub run: String,
    /// The cell's key (its identity in the plan).
    pub cell: String,
    /// Repetition, when the kind repeats cells.
    #[serde(with = "minus_one")]
    pub rep: Option<i64>,
    /// The seed the row's numbers flow from (decimal u64).
    pub seed: String,
    /// Dataset (or population) name.
    pub dataset: String,
    /// Whether the dataset is synthetic.
    pub synthetic: bool,
    /// The method measured (CV method, procedure or solver).
    pub method: String,
    /// Wall seconds of the measured work (NaN when untimed).
    #[serde(with = "nan_f64")]
    pub seconds: f64,
}

/// Turn typed rows into records, columns in field order.
pub fn to_records<T: Serialize>(rows: &[T]) -> Result<Vec<Record>, ResultsError> {
    rows.iter()
        .map(|r| {
            let text = serde_json::to_string(r)
                .map_err(|e| ResultsError::Malformed(format!("row to record: {e}")))?;
            let ordered: Ordered = serde_json::from_str(&text)
                .map_err(|e| ResultsError::Malformed(format!("row to record: {e}")))?;
            Ok(Record(ordered.0))
        })
        .collect()
}

/// Read records back into typed rows. Columns the row type does not name are
/// ignored; fields the records lack take their `#[serde(default)]`.
pub fn from_records<T: DeserializeOwned + Send>(
    records: &[Record],
) -> Result<Vec<T>, ResultsError> {
    // Rows are read in parallel (a stored run may hold hundreds of thousands)
    // and gathered in order, so the first bad record is the one reported.
    let rows: Vec<Result<T, _>> = records.par_iter().map(super::record_de::row).collect();
    rows.into_iter()
        .map(|r| {
            r.map_err(|e| {
                ResultsError::Malformed(format!(
                    "stored record does not match its kind's row type: {e}"
                ))
            })
        })
        .collect()
}

/// A JSON object read with its keys in order, values as [`Value`]s (`null`
/// becomes NaN).
struct Ordered(Vec<(String, Value)>);

impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Ordered;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a flat struct of numbers, text and booleans")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Ordered, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = m.next_entry::<String, Value>()? {
                    out.push((k, v));
                }
                Ok(Ordered(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// `Option<i64>` stored as `-1` when `None` (`#[serde(with = "minus_one")]`).
pub mod minus_one {
    use serde::{Deserialize, Deserializer, Serializer};

    /// `None` as -1.
    pub fn serialize<S: Serializer>(v: &Option<i64>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i64(v.unwrap_or(-1))
    }

    /// -1 (or a missing/non-finite value) as `None`.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum N {
            I(i64),
            F(f64),
            Null(()),
        }
        Ok(match N::deserialize(d)? {
            N::I(i) if i >= 0 => Some(i),
            N::F(f) if f.is_finite() && f >= 0.0 => Some(f as i64),
            _ => None,
        })
    }
}

/// An `f64` that may be NaN (`#[serde(with = "nan_f64")]`): tables store
/// NaN as null, which a plain `f64` field cannot read back.
pub mod nan_f64 {
    use serde::{Deserialize, Deserializer, Serializer};

    /// As is (NaN becomes null on the way to a record).
    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(*v)
    }

    /// Null (a stored NaN) as NaN.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
    }
}

/// `Option<f64>` stored as NaN when `None` (`#[serde(with = "nan_none")]`).
pub mod nan_none {
    use serde::{Deserialize, Deserializer, Serializer};

    /// `None` as NaN.
    pub fn serialize<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(v.unwrap_or(f64::NAN))
    }

    /// NaN (stored as null) as `None`.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
        Ok(Option::<f64>::deserialize(d)?.filter(|v| v.is_finite()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
    struct R {
        #[serde(flatten)]
        core: Core,
        #[serde(with = "minus_one")]
        k: Option<i64>,
        #[serde(with = "nan_none")]
        estimate: Option<f64>,
        label: String,
        ok: bool,
        #[serde(default)]
        added_later: i64,
    }

    #[test]
    fn typed_rows_round_trip_with_core_columns_first_and_sentinels_kept() {
        let rows = vec![
            R {
                core: Core {
                    kind: "k".into(),
                    run: "r".into(),
                    cell: "c|rep=1".into(),
                    rep: Some(1),
                    seed: u64::MAX.to_string(),
                    dataset: "d".into(),
                    synthetic: true,
                    method: "m".into(),
                    seconds: 0.25,
                },
                k: Some(10),
                estimate: Some(0.5),
                label: "x".into(),
                ok: true,
                added_later: 3,
            },
            R {
                core: Core {
                    seconds: f64::NAN,
                    ..Core::default()
                },
                k: None,
                estimate: None,
                ..R::default()
            },
        ];
        let recs = to_records(&rows).unwrap();
        let names: Vec<&str> = recs[0].0.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "kind",
                "run",
                "cell",
                "rep",
                "seed",
                "dataset",
                "synthetic",
                "method",
                "seconds",
                "k",
                "estimate",
                "label",
                "ok",
                "added_later"
            ]
        );
        assert_eq!(recs[1].get("k"), Some(&Value::Int(-1)));
        assert_eq!(recs[1].get("rep"), Some(&Value::Int(-1)));
        assert!(recs[1].number("estimate").is_nan());
        assert_eq!(recs[0].text("seed"), u64::MAX.to_string());
        // Through a frame and back, as the report reads stored runs.
        let df = super::super::table::to_frame(&recs).unwrap();
        let back: Vec<R> = from_records(&super::super::table::from_frame(&df).unwrap()).unwrap();
        assert_eq!(back.len(), 2);
        assert_eq!(back[0], rows[0]);
        assert!(
            back[1].core.seconds.is_nan(),
            "an untimed row reads back as NaN"
        );
        assert_eq!(back[1].k, None);
        // An older table without some columns still reads.
        let mut old = recs[0].clone();
        old.0.retain(|(n, _)| n != "added_later" && n != "kind");
        let back: Vec<R> = from_records(&[old]).unwrap();
        assert_eq!(back[0].added_later, 0);
        assert_eq!(back[0].core.kind, "");
        assert_eq!(back[0].k, Some(10));
    }
}
