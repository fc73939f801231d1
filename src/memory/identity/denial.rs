//! The surface of a denial: two texts that say the same words, one of them negated ("I don't
//! like tea" / "I like tea", 我没有车 / 我有车, "comfortable" / "uncomfortable", "with" /
//! "without"). [`super::denies`] asks this beside the reading of both facts, so that only a
//! bare denial replaces a fact: another subject ("he doesn't…", a missing one, roles swapped),
//! a hedge ("don't really"), a modal ("won't", "wouldn't"), a contrast ("…, I love it"), a
//! question, a quote or a trailing "not" (sarcasm) is not one.

use super::tables::stem;
use crate::memory::text::is_cjk;

/// Words that carry no difference between the two forms of a denial: "do" support, "be"
/// (its tense is the reading's to judge) and articles.
const NEUTRAL: &[&str] = &[
    "do", "does", "did", "am", "is", "are", "was", "were", "be", "a", "an", "the",
];
/// Chinese negations, each one character.
const ZH_NEGATIONS: &[char] = &['不', '没', '未'];
/// Prefixes that negate a word ("uncomfortable", "dislikes", "non-smoker" is two words).
const PREFIXES: &[&str] = &["un", "dis", "in", "im", "ir", "il", "non"];

/// A text as a denial's surface: its words (stemmed, negations taken out) and how many
/// negations it had. `None` for a text no denial is read from: a question, a quote, a
/// negation with nothing after it.
#[derive(Debug, Clone, PartialEq)]
struct Surface {
    words: Vec<Word>,
    negations: usize,
}

#[derive(Debug, Clone, PartialEq)]
struct Word {
    lower: String,
    stem: String,
}

fn surface(text: &str) -> Option<Surface> {
    super::memo::cached("denial::surface", text, surface_fresh)
}

fn surface_fresh(text: &str) -> Option<Surface> {
    if text.chars().any(|c| {
        matches!(
            c,
            '?' | '？' | '"' | '“' | '”' | '「' | '」' | '『' | '』' | '«' | '»' | '吗' | '嗎'
        )
    }) || asks(text)
    {
        return None;
    }
    enum Item {
        Negation,
        Word(Word),
        Break,
    }
    let mut items = Vec::new();
    // "no longer", "not … anymore", 不再, 再也不, 不…了 say the fact stopped being true: a
    // denial of it, with the words that say when taken out (`negated`: a negation came)
    let mut negated = false;
    for token in tokens(text) {
        match token {
            Token::Cjk(c) if ZH_NEGATIONS.contains(&c) => {
                // 再也不: 再 and 也 come before the negation
                if let [.., Item::Word(a), Item::Word(b)] = items.as_slice()
                    && a.lower == "再"
                    && b.lower == "也"
                {
                    items.truncate(items.len() - 2);
                }
                items.push(Item::Negation);
                negated = true;
            }
            Token::Cjk('再') if matches!(items.last(), Some(Item::Negation)) => {}
            Token::Cjk('了') if negated => {}
            Token::Cjk(c) => items.push(Item::Word(word(&c.to_string()))),
            Token::Break => items.push(Item::Break),
            Token::Word(w) => {
                for part in expand(&w) {
                    match part.as_str() {
                        "not" | "no" => {
                            items.push(Item::Negation);
                            negated = true;
                        }
                        "longer" if matches!(items.last(), Some(Item::Negation)) => {}
                        "anymore" if negated => {}
                        "without" => {
                            items.push(Item::Negation);
                            negated = true;
                            items.push(Item::Word(word("with")));
                        }
                        p if NEUTRAL.contains(&p) => {}
                        // "has" / "doesn't have": one verb
                        "has" => items.push(Item::Word(word("have"))),
                        p => items.push(Item::Word(word(p))),
                    }
                }
            }
        }
    }
    // a negation bound to nothing ("I like tea, not") is no denial of anything
    let dangling = items.iter().enumerate().any(|(i, item)| {
        matches!(item, Item::Negation)
            && !items[i + 1..]
                .iter()
                .find(|n| !matches!(n, Item::Negation))
                .is_some_and(|n| matches!(n, Item::Word(_)))
    });
    if dangling {
        return None;
    }
    let mut words = Vec::new();
    let mut negations = 0;
    for item in items {
        match item {
            Item::Negation => negations += 1,
            Item::Word(w) => words.push(w),
            Item::Break => {}
        }
    }
    Some(Surface { words, negations })
}

/// Whether `text` opens as a question does, a "?" or not: an auxiliary, then a pronoun
/// ("do I not like tea", "don't I like tea", "is he vegetarian").
fn asks(text: &str) -> bool {
    let mut words = tokens(text).into_iter().filter_map(|t| match t {
        Token::Word(w) => Some(w),
        _ => None,
    });
    let (Some(first), Some(second)) = (words.next(), words.next()) else {
        return false;
    };
    let aux = expand(&first);
    matches!(
        aux[0].as_str(),
        "do" | "does"
            | "did"
            | "is"
            | "are"
            | "am"
            | "was"
            | "were"
            | "can"
            | "will"
            | "would"
            | "have"
            | "has"
    ) && matches!(
        second.as_str(),
        "i" | "you" | "he" | "she" | "we" | "they" | "it" | "not"
    )
}

fn word(w: &str) -> Word {
    Word {
        lower: w.to_string(),
        stem: stem(w),
    }
}

pub(super) enum Token {
    Word(String),
    Cjk(char),
    /// A comma, a full stop, a line break: where "…, not" would dangle.
    Break,
}

pub(super) fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut current = String::new();
    let flush = |current: &mut String, out: &mut Vec<Token>| {
        if !current.is_empty() {
            out.push(Token::Word(std::mem::take(current)));
        }
    };
    for c in text.chars() {
        let c = if crate::memory::text::is_apostrophe(c) {
            '\''
        } else {
            c
        };
        if is_cjk(c) {
            flush(&mut current, &mut out);
            out.push(Token::Cjk(c));
        } else if c.is_alphanumeric() || (c == '\'' && !current.is_empty()) {
            current.extend(c.to_lowercase());
        } else {
            flush(&mut current, &mut out);
            if matches!(c, ',' | '.' | '!' | ';' | '，' | '。' | '！' | '；' | '\n') {
                out.push(Token::Break);
            }
        }
    }
    flush(&mut current, &mut out);
    out
}

/// A word with its contraction spelled out: "don't" → do not, "won't" → will not, "dont"
/// → do not, "I'd" → I would, "I'm" → I am; a possessive stays one word ("bob's").
pub(super) fn expand(w: &str) -> Vec<String> {
    let w = w.trim_end_matches('\'');
    if let Some(base) = w.strip_suffix("n't") {
        return vec![super::lex::base_before_nt(base).to_string(), "not".into()];
    }
    let without_apostrophe = super::lex::negated_without_apostrophe(w);
    if let Some(base) = without_apostrophe {
        return vec![base.to_string(), "not".into()];
    }
    for (tail, full) in [
        ("'m", "am"),
        ("'re", "are"),
        ("'d", "would"),
        ("'ll", "will"),
        ("'ve", "have"),
    ] {
        if let Some(head) = w.strip_suffix(tail) {
            return vec![head.to_string(), full.to_string()];
        }
    }
    vec![w.to_string()]
}

/// Whether one of `x` / `y` is the other with a negating prefix.
fn prefixed(x: &Word, y: &Word) -> bool {
    let by = |long: &str, short: &str| {
        PREFIXES
            .iter()
            .any(|p| long.strip_prefix(p) == Some(short) && short.chars().count() >= 3)
    };
    by(&x.lower, &y.lower) || by(&y.lower, &x.lower) || by(&x.stem, &y.stem) || by(&y.stem, &x.stem)
}

/// Whether `a` and `b` say the same words with one of them denied: the same words in the
/// same order once negations are taken out (and at most one word in its negated form), and
/// an odd number of negations between them.
pub(super) fn bare_denial(a: &str, b: &str) -> bool {
    let (Some(a), Some(b)) = (surface(a), surface(b)) else {
        return false;
    };
    if a.words.len() != b.words.len() || a.words.is_empty() {
        return false;
    }
    let mut negations = a.negations + b.negations;
    let mut prefixes = 0;
    for (x, y) in a.words.iter().zip(&b.words) {
        if x.stem == y.stem {
            continue;
        }
        if prefixed(x, y) {
            prefixes += 1;
            negations += 1;
            continue;
        }
        return false;
    }
    prefixes <= 1 && negations % 2 == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_denial_is_the_same_words_negated() {
        for (a, b) in [
            ("I don't like tea", "I like tea"),
            ("I dont like tea", "I like tea"),
            ("I DON'T like tea", "I like tea"),
            ("I don＇t like tea", "I like tea"),
            ("I do not like tea", "I like tea"),
            ("I'm not a vegetarian", "I am vegetarian"),
            ("I can't swim", "I can swim"),
            (
                "Bob doesn't drink coffee after 6pm",
                "Bob drinks coffee after 6pm",
            ),
            (
                "I am uncomfortable driving at night",
                "I am comfortable driving at night",
            ),
            ("User dislikes opera", "User likes opera"),
            (
                "User drinks coffee without sugar",
                "User drinks coffee with sugar",
            ),
            ("我不喜欢咖啡", "我喜欢咖啡"),
            ("我没有车", "我有车"),
            ("I'm not a non-smoker", "I am a non-smoker"),
            // said to have stopped: no longer, anymore, 不再, 再也不, 不…了
            ("I no longer eat meat", "I eat meat"),
            ("User no longer trusts his bank", "User trusts his bank"),
            ("I don't eat meat anymore", "I eat meat"),
            ("我不再吃肉", "我吃肉"),
            ("我再也不喝酒", "我喝酒"),
            ("我不吃肉了", "我吃肉"),
        ] {
            assert!(bare_denial(a, b), "{a} / {b}");
            assert!(bare_denial(b, a), "{b} / {a}");
        }
    }

    #[test]
    fn anything_more_or_else_is_no_bare_denial() {
        for (a, b) in [
            // another subject, or none
            ("he doesn't like coffee", "I like coffee"),
            ("we don't like coffee", "I like coffee"),
            ("nobody likes coffee", "I like coffee"),
            ("doesn't like coffee", "I like coffee"),
            ("Bob doesn't trust me", "I trust Bob"),
            ("my wife doesn't love me", "I love my wife"),
            ("Alice doesn't trust Bob", "Bob trusts Alice"),
            ("他不喜欢咖啡", "我喜欢咖啡"),
            ("不喜欢咖啡", "我喜欢咖啡"),
            // hedges, modals, other words
            ("I don't really like tea", "I like tea"),
            ("I won't like tea", "I like tea"),
            ("I'd not like coffee", "I like coffee"),
            ("I wouldn't like coffee", "I like coffee"),
            ("我不太喜欢咖啡", "我喜欢咖啡"),
            ("我从不喜欢咖啡", "我喜欢咖啡"),
            ("I don't like tea, I love it", "I like tea"),
            ("I like coffee, not tea", "I like coffee and tea"),
            ("I don't like tea in the evening", "I like tea"),
            // questions, quotes, a trailing "not"
            ("do I not like tea", "I like tea?"),
            ("我不喜欢咖啡吗", "我喜欢咖啡"),
            ("\"I don't like tea\"", "I like tea"),
            ("I like tea, not", "I like tea"),
            ("I like tea, not!", "I like tea"),
            ("do I not like tea", "I like tea"),
            ("don't I like tea", "I like tea"),
            ("«I don't like tea»", "I like tea"),
            // two negations cancel; the same text
            ("I don't dislike tea", "I like tea"),
            ("I like tea", "I like tea"),
        ] {
            assert!(!bare_denial(a, b), "{a} / {b}");
            assert!(!bare_denial(b, a), "{b} / {a}");
        }
    }
}
