//! Provider-neutral conversation types; `wire` maps them to each protocol.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One model call: a system prompt, the conversation so far, and the tools the model may call.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChatRequest {
    pub system: String,
    pub messages: Vec<Message>,
    pub tools: Vec<ToolSpec>,
    /// Output token limit for this call; `None` uses the config's `max_output_tokens`.
    pub max_tokens: Option<u32>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    User(String),
    Assistant {
        text: String,
        tool_calls: Vec<ToolCall>,
    },
    /// Answers to the tool calls of the previous assistant message.
    ToolResults(Vec<ToolResult>),
}

/// A tool the model may call; `parameters` is a JSON schema of its arguments object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub parameters: Value,
}

/// A call the model asked for. `arguments` is what the model sent: normally a JSON object;
/// a string when the model sent text that is not JSON (the tool reports the error).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub arguments: Value,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolResult {
    pub call_id: String,
    pub content: String,
    pub is_error: bool,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenUsage {
    pub input: u64,
    pub output: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StopReason {
    /// The model finished its answer.
    EndTurn,
    /// The model wants tool results before it goes on.
    ToolUse,
    /// The answer was cut at the output token limit.
    MaxTokens,
    Other(String),
}

/// What the model answered.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatResponse {
    pub text: String,
    pub tool_calls: Vec<ToolCall>,
    pub usage: TokenUsage,
    pub stop: StopReason,
}

/// A boxed future, so [`crate::ChatModel`] stays object safe.
pub type BoxFuture<'a, T> = std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send + 'a>>;
