mod support;

use std::path::Path;

use memval_sources::{load, sqlite_config, Format, SqliteConfig};
use rusqlite::Connection;
use support::{snapshot, ts};

const SCHEMA: &str = "CREATE TABLE memories (
    id INTEGER PRIMARY KEY, agent TEXT, type TEXT, content TEXT, metadata_json TEXT,
    created_at TEXT, updated_at TEXT, tier INTEGER, archived INTEGER DEFAULT 0,
    distilled_from TEXT, validated_at TEXT, archive_reason TEXT);";

fn memory_db(path: &Path, journal_mode: &str) {
    let conn = Connection::open(path).unwrap();
    let mode: String = conn.query_row(&format!("PRAGMA journal_mode={journal_mode}"), [], |r| r.get(0)).unwrap();
    assert_eq!(mode.to_lowercase(), journal_mode.to_lowercase());
    conn.execute_batch(SCHEMA).unwrap();
    conn.execute_batch(
        "INSERT INTO memories (id, agent, type, content, created_at, updated_at, tier, archived) VALUES
         (1, 'tech-lead', 'cortex', 'Cache lives in internal/cache/lru.go', '2026-03-15 10:00:00', NULL, 2, 0),
         (2, 'reviewer', 'lessons', 'Archived lesson', '2026-03-01 00:00:00', NULL, 0, 1),
         (3, 'reviewer', 'memory', 'Unix dates too', 1773568800, '2026-03-20T00:00:00Z', NULL, NULL),
         (4, 'reviewer', 'core', 'Tier out of range', '2026-03-01', NULL, 7, 0),
         (5, 'ops', 'digest', 'Bad date', 'someday', NULL, 1, 0);",
    )
    .unwrap();
}

#[test]
fn sqlite_rows_load_and_archived_rows_are_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("memory.db");
    memory_db(&db, "delete");

    let report = load(&db, dir.path()).unwrap();
    assert_eq!(report.format, Format::Sqlite);
    let ids: Vec<&str> = report.memories.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["1", "3"], "archived row 2 skipped, rows 4 and 5 are problems");

    let m = &report.memories[0];
    assert_eq!((m.agent.as_str(), m.kind.as_str(), m.tier), ("tech-lead", "cortex", 2));
    assert_eq!(m.content, "Cache lives in internal/cache/lru.go");
    assert_eq!(m.created_at, Some(ts("2026-03-15T10:00:00Z")));
    assert_eq!(m.source.row, Some(1));
    assert_eq!(m.source.line, None);
    assert_eq!(m.source.format, "sqlite");
    assert_eq!(m.source.path, db.to_string_lossy());
    assert_eq!(m.context_dir, None);

    let m = &report.memories[1];
    assert_eq!(m.created_at, Some(1_773_568_800));
    assert_eq!(m.updated_at, Some(ts("2026-03-20T00:00:00Z")));
    assert_eq!(m.tier, 0);
    assert_eq!(m.source.row, Some(3));

    let reasons: Vec<&str> = report.problems.iter().map(|p| p.reason.as_str()).collect();
    assert_eq!(reasons.len(), 2, "{reasons:?}");
    assert!(reasons[0].starts_with("row 4") && reasons[0].contains("tier"), "{}", reasons[0]);
    assert!(reasons[1].starts_with("row 5") && reasons[1].contains("created_at"), "{}", reasons[1]);
}

#[test]
fn sqlite_is_opened_read_only_and_leaves_nothing_behind() {
    for mode in ["delete", "wal"] {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("memory.db");
        memory_db(&db, mode);
        let before = snapshot(dir.path());
        assert_eq!(before.len(), 1, "{mode}: the fixture is a single file once closed");

        let report = load(&db, dir.path()).unwrap();
        assert_eq!(report.memories.len(), 2, "{mode}");
        sqlite_config(&db).unwrap();

        assert_eq!(snapshot(dir.path()), before, "{mode}: database bytes and folder unchanged");
    }
}

#[test]
fn sqlite_wal_rows_not_yet_checkpointed_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("memory.db");
    memory_db(&db, "wal");
    // A writer that keeps its WAL: the newest row exists only in memory.db-wal.
    let writer = Connection::open(&db).unwrap();
    writer.execute_batch("PRAGMA wal_autocheckpoint=0;").unwrap();
    writer
        .execute("INSERT INTO memories (id, agent, type, content, tier) VALUES (9, 'a', 'memory', 'fresh', 0)", [])
        .unwrap();
    assert!(dir.path().join("memory.db-wal").exists());

    let report = load(&db, dir.path()).unwrap();
    assert!(report.memories.iter().any(|m| m.id == "9" && m.content == "fresh"));
    drop(writer);
}

#[test]
fn sqlite_config_reads_key_value_rows_and_tolerates_no_table() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("memory.db");
    memory_db(&db, "delete");
    assert_eq!(sqlite_config(&db).unwrap(), SqliteConfig::default());

    let conn = Connection::open(&db).unwrap();
    conn.execute_batch(
        "CREATE TABLE config (key TEXT PRIMARY KEY, value TEXT);
         INSERT INTO config VALUES ('reconcile_pair_cap', '120'), ('validate_window_days', 14), ('other', 'x');",
    )
    .unwrap();
    drop(conn);
    assert_eq!(
        sqlite_config(&db).unwrap(),
        SqliteConfig { reconcile_pair_cap: Some(120), validate_window_days: Some(14) }
    );

    let conn = Connection::open(&db).unwrap();
    conn.execute("UPDATE config SET value = 'lots' WHERE key = 'reconcile_pair_cap'", []).unwrap();
    drop(conn);
    let msg = sqlite_config(&db).unwrap_err().to_string();
    assert!(msg.contains("reconcile_pair_cap") && msg.contains("integer"), "{msg}");
}

#[test]
fn sqlite_config_reads_a_single_wide_row() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("memory.db");
    let conn = Connection::open(&db).unwrap();
    conn.execute_batch(
        "CREATE TABLE config (reconcile_pair_cap INTEGER, validate_window_days INTEGER);
         INSERT INTO config VALUES (NULL, 30);",
    )
    .unwrap();
    drop(conn);
    assert_eq!(sqlite_config(&db).unwrap(), SqliteConfig { reconcile_pair_cap: None, validate_window_days: Some(30) });
}

#[test]
fn sqlite_without_memories_table_is_fatal() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("other.sqlite");
    Connection::open(&db).unwrap().execute_batch("CREATE TABLE t (x);").unwrap();
    let msg = load(&db, dir.path()).unwrap_err().to_string();
    assert!(msg.contains("no `memories` table"), "{msg}");
}
