//! How a run enters a pipeline, in process or on a cluster: its memories cut into batches
//! whose ids are made here and nowhere else (`{run_id}.m{n}`), and how a dead letter is
//! traced back to the run it belongs to.

use futures::stream::{self, StreamExt, TryStreamExt};
use memval_proto::{codec, subjects, ClaimBatch, Memory, MemoryBatch, Message, RunHeader, VerdictBatch};
use memval_runtime::{publish_confirmed, StageConfig};
use memval_transport::{header, Envelope, Headers, Outbox, Outgoing};

use crate::Error;

/// Batches submitted at once, each waiting for the transport to store it.
const IN_FLIGHT: usize = 16;

/// A run's memories as batches of at most `batch_size`, in order.
pub fn memory_batches<'a>(
    header: &'a RunHeader,
    memories: &'a [Memory],
    batch_size: usize,
) -> impl Iterator<Item = MemoryBatch> + 'a {
    memories.chunks(batch_size.max(1)).enumerate().map(move |(n, chunk)| MemoryBatch {
        run: header.clone(),
        batch_id: format!("{}.m{n}", header.run_id),
        memories: chunk.to_vec(),
    })
}

/// The headers every batch of a run carries: the run id and the trace context of the
/// caller's span (or else that of `parent`, what started the run).
pub fn run_headers(run_id: &str, parent: &Headers) -> Headers {
    let mut headers = parent.propagated();
    headers.insert(header::RUN, run_id);
    memval_runtime::trace::inject(&tracing::Span::current(), &mut headers);
    headers
}

/// Publish a run's memory batches, confirmed, [`IN_FLIGHT`] at a time.
pub async fn submit_batches(
    outbox: &dyn Outbox,
    header: &RunHeader,
    memories: &[Memory],
    batch_size: usize,
    config: &StageConfig,
    parent: &Headers,
) -> Result<(), Error> {
    let headers = run_headers(&header.run_id, parent);
    stream::iter(memory_batches(header, memories, batch_size))
        .map(|batch| {
            let headers = headers.clone();
            async move {
                let payload = codec::encode(&batch).map_err(Error::codec("encoding a memory batch"))?;
                let message = Outgoing { subject: batch.subject(), msg_id: batch.batch_id.clone(), headers, payload };
                publish_confirmed(outbox, message, config)
                    .await
                    .map_err(|e| Error::Incomplete(format!("submitting {}: {e}", batch.batch_id)))
            }
        })
        .buffer_unordered(IN_FLIGHT)
        .try_collect::<Vec<()>>()
        .await?;
    Ok(())
}

/// Whether a dead letter came from run `run_id`.
pub fn belongs_to(envelope: &Envelope, run_id: &str) -> bool {
    run_of(&envelope.headers, &envelope.payload).is_some_and(|r| r == run_id || subjects::subject_token(&r) == run_id)
}

/// The run a dead letter belongs to, when it can be told: its run header, else the run of the
/// batch it carries, else (a payload that no longer decodes) the message id [`memory_batches`]
/// gave it.
pub fn run_of(headers: &Headers, payload: &[u8]) -> Option<String> {
    if let Some(run) = headers.get(header::RUN) {
        return Some(run.to_owned());
    }
    let subject = headers.get(header::DLQ_SUBJECT).unwrap_or("");
    let family = subject.split('.').nth(2).unwrap_or("");
    let decoded = match family {
        "memories" => codec::decode::<MemoryBatch>(payload).ok().map(|b| b.run.run_id),
        "claims" => codec::decode::<ClaimBatch>(payload).ok().map(|b| b.run.run_id),
        "verdicts" => codec::decode::<VerdictBatch>(payload).ok().map(|b| b.run.run_id),
        "pairs" => codec::decode::<memval_proto::PairBatch>(payload).ok().map(|b| b.run.run_id),
        _ => None,
    };
    decoded.or_else(|| {
        let msg_id = headers.get(header::DLQ_MSG_ID)?;
        msg_id.split_once(".m").map(|(run, _)| run.to_owned())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dead_letter_is_matched_to_its_run() {
        let mut by_header = Headers::new();
        by_header.insert(header::RUN, "r-1");
        assert_eq!(run_of(&by_header, b"").as_deref(), Some("r-1"));
        let mut by_id = Headers::new();
        by_id.insert(header::DLQ_SUBJECT, "memval.v1.claims");
        by_id.insert(header::DLQ_MSG_ID, "r-2.m4.c:0");
        assert_eq!(run_of(&by_id, &[0xff]).as_deref(), Some("r-2"));
        let batch = ClaimBatch {
            run: RunHeader {
                run_id: "r-3".into(),
                repo: ".".into(),
                commit: None,
                started_at: 0,
                expected_memories: 0,
            },
            batch_id: "x".into(),
            items: Vec::new(),
        };
        let mut by_payload = Headers::new();
        by_payload.insert(header::DLQ_SUBJECT, "memval.v1.claims");
        assert_eq!(run_of(&by_payload, &codec::encode(&batch).unwrap()).as_deref(), Some("r-3"));
        assert_eq!(run_of(&Headers::new(), b"junk"), None);
    }

    #[test]
    fn batch_ids_number_the_run_s_chunks() {
        let header =
            RunHeader { run_id: "r".into(), repo: ".".into(), commit: None, started_at: 0, expected_memories: 5 };
        let memory = |id: &str| Memory {
            id: id.into(),
            agent: "a".into(),
            content: String::new(),
            tier: 0,
            kind: "memory".into(),
            created_at: None,
            updated_at: None,
            source: memval_proto::Source { path: "m".into(), line: None, row: None, format: "json".into() },
            context_dir: None,
            first_line: 1,
        };
        let memories: Vec<Memory> = ["1", "2", "3", "4", "5"].into_iter().map(memory).collect();
        let batches: Vec<(String, usize)> =
            memory_batches(&header, &memories, 2).map(|b| (b.batch_id, b.memories.len())).collect();
        assert_eq!(batches, vec![("r.m0".into(), 2), ("r.m1".into(), 2), ("r.m2".into(), 1)]);
    }
}
