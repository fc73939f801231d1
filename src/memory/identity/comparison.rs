//! A comparison said from either side: "I am younger than my brother" is "my brother is older
//! than me", "User earns less than his wife" "User's wife earns more than User",
//! 用户比妻子大三岁 is 妻子比用户小三岁. Both sides of a pair, when each is one comparison,
//! are written from the greater side ("older", not "younger"), with "he", "his", 他 written as
//! the one person the text names; the pair is then read again, and who is compared with whom
//! is still checked ("User is older than his brother" is not "User is younger than his
//! brother": written from the greater side, the two are the roles swapped).
//!
//! Precision first: one clause, the comparative right before "than" (比 in Chinese), a few
//! words on each side.

use super::referent::{self, One, is_personal, the_one_named};
use super::update;
use crate::memory::text::{ending_as, unpunctuated, words_lowered};

/// The lesser comparative and the greater one.
const OPPOSITES: &[(&str, &str)] = &[
    ("younger", "older"),
    ("shorter", "taller"),
    ("smaller", "bigger"),
    ("lighter", "heavier"),
    ("slower", "faster"),
    ("less", "more"),
    ("fewer", "more"),
    ("lower", "higher"),
    ("weaker", "stronger"),
    ("poorer", "richer"),
    ("later", "earlier"),
    ("worse", "better"),
    ("thinner", "fatter"),
];

/// The same in Chinese, after 比.
const ZH_OPPOSITES: &[(&str, &str)] = &[
    ("小", "大"),
    ("矮", "高"),
    ("少", "多"),
    ("瘦", "胖"),
    ("短", "长"),
    ("慢", "快"),
    ("轻", "重"),
    ("晚", "早"),
    ("差", "好"),
];

/// Words between the verb and the comparative that say by how much.
const DEGREE: &[&str] = &[
    "much", "far", "a", "lot", "bit", "little", "slightly", "way", "even", "still",
];

/// Words after "than" that end the other side: what follows says when, where or how.
const AFTER_THE_OTHER: &[&str] = &[
    "by", "at", "in", "on", "for", "because", "when", "since", "now", "these", "this", "last",
    "does", "do", "did", "is", "am", "are", "was", "were",
];

/// The pair written from the greater side, when both are one comparison each; else `None`.
pub(super) fn from_the_greater(a: &str, b: &str) -> Option<(String, String)> {
    // cheap first: most facts compare nothing
    let compares = |t: &str| t.contains(" than ") || t.contains('比');
    if !compares(a) || !compares(b) {
        return None;
    }
    let (x, y) = (written(a)?, written(b)?);
    (x != a || y != b).then_some((x, y))
}

/// "likes tea more than coffee" / "like cats better than dogs" said with "prefer", in one
/// clause, the liked thing one to three words.
pub(super) fn preference(text: &str) -> Option<String> {
    if !text.contains(" than ") {
        return None;
    }
    let (words, lower) = words_lowered(text);
    let than = lower.iter().position(|w| w == "than")?;
    let more = than.checked_sub(1)?;
    if !matches!(lower[more].as_str(), "more" | "better")
        || words.iter().any(|w| w.contains([',', ';']))
        || lower.iter().any(|w| {
            matches!(
                w.as_str(),
                "and" | "but" | "or" | "not" | "don't" | "doesn't"
            )
        })
    {
        return None;
    }
    let v = (more.saturating_sub(4)..more).find(|&i| {
        matches!(
            lower[i].as_str(),
            "like" | "likes" | "love" | "loves" | "enjoy" | "enjoys"
        )
    })?;
    // "more than ever", "more than I do": a degree or another liker, no second thing
    let other = &lower[than + 1..];
    if more - v < 2
        || other.first().is_none_or(|w| {
            is_personal(w)
                || matches!(
                    w.as_str(),
                    "ever" | "before" | "usual" | "most" | "anyone" | "anybody"
                )
        })
        || other
            .iter()
            .any(|w| matches!(w.as_str(), "do" | "does" | "did"))
    {
        return None;
    }
    let verb = if lower[v].ends_with('s') {
        "prefers"
    } else {
        "prefer"
    };
    let mut out: Vec<&str> = words[..v].to_vec();
    out.push(verb);
    out.extend(&words[v + 1..more]);
    out.push("to");
    out.extend(&words[than + 1..]);
    Some(out.join(" "))
}

/// `text` written from the greater side, when it is one comparison.
fn written(text: &str) -> Option<String> {
    read(text).map(|c| c.said(text))
}

/// One comparison read from its greater side: who is greater, how ("is", "earns" and how
/// much), the comparative, who is lesser, and what follows ("now", "at chess").
struct Comparison {
    greater_side: Vec<String>,
    how: Vec<String>,
    comparative: &'static str,
    lesser_side: Vec<String>,
    rest: Vec<String>,
    zh: bool,
}

impl Comparison {
    /// Written out, ending as `text` does.
    fn said(&self, text: &str) -> String {
        if self.zh {
            format!(
                "{}比{}{}{}{}",
                self.greater_side.concat(),
                self.lesser_side.concat(),
                self.how.concat(),
                self.comparative,
                self.rest.concat()
            )
        } else {
            let mut out = self.greater_side.clone();
            out.extend(self.how.iter().cloned());
            out.push(self.comparative.to_string());
            out.push("than".into());
            out.extend(self.lesser_side.iter().cloned());
            out.extend(self.rest.iter().cloned());
            ending_as(out, text)
        }
    }
}

/// `text` read as one comparison from its greater side.
fn read(text: &str) -> Option<Comparison> {
    if text.contains('比') {
        zh(text)
    } else {
        en(text)
    }
}

/// Two comparisons that cannot both hold, and the words saying so: the same two compared the
/// same way in the present, each said to be the greater ("my wife earns more than me" / "I
/// earn more than my wife", 用户比妻子高 / 妻子比用户高). A newer one replaces the older. Not
/// where either is someone one may have several of ("my brother is older than me" / "I am
/// older than my brother" may be two brothers), nor in the past ("I was taller than my
/// brother" holds beside "my brother is taller than me").
pub(super) fn contradicts(a: &str, b: &str) -> Option<String> {
    let compares = |t: &str| t.contains(" than ") || t.contains('比');
    if !compares(a) || !compares(b) {
        return None;
    }
    let (x, y) = (read(a)?, read(b)?);
    let key = |side: &[String]| -> Vec<String> {
        side.iter()
            .map(|w| referent::as_subject(unpunctuated(w)).to_lowercase())
            .collect()
    };
    // 妻子 after 用户比 is 用户的妻子: whose, where it is the one compared, goes without saying
    let side = |c: &Comparison, side: &[String]| {
        let mut side = key(side);
        if c.zh
            && let [one] = &mut side[..]
            && let Some(whose) = ["用户", "我"]
                .iter()
                .find_map(|w| one.strip_prefix(w).filter(|rest| !rest.is_empty()))
        {
            *one = whose.to_string();
        }
        side
    };
    let past = |c: &Comparison| {
        c.how
            .iter()
            .any(|w| matches!(w.to_lowercase().as_str(), "was" | "were" | "used"))
            || c.zh && c.rest.concat().contains(['过', '了'])
    };
    // "I earn" / "my wife earns": the verb in one form
    let how = |c: &Comparison| {
        let mut how = key(&c.how);
        if let Some(verb) = how.first_mut().filter(|v| v.as_str() != "is" && !c.zh)
            && let Some(plain) = verb.strip_suffix('s')
        {
            *verb = plain.to_string();
        }
        how
    };
    let swapped = x.zh == y.zh
        && x.comparative == y.comparative
        && how(&x) == how(&y)
        && key(&x.rest) == key(&y.rest)
        && side(&x, &x.greater_side) == side(&y, &y.lesser_side)
        && side(&x, &x.lesser_side) == side(&y, &y.greater_side)
        && side(&x, &x.greater_side) != side(&x, &x.lesser_side);
    let join = |c: &Comparison, side: &[String]| {
        if c.zh { side.concat() } else { side.join(" ") }
    };
    // each side by itself: "older" says which brother in "my older brother", not here
    let several = |c: &Comparison| {
        [&c.greater_side, &c.lesser_side]
            .iter()
            .any(|s| update::names_someone_of_several(&join(c, s)))
    };
    if !swapped || past(&x) || past(&y) || several(&x) || several(&y) {
        return None;
    }
    // "My wife earns more than me → I earn more than my wife"
    Some(format!("{} → {}", y.said(""), x.said("")))
}

fn en(text: &str) -> Option<Comparison> {
    let (words, lower) = words_lowered(text);
    let than = lower.iter().position(|w| w == "than")?;
    // one clause: no comma or second "than" to tell which part is which
    if words.iter().any(|w| w.contains([',', ';'])) || lower[than + 1..].contains(&"than".into()) {
        return None;
    }
    let c = than.checked_sub(1)?;
    let (greater, flip) = match OPPOSITES
        .iter()
        .find(|(l, g)| lower[c] == *l || lower[c] == *g)
    {
        Some((l, g)) => (*g, lower[c] == *l),
        None => return None,
    };
    // the verb: a form of "be" before the comparative, or the word before its degree
    let copula = lower[..c]
        .iter()
        .position(|w| matches!(w.as_str(), "is" | "am" | "are" | "was" | "were"));
    let (verb, mid_from, left_end) = match copula {
        Some(k) => {
            let past = matches!(lower[k].as_str(), "was" | "were");
            (if past { "was" } else { "is" }.to_string(), k + 1, k)
        }
        // "User earns less", "my wife earns more": someone (one word, or whose and a noun),
        // then the verb
        None => {
            let v = (0..c)
                .rev()
                .find(|&i| !DEGREE.contains(&lower[i].as_str()))?;
            let someone = match &lower[..v] {
                [_] => true,
                [whose, _] => whose.ends_with("'s") || referent::WHOSE.contains(&whose.as_str()),
                _ => false,
            };
            if !someone {
                return None;
            }
            (words[v].to_string(), v + 1, v)
        }
    };
    let other_end = (than + 1..words.len())
        .find(|&i| AFTER_THE_OTHER.contains(&lower[i].as_str()))
        .unwrap_or(words.len());
    let (left, right) = (&words[..left_end], &words[than + 1..other_end]);
    // "than I am", "than she does": the verb said again says nothing more
    let rest = match &lower[other_end..] {
        [aux]
            if matches!(
                aux.as_str(),
                "does" | "do" | "did" | "is" | "am" | "are" | "was" | "were"
            ) =>
        {
            &[][..]
        }
        _ => &words[other_end..],
    };
    if left.is_empty()
        || left.len() > 4
        || right.is_empty()
        || right.len() > 4
        || rest
            .iter()
            .any(|w| matches!(unpunctuated(w), "and" | "but" | "or"))
    {
        return None;
    }
    let named = the_one_named(&words);
    let side = |ws: &[&str], other: &[&str], subject: bool| {
        One::beside(named.as_deref(), other).span(ws, subject)
    };
    let (first, second) = if flip { (right, left) } else { (left, right) };
    let mut how = vec![verb];
    how.extend(words[mid_from..c].iter().map(|w| w.to_string()));
    Some(Comparison {
        greater_side: side(first, second, true),
        how,
        comparative: greater,
        lesser_side: side(second, first, false),
        rest: rest.iter().map(|w| w.to_string()).collect(),
        zh: false,
    })
}

fn zh(text: &str) -> Option<Comparison> {
    let (left, after) = text.split_once('比')?;
    if after.contains('比') || left.is_empty() {
        return None;
    }
    // the other side runs up to the comparative, or to a verb with 得 before it (挣得多)
    let chars: Vec<(usize, char)> = after.char_indices().collect();
    let (other_end, cmp_at, flip, greater, said) =
        chars.iter().enumerate().find_map(|(n, &(i, _))| {
            let opposite = |at: usize| {
                ZH_OPPOSITES.iter().find_map(|(l, g)| {
                    let s = &after[at..];
                    if s.starts_with(l) {
                        Some((true, *g, l.len()))
                    } else if s.starts_with(g) {
                        Some((false, *g, g.len()))
                    } else {
                        None
                    }
                })
            };
            if let Some((flip, g, said)) = opposite(i) {
                return Some((i, i, flip, g, said));
            }
            // 挣得多: a verb, 得, the comparative
            let (_, next) = *chars.get(n + 1)?;
            if next == '得' {
                let at = chars.get(n + 2)?.0;
                return opposite(at).map(|(flip, g, said)| (i, at, flip, g, said));
            }
            None
        })?;
    let right = &after[..other_end];
    let between = &after[other_end..cmp_at];
    let rest = &after[cmp_at + said..];
    let count = |s: &str| s.chars().count();
    if right.is_empty() || count(right) > 6 || count(left) > 8 || rest.contains(['，', ',', '但'])
    {
        return None;
    }
    let named = (text.contains("用户")).then_some("用户");
    // 用户比他高: 他 is someone else than the other side
    let side = |s: &str, other: &str| -> String {
        let s = s.replace('的', "");
        match named {
            Some(n) if !(matches!(s.as_str(), "他" | "她") && other == n) => {
                s.replace(['他', '她'], n)
            }
            _ => s,
        }
    };
    let (first, second) = if flip { (right, left) } else { (left, right) };
    Some(Comparison {
        greater_side: vec![side(first, second)],
        how: vec![between.to_string()],
        comparative: greater,
        lesser_side: vec![side(second, first)],
        rest: vec![rest.to_string()],
        zh: true,
    })
}

#[cfg(test)]
mod tests {
    use super::super::trial_tests::one_fact;
    use super::super::trial17_tests::never_one_nor_claimed;
    use super::{from_the_greater, written};

    #[test]
    fn one_comparison_from_either_side_is_one_fact() {
        one_fact(&[
            (
                "My brother is older than me",
                "I am younger than my brother",
            ),
            (
                "User is taller than his brother",
                "User's brother is shorter than him",
            ),
            (
                "User's wife earns more than him",
                "User earns less than his wife",
            ),
            (
                "User's sister is older than his wife",
                "User's wife is younger than his sister",
            ),
            ("用户比妻子大三岁", "用户的妻子比他小三岁"),
            ("用户比她哥哥高", "用户的哥哥比她矮"),
            ("用户的妻子比他挣得多", "用户比妻子挣得少"),
        ]);
        // who is compared with whom, and by how much, still counts
        never_one_nor_claimed(&[
            ("My brother is older than me", "I am older than my brother"),
            (
                "User is older than his brother",
                "User is younger than his brother",
            ),
            (
                "User is taller than his brother",
                "User's brother is taller than him",
            ),
            (
                "User's wife earns more than him",
                "User earns more than his wife",
            ),
            ("用户比妻子大三岁", "用户比妻子小三岁"),
            ("用户比他高", "用户比用户的哥哥高"),
            (
                "User is taller than him",
                "User is taller than User's brother",
            ),
            ("用户比妻子大三岁", "用户的妻子比他大三岁"),
            ("用户比妻子大三岁", "用户的妻子比他小五岁"),
            (
                "User is 3 years older than his brother",
                "User's brother is 5 years younger than him",
            ),
        ]);
    }

    #[test]
    fn a_comparison_is_written_from_the_greater_side() {
        for (said, greater) in [
            (
                "I am younger than my brother",
                "my brother is older than me",
            ),
            (
                "User's brother is shorter than him",
                "User is taller than User's brother",
            ),
            (
                "User is taller than his brother",
                "User is taller than User's brother",
            ),
            (
                "User earns less than his wife",
                "User's wife earns more than User",
            ),
            (
                "Maria is three years younger than her sister.",
                "Maria's sister is three years older than Maria.",
            ),
            ("User is older than I am", "User is older than me"),
            ("Tom is shorter than him", "he is taller than Tom"),
            ("用户比妻子大三岁", "用户比妻子大三岁"),
            ("用户的妻子比他小三岁", "用户比用户妻子大三岁"),
            ("用户比妻子挣得少", "妻子比用户挣得多"),
            ("用户的哥哥比她矮", "用户比用户哥哥高"),
            ("他比用户矮", "用户比他高"),
        ] {
            assert_eq!(written(said).as_deref(), Some(greater), "{said}");
        }
    }

    #[test]
    fn a_comparison_with_the_roles_swapped_contradicts_the_older() {
        use super::super::{Reading, denies};
        for (new, stored) in [
            ("I earn more than my wife", "My wife earns more than me."),
            ("User is taller than Tom", "Tom is taller than User"),
            (
                "User is older than his wife",
                "User's wife is older than him",
            ),
            ("I am younger than my wife", "I am older than my wife"),
            ("Anna runs faster than Ben", "Ben runs faster than Anna"),
            ("用户比妻子高", "妻子比用户高"),
            ("用户比妻子大三岁", "用户的妻子比他大三岁"),
        ] {
            assert!(
                super::contradicts(new, stored).is_some(),
                "{new} / {stored}"
            );
            assert!(
                denies(&Reading::new(new), &Reading::new(stored)).is_some(),
                "{new} / {stored}"
            );
        }
        for (new, stored) in [
            // two brothers, one older and one younger
            ("I am older than my brother", "My brother is older than me"),
            ("用户比哥哥高", "哥哥比用户高"),
            (
                "User is older than his sister",
                "User's sister is older than him",
            ),
            // the past holds beside the present
            ("I was taller than my wife", "My wife is taller than me"),
            ("My wife is taller than me", "I was taller than my wife"),
            // someone else, another way, by another amount, or the same said again
            ("User is taller than Tom", "Ann is taller than User"),
            ("User is taller than Tom", "Tom is older than User"),
            (
                "User is 3 years older than Tom",
                "Tom is 5 years older than User",
            ),
            ("User is taller than Tom", "Tom is shorter than User"),
            ("User is taller than Tom", "User is taller than Tom"),
            (
                "User is taller than Tom at chess",
                "Tom is taller than User",
            ),
            (
                "User earns more than his wife",
                "User's wife earns more than Tom",
            ),
        ] {
            assert_eq!(super::contradicts(new, stored), None, "{new} / {stored}");
        }
    }

    #[test]
    fn liking_one_thing_more_than_another_is_preferring_it() {
        one_fact(&[
            (
                "User prefers tea to coffee",
                "User likes tea more than coffee",
            ),
            (
                "User prefers tea over coffee",
                "User likes tea more than coffee",
            ),
            ("I prefer cats to dogs", "I like cats better than dogs"),
        ]);
        never_one_nor_claimed(&[
            (
                "User prefers tea to coffee",
                "User likes coffee more than tea",
            ),
            (
                "User prefers tea to coffee",
                "User doesn't like tea more than coffee",
            ),
        ]);
        assert_eq!(super::preference("User likes tea"), None);
        // more than before, or than someone else does: no preference between two things
        for said in [
            "User likes tea more than ever",
            "User likes tea more than I do",
            "User likes tea more than his wife does",
            "User likes tea more than before",
        ] {
            assert_eq!(super::preference(said), None, "{said}");
        }
    }

    #[test]
    fn what_is_no_single_comparison_stays() {
        for said in [
            "User prefers tea to coffee",
            "User is older than his brother, who lives in Ohio",
            "User is older than Tom and taller than Ann",
            "User likes tea more than coffee than ever",
            "用户比以前忙",
            "User likes coffee less than tea",
            "User's friend Tom earns less than his wife",
        ] {
            assert_eq!(
                from_the_greater(said, "User is older than Tom"),
                None,
                "{said}"
            );
        }
    }
}
