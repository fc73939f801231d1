//! `mneme memory list|search|forget|export|import`.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Subcommand;
use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::store::{
    Category, ChatKey, MemoryFilter, MemoryRow, MemoryScope, NewMemory, SearchScope, Source, Store,
};

#[derive(Debug, Subcommand)]
pub enum MemoryCommand {
    /// List structured memories
    List {
        /// Only this chat (CHANNEL:ID), or `global`
        #[arg(long, value_name = "CHANNEL:ID")]
        chat: Option<String>,
        /// Only this category: PROFILE, KNOWLEDGE or EVENT
        #[arg(long, value_name = "C")]
        category: Option<Category>,
        /// Include archived memories
        #[arg(long)]
        archived: bool,
        /// One JSON object per line
        #[arg(long)]
        json: bool,
    },
    /// Rank memories against a query, as the agent does, with scores
    Search {
        query: String,
        /// Search as this chat sees it (its memories and the global ones)
        #[arg(long, value_name = "CHANNEL:ID")]
        chat: Option<String>,
        #[arg(long, default_value_t = 10, value_name = "N")]
        limit: usize,
        #[arg(long)]
        json: bool,
    },
    /// Delete one memory for good
    Forget { id: i64 },
    /// Write memories as JSON Lines to stdout (archived ones included)
    Export {
        #[arg(long, value_name = "CHANNEL:ID")]
        chat: Option<String>,
    },
    /// Read memories from a JSON Lines file (`-` for stdin); exact duplicates are skipped
    Import { file: PathBuf },
}

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

pub(super) fn rfc3339(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
        .unwrap_or_default()
}

fn parse_time(s: &str) -> Result<i64, String> {
    chrono::DateTime::parse_from_rfc3339(s)
        .map(|t| t.timestamp_millis())
        .map_err(|e| format!("`{s}` is not an RFC 3339 time: {e}"))
}

impl MemoryJson {
    pub(crate) fn from_row(m: &MemoryRow, score: Option<f64>) -> Self {
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

/// `--chat` resolved against the database; `Ok(None)` when no filter was given.
async fn scope_of(store: &Store, chat: Option<&str>) -> anyhow::Result<Option<MemoryScope>> {
    let Some(chat) = chat else { return Ok(None) };
    if chat == "global" {
        return Ok(Some(MemoryScope::Global));
    }
    let key: ChatKey = chat.parse().map_err(|e| anyhow::anyhow!("--chat: {e}"))?;
    match store.find_chat(&key).await? {
        Some(row) => Ok(Some(MemoryScope::Chat(row.id))),
        None => anyhow::bail!("no chat named {key} in the database"),
    }
}

pub async fn run(config: &Config, store: &Store, cmd: MemoryCommand) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    match cmd {
        MemoryCommand::List {
            chat,
            category,
            archived,
            json,
        } => {
            let filter = MemoryFilter {
                scope: scope_of(store, chat.as_deref()).await?,
                category,
                include_archived: archived,
                limit: None,
            };
            let rows = store.list_memories(&filter).await?;
            for m in &rows {
                print_memory(&mut out, m, None, json)?;
            }
            if !json && rows.is_empty() {
                eprintln!("no memories");
            }
        }
        MemoryCommand::Search {
            query,
            chat,
            limit,
            json,
        } => {
            let scope = SearchScope::from_filter(scope_of(store, chat.as_deref()).await?);
            return super::search::run(config, store, scope, &query, limit, json).await;
        }
        MemoryCommand::Forget { id } => {
            if store.delete_memory(id).await? {
                writeln!(out, "forgot memory #{id}")?;
            } else {
                eprintln!("no memory #{id}");
                return Ok(ExitCode::from(1));
            }
        }
        MemoryCommand::Export { chat } => {
            let filter = MemoryFilter {
                scope: scope_of(store, chat.as_deref()).await?,
                include_archived: true,
                ..MemoryFilter::default()
            };
            for m in store.list_memories(&filter).await? {
                writeln!(
                    out,
                    "{}",
                    serde_json::to_string(&MemoryJson::from_row(&m, None))?
                )?;
            }
        }
        MemoryCommand::Import { file } => return import(store, &file).await,
    }
    Ok(ExitCode::SUCCESS)
}

pub(super) fn print_memory(
    out: &mut impl Write,
    m: &MemoryRow,
    score: Option<f64>,
    json: bool,
) -> anyhow::Result<()> {
    if json {
        writeln!(
            out,
            "{}",
            serde_json::to_string(&MemoryJson::from_row(m, score))?
        )?;
        return Ok(());
    }
    let score = score.map(|s| format!("score {s:.3}  ")).unwrap_or_default();
    let archived = if m.archived { "  [archived]" } else { "" };
    writeln!(
        out,
        "#{:<6} {score}{:<20} {:<9} conf {:.2}  {}  ({}, seen {}){archived}",
        m.id,
        m.chat_name(),
        m.category,
        m.confidence,
        m.content,
        serde_json::to_value(m.source)?.as_str().unwrap_or_default(),
        rfc3339(m.last_seen_at),
    )?;
    Ok(())
}

async fn import(store: &Store, file: &PathBuf) -> anyhow::Result<ExitCode> {
    let reader: Box<dyn BufRead> = if file.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let f =
            std::fs::File::open(file).with_context(|| format!("cannot open {}", file.display()))?;
        Box::new(std::io::BufReader::new(f))
    };
    let mut parsed = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in reader.lines().enumerate() {
        let line = line.with_context(|| format!("reading {}", file.display()))?;
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<MemoryJson>(&line)
            .map_err(|e| e.to_string())
            .and_then(validate)
        {
            Ok(m) => parsed.push((i + 1, m)),
            Err(e) => errors.push(format!("line {}: {e}", i + 1)),
        }
    }
    let mut memories = Vec::with_capacity(parsed.len());
    for (line, m) in parsed {
        let scope = if m.chat == "global" {
            MemoryScope::Global
        } else {
            let key: ChatKey = m
                .chat
                .parse()
                .map_err(|e| anyhow::anyhow!("line {line}: {e}"))?;
            let chat = match store.find_chat(&key).await? {
                Some(c) => c,
                None => store.ensure_chat(&key, false, None).await?,
            };
            MemoryScope::Chat(chat.id)
        };
        memories.push(NewMemory {
            scope,
            category: m.category,
            content: m.content,
            subject: m.subject,
            confidence: m.confidence,
            source: m.source,
            // message ids belong to the database they came from
            source_message_ids: Vec::new(),
            created_at: m
                .created_at
                .as_deref()
                .map(parse_time)
                .transpose()
                .map_err(anyhow::Error::msg)?,
            last_seen_at: m
                .last_seen_at
                .as_deref()
                .map(parse_time)
                .transpose()
                .map_err(anyhow::Error::msg)?,
            archived: m.archived,
            key: m.key,
        });
    }
    if !errors.is_empty() {
        for e in &errors {
            eprintln!("{}: {e}", file.display());
        }
        eprintln!(
            "nothing imported: fix the {} bad line(s) first",
            errors.len()
        );
        return Ok(ExitCode::from(1));
    }
    let inserted = store.import_memories(&memories).await?;
    println!(
        "imported {inserted} memories ({} already present, skipped)",
        memories.len() - inserted
    );
    Ok(ExitCode::SUCCESS)
}

fn validate(m: MemoryJson) -> Result<MemoryJson, String> {
    if m.content.trim().is_empty() {
        return Err("`content` is empty".into());
    }
    if !(0.0..=1.0).contains(&m.confidence) {
        return Err(format!(
            "`confidence` must be between 0 and 1, got {}",
            m.confidence
        ));
    }
    if m.chat != "global" {
        m.chat.parse::<ChatKey>().map_err(|e| e.to_string())?;
    }
    for t in [&m.created_at, &m.last_seen_at].into_iter().flatten() {
        parse_time(t)?;
    }
    Ok(m)
}
