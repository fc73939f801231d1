//! `mneme copy-to DATABASE_URL`: the configured SQLite database copied whole into an empty
//! PostgreSQL database (`store::copy`) — the step from one process to replicas, losing no
//! message, memory, history or cursor on the way.

use std::process::ExitCode;

use anyhow::{anyhow, bail};

use crate::base::Backend;
use crate::config::{Config, redact_url_password};

pub async fn run(config: &Config, target: &str) -> anyhow::Result<ExitCode> {
    let target = target.trim();
    let Some(source) = config.sqlite_file() else {
        bail!(
            "copy-to copies a SQLite database into PostgreSQL, and database_url names {}; \
             between PostgreSQL servers use pg_dump and pg_restore",
            config.database_url_for_display()
        );
    };
    if let Some(problem) = crate::config::database_url_problem(target) {
        bail!("{problem}");
    }
    if Backend::of_url(target) != Backend::Postgres {
        bail!(
            "copy-to fills a PostgreSQL database: give postgres://USER:PASSWORD@HOST:PORT/DATABASE \
             (or set MNEME_COPY_TO to it)"
        );
    }
    if !source.is_file() {
        bail!(
            "{} does not exist: there is nothing to copy",
            source.display()
        );
    }
    // Messages arriving during the copy would be left behind in the SQLite file.
    let _no_daemon = super::instance::claim(config).map_err(|e| {
        anyhow!(
            "copy-to needs the daemon stopped: {}",
            super::error_text(&e)
        )
    })?;
    // The file's schema brought up to date, as `mneme start` would.
    drop(super::open_store(config).await?);

    let shown = redact_url_password(target);
    let copied = crate::store::copy::sqlite_to_postgres(&source, target)
        .await
        .map_err(|e| {
            let text = super::error_text(&e);
            // as `mneme check-config` says it
            let fix = if text.contains("permission denied for schema") {
                " (make the role the database's owner, ALTER DATABASE … OWNER TO the role, or \
                 grant it: GRANT CREATE ON SCHEMA public TO the role)"
            } else {
                ""
            };
            anyhow!(
                "cannot copy into {shown}: {}{fix}; no data was written there",
                super::check::hide_password(&text, target)
            )
        })?;
    println!("Copied {} into {shown}:", source.display());
    let width = copied
        .tables
        .iter()
        .map(|(t, _)| t.len())
        .max()
        .unwrap_or(0);
    for (table, rows) in &copied.tables {
        println!("  {table:<width$}  {rows:>9}");
    }
    println!(
        "Not in the database, so not copied: the AGENTS.md files under {} — copy that folder \
         to every replica's data_dir (or share it).\n\
         Next: set database_url to this database on every replica and start them (README, \
         \"Several replicas\"). The SQLite file is left as it was.",
        config.runtime_dir().join("groups").display()
    );
    Ok(ExitCode::SUCCESS)
}
