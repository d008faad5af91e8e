//! What the runtime tells the transport around a batch: progress while a long batch runs,
//! trace context and the run id on every output, outputs on their own subject, and a
//! message that keeps coming back unanswered (its consumers crash) dead-lettered.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use memval_proto::{codec, Message, RunHeader, ScoreBatch, VerdictBatch};
use memval_runtime::{run_stage, Inbox, Stage, StageConfig, StageError};
use memval_transport::inproc::{channel, DeadLetters};
use memval_transport::{header, Acker, BoxFuture, Envelope, Headers, TransportError};

/// Takes a while, then turns a verdict batch into a score batch of the same run.
struct Slow;

impl Stage for Slow {
    type In = VerdictBatch;
    type Out = ScoreBatch;

    fn name(&self) -> &'static str {
        "slow"
    }

    async fn process(&self, input: VerdictBatch) -> Result<Vec<ScoreBatch>, StageError> {
        tokio::time::sleep(Duration::from_millis(120)).await;
        Ok(vec![ScoreBatch { run: input.run, batch_id: input.batch_id, items: Vec::new() }])
    }
}

#[derive(Default)]
struct Answers {
    progress: AtomicU32,
    acked: AtomicU32,
    dead: Mutex<Vec<String>>,
}

struct CountingAcker(Arc<Answers>);

impl Acker for CountingAcker {
    fn ack(self: Box<Self>) -> BoxFuture<'static, Result<(), TransportError>> {
        self.0.acked.fetch_add(1, Ordering::SeqCst);
        Box::pin(async { Ok(()) })
    }
    fn nak(self: Box<Self>, _delay: Duration) -> BoxFuture<'static, Result<(), TransportError>> {
        Box::pin(async { Ok(()) })
    }
    fn dead_letter(
        self: Box<Self>,
        reason: String,
        _payload: Vec<u8>,
    ) -> BoxFuture<'static, Result<(), TransportError>> {
        self.0.dead.lock().unwrap().push(reason);
        Box::pin(async { Ok(()) })
    }
    fn progress(&self) -> BoxFuture<'static, Result<(), TransportError>> {
        self.0.progress.fetch_add(1, Ordering::SeqCst);
        Box::pin(async { Ok(()) })
    }
}

/// Hands out the given envelopes once each, then reports closed.
struct Once(Mutex<Vec<Envelope>>);

impl Inbox for Once {
    fn next(&self) -> BoxFuture<'_, Option<Result<Envelope, TransportError>>> {
        let next = self.0.lock().unwrap().pop();
        Box::pin(async move { next.map(Ok) })
    }
}

fn envelope(delivery: u32, headers: Headers, answers: &Arc<Answers>) -> Envelope {
    let batch = VerdictBatch {
        run: RunHeader { run_id: "run-7".into(), repo: ".".into(), commit: None, started_at: 0, expected_memories: 0 },
        batch_id: "run-7.m0.c.v".into(),
        items: Vec::new(),
    };
    Envelope {
        subject: VerdictBatch::SUBJECT.into(),
        payload: codec::encode(&batch).unwrap(),
        msg_id: Some("run-7.m0.c:0".into()),
        delivery,
        published_at: None,
        headers,
        acker: Box::new(CountingAcker(answers.clone())),
    }
}

#[tokio::test]
async fn a_long_batch_reports_progress_and_its_outputs_carry_trace_context_and_run() {
    let answers = Arc::new(Answers::default());
    let mut headers = Headers::new();
    headers.insert(header::TRACEPARENT, "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    headers.insert("X-Unrelated", "dropped");
    let inbox = Once(Mutex::new(vec![envelope(1, headers, &answers)]));
    let (out_tx, out_rx) = channel(4, DeadLetters::default());
    let config = StageConfig { progress_every: Duration::from_millis(25), ..StageConfig::default() };
    run_stage(Arc::new(Slow), Arc::new(inbox), Arc::new(out_tx), config, std::future::pending()).await.unwrap();
    assert!(
        answers.progress.load(Ordering::SeqCst) >= 2,
        "a 120 ms batch with 25 ms progress ticks reported {}",
        answers.progress.load(Ordering::SeqCst)
    );
    assert_eq!(answers.acked.load(Ordering::SeqCst), 1);
    let out = out_rx.next().await.unwrap().unwrap();
    assert_eq!(out.subject, "memval.v1.scores.run-7", "scores go to their run's subject");
    assert_eq!(out.msg_id.as_deref(), Some("run-7.m0.c.v:0"));
    assert_eq!(out.headers.get(header::TRACEPARENT), Some("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"));
    assert_eq!(out.headers.get(header::RUN), Some("run-7"));
    assert_eq!(out.headers.get("X-Unrelated"), None);
    out.acker.ack().await.unwrap();
}

#[tokio::test]
async fn a_message_that_keeps_coming_back_unanswered_is_dead_lettered() {
    let answers = Arc::new(Answers::default());
    // Delivery 11 with max_deliveries 5: ten deliveries went unanswered before.
    let inbox = Once(Mutex::new(vec![envelope(11, Headers::new(), &answers)]));
    let (out_tx, out_rx) = channel(4, DeadLetters::default());
    run_stage(Arc::new(Slow), Arc::new(inbox), Arc::new(out_tx), StageConfig::default(), std::future::pending())
        .await
        .unwrap();
    let dead = answers.dead.lock().unwrap().clone();
    assert_eq!(dead.len(), 1, "{dead:?}");
    assert!(dead[0].contains("delivered 11 times without an answer"), "{}", dead[0]);
    assert!(out_rx.next().await.is_none(), "nothing is published for it");
}
