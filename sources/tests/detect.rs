mod support;

use std::path::Path;

use memval_sources::{detect, load, Format, SourceError};
use support::write;

fn check(path: &Path, expected: Format) {
    assert_eq!(detect(path).unwrap(), expected, "{}", path.display());
}

#[test]
fn files_and_folders_are_detected() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();

    let db = d.join("store");
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute_batch("CREATE TABLE memories (id INTEGER PRIMARY KEY, content TEXT);")
        .unwrap();
    check(&db, Format::Sqlite);
    check(&write(d, "a.jsonl", "{\"id\": 1}\n"), Format::Jsonl);
    check(&write(d, "a.ndjson", ""), Format::Jsonl);
    check(&write(d, "a.json", "{\"memories\": []}"), Format::Json);
    check(&write(d, "dump", "  [\n{\"id\": 1}]"), Format::Json);
    check(&write(d, "stream", "{\"id\": 1, \"content\": \"a\"}\n{\"id\": 2, \"content\": \"b\"}\n"), Format::Jsonl);
    check(&write(d, "pretty", "{\n  \"memories\": []\n}\n"), Format::Json);
    check(&write(d, "CLAUDE.md", "{ not json but markdown"), Format::Notes);
    check(&write(d, "notes.txt", "text"), Format::Notes);
    check(&write(d, ".cursorrules", "rules"), Format::Notes);
    check(&write(d, "RULES", "plain words"), Format::Notes);

    check(write(d, "claude/MEMORY.md", "").parent().unwrap(), Format::ClaudeCode);
    write(d, "proj/contexts/memory/index.md", "");
    check(&d.join("proj"), Format::Gaai);
    check(&d.join("proj/contexts"), Format::Gaai);
    write(d, "mem/index.md", "");
    std::fs::create_dir_all(d.join("mem/decisions")).unwrap();
    check(&d.join("mem"), Format::Gaai);
    check(write(d, "repo/sub/README.md", "").parent().unwrap().parent().unwrap(), Format::Notes);
    // An index.md that is not a GAAI registry is just a notes file.
    check(&write(d, "site/index.md", "# Home"), Format::Notes);

    assert_eq!(Format::ClaudeCode.as_str(), "claude-code");
    assert_eq!(Format::Gaai.to_string(), "gaai");
}

#[test]
fn missing_path_says_what_to_pass() {
    let dir = tempfile::tempdir().unwrap();
    let err = detect(&dir.path().join("nope.json")).unwrap_err();
    assert!(matches!(err, SourceError::NotFound { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(msg.contains("does not exist") && msg.contains("nope.json"), "{msg}");
}

#[test]
fn unrecognised_inputs_list_the_accepted_formats() {
    let dir = tempfile::tempdir().unwrap();
    let png = write(dir.path(), "logo.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
    let fake_db = write(dir.path(), "memory.db", "not sqlite");
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    write(&empty, "src/main.rs", "fn main() {}");

    for path in [&png, &fake_db, &empty] {
        let err = load(path, dir.path()).unwrap_err();
        assert!(matches!(err, SourceError::Unrecognised { .. }), "{}: {err:?}", path.display());
        let msg = err.to_string();
        for accepted in ["JSON", "JSONL", "SQLite", "MEMORY.md", "contexts/memory/index.md", "CLAUDE.md"] {
            assert!(msg.contains(accepted), "{msg}");
        }
        assert!(!msg.ends_with('.'), "no trailing period: {msg}");
    }
}

#[test]
fn missing_repo_root_is_fatal() {
    let dir = tempfile::tempdir().unwrap();
    let notes = write(dir.path(), "CLAUDE.md", "x");
    let err = load(&notes, &dir.path().join("no-repo")).unwrap_err();
    assert!(matches!(err, SourceError::RepoRootNotFound { .. }), "{err:?}");
}
