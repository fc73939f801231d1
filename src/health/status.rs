//! Which channels are connected to their platform right now, for `GET /healthz` and the
//! `mneme_channel_up` metric.
//!
//! `mneme start` registers every enabled channel as expected (not yet connected); each
//! channel then reports when it is connected (Telegram after getMe, Discord on the gateway's
//! READY or RESUMED, the web server once it listens) and when it is not (persistent errors,
//! a lost gateway). A channel never registered is not expected, so it does not count.

use std::collections::BTreeMap;
use std::sync::Mutex;

use crate::metrics::metrics;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChannelState {
    /// Registered, not connected yet.
    Starting,
    Connected,
    /// Was or could not get connected; why, in words fit for a health check (no secrets).
    Down(String),
    /// Ready, while another replica does this channel's one-at-a-time work (why, in words).
    Standby(String),
}

impl ChannelState {
    /// Connected, or standing by for another replica: either way as it should be.
    pub fn is_up(&self) -> bool {
        matches!(self, Self::Connected | Self::Standby(_))
    }
}

/// The registry; one per agent, shared by its channels.
#[derive(Debug, Default)]
pub struct ChannelStatus {
    states: Mutex<BTreeMap<&'static str, ChannelState>>,
}

impl ChannelStatus {
    /// `channel` is enabled: health is not good until it reports connected.
    pub fn expect(&self, channel: &'static str) {
        self.set(channel, ChannelState::Starting);
    }

    pub fn connected(&self, channel: &'static str) {
        self.set(channel, ChannelState::Connected);
    }

    pub fn standby(&self, channel: &'static str, why: impl Into<String>) {
        self.set(channel, ChannelState::Standby(why.into()));
    }

    pub fn down(&self, channel: &'static str, why: impl Into<String>) {
        self.set(channel, ChannelState::Down(why.into()));
    }

    /// Every expected channel and its state, by name.
    pub fn snapshot(&self) -> BTreeMap<&'static str, ChannelState> {
        self.lock().clone()
    }

    fn set(&self, channel: &'static str, state: ChannelState) {
        let mut states = self.lock();
        if states.get(channel) != Some(&state) {
            metrics().set_channel_up(channel, state.is_up());
            states.insert(channel, state);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<&'static str, ChannelState>> {
        // A panic while holding this lock cannot leave the map half-written.
        self.states.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_channel_is_up_only_once_it_says_so() {
        let s = ChannelStatus::default();
        assert!(s.snapshot().is_empty());
        s.expect("telegram");
        assert_eq!(s.snapshot()["telegram"], ChannelState::Starting);
        s.connected("telegram");
        assert!(s.snapshot()["telegram"].is_up());
        s.down("telegram", "getUpdates failing");
        assert_eq!(
            s.snapshot()["telegram"],
            ChannelState::Down("getUpdates failing".into())
        );
    }
}
