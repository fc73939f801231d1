//! The consolidation pass: duplicates that slipped through — two wordings of one fact kept
//! apart because the decision was unsure at the time, or written before it existed — are
//! merged later, by the same decision (`same_fact::decide`), recorded in both memories'
//! histories and reversible (the merged memory is archived, never deleted; `mneme memory
//! unarchive ID` brings it back). Each memory is compared once: the pass keeps a mark
//! per scope and looks only at memories above it. Precision-first dedup costs nothing in the
//! long run this way.

use super::Memories;
use super::candidates::{CANDIDATE_JACCARD, same_subject};
use super::same_fact;
use crate::base::MemoryScope;
use crate::memory::identity::{self, Reading};
use crate::memory::text;
use crate::store::MemoryFilter;
use std::collections::HashMap;

/// Most memories one pass compares per scope (the rest wait for the next pass).
const PER_PASS: usize = 5_000;
/// Most memories held read at once in a pass (about a kilobyte each).
const MAX_READ: usize = 20_000;

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
        // Each memory read once in the pass, however often it comes up as a candidate: in a
        // scope of many alike memories (an import) most of them come up for every other.
        // Kept with the text it was read from: a memory reworded meanwhile is read again.
        let mut read: HashMap<i64, (String, Reading)> = HashMap::new();
        for m in &fresh {
            last = m.id;
            let terms = text::term_set(&m.content);
            let candidates = store
                .dedup_candidates(scope, &terms, CANDIDATE_JACCARD)
                .await?;
            let older: Vec<_> = candidates
                .iter()
                .filter(|c| c.id < m.id && same_subject(m.subject.as_deref(), c.subject.as_deref()))
                .collect();
            if read.len() + older.len() > MAX_READ {
                read.clear();
            }
            for c in &older {
                if read.get(&c.id).is_none_or(|(text, _)| *text != c.content) {
                    read.insert(c.id, (c.content.clone(), Reading::new(&c.content)));
                }
            }
            let reading = Reading::new(&m.content);
            let same = same_fact::decide_read(
                &m.content,
                &reading,
                older
                    .iter()
                    .map(|c| (c.id, c.content.as_str(), &read[&c.id].1, None)),
            );
            // the judging is the pass's CPU: let the daemon's other tasks run between memories
            tokio::task::yield_now().await;
            let Some(same) = same else {
                read.insert(m.id, (m.content.clone(), reading));
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
