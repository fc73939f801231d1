//! The inline writer's statements ([`Query`]: values bound by their `$N` names, as sqlx binds
//! them, so the texts are shared with the sqlx side) and its errors, as the store's.

use std::borrow::Cow;

use rusqlite::types::{ToSql, ToSqlOutput, Value};
use rusqlite::{Connection, Row};

/// A statement and its values, bound by their `$N` placeholders as sqlx binds them: the
/// texts are shared with the sqlx side.
///
/// The values are copied when bound, so a query owns them and can be queued for the writer.
pub struct Query<'q> {
    sql: Cow<'q, str>,
    values: Vec<Value>,
    /// A value that could not be turned into SQLite's: the statement fails with it.
    unbound: Option<String>,
}

impl<'q> Query<'q> {
    pub fn new(sql: impl Into<Cow<'q, str>>) -> Self {
        Self {
            sql: sql.into(),
            values: Vec::new(),
            unbound: None,
        }
    }

    /// Another statement with the same values, each of which takes the `$N` it names (a
    /// value none names is left out).
    pub fn on(&mut self, sql: impl Into<Cow<'q, str>>) -> &mut Self {
        self.sql = sql.into();
        self
    }

    /// The next value (`$1`, then `$2`…).
    pub fn bind(mut self, value: impl ToSql) -> Self {
        let value = match value.to_sql() {
            Ok(ToSqlOutput::Borrowed(v)) => v.into(),
            Ok(ToSqlOutput::Owned(v)) => v,
            Ok(_) => {
                self.unbound = Some(format!(
                    "value ${} is of no plain SQLite type",
                    self.values.len() + 1
                ));
                Value::Null
            }
            Err(e) => {
                self.unbound = Some(format!("value ${}: {e}", self.values.len() + 1));
                Value::Null
            }
        };
        self.values.push(value);
        self
    }

    /// Sets value `$n` (`n` from 1: past the values bound in order, or in place of one).
    pub fn set(&mut self, n: usize, value: i64) -> &mut Self {
        if self.values.len() < n {
            self.values.resize(n, Value::Null);
        }
        self.values[n - 1] = Value::Integer(value);
        self
    }

    fn prepared<'c>(
        &self,
        conn: &'c Connection,
    ) -> rusqlite::Result<rusqlite::CachedStatement<'c>> {
        if let Some(unbound) = &self.unbound {
            return Err(rusqlite::Error::ToSqlConversionFailure(
                unbound.clone().into(),
            ));
        }
        let mut statement = conn.prepare_cached(&self.sql)?;
        for i in 1..=statement.parameter_count() {
            let value = statement
                .parameter_name(i)
                .and_then(|name| name.strip_prefix('$'))
                .and_then(|n| n.parse::<usize>().ok())
                .and_then(|n| self.values.get(n.checked_sub(1)?))
                .ok_or(rusqlite::Error::InvalidParameterCount(i, self.values.len()))?;
            statement.raw_bind_parameter(i, value)?;
        }
        Ok(statement)
    }

    /// Runs the statement; its rows, each read by `read`.
    pub fn rows<T>(
        &self,
        conn: &Connection,
        mut read: impl FnMut(&Row<'_>) -> rusqlite::Result<T>,
    ) -> rusqlite::Result<Vec<T>> {
        let mut statement = self.prepared(conn)?;
        let mut rows = statement.raw_query();
        let mut out = Vec::new();
        while let Some(row) = rows.next()? {
            out.push(read(row)?);
        }
        Ok(out)
    }

    /// Runs the statement; its first row, read by `read`.
    pub fn first<T>(
        &self,
        conn: &Connection,
        read: impl FnOnce(&Row<'_>) -> rusqlite::Result<T>,
    ) -> rusqlite::Result<Option<T>> {
        let mut statement = self.prepared(conn)?;
        let mut rows = statement.raw_query();
        let first = match rows.next()? {
            Some(row) => Some(read(row)?),
            None => None,
        };
        // Run to the end: a statement that writes is done only then.
        while rows.next()?.is_some() {}
        Ok(first)
    }

    /// Runs the statement; how many rows it changed.
    pub fn execute(&self, conn: &Connection) -> rusqlite::Result<usize> {
        self.prepared(conn)?.raw_execute()
    }
}

/// A rusqlite error as the store's (sqlx's) error, with SQLite's extended code.
pub fn error(e: rusqlite::Error) -> sqlx::Error {
    sqlx::Error::Database(Box::new(InlineError::from(e)))
}

/// An error of the inline writer's own, with SQLite's extended code when it has one.
pub(super) fn failed(message: String, code: Option<i32>) -> sqlx::Error {
    sqlx::Error::Database(Box::new(InlineError {
        message,
        code,
        source: None,
    }))
}

/// An error that ended a combined transaction, as each of its writes' own.
pub(super) fn shared(e: &InlineError) -> sqlx::Error {
    failed(e.message.clone(), e.code)
}

#[derive(Debug)]
pub struct InlineError {
    message: String,
    code: Option<i32>,
    source: Option<rusqlite::Error>,
}

impl InlineError {
    /// The store's error `e` (taking the gate failed), to tell every queued write.
    pub(super) fn of(e: &sqlx::Error) -> Self {
        Self {
            message: e.to_string(),
            code: None,
            source: None,
        }
    }
}

impl From<rusqlite::Error> for InlineError {
    fn from(source: rusqlite::Error) -> Self {
        let code = match &source {
            rusqlite::Error::SqliteFailure(e, _) => Some(e.extended_code),
            _ => None,
        };
        Self {
            message: source.to_string(),
            code,
            source: Some(source),
        }
    }
}

impl std::fmt::Display for InlineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for InlineError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_ref().map(|e| e as _)
    }
}

impl sqlx::error::DatabaseError for InlineError {
    fn message(&self) -> &str {
        &self.message
    }

    fn code(&self) -> Option<std::borrow::Cow<'_, str>> {
        self.code.map(|c| c.to_string().into())
    }

    fn as_error(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        self
    }

    fn as_error_mut(&mut self) -> &mut (dyn std::error::Error + Send + Sync + 'static) {
        self
    }

    fn into_error(self: Box<Self>) -> Box<dyn std::error::Error + Send + Sync + 'static> {
        self
    }

    fn kind(&self) -> sqlx::error::ErrorKind {
        use rusqlite::ffi;
        use sqlx::error::ErrorKind;
        match self.code {
            Some(ffi::SQLITE_CONSTRAINT_UNIQUE | ffi::SQLITE_CONSTRAINT_PRIMARYKEY) => {
                ErrorKind::UniqueViolation
            }
            Some(ffi::SQLITE_CONSTRAINT_FOREIGNKEY) => ErrorKind::ForeignKeyViolation,
            Some(ffi::SQLITE_CONSTRAINT_NOTNULL) => ErrorKind::NotNullViolation,
            Some(ffi::SQLITE_CONSTRAINT_CHECK) => ErrorKind::CheckViolation,
            _ => ErrorKind::Other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE t (x INTEGER PRIMARY KEY, y TEXT)")
            .unwrap();
        conn
    }

    /// Values go to their `$N` wherever and however often it appears, as sqlx binds them; a
    /// placeholder with no value is an error, not a panic.
    #[test]
    fn values_are_bound_by_their_numbers() {
        let conn = table();
        let row = Query::new("SELECT $2, $1, $2 || $1")
            .bind("a")
            .bind("b")
            .first(&conn, |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                ))
            })
            .unwrap();
        assert_eq!(row, Some(("b".into(), "a".into(), "ba".into())));
        let missing = Query::new("SELECT $1, $3").bind(1).bind(2).execute(&conn);
        assert!(missing.is_err());
    }

    /// A constraint broken on the inline writer is the store's usual error, of the usual kind.
    #[test]
    fn errors_keep_their_kind() {
        let conn = table();
        let insert = Query::new("INSERT INTO t (x) VALUES ($1)").bind(1);
        insert.execute(&conn).unwrap();
        let sqlx::Error::Database(e) = error(insert.execute(&conn).unwrap_err()) else {
            panic!("a database error")
        };
        assert!(e.is_unique_violation(), "{e}");
        assert_eq!(
            e.code().as_deref(),
            Some("1555"),
            "SQLITE_CONSTRAINT_PRIMARYKEY"
        );
    }
}
