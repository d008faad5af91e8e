//! `memval hook claude`: Claude Code's hook protocol. Claude Code runs the hook with one
//! JSON event on stdin; this module decides the answer:
//!
//! - `PostToolUse` of `Write`, `Edit` or `MultiEdit` on a memory file (an agent tool's
//!   instruction file of the project: `CLAUDE.md`, `AGENTS.md`, `.claude/`'s commands,
//!   agents, rules and skills, `.github/copilot-instructions.md`, `.cursor/rules/*.mdc`, ...;
//!   or a Markdown file in the project's Claude memory folder): that file is validated
//!   against the project.
//! - `Stop`: the project's memory files are validated, unless `stop_hook_active` says Claude
//!   is already continuing because of a Stop hook (answering again would loop).
//!
//! The answer follows Claude Code's hook contract: exit 0 with no output when every checked
//! claim holds (or the event is not about a memory); exit 0 with `{"decision": "block",
//! "reason": ...}` on stdout when claims are false, which shows the reason to Claude (after
//! an edit it cannot be undone, so "block" means "tell Claude"; on Stop it keeps Claude
//! working to fix them); exit 1 with a message on stderr for input it cannot use or a path it
//! refuses (a non-blocking error the user sees). Exit 2 is never used: it would feed an
//! internal error to Claude as if it were a finding.
//!
//! Never: read a file outside the project or its Claude memory folder, validate with a
//! model, or write into the project. Checks run in a store kept in the user's cache folder for
//! the project (`run::kept_store`), so a re-check after the next edit reuses its verdicts and
//! history; a call that finds that store held by another (parallel hook calls) or unusable
//! checks in a throwaway store instead, never waiting on a lock.
//!
//! Only a STALE or CONTRADICTED verdict at confidence 80 or above (`memval validate`'s default
//! `--fail-confidence`) is named to Claude: one on weaker evidence is left to `memval validate`,
//! so the hook does not keep an agent working on what may be a false alarm.
//!
//! A memory file is told by `memval_proto::tools::notes_agent` (an agent tool's instruction file,
//! not docs). On Stop the project's memory files are the root's named ones, `.claude/` as one
//! notes folder when it holds commands, agents, rules or skills, and the memory folder.

use std::path::{Path, PathBuf};

use memval_report::FAIL_CONFIDENCE;
use serde::Deserialize;

use crate::confine::Roots;
use crate::run::{describe, false_claims, validate_path, FalseClaim};
use crate::Error;

/// The most payload the hook reads; an event is a few KB (a Write's content included).
pub const MAX_PAYLOAD_BYTES: usize = 16 * 1024 * 1024;
/// False claims named one by one in a message; more are counted.
const MAX_LISTED: usize = 10;

/// What the hook prints and how it exits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub code: u8,
    pub stdout: String,
    pub stderr: String,
}

impl Answer {
    fn silent() -> Answer {
        Answer { code: 0, stdout: String::new(), stderr: String::new() }
    }

    fn block(reason: String) -> Answer {
        let doc = serde_json::json!({"decision": "block", "reason": reason});
        Answer { code: 0, stdout: format!("{doc}\n"), stderr: String::new() }
    }

    fn error(e: &Error) -> Answer {
        Answer {
            code: 1,
            stdout: String::new(),
            stderr: memval_proto::display::terminal_safe(&format!("memval hook: {e}\n")),
        }
    }
}

/// Where the hook looks: the project (`$CLAUDE_PROJECT_DIR`, else the payload's `cwd`) and
/// Claude Code's home (for the project's memory folder).
#[derive(Debug, Clone, Default)]
pub struct HookEnv {
    pub project_dir: Option<PathBuf>,
    pub claude_home: Option<PathBuf>,
}

impl HookEnv {
    /// From the environment Claude Code gives a hook.
    pub fn from_env() -> HookEnv {
        HookEnv {
            project_dir: std::env::var_os("CLAUDE_PROJECT_DIR").map(PathBuf::from),
            claude_home: crate::confine::claude_home(),
        }
    }
}

#[derive(Debug, Deserialize)]
struct Event {
    hook_event_name: String,
    #[serde(default)]
    cwd: Option<PathBuf>,
    #[serde(default)]
    tool_name: Option<String>,
    #[serde(default)]
    tool_input: Option<ToolInput>,
    #[serde(default)]
    stop_hook_active: bool,
}

#[derive(Debug, Deserialize)]
struct ToolInput {
    #[serde(default)]
    file_path: Option<PathBuf>,
}

/// Answers one Claude Code hook event (`payload` is stdin, whole).
pub async fn claude(payload: &[u8], env: &HookEnv) -> Answer {
    match answer(payload, env).await {
        Ok(a) => a,
        Err(e) => Answer::error(&e),
    }
}

async fn answer(payload: &[u8], env: &HookEnv) -> Result<Answer, Error> {
    if payload.len() > MAX_PAYLOAD_BYTES {
        return Err(Error::BadInput(format!("hook payload over {MAX_PAYLOAD_BYTES} bytes")));
    }
    let event: Event = serde_json::from_slice(payload)
        .map_err(|e| Error::BadInput(format!("stdin is not a Claude Code hook event: {e}")))?;
    let project =
        env.project_dir.clone().or(event.cwd.clone()).ok_or_else(|| {
            Error::BadInput("no project: neither CLAUDE_PROJECT_DIR nor the event's cwd is set".into())
        })?;
    let roots = Roots::new(&project, env.claude_home.as_deref())?;
    match event.hook_event_name.as_str() {
        "PostToolUse" => {
            if !matches!(event.tool_name.as_deref(), Some("Write" | "Edit" | "MultiEdit")) {
                return Ok(Answer::silent());
            }
            let Some(file) = event.tool_input.and_then(|t| t.file_path) else {
                return Err(Error::BadInput(format!(
                    "{} event without tool_input.file_path",
                    event.tool_name.unwrap_or_default()
                )));
            };
            if !is_memory_name(&file) {
                return Ok(Answer::silent());
            }
            let resolved = match roots.resolve(&file) {
                Ok(p) => p,
                // Markdown elsewhere on the machine is none of memval's business; a file named
                // as a memory outside the project is refused (and said so), never read.
                Err(Error::Refused(_)) if !is_named_memory(&file) => return Ok(Answer::silent()),
                Err(e) => return Err(e),
            };
            if !is_memory_file(&roots, &resolved) {
                return Ok(Answer::silent());
            }
            let found = check(&roots.root, &[resolved]).await?;
            Ok(if found.is_empty() {
                Answer::silent()
            } else {
                Answer::block(format!(
                    "memval: {} claim(s) in the memory just written are not true of the code:\n{}Correct or remove them.",
                    found.len(),
                    describe(&found, MAX_LISTED)
                ))
            })
        }
        "Stop" | "SubagentStop" => {
            if event.stop_hook_active {
                return Ok(Answer::silent());
            }
            let files = memory_files(&roots);
            if files.is_empty() {
                return Ok(Answer::silent());
            }
            let found = check(&roots.root, &files).await?;
            Ok(if found.is_empty() {
                Answer::silent()
            } else {
                Answer::block(format!(
                    "memval: {} claim(s) in this project's memory files are not true of the code:\n{}Correct or remove them before finishing.",
                    found.len(),
                    describe(&found, MAX_LISTED)
                ))
            })
        }
        // Another event routed here by a broad matcher: nothing about memories to check.
        _ => Ok(Answer::silent()),
    }
}

/// Validates each file and returns the false claims of all of them. The checks run in the
/// project's kept store in the user's cache folder ([`crate::run::kept_store`]), so a
/// re-check after an edit reuses what the last one computed; when that store cannot be used
/// (another hook call holds it, or it is unreadable) they run in a throwaway store.
async fn check(root: &Path, files: &[PathBuf]) -> Result<Vec<FalseClaim>, Error> {
    if let Some(kept) = crate::run::kept_store(root) {
        match check_in(root, files, &kept).await {
            Ok(found) => return Ok(found),
            Err(e) => tracing::info!(error = %e, "the kept store cannot be used; checking in a throwaway store"),
        }
    }
    let store =
        tempfile::tempdir().map_err(|source| Error::Io { context: "cannot make a temporary store".into(), source })?;
    check_in(root, files, &store.path().join("store")).await
}

async fn check_in(root: &Path, files: &[PathBuf], store: &Path) -> Result<Vec<FalseClaim>, Error> {
    let mut found = Vec::new();
    for file in files {
        let (done, _warnings) =
            validate_path(root, file, Some(store.to_path_buf()), memval_report::FailOn::Stale, FAIL_CONFIDENCE).await?;
        let mut claims = false_claims(&done.report);
        // Sources are written relative to the project where they are inside it.
        for c in &mut claims {
            if let Ok(rel) = Path::new(&c.source).strip_prefix(root) {
                c.source = rel.display().to_string();
            }
        }
        found.extend(claims);
    }
    Ok(found)
}

/// Whether the file name alone makes `path` a memory memval checks (before any file system
/// access, so an edit of any other file costs nothing).
fn is_memory_name(path: &Path) -> bool {
    is_named_memory(path)
        || path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(".md") || n.ends_with(".mdc"))
}

/// A file whose name says it is an agent's memory wherever it is (`CLAUDE.md`, `AGENTS.md`,
/// `.cursorrules`, ...: `memval_proto::tools::TOOL_FILES`), or Copilot's instructions.
fn is_named_memory(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name == "copilot-instructions.md" || memval_proto::tools::TOOL_FILES.iter().any(|(n, _)| *n == name)
}

/// Whether resolved `path` is one of the memory files: an agent tool's instruction file of
/// the project (`memval_proto::tools::notes_agent`: `CLAUDE.md` anywhere, `.claude/`'s
/// commands, agents, rules and skills, `.github/copilot-instructions.md`, `.cursor/rules/`,
/// ...; not READMEs and docs), or any Markdown file in the Claude memory folder.
fn is_memory_file(roots: &Roots, path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if roots.memory_dir.as_deref().is_some_and(|m| path.starts_with(m)) {
        return name.ends_with(".md");
    }
    instruction_file(&roots.root, path)
}

/// `path` (resolved, inside `root`) is an agent tool's instruction file, not docs.
fn instruction_file(root: &Path, path: &Path) -> bool {
    let Ok(rel) = path.strip_prefix(root) else { return false };
    let parts: Vec<&str> = rel.iter().filter_map(|c| c.to_str()).collect();
    memval_proto::tools::notes_agent(&parts).is_some_and(|agent| agent != "docs")
}

/// Folders of `.claude/` walked for instruction files on Stop, and how deep (a skill's
/// SKILL.md is two down: `skills/<name>/SKILL.md`; nested command folders one more).
const CLAUDE_DIRS: &[&str] = &["commands", "agents", "rules", "skills"];
const CLAUDE_DEPTH: usize = 4;

/// Whether `.claude/` holds an instruction file (links are not followed, as memval's own walk
/// of a notes folder follows none).
fn claude_folder_has_instructions(root: &Path) -> bool {
    fn walk(root: &Path, dir: &Path, depth: usize) -> bool {
        let Ok(entries) = std::fs::read_dir(dir) else { return false };
        entries.flatten().any(|e| {
            let Ok(ty) = e.file_type() else { return false };
            if ty.is_dir() {
                depth > 0 && walk(root, &e.path(), depth - 1)
            } else {
                ty.is_file() && instruction_file(root, &e.path())
            }
        })
    }
    let claude = root.join(".claude");
    CLAUDE_DIRS.iter().any(|d| walk(root, &claude.join(d), CLAUDE_DEPTH))
}

/// The project's memory files checked on Stop: the root's `CLAUDE.md`, `CLAUDE.local.md`,
/// `AGENTS.md`, `.github/copilot-instructions.md`; `.claude/` as a notes folder when it holds
/// commands, agents, rules or skills (one run for all of them, `.claude/CLAUDE.md` included),
/// else `.claude/CLAUDE.md`; and the Claude memory folder (one memory per file), each when
/// present.
fn memory_files(roots: &Roots) -> Vec<PathBuf> {
    let claude = if claude_folder_has_instructions(&roots.root) { ".claude" } else { ".claude/CLAUDE.md" };
    let mut files: Vec<PathBuf> =
        ["CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", claude, ".github/copilot-instructions.md"]
            .iter()
            .filter_map(|rel| roots.resolve(Path::new(rel)).ok())
            .filter(|p| p.is_file() || (p.is_dir() && p.ends_with(".claude")))
            .collect();
    files.extend(roots.memory_dir.clone());
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_names() {
        for (name, memory) in [
            ("CLAUDE.md", true),
            ("docs/AGENTS.md", true),
            ("notes.md", true),
            (".cursorrules", true),
            ("rules/api.mdc", true),
            ("src/main.rs", false),
            ("CLAUDE.md.bak", false),
        ] {
            assert_eq!(is_memory_name(Path::new(name)), memory, "{name}");
        }
    }

    #[test]
    fn memory_files_by_place() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        let repo = dir.path().join("repo");
        std::fs::create_dir_all(repo.join(".github")).unwrap();
        let memory = crate::confine::claude_memory_dir(&home, &repo.canonicalize().unwrap());
        std::fs::create_dir_all(&memory).unwrap();
        let roots = Roots::new(&repo, Some(&home)).unwrap();
        let root = roots.root.clone();
        let memory = memory.canonicalize().unwrap();
        for (path, want) in [
            (root.join("CLAUDE.md"), true),
            (root.join("sub/AGENTS.md"), true),
            (root.join(".github/copilot-instructions.md"), true),
            (root.join("copilot-instructions.md"), false),
            (root.join("README.md"), false),
            (root.join(".claude/skills/release/SKILL.md"), true),
            (root.join(".claude/commands/ship.md"), true),
            (root.join(".claude/skills/release/notes.md"), false),
            (root.join(".cursor/rules/api.mdc"), true),
            (root.join("docs/guide.md"), false),
            (memory.join("feedback_tests.md"), true),
        ] {
            assert_eq!(is_memory_file(&roots, &path), want, "{}", path.display());
        }
    }

    #[test]
    fn on_stop_the_claude_folder_is_one_notes_folder_when_it_holds_instructions() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        std::fs::create_dir_all(repo.join(".claude")).unwrap();
        std::fs::write(repo.join("CLAUDE.md"), "notes\n").unwrap();
        std::fs::write(repo.join(".claude/CLAUDE.md"), "notes\n").unwrap();
        std::fs::write(repo.join(".claude/settings.json"), "{}\n").unwrap();
        let roots = Roots::new(&repo, None).unwrap();
        let rel = |files: Vec<PathBuf>| {
            files.iter().map(|f| f.strip_prefix(&roots.root).unwrap().display().to_string()).collect::<Vec<_>>()
        };
        assert_eq!(rel(memory_files(&roots)), ["CLAUDE.md", ".claude/CLAUDE.md"]);
        std::fs::create_dir_all(repo.join(".claude/skills/release")).unwrap();
        std::fs::write(repo.join(".claude/skills/release/SKILL.md"), "Run scripts/bump.sh\n").unwrap();
        assert_eq!(rel(memory_files(&roots)), ["CLAUDE.md", ".claude"]);
    }
}
