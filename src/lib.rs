//! Mneme: a self-hosted chat-bot daemon that remembers.
//!
//! Data path: a channel (`channels`) turns a platform update into an
//! [`agent::IncomingMessage`]; the [`agent::Agent`] stores it (`store`), builds a prompt from
//! file and structured memory (`memory`), asks the model (`llm`) and hands the reply back to
//! the channel. In the background, the `reflector` turns stored conversations into structured
//! memories. See ARCHITECTURE.md for the map and the invariants.

/// `timeline!(chat, "stage")`: a message of `chat` (its platform id) reached `stage`. Logged
/// under the target `mneme::timeline` at `trace`, off unless `MNEME_LOG` turns it on; the load
/// bench reads these lines (`benches/support/timeline.rs`) to show where a message's time goes.
macro_rules! timeline {
    ($chat:expr, $stage:literal) => {
        tracing::trace!(target: "mneme::timeline", chat = %$chat, $stage)
    };
}

pub mod agent;
pub mod backup;
pub mod base;
pub mod channels;
pub mod cli;
pub mod config;
pub mod embed;
pub mod health;
pub mod llm;
pub mod memories;
pub mod memory;
pub mod metrics;
pub mod reflector;

pub mod schedule;
pub mod store;
