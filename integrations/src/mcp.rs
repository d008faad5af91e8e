//! `memval mcp`: a Model Context Protocol server (on the official Rust SDK, `rmcp`) so an
//! agent can check memories itself. Tools, each answering with the JSON the matching CLI
//! command prints:
//!
//! - `validate_memories {repo, memories, fail_on?}`: `memval validate --format json`;
//! - `check_memory {repo, text}`: one memory not yet saved, validated from a temporary file;
//!   a second text block names the claims that are already false;
//! - `judge_draft {memory_dir, draft}`: `memval judge draft --format json` (rules only);
//! - `reconcile {repo, memories, method?}`: `memval reconcile --format json` (writes the dated
//!   report and returns its path in `report_path`); `method` is the CLI's `--method`.
//!
//! No tool uses a model: an MCP client is already one, and memval's model flags are the
//! CLI's. Runs that take a while send `notifications/progress` when the client asked for
//! them (a progress token): one at the start, one every [`PROGRESS_EVERY`], one at the end.
//!
//! Never: read a path outside the `repo` (or its Claude memory folder) or the `memory_dir` a
//! call gave (refused with a tool error that says so), write anything to stdout but protocol
//! messages, or run two validations against one store at once (they are serialised).
//!
//! Arguments are typed structs whose JSON schemas rmcp publishes (unknown fields refused);
//! `reconcile`'s `method` goes through the same `candidates::Pairer` as the CLI, keyword by
//! default. Tool failures are results with `isError` and a message. Validations are serialised
//! because runs on one repo share its store. `serve(reader, writer, claude_home, shutdown)` takes
//! its transport and its shutdown future, so tests and the binary inject both.

use std::borrow::Cow;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use memval_report::{FailOn, FAIL_CONFIDENCE};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, ContentBlock, Implementation, ProgressNotificationParam, ProgressToken, RequestMetaObject,
    ServerCapabilities, ServerConfig,
};
use rmcp::{tool, tool_handler, tool_router, ErrorData, Peer, RoleServer, ServerHandler, ServiceExt};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::Deserialize;
use tokio::io::{AsyncRead, AsyncWrite};

use crate::confine::Roots;
use crate::run::{below_confidence, describe, false_claims, validate_path};
use crate::Error;

/// How often a long tool call reports that it is still running.
pub const PROGRESS_EVERY: Duration = Duration::from_secs(2);
/// The largest memory `check_memory` takes, as for a draft.
pub const MAX_MEMORY_BYTES: usize = memval_judge::draft::MAX_DRAFT_BYTES;

/// The JSON schema of [`FailOn`] (`memval_report` knows nothing of JSON Schema): a string,
/// one of its names, under the name `FailOn`.
struct FailOnSchema;

impl JsonSchema for FailOnSchema {
    fn schema_name() -> Cow<'static, str> {
        "FailOn".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let names: Vec<&str> = FailOn::ALL.iter().map(|f| f.name()).collect();
        json_schema!({"type": "string", "enum": names})
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ValidateParams {
    /// The repository the memories talk about (an absolute path).
    pub repo: String,
    /// A memory file or folder inside the repo (or the repo's Claude Code memory folder), in
    /// any format memval reads; relative paths are relative to the repo.
    pub memories: String,
    /// `run.failed` is true when a claim's verdict is at or above this (default: stale).
    #[serde(default)]
    // The schema names no `default` (none is shown for an absent value).
    #[schemars(with = "Option<FailOnSchema>", skip_serializing_if = "Option::is_none")]
    pub fail_on: Option<FailOn>,
    /// Only a verdict at this confidence (0-100) or above counts toward `fail_on` (default: 80).
    #[serde(default)]
    #[schemars(range(max = 100))]
    pub fail_confidence: Option<u8>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckParams {
    /// The repository the memory talks about (an absolute path).
    pub repo: String,
    /// The memory's text (Markdown), as the agent is about to save it.
    pub text: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct JudgeDraftParams {
    /// A Claude Code memory folder (MEMORY.md and feedback_/user_/project_/reference_*.md).
    pub memory_dir: String,
    /// The draft recommendation's text.
    pub draft: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReconcileParams {
    /// The repository (docs, READMEs and git history are read from it).
    pub repo: String,
    /// Memory paths inside the repo (a GAAI tree or any format memval reads).
    pub memories: Vec<String>,
    /// How candidate contradiction pairs are proposed, as `memval reconcile --method`:
    /// "keyword" (the default: shared words, no model), "embed" (cosine of all-MiniLM-L6-v2
    /// sentence embeddings; the model folder is the server's MEMVAL_EMBED_MODEL, embeddings
    /// are cached in REPO/.memval/store) or "both" (keyword and embed, merged).
    #[serde(default)]
    pub method: Option<PairMethod>,
}

/// The `method` of the `reconcile` tool.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum PairMethod {
    #[default]
    Keyword,
    Embed,
    Both,
}

impl PairMethod {
    /// The library's method for `repo`, as `memval reconcile` builds it without flags: the
    /// model from MEMVAL_EMBED_MODEL, the cache in the repo's default store. The reconciler's
    /// `candidates::Pairer` turns it into pairs, as for the CLI.
    pub fn method(self, repo: &Path) -> memval_reconciler::candidates::Method {
        use memval_reconciler::candidates::{EmbedSetup, Method};
        let setup = || EmbedSetup { model_dir: None, store_dir: Some(memval_store::default_dir(repo)) };
        match self {
            PairMethod::Keyword => Method::Keyword,
            PairMethod::Embed => Method::Embed(setup()),
            PairMethod::Both => Method::Both(setup()),
        }
    }

    /// Why this method cannot run in this server, said for an MCP user: `embed` and `both`
    /// read the model folder from the server's own environment (`model_env`, the value of
    /// MEMVAL_EMBED_MODEL), which a tool call cannot pass the way a CLI user passes
    /// `--embed-model`.
    pub fn model_problem(self, model_env: Option<&std::ffi::OsStr>) -> Option<String> {
        let needs_model = matches!(self, PairMethod::Embed | PairMethod::Both);
        (needs_model && model_env.is_none_or(|v| v.is_empty())).then(|| {
            "method embed and both need an embedding model, and this MCP server has none: set MEMVAL_EMBED_MODEL in the \
             server's environment (the `env` of memval's entry in the client's MCP configuration) to the folder \
             `bash scripts/embed-model.sh` prints, then restart the server; or call reconcile with method keyword"
                .to_owned()
        })
    }
}

/// The server. One per connection; `claude_home` is where the repo's Claude memory folder is
/// looked for (see [`crate::confine`]).
#[derive(Clone)]
pub struct Server {
    // Read by the code `#[tool_handler]` generates, which the dead-code lint does not see.
    #[allow(dead_code)]
    tool_router: ToolRouter<Server>,
    claude_home: Option<PathBuf>,
    /// One validation at a time: runs on one repo share its store, which one process holds.
    validating: Arc<tokio::sync::Mutex<()>>,
}

impl Server {
    pub fn new(claude_home: Option<PathBuf>) -> Server {
        Server { tool_router: Self::tool_router(), claude_home, validating: Arc::new(tokio::sync::Mutex::new(())) }
    }

    fn roots(&self, repo: &str) -> Result<Roots, Error> {
        let repo = Path::new(repo);
        if !repo.is_absolute() {
            return Err(Error::BadInput(format!("repo must be an absolute path, not {}", repo.display())));
        }
        Roots::new(repo, self.claude_home.as_deref())
    }
}

/// A tool's failure as the client sees it: a result with `isError`, text saying what to fix.
fn failed(e: Error) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(memval_proto::display::terminal_safe(&e.to_string()))])
}

fn answer(result: Result<Vec<ContentBlock>, Error>) -> Result<CallToolResult, ErrorData> {
    Ok(match result {
        Ok(content) => CallToolResult::success(content),
        Err(e) => failed(e),
    })
}

/// Runs `work`, reporting progress on `token` (when the client gave one) at the start, every
/// [`PROGRESS_EVERY`] while it runs, and at the end. A notification that cannot be sent does
/// not stop the work: the client may have stopped listening, the answer is still due.
async fn with_progress<F: Future>(
    peer: &Peer<RoleServer>,
    token: Option<ProgressToken>,
    what: &str,
    work: F,
) -> F::Output {
    let Some(token) = token else { return work.await };
    let send = |n: u32, message: String| {
        let peer = peer.clone();
        let param = ProgressNotificationParam::new(token.clone(), f64::from(n)).with_message(message);
        async move {
            let _ = peer.notify_progress(param).await;
        }
    };
    send(0, format!("{what}: started")).await;
    let started = Instant::now();
    let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + PROGRESS_EVERY, PROGRESS_EVERY);
    tokio::pin!(work);
    let mut n = 1;
    loop {
        tokio::select! {
            out = &mut work => {
                send(n, format!("{what}: done in {:.1}s", started.elapsed().as_secs_f64())).await;
                return out;
            }
            _ = tick.tick() => {
                send(n, format!("{what}: running for {}s", started.elapsed().as_secs())).await;
                n += 1;
            }
        }
    }
}

#[tool_router]
impl Server {
    #[tool(
        description = "Check memories (CLAUDE.md, AGENTS.md, a Claude Code memory folder, a GAAI tree, JSON/JSONL, memory.db) against a repo. Returns the JSON report of `memval validate --format json`: every claim's verdict (VALID, STALE with its successor, CONTRADICTED, AMBIGUOUS), confidence and evidence; claims that need a model are listed under not_checked."
    )]
    async fn validate_memories(
        &self,
        Parameters(p): Parameters<ValidateParams>,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let work = async {
            let roots = self.roots(&p.repo)?;
            let memories = roots.resolve(Path::new(&p.memories))?;
            let _one = self.validating.lock().await;
            let floor = p.fail_confidence.unwrap_or(FAIL_CONFIDENCE);
            if floor > 100 {
                return Err(Error::BadInput(format!("fail_confidence is {floor}; give 0 to 100")));
            }
            let (done, warnings) =
                validate_path(&roots.root, &memories, None, p.fail_on.unwrap_or_default(), floor).await?;
            let mut content = vec![ContentBlock::text(memval_report::to_json(&done.report))];
            if !warnings.is_empty() {
                content.push(ContentBlock::text(memval_proto::display::terminal_safe(&warnings.join("\n"))));
            }
            Ok(content)
        };
        answer(with_progress(&peer, meta.get_progress_token(), "validate_memories", work).await)
    }

    #[tool(
        description = "Check one memory before it is saved: its text is validated against the repo as if it were a notes file. Returns the JSON report of `memval validate` on it, then a line per claim that is already false (STALE or CONTRADICTED), or that none is."
    )]
    async fn check_memory(
        &self,
        Parameters(p): Parameters<CheckParams>,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let work = async {
            let roots = self.roots(&p.repo)?;
            if p.text.len() > MAX_MEMORY_BYTES {
                return Err(Error::BadInput(format!(
                    "text is {} bytes, over the {MAX_MEMORY_BYTES}-byte limit",
                    p.text.len()
                )));
            }
            // A scratch folder outside the repo: the memory is not saved anywhere, and the
            // check keeps no history of a text that may never be written.
            let scratch = tempfile::tempdir()
                .map_err(|source| Error::Io { context: "cannot make a scratch folder".into(), source })?;
            let file = scratch.path().join("memory.md");
            std::fs::write(&file, &p.text)
                .map_err(|source| Error::Io { context: "cannot write the scratch memory".into(), source })?;
            let (done, _warnings) =
                validate_path(&roots.root, &file, Some(scratch.path().join("store")), FailOn::Stale, FAIL_CONFIDENCE)
                    .await?;
            let mut found = false_claims(&done.report);
            let low = below_confidence(&done.report);
            let low = match low {
                0 => String::new(),
                n => format!(
                    "\n{n} more STALE or CONTRADICTED at a confidence under {FAIL_CONFIDENCE} (weaker evidence): see the report"
                ),
            };
            for c in &mut found {
                c.source = "memory".into();
            }
            let summary = if found.is_empty() {
                format!(
                    "no claim of this memory is false at confidence {FAIL_CONFIDENCE} or above: {} checked, {} not checked (see not_checked){low}",
                    done.report.run.checked, done.report.run.not_checked
                )
            } else {
                format!(
                    "{} claim(s) of this memory are already false:\n{}{low}",
                    found.len(),
                    describe(&found, usize::MAX)
                )
            };
            Ok(vec![ContentBlock::text(memval_report::to_json(&done.report)), ContentBlock::text(summary)])
        };
        answer(with_progress(&peer, meta.get_progress_token(), "check_memory", work).await)
    }

    #[tool(
        description = "Judge whether a draft recommendation contradicts what the user saved in a Claude Code memory folder (rules only, no model). Returns the JSON of `memval judge draft --format json`: {judge, score, veto, confidence, evidence, reason, not_judged, detail}."
    )]
    async fn judge_draft(&self, Parameters(p): Parameters<JudgeDraftParams>) -> Result<CallToolResult, ErrorData> {
        let work = async {
            let dir = PathBuf::from(&p.memory_dir);
            if !dir.is_absolute() {
                return Err(Error::BadInput(format!("memory_dir must be an absolute path, not {}", dir.display())));
            }
            let text = memval_judge::draft::draft_text(p.draft.into_bytes())?;
            let folder = tokio::task::spawn_blocking(move || memval_judge::draft::read_folder(&dir)).await??;
            let judgement = memval_judge::draft::DraftJudge::new(None).judge(&folder, &text).await;
            Ok(vec![ContentBlock::text(memval_judge::draft::render::json(&judgement))])
        };
        answer(work.await)
    }

    #[tool(
        description = "Reconcile memories with decision records, docs and code and write the dated reconciliation report (REPO/.memval/reconciliation-reports/, or beside a GAAI contexts/ folder). Candidate pairs by `method` (keyword by default; embed or both need the server's MEMVAL_EMBED_MODEL). Returns the JSON of `memval reconcile --format json`, with the report's path in report_path."
    )]
    async fn reconcile(
        &self,
        Parameters(p): Parameters<ReconcileParams>,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let work = async {
            let roots = self.roots(&p.repo)?;
            if p.memories.is_empty() {
                return Err(Error::BadInput("memories is empty: name at least one memory path".into()));
            }
            let memories = p.memories.iter().map(|m| roots.resolve(Path::new(m))).collect::<Result<Vec<_>, _>>()?;
            let method = p.method.unwrap_or_default();
            if let Some(why) = method.model_problem(std::env::var_os("MEMVAL_EMBED_MODEL").as_deref()) {
                return Err(Error::BadInput(why));
            }
            let inputs = memval_reconciler::Inputs {
                repo: roots.root.clone(),
                memories,
                now: chrono::Utc::now().timestamp(),
                pair_cap: memval_reconciler::candidates::Cap::Default,
                per_agent: memval_reconciler::pairs::DEFAULT_PER_AGENT,
                method: method.method(&roots.root),
            };
            let (mut report, dir) =
                tokio::task::spawn_blocking(move || memval_reconciler::reconcile(&inputs)).await??;
            let text = memval_reconciler::report::to_markdown(&report);
            let path = memval_reconciler::naming::write_new(&dir, &report.front.generated_at, &text)?;
            report.report_path = Some(path.display().to_string());
            Ok(vec![ContentBlock::text(memval_reconciler::report::to_json(&report))])
        };
        answer(with_progress(&peer, meta.get_progress_token(), "reconcile", work).await)
    }
}

#[tool_handler]
impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("memval", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "memval checks which of a coding agent's memories are still true of the code. Call check_memory before saving a memory, \
validate_memories on existing memory files, judge_draft before recommending something the user may have ruled out, reconcile for a dated drift report. \
Paths must be absolute and inside the repo (or the repo's Claude Code memory folder).",
            )
    }
}

/// Serves one MCP session on `reader`/`writer` (stdin/stdout for `memval mcp`) until the
/// client closes it or `shutdown` completes; either way the session is closed cleanly.
pub async fn serve<R, W>(
    reader: R,
    writer: W,
    claude_home: Option<PathBuf>,
    shutdown: impl Future<Output = ()>,
) -> Result<(), Error>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    let running = Server::new(claude_home)
        .serve((reader, writer))
        .await
        .map_err(|e| Error::Mcp(format!("the session did not start: {e}")))?;
    let stop = running.cancellation_token();
    let waiting = running.waiting();
    tokio::pin!(waiting);
    tokio::select! {
        quit = &mut waiting => { quit?; }
        () = shutdown => {
            stop.cancel();
            waiting.await?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use memval_reconciler::candidates::{EmbedSetup, Method};

    use super::*;

    fn params(json: &str) -> Result<ReconcileParams, serde_json::Error> {
        serde_json::from_str(json)
    }

    #[test]
    fn reconcile_takes_the_clis_pair_methods() {
        let repo = Path::new("/srv/shop");
        let store = Some(memval_store::default_dir(repo));
        let keyword = params(r#"{"repo": "/srv/shop", "memories": ["contexts"]}"#).unwrap();
        assert_eq!(keyword.method.unwrap_or_default().method(repo), Method::Keyword, "no method: keyword, as the CLI");
        let embed = params(r#"{"repo": "/srv/shop", "memories": ["m"], "method": "embed"}"#).unwrap();
        assert_eq!(
            embed.method.unwrap().method(repo),
            Method::Embed(EmbedSetup { model_dir: None, store_dir: store.clone() })
        );
        let both = params(r#"{"repo": "/srv/shop", "memories": ["m"], "method": "both"}"#).unwrap();
        assert_eq!(both.method.unwrap().method(repo), Method::Both(EmbedSetup { model_dir: None, store_dir: store }));
        let err = params(r#"{"repo": "/srv/shop", "memories": ["m"], "method": "semantic"}"#)
            .expect_err("an unknown method is refused");
        assert!(err.to_string().contains("keyword") && err.to_string().contains("both"), "{err}");
    }

    #[test]
    fn an_embedding_method_without_the_servers_model_says_where_to_set_it() {
        use std::ffi::OsStr;
        for method in [PairMethod::Embed, PairMethod::Both] {
            for env in [None, Some(OsStr::new(""))] {
                let why = method.model_problem(env).expect("no model: refused before reconciling");
                assert!(
                    why.contains("MEMVAL_EMBED_MODEL")
                        && why.contains("MCP configuration")
                        && !why.contains("--embed-model"),
                    "{why}"
                );
            }
            assert_eq!(method.model_problem(Some(OsStr::new("/models/minilm"))), None);
        }
        assert_eq!(PairMethod::Keyword.model_problem(None), None, "keyword needs no model");
    }

    #[test]
    fn the_tool_schema_documents_the_method() {
        let schema = serde_json::to_value(schemars::schema_for!(ReconcileParams)).unwrap();
        let method = &schema["properties"]["method"];
        let text = method.to_string();
        assert!(text.contains("MEMVAL_EMBED_MODEL") && text.contains("REPO/.memval/store"), "{method}");
        let required: Vec<&str> = schema["required"].as_array().unwrap().iter().filter_map(|v| v.as_str()).collect();
        assert_eq!(required, ["repo", "memories"], "method stays optional");
        let choices = schema.to_string();
        for m in ["\"keyword\"", "\"embed\"", "\"both\""] {
            assert!(choices.contains(m), "{m} in {choices}");
        }
    }
}
