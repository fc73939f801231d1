//! Embedding vectors of memories (`memory_vectors`) and the queue of memories waiting for one
//! (`memory_embedding_queue`); see migration 0003. Triggers queue a memory when it is written
//! or its text changes and drop its vector when it is archived or edited, so the only writer of
//! vectors is whoever embeds: the background sync (`memory::embedding_sync`) and the reflector,
//! which stores the vectors of the facts it inserts in the batch's own transaction.

use sqlx::FromRow;

use super::db::{Conn, on_conn, on_pool};

use super::memory_terms::scope_key;
use super::{Result, Store, from_json, json_list, now_ms};
use crate::base::MemoryScope;

/// A vector as read back for the in-process index.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredVector {
    pub seq: i64,
    pub memory_id: i64,
    pub vector: Vec<f32>,
}

/// Up to a page of a scope's vectors in write order ([`Store::vectors_since`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VectorPage {
    /// The page's vectors of the asked width (a row whose bytes are not one is left out).
    pub vectors: Vec<StoredVector>,
    /// Rows read, left out or not: fewer than the page's size means there are no more.
    pub rows: usize,
    /// The newest `seq` read (0 when none was).
    pub last_seq: i64,
}

/// An active memory waiting for its embedding.
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct PendingEmbedding {
    pub memory_id: i64,
    pub chat_id: Option<i64>,
    pub content: String,
}

impl PendingEmbedding {
    pub fn scope(&self) -> MemoryScope {
        self.chat_id.map_or(MemoryScope::Global, MemoryScope::Chat)
    }
}

/// Little-endian f32s, the `vector` column's format.
pub fn encode_vector(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// The inverse of [`encode_vector`]; `None` for a blob that is not whole f32s.
pub fn decode_vector(bytes: &[u8]) -> Option<Vec<f32>> {
    if !bytes.len().is_multiple_of(4) {
        return None;
    }
    Some(
        bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect(),
    )
}

/// Replaces the vector of memory `id` and takes it off the queue.
pub(super) async fn write_vector(
    conn: &mut Conn<'_>,
    id: i64,
    scope: MemoryScope,
    model: &str,
    vector: &[f32],
) -> Result<()> {
    on_conn!(conn.re(), c => sqlx::query("DELETE FROM memory_vectors WHERE memory_id = $1")
        .bind(id)
        .execute(c)
        .await.map(|_| ()))?;
    on_conn!(conn.re(), c => sqlx::query(
        "INSERT INTO memory_vectors (memory_id, scope, model, dim, vector, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(id)
    .bind(scope_key(scope))
    .bind(model)
    .bind(vector.len() as i64)
    .bind(encode_vector(vector))
    .bind(now_ms())
    .execute(c)
    .await.map(|_| ()))?;
    on_conn!(conn.re(), c => sqlx::query("DELETE FROM memory_embedding_queue WHERE memory_id = $1")
        .bind(id)
        .execute(c)
        .await.map(|_| ()))?;
    Ok(())
}

impl Store {
    /// How often the vectors of a scope (0 = global) were written or removed; a holder of
    /// the scope's vectors whose count differs must reload.
    pub async fn vector_generation(&self, scope: i64) -> Result<i64> {
        let generation: Option<i64> = on_pool!(&self.pool, c => sqlx::query_scalar("SELECT gen FROM memory_vector_generations WHERE scope = $1")
                .bind(scope)
                .fetch_optional(c)
                .await)?;
        Ok(generation.unwrap_or(0))
    }

    /// Every scope that holds or held vectors.
    pub async fn vector_scopes(&self) -> Result<Vec<i64>> {
        on_pool!(&self.pool, c => sqlx::query_scalar("SELECT scope FROM memory_vector_generations ORDER BY scope")
            .fetch_all(c)
            .await)
    }

    /// The first `limit` vectors of `scope` made by `model` with `dim` dimensions and written
    /// after `after_seq`, in write order. Read page by page, a scope's 100k vectors never sit in
    /// memory all at once as rows and again as floats beside the index they are loaded into.
    pub async fn vectors_since(
        &self,
        scope: i64,
        model: &str,
        dim: usize,
        after_seq: i64,
        limit: usize,
    ) -> Result<VectorPage> {
        let rows: Vec<(i64, i64, Vec<u8>)> = on_pool!(&self.pool, c => sqlx::query_as(
            "SELECT seq, memory_id, vector FROM memory_vectors
             WHERE scope = $1 AND seq > $2 AND model = $3 AND dim = $4 ORDER BY seq LIMIT $5",
        )
        .bind(scope)
        .bind(after_seq)
        .bind(model)
        .bind(dim as i64)
        .bind(i64::try_from(limit).unwrap_or(i64::MAX))
        .fetch_all(c)
        .await)?;
        Ok(VectorPage {
            rows: rows.len(),
            last_seq: rows.last().map_or(0, |r| r.0),
            vectors: rows
                .into_iter()
                .filter_map(|(seq, memory_id, blob)| {
                    decode_vector(&blob).map(|vector| StoredVector {
                        seq,
                        memory_id,
                        vector,
                    })
                })
                .filter(|v| v.vector.len() == dim)
                .collect(),
        })
    }

    /// The stored vectors of `ids` made by `model` with `dim` dimensions (ids without one are
    /// left out). One row for all of them: their ids as a JSON list and their bytes end to end
    /// in one blob, in the same order. sqlx hands rows over one at a time, which would cost
    /// more than the vectors themselves, and a JSON list of hex text cost 2 ms for 80 vectors.
    pub async fn vectors_of(
        &self,
        ids: &[i64],
        model: &str,
        dim: usize,
    ) -> Result<Vec<(i64, Vec<f32>)>> {
        if ids.is_empty() || dim == 0 {
            return Ok(Vec::new());
        }
        let sql = if self.pool.is_postgres() {
            "SELECT CAST(COALESCE(json_agg(memory_id ORDER BY memory_id), '[]') AS TEXT),
                    COALESCE(string_agg(vector, ''::bytea ORDER BY memory_id), ''::bytea)
             FROM memory_vectors
             WHERE memory_id IN (SELECT CAST(value AS BIGINT) FROM json_array_elements_text($1::json))
               AND model = $2 AND dim = $3 AND length(vector) = 4 * $3"
        } else {
            "SELECT COALESCE(json_group_array(memory_id ORDER BY memory_id), '[]'),
                    unhex(COALESCE(group_concat(hex(vector), '' ORDER BY memory_id), ''))
             FROM memory_vectors
             WHERE memory_id IN (SELECT value FROM json_each($1))
               AND model = $2 AND dim = $3 AND length(vector) = 4 * $3"
        };
        let (json, bytes): (String, Vec<u8>) = on_pool!(&self.pool, c => sqlx::query_as(sql)
        .bind(json_list(ids))
        .bind(model)
        .bind(dim as i64)
        .fetch_one(c)
        .await)?;
        let found: Vec<i64> = from_json(&json)?;
        let width = dim * 4;
        if bytes.len() != found.len() * width {
            return Err(sqlx::Error::Decode(
                format!(
                    "{} vectors of {dim} dimensions came back as {} bytes",
                    found.len(),
                    bytes.len()
                )
                .into(),
            ));
        }
        Ok(found
            .into_iter()
            .zip(bytes.chunks_exact(width))
            .filter_map(|(id, blob)| Some((id, decode_vector(blob)?)))
            .collect())
    }

    /// The memories of `scope` with a vector from `model` at `dim` dimensions.
    pub async fn vector_memory_ids(&self, scope: i64, model: &str, dim: usize) -> Result<Vec<i64>> {
        let sql = self.pool.sql(
            "SELECT CAST(COALESCE(json_group_array(memory_id), '[]') AS TEXT) FROM memory_vectors
             WHERE scope = $1 AND model = $2 AND dim = $3",
        );
        let json: String = on_pool!(&self.pool, c => sqlx::query_scalar(&sql)
        .bind(scope)
        .bind(model)
        .bind(dim as i64)
        .fetch_one(c)
        .await)?;
        from_json(&json)
    }

    /// Queues every active memory without a vector from `model` at `dim` dimensions (a new
    /// model, a new dimension, or rows written while embeddings were off). Returns how many
    /// were added to the queue.
    pub async fn queue_stale_embeddings(&self, model: &str, dim: usize) -> Result<u64> {
        let done = on_pool!(&self.writer, c => sqlx::query(
            "INSERT INTO memory_embedding_queue (memory_id)
             SELECT m.id FROM memories m LEFT JOIN memory_vectors v ON v.memory_id = m.id
             WHERE m.archived = FALSE AND (v.memory_id IS NULL OR v.model != $1 OR v.dim != $2)
             ON CONFLICT DO NOTHING",
        )
        .bind(model)
        .bind(dim as i64)
        .execute(c)
            .await
            .map(|r| r.rows_affected()))?;
        Ok(done)
    }

    /// Up to `limit` queued memories, oldest first.
    pub async fn pending_embeddings(&self, limit: usize) -> Result<Vec<PendingEmbedding>> {
        on_pool!(&self.pool, c => sqlx::query_as::<_, PendingEmbedding>(
            "SELECT m.id AS memory_id, m.chat_id, m.content FROM memory_embedding_queue q
             JOIN memories m ON m.id = q.memory_id WHERE m.archived = FALSE
             ORDER BY q.memory_id LIMIT $1",
        )
        .bind(i64::try_from(limit).unwrap_or(i64::MAX))
        .fetch_all(c)
        .await)
    }

    /// How many memories wait for an embedding.
    pub async fn embedding_queue_len(&self) -> Result<i64> {
        on_pool!(&self.pool, c => sqlx::query_scalar("SELECT COUNT(*) FROM memory_embedding_queue")
            .fetch_one(c)
            .await)
    }

    /// Stores the vectors of embedded queue items in one transaction. An item whose memory
    /// was archived, deleted or reworded meanwhile is skipped (a reworded one stays queued for
    /// its new text). Returns how many were stored.
    pub async fn store_embeddings(
        &self,
        model: &str,
        items: &[(PendingEmbedding, Vec<f32>)],
    ) -> Result<usize> {
        // Write intent from the start: a transaction that reads and then writes cannot wait for
        // another writer (SQLite refuses the upgrade at once); two syncs in one process, or
        // `mneme chat` beside `mneme start`, then take turns instead.
        let mut tx = self.writer.begin_write().await?;
        let ids: Vec<i64> = items.iter().map(|(p, _)| p.memory_id).collect();
        let sql = self.pool.sql(
            "SELECT id, content FROM memories WHERE archived = FALSE
               AND id IN (SELECT CAST(value AS BIGINT) FROM json_each($1))",
        );
        let current: Vec<(i64, String)> = on_conn!(tx.conn(), c => sqlx::query_as(&sql)
        .bind(json_list(&ids))
        .fetch_all(c)
        .await)?;
        let mut stored = 0;
        for (pending, vector) in items {
            let unchanged = current
                .iter()
                .any(|(id, content)| *id == pending.memory_id && *content == pending.content);
            if unchanged {
                write_vector(
                    &mut tx.conn(),
                    pending.memory_id,
                    pending.scope(),
                    model,
                    vector,
                )
                .await?;
                stored += 1;
            }
        }
        tx.commit().await?;
        Ok(stored)
    }

    /// Vectors stored per model, for `mneme usage` and start-up logs.
    pub async fn vector_counts(&self) -> Result<Vec<(String, i64, i64)>> {
        on_pool!(&self.pool, c => sqlx::query_as("SELECT model, dim, COUNT(*) FROM memory_vectors GROUP BY model, dim")
            .fetch_all(c)
            .await)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_round_trip_through_blobs() {
        let v = vec![0.5, -1.25, 3.0e-7, f32::MAX];
        assert_eq!(decode_vector(&encode_vector(&v)), Some(v));
        assert_eq!(decode_vector(&[1, 2, 3]), None);
        assert_eq!(decode_vector(&[]), Some(vec![]));
    }

    /// What a search ranks with: the exact vectors of the ids asked for, as stored, and
    /// nothing for ids without one (or with another model's).
    #[tokio::test]
    async fn vectors_of_reads_exact_stored_vectors() {
        for store in crate::store::testing::backends().await {
            let mut ids = Vec::new();
            for text in ["one", "two", "three"] {
                ids.push(
                    store
                        .insert_memory(&crate::store::tests::fact(
                            MemoryScope::Global,
                            &format!("fact {text}"),
                        ))
                        .await
                        .unwrap(),
                );
            }
            let pending = store.pending_embeddings(10).await.unwrap();
            let exact = |id: i64| vec![id as f32 * 0.1, -0.3, 1.0e-7, 0.123_456_79];
            let items: Vec<_> = pending
                .into_iter()
                .filter(|p| p.memory_id != ids[2])
                .map(|p| {
                    let v = exact(p.memory_id);
                    (p, v)
                })
                .collect();
            store.store_embeddings("m", &items).await.unwrap();
            let mut got = store.vectors_of(&ids, "m", 4).await.unwrap();
            got.sort_by_key(|g| g.0);
            assert_eq!(got, vec![(ids[0], exact(ids[0])), (ids[1], exact(ids[1]))]);
            assert!(store.vectors_of(&ids, "other", 4).await.unwrap().is_empty());
            assert!(store.vectors_of(&ids, "m", 3).await.unwrap().is_empty());
            assert!(store.vectors_of(&[], "m", 4).await.unwrap().is_empty());
        }
    }

    /// A scope's vectors come page by page in write order, each page saying how far it read;
    /// a stored row that is not a vector of the width asked for is read past, not returned.
    #[tokio::test]
    async fn vectors_since_reads_page_by_page() {
        for store in crate::store::testing::backends().await {
            let mut ids = Vec::new();
            for n in 0..6 {
                let fact = crate::store::tests::fact(MemoryScope::Global, &format!("fact {n}"));
                ids.push(store.insert_memory(&fact).await.unwrap());
            }
            let pending = store.pending_embeddings(10).await.unwrap();
            let items: Vec<_> = (pending.into_iter())
                .filter(|p| p.memory_id != ids[5])
                .map(|p| {
                    let v = vec![p.memory_id as f32, 0.0, 0.0, 1.0];
                    (p, v)
                })
                .collect();
            store.store_embeddings("m", &items).await.unwrap();
            // Written last: three bytes where four floats belong.
            on_pool!(&store.pool, c => sqlx::query(
                "INSERT INTO memory_vectors (memory_id, scope, model, dim, vector, created_at)
                 VALUES ($1, 0, 'm', 4, $2, 0)",
            )
            .bind(ids[5])
            .bind(vec![1u8, 2, 3])
            .execute(c)
            .await
            .map(|_| ())
            .unwrap());

            let (mut after, mut read, mut pages) = (0, Vec::new(), Vec::new());
            loop {
                let page = store.vectors_since(0, "m", 4, after, 2).await.unwrap();
                pages.push((page.rows, page.vectors.len()));
                if page.rows == 0 {
                    assert_eq!(page.last_seq, 0);
                    break;
                }
                assert!(page.last_seq > after, "a page reads past the one before");
                read.extend(page.vectors.iter().map(|v| v.memory_id));
                after = page.last_seq;
            }
            assert_eq!(pages, vec![(2, 2), (2, 2), (2, 1), (0, 0)]);
            assert_eq!(read, ids[..5]);
            let all = store.vectors_since(0, "m", 4, 0, usize::MAX).await.unwrap();
            assert_eq!((all.rows, all.vectors.len()), (6, 5));
            assert_eq!(all.last_seq, after);
        }
    }
}
