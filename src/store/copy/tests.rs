//! The copy's pieces that need no server: which tables it knows.

use super::*;

#[test]
fn every_sqlite_table_is_copied_or_known_to_have_no_twin() {
    // The SQLite schema's tables, from its migrations as applied.
    let conn = rusqlite::Connection::open_in_memory().unwrap();
    for file in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations/sqlite"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect::<std::collections::BTreeSet<_>>()
    {
        conn.execute_batch(&std::fs::read_to_string(file).unwrap())
            .unwrap();
    }
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    for table in &tables {
        assert!(
            sqlite_only(table) || TABLES.contains(&table.as_str()),
            "{table} is neither copied nor known to be SQLite's own"
        );
    }
    for table in TABLES {
        assert!(
            tables.iter().any(|t| t == table),
            "{table} is not in SQLite"
        );
    }
}
