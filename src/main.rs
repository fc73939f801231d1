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
    let filter = log_filter(std::env::var("MNEME_LOG").ok().as_deref(), default);
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(colour_logs())
        .init();
    mneme::base::bug::log_panics();
    mneme::cli::run(cli).await
}

/// Crates whose `trace` lines carry what they send and receive (the websocket's frames hold
/// Discord's IDENTIFY, with the bot token; HTTP bodies, keys): at most `debug`, whatever
/// `MNEME_LOG` asks, unless it names the crate itself.
const PAYLOAD_LOGGERS: [&str; 9] = [
    "tungstenite",
    "tokio_tungstenite",
    "serenity",
    "hyper",
    "hyper_util",
    "h2",
    "reqwest",
    "teloxide",
    "teloxide_core",
];

/// `MNEME_LOG` (else `default`). Where it turns `trace` on for every crate, the crates that
/// would log secrets there are held at `debug`, unless it names them; a filter that does not
/// is left as it is (a directive for a crate turns its logging on).
fn log_filter(asked: Option<&str>, default: &str) -> EnvFilter {
    let asked = asked.map(str::trim).filter(|a| !a.is_empty());
    let mut filter = asked
        .and_then(|a| EnvFilter::try_new(a).ok())
        .unwrap_or_else(|| EnvFilter::new(default));
    let named = asked.unwrap_or(default);
    let trace_for_all = named
        .split(',')
        .any(|d| d.trim().eq_ignore_ascii_case("trace"));
    if !trace_for_all {
        return filter;
    }
    for target in PAYLOAD_LOGGERS {
        let mentioned = named
            .split(',')
            .any(|d| d.split(['=', ':', '[']).next() == Some(target));
        if !mentioned && let Ok(d) = format!("{target}=debug").parse() {
            filter = filter.add_directive(d);
        }
    }
    filter
}

/// Colour only for a person at a terminal: log files, pipes and `docker logs` get plain text,
/// and `NO_COLOR` (any non-empty value, https://no-color.org) turns it off everywhere.
fn colour_logs() -> bool {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    !no_color && std::io::stderr().is_terminal()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trace_never_reaches_the_crates_that_log_payloads_unless_named() {
        let everything = log_filter(Some("trace"), "mneme=warn").to_string();
        assert!(everything.contains("tungstenite=debug"), "{everything}");
        assert!(everything.contains("serenity=debug"), "{everything}");
        let named = log_filter(Some("trace,tungstenite=trace"), "mneme=warn").to_string();
        let directives: Vec<&str> = named.split(',').collect();
        assert!(directives.contains(&"tungstenite=trace"), "{named}");
        assert!(!directives.contains(&"tungstenite=debug"), "{named}");
        // a filter that does not turn trace on for all is left alone: a directive for a crate
        // would turn its logging on
        for asked in [None, Some("mneme=debug"), Some("mneme::timeline=trace")] {
            let filter = log_filter(asked, "mneme=info,serenity::gateway::shard=warn").to_string();
            assert!(!filter.contains("hyper"), "{asked:?}: {filter}");
            assert!(!filter.contains("tungstenite"), "{asked:?}: {filter}");
        }
    }
}
