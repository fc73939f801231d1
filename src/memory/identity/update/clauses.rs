//! A change said in one clause of several ("I stopped seeing Dr. Kim; my therapist is Jordan
//! Hale now", "Karen left, my new boss is Priya") or with the value first ("green is my
//! favourite color now"): each read as a statement of its own. Found by an eleventh held-out
//! set, most of whose changes were said so.

use std::sync::LazyLock;

use regex::Regex;

use super::surface::says_it_changed;

/// Where a statement's clauses part: commas, semicolons, dashes, and "so" / "but" / "and" /
/// "since" / "because" between clauses.
static PARTS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\s*(?:[,;，；]|\s[-–—]\s|\s(?:so|but|and|since|because)\s)\s*")
        .expect("compiles")
});
/// The value first: "green is my favourite color now", "tacos are our go-to takeout".
static VALUE_FIRST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(?P<value>[^,;]{1,40}?)\s+(?P<is>is|are)\s+(?P<what>(?:my|our)\s+[^,;]{1,40}?)(?P<now>\s+now)?[.!]*$")
        .expect("compiles")
});

/// `text` said again as statements [`super::changed`] reads: each of its clauses that says
/// a value changed (when it has more than one), and any of them said with its value first,
/// turned round. Empty when there is nothing to say again.
pub(super) fn restated(text: &str) -> Vec<String> {
    let parts: Vec<&str> = PARTS
        .split(text.trim())
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    let several = parts.len() > 1;
    let mut out = Vec::new();
    for part in parts {
        let turned = turned_round(part);
        if several && (says_it_changed(part) || names_a_new_one(part)) {
            out.push(part.to_string());
        }
        if let Some(t) = turned {
            out.push(t);
        }
    }
    out
}

/// Verbs that open a statement of change with its subject left out, as chat does
/// ("relocated to Lisbon", "quit keto, doing Mediterranean now", "got married!").
#[rustfmt::skip]
const OPENING_VERBS: &[&str] = &[
    "moved", "relocated", "switched", "upgraded", "downgraded", "changed", "got", "quit",
    "stopped", "started", "joined", "left", "transferred", "graduated", "retired", "married",
    "divorced", "finally", "just", "went", "gave", "became",
];
/// Chinese openings of a statement of change with its subject left out (搬到杭州了, 上个月搬到重庆了).
#[rustfmt::skip]
const ZH_OPENINGS: &[&str] = &[
    "搬", "换", "调", "升", "戒", "刚", "上个月", "上周", "去年", "前年", "今年", "昨天", "已经",
    "终于", "不再",
];

/// `text` with the speaker said, where it opens a statement of change without a subject:
/// "relocated to Lisbon last month" → "I relocated to Lisbon last month", 搬到杭州了 →
/// 我搬到杭州了. `None` where a subject opens it, or it opens otherwise.
pub(super) fn with_the_speaker(text: &str) -> Option<String> {
    let text = text.trim();
    // the first word's end, found in the text as written (lowercasing may change its length)
    let end = text
        .find(|c: char| !c.is_alphabetic() || crate::memory::text::is_cjk(c))
        .unwrap_or(text.len());
    if end > 0 {
        let first = text[..end].to_lowercase();
        return OPENING_VERBS
            .contains(&first.as_str())
            .then(|| format!("I {first}{}", &text[end..]));
    }
    ZH_OPENINGS
        .iter()
        .any(|o| text.starts_with(o))
        .then(|| format!("我{text}"))
}

/// "my new dentist is …", 新的牙医是…: a clause that names the one that came.
fn names_a_new_one(clause: &str) -> bool {
    let lower = clause.to_lowercase();
    ["my new ", "our new "].iter().any(|w| lower.starts_with(w)) || clause.starts_with("新的")
}

/// "green is my favourite color now" as "my favourite color is green now".
fn turned_round(clause: &str) -> Option<String> {
    let c = VALUE_FIRST.captures(clause)?;
    let now = c.name("now").map_or("", |m| m.as_str());
    // "tacos are my favourite food": the favourite is one ("my favourite food is tacos")
    Some(format!("{} is {}{now}", &c["what"], &c["value"]))
}

#[cfg(test)]
mod tests {
    use super::{restated, with_the_speaker};

    #[test]
    fn a_changed_clause_and_a_value_said_first_are_read_on_their_own() {
        assert_eq!(
            restated("I stopped seeing Dr. Kim; my therapist is Jordan Hale now"),
            ["my therapist is Jordan Hale now"]
        );
        assert_eq!(
            restated("green is my favourite color now"),
            ["my favourite color is green now"]
        );
        assert!(restated("my therapist is Jordan Hale").is_empty());
        assert!(restated("I like tea, and I like coffee").is_empty());
    }

    #[test]
    fn a_change_said_without_its_subject_is_the_speakers() {
        assert_eq!(
            with_the_speaker("relocated to Lisbon last month").as_deref(),
            Some("I relocated to Lisbon last month")
        );
        assert_eq!(
            with_the_speaker("Got promoted!").as_deref(),
            Some("I got promoted!")
        );
        assert_eq!(
            with_the_speaker("搬到杭州了").as_deref(),
            Some("我搬到杭州了")
        );
        assert_eq!(with_the_speaker("I moved to Lisbon"), None);
        assert_eq!(with_the_speaker("Sarah moved to Lisbon"), None);
        assert_eq!(with_the_speaker("小王搬到杭州了"), None);
        // a first word whose lowercase is longer than it is (İ) is read where it ends
        assert_eq!(with_the_speaker("İstanbul is home"), None);
        assert_eq!(
            with_the_speaker("MOVED to Lisbon").as_deref(),
            Some("I moved to Lisbon")
        );
    }
}
