//! Request/reply over core NATS: a [`Responder`] loop that answers each request on a subject
//! with what a handler returns, and a [`Requester`] that asks and waits for the answer. For
//! questions that sit in someone's reply path (an agent asking the draft judge before it
//! answers its user), where a JetStream round trip through a stream would only add latency
//! and nothing needs to outlive a crash: an unanswered request simply times out for its
//! requester, which asks again.
//!
//! Like the rest of this crate it never decodes payloads (the handler does) and never holds an
//! unbounded queue: at most `concurrency` requests are handled at once; while all are busy
//! the loop stops reading, and the client's bounded subscription buffer is the only queue.
//!
//! The responder serves in a queue group; on its shutdown future it drains the subscription,
//! finishes what is in flight and flushes. The requester tells "nothing answers on S" from "no
//! answer within T". A [`Listener`] (`Requester::listen`, in a queue group or not) hands its
//! caller each message with its subject and reply subject, for a caller that decides itself
//! whether and when to answer: the reconciler role reconciles on a request with or without a
//! reply subject, one at a time.

use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use tokio::sync::Semaphore;

use crate::jetstream::{core_client, ConnectOptions, JetStream, JetStreamError};
use crate::TransportError;

/// What a responder did, readable while it runs and after.
#[derive(Debug, Default)]
pub struct ResponderStats {
    /// Requests answered.
    pub answered: AtomicU64,
    /// Messages without a reply subject (nobody to answer): dropped.
    pub no_reply_subject: AtomicU64,
    /// Answers that could not be published, or handlers that panicked.
    pub failed: AtomicU64,
}

/// A connection for request/reply; cheap to clone (it shares one NATS connection).
#[derive(Clone)]
pub struct Requester {
    client: async_nats::Client,
}

impl Requester {
    /// Connect for request/reply only (no JetStream needed on the server).
    pub async fn connect(options: &ConnectOptions) -> Result<Requester, JetStreamError> {
        Ok(Requester { client: core_client(options, Duration::from_secs(5)).await? })
    }

    /// Ask on `subject` and wait at most `timeout` for the answer.
    pub async fn request(&self, subject: &str, payload: Vec<u8>, timeout: Duration) -> Result<Vec<u8>, TransportError> {
        let request = async_nats::Request::new().payload(payload.into()).timeout(Some(timeout));
        match self.client.send_request(subject.to_owned(), request).await {
            Ok(message) => Ok(message.payload.to_vec()),
            Err(e) => Err(match e.kind() {
                async_nats::RequestErrorKind::NoResponders => {
                    TransportError::Unavailable(format!("nothing answers on {subject}"))
                }
                async_nats::RequestErrorKind::TimedOut => {
                    TransportError::Unavailable(format!("no answer on {subject} within {timeout:?}"))
                }
                _ => TransportError::Unavailable(format!("request on {subject} failed: {e}")),
            }),
        }
    }

    /// Subscribe to requests on `subject` in `queue_group`; once this returns, requests
    /// reach the responder (and wait in the subscription until [`Responder::run`] answers).
    pub async fn subscribe(
        &self,
        subject: &str,
        queue_group: &str,
        concurrency: usize,
    ) -> Result<Responder, TransportError> {
        let subscription = self
            .client
            .queue_subscribe(subject.to_owned(), queue_group.to_owned())
            .await
            .map_err(|e| TransportError::Unavailable(format!("cannot subscribe to {subject}: {e}")))?;
        // The server knows of the subscription once the client has flushed it.
        self.client
            .flush()
            .await
            .map_err(|e| TransportError::Unavailable(format!("cannot subscribe to {subject}: {e}")))?;
        Ok(Responder {
            client: self.client.clone(),
            subscription,
            subject: subject.to_owned(),
            concurrency: concurrency.max(1),
            stats: Arc::new(ResponderStats::default()),
        })
    }
}

/// A message on a core NATS subscription: its subject, its payload, and where to answer
/// it when the sender asked for an answer.
#[derive(Debug, Clone)]
pub struct Request {
    pub subject: String,
    pub payload: Vec<u8>,
    pub reply: Option<String>,
    /// The publisher's `Nats-Msg-Id`, when it set one: a retried publish carries the same.
    pub msg_id: Option<String>,
}

/// Messages on a core NATS subject (wildcards allowed), one at a time, for a caller that
/// decides per message whether and when to answer (the reconciler, which reconciles on a
/// request with or without a reply subject). Bounded by the client's subscription buffer.
pub struct Listener {
    subscription: async_nats::Subscriber,
}

impl Listener {
    /// The next message; `None` once the subscription has ended (drained or disconnected
    /// for good).
    pub async fn next(&mut self) -> Option<Request> {
        let message = self.subscription.next().await?;
        let msg_id = message
            .headers
            .as_ref()
            .and_then(|h| h.get(crate::jetstream::MSG_ID_HEADER))
            .map(|v| v.as_str().to_owned());
        Some(Request {
            subject: message.subject.to_string(),
            payload: message.payload.to_vec(),
            reply: message.reply.map(|r| r.to_string()),
            msg_id,
        })
    }

    /// Stop receiving: messages the server already sent are still returned by `next`.
    pub async fn drain(&mut self) -> Result<(), TransportError> {
        self.subscription
            .drain()
            .await
            .map_err(|e| TransportError::Unavailable(format!("cannot drain a subscription: {e}")))
    }
}

impl Requester {
    /// Listen on `subject`: in `queue_group` each message goes to one member of the group;
    /// without one, every listener gets every message.
    pub async fn listen(&self, subject: &str, queue_group: Option<&str>) -> Result<Listener, TransportError> {
        let subscribed = match queue_group {
            Some(group) => self.client.queue_subscribe(subject.to_owned(), group.to_owned()).await,
            None => self.client.subscribe(subject.to_owned()).await,
        };
        let subscription =
            subscribed.map_err(|e| TransportError::Unavailable(format!("cannot subscribe to {subject}: {e}")))?;
        self.client
            .flush()
            .await
            .map_err(|e| TransportError::Unavailable(format!("cannot subscribe to {subject}: {e}")))?;
        Ok(Listener { subscription })
    }

    /// Publish `payload` to a request's reply subject and flush it.
    pub async fn answer(&self, reply: &str, payload: Vec<u8>) -> Result<(), TransportError> {
        self.client
            .publish(reply.to_owned(), payload.into())
            .await
            .map_err(|e| TransportError::Unavailable(format!("cannot answer on {reply}: {e}")))?;
        self.client.flush().await.map_err(|e| TransportError::Unavailable(format!("cannot answer on {reply}: {e}")))
    }

    /// Publish on core NATS (no stream, no acknowledgement), flushed.
    pub async fn publish(&self, subject: &str, payload: Vec<u8>) -> Result<(), TransportError> {
        self.client
            .publish(subject.to_owned(), payload.into())
            .await
            .map_err(|e| TransportError::Unavailable(format!("cannot publish on {subject}: {e}")))?;
        self.client.flush().await.map_err(|e| TransportError::Unavailable(format!("cannot publish on {subject}: {e}")))
    }
}

impl JetStream {
    /// Request/reply over this connection.
    pub fn requester(&self) -> Requester {
        Requester { client: self.client.clone() }
    }
}

/// Answers requests on one subject. Replicas share the work through the queue group: each
/// request goes to one of them.
pub struct Responder {
    client: async_nats::Client,
    subscription: async_nats::Subscriber,
    subject: String,
    concurrency: usize,
    stats: Arc<ResponderStats>,
}

impl Responder {
    pub fn stats(&self) -> Arc<ResponderStats> {
        self.stats.clone()
    }

    /// Serve until `shutdown` resolves: each request's payload goes to `handler`, whose bytes
    /// are published to the request's reply subject. On shutdown it stops taking requests
    /// (drains the subscription: what the server already sent is still answered), waits for
    /// the handlers in flight, flushes, and returns.
    pub async fn run<H, F, S>(self, handler: H, shutdown: S) -> Result<Arc<ResponderStats>, TransportError>
    where
        H: Fn(Vec<u8>) -> F + Send + Sync + 'static,
        F: Future<Output = Vec<u8>> + Send + 'static,
        S: Future<Output = ()> + Send,
    {
        let mut subscription = self.subscription;
        let handler = Arc::new(handler);
        let permits = Arc::new(Semaphore::new(self.concurrency));
        let mut tasks = tokio::task::JoinSet::new();
        tokio::pin!(shutdown);
        let mut draining = false;
        loop {
            let message = tokio::select! {
                _ = &mut shutdown, if !draining => {
                    draining = true;
                    if let Err(e) = subscription.drain().await {
                        tracing::warn!(error = %e, subject = %self.subject, "could not drain the subscription");
                        break;
                    }
                    continue;
                }
                Some(done) = tasks.join_next(), if !tasks.is_empty() => {
                    if let Err(e) = done {
                        self.stats.failed.fetch_add(1, Ordering::Relaxed);
                        tracing::error!(error = %e, subject = %self.subject, "request handler failed");
                    }
                    continue;
                }
                message = subscription.next() => message,
            };
            let Some(message) = message else { break };
            let Some(reply) = message.reply.clone() else {
                self.stats.no_reply_subject.fetch_add(1, Ordering::Relaxed);
                continue;
            };
            // Bounded: no new request is read while `concurrency` are being handled.
            let permit = permits
                .clone()
                .acquire_owned()
                .await
                .map_err(|_| TransportError::Closed("responder semaphore closed".into()))?;
            let (handler, client, stats) = (handler.clone(), self.client.clone(), self.stats.clone());
            tasks.spawn(async move {
                let answer = handler(message.payload.to_vec()).await;
                match client.publish(reply, answer.into()).await {
                    Ok(()) => stats.answered.fetch_add(1, Ordering::Relaxed),
                    Err(e) => {
                        tracing::warn!(error = %e, "could not publish an answer");
                        stats.failed.fetch_add(1, Ordering::Relaxed)
                    }
                };
                drop(permit);
            });
        }
        while let Some(done) = tasks.join_next().await {
            if let Err(e) = done {
                self.stats.failed.fetch_add(1, Ordering::Relaxed);
                tracing::error!(error = %e, subject = %self.subject, "request handler failed");
            }
        }
        if let Err(e) = self.client.flush().await {
            tracing::warn!(error = %e, "could not flush the last answers");
        }
        Ok(self.stats)
    }
}
