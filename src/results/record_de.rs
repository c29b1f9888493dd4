//! A stored [`Record`] read as a typed row straight from its values: a serde
//! `Deserializer` over the record's columns, in their order, with no
//! intermediate JSON object (a report reads hundreds of thousands of rows).
//!
//! It reads what a JSON object of the same columns would: a non-finite
//! float is null (`None` for an `Option`, an error for a plain number), an
//! integer reads into any integer or float field that holds it, text only
//! into text.

use super::table::{Record, Value};
use serde::de::value::{Error, MapDeserializer};
use serde::de::{DeserializeOwned, Deserializer, IntoDeserializer, Visitor};

/// Deserialize one record into a row type.
pub(super) fn row<T: DeserializeOwned>(r: &Record) -> Result<T, Error> {
    T::deserialize(MapDeserializer::new(
        r.0.iter().map(|(k, v)| (k.as_str(), Column(v))),
    ))
}

/// One column's value, as a deserializer.
struct Column<'a>(&'a Value);

impl<'de> IntoDeserializer<'de, Error> for Column<'_> {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

impl<'de> Deserializer<'de> for Column<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Bool(b) => v.visit_bool(*b),
            Value::Int(i) => v.visit_i64(*i),
            Value::Float(f) if f.is_finite() => v.visit_f64(*f),
            Value::Float(_) => v.visit_unit(),
            Value::Str(s) => v.visit_str(s),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Float(f) if !f.is_finite() => v.visit_none(),
            _ => v.visit_some(self),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple tuple_struct
        map struct enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    struct R {
        a: i64,
        b: f64,
        c: Option<f64>,
        d: String,
        e: bool,
        f: usize,
        #[serde(default)]
        g: u8,
    }

    fn rec(cols: Vec<(&str, Value)>) -> Record {
        Record(cols.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    }

    #[test]
    fn reads_what_a_json_object_of_the_columns_reads() {
        let ok = rec(vec![
            ("a", Value::Int(-3)),
            ("b", Value::Int(2)),
            ("c", Value::Float(f64::NAN)),
            ("d", Value::Str("x".into())),
            ("e", Value::Bool(true)),
            ("f", Value::Int(7)),
            ("unknown", Value::Float(1.5)),
        ]);
        let r: R = row(&ok).unwrap();
        assert_eq!(
            r,
            R {
                a: -3,
                b: 2.0,
                c: None,
                d: "x".into(),
                e: true,
                f: 7,
                g: 0
            }
        );
        // What JSON refuses, this refuses: a null plain number, a negative
        // count, a float integer, text for a number, a missing field.
        for (col, bad) in [
            ("b", Value::Float(f64::INFINITY)),
            ("f", Value::Int(-1)),
            ("a", Value::Float(1.0)),
            ("a", Value::Str("1".into())),
        ] {
            let mut r = ok.clone();
            r.0.iter_mut().find(|(k, _)| k == col).unwrap().1 = bad;
            assert!(row::<R>(&r).is_err(), "{col}");
        }
        let mut missing = ok.clone();
        missing.0.retain(|(k, _)| k != "d");
        assert!(row::<R>(&missing).is_err());
    }
}
