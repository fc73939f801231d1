//! The same words with two joined things the other way round: "plays tennis and squash" /
//! "plays squash and tennis", "allergic to dust and pollen" / "… pollen and dust", 会打网球和羽毛球
//! / 会打羽毛球和网球 — one fact (a nineteenth blind trial). Only things joined after what is
//! said of them: two acts joined after their subject may be a sequence ("graduated and moved
//! to Berlin"), and numbers or a second "and" may pair the things with others ("Anna and Ben
//! are 30 and 32").

/// Words after which two joined things are acts of a subject, not things.
const SUBJECTS: &[&str] = &["i", "user", "he", "she", "we", "they", "you", "it"];
/// Words that make an order of events.
const SEQUENCE: &[&str] = &[
    "then",
    "later",
    "first",
    "after",
    "afterwards",
    "before",
    "respectively",
    "finally",
];
const ZH_SUBJECTS: &[&str] = &["我", "他", "她", "用户", "们", "它"];
const ZH_SEQUENCE: &[&str] = &[
    "先", "然后", "后来", "再", "接着", "分别", "之后", "以后", "之前",
];

/// Whether `b` is `a` with the two things joined by "and" (&, 和, 与, 、) the other way round.
pub(super) fn swapped(a: &str, b: &str) -> bool {
    let cjk = |t: &str| t.chars().any(super::is_cjk);
    if cjk(a) || cjk(b) {
        let (x, y) = (zh_chars(a), zh_chars(b));
        let join = |c: &String| matches!(c.as_str(), "和" | "与" | "、");
        let text: String = x.concat();
        !ZH_SEQUENCE.iter().any(|w| text.contains(w))
            // a count travels with its thing (一只猫和一条狗), as does a weekday's number (周一)
            && swapped_at(
                &x,
                &y,
                4,
                true,
                join,
                |p: &[String]| {
                    let before: String = p.concat();
                    !ZH_SUBJECTS.iter().any(|s| before.ends_with(s))
                },
                |s: &[String]| s.first().is_some_and(|w| w == "是") || s.concat().contains("一起"),
            )
    } else {
        let (x, y) = (en_words(a), en_words(b));
        let join = |w: &String| w == "and";
        !x.iter().any(|w| SEQUENCE.contains(&w.as_str()))
            && swapped_at(
                &x,
                &y,
                3,
                false,
                join,
                |p: &[String]| p.last().is_some_and(|w| !SUBJECTS.contains(&w.as_str())),
                |s: &[String]| {
                    s.first().is_some_and(|w| w == "are" || w == "were")
                        || s.iter().any(|w| w == "together")
                },
            )
    }
}

/// Whether `b` is `a` with the `at_most`-long things either side of one joiner swapped, where
/// what comes before them is not empty and passes `before_ok` (or, for two who open the
/// sentence, what follows passes `both_ok`: "are", 是, "together"), and what follows holds no
/// number nor another joiner, nor do the things unless `counted` (their numbers are theirs).
fn swapped_at(
    a: &[String],
    b: &[String],
    at_most: usize,
    counted: bool,
    join: impl Fn(&String) -> bool,
    before_ok: impl Fn(&[String]) -> bool,
    both_ok: impl Fn(&[String]) -> bool,
) -> bool {
    if a.len() != b.len() || a == b || a.iter().filter(|w| join(w)).count() != 1 {
        return false;
    }
    // 一起 (together) is no count
    let number = |s: &[String]| {
        s.iter().enumerate().any(|(i, w)| {
            let together = w == "一" && s.get(i + 1).is_some_and(|n| n == "起");
            !together
                && w.chars()
                    .any(|c| c.is_ascii_digit() || "一二两三四五六七八九十百千万".contains(c))
        })
    };
    let Some(k) = a.iter().position(&join) else {
        return false;
    };
    (1..=at_most.min(k)).any(|xl| {
        (1..=at_most.min(a.len() - k - 1)).any(|yl| {
            let (p, x) = (&a[..k - xl], &a[k - xl..k]);
            let (y, s) = (&a[k + 1..k + 1 + yl], &a[k + 1 + yl..]);
            let turned: Vec<&String> = p.iter().chain(y).chain([&a[k]]).chain(x).chain(s).collect();
            (if p.is_empty() {
                both_ok(s)
            } else {
                before_ok(p)
            }) && x != y
                && (counted || !number(x) && !number(y))
                && !number(s)
                && turned.iter().zip(b).all(|(t, w)| *t == w)
        })
    })
}

/// Lowercase words, end punctuation and commas trimmed, "&" written as "and".
fn en_words(t: &str) -> Vec<String> {
    t.split_whitespace()
        .map(|w| {
            let w = w
                .trim_matches(|c: char| matches!(c, '.' | '!' | ',' | ';'))
                .to_lowercase();
            if w == "&" { "and".into() } else { w }
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// Characters, end punctuation and spaces dropped; a run of Latin letters or digits is one.
fn zh_chars(t: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut run = String::new();
    for c in t.chars() {
        if c.is_ascii_alphanumeric() {
            run.push(c.to_ascii_lowercase());
            continue;
        }
        if !run.is_empty() {
            out.push(std::mem::take(&mut run));
        }
        if !c.is_whitespace() && !matches!(c, '。' | '！' | '.' | '!' | '，' | ',') {
            out.push(c.to_string());
        }
    }
    if !run.is_empty() {
        out.push(run);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::swapped;

    #[test]
    fn two_things_joined_the_other_way_round_are_one_fact() {
        for (a, b) in [
            ("I play tennis and squash", "I play squash and tennis"),
            (
                "User is allergic to both dust and pollen",
                "User is allergic to both pollen and dust.",
            ),
            (
                "User's sister and brother live in Lyon",
                "User's brother and sister live in Lyon",
            ),
            ("用户会打网球和羽毛球", "用户会打羽毛球和网球"),
            ("用户喜欢猫与狗", "用户喜欢狗与猫"),
            (
                "User is allergic to peanuts & shellfish",
                "User is allergic to shellfish and peanuts",
            ),
            ("User owns a cat and a rabbit", "User owns a rabbit & a cat"),
            ("我有一个哥哥和一个妹妹", "我有一个妹妹和一个哥哥"),
            ("用户养了一只猫和一条狗", "用户养了一条狗和一只猫"),
            ("用户每周一和周四健身", "用户每周四和周一健身"),
            // two who open the sentence, said to be something or to do it together
            ("小李和用户是表兄弟", "用户和小李是表兄弟"),
            ("我和我老公是大学同学", "我老公和我是大学同学"),
            ("Anna and Ben are cousins", "Ben and Anna are cousins"),
            (
                "Maria and Tom run a bakery together",
                "Tom and Maria run a bakery together",
            ),
            ("我和妈妈一起住", "妈妈和我一起住"),
        ] {
            assert!(swapped(a, b), "{a} / {b}");
        }
    }

    #[test]
    fn acts_in_order_and_paired_things_are_not() {
        for (a, b) in [
            (
                "User graduated and moved to Berlin",
                "User moved to Berlin and graduated",
            ),
            (
                "User first visited Paris and then Rome",
                "User first visited Rome and then Paris",
            ),
            (
                "User's mom and dad are 60 and 58",
                "User's dad and mom are 60 and 58",
            ),
            ("Anna and Ben are 30 and 32", "Ben and Anna are 30 and 32"),
            ("我和妈妈去了北京", "妈妈和我去了北京"),
            ("Anna and Ben arrived", "Ben and Anna arrived"),
            ("用户先学了法语和德语", "用户先学了德语和法语"),
            (
                "User likes cats and hates dogs",
                "User likes dogs and hates cats",
            ),
            ("I play tennis and squash", "I play tennis and squash"),
            // the count stays with its thing
            ("我有一个哥哥和两个妹妹", "我有两个哥哥和一个妹妹"),
            ("用户和妻子分别是30岁和28岁", "用户和妻子分别是28岁和30岁"),
        ] {
            assert!(!swapped(a, b), "{a} / {b}");
        }
    }
}
