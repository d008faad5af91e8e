//! A scripted model server for tests: a loopback HTTP/1.1 server that answers each request
//! with the reply a script chooses, and records what it was sent.
//!
//! It speaks just enough HTTP for reqwest (one request per connection, `Content-Length`
//! bodies, `Connection: close`), runs on its own thread and runtime (so both async tests and
//! tests driving the `memval` binary can use it), and stops when dropped.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A request as the server received it.
#[derive(Debug, Clone)]
pub struct Recorded {
    /// 0-based arrival order.
    pub index: usize,
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
    pub at: Instant,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The body as JSON (`Null` when it is not JSON).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }

    /// Every text the request carries (system prompt, messages, tool results), joined: what a
    /// script matches on to pick its answer.
    pub fn text(&self) -> String {
        let mut out = String::new();
        collect_strings(&self.json(), &mut out);
        out
    }
}

fn collect_strings(value: &Value, out: &mut String) {
    match value {
        Value::String(s) => {
            out.push_str(s);
            out.push('\n');
        }
        Value::Array(items) => items.iter().for_each(|v| collect_strings(v, out)),
        Value::Object(map) => map.values().for_each(|v| collect_strings(v, out)),
        _ => {}
    }
}

/// What the server answers.
#[derive(Debug, Clone)]
pub enum Reply {
    Http {
        status: u16,
        headers: Vec<(String, String)>,
        body: String,
    },
    /// Wait, then answer (a slow or hung server).
    Delay(Duration, Box<Reply>),
}

impl Reply {
    /// 200 with a JSON body.
    pub fn json(body: Value) -> Reply {
        Reply::Http { status: 200, headers: Vec::new(), body: body.to_string() }
    }

    /// Any status with a raw body.
    pub fn raw(status: u16, body: &str) -> Reply {
        Reply::Http { status, headers: Vec::new(), body: body.to_owned() }
    }

    pub fn with_header(self, name: &str, value: &str) -> Reply {
        match self {
            Reply::Http { status, mut headers, body } => {
                headers.push((name.to_owned(), value.to_owned()));
                Reply::Http { status, headers, body }
            }
            Reply::Delay(d, inner) => Reply::Delay(d, Box::new(inner.with_header(name, value))),
        }
    }

    pub fn after(self, delay: Duration) -> Reply {
        Reply::Delay(delay, Box::new(self))
    }
}

type Script = dyn Fn(&Recorded) -> Reply + Send + Sync;

pub struct ScriptedServer {
    addr: std::net::SocketAddr,
    log: Arc<Mutex<Vec<Recorded>>>,
    max_in_flight: Arc<AtomicUsize>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl ScriptedServer {
    /// A server that answers each request with `script(request)`.
    pub fn start(script: impl Fn(&Recorded) -> Reply + Send + Sync + 'static) -> ScriptedServer {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        listener.set_nonblocking(true).expect("nonblocking listener");
        let addr = listener.local_addr().expect("local addr");
        let log = Arc::new(Mutex::new(Vec::new()));
        let max_in_flight = Arc::new(AtomicUsize::new(0));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let script: Arc<Script> = Arc::new(script);
        let (log2, max2) = (log.clone(), max_in_flight.clone());
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("server runtime");
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).expect("tokio listener");
                let in_flight = Arc::new(AtomicUsize::new(0));
                let serve = async {
                    loop {
                        let Ok((socket, _)) = listener.accept().await else { continue };
                        let (script, log, in_flight, max) =
                            (script.clone(), log2.clone(), in_flight.clone(), max2.clone());
                        tokio::spawn(async move {
                            let _ = serve_one(socket, &*script, &log, &in_flight, &max).await;
                        });
                    }
                };
                tokio::select! {
                    _ = serve => {}
                    _ = stopped => {}
                }
            });
            runtime.shutdown_background();
        });
        ScriptedServer { addr, log, max_in_flight, stop: Some(stop), thread: Some(thread) }
    }

    /// A server that answers the n-th request with `replies[n]`, and with 500 once the
    /// script runs out.
    pub fn sequence(replies: Vec<Reply>) -> ScriptedServer {
        ScriptedServer::start(move |req| {
            replies.get(req.index).cloned().unwrap_or_else(|| Reply::raw(500, "{\"error\":\"script exhausted\"}"))
        })
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.log.lock().unwrap().clone()
    }

    /// The most requests it was answering at once.
    pub fn max_in_flight(&self) -> usize {
        self.max_in_flight.load(Ordering::SeqCst)
    }
}

impl Drop for ScriptedServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

async fn serve_one(
    mut socket: tokio::net::TcpStream,
    script: &Script,
    log: &Mutex<Vec<Recorded>>,
    in_flight: &AtomicUsize,
    max: &AtomicUsize,
) -> std::io::Result<()> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    let head_end = loop {
        if let Some(pos) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break pos;
        }
        let n = socket.read(&mut chunk).await?;
        if n == 0 {
            return Ok(());
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut request_line = lines.next().unwrap_or("").split_whitespace();
    let method = request_line.next().unwrap_or("").to_owned();
    let path = request_line.next().unwrap_or("").to_owned();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let length: usize =
        headers.iter().find(|(k, _)| k == "content-length").and_then(|(_, v)| v.parse().ok()).unwrap_or(0);
    let mut body = buf[head_end + 4..].to_vec();
    while body.len() < length {
        let n = socket.read(&mut chunk).await?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    max.fetch_max(now, Ordering::SeqCst);
    let recorded = {
        let mut log = log.lock().unwrap();
        let recorded = Recorded {
            index: log.len(),
            method,
            path,
            headers,
            body: String::from_utf8_lossy(&body).into_owned(),
            at: Instant::now(),
        };
        log.push(recorded.clone());
        recorded
    };
    let mut reply = script(&recorded);
    let result = async {
        loop {
            match reply {
                Reply::Delay(delay, inner) => {
                    tokio::time::sleep(delay).await;
                    reply = *inner;
                }
                Reply::Http { status, headers, body } => {
                    let mut out = format!(
                        "HTTP/1.1 {status} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n",
                        reason(status),
                        body.len()
                    );
                    for (k, v) in headers {
                        out.push_str(&format!("{k}: {v}\r\n"));
                    }
                    out.push_str("\r\n");
                    out.push_str(&body);
                    socket.write_all(out.as_bytes()).await?;
                    socket.shutdown().await?;
                    return Ok(());
                }
            }
        }
    }
    .await;
    in_flight.fetch_sub(1, Ordering::SeqCst);
    result
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        529 => "Overloaded",
        _ => "Status",
    }
}

/// Answer bodies in each wire format.
pub mod answers {
    use super::*;

    /// An OpenAI chat completion whose message is `text`.
    pub fn openai_text(text: &str) -> Value {
        json!({
            "id": "chatcmpl-test", "object": "chat.completion", "model": "scripted",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
        })
    }

    /// An OpenAI chat completion asking for tool calls `(id, name, arguments)`.
    pub fn openai_tools(calls: &[(&str, &str, Value)]) -> Value {
        let calls: Vec<Value> = calls
            .iter()
            .map(|(id, name, args)| json!({"id": id, "type": "function", "function": {"name": name, "arguments": args.to_string()}}))
            .collect();
        json!({
            "id": "chatcmpl-test", "object": "chat.completion", "model": "scripted",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": null, "tool_calls": calls}, "finish_reason": "tool_calls"}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
        })
    }

    /// An Anthropic message whose content is `text`.
    pub fn anthropic_text(text: &str) -> Value {
        json!({
            "id": "msg_test", "type": "message", "role": "assistant", "model": "scripted",
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn", "usage": {"input_tokens": 100, "output_tokens": 20}
        })
    }

    /// An Anthropic message asking for tool uses `(id, name, input)`.
    pub fn anthropic_tools(calls: &[(&str, &str, Value)]) -> Value {
        let content: Vec<Value> = calls
            .iter()
            .map(|(id, name, input)| json!({"type": "tool_use", "id": id, "name": name, "input": input}))
            .collect();
        json!({
            "id": "msg_test", "type": "message", "role": "assistant", "model": "scripted",
            "content": content, "stop_reason": "tool_use", "usage": {"input_tokens": 100, "output_tokens": 20}
        })
    }
}
