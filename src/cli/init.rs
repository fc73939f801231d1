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
    /// Any other key of config.example.yaml, as KEY=VALUE with VALUE in YAML (repeatable), e.g.
    /// --set channels.telegram.enabled=true --set channels.telegram.allowed_user_ids=[123]
    #[arg(long, value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Overwrite an existing file
    #[arg(long)]
    pub force: bool,
}

/// Sets `key` (a dotted path such as `channels.telegram.enabled`) to `value` (YAML: `true`,
/// `[123]`, `0.0.0.0`…) in the config text, keeping every comment; a string is written quoted.
/// Only keys the text already has can be set: anything else is a typo worth saying.
pub fn set_key(text: &str, key: &str, value: &str) -> Result<String, String> {
    let parsed: serde_yaml::Value = serde_yaml::from_str(value)
        .map_err(|e| format!("--set {key}: `{value}` is not a YAML value: {e}"))?;
    let rendered = match parsed {
        serde_yaml::Value::String(s) => serde_json::to_string(&s).expect("a string serializes"),
        serde_yaml::Value::Null if value.trim().is_empty() => "\"\"".to_string(),
        serde_yaml::Value::Mapping(_) | serde_yaml::Value::Tagged(_) => {
            return Err(format!(
                "--set {key}: give one value (set a section's keys one by one)"
            ));
        }
        _ => value.trim().to_string(),
    };
    let wanted: Vec<&str> = key.split('.').collect();
    // The keys enclosing the current line, with their indentation.
    let mut path: Vec<(usize, String)> = Vec::new();
    let mut found = false;
    let mut out = Vec::new();
    for line in text.lines() {
        let body = line.trim_start();
        let indent = line.len() - body.len();
        let name = body.split_once(':').map(|(k, _)| k).filter(|k| {
            !body.starts_with('#')
                && !body.starts_with('-')
                && !k.is_empty()
                && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
        let Some(name) = name else {
            out.push(line.to_string());
            continue;
        };
        while path.last().is_some_and(|(i, _)| *i >= indent) {
            path.pop();
        }
        path.push((indent, name.to_string()));
        let here = path.iter().map(|(_, k)| k.as_str());
        if !found && here.eq(wanted.iter().copied()) {
            let rest = &body[name.len() + 1..];
            if rest.trim().is_empty() || rest.trim_start().starts_with('#') {
                return Err(format!(
                    "--set {key}: that is a section; set its keys one by one"
                ));
            }
            found = true;
            let comment = rest.find(" #").map(|i| rest[i..].trim_start());
            let mut replaced = format!("{}{name}: {rendered}", &line[..indent]);
            if let Some(comment) = comment {
                replaced.push_str("   ");
                replaced.push_str(comment);
            }
            out.push(replaced);
        } else {
            out.push(line.to_string());
        }
    }
    if !found {
        return Err(format!(
            "--set {key}: config.example.yaml has no such key (see it for every key)"
        ));
    }
    Ok(out.join("\n") + "\n")
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
    let quoted = |v: &str| serde_json::to_string(v).expect("a string serializes");
    let mut settings = vec![("llm_provider".to_string(), quoted(&args.provider))];
    if let Some(url) = &args.base_url {
        settings.push(("llm_base_url".into(), quoted(url)));
    }
    if let Some(model) = &args.model {
        settings.push(("model".into(), quoted(model)));
    }
    if let Some(host) = &args.web_host {
        settings.push(("channels.web.host".into(), quoted(host)));
    }
    for pair in &args.set {
        let Some((key, value)) = pair.split_once('=') else {
            anyhow::bail!(
                "--set takes KEY=VALUE, e.g. --set channels.telegram.enabled=true; got `{pair}`"
            );
        };
        settings.push((key.trim().to_string(), value.to_string()));
    }
    let mut text = EXAMPLE.to_string();
    for (key, value) in &settings {
        text = set_key(&text, key, value).map_err(anyhow::Error::msg)?;
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

    fn load(text: &str, env: &[(&'static str, String)]) -> Result<crate::config::Config, String> {
        crate::config::Config::from_yaml(text, Path::new("config.yaml"), env)
            .map(|l| l.config)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn example_config_is_valid_once_the_llm_is_set() {
        let text = set_key(EXAMPLE, "llm_base_url", "http://127.0.0.1:11434/v1").unwrap();
        let text = set_key(&text, "model", "llama3.2").unwrap();
        let config = load(&text, &[]).unwrap();
        assert_eq!(config.model, "llama3.2");
        assert_eq!(config.llm_base_url, "http://127.0.0.1:11434/v1");
    }

    #[test]
    fn web_host_is_set_in_the_web_section_only() {
        let text = set_key(EXAMPLE, "model", "llama3.2").unwrap();
        let text = set_key(&text, "llm_base_url", "http://127.0.0.1:11434/v1").unwrap();
        let text = set_key(&text, "channels.web.host", "0.0.0.0").unwrap();
        let env = [(
            "MNEME_WEB_AUTH_TOKEN",
            "a-long-random-token-0123456789".to_string(),
        )];
        assert_eq!(load(&text, &env).unwrap().channels.web.host, "0.0.0.0");
        let err = load(&text, &[]).unwrap_err();
        assert!(err.contains("channels.web.auth_token"), "{err}");
    }

    #[test]
    fn nested_keys_take_yaml_values_and_keep_their_comments() {
        let mut text = EXAMPLE.to_string();
        for (k, v) in [
            ("model", "m"),
            ("llm_base_url", "http://127.0.0.1:11434/v1"),
            ("channels.telegram.enabled", "true"),
            ("channels.telegram.allowed_user_ids", "[123, 456]"),
            ("channels.telegram.api_url", "http://127.0.0.1:9/x#y"),
            ("channels.web.enabled", "false"),
            ("reflector_interval_mins", "5"),
        ] {
            text = set_key(&text, k, v).unwrap();
        }
        let env = [("MNEME_TELEGRAM_BOT_TOKEN", "123:abc".to_string())];
        let c = load(&text, &env).unwrap();
        assert!(c.channels.telegram.enabled && !c.channels.web.enabled);
        assert_eq!(c.channels.telegram.allowed_user_ids, ["123", "456"]);
        assert_eq!(c.channels.telegram.api_url, "http://127.0.0.1:9/x#y");
        assert_eq!(c.reflector_interval_mins, 5);
        // The Discord section's `enabled` is untouched.
        assert!(!c.channels.discord.enabled);
        // A comment on the line stays; one inside the value is the value's.
        let text = "a:\n  b: 1   # keep me\n";
        assert_eq!(
            set_key(text, "a.b", "2").unwrap(),
            "a:\n  b: 2   # keep me\n"
        );
        assert_eq!(
            set_key(text, "a.b", "x #y").unwrap(),
            "a:\n  b: \"x\"   # keep me\n"
        );
    }

    #[test]
    fn unknown_keys_sections_and_bad_values_are_refused() {
        assert!(
            set_key(EXAMPLE, "reflector_intervl_mins", "5")
                .unwrap_err()
                .contains("no such key")
        );
        assert!(
            set_key(EXAMPLE, "channels.telegram", "x")
                .unwrap_err()
                .contains("section")
        );
        assert!(
            set_key(EXAMPLE, "model", "[unclosed")
                .unwrap_err()
                .contains("not a YAML value")
        );
    }
}
