//! Full-text search (FTS5, BM25) over active memories and searchable messages.
//!
//! The indexes hold `search_text` (see migration 0003): the row's terms as
//! `memory::text::terms` makes them, so Chinese and Japanese are bigrams the FTS tokenizer can
//! match. Triggers keep the indexes equal to the tables; the store only writes `search_text`
//! beside the text it describes. On SQLite a new message waits past the index's mark and is
//! indexed once the writes pause (`index_later.rs`, migration 0012), as one segment for a
//! burst.

use serde::Deserialize;

use super::{Result, Store, from_json, json_list, on_conn, on_pool};
use crate::base::{MemoryRow, MemoryScope};
use crate::memory::text;

/// Rows filled in per transaction when computing `search_text` for old rows.
const BACKLOG_CHUNK: i64 = 500;

/// A memory found by BM25. `bm25` is FTS5's score: lower (more negative) is better.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
pub struct Bm25Hit {
    pub id: i64,
    pub bm25: f64,
}

/// A message found by BM25, with what a citation needs.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct MessageHit {
    pub id: i64,
    pub bm25: f64,
    pub sender_name: String,
    pub is_from_bot: bool,
    pub text: String,
    pub created_at: i64,
}

/// Which memories a search may find.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SearchScope {
    /// What a chat's prompt may draw on: the chat's own memories and the global ones.
    Chat(i64),
    /// Global memories only.
    Global,
    /// Every memory of every chat (the owner's view: `mneme memory search` without `--chat`).
    All,
}

impl SearchScope {
    /// The search matching a listing filter: a chat's view for a chat, global for global,
    /// everything for no filter.
    pub fn from_filter(scope: Option<MemoryScope>) -> Self {
        match scope {
            None => Self::All,
            Some(MemoryScope::Global) => Self::Global,
            Some(MemoryScope::Chat(id)) => Self::Chat(id),
        }
    }

    /// The `memory_terms` / `memory_vectors` scope keys this search reads (0 = global);
    /// `None` for every scope.
    pub fn scope_keys(self) -> Option<Vec<i64>> {
        match self {
            Self::Chat(id) => Some(vec![id, 0]),
            Self::Global => Some(vec![0]),
            Self::All => None,
        }
    }
}

/// The FTS5 expression of `memory::keywords::fts_expression` (`"dog" OR "rex"`) as a
/// PostgreSQL `tsquery` over the same terms: each keyword's stem as a prefix (`'dog':* |
/// 'rex':*`), which finds "dogs" for "dog" as FTS5's Porter stemmer does. Built as text and
/// cast, so no text-search parser or dictionary (nor the database's locale) is involved: the
/// lexemes are `search_text`'s own terms.
pub fn tsquery(fts_expression: &str) -> String {
    let mut lexemes: Vec<String> = Vec::new();
    for part in fts_expression.split(" OR ") {
        let word: String = part
            .trim()
            .trim_matches('"')
            .chars()
            .filter(|c| c.is_alphanumeric())
            .collect::<String>()
            .to_lowercase();
        if word.is_empty() {
            continue;
        }
        let stem = crate::memory::keywords::stem(&word);
        let lexeme = if stem.is_empty() { word } else { stem };
        let lexeme = format!("'{lexeme}':*");
        if !lexemes.contains(&lexeme) {
            lexemes.push(lexeme);
        }
    }
    lexemes.join(" | ")
}

/// `search_text` of a memory or a person's message.
pub fn search_text(content: &str) -> String {
    text::terms(content).join(" ")
}

/// `search_text` of a stored message: chat commands and the bot's acknowledgements are not
/// worth finding, so they get none.
pub fn message_search_text(text: &str, searchable: bool) -> String {
    if !searchable || text.trim_start().starts_with('/') {
        String::new()
    } else {
        search_text(text)
    }
}

/// How many active memories a chat's prompt could draw on (its own and the global ones), as
/// an SQL expression over the chat's id `$chat` (a literal: `"$1"`, a column): counts kept by
/// triggers (migration 0007), global is scope 0.
macro_rules! injectable_count {
    ($chat:literal) => {
        concat!(
            "COALESCE((SELECT n FROM memory_active_counts WHERE scope = ",
            $chat,
            "), 0) + COALESCE((SELECT n FROM memory_active_counts WHERE scope = 0), 0)"
        )
    };
}
pub(super) use injectable_count;

impl Store {
    /// Up to `limit` active memories in `scope` matching the FTS5 expression `fts_query`,
    /// best first. SQLite ranks by FTS5's BM25 (the query's rarer words weigh more, shorter
    /// texts win). PostgreSQL ranks by `ts_rank`, which counts the query's words a text has,
    /// then puts the text with fewer words first, then the newer. `search_tsv` holds no word
    /// positions (it is built from the search terms, not by PostgreSQL's parser), and
    /// `ts_rank_cd` needs them: it gave every hit 0, so the limit kept whichever came first.
    pub async fn bm25_memories(
        &self,
        scope: SearchScope,
        fts_query: &str,
        limit: usize,
    ) -> Result<Vec<Bm25Hit>> {
        let keys = scope.scope_keys();
        let (sql, query) = if self.pool.is_postgres() {
            (
                "SELECT CAST(COALESCE(json_agg(json_build_array(id, s) ORDER BY s, n, id DESC), '[]') AS TEXT) FROM (
                    SELECT m.id, -ts_rank(m.search_tsv, q) AS s, length(m.search_tsv) AS n
                    FROM memories m, CAST($1 AS tsquery) AS q
                    WHERE m.search_tsv @@ q AND NOT m.archived
                      AND ($2 IS NULL OR COALESCE(m.chat_id, 0) IN
                           (SELECT CAST(value AS BIGINT) FROM json_array_elements_text($2::json)))
                    ORDER BY s, n, m.id DESC LIMIT $3) AS r",
                tsquery(fts_query),
            )
        } else {
            (
                "SELECT COALESCE(json_group_array(json_array(id, s)), '[]') FROM (
                    SELECT f.rowid AS id, bm25(memory_fts) AS s
                    FROM memory_fts f JOIN memories m ON m.id = f.rowid
                    WHERE memory_fts MATCH $1 AND m.archived = FALSE
                      AND ($2 IS NULL OR COALESCE(m.chat_id, 0) IN (SELECT value FROM json_each($2)))
                    ORDER BY s LIMIT $3)",
                fts_query.to_owned(),
            )
        };
        let json: String = on_pool!(&self.pool, c => sqlx::query_scalar(sql)
        .bind(&query)
        .bind(keys.as_deref().map(json_list))
        .bind(i64::try_from(limit).unwrap_or(i64::MAX))
        .fetch_one(c)
        .await)?;
        let rows: Vec<(i64, f64)> = from_json(&json)?;
        Ok(rows
            .into_iter()
            .map(|(id, bm25)| Bm25Hit { id, bm25 })
            .collect())
    }

    /// Up to `limit` searchable messages of one chat matching `fts_query`, best first (as
    /// [`Store::bm25_memories`] ranks).
    pub async fn bm25_messages(
        &self,
        chat_id: i64,
        fts_query: &str,
        limit: usize,
    ) -> Result<Vec<MessageHit>> {
        let (sql, query) = if self.pool.is_postgres() {
            (
                "SELECT CAST(COALESCE(json_agg(json_build_object('id', id, 'bm25', s, 'sender_name', sender_name,
                            'is_from_bot', is_from_bot, 'text', text, 'created_at', created_at)
                            ORDER BY s, n, id DESC), '[]') AS TEXT) FROM (
                    SELECT m.id, -ts_rank(m.search_tsv, q) AS s, length(m.search_tsv) AS n,
                           m.sender_name, m.is_from_bot, m.text, m.created_at
                    FROM messages m, CAST($1 AS tsquery) AS q
                    WHERE m.search_tsv @@ q AND m.chat_id = $2
                    ORDER BY s, n, m.id DESC LIMIT $3) AS r",
                tsquery(fts_query),
            )
        } else {
            self.index_noted_messages().await?;
            (
                "SELECT COALESCE(json_group_array(json_object('id', id, 'bm25', s, 'sender_name', sender_name,
                            'is_from_bot', json(CASE WHEN is_from_bot THEN 'true' ELSE 'false' END),
                            'text', text, 'created_at', created_at)), '[]') FROM (
                    SELECT m.id, bm25(message_fts) AS s, m.sender_name, m.is_from_bot, m.text, m.created_at
                    FROM message_fts f JOIN messages m ON m.id = f.rowid
                    WHERE message_fts MATCH $1 AND m.chat_id = $2
                    ORDER BY s LIMIT $3)",
                fts_query.to_owned(),
            )
        };
        let json: String = on_pool!(&self.pool, c => sqlx::query_scalar(sql)
        .bind(&query)
        .bind(chat_id)
        .bind(i64::try_from(limit).unwrap_or(i64::MAX))
        .fetch_one(c)
        .await)?;
        from_json(&json)
    }

    /// Active memories with these ids that `scope` may see, in no particular order.
    pub async fn memories_in_scope(
        &self,
        ids: &[i64],
        scope: SearchScope,
    ) -> Result<Vec<MemoryRow>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let keys = scope.scope_keys();
        // One row of JSON for all of them (a search reads ~100): sqlx hands rows over one at
        // a time, which cost ~0.4 ms here.
        let sql = self.pool.sql(
            "SELECT CAST(COALESCE(json_group_array(json_array(
                    m.id, m.chat_id, m.category, m.content, m.subject, m.confidence, m.source,
                    m.source_message_ids, m.created_at, m.updated_at, m.last_seen_at,
                    CASE WHEN m.archived THEN 1 ELSE 0 END, m.archived_at, m.supersedes_id, m.key,
                    c.channel, c.external_chat_id)), '[]') AS TEXT)
             FROM memories m LEFT JOIN chats c ON c.id = m.chat_id
             WHERE m.id IN (SELECT CAST(value AS BIGINT) FROM json_each($1)) AND m.archived = FALSE
               AND ($2 IS NULL OR COALESCE(m.chat_id, 0) IN (SELECT CAST(value AS BIGINT) FROM json_each($2)))",
        );
        let json: String = on_pool!(&self.pool, c => sqlx::query_scalar(&sql)
        .bind(json_list(ids))
        .bind(keys.as_deref().map(json_list))
        .fetch_one(c)
        .await)?;
        let rows: Vec<JsonMemory> = from_json(&json)?;
        rows.into_iter().map(JsonMemory::into_row).collect()
    }

    /// Active memories of `scope` seen most recently, PROFILE first: what a prompt carries
    /// beside the search hits (who the person is, what came up lately). Read by index.
    pub async fn background_memories(&self, chat_id: i64, limit: usize) -> Result<Vec<MemoryRow>> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        on_pool!(&self.pool, c => sqlx::query_as::<_, MemoryRow>(
            "SELECT m.*, c.channel, c.external_chat_id FROM memories m LEFT JOIN chats c ON c.id = m.chat_id
             WHERE m.id IN (
                SELECT id FROM (SELECT id FROM memories WHERE chat_id = $1 AND archived = FALSE
                                ORDER BY last_seen_at DESC LIMIT $2) AS own
                UNION
                SELECT id FROM (SELECT id FROM memories WHERE chat_id IS NULL AND archived = FALSE
                                ORDER BY last_seen_at DESC LIMIT $2) AS global)
             ORDER BY m.category = 'PROFILE' DESC, m.last_seen_at DESC, m.id DESC LIMIT $2",
        )
        .bind(chat_id)
        .bind(limit)
        .fetch_all(c)
        .await)
    }

    /// How many active memories a chat's prompt could draw on (its own and the global ones).
    pub async fn count_injectable(&self, chat_id: i64) -> Result<i64> {
        on_pool!(&self.pool, c => sqlx::query_scalar(
            concat!("SELECT ", injectable_count!("$1")),
        )
        .bind(chat_id)
        .fetch_one(c)
        .await)
    }

    /// On SQLite, indexes every message waiting past the index's mark (`index_later.rs` indexes
    /// them once the inline writer's writes pause, but only after one of its commits: a
    /// message written on the writer pool or by another process may wait for this): what a
    /// search of messages finds is then all that is stored.
    pub(super) async fn index_noted_messages(&self) -> Result<()> {
        match &self.inline {
            Some(writer) => writer.write(super::index_later::index_noted).await,
            None => Ok(()),
        }
    }

    /// Computes `search_text` for rows written before it existed, a chunk per transaction.
    /// A no-op once done.
    pub(super) async fn search_backlog(&self) -> Result<()> {
        for (table, column) in [("memories", "content"), ("messages", "text")] {
            loop {
                let mut tx = self.writer.begin_write().await?;
                let rows: Vec<(i64, String)> = on_conn!(tx.conn(), c => sqlx::query_as(&format!(
                    "SELECT id, {column} FROM {table} WHERE search_text IS NULL ORDER BY id LIMIT $1"
                ))
                .bind(BACKLOG_CHUNK)
                .fetch_all(c)
                .await)?;
                if rows.is_empty() {
                    // Now, not by a task of its own once dropped: the write lock is let go.
                    tx.rollback().await?;
                    break;
                }
                for (id, text) in &rows {
                    let search = if table == "messages" {
                        message_search_text(text, true)
                    } else {
                        search_text(text)
                    };
                    on_conn!(tx.conn(), c => sqlx::query(&format!(
                        "UPDATE {table} SET search_text = $2 WHERE id = $1"
                    ))
                    .bind(id)
                    .bind(search)
                    .execute(c)
                    .await.map(|_| ()))?;
                }
                tx.commit().await?;
            }
        }
        Ok(())
    }
}

/// A memory row as [`Store::memories_in_scope`] aggregates it: the columns of [`MemoryRow`]
/// in order, `archived` as 0/1 (the backends spell JSON booleans differently).
#[derive(Deserialize)]
struct JsonMemory(
    i64,
    Option<i64>,
    String,
    String,
    Option<String>,
    f64,
    String,
    String,
    i64,
    i64,
    i64,
    i64,
    Option<i64>,
    Option<i64>,
    Option<String>,
    Option<String>,
    Option<String>,
);

impl JsonMemory {
    fn into_row(self) -> Result<MemoryRow> {
        let bad = |e: String| sqlx::Error::Decode(e.into());
        Ok(MemoryRow {
            id: self.0,
            chat_id: self.1,
            category: self.2.parse().map_err(bad)?,
            content: self.3,
            subject: self.4,
            confidence: self.5,
            source: self.6.parse().map_err(bad)?,
            source_message_ids: self.7,
            created_at: self.8,
            updated_at: self.9,
            last_seen_at: self.10,
            archived: self.11 != 0,
            archived_at: self.12,
            supersedes_id: self.13,
            key: self.14,
            channel: self.15,
            external_chat_id: self.16,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fts_expressions_become_prefix_tsqueries_of_stems() {
        assert_eq!(tsquery("\"dogs\" OR \"rex\""), "'dog':* | 'rex':*");
        assert_eq!(tsquery("\"住在\" OR \"东京\""), "'住在':* | '东京':*");
        // Nothing that could break out of a lexeme survives.
        assert_eq!(tsquery("\"it's\" OR \"a|b\""), "'it':* | 'ab':*");
        assert_eq!(tsquery(""), "");
    }

    /// Full-text hits come best first on both backends: the text with more of the query's
    /// words, then of two with as many the one with fewer words. Each is stored weakest first,
    /// so the table's own order is the wrong one. PostgreSQL ranked with `ts_rank_cd`, which
    /// needs word positions that `search_tsv` does not hold: every hit scored 0 and came in
    /// the table's order, and a limit kept the oldest matches, not the best.
    #[tokio::test]
    async fn full_text_hits_come_best_first() {
        use crate::base::{ChatKey, MemoryScope};
        use crate::store::{Arrival, testing::said_at};
        let texts = [
            "Lena walks her dog through the park every single morning before work",
            "Lena has a dog",
            "Lena's dog is named Rex",
        ];
        let best_first = [texts[2], texts[1], texts[0]];
        for store in crate::store::testing::backends().await {
            let backend = store.backend();
            let key = ChatKey::new("telegram", "1");
            let arrivals: Vec<Arrival<'_>> = (texts.iter().zip(0..))
                .map(|(text, at)| Arrival {
                    text,
                    ..said_at(&key, false, None, at)
                })
                .collect();
            let stored = store.store_arrivals(&arrivals).await.unwrap();
            let chat_id = stored[0].unwrap().chat_id;
            let hits = store
                .bm25_messages(chat_id, "\"dog\" OR \"rex\"", 10)
                .await
                .unwrap();
            let found: Vec<&str> = hits.iter().map(|h| h.text.as_str()).collect();
            assert_eq!(found, best_first, "messages, {backend:?}");
            let hits = store
                .bm25_messages(chat_id, "\"dog\" OR \"rex\"", 1)
                .await
                .unwrap();
            assert_eq!(
                hits[0].text, best_first[0],
                "the limit keeps the best, {backend:?}"
            );

            let mut ids = Vec::new();
            for text in texts {
                let fact = crate::store::tests::fact(MemoryScope::Chat(chat_id), text);
                ids.push(store.insert_memory(&fact).await.unwrap());
            }
            let hits = store
                .bm25_memories(SearchScope::Chat(chat_id), "\"dog\" OR \"rex\"", 10)
                .await
                .unwrap();
            let found: Vec<i64> = hits.iter().map(|h| h.id).collect();
            assert_eq!(found, [ids[2], ids[1], ids[0]], "memories, {backend:?}");
        }
    }

    /// The rows a search ranks, read as one JSON row: every column as `get_memory` reads it,
    /// only unarchived ones, only of the scope, on both backends.
    #[tokio::test]
    async fn memories_in_scope_reads_whole_rows_of_the_scope() {
        use crate::base::{Category, ChatKey, MemoryScope, Source};
        for store in crate::store::testing::backends().await {
            let chat = store
                .ensure_chat(&ChatKey::new("telegram", "42"), false, Some("T"))
                .await
                .unwrap();
            let other = store
                .ensure_chat(&ChatKey::new("discord", "7"), true, None)
                .await
                .unwrap();
            let mut own =
                crate::store::tests::fact(MemoryScope::Chat(chat.id), "Rex is a dog, \"ü\" 🦀");
            own.category = Category::Profile;
            own.subject = Some("Bob".into());
            own.key = Some("dog".into());
            own.source = Source::Reflector;
            own.confidence = 0.875;
            let own = store.insert_memory(&own).await.unwrap();
            let global = store
                .insert_memory(&crate::store::tests::fact(MemoryScope::Global, "global"))
                .await
                .unwrap();
            let elsewhere = store
                .insert_memory(&crate::store::tests::fact(MemoryScope::Chat(other.id), "x"))
                .await
                .unwrap();
            let gone = store
                .insert_memory(&crate::store::tests::fact(
                    MemoryScope::Chat(chat.id),
                    "gone",
                ))
                .await
                .unwrap();
            store.archive_memories(&[gone], 5).await.unwrap();
            let all = [own, global, elsewhere, gone];

            let mut got = store
                .memories_in_scope(&all, SearchScope::Chat(chat.id))
                .await
                .unwrap();
            got.sort_by_key(|m| m.id);
            assert_eq!(got.iter().map(|m| m.id).collect::<Vec<_>>(), [own, global]);
            for m in &got {
                let want = store.get_memory(m.id).await.unwrap().unwrap();
                assert_eq!(format!("{m:?}"), format!("{want:?}"));
            }
            assert_eq!(got[0].chat_name(), "telegram:42");
            assert_eq!(got[1].chat_name(), "global");
            let ids = |scope| {
                let store = store.clone();
                async move {
                    let mut v: Vec<i64> = store
                        .memories_in_scope(&all, scope)
                        .await
                        .unwrap()
                        .iter()
                        .map(|m| m.id)
                        .collect();
                    v.sort();
                    v
                }
            };
            assert_eq!(ids(SearchScope::Global).await, [global]);
            assert_eq!(ids(SearchScope::All).await, [own, global, elsewhere]);
            assert!(
                store
                    .memories_in_scope(&[], SearchScope::All)
                    .await
                    .unwrap()
                    .is_empty()
            );
        }
    }

    #[test]
    fn commands_and_acknowledgements_are_not_searchable() {
        assert_eq!(message_search_text("/memories", true), "");
        assert_eq!(message_search_text("  /forget 3", true), "");
        assert_eq!(message_search_text("Noted. Saved memory #1: x", false), "");
        assert_eq!(message_search_text("My dog is Rex", true), "dog rex");
        assert_eq!(
            message_search_text("我住在东京", true),
            "我住 住在 在东 东京"
        );
    }

    /// The messages waiting for SQLite's message index and its segments, read on the read pool.
    async fn noted_and_segments(store: &Store) -> (i64, i64) {
        on_pool!(&store.pool, c => sqlx::query_as(
            "SELECT (SELECT COUNT(*) FROM messages WHERE id > (SELECT upto FROM message_fts_indexed)),
                    (SELECT COUNT(DISTINCT segid) FROM message_fts_idx)",
        )
        .fetch_one(c)
        .await)
        .unwrap()
    }

    /// SQLite: a burst stored in one transaction goes into the message index once the writes
    /// pause, with no search asking for it, as one segment. When a trigger indexed each
    /// insert, fts5 wrote a segment at each statement after it and merged them: these 100
    /// ended as 7.
    #[tokio::test]
    async fn a_burst_of_messages_is_indexed_as_one_segment_once_the_writes_pause() {
        use crate::base::ChatKey;
        use crate::store::{Arrival, testing::said_at};
        let store = Store::open("sqlite::memory:").await.unwrap();
        let chat = ChatKey::new("telegram", "1");
        let texts: Vec<String> = (0..100).map(|i| format!("garden note {i}")).collect();
        let arrivals: Vec<Arrival<'_>> = (texts.iter().zip(0..))
            .map(|(text, at)| Arrival {
                text,
                ..said_at(&chat, false, None, at)
            })
            .collect();
        let stored = store.store_arrivals(&arrivals).await.unwrap();
        assert!(stored.iter().all(Option::is_some));
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while noted_and_segments(&store).await != (0, 1) {
            assert!(
                std::time::Instant::now() < deadline,
                "not indexed: {:?}",
                noted_and_segments(&store).await
            );
            tokio::task::yield_now().await;
        }
        let chat_id = stored[0].unwrap().chat_id;
        let hits = store.bm25_messages(chat_id, "\"garden\"", 200).await;
        assert_eq!(hits.unwrap().len(), 100);
        let hits = store.bm25_messages(chat_id, "\"42\"", 200).await.unwrap();
        assert_eq!(
            hits.iter().map(|h| h.text.as_str()).collect::<Vec<_>>(),
            ["garden note 42"]
        );
    }

    /// SQLite: a message written past the inline writer (on the writer pool, or by another
    /// process) waits past the index's mark and is found by the next search; a waiting message is
    /// indexed with the text it has then, and one deleted before is not indexed at all.
    #[tokio::test]
    async fn messages_written_past_the_inline_writer_are_found_by_search() {
        use crate::base::ChatKey;
        let store = Store::open("sqlite::memory:").await.unwrap();
        let chat = store
            .ensure_chat(&ChatKey::new("telegram", "1"), false, None)
            .await
            .unwrap();
        let write = |sql: &'static str| {
            let store = store.clone();
            async move {
                on_pool!(&store.writer, c => sqlx::query(sql).bind(chat.id).execute(c).await.map(|_| ()))
                    .unwrap();
            }
        };
        let insert = "INSERT INTO messages (id, chat_id, sender_id, sender_name, is_from_bot, text, created_at, search_text)
                      VALUES ($2, $1, '7', 'Ann', FALSE, 'x', 1, $3)";
        for (id, search) in [(1, "rose bloom"), (2, "daisy"), (3, "lily")] {
            on_pool!(&store.writer, c => sqlx::query(insert).bind(chat.id).bind(id).bind(search).execute(c).await.map(|_| ()))
                .unwrap();
        }
        write("UPDATE messages SET search_text = 'tulip' WHERE id = 2 AND chat_id = $1").await;
        write("DELETE FROM messages WHERE id = 3 AND chat_id = $1").await;
        assert_eq!(noted_and_segments(&store).await, (2, 0));

        let found = |query: &'static str| {
            let store = store.clone();
            async move {
                let hits = store.bm25_messages(chat.id, query, 10).await.unwrap();
                hits.iter().map(|h| h.id).collect::<Vec<_>>()
            }
        };
        assert_eq!(found("\"rose\"").await, [1]);
        assert_eq!(noted_and_segments(&store).await, (0, 1));
        assert_eq!(found("\"tulip\"").await, [2]);
        assert!(found("\"daisy\"").await.is_empty());
        assert!(found("\"lily\"").await.is_empty());
        // Indexed since: a change of its text now goes through the index at once.
        write("UPDATE messages SET search_text = 'orchid' WHERE id = 1 AND chat_id = $1").await;
        assert_eq!(found("\"orchid\"").await, [1]);
        assert!(found("\"rose\"").await.is_empty());
    }

    /// SQLite: the newest message deleted once indexed, its id is given to the next message
    /// (one past the largest left), which still waits for the index: the delete brings the
    /// index's mark down to the largest id left.
    #[tokio::test]
    async fn a_message_given_the_id_of_a_deleted_one_is_indexed() {
        use crate::base::ChatKey;
        use crate::store::{Arrival, testing::said_at};
        let store = Store::open("sqlite::memory:").await.unwrap();
        let chat = ChatKey::new("telegram", "1");
        let said = |text: &'static str, at: i64| Arrival {
            text,
            ..said_at(&chat, false, None, at)
        };
        let stored = store
            .store_arrivals(&[said("first rose", 1), said("second daisy", 2)])
            .await
            .unwrap();
        let (chat_id, newest) = (stored[0].unwrap().chat_id, stored[1].unwrap().id);
        let found = |query: &'static str| {
            let store = store.clone();
            async move {
                let hits = store.bm25_messages(chat_id, query, 10).await.unwrap();
                hits.iter().map(|h| h.id).collect::<Vec<_>>()
            }
        };
        assert_eq!(found("\"daisy\"").await, [newest]);
        on_pool!(&store.writer, c => sqlx::query("DELETE FROM messages WHERE id = $1")
            .bind(newest)
            .execute(c)
            .await
            .map(|_| ()))
        .unwrap();
        let again = store
            .store_arrivals(&[said("third tulip", 3)])
            .await
            .unwrap();
        assert_eq!(again[0].unwrap().id, newest, "SQLite gives the id again");
        assert_eq!(found("\"tulip\"").await, [newest]);
        assert!(found("\"daisy\"").await.is_empty());
        assert_eq!(noted_and_segments(&store).await.0, 0);
    }
}
