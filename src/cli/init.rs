//! `mneme init`: a starter config.yaml, from config.example.yaml with the LLM settings filled in.

use std::path::Path;
use std::process::ExitCode;

use clap::Args;

/// config.example.yaml, shipped inside the binary.
pub const EXAMPLE: &str = include_str!("../../config.example.yaml");

#[derive(Debug, Args)]
pub struct InitArgs {
    /// `openai` (any OpenAI-compatible endpoint) or `anthropic`
    #[arg(long, default_value = "openai")]
    pub provider: String,
    /// Endpoint base URL, e.g. http://127.0.0.1:11434/v1 for Ollama
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// Model name, e.g. llama3.2 or gpt-4o-mini
    #[arg(long)]
    pub model: Option<String>,
    /// Address the web chat listens on (`channels.web.host`), e.g. 0.0.0.0 in a container;
    /// anything but loopback needs an auth token (MNEME_WEB_AUTH_TOKEN)
    #[arg(long, value_name = "HOST")]
    pub web_host: Option<String>,
    /// Overwrite an existing file
    #[arg(long)]
    pub force: bool,
}

/// Replaces the value of `host:` in the `channels.web` section.
fn set_web_host(text: &str, host: &str) -> String {
    let mut in_web = false;
    let mut done = false;
    text.lines()
        .map(|line| {
            if line.starts_with("  ") && !line.starts_with("   ") {
                in_web = line.trim_end() == "  web:";
            }
            if in_web && !done && line.starts_with("    host:") {
                done = true;
                let quoted = serde_json::to_string(host).expect("a string serializes");
                format!("    host: {quoted}")
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// Replaces the value of the first top-level `key:` line, keeping its comment.
fn set_top_level(text: &str, key: &str, value: &str) -> String {
    let prefix = format!("{key}:");
    let mut done = false;
    text.lines()
        .map(|line| {
            if !done && line.starts_with(&prefix) {
                done = true;
                let comment = line.find(" #").map(|i| &line[i..]).unwrap_or_default();
                let quoted = serde_json::to_string(value).expect("a string serializes");
                format!(
                    "{prefix} {quoted}{}",
                    if comment.is_empty() {
                        String::new()
                    } else {
                        format!("   {}", comment.trim_start())
                    }
                )
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

pub fn run(path: &Path, args: &InitArgs) -> anyhow::Result<ExitCode> {
    if path.exists() && !args.force {
        // Re-running the quick start must not clobber a config the user has edited.
        println!(
            "{} already exists; left as it is (--force overwrites it)",
            path.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    if !matches!(args.provider.as_str(), "openai" | "anthropic") {
        anyhow::bail!("--provider must be `openai` or `anthropic`");
    }
    let mut text = set_top_level(EXAMPLE, "llm_provider", &args.provider);
    if let Some(url) = &args.base_url {
        text = set_top_level(&text, "llm_base_url", url);
    }
    if let Some(model) = &args.model {
        text = set_top_level(&text, "model", model);
    }
    if let Some(host) = &args.web_host {
        text = set_web_host(&text, host);
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, text)?;
    println!("wrote {}", path.display());
    match crate::config::Config::load(path) {
        Ok(loaded) => {
            let web = &loaded.config.channels.web;
            println!(
                "The config is valid. Start the bot with `mneme start` and open http://{}:{} — or talk to it here: mneme chat",
                if web.host == "0.0.0.0" {
                    "127.0.0.1"
                } else {
                    web.host.as_str()
                },
                web.port
            );
        }
        Err(e) => {
            println!("Before the bot can run, fill in:");
            for p in e.problems.iter().filter(|p| p.is_error()) {
                println!("  {p}");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_config_is_valid_once_the_llm_is_set() {
        let text = set_top_level(EXAMPLE, "llm_base_url", "http://127.0.0.1:11434/v1");
        let text = set_top_level(&text, "model", "llama3.2");
        let loaded =
            crate::config::Config::from_yaml(&text, Path::new("config.yaml"), &[]).unwrap();
        assert_eq!(loaded.config.model, "llama3.2");
        assert_eq!(loaded.config.llm_base_url, "http://127.0.0.1:11434/v1");
    }

    #[test]
    fn web_host_is_set_in_the_web_section_only() {
        let text = set_top_level(EXAMPLE, "llm_base_url", "http://127.0.0.1:11434/v1");
        let text = set_top_level(&text, "model", "llama3.2");
        let text = set_web_host(&text, "0.0.0.0");
        let env = [("MNEME_WEB_AUTH_TOKEN", "a-long-random-token".to_string())];
        let loaded =
            crate::config::Config::from_yaml(&text, Path::new("config.yaml"), &env).unwrap();
        assert_eq!(loaded.config.channels.web.host, "0.0.0.0");
        let err =
            crate::config::Config::from_yaml(&text, Path::new("config.yaml"), &[]).unwrap_err();
        assert!(
            err.problems
                .iter()
                .any(|p| p.key == "channels.web.auth_token"),
            "{err}"
        );
    }
}
