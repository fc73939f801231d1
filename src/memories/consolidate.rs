//! The consolidation pass: what the write path let through, found later by the same decisions,
//! recorded in the memories' histories and reversible (a memory is archived, never deleted;
//! `mneme memory unarchive ID` brings it back):
//! - **duplicates**: two wordings of one fact kept apart because the decision was unsure at
//!   the time, or written before it existed, are merged (`same_fact::decide`): the older
//!   survives, in the more specific wording;
//! - **a fact and the one that replaced it**: a denial or a newer value (`same_fact::replaced`)
//!   stored beside the fact it replaces, both active, because they were stored before the
//!   rule that reads them existed: the one said earlier is superseded by the one said later,
//!   as it would have been had the later one been said today.
//!
//! Each memory is compared once per version of the rules: the pass keeps a mark per scope
//! with the rules it was set under ([`RULES`]) and looks only at memories above it. A build
//! whose rules differ starts again from the first memory, so an upgrade's better reading
//! reaches the facts stored before it.

use super::Memories;
use super::candidates::{self, ScopeOf};
use super::same_fact;
use crate::base::MemoryScope;
use crate::memory::identity::memo::Memo;
use crate::memory::identity::{self, Reading};
use crate::store::{MemoryFilter, SimilarMemory};
use std::collections::{HashMap, HashSet};

/// A fingerprint of the code that decides whether two memories state one fact or one
/// replaces the other (`build.rs` hashes it): a consolidation mark set under other rules
/// counts for nothing.
pub const RULES: &str = env!("MNEME_RULES");

/// Most memories one pass compares per scope (the rest wait for the next pass).
const PER_PASS: usize = 5_000;
/// Most memories held read at once in a pass (about a kilobyte each).
const MAX_READ: usize = 20_000;

/// What a pass did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Consolidated {
    /// Duplicates merged into the memory that states the same fact.
    pub merged: usize,
    /// Memories superseded by a newer fact stored beside them: a denial, a newer value.
    pub replaced: usize,
}

impl std::ops::AddAssign for Consolidated {
    fn add_assign(&mut self, other: Self) {
        self.merged += other.merged;
        self.replaced += other.replaced;
    }
}

/// Whether `a` was said before `b`: seen last earlier, or at once and stored first.
fn said_before(a: &SimilarMemory, b: (i64, i64)) -> bool {
    (a.last_seen_at, a.id) < b
}

impl Memories {
    /// One pass over `scope`: each memory above the mark is compared with the scope's other
    /// active memories. It is merged into an older one that states the same fact, and those
    /// said before it that it replaces are superseded (by it, or by the memory it is merged
    /// into).
    pub async fn consolidate(&self, scope: MemoryScope) -> sqlx::Result<Consolidated> {
        let store = self.store();
        let mark = store.consolidated_up_to(scope, RULES).await?;
        let rows = store
            .list_memories(&MemoryFilter {
                scope: Some(scope),
                ..MemoryFilter::default()
            })
            .await?;
        let mut fresh: Vec<_> = rows.into_iter().filter(|m| m.id > mark).collect();
        fresh.sort_by_key(|m| m.id);
        fresh.truncate(PER_PASS);
        let mut done = Consolidated::default();
        let mut last = mark;
        // archived by this pass: neither compared nor a candidate any more
        let mut gone: HashSet<i64> = HashSet::new();
        // Each memory read once in the pass, however often it comes up as a candidate: in a
        // scope of many alike memories (an import) most of them come up for every other.
        // Kept with the text it was read from: a memory reworded meanwhile is read again.
        let mut read: HashMap<i64, (String, Reading)> = HashMap::new();
        // and the readings the decisions take of each text (lexed, stemmed), kept likewise
        let mut memo = Memo::default();
        let mut lookup = ScopeOf { store, scope };
        for m in &fresh {
            last = m.id;
            if gone.contains(&m.id) {
                continue;
            }
            // the candidates the write path gathers for a fact of these words
            let found =
                candidates::gather_rows(&mut lookup, &[&m.content], [], m.subject.as_deref())
                    .await?;
            let others: Vec<&SimilarMemory> = found
                .all()
                .filter(|c| c.id != m.id && !gone.contains(&c.id))
                .collect();
            if read.len() + others.len() > MAX_READ {
                read.clear();
            }
            // read inside the memo: the decisions lex the same texts again
            let reading = memo.within(|| {
                for c in &others {
                    if read.get(&c.id).is_none_or(|(text, _)| *text != c.content) {
                        read.insert(c.id, (c.content.clone(), Reading::new(&c.content)));
                    }
                }
                Reading::new(&m.content)
            });
            let (same, replaced) = memo.within(|| {
                let same = same_fact::decide_read(
                    &m.content,
                    &reading,
                    found
                        .similar
                        .iter()
                        .map(|(c, _)| c)
                        .filter(|c| c.id < m.id)
                        .filter(|c| !gone.contains(&c.id))
                        .map(|c| (c.id, c.content.as_str(), &read[&c.id].1, None)),
                );
                // What it replaces: the write path's question, had it been said last. A
                // duplicate replaces through the memory it is merged into, as a fact said again
                // does.
                let now = (m.last_seen_at, m.id);
                let replaced = same_fact::replaced(
                    &reading,
                    others
                        .iter()
                        .filter(|c| {
                            said_before(c, now) && Some(c.id) != same.as_ref().map(|s| s.id)
                        })
                        .map(|c| (c.id, c.content.as_str(), &read[&c.id].1)),
                );
                (same, replaced)
            });
            if !replaced.is_empty() {
                let by = same.as_ref().map_or(m.id, |s| s.id);
                let notes: Vec<(i64, String)> = replaced
                    .iter()
                    .map(|r| (r.id, format!("consolidated: {}", r.why)))
                    .collect();
                done.replaced += store.supersede_memories(by, scope, &notes).await?;
                gone.extend(replaced.iter().map(|r| r.id));
            }
            // the judging is the pass's CPU: let the daemon's other tasks run between memories
            tokio::task::yield_now().await;
            let Some(same) = same else {
                read.insert(m.id, (m.content.clone(), reading));
                continue;
            };
            let wording = identity::more_specific(&m.content, &same.stored);
            let note = format!("consolidated: {}", same.reason);
            if store.merge_memories(same.id, m.id, wording, &note).await? {
                done.merged += 1;
                gone.insert(m.id);
            }
        }
        if last > mark {
            store.set_consolidated_up_to(scope, last, RULES).await?;
        }
        if done != Consolidated::default() {
            self.retriever().memory_written();
        }
        Ok(done)
    }

    /// One pass over every scope that has memories.
    pub async fn consolidate_all(&self) -> sqlx::Result<Consolidated> {
        let mut done = Consolidated::default();
        for scope in self.store().memory_scopes().await? {
            done += self.consolidate(scope).await?;
        }
        Ok(done)
    }
}
