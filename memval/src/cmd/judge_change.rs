//! `memval judge change`: is a finished change proven against its acceptance? (docs/contracts.md §8)
//!
//! Parses flags, builds the reviewers' clients, calls `memval_judge::change::validate`,
//! prints the result, stores it when asked, and exits 0 PASS, 1 FAIL, 3 NOT_PROVEN, 2 bad
//! input. All judgement lives in the library.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{anyhow, Context};
use clap::builder::TypedValueParser as _;
use clap::{Subcommand, ValueEnum};
use memval_judge::change::{self, render, Freshness, FreshnessSource, Request, Reviewer, Reviewers};
use memval_llm::LlmClient;
use memval_scorer::SledStore;

use crate::model_flags::LlmArgs;

const LONG_HELP: &str = "Judges one finished change against its acceptance, freshly, and stops (docs/contracts.md §8).\n\n\
The subject is every file under --root except .git and build output (target/, node_modules/, __pycache__/, .pytest_cache/, .mypy_cache/, .ruff_cache/, .memval/); its \
manifest (subject-manifest.v1: path, kind, executable bit and sha256 per file) is derived at the start and again at the end, \
and any difference is NOT_PROVEN (subject_mutated).\n\n\
The acceptance file lists criteria: JSON {\"criteria\": [{\"id\", \"text\", \"check\"?, \"scope\"?: [glob], \"allows\"?: [class], \
\"timeout_secs\"?}]} (also as .yaml/.yml) or a Markdown checklist (`- [ ] ID: text` with indented `- check: `cmd``, `- scope: `glob`, ...`, \
`- allows: class`, `- timeout: SECONDS`). Each check runs with `sh -c` in the subject root after it is classified: formatters, \
regeneration and sync scripts, anything with --force/--write/--fix, output redirection and every unknown program are mutating \
and run only in a disposable copy. Its exit code, output tail and duration are evidence.\n\n\
With --base REV the change is everything between REV and the working tree (committed or not, untracked files included). A \
changed path outside every criterion's scope is FAIL (out_of_scope_change); so is weakened acceptance (test_deleted, \
test_skipped, tolerance_widened, golden_rewritten, acceptance_rewritten) unless a criterion names the class under `allows`.\n\n\
With a model (--llm-*), criteria without a check are reviewed against the diff and the files in scope; the model must cite \
path:line that exist, or the criterion stays not_checked. --cross-model adds a second reviewer of the other provider family \
(openai <-> anthropic), configured with --cross-provider, --cross-model-name, --cross-base-url and --cross-api-key-env (the \
other --llm-* settings are shared). Both verdicts are kept: PASS only when both pass, a delivered FAIL stands, a missing \
second verdict is NOT_PROVEN (diversity_unsatisfied).\n\n\
PASS needs distinct author and validator contexts, attested freshness, a non-empty checked list, evidence for every \
criterion and an empty not_checked.";

#[derive(Debug, clap::Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    about = "Judge a finished change against its acceptance: PASS, FAIL or NOT_PROVEN",
    // Written out so it fits 80 columns: clap does not wrap a usage line.
    override_usage = "memval judge change [OPTIONS] --root <DIR> --acceptance <FILE>\n           \
--author-context <ID> --validator-context <ID>\n       memval judge change <COMMAND>",
    before_help = "Typical use: memval judge change --root . --acceptance acceptance.json --author-context A \
--validator-context B --base main",
    before_long_help = LONG_HELP,
    after_help = "Exit codes: 0 PASS, 1 FAIL, 3 NOT_PROVEN, 2 bad usage or input (including a git error with --base).",
    after_long_help = "Examples:\n  memval judge change --root . --acceptance acceptance.json \\\n      --author-context ctx-a --validator-context ctx-b --base main \\\n      --freshness runtime --attester ci --format md\n  memval judge change manifest --root ."
)]
pub struct JudgeChangeArgs {
    #[command(subcommand)]
    pub action: Option<ChangeAction>,
    /// The subject: the working tree to judge.
    #[arg(long, value_name = "DIR", required = true)]
    pub root: Option<PathBuf>,
    /// The acceptance file (JSON, YAML, or a Markdown checklist).
    #[arg(long, value_name = "FILE", required = true)]
    pub acceptance: Option<PathBuf>,
    /// The context id the change was made in.
    #[arg(long, value_name = "ID", required = true)]
    pub author_context: Option<String>,
    /// The context id of this validation; must differ from the author's.
    #[arg(long, value_name = "ID", required = true)]
    pub validator_context: Option<String>,
    /// The revision the change starts from: changed paths, scope and weakening are judged
    /// from `git diff REV` plus untracked files.
    #[arg(long, value_name = "REV")]
    pub base: Option<String>,
    /// Who attests that this validation is fresh (a declared trust fact).
    #[arg(long, requires = "attester", value_parser = clap::builder::PossibleValuesParser::new(FreshnessSource::NAMES).try_map(|s| s.parse::<FreshnessSource>()))]
    pub freshness: Option<FreshnessSource>,
    /// The identity attesting freshness.
    #[arg(long, value_name = "NAME", requires = "freshness")]
    pub attester: Option<String>,
    /// Seconds a check may run when its criterion names no timeout.
    #[arg(long, value_name = "SECONDS", default_value_t = 600, value_parser = clap::value_parser!(u64).range(1..))]
    pub check_timeout: u64,
    /// Persist the verdict in this memval store (content-addressed by its digest); `memval
    /// history --store DIR` lists it.
    #[arg(long, value_name = "DIR")]
    pub store: Option<PathBuf>,
    #[arg(long, value_enum, default_value = "json")]
    pub format: ChangeFormat,
    /// Require a second review from the other provider family (see --cross-*).
    #[arg(help_heading = "Cross-model review", long)]
    pub cross_model: bool,
    /// The second reviewer's wire protocol: openai or anthropic (the other one).
    #[arg(help_heading = "Cross-model review", long, value_name = "openai|anthropic", requires = "cross_model")]
    pub cross_provider: Option<String>,
    /// The second reviewer's model name.
    #[arg(help_heading = "Cross-model review", long, value_name = "MODEL", requires = "cross_model")]
    pub cross_model_name: Option<String>,
    /// The second reviewer's base URL (default: the provider's).
    #[arg(help_heading = "Cross-model review", long, value_name = "URL", requires = "cross_model")]
    pub cross_base_url: Option<String>,
    /// The environment variable holding the second reviewer's API key.
    #[arg(help_heading = "Cross-model review", long, value_name = "VAR", requires = "cross_model")]
    pub cross_api_key_env: Option<String>,
    // Boxed: the flags are many, and `JudgeCommand` holds this inline.
    #[command(flatten)]
    pub llm: Box<LlmArgs>,
}

#[derive(Debug, Subcommand)]
pub enum ChangeAction {
    /// Print the subject manifest (subject-manifest.v1) of a directory and stop.
    #[command(
        before_help = "Typical use: memval judge change manifest --root .",
        before_long_help = "The manifest lists every file's path, kind, executable bit and sha256 (version control \
and build output left out), and the digest over them that a change verdict is bound to. Reads only.",
        after_help = "Exit codes: 0 on success; 2 when the directory cannot be read."
    )]
    Manifest {
        /// The directory.
        #[arg(long, value_name = "DIR")]
        root: PathBuf,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ChangeFormat {
    Json,
    Md,
}

fn reviewer(args: &LlmArgs) -> anyhow::Result<Option<Reviewer>> {
    let Some(config) = args.config()? else { return Ok(None) };
    let family = config.provider;
    Ok(Some(Reviewer { model: Arc::new(LlmClient::new(config)?), family }))
}

pub async fn run(args: JudgeChangeArgs) -> anyhow::Result<ExitCode> {
    if let Some(ChangeAction::Manifest { root }) = &args.action {
        let root = root.clone();
        let manifest = tokio::task::spawn_blocking(move || change::manifest::derive(&root)).await??;
        println!("{}", render::manifest_json(&manifest));
        return Ok(ExitCode::SUCCESS);
    }
    let missing = |what: &str| anyhow!("--{what} is required");
    let reviewers =
        Reviewers::choose(reviewer(&args.llm)?, args.cross_model, || -> anyhow::Result<Option<Reviewer>> {
            if args.cross_provider.is_none() && args.cross_model_name.is_none() {
                return Ok(None);
            }
            let cross = LlmArgs {
                provider: args.cross_provider.clone(),
                model: args.cross_model_name.clone(),
                base_url: args.cross_base_url.clone(),
                api_key_env: args.cross_api_key_env.clone(),
                ..(*args.llm).clone()
            };
            Ok(Some(
                reviewer(&cross)?
                    .ok_or_else(|| anyhow!("--cross-model: set --cross-provider and --cross-model-name"))?,
            ))
        })?;
    let request = Request {
        root: args.root.clone().ok_or_else(|| missing("root"))?,
        acceptance: args.acceptance.clone().ok_or_else(|| missing("acceptance"))?,
        author_context: args.author_context.clone().ok_or_else(|| missing("author-context"))?,
        validator_context: args.validator_context.clone().ok_or_else(|| missing("validator-context"))?,
        base: args.base.clone(),
        freshness: match (args.freshness, &args.attester) {
            (Some(source), Some(attester)) => Some(Freshness { source, attester: attester.clone() }),
            _ => None,
        },
        check_timeout: Duration::from_secs(args.check_timeout),
        reviewers,
    };
    let models = request.reviewers.as_ref().map(Reviewers::models).unwrap_or_default();
    let verdict = change::validate(request).await?;
    // What the review cost, on stderr: the result document is docs/contracts.md §8's and nothing else.
    for m in &models {
        eprintln!("{}", render::review_usage(&m.name(), &m.usage().total));
    }
    let text = match args.format {
        ChangeFormat::Json => render::json(&verdict),
        ChangeFormat::Md => render::markdown(&verdict),
    };
    if let Some(dir) = &args.store {
        let (key, value) = render::stored_record(&verdict, &memval_proto::rfc3339(chrono::Utc::now().timestamp()));
        let dir = dir.clone();
        tokio::task::spawn_blocking(move || -> anyhow::Result<()> {
            let store = SledStore::open(&dir).map_err(|e| anyhow!("{e}"))?;
            store
                .verdicts()?
                .put_new(key.as_bytes(), value.as_bytes())
                .with_context(|| format!("cannot store the verdict in {}", dir.display()))?;
            Ok(())
        })
        .await??;
        eprintln!(
            "memval: verdict {} stored in {}",
            change::verdict_digest(&verdict),
            memval_proto::display::one_line(&args.store.as_ref().map(|d| d.display().to_string()).unwrap_or_default())
        );
    }
    println!("{text}");
    Ok(ExitCode::from(verdict.result.exit_code()))
}
