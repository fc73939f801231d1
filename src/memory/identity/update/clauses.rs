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
    use super::restated;

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
}
