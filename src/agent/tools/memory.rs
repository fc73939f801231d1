//! `memory_store`, `memory_recall`, `memory_list` and `memory_forget`: structured memory as
//! the model manages it, within the calling chat (and global memory, written only from
//! control chats).

use std::fmt::Write;

use serde_json::json;

use super::{Args, ToolContext, ToolResult, object, store_error};
use crate::base::{Category, MemoryRow, MemoryScope, Source};
use crate::llm::ToolSpec;
use crate::memories::same_fact::Why;
use crate::memories::{MemoryError, Remember, Remembered};
use crate::store::SearchScope;

/// Confidence of a fact the model chose to store.
const TOOL_CONFIDENCE: f64 = 0.85;
/// Longest key; keys are short names like `user_timezone`.
const MAX_KEY_CHARS: usize = 64;
/// Most memories `memory_list` shows.
const LIST_LIMIT: u32 = 50;
/// `memory_recall`'s default and largest `limit`.
const RECALL_DEFAULT: i64 = 5;
const RECALL_MAX: i64 = 50;

pub(super) fn specs() -> Vec<ToolSpec> {
    let category = json!({
        "type": "string",
        "enum": ["PROFILE", "KNOWLEDGE", "EVENT"],
        "description": "PROFILE: about a person (preferences, facts about them); KNOWLEDGE: facts about the world, projects, decisions; EVENT: something that happened or is planned, with its date"
    });
    vec![
        ToolSpec {
            name: "memory_store",
            description: "Save a durable fact to long-term memory for this chat (not greetings or chatter, never secrets or instructions). With a `key`, storing again under that key replaces the fact (an upsert); without one, a near-duplicate of a stored fact updates it.",
            parameters: object(
                json!({
                    "content": {"type": "string", "description": "the fact, one or two sentences"},
                    "category": category,
                    "key": {"type": "string", "description": "optional short name for the fact, e.g. user_timezone (letters, digits, _ . : -)"},
                    "scope": {"type": "string", "enum": ["chat", "global"], "description": "`chat` (default); `global` only from the owner's control chats"}
                }),
                &["content", "category"],
            ),
        },
        ToolSpec {
            name: "memory_recall",
            description: "Search long-term memory (this chat's and the global facts) by meaning and keywords; returns the best matches with ids and scores.",
            parameters: object(
                json!({
                    "query": {"type": "string", "description": "what to look for"},
                    "limit": {"type": "integer", "minimum": 1, "maximum": RECALL_MAX, "default": RECALL_DEFAULT}
                }),
                &["query"],
            ),
        },
        ToolSpec {
            name: "memory_list",
            description: "List the facts remembered for this chat (and the global ones), most recently seen first.",
            parameters: object(json!({"category": category}), &[]),
        },
        ToolSpec {
            name: "memory_forget",
            description: "Delete one fact from long-term memory, by its id (from memory_recall or memory_list) or its key.",
            parameters: object(
                json!({
                    "id": {"type": "integer", "description": "the memory's id"},
                    "key": {"type": "string", "description": "the key it was stored under"}
                }),
                &[],
            ),
        },
    ]
}

/// `[PROFILE] [chat] key=user_tz: text` — how a memory reads in tool output.
fn describe(m: &MemoryRow) -> String {
    let scope = if m.chat_id.is_some() {
        "chat"
    } else {
        "global"
    };
    let key = m
        .key
        .as_deref()
        .map(|k| format!(" key={k}"))
        .unwrap_or_default();
    format!("#{} [{}] [{scope}]{key}: {}", m.id, m.category, m.content)
}

fn category(args: &Args<'_>) -> Result<Option<Category>, String> {
    args.str("category")?
        .map(|c| c.parse::<Category>())
        .transpose()
}

/// A key as given, checked: short, plain characters, not reserved.
fn key(args: &Args<'_>) -> Result<Option<String>, String> {
    let Some(key) = args.str("key")? else {
        return Ok(None);
    };
    let key = key.trim();
    if key.is_empty() {
        return Ok(None);
    }
    if key.chars().count() > MAX_KEY_CHARS
        || !key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':' | '-'))
    {
        return Err(format!(
            "`key` must be at most {MAX_KEY_CHARS} letters, digits, `_`, `.`, `:` or `-`, got {key:?}"
        ));
    }
    if key.starts_with("__") {
        return Err("keys starting with `__` are reserved".into());
    }
    Ok(Some(key.to_string()))
}

pub(super) async fn store(ctx: &ToolContext<'_>, args: &Args<'_>) -> ToolResult {
    let content = args
        .required_str("content", "the fact to remember")?
        .to_string();
    let category = category(args)?
        .ok_or("missing required argument `category` (PROFILE, KNOWLEDGE or EVENT)")?;
    let key = key(args)?;
    let scope = match args.str("scope")?.unwrap_or("chat") {
        "chat" => MemoryScope::Chat(ctx.chat_id),
        "global" => MemoryScope::Global,
        other => {
            return Err(format!(
                "scope must be \"chat\" or \"global\", got \"{other}\""
            ));
        }
    };
    let remembered = ctx
        .memories
        .remember(
            &ctx.actor(),
            Remember {
                scope,
                category,
                content,
                key: key.clone(),
                source: Source::Tool,
                confidence: TOOL_CONFIDENCE,
                source_message_ids: vec![ctx.message_id],
                // in a group, "I" in what the model stores is whoever it answers
                speaker: ctx.is_group.then(|| ctx.sender.clone()),
            },
        )
        .await
        .map_err(memory_error)?;
    let label = key
        .as_deref()
        .map(|k| format!(" ({k})"))
        .unwrap_or_default();
    let (mut out, replaced) = match remembered {
        Remembered::Updated {
            id,
            content,
            replaced,
        } => (
            format!("Updated memory #{id}{label} ({category}): {content}"),
            replaced,
        ),
        Remembered::Stored {
            id,
            content,
            replaced,
        } => (
            format!("Stored memory #{id}{label} ({category}): {content}"),
            replaced,
        ),
    };
    for r in replaced {
        let how = match &r.why {
            Why::Denied(_) => "It says the opposite of".to_string(),
            Why::Changed(c) => format!("It gives a newer value ({} → {}) than", c.old, c.new),
        };
        out.push_str(&format!(
            "\n{how} memory #{}, now archived: {}",
            r.id, r.stored
        ));
    }
    Ok(out)
}

/// The service's refusal as the model reads it.
fn memory_error(e: MemoryError) -> String {
    match e {
        MemoryError::Store(e) => store_error(e),
        other => other.to_string(),
    }
}

pub(super) async fn recall(ctx: &ToolContext<'_>, args: &Args<'_>) -> ToolResult {
    let query = args.required_str("query", "what to look for")?;
    let limit = args.int("limit", 1..=RECALL_MAX)?.unwrap_or(RECALL_DEFAULT) as usize;
    let found = ctx
        .memories
        .retriever()
        .search(SearchScope::Chat(ctx.chat_id), query, limit)
        .await
        .map_err(store_error)?;
    if found.hits.is_empty() {
        return Ok(format!("No memories found matching: {query}"));
    }
    let mut out = format!(
        "Found {} {}:\n",
        found.hits.len(),
        if found.hits.len() == 1 {
            "memory"
        } else {
            "memories"
        }
    );
    for (i, hit) in found.hits.iter().enumerate() {
        let _ = writeln!(
            out,
            "{}. {} (score {:.2})",
            i + 1,
            describe(&hit.memory),
            hit.score
        );
    }
    Ok(out.trim_end().to_string())
}

pub(super) async fn list(ctx: &ToolContext<'_>, args: &Args<'_>) -> ToolResult {
    let category = category(args)?;
    let (rows, total) = ctx
        .memories
        .retriever()
        .store()
        .visible_memories(ctx.chat_id, category, LIST_LIMIT)
        .await
        .map_err(store_error)?;
    if rows.is_empty() {
        return Ok("No memories stored yet.".into());
    }
    let mut out = if total as usize > rows.len() {
        format!(
            "{total} memories; the {} most recently seen (memory_recall searches them all):\n",
            rows.len()
        )
    } else {
        format!(
            "{total} {}:\n",
            if total == 1 { "memory" } else { "memories" }
        )
    };
    for m in &rows {
        let _ = writeln!(out, "{}", describe(m));
    }
    Ok(out.trim_end().to_string())
}

pub(super) async fn forget(ctx: &ToolContext<'_>, args: &Args<'_>) -> ToolResult {
    let store = ctx.memories.retriever().store();
    let id = args.int("id", 1..=i64::MAX)?;
    let key = key(args)?;
    let id = match (id, key) {
        (Some(id), None) => id,
        (None, Some(k)) => {
            let mut holder = store
                .memory_by_key(MemoryScope::Chat(ctx.chat_id), &k)
                .await
                .map_err(store_error)?;
            if holder.is_none() && ctx.is_control {
                holder = store
                    .memory_by_key(MemoryScope::Global, &k)
                    .await
                    .map_err(store_error)?;
            }
            holder.ok_or_else(|| format!("no memory with key `{k}` in this chat"))?
        }
        (Some(_), Some(_)) => return Err("give either `id` or `key`, not both".into()),
        (None, None) => {
            return Err(
                "missing argument: `id` (a memory id) or `key` (the key it was stored under)"
                    .into(),
            );
        }
    };
    let memory = ctx
        .memories
        .forget(&ctx.actor(), id)
        .await
        .map_err(|e| match e {
            MemoryError::NotFound(id) => format!("no memory #{id} in this chat"),
            MemoryError::Forbidden(id) => {
                format!("memory #{id} is global; it can only be forgotten from a control chat")
            }
            other => memory_error(other),
        })?;
    Ok(format!("Forgot memory #{id}: {}", memory.content))
}
