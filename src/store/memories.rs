//! Structured memories: facts with a category, a scope, a confidence and a history.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use sqlx::FromRow;

use super::db::{self, Conn, on_conn, on_pool};

use super::search::search_text;
use super::{Result, Store, memory_terms, now_ms};
use crate::base::{Category, MemoryRow, MemoryScope, Source};

/// A memory as ranking sees it.
#[derive(Debug, Clone, Deserialize)]
pub struct RankRow {
    pub id: i64,
    #[serde(deserialize_with = "bool_from_int")]
    pub global: bool,
    pub category: Category,
    pub content: String,
    pub confidence: f64,
    pub last_seen_at: i64,
}

/// SQLite's JSON says 0/1, PostgreSQL's false/true.
fn bool_from_int<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<bool, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Flag {
        Bool(bool),
        Int(i64),
    }
    Ok(match Flag::deserialize(d)? {
        Flag::Bool(b) => b,
        Flag::Int(i) => i != 0,
    })
}

#[derive(Debug, Clone)]
pub struct NewMemory {
    pub scope: MemoryScope,
    pub category: Category,
    pub content: String,
    pub subject: Option<String>,
    pub confidence: f64,
    pub source: Source,
    pub source_message_ids: Vec<i64>,
    /// Set by imports to keep history; `None` = now.
    pub created_at: Option<i64>,
    pub last_seen_at: Option<i64>,
    pub archived: bool,
    /// A name unique among the scope's active memories (the `memory_store` tool's key).
    pub key: Option<String>,
}

/// A memory pool's health.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, FromRow, Serialize)]
pub struct PoolCounts {
    pub active: i64,
    pub archived: i64,
    /// Active memories with a stored confidence below 0.5.
    pub low_confidence: i64,
}

/// The `WHERE` condition of `f` (scope `$1`, category `$2`).
fn filter_clause(f: &MemoryFilter) -> String {
    let mut sql = String::from("1 = 1");
    match f.scope {
        None => {}
        Some(MemoryScope::Global) => sql.push_str(" AND m.chat_id IS NULL"),
        Some(MemoryScope::Chat(_)) => sql.push_str(" AND m.chat_id = $1"),
    }
    if f.category.is_some() {
        sql.push_str(" AND m.category = $2");
    }
    if !f.include_archived {
        sql.push_str(" AND m.archived = FALSE");
    }
    sql
}

/// Which memories to list.
#[derive(Debug, Clone, Default)]
pub struct MemoryFilter {
    /// `None` = every scope; `Some(Global)` = global only; `Some(Chat(id))` = that chat only.
    pub scope: Option<MemoryScope>,
    pub category: Option<Category>,
    /// Include archived rows too.
    pub include_archived: bool,
    pub limit: Option<u32>,
    /// Rows skipped first (paging, oldest first).
    pub offset: u32,
}

const INSERT_COLUMNS: &str = "chat_id, category, content, subject, confidence, source, source_message_ids, \
    created_at, updated_at, last_seen_at, archived, archived_at, search_text, key";
/// SQLite: the largest memory id handed out, in the table or deleted since (migration 0008);
/// a new memory's id is above it, so no id is ever handed out twice.
const SQLITE_NEXT_ID: &str =
    "SELECT MAX(n, COALESCE((SELECT MAX(id) FROM memories), 0)) AS id FROM memory_id_floor";

/// The columns of `INSERT_COLUMNS` read from a JSON array `r` (PostgreSQL's bulk insert).
const PG_IMPORT_COLUMNS: &str = "(r->>0)::bigint, r->>1, r->>2, r->>3, (r->>4)::float8, r->>5, r->>6, \
    (r->>7)::bigint, (r->>8)::bigint, (r->>9)::bigint, (r->>10)::boolean, (r->>11)::bigint, r->>12, r->>13";
const INSERT_VALUES: &str = "$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14";

/// Binds a new memory to `$1`…`$14` in the order of `INSERT_COLUMNS` (a macro: the query's
/// type differs per backend).
macro_rules! bind_new {
    ($q:expr, $m:expr, $now:expr) => {{
        let (m, now): (&NewMemory, i64) = ($m, $now);
        $q.bind(m.scope.chat_id())
            .bind(m.category)
            .bind(super::text(&m.content))
            .bind(super::text_opt(m.subject.as_deref()))
            .bind(m.confidence.clamp(0.0, 1.0))
            .bind(m.source)
            .bind(serde_json::to_string(&m.source_message_ids).unwrap_or_else(|_| "[]".into()))
            .bind(m.created_at.unwrap_or(now))
            .bind(now)
            .bind(m.last_seen_at.unwrap_or(now))
            .bind(m.archived)
            .bind(m.archived.then_some(now))
            .bind(search_text(&m.content))
            .bind(super::text_opt(m.key.as_deref()))
    }};
}

pub(super) const SELECT: &str = "SELECT m.*, c.channel, c.external_chat_id FROM memories m LEFT JOIN chats c ON c.id = m.chat_id";

/// Inserts `m` and, when it is active, its postings in the term index; for callers that
/// hold a transaction.
pub(super) async fn insert_row(
    conn: &mut Conn<'_>,
    m: &NewMemory,
    now: i64,
) -> Result<Option<i64>> {
    let sql = if conn.is_postgres() {
        format!("INSERT INTO memories ({INSERT_COLUMNS}) VALUES ({INSERT_VALUES}) RETURNING id")
    } else {
        format!(
            "INSERT INTO memories (id, {INSERT_COLUMNS}) VALUES (({SQLITE_NEXT_ID}) + 1, {INSERT_VALUES}) RETURNING id"
        )
    };
    let id: Option<i64> = on_conn!(conn.re(), c => bind_new!(sqlx::query_scalar(&sql), m, now)
        .fetch_optional(c)
        .await)?;
    if let Some(id) = id
        && !m.archived
    {
        memory_terms::index(conn, id, m.scope, &m.content).await?;
    }
    Ok(id)
}

/// Most message ids kept as a memory's sources (the newest).
pub(super) const MAX_SOURCE_IDS: usize = 64;

/// A memory's source message ids (as stored, JSON) with `new` added: each id once, in the
/// order first seen, the newest [`MAX_SOURCE_IDS`] kept.
pub(super) fn merged_sources(stored: &str, new: &[i64]) -> Vec<i64> {
    let mut ids: Vec<i64> = serde_json::from_str(stored).unwrap_or_default();
    for s in new {
        if !ids.contains(s) {
            ids.push(*s);
        }
    }
    let drop = ids.len().saturating_sub(MAX_SOURCE_IDS);
    ids.drain(..drop);
    ids
}

/// Adds `source_ids` to memory `id`'s sources (the newest `MAX_SOURCE_IDS` are kept).
pub(super) async fn add_sources(conn: &mut Conn<'_>, id: i64, source_ids: &[i64]) -> Result<()> {
    if source_ids.is_empty() {
        return Ok(());
    }
    let old: String = on_conn!(conn.re(), c => sqlx::query_scalar("SELECT source_message_ids FROM memories WHERE id = $1")
        .bind(id)
        .fetch_one(c)
        .await)?;
    let ids = merged_sources(&old, source_ids);
    on_conn!(conn.re(), c => sqlx::query("UPDATE memories SET source_message_ids = $2 WHERE id = $1")
        .bind(id)
        .bind(serde_json::to_string(&ids).unwrap_or_else(|_| "[]".into()))
        .execute(c)
        .await
        .map(|_| ()))
}

/// The active memory of `scope` named `key`, if any.
pub(super) async fn key_holder(
    conn: &mut Conn<'_>,
    scope: MemoryScope,
    key: &str,
) -> Result<Option<i64>> {
    on_conn!(conn.re(), c => sqlx::query_scalar(
        "SELECT id FROM memories WHERE COALESCE(chat_id, 0) = $1 AND key = $2 AND archived = FALSE",
    )
    .bind(memory_terms::scope_key(scope))
    .bind(key)
    .fetch_optional(c)
    .await)
}

/// Gives memory `id` new wording and category, with the upkeep every change of a memory's
/// text needs — its search text (which the full-text triggers index; the embedding triggers
/// queue it) and its term postings (for dedup). With `seen_again`, the fact came up again:
/// its confidence is raised to at least that and it is marked seen now; without, it is a
/// person's correction and neither changes. False when there is no such memory.
pub(super) async fn rewrite(
    conn: &mut Conn<'_>,
    id: i64,
    content: &str,
    category: Category,
    seen_again: Option<f64>,
) -> Result<bool> {
    let sql = "UPDATE memories SET content = $2, category = $3, updated_at = $4, search_text = $5,
            confidence = CASE WHEN $6 IS NULL THEN confidence ELSE GREATEST(confidence, $6) END,
            last_seen_at = CASE WHEN $6 IS NULL THEN last_seen_at ELSE $4 END
         WHERE id = $1 RETURNING chat_id, archived";
    let sql = conn.sql(sql);
    let row: Option<(Option<i64>, bool)> = on_conn!(conn.re(), c => sqlx::query_as(&sql)
    .bind(id)
    .bind(super::text(content))
    .bind(category)
    .bind(now_ms())
    .bind(search_text(content))
    .bind(seen_again.map(|c| c.clamp(0.0, 1.0)))
    .fetch_optional(c)
    .await)?;
    let Some((chat_id, archived)) = row else {
        return Ok(false);
    };
    if !archived {
        let scope = chat_id.map_or(MemoryScope::Global, MemoryScope::Chat);
        memory_terms::index(conn, id, scope, content).await?;
    }
    Ok(true)
}

impl Store {
    pub async fn insert_memory(&self, m: &NewMemory) -> Result<i64> {
        self.insert_memory_replacing(m, &[]).await
    }

    /// Inserts every memory as given, in one transaction; returns their ids in order.
    /// Unlike `import_memories` it does not look for equal content (a bulk load).
    pub async fn insert_memories(&self, memories: &[NewMemory]) -> Result<Vec<i64>> {
        let mut tx = self.writer.begin_write().await?;
        let mut ids = Vec::with_capacity(memories.len());
        for m in memories {
            let id = insert_row(&mut tx.conn(), m, now_ms())
                .await?
                .ok_or(sqlx::Error::RowNotFound)?;
            ids.push(id);
        }
        tx.commit().await?;
        Ok(ids)
    }

    /// Inserts each memory unless its scope already holds the same content (or an earlier
    /// line did); all or nothing. Returns how many were inserted. Built for large files: the
    /// scopes' contents are read once, and rows and their term postings go in a few hundred
    /// per statement (the triggers still keep full-text search, the embedding queue and the
    /// history exact).
    pub async fn import_memories(&self, memories: &[NewMemory]) -> Result<usize> {
        const CHUNK: usize = 500;
        match &self.writer {
            db::Pool::Sqlite(pool) => {
                let mut conn = pool.acquire().await?;
                // A big import touches every index page many times: a large page cache keeps
                // them in memory instead of spilling them to the WAL over and over.
                sqlx::query("PRAGMA cache_size = -262144")
                    .execute(&mut *conn)
                    .await?;
                let result = async {
                    let mut tx =
                        sqlx::Connection::begin_with(&mut *conn, "BEGIN IMMEDIATE").await?;
                    let n = import_rows(&mut Conn::Sqlite(&mut tx), memories, CHUNK).await?;
                    tx.commit().await?;
                    Ok(n)
                }
                .await;
                sqlx::query("PRAGMA cache_size = -2000")
                    .execute(&mut *conn)
                    .await?;
                result
            }
            db::Pool::Postgres(_) => {
                let mut tx = self.writer.begin_write().await?;
                let n = import_rows(&mut tx.conn(), memories, CHUNK).await?;
                tx.commit().await?;
                Ok(n)
            }
        }
    }

    pub async fn get_memory(&self, id: i64) -> Result<Option<MemoryRow>> {
        on_pool!(&self.pool, c => sqlx::query_as::<_, MemoryRow>(&format!("{SELECT} WHERE m.id = $1"))
            .bind(id)
            .fetch_optional(c)
            .await)
    }

    /// The active memory of `scope` named `key` (`memory_store{key}`), if any.
    pub async fn memory_by_key(&self, scope: MemoryScope, key: &str) -> Result<Option<i64>> {
        let mut conn = self.pool.acquire().await?;
        let holder = key_holder(&mut conn.conn(), scope, key).await;
        conn.finish(holder)
    }

    /// A chat's active memories and the global ones, newest first, at most `limit`, with how
    /// many there are in all.
    pub async fn visible_memories(
        &self,
        chat_id: i64,
        category: Option<Category>,
        limit: u32,
    ) -> Result<(Vec<MemoryRow>, i64)> {
        let rows = on_pool!(&self.pool, c => sqlx::query_as::<_, MemoryRow>(&format!(
            "{SELECT} WHERE (m.chat_id = $1 OR m.chat_id IS NULL) AND m.archived = FALSE
               AND ($2 IS NULL OR m.category = $2)
             ORDER BY m.last_seen_at DESC, m.id DESC LIMIT $3"
        ))
        .bind(chat_id)
        .bind(category)
        .bind(i64::from(limit))
        .fetch_all(c)
        .await)?;
        let total: i64 = on_pool!(&self.pool, c => sqlx::query_scalar(
            "SELECT COUNT(*) FROM memories WHERE (chat_id = $1 OR chat_id IS NULL) AND archived = FALSE
               AND ($2 IS NULL OR category = $2)",
        )
        .bind(chat_id)
        .bind(category)
        .fetch_one(c)
        .await)?;
        Ok((rows, total))
    }

    /// Everything a chat's prompt may draw on, in full: its own active memories and the global
    /// ones. (The prompt itself reads only what retrieval picks; this is for checks and
    /// listings that need the whole set.)
    pub async fn injectable_memories(&self, chat_id: i64) -> Result<Vec<MemoryRow>> {
        on_pool!(&self.pool, c => sqlx::query_as::<_, MemoryRow>(&format!(
            "{SELECT} WHERE (m.chat_id = $1 OR m.chat_id IS NULL) AND m.archived = FALSE ORDER BY m.id"
        ))
        .bind(chat_id)
        .fetch_all(c)
        .await)
    }

    /// Every active memory of a chat (plus the global ones when `with_global`), lean: the
    /// whole-scope scan that the indexes (terms, FTS, vectors) exist to avoid, kept as the
    /// reference the index tests and the reflector bench compare against.
    ///
    /// sqlx's SQLite driver hands rows one at a time from its worker thread, which costs
    /// tens of microseconds per row; this asks SQLite to aggregate the rows into one JSON
    /// array instead, an order of magnitude faster at 10k rows.
    pub async fn rank_rows(&self, chat_id: i64, with_global: bool) -> Result<Vec<RankRow>> {
        let sql = self.pool.sql(
            "SELECT CAST(COALESCE(json_group_array(json_array(id, chat_id IS NULL, category, content, confidence, last_seen_at)), '[]') AS TEXT)
             FROM (SELECT * FROM memories WHERE (chat_id = $1 OR ($2 AND chat_id IS NULL)) AND archived = FALSE ORDER BY id) AS r",
        );
        let json: String = on_pool!(&self.pool, c => sqlx::query_scalar(&sql)
        .bind(chat_id)
        .bind(with_global)
        .fetch_one(c)
        .await)?;
        serde_json::from_str(&json).map_err(|e| sqlx::Error::Decode(Box::new(e)))
    }

    pub async fn list_memories(&self, f: &MemoryFilter) -> Result<Vec<MemoryRow>> {
        let sql = format!(
            "{SELECT} WHERE {} ORDER BY m.id LIMIT COALESCE($3, 9223372036854775807) OFFSET $4",
            filter_clause(f)
        );
        on_pool!(&self.pool, c => sqlx::query_as::<_, MemoryRow>(&sql)
            .bind(f.scope.and_then(MemoryScope::chat_id))
            .bind(f.category)
            .bind(f.limit.map(i64::from))
            .bind(i64::from(f.offset))
            .fetch_all(c)
            .await)
    }

    /// How many memories `f` lists without its limit and offset.
    pub async fn count_listed(&self, f: &MemoryFilter) -> Result<i64> {
        let sql = format!("SELECT COUNT(*) FROM memories m WHERE {}", filter_clause(f));
        on_pool!(&self.pool, c => sqlx::query_scalar(&sql)
            .bind(f.scope.and_then(MemoryScope::chat_id))
            .bind(f.category)
            .fetch_one(c)
            .await)
    }

    /// Replaces a memory's wording (a refinement of the same fact), raises its confidence to
    /// at least `confidence` and marks it seen now. False when there is no such memory.
    pub async fn refine_memory(
        &self,
        id: i64,
        content: &str,
        category: Category,
        confidence: f64,
    ) -> Result<bool> {
        let mut tx = self.writer.begin_write().await?;
        let found = rewrite(&mut tx.conn(), id, content, category, Some(confidence)).await?;
        tx.commit().await?;
        Ok(found)
    }

    /// The same fact again, from the memory service: memory `id` takes `wording` (the more
    /// specific wording of the two, or the new one for a key's holder) and `category` when
    /// given, its confidence is raised to at least `confidence`, it is seen now, `source_ids`
    /// join its sources, and the history records it (`reinforced`, with the wording that came
    /// in and `note`: why it is the same fact). One transaction. False when there is no such
    /// memory.
    #[allow(clippy::too_many_arguments)]
    pub async fn reinforce_memory(
        &self,
        id: i64,
        wording: &str,
        category: Option<Category>,
        incoming: &str,
        confidence: f64,
        source_ids: &[i64],
        note: &str,
    ) -> Result<bool> {
        let mut tx = self.writer.begin_write().await?;
        let Some(stored) = on_conn!(tx.conn(), c => sqlx::query_scalar::<_, Category>("SELECT category FROM memories WHERE id = $1")
                .bind(id)
                .fetch_optional(c)
                .await)?
        else {
            return Ok(false);
        };
        rewrite(
            &mut tx.conn(),
            id,
            wording,
            category.unwrap_or(stored),
            Some(confidence),
        )
        .await?;
        add_sources(&mut tx.conn(), id, source_ids).await?;
        super::events::record(
            &mut tx.conn(),
            id,
            super::events::NewEvent {
                kind: super::events::EventKind::Reinforced,
                at: now_ms(),
                other_id: None,
                content: Some(incoming),
                source_ids,
                note: Some(note),
            },
        )
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Deletes one memory for good (its postings go with it, by cascade). Returns whether it
    /// existed.
    pub async fn delete_memory(&self, id: i64) -> Result<bool> {
        let done = on_pool!(&self.writer, c => sqlx::query("DELETE FROM memories WHERE id = $1")
            .bind(id)
            .execute(c)
            .await
            .map(|r| r.rows_affected()))?;
        Ok(done == 1)
    }

    /// The pool of one scope (`Some(Global)`: global memories only), or of every memory:
    /// for `mneme usage`, the console's cards and `/metrics`.
    pub async fn pool_counts(&self, scope: Option<MemoryScope>) -> Result<PoolCounts> {
        let filter = match scope {
            None => "1 = 1",
            Some(MemoryScope::Global) => "chat_id IS NULL",
            Some(MemoryScope::Chat(_)) => "chat_id = $1",
        };
        on_pool!(&self.pool, c => sqlx::query_as::<_, PoolCounts>(&format!(
            "SELECT COUNT(*) FILTER (WHERE NOT archived) AS active,
                    COUNT(*) FILTER (WHERE archived) AS archived,
                    COUNT(*) FILTER (WHERE NOT archived AND confidence < 0.5) AS low_confidence
             FROM memories WHERE {filter}"
        ))
        .bind(scope.and_then(MemoryScope::chat_id))
        .fetch_one(c)
        .await)
    }
}

/// The body of [`Store::import_memories`], inside the caller's write transaction `tx`.
async fn import_rows(
    tx: &mut Conn<'_>,
    memories: &[NewMemory],
    chunk_rows: usize,
) -> Result<usize> {
    let pg = tx.is_postgres();
    {
        let mut held: HashMap<MemoryScope, HashSet<String>> = HashMap::new();
        let now = now_ms();
        let mut fresh: Vec<NewMemory> = Vec::new();
        let mut postings: Vec<(i64, String, i64)> = Vec::new();
        let mut keys_taken: HashSet<(MemoryScope, String)> = HashSet::new();
        for m in memories {
            let scope_held = match held.entry(m.scope) {
                Entry::Occupied(e) => e.into_mut(),
                Entry::Vacant(e) => {
                    let rows: Vec<String> = on_conn!(tx.re(), c => sqlx::query_scalar("SELECT content FROM memories WHERE chat_id IS NOT DISTINCT FROM $1")
                            .bind(m.scope.chat_id())
                            .fetch_all(c)
                            .await)?;
                    e.insert(rows.into_iter().collect())
                }
            };
            if !scope_held.insert(m.content.clone()) {
                continue;
            }
            // A key another active memory of the scope holds stays with that one.
            let mut m = m.clone();
            if let Some(key) = m.key.clone()
                && !m.archived
                && (keys_taken.contains(&(m.scope, key.clone()))
                    || key_holder(tx, m.scope, &key).await?.is_some()
                    || !keys_taken.insert((m.scope, key)))
            {
                m.key = None;
            }
            fresh.push(m);
        }
        for chunk in fresh.chunks(chunk_rows) {
            let rows: Vec<serde_json::Value> = chunk
                .iter()
                .map(|m| {
                    serde_json::json!([
                        m.scope.chat_id(),
                        m.category.as_str(),
                        m.content,
                        m.subject,
                        m.confidence.clamp(0.0, 1.0),
                        serde_json::to_value(m.source).unwrap_or_default(),
                        serde_json::to_string(&m.source_message_ids)
                            .unwrap_or_else(|_| "[]".into()),
                        m.created_at.unwrap_or(now),
                        now,
                        m.last_seen_at.unwrap_or(now),
                        m.archived,
                        m.archived.then_some(now),
                        search_text(&m.content),
                        m.key,
                    ])
                })
                .collect();
            let sql = if pg {
                format!(
                    "INSERT INTO memories ({INSERT_COLUMNS})
                     SELECT {PG_IMPORT_COLUMNS} FROM json_array_elements($1::json) WITH ORDINALITY AS t(r, i)
                     ORDER BY i RETURNING id"
                )
            } else {
                format!(
                    "INSERT INTO memories (id, {INSERT_COLUMNS})
                     SELECT last.id + key + 1, {} FROM json_each($1), ({SQLITE_NEXT_ID}) AS last
                     ORDER BY key RETURNING id",
                    (0..14)
                        .map(|i| format!("json_extract(value, '$[{i}]')"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            let ids: Vec<i64> = on_conn!(tx.re(), c => sqlx::query_scalar(&sql)
            .bind(serde_json::Value::Array(rows).to_string())
            .fetch_all(c)
            .await)?;
            // RETURNING gives no order; ids are handed out in insertion order, which is the
            // chunk's order
            let mut ids = ids;
            ids.sort_unstable();
            if ids.len() != chunk.len() {
                return Err(sqlx::Error::Protocol(format!(
                    "inserted {} of {} memories",
                    ids.len(),
                    chunk.len()
                )));
            }
            for (m, id) in chunk.iter().zip(&ids) {
                if !m.archived {
                    let terms = memory_terms::postings_of(&m.content);
                    let scope = memory_terms::scope_key(m.scope);
                    postings.extend(terms.into_iter().map(|t| (scope, t, *id)));
                }
            }
        }
        // The postings last, sorted as the index is, so each lands next to the one before.
        // Their trigger would bump a term's count once per posting (most of an import's time
        // at 100k rows); inside this transaction — which holds the write lock, so no other
        // writer needs the trigger meanwhile — it is set aside, the counts are added once per
        // term, and the trigger is back for everyone else. A failure rolls all of it back,
        // the trigger included. (SQLite: dropped and created again exactly as the schema has
        // it; PostgreSQL: the trigger skips itself while `mneme.bulk_terms` is on, a setting
        // local to this transaction.)
        postings.sort_unstable();
        let df_trigger: Option<String> = if pg {
            on_conn!(tx.re(), c => sqlx::query("SET LOCAL mneme.bulk_terms = 'on'").execute(c).await.map(|_| ()))?;
            Some("SET LOCAL mneme.bulk_terms = 'off'".into())
        } else {
            on_conn!(tx.re(), c => sqlx::query_scalar(
                "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'memory_term_df_up'",
            )
            .fetch_optional(c)
            .await)?
        };
        if df_trigger.is_some() && !pg {
            on_conn!(tx.re(), c => sqlx::query("DROP TRIGGER memory_term_df_up")
                .execute(c)
                .await.map(|_| ()))?;
        }
        let (postings_sql, df_sql) = if pg {
            (
                "INSERT INTO memory_terms (scope, term, memory_id)
                 SELECT (r->>0)::bigint, r->>1, (r->>2)::bigint FROM json_array_elements($1::json) AS t(r)",
                "INSERT INTO memory_term_df (scope, term, n)
                 SELECT (r->>0)::bigint, r->>1, (r->>2)::bigint FROM json_array_elements($1::json) AS t(r)
                 ON CONFLICT (scope, term) DO UPDATE SET n = memory_term_df.n + excluded.n",
            )
        } else {
            (
                "INSERT INTO memory_terms (scope, term, memory_id)
                 SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]')
                 FROM json_each($1)",
                "INSERT INTO memory_term_df (scope, term, n)
                 SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]')
                 FROM json_each($1) WHERE true
                 ON CONFLICT (scope, term) DO UPDATE SET n = memory_term_df.n + excluded.n",
            )
        };
        for part in postings.chunks(chunk_rows * 4) {
            on_conn!(tx.re(), c => sqlx::query(postings_sql)
                .bind(serde_json::to_string(part).unwrap_or_else(|_| "[]".into()))
                .execute(c)
                .await.map(|_| ()))?;
        }
        if let Some(sql) = df_trigger {
            let mut df: Vec<(i64, &str, i64)> = Vec::new();
            for (scope, term, _) in &postings {
                match df.last_mut() {
                    Some(last) if last.0 == *scope && last.1 == term => last.2 += 1,
                    _ => df.push((*scope, term, 1)),
                }
            }
            for part in df.chunks(chunk_rows * 4) {
                on_conn!(tx.re(), c => sqlx::query(df_sql)
                    .bind(serde_json::to_string(part).unwrap_or_else(|_| "[]".into()))
                    .execute(c)
                    .await.map(|_| ()))?;
            }
            on_conn!(tx.re(), c => sqlx::query(&sql).execute(c).await.map(|_| ()))?;
        }
        Ok(fresh.len())
    }
}
