//! The reflector: turns conversations into structured memories in the background, without
//! relying on the model to call a tool.
//!
//! A pass ([`Reflector::run_pass`]) takes every chat with messages after its cursor (several
//! at once, up to `reflector_concurrency`) and works off its backlog batch by batch
//! (`chat.rs`): cut a batch bounded in messages and tokens (`batch.rs`), show it to the model
//! with the chat's most similar memories (`prompt.rs`), read the JSON strictly (`parse.rs`),
//! drop what must not be stored (`gate.rs`), find each fact's sources and subject
//! (`attribute.rs`), then store the facts — dedup, reinforce, supersede (`apply.rs`) — and
//! move the cursor in ONE transaction. A failure leaves the cursor where it was and backs the
//! chat off; the batch is retried, never skipped. After the chats, the lifecycle sweep
//! archives what has faded or overflows the caps (`lifecycle.rs`). `schedule.rs` runs passes
//! every `reflector_interval_mins`; `mneme reflect` runs one now.
//!
//! Time is a parameter (`now` in Unix ms) everywhere, so tests drive backoff and decay with
//! their own clock.

mod apply;
mod attribute;
mod batch;
mod chat;
pub mod gate;
mod lifecycle;
pub mod parse;
mod prompt;

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use tokio_util::sync::CancellationToken;

pub use apply::Dedup;
pub use gate::{MAX_FACT_CHARS, Rejection};
pub use lifecycle::{
    CONFIDENCE_CAP, INITIAL_CONFIDENCE, LifecycleReport, Policy, REINFORCE_STEP,
    sweep as lifecycle_sweep,
};
pub use parse::{ParseError, Parsed, RawFact, parse_answer};

use crate::base::ChatKey;
use crate::config::Config;
use crate::llm::LlmProvider;
use crate::memories::retrieval::Retriever;
use crate::store::{DueChat, RunStats, Store};

/// The reflector's knobs, read once from the config.
#[derive(Debug, Clone)]
pub struct Settings {
    pub interval: Duration,
    pub batch_messages: u32,
    pub batch_tokens: usize,
    pub concurrency: usize,
    pub context_memories: usize,
    pub backoff_max_ms: i64,
    /// Unreadable answers in a row before a batch is set aside.
    pub max_parse_failures: i64,
    /// `reflector_model`, or `model` when that is empty.
    pub model: String,
    pub max_tokens: u32,
    pub policy: Policy,
    /// Sweep after every pass (no `lifecycle_schedule` of its own).
    pub sweep_with_pass: bool,
}

impl Settings {
    pub fn from_config(c: &Config) -> Self {
        Self {
            interval: Duration::from_secs(u64::from(c.reflector_interval_mins.max(1)) * 60),
            batch_messages: c.reflector_batch_messages.max(1),
            batch_tokens: c.reflector_batch_tokens as usize,
            concurrency: c.reflector_concurrency.max(1) as usize,
            context_memories: c.reflector_context_memories as usize,
            backoff_max_ms: i64::from(c.reflector_backoff_max_mins) * 60_000,
            max_parse_failures: i64::from(c.reflector_max_parse_failures.max(1)),
            model: c.reflector_model().to_string(),
            max_tokens: c.max_tokens,
            policy: Policy::from_config(c),
            sweep_with_pass: c.lifecycle_schedule.trim().is_empty(),
        }
    }

    /// How long a chat waits after its `failures`-th failure in a row: one interval (so the
    /// next scheduled pass retries it), doubling with each further failure, capped.
    pub fn backoff_ms(&self, failures: i64) -> i64 {
        let interval = i64::try_from(self.interval.as_millis()).unwrap_or(i64::MAX);
        let doublings = (failures - 1).clamp(0, 40) as u32;
        interval
            .saturating_mul(2i64.saturating_pow(doublings))
            .min(self.backoff_max_ms)
    }
}

/// Which chats a pass takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// Every chat with new messages whose backoff has passed.
    Due,
    /// This chat, now, backoff or not.
    Chat(ChatKey),
}

/// Why a chat's pass stopped before catching up. Texts name the cause, never message content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The model could not be reached or answered with an error.
    Llm(String),
    /// The model answered, but not with the JSON asked for.
    Parse(String),
    /// The database refused the batch.
    Store(String),
    /// Reading the batch met a bug (a panic, contained): the batch is retried, and set aside
    /// like one the model keeps answering unreadably.
    Bug(String),
    /// Shutdown came first; not the chat's fault, so no backoff.
    Interrupted,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Llm(e) => write!(f, "LLM call failed: {e}"),
            Self::Parse(e) => write!(f, "{e}"),
            Self::Store(e) => write!(f, "database error: {e}"),
            Self::Bug(e) => write!(f, "{e}"),
            Self::Interrupted => {
                f.write_str("interrupted by shutdown; the batch is retried next pass")
            }
        }
    }
}

/// What a pass did in one chat.
#[derive(Debug, Clone)]
pub struct ChatReport {
    pub chat: ChatKey,
    pub stats: RunStats,
    /// Batches stored.
    pub batches: usize,
    /// Batches set aside after too many unreadable answers (the cursor moved past them).
    pub set_aside: usize,
    pub failure: Option<Failure>,
    /// After a failure: when the chat is due again.
    pub retry_at: Option<i64>,
    /// Every message up to the newest is reflected.
    pub caught_up: bool,
}

/// What one pass did.
#[derive(Debug, Clone, Default)]
pub struct PassReport {
    /// The chats taken, by name.
    pub chats: Vec<ChatReport>,
    /// Chats with new messages left alone because they back off, with when they are due.
    pub backing_off: Vec<(ChatKey, i64)>,
    pub lifecycle: LifecycleReport,
    /// The lifecycle sweep failed (the chats' results stand).
    pub lifecycle_error: Option<String>,
    /// What the consolidation pass after the sweep merged and replaced.
    pub consolidated: crate::memories::consolidate::Consolidated,
}

impl PassReport {
    /// Some chat was taken and every one failed.
    pub fn all_failed(&self) -> bool {
        !self.chats.is_empty() && self.chats.iter().all(|c| c.failure.is_some())
    }
}

/// Runs passes over one database with one model.
pub struct Reflector {
    store: Store,
    retriever: Retriever,
    llm: Arc<dyn LlmProvider>,
    settings: Settings,
}

impl Reflector {
    /// A reflector comparing facts by their terms (no embedder).
    /// The database it reflects from and writes to.
    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn new(config: &Config, store: Store, llm: Arc<dyn LlmProvider>) -> Self {
        Self::with_retriever(config, Retriever::new(config, store, None), llm)
    }

    /// A reflector comparing facts by meaning when `retriever` has an embedder.
    pub fn with_retriever(
        config: &Config,
        retriever: Retriever,
        llm: Arc<dyn LlmProvider>,
    ) -> Self {
        Self {
            store: retriever.store().clone(),
            retriever,
            llm,
            settings: Settings::from_config(config),
        }
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// One pass at time `now` (Unix ms): the target's chats, then the lifecycle sweep
    /// (`mneme reflect`).
    /// `cancel` stops it between batches (and abandons an LLM call in flight); what was
    /// committed stays, the rest is retried next pass. Errors only when the chats cannot be
    /// listed or the named chat does not exist.
    pub async fn run_pass(
        &self,
        target: &Target,
        now: i64,
        cancel: &CancellationToken,
    ) -> anyhow::Result<PassReport> {
        self.pass(target, now, cancel, true).await
    }

    /// A pass of the daemon's schedule: the chats that are due, and the sweep unless it has a
    /// schedule of its own.
    pub async fn scheduled_pass(
        &self,
        now: i64,
        cancel: &CancellationToken,
    ) -> anyhow::Result<PassReport> {
        self.pass(&Target::Due, now, cancel, self.settings.sweep_with_pass)
            .await
    }

    async fn pass(
        &self,
        target: &Target,
        now: i64,
        cancel: &CancellationToken,
        sweep: bool,
    ) -> anyhow::Result<PassReport> {
        let mut report = PassReport::default();
        let todo: Vec<DueChat> = match target {
            Target::Due => {
                let mut due = Vec::new();
                for d in self.store.chats_with_new_messages().await? {
                    if d.state.next_attempt_at <= now {
                        due.push(d);
                    } else {
                        report
                            .backing_off
                            .push((d.chat.key(), d.state.next_attempt_at));
                    }
                }
                due
            }
            Target::Chat(key) => {
                let chat = self
                    .store
                    .find_chat(key)
                    .await?
                    .ok_or_else(|| anyhow::anyhow!("no chat named {key} in the database"))?;
                let state = self.store.reflector_state(chat.id).await?;
                vec![DueChat { chat, state }]
            }
        };
        report.chats = futures_util::stream::iter(todo)
            .map(|due| chat::reflect(self, due, now, cancel))
            .buffer_unordered(self.settings.concurrency)
            .collect()
            .await;
        report.chats.sort_by(|a, b| a.chat.cmp(&b.chat));
        if sweep && !cancel.is_cancelled() {
            match lifecycle::sweep(&self.store, &self.settings.policy, now).await {
                Ok(l) => report.lifecycle = l,
                Err(e) => {
                    tracing::warn!(error = %e, "memory lifecycle sweep failed");
                    report.lifecycle_error = Some(e.to_string());
                }
            }
            match crate::memories::Memories::new(self.retriever.clone())
                .consolidate_all()
                .await
            {
                Ok(done) => report.consolidated = done,
                Err(e) => {
                    tracing::warn!(error = %e, "memory consolidation failed");
                    report.lifecycle_error = Some(e.to_string());
                }
            }
        }
        Ok(report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_starts_at_one_interval_doubles_and_caps() {
        let mut s = Settings::from_config(&Config::default());
        s.interval = Duration::from_secs(15 * 60);
        s.backoff_max_ms = 6 * 3_600_000;
        let mins = |n| s.backoff_ms(n) / 60_000;
        assert_eq!([mins(1), mins(2), mins(3), mins(4)], [15, 30, 60, 120]);
        assert_eq!(mins(6), 360);
        assert_eq!(mins(1_000), 360);
        assert_eq!(mins(0), 15);
    }
}
