//! How batches move between stages: an [`Inbox`] yields encoded messages with an [`Acker`],
//! an [`Outbox`] publishes encoded messages under a deterministic message id.
//!
//! Stages never see this crate's types directly; the runtime drives them. The in-process
//! transport ([`inproc`]) is bounded tokio channels carrying the same bytes a broker would;
//! [`jetstream`] is NATS JetStream (durable pull consumers, confirmed publishes, a
//! dead-letter stream); [`reply`] is core NATS request/reply for questions in a reply path.
//! This is the only crate that may depend on `async-nats`.
//! This crate must never decode payloads (that is the runtime's job, so a poison message is
//! handled the same way on every transport) and must never hold an unbounded queue.
//!
//! `Outbox::send_stored` also says where a message was stored when the transport numbers it
//! (JetStream's stream sequence), so a sender can delete what nobody will read.
//!
//! [`Headers`] travel with every message: `Memval-Run` (the run id, so a dead letter can be
//! matched to its run without decoding it) and the W3C trace context (`traceparent`,
//! `tracestate`, `baggage`), which the runtime copies from each input to its outputs, or
//! replaces with its own span's context when tracing is on (`docs/tracing.md`).

pub mod inproc;
pub mod jetstream;
pub mod reply;

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

#[derive(Debug, thiserror::Error)]
pub enum TransportError {
    /// The peer is gone for good (channel closed, stream deleted).
    #[error("transport closed: {0}")]
    Closed(String),
    /// A passing failure (broker unreachable, publish not confirmed); worth retrying.
    #[error("transport unavailable: {0}")]
    Unavailable(String),
    /// The broker refused this one message for good (too large, invalid subject).
    #[error("message rejected: {0}")]
    Rejected(String),
}

/// Header names memval gives a meaning to. Values are single-line text.
pub mod header {
    /// The run a message belongs to, set on every message the runtime publishes, so a
    /// dead letter can be matched to its run without decoding its payload.
    pub const RUN: &str = "Memval-Run";
    /// W3C trace context: copied from each input to its outputs, so one run is one trace
    /// across services.
    pub const TRACEPARENT: &str = "traceparent";
    pub const TRACESTATE: &str = "tracestate";
    pub const BAGGAGE: &str = "baggage";
    /// Headers carried from an input message to every output derived from it.
    pub const PROPAGATED: &[&str] = &[RUN, TRACEPARENT, TRACESTATE, BAGGAGE];
    /// On a dead letter: why it failed.
    pub const DLQ_REASON: &str = "Memval-Dlq-Reason";
    /// On a dead letter: the subject and message id it was consumed from.
    pub const DLQ_SUBJECT: &str = "Memval-Dlq-Subject";
    pub const DLQ_MSG_ID: &str = "Memval-Dlq-Msg-Id";
    /// On a dead letter: the stage (consumer) that gave up, and on which delivery.
    pub const DLQ_STAGE: &str = "Memval-Dlq-Stage";
    pub const DLQ_DELIVERY: &str = "Memval-Dlq-Delivery";
    /// On a lease: `running`, `done` or `failed` (see `jetstream::LeaseState`); a lease
    /// message without it (an older reconciler's claim) is running.
    pub const LEASE: &str = "Memval-Lease";
    /// On a lease: the seconds its holder lets pass at most without a heartbeat, so a watcher
    /// configured with a shorter time does not take over from a live holder.
    pub const LEASE_TTL: &str = "Memval-Lease-Ttl";
}

/// Message headers, in insertion order. Names compare case-insensitively; values are kept
/// to one line (a broker header cannot hold a line break).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Headers(Vec<(String, String)>);

impl Headers {
    pub fn new() -> Headers {
        Headers::default()
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// Set `name` to `value`, replacing an earlier value. Control characters become spaces.
    pub fn insert(&mut self, name: &str, value: &str) {
        let value: String = value.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
        match self.0.iter_mut().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
            Some(slot) => slot.1 = value,
            None => self.0.push((name.to_owned(), value)),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The headers of `self` that travel from an input to its outputs.
    pub fn propagated(&self) -> Headers {
        Headers(
            self.0
                .iter()
                .filter(|(n, _)| header::PROPAGATED.iter().any(|p| p.eq_ignore_ascii_case(n)))
                .cloned()
                .collect(),
        )
    }
}

impl TransportError {
    pub fn is_retryable(&self) -> bool {
        matches!(self, TransportError::Unavailable(_))
    }
}

/// One delivered message, still owing an answer to the transport.
pub struct Envelope {
    pub subject: String,
    pub payload: Vec<u8>,
    /// Deterministic id the publisher gave it, when the transport keeps one.
    pub msg_id: Option<String>,
    /// 1 on first delivery, higher on redelivery.
    pub delivery: u32,
    /// When the broker stored the message (Unix seconds); `None` in process. The same on
    /// every redelivery, so what is derived from it stays deterministic.
    pub published_at: Option<i64>,
    pub headers: Headers,
    pub acker: Box<dyn Acker>,
}

impl std::fmt::Debug for Envelope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Envelope")
            .field("subject", &self.subject)
            .field("len", &self.payload.len())
            .field("msg_id", &self.msg_id)
            .field("delivery", &self.delivery)
            .finish()
    }
}

/// What a consumer owes a delivered message. Exactly one of `ack`, `nak`, `dead_letter`
/// is called, after the message's outputs are published.
pub trait Acker: Send + Sync {
    /// Done: never deliver again.
    fn ack(self: Box<Self>) -> BoxFuture<'static, Result<(), TransportError>>;
    /// Failed for a passing reason: deliver again after `delay`.
    fn nak(self: Box<Self>, delay: Duration) -> BoxFuture<'static, Result<(), TransportError>>;
    /// Failed for good: keep the payload and the reason on the dead-letter subject, then
    /// never deliver again.
    fn dead_letter(self: Box<Self>, reason: String, payload: Vec<u8>)
        -> BoxFuture<'static, Result<(), TransportError>>;
    /// Still working: keep the message from being redelivered while a long batch runs.
    fn progress(&self) -> BoxFuture<'static, Result<(), TransportError>>;
}

/// Source of messages for one stage. Several workers may share one inbox.
pub trait Inbox: Send + Sync {
    /// The next message, or `None` once the inbox is closed and drained.
    fn next(&self) -> BoxFuture<'_, Option<Result<Envelope, TransportError>>>;

    /// Stop fetching, and hand back to the transport anything fetched but not yet returned
    /// by `next`, so another consumer gets it now instead of after an ack timeout. Called
    /// once, after the last `next`.
    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(async {})
    }
}

/// One message to publish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outgoing {
    pub subject: String,
    /// Deterministic id; a transport that de-duplicates uses it for that.
    pub msg_id: String,
    pub headers: Headers,
    pub payload: Vec<u8>,
}

/// Where a stage's outputs go.
pub trait Outbox: Send + Sync {
    /// Publish and wait until the transport has accepted (stored) the message.
    fn send(&self, message: Outgoing) -> BoxFuture<'_, Result<(), TransportError>>;

    /// [`Outbox::send`], returning where the transport stored the message when it numbers
    /// what it stores (a JetStream stream sequence; `None` elsewhere), so the sender can
    /// withdraw it later.
    fn send_stored(&self, message: Outgoing) -> BoxFuture<'_, Result<Option<u64>, TransportError>> {
        Box::pin(async move { self.send(message).await.map(|()| None) })
    }

    /// [`Outbox::send`] without headers.
    fn publish(&self, subject: &str, msg_id: String, payload: Vec<u8>) -> BoxFuture<'_, Result<(), TransportError>> {
        self.send(Outgoing { subject: subject.to_owned(), msg_id, headers: Headers::new(), payload })
    }
}

/// A message that could not be processed, kept with its reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeadLetter {
    pub subject: String,
    pub msg_id: Option<String>,
    pub headers: Headers,
    pub reason: String,
    pub payload: Vec<u8>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_replace_case_insensitively_and_stay_on_one_line() {
        let mut h = Headers::new();
        h.insert("Memval-Run", "r1");
        h.insert("memval-run", "r2");
        h.insert(header::DLQ_REASON, "bad\r\ninput");
        h.insert("X-Other", "x");
        assert_eq!(h.get("MEMVAL-RUN"), Some("r2"));
        assert_eq!(h.get(header::DLQ_REASON), Some("bad  input"));
        let propagated: Vec<_> = h.propagated().iter().map(|(n, _)| n.to_owned()).collect();
        assert_eq!(propagated, vec!["Memval-Run"]);
    }
}
