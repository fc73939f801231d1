//! The tools every model has: `read_memory` and `write_memory` over the AGENTS.md files.

use serde_json::{Value, json};

use crate::llm::{ToolCall, ToolSpec};
use crate::memory::files::{FileScope, MemoryFiles};
use crate::store::ChatKey;

/// Who is calling: decides which files a tool may touch.
pub struct ToolContext<'a> {
    pub chat: &'a ChatKey,
    /// Only control chats may write global memory.
    pub is_control: bool,
    pub files: &'a MemoryFiles,
}

pub fn specs() -> Vec<ToolSpec> {
    let scope = json!({
        "type": "string",
        "enum": ["global", "chat"],
        "description": "`chat`: notes for this conversation only; `global`: notes shared by every chat"
    });
    vec![
        ToolSpec {
            name: "read_memory",
            description: "Read a memory file (AGENTS.md). Its current text is already in your system prompt; use this after writing to check the result.",
            parameters: json!({"type": "object", "properties": {"scope": scope}, "required": ["scope"]}),
        },
        ToolSpec {
            name: "write_memory",
            description: "Replace a memory file (AGENTS.md) with new markdown. Keep what still matters from the current text: this overwrites it. Global memory can only be written from the owner's control chats.",
            parameters: json!({
                "type": "object",
                "properties": {
                    "scope": scope,
                    "content": {"type": "string", "description": "the whole new file, markdown"}
                },
                "required": ["scope", "content"]
            }),
        },
    ]
}

/// Runs one call; the result (or a clear error) is text for the model.
pub fn execute(ctx: &ToolContext<'_>, call: &ToolCall) -> String {
    match run(ctx, call) {
        Ok(text) => text,
        Err(e) => format!("error: {e}"),
    }
}

fn run(ctx: &ToolContext<'_>, call: &ToolCall) -> Result<String, String> {
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
    let scope = match args.get("scope").and_then(Value::as_str) {
        Some("global") => FileScope::Global,
        Some("chat") => FileScope::Chat(ctx.chat),
        Some(other) => {
            return Err(format!(
                "scope must be \"global\" or \"chat\", got \"{other}\""
            ));
        }
        None => return Err("missing required argument `scope` (\"global\" or \"chat\")".into()),
    };
    match call.name.as_str() {
        "read_memory" => {
            let text = ctx.files.read(&scope).map_err(|e| e.to_string())?;
            Ok(if text.trim().is_empty() {
                "(empty)".into()
            } else {
                text
            })
        }
        "write_memory" => {
            let content = args
                .get("content")
                .and_then(Value::as_str)
                .ok_or("missing required argument `content` (the whole new file as a string)")?;
            if scope == FileScope::Global && !ctx.is_control {
                return Err("global memory can only be written from a control chat; write to scope \"chat\" instead".into());
            }
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
        other => Err(format!(
            "unknown tool `{other}`; available: read_memory, write_memory"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(name: &str, args: Value) -> ToolCall {
        ToolCall {
            id: "1".into(),
            name: name.into(),
            arguments: Ok(args),
        }
    }

    #[test]
    fn write_then_read_chat_memory() {
        let dir = tempfile::tempdir().unwrap();
        let files = MemoryFiles::new(dir.path());
        let chat = ChatKey::new("cli", "default");
        let ctx = ToolContext {
            chat: &chat,
            is_control: false,
            files: &files,
        };
        assert_eq!(
            execute(&ctx, &call("read_memory", json!({"scope": "chat"}))),
            "(empty)"
        );
        let out = execute(
            &ctx,
            &call(
                "write_memory",
                json!({"scope": "chat", "content": "likes tea"}),
            ),
        );
        assert_eq!(out, "saved chat memory (9 bytes)");
        assert_eq!(
            execute(&ctx, &call("read_memory", json!({"scope": "chat"}))),
            "likes tea"
        );
    }

    #[test]
    fn global_writes_need_a_control_chat() {
        let dir = tempfile::tempdir().unwrap();
        let files = MemoryFiles::new(dir.path());
        let chat = ChatKey::new("telegram", "-100");
        let mut ctx = ToolContext {
            chat: &chat,
            is_control: false,
            files: &files,
        };
        let w = call(
            "write_memory",
            json!({"scope": "global", "content": "owner is Bob"}),
        );
        assert!(
            execute(&ctx, &w)
                .starts_with("error: global memory can only be written from a control chat")
        );
        assert_eq!(files.read(&FileScope::Global).unwrap(), "");
        ctx.is_control = true;
        assert_eq!(execute(&ctx, &w), "saved global memory (12 bytes)");
    }

    #[test]
    fn bad_arguments_get_clear_errors() {
        let dir = tempfile::tempdir().unwrap();
        let files = MemoryFiles::new(dir.path());
        let chat = ChatKey::new("cli", "x");
        let ctx = ToolContext {
            chat: &chat,
            is_control: false,
            files: &files,
        };
        let cases = [
            (
                call("read_memory", json!({})),
                "missing required argument `scope`",
            ),
            (
                call("read_memory", json!({"scope": "everything"})),
                "scope must be",
            ),
            (
                call("write_memory", json!({"scope": "chat"})),
                "missing required argument `content`",
            ),
            (call("read_memory", json!([1])), "must be a JSON object"),
            (
                call("delete_everything", json!({"scope": "chat"})),
                "unknown tool",
            ),
            (
                ToolCall {
                    id: "1".into(),
                    name: "read_memory".into(),
                    arguments: Err("{nope".into()),
                },
                "not valid JSON",
            ),
        ];
        for (c, expected) in cases {
            let out = execute(&ctx, &c);
            assert!(
                out.starts_with("error: ") && out.contains(expected),
                "{out}"
            );
        }
    }
}
