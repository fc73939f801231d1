//! Near-duplicate detection between two facts.

use std::collections::HashSet;

use super::text::{jaccard, term_set};

/// Jaccard similarity at or above which two facts are the same fact.
pub const JACCARD_THRESHOLD: f64 = 0.6;
/// Containment: the smaller fact has at least this many terms…
const CONTAINMENT_MIN_TERMS: usize = 3;
/// …and at least this share of them is in the other fact.
const CONTAINMENT_SHARE: f64 = 0.8;

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
    smaller >= CONTAINMENT_MIN_TERMS && inter as f64 / smaller as f64 >= CONTAINMENT_SHARE
}

/// The fewest terms a memory must share with a fact of `fact_len` terms for
/// [`is_near_duplicate`] to accept the pair, so an index lookup can skip every row sharing
/// fewer. Jaccard ≥ t needs |A∩B| ≥ t·|A∪B| ≥ t·|A|; containment needs at least
/// 0.8 × 3 → 3 shared terms, and only applies when the fact itself has 3 or more.
pub fn min_shared_terms(fact_len: usize, threshold: f64) -> usize {
    // the epsilon keeps 0.6 × 5 = 3.0000000000000004 at 3
    let by_jaccard = (threshold * fact_len as f64 - 1e-9).ceil().max(1.0) as usize;
    if fact_len >= CONTAINMENT_MIN_TERMS {
        let by_containment =
            (CONTAINMENT_SHARE * CONTAINMENT_MIN_TERMS as f64 - 1e-9).ceil() as usize;
        by_jaccard.min(by_containment)
    } else {
        by_jaccard
    }
}

/// The row of `rows` closest to `fact` among its near-duplicates; `content` reads a row's text.
pub fn closest<'a, T>(
    fact: &HashSet<String>,
    rows: &'a [T],
    content: impl Fn(&T) -> &str,
    threshold: f64,
) -> Option<&'a T> {
    let sets: Vec<(HashSet<String>, &T)> = rows.iter().map(|r| (term_set(content(r)), r)).collect();
    best_duplicate(
        fact,
        sets.iter().map(|(terms, row)| (terms, *row)),
        threshold,
    )
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

    #[test]
    fn min_shared_terms_never_excludes_a_duplicate() {
        let mut rng = fastrand::Rng::with_seed(5);
        let universe: Vec<String> = (0..14).map(|i| format!("t{i}")).collect();
        let pick = |rng: &mut fastrand::Rng| -> HashSet<String> {
            let n = rng.usize(1..10);
            (0..n)
                .map(|_| universe[rng.usize(0..universe.len())].clone())
                .collect()
        };
        for threshold in [0.3, 0.5, JACCARD_THRESHOLD, 0.75, 0.9, 1.0] {
            for _ in 0..20_000 {
                let (a, b) = (pick(&mut rng), pick(&mut rng));
                if is_near_duplicate(&a, &b, threshold) {
                    let shared = a.intersection(&b).count();
                    assert!(
                        shared >= min_shared_terms(a.len(), threshold),
                        "{a:?} {b:?} at {threshold}"
                    );
                }
            }
        }
        assert_eq!(min_shared_terms(1, JACCARD_THRESHOLD), 1);
        assert_eq!(min_shared_terms(2, JACCARD_THRESHOLD), 2);
        assert_eq!(min_shared_terms(5, JACCARD_THRESHOLD), 3);
        assert_eq!(min_shared_terms(40, JACCARD_THRESHOLD), 3);
    }

    #[test]
    fn closest_reads_content_through_the_accessor() {
        let rows = [(1, "I prefer Rust examples"), (2, "green tea")];
        let fact = term_set("I prefer rust examples with tests");
        let hit = closest(&fact, &rows, |r| r.1, JACCARD_THRESHOLD);
        assert_eq!(hit.map(|r| r.0), Some(1));
    }
}
