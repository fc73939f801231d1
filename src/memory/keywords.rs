//! A search query's keywords: the terms worth matching (see `text::terms`), without the words
//! that make a sentence a question ("what", "什么", "哪里"), and the FTS5 expression for them.

use std::collections::HashSet;
use std::sync::LazyLock;

use rust_stemmers::{Algorithm, Stemmer};

use super::text;

/// Most keywords one query is searched by; a pasted page would otherwise become a huge OR.
pub const MAX_KEYWORDS: usize = 32;

/// English words that only make a sentence a request or a question (beyond `text`'s stop
/// words, which go for documents and queries alike).
const EN_QUERY_STOP: &[&str] = &[
    "tell",
    "know",
    "recall",
    "remind",
    "anything",
    "something",
    "thing",
    "things",
    "any",
    "some",
    "all",
    "again",
    "ever",
    "still",
    "just",
    "also",
    "let",
    "lets",
    "now",
    "think",
    "say",
    "said",
    "mention",
    "mentioned",
    "whats",
    "wheres",
    "whos",
    "hows",
    "one",
    "much",
    "many",
    "get",
    "got",
];

/// Chinese question words and fillers, cut out of a query before it is split into bigrams
/// (so "我的狗叫什么名字" searches 狗叫 and 名字, not 什么 or 么名).
const ZH_QUERY_STOP: &[&str] = &[
    "为什么",
    "是不是",
    "有没有",
    "什么",
    "怎么",
    "怎样",
    "哪里",
    "哪儿",
    "哪个",
    "哪些",
    "多少",
    "几个",
    "请问",
    "告诉",
    "知道",
    "记得",
    "一下",
    "还是",
    "吗",
    "呢",
    "吧",
    "啊",
    "呀",
];

static EN_QUERY_STOP_SET: LazyLock<HashSet<&'static str>> =
    LazyLock::new(|| EN_QUERY_STOP.iter().copied().collect());

static STEMMER: LazyLock<Stemmer> = LazyLock::new(|| Stemmer::create(Algorithm::English));

/// The keywords of a query, in order, each once, at most [`MAX_KEYWORDS`].
pub fn keywords(query: &str) -> Vec<String> {
    let mut cleaned = query.to_string();
    for stop in ZH_QUERY_STOP {
        cleaned = cleaned.replace(stop, " ");
    }
    let mut seen = HashSet::new();
    text::terms(&cleaned)
        .into_iter()
        .filter(|t| !EN_QUERY_STOP_SET.contains(t.as_str()))
        .filter(|t| seen.insert(t.clone()))
        .take(MAX_KEYWORDS)
        .collect()
}

/// The FTS5 expression matching any keyword: `"dog" OR "rex"`. Keywords are letters, digits
/// and CJK only (`text::terms`), so quoting makes each a plain phrase FTS5 cannot misread;
/// `None` when there is nothing to search for.
pub fn fts_expression(keywords: &[String]) -> Option<String> {
    let quoted: Vec<String> = keywords
        .iter()
        .filter(|k| !k.is_empty())
        .map(|k| format!("\"{}\"", k.replace('"', "")))
        .collect();
    (!quoted.is_empty()).then(|| quoted.join(" OR "))
}

/// A term reduced to its stem (English words; CJK bigrams and digits stay as they are), so
/// "dogs" and "dog" count as the same keyword.
pub fn stem(term: &str) -> String {
    if term.chars().all(|c| c.is_ascii_alphabetic()) {
        STEMMER.stem(term).into_owned()
    } else {
        term.to_string()
    }
}

/// The stems of a text's terms.
pub fn stems(content: &str) -> HashSet<String> {
    text::terms(content).iter().map(|t| stem(t)).collect()
}

/// The share of the query's keywords a text contains, comparing stems: 1.0 when every
/// keyword is there, 0.0 when none is (or there are no keywords).
pub fn coverage(query_stems: &HashSet<String>, content_stems: &HashSet<String>) -> f64 {
    if query_stems.is_empty() {
        return 0.0;
    }
    query_stems.intersection(content_stems).count() as f64 / query_stems.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_question_words_go() {
        assert_eq!(keywords("What's my dog called?"), ["dog", "called"]);
        assert_eq!(
            keywords("Do you remember where I live? Tell me again"),
            ["live"]
        );
        assert!(keywords("what is it?").is_empty());
    }

    #[test]
    fn chinese_question_words_go_before_bigrams() {
        assert_eq!(keywords("我的狗叫什么名字？"), ["的狗", "狗叫", "名字"]);
        assert_eq!(keywords("我住在哪里"), ["我住", "住在"]);
    }

    #[test]
    fn keywords_are_unique_and_bounded() {
        assert_eq!(keywords("tea tea TEA"), ["tea"]);
        let long: String = (0..100).map(|i| format!("word{i} ")).collect();
        assert_eq!(keywords(&long).len(), MAX_KEYWORDS);
    }

    #[test]
    fn fts_expression_quotes_each_keyword() {
        let k = keywords("dog named Rex");
        assert_eq!(
            fts_expression(&k).as_deref(),
            Some("\"dog\" OR \"named\" OR \"rex\"")
        );
        assert_eq!(fts_expression(&[]), None);
        // operators in the query are words like any other, and quoted
        assert_eq!(
            fts_expression(&keywords("cats NOT dogs")).as_deref(),
            Some("\"cats\" OR \"not\" OR \"dogs\"")
        );
    }

    #[test]
    fn coverage_compares_stems() {
        let q = stems("dogs named");
        assert_eq!(coverage(&q, &stems("User's dog is named Rex")), 1.0);
        assert_eq!(coverage(&q, &stems("my dog")), 0.5);
        assert_eq!(coverage(&q, &stems("green tea")), 0.0);
        assert_eq!(coverage(&HashSet::new(), &stems("anything")), 0.0);
    }
}
