//! "Since when?": every STALE or CONTRADICTED verdict that git history decided names the
//! commit that moved, renamed, removed or changed the thing, with that commit's date; a verdict
//! history did not decide names none.

use std::path::Path;

mod common;

use common::{git, write};
use memval_investigator::Evidence;
use memval_proto::{Assertion, Claim, ClaimType, CodeRef, MemoryMeta, Outcome, Since, Source, Verdict};

/// The memory was written on 2026-01-01; every change below comes after it, a day apart.
const WRITTEN: i64 = 1_767_225_600;
const DAY: i64 = 86_400;

/// Commits what `change` did to the tree at `at`; returns the commit id.
fn commit(root: &Path, at: i64, change: impl FnOnce(&Path)) -> String {
    change(root);
    git(root, &["add", "-A"], at);
    git(root, &["commit", "-q", "-m", "change"], at);
    git(root, &["rev-parse", "HEAD"], at)
}

fn memory() -> MemoryMeta {
    MemoryMeta {
        id: "m1".into(),
        agent: "notes".into(),
        tier: 0,
        kind: "memory".into(),
        created_at: Some(WRITTEN),
        updated_at: None,
        source: Source { path: "AGENTS.md".into(), line: None, row: None, format: "notes".into() },
        first_line: 1,
    }
}

fn claim(claim_type: ClaimType, code_ref: CodeRef, assertion: Option<Assertion>) -> Claim {
    Claim { claim_type, claim_text: "claim".into(), line: 1, lines: vec![1], code_refs: vec![code_ref], assertion }
}

fn file(p: &str) -> Claim {
    claim(ClaimType::FileReference, CodeRef::path(p), None)
}

fn symbol(p: &str, s: &str) -> Claim {
    claim(ClaimType::SymbolReference, CodeRef { symbol: Some(s.into()), ..CodeRef::path(p) }, None)
}

fn setting(p: &str, key: &str, value: &str) -> Claim {
    claim(
        ClaimType::Configuration,
        CodeRef { symbol: Some(key.into()), ..CodeRef::path(p) },
        Some(Assertion::ConfigValue { key: key.into(), value: value.into() }),
    )
}

#[test]
fn a_verdict_history_decided_says_which_commit_made_it_and_when() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q", "-b", "main"], WRITTEN);
    commit(root, WRITTEN - DAY, |r| {
        write(r, "src/old_name.rs", "pub fn parse_header(input: &str) -> usize {\n    input.len() * 2 + 1\n}\n");
        write(r, "src/gone.rs", "pub fn soon_removed() -> u32 {\n    41 + 1\n}\n");
        write(
            r,
            "src/cache.rs",
            "pub fn evict(items: &mut Vec<u32>) {\n    items.sort();\n    items.truncate(items.len() / 2);\n}\n",
        );
        write(r, "config.toml", "timeout = 30\n");
        write(r, "lib/engine/a.rs", "pub fn engine_a() -> u32 {\n    1\n}\n");
        write(r, "lib/engine/b.rs", "pub fn engine_b() -> u32 {\n    2\n}\n");
        write(r, "src/kept.rs", "pub fn kept() {}\n");
        write(r, "ui/flutter/main.dart", "void main() {\n  runApp(const App());\n}\n");
        write(r, "ui/flutter/theme.dart", "final theme = ThemeData(useMaterial3: true);\n");
        write(r, "ui/flutter/api.dart", "class Api {\n  final String base = 'http://localhost';\n}\n");
        write(r, "ui/flutter/icon.txt", "an icon, in words\n");
    });
    let renamed = commit(root, WRITTEN + DAY, |r| {
        std::fs::rename(r.join("src/old_name.rs"), r.join("src/header.rs")).unwrap();
    });
    let deleted = commit(root, WRITTEN + 2 * DAY, |r| std::fs::remove_file(r.join("src/gone.rs")).unwrap());
    let symbol_renamed = commit(root, WRITTEN + 3 * DAY, |r| {
        write(
            r,
            "src/cache.rs",
            "pub fn evict_oldest(items: &mut Vec<u32>) {\n    items.sort();\n    items.truncate(items.len() / 2);\n}\n",
        );
    });
    let value_changed = commit(root, WRITTEN + 4 * DAY, |r| write(r, "config.toml", "timeout = 60\n"));
    let folder_moved = commit(root, WRITTEN + 5 * DAY, |r| {
        std::fs::create_dir_all(r.join("core")).unwrap();
        std::fs::rename(r.join("lib"), r.join("core/lib")).unwrap();
    });

    // The UI's icon moves out to `core/` first; then the UI goes; the icon is deleted later. The
    // folder went when its last files left it, not when the icon it lost earlier was deleted.
    commit(root, WRITTEN + 6 * DAY, |r| {
        std::fs::create_dir_all(r.join("core")).unwrap();
        std::fs::rename(r.join("ui/flutter/icon.txt"), r.join("core/icon.txt")).unwrap();
    });
    let ui_deleted = commit(root, WRITTEN + 7 * DAY, |r| std::fs::remove_dir_all(r.join("ui")).unwrap());
    commit(root, WRITTEN + 8 * DAY, |r| std::fs::remove_file(r.join("core/icon.txt")).unwrap());

    let evidence = Evidence::open(root).unwrap();
    let checker = evidence.checker();
    let at = |commit: &String, days: i64| Some(Since { commit: commit.clone(), date: WRITTEN + days * DAY });
    let cases: Vec<(&str, Claim, Verdict, Option<Since>)> = vec![
        ("a renamed file", file("src/old_name.rs"), Verdict::Stale, at(&renamed, 1)),
        ("a deleted file", file("src/gone.rs"), Verdict::Contradicted, at(&deleted, 2)),
        ("a renamed function", symbol("src/cache.rs", "evict"), Verdict::Stale, at(&symbol_renamed, 3)),
        ("a changed setting", setting("config.toml", "timeout", "30"), Verdict::Stale, at(&value_changed, 4)),
        ("a moved folder", file("lib/engine/"), Verdict::Stale, at(&folder_moved, 5)),
        ("a deleted folder", file("ui/flutter/"), Verdict::Contradicted, at(&ui_deleted, 7)),
        ("a file still there", file("src/kept.rs"), Verdict::Valid, None),
    ];
    for (name, claim, verdict, since) in cases {
        match checker.check(&claim, &memory()) {
            Outcome::Checked { verdict: got, evidence, since: got_since, .. } => {
                assert_eq!(got, verdict, "{name}: {evidence}");
                assert_eq!(got_since, since, "{name}: {evidence}");
            }
            other => panic!("{name}: {other:?}"),
        }
    }

    // A memory without a date (a memory folder outside the repository) still follows what it
    // names through history: `evict` became `evict_oldest`, a name that holds the old one, so
    // how often "evict" occurs never changed; the file's versions say where it went.
    let dateless = MemoryMeta { created_at: None, updated_at: None, ..memory() };
    match checker.check(&symbol("src/cache.rs", "evict"), &dateless) {
        Outcome::Checked { verdict, evidence, successor, since, .. } => {
            assert_eq!(verdict, Verdict::Stale, "{evidence}");
            assert_eq!(successor.as_deref(), Some("evict_oldest"), "{evidence}");
            assert_eq!(since, at(&symbol_renamed, 3), "{evidence}");
        }
        other => panic!("dateless rename: {other:?}"),
    }
}
