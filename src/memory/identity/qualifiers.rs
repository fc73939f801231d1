//! How much, how often, how well or in what state a fact holds, where one side only saying it,
//! or saying another, makes another fact: "speaks some German" / "is fluent in German",
//! "every other summer", "before taxes", 同居 / 分居 (found by a seventeenth held-out trial),
//! one way against a round trip (an eighteenth).

use std::collections::BTreeSet;

/// Words and phrases that say how much, how often or in what state, each with what it
/// stands for: one side only, or another one, is another fact ("speaks some German" / "is
/// fluent in German", "earns $85k" / "… after taxes", "every summer" / "every other summer",
/// "engaged to Chris" / "married to Chris"). Matched on whole words.
const QUALIFIERS: &[(&str, &str)] = &[
    ("a little", "a little"),
    ("a bit", "a little"),
    ("some", "some"),
    ("slightly", "a little"),
    ("somewhat", "a little"),
    ("kind of", "a little"),
    ("sort of", "a little"),
    ("basic", "basic"),
    ("conversational", "conversational"),
    ("fluent", "fluent"),
    ("fluently", "fluent"),
    ("mostly", "mostly"),
    ("partly", "partly"),
    ("partially", "partly"),
    ("after tax", "net"),
    ("after taxes", "net"),
    ("post-tax", "net"),
    ("net", "net"),
    ("take-home", "net"),
    ("take home", "net"),
    ("before tax", "gross"),
    ("before taxes", "gross"),
    ("pre-tax", "gross"),
    ("pretax", "gross"),
    ("gross", "gross"),
    ("every other", "every other"),
    ("every second", "every other"),
    ("every few", "every few"),
    ("biweekly", "every other"),
    ("fortnightly", "every other"),
    ("engaged", "engaged"),
    ("fiance", "engaged"),
    ("fiancé", "engaged"),
    ("fiancee", "engaged"),
    ("fiancée", "engaged"),
    ("divorced", "divorced"),
    ("separated", "separated"),
    ("widowed", "widowed"),
    ("dating", "dating"),
    ("at most", "at most"),
    ("up to", "at most"),
    ("no more than", "at most"),
    ("at least", "at least"),
    ("no less than", "at least"),
    ("up by", "changed by"),
    ("down by", "changed by"),
    ("increased by", "changed by"),
    ("decreased by", "changed by"),
    ("rose by", "changed by"),
    ("fell by", "changed by"),
    ("each way", "one way"),
    ("one way", "one way"),
    ("round trip", "round trip"),
    ("return trip", "round trip"),
    ("both ways", "round trip"),
    // a twenty-first trial: "a half marathon" is no marathon, "a couple of dozen cats" no
    // couple, "has finished his final year" no longer in it
    ("dozens", "dozens"),
    ("mid-size", "mid-size"),
    ("midsize", "mid-size"),
    ("full-size", "full-size"),
    ("fullsize", "full-size"),
    ("compact", "compact"),
    ("subcompact", "subcompact"),
    ("couple of dozen", "dozens"),
    ("few dozen", "dozens"),
    ("several dozen", "dozens"),
    ("half a dozen", "half a dozen"),
    ("finished", "done"),
    ("finishes", "done"),
    ("completed", "done"),
    ("completes", "done"),
];
/// Chinese ones, as written, with what each stands for.
const ZH_QUALIFIERS: &[(&str, &str)] = &[
    ("一点", "a little"),
    ("不很", "not very"),
    ("不太", "not very"),
    ("不一定", "not surely"),
    ("一定不", "surely not"),
    ("不少", "many"),
    ("很多", "many"),
    ("好多", "many"),
    ("许多", "many"),
    ("几个", "a few"),
    ("没几个", "few"),
    ("没有几个", "few"),
    ("一些", "some"),
    ("稍微", "a little"),
    ("有点", "a little"),
    ("流利", "fluent"),
    ("税前", "gross"),
    ("税后", "net"),
    ("到手", "net"),
    ("同居", "living together"),
    ("分居", "separated"),
    ("离婚", "divorced"),
    ("订婚", "engaged"),
    ("十几", "ten and more"),
    ("几十", "tens"),
    ("几百", "hundreds"),
    ("上百", "hundreds"),
    ("几千", "thousands"),
    ("半程", "half"),
    ("全程", "full"),
    ("单程", "one way"),
    ("往返", "round trip"),
    ("来回", "round trip"),
];

/// Periods a "within" may hold.
const PERIODS: &[&str] = &[
    "day",
    "week",
    "month",
    "year",
    "fortnight",
    "decade",
    "season",
];

/// Whether `w` (lowercase) is an ordinal: "third", "3rd", "21st" ("first" is also an idiom's:
/// "first language", "at first").
fn is_ordinal(w: &str) -> bool {
    let digits = w.chars().take_while(char::is_ascii_digit).count();
    digits > 0 && matches!(&w[digits..], "st" | "nd" | "rd" | "th")
        || matches!(
            w,
            "second"
                | "third"
                | "fourth"
                | "fifth"
                | "sixth"
                | "seventh"
                | "eighth"
                | "ninth"
                | "tenth"
                | "eleventh"
                | "twelfth"
        )
}

/// Whether a month is named right before or after the word at `i` ("May 3rd", "3rd of May").
fn beside_a_month(words: &[String], i: usize) -> bool {
    const SHORT: &[&str] = &[
        "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
    ];
    let at = |k: Option<usize>| {
        k.and_then(|k| words.get(k)).is_some_and(|w| {
            super::lex::MONTHS.contains(&w.as_str()) || SHORT.contains(&w.as_str())
        })
    };
    at(i.checked_sub(1))
        || at(Some(i + 1))
        || words.get(i + 1).is_some_and(|w| w == "of") && at(Some(i + 2))
}

/// Whether `w` (lowercase) is a number, in digits or in words up to twelve.
fn is_number_word(w: &str) -> bool {
    w.chars().all(|c| c.is_ascii_digit()) && !w.is_empty()
        || matches!(
            w,
            "two"
                | "three"
                | "four"
                | "five"
                | "six"
                | "seven"
                | "eight"
                | "nine"
                | "ten"
                | "eleven"
                | "twelve"
        )
}

/// Whether `w` (lowercase) is a roman numeral of a sequel or a part: "ii", "iv".
fn is_roman(w: &str) -> bool {
    matches!(
        w,
        "i" | "ii" | "iii" | "iv" | "v" | "vi" | "vii" | "viii" | "ix" | "x"
    )
}

/// The qualifiers `words` (lowercase, in order) and `text` (as written) hold.
pub(super) fn read(words: &[String], text: &str, into: &mut BTreeSet<String>) {
    for (i, w) in words.iter().enumerate() {
        for (phrase, stands) in QUALIFIERS {
            let mut parts = phrase.split([' ', '-']);
            let first = parts.next().unwrap_or_default();
            if first == w
                && parts
                    .enumerate()
                    .all(|(k, p)| words.get(i + 1 + k).is_some_and(|n| n == p))
            {
                into.insert(stands.to_string());
            }
        }
    }
    for (i, w) in words.iter().enumerate() {
        let next = words.get(i + 1).map(String::as_str);
        // "every two days", "every 3 weeks": how long between, where "twice a day" says how
        // many times in one (a nineteenth trial)
        if w == "every" && next.is_some_and(is_number_word) {
            into.insert("every n".into());
        }
        // "the third child" against "three children", "my first car" against "one car": a
        // place in a row, not a count (a twentieth trial); not a date's day ("May 3rd")
        if is_ordinal(w) && !beside_a_month(words, i) {
            into.insert("ordinal".into());
        }
        // "I'd like to run a marathon": a wish, not a deed
        if matches!(w.as_str(), "d" | "would")
            && matches!(next, Some("like" | "love"))
            && words.get(i + 2).is_some_and(|t| t == "to")
        {
            into.insert("wish".into());
        }
        // "my first child" against "one child": "first" before a person is a place in a row
        if w == "first"
            && next.is_some_and(|n| {
                matches!(
                    n,
                    "child"
                        | "kid"
                        | "son"
                        | "daughter"
                        | "baby"
                        | "grandchild"
                        | "grandson"
                        | "granddaughter"
                )
            })
        {
            into.insert("ordinal".into());
        }
        // "I'm used to living in Berlin" (accustomed) against "I used to live in Berlin"
        if w == "used"
            && next == Some("to")
            && i.checked_sub(1).is_some_and(|p| {
                matches!(
                    words[p].as_str(),
                    "m" | "am"
                        | "is"
                        | "are"
                        | "was"
                        | "were"
                        | "be"
                        | "been"
                        | "get"
                        | "got"
                        | "getting"
                        | "s"
                        | "re"
                )
            })
        {
            into.insert("accustomed".into());
        }
        // "lost 10 pounds in a month" (once) against "… a month" (each month)
        if matches!(w.as_str(), "in" | "within")
            && matches!(next, Some("a" | "one"))
            && words
                .get(i + 2)
                .is_some_and(|p| PERIODS.contains(&p.as_str()))
        {
            into.insert("within".into());
        }
        // "a half marathon" / "a marathon", "half brother"; not a clock's "half past six"
        if w == "half" && next != Some("past") && words.get(i + 2).is_none_or(|d| d != "dozen") {
            into.insert("half".into());
        }
        // "The Godfather Part II" against "The Godfather": a sequel, a season, a volume; "floor
        // 5" (which one) against "5 floors" (how many)
        if matches!(
            w.as_str(),
            "part"
                | "volume"
                | "vol"
                | "episode"
                | "season"
                | "chapter"
                | "book"
                | "grade"
                | "floor"
                | "series"
                | "level"
                | "round"
                | "stage"
                | "edition"
        ) && next.is_some_and(|n| is_number_word(n) || is_roman(n))
        {
            into.insert(format!("{w} n"));
        }
        // "a few friends" (some) against "few friends", "very few" (hardly any)
        if w == "few" {
            let before = i.checked_sub(1).map(|p| words[p].as_str());
            let a_few =
                before == Some("a") && i.checked_sub(2).map(|p| words[p].as_str()) != Some("quite");
            into.insert(if a_few { "a few" } else { "few" }.into());
        }
    }
    // 第二季, 第三部: a season, a part (《庆余年》第二季 is not 《庆余年》)
    let chars: Vec<char> = text.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if *c != '第' {
            continue;
        }
        let numerals = chars[i + 1..]
            .iter()
            .take_while(|c| c.is_ascii_digit() || super::lex::ZH_NUMERALS.contains(**c))
            .count();
        if numerals > 0
            && chars
                .get(i + 1 + numerals)
                .is_some_and(|u| "季部集册卷章".contains(*u))
        {
            into.insert("part n".into());
        }
    }
    for (zh, stands) in ZH_QUALIFIERS {
        if text
            .match_indices(zh)
            .any(|(at, _)| !is_an_hour(text, at, zh))
        {
            into.insert(stands.to_string());
        }
    }
}

/// Whether 一点 at byte `at` of `text` is one o'clock or the end of an hour (十一点, 晚上一点,
/// 一点半), not "a little".
fn is_an_hour(text: &str, at: usize, zh: &str) -> bool {
    if zh != "一点" {
        return false;
    }
    let before = text[..at].chars().next_back();
    let after = text[at + zh.len()..].chars().next();
    before.is_some_and(|c| c.is_ascii_digit() || "十二三四五六七八九零〇".contains(c))
        || super::zh::DAY_PARTS
            .iter()
            .any(|part| text[..at].ends_with(part))
        || after.is_some_and(|c| "半钟整左前后刻".contains(c))
}
