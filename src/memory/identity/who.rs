//! The speaker and the names a fact writes with a capital, where they stand: "Sam owes User
//! $200" / "User owes Sam $200" swap who does what to whom (found by a seventeenth held-out
//! trial), as does the passive with the same order ("User is owed $200 by Sam", an eighteenth).

/// A fact's words, lowercase, and where the speaker and the names stand among them.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Who {
    words: Vec<String>,
    speaker: Option<usize>,
    names: Vec<(String, usize)>,
}

/// A form of "be" or "get" that makes the passive ("is owed", "got hired").
const PASSIVE_VERBS: &[&str] = &[
    "is", "was", "are", "were", "am", "be", "been", "being", "gets", "got", "get",
];

/// Days and months are written with a capital, and are not someone.
#[rustfmt::skip]
const NOT_NAMES: &[&str] = &[
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january",
    "february", "march", "april", "may", "june", "july", "august", "september", "october",
    "november", "december", "on", "in", "at", "every", "each", "the", "a", "an",
];

impl Who {
    /// Where the speaker (a bare "User", "I", "me") and the capitalized names of `text`
    /// stand among its words.
    pub(super) fn read(text: &str) -> Who {
        let written: Vec<&str> = text
            .split(|c: char| !(c.is_alphanumeric() || crate::memory::text::is_apostrophe(c)))
            .filter(|w| !w.is_empty())
            .collect();
        let mut who = Who {
            words: written.iter().map(|w| w.to_lowercase()).collect(),
            ..Who::default()
        };
        for (i, w) in written.iter().enumerate() {
            let lower = &who.words[i];
            if matches!(lower.as_str(), "i" | "me" | "user") {
                who.speaker.get_or_insert(i);
            } else if w.chars().next().is_some_and(char::is_uppercase)
                && !NOT_NAMES.contains(&lower.trim_end_matches('s'))
                && !NOT_NAMES.contains(&lower.as_str())
            {
                who.names.push((lower.clone(), i));
            }
        }
        who
    }

    /// Someone named in both facts and the speaker, each doing to the other what the other does
    /// in the other fact, with the same words between them: "Sam owes User $200" / "User owes Sam
    /// $200", "Alice mentors me" / "I mentor Alice" is not (another word), "Alice and I" / "I and
    /// Alice" is not either (joined, not one doing to the other).
    pub(super) fn swapped(&self, other: &Who) -> Option<String> {
        let (x, y) = (self, other);
        let (sx, sy) = (x.speaker?, y.speaker?);
        x.names
            .iter()
            .find_map(|(name, nx)| {
                let ny = y.names.iter().find(|(n, _)| n == name)?.1;
                let between = |w: &Who, from: usize, to: usize| {
                    w.words.get(from + 1..to).map(<[String]>::to_vec)
                };
                // the name first in one, the speaker first in the other
                let (one, other) = match (*nx < sx, ny < sy) {
                    (true, false) => (between(x, *nx, sx)?, between(y, sy, ny)?),
                    (false, true) => (between(x, sx, *nx)?, between(y, ny, sy)?),
                    _ => return None,
                };
                let joined = one.iter().all(|w| matches!(w.as_str(), "and" | "or"));
                (!one.is_empty() && !joined && one == other).then(|| name.clone())
            })
            .or_else(|| x.passive_flipped(y))
            .or_else(|| y.passive_flipped(x))
    }

    /// The speaker or a name before the other word of the passive `self` says ("User is owed
    /// $200 by Tom"), in the same order in the active `other` ("User owes Tom $200"): in the
    /// passive the one after "by" does it, so the two do to each other the other way round. The
    /// passive with the two the other way round ("Tom is owed $200 by User") is the same fact.
    fn passive_flipped(&self, other: &Who) -> Option<String> {
        let by = self.words.iter().position(|w| w == "by")?;
        let party = |w: &Who, i: usize| -> Option<String> {
            if w.speaker == Some(i) {
                Some("user".into())
            } else {
                (w.names.iter()).find_map(|(n, at)| (*at == i).then(|| n.clone()))
            }
        };
        let agent = party(self, by + 1)?;
        // the passive's verb: a form of "be" or "get", its participle right after
        let be = (self.words[..by].iter()).rposition(|w| PASSIVE_VERBS.contains(&w.as_str()))?;
        let participle = self.words.get(be + 1)?;
        let subject = (0..be).rev().find_map(|i| party(self, i))?;
        if subject == agent || other.words.iter().any(|w| w == "by") {
            return None;
        }
        let at =
            |who: &str| (0..other.words.len()).find(|&i| party(other, i).as_deref() == Some(who));
        let (s, a) = (at(&subject)?, at(&agent)?);
        // the active side's verb between the two, the participle's ("owes" / "owed")
        let stem = |w: &str| w.chars().take(3).collect::<String>();
        let acts = other.words[s.min(a) + 1..s.max(a)]
            .iter()
            .any(|w| w.chars().count() >= 3 && stem(w) == stem(participle));
        (s < a && acts).then(|| if agent == "user" { subject } else { agent })
    }
}
