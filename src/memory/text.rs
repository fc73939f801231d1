//! Text normalisation shared by relevance and dedup: lowercase word terms with stop words
//! dropped, and CJK runs as overlapping character bigrams (Chinese and Japanese have no
//! spaces, so a "word" split would make a whole sentence one term).

use std::collections::HashSet;
use std::sync::LazyLock;

const EN_STOP: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "do", "does", "did", "for", "from",
    "had", "has", "have", "he", "her", "his", "how", "i", "if", "in", "into", "is", "it", "its",
    "me", "my", "of", "on", "or", "our", "she", "so", "that", "the", "their", "them", "there",
    "they", "this", "to", "was", "we", "were", "what", "when", "where", "which", "who", "why",
    "will", "with", "you", "your", "am", "can", "could", "would", "should", "about", "please",
    "remember", "user", "users",
];

static EN_STOP_SET: LazyLock<HashSet<&'static str>> =
    LazyLock::new(|| EN_STOP.iter().copied().collect());

/// Single CJK characters too common to carry meaning alone; bigrams made only of these
/// are dropped too.
const CJK_STOP: &[char] = &[
    '的', '了', '是', '我', '你', '他', '她', '它', '们', '在', '和', '有', '就', '不', '也', '都',
    '吗', '呢', '吧', '啊', '这', '那', '个', '请', 'の', 'は', 'が', 'を', 'に', 'で', 'と', 'も',
];

/// An apostrophe as people type it: ASCII, typographic (’), fullwidth (＇), the modifier
/// letter (ʼ), a backtick or an acute accent. For reading words ("don't", "I'm"); the term
/// splitting of search keeps to its own two.
pub fn is_apostrophe(c: char) -> bool {
    matches!(c, '\'' | '’' | '＇' | 'ʼ' | '`' | '´')
}

/// The runs of `text`'s characters that `inside` accepts (its words, as the caller defines a
/// word's characters), each with the byte offset it starts at.
pub fn spans(text: &str, inside: impl Fn(char) -> bool) -> impl Iterator<Item = (usize, &str)> {
    text.split(move |c: char| !inside(c))
        .filter(|w| !w.is_empty())
        .map(move |w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
}

/// Punctuation that may end a word in a sentence: kept after what a rewriting puts in the
/// word's place ("fifth floor." → "floor 5.").
const WORD_ENDS: [char; 6] = ['.', ',', '!', '?', ';', ':'];

/// `word` without the punctuation it ends with ("floor." → "floor").
pub fn unpunctuated(word: &str) -> &str {
    word.trim_end_matches(WORD_ENDS)
}

/// The punctuation `word` ends with ("floor." → ".").
pub fn end_punctuation(word: &str) -> &str {
    &word[unpunctuated(word).len()..]
}

/// The words of `text` as written, and beside each the word unpunctuated in lowercase: what a
/// rewriting of a sentence reads ("Spiders scare me." → "spiders", "scare", "me").
pub fn words_lowered(text: &str) -> (Vec<&str>, Vec<String>) {
    let words: Vec<&str> = text.split_whitespace().collect();
    let lower = words
        .iter()
        .map(|w| unpunctuated(w).to_lowercase())
        .collect();
    (words, lower)
}

/// The words a rewriting of `said` wrote, joined, the last keeping the punctuation `said` ended
/// with ("Spiders scare me." → "I am scared of spiders.").
pub fn ending_as(mut out: Vec<String>, said: &str) -> String {
    let end = said.split_whitespace().last().map_or("", end_punctuation);
    if let Some(last) = out.last_mut()
        && !last.ends_with(end)
    {
        last.push_str(end);
    }
    out.join(" ")
}

pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF      // Hiragana, Katakana
        | 0x3400..=0x4DBF    // CJK Extension A
        | 0x4E00..=0x9FFF    // CJK Unified Ideographs
        | 0xAC00..=0xD7AF    // Hangul syllables
        | 0xF900..=0xFAFF    // CJK Compatibility Ideographs
        | 0x20000..=0x2FA1F) // Extensions B–F, compatibility supplement
}

/// The terms of a text, in order, duplicates kept.
pub fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut cjk_run: Vec<char> = Vec::new();
    for c in text.chars() {
        if is_cjk(c) {
            flush_word(&mut word, &mut out);
            cjk_run.push(c);
        } else if c.is_alphanumeric() {
            flush_cjk(&mut cjk_run, &mut out);
            word.extend(c.to_lowercase());
        } else if c == '\'' || c == '’' {
            // "user's" → "user": the possessive adds nothing to match on
            flush_cjk(&mut cjk_run, &mut out);
            flush_word(&mut word, &mut out);
            word.push('\u{0}');
        } else {
            flush_cjk(&mut cjk_run, &mut out);
            flush_word(&mut word, &mut out);
        }
    }
    flush_word(&mut word, &mut out);
    flush_cjk(&mut cjk_run, &mut out);
    out
}

fn flush_word(word: &mut String, out: &mut Vec<String>) {
    if word.starts_with('\u{0}') {
        // the tail after an apostrophe (s, t, re, ll, …): dropped
        word.clear();
        return;
    }
    if !word.is_empty() && !EN_STOP_SET.contains(word.as_str()) {
        out.push(std::mem::take(word));
    }
    word.clear();
}

fn flush_cjk(run: &mut Vec<char>, out: &mut Vec<String>) {
    let meaningful = |c: &char| !CJK_STOP.contains(c);
    match run.len() {
        0 => {}
        1 => {
            if meaningful(&run[0]) {
                out.push(run[0].to_string());
            }
        }
        _ => {
            for pair in run.windows(2) {
                if pair.iter().any(meaningful) {
                    out.push(pair.iter().collect());
                }
            }
        }
    }
    run.clear();
}

/// The set of terms, for overlap and Jaccard.
pub fn term_set(text: &str) -> HashSet<String> {
    terms(text).into_iter().collect()
}

/// |A ∩ B| / |A ∪ B|; 0 when both are empty.
/// How many items `a` and `b` start alike and, after those, end alike: what is left between
/// is where they differ ("I live in Tokyo" / "I live in Osaka": 3 and 0).
pub fn common_ends<T: PartialEq>(a: &[T], b: &[T]) -> (usize, usize) {
    let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    (head, tail)
}

pub fn jaccard(a: &HashSet<String>, b: &HashSet<String>) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 0.0;
    }
    let inter = a.intersection(b).count();
    inter as f64 / (a.len() + b.len() - inter) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_are_the_runs_a_caller_calls_words_with_where_they_start() {
        let found: Vec<_> =
            spans("Hi, AT&T's  café!", |c| c.is_alphanumeric() || c == '&').collect();
        assert_eq!(found, [(0, "Hi"), (4, "AT&T"), (9, "s"), (12, "café")]);
        assert_eq!(spans("", char::is_alphanumeric).count(), 0);
    }

    #[test]
    fn common_ends_leave_where_two_differ_and_never_overlap() {
        let words = |t: &'static str| t.split(' ').collect::<Vec<_>>();
        assert_eq!(
            common_ends(&words("I live in Tokyo"), &words("I live in Osaka")),
            (3, 0)
        );
        assert_eq!(common_ends(&words("a b c"), &words("a x c")), (1, 1));
        // "a a" in "a a a": two alike from the start, none left to end alike
        assert_eq!(common_ends(&words("a a"), &words("a a a")), (2, 0));
        assert_eq!(common_ends::<char>(&[], &['x']), (0, 0));
    }

    #[test]
    fn english_terms_drop_stop_words_and_possessives() {
        assert_eq!(
            terms("The user's dog is named Rex!"),
            ["dog", "named", "rex"]
        );
    }

    #[test]
    fn cjk_becomes_bigrams_beside_latin_words() {
        assert_eq!(
            terms("我住在东京 Tokyo"),
            ["我住", "住在", "在东", "东京", "tokyo"]
        );
        // bigrams of stop characters only are dropped
        assert_eq!(terms("我的"), Vec::<String>::new());
        // a lone meaningful character survives
        assert_eq!(terms("猫"), ["猫"]);
    }

    #[test]
    fn chinese_paraphrases_overlap() {
        let a = term_set("我喜欢喝绿茶");
        let b = term_set("我很喜欢喝绿茶");
        assert!(jaccard(&a, &b) > 0.5, "{}", jaccard(&a, &b));
        let c = term_set("我养了一只猫");
        assert!(jaccard(&a, &c) < 0.2);
    }

    #[test]
    fn jaccard_of_identical_and_disjoint() {
        let a = term_set("rust programming");
        assert_eq!(jaccard(&a, &a), 1.0);
        assert_eq!(jaccard(&a, &term_set("green tea")), 0.0);
        assert_eq!(jaccard(&HashSet::new(), &HashSet::new()), 0.0);
    }
}
