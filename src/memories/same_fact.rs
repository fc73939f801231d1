//! "Do we hold this fact already?" for one new fact: similarity only proposes candidates —
//! the memories sharing terms with it (the term index) and, with embeddings, its nearest
//! vectors (`memories::candidates`, the same for every path) — and `memory::identity::judge`
//! decides, candidate by candidate. Precision first:
//! anything but a proven "same" keeps both (a duplicate can be consolidated later; a fact
//! merged away is lost).

use crate::base::MemoryScope;
use crate::memories::candidates::{self, Candidate, ScopeOf};
use crate::memories::retrieval::Retriever;
use crate::memory::identity::memo::Memo;
use crate::memory::identity::{self, Reading, Verdict};
use crate::memory::text;

/// Nearest vectors looked at, with embeddings.
const NEAREST: usize = 8;

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
                    let change = identity::changed(reading.text(), stored)
                        .or_else(|| changed_in_first_person(reading.text(), stored))?;
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

/// A newer value where one side names the one person of a private chat ("User works at
/// Spotify") and the other is said as they say it ("I work at Netflix"): both read in the first
/// person.
fn changed_in_first_person(new: &str, stored: &str) -> Option<identity::Change> {
    let (new_mine, stored_mine) = (
        identity::user_in_first_person(new),
        identity::user_in_first_person(stored),
    );
    if new_mine.is_none() && stored_mine.is_none() {
        return None;
    }
    identity::changed(
        new_mine.as_deref().unwrap_or(new),
        stored_mine.as_deref().unwrap_or(stored),
    )
}

/// What `scope` holds of a new fact: the memory stating it already, if one does, and those
/// it replaces.
#[derive(Debug, Default)]
pub struct Held {
    pub same: Option<SameFact>,
    pub replaced: Vec<Replaced>,
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
    let mut nearest = Vec::new();
    if retriever.embedder().is_some()
        && let Ok(Some(vector)) = retriever.embed_one(content).await
    {
        let scope_key = match scope {
            MemoryScope::Global => 0,
            MemoryScope::Chat(id) => id,
        };
        nearest = retriever.nearest(&[scope_key], &vector, NEAREST).await?;
    }
    let mut lookup = ScopeOf {
        store: retriever.store(),
        scope,
    };
    let found = candidates::gather(&mut lookup, &[content], nearest, subject).await?;
    // the fact's own readings are taken once, not once for each candidate
    Ok(Memo::default().within(|| {
        let reading = Reading::new(content);
        let same = decide_read(
            content,
            &reading,
            found.similar.iter().map(Candidate::scored),
        );
        // what the fact replaces goes even when it is held already: said again, it is the
        // newer word against the denial or the value said since
        let same_id = same.as_ref().map(|s| s.id);
        let replaced = replaced(
            &reading,
            found
                .all()
                .filter(|c| Some(c.memory.id) != same_id)
                .map(Candidate::read),
        );
        Held { same, replaced }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// A memory the reflector wrote names the user ("User works at Spotify"); one remembered
    /// in their own words says "I": a newer value is found between the two.
    #[test]
    fn a_newer_value_is_found_between_the_user_named_and_said_in_the_first_person() {
        let replaces = |new: &str, old: &str| {
            !replaced(&Reading::new(new), [(1, old, &Reading::new(old))]).is_empty()
        };
        for (old, new) in [
            ("User works at Spotify", "I work at Netflix"),
            (
                "User's favourite drink is tea",
                "my favourite drink is coffee",
            ),
            (
                "my favourite drink is tea",
                "User's favourite drink is coffee",
            ),
            ("用户在华为上班", "我在小米上班"),
        ] {
            assert!(replaces(new, old), "{old} → {new}");
        }
        // another one, someone else's, or the same value: no change
        for (old, new) in [
            ("User's sister works at Spotify", "I work at Netflix"),
            ("User works at Spotify", "I also work at Netflix"),
            ("User's favourite drink is tea", "my favourite drink is tea"),
        ] {
            assert!(!replaces(new, old), "{old} → {new}");
        }
    }
}
