//! Choosing which structured memories go into a prompt: rank by relevance to the incoming
//! message, confidence and recency, then fill the token budget.

use std::collections::HashSet;

use super::text::{term_set, terms};
use crate::store::{Category, RankRow};

const DAY_MS: f64 = 86_400_000.0;
/// Recency halves every this many days.
const RECENCY_HALF_LIFE_DAYS: f64 = 30.0;
/// Below this many tokens left, no further line can fit usefully.
const MIN_LINE_TOKENS: usize = 4;
/// Lines tried in a row that do not fit before the rest are given up on: a shorter fact
/// further down may still fit, but not worth tokenizing every remaining line for.
const MAX_MISSES: usize = 32;

#[derive(Debug, Clone)]
pub struct Candidate<'a> {
    pub id: i64,
    pub category: Category,
    pub global: bool,
    pub content: &'a str,
    pub confidence: f64,
    pub last_seen_ms: i64,
}

impl<'a> From<&'a RankRow> for Candidate<'a> {
    fn from(m: &'a RankRow) -> Self {
        Self {
            id: m.id,
            category: m.category,
            global: m.global,
            content: &m.content,
            confidence: m.confidence,
            last_seen_ms: m.last_seen_at,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Selection {
    /// Rendered lines, most relevant first.
    pub lines: Vec<String>,
    pub selected_ids: Vec<i64>,
    pub candidates: usize,
    pub omitted: usize,
    pub tokens: usize,
}

/// Relevance in [0, 1]: the share of the query's terms that the memory contains.
pub fn relevance(query: &HashSet<String>, content: &str) -> f64 {
    if query.is_empty() {
        return 0.0;
    }
    let found: HashSet<String> = terms(content)
        .into_iter()
        .filter(|t| query.contains(t))
        .collect();
    found.len() as f64 / query.len() as f64
}

/// Higher is better. Relevance dominates; confidence and recency order the rest; profile
/// facts get a small lift because they are about the person being answered.
pub fn score(query: &HashSet<String>, c: &Candidate<'_>, now_ms: i64) -> f64 {
    let age_days = ((now_ms - c.last_seen_ms).max(0) as f64) / DAY_MS;
    let recency = 0.5f64.powf(age_days / RECENCY_HALF_LIFE_DAYS);
    let profile = if c.category == Category::Profile {
        0.25
    } else {
        0.0
    };
    3.0 * relevance(query, c.content) + c.confidence + 0.5 * recency + profile
}

/// One prompt line: `[CATEGORY] [global|chat] content`, on a single line.
pub fn render_line(c: &Candidate<'_>) -> String {
    let scope = if c.global { "global" } else { "chat" };
    let content = c.content.split_whitespace().collect::<Vec<_>>().join(" ");
    format!("[{}] [{scope}] {content}", c.category)
}

/// Ranks `candidates` against `query` and keeps the best that fit in `budget` tokens as
/// counted by `count_tokens`. A line too long for what is left is skipped, so a shorter,
/// lower-ranked one can still use the room (up to `MAX_MISSES` misses in a row).
pub fn select(
    candidates: &[Candidate<'_>],
    query: &str,
    now_ms: i64,
    budget: usize,
    count_tokens: impl Fn(&str) -> usize,
) -> Selection {
    let query = term_set(query);
    let mut ranked: Vec<(f64, &Candidate<'_>)> = candidates
        .iter()
        .map(|c| (score(&query, c, now_ms), c))
        .collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.id.cmp(&a.1.id)));

    let mut sel = Selection {
        candidates: candidates.len(),
        ..Selection::default()
    };
    let mut misses = 0;
    for (_, c) in ranked {
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

    const NOW: i64 = 1_800_000_000_000;

    fn cand(id: i64, content: &str) -> Candidate<'_> {
        Candidate {
            id,
            category: Category::Knowledge,
            global: false,
            content,
            confidence: 0.8,
            last_seen_ms: NOW,
        }
    }

    fn words(s: &str) -> usize {
        s.split_whitespace().count()
    }

    #[test]
    fn relevant_memory_ranks_first() {
        let cands = [
            cand(1, "likes green tea"),
            cand(2, "dog is named Rex"),
            cand(3, "works at a bank"),
        ];
        let sel = select(&cands, "what is my dog called?", NOW, 1000, words);
        assert_eq!(sel.selected_ids[0], 2);
        assert_eq!(sel.lines[0], "[KNOWLEDGE] [chat] dog is named Rex");
        assert_eq!(sel.omitted, 0);
    }

    #[test]
    fn cjk_relevance() {
        let cands = [
            cand(1, "喜欢喝绿茶"),
            cand(2, "住在大阪"),
            cand(3, "likes cats"),
        ];
        let sel = select(&cands, "我住在哪里？", NOW, 1000, words);
        assert_eq!(sel.selected_ids[0], 2);
    }

    #[test]
    fn budget_cuts_and_counts_omitted() {
        // each line costs 5 words + 1 newline = 6
        let cands: Vec<_> = (0..10).map(|i| cand(i, "fact number x")).collect();
        let sel = select(&cands, "", NOW, 12, words);
        assert_eq!(sel.selected_ids.len(), 2);
        assert_eq!(sel.tokens, 12);
        assert_eq!(sel.omitted, 8);
        assert_eq!(sel.candidates, 10);
    }

    #[test]
    fn a_long_line_is_skipped_for_shorter_ones() {
        let long = "a b c d e f g h i j k l m n o p";
        let cands = [cand(1, long), cand(2, "short one")];
        // the long line is more relevant, but does not fit; the short one does
        let sel = select(&cands, "a b c", NOW, 8, words);
        assert_eq!(sel.selected_ids, vec![2]);
        assert_eq!(sel.omitted, 1);
    }

    #[test]
    fn recency_and_confidence_order_equally_relevant_facts() {
        let mut old = cand(1, "likes tea");
        old.last_seen_ms = NOW - 365 * DAY_MS as i64;
        let fresh = cand(2, "likes coffee");
        let mut unsure = cand(3, "likes juice");
        unsure.confidence = 0.2;
        let sel = select(&[old, fresh, unsure], "", NOW, 1000, words);
        assert_eq!(sel.selected_ids, vec![2, 1, 3]);
    }

    #[test]
    fn lookahead_past_lines_that_do_not_fit_is_bounded() {
        let long = "word ".repeat(50);
        let mut cands: Vec<_> = (0..100).map(|i| cand(1000 - i, &long)).collect();
        cands.push(cand(1, "tiny"));
        // the tiny fact ranks last, after 100 lines too long for the budget
        let sel = select(&cands, "", NOW, 20, words);
        assert!(
            sel.selected_ids.is_empty(),
            "gave up after {MAX_MISSES} misses"
        );
        let sel = select(&cands[90..], "", NOW, 20, words);
        assert_eq!(
            sel.selected_ids,
            vec![1],
            "within the lookahead it is found"
        );
    }

    #[test]
    fn zero_budget_selects_nothing() {
        let sel = select(&[cand(1, "x")], "x", NOW, 0, words);
        assert!(sel.lines.is_empty());
        assert_eq!(sel.omitted, 1);
    }
}
