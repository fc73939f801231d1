//! Differences the reading does not see, because they lie in words it passes over: a Chinese
//! function character added or exchanged (我会游泳 / 我会去游泳, 用户一个人住 / 用户和一个人住,
//! 穿着 / 穿过, 孩子们都 / 孩子), and in English a part of the thing named before "of" ("sold
//! the engine of her old van" / "sold her old van", "owns part of a vineyard"). Found by a
//! twentieth held-out trial, which made most of its different pairs so.

use super::is_cjk;

/// Chinese characters and words that say little alone but change the fact when added: with
/// (和), go (去), all (都), also (也, 还), again (又), only (才, 只), originally (本来,
/// 原来), once (曾, 曾经, 一度), the plural (们), always (一直, 总).
const ZH_ADDED: &[&str] = &[
    "和", "去", "都", "也", "还", "又", "才", "就", "本来", "原来", "曾", "曾经", "没", "们",
    "一直", "一度", "再", "刚", "只", "总",
];
/// Aspect characters one may stand for another: 着 (going on), 过 (done once), 了 (done).
const ZH_ASPECT: &[char] = &['着', '过', '了'];
/// Chinese parts of a thing: 用户的手机屏幕碎了 is not 用户的手机碎了.
const ZH_PARTS: &[&str] = &[
    "屏幕",
    "一部分",
    "部分",
    "零件",
    "发动机",
    "轮胎",
    "电池",
    "外壳",
    "屋顶",
    "后座",
];

/// Kinds of place a name is made of (北京大学, 中国银行, 协和医院).
const ZH_INSTITUTIONS: &[&str] = &[
    "大学",
    "中学",
    "小学",
    "学院",
    "学校",
    "医院",
    "银行",
    "公司",
    "博物馆",
    "图书馆",
    "公园",
    "酒店",
    "饭店",
    "机场",
    "车站",
    "电视台",
    "研究所",
];

/// Why `a` and `b` may be two facts though the reading finds the same words, if they may.
pub(super) fn differs(a: &str, b: &str) -> Option<String> {
    let cjk = |t: &str| t.chars().any(is_cjk);
    if cjk(a) && cjk(b) {
        zh_added_or_exchanged(a, b)
            .or_else(|| whose_moved(a, b))
            .or_else(|| whose_moved(b, a))
    } else if !cjk(a) && !cjk(b) {
        article_before_initials(a, b)
            .or_else(|| article_before_initials(b, a))
            .or_else(|| the_before_name(a, b))
            .or_else(|| the_before_name(b, a))
            .or_else(|| designator_exchanged(a, b))
            .or_else(|| one_side_only(a, b, &["also"], &["too", "as well"]))
            .or_else(|| {
                one_side_only(
                    a,
                    b,
                    &["anymore", "any more", "any longer", "no longer"],
                    &[],
                )
            })
            .or_else(|| part_of(a, b))
            .or_else(|| part_of(b, a))
            .or_else(|| plural_against_singular(a, b))
            .or_else(|| plural_against_singular(b, a))
    } else {
        None
    }
}

fn zh_added_or_exchanged(a: &str, b: &str) -> Option<String> {
    let chars = |t: &str| -> Vec<char> {
        t.chars()
            .filter(|c| !c.is_whitespace() && !"。！？，、.!?,".contains(*c))
            .collect()
    };
    let (x, y) = (chars(a), chars(b));
    let (long, short) = if x.len() >= y.len() {
        (&x, &y)
    } else {
        (&y, &x)
    };
    let (head, tail) = crate::memory::text::common_ends(long, short);
    let extra: String = long[head..long.len() - tail].iter().collect();
    let missing: String = short[head..short.len() - tail].iter().collect();
    if missing.is_empty() && (function_words(&extra) || ZH_PARTS.contains(&extra.as_str())) {
        return Some(extra);
    }
    // 北京大学附属医院 against 北京大学: a place that belongs to the named one (a
    // twenty-first trial's look-alikes)
    let before: String = long[..head].iter().collect();
    if missing.is_empty()
        && ZH_INSTITUTIONS.iter().any(|k| extra.ends_with(k))
        && ZH_INSTITUTIONS.iter().any(|k| before.ends_with(k))
    {
        return Some(extra);
    }
    // 北京大学 (one university, named) against 北京的大学 (any university in Beijing): 的
    // before a kind of place on one side only (a twenty-first trial); 我的女儿 is 我女儿
    if missing.is_empty() && extra == "的" {
        let after: String = long[head + 1..].iter().collect();
        if let Some(kind) = ZH_INSTITUTIONS.iter().find(|k| after.starts_with(*k)) {
            return Some(format!("的{kind}"));
        }
    }
    let one = |s: &str| s.chars().count() == 1 && s.chars().all(|c| ZH_ASPECT.contains(&c));
    // 养了两只猫 / 养着两只猫: a pet kept, either way (养过 is a pet once kept)
    let kept = head > 0 && long[head - 1] == '养' && !format!("{extra}{missing}").contains('过');
    (x.len() == y.len() && one(&extra) && one(&missing) && extra != missing && !kept)
        .then(|| format!("{missing} / {extra}"))
}

/// 邻居的车 on one side, 车 … 邻居 on the other: 用户把邻居的车卖了 (the neighbour's car) /
/// 用户把车卖给了邻居 (the car, to the neighbour). Someone other than the user owns it on
/// one side only.
fn whose_moved(a: &str, b: &str) -> Option<String> {
    let chars: Vec<char> = a.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if *c != '的' {
            continue;
        }
        for owner_len in 1..=3 {
            for thing_len in 1..=2 {
                let (Some(o), Some(thing)) =
                    (i.checked_sub(owner_len), chars.get(i + 1..=i + thing_len))
                else {
                    continue;
                };
                let owner: String = chars[o..i].iter().collect();
                let thing: String = thing.iter().collect();
                if ["用户", "我", "他", "她", "户", "们"]
                    .iter()
                    .any(|m| owner.ends_with(m))
                    || !owner.chars().all(is_cjk)
                    || !thing.chars().all(is_cjk)
                {
                    continue;
                }
                let (Some(at_thing), Some(at_owner)) = (b.find(&thing), b.rfind(&owner)) else {
                    continue;
                };
                if at_thing < at_owner && !b.contains(&format!("{owner}的{thing}")) {
                    return Some(format!("{owner}的{thing}"));
                }
            }
        }
    }
    None
}

/// "I have an MS" (a degree) against "I have MS" (an illness): an article before initials on
/// one side only.
fn article_before_initials(a: &str, b: &str) -> Option<String> {
    let x: Vec<&str> = a.split_whitespace().collect();
    let y: Vec<&str> = b.split_whitespace().collect();
    let at = x.iter().position(|w| matches!(*w, "a" | "an"))?;
    let initials = x
        .get(at + 1)
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))?;
    let caps = initials.len() >= 2 && initials.chars().all(|c| c.is_ascii_uppercase());
    let without: Vec<&str> = x[..at].iter().chain(&x[at + 1..]).copied().collect();
    (caps && without == y).then(|| format!("an {initials}"))
}

/// A word without the punctuation around it ("Amazon," is "Amazon").
fn core(w: &str) -> &str {
    w.trim_matches(|c: char| !c.is_alphanumeric())
}

/// "works at Amazon" (a firm) against "works in the Amazon" (a river), "a fan of Queen" (a
/// band) against "a fan of the Queen": "the" before a name on one side only, where the
/// other side never has it (a twenty-first trial).
fn the_before_name(a: &str, b: &str) -> Option<String> {
    let names = |t: &str, with_the: bool| -> Vec<String> {
        let ws: Vec<&str> = t.split_whitespace().collect();
        let mut out = Vec::new();
        for (i, w) in ws.iter().enumerate() {
            let w = core(w).to_string();
            // (not a name written as a plural: "the Netherlands", "the Kinks")
            let name = w.chars().next().is_some_and(char::is_uppercase)
                && w.chars().skip(1).any(char::is_lowercase)
                && !w.ends_with('s')
                && w != "User";
            let the = i > 0 && ws[i - 1].eq_ignore_ascii_case("the");
            if name && the == with_the {
                out.push(w);
            }
        }
        out
    };
    let (the_here, bare_here) = (names(a, true), names(a, false));
    let (the_there, bare_there) = (names(b, true), names(b, false));
    the_here
        .into_iter()
        .find(|n| bare_there.contains(n) && !the_there.contains(n) && !bare_here.contains(n))
        .map(|n| format!("the {n}"))
}

/// "a Tesla Model 3" against "a Tesla Model Y": one name, another letter or number after
/// it (a model, a version), which the reading passes over when it is one letter (a
/// twenty-first trial).
fn designator_exchanged(a: &str, b: &str) -> Option<String> {
    let designated = |t: &str| -> Vec<(String, String)> {
        let ws: Vec<String> = t.split_whitespace().map(|w| core(w).to_string()).collect();
        ws.windows(2)
            .filter(|p| {
                let (name, d) = (&p[0], &p[1]);
                let named = name.chars().next().is_some_and(char::is_uppercase)
                    && name.chars().all(char::is_alphabetic)
                    && !super::lex::MONTHS.contains(&name.to_lowercase().as_str());
                let designator = !d.is_empty()
                    && d.len() <= 4
                    && d.chars()
                        .all(|c| c.is_ascii_digit() || c.is_ascii_uppercase())
                    && d != "I";
                named && designator
            })
            .map(|p| (p[0].clone(), p[1].clone()))
            .collect()
    };
    let (x, y) = (designated(a), designated(b));
    x.iter()
        .find_map(|(name, d)| {
            let other = y.iter().find(|(n, e)| n == name && e != d)?;
            (!y.contains(&(name.clone(), d.clone())))
                .then(|| format!("{name} {d} / {name} {}", other.1))
        })
        .or_else(|| model_suffix(a, b))
        .or_else(|| model_suffix(b, a))
}

/// Words that name another model after a model's number: "an iPhone 15 Pro" is no "iPhone 15".
const MODEL_SUFFIXES: &[&str] = &[
    "Pro", "Max", "Plus", "Mini", "Ultra", "Air", "Lite", "SE", "XL", "Studio",
];

/// A model's number followed by a suffix on one side only ("iPhone 15 Pro" / "iPhone 15").
fn model_suffix(a: &str, b: &str) -> Option<String> {
    let ws: Vec<&str> = a.split_whitespace().collect();
    let other: Vec<&str> = b.split_whitespace().collect();
    ws.windows(2).find_map(|p| {
        let (number, suffix) = (core(p[0]), core(p[1]));
        let model = number.chars().any(|c| c.is_ascii_digit())
            && MODEL_SUFFIXES.contains(&suffix)
            && other.iter().any(|w| core(w) == number)
            && !other.iter().any(|w| core(w) == suffix);
        model.then(|| format!("{number} {suffix}"))
    })
}

/// A word of `first` on one side where the other has one of `second` or none: "also teaches
/// yoga on Sundays" / "teaches yoga on Sundays too" (what else: other things, or other
/// days), "hardly ever drinks" / "hardly drinks anymore" (a habit, or a change).
fn one_side_only(a: &str, b: &str, first: &[&str], second: &[&str]) -> Option<String> {
    let has = |t: &str, ws: &[&str]| {
        let t = super::memo::cached("slight::spaced", t, |t| {
            format!(" {} ", t.to_lowercase().replace(['.', ',', '!'], " "))
        });
        ws.iter()
            .find(|w| t.contains(&format!(" {w} ")))
            .map(|w| w.to_string())
    };
    let (fa, fb) = (has(a, first), has(b, first));
    let (sa, sb) = (has(a, second), has(b, second));
    match (fa, fb) {
        (Some(w), None) | (None, Some(w)) if second.is_empty() || sa.is_some() || sb.is_some() => {
            Some(w)
        }
        _ => None,
    }
}

/// Parts of a thing, before "of" ("the engine of her van", "part of a vineyard").
const PARTS: &[&str] = &[
    "part", "parts", "half", "share", "portion", "engine", "screen", "roof", "chapter", "chapters",
    "page", "pages", "section", "wheel", "wheels", "tire", "tires", "tyre", "tyres", "battery",
    "door", "doors", "window", "windows", "top", "bottom", "front", "back", "rest", "floor",
    "wing", "basement", "garden", "hood", "seat", "seats", "interior",
];
/// People of a kind, many and one.
const PLURALS: &[(&str, &str)] = &[
    ("parents", "parent"),
    ("kids", "kid"),
    ("children", "child"),
    ("sons", "son"),
    ("daughters", "daughter"),
    ("sisters", "sister"),
    ("brothers", "brother"),
    ("siblings", "sibling"),
    ("cousins", "cousin"),
    ("grandchildren", "grandchild"),
    ("grandkids", "grandkid"),
    ("friends", "friend"),
    ("roommates", "roommate"),
];

/// Several people of a kind in `a` where `b` names one: "my kids' school" / "my kid's
/// school", "User's parents are divorced" / "User's parent is divorced".
fn plural_against_singular(a: &str, b: &str) -> Option<String> {
    let words = |t: &str| -> Vec<String> {
        t.split_whitespace()
            .map(|w| {
                let w = w
                    .trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
                    .to_lowercase();
                w.trim_end_matches("'s").trim_end_matches('\'').to_string()
            })
            .collect()
    };
    let (x, y) = (words(a), words(b));
    PLURALS
        .iter()
        .find(|(many, one)| {
            x.iter().any(|w| w == many)
                && y.iter().any(|w| w == one)
                && !x.iter().any(|w| w == one)
                && !y.iter().any(|w| w == many)
        })
        .map(|(many, one)| format!("{many} / {one}"))
}

/// Whether `extra` is one to three of [`ZH_ADDED`] in a row (们都, 也都).
fn function_words(extra: &str) -> bool {
    fn split(rest: &str, left: usize) -> bool {
        rest.is_empty()
            || left > 0
                && ZH_ADDED
                    .iter()
                    .any(|w| rest.strip_prefix(w).is_some_and(|r| split(r, left - 1)))
    }
    // 都 alone is how a habit is said again (我饭后都散步)
    !extra.is_empty() && extra != "都" && split(extra, 3)
}

/// The words `long` adds to `short` when they are a part and "of" before what both name:
/// "the engine of her old van", "part of a vineyard".
fn part_of(long: &str, short: &str) -> Option<String> {
    let words = |t: &str| -> Vec<String> {
        t.split_whitespace()
            .map(|w| {
                w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
                    .to_lowercase()
            })
            .filter(|w| !w.is_empty())
            .collect()
    };
    let (l, s) = (words(long), words(short));
    let at = l.iter().position(|w| w == "of")?;
    // the part: one or two words before "of", after an article or a possessive
    let start = at.checked_sub(2)?;
    let part = &l[start + 1..at];
    if !part.iter().any(|w| PARTS.contains(&w.as_str())) {
        return None;
    }
    let before = &l[..start + 1];
    let after = &l[at + 1..];
    let rest: Vec<&String> = before.iter().chain(after).collect();
    let article = |w: &str| matches!(w, "the" | "a" | "an" | "some");
    // what is left is the short side, with an article the part took ("sold the engine of
    // her van" / "sold her van")
    let left: Vec<&String> = rest.iter().copied().filter(|w| !article(w)).collect();
    let short_left: Vec<&String> = s.iter().filter(|w| !article(w)).collect();
    (!part.is_empty() && !s.iter().any(|w| part.contains(w)) && left == short_left)
        .then(|| part.join(" "))
}

#[cfg(test)]
mod tests {
    use super::differs;

    #[test]
    fn a_function_character_or_a_part_makes_another_fact() {
        for (a, b) in [
            ("我会游泳", "我会去游泳"),
            ("用户一个人住", "用户和一个人住"),
            ("用户穿着西装", "用户穿过西装"),
            ("用户的孩子们都上大学了", "用户的孩子上大学了"),
            ("用户的手机屏幕碎了", "用户的手机碎了"),
            (
                "User sold the engine of her old van",
                "User sold her old van",
            ),
            ("User owns part of a vineyard", "User owns a vineyard"),
        ] {
            assert!(differs(a, b).is_some(), "{a} / {b}");
        }
        for (a, b) in [
            ("用户喜欢喝咖啡", "用户喜欢喝咖啡。"),
            ("用户住在北京", "用户住北京"),
            ("User is a fan of the Lakers", "User is a Lakers fan"),
            (
                "User drinks a cup of tea every morning",
                "User drinks tea every morning",
            ),
        ] {
            assert!(differs(a, b).is_none(), "{a} / {b}");
        }
    }
}
