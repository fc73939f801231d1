//! How much, how often, how well or in what state a fact holds, where one side only saying it,
//! or saying another, makes another fact: "speaks some German" / "is fluent in German",
//! "every other summer", "before taxes", 同居 / 分居 (found by a seventeenth held-out trial),
//! one way against a round trip (an eighteenth).

use std::collections::BTreeSet;

/// Words and phrases that say how much, how often or in what state, each with what it
/// stands for: one side only, or another one, is another fact ("speaks some German" / "is
/// fluent in German", "earns $85k" / "… after taxes", "every summer" / "every other summer",
/// "engaged to Chris" / "married to Chris"). Matched on whole words.
const QUALIFIERS: &[(&str, &str)] = &[
    ("a little", "a little"),
    ("a bit", "a little"),
    ("some", "some"),
    ("slightly", "a little"),
    ("somewhat", "a little"),
    ("kind of", "a little"),
    ("sort of", "a little"),
    ("basic", "basic"),
    ("conversational", "conversational"),
    ("fluent", "fluent"),
    ("fluently", "fluent"),
    ("mostly", "mostly"),
    ("partly", "partly"),
    ("partially", "partly"),
    ("after tax", "net"),
    ("after taxes", "net"),
    ("post-tax", "net"),
    ("net", "net"),
    ("take-home", "net"),
    ("take home", "net"),
    ("before tax", "gross"),
    ("before taxes", "gross"),
    ("pre-tax", "gross"),
    ("pretax", "gross"),
    ("gross", "gross"),
    ("every other", "every other"),
    ("every second", "every other"),
    ("every few", "every few"),
    ("biweekly", "every other"),
    ("fortnightly", "every other"),
    ("engaged", "engaged"),
    ("fiance", "engaged"),
    ("fiancé", "engaged"),
    ("fiancee", "engaged"),
    ("fiancée", "engaged"),
    ("divorced", "divorced"),
    ("separated", "separated"),
    ("widowed", "widowed"),
    ("dating", "dating"),
    ("each way", "one way"),
    ("one way", "one way"),
    ("round trip", "round trip"),
    ("return trip", "round trip"),
    ("both ways", "round trip"),
];
/// Chinese ones, as written, with what each stands for.
const ZH_QUALIFIERS: &[(&str, &str)] = &[
    ("一点", "a little"),
    ("一些", "some"),
    ("稍微", "a little"),
    ("有点", "a little"),
    ("流利", "fluent"),
    ("税前", "gross"),
    ("税后", "net"),
    ("到手", "net"),
    ("同居", "living together"),
    ("分居", "separated"),
    ("离婚", "divorced"),
    ("订婚", "engaged"),
    ("单程", "one way"),
    ("往返", "round trip"),
    ("来回", "round trip"),
];

/// The qualifiers `words` (lowercase, in order) and `text` (as written) hold.
pub(super) fn read(words: &[String], text: &str, into: &mut BTreeSet<String>) {
    for (i, w) in words.iter().enumerate() {
        for (phrase, stands) in QUALIFIERS {
            let mut parts = phrase.split([' ', '-']);
            let first = parts.next().unwrap_or_default();
            if first == w
                && parts
                    .enumerate()
                    .all(|(k, p)| words.get(i + 1 + k).is_some_and(|n| n == p))
            {
                into.insert(stands.to_string());
            }
        }
    }
    for (zh, stands) in ZH_QUALIFIERS {
        if text.contains(zh) {
            into.insert(stands.to_string());
        }
    }
}
