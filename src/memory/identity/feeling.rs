//! One feeling said from what causes it or from who feels it: "Spiders scare me" is "I am
//! scared of spiders", "Thunderstorms frighten my cat" "my cat is frightened of thunderstorms",
//! "Peanuts give me an allergic reaction" "I am allergic to peanuts", 青霉素会让我过敏 我对青霉素
//! 过敏. The cause's side is said by who feels it and the pair is read again, so who feels what
//! is still checked ("I scare spiders" is no fear of spiders).
//!
//! Precision first: one clause, the cause a few words opening it, who feels it one word or
//! whose and a noun right after the verb, nothing after but a time.

use super::referent::{One, the_one_named};
use crate::memory::text::{ending_as, unpunctuated, words_lowered};

/// A verb whose subject causes the feeling, and the adjective and preposition of who feels
/// it: "scares" → "scared of".
const FEELINGS: &[(&str, &str)] = &[
    ("scare", "scared of"),
    ("frighten", "frightened of"),
    ("terrify", "terrified of"),
    ("worry", "worried about"),
    ("bore", "bored by"),
    ("annoy", "annoyed by"),
    ("bother", "bothered by"),
    ("interest", "interested in"),
    ("fascinate", "fascinated by"),
    ("excite", "excited about"),
    ("amuse", "amused by"),
    ("disgust", "disgusted by"),
];

/// Who feels it in one word, and how "be" goes with it.
const FEELERS: &[(&str, &str, &str)] = &[
    ("me", "I", "am"),
    ("him", "he", "is"),
    ("her", "she", "is"),
    ("us", "we", "are"),
    ("them", "they", "are"),
    ("you", "you", "are"),
];

/// Words that are nobody feeling anything.
const NO_FEELER: &[&str] = &[
    "is", "am", "are", "was", "were", "has", "have", "had", "to", "in", "on", "at", "for", "of",
    "with", "and", "or", "but", "not", "very", "so", "that", "this", "it", "easily", "off", "out",
    "away", "up",
];

/// Words after who feels it that say when, not what.
const WHEN: &[&str] = &[
    "a",
    "lot",
    "every",
    "each",
    "sometimes",
    "always",
    "often",
    "still",
    "now",
    "at",
    "night",
    "in",
    "the",
    "when",
    "since",
    "as",
    "child",
    "kid",
];

/// `text` said by who feels it; `other`, the other side of the pair, tells whether the word
/// opening the cause is a name or only capitalised as the sentence's first ("Spiders scare
/// me" / "I'm scared of spiders").
pub(super) fn felt(text: &str, other: &str) -> Option<String> {
    if text.contains(['让', '使', '令']) {
        return zh(text);
    }
    // cheap first: most facts name no feeling caused
    const VERBS: &[&str] = &[
        "scar", "fright", "terrif", "worr", "bor", "annoy", "bother", "interest", "fascinat",
        "excit", "amus", "disgust", "giv", "gave",
    ];
    if !VERBS.iter().any(|v| text.contains(v)) {
        return None;
    }
    let (words, lower) = words_lowered(text);
    if words.len() < 3 || words.iter().any(|w| w.contains([',', ';'])) {
        return None;
    }
    // the cause opens the clause, one to three words, then the verb
    let (v, feeling, past) = (1..words.len().min(4)).find_map(|i| feeling_of(&lower[i], i))?;
    // "I scare spiders" is said too ("spiders are scared of me"), so that it is no fear of
    // spiders; "User is scared", "I'm scared": the adjective, nothing to say again
    let cause = &words[..v];
    if cause.iter().zip(&lower).any(|(w, l)| {
        matches!(
            l.as_str(),
            "is" | "am"
                | "are"
                | "was"
                | "were"
                | "be"
                | "been"
                | "get"
                | "gets"
                | "got"
                | "feel"
                | "feels"
                | "felt"
                | "seem"
                | "seems"
                | "look"
                | "looks"
                | "not"
        ) || l.ends_with("'m")
            || l.ends_with("'re")
            || matches!(l.as_str(), "he's" | "she's" | "it's" | "that's")
            || w.contains('’')
    }) {
        return None;
    }
    let (feeler, be, after) = feeler(&words, &lower, v + 1, past, &feeling)?;
    let rest = &words[after..];
    if rest
        .iter()
        .any(|w| !WHEN.contains(&unpunctuated(w).to_lowercase().as_str()))
    {
        return None;
    }
    let named = the_one_named(&words);
    let mut out = feeler;
    out.push(be.to_string());
    out.push(feeling);
    let cause: Vec<String> = cause
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let w = unpunctuated(w);
            let lower = w.to_lowercase();
            let common = other
                .split_whitespace()
                .any(|o| unpunctuated(o) == lower.as_str());
            let determiner = matches!(
                lower.as_str(),
                "the" | "my" | "his" | "her" | "our" | "their" | "your"
            );
            if i == 0 && (determiner || common) {
                lower
            } else {
                w.to_string()
            }
        })
        .collect();
    let cause: Vec<&str> = cause.iter().map(String::as_str).collect();
    out.extend(One::beside(named.as_deref(), &[]).span(&cause, false));
    out.extend(rest.iter().map(|w| w.to_string()));
    Some(ending_as(out, text))
}

/// The feeling a verb at `i` causes, said by who feels it ("scared of", or "allergic to" for
/// "give(s) … an allergic reaction"), and whether it is said in the past.
fn feeling_of(w: &str, i: usize) -> Option<(usize, String, bool)> {
    if matches!(w, "give" | "gives" | "gave") {
        return Some((i, "allergic to".into(), w == "gave"));
    }
    FEELINGS.iter().find_map(|(base, felt)| {
        let stem = base.strip_suffix(['e', 'y']).unwrap_or(base);
        // "worries", "worried"; "annoys", "annoyed"
        let consonant_y = base.ends_with('y') && !stem.ends_with(['a', 'e', 'o', 'u']);
        let (present, past) = if consonant_y {
            (
                [format!("{stem}ies"), base.to_string()],
                format!("{stem}ied"),
            )
        } else if base.ends_with('e') {
            ([format!("{base}s"), base.to_string()], format!("{base}d"))
        } else {
            ([format!("{base}s"), base.to_string()], format!("{base}ed"))
        };
        if present.iter().any(|p| p == w) {
            Some((i, felt.to_string(), false))
        } else if w == past {
            Some((i, felt.to_string(), true))
        } else {
            None
        }
    })
}

/// Who feels it, from `at`: the words as a subject, the form of "be", and where the rest
/// begins. After "give(s)", "an allergic reaction" (or "allergies") must follow.
fn feeler(
    words: &[&str],
    lower: &[String],
    at: usize,
    past: bool,
    feeling: &str,
) -> Option<(Vec<String>, &'static str, usize)> {
    let first = lower.get(at)?;
    let (who, be, next): (Vec<String>, &str, usize) =
        if let Some((_, subject, be)) = FEELERS.iter().find(|(o, _, _)| o == first) {
            (vec![subject.to_string()], be, at + 1)
        } else if matches!(
            first.as_str(),
            "my" | "his" | "her" | "our" | "their" | "your" | "the" | "a" | "an"
        ) || first.ends_with("'s")
        {
            let noun = unpunctuated(words.get(at + 1)?);
            (vec![first.clone(), noun.to_string()], "is", at + 2)
        } else if first.chars().all(char::is_alphabetic) && !NO_FEELER.contains(&first.as_str()) {
            // a name, "User", "spiders"
            (vec![unpunctuated(words[at]).to_string()], "is", at + 1)
        } else {
            return None;
        };
    let be = match (past, be) {
        (false, be) => be,
        (true, "are") => "were",
        (true, _) => "was",
    };
    if feeling != "allergic to" {
        return Some((who, be, next));
    }
    // "gives me an allergic reaction", "gives me allergies"
    let said = |ws: &[&str]| {
        ws.iter()
            .enumerate()
            .all(|(k, w)| lower.get(next + k).is_some_and(|l| l == w))
    };
    for phrase in [
        &["an", "allergic", "reaction"][..],
        &["allergies"],
        &["an", "allergy"],
    ] {
        if said(phrase) {
            return Some((who, be, next + phrase.len()));
        }
    }
    None
}

/// 青霉素会让我过敏 → 我对青霉素过敏; 蜘蛛让我害怕 → 我害怕蜘蛛.
fn zh(text: &str) -> Option<String> {
    let text = text.trim_end_matches(['。', '！', '.', '!']);
    if text.contains(['，', ',']) {
        return None;
    }
    let (cause, after) = text
        .split_once('让')
        .or_else(|| text.split_once('使'))
        .or_else(|| text.split_once('令'))?;
    let cause = cause.strip_suffix('会').unwrap_or(cause);
    let (who, felt) = ["过敏", "害怕"]
        .iter()
        .find_map(|f| after.strip_suffix(f).map(|w| (w, *f)))?;
    let who = who.strip_suffix('很').unwrap_or(who);
    if cause.is_empty() || who.is_empty() || who.chars().count() > 4 || cause.chars().count() > 6 {
        return None;
    }
    Some(if felt == "过敏" {
        format!("{who}对{cause}过敏")
    } else {
        format!("{who}害怕{cause}")
    })
}

#[cfg(test)]
mod tests {
    use super::super::trial_tests::one_fact;
    use super::super::trial17_tests::never_one_nor_claimed;
    use super::felt;

    #[test]
    fn a_feeling_said_from_its_cause_is_said_by_who_feels_it() {
        for (cause, feeler) in [
            ("Spiders scare me", "I am scared of spiders"),
            (
                "Thunderstorms frighten my cat.",
                "my cat is frightened of thunderstorms.",
            ),
            (
                "Peanuts give me an allergic reaction",
                "I am allergic to peanuts",
            ),
            ("Politics bores User", "User is bored by politics"),
            ("Tom annoys me", "I am annoyed by Tom"),
            ("Money worries User", "User is worried about money"),
            ("I scare my sister", "my sister is scared of me"),
            ("I scare spiders", "spiders is scared of me"),
            (
                "Dogs scared her as a child",
                "she was scared of dogs as a child",
            ),
            ("青霉素会让我过敏", "我对青霉素过敏"),
            ("蜘蛛让我很害怕", "我害怕蜘蛛"),
        ] {
            assert_eq!(felt(cause, feeler).as_deref(), Some(feeler), "{cause}");
        }
    }

    #[test]
    fn what_is_no_single_feeling_stays() {
        for said in [
            "User gives me a ride",
            "Spiders scare me and my sister",
            "My boss gives me a headache",
            "The movie that scared me was Alien",
            "用户让我帮忙",
            "User is scared of spiders",
            "I'm scared of spiders",
            "User's interest is art",
            "I scare easily",
        ] {
            assert_eq!(felt(said, ""), None, "{said}");
        }
    }

    #[test]
    fn one_feeling_from_either_side_is_one_fact() {
        one_fact(&[
            ("I'm scared of spiders", "Spiders scare me"),
            (
                "My cat is afraid of thunderstorms",
                "Thunderstorms scare my cat",
            ),
            (
                "I'm allergic to peanuts",
                "Peanuts give me an allergic reaction",
            ),
            ("我对青霉素过敏", "青霉素会让我过敏"),
        ]);
        never_one_nor_claimed(&[
            ("I'm scared of spiders", "I scare spiders"),
            (
                "My cat is afraid of thunderstorms",
                "Thunderstorms scare my dog",
            ),
            (
                "I'm allergic to peanuts",
                "Shellfish give me an allergic reaction",
            ),
            ("我对青霉素过敏", "青霉素会让我妈妈过敏"),
        ]);
    }
}
