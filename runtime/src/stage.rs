use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use memval_proto::{codec, Message};
use memval_transport::{Envelope, Inbox, Outbox, TransportError};
use tracing::Instrument;

/// A unit of the pipeline: turns one input batch into zero or more output batches.
///
/// Implementations are pure with respect to transport: they see decoded messages only, so
/// the same stage runs in one process or as a service on a broker.
pub trait Stage: Send + Sync + 'static {
    type In: Message;
    type Out: Message;

    fn name(&self) -> &'static str;

    /// Process one batch. Outputs must be a deterministic function of the input (and the
    /// stage's view of the repo), so a redelivered batch republishes identical messages.
    fn process(
        &self,
        input: Self::In,
    ) -> impl Future<Output = Result<Vec<Self::Out>, StageError>> + Send;
}

/// How a failed batch is handled.
#[derive(Debug, thiserror::Error)]
pub enum StageError {
    /// A passing failure (timeout, rate limit, broker down): nak and retry with backoff.
    #[error("retryable: {0}")]
    Retryable(String),
    /// The batch can never succeed (bad input, malformed model output): dead-letter it.
    #[error("permanent: {0}")]
    Permanent(String),
    /// The stage cannot work at all (bad config, repo missing): stop the stage.
    #[error("fatal: {0}")]
    Fatal(String),
}

#[derive(Debug, Clone)]
pub struct StageConfig {
    /// Batches processed at once by this stage instance.
    pub concurrency: usize,
    /// Deliveries after which a retryable failure is dead-lettered instead.
    pub max_deliveries: u32,
    /// First retry delay; doubles per delivery.
    pub base_backoff: Duration,
}

impl Default for StageConfig {
    fn default() -> Self {
        StageConfig { concurrency: 1, max_deliveries: 5, base_backoff: Duration::from_millis(200) }
    }
}

#[derive(Debug, Default)]
pub struct StageStats {
    pub processed: AtomicU64,
    pub published: AtomicU64,
    pub retried: AtomicU64,
    pub dead_lettered: AtomicU64,
}

/// Run `stage` until the inbox closes (or `shutdown` resolves), `config.concurrency`
/// batches at a time. Returns an error only for a fatal stage error or a closed outbox;
/// after shutdown, batches in hand are finished and acked, never dropped half-done.
pub async fn run_stage<S: Stage>(
    stage: Arc<S>,
    inbox: Arc<dyn Inbox>,
    outbox: Arc<dyn Outbox>,
    config: StageConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<Arc<StageStats>, StageError> {
    let stats = Arc::new(StageStats::default());
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        shutdown.await;
        let _ = stop_tx.send(true);
    });
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..config.concurrency.max(1) {
        let (stage, inbox, outbox, stats, config) =
            (stage.clone(), inbox.clone(), outbox.clone(), stats.clone(), config.clone());
        let mut stop = stop_rx.clone();
        workers.spawn(async move {
            loop {
                let next = tokio::select! {
                    biased;
                    _ = stop.wait_for(|s| *s) => return Ok(()),
                    next = inbox.next() => next,
                };
                let envelope = match next {
                    None => return Ok(()),
                    Some(Ok(envelope)) => envelope,
                    Some(Err(e)) if e.is_retryable() => {
                        tracing::warn!(stage = stage.name(), error = %e, "inbox unavailable");
                        tokio::time::sleep(config.base_backoff).await;
                        continue;
                    }
                    Some(Err(e)) => return Err(StageError::Fatal(e.to_string())),
                };
                handle(&*stage, envelope, &*outbox, &config, &stats).await?;
            }
        });
    }
    let mut result = Ok(());
    while let Some(joined) = workers.join_next().await {
        let outcome = joined.unwrap_or_else(|e| Err(StageError::Fatal(format!("worker panicked: {e}"))));
        if let Err(e) = outcome {
            result = Err(e);
            workers.abort_all();
        }
    }
    result.map(|()| stats)
}

async fn handle<S: Stage>(
    stage: &S,
    envelope: Envelope,
    outbox: &dyn Outbox,
    config: &StageConfig,
    stats: &StageStats,
) -> Result<(), StageError> {
    let Envelope { subject, payload, delivery, acker, .. } = envelope;
    if subject != S::In::SUBJECT {
        let reason = unknown_subject_reason(&subject, S::In::SUBJECT);
        acker.dead_letter(reason, payload).await.map_err(transport_fatal)?;
        stats.dead_lettered.fetch_add(1, Ordering::Relaxed);
        return Ok(());
    }
    let input: S::In = match codec::decode(&payload) {
        Ok(input) => input,
        Err(e) => {
            acker.dead_letter(format!("undecodable {subject} message: {e}"), payload).await.map_err(transport_fatal)?;
            stats.dead_lettered.fetch_add(1, Ordering::Relaxed);
            return Ok(());
        }
    };
    let batch_id = input.batch_id().to_owned();
    let span = tracing::info_span!("batch", stage = stage.name(), batch_id = %batch_id, delivery);
    match stage.process(input).instrument(span).await {
        Ok(outputs) => {
            for (index, output) in outputs.iter().enumerate() {
                let bytes = codec::encode(output).map_err(|e| StageError::Fatal(e.to_string()))?;
                // Deterministic id: a redelivered batch republishes under the same ids.
                let msg_id = format!("{batch_id}:{index}");
                publish_with_retry(outbox, S::Out::SUBJECT, msg_id, bytes, config).await?;
                stats.published.fetch_add(1, Ordering::Relaxed);
            }
            acker.ack().await.map_err(transport_fatal)?;
            stats.processed.fetch_add(1, Ordering::Relaxed);
            Ok(())
        }
        Err(StageError::Retryable(reason)) if delivery < config.max_deliveries => {
            let delay = config.base_backoff * 2u32.saturating_pow(delivery.saturating_sub(1).min(10));
            tracing::warn!(stage = stage.name(), batch_id = %batch_id, delivery, reason = %reason, "batch failed, will retry");
            acker.nak(delay).await.map_err(transport_fatal)?;
            stats.retried.fetch_add(1, Ordering::Relaxed);
            Ok(())
        }
        Err(StageError::Retryable(reason)) | Err(StageError::Permanent(reason)) => {
            let reason = format!("{} failed batch {batch_id} after {delivery} deliveries: {reason}", stage.name());
            acker.dead_letter(reason, payload).await.map_err(transport_fatal)?;
            stats.dead_lettered.fetch_add(1, Ordering::Relaxed);
            Ok(())
        }
        Err(fatal @ StageError::Fatal(_)) => {
            // Leave the batch for another instance (or a restart with fixed config).
            let _ = acker.nak(config.base_backoff).await;
            Err(fatal)
        }
    }
}

fn unknown_subject_reason(subject: &str, expected: &str) -> String {
    let version = subject.split('.').nth(1).unwrap_or("");
    let expected_version = expected.split('.').nth(1).unwrap_or("");
    if version != expected_version {
        format!("unknown wire version {version:?} on {subject}; this build speaks {expected_version}")
    } else {
        format!("unexpected subject {subject}; this stage consumes {expected}")
    }
}

async fn publish_with_retry(
    outbox: &dyn Outbox,
    subject: &str,
    msg_id: String,
    bytes: Vec<u8>,
    config: &StageConfig,
) -> Result<(), StageError> {
    let mut attempt = 0u32;
    loop {
        match outbox.publish(subject, msg_id.clone(), bytes.clone()).await {
            Ok(()) => return Ok(()),
            Err(e) if e.is_retryable() && attempt + 1 < config.max_deliveries => {
                attempt += 1;
                tracing::warn!(attempt, error = %e, "publish failed, retrying");
                tokio::time::sleep(config.base_backoff * attempt).await;
            }
            Err(e) => return Err(transport_fatal(e)),
        }
    }
}

fn transport_fatal(e: TransportError) -> StageError {
    StageError::Fatal(format!("transport: {e}"))
}
