//! The one way stages are wired in a process: a stage on an inbox and an outbox, run by the
//! runtime loop until its inbox closes or its shutdown future resolves.
//!
//! [`spawn_stage`] puts a stage on an inbox and an outbox with a shutdown future;
//! [`run_batches`] runs a stage once over a list of batches in this process and hands back the
//! batches that failed for good, decoded from their dead letters' own payloads.

use std::future::Future;
use std::sync::Arc;

use memval_proto::{codec, Message};
use memval_runtime::{run_stage, Inbox, Outbox, Stage, StageConfig, StageError, StageStats};
use memval_transport::inproc::{channel, DeadLetters};
use memval_transport::DeadLetter;

use crate::Error;

/// Run `stage` on `inbox` → `outbox` in a task of its own, `concurrency` batches at once.
pub fn spawn_stage<S: Stage>(
    stage: S,
    inbox: Arc<dyn Inbox>,
    outbox: Arc<dyn Outbox>,
    config: StageConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> tokio::task::JoinHandle<Result<Arc<StageStats>, StageError>> {
    tokio::spawn(run_stage(Arc::new(stage), inbox, outbox, config, shutdown))
}

/// A shutdown that never comes: the stage stops when its inbox closes.
pub fn never() -> std::future::Pending<()> {
    std::future::pending()
}

/// What [`run_batches`] gives back: every output, and each input batch that failed for good
/// (decoded from the dead letter's own payload, beside the letter and its reason).
pub struct BatchesOutput<I, O> {
    pub outputs: Vec<O>,
    pub failed: Vec<(Option<I>, DeadLetter)>,
}

/// Run `stage` once over `batches` in this process, at most `parallel` at once, each batch
/// delivered once (the stage's client retries its own calls; a batch that still fails is
/// reported, not sent round again), and collect what comes out.
pub async fn run_batches<S: Stage>(
    stage: S,
    batches: Vec<S::In>,
    parallel: usize,
) -> Result<BatchesOutput<S::In, S::Out>, Error> {
    if batches.is_empty() {
        return Ok(BatchesOutput { outputs: Vec::new(), failed: Vec::new() });
    }
    let width = batches.len().min(parallel).max(1);
    let dead = DeadLetters::default();
    let (inputs_out, inputs_in) = channel(width, dead.clone());
    let (outputs_out, outputs_in) = channel(width, dead.clone());
    let config = StageConfig { concurrency: width, max_deliveries: 1, ..StageConfig::default() };
    let worker = spawn_stage(stage, Arc::new(inputs_in), Arc::new(outputs_out), config, never());
    let feeder = tokio::spawn(async move {
        for batch in batches {
            let payload = codec::encode(&batch).map_err(Error::codec("encoding a batch"))?;
            inputs_out
                .publish(S::In::SUBJECT, batch.batch_id().to_owned(), payload)
                .await
                .map_err(Error::transport("queueing a batch"))?;
        }
        Ok::<(), Error>(())
    });
    let mut outputs = Vec::new();
    while let Some(next) = outputs_in.next().await {
        let envelope = next.map_err(Error::transport("reading outputs"))?;
        let output: S::Out = codec::decode(&envelope.payload).map_err(Error::codec("decoding an output"))?;
        envelope.acker.ack().await.map_err(Error::transport("acknowledging an output"))?;
        outputs.push(output);
    }
    feeder.await??;
    worker.await??;
    let failed = dead.take().into_iter().map(|letter| (codec::decode::<S::In>(&letter.payload).ok(), letter)).collect();
    Ok(BatchesOutput { outputs, failed })
}
