use std::path::Path;

use super::*;

const OK: &str = "model: llama3.2\nllm_base_url: http://127.0.0.1:11434/v1\n";

fn load(yaml: &str) -> Result<Loaded, ConfigError> {
    Config::from_yaml(yaml, Path::new("conf/config.yaml"), &[])
}

fn keys(err: &ConfigError) -> Vec<&str> {
    err.problems
        .iter()
        .filter(|p| p.is_error())
        .map(|p| p.key.as_str())
        .collect()
}

#[test]
fn defaults_match_the_interface() {
    let c = load(OK).unwrap().config;
    assert_eq!(c.llm_provider, "openai");
    assert_eq!(c.max_tokens, 4096);
    assert_eq!(c.max_tool_iterations, 16);
    assert_eq!(c.max_history_messages, 40);
    assert_eq!(c.memory_token_budget, 1500);
    assert_eq!(c.reflector_interval_mins, 15);
    assert!(c.reflector_enabled);
    assert_eq!(c.embedding_provider, "none");
    assert_eq!(c.channels.telegram.api_url, "https://api.telegram.org");
    assert_eq!(c.channels.discord.api_url, "https://discord.com/api");
    assert_eq!(c.channels.web.port, 10961);
    assert_eq!(c.channels.web.host, "127.0.0.1");
    // relative data_dir is taken from the config file's folder
    assert_eq!(c.data_dir, Path::new("conf/./mneme.data"));
    assert_eq!(c.database_url(), "sqlite://conf/./mneme.data/mneme.db");
    assert_eq!(c.reflector_model(), "llama3.2");
}

#[test]
fn every_problem_is_reported_with_its_key_path() {
    let yaml = "\
model: m
llm_base_url: http://localhost:1/v1
max_tokens: lots
colour: blue
channels:
  telegram:
    enabled: yes please
    allowed_user_ids: [123, \"*\", [1]]
  web:
    prot: 80
";
    let err = load(yaml).unwrap_err();
    assert_eq!(
        keys(&err),
        [
            "max_tokens",
            "colour",
            "channels.telegram.enabled",
            "channels.telegram.allowed_user_ids[2]",
            "channels.web.prot"
        ]
    );
    let text = err.to_string();
    assert!(
        text.contains("max_tokens: expected an integer, got a string"),
        "{text}"
    );
    assert!(text.contains("colour: unknown key"), "{text}");
}

#[test]
fn meaning_checks_name_their_keys() {
    let yaml = "\
llm_provider: gemini
max_tool_iterations: 0
control_chat_ids: [\"irc:1\"]
channels:
  telegram:
    enabled: true
  discord:
    enabled: true
    api_url: ftp://x
  web:
    host: 0.0.0.0
";
    let err = load(yaml).unwrap_err();
    let k = keys(&err);
    for expected in [
        "llm_provider",
        "model",
        "api_key",
        "max_tool_iterations",
        "control_chat_ids[0]",
        "channels.telegram.bot_token",
        "channels.discord.bot_token",
        "channels.discord.api_url",
        "channels.web.auth_token",
    ] {
        assert!(k.contains(&expected), "{expected} missing from {k:?}");
    }
}

#[test]
fn an_endpoint_pasted_as_the_base_url_is_refused_with_the_base() {
    for (given, base) in [
        (
            "http://127.0.0.1:8080/v1/chat/completions",
            "http://127.0.0.1:8080/v1",
        ),
        (
            "http://127.0.0.1:8080/v1/messages/",
            "http://127.0.0.1:8080/v1",
        ),
    ] {
        let err = load(&format!("model: m\nllm_base_url: {given}\n")).unwrap_err();
        assert_eq!(keys(&err), ["llm_base_url"], "{given}");
        let text = err.to_string();
        assert!(text.contains(&format!("e.g. `{base}`")), "{text}");
    }
}

#[test]
fn api_key_needed_only_for_remote_servers() {
    let remote = load("model: gpt-4o-mini\n").unwrap_err();
    assert_eq!(keys(&remote), ["api_key"]);
    let named = load("model: m\nllm_base_url: https://openrouter.ai/api/v1\n").unwrap_err();
    assert_eq!(keys(&named), ["api_key"]);
    for local in [
        "http://127.0.0.1:11434/v1",
        "http://localhost:8000/v1",
        "http://192.168.1.5:11434/v1",
        "http://[::1]:8000/v1",
    ] {
        assert!(
            load(&format!("model: m\nllm_base_url: {local}\n")).is_ok(),
            "{local}"
        );
    }
    assert!(load("model: m\napi_key: sk-x\n").is_ok());
}

#[test]
fn env_secrets_win_and_never_print() {
    let yaml = "model: m\napi_key: from-file\nchannels:\n  telegram:\n    enabled: true\n";
    let env = [
        ("MNEME_API_KEY", "from-env".to_string()),
        ("MNEME_TELEGRAM_BOT_TOKEN", "123:abc".to_string()),
    ];
    let loaded = Config::from_yaml(yaml, Path::new("c.yaml"), &env).unwrap();
    assert_eq!(loaded.config.api_key.expose(), "from-env");
    assert_eq!(
        loaded.config.channels.telegram.bot_token.expose(),
        "123:abc"
    );
    let debug = format!("{:?}", loaded.config);
    assert!(
        !debug.contains("from-env") && !debug.contains("123:abc"),
        "{debug}"
    );
}

#[test]
fn empty_values_and_files_mean_defaults() {
    assert!(load("model: m\napi_key:\nllm_base_url: http://127.0.0.1:1/v1\n").is_ok());
    let err = load("# nothing here\n").unwrap_err();
    assert!(keys(&err).contains(&"model"));
}

#[test]
fn ids_may_be_numbers_or_strings() {
    let yaml = format!(
        "{OK}channels:\n  telegram:\n    allowed_user_ids: [42, \"*\"]\n    allowed_groups: [-100123]\n"
    );
    let c = load(&yaml).unwrap().config;
    assert_eq!(c.channels.telegram.allowed_user_ids, ["42", "*"]);
    assert_eq!(c.channels.telegram.allowed_groups, ["-100123"]);
}

#[test]
fn broken_yaml_and_wrong_top_level() {
    let err = load("model: [unclosed\n").unwrap_err();
    assert!(
        err.problems[0].message.starts_with("not valid YAML"),
        "{err}"
    );
    let err = load("- a\n- b\n").unwrap_err();
    assert!(
        err.problems[0].message.contains("expected a mapping"),
        "{err}"
    );
    let err = load(&format!("{OK}max_tokens: -5\n")).unwrap_err();
    assert_eq!(keys(&err), ["max_tokens"]);
}

#[test]
fn discord_ids_are_numbers_or_star() {
    let yaml = format!(
        "{OK}channels:\n  discord:\n    allowed_channels: [\"#general\", \"*\", 123456789012345678]\n    allowed_user_ids: [alice, \"42\"]\n"
    );
    let err = load(&yaml).unwrap_err();
    assert_eq!(
        keys(&err),
        [
            "channels.discord.allowed_channels[0]",
            "channels.discord.allowed_user_ids[0]"
        ]
    );
    assert!(err.to_string().contains("Copy ID"), "{err}");
}

#[test]
fn reflector_and_lifecycle_keys_have_defaults_and_ranges() {
    let c = load(OK).unwrap().config;
    assert_eq!(
        (
            c.reflector_batch_messages,
            c.reflector_batch_tokens,
            c.reflector_concurrency
        ),
        (40, 4000, 2)
    );
    assert_eq!(c.reflector_dedup_threshold, 0.6);
    assert_eq!(c.memory_archive_below_confidence, 0.3);

    // fractions take decimals, and whole numbers too
    let yaml = format!("{OK}memory_archive_below_confidence: 0\n");
    let c = load(&yaml).unwrap().config;
    assert_eq!(c.memory_archive_below_confidence, 0.0);
    // the old similarity thresholds load, with a warning that they no longer decide anything
    let old = load(&format!("{OK}reflector_dedup_threshold: 0.75\n")).unwrap();
    assert_eq!(old.config.reflector_dedup_threshold, 0.75);
    assert!(
        old.warnings[0]
            .to_string()
            .contains("reflector_dedup_threshold: is no longer used"),
        "{:?}",
        old.warnings
    );

    let yaml = format!(
        "{OK}memory_archive_below_confidence: 1.5\n\
         reflector_batch_messages: 0\nreflector_concurrency: 100\n"
    );
    let err = load(&yaml).unwrap_err();
    assert_eq!(
        keys(&err),
        [
            "reflector_batch_messages",
            "reflector_concurrency",
            "memory_archive_below_confidence"
        ]
    );
    let err = load(&format!("{OK}reflector_dedup_threshold: high\n")).unwrap_err();
    assert_eq!(keys(&err), ["reflector_dedup_threshold"]);
    let err = load(&format!("{OK}memory_max_per_chat: 0.5\n")).unwrap_err();
    assert_eq!(keys(&err), ["memory_max_per_chat"]);

    let warned = load(&format!("{OK}memory_profile_half_life_days: 10\n")).unwrap();
    assert!(
        warned
            .warnings
            .iter()
            .any(|w| w.key == "memory_profile_half_life_days"),
        "{:?}",
        warned.warnings
    );
}

#[test]
fn the_example_documents_every_key_with_its_default() {
    let example: serde_yaml::Value =
        serde_yaml::from_str(include_str!("../../config.example.yaml")).unwrap();
    let defaults = serde_yaml::to_value(Config::default()).unwrap();
    assert_eq!(example, defaults);
}

#[test]
fn web_control_chats_need_a_token_and_open_servers_a_long_one() {
    let web_control = format!("{OK}control_chat_ids: [\"web:alice\", \"telegram:1\"]\n");
    let err = load(&web_control).unwrap_err();
    assert_eq!(keys(&err), ["control_chat_ids[0]"], "{err}");
    assert!(err.to_string().contains("auth_token"), "{err}");
    let with_token = format!("{web_control}channels:\n  web:\n    auth_token: a-token\n");
    load(&with_token).unwrap();

    let open = |token: &str| {
        format!("{OK}channels:\n  web:\n    host: 0.0.0.0\n    auth_token: \"{token}\"\n")
    };
    let err = load(&open("x")).unwrap_err();
    assert_eq!(keys(&err), ["channels.web.auth_token"]);
    assert!(err.to_string().contains("at least 24"), "{err}");
    load(&open(&"k".repeat(24))).unwrap();
    // On loopback a short token is the owner's business.
    load(&format!("{OK}channels:\n  web:\n    auth_token: x\n")).unwrap();
}

#[test]
fn a_mistyped_key_is_answered_with_the_key_meant() {
    let err = load(&format!("{OK}reflector_intervl_mins: 5\n")).unwrap_err();
    assert_eq!(keys(&err), ["reflector_intervl_mins"]);
    assert!(
        err.to_string()
            .contains("unknown key; did you mean `reflector_interval_mins`?"),
        "{err}"
    );
    let err = load(&format!("{OK}channels:\n  telegram:\n    bot_tokn: x\n")).unwrap_err();
    assert!(
        err.to_string().contains("did you mean `bot_token`?"),
        "{err}"
    );
    // Nothing close: the keys known there are listed instead.
    let err = load(&format!("{OK}temperature: 0.2\n")).unwrap_err();
    assert!(err.to_string().contains("known here:"), "{err}");
}

#[test]
fn telegram_webhook_mode_needs_a_url_a_secret_and_an_address() {
    let c = load(OK).unwrap().config;
    let tg = &c.channels.telegram;
    assert_eq!(
        (tg.mode.as_str(), tg.webhook_listen.as_str()),
        ("polling", "127.0.0.1:10962")
    );
    assert!(!tg.is_webhook());

    let tg = |lines: &str| format!("{OK}channels:\n  telegram:\n{lines}");
    let good = "    mode: webhook\n    webhook_url: https://bot.example.com/telegram/hook\n    \
                webhook_secret: s3cret_-TOKEN\n    webhook_listen: 0.0.0.0:8443\n";
    let c = load(&tg(good)).unwrap().config;
    assert!(c.channels.telegram.is_webhook());
    assert!(
        !format!("{c:?}").contains("s3cret_-TOKEN"),
        "the secret never prints"
    );

    let err = load(&tg("    mode: webhook\n")).unwrap_err();
    assert_eq!(
        keys(&err),
        [
            "channels.telegram.webhook_url",
            "channels.telegram.webhook_secret"
        ]
    );
    assert!(
        err.to_string().contains("required when mode is webhook"),
        "{err}"
    );

    let err = load(&tg("    mode: webhok\n")).unwrap_err();
    assert_eq!(keys(&err), ["channels.telegram.mode"]);
    assert!(
        err.to_string()
            .contains("must be `polling` or `webhook`, got `webhok`; did you mean `webhook`?"),
        "{err}"
    );

    let bad = "    mode: webhook\n    webhook_url: not a url\n    webhook_secret: \"has spaces!\"\n    \
               webhook_listen: localhost\n";
    let err = load(&tg(bad)).unwrap_err();
    assert_eq!(
        keys(&err),
        [
            "channels.telegram.webhook_url",
            "channels.telegram.webhook_secret",
            "channels.telegram.webhook_listen"
        ]
    );
    assert!(!err.to_string().contains("has spaces"), "{err}");
    let long = format!(
        "    mode: webhook\n    webhook_url: https://x.example/h\n    webhook_secret: {}\n",
        "a".repeat(257)
    );
    assert!(
        load(&tg(&long))
            .unwrap_err()
            .to_string()
            .contains("at most 256")
    );
    let ftp = "    mode: webhook\n    webhook_url: ftp://x.example/h\n    webhook_secret: s\n";
    assert_eq!(
        keys(&load(&tg(ftp)).unwrap_err()),
        ["channels.telegram.webhook_url"]
    );

    // http works with a Bot API server of one's own; with Telegram's, a warning says why not.
    let http = "    mode: webhook\n    webhook_url: http://x.example/h\n    webhook_secret: s\n";
    let warned = load(&tg(http)).unwrap();
    assert!(
        warned
            .warnings
            .iter()
            .any(|w| w.key == "channels.telegram.webhook_url" && w.message.contains("https")),
        "{:?}",
        warned.warnings
    );
    let own = format!("{http}    api_url: http://127.0.0.1:8081\n");
    let own = load(&tg(&own)).unwrap();
    assert!(
        own.warnings
            .iter()
            .all(|w| w.key != "channels.telegram.webhook_url"),
        "{:?}",
        own.warnings
    );

    // The secret may come from the environment.
    let env = [("MNEME_TELEGRAM_WEBHOOK_SECRET", "from-env".to_string())];
    let yaml = tg("    mode: webhook\n    webhook_url: https://x.example/h\n");
    let loaded = Config::from_yaml(&yaml, Path::new("c.yaml"), &env).unwrap();
    assert_eq!(
        loaded.config.channels.telegram.webhook_secret.expose(),
        "from-env"
    );
}

#[test]
fn a_url_shown_hides_its_password_however_it_is_typed() {
    for (url, shown) in [
        (
            "postgres://mneme:hunter2@db.example/mneme",
            "postgres://mneme:***@db.example/mneme",
        ),
        ("postgres//mneme:hunter2@db/m", "postgres//mneme:***@db/m"),
        ("postgres:/mneme:hunter2@db/m", "postgres:/mneme:***@db/m"),
        ("mneme:hunter2@db/m", "mneme:***@db/m"),
        ("postgres://:hunter2@db/m", "postgres://:***@db/m"),
        // A password holding `@`, `/` or `:`.
        (
            "postgres://mneme:hun@ter/2@db/m",
            "postgres://mneme:***@db/m",
        ),
        (
            "postgres://mneme:hun:ter2@db/m",
            "postgres://mneme:***@db/m",
        ),
        // Nothing to hide.
        ("postgres://mneme@db/m", "postgres://mneme@db/m"),
        ("postgres://db/m", "postgres://db/m"),
        ("sqlite:///var/lib/mneme.db", "sqlite:///var/lib/mneme.db"),
    ] {
        assert_eq!(crate::config::redact_url_password(url), shown, "{url}");
    }
}

#[test]
fn database_urls_name_sqlite_or_postgres_and_never_show_a_password() {
    for good in [
        "",
        "sqlite:///var/lib/mneme/mneme.db",
        "postgres://mneme:pw@db.example:5432/mneme",
        "postgresql://mneme@127.0.0.1/mneme?sslmode=disable",
    ] {
        let loaded = load(&format!("{OK}database_url: \"{good}\"\n"));
        assert!(loaded.is_ok(), "{good}: {:?}", loaded.err());
    }
    for (bad, says) in [
        (
            "mysql://root:hunter2@db/mneme",
            "not a database this build opens",
        ),
        ("postgres://mneme:hunter2@/mneme", "empty host"),
        (
            "postgres://mneme:hunter2@db.example:5432",
            "names no database",
        ),
        (
            "postgres://mneme:hunter2@db.example:notaport/x",
            "is not a URL",
        ),
        // Mistyped schemes: the password is still not shown.
        ("postgres//mneme:hunter2@db/mneme", "not a database"),
        ("postgres:/mneme:hunter2@db/mneme", "not a database"),
        ("mneme:hunter2@db/mneme", "not a database"),
    ] {
        let err = load(&format!("{OK}database_url: \"{bad}\"\n")).unwrap_err();
        assert_eq!(keys(&err), ["database_url"], "{bad}");
        let message = err.problems[0].to_string();
        assert!(message.contains(says), "{bad}: {message}");
        assert!(!message.contains("hunter2"), "{message}");
    }
    // The URL (and its password) may come from the environment instead of the file.
    let env = [(
        "MNEME_DATABASE_URL",
        "postgres://mneme:s3cret@db.example/mneme".to_string(),
    )];
    let loaded = Config::from_yaml(OK, Path::new("c.yaml"), &env).unwrap();
    assert_eq!(
        loaded.config.database_url(),
        "postgres://mneme:s3cret@db.example/mneme"
    );
    assert_eq!(
        loaded.config.database_url_for_display(),
        "postgres://mneme:***@db.example/mneme"
    );
}
