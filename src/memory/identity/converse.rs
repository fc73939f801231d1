//! One deal said by either party: "User sold his bike to Jake" is "Jake bought User's bike
//! from User", "User lent Tom $500" "Tom borrowed $500 from User", "Anna beat User at chess"
//! "User lost to Anna at chess", 用户把车卖给了小王 小王买了用户的车, 用户借给小张五千块
//! 小张向用户借了五千块. The side said by the giver is said by the taker, with "his" written as
//! the giver's; the pair is then read again, and who did what to whom is still checked ("Jake
//! sold his bike to User" is not "Jake bought User's bike").
//!
//! Precision first: one clause, the verb right after who gives (one word, or whose and a
//! noun), a few words for each part.

use super::referent::{One, WHOSE, is_personal, the_one_named};
use crate::memory::text::{ending_as, unpunctuated, words_lowered};

/// A verb said by the giver and by the taker: past, present (third person), base, each.
struct Converse {
    giver: [&'static str; 3],
    taker: [&'static str; 3],
    /// The word before the giver on the taker's side: "bought … from", "lost to".
    from: &'static str,
    /// Whether something changes hands ("sold the bike"), or only the two take part ("beat").
    thing: bool,
}

const CONVERSES: &[Converse] = &[
    Converse {
        giver: ["sold", "sells", "sell"],
        taker: ["bought", "buys", "buy"],
        from: "from",
        thing: true,
    },
    Converse {
        giver: ["lent", "lends", "lend"],
        taker: ["borrowed", "borrows", "borrow"],
        from: "from",
        thing: true,
    },
    Converse {
        giver: ["taught", "teaches", "teach"],
        taker: ["learned", "learns", "learn"],
        from: "from",
        thing: true,
    },
    Converse {
        giver: ["beat", "beats", "beat"],
        taker: ["lost", "loses", "lose"],
        from: "to",
        thing: false,
    },
];

/// Words that end a part: what follows says when, where or how.
const PART_ENDS: &[&str] = &[
    "in",
    "at",
    "on",
    "for",
    "last",
    "this",
    "next",
    "yesterday",
    "ago",
    "when",
    "because",
    "every",
    "since",
    "during",
    "after",
    "before",
    "with",
    "by",
];

/// `text`, when one deal said by the giver, said by the taker.
pub(super) fn said_by_the_taker(text: &str) -> Option<String> {
    if text.contains(['卖', '借']) {
        return zh(text);
    }
    // cheap first: most facts name no deal
    const VERBS: &[&str] = &["sold", "sell", "lent", "lend", "taught", "teach", "beat"];
    if !VERBS.iter().any(|v| text.contains(v)) {
        return None;
    }
    en(text)
}

/// Someone in one word, or whose and a noun ("Jake", "me", "my brother", "User's wife"; not
/// "the" of "sold the blue bike").
fn someone(ws: &[&str]) -> bool {
    match ws {
        [w] => {
            let w = unpunctuated(w);
            let lower = w.to_lowercase();
            is_personal(&lower)
                || lower == "user"
                || w.chars().next().is_some_and(char::is_uppercase)
                    && !matches!(lower.as_str(), "the" | "a" | "an" | "this" | "that" | "it")
        }
        [whose, _] => {
            let whose = whose.to_lowercase();
            whose.ends_with("'s") || WHOSE.contains(&whose.as_str())
        }
        _ => false,
    }
}

fn en(text: &str) -> Option<String> {
    let (words, lower) = words_lowered(text);
    if words.iter().any(|w| w.contains([',', ';'])) {
        return None;
    }
    let (v, verb, form) = lower.iter().enumerate().find_map(|(i, w)| {
        CONVERSES
            .iter()
            .find_map(|c| c.giver.iter().position(|g| g == w).map(|f| (i, c, f)))
    })?;
    let giver = &words[..v];
    if !someone(giver)
        || lower[v + 1..]
            .iter()
            .any(|w| matches!(w.as_str(), "and" | "but" | "or"))
    {
        return None;
    }
    let end = (v + 1..words.len())
        .find(|&i| PART_ENDS.contains(&lower[i].as_str()))
        .unwrap_or(words.len());
    // the thing and the taker: "sold his bike to Jake", "lent Tom $500", "beat Anna"
    let (thing, taker, rest_from) = if !verb.thing {
        (&words[v + 1..v + 1], &words[v + 1..end], end)
    } else if let Some(to) = (v + 1..end).find(|&i| lower[i] == "to") {
        let end = (to + 1..words.len())
            .find(|&i| PART_ENDS.contains(&lower[i].as_str()))
            .unwrap_or(words.len());
        (&words[v + 1..to], &words[to + 1..end], end)
    } else {
        // the taker first: a name or a pronoun, or whose and a noun
        let n = if words
            .get(v + 1)
            .is_some_and(|w| WHOSE.contains(&w.to_lowercase().as_str()))
        {
            2
        } else {
            1
        };
        let split = (v + 1 + n).min(end);
        (&words[split..end], &words[v + 1..split], end)
    };
    if !someone(taker) || (verb.thing && (thing.is_empty() || thing.len() > 4)) {
        return None;
    }
    let named = the_one_named(&words);
    let mut out = One::beside(named.as_deref(), giver).span(taker, true);
    out.push(verb.taker[form].to_string());
    // "sold his bike": the giver's bike
    let givers = moved(giver);
    out.extend(thing.iter().enumerate().map(|(i, w)| {
        let whose = matches!(w.to_lowercase().as_str(), "his" | "her" | "their");
        if whose && i + 1 < thing.len() {
            format!("{}'s", givers.join(" "))
        } else {
            w.to_string()
        }
    }));
    out.push(verb.from.to_string());
    let giver = moved(giver);
    let giver: Vec<&str> = giver.iter().map(String::as_str).collect();
    out.extend(One::beside(named.as_deref(), taker).span(&giver, false));
    out.extend(words[rest_from..].iter().map(|w| w.to_string()));
    Some(ending_as(out, text))
}

/// A part moved inside the sentence: its opening "My" or "The" loses the capital the
/// sentence's start gave it.
fn moved(ws: &[&str]) -> Vec<String> {
    ws.iter()
        .enumerate()
        .map(|(i, w)| {
            let lower = w.to_lowercase();
            if i == 0 && (WHOSE.contains(&lower.as_str()) || lower == "the") {
                lower
            } else {
                unpunctuated(w).to_string()
            }
        })
        .collect()
}

fn zh(text: &str) -> Option<String> {
    let text = text.trim_end_matches(['。', '！', '.', '!']);
    if text.contains(['，', ',', '和']) {
        return None;
    }
    // 用户把车卖给了小王 → 小王买了用户的车; 用户把书借给了小张 → 小张向用户借了书
    if let Some((giver, after)) = text.split_once('把') {
        let (thing, verb, taker) = ["卖给了", "卖给", "借给了", "借给"]
            .iter()
            .find_map(|v| after.split_once(v).map(|(thing, taker)| (thing, *v, taker)))?;
        let thing = thing
            .trim_start_matches("他的")
            .trim_start_matches("她的")
            .trim_start_matches("自己的");
        if giver.is_empty() || thing.is_empty() || taker.is_empty() {
            return None;
        }
        return Some(if verb.starts_with('卖') {
            format!("{taker}买了{giver}的{thing}")
        } else {
            format!("{taker}向{giver}借了{thing}")
        });
    }
    // 用户借给小张五千块 → 小张向用户借了五千块: the taker up to the amount
    let (giver, after) = text.split_once("借给")?;
    let after = after.strip_prefix('了').unwrap_or(after);
    let at = after
        .char_indices()
        .find(|&(_, c)| c.is_ascii_digit() || "一二两三四五六七八九十百千万几".contains(c))?
        .0;
    let (taker, amount) = after.split_at(at);
    if giver.is_empty() || taker.is_empty() || taker.chars().count() > 4 {
        return None;
    }
    Some(format!("{taker}向{giver}借了{amount}"))
}

#[cfg(test)]
mod tests {
    use super::super::trial_tests::one_fact;
    use super::super::trial17_tests::never_one_nor_claimed;
    use super::said_by_the_taker;

    #[test]
    fn one_deal_said_by_either_party_is_one_fact() {
        one_fact(&[
            ("User sold his bike to Jake", "Jake bought User's bike"),
            ("User lent Tom $500", "Tom borrowed $500 from User"),
            ("Anna beat User at chess", "User lost to Anna at chess"),
            ("用户把车卖给了小王", "小王买了用户的车"),
            ("用户借给小张五千块", "小张向用户借了五千块"),
        ]);
        // who gave and who took still counts, and so does what changed hands
        never_one_nor_claimed(&[
            ("Jake sold his bike to User", "Jake bought User's bike"),
            ("User lent Tom $500", "User borrowed $500 from Tom"),
            ("User lent Tom $500", "Tom borrowed $50 from User"),
            ("Anna beat User at chess", "Anna lost to User at chess"),
            ("User sold his car to Jake", "Jake bought User's bike"),
            ("小王把车卖给了用户", "小王买了用户的车"),
            ("用户借给小张五千块", "用户向小张借了五千块"),
        ]);
    }

    #[test]
    fn a_deal_said_by_the_giver_is_said_by_the_taker() {
        for (giver, taker) in [
            (
                "User sold his bike to Jake",
                "Jake bought User's bike from User",
            ),
            ("User lent Tom $500", "Tom borrowed $500 from User"),
            ("Anna beat User at chess", "User lost to Anna at chess"),
            (
                "My dad taught me chess last year.",
                "I learned chess from my dad last year.",
            ),
            (
                "My sister lent me her car",
                "I borrowed my sister's car from my sister",
            ),
            ("用户把车卖给了小王", "小王买了用户的车"),
            ("用户借给小张五千块", "小张向用户借了五千块"),
            ("用户把他的书借给了小李。", "小李向用户借了书"),
        ] {
            assert_eq!(said_by_the_taker(giver).as_deref(), Some(taker), "{giver}");
        }
    }

    #[test]
    fn what_is_no_single_deal_stays() {
        for said in [
            "User sells insurance",
            "User sold the blue bike",
            "User sold a car last year",
            "User bought a bike",
            "User sold his bike and his car to Jake",
            "User sold his bike, then his car",
            "The man who sold me my car lives in Ohio",
            "用户在卖房子",
            "用户借了小张五千块",
        ] {
            assert_eq!(said_by_the_taker(said), None, "{said}");
        }
    }
}
