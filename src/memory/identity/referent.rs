//! Who a pronoun is, where a sentence names one person: "User is taller than his brother" is
//! "User is taller than User's brother", for a sentence written from its other side
//! (`comparison`, `converse`), where "his" would otherwise be read as someone new.

use crate::memory::text::unpunctuated;

/// Words opening a sentence that are no name.
const NO_NAME: &[&str] = &[
    "the", "my", "his", "her", "their", "our", "your", "a", "an", "i", "this", "that", "he", "she",
    "they", "we", "you", "it", "its",
];

/// Whose, before a noun for someone ("my brother", "her husband").
pub(super) const WHOSE: &[&str] = &["my", "his", "her", "their", "our", "your"];

/// Subject pronouns and their object forms.
const PRONOUNS: &[(&str, &str)] = &[
    ("i", "me"),
    ("we", "us"),
    ("they", "them"),
    ("he", "him"),
    ("she", "her"),
];

/// A pronoun in its subject form ("me" → "I", "him" → "he"); any other word as it is.
pub(super) fn as_subject(w: &str) -> String {
    let lower = w.to_lowercase();
    match PRONOUNS.iter().find(|(_, o)| *o == lower && lower != "her") {
        Some(("i", _)) => "I".into(),
        Some((s, _)) => s.to_string(),
        None => w.to_string(),
    }
}

/// A pronoun in its object form ("I" → "me", "she" → "her"); any other word as it is.
pub(super) fn as_object(w: &str) -> String {
    let lower = w.to_lowercase();
    match PRONOUNS.iter().find(|(s, _)| *s == lower) {
        Some((_, o)) => o.to_string(),
        None => w.to_string(),
    }
}

/// A personal pronoun, as a subject or an object ("I", "me", "you", "them").
pub(super) fn is_personal(lower: &str) -> bool {
    lower == "you" || PRONOUNS.iter().any(|(s, o)| lower == *s || lower == *o)
}

/// The one person `words` name ("User", "Maria"), when there is one.
pub(super) fn the_one_named(words: &[&str]) -> Option<String> {
    let mut names: Vec<&str> = words
        .iter()
        .map(|w| {
            let w = unpunctuated(w);
            w.strip_suffix("'s").unwrap_or(w)
        })
        .filter(|w| {
            w.eq_ignore_ascii_case("user")
                || w.chars().next().is_some_and(char::is_uppercase)
                    && !NO_NAME.contains(&w.to_lowercase().as_str())
        })
        .collect();
    names.sort_unstable();
    names.dedup();
    match names[..] {
        [name] if name.eq_ignore_ascii_case("user") => Some("User".into()),
        [name] => Some(name.into()),
        _ => None,
    }
}

/// The one person a sentence names, and whether the other side of what is said is that person
/// alone.
pub(super) struct One<'a> {
    named: Option<&'a str>,
    other_is_named: bool,
}

impl<'a> One<'a> {
    /// For a side of a sentence naming `named` whose other side is `other` ("Tom is taller
    /// than him": "him" is someone else than the other side, Tom).
    pub(super) fn beside(named: Option<&'a str>, other: &[&str]) -> Self {
        let other_is_named = match other {
            [w] => named.is_some_and(|n| unpunctuated(w).eq_ignore_ascii_case(n)),
            _ => false,
        };
        One {
            named,
            other_is_named,
        }
    }

    /// The words of a side, each [`Self::as_named`].
    pub(super) fn span(&self, ws: &[&str], subject: bool) -> Vec<String> {
        let n = ws.len();
        ws.iter()
            .enumerate()
            .map(|(i, w)| self.as_named(unpunctuated(w), i + 1 < n, subject))
            .collect()
    }

    /// A word of one side, its third person written as the one named (not "him" where the
    /// other side is that person: "Tom is taller than him"), its first person in the form of
    /// where it now stands (`subject` or object).
    fn as_named(&self, w: &str, noun_follows: bool, subject: bool) -> String {
        let lower = w.to_lowercase();
        if let Some(name) = self.named {
            match lower.as_str() {
                "he" | "him" | "she" if !self.other_is_named => return name.to_string(),
                "her" if !noun_follows && !self.other_is_named => return name.to_string(),
                "his" | "her" if noun_follows => return format!("{name}'s"),
                _ => {}
            }
        }
        for (s, o) in PRONOUNS {
            // "her" before a noun is whose
            if lower == *s || lower == *o && !(lower == "her" && noun_follows) {
                let out = if subject { *s } else { *o };
                return if out == "i" { "I".into() } else { out.into() };
            }
        }
        w.to_string()
    }
}
