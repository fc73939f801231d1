//! Storing a batch's checked facts inside its transaction: a fact already held reinforces the
//! row that states it (keeping the more specific wording), a replacement archives the row it
//! supersedes, anything else is inserted.
//!
//! Whether a fact is already held is the memory service's decision (`memories::same_fact`,
//! on `memory::identity`): similarity only proposes candidates — rows sharing terms (the term
//! index) and, when the facts were embedded, the nearest stored vectors (looked up before the
//! transaction began, so the write lock is never held while vectors load). The model's
//! `duplicate_of` is taken unless the local decision vetoes it (`identity::vetoes_claim`: the
//! facts are provably different, or each says something the other does not, so a merge would
//! lose words); when it says nothing, the local decision alone merges, and only on a proven
//! "same".

use super::attribute::Provenance;
use super::gate::CleanFact;
use super::lifecycle::{INITIAL_CONFIDENCE, Policy};
use crate::base::{MemoryScope, Source};
use crate::memories::same_fact;
use crate::memory::identity;
use crate::memory::rank::cosine;
use crate::store::{NewMemory, ReflectionTx, RunStats, SimilarMemory};

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

/// What proposes the candidates a batch's facts are judged against; recorded in each run as
/// `dedup_method`. The decision is `memory::identity`'s either way.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Dedup<'a> {
    /// Stored memories sharing terms with the fact.
    Terms,
    /// Those, and the nearest stored vectors from `model` (with their cosine).
    Cosine { model: &'a str },
}

impl Dedup<'_> {
    pub fn method(&self) -> &'static str {
        match self {
            Self::Terms => "terms",
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
        let duplicate = same_as_stored(tx, f, &inserted, dedup).await?;
        // The model may only replace an active memory of this very chat…
        let replaced = match fact.supersedes_id {
            Some(id) => tx.active_chat_memory(id).await?,
            None => None,
        };
        if fact.supersedes_id.is_some() && replaced.is_none() {
            tracing::info!(
                chat_id,
                supersedes_id = fact.supersedes_id,
                "reflector: ignored a supersedes_id outside this chat's active memories"
            );
        }
        // …and only one that the fact is about: a replacement archives it.
        let replaced = replaced.filter(|old| {
            let related = may_replace(&fact.terms, &old.content)
                && same_fact::same_subject(
                    provenance.subject.as_deref(),
                    old.subject.as_deref(),
                );
            if !related {
                tracing::info!(
                    chat_id,
                    supersedes_id = old.id,
                    "reflector: ignored a supersedes_id naming a memory the fact is not about (fewer than two shared words, or another member's); both are kept"
                );
            }
            related
        });
        match (duplicate, replaced) {
            (Some((dup, why)), replaced) => {
                let reworded = reinforce(tx, &dup, fact, provenance, &why, policy, now).await?;
                // its words are the fact's now: the fact's vector is its vector
                if reworded && let (Dedup::Cosine { model }, Some(e)) = (dedup, &f.embedding) {
                    tx.store_vector(dup.id, model, &e.vector).await?;
                }
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

/// Whether a fact with `terms` may replace the stored memory `old`: only one it is about —
/// the same person and relation, another value ("Alice lives in Osaka" replacing "Alice lives
/// in Tokyo") — which shows as at least two shared words (three Chinese or Japanese
/// character pairs: a three-character name alone is two). The model's `supersedes_id`
/// archives the memory it names; one naming a memory about something else, even about the
/// same person ("Alice takes piano lessons" replacing "Alice's sister lives in Paris"), would
/// lose a fact, so it is ignored and both are kept. Precision first: a real change worded
/// with no second word in common ("Alice moved to Osaka" after "Alice lives in Tokyo") keeps
/// both too, which loses nothing.
fn may_replace(terms: &std::collections::HashSet<String>, old: &str) -> bool {
    let old = crate::memory::text::term_set(old);
    let shared: Vec<&String> = terms.intersection(&old).collect();
    let all_cjk = shared
        .iter()
        .all(|t| t.chars().all(crate::memory::text::is_cjk));
    shared.len() >= if all_cjk { 3 } else { 2 }
}

/// The stored memory that states the same fact as `f`, and why it is the same. A memory the
/// fact says it replaces is never its duplicate ("lives in Osaka" superseding "lives in
/// Tokyo" is a change, however alike the words).
async fn same_as_stored(
    tx: &mut ReflectionTx,
    f: &Fact,
    inserted: &[(i64, &[f32])],
    dedup: Dedup<'_>,
) -> sqlx::Result<Option<(SimilarMemory, String)>> {
    let fact = &f.fact;
    let mut candidates: Vec<(SimilarMemory, Option<f32>)> = tx
        .dedup_candidates(&fact.terms, same_fact::CANDIDATE_JACCARD)
        .await?
        .into_iter()
        .map(|m| (m, None))
        .collect();
    if let (Dedup::Cosine { .. }, Some(e)) = (dedup, &f.embedding) {
        let near = e
            .nearest
            .iter()
            .copied()
            .chain(inserted.iter().map(|(id, v)| (*id, cosine(&e.vector, v))));
        for (id, sim) in near {
            match candidates.iter_mut().find(|(m, _)| m.id == id) {
                Some(c) => c.1 = Some(sim as f32),
                None => {
                    if let Some(m) = tx.active_chat_memory(id).await? {
                        candidates.push((m, Some(sim as f32)));
                    }
                }
            }
        }
    }
    // a memory about another member is another fact (two members' "I am vegetarian")
    let subject = f.provenance.subject.as_deref();
    candidates.retain(|(m, _)| {
        Some(m.id) != fact.supersedes_id && same_fact::same_subject(subject, m.subject.as_deref())
    });
    // The model's claim, unless the facts are provably different.
    if let Some(id) = fact
        .duplicate_of
        .filter(|id| Some(*id) != fact.supersedes_id)
    {
        let claimed = match candidates.iter().find(|(m, _)| m.id == id) {
            Some((m, cosine)) => Some((m.clone(), *cosine)),
            None => tx.active_chat_memory(id).await?.map(|m| (m, None)),
        };
        if let Some((m, cosine)) =
            claimed.filter(|(m, _)| same_fact::same_subject(subject, m.subject.as_deref()))
        {
            match identity::vetoes_claim(&fact.content, &m.content, cosine) {
                None => return Ok(Some((m, "the model said duplicate_of".into()))),
                Some(why) => tracing::debug!(memory = id, %why, "duplicate_of vetoed: kept apart"),
            }
        }
    }
    let same = same_fact::decide(
        &fact.content,
        candidates
            .iter()
            .map(|(m, c)| (m.id, m.content.as_str(), *c)),
    );
    Ok(same.and_then(|s| {
        candidates
            .into_iter()
            .find(|(m, _)| m.id == s.id)
            .map(|(m, _)| (m, s.reason))
    }))
}

/// The same fact again: confidence up, seen now, sources added, and the more specific of
/// the two wordings kept. True when the memory took the fact's wording.
async fn reinforce(
    tx: &mut ReflectionTx,
    row: &SimilarMemory,
    fact: &CleanFact,
    provenance: &Provenance,
    why: &str,
    policy: &Policy,
    now: i64,
) -> sqlx::Result<bool> {
    let confidence = policy.reinforced(row.category, row.confidence, row.last_seen_at, now);
    tx.reinforce(
        row.id,
        confidence,
        &provenance.source_ids,
        provenance.subject.as_deref(),
        &fact.content,
        why,
        now,
    )
    .await?;
    let keep = identity::more_specific(&fact.content, &row.content);
    if keep == row.content {
        return Ok(false);
    }
    tx.reword(row.id, keep).await?;
    Ok(true)
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

#[cfg(test)]
mod tests {
    use super::may_replace;
    use crate::memory::text::term_set;

    #[test]
    fn a_fact_replaces_only_a_memory_it_is_about() {
        for (new, old) in [
            ("Alice lives in Osaka", "Alice lives in Tokyo"),
            ("Bob now prefers coffee", "Bob prefers tea"),
            ("Alice works at Siemens now", "Alice works at Airbus"),
            ("爱丽丝住在大阪", "爱丽丝住在东京"),
        ] {
            assert!(may_replace(&term_set(new), old), "{new} / {old}");
        }
        for (new, old) in [
            ("Alice takes piano lessons", "my sister lives in Paris"),
            ("Alice takes piano lessons", "Alice's sister lives in Paris"),
            ("Alice moved to Osaka", "Alice lives in Tokyo"),
            ("爱丽丝学钢琴", "爱丽丝住在东京"),
            (
                "Eve's favourite colour is blue",
                "the team meets on Mondays",
            ),
            ("爱丽丝学钢琴", "我妹妹住在巴黎"),
        ] {
            assert!(!may_replace(&term_set(new), old), "{new} / {old}");
        }
    }
}
