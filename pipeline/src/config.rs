//! A service's configuration as `memval serve ROLE --check-config` reports it: the default
//! concurrency of each role, the checkouts and repos named by `--repo-map`, environment
//! variables memval does not read (with the one probably meant), and the resolved settings
//! of one role as printed lines or the problems to fix.
//!
//! The binary gathers what only it can (its clap definitions' environment names, the parsed
//! flags, the telemetry settings) into [`ServeSettings`]; everything decided from them is
//! here. It must never contact NATS, read a repo or open a store: `--check-config` promises
//! that nothing is contacted.
//!
//! The reconciler's pair method is described through
//! `memval_reconciler::candidates::Method::describe`, and its embed model is found by
//! `Method::find_model`, without opening a store.

use std::collections::BTreeSet;
use std::path::PathBuf;

use memval_transport::jetstream::Auth;

/// The roles of `memval serve`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoleKind {
    Extractor,
    Investigator,
    Scorer,
    Ingest,
    Judge,
    Reconciler,
}

impl RoleKind {
    pub fn as_str(self) -> &'static str {
        match self {
            RoleKind::Extractor => "extractor",
            RoleKind::Investigator => "investigator",
            RoleKind::Scorer => "scorer",
            RoleKind::Ingest => "ingest",
            RoleKind::Judge => "judge",
            RoleKind::Reconciler => "reconciler",
        }
    }
}

/// Batches (or requests) a role handles at once: `given`, else one per core for the
/// investigator and the judge, two extractors, one scorer, ingest or reconciler (its
/// reconciliations run one at a time whatever this says).
pub fn concurrency(given: Option<u32>, role: RoleKind) -> usize {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    given.map(|c| c as usize).unwrap_or(match role {
        RoleKind::Investigator | RoleKind::Judge => cores,
        RoleKind::Extractor => 2,
        RoleKind::Scorer | RoleKind::Ingest | RoleKind::Reconciler => 1,
    })
}

/// `--repo-map NAME=PATH` entries as `(name, path)`; paths are not looked at here.
pub fn repo_map(entries: &[String]) -> Result<Vec<(String, PathBuf)>, String> {
    entries
        .iter()
        .map(|entry| {
            entry
                .split_once('=')
                .filter(|(n, p)| !n.is_empty() && !p.is_empty())
                .map(|(n, p)| (n.to_owned(), PathBuf::from(p)))
                .ok_or_else(|| format!("--repo-map {entry:?} is not NAME=PATH"))
        })
        .collect()
}

/// Variables among `vars` with one of `prefixes` that are not in `known`, sorted.
pub fn unknown_env(known: &BTreeSet<String>, vars: impl IntoIterator<Item = String>, prefixes: &[&str]) -> Vec<String> {
    let mut unknown: Vec<String> =
        vars.into_iter().filter(|name| prefixes.iter().any(|p| name.starts_with(p)) && !known.contains(name)).collect();
    unknown.sort();
    unknown.dedup();
    unknown
}

/// The known name nearest to a misspelt one (at most 3 edits away).
pub fn closest<'a>(name: &str, known: &'a BTreeSet<String>) -> Option<&'a str> {
    fn distance(a: &str, b: &str) -> usize {
        let b: Vec<char> = b.chars().collect();
        let mut row: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.chars().enumerate() {
            let mut diagonal = row[0];
            row[0] = i + 1;
            for (j, cb) in b.iter().enumerate() {
                let above = row[j + 1];
                row[j + 1] = (diagonal + usize::from(ca != *cb)).min(row[j] + 1).min(above + 1);
                diagonal = above;
            }
        }
        row[b.len()]
    }
    known.iter().map(|k| (distance(name, k), k)).filter(|(d, _)| *d <= 3).min().map(|(_, k)| k.as_str())
}

/// One role's settings as the binary parsed them, each already resolved or carrying the
/// message of why it could not be.
pub struct ServeSettings {
    pub role: RoleKind,
    pub nats: String,
    /// `check_url`'s verdict on `nats`.
    pub nats_url: Result<(), String>,
    pub auth: Result<Auth, String>,
    pub tls_on: bool,
    /// `--nats-tls-cert` given without `--nats-tls-key` or the other way round.
    pub tls_half_pair: bool,
    pub ack_wait_secs: u64,
    pub max_ack_pending: i64,
    pub concurrency: Option<u32>,
    pub repo: Option<PathBuf>,
    pub repo_map: Vec<String>,
    pub store: Option<PathBuf>,
    pub memory: Option<PathBuf>,
    pub batch_size: u32,
    /// `provider/model at url`, `None` without a model, or why the settings are wrong.
    pub model: Result<Option<String>, String>,
    /// Any `--llm-*` given at all (for the roles that ignore them).
    pub llm_given: bool,
    /// Where model results are kept, as the start-up line says it.
    pub llm_cache: String,
    pub llm_cache_given: bool,
    /// Reconciler: `--schedule`, `--memories`, `--out-dir`, debounce and judge settings.
    pub schedule: Option<String>,
    pub memories: Vec<PathBuf>,
    pub out_dir: Option<PathBuf>,
    pub debounce_events: u32,
    pub debounce_quiet_secs: u64,
    pub pair_judges: bool,
    pub judge_timeout_secs: u64,
    /// Reconciler: `--lease-ttl`, the silence after which a period's claim is taken over.
    pub lease_ttl_secs: u64,
    /// How the reconciler proposes candidate pairs (`--method`).
    pub pair_method: memval_reconciler::candidates::Method,
    /// The traces line, or why the OTEL settings are wrong.
    pub traces: Result<String, String>,
    /// `MEMVAL_*`/`OTEL_*` variables set but not read.
    pub unknown_env: Vec<String>,
}

/// `--check-config`: the lines describing what the role would run with, or every problem.
pub fn check(s: &ServeSettings, known_env: &BTreeSet<String>) -> Result<Vec<String>, Vec<String>> {
    let role = s.role;
    let mut problems = Vec::new();
    for name in &s.unknown_env {
        match closest(name, known_env) {
            Some(near) => problems.push(format!("memval does not read {name} (did you mean {near}?)")),
            None => problems.push(format!("memval does not read {name}")),
        }
    }
    if let Err(e) = &s.nats_url {
        problems.push(e.clone());
    }
    let auth = match &s.auth {
        Ok(Auth::None) => "none".to_owned(),
        Ok(Auth::UserPassword { user, .. }) => format!("user {user}"),
        Ok(Auth::Token(_)) => "token".to_owned(),
        Ok(Auth::NKeySeed(_)) => "nkey".to_owned(),
        Ok(Auth::CredsFile(path)) => format!("creds {}", path.display()),
        Err(e) => {
            problems.push(e.clone());
            "invalid".to_owned()
        }
    };
    if s.tls_half_pair {
        problems.push("--nats-tls-cert and --nats-tls-key go together".to_owned());
    }
    let mut lines = vec![format!(
        "nats:         {} (auth {auth}, tls {}, ack wait {}s, max ack pending {})",
        s.nats,
        if s.tls_on { "on" } else { "if offered" },
        s.ack_wait_secs,
        s.max_ack_pending
    )];
    lines.push(format!("concurrency:  {}", concurrency(s.concurrency, role)));
    // Settings another role reads are ignored, as when serving; say so.
    let mut notes = Vec::new();
    let mut unused = |flag: &str, set: bool| {
        if set {
            notes.push(format!("note: {flag} is ignored by the {} role", role.as_str()));
        }
    };
    match role {
        RoleKind::Investigator => match repo_map(&s.repo_map) {
            Ok(named) if named.is_empty() && s.repo.is_none() => {
                problems.push("the investigator needs a checkout: pass --repo PATH and/or --repo-map NAME=PATH (MEMVAL_REPO, MEMVAL_REPO_MAP)".into())
            }
            Ok(named) => {
                if let Some(path) = &s.repo {
                    lines.push(format!("repo:         {} (runs of any repo without a --repo-map entry)", path.display()));
                }
                for (name, path) in named {
                    lines.push(format!("repo map:     {name} = {}", path.display()));
                }
            }
            Err(e) => problems.push(e),
        },
        RoleKind::Reconciler => {
            match repo_map(&s.repo_map) {
                Ok(named) if named.is_empty() => problems.push("the reconciler needs --repo-map NAME=PATH (MEMVAL_REPO_MAP): the repos it reconciles".into()),
                Ok(named) => {
                    for (name, path) in named {
                        lines.push(format!("repo map:     {name} = {} (requests on {})", path.display(), memval_proto::subjects::for_run(memval_proto::subjects::RECONCILE, &name)));
                    }
                }
                Err(e) => problems.push(e),
            }
            match s.schedule.as_deref().map(memval_reconciler::Schedule::parse) {
                Some(Ok(schedule)) => lines.push(format!("schedule:     {}", schedule.expression())),
                Some(Err(e)) => problems.push(e.to_string()),
                None => problems.push("the reconciler needs --schedule \"CRON\" (MEMVAL_SCHEDULE)".into()),
            }
            let memories: Vec<String> = reconciler_memories(&s.memories).iter().map(|m| m.display().to_string()).collect();
            lines.push(format!("memories:     {} (in each repo)", memories.join(", ")));
            lines.push(format!(
                "reports:      {}",
                s.out_dir.as_ref().map_or("beside each repo's GAAI contexts/ folder, else REPO/.memval/reconciliation-reports".to_owned(), |d| d.display().to_string())
            ));
            lines.push(format!("ingest:       after {} events or {}s quiet", s.debounce_events, s.debounce_quiet_secs));
            lines.push(if s.pair_judges {
                format!("pair judges:  memval serve judge over MEMVAL_PAIRS, {}s for their judgements", s.judge_timeout_secs)
            } else {
                "pair judges:  none (candidates not judged; --pair-judges sends them to `memval serve judge`)".to_owned()
            });
            lines.push(format!(
                "leases:       a period whose claimant is silent for {}s is taken over (claimants renew every {}s)",
                s.lease_ttl_secs,
                s.lease_ttl_secs as f64 / 4.0
            ));
            lines.push(format!("pairs:        {}", s.pair_method.describe()));
            if let Err(e) = s.pair_method.find_model() {
                problems.push(e.to_string());
            }
        }
        RoleKind::Scorer => {
            let dir = s.store.clone().unwrap_or_else(|| PathBuf::from(".memval").join("store"));
            lines.push(format!("store:        {}", dir.display()));
        }
        RoleKind::Ingest => lines.push(format!("batch size:   {} memories", s.batch_size)),
        RoleKind::Judge => {
            match &s.memory {
                Some(dir) => lines.push(format!("memory:       {} (subject {})", dir.display(), memval_proto::subjects::JUDGE_DRAFT)),
                None => lines.push("memory:       none (no draft judgements; --memory DIR answers them)".to_owned()),
            }
            if matches!(s.model, Ok(None)) && s.memory.is_none() {
                problems.push("the judge has nothing to serve: configure a model (--llm-*) to judge pair batches and/or --memory DIR (MEMVAL_MEMORY) for draft judgements".into());
            }
        }
        RoleKind::Extractor => {}
    }
    if role != RoleKind::Judge {
        unused("--memory (MEMVAL_MEMORY)", s.memory.is_some());
    }
    if !matches!(role, RoleKind::Investigator | RoleKind::Reconciler) {
        unused("--repo-map (MEMVAL_REPO_MAP)", !s.repo_map.is_empty());
    }
    if role != RoleKind::Investigator {
        unused("--repo (MEMVAL_REPO)", s.repo.is_some());
    }
    if role != RoleKind::Scorer {
        unused("--store (MEMVAL_STORE)", s.store.is_some());
    }
    if role != RoleKind::Reconciler {
        unused("--schedule (MEMVAL_SCHEDULE)", s.schedule.is_some());
        unused("--out-dir (MEMVAL_OUT_DIR)", s.out_dir.is_some());
        unused("--memories (MEMVAL_MEMORIES)", !s.memories.is_empty());
    }
    if matches!(role, RoleKind::Extractor | RoleKind::Investigator | RoleKind::Judge) {
        match &s.model {
            Ok(Some(model)) => {
                lines.push(format!("model:        {model}"));
                lines.push(format!("llm cache:    {}", s.llm_cache));
            }
            Ok(None) => lines.push(format!(
                "model:        none ({})",
                match role {
                    RoleKind::Investigator => "Tier B claims stay not_checked",
                    RoleKind::Judge => "veto rules only for drafts; no pair batches taken",
                    _ => "rule extraction only",
                }
            )),
            Err(e) => problems.push(e.clone()),
        }
    } else {
        unused("--llm-*", s.llm_given);
        unused("--llm-cache (MEMVAL_LLM_CACHE)", s.llm_cache_given);
    }
    match &s.traces {
        Ok(line) => lines.push(format!("traces:       {line}")),
        Err(e) => problems.push(e.clone()),
    }
    if problems.is_empty() {
        lines.extend(notes);
        Ok(lines)
    } else {
        Err(problems)
    }
}

/// The reconciler's memories in each repo: those given, else the GAAI `contexts` folder.
pub fn reconciler_memories(given: &[PathBuf]) -> Vec<PathBuf> {
    if given.is_empty() {
        vec![PathBuf::from("contexts")]
    } else {
        given.to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(role: RoleKind) -> ServeSettings {
        ServeSettings {
            role,
            nats: "nats://127.0.0.1:4222".into(),
            nats_url: Ok(()),
            auth: Ok(Auth::None),
            tls_on: false,
            tls_half_pair: false,
            ack_wait_secs: 30,
            max_ack_pending: 1000,
            concurrency: None,
            repo: None,
            repo_map: Vec::new(),
            store: None,
            memory: None,
            batch_size: 50,
            model: Ok(None),
            llm_given: false,
            llm_cache: "none".into(),
            llm_cache_given: false,
            schedule: None,
            memories: Vec::new(),
            out_dir: None,
            debounce_events: 10,
            debounce_quiet_secs: 60,
            pair_judges: false,
            judge_timeout_secs: 600,
            lease_ttl_secs: 60,
            pair_method: memval_reconciler::candidates::Method::Keyword,
            traces: Ok("off".into()),
            unknown_env: Vec::new(),
        }
    }

    fn known() -> BTreeSet<String> {
        ["MEMVAL_REPO_MAP", "MEMVAL_LOG", "MEMVAL_SCHEDULE", "OTEL_EXPORTER_OTLP_ENDPOINT"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    #[test]
    fn a_misspelt_variable_is_matched_to_the_one_meant() {
        let known = known();
        assert_eq!(closest("MEMVAL_REPOMAP", &known), Some("MEMVAL_REPO_MAP"));
        assert_eq!(closest("OTEL_EXPORTER_OTLP_ENDPIONT", &known), Some("OTEL_EXPORTER_OTLP_ENDPOINT"));
        assert_eq!(closest("MEMVAL_SOMETHING_ELSE", &known), None);
        let vars = ["MEMVAL_LOG", "MEMVAL_SCHEDUEL", "PATH", "OTEL_X"].map(String::from);
        assert_eq!(unknown_env(&known, vars.clone(), &["MEMVAL_"]), ["MEMVAL_SCHEDUEL"]);
        assert_eq!(unknown_env(&known, vars, &["MEMVAL_", "OTEL_"]), ["MEMVAL_SCHEDUEL", "OTEL_X"]);
    }

    #[test]
    fn the_reconciler_needs_repos_and_a_valid_schedule() {
        let mut s = settings(RoleKind::Reconciler);
        let problems = check(&s, &known()).unwrap_err().join("; ");
        assert!(problems.contains("--repo-map NAME=PATH") && problems.contains("--schedule"), "{problems}");
        s.repo_map = vec!["shop=/srv/shop".into()];
        s.schedule = Some("61 * * * *".into());
        let problems = check(&s, &known()).unwrap_err().join("; ");
        assert!(problems.starts_with("bad --schedule \"61 * * * *\""), "{problems}");
        s.schedule = Some("0 */5 * * * *".into());
        s.memory = Some("/mem".into());
        let lines = check(&s, &known()).unwrap().join("\n");
        assert!(lines.contains("repo map:     shop = /srv/shop (requests on memval.v1.reconcile.shop)"), "{lines}");
        assert!(
            lines.contains("memories:     contexts (in each repo)") && lines.contains("pair judges:  none"),
            "{lines}"
        );
        assert!(lines.contains("note: --memory (MEMVAL_MEMORY) is ignored by the reconciler role"), "{lines}");
        assert!(lines.contains("pairs:        keyword (shared words"), "the pair method is shown: {lines}");
    }

    #[test]
    fn the_reconcilers_embed_method_shows_its_model_and_cache_and_needs_the_model() {
        use memval_reconciler::candidates::{EmbedSetup, Method};
        let mut s = settings(RoleKind::Reconciler);
        s.repo_map = vec!["shop=/srv/shop".into()];
        s.schedule = Some("0 */5 * * * *".into());
        let missing = std::path::PathBuf::from("/nonexistent/minilm");
        s.pair_method =
            Method::Both(EmbedSetup { model_dir: Some(missing), store_dir: Some("/var/memval/store".into()) });
        let problems = check(&s, &known()).unwrap_err().join("; ");
        assert!(
            problems.contains("/nonexistent/minilm"),
            "a missing model is a problem of the check, not of the first run: {problems}"
        );
        let model = tempfile::tempdir().unwrap();
        for name in ["model.safetensors", "config.json", "tokenizer.json"] {
            std::fs::write(model.path().join(name), "{}").unwrap();
        }
        s.pair_method = Method::Embed(EmbedSetup { model_dir: Some(model.path().to_path_buf()), store_dir: None });
        let lines = check(&s, &known()).unwrap().join("\n");
        let want = format!(
            "pairs:        embed, model {}, embeddings cached in each repo's REPO/.memval/store",
            model.path().display()
        );
        assert!(lines.contains(&want), "{lines}");
    }

    #[test]
    fn the_judge_needs_a_model_or_a_memory_folder() {
        let mut s = settings(RoleKind::Judge);
        assert!(check(&s, &known()).unwrap_err()[0].contains("nothing to serve"));
        s.model = Ok(Some("openai/m at http://x/v1".into()));
        let lines = check(&s, &known()).unwrap().join("\n");
        assert!(lines.contains("model:        openai/m") && lines.contains("memory:       none"), "{lines}");
        s.model = Ok(None);
        s.memory = Some("/mem".into());
        assert!(check(&s, &known()).is_ok());
        s.unknown_env = vec!["MEMVAL_REPOMAP".into()];
        assert_eq!(
            check(&s, &known()).unwrap_err(),
            ["memval does not read MEMVAL_REPOMAP (did you mean MEMVAL_REPO_MAP?)"]
        );
    }

    #[test]
    fn repo_map_entries_are_name_equals_path() {
        assert_eq!(
            repo_map(&["a=/x".into(), "b=y=z".into()]).unwrap(),
            [("a".into(), PathBuf::from("/x")), ("b".into(), PathBuf::from("y=z"))]
        );
        assert_eq!(repo_map(&["=x".into()]).unwrap_err(), "--repo-map \"=x\" is not NAME=PATH");
        assert!(repo_map(&["x".into()]).is_err());
    }
}
