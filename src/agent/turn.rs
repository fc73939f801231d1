//! A model turn: history + system prompt, then the tool loop until the model answers.

use tokio::sync::mpsc::UnboundedSender;

use super::tools::{self, ToolContext};
use super::{Agent, Reply, ReplyKind, TurnContext, prompt};
use crate::llm::{ChatMessage, LlmRequest};
use crate::store::{InjectionLog, Tokens};

/// The longest answer delivered and kept, in characters (eight Telegram messages, and the
/// note saying where it was cut): a model
/// that ignores `max_tokens` must not send a chat fifty messages.
pub const MAX_ANSWER_CHARS: usize = 32_000;

/// The note after an answer the model stopped at its token limit.
const CUT_AT_TOKEN_LIMIT: &str = "[… the answer was cut here: the model reached its token limit]";

/// The result of a tool call made in an answer the token limit cut off.
const TOOL_CALL_CUT_OFF: &str = "error: your answer reached its token limit (max_tokens) while \
     making this call, so it may be incomplete and was not run; make it again, shorter";

/// `text` (of `chars` characters) within [`MAX_ANSWER_CHARS`], saying where it was cut.
fn capped(text: &str, chars: usize) -> String {
    match text.char_indices().nth(MAX_ANSWER_CHARS) {
        None => text.to_string(),
        Some((end, _)) => format!(
            "{}\n\n[… the answer was cut here: {} more characters]",
            &text[..end],
            chars - MAX_ANSWER_CHARS
        ),
    }
}

/// A model turn's reply, with what it leaves to record (`Store::record_turn`, written with the
/// answer in one transaction once the turn is over).
pub(super) struct Turn {
    pub reply: Reply,
    pub injection: InjectionLog,
    pub calls: Vec<Tokens>,
}

pub(super) async fn run(
    agent: &Agent,
    ctx: &TurnContext,
    deltas: Option<&UnboundedSender<String>>,
) -> anyhow::Result<Turn> {
    let rows = &ctx.history;
    let query = rows.last().map(|m| m.text.as_str()).unwrap_or_default();
    let parts = agent
        .build_prompt_with(&ctx.chat, &ctx.key, query, ctx.memories)
        .await?;
    let sel = &parts.selection;
    let injection = InjectionLog {
        candidates: sel.candidates as i64,
        selected: sel.selected_ids.len() as i64,
        omitted: sel.omitted as i64,
        tokens: sel.tokens as i64,
    };
    timeline!(ctx.key.external_id, "asking");
    let mut calls = Vec::new();
    let reply = tool_loop(agent, ctx, parts, rows, deltas, &mut calls).await;
    Ok(Turn {
        reply,
        injection,
        calls,
    })
}

/// Calls the model, runs the tools it asks for and calls it again, until it answers; each
/// call's tokens go into `calls`.
async fn tool_loop(
    agent: &Agent,
    ctx: &TurnContext,
    parts: prompt::PromptParts,
    rows: &[crate::store::MessageRow],
    deltas: Option<&UnboundedSender<String>>,
    calls: &mut Vec<Tokens>,
) -> Reply {
    let config = &agent.config;
    let mut request = LlmRequest {
        model: config.model.clone(),
        system: parts.system,
        messages: prompt::history(rows, ctx.chat.is_group, config.max_history_chars as usize),
        tools: tools::specs(),
        max_tokens: config.max_tokens,
    };
    let tool_ctx = ToolContext {
        chat: &ctx.key,
        chat_id: ctx.chat.id,
        message_id: ctx.message_id,
        is_control: ctx.is_control,
        is_group: ctx.chat.is_group,
        sender: &ctx.sender,
        files: &agent.files,
        memories: &agent.memories,
    };
    for _ in 0..config.max_tool_iterations {
        let response = match call(agent, &request, deltas).await {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!(chat = %ctx.key, error = %e, "LLM call failed");
                return Reply {
                    text: format!(
                        "Sorry, I couldn't get an answer: {}. Your message is saved; {}.",
                        e.user_summary(),
                        e.next_step()
                    ),
                    kind: ReplyKind::Error,
                };
            }
        };
        calls.push(Tokens {
            input: response.usage.input_tokens,
            output: response.usage.output_tokens,
        });
        if response.cut_off {
            tracing::warn!(chat = %ctx.key, model = %config.model, tool_calls = response.tool_calls.len(), "the model stopped at its token limit (max_tokens)");
        }
        if response.tool_calls.is_empty() {
            let text = response.text.trim();
            // (An empty code block counts as empty: the channels would send nothing of it.)
            if !crate::base::markdown::holds_text(text) {
                tracing::warn!(chat = %ctx.key, model = %config.model, "the model answered with no text and no tool call");
                return Reply {
                    text: "Sorry, the model sent an empty answer. Please try again.".into(),
                    kind: ReplyKind::Error,
                };
            }
            let chars = text.chars().count();
            if chars > MAX_ANSWER_CHARS {
                tracing::warn!(chat = %ctx.key, model = %config.model, chars, "the model's answer was longer than the bot delivers; cut at {MAX_ANSWER_CHARS} characters");
            }
            let mut text = capped(text, chars);
            if response.cut_off && chars <= MAX_ANSWER_CHARS {
                text = format!("{text}\n\n{CUT_AT_TOKEN_LIMIT}");
            }
            // Delivered as it is kept (a NUL, which no backend keeps, as U+FFFD).
            return Reply {
                text: crate::store::text(&text).into_owned(),
                kind: ReplyKind::Model,
            };
        }
        let mut asked = ChatMessage::assistant(response.text);
        asked.tool_calls = response.tool_calls;
        let mut results = Vec::with_capacity(asked.tool_calls.len());
        for c in &asked.tool_calls {
            // A call the token limit cut off may be missing its end (a write_memory would
            // replace a file with half of it): not run; the model is told and may ask again.
            let out = if response.cut_off {
                TOOL_CALL_CUT_OFF.to_string()
            } else {
                tools::execute(&tool_ctx, c).await
            };
            tracing::debug!(chat = %ctx.key, tool = %c.name, ok = !out.starts_with("error:"), "tool call");
            results.push(ChatMessage::tool_result(&c.id, out));
        }
        request.messages.push(asked);
        request.messages.extend(results);
    }
    tracing::warn!(
        chat = %ctx.key,
        steps = config.max_tool_iterations,
        "the model was still asking for tools after max_tool_iterations; the turn was stopped"
    );
    Reply {
        text: format!(
            "I stopped after {} tool steps without reaching an answer. Please ask again, perhaps more narrowly.",
            config.max_tool_iterations
        ),
        kind: ReplyKind::Error,
    }
}

async fn call(
    agent: &Agent,
    request: &LlmRequest,
    deltas: Option<&UnboundedSender<String>>,
) -> Result<crate::llm::LlmResponse, crate::llm::LlmError> {
    match deltas {
        Some(tx) => {
            // What streams is what is delivered: no more than MAX_ANSWER_CHARS.
            let mut room = MAX_ANSWER_CHARS;
            let mut sink = |piece: &str| {
                let piece = match piece.char_indices().nth(room) {
                    None => piece,
                    Some((end, _)) => &piece[..end],
                };
                room -= piece.chars().count();
                // A receiver that went away only means nobody watches the stream any more.
                // A NUL streams as it is kept and delivered at the end: as U+FFFD.
                if !piece.is_empty() {
                    let _ = tx.send(crate::store::text(piece).into_owned());
                }
            };
            agent.llm.complete_streaming(request, &mut sink).await
        }
        None => agent.llm.complete(request).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_cut_between_characters_and_say_so() {
        assert_eq!(capped("short", 5), "short");
        let exact = "é".repeat(MAX_ANSWER_CHARS);
        assert_eq!(capped(&exact, MAX_ANSWER_CHARS), exact);
        let long = "日".repeat(MAX_ANSWER_CHARS + 7);
        let cut = capped(&long, MAX_ANSWER_CHARS + 7);
        assert_eq!(
            cut,
            format!(
                "{}\n\n[… the answer was cut here: 7 more characters]",
                "日".repeat(MAX_ANSWER_CHARS)
            )
        );
    }
}
