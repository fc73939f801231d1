//! `mneme chat`: the agent loop on stdin/stdout (channel `cli`). Works piped: one line in is
//! one message; each reply is printed followed by a newline; EOF ends the chat.

use std::io::IsTerminal;
use std::sync::Arc;

use async_trait::async_trait;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio_util::sync::CancellationToken;

use super::Channel;
use crate::agent::{Agent, IncomingMessage, Outcome, ReplyKind};
use crate::base::ChatKey;
use crate::base::visible::visible;

pub struct TerminalChannel {
    /// The part after `cli:`.
    pub chat: String,
    pub user: String,
}

impl TerminalChannel {
    pub fn new(chat: impl Into<String>) -> Self {
        let user = std::env::var("USER")
            .ok()
            .filter(|u| !u.is_empty())
            .unwrap_or_else(|| "you".into());
        Self {
            chat: chat.into(),
            user,
        }
    }
}

#[async_trait]
impl Channel for TerminalChannel {
    fn name(&self) -> &'static str {
        "cli"
    }

    async fn run(&self, agent: Arc<Agent>, shutdown: CancellationToken) -> anyhow::Result<()> {
        let interactive = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
        let mut lines = BufReader::new(tokio::io::stdin()).lines();
        let mut stdout = tokio::io::stdout();
        if interactive {
            eprintln!(
                "Chatting as cli:{} — /help for commands, Ctrl-D to leave.",
                self.chat
            );
        }
        loop {
            if interactive {
                stdout.write_all(b"> ").await?;
                stdout.flush().await?;
            }
            let line = tokio::select! {
                line = lines.next_line() => line?,
                () = shutdown.cancelled() => None,
            };
            let Some(line) = line else { break };
            let text = line.trim();
            if text.is_empty() {
                continue;
            }
            if matches!(text, "/quit" | "/exit") {
                break;
            }
            let msg = IncomingMessage {
                chat: ChatKey::new("cli", &self.chat),
                chat_title: None,
                sender_id: format!("local:{}", self.user),
                sender_name: self.user.clone(),
                text: text.to_string(),
                is_group: false,
                addressed: true,
                platform_message_id: None,
                platform_thread_id: None,
                sent_at: None,
            };
            let streamed = if interactive {
                self.turn_streaming(&agent, msg, &mut stdout).await?
            } else {
                let outcome = agent.handle(msg, None).await?;
                (outcome, false)
            };
            // the model's text, and what it quotes, may hold escape sequences: shown, not
            // obeyed (a title, a cleared screen, a line written over)
            if let (Outcome::Reply(reply), false) = &streamed {
                stdout.write_all(&visible(reply.text.as_bytes())).await?;
            }
            stdout.write_all(b"\n").await?;
            stdout.flush().await?;
        }
        Ok(())
    }
}

impl TerminalChannel {
    /// Prints the model's text as it arrives. Returns whether the printed text already is the
    /// whole reply.
    async fn turn_streaming(
        &self,
        agent: &Agent,
        msg: IncomingMessage,
        stdout: &mut tokio::io::Stdout,
    ) -> anyhow::Result<(Outcome, bool)> {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<String>();
        let turn = agent.handle(msg, Some(&tx));
        tokio::pin!(turn);
        let mut printed = String::new();
        let outcome = loop {
            tokio::select! {
                outcome = &mut turn => break outcome?,
                Some(piece) = rx.recv() => {
                    stdout.write_all(&visible(piece.as_bytes())).await?;
                    stdout.flush().await?;
                    printed.push_str(&piece);
                }
            }
        };
        while let Ok(piece) = rx.try_recv() {
            stdout.write_all(&visible(piece.as_bytes())).await?;
            printed.push_str(&piece);
        }
        let complete = matches!(&outcome, Outcome::Reply(r) if r.kind == ReplyKind::Model && printed.trim() == r.text);
        if !printed.is_empty() && !complete {
            stdout.write_all(b"\n").await?;
        }
        Ok((outcome, complete))
    }
}
