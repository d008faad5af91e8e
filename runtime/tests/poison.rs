//! The runtime loop against the in-process transport: poison messages are dead-lettered
//! with a reason and the stage keeps serving; retryable failures are retried.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::Duration;

use memval_proto::{codec, Message, RunHeader, ScoreBatch, VerdictBatch};
use memval_runtime::{run_stage, Inbox, Outbox, Stage, StageConfig, StageError};
use memval_transport::inproc::{channel, DeadLetters};

/// Turns a verdict batch into an (empty) score batch; fails `fail_first` times first.
struct Echo {
    fail_first: u32,
    calls: AtomicU32,
}

impl Stage for Echo {
    type In = VerdictBatch;
    type Out = ScoreBatch;

    fn name(&self) -> &'static str {
        "echo"
    }

    async fn process(&self, input: VerdictBatch) -> Result<Vec<ScoreBatch>, StageError> {
        if self.calls.fetch_add(1, Ordering::SeqCst) < self.fail_first {
            return Err(StageError::Retryable("flaky".into()));
        }
        Ok(vec![ScoreBatch { run: input.run, batch_id: input.batch_id, items: Vec::new() }])
    }
}

fn batch(id: &str) -> VerdictBatch {
    VerdictBatch {
        run: RunHeader { run_id: "r".into(), repo: ".".into(), commit: None, started_at: 0, expected_memories: 0 },
        batch_id: id.into(),
        items: Vec::new(),
    }
}

async fn drive(
    stage: Echo,
    inputs: Vec<(&'static str, Vec<u8>)>,
) -> (Vec<ScoreBatch>, Vec<memval_transport::DeadLetter>) {
    let dead = DeadLetters::default();
    let (in_tx, in_rx) = channel(8, dead.clone());
    let (out_tx, out_rx) = channel(8, dead.clone());
    let config = StageConfig {
        concurrency: 2,
        max_deliveries: 5,
        base_backoff: Duration::from_millis(1),
        ..StageConfig::default()
    };
    let task =
        tokio::spawn(run_stage(Arc::new(stage), Arc::new(in_rx), Arc::new(out_tx), config, std::future::pending()));
    for (i, (subject, payload)) in inputs.into_iter().enumerate() {
        in_tx.publish(subject, format!("in:{i}"), payload).await.unwrap();
    }
    drop(in_tx);
    task.await.unwrap().unwrap();
    let mut outputs = Vec::new();
    while let Some(env) = out_rx.next().await {
        let env = env.unwrap();
        outputs.push(codec::decode::<ScoreBatch>(&env.payload).unwrap());
        env.acker.ack().await.unwrap();
    }
    (outputs, dead.take())
}

#[tokio::test]
async fn poison_messages_are_dead_lettered_and_the_stage_keeps_serving() {
    let good = codec::encode(&batch("good")).unwrap();
    let (outputs, dead) = drive(
        Echo { fail_first: 0, calls: AtomicU32::new(0) },
        vec![
            (VerdictBatch::SUBJECT, vec![0xff, 0xfe, 0x00, 0x42]),
            ("memval.v9.verdicts", good.clone()),
            (VerdictBatch::SUBJECT, good),
        ],
    )
    .await;
    assert_eq!(outputs.len(), 1);
    assert_eq!(outputs[0].batch_id, "good");
    assert_eq!(dead.len(), 2, "{dead:?}");
    assert!(dead.iter().any(|d| d.reason.contains("undecodable")), "{dead:?}");
    assert!(dead.iter().any(|d| d.reason.contains("unknown wire version \"v9\"")), "{dead:?}");
    assert!(dead.iter().all(|d| !d.payload.is_empty()), "dead letters keep the original payload");
}

#[tokio::test]
async fn retryable_failures_are_retried_then_dead_lettered() {
    let payload = codec::encode(&batch("flaky")).unwrap();
    let (outputs, dead) =
        drive(Echo { fail_first: 2, calls: AtomicU32::new(0) }, vec![(VerdictBatch::SUBJECT, payload.clone())]).await;
    assert_eq!(outputs.len(), 1, "succeeds on the third delivery");
    assert!(dead.is_empty());
    let (outputs, dead) =
        drive(Echo { fail_first: 100, calls: AtomicU32::new(0) }, vec![(VerdictBatch::SUBJECT, payload)]).await;
    assert!(outputs.is_empty());
    assert_eq!(dead.len(), 1);
    assert!(dead[0].reason.contains("after 5 deliveries"), "{}", dead[0].reason);
}
