//! One `mneme start` per SQLite database. Two would both poll the Telegram bot (and fight over
//! it with 409s), both hold a Discord gateway session, and both run the reflector, the sweeps
//! and the backups: on SQLite nothing else coordinates processes (PostgreSQL does, with its
//! leases, for replicas). So `start` holds an exclusive lock on `<database>.lock` while it
//! runs; the operating system lets go of it when the process ends, however it ends. The CLI's
//! other commands take no lock: they work beside a running daemon.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::PathBuf;

use anyhow::Context;

use crate::config::Config;

/// Held while `mneme start` runs.
pub struct InstanceLock {
    _file: File,
}

/// Takes the lock of `config`'s SQLite database, or says which process holds it. `None` on
/// PostgreSQL (several replicas are the point there) and for SQLite in memory.
pub fn claim(config: &Config) -> anyhow::Result<Option<InstanceLock>> {
    let Some(db) = config.sqlite_file() else {
        return Ok(None);
    };
    let path = lock_path(&db);
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    match file.try_lock() {
        Ok(()) => {
            // Who holds it, for the next one's error (a failure to say so is no failure).
            let _ = file
                .set_len(0)
                .and_then(|()| file.write_all(std::process::id().to_string().as_bytes()));
            Ok(Some(InstanceLock { _file: file }))
        }
        Err(TryLockError::WouldBlock) => {
            let mut holder = String::new();
            let _ = file
                .rewind()
                .and_then(|()| file.read_to_string(&mut holder));
            let holder = match holder.trim() {
                pid if !pid.is_empty() && pid.chars().all(|c| c.is_ascii_digit()) => {
                    format!(" (pid {pid})")
                }
                _ => String::new(),
            };
            anyhow::bail!(
                "another `mneme start`{holder} is running on {}: two would each answer, reflect \
                 and back up. Stop it first; for several processes on one bot, use PostgreSQL \
                 (see the README's \"Several replicas\")",
                db.display()
            )
        }
        Err(TryLockError::Error(e)) => {
            Err(e).with_context(|| format!("cannot lock {}", path.display()))
        }
    }
}

/// `<database>.lock`, beside the database file.
fn lock_path(db: &std::path::Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(dir: &std::path::Path) -> Config {
        Config {
            data_dir: dir.to_path_buf(),
            ..Config::default()
        }
    }

    #[test]
    fn a_second_claim_on_one_database_is_refused_with_the_holder() {
        let dir = tempfile::tempdir().unwrap();
        let first = claim(&config(dir.path())).unwrap();
        assert!(first.is_some());
        let second = claim(&config(dir.path())).err().unwrap().to_string();
        let pid = std::process::id();
        assert!(
            second.starts_with(&format!("another `mneme start` (pid {pid}) is running on ")),
            "{second}"
        );
        assert!(second.contains("mneme.db"), "{second}");
        drop(first);
        assert!(claim(&config(dir.path())).unwrap().is_some(), "released");
    }

    #[test]
    fn postgresql_takes_no_lock() {
        let dir = tempfile::tempdir().unwrap();
        let c = Config {
            database_url: "postgres://u:p@localhost/db".into(),
            ..config(dir.path())
        };
        assert!(claim(&c).unwrap().is_none());
    }
}
