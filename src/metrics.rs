//! Process-wide Prometheus metrics, served by the web channel at `GET /metrics`.
//!
//! One typed registry for the process (a daemon is one bot), filled at a few central points:
//! the agent counts messages and times turns (`agent/mod.rs`), [`crate::llm::Metered`] times
//! every model call, the reflector's schedule records its passes, and the `/metrics` handler
//! reads the memory pool and channel states at scrape time. Every metric family is declared
//! here, so its name and help text are in one place.
//!
//! `prometheus-client` rather than the `metrics` facade: the registry is a plain value with a
//! typed field per family (a misspelt name does not compile into a new metric), no global
//! recorder has to be installed once per process (tests start many bots in one process), and
//! it needs no HTTP listener of its own — it encodes onto our axum router.

use std::sync::LazyLock;
use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

/// The content type of [`Metrics::encode`]'s output (OpenMetrics text, which Prometheus reads).
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ChannelLabel {
    pub channel: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ReplyLabels {
    pub channel: String,
    /// model | remembered | command | error
    pub kind: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct LlmLabels {
    pub provider: String,
    /// chat | reflector
    pub purpose: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct LlmErrorLabels {
    pub provider: String,
    pub purpose: String,
    /// status | timeout | network | invalid_response
    pub error: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct OutcomeLabel {
    /// ok | llm_error | parse_error | store_error | interrupted
    pub outcome: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct FactLabel {
    /// extracted | inserted | updated | superseded | skipped
    pub result: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct StateLabel {
    /// active | archived | low_confidence
    pub state: String,
}

type Histograms<L> = Family<L, Histogram, fn() -> Histogram>;

/// Turns and model calls: 10 ms to ~80 s.
fn latency_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.01, 2.0, 14))
}

/// Reflector passes: 50 ms to ~7 min.
fn pass_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.05, 2.0, 14))
}

pub struct Metrics {
    registry: Registry,
    pub messages_received: Family<ChannelLabel, Counter>,
    pub replies_sent: Family<ReplyLabels, Counter>,
    pub turn_duration: Histograms<ChannelLabel>,
    pub llm_duration: Histograms<LlmLabels>,
    pub llm_errors: Family<LlmErrorLabels, Counter>,
    pub reflector_pass_duration: Histogram,
    pub reflector_chat_runs: Family<OutcomeLabel, Counter>,
    pub reflector_facts: Family<FactLabel, Counter>,
    pub memories: Family<StateLabel, Gauge>,
    pub channel_up: Family<ChannelLabel, Gauge>,
}

static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);

/// The process's metrics.
pub fn metrics() -> &'static Metrics {
    &METRICS
}

impl Metrics {
    fn new() -> Self {
        let mut m = Self {
            registry: Registry::default(),
            messages_received: Family::default(),
            replies_sent: Family::default(),
            turn_duration: Family::new_with_constructor(latency_histogram),
            llm_duration: Family::new_with_constructor(latency_histogram),
            llm_errors: Family::default(),
            reflector_pass_duration: pass_histogram(),
            reflector_chat_runs: Family::default(),
            reflector_facts: Family::default(),
            memories: Family::default(),
            channel_up: Family::default(),
        };
        let r = &mut m.registry;
        // Counters get their `_total` suffix from the encoder.
        r.register(
            "mneme_messages_received",
            "Messages stored from users, by channel",
            m.messages_received.clone(),
        );
        r.register(
            "mneme_replies_sent",
            "Replies the agent produced, by channel and kind",
            m.replies_sent.clone(),
        );
        r.register(
            "mneme_turn_duration_seconds",
            "Time to answer one message (command, remember, or model turn with its tool calls)",
            m.turn_duration.clone(),
        );
        r.register(
            "mneme_llm_request_duration_seconds",
            "Duration of one model call, successful or not, by provider and purpose",
            m.llm_duration.clone(),
        );
        r.register(
            "mneme_llm_errors",
            "Model calls that failed (after the client's retries), by provider, purpose and error",
            m.llm_errors.clone(),
        );
        r.register(
            "mneme_reflector_pass_duration_seconds",
            "Duration of one scheduled reflector pass",
            m.reflector_pass_duration.clone(),
        );
        r.register(
            "mneme_reflector_chat_runs",
            "Chats taken by reflector passes, by outcome",
            m.reflector_chat_runs.clone(),
        );
        r.register(
            "mneme_reflector_facts",
            "Facts handled by reflector passes: extracted, then inserted / updated / superseded / skipped",
            m.reflector_facts.clone(),
        );
        r.register(
            "mneme_memories",
            "Structured memories by state, read at scrape time (low_confidence: active, below 0.5)",
            m.memories.clone(),
        );
        r.register(
            "mneme_channel_up",
            "1 when an enabled channel is connected to its platform, else 0",
            m.channel_up.clone(),
        );
        m
    }

    /// The registry in the text exposition format.
    pub fn encode(&self) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut out, &self.registry);
        out
    }

    pub fn message_received(&self, channel: &str) {
        self.messages_received
            .get_or_create(&ChannelLabel {
                channel: channel.to_string(),
            })
            .inc();
    }

    pub fn turn_done(&self, channel: &str, kind: &str, took: Duration) {
        self.replies_sent
            .get_or_create(&ReplyLabels {
                channel: channel.to_string(),
                kind: kind.to_string(),
            })
            .inc();
        self.turn_duration
            .get_or_create(&ChannelLabel {
                channel: channel.to_string(),
            })
            .observe(took.as_secs_f64());
    }

    pub fn llm_call(&self, provider: &str, purpose: &str, took: Duration, error: Option<&str>) {
        let labels = LlmLabels {
            provider: provider.to_string(),
            purpose: purpose.to_string(),
        };
        self.llm_duration
            .get_or_create(&labels)
            .observe(took.as_secs_f64());
        if let Some(error) = error {
            self.llm_errors
                .get_or_create(&LlmErrorLabels {
                    provider: labels.provider,
                    purpose: labels.purpose,
                    error: error.to_string(),
                })
                .inc();
        }
    }

    /// A finished scheduled pass and how long it took.
    pub fn reflector_pass(&self, took: Duration) {
        self.reflector_pass_duration.observe(took.as_secs_f64());
    }

    /// One chat taken by a pass: its outcome (ok | llm_error | parse_error | store_error |
    /// interrupted) and how many facts it handled, by result.
    pub fn reflector_chat_run(&self, outcome: &str, facts: &[(&str, i64)]) {
        self.reflector_chat_runs
            .get_or_create(&OutcomeLabel {
                outcome: outcome.into(),
            })
            .inc();
        for &(result, n) in facts {
            self.reflector_facts
                .get_or_create(&FactLabel {
                    result: result.into(),
                })
                .inc_by(u64::try_from(n).unwrap_or(0));
        }
    }

    /// The memory pool as counted now (active, archived, active with low confidence).
    pub fn set_memory_counts(&self, active: i64, archived: i64, low_confidence: i64) {
        for (state, n) in [
            ("active", active),
            ("archived", archived),
            ("low_confidence", low_confidence),
        ] {
            self.memories
                .get_or_create(&StateLabel {
                    state: state.into(),
                })
                .set(n);
        }
    }

    pub fn set_channel_up(&self, channel: &str, up: bool) {
        self.channel_up
            .get_or_create(&ChannelLabel {
                channel: channel.to_string(),
            })
            .set(i64::from(up));
    }
}
