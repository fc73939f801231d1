//! The stable JSON shape of one memory: `mneme memory list|search --json`, export and
//! import, and the console's API.

use serde::{Deserialize, Serialize};

use crate::base::{Category, MemoryRow, Source};

/// The stable JSON shape of one memory.
#[derive(Debug, Serialize, Deserialize)]
pub struct MemoryJson {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    /// `CHANNEL:ID` or `global`
    pub chat: String,
    pub category: Category,
    pub content: String,
    #[serde(default = "default_confidence")]
    pub confidence: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_seen_at: Option<String>,
    #[serde(default)]
    pub archived: bool,
    /// The name the model gave it with `memory_store{key}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    #[serde(default = "default_source")]
    pub source: Source,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub source_message_ids: Vec<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supersedes_id: Option<i64>,
}

fn default_confidence() -> f64 {
    0.8
}
fn default_source() -> Source {
    Source::Explicit
}

pub fn rfc3339(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
        .unwrap_or_default()
}

impl MemoryJson {
    pub fn from_row(m: &MemoryRow, score: Option<f64>) -> Self {
        Self {
            id: Some(m.id),
            chat: m.chat_name(),
            category: m.category,
            content: m.content.clone(),
            confidence: (m.confidence * 1000.0).round() / 1000.0,
            last_seen_at: Some(rfc3339(m.last_seen_at)),
            archived: m.archived,
            key: m.key.clone(),
            source: m.source,
            score: score.map(|s| (s * 1000.0).round() / 1000.0),
            created_at: Some(rfc3339(m.created_at)),
            subject: m.subject.clone(),
            source_message_ids: m.source_message_ids(),
            supersedes_id: m.supersedes_id,
        }
    }
}
