//! The speaker and the names a fact writes with a capital, where they stand: "Sam owes User
//! $200" / "User owes Sam $200" swap who does what to whom (found by a seventeenth held-out
//! trial).

/// A fact's words, lowercase, and where the speaker and the names stand among them.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Who {
    words: Vec<String>,
    speaker: Option<usize>,
    names: Vec<(String, usize)>,
}

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
        x.names.iter().find_map(|(name, nx)| {
            let ny = y.names.iter().find(|(n, _)| n == name)?.1;
            let between =
                |w: &Who, from: usize, to: usize| w.words.get(from + 1..to).map(<[String]>::to_vec);
            // the name first in one, the speaker first in the other
            let (one, other) = match (*nx < sx, ny < sy) {
                (true, false) => (between(x, *nx, sx)?, between(y, sy, ny)?),
                (false, true) => (between(x, sx, *nx)?, between(y, ny, sy)?),
                _ => return None,
            };
            let joined = one.iter().all(|w| matches!(w.as_str(), "and" | "or"));
            (!one.is_empty() && !joined && one == other).then(|| name.clone())
        })
    }
}
