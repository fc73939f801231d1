//! `mneme memory list|search|forget|export|import`.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use super::print::print_memory;
use crate::base::{Category, ChatKey, MemoryScope};
use crate::config::Config;
use crate::memories::import::{ImportError, ImportLine, embed_all};
use crate::memories::retrieval::Retriever;
use crate::memories::{Actor, Memories, MemoryError};
use crate::store::{MemoryFilter, NewMemory, SearchScope, Store};
use anyhow::Context;
use clap::Subcommand;

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
        /// How many to show, 1 to 1000
        #[arg(long, default_value_t = 10, value_name = "N", value_parser = limit)]
        limit: usize,
        #[arg(long)]
        json: bool,
    },
    /// One memory with its history (created, reinforced, merged, reworded, superseded,
    /// archived) and the messages it came from
    Show {
        id: i64,
        #[arg(long)]
        json: bool,
    },
    /// Delete one memory for good
    Forget { id: i64 },
    /// Bring back an archived memory (undo a merge, a supersede or an archive)
    Unarchive { id: i64 },
    /// Write memories as JSON Lines to stdout (archived ones included)
    Export {
        #[arg(long, value_name = "CHANNEL:ID")]
        chat: Option<String>,
    },
    /// Read memories from a JSON Lines file (`-` for stdin); exact duplicates are skipped
    Import { file: PathBuf },
}

use crate::memories::json::MemoryJson;

fn parse_time(s: &str) -> Result<i64, String> {
    chrono::DateTime::parse_from_rfc3339(s)
        .map(|t| t.timestamp_millis())
        .map_err(|e| format!("`{s}` is not an RFC 3339 time: {e}"))
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
    let mut out = super::print::Visible(std::io::stdout().lock());
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
                offset: 0,
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
        MemoryCommand::Show { id, json } => {
            let memories = Memories::new(Retriever::new(config, store.clone(), None));
            let e = match memories.explain(&Actor::Operator, id).await {
                Ok(e) => e,
                Err(MemoryError::NotFound(_)) => {
                    eprintln!("no memory #{id}");
                    return Ok(ExitCode::from(1));
                }
                Err(e) => return Err(e.into()),
            };
            if json {
                writeln!(out, "{}", serde_json::to_string(&e)?)?;
            } else {
                print_explained(&mut out, &e)?;
            }
        }
        MemoryCommand::Unarchive { id } => {
            let memories = Memories::new(Retriever::new(config, store.clone(), None));
            match memories.unarchive(&Actor::Operator, id).await {
                Ok(m) => writeln!(out, "memory #{id} is active again: {}", m.content)?,
                Err(MemoryError::NotFound(_)) => {
                    eprintln!("no memory #{id}");
                    return Ok(ExitCode::from(1));
                }
                Err(e) => return Err(e.into()),
            }
        }
        MemoryCommand::Forget { id } => {
            let memories = Memories::new(Retriever::new(config, store.clone(), None));
            match memories.forget(&Actor::Operator, id).await {
                Ok(_) => writeln!(out, "forgot memory #{id}")?,
                Err(MemoryError::NotFound(_)) => {
                    eprintln!("no memory #{id}");
                    return Ok(ExitCode::from(1));
                }
                Err(e) => return Err(e.into()),
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
        MemoryCommand::Import { file } => return import(config, store, &file).await,
    }
    Ok(ExitCode::SUCCESS)
}

fn print_explained(
    out: &mut impl Write,
    e: &crate::memories::history::Explained,
) -> anyhow::Result<()> {
    let m = &e.memory;
    let state = if m.archived { "archived" } else { "active" };
    writeln!(
        out,
        "#{}  {}  {}  conf {:.2}  {state}",
        m.id.unwrap_or_default(),
        m.chat,
        m.category,
        m.confidence
    )?;
    writeln!(out, "  {}", m.content)?;
    let source = serde_json::to_value(m.source)?;
    let mut facts = vec![format!("source: {}", source.as_str().unwrap_or_default())];
    if let Some(k) = &m.key {
        facts.push(format!("key: {k}"));
    }
    if let Some(s) = &m.subject {
        facts.push(format!("about: {s}"));
    }
    if let Some(t) = &m.last_seen_at {
        facts.push(format!("seen {t}"));
    }
    if let Some(id) = m.supersedes_id {
        facts.push(format!("replaces #{id}"));
    }
    if let Some(id) = e.superseded_by {
        facts.push(format!("replaced by #{id}"));
    }
    writeln!(out, "  {}", facts.join(", "))?;
    writeln!(out, "History:")?;
    for h in &e.history {
        writeln!(out, "  {}", h.line())?;
    }
    if e.sources.is_empty() {
        writeln!(
            out,
            "Sources: none stored (imported, or the messages were deleted)"
        )?;
    } else {
        writeln!(out, "Sources:")?;
        for s in &e.sources {
            writeln!(out, "  #{}  {}  {}: {}", s.id, s.at, s.sender, s.text)?;
        }
    }
    Ok(())
}

async fn import(config: &Config, store: &Store, file: &PathBuf) -> anyhow::Result<ExitCode> {
    let reader: Box<dyn BufRead> = if file.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let f =
            std::fs::File::open(file).with_context(|| format!("cannot open {}", file.display()))?;
        Box::new(std::io::BufReader::new(f))
    };
    let mut lines = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in reader.lines().enumerate() {
        let line = line.with_context(|| format!("reading {}", file.display()))?;
        if line.trim().is_empty() {
            continue;
        }
        let parsed = serde_json::from_str::<serde_json::Value>(&line).and_then(|v| {
            let states_explicit = v.get("source").and_then(|s| s.as_str()) == Some("explicit");
            serde_json::from_value::<MemoryJson>(v).map(|m| (m, states_explicit))
        });
        match parsed
            .map_err(|e| e.to_string())
            .and_then(|(m, states_explicit)| Ok((validate(m)?, states_explicit)))
            .and_then(|(m, states_explicit)| import_line(i + 1, m, states_explicit))
        {
            Ok(l) => lines.push(l),
            Err(e) => errors.push((i + 1, format!("line {}: {e}", i + 1))),
        }
    }
    let memories = Memories::new(Retriever::new(
        config,
        store.clone(),
        super::embedder(config).await,
    ));
    if !errors.is_empty() {
        // Every line's trouble at once: the gate's refusals of the lines that could be read
        // too, in line order.
        let refused = match memories.refused_lines(lines).await {
            Ok(refused) => refused,
            Err(ImportError::Store(e)) => return Err(e.into()),
            Err(ImportError::Refused(refused)) => refused,
        };
        let mut all: Vec<(usize, String)> = errors;
        all.extend(
            refused
                .iter()
                .map(|(line, why)| (*line, format!("line {line}: refused: {why}"))),
        );
        all.sort_by_key(|(line, _)| *line);
        for (_, e) in &all {
            eprintln!("{}: {e}", file.display());
        }
        eprintln!("nothing imported: fix the {} bad line(s) first", all.len());
        return Ok(ExitCode::from(1));
    }
    let total = lines.len();
    let started = std::time::Instant::now();
    let imported = match memories.import(lines).await {
        Ok(i) => i,
        Err(ImportError::Refused(refused)) => {
            for (line, why) in &refused {
                eprintln!("{}: line {line}: refused: {why}", file.display());
            }
            eprintln!(
                "nothing imported: {} of {total} line(s) refused by the memory gate; remove them and import again",
                refused.len()
            );
            return Ok(ExitCode::from(1));
        }
        Err(ImportError::Store(e)) => return Err(e.into()),
    };
    println!(
        "imported {} memories ({} already present, skipped) in {:.1} s",
        imported.inserted,
        imported.skipped,
        started.elapsed().as_secs_f64()
    );
    if memories.retriever().embedder().is_some() {
        let started = std::time::Instant::now();
        let terminal = std::io::stderr().is_terminal();
        let embedded = embed_all(&memories, |done, total| {
            if terminal {
                eprint!("\rembedding: {done}/{total}");
            }
        })
        .await;
        if terminal {
            eprintln!();
        }
        match embedded {
            Ok(n) => println!(
                "embedded {n} memories in {:.1} s: search ranks them by meaning now",
                started.elapsed().as_secs_f64()
            ),
            Err(e) => eprintln!(
                "warning: embedding stopped ({e}); `mneme start` embeds the rest, keyword search works meanwhile"
            ),
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A valid line as the memory service takes it.
fn import_line(line: usize, m: MemoryJson, states_explicit: bool) -> Result<ImportLine, String> {
    let chat = if m.chat == "global" {
        None
    } else {
        Some(m.chat.parse::<ChatKey>().map_err(|e| e.to_string())?)
    };
    Ok(ImportLine {
        line,
        chat,
        states_explicit,
        memory: NewMemory {
            scope: MemoryScope::Global,
            category: m.category,
            content: m.content,
            subject: m.subject,
            confidence: m.confidence,
            source: m.source,
            // message ids belong to the database they came from
            source_message_ids: Vec::new(),
            created_at: m.created_at.as_deref().map(parse_time).transpose()?,
            last_seen_at: m.last_seen_at.as_deref().map(parse_time).transpose()?,
            archived: m.archived,
            key: m.key,
        },
    })
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

/// `--limit`: 1 to 1000 (0 would show nothing and say nothing matched).
fn limit(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n @ 1..=1000) => Ok(n),
        _ => Err("a whole number from 1 to 1000".into()),
    }
}
