//! Storing a batch's checked facts inside its transaction: a fact already held reinforces the
//! row that states it (keeping the more specific wording), anything else is inserted, and
//! either way the rows it replaces are archived — the one the model names (`supersedes_id`),
//! and those it denies or gives a newer value of (`same_fact::replaced`, the decision
//! "remember" and memory_store take), when they were last said before it.
//!
//! Whether a fact is already held is the memory service's decision (`memories::same_fact`,
//! on `memory::identity`): similarity only proposes candidates — rows sharing terms (the term
//! index) and, when the facts were embedded, the nearest stored vectors (looked up before the
//! transaction began, so the write lock is never held while vectors load). The model's
//! `duplicate_of` is taken unless the local decision vetoes it (`identity::vetoes_claim`: the
//! facts are provably different, or each says something the other does not, so a merge would
//! lose words); when it says nothing, the local decision alone merges, and only on a proven
//! "same".

use std::cmp::Ordering;
use std::collections::HashSet;

use super::attribute::Provenance;
use super::gate::CleanFact;
use super::lifecycle::{INITIAL_CONFIDENCE, Policy};
use crate::base::{MemoryScope, Source};
use crate::memories::candidates::{self, Candidate};
use crate::memories::same_fact;
use crate::memory::identity::{self, Reading, first_person};
use crate::memory::rank::cosine;
use crate::memory::text;
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
        // read as the fact is said, and as its speaker would say it ("I live in …")
        let mine = first_person_of(f);
        let texts: Vec<&str> = [Some(fact.content.as_str()), mine.as_deref()]
            .into_iter()
            .flatten()
            .collect();
        let nearest = match (dedup, &f.embedding) {
            (Dedup::Cosine { .. }, Some(e)) => e
                .nearest
                .iter()
                .copied()
                .chain(inserted.iter().map(|(id, v)| (*id, cosine(&e.vector, v))))
                .collect(),
            _ => Vec::new(),
        };
        let subject = provenance.subject.as_deref();
        let candidates = candidates::gather(tx, &texts, nearest, subject).await?;
        let reading = Reading::new(&fact.content);
        let duplicate = same_as_stored(tx, f, &reading, &candidates.similar).await?;
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
            let related = may_replace(&fact.content, &fact.terms, &old.content)
                && candidates::same_subject(
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
        // What the fact replaces by its words, as "remember" and memory_store decide it: the
        // memories it denies, and those whose value it changes — said before it. One said
        // since is the newer word: the fact goes into history as what that one replaced.
        let keep = [
            duplicate.as_ref().map(|(m, _)| m.id),
            replaced.as_ref().map(|m| m.id),
        ];
        let mut outdated_by: Option<(i64, String)> = None;
        let mut replacing: Vec<(i64, String)> = replaced
            .iter()
            .map(|m| (m.id, "the model said supersedes_id".to_string()))
            .collect();
        let mine = mine.map(|t| Reading::new(&t));
        let mut by_words: Vec<same_fact::Replaced> = Vec::new();
        for r in [Some(&reading), mine.as_ref()].into_iter().flatten() {
            for found in same_fact::replaced(
                r,
                candidates
                    .all()
                    .filter(|c| !keep.contains(&Some(c.memory.id)))
                    .map(Candidate::read),
            ) {
                if !by_words.iter().any(|b| b.id == found.id) {
                    by_words.push(found);
                }
            }
        }
        for r in by_words {
            match said_when(tx, r.id, provenance).await? {
                Some(Ordering::Less) => replacing.push((r.id, r.why.to_string())),
                Some(Ordering::Greater) if outdated_by.is_none() => {
                    outdated_by = candidates.get(r.id).and_then(|c| {
                        let read = [Some(&reading), mine.as_ref()].into_iter().flatten();
                        let why = read
                            .filter_map(|r| {
                                let old = [(0, fact.content.as_str(), r)];
                                same_fact::replaced(&c.reading, old).pop()
                            })
                            .next()?
                            .why;
                        Some((c.memory.id, why.to_string()))
                    });
                }
                _ => {}
            }
        }
        let by = match duplicate {
            Some((dup, why)) => {
                let reworded = reinforce(tx, &dup, fact, provenance, &why, policy, now).await?;
                // its words are the fact's now: the fact's vector is its vector
                if reworded && let (Dedup::Cosine { model }, Some(e)) = (dedup, &f.embedding) {
                    tx.store_vector(dup.id, model, &e.vector).await?;
                }
                stats.updated += 1;
                dup.id
            }
            None => {
                let id = tx
                    .insert(&new_memory(chat_id, fact, provenance), now)
                    .await?;
                stats.inserted += 1;
                if let (Dedup::Cosine { model, .. }, Some(e)) = (dedup, &f.embedding) {
                    tx.store_vector(id, model, &e.vector).await?;
                    inserted.push((id, &e.vector));
                }
                if let Some((newer, why)) = &outdated_by
                    && tx.archive_superseded(id, *newer, why, now).await?
                {
                    stats.superseded += 1;
                }
                id
            }
        };
        // "Alice lives in Osaka" again, now said to replace Tokyo: Tokyo goes.
        for (old, why) in replacing {
            if old != by && tx.archive_superseded(old, by, &why, now).await? {
                stats.superseded += 1;
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
/// lose a fact, so it is ignored and both are kept. A verb of change is read as its relation
/// ("Alice moved to Osaka" shares "Alice" and "lives" with "Alice lives in Tokyo").
fn may_replace(content: &str, terms: &HashSet<String>, old: &str) -> bool {
    let old = text::term_set(old);
    let relation = identity::relation_terms(content);
    let terms: HashSet<&String> = terms.iter().chain(relation.iter().flatten()).collect();
    let shared: Vec<&String> = terms.into_iter().filter(|t| old.contains(*t)).collect();
    let all_cjk = shared.iter().all(|t| t.chars().all(text::is_cjk));
    shared.len() >= if all_cjk { 3 } else { 2 }
}

/// The stored memory that states the same fact as `f` (read as `reading`), and why it is
/// the same. A memory the fact says it replaces is never its duplicate ("lives in Osaka"
/// superseding "lives in Tokyo" is a change, however alike the words).
async fn same_as_stored(
    tx: &mut ReflectionTx,
    f: &Fact,
    reading: &Reading,
    candidates: &[Candidate],
) -> sqlx::Result<Option<(SimilarMemory, String)>> {
    let fact = &f.fact;
    let candidates: Vec<&Candidate> = candidates
        .iter()
        .filter(|c| Some(c.memory.id) != fact.supersedes_id)
        .collect();
    // The model's claim, unless the facts are provably different.
    if let Some(id) = fact
        .duplicate_of
        .filter(|id| Some(*id) != fact.supersedes_id)
    {
        let claimed = match candidates.iter().find(|c| c.memory.id == id) {
            Some(c) => Some((c.memory.clone(), c.cosine)),
            None => tx.active_chat_memory(id).await?.map(|m| (m, None)),
        };
        let subject = f.provenance.subject.as_deref();
        if let Some((m, cosine)) =
            claimed.filter(|(m, _)| candidates::same_subject(subject, m.subject.as_deref()))
        {
            match identity::vetoes_claim(&fact.content, &m.content, cosine) {
                None => return Ok(Some((m, "the model said duplicate_of".into()))),
                Some(why) => tracing::debug!(memory = id, %why, "duplicate_of vetoed: kept apart"),
            }
        }
    }
    let same = same_fact::decide_read(
        &fact.content,
        reading,
        candidates.iter().map(|c| c.scored()),
    );
    Ok(same.and_then(|s| {
        candidates
            .into_iter()
            .find(|c| c.memory.id == s.id)
            .map(|c| (c.memory.clone(), s.reason))
    }))
}

/// The fact as the one person of a private chat would say it, when it opens with their
/// name (or "the user", as a model may call them): their own "remember I live in Tokyo" says
/// "I" where the fact says "Alice".
fn first_person_of(f: &Fact) -> Option<String> {
    let name = f.provenance.speaker.as_deref()?;
    std::iter::once(name)
        .chain(identity::THE_USER.iter().copied())
        .find_map(|n| first_person(&f.fact.content, n))
}

/// When stored memory `id` was last said against the fact of `provenance`, by their
/// messages' ids (a chat's are drawn in order): `Less` before it. The reflector reads a chat
/// behind it, so a value remembered since ("remember I moved to Osaka", stored at once) is
/// the newer word against the older one it reads now ("I live in Tokyo"). `None` when either
/// has no message to date it (a memory added by hand or imported): then both are kept.
async fn said_when(
    tx: &mut ReflectionTx,
    id: i64,
    provenance: &Provenance,
) -> sqlx::Result<Option<Ordering>> {
    let Some(fact_said) = provenance.source_ids.iter().copied().max() else {
        return Ok(None);
    };
    Ok(tx
        .newest_source(id)
        .await?
        .map(|stored_said| stored_said.cmp(&fact_said)))
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

    fn may_replace_text(new: &str, old: &str) -> bool {
        may_replace(new, &term_set(new), old)
    }

    #[test]
    fn a_fact_replaces_only_a_memory_it_is_about() {
        for (new, old) in [
            ("Alice lives in Osaka", "Alice lives in Tokyo"),
            ("Bob now prefers coffee", "Bob prefers tea"),
            ("Alice works at Siemens now", "Alice works at Airbus"),
            ("爱丽丝住在大阪", "爱丽丝住在东京"),
            // a verb of change read as its relation
            ("Alice moved to Osaka", "Alice lives in Tokyo"),
        ] {
            assert!(may_replace_text(new, old), "{new} / {old}");
        }
        for (new, old) in [
            ("Alice takes piano lessons", "my sister lives in Paris"),
            ("Alice takes piano lessons", "Alice's sister lives in Paris"),
            ("爱丽丝学钢琴", "爱丽丝住在东京"),
            (
                "Eve's favourite colour is blue",
                "the team meets on Mondays",
            ),
            ("爱丽丝学钢琴", "我妹妹住在巴黎"),
        ] {
            assert!(!may_replace_text(new, old), "{new} / {old}");
        }
    }
}
