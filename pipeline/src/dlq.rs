//! What a cluster gave up on (`memval dlq list|replay`), and a way to try again.
//!
//! A dead letter is the original payload, untouched, with the reason and origin in headers,
//! so replaying it is publishing the same bytes on the same subject (or another one, for a
//! message of a version only a newer build speaks).

use std::fmt::Write as _;

use memval_runtime::{publish_confirmed, StageConfig};
use memval_transport::jetstream::{JetStream, StoredMessage};
use memval_transport::{header, Outgoing};

use crate::submit::run_of;
use crate::topology;
use crate::Error;

/// A stored dead letter with the stage that gave up on it and the run it belongs to.
pub struct Letter {
    pub stored: StoredMessage,
    pub stage: String,
    pub run: Option<String>,
}

/// Which dead letters to look at.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub stage: Option<String>,
    pub run: Option<String>,
    /// Read at most this many stored messages.
    pub limit: usize,
}

/// The dead letters `filter` selects, oldest first.
pub async fn letters(js: &JetStream, filter: &Filter) -> Result<Vec<Letter>, Error> {
    let stored = js.stored_messages(topology::DLQ, 0, filter.limit).await?;
    Ok(stored
        .into_iter()
        .map(|stored| {
            let stage = stored
                .headers
                .get(header::DLQ_STAGE)
                .map(str::to_owned)
                .unwrap_or_else(|| stored.subject.rsplit('.').next().unwrap_or("").to_owned());
            let run = run_of(&stored.headers, &stored.payload);
            Letter { stored, stage, run }
        })
        .filter(|l| filter.stage.as_ref().is_none_or(|s| *s == l.stage))
        .filter(|l| filter.run.as_ref().is_none_or(|r| l.run.as_ref() == Some(r)))
        .collect())
}

/// Publish each of `chosen` again on its original subject (or `subject`), confirmed, and
/// delete it from the dead-letter stream unless `keep`. `replayed` hears each one as it goes
/// (sequence, subject), so what was done is known even when a later one fails.
pub async fn replay(js: &JetStream, chosen: &[&Letter], subject: Option<&str>, keep: bool, replayed: &mut dyn FnMut(u64, &str)) -> Result<(), Error> {
    let outbox = js.outbox();
    let config = StageConfig::default();
    for letter in chosen {
        let h = &letter.stored.headers;
        let to = match (subject, h.get(header::DLQ_SUBJECT)) {
            (Some(s), _) => s.to_owned(),
            (None, Some(s)) => s.to_owned(),
            (None, None) => {
                return Err(Error::Usage(format!("dead letter {} does not say where it came from; pass --subject", letter.stored.sequence)))
            }
        };
        // A fresh id (the original is still in the stream's duplicate window), but the same
        // one if this replay is repeated.
        let msg_id = format!("{}:replay{}", h.get(header::DLQ_MSG_ID).unwrap_or("dlq"), letter.stored.sequence);
        let message = Outgoing { subject: to.clone(), msg_id, headers: h.propagated(), payload: letter.stored.payload.clone() };
        publish_confirmed(&outbox, message, &config).await.map_err(|e| Error::Incomplete(format!("replaying {}: {e}", letter.stored.sequence)))?;
        if !keep {
            js.delete_message(topology::DLQ, letter.stored.sequence).await?;
        }
        replayed(letter.stored.sequence, &to);
    }
    Ok(())
}

/// The dead letters as one JSON document.
pub fn to_json(letters: &[Letter]) -> String {
    let items: Vec<serde_json::Value> = letters
        .iter()
        .map(|l| {
            let h = &l.stored.headers;
            serde_json::json!({
                "sequence": l.stored.sequence,
                "time": memval_proto::rfc3339(l.stored.time),
                "stage": l.stage,
                "run": l.run,
                "subject": h.get(header::DLQ_SUBJECT),
                "msg_id": h.get(header::DLQ_MSG_ID),
                "delivery": h.get(header::DLQ_DELIVERY).and_then(|d| d.parse::<u32>().ok()),
                "reason": h.get(header::DLQ_REASON),
                "bytes": l.stored.payload.len(),
            })
        })
        .collect();
    serde_json::to_string_pretty(&items).expect("dead letters serialise") + "\n"
}

/// Two lines per dead letter: where it came from, then why it was given up on.
pub fn to_table(letters: &[Letter]) -> String {
    let mut out = String::new();
    if letters.is_empty() {
        out.push_str("no dead letters\n");
    }
    for l in letters {
        let h = &l.stored.headers;
        let _ = writeln!(
            out,
            "{:>6}  {}  {:<12}  {}  {}  run {}",
            l.stored.sequence,
            memval_proto::rfc3339(l.stored.time),
            l.stage,
            h.get(header::DLQ_SUBJECT).unwrap_or("?"),
            h.get(header::DLQ_MSG_ID).unwrap_or("-"),
            l.run.as_deref().unwrap_or("?"),
        );
        let _ = writeln!(out, "        {}", h.get(header::DLQ_REASON).unwrap_or("no reason given"));
    }
    out
}
