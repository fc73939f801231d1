//! One value on its way from SQLite to PostgreSQL: what SQLite holds (its five storage
//! classes), the PostgreSQL column it goes to, and the conversion between them — strict: a
//! value that does not fit its column is an error naming it, never a guess.

use sqlx::Postgres;
use sqlx::query_builder::Separated;

/// A value as SQLite stores it.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

impl Value {
    /// Text that is not UTF-8 is an error (PostgreSQL's text could not hold it either).
    pub fn read(value: rusqlite::types::ValueRef<'_>) -> Result<Self, String> {
        use rusqlite::types::ValueRef;
        Ok(match value {
            ValueRef::Null => Self::Null,
            ValueRef::Integer(i) => Self::Int(i),
            ValueRef::Real(r) => Self::Real(r),
            ValueRef::Text(t) => Self::Text(
                String::from_utf8(t.to_vec())
                    .map_err(|e| format!("text that is not UTF-8 ({e})"))?,
            ),
            ValueRef::Blob(b) => Self::Blob(b.to_vec()),
        })
    }

    fn class(&self) -> &'static str {
        match self {
            Self::Null => "NULL",
            Self::Int(_) => "an integer",
            Self::Real(_) => "a real number",
            Self::Text(_) => "text",
            Self::Blob(_) => "a blob",
        }
    }
}

/// The PostgreSQL column types Mneme's schema uses (`migrations/postgres/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    BigInt,
    Bool,
    Double,
    Text,
    Bytes,
}

impl Kind {
    /// From `information_schema.columns.data_type`.
    pub fn of_postgres(data_type: &str) -> Option<Self> {
        Some(match data_type {
            "bigint" => Self::BigInt,
            "boolean" => Self::Bool,
            "double precision" => Self::Double,
            "text" => Self::Text,
            "bytea" => Self::Bytes,
            _ => return None,
        })
    }

    /// `value` as this column takes it.
    pub fn bind(self, value: Value) -> Result<Bound, String> {
        Ok(match (self, value) {
            (Self::BigInt, Value::Null) => Bound::BigInt(None),
            (Self::BigInt, Value::Int(i)) => Bound::BigInt(Some(i)),
            (Self::Bool, Value::Null) => Bound::Bool(None),
            (Self::Bool, Value::Int(i @ (0 | 1))) => Bound::Bool(Some(i == 1)),
            (Self::Double, Value::Null) => Bound::Double(None),
            (Self::Double, Value::Real(r)) => Bound::Double(Some(r)),
            // SQLite stores a REAL column's whole numbers as integers when it can.
            #[allow(clippy::cast_precision_loss)]
            (Self::Double, Value::Int(i)) => Bound::Double(Some(i as f64)),
            (Self::Text, Value::Null) => Bound::Text(None),
            // PostgreSQL's text cannot hold NUL; Mneme stores U+FFFD in its place on both.
            (Self::Text, Value::Text(t)) => Bound::Text(Some(t.replace('\0', "\u{FFFD}"))),
            (Self::Bytes, Value::Null) => Bound::Bytes(None),
            (Self::Bytes, Value::Blob(b)) => Bound::Bytes(Some(b)),
            (kind, value) => {
                let shown = match &value {
                    Value::Int(i) => format!(" {i}"),
                    _ => String::new(),
                };
                return Err(format!(
                    "{}{shown} does not fit a {} column",
                    value.class(),
                    kind.name()
                ));
            }
        })
    }

    fn name(self) -> &'static str {
        match self {
            Self::BigInt => "BIGINT",
            Self::Bool => "BOOLEAN",
            Self::Double => "DOUBLE PRECISION",
            Self::Text => "TEXT",
            Self::Bytes => "BYTEA",
        }
    }
}

/// A value ready to bind, typed even when NULL (PostgreSQL must know a parameter's type).
#[derive(Debug, Clone, PartialEq)]
pub enum Bound {
    BigInt(Option<i64>),
    Bool(Option<bool>),
    Double(Option<f64>),
    Text(Option<String>),
    Bytes(Option<Vec<u8>>),
}

impl Bound {
    pub fn push_onto(self, b: &mut Separated<'_, '_, Postgres, &'static str>) {
        match self {
            Self::BigInt(v) => b.push_bind(v),
            Self::Bool(v) => b.push_bind(v),
            Self::Double(v) => b.push_bind(v),
            Self::Text(v) => b.push_bind(v),
            Self::Bytes(v) => b.push_bind(v),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_value_goes_to_its_column_or_is_refused_by_name() {
        assert_eq!(Kind::Bool.bind(Value::Int(1)), Ok(Bound::Bool(Some(true))));
        assert_eq!(Kind::Bool.bind(Value::Int(0)), Ok(Bound::Bool(Some(false))));
        assert_eq!(
            Kind::Bool.bind(Value::Int(2)),
            Err("an integer 2 does not fit a BOOLEAN column".into())
        );
        assert_eq!(
            Kind::Double.bind(Value::Int(1)),
            Ok(Bound::Double(Some(1.0)))
        );
        assert_eq!(Kind::BigInt.bind(Value::Null), Ok(Bound::BigInt(None)));
        assert_eq!(
            Kind::BigInt.bind(Value::Text("12".into())),
            Err("text does not fit a BIGINT column".into())
        );
        assert_eq!(
            Kind::Text.bind(Value::Text("a\0b".into())),
            Ok(Bound::Text(Some("a\u{FFFD}b".into())))
        );
        assert_eq!(
            Kind::Bytes.bind(Value::Blob(vec![0, 1])),
            Ok(Bound::Bytes(Some(vec![0, 1])))
        );
        assert_eq!(Kind::of_postgres("tsvector"), None);
    }

    #[test]
    fn text_that_is_not_utf8_is_an_error_not_a_guess() {
        use rusqlite::types::ValueRef;
        assert!(Value::read(ValueRef::Text(b"\xff\xfe")).is_err());
        assert_eq!(
            Value::read(ValueRef::Text("东京".as_bytes())),
            Ok(Value::Text("东京".into()))
        );
    }
}
