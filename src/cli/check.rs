//! `mneme check-config`: every problem of the config at once, the schedules in force, and
//! whether the PostgreSQL server named by `database_url` takes the connection.

use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use sqlx::ConnectOptions;

use crate::base::Backend;
use crate::config::{Config, redact_url_password};

/// How long the check waits for a PostgreSQL server to take the connection.
const CONNECT_WITHIN: Duration = Duration::from_secs(5);

pub async fn run(path: &Path) -> ExitCode {
    let loaded = match Config::load(path) {
        Ok(loaded) => loaded,
        Err(e) => {
            for p in &e.problems {
                println!("{p}");
            }
            let errors = e.problems.iter().filter(|p| p.is_error()).count();
            println!("{}: {errors} error(s)", path.display());
            return ExitCode::from(1);
        }
    };
    for w in &loaded.warnings {
        println!("{w}");
    }
    for line in crate::schedule::describe(&loaded.config) {
        println!("{line}");
    }
    if let Err(e) = data_dir_problem(&loaded.config.data_dir) {
        println!("error: data_dir: {e}");
        println!("{}: 1 error(s)", path.display());
        return ExitCode::from(1);
    }
    if let Err(e) = reach_postgres(&loaded.config).await {
        println!("error: database_url: {e}");
        println!("{}: 1 error(s)", path.display());
        return ExitCode::from(1);
    }
    println!("{}: OK", path.display());
    ExitCode::SUCCESS
}

/// Whether `mneme start` can keep its data in `dir`: it is a writable directory, or one can be
/// made where it would go (tried with a temporary directory beside it, removed at once; the
/// data directory itself is left for `start` to make).
fn data_dir_problem(dir: &Path) -> Result<(), String> {
    if dir.exists() && !dir.is_dir() {
        return Err(format!("{} is a file, not a directory", dir.display()));
    }
    let mut here = dir;
    while !here.exists() {
        match here.parent() {
            Some(p) if !p.as_os_str().is_empty() => here = p,
            _ => {
                here = Path::new(".");
                break;
            }
        }
    }
    if !here.is_dir() {
        return Err(format!(
            "cannot make {}: {} is not a directory",
            dir.display(),
            here.display()
        ));
    }
    tempfile::Builder::new()
        .prefix(".mneme-check-")
        .tempdir_in(here)
        .map(drop)
        .map_err(|e| format!("cannot write in {} ({e})", here.display()))
}

/// On PostgreSQL, connects and asks the server's version (nothing is created or changed);
/// SQLite needs no check (its file is made at start). The error never shows the password.
async fn reach_postgres(config: &Config) -> Result<(), String> {
    let url = config.database_url();
    if config.backend() == Backend::Sqlite {
        return Ok(());
    }
    let shown = redact_url_password(&url);
    let hide = |e: &dyn std::fmt::Display| hide_password(&e.to_string(), &url);
    let options: sqlx::postgres::PgConnectOptions =
        url.parse().map_err(|e| format!("{shown}: {}", hide(&e)))?;
    let connect = async {
        let mut conn = options.connect().await?;
        let version: String = sqlx::query_scalar("SHOW server_version")
            .fetch_one(&mut conn)
            .await?;
        // Whether the first start can make the schema: on PostgreSQL 15 only the database's
        // owner may create in `public` unless granted.
        let rights: (bool, bool, Option<String>, String) = sqlx::query_as(
            "SELECT EXISTS (SELECT 1 FROM pg_tables \
                            WHERE schemaname = current_schema() AND tablename = '_sqlx_migrations'), \
                    COALESCE(has_schema_privilege(current_schema(), 'CREATE'), FALSE), \
                    current_schema()::text, current_user::text",
        )
        .fetch_one(&mut conn)
        .await?;
        let _ = sqlx::Connection::close(conn).await;
        Ok::<_, sqlx::Error>((version, rights))
    };
    match tokio::time::timeout(CONNECT_WITHIN, connect).await {
        Ok(Ok((version, (migrated, can_create, schema, role)))) => {
            if !migrated && !can_create {
                return Err(format!(
                    "{shown} answers, but the role {role} cannot create tables in {}, so the \
                     first start cannot make Mneme's schema: make {role} the database's owner \
                     (ALTER DATABASE … OWNER TO {role}) or grant it (GRANT CREATE ON SCHEMA \
                     public TO {role})",
                    schema.map_or_else(
                        || "any schema of its search_path".into(),
                        |s| format!("schema {s}")
                    )
                ));
            }
            println!("database: {shown} answers (PostgreSQL {version})");
            Ok(())
        }
        Ok(Err(e)) => Err(format!("cannot connect to {shown}: {}", hide(&e))),
        Err(_) => Err(format!(
            "cannot connect to {shown}: no answer within {} s",
            CONNECT_WITHIN.as_secs()
        )),
    }
}

/// `text` with `url`'s password (as typed and percent-decoded) replaced by `***`.
pub(super) fn hide_password(text: &str, url: &str) -> String {
    let Some(password) = url::Url::parse(url)
        .ok()
        .and_then(|u| u.password().map(str::to_string))
    else {
        return text.to_string();
    };
    let decoded = percent_decode(&password);
    let mut out = text.to_string();
    for p in [password.as_str(), decoded.as_str()] {
        if !p.is_empty() {
            out = out.replace(p, "***");
        }
    }
    out
}

fn percent_decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s)
        .decode_utf8_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_is_hidden_from_an_error_as_typed_and_decoded() {
        let url = "postgres://mneme:p%40ss+w@db/m";
        assert_eq!(
            hide_password("failed for p%40ss+w and p@ss+w", url),
            "failed for *** and ***"
        );
        assert_eq!(
            hide_password("no password here", "postgres://db/m"),
            "no password here"
        );
    }
}
