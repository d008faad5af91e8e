//! What a cluster gave up on (`memval dlq list|replay`), and a way to try again. Its views
//! are `memval_report::dlq`'s ([`Letter::view`]).
//!
//! A dead letter is the original payload, untouched, with the reason and origin in headers,
//! so replaying it is publishing the same bytes on the same subject (or another one, for a
//! message of a version only a newer build speaks).
//!
//! [`select`] is what a replay names, refusing a sequence that names no dead letter; a replay is
//! published under the id `<original id>:replay<dlq seq>`, and the letter is removed unless kept.

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

/// The letters a replay names: every one of `all` with `every`, else those with the given
/// sequences, in `all`'s order. A sequence that names no letter is an error listing them all,
/// so a typo never replays a subset quietly.
pub fn select<'a>(all: &'a [Letter], sequences: &[u64], every: bool) -> Result<Vec<&'a Letter>, Error> {
    if every {
        return Ok(all.iter().collect());
    }
    let missing: Vec<u64> =
        sequences.iter().copied().filter(|s| !all.iter().any(|l| l.stored.sequence == *s)).collect();
    if !missing.is_empty() {
        return Err(Error::Usage(format!("no dead letter with sequence {missing:?} (see `memval dlq list`)")));
    }
    Ok(all.iter().filter(|l| sequences.contains(&l.stored.sequence)).collect())
}

/// Publish each of `chosen` again on its original subject (or `subject`), confirmed, and
/// delete it from the dead-letter stream unless `keep`. `replayed` hears each one as it goes
/// (sequence, subject), so what was done is known even when a later one fails.
pub async fn replay(
    js: &JetStream,
    chosen: &[&Letter],
    subject: Option<&str>,
    keep: bool,
    replayed: &mut dyn FnMut(u64, &str),
) -> Result<(), Error> {
    let outbox = js.outbox();
    let config = StageConfig::default();
    for letter in chosen {
        let h = &letter.stored.headers;
        let to = match (subject, h.get(header::DLQ_SUBJECT)) {
            (Some(s), _) => s.to_owned(),
            (None, Some(s)) => s.to_owned(),
            (None, None) => {
                return Err(Error::Usage(format!(
                    "dead letter {} does not say where it came from; pass --subject",
                    letter.stored.sequence
                )))
            }
        };
        // A fresh id (the original is still in the stream's duplicate window), but the same
        // one if this replay is repeated.
        let msg_id = format!("{}:replay{}", h.get(header::DLQ_MSG_ID).unwrap_or("dlq"), letter.stored.sequence);
        let message =
            Outgoing { subject: to.clone(), msg_id, headers: h.propagated(), payload: letter.stored.payload.clone() };
        publish_confirmed(&outbox, message, &config)
            .await
            .map_err(|e| Error::Incomplete(format!("replaying {}: {e}", letter.stored.sequence)))?;
        if !keep {
            js.delete_message(topology::DLQ, letter.stored.sequence).await?;
        }
        replayed(letter.stored.sequence, &to);
    }
    Ok(())
}

impl Letter {
    /// What `memval dlq list` shows of it ([`memval_report::dlq`] renders it).
    pub fn view(&self) -> memval_report::dlq::DeadLetter {
        let h = &self.stored.headers;
        let text = |name: &str| h.get(name).map(str::to_owned);
        memval_report::dlq::DeadLetter {
            sequence: self.stored.sequence,
            time: self.stored.time,
            stage: self.stage.clone(),
            run: self.run.clone(),
            subject: text(header::DLQ_SUBJECT),
            msg_id: text(header::DLQ_MSG_ID),
            delivery: text(header::DLQ_DELIVERY),
            reason: text(header::DLQ_REASON),
            bytes: self.stored.payload.len(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use memval_transport::Headers;

    fn letter(sequence: u64) -> Letter {
        let stored = StoredMessage {
            sequence,
            subject: "memval.v1.dlq.scorer".into(),
            headers: Headers::new(),
            payload: Vec::new(),
            time: 0,
        };
        Letter { stored, stage: "scorer".into(), run: None }
    }

    #[test]
    fn a_replay_selects_what_it_names_or_refuses() {
        let all = [letter(3), letter(5), letter(9)];
        let seqs = |chosen: Vec<&Letter>| chosen.iter().map(|l| l.stored.sequence).collect::<Vec<_>>();
        assert_eq!(seqs(select(&all, &[], true).unwrap()), [3, 5, 9]);
        assert_eq!(seqs(select(&all, &[9, 3], false).unwrap()), [3, 9], "in stream order");
        let err = select(&all, &[5, 4, 7], false).err().unwrap().to_string();
        assert_eq!(err, "no dead letter with sequence [4, 7] (see `memval dlq list`)");
        assert!(select(&[], &[], false).unwrap().is_empty());
    }
}
