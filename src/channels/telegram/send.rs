//! Delivering answers: typing indicator, chunks under Telegram's limit, HTML with a plain-text
//! fallback, rate limits honoured.

use std::convert::Infallible;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde::de::IgnoredAny;
use teloxide::prelude::*;
use teloxide::requests::{JsonRequest, Payload};
use teloxide::types::{ChatAction, MessageId, ParseMode, ReplyParameters, ThreadId};
use teloxide::{ApiError, RequestError};

use super::{Shared, format};
use crate::agent::Pending;
use crate::channels::split::{split_message, utf16_len};
use crate::channels::turn::{ANSWER_WITHIN, NOTICE_WITHIN, Sent, reply_text, resend_after};

/// Telegram's limit is 4096 UTF-16 units of visible text; markdown markers only shrink when
/// rendered, so chunks of this many raw units always fit.
pub const CHUNK_LIMIT: usize = 4000;
/// Telegram shows "typing…" for about 5 s; refresh a little sooner.
const TYPING_EVERY: Duration = Duration::from_secs(4);

/// Runs the turn for `pending` and delivers the answer; marks it replied once delivered.
pub(super) async fn answer(shared: &Shared, pending: &Pending) {
    let Some(chat_id) = pending.chat.external_id.parse::<i64>().ok().map(ChatId) else {
        tracing::error!(chat = %pending.chat, "telegram: chat id is not a number");
        return;
    };
    let thread = pending
        .platform_thread_id
        .as_deref()
        .and_then(|t| t.parse::<i32>().ok())
        .map(|t| ThreadId(MessageId(t)));
    let typing = keep_typing(shared.bot.clone(), chat_id, thread);
    let Some(delivery) = reply_text(&shared.agent, pending, typing).await else {
        return; // the chat's turn is another replica's now
    };
    // In groups the answer quotes the message it answers.
    let reply_to = pending
        .platform_message_id
        .as_deref()
        .filter(|_| pending.is_group)
        .and_then(|id| id.parse::<i32>().ok())
        .map(MessageId);
    let mut sent = Sent::Delivered;
    for (i, chunk) in split_message(delivery.text(), CHUNK_LIMIT, utf16_len)
        .iter()
        .enumerate()
    {
        let target = Target {
            chat_id,
            thread,
            reply_to: if i == 0 { reply_to } else { None },
        };
        sent = send_chunk(shared, &target, chunk, ANSWER_WITHIN).await;
        if sent != Sent::Delivered {
            break;
        }
    }
    if sent == Sent::Refused {
        tracing::warn!(chat = %pending.chat, "telegram: the answer was refused for good; the message is done with, not answered again");
    }
    timeline!(pending.chat.external_id, "sent");
    delivery.finish(&shared.agent, pending, sent.done()).await;
    timeline!(pending.chat.external_id, "recorded");
}

struct Target {
    chat_id: ChatId,
    thread: Option<ThreadId>,
    reply_to: Option<MessageId>,
}

/// sendMessage with the parameters the bot sets, whose answer (the message as sent) is not
/// read: the bot needs only to know that Telegram took it. teloxide's own payload reads that
/// message whole, so a part of it this build cannot read (a chat of a type newer than
/// teloxide, say) turned a delivered answer into an error, and the answer was sent again at
/// every retry until [`ANSWER_WITHIN`] ran out. Not reading it also saves the daemon the
/// work (README, Under load).
#[derive(Serialize)]
struct SendText {
    chat_id: ChatId,
    text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    parse_mode: Option<ParseMode>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message_thread_id: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reply_parameters: Option<ReplyParameters>,
}

impl Payload for SendText {
    type Output = IgnoredAny;
    const NAME: &'static str = "SendMessage";
}

async fn keep_typing(bot: Bot, chat_id: ChatId, thread: Option<ThreadId>) -> Infallible {
    loop {
        let mut req = bot.send_chat_action(chat_id, ChatAction::Typing);
        if let Some(t) = thread {
            req = req.message_thread_id(t);
        }
        // A failed typing indicator never fails the turn.
        let _ = req.await;
        tokio::time::sleep(TYPING_EVERY).await;
    }
}

/// Sends one chunk as HTML, falling back to plain text if Telegram rejects the markup. The
/// network's and Telegram's passing trouble is retried with backoff for as long as `within`
/// allows: an answer's part waits out a Telegram restart ([`ANSWER_WITHIN`]; the chat's later
/// answers wait behind it, in order), a notice does not hold up the intake.
async fn send_chunk(shared: &Shared, target: &Target, chunk: &str, within: Duration) -> Sent {
    let html = format::to_html(chunk);
    let mut as_html = true;
    let started = Instant::now();
    let mut attempt = 0;
    loop {
        attempt += 1;
        let text = if as_html { html.as_str() } else { chunk };
        let payload = SendText {
            chat_id: target.chat_id,
            text: text.to_string(),
            parse_mode: as_html.then_some(ParseMode::Html),
            message_thread_id: target.thread.map(|t| t.0.0),
            reply_parameters: target.reply_to.map(|id| ReplyParameters {
                allow_sending_without_reply: Some(true),
                ..ReplyParameters::new(id)
            }),
        };
        let wait = match JsonRequest::new(shared.bot.clone(), payload).send().await {
            Ok(_) => return Sent::Delivered,
            Err(RequestError::Api(ApiError::CantParseEntities(_))) if as_html => {
                tracing::debug!("telegram: HTML rejected, sending plain text");
                as_html = false;
                continue;
            }
            Err(RequestError::RetryAfter(secs)) => secs.duration(),
            Err(e) if refused_for_good(&e) => {
                tracing::error!(chat = target.chat_id.0, error = %shared.redact(&e), "telegram: sendMessage refused");
                return Sent::Refused;
            }
            Err(e @ RequestError::Api(ApiError::InvalidToken)) => {
                tracing::error!(chat = target.chat_id.0, error = %shared.redact(&e), "telegram: sendMessage refused");
                return Sent::Failed;
            }
            // The network, Telegram's server errors (a 502 while it restarts; teloxide has
            // waited 10 s already), an answer that is not the Bot API's (a proxy's page).
            Err(e) => {
                tracing::warn!(chat = target.chat_id.0, error = %shared.redact(&e), attempt, "telegram: sendMessage failed; retrying");
                resend_after(attempt)
            }
        };
        if started.elapsed() + wait > within {
            tracing::error!(
                chat = target.chat_id.0,
                attempt,
                "telegram: giving up on a message after {}s",
                started.elapsed().as_secs()
            );
            return Sent::Failed;
        }
        tokio::time::sleep(wait).await;
    }
}

/// True when Telegram refuses the message itself — its answers "Bad Request: …" (400: the
/// chat is gone, the text is empty…) and "Forbidden: …" (403: the bot was blocked or removed)
/// — so that sending it again, or asking the model again, would be refused again. Not a
/// refused token (the operator fixes it; the message is owed meanwhile), nor Telegram's own
/// server errors, which teloxide also reports as API errors.
fn refused_for_good(e: &RequestError) -> bool {
    match e {
        RequestError::Api(ApiError::InvalidToken) => false,
        RequestError::Api(ApiError::Unknown(description)) => {
            description.starts_with("Bad Request") || description.starts_with("Forbidden")
        }
        RequestError::Api(_) => true,
        // The group became a supergroup, with a new id: this chat id is gone for good.
        RequestError::MigrateToChatId(_) => true,
        _ => false,
    }
}

/// A plain notice outside any turn (stranger notice, "text only").
pub(super) async fn plain(shared: &Shared, chat_id: ChatId, text: &str) {
    let target = Target {
        chat_id,
        thread: None,
        reply_to: None,
    };
    send_chunk(shared, &target, text, NOTICE_WITHIN).await;
}
