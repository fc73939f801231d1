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
    /// Overwrite an existing file
    #[arg(long)]
    pub force: bool,
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
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, text)?;
    println!("wrote {}", path.display());
    match crate::config::Config::load(path) {
        Ok(_) => println!("The config is valid. Talk to the bot: mneme chat"),
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
}
