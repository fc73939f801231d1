//! Memory search: what `mneme memory search` prints and the web console shows. It ranks the way
//! prompt injection does, so a person sees what the agent would pick. (Unlike the rest of
//! `memory`, this reads the store; the ranking itself is `select`'s pure functions.)

use crate::memory::select::{Candidate, relevance, score};
use crate::memory::text::term_set;
use crate::store::{MemoryFilter, MemoryRow, MemoryScope, Store, now_ms};

/// One ranked memory.
#[derive(Debug, Clone)]
pub struct SearchHit {
    pub memory: MemoryRow,
    pub score: f64,
}

/// The `limit` best memories for `query`, best first. `scope`: a chat sees its own memories and
/// the global ones (archived left out, as in the prompt); `Global` only the global ones; `None`
/// every memory.
pub async fn search(
    store: &Store,
    scope: Option<MemoryScope>,
    query: &str,
    limit: usize,
) -> anyhow::Result<Vec<SearchHit>> {
    let rows = match scope {
        Some(MemoryScope::Chat(id)) => store.injectable_memories(id).await?,
        scope => {
            store
                .list_memories(&MemoryFilter {
                    scope,
                    ..MemoryFilter::default()
                })
                .await?
        }
    };
    let terms = term_set(query);
    let now = now_ms();
    let mut hits: Vec<SearchHit> = rows
        .into_iter()
        .filter(|m| relevance(&terms, &m.content) > 0.0)
        .map(|m| SearchHit {
            score: score(&terms, &candidate(&m), now),
            memory: m,
        })
        .collect();
    hits.sort_by(|a, b| b.score.total_cmp(&a.score));
    hits.truncate(limit);
    Ok(hits)
}

fn candidate(m: &MemoryRow) -> Candidate<'_> {
    Candidate {
        id: m.id,
        category: m.category,
        global: m.chat_id.is_none(),
        content: &m.content,
        confidence: m.confidence,
        last_seen_ms: m.last_seen_at,
    }
}
