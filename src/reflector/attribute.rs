//! Provenance: which messages of the batch a fact comes from and, in groups, whom it is
//! about. The model's optional `message_ids` / `about` are used when they name real people's
//! messages of this batch; otherwise shared terms decide. Either way the assistant's own
//! messages are never a fact's source.

use std::collections::HashSet;

use super::gate::{CleanFact, Rejection};
use super::prompt::Line;

/// Source messages kept per fact.
const MAX_SOURCES: usize = 8;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Provenance {
    pub source_ids: Vec<i64>,
    /// The sender id of the group member the fact is about, when known.
    pub subject: Option<String>,
    /// In a private chat, the name of the one person the fact comes from: their own
    /// "remember I …" says "I" where the fact says their name.
    pub speaker: Option<String>,
}

/// Where `fact` comes from in `lines`, or `FromAssistant` when only the assistant said it.
pub fn attribute(
    fact: &CleanFact,
    lines: &[Line],
    is_group: bool,
) -> Result<Provenance, Rejection> {
    let people: Vec<&Line> = lines.iter().filter(|l| !l.is_bot).collect();
    let cited: Vec<&Line> = lines
        .iter()
        .filter(|l| fact.message_ids.contains(&l.message_id))
        .collect();
    let (sources, sure) = if !cited.is_empty() {
        let from_people: Vec<&Line> = cited.into_iter().filter(|l| !l.is_bot).collect();
        if from_people.is_empty() {
            return Err(Rejection::FromAssistant);
        }
        (from_people, true)
    } else {
        by_shared_terms(&fact.terms, lines, &people)?
    };

    let subject = if is_group {
        named_subject(fact.about.as_deref(), &people).or_else(|| {
            let senders: HashSet<&str> = sources.iter().map(|l| l.sender_id.as_str()).collect();
            match (sure, senders.len()) {
                (true, 1) => senders.into_iter().next().map(str::to_string),
                _ => None,
            }
        })
    } else {
        None
    };
    let mut source_ids: Vec<i64> = sources.iter().map(|l| l.message_id).collect();
    source_ids.sort_unstable();
    source_ids.dedup();
    source_ids.truncate(MAX_SOURCES);
    let speaker = match sources.as_slice() {
        [first, rest @ ..] if !is_group && rest.iter().all(|l| l.sender_id == first.sender_id) => {
            Some(first.sender_name.clone())
        }
        _ => None,
    };
    Ok(Provenance {
        source_ids,
        subject,
        speaker,
    })
}

/// The people's lines sharing the most terms with the fact (`sure` = found by overlap).
/// When only assistant lines share terms, the fact is the assistant's.
fn by_shared_terms<'a>(
    fact_terms: &HashSet<String>,
    lines: &'a [Line],
    people: &[&'a Line],
) -> Result<(Vec<&'a Line>, bool), Rejection> {
    let shared = |l: &Line| l.terms.intersection(fact_terms).count();
    let best_person = people.iter().map(|l| shared(l)).max().unwrap_or(0);
    if best_person > 0 {
        let mut hits: Vec<&Line> = people
            .iter()
            .copied()
            .filter(|l| shared(l) * 2 >= best_person && shared(l) > 0)
            .collect();
        hits.sort_by_key(|l| std::cmp::Reverse(shared(l)));
        hits.truncate(MAX_SOURCES);
        return Ok((hits, true));
    }
    if lines.iter().any(|l| l.is_bot && shared(l) > 0) {
        return Err(Rejection::FromAssistant);
    }
    // No words in common (a translation, a paraphrase): every person's line is a source.
    Ok((people.to_vec(), false))
}

/// The person the model named in `about`, by sender id or (failing that) by name.
fn named_subject(about: Option<&str>, people: &[&Line]) -> Option<String> {
    let about = about?.trim().trim_start_matches('@');
    people
        .iter()
        .find(|l| l.sender_id == about)
        .or_else(|| {
            people
                .iter()
                .find(|l| l.sender_name.eq_ignore_ascii_case(about))
        })
        .map(|l| l.sender_id.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::Category;
    use crate::memory::text::term_set;

    fn line(id: i64, sender: &str, text: &str) -> Line {
        Line {
            message_id: id,
            sender_id: if sender == "bot" {
                "bot".into()
            } else {
                format!("id-{sender}")
            },
            sender_name: sender.into(),
            is_bot: sender == "bot",
            text: text.into(),
            terms: term_set(text),
        }
    }

    fn fact(content: &str, about: Option<&str>, ids: &[i64]) -> CleanFact {
        CleanFact {
            content: content.into(),
            category: Category::Profile,
            terms: term_set(content),
            supersedes_id: None,
            duplicate_of: None,
            about: about.map(str::to_string),
            message_ids: ids.to_vec(),
        }
    }

    fn group() -> Vec<Line> {
        vec![
            line(1, "alice", "I just adopted a beagle named Max"),
            line(2, "bob", "Nice! I work night shifts as a nurse"),
            line(3, "bot", "Carol lives in Paris, right?"),
            line(4, "alice", "Max loves the park"),
        ]
    }

    #[test]
    fn shared_terms_find_the_speaker() {
        let p = attribute(
            &fact("Alice adopted a beagle named Max", None, &[]),
            &group(),
            true,
        );
        assert_eq!(
            p,
            Ok(Provenance {
                source_ids: vec![1],
                subject: Some("id-alice".into()),
                speaker: None,
            })
        );
        let p = attribute(&fact("Bob is a nurse", None, &[]), &group(), true).unwrap();
        assert_eq!(p.subject.as_deref(), Some("id-bob"));
        // in a private chat the chat itself says whom it is about
        let p = attribute(&fact("Bob is a nurse", None, &[]), &group(), false).unwrap();
        assert_eq!((p.source_ids, p.subject), (vec![2], None));
    }

    #[test]
    fn the_models_hints_win_when_they_are_valid() {
        let p = attribute(
            &fact("Max is a dog", Some("id-alice"), &[4]),
            &group(),
            true,
        )
        .unwrap();
        assert_eq!(
            (p.source_ids, p.subject.as_deref()),
            (vec![4], Some("id-alice"))
        );
        // a name works too; an unknown person or a message from another batch does not
        let p = attribute(&fact("Bob is a nurse", Some("Bob"), &[99]), &group(), true).unwrap();
        assert_eq!(p.subject.as_deref(), Some("id-bob"));
        let p = attribute(
            &fact("Bob is a nurse", Some("mallory"), &[]),
            &group(),
            true,
        )
        .unwrap();
        assert_eq!(p.subject.as_deref(), Some("id-bob"));
    }

    #[test]
    fn the_assistant_is_never_a_source() {
        let from_bot = fact("Carol lives in Paris", None, &[]);
        assert_eq!(
            attribute(&from_bot, &group(), true),
            Err(Rejection::FromAssistant)
        );
        let cited_bot = fact("Carol lives in Paris", None, &[3]);
        assert_eq!(
            attribute(&cited_bot, &group(), true),
            Err(Rejection::FromAssistant)
        );
        // about = the bot is not a person
        let p = attribute(
            &fact("Max loves the park", Some("bot"), &[]),
            &group(),
            true,
        )
        .unwrap();
        assert_eq!(p.subject.as_deref(), Some("id-alice"));
    }

    #[test]
    fn no_shared_words_means_unknown_subject() {
        let p = attribute(&fact("爱丽丝养了一只狗", None, &[]), &group(), true).unwrap();
        assert_eq!((p.source_ids, p.subject), (vec![1, 2, 4], None));
    }
}
