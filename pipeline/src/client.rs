//! A run on a cluster (`memval validate --nats`): submit it to a cluster of `memval serve` services and wait
//! for its scores.
//!
//! Completion is bookkeeping, not a timeout: the run header says how many memories to
//! expect, and the client is done when it holds a score for each (deduplicated by memory
//! id, since a redelivered batch may be scored twice). A dead letter of this run ends the
//! wait with its reason, because that memory can never be scored.
//!
//! The client creates its two per-run consumers (scores, dead letters) before it publishes, and
//! deletes them afterwards (they also expire after an hour idle). A dead letter is matched to the
//! run by `Memval-Run`, by its message id, or by the decoded batch; its reason is printed before
//! the command exits 2.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use memval_proto::{codec, Memory, MemoryScore, RunHeader, ScoreBatch};
use memval_runtime::{Inbox, StageConfig};
use memval_transport::jetstream::{JetStream, JetStreamInbox};
use memval_transport::{header, Headers};
use tracing::Instrument;

use crate::local::RunOutput;
use crate::submit::{belongs_to, submit_batches};
use crate::topology::{self as cluster, NatsOptions};
use crate::Error;

/// Batches a client pulls from its score consumer at once.
const SCORE_FETCH: usize = 32;
/// With no score after this long, say what might be missing (the wait goes on).
const HINT_AFTER: Duration = Duration::from_secs(15);

pub async fn run(
    url: &str,
    nats: &NatsOptions,
    header: RunHeader,
    memories: Vec<Memory>,
    batch_size: usize,
    progress: bool,
) -> Result<RunOutput, Error> {
    let js = cluster::connect(url, "memval-validate", nats).await?;
    // Both consumers exist before the first batch is out, so nothing of this run is missed.
    let scores = js.inbox(&cluster::run_scores_consumer(&header.run_id), SCORE_FETCH).await?;
    let dead = js.inbox(&cluster::run_dlq_consumer(&header.run_id), 1).await?;
    // The run's root span: its trace context goes out with every memory batch.
    let span = tracing::info_span!(
        "validate",
        otel.name = "memval validate",
        otel.kind = "producer",
        run = %header.run_id,
        repo = %header.repo,
        memories = header.expected_memories,
    );
    let result = wait_for_scores(&js, &scores, &dead, &header, &memories, batch_size, progress).instrument(span).await;
    drop((scores, dead));
    // The consumers are only this run's, so whatever they still had out does not matter:
    // delete them rather than drain them (they would also expire when idle).
    for spec in [cluster::run_scores_consumer(&header.run_id), cluster::run_dlq_consumer(&header.run_id)] {
        if let Err(e) = js.delete_consumer(&spec.stream, &spec.durable).await {
            tracing::warn!(consumer = %spec.durable, error = %e, "cannot delete the run's consumer; it expires when idle");
        }
    }
    let _ = js.flush().await;
    result
}

async fn wait_for_scores(
    js: &JetStream,
    scores_in: &JetStreamInbox,
    dead_in: &JetStreamInbox,
    header: &RunHeader,
    memories: &[Memory],
    batch_size: usize,
    progress: bool,
) -> Result<RunOutput, Error> {
    let expected = header.expected_memories as usize;
    let outbox = js.outbox();
    let config = StageConfig::default();
    let no_parent = Headers::new();
    let submit = submit_batches(&outbox, header, memories, batch_size, &config, &no_parent);
    tokio::pin!(submit);
    let mut submitted = false;
    let started = Instant::now();
    let mut last_report = Instant::now();
    let mut hinted = false;
    let mut scored: BTreeMap<String, MemoryScore> = BTreeMap::new();
    let mut failures = 0u32;
    while scored.len() < expected {
        let hint = tokio::time::sleep_until((started + HINT_AFTER).into());
        tokio::select! {
            done = &mut submit, if !submitted => {
                done?;
                submitted = true;
                tracing::info!(run = %header.run_id, "all memory batches submitted");
            }
            next = scores_in.next() => match next {
                Some(Ok(envelope)) => {
                    failures = 0;
                    let batch: ScoreBatch = codec::decode(&envelope.payload).map_err(Error::codec("decoding a score batch"))?;
                    for item in batch.items {
                        scored.insert(item.memory.id.clone(), item);
                    }
                    let _ = envelope.acker.ack().await;
                    if progress && started.elapsed() > Duration::from_secs(1) && last_report.elapsed() > Duration::from_millis(500) {
                        eprintln!("memval: {}/{} memories checked", scored.len(), expected);
                        last_report = Instant::now();
                    }
                }
                Some(Err(e)) => backoff(&mut failures, &e.to_string()).await,
                None => return Err(Error::Incomplete(format!("the score consumer of run {} closed", header.run_id))),
            },
            next = dead_in.next() => match next {
                Some(Ok(envelope)) => {
                    failures = 0;
                    let ours = belongs_to(&envelope, &header.run_id);
                    let reason = envelope.headers.get(header::DLQ_REASON).unwrap_or("no reason given").to_owned();
                    let msg_id = envelope.headers.get(header::DLQ_MSG_ID).unwrap_or("?").to_owned();
                    let _ = envelope.acker.ack().await;
                    if ours {
                        eprintln!("memval: batch {msg_id} failed: {reason}");
                        return Err(Error::Incomplete(format!(
                            "run incomplete: {} of {} memories were scored; a batch was dead-lettered (see `memval dlq list --run {}`); nothing was reported",
                            scored.len(),
                            expected,
                            header.run_id
                        )));
                    }
                }
                Some(Err(e)) => backoff(&mut failures, &e.to_string()).await,
                None => return Err(Error::Incomplete(format!("the dead-letter consumer of run {} closed", header.run_id))),
            },
            _ = hint, if !hinted && scored.is_empty() => {
                hinted = true;
                if progress {
                    eprintln!("memval: no scores yet after {}s; are `memval serve extractor`, `investigator` and `scorer` running on this NATS?", HINT_AFTER.as_secs());
                }
            }
        }
    }
    if progress && started.elapsed() > Duration::from_secs(1) {
        eprintln!("memval: {}/{} memories checked in {:.2}s", scored.len(), expected, started.elapsed().as_secs_f64());
    }
    Ok(RunOutput { scores: scored.into_values().collect(), dead_letters: Vec::new() })
}

async fn backoff(failures: &mut u32, error: &str) {
    *failures += 1;
    tracing::warn!(failures = *failures, error, "nats unavailable, retrying");
    let delay = (Duration::from_millis(100) * 2u32.saturating_pow((*failures).min(6))).min(Duration::from_secs(5));
    tokio::time::sleep(delay).await;
}
