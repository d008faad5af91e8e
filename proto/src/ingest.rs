//! The memory-ingest event (JSON on `memval.v1.events.memory_ingested`, schema in the
//! README): what a memory store publishes when memories are written, and the run it starts.
//! Parsing only; the ingest service publishes the run.

use serde::Deserialize;

use crate::{Memory, RunHeader, Source, UnixSeconds};

/// A memory-ingest event (see the README for the schema).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct IngestEvent {
    /// Names the run (`ingest-<event_id>`); the same event id is the same run.
    event_id: Option<String>,
    repo: String,
    commit: Option<String>,
    /// Where the memories live (kept as their source in the store's history).
    source: Option<String>,
    memories: Vec<EventMemory>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EventMemory {
    id: IdValue,
    agent: String,
    content: String,
    #[serde(default)]
    tier: u8,
    #[serde(rename = "type", default = "default_kind")]
    kind: String,
    created_at: Option<DateValue>,
    updated_at: Option<DateValue>,
}

fn default_kind() -> String {
    "memory".to_owned()
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum IdValue {
    Int(i64),
    Text(String),
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum DateValue {
    Unix(i64),
    Text(String),
}

fn parse_date(value: &DateValue, field: &str, index: usize) -> Result<i64, String> {
    match value {
        DateValue::Unix(ts) => Ok(*ts),
        DateValue::Text(text) => chrono::DateTime::parse_from_rfc3339(text)
            .map(|d| d.timestamp())
            .or_else(|_| {
                chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d")
                    .map(|d| d.and_hms_opt(0, 0, 0).expect("midnight exists").and_utc().timestamp())
            })
            .map_err(|_| format!("memories[{index}].{field}: {text:?} is neither RFC 3339 nor YYYY-MM-DD")),
    }
}

/// The run an event starts. Its id comes from the event (or the message), and the caller
/// passes the time the message was published as its start, so a redelivered event
/// republishes identical batches, which the stream de-duplicates.
pub fn event_run(
    payload: &[u8],
    msg_id: Option<&str>,
    started_at: UnixSeconds,
) -> Result<(RunHeader, Vec<Memory>), String> {
    let event: IngestEvent =
        serde_json::from_slice(payload).map_err(|e| format!("not a memory_ingested event: {e}"))?;
    if event.repo.trim().is_empty() {
        return Err("repo is empty; name the repo the memories describe".into());
    }
    let key = match (&event.event_id, msg_id) {
        (Some(id), _) => id.clone(),
        (None, Some(id)) => id.to_owned(),
        (None, None) => format!("{:016x}", fnv1a(payload)),
    };
    let run_id = format!("ingest-{}", crate::subjects::subject_token(&key));
    let source = event.source.clone().unwrap_or_else(|| "memory_ingested".to_owned());
    let mut memories = Vec::with_capacity(event.memories.len());
    for (index, m) in event.memories.into_iter().enumerate() {
        let id = match m.id {
            IdValue::Int(n) => n.to_string(),
            IdValue::Text(t) => t,
        };
        if m.tier > 2 {
            return Err(format!("memories[{index}].tier is {}; tiers are 0, 1 and 2", m.tier));
        }
        memories.push(Memory {
            id,
            agent: m.agent,
            content: m.content,
            tier: m.tier,
            kind: m.kind,
            created_at: m.created_at.as_ref().map(|d| parse_date(d, "created_at", index)).transpose()?,
            updated_at: m.updated_at.as_ref().map(|d| parse_date(d, "updated_at", index)).transpose()?,
            source: Source { path: source.clone(), line: None, row: None, format: "event".into() },
            context_dir: None,
            first_line: 1,
        });
    }
    crate::make_ids_unique(&mut memories);
    let header = RunHeader {
        run_id,
        repo: event.repo,
        commit: event.commit.filter(|c| !c.trim().is_empty()),
        started_at,
        expected_memories: memories.len() as u32,
    };
    Ok((header, memories))
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_becomes_a_deterministic_run() {
        let event = br#"{"event_id": "e-1", "repo": "shop", "commit": "abc",
            "memories": [
                {"id": 7, "agent": "a", "content": "`src/lib.rs` holds it", "tier": 2, "type": "feedback",
                 "created_at": "2026-03-15", "updated_at": "2026-03-16T10:00:00Z"},
                {"id": "7", "agent": "b", "content": "x", "created_at": 1773568800}
            ]}"#;
        let (header, memories) = event_run(event, Some("ignored"), 1_800_000_000).unwrap();
        assert_eq!(header.run_id, "ingest-e-1");
        assert_eq!(
            (header.repo.as_str(), header.commit.as_deref(), header.expected_memories),
            ("shop", Some("abc"), 2)
        );
        assert_eq!(header.started_at, 1_800_000_000);
        assert_eq!((memories[0].id.as_str(), memories[1].id.as_str()), ("7", "7~2"));
        assert_eq!((memories[0].tier, memories[0].kind.as_str()), (2, "feedback"));
        assert_eq!(memories[0].created_at, Some(1_773_532_800));
        assert_eq!(memories[0].updated_at, Some(1_773_655_200));
        assert_eq!((memories[1].kind.as_str(), memories[1].created_at), ("memory", Some(1_773_568_800)));
        assert_eq!(memories[1].source.path, "memory_ingested");
        // No event id: the message id names the run, else the payload's hash.
        let bare = br#"{"repo": "shop", "memories": []}"#;
        assert_eq!(event_run(bare, Some("m.1"), 0).unwrap().0.run_id, "ingest-m_1");
        assert_eq!(event_run(bare, None, 0).unwrap().0.run_id, event_run(bare, None, 0).unwrap().0.run_id);
    }

    #[test]
    fn bad_events_say_what_is_wrong() {
        let cases: [(&[u8], &str); 5] = [
            (b"not json", "not a memory_ingested event"),
            (br#"{"repo": "", "memories": []}"#, "repo is empty"),
            (
                br#"{"repo": "r", "memories": [{"id": 1, "agent": "a", "content": "c", "tier": 5}]}"#,
                "tiers are 0, 1 and 2",
            ),
            (
                br#"{"repo": "r", "memories": [{"id": 1, "agent": "a", "content": "c", "created_at": "yesterday"}]}"#,
                "memories[0].created_at",
            ),
            (br#"{"repo": "r", "memories": [], "extra": 1}"#, "unknown field"),
        ];
        for (event, want) in cases {
            let err = event_run(event, None, 0).unwrap_err();
            assert!(err.contains(want), "{err:?} should mention {want:?}");
        }
    }
}
