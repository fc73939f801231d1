//! What a sentence put first that it may say last: when, where or on what condition ("After
//! work User goes to the gym" is "User goes to the gym after work", "Whenever it snows, User
//! takes the bus" "User takes the bus whenever it snows", 每个周末用户都去爬山 用户每个周末都去爬山),
//! and whose thing said with "of" ("The husband of User's manager is a chef" is "User's
//! manager's husband is a chef"). The side that puts it first is written with it in its
//! place, and the pair is read again.
//!
//! Precision first: the fronted part ends at a comma or right before who the sentence is
//! about (a pronoun, "User", a name, or whose and a noun), and opens with a word that says
//! when, where or on what condition.

use super::referent::WHOSE;
use crate::memory::text::{ending_as, unpunctuated, words_lowered};

/// Words opening a part that says when, where or on what condition.
const OPENERS: &[&str] = &[
    "after", "before", "during", "in", "on", "at", "since", "when", "whenever", "if", "every",
    "each", "last", "next", "this", "most", "until", "once",
];

/// Who a sentence may be about, right after its fronted part.
const SUBJECTS: &[&str] = &["i", "we", "he", "she", "they", "you", "user"];

/// Chinese words saying when, which may open a sentence before who it is about.
const ZH_WHEN: &[&str] = &[
    "每个周末",
    "每周末",
    "周末",
    "每天早上",
    "每天晚上",
    "每天",
    "每晚",
    "每周",
    "每个月",
    "每月",
    "每年",
    "去年",
    "今年",
    "明年",
    "上周",
    "下周",
    "上个月",
    "下个月",
    "昨天",
    "今天",
    "明天",
    "平时",
    "最近",
];
/// What may follow all of who a Chinese sentence is about: an adverb or a verb.
const ZH_AFTER_WHO: &str =
    "都会去在要喜常经总也还不没就又才已能想爱吃喝打跑练上做看读学睡起听玩写开坐骑游买";
/// Who a Chinese sentence may be about.
const ZH_WHO: &[&str] = &["用户", "我们", "我", "他", "她"];

/// `text` with what it put first in its place, when it put something first; else `None`.
pub(super) fn in_place(text: &str) -> Option<String> {
    super::memo::cached("fronted::in_place", text, in_place_fresh)
}

fn in_place_fresh(text: &str) -> Option<String> {
    if text.chars().any(super::is_cjk) {
        return zh(text);
    }
    of_whose(text).or_else(|| en(text))
}

fn en(text: &str) -> Option<String> {
    let (words, lower) = words_lowered(text);
    if !OPENERS.contains(&lower.first()?.as_str()) || words.len() < 4 {
        return None;
    }
    // the fronted part ends at its comma, or right before who the sentence is about
    let comma = words.iter().position(|w| w.ends_with(','));
    let end = match comma {
        Some(c) => c + 1,
        None => (1..words.len().min(5)).find(|&i| {
            let w = lower[i].as_str();
            SUBJECTS.contains(&w)
                || WHOSE.contains(&w)
                || w.ends_with("'s")
                || words[i].starts_with(|c: char| c.is_uppercase()) && i > 1
        })?,
    };
    // "This is my car": no part fronted, a verb in it ("When I was 12, …" says where it ends)
    if !(2..=6).contains(&end)
        || end >= words.len() - 1
        || comma.is_none()
            && lower[..end]
                .iter()
                .any(|w| matches!(w.as_str(), "is" | "are" | "was" | "were" | "am" | "'s"))
    {
        return None;
    }
    // the rest is one clause with who it is about first
    let rest_lower = &lower[end..];
    let who = rest_lower[0].as_str();
    let about = SUBJECTS.contains(&who)
        || WHOSE.contains(&who)
        || who.ends_with("'s")
        || words[end].starts_with(|c: char| c.is_uppercase());
    if !about || words[end..].iter().any(|w| w.contains(',')) {
        return None;
    }
    let mut out: Vec<String> = words[end..]
        .iter()
        .map(|w| unpunctuated(w).to_string())
        .collect();
    // "In Rome I met my wife" → "I met my wife in Rome": the opening capital is no name
    let first = lower[0].clone();
    out.push(first);
    out.extend(words[1..end].iter().map(|w| unpunctuated(w).to_string()));
    Some(ending_as(out, text))
}

/// "The husband of User's manager is a chef" → "User's manager's husband is a chef".
fn of_whose(text: &str) -> Option<String> {
    let (words, lower) = words_lowered(text);
    if lower.first()? != "the" {
        return None;
    }
    let of = lower.iter().position(|w| w == "of")?;
    let is = lower
        .iter()
        .position(|w| matches!(w.as_str(), "is" | "are" | "was" | "were"))?;
    // one noun, then whose it is (a name or someone's someone), then the verb
    if of != 2 || is <= of + 1 || is > of + 5 {
        return None;
    }
    let owner = &words[of + 1..is];
    let last = owner.last()?;
    let named = owner.iter().any(|w| w.ends_with("'s"))
        || owner.len() == 1 && last.starts_with(|c: char| c.is_uppercase());
    if !named || owner.iter().any(|w| w.contains(',')) || last.ends_with("'s") {
        return None;
    }
    let mut out: Vec<String> = owner.iter().map(|w| w.to_string()).collect();
    let l = out.len() - 1;
    out[l] = format!("{}'s", out[l]);
    out.push(words[1].to_string());
    out.extend(words[is..].iter().map(|w| w.to_string()));
    Some(out.join(" "))
}

fn zh(text: &str) -> Option<String> {
    let when = ZH_WHEN.iter().find(|w| text.starts_with(**w))?;
    let rest = &text[when.len()..];
    let who = ZH_WHO.iter().find(|w| rest.starts_with(**w))?;
    let after = &rest[who.len()..];
    // who is all of the subject: an adverb or a verb follows (周末我老婆去游泳 is about 我老婆)
    if after.chars().count() < 2 || !after.starts_with(|c: char| ZH_AFTER_WHO.contains(c)) {
        return None;
    }
    Some(format!("{who}{when}{after}"))
}

#[cfg(test)]
mod tests {
    use super::super::trial_tests::one_fact;
    use super::super::trial17_tests::never_one_nor_claimed;
    use super::in_place;

    #[test]
    fn what_is_put_first_is_written_in_its_place() {
        for (said, placed) in [
            (
                "After work User goes to the gym",
                "User goes to the gym after work",
            ),
            ("In Rome I met my wife.", "I met my wife in Rome."),
            (
                "Whenever it snows, User takes the bus",
                "User takes the bus whenever it snows",
            ),
            ("每个周末用户都去爬山", "用户每个周末都去爬山"),
            (
                "The husband of User's manager is a chef",
                "User's manager's husband is a chef",
            ),
            (
                "The dog of User's wife's friend is a beagle",
                "User's wife's friend's dog is a beagle",
            ),
        ] {
            assert_eq!(in_place(said).as_deref(), Some(placed), "{said}");
        }
        for said in [
            "User goes to the gym after work",
            "In March",
            "用户每个周末都去爬山",
            "The husband of the manager is a chef",
            "This is my car",
            "Most people like tea",
        ] {
            assert_eq!(in_place(said), None, "{said}");
        }
    }

    #[test]
    fn what_is_put_first_is_one_fact_with_it_in_its_place() {
        one_fact(&[
            (
                "After work User goes to the gym",
                "User goes to the gym after work",
            ),
            ("I met my wife in Rome", "In Rome I met my wife"),
            (
                "I moved to Canada when I was 12",
                "When I was 12, I moved to Canada",
            ),
            (
                "User takes the bus when it snows",
                "Whenever it snows, User takes the bus",
            ),
            ("用户每周末去爬山", "每个周末用户都去爬山"),
            (
                "User's manager's husband is a chef",
                "The husband of User's manager is a chef",
            ),
        ]);
        never_one_nor_claimed(&[
            ("In Rome I met my wife", "I met my wife in Paris"),
            (
                "After work User goes to the gym",
                "User goes to the gym before work",
            ),
            (
                "The husband of User's manager is a chef",
                "User's husband is a chef",
            ),
            ("每个周末用户都去爬山", "每个周末他都去爬山"),
        ]);
    }
}
