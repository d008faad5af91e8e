//! `mcp::serve` as a library call: a session over an in-memory pipe, spoken to in raw
//! JSON-RPC lines (what any MCP client sends), ended by the injected shutdown future while
//! the client still holds the pipe open, or by the client closing it.

use std::time::Duration;

use memval_integrations::mcp::serve;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines};

const WAIT: Duration = Duration::from_secs(20);

async fn send(to: &mut DuplexStream, message: Value) {
    to.write_all(format!("{message}\n").as_bytes()).await.unwrap();
}

async fn reply(from: &mut Lines<BufReader<DuplexStream>>) -> Value {
    let line =
        tokio::time::timeout(WAIT, from.next_line()).await.expect("the server answers").unwrap().expect("a line");
    serde_json::from_str(&line).unwrap()
}

/// Starts a session and does the handshake; returns the client's ends and the server task.
async fn session(
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> (DuplexStream, Lines<BufReader<DuplexStream>>, tokio::task::JoinHandle<Result<(), memval_integrations::Error>>) {
    let (client_out, server_in) = tokio::io::duplex(64 * 1024);
    let (server_out, client_in) = tokio::io::duplex(64 * 1024);
    let task = tokio::spawn(serve(server_in, server_out, None, shutdown));
    let (mut to, mut from) = (client_out, BufReader::new(client_in).lines());
    send(&mut to, json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}})).await;
    let init = reply(&mut from).await;
    assert_eq!(init["result"]["serverInfo"]["name"], "memval", "{init}");
    send(&mut to, json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;
    (to, from, task)
}

#[tokio::test]
async fn the_injected_shutdown_ends_an_open_session() {
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let (mut to, mut from, task) = session(async move {
        let _ = stopped.await;
    })
    .await;
    send(&mut to, json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})).await;
    let tools = reply(&mut from).await;
    let mut names: Vec<&str> =
        tools["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["check_memory", "judge_draft", "reconcile", "validate_memories"]);
    // The client keeps its end open: only the shutdown can end the session.
    stop.send(()).unwrap();
    let ended = tokio::time::timeout(WAIT, task).await.expect("serve returns after shutdown").unwrap();
    assert!(ended.is_ok(), "{ended:?}");
    drop(to);
}

#[tokio::test]
async fn the_session_ends_when_the_client_closes_it() {
    let (to, _from, task) = session(std::future::pending()).await;
    drop(to);
    let ended = tokio::time::timeout(WAIT, task).await.expect("serve returns at end of input").unwrap();
    assert!(ended.is_ok(), "{ended:?}");
}

#[tokio::test]
async fn a_relative_repo_is_refused_with_a_tool_error() {
    let (mut to, mut from, _task) = session(std::future::pending()).await;
    send(&mut to, json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "validate_memories", "arguments": {"repo": "some/repo", "memories": "CLAUDE.md"}}})).await;
    let answer = reply(&mut from).await;
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    let text = answer["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("absolute path"), "{text}");
}
