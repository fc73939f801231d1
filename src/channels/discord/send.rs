//! Delivering answers: typing indicator, chunks under Discord's 2000-character limit, a reply
//! reference in guild channels, and never a ping from the model's text.

use std::convert::Infallible;
use std::num::NonZeroU64;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde::de::IgnoredAny;
use serenity::builder::{CreateAllowedMentions, CreateMessage};
use serenity::http::{Http, HttpError, LightMethod, Request, Route};
use serenity::model::channel::{MessageReference, Nonce};
use serenity::model::id::{ChannelId, MessageId};

use super::Shared;
use crate::agent::Pending;
use crate::channels::split::{char_len, split_message};
use crate::channels::turn::{ANSWER_WITHIN, NOTICE_WITHIN, Sent, reply_text, resend_after};

/// Discord's limit: 2000 Unicode scalar values per message (serenity refuses more).
pub const CHUNK_LIMIT: usize = 2000;
/// Discord shows "typing…" for about 10 s; refresh a little sooner.
const TYPING_EVERY: Duration = Duration::from_secs(8);

/// Runs the turn for `pending` and delivers the answer; marks it replied once delivered.
pub(super) async fn answer(shared: &Shared, pending: &Pending) {
    let Some(channel) = parse_id(&pending.chat.external_id).map(ChannelId::from) else {
        tracing::error!(chat = %pending.chat, "discord: chat id is not a channel id");
        return;
    };
    let typing = keep_typing(shared.http.clone(), channel);
    let Some(delivery) = reply_text(&shared.agent, pending, typing).await else {
        return; // the chat's turn is another replica's now
    };
    // In guild channels the answer points at the message it answers.
    let reply_to = pending
        .platform_message_id
        .as_deref()
        .filter(|_| pending.is_group)
        .and_then(parse_id)
        .map(MessageId::from);
    let mut sent = Sent::Delivered;
    let chunks = split_message(delivery.text(), CHUNK_LIMIT, char_len);
    for (i, chunk) in chunks.iter().enumerate() {
        let reply_to = if i == 0 { reply_to } else { None };
        let nonce = pending
            .platform_message_id
            .as_deref()
            .and_then(parse_id)
            .and_then(|answering| nonce(answering, i, chunks.len()));
        sent = send_chunk(shared, channel, chunk, reply_to, nonce, ANSWER_WITHIN).await;
        if sent != Sent::Delivered {
            break;
        }
    }
    if sent == Sent::Refused {
        tracing::warn!(chat = %pending.chat, "discord: the answer was refused for good; the message is done with, not answered again");
    }
    timeline!(pending.chat.external_id, "sent");
    delivery.finish(&shared.agent, pending, sent.done()).await;
    timeline!(pending.chat.external_id, "recorded");
}

/// A plain notice outside any turn (stranger notice, "text only").
pub(super) async fn notice(shared: &Shared, channel: ChannelId, text: &str) {
    send_chunk(shared, channel, text, None, None, NOTICE_WITHIN).await;
}

fn parse_id(id: &str) -> Option<NonZeroU64> {
    id.parse().ok()
}

/// Discord's idempotency key for chunk `chunk` of `chunks` of the answer to message
/// `answering`: sent with `enforce_nonce`, a second message with the same nonce from the bot
/// within a few minutes is not created, and Discord answers with the first. So a chunk sent
/// again because its answer was lost (a timeout, a 502 from Discord's edge after it took the
/// message) or by a replica taking over a turn whose sender died posts nothing twice.
///
/// Built from Discord's own id of the message answered (not the database's, which starts
/// again in a new database) and the chunk's place among its answer's chunks: an answer
/// written anew with another number of chunks is sent whole rather than mixed with the
/// first's. At most 25 characters, as Discord takes them (the id in base 36: 13 at most).
fn nonce(answering: NonZeroU64, chunk: usize, chunks: usize) -> Option<Nonce> {
    let mut id = answering.get();
    let mut digits = Vec::with_capacity(13);
    while id > 0 {
        digits.push(char::from_digit((id % 36) as u32, 36).unwrap_or('0'));
        id /= 36;
    }
    let id: String = digits.iter().rev().collect();
    let nonce = format!("{id}.{chunk}.{chunks}");
    (nonce.len() <= 25).then_some(Nonce::String(nonce))
}

/// What the bot reads of the message Discord answers a send with: that it is one. The rest
/// (author, embeds, components…) is not read, so a part this build of serenity cannot read
/// (a kind of field newer than it) does not turn a delivered answer into an error, sent again
/// at the next start; and the work of reading it is saved. A body that is not a message (a
/// proxy's page) is not taken for one: the chunk is sent again, which its nonce makes safe.
#[derive(Deserialize)]
struct Created {
    #[serde(rename = "id")]
    _id: IgnoredAny,
}

async fn keep_typing(http: Arc<Http>, channel: ChannelId) -> Infallible {
    loop {
        // A failed typing indicator never fails the turn.
        let _ = channel.broadcast_typing(&http).await;
        tokio::time::sleep(TYPING_EVERY).await;
    }
}

/// Nobody is pinged by what the model writes: no @everyone/@here, roles or users. Only the
/// author of the message being answered is notified, as with any Discord reply.
fn no_pings(replying: bool) -> CreateAllowedMentions {
    CreateAllowedMentions::new().replied_user(replying)
}

/// Sends one chunk, retrying passing trouble for as long as `within` allows.
async fn send_chunk(
    shared: &Shared,
    channel: ChannelId,
    chunk: &str,
    reply_to: Option<MessageId>,
    nonce: Option<Nonce>,
    within: Duration,
) -> Sent {
    let started = Instant::now();
    let mut attempt = 0u32;
    loop {
        attempt += 1;
        let mut message = CreateMessage::new()
            .content(chunk)
            .allowed_mentions(no_pings(reply_to.is_some()));
        if let Some(id) = reply_to {
            let mut reference = MessageReference::from((channel, id));
            // The message may have been deleted meanwhile: answer anyway, just not as a reply.
            reference.fail_if_not_exists = Some(false);
            message = message.reference_message(reference);
        }
        if let Some(nonce) = &nonce {
            message = message.nonce(nonce.clone()).enforce_nonce(true);
        }
        let error = match create_message(&shared.http, channel, &message).await {
            Ok(()) => return Sent::Delivered,
            Err(e) => e,
        };
        let status = match &error {
            serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) => Some(r.status_code),
            _ => None,
        };
        let retry = match &error {
            // serenity's rate limiter waits out 429s by itself; with a proxy base it is off, and
            // the proxy's 429s land here.
            serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) => {
                r.status_code.as_u16() == 429 || r.status_code.is_server_error()
            }
            serenity::Error::Http(HttpError::Request(_)) => true,
            // a 2xx whose body is no message: a proxy's page, or the body cut off
            serenity::Error::Json(_) => nonce.is_some(),
            _ => false,
        };
        if !retry {
            // Discord's 4xx refuse the message itself (no access to the channel, a user who
            // takes no DMs from the bot, a channel gone); a refused token (401) is the
            // operator's to fix, and a 2xx that is no message, for a chunk without a nonce (a
            // notice), may have gone through and is not sent again now; either way the
            // message stays owed, for the next start.
            return match status {
                Some(s) if s.is_client_error() && s.as_u16() != 401 => {
                    tracing::error!(%channel, error = %shared.redact(&error), "discord: message refused");
                    Sent::Refused
                }
                _ => {
                    tracing::error!(%channel, error = %shared.redact(&error), "discord: sending failed; the answer stays owed for the next start");
                    Sent::Failed
                }
            };
        }
        let wait = resend_after(attempt);
        if started.elapsed() + wait > within {
            tracing::error!(%channel, attempt, error = %shared.redact(&error), "discord: giving up on a message after {}s", started.elapsed().as_secs());
            return Sent::Failed;
        }
        tracing::warn!(%channel, attempt, error = %shared.redact(&error), "discord: sending failed; retrying");
        tokio::time::sleep(wait).await;
    }
}

/// `POST /channels/{id}/messages`, as serenity's `send_message` sends it (through its rate
/// limiter), reading of the answer only that it is a message ([`Created`]).
async fn create_message(
    http: &Http,
    channel: ChannelId,
    message: &CreateMessage,
) -> serenity::Result<()> {
    let body = serde_json::to_vec(message)?;
    let request = Request::new(
        Route::ChannelMessages {
            channel_id: channel,
        },
        LightMethod::Post,
    )
    .body(Some(body));
    let answer = http.request(request).await?.bytes().await?;
    serde_json::from_slice::<Created>(&answer)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(nonce: Option<Nonce>) -> Option<String> {
        match nonce? {
            Nonce::String(s) => Some(s),
            Nonce::Number(n) => Some(n.to_string()),
        }
    }

    #[test]
    fn a_nonce_names_the_message_answered_and_the_part() {
        let id = NonZeroU64::new(1_234_567_890_123_456_789).unwrap();
        let first = text(nonce(id, 0, 2)).unwrap();
        assert_eq!(first, "9do1sj396nf9.0.2");
        assert_ne!(Some(first.clone()), text(nonce(id, 1, 2)));
        assert_ne!(Some(first), text(nonce(id, 0, 1)), "another split");
        let other = NonZeroU64::new(1_234_567_890_123_456_788).unwrap();
        assert_ne!(text(nonce(id, 0, 1)), text(nonce(other, 0, 1)));
        // Discord takes at most 25 characters: the largest id fits with up to 99,999 parts
        let max = text(nonce(NonZeroU64::MAX, 99_998, 99_999)).unwrap();
        assert!(max.len() <= 25, "{max}");
        assert_eq!(text(nonce(NonZeroU64::MAX, 999_998, 999_999)), None);
    }
}
