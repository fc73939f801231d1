//! A value that changed: "I live in Osaka" said after "I live in Tokyo", 我在字节工作 after
//! 我在腾讯工作, "my dentist is Dr. Okafor" after "… Dr. Patel". Two such facts cannot both be
//! current, so the newer replaces the older ([`changed`]). Only the same words around one
//! value that differs, in a relation that holds one value at a time (where someone lives or
//! works, where they are from, what someone is called, an age, a favourite, a count), is
//! read as one: a relation that holds many ("likes tea" / "likes coffee", "has visited Japan" /
//! "… Korea", "speaks French" / "… German") keeps both, as does anything more than the value
//! changing. Precision first: an old fact replaced wrongly drops out of every prompt.
//!
//! Pure: text in, decision out.

mod clauses;
mod status;
mod stopped;
mod surface;
#[cfg(test)]
mod tests;
mod tidy;
#[cfg(test)]
mod verb_tests;
mod words;

use std::collections::HashSet;

use surface::*;
use tidy::tidy;
use words::*;

/// The two values of a fact whose value changed: the stored one and the new one, as written.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    pub old: String,
    pub new: String,
}

/// `text` as this module reads it, when it says that something changed: a verb of change
/// read as the relation it ends in ("moved to Osaka" → "live in Osaka", 搬到深圳 → 住在深圳),
/// or words that say only that it changed left out ("now", 现在, "Correction:"). Its terms
/// find the stored facts whose value a statement may change, which share few words with it
/// as said (我现在在字节工作 shares one character pair of its seven with 我在腾讯工作).
pub fn as_relation(text: &str) -> Option<String> {
    let (toks, rewritten) = read(text);
    (rewritten || says_it_changed(text)).then(|| shown(&toks))
}

/// The terms of [`as_relation`], with each plain verb in its other forms too: the stored
/// facts say "Alice lives in Tokyo", where the reading says "live".
pub fn relation_terms(text: &str) -> Option<HashSet<String>> {
    Some(with_verb_forms(crate::memory::text::term_set(
        &as_relation(text)?,
    )))
}

/// For a statement of a state one is in one of at a time ("I got married", 我戒烟了), the
/// words of every state of its kind: the stored state it replaces ("User is single") shares
/// none of its own. `None` for any other statement.
pub fn state_terms(text: &str) -> Option<HashSet<String>> {
    status::search_terms(text)
}

/// `terms` with each verb of a relation in its other form too ("live" and "lives"): the
/// terms of "I live in Tokyo" and "Alice lives in Osaka" meet.
pub fn with_verb_forms(mut terms: HashSet<String>) -> HashSet<String> {
    for (form, plain) in VERB_FORMS {
        if terms.contains(*plain) {
            terms.insert(form.to_string());
        } else if terms.contains(*form) {
            terms.insert(plain.to_string());
        }
    }
    terms
}

/// The changed values of `new` against `stored`, when the two are the same words around one
/// value that differs in a relation that holds one value at a time; `None` otherwise. `new`
/// is read as said, then each of its clauses that says a value changed on its own, and said
/// with its value first turned round (`clauses`).
pub fn changed(new: &str, stored: &str) -> Option<Change> {
    // "1.70 m" then "175 cm": the same quantity, in one unit
    if let Some((new, stored)) = super::units::in_one_unit(new, stored) {
        return changed(&new, &stored);
    }
    changed_as_said(new, stored)
        // "I got married" after "I'm single": a state of one kind for another
        .or_else(|| status::changed(new, stored))
        // "I no longer drink coffee" after "I drink coffee every morning"
        .or_else(|| stopped::changed(new, stored))
        .or_else(|| {
            clauses::restated(new)
                .iter()
                .find_map(|clause| changed_as_said(clause, stored))
        })
        // "relocated to Lisbon last month", 搬到杭州了: chat leaves the speaker out
        .or_else(|| clauses::with_the_speaker(new).and_then(|said| changed(&said, stored)))
}

fn changed_as_said(new: &str, stored: &str) -> Option<Change> {
    let (new, stored) = (&tidy(new, stored), &tidy(stored, ""));
    if !plain(new) || !plain(stored) {
        return None;
    }
    let (mut a, mut b) = (tokens(stored), tokens(new));
    if a == b {
        (a, b) = (tokens_with_when(stored), tokens_with_when(new));
    }
    let (mut head, mut tail) = crate::memory::text::common_ends(&a, &b);
    // "my job title is Product Manager" / "… is Senior Product Manager": a title that gains a
    // rank is another title, the whole of it (not nothing against "Senior")
    if tail > 0 && gains_a_rank(&a[head..a.len() - tail], &b[head..b.len() - tail]) {
        tail = 0;
    }
    // a Chinese number is whole (两万 / 两万五)
    while head > 0
        && matches!(a[head - 1], Tok::Cjk(c) if is_numeral(c))
        && (number_part(&a[head.min(a.len() - 1)]) || number_part(&b[head.min(b.len() - 1)]))
    {
        head -= 1;
    }
    let (old, new_value) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    if old.is_empty() || new_value.is_empty() || head == 0 {
        return None;
    }
    let (before, after) = (&a[..head], &a[a.len() - tail..]);
    let fits = |v: &[Tok]| {
        !v.contains(&Tok::Gap)
            && v.iter()
                .filter(|t| matches!(t, Tok::Word { .. } | Tok::Number(_)))
                .count()
                <= MAX_WORDS
            && v.iter().filter(|t| matches!(t, Tok::Cjk(_))).count() <= MAX_CJK
            // 豆豆的狗 / 花花的猫, "grandpa is 88": more than a value
            && !zh(v).contains(['的', '是', '在', '叫'])
            // a copula in it (not the "am" of "1 am")
            && !v.iter().enumerate().any(|(i, t)| {
                matches!(word(t), Some("is" | "are" | "was"))
                    || word(t) == Some("am") && !matches!(i.checked_sub(1).map(|p| &v[p]), Some(Tok::Number(_)))
            })
    };
    let number = numeric(old, new_value);
    // "6 feet" / "six foot", 32 / 三十二: one value written two ways
    if number && number_value(old).is_some() && number_value(old) == number_value(new_value) {
        return None;
    }
    // "VW" / "Volkswagen", "NYC" / "New York City": one value, its initials
    if abbreviates(old, new_value) || abbreviates(new_value, old) {
        return None;
    }
    let day_of_month = number && date_number(before, after);
    let count = number && !day_of_month;
    // "I have a meeting at 3pm" / "… at 5pm", 我3点有个会 / 5点有个会: a number of one of
    // several things (a meeting, not the meeting)
    let indefinite_thing = || {
        let words: Vec<&str> = before.iter().filter_map(word).collect();
        let a_thing_at = words
            .iter()
            .rposition(|w| *w == "a" || *w == "an")
            .is_some_and(|at| {
                let thing = &words[at + 1..];
                (2..=3).contains(&thing.len())
                    && thing.last().is_some_and(|w| {
                        matches!(
                            *w,
                            "at" | "on" | "around" | "by" | "from" | "until" | "till"
                        )
                    })
            });
        // each side by itself: 用户有 | 两个 | 孩子 is a count of children, no meeting
        let (zh_before, zh_after) = (zh(before), zh(after));
        a_thing_at
            || ["有个", "有一个", "有一场", "有场"]
                .iter()
                .any(|m| zh_before.contains(m) || zh_after.contains(m))
    };
    if count && indefinite_thing() {
        return None;
    }
    // "bedtime is 11 on weeknights" / "… 1am on Fridays", "lives in Miami in the winter" /
    // "… Vermont in the summer": each holds when its own condition does
    if [old, new_value].iter().any(|v| under_a_condition(v)) {
        return None;
    }
    if !fits(old) || !fits(new_value) || many(before, after, old, new_value) {
        return None;
    }
    // "my sister lives in Austin" may be a second sister; "… in Austin now" is the one who
    // lived in Boston
    let said_changed = || says_it_changed(new) && !says_it_changed(stored);
    if someone_of_several(before) && !said_changed() {
        return None;
    }
    // "my phone is an iPhone 15" / "… is on silent": where or in what state it is, not what
    // it is (a tenth held-out set)
    let placed = |v: &[Tok]| {
        !v.iter().any(|t| matches!(t, Tok::Number(_)))
            && matches!(v.first(), Some(Tok::Word { cap: false, .. }))
            && matches!(
                v.first().and_then(word),
                Some(
                    "on" | "in"
                        | "at"
                        | "off"
                        | "out"
                        | "under"
                        | "with"
                        | "without"
                        | "by"
                        | "near"
                )
            )
    };
    if placed(old) != placed(new_value) {
        return None;
    }
    // "my car is a Toyota" / "… is red", "my laptop is a MacBook" / "… is broken", 手机是苹果 /
    // 手机是静音模式: what it is against how it is (a check written to trip the above)
    let article = |v: &[Tok]| matches!(v.first().and_then(word), Some("a" | "an" | "the"));
    let bare = |v: &[Tok]| {
        !article(v)
            && !v.iter().any(|t| matches!(t, Tok::Number(_)))
            && matches!(v.first(), Some(Tok::Word { cap: false, .. }))
    };
    let state = |v: &[Tok]| ["模式", "状态", "状况"].iter().any(|w| zh(v).ends_with(w));
    if article(old) && bare(new_value)
        || bare(old) && article(new_value)
        || state(old) != state(new_value)
    {
        return None;
    }
    // "an apartment near Namba station" / "Osaka": a description may fit the named value
    let indefinite = |v: &[Tok]| {
        v.len() > 1
            && matches!(v.first(), Some(Tok::Word { shown, .. }) if shown == "a" || shown == "an")
    };
    let a_name = |v: &[Tok]| matches!(v.first(), Some(Tok::Word { cap: true, .. }));
    if indefinite(old) && a_name(new_value) || indefinite(new_value) && a_name(old) {
        return None;
    }
    let one_value =
        if exclusive(before, old, new_value) || exclusive_zh(before, old, new_value, after) {
            true
        } else if date(old, before) || date(new_value, before) || day_of_month {
            one_date(before)
        } else if count {
            // a number that labels ("fact 1" / "fact 2", 第1条) is no value of anything
            !labels(before)
        } else {
            // the value may reach back over a name's first word ("New York" / "New Jersey") or a
            // name's first characters (小雨 / 小雪) to meet its relation
            let cjk = matches!(before.last(), Some(Tok::Cjk(_)));
            let back = if cjk { BACK_CJK } else { BACK_WORDS };
            let part_of_a_name = |t: &Tok| match t {
                Tok::Word { cap, .. } => *cap,
                Tok::Number(_) => true,
                Tok::Cjk(c) => !matches!(c, '是' | '在' | '叫' | '的' | '了'),
                Tok::Gap => false,
            };
            let reach = (0..=back.min(head - 1))
                .take_while(|&k| k == 0 || part_of_a_name(&before[head - k]))
                .find(|&k| {
                    let before = &before[..head - k];
                    let (old, new) = (&a[head - k..a.len() - tail], &b[head - k..b.len() - tail]);
                    one_value_zh(before, after, old, new) || one_value_en(before, after, old, new)
                });
            // shown whole: "New York → New Jersey", not "York → Jersey"
            if let Some(k) = reach {
                head -= k;
            }
            reach.is_some()
        };
    one_value.then(|| Change {
        old: as_written(stored, &a[head..a.len() - tail]),
        new: as_written(new, &b[head..b.len() - tail]),
    })
}

/// Whether the two values are words of one kind of which one is one at a time, said of who
/// the sentence is about ("I'm a junior developer" / "… a senior developer", "User is a
/// sophomore" / "… a junior"); not "mentors junior developers".
fn exclusive(before: &[Tok], old: &[Tok], new: &[Tok]) -> bool {
    let ([old], [new]) = (old, new) else {
        return false;
    };
    let (Some(old), Some(new)) = (word(old), word(new)) else {
        return false;
    };
    let mut words: Vec<&str> = before.iter().filter_map(word).collect();
    while matches!(words.last(), Some(&("a" | "an"))) {
        words.pop();
    }
    matches!(words.last(), Some(&("am" | "is" | "are" | "as")))
        && EXCLUSIVE
            .iter()
            .any(|kind| kind.contains(&old) && kind.contains(&new))
}

/// Whether `new` is `old` with a rank before it, where `old` is nothing: the words after are
/// the same title ("Product Manager" / "Senior Product Manager").
fn gains_a_rank(old: &[Tok], new: &[Tok]) -> bool {
    let (true, [rank]) = (old.is_empty(), new) else {
        return false;
    };
    word(rank).is_some_and(|w| WORK_RANKS.contains(&w))
}

/// Whether the two values are the parts that differ of two Chinese ranks of one kind, said of
/// who the sentence is about (我是初级工程师 / 我是高级工程师, 我在读大一 / 我在读大二).
fn exclusive_zh(before: &[Tok], old: &[Tok], new: &[Tok], after: &[Tok]) -> bool {
    let (before, after) = (zh(before), zh(after));
    // the rank said with the value, and what comes before it
    let rank = |value: &[Tok]| {
        let (value, whole) = (zh(value), format!("{before}{}{after}", zh(value)));
        ZH_EXCLUSIVE.iter().enumerate().find_map(|(kind, ranks)| {
            ranks.iter().find_map(|r| {
                let at = whole.find(r)?;
                let covers = at <= before.len() && at + r.len() >= before.len() + value.len();
                covers.then(|| (kind, *r, whole[..at].to_string()))
            })
        })
    };
    let (Some((kind_a, a, lead)), Some((kind_b, b, _))) = (rank(old), rank(new)) else {
        return false;
    };
    let of_who = lead.ends_with(['是', '读', '上'])
        || ["", "我", "用户", "我现在", "我已经"].contains(&lead.as_str());
    kind_a == kind_b && a != b && of_who
}

/// Whether `short`, one word of two to five capitals, is `long` abbreviated: its letters in
/// order in `long`, the first the first ("VW" in "Volkswagen", "SF" in "San Francisco").
fn abbreviates(short: &[Tok], long: &[Tok]) -> bool {
    let [Tok::Word { shown, .. }] = short else {
        return false;
    };
    if !(2..=5).contains(&shown.len()) || !shown.chars().all(|c| c.is_ascii_uppercase()) {
        return false;
    }
    let long: String = long
        .iter()
        .filter_map(|t| match t {
            Tok::Word { shown, .. } => Some(shown.to_lowercase()),
            _ => None,
        })
        .collect();
    let mut rest = long.chars();
    let first = shown.to_lowercase().chars().next();
    long.len() > shown.len()
        && long.chars().next() == first
        && shown.to_lowercase().chars().all(|c| rest.any(|l| l == c))
}

/// Whether a value carries when it holds: "… on weeknights", "… in the summer", 夏天…
fn under_a_condition(value: &[Tok]) -> bool {
    let words: Vec<&str> = value.iter().filter_map(word).collect();
    let when = words.iter().enumerate().any(|(i, w)| {
        // "on Fridays", not the one day "on Friday" or "June 12"
        (DAYS.contains(w) && w.ends_with('s') || CONDITIONS.contains(w))
            && words[..i]
                .iter()
                .any(|p| matches!(*p, "on" | "in" | "at" | "during" | "over"))
    });
    when || ZH_CONDITIONS.iter().any(|c| zh(value).contains(c))
}

/// Whether the words around the value make it one of many: a relation of many values, past
/// events, a second pet (someone one may have several of is [`someone_of_several`]).
fn many(before: &[Tok], after: &[Tok], old: &[Tok], new: &[Tok]) -> bool {
    let frame: Vec<&str> = before.iter().chain(after).filter_map(word).collect();
    let old_words: Vec<&str> = old.iter().filter_map(word).collect();
    let new_words: Vec<&str> = new.iter().filter_map(word).collect();
    // a name's words are no relation's ("Dune Part Two")
    let plain_new: Vec<&str> = new
        .iter()
        .filter(|t| !matches!(t, Tok::Word { cap: true, .. }))
        .filter_map(word)
        .collect();
    let favourite = |t: String| t.replace("最喜欢", "最").replace("最爱", "最");
    let zh_frame = favourite(format!("{}{}", zh(before), zh(after)));
    let (zh_old, zh_new) = (favourite(zh(old)), favourite(zh(new)));
    let added = new_words
        .iter()
        .any(|w| ADDED.contains(w) && !old_words.contains(w))
        || ZH_ADDED
            .iter()
            .any(|m| zh_new.contains(m) && !zh_old.contains(m))
        || new_words.windows(2).any(|w| w == ["as", "well"]);
    if added
        || frame.iter().chain(&plain_new).any(|w| MANY.contains(w))
        || ZH_MANY
            .iter()
            .any(|m| zh_frame.contains(m) || zh_new.contains(m))
        || frame
            .windows(2)
            .any(|w| w == ["one", "of"] || w == ["been", "to"])
    {
        return true;
    }
    let names = frame.iter().any(|w| matches!(*w, "named" | "called")) || zh_frame.contains('叫');
    let owns =
        frame.iter().any(|w| OWNS.contains(w)) || ZH_OWNS.iter().any(|o| zh_frame.contains(o));
    names && owns && !frame.contains(&"only")
}

/// Whether the words before a number make it a label, not an amount: nothing but a noun
/// before it ("fact 1"), a noun that numbers things ("chapter 3", "version 2"), or 第.
fn labels(before: &[Tok]) -> bool {
    let words: Vec<&str> = before.iter().filter_map(word).collect();
    let zh_before = zh(before);
    before.len() < 2
        || words.last().is_some_and(|w| LABELS.contains(w))
        || zh_before.ends_with('第')
}

/// Whether the fact is about someone or an animal one may have several of ("User's sister",
/// "my roommate", 我哥, 用户的猫), and nothing says which one ("only", "eldest", a name right
/// after: "User's son Leo"; 大女儿).
/// Whether `text` names someone one may have several of, without saying which ("my brother",
/// 用户的哥哥; not "my wife", "my brother Tom", 大女儿).
pub(super) fn names_someone_of_several(text: &str) -> bool {
    someone_of_several(&tokens(text))
}

fn someone_of_several(before: &[Tok]) -> bool {
    let words: Vec<&str> = before.iter().filter_map(word).collect();
    let which = words.iter().any(|w| WHICH.contains(w));
    let several_en = before.iter().enumerate().any(|(i, t)| {
        let Some(w) = word(t) else { return false };
        let w = w.trim_end_matches("'s");
        let key = super::tables::stem(w);
        let other = OTHERS.contains(&w)
            || (super::tables::is_kin(&key) || super::tables::is_animal(&key))
                && !ONE_OF.contains(&w);
        // a name right after says which, as does a thing before ("my piano teacher")
        let named = matches!(before.get(i + 1), Some(Tok::Word { cap: true, .. }));
        let for_a_thing = i > 0 && word(&before[i - 1]).is_some_and(|m| for_a_thing(&[m, w]));
        other && !named && !for_a_thing
    });
    let kin = ZH_ONE_OF
        .iter()
        .fold(zh(before), |text, one| text.replace(one, ""));
    // 大女儿, 小儿子 say which, as a name right after does (我女儿朵朵, 狗狗旺财)
    let several_zh = ZH_OTHERS.iter().any(|r| {
        kin.match_indices(r).any(|(at, _)| {
            !kin[..at].ends_with(['大', '小', '二', '三'])
                && !zh_name_after(kin[at + r.len()..].trim_start_matches(r))
        })
    });
    (several_en || several_zh) && !which
}

/// Whether `rest`, what follows a word for someone one may have several of, opens with their
/// name: two or three characters before the words that go on with the fact (我女儿朵朵今年
/// 5岁, 用户的狗豆豆两岁了); not 我女儿上幼儿园, 我朋友在北京.
fn zh_name_after(rest: &str) -> bool {
    let name: String = rest
        .chars()
        .take_while(|c| {
            crate::memory::text::is_cjk(*c) && !ZH_AFTER_A_NAME.contains(*c) && !is_numeral(*c)
        })
        .collect();
    let rest = &rest[name.len()..];
    // the name is followed by the fact's own words, not by more of a noun (女儿同学, 狗粮)
    let ends = rest.is_empty()
        || rest.starts_with(|c: char| {
            !c.is_alphanumeric()
                || ZH_AFTER_A_NAME.contains(c)
                || is_numeral(c)
                || c.is_ascii_digit()
        });
    (2..=3).contains(&name.chars().count()) && ends
}

/// Whether the words before a date make it the one date of something ("the lesson is on").
fn one_date(before: &[Tok]) -> bool {
    let mut words: Vec<&str> = before.iter().filter_map(word).collect();
    // "meets on the first Monday", "is every Friday", "is on June" (12)
    while words.last().is_some_and(|w| {
        matches!(
            *w,
            "the" | "a" | "every" | "each" | "first" | "second" | "third" | "fourth" | "last"
        ) || DAYS.contains(w)
    }) {
        words.pop();
    }
    // 是5月 (3日), 是农历八月 (十五)
    let mut before = before;
    if let [rest @ .., n, Tok::Cjk('月')] = before
        && number_part(n)
    {
        before = rest;
        while let [rest @ .., n] = before
            && number_part(n)
        {
            before = rest;
        }
    }
    let zh_before = zh(before);
    let zh_before = zh_before
        .strip_suffix("农历")
        .or_else(|| zh_before.strip_suffix("阳历"))
        .unwrap_or(&zh_before);
    ONE_DATE_BEFORE
        .iter()
        .any(|rel| ends_with_loosely(&words, rel))
        || [
            "是",
            "在",
            "是每",
            "在每",
            "是每周",
            "在每周",
            "在周",
            "是周",
            "在星期",
            "是星期",
        ]
        .iter()
        .any(|p| zh_before.ends_with(p))
        || words
            .last()
            .is_some_and(|w| matches!(*w, "born" | "birthday"))
}

/// English: the words before the value name a relation of one value.
fn one_value_en(before: &[Tok], after: &[Tok], old: &[Tok], new: &[Tok]) -> bool {
    let mut words: Vec<&str> = before.iter().filter_map(word).collect();
    // articles and titles belong to the value
    while let Some(last) = words.last()
        && matches!(
            *last,
            "a" | "an" | "the" | "dr" | "mr" | "mrs" | "ms" | "miss" | "prof"
        )
    {
        words.pop();
    }
    if ONE_VALUE_BEFORE
        .iter()
        .any(|rel| ends_with_loosely(&words, rel))
    {
        return true;
    }
    let Some((&last, rest)) = words.split_last() else {
        return false;
    };
    if last != "is" {
        return false;
    }
    // "… favourite colour is …", "my dentist is …", "User's car is …"
    let owner = rest.iter().rposition(|w| *w == "my" || w.ends_with("'s"));
    let Some(owner) = owner else { return false };
    let thing = &rest[owner + 1..];
    if thing.iter().any(|w| ONE_OF_A_KIND.contains(w)) {
        return true;
    }
    let Some(noun) = thing.last() else {
        return false;
    };
    let one_person = ONE_PERSON_NOUNS.contains(noun) || for_a_thing(thing);
    ONE_VALUE_NOUNS.contains(noun)
        || one_person && named(before, old, after) && named(before, new, after)
}

/// Whether `thing` names someone one has one of for a thing ("piano teacher", "personal
/// trainer", "Chinese tutor").
fn for_a_thing(thing: &[&str]) -> bool {
    match thing {
        [.., modifier, role] => {
            ONE_PERSON_FOR_A_THING.contains(role) && FOR_A_THING.contains(modifier)
        }
        _ => false,
    }
}

/// Whether a value is a person's name: capitalized words, with a title before them or in it
/// ("Karen", "Dr. Patel", "Mrs. Ortiz"); not "a teacher" or "from Brazil".
fn named(before: &[Tok], value: &[Tok], after: &[Tok]) -> bool {
    // 陈经理: a Chinese name with its title
    if !value.is_empty() && value.iter().all(|t| matches!(t, Tok::Cjk(_))) {
        return zh_named(value, after);
    }
    let titled = before
        .last()
        .and_then(word)
        .is_some_and(|w| TITLES.contains(&w));
    let mut cap = false;
    for t in value {
        match t {
            Tok::Word { cap: true, .. } => cap = true,
            Tok::Word { lower, .. } if TITLES.contains(&lower.as_str()) => {}
            // a name opens the sentence's value: "is Karen" (capitalized, not the first word)
            _ => return false,
        }
    }
    cap || titled && !value.is_empty()
}

/// Whether a Chinese value is a name with its title (赵总, 黄教授, 王老师): a character or two,
/// then the title, read over the value and what follows it.
fn zh_named(value: &[Tok], after: &[Tok]) -> bool {
    let text: Vec<char> = format!("{}{}", zh(value), zh(after)).chars().collect();
    ZH_TITLES.iter().any(|title| {
        (1..=2).any(|n| {
            let rest: String = text.iter().skip(n).collect();
            rest.starts_with(title)
        })
    })
}

/// Whether `words` ends with `rel`'s last word, its earlier words in order before it with at
/// most two words between ("work full-time at", "lives in").
fn ends_with_loosely(words: &[&str], rel: &[&str]) -> bool {
    let Some((last, rest)) = rel.split_last() else {
        return false;
    };
    if words.last() != Some(last) {
        return false;
    }
    let mut at = words.len() - 1;
    for w in rest.iter().rev() {
        let lo = at.saturating_sub(3);
        match words[lo..at].iter().rposition(|x| x == w) {
            Some(p) => at = lo + p,
            None => return false,
        }
    }
    true
}

/// Chinese: the characters around the value name a relation of one value.
fn one_value_zh(before_toks: &[Tok], after_toks: &[Tok], old: &[Tok], new: &[Tok]) -> bool {
    let (before, after) = (zh(before_toks), zh(after_toks));
    // 用户的 manager 是 …, 我的 favourite drink 是 …: an English noun before 是
    if before.ends_with('是')
        && let [.., Tok::Word { lower, .. }, Tok::Cjk('是')] = before_toks
        && (ONE_VALUE_NOUNS.contains(&lower.as_str())
            || ONE_PERSON_NOUNS.contains(&lower.as_str())
                && named(before_toks, old, after_toks)
                && named(before_toks, new, after_toks)
            || before_toks
                .iter()
                .filter_map(word)
                .any(|w| ONE_OF_A_KIND.contains(&w)))
    {
        return true;
    }
    if ZH_ONE_VALUE_BEFORE.iter().any(|p| before.ends_with(p)) {
        return true;
    }
    // the verb may come a character or two into what follows (在北京大学读研 / 清华大学读研)
    let at_work = (0..=2).any(|k| {
        let rest: String = after.chars().skip(k).collect();
        ZH_AT_WORK.iter().any(|w| rest.starts_with(w))
    });
    if before.ends_with('在') && at_work && !ZH_MANY_PLACES.iter().any(|m| after.contains(m)) {
        return true;
    }
    // 我是北京人
    if before.ends_with('是') && after == "人" {
        return true;
    }
    let Some(owner) = before.strip_suffix('是') else {
        return false;
    };
    if ["最喜欢", "最爱", "最常"].iter().any(|m| owner.contains(m)) {
        return true;
    }
    ZH_ONE_VALUE_NOUNS.iter().any(|n| owner.ends_with(n))
        || ZH_ONE_PERSON_NOUNS.iter().any(|n| owner.ends_with(n))
            && zh_named(old, after_toks)
            && zh_named(new, after_toks)
}
