//! The fake gateway: a WebSocket session per connection, dispatches and their replay.

use std::sync::Arc;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message as WsMessage;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use super::{Command, FakeDiscord, Gateway, Inner, Session, bot_user};

pub(super) fn dispatch(inner: &Inner, event: &str, data: Value) {
    {
        let mut gw = inner.gateway.lock().unwrap();
        let Gateway { session, live, .. } = &mut *gw;
        let session = session
            .as_mut()
            .expect("no gateway session yet: wait_connected() first");
        session.seq += 1;
        let frame = json!({"op": 0, "t": event, "s": session.seq, "d": data}).to_string();
        session.log.push((session.seq, frame.clone()));
        if let Some(live) = live {
            let _ = live.send(Command::Frame(frame));
        }
    }
    inner.changed.notify_waiters();
}

// ---- the gateway ----

pub(super) async fn serve_gateway(inner: Arc<Inner>, stream: tokio::net::TcpStream) {
    // Frames go out at once, as a real gateway's do, so Nagle's delay is not measured as ours.
    let _ = stream.set_nodelay(true);
    if inner.gateway.lock().unwrap().refusing {
        use tokio::io::AsyncWriteExt;
        let mut stream = stream;
        let _ = stream
            .write_all(
                b"HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
            )
            .await;
        return;
    }
    let Ok(ws) = tokio_tungstenite::accept_async(stream).await else {
        return;
    };
    let (mut sink, mut source) = ws.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<Command>();
    inner.gateway.lock().unwrap().connections += 1;
    let hello = json!({"op": 10, "d": {"heartbeat_interval": inner.heartbeat_ms}});
    if sink.send(WsMessage::Text(hello.to_string())).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            frame = source.next() => match frame {
                Some(Ok(WsMessage::Text(text))) => {
                    if let Ok(payload) = serde_json::from_str::<Value>(&text) {
                        on_client_frame(&inner, &tx, &payload);
                    }
                }
                // Keep reading after a close: that sends tungstenite's reply and ends the stream.
                Some(Ok(_)) => {}
                None | Some(Err(_)) => break,
            },
            command = rx.recv() => match command {
                Some(Command::Frame(text)) => {
                    if sink.send(WsMessage::Text(text)).await.is_err() {
                        break;
                    }
                }
                Some(Command::Close(code)) => {
                    let frame = CloseFrame { code: CloseCode::from(code), reason: "closed by the fake".into() };
                    let _ = sink.send(WsMessage::Close(Some(frame))).await;
                    break;
                }
                Some(Command::Drop) | None => break,
            },
        }
    }
    let mut gw = inner.gateway.lock().unwrap();
    if gw.live.as_ref().is_some_and(|l| l.same_channel(&tx)) {
        gw.live = None;
    }
    drop(gw);
    inner.changed.notify_waiters();
}

/// Answers one client frame through the connection's own queue, under the gateway lock, so
/// a dispatch from the test cannot slip in between a replay and its RESUMED.
fn on_client_frame(inner: &Inner, conn: &mpsc::UnboundedSender<Command>, payload: &Value) {
    let op = payload["op"].as_u64().unwrap_or(u64::MAX);
    let d = &payload["d"];
    let mut gw = inner.gateway.lock().unwrap();
    let out = match op {
        1 => {
            gw.heartbeats += 1;
            vec![Command::Frame(json!({"op": 11}).to_string())]
        }
        2 => {
            gw.identifies.push(d.clone());
            let token = d["token"].as_str().unwrap_or_default();
            let intents = d["intents"].as_u64().unwrap_or(0);
            if token.trim_start_matches("Bot ") != inner.token {
                vec![Command::Close(4004)]
            } else if gw.message_content_disabled && intents & (1 << 15) != 0 {
                vec![Command::Close(4014)]
            } else {
                gw.sessions_started += 1;
                let id = format!("session-{}", gw.sessions_started);
                let ready = json!({
                    "v": 10, "user": bot_user(), "session_id": id,
                    "guilds": [{"id": FakeDiscord::GUILD.to_string(), "unavailable": true}],
                    "resume_gateway_url": inner.gateway_url,
                    "application": {"id": FakeDiscord::BOT_ID.to_string(), "flags": 0},
                });
                let frame = json!({"op": 0, "t": "READY", "s": 1, "d": ready}).to_string();
                gw.session = Some(Session {
                    id,
                    seq: 1,
                    log: vec![(1, frame.clone())],
                });
                gw.live = Some(conn.clone());
                vec![Command::Frame(frame)]
            }
        }
        6 => {
            gw.resumes.push(d.clone());
            let session_id = d["session_id"].as_str().unwrap_or_default().to_string();
            let client_seq = d["seq"].as_u64().unwrap_or(0);
            let replay_everything = gw.replay_everything;
            let refuse = gw.resumes_to_reject > 0;
            gw.resumes_to_reject = gw.resumes_to_reject.saturating_sub(1);
            match gw.session.as_mut() {
                Some(s) if s.id == session_id && !refuse => {
                    let mut frames: Vec<Command> = s
                        .log
                        .iter()
                        .filter(|(seq, _)| replay_everything || *seq > client_seq)
                        .map(|(_, f)| Command::Frame(f.clone()))
                        .collect();
                    s.seq += 1;
                    let resumed = json!({"op": 0, "t": "RESUMED", "s": s.seq, "d": {}}).to_string();
                    s.log.push((s.seq, resumed.clone()));
                    frames.push(Command::Frame(resumed));
                    gw.live = Some(conn.clone());
                    frames
                }
                _ => vec![Command::Frame(json!({"op": 9, "d": false}).to_string())],
            }
        }
        _ => Vec::new(),
    };
    for command in out {
        let _ = conn.send(command);
    }
    drop(gw);
    inner.changed.notify_waiters();
}

// ---- REST ----
