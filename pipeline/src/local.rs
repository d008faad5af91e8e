//! One run in one process: extractor → investigator → scorer over bounded in-process
//! channels that carry the same encoded messages a broker would.
//!
//! The wiring: the extractor with 2 workers, the investigator with one per core, the scorer with
//! 1, each queue holding 16 batches. The run waits until the scorer has scored every expected
//! memory: the run header carries `expected_memories`, so completion is bookkeeping, not a
//! timeout.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use memval_extractor::ExtractorStage;
use memval_investigator::{Cache, InvestigatorStage};
use memval_proto::{codec, Memory, MemoryBatch, MemoryScore, Message, RunHeader, ScoreBatch};
use memval_runtime::{Inbox, Outbox, StageConfig, StageError, StageStats};
use memval_scorer::{ScoreStore, ScorerStage};
use memval_transport::inproc::{channel, DeadLetters};
use memval_transport::{header, DeadLetter, Headers, Outgoing};

use crate::chain::{never, spawn_stage};
use crate::models::ModelStages;
use crate::submit::memory_batches;
use crate::Error;

/// Messages a stage may have queued ahead of the next one.
const QUEUE: usize = 16;

/// What a run gives back: a score per memory that was scored, and every batch that failed.
pub struct RunOutput {
    pub scores: Vec<MemoryScore>,
    pub dead_letters: Vec<DeadLetter>,
}

/// How a run in this process is set up.
pub struct LocalRun {
    pub repo: PathBuf,
    pub store: Arc<dyn ScoreStore>,
    pub batch_size: usize,
    /// Progress lines on stderr for runs longer than a second.
    pub progress: bool,
    pub models: Option<ModelStages>,
    /// Where verdicts and history are kept between runs (`None`: check everything afresh).
    pub kept: Option<Arc<dyn Cache>>,
}

fn stage_config(concurrency: usize) -> StageConfig {
    StageConfig { concurrency, ..StageConfig::default() }
}

/// Run every memory through the pipeline and wait until each one is scored.
pub async fn run(header: RunHeader, memories: Vec<Memory>, setup: LocalRun) -> Result<RunOutput, Error> {
    let dead = DeadLetters::default();
    let (memories_out, memories_in) = channel(QUEUE, dead.clone());
    let (claims_out, claims_in) = channel(QUEUE, dead.clone());
    let (verdicts_out, verdicts_in) = channel(QUEUE, dead.clone());
    let (scores_out, scores_in) = channel(QUEUE, dead.clone());

    let (model_extractor, tier_b) = setup.models.map(|m| (m.extractor, m.tier_b)).unwrap_or_default();
    let mut investigator = InvestigatorStage::new(setup.repo).with_tier_b(tier_b);
    if let Some(kept) = setup.kept {
        investigator = investigator.with_cache(kept);
    }
    if setup.progress {
        investigator = investigator.with_progress(Arc::new(|line: &str| eprintln!("memval: {line}")));
    }
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let extractor = match model_extractor {
        Some(with_model) => {
            spawn_stage(with_model, Arc::new(memories_in), Arc::new(claims_out), stage_config(2), never())
        }
        None => spawn_stage(ExtractorStage, Arc::new(memories_in), Arc::new(claims_out), stage_config(2), never()),
    };
    let stages: Vec<tokio::task::JoinHandle<Result<Arc<StageStats>, StageError>>> = vec![
        extractor,
        spawn_stage(investigator, Arc::new(claims_in), Arc::new(verdicts_out), stage_config(workers), never()),
        spawn_stage(
            ScorerStage::in_process(setup.store),
            Arc::new(verdicts_in),
            Arc::new(scores_out),
            stage_config(1),
            never(),
        ),
    ];

    let expected = header.expected_memories as usize;
    // With tracing on, the run is one trace: this span lives until the run is done, and the
    // stages continue it from the batches' headers.
    let run_span =
        tracing::info_span!("validate", otel.name = "memval validate", run = %header.run_id, memories = expected);
    let mut headers = Headers::new();
    headers.insert(header::RUN, &header.run_id);
    memval_runtime::trace::inject(&run_span, &mut headers);
    let batch_size = setup.batch_size;
    let feeder = tokio::spawn(async move {
        for batch in memory_batches(&header, &memories, batch_size) {
            let payload = codec::encode(&batch).map_err(Error::codec("encoding a memory batch"))?;
            let message = Outgoing {
                subject: MemoryBatch::SUBJECT.to_owned(),
                msg_id: batch.batch_id.clone(),
                headers: headers.clone(),
                payload,
            };
            memories_out.send(message).await.map_err(Error::transport("queueing memories"))?;
        }
        Ok::<(), Error>(())
    });

    // The run is complete when every expected memory has a score; the sink counts them.
    let started = Instant::now();
    let mut last_report = Instant::now();
    let mut scored: BTreeMap<String, MemoryScore> = BTreeMap::new();
    while let Some(next) = scores_in.next().await {
        let envelope = next.map_err(Error::transport("reading scores"))?;
        let batch: ScoreBatch = codec::decode(&envelope.payload).map_err(Error::codec("decoding a score batch"))?;
        for item in batch.items {
            scored.insert(item.memory.id.clone(), item);
        }
        envelope.acker.ack().await.map_err(Error::transport("acknowledging scores"))?;
        if setup.progress
            && started.elapsed() > Duration::from_secs(1)
            && last_report.elapsed() > Duration::from_millis(500)
        {
            eprintln!("memval: {}/{} memories checked", scored.len(), expected);
            last_report = Instant::now();
        }
        if scored.len() >= expected {
            break;
        }
    }
    feeder.await??;
    drop(scores_in);
    for stage in stages {
        match stage.await {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => return Err(Error::Stage(e)),
            Err(e) => return Err(Error::Incomplete(format!("a stage panicked: {e}"))),
        }
    }
    if setup.progress && started.elapsed() > Duration::from_secs(1) {
        eprintln!("memval: {}/{} memories checked in {:.1}s", scored.len(), expected, started.elapsed().as_secs_f64());
    }
    drop(run_span);
    Ok(RunOutput { scores: scored.into_values().collect(), dead_letters: dead.take() })
}
