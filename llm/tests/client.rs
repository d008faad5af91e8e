//! The real HTTP client against a scripted server, in both wire formats: what goes out, what
//! comes back, and what happens when the server misbehaves.

use std::sync::Arc;
use std::time::Duration;

use memval_llm::testing::{answers, Reply, ScriptedServer};
use memval_llm::{
    ChatModel, ChatRequest, LlmClient, LlmConfig, LlmError, Message, Provider, StopReason, ToolResult, ToolSpec,
};
use serde_json::json;

fn config(provider: Provider, server: &ScriptedServer) -> LlmConfig {
    let base = match provider {
        Provider::Openai => format!("{}/v1", server.url()),
        Provider::Anthropic => server.url(),
    };
    let mut cfg = LlmConfig::new(provider, &base, "test-model");
    cfg.backoff_base = Duration::from_millis(20);
    cfg.backoff_max = Duration::from_millis(200);
    cfg.call_timeout = Duration::from_secs(10);
    cfg
}

fn text(provider: Provider, t: &str) -> Reply {
    Reply::json(match provider {
        Provider::Openai => answers::openai_text(t),
        Provider::Anthropic => answers::anthropic_text(t),
    })
}

fn hello() -> ChatRequest {
    ChatRequest { system: "be brief".into(), messages: vec![Message::User("hello".into())], ..ChatRequest::default() }
}

const BOTH: [Provider; 2] = [Provider::Openai, Provider::Anthropic];

#[tokio::test]
async fn each_protocol_sends_its_own_request_and_reads_its_own_answer() {
    std::env::set_var("MEMVAL_TEST_KEY_WIRE", "sk-test-123");
    for provider in BOTH {
        let server = ScriptedServer::sequence(vec![text(provider, "hi there")]);
        let mut cfg = config(provider, &server);
        cfg.api_key_env = Some("MEMVAL_TEST_KEY_WIRE".into());
        let client = LlmClient::new(cfg).unwrap();
        let answer = client.chat("judge", &hello()).await.unwrap();
        assert_eq!(answer.text, "hi there");
        assert_eq!(answer.stop, StopReason::EndTurn);
        let req = &server.requests()[0];
        let body = req.json();
        assert_eq!(body["model"], "test-model");
        match provider {
            Provider::Openai => {
                assert_eq!(req.path, "/v1/chat/completions");
                assert_eq!(req.header("authorization"), Some("Bearer sk-test-123"));
                assert_eq!(body["messages"][0]["role"], "system");
                assert_eq!(body["messages"][1], json!({"role": "user", "content": "hello"}));
            }
            Provider::Anthropic => {
                assert_eq!(req.path, "/v1/messages");
                assert_eq!(req.header("x-api-key"), Some("sk-test-123"));
                assert_eq!(req.header("anthropic-version"), Some("2023-06-01"));
                assert_eq!(body["system"], "be brief");
                assert_eq!(body["messages"][0]["content"][0]["text"], "hello");
                assert!(body["max_tokens"].as_u64().unwrap() > 0);
            }
        }
        let usage = client.usage();
        assert_eq!(usage.stages["judge"].calls, 1);
        assert_eq!((usage.total.input_tokens, usage.total.output_tokens), (100, 20));
        assert_eq!(usage.total.cost_usd, None, "test-model has no price");
    }
}

#[tokio::test]
async fn tool_calls_round_trip_in_both_protocols() {
    for provider in BOTH {
        let ask = match provider {
            Provider::Openai => {
                answers::openai_tools(&[("call_7", "read_file", json!({"path": "src/lib.rs", "start": 1, "end": 5}))])
            }
            Provider::Anthropic => answers::anthropic_tools(&[(
                "toolu_7",
                "read_file",
                json!({"path": "src/lib.rs", "start": 1, "end": 5}),
            )]),
        };
        let server = ScriptedServer::sequence(vec![Reply::json(ask), text(provider, "done")]);
        let client = LlmClient::new(config(provider, &server)).unwrap();
        let tools = vec![ToolSpec {
            name: "read_file".into(),
            description: "read".into(),
            parameters: json!({"type": "object"}),
        }];
        let mut request = ChatRequest { tools, ..hello() };
        let first = client.chat("investigator", &request).await.unwrap();
        assert_eq!(first.stop, StopReason::ToolUse);
        let call = first.tool_calls[0].clone();
        assert_eq!(
            (call.name.as_str(), &call.arguments),
            ("read_file", &json!({"path": "src/lib.rs", "start": 1, "end": 5}))
        );
        request.messages.push(Message::Assistant { text: first.text, tool_calls: first.tool_calls });
        request.messages.push(Message::ToolResults(vec![ToolResult {
            call_id: call.id.clone(),
            content: "1: fn a() {}".into(),
            is_error: false,
        }]));
        let second = client.chat("investigator", &request).await.unwrap();
        assert_eq!(second.text, "done");
        let sent = server.requests()[1].json();
        match provider {
            Provider::Openai => {
                assert_eq!(
                    sent["messages"][3],
                    json!({"role": "tool", "tool_call_id": "call_7", "content": "1: fn a() {}"})
                );
                assert_eq!(sent["tools"][0]["function"]["name"], "read_file");
            }
            Provider::Anthropic => {
                assert_eq!(sent["messages"][2]["content"][0]["tool_use_id"], "toolu_7");
                assert_eq!(sent["messages"][1]["content"][0]["type"], "tool_use");
                assert_eq!(sent["tools"][0]["input_schema"], json!({"type": "object"}));
            }
        }
        assert_eq!(client.usage().stages["investigator"].calls, 2);
    }
}

#[tokio::test]
async fn malformed_json_is_an_error_and_is_not_retried() {
    for provider in BOTH {
        let server =
            ScriptedServer::sequence(vec![Reply::raw(200, "{\"choices\": [tru"), text(provider, "never sent")]);
        let client = LlmClient::new(config(provider, &server)).unwrap();
        let err = client.chat("judge", &hello()).await.unwrap_err();
        assert!(matches!(err, LlmError::Malformed(_)), "{provider:?}: {err}");
        assert!(err.to_string().contains("not JSON"), "{err}");
        assert_eq!(server.requests().len(), 1, "{provider:?}: a malformed answer is not retried");
        let usage = client.usage();
        assert_eq!((usage.total.calls, usage.total.failed_attempts), (0, 1));
    }
}

#[tokio::test]
async fn a_429_waits_at_least_retry_after_then_succeeds() {
    for provider in BOTH {
        let server = ScriptedServer::sequence(vec![
            Reply::raw(429, "{\"error\":\"slow down\"}").with_header("retry-after", "1"),
            text(provider, "ok"),
        ]);
        let client = LlmClient::new(config(provider, &server)).unwrap();
        let answer = client.chat("judge", &hello()).await.unwrap();
        assert_eq!(answer.text, "ok");
        let reqs = server.requests();
        assert_eq!(reqs.len(), 2);
        let waited = reqs[1].at - reqs[0].at;
        // The exponential backoff alone would be about 20 ms; Retry-After asks for a second.
        assert!(waited >= Duration::from_secs(1), "{provider:?}: retried after {waited:?}, before Retry-After");
        let usage = client.usage();
        assert_eq!((usage.total.calls, usage.total.failed_attempts), (1, 1));
    }
}

#[tokio::test]
async fn retries_run_out_on_a_server_that_stays_rate_limited() {
    let server = ScriptedServer::start(|_| Reply::raw(429, "{\"error\":\"quota\"}"));
    let mut cfg = config(Provider::Openai, &server);
    cfg.max_retries = 2;
    let client = LlmClient::new(cfg).unwrap();
    let err = client.chat("judge", &hello()).await.unwrap_err();
    assert!(matches!(err, LlmError::RateLimited { attempts: 3, .. }), "{err}");
    assert_eq!(server.requests().len(), 3);
}

#[tokio::test]
async fn server_errors_are_retried_with_backoff_then_succeed() {
    for provider in BOTH {
        let overloaded = if provider == Provider::Anthropic { 529 } else { 502 };
        let server = ScriptedServer::sequence(vec![
            Reply::raw(500, "{\"error\":\"boom\"}"),
            Reply::raw(overloaded, "{\"error\":\"busy\"}"),
            text(provider, "recovered"),
        ]);
        let client = LlmClient::new(config(provider, &server)).unwrap();
        let answer = client.chat("investigator", &hello()).await.unwrap();
        assert_eq!(answer.text, "recovered");
        let reqs = server.requests();
        assert_eq!(reqs.len(), 3);
        // Backoff: at least half of 20 ms, then half of 40 ms.
        assert!(reqs[1].at - reqs[0].at >= Duration::from_millis(10));
        assert!(reqs[2].at - reqs[1].at >= Duration::from_millis(20));
        assert_eq!(client.usage().stages["investigator"].failed_attempts, 2);
    }
}

#[tokio::test]
async fn a_client_error_is_not_retried() {
    let server =
        ScriptedServer::sequence(vec![Reply::raw(401, "{\"error\":\"bad key\"}"), text(Provider::Openai, "no")]);
    let client = LlmClient::new(config(Provider::Openai, &server)).unwrap();
    let err = client.chat("judge", &hello()).await.unwrap_err();
    assert!(matches!(err, LlmError::Refused { status: 401, .. }), "{err}");
    assert!(!err.is_retryable());
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn a_hung_call_times_out_and_the_retry_succeeds() {
    for provider in BOTH {
        let server = ScriptedServer::sequence(vec![
            text(provider, "too late").after(Duration::from_secs(30)),
            text(provider, "on time"),
        ]);
        let mut cfg = config(provider, &server);
        cfg.call_timeout = Duration::from_millis(300);
        let client = LlmClient::new(cfg).unwrap();
        let answer = client.chat("judge", &hello()).await.unwrap();
        assert_eq!(answer.text, "on time");
        assert_eq!(server.requests().len(), 2);
    }
}

#[tokio::test]
async fn a_server_that_never_answers_ends_in_a_timeout_error() {
    let server = ScriptedServer::start(|_| Reply::raw(200, "{}").after(Duration::from_secs(60)));
    let mut cfg = config(Provider::Anthropic, &server);
    cfg.call_timeout = Duration::from_millis(200);
    cfg.max_retries = 1;
    let client = LlmClient::new(cfg).unwrap();
    let err = client.chat("judge", &hello()).await.unwrap_err();
    assert!(matches!(err, LlmError::Timeout { attempts: 2, .. }), "{err}");
    assert!(err.is_retryable());
}

#[tokio::test]
async fn the_run_deadline_stops_calls_and_waits_that_would_pass_it() {
    // A hung server: the attempt is cut at the deadline.
    let server = ScriptedServer::start(|_| Reply::raw(200, "{}").after(Duration::from_secs(60)));
    let mut cfg = config(Provider::Openai, &server);
    cfg.run_timeout = Duration::from_millis(400);
    let client = LlmClient::new(cfg).unwrap();
    let err = client.chat("judge", &hello()).await.unwrap_err();
    assert!(matches!(err, LlmError::Deadline(_)), "{err}");
    let again = client.chat("judge", &hello()).await.unwrap_err();
    assert!(matches!(again, LlmError::Deadline(_)), "{again}");

    // A Retry-After longer than what is left of the run: no waiting, an error at once.
    let server = ScriptedServer::sequence(vec![
        Reply::raw(429, "{}").with_header("retry-after", "120"),
        text(Provider::Openai, "x"),
    ]);
    let mut cfg = config(Provider::Openai, &server);
    cfg.run_timeout = Duration::from_secs(20);
    let client = LlmClient::new(cfg).unwrap();
    let started = std::time::Instant::now();
    let err = client.chat("judge", &hello()).await.unwrap_err();
    assert!(matches!(err, LlmError::Deadline(_)), "{err}");
    assert!(started.elapsed() < Duration::from_secs(15), "it waited for a Retry-After past the deadline");
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn no_more_requests_in_flight_than_the_limit() {
    let server = ScriptedServer::start(|_| Reply::json(answers::openai_text("ok")).after(Duration::from_millis(150)));
    let mut cfg = config(Provider::Openai, &server);
    cfg.max_concurrency = 2;
    let client = Arc::new(LlmClient::new(cfg).unwrap());
    let mut calls = tokio::task::JoinSet::new();
    for _ in 0..6 {
        let client = client.clone();
        calls.spawn(async move { client.chat("judge", &hello()).await });
    }
    while let Some(done) = calls.join_next().await {
        done.unwrap().unwrap();
    }
    assert_eq!(server.requests().len(), 6);
    assert!(server.max_in_flight() <= 2, "{} requests were in flight at once", server.max_in_flight());
    assert_eq!(client.usage().stages["judge"].calls, 6);
}

#[tokio::test]
async fn an_unreachable_server_is_reported_with_its_url() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let mut cfg = LlmConfig::new(Provider::Openai, &format!("http://127.0.0.1:{port}/v1"), "m");
    cfg.max_retries = 1;
    cfg.backoff_base = Duration::from_millis(10);
    let client = LlmClient::new(cfg).unwrap();
    let err = client.chat("judge", &hello()).await.unwrap_err();
    assert!(matches!(err, LlmError::Unreachable { attempts: 2, .. }), "{err}");
    assert!(err.to_string().contains(&format!("127.0.0.1:{port}")), "{err}");
}

#[tokio::test]
async fn the_key_never_shows_in_debug_output() {
    std::env::set_var("MEMVAL_TEST_KEY_DEBUG", "sk-very-secret");
    let mut cfg = LlmConfig::new(Provider::Openai, "http://127.0.0.1:9/v1", "m");
    cfg.api_key_env = Some("MEMVAL_TEST_KEY_DEBUG".into());
    let client = LlmClient::new(cfg).unwrap();
    assert!(!format!("{client:?}").contains("sk-very-secret"));
}

#[tokio::test]
async fn the_call_budget_stops_new_requests_and_says_so() {
    let server = ScriptedServer::start(|_| Reply::json(answers::openai_text("ok")));
    let mut cfg = config(Provider::Openai, &server);
    cfg.max_calls = Some(2);
    let client = LlmClient::new(cfg).unwrap();
    client.chat("extractor", &hello()).await.unwrap();
    client.chat("investigator", &hello()).await.unwrap();
    let err = client.chat("investigator", &hello()).await.unwrap_err();
    assert!(matches!(err, LlmError::Budget(_)), "{err}");
    assert!(err.to_string().contains("all 2 model calls"), "{err}");
    assert_eq!(server.requests().len(), 2);
    let budget = client.usage().budget.expect("a budget is reported");
    assert_eq!((budget.requests, budget.refused, budget.exhausted), (2, 1, true));
}

#[tokio::test]
async fn retries_count_against_the_call_budget() {
    let server = ScriptedServer::start(|_| Reply::raw(503, "{}"));
    let mut cfg = config(Provider::Openai, &server);
    cfg.max_calls = Some(3);
    let client = LlmClient::new(cfg).unwrap();
    let err = client.chat("judge", &hello()).await.unwrap_err();
    assert!(matches!(err, LlmError::Budget(_)), "{err}");
    assert_eq!(server.requests().len(), 3);
}

#[tokio::test]
async fn the_usd_budget_stops_calls_once_spent() {
    let server = ScriptedServer::start(|_| Reply::json(answers::openai_text("ok")));
    let mut cfg = config(Provider::Openai, &server);
    // 100 input + 20 output tokens a call at $1 / $10 per million: $0.0003 a call.
    cfg.price = Some(memval_llm::Price { input_per_mtok: 1.0, output_per_mtok: 10.0 });
    cfg.budget_usd = Some(0.0005);
    let client = LlmClient::new(cfg).unwrap();
    client.chat("judge", &hello()).await.unwrap();
    client.chat("judge", &hello()).await.unwrap();
    let err = client.chat("judge", &hello()).await.unwrap_err();
    assert!(err.to_string().contains("of the $0.0005 budget spent"), "{err}");
    let usage = client.usage();
    assert!((usage.total.cost_usd.unwrap() - 0.0006).abs() < 1e-9);
    assert_eq!(usage.budget.unwrap().refused, 1);
}
