//! Fact identity through the real reflector with a scripted model: each kind of hard negative
//! (another subject, another object in the same slot, another number, time, named entity, an
//! opposite or different relation, Chinese too) is kept apart — a newer value of a relation
//! that holds one replacing the older, as "remember" would —, each kind of paraphrase is
//! merged into the memory it repeats; the model's `duplicate_of` is taken unless the facts are
//! provably different or each says something the other does not (an instrument no word table
//! knows); the merge shows in the memory's history.

mod support;

use serde_json::json;
use support::reflector::{DAY, Lab, T0, facts};

const DIFFERENT: &[(&str, &str, &str)] = &[
    (
        "subject",
        "Alice's birthday is on March 3",
        "Alice's wife's birthday is on March 3",
    ),
    (
        "slot",
        "Alice has a dog named Rex",
        "Alice has a cat named Rex",
    ),
    (
        "instrument",
        "Alice plays the cello",
        "Alice plays the violin",
    ),
    ("number", "Alice has 2 children", "Alice has 3 children"),
    (
        "time",
        "Alice takes the 8:15 train",
        "Alice takes the 8:45 train",
    ),
    ("entity", "Alice supports Porto", "Alice supports Benfica"),
    (
        "relation",
        "Alice is learning Spanish",
        "Alice is teaching Spanish",
    ),
    (
        "opposite",
        "Alice's favourite food is sushi",
        "Alice's least favourite food is sushi",
    ),
    (
        "unlisted slot",
        "Bob plays the cello on weekends",
        "Bob plays the bassoon on weekends",
    ),
    ("zh slot", "用户的狗叫旺财", "用户的猫叫旺财"),
    ("zh number", "用户有两个孩子", "用户有三个孩子"),
];

const SAME: &[(&str, &str, &str)] = &[
    (
        "synonym",
        "Alice lives in Lisbon",
        "Alice is based in Lisbon",
    ),
    ("job", "Alice is a nurse", "Alice works as a nurse"),
    (
        "reorder",
        "Alice's favourite colour is blue",
        "Blue is Alice's favourite colour",
    ),
    (
        "more specific",
        "Alice prefers Rust examples",
        "Alice prefers Rust examples with tests",
    ),
    ("zh synonym", "李喜欢喝绿茶", "李爱喝绿茶"),
    ("zh lives", "李住在北京", "李现居北京"),
];

/// Stores `stored` by a first pass, offers `new` in a second (with the model's
/// `duplicate_of` when given); the chat's active memories after.
async fn offer(lab: &Lab, n: usize, stored: &str, new: &str, duplicate_of: bool) -> Vec<String> {
    offer_all(lab, n, stored, new, duplicate_of)
        .await
        .into_iter()
        .filter(|(_, archived)| !archived)
        .map(|(content, _)| content)
        .collect()
}

/// [`offer`], with every memory of the chat after, oldest first: its wording and whether it
/// is archived (replaced).
async fn offer_all(
    lab: &Lab,
    n: usize,
    stored: &str,
    new: &str,
    duplicate_of: bool,
) -> Vec<(String, bool)> {
    let chat = lab.chat(&format!("telegram:{n}"), false).await;
    lab.say(&chat, "alice", stored).await;
    lab.llm.script([facts(json!([
        {"content": stored, "category": "PROFILE", "supersedes_id": null}
    ]))]);
    lab.pass_chat(&format!("telegram:{n}"), T0).await;
    let id = lab.memories(chat.id, false).await[0].id;
    lab.say(&chat, "alice", new).await;
    let claim = if duplicate_of { json!(id) } else { json!(null) };
    lab.llm.script([facts(json!([
        {"content": new, "category": "PROFILE", "supersedes_id": null, "duplicate_of": claim}
    ]))]);
    lab.pass_chat(&format!("telegram:{n}"), T0 + DAY).await;
    lab.memories(chat.id, true)
        .await
        .into_iter()
        .map(|m| (m.content, m.archived))
        .collect()
}

/// The hard negatives where the newer fact is another value of a relation that holds one:
/// it replaces the older as "remember" would (archived, kept as history), and merges nothing.
const REPLACED: &[&str] = &["number", "time", "zh number"];

#[tokio::test]
async fn hard_negatives_stay_apart_even_when_the_model_says_duplicate() {
    let lab = Lab::new("").await;
    let mut wrong = Vec::new();
    for (i, (kind, stored, new)) in DIFFERENT.iter().enumerate() {
        for claim in [false, true] {
            let all = offer_all(&lab, 100 + 2 * i + usize::from(claim), stored, new, claim).await;
            let expected = [
                (stored.to_string(), REPLACED.contains(kind)),
                (new.to_string(), false),
            ];
            if all != expected {
                wrong.push(format!("{kind} (duplicate_of: {claim}): {all:?}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "merged different facts:\n{}",
        wrong.join("\n")
    );
}

#[tokio::test]
async fn paraphrases_merge_into_the_memory_they_repeat() {
    let lab = Lab::new("").await;
    let mut wrong = Vec::new();
    for (i, (kind, stored, new)) in SAME.iter().enumerate() {
        // the local decision alone, and with the model's word
        for claim in [false, true] {
            let kept = offer_all(&lab, 200 + 2 * i + usize::from(claim), stored, new, claim).await;
            if kept.len() != 1 || kept[0].1 {
                wrong.push(format!("{kind} (duplicate_of: {claim}): {kept:?}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "kept a repeat apart:\n{}",
        wrong.join("\n")
    );
}

#[tokio::test]
async fn a_merge_keeps_the_more_specific_wording_and_shows_in_the_history() {
    let lab = Lab::new("").await;
    let kept = offer(
        &lab,
        300,
        "Alice prefers Rust examples",
        "Alice prefers Rust examples with tests",
        false,
    )
    .await;
    assert_eq!(kept, ["Alice prefers Rust examples with tests"]);
    let chat = lab.chat("telegram:300", false).await;
    let m = &lab.memories(chat.id, false).await[0];
    let history = lab.store.memory_history(m.id).await.unwrap();
    let kinds: Vec<&str> = history.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(kinds, ["created", "reinforced", "reworded"], "{history:?}");
    assert_eq!(
        history[1].content.as_deref(),
        Some("Alice prefers Rust examples with tests")
    );
    assert!(history[1].note.is_some(), "why it is the same fact");
    assert_eq!(
        history[2].content.as_deref(),
        Some("Alice prefers Rust examples"),
        "the wording before"
    );
    assert_eq!(
        m.source_message_ids().len(),
        2,
        "both messages are its sources"
    );
}

/// Facts of one chat stored as an older version (or an import) stored them: straight into the
/// store, no decision on the way, each with when it was last said. Their ids, in order.
async fn stored_as_before(lab: &Lab, chat_id: i64, facts: &[(&str, i64)]) -> Vec<i64> {
    use mneme::base::{Category, MemoryScope, Source};
    use mneme::store::NewMemory;
    let mut ids = Vec::new();
    for (content, seen) in facts {
        ids.push(
            lab.store
                .insert_memory(&NewMemory {
                    scope: MemoryScope::Chat(chat_id),
                    category: Category::Profile,
                    content: content.to_string(),
                    subject: None,
                    confidence: 0.7,
                    source: Source::Reflector,
                    source_message_ids: vec![],
                    created_at: Some(T0),
                    last_seen_at: Some(*seen),
                    archived: false,
                    key: None,
                })
                .await
                .unwrap(),
        );
    }
    ids
}

/// Duplicates that slipped through (written before the decision, or when it was unsure) are
/// merged by the consolidation pass after the sweep: the same decision, recorded in both
/// histories, reversible; a hard negative beside them stays.
#[tokio::test]
async fn consolidation_merges_what_slipped_through_and_can_be_undone() {
    let lab = Lab::new("").await;
    let chat = lab.chat("telegram:400", false).await;
    let ids = stored_as_before(
        &lab,
        chat.id,
        &[
            ("Alice lives in Lisbon", T0),
            ("Alice has a dog named Rex", T0),
            ("Alice is based in Lisbon", T0),
            ("Alice has a cat named Rex", T0),
        ],
    )
    .await;
    let report = lab.pass(T0 + DAY).await;
    assert_eq!(report.consolidated.merged, 1, "{report:?}");
    assert_eq!(report.consolidated.replaced, 0, "{report:?}");
    let active = lab.memories(chat.id, false).await;
    let ids_now: Vec<i64> = active.iter().map(|m| m.id).collect();
    assert_eq!(
        ids_now,
        [ids[0], ids[1], ids[3]],
        "the older survives; dog and cat stay"
    );
    assert!(
        active[0].content.ends_with("in Lisbon"),
        "{:?}",
        active[0].content
    );
    let kept = lab.store.memory_history(ids[0]).await.unwrap();
    let merged = kept.iter().find(|e| e.kind == "merged").expect("recorded");
    assert_eq!(merged.other_id, Some(ids[2]));
    assert!(
        merged
            .note
            .as_deref()
            .unwrap()
            .starts_with("consolidated: ")
    );
    let gone = lab.store.memory_history(ids[2]).await.unwrap();
    assert!(
        gone.iter()
            .any(|e| e.kind == "merged_into" && e.other_id == Some(ids[0]))
    );
    assert!(gone.iter().any(|e| e.kind == "archived"));
    // each memory is compared once
    assert_eq!(
        lab.pass(T0 + 2 * DAY).await.consolidated,
        Default::default()
    );
    // reversible
    assert!(lab.store.unarchive_memory(ids[2]).await.unwrap());
    assert_eq!(lab.contents(chat.id).await.len(), 4);
}

/// Facts stored before a rule could read them, as an older version stored them — a newer value
/// beside the older, a state beside the event that ended it — are found by the consolidation
/// pass, even above a mark an older build set: the one said earlier is superseded by the one
/// said later, whichever was stored first, and its history says by which and why. Two
/// different facts stay; the pass compares each memory once under these rules; it can be
/// undone.
#[tokio::test]
async fn consolidation_replaces_what_a_fact_said_since_replaces_under_new_rules() {
    const HOUR: i64 = 60 * support::reflector::MIN;
    let lab = Lab::new("").await;
    let chat = lab.chat("telegram:401", false).await;
    let scope = mneme::base::MemoryScope::Chat(chat.id);
    let ids = stored_as_before(
        &lab,
        chat.id,
        &[
            ("User is single", T0),
            ("User got married last month", T0 + HOUR),
            // stored first, said last
            ("User works at Netflix", T0 + 2 * HOUR),
            ("User works at Spotify", T0 + HOUR),
            ("Alice has a dog named Rex", T0),
            ("Alice has a cat named Rex", T0 + HOUR),
        ],
    )
    .await;
    let [single, married, netflix, spotify, dog, cat] = ids[..] else {
        unreachable!()
    };
    // an older build had compared them all, under its rules
    lab.store
        .set_consolidated_up_to(scope, cat, "an older build's rules")
        .await
        .unwrap();
    let report = lab.pass(T0 + DAY).await;
    assert_eq!(report.consolidated.replaced, 2, "{report:?}");
    assert_eq!(report.consolidated.merged, 0, "{report:?}");
    let active: Vec<i64> = lab
        .memories(chat.id, false)
        .await
        .iter()
        .map(|m| m.id)
        .collect();
    assert_eq!(active, [married, netflix, dog, cat]);
    for (old, by, change) in [
        (single, married, "a newer value (single → "),
        (spotify, netflix, "a newer value (Spotify → Netflix)"),
    ] {
        let history = lab.store.memory_history(old).await.unwrap();
        let event = history
            .iter()
            .find(|e| e.kind == "superseded")
            .unwrap_or_else(|| panic!("#{old} superseded: {history:?}"));
        assert_eq!(event.other_id, Some(by));
        let note = event.note.as_deref().unwrap_or_default();
        assert!(
            note.starts_with(&format!("consolidated: {change}")),
            "{note:?}"
        );
    }
    // each memory compared once under these rules
    assert_eq!(
        lab.pass(T0 + 2 * DAY).await.consolidated,
        Default::default()
    );
    // reversible
    assert!(lab.store.unarchive_memory(spotify).await.unwrap());
    assert_eq!(lab.contents(chat.id).await.len(), 5);
}
