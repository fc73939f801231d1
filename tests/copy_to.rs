//! `mneme copy-to`: an operator moves a bot from its SQLite file to PostgreSQL (the step to
//! replicas) and the bot knows, there, all it knew: every row of every table, its memories'
//! ids and history, the message the reflector has not read yet.

mod support;

use serde_json::{Value, json};
use sqlx::Connection;
use support::binary::*;
use support::fake_embeddings::FakeEmbeddings;
use support::reflector::facts;
use support::*;

use support::postgres::server;

fn yaml(llm: &FakeLlm, emb: &FakeEmbeddings, dir: &std::path::Path, database: &str) -> String {
    format!(
        "data_dir: {}\nllm_base_url: {}\nmodel: fake-model\nllm_timeout_secs: 5\nllm_max_retries: 0\n\
         {database}embedding_provider: openai\nembedding_base_url: {}\nembedding_api_key: k\n\
         channels:\n  web:\n    enabled: false\n",
        dir.join("data").display(),
        llm.url,
        emb.openai_url,
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn a_sqlite_bot_moves_to_postgresql_with_everything_it_knew() {
    let Some(server) = server() else { return };
    let llm = FakeLlm::start().await;
    let emb = FakeEmbeddings::start().await;
    let dir = tempfile::tempdir().unwrap();
    let sqlite = write_config(dir.path(), &yaml(&llm, &emb, dir.path(), ""));

    // A bot's life on SQLite: remembered facts, a conversation, a reflector pass, a memory
    // forgotten (its id must never come back), a message the reflector has not read yet.
    let said = mneme(
        &sqlite,
        &["chat"],
        "remember my dog is named Rex\nremember I prefer green tea\nremember my sister lives in Paris\n",
    )
    .await;
    assert_eq!(said.code, 0, "{}", said.stderr);
    llm.script([openai_text("Hello! Tokyo is lovely.")]);
    let talk = mneme(&sqlite, &["chat"], "hi, I just moved to Tokyo\n").await;
    assert_eq!(talk.stdout, "Hello! Tokyo is lovely.\n", "{}", talk.stderr);
    llm.script([facts(json!([
        {"content": "The user lives in Tokyo", "category": "PROFILE", "supersedes_id": null},
        {"content": "The user prefers green tea", "category": "PROFILE", "duplicate_of": 2},
    ]))]);
    let reflected = mneme(&sqlite, &["reflect"], "").await;
    assert_eq!(
        reflected.code, 0,
        "{}{}",
        reflected.stdout, reflected.stderr
    );
    // The newest memory forgotten: its id must never come back.
    let forgot = mneme(&sqlite, &["memory", "forget", "4"], "").await;
    assert_eq!(forgot.code, 0, "{}", forgot.stderr);
    llm.script([openai_text("Noted, a cat.")]);
    let unread = mneme(&sqlite, &["chat"], "we also adopted a cat\n").await;
    assert_eq!(unread.code, 0, "{}", unread.stderr);

    let views = [
        vec!["memory", "list"],
        vec!["memory", "show", "2"],
        vec!["memory", "search", "tea"],
        vec!["usage"],
    ];
    let mut before = Vec::new();
    for args in &views {
        let run = mneme(&sqlite, args, "").await;
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        before.push(run.stdout);
    }

    // The copy.
    let target = support::postgres::scratch_database(server.clone());
    let copy = mneme(&sqlite, &["copy-to", &target], "").await;
    assert_eq!(copy.code, 0, "{}{}", copy.stdout, copy.stderr);
    let password = url::Url::parse(&target)
        .unwrap()
        .password()
        .unwrap()
        .to_string();
    assert!(
        !copy.stdout.contains(&format!(":{password}@")),
        "{}",
        copy.stdout
    );
    assert!(copy.stdout.contains(":***@"), "{}", copy.stdout);
    assert!(copy.stdout.contains("AGENTS.md"), "{}", copy.stdout);
    let copied_rows = |table: &str| -> u64 {
        let line = copy
            .stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(table))
            .unwrap_or_else(|| panic!("no {table} in {}", copy.stdout));
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    };
    assert!(copied_rows("messages") >= 8, "{}", copy.stdout);
    assert!(copied_rows("memory_events") >= 3, "{}", copy.stdout);
    assert!(copied_rows("memory_vectors") >= 3, "{}", copy.stdout);

    // Every row of every table, the same on both sides.
    let file = dir.path().join("data/mneme.db");
    let mut pg = sqlx::PgConnection::connect(&target).await.unwrap();
    for table in mneme::store::copy::TABLES {
        let mut want = sqlite_rows(&file, table);
        let mut got = postgres_rows(&mut pg, table).await;
        want.sort_by_key(canonical);
        got.sort_by_key(canonical);
        assert_eq!(got, want, "{table}");
    }

    // The bot on PostgreSQL tells the same.
    let database = format!("database_url: \"{target}\"\n");
    let postgres = dir.path().join("postgres.yaml");
    std::fs::write(&postgres, yaml(&llm, &emb, dir.path(), &database)).unwrap();
    for (args, before) in views.iter().zip(&before) {
        let run = mneme(&postgres, args, "").await;
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        assert_eq!(same_rank(&run.stdout), same_rank(before), "{args:?}");
    }
    // New ids start past every id SQLite gave, the forgotten memory's too.
    let floor: i64 = rusqlite::Connection::open(&file)
        .unwrap()
        .query_row("SELECT n FROM memory_id_floor", [], |r| r.get(0))
        .unwrap();
    assert_eq!(floor, 4);
    let saved = mneme(&postgres, &["chat"], "remember my cat is named Tom\n").await;
    assert!(
        saved.stdout.starts_with("Noted. Saved memory #5:"),
        "{}",
        saved.stdout
    );
    // On PostgreSQL, `mneme backup` points to pg_dump, once, plainly.
    let backup = mneme(&postgres, &["backup"], "").await;
    assert_eq!(backup.code, 1);
    assert_eq!(
        backup.stderr.matches("pg_dump").count(),
        1,
        "{}",
        backup.stderr
    );
    assert!(!backup.stderr.contains("VACUUM"), "{}", backup.stderr);
    // The reflector goes on from its cursor: it reads the messages it had not.
    llm.script([facts(json!([
        {"content": "The user has a cat", "category": "PROFILE", "supersedes_id": null},
    ]))]);
    let reflected = mneme(&postgres, &["reflect"], "").await;
    assert_eq!(
        reflected.code, 0,
        "{}{}",
        reflected.stdout, reflected.stderr
    );
    let request = llm.requests().last().unwrap().body.to_string();
    assert!(request.contains("we also adopted a cat"), "{request}");
    assert!(!request.contains("just moved to Tokyo"), "{request}");

    // A second copy into the now full database is refused and changes nothing.
    let count = "SELECT COUNT(*) FROM messages";
    let messages: i64 = sqlx::query_scalar(count).fetch_one(&mut pg).await.unwrap();
    let again = mneme(&sqlite, &["copy-to", &target], "").await;
    assert_eq!(again.code, 1, "{}", again.stdout);
    assert!(
        again.stderr.contains("already holds data (chats: 1")
            && again.stderr.contains("no data was written there"),
        "{}",
        again.stderr
    );
    assert!(
        !again.stderr.contains(&format!(":{password}@")),
        "{}",
        again.stderr
    );
    let after: i64 = sqlx::query_scalar(count).fetch_one(&mut pg).await.unwrap();
    assert_eq!(after, messages);
    pg.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn copy_to_refuses_what_it_cannot_do_whole() {
    let Some(server) = server() else { return };
    let llm = FakeLlm::start().await;
    let emb = FakeEmbeddings::start().await;
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(dir.path(), &yaml(&llm, &emb, dir.path(), ""));

    // Nothing to copy yet.
    let run = mneme(&config, &["copy-to", &server], "").await;
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("there is nothing to copy"),
        "{}",
        run.stderr
    );

    let said = mneme(&config, &["chat"], "remember my dog is named Rex\n").await;
    assert_eq!(said.code, 0, "{}", said.stderr);
    // Not PostgreSQL; not a URL.
    let run = mneme(&config, &["copy-to", "sqlite:///tmp/other.db"], "").await;
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("copy-to fills a PostgreSQL database"),
        "{}",
        run.stderr
    );
    let run = mneme(&config, &["copy-to", "postgres://mneme:hunter2@/"], "").await;
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("postgres://mneme:***@"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("hunter2"), "{}", run.stderr);
    // A wrong password: the server's reason, never the password.
    let mut wrong = url::Url::parse(&support::postgres::scratch_database(server.clone())).unwrap();
    wrong.set_password(Some("wrong-hunter2")).unwrap();
    let run = mneme(&config, &["copy-to", wrong.as_str()], "").await;
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("password authentication failed"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("hunter2"), "{}", run.stderr);

    // While the daemon runs on the file, messages would be left behind: refused.
    let port = support::web::free_port();
    let running = dir.path().join("running.yaml");
    std::fs::write(
        &running,
        yaml(&llm, &emb, dir.path(), "").replace(
            "channels:\n  web:\n    enabled: false\n",
            &format!("channels:\n  web:\n    enabled: true\n    port: {port}\n"),
        ),
    )
    .unwrap();
    let daemon = Daemon::start(&running, "mneme=info");
    support::web::wait_healthy(&format!("http://127.0.0.1:{port}")).await;
    let target = support::postgres::scratch_database(server);
    let run = mneme(&config, &["copy-to", &target], "").await;
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .contains("copy-to needs the daemon stopped: another `mneme start`"),
        "{}",
        run.stderr
    );
    daemon.terminate().await;
    // The URL from the environment, off the command line.
    let out = command(&config, &["copy-to"])
        .env("MNEME_COPY_TO", &target)
        .output()
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("memories"), "{stdout}");
    let mut pg = sqlx::PgConnection::connect(&target).await.unwrap();
    let memories: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM memories")
        .fetch_one(&mut pg)
        .await
        .unwrap();
    assert_eq!(memories, 1);
}

/// `mneme memory …` output without the full-text engine's own scores (SQLite's BM25 and
/// PostgreSQL's `ts_rank` differ in scale; on this test's searches the ranks they give must
/// not).
fn same_rank(output: &str) -> String {
    output
        .lines()
        .map(|line| match line.split_once("bm25 #") {
            Some((head, rest)) => {
                let rank = rest.split_whitespace().next().unwrap_or("");
                let after = rest.split_once(')').map_or("", |(_, a)| a);
                format!("{head}bm25 #{rank}{after}")
            }
            None => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A row as text with its columns in name order.
fn canonical(row: &Value) -> String {
    let sorted: std::collections::BTreeMap<_, _> = row.as_object().unwrap().iter().collect();
    serde_json::to_string(&sorted).unwrap()
}

/// A table's rows in SQLite, as JSON objects (blobs as PostgreSQL's `\x…` hex, numbers as
/// floats, so both sides compare).
fn sqlite_rows(file: &std::path::Path, table: &str) -> Vec<Value> {
    use rusqlite::types::ValueRef;
    let conn = rusqlite::Connection::open(file).unwrap();
    let mut statement = conn.prepare(&format!("SELECT * FROM {table}")).unwrap();
    let names: Vec<String> = statement
        .column_names()
        .iter()
        .map(|c| c.to_string())
        .collect();
    statement
        .query_map([], |row| {
            let mut object = serde_json::Map::new();
            for (i, name) in names.iter().enumerate() {
                let value = match row.get_ref(i)? {
                    ValueRef::Null => Value::Null,
                    ValueRef::Integer(n) => json!(n as f64),
                    ValueRef::Real(r) => json!(r),
                    ValueRef::Text(t) => json!(String::from_utf8_lossy(t)),
                    ValueRef::Blob(b) => {
                        json!(format!(
                            "\\x{}",
                            b.iter().map(|x| format!("{x:02x}")).collect::<String>()
                        ))
                    }
                };
                object.insert(name.clone(), value);
            }
            Ok(Value::Object(object))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// A table's rows in PostgreSQL, as [`sqlite_rows`] gives them (booleans as 0 and 1, the
/// generated search vectors left out).
async fn postgres_rows(pg: &mut sqlx::PgConnection, table: &str) -> Vec<Value> {
    let rows: Vec<Value> =
        sqlx::query_scalar(&format!("SELECT to_jsonb(t) - 'search_tsv' FROM {table} t"))
            .fetch_all(pg)
            .await
            .unwrap();
    rows.into_iter()
        .map(|row| match row {
            Value::Object(o) => Value::Object(
                o.into_iter()
                    .map(|(k, v)| {
                        let v = match v {
                            Value::Bool(b) => json!(f64::from(u8::from(b))),
                            Value::Number(n) => json!(n.as_f64().unwrap()),
                            v => v,
                        };
                        (k, v)
                    })
                    .collect(),
            ),
            other => other,
        })
        .collect()
}
