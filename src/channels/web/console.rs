//! The memory console's API: chats, structured memories (list, search, edit, forget,
//! export), the AGENTS.md files, and the observability cards.
//!
//! Global memory (the global AGENTS.md and global structured memories) reaches every chat,
//! groups included, so the console changes it only on a server with an access token — where
//! every request has presented it. A tokenless server is reachable by anything running on
//! this machine; it may read global memory and change chat memory, nothing more.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use super::App;
use super::api::{self, ApiError, ApiJson, ApiQuery, ApiResult, existing_chat, scope};
use crate::base::{Category, MemoryRow, MemoryScope};
use crate::memories::json::MemoryJson;
use crate::memories::{Actor, MemoryError, gate};
use crate::memory::files::{FileMemoryError, FileScope, MAX_FILE_BYTES};
use crate::store::{MemoryFilter, SearchScope, now_ms};

/// Why the console will not change global memory here.
const GLOBAL_NEEDS_TOKEN: &str = "global memory can be changed from the web only when the server has an access token: \
     set channels.web.auth_token (or MNEME_WEB_AUTH_TOKEN), restart mneme and enter the token on this page \
     (or, on the machine itself, `mneme memory` for memories, and the file runtime/groups/AGENTS.md in data_dir \
     for the global AGENTS.md)";

/// Most memories one list or search returns.
const MAX_LIST: u32 = 1000;

fn global_editable(app: &App) -> bool {
    app.token.is_some()
}

pub(super) async fn info(State(app): State<App>) -> Json<Value> {
    Json(json!({
        "version": env!("CARGO_PKG_VERSION"),
        "token_configured": app.token.is_some(),
        "global_editable": global_editable(&app),
        "global_locked_reason": (!global_editable(&app)).then_some(GLOBAL_NEEDS_TOKEN),
    }))
}

pub(super) async fn chats(State(app): State<App>) -> ApiResult<Json<Value>> {
    let chats = app.agent.store().chat_summaries().await?;
    Ok(Json(json!({ "chats": chats })))
}

#[derive(Deserialize)]
pub(super) struct ListQuery {
    chat: Option<String>,
    category: Option<String>,
    /// `true` includes archived memories.
    archived: Option<bool>,
    limit: Option<u32>,
    /// Memories skipped first (the list is oldest first): `next_offset` of the page before.
    offset: Option<u32>,
}

fn category(raw: Option<&str>) -> ApiResult<Option<Category>> {
    raw.map(str::trim)
        .filter(|c| !c.is_empty())
        .map(|c| c.parse::<Category>().map_err(ApiError::bad_request))
        .transpose()
}

fn to_json(rows: &[MemoryRow]) -> Vec<MemoryJson> {
    rows.iter().map(|m| MemoryJson::from_row(m, None)).collect()
}

pub(super) async fn list_memories(
    State(app): State<App>,
    ApiQuery(q): ApiQuery<ListQuery>,
) -> ApiResult<Json<Value>> {
    let store = app.agent.store();
    let limit = api::limit(q.limit, MAX_LIST, MAX_LIST)?;
    let offset = q.offset.unwrap_or(0);
    let filter = MemoryFilter {
        scope: scope(store, q.chat.as_deref()).await?,
        category: category(q.category.as_deref())?,
        include_archived: q.archived.unwrap_or(false),
        limit: Some(limit),
        offset,
    };
    let rows = store.list_memories(&filter).await?;
    let total = store.count_listed(&filter).await?;
    // Where the next page starts, while there is one.
    let shown = i64::from(offset) + rows.len() as i64;
    let next_offset = (shown < total && !rows.is_empty()).then_some(shown);
    Ok(Json(json!({
        "memories": to_json(&rows),
        "total": total,
        "next_offset": next_offset,
    })))
}

#[derive(Deserialize)]
pub(super) struct SearchQuery {
    q: Option<String>,
    chat: Option<String>,
    limit: Option<u32>,
}

/// The agent's own ranking (`retrieval::Retriever::search`), so the console shows what a prompt would pick:
/// with `chat`, that chat's memories and the global ones.
pub(super) async fn search_memories(
    State(app): State<App>,
    ApiQuery(q): ApiQuery<SearchQuery>,
) -> ApiResult<Json<Value>> {
    let query = q.q.unwrap_or_default();
    if query.trim().is_empty() {
        return Err(ApiError::bad_request("`q` (what to search for) is empty"));
    }
    let store = app.agent.store();
    let scope = scope(store, q.chat.as_deref()).await?;
    let limit = api::limit(q.limit, 20, MAX_LIST)? as usize;
    let found = app
        .agent
        .retriever()
        .search(SearchScope::from_filter(scope), &query, limit)
        .await?;
    let mut memories = Vec::with_capacity(found.hits.len());
    for h in &found.hits {
        let mut m = serde_json::to_value(MemoryJson::from_row(&h.memory, Some(h.score)))
            .map_err(anyhow::Error::from)?;
        m["stages"] = h.stages.to_json();
        memories.push(m);
    }
    Ok(Json(json!({
        "memories": memories,
        "vector": found.used_vector,
        "note": found.vector_error.map(|e| format!("semantic search unavailable ({e}); keyword search only")),
    })))
}

#[derive(Deserialize)]
pub(super) struct ExportQuery {
    chat: Option<String>,
}

/// JSON Lines, archived included: what `mneme memory export` writes, and `mneme memory
/// import` reads back.
pub(super) async fn export_memories(
    State(app): State<App>,
    ApiQuery(q): ApiQuery<ExportQuery>,
) -> ApiResult<Response> {
    let store = app.agent.store();
    let filter = MemoryFilter {
        scope: scope(store, q.chat.as_deref()).await?,
        include_archived: true,
        ..MemoryFilter::default()
    };
    let mut out = String::new();
    for m in store.list_memories(&filter).await? {
        let line =
            serde_json::to_string(&MemoryJson::from_row(&m, None)).map_err(anyhow::Error::from)?;
        out.push_str(&line);
        out.push('\n');
    }
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-ndjson; charset=utf-8"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"mneme-memories.jsonl\"",
            ),
        ],
        out,
    )
        .into_response())
}

fn memory_id(raw: &str) -> ApiResult<i64> {
    raw.trim_start_matches('#').parse().map_err(|_| {
        ApiError::bad_request(format!(
            "`{}` is not a memory id (a number)",
            raw.chars().take(40).collect::<String>()
        ))
    })
}

/// The console as the memory service sees it.
fn actor(app: &App) -> Actor {
    Actor::Console {
        global_writable: global_editable(app),
    }
}

/// The service's answer as an HTTP error.
fn memory_error(e: MemoryError) -> ApiError {
    match e {
        MemoryError::NotFound(id) => ApiError::not_found(format!("no memory #{id}")),
        MemoryError::Forbidden(_) | MemoryError::GlobalWrite => {
            ApiError::forbidden(GLOBAL_NEEDS_TOKEN)
        }
        MemoryError::Refused(r) => ApiError::unprocessable(format!("not stored: {r}")),
        e @ MemoryError::SameAs(_) => {
            ApiError::new(axum::http::StatusCode::CONFLICT, e.to_string())
        }
        MemoryError::Store(e) => anyhow::Error::from(e).into(),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct EditBody {
    content: Option<String>,
    category: Option<String>,
}

/// A person's correction: new wording and/or category, through the memory service's gate.
pub(super) async fn edit_memory(
    State(app): State<App>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<EditBody>,
) -> ApiResult<Json<MemoryJson>> {
    let id = memory_id(&id)?;
    if body.content.as_deref().is_some_and(|c| c.trim().is_empty()) {
        return Err(ApiError::unprocessable("`content` is empty"));
    }
    let category = category(body.category.as_deref())?;
    let updated = app
        .agent
        .memories()
        .edit(&actor(&app), id, body.content.as_deref(), category)
        .await
        .map_err(memory_error)?;
    Ok(Json(MemoryJson::from_row(&updated, None)))
}

/// One memory with its history and the messages it came from.
pub(super) async fn show_memory(
    State(app): State<App>,
    Path(id): Path<String>,
) -> ApiResult<Json<crate::memories::history::Explained>> {
    let id = memory_id(&id)?;
    let explained = app
        .agent
        .memories()
        .explain(&actor(&app), id)
        .await
        .map_err(memory_error)?;
    Ok(Json(explained))
}

pub(super) async fn forget_memory(
    State(app): State<App>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let id = memory_id(&id)?;
    app.agent
        .memories()
        .forget(&actor(&app), id)
        .await
        .map_err(memory_error)?;
    Ok(Json(json!({ "forgot": id })))
}

#[derive(Deserialize)]
pub(super) struct FileQuery {
    /// `global` or `CHANNEL:ID`
    chat: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct FileBody {
    content: String,
}

fn file_error(e: FileMemoryError) -> ApiError {
    match e {
        FileMemoryError::TooLarge { .. } => {
            ApiError::new(axum::http::StatusCode::PAYLOAD_TOO_LARGE, e.to_string())
        }
        FileMemoryError::BadComponent(_) => ApiError::bad_request(e.to_string()),
        FileMemoryError::Io { .. } => anyhow::Error::from(e).into(),
    }
}

pub(super) async fn read_agents_md(
    State(app): State<App>,
    ApiQuery(q): ApiQuery<FileQuery>,
) -> ApiResult<Json<Value>> {
    let name = q.chat.unwrap_or_else(|| "global".into());
    let (content, editable) = if name == "global" {
        let text = app.files.read(&FileScope::Global).map_err(file_error)?;
        (text, global_editable(&app))
    } else {
        let chat = existing_chat(app.agent.store(), &name).await?;
        let key = chat.key();
        let text = app.files.read(&FileScope::Chat(&key)).map_err(file_error)?;
        (text, true)
    };
    Ok(Json(json!({
        "chat": name,
        "content": content,
        "editable": editable,
        "locked_reason": (!editable).then_some(GLOBAL_NEEDS_TOKEN),
        "max_bytes": MAX_FILE_BYTES,
    })))
}

/// Replaces an AGENTS.md (atomically). Like structured memory, it may not hold secrets: it
/// goes into every prompt of its scope.
pub(super) async fn write_agents_md(
    State(app): State<App>,
    ApiQuery(q): ApiQuery<FileQuery>,
    ApiJson(body): ApiJson<FileBody>,
) -> ApiResult<Json<Value>> {
    let name = q.chat.unwrap_or_else(|| "global".into());
    let scope_name = name.clone();
    // Who may, then how much, then what: each refusal names the first thing wrong.
    if name == "global" && !global_editable(&app) {
        return Err(ApiError::forbidden(GLOBAL_NEEDS_TOKEN));
    }
    let size = body.content.len();
    if size > crate::memory::files::MAX_FILE_BYTES {
        return Err(file_error(FileMemoryError::TooLarge { size }));
    }
    let old = if name == "global" {
        app.files.read(&FileScope::Global).map_err(file_error)?
    } else {
        let chat = existing_chat(app.agent.store(), &scope_name).await?;
        app.files
            .read(&FileScope::Chat(&chat.key()))
            .map_err(file_error)?
    };
    // the operator's own edit: no secrets (AGENTS.md goes into prompts); instructions are
    // what AGENTS.md is for
    if let Err(r) = gate::check_file(&old, &body.content, false) {
        return Err(ApiError::unprocessable(format!(
            "not saved: {r}; AGENTS.md goes into prompts, so secrets stay out of it"
        )));
    }
    if name == "global" {
        app.files
            .write(&FileScope::Global, &body.content)
            .map_err(file_error)?;
    } else {
        let chat = existing_chat(app.agent.store(), &name).await?;
        let key = chat.key();
        app.files
            .write(&FileScope::Chat(&key), &body.content)
            .map_err(file_error)?;
    }
    Ok(Json(
        json!({ "chat": name, "bytes": body.content.len(), "saved": true }),
    ))
}

#[derive(Deserialize)]
pub(super) struct StatsQuery {
    chat: Option<String>,
}

/// The cards: the pool (of the chosen scope), the reflector and injection over the last
/// 24 hours, and LLM tokens per chat (of the chosen chat).
pub(super) async fn stats(
    State(app): State<App>,
    ApiQuery(q): ApiQuery<StatsQuery>,
) -> ApiResult<Json<Value>> {
    let store = app.agent.store();
    let scope = scope(store, q.chat.as_deref()).await?;
    let pool = store.pool_counts(scope).await?;
    let day = store.usage_summary(now_ms() - 86_400_000).await?;
    let usage_chat = match scope {
        Some(MemoryScope::Chat(id)) => Some(id),
        _ => None,
    };
    let tokens: Vec<Value> = store
        .usage_by_chat(usage_chat)
        .await?
        .into_iter()
        .map(|u| {
            json!({
                "chat": u.chat, "provider": u.provider, "model": u.model, "purpose": u.purpose,
                "calls": u.calls, "input_tokens": u.input_tokens, "output_tokens": u.output_tokens,
            })
        })
        .collect();
    Ok(Json(json!({
        "pool": pool,
        "reflector_24h": {
            "runs": day.reflector_runs,
            "failures": day.reflector_failures,
            "extracted": day.reflector_extracted,
            "inserted": day.reflector_inserted,
            "updated": day.reflector_updated,
            "superseded": day.reflector_superseded,
            "skipped": day.reflector_skipped,
        },
        "injection_24h": {
            "prompts": day.injections,
            "candidates": day.injected_candidates,
            "selected": day.injected_selected,
        },
        "tokens": tokens,
        // Reflector batches set aside after unreadable answers (all chats), newest first.
        "set_aside": store.set_aside_batches(5).await?,
        // Scheduled jobs: last run (start, end, outcome) and next run, times in Unix ms.
        "jobs": store.jobs().await?,
    })))
}
