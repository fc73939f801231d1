use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Parser;
use tracing_subscriber::EnvFilter;

fn main() -> ExitCode {
    // SAFETY: nothing but this thread exists yet.
    #[cfg(feature = "local-embeddings")]
    unsafe {
        mneme::embed::pin_thread_count()
    };
    match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime.block_on(run()),
        Err(e) => {
            eprintln!("mneme: cannot start the async runtime: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> ExitCode {
    let cli = mneme::cli::Cli::parse();
    // Logs go to stderr so `mneme chat` and `--json` output stay clean on stdout.
    // serenity's gateway shard says at `warn` when it drops an event it cannot read: the only
    // trace such a message would leave. Its lines name the error, never the message.
    let default = match cli.command {
        mneme::cli::Command::Start => "mneme=info,serenity::gateway::shard=warn",
        _ => "mneme=warn",
    };
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_env("MNEME_LOG").unwrap_or_else(|_| EnvFilter::new(default)),
        )
        .with_writer(std::io::stderr)
        .with_ansi(colour_logs())
        .init();
    mneme::cli::run(cli).await
}

/// Colour only for a person at a terminal: log files, pipes and `docker logs` get plain text,
/// and `NO_COLOR` (any non-empty value, https://no-color.org) turns it off everywhere.
fn colour_logs() -> bool {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    !no_color && std::io::stderr().is_terminal()
}
