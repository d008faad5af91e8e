//! Inputs that used to hang a run or leave a trace beside the user's files (issues 8 and 27): a FIFO
//! as the memories path or inside a memory folder, a `memory.db` whose `memories` is a
//! recursive view, a WAL database with a live `-wal` file, and a FIFO or folder named like a side
//! file of the database (`memory.db-wal`). Each load runs on a thread
//! with a deadline, so a regression fails instead of hanging the suite.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;

use memval_sources::load;
use rusqlite::Connection;

fn mkfifo(path: &Path) {
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

/// `load` on another thread; `None` when it did not return within `secs`.
fn load_within(memories: PathBuf, repo: PathBuf, secs: u64) -> Option<Result<memval_sources::LoadReport, String>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(load(&memories, &repo).map_err(|e| e.to_string()));
    });
    rx.recv_timeout(Duration::from_secs(secs)).ok()
}

fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

#[test]
fn a_fifo_as_the_memories_path_is_refused_by_type() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("memories.jsonl");
    mkfifo(&fifo);
    let err = load_within(fifo, dir.path().into(), 20).expect("load returned").unwrap_err();
    assert!(err.contains("FIFO"), "{err}");
}

#[test]
fn a_fifo_inside_a_memory_folder_is_a_problem_not_a_hang() {
    let dir = tempfile::tempdir().unwrap();
    let mem = dir.path().join("contexts/memory");
    std::fs::create_dir_all(&mem).unwrap();
    std::fs::write(mem.join("index.md"), "# Memory index\n\n- [Cache](cache.md)\n- [Pipe](pipe.md)\n").unwrap();
    std::fs::write(mem.join("cache.md"), "---\ntype: memory\n---\nThe cache is `src/lru.rs`.\n").unwrap();
    mkfifo(&mem.join("pipe.md"));
    let report = load_within(dir.path().join("contexts"), dir.path().into(), 20).expect("load returned").unwrap();
    assert!(report.problems.iter().any(|p| p.reason.contains("FIFO")), "{:?}", report.problems);
}

#[test]
fn a_recursive_view_as_memories_stops_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("memory.db");
    let conn = Connection::open(&db).unwrap();
    conn.execute_batch(
        "CREATE VIEW memories AS WITH RECURSIVE n(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM n)
         SELECT id, 'a' AS agent, 'memory' AS type, 'x' || id AS content, NULL AS metadata_json,
                '2026-01-01' AS created_at, NULL AS updated_at, 1 AS tier, 0 AS archived FROM n ORDER BY id DESC;",
    )
    .unwrap();
    drop(conn);
    let before = listing(dir.path());
    let err = load_within(db, dir.path().into(), 60).expect("load returned within 60 s").unwrap_err();
    assert!(err.contains("stopped"), "{err}");
    assert_eq!(listing(dir.path()), before);
}

#[test]
fn a_wal_database_with_a_live_wal_is_read_without_a_trace_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("memory.db");
    let writer = Connection::open(&db).unwrap();
    writer.pragma_update(None, "journal_mode", "WAL").unwrap();
    writer.pragma_update(None, "wal_autocheckpoint", 0).unwrap();
    writer
        .execute_batch(
            "CREATE TABLE memories (id INTEGER PRIMARY KEY, agent TEXT, type TEXT, content TEXT, metadata_json TEXT,
             created_at TEXT, updated_at TEXT, tier INTEGER, archived INTEGER DEFAULT 0);
             INSERT INTO memories (id, agent, type, content, created_at, tier) VALUES (1, 'a', 'memory', 'In the WAL: `src/a.rs`', '2026-01-01', 1);",
        )
        .unwrap();
    // Keep the writer open (so the -wal stays) but copy what a crashed writer leaves: the
    // database and its -wal, without the -shm.
    let copy = tempfile::tempdir().unwrap();
    std::fs::copy(&db, copy.path().join("memory.db")).unwrap();
    std::fs::copy(dir.path().join("memory.db-wal"), copy.path().join("memory.db-wal")).unwrap();
    drop(writer);
    let before = listing(copy.path());
    assert_eq!(before, ["memory.db", "memory.db-wal"]);
    let report = load_within(copy.path().join("memory.db"), copy.path().into(), 20).expect("load returned").unwrap();
    assert_eq!(report.memories.len(), 1, "{:?}", report.problems);
    assert!(report.memories[0].content.contains("In the WAL"));
    assert_eq!(listing(copy.path()), before, "memval left a file beside the database");
}

#[test]
fn a_fifo_or_folder_named_like_a_side_file_is_never_opened_and_nothing_is_written_beside_it() {
    for (journal_mode, side, what) in [
        ("delete", "memory.db-wal", "fifo"),
        ("wal", "memory.db-wal", "fifo"),
        ("delete", "memory.db-shm", "fifo"),
        ("wal", "memory.db-wal", "folder"),
        ("delete", "memory.db-journal", "folder"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("memory.db");
        let writer = Connection::open(&db).unwrap();
        writer.pragma_update(None, "journal_mode", journal_mode).unwrap();
        writer
            .execute_batch(
                "CREATE TABLE memories (id INTEGER PRIMARY KEY, agent TEXT, type TEXT, content TEXT, metadata_json TEXT,
                 created_at TEXT, updated_at TEXT, tier INTEGER, archived INTEGER DEFAULT 0);
                 INSERT INTO memories (id, agent, type, content, created_at, tier) VALUES (1, 'a', 'memory', 'Row one: `src/a.rs`', '2026-01-01', 1);",
            )
            .unwrap();
        drop(writer);
        let _ = std::fs::remove_file(dir.path().join("memory.db-wal"));
        let _ = std::fs::remove_file(dir.path().join("memory.db-shm"));
        let odd = dir.path().join(side);
        match what {
            "fifo" => mkfifo(&odd),
            _ => std::fs::create_dir(&odd).unwrap(),
        }
        let before = listing(dir.path());
        let report = load_within(db.clone(), dir.path().into(), 20)
            .unwrap_or_else(|| panic!("{journal_mode} database, {side} a {what}: load hung"))
            .unwrap();
        assert_eq!(report.memories.len(), 1, "{journal_mode}, {side} a {what}: {:?}", report.problems);
        assert_eq!(listing(dir.path()), before, "{journal_mode}, {side} a {what}: memval wrote beside the database");
    }
}
