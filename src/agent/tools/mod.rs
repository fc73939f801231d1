//! The tools every model has. File memory: `read_memory` / `write_memory` over the AGENTS.md
//! files (`files.rs`). Structured memory, scoped to the calling chat plus global:
//! `memory_store` / `memory_recall` / `memory_list` / `memory_forget` (`memory.rs`) and
//! `memory_search` / `memory_get` with citations over memories and this chat's past messages
//! (`search.rs`).
//!
//! The model's arguments are hostile input: every tool checks them and answers a clear
//! `error: …` text the model can act on, never a panic, and never anything of another chat.

mod files;
mod memory;
mod search;

use std::sync::LazyLock;

use serde_json::{Map, Value, json};

use crate::base::ChatKey;
use crate::llm::{ToolCall, ToolSet};
use crate::memories::{Actor, Memories};
use crate::memory::files::MemoryFiles;

/// Who is calling and from where: decides what a tool may see and touch.
pub struct ToolContext<'a> {
    pub chat: &'a ChatKey,
    /// The chat's row id (`chats.id`).
    pub chat_id: i64,
    /// The message being answered: the source of what the model stores, and where the
    /// conversation search stops (it would only find the question itself).
    pub message_id: i64,
    /// Only control chats may write global memory.
    pub is_control: bool,
    /// In a group, what is stored reaches every member's answers.
    pub is_group: bool,
    /// Who sent the message answered: a first-person fact the model stores in a group is
    /// theirs (`Memories::remember`).
    pub sender: &'a crate::memories::Speaker,
    pub files: &'a MemoryFiles,
    pub memories: &'a Memories,
}

impl ToolContext<'_> {
    /// Who is asking, for the memory service's permissions and gate.
    pub fn actor(&self) -> Actor {
        Actor::Chat {
            chat_id: self.chat_id,
            is_group: self.is_group,
            is_control: self.is_control,
        }
    }
}

/// A tool's failure, as the model reads it after `error: `.
type ToolResult = Result<String, String>;

/// Every tool, built once: a turn's request shares them (and their JSON, written once)
/// instead of building its own.
pub fn specs() -> ToolSet {
    static ALL: LazyLock<ToolSet> = LazyLock::new(|| {
        let mut all = files::specs();
        all.extend(memory::specs());
        all.extend(search::specs());
        all.into()
    });
    ALL.clone()
}

/// The names of every tool, for "unknown tool" answers.
fn names() -> String {
    specs()
        .iter()
        .map(|s| s.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Runs one call; the result (or a clear error) is text for the model.
pub async fn execute(ctx: &ToolContext<'_>, call: &ToolCall) -> String {
    match run(ctx, call).await {
        Ok(text) => text,
        Err(e) => format!("error: {e}"),
    }
}

async fn run(ctx: &ToolContext<'_>, call: &ToolCall) -> ToolResult {
    let args = match &call.arguments {
        Ok(Value::Object(map)) => map,
        Ok(other) => return Err(format!("arguments must be a JSON object, got {other}")),
        Err(raw) => {
            return Err(format!(
                "arguments are not valid JSON: {}",
                raw.chars().take(200).collect::<String>()
            ));
        }
    };
    let args = Args(args);
    match call.name.as_str() {
        "read_memory" | "write_memory" => files::run(ctx, &call.name, &args),
        "memory_store" => memory::store(ctx, &args).await,
        "memory_recall" => memory::recall(ctx, &args).await,
        "memory_list" => memory::list(ctx, &args).await,
        "memory_forget" => memory::forget(ctx, &args).await,
        "memory_search" => search::search(ctx, &args).await,
        "memory_get" => search::get(ctx, &args).await,
        other => Err(format!("unknown tool `{other}`; available: {}", names())),
    }
}

/// A call's arguments, with typed getters whose errors name the argument.
struct Args<'a>(&'a Map<String, Value>);

impl Args<'_> {
    fn get(&self, name: &str) -> Option<&Value> {
        self.0.get(name).filter(|v| !v.is_null())
    }

    fn str(&self, name: &str) -> Result<Option<&str>, String> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.as_str())),
            Some(other) => Err(format!("`{name}` must be a string, got {other}")),
        }
    }

    fn required_str(&self, name: &str, what: &str) -> Result<&str, String> {
        match self.str(name)? {
            Some(s) if !s.trim().is_empty() => Ok(s),
            _ => Err(format!("missing required argument `{name}` ({what})")),
        }
    }

    /// An integer, also accepted as a numeric string (models write both), within `range`.
    fn int(&self, name: &str, range: std::ops::RangeInclusive<i64>) -> Result<Option<i64>, String> {
        let n = match self.get(name) {
            None => return Ok(None),
            Some(Value::Number(n)) => n.as_i64().or_else(|| {
                n.as_f64()
                    .filter(|f| f.fract() == 0.0 && f.abs() < 9e15)
                    .map(|f| f as i64)
            }),
            Some(Value::String(s)) => s.trim().parse().ok(),
            Some(_) => None,
        };
        match n {
            Some(n) if range.contains(&n) => Ok(Some(n)),
            _ => Err(format!(
                "`{name}` must be a whole number from {} to {}, got {}",
                range.start(),
                range.end(),
                self.get(name).map(Value::to_string).unwrap_or_default()
            )),
        }
    }

    /// A number within `range`.
    fn number(
        &self,
        name: &str,
        range: std::ops::RangeInclusive<f64>,
    ) -> Result<Option<f64>, String> {
        let n = match self.get(name) {
            None => return Ok(None),
            Some(Value::Number(n)) => n.as_f64(),
            Some(Value::String(s)) => s.trim().parse().ok(),
            Some(_) => None,
        };
        match n {
            Some(n) if range.contains(&n) => Ok(Some(n)),
            _ => Err(format!(
                "`{name}` must be a number from {} to {}, got {}",
                range.start(),
                range.end(),
                self.get(name).map(Value::to_string).unwrap_or_default()
            )),
        }
    }
}

/// The JSON schema of a tool's arguments.
fn object(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required})
}

/// A store error as the model sees it: what failed, not the SQL.
fn store_error(e: impl std::fmt::Display) -> String {
    tracing::warn!(error = %e, "memory tool: database error");
    "the memory database could not be read or written just now; try again later".to_string()
}

#[cfg(test)]
mod tests;
