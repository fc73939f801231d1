//! Initials against the words they stand for: "works at IBM" / "works at International
//! Business Machines", "has an MBA" / "has a Master of Business Administration", "has OCD" /
//! "has obsessive-compulsive disorder". The reading holds "IBM" as one word and its expansion
//! as three others, so the same fact read as two words swapped for one; the lexicon names a few
//! (NYC, MIT) but initials are made every day.
//!
//! Precision first: initials of three to six capitals only (two letters stand for too much:
//! "works in PR" is public relations or Puerto Rico, "MA" a degree or a state), spelled
//! exactly by the first letters of a run of words (joining words — of, the, and, for, & —
//! passed over inside it), on one side only. Then the run is written as its initials, and the
//! two are read again: everything else must still agree.

use std::collections::HashSet;

use crate::memory::text::spans;

/// Words passed over inside a run: "Master of Business Administration", "United States of
/// America", "Bank of America".
const JOINING: &[&str] = &["of", "the", "and", "for", "&"];

/// `long` with the run of its words that `short`'s initials spell written as those initials,
/// when `short` holds initials that `long` does not and `long` has such a run; else `None`.
pub(super) fn spelled_out(short: &str, long: &str) -> Option<String> {
    // cheap first: most facts hold no three capitals in a row
    let capitals = |w: &[u8]| w.iter().all(u8::is_ascii_uppercase);
    if !short.as_bytes().windows(3).any(capitals) {
        return None;
    }
    let long_words = pieces(long);
    for initials in acronyms(short) {
        if long_words.iter().any(|p| p.text == initials) {
            continue;
        }
        if let Some((start, end)) = run_spelling(initials, &long_words) {
            return Some(format!("{}{initials}{}", &long[..start], &long[end..]));
        }
    }
    None
}

/// The initials, lowercase as the term index holds words, that the runs of three to six
/// capitalised words of `text` spell ("works at International Business Machines" → `ibm`):
/// the words a memory holding the initials shares with `text`.
pub fn initials_spelled(text: &str) -> HashSet<String> {
    let mut found = HashSet::new();
    let mut run = String::new();
    let words = pieces(text);
    for (i, w) in words.iter().enumerate() {
        let capitalised = w.text.len() > 1
            && w.text.chars().all(char::is_alphabetic)
            && w.text.chars().next().is_some_and(char::is_uppercase)
            && !w.text.chars().all(|c| c.is_ascii_uppercase());
        let joining = !run.is_empty()
            && JOINING.contains(&w.text.to_lowercase().as_str())
            && words
                .get(i + 1)
                .is_some_and(|n| n.text.starts_with(char::is_uppercase));
        if capitalised {
            run.extend(w.text.chars().next().map(|c| c.to_ascii_lowercase()));
        } else if !joining {
            if (3..=6).contains(&run.len()) {
                found.insert(std::mem::take(&mut run));
            }
            run.clear();
        }
    }
    if (3..=6).contains(&run.len()) {
        found.insert(run);
    }
    found
}

/// A word of `text` and where it is (hyphens split words: "obsessive-compulsive").
struct Piece<'a> {
    text: &'a str,
    start: usize,
    end: usize,
}

/// The words of `text`, each without the punctuation around it, with their byte ranges.
fn pieces(text: &str) -> Vec<Piece<'_>> {
    spans(text, |c| c.is_alphanumeric() || c == '&' || c == '\'')
        .filter_map(|(start, word)| {
            let word = word.trim_end_matches('\'');
            let word = word.strip_suffix("'s").unwrap_or(word);
            (!word.is_empty()).then(|| Piece {
                text: word,
                start,
                end: start + word.len(),
            })
        })
        .collect()
}

/// Initials in `text`: words of three to six capital letters.
fn acronyms(text: &str) -> Vec<&str> {
    pieces(text)
        .into_iter()
        .map(|p| p.text)
        .filter(|w| (3..=6).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_uppercase()))
        .collect()
}

/// The byte range of the first run of `words` whose first letters spell `initials`, joining
/// words passed over inside it, its words all capitalised or all in lowercase.
fn run_spelling(initials: &str, words: &[Piece<'_>]) -> Option<(usize, usize)> {
    let letters: Vec<char> = initials.chars().map(|c| c.to_ascii_lowercase()).collect();
    let capitalised = |w: &str| w.chars().next().is_some_and(char::is_uppercase);
    'start: for first in 0..words.len() {
        let case = capitalised(words[first].text);
        let mut matched = 0;
        for (j, w) in words.iter().enumerate().skip(first) {
            if JOINING.contains(&w.text.to_lowercase().as_str()) {
                if matched > 0 {
                    continue;
                }
                continue 'start;
            }
            let initial = w.text.chars().next().map(|c| c.to_ascii_lowercase());
            let word_like = w.text.chars().all(char::is_alphabetic) && w.text.len() > 1;
            if !word_like || capitalised(w.text) != case || initial != Some(letters[matched]) {
                continue 'start;
            }
            matched += 1;
            if matched == letters.len() {
                return Some((words[first].start, words[j].end));
            }
        }
        return None;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_of_words_is_written_as_the_initials_it_spells() {
        for (short, long, written) in [
            (
                "User works at IBM",
                "User works at International Business Machines",
                "User works at IBM",
            ),
            (
                "I have an MBA",
                "I have a Master of Business Administration",
                "I have a MBA",
            ),
            (
                "User graduated from UCLA",
                "User graduated from the University of California, Los Angeles",
                "User graduated from the UCLA",
            ),
            (
                "My son has ADHD",
                "My son has attention deficit hyperactivity disorder.",
                "My son has ADHD.",
            ),
            (
                "I was diagnosed with OCD",
                "I was diagnosed with obsessive-compulsive disorder",
                "I was diagnosed with OCD",
            ),
            (
                "User is a CPA",
                "User is a certified public accountant",
                "User is a CPA",
            ),
        ] {
            assert_eq!(
                spelled_out(short, long).as_deref(),
                Some(written),
                "{short} / {long}"
            );
        }
    }

    #[test]
    fn the_initials_of_runs_of_names_are_what_a_memory_holding_them_shares() {
        let spelled = |t: &str| {
            let mut v: Vec<String> = initials_spelled(t).into_iter().collect();
            v.sort();
            v
        };
        assert_eq!(
            spelled("User works at International Business Machines"),
            ["ibm"]
        );
        assert_eq!(
            spelled(
                "I have a Master of Business Administration from the University of California, Los Angeles"
            ),
            ["mba", "ucla"]
        );
        // two names are no initials, nor is a run broken by a plain word
        assert!(spelled("User lives in New York").is_empty());
        assert!(spelled("Anna met Ben Smith at IBM").is_empty());
        assert!(spelled("User works at the WHO now").is_empty());
    }

    #[test]
    fn no_run_or_two_letters_or_initials_on_both_sides_rewrite_nothing() {
        for (short, long) in [
            // two letters stand for too much
            ("User works in PR", "User works in Puerto Rico"),
            ("User is moving to MA", "User is getting a Master of Arts"),
            // no run spells them
            ("User deploys to AWS", "User deploys to Azure"),
            ("User is a CPA", "User is a CFA"),
            ("User is a CPA", "User is a chartered financial analyst"),
            // the initials are on both sides already
            ("User works at IBM", "User works at IBM in New York"),
            // mixed case is no run: "Cats Play outside"
            ("User loves CPO", "User loves Cats play outside"),
            // a joining word starts no run, and a letter alone is no word of one
            ("I like TBC", "I like the big cat"),
            ("User has an ABC", "User has a B C"),
            ("no capitals here", "nothing to spell"),
        ] {
            assert_eq!(spelled_out(short, long), None, "{short} / {long}");
        }
    }
}
