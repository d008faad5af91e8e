//! `memval hook claude` as Claude Code runs it: the real binary, one recorded event on stdin
//! (`tests/data/hook/`, one file per event shape), the answer read from exit code, stdout
//! and stderr as Claude Code reads them.

#[allow(dead_code)] // not every helper is used here
mod support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;
use support::{workspace, GitRepo};

/// A project whose `src/cache.rs` became `src/store.rs`, with memory files saying
/// `src/cache.rs` (stale) or `src/store.rs` (sound) as asked.
fn project(stale_claude_md: bool) -> GitRepo {
    let repo = GitRepo::new();
    repo.write("src/cache.rs", "pub struct Cache {\n    shards: Vec<u8>,\n}\n");
    repo.commit("init", "2026-01-01T00:00:00Z");
    repo.git(&["mv", "src/cache.rs", "src/store.rs"]);
    repo.commit("move", "2026-03-01T00:00:00Z");
    let claude = if stale_claude_md { "src/cache.rs" } else { "src/store.rs" };
    repo.write("CLAUDE.md", &format!("# Notes\n\nThe cache lives in `{claude}`.\n"));
    repo.write("AGENTS.md", "# Agents\n\nThe cache lives in `src/store.rs`.\n");
    repo
}

struct Hook {
    /// Claude Code's home for the run (never the user's).
    home: tempfile::TempDir,
}

impl Hook {
    fn new() -> Hook {
        Hook { home: tempfile::tempdir().unwrap() }
    }

    /// The project's Claude memory folder under this run's home, created.
    fn memory_dir(&self, project: &Path) -> PathBuf {
        let slug: String = project
            .canonicalize()
            .unwrap()
            .to_string_lossy()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        let dir = self.home.path().join("projects").join(slug).join("memory");
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn run(&self, fixture: &str, project: &Path) -> Output {
        self.run_with(fixture, project, Path::new("/nonexistent"))
    }

    /// `fixture` with `$PROJECT`, `$MEMORY_DIR` and `$OUTSIDE` filled in, on the hook's stdin.
    fn run_with(&self, fixture: &str, project: &Path, outside: &Path) -> Output {
        let text = std::fs::read_to_string(workspace().join("tests/data/hook").join(fixture)).unwrap();
        let memory = self.memory_dir_path(project).unwrap();
        let payload = text
            .replace("$PROJECT", project.to_str().unwrap())
            .replace("$MEMORY_DIR", memory.to_str().unwrap())
            .replace("$OUTSIDE", outside.to_str().unwrap());
        let mut child = Command::new(env!("CARGO_BIN_EXE_memval"))
            .args(["hook", "claude"])
            .env_remove("CLAUDE_PROJECT_DIR")
            .env("CLAUDE_CONFIG_DIR", self.home.path())
            .env("MEMVAL_CACHE_DIR", self.home.path().join("memval-cache"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(payload.as_bytes()).unwrap();
        child.wait_with_output().unwrap()
    }

    fn memory_dir_path(&self, project: &Path) -> Option<PathBuf> {
        let slug: String = project
            .canonicalize()
            .ok()?
            .to_string_lossy()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        Some(self.home.path().join("projects").join(slug).join("memory"))
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Exit 0, nothing on stdout or stderr: what Claude Code treats as "all fine".
fn assert_silent(out: &Output, what: &str) {
    assert_eq!(
        (out.status.code(), text(&out.stdout), text(&out.stderr)),
        (Some(0), String::new(), String::new()),
        "{what}"
    );
}

/// Exit 0 with `{"decision": "block", "reason"}` on stdout; returns the reason.
fn blocked(out: &Output, what: &str) -> String {
    assert_eq!(out.status.code(), Some(0), "{what}: {}", text(&out.stderr));
    let answer: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{what}: stdout is not JSON ({e}): {}", text(&out.stdout)));
    assert_eq!(answer["decision"], "block", "{what}: {answer}");
    answer["reason"].as_str().unwrap().to_owned()
}

#[test]
fn a_write_of_a_stale_memory_tells_claude_which_claim_is_false() {
    let repo = project(true);
    let reason = blocked(&Hook::new().run("post_tool_use_write.json", repo.dir.path()), "Write of a stale CLAUDE.md");
    assert!(
        reason.contains("CLAUDE.md")
            && reason.contains("src/cache.rs")
            && reason.contains("STALE")
            && reason.contains("src/store.rs"),
        "{reason}"
    );
    assert!(reason.starts_with("memval: 1 claim(s)"), "{reason}");
}

#[test]
fn a_sound_memory_and_an_edit_of_code_are_silent() {
    let repo = project(false);
    let hook = Hook::new();
    assert_silent(&hook.run("post_tool_use_write.json", repo.dir.path()), "Write of a sound CLAUDE.md");
    assert_silent(&hook.run("post_tool_use_edit.json", repo.dir.path()), "Edit of a sound AGENTS.md");
    assert_silent(&hook.run("post_tool_use_multiedit_code.json", repo.dir.path()), "MultiEdit of a code file");
}

#[test]
fn a_memory_in_the_projects_claude_memory_folder_is_checked() {
    let repo = project(false);
    let hook = Hook::new();
    let dir = hook.memory_dir(repo.dir.path());
    std::fs::write(
        dir.join("project_cache.md"),
        "---\nname: cache\ntype: project\n---\nThe cache lives in `src/cache.rs`.\n",
    )
    .unwrap();
    let reason = blocked(&hook.run("post_tool_use_memory_folder.json", repo.dir.path()), "Write in the memory folder");
    assert!(reason.contains("project_cache.md") && reason.contains("src/cache.rs"), "{reason}");
}

#[test]
fn stop_checks_every_memory_file_once_and_never_loops() {
    let stale = project(true);
    let hook = Hook::new();
    let reason = blocked(&hook.run("stop.json", stale.dir.path()), "Stop with a stale CLAUDE.md");
    assert!(
        reason.contains("CLAUDE.md") && reason.contains("src/cache.rs") && !reason.contains("AGENTS.md"),
        "{reason}"
    );
    // Claude is already continuing because of a Stop hook: answering again would loop.
    assert_silent(&hook.run("stop_active.json", stale.dir.path()), "Stop with stop_hook_active");
    let sound = project(false);
    assert_silent(&hook.run("stop.json", sound.dir.path()), "Stop with sound memories");
}

/// A skill is one of Claude's instruction files: a write of one is checked, its bundled
/// files read from its own folder, and Stop checks the `.claude/` folder's skills too.
#[test]
fn a_skill_written_or_left_stale_is_checked() {
    let repo = project(false);
    repo.write(".claude/skills/cache/SKILL.md", "---\nname: cache\ndescription: Work on the cache\n---\nThe cache lives in `src/cache.rs`; run `scripts/check.sh`.\n");
    repo.write(".claude/skills/cache/scripts/check.sh", "#!/bin/sh\n");
    let hook = Hook::new();
    let reason = blocked(&hook.run("post_tool_use_write_skill.json", repo.dir.path()), "Write of a stale skill");
    assert!(
        reason.contains(".claude/skills/cache/SKILL.md")
            && reason.contains("src/cache.rs")
            && reason.contains("src/store.rs"),
        "{reason}"
    );
    assert!(reason.starts_with("memval: 1 claim(s)"), "the bundled script is found in the skill's folder: {reason}");
    let reason = blocked(&hook.run("stop.json", repo.dir.path()), "Stop with a stale skill");
    assert!(reason.contains("SKILL.md") && reason.contains("src/cache.rs"), "{reason}");
}

#[test]
fn malformed_input_is_a_non_blocking_error() {
    let repo = project(true);
    let out = Hook::new().run("malformed.json", repo.dir.path());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty());
    assert!(text(&out.stderr).contains("not a Claude Code hook event"), "{}", text(&out.stderr));
}

#[test]
fn a_memory_file_outside_the_project_is_refused_unread() {
    let repo = project(false);
    // A stale CLAUDE.md in another folder: were it read, the answer would name its claim.
    let elsewhere = tempfile::tempdir().unwrap();
    std::fs::write(elsewhere.path().join("CLAUDE.md"), "The cache lives in `src/cache.rs`.\n").unwrap();
    let out = Hook::new().run_with("post_tool_use_outside.json", repo.dir.path(), elsewhere.path());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    let err = text(&out.stderr);
    assert!(err.contains("refused") && err.contains("outside"), "{err}");
    assert!(!err.contains("src/cache.rs"), "{err}");
}

#[test]
fn a_false_claim_on_weak_evidence_does_not_keep_claude_working() {
    // `Makefile` was deleted; a note naming it by its bare name is CONTRADICTED, but on evidence
    // under the default gate (a bare name may be anyone's file): the report shows it, the hook
    // does not interrupt Claude with it.
    let repo = GitRepo::new();
    repo.write("Makefile", "all:\n\techo all\n");
    repo.write("src/store.rs", "pub struct Store;\n");
    repo.commit("init", "2026-01-01T00:00:00Z");
    repo.git(&["rm", "-q", "Makefile"]);
    repo.commit("drop make", "2026-03-01T00:00:00Z");
    repo.write("CLAUDE.md", "# Notes\n\nThe cache lives in `src/store.rs`; build with the `Makefile`.\n");
    repo.write("AGENTS.md", "# Agents\n\nThe cache lives in `src/store.rs`.\n");
    let store = tempfile::tempdir().unwrap();
    let notes = repo.dir.path().join("CLAUDE.md");
    let report = |floor: &str| {
        let out = support::memval(&[
            "validate",
            "--repo",
            repo.path(),
            "--memories",
            notes.to_str().unwrap(),
            "--store",
            store.path().to_str().unwrap(),
            "--format",
            "json",
            "--fail-confidence",
            floor,
        ]);
        (out.status.code(), serde_json::from_slice::<Value>(&out.stdout).unwrap())
    };
    let (code, json) = report("0");
    assert_eq!(code, Some(1), "counted at any confidence, the claim fails the run: {json}");
    let claims = json["memories"][0]["claims"].as_array().unwrap();
    let makefile = claims.iter().find(|c| c["claim_text"].as_str().unwrap().contains("Makefile")).unwrap();
    assert_eq!(makefile["verdict"], "CONTRADICTED", "{makefile}");
    assert!(makefile["confidence"].as_u64().unwrap() < 80, "{makefile}");
    assert_eq!(report("80").0, Some(0), "under the default gate the run passes");
    assert_silent(
        &Hook::new().run("post_tool_use_write.json", repo.dir.path()),
        "Write of a note with a weak false claim",
    );
}
