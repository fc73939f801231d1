//! One state described in other words: by who is had ("is the parent of two" is "has two
//! children"; "has a husband" is "is married", as `phrasing` writes it), by what is kept from
//! ("avoids pork" "doesn't eat pork", 忌口猪肉 不吃猪肉), by a thing of someone named for what
//! it is ("my birth year is 1988" "I was born in 1988", "my star sign is Virgo" "I am a
//! Virgo"), 当 / 是…的 of a job (我哥哥在武汉大学当老师 我哥哥是武汉大学的老师), a school by
//! its pupils (是初中生 在读初中), a grade by its pupils ("a second grader" "in second grade"),
//! "still … not" "not … yet". Each side is written in one form, and the pair is read again.

use std::ops::Range;

use crate::memory::text::{ending_as, unpunctuated, words_lowered};

/// What is eaten, or drunk, when one avoids it.
const EATEN: &[&str] = &[
    "pork",
    "beef",
    "meat",
    "gluten",
    "dairy",
    "sugar",
    "carbs",
    "fish",
    "eggs",
    "nuts",
    "peanuts",
    "shellfish",
    "seafood",
    "bread",
    "chocolate",
    "spicy",
    "red",
];
const DRUNK: &[&str] = &[
    "coffee", "alcohol", "caffeine", "tea", "milk", "soda", "beer", "wine",
];

/// A thing of someone named for what it is: "my birth year is 1988" is "I was born in 1988".
const NAMED_FOR: &[(&[&str], &[&str])] = &[
    (&["birth", "year"], &["was", "born", "in"]),
    (&["year", "of", "birth"], &["was", "born", "in"]),
    (&["birthplace"], &["was", "born", "in"]),
    (&["place", "of", "birth"], &["was", "born", "in"]),
    (&["zodiac", "sign"], &["is", "a"]),
    (&["star", "sign"], &["is", "a"]),
    (&["blood", "type"], &["has", "blood", "type"]),
];

/// Chinese: a school by its pupils.
const ZH_PUPILS: &[(&str, &str)] = &[
    ("是初中生", "在读初中"),
    ("是高中生", "在读高中"),
    ("是小学生", "在读小学"),
    ("是大学生", "在读大学"),
    ("忌口", "不吃"),
];

pub(super) fn in_one_form(text: &str) -> Option<String> {
    super::memo::cached("described::in_one_form", text, in_one_form_fresh)
}

fn in_one_form_fresh(text: &str) -> Option<String> {
    if text.chars().any(super::is_cjk) {
        return zh(text);
    }
    let (words, lower) = words_lowered(text);
    let mut out: Vec<String> = words.iter().map(|w| unpunctuated(w).to_string()).collect();
    let mut low: Vec<String> = lower;
    let mut changed = avoided(&mut out, &mut low)
        | parent_of(&mut out, &mut low)
        | grader(&mut out, &mut low)
        | still_not(&mut out, &mut low);
    if let Some(named) = named_for(&out, &low) {
        out = named;
        changed = true;
    }
    changed.then(|| ending_as(out, text))
}

/// `out` and its lowercase `low` with the words at `at` written as `form`; true.
fn put(out: &mut Vec<String>, low: &mut Vec<String>, at: Range<usize>, form: &[&str]) -> bool {
    let form: Vec<String> = form.iter().map(|w| w.to_string()).collect();
    out.splice(at.clone(), form.clone());
    low.splice(at, form);
    true
}

/// "avoids pork" → "does not eat pork", "avoid coffee" → "do not drink coffee".
fn avoided(out: &mut Vec<String>, low: &mut Vec<String>) -> bool {
    let Some(at) = low
        .iter()
        .position(|w| matches!(w.as_str(), "avoids" | "avoid"))
    else {
        return false;
    };
    let Some(thing) = low.get(at + 1) else {
        return false;
    };
    let verb = if EATEN.contains(&thing.as_str()) {
        "eat"
    } else if DRUNK.contains(&thing.as_str()) {
        "drink"
    } else {
        return false;
    };
    let does = if low[at] == "avoids" { "does" } else { "do" };
    put(out, low, at..at + 1, &[does, "not", verb])
}

/// "is the parent of two children" (a parent of three) → "has two children".
fn parent_of(out: &mut Vec<String>, low: &mut Vec<String>) -> bool {
    let Some(at) = low.windows(4).position(|w| {
        w[0] == "is" && matches!(w[1].as_str(), "a" | "the") && w[2] == "parent" && w[3] == "of"
    }) else {
        return false;
    };
    let Some(count) = low.get(at + 4).filter(|c| is_count(c)).cloned() else {
        return false;
    };
    let said_children = low
        .get(at + 5)
        .is_some_and(|w| matches!(w.as_str(), "children" | "kids"));
    let end = at + 5 + usize::from(said_children);
    if end != low.len() {
        return false;
    }
    put(out, low, at..end, &["has", &count, "children"])
}

fn is_count(w: &str) -> bool {
    w.chars().all(|c| c.is_ascii_digit())
        || matches!(
            w,
            "one" | "two" | "three" | "four" | "five" | "six" | "seven" | "eight" | "nine" | "ten"
        )
}

/// "is a second grader" (first to twelfth, 1st to 12th) → "is in second grade".
fn grader(out: &mut Vec<String>, low: &mut Vec<String>) -> bool {
    let Some(at) = low.windows(4).position(|w| {
        w[0] == "is"
            && w[1] == "a"
            && super::ordinal::ordinal(&w[2]).is_some_and(|n| n <= 12)
            && w[3] == "grader"
    }) else {
        return false;
    };
    let ordinal = low[at + 2].clone();
    put(out, low, at..at + 4, &["is", "in", &ordinal, "grade"])
}

/// "still hasn't booked" and "hasn't booked … yet" → "hasn't booked".
fn still_not(out: &mut Vec<String>, low: &mut Vec<String>) -> bool {
    let negated = |w: &str| w.ends_with("n't") || w == "not";
    let mut changed = false;
    if let Some(at) = low.iter().position(|w| w == "still")
        && low.get(at + 1).is_some_and(|n| negated(n))
    {
        out.remove(at);
        low.remove(at);
        changed = true;
    }
    if low.last().is_some_and(|w| w == "yet") && low.iter().any(|w| negated(w)) {
        out.pop();
        low.pop();
        changed = true;
    }
    changed
}

/// "My birth year is 1988" → "I was born in 1988", "User's star sign is Virgo" → "User is a
/// Virgo".
fn named_for(out: &[String], low: &[String]) -> Option<Vec<String>> {
    let is = low.iter().position(|w| w == "is")?;
    let (whose, thing) = (&low[0], &low[1..is]);
    let (_, form) = NAMED_FOR
        .iter()
        .find(|(said, _)| said.iter().eq(thing.iter()))?;
    let who = match whose.as_str() {
        "my" => "I".to_string(),
        "his" => "he".to_string(),
        "her" => "she".to_string(),
        w if w.ends_with("'s") => out[0].trim_end_matches("'s").to_string(),
        _ => return None,
    };
    let mut said = vec![who];
    let form: Vec<String> = form
        .iter()
        .map(|w| {
            if *w == "is" && said[0] == "I" {
                "am".to_string()
            } else {
                w.to_string()
            }
        })
        .collect();
    said.extend(form);
    said.extend(out[is + 1..].iter().cloned());
    Some(said)
}

fn zh(text: &str) -> Option<String> {
    let mut out = ZH_PUPILS
        .iter()
        .fold(text.to_string(), |t, (said, form)| t.replace(said, form));
    // 在武汉大学当老师 → 是武汉大学的老师
    if let Some(at) = out.find('在')
        && let Some(as_) = out[at..].find('当').map(|i| at + i)
    {
        let place = &out[at + '在'.len_utf8()..as_];
        let job = out[as_ + '当'.len_utf8()..].trim_end_matches(['。', '！', '.', '!']);
        let (p, j) = (place.chars().count(), job.chars().count());
        // 当地, 当时, 当天: no job
        if (2..=8).contains(&p)
            && (1..=4).contains(&j)
            && !place.contains(['的', '了'])
            && !job.contains(['了', '过'])
            && !job.starts_with(['地', '时', '天', '前', '初', '然', '中', '年'])
        {
            out = format!("{}是{place}的{job}", &out[..at]);
        }
    }
    (out != text).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::super::trial_tests::one_fact;
    use super::super::trial17_tests::never_one_nor_claimed;

    #[test]
    fn one_state_described_in_other_words_is_one_fact() {
        one_fact(&[
            ("User is married", "User has a husband"),
            ("User is married", "User has a spouse"),
            ("User is hard of hearing", "User has hearing loss"),
            ("User is colourblind", "User has colour blindness"),
            ("User's wife is expecting a baby", "User's wife is pregnant"),
            ("User lives alone", "User lives by himself"),
            ("User doesn't eat pork", "User avoids pork"),
            ("User doesn't drink coffee", "User avoids coffee"),
            ("用户不吃猪肉", "用户忌口猪肉"),
            ("User has two kids", "User is the parent of two children"),
            ("User has three kids", "User is a parent of three"),
            (
                "User's son is in second grade",
                "User's son is a second grader",
            ),
            (
                "User still hasn't booked the flight to Oslo",
                "User hasn't booked the flight to Oslo yet",
            ),
            ("I was born in 1988", "My birth year is 1988"),
            ("I'm a Virgo", "My zodiac sign is Virgo"),
            ("用户的儿子在读初中", "用户的儿子是初中生"),
            ("我的哥哥在武汉大学当老师", "我哥哥是武汉大学的老师"),
        ]);
        never_one_nor_claimed(&[
            ("User is married", "User has a sister"),
            ("User is divorced", "User has a wife"),
            ("User doesn't eat pork", "User avoids beef"),
            ("User avoids Tom", "User doesn't eat Tom"),
            ("User has two kids", "User is the parent of three children"),
            (
                "User's son is in second grade",
                "User's son is a third grader",
            ),
            ("I was born in 1988", "My birth year is 1989"),
            ("I was born in 1988", "My wife's birth year is 1988"),
            ("用户的儿子在读初中", "用户的儿子是高中生"),
            ("我的哥哥在武汉大学当老师", "我哥哥是北京大学的老师"),
            ("User still smokes", "User doesn't smoke yet"),
        ]);
    }
}
