//! The words a stored memory may say a fact in where the tables read other words as the same:
//! "two kids" for "2 children", "doesn't eat meat" for "vegetarian", "plays the piano" for
//! "pianist". The term index holds memories by the words they were said in, so a fact found
//! only by its own words is never judged against the same fact said with the tables' other
//! words; these words find it, and the judge decides.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use super::lexicon;
use super::tables::{TABLES, entries, stem};
use crate::memory::text;

/// Each token a table reads words as (`child`, `eat`, `#2`), with the words read so.
static SAID_AS: LazyLock<HashMap<&'static str, Vec<&'static str>>> = LazyLock::new(|| {
    let mut said_as: HashMap<&'static str, Vec<&'static str>> = HashMap::new();
    for (word, tokens) in entries(lexicon::EN_WORDS) {
        for token in tokens.split_whitespace() {
            said_as.entry(token).or_default().push(word);
        }
    }
    said_as
});

/// The words a stored memory may say `text`'s fact in (its own words among them), when a
/// word of it has others the tables read the same; `None` when none has.
pub fn said_otherwise(text: &str) -> Option<HashSet<String>> {
    let own = text::terms(text);
    let mut words: HashSet<String> = HashSet::new();
    let mut other = false;
    for w in own.iter().filter(|w| w.is_ascii()) {
        let tokens = if w.chars().all(|c| c.is_ascii_digit()) {
            Some(format!("#{w}"))
        } else {
            TABLES
                .words
                .get(w.as_str())
                .or_else(|| TABLES.words.get(&stem(w)))
                .map(|t| t.to_string())
        };
        add_forms(&mut words, &stem(w));
        words.insert(w.clone());
        let Some(tokens) = tokens else { continue };
        for token in tokens.split_whitespace() {
            let said = SAID_AS.get(token).map_or(&[][..], Vec::as_slice);
            let content = match token.as_bytes().first() {
                Some(b'#') => Some(&token[1..]),
                Some(b'^') => Some(&token[1..]),
                Some(b'!' | b'@' | b'~' | b'%' | b'<' | b'-') => None,
                _ => Some(token),
            };
            // a negation or a relation marker is no word to find a memory by
            let Some(content) = content else { continue };
            for word in said.iter().copied().chain([content]) {
                if word.split_whitespace().count() == 1 && word != w {
                    other = true;
                    add_forms(&mut words, word);
                }
            }
        }
    }
    other.then_some(words)
}

/// `word` as the index may hold it: itself and its plural ("kid", "kids"; "allergy",
/// "allergies").
fn add_forms(words: &mut HashSet<String>, word: &str) {
    words.insert(word.to_string());
    match word.strip_suffix('y') {
        Some(stem) if !stem.ends_with(['a', 'e', 'o', 'u']) => {
            words.insert(format!("{stem}ies"));
        }
        _ => {
            words.insert(format!("{word}s"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_other_words_for_a_fact_are_found() {
        let words = |t: &str| said_otherwise(t).unwrap_or_default();
        for (fact, said) in [
            ("I have 2 children", ["two", "kids"]),
            ("I'm vegetarian", ["eat", "meat"]),
            ("I'm a pianist", ["play", "piano"]),
            ("I have a peanut allergy", ["allergic", "peanut"]),
            ("I'm allergic to peanuts", ["allergy", "peanut"]),
        ] {
            let found = words(fact);
            for w in said {
                assert!(found.contains(w), "{fact}: {w} not in {found:?}");
            }
        }
        // words the tables read only as themselves: nothing else to look for
        assert_eq!(said_otherwise("my dog Rex chews shoes"), None);
        // a negation or a marker is no word of the search
        assert!(!words("I'm vegetarian").contains("!"));
    }
}
