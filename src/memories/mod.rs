//! The memory service: the one writer of structured memories. Every path — "remember …",
//! the model's memory tools, chat commands, the web console, `mneme memory import|forget`,
//! the reflector (through [`same_fact`] and [`gate`] inside its batch transaction) — asks
//! here, so every memory passes the same gate ([`gate`]), the same "is this a fact we already
//! hold?" decision ([`same_fact`], on `memory::identity`), the same permissions ([`Actor`]),
//! leaves a history, and wakes the embedding sync.
//!
//! `store/` keeps the SQL; `memory/` the pure algorithms; this module the rules.

mod actor;
pub mod candidates;
pub mod consolidate;
pub mod gate;
pub mod history;
pub mod import;
pub mod json;
pub mod retrieval;
pub mod same_fact;

use std::fmt;

pub use actor::Actor;
pub use gate::{MAX_MEMORY_CHARS, Refusal};

use crate::base::{Category, MemoryRow, MemoryScope, Source};
use crate::memories::retrieval::Retriever;
use crate::store::{NewMemory, Store};

/// A fact to remember.
#[derive(Debug, Clone)]
pub struct Remember {
    pub scope: MemoryScope,
    pub category: Category,
    pub content: String,
    /// A name unique among the scope's active memories (`memory_store{key}`): the key's
    /// holder is the fact this one replaces.
    pub key: Option<String>,
    pub source: Source,
    pub confidence: f64,
    pub source_message_ids: Vec<i64>,
    /// Who said it, where "I" is no one in particular (a person's "remember …" in a group):
    /// a fact about its speaker is stored under their name (`memory::remember::said_by`) and
    /// as theirs (the memory's subject), never merged with another member's.
    pub speaker: Option<Speaker>,
}

/// A group member, as the platform gives them.
#[derive(Debug, Clone, PartialEq)]
pub struct Speaker {
    pub name: String,
    /// The platform's id: what tells two members of one name apart.
    pub id: String,
}

/// What became of a fact.
#[derive(Debug, Clone, PartialEq)]
pub enum Remembered {
    /// A new memory; `replaced`, the memories it says the opposite of or gives a newer value
    /// than (archived, with the new one in their history: `mneme memory unarchive ID` brings
    /// one back).
    Stored {
        id: i64,
        content: String,
        replaced: Vec<same_fact::Replaced>,
    },
    /// The fact was already held (or the key's holder): that memory, reinforced, with the
    /// wording it keeps; `replaced` as for `Stored` (a denial or a value said since, now
    /// archived).
    Updated {
        id: i64,
        content: String,
        replaced: Vec<same_fact::Replaced>,
    },
}

/// Why the service said no.
#[derive(Debug)]
pub enum MemoryError {
    Refused(Refusal),
    /// No such memory, or none this actor may see.
    NotFound(i64),
    /// Seen but not changeable by this actor (a global memory outside a control chat).
    Forbidden(i64),
    /// A new global memory from an actor that may not write one.
    GlobalWrite,
    /// An edit would make the memory state the fact another one of its scope holds.
    SameAs(i64),
    Store(sqlx::Error),
}

impl fmt::Display for MemoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Refused(r) => write!(f, "not stored: {r}"),
            Self::NotFound(id) => write!(f, "no memory #{id} here"),
            Self::Forbidden(id) => write!(
                f,
                "memory #{id} is global; it can only be changed from a control chat (or the console with its token)"
            ),
            Self::GlobalWrite => f.write_str(
                "global memory can only be written from a control chat; store it for this chat",
            ),
            Self::SameAs(id) => write!(
                f,
                "memory #{id} states that fact already; change or forget that one instead"
            ),
            Self::Store(e) => write!(f, "database error: {e}"),
        }
    }
}

impl std::error::Error for MemoryError {}

impl From<sqlx::Error> for MemoryError {
    fn from(e: sqlx::Error) -> Self {
        Self::Store(e)
    }
}

/// The service: cheap to clone (the retriever is shared).
#[derive(Clone)]
pub struct Memories {
    retriever: Retriever,
}

impl Memories {
    pub fn new(retriever: Retriever) -> Self {
        Self { retriever }
    }

    pub fn store(&self) -> &Store {
        self.retriever.store()
    }

    pub fn retriever(&self) -> &Retriever {
        &self.retriever
    }

    /// Stores `fact` for `actor`: through the gate, then as an update of the fact already
    /// held (the key's holder, else the memory `same_fact` proves the same) or as a new
    /// memory. Wakes the embedding sync.
    pub async fn remember(&self, actor: &Actor, fact: Remember) -> Result<Remembered, MemoryError> {
        if !actor.may_change(fact.scope) {
            return Err(MemoryError::GlobalWrite);
        }
        let content = gate::check(&fact.content, actor.refuses_instructions(fact.source))
            .map_err(MemoryError::Refused)?;
        // Named after the gate, and through it again: a name may make a rule of a fact
        // ("The assistant: I always answer in French") or pass the length limit.
        let (content, subject) = match &fact.speaker {
            Some(who) => {
                let label = self.speaker_label(fact.scope, who).await?;
                let named = gate::check(
                    &crate::memory::remember::said_by(&content, &label),
                    actor.refuses_instructions(fact.source),
                )
                .map_err(MemoryError::Refused)?;
                (named, Some(who.id.clone()))
            }
            None => (content, None),
        };
        let store = self.store();
        let mut replacing = Vec::new();
        let existing = match &fact.key {
            Some(k) => store
                .memory_by_key(fact.scope, k)
                .await?
                .map(|id| (id, "the same key".to_string(), None)),
            None => {
                let held =
                    same_fact::examine(&self.retriever, fact.scope, &content, subject.as_deref())
                        .await?;
                replacing = held.replaced;
                held.same.map(|m| (m.id, m.reason, Some(m.stored)))
            }
        };
        // The newer statement of two that cannot both hold replaces the older.
        let replaced: Vec<(i64, String)> = replacing
            .iter()
            .map(|r| (r.id, r.why.to_string()))
            .collect();
        let outcome = match existing {
            Some((id, reason, stored)) => {
                // the key's holder takes the new wording; a fact held already keeps the more
                // specific of the two
                let wording = match &stored {
                    Some(old) => crate::memory::identity::more_specific(&content, old).to_string(),
                    None => content.clone(),
                };
                // the key's holder takes the new category too (an upsert)
                let category = fact.key.is_some().then_some(fact.category);
                store
                    .reinforce_memory(
                        id,
                        &wording,
                        category,
                        &content,
                        fact.confidence,
                        &fact.source_message_ids,
                        &reason,
                    )
                    .await?;
                if !replaced.is_empty() {
                    store.supersede_memories(id, fact.scope, &replaced).await?;
                }
                Remembered::Updated {
                    id,
                    content: wording,
                    replaced: replacing,
                }
            }
            None => {
                // inserted and replacing in one transaction
                let id = store
                    .insert_memory_replacing(
                        &NewMemory {
                            scope: fact.scope,
                            category: fact.category,
                            content: content.clone(),
                            subject,
                            confidence: fact.confidence,
                            source: fact.source,
                            source_message_ids: fact.source_message_ids,
                            created_at: None,
                            last_seen_at: None,
                            archived: false,
                            key: fact.key,
                        },
                        &replaced,
                    )
                    .await?;
                Remembered::Stored {
                    id,
                    content,
                    replaced: replacing,
                }
            }
        };
        self.retriever.memory_written();
        Ok(outcome)
    }

    /// How a group's memory names `who`: their name, with their id where it tells no one
    /// apart or where someone else in the chat wrote under the same name.
    async fn speaker_label(&self, scope: MemoryScope, who: &Speaker) -> sqlx::Result<String> {
        use crate::memory::remember::{speaker_label, speaker_label_with_id};
        let shared = match scope {
            MemoryScope::Chat(chat) => {
                self.store()
                    .sender_name_shared(chat, &who.name, &who.id)
                    .await?
            }
            MemoryScope::Global => false,
        };
        Ok(if shared {
            speaker_label_with_id(&who.name, &who.id)
        } else {
            speaker_label(&who.name, &who.id)
        })
    }

    /// Memory `id` as `actor` may see it.
    pub async fn get(&self, actor: &Actor, id: i64) -> Result<MemoryRow, MemoryError> {
        match self.store().get_memory(id).await? {
            Some(m) if actor.may_see(m.scope()) => Ok(m),
            _ => Err(MemoryError::NotFound(id)),
        }
    }

    /// Memory `id` as `actor` may change it.
    async fn changeable(&self, actor: &Actor, id: i64) -> Result<MemoryRow, MemoryError> {
        let m = self.get(actor, id).await?;
        if !actor.may_change(m.scope()) {
            return Err(MemoryError::Forbidden(id));
        }
        Ok(m)
    }

    /// Deletes memory `id` for good (a person's "forget"); the row as it was.
    pub async fn forget(&self, actor: &Actor, id: i64) -> Result<MemoryRow, MemoryError> {
        let m = self.changeable(actor, id).await?;
        if !self.store().delete_memory(id).await? {
            return Err(MemoryError::NotFound(id));
        }
        Ok(m)
    }

    /// Brings back archived memory `id` (undoes a merge or an archive).
    pub async fn unarchive(&self, actor: &Actor, id: i64) -> Result<MemoryRow, MemoryError> {
        let m = self.changeable(actor, id).await?;
        if !self.store().unarchive_memory(id).await? {
            return Ok(m);
        }
        self.retriever.memory_written();
        self.get(actor, id).await
    }

    /// A person's correction of memory `id`: new wording and/or category, through the gate.
    pub async fn edit(
        &self,
        actor: &Actor,
        id: i64,
        content: Option<&str>,
        category: Option<Category>,
    ) -> Result<MemoryRow, MemoryError> {
        let m = self.changeable(actor, id).await?;
        let content = match content {
            Some(c) => gate::check(c, actor.refuses_instructions(m.source))
                .map_err(MemoryError::Refused)?,
            None => m.content.clone(),
        };
        // Two memories stating one fact would be a duplicate made by hand.
        if content != m.content
            && let Some(same) =
                same_fact::find(&self.retriever, m.scope(), &content, m.subject.as_deref()).await?
            && same.id != id
        {
            return Err(MemoryError::SameAs(same.id));
        }
        let updated = self
            .store()
            .edit_memory(id, &content, category.unwrap_or(m.category))
            .await?
            .ok_or(MemoryError::NotFound(id))?;
        // new words need a new embedding (the edit queued it): now, not at the next poll
        self.retriever.memory_written();
        Ok(updated)
    }
}

#[cfg(test)]
mod tests;
