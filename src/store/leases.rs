//! Leases: the work one process does for all the processes on one database — long-polling
//! Telegram, holding the Discord gateway, running the scheduled jobs.
//!
//! On PostgreSQL a lease is a session advisory lock (`pg_try_advisory_lock`) on a connection of
//! its own: PostgreSQL itself releases it the moment that connection ends, so when the holder
//! dies (even by SIGKILL: the kernel closes its socket) another replica takes the lease on its
//! next try, within [`RETRY`]. The holder checks its connection every [`PING`]; a connection
//! that fails means the lease may be gone, so the holder lets go at once. On SQLite there is
//! one process per database file: a lease is held from the start.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sqlx::Connection;
use sqlx::postgres::{PgConnectOptions, PgConnection};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use super::Store;
use super::db::Pool;

/// The scheduled jobs (the reflector's passes, the lifecycle sweep, backups) run on the
/// holder only.
pub const SCHEDULE: &str = "schedule";
/// Telegram's long polling (two pollers on one token make Telegram answer 409).
pub const TELEGRAM_POLLING: &str = "telegram-polling";
/// The bot's one Discord gateway session.
pub const DISCORD_GATEWAY: &str = "discord-gateway";

/// How often a replica without the lease tries again.
pub const RETRY: Duration = Duration::from_millis(500);
/// How often the holder checks that its lock's connection is alive.
const PING: Duration = Duration::from_secs(2);

/// The leases of one process, by name: for `/healthz`.
#[derive(Clone, Default)]
pub struct LeaseBook(Arc<Mutex<BTreeMap<&'static str, watch::Receiver<bool>>>>);

impl LeaseBook {
    /// Names of the leases held now.
    pub fn held(&self) -> Vec<&'static str> {
        let book = self.0.lock().unwrap_or_else(|e| e.into_inner());
        book.iter()
            .filter(|(_, held)| *held.borrow())
            .map(|(name, _)| *name)
            .collect()
    }

    /// Names of every lease this process asks for, held or not.
    pub fn wanted(&self) -> Vec<&'static str> {
        let book = self.0.lock().unwrap_or_else(|e| e.into_inner());
        book.keys().copied().collect()
    }

    /// Whether this process may do the work of lease `name` now: it holds it, or never asked
    /// for it (a one-off command such as `mneme reflect`, which leans on the store's own
    /// guards: a reflector batch commits only where the cursor still is).
    pub fn allows(&self, name: &str) -> bool {
        let book = self.0.lock().unwrap_or_else(|e| e.into_inner());
        book.get(name).is_none_or(|held| *held.borrow())
    }

    fn insert(&self, name: &'static str, held: watch::Receiver<bool>) {
        let mut book = self.0.lock().unwrap_or_else(|e| e.into_inner());
        book.insert(name, held);
    }
}

/// One lease as its user sees it: held or not, and waits for either.
#[derive(Clone)]
pub struct Lease {
    name: &'static str,
    held: watch::Receiver<bool>,
}

impl Lease {
    pub fn name(&self) -> &'static str {
        self.name
    }

    pub fn is_held(&self) -> bool {
        *self.held.borrow()
    }

    /// Waits until the lease is held; false when it never will be (its keeper stopped:
    /// shutdown).
    pub async fn acquired(&mut self) -> bool {
        self.held.wait_for(|held| *held).await.is_ok()
    }

    /// Waits until the lease is no longer held (or its keeper stopped).
    pub async fn lost(&mut self) {
        let _ = self.held.wait_for(|held| !*held).await;
    }
}

/// The advisory lock key of lease `name`: a stable 64-bit hash (FNV-1a) of `mneme:NAME`.
pub fn lock_key(name: &str) -> i64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in "mneme:".bytes().chain(name.bytes()) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash as i64
}

impl Store {
    /// Lease `name`, kept by a task of its own until `shutdown`: taken whenever no other
    /// process holds it, let go when its connection fails or at shutdown.
    pub fn lease(&self, name: &'static str, shutdown: CancellationToken) -> Lease {
        let (tx, rx) = watch::channel(false);
        match &self.pool {
            Pool::Sqlite(_) => {
                let _ = tx.send(true);
                // Held until shutdown; then the receivers see the keeper gone.
                tokio::spawn(async move {
                    shutdown.cancelled().await;
                    let _ = tx.send(false);
                });
            }
            Pool::Postgres(pool) => {
                let options = pool.connect_options();
                tokio::spawn(keep(options, name, tx, shutdown));
            }
        }
        self.leases.insert(name, rx.clone());
        Lease { name, held: rx }
    }

    /// The leases this process asks for, and holds.
    pub fn lease_book(&self) -> &LeaseBook {
        &self.leases
    }
}

/// Waits `wait`, or returns false at shutdown.
async fn pause(wait: Duration, shutdown: &CancellationToken) -> bool {
    tokio::select! {
        () = tokio::time::sleep(wait) => true,
        () = shutdown.cancelled() => false,
    }
}

/// The keeper of one PostgreSQL lease.
async fn keep(
    options: Arc<PgConnectOptions>,
    name: &'static str,
    held: watch::Sender<bool>,
    shutdown: CancellationToken,
) {
    let key = lock_key(name);
    loop {
        let connected = tokio::select! {
            c = PgConnection::connect_with(&options) => c,
            () = shutdown.cancelled() => return,
        };
        let mut conn = match connected {
            Ok(conn) => conn,
            Err(e) => {
                tracing::warn!(lease = name, error = %e, "lease: cannot connect; retrying");
                if pause(RETRY * 4, &shutdown).await {
                    continue;
                }
                return;
            }
        };
        // Try until taken; a failed try means the connection is in doubt: a new one.
        let taken = loop {
            let tried: sqlx::Result<bool> = sqlx::query_scalar("SELECT pg_try_advisory_lock($1)")
                .bind(key)
                .fetch_one(&mut conn)
                .await;
            match tried {
                Ok(true) => break true,
                Ok(false) if pause(RETRY, &shutdown).await => {}
                Ok(false) => break false,
                Err(e) => {
                    tracing::warn!(lease = name, error = %e, "lease: try failed; reconnecting");
                    break false;
                }
            }
        };
        if !taken {
            if shutdown.is_cancelled() {
                let _ = conn.close().await;
                return;
            }
            continue;
        }
        tracing::info!(lease = name, "lease taken");
        let _ = held.send(true);
        // Hold it while the connection lives.
        let alive = loop {
            if !pause(PING, &shutdown).await {
                break false;
            }
            if let Err(e) = sqlx::query("SELECT 1").execute(&mut conn).await {
                tracing::warn!(lease = name, error = %e, "lease: its connection failed; let go");
                break true;
            }
        };
        let _ = held.send(false);
        if !alive {
            // Shutdown: hand it over at once rather than when the connection times out.
            let _ = sqlx::query("SELECT pg_advisory_unlock($1)")
                .bind(key)
                .execute(&mut conn)
                .await;
            let _ = conn.close().await;
            tracing::info!(lease = name, "lease given up at shutdown");
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lock_keys_are_stable_and_distinct() {
        assert_eq!(lock_key("schedule"), lock_key("schedule"));
        assert_ne!(lock_key("schedule"), lock_key("telegram-polling"));
        assert_ne!(lock_key("discord-gateway"), lock_key("telegram-polling"));
    }

    /// Two processes on one PostgreSQL database: one holds the lease; when it lets go (its
    /// connection ends), the other takes it.
    #[tokio::test]
    async fn one_holder_at_a_time_and_the_other_takes_over() {
        for store in crate::store::testing::backends().await {
            let first_stop = CancellationToken::new();
            let mut first = store.lease("test-lease", first_stop.clone());
            assert!(first.acquired().await);
            if store.backend() == super::super::Backend::Sqlite {
                assert_eq!(store.lease_book().held(), ["test-lease"]);
                first_stop.cancel();
                first.lost().await;
                continue;
            }
            // A second process: its own pool on the same database.
            let url = match &store.pool {
                Pool::Postgres(p) => p.connect_options(),
                Pool::Sqlite(_) => unreachable!(),
            };
            let pool = crate::store::db::PgConns::new(
                (*url).clone(),
                1,
                None,
                std::time::Duration::from_secs(10),
            )
            .unwrap();
            let other = Store {
                writer: Pool::Postgres(pool.clone()),
                pool: Pool::Postgres(pool),
                leases: LeaseBook::default(),
                turns: None,
                inline: None,
                _scratch: None,
            };
            let second_stop = CancellationToken::new();
            let mut second = other.lease("test-lease", second_stop.clone());
            // While the first holds it, the second does not (a few of its tries pass).
            tokio::time::sleep(RETRY * 3).await;
            assert!(!second.is_held());
            assert_eq!(other.lease_book().held(), Vec::<&str>::new());
            assert_eq!(other.lease_book().wanted(), ["test-lease"]);
            first_stop.cancel();
            first.lost().await;
            tokio::time::timeout(RETRY * 10, second.acquired())
                .await
                .expect("the second takes the lease once the first lets go");
            assert_eq!(other.lease_book().held(), ["test-lease"]);
            second_stop.cancel();
            second.lost().await;
        }
    }
}
