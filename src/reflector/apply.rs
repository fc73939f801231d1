//! Storing a batch's checked facts inside its transaction: a duplicate reinforces the row it
//! repeats, a replacement archives the row it supersedes, anything else is inserted.
//!
//! Duplicates are found by meaning when the facts were embedded (cosine of embeddings, the
//! nearest stored memories looked up before the transaction began, so the write lock is never
//! held while vectors load), else by shared terms (Jaccard via the term index).

use super::attribute::Provenance;
use super::gate::CleanFact;
use super::lifecycle::{INITIAL_CONFIDENCE, Policy};
use crate::memory::dedup;
use crate::memory::rank::cosine;
use crate::store::{MemoryScope, NewMemory, ReflectionTx, RunStats, SimilarMemory, Source};

/// A fact ready to store.
#[derive(Debug, Clone)]
pub struct Fact {
    pub fact: CleanFact,
    pub provenance: Provenance,
    /// Its embedding and the chat's stored memories nearest to it (id, cosine), best first,
    /// when the batch was embedded.
    pub embedding: Option<Embedded>,
}

#[derive(Debug, Clone)]
pub struct Embedded {
    pub vector: Vec<f32>,
    pub nearest: Vec<(i64, f64)>,
}

/// How a batch compares facts with stored memories; recorded in each run as `dedup_method`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Dedup<'a> {
    /// Jaccard similarity of terms at or above the threshold.
    Jaccard(f64),
    /// Cosine similarity of embeddings from `model` at or above `threshold`, or else a
    /// Jaccard near-duplicate at `jaccard` (and Jaccard alone for facts without an embedding).
    Cosine {
        model: &'a str,
        threshold: f64,
        jaccard: f64,
    },
}

impl Dedup<'_> {
    pub fn method(&self) -> &'static str {
        match self {
            Self::Jaccard(_) => "jaccard",
            Self::Cosine { .. } => "cosine",
        }
    }
}

/// Applies `facts` in order (later facts see earlier ones: two mentions in one batch are one
/// memory). Counts `inserted`, `updated` (reinforced) and `superseded`; the caller counts the rest.
pub async fn apply(
    tx: &mut ReflectionTx,
    chat_id: i64,
    facts: &[Fact],
    dedup: Dedup<'_>,
    policy: &Policy,
    now: i64,
) -> sqlx::Result<RunStats> {
    let mut stats = RunStats::default();
    // Vectors of the facts this batch inserted: the index read before the transaction
    // cannot know them.
    let mut inserted: Vec<(i64, &[f32])> = Vec::new();
    for f in facts {
        let Fact {
            fact, provenance, ..
        } = f;
        let duplicate = match (dedup, &f.embedding) {
            // By meaning first; a lexical near-duplicate still counts (the small local model
            // is weak outside English, and terms catch "我喜欢喝绿茶" / "我很喜欢喝绿茶").
            (
                Dedup::Cosine {
                    threshold, jaccard, ..
                },
                Some(e),
            ) => match by_meaning(tx, e, &inserted, threshold, fact.supersedes_id).await? {
                Some(dup) => Some(dup),
                None => by_terms(tx, fact, jaccard).await?,
            },
            (Dedup::Cosine { jaccard, .. }, None) | (Dedup::Jaccard(jaccard), _) => {
                by_terms(tx, fact, jaccard).await?
            }
        };
        // The model may only replace an active memory of this very chat.
        let replaced = match fact.supersedes_id {
            Some(id) => tx.active_chat_memory(id).await?,
            None => None,
        };
        if fact.supersedes_id.is_some() && replaced.is_none() {
            tracing::debug!(
                chat_id,
                "ignored a supersedes_id outside this chat's active memories"
            );
        }
        match (duplicate, replaced) {
            (Some(dup), replaced) => {
                reinforce(tx, &dup, provenance, policy, now).await?;
                stats.updated += 1;
                // "Alice lives in Osaka" again, now said to replace Tokyo: Tokyo goes.
                if let Some(old) = replaced.filter(|old| old.id != dup.id)
                    && tx.archive_superseded(old.id, dup.id, now).await?
                {
                    stats.superseded += 1;
                }
            }
            (None, replaced) => {
                let id = tx
                    .insert(&new_memory(chat_id, fact, provenance), now)
                    .await?;
                stats.inserted += 1;
                if let (Dedup::Cosine { model, .. }, Some(e)) = (dedup, &f.embedding) {
                    tx.store_vector(id, model, &e.vector).await?;
                    inserted.push((id, &e.vector));
                }
                if let Some(old) = replaced
                    && tx.archive_superseded(old.id, id, now).await?
                {
                    stats.superseded += 1;
                }
            }
        }
    }
    Ok(stats)
}

/// The stored memory `fact` repeats by shared terms. A memory the fact says it replaces is
/// not its duplicate ("lives in Osaka" superseding "lives in Tokyo" is a change, however
/// alike the words).
async fn by_terms(
    tx: &mut ReflectionTx,
    fact: &CleanFact,
    threshold: f64,
) -> sqlx::Result<Option<SimilarMemory>> {
    let mut candidates = tx.dedup_candidates(&fact.terms, threshold).await?;
    candidates.retain(|m| Some(m.id) != fact.supersedes_id);
    Ok(dedup::closest(&fact.terms, &candidates, |m| &m.content, threshold).cloned())
}

/// The stored memory the embedded fact repeats by meaning: the most similar of its nearest
/// stored memories and of this batch's inserts at or above `threshold` that is still an
/// active memory of the chat (and not the one it supersedes).
async fn by_meaning(
    tx: &mut ReflectionTx,
    e: &Embedded,
    inserted: &[(i64, &[f32])],
    threshold: f64,
    supersedes: Option<i64>,
) -> sqlx::Result<Option<SimilarMemory>> {
    let mut candidates: Vec<(i64, f64)> = e
        .nearest
        .iter()
        .copied()
        .chain(inserted.iter().map(|(id, v)| (*id, cosine(&e.vector, v))))
        .filter(|(id, sim)| *sim >= threshold && Some(*id) != supersedes)
        .collect();
    candidates.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
    for (id, _) in candidates {
        if let Some(m) = tx.active_chat_memory(id).await? {
            return Ok(Some(m));
        }
    }
    Ok(None)
}

async fn reinforce(
    tx: &mut ReflectionTx,
    row: &SimilarMemory,
    provenance: &Provenance,
    policy: &Policy,
    now: i64,
) -> sqlx::Result<()> {
    let confidence = policy.reinforced(row.category, row.confidence, row.last_seen_at, now);
    tx.reinforce(
        row.id,
        confidence,
        &provenance.source_ids,
        provenance.subject.as_deref(),
        now,
    )
    .await
}

fn new_memory(chat_id: i64, fact: &CleanFact, provenance: &Provenance) -> NewMemory {
    NewMemory {
        scope: MemoryScope::Chat(chat_id),
        category: fact.category,
        content: fact.content.clone(),
        subject: provenance.subject.clone(),
        confidence: INITIAL_CONFIDENCE,
        source: Source::Reflector,
        source_message_ids: provenance.source_ids.clone(),
        created_at: None,
        last_seen_at: None,
        archived: false,
        key: None,
    }
}
