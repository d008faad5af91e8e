//! The long-running roles of a cluster (`memval serve ROLE`): each stage on its durable
//! JetStream consumer, the ingest source that turns memory-ingest events into runs, the pair
//! judge (pair batches on its consumer, draft judgements by request/reply) and the
//! reconciler ([`crate::reconciling`]). The stage code is the code a run in one process uses;
//! only the inbox and outbox differ.
//!
//! Every role takes its shutdown as a future, so a test drives a role in-process and stops it
//! as a signal would.

use std::future::Future;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use futures::FutureExt;
use memval_extractor::ExtractorStage;
use memval_investigator::RepoRouter;
use memval_judge::draft::service::DraftService;
use memval_judge::JudgeStage;
use memval_proto::ingest::event_run;
use memval_proto::subjects;
use memval_reconciler::Reconciler;
use memval_runtime::{run_stage, Inbox, Stage, StageConfig, StageStats};
use memval_scorer::{ScoreStore, ScorerStage};
use memval_store::SledStore;
use memval_transport::jetstream::{JetStream, JetStreamInbox};
use tracing::Instrument;

use crate::models::ModelStages;
use crate::reconciling::{self, Triggers};
use crate::submit::submit_batches;
use crate::topology;
use crate::Error;

/// A role and what it needs to run. One is built per process and moved into its task, so the
/// size of its largest variant costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
pub enum Role {
    /// Claims from memories, with model extraction when `models` has it.
    Extractor { models: Option<ModelStages> },
    /// Verdicts for claims, on the checkouts the router knows (Tier B set on it already).
    Investigator { router: RepoRouter },
    /// Scores into the store, flushed before each batch is acked.
    Scorer { store: Arc<SledStore> },
    /// Runs from memory-ingest events, cut into batches of `batch_size` memories.
    Ingest { batch_size: usize },
    /// The pair judge on the `judge` consumer of `MEMVAL_PAIRS` (when a model is configured),
    /// and draft judgements by request/reply (when a memory folder is served); at least one.
    Judge { pairs: Option<JudgeStage>, drafts: Option<DraftService> },
    /// Reconciliations on a schedule, on request and after ingest events.
    Reconciler { reconciler: Arc<Reconciler>, triggers: Triggers },
}

impl Role {
    pub fn name(&self) -> &'static str {
        match self {
            Role::Extractor { .. } => "extractor",
            Role::Investigator { .. } => "investigator",
            Role::Scorer { .. } => "scorer",
            Role::Ingest { .. } => "ingest",
            Role::Judge { .. } => "judge",
            Role::Reconciler { .. } => "reconciler",
        }
    }
}

/// Serve `role` on `js` until `shutdown` resolves, `concurrency` batches at once; what it did
/// comes back as the stage's counters (for the reconciler: `processed` reports written,
/// `dead_lettered` reconciliations that failed; the judge's draft answers are reported on
/// stderr when it stops). `url` is only for the start-up line.
pub async fn serve(
    role: Role,
    js: &JetStream,
    url: &str,
    concurrency: usize,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<Arc<StageStats>, Error> {
    match role {
        Role::Extractor { models } => match models.and_then(|m| m.extractor) {
            Some(with_model) => serve_stage(with_model, js, topology::MEMORIES, concurrency, url, shutdown).await,
            None => serve_stage(ExtractorStage, js, topology::MEMORIES, concurrency, url, shutdown).await,
        },
        Role::Investigator { router } => {
            // Index every checkout before taking work, so a bad path fails now, clearly.
            router.prepare().await.map_err(|e| Error::Usage(e.to_string()))?;
            serve_stage(router, js, topology::CLAIMS, concurrency, url, shutdown).await
        }
        Role::Scorer { store } => {
            let stats = serve_stage(
                ScorerStage::new(store.clone() as Arc<dyn ScoreStore>),
                js,
                topology::VERDICTS,
                concurrency,
                url,
                shutdown,
            )
            .await?;
            tokio::task::spawn_blocking(move || store.flush()).await??;
            Ok(stats)
        }
        Role::Ingest { batch_size } => serve_ingest(js, batch_size, url, shutdown).await,
        Role::Judge { pairs, drafts } => serve_judge(pairs, drafts, js, url, concurrency, shutdown).await,
        Role::Reconciler { reconciler, triggers } => {
            let done = reconciling::serve_reconciler(js, reconciler, triggers, url, shutdown).await?;
            eprintln!(
                "memval: reconciler stopped: {} reports, {} failed, {} requests, {} ingest events ({} repeated), {} ignored, {} left to another reconciler, {} taken over from a silent one",
                done.reports, done.failed, done.requests, done.ingest_events, done.repeated_events, done.ignored, done.left_to_others, done.taken_over
            );
            let stats = StageStats::default();
            stats.processed.store(done.reports, Ordering::Relaxed);
            stats.published.store(done.reports, Ordering::Relaxed);
            stats.dead_lettered.store(done.failed, Ordering::Relaxed);
            Ok(Arc::new(stats))
        }
    }
}

/// The judge: pair batches through the runtime (same ack, de-duplication and dead-letter
/// rules as every stage) and draft requests through a responder, side by side until
/// `shutdown`.
async fn serve_judge(
    pairs: Option<JudgeStage>,
    drafts: Option<DraftService>,
    js: &JetStream,
    url: &str,
    concurrency: usize,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<Arc<StageStats>, Error> {
    if pairs.is_none() && drafts.is_none() {
        return Err(Error::Usage(
            "the judge has nothing to serve: configure a model (--llm-*) to judge pair batches and/or --memory DIR to answer draft judgements".into(),
        ));
    }
    let shutdown = shutdown.boxed().shared();
    let drafts = async {
        let Some(service) = drafts else { return Ok(()) };
        use memval_judge::draft::service as draft;
        let responder = draft::listen(&js.requester(), concurrency).await.map_err(|e| Error::Usage(e.to_string()))?;
        eprintln!(
            "memval: judge serving on {url} (draft judgements, subject {}, {concurrency} at once)",
            subjects::JUDGE_DRAFT
        );
        let stats = draft::serve(responder, Arc::new(service), shutdown.clone())
            .await
            .map_err(|e| Error::Incomplete(format!("the draft judge stopped: {e}")))?;
        eprintln!(
            "memval: judge stopped: {} answered, {} failed, {} without reply subject (draft judgements)",
            stats.answered.load(Ordering::Relaxed),
            stats.failed.load(Ordering::Relaxed),
            stats.no_reply_subject.load(Ordering::Relaxed)
        );
        Ok::<(), Error>(())
    };
    let pairs = async {
        match pairs {
            Some(stage) => serve_stage(stage, js, topology::PAIRS, concurrency, url, shutdown.clone()).await,
            None => Ok(Arc::new(StageStats::default())),
        }
    };
    // Either failing stops both: a judge half-serving would look healthy and not be.
    let ((), stats) = tokio::try_join!(drafts, pairs)?;
    Ok(stats)
}

async fn serve_stage<S: Stage>(
    stage: S,
    js: &JetStream,
    stream: &str,
    concurrency: usize,
    url: &str,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<Arc<StageStats>, Error> {
    let name = stage.name();
    let inbox = js.inbox(&topology::stage_consumer(name, stream), concurrency).await?;
    let ack_wait = inbox.ack_wait();
    let config = StageConfig {
        concurrency,
        progress_every: (ack_wait / 3).max(Duration::from_millis(100)),
        ..StageConfig::default()
    };
    eprintln!(
        "memval: {name} serving on {url} (stream {stream}, consumer {name}, {concurrency} at once, ack wait {}s)",
        ack_wait.as_secs_f64()
    );
    run_stage(Arc::new(stage), Arc::new(inbox), Arc::new(js.outbox()), config, shutdown)
        .await
        .map_err(|e| Error::Incomplete(format!("{name} stopped: {e}")))
}

async fn serve_ingest(
    js: &JetStream,
    batch_size: usize,
    url: &str,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<Arc<StageStats>, Error> {
    let inbox: JetStreamInbox = js.inbox(&topology::stage_consumer("ingest", topology::EVENTS), 1).await?;
    // Polled until it resolves, then the loop ends: it is never polled again after that.
    tokio::pin!(shutdown);
    let outbox = js.outbox();
    let config = StageConfig::default();
    let stats = Arc::new(StageStats::default());
    eprintln!("memval: ingest serving on {url} (subject {}, consumer ingest)", subjects::MEMORY_INGESTED);
    let mut failures = 0u32;
    loop {
        let next = tokio::select! {
            biased;
            _ = &mut shutdown => break,
            next = inbox.next() => next,
        };
        let envelope = match next {
            None => break,
            Some(Ok(envelope)) => envelope,
            Some(Err(e)) => {
                failures += 1;
                tracing::warn!(failures, error = %e, "event inbox unavailable");
                let delay = (config.base_backoff * 2u32.saturating_pow(failures.min(5))).min(Duration::from_secs(5));
                tokio::select! {
                    _ = &mut shutdown => break,
                    _ = tokio::time::sleep(delay) => continue,
                }
            }
        };
        failures = 0;
        if envelope.subject != subjects::MEMORY_INGESTED {
            let reason =
                format!("unexpected subject {}; ingest consumes {}", envelope.subject, subjects::MEMORY_INGESTED);
            envelope.acker.dead_letter(reason, envelope.payload).await.ok();
            stats.dead_lettered.fetch_add(1, Ordering::Relaxed);
            continue;
        }
        let started_at = envelope.published_at.unwrap_or_else(|| chrono::Utc::now().timestamp());
        match event_run(&envelope.payload, envelope.msg_id.as_deref(), started_at) {
            Err(reason) => {
                envelope.acker.dead_letter(format!("ingest: {reason}"), envelope.payload).await.ok();
                stats.dead_lettered.fetch_add(1, Ordering::Relaxed);
            }
            Ok((header, memories)) => {
                // The run's trace continues the event's, when its publisher sent one.
                let span = tracing::info_span!(
                    "ingest",
                    otel.name = "memval ingest",
                    otel.kind = "consumer",
                    run = %header.run_id,
                    repo = %header.repo,
                    memories = memories.len(),
                );
                memval_runtime::trace::continue_from(&span, &envelope.headers);
                let submitted = submit_batches(&outbox, &header, &memories, batch_size, &config, &envelope.headers)
                    .instrument(span)
                    .await;
                match submitted {
                    Ok(()) => {
                        envelope.acker.ack().await.ok();
                        stats.processed.fetch_add(1, Ordering::Relaxed);
                        stats.published.fetch_add(memories.len().div_ceil(batch_size.max(1)) as u64, Ordering::Relaxed);
                        eprintln!(
                            "memval: ingest started run {} ({} memories of {})",
                            header.run_id,
                            memories.len(),
                            header.repo
                        );
                    }
                    Err(e) => {
                        // The event stays; batches already published are de-duplicated when
                        // it is redelivered.
                        tracing::warn!(error = %e, "cannot start the run of an event, will retry");
                        envelope.acker.nak(Duration::from_secs(1)).await.ok();
                        stats.retried.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
        }
    }
    inbox.close().await;
    Ok(stats)
}
