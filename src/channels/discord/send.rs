//! Delivering answers: typing indicator, chunks under Discord's 2000-character limit, a reply
//! reference in guild channels, and never a ping from the model's text.

use std::convert::Infallible;
use std::num::NonZeroU64;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serenity::builder::{CreateAllowedMentions, CreateMessage};
use serenity::http::{Http, HttpError};
use serenity::model::channel::MessageReference;
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
    for (i, chunk) in split_message(delivery.text(), CHUNK_LIMIT, char_len)
        .iter()
        .enumerate()
    {
        let reply_to = if i == 0 { reply_to } else { None };
        sent = send_chunk(shared, channel, chunk, reply_to, ANSWER_WITHIN).await;
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
    send_chunk(shared, channel, text, None, NOTICE_WITHIN).await;
}

fn parse_id(id: &str) -> Option<NonZeroU64> {
    id.parse().ok()
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
        let error = match channel.send_message(&*shared.http, message).await {
            Ok(_) => return Sent::Delivered,
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
            _ => false,
        };
        if !retry {
            // Discord's 4xx refuse the message itself (no access to the channel, a user who
            // takes no DMs from the bot, a channel gone); a refused token (401) is the
            // operator's to fix, and an answer that cannot be read (a proxy's page with a 200:
            // it may have gone through) is not sent again now; either way the message stays
            // owed, for the next start.
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
