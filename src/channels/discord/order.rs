//! Discord's order within a channel, kept across serenity's event tasks.
//!
//! serenity runs each gateway event's handler as a task of its own, so two messages of one
//! channel delivered back to back can reach the intake loop in either order: on a busy
//! machine the tasks start in any order, and a message whose channel is being looked up
//! (`places`) waits for the lookup while a later one may not. serenity's collectors, though,
//! are called in the shard's own loop, in the gateway's order, before the event's task is
//! spawned. So a collector notes each message as it comes ([`Lineup::collector`]), the
//! event's task strikes it off as it hands it to the intake ([`Lineup::deliver`]), and the
//! intake holds a message back while an older message of its channel is still on its way
//! ([`Lineup::take_ready`]). Other channels' messages are not held.
//!
//! A message that came before the collector was added (it is added at each READY, from the
//! READY's own task) is not noted: nothing waits for it, as before this lineup existed.

use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serenity::gateway::CollectorCallback;
use serenity::model::event::Event;
use serenity::model::id::{ChannelId, MessageId};
use tokio::sync::mpsc;

use super::Arrival;

/// A message held back this long is let through: the older one it waits for was lost on its
/// way (its task ended without handing it over). Longer than a channel's lookup may take.
pub(super) const HOLD_AT_MOST: Duration = Duration::from_secs(15);

/// Messages the gateway delivered whose event task has not handed them to the intake yet.
pub(super) struct Lineup {
    on_the_way: Mutex<HashMap<ChannelId, BTreeSet<MessageId>>>,
    intake: mpsc::UnboundedSender<Arrival>,
    /// The collector now in use: each READY adds one, and the older ones remove themselves.
    generation: AtomicU64,
}

/// A message the intake took in and holds, with when it took it.
pub(super) struct Held {
    pub arrival: Arrival,
    pub since: Instant,
}

impl Held {
    pub fn new(arrival: Arrival, since: Instant) -> Self {
        Self { arrival, since }
    }
}

/// Moves what `intake` has queued into `held`, as taken in at `now`; true when there was any.
pub(super) fn hold_queued(
    intake: &mut mpsc::UnboundedReceiver<Arrival>,
    held: &mut Vec<Held>,
    now: Instant,
) -> bool {
    let before = held.len();
    while let Ok(arrival) = intake.try_recv() {
        held.push(Held::new(arrival, now));
    }
    held.len() > before
}

impl Lineup {
    pub fn new(intake: mpsc::UnboundedSender<Arrival>) -> Self {
        Self {
            on_the_way: Mutex::default(),
            intake,
            generation: AtomicU64::new(0),
        }
    }

    /// A collector that notes every MESSAGE_CREATE in the gateway's order. For each READY: a
    /// shard that had to start afresh has no collector, and one that did not keeps the older
    /// one, which removes itself at the next event.
    pub fn collector(self: &Arc<Self>) -> CollectorCallback {
        let generation = self.generation.fetch_add(1, Ordering::SeqCst) + 1;
        let lineup = Arc::downgrade(self);
        CollectorCallback(Box::new(move |event| {
            let Some(lineup) = lineup.upgrade() else {
                return false;
            };
            if lineup.generation.load(Ordering::SeqCst) != generation {
                return false;
            }
            if let Event::MessageCreate(e) = event {
                lineup.note(e.message.channel_id, e.message.id);
            }
            true
        }))
    }

    fn note(&self, channel: ChannelId, id: MessageId) {
        self.lock().entry(channel).or_default().insert(id);
    }

    /// Hands `arrival` to the intake and strikes it off, both under the lock the intake reads
    /// under: the intake sees a message either on its way or in its queue, never neither.
    /// False only once the intake has closed (at shutdown).
    pub fn deliver(&self, arrival: Arrival) -> bool {
        let mut on_the_way = self.lock();
        let (channel, id) = (arrival.0.channel_id, arrival.0.id);
        strike_off(&mut on_the_way, channel, |other| other == id);
        self.intake.send(arrival).is_ok()
    }

    /// Takes what `intake` holds into `held` and moves out what may go now: each message
    /// none of whose channel's older messages is still on its way, or that was held
    /// [`HOLD_AT_MOST`] (then nothing older of its channel is waited for any more).
    pub fn take_ready(
        &self,
        intake: &mut mpsc::UnboundedReceiver<Arrival>,
        held: &mut Vec<Held>,
        now: Instant,
    ) -> Vec<Arrival> {
        let mut on_the_way = self.lock();
        hold_queued(intake, held, now);
        let mut ready = Vec::new();
        for h in std::mem::take(held) {
            let (channel, id) = (h.arrival.0.channel_id, h.arrival.0.id);
            let waits_for_older = (on_the_way.get(&channel))
                .and_then(BTreeSet::first)
                .is_some_and(|oldest| *oldest < id);
            if !waits_for_older {
                ready.push(h.arrival);
            } else if now.duration_since(h.since) >= HOLD_AT_MOST {
                tracing::warn!(
                    %channel,
                    message = %id,
                    "discord: an older message of the channel never reached the intake; going on without it"
                );
                strike_off(&mut on_the_way, channel, |older| older < id);
                ready.push(h.arrival);
            } else {
                held.push(h);
            }
        }
        ready
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<ChannelId, BTreeSet<MessageId>>> {
        self.on_the_way.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// When the first of `held` is to be let through at the latest.
pub(super) fn hold_ends(held: &[Held]) -> Option<Instant> {
    held.iter().map(|h| h.since + HOLD_AT_MOST).min()
}

fn strike_off(
    on_the_way: &mut HashMap<ChannelId, BTreeSet<MessageId>>,
    channel: ChannelId,
    which: impl Fn(MessageId) -> bool,
) {
    if let Some(ids) = on_the_way.get_mut(&channel) {
        ids.retain(|id| !which(*id));
        if ids.is_empty() {
            on_the_way.remove(&channel);
        }
    }
}

#[cfg(test)]
mod tests {
    use serenity::model::channel::Message;

    use super::*;

    fn message(channel: u64, id: u64) -> Arrival {
        let mut m = Message::default();
        m.channel_id = ChannelId::new(channel);
        m.id = MessageId::new(id);
        (m, None)
    }

    fn ids(arrivals: &[Arrival]) -> Vec<u64> {
        arrivals.iter().map(|(m, _)| m.id.get()).collect()
    }

    fn lineup() -> (Arc<Lineup>, mpsc::UnboundedReceiver<Arrival>) {
        let (tx, rx) = mpsc::unbounded_channel();
        (Arc::new(Lineup::new(tx)), rx)
    }

    /// A later message of a channel handed over first waits for the older one; another
    /// channel's message does not; both go once the older one is in.
    #[test]
    fn a_message_waits_for_an_older_one_of_its_channel_only() {
        let (lineup, mut rx) = lineup();
        let mut held = Vec::new();
        let now = Instant::now();
        for (channel, id) in [(1, 10), (1, 11), (2, 12)] {
            lineup.note(ChannelId::new(channel), MessageId::new(id));
        }
        assert!(lineup.deliver(message(1, 11)));
        assert!(lineup.deliver(message(2, 12)));
        let ready = lineup.take_ready(&mut rx, &mut held, now);
        assert_eq!((ids(&ready), held.len()), (vec![12], 1));

        assert!(lineup.deliver(message(1, 10)));
        let ready = lineup.take_ready(&mut rx, &mut held, now);
        assert_eq!((ids(&ready), held.len()), (vec![11, 10], 0));
        assert!(lineup.lock().is_empty(), "nothing is left on its way");
    }

    /// A message nobody noted (one from before the collector, or fetched over REST) waits for
    /// nothing, and one whose older message never comes goes after [`HOLD_AT_MOST`], after
    /// which newer ones do not wait for the lost one either.
    #[test]
    fn unnoted_messages_go_at_once_and_a_lost_one_is_waited_for_only_so_long() {
        let (lineup, mut rx) = lineup();
        let mut held = Vec::new();
        let now = Instant::now();
        assert!(lineup.deliver(message(1, 5)));
        assert_eq!(ids(&lineup.take_ready(&mut rx, &mut held, now)), [5]);

        lineup.note(ChannelId::new(1), MessageId::new(20));
        lineup.note(ChannelId::new(1), MessageId::new(21));
        assert!(lineup.deliver(message(1, 21)));
        assert!(lineup.take_ready(&mut rx, &mut held, now).is_empty());
        assert_eq!(hold_ends(&held), Some(now + HOLD_AT_MOST));
        let almost = now + HOLD_AT_MOST - Duration::from_millis(1);
        assert!(lineup.take_ready(&mut rx, &mut held, almost).is_empty());
        let ready = lineup.take_ready(&mut rx, &mut held, now + HOLD_AT_MOST);
        assert_eq!((ids(&ready), held.len()), (vec![21], 0));

        lineup.note(ChannelId::new(1), MessageId::new(22));
        assert!(lineup.deliver(message(1, 22)));
        assert_eq!(ids(&lineup.take_ready(&mut rx, &mut held, now)), [22]);
    }

    /// The collector notes MESSAGE_CREATEs only, and a newer collector (the next READY)
    /// retires the older one.
    #[test]
    fn the_collector_notes_messages_and_gives_way_to_a_newer_one() {
        let (lineup, _rx) = lineup();
        let create = |channel: u64, id: u64| {
            let json = serde_json::json!({
                "id": id.to_string(), "channel_id": channel.to_string(), "content": "hi",
                "author": {"id": "7", "username": "u", "discriminator": "0000", "avatar": null},
                "timestamp": "2026-11-29T12:00:00.000000+00:00", "tts": false,
                "mention_everyone": false, "mentions": [], "mention_roles": [],
                "attachments": [], "embeds": [], "pinned": false, "type": 0
            });
            Event::MessageCreate(serde_json::from_value(json).unwrap())
        };
        let first = lineup.collector();
        assert!((first.0)(&create(1, 30)));
        assert_eq!(lineup.lock()[&ChannelId::new(1)].len(), 1);
        let second = lineup.collector();
        assert!(!(first.0)(&create(1, 31)), "the older collector retires");
        assert!((second.0)(&create(1, 31)));
        assert_eq!(lineup.lock()[&ChannelId::new(1)].len(), 2);
    }
}
