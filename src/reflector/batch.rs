//! Cutting a chat's new messages into one batch for the model: bounded in messages (by the
//! caller's query) and in tokens (here), never empty while messages remain, so a backlog is
//! worked off batch by batch and one huge message cannot stall the chat.

use std::collections::HashSet;

use super::prompt::{Line, one_line, render_line};
use crate::memory::{remember, text, tokens};
use crate::store::MessageRow;

/// The assistant's replies are context, not sources: a long answer is cut to this.
const MAX_ASSISTANT_CHARS: usize = 600;
/// Marks a message cut to fit the batch.
const TRUNCATED: &str = " …[truncated]";

#[derive(Debug, Clone, Default)]
pub struct Batch {
    pub lines: Vec<Line>,
    /// Messages covered, shown or not (chat commands and empty messages are not shown).
    pub messages: usize,
    /// The last message id covered: the cursor once the batch is stored.
    pub last_id: i64,
    /// Tokens of the rendered lines.
    pub tokens: usize,
}

impl Batch {
    /// True when some line is a person's: only those can yield facts.
    pub fn has_user_lines(&self) -> bool {
        self.lines.iter().any(|l| !l.is_bot)
    }

    /// Every term of the batch, to find the memories it is about.
    pub fn terms(&self) -> HashSet<String> {
        self.lines
            .iter()
            .flat_map(|l| l.terms.iter().cloned())
            .collect()
    }
}

/// A chat command (`/memories`, `/forget 3`, `@bot /forget 3`) is an exchange with the bot,
/// not conversation; nor is a "remember …" request the bot took (it was addressed to it): the
/// fast path stored its fact as the person worded it already, or refused it with a reason,
/// and mining it again could only restate it — or bring it back after the person had it
/// forgotten (`/forget`, before this pass came). A "remember …" the bot did not take — said
/// in a group without addressing the bot, or while its sender was over the group's rate limit
/// — is conversation like any other: the reflector is then the only way its fact is kept.
/// The bot's acknowledgement alone is no source (`attribute.rs`).
fn is_shown(m: &MessageRow) -> bool {
    let text = m.text.trim();
    if text.is_empty() {
        return false;
    }
    if m.is_from_bot {
        return true;
    }
    let taken_by_fast_path = m.needs_reply && remember::parse(text).is_some();
    !(remember::strip_mentions(text).starts_with('/') || taken_by_fast_path)
}

fn truncate_chars(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}{TRUNCATED}", &text[..at]),
        None => text.to_string(),
    }
}

/// The longest prefix of `line`'s text whose rendered line costs at most `budget` tokens.
fn fit(mut line: Line, budget: usize) -> (Line, usize) {
    let full = line.text.clone();
    let (mut lo, mut hi) = (0, full.chars().count());
    // binary search on characters: tokens grow monotonically with the prefix
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        line.text = truncate_chars(&full, mid);
        if tokens::count(&render_line(&line)) < budget {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    line.text = truncate_chars(&full, lo);
    let cost = tokens::count(&render_line(&line)) + 1;
    (line, cost)
}

/// The first batch of `messages` (oldest first) that fits in `token_budget`. Takes at least
/// one message; a single message over the budget is truncated to fit.
pub fn cut(messages: &[MessageRow], token_budget: usize) -> Batch {
    let mut batch = Batch::default();
    for m in messages {
        if is_shown(m) {
            // A token is rarely longer than 8 characters: anything beyond cannot fit anyway,
            // and not tokenizing it bounds the work on a huge message.
            let max_chars = if m.is_from_bot {
                MAX_ASSISTANT_CHARS
            } else {
                token_budget.saturating_mul(8)
            };
            // cut before flattening too, so a megabyte message costs no more than a long one
            // (whitespace runs rarely make flattening shrink a text fourfold)
            let raw: String = m.text.chars().take(max_chars.saturating_mul(4)).collect();
            let text = truncate_chars(&one_line(&raw), max_chars);
            let mut line = Line {
                message_id: m.id,
                sender_id: m.sender_id.clone(),
                sender_name: m.sender_name.clone(),
                is_bot: m.is_from_bot,
                terms: HashSet::new(),
                text,
            };
            let mut cost = tokens::count(&render_line(&line)) + 1; // + the newline
            if cost > token_budget {
                (line, cost) = fit(line, token_budget);
            }
            if !batch.lines.is_empty() && batch.tokens + cost > token_budget {
                break;
            }
            line.terms = text::term_set(&line.text);
            batch.tokens += cost;
            batch.lines.push(line);
        }
        batch.messages += 1;
        batch.last_id = m.id;
    }
    batch
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A message; a person's is addressed to the bot (as in a private chat).
    fn msg(id: i64, is_bot: bool, text: &str) -> MessageRow {
        MessageRow {
            id,
            chat_id: 1,
            session_id: None,
            sender_id: if is_bot { "bot".into() } else { "u1".into() },
            sender_name: if is_bot {
                "Mneme".into()
            } else {
                "alice".into()
            },
            is_from_bot: is_bot,
            text: text.into(),
            platform_message_id: None,
            platform_thread_id: None,
            created_at: 0,
            needs_reply: !is_bot,
            replied_at: None,
        }
    }

    #[test]
    fn commands_and_remember_requests_are_covered_but_not_shown() {
        let msgs = [
            msg(1, false, "remember my phone is a Pixel 8"),
            msg(2, true, "Noted. Saved memory #24: my phone is a Pixel 8"),
            msg(3, false, "/forget 24"),
            msg(4, false, "记住我喜欢绿茶"),
            msg(5, false, "I remember my first phone fondly"),
        ];
        let batch = cut(&msgs, 10_000);
        let shown: Vec<&str> = batch.lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            shown,
            [
                "Noted. Saved memory #24: my phone is a Pixel 8",
                "I remember my first phone fondly"
            ]
        );
        assert_eq!((batch.messages, batch.last_id), (5, 5));
    }

    #[test]
    fn a_remember_request_the_bot_did_not_take_is_conversation() {
        // In a group: not addressed to the bot (or its sender over the rate limit), so the
        // fast path never saw it; a command after a mention is still a command.
        let mut unaddressed = msg(1, false, "remember that Gina's birthday is on 4 June");
        unaddressed.needs_reply = false;
        let msgs = [
            unaddressed,
            msg(
                2,
                false,
                "@mneme_bot remember that Hank's car is a blue Volvo",
            ),
            msg(3, false, "@mneme_bot /forget 5"),
            msg(4, false, "<@123> /memories"),
        ];
        let batch = cut(&msgs, 10_000);
        let shown: Vec<i64> = batch.lines.iter().map(|l| l.message_id).collect();
        assert_eq!(shown, [1]);
        assert_eq!((batch.messages, batch.last_id), (4, 4));
    }

    #[test]
    fn cuts_by_tokens_and_covers_hidden_messages() {
        let msgs: Vec<_> = (1..=50)
            .map(|i| msg(i, false, &format!("message number {i} about green tea")))
            .collect();
        let batch = cut(&msgs, 100);
        assert!(batch.tokens <= 100, "{}", batch.tokens);
        assert!(batch.lines.len() > 2 && batch.lines.len() < 50);
        assert_eq!(batch.last_id, batch.lines.last().unwrap().message_id);

        let msgs = [
            msg(1, false, "/memories"),
            msg(2, false, "  "),
            msg(3, false, "I like tea"),
        ];
        let batch = cut(&msgs, 100);
        assert_eq!(
            (batch.messages, batch.last_id, batch.lines.len()),
            (3, 3, 1)
        );
        assert!(batch.has_user_lines());
        let only_bot = cut(&[msg(1, true, "Hello!"), msg(2, false, "/help")], 100);
        assert!(!only_bot.has_user_lines());
        assert_eq!(only_bot.last_id, 2);
    }

    #[test]
    fn a_huge_message_is_truncated_not_stuck() {
        let huge = "word ".repeat(50_000);
        let msgs = [msg(1, false, &huge), msg(2, false, "next")];
        let batch = cut(&msgs, 300);
        assert_eq!(batch.lines.len(), 1);
        assert!(batch.tokens <= 300, "{}", batch.tokens);
        assert!(batch.lines[0].text.ends_with(TRUNCATED));
        assert_eq!(batch.last_id, 1);
        // a multi-byte message truncates on character boundaries
        let cjk = "我喜欢喝绿茶".repeat(2_000);
        let batch = cut(&[msg(1, false, &cjk)], 200);
        assert!(batch.tokens <= 200, "{}", batch.tokens);
    }

    #[test]
    fn assistant_replies_are_short_context() {
        let batch = cut(&[msg(1, true, &"blah ".repeat(1_000))], 10_000);
        assert!(batch.lines[0].text.chars().count() <= MAX_ASSISTANT_CHARS + TRUNCATED.len());
    }
}
