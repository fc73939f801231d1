//! What a newer fact replaces (`memories::same_fact::replaced`, the decision "remember …" and
//! `memory_store` take) over the labelled pairs of `tests/data/value_changes.jsonl`: an older
//! fact and a newer one that gives another value, labelled `replaces` where the older has
//! stopped being true (moved, a new employer, a year older, a new favourite, a corrected name)
//! and `both` where both can hold (likes tea / likes coffee, visited Japan / Korea, a second
//! sister). A fact replaced wrongly drops out of every prompt, so precision comes first: every
//! `both` pair replaced is named below, and no other may be. `cargo bench --bench
//! dedup_quality` prints the same figures by language.

use std::path::Path;

use mneme::memories::same_fact::replaced;
use mneme::memory::identity::Reading;
use mneme::memory::identity::memo::Memo;
use mneme::memory::remember;

struct Pair {
    old: String,
    new: String,
    replaces: bool,
}

fn pairs() -> Vec<Pair> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/value_changes.jsonl");
    // what is stored of a "remember …" is what follows it, as the fast path stores it
    let content = |t: &str| remember::parse(t).map_or_else(|| t.to_string(), |r| r.content);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value =
                serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}"));
            Pair {
                old: content(v["old"].as_str().expect("old")),
                new: content(v["new"].as_str().expect("new")),
                replaces: match v["label"].as_str().expect("label") {
                    "replaces" => true,
                    "both" => false,
                    other => panic!("unknown label {other}"),
                },
            }
        })
        .collect()
}

fn replaces(p: &Pair) -> bool {
    let old = Reading::new(&p.old);
    !replaced(&Reading::new(&p.new), [(1, p.old.as_str(), &old)]).is_empty()
}

/// Pairs labelled `both` that are replaced all the same, each with why it is accepted (none
/// since "… works at a private clinic" no longer replaces "… at St Mary's Hospital": a
/// description may fit the named value).
/// Replacements known to be wrong, each with why it is not read yet.
const KNOWN_WRONG: &[(&str, &str)] = &[
    // a district of the city: telling it from a move to another city takes knowing where
    // Kreuzberg is, which no rule of words does (the eleventh set)
    ("User lives in Berlin", "I live in Kreuzberg"),
    // Douyin is one of ByteDance's apps: the same employer, which takes knowing so (the
    // twelfth set)
    ("用户在字节跳动工作。", "我在抖音那边上班，做推荐算法。"),
];

#[test]
fn a_newer_value_replaces_only_where_both_cannot_hold() {
    let pairs = pairs();
    let (mut tp, mut fp, mut fn_) = (0, 0, 0);
    let mut wrong = Vec::new();
    for p in &pairs {
        match (p.replaces, replaces(p)) {
            (true, true) => tp += 1,
            (false, true) => {
                fp += 1;
                if !KNOWN_WRONG.contains(&(p.old.as_str(), p.new.as_str())) {
                    wrong.push(format!("{} → {}", p.old, p.new));
                }
            }
            (true, false) => fn_ += 1,
            (false, false) => {}
        }
    }
    let precision = tp as f64 / (tp + fp) as f64;
    let recall = tp as f64 / (tp + fn_) as f64;
    println!(
        "{} pairs: {tp} replaced rightly, {fp} wrongly, {fn_} missed; precision {precision:.3}, recall {recall:.3}",
        pairs.len()
    );
    assert!(wrong.is_empty(), "replaced where both hold: {wrong:#?}");
    assert!(fp <= KNOWN_WRONG.len());
    // a floor, so that a change that stops finding changes is seen (0.512 when written, 0.429
    // with the sixth and seventh testers' sets, 0.440 with the eighth's after its fixes,
    // 0.408 with the ninth's, written as chat — "got a new phone, it's a Pixel 8", "switched
    // dentists, I go to Dr. Ramos now" — 14 of whose 150 changes are read: most of the testers'
    // replacements are said another way, which same words around another value cannot find;
    // 0.381 with the tenth's, 15 of whose 150 are read, most of the rest said another way;
    // 0.365 with the eleventh's, 14 of 150 read, and a look-alike check's 50, 16 read; 0.346
    // with the twelfth's, 4 of whose 120 are read; 0.414 with states ended by the event that
    // changed them, habits stopped, ranks, values said with a verb of change, "instead of")
    assert!(recall >= 0.39, "recall {recall:.3}");
}

/// The readings a pass keeps of each text (`Memo`) change no decision: every pair judged
/// inside one memo, where most texts come again, as outside it.
#[test]
fn readings_kept_across_pairs_change_no_decision() {
    let pairs = pairs();
    let fresh: Vec<bool> = pairs.iter().map(replaces).collect();
    let mut memo = Memo::default();
    // twice: the second time every reading is one kept from the first
    for _ in 0..2 {
        let kept: Vec<bool> = memo.within(|| pairs.iter().map(replaces).collect());
        assert_eq!(kept, fresh);
    }
}

/// A fact said twice, or said with more detail, is the same fact (merged elsewhere), never
/// one that replaces the other.
#[test]
fn the_same_fact_or_a_more_specific_one_replaces_nothing() {
    for (old, new) in [
        ("I live in Tokyo", "I live in Tokyo"),
        ("User lives in Tokyo", "User lives in Tokyo, Japan"),
        ("我住在广州", "我住在广州天河区"),
        (
            "User works at Google",
            "User works at Google as an engineer",
        ),
        (
            "User's favourite colour is blue",
            "User's favourite colour is blue",
        ),
    ] {
        let p = Pair {
            old: old.into(),
            new: new.into(),
            replaces: false,
        };
        assert!(!replaces(&p), "{old} → {new}");
    }
}
