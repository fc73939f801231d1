//! A place in a row said before its noun or as a number after it: "third grade" is "grade 3",
//! "the fifth floor" "floor 5", "The Godfather Part II" "Part 2". Each is written as the noun
//! and then its number before the lexer and the stance read it; without it the ordinal reads
//! as a place in a row ("the third child") against a label with a number, and the two never
//! meet.
//!
//! Only nouns that number a thing in a row (a grade, a floor, a season, a volume…), and an
//! ordinal right before one: "the third Harry Potter book" stays as said. A roman numeral is
//! read after such a noun only when written in capitals, from II (a lone "I" is the pronoun:
//! "the book I read").

use std::borrow::Cow;

use crate::memory::text::{end_punctuation, unpunctuated};

/// Nouns whose number says which one of a row: "grade 3", "floor 5", "season 2".
const NOUNS: &[&str] = &[
    "grade", "floor", "season", "series", "part", "volume", "chapter", "episode", "book", "level",
    "round", "stage", "edition",
];

/// Ordinals in words, first to twelfth.
const ORDINALS: &[&str] = &[
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
    "eleventh", "twelfth",
];

/// Roman numerals from II to XII, as written in capitals.
const ROMAN: &[&str] = &[
    "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII",
];

/// `text` with each ordinal before a noun of [`NOUNS`] written as the noun and its number
/// ("third grade" → "grade 3"), and each roman numeral after one in digits ("Part II" →
/// "Part 2"); as it was when it has neither.
pub(super) fn as_numbers(text: &str) -> Cow<'_, str> {
    // every text the lexer and the stance read passes here: most name no such noun, and
    // leave without an allocation
    if !text.split_whitespace().any(|w| is_noun(unpunctuated(w))) {
        return Cow::Borrowed(text);
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    let mut changed = false;
    let mut i = 0;
    while i < words.len() {
        let (word, next) = (words[i], words.get(i + 1).copied());
        // "third grade", "the 5th floor": the ordinal's own punctuation ends nothing here
        if let (Some(n), Some(noun)) = (ordinal(word), next)
            && word == unpunctuated(word)
            && is_noun(unpunctuated(noun))
        {
            out.push(unpunctuated(noun).to_ascii_lowercase());
            out.push(format!("{n}{}", end_punctuation(noun)));
            changed = true;
            i += 2;
            continue;
        }
        // "Part II": the noun as written, the numeral in digits
        if let Some(numeral) = next
            && word == unpunctuated(word)
            && is_noun(word)
            && let Some(n) = ROMAN.iter().position(|r| *r == unpunctuated(numeral))
        {
            out.push(word.to_string());
            out.push(format!("{}{}", n + 2, end_punctuation(numeral)));
            changed = true;
            i += 2;
            continue;
        }
        out.push(word.to_string());
        i += 1;
    }
    if changed {
        Cow::Owned(out.join(" "))
    } else {
        Cow::Borrowed(text)
    }
}

/// Whether `w` is one of [`NOUNS`], in any case.
fn is_noun(w: &str) -> bool {
    NOUNS.iter().any(|n| n.eq_ignore_ascii_case(w))
}

/// The number an ordinal stands for: "third" 3, "5th" 5.
pub(super) fn ordinal(w: &str) -> Option<usize> {
    if let Some(p) = ORDINALS.iter().position(|o| o.eq_ignore_ascii_case(w)) {
        return Some(p + 1);
    }
    let digits = w.bytes().take_while(u8::is_ascii_digit).count();
    let suffix = w[digits..].to_ascii_lowercase();
    let n: usize = w[..digits].parse().ok()?;
    let right = match (n % 100, n % 10) {
        (11..=13, _) => "th",
        (_, 1) => "st",
        (_, 2) => "nd",
        (_, 3) => "rd",
        _ => "th",
    };
    (suffix == right && n > 0).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::as_numbers;

    #[test]
    fn an_ordinal_before_a_numbering_noun_is_the_noun_and_its_number() {
        for (said, written) in [
            ("User's kid is in third grade", "User's kid is in grade 3"),
            ("I live on the fifth floor.", "I live on the floor 5."),
            ("I live on the 5th floor", "I live on the floor 5"),
            (
                "She loved the second Season, truly",
                "She loved the season 2, truly",
            ),
            (
                "User's favourite film is The Godfather Part II",
                "User's favourite film is The Godfather Part 2",
            ),
            ("We watched Rocky Part IV.", "We watched Rocky Part 4."),
        ] {
            assert_eq!(as_numbers(said), written, "{said}");
        }
    }

    #[test]
    fn anything_else_stays_as_said() {
        for said in [
            // not right before its noun
            "She is reading the third Harry Potter book",
            // a lone I is the pronoun
            "This is the book I read",
            "I bought a book",
            "My second child was born in May",
            "User finished first, then went home",
            // a wrong suffix is no ordinal
            "the 3th floor",
            "Part ii of the plan",
        ] {
            assert_eq!(as_numbers(said), said, "{said}");
        }
    }
}
