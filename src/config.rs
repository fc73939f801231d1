//! Configuration: `config.yaml` plus `MNEME_*` secret overrides.
//!
//! Loading never stops at the first mistake: the YAML is first walked against the shape of
//! [`Config::default`] (unknown keys, wrong types), then deserialized, then checked for
//! meaning (missing tokens, bad URLs, …). Every problem carries the key path it is about, so
//! `mneme check-config` can print them all at once.

pub mod cron;
pub mod model_files;
mod schema;
mod validate;

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub use validate::{Problem, Severity, database_url_problem};

/// The file used when neither `--config` nor `$MNEME_CONFIG` names one.
pub const DEFAULT_CONFIG_PATH: &str = "config.yaml";

/// Environment variables that override secrets from the file (env wins).
pub const SECRET_ENV_VARS: &[&str] = &[
    "MNEME_API_KEY",
    "MNEME_TELEGRAM_BOT_TOKEN",
    "MNEME_TELEGRAM_WEBHOOK_SECRET",
    "MNEME_DISCORD_BOT_TOKEN",
    "MNEME_EMBEDDING_API_KEY",
    "MNEME_WEB_AUTH_TOKEN",
    "MNEME_DATABASE_URL",
];

/// `url` with its password, if any, shown as `***` (for logs and messages). Read as text, not
/// parsed, so that a mistyped URL (`postgres//…`, `postgres:/…`) or a password holding `@`,
/// `:` or `/` is hidden too: in the credentials (what comes before the last `@`, past the
/// scheme), whatever follows the first `:` is replaced.
pub fn redact_url_password(url: &str) -> String {
    let Some(at) = url.rfind('@') else {
        return url.to_string();
    };
    // The scheme as typed (`postgres`), then `:` and `/`s (`://`, `:/`, `//`).
    let name = url
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
        .unwrap_or(at);
    let after_colon = name + usize::from(url[name..].starts_with(':'));
    let slashes = url[after_colon..at]
        .find(|c| c != '/')
        .unwrap_or(at - after_colon);
    // No `/` after the name: no scheme either (`user:password@host`).
    let credentials = if slashes > 0 {
        after_colon + slashes
    } else {
        0
    };
    match url[credentials..at].find(':') {
        Some(colon) => format!("{}:***{}", &url[..credentials + colon], &url[at..]),
        // A user name alone.
        None => url.to_string(),
    }
}

/// A string that must never be printed: `Debug` and `Display` show only whether it is set.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }
    pub fn expose(&self) -> &str {
        &self.0
    }
    pub fn is_empty(&self) -> bool {
        self.0.trim().is_empty()
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.is_empty() {
            "<unset>"
        } else {
            "<redacted>"
        })
    }
}

impl Serialize for Secret {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Only used to derive the schema from the defaults; never to write a real config out.
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Secret {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(Secret)
    }
}

/// An allowlist entry or chat id: YAML may write `123` or `"123"`; both become a string.
fn deserialize_ids<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Id {
        Int(i64),
        Str(String),
    }
    let ids = Vec::<Id>::deserialize(d)?;
    Ok(ids
        .into_iter()
        .map(|id| match id {
            Id::Int(n) => n.to_string(),
            Id::Str(s) => s.trim().to_string(),
        })
        .collect())
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub data_dir: PathBuf,
    pub database_url: String,
    pub llm_provider: String,
    pub api_key: Secret,
    pub llm_base_url: String,
    pub model: String,
    pub max_tokens: u32,
    pub max_tool_iterations: u32,
    pub max_history_messages: u32,
    /// Characters of the earlier messages sent as history at most (see `agent::prompt::history`).
    pub max_history_chars: u32,
    /// Seconds before one LLM HTTP request is abandoned.
    pub llm_timeout_secs: u64,
    /// Extra attempts after a 429, a 5xx or a connection failure.
    pub llm_max_retries: u32,
    /// Answers one person may ask for per minute in one group (Telegram group, Discord
    /// channel); beyond, their messages are stored but not answered. 0 = no limit.
    pub group_rate_limit_per_min: u32,
    #[serde(deserialize_with = "deserialize_ids")]
    pub control_chat_ids: Vec<String>,
    pub reflector_enabled: bool,
    pub reflector_interval_mins: u32,
    /// When the reflector runs (cron, 6 or 5 fields); "" = every `reflector_interval_mins`.
    pub reflector_schedule: String,
    pub reflector_model: String,
    /// Most messages the reflector sends the model in one batch.
    pub reflector_batch_messages: u32,
    /// Most tokens of messages in one batch (a longer backlog takes more batches).
    pub reflector_batch_tokens: u32,
    /// Chats reflected at the same time in one pass.
    pub reflector_concurrency: u32,
    /// Existing memories shown with each batch (the most similar), so the model can supersede.
    pub reflector_context_memories: u32,
    /// No longer used (fact identity decides); accepted so old configs load, with a warning.
    pub reflector_dedup_threshold: f64,
    /// No longer used, as above.
    pub reflector_dedup_cosine_threshold: f64,
    /// Longest wait before a failing chat is tried again (the wait doubles per failure,
    /// starting at `reflector_interval_mins`).
    pub reflector_backoff_max_mins: u32,
    /// Unreadable answers in a row for one batch before it is set aside and the cursor moves on.
    pub reflector_max_parse_failures: u32,
    /// Backups kept in `data_dir/backups` (the oldest go first).
    pub backup_keep: u32,
    /// When `mneme start` makes a backup (cron, 6 or 5 fields); "" = never.
    pub backup_schedule: String,
    /// When the lifecycle sweep archives faded and over-cap memories (cron); "" = after
    /// every reflector pass.
    pub lifecycle_schedule: String,
    /// Days the per-turn logs keep their rows (prompt injections, reflector runs; token
    /// records are rolled up into totals); pruned daily at 04:00. 0 = kept for ever.
    pub log_retention_days: u32,
    /// The time zone of schedules (IANA name).
    pub schedule_timezone: String,
    pub memory_token_budget: u32,
    /// Days for a memory's confidence to halve when it is not seen again.
    pub memory_half_life_days: u32,
    /// The same for PROFILE memories (who someone is changes slowly).
    pub memory_profile_half_life_days: u32,
    /// A memory whose decayed confidence is below this…
    pub memory_archive_below_confidence: f64,
    /// …and that was last seen more than this many days ago is archived.
    pub memory_archive_after_days: u32,
    /// Active memories one chat may hold; beyond it the weakest are archived (0 = no cap).
    pub memory_max_per_chat: u32,
    /// Active memories all chats together may hold (0 = no cap). Global memory is not counted.
    pub memory_max_total: u32,
    pub embedding_provider: String,
    pub embedding_api_key: Secret,
    pub embedding_base_url: String,
    pub embedding_model: String,
    pub embedding_dim: u32,
    /// How memories are found: prompt injection, `memory_recall` / `memory_search`,
    /// `mneme memory search`.
    pub search: SearchConfig,
    pub channels: Channels,
}

/// The retrieval pipeline: BM25 and vector rankings fused by RRF, then decay, then MMR. Each
/// stage can be switched off.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchConfig {
    /// Full-text ranking (SQLite FTS5, BM25).
    pub bm25: bool,
    /// Embedding similarity (needs an `embedding_provider`).
    pub vector: bool,
    /// Reciprocal Rank Fusion's k.
    pub rrf_k: u32,
    /// Weigh memories down by the time since they were last seen (PROFILE never).
    pub decay: bool,
    pub half_life_days: u32,
    /// Maximal Marginal Relevance: keep near-duplicates from crowding the results.
    pub mmr: bool,
    /// 1 = relevance only, 0 = diversity only.
    pub mmr_lambda: f64,
    /// Candidates each ranking contributes before fusion.
    pub candidates: u32,
}

impl Default for SearchConfig {
    fn default() -> Self {
        Self {
            bm25: true,
            vector: true,
            rrf_k: 60,
            decay: true,
            half_life_days: 30,
            mmr: true,
            mmr_lambda: 0.7,
            candidates: 50,
        }
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Channels {
    pub telegram: TelegramConfig,
    pub discord: DiscordConfig,
    pub web: WebConfig,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TelegramConfig {
    pub enabled: bool,
    pub bot_token: Secret,
    pub api_url: String,
    #[serde(deserialize_with = "deserialize_ids")]
    pub allowed_user_ids: Vec<String>,
    #[serde(deserialize_with = "deserialize_ids")]
    pub allowed_groups: Vec<String>,
    /// Messages that arrived while the bot was down are answered on start-up if at most this
    /// many minutes old; older ones are stored, not answered.
    pub answer_backlog_mins: u32,
    /// How updates arrive: `polling` (getUpdates, the default) or `webhook` (Telegram POSTs
    /// them to `webhook_url`).
    pub mode: String,
    /// Webhook mode: the public URL Telegram calls (HTTPS, usually a reverse proxy's).
    pub webhook_url: String,
    /// Webhook mode: what Telegram sends in `X-Telegram-Bot-Api-Secret-Token`; requests
    /// without it are refused.
    pub webhook_secret: Secret,
    /// Webhook mode: the address the webhook server listens on (`IP:PORT`); it serves the
    /// path of `webhook_url`.
    pub webhook_listen: String,
}

impl TelegramConfig {
    /// `mode: webhook`: updates come in through the webhook server, not getUpdates.
    pub fn is_webhook(&self) -> bool {
        self.mode.trim() == "webhook"
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DiscordConfig {
    pub enabled: bool,
    pub bot_token: Secret,
    #[serde(deserialize_with = "deserialize_ids")]
    pub allowed_channels: Vec<String>,
    #[serde(deserialize_with = "deserialize_ids")]
    pub allowed_user_ids: Vec<String>,
    pub no_mention: bool,
    pub api_url: String,
    /// Answers owed when the bot stopped (or replayed after a long gateway outage) are given
    /// when the message is at most this many minutes old; older ones are stored, not answered.
    pub answer_backlog_mins: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WebConfig {
    pub enabled: bool,
    pub host: String,
    pub port: u16,
    pub auth_token: Secret,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            data_dir: PathBuf::from("./mneme.data"),
            database_url: String::new(),
            llm_provider: "openai".into(),
            api_key: Secret::default(),
            llm_base_url: String::new(),
            model: String::new(),
            max_tokens: 4096,
            max_tool_iterations: 16,
            max_history_messages: 40,
            max_history_chars: 64_000,
            llm_timeout_secs: 120,
            llm_max_retries: 3,
            group_rate_limit_per_min: 6,
            control_chat_ids: Vec::new(),
            reflector_enabled: true,
            reflector_interval_mins: 15,
            reflector_schedule: String::new(),
            reflector_model: String::new(),
            reflector_batch_messages: 40,
            reflector_batch_tokens: 4000,
            reflector_concurrency: 2,
            reflector_context_memories: 20,
            reflector_dedup_threshold: 0.6,
            reflector_dedup_cosine_threshold: 0.85,
            reflector_backoff_max_mins: 360,
            reflector_max_parse_failures: 3,
            backup_keep: 7,
            backup_schedule: "0 0 3 * * *".into(),
            lifecycle_schedule: "0 0 * * * *".into(),
            log_retention_days: 90,
            schedule_timezone: "UTC".into(),
            memory_token_budget: 1500,
            memory_half_life_days: 90,
            memory_profile_half_life_days: 365,
            memory_archive_below_confidence: 0.3,
            memory_archive_after_days: 30,
            memory_max_per_chat: 2000,
            memory_max_total: 200_000,
            embedding_provider: "none".into(),
            embedding_api_key: Secret::default(),
            embedding_base_url: String::new(),
            embedding_model: String::new(),
            embedding_dim: 0,
            search: SearchConfig::default(),
            channels: Channels::default(),
        }
    }
}

impl Default for TelegramConfig {
    fn default() -> Self {
        Self {
            enabled: false,
            bot_token: Secret::default(),
            api_url: "https://api.telegram.org".into(),
            allowed_user_ids: Vec::new(),
            allowed_groups: Vec::new(),
            answer_backlog_mins: 10,
            mode: "polling".into(),
            webhook_url: String::new(),
            webhook_secret: Secret::default(),
            webhook_listen: "127.0.0.1:10962".into(),
        }
    }
}

impl Default for DiscordConfig {
    fn default() -> Self {
        Self {
            enabled: false,
            bot_token: Secret::default(),
            allowed_channels: Vec::new(),
            allowed_user_ids: Vec::new(),
            no_mention: false,
            api_url: "https://discord.com/api".into(),
            answer_backlog_mins: 10,
        }
    }
}

impl Default for WebConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            host: "127.0.0.1".into(),
            port: 10961,
            auth_token: Secret::default(),
        }
    }
}

/// A config that failed to load: every problem found, errors and warnings alike.
#[derive(Debug)]
pub struct ConfigError {
    pub path: PathBuf,
    pub problems: Vec<Problem>,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} has problems:", self.path.display())?;
        for p in &self.problems {
            writeln!(f, "  {p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigError {}

/// A loaded, valid config and the warnings it raised.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub config: Config,
    pub path: PathBuf,
    pub warnings: Vec<Problem>,
}

/// Which file to read: `--config`, else `$MNEME_CONFIG`, else `./config.yaml`.
pub fn resolve_path(flag: Option<&Path>) -> PathBuf {
    if let Some(p) = flag {
        return p.to_path_buf();
    }
    match std::env::var_os("MNEME_CONFIG") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => PathBuf::from(DEFAULT_CONFIG_PATH),
    }
}

/// Reads the secret overrides from the process environment.
pub fn env_overrides() -> Vec<(&'static str, String)> {
    SECRET_ENV_VARS
        .iter()
        .filter_map(|name| match std::env::var(name) {
            Ok(v) if !v.trim().is_empty() => Some((*name, v)),
            _ => None,
        })
        .collect()
}

/// What a command uses of the config. The daemon's secrets live in its own environment, not
/// in every shell: a command that serves no channel may run without the channels' tokens, one
/// that calls no model without the model's keys too (`mneme start` and `check-config` need
/// everything).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    Everything,
    /// The store and the model, no channel (`mneme reflect`).
    Model,
    /// The store alone (`mneme memory`, `usage`, `backup`, `restore`, `healthcheck`).
    Store,
}

impl Needs {
    /// Whether an error about `key` does not concern such a command: a secret of a part it
    /// does not use.
    fn excuses(self, key: &str) -> bool {
        const CHANNEL_SECRETS: [&str; 4] = [
            "channels.telegram.bot_token",
            "channels.telegram.webhook_secret",
            "channels.discord.bot_token",
            "channels.web.auth_token",
        ];
        const MODEL_SECRETS: [&str; 2] = ["api_key", "embedding_api_key"];
        match self {
            Needs::Everything => false,
            Needs::Model => CHANNEL_SECRETS.contains(&key),
            Needs::Store => CHANNEL_SECRETS.contains(&key) || MODEL_SECRETS.contains(&key),
        }
    }
}

impl Config {
    /// Loads and validates the file at `path` with the process environment's overrides.
    pub fn load(path: &Path) -> Result<Loaded, ConfigError> {
        Self::load_for(path, Needs::Everything)
    }

    /// [`Config::load`] for a command that `needs` only part of the config.
    pub fn load_for(path: &Path, needs: Needs) -> Result<Loaded, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
            path: path.to_path_buf(),
            problems: vec![Problem::error(
                "",
                if e.kind() == std::io::ErrorKind::NotFound {
                    format!(
                        "file not found; run `mneme init` or copy config.example.yaml to {}",
                        path.display()
                    )
                } else {
                    format!("cannot read the file: {e}")
                },
            )],
        })?;
        Self::parse(&text, path, &env_overrides(), needs)
    }

    /// Parses, applies overrides, resolves `data_dir` against the file's folder, validates.
    pub fn from_yaml(
        text: &str,
        path: &Path,
        env: &[(&'static str, String)],
    ) -> Result<Loaded, ConfigError> {
        Self::parse(text, path, env, Needs::Everything)
    }

    fn parse(
        text: &str,
        path: &Path,
        env: &[(&'static str, String)],
        needs: Needs,
    ) -> Result<Loaded, ConfigError> {
        let fail = |problems| ConfigError {
            path: path.to_path_buf(),
            problems,
        };
        let mut value: serde_yaml::Value = serde_yaml::from_str(text)
            .map_err(|e| fail(vec![Problem::error("", format!("not valid YAML: {e}"))]))?;
        if value.is_null() {
            // An empty file (or one with only comments): every default applies.
            value = serde_yaml::Value::Mapping(Default::default());
        }
        let mut problems = schema::check_shape(&value);
        if problems.iter().any(Problem::is_error) {
            return Err(fail(problems));
        }
        schema::drop_nulls(&mut value);
        let mut config: Config = serde_path_to_error::deserialize(value).map_err(
            |e: serde_path_to_error::Error<_>| {
                let key = e.path().to_string();
                fail(vec![Problem::error(
                    if key == "." { "" } else { &key },
                    e.into_inner().to_string(),
                )])
            },
        )?;
        config.apply_env(env);
        let base = path.parent().filter(|p| !p.as_os_str().is_empty());
        if let Some(base) = base {
            if config.data_dir.is_relative() {
                config.data_dir = base.join(&config.data_dir);
            }
            config.resolve_local_model_folder(base);
        }
        problems.extend(
            validate::check(&config)
                .into_iter()
                .filter(|p| !(p.is_error() && needs.excuses(&p.key))),
        );
        if problems.iter().any(Problem::is_error) {
            return Err(fail(problems));
        }
        Ok(Loaded {
            config,
            path: path.to_path_buf(),
            warnings: problems,
        })
    }

    fn apply_env(&mut self, env: &[(&'static str, String)]) {
        for (name, value) in env {
            if *name == "MNEME_DATABASE_URL" {
                // A PostgreSQL URL carries its password: kept out of the file when set here.
                self.database_url = value.trim().to_string();
                continue;
            }
            let slot = match *name {
                "MNEME_API_KEY" => &mut self.api_key,
                "MNEME_TELEGRAM_BOT_TOKEN" => &mut self.channels.telegram.bot_token,
                "MNEME_TELEGRAM_WEBHOOK_SECRET" => &mut self.channels.telegram.webhook_secret,
                "MNEME_DISCORD_BOT_TOKEN" => &mut self.channels.discord.bot_token,
                "MNEME_EMBEDDING_API_KEY" => &mut self.embedding_api_key,
                "MNEME_WEB_AUTH_TOKEN" => &mut self.channels.web.auth_token,
                _ => continue,
            };
            *slot = Secret::new(value.trim());
        }
    }

    /// A local embedding model folder (`embedding_model` naming a folder, not the built-in
    /// model) is relative to the config file's folder, like `data_dir`.
    fn resolve_local_model_folder(&mut self, base: &Path) {
        let model = self.embedding_model.trim();
        if self.embedding_provider == "local"
            && !self::model_files::names_default_model(model)
            && Path::new(model).is_relative()
        {
            self.embedding_model = base.join(model).to_string_lossy().into_owned();
        }
    }

    /// The SQLite file used when `database_url` is empty.
    pub fn database_url(&self) -> String {
        if self.database_url.trim().is_empty() {
            format!("sqlite://{}", self.data_dir.join("mneme.db").display())
        } else {
            self.database_url.trim().to_string()
        }
    }

    /// The SQLite file [`Self::database_url`] names (`sqlite://PATH`), if it names one: not
    /// PostgreSQL, nor SQLite in memory.
    pub fn sqlite_file(&self) -> Option<PathBuf> {
        let url = self.database_url();
        let path = url.strip_prefix("sqlite://")?;
        let path = path.split('?').next().unwrap_or(path);
        (!path.is_empty() && path != ":memory:").then(|| PathBuf::from(path))
    }

    /// The database [`Self::database_url`] names.
    pub fn backend(&self) -> crate::base::Backend {
        crate::base::Backend::of_url(&self.database_url())
    }

    /// [`Self::database_url`] fit to print: a password in it shows as `***`.
    pub fn database_url_for_display(&self) -> String {
        redact_url_password(&self.database_url())
    }

    /// `data_dir/runtime`: identity override and the AGENTS.md tree.
    pub fn runtime_dir(&self) -> PathBuf {
        self.data_dir.join("runtime")
    }

    /// The model used by the reflector's calls.
    pub fn reflector_model(&self) -> &str {
        if self.reflector_model.trim().is_empty() {
            &self.model
        } else {
            &self.reflector_model
        }
    }

    /// True when `chat` (e.g. `telegram:123`) may write global memory.
    pub fn is_control_chat(&self, chat: &str) -> bool {
        self.control_chat_ids.iter().any(|c| c == chat)
    }
}

#[cfg(test)]
mod tests;
