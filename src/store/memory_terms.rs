//! The inverted term index over active memories (`memory_terms`, migration 0002).
//!
//! Dedup asks "which memories of this scope share enough terms with the fact?"; the index
//! answers from the postings of the fact's own terms, so the cost follows the candidates, not
//! the size of the scope. Terms are `memory::text::terms` (lowercase words without stop words,
//! CJK as bigrams), the same ones the Jaccard check compares.

use std::collections::{BTreeSet, HashMap, HashSet};

use serde::Deserialize;
use sqlx::SqliteConnection;

use super::{Category, MemoryScope, Result, Store};
use crate::memory::{dedup, text};

/// Most candidates one dedup check returns, best first by shared terms. Only a flood of rows
/// that each share at least the minimum number of terms with one fact reaches it.
pub const MAX_DEDUP_CANDIDATES: i64 = 256;
/// The batch terms the reflector's context is chosen by: the rarest this many.
const CONTEXT_TERMS: usize = 64;

/// A memory that shares terms with a text, as dedup and the reflector's prompt see it.
#[derive(Debug, Clone, Deserialize)]
pub struct SimilarMemory {
    pub id: i64,
    pub category: Category,
    pub content: String,
    pub subject: Option<String>,
    /// Confidence as of `last_seen_at` (the lifecycle decays it from there).
    pub confidence: f64,
    pub last_seen_at: i64,
    /// Distinct terms shared with the text asked about (0 for rows added by recency).
    pub shared: i64,
}

/// The `scope` column: the chat's id, 0 for global memories (chat ids start at 1).
pub(super) fn scope_key(scope: MemoryScope) -> i64 {
    match scope {
        MemoryScope::Global => 0,
        MemoryScope::Chat(id) => id,
    }
}

fn terms_json<'a>(terms: impl IntoIterator<Item = &'a String>) -> String {
    serde_json::to_string(&terms.into_iter().collect::<Vec<_>>()).unwrap_or_else(|_| "[]".into())
}

/// Writes the postings of memory `id` for `content`, replacing any it had.
pub(super) async fn index(
    conn: &mut SqliteConnection,
    id: i64,
    scope: MemoryScope,
    content: &str,
) -> Result<()> {
    sqlx::query("DELETE FROM memory_terms WHERE memory_id = ?1")
        .bind(id)
        .execute(&mut *conn)
        .await?;
    let terms: BTreeSet<String> = text::terms(content).into_iter().collect();
    if terms.is_empty() {
        return Ok(());
    }
    sqlx::query(
        "INSERT OR IGNORE INTO memory_terms (scope, term, memory_id)
         SELECT ?1, value, ?2 FROM json_each(?3)",
    )
    .bind(scope_key(scope))
    .bind(id)
    .bind(terms_json(&terms))
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// How many active memories of `scope` hold each of `terms` (absent = none).
async fn document_frequency(
    conn: &mut SqliteConnection,
    scope: MemoryScope,
    terms: &HashSet<String>,
) -> Result<HashMap<String, i64>> {
    let json: String = sqlx::query_scalar(
        "SELECT COALESCE(json_group_object(term, n), '{}') FROM memory_term_df
         WHERE scope = ?1 AND term IN (SELECT value FROM json_each(?2))",
    )
    .bind(scope_key(scope))
    .bind(terms_json(terms))
    .fetch_one(&mut *conn)
    .await?;
    serde_json::from_str(&json).map_err(|e| sqlx::Error::Decode(Box::new(e)))
}

/// `terms` rarest first (ties by the term itself, so the choice is stable).
fn rarest_first<'a>(terms: &'a HashSet<String>, df: &HashMap<String, i64>) -> Vec<&'a String> {
    let mut sorted: Vec<&String> = terms.iter().collect();
    sorted.sort_by_key(|t| (df.get(*t).copied().unwrap_or(0), *t));
    sorted
}

/// Active memories of `scope` holding one of `probe` terms and at least `min_shared` of
/// `scored` terms, most shared first. Reads the postings of `probe` only, then each
/// candidate's own postings.
async fn sharing(
    conn: &mut SqliteConnection,
    scope: MemoryScope,
    probe: &[&String],
    scored: &[&String],
    min_shared: i64,
    limit: i64,
) -> Result<Vec<SimilarMemory>> {
    if probe.is_empty() || limit <= 0 {
        return Ok(Vec::new());
    }
    // One JSON-aggregated row instead of one row per candidate: see `Store::rank_rows`.
    // CROSS JOIN keeps SQLite from walking `scored` postings instead of the candidates'.
    let json: String = sqlx::query_scalar(
        "WITH candidates AS (
             SELECT DISTINCT memory_id FROM memory_terms
             WHERE scope = ?1 AND term IN (SELECT value FROM json_each(?2))),
         hits AS (
             SELECT t.memory_id, COUNT(*) AS shared
             FROM candidates c CROSS JOIN memory_terms t ON t.memory_id = c.memory_id
             WHERE t.scope = ?1 AND t.term IN (SELECT value FROM json_each(?3))
             GROUP BY t.memory_id HAVING COUNT(*) >= ?4
             ORDER BY shared DESC, t.memory_id DESC LIMIT ?5)
         SELECT COALESCE(json_group_array(json_array(
                    m.id, m.category, m.content, m.subject, m.confidence, m.last_seen_at, h.shared)), '[]')
         FROM hits h JOIN memories m ON m.id = h.memory_id
         WHERE m.archived = 0",
    )
    .bind(scope_key(scope))
    .bind(terms_json(probe.iter().copied()))
    .bind(terms_json(scored.iter().copied()))
    .bind(min_shared.max(1))
    .bind(limit)
    .fetch_one(&mut *conn)
    .await?;
    let mut rows: Vec<SimilarMemory> =
        serde_json::from_str(&json).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
    rows.sort_by(|a, b| b.shared.cmp(&a.shared).then(b.id.cmp(&a.id)));
    Ok(rows)
}

/// Every memory `dedup::is_near_duplicate` could accept for a fact with `fact_terms`, and no
/// row sharing fewer terms than `dedup::min_shared_terms`. Such a row shares m of the fact's
/// k terms, so at least one of its k − m + 1 rarest: only those terms' postings are read.
pub(super) async fn dedup_candidates(
    conn: &mut SqliteConnection,
    scope: MemoryScope,
    fact_terms: &HashSet<String>,
    threshold: f64,
) -> Result<Vec<SimilarMemory>> {
    let k = fact_terms.len();
    let min_shared = dedup::min_shared_terms(k, threshold);
    if k == 0 || min_shared > k {
        return Ok(Vec::new());
    }
    let df = document_frequency(conn, scope, fact_terms).await?;
    let ranked = rarest_first(fact_terms, &df);
    let probe: Vec<&String> = ranked[..k - min_shared + 1]
        .iter()
        .copied()
        .filter(|t| df.contains_key(*t))
        .collect();
    sharing(
        conn,
        scope,
        &probe,
        &ranked,
        min_shared as i64,
        MAX_DEDUP_CANDIDATES,
    )
    .await
}

impl Store {
    /// Active memories of `scope` that could be near-duplicates of a fact with these terms
    /// (pick the closest with `memory::dedup::closest`). Reads the term index, not the scope.
    pub async fn dedup_candidates(
        &self,
        scope: MemoryScope,
        fact_terms: &HashSet<String>,
        threshold: f64,
    ) -> Result<Vec<SimilarMemory>> {
        let mut conn = self.pool.acquire().await?;
        dedup_candidates(&mut conn, scope, fact_terms, threshold).await
    }

    /// Up to `limit` active memories of a chat to show the reflector beside new messages:
    /// those sharing the most of the batch's rarer terms first (words every memory holds say
    /// nothing about which ones matter), then the most recently seen.
    pub async fn context_memories(
        &self,
        chat_id: i64,
        terms: &HashSet<String>,
        limit: usize,
    ) -> Result<Vec<SimilarMemory>> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let scope = MemoryScope::Chat(chat_id);
        let mut conn = self.pool.acquire().await?;
        let df = document_frequency(&mut conn, scope, terms).await?;
        let telling: Vec<&String> = rarest_first(terms, &df)
            .into_iter()
            .filter(|t| df.contains_key(*t))
            .take(CONTEXT_TERMS)
            .collect();
        let mut rows = sharing(&mut conn, scope, &telling, &telling, 1, limit).await?;
        let missing = limit - rows.len() as i64;
        if missing > 0 {
            let json: String = sqlx::query_scalar(
                "SELECT COALESCE(json_group_array(json_array(
                            id, category, content, subject, confidence, last_seen_at, 0)), '[]')
                 FROM (SELECT * FROM memories WHERE chat_id = ?1 AND archived = 0
                       ORDER BY last_seen_at DESC, id DESC LIMIT ?2)",
            )
            .bind(chat_id)
            .bind(limit)
            .fetch_one(&mut *conn)
            .await?;
            let recent: Vec<SimilarMemory> =
                serde_json::from_str(&json).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
            let seen: HashSet<i64> = rows.iter().map(|r| r.id).collect();
            rows.extend(
                recent
                    .into_iter()
                    .filter(|r| !seen.contains(&r.id))
                    .take(missing as usize),
            );
        }
        Ok(rows)
    }

    /// Indexes the memories listed in `memory_terms_backlog` (rows from before the index
    /// existed), a chunk per transaction. A no-op once the backlog is empty.
    pub(super) async fn index_backlog(&self) -> Result<()> {
        loop {
            let mut tx = self.pool.begin().await?;
            let rows: Vec<(i64, Option<i64>, String, bool)> = sqlx::query_as(
                "SELECT m.id, m.chat_id, m.content, m.archived FROM memory_terms_backlog b
                 JOIN memories m ON m.id = b.memory_id LIMIT 500",
            )
            .fetch_all(&mut *tx)
            .await?;
            if rows.is_empty() {
                return Ok(());
            }
            for (id, chat_id, content, archived) in &rows {
                // archived since it was listed: it needs no postings
                if !archived {
                    let scope = chat_id.map_or(MemoryScope::Global, MemoryScope::Chat);
                    index(&mut tx, *id, scope, content).await?;
                }
            }
            let ids: Vec<i64> = rows.iter().map(|r| r.0).collect();
            sqlx::query(
                "DELETE FROM memory_terms_backlog WHERE memory_id IN (SELECT value FROM json_each(?1))",
            )
            .bind(serde_json::to_string(&ids).unwrap_or_else(|_| "[]".into()))
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
        }
    }
}
