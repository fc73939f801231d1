//! Hybrid ranking, as pure functions: Reciprocal Rank Fusion of the BM25 and vector rankings,
//! temporal decay, then Maximal Marginal Relevance. `retrieval::Retriever` gathers the
//! candidates (I/O) and hands them here.

use crate::base::Category;

const DAY_MS: f64 = 86_400_000.0;

/// Which stages run, and their parameters (the config's `search:` section).
#[derive(Debug, Clone, PartialEq)]
pub struct RankSettings {
    /// RRF's k: a document at rank r in one list earns 1 / (k + r).
    pub rrf_k: f64,
    pub decay: bool,
    /// Days for a memory's weight to halve since it was last seen (PROFILE never decays).
    pub half_life_days: f64,
    pub mmr: bool,
    /// MMR's λ: 1.0 = relevance only, 0.0 = diversity only.
    pub mmr_lambda: f64,
}

impl Default for RankSettings {
    fn default() -> Self {
        Self {
            rrf_k: 60.0,
            decay: true,
            half_life_days: 30.0,
            mmr: true,
            mmr_lambda: 0.7,
        }
    }
}

/// A memory some retriever found, with what ranking needs to know of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub id: i64,
    pub category: Category,
    pub last_seen_ms: i64,
    /// 1-based rank in the BM25 list, and FTS5's score there (lower is better).
    pub bm25_rank: Option<usize>,
    pub bm25: Option<f64>,
    /// 1-based rank in the vector list.
    pub vector_rank: Option<usize>,
    /// Cosine similarity to the query, when both have an embedding (whether or not it made
    /// the vector list).
    pub cosine: Option<f64>,
    /// Share of the query's keywords the memory holds (`keywords::coverage`).
    pub coverage: f64,
}

/// Each stage's contribution to one result, for `mneme memory search` to show.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stages {
    pub bm25_rank: Option<usize>,
    pub bm25: Option<f64>,
    pub vector_rank: Option<usize>,
    pub cosine: Option<f64>,
    /// Σ 1 / (k + rank) over the lists the memory is in.
    pub rrf: f64,
    /// The temporal decay factor applied (1.0 when off, or for PROFILE).
    pub decay: f64,
    /// rrf × decay: what MMR trades against diversity.
    pub relevance: f64,
    /// 1-based position after MMR (the final order).
    pub position: usize,
}

impl Stages {
    /// The stages as JSON (rounded for reading), for `mneme memory search --json` and the
    /// web console.
    pub fn to_json(&self) -> serde_json::Value {
        let round = |x: f64, places: i32| {
            let f = 10f64.powi(places);
            (x * f).round() / f
        };
        serde_json::json!({
            "bm25_rank": self.bm25_rank,
            "bm25": self.bm25.map(|b| round(b, 4)),
            "vector_rank": self.vector_rank,
            "cosine": self.cosine.map(|c| round(c, 4)),
            "rrf": round(self.rrf, 6),
            "decay": round(self.decay, 4),
            "relevance": round(self.relevance, 6),
            "position": self.position,
        })
    }
}

/// One ranked memory.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ranked {
    pub id: i64,
    pub stages: Stages,
    /// How well it matches, in [0, 1], comparable across queries (unlike RRF, which only
    /// orders): semantic similarity combined with keyword coverage (see [`match_score`]),
    /// times the decay.
    pub score: f64,
}

/// RRF contribution of a 1-based `rank` in one list.
pub fn rrf(rank: usize, k: f64) -> f64 {
    1.0 / (k + rank as f64)
}

/// The weight left after `age_days` with a half-life of `half_life_days`.
pub fn decay_factor(age_days: f64, half_life_days: f64) -> f64 {
    if half_life_days <= 0.0 {
        return 1.0;
    }
    0.5f64.powf(age_days.max(0.0) / half_life_days)
}

/// Cosine of two L2-normalised vectors (their dot product), clamped to [-1, 1].
pub fn cosine(a: &[f32], b: &[f32]) -> f64 {
    if a.len() != b.len() {
        return 0.0;
    }
    f64::from(super::vector::dot(a, b)).clamp(-1.0, 1.0)
}

/// Maximal Marginal Relevance: picks up to `limit` of `relevance` (index order = candidate
/// order) one at a time, each maximising λ·rel(d)/max_rel − (1−λ)·max_{s picked} sim(d, s).
/// Returns indexes in pick order. Ties go to the earlier candidate.
pub fn mmr(
    relevance: &[f64],
    similarity: impl Fn(usize, usize) -> f64,
    lambda: f64,
    limit: usize,
) -> Vec<usize> {
    let max_rel = relevance.iter().copied().fold(0.0f64, f64::max);
    let norm = |r: f64| if max_rel > 0.0 { r / max_rel } else { 0.0 };
    let mut picked: Vec<usize> = Vec::with_capacity(limit.min(relevance.len()));
    // For each candidate, its highest similarity to anything picked so far.
    let mut max_sim = vec![f64::NEG_INFINITY; relevance.len()];
    let mut taken = vec![false; relevance.len()];
    while picked.len() < limit.min(relevance.len()) {
        let mut best: Option<(usize, f64)> = None;
        for (i, &rel) in relevance.iter().enumerate() {
            if taken[i] {
                continue;
            }
            let penalty = if picked.is_empty() { 0.0 } else { max_sim[i] };
            let value = lambda * norm(rel) - (1.0 - lambda) * penalty;
            if best.is_none_or(|(_, b)| value > b) {
                best = Some((i, value));
            }
        }
        let Some((chosen, _)) = best else { break };
        taken[chosen] = true;
        picked.push(chosen);
        for (i, slot) in max_sim.iter_mut().enumerate() {
            if !taken[i] {
                *slot = slot.max(similarity(i, chosen));
            }
        }
    }
    picked
}

/// Ranks candidates: RRF over the lists they are in, times decay, then MMR (with
/// `similarity(a, b)` between two candidates' ids), keeping `limit`. Candidates with
/// neither rank are dropped. `now_ms` is the clock decay reads.
pub fn rank(
    candidates: &[Candidate],
    settings: &RankSettings,
    now_ms: i64,
    limit: usize,
    similarity: impl Fn(i64, i64) -> f64,
) -> Vec<Ranked> {
    let mut scored: Vec<(&Candidate, Stages)> = candidates
        .iter()
        .filter(|c| c.bm25_rank.is_some() || c.vector_rank.is_some())
        .map(|c| {
            let rrf = [c.bm25_rank, c.vector_rank]
                .into_iter()
                .flatten()
                .map(|r| rrf(r, settings.rrf_k))
                .sum::<f64>();
            let decay = if settings.decay && c.category != Category::Profile {
                let age_days = (now_ms - c.last_seen_ms).max(0) as f64 / DAY_MS;
                decay_factor(age_days, settings.half_life_days)
            } else {
                1.0
            };
            let stages = Stages {
                bm25_rank: c.bm25_rank,
                bm25: c.bm25,
                vector_rank: c.vector_rank,
                cosine: c.cosine,
                rrf,
                decay,
                relevance: rrf * decay,
                position: 0,
            };
            (c, stages)
        })
        .collect();
    // By relevance, then the smaller id for a stable order.
    scored.sort_by(|a, b| {
        b.1.relevance
            .total_cmp(&a.1.relevance)
            .then(a.0.id.cmp(&b.0.id))
    });

    let order: Vec<usize> = if settings.mmr {
        let relevance: Vec<f64> = scored.iter().map(|(_, s)| s.relevance).collect();
        mmr(
            &relevance,
            |i, j| similarity(scored[i].0.id, scored[j].0.id),
            settings.mmr_lambda,
            limit,
        )
    } else {
        (0..scored.len().min(limit)).collect()
    };
    order
        .into_iter()
        .enumerate()
        .map(|(pos, i)| {
            let (c, mut stages) = scored[i];
            stages.position = pos + 1;
            Ranked {
                id: c.id,
                stages,
                score: match_score(c.cosine, c.coverage) * stages.decay,
            }
        })
        .collect()
}

/// How well a memory matches, in [0, 1]. With embeddings, either signal can carry a match on
/// its own and both together count for more: 1 − (1 − cosine)(1 − coverage / 2), so a
/// paraphrase sharing no word scores its cosine, every keyword without similar meaning scores
/// 0.5, and negative similarity counts as none. Without embeddings, the keyword coverage.
pub fn match_score(cosine: Option<f64>, coverage: f64) -> f64 {
    let coverage = coverage.clamp(0.0, 1.0);
    match cosine {
        Some(c) => 1.0 - (1.0 - c.clamp(0.0, 1.0)) * (1.0 - coverage / 2.0),
        None => coverage,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_800_000_000_000;

    fn cand(id: i64, bm25_rank: Option<usize>, vector_rank: Option<usize>) -> Candidate {
        Candidate {
            id,
            category: Category::Knowledge,
            last_seen_ms: NOW,
            bm25_rank,
            bm25: bm25_rank.map(|r| -1.0 / r as f64),
            vector_rank,
            cosine: vector_rank.map(|r| 1.0 - r as f64 / 10.0),
            coverage: 0.5,
        }
    }

    fn no_mmr() -> RankSettings {
        RankSettings {
            mmr: false,
            ..RankSettings::default()
        }
    }

    #[test]
    fn rrf_by_hand() {
        // k = 60: rank 1 earns 1/61, rank 3 earns 1/63.
        assert!((rrf(1, 60.0) - 1.0 / 61.0).abs() < 1e-12);
        let ranked = rank(
            &[
                cand(1, Some(1), Some(3)),
                cand(2, Some(2), None),
                cand(3, None, Some(1)),
            ],
            &no_mmr(),
            NOW,
            10,
            |_, _| 0.0,
        );
        let rrf_of = |id| ranked.iter().find(|r| r.id == id).unwrap().stages.rrf;
        assert!((rrf_of(1) - (1.0 / 61.0 + 1.0 / 63.0)).abs() < 1e-12);
        assert!((rrf_of(2) - 1.0 / 62.0).abs() < 1e-12);
        assert!((rrf_of(3) - 1.0 / 61.0).abs() < 1e-12);
        // in both lists beats first in one; first in one beats second in one
        assert_eq!(ranked.iter().map(|r| r.id).collect::<Vec<_>>(), [1, 3, 2]);
        assert_eq!(ranked[0].stages.position, 1);
    }

    #[test]
    fn candidates_in_no_list_are_dropped() {
        let ranked = rank(&[cand(1, None, None)], &no_mmr(), NOW, 10, |_, _| 0.0);
        assert!(ranked.is_empty());
    }

    #[test]
    fn decay_by_hand_and_profile_is_evergreen() {
        assert!((decay_factor(30.0, 30.0) - 0.5).abs() < 1e-12);
        assert!((decay_factor(60.0, 30.0) - 0.25).abs() < 1e-12);
        assert_eq!(decay_factor(10.0, 0.0), 1.0);
        assert_eq!(decay_factor(-5.0, 30.0), 1.0);

        let month = 30 * 86_400_000;
        let mut old = cand(1, Some(1), None);
        old.last_seen_ms = NOW - month;
        let mut old_profile = cand(2, Some(2), None);
        old_profile.last_seen_ms = NOW - 10 * month;
        old_profile.category = Category::Profile;
        let fresh = cand(3, Some(3), None);
        let ranked = rank(&[old, old_profile, fresh], &no_mmr(), NOW, 10, |_, _| 0.0);
        let by_id = |id| ranked.iter().find(|r| r.id == id).unwrap();
        assert!((by_id(1).stages.decay - 0.5).abs() < 1e-9);
        assert_eq!(by_id(2).stages.decay, 1.0);
        // 1/61 × 0.5 < 1/63 < 1/62: the month-old first hit falls behind both others
        assert_eq!(ranked.iter().map(|r| r.id).collect::<Vec<_>>(), [2, 3, 1]);
        // the score decays too: coverage 0.5 (no embedding) × decay 0.5
        assert!((by_id(1).score - 0.25).abs() < 1e-9);

        let off = RankSettings {
            decay: false,
            ..no_mmr()
        };
        let ranked = rank(&[cand(1, Some(1), None)], &off, NOW + month, 10, |_, _| 0.0);
        assert_eq!(ranked[0].stages.decay, 1.0);
    }

    #[test]
    fn mmr_by_hand() {
        // relevance 1.0, 0.9, 0.5; the first two are near-identical (sim 0.95), the third
        // unlike either (sim 0.1). λ = 0.7:
        //   pick 1: a (0.7·1.0)
        //   b: 0.7·0.9 − 0.3·0.95 = 0.345;  c: 0.7·0.5 − 0.3·0.1 = 0.32  → b
        // With λ = 0.5:
        //   b: 0.45 − 0.475 = −0.025;  c: 0.25 − 0.05 = 0.2  → c
        let rel = [1.0, 0.9, 0.5];
        let sim = |i: usize, j: usize| {
            if (i.min(j), i.max(j)) == (0, 1) {
                0.95
            } else {
                0.1
            }
        };
        assert_eq!(mmr(&rel, sim, 0.7, 3), [0, 1, 2]);
        assert_eq!(mmr(&rel, sim, 0.5, 3), [0, 2, 1]);
        assert_eq!(mmr(&rel, sim, 1.0, 2), [0, 1]);
        assert_eq!(mmr(&rel, sim, 0.5, 1), [0]);
        assert!(mmr(&[], sim, 0.7, 5).is_empty());
    }

    #[test]
    fn mmr_in_rank_spreads_near_duplicates() {
        // 1 and 2 say the same thing; 3 is less relevant but different.
        let cands = [
            cand(1, Some(1), Some(1)),
            cand(2, Some(2), Some(2)),
            cand(3, Some(3), Some(3)),
        ];
        let sim = |a: i64, b: i64| if a + b == 3 { 1.0 } else { 0.0 };
        let settings = RankSettings {
            mmr_lambda: 0.5,
            ..RankSettings::default()
        };
        let ranked = rank(&cands, &settings, NOW, 3, sim);
        assert_eq!(ranked.iter().map(|r| r.id).collect::<Vec<_>>(), [1, 3, 2]);
        assert_eq!(
            ranked.iter().map(|r| r.stages.position).collect::<Vec<_>>(),
            [1, 2, 3]
        );
        // without MMR, plain relevance order
        let ranked = rank(&cands, &no_mmr(), NOW, 3, sim);
        assert_eq!(ranked.iter().map(|r| r.id).collect::<Vec<_>>(), [1, 2, 3]);
        // the limit applies either way
        assert_eq!(rank(&cands, &settings, NOW, 2, sim).len(), 2);
    }

    #[test]
    fn match_score_combines_similarity_and_coverage() {
        // 1 − (1 − 0.8)(1 − 0.25) = 0.85
        assert!((match_score(Some(0.8), 0.5) - 0.85).abs() < 1e-12);
        // a paraphrase with no shared word keeps its cosine
        assert!((match_score(Some(0.49), 0.0) - 0.49).abs() < 1e-12);
        // every keyword, unrelated meaning: 0.5; negative similarity counts as none
        assert!((match_score(Some(-0.3), 1.0) - 0.5).abs() < 1e-12);
        assert_eq!(match_score(Some(1.0), 0.0), 1.0);
        assert_eq!(match_score(None, 0.5), 0.5);
        assert_eq!(match_score(None, 0.0), 0.0);
    }

    #[test]
    fn cosine_of_unit_vectors() {
        let a = [0.6f32, 0.8];
        assert!((cosine(&a, &a) - 1.0).abs() < 1e-6);
        assert!((cosine(&a, &[0.8, -0.6])).abs() < 1e-6);
        assert_eq!(cosine(&a, &[1.0]), 0.0);
    }
}
