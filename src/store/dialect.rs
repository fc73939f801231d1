//! The few words in which SQLite and PostgreSQL differ, for statements written once.
//!
//! Store SQL is written as both backends read it, except for these, which it writes one way
//! and [`for_postgres`] / [`for_sqlite`] turn into the other backend's words:
//! - `GREATEST(a, b)` (PostgreSQL) is SQLite's two-argument `MAX(a, b)`;
//! - `json_group_array`, `json_group_object`, `json_array` (SQLite) are PostgreSQL's
//!   `json_agg`, `json_object_agg`, `json_build_array`;
//! - a JSON list bound as text and read with `json_each($n)` (SQLite) is PostgreSQL's
//!   `json_array_elements_text($n::json)`: both give a column `value` (text in PostgreSQL, so
//!   id lists are read as `CAST(value AS BIGINT)`).
//!
//! Whatever aggregates to JSON is read as text: write `CAST(COALESCE(json_group_array(…),
//! '[]') AS TEXT)`.

use std::borrow::Cow;

use regex::Regex;

/// `sql` in PostgreSQL's words.
pub fn for_postgres(sql: &str) -> String {
    static JSON_EACH: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    let json_each = JSON_EACH.get_or_init(|| Regex::new(r"json_each\((\$\d+)\)").expect("regex"));
    let sql = sql
        .replace("json_group_array(", "json_agg(")
        .replace("json_group_object(", "json_object_agg(")
        .replace("json_array(", "json_build_array(");
    json_each
        .replace_all(&sql, "json_array_elements_text($1::json)")
        .into_owned()
}

/// `sql` in SQLite's words.
pub fn for_sqlite(sql: &str) -> Cow<'_, str> {
    if sql.contains("GREATEST(") {
        Cow::Owned(sql.replace("GREATEST(", "MAX("))
    } else {
        Cow::Borrowed(sql)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_lists_and_aggregates_become_postgres_words() {
        assert_eq!(
            for_postgres(
                "SELECT CAST(COALESCE(json_group_array(json_array(id, n)), '[]') AS TEXT) FROM t \
                 WHERE id IN (SELECT CAST(value AS BIGINT) FROM json_each($12)) AND x = $1"
            ),
            "SELECT CAST(COALESCE(json_agg(json_build_array(id, n)), '[]') AS TEXT) FROM t \
             WHERE id IN (SELECT CAST(value AS BIGINT) FROM json_array_elements_text($12::json)) AND x = $1"
        );
        assert_eq!(
            for_postgres("SELECT json_group_object(term, n) FROM d"),
            "SELECT json_object_agg(term, n) FROM d"
        );
    }

    #[test]
    fn greatest_is_sqlite_max() {
        assert_eq!(
            for_sqlite("SET c = GREATEST(c, $2), s = GREATEST(s, $3)"),
            "SET c = MAX(c, $2), s = MAX(s, $3)"
        );
        assert!(matches!(for_sqlite("SELECT 1"), Cow::Borrowed(_)));
        assert_eq!(
            for_postgres("SELECT GREATEST(a, b)"),
            "SELECT GREATEST(a, b)"
        );
    }
}
