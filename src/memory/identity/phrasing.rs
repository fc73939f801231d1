//! One bound, degree or modality said in other words: "no fewer than 8 hours" is "at least 8
//! hours", "a maximum of 100 kg" "at most 100 kg", "only just passed" "barely passed", "is
//! able to play" "can play", "would like to learn" "want to learn", "vegetarian most of the
//! time" "mostly vegetarian", "a handful of friends" "a few friends", "hardly any hobbies"
//! "very few hobbies", "has a husband" "is married", "is hard of hearing" "has hearing loss";
//! 不少于 / 至少, 不超过 / 最多, 不怎么 / 不太, 尚未 / 还没, 声称 / 自称. Both
//! sides are written in the one form, and the pair is read again: whatever else differs
//! still counts.
//!
//! Only phrases that say the same in every use are listed ("up to" is also "up to date", "one
//! day" also a single day: neither is).

use crate::memory::text::words_lowered;

/// English phrases and the one form each is written in, as lowercase words.
const EN: &[(&[&str], &[&str])] = &[
    (&["no", "fewer", "than"], &["at", "least"]),
    (&["not", "fewer", "than"], &["at", "least"]),
    (&["no", "less", "than"], &["at", "least"]),
    (&["not", "less", "than"], &["at", "least"]),
    (&["a", "minimum", "of"], &["at", "least"]),
    (&["no", "more", "than"], &["at", "most"]),
    (&["not", "more", "than"], &["at", "most"]),
    (&["a", "maximum", "of"], &["at", "most"]),
    (&["only", "just"], &["barely"]),
    (&["is", "able", "to"], &["can"]),
    (&["are", "able", "to"], &["can"]),
    (&["am", "able", "to"], &["can"]),
    (&["i'm", "able", "to"], &["i", "can"]),
    (&["would", "like", "to"], &["want", "to"]),
    (&["i'd", "like", "to"], &["i", "want", "to"]),
    (&["wants", "to"], &["want", "to"]),
    (&["most", "of", "the", "time"], &["mostly"]),
    (&["a", "handful", "of"], &["a", "few"]),
    (&["hardly", "any"], &["very", "few"]),
    (&["barely", "any"], &["very", "few"]),
    (&["whenever"], &["when"]),
    // a state by who is had, or by its name (`described` writes the rest of such states)
    (&["has", "a", "husband"], &["is", "married"]),
    (&["has", "a", "wife"], &["is", "married"]),
    (&["has", "a", "spouse"], &["is", "married"]),
    (&["have", "a", "husband"], &["am", "married"]),
    (&["have", "a", "wife"], &["am", "married"]),
    (&["have", "a", "spouse"], &["am", "married"]),
    (
        &["is", "hard", "of", "hearing"],
        &["has", "hearing", "loss"],
    ),
    (
        &["am", "hard", "of", "hearing"],
        &["have", "hearing", "loss"],
    ),
    (&["is", "colourblind"], &["has", "colour", "blindness"]),
    (&["is", "colour-blind"], &["has", "colour", "blindness"]),
    (&["is", "colorblind"], &["has", "colour", "blindness"]),
    (&["is", "color-blind"], &["has", "colour", "blindness"]),
    (
        &["has", "color", "blindness"],
        &["has", "colour", "blindness"],
    ),
    (&["is", "expecting", "a", "baby"], &["is", "pregnant"]),
    (&["is", "expecting", "a", "child"], &["is", "pregnant"]),
    (&["by", "myself"], &["alone"]),
    (&["by", "himself"], &["alone"]),
    (&["by", "herself"], &["alone"]),
    (&["by", "themselves"], &["alone"]),
    (&["on", "my", "own"], &["alone"]),
    (&["on", "his", "own"], &["alone"]),
    (&["on", "her", "own"], &["alone"]),
    (&["is", "employed", "by"], &["works", "for"]),
    (&["are", "employed", "by"], &["work", "for"]),
    (&["am", "employed", "by"], &["work", "for"]),
    // "drink" alone is alcohol: "doesn't drink alcohol" is "doesn't drink"
    (&["drink", "alcohol"], &["drink"]),
    (&["drinks", "alcohol"], &["drinks"]),
    (&["is", "teetotal"], &["does", "not", "drink"]),
    (&["am", "teetotal"], &["do", "not", "drink"]),
    (&["are", "teetotal"], &["do", "not", "drink"]),
];

/// Chinese ones, as written.
const ZH: &[(&str, &str)] = &[
    ("不少于", "至少"),
    ("起码", "至少"),
    ("不超过", "最多"),
    ("至多", "最多"),
    ("不怎么", "不太"),
    ("尚未", "还没"),
    ("声称自己", "自称"),
    ("声称", "自称"),
    ("差不多每", "几乎每"),
    ("值夜班", "上夜班"),
    ("滴酒不沾", "不喝酒"),
    ("每周末", "每个周末"),
    ("月薪", "每月工资"),
    ("一个月工资", "每月工资"),
    ("一个月的工资", "每月工资"),
];

/// Going to school said with 上 or 读 (上大学 / 读大学), not after 考 (考上大学 is getting in).
const ZH_SCHOOL: &[(&str, &str)] = &[
    ("上大学", "读大学"),
    ("上高中", "读高中"),
    ("上初中", "读初中"),
    ("上中学", "读中学"),
    ("上小学", "读小学"),
];

/// A period before a count of times is each such period (一周去两次 is 每周去两次).
const ZH_PER: &[(&str, &str)] = &[
    ("一周", "每周"),
    ("一星期", "每周"),
    ("一个星期", "每周"),
    ("一个月", "每月"),
    ("一年", "每年"),
];

/// "在 + a place + 生活" at the end written "住在 + the place".
fn lives_in(text: &str) -> Option<String> {
    let body = text.trim_end_matches(['。', '！', '.', '!']);
    let before = body.strip_suffix("生活")?;
    let at = before.rfind('在')?;
    let place = &before[at + '在'.len_utf8()..];
    let n = place.chars().count();
    if !(2..=6).contains(&n) || place.contains(['的', '里', '中', '下', '一']) {
        return None;
    }
    Some(format!(
        "{}住在{place}{}",
        &before[..at],
        &text[body.len()..]
    ))
}

/// "过 + an age + 岁生日" written "满 + the age + 岁".
fn zh_birthday(text: &str) -> Option<String> {
    let at = text.find('过')?;
    let after = &text[at + '过'.len_utf8()..];
    let age_len: usize = after
        .chars()
        .take_while(|c| c.is_ascii_digit() || "一二两三四五六七八九十百".contains(*c))
        .map(char::len_utf8)
        .sum();
    let rest = after[age_len..].strip_prefix("岁生日")?;
    (age_len > 0).then(|| format!("{}满{}岁{rest}", &text[..at], &after[..age_len]))
}

/// "had her 10th birthday" (celebrated, his, their, my) written "turned 10", in `out` and in
/// its lowercase unpunctuated `lower`.
fn birthday(out: &mut Vec<String>, lower: &mut Vec<String>) -> bool {
    // "10th", not "tenth": the number as written
    let number = |w: &str| {
        w.starts_with(|c: char| c.is_ascii_digit())
            .then(|| super::ordinal::ordinal(w))
            .flatten()
    };
    let Some(at) = lower.windows(4).position(|w| {
        matches!(w[0].as_str(), "had" | "celebrated")
            && WHOSE_BIRTHDAY.contains(&w[1].as_str())
            && number(&w[2]).is_some()
            && w[3] == "birthday"
    }) else {
        return false;
    };
    let n = number(&lower[at + 2]).unwrap_or_default();
    let end = crate::memory::text::end_punctuation(&out[at + 3]).to_string();
    out.splice(at..at + 4, ["turned".to_string(), format!("{n}{end}")]);
    lower.splice(at..at + 4, ["turned".to_string(), n.to_string()]);
    true
}

const WHOSE_BIRTHDAY: &[&str] = &["her", "his", "their", "my", "its", "our", "your"];

/// What one drinks, and what one eats: "has coffee every morning" is "drinks coffee every
/// morning" (with how often said; "has two bottles of wine" may be owning them).
const DRINKS: &[&str] = &[
    "coffee",
    "coffees",
    "tea",
    "teas",
    "beer",
    "beers",
    "wine",
    "milk",
    "juice",
    "soda",
    "espresso",
    "espressos",
    "latte",
    "lattes",
    "cappuccino",
    "smoothie",
    "smoothies",
    "water",
];
const MEALS: &[&str] = &["breakfast", "lunch", "dinner", "brunch", "supper"];
/// Words saying how often.
const HOW_OFTEN: &[&str] = &[
    "daily", "every", "each", "usually", "always", "often", "per", "twice", "once", "day", "week",
    "morning", "mornings", "night", "nights", "evening", "evenings",
];

pub(super) fn in_one_form(text: &str) -> Option<String> {
    super::memo::cached("phrasing::in_one_form", text, in_one_form_fresh)
}

fn in_one_form_fresh(text: &str) -> Option<String> {
    if text.chars().any(super::is_cjk) {
        let mut out = ZH
            .iter()
            .fold(text.to_string(), |t, (said, form)| t.replace(said, form));
        if !out.contains("考上") {
            out = ZH_SCHOOL
                .iter()
                .fold(out, |t, (said, form)| t.replace(said, form));
        }
        if out.contains('次') && !out.contains('了') {
            out = ZH_PER
                .iter()
                .fold(out, |t, (said, form)| t.replace(said, form));
        }
        // 每个周末都去, 周末都会去: after a word for every so often, 都 (and a 会 of habit)
        // says nothing more
        if let Some(every) = super::stance::ZH_HABITUAL
            .iter()
            .filter_map(|w| out.find(w))
            .min()
            && let Some(all) = out[every..].find('都').map(|i| every + i)
            && !out[every..all].contains(['们', '人'])
        {
            let habit = if out[all..].starts_with("都会") {
                "都会"
            } else {
                "都"
            };
            out.replace_range(all..all + habit.len(), "");
        }
        // 在温哥华生活 is 住在温哥华
        if let Some(lived) = lives_in(&out) {
            out = lived;
        }
        // 过十岁生日 is 满十岁
        if let Some(turned) = zh_birthday(&out) {
            out = turned;
        }
        return (out != text).then_some(out);
    }
    let (words, lower) = words_lowered(text);
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    let mut i = 0;
    let mut changed = false;
    while i < words.len() {
        // "up to 100 kg" (not "up to date")
        if lower[i] == "up"
            && lower.get(i + 1).is_some_and(|w| w == "to")
            && lower
                .get(i + 2)
                .is_some_and(|w| w.starts_with(|c: char| c.is_ascii_digit()))
        {
            out.extend(["at".to_string(), "most".to_string()]);
            i += 2;
            changed = true;
            continue;
        }
        let found = EN.iter().find(|(said, _)| {
            lower.len() >= i + said.len()
                && said.iter().zip(&lower[i..]).all(|(s, w)| *s == w.as_str())
        });
        match found {
            // the phrase's last word keeps what ends it ("… of the time.")
            Some((said, form)) => {
                let last = words[i + said.len() - 1];
                let end = crate::memory::text::end_punctuation(last);
                out.extend(form.iter().map(|w| w.to_string()));
                if let Some(w) = out.last_mut() {
                    w.push_str(end);
                }
                // "I'm able to" opening the sentence: "I can"
                let first_at = out.len() - form.len();
                if i == 0
                    && let Some(first) = out.get_mut(first_at)
                    && first == "i"
                {
                    *first = "I".into();
                }
                i += said.len();
                changed = true;
            }
            None => {
                out.push(words[i].to_string());
                i += 1;
            }
        }
    }
    let mut lower_out: Vec<String> = out
        .iter()
        .map(|w| crate::memory::text::unpunctuated(w).to_lowercase())
        .collect();
    if birthday(&mut out, &mut lower_out) {
        changed = true;
    }
    if let Some((at, verb)) = consumed(&lower_out) {
        out[at] = verb.to_string();
        changed = true;
    } else if let Some(at) = goes_doing(&lower_out) {
        // "User goes running" is "User running": the act, as "User runs" reads it
        out.remove(at);
        changed = true;
    }
    changed.then(|| out.join(" "))
}

/// Where "has" (have, had) says what one drinks or eats, and the verb that says it: a drink or
/// a meal a few words after it, ending what is had, with how often said.
fn consumed(lower: &[String]) -> Option<(usize, &'static str)> {
    if !lower.iter().any(|w| HOW_OFTEN.contains(&w.as_str())) {
        return None;
    }
    let at = lower
        .iter()
        .position(|w| matches!(w.as_str(), "has" | "have" | "had"))?;
    let (thing, drink) = (at + 1..lower.len().min(at + 6)).find_map(|i| {
        let w = lower[i].as_str();
        let kind = if DRINKS.contains(&w) {
            Some(true)
        } else if MEALS.contains(&w) {
            Some(false)
        } else {
            None
        };
        kind.map(|k| (i, k))
    })?;
    // "a coffee machine", "tea plants": the drink names another thing
    let ends = lower.get(thing + 1).is_none_or(|n| {
        HOW_OFTEN.contains(&n.as_str())
            || matches!(
                n.as_str(),
                "a" | "an" | "in" | "at" | "with" | "for" | "on" | "before" | "after" | "most"
            )
            || n.chars().all(|c| c.is_ascii_digit())
    });
    if !ends || lower[at + 1..thing].iter().any(|w| w == "no" || w == "not") {
        return None;
    }
    let verb = match (lower[at].as_str(), drink) {
        ("has", true) => "drinks",
        ("have", true) => "drink",
        ("had", true) => "drank",
        ("has", false) => "eats",
        ("have", false) => "eat",
        _ => "ate",
    };
    Some((at, verb))
}

/// Where a "go" (or "goes") before an act in -ing stands: "goes running", "go swimming"
/// ("went" keeps the past; "goes missing" is no act).
fn goes_doing(lower: &[String]) -> Option<usize> {
    lower.windows(2).position(|w| {
        matches!(w[0].as_str(), "go" | "goes")
            && w[1].len() > 5
            && w[1].ends_with("ing")
            && !matches!(
                w[1].as_str(),
                "missing" | "nothing" | "something" | "everything"
            )
    })
}

#[cfg(test)]
mod tests {
    use super::super::trial_tests::one_fact;
    use super::super::trial17_tests::never_one_nor_claimed;
    use super::in_one_form;

    #[test]
    fn a_phrase_is_written_in_its_one_form() {
        for (said, form) in [
            (
                "User needs no fewer than 8 hours of sleep",
                "User needs at least 8 hours of sleep",
            ),
            (
                "User can lift a maximum of 100 kg",
                "User can lift at most 100 kg",
            ),
            (
                "User is vegetarian most of the time.",
                "User is vegetarian mostly.",
            ),
            ("I'm able to swim", "I can swim"),
            ("用户需要睡不少于八个小时", "用户需要睡至少八个小时"),
        ] {
            assert_eq!(in_one_form(said).as_deref(), Some(form), "{said}");
        }
        for said in ["User is up to date", "User likes tea", "用户喜欢茶"] {
            assert_eq!(in_one_form(said), None, "{said}");
        }
    }

    #[test]
    fn one_bound_or_degree_in_other_words_is_one_fact() {
        one_fact(&[
            (
                "User needs at least 8 hours of sleep",
                "User needs no fewer than 8 hours of sleep",
            ),
            (
                "User barely passed the bar exam",
                "User only just passed the bar exam",
            ),
            ("User can play the cello", "User is able to play the cello"),
            (
                "User wants to learn Italian",
                "User would like to learn Italian",
            ),
            (
                "User is mostly vegetarian",
                "User is vegetarian most of the time",
            ),
            (
                "User has a few close friends",
                "User has a handful of close friends",
            ),
            ("User has very few hobbies", "User has hardly any hobbies"),
            ("用户至少需要睡八个小时", "用户需要睡不少于八个小时"),
            ("我不太喜欢咖啡", "我不怎么喜欢咖啡"),
            ("用户还没订去奥斯陆的机票", "用户尚未订去奥斯陆的机票"),
            ("他声称自己会说三种语言", "他自称会说三种语言"),
            ("我几乎每天都喝咖啡", "我差不多每天都喝咖啡"),
            ("User goes running", "User runs"),
            (
                "User can lift up to 100 kg",
                "User can lift a maximum of 100 kg",
            ),
            ("用户的姐姐在温哥华生活", "用户的姐姐住在温哥华"),
            ("我在医院上夜班", "我在医院值夜班"),
            ("用户的女儿在上海读大学", "用户女儿在上海上大学"),
            ("用户每周去两次健身房", "用户一周去健身房两次"),
            ("He works for Shell", "He is employed by Shell"),
            ("I don't drink alcohol", "I don't drink"),
            ("User doesn't drink", "User is teetotal"),
            ("用户不喝酒", "用户滴酒不沾"),
            (
                "User's daughter turned 10 in May",
                "User's daughter had her 10th birthday in May",
            ),
            (
                "User's grandmother turned 90 last week",
                "Last week User's grandma celebrated her 90th birthday",
            ),
            ("用户的女儿五月满十岁", "用户的女儿五月过十岁生日"),
            (
                "User drinks two cups of coffee a day",
                "User has two cups of coffee daily",
            ),
            (
                "User has breakfast every morning at 7",
                "User eats breakfast every morning at 7",
            ),
        ]);
        never_one_nor_claimed(&[
            (
                "User needs at least 8 hours of sleep",
                "User needs no more than 8 hours of sleep",
            ),
            ("User can play the cello", "User was able to play the cello"),
            (
                "User has a few close friends",
                "User has hardly any close friends",
            ),
            ("用户至少需要睡八个小时", "用户最多需要睡八个小时"),
            ("我不太喜欢咖啡", "我不喜欢咖啡"),
            // owning, not drinking; a machine, not coffee; the past
            (
                "User has two bottles of wine",
                "User drinks two bottles of wine",
            ),
            (
                "User has a coffee machine every morning",
                "User drinks coffee every morning",
            ),
            ("User went running", "User runs"),
            ("The cat goes missing", "The cat misses"),
            ("用户考上了大学", "用户在读大学"),
            ("用户的姐姐在温哥华生活", "用户的姐姐住在多伦多"),
            ("用户在一年里生活", "用户住在一年里"),
            (
                "User's daughter turned 10 in May",
                "User's daughter had her 11th birthday in May",
            ),
            ("User doesn't drink", "User drinks"),
            ("用户的女儿五月满十岁", "用户的女儿五月过十一岁生日"),
        ]);
    }
}
