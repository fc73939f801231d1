//! `memory_search` (memories and this chat's past messages, each result with a citation and
//! a score) and `memory_get` (a whole memory, or a stretch of the conversation, by citation).

use serde_json::{Value, json};

use super::{Args, ToolContext, ToolResult, object, store_error};
use crate::llm::ToolSpec;
use crate::memories::MemoryError;
use crate::memory::keywords::{self, coverage, stems};
use crate::memory::rank::rrf;
use crate::store::{MessageHit, MessageRow, SearchScope};

const MAX_RESULTS_DEFAULT: i64 = 6;
const MAX_RESULTS_MAX: i64 = 20;
const MIN_SCORE_DEFAULT: f64 = 0.35;
/// Longest message text in a search result; `memory_get` gives the whole message.
const SNIPPET_CHARS: usize = 300;
/// Most messages one `memory_get` returns.
const MAX_RANGE: i64 = 50;

pub(super) fn specs() -> Vec<ToolSpec> {
    vec![
        ToolSpec {
            name: "memory_search",
            description: "Mandatory recall step: search long-term memory AND this chat's past messages before answering questions about earlier conversations, decisions, dates, people or preferences. Returns snippets with citations (memory:ID or messages:ID) and scores from 0 to 1.",
            parameters: object(
                json!({
                    "query": {"type": "string", "description": "what to look for"},
                    "maxResults": {"type": "integer", "minimum": 1, "maximum": MAX_RESULTS_MAX, "default": MAX_RESULTS_DEFAULT},
                    "minScore": {"type": "number", "minimum": 0, "maximum": 1, "default": MIN_SCORE_DEFAULT}
                }),
                &["query"],
            ),
        },
        ToolSpec {
            name: "memory_get",
            description: "Read what a citation points at: `memory:12` (a whole memory with its history) or `messages:120` / `messages:115-125` (messages of this chat, at most 50).",
            parameters: object(
                json!({"id": {"type": "string", "description": "a citation from memory_search, e.g. memory:12 or messages:115-125"}}),
                &["id"],
            ),
        },
    ]
}

fn date(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.format("%Y-%m-%d %H:%M UTC").to_string())
        .unwrap_or_default()
}

fn snippet(text: &str) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= SNIPPET_CHARS {
        one_line
    } else {
        let cut: String = one_line.chars().take(SNIPPET_CHARS).collect();
        format!("{cut}…")
    }
}

fn round(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

pub(super) async fn search(ctx: &ToolContext<'_>, args: &Args<'_>) -> ToolResult {
    let query = args.required_str("query", "what to look for")?;
    let max = args
        .int("maxResults", 1..=MAX_RESULTS_MAX)?
        .unwrap_or(MAX_RESULTS_DEFAULT) as usize;
    let min_score = args
        .number("minScore", 0.0..=1.0)?
        .unwrap_or(MIN_SCORE_DEFAULT);
    let store = ctx.memories.retriever().store();
    let pool = max * 3;

    let memories = ctx
        .memories
        .retriever()
        .search(SearchScope::Chat(ctx.chat_id), query, pool)
        .await
        .map_err(store_error)?;
    let words = keywords::keywords(query);
    let messages: Vec<MessageHit> = match keywords::fts_expression(&words) {
        Some(expr) => store
            .bm25_messages(ctx.chat_id, &expr, pool + 1)
            .await
            .map_err(store_error)?
            .into_iter()
            // The question being answered would always match itself.
            .filter(|m| m.id < ctx.message_id)
            .collect(),
        None => Vec::new(),
    };
    let query_stems = words.iter().map(|w| keywords::stem(w)).collect();

    // Each source ranks its own; RRF (with the configured `search.rrf_k`) interleaves the two
    // rankings, the score filters.
    let merge_k = ctx.memories.retriever().rrf_k();
    let mut results: Vec<(f64, f64, Value)> = Vec::new();
    for (i, hit) in memories.hits.iter().enumerate() {
        let m = &hit.memory;
        results.push((
            rrf(i + 1, merge_k),
            hit.score,
            json!({
                "source": "memory",
                "citation": format!("memory:{}", m.id),
                "id": m.id,
                "category": m.category,
                "scope": if m.chat_id.is_some() { "chat" } else { "global" },
                "key": m.key,
                "snippet": m.content,
                "last_seen": date(m.last_seen_at),
                "score": round(hit.score),
            }),
        ));
    }
    for (i, m) in messages.iter().enumerate() {
        let score = coverage(&query_stems, &stems(&m.text));
        results.push((
            rrf(i + 1, merge_k),
            score,
            json!({
                "source": "messages",
                "citation": format!("messages:{}", m.id),
                "id": m.id,
                "from": if m.is_from_bot { "assistant".to_string() } else { m.sender_name.clone() },
                "date": date(m.created_at),
                "snippet": snippet(&m.text),
                "score": round(score),
            }),
        ));
    }
    results.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.total_cmp(&a.1)));
    let kept: Vec<Value> = results
        .into_iter()
        .filter(|r| r.1 >= min_score)
        .take(max)
        .map(|r| r.2)
        .collect();
    let mut out = json!({
        "results": kept,
        "retrieval": if memories.used_vector { "bm25+vector" } else { "bm25" },
    });
    if let Some(e) = memories.vector_error {
        out["note"] = json!(format!(
            "semantic search unavailable right now ({e}); keyword search only"
        ));
    }
    Ok(out.to_string())
}

/// What a citation names.
#[derive(Debug, PartialEq, Eq)]
enum Citation {
    Memory(i64),
    Messages(i64, i64),
}

fn parse_citation(raw: &str) -> Result<Citation, String> {
    let bad = || {
        format!(
            "`id` must be a citation like memory:12, messages:120 or messages:115-125, got {raw:?}"
        )
    };
    let id = |s: &str| s.trim().parse::<i64>().ok().filter(|n| *n > 0);
    let raw_trim = raw.trim();
    let (kind, rest) = raw_trim.split_once(':').unwrap_or(("memory", raw_trim));
    match kind.trim() {
        "memory" | "memories" => id(rest).map(Citation::Memory).ok_or_else(bad),
        "message" | "messages" => {
            let (from, to) = rest.split_once('-').unwrap_or((rest, rest));
            match (id(from), id(to)) {
                (Some(a), Some(b)) if a <= b => Ok(Citation::Messages(a, b)),
                _ => Err(bad()),
            }
        }
        _ => Err(bad()),
    }
}

pub(super) async fn get(ctx: &ToolContext<'_>, args: &Args<'_>) -> ToolResult {
    let raw = match args.get("id") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        Some(other) => return Err(format!("`id` must be a citation string, got {other}")),
        None => {
            return Err(
                "missing required argument `id` (e.g. memory:12 or messages:115-125)".into(),
            );
        }
    };
    let store = ctx.memories.retriever().store();
    match parse_citation(&raw)? {
        Citation::Memory(id) => {
            let m = match ctx.memories.get(&ctx.actor(), id).await {
                Ok(m) => m,
                Err(MemoryError::Store(e)) => return Err(store_error(e)),
                Err(_) => return Err(format!("no memory #{id} in this chat")),
            };
            Ok(json!({
                "citation": format!("memory:{}", m.id),
                "id": m.id,
                "category": m.category,
                "scope": if m.chat_id.is_some() { "chat" } else { "global" },
                "key": m.key,
                "content": m.content,
                "confidence": round(m.confidence),
                "source": m.source,
                "created": date(m.created_at),
                "last_seen": date(m.last_seen_at),
                "archived": m.archived,
                "supersedes": m.supersedes_id.map(|s| format!("memory:{s}")),
                "from_messages": m.source_message_ids().iter().map(|i| format!("messages:{i}")).collect::<Vec<_>>(),
            })
            .to_string())
        }
        Citation::Messages(from, to) => {
            if to - from + 1 > MAX_RANGE {
                return Err(format!(
                    "at most {MAX_RANGE} messages at a time; ask for a shorter range"
                ));
            }
            let rows = store
                .messages_between(ctx.chat_id, from, to, MAX_RANGE as u32)
                .await
                .map_err(store_error)?;
            if rows.is_empty() {
                return Err(format!("no messages {from}-{to} in this chat"));
            }
            let lines: Vec<Value> = rows.iter().map(message_json).collect();
            Ok(json!({"citation": format!("messages:{from}-{to}"), "messages": lines}).to_string())
        }
    }
}

fn message_json(m: &MessageRow) -> Value {
    let from = if m.is_from_bot {
        "assistant"
    } else {
        m.sender_name.as_str()
    };
    json!({"id": m.id, "date": date(m.created_at), "from": from, "text": m.text})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn citations_parse() {
        assert_eq!(parse_citation("memory:12"), Ok(Citation::Memory(12)));
        assert_eq!(parse_citation("12"), Ok(Citation::Memory(12)));
        assert_eq!(
            parse_citation(" messages:120 "),
            Ok(Citation::Messages(120, 120))
        );
        assert_eq!(
            parse_citation("messages:115-125"),
            Ok(Citation::Messages(115, 125))
        );
        for bad in [
            "memory:x",
            "messages:9-3",
            "files:1",
            "",
            "memory:-4",
            "messages:1-",
        ] {
            assert!(parse_citation(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn snippets_are_one_bounded_line() {
        assert_eq!(snippet("a\n b"), "a b");
        let long = "x".repeat(SNIPPET_CHARS + 10);
        assert_eq!(snippet(&long).chars().count(), SNIPPET_CHARS + 1);
    }
}
