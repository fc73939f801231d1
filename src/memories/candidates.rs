//! The stored memories a new fact is judged against, gathered one way for every path that
//! writes facts — "remember", `memory_store` and import through the memory service's store,
//! the reflector through its batch's transaction (which sees the rows the batch inserted).
//! Similarity only proposes candidates; `same_fact` decides.

use std::collections::HashSet;

use crate::base::MemoryScope;
use crate::memory::identity::{self, Reading};
use crate::memory::text;
use crate::store::{ReflectionTx, SimilarMemory, Store};

/// Jaccard below which a stored memory is not even a candidate (the term index's cut-off):
/// a wide net (one shared rare term in a short fact), since the judge decides.
pub const CANDIDATE_JACCARD: f64 = 0.2;
/// The same for a fact read as a relation ("moved to Osaka" → "live in Osaka", 入职美团 →
/// 在美团工作): lower, since it shares only the relation's words with the fact whose value
/// it changes (我在腾讯工作: two of nine character pairs). It runs only when a verb of change
/// was read, or for another reading of the fact (as its speaker would say it).
pub const RELATION_JACCARD: f64 = 0.1;
/// A fact of this many terms or fewer is also checked for what it replaces among the
/// memories seen last ([`RECENT`] of them): its terms are too few to find those by.
pub const FEW_TERMS: usize = 2;
pub const RECENT: usize = 20;

/// Where one scope's active memories are read from.
#[async_trait::async_trait]
pub trait Lookup: Send {
    /// Those sharing at least `jaccard` of `terms` (the term index), best first.
    async fn sharing(
        &mut self,
        terms: &HashSet<String>,
        jaccard: f64,
    ) -> sqlx::Result<Vec<SimilarMemory>>;
    /// The `limit` seen last, newest first.
    async fn seen_last(&mut self, limit: usize) -> sqlx::Result<Vec<SimilarMemory>>;
    /// Memory `id`, if it is an active memory of this scope.
    async fn active(&mut self, id: i64) -> sqlx::Result<Option<SimilarMemory>>;
}

/// One scope of the store, as the memory service reads it.
pub struct ScopeOf<'a> {
    pub store: &'a Store,
    pub scope: MemoryScope,
}

#[async_trait::async_trait]
impl Lookup for ScopeOf<'_> {
    async fn sharing(
        &mut self,
        terms: &HashSet<String>,
        jaccard: f64,
    ) -> sqlx::Result<Vec<SimilarMemory>> {
        self.store
            .dedup_candidates(self.scope, terms, jaccard)
            .await
    }

    async fn seen_last(&mut self, limit: usize) -> sqlx::Result<Vec<SimilarMemory>> {
        self.store.recent_memories(self.scope, limit).await
    }

    async fn active(&mut self, id: i64) -> sqlx::Result<Option<SimilarMemory>> {
        let row = self.store.get_memory(id).await?;
        Ok(row
            .filter(|m| !m.archived && m.scope() == self.scope)
            .map(|m| SimilarMemory {
                id: m.id,
                category: m.category,
                content: m.content,
                subject: m.subject,
                confidence: m.confidence,
                last_seen_at: m.last_seen_at,
                shared: 0,
            }))
    }
}

/// A reflector batch's chat, read inside its transaction.
#[async_trait::async_trait]
impl Lookup for ReflectionTx {
    async fn sharing(
        &mut self,
        terms: &HashSet<String>,
        jaccard: f64,
    ) -> sqlx::Result<Vec<SimilarMemory>> {
        self.dedup_candidates(terms, jaccard).await
    }

    async fn seen_last(&mut self, limit: usize) -> sqlx::Result<Vec<SimilarMemory>> {
        self.recent_memories(limit).await
    }

    async fn active(&mut self, id: i64) -> sqlx::Result<Option<SimilarMemory>> {
        self.active_chat_memory(id).await
    }
}

/// A stored memory a fact is judged against, read once.
#[derive(Debug)]
pub struct Candidate {
    pub memory: SimilarMemory,
    pub reading: Reading,
    /// Its cosine to the fact, when vectors proposed or scored it.
    pub cosine: Option<f32>,
}

impl Candidate {
    /// As `same_fact::decide_read` takes it.
    pub fn scored(&self) -> (i64, &str, &Reading, Option<f32>) {
        (
            self.memory.id,
            &self.memory.content,
            &self.reading,
            self.cosine,
        )
    }

    /// As `same_fact::replaced` takes it.
    pub fn read(&self) -> (i64, &str, &Reading) {
        (self.memory.id, &self.memory.content, &self.reading)
    }
}

/// What a fact is judged against.
#[derive(Debug, Default)]
pub struct Candidates {
    /// Memories sharing its words (or, read as a relation, the relation's) or near its
    /// vector: what it may state again or replace.
    pub similar: Vec<Candidate>,
    /// For a fact of a term or two, the memories seen last that are not among `similar`:
    /// what it may replace only ("I'm 41" shares no term with "I'm 40"; a short fact's repeat
    /// shares its terms, so is among `similar`).
    pub recent: Vec<Candidate>,
}

impl Candidates {
    /// Every candidate the fact may replace.
    pub fn all(&self) -> impl Iterator<Item = &Candidate> {
        self.similar.iter().chain(&self.recent)
    }

    pub fn get(&self, id: i64) -> Option<&Candidate> {
        self.all().find(|c| c.memory.id == id)
    }
}

/// Whether a memory about `stored` (its subject: the group member it is about, when known)
/// may be the same fact as one about `new`: not when both are known and differ — two
/// members' "I am vegetarian" are two facts, whatever their names. Pure.
pub fn same_subject(new: Option<&str>, stored: Option<&str>) -> bool {
    match (new, stored) {
        (Some(a), Some(b)) => a == b,
        _ => true,
    }
}

/// The active memories a fact is judged against, about `subject` when known (a memory about
/// another member is another fact: two members' "I am vegetarian"). `texts` is the fact as
/// said, then any other way it reads (as its speaker would say it: "Alice lives in Osaka" →
/// "I live in Osaka"); `nearest` its nearest stored vectors with their cosine, when embedded.
pub async fn gather(
    lookup: &mut impl Lookup,
    texts: &[&str],
    nearest: impl IntoIterator<Item = (i64, f64)>,
    subject: Option<&str>,
) -> sqlx::Result<Candidates> {
    let found = gather_rows(lookup, texts, nearest, subject).await?;
    let read = |(memory, cosine): (SimilarMemory, Option<f32>)| Candidate {
        reading: Reading::new(&memory.content),
        memory,
        cosine,
    };
    Ok(Candidates {
        similar: found.similar.into_iter().map(read).collect(),
        recent: found.recent.into_iter().map(|m| read((m, None))).collect(),
    })
}

/// What [`gather`] finds, not yet read: for a caller that keeps the readings of the memories
/// it meets (the consolidation pass meets each many times).
#[derive(Debug, Default)]
pub struct Found {
    /// As [`Candidates::similar`], with each one's cosine when vectors proposed or scored it.
    pub similar: Vec<(SimilarMemory, Option<f32>)>,
    /// As [`Candidates::recent`].
    pub recent: Vec<SimilarMemory>,
}

impl Found {
    /// Every memory found.
    pub fn all(&self) -> impl Iterator<Item = &SimilarMemory> {
        self.similar.iter().map(|(m, _)| m).chain(&self.recent)
    }
}

/// [`gather`] without reading what it finds.
pub async fn gather_rows(
    lookup: &mut impl Lookup,
    texts: &[&str],
    nearest: impl IntoIterator<Item = (i64, f64)>,
    subject: Option<&str>,
) -> sqlx::Result<Found> {
    // in the order found, each once
    let mut found: Vec<(SimilarMemory, Option<f32>)> = Vec::new();
    let mut ids: HashSet<i64> = HashSet::new();
    let mut add = |found: &mut Vec<_>, rows: Vec<SimilarMemory>| {
        for m in rows {
            if ids.insert(m.id) {
                found.push((m, None));
            }
        }
    };
    let mut few_terms = false;
    for (i, text) in texts.iter().enumerate() {
        let terms = text::term_set(text);
        few_terms |= terms.len() <= FEW_TERMS;
        if i == 0 {
            add(&mut found, lookup.sharing(&terms, CANDIDATE_JACCARD).await?);
            // "I have 2 children" shares no word with "I have two kids", which the judge reads
            // as the same fact: the memories sharing two of the words the tables read as its
            // own are candidates too
            if let Some(words) = identity::said_otherwise(text) {
                let two_of_them = 2.0 / words.len().max(2) as f64;
                add(&mut found, lookup.sharing(&words, two_of_them).await?);
            }
            // "a Master of Business Administration" shares no word with "an MBA": the
            // memories holding the initials its names spell are candidates too
            // "I got married" shares no word with "User is single", whose state it replaces:
            // the memories holding any word of a state of its kind are candidates too
            if let Some(words) = identity::state_terms(text) {
                let any_of_them = 1.0 / words.len() as f64;
                add(&mut found, lookup.sharing(&words, any_of_them).await?);
            }
            let initials = identity::initials_spelled(text);
            if !initials.is_empty() {
                let any_of_them = 1.0 / initials.len() as f64;
                add(&mut found, lookup.sharing(&initials, any_of_them).await?);
            }
        }
        // "I moved to Osaka" shares no word with "I live in Tokyo", whose value it changes:
        // the facts sharing words with it read as a relation are candidates too; another
        // reading of it is searched as widely, with its verbs' forms ("live" / "lives")
        let wide = match identity::relation_terms(text) {
            Some(relation) => relation,
            None if i > 0 => identity::with_verb_forms(terms),
            None => continue,
        };
        add(&mut found, lookup.sharing(&wide, RELATION_JACCARD).await?);
    }
    for (id, cosine) in nearest {
        let cosine = Some(cosine as f32);
        match found.iter_mut().find(|(m, _)| m.id == id) {
            Some(c) => c.1 = cosine,
            None => {
                if let Some(m) = lookup.active(id).await? {
                    found.push((m, cosine));
                }
            }
        }
    }
    let about = |m: &SimilarMemory| same_subject(subject, m.subject.as_deref());
    let similar: Vec<_> = found.into_iter().filter(|(m, _)| about(m)).collect();
    // "I'm 41" shares no term with "I'm 40", whose value it changes: a fact of a term or two
    // is also checked against the memories seen last
    let mut recent = Vec::new();
    if few_terms {
        for m in lookup.seen_last(RECENT).await? {
            if about(&m) && !similar.iter().any(|(c, _)| c.id == m.id) {
                recent.push(m);
            }
        }
    }
    Ok(Found { similar, recent })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_about_two_known_members_are_never_one() {
        assert!(!same_subject(Some("111"), Some("222")));
        assert!(same_subject(Some("111"), Some("111")));
        // unknown on either side: the words decide
        assert!(same_subject(None, Some("222")));
        assert!(same_subject(Some("111"), None));
        assert!(same_subject(None, None));
    }
}
