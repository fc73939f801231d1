//! Meaning checks on a config that has the right shape.

use std::fmt;
use std::net::IpAddr;

use super::Config;
use crate::base::ChatKey;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// One thing wrong (or worth knowing) about the config, with the key it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub severity: Severity,
    /// Dotted key path, e.g. `channels.telegram.bot_token`; empty for the file as a whole.
    pub key: String,
    pub message: String,
}

impl Problem {
    pub fn error(key: &str, message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Error,
            key: key.to_string(),
            message: message.into(),
        }
    }
    pub fn warning(key: &str, message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Warning,
            key: key.to_string(),
            message: message.into(),
        }
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        if self.key.is_empty() {
            write!(f, "{level}: {}", self.message)
        } else {
            write!(f, "{level}: {}: {}", self.key, self.message)
        }
    }
}

pub(super) fn check(c: &Config) -> Vec<Problem> {
    let mut out = Vec::new();
    check_llm(c, &mut out);
    check_limits(c, &mut out);
    check_memory(c, &mut out);
    check_schedules(c, &mut out);
    check_embeddings(c, &mut out);
    check_reflector(c, &mut out);
    check_search(c, &mut out);
    check_channels(c, &mut out);
    out
}

fn check_llm(c: &Config, out: &mut Vec<Problem>) {
    let provider = c.llm_provider.as_str();
    if !matches!(provider, "openai" | "anthropic") {
        out.push(Problem::error(
            "llm_provider",
            format!(
                "must be `openai` (any OpenAI-compatible endpoint) or `anthropic`, got `{provider}`"
            ),
        ));
    }
    if c.model.trim().is_empty() {
        out.push(Problem::error(
            "model",
            "required: the model name your endpoint serves, e.g. `gpt-4o-mini`, `llama3.2` or `claude-sonnet-4-5`",
        ));
    }
    let base = c.llm_base_url.trim();
    let host_is_local = if base.is_empty() {
        false
    } else {
        match parse_http_url(base) {
            Ok(url) => {
                // The endpoint itself pasted as the base: every call would go to it twice over.
                let path = url.path().trim_end_matches('/');
                if let Some(endpoint) = ["/chat/completions", "/messages"]
                    .into_iter()
                    .find(|e| path.ends_with(e))
                {
                    out.push(Problem::error(
                        "llm_base_url",
                        format!(
                            "is the base URL, without `{endpoint}` (Mneme adds it), e.g. `{}`",
                            base.trim_end_matches('/').trim_end_matches(endpoint)
                        ),
                    ));
                }
                url.host_str().is_some_and(is_local_host)
            }
            Err(msg) => {
                out.push(Problem::error("llm_base_url", msg));
                true
            }
        }
    };
    if c.api_key.is_empty() && !host_is_local {
        let target = if base.is_empty() {
            format!("the {provider} API")
        } else {
            base.to_string()
        };
        out.push(Problem::error(
            "api_key",
            format!(
                "required for {target}; set it here or in MNEME_API_KEY (a server on this machine or your private network needs none)"
            ),
        ));
    }
}

fn check_limits(c: &Config, out: &mut Vec<Problem>) {
    let ranges: [(&str, u64, u64, u64); 8] = [
        ("max_tokens", c.max_tokens.into(), 1, 1_000_000),
        ("max_tool_iterations", c.max_tool_iterations.into(), 1, 100),
        (
            "max_history_messages",
            c.max_history_messages.into(),
            1,
            1000,
        ),
        (
            "max_history_chars",
            c.max_history_chars.into(),
            1000,
            10_000_000,
        ),
        ("llm_timeout_secs", c.llm_timeout_secs, 1, 3600),
        ("llm_max_retries", c.llm_max_retries.into(), 0, 10),
        (
            "group_rate_limit_per_min",
            c.group_rate_limit_per_min.into(),
            0,
            10_000,
        ),
        (
            "reflector_interval_mins",
            c.reflector_interval_mins.into(),
            1,
            10_080,
        ),
    ];
    check_ranges(&ranges, out);
    if let Some(problem) = database_url_problem(c.database_url.trim()) {
        out.push(Problem::error("database_url", problem));
    }
}

/// What is wrong with a `database_url`, if anything: empty (SQLite in data_dir),
/// `sqlite://PATH` or `postgres://USER:PASSWORD@HOST[:PORT]/DATABASE` are accepted.
pub fn database_url_problem(url: &str) -> Option<String> {
    const FORMS: &str = "use sqlite://PATH, postgres://USER:PASSWORD@HOST:PORT/DATABASE, \
        or leave it empty for SQLite in data_dir";
    if url.is_empty() || url.starts_with("sqlite:") {
        return None;
    }
    let shown = crate::config::redact_url_password(url);
    if crate::base::Backend::of_url(url) != crate::base::Backend::Postgres {
        return Some(format!(
            "`{shown}` is not a database this build opens: {FORMS}"
        ));
    }
    match url::Url::parse(url) {
        Err(e) => Some(format!("`{shown}` is not a URL ({e}): {FORMS}")),
        Ok(u) if u.host_str().is_none_or(str::is_empty) => {
            Some(format!("`{shown}` names no server: {FORMS}"))
        }
        Ok(u) if u.path().trim_matches('/').is_empty() => {
            Some(format!("`{shown}` names no database: {FORMS}"))
        }
        Ok(_) => None,
    }
}

/// The schedules cron expressions (or empty), `schedule_timezone` a known zone.
fn check_schedules(c: &Config, out: &mut Vec<Problem>) {
    for (key, expr) in [
        ("reflector_schedule", &c.reflector_schedule),
        ("lifecycle_schedule", &c.lifecycle_schedule),
        ("backup_schedule", &c.backup_schedule),
    ] {
        if !expr.trim().is_empty()
            && let Err(e) = super::cron::parse_cron(expr)
        {
            out.push(Problem::error(key, e));
        }
    }
    if let Err(e) = super::cron::parse_timezone(&c.schedule_timezone) {
        out.push(Problem::error("schedule_timezone", e));
    }
}

/// The shortest token a web server reachable from other machines accepts.
const MIN_OPEN_TOKEN_CHARS: usize = 24;

fn check_memory(c: &Config, out: &mut Vec<Problem>) {
    for (i, chat) in c.control_chat_ids.iter().enumerate() {
        match chat.parse::<ChatKey>() {
            Err(e) => out.push(Problem::error(
                &format!("control_chat_ids[{i}]"),
                e.to_string(),
            )),
            // Without a token, any process that reaches the web port speaks as any web chat:
            // it must not be able to write global memory.
            Ok(key) if key.channel == "web" && c.channels.web.auth_token.is_empty() => {
                out.push(Problem::error(
                    &format!("control_chat_ids[{i}]"),
                    format!(
                        "`{chat}` is a web chat, and without channels.web.auth_token anyone who \
                         reaches the web port can speak as it; set the token (or \
                         MNEME_WEB_AUTH_TOKEN) or remove this entry"
                    ),
                ))
            }
            Ok(_) => {}
        }
    }
}

/// `embedding_*`: a known provider, a usable URL, a key for a remote OpenAI endpoint, and
/// for `local` a model folder that holds the model's files.
fn check_embeddings(c: &Config, out: &mut Vec<Problem>) {
    use super::model_files::{self, LocalModel};
    let provider = c.embedding_provider.as_str();
    if !matches!(provider, "none" | "openai" | "ollama" | "local") {
        out.push(Problem::error(
            "embedding_provider",
            format!("must be one of none, openai, ollama, local; got `{provider}`"),
        ));
    }
    let base = c.embedding_base_url.trim();
    let host_is_local = match parse_http_url(base) {
        _ if base.is_empty() => provider == "ollama",
        Ok(url) => url.host_str().is_some_and(is_local_host),
        Err(msg) => {
            out.push(Problem::error("embedding_base_url", msg));
            true
        }
    };
    if provider == "openai" && c.embedding_api_key.is_empty() && !host_is_local {
        let target = if base.is_empty() {
            "the OpenAI API"
        } else {
            base
        };
        out.push(Problem::error(
            "embedding_api_key",
            format!("required for {target}; set it here or in MNEME_EMBEDDING_API_KEY (a server on this machine or your private network needs none)"),
        ));
    }
    if c.embedding_dim > 65_536 {
        out.push(Problem::error(
            "embedding_dim",
            format!(
                "must be between 0 (the model's own) and 65536, got {}",
                c.embedding_dim
            ),
        ));
    }
    if provider != "local" {
        return;
    }
    if !cfg!(feature = "local-embeddings") {
        out.push(Problem::error("embedding_provider", model_files::NOT_BUILT));
    }
    match LocalModel::from_config(c) {
        LocalModel::Default { .. } => {
            if ![0, 384].contains(&c.embedding_dim) {
                out.push(Problem::error(
                    "embedding_dim",
                    format!(
                        "all-MiniLM-L6-v2 makes 384-dimensional vectors; set 384 or 0, not {}",
                        c.embedding_dim
                    ),
                ));
            }
        }
        model @ LocalModel::Folder { .. } => {
            let missing = model_files::missing_files(model.dir());
            if !missing.is_empty() {
                out.push(Problem::error(
                    "embedding_model",
                    format!(
                        "the model folder {} lacks {}; {}",
                        model.dir().display(),
                        missing.join(", "),
                        model.hint()
                    ),
                ));
            }
        }
    }
}

fn check_search(c: &Config, out: &mut Vec<Problem>) {
    let s = &c.search;
    check_ranges(
        &[
            ("search.rrf_k", s.rrf_k.into(), 1, 1000),
            ("search.half_life_days", s.half_life_days.into(), 1, 36_500),
            ("search.candidates", s.candidates.into(), 5, 1000),
        ],
        out,
    );
    if !(0.0..=1.0).contains(&s.mmr_lambda) {
        out.push(Problem::error(
            "search.mmr_lambda",
            format!("must be a number from 0 to 1, got {}", s.mmr_lambda),
        ));
    }
    if !s.bm25 && !s.vector {
        out.push(Problem::error(
            "search",
            "bm25 and vector are both off, so nothing could ever be found; turn one on",
        ));
    } else if !s.bm25 && c.embedding_provider == "none" {
        out.push(Problem::warning(
            "search.bm25",
            "off while embedding_provider is none: memories are found by neither ranking, so only recent ones reach the prompt",
        ));
    }
}

/// Whole-number keys with their allowed ranges: (key, value, min, max).
fn check_ranges(ranges: &[(&str, u64, u64, u64)], out: &mut Vec<Problem>) {
    for &(key, value, min, max) in ranges {
        if value < min || value > max {
            out.push(Problem::error(
                key,
                format!("must be between {min} and {max}, got {value}"),
            ));
        }
    }
}

/// The reflector's batching and the memory lifecycle: whole numbers and fractions in range.
fn check_reflector(c: &Config, out: &mut Vec<Problem>) {
    let ranges: [(&str, u64, u64, u64); 13] = [
        (
            "reflector_batch_messages",
            c.reflector_batch_messages.into(),
            1,
            500,
        ),
        (
            "reflector_batch_tokens",
            c.reflector_batch_tokens.into(),
            200,
            200_000,
        ),
        (
            "reflector_concurrency",
            c.reflector_concurrency.into(),
            1,
            32,
        ),
        (
            "reflector_context_memories",
            c.reflector_context_memories.into(),
            0,
            200,
        ),
        (
            "reflector_backoff_max_mins",
            c.reflector_backoff_max_mins.into(),
            1,
            43_200,
        ),
        (
            "reflector_max_parse_failures",
            c.reflector_max_parse_failures.into(),
            1,
            100,
        ),
        ("backup_keep", c.backup_keep.into(), 1, 1000),
        ("log_retention_days", c.log_retention_days.into(), 0, 36_500),
        (
            "memory_half_life_days",
            c.memory_half_life_days.into(),
            1,
            36_500,
        ),
        (
            "memory_profile_half_life_days",
            c.memory_profile_half_life_days.into(),
            1,
            36_500,
        ),
        (
            "memory_archive_after_days",
            c.memory_archive_after_days.into(),
            0,
            36_500,
        ),
        (
            "memory_max_per_chat",
            c.memory_max_per_chat.into(),
            0,
            10_000_000,
        ),
        (
            "memory_max_total",
            c.memory_max_total.into(),
            0,
            100_000_000,
        ),
    ];
    check_ranges(&ranges, out);
    // Similarity thresholds used to decide that two facts were one; fact identity decides now.
    let defaults = Config::default();
    for (key, set, default) in [
        (
            "reflector_dedup_threshold",
            c.reflector_dedup_threshold,
            defaults.reflector_dedup_threshold,
        ),
        (
            "reflector_dedup_cosine_threshold",
            c.reflector_dedup_cosine_threshold,
            defaults.reflector_dedup_cosine_threshold,
        ),
    ] {
        if set != default {
            out.push(Problem::warning(
                key,
                "is no longer used: whether a fact is one already stored is decided by what the facts say, not by a similarity threshold (README: \"Fact identity\"); remove the key",
            ));
        }
    }
    let fractions = [(
        "memory_archive_below_confidence",
        c.memory_archive_below_confidence,
        0.0,
    )];
    for (key, value, min) in fractions {
        if !(min..=1.0).contains(&value) {
            out.push(Problem::error(
                key,
                format!("must be a number from {min} to 1, got {value}"),
            ));
        }
    }
    if c.memory_profile_half_life_days < c.memory_half_life_days {
        out.push(Problem::warning(
            "memory_profile_half_life_days",
            "is shorter than memory_half_life_days: PROFILE memories (who someone is) will fade faster than passing facts",
        ));
    }
}

fn check_channels(c: &Config, out: &mut Vec<Problem>) {
    let tg = &c.channels.telegram;
    let dc = &c.channels.discord;
    // (name, enabled, token missing, api_url, answer_backlog_mins) of the bot platforms
    for (name, enabled, no_token, api_url, backlog_mins) in [
        (
            "telegram",
            tg.enabled,
            tg.bot_token.is_empty(),
            &tg.api_url,
            tg.answer_backlog_mins,
        ),
        (
            "discord",
            dc.enabled,
            dc.bot_token.is_empty(),
            &dc.api_url,
            dc.answer_backlog_mins,
        ),
    ] {
        if enabled && no_token {
            out.push(Problem::error(
                &format!("channels.{name}.bot_token"),
                format!(
                    "required when the channel is enabled; set it here or in MNEME_{}_BOT_TOKEN",
                    name.to_uppercase()
                ),
            ));
        }
        if let Err(msg) = parse_http_url(api_url) {
            out.push(Problem::error(&format!("channels.{name}.api_url"), msg));
        }
        if backlog_mins > 7 * 24 * 60 {
            out.push(Problem::error(
                &format!("channels.{name}.answer_backlog_mins"),
                format!("must be at most 10080 (a week), got {backlog_mins}"),
            ));
        }
    }
    for (key, ids) in [
        ("allowed_channels", &dc.allowed_channels),
        ("allowed_user_ids", &dc.allowed_user_ids),
    ] {
        for (i, id) in ids.iter().enumerate() {
            if id != "*" && !id.parse::<u64>().is_ok_and(|n| n > 0) {
                out.push(Problem::error(
                    &format!("channels.discord.{key}[{i}]"),
                    format!("`{id}` is not a Discord id (a number: turn on Developer Mode in Discord's settings, then right-click → Copy ID), nor \"*\""),
                ));
            }
        }
    }
    let web = &c.channels.web;
    if web.port == 0 {
        out.push(Problem::error(
            "channels.web.port",
            "must be between 1 and 65535",
        ));
    }
    let loopback = match web.host.trim() {
        "localhost" => true,
        host => match host.parse::<IpAddr>() {
            Ok(ip) => ip.is_loopback(),
            Err(_) => {
                out.push(Problem::error(
                    "channels.web.host",
                    format!("must be an IP address or `localhost`, got `{host}`"),
                ));
                true
            }
        },
    };
    if web.enabled && !loopback && web.auth_token.is_empty() {
        out.push(Problem::error(
            "channels.web.auth_token",
            "required when channels.web.host is not a loopback address; set it here or in MNEME_WEB_AUTH_TOKEN",
        ));
    } else if web.enabled
        && !loopback
        && web.auth_token.expose().chars().count() < MIN_OPEN_TOKEN_CHARS
    {
        out.push(Problem::error(
            "channels.web.auth_token",
            format!(
                "too short for a server on a non-loopback address: use at least \
                 {MIN_OPEN_TOKEN_CHARS} random characters, e.g. `openssl rand -hex 24`"
            ),
        ));
    }
    check_telegram_webhook(tg, out);
    if !(tg.enabled || dc.enabled || web.enabled) {
        out.push(Problem::warning(
            "channels",
            "no channel is enabled: `mneme start` has nothing to serve (`mneme chat` needs none)",
        ));
    }
}

/// `channels.telegram.mode` and, for a webhook, where Telegram calls, with what secret, and
/// where the server listens. The URL and the secret are checked whenever they are set.
fn check_telegram_webhook(tg: &super::TelegramConfig, out: &mut Vec<Problem>) {
    const MODES: [&str; 2] = ["polling", "webhook"];
    let mode = tg.mode.trim();
    if !MODES.contains(&mode) {
        let hint = match crate::base::suggest::closest(mode, MODES) {
            Some(meant) => format!("; did you mean `{meant}`?"),
            None => String::new(),
        };
        out.push(Problem::error(
            "channels.telegram.mode",
            format!("must be `polling` or `webhook`, got `{mode}`{hint}"),
        ));
    }
    let webhook = tg.is_webhook();
    let url = tg.webhook_url.trim();
    if url.is_empty() {
        if webhook {
            out.push(Problem::error(
                "channels.telegram.webhook_url",
                "required when mode is webhook: the public https:// URL Telegram sends updates to",
            ));
        }
    } else {
        match parse_http_url(url) {
            Err(msg) => out.push(Problem::error("channels.telegram.webhook_url", msg)),
            Ok(u)
                if webhook
                    && u.scheme() == "http"
                    && tg.api_url.trim_end_matches('/') == "https://api.telegram.org" =>
            {
                out.push(Problem::warning(
                    "channels.telegram.webhook_url",
                    "Telegram calls only https:// webhooks; put a reverse proxy with TLS in front of webhook_listen",
                ));
            }
            Ok(_) => {}
        }
    }
    let secret = tg.webhook_secret.expose();
    if secret.is_empty() {
        if webhook {
            out.push(Problem::error(
                "channels.telegram.webhook_secret",
                "required when mode is webhook (1 to 256 characters of A-Z, a-z, 0-9, _ and -); \
                 set it here or in MNEME_TELEGRAM_WEBHOOK_SECRET, e.g. to `openssl rand -hex 32`",
            ));
        }
    } else if let Err(msg) = webhook_secret_ok(secret) {
        // The message never quotes the secret.
        out.push(Problem::error("channels.telegram.webhook_secret", msg));
    }
    let listen = tg.webhook_listen.trim();
    match listen.parse::<std::net::SocketAddr>() {
        Err(_) => out.push(Problem::error(
            "channels.telegram.webhook_listen",
            format!("must be an IP address and a port, e.g. 127.0.0.1:10962 or 0.0.0.0:8443; got `{listen}`"),
        )),
        Ok(addr) if addr.port() == 0 => out.push(Problem::error(
            "channels.telegram.webhook_listen",
            "the port must be between 1 and 65535",
        )),
        Ok(_) => {}
    }
}

/// Telegram's rule for a webhook's secret token: 1 to 256 characters of `A-Z a-z 0-9 _ -`.
fn webhook_secret_ok(secret: &str) -> Result<(), String> {
    let chars = secret.chars().count();
    if chars > 256 {
        return Err(format!(
            "must be at most 256 characters (Telegram's limit), got {chars}"
        ));
    }
    if !secret
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(
            "may only hold the characters A-Z, a-z, 0-9, _ and - (Telegram's rule)".to_string(),
        );
    }
    Ok(())
}

fn parse_http_url(s: &str) -> Result<url::Url, String> {
    let url = url::Url::parse(s).map_err(|e| format!("not a valid URL (`{s}`): {e}"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!("must be an http:// or https:// URL, got `{s}`"));
    }
    Ok(url)
}

/// Loopback and private-network hosts: servers that usually need no API key.
fn is_local_host(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if host.eq_ignore_ascii_case("localhost") || host.ends_with(".local") {
        return true;
    }
    match host.parse::<IpAddr>() {
        Ok(IpAddr::V4(ip)) => ip.is_loopback() || ip.is_private() || ip.is_link_local(),
        Ok(IpAddr::V6(ip)) => ip.is_loopback() || (ip.segments()[0] & 0xfe00) == 0xfc00,
        Err(_) => false,
    }
}
