//! The cluster's topology in one place: which JetStream streams hold which subjects, which
//! durable consumer each stage pulls from, where dead letters go. `serve`, `validate --nats`
//! and `dlq` all go through here, so they cannot disagree.
//!
//! | stream           | subjects                  | retention  | consumers                         |
//! |------------------|---------------------------|------------|-----------------------------------|
//! | MEMVAL_MEMORIES  | `memval.*.memories`       | work queue | `extractor`                       |
//! | MEMVAL_CLAIMS    | `memval.*.claims`         | work queue | `investigator`                    |
//! | MEMVAL_VERDICTS  | `memval.*.verdicts`       | work queue | `scorer`                          |
//! | MEMVAL_SCORES    | `memval.*.scores.>`       | limits 24h | `run-<run id>` (one per client)   |
//! | MEMVAL_EVENTS    | `memval.*.events.>`       | work queue | `ingest`                          |
//! | MEMVAL_DLQ       | `memval.*.dlq.>`          | limits 30d | `run-<run id>-dlq` (new only)     |
//! | MEMVAL_PAIRS     | `memval.*.pairs`          | work queue, 1h | `judge`                       |
//! | MEMVAL_JUDGEMENTS| `memval.*.judgements.>`   | limits 24h | `run-<run id>-judgements`         |
//! | MEMVAL_LEASES    | `memval.*.leases.>`       | limits 7d  | none (read back by subject)       |
//!
//! Stage streams match every wire version (`*`), so a message of a version this build does
//! not speak still reaches its stage, which dead-letters it with a reason.
//!
//! It is also the one place that connects to NATS ([`NatsOptions`]). The full table, with limits,
//! dead-letter subjects and what each consumer is for, is in `docs/cluster.md`.

use std::time::Duration;

use memval_proto::subjects;
use memval_transport::jetstream::{
    Auth, ConnectOptions, ConsumerSpec, Deliver, JetStream, Retention, Settings, StreamSpec, Tls,
};

use crate::Error;

/// How to reach the cluster's NATS server and what every consumer of this process asks for.
#[derive(Debug, Clone)]
pub struct NatsOptions {
    pub auth: Auth,
    pub tls: Tls,
    /// How long a delivery may go unanswered before the broker redelivers it.
    pub ack_wait: Duration,
    /// Deliveries all replicas of a stage may hold unanswered at once.
    pub max_ack_pending: i64,
}

pub const MEMORIES: &str = "MEMVAL_MEMORIES";
pub const CLAIMS: &str = "MEMVAL_CLAIMS";
pub const VERDICTS: &str = "MEMVAL_VERDICTS";
pub const SCORES: &str = "MEMVAL_SCORES";
pub const EVENTS: &str = "MEMVAL_EVENTS";
pub const DLQ: &str = "MEMVAL_DLQ";
pub const PAIRS: &str = "MEMVAL_PAIRS";
pub const JUDGEMENTS: &str = "MEMVAL_JUDGEMENTS";
pub const LEASES: &str = "MEMVAL_LEASES";

/// Work waiting in one stage's stream at most; a full stream makes publishers back off.
const MAX_QUEUED: i64 = 1_000_000;
/// How long scores wait for the client of their run.
const SCORES_MAX_AGE: Duration = Duration::from_secs(24 * 3600);
const SCORES_MAX: i64 = 1_000_000;
const DLQ_MAX_AGE: Duration = Duration::from_secs(30 * 24 * 3600);
const DLQ_MAX: i64 = 100_000;
/// A pair batch nobody judged within this long has been given up on by the reconciler that
/// asked (its `--judge-timeout` is at most this), so judging it would only spend model calls.
/// Sooner than that, the reconciler deletes the batches it gave up on, and a judge acks a
/// batch past its own deadline (`PairBatch::expires_at`) without judging it.
pub const PAIRS_MAX_AGE: Duration = Duration::from_secs(3600);
/// How long a reconciler's claim of a repo and period is kept: longer than any period two
/// replicas could both be due for (a schedule firing, an event's retries).
const LEASES_MAX_AGE: Duration = Duration::from_secs(7 * 24 * 3600);
const LEASES_MAX: i64 = 100_000;
/// A client's per-run consumers outlive a crashed client by this much, then go away.
const RUN_CONSUMER_IDLE: Duration = Duration::from_secs(3600);

fn stream(
    name: &str,
    subject: String,
    retention: Retention,
    max_age: Duration,
    max_messages: i64,
    what: &str,
) -> StreamSpec {
    StreamSpec {
        name: name.to_owned(),
        subjects: vec![subject],
        retention,
        max_age,
        max_messages,
        description: format!("memval: {what}"),
    }
}

pub fn streams() -> Vec<StreamSpec> {
    use subjects::any_version;
    vec![
        stream(
            MEMORIES,
            any_version(subjects::MEMORIES),
            Retention::WorkQueue,
            Duration::ZERO,
            MAX_QUEUED,
            "memories to extract claims from",
        ),
        stream(
            CLAIMS,
            any_version(subjects::CLAIMS),
            Retention::WorkQueue,
            Duration::ZERO,
            MAX_QUEUED,
            "claims to investigate",
        ),
        stream(
            VERDICTS,
            any_version(subjects::VERDICTS),
            Retention::WorkQueue,
            Duration::ZERO,
            MAX_QUEUED,
            "verdicts to score",
        ),
        stream(
            SCORES,
            format!("{}.>", any_version(subjects::SCORES)),
            Retention::Limits,
            SCORES_MAX_AGE,
            SCORES_MAX,
            "scores, per run",
        ),
        stream(
            EVENTS,
            any_version("memval.v1.events.>"),
            Retention::WorkQueue,
            Duration::ZERO,
            MAX_QUEUED,
            "memory-ingest events",
        ),
        stream(
            DLQ,
            format!("{}.>", any_version(subjects::DLQ)),
            Retention::Limits,
            DLQ_MAX_AGE,
            DLQ_MAX,
            "dead letters, per stage",
        ),
        stream(
            PAIRS,
            any_version(subjects::PAIRS),
            Retention::WorkQueue,
            PAIRS_MAX_AGE,
            MAX_QUEUED,
            "candidate pairs to judge",
        ),
        stream(
            JUDGEMENTS,
            format!("{}.>", any_version(subjects::JUDGEMENTS)),
            Retention::Limits,
            SCORES_MAX_AGE,
            SCORES_MAX,
            "pair judgements, per run",
        ),
        stream(
            LEASES,
            any_version("memval.v1.leases.>"),
            Retention::Limits,
            LEASES_MAX_AGE,
            LEASES_MAX,
            "one reconciler's claim per repo and period",
        ),
    ]
}

pub fn dlq_subject(stage: &str) -> String {
    subjects::for_run(subjects::DLQ, stage)
}

/// The durable consumer a stage's replicas share.
pub fn stage_consumer(stage: &str, stream: &str) -> ConsumerSpec {
    ConsumerSpec {
        stream: stream.to_owned(),
        durable: stage.to_owned(),
        filter: None,
        deliver: Deliver::All,
        dead_letter_subject: dlq_subject(stage),
        stage: stage.to_owned(),
        inactive_threshold: None,
    }
}

/// The consumer a client reads its run's scores from.
pub fn run_scores_consumer(run_id: &str) -> ConsumerSpec {
    ConsumerSpec {
        stream: SCORES.to_owned(),
        durable: format!("run-{}", subjects::subject_token(run_id)),
        filter: Some(subjects::for_run(subjects::SCORES, run_id)),
        deliver: Deliver::All,
        dead_letter_subject: dlq_subject("client"),
        stage: "client".to_owned(),
        inactive_threshold: Some(RUN_CONSUMER_IDLE),
    }
}

/// The consumer a client watches for dead letters of its run (only those after it starts).
pub fn run_dlq_consumer(run_id: &str) -> ConsumerSpec {
    ConsumerSpec {
        stream: DLQ.to_owned(),
        durable: format!("run-{}-dlq", subjects::subject_token(run_id)),
        filter: None,
        deliver: Deliver::New,
        dead_letter_subject: dlq_subject("client"),
        stage: "client".to_owned(),
        inactive_threshold: Some(RUN_CONSUMER_IDLE),
    }
}

/// The consumer a reconciliation reads its run's judgements from.
pub fn run_judgements_consumer(run_id: &str) -> ConsumerSpec {
    ConsumerSpec {
        stream: JUDGEMENTS.to_owned(),
        durable: format!("run-{}-judgements", subjects::subject_token(run_id)),
        filter: Some(subjects::for_run(subjects::JUDGEMENTS, run_id)),
        deliver: Deliver::All,
        dead_letter_subject: dlq_subject("reconciler"),
        stage: "reconciler".to_owned(),
        inactive_threshold: Some(RUN_CONSUMER_IDLE),
    }
}

/// Connect as `name` and create or verify every stream of the topology.
pub async fn connect(url: &str, name: &str, nats: &NatsOptions) -> Result<JetStream, Error> {
    let mut options = ConnectOptions::new(url, name);
    options.auth = nats.auth.clone();
    options.tls = nats.tls.clone();
    let settings = Settings { ack_wait: nats.ack_wait, max_ack_pending: nats.max_ack_pending, ..Settings::default() };
    let js = JetStream::connect(&options, settings).await?;
    for spec in streams() {
        js.ensure_stream(&spec).await.map_err(Error::nats(format!("setting up stream {}", spec.name)))?;
    }
    Ok(js)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stage_streams_span_versions_and_never_overlap() {
        let all = streams();
        let subjects: Vec<&str> = all.iter().map(|s| s.subjects[0].as_str()).collect();
        assert_eq!(
            subjects,
            [
                "memval.*.memories",
                "memval.*.claims",
                "memval.*.verdicts",
                "memval.*.scores.>",
                "memval.*.events.>",
                "memval.*.dlq.>",
                "memval.*.pairs",
                "memval.*.judgements.>",
                "memval.*.leases.>"
            ]
        );
        let judged = run_judgements_consumer("rec-1.x");
        assert_eq!(judged.filter.as_deref(), Some("memval.v1.judgements.rec-1_x"));
        assert_eq!(judged.durable, "run-rec-1_x-judgements");
        assert_eq!(dlq_subject("investigator"), "memval.v1.dlq.investigator");
        let run = run_scores_consumer("20260101T000000Z-00ff00");
        assert_eq!(run.filter.as_deref(), Some("memval.v1.scores.20260101T000000Z-00ff00"));
        assert_eq!(run.durable, "run-20260101T000000Z-00ff00");
    }
}
