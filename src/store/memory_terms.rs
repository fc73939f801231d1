//! The inverted term index over active memories (`memory_terms`, migration 0002).
//!
//! Dedup asks "which memories of this scope share enough terms with the fact?"; the index
//! answers from the postings of the fact's own terms, so the cost follows the candidates, not
//! the size of the scope. Terms are `memory::text::terms` (lowercase words without stop words,
//! CJK as bigrams), the same ones the Jaccard check compares.

use std::collections::{BTreeSet, HashMap, HashSet};

use super::db::Conn;
use serde::Deserialize;

use super::{Result, Store, from_json, json_list, on_conn};
use crate::base::{Category, MemoryScope};
use crate::memory::{dedup, identity, text};

/// Most candidates one dedup check returns, best first by shared terms. Only a flood of rows
/// that each share at least the minimum number of terms with one fact reaches it.
pub const MAX_DEDUP_CANDIDATES: i64 = 256;
/// The batch terms the reflector's context is chosen by: the rarest this many…
const CONTEXT_TERMS: usize = 64;
/// …each held by at most this many memories (a word in thousands of them tells nothing
/// about which matter, and reading its postings costs the most).
const MAX_CONTEXT_TERM_DF: i64 = 1000;

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

/// The `limit` active memories of `scope` seen last, newest first.
pub(super) async fn recent(
    conn: &mut Conn<'_>,
    scope: MemoryScope,
    limit: i64,
) -> Result<Vec<SimilarMemory>> {
    let of_scope = match scope {
        MemoryScope::Chat(_) => "chat_id = $1",
        MemoryScope::Global => "chat_id IS NULL AND $1 = 0",
    };
    let text = format!(
        "SELECT CAST(COALESCE(json_group_array(json_array(
                    id, category, content, subject, confidence, last_seen_at, 0)), '[]') AS TEXT)
         FROM (SELECT * FROM memories WHERE {of_scope} AND archived = FALSE
               ORDER BY last_seen_at DESC, id DESC LIMIT $2) AS r"
    );
    let sql = conn.sql(&text);
    let json: String = on_conn!(conn.re(), c => sqlx::query_scalar(&sql)
        .bind(scope_key(scope))
        .bind(limit)
        .fetch_one(c)
        .await)?;
    from_json(&json)
}

/// The terms memory `content` is found by: its own (`text::terms`), and the initials its runs
/// of names spell ("a Master of Business Administration" is found by "mba", so a fact saying
/// "an MBA" meets it).
pub(super) fn postings_of(content: &str) -> BTreeSet<String> {
    let mut terms: BTreeSet<String> = text::terms(content).into_iter().collect();
    terms.extend(identity::initials_spelled(content));
    terms
}

/// Writes the postings of memory `id` for `content`, replacing any it had.
pub(super) async fn index(
    conn: &mut Conn<'_>,
    id: i64,
    scope: MemoryScope,
    content: &str,
) -> Result<()> {
    on_conn!(conn.re(), c => sqlx::query("DELETE FROM memory_terms WHERE memory_id = $1")
        .bind(id)
        .execute(c)
        .await.map(|_| ()))?;
    let terms = postings_of(content);
    if terms.is_empty() {
        return Ok(());
    }
    let sql = conn.sql(
        "INSERT INTO memory_terms (scope, term, memory_id)
         SELECT $1, value, $2 FROM json_each($3) WHERE true ON CONFLICT DO NOTHING",
    );
    on_conn!(conn.re(), c => sqlx::query(&sql)
    .bind(scope_key(scope))
    .bind(id)
    .bind(json_list(&terms.iter().collect::<Vec<_>>()))
    .execute(c)
    .await.map(|_| ()))?;
    Ok(())
}

/// How many active memories of `scope` hold each of `terms` (absent = none).
async fn document_frequency(
    conn: &mut Conn<'_>,
    scope: MemoryScope,
    terms: &HashSet<String>,
) -> Result<HashMap<String, i64>> {
    let sql = conn.sql(
        "SELECT CAST(COALESCE(json_group_object(term, n), '{}') AS TEXT) FROM memory_term_df
         WHERE scope = $1 AND term IN (SELECT value FROM json_each($2))",
    );
    let json: String = on_conn!(conn.re(), c => sqlx::query_scalar(&sql)
    .bind(scope_key(scope))
    .bind(json_list(&terms.iter().collect::<Vec<_>>()))
    .fetch_one(c)
    .await)?;
    from_json(&json)
}

/// `terms` rarest first (ties by the term itself, so the choice is stable).
fn rarest_first<'a>(terms: &'a HashSet<String>, df: &HashMap<String, i64>) -> Vec<&'a String> {
    let mut sorted: Vec<&String> = terms.iter().collect();
    sorted.sort_by_key(|t| (df.get(*t).copied().unwrap_or(0), *t));
    sorted
}

/// How to find the rows sharing at least `min_shared` of some terms.
enum Plan<'a> {
    /// Count shared terms over the postings of every term (cheap per posting).
    Count,
    /// Read the postings of these few rare terms for candidates, then count each
    /// candidate's shared terms through its own postings (an index seek per candidate):
    /// worth it when the other terms are common enough that reading them costs more.
    Probe(Vec<&'a String>),
}

/// Reading a candidate's own postings costs about this many postings read in order
/// (a seek and a short range; tuned with `cargo bench --bench reflector`).
const SEEK_COST: i64 = 4;

/// Active memories of `scope` sharing at least `min_shared` of `terms`, most shared first.
async fn sharing(
    conn: &mut Conn<'_>,
    scope: MemoryScope,
    plan: &Plan<'_>,
    terms: &[&String],
    min_shared: i64,
    limit: i64,
) -> Result<Vec<SimilarMemory>> {
    if terms.is_empty() || limit <= 0 || matches!(plan, Plan::Probe(p) if p.is_empty()) {
        return Ok(Vec::new());
    }
    // CROSS JOIN keeps SQLite from walking all terms' postings instead of the candidates';
    // `+t.term` makes it read each candidate's few postings in one range and filter them,
    // rather than seek once per (candidate, term).
    let hits = match plan {
        Plan::Count => {
            "SELECT memory_id, COUNT(*) AS shared FROM memory_terms
             WHERE scope = $1 AND term IN (SELECT value FROM json_each($2))
             GROUP BY memory_id HAVING COUNT(*) >= $3
             ORDER BY shared DESC, memory_id DESC LIMIT $4"
        }
        Plan::Probe(_) => {
            "SELECT t.memory_id, COUNT(*) AS shared
             FROM (SELECT DISTINCT memory_id FROM memory_terms
                   WHERE scope = $1 AND term IN (SELECT value FROM json_each($5))) c
             CROSS JOIN memory_terms t ON t.memory_id = c.memory_id
             WHERE t.scope = $1 AND +t.term IN (SELECT value FROM json_each($2))
             GROUP BY t.memory_id HAVING COUNT(*) >= $3
             ORDER BY shared DESC, t.memory_id DESC LIMIT $4"
        }
    };
    // One JSON-aggregated row instead of one row per candidate: see `Store::rank_rows`.
    let sql = format!(
        "SELECT CAST(COALESCE(json_group_array(json_array(
                    m.id, m.category, m.content, m.subject, m.confidence, m.last_seen_at, h.shared)), '[]') AS TEXT)
         FROM ({hits}) h JOIN memories m ON m.id = h.memory_id
         WHERE m.archived = FALSE"
    );
    let mut sql = conn.sql(&sql).into_owned();
    if conn.is_postgres() {
        // `+t.term` steers SQLite's planner; PostgreSQL has no unary plus for text…
        // Nor a CROSS JOIN with a join condition: there it is a plain JOIN.
        sql = sql
            .replace("+t.term", "t.term")
            .replace("CROSS JOIN memory_terms t ON", "JOIN memory_terms t ON");
    }
    let probe = match plan {
        Plan::Count => Vec::new(),
        Plan::Probe(p) => p.clone(),
    };
    let json: String = on_conn!(conn.re(), c => sqlx::query_scalar(&sql)
        .bind(scope_key(scope))
        .bind(json_list(terms))
        .bind(min_shared.max(1))
        .bind(limit)
        .bind(json_list(&probe))
        .fetch_one(c)
        .await)?;
    let mut rows: Vec<SimilarMemory> = from_json(&json)?;
    rows.sort_by(|a, b| b.shared.cmp(&a.shared).then(b.id.cmp(&a.id)));
    Ok(rows)
}

/// Every memory `dedup::is_near_duplicate` could accept for a fact with `fact_terms`, and no
/// row sharing fewer terms than `dedup::min_shared_terms`. Such a row shares m of the fact's
/// k terms, so at least one of its k − m + 1 rarest (prefix filtering): when the m − 1 most
/// common terms are very common (a person's name in every memory of their chat), only the
/// rare terms' postings are read.
pub(super) async fn dedup_candidates(
    conn: &mut Conn<'_>,
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
    let freq = |t: &String| df.get(t).copied().unwrap_or(0);
    let ranked = rarest_first(fact_terms, &df);
    let probe: Vec<&String> = ranked[..k - min_shared + 1]
        .iter()
        .copied()
        .filter(|t| freq(t) > 0)
        .collect();
    let count_cost: i64 = ranked.iter().map(|t| freq(t)).sum();
    let probe_cost: i64 = probe.iter().map(|t| freq(t)).sum::<i64>() * SEEK_COST;
    let plan = if probe_cost < count_cost {
        Plan::Probe(probe)
    } else {
        Plan::Count
    };
    let terms: Vec<&String> = ranked.into_iter().filter(|t| freq(t) > 0).collect();
    sharing(
        conn,
        scope,
        &plan,
        &terms,
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
        let candidates = dedup_candidates(&mut conn.conn(), scope, fact_terms, threshold).await;
        conn.finish(candidates)
    }

    /// The active memory of `scope` that `content` nearly repeats (`dedup::is_near_duplicate`
    /// at `threshold`), the closest if several: what "remember …" and `memory_store` update
    /// instead of adding a second copy. Reads the term index, not the scope.
    pub async fn near_duplicate(
        &self,
        scope: MemoryScope,
        content: &str,
        threshold: f64,
    ) -> Result<Option<i64>> {
        let terms = text::term_set(content);
        let candidates = self.dedup_candidates(scope, &terms, threshold).await?;
        Ok(dedup::closest(&terms, &candidates, |m| &m.content, threshold).map(|m| m.id))
    }

    /// The `limit` active memories of `scope` seen last, newest first: candidates for a fact
    /// with too few terms to find what it changes by them ("I'm 41" shares none with "I'm
    /// 40").
    pub async fn recent_memories(
        &self,
        scope: MemoryScope,
        limit: usize,
    ) -> Result<Vec<SimilarMemory>> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let mut conn = self.pool.acquire().await?;
        let rows = recent(&mut conn.conn(), scope, limit).await;
        conn.finish(rows)
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
        let rows = async {
            let df = document_frequency(&mut conn.conn(), scope, terms).await?;
            let telling: Vec<&String> = rarest_first(terms, &df)
                .into_iter()
                .filter(|t| df.get(*t).is_some_and(|n| *n <= MAX_CONTEXT_TERM_DF))
                .take(CONTEXT_TERMS)
                .collect();
            let mut rows =
                sharing(&mut conn.conn(), scope, &Plan::Count, &telling, 1, limit).await?;
            let missing = limit - rows.len() as i64;
            if missing > 0 {
                let recent = recent(&mut conn.conn(), scope, limit).await?;
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
        .await;
        conn.finish(rows)
    }

    /// Indexes the memories listed in `memory_terms_backlog` (rows from before the index
    /// existed), a chunk per transaction. A no-op once the backlog is empty.
    pub(super) async fn index_backlog(&self) -> Result<()> {
        loop {
            let mut tx = self.writer.begin_write().await?;
            let rows: Vec<(i64, Option<i64>, String, bool)> = on_conn!(tx.conn(), c => sqlx::query_as(
                "SELECT m.id, m.chat_id, m.content, m.archived FROM memory_terms_backlog b
                 JOIN memories m ON m.id = b.memory_id LIMIT 500",
            )
            .fetch_all(c)
            .await)?;
            if rows.is_empty() {
                // Now, not by a task of its own once dropped: the write lock is let go.
                return tx.rollback().await;
            }
            for (id, chat_id, content, archived) in &rows {
                // archived since it was listed: it needs no postings
                if !archived {
                    let scope = chat_id.map_or(MemoryScope::Global, MemoryScope::Chat);
                    index(&mut tx.conn(), *id, scope, content).await?;
                }
            }
            let ids: Vec<i64> = rows.iter().map(|r| r.0).collect();
            let sql = self.pool.sql(
                "DELETE FROM memory_terms_backlog WHERE memory_id IN (SELECT CAST(value AS BIGINT) FROM json_each($1))",
            );
            on_conn!(tx.conn(), c => sqlx::query(&sql)
            .bind(json_list(&ids))
            .execute(c)
            .await.map(|_| ()))?;
            tx.commit().await?;
        }
    }
}
