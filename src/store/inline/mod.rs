//! SQLite's hot writes run on the async workers instead of a thread of their own.
//!
//! sqlx runs each SQLite connection on a thread of its own: every statement is a hand-off
//! there and back (a futex wake each way, and an `eventfd` write to wake the async worker).
//! Under load that parking and waking was the largest single cost of a message. The writes
//! every message makes (its arrival, its turn's start, its turn's records) take a few tens of
//! microseconds of SQLite's own work each (WAL, `synchronous = NORMAL`: a commit does not wait
//! for the disk; checkpoints run in the background, `checkpoint.rs`), so [`InlineWriter`]
//! runs them on the async workers, on a connection of its own (rusqlite, on the same SQLite
//! library sqlx links).
//!
//! It writes only while holding the writer pool's one connection (the gate every other write
//! of the process takes), so the process still has one writer at a time and never meets
//! SQLite's busy handler, which would sleep on the async worker. Another process writing the
//! same file (`mneme chat` beside the daemon) is waited for asynchronously: a write that finds
//! the database busy is retried after a pause, up to the same 10 s sqlx's connections wait.
//!
//! Writes are combined: a write is queued, and whoever takes the gate runs every write queued
//! at that moment in one transaction, commits once and hands each its result. In a burst (a
//! hundred chats' turns starting together) the gate is not handed from task to task a hundred
//! times — each hand-off a wait for the next task to be scheduled, behind everything else the
//! burst made ready — and the writes share one commit.
//!
//! A write that fails undoes itself only. The writes are run first as they are: a savepoint
//! each would have SQLite copy every page a write touches into its statement journal, and
//! the full-text index flush its pending entries into a segment of their own at each one,
//! about half the pages a message wrote. Should one fail, the transaction is rolled back and
//! the same writes go back to the head of the queue to run again, each in a savepoint of its
//! own; so a write must give the same result when it is run again from the same state.
//!
//! Every transaction ends with the store's `leaves_work` check: whether messages its writes
//! inserted wait for the full-text index. Then the writer tells whoever watches
//! ([`InlineWriter::work_left`]: `store/index_later.rs`, which indexes them once the writes
//! pause).

use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use rusqlite::{Connection, ErrorCode, OpenFlags};
use tokio::sync::{oneshot, watch};

use super::Result;
use super::db::SqliteConns;

mod query;

pub use query::Query;
use query::{InlineError, error, failed, shared};

/// How long a write waits for another process's write to end, as sqlx's `busy_timeout`.
const BUSY_WAIT: Duration = Duration::from_secs(10);

/// At most this many writes share a transaction (each takes tens of microseconds).
const MAX_COMBINED: usize = 256;

/// The writer of the hot statements ([`InlineWriter::write`]).
pub struct InlineWriter {
    conn: Mutex<Connection>,
    /// The writer pool's one connection: held while writing, so that one write runs at a time.
    gate: SqliteConns,
    /// Writes waiting to be run, each with its number; whoever holds the gate runs them.
    queue: Mutex<Queue>,
    /// Run in each transaction just before its commit: whether it leaves work for later (the
    /// store: messages noted for the full-text index, `index_later::notes_left`).
    leaves_work: LeavesWork,
    /// Marked changed at each commit that left work ([`InlineWriter::work_left`]).
    work_left: watch::Sender<()>,
}

/// What runs in each transaction just before its commit ([`InlineWriter::open`]): whether the
/// transaction leaves work for later.
pub type LeavesWork = fn(&Connection) -> rusqlite::Result<bool>;

#[derive(Default)]
struct Queue {
    next: u64,
    writes: Vec<Waiting>,
}

/// A write in the queue, with its number.
struct Waiting {
    number: u64,
    write: Box<dyn Queued>,
    /// To run in a savepoint of its own: it was in a combined run in which a write failed.
    alone: bool,
}

/// A write waiting in the queue: run (its value kept until the commit), then answered; or
/// failed without running.
trait Queued: Send {
    /// Runs the write in the open transaction, in a savepoint of its own when `alone`;
    /// whether it succeeded. Run again, it replaces the value of the run before.
    fn run(&mut self, conn: &Connection, alone: bool) -> bool;
    /// Sends the value of the last run, or the commit's error.
    fn deliver(self: Box<Self>, commit: &std::result::Result<(), Arc<InlineError>>);
    fn fail(self: Box<Self>, error: &Arc<InlineError>);
}

struct Write<F, T> {
    f: F,
    value: Option<rusqlite::Result<T>>,
    result: oneshot::Sender<Result<T>>,
}

impl<F, T> Queued for Write<F, T>
where
    F: FnMut(&Connection) -> rusqlite::Result<T> + Send + 'static,
    T: Send + 'static,
{
    fn run(&mut self, conn: &Connection, alone: bool) -> bool {
        let value = match alone {
            true => in_savepoint(conn, &mut self.f),
            false => (self.f)(conn),
        };
        let ok = value.is_ok();
        self.value = Some(value);
        ok
    }

    fn deliver(self: Box<Self>, commit: &std::result::Result<(), Arc<InlineError>>) {
        let result = match (self.value, commit) {
            (Some(Err(e)), _) => Err(error(e)),
            (_, Err(e)) => Err(shared(e)),
            (Some(Ok(value)), Ok(())) => Ok(value),
            (None, Ok(())) => Err(failed("a queued write was answered unrun".into(), None)),
        };
        let _ = self.result.send(result);
    }

    fn fail(self: Box<Self>, error: &Arc<InlineError>) {
        let _ = self.result.send(Err(shared(error)));
    }
}

impl std::fmt::Debug for InlineWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InlineWriter").finish_non_exhaustive()
    }
}

impl InlineWriter {
    /// A connection to the database file at `path`, set as sqlx's are (`Store::open`), whose
    /// transactions each run `leaves_work` last.
    pub fn open(
        path: &Path,
        gate: SqliteConns,
        checkpoint_pages: u32,
        leaves_work: LeavesWork,
    ) -> Result<Self> {
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(error)?;
        // `temp_store`: the journal a savepoint keeps (`run_alone`), and the one SQLite keeps for
        // a statement that may fail midway, stay in memory instead of spilling to a file.
        conn.execute_batch(&format!(
            "PRAGMA synchronous = NORMAL;
             PRAGMA foreign_keys = ON;
             PRAGMA wal_autocheckpoint = {checkpoint_pages};
             PRAGMA temp_store = MEMORY;"
        ))
        .map_err(error)?;
        // Busy: answered at once, and waited for without holding the async worker (`run_queued`).
        conn.busy_timeout(Duration::ZERO).map_err(error)?;
        conn.set_prepared_statement_cache_capacity(64);
        Ok(Self {
            conn: Mutex::new(conn),
            gate,
            queue: Mutex::default(),
            leaves_work,
            work_left: watch::Sender::new(()),
        })
    }

    /// Seen changed after each commit whose transaction left work for later (`leaves_work`);
    /// closed when the writer is dropped.
    pub fn work_left(&self) -> watch::Receiver<()> {
        self.work_left.subscribe()
    }

    /// Runs `f` in a write transaction (an error of `f` undoes `f` only); `f`'s value once
    /// the transaction is committed. `f` runs on whichever async worker holds the gate when
    /// its turn comes, together with the writes queued with it, and may be run twice (see the
    /// module's doc): from the same state it must give the same result. A write given up
    /// before it ran is not run.
    pub async fn write<T, F>(&self, f: F) -> Result<T>
    where
        F: FnMut(&Connection) -> rusqlite::Result<T> + Send + 'static,
        T: Send + 'static,
    {
        let (result, mut done) = oneshot::channel();
        let number = {
            let mut queue = self.queue();
            let number = queue.next;
            queue.next += 1;
            let write = Box::new(Write {
                f,
                value: None,
                result,
            });
            queue.writes.push(Waiting {
                number,
                write,
                alone: false,
            });
            number
        };
        let mut unqueue = Unqueue {
            writer: self,
            number,
            answered: false,
        };
        loop {
            tokio::select! {
                biased;
                result = &mut done => {
                    unqueue.answered = true;
                    return result.unwrap_or_else(|_| {
                        Err(failed("a queued write was dropped unrun".into(), None))
                    });
                }
                gate = self.gate.acquire() => self.run_queued(gate).await,
            }
        }
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn queue(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// With the gate (or the error of taking it): runs the queued writes in one transaction,
    /// commits and hands each its result; or, when one of them failed, rolls back and puts
    /// them back at the head of the queue, to run each in a savepoint of its own. Taking
    /// SQLite's write lock may wait (asynchronously, up to [`BUSY_WAIT`]) for another
    /// process; once it is taken nothing here awaits, so the writes taken from the queue are
    /// run and then answered or queued again even if this task is given up.
    async fn run_queued(&self, gate: Result<super::conn_pool::Held<sqlx::SqliteConnection>>) {
        let begun = match gate {
            Err(e) => Err(Arc::new(InlineError::of(&e))),
            Ok(_) if self.queue().writes.is_empty() => return,
            Ok(gate) => self.begin().await.map(|()| gate),
        };
        let gate = match begun {
            Ok(gate) => gate,
            Err(e) => {
                // Nothing can be written now: every write waiting is told why.
                let writes = std::mem::take(&mut self.queue().writes);
                for waiting in writes {
                    waiting.write.fail(&e);
                }
                return;
            }
        };
        let mut writes: Vec<_> = {
            let mut queue = self.queue();
            let n = queue.writes.len().min(MAX_COMBINED);
            queue.writes.drain(..n).collect()
        };
        let commit = {
            let conn = self.conn();
            if writes.iter().any(|w| w.alone) {
                Some(run_alone(&conn, &mut writes, self.leaves_work))
            } else if writes.iter_mut().all(|w| w.write.run(&conn, false)) {
                Some(commit(&conn, self.leaves_work))
            } else {
                // One failed: nothing of the run is kept, and each is run again on its own.
                roll_back(&conn);
                None
            }
        };
        drop(gate);
        match commit {
            Some(commit) => {
                if matches!(commit, Ok(true)) {
                    self.work_left.send_replace(());
                }
                let commit = commit.map(|_| ());
                for waiting in writes {
                    waiting.write.deliver(&commit);
                }
            }
            None => {
                let mut queue = self.queue();
                for waiting in &mut writes {
                    waiting.alone = true;
                }
                queue.writes.splice(0..0, writes);
            }
        }
    }

    /// `BEGIN IMMEDIATE`, retried after a pause while another process writes.
    async fn begin(&self) -> std::result::Result<(), Arc<InlineError>> {
        let mut pause = Duration::from_millis(1);
        let mut waited = Duration::ZERO;
        loop {
            let begun = {
                let conn = self.conn();
                // Left open by a write that panicked: what it held is undone.
                roll_back(&conn);
                run_cached(&conn, "BEGIN IMMEDIATE")
            };
            match begun {
                Ok(()) => return Ok(()),
                Err(e) if is_busy(&e) && waited < BUSY_WAIT => {
                    tokio::time::sleep(pause).await;
                    waited += pause;
                    pause = (pause * 2).min(Duration::from_millis(50));
                }
                Err(e) => return Err(Arc::new(InlineError::from(e))),
            }
        }
    }
}

/// Takes write `number` out of the queue when its caller gives it up before it ran. A write
/// whose result came has left the queue already (results are sent only once taken out), so
/// nothing is looked for then.
struct Unqueue<'a> {
    writer: &'a InlineWriter,
    number: u64,
    answered: bool,
}

impl Drop for Unqueue<'_> {
    fn drop(&mut self) {
        if !self.answered {
            (self.writer.queue().writes).retain(|w| w.number != self.number);
        }
    }
}

/// Runs `writes`, each in a savepoint of its own (one that fails undoes itself only), and
/// commits. A write whose error ended the transaction (SQLite rolls back by itself on some,
/// such as a full disk) ends the run: the writes after it fail unrun, and those before it with
/// the commit.
fn run_alone(
    conn: &Connection,
    writes: &mut [Waiting],
    leaves_work: LeavesWork,
) -> std::result::Result<bool, Arc<InlineError>> {
    for waiting in writes.iter_mut() {
        if conn.is_autocommit() {
            return Err(Arc::new(InlineError::of(&failed(
                "the transaction was rolled back by an earlier write's error".into(),
                None,
            ))));
        }
        waiting.write.run(conn, true);
    }
    commit(conn, leaves_work)
}

/// Runs `leaves_work` and commits the open transaction: whether it left work. On an error
/// rolls it back.
fn commit(
    conn: &Connection,
    leaves_work: LeavesWork,
) -> std::result::Result<bool, Arc<InlineError>> {
    leaves_work(conn)
        .and_then(|left| run_cached(conn, "COMMIT").map(|()| left))
        .map_err(|e| {
            roll_back(conn);
            Arc::new(InlineError::from(e))
        })
}

/// Rolls back the open transaction, if there is one (SQLite may have rolled it back itself).
fn roll_back(conn: &Connection) {
    if !conn.is_autocommit() {
        let _ = run_cached(conn, "ROLLBACK");
    }
}

/// Runs `f` in a savepoint of the open transaction: kept when `f` returns `Ok`, undone otherwise.
fn in_savepoint<T>(
    conn: &Connection,
    f: impl FnOnce(&Connection) -> rusqlite::Result<T>,
) -> rusqlite::Result<T> {
    run_cached(conn, "SAVEPOINT write")?;
    let value = f(conn);
    if value.is_err() {
        run_cached(conn, "ROLLBACK TO write")?;
    }
    run_cached(conn, "RELEASE write")?;
    value
}

/// A statement with no values and no rows (`BEGIN`, `COMMIT`, savepoints), prepared once.
fn run_cached(conn: &Connection, sql: &str) -> rusqlite::Result<()> {
    conn.prepare_cached(sql)?.execute([]).map(|_| ())
}

fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
    )
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;
    use crate::base::ChatKey;
    use crate::store::intake::tests::arrival;
    use crate::store::{Store, db};

    /// Another process writing the file (here a connection of its own holding SQLite's write
    /// lock) is waited for without holding the async worker: the runtime has one thread, and
    /// the waiting write neither fails nor keeps other work from running; it lands once the
    /// lock is released.
    #[tokio::test]
    async fn a_write_waits_for_another_process_without_blocking_the_runtime() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mneme.db");
        let store = Store::open(&format!("sqlite://{}", path.display()))
            .await
            .unwrap();
        let other = Connection::open(&path).unwrap();
        other.busy_timeout(Duration::ZERO).unwrap();
        // The store just opened may still be writing: nothing here may block the runtime.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while let Err(e) = other.execute_batch("BEGIN IMMEDIATE") {
            assert!(is_busy(&e), "{e}");
            assert!(tokio::time::Instant::now() < deadline, "{e}");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }

        let chat = ChatKey::new("telegram", "1");
        let write = tokio::spawn({
            let store = store.clone();
            let chat = chat.clone();
            async move { store.store_arrivals(&[arrival(&chat, "1", "hello")]).await }
        });
        // The spawned write runs, meets the lock and waits; meanwhile this task runs too.
        for _ in 0..20 {
            tokio::time::sleep(Duration::from_millis(5)).await;
            assert!(!write.is_finished(), "the write went through a held lock");
        }
        other.execute_batch("COMMIT").unwrap();
        let ids = tokio::time::timeout(Duration::from_secs(10), write)
            .await
            .expect("the write lands once the lock is released")
            .unwrap()
            .unwrap();
        assert!(ids[0].is_some());
        assert!(store.find_chat(&chat).await.unwrap().is_some());
    }

    /// A store on a file of its own, with a table `t` written through its inline writer; the
    /// writer's commits counted.
    async fn counted() -> (
        tempfile::TempDir,
        Store,
        Arc<InlineWriter>,
        Arc<AtomicUsize>,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mneme.db");
        let store = Store::open(&format!("sqlite://{}", path.display()))
            .await
            .unwrap();
        let writer = store.inline.clone().unwrap();
        writer
            .write(|c| c.execute_batch("CREATE TABLE t (x INTEGER PRIMARY KEY, y TEXT NOT NULL)"))
            .await
            .unwrap();
        let commits = Arc::new(AtomicUsize::new(0));
        writer.conn().commit_hook(Some({
            let commits = commits.clone();
            move || {
                commits.fetch_add(1, Ordering::SeqCst);
                false
            }
        }));
        (dir, store, writer, commits)
    }

    fn insert(
        writer: &Arc<InlineWriter>,
        x: i64,
        y: Option<&'static str>,
    ) -> tokio::task::JoinHandle<Result<Option<i64>>> {
        insert_counted(writer, x, y, &Arc::default())
    }

    /// [`insert`], counting its runs in `runs`.
    fn insert_counted(
        writer: &Arc<InlineWriter>,
        x: i64,
        y: Option<&'static str>,
        runs: &Arc<AtomicUsize>,
    ) -> tokio::task::JoinHandle<Result<Option<i64>>> {
        let (writer, runs) = (writer.clone(), runs.clone());
        let q = Query::new("INSERT INTO t (x, y) VALUES ($1, $2) RETURNING x")
            .bind(x)
            .bind(y);
        tokio::spawn(async move {
            (writer.write(move |c| {
                runs.fetch_add(1, Ordering::SeqCst);
                q.first(c, |r| r.get(0))
            }))
            .await
        })
    }

    /// The writer pool's one connection, taken (as another write of the process would), so
    /// that the inline writer's writes queue until it is dropped.
    async fn take_the_writer(
        store: &Store,
    ) -> crate::store::conn_pool::Held<sqlx::SqliteConnection> {
        let db::Pool::Sqlite(gate) = &store.writer else {
            unreachable!("a SQLite store")
        };
        gate.acquire().await.unwrap()
    }

    async fn queued_until(writer: &InlineWriter, n: usize) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while writer.queue().writes.len() < n {
            assert!(
                tokio::time::Instant::now() < deadline,
                "the writes never queued"
            );
            tokio::task::yield_now().await;
        }
    }

    fn xs(dir: &tempfile::TempDir) -> Vec<i64> {
        let reader = Connection::open(dir.path().join("mneme.db")).unwrap();
        let mut select = reader.prepare("SELECT x FROM t ORDER BY x").unwrap();
        let xs = select.query_map([], |r| r.get(0)).unwrap();
        xs.collect::<rusqlite::Result<_>>().unwrap()
    }

    /// Statements starting `SAVEPOINT` run on connections traced by [`count_savepoints`].
    static SAVEPOINTS: AtomicUsize = AtomicUsize::new(0);

    fn count_savepoints(statement: &str) {
        if statement.trim_start().starts_with("SAVEPOINT") {
            SAVEPOINTS.fetch_add(1, Ordering::SeqCst);
        }
    }

    /// Writes queued while the writer is taken are run together once it is free: in one
    /// transaction, with one commit, each getting its own value, and no savepoint.
    #[tokio::test]
    async fn writes_queued_together_share_one_commit() {
        let (dir, store, writer, commits) = counted().await;
        writer.conn().trace(Some(count_savepoints));
        let taken = take_the_writer(&store).await;
        let runs = Arc::new(AtomicUsize::new(0));
        let writes = [1, 2, 3].map(|x| insert_counted(&writer, x, Some("y"), &runs));
        queued_until(&writer, 3).await;
        drop(taken);
        for (x, write) in [1, 2, 3].into_iter().zip(writes) {
            assert_eq!(write.await.unwrap().unwrap(), Some(x));
        }
        assert_eq!(
            commits.load(Ordering::SeqCst),
            1,
            "one commit for the three"
        );
        assert_eq!(runs.load(Ordering::SeqCst), 3, "each ran once");
        assert_eq!(SAVEPOINTS.load(Ordering::SeqCst), 0, "no savepoint taken");
        assert_eq!(xs(&dir), [1, 2, 3]);
    }

    /// A write that fails undoes itself only: the writes run with it are rolled back and run
    /// again, each in a savepoint of its own, and committed together.
    #[tokio::test]
    async fn a_write_that_fails_undoes_itself_only() {
        let (dir, store, writer, commits) = counted().await;
        let taken = take_the_writer(&store).await;
        let runs = [(); 3].map(|()| Arc::new(AtomicUsize::new(0)));
        let writes = [
            insert_counted(&writer, 1, Some("one"), &runs[0]),
            insert_counted(&writer, 2, None, &runs[1]),
            insert_counted(&writer, 3, Some("three"), &runs[2]),
        ];
        queued_until(&writer, 3).await;
        drop(taken);
        let [one, broken, three] = writes;
        assert_eq!(one.await.unwrap().unwrap(), Some(1));
        let e = broken.await.unwrap().unwrap_err();
        assert!(e.to_string().contains("NOT NULL"), "{e}");
        assert_eq!(three.await.unwrap().unwrap(), Some(3));
        assert_eq!(
            commits.load(Ordering::SeqCst),
            1,
            "one commit for the three"
        );
        assert_eq!(xs(&dir), [1, 3], "the broken write undid itself only");
        let runs = runs.each_ref().map(|r| r.load(Ordering::SeqCst));
        // The first and the broken one ran twice; the run stopped at the broken one.
        assert_eq!(runs, [2, 2, 1]);

        // Alone, a write commits at once.
        assert_eq!(
            insert(&writer, 4, Some("four")).await.unwrap().unwrap(),
            Some(4)
        );
        assert_eq!(commits.load(Ordering::SeqCst), 2);
    }

    /// A message's arrival run again after a write beside it failed is stored once: its new
    /// chat made once, the message in the chat's one session.
    #[tokio::test]
    async fn an_arrival_run_again_is_stored_once() {
        let (_dir, store, writer, _) = counted().await;
        let taken = take_the_writer(&store).await;
        let chat = ChatKey::new("telegram", "1");
        let arrived = tokio::spawn({
            let store = store.clone();
            let chat = chat.clone();
            async move { store.store_arrivals(&[arrival(&chat, "1", "hello")]).await }
        });
        queued_until(&writer, 1).await;
        let broken = insert(&writer, 1, None);
        queued_until(&writer, 2).await;
        drop(taken);
        let id = arrived.await.unwrap().unwrap()[0].expect("stored").id;
        assert!(broken.await.unwrap().is_err());
        let found = store
            .find_chat(&chat)
            .await
            .unwrap()
            .expect("the chat made");
        let session = store.current_session(found.id).await.unwrap();
        let history = store.session_history(session, id, 10).await.unwrap();
        assert_eq!(history.len(), 1, "{history:?}");
        assert_eq!((history[0].id, history[0].text.as_str()), (id, "hello"));
        let chats: i64 = writer
            .write(|c| c.query_row("SELECT COUNT(*) FROM chats", [], |r| r.get(0)))
            .await
            .unwrap();
        let sessions: i64 = writer
            .write(|c| c.query_row("SELECT COUNT(*) FROM sessions", [], |r| r.get(0)))
            .await
            .unwrap();
        assert_eq!((chats, sessions), (1, 1));
    }

    /// A write given up while it waits in the queue leaves it, and is never run.
    #[tokio::test]
    async fn a_write_given_up_before_it_ran_is_not_run() {
        let (dir, store, writer, _) = counted().await;
        let taken = take_the_writer(&store).await;
        let given_up = insert(&writer, 1, Some("one"));
        queued_until(&writer, 1).await;
        given_up.abort();
        assert!(given_up.await.unwrap_err().is_cancelled());
        assert!(writer.queue().writes.is_empty());
        drop(taken);
        assert_eq!(
            insert(&writer, 2, Some("two")).await.unwrap().unwrap(),
            Some(2)
        );
        assert_eq!(xs(&dir), [2]);
    }

    /// `sqlite::memory:` is a database of the store's own (two are apart), gone with it.
    #[tokio::test]
    async fn an_in_memory_store_is_its_own_and_leaves_nothing() {
        let one = Store::open("sqlite::memory:").await.unwrap();
        let two = Store::open("sqlite::memory:").await.unwrap();
        let chat = ChatKey::new("telegram", "1");
        one.store_arrivals(&[arrival(&chat, "1", "hello")])
            .await
            .unwrap();
        assert!(one.find_chat(&chat).await.unwrap().is_some());
        assert!(two.find_chat(&chat).await.unwrap().is_none());
        let dir = one._scratch.as_ref().unwrap().path().to_owned();
        assert!(dir.join("mneme.db").exists());
        one.close().await;
        drop(one);
        assert!(!dir.exists(), "{} is left behind", dir.display());
    }
}
