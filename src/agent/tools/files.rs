//! `read_memory` and `write_memory` over the AGENTS.md files.

use serde_json::json;

use super::{Args, ToolContext, ToolResult, object};
use crate::llm::ToolSpec;
use crate::memory::files::FileScope;

pub(super) fn specs() -> Vec<ToolSpec> {
    let scope = json!({
        "type": "string",
        "enum": ["global", "chat"],
        "description": "`chat`: notes for this conversation only; `global`: notes shared by every chat"
    });
    vec![
        ToolSpec {
            name: "read_memory",
            description: "Read a memory file (AGENTS.md). Its current text is already in your system prompt; use this after writing to check the result.",
            parameters: object(json!({"scope": scope}), &["scope"]),
        },
        ToolSpec {
            name: "write_memory",
            description: "Replace a memory file (AGENTS.md) with new markdown. Keep what still matters from the current text: this overwrites it. Global memory can only be written from the owner's control chats.",
            parameters: object(
                json!({
                    "scope": scope,
                    "content": {"type": "string", "description": "the whole new file, markdown"}
                }),
                &["scope", "content"],
            ),
        },
    ]
}

pub(super) fn run(ctx: &ToolContext<'_>, name: &str, args: &Args<'_>) -> ToolResult {
    let scope = match args.str("scope")? {
        Some("global") => FileScope::Global,
        Some("chat") => FileScope::Chat(ctx.chat),
        Some(other) => {
            return Err(format!(
                "scope must be \"global\" or \"chat\", got \"{other}\""
            ));
        }
        None => return Err("missing required argument `scope` (\"global\" or \"chat\")".into()),
    };
    if name == "read_memory" {
        let text = ctx.files.read(&scope).map_err(|e| e.to_string())?;
        return Ok(if text.trim().is_empty() {
            "(empty)".into()
        } else {
            text
        });
    }
    let content = args
        .str("content")?
        .ok_or("missing required argument `content` (the whole new file as a string)")?;
    if scope == FileScope::Global && !ctx.is_control {
        return Err("global memory can only be written from a control chat; write to scope \"chat\" instead".into());
    }
    // The memory gate, on the lines this write adds: never a secret; from a group (whose
    // AGENTS.md reaches every member's prompts) never an instruction-like line either.
    let old = ctx.files.read(&scope).map_err(|e| e.to_string())?;
    crate::memories::gate::check_file(&old, content, ctx.is_group)
        .map_err(|r| format!("not saved: {r}"))?;
    ctx.files
        .write(&scope, content)
        .map_err(|e| e.to_string())?;
    let name = if scope == FileScope::Global {
        "global"
    } else {
        "chat"
    };
    Ok(format!("saved {name} memory ({} bytes)", content.len()))
}
