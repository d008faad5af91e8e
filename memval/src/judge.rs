//! `memval judge pairs`: the pair judge (SPEC §5) on a JSONL file of candidate pairs.
//!
//! The judge stage runs as it would in a pipeline: batches of pairs go through a bounded
//! in-process channel, encoded with the wire codec, to `run_stage` with one worker per batch
//! (at most `--max-batches`); the client bounds the requests in flight.

use std::collections::{BTreeMap, HashSet};
use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{anyhow, Context};
use clap::{Subcommand, ValueEnum};
use memval_judge::plan::{self, Limits};
use memval_judge::{prompt::PROMPT_VERSION, JudgeStage};
use memval_llm::{ChatModel, UsageReport};
use memval_proto::{codec, Judgement, JudgementBatch, Message, Pair, PairBatch, PairVerdict, RunHeader};
use memval_runtime::{run_stage, Inbox, Outbox, StageConfig};
use memval_transport::inproc::{channel, DeadLetters};
use serde_json::{json, Value};

use crate::llm_args::LlmArgs;

#[derive(Debug, clap::Args)]
pub struct JudgeArgs {
    #[command(subcommand)]
    pub command: JudgeCommand,
}

#[derive(Debug, Subcommand)]
pub enum JudgeCommand {
    /// Judge candidate pairs of memories of different agents: contradictory, consistent or
    /// unrelated, with verbatim quotes for contradictions.
    #[command(
        long_about = "Judge candidate pairs of memories of two different agents (SPEC §5) with an LLM. The input is \
JSONL, one candidate per line: {id_a, agent_a, content_a, id_b, agent_b, content_b, score, method}. Pairs are \
sorted by score, de-duplicated and capped at --pair-cap, then judged in batches of --batch-size, at most \
--max-batches batches, in parallel.\n\n\
Every judgement the model gives is checked: exactly one per pair, a verdict in the enum, an integer confidence \
0-100, and for a contradiction, claim_a and claim_b quoted verbatim from each side. A judgement that fails is \
replaced by `unrelated` with confidence 0 and the reason (`fallback`, and a line in `detail`). The judge takes \
no side and changes nothing.\n\n\
Exit codes: 0 when every selected pair was judged; 2 on bad usage or input, or when a batch got no answer from \
the model (those pairs are listed under not_judged).",
        after_help = "Example:\n  memval judge pairs --input pairs.jsonl --llm-provider openai --llm-model gpt-4o-mini --format json"
    )]
    Pairs(JudgePairsArgs),
    /// Judge whether a draft recommendation contradicts the user's saved Claude Code memory
    /// (SPEC §7); exit 1 on a veto.
    Draft(crate::cmd::judge_draft::JudgeDraftArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum JudgeFormat {
    Table,
    Json,
}

#[derive(Debug, clap::Args)]
pub struct JudgePairsArgs {
    /// JSONL file of candidate pairs (`-` for stdin).
    #[arg(long, value_name = "FILE")]
    pub input: PathBuf,
    /// Output format. Default: table on a terminal, json otherwise.
    #[arg(long, value_enum)]
    pub format: Option<JudgeFormat>,
    /// Write the result to this file instead of stdout (written whole, or not at all).
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Judge at most this many pairs (reconcile_pair_cap; clamped to 1-500).
    #[arg(long, env = "MEMVAL_RECONCILE_PAIR_CAP", default_value_t = 50, allow_negative_numbers = true)]
    pub pair_cap: i64,
    /// Pairs per model call.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=50))]
    pub batch_size: u32,
    /// Model calls per run (in parallel); pairs beyond them are deferred to a later run.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub max_batches: u32,
    /// Cache judgements in this memval store (sled; e.g. REPO/.memval/store), so the same
    /// pair, model and prompt are never paid for twice.
    #[arg(long, value_name = "DIR")]
    pub store: Option<PathBuf>,
    #[command(flatten)]
    pub llm: LlmArgs,
}

pub async fn judge(args: JudgeArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        JudgeCommand::Pairs(args) => pairs(args).await,
        JudgeCommand::Draft(args) => crate::cmd::judge_draft::run(args).await,
    }
}

/// A line of the input that could not be used.
struct Problem {
    line: usize,
    reason: String,
}

fn read_pairs(args: &JudgePairsArgs) -> anyhow::Result<(Vec<Pair>, Vec<Problem>, HashSet<String>)> {
    let reader: Box<dyn BufRead> = if args.input.as_os_str() == "-" {
        Box::new(std::io::BufReader::new(std::io::stdin()))
    } else {
        let file = std::fs::File::open(&args.input).with_context(|| format!("cannot read --input {}", args.input.display()))?;
        Box::new(std::io::BufReader::new(file))
    };
    let mut pairs = Vec::new();
    let mut problems = Vec::new();
    // Ids given as JSON strings are printed back as strings; integer ids as integers.
    let mut text_ids = HashSet::new();
    for (i, line) in reader.lines().enumerate() {
        let line = line.with_context(|| format!("cannot read --input {}", args.input.display()))?;
        if line.trim().is_empty() {
            continue;
        }
        match parse_pair(&line, &mut text_ids).and_then(plan::normalise) {
            Ok(pair) => pairs.push(pair),
            Err(reason) => problems.push(Problem { line: i + 1, reason }),
        }
    }
    Ok((pairs, problems, text_ids))
}

fn parse_pair(line: &str, text_ids: &mut HashSet<String>) -> Result<Pair, String> {
    let v: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let obj = v.as_object().ok_or("not a JSON object")?;
    let mut id = |key: &str| -> Result<String, String> {
        match obj.get(key) {
            Some(Value::Number(n)) if n.is_i64() || n.is_u64() => Ok(n.to_string()),
            Some(Value::String(s)) if !s.trim().is_empty() => {
                text_ids.insert(s.trim().to_owned());
                Ok(s.trim().to_owned())
            }
            _ => Err(format!("{key} must be an integer or a non-empty string")),
        }
    };
    let (id_a, id_b) = (id("id_a")?, id("id_b")?);
    let text = |key: &str| -> Result<String, String> {
        obj.get(key).and_then(Value::as_str).map(str::to_owned).ok_or_else(|| format!("{key} must be a string"))
    };
    Ok(Pair {
        id_a,
        agent_a: text("agent_a")?,
        content_a: text("content_a")?,
        id_b,
        agent_b: text("agent_b")?,
        content_b: text("content_b")?,
        score: obj.get("score").and_then(Value::as_f64).unwrap_or(0.0),
        method: obj.get("method").and_then(Value::as_str).unwrap_or("").to_owned(),
    })
}

async fn pairs(args: JudgePairsArgs) -> anyhow::Result<ExitCode> {
    let client = args.llm.require("memval judge pairs")?;
    let (pairs, problems, text_ids) = read_pairs(&args)?;
    for p in &problems {
        eprintln!("memval: warning: {}:{}: skipped: {}", args.input.display(), p.line, p.reason);
    }
    let pair_cap = plan::clamp_pair_cap(args.pair_cap);
    if i64::from(pair_cap) != args.pair_cap {
        eprintln!("memval: warning: --pair-cap {} clamped to {pair_cap} (allowed 1-{})", args.pair_cap, plan::MAX_PAIR_CAP);
    }
    let read = pairs.len();
    let limits = Limits { pair_cap, batch_size: args.batch_size as usize, max_batches: args.max_batches as usize };
    let plan = plan::plan(pairs, limits);
    let started_at = chrono::Utc::now().timestamp();
    let header = RunHeader {
        run_id: crate::new_run_id(),
        repo: String::new(),
        commit: None,
        started_at,
        expected_memories: 0,
    };
    let model: Arc<dyn ChatModel> = Arc::new(client);
    let cache: Option<Arc<dyn memval_llm::ResultCache>> = match &args.store {
        Some(dir) => Some(Arc::new(crate::llm_args::StoreCache::new(&crate::open_store(dir)?)?)),
        None => None,
    };
    let stage = JudgeStage::new(model.clone()).with_batch_size(limits.batch_size).with_cache(cache);
    let selected: Vec<Pair> = plan.batches.iter().flatten().cloned().collect();
    let (batches, dead) = run_batches(stage, &header, plan.batches.clone(), limits.max_batches).await?;

    let mut judged: BTreeMap<(String, String), Judgement> = BTreeMap::new();
    let mut detail = Vec::new();
    for batch in batches {
        detail.extend(batch.notes);
        for j in batch.judgements {
            judged.insert((j.id_a.clone(), j.id_b.clone()), j);
        }
    }
    // Why the pairs of a batch without an answer were not judged.
    let mut unanswered: BTreeMap<(String, String), String> = BTreeMap::new();
    for letter in &dead {
        let id = letter.msg_id.as_deref().unwrap_or("?");
        detail.push(format!("batch {id} got no answer: {}", letter.reason));
        let reason = if letter.reason.contains("llm budget exhausted") {
            "deferred: the run's llm budget is used up (see detail)"
        } else {
            "the model gave no answer for its batch (see detail)"
        };
        let index = id.rsplit_once(".p").and_then(|(_, n)| n.parse::<usize>().ok());
        for p in index.and_then(|i| plan.batches.get(i)).into_iter().flatten() {
            unanswered.insert((p.id_a.clone(), p.id_b.clone()), reason.to_owned());
        }
    }
    let result = JudgeResult {
        header: &header,
        input: args.input.display().to_string(),
        model: model.name(),
        read,
        problems,
        selected,
        judged,
        plan_over_cap: plan.over_cap,
        plan_deferred: plan.deferred,
        duplicates: plan.duplicates,
        pair_cap,
        detail,
        usage: model.usage(),
        text_ids,
        unanswered,
    };
    let to_terminal = args.output.is_none() && std::io::stdout().is_terminal();
    let text = match args.format.unwrap_or(if to_terminal { JudgeFormat::Table } else { JudgeFormat::Json }) {
        JudgeFormat::Json => memval_proto::display::json_safe(&format!("{}\n", serde_json::to_string_pretty(&result.to_json())?)),
        JudgeFormat::Table => memval_proto::display::terminal_safe(&result.to_table()),
    };
    crate::emit(args.output.as_deref(), &text)?;
    Ok(if result.not_judged().is_empty() { ExitCode::SUCCESS } else { ExitCode::from(2) })
}

/// Run the judge stage over `batches`, all at once (at most `parallel`), and collect what
/// comes out: judgement batches, and dead letters for batches the model never answered.
async fn run_batches(
    stage: JudgeStage,
    header: &RunHeader,
    batches: Vec<Vec<Pair>>,
    parallel: usize,
) -> anyhow::Result<(Vec<JudgementBatch>, Vec<memval_transport::DeadLetter>)> {
    if batches.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let dead = DeadLetters::default();
    let (pairs_out, pairs_in) = channel(batches.len().min(parallel), dead.clone());
    let (judged_out, judged_in) = channel(batches.len().min(parallel), dead.clone());
    // The client already retried each call; a batch that still failed is reported, not
    // sent round again.
    let config = StageConfig { concurrency: batches.len().min(parallel).max(1), max_deliveries: 1, ..StageConfig::default() };
    let worker = tokio::spawn(run_stage(
        Arc::new(stage),
        Arc::new(pairs_in) as Arc<dyn Inbox>,
        Arc::new(judged_out) as Arc<dyn Outbox>,
        config,
        std::future::pending::<()>(),
    ));
    let expected = batches.len();
    let feeder = {
        let header = header.clone();
        tokio::spawn(async move {
            for (i, pairs) in batches.into_iter().enumerate() {
                let batch = PairBatch { run: header.clone(), batch_id: format!("{}.p{i}", header.run_id), pairs };
                pairs_out.publish(PairBatch::SUBJECT, batch.batch_id.clone(), codec::encode(&batch)?).await?;
            }
            anyhow::Ok(())
        })
    };
    let mut out = Vec::with_capacity(expected);
    while let Some(next) = judged_in.next().await {
        let envelope = next.context("reading judgements")?;
        let batch: JudgementBatch = codec::decode(&envelope.payload).context("decoding judgements")?;
        envelope.acker.ack().await?;
        out.push(batch);
    }
    feeder.await.context("feeding pairs")??;
    worker.await.context("judge stage")?.map_err(|e| anyhow!("{e}"))?;
    Ok((out, dead.take()))
}

struct JudgeResult<'a> {
    header: &'a RunHeader,
    input: String,
    model: String,
    read: usize,
    problems: Vec<Problem>,
    selected: Vec<Pair>,
    judged: BTreeMap<(String, String), Judgement>,
    plan_over_cap: Vec<Pair>,
    plan_deferred: Vec<Pair>,
    duplicates: usize,
    pair_cap: u32,
    detail: Vec<String>,
    usage: UsageReport,
    text_ids: HashSet<String>,
    unanswered: BTreeMap<(String, String), String>,
}

impl JudgeResult<'_> {
    fn id(&self, id: &str) -> Value {
        if self.text_ids.contains(id) {
            json!(id)
        } else {
            memval_judge::prompt::id_value(id)
        }
    }

    fn judgements(&self) -> Vec<(&Pair, &Judgement)> {
        self.selected.iter().filter_map(|p| self.judged.get(&(p.id_a.clone(), p.id_b.clone())).map(|j| (p, j))).collect()
    }

    fn not_judged(&self) -> Vec<&Pair> {
        self.selected.iter().filter(|p| !self.judged.contains_key(&(p.id_a.clone(), p.id_b.clone()))).collect()
    }

    fn to_json(&self) -> Value {
        let judgements = self.judgements();
        let mut verdicts: BTreeMap<&str, usize> = PairVerdict::ALL.iter().map(|v| (v.as_str(), 0)).collect();
        for (_, j) in &judgements {
            *verdicts.entry(j.verdict.as_str()).or_default() += 1;
        }
        let fallbacks = judgements.iter().filter(|(_, j)| j.fallback.is_some()).count();
        let pair_ref = |p: &Pair, reason: &str| json!({"id_a": self.id(&p.id_a), "id_b": self.id(&p.id_b), "reason": reason});
        let mut not_judged: Vec<Value> = self
            .not_judged()
            .into_iter()
            .map(|p| {
                let reason = self.unanswered.get(&(p.id_a.clone(), p.id_b.clone())).map(String::as_str);
                pair_ref(p, reason.unwrap_or("the model gave no answer for its batch (see detail)"))
            })
            .collect();
        not_judged.extend(self.plan_deferred.iter().map(|p| pair_ref(p, "deferred: beyond --max-batches batches this run")));
        not_judged.extend(self.plan_over_cap.iter().map(|p| pair_ref(p, "over the pair cap")));
        json!({
            "run": {
                "id": self.header.run_id,
                "input": self.input,
                "started_at": memval_proto::rfc3339(self.header.started_at),
                "finished_at": memval_proto::rfc3339(chrono::Utc::now().timestamp()),
                "model": self.model,
                "prompt_version": PROMPT_VERSION,
                "pairs_read": self.read,
                "pairs_skipped": self.problems.len(),
                "duplicates": self.duplicates,
                "pair_cap": self.pair_cap,
                "pairs_selected": self.selected.len(),
                "pairs_judged": judgements.len(),
                "pairs_deferred": self.plan_deferred.len(),
                "pairs_over_cap": self.plan_over_cap.len(),
                "fallbacks": fallbacks,
                "verdicts": verdicts,
            },
            "judgements": judgements.iter().map(|(p, j)| json!({
                "id_a": self.id(&j.id_a),
                "agent_a": p.agent_a,
                "id_b": self.id(&j.id_b),
                "agent_b": p.agent_b,
                "verdict": j.verdict.as_str(),
                "claim_a": j.claim_a,
                "claim_b": j.claim_b,
                "confidence": j.confidence,
                "rationale": j.rationale,
                "fallback": j.fallback,
                "score": p.score,
                "method": p.method,
            })).collect::<Vec<_>>(),
            "not_judged": not_judged,
            "detail": self.detail,
            "problems": self.problems.iter().map(|p| json!({"line": p.line, "reason": p.reason})).collect::<Vec<_>>(),
            "llm": self.usage,
        })
    }

    fn to_table(&self) -> String {
        let mut out = String::new();
        let judgements = self.judgements();
        let total = &self.usage.total;
        let cost = total.cost_usd.map(|c| format!(", ~${c:.4}")).unwrap_or_default();
        out.push_str(&format!(
            "judged {} of {} pairs with {} ({} calls, {} in / {} out tokens{cost})\n",
            judgements.len(),
            self.read,
            self.model,
            total.calls,
            total.input_tokens,
            total.output_tokens
        ));
        for (p, j) in &judgements {
            out.push_str(&format!(
                "{:<13} {:>3}  {} ({}) <> {} ({})\n",
                j.verdict.as_str(),
                j.confidence,
                p.id_a,
                p.agent_a,
                p.id_b,
                p.agent_b
            ));
            if j.verdict == PairVerdict::Contradictory {
                out.push_str(&format!("    a: {:?}\n    b: {:?}\n", j.claim_a, j.claim_b));
            }
            if !j.rationale.is_empty() {
                out.push_str(&format!("    {}\n", j.rationale));
            }
            if let Some(reason) = &j.fallback {
                out.push_str(&format!("    fallback: {reason}\n"));
            }
        }
        for p in self.not_judged() {
            out.push_str(&format!("not judged     {} <> {}: the model gave no answer for its batch\n", p.id_a, p.id_b));
        }
        if !self.plan_deferred.is_empty() {
            out.push_str(&format!("{} pairs deferred (beyond --max-batches)\n", self.plan_deferred.len()));
        }
        if !self.plan_over_cap.is_empty() {
            out.push_str(&format!("{} pairs over the pair cap of {}\n", self.plan_over_cap.len(), self.pair_cap));
        }
        for line in &self.detail {
            out.push_str(&format!("detail: {line}\n"));
        }
        out
    }
}
