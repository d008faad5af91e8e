//! `memval pairs`: candidate pairs of memories of different agents (docs/contracts.md §5), by keyword (no
//! model) or sentence embeddings. The work is `memval_reconciler::candidates`; this file
//! parses and prints.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::ValueEnum;
use memval_proto::display::{one_line, terminal_safe};

use crate::flags::PairMethodArgs;
use memval_reconciler::candidates::{self, Cap};
use memval_reconciler::embed_pairs::Progress;
use memval_reconciler::pairs;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PairsFormat {
    Jsonl,
    Table,
}

#[derive(Debug, clap::Args)]
#[command(
    about = "Candidate pairs of memories of different agents that may contradict each other",
    before_help = "Typical use: memval pairs --memories memory.db > pairs.jsonl",
    before_long_help = "The pairs are of memories of two different agents (docs/contracts.md §5), best first, one \
JSON object per line: {id_a, agent_a, content_a, id_b, agent_b, content_b, score, method}, with \
id_a < id_b. The output is `memval judge pairs --input`'s input.\n\n\
keyword: Jaccard >= 0.15 over lowercase alphanumeric tokens of 4 or more characters, computed exactly for every \
pair. The best pairs are found with a top-k prefix-filtering join, not by comparing every pair.\n\n\
embed: cosine >= 0.55 between all-MiniLM-L6-v2 sentence embeddings, run in this process on the CPU from \
--embed-model DIR (model.safetensors, config.json, tokenizer.json; `bash scripts/embed-model.sh` fetches them). \
Embeddings are cached in the store by content hash, so a later run embeds only new or changed memories. \
Embeddings find paraphrases keyword misses, but do not see negation: they propose, the judge decides. both: the \
two lists merged, the higher score of a pair kept with the name of the method that gave it.\n\n\
Each agent is sampled at --per-agent memories (highest tier, then newest). From a memory.db, pairs resolved in reconcile_log \
(pick-survivor, merge, both-stale) are not raised again, and the default cap is its reconcile_pair_cap. What \
sampling, the cap or the log left out is said on stderr (jsonl) or under the table.",
    after_help = "Exit codes: 0 on success; 2 on bad usage or input, or embed/both without the model files.",
    after_long_help = "Examples:\n  memval pairs --memories memory.db > pairs.jsonl\n  memval pairs --memories agents.jsonl --cap 20 --format table\n  memval pairs --memories memory.db --method both \\\n      --embed-model ~/.cache/memval/models/all-MiniLM-L6-v2\n  memval pairs --memories memory.db \\\n      | memval judge pairs --input - --llm-provider openai --llm-model gpt-4o-mini"
)]
pub struct PairsArgs {
    /// Memories to compare: any format memval reads (JSON/JSONL, memory.db, Claude Code, GAAI, notes).
    #[arg(long, value_name = "PATH")]
    pub memories: PathBuf,
    /// The repository the memories describe (file-based memories are read relative to it).
    #[arg(long, value_name = "PATH", default_value = ".")]
    pub repo: PathBuf,
    #[command(flatten)]
    pub method: PairMethodArgs,
    /// Where embeddings are cached (sled, shared with validate's scores). Default: REPO/.memval/store.
    #[arg(long, value_name = "DIR")]
    pub store: Option<PathBuf>,
    /// Keep the best N pairs; 0 keeps every pair above the threshold. Default:
    /// reconcile_pair_cap from a memory.db (clamped to 1-500), else 50.
    #[arg(long, value_name = "N")]
    pub cap: Option<u64>,
    /// Memories compared per agent (highest tier, then newest); 0 compares them all.
    #[arg(long, value_name = "N", default_value_t = pairs::DEFAULT_PER_AGENT)]
    pub per_agent: usize,
    /// Output format. Default: table on a terminal, jsonl otherwise.
    #[arg(long, value_enum)]
    pub format: Option<PairsFormat>,
}

pub async fn run(args: PairsArgs) -> anyhow::Result<ExitCode> {
    if !args.repo.is_dir() {
        anyhow::bail!("--repo {} is not a directory", args.repo.display());
    }
    let cap = args.cap.map_or(Cap::Default, Cap::Given);
    let method = args.method.method(Some(args.store.clone().unwrap_or_else(|| memval_store::default_dir(&args.repo))));
    let (memories, repo, per_agent) = (args.memories.clone(), args.repo.clone(), args.per_agent);
    let result = tokio::task::spawn_blocking(move || {
        let mut last = std::time::Instant::now();
        let mut progress = |p: Progress| {
            let (what, done, all) = match p {
                Progress::Embedding(d, a) => ("distinct texts embedded", d, a),
                Progress::Comparing(d, a) => ("memories compared with every later one", d, a),
            };
            // At most once a second, and the last step, so a long run shows it is moving.
            if last.elapsed() >= std::time::Duration::from_secs(1) || done == all {
                eprintln!("memval: {done}/{all} {what}");
                last = std::time::Instant::now();
            }
        };
        candidates::run(&memories, &repo, cap, per_agent, &method, &mut progress)
    })
    .await?
    .context("memval pairs")?;
    if let Some(e) = &result.embed {
        eprintln!("memval: {}", candidates::embed_note(e));
    }
    for p in &result.problems {
        eprintln!("memval: warning: skipped {}", one_line(&p.to_string()));
    }
    for link in &result.links {
        eprintln!("memval: note: {}", one_line(&link.to_string()));
    }
    let format =
        args.format.unwrap_or(if std::io::stdout().is_terminal() { PairsFormat::Table } else { PairsFormat::Jsonl });
    let mut out = std::io::stdout().lock();
    match format {
        PairsFormat::Jsonl => {
            out.write_all(pairs::to_jsonl(&result.candidates.pairs).as_bytes())?;
            eprint!(
                "{}",
                terminal_safe(&format!("memval: {}; {}", result.cap_note, pairs::summary(&result.candidates)))
            );
        }
        PairsFormat::Table => {
            out.write_all(pairs::to_table(&result.candidates).as_bytes())?;
            writeln!(out, "{}", terminal_safe(&result.cap_note))?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
