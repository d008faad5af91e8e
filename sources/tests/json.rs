mod support;

use memval_sources::{load, Format, SourceError};
use support::{ts, write};

#[test]
fn json_array_loads_every_field_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "memories.json",
        r#"[
  {"id": 42, "agent": "tech-lead", "content": "Cache in internal/cache/lru.go",
   "tier": 2, "type": "lessons", "created_at": "2026-03-15T10:00:00Z",
   "updated_at": "2026-03-16 08:30:00", "source": {"anything": true}},
  {"id": "a-1", "agent": "reviewer", "content": "Use sqlx", "created_at": 1773568800},
  {"id": 7, "agent": "x", "content": "dated", "created_at": "2026-03-15"}
]"#,
    );
    let report = load(&path, dir.path()).unwrap();
    assert_eq!(report.format, Format::Json);
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    let m = &report.memories;
    assert_eq!(m.len(), 3);

    assert_eq!(m[0].id, "42");
    assert_eq!(m[0].agent, "tech-lead");
    assert_eq!(m[0].tier, 2);
    assert_eq!(m[0].kind, "lessons");
    assert_eq!(m[0].created_at, Some(ts("2026-03-15T10:00:00Z")));
    assert_eq!(m[0].updated_at, Some(ts("2026-03-16T08:30:00Z")));
    assert_eq!(m[0].source.path, path.to_string_lossy());
    assert_eq!(m[0].source.line, Some(2));
    assert_eq!(m[0].source.row, None);
    assert_eq!(m[0].source.format, "json");
    assert_eq!(m[0].context_dir, None, "JSON memories have no context folder");

    assert_eq!((m[1].id.as_str(), m[1].tier, m[1].kind.as_str()), ("a-1", 0, "memory"));
    assert_eq!(m[1].created_at, Some(1_773_568_800));
    assert_eq!(m[1].updated_at, None);
    assert_eq!(m[1].source.line, Some(5));
    assert_eq!(m[2].created_at, Some(ts("2026-03-15T00:00:00Z")));
    assert_eq!(m[2].source.line, Some(6));
}

#[test]
fn json_object_with_memories_array_and_bad_objects() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "export.json",
        r#"{"version": 1,
 "memories": [
   {"id": 1, "agent": "a", "content": "ok"},
   {"id": 2, "agent": "a", "content": "bad tier", "tier": 9},
   {"id": 3, "agent": "a", "content": "bad date", "created_at": "last week"},
   "not an object"
 ]}"#,
    );
    let report = load(&path, dir.path()).unwrap();
    assert_eq!(report.memories.len(), 1);
    assert_eq!(report.memories[0].source.line, Some(3));
    let reasons: Vec<&str> = report.problems.iter().map(|p| p.reason.as_str()).collect();
    assert_eq!(reasons.len(), 3, "{reasons:?}");
    assert!(reasons[0].starts_with("line 4") && reasons[0].contains("tier"), "{}", reasons[0]);
    assert!(reasons[1].starts_with("line 5") && reasons[1].contains("created_at"), "{}", reasons[1]);
    assert!(reasons[2].starts_with("line 6") && reasons[2].contains("object"), "{}", reasons[2]);
    assert!(report.problems.iter().all(|p| p.path == path));
}

#[test]
fn jsonl_bad_lines_are_problems_and_the_rest_load() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = Vec::new();
    bytes.extend_from_slice(
        b"{\"id\": 1, \"agent\": \"a\", \"content\": \"first\", \"created_at\": \"2026-01-02 03:04:05\"}\n",
    );
    bytes.extend_from_slice(b"\n   \n");
    bytes.extend_from_slice(b"{\"id\": 2, \"agent\": \"a\", \"content\": \n");
    bytes.extend_from_slice(b"{\"id\": 3, \"agent\": \"a\"}\n");
    bytes.extend_from_slice(b"{\"id\": 4, \"agent\": \"a\", \"content\": \"\xff\xfe\"}\n");
    bytes.extend_from_slice(b"[1, 2]\r\n");
    bytes.extend_from_slice(b"{\"id\": \"last\", \"agent\": \"b\", \"content\": \"crlf\", \"tier\": \"1\"}\r\n");
    let path = write(dir.path(), "mem.jsonl", bytes);

    let report = load(&path, dir.path()).unwrap();
    assert_eq!(report.format, Format::Jsonl);
    let got: Vec<(&str, Option<u32>)> = report.memories.iter().map(|m| (m.id.as_str(), m.source.line)).collect();
    assert_eq!(got, [("1", Some(1)), ("last", Some(8))]);
    assert_eq!(report.memories[0].created_at, Some(ts("2026-01-02T03:04:05Z")));
    assert_eq!(report.memories[1].tier, 1);
    assert_eq!(report.memories[1].content, "crlf");
    assert_eq!(report.memories[1].source.format, "jsonl");

    let lines: Vec<&str> = report.problems.iter().map(|p| p.reason.split(':').next().unwrap()).collect();
    assert_eq!(lines, ["line 4", "line 5", "line 6", "line 7"], "{:?}", report.problems);
    assert!(report.problems[0].reason.contains("not valid JSON"));
    assert!(report.problems[1].reason.contains("missing `content`"));
    assert!(report.problems[2].reason.contains("UTF-8"));
}

#[test]
fn duplicate_ids_are_renamed_not_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "m.jsonl",
        "{\"id\": 5, \"agent\": \"a\", \"content\": \"one\"}\n{\"id\": \"5\", \"agent\": \"b\", \"content\": \"two\"}\n",
    );
    let report = load(&path, dir.path()).unwrap();
    let ids: Vec<&str> = report.memories.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["5", "5~2"]);
    assert_eq!(report.memories[1].content, "two");
}

#[test]
fn unparseable_json_document_is_fatal_and_says_where() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "m.json", "[\n {\"id\": 1,,}\n]");
    let err = load(&path, dir.path()).unwrap_err();
    assert!(matches!(err, SourceError::Malformed { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(msg.contains("line 2"), "{msg}");

    let wrong_shape = write(dir.path(), "n.json", "{\"items\": []}");
    let msg = load(&wrong_shape, dir.path()).unwrap_err().to_string();
    assert!(msg.contains("`memories` array"), "{msg}");
}
