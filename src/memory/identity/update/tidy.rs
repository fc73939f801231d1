//! What a fact said in chat carries around its statement, taken off before the two are
//! compared: an opening word of talk ("honestly", "btw", "ok so"; not "also", which says there
//! is another one), an aside in brackets
//! ("(Dana left the company)"), closing marks ("!"), the old value denied after a comma
//! ("…, not Heat", "…，不是丰田了": the newer fact says the older no longer holds), and a label
//! with a colon read as "is" ("User's favorite color: teal"). Found by a ninth held-out trial
//! (2026-11-29), whose changes were mostly said this way.

use std::sync::LazyLock;

use regex::Regex;

/// Words of talk that open a statement and are no part of it.
static OPENING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(?:(?:honestly|well|ok|okay|so|btw|fyi|hey|oh|anyway|ps|hmm|quick update|heads up|just so you know|for the record|these days|nowadays|lately)\b[\s,:!-]*)+")
        .expect("compiles")
});
/// An aside in brackets at the end.
static ASIDE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\s*[(（][^()（）]{1,80}[)）]\s*$").expect("compiles"));
/// The old value denied after a comma: "…, not Heat", "…，不是丰田了".
static NOT_THE_OLD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:,\s*not\s+(?P<en>[^,.;!?]{1,40})|[，,]\s*(?:而)?不是(?P<zh>[^，,。！!？?]{1,12}?)了?)[.!。！]*$")
        .expect("compiles")
});
/// A label with a colon: "User's favorite color: teal", "my new address: …".
static LABEL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(?P<label>(?:my|our|user's|\w+'s)\s[\w' ]{1,30}?|new [\w ]{1,20}?):\s+(?P<value>\S.*)$")
        .expect("compiles")
});

/// `text` without what chat carries around its statement; `other` is the fact it is compared
/// with, whose value a closing "not …" must name to be taken off.
pub(super) fn tidy(text: &str, other: &str) -> String {
    let mut t = text.trim().trim_end_matches(['!', '！', ' ']).to_string();
    if let Some(m) = OPENING.find(&t) {
        t = t[m.end()..].to_string();
    }
    t = ASIDE.replace(&t, "").into_owned();
    if let Some(c) = NOT_THE_OLD.captures(&t) {
        let denied = c
            .name("en")
            .or(c.name("zh"))
            .map_or("", |m| m.as_str())
            .trim();
        if !denied.is_empty() && other.to_lowercase().contains(&denied.to_lowercase()) {
            t.truncate(c.get(0).map_or(t.len(), |m| m.start()));
        }
    }
    if let Some(c) = LABEL.captures(&t) {
        t = format!("{} is {}", &c["label"], &c["value"]);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::tidy;

    #[test]
    fn talk_asides_and_the_old_value_denied_are_taken_off() {
        assert_eq!(
            tidy("honestly my favorite band is Wilco", ""),
            "my favorite band is Wilco"
        );
        assert_eq!(tidy("ok so, my gym is the YMCA!", ""), "my gym is the YMCA");
        assert_eq!(
            tidy("User's manager is Oliver (Dana left the company)", ""),
            "User's manager is Oliver"
        );
        assert_eq!(
            tidy(
                "my favourite movie is Collateral, not Heat",
                "my favourite movie is Heat"
            ),
            "my favourite movie is Collateral"
        );
        assert_eq!(
            tidy("我的车是特斯拉，不是丰田了", "我的车是丰田"),
            "我的车是特斯拉"
        );
        assert_eq!(
            tidy("User's favorite color: teal", ""),
            "User's favorite color is teal"
        );
        // a denial of something else stays: it says more than the value
        assert_eq!(
            tidy("I eat fish, not meat", "I eat chicken"),
            "I eat fish, not meat"
        );
        // "also" says there is another one: no word of talk
        assert_eq!(
            tidy("also my cat is named Tom", ""),
            "also my cat is named Tom"
        );
        // so stays where it is no opening word of talk
        assert_eq!(tidy("Solo is my cat", ""), "Solo is my cat");
    }
}
