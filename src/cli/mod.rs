//! The `mneme` command line: argument parsing and one function per command.

mod check;
mod copy_to;
mod healthcheck;
mod init;
mod instance;
mod memory;
mod print;
mod reflect;
mod search;
mod usage;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::{Parser, Subcommand};
use tokio_util::sync::CancellationToken;

use crate::agent::Agent;
use crate::base::bug::contained;
use crate::channels::Channel;
use crate::channels::discord::DiscordChannel;
use crate::channels::telegram::TelegramChannel;
use crate::channels::terminal::TerminalChannel;
use crate::channels::web::WebChannel;
use crate::config::{self, Config, Loaded, Needs};
use crate::llm::Metered;
use crate::store::Store;

#[derive(Debug, Parser)]
#[command(
    name = "mneme",
    version,
    about = "A self-hosted chat bot that remembers"
)]
pub struct Cli {
    /// Config file [default: $MNEME_CONFIG, else ./config.yaml]
    #[arg(long, global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the daemon: every enabled channel and the agent loop
    Start,
    /// Validate the config; print every problem with its key path
    CheckConfig,
    /// Write a starter config.yaml (from config.example.yaml)
    Init(init::InitArgs),
    /// Chat in the terminal (channel `cli`); reads stdin, so it also works piped
    Chat {
        /// Conversation name: the chat is `cli:NAME`
        #[arg(long, default_value = "default", value_name = "NAME")]
        chat: String,
    },
    /// One reflector pass now: every due chat, or the named one at once; prints what it did
    Reflect(reflect::ReflectArgs),
    /// Inspect and manage structured memory
    #[command(subcommand)]
    Memory(memory::MemoryCommand),
    /// LLM tokens per chat and model, reflector runs, injection coverage
    Usage,
    /// Ask the running daemon's /healthz on this machine; exit 0 when healthy (for containers)
    Healthcheck,
    /// One consistent backup now, into data_dir/backups (works while the daemon runs)
    Backup,
    /// Replace the data with a backup (a folder from `mneme backup`, or its mneme.db); refuses
    /// while a daemon runs, keeps what it replaces aside
    Restore {
        /// The backup folder or database file
        file: std::path::PathBuf,
    },
    /// Copy the whole SQLite database (messages, memories with their history, the reflector's
    /// cursors, usage) into an empty PostgreSQL database; refuses while the daemon runs
    CopyTo {
        /// The PostgreSQL database to fill: postgres://USER:PASSWORD@HOST:PORT/DATABASE
        #[arg(
            value_name = "DATABASE_URL",
            env = "MNEME_COPY_TO",
            hide_env_values = true
        )]
        url: String,
    },
}

/// Runs the parsed command; the exit code says how it went.
pub async fn run(cli: Cli) -> ExitCode {
    let path = config::resolve_path(cli.config.as_deref());
    let result = match cli.command {
        Command::CheckConfig => return check::run(&path).await,
        Command::Init(args) => init::run(&path, &args),
        command => match load(&path, needs(&command)) {
            Some(loaded) => dispatch(command, loaded).await,
            None => return ExitCode::from(1),
        },
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", error_text(&e));
            ExitCode::from(1)
        }
    }
}

/// `e` and its causes, `: `-separated, each cause said once: sqlx's and others' errors
/// repeat their source in their own text, so anyhow's `{:#}` printed "permission denied for
/// schema public" three times.
pub(crate) fn error_text(e: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if out.contains(&text) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&text);
    }
    out
}

async fn dispatch(command: Command, loaded: Loaded) -> anyhow::Result<ExitCode> {
    let config = Arc::new(loaded.config);
    match command {
        Command::Start => start(config).await,
        Command::Chat { chat } => chat_in_terminal(config, chat).await,
        Command::Reflect(args) => reflect::run(&config, &args).await,
        Command::Memory(cmd) => memory::run(&config, &open_store(&config).await?, cmd).await,
        Command::Usage => usage::run(&open_store(&config).await?).await,
        Command::Healthcheck => healthcheck::run(&config).await,
        Command::Backup => crate::backup::run_backup(&config, &open_store(&config).await?).await,
        Command::Restore { file } => crate::backup::run_restore(&config, &file).await,
        Command::CopyTo { url } => copy_to::run(&config, &url).await,
        Command::CheckConfig | Command::Init(_) => {
            unreachable!("handled before the config is loaded")
        }
    }
}

/// What `command` uses of the config (see [`Needs`]).
fn needs(command: &Command) -> Needs {
    match command {
        Command::Start | Command::Chat { .. } | Command::CheckConfig | Command::Init(_) => {
            Needs::Everything
        }
        Command::Reflect(_) => Needs::Model,
        Command::Memory(_)
        | Command::Usage
        | Command::Healthcheck
        | Command::Backup
        | Command::Restore { .. }
        | Command::CopyTo { .. } => Needs::Store,
    }
}

/// Loads the config, printing warnings; on errors prints them all and returns `None`.
fn load(path: &std::path::Path, needs: Needs) -> Option<Loaded> {
    match Config::load_for(path, needs) {
        Ok(loaded) => {
            for w in &loaded.warnings {
                tracing::debug!("{}: {w}", path.display());
            }
            Some(loaded)
        }
        Err(e) => {
            eprint!("{e}");
            eprintln!("Run `mneme check-config` after fixing them.");
            None
        }
    }
}

pub async fn open_store(config: &Config) -> anyhow::Result<Store> {
    // data_dir holds the heartbeat, backups and AGENTS.md files whatever the database: on
    // PostgreSQL nothing else would create it.
    std::fs::create_dir_all(&config.data_dir).map_err(|e| {
        anyhow::anyhow!("cannot create data_dir {}: {e}", config.data_dir.display())
    })?;
    let url = config.database_url();
    Store::open(&url).await.map_err(|e| {
        let hint = if e.to_string().contains("permission denied for schema") {
            " (the role must be allowed to create tables there for the first start: make it \
             the database's owner, or GRANT CREATE ON SCHEMA public TO it)"
        } else {
            ""
        };
        anyhow::anyhow!(
            "cannot open the database {}: {e}{hint}",
            config.database_url_for_display()
        )
    })
}

/// The configured embedder. One that cannot be set up (model files missing, …) is reported,
/// and memory search goes on by keywords alone rather than the command failing.
pub async fn embedder(config: &Config) -> Option<Arc<dyn crate::embed::Embedder>> {
    match crate::embed::from_config(config).await {
        Ok(e) => e,
        Err(e) => {
            tracing::warn!("embeddings off, memory search uses keywords only: {e}");
            None
        }
    }
}

async fn agent(config: Arc<Config>) -> anyhow::Result<Arc<Agent>> {
    let store = open_store(&config).await?;
    let llm = crate::llm::from_config(&config).map_err(anyhow::Error::msg)?;
    let embedder = embedder(&config).await;
    Ok(Arc::new(Agent::with_embedder(config, store, llm, embedder)))
}

/// At most this many memories, for at most this long, are embedded when `mneme chat` ends.
const EXIT_FLUSH_MAX: usize = 256;
const EXIT_FLUSH_TIME: std::time::Duration = std::time::Duration::from_secs(10);

async fn chat_in_terminal(config: Arc<Config>, chat: String) -> anyhow::Result<ExitCode> {
    if let Err(e) = crate::memory::files::encode_component(&chat) {
        anyhow::bail!("--chat: {e}");
    }
    let agent = agent(config).await?;
    let shutdown = CancellationToken::new();
    spawn_signal_handler(shutdown.clone());
    let sync = crate::memories::retrieval::sync::spawn(agent.retriever().clone(), shutdown.clone());
    let chatted = TerminalChannel::new(chat)
        .run(agent.clone(), shutdown.clone())
        .await;
    // A short session ends before the background sync got to what it remembered: embed that
    // now (bounded), so a search right after finds it by meaning too.
    if !shutdown.is_cancelled() && agent.retriever().embedder().is_some() {
        let flush =
            crate::memories::retrieval::sync::embed_pending(agent.retriever(), EXIT_FLUSH_MAX);
        match tokio::time::timeout(EXIT_FLUSH_TIME, flush).await {
            Ok(Err(e)) => tracing::warn!(error = %e, "memories left for the next start to embed"),
            Err(_) => tracing::info!("memories left for the next start to embed"),
            Ok(Ok(_)) => {}
        }
    }
    shutdown.cancel();
    if let Some(sync) = sync {
        let _ = sync.await;
    }
    agent.store().close().await;
    chatted?;
    Ok(ExitCode::SUCCESS)
}

async fn start(config: Arc<Config>) -> anyhow::Result<ExitCode> {
    // Held until this returns: one daemon per SQLite database.
    let _instance = instance::claim(&config)?;
    let ch = &config.channels;
    let mut channels: Vec<Box<dyn Channel>> = Vec::new();
    if ch.web.enabled {
        // Bound first: a port in use stops the start before anything connects anywhere.
        channels.push(Box::new(WebChannel::bind(&ch.web)?));
    }
    if ch.telegram.enabled {
        channels.push(Box::new(TelegramChannel::new(&ch.telegram)?));
    }
    if ch.discord.enabled {
        channels.push(Box::new(DiscordChannel::new(&ch.discord)?));
    }
    if channels.is_empty() {
        eprintln!(
            "No channel is enabled, so there is nothing to do.\n\
             Enable the web chat (channels.web.enabled: true), Telegram (channels.telegram.enabled:\n\
             true and a bot_token) or Discord (channels.discord.enabled: true and a bot_token) in\n\
             the config, or talk to the bot in the terminal with `mneme chat`."
        );
        return Ok(ExitCode::from(2));
    }
    let store = open_store(&config).await?;
    let llm = crate::llm::from_config(&config).map_err(anyhow::Error::msg)?;
    let embedder = embedder(&config).await;
    let agent = Arc::new(Agent::with_embedder(
        config.clone(),
        store,
        Metered::wrap(llm.clone(), "chat"),
        embedder,
    ));
    for channel in &channels {
        agent.channel_status().expect(channel.name());
    }
    let shutdown = CancellationToken::new();
    spawn_signal_handler(shutdown.clone());
    // One process of those on a database runs the scheduled jobs (on SQLite: this one). A
    // short wait for the first try, so the start-up catch-up pass runs where it should.
    let mut schedule = agent
        .store()
        .lease(crate::store::SCHEDULE, shutdown.clone());
    let _ = tokio::time::timeout(Duration::from_secs(3), schedule.acquired()).await;
    let reflector_llm = Metered::wrap(llm, "reflector");
    let reflector = crate::schedule::reflector::spawn(
        config.clone(),
        agent.retriever().clone(),
        reflector_llm.clone(),
        shutdown.clone(),
    );
    let sync = crate::memories::retrieval::sync::spawn(agent.retriever().clone(), shutdown.clone());
    let on_calendar = (config.reflector_enabled && !config.reflector_schedule.trim().is_empty())
        .then(|| {
            Arc::new(crate::reflector::Reflector::with_retriever(
                &config,
                agent.retriever().clone(),
                reflector_llm,
            ))
        });
    let scheduler = crate::schedule::Scheduler::start(
        config.clone(),
        agent.store().clone(),
        on_calendar,
        shutdown.clone(),
    )
    .await?;
    let heartbeat = crate::health::spawn_heartbeat(
        agent.store().clone(),
        agent.channel_status().clone(),
        crate::health::heartbeat_path(&config.data_dir),
        shutdown.clone(),
    );

    let mut running = tokio::task::JoinSet::new();
    for channel in channels {
        let (agent, shutdown) = (agent.clone(), shutdown.clone());
        running.spawn(async move {
            let name = channel.name();
            tracing::info!(channel = name, "starting");
            // A bug met in the channel's own plumbing (what a message, an answer or a batch
            // meets is contained closer to it) stops the daemon like a failure, loudly, for
            // its supervisor to start it again: a channel quietly gone is worse.
            let result = contained(name, channel.run(agent, shutdown.clone()))
                .await
                .unwrap_or_else(|bug| Err(anyhow::anyhow!(bug)));
            if let Err(e) = &result {
                tracing::error!(channel = name, error = %format!("{e:#}"), "channel stopped");
                // One channel failing for good (a bad token) stops the daemon: better loud than half up.
                shutdown.cancel();
            }
            result
        });
    }
    let mut failed = false;
    while let Some(done) = running.join_next().await {
        failed |= !matches!(done, Ok(Ok(())));
    }
    // The channels are done; the reflector abandons a model call in flight (its batch is
    // retried next start) and lets a batch being stored finish.
    shutdown.cancel();
    if let Err(e) = reflector.await {
        tracing::error!(error = %e, "reflector task failed");
    }
    if let Some(sync) = sync
        && let Err(e) = sync.await
    {
        tracing::error!(error = %e, "embedding sync task failed");
    }
    let _ = heartbeat.await;
    scheduler.stop().await;
    agent.store().close().await;
    tracing::info!("stopped");
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Cancels `shutdown` on SIGINT or SIGTERM.
fn spawn_signal_handler(shutdown: CancellationToken) {
    tokio::spawn(async move {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let mut term = match signal(SignalKind::terminate()) {
                Ok(s) => s,
                Err(e) => {
                    tracing::warn!(error = %e, "cannot listen for SIGTERM");
                    let _ = tokio::signal::ctrl_c().await;
                    shutdown.cancel();
                    return;
                }
            };
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
        }
        #[cfg(not(unix))]
        let _ = tokio::signal::ctrl_c().await;
        tracing::info!("shutting down");
        shutdown.cancel();
    });
}

#[cfg(test)]
mod tests {
    use super::error_text;

    #[derive(Debug)]
    struct Repeats(std::io::Error);
    impl std::fmt::Display for Repeats {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "error returned from database: {}", self.0)
        }
    }
    impl std::error::Error for Repeats {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn each_cause_is_said_once() {
        let inner = std::io::Error::other("permission denied for schema public");
        let e = anyhow::Error::new(Repeats(inner)).context("cannot create the schema");
        assert_eq!(
            error_text(&e),
            "cannot create the schema: error returned from database: permission denied for schema public"
        );
        let e = anyhow::anyhow!("no such file").context("cannot read config.yaml");
        assert_eq!(error_text(&e), "cannot read config.yaml: no such file");
    }
}
