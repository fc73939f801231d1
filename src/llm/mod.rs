//! Language-model providers behind one small trait.
//!
//! The agent builds an [`LlmRequest`] (system prompt, history, tools) and gets back text and
//! tool calls; the providers translate to the OpenAI chat-completions or the Anthropic
//! messages wire format. Retries, timeouts and error wording live in [`http`].

mod anthropic;
mod anthropic_stream;
pub(crate) mod http;
mod metered;
mod openai;
mod sse;
mod tools;

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use serde_json::Value;

pub use anthropic::AnthropicProvider;
pub use http::{HttpSettings, MAX_BODY_BYTES};
pub use metered::Metered;
pub use openai::OpenAiProvider;
pub use tools::{ToolSet, ToolSpec};

use crate::config::Config;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    User,
    Assistant,
    /// The result of a tool call, answering the assistant's `tool_calls`.
    Tool,
}

/// One message of the conversation sent to the model.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatMessage {
    pub role: Role,
    pub content: String,
    /// Set on assistant messages that asked for tools.
    pub tool_calls: Vec<ToolCall>,
    /// Set on tool messages: the call they answer.
    pub tool_call_id: Option<String>,
}

impl ChatMessage {
    pub fn user(content: impl Into<String>) -> Self {
        Self {
            role: Role::User,
            content: content.into(),
            tool_calls: Vec::new(),
            tool_call_id: None,
        }
    }
    pub fn assistant(content: impl Into<String>) -> Self {
        Self {
            role: Role::Assistant,
            content: content.into(),
            tool_calls: Vec::new(),
            tool_call_id: None,
        }
    }
    pub fn tool_result(call_id: impl Into<String>, content: impl Into<String>) -> Self {
        Self {
            role: Role::Tool,
            content: content.into(),
            tool_calls: Vec::new(),
            tool_call_id: Some(call_id.into()),
        }
    }
}

/// A tool invocation the model asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    /// Parsed arguments; `Err` keeps the raw text when the model sent invalid JSON.
    pub arguments: Result<Value, String>,
}

impl ToolCall {
    /// The arguments as JSON text, for sending the call back in the history.
    pub fn arguments_text(&self) -> String {
        match &self.arguments {
            Ok(v) => v.to_string(),
            Err(raw) => raw.clone(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct LlmRequest {
    pub model: String,
    pub system: String,
    pub messages: Vec<ChatMessage>,
    /// Shared: the agent's tools are built once (`agent::tools::specs`), and so is their JSON.
    pub tools: ToolSet,
    pub max_tokens: u32,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}

#[derive(Debug, Clone, Default)]
pub struct LlmResponse {
    pub text: String,
    pub tool_calls: Vec<ToolCall>,
    pub usage: Usage,
    /// The model stopped at its token limit (`max_tokens`; OpenAI's `finish_reason`
    /// `length`, Anthropic's `stop_reason` `max_tokens`): its text ends midway, and a tool
    /// call it was making may be incomplete.
    pub cut_off: bool,
}

/// What can go wrong talking to a provider. Messages name the provider and the status,
/// never the key.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    #[error("{provider}: HTTP {status}: {detail}")]
    Status {
        provider: &'static str,
        status: u16,
        detail: String,
    },
    #[error("{provider}: no answer within {}s", .after.as_secs())]
    Timeout {
        provider: &'static str,
        after: Duration,
    },
    #[error("{provider}: cannot reach the server: {detail}")]
    Network {
        provider: &'static str,
        detail: String,
    },
    #[error("{provider}: unreadable answer: {detail}")]
    InvalidResponse {
        provider: &'static str,
        detail: String,
    },
}

impl LlmError {
    /// A short description fit for a chat reply.
    pub fn user_summary(&self) -> String {
        match self {
            Self::Status {
                provider, status, ..
            } => format!("{provider} answered HTTP {status}"),
            Self::Timeout { provider, after } => {
                format!("{provider} did not answer within {}s", after.as_secs())
            }
            Self::Network { provider, .. } => format!("{provider} could not be reached"),
            Self::InvalidResponse { provider, .. } => {
                format!("{provider} sent an answer I could not read")
            }
        }
    }

    /// What the person asking can do about it, for the same reply: trying again helps with a
    /// busy or unreachable provider, not with a refused key or an unknown model.
    pub fn next_step(&self) -> &'static str {
        match self {
            Self::Status {
                status: 401 | 403, ..
            } => "the provider refuses the bot's API key, so this needs the bot's operator",
            Self::Status { status: 404, .. } => {
                "the provider does not know the bot's model or address, so this needs the bot's operator"
            }
            Self::Status {
                status: 400 | 413 | 422,
                ..
            } => {
                "the provider refused the request; a shorter message, or /reset to start afresh, may help"
            }
            _ => "please try again in a moment",
        }
    }
}

/// Called with each piece of text as a streaming answer arrives.
pub type DeltaSink<'a> = &'a mut (dyn FnMut(&str) + Send);

#[async_trait]
pub trait LlmProvider: Send + Sync {
    /// `openai` or `anthropic`: used in usage records and error messages.
    fn name(&self) -> &'static str;

    async fn complete(&self, req: &LlmRequest) -> Result<LlmResponse, LlmError>;

    /// Like `complete`, reporting text as it arrives. Providers without streaming report the
    /// whole text at once.
    async fn complete_streaming(
        &self,
        req: &LlmRequest,
        on_delta: DeltaSink<'_>,
    ) -> Result<LlmResponse, LlmError> {
        let resp = self.complete(req).await?;
        if !resp.text.is_empty() {
            on_delta(&resp.text);
        }
        Ok(resp)
    }
}

/// The provider the config names.
pub fn from_config(c: &Config) -> Result<Arc<dyn LlmProvider>, String> {
    let settings = HttpSettings {
        timeout: Duration::from_secs(c.llm_timeout_secs),
        max_retries: c.llm_max_retries,
        stream_limit: Duration::from_secs(c.llm_timeout_secs) * http::STREAM_LIMIT_FACTOR,
        ..HttpSettings::default()
    };
    let base = c.llm_base_url.trim();
    match c.llm_provider.as_str() {
        "openai" => Ok(Arc::new(OpenAiProvider::new(
            base,
            c.api_key.expose(),
            settings,
        )?)),
        "anthropic" => Ok(Arc::new(AnthropicProvider::new(
            base,
            c.api_key.expose(),
            settings,
        )?)),
        other => Err(format!("unknown llm_provider `{other}`")),
    }
}
