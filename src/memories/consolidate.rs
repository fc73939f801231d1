//! The consolidation pass: duplicates that slipped through — two wordings of one fact kept
//! apart because the decision was unsure at the time, or written before it existed — are
//! merged later, by the same decision (`same_fact::decide`), recorded in both memories'
//! histories and reversible (the merged memory is archived, never deleted; `mneme memory
//! unarchive ID` brings it back). Each memory is compared once: the pass keeps a mark
//! per scope and looks only at memories above it. Precision-first dedup costs nothing in the
//! long run this way.

use super::Memories;
use super::same_fact::{self, CANDIDATE_JACCARD};
use crate::base::MemoryScope;
use crate::memory::{identity, text};
use crate::store::MemoryFilter;

/// Most memories one pass compares per scope (the rest wait for the next pass).
const PER_PASS: usize = 5_000;

impl Memories {
    /// One pass over `scope`: each memory newer than the mark is compared with the scope's
    /// other active memories and merged into the one that states the same fact (the older
    /// survives, in the more specific wording). Returns how many were merged.
    pub async fn consolidate(&self, scope: MemoryScope) -> sqlx::Result<usize> {
        let store = self.store();
        let mark = store.consolidated_up_to(scope).await?;
        let rows = store
            .list_memories(&MemoryFilter {
                scope: Some(scope),
                ..MemoryFilter::default()
            })
            .await?;
        let mut fresh: Vec<_> = rows.into_iter().filter(|m| m.id > mark).collect();
        fresh.sort_by_key(|m| m.id);
        fresh.truncate(PER_PASS);
        let mut merged = 0;
        let mut last = mark;
        for m in &fresh {
            last = m.id;
            let terms = text::term_set(&m.content);
            let candidates = store
                .dedup_candidates(scope, &terms, CANDIDATE_JACCARD)
                .await?;
            let older = candidates
                .iter()
                .filter(|c| c.id < m.id)
                .map(|c| (c.id, c.content.as_str(), None));
            let Some(same) = same_fact::decide(&m.content, older) else {
                continue;
            };
            let wording = identity::more_specific(&m.content, &same.stored);
            let note = format!("consolidated: {}", same.reason);
            if store.merge_memories(same.id, m.id, wording, &note).await? {
                merged += 1;
            }
        }
        if last > mark {
            store.set_consolidated_up_to(scope, last).await?;
        }
        if merged > 0 {
            self.retriever().memory_written();
        }
        Ok(merged)
    }

    /// One pass over every scope that has memories; how many were merged.
    pub async fn consolidate_all(&self) -> sqlx::Result<usize> {
        let mut merged = 0;
        for scope in self.store().memory_scopes().await? {
            merged += self.consolidate(scope).await?;
        }
        Ok(merged)
    }
}
