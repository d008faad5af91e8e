//! The two wire protocols: request bodies and headers out, [`ChatResponse`] in.
//!
//! Both decoders are strict about the envelope (a 2xx answer must be the protocol's JSON) and
//! lenient where real servers differ: OpenAI-compatible servers send tool arguments as a JSON
//! string (OpenAI, vLLM, llama.cpp) or as an object (some Ollama versions), may omit tool call
//! ids, and send `content: null` next to tool calls.

use serde_json::{json, Map, Value};

use crate::error::snippet;
use crate::{ChatRequest, ChatResponse, LlmError, Message, Provider, StopReason, TokenUsage, ToolCall};

/// The Messages API version memval speaks.
pub const ANTHROPIC_VERSION: &str = "2023-06-01";

pub fn endpoint(provider: Provider, base_url: &str) -> String {
    match provider {
        Provider::Openai => format!("{base_url}/chat/completions"),
        Provider::Anthropic => format!("{base_url}/v1/messages"),
    }
}

pub fn headers(provider: Provider, key: Option<&str>) -> Vec<(&'static str, String)> {
    let mut headers = vec![("content-type", "application/json".to_owned())];
    match provider {
        Provider::Openai => {
            if let Some(key) = key {
                headers.push(("authorization", format!("Bearer {key}")));
            }
        }
        Provider::Anthropic => {
            headers.push(("anthropic-version", ANTHROPIC_VERSION.to_owned()));
            if let Some(key) = key {
                headers.push(("x-api-key", key.to_owned()));
            }
        }
    }
    headers
}

pub fn encode(provider: Provider, model: &str, max_tokens: u32, request: &ChatRequest) -> Value {
    match provider {
        Provider::Openai => openai_request(model, max_tokens, request),
        Provider::Anthropic => anthropic_request(model, max_tokens, request),
    }
}

pub fn decode(provider: Provider, body: &[u8]) -> Result<ChatResponse, LlmError> {
    let value: Value =
        serde_json::from_slice(body).map_err(|e| LlmError::Malformed(format!("not JSON ({e}): {}", snippet(body))))?;
    if let Some(error) = value.get("error").filter(|e| !e.is_null()) {
        return Err(LlmError::Malformed(format!(
            "the server answered with an error: {}",
            snippet(error.to_string().as_bytes())
        )));
    }
    match provider {
        Provider::Openai => openai_response(&value),
        Provider::Anthropic => anthropic_response(&value),
    }
    .map_err(|what| LlmError::Malformed(format!("{what}: {}", snippet(body))))
}

fn openai_request(model: &str, max_tokens: u32, request: &ChatRequest) -> Value {
    let mut messages = Vec::new();
    if !request.system.is_empty() {
        messages.push(json!({"role": "system", "content": request.system}));
    }
    for message in &request.messages {
        match message {
            Message::User(text) => messages.push(json!({"role": "user", "content": text})),
            Message::Assistant { text, tool_calls } => {
                let mut m = Map::new();
                m.insert("role".into(), "assistant".into());
                m.insert(
                    "content".into(),
                    if text.is_empty() && !tool_calls.is_empty() { Value::Null } else { text.clone().into() },
                );
                if !tool_calls.is_empty() {
                    let calls: Vec<Value> = tool_calls
                        .iter()
                        .map(|c| json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": arguments_text(&c.arguments)}}))
                        .collect();
                    m.insert("tool_calls".into(), calls.into());
                }
                messages.push(Value::Object(m));
            }
            Message::ToolResults(results) => {
                for r in results {
                    messages.push(json!({"role": "tool", "tool_call_id": r.call_id, "content": r.content}));
                }
            }
        }
    }
    let mut body = json!({
        "model": model,
        "messages": messages,
        "max_tokens": max_tokens,
        "temperature": 0,
        "stream": false,
    });
    if !request.tools.is_empty() {
        let tools: Vec<Value> = request
            .tools
            .iter()
            .map(|t| json!({"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.parameters}}))
            .collect();
        body["tools"] = tools.into();
        body["tool_choice"] = "auto".into();
    }
    body
}

fn arguments_text(arguments: &Value) -> String {
    match arguments {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn openai_response(value: &Value) -> Result<ChatResponse, String> {
    let choice = value
        .get("choices")
        .and_then(Value::as_array)
        .and_then(|c| c.first())
        .ok_or("no choices[0] in a chat completion")?;
    let message = choice.get("message").ok_or("choices[0] has no message")?;
    let text = match message.get("content") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        // Content parts ([{type: text, text}]) from some servers.
        Some(Value::Array(parts)) => {
            parts.iter().filter_map(|p| p.get("text").and_then(Value::as_str)).collect::<Vec<_>>().join("")
        }
        Some(_) => return Err("message.content is neither text nor null".into()),
    };
    let mut tool_calls = Vec::new();
    if let Some(calls) = message.get("tool_calls").filter(|c| !c.is_null()) {
        let calls = calls.as_array().ok_or("message.tool_calls is not a list")?;
        for (i, call) in calls.iter().enumerate() {
            let function = call.get("function").ok_or("a tool call has no function")?;
            let name = function.get("name").and_then(Value::as_str).ok_or("a tool call has no function name")?;
            let arguments = match function.get("arguments") {
                Some(Value::String(s)) if s.trim().is_empty() => json!({}),
                Some(Value::String(s)) => serde_json::from_str(s).unwrap_or_else(|_| Value::String(s.clone())),
                Some(Value::Null) | None => json!({}),
                Some(other) => other.clone(),
            };
            let id = call
                .get("id")
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .unwrap_or_else(|| format!("call_{i}"));
            tool_calls.push(ToolCall { id, name: name.to_owned(), arguments });
        }
    }
    let usage = value.get("usage");
    let count = |k: &str| usage.and_then(|u| u.get(k)).and_then(Value::as_u64).unwrap_or(0);
    let stop = match choice.get("finish_reason").and_then(Value::as_str) {
        Some("tool_calls") | Some("function_call") => StopReason::ToolUse,
        Some("length") => StopReason::MaxTokens,
        Some("stop") | None => {
            if tool_calls.is_empty() {
                StopReason::EndTurn
            } else {
                StopReason::ToolUse
            }
        }
        Some(other) => StopReason::Other(other.to_owned()),
    };
    Ok(ChatResponse {
        text,
        tool_calls,
        usage: TokenUsage { input: count("prompt_tokens"), output: count("completion_tokens") },
        stop,
    })
}

fn anthropic_request(model: &str, max_tokens: u32, request: &ChatRequest) -> Value {
    let mut messages: Vec<Value> = Vec::new();
    for message in &request.messages {
        match message {
            Message::User(text) => messages.push(json!({"role": "user", "content": [{"type": "text", "text": text}]})),
            Message::Assistant { text, tool_calls } => {
                let mut content = Vec::new();
                if !text.is_empty() {
                    content.push(json!({"type": "text", "text": text}));
                }
                for c in tool_calls {
                    let input = if c.arguments.is_object() { c.arguments.clone() } else { json!({}) };
                    content.push(json!({"type": "tool_use", "id": c.id, "name": c.name, "input": input}));
                }
                messages.push(json!({"role": "assistant", "content": content}));
            }
            Message::ToolResults(results) => {
                let content: Vec<Value> = results
                    .iter()
                    .map(|r| json!({"type": "tool_result", "tool_use_id": r.call_id, "content": r.content, "is_error": r.is_error}))
                    .collect();
                messages.push(json!({"role": "user", "content": content}));
            }
        }
    }
    let mut body = json!({
        "model": model,
        "max_tokens": max_tokens,
        "temperature": 0,
        "messages": messages,
    });
    if !request.system.is_empty() {
        body["system"] = request.system.clone().into();
    }
    if !request.tools.is_empty() {
        let tools: Vec<Value> = request
            .tools
            .iter()
            .map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.parameters}))
            .collect();
        body["tools"] = tools.into();
    }
    body
}

fn anthropic_response(value: &Value) -> Result<ChatResponse, String> {
    if value.get("type").and_then(Value::as_str).is_some_and(|t| t != "message") {
        return Err(format!("expected a message, got type {}", value["type"]));
    }
    let content = value.get("content").and_then(Value::as_array).ok_or("no content list in a message")?;
    let mut text = String::new();
    let mut tool_calls = Vec::new();
    for block in content {
        match block.get("type").and_then(Value::as_str) {
            Some("text") => text.push_str(block.get("text").and_then(Value::as_str).unwrap_or("")),
            Some("tool_use") => {
                let id = block.get("id").and_then(Value::as_str).ok_or("a tool_use block has no id")?;
                let name = block.get("name").and_then(Value::as_str).ok_or("a tool_use block has no name")?;
                tool_calls.push(ToolCall {
                    id: id.to_owned(),
                    name: name.to_owned(),
                    arguments: block.get("input").cloned().unwrap_or(json!({})),
                });
            }
            // Thinking and other blocks carry nothing memval uses.
            _ => {}
        }
    }
    let usage = value.get("usage");
    let count = |k: &str| usage.and_then(|u| u.get(k)).and_then(Value::as_u64).unwrap_or(0);
    let stop = match value.get("stop_reason").and_then(Value::as_str) {
        Some("end_turn") | Some("stop_sequence") => StopReason::EndTurn,
        Some("tool_use") => StopReason::ToolUse,
        Some("max_tokens") => StopReason::MaxTokens,
        Some(other) => StopReason::Other(other.to_owned()),
        None => {
            if tool_calls.is_empty() {
                StopReason::EndTurn
            } else {
                StopReason::ToolUse
            }
        }
    };
    Ok(ChatResponse {
        text,
        tool_calls,
        usage: TokenUsage { input: count("input_tokens"), output: count("output_tokens") },
        stop,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ToolResult, ToolSpec};

    fn conversation() -> ChatRequest {
        ChatRequest {
            system: "sys".into(),
            messages: vec![
                Message::User("hi".into()),
                Message::Assistant {
                    text: String::new(),
                    tool_calls: vec![ToolCall {
                        id: "c1".into(),
                        name: "glob".into(),
                        arguments: json!({"pattern": "*.rs"}),
                    }],
                },
                Message::ToolResults(vec![ToolResult {
                    call_id: "c1".into(),
                    content: "a.rs".into(),
                    is_error: false,
                }]),
            ],
            tools: vec![ToolSpec {
                name: "glob".into(),
                description: "list".into(),
                parameters: json!({"type": "object"}),
            }],
            max_tokens: None,
        }
    }

    #[test]
    fn openai_request_shape() {
        let body = encode(Provider::Openai, "m", 100, &conversation());
        assert_eq!(body["messages"][0], json!({"role": "system", "content": "sys"}));
        assert_eq!(body["messages"][2]["content"], Value::Null);
        assert_eq!(body["messages"][2]["tool_calls"][0]["function"]["arguments"], "{\"pattern\":\"*.rs\"}");
        assert_eq!(body["messages"][3], json!({"role": "tool", "tool_call_id": "c1", "content": "a.rs"}));
        assert_eq!(body["tools"][0]["function"]["name"], "glob");
        assert_eq!(body["max_tokens"], 100);
    }

    #[test]
    fn anthropic_request_shape() {
        let body = encode(Provider::Anthropic, "m", 100, &conversation());
        assert_eq!(body["system"], "sys");
        assert_eq!(
            body["messages"][1]["content"][0],
            json!({"type": "tool_use", "id": "c1", "name": "glob", "input": {"pattern": "*.rs"}})
        );
        assert_eq!(body["messages"][2]["content"][0]["type"], "tool_result");
        assert_eq!(body["messages"][2]["role"], "user");
        assert_eq!(body["tools"][0]["input_schema"], json!({"type": "object"}));
    }

    #[test]
    fn openai_answers_as_real_servers_send_them() {
        let cases = [
            // llama.cpp: content null, arguments as a string, no usage.
            (
                r#"{"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"x","type":"function","function":{"name":"glob","arguments":"{\"pattern\":\"*\"}"}}]},"finish_reason":"tool_calls"}]}"#,
                "",
                vec![("x", json!({"pattern": "*"}))],
                StopReason::ToolUse,
            ),
            // Ollama: arguments as an object, no id.
            (
                r#"{"choices":[{"message":{"content":"","tool_calls":[{"function":{"name":"glob","arguments":{"pattern":"a"}}}]},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":4}}"#,
                "",
                vec![("call_0", json!({"pattern": "a"}))],
                StopReason::ToolUse,
            ),
            // Arguments that are not JSON stay a string, for the tool to refuse.
            (
                r#"{"choices":[{"message":{"content":"ok","tool_calls":[{"id":"y","function":{"name":"grep","arguments":"{oops"}}]},"finish_reason":"tool_calls"}]}"#,
                "ok",
                vec![("y", json!("{oops"))],
                StopReason::ToolUse,
            ),
            (
                r#"{"choices":[{"message":{"content":"done"},"finish_reason":"length"}]}"#,
                "done",
                vec![],
                StopReason::MaxTokens,
            ),
        ];
        for (body, text, calls, stop) in cases {
            let r = decode(Provider::Openai, body.as_bytes()).unwrap();
            assert_eq!(r.text, text, "{body}");
            let got: Vec<(String, Value)> = r.tool_calls.into_iter().map(|c| (c.id, c.arguments)).collect();
            let want: Vec<(String, Value)> = calls.into_iter().map(|(i, a)| (i.to_owned(), a)).collect();
            assert_eq!(got, want, "{body}");
            assert_eq!(r.stop, stop, "{body}");
        }
    }

    #[test]
    fn malformed_envelopes_are_errors() {
        let cases = [
            (Provider::Openai, "not json{"),
            (Provider::Openai, r#"{"choices":[]}"#),
            (Provider::Openai, r#"{"error":{"message":"model not loaded"}}"#),
            (Provider::Openai, r#"{"choices":[{"message":{"content":7}}]}"#),
            (Provider::Anthropic, r#"{"type":"error","error":{"type":"overloaded_error"}}"#),
            (Provider::Anthropic, r#"{"type":"message","content":"text"}"#),
            (Provider::Anthropic, r#"{"type":"message","content":[{"type":"tool_use","name":"x"}]}"#),
        ];
        for (provider, body) in cases {
            assert!(matches!(decode(provider, body.as_bytes()), Err(LlmError::Malformed(_))), "{body}");
        }
    }
}
