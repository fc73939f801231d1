//! A word joined to a thing into another thing: "cat videos" is not "cats", 咖啡馆 not 咖啡,
//! 鸵鸟 not 鸟. One side adding such a word is no "more specific wording" of the other: a merge
//! would keep the compound and lose the plain fact.

use super::lexicon;
use super::parse::{Class, Fact, Term};
use super::tables::categories_of;

/// Words after a thing that tell how, when or where, not what ("plays chess online", "runs
/// along the river").
const NOT_A_THING: &[&str] = &[
    "online",
    "offline",
    "daily",
    "weekly",
    "monthly",
    "yearly",
    "together",
    "alone",
    "outdoors",
    "indoors",
    "outside",
    "inside",
    // what it is called: "a dog named Max" is a dog
    "named",
    "called",
    "nicknamed",
    "abroad",
    "overseas",
    "home",
    "often",
    "sometimes",
    "too",
    "also",
    "again",
    "now",
    "here",
    "there",
    "lately",
    "anymore",
    "nowadays",
    "everyday",
    "well",
    "hard",
    "fast",
    "late",
    "early",
    "today",
    "tonight",
    "tomorrow",
    "yesterday",
    "ago",
    "first",
    "remotely",
    "downtown",
    "upstairs",
    "downstairs",
    "nearby",
    "instead",
    "either",
    "anyway",
    "since",
    "along",
    "across",
    "through",
    "during",
    "until",
    "till",
    "via",
    "like",
    "as",
    "near",
    "by",
    "at",
    "on",
    "in",
    "under",
    "behind",
    "between",
    "around",
    "toward",
    "towards",
    "against",
    "despite",
    "when",
    "whenever",
    "while",
    "because",
    "including",
    "except",
    "plus",
    "unless",
    "once",
    "whole",
    "only",
    "so",
    "then",
    "up",
    "out",
    "off",
    "down",
    "back",
];

/// Chinese characters that make what they follow another thing: 咖啡馆 is a café, 猫粮 cat
/// food, 茶杯 a cup.
const ZH_THING_SUFFIXES: &str = "馆店铺杯壶罐瓶盒袋粮具机器厅屋房园场厂缸笼窝架台桌柜包卡票券院菜路街巷灯壳套垫线鞋帽袜药油酱汁粉锅碗盘箱椅床门窗";

/// Whether a character read on its own (unlisted) comes right after `t` in `x`.
fn followed(x: &Fact, t: &Term) -> bool {
    x.terms
        .iter()
        .any(|n| n.left.as_deref() == Some(t.key.as_str()) && n.key == n.shown)
}

/// An unlisted Chinese character that ends what is written (nothing read right after it but a
/// listed word):
/// after a thing it makes another word (蜂 / 蜂蜜, 山 / 山药, 张伟 / 张伟民), unless it is an
/// act, a measure word or says which town or region (杭州市).
fn ends_a_word(x: &Fact, t: &Term) -> bool {
    let mut chars = t.key.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        return false;
    };
    t.key == t.shown
        && !ZH_VERBS.contains(c)
        && !lexicon::ZH_MEASURE.contains(c)
        && !"市省县区镇乡村州".contains(c)
        && (!followed(x, t) || ends_the_text(x, t))
}

/// Whether `t` opens a word of two unlisted characters that ends the text (nothing read
/// after it), right after a listed thing or another unlisted character: a word the tables do
/// not know, at the end, is what the fact is about (火车模型, 轮船模型, 汽车配件).
fn ends_the_text(x: &Fact, t: &Term) -> bool {
    let Some(start) = x.terms.iter().position(|n| n.key == t.key) else {
        return false;
    };
    let after_a_thing = t.left.as_deref().and_then(|k| x.term(k)).is_some_and(|s| {
        (s.key != s.shown && a_thing(&s.key))
            || (s.key == s.shown && s.cjk && s.shown.chars().count() == 1)
    });
    let [n] = &x.terms[start + 1..] else {
        return false;
    };
    after_a_thing
        && n.key == n.shown
        && n.cjk
        && n.shown.chars().count() == 1
        && n.left.as_deref() == Some(t.key.as_str())
        && x.order.last() == Some(&n.key)
}

/// Chinese words that do the same (北京大学 is no 北京, 重庆大厦 no 重庆).
const ZH_THING_SUFFIX_WORDS: &[&str] = &[
    "大学", "大厦", "机场", "医院", "酒店", "公园", "中学", "小学", "银行", "公司", "学院", "学校",
    "集团", "商场", "超市", "书店", "餐厅", "饭店", "剧院", "车站",
];

/// The last word of a street's name: whatever is written before it names another street.
const ZH_STREETS: &[&str] = &["路", "街", "巷", "道", "大道", "大街"];

/// Chinese characters for acts, which before a thing say what is done with it (喝酒, 养猫, 看海),
/// not what kind it is.
pub(super) const ZH_VERBS: &str = "看听读写画做煮泡品沏烧炒烤拍穿戴用带送养喂遛抱摸逗撸追骑开坐乘住去到来回找挑选买卖租借种钓抓捉逛游爬跳跑唱弹拉吹敲学教考练爱恨怕想要";

/// The categories of [`lexicon::CATEGORIES`] that name things (not qualities, times or acts).
const THINGS: &[&str] = &[
    "animal",
    "instrument",
    "drink",
    "food",
    "meal",
    "transport",
    "sport",
    "genre",
    "profession",
    "software",
    "language",
    "study_subject",
    "currency",
];

/// Kinds of place a thing before them makes a place for it ("car park", "tea house").
const PLACES: &[&str] = &[
    "park", "house", "shop", "store", "garden", "yard", "room", "hall", "field", "lot", "market",
    "stand", "club", "court", "track", "farm", "camp", "museum", "show", "bar", "wash",
];

/// Whether a word after a thing tells how, when or where, not what (`NOT_A_THING`).
pub(super) fn not_a_thing(word: &str) -> bool {
    NOT_A_THING.contains(&word) || word.ends_with("ly")
}

/// Whether `key` names a thing by its category (an animal, a drink, a sport…).
pub(super) fn a_thing(key: &str) -> bool {
    categories_of(key).iter().any(|c| THINGS.contains(c))
}

/// A word `x` has and `y` lacks (of `extra`) joined to a word both have into another thing:
/// written right after a thing ("cat videos" is not "cats", "stamp albums" not "stamps",
/// 咖啡馆, 猫粮, 书包), or — in Chinese — right before a one-character one (熊猫
/// is a panda, 鲸鱼 a whale) unless it only says its colour or size (绿茶, 大狗). A merge would
/// keep the compound's wording and lose the plain fact. What the two words form, as written.
pub(super) fn compound(x: &Fact, y: &Fact, extra: &[&Term]) -> Option<String> {
    let kind_of_thing = |t: &Term| t.class == Class::Plain && a_thing(&t.key);
    // what follows a thing and may make it another: a plain English word that is no quality,
    // time, act or preposition ("videos", "shops"); in Chinese only a suffix that does (馆)
    let makes_another = |t: &Term| {
        let w = t.shown.to_lowercase();
        t.class == Class::Plain
            && if t.cjk {
                (w.chars().count() == 1 && w.chars().all(|c| ZH_THING_SUFFIXES.contains(c)))
                    || ZH_THING_SUFFIX_WORDS.contains(&w.as_str())
                    || ends_a_word(x, t)
                    || (a_thing(&t.key) && !followed(x, t))
            } else {
                !NOT_A_THING.contains(&w.as_str())
                    && !w.ends_with("ly")
                    // (or an allergy: "cat allergy" is no cat)
                    && categories_of(&t.key)
                        .iter()
                        .all(|c| THINGS.contains(c) || *c == "allergic_immune")
            }
    };
    // a thing: in Chinese whatever the suffix follows (日本菜, 书包) but an act (喝 / 喝茶 says
    // what is drunk); in English a plain word, not the verb the fact opens with ("reads
    // novels" is no compound) nor a quality or a time ("cold weather", "night shift")
    let thing = |s: &Term, cjk: bool| {
        if cjk {
            match s.class {
                Class::Entity | Class::Kin => true,
                Class::Plain if s.key == s.shown => !s.key.chars().any(|c| ZH_VERBS.contains(c)),
                Class::Plain => a_thing(&s.key),
                _ => false,
            }
        } else {
            let named = a_thing(&s.key);
            // a language by its capitalised name ("French literature")
            (s.class == Class::Plain || (named && s.class == Class::Entity))
                && (named || s.owner.is_some() || x.terms.first().is_none_or(|f| f.key != s.key))
                && (named || categories_of(&s.key).is_empty())
        }
    };
    for t in extra {
        if !makes_another(t) {
            continue;
        }
        if let Some(s) = t.left.as_deref().and_then(|k| x.term(k))
            && y.has(&s.key)
            && thing(s, t.cjk)
        {
            let space = if s.cjk && t.cjk { "" } else { " " };
            return Some(format!("{}{space}{}", s.shown, t.shown));
        }
    }
    // in English, a thing right before another of its kind names a third: "bass guitar" is
    // no guitar, "milk coffee" no coffee ("black guitar" stays a guitar: black names no thing)
    for t in extra.iter().filter(|t| !t.cjk && t.class == Class::Plain) {
        let kinds = categories_of(&t.key);
        let Some(s) = x
            .terms
            .iter()
            .find(|s| s.left.as_deref() == Some(t.key.as_str()) && !s.cjk && y.has(&s.key))
        else {
            continue;
        };
        let shared_kind = categories_of(&s.key)
            .iter()
            .any(|c| THINGS.contains(c) && kinds.contains(c));
        // and a thing right before a kind of place names a place for it: "the car park" is no
        // park, "the dog park" no park (a twenty-first trial)
        let place_for_it = !kinds.is_empty()
            && kinds.iter().all(|c| THINGS.contains(c))
            && PLACES.contains(&s.key.as_str());
        if s.class == Class::Plain && (shared_kind || place_for_it) {
            return Some(format!("{} {}", t.shown, s.shown));
        }
    }
    for s in x
        .terms
        .iter()
        .filter(|s| s.cjk && s.shown.chars().count() == 1)
    {
        let Some(glued) = s.left.as_deref() else {
            continue;
        };
        // an unlisted character (a listed word says what it is: 绿 a colour, 大 a size, 喝
        // an act), no measure word (只猫) and no act (看海)
        let modifier = extra.iter().find(|t| {
            t.key == glued
                && t.cjk
                && t.key == t.shown
                && t.class == Class::Plain
                && !t
                    .key
                    .chars()
                    .any(|c| lexicon::ZH_MEASURE.contains(c) || ZH_VERBS.contains(c))
        });
        if let Some(m) = modifier
            && y.has(&s.key)
            && kind_of_thing(s)
        {
            return Some(format!("{}{}", m.shown, s.shown));
        }
    }
    modified(x, y, extra)
}

/// Chinese written into the name of a place both sides name, before its last word: 北京师范大学
/// is no 北京大学, 中国人民银行 no 中国银行 — another institution, not the same one said more
/// closely (as "sourdough bread" is bread); 南京西路 is no 南京路. What it forms, as written.
fn modified(x: &Fact, y: &Fact, extra: &[&Term]) -> Option<String> {
    // an unlisted character or word; before a street's word, any (南京路 / 南京西路)
    let inserted = |k: Option<&str>, street: bool| {
        let t = *extra.iter().find(|t| Some(t.key.as_str()) == k)?;
        (t.class == Class::Plain && t.cjk && (street || t.key == t.shown)).then_some(t)
    };
    for s in x.terms.iter().filter(|s| s.cjk && y.has(&s.key)) {
        let street = ZH_STREETS.contains(&s.shown.as_str());
        if !street && !ZH_THING_SUFFIX_WORDS.contains(&s.shown.as_str()) {
            continue;
        }
        // right before it, no measure word or act
        let Some(m) = inserted(s.left.as_deref(), street) else {
            continue;
        };
        if m.key
            .chars()
            .any(|c| lexicon::ZH_MEASURE.contains(c) || ZH_VERBS.contains(c) || c == '的')
        {
            continue;
        }
        // the inserted characters that are one run (师范 in 北京师范大学)
        let mut shown = m.shown.clone();
        let mut run = m;
        while let Some(l) = inserted(run.left.as_deref(), street) {
            shown.insert_str(0, &l.shown);
            run = l;
        }
        return Some(format!("{shown}{}", s.shown));
    }
    None
}
