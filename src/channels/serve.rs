//! Serving an axum app on a listener, for the web chat and the Telegram webhook, with the
//! limits a server open to a network needs and `axum::serve` lacks: a client has
//! [`Limits::headers_within`] to send a request's head and [`Limits::body_within`] between two
//! pieces of its body, or its connection is closed; at most [`Limits::connections`] are open
//! at once (half the open-file limit), and a connection past them is closed as it comes.
//! Without them a client that opened connections and sent half a request on each kept them all
//! (a black-box trial held 20,000 until the process ran out of file descriptors, and
//! `/healthz` stopped answering).
//! Shutdown: no new connection, and those open finish their requests (the caller bounds how
//! long it waits).

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tower_http::timeout::RequestBodyTimeoutLayer;

/// What one client may hold of a server.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub headers_within: Duration,
    pub body_within: Duration,
    pub connections: usize,
}

impl Default for Limits {
    /// 15 s for a head, 30 s between pieces of a body, and connections up to half the
    /// process's open-file limit (64 to 16,384), the other half left to the database, the
    /// model's and the platforms' connections, and the files.
    fn default() -> Self {
        Self {
            headers_within: Duration::from_secs(15),
            body_within: Duration::from_secs(30),
            connections: (open_file_limit() / 2).clamp(64, 16_384),
        }
    }
}

/// The process's soft limit on open files (1,024 where it cannot be read).
fn open_file_limit() -> usize {
    #[cfg(unix)]
    if let Ok((soft, _)) = rlimit::getrlimit(rlimit::Resource::NOFILE) {
        return usize::try_from(soft).unwrap_or(usize::MAX);
    }
    1024
}

/// Serves `app` on `listener` until `shutdown`, then lets the open connections finish.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    shutdown: CancellationToken,
) {
    let app = app.layer(RequestBodyTimeoutLayer::new(limits.body_within));
    let slots = Arc::new(Semaphore::new(limits.connections));
    let graceful = GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.headers_within);
    let mut refused_since_warned: u64 = 0;
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // out of file descriptors, most often: wait for some to close
                    tracing::warn!(error = %e, "cannot accept a connection");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = shutdown.cancelled() => break,
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            if refused_since_warned == 0 {
                tracing::warn!(
                    limit = limits.connections,
                    "too many open connections: new ones are closed until some end"
                );
            }
            refused_since_warned = (refused_since_warned + 1) % 1000;
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let conn =
            http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(app.clone()));
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            // a client gone or too slow: nothing to report
            let _ = conn.await;
            drop(slot);
        });
    }
    drop(listener);
    graceful.shutdown().await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::routing::{get, post};
    use std::time::Instant;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpStream;

    const DEADLINE: Duration = Duration::from_secs(20);

    async fn start(limits: Limits) -> (std::net::SocketAddr, CancellationToken) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let app = Router::new()
            .route("/", get(|| async { "ok" }))
            .route("/echo", post(|body: String| async move { body }));
        let shutdown = CancellationToken::new();
        tokio::spawn(serve(listener, app, limits, shutdown.clone()));
        (addr, shutdown)
    }

    /// Reads until the server closes the connection (or the deadline: a failure); what it said.
    async fn until_closed(conn: &mut TcpStream) -> String {
        let mut got = Vec::new();
        let mut buf = [0u8; 1024];
        let end = Instant::now() + DEADLINE;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match tokio::time::timeout(left, conn.read(&mut buf)).await {
                Ok(Ok(0)) | Ok(Err(_)) => return String::from_utf8_lossy(&got).into(),
                Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
                Err(_) => panic!(
                    "still open after {DEADLINE:?}: {:?}",
                    String::from_utf8_lossy(&got)
                ),
            }
        }
    }

    async fn get_ok(addr: std::net::SocketAddr) -> String {
        let mut conn = TcpStream::connect(addr).await.unwrap();
        conn.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        until_closed(&mut conn).await
    }

    #[tokio::test]
    async fn a_half_sent_head_or_body_is_closed_and_others_are_served() {
        let limits = Limits {
            headers_within: Duration::from_millis(300),
            body_within: Duration::from_millis(300),
            connections: 64,
        };
        let (addr, shutdown) = start(limits).await;
        let mut head = TcpStream::connect(addr).await.unwrap();
        head.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n")
            .await
            .unwrap();
        let mut silent = TcpStream::connect(addr).await.unwrap();
        // kept alive after an answer, then silent
        let mut kept = TcpStream::connect(addr).await.unwrap();
        kept.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .unwrap();
        let mut body = TcpStream::connect(addr).await.unwrap();
        body.write_all(b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nonly part")
            .await
            .unwrap();
        assert!(get_ok(addr).await.ends_with("ok"), "served meanwhile");
        // the head never completed, or never began: closed without an answer
        assert_eq!(until_closed(&mut head).await, "");
        assert_eq!(until_closed(&mut silent).await, "");
        assert!(until_closed(&mut kept).await.ends_with("ok"));
        // the body stopped: the request is refused (the extractor's 400) and the connection ends
        let said = until_closed(&mut body).await;
        assert!(
            said.starts_with("HTTP/1.1 400") && said.contains("not received within"),
            "{said}"
        );
        shutdown.cancel();
    }

    #[tokio::test]
    async fn connections_past_the_limit_are_closed_as_they_come_until_one_ends() {
        let limits = Limits {
            headers_within: Duration::from_secs(60),
            body_within: Duration::from_secs(60),
            connections: 2,
        };
        let (addr, shutdown) = start(limits).await;
        let mut idle = Vec::new();
        for _ in 0..2 {
            let mut c = TcpStream::connect(addr).await.unwrap();
            c.write_all(b"GET / HTTP/1.1\r\n").await.unwrap();
            idle.push(c);
        }
        // both slots held: a third connection is closed without an answer
        let mut third = TcpStream::connect(addr).await.unwrap();
        let _ = third
            .write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .await;
        assert_eq!(until_closed(&mut third).await, "");
        // one ends: the next is served (the server frees its slot once it sees the close)
        drop(idle.pop());
        let end = Instant::now() + DEADLINE;
        loop {
            if get_ok(addr).await.ends_with("ok") {
                break;
            }
            assert!(Instant::now() < end, "a freed slot was never given out");
            tokio::task::yield_now().await;
        }
        shutdown.cancel();
    }
}
