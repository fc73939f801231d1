//! Two people doing or being one thing together, said from either of them or from both: "I
//! live with my brother" is "my brother lives with me", "My parents and I live together" "I
//! live with my parents", "User and her husband bought the house together" "User bought the
//! house with her husband", "Bob and Carol are married to each other" "Bob is married to
//! Carol". Each side is written "who … with whom", turned round where the other side names the
//! two the other way, and the pair is then read again.
//!
//! Precision first: one clause, each person one word or whose and a noun. Only acts one
//! shares with a partner turn round ("lives with", "works with", "is married to"): "fell in
//! love with", "broke up with" and "is angry with" say who did it, and stay as said. Two
//! joined by "and" and "together" (or "to each other") share whatever they do.

use super::referent::{One, WHOSE, as_object, as_subject, is_personal, the_one_named};
use crate::memory::text::{ending_as, unpunctuated, words_lowered};

/// Verbs whose partner after "with" shares the act: either may say it.
const SHARED_ACTS: &[&str] = &[
    "live",
    "lives",
    "lived",
    "work",
    "works",
    "worked",
    "grew",
    "went",
    "play",
    "plays",
    "played",
    "study",
    "studies",
    "studied",
    "share",
    "shares",
    "shared",
    "own",
    "owns",
    "owned",
    "co-own",
    "co-owns",
    "co-owned",
    "run",
    "runs",
    "ran",
    "bought",
    "travel",
    "travels",
    "traveled",
    "travelled",
    "train",
    "trains",
    "trained",
    "founded",
    "started",
];

/// A state after a form of "be" that two people are in with each other.
const SHARED_STATES: &[&[&str]] = &[
    &["married", "to"],
    &["engaged", "to"],
    &["friends", "with"],
    &["related", "to"],
    &["neighbours", "with"],
    &["neighbors", "with"],
    &["roommates", "with"],
    &["in", "a", "relationship", "with"],
];

const COPULAS: &[&str] = &["is", "am", "are", "was", "were"];

/// Words that end who the partner is: what follows says when, where or how.
const PARTNER_ENDS: &[&str] = &[
    "in", "at", "on", "for", "since", "from", "last", "this", "next", "every", "until", "because",
    "when", "now", "after", "before",
];

/// One clause read as "who … with whom".
struct Shared {
    who: Vec<String>,
    /// From the verb to "with" (or "to"), as said.
    act: Vec<String>,
    partner: Vec<String>,
    rest: Vec<String>,
    /// Whether either may say it: an act shared, or said of both.
    either: bool,
    /// Whether it was said of both ("… and … together").
    of_both: bool,
}

impl Shared {
    fn said(&self, text: &str) -> String {
        let mut out = self.who.clone();
        out.extend(self.act.iter().cloned());
        out.extend(self.partner.iter().cloned());
        out.extend(self.rest.iter().cloned());
        ending_as(out, text)
    }

    /// Said by the partner: "My brother lives with me" → "I lives with my brother".
    fn turned(self) -> Self {
        // "My" opening the sentence is "my" after the verb; a name stays as written
        let lowered = |w: &String| {
            let lower = w.to_lowercase();
            if NO_PERSON.contains(&lower.as_str()) || WHOSE.contains(&lower.as_str()) {
                lower
            } else {
                as_object(w)
            }
        };
        Shared {
            who: self.partner.iter().map(|w| as_subject(w)).collect(),
            partner: self.who.iter().map(lowered).collect(),
            ..self
        }
    }
}

/// The pair with each side that says two people share something written "who … with whom",
/// the one side turned round where the other names the two the other way; `None` where
/// neither says so, or nothing is to be written.
pub(super) fn alike(a: &str, b: &str) -> Option<(String, String)> {
    let shares = |t: &str| t.contains(" with ") || t.contains(" to ") || t.contains(" and ");
    if !shares(a) || !shares(b) {
        return None;
    }
    let (x, y) = (read(a)?, read(b)?);
    let key =
        |s: &[String]| -> Vec<String> { s.iter().map(|w| as_subject(w).to_lowercase()).collect() };
    if key(&x.who) == key(&y.who) && key(&x.partner) == key(&y.partner) {
        return (x.of_both || y.of_both).then(|| (x.said(a), y.said(b)));
    }
    let turned = key(&x.who) == key(&y.partner) && key(&x.partner) == key(&y.who);
    (turned && (x.either || y.of_both) && key(&x.who) != key(&x.partner))
        .then(|| (x.turned().said(a), y.said(b)))
}

/// `text` read as one clause of two people sharing something.
fn read(text: &str) -> Option<Shared> {
    let (words, lower) = words_lowered(text);
    if words.iter().any(|w| w.contains([',', ';'])) {
        return None;
    }
    let named = the_one_named(&words);
    of_both(&words, &lower, named.as_deref())
        .or_else(|| with_partner(&words, &lower, named.as_deref()))
}

/// "X and Y … together", "X and Y co-own …", "X and Y are married to each other".
fn of_both(words: &[&str], lower: &[String], named: Option<&str>) -> Option<Shared> {
    let and = lower.iter().position(|w| w == "and")?;
    if !one_person(&words[..and], &lower[..and]) {
        return None;
    }
    let len = person_len(&words[and + 1..], &lower[and + 1..])?;
    let (who, partner) = (&words[..and], &words[and + 1..and + 1 + len]);
    let after = and + 1 + len;
    if lower[after..].contains(&"and".to_string()) {
        return None;
    }
    let one =
        |ws: &[&str], other: &[&str], subject: bool| One::beside(named, other).span(ws, subject);
    let (who_said, partner_said) = (one(who, partner, true), one(partner, who, false));
    // "are married to each other"
    if lower
        .get(after)
        .is_some_and(|w| COPULAS.contains(&w.as_str()))
    {
        let state = state_at(lower, after + 1)?;
        let end = after + 1 + state.len();
        if lower.get(end..end + 2) != Some(&["each".to_string(), "other".to_string()][..]) {
            return None;
        }
        let mut act = vec![if lower[after] == "were" { "was" } else { "is" }.to_string()];
        act.extend(state.iter().map(|w| w.to_string()));
        return finish(who_said, act, partner_said, &words[end + 2..], true, true);
    }
    // "… together", or a verb of doing it together ("co-own"): whatever both do
    let (act_end, rest_from) = match lower.iter().rposition(|w| w == "together") {
        Some(t) if t > after => (t, t + 1),
        Some(_) => return None,
        // the partner said last, as "co-owns a bakery in Portland with his brother" says it
        None if lower.get(after).is_some_and(|v| v.starts_with("co-")) => {
            (lower.len(), lower.len())
        }
        None => return None,
    };
    let mut act: Vec<String> = words[after..act_end]
        .iter()
        .map(|w| unpunctuated(w).to_string())
        .collect();
    if act.is_empty() {
        return None;
    }
    act.push("with".into());
    finish(who_said, act, partner_said, &words[rest_from..], true, true)
}

/// "X lives with Y", "X is married to Y", "X bought the house with Y".
fn with_partner(words: &[&str], lower: &[String], named: Option<&str>) -> Option<Shared> {
    let v = person_len(words, lower)?;
    let verb = lower.get(v)?;
    let (act_end, either) = if COPULAS.contains(&verb.as_str()) {
        (v + 1 + state_at(lower, v + 1)?.len(), true)
    } else {
        // the verb, a few words of what is shared, then "with"
        let with = (v + 1..lower.len().min(v + 7)).find(|&i| lower[i] == "with")?;
        (with + 1, SHARED_ACTS.contains(&verb.as_str()))
    };
    let plen = person_len(&words[act_end..], &lower[act_end..])?;
    let (who, partner) = (&words[..v], &words[act_end..act_end + plen]);
    let rest = &words[act_end + plen..];
    if rest
        .first()
        .is_some_and(|w| !PARTNER_ENDS.contains(&unpunctuated(w).to_lowercase().as_str()))
    {
        return None;
    }
    let one =
        |ws: &[&str], other: &[&str], subject: bool| One::beside(named, other).span(ws, subject);
    let act = words[v..act_end]
        .iter()
        .map(|w| unpunctuated(w).to_string())
        .collect();
    finish(
        one(who, partner, true),
        act,
        one(partner, who, false),
        rest,
        either,
        false,
    )
}

/// A clause read: `either` when either may say it, `of_both` when said of both.
fn finish(
    who: Vec<String>,
    act: Vec<String>,
    partner: Vec<String>,
    rest: &[&str],
    either: bool,
    of_both: bool,
) -> Option<Shared> {
    let rest: Vec<String> = rest.iter().map(|w| unpunctuated(w).to_string()).collect();
    // a second clause or a third person: not one thing the two share
    if rest
        .iter()
        .any(|w| matches!(w.to_lowercase().as_str(), "and" | "but" | "or" | "with"))
    {
        return None;
    }
    Some(Shared {
        who,
        act,
        partner,
        rest,
        either,
        of_both,
    })
}

/// How many of the first words are one person: a pronoun, a name, "User", or whose and a
/// noun ("my brother", "User's wife", "her husband").
fn person_len(words: &[&str], lower: &[String]) -> Option<usize> {
    let first = lower.first()?;
    let whose = first.ends_with("'s") || WHOSE.contains(&first.as_str());
    if whose {
        return (lower.len() > 1 && !is_personal(&lower[1]) && lower[1] != "and").then_some(2);
    }
    let name = words[0].chars().next().is_some_and(char::is_uppercase)
        && !NO_PERSON.contains(&first.as_str());
    (is_personal(first) || first == "user" || name).then_some(1)
}

/// Capitalised words opening a sentence that are no one.
const NO_PERSON: &[&str] = &[
    "the", "a", "an", "this", "that", "these", "those", "every", "some", "it", "there",
];

/// Whether the words are one person and nothing more.
fn one_person(words: &[&str], lower: &[String]) -> bool {
    person_len(words, lower) == Some(lower.len())
}

/// The state two are in with each other at `at` ("married to"), and how many words it takes.
fn state_at(lower: &[String], at: usize) -> Option<&'static [&'static str]> {
    SHARED_STATES.iter().copied().find(|s| {
        lower
            .get(at..at + s.len())
            .is_some_and(|w| w.iter().zip(s.iter()).all(|(a, b)| a == b))
    })
}

#[cfg(test)]
mod tests {
    use super::super::trial_tests::one_fact;
    use super::super::trial17_tests::never_one_nor_claimed;

    #[test]
    fn two_sharing_one_thing_said_from_either_is_one_fact() {
        one_fact(&[
            ("I live with my brother", "My brother lives with me"),
            ("I live with my parents", "My parents and I live together"),
            (
                "User bought the house with her husband",
                "User and her husband bought the house together",
            ),
            (
                "Bob is married to Carol",
                "Bob and Carol are married to each other",
            ),
            ("Carol is married to Bob", "Bob is married to Carol"),
            (
                "User co-owns a bakery in Portland with his brother",
                "User and his brother co-own a bakery in Portland",
            ),
            ("I work with Anna", "Anna works with me"),
            ("User is friends with Tom", "Tom is friends with User"),
            ("My wife and I work together", "I work with my wife"),
            ("User plays tennis with Tom", "Tom plays tennis with User"),
        ]);
        never_one_nor_claimed(&[
            // said of one, who did it
            ("I fell in love with Anna", "Anna fell in love with me"),
            ("User broke up with Tom", "Tom broke up with User"),
            ("User is angry with Tom", "Tom is angry with User"),
            // someone else, or another act
            ("I live with my brother", "My sister lives with me"),
            ("I live with my brother", "My brother works with me"),
            ("I live with my parents", "My parents and I lived together"),
            (
                "User and her husband bought the house",
                "User bought the house",
            ),
            (
                "I live with my brother",
                "My brother lives with me and my wife",
            ),
            ("User fell out with Tom", "Tom fell out with User"),
            ("User plays tennis with Tom", "Tom plays golf with User"),
            ("I live with Anna", "Anna lives with Tom"),
            ("Anna is married to Tom", "Tom is engaged to Anna"),
        ]);
    }
}
