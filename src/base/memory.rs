//! Memories as every layer names them: their category, how they came to be, where they apply,
//! and a stored row.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use sqlx::FromRow;

use super::ChatKey;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Category {
    Profile,
    Knowledge,
    Event,
}

impl Category {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Profile => "PROFILE",
            Self::Knowledge => "KNOWLEDGE",
            Self::Event => "EVENT",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Category {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s.trim().to_ascii_uppercase().as_str() {
            "PROFILE" => Ok(Self::Profile),
            "KNOWLEDGE" => Ok(Self::Knowledge),
            "EVENT" => Ok(Self::Event),
            _ => Err(format!(
                "`{s}` is not a category: use PROFILE, KNOWLEDGE or EVENT"
            )),
        }
    }
}

/// How a memory came to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The user said "remember …".
    Explicit,
    /// The model stored it through a tool.
    Tool,
    /// The background reflector extracted it.
    Reflector,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Explicit => "explicit",
            Self::Tool => "tool",
            Self::Reflector => "reflector",
        }
    }
}

impl FromStr for Source {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "explicit" => Ok(Self::Explicit),
            "tool" => Ok(Self::Tool),
            "reflector" => Ok(Self::Reflector),
            _ => Err(format!("`{s}` is not a memory source")),
        }
    }
}

/// A text column holding one of an enum's names (`as_str` / `FromStr`), on any backend.
macro_rules! text_column {
    ($t:ty) => {
        impl<DB: sqlx::Database> sqlx::Type<DB> for $t
        where
            str: sqlx::Type<DB>,
        {
            fn type_info() -> DB::TypeInfo {
                <str as sqlx::Type<DB>>::type_info()
            }
            fn compatible(ty: &DB::TypeInfo) -> bool {
                <str as sqlx::Type<DB>>::compatible(ty)
            }
        }

        impl<'q, DB: sqlx::Database> sqlx::Encode<'q, DB> for $t
        where
            &'q str: sqlx::Encode<'q, DB>,
        {
            fn encode_by_ref(
                &self,
                buf: &mut <DB as sqlx::Database>::ArgumentBuffer<'q>,
            ) -> std::result::Result<sqlx::encode::IsNull, sqlx::error::BoxDynError> {
                <&'q str as sqlx::Encode<'q, DB>>::encode(self.as_str(), buf)
            }
        }

        impl<'r, DB: sqlx::Database> sqlx::Decode<'r, DB> for $t
        where
            &'r str: sqlx::Decode<'r, DB>,
        {
            fn decode(
                value: <DB as sqlx::Database>::ValueRef<'r>,
            ) -> std::result::Result<Self, sqlx::error::BoxDynError> {
                Ok(<&'r str as sqlx::Decode<'r, DB>>::decode(value)?.parse::<$t>()?)
            }
        }
    };
}

text_column!(Category);
text_column!(Source);

/// Where a memory applies: one chat, or every chat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MemoryScope {
    Global,
    Chat(i64),
}

impl MemoryScope {
    pub fn chat_id(self) -> Option<i64> {
        match self {
            Self::Global => None,
            Self::Chat(id) => Some(id),
        }
    }
}

#[derive(Debug, Clone, FromRow)]
pub struct MemoryRow {
    pub id: i64,
    pub chat_id: Option<i64>,
    pub category: Category,
    pub content: String,
    pub subject: Option<String>,
    pub confidence: f64,
    pub source: Source,
    pub source_message_ids: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub last_seen_at: i64,
    pub archived: bool,
    pub archived_at: Option<i64>,
    pub supersedes_id: Option<i64>,
    /// The name the model gave it (`memory_store{key}`), if any.
    pub key: Option<String>,
    /// Joined from `chats`; `None` for global memories.
    pub channel: Option<String>,
    pub external_chat_id: Option<String>,
}

impl MemoryRow {
    pub fn scope(&self) -> MemoryScope {
        self.chat_id.map_or(MemoryScope::Global, MemoryScope::Chat)
    }
    /// `global`, or the chat's `CHANNEL:ID`.
    pub fn chat_name(&self) -> String {
        match (&self.channel, &self.external_chat_id) {
            (Some(c), Some(id)) => ChatKey::new(c, id).to_string(),
            _ => "global".to_string(),
        }
    }
    pub fn source_message_ids(&self) -> Vec<i64> {
        serde_json::from_str(&self.source_message_ids).unwrap_or_default()
    }
}
