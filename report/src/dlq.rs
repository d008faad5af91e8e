//! `memval dlq list`'s views: the dead letters a cluster gave up on, as one JSON document or
//! two lines each for a terminal.
//!
//! Every field but the sequence, time and sizes comes from message headers another process
//! wrote (a reason can quote a payload), so both views make it inert for a terminal before
//! they return; the table shows each through [`one_line`], so a reason quoting a payload with
//! newlines cannot print dead letters that do not exist. Rendering only: the letters are read
//! and replayed by `memval-pipeline`.

use std::fmt::Write as _;

use memval_proto::display::{json_safe, one_line, terminal_safe};

/// What a view shows of one dead letter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeadLetter {
    /// The dead-letter stream's sequence (what `memval dlq replay` takes).
    pub sequence: u64,
    /// Unix seconds when the stream stored it.
    pub time: i64,
    pub stage: String,
    pub run: Option<String>,
    /// The subject it was consumed from.
    pub subject: Option<String>,
    pub msg_id: Option<String>,
    /// Delivery count when it was given up on, as its header said it.
    pub delivery: Option<String>,
    pub reason: Option<String>,
    /// Payload size.
    pub bytes: usize,
}

/// The dead letters as one pretty JSON document (a list), one trailing newline.
pub fn to_json(letters: &[DeadLetter]) -> String {
    let items: Vec<serde_json::Value> = letters
        .iter()
        .map(|l| {
            serde_json::json!({
                "sequence": l.sequence,
                "time": memval_proto::rfc3339(l.time),
                "stage": l.stage,
                "run": l.run,
                "subject": l.subject,
                "msg_id": l.msg_id,
                "delivery": l.delivery.as_deref().and_then(|d| d.parse::<u32>().ok()),
                "reason": l.reason,
                "bytes": l.bytes,
            })
        })
        .collect();
    // A list of strings and numbers always serialises.
    json_safe(&(serde_json::to_string_pretty(&items).unwrap_or_default() + "\n"))
}

/// Two lines per dead letter: where it came from, then why it was given up on.
pub fn to_table(letters: &[DeadLetter]) -> String {
    let mut out = String::new();
    if letters.is_empty() {
        out.push_str("no dead letters\n");
    }
    for l in letters {
        let _ = writeln!(
            out,
            "{:>6}  {}  {:<12}  {}  {}  run {}",
            l.sequence,
            memval_proto::rfc3339(l.time),
            one_line(&l.stage),
            one_line(l.subject.as_deref().unwrap_or("?")),
            one_line(l.msg_id.as_deref().unwrap_or("-")),
            one_line(l.run.as_deref().unwrap_or("?")),
        );
        let _ = writeln!(out, "        {}", one_line(l.reason.as_deref().unwrap_or("no reason given")));
    }
    terminal_safe(&out)
}
