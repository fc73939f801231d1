//! "Do we hold this fact already?" for one new fact: similarity only proposes candidates —
//! the memories sharing terms with it (the term index) and, with embeddings, its nearest
//! vectors — and `memory::identity::judge` decides, candidate by candidate. Precision first:
//! anything but a proven "same" keeps both (a duplicate can be consolidated later; a fact
//! merged away is lost).

use std::collections::HashMap;

use crate::base::MemoryScope;
use crate::memories::retrieval::Retriever;
use crate::memory::identity::{self, Reading, Verdict};
use crate::memory::text;

/// Jaccard below which a stored memory is not even a candidate (the term index's cut-off):
/// a wide net (one shared rare term in a short fact), since the judge decides.
pub const CANDIDATE_JACCARD: f64 = 0.2;
/// The same for a fact read as a relation ("moved to Osaka" → "live in Osaka", 入职美团 →
/// 在美团工作): lower, since it shares only the relation's words with the fact whose value
/// it changes (我在腾讯工作: two of nine character pairs). It runs only when a verb of change
/// was read.
pub const RELATION_JACCARD: f64 = 0.1;
/// Nearest vectors looked at, with embeddings.
const NEAREST: usize = 8;
/// A fact of this many terms or fewer is also checked for what it replaces among the
/// memories seen last ([`RECENT`] of them): its terms are too few to find those by.
const FEW_TERMS: usize = 2;
const RECENT: usize = 20;

/// A stored memory that states the same fact.
#[derive(Debug, Clone)]
pub struct SameFact {
    pub id: i64,
    pub stored: String,
    /// Why it is the same, in words (for the history).
    pub reason: String,
}

/// The candidates' verdicts, best first: the first `Same` wins; the highest similarity
/// breaks ties. Pure.
pub fn decide<'a>(
    content: &str,
    candidates: impl IntoIterator<Item = (i64, &'a str, Option<f32>)>,
) -> Option<SameFact> {
    let read: Vec<_> = candidates
        .into_iter()
        .map(|(id, stored, cosine)| (id, stored, Reading::new(stored), cosine))
        .collect();
    decide_read(
        content,
        &Reading::new(content),
        read.iter().map(|(id, s, r, c)| (*id, *s, r, *c)),
    )
}

/// [`decide`] on facts read beforehand: `reading` is `content`'s, each candidate comes with
/// its own. Pure.
pub fn decide_read<'a>(
    content: &str,
    reading: &Reading,
    candidates: impl IntoIterator<Item = (i64, &'a str, &'a Reading, Option<f32>)>,
) -> Option<SameFact> {
    let fact_terms = text::term_set(content);
    let mut best: Option<(f64, SameFact)> = None;
    for (id, stored, stored_reading, cosine) in candidates {
        if let Verdict::Same(reason) = identity::judge_read(reading, stored_reading, cosine) {
            let similarity = cosine.map_or_else(
                || text::jaccard(&fact_terms, &text::term_set(stored)),
                f64::from,
            );
            if best.as_ref().is_none_or(|(s, _)| similarity > *s) {
                best = Some((
                    similarity,
                    SameFact {
                        id,
                        stored: stored.to_string(),
                        reason: reason.to_string(),
                    },
                ));
            }
        }
    }
    best.map(|(_, f)| f)
}

/// A stored memory a new fact replaces, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Replaced {
    pub id: i64,
    pub stored: String,
    pub why: Why,
}

/// Why a newer fact replaces an older one: the two cannot both hold.
#[derive(Debug, Clone, PartialEq)]
pub enum Why {
    /// It says the opposite and nothing else (`identity::denies`): the denial, in words.
    Denied(String),
    /// It gives another value of a relation that holds one (`identity::changed`).
    Changed(identity::Change),
}

impl std::fmt::Display for Why {
    /// For the history: "superseded by #3 — {this}".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Why::Denied(reason) => write!(f, "said the other way round ({reason})"),
            Why::Changed(c) => write!(f, "a newer value ({} → {})", c.old, c.new),
        }
    }
}

/// The candidates `content` replaces, oldest first: those it denies, and those whose value
/// it changes (not one it states again: a `Same` verdict is no change). Pure.
pub fn replaced<'a>(
    reading: &Reading,
    candidates: impl IntoIterator<Item = (i64, &'a str, &'a Reading)>,
) -> Vec<Replaced> {
    let mut out: Vec<Replaced> = candidates
        .into_iter()
        .filter_map(|(id, stored, r)| {
            let why = match identity::denies(reading, r) {
                Some(reason) => Why::Denied(reason.to_string()),
                None => {
                    let change = identity::changed(reading.text(), stored)?;
                    if matches!(identity::judge_read(reading, r, None), Verdict::Same(_)) {
                        return None;
                    }
                    Why::Changed(change)
                }
            };
            Some(Replaced {
                id,
                stored: stored.to_string(),
                why,
            })
        })
        .collect();
    out.sort_by_key(|d| d.id);
    out
}

/// What `scope` holds of a new fact: the memory stating it already, if one does, and those
/// it replaces.
#[derive(Debug, Default)]
pub struct Held {
    pub same: Option<SameFact>,
    pub replaced: Vec<Replaced>,
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

/// The active memory of `scope` that states the same fact as `content` (about `subject`,
/// when known), if one does.
pub async fn find(
    retriever: &Retriever,
    scope: MemoryScope,
    content: &str,
    subject: Option<&str>,
) -> sqlx::Result<Option<SameFact>> {
    Ok(examine(retriever, scope, content, subject).await?.same)
}

/// What `scope` holds of `content` ([`Held`]), about `subject` when known: a memory about
/// another member is neither the same fact nor denied by it.
pub async fn examine(
    retriever: &Retriever,
    scope: MemoryScope,
    content: &str,
    subject: Option<&str>,
) -> sqlx::Result<Held> {
    let store = retriever.store();
    let terms = text::term_set(content);
    let mut candidates: HashMap<i64, (String, Option<f32>)> = store
        .dedup_candidates(scope, &terms, CANDIDATE_JACCARD)
        .await?
        .into_iter()
        .filter(|m| same_subject(subject, m.subject.as_deref()))
        .map(|m| (m.id, (m.content, None)))
        .collect();
    // "I moved to Osaka" shares no word with "I live in Tokyo", whose value it changes: the
    // facts sharing words with it read as a relation are candidates too
    if let Some(relation) = identity::relation_terms(content) {
        for m in store
            .dedup_candidates(scope, &relation, RELATION_JACCARD)
            .await?
        {
            if same_subject(subject, m.subject.as_deref()) {
                candidates.entry(m.id).or_insert((m.content, None));
            }
        }
    }
    // "I'm 41" shares no term with "I'm 40", whose value it changes: a fact of a term or two
    // is also checked for what it replaces among the memories seen last (not for a memory
    // stating it: those share its terms)
    let mut recent: Vec<(i64, String)> = Vec::new();
    if terms.len() <= FEW_TERMS {
        for m in store.recent_memories(scope, RECENT).await? {
            if same_subject(subject, m.subject.as_deref()) {
                recent.push((m.id, m.content));
            }
        }
    }
    if retriever.embedder().is_some()
        && let Ok(Some(vector)) = retriever.embed_one(content).await
    {
        let scope_key = match scope {
            MemoryScope::Global => 0,
            MemoryScope::Chat(id) => id,
        };
        for (id, cosine) in retriever.nearest(&[scope_key], &vector, NEAREST).await? {
            match candidates.get_mut(&id) {
                Some(entry) => entry.1 = Some(cosine as f32),
                None => {
                    if let Some(m) = store.get_memory(id).await?
                        && !m.archived
                        && m.scope() == scope
                        && same_subject(subject, m.subject.as_deref())
                    {
                        candidates.insert(id, (m.content, Some(cosine as f32)));
                    }
                }
            }
        }
    }
    let reading = Reading::new(content);
    let read: Vec<_> = candidates
        .iter()
        .map(|(id, (stored, cosine))| (*id, stored.as_str(), Reading::new(stored), *cosine))
        .collect();
    let same = decide_read(
        content,
        &reading,
        read.iter().map(|(id, s, r, c)| (*id, *s, r, *c)),
    );
    // what the fact replaces goes even when it is held already: said again, it is the newer
    // word against the denial or the value said since
    let same_id = same.as_ref().map(|s| s.id);
    let recent: Vec<_> = recent
        .iter()
        .filter(|(id, _)| !candidates.contains_key(id))
        .map(|(id, stored)| (*id, stored.as_str(), Reading::new(stored)))
        .collect();
    let replaced = replaced(
        &reading,
        read.iter()
            .filter(|(id, ..)| Some(*id) != same_id)
            .map(|(id, s, r, _)| (*id, *s, r))
            .chain(recent.iter().map(|(id, s, r)| (*id, *s, r))),
    );
    Ok(Held { same, replaced })
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

    #[test]
    fn a_denial_is_no_candidate_of_the_fact_it_denies() {
        // the decision remember, memory_store, the reflector and consolidation all take
        let stored = [
            (1, "Dave is not vegetarian", None),
            (2, "Bob's father is teetotal", Some(0.99)),
            (3, "I am a non-smoker", None),
        ];
        for new in [
            "Dave is vegetarian",
            "Bob's father is not teetotal",
            "I am not a non-smoker",
        ] {
            assert!(decide(new, stored).is_none(), "{new}");
        }
        let same = decide("Dave isn't a vegetarian", stored).expect("the same fact");
        assert_eq!(same.id, 1);
    }
}
