//! Storing a batch's checked facts inside its transaction: a duplicate reinforces the row it
//! repeats, a replacement archives the row it supersedes, anything else is inserted.

use super::attribute::Provenance;
use super::gate::CleanFact;
use super::lifecycle::{INITIAL_CONFIDENCE, Policy};
use crate::memory::dedup;
use crate::store::{MemoryScope, NewMemory, ReflectionTx, RunStats, SimilarMemory, Source};

/// A fact ready to store.
#[derive(Debug, Clone)]
pub struct Fact {
    pub fact: CleanFact,
    pub provenance: Provenance,
}

/// How dedup compares facts; recorded in each run. Cosine similarity of embeddings slots in
/// here once an embedding provider exists (`embedding_provider`); until then, Jaccard.
pub const DEDUP_METHOD: &str = "jaccard";

/// Applies `facts` in order (later facts see earlier ones: two mentions in one batch are one
/// memory). Counts `inserted`, `updated` (reinforced) and `superseded`; the caller counts the rest.
pub async fn apply(
    tx: &mut ReflectionTx,
    chat_id: i64,
    facts: &[Fact],
    threshold: f64,
    policy: &Policy,
    now: i64,
) -> sqlx::Result<RunStats> {
    let mut stats = RunStats::default();
    for Fact { fact, provenance } in facts {
        let candidates = tx.dedup_candidates(&fact.terms, threshold).await?;
        let duplicate = dedup::closest(&fact.terms, &candidates, |m| &m.content, threshold);
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
                reinforce(tx, dup, provenance, policy, now).await?;
                stats.updated += 1;
                // "Alice lives in Osaka" again, now said to replace Tokyo: Tokyo goes.
                if let Some(old) = replaced.filter(|old| old.id != dup.id)
                    && tx.archive_superseded(old.id, dup.id, now).await?
                {
                    stats.superseded += 1;
                }
            }
            (None, Some(old)) => {
                let id = tx
                    .insert(&new_memory(chat_id, fact, provenance), now)
                    .await?;
                stats.inserted += 1;
                if tx.archive_superseded(old.id, id, now).await? {
                    stats.superseded += 1;
                }
            }
            (None, None) => {
                tx.insert(&new_memory(chat_id, fact, provenance), now)
                    .await?;
                stats.inserted += 1;
            }
        }
    }
    Ok(stats)
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
