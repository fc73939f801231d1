//! The events of a memory's history that only the writer knows — reinforced and merged —
//! written inside the writer's transaction (the triggers of migration 0006 record the rest).

use super::db::{Conn, on_conn};

use super::{Result, json_list};

/// What the writer records beside the triggers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    /// The same fact came up again (its wording, its sources).
    Reinforced,
    /// Another memory was folded into this one.
    Merged,
    /// This memory was folded into another (and archived).
    MergedInto,
    /// This memory was replaced by another (and archived): the trigger of migration 0006
    /// records the one a new memory links back to, the writer any other.
    Superseded,
}

impl EventKind {
    fn as_str(self) -> &'static str {
        match self {
            Self::Reinforced => "reinforced",
            Self::Merged => "merged",
            Self::MergedInto => "merged_into",
            Self::Superseded => "superseded",
        }
    }
}

/// An event the writer records.
#[derive(Debug, Clone, Copy)]
pub struct NewEvent<'a> {
    pub kind: EventKind,
    pub at: i64,
    pub other_id: Option<i64>,
    pub content: Option<&'a str>,
    pub source_ids: &'a [i64],
    pub note: Option<&'a str>,
}

/// Records an event of memory `id`; for callers holding a transaction.
pub(super) async fn record(conn: &mut Conn<'_>, id: i64, e: NewEvent<'_>) -> Result<()> {
    on_conn!(conn.re(), c => sqlx::query(
        "INSERT INTO memory_events (memory_id, at, kind, other_id, content, source_message_ids, note)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(id)
    .bind(e.at)
    .bind(e.kind.as_str())
    .bind(e.other_id)
    .bind(super::text_opt(e.content))
    .bind(json_list(e.source_ids))
    .bind(super::text_opt(e.note))
    .execute(c)
    .await
    .map(|_| ()))
}
