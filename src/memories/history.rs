//! A memory explained: its row, its history (created, reinforced, merged, reworded,
//! superseded, archived) and the messages it came from — for `mneme memory show ID` and the
//! console.

use serde::Serialize;

use super::json::{MemoryJson, rfc3339};
use super::{Actor, Memories, MemoryError};
use crate::store::{MemoryEvent, MessageRow};

/// Most source messages shown.
const MAX_SOURCES: usize = 20;

#[derive(Debug, Serialize)]
pub struct Explained {
    pub memory: MemoryJson,
    pub history: Vec<EventJson>,
    /// The messages the memory came from (those still stored), oldest first.
    pub sources: Vec<SourceJson>,
    /// The memory that replaced this one, if one did.
    pub superseded_by: Option<i64>,
}

#[derive(Debug, Serialize)]
pub struct EventJson {
    pub at: String,
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other_id: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub source_message_ids: Vec<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct SourceJson {
    pub id: i64,
    pub at: String,
    pub sender: String,
    pub text: String,
}

impl EventJson {
    fn from_event(e: MemoryEvent) -> Self {
        Self {
            at: rfc3339(e.at),
            source_message_ids: e.source_message_ids(),
            kind: e.kind,
            other_id: e.other_id,
            content: e.content,
            note: e.note,
        }
    }

    /// One line, as the CLI prints it.
    pub fn line(&self) -> String {
        let mut out = format!("{}  {}", self.at, self.kind);
        match (self.kind.as_str(), self.other_id) {
            ("superseded", Some(id)) => out.push_str(&format!(" by #{id}")),
            ("merged", Some(id)) => out.push_str(&format!(" #{id} into this one")),
            ("merged_into", Some(id)) => out.push_str(&format!(" #{id}")),
            _ => {}
        }
        if let Some(c) = &self.content {
            let label = if self.kind == "reworded" { "was" } else { "as" };
            out.push_str(&format!(" ({label} \"{c}\")"));
        }
        if let Some(n) = &self.note {
            out.push_str(&format!(" — {n}"));
        }
        if !self.source_message_ids.is_empty() {
            let ids: Vec<String> = self
                .source_message_ids
                .iter()
                .map(|i| format!("#{i}"))
                .collect();
            out.push_str(&format!("; messages {}", ids.join(", ")));
        }
        out
    }
}

impl Memories {
    /// Memory `id` with its history and sources, as `actor` may see it.
    pub async fn explain(&self, actor: &Actor, id: i64) -> Result<Explained, MemoryError> {
        let m = self.get(actor, id).await?;
        let store = self.store();
        let history = store
            .memory_history(id)
            .await?
            .into_iter()
            .map(EventJson::from_event)
            .collect();
        let mut sources = Vec::new();
        for mid in m.source_message_ids().into_iter().take(MAX_SOURCES) {
            if let Some(msg) = store.message(mid).await?
                // a source is shown only from the memory's own chat
                && Some(msg.chat_id) == m.chat_id
            {
                sources.push(source(&msg));
            }
        }
        Ok(Explained {
            superseded_by: store.superseded_by(id).await?,
            memory: MemoryJson::from_row(&m, None),
            history,
            sources,
        })
    }
}

fn source(m: &MessageRow) -> SourceJson {
    SourceJson {
        id: m.id,
        at: rfc3339(m.created_at),
        sender: m.sender_name.clone(),
        text: m.text.chars().take(500).collect(),
    }
}
