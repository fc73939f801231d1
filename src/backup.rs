//! `mneme backup` and `mneme restore FILE`.
//!
//! A backup is a folder `<data_dir>/backups/mneme-<UTC time>/` holding `mneme.db` — an online,
//! consistent copy made by SQLite itself (`VACUUM INTO`, so it works while the daemon writes;
//! never a file copy of a live WAL database), checked with `PRAGMA integrity_check` before it
//! counts — and `groups/`, the AGENTS.md files. It is written under a temporary name and renamed
//! when complete; the newest `backup_keep` are kept.
//!
//! A restore refuses while a daemon is using the data (its heartbeat is fresh), checks the file
//! before touching anything, and moves what it replaces aside to `<data_dir>/replaced-<time>/`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;

use crate::config::Config;
use crate::health;
use crate::store::{self, Store};

/// The database's file inside a backup folder (and in `data_dir`).
const DB_FILE: &str = "mneme.db";
/// The AGENTS.md tree inside a backup folder.
const GROUPS: &str = "groups";
const PREFIX: &str = "mneme-";

pub fn backups_dir(config: &Config) -> PathBuf {
    config.data_dir.join("backups")
}

/// The SQLite file of `config`, or an error when the database is not a SQLite file.
fn database_file(config: &Config) -> anyhow::Result<PathBuf> {
    config.sqlite_file().ok_or_else(|| {
        anyhow::anyhow!(
            "backup and restore work on a SQLite database file; database_url is `{}` \
                 (back up PostgreSQL with pg_dump, restore with pg_restore)",
            config.database_url_for_display()
        )
    })
}

/// Makes one backup now and rotates; returns its folder.
pub async fn make_backup(config: &Config, store: &Store, keep: usize) -> anyhow::Result<PathBuf> {
    let dir = backups_dir(config);
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%S%.3fZ").to_string();
    let target = dir.join(format!("{PREFIX}{stamp}"));
    let partial = dir.join(format!(".{PREFIX}{stamp}.partial"));
    remove_abandoned(&dir);
    std::fs::create_dir_all(&partial)?;
    let made = async {
        let db = partial.join(DB_FILE);
        store.backup_into(&db).await.context("VACUUM INTO")?;
        store::check_database_file(&db).await?;
        copy_agents_files(&config.runtime_dir().join("groups"), &partial.join(GROUPS))?;
        std::fs::rename(&partial, &target)?;
        anyhow::Ok(())
    };
    if let Err(e) = made.await {
        let _ = std::fs::remove_dir_all(&partial);
        return Err(e.context("backup failed; nothing was kept"));
    }
    rotate(&dir, keep)?;
    Ok(target)
}

/// Removes partial backups a run cut off (the daemon stopped, the machine died) more than an
/// hour ago; a younger one may be another run's, still going.
fn remove_abandoned(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name().to_string_lossy().into_owned();
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > std::time::Duration::from_secs(3600));
        if name.starts_with(&format!(".{PREFIX}")) && name.ends_with(".partial") && old {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Keeps the newest `keep` backups (by name: the names are UTC times).
fn rotate(dir: &Path, keep: usize) -> anyhow::Result<()> {
    let mut backups: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with(PREFIX))
        .map(|e| e.path())
        .collect();
    backups.sort();
    let excess = backups.len().saturating_sub(keep.max(1));
    for old in &backups[..excess] {
        std::fs::remove_dir_all(old)
            .with_context(|| format!("cannot remove the old backup {}", old.display()))?;
    }
    Ok(())
}

/// Copies every AGENTS.md under `from` (keeping the folders) to `to`. Only those files: the
/// tree holds nothing else of ours.
fn copy_agents_files(from: &Path, to: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(to)?;
    if !from.is_dir() {
        return Ok(());
    }
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let dest = to.join(entry.file_name());
        if kind.is_dir() {
            copy_agents_files(&entry.path(), &dest)?;
        } else if kind.is_file() && entry.file_name() == "AGENTS.md" {
            std::fs::copy(entry.path(), &dest)?;
        }
    }
    Ok(())
}

pub async fn run_backup(config: &Config, store: &Store) -> anyhow::Result<ExitCode> {
    // PostgreSQL: said plainly, before any attempt.
    database_file(config)?;
    let folder = make_backup(config, store, config.backup_keep as usize).await?;
    let size = std::fs::metadata(folder.join(DB_FILE)).map_or(0, |m| m.len());
    println!(
        "backup: {} (database {:.1} MB, integrity ok; the newest {} kept)",
        folder.display(),
        size as f64 / 1e6,
        config.backup_keep
    );
    Ok(ExitCode::SUCCESS)
}

pub async fn run_restore(config: &Config, from: &Path) -> anyhow::Result<ExitCode> {
    let heartbeat = health::heartbeat_path(&config.data_dir);
    if health::read_heartbeat(&heartbeat, health::unix_now()).is_ok() {
        anyhow::bail!(
            "a daemon is using {} (its heartbeat is fresh): stop `mneme start` first, then restore",
            config.data_dir.display()
        );
    }
    // FILE is a backup folder or the database file inside one.
    let (backup_db, backup_groups) = if from.is_dir() {
        (from.join(DB_FILE), Some(from.join(GROUPS)))
    } else {
        let groups = from.parent().map(|p| p.join(GROUPS));
        (from.to_path_buf(), groups)
    };
    store::check_database_file(&backup_db)
        .await
        .with_context(|| {
            format!(
                "{} is not a usable backup; nothing was changed",
                backup_db.display()
            )
        })?;
    let backup_groups = backup_groups.filter(|g| g.is_dir());

    let live_db = database_file(config)?;
    let live_groups = config.runtime_dir().join("groups");
    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%SZ");
    let aside = config.data_dir.join(format!("replaced-{stamp}"));
    std::fs::create_dir_all(&aside)?;
    for suffix in ["", "-wal", "-shm"] {
        let file = PathBuf::from(format!("{}{suffix}", live_db.display()));
        if file.exists() {
            let name = file.file_name().expect("a file name").to_owned();
            std::fs::rename(&file, aside.join(name))?;
        }
    }
    if backup_groups.is_some() && live_groups.exists() {
        std::fs::rename(&live_groups, aside.join(GROUPS))?;
    }
    if let Some(dir) = live_db.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::copy(&backup_db, &live_db)?;
    if let Some(groups) = &backup_groups {
        copy_agents_files(groups, &live_groups)?;
    }
    println!(
        "restored {} into {}; what it replaced is in {}",
        from.display(),
        config.data_dir.display(),
        aside.display()
    );
    Ok(ExitCode::SUCCESS)
}
