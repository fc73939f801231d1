//! Choosing which structured memories go into a prompt: the search hits for the incoming
//! message first, then who the person is and what came up lately, cut to the token budget.
//! (The search ranking itself is `rank`'s.)

use std::collections::HashSet;

use crate::base::{Category, MemoryRow};

/// Below this many tokens left, no further line can fit usefully.
const MIN_LINE_TOKENS: usize = 4;
/// Lines tried in a row that do not fit before the rest are given up on: a shorter fact
/// further down may still fit, but not worth tokenizing every remaining line for.
const MAX_MISSES: usize = 32;
/// A search hit scoring below this (see `rank::Ranked::score`) matches the message too
/// weakly to go before the person's profile.
pub const STRONG_HIT: f64 = 0.3;

/// A memory as a prompt line needs it.
#[derive(Debug, Clone)]
pub struct Candidate<'a> {
    pub id: i64,
    pub category: Category,
    pub global: bool,
    pub content: &'a str,
}

impl<'a> From<&'a MemoryRow> for Candidate<'a> {
    fn from(m: &'a MemoryRow) -> Self {
        Self {
            id: m.id,
            category: m.category,
            global: m.chat_id.is_none(),
            content: &m.content,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Selection {
    /// Rendered lines, in prompt order.
    pub lines: Vec<String>,
    pub selected_ids: Vec<i64>,
    /// Every memory the prompt could have drawn on.
    pub candidates: usize,
    pub omitted: usize,
    pub tokens: usize,
}

/// The order memories are offered to the prompt: search hits that match the message
/// (`hits`, best first, with their scores), then PROFILE memories from `background` (recent
/// first: who the person is), then the weak hits, then the rest of `background`. Each id once.
pub fn prompt_order(hits: &[(i64, f64)], background: &[(i64, Category)]) -> Vec<i64> {
    let strong = hits.iter().filter(|h| h.1 >= STRONG_HIT).map(|h| h.0);
    let profile = background
        .iter()
        .filter(|b| b.1 == Category::Profile)
        .map(|b| b.0);
    let weak = hits.iter().filter(|h| h.1 < STRONG_HIT).map(|h| h.0);
    let rest = background
        .iter()
        .filter(|b| b.1 != Category::Profile)
        .map(|b| b.0);
    let mut seen = HashSet::new();
    strong
        .chain(profile)
        .chain(weak)
        .chain(rest)
        .filter(|id| seen.insert(*id))
        .collect()
}

/// One prompt line: `[CATEGORY] [global|chat] content`, on a single line.
pub fn render_line(c: &Candidate<'_>) -> String {
    let scope = if c.global { "global" } else { "chat" };
    let content = c.content.split_whitespace().collect::<Vec<_>>().join(" ");
    format!("[{}] [{scope}] {content}", c.category)
}

/// Keeps memories of `ordered` in order while they fit in `budget` tokens as counted by
/// `count_tokens`. A line too long for what is left is skipped, so a shorter one further down
/// can still use the room (up to `MAX_MISSES` misses in a row). `candidates` is how many
/// memories there were in all (`ordered` is the best of them), for the omitted count.
pub fn fit(
    ordered: &[Candidate<'_>],
    candidates: usize,
    budget: usize,
    count_tokens: impl Fn(&str) -> usize,
) -> Selection {
    let mut sel = Selection {
        candidates: candidates.max(ordered.len()),
        ..Selection::default()
    };
    let mut misses = 0;
    for c in ordered {
        if budget - sel.tokens < MIN_LINE_TOKENS || misses >= MAX_MISSES {
            break;
        }
        let line = render_line(c);
        let cost = count_tokens(&line) + 1; // the newline
        if sel.tokens + cost <= budget {
            sel.tokens += cost;
            sel.selected_ids.push(c.id);
            sel.lines.push(line);
            misses = 0;
        } else {
            misses += 1;
        }
    }
    sel.omitted = sel.candidates - sel.selected_ids.len();
    sel
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(id: i64, content: &str) -> Candidate<'_> {
        Candidate {
            id,
            category: Category::Knowledge,
            global: false,
            content,
        }
    }

    fn words(s: &str) -> usize {
        s.split_whitespace().count()
    }

    #[test]
    fn lines_render_category_scope_and_one_line_of_content() {
        let mut c = cand(2, "dog is\nnamed   Rex");
        assert_eq!(render_line(&c), "[KNOWLEDGE] [chat] dog is named Rex");
        c.global = true;
        c.category = Category::Profile;
        assert_eq!(render_line(&c), "[PROFILE] [global] dog is named Rex");
    }

    #[test]
    fn strong_hits_then_profile_then_weak_hits_then_the_rest() {
        let hits = [(10, 0.9), (11, 0.1), (12, 0.5), (20, 0.05)];
        let background = [
            (20, Category::Profile),
            (21, Category::Event),
            (22, Category::Profile),
            (10, Category::Knowledge),
        ];
        assert_eq!(
            prompt_order(&hits, &background),
            [10, 12, 20, 22, 11, 21],
            "a background memory that was also a hit comes once, at its best place"
        );
        assert!(prompt_order(&[], &[]).is_empty());
    }

    #[test]
    fn budget_cuts_and_counts_omitted() {
        // each line costs 5 words + 1 newline = 6
        let cands: Vec<_> = (0..10).map(|i| cand(i, "fact number x")).collect();
        let sel = fit(&cands, 25, 12, words);
        assert_eq!(sel.selected_ids, [0, 1]);
        assert_eq!(sel.tokens, 12);
        assert_eq!(sel.candidates, 25);
        assert_eq!(sel.omitted, 23);
    }

    #[test]
    fn a_long_line_is_skipped_for_shorter_ones() {
        let long = "a b c d e f g h i j k l m n o p";
        let cands = [cand(1, long), cand(2, "short one")];
        let sel = fit(&cands, 2, 8, words);
        assert_eq!(sel.selected_ids, vec![2]);
        assert_eq!(sel.omitted, 1);
    }

    #[test]
    fn lookahead_past_lines_that_do_not_fit_is_bounded() {
        let long = "word ".repeat(50);
        let mut cands: Vec<_> = (0..100).map(|i| cand(1000 - i, &long)).collect();
        cands.push(cand(1, "tiny"));
        // the tiny fact comes last, after 100 lines too long for the budget
        let sel = fit(&cands, cands.len(), 20, words);
        assert!(
            sel.selected_ids.is_empty(),
            "gave up after {MAX_MISSES} misses"
        );
        let sel = fit(&cands[90..], 11, 20, words);
        assert_eq!(
            sel.selected_ids,
            vec![1],
            "within the lookahead it is found"
        );
    }

    #[test]
    fn zero_budget_selects_nothing() {
        let sel = fit(&[cand(1, "x")], 1, 0, words);
        assert!(sel.lines.is_empty());
        assert_eq!(sel.omitted, 1);
    }
}
