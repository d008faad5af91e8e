//! Verdicts that rest on git history, on histories real repositories have: moves spread over
//! commits, plain deletions beside a file of the same name, shallow clones and partial
//! clones with missing blobs (issue 9). Each case builds a small repo with the real `git`
//! binary and runs the real `memval`.

#[allow(dead_code)]
mod support;

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use support::{run_json, GitRepo};

const BEFORE: &str = "2026-01-01T00:00:00Z";
const MEMORY: &str = "2026-02-01T00:00:00Z";
const LATER: &str = "2026-03-01T00:00:00Z";
const LATEST: &str = "2026-04-01T00:00:00Z";

/// A JSONL memory dated between the first commit and the changes.
fn memory_file(dir: &Path, content: &str) -> String {
    let path = dir.join("m.jsonl");
    let m = serde_json::json!({"id": "m1", "agent": "a", "content": content, "tier": 1, "type": "memory", "created_at": MEMORY});
    std::fs::write(&path, format!("{m}\n")).unwrap();
    path.display().to_string()
}

/// The one claim of the report about `path` (as a file claim).
fn file_claim<'a>(report: &'a Value, path: &str) -> &'a Value {
    report["memories"][0]["claims"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["claim_type"] == "file_reference" && c["code_refs"][0]["path"] == path)
        .unwrap_or_else(|| panic!("no file claim for {path}: {report:#}"))
}

fn code(n: usize) -> String {
    (0..n).map(|i| format!("pub fn f{i}() -> u32 {{ {i} }}\n")).collect()
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git").arg("-C").arg(dir).args(args).env("GIT_CONFIG_GLOBAL", "/dev/null").output().unwrap();
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_move_spread_over_commits_is_stale_with_its_successor() {
    // copied (with edits) in one commit, the original deleted in a later one: git sees an
    // addition and a deletion, never a rename
    let repo = GitRepo::new();
    repo.write("src/a/util.rs", &code(30));
    repo.write("src/main.rs", "fn main() {}\n");
    repo.commit("start", BEFORE);
    repo.write("src/b/util.rs", &(code(30).replace("u32", "u64") + "pub fn extra() {}\n"));
    repo.commit("copy util", LATER);
    std::fs::remove_file(repo.dir.path().join("src/a/util.rs")).unwrap();
    repo.commit("drop the old util", LATEST);
    let tmp = tempfile::tempdir().unwrap();
    let report = run_json(
        repo.dir.path(),
        &memory_file(tmp.path(), "Helpers live in `src/a/util.rs`."),
        &tmp.path().join("store"),
    );
    let c = file_claim(&report, "src/a/util.rs");
    assert_eq!(c["verdict"], "STALE", "{c:#}");
    assert_eq!(c["successor"], "src/b/util.rs", "{c:#}");
    // from history (the addition), not from a name match
    assert!(c["evidence"].as_str().unwrap().contains("was added as src/b/util.rs"), "{c:#}");
}

#[test]
fn a_plain_deletion_is_not_given_a_successor_by_name_alone() {
    // another `config.rs` existed all along; the deleted one did not move there
    let repo = GitRepo::new();
    repo.write("src/net/config.rs", &code(10));
    repo.write("tools/config.rs", &code(5));
    repo.commit("start", BEFORE);
    std::fs::remove_file(repo.dir.path().join("src/net/config.rs")).unwrap();
    repo.commit("remove net config", LATER);
    let tmp = tempfile::tempdir().unwrap();
    let report = run_json(
        repo.dir.path(),
        &memory_file(tmp.path(), "Network settings: `src/net/config.rs`."),
        &tmp.path().join("store"),
    );
    let c = file_claim(&report, "src/net/config.rs");
    assert_eq!(c["verdict"], "CONTRADICTED", "{c:#}");
    assert!(c["successor"].is_null(), "{c:#}");
}

#[test]
fn a_shallow_clone_says_its_history_is_incomplete() {
    let origin = GitRepo::new();
    origin.write("src/old_name.rs", &code(20));
    origin.commit("start", BEFORE);
    std::fs::remove_file(origin.dir.path().join("src/old_name.rs")).unwrap();
    origin.commit("remove", LATER);
    origin.write("README.md", "x\n");
    origin.commit("docs", LATEST);
    let tmp = tempfile::tempdir().unwrap();
    let clone = tmp.path().join("clone");
    let url = format!("file://{}", origin.path());
    let out = Command::new("git")
        .args(["clone", "-q", "--depth", "1", &url])
        .arg(&clone)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(git(&clone, &["rev-parse", "--is-shallow-repository"]).trim(), "true");
    let report =
        run_json(&clone, &memory_file(tmp.path(), "The loader is `src/old_name.rs`."), &tmp.path().join("store"));
    let c = file_claim(&report, "src/old_name.rs");
    // the deletion is behind the graft: whatever the verdict, it must not claim certainty
    // it does not have, and it must say why
    assert!(c["evidence"].as_str().unwrap().contains("shallow clone"), "{c:#}");
    assert!(c["confidence"].as_u64().unwrap() <= 70, "{c:#}");
}

/// An offline blobless clone of a repo whose engine moved and was reworked in one commit:
/// `git log -M` fails there for want of the old blob. Returns the clone's temp dir and path.
fn offline_partial_clone_of_a_moved_engine() -> (tempfile::TempDir, std::path::PathBuf) {
    let origin = GitRepo::new();
    origin.write("src/engine.rs", &code(40));
    origin.commit("start", BEFORE);
    std::fs::remove_file(origin.dir.path().join("src/engine.rs")).unwrap();
    origin.write("src/core/engine.rs", &(code(40).replace("u32", "i64") + "pub fn more() {}\n"));
    origin.commit("move and rework the engine", LATER);
    origin.git(&["config", "uploadpack.allowFilter", "true"]);
    let tmp = tempfile::tempdir().unwrap();
    let clone = tmp.path().join("clone");
    let url = format!("file://{}", origin.path());
    let out = Command::new("git")
        .args(["clone", "-q", "--filter=blob:none", &url])
        .arg(&clone)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // cut the clone off from its origin, as a real offline machine is
    std::fs::remove_dir_all(origin.dir.path()).unwrap();
    (tmp, clone)
}

#[test]
fn a_partial_clone_with_missing_blobs_still_follows_a_move() {
    // a rename with edits needs the old blob to be detected; without it, `git log -M` fails,
    // memval reads the history again without rename detection and says so
    let (tmp, clone) = offline_partial_clone_of_a_moved_engine();
    let report =
        run_json(&clone, &memory_file(tmp.path(), "The engine is `src/engine.rs`."), &tmp.path().join("store"));
    let c = file_claim(&report, "src/engine.rs");
    assert_eq!(c["verdict"], "STALE", "{c:#}");
    assert_eq!(c["successor"], "src/core/engine.rs", "{c:#}");
    assert!(c["evidence"].as_str().unwrap().contains("without rename detection"), "{c:#}");
}

#[test]
fn a_partial_clone_still_knows_a_path_was_never_the_repositorys() {
    // rename detection fails for want of blobs, but the log read again without it lists every
    // path each commit touched: a path it never shows never was, as with whole history (drift
    // needs a past), not "deleted behind the clone's edge"
    let (tmp, clone) = offline_partial_clone_of_a_moved_engine();
    let memory =
        memory_file(tmp.path(), "The engine is `src/engine.rs`; put your settings in `conf/local/settings.toml`.");
    let report = run_json(&clone, &memory, &tmp.path().join("store"));
    // the move is still followed, and says how
    let moved = file_claim(&report, "src/engine.rs");
    assert_eq!(moved["verdict"], "STALE", "{moved:#}");
    assert!(moved["evidence"].as_str().unwrap().contains("without rename detection"), "{moved:#}");
    // the never-seen path is not a claim about the repository
    let claims = report["memories"][0]["claims"].as_array().unwrap();
    assert!(
        !claims.iter().any(|c| c["code_refs"][0]["path"] == "conf/local/settings.toml"),
        "a path git never had is not drift: {report:#}"
    );
    let listed = report["not_checked"].as_array().unwrap();
    assert!(
        listed.iter().any(|n| n.to_string().contains("conf/local/settings.toml")),
        "it is listed as not checked, with its reason: {report:#}"
    );
}

#[test]
fn a_removed_wrapper_is_no_rename_of_a_look_alike_added_later() {
    // two thin wrappers with near-identical bodies: one removed, the other added by a later
    // commit. A rename is made in one commit, so the later one is not the removed one's new name
    let wrapper = |name: &str| {
        format!("  {name}(name: string) {{\n    const c = this.collection(name);\n    return c.{name}();\n  }}\n")
    };
    let class = |methods: &[&str]| {
        let mut s = String::from("export class Runner {\n");
        for m in methods {
            s.push_str(&wrapper(m));
        }
        s.push_str("  collection(name: string) {\n    return name;\n  }\n}\n");
        s
    };
    let repo = GitRepo::new();
    repo.write("src/runner.ts", &class(&["reIndex"]));
    repo.commit("start", BEFORE);
    repo.write("src/runner.ts", &class(&[]));
    repo.commit("drop the deprecated reIndex", LATER);
    repo.write("src/runner.ts", &class(&["countDocuments"]));
    repo.commit("add countDocuments", LATEST);
    let tmp = tempfile::tempdir().unwrap();
    let report = run_json(
        repo.dir.path(),
        &memory_file(tmp.path(), "`reIndex` in `src/runner.ts` rebuilds a collection's indexes."),
        &tmp.path().join("store"),
    );
    let c = report["memories"][0]["claims"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["claim_type"] == "symbol_reference")
        .unwrap_or_else(|| panic!("no symbol claim: {report:#}"));
    assert_eq!(c["verdict"], "CONTRADICTED", "{c:#}");
    assert!(c["successor"].is_null(), "{c:#}");
}

#[test]
fn a_memory_without_a_date_still_finds_a_renamed_symbol() {
    // no created_at / updated_at: the rename is found from the commit that removed the
    // name from the file, not from the memory's date
    let body = "    let mut fields = Vec::new();\n    for line in input.lines() {\n        if let Some((k, v)) = line.split_once(':') {\n            fields.push((k.trim().to_string(), v.trim().to_string()));\n        }\n    }\n    fields\n";
    let repo = GitRepo::new();
    repo.write(
        "src/parser.rs",
        &format!(
            "pub fn parse_header(input: &str) -> Vec<(String, String)> {{\n{body}}}\n\npub fn other() -> u8 {{ 1 }}\n"
        ),
    );
    repo.commit("start", BEFORE);
    repo.write(
        "src/parser.rs",
        &format!(
            "pub fn parse_head(input: &str) -> Vec<(String, String)> {{\n{body}}}\n\npub fn other() -> u8 {{ 1 }}\n"
        ),
    );
    repo.commit("rename parse_header", LATER);
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("m.jsonl");
    let m = serde_json::json!({"id": "m1", "agent": "a", "content": "`parse_header` in `src/parser.rs` reads the headers.", "tier": 1, "type": "memory"});
    std::fs::write(&path, format!("{m}\n")).unwrap();
    let report = run_json(repo.dir.path(), path.to_str().unwrap(), &tmp.path().join("store"));
    let c = report["memories"][0]["claims"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["claim_type"] == "symbol_reference")
        .unwrap_or_else(|| panic!("no symbol claim: {report:#}"));
    assert_eq!(c["verdict"], "STALE", "{c:#}");
    assert_eq!(c["successor"], "parse_head", "{c:#}");
}

#[test]
fn fifos_and_dangling_symlinks_in_the_repo_are_never_read_and_never_valid() {
    let repo = GitRepo::new();
    repo.write("src/main.rs", "fn main() {}\n");
    repo.commit("start", BEFORE);
    let fifo = repo.dir.path().join("src/pipe");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    std::os::unix::fs::symlink("gone.rs", repo.dir.path().join("src/link.rs")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let m = memory_file(tmp.path(), "See `src/link.rs` and line 3 of `src/link.rs`, and `src/pipe`.");
    // Opening the FIFO would block forever: the run is killed after 60 s (exit 124), so a
    // regression fails here instead of hanging the suite.
    let out = Command::new("timeout")
        .arg("60")
        .arg(env!("CARGO_BIN_EXE_memval"))
        .args([
            "validate",
            "--repo",
            repo.path(),
            "--memories",
            &m,
            "--format",
            "json",
            "--fail-on",
            "never",
            "-q",
            "--store",
        ])
        .arg(tmp.path().join("store"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let link = file_claim(&report, "src/link.rs");
    assert_eq!(link["verdict"], "CONTRADICTED", "{link:#}");
    let text = report.to_string();
    assert!(text.contains("special file"), "{report:#}");
    // the line claim on the dangling link is not VALID
    let all: Vec<&Value> = report["memories"][0]["claims"].as_array().unwrap().iter().collect();
    assert!(all.iter().all(|c| !(c["verdict"] == "VALID" && c["code_refs"][0]["path"] == "src/link.rs")), "{report:#}");
}

#[test]
fn a_file_less_symbol_that_is_gone_is_traced_to_the_commit_that_removed_it() {
    let body = "    let mut fields = Vec::new();\n    for line in input.lines() {\n        if let Some((k, v)) = line.split_once(':') {\n            fields.push((k.trim().to_string(), v.trim().to_string()));\n        }\n    }\n    fields\n";
    let repo = GitRepo::new();
    repo.write("src/parser.rs", &format!("pub fn parse_header(input: &str) -> Vec<(String, String)> {{\n{body}}}\n\npub fn drop_me() -> u8 {{ 1 }}\n"));
    repo.commit("start", BEFORE);
    repo.write("src/parser.rs", &format!("pub fn parse_head(input: &str) -> Vec<(String, String)> {{\n{body}}}\n"));
    repo.commit("rename parse_header, drop drop_me", LATER);
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("m.jsonl");
    // no date, no file: the names alone
    let m = serde_json::json!({"id": "m1", "agent": "a", "content": "Headers go through `parse_header()`; `drop_me()` returns one.", "tier": 1, "type": "memory"});
    std::fs::write(&path, format!("{m}\n")).unwrap();
    let report = run_json(repo.dir.path(), path.to_str().unwrap(), &tmp.path().join("store"));
    let claim = |name: &str| {
        report["memories"][0]["claims"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["code_refs"][0]["symbol"].as_str().is_some_and(|s| s.starts_with(name)))
            .unwrap_or_else(|| panic!("no claim for {name}: {report:#}"))
            .clone()
    };
    let renamed = claim("parse_header");
    assert_eq!(renamed["verdict"], "STALE", "{renamed:#}");
    assert_eq!(renamed["successor"], "parse_head", "{renamed:#}");
    let dropped = claim("drop_me");
    assert_eq!(dropped["verdict"], "CONTRADICTED", "{dropped:#}");
    assert!(dropped["evidence"].as_str().unwrap().contains("last definition was removed"), "{dropped:#}");
}

#[test]
fn a_symbol_claim_is_about_the_symbol() {
    // (memory line, symbol, expected verdict, a phrase of the evidence); one repo, all rows
    let body = "    let mut total = 0u64;\n    for (i, b) in input.bytes().enumerate() {\n        total = total.wrapping_mul(31).wrapping_add(b as u64 ^ i as u64);\n    }\n    total\n";
    let repo = GitRepo::new();
    repo.write("src/store/cache.rs", &format!("pub fn evict_oldest(input: &str) -> u64 {{\n{body}}}\n"));
    repo.write("src/hash.rs", &format!("pub fn checksum_v1(input: &str) -> u64 {{\n{body}}}\n"));
    repo.write("src/main.rs", "fn main() { let _ = hash::checksum_v1(\"x\"); let _ = widgets::render_widget(); }\n");
    repo.commit("start", BEFORE);
    // the file moves; the symbol stays in it
    std::fs::create_dir_all(repo.dir.path().join("src/cache")).unwrap();
    git(repo.dir.path(), &["mv", "src/store/cache.rs", "src/cache/lru.rs"]);
    // checksum_v1 is removed; only docs, a test, a comment and a string still name it
    repo.write("src/hash.rs", "pub fn unrelated() -> u8 { 1 }\n");
    repo.write(
        "src/main.rs",
        "// checksum_v1 used to live here\nfn main() { let _ = \"checksum_v1\"; let _ = widgets::render_widget(); }\n",
    );
    repo.write("docs/hashing.md", "Use `checksum_v1` for keys.\n");
    repo.write("tests/hash_test.rs", "#[test] fn old() { let _ = checksum_v1; }\n");
    repo.commit("move the cache, drop checksum_v1", LATER);
    // a copy of the notes lives in the repo and names every symbol
    let notes = "- `evict_oldest` in `src/store/cache.rs` drops the oldest entry\n- Keys are hashed with `checksum_v1()`\n- Screens draw with `render_widget()`\n";
    repo.write("CLAUDE.md", notes);
    repo.commit("notes", LATEST);
    let tmp = tempfile::tempdir().unwrap();
    let report = run_json(repo.dir.path(), &memory_file(tmp.path(), notes), &tmp.path().join("store"));
    let claims = report["memories"][0]["claims"].as_array().unwrap();
    let rows: &[(&str, &str, &str)] = &[
        // defined in its file's successor: VALID, with a note; the file claim carries the move
        ("evict_oldest", "VALID", "the file moved"),
        // its last definition was removed; docs, tests, comments, strings and the notes do not
        // keep it alive
        ("checksum_v1", "CONTRADICTED", "last definition was removed"),
        // used by the code (a library's), never defined here: the memory's name is one the
        // code works with, so it holds; the evidence says the definition is outside the repo
        ("render_widget", "VALID", "its definition is not in the repo"),
    ];
    for (symbol, verdict, phrase) in rows {
        let c = claims
            .iter()
            .find(|c| {
                c["claim_type"] == "symbol_reference"
                    && c["code_refs"][0]["symbol"].as_str().is_some_and(|s| s.starts_with(symbol))
            })
            .unwrap_or_else(|| panic!("no claim for {symbol}: {report:#}"));
        assert_eq!(c["verdict"], *verdict, "{symbol}: {c:#}");
        assert!(c["evidence"].as_str().unwrap().contains(phrase), "{symbol}: {c:#}");
    }
    let file = file_claim(&report, "src/store/cache.rs");
    assert_eq!(file["verdict"], "STALE", "{file:#}");
    assert_eq!(file["successor"], "src/cache/lru.rs", "{file:#}");
}

#[test]
fn a_file_of_the_same_name_added_later_is_a_successor_only_if_it_resembles_the_deleted_one() {
    // (old text, text of the same-named file added in a later commit, verdict, successor)
    let unrelated = "services:\n  web:\n    image: nginx\n    ports: [80]\n";
    let rows: &[(&str, &str, &str, Option<&str>)] = &[
        // copied with edits, then deleted: a move spread over commits
        (&code(30), &(code(30).replace("u32", "u64") + "pub fn extra() {}\n"), "STALE", Some("deploy/settings.rs")),
        // deleted; an unrelated file that happens to share the name appears elsewhere later
        (&code(30), unrelated, "CONTRADICTED", None),
        // an empty file resembles nothing
        ("", &code(30), "CONTRADICTED", None),
    ];
    for (old, new, verdict, successor) in rows {
        let repo = GitRepo::new();
        repo.write("settings.rs", old);
        repo.write("src/main.rs", "fn main() {}\n");
        repo.commit("start", BEFORE);
        std::fs::remove_file(repo.dir.path().join("settings.rs")).unwrap();
        repo.commit("drop settings", LATER);
        repo.write("deploy/settings.rs", new);
        repo.commit("deploy settings", LATEST);
        let tmp = tempfile::tempdir().unwrap();
        let report = run_json(
            repo.dir.path(),
            &memory_file(tmp.path(), "Settings are in `settings.rs`."),
            &tmp.path().join("store"),
        );
        let c = file_claim(&report, "settings.rs");
        assert_eq!(c["verdict"], *verdict, "{old:?} -> {new:?}: {c:#}");
        assert_eq!(c["successor"].as_str(), *successor, "{c:#}");
    }
}

#[test]
fn a_folders_fate_is_where_most_of_the_files_it_had_went() {
    // (what became of `pkg/`'s four files after the memory, verdict, successor, evidence)
    type Fate = (
        &'static str,
        &'static [(&'static str, Option<&'static str>)],
        &'static str,
        Option<&'static str>,
        &'static str,
    );
    let cases: &[Fate] = &[
        (
            "three of four moved whole into one folder",
            &[
                ("a.rs", Some("core/a.rs")),
                ("b.rs", Some("core/b.rs")),
                ("sub/c.rs", Some("core/sub/c.rs")),
                ("d.rs", None),
            ],
            "STALE",
            Some("core"),
            "3 of the 4 files",
        ),
        (
            "three of four deleted, one kept by a folder: no one fate",
            &[("a.rs", Some("core/a.rs")), ("b.rs", None), ("sub/c.rs", None), ("d.rs", None)],
            "AMBIGUOUS",
            None,
            "went apart (1 to core/, 3 deleted)",
        ),
        (
            "two and two to different folders",
            &[
                ("a.rs", Some("core/a.rs")),
                ("b.rs", Some("core/b.rs")),
                ("sub/c.rs", Some("extra/sub/c.rs")),
                ("d.rs", Some("extra/d.rs")),
            ],
            "AMBIGUOUS",
            None,
            "went apart (2 to core/, 2 to extra/)",
        ),
        (
            "all deleted",
            &[("a.rs", None), ("b.rs", None), ("sub/c.rs", None), ("d.rs", None)],
            "CONTRADICTED",
            None,
            "4 of the 4 files",
        ),
        (
            "moved without keeping their places below it: no folder took them",
            &[("a.rs", Some("core/a.rs")), ("b.rs", None), ("sub/c.rs", Some("flat/c.rs")), ("d.rs", None)],
            "AMBIGUOUS",
            None,
            "1 to core/, 1 elsewhere, 2 deleted",
        ),
    ];
    for (what, moves, verdict, successor, evidence) in cases {
        let repo = GitRepo::new();
        repo.write("main.rs", "fn main() {}\n");
        for (i, (file, _)) in moves.iter().enumerate() {
            repo.write(&format!("pkg/{file}"), &code(12 + i));
        }
        repo.commit("start", BEFORE);
        // added after the memory and deleted again: not one of the files it named
        for i in 0..4 {
            repo.write(&format!("pkg/late{i}.rs"), &code(3 + i));
        }
        repo.commit("late files", LATER);
        for (file, to) in moves.iter() {
            let from = format!("pkg/{file}");
            match to {
                Some(to) => {
                    std::fs::create_dir_all(repo.dir.path().join(to).parent().unwrap()).unwrap();
                    git(repo.dir.path(), &["mv", &from, to]);
                }
                None => {
                    git(repo.dir.path(), &["rm", "-q", &from]);
                }
            }
        }
        git(repo.dir.path(), &["rm", "-q", "-r", "pkg"]);
        let _ = std::fs::remove_dir_all(repo.dir.path().join("pkg")); // empty folders git leaves
        repo.commit("reorganise", LATEST);
        let tmp = tempfile::tempdir().unwrap();
        let report = run_json(
            repo.dir.path(),
            &memory_file(tmp.path(), "The package lives in `pkg/`."),
            &tmp.path().join("store"),
        );
        let c = file_claim(&report, "pkg");
        assert_eq!(c["verdict"], *verdict, "{what}: {c:#}");
        assert_eq!(c["successor"].as_str(), *successor, "{what}: {c:#}");
        assert!(c["evidence"].as_str().unwrap().contains(evidence), "{what}: {c:#}");
    }
}
