//! The memory gate's content rule (`memory::quality::refusal`) on a labelled set,
//! `tests/data/gate_set.jsonl`: secrets, instructions and facts (many of them hard negatives,
//! facts that mention passwords, tokens, keys, rules, "always" or "never"), in English and
//! Chinese. `cargo bench --bench gate_quality` prints the same figures and the speed.

use mneme::memory::quality::{Refusal, refusal};
use serde::Deserialize;

#[derive(Deserialize)]
struct Case {
    text: String,
    label: String,
    kind: String,
}

fn cases() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/gate_set.jsonl");
    let data = std::fs::read_to_string(path).expect("gate set readable");
    data.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| serde_json::from_str(l).unwrap_or_else(|e| panic!("line {}: {e}", i + 1)))
        .collect()
}

fn predicted(text: &str) -> &'static str {
    match refusal(text, true) {
        Some(Refusal::Secret(_)) => "secret",
        Some(Refusal::Instruction) => "instruction",
        None => "fact",
    }
}

struct Score {
    precision: f64,
    recall: f64,
    misses: Vec<String>,
    false_refusals: Vec<String>,
}

fn score(cases: &[Case], class: &str) -> Score {
    let (mut tp, mut fp, mut fn_) = (0usize, 0usize, 0usize);
    let (mut misses, mut false_refusals) = (Vec::new(), Vec::new());
    for case in cases {
        let got = predicted(&case.text);
        match (case.label == class, got == class) {
            (true, true) => tp += 1,
            (true, false) => {
                fn_ += 1;
                misses.push(format!("[{}] {} → {got}", case.kind, case.text));
            }
            (false, true) => {
                fp += 1;
                false_refusals.push(format!("[{} {}] {}", case.label, case.kind, case.text));
            }
            (false, false) => {}
        }
    }
    let ratio = |a: usize, b: usize| if b == 0 { 1.0 } else { a as f64 / b as f64 };
    Score {
        precision: ratio(tp, tp + fp),
        recall: ratio(tp, tp + fn_),
        misses,
        false_refusals,
    }
}

#[test]
fn the_set_is_what_it_claims() {
    let cases = cases();
    assert!(cases.len() >= 200, "{} lines", cases.len());
    let chinese = cases
        .iter()
        .filter(|c| {
            c.text
                .chars()
                .any(|ch| ('\u{4e00}'..='\u{9fff}').contains(&ch))
        })
        .count();
    assert!(chinese >= 50, "{chinese} Chinese lines");
    for case in &cases {
        assert!(
            matches!(case.label.as_str(), "secret" | "instruction" | "fact"),
            "label {:?}",
            case.label
        );
        assert!(!case.kind.is_empty(), "{}", case.text);
    }
}

#[test]
fn secrets_are_refused_and_only_secrets() {
    let s = score(&cases(), "secret");
    assert!(
        s.recall >= 0.95 && s.precision >= 0.95,
        "secret: precision {:.3}, recall {:.3}\nmissed:\n{}\nrefused as secrets:\n{}",
        s.precision,
        s.recall,
        s.misses.join("\n"),
        s.false_refusals.join("\n")
    );
}

#[test]
fn instructions_are_refused_and_only_instructions() {
    let s = score(&cases(), "instruction");
    assert!(
        s.recall >= 0.9 && s.precision >= 0.95,
        "instruction: precision {:.3}, recall {:.3}\nmissed:\n{}\nrefused as instructions:\n{}",
        s.precision,
        s.recall,
        s.misses.join("\n"),
        s.false_refusals.join("\n")
    );
}

#[test]
fn facts_pass() {
    let refused: Vec<String> = cases()
        .iter()
        .filter(|c| c.label == "fact")
        .filter_map(|c| refusal(&c.text, true).map(|r| format!("[{}] {} → {r}", c.kind, c.text)))
        .collect();
    // Four known, each a kind the rules read as an order: a joke about making the AI forget,
    // "dont call before 2pm", a story of someone who "asked the bot to call him …" (a standing
    // request, refused by design; its tester labelled it a fact), and 群里的机器人是真人 (read as
    // giving the bot a role). A fifth is a regression.
    assert!(
        refused.len() <= 4,
        "{} facts refused:\n{}",
        refused.len(),
        refused.join("\n")
    );
}

#[test]
fn instructions_pass_where_the_caller_allows_them() {
    for case in cases().iter().filter(|c| c.label == "instruction") {
        assert!(
            !matches!(refusal(&case.text, false), Some(Refusal::Instruction)),
            "{}",
            case.text
        );
    }
}
