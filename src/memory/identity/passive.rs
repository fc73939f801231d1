//! The passive with its doer after "by", said as the active: "I was raised by my
//! grandmother" is "my grandmother raised me", "User's son was bitten by a dog last week" "a
//! dog bit User's son last week", "The user is taught Spanish by Maria" "Maria teaches the
//! user Spanish". The reading weighs who is the subject and who the object, so the two voices
//! of one fact read as roles swapped; written in the active, the pair is read again, and what
//! the roles say is still checked ("my grandmother raised me" is not "I raised my
//! grandmother").
//!
//! Precision first: one clause, a form of "be" or "get" right before the participle, the
//! subject from the clause's start, the doer a few words after "by" that are someone or
//! something (not a place — "born by the sea", "parked by the door" —, a deadline — "by
//! Friday" —, or a means — "by email").

use crate::memory::text::{ending_as, unpunctuated, words_lowered};

/// Participles that are no deed done by someone after "by": "born by the sea", "located by
/// the river", "left by the door", "stopped by".
const NOT_DONE_BY: &[&str] = &[
    "born",
    "located",
    "situated",
    "placed",
    "parked",
    "seated",
    "left",
    "stopped",
    "passed",
    "surrounded",
    "followed",
    "accompanied",
    "caused",
    "based",
    "inspired",
    "known",
    "paid",
];

/// Words that end the doer after "by": what follows says when, where or how.
const AFTER_THE_DOER: &[&str] = &[
    "in",
    "at",
    "on",
    "from",
    "for",
    "to",
    "with",
    "last",
    "this",
    "next",
    "every",
    "each",
    "yesterday",
    "today",
    "when",
    "while",
    "because",
    "ago",
    "since",
    "before",
    "after",
    "during",
    "but",
    "so",
    "twice",
    "once",
];

/// Words opening a "by" phrase that is no doer: a deadline (or a month, `lex::MONTHS`), a
/// means, a measure.
const NO_DOER: &[&str] = &[
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "tomorrow",
    "tonight",
    "then",
    "now",
    "noon",
    "midnight",
    "car",
    "bus",
    "train",
    "plane",
    "boat",
    "bike",
    "taxi",
    "email",
    "phone",
    "mail",
    "post",
    "hand",
    "text",
    "far",
    "accident",
    "mistake",
    "chance",
    "default",
    "myself",
    "himself",
    "herself",
    "themselves",
    "itself",
    "ourselves",
    "yourself",
    "end",
    "law",
];

/// Irregular verbs: the participle, the past, the base.
const IRREGULAR: &[(&str, &str, &str)] = &[
    ("taught", "taught", "teach"),
    ("bitten", "bit", "bite"),
    ("written", "wrote", "write"),
    ("given", "gave", "give"),
    ("taken", "took", "take"),
    ("shown", "showed", "show"),
    ("driven", "drove", "drive"),
    ("eaten", "ate", "eat"),
    ("beaten", "beat", "beat"),
    ("chosen", "chose", "choose"),
    ("spoken", "spoke", "speak"),
    ("stolen", "stole", "steal"),
    ("broken", "broke", "break"),
    ("forgotten", "forgot", "forget"),
    ("seen", "saw", "see"),
    ("done", "did", "do"),
    ("made", "made", "make"),
    ("built", "built", "build"),
    ("bought", "bought", "buy"),
    ("brought", "brought", "bring"),
    ("caught", "caught", "catch"),
    ("found", "found", "find"),
    ("held", "held", "hold"),
    ("kept", "kept", "keep"),
    ("lost", "lost", "lose"),
    ("sold", "sold", "sell"),
    ("sent", "sent", "send"),
    ("told", "told", "tell"),
    ("won", "won", "win"),
    ("hit", "hit", "hit"),
    ("hurt", "hurt", "hurt"),
    ("cut", "cut", "cut"),
    ("fed", "fed", "feed"),
    ("led", "led", "lead"),
    ("met", "met", "meet"),
    ("read", "read", "read"),
    ("sung", "sang", "sing"),
    ("drawn", "drew", "draw"),
    ("thrown", "threw", "throw"),
    ("grown", "grew", "grow"),
    ("ridden", "rode", "ride"),
    ("hidden", "hid", "hide"),
    ("shot", "shot", "shoot"),
    ("struck", "struck", "strike"),
    ("stung", "stung", "sting"),
    ("brought up", "brought up", "bring up"),
    ("owed", "owed", "owe"),
];

/// Subject pronouns and their object forms.
const PRONOUNS: &[(&str, &str)] = &[
    ("i", "me"),
    ("he", "him"),
    ("she", "her"),
    ("we", "us"),
    ("they", "them"),
];

/// `text` said in the active when it is one clause in the passive with its doer after "by"
/// ("I was raised by my grandmother" → "my grandmother raised me"); else `None`.
pub(super) fn as_active(text: &str) -> Option<String> {
    // cheap first: most facts have no "by"
    if !text.contains(" by ") {
        return None;
    }
    let (words, lower) = words_lowered(text);
    let by = lower.iter().position(|w| w == "by")?;
    // one clause: no comma or second "by" to tell which part is which
    if words.iter().any(|w| w.contains([',', ';'])) || lower[by + 1..].iter().any(|w| w == "by") {
        return None;
    }
    // "was raised", "is taught", "got hired": be or get, the participle right after
    let be = (1..by).rev().find(|&i| {
        matches!(
            lower[i - 1].as_str(),
            "is" | "are" | "was" | "were" | "am" | "got" | "gets" | "get"
        ) && participle(&lower[i]).is_some()
    })?;
    let aux = be - 1;
    let part = lower[be].as_str();
    if NOT_DONE_BY.contains(&part) {
        return None;
    }
    let (past, base) = participle(part)?;
    // the doer: after "by", up to what says when, where or how
    let doer_end = (by + 1..words.len())
        .find(|&i| AFTER_THE_DOER.contains(&lower[i].as_str()))
        .unwrap_or(words.len());
    let doer = &words[by + 1..doer_end];
    let head = lower.get(by + 1)?;
    if doer.is_empty()
        || doer.len() > 4
        || NO_DOER.contains(&head.as_str())
        || super::lex::MONTHS.contains(&head.as_str())
        || head.chars().next().is_some_and(|c| c.is_ascii_digit())
    {
        return None;
    }
    // the subject: the clause's start up to the verb
    if aux == 0 {
        return None;
    }
    let subject = &words[..aux];
    let middle = &words[be + 1..by];
    let rest = &words[doer_end..];
    let present = matches!(lower[aux].as_str(), "is" | "are" | "am" | "gets" | "get");
    // "User and his sister co-own", "we adopted": the verb of several doers, or of I
    let plural_doer = doer.iter().any(|w| w.eq_ignore_ascii_case("and"))
        || doer.len() == 1
            && PRONOUNS.iter().any(|(s, o)| {
                matches!(*s, "we" | "they" | "i")
                    && (doer[0].eq_ignore_ascii_case(s) || doer[0].eq_ignore_ascii_case(o))
            });
    let verb = if present {
        if plural_doer {
            base.to_string()
        } else {
            third_person(&base)
        }
    } else {
        past.to_string()
    };
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    out.extend(doer.iter().map(|w| as_subject(unpunctuated(w))));
    out.push(verb);
    // the subject's opening word, moved inside the sentence, loses the capital a sentence's
    // start gave it ("The cake" → "the cake"); a name keeps its own
    out.extend(subject.iter().enumerate().map(|(i, w)| {
        let determiner = matches!(
            w.to_lowercase().as_str(),
            "the"
                | "a"
                | "an"
                | "my"
                | "our"
                | "his"
                | "her"
                | "their"
                | "your"
                | "its"
                | "this"
                | "that"
        );
        if i == 0 && determiner {
            w.to_lowercase()
        } else {
            as_object(w)
        }
    }));
    out.extend(middle.iter().map(|w| w.to_string()));
    out.extend(rest.iter().map(|w| w.to_string()));
    // the last word keeps the sentence's end
    Some(ending_as(out, text))
}

/// Words for when that open or close a Chinese clause: 上周被狗咬了 / 上周一只狗咬了.
const ZH_WHEN: &[&str] = &[
    "上周末",
    "上个月",
    "上周",
    "昨天",
    "前天",
    "今天",
    "去年",
    "今年",
    "前年",
    "刚才",
    "最近",
    "小时候",
    "上次",
];

/// A measure word with 一 before a doer, saying no more than "a": 一只狗, 一个人.
const ZH_A: &[&str] = &["一只", "一条", "一个", "一位", "一家", "一名", "一头"];

/// The pair with a Chinese passive with 被 and its doer written in the active, when the other
/// side is that active: 用户的狗被邻居家的猫抓伤了 / 邻居家的猫抓伤了用户的狗, 用户被字节跳动录用了
/// / 字节跳动录用了用户, 用户的儿子上周被狗咬了 / 上周一只狗咬了用户的儿子. Chinese has no spaces to
/// tell the doer from the verb, so each way of cutting them is tried against the other side,
/// and only a match is written; else `None`.
pub(super) fn zh_in_the_active(a: &str, b: &str) -> Option<(String, String)> {
    if let Some((active, other)) = zh_active_as(a, b) {
        return Some((active, other));
    }
    zh_active_as(b, a).map(|(active, other)| (other, active))
}

/// `passive` in the active, and `active` without the 一只 before its doer, when the two say
/// one deed.
fn zh_active_as(passive: &str, active: &str) -> Option<(String, String)> {
    let end = ['。', '！', '.', '!'];
    let (passive, active) = (passive.trim_end_matches(end), active.trim_end_matches(end));
    let (done_to, rest) = passive.split_once('被')?;
    if done_to.is_empty() || rest.contains('被') || active.contains('被') {
        return None;
    }
    // the time the passive's subject is followed by opens the active
    let (when, done_to) = ZH_WHEN
        .iter()
        .find_map(|w| done_to.strip_suffix(w).map(|d| (*w, d)))
        .unwrap_or(("", done_to));
    let other = active.strip_prefix(when)?;
    let other = ZH_A
        .iter()
        .find_map(|a| other.strip_prefix(a))
        .unwrap_or(other);
    // doer + verb (rest) + the one it is done to
    let deed = other.strip_suffix(done_to)?;
    (deed == rest && done_to.chars().count() <= 8)
        .then(|| (format!("{when}{rest}{done_to}"), format!("{when}{other}")))
}

/// The past and the base of a participle (`raised` → raised, raise), when it is one.
fn participle(w: &str) -> Option<(String, String)> {
    if let Some((_, past, base)) = IRREGULAR.iter().find(|(p, _, _)| *p == w) {
        return Some((past.to_string(), base.to_string()));
    }
    let stem = w.strip_suffix("ed").filter(|s| s.len() >= 2)?;
    // "raised" → raise, "adopted" → adopt, "married" → marry, "stopped" → stop
    let base = if let Some(s) = stem.strip_suffix('i') {
        format!("{s}y")
    } else if w.ends_with("sed") || w.ends_with("ved") || w.ends_with("ced") || w.ends_with("ged") {
        w[..w.len() - 1].to_string()
    } else {
        stem.to_string()
    };
    Some((w.to_string(), base))
}

/// The third person of a base: teach → teaches, carry → carries, own → owns.
fn third_person(base: &str) -> String {
    if base.ends_with(['s', 'x', 'z']) || base.ends_with("ch") || base.ends_with("sh") {
        format!("{base}es")
    } else if let Some(s) = base.strip_suffix('y')
        && !s.ends_with(['a', 'e', 'o', 'u'])
    {
        format!("{s}ies")
    } else {
        format!("{base}s")
    }
}

/// A word moved from the doer to the subject: "me" → "I".
fn as_subject(w: &str) -> String {
    PRONOUNS
        .iter()
        .find(|(_, o)| o.eq_ignore_ascii_case(w))
        .map_or_else(|| w.to_string(), |(s, _)| capital_i(s))
}

/// A word moved from the subject to the object: "I" → "me", "She" → "her".
fn as_object(w: &str) -> String {
    let bare = unpunctuated(w);
    PRONOUNS
        .iter()
        .find(|(s, _)| s.eq_ignore_ascii_case(bare))
        .map_or_else(|| w.to_string(), |(_, o)| o.to_string())
}

fn capital_i(s: &str) -> String {
    if s == "i" { "I".into() } else { s.into() }
}

#[cfg(test)]
mod tests {
    use super::as_active;

    #[test]
    fn the_passive_with_its_doer_is_said_in_the_active() {
        for (passive, active) in [
            ("I was raised by my grandmother", "my grandmother raised me"),
            (
                "User's son was bitten by a dog last week",
                "a dog bit User's son last week",
            ),
            (
                "The user is taught Spanish by Maria",
                "Maria teaches the user Spanish",
            ),
            (
                "I was taught to fish by my father.",
                "my father taught me to fish.",
            ),
            (
                "The house is co-owned by User and his sister",
                "User and his sister co-own the house",
            ),
            (
                "She got hired by Google in 2020",
                "Google hired her in 2020",
            ),
            ("My dog was adopted by us", "we adopted my dog"),
        ] {
            assert_eq!(as_active(passive).as_deref(), Some(active), "{passive}");
        }
    }

    #[test]
    fn a_chinese_passive_against_its_active_is_written_in_the_active() {
        use super::zh_in_the_active;
        for (passive, active) in [
            ("用户的狗被邻居家的猫抓伤了", "邻居家的猫抓伤了用户的狗"),
            ("用户被字节跳动录用了", "字节跳动录用了用户"),
            ("用户的儿子上周被狗咬了", "上周一只狗咬了用户的儿子"),
        ] {
            let (x, y) = zh_in_the_active(passive, active).expect(passive);
            assert_eq!(x, y, "{passive}");
            let (y, x) = zh_in_the_active(active, passive).expect(passive);
            assert_eq!(x, y, "{passive}");
        }
        for (a, b) in [
            // the other way round: the dog scratched the cat
            ("用户的狗被邻居家的猫抓伤了", "用户的狗抓伤了邻居家的猫"),
            ("用户被字节跳动录用了", "用户录用了字节跳动"),
            ("用户的儿子上周被狗咬了", "上周一只狗咬了用户的女儿"),
        ] {
            assert_eq!(zh_in_the_active(a, b), None, "{a} / {b}");
        }
    }

    #[test]
    fn what_is_no_doer_or_no_passive_stays() {
        for said in [
            "I was born by the sea",
            "The report was finished by Friday",
            "The letter was sent by email",
            "My grandmother raised me",
            "I live by the river",
            "The car is parked by the door",
            "I was raised by my grandmother, who was a teacher",
            "I was raised by my grandmother and by my aunt",
            "by then I was tired",
        ] {
            assert_eq!(as_active(said), None, "{said}");
        }
    }
}
