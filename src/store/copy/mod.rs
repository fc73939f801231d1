//! `mneme copy-to`: the whole of a SQLite database copied into an empty PostgreSQL one — the
//! chats, their messages (with what is still owed an answer), the memories with their
//! history, sources, vectors and term index, the reflector's cursors and set-aside batches,
//! usage, the jobs' state and the channels' state (Telegram's update offset) — so that
//! moving a bot to replicas loses nothing: not a fact, not a message the reflector has yet to
//! read, not a memory's id (`/forget 24` still means the same memory).
//!
//! How:
//! - the source is read in one read transaction (one snapshot of every table), on a thread of
//!   its own, and streamed to the target in batches;
//! - the target's schema is made by its own migrations, then everything is written in one
//!   transaction that commits only once every table's row count matches the source's —
//!   whatever fails, the target is left as it was;
//! - the target's triggers are turned off for that transaction (`ALTER TABLE … DISABLE
//!   TRIGGER USER`, which also locks each table against replicas already running on it), since
//!   what they would derive (a memory's history, counts, the embedding queue) is copied as it
//!   is; foreign keys stay checked;
//! - every identity sequence is set past the highest id the source ever gave (SQLite's
//!   `memory_id_floor` included), so no id is handed out twice.
//!
//! The schemas are twins (`migrations/postgres/0001_init.sql`): the same tables and columns.
//! A table or column on one side only is refused by name rather than dropped.

mod values;

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, anyhow, bail};
use sqlx::postgres::{PgConnectOptions, PgConnection};
use sqlx::{Connection, Postgres, QueryBuilder};
use tokio::sync::mpsc;

use values::{Kind, Value};

/// The PostgreSQL schema's tables, parents before children.
pub const TABLES: &[&str] = &[
    "chats",
    "sessions",
    "messages",
    "channel_state",
    "memories",
    "memory_reflector_state",
    "memory_reflector_runs",
    "memory_injection_logs",
    "llm_usage",
    "memory_terms",
    "memory_term_df",
    "memory_terms_backlog",
    "memory_vectors",
    "memory_vector_generations",
    "memory_embedding_queue",
    "memory_reflector_set_aside",
    "scheduled_jobs",
    "memory_events",
    "memory_consolidation_state",
    "memory_active_counts",
];

/// SQLite's tables with no PostgreSQL twin: its full-text index (PostgreSQL derives a
/// `search_tsv` column from the same `search_text`), the memory id floor (PostgreSQL's
/// identity never reuses an id; the floor sets where it starts), SQLite's and sqlx's own.
fn sqlite_only(table: &str) -> bool {
    table.starts_with("sqlite_")
        || table.starts_with("memory_fts")
        || table.starts_with("message_fts")
        || matches!(table, "memory_id_floor" | "_sqlx_migrations")
}

/// A column written after its table's rows, because it may point at a row of its own table
/// written later (a memory superseded by… itself an older row, usually, but not always).
const LATER: &[(&str, &str)] = &[("memories", "supersedes_id")];

/// Rows per `INSERT` (PostgreSQL takes at most 65,535 bound values a statement).
const BATCH_VALUES: usize = 30_000;
const MAX_BATCH_ROWS: usize = 1_000;

/// How long to wait for the PostgreSQL server to answer the connection.
const CONNECT_WITHIN: std::time::Duration = std::time::Duration::from_secs(10);

/// What was copied: each table with its rows, in [`TABLES`] order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Copied {
    pub tables: Vec<(&'static str, u64)>,
}

/// Copies the SQLite database at `source` (already migrated to the current schema: open it
/// with `Store::open` first) into the empty PostgreSQL database at `target`, creating its
/// schema. All or nothing. Errors never show `target`'s password.
pub async fn sqlite_to_postgres(source: &Path, target: &str) -> anyhow::Result<Copied> {
    let options: PgConnectOptions = target.parse().context("not a PostgreSQL URL")?;
    let mut pg = tokio::time::timeout(CONNECT_WITHIN, PgConnection::connect_with(&options))
        .await
        .map_err(|_| anyhow!("no answer within {} s", CONNECT_WITHIN.as_secs()))?
        .context("cannot connect")?;
    super::POSTGRES_MIGRATIONS
        .run_direct(&mut pg)
        .await
        .context("cannot create the schema")?;

    let mut tx = pg.begin().await?;
    let targets = target_columns(&mut tx).await?;
    let target_tables: Vec<&str> = targets.keys().map(String::as_str).collect();
    let mut expected: Vec<&str> = TABLES.to_vec();
    expected.sort_unstable();
    if target_tables != expected {
        bail!(
            "the PostgreSQL schema's tables ({}) are not the ones this version copies ({})",
            target_tables.join(", "),
            expected.join(", ")
        );
    }
    // Locks every table too: replicas already started on this database wait.
    for table in TABLES {
        sqlx::query(&format!("ALTER TABLE {table} DISABLE TRIGGER USER"))
            .execute(&mut *tx)
            .await
            .with_context(|| {
                format!(
                    "cannot turn off {table}'s triggers for the copy: run copy-to as the role \
                     that owns Mneme's tables"
                )
            })?;
    }
    let mut holding = Vec::new();
    for table in TABLES {
        let n = row_count(&mut tx, table).await?;
        if n > 0 {
            holding.push(format!("{table}: {n}"));
        }
    }
    if !holding.is_empty() {
        let more = if holding.len() > 3 { ", …" } else { "" };
        holding.truncate(3);
        bail!(
            "the database already holds data ({}{more}); copy-to fills an empty database only",
            holding.join(", ")
        );
    }

    let (sender, mut batches) = mpsc::channel::<Read>(4);
    let path = source.to_owned();
    let reader = tokio::task::spawn_blocking(move || read_sqlite(&path, &sender));
    let mut copied = Vec::new();
    let mut floors: BTreeMap<String, i64> = BTreeMap::new();
    let mut current: Option<Writing> = None;
    while let Some(read) = batches.recv().await {
        match read {
            Read::Table {
                table,
                columns,
                floor,
            } => {
                if let Some(done) = current.take() {
                    copied.push(done.finish(&mut tx).await?);
                }
                floors.insert(table.to_string(), floor);
                current = Some(Writing::new(table, columns, &targets)?);
            }
            Read::Rows(rows) => {
                let writing = current
                    .as_mut()
                    .ok_or_else(|| anyhow!("rows before their table"))?;
                writing.write(&mut tx, rows).await?;
            }
        }
    }
    // The reader's own error (an unreadable file, text that is not UTF-8) comes first: the
    // channel closing early is only its consequence.
    reader.await.context("the SQLite reader stopped")??;
    if let Some(done) = current.take() {
        copied.push(done.finish(&mut tx).await?);
    }
    let names: Vec<&str> = copied.iter().map(|(t, _)| *t).collect();
    if names != TABLES {
        bail!("the SQLite database lacks tables ({names:?} read)");
    }
    for (table, rows) in &copied {
        let n = row_count(&mut tx, table).await?;
        if u64::try_from(n).ok() != Some(*rows) {
            bail!("{table}: {rows} rows read, {n} in PostgreSQL");
        }
    }
    set_sequences(&mut tx, &floors).await?;
    for table in TABLES {
        sqlx::query(&format!("ALTER TABLE {table} ENABLE TRIGGER USER"))
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    let _ = pg.close().await;
    Ok(Copied { tables: copied })
}

/// The rows `table` holds in the target.
async fn row_count(tx: &mut PgConnection, table: &str) -> sqlx::Result<i64> {
    sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
        .fetch_one(tx)
        .await
}

/// What the SQLite reader sends: a table's start (its columns, and the highest id SQLite ever
/// gave in it), then its rows.
enum Read {
    Table {
        table: &'static str,
        columns: Vec<String>,
        floor: i64,
    },
    Rows(Vec<Vec<Value>>),
}

/// The target's columns per table: name and kind, in order, generated ones left out.
type Columns = BTreeMap<String, Vec<(String, Kind)>>;

async fn target_columns(tx: &mut PgConnection) -> anyhow::Result<Columns> {
    let rows: Vec<(String, String, String, String)> = sqlx::query_as(
        "SELECT table_name::text, column_name::text, data_type::text, is_generated::text \
         FROM information_schema.columns \
         WHERE table_schema = current_schema() AND table_name <> '_sqlx_migrations' \
         ORDER BY table_name, ordinal_position",
    )
    .fetch_all(&mut *tx)
    .await?;
    let mut out = Columns::new();
    for (table, column, data_type, generated) in rows {
        let columns = out.entry(table.clone()).or_default();
        if generated == "ALWAYS" {
            continue;
        }
        let kind = Kind::of_postgres(&data_type).ok_or_else(|| {
            anyhow!("{table}.{column} is of type {data_type}, unknown to copy-to")
        })?;
        columns.push((column, kind));
    }
    Ok(out)
}

/// One table being written: its columns in the source's order, each with its target kind.
struct Writing {
    table: &'static str,
    columns: Vec<(String, Kind)>,
    /// Indexes into `columns` of the [`LATER`] ones, with the (id, value) pairs to set.
    later: Vec<(usize, Vec<(i64, i64)>)>,
    rows: u64,
}

impl Writing {
    fn new(table: &'static str, source: Vec<String>, targets: &Columns) -> anyhow::Result<Self> {
        let target = targets
            .get(table)
            .ok_or_else(|| anyhow!("PostgreSQL has no table {table}"))?;
        let mut columns = Vec::new();
        for name in &source {
            let kind = target
                .iter()
                .find(|(c, _)| c == name)
                .map(|(_, k)| *k)
                .ok_or_else(|| anyhow!("{table}.{name} has no PostgreSQL column to go to"))?;
            columns.push((name.clone(), kind));
        }
        if let Some((missing, _)) = target.iter().find(|(c, _)| !source.contains(c)) {
            bail!("{table}.{missing} is missing from the SQLite database");
        }
        let later = LATER
            .iter()
            .filter(|(t, _)| *t == table)
            .filter_map(|(_, c)| columns.iter().position(|(name, _)| name == c))
            .map(|i| (i, Vec::new()))
            .collect();
        Ok(Self {
            table,
            columns,
            later,
            rows: 0,
        })
    }

    async fn write(&mut self, tx: &mut PgConnection, rows: Vec<Vec<Value>>) -> anyhow::Result<()> {
        let id = self.columns.iter().position(|(c, _)| c == "id");
        let mut converted = Vec::with_capacity(rows.len());
        for mut row in rows {
            for (i, pairs) in &mut self.later {
                if let Value::Int(v) = row[*i] {
                    let Some(Value::Int(id)) = id.map(|id| &row[id]) else {
                        bail!("{}: a row without its id", self.table);
                    };
                    pairs.push((*id, v));
                }
                row[*i] = Value::Null;
            }
            let mut out = Vec::with_capacity(row.len());
            for ((column, kind), value) in self.columns.iter().zip(row) {
                out.push(
                    kind.bind(value).map_err(|e| {
                        anyhow!("{}.{column}, row {}: {e}", self.table, self.rows + 1)
                    })?,
                );
            }
            converted.push(out);
            self.rows += 1;
        }
        let names: Vec<&str> = self.columns.iter().map(|(c, _)| c.as_str()).collect();
        let mut insert = QueryBuilder::<Postgres>::new(format!(
            "INSERT INTO {} ({}) ",
            self.table,
            names.join(", ")
        ));
        insert.push_values(converted, |mut b, row| {
            for value in row {
                value.push_onto(&mut b);
            }
        });
        insert
            .build()
            .execute(&mut *tx)
            .await
            .with_context(|| format!("cannot write {}", self.table))?;
        Ok(())
    }

    /// Sets the [`LATER`] columns; returns the table's name and row count.
    async fn finish(self, tx: &mut PgConnection) -> anyhow::Result<(&'static str, u64)> {
        for (i, pairs) in self.later {
            let column = &self.columns[i].0;
            for chunk in pairs.chunks(BATCH_VALUES) {
                let (ids, values): (Vec<i64>, Vec<i64>) = chunk.iter().copied().unzip();
                sqlx::query(&format!(
                    "UPDATE {table} SET {column} = v.value \
                     FROM UNNEST($1::BIGINT[], $2::BIGINT[]) AS v (id, value) \
                     WHERE {table}.id = v.id",
                    table = self.table
                ))
                .bind(ids)
                .bind(values)
                .execute(&mut *tx)
                .await
                .with_context(|| format!("cannot set {}.{column}", self.table))?;
            }
        }
        Ok((self.table, self.rows))
    }
}

/// Each identity column's sequence set past the highest id the table holds or SQLite ever
/// gave (`floors`).
async fn set_sequences(
    tx: &mut PgConnection,
    floors: &BTreeMap<String, i64>,
) -> anyhow::Result<()> {
    let identities: Vec<(String, String)> = sqlx::query_as(
        "SELECT table_name::text, column_name::text FROM information_schema.columns \
         WHERE table_schema = current_schema() AND is_identity = 'YES'",
    )
    .fetch_all(&mut *tx)
    .await?;
    for (table, column) in identities {
        let highest: Option<i64> =
            sqlx::query_scalar(&format!("SELECT MAX({column}) FROM {table}"))
                .fetch_one(&mut *tx)
                .await?;
        let floor = highest
            .unwrap_or(0)
            .max(floors.get(&table).copied().unwrap_or(0));
        if floor > 0 {
            sqlx::query("SELECT setval(pg_get_serial_sequence($1, $2), $3)")
                .bind(&table)
                .bind(&column)
                .bind(floor)
                .execute(&mut *tx)
                .await
                .with_context(|| format!("cannot set {table}.{column}'s sequence"))?;
        }
    }
    Ok(())
}

/// Reads every table of [`TABLES`] from the SQLite file at `path` in one read transaction,
/// sending each table's columns and then its rows in batches.
fn read_sqlite(path: &Path, out: &mpsc::Sender<Read>) -> anyhow::Result<()> {
    use rusqlite::OpenFlags;
    let mut conn = rusqlite::Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .with_context(|| format!("cannot open {}", path.display()))?;
    conn.busy_timeout(std::time::Duration::from_secs(10))?;
    let tx = conn.transaction()?;
    let tables: Vec<String> = tx
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    if let Some(extra) = tables
        .iter()
        .find(|t| !sqlite_only(t) && !TABLES.contains(&t.as_str()))
    {
        bail!("the SQLite table {extra} has no PostgreSQL twin; copy-to would lose it");
    }
    let sequences: BTreeMap<String, i64> = if tables.iter().any(|t| t == "sqlite_sequence") {
        tx.prepare("SELECT name, seq FROM sqlite_sequence")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?
    } else {
        BTreeMap::new()
    };
    for &table in TABLES {
        if !tables.iter().any(|t| t == table) {
            bail!("the SQLite database has no table {table}: is it a Mneme database?");
        }
        let columns: Vec<String> = tx
            .prepare(&format!(
                "SELECT name FROM pragma_table_info('{table}') ORDER BY cid"
            ))?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let mut floor = sequences.get(table).copied().unwrap_or(0);
        if table == "memories" {
            let kept: Option<i64> = tx
                .query_row("SELECT MAX(n) FROM memory_id_floor", [], |r| r.get(0))
                .unwrap_or(None);
            floor = floor.max(kept.unwrap_or(0));
        }
        let batch = (BATCH_VALUES / columns.len().max(1)).clamp(1, MAX_BATCH_ROWS);
        let sent = out.blocking_send(Read::Table {
            table,
            columns: columns.clone(),
            floor,
        });
        if sent.is_err() {
            return Ok(()); // the writer stopped; its error is the one to tell
        }
        let quoted: Vec<String> = columns.iter().map(|c| format!("\"{c}\"")).collect();
        let mut statement = tx.prepare(&format!("SELECT {} FROM {table}", quoted.join(", ")))?;
        let mut rows = statement.query([])?;
        let mut buffer = Vec::with_capacity(batch);
        let mut n = 0u64;
        while let Some(row) = rows.next()? {
            n += 1;
            let mut values = Vec::with_capacity(columns.len());
            for (i, column) in columns.iter().enumerate() {
                let value = Value::read(row.get_ref(i)?)
                    .map_err(|e| anyhow!("{table}.{column}, row {n}: {e}"))?;
                values.push(value);
            }
            buffer.push(values);
            if buffer.len() == batch
                && out
                    .blocking_send(Read::Rows(std::mem::replace(
                        &mut buffer,
                        Vec::with_capacity(batch),
                    )))
                    .is_err()
            {
                return Ok(());
            }
        }
        if !buffer.is_empty() && out.blocking_send(Read::Rows(buffer)).is_err() {
            return Ok(());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
