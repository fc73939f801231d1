//! `mneme memory import`: every line through the gate before anything touches the database
//! (all or nothing: one refused line imports nothing and creates no chat) — the same gate as
//! the memory met when it was stored: a person's own "remember …" (`source: explicit`) in a
//! private chat may be a standing wish, anything else that reads as an instruction is refused
//! — then one
//! transaction; exact repeats of what a scope holds are skipped, so importing twice is
//! harmless. The caller then embeds what came in ([`embed_all`]) so that search ranks it by
//! meaning at once.

use std::collections::BTreeMap;

use super::{Actor, Memories, Refusal, gate};
use crate::base::{ChatKey, MemoryScope};
use crate::memories::retrieval::sync;
use crate::store::NewMemory;

/// One line of the file, parsed: the chat it belongs to (`None` = global) and the memory.
/// The memory's `scope` is set here, once its chat is known.
#[derive(Debug, Clone)]
pub struct ImportLine {
    pub line: usize,
    pub chat: Option<ChatKey>,
    pub memory: NewMemory,
    /// The line says `"source": "explicit"` itself (as an export writes it), rather than
    /// taking it by default: only then may an instruction-like memory of a private chat come
    /// back in.
    pub states_explicit: bool,
}

/// What an import did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Imported {
    pub inserted: usize,
    /// Exact repeats of a memory the scope holds.
    pub skipped: usize,
}

#[derive(Debug)]
pub enum ImportError {
    /// Lines the gate refused, each with its line number and reason; nothing was imported.
    Refused(Vec<(usize, Refusal)>),
    Store(sqlx::Error),
}

impl From<sqlx::Error> for ImportError {
    fn from(e: sqlx::Error) -> Self {
        Self::Store(e)
    }
}

impl Memories {
    /// Imports `lines` for the operator, all or nothing.
    pub async fn import(&self, lines: Vec<ImportLine>) -> Result<Imported, ImportError> {
        let (checked, refused) = self.gate_lines(lines).await?;
        if !refused.is_empty() {
            return Err(ImportError::Refused(refused));
        }
        self.import_checked(checked).await
    }

    /// The lines the memory gate refuses, each with its line number and reason; nothing is
    /// written. So a file with unreadable lines too is answered about every line at once.
    pub async fn refused_lines(
        &self,
        lines: Vec<ImportLine>,
    ) -> Result<Vec<(usize, Refusal)>, ImportError> {
        Ok(self.gate_lines(lines).await?.1)
    }

    /// `lines` through the gate: those it lets in, with their content as it will be stored,
    /// and those it refuses.
    async fn gate_lines(
        &self,
        lines: Vec<ImportLine>,
    ) -> Result<(Vec<ImportLine>, Vec<(usize, Refusal)>), ImportError> {
        // Which chats are private: there a person's own "remember …" may be a standing wish,
        // and its line comes back in as it went out (an export round-trips).
        let mut private: BTreeMap<String, bool> = BTreeMap::new();
        for key in lines.iter().filter_map(|l| l.chat.as_ref()) {
            if let std::collections::btree_map::Entry::Vacant(e) = private.entry(key.to_string()) {
                let known = self.store().find_chat(key).await?;
                e.insert(known.map_or_else(|| surely_private(key), |c| !c.is_group));
            }
        }
        let mut refused = Vec::new();
        let mut checked = Vec::with_capacity(lines.len());
        for mut l in lines {
            let actor = match &l.chat {
                Some(key) if private[&key.to_string()] && l.states_explicit => Actor::Chat {
                    chat_id: 0,
                    is_group: false,
                    is_control: false,
                },
                _ => Actor::Operator,
            };
            match gate::check(
                &l.memory.content,
                actor.refuses_instructions(l.memory.source),
            ) {
                Ok(content) => {
                    l.memory.content = content;
                    checked.push(l);
                }
                Err(r) => refused.push((l.line, r)),
            }
        }
        Ok((checked, refused))
    }

    async fn import_checked(&self, checked: Vec<ImportLine>) -> Result<Imported, ImportError> {
        // Chats only now: a refused file creates none.
        let mut chats: BTreeMap<String, i64> = BTreeMap::new();
        for l in &checked {
            if let Some(key) = &l.chat
                && !chats.contains_key(&key.to_string())
            {
                // A chat new to the database is a group unless its name says it is private
                // (a Telegram group's id is negative; a Discord channel may be either): made
                // private, it would let the next import bring a standing instruction into a
                // group's memory. Its first message sets what it is.
                let row = match self.store().find_chat(key).await? {
                    Some(c) => c,
                    None => {
                        self.store()
                            .ensure_chat(key, !surely_private(key), None)
                            .await?
                    }
                };
                chats.insert(key.to_string(), row.id);
            }
        }
        let memories: Vec<NewMemory> = checked
            .into_iter()
            .map(|mut l| {
                l.memory.scope = match &l.chat {
                    Some(key) => MemoryScope::Chat(chats[&key.to_string()]),
                    None => MemoryScope::Global,
                };
                l.memory
            })
            .collect();
        let inserted = self.store().import_memories(&memories).await?;
        self.retriever.memory_written();
        Ok(Imported {
            inserted,
            skipped: memories.len() - inserted,
        })
    }
}

/// A chat not in the database that is private by its very name: the terminal's and the web
/// chat's, and a Telegram chat with a positive id (groups' are negative). A Discord channel
/// may be either.
fn surely_private(key: &ChatKey) -> bool {
    match key.channel.as_str() {
        "cli" | "web" => true,
        "telegram" => key.external_id.parse::<i64>().is_ok_and(|id| id > 0),
        _ => false,
    }
}

/// Embeds every queued memory now (after an import), calling `progress(done, total)` after
/// each batch. Without an embedder, nothing to do.
pub async fn embed_all(
    memories: &Memories,
    mut progress: impl FnMut(usize, usize),
) -> Result<usize, String> {
    let retriever = memories.retriever();
    if retriever.embedder().is_none() {
        return Ok(0);
    }
    sync::queue_stale(retriever).await?;
    let total = usize::try_from(
        memories
            .store()
            .embedding_queue_len()
            .await
            .map_err(|e| e.to_string())?,
    )
    .unwrap_or(0);
    let mut done = 0;
    loop {
        let round = sync::embed_pending(retriever, sync::BATCH * 8).await?;
        done += round.embedded;
        progress(done.min(total), total);
        if round.embedded == 0 || round.left == 0 {
            return Ok(done);
        }
    }
}
