//! The embedded pipeline: extractor → investigator → scorer in one process, over bounded
//! in-process channels that carry the same encoded messages a broker would.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use memval_extractor::ExtractorStage;
use memval_investigator::InvestigatorStage;
use memval_proto::{codec, Memory, MemoryBatch, MemoryScore, Message, RunHeader, ScoreBatch};
use memval_runtime::{run_stage, Inbox, Outbox, Stage, StageConfig};
use memval_scorer::{ScoreStore, ScorerStage};
use memval_transport::inproc::{channel, DeadLetters};
use memval_transport::{header, DeadLetter, Headers, Outgoing};

/// Messages a stage may have queued ahead of the next one.
const QUEUE: usize = 16;

pub struct RunOutput {
    pub scores: Vec<MemoryScore>,
    pub dead_letters: Vec<DeadLetter>,
}

fn never() -> std::future::Pending<()> {
    std::future::pending()
}

fn spawn<S: Stage>(
    stage: S,
    inbox: Arc<dyn Inbox>,
    outbox: Arc<dyn Outbox>,
    concurrency: usize,
) -> tokio::task::JoinHandle<Result<(), memval_runtime::StageError>> {
    let config = StageConfig { concurrency, ..StageConfig::default() };
    tokio::spawn(async move { run_stage(Arc::new(stage), inbox, outbox, config, never()).await.map(|_| ()) })
}

/// Run every memory through the pipeline and wait until each one is scored.
pub async fn run(
    header: RunHeader,
    memories: Vec<Memory>,
    repo: std::path::PathBuf,
    store: Arc<dyn ScoreStore>,
    batch_size: usize,
    progress: bool,
    llm: Option<crate::llm_args::LlmRun>,
) -> anyhow::Result<RunOutput> {
    let dead = DeadLetters::default();
    let (memories_out, memories_in) = channel(QUEUE, dead.clone());
    let (claims_out, claims_in) = channel(QUEUE, dead.clone());
    let (verdicts_out, verdicts_in) = channel(QUEUE, dead.clone());
    let (scores_out, scores_in) = channel(QUEUE, dead.clone());

    let (llm_extractor, tier_b) = llm.map(|l| (l.extractor, l.tier_b)).unwrap_or_default();
    let investigator = InvestigatorStage::new(repo).with_tier_b(tier_b);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let extractor = match llm_extractor {
        Some(with_model) => spawn(with_model, Arc::new(memories_in), Arc::new(claims_out), 2),
        None => spawn(ExtractorStage, Arc::new(memories_in), Arc::new(claims_out), 2),
    };
    let stages = vec![
        extractor,
        spawn(investigator, Arc::new(claims_in), Arc::new(verdicts_out), workers),
        spawn(ScorerStage::in_process(store), Arc::new(verdicts_in), Arc::new(scores_out), 1),
    ];

    let expected = header.expected_memories as usize;
    // With tracing on, the run is one trace: this span lives until the run is done, and the
    // stages continue it from the batches' headers.
    let run_span = tracing::info_span!("validate", otel.name = "memval validate", run = %header.run_id, memories = expected);
    let mut headers = Headers::new();
    headers.insert(header::RUN, &header.run_id);
    memval_runtime::trace::inject(&run_span, &mut headers);
    let feeder = tokio::spawn(async move {
        for (n, chunk) in memories.chunks(batch_size.max(1)).enumerate() {
            let batch = MemoryBatch { run: header.clone(), batch_id: format!("{}.m{n}", header.run_id), memories: chunk.to_vec() };
            let payload = codec::encode(&batch)?;
            let message = Outgoing { subject: MemoryBatch::SUBJECT.to_owned(), msg_id: batch.batch_id.clone(), headers: headers.clone(), payload };
            memories_out.send(message).await?;
        }
        anyhow::Ok(())
    });

    // The run is complete when every expected memory has a score; the sink counts them.
    let started = Instant::now();
    let mut last_report = Instant::now();
    let mut scored: BTreeMap<String, MemoryScore> = BTreeMap::new();
    while let Some(next) = scores_in.next().await {
        let envelope = next.context("reading scores")?;
        let batch: ScoreBatch = codec::decode(&envelope.payload).context("decoding a score batch")?;
        for item in batch.items {
            scored.insert(item.memory.id.clone(), item);
        }
        envelope.acker.ack().await?;
        if progress && started.elapsed() > Duration::from_secs(1) && last_report.elapsed() > Duration::from_millis(500) {
            eprintln!("memval: {}/{} memories checked", scored.len(), expected);
            last_report = Instant::now();
        }
        if scored.len() >= expected {
            break;
        }
    }
    feeder.await.context("feeding memories")??;
    drop(scores_in);
    for stage in stages {
        match stage.await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => bail!("{e}"),
            Err(e) => bail!("a stage panicked: {e}"),
        }
    }
    if progress && started.elapsed() > Duration::from_secs(1) {
        eprintln!("memval: {}/{} memories checked in {:.1}s", scored.len(), expected, started.elapsed().as_secs_f64());
    }
    drop(run_span);
    Ok(RunOutput { scores: scored.into_values().collect(), dead_letters: dead.take() })
}
