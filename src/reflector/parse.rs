//! Strict reading of the model's answer, per the reflector contract in the interface:
//! `{"memories":[{"content":…,"category":…,"supersedes_id":…}]}`, or a bare array of those
//! objects, possibly inside a code fence or surrounded by prose. Anything else is a failed
//! parse, which leaves the cursor where it was.
//!
//! The answer is hostile input: nothing here panics, recursion is bounded by serde_json, and
//! the number of places tried and of facts taken are capped.

use serde_json::{Map, Value};

/// Facts taken from one answer; more are counted as invalid (skipped).
pub const MAX_FACTS_PER_ANSWER: usize = 64;
/// `{` / `[` positions tried when the JSON is wrapped in prose.
const MAX_START_POSITIONS: usize = 256;

/// One element of the answer, before the quality gate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawFact {
    pub content: String,
    pub category: String,
    pub supersedes_id: Option<i64>,
    /// A stored memory the model says states this same fact (a claim the local decision may
    /// veto).
    pub duplicate_of: Option<i64>,
    /// Optional extension: the sender id (or name) of the person the fact is about.
    pub about: Option<String>,
    /// Optional extension: the `#id`s of the messages the fact comes from.
    pub message_ids: Vec<i64>,
}

/// A parsed answer: the well-formed facts, and how many elements were not.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Parsed {
    pub facts: Vec<RawFact>,
    pub invalid: usize,
}

/// Why an answer could not be read. Never quotes the answer: it may repeat what users said.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unparseable answer ({chars} characters): {reason}")]
pub struct ParseError {
    pub chars: usize,
    pub reason: &'static str,
}

/// Reads the answer; see the module docs for what is accepted.
pub fn parse_answer(text: &str) -> Result<Parsed, ParseError> {
    let fail = |reason| ParseError {
        chars: text.chars().count(),
        reason,
    };
    let text = text.trim();
    if text.is_empty() {
        return Err(fail("the answer is empty"));
    }
    if let Ok(value) = serde_json::from_str::<Value>(text) {
        // A whole-answer JSON value is the answer: no second guessing inside it.
        return elements(&value).map(read_elements).ok_or_else(|| {
            fail("the JSON is neither an object with a `memories` list nor a list of memories")
        });
    }
    for block in fenced_blocks(text) {
        if let Ok(value) = serde_json::from_str::<Value>(block)
            && let Some(items) = elements(&value)
        {
            return Ok(read_elements(items));
        }
    }
    for value in embedded_values(text) {
        if let Some(items) = elements(&value) {
            return Ok(read_elements(items));
        }
    }
    Err(fail(
        "no JSON object with a `memories` list, nor a list of memories, was found",
    ))
}

/// The list of memories a value carries, if it has the contract's shape. A bare list counts
/// when it is empty or holds at least one object (prose like "see [1]" is not an answer).
fn elements(value: &Value) -> Option<&Vec<Value>> {
    match value {
        Value::Object(map) => map.get("memories").and_then(Value::as_array),
        Value::Array(items) if items.is_empty() || items.iter().any(Value::is_object) => {
            Some(items)
        }
        _ => None,
    }
}

fn read_elements(items: &Vec<Value>) -> Parsed {
    let mut parsed = Parsed::default();
    for item in items {
        match read_fact(item) {
            Some(fact) if parsed.facts.len() < MAX_FACTS_PER_ANSWER => parsed.facts.push(fact),
            _ => parsed.invalid += 1,
        }
    }
    parsed
}

/// One element: `content` and `category` strings are required. `supersedes_id`,
/// `duplicate_of` and the extensions are taken when they are ids and ignored otherwise: a
/// `supersedes_id` of 0, -1 or "none" is a model's way of saying none (small models write
/// that), and dropping the fact for it would lose it.
fn read_fact(item: &Value) -> Option<RawFact> {
    let obj: &Map<String, Value> = item.as_object()?;
    let content = obj.get("content")?.as_str()?.to_string();
    let category = obj.get("category")?.as_str()?.to_string();
    let supersedes_id = obj.get("supersedes_id").and_then(as_id);
    let duplicate_of = obj.get("duplicate_of").and_then(as_id);
    let about = match obj.get("about") {
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    let message_ids = obj
        .get("message_ids")
        .and_then(Value::as_array)
        .map(|ids| ids.iter().filter_map(as_id).take(64).collect())
        .unwrap_or_default();
    Some(RawFact {
        content,
        category,
        supersedes_id,
        duplicate_of,
        about,
        message_ids,
    })
}

/// A positive integer id, given as a number or a string of digits (models do both).
fn as_id(v: &Value) -> Option<i64> {
    let id = match v {
        Value::Number(n) => n.as_i64()?,
        Value::String(s) => s.trim().trim_start_matches('#').parse().ok()?,
        _ => return None,
    };
    (id > 0).then_some(id)
}

/// The insides of ``` fences, with a language tag line (```json) dropped.
fn fenced_blocks(text: &str) -> impl Iterator<Item = &str> {
    text.split("```").skip(1).step_by(2).map(|block| {
        match block.split_once('\n') {
            Some((tag, rest)) if !tag.contains(['{', '[']) => rest,
            _ => block,
        }
        .trim()
    })
}

/// JSON values starting at a `{` or `[` in prose, each read up to where it ends.
fn embedded_values(text: &str) -> impl Iterator<Item = Value> + '_ {
    text.char_indices()
        .filter(|(_, c)| matches!(c, '{' | '['))
        .take(MAX_START_POSITIONS)
        .filter_map(|(i, _)| {
            serde_json::Deserializer::from_str(&text[i..])
                .into_iter::<Value>()
                .next()
                .and_then(Result::ok)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contents(text: &str) -> Vec<String> {
        parse_answer(text)
            .unwrap()
            .facts
            .into_iter()
            .map(|f| f.content)
            .collect()
    }

    const ONE: &str = r#"{"memories":[{"content":"Alice lives in Tokyo","category":"PROFILE","supersedes_id":null}]}"#;

    #[test]
    fn the_contract_object() {
        let p = parse_answer(ONE).unwrap();
        assert_eq!(
            p.facts,
            [RawFact {
                content: "Alice lives in Tokyo".into(),
                category: "PROFILE".into(),
                supersedes_id: None,
                duplicate_of: None,
                about: None,
                message_ids: vec![],
            }]
        );
        assert_eq!(p.invalid, 0);
        assert_eq!(
            parse_answer(r#"{"memories":[]}"#).unwrap(),
            Parsed::default()
        );
    }

    #[test]
    fn bare_arrays_fences_and_prose() {
        assert_eq!(
            contents(r#"[{"content":"a b","category":"EVENT"}]"#),
            ["a b"]
        );
        assert_eq!(
            contents(&format!(
                "Here you go:\n```json\n{ONE}\n```\nAnything else?"
            )),
            ["Alice lives in Tokyo"]
        );
        assert_eq!(
            contents(&format!("```\n{ONE}\n```")),
            ["Alice lives in Tokyo"]
        );
        assert_eq!(
            contents(&format!(
                "Sure [1]! The facts are {ONE} — hope that helps {{:"
            )),
            ["Alice lives in Tokyo"]
        );
        assert!(contents("Nothing new here: []").is_empty());
    }

    #[test]
    fn ids_and_extensions() {
        let p = parse_answer(
            r##"[{"content":"x y","category":"PROFILE","supersedes_id":"#12","about":"u1","message_ids":[3,"4",-1,"x"]},
                {"content":"x y","category":"PROFILE","supersedes_id":7,"about":42}]"##,
        )
        .unwrap();
        assert_eq!(p.facts[0].supersedes_id, Some(12));
        assert_eq!(p.facts[0].about.as_deref(), Some("u1"));
        assert_eq!(p.facts[0].message_ids, [3, 4]);
        assert_eq!(p.facts[1].supersedes_id, Some(7));
        assert_eq!(p.facts[1].about.as_deref(), Some("42"));
    }

    #[test]
    fn malformed_elements_are_counted_not_fatal() {
        let p = parse_answer(
            r#"{"memories":[{"content":"ok fact","category":"KNOWLEDGE"}, "text", {"content":5,"category":"EVENT"},
                {"category":"EVENT"}, {"content":"x","category":"EVENT","supersedes_id":"soon"}, {"content":"y","category":"EVENT","supersedes_id":0},
                {"content":"z","category":"EVENT","supersedes_id":-5,"duplicate_of":"none"}]}"#,
        )
        .unwrap();
        // A supersedes_id that is no id means none: the fact is kept.
        let kept: Vec<_> = p
            .facts
            .iter()
            .map(|f| (f.content.as_str(), f.supersedes_id, f.duplicate_of))
            .collect();
        assert_eq!(
            kept,
            [
                ("ok fact", None, None),
                ("x", None, None),
                ("y", None, None),
                ("z", None, None)
            ]
        );
        assert_eq!(p.invalid, 3);
    }

    #[test]
    fn anything_else_is_a_failed_parse() {
        for text in [
            "",
            "   ",
            "I could not find any facts.",
            r#"{"facts":[{"content":"x","category":"PROFILE"}]}"#,
            r#"{"memories":null}"#,
            r#"{"memories":"none"}"#,
            "[1, 2, 3]",
            "```json\n{\"memories\": [\n```",
            "{{{{[[[[",
            "null",
            "42",
        ] {
            let err = parse_answer(text).unwrap_err();
            assert!(!err.to_string().contains("could not find any"), "{err}");
        }
    }

    #[test]
    fn hostile_answers_do_not_panic() {
        let deep = "[".repeat(100_000);
        assert!(parse_answer(&deep).is_err());
        let many: String = (0..200)
            .map(|i| format!(r#"{{"content":"fact {i}","category":"EVENT"}}"#))
            .collect::<Vec<_>>()
            .join(",");
        let p = parse_answer(&format!("[{many}]")).unwrap();
        assert_eq!(p.facts.len(), MAX_FACTS_PER_ANSWER);
        assert_eq!(p.invalid, 200 - MAX_FACTS_PER_ANSWER);
        assert!(parse_answer("é{\u{0}[\"\\u12").is_err());
    }
}
