//! The surface a changed value is read from: a text as tokens (words, numbers, Chinese
//! characters), with verbs of change read as the relation they end in and "now" left out,
//! and what a value is: a number with its unit, a date.

use super::super::lex::{Raw, lex, zh_number};
use super::words::*;
use crate::memory::text::is_cjk;

/// A token of the surface: a word (lowercased, with its possessive; as written; capitalized
/// inside the sentence), a number, a Chinese character, or punctuation.
#[derive(Debug, Clone)]
pub(super) enum Tok {
    Word {
        lower: String,
        shown: String,
        cap: bool,
    },
    Number(String),
    Cjk(char),
    Gap,
}

impl PartialEq for Tok {
    /// Words by their lowercase only.
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Tok::Word { lower: a, .. }, Tok::Word { lower: b, .. }) => a == b,
            (Tok::Number(a), Tok::Number(b)) => a == b,
            (Tok::Cjk(a), Tok::Cjk(b)) => a == b,
            (Tok::Gap, Tok::Gap) => true,
            _ => false,
        }
    }
}

pub(super) fn tokens(text: &str) -> Vec<Tok> {
    read(text).0
}

/// [`tokens`] keeping when a change came: where two statements of change differ only there
/// ("moved to Austin in 2019" / "… in 2018"), that is what changed.
pub(super) fn tokens_with_when(text: &str) -> Vec<Tok> {
    read_as(text, false).0
}

/// [`tokens`], and whether a verb of change was read as the relation it ends in ("moved to"
/// as "live in", 搬到 as 住在): then the text's terms are not the relation's.
pub(super) fn read(text: &str) -> (Vec<Tok>, bool) {
    read_as(text, true)
}

fn read_as(text: &str, drop_when: bool) -> (Vec<Tok>, bool) {
    use crate::memory::identity::memo::cached;
    if drop_when {
        cached("update::read", text, |t| read_fresh(t, true))
    } else {
        cached("update::read_with_when", text, |t| read_fresh(t, false))
    }
}

fn read_fresh(text: &str, drop_when: bool) -> (Vec<Tok>, bool) {
    // a title's brackets (《活着》) are no break in the sentence
    let mut text = text.replace(['《', '》', '〈', '〉'], "");
    let mut rewritten = false;
    for (from, to) in ZH_REWRITES {
        if text.contains(from) {
            text = text.replace(from, to);
            rewritten = true;
        }
    }
    // 升高级工程师了: one is the rank now
    if text.contains('升') {
        for rank in ZH_EXCLUSIVE.iter().flat_map(|kind| kind.iter()) {
            let promoted = format!("升{rank}");
            if text.contains(&promoted) {
                text = text.replace(&promoted, &format!("是{rank}"));
                rewritten = true;
            }
        }
    }
    if let Some((before, after)) = text.split_once(ZH_MOVED_TO) {
        let to = if after.contains("工作") || after.contains("上班") {
            "在"
        } else {
            "是"
        };
        text = format!("{before}{to}{after}");
        rewritten = true;
    }
    // 我的新手机号是…: the number changed; 新 is no part of the thing
    if text.contains("的新") {
        for noun in ZH_ONE_VALUE_NOUNS {
            let new_one = format!("的新{noun}");
            if text.contains(&new_one) {
                text = text.replace(&new_one, &format!("的{noun}"));
            }
        }
    }
    if let Some(at_work) = zh_joined(&text) {
        text = at_work;
        rewritten = true;
    }
    if rewritten && drop_when {
        // when the change came is no part of the value (我上个月搬到上海了)
        for when in ZH_CHANGE_TIMES {
            text = text.replace(when, "");
        }
    }
    // an age is this year's: 我29岁了 is 我今年29岁
    if text.contains('岁') {
        text = this_years_age(&text);
    }
    // 我把网名改成了夜猫子: 我的网名是夜猫子
    if rewritten {
        for (from, to) in [("我们把", "我们的"), ("我把", "我的")] {
            if text.starts_with(from) {
                text = text.replacen(from, to, 1);
            }
        }
    }
    let raw = lex(&text);
    let mut out: Vec<Tok> = Vec::with_capacity(raw.len());
    for r in raw {
        let tok = match r {
            Raw::Word {
                lower,
                shown,
                possessive,
                cap,
                ..
            } => {
                let lower = VERB_FORMS
                    .iter()
                    .find(|(form, _)| *form == lower)
                    .map_or(lower, |(_, plain)| plain.to_string());
                Tok::Word {
                    lower: if possessive {
                        format!("{lower}'s")
                    } else {
                        lower
                    },
                    shown,
                    // capitalized past the text's first word (the lexer counts a sentence
                    // anew after "Dr.")
                    cap: cap && !out.is_empty(),
                }
            }
            Raw::Digits(d) => Tok::Number(d),
            Raw::Cjk(c) => Tok::Cjk(c),
            Raw::Gap | Raw::Break => {
                // the full stop of "Dr." or "Mrs." ends no sentence
                if out.last().and_then(word).is_some_and(|w| {
                    matches!(w, "dr" | "mr" | "mrs" | "ms" | "st" | "jr" | "prof" | "mt")
                }) {
                    continue;
                }
                Tok::Gap
            }
        };
        out.push(tok);
    }
    // "moved to X" says where one lives now, "started a new job at X" where one works
    let mut i = 0;
    while i < out.len() {
        let Some((len, relation)) = CHANGE_VERBS.iter().find_map(|(says, relation)| {
            let words = out[i..].iter().take(says.len()).map(word);
            (words.len() == says.len() && words.eq(says.iter().map(|w| Some(*w))))
                .then_some((says.len(), *relation))
        }) else {
            // "turned 41": the age one is now
            if word(&out[i]) == Some("turned") && matches!(out.get(i + 1), Some(Tok::Number(_))) {
                rewritten = true;
                let i_am = i > 0 && word(&out[i - 1]) == Some("i");
                out[i] = plain_word(if i_am { "am" } else { "is" });
            }
            i += 1;
            continue;
        };
        rewritten = true;
        out.splice(i..i + len, relation.iter().map(|w| plain_word(w)));
        if i > 0 && matches!(word(&out[i - 1]), Some("has" | "have")) {
            out.remove(i - 1);
        } else {
            i += 1;
        }
    }
    // "my rent went up to $1,950": "my rent is $1,950" (not "I'm down to", below)
    let mut i = 1;
    while i < out.len() {
        let by_a_thing = !matches!(word(&out[i - 1]), Some("i" | "we" | "am" | "are"));
        let became = BECAME.iter().find(|says| {
            let words = out[i..].iter().take(says.len()).map(word);
            words.len() == says.len() && words.eq(says.iter().map(|w| Some(*w)))
        });
        if let Some(says) = became.filter(|_| by_a_thing) {
            out.splice(i..i + says.len(), [plain_word("is")]);
            rewritten = true;
        }
        i += 1;
    }
    // "my car insurance is with Geico": with whom a thing of one's is held is its value
    let mut i = 2;
    while i < out.len() {
        if word(&out[i]) == Some("with")
            && word(&out[i - 1]) == Some("is")
            && word(&out[i - 2]).is_some_and(|n| ONE_VALUE_NOUNS.contains(&n))
        {
            out.remove(i);
        }
        i += 1;
    }
    // "I'm down to 76 kg", "down to 84 kilos": what one weighs now
    let i_am = out.first().and_then(word) == Some("i") && out.get(1).and_then(word) == Some("am");
    let down = usize::from(i_am) * 2;
    if matches!(out.get(down).and_then(word), Some("down" | "up"))
        && out.get(down + 1).and_then(word) == Some("to")
        && matches!(out.get(down + 2), Some(Tok::Number(_)))
        && out
            .get(down + 3)
            .and_then(word)
            .is_some_and(|u| WEIGHT_UNITS.contains(&u))
    {
        out.splice(..down + 2, [plain_word("i"), plain_word("weigh")]);
        rewritten = true;
    }
    // "I changed my username to nightowl": "my username is nightowl"
    if let Some(changed_to) = changed_to(&out) {
        out = changed_to;
        rewritten = true;
    }
    if rewritten && drop_when {
        drop_when_it_changed(&mut out);
    }
    out.retain(|t| !word(t).is_some_and(|w| NOW.contains(&w)));
    // "these days" as "now"
    let mut i = 1;
    while i < out.len() {
        if word(&out[i - 1]) == Some("these") && word(&out[i]) == Some("days") {
            out.drain(i - 1..=i);
        } else {
            i += 1;
        }
    }
    // "my new phone number is …" says the number changed; "new" is no part of the thing
    let mut i = 1;
    while i < out.len() {
        let owner =
            word(&out[i - 1]).is_some_and(|w| matches!(w, "my" | "our") || w.ends_with("'s"));
        if owner && word(&out[i]) == Some("new") {
            out.remove(i);
        }
        i += 1;
    }
    // "29 years old" is the age 29
    let mut i = 1;
    while i + 1 < out.len() {
        if matches!(out[i - 1], Tok::Number(_))
            && matches!(word(&out[i]), Some("years" | "year" | "yrs"))
            && word(&out[i + 1]) == Some("old")
        {
            out.drain(i..i + 2);
        }
        i += 1;
    }
    let mut zh_now: Vec<Tok> = Vec::new();
    for t in out {
        zh_now.push(t);
        for now in ZH_NOW {
            let n = now.chars().count();
            if zh_now.len() >= n && zh(&zh_now[zh_now.len() - n..]) == *now {
                zh_now.truncate(zh_now.len() - n);
            }
        }
    }
    let mut out = zh_now;
    // "Correction: …", "Sorry, …", 打错了，…
    if let Some(first) = out.first().and_then(word)
        && CORRECTIONS.contains(&first)
    {
        let skip = 1 + usize::from(matches!(out.get(1), Some(Tok::Gap)));
        out.drain(..skip.min(out.len()));
    }
    let opening = zh(&out[..out.len().min(4)]);
    if let Some(c) = ZH_CORRECTIONS.iter().find(|c| opening.starts_with(**c))
        && out
            .iter()
            .take(c.chars().count())
            .all(|t| matches!(t, Tok::Cjk(_)))
    {
        let n = c.chars().count();
        let skip = n + usize::from(matches!(out.get(n), Some(Tok::Gap)));
        out.drain(..skip.min(out.len()));
    }
    while matches!(out.last(), Some(Tok::Gap) | Some(Tok::Cjk('了'))) {
        out.pop();
    }
    // 我奶奶 is 奶奶, 我女儿 女儿: one's own, said or not
    if out.first() == Some(&Tok::Cjk('我')) {
        let rest = zh(&out[1..out.len().min(4)]);
        if ZH_ONE_OF
            .iter()
            .chain(ZH_OTHERS)
            .any(|k| rest.starts_with(k))
        {
            out.remove(0);
        }
    }
    (out, rewritten)
}

/// `text` with 今年 before each age that has none (我29岁了 → 我今年29岁了), so that an age said
/// with it and one said without are the same words around another value.
fn this_years_age(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let is_num = |c: char| c.is_ascii_digit() || is_numeral(c);
    let mut out = String::with_capacity(text.len() + 6);
    for (i, &c) in chars.iter().enumerate() {
        if i > 0 && is_num(c) && !is_num(chars[i - 1]) {
            let end = (i..chars.len())
                .find(|&j| !is_num(chars[j]))
                .unwrap_or(chars.len());
            if chars.get(end) == Some(&'岁') && !out.ends_with("今年") {
                out.push_str("今年");
            }
        }
        out.push(c);
    }
    out
}

/// Whether `text` says that what it states changed: "now", "currently", a correction
/// ("actually", 打错了), a verb of change ("moved to", 搬到), 现在, 已经, or a closing 了.
pub(super) fn says_it_changed(text: &str) -> bool {
    let closing = text.trim_end_matches(|c: char| {
        c.is_whitespace() || c.is_ascii_punctuation() || "。！～".contains(c)
    });
    read(text).1
        || closing.ends_with('了')
        || ZH_NOW.iter().chain(ZH_CORRECTIONS).any(|w| text.contains(w))
        || lex(text).iter().any(|r| {
            matches!(r, Raw::Word { lower, .. } if NOW.contains(&lower.as_str()) || CORRECTIONS.contains(&lower.as_str()))
        })
}

/// 入职 X (了) read as 在 X 工作, the words of where one works: "我上周入职美团了" says
/// "我在美团工作" now. `None` without 入职, or with more than a value after it.
fn zh_joined(text: &str) -> Option<String> {
    let (before, after) = ZH_JOINED.iter().find_map(|j| text.split_once(j))?;
    let after = after.strip_prefix('了').unwrap_or(after);
    let value = after.trim_end_matches(['了', '。', '！', '!', '.', '啦']);
    let plain_value = !value.is_empty()
        && value.chars().count() <= 6
        && value.chars().all(|c| c.is_alphanumeric())
        && !value.contains(['的', '是', '在', '和', '时']);
    plain_value.then(|| format!("{before}在{value}工作"))
}

/// "I (have) changed my X to Y" (switched, upgraded, raised, …) read as "my X is Y": `None`
/// for anything else.
fn changed_to(toks: &[Tok]) -> Option<Vec<Tok>> {
    // "I switched my …", or as chat leaves the subject out: "Switched my …"
    let mut k = usize::from(matches!(toks.first().and_then(word), Some("i" | "we")));
    if matches!(toks.get(k).and_then(word), Some("have" | "has")) {
        k += 1;
    }
    if !toks
        .get(k)
        .and_then(word)
        .is_some_and(|w| CHANGED_TO.contains(&w))
    {
        return None;
    }
    k += 1;
    let owner = k;
    let owned = matches!(toks.get(owner).and_then(word), Some("my" | "our"));
    // the thing: a few words, then "to" ("switched health insurance to Kaiser": mine)
    let first = if owned { owner + 1 } else { owner };
    let to = (first + 1..=(first + 3).min(toks.len().saturating_sub(2)))
        .find(|&j| word(&toks[j]) == Some("to"))?;
    if toks[first..to]
        .iter()
        .any(|t| !matches!(t, Tok::Word { .. }))
    {
        return None;
    }
    // "switched internet providers to Verizon": the one provider
    let mut thing = toks[first..to].to_vec();
    let one = |n: &str| ONE_VALUE_NOUNS.contains(&n) || ONE_PERSON_NOUNS.contains(&n);
    if let Some(last) = thing.last_mut()
        && let Some(w) = word(last)
        && !one(w)
    {
        match w.strip_suffix('s').filter(|n| one(n)) {
            Some(n) => *last = plain_word(n),
            // without "my", only a thing of one's one of
            None if !owned => return None,
            None => {}
        }
    }
    let mut out = vec![if owned {
        toks[owner].clone()
    } else {
        plain_word("my")
    }];
    out.extend(thing);
    out.push(plain_word("is"));
    out.extend_from_slice(&toks[to + 1..]);
    Some(out)
}

/// Leaves out, at the end of a statement of change, when it came: "last month",
/// "yesterday", "two weeks ago", "this year".
fn drop_when_it_changed(out: &mut Vec<Tok>) {
    loop {
        while matches!(out.last(), Some(Tok::Gap)) {
            out.pop();
        }
        let n = out.len();
        if n == 0 {
            return;
        }
        let last = |k: usize| out.get(n.wrapping_sub(k)).and_then(word);
        let take = match last(1) {
            Some(w) if WHEN_WORDS.contains(&w) => 1,
            None if matches!(&out[n - 1], Tok::Number(y) if y.len() == 4)
                && last(2) == Some("in") =>
            {
                2
            }
            Some(w)
                if WHEN_UNITS.contains(&w) && matches!(last(2), Some("last" | "this" | "past")) =>
            {
                if last(3) == Some("the") {
                    3
                } else {
                    2
                }
            }
            // "in March", "in 2023", "in the spring"
            Some(w) if MONTHS.contains(&w) || WHEN_UNITS.contains(&w) => match (last(2), last(3)) {
                (Some("in"), _) => 2,
                (Some("the"), Some("in")) => 3,
                _ => 0,
            },
            Some("ago") if last(2).is_some_and(|u| WHEN_UNITS.contains(&u)) => {
                // "two weeks ago", "a few days ago", "a couple of months ago", "3 days ago"
                let mut k = 3;
                while n > k
                    && (matches!(out[n - k], Tok::Number(_))
                        || last(k).is_some_and(|w| AGO_COUNTS.contains(&w)))
                {
                    k += 1;
                }
                k - 1
            }
            _ => 0,
        };
        if take == 0 || take >= n {
            return;
        }
        out.truncate(n - take);
    }
}

pub(super) fn plain_word(w: &str) -> Tok {
    Tok::Word {
        lower: w.into(),
        shown: w.into(),
        cap: false,
    }
}

pub(super) fn shown(toks: &[Tok]) -> String {
    let mut s = String::new();
    for t in toks {
        match t {
            Tok::Word { shown: w, .. } | Tok::Number(w) => {
                if !s.is_empty() && !s.ends_with(|c: char| is_cjk(c)) {
                    s.push(' ');
                }
                s.push_str(w);
            }
            Tok::Cjk(c) => s.push(*c),
            Tok::Gap => s.push(','),
        }
    }
    s
}

/// A value as `text` writes it: from its first token to its last, with what glues a word or
/// a number together around them ("coolcat88", "555-0199", "@dog", "jk@proton.me"); shown
/// token by token where the text does not hold it as such (read through a rewrite).
pub(super) fn as_written(text: &str, value: &[Tok]) -> String {
    let spelled = |t: &Tok| match t {
        Tok::Word { shown, .. } | Tok::Number(shown) => Some(shown.clone()),
        Tok::Cjk(c) => Some(c.to_string()),
        Tok::Gap => None,
    };
    let Some(spellings) = value.iter().map(spelled).collect::<Option<Vec<String>>>() else {
        return shown(value);
    };
    let Some(first) = spellings.first() else {
        return shown(value);
    };
    let glue = |c: char| !is_cjk(c) && (c.is_alphanumeric() || "-_@.+#/'&".contains(c));
    // the last place the value's tokens are found in order
    let found = text.rmatch_indices(first.as_str()).find_map(|(start, _)| {
        let mut end = start;
        for s in &spellings {
            end += text[end..].find(s.as_str())? + s.len();
        }
        Some((start, end))
    });
    // a number written with commas ("$1,800", read as 1800) is shown with them
    let found = found.or_else(|| match value {
        [Tok::Number(digits)] => with_commas(text, digits),
        _ => None,
    });
    let Some((mut start, mut end)) = found else {
        return shown(value);
    };
    while let Some(c) = text[..start].chars().next_back().filter(|c| glue(*c)) {
        start -= c.len_utf8();
    }
    while let Some(c) = text[end..].chars().next().filter(|c| glue(*c)) {
        end += c.len_utf8();
    }
    let written = text[start..end].trim_end_matches(['.', '\'', '&', '/']);
    // more words than the value's, or a number that was not one: the tokens as they are
    let words = |s: &str| s.split_whitespace().count();
    if words(written) > value.len() {
        return shown(value);
    }
    written.to_string()
}

/// Where `digits` is written in `text` with commas between them ("1,800" for 1800), the
/// last place.
fn with_commas(text: &str, digits: &str) -> Option<(usize, usize)> {
    let mut found = None;
    let mut at = 0;
    while let Some(start) = text[at..]
        .find(|c: char| c.is_ascii_digit())
        .map(|i| at + i)
    {
        let len = text[start..]
            .find(|c: char| !(c.is_ascii_digit() || c == ','))
            .unwrap_or(text.len() - start);
        let run = text[start..start + len].trim_end_matches(',');
        if run.contains(',') && run.chars().filter(|c| *c != ',').eq(digits.chars()) {
            found = Some((start, start + run.len()));
        }
        at = start + len;
    }
    found
}

pub(super) fn word(t: &Tok) -> Option<&str> {
    match t {
        Tok::Word { lower, .. } => Some(lower),
        _ => None,
    }
}

/// The Chinese characters of `toks`, as one string.
pub(super) fn zh(toks: &[Tok]) -> String {
    toks.iter()
        .filter_map(|t| match t {
            Tok::Cjk(c) => Some(*c),
            _ => None,
        })
        .collect()
}

/// Whether a text is a plain statement: not a question, a quote, a negation or a condition,
/// none of which changes a value.
pub(super) fn plain(text: &str) -> bool {
    if text.chars().any(|c| {
        matches!(
            c,
            '?' | '？' | '"' | '“' | '”' | '「' | '」' | '『' | '』' | '«' | '»' | '吗' | '嗎'
        ) || matches!(c, '不' | '没' | '未')
    }) {
        return false;
    }
    let lower = text.to_lowercase();
    let negated = lower
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .any(|w| {
            matches!(w, "not" | "no" | "never" | "nobody" | "none" | "nothing")
                || w.ends_with("n't")
                || w.ends_with("nt") && super::super::lex::negated_without_apostrophe(w).is_some()
        });
    !negated && !super::super::conditional(text)
}

pub(super) fn is_numeral(c: char) -> bool {
    zh_number(&[c]).is_some() || matches!(c, '十' | '百' | '千' | '万' | '亿' | '两' | '半')
}

/// Whether a token is (part of) a number: digits, a number word, a Chinese numeral.
pub(super) fn number_part(t: &Tok) -> bool {
    match t {
        Tok::Number(_) => true,
        Tok::Word { lower, .. } => NUMBER_WORDS.contains(&lower.as_str()),
        Tok::Cjk(c) => is_numeral(*c),
        Tok::Gap => false,
    }
}

/// The unit of a changed value that is a number — what follows its number ("kids" of "two
/// kids", 个小时) — or `None` when the value is no number: it opens with one, and at most
/// a word or three characters follow ("Canon EOS R6", 爷爷89 are no numbers).
pub(super) fn unit(toks: &[Tok]) -> Option<Vec<String>> {
    let toks = without_time_of_day(toks);
    // "12 half marathons": a "half" after a number says what is counted
    let numbers = toks
        .iter()
        .enumerate()
        .take_while(|(i, t)| number_part(t) && !(*i > 0 && word(t) == Some("half")))
        .count();
    if numbers == 0 {
        return None;
    }
    // 半 after a unit is part of the number (6点半)
    let rest: Vec<&Tok> = toks[numbers..]
        .iter()
        .filter(|t| !matches!(t, Tok::Cjk('半' | '个')))
        .collect();
    let words = rest.iter().filter(|t| !matches!(t, Tok::Cjk(_))).count();
    let chars = rest.len() - words;
    if words > 1 || chars > 3 || rest.iter().any(|t| number_part(t)) {
        return None;
    }
    // units of one kind: a time of day, a length of time, a number of times
    let kind = |u: &str| -> String {
        match u {
            "am" | "pm" | "点" => "o'clock",
            "hour" | "hours" | "minute" | "minutes" | "mins" | "min" | "小时" | "分钟" => {
                "duration"
            }
            "time" | "times" | "次" => "times",
            "feet" | "foot" | "ft" => "foot",
            other => other,
        }
        .to_string()
    };
    let shown = shown(&rest.iter().map(|t| (*t).clone()).collect::<Vec<_>>());
    let mut unit = vec![kind(&shown)];
    let once = toks[..numbers]
        .iter()
        .filter_map(word)
        .any(|w| matches!(w, "once" | "twice" | "thrice"));
    if once && shown.is_empty() {
        unit = vec![kind("times")];
    }
    Some(unit)
}

/// `toks` without a time of day before the hour (下午三点 / 晚上八点): the number's own.
fn without_time_of_day(toks: &[Tok]) -> &[Tok] {
    match zh(toks.get(..2).unwrap_or_default()).as_str() {
        "上午" | "下午" | "早上" | "晚上" | "中午" | "凌晨" | "傍晚" => &toks[2..],
        _ => toks,
    }
}

/// The number a value opens with: digits ("8:30" is 8.5), a number word, Chinese numerals.
pub(super) fn number_value(toks: &[Tok]) -> Option<f64> {
    const WORDS: &[(&str, f64)] = &[
        ("one", 1.0),
        ("two", 2.0),
        ("three", 3.0),
        ("four", 4.0),
        ("five", 5.0),
        ("six", 6.0),
        ("seven", 7.0),
        ("eight", 8.0),
        ("nine", 9.0),
        ("ten", 10.0),
        ("eleven", 11.0),
        ("twelve", 12.0),
        ("fifteen", 15.0),
        ("twenty", 20.0),
        ("thirty", 30.0),
        ("forty", 40.0),
        ("fifty", 50.0),
        ("once", 1.0),
        ("twice", 2.0),
        ("half", 0.5),
        ("dozen", 12.0),
    ];
    let toks = without_time_of_day(toks);
    match toks.first()? {
        Tok::Number(n) => match n.split_once(':') {
            Some((h, m)) => Some(h.parse::<f64>().ok()? + m.parse::<f64>().ok()? / 60.0),
            None => n.parse().ok(),
        },
        Tok::Word { lower, .. } => WORDS.iter().find(|(w, _)| w == lower).map(|(_, v)| *v),
        Tok::Cjk(_) => {
            let run: Vec<char> = toks
                .iter()
                .map_while(|t| match t {
                    Tok::Cjk(c) if is_numeral(*c) => Some(*c),
                    _ => None,
                })
                .collect();
            if run.is_empty() {
                return None;
            }
            zh_number(&run).map(|v| v as f64)
        }
        Tok::Gap => None,
    }
}

/// Whether two changed values are numbers of one unit ("2 cats" / "3 cats", 两万 / 两万五).
pub(super) fn numeric(old: &[Tok], new: &[Tok]) -> bool {
    matches!((unit(old), unit(new)), (Some(a), Some(b)) if a == b)
}

/// Whether a changed number is a day of a month ("June 12", 6月10号).
pub(super) fn date_number(before: &[Tok], after: &[Tok]) -> bool {
    let month = before
        .last()
        .and_then(word)
        .is_some_and(|w| DAYS.contains(&w));
    // 6月10号, not 每月15号 (a month's, each month)
    let zh_month = matches!(before, [.., n, Tok::Cjk('月')] if number_part(n));
    let day = matches!(after.first(), Some(Tok::Cjk('号' | '日')));
    // "on the 14th", "on 3" (of June), not "on the 5th floor"
    let words: Vec<&str> = before.iter().filter_map(word).collect();
    let of_a_month = after.first().and_then(word).is_none_or(|w| w == "of");
    let on = (words.ends_with(&["on", "the"]) || words.last() == Some(&"on")) && of_a_month;
    month || zh_month || day || on
}

/// Whether `toks` is a day or a month (a weekday in Chinese: 周二, 星期四).
pub(super) fn date(toks: &[Tok], before: &[Tok]) -> bool {
    let day = toks.iter().filter_map(word).any(|w| DAYS.contains(&w));
    let zh_before = zh(before);
    let value = zh(toks);
    let weekday = ["周", "星期", "礼拜"].iter().any(|w| {
        let day =
            |rest: &str| rest.starts_with(['一', '二', '三', '四', '五', '六', '日', '天', '末']);
        (zh_before.ends_with(w) && day(&value)) || value.strip_prefix(w).is_some_and(day)
    });
    day || weekday
}
