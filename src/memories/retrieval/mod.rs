//! Finding memories: the one retrieval path behind prompt injection, the memory tools,
//! `mneme memory search` and the reflector's dedup.
//!
//! A search gathers two rankings — BM25 over the full-text index (`store::search`) and
//! embedding similarity over the in-process vectors (`vector_index`) — and hands them to the
//! pure ranking of `memory::rank` (RRF, decay, MMR). Without an embedder, or when embedding
//! the query fails, it is BM25 alone: a search never fails because the embedder did.
//! `sync` keeps the vectors up to date in the background.

mod codes;
pub mod sync;
pub mod vector_index;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use crate::base::MemoryRow;
use crate::config::{Config, SearchConfig};
use crate::embed::Embedder;
use crate::memory::keywords::{self, coverage, stems};
use crate::memory::rank::{self, Candidate, RankSettings, Stages};
use crate::memory::select;
use crate::memory::text::jaccard;
use crate::store::{SearchScope, Store, now_ms};

pub use vector_index::VectorIndex;

/// Longest wait for the query's embedding before searching without it.
pub const QUERY_EMBED_TIMEOUT: Duration = Duration::from_secs(5);
/// After embedding a query failed, searches skip the vector ranking this long instead of
/// each waiting for an embedder that is down.
pub const VECTOR_COOLDOWN: Duration = Duration::from_secs(30);
/// Search hits a prompt is offered…
const PROMPT_HITS: usize = 40;
/// …and recent memories beside them.
const PROMPT_BACKGROUND: usize = 40;

/// One memory found, with how each stage saw it.
#[derive(Debug, Clone)]
pub struct SearchHit {
    pub memory: MemoryRow,
    /// How well it matches, in [0, 1] (see `memory::rank::Ranked::score`).
    pub score: f64,
    pub stages: Stages,
}

/// What a search found, and which rankings took part.
#[derive(Debug, Clone, Default)]
pub struct SearchResults {
    pub hits: Vec<SearchHit>,
    pub used_bm25: bool,
    pub used_vector: bool,
    /// Why the vector ranking was left out although it is configured (embedding failed).
    pub vector_error: Option<String>,
}

/// Finds memories; cheap to clone (one per process, shared by the agent, the reflector and
/// the CLI).
#[derive(Clone)]
pub struct Retriever {
    inner: Arc<Inner>,
}

struct Inner {
    /// Wakes the background sync when this process wrote a memory.
    written: tokio::sync::Notify,
    /// Until when searches leave the vector ranking out, and why (the last failure).
    vector_paused: std::sync::Mutex<Option<(std::time::Instant, String)>>,
    store: Store,
    embedder: Option<Arc<dyn Embedder>>,
    index: Option<VectorIndex>,
    search: SearchConfig,
    rank: RankSettings,
}

impl Retriever {
    pub fn new(config: &Config, store: Store, embedder: Option<Arc<dyn Embedder>>) -> Self {
        let s = &config.search;
        let index = embedder.as_ref().map(|e| VectorIndex::new(e.model()));
        Self {
            inner: Arc::new(Inner {
                written: tokio::sync::Notify::new(),
                vector_paused: std::sync::Mutex::new(None),
                store,
                embedder,
                index,
                search: s.clone(),
                rank: RankSettings {
                    rrf_k: f64::from(s.rrf_k),
                    decay: s.decay,
                    half_life_days: f64::from(s.half_life_days),
                    mmr: s.mmr,
                    mmr_lambda: s.mmr_lambda,
                },
            }),
        }
    }

    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    /// RRF's k (`search.rrf_k`): every merge of rankings uses the same one.
    pub fn rrf_k(&self) -> f64 {
        self.inner.rank.rrf_k
    }

    pub fn embedder(&self) -> Option<&Arc<dyn Embedder>> {
        self.inner.embedder.as_ref()
    }

    /// Tells the background sync that a memory was written or reworded, so it embeds it now
    /// rather than at its next look at the queue.
    pub fn memory_written(&self) {
        self.inner.written.notify_one();
    }

    /// The in-process vectors, when there is an embedder.
    pub fn index(&self) -> Option<&VectorIndex> {
        self.inner.index.as_ref()
    }

    /// Embeds one text (with a time limit); `Err` says why not. `Ok(None)` without embedder.
    pub async fn embed_one(&self, text: &str) -> Result<Option<Vec<f32>>, String> {
        let Some(embedder) = self.embedder() else {
            return Ok(None);
        };
        let texts = [text.to_string()];
        match tokio::time::timeout(QUERY_EMBED_TIMEOUT, embedder.embed(&texts)).await {
            Ok(Ok(mut vectors)) if vectors.len() == 1 => Ok(vectors.pop()),
            Ok(Ok(v)) => Err(format!(
                "the embedder returned {} vectors for one text",
                v.len()
            )),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err(format!(
                "no embedding within {}s",
                QUERY_EMBED_TIMEOUT.as_secs()
            )),
        }
    }

    /// Why the vector ranking is paused, while it is.
    fn paused(&self) -> Option<String> {
        let mut paused = self
            .inner
            .vector_paused
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        match &*paused {
            Some((until, why)) if std::time::Instant::now() < *until => Some(format!(
                "{why} (retrying within {}s)",
                until
                    .saturating_duration_since(std::time::Instant::now())
                    .as_secs()
                    + 1
            )),
            Some(_) => {
                *paused = None;
                None
            }
            None => None,
        }
    }

    fn pause(&self, why: &str) {
        let until = std::time::Instant::now() + VECTOR_COOLDOWN;
        *self
            .inner
            .vector_paused
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = Some((until, why.to_string()));
    }

    /// The `k` memories of these scopes (0 = global) nearest to `vector`, with their cosine;
    /// empty without an embedder.
    pub async fn nearest(
        &self,
        scopes: &[i64],
        vector: &[f32],
        k: usize,
    ) -> sqlx::Result<Vec<(i64, f64)>> {
        match self.index() {
            Some(index) => index.nearest(self.store(), scopes, vector, k).await,
            None => Ok(Vec::new()),
        }
    }

    /// The `limit` memories of `scope` best matching `query`, best first.
    pub async fn search(
        &self,
        scope: SearchScope,
        query: &str,
        limit: usize,
    ) -> anyhow::Result<SearchResults> {
        let inner = &self.inner;
        let store = &inner.store;
        let per_list = (inner.search.candidates as usize).max(limit);
        let mut out = SearchResults::default();

        let keywords = keywords::keywords(query);
        // The keyword ranking (SQLite, on a pool connection) and the query's embedding (the
        // embedder's own thread or a remote call) do not wait for each other.
        let bm25 = async {
            match keywords::fts_expression(&keywords) {
                Some(expr) if inner.search.bm25 => {
                    store.bm25_memories(scope, &expr, per_list).await.map(Some)
                }
                _ => Ok(None),
            }
        };
        let embedded = async {
            if !(inner.search.vector && self.embedder().is_some() && !query.trim().is_empty()) {
                return None;
            }
            Some(match self.paused() {
                Some(why) => Err(why),
                None => self.embed_one(query).await.inspect_err(|e| {
                    tracing::warn!(error = %e, pause_s = VECTOR_COOLDOWN.as_secs(), "search without embeddings: the query could not be embedded");
                    self.pause(e);
                }),
            })
        };
        let (bm25, embedded) = tokio::join!(bm25, embedded);
        let bm25 = match bm25? {
            Some(hits) => {
                out.used_bm25 = true;
                hits
            }
            None => Vec::new(),
        };
        let query_vector = match embedded {
            Some(Ok(v)) => v,
            Some(Err(why)) => {
                out.vector_error = Some(why);
                None
            }
            None => None,
        };
        let (nearest, vectors) = match (&query_vector, self.index()) {
            (Some(v), Some(index)) => {
                out.used_vector = true;
                let scope_keys = match scope.scope_keys() {
                    Some(keys) => keys,
                    None => store.vector_scopes().await?,
                };
                // The BM25 hits' vectors too, for their cosine and for MMR.
                let found: Vec<i64> = bm25.iter().map(|h| h.id).collect();
                index
                    .nearest_with(store, &scope_keys, v, per_list, &found)
                    .await?
            }
            _ => (Vec::new(), HashMap::new()),
        };

        // The rows both lists name, as the scope may see them (a vector held in memory may
        // belong to a memory archived a moment ago: it is not found).
        let mut ids: Vec<i64> = bm25.iter().map(|h| h.id).collect();
        ids.extend(nearest.iter().map(|n| n.0));
        let rows: HashMap<i64, MemoryRow> = store
            .memories_in_scope(&ids, scope)
            .await?
            .into_iter()
            .map(|m| (m.id, m))
            .collect();
        let vector_ranks: HashMap<i64, usize> = nearest
            .iter()
            .filter(|n| rows.contains_key(&n.0))
            .enumerate()
            .map(|(i, n)| (n.0, i + 1))
            .collect();
        let bm25_ranks: HashMap<i64, (usize, f64)> = bm25
            .iter()
            .filter(|h| rows.contains_key(&h.id))
            .enumerate()
            .map(|(i, h)| (h.id, (i + 1, h.bm25)))
            .collect();
        let query_stems = keywords.iter().map(|k| keywords::stem(k)).collect();
        let row_stems: HashMap<i64, HashSet<String>> =
            rows.values().map(|m| (m.id, stems(&m.content))).collect();
        let mut candidates: Vec<Candidate> = rows
            .values()
            .map(|m| Candidate {
                id: m.id,
                category: m.category,
                last_seen_ms: m.last_seen_at,
                bm25_rank: bm25_ranks.get(&m.id).map(|r| r.0),
                bm25: bm25_ranks.get(&m.id).map(|r| r.1),
                vector_rank: vector_ranks.get(&m.id).copied(),
                cosine: match (&query_vector, vectors.get(&m.id)) {
                    (Some(q), Some(v)) => Some(rank::cosine(q, v)),
                    _ => None,
                },
                coverage: coverage(&query_stems, &row_stems[&m.id]),
            })
            .collect();
        candidates.sort_by_key(|c| c.id);
        // Near-duplicates for MMR: by embedding when both have one, else by shared stems.
        let similarity = |a: i64, b: i64| match (vectors.get(&a), vectors.get(&b)) {
            (Some(x), Some(y)) => rank::cosine(x, y),
            _ => jaccard(&row_stems[&a], &row_stems[&b]),
        };
        let ranked = rank::rank(&candidates, &inner.rank, now_ms(), limit, similarity);
        let mut rows = rows;
        out.hits = ranked
            .into_iter()
            .filter_map(|r| {
                rows.remove(&r.id).map(|memory| SearchHit {
                    memory,
                    score: r.score,
                    stages: r.stages,
                })
            })
            .collect();
        Ok(out)
    }

    /// The memories a chat's prompt is offered for `query`, in order (see
    /// `select::prompt_order`), and how many it could have drawn on: `total`, the chat's count
    /// of memories that may be injected (`Store::count_injectable`).
    pub async fn prompt_memories(
        &self,
        chat_id: i64,
        query: &str,
        total: i64,
    ) -> anyhow::Result<(Vec<MemoryRow>, usize)> {
        let store = self.store();
        // Most chats have few memories and many have none: counted first (`total`, read with
        // the turn's start), a chat with none costs no read here.
        if total == 0 {
            return Ok((Vec::new(), 0));
        }
        // Two independent reads, at once: the search and the background rows.
        let (found, background) = tokio::try_join!(
            self.search(SearchScope::Chat(chat_id), query, PROMPT_HITS),
            async {
                Ok(store
                    .background_memories(chat_id, PROMPT_BACKGROUND)
                    .await?)
            },
        )?;
        let hit_scores: Vec<(i64, f64)> =
            found.hits.iter().map(|h| (h.memory.id, h.score)).collect();
        let background_ids: Vec<_> = background.iter().map(|m| (m.id, m.category)).collect();
        let order = select::prompt_order(&hit_scores, &background_ids);
        let mut by_id: HashMap<i64, MemoryRow> = found
            .hits
            .into_iter()
            .map(|h| (h.memory.id, h.memory))
            .chain(background.into_iter().map(|m| (m.id, m)))
            .collect();
        let ordered = order.iter().filter_map(|id| by_id.remove(id)).collect();
        let total = usize::try_from(total).unwrap_or(0);
        Ok((ordered, total))
    }
}
