//! Memory lifecycle: confidence that fades unless a fact is seen again, and soft-archiving
//! of what has faded or does not fit the caps.
//!
//! The stored `confidence` is the confidence as of `last_seen_at`; what it is worth now is
//! `confidence × 0.5^(age / half-life)`, PROFILE facts with a longer half-life. Computing it
//! instead of rewriting every row each pass keeps a pass's writes proportional to what
//! changed, and makes the rule a pure function of (row, now) that tests can drive with any
//! clock. Only chat-scoped memories are touched: global memory belongs to the control chats.

use crate::base::Category;
use crate::config::Config;
use crate::store::{LifeRow, Store};

const DAY_MS: f64 = 86_400_000.0;
/// Confidence of a fact the reflector extracted once.
pub const INITIAL_CONFIDENCE: f64 = 0.7;
/// Added when a fact is seen again…
pub const REINFORCE_STEP: f64 = 0.1;
/// …up to this; certainty is for what the user asked to remember in so many words.
pub const CONFIDENCE_CAP: f64 = 0.95;

#[derive(Debug, Clone, PartialEq)]
pub struct Policy {
    pub half_life_days: f64,
    pub profile_half_life_days: f64,
    pub archive_below: f64,
    pub archive_after_ms: i64,
    /// 0 = no cap.
    pub max_per_chat: i64,
    /// 0 = no cap.
    pub max_total: i64,
}

impl Policy {
    pub fn from_config(c: &Config) -> Self {
        Self {
            half_life_days: f64::from(c.memory_half_life_days.max(1)),
            profile_half_life_days: f64::from(c.memory_profile_half_life_days.max(1)),
            archive_below: c.memory_archive_below_confidence,
            archive_after_ms: i64::from(c.memory_archive_after_days) * DAY_MS as i64,
            max_per_chat: i64::from(c.memory_max_per_chat),
            max_total: i64::from(c.memory_max_total),
        }
    }

    /// What a confidence recorded at `last_seen` is worth at `now`.
    pub fn effective(&self, category: Category, confidence: f64, last_seen: i64, now: i64) -> f64 {
        let half_life = match category {
            Category::Profile => self.profile_half_life_days,
            Category::Knowledge | Category::Event => self.half_life_days,
        };
        let age_days = (now.saturating_sub(last_seen)).max(0) as f64 / DAY_MS;
        confidence.clamp(0.0, 1.0) * 0.5f64.powf(age_days / half_life)
    }

    /// The confidence of a fact seen again at `now`: what it was worth, one step up, capped
    /// (never lowered: a fact stored with more certainty keeps it).
    pub fn reinforced(&self, category: Category, confidence: f64, last_seen: i64, now: i64) -> f64 {
        let worth = self.effective(category, confidence, last_seen, now);
        (worth + REINFORCE_STEP).min(CONFIDENCE_CAP).max(worth)
    }

    /// Faded below the threshold and not seen for longer than the archive age.
    pub fn is_stale(&self, row: &LifeRow, now: i64) -> bool {
        now.saturating_sub(row.last_seen_at) > self.archive_after_ms
            && self.effective(row.category, row.confidence, row.last_seen_at, now)
                < self.archive_below
    }

    /// Rows last seen at or after this cannot be stale yet: older than the archive age, and
    /// (confidence being at most 1) old enough to have faded below the threshold even from
    /// certainty at the faster half-life. `None` when nothing can ever fade below it (0).
    /// Lets the sweep read only the rows that may qualify instead of every old one.
    pub fn stale_cutoff(&self, now: i64) -> Option<i64> {
        if self.archive_below <= 0.0 {
            return None;
        }
        let fastest = self.half_life_days.min(self.profile_half_life_days);
        let fade_days = (fastest * (1.0 / self.archive_below).log2()).max(0.0);
        let age = self.archive_after_ms.max((fade_days * DAY_MS) as i64);
        Some(now.saturating_sub(age))
    }

    /// The `excess` weakest rows: lowest confidence now, then least recently seen, then oldest.
    pub fn weakest(&self, rows: &[LifeRow], excess: usize, now: i64) -> Vec<i64> {
        let mut ranked: Vec<(f64, &LifeRow)> = rows
            .iter()
            .map(|r| {
                (
                    self.effective(r.category, r.confidence, r.last_seen_at, now),
                    r,
                )
            })
            .collect();
        ranked.sort_by(|a, b| {
            a.0.total_cmp(&b.0)
                .then(a.1.last_seen_at.cmp(&b.1.last_seen_at))
                .then(a.1.id.cmp(&b.1.id))
        });
        ranked.iter().take(excess).map(|(_, r)| r.id).collect()
    }
}

/// What one lifecycle sweep archived.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LifecycleReport {
    /// Faded and not seen for long.
    pub stale: u64,
    /// Over a chat's cap or the total cap.
    pub over_cap: u64,
}

/// Archives stale memories, then the weakest of every chat over `max_per_chat`, then the
/// weakest overall beyond `max_total`.
pub async fn sweep(store: &Store, policy: &Policy, now: i64) -> sqlx::Result<LifecycleReport> {
    let mut report = LifecycleReport::default();
    if let Some(cutoff) = policy.stale_cutoff(now) {
        let stale: Vec<i64> = store
            .stale_memories(cutoff)
            .await?
            .iter()
            .filter(|r| policy.is_stale(r, now))
            .map(|r| r.id)
            .collect();
        report.stale = store.archive_memories(&stale, now).await?;
    }

    if policy.max_per_chat > 0 {
        for (chat_id, count) in store.chats_over_memory_cap(policy.max_per_chat).await? {
            let rows = store.life_rows(Some(chat_id)).await?;
            let excess = usize::try_from(count - policy.max_per_chat).unwrap_or(0);
            let ids = policy.weakest(&rows, excess, now);
            report.over_cap += store.archive_memories(&ids, now).await?;
        }
    }
    if policy.max_total > 0 {
        let total = store.count_active_chat_memories().await?;
        if total > policy.max_total {
            let rows = store.life_rows(None).await?;
            let excess = usize::try_from(total - policy.max_total).unwrap_or(0);
            let ids = policy.weakest(&rows, excess, now);
            report.over_cap += store.archive_memories(&ids, now).await?;
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_800_000_000_000;
    const DAY: i64 = 86_400_000;

    fn policy() -> Policy {
        Policy {
            half_life_days: 90.0,
            profile_half_life_days: 365.0,
            archive_below: 0.3,
            archive_after_ms: 30 * DAY,
            max_per_chat: 0,
            max_total: 0,
        }
    }

    fn row(id: i64, category: Category, confidence: f64, days_ago: i64) -> LifeRow {
        LifeRow {
            id,
            chat_id: 1,
            category,
            confidence,
            last_seen_at: NOW - days_ago * DAY,
        }
    }

    #[test]
    fn confidence_halves_per_half_life_and_profile_fades_slower() {
        let p = policy();
        let k = p.effective(Category::Knowledge, 0.8, NOW - 90 * DAY, NOW);
        assert!((k - 0.4).abs() < 1e-9, "{k}");
        let pr = p.effective(Category::Profile, 0.8, NOW - 90 * DAY, NOW);
        assert!(pr > 0.6, "{pr}");
        // a clock that went backwards does not raise confidence
        assert_eq!(p.effective(Category::Event, 0.5, NOW + DAY, NOW), 0.5);
    }

    #[test]
    fn reinforcement_steps_up_from_the_faded_value_and_caps() {
        let p = policy();
        let r = p.reinforced(Category::Knowledge, 0.8, NOW - 90 * DAY, NOW);
        assert!((r - 0.5).abs() < 1e-9, "{r}");
        assert_eq!(
            p.reinforced(Category::Profile, 0.9, NOW, NOW),
            CONFIDENCE_CAP
        );
        assert_eq!(p.reinforced(Category::Profile, 1.0, NOW, NOW), 1.0);
    }

    #[test]
    fn stale_needs_both_low_confidence_and_age() {
        let p = policy();
        assert!(p.is_stale(&row(1, Category::Knowledge, 0.7, 200), NOW));
        // old but still confident: PROFILE fades slowly
        assert!(!p.is_stale(&row(2, Category::Profile, 0.7, 200), NOW));
        // unsure but recent
        assert!(!p.is_stale(&row(3, Category::Event, 0.2, 10), NOW));
    }

    #[test]
    fn the_stale_cutoff_never_hides_a_stale_row() {
        let p = policy();
        let cutoff = p.stale_cutoff(NOW).unwrap();
        // 0.7^… from certainty: 90 × log2(1/0.3) ≈ 156 days
        assert_eq!((NOW - cutoff) / DAY, 156);
        for days in (0..2_000).step_by(3) {
            for category in [Category::Profile, Category::Knowledge] {
                let r = row(1, category, 1.0, days);
                if p.is_stale(&r, NOW) {
                    assert!(r.last_seen_at < cutoff, "{days} days, {category}");
                }
            }
        }
        let never = Policy {
            archive_below: 0.0,
            ..policy()
        };
        assert_eq!(never.stale_cutoff(NOW), None);
    }

    #[test]
    fn weakest_first() {
        let p = policy();
        let rows = [
            row(1, Category::Profile, 0.9, 0),
            row(2, Category::Knowledge, 0.9, 300),
            row(3, Category::Event, 0.5, 0),
            row(4, Category::Event, 0.5, 1),
        ];
        assert_eq!(p.weakest(&rows, 2, NOW), vec![2, 4]);
        assert_eq!(p.weakest(&rows, 0, NOW), Vec::<i64>::new());
        assert_eq!(p.weakest(&rows, 9, NOW).len(), 4);
    }
}
