use std::process::ExitCode;

use clap::Parser;
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> ExitCode {
    let cli = mneme::cli::Cli::parse();
    // Logs go to stderr so `mneme chat` and `--json` output stay clean on stdout.
    let default = match cli.command {
        mneme::cli::Command::Start => "mneme=info",
        _ => "mneme=warn",
    };
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_env("MNEME_LOG").unwrap_or_else(|_| EnvFilter::new(default)),
        )
        .with_writer(std::io::stderr)
        .init();
    mneme::cli::run(cli).await
}
