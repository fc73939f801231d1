//! Near-duplicate detection between two facts.

use std::collections::HashSet;

use super::text::jaccard;

/// Jaccard similarity at or above which two facts are the same fact.
pub const JACCARD_THRESHOLD: f64 = 0.6;

/// True when `a` and `b` state the same fact: their term sets overlap by Jaccard, or one is
/// (almost) contained in the other and both say enough for that to mean something — so
/// "I prefer Rust examples" and "I prefer Rust examples with tests" match, while
/// "my dog is named Rex" and "my cat is named Rex" do not.
pub fn is_near_duplicate(a: &HashSet<String>, b: &HashSet<String>, threshold: f64) -> bool {
    if a.is_empty() || b.is_empty() {
        return false;
    }
    if jaccard(a, b) >= threshold {
        return true;
    }
    let inter = a.intersection(b).count();
    let smaller = a.len().min(b.len());
    smaller >= 3 && inter as f64 / smaller as f64 >= 0.8
}

/// The candidate most similar to `fact` among those that are near-duplicates of it.
pub fn best_duplicate<'a, T>(
    fact: &HashSet<String>,
    candidates: impl IntoIterator<Item = (&'a HashSet<String>, T)>,
    threshold: f64,
) -> Option<T> {
    candidates
        .into_iter()
        .filter(|(terms, _)| is_near_duplicate(fact, terms, threshold))
        .map(|(terms, item)| (jaccard(fact, terms), item))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, item)| item)
}

#[cfg(test)]
mod tests {
    use super::super::text::term_set;
    use super::*;

    fn dup(a: &str, b: &str) -> bool {
        is_near_duplicate(&term_set(a), &term_set(b), JACCARD_THRESHOLD)
    }

    #[test]
    fn same_fact_in_other_words() {
        assert!(dup("I prefer Rust examples", "I prefer rust examples."));
        assert!(dup(
            "I prefer Rust examples",
            "I prefer Rust examples with tests"
        ));
        assert!(dup("我喜欢喝绿茶", "我很喜欢喝绿茶"));
    }

    #[test]
    fn different_facts_sharing_words() {
        assert!(!dup("my dog is named Rex", "my cat is named Rex"));
        assert!(!dup("I live in Tokyo", "I live in Osaka"));
        assert!(!dup("我喜欢喝绿茶", "我养了一只猫"));
        assert!(!dup("", "anything"));
    }

    #[test]
    fn best_duplicate_picks_the_closest() {
        let fact = term_set("I prefer Rust examples with tests");
        let a = term_set("I prefer Rust examples");
        let b = term_set("I prefer Rust examples with tests please");
        let c = term_set("green tea");
        assert_eq!(
            best_duplicate(&fact, [(&a, 1), (&b, 2), (&c, 3)], JACCARD_THRESHOLD),
            Some(2)
        );
        assert_eq!(best_duplicate(&fact, [(&c, 3)], JACCARD_THRESHOLD), None);
    }
}
