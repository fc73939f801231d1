//! A state one is in one of at a time: single, in a relationship, engaged, married, divorced;
//! vegetarian, vegan, pescatarian or eating meat; a smoker or not. "I got married" after "I'm
//! single", 我结婚了 after 我单身, "I went fully vegan" after "User is vegetarian", "I quit
//! smoking" after "User smokes a pack a day": the newer state replaces the older, though the
//! two share no words around one value. Only a statement that is the state and nothing more
//! is read — who (the speaker, or one name said on both sides), the state, and at most whom
//! it is with and when it came — so "my sister got married", "I was vegetarian for years",
//! "I'm getting married next month" and "I'm vegetarian and allergic to nuts" are not.
//!
//! Pure: text in, decision out.

use std::collections::HashSet;

use super::Change;
use crate::memory::identity::lex::{Raw, lex};

/// What a state is of: one person is in one state of each kind at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Partnership,
    Diet,
    Smoking,
}

/// Who is in the state.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Who {
    /// "I", "User", 我, 用户.
    Speaker,
    /// "we", 我们: the speaker, as a couple (a partnership only).
    Couple,
    /// A name, the same on both sides ("Sarah is single" / "Sarah got married").
    Named(String),
}

/// A statement read as one person's state.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Said {
    who: Who,
    kind: Kind,
    /// The state, one word for each ("married", "vegan", "smoker").
    state: &'static str,
    /// The state as written, for the history ("single", "got married", 结婚).
    shown: String,
}

/// English adjectives (after "am" / "is", an article allowed) that name a state.
const STATES_EN: &[(&str, Kind, &str)] = &[
    ("single", Kind::Partnership, "single"),
    ("engaged", Kind::Partnership, "engaged"),
    ("married", Kind::Partnership, "married"),
    ("divorced", Kind::Partnership, "divorced"),
    ("separated", Kind::Partnership, "separated"),
    ("widowed", Kind::Partnership, "widowed"),
    ("widow", Kind::Partnership, "widowed"),
    ("widower", Kind::Partnership, "widowed"),
    ("vegetarian", Kind::Diet, "vegetarian"),
    ("veggie", Kind::Diet, "vegetarian"),
    ("vegan", Kind::Diet, "vegan"),
    ("pescatarian", Kind::Diet, "pescatarian"),
    ("pescetarian", Kind::Diet, "pescatarian"),
    ("omnivore", Kind::Diet, "omnivore"),
    ("smoker", Kind::Smoking, "smoker"),
    ("nonsmoker", Kind::Smoking, "nonsmoker"),
];

/// Events that put one in a state: "got married", "got engaged to Sam".
const EVENTS_EN: &[(&str, &str)] = &[
    ("married", "married"),
    ("engaged", "engaged"),
    ("divorced", "divorced"),
    ("separated", "separated"),
];

/// Words that say only that a state is new or sure ("now", "finally", "fully"): left out.
#[rustfmt::skip]
const FILLERS_EN: &[&str] = &[
    "now", "currently", "finally", "officially", "just", "already", "recently", "fully",
    "completely", "actually", "btw", "happily", "newly", "totally", "still", "so", "oh",
    "well", "yay", "guess", "what", "proudly", "strictly",
];

/// Words that may close a statement of a state: when it came ("last year", "in June", "two
/// weeks ago"), or "again".
#[rustfmt::skip]
const WHEN_EN: &[&str] = &[
    "again", "anymore", "last", "this", "past", "in", "on", "a", "few", "couple", "of", "ago",
    "the", "yesterday", "today", "tonight", "weekend", "week", "weeks", "month", "months",
    "year", "years", "day", "days", "spring", "summer", "fall", "autumn", "winter",
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december", "monday", "tuesday", "wednesday", "thursday", "friday",
    "saturday", "sunday", "one", "two", "three", "four", "five", "six", "several", "night",
    "morning", "evening", "recently", "lately",
];

/// Words that may follow "smoke(s)" in a smoker's habit: "a pack a day", "cigarettes daily".
#[rustfmt::skip]
const HABIT_EN: &[&str] = &[
    "a", "pack", "packs", "day", "daily", "cigarettes", "cigarette", "cigars", "every", "per",
    "week", "occasionally", "sometimes", "socially", "regularly", "heavily", "half", "one",
    "two", "three", "about", "around", "lot", "bit", "little", "too", "much", "pipe", "e",
];

/// Chinese forms of each state, as they follow who is in it (fillers and when taken out);
/// `true` where only a closing 了 (or 已 before it) makes the event a state (我结婚了, not
/// 我下个月结婚).
#[rustfmt::skip]
const STATES_ZH: &[(&str, Kind, &str, bool)] = &[
    ("单身", Kind::Partnership, "single", false),
    ("是单身", Kind::Partnership, "single", false),
    ("是单身狗", Kind::Partnership, "single", false),
    ("已婚", Kind::Partnership, "married", false),
    ("是已婚", Kind::Partnership, "married", false),
    ("结婚", Kind::Partnership, "married", true),
    ("领证", Kind::Partnership, "married", true),
    ("领证结婚", Kind::Partnership, "married", true),
    ("订婚", Kind::Partnership, "engaged", true),
    ("离婚", Kind::Partnership, "divorced", true),
    ("离异", Kind::Partnership, "divorced", false),
    ("是离异", Kind::Partnership, "divorced", false),
    ("脱单", Kind::Partnership, "dating", true),
    ("谈恋爱", Kind::Partnership, "dating", true),
    ("在谈恋爱", Kind::Partnership, "dating", false),
    ("有女朋友", Kind::Partnership, "dating", true),
    ("有男朋友", Kind::Partnership, "dating", true),
    ("有对象", Kind::Partnership, "dating", true),
    ("吃素", Kind::Diet, "vegetarian", false),
    ("在吃素", Kind::Diet, "vegetarian", false),
    ("素食", Kind::Diet, "vegetarian", false),
    ("是素食者", Kind::Diet, "vegetarian", false),
    ("是素食主义者", Kind::Diet, "vegetarian", false),
    ("是蛋奶素", Kind::Diet, "vegetarian", false),
    ("蛋奶素", Kind::Diet, "vegetarian", false),
    ("是全素", Kind::Diet, "vegan", false),
    ("吃全素", Kind::Diet, "vegan", false),
    ("全素", Kind::Diet, "vegan", false),
    ("吃肉", Kind::Diet, "omnivore", true),
    ("开始吃肉", Kind::Diet, "omnivore", false),
    ("不吃素", Kind::Diet, "omnivore", true),
    ("抽烟", Kind::Smoking, "smoker", false),
    ("吸烟", Kind::Smoking, "smoker", false),
    ("是烟民", Kind::Smoking, "smoker", false),
    ("戒烟", Kind::Smoking, "nonsmoker", false),
    ("把烟戒", Kind::Smoking, "nonsmoker", true),
    ("不抽烟", Kind::Smoking, "nonsmoker", true),
    ("不吸烟", Kind::Smoking, "nonsmoker", true),
];

/// Chinese words that say only that a state is new or how often (left out), and when it
/// came, longest first where one holds another.
#[rustfmt::skip]
const FILLERS_ZH: &[&str] = &[
    "现在", "目前", "已经", "最近", "刚刚", "终于", "平时", "一直", "重新", "又", "刚", "也",
    "每天", "去年", "今年", "前年", "上个月", "这个月", "上上周", "上周末", "上周", "这周",
    "半年", "一年", "两年", "三年", "好几年", "几年", "几个月", "早就",
    "正式", "总算",
];

/// The state `text` says someone is in, when it says that and nothing more.
fn read_whole(text: &str) -> Option<Said> {
    let mut clauses = clauses(text);
    let one = clauses.next()?;
    if clauses.next().is_some() {
        return None;
    }
    read(&one)
}

/// Each state a clause of `text` says someone is in.
fn read_each(text: &str) -> Vec<Said> {
    clauses(text).filter_map(|c| read(&c)).collect()
}

/// `text`'s clauses: parted at commas, semicolons, full stops and the like.
fn clauses(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| ",;.!?，。！；？~～—\n".contains(c))
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(String::from)
}

fn read(clause: &str) -> Option<Said> {
    if clause.chars().any(crate::memory::text::is_cjk) {
        read_zh(clause)
    } else {
        read_en(clause)
    }
}

/// One English word as the reading takes it.
struct W {
    lower: String,
    cap: bool,
    possessive: bool,
}

fn read_en(clause: &str) -> Option<Said> {
    let mut words: Vec<W> = Vec::new();
    for raw in lex(clause) {
        match raw {
            Raw::Word {
                lower,
                cap,
                possessive,
                ..
            } => {
                // "non-smoker" is one word
                if lower == "smoker"
                    && words.last().is_some_and(|w| w.lower == "non")
                    && let Some(last) = words.last_mut()
                {
                    last.lower = "nonsmoker".into();
                    continue;
                }
                if FILLERS_EN.contains(&lower.as_str()) {
                    continue;
                }
                words.push(W {
                    lower,
                    cap,
                    possessive,
                })
            }
            Raw::Digits(d) => words.push(W {
                lower: d,
                cap: false,
                possessive: false,
            }),
            _ => return None,
        }
    }
    let (who, rest) = who_en(&words)?;
    let rest: Vec<&str> = rest.iter().map(|w| w.lower.as_str()).collect();
    let (kind, state, shown, tail) = state_en(&rest)?;
    if who == Who::Couple && kind != Kind::Partnership {
        return None;
    }
    let allowed: &[&str] = if state == "smoker" { HABIT_EN } else { WHEN_EN };
    // "in 2005": an event of a year named may be history, not the state one is in now
    let year = |w: &str| w.len() == 4 && w.chars().all(|c| c.is_ascii_digit());
    // "I eat meat on Sundays" is a habit of some days, not a diet
    let some_days = state == "omnivore" && tail.contains(&"on");
    let tail_ok = !some_days
        && tail
            .iter()
            .all(|w| allowed.contains(w) || !year(w) && w.chars().all(|c| c.is_ascii_digit()));
    tail_ok.then_some(Said {
        who,
        kind,
        state,
        shown,
    })
}

/// Who a clause opens with, and the words after: "I", "User", "we", a name, "Tom and I".
fn who_en(words: &[W]) -> Option<(Who, &[W])> {
    let first = words.first()?;
    if first.possessive {
        return None;
    }
    let lower = |i: usize| words.get(i).map(|w| w.lower.as_str());
    match first.lower.as_str() {
        "i" => return Some((Who::Speaker, &words[1..])),
        "we" => return Some((Who::Couple, &words[1..])),
        "user" => return Some((Who::Speaker, &words[1..])),
        "the" if lower(1) == Some("user") && !words[1].possessive => {
            return Some((Who::Speaker, &words[2..]));
        }
        _ => {}
    }
    // "Tom and I divorced", "Chris and I got engaged": the speaker, as a couple
    if lower(1) == Some("and") && lower(2) == Some("i") && first.cap {
        return Some((Who::Couple, &words[3..]));
    }
    // "Sarah is single": a name, its first letter a capital (the lexer counts the first word
    // of a sentence as capitalized too)
    let name = first
        .lower
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic())
        && clause_opens_capitalized(words);
    name.then(|| (Who::Named(first.lower.clone()), &words[1..]))
}

/// Whether the clause's first word is written with a capital and is no word of the tables
/// ("Sarah", not "Married" or "Got").
fn clause_opens_capitalized(words: &[W]) -> bool {
    let Some(first) = words.first() else {
        return false;
    };
    first.cap
        && !STATES_EN.iter().any(|(w, ..)| *w == first.lower)
        && !matches!(
            first.lower.as_str(),
            "got"
                | "get"
                | "went"
                | "became"
                | "quit"
                | "stopped"
                | "started"
                | "married"
                | "divorced"
                | "am"
                | "is"
                | "are"
                | "was"
                | "been"
                | "my"
                | "our"
                | "your"
                | "his"
                | "her"
                | "their"
                | "he"
                | "she"
                | "they"
                | "it"
                | "you"
                | "not"
                | "no"
        )
}

/// The state the words after who say, and the words left after it.
fn state_en<'a>(rest: &'a [&'a str]) -> Option<(Kind, &'static str, String, &'a [&'a str])> {
    let at = |i: usize| rest.get(i).copied();
    let adjective = |w: &str| STATES_EN.iter().find(|(s, ..)| *s == w);
    // "whom to": "engaged to Priya", "divorced from Mark" — a name of a word or two
    let partner = |from: usize| -> usize {
        if matches!(at(from), Some("to" | "from" | "with")) && at(from + 1).is_some() {
            from + 2
        } else {
            from
        }
    };
    match rest {
        // "am single", "is a vegetarian", "am in a relationship", "am dating Chris"
        [be, ..] if matches!(*be, "am" | "is" | "are") => {
            let mut i = 1;
            if matches!(at(i), Some("a" | "an")) {
                i += 1;
            }
            if let Some((w, kind, state)) = at(i).and_then(adjective) {
                let end = if *kind == Kind::Partnership {
                    partner(i + 1)
                } else {
                    i + 1
                };
                return Some((*kind, state, w.to_string(), &rest[end..]));
            }
            match (at(1), at(2), at(3)) {
                (Some("in"), Some("a"), Some("relationship")) => Some((
                    Kind::Partnership,
                    "dating",
                    "in a relationship".into(),
                    &rest[4..],
                )),
                (Some("dating" | "seeing"), Some(_), _) => {
                    Some((Kind::Partnership, "dating", "dating".into(), &rest[3..]))
                }
                _ => None,
            }
        }
        // "got married", "have gotten engaged to Sam"
        [have, got, ..] if matches!(*have, "have" | "has") && matches!(*got, "got" | "gotten") => {
            event(&rest[2..])
        }
        [got, ..] if matches!(*got, "got" | "get") => event(&rest[1..]),
        // "married Priya", "divorced Mark", "divorced last year" (a couple)
        ["married", name, ..] if !WHEN_EN.contains(name) => {
            Some((Kind::Partnership, "married", "married".into(), &rest[2..]))
        }
        ["divorced" | "separated", ..] => {
            let state = if rest[0] == "divorced" {
                "divorced"
            } else {
                "separated"
            };
            let end = usize::from(at(1).is_some_and(|w| !WHEN_EN.contains(&w))) + 1;
            Some((Kind::Partnership, state, rest[0].to_string(), &rest[end..]))
        }
        // "went vegan", "have gone fully vegetarian", "became a pescatarian"
        [verb, ..] if matches!(*verb, "went" | "gone" | "became" | "become" | "turned") => {
            diet_after(rest, 1)
        }
        [have, verb, ..]
            if matches!(*have, "have" | "has") && matches!(*verb, "gone" | "become" | "turned") =>
        {
            diet_after(rest, 2)
        }
        // "eat meat", "started eating meat again"
        [eat, "meat", ..] if matches!(*eat, "eat" | "eats") => {
            Some((Kind::Diet, "omnivore", "eats meat".into(), &rest[2..]))
        }
        [start, "eating", "meat", ..] if matches!(*start, "started" | "start" | "began") => {
            Some((Kind::Diet, "omnivore", "eats meat".into(), &rest[3..]))
        }
        // "smoke a pack a day"; "quit smoking", "gave up smoking", "don't smoke", "used to smoke"
        [smoke, ..] if matches!(*smoke, "smoke" | "smokes") => {
            Some((Kind::Smoking, "smoker", "smokes".into(), &rest[1..]))
        }
        [quit, "smoking", ..] if matches!(*quit, "quit" | "stopped") => Some((
            Kind::Smoking,
            "nonsmoker",
            "quit smoking".into(),
            &rest[2..],
        )),
        ["gave" | "given", "up", "smoking", ..] | ["have" | "has", "quit", "smoking", ..] => {
            Some((
                Kind::Smoking,
                "nonsmoker",
                "quit smoking".into(),
                &rest[3..],
            ))
        }
        ["do" | "does", "not", "smoke", ..] | ["used", "to", "smoke", ..] => Some((
            Kind::Smoking,
            "nonsmoker",
            "doesn't smoke".into(),
            &rest[3..],
        )),
        _ => None,
    }
}

/// After "got": the event and whom it is with.
fn event<'a>(rest: &'a [&'a str]) -> Option<(Kind, &'static str, String, &'a [&'a str])> {
    let (word, state) = EVENTS_EN.iter().find(|(w, _)| rest.first() == Some(w))?;
    let end = if matches!(rest.get(1), Some(&("to" | "from"))) && rest.len() > 2 {
        3
    } else {
        1
    };
    Some((
        Kind::Partnership,
        state,
        format!("got {word}"),
        &rest[end..],
    ))
}

/// A diet named after a verb of becoming ("went vegan", "became a vegetarian").
fn diet_after<'a>(
    rest: &'a [&'a str],
    from: usize,
) -> Option<(Kind, &'static str, String, &'a [&'a str])> {
    let mut i = from;
    if matches!(rest.get(i), Some(&("a" | "an"))) {
        i += 1;
    }
    let (w, kind, state) = STATES_EN
        .iter()
        .find(|(s, k, _)| *k == Kind::Diet && rest.get(i) == Some(s))?;
    Some((*kind, state, w.to_string(), &rest[i + 1..]))
}

fn read_zh(clause: &str) -> Option<Said> {
    let text: String = clause.chars().filter(|c| !c.is_whitespace()).collect();
    let (who, rest) = if let Some(r) = text.strip_prefix("我们") {
        (Who::Couple, r.to_string())
    } else if let Some(r) = text.strip_prefix("用户") {
        (Who::Speaker, r.to_string())
    } else if let Some(r) = text.strip_prefix('我') {
        (Who::Speaker, r.to_string())
    } else {
        return None;
    };
    // 我和小林结婚了: with whom, a name of two or three characters
    if let Some(r) = rest.strip_prefix(['和', '跟', '与']) {
        return (2..=3).find_map(|n| {
            let at = r.char_indices().nth(n)?.0;
            read_zh_state(who.clone(), r[at..].to_string()).filter(|s| s.kind == Kind::Partnership)
        });
    }
    read_zh_state(who, rest)
}

/// What follows who in a Chinese clause, read as a state.
fn read_zh_state(who: Who, mut rest: String) -> Option<Said> {
    // what says the state came (了, 啦) closes it; fillers and when it came are left out
    let mut closed = false;
    loop {
        let trimmed = rest.trim_end_matches(['了', '啦', '的', '呢', '哦', '呀']);
        if trimmed.len() == rest.len() {
            break;
        }
        closed |= rest[trimmed.len()..].contains(['了', '啦']);
        rest = trimmed.to_string();
    }
    // 已经 as a whole first (已 alone says the same: 已离婚)
    let mut changed = true;
    while changed {
        changed = false;
        for f in FILLERS_ZH {
            if rest.contains(f) {
                rest = rest.replace(f, "");
                changed = true;
            }
        }
        // "in May" (今年五月, 1月): a month
        if let Some(at) = rest.find('月') {
            let before: String = rest[..at]
                .chars()
                .rev()
                .take_while(|c| is_month_char(*c))
                .collect();
            if !before.is_empty() && before.chars().count() <= 2 {
                let start = at - before.len();
                rest.replace_range(start..at + '月'.len_utf8(), "");
                changed = true;
            }
        }
        if let Some(r) = rest.strip_prefix('已')
            && !r.starts_with('婚')
        {
            rest = r.to_string();
            closed = true;
            changed = true;
        }
        // 戒烟半年了, 戒烟三个月了: how long since
        if let Some(r) = rest.strip_suffix("个月") {
            let n: String = r
                .chars()
                .rev()
                .take_while(|c| is_month_char(*c) || *c == '两')
                .collect();
            if !n.is_empty() {
                rest = r[..r.len() - n.len()].to_string();
                changed = true;
            }
        }
    }
    let (form, kind, state, needs_closing) = STATES_ZH.iter().find(|(form, ..)| *form == rest)?;
    if *needs_closing && !closed {
        return None;
    }
    if who == Who::Couple && *kind != Kind::Partnership {
        return None;
    }
    Some(Said {
        who,
        kind: *kind,
        state,
        shown: form.to_string(),
    })
}

fn is_month_char(c: char) -> bool {
    c.is_ascii_digit() || "一二三四五六七八九十".contains(c)
}

/// Whether two statements are of one person: the speaker on both sides (as a couple too, for
/// a partnership), or one name.
fn same_person(a: &Said, b: &Said) -> bool {
    match (&a.who, &b.who) {
        (Who::Named(x), Who::Named(y)) => x == y,
        (Who::Named(_), _) | (_, Who::Named(_)) => false,
        _ => true,
    }
}

/// The state `new` says, against the one `stored` is, when they are two states of one kind of
/// one person: the newer replaces the older. `None` when either is not read as a state, when
/// they are of different people or kinds, or when the state is the same.
pub(super) fn changed(new: &str, stored: &str) -> Option<Change> {
    let old = read_whole(stored)?;
    let said: Vec<Said> = read_each(new)
        .into_iter()
        .filter(|s| s.kind == old.kind && same_person(s, &old))
        .collect();
    // two clauses of the same kind that disagree say too much to read
    let first = said.first()?;
    if said.iter().any(|s| s.state != first.state) || first.state == old.state {
        return None;
    }
    Some(Change {
        old: old.shown,
        new: first.shown.clone(),
    })
}

/// The words a statement of a state shares with the stored facts it may replace ("I got
/// married" with "User is single"): every word of its kind. `None` when `text` says no state.
pub(super) fn search_terms(text: &str) -> Option<HashSet<String>> {
    let kinds: Vec<Kind> = read_each(text).iter().map(|s| s.kind).collect();
    if kinds.is_empty() {
        return None;
    }
    let mut words: Vec<&str> = Vec::new();
    for kind in kinds {
        words.extend(
            STATES_EN
                .iter()
                .filter(|(_, k, _)| *k == kind)
                .map(|(w, ..)| *w),
        );
        words.extend(match kind {
            Kind::Partnership => &[
                "relationship",
                "dating",
                "单身",
                "结婚",
                "离婚",
                "订婚",
                "已婚",
                "恋爱",
                "对象",
            ][..],
            Kind::Diet => &["meat", "vegetarian", "吃素", "素食", "全素", "吃肉"][..],
            Kind::Smoking => &["smoke", "smokes", "smoking", "抽烟", "吸烟", "戒烟"][..],
        });
    }
    Some(crate::memory::text::term_set(&words.join(" ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(new: &str, stored: &str) -> Option<(String, String)> {
        changed(new, stored).map(|c| (c.old, c.new))
    }

    #[test]
    fn a_newer_state_of_one_kind_replaces_the_older() {
        for (stored, new, old_state, new_state) in [
            (
                "User is single",
                "I got married last month",
                "single",
                "got married",
            ),
            (
                "I'm engaged to Marco",
                "I'm married to Marco",
                "engaged",
                "married",
            ),
            (
                "User is engaged to Priya",
                "User married Priya",
                "engaged",
                "married",
            ),
            (
                "User is married to Tom",
                "Tom and I divorced last year",
                "married",
                "divorced",
            ),
            (
                "I'm dating Chris",
                "Chris and I got engaged!",
                "dating",
                "got engaged",
            ),
            (
                "User is single.",
                "I'm in a relationship now",
                "single",
                "in a relationship",
            ),
            (
                "User is vegetarian.",
                "I went fully vegan in January.",
                "vegetarian",
                "vegan",
            ),
            (
                "I'm a vegetarian",
                "I started eating meat again",
                "vegetarian",
                "eats meat",
            ),
            (
                "User eats meat",
                "User has gone vegetarian",
                "eats meat",
                "vegetarian",
            ),
            (
                "User smokes a pack a day",
                "I quit smoking three months ago",
                "smokes",
                "quit smoking",
            ),
            (
                "Sarah is single",
                "Sarah got married",
                "single",
                "got married",
            ),
            ("我单身", "我上个月结婚了", "单身", "结婚"),
            ("用户已经结婚了。", "我去年离婚了。", "结婚", "离婚"),
            ("我和小林在谈恋爱", "我和小林结婚了", "在谈恋爱", "结婚"),
            ("用户单身", "我最近谈恋爱了，女朋友叫小美", "单身", "谈恋爱"),
            ("用户是素食者", "我现在开始吃肉了", "是素食者", "开始吃肉"),
            ("我现在是蛋奶素", "我现在是全素", "是蛋奶素", "是全素"),
            ("用户平时抽烟。", "我已经戒烟半年了。", "抽烟", "戒烟"),
            ("我抽烟", "我今年一月把烟戒了", "抽烟", "把烟戒"),
            ("我单身", "我们领证了", "单身", "领证"),
        ] {
            assert_eq!(
                change(new, stored),
                Some((old_state.to_string(), new_state.to_string())),
                "{stored} → {new}"
            );
        }
    }

    #[test]
    fn another_person_a_past_a_plan_or_more_than_the_state_replaces_nothing() {
        for (stored, new) in [
            // another person
            ("I'm single", "My sister got married"),
            ("Sarah is single", "I got married"),
            ("I'm single", "User's brother got engaged"),
            ("我吃素", "我女儿吃素"),
            ("我单身", "我妈结婚了"),
            ("用户单身", "用户的哥哥结婚了"),
            ("我抽烟", "我老公戒烟了"),
            // the past, a plan, a wish, a pause, a year that may be history
            ("I'm single", "I was married for ten years"),
            ("I'm single", "I'm getting married next month"),
            ("I'm divorced", "I got married in 2005"),
            ("I'm vegetarian", "I think I'll go vegan"),
            ("I smoke", "I quit smoking for a month"),
            ("我单身", "我下个月结婚"),
            ("我抽烟", "我想戒烟"),
            ("我抽烟", "我在戒烟"),
            // a meal, some days, a condition
            ("I'm vegetarian", "I ate meat yesterday"),
            ("I'm vegetarian", "I eat meat on Sunday"),
            ("我吃素", "我今天吃肉了"),
            ("I'm vegan", "I'm vegan on weekdays"),
            ("I don't smoke", "I smoke when I drink"),
            // more than the state, or the same state
            ("I'm vegetarian and allergic to nuts", "I went vegan"),
            ("I smoke", "I quit smoking weed"),
            ("I'm married", "I got married in June"),
            ("Dating is hard", "I'm single"),
        ] {
            assert_eq!(change(new, stored), None, "{stored} → {new}");
        }
    }

    #[test]
    fn a_statement_of_a_state_is_searched_by_every_word_of_its_kind() {
        let terms = search_terms("I got married").unwrap();
        assert!(terms.contains("single") && terms.contains("divorced"));
        assert!(search_terms("我戒烟了").unwrap().contains("抽烟"));
        assert!(search_terms("I like tea").is_none());
    }
}
