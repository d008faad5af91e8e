//! The [`Stage`] trait and [`run_stage`], the loop every stage runs in.
//!
//! The loop decodes each delivery with the wire codec (so an in-process run exercises the bytes a
//! broker carries), checks its subject and wire version, calls the stage, publishes every output
//! under the id `{input batch id}:{output index}` on `output.subject()` (scores go to
//! `memval.v1.scores.<run id>`) with the input's propagated headers plus `Memval-Run`, and only
//! then acks. A [`StageError`] says what to do with a failure: `Retryable` is nak'd with
//! exponential backoff (`base_backoff · 2^(delivery-1)`) and dead-lettered after
//! `max_deliveries`; `Permanent` is dead-lettered with the reason; `Fatal` stops the stage with a
//! message. An undecodable message, or one whose subject names a wire version this build does
//! not speak, is dead-lettered, never a panic; a panic around a whole batch is caught and
//! dead-letters the batch by name.
//!
//! Around each batch the loop also sends progress every `progress_every` (a third of the
//! broker's ack wait) while the stage works and its outputs are published, so a long batch is
//! not redelivered elsewhere; keeps retrying a publish while the transport is unavailable
//! (capped backoff, up to `broker_retry`, then fatal) and dead-letters the input if the
//! transport rejects an output for good; treats an ack, nak or dead letter that could not reach
//! an unavailable broker as done (the broker redelivers and the outputs are de-duplicated by
//! id); and dead-letters a message delivered more than twice `max_deliveries` times, since only
//! crashing consumers get there. After shutdown it closes the inbox.
//!
//! Each batch is handled in a `tracing` span (`"<stage> batch"`, with run, batch id, delivery,
//! outputs, and an error status when it fails) whose parent is the trace context in the input's
//! headers (`trace::continue_from`); the outputs carry that span's context (`trace::inject`).
//!
//! Must never ack before every output is published, and never process more than `concurrency`
//! batches at once.

use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use memval_proto::{codec, Message};
use memval_transport::{header, Acker, Envelope, Inbox, Outbox, Outgoing, TransportError};
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
    fn process(&self, input: Self::In) -> impl Future<Output = Result<Vec<Self::Out>, StageError>> + Send;
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
    /// While a batch is processed and its outputs published, tell the transport it is still
    /// in progress this often, so a long batch is not redelivered to another replica. Keep
    /// it well below the broker's ack wait (a third of it).
    pub progress_every: Duration,
    /// How long publishing keeps retrying while the transport is unavailable (a broker
    /// restart) before the stage gives up with a fatal error.
    pub broker_retry: Duration,
}

impl Default for StageConfig {
    fn default() -> Self {
        StageConfig {
            concurrency: 1,
            max_deliveries: 5,
            base_backoff: Duration::from_millis(200),
            progress_every: Duration::from_secs(10),
            broker_retry: Duration::from_secs(120),
        }
    }
}

/// Longest pause between two attempts to reach an unavailable transport.
const MAX_BACKOFF: Duration = Duration::from_secs(5);

#[derive(Debug, Default)]
pub struct StageStats {
    pub processed: AtomicU64,
    pub published: AtomicU64,
    pub retried: AtomicU64,
    pub dead_lettered: AtomicU64,
}

/// Run `stage` until the inbox closes (or `shutdown` resolves), `config.concurrency`
/// batches at a time. Returns an error only for a fatal stage error or a closed outbox;
/// after shutdown, batches in hand are finished and acked, never dropped half-done, and
/// the inbox is closed (messages fetched but not started go back to the transport).
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
            let mut failures = 0u32;
            loop {
                let next = tokio::select! {
                    biased;
                    _ = stop.wait_for(|s| *s) => return Ok(()),
                    next = inbox.next() => next,
                };
                let envelope = match next {
                    None => return Ok(()),
                    Some(Ok(envelope)) => {
                        failures = 0;
                        envelope
                    }
                    Some(Err(e)) if e.is_retryable() => {
                        failures += 1;
                        tracing::warn!(stage = stage.name(), failures, error = %e, "inbox unavailable");
                        let delay = (config.base_backoff * 2u32.saturating_pow(failures.min(10))).min(MAX_BACKOFF);
                        tokio::select! {
                            _ = stop.wait_for(|s| *s) => return Ok(()),
                            _ = tokio::time::sleep(delay) => {}
                        }
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
    inbox.close().await;
    result.map(|()| stats)
}

async fn handle<S: Stage>(
    stage: &S,
    envelope: Envelope,
    outbox: &dyn Outbox,
    config: &StageConfig,
    stats: &StageStats,
) -> Result<(), StageError> {
    let Envelope { subject, payload, delivery, headers, acker, .. } = envelope;
    if subject != S::In::SUBJECT {
        let reason = unknown_subject_reason(&subject, S::In::SUBJECT);
        return dead_letter(acker, reason, payload, stats).await;
    }
    if delivery > config.max_deliveries.saturating_mul(2) {
        // Failures the stage reports are dead-lettered at `max_deliveries`; getting this far
        // means deliveries went unanswered, i.e. the instances holding them died.
        let reason = format!(
            "{} was delivered {delivery} times without an answer; an instance of {} probably crashes on it",
            subject,
            stage.name()
        );
        return dead_letter(acker, reason, payload, stats).await;
    }
    let input: S::In = match codec::decode(&payload) {
        Ok(input) => input,
        Err(e) => return dead_letter(acker, format!("undecodable {subject} message: {e}"), payload, stats).await,
    };
    let batch_id = input.batch_id().to_owned();
    // One span per batch, under the span that published it (from the headers' trace
    // context), so a run is one trace across every process it goes through.
    let span = tracing::info_span!(
        "batch",
        otel.name = %format_args!("{} batch", stage.name()),
        otel.kind = "consumer",
        otel.status_code = tracing::field::Empty,
        otel.status_description = tracing::field::Empty,
        stage = stage.name(),
        run = %input.run().run_id,
        batch_id = %batch_id,
        delivery,
        outputs = tracing::field::Empty,
    );
    crate::trace::continue_from(&span, &headers);
    // Outputs carry the trace context (this batch's span when tracing, else the input's
    // headers as they came) and name their run, whatever the transport.
    let mut out_headers = headers.propagated();
    out_headers.insert(header::RUN, &input.run().run_id);
    crate::trace::inject(&span, &mut out_headers);
    let work_span = span.clone();
    let work = async {
        // A panic in the stage is this batch's failure, named, not the worker's death
        // (which would surface as a cancellation somewhere downstream).
        let outputs = futures::FutureExt::catch_unwind(std::panic::AssertUnwindSafe(stage.process(input)))
            .await
            .map_err(|p| {
                StageError::Permanent(format!(
                    "{} panicked on batch {batch_id}: {}",
                    stage.name(),
                    crate::panics::message(&*p)
                ))
            })??;
        tracing::Span::current().record("outputs", outputs.len());
        for (index, output) in outputs.iter().enumerate() {
            let bytes = codec::encode(output).map_err(|e| StageError::Fatal(e.to_string()))?;
            let message = Outgoing {
                subject: output.subject(),
                // Deterministic id: a redelivered batch republishes under the same ids.
                msg_id: format!("{batch_id}:{index}"),
                headers: out_headers.clone(),
                payload: bytes,
            };
            publish_confirmed(outbox, message, config).await?;
            stats.published.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    }
    .instrument(work_span);
    let outcome = with_progress(&*acker, config.progress_every, work).await;
    if let Err(e) = &outcome {
        span.record("otel.status_code", "ERROR");
        span.record("otel.status_description", tracing::field::display(e));
    }
    match outcome {
        Ok(()) => {
            answered(acker.ack().await)?;
            stats.processed.fetch_add(1, Ordering::Relaxed);
            Ok(())
        }
        Err(StageError::Retryable(reason)) if delivery < config.max_deliveries => {
            let delay = config.base_backoff * 2u32.saturating_pow(delivery.saturating_sub(1).min(10));
            tracing::warn!(stage = stage.name(), batch_id = %batch_id, delivery, reason = %reason, "batch failed, will retry");
            answered(acker.nak(delay).await)?;
            stats.retried.fetch_add(1, Ordering::Relaxed);
            Ok(())
        }
        Err(StageError::Retryable(reason)) | Err(StageError::Permanent(reason)) => {
            let reason = format!("{} failed batch {batch_id} after {delivery} deliveries: {reason}", stage.name());
            dead_letter(acker, reason, payload, stats).await
        }
        Err(fatal @ StageError::Fatal(_)) => {
            // Leave the batch for another instance (or a restart with fixed config).
            let _ = acker.nak(config.base_backoff).await;
            Err(fatal)
        }
    }
}

async fn dead_letter(
    acker: Box<dyn Acker>,
    reason: String,
    payload: Vec<u8>,
    stats: &StageStats,
) -> Result<(), StageError> {
    answered(acker.dead_letter(reason, payload).await)?;
    stats.dead_lettered.fetch_add(1, Ordering::Relaxed);
    Ok(())
}

/// Drive `work`, telling the transport every `every` that the delivery is still in progress.
async fn with_progress<T>(acker: &dyn Acker, every: Duration, work: impl Future<Output = T>) -> T {
    tokio::pin!(work);
    let mut ticker = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            out = &mut work => return out,
            _ = ticker.tick() => {
                if let Err(e) = acker.progress().await {
                    tracing::warn!(error = %e, "cannot report progress; the batch may be redelivered");
                }
            }
        }
    }
}

/// An answer (ack, nak, dead letter) that did not reach an unavailable broker is not an
/// error: the broker redelivers the message, and its outputs are de-duplicated by id.
fn answered(result: Result<(), TransportError>) -> Result<(), StageError> {
    match result {
        Ok(()) => Ok(()),
        Err(e) if e.is_retryable() => {
            tracing::warn!(error = %e, "answer lost; the message will be redelivered");
            Ok(())
        }
        Err(e) => Err(transport_fatal(e)),
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

/// Publish `message`, retrying while the transport is unavailable (up to
/// `config.broker_retry`). A message the transport rejects is a permanent error; a closed
/// transport or a broker gone for too long is fatal.
pub async fn publish_confirmed(outbox: &dyn Outbox, message: Outgoing, config: &StageConfig) -> Result<(), StageError> {
    publish_stored(outbox, message, config).await.map(|_| ())
}

/// [`publish_confirmed`], returning where the transport stored the message, when it says
/// ([`Outbox::send_stored`]).
pub async fn publish_stored(
    outbox: &dyn Outbox,
    message: Outgoing,
    config: &StageConfig,
) -> Result<Option<u64>, StageError> {
    let started = tokio::time::Instant::now();
    let mut attempt = 0u32;
    loop {
        match outbox.send_stored(message.clone()).await {
            Ok(stored) => return Ok(stored),
            Err(TransportError::Rejected(reason)) => {
                return Err(StageError::Permanent(format!("output {} was rejected: {reason}", message.msg_id)))
            }
            Err(e) if e.is_retryable() && started.elapsed() < config.broker_retry => {
                attempt += 1;
                let delay = (config.base_backoff * 2u32.saturating_pow(attempt.min(10))).min(MAX_BACKOFF);
                tracing::warn!(attempt, error = %e, "publish failed, retrying");
                tokio::time::sleep(delay).await;
            }
            Err(e) => return Err(transport_fatal(e)),
        }
    }
}

fn transport_fatal(e: TransportError) -> StageError {
    StageError::Fatal(format!("transport: {e}"))
}
