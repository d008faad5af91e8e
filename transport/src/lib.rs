//! How batches move between stages: an [`Inbox`] yields encoded messages with an [`Acker`],
//! an [`Outbox`] publishes encoded messages under a deterministic message id.
//!
//! Stages never see this crate's types directly; the runtime drives them. The in-process
//! transport ([`inproc`]) is bounded tokio channels carrying the same bytes a broker would.
//! This crate must never decode payloads (that is the runtime's job, so a poison message is
//! handled the same way on every transport) and must never hold an unbounded queue.

pub mod inproc;

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
pub trait Acker: Send {
    /// Done: never deliver again.
    fn ack(self: Box<Self>) -> BoxFuture<'static, Result<(), TransportError>>;
    /// Failed for a passing reason: deliver again after `delay`.
    fn nak(self: Box<Self>, delay: Duration) -> BoxFuture<'static, Result<(), TransportError>>;
    /// Failed for good: keep the payload and the reason on the dead-letter subject, then
    /// never deliver again.
    fn dead_letter(
        self: Box<Self>,
        reason: String,
        payload: Vec<u8>,
    ) -> BoxFuture<'static, Result<(), TransportError>>;
    /// Still working: keep the message from being redelivered while a long batch runs.
    fn progress(&self) -> BoxFuture<'static, Result<(), TransportError>>;
}

/// Source of messages for one stage. Several workers may share one inbox.
pub trait Inbox: Send + Sync {
    /// The next message, or `None` once the inbox is closed and drained.
    fn next(&self) -> BoxFuture<'_, Option<Result<Envelope, TransportError>>>;
}

/// Where a stage's outputs go.
pub trait Outbox: Send + Sync {
    /// Publish and wait until the transport has accepted the message. A transport that
    /// de-duplicates uses `msg_id` for it.
    fn publish(
        &self,
        subject: &str,
        msg_id: String,
        payload: Vec<u8>,
    ) -> BoxFuture<'_, Result<(), TransportError>>;
}

/// A message that could not be processed, kept with its reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeadLetter {
    pub subject: String,
    pub msg_id: Option<String>,
    pub reason: String,
    pub payload: Vec<u8>,
}
