//! Mneme: a self-hosted chat-bot daemon that remembers.
//!
//! Data path: a channel (`channels`) turns a platform update into an
//! [`agent::IncomingMessage`]; the [`agent::Agent`] stores it (`store`), builds a prompt from
//! file and structured memory (`memory`), asks the model (`llm`) and hands the reply back to
//! the channel. In the background, the `reflector` turns stored conversations into structured
//! memories. See ARCHITECTURE.md for the map and the invariants.

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
