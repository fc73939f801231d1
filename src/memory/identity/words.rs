//! Word-level tests the comparison uses: degree words a negation may stand before, opposites
//! by prefix, two stems of one word, and a word that says which of a shared thing.

use super::parse::{Class, Fact, Term};
use super::tables::categories_of;

/// Words of degree a negation may stand before without changing what it denies ("don't
/// even", "not particularly", 不那么).
pub(super) const DEGREE_WORDS: &[&str] = &[
    "even",
    "ever",
    "particular",
    "particularly",
    "much",
    "quite",
    "quit",
    "strictly",
    "strictli",
    "strict",
    "really",
    "realli",
    "still",
    "just",
    "that",
    "so",
    "too",
    "entirely",
    "entir",
    "totally",
    "total",
    "fully",
    "fulli",
    "exactly",
    "exactli",
    "necessarily",
    "necessarili",
    "always",
    "alway",
    "yet",
    "all",
    "么",
    "那",
    "那么",
    "太",
    "大",
    "怎",
    "怎么",
    "很",
    "特别",
    "完全",
    "一点",
    "再",
];

/// Prefixes that turn a word into its opposite.
const NEGATING_PREFIXES: &[&str] = &["un", "dis", "in", "im", "ir", "il", "non"];

/// Whether the term `key` of `x` is written before a term `y` has too, with nothing but
/// other words of `x` alone between ("black" in "no black cat", "big" in "no big black
/// cat"): it says which of the shared thing, so what denies it denies the thing.
pub(super) fn modifies_shared(x: &Fact, y: &Fact, key: &str) -> bool {
    let mut at = key.to_string();
    for _ in 0..4 {
        let Some(next) = x
            .terms
            .iter()
            .find(|t| t.left.as_deref() == Some(at.as_str()))
        else {
            return false;
        };
        if y.has(&next.key) {
            return true;
        }
        at.clone_from(&next.key);
    }
    false
}

/// `x` is `y` with a negating prefix, or the other way round: "uncomfortable" / "comfortable".
pub(super) fn opposite<'a>(x: &'a str, y: &'a str) -> Option<(&'a str, &'a str)> {
    for (long, short) in [(x, y), (y, x)] {
        let negated = |p: &&str| long.strip_prefix(p) == Some(short);
        // short stems only after "un" ("unable" / "able"): "image" is not "im" + "age"
        if (short.len() >= 4 && NEGATING_PREFIXES.iter().any(negated))
            || (short.len() == 3 && negated(&"un"))
        {
            return Some((x, y));
        }
    }
    None
}

/// Two stems of one word: plain Latin terms sharing their first five letters and in no
/// category ("allerg" / "allergi"), never names.
pub(super) fn same_word(x: &Term, y: &Term) -> bool {
    if x.class != Class::Plain || y.class != Class::Plain || x.cjk || y.cjk {
        return false;
    }
    if !categories_of(&x.key).is_empty() || !categories_of(&y.key).is_empty() {
        return false;
    }
    let common = x
        .key
        .chars()
        .zip(y.key.chars())
        .take_while(|(p, q)| p == q)
        .count();
    // "butter" / "butterfly" share five letters too: only a short ending may differ
    let longest = x.key.chars().count().max(y.key.chars().count());
    common >= 5 && longest - common <= 2
}

/// One stem written once as an act and once as things: "flying" / "flies", "painting" /
/// "paintings", "fishing" / "fish"es. The stemmer makes one word of them; "afraid of flying"
/// is no fear of flies. (An act against the verb itself, "hiking" / "hike", is one word.)
/// `Some(true)` when `x` is the act, `Some(false)` when `y` is.
pub(super) fn act_and_things(x: &str, y: &str) -> Option<bool> {
    let (x, y) = (x.to_lowercase(), y.to_lowercase());
    // one stem, not two words a table makes one ("jogs" / "running")
    if super::tables::stem(&x) != super::tables::stem(&y) {
        return None;
    }
    let act = |w: &str| w.len() > 5 && w.ends_with("ing");
    let things = |w: &str| !act(w) && w.len() > 3 && w.ends_with('s') && !w.ends_with("ss");
    if act(&x) && things(&y) {
        Some(true)
    } else if act(&y) && things(&x) {
        Some(false)
    } else {
        None
    }
}
