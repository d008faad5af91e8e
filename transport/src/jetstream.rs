//! NATS JetStream transport: a durable pull consumer is an [`Inbox`], a confirmed publish
//! with a `Nats-Msg-Id` is an [`Outbox`], and a dead letter is a message on a dead-letter
//! subject (reason and origin in headers, the original payload untouched) followed by a
//! `Term` of the original.
//!
//! Topology (which streams exist and which subjects they hold) is the caller's; this module
//! creates what it is given, or verifies what is already there. It speaks to nats-server
//! 2.9 and later: one filter subject per consumer and no stream fields newer than 2.9.
//!
//! Bounds: a consumer's unacknowledged messages are capped by `max_ack_pending` (shared by
//! every replica), and one inbox never asks for more messages than it has workers waiting
//! (at most `max_batch`), so nothing piles up unprocessed in a process.
//!
//! async-nats is built with its default features off, so nothing assumes a server newer than
//! 2.9. An inbox is a durable pull consumer: each pull request asks for as many messages as
//! workers are waiting (at most the stage's concurrency), so nothing waits fetched but
//! unstarted, and `max_ack_pending` caps what all replicas hold together. An outbox publishes
//! with the `Nats-Msg-Id` header set to the id the runtime gives and waits for the stream's
//! acknowledgement before it returns. An acker answers `+ACK`, `-NAK` (with the runtime's
//! delay), `+WPI` (progress) or, for a dead letter, publishes the original payload to the
//! stage's dead-letter subject with the reason, original subject, message id, stage and
//! delivery count in headers, waits for that to be stored, then sends `+TERM`. `Inbox::close`
//! (called once a stage stops) naks whatever the open pull request still delivers, so another
//! replica gets it at once. [`JetStream::ensure_stream`] and [`JetStream::inbox`] create what
//! is missing and refuse, naming the differences, a stream or consumer that exists with other
//! subjects, retention, filter or deliver policy.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use async_nats::jetstream::consumer::{pull, AckPolicy, DeliverPolicy, PullConsumer};
use async_nats::jetstream::context::{ConsumerInfoErrorKind, GetStreamErrorKind, PublishErrorKind};
use async_nats::jetstream::message::PublishMessage;
use async_nats::jetstream::stream::{
    DeleteMessageErrorKind, DiscardPolicy, RawMessageError, RawMessageErrorKind, RetentionPolicy, StorageType,
};
use async_nats::jetstream::{self, AckKind, ErrorCode};
use async_nats::{HeaderMap, Subject};
use futures::StreamExt;
use tokio::time::Instant;

use crate::{header, Acker, BoxFuture, Envelope, Headers, Inbox, Outbox, Outgoing, TransportError};

/// The header JetStream de-duplicates publishes by.
pub const MSG_ID_HEADER: &str = "Nats-Msg-Id";

/// Longest dead-letter reason kept in a header.
const MAX_REASON: usize = 4096;

/// How a connection authenticates. `Debug` never prints a secret.
#[derive(Clone, Default)]
pub enum Auth {
    #[default]
    None,
    UserPassword {
        user: String,
        password: String,
    },
    Token(String),
    /// An nkey seed (`SU...`).
    NKeySeed(String),
    /// A `.creds` file (user JWT and nkey seed).
    CredsFile(PathBuf),
}

impl std::fmt::Debug for Auth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Auth::None => f.write_str("None"),
            Auth::UserPassword { user, .. } => write!(f, "UserPassword({user}, ***)"),
            Auth::Token(_) => f.write_str("Token(***)"),
            Auth::NKeySeed(_) => f.write_str("NKeySeed(***)"),
            Auth::CredsFile(path) => write!(f, "CredsFile({})", path.display()),
        }
    }
}

/// TLS settings passed through to the client.
#[derive(Debug, Clone, Default)]
pub struct Tls {
    /// PEM file of the CA that signed the server's certificate.
    pub ca: Option<PathBuf>,
    /// PEM client certificate and key, for servers that verify clients.
    pub cert: Option<PathBuf>,
    pub key: Option<PathBuf>,
    /// Refuse to talk to a server that does not offer TLS.
    pub required: bool,
}

#[derive(Debug, Clone)]
pub struct ConnectOptions {
    /// `nats://host:port`, `tls://host:port`, or several separated by commas.
    pub url: String,
    /// Connection name shown by the server (`memval-investigator`).
    pub name: String,
    pub auth: Auth,
    pub tls: Tls,
    /// Time allowed to reach the server at start-up.
    pub connect_timeout: Duration,
}

impl ConnectOptions {
    pub fn new(url: impl Into<String>, name: impl Into<String>) -> ConnectOptions {
        ConnectOptions {
            url: url.into(),
            name: name.into(),
            auth: Auth::None,
            tls: Tls::default(),
            connect_timeout: Duration::from_secs(5),
        }
    }
}

/// Consumer and request settings.
#[derive(Debug, Clone)]
pub struct Settings {
    /// A delivery not answered (ack, nak, term or progress) within this time is redelivered.
    pub ack_wait: Duration,
    /// Unacknowledged messages a consumer may have out at once, over all its replicas.
    pub max_ack_pending: i64,
    /// How long one pull request waits on the server for messages.
    pub pull_expires: Duration,
    /// Time allowed for an API request or a publish acknowledgement.
    pub request_timeout: Duration,
    /// Window in which a repeated `Nats-Msg-Id` is dropped by a stream.
    pub duplicate_window: Duration,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            ack_wait: Duration::from_secs(30),
            max_ack_pending: 256,
            // Also bounds how long a clean shutdown waits for the open request to end.
            pull_expires: Duration::from_secs(3),
            request_timeout: Duration::from_secs(5),
            duplicate_window: Duration::from_secs(300),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retention {
    /// Each message is removed once a consumer acks it; consumers must not overlap.
    WorkQueue,
    /// Messages stay until `max_age` or `max_messages`; any number of readers.
    Limits,
}

/// A stream to create or verify.
#[derive(Debug, Clone)]
pub struct StreamSpec {
    pub name: String,
    pub subjects: Vec<String>,
    pub retention: Retention,
    /// Zero: no age limit.
    pub max_age: Duration,
    /// Messages held at most. A full work-queue stream refuses new publishes (the
    /// publisher retries: backpressure); a full limits stream drops its oldest.
    pub max_messages: i64,
    pub description: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Deliver {
    /// Everything the stream holds (and what comes after).
    All,
    /// Only what is published after the consumer is created.
    New,
}

/// A durable pull consumer to create or verify, and where its dead letters go.
#[derive(Debug, Clone)]
pub struct ConsumerSpec {
    pub stream: String,
    pub durable: String,
    /// Only messages on this subject (one subject: nats-server 2.9 has no more).
    pub filter: Option<String>,
    pub deliver: Deliver,
    /// Where [`Acker::dead_letter`] publishes.
    pub dead_letter_subject: String,
    /// Recorded on dead letters as the stage that gave up.
    pub stage: String,
    /// Delete the consumer after it has been unused this long (for per-run consumers).
    pub inactive_threshold: Option<Duration>,
}

#[derive(Debug, thiserror::Error)]
pub enum JetStreamError {
    #[error("bad nats settings: {0}")]
    Config(String),
    #[error("cannot connect to nats at {url}: {reason}")]
    Connect { url: String, reason: String },
    #[error("nats at {url} has no JetStream ({reason}); start nats-server with -js")]
    NoJetStream { url: String, reason: String },
    #[error("stream {stream}: {reason}")]
    Stream { stream: String, reason: String },
    #[error(
        "stream {stream} exists with other settings ({differences}); delete it or run a memval whose topology matches"
    )]
    StreamMismatch { stream: String, differences: String },
    #[error("consumer {consumer} on stream {stream}: {reason}")]
    Consumer { stream: String, consumer: String, reason: String },
    #[error("consumer {consumer} on stream {stream} exists with other settings ({differences}); delete it or run a memval whose topology matches")]
    ConsumerMismatch { stream: String, consumer: String, differences: String },
}

/// A connection to NATS with JetStream.
#[derive(Clone)]
pub struct JetStream {
    pub(crate) client: async_nats::Client,
    context: jetstream::Context,
    settings: Settings,
}

impl JetStream {
    /// Connect, authenticate and check that the server has JetStream. Fails fast (no
    /// retry) when the server cannot be reached; after that, reconnects are automatic.
    pub async fn connect(options: &ConnectOptions, settings: Settings) -> Result<JetStream, JetStreamError> {
        let url = options.url.clone();
        let client = core_client(options, settings.request_timeout).await?;
        let context = jetstream::ContextBuilder::new().timeout(settings.request_timeout).build(client.clone());
        // Ask the JetStream API directly: the typed account query of this client expects
        // fields newer servers add.
        let no_js = |reason: String| JetStreamError::NoJetStream { url: url.clone(), reason };
        let reply = client.request("$JS.API.INFO", "".into()).await.map_err(|e| no_js(error_chain(&e)))?;
        let text = String::from_utf8_lossy(&reply.payload);
        if text.contains("\"error\"") {
            return Err(no_js(text.into_owned()));
        }
        Ok(JetStream { client, context, settings })
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Create `spec`'s stream, or check that the existing one holds the same subjects with
    /// the same retention (other limits may have been tuned by an operator and are kept).
    pub async fn ensure_stream(&self, spec: &StreamSpec) -> Result<(), JetStreamError> {
        let config = jetstream::stream::Config {
            name: spec.name.clone(),
            description: Some(spec.description.clone()),
            subjects: spec.subjects.clone(),
            retention: match spec.retention {
                Retention::WorkQueue => RetentionPolicy::WorkQueue,
                Retention::Limits => RetentionPolicy::Limits,
            },
            discard: match spec.retention {
                Retention::WorkQueue => DiscardPolicy::New,
                Retention::Limits => DiscardPolicy::Old,
            },
            max_age: spec.max_age,
            max_messages: spec.max_messages,
            storage: StorageType::File,
            duplicate_window: if spec.max_age.is_zero() {
                self.settings.duplicate_window
            } else {
                self.settings.duplicate_window.min(spec.max_age)
            },
            ..Default::default()
        };
        let stream_err = |reason: String| JetStreamError::Stream { stream: spec.name.clone(), reason };
        let mut stream =
            self.context.get_or_create_stream(config.clone()).await.map_err(|e| stream_err(error_chain(&e)))?;
        let info = stream.info().await.map_err(|e| stream_err(error_chain(&e)))?;
        let mut differences = Vec::new();
        let (mut have, mut want) = (info.config.subjects.clone(), config.subjects.clone());
        have.sort();
        want.sort();
        if have != want {
            differences.push(format!("subjects {have:?}, expected {want:?}"));
        }
        if info.config.retention != config.retention {
            differences.push(format!("retention {:?}, expected {:?}", info.config.retention, config.retention));
        }
        if differences.is_empty() {
            Ok(())
        } else {
            Err(JetStreamError::StreamMismatch { stream: spec.name.clone(), differences: differences.join("; ") })
        }
    }

    /// An inbox on `spec`'s durable pull consumer, created if missing. Replicas that open
    /// the same durable share its messages. `max_batch` caps one pull request.
    pub async fn inbox(&self, spec: &ConsumerSpec, max_batch: usize) -> Result<JetStreamInbox, JetStreamError> {
        let consumer_err = |reason: String| JetStreamError::Consumer {
            stream: spec.stream.clone(),
            consumer: spec.durable.clone(),
            reason,
        };
        let stream = self.context.get_stream(&spec.stream).await.map_err(|e| {
            let missing = matches!(e.kind(), GetStreamErrorKind::JetStream(ref j) if j.error_code() == ErrorCode::STREAM_NOT_FOUND);
            consumer_err(if missing { "the stream does not exist".into() } else { error_chain(&e) })
        })?;
        let wanted = pull::Config {
            durable_name: Some(spec.durable.clone()),
            description: Some(format!("memval {}", spec.stage)),
            ack_policy: AckPolicy::Explicit,
            ack_wait: self.settings.ack_wait,
            // Unlimited at the broker: the runtime decides when a message has been tried
            // often enough and dead-letters it with a reason, which the broker cannot.
            max_deliver: -1,
            max_ack_pending: self.settings.max_ack_pending,
            filter_subject: spec.filter.clone().unwrap_or_default(),
            deliver_policy: match spec.deliver {
                Deliver::All => DeliverPolicy::All,
                Deliver::New => DeliverPolicy::New,
            },
            inactive_threshold: spec.inactive_threshold.unwrap_or_default(),
            ..Default::default()
        };
        let consumer: PullConsumer = match stream.consumer_info(&spec.durable).await {
            Ok(_) => stream.get_consumer(&spec.durable).await.map_err(|e| consumer_err(error_chain(&*e)))?,
            Err(e) if e.kind() == ConsumerInfoErrorKind::NotFound => {
                stream.create_consumer(wanted.clone()).await.map_err(|e| consumer_err(error_chain(&e)))?
            }
            Err(e) => return Err(consumer_err(error_chain(&e))),
        };
        let have = &consumer.cached_info().config;
        let mut differences = Vec::new();
        if have.filter_subject != wanted.filter_subject {
            differences.push(format!("filter {:?}, expected {:?}", have.filter_subject, wanted.filter_subject));
        }
        if have.ack_policy != AckPolicy::Explicit {
            differences.push(format!("ack policy {:?}, expected explicit", have.ack_policy));
        }
        if have.deliver_policy != wanted.deliver_policy {
            differences.push(format!("deliver policy {:?}, expected {:?}", have.deliver_policy, wanted.deliver_policy));
        }
        if !differences.is_empty() {
            return Err(JetStreamError::ConsumerMismatch {
                stream: spec.stream.clone(),
                consumer: spec.durable.clone(),
                differences: differences.join("; "),
            });
        }
        if have.ack_wait != wanted.ack_wait || have.max_ack_pending != wanted.max_ack_pending {
            // Replicas started with other flags must not fight over the settings; the
            // consumer's own values win and the runtime paces its progress by them.
            tracing::warn!(
                consumer = %spec.durable,
                ack_wait_s = have.ack_wait.as_secs_f64(),
                max_ack_pending = have.max_ack_pending,
                "consumer exists with other ack settings, keeping them"
            );
        }
        let ack_wait = have.ack_wait;
        Ok(JetStreamInbox {
            consumer,
            client: self.client.clone(),
            context: self.context.clone(),
            target: Arc::new(DeadLetterTarget {
                subject: spec.dead_letter_subject.clone(),
                stage: spec.stage.clone(),
                stream: spec.stream.clone(),
            }),
            ack_wait,
            max_batch: max_batch.max(1),
            expires: self.settings.pull_expires,
            waiting: AtomicUsize::new(0),
            closed: AtomicBool::new(false),
            pull: tokio::sync::Mutex::new(None),
        })
    }

    pub async fn delete_consumer(&self, stream: &str, durable: &str) -> Result<(), JetStreamError> {
        self.context.delete_consumer_from_stream(durable, stream).await.map(|_| ()).map_err(|e| {
            JetStreamError::Consumer { stream: stream.into(), consumer: durable.into(), reason: error_chain(&e) }
        })
    }

    pub fn outbox(&self) -> JetStreamOutbox {
        JetStreamOutbox { context: self.context.clone() }
    }

    /// Up to `limit` messages of `stream` from sequence `from` on, oldest first.
    pub async fn stored_messages(
        &self,
        stream: &str,
        from: u64,
        limit: usize,
    ) -> Result<Vec<StoredMessage>, JetStreamError> {
        let stream_err = |reason: String| JetStreamError::Stream { stream: stream.into(), reason };
        let mut handle = self.context.get_stream(stream).await.map_err(|e| stream_err(error_chain(&e)))?;
        let state = handle.info().await.map_err(|e| stream_err(error_chain(&e)))?.state.clone();
        let mut out = Vec::new();
        if state.messages == 0 {
            return Ok(out);
        }
        let mut seq = from.max(state.first_sequence);
        while seq <= state.last_sequence && out.len() < limit {
            match handle.get_raw_message(seq).await {
                Ok(m) => out.push(StoredMessage {
                    sequence: m.sequence,
                    subject: m.subject.to_string(),
                    headers: from_header_map(Some(&m.headers)),
                    payload: m.payload.to_vec(),
                    time: m.time.unix_timestamp(),
                }),
                // A deleted sequence inside the range: skip it.
                Err(e) if is_no_message(&e) => {}
                Err(e) => return Err(stream_err(error_chain(&e))),
            }
            seq += 1;
        }
        Ok(out)
    }

    /// Remove one message from a stream; `false` when it was not there.
    pub async fn delete_message(&self, stream: &str, sequence: u64) -> Result<bool, JetStreamError> {
        let stream_err = |reason: String| JetStreamError::Stream { stream: stream.into(), reason };
        let handle = self.context.get_stream_no_info(stream).await.map_err(|e| stream_err(error_chain(&e)))?;
        match handle.delete_message(sequence).await {
            Ok(deleted) => Ok(deleted),
            Err(e) if matches!(e.kind(), DeleteMessageErrorKind::JetStream(ref j) if j.error_code() == ErrorCode::NO_MESSAGE_FOUND) => {
                Ok(false)
            }
            Err(e) => Err(stream_err(error_chain(&e))),
        }
    }

    /// Claim `subject` for `owner`: the first claim of a subject is stored (its payload is
    /// `owner`); any later one is refused by the stream itself, which checks that no message
    /// on the subject exists yet (`Nats-Expected-Last-Subject-Sequence: 0`, nats-server 2.9),
    /// so of several processes claiming at once exactly one wins, with no clock or lock of
    /// ours in between. `stream` must hold `subject` (limits retention).
    ///
    /// The claim is a running lease that promises a heartbeat at least every `ttl`: its
    /// holder keeps it alive and ends it with [`JetStream::publish_lease`]. The loser gets
    /// the lease as it is stored (who holds it, in what state, at which sequence).
    pub async fn claim(
        &self,
        stream: &str,
        subject: &str,
        owner: &str,
        ttl: Duration,
    ) -> Result<Claim, JetStreamError> {
        match self.publish_lease(stream, subject, owner, LeaseState::Running, ttl, 0).await? {
            Renewal::Stored { sequence } => Ok(Claim::Won { sequence }),
            Renewal::Refused => {
                let unreadable = |reason: String| Lease {
                    sequence: 0,
                    owner: format!("another process (its claim cannot be read: {reason})"),
                    state: LeaseState::Running,
                    ttl: None,
                };
                Ok(Claim::Held(match self.read_lease(stream, subject).await {
                    Ok(Some(lease)) => lease,
                    // Refused, yet gone: deleted in between; the next read decides.
                    Ok(None) => unreadable("it is gone".into()),
                    Err(e) => unreadable(e.to_string()),
                }))
            }
        }
    }

    /// Publish `state` on the lease `subject` for `owner` (the payload; the state and `ttl`
    /// travel in headers) if the last message on the subject is still the one at `expected`
    /// (0: there is none). The stream decides the compare-and-swap, so of two publishers
    /// expecting the same sequence one is stored and the other refused.
    pub async fn publish_lease(
        &self,
        stream: &str,
        subject: &str,
        owner: &str,
        state: LeaseState,
        ttl: Duration,
        expected: u64,
    ) -> Result<Renewal, JetStreamError> {
        let stream_err = |reason: String| JetStreamError::Stream { stream: stream.into(), reason };
        let mut headers = Headers::new();
        headers.insert(header::LEASE, state.as_str());
        headers.insert(header::LEASE_TTL, &ttl.as_secs().max(1).to_string());
        // A message id of the owner's own, per expected sequence and state: a publisher's
        // retried publish is a duplicate of its own (a success), never of a rival's (the
        // duplicate check comes first and would answer a rival with a success).
        let msg_id: String = format!("lease:{subject}:{expected}:{}:{owner}", state.as_str())
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let publish = PublishMessage::build()
            .payload(owner.as_bytes().to_vec().into())
            .headers(to_header_map(&msg_id, &headers))
            .expected_last_subject_sequence(expected);
        let sent = self.context.send_publish(subject.to_owned(), publish).await;
        let stored = match sent {
            Ok(ack) => ack.await,
            Err(e) => Err(e),
        };
        match stored {
            Ok(ack) => Ok(Renewal::Stored { sequence: ack.sequence }),
            Err(e) if matches!(e.kind(), PublishErrorKind::WrongLastSequence) => Ok(Renewal::Refused),
            Err(e) => Err(stream_err(format!("publishing to {subject}: {}", error_chain(&e)))),
        }
    }

    /// The last message on the lease `subject` of `stream`, `None` when there is none.
    pub async fn read_lease(&self, stream: &str, subject: &str) -> Result<Option<Lease>, JetStreamError> {
        let stream_err = |reason: String| JetStreamError::Stream { stream: stream.into(), reason };
        let handle = self.context.get_stream_no_info(stream).await.map_err(|e| stream_err(error_chain(&e)))?;
        match handle.get_last_raw_message_by_subject(subject).await {
            Ok(m) => {
                let headers = from_header_map(Some(&m.headers));
                Ok(Some(Lease {
                    sequence: m.sequence,
                    owner: String::from_utf8_lossy(&m.payload).into_owned(),
                    state: LeaseState::from_header(headers.get(header::LEASE)),
                    ttl: lease_ttl(headers.get(header::LEASE_TTL)),
                }))
            }
            Err(e) if is_no_message(&e) => Ok(None),
            Err(e) => Err(stream_err(format!("reading {subject}: {}", error_chain(&e)))),
        }
    }

    /// Send everything buffered (acks included) to the server.
    pub async fn flush(&self) -> Result<(), TransportError> {
        self.client.flush().await.map_err(|e| TransportError::Unavailable(error_chain(&e)))
    }
}

/// The answer to [`JetStream::claim`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// This claim is the one stored, at `sequence` (what the holder's next publish expects).
    Won { sequence: u64 },
    /// Someone claimed the subject first; this is their lease as last published.
    Held(Lease),
}

/// The answer to [`JetStream::publish_lease`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Renewal {
    /// Stored at `sequence`.
    Stored { sequence: u64 },
    /// The last message on the subject is not the one expected: someone else published.
    Refused,
}

/// Where a lease's holder is with the work it claimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeaseState {
    /// Working, and publishing a heartbeat at least every ttl.
    Running,
    /// Finished with a result.
    Done,
    /// Finished without one.
    Failed,
}

impl LeaseState {
    pub fn as_str(self) -> &'static str {
        match self {
            LeaseState::Running => "running",
            LeaseState::Done => "done",
            LeaseState::Failed => "failed",
        }
    }

    /// The state a lease header says. No header is an older reconciler's claim, and a value
    /// this build does not know is a newer one's: both count as running, so the lease is
    /// watched and taken over only if its holder falls silent.
    pub fn from_header(value: Option<&str>) -> LeaseState {
        match value.map(str::trim) {
            Some(v) if v.eq_ignore_ascii_case("done") => LeaseState::Done,
            Some(v) if v.eq_ignore_ascii_case("failed") => LeaseState::Failed,
            _ => LeaseState::Running,
        }
    }

    /// Whether the holder is finished (nothing more will be published by it).
    pub fn is_terminal(self) -> bool {
        self != LeaseState::Running
    }
}

/// A lease as last published on its subject.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lease {
    /// Its stream sequence (0: unknown).
    pub sequence: u64,
    /// The holder's owner text (untrusted: shown through `display::one_line`).
    pub owner: String,
    pub state: LeaseState,
    /// The longest silence its holder promised, when it says.
    pub ttl: Option<Duration>,
}

/// The `Memval-Lease-Ttl` header: whole seconds, at least one; anything else is no promise.
fn lease_ttl(value: Option<&str>) -> Option<Duration> {
    value.and_then(|v| v.trim().parse::<u64>().ok()).filter(|&s| s > 0).map(Duration::from_secs)
}

/// One message read back from a stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredMessage {
    pub sequence: u64,
    pub subject: String,
    pub headers: Headers,
    pub payload: Vec<u8>,
    /// Unix seconds when the stream stored it.
    pub time: i64,
}

fn is_no_message(e: &RawMessageError) -> bool {
    match e.kind() {
        RawMessageErrorKind::NoMessageFound => true,
        RawMessageErrorKind::JetStream(j) => j.error_code() == ErrorCode::NO_MESSAGE_FOUND,
        _ => false,
    }
}

/// A core NATS connection with `options` (name, auth, TLS, timeouts, connection events
/// logged): what [`JetStream::connect`] builds on, and what request/reply ([`crate::reply`])
/// uses alone, since it needs no JetStream.
pub(crate) async fn core_client(
    options: &ConnectOptions,
    request_timeout: Duration,
) -> Result<async_nats::Client, JetStreamError> {
    install_crypto_provider();
    let url = options.url.clone();
    let mut opts = async_nats::ConnectOptions::new()
        .name(&options.name)
        .connection_timeout(options.connect_timeout)
        .request_timeout(Some(request_timeout))
        .event_callback(move |event| async move {
            match event {
                async_nats::Event::Disconnected => tracing::warn!("disconnected from nats, reconnecting"),
                async_nats::Event::Connected => tracing::info!("connected to nats"),
                async_nats::Event::Closed | async_nats::Event::Draining => {
                    tracing::debug!(event = %event, "nats connection")
                }
                other => tracing::warn!(event = %other, "nats connection event"),
            }
        });
    opts = match &options.auth {
        Auth::None => opts,
        Auth::UserPassword { user, password } => opts.user_and_password(user.clone(), password.clone()),
        Auth::Token(token) => opts.token(token.clone()),
        Auth::NKeySeed(seed) => opts.nkey(seed.clone()),
        Auth::CredsFile(path) => opts
            .credentials_file(path)
            .await
            .map_err(|e| JetStreamError::Config(format!("cannot read creds file {}: {e}", path.display())))?,
    };
    let tls = &options.tls;
    if let Some(ca) = &tls.ca {
        check_readable(ca, "tls ca")?;
        opts = opts.add_root_certificates(ca.clone());
    }
    match (&tls.cert, &tls.key) {
        (Some(cert), Some(key)) => {
            check_readable(cert, "tls client certificate")?;
            check_readable(key, "tls client key")?;
            opts = opts.add_client_certificate(cert.clone(), key.clone());
        }
        (Some(_), None) | (None, Some(_)) => {
            return Err(JetStreamError::Config(
                "a tls client certificate needs its key, and a key its certificate".into(),
            ))
        }
        (None, None) => {}
    }
    if tls.required {
        opts = opts.require_tls(true);
    }
    opts.connect(url.as_str()).await.map_err(|e| JetStreamError::Connect { url: url.clone(), reason: error_chain(&e) })
}

/// Make ring the process's rustls crypto provider unless one is set. Another crate may
/// link a second provider (or none by default); without a process default rustls would
/// refuse to pick one. Call before building any TLS client.
pub fn install_crypto_provider() {
    let _ = async_nats::rustls::crypto::ring::default_provider().install_default();
}

/// Check that `url` (comma-separated server addresses) is something [`JetStream::connect`]
/// can dial, without dialling.
pub fn check_url(url: &str) -> Result<(), JetStreamError> {
    let addrs: Vec<&str> = url.split(',').map(str::trim).filter(|a| !a.is_empty()).collect();
    if addrs.is_empty() {
        return Err(JetStreamError::Config("no nats server URL given".into()));
    }
    for addr in addrs {
        addr.parse::<async_nats::ServerAddr>().map_err(|e| {
            JetStreamError::Config(format!(
                "{addr:?} is not a nats server URL (nats://host:4222, tls://host:4222): {e}"
            ))
        })?;
    }
    Ok(())
}

fn check_readable(path: &std::path::Path, what: &str) -> Result<(), JetStreamError> {
    std::fs::metadata(path)
        .map(|_| ())
        .map_err(|e| JetStreamError::Config(format!("cannot read {what} {}: {e}", path.display())))
}

/// An error and its sources on one line (async-nats errors keep the useful part in the source).
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let part = s.to_string();
        if !text.contains(&part) {
            text.push_str(": ");
            text.push_str(&part);
        }
        source = s.source();
    }
    text
}

fn from_header_map(map: Option<&HeaderMap>) -> Headers {
    let mut headers = Headers::new();
    if let Some(map) = map {
        for (name, values) in map.iter() {
            if let Some(value) = values.first() {
                headers.insert(name.as_ref(), value.as_str());
            }
        }
    }
    headers
}

fn to_header_map(msg_id: &str, headers: &Headers) -> HeaderMap {
    let mut map = HeaderMap::new();
    map.insert(MSG_ID_HEADER, msg_id);
    for (name, value) in headers.iter() {
        if !name.eq_ignore_ascii_case(MSG_ID_HEADER) {
            map.insert(name, value);
        }
    }
    map
}

/// Publishes to JetStream and waits for the stream's acknowledgement (the message is stored,
/// or was a duplicate of a stored one) before returning.
#[derive(Clone)]
pub struct JetStreamOutbox {
    context: jetstream::Context,
}

impl Outbox for JetStreamOutbox {
    fn send(&self, message: Outgoing) -> BoxFuture<'_, Result<(), TransportError>> {
        Box::pin(async move { self.send_stored(message).await.map(|_| ()) })
    }

    fn send_stored(&self, message: Outgoing) -> BoxFuture<'_, Result<Option<u64>, TransportError>> {
        Box::pin(async move {
            let Outgoing { subject, msg_id, headers, payload } = message;
            publish_confirmed(&self.context, subject, &msg_id, &headers, payload).await.map(Some)
        })
    }
}

async fn publish_confirmed(
    context: &jetstream::Context,
    subject: String,
    msg_id: &str,
    headers: &Headers,
    payload: Vec<u8>,
) -> Result<u64, TransportError> {
    let publish = PublishMessage::build().payload(payload.into()).headers(to_header_map(msg_id, headers));
    let map = |e: async_nats::jetstream::context::PublishError| match e.kind() {
        PublishErrorKind::MaxPayloadExceeded => TransportError::Rejected(format!("{subject}: {}", error_chain(&e))),
        _ => TransportError::Unavailable(format!("publish to {subject}: {}", error_chain(&e))),
    };
    // The first await sends, the second waits for the stream to store it. A duplicate id
    // within the window is acked with the sequence of the message stored first.
    let ack = context.send_publish(subject.clone(), publish).await.map_err(map)?;
    Ok(ack.await.map_err(map)?.sequence)
}

struct DeadLetterTarget {
    subject: String,
    stage: String,
    stream: String,
}

/// The state of the pull request currently open on the server.
struct Pull {
    batch: pull::Batch,
    /// After this the server has surely ended the request.
    ends: Instant,
}

/// A durable pull consumer as an [`Inbox`].
pub struct JetStreamInbox {
    consumer: PullConsumer,
    client: async_nats::Client,
    context: jetstream::Context,
    target: Arc<DeadLetterTarget>,
    ack_wait: Duration,
    max_batch: usize,
    expires: Duration,
    /// Workers inside `next`: a pull asks for this many messages (capped by `max_batch`),
    /// so no message waits in this process for a worker to come free.
    waiting: AtomicUsize,
    closed: AtomicBool,
    pull: tokio::sync::Mutex<Option<Pull>>,
}

struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl JetStreamInbox {
    /// The consumer's ack wait: a delivery must be answered (or shown progress) within it.
    pub fn ack_wait(&self) -> Duration {
        self.ack_wait
    }

    fn envelope(&self, message: jetstream::Message) -> Envelope {
        let (delivery, stream_sequence, published_at) = match message.info() {
            Ok(info) => (info.delivered.max(1) as u32, info.stream_sequence, Some(info.published.unix_timestamp())),
            Err(_) => (1, 0, None),
        };
        let message = message.message;
        let headers = from_header_map(message.headers.as_ref());
        let msg_id = headers.get(MSG_ID_HEADER).map(str::to_owned);
        let subject = message.subject.to_string();
        let acker = JsAcker {
            client: self.client.clone(),
            context: self.context.clone(),
            reply: message.reply.clone(),
            target: self.target.clone(),
            subject: subject.clone(),
            msg_id: msg_id.clone(),
            headers: headers.clone(),
            delivery,
            stream_sequence,
        };
        Envelope {
            subject,
            payload: message.payload.to_vec(),
            msg_id,
            delivery,
            published_at,
            headers,
            acker: Box::new(acker),
        }
    }
}

impl Inbox for JetStreamInbox {
    fn next(&self) -> BoxFuture<'_, Option<Result<Envelope, TransportError>>> {
        Box::pin(async move {
            self.waiting.fetch_add(1, Ordering::SeqCst);
            let _waiting = Waiting(&self.waiting);
            let mut pull = self.pull.lock().await;
            loop {
                if self.closed.load(Ordering::SeqCst) {
                    return None;
                }
                if pull.is_none() {
                    let wanted = self.waiting.load(Ordering::SeqCst).clamp(1, self.max_batch);
                    let started = Instant::now();
                    match self.consumer.batch().max_messages(wanted).expires(self.expires).messages().await {
                        Ok(batch) => {
                            *pull = Some(Pull { batch, ends: started + self.expires + Duration::from_secs(1) })
                        }
                        Err(e) => {
                            return Some(Err(TransportError::Unavailable(format!("pull request: {}", error_chain(&e)))))
                        }
                    }
                }
                let current = pull.as_mut().expect("a pull request is open");
                match current.batch.next().await {
                    Some(Ok(message)) => return Some(Ok(self.envelope(message))),
                    Some(Err(e)) => {
                        *pull = None;
                        return Some(Err(TransportError::Unavailable(format!("pull: {}", error_chain(&*e)))));
                    }
                    // The request expired or was filled: open the next one.
                    None => *pull = None,
                }
            }
        })
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            self.closed.store(true, Ordering::SeqCst);
            let Some(mut open) = self.pull.lock().await.take() else { return };
            // Whatever the open request still delivers goes straight back for another replica.
            let mut handed_back = 0usize;
            while let Ok(Some(Ok(message))) = tokio::time::timeout_at(open.ends, open.batch.next()).await {
                let envelope = self.envelope(message);
                if envelope.acker.nak(Duration::ZERO).await.is_ok() {
                    handed_back += 1;
                }
            }
            if handed_back > 0 {
                tracing::info!(handed_back, "returned unprocessed messages to the stream");
            }
        })
    }
}

struct JsAcker {
    client: async_nats::Client,
    context: jetstream::Context,
    reply: Option<Subject>,
    target: Arc<DeadLetterTarget>,
    subject: String,
    msg_id: Option<String>,
    headers: Headers,
    delivery: u32,
    stream_sequence: u64,
}

impl JsAcker {
    fn answer(&self, kind: AckKind) -> BoxFuture<'static, Result<(), TransportError>> {
        let client = self.client.clone();
        let reply = self.reply.clone();
        Box::pin(async move {
            let reply =
                reply.ok_or_else(|| TransportError::Closed("delivery has no reply subject to answer".into()))?;
            client
                .publish(reply, kind.into())
                .await
                .map_err(|e| TransportError::Unavailable(format!("answering a delivery: {}", error_chain(&e))))
        })
    }
}

impl Acker for JsAcker {
    fn ack(self: Box<Self>) -> BoxFuture<'static, Result<(), TransportError>> {
        self.answer(AckKind::Ack)
    }

    fn nak(self: Box<Self>, delay: Duration) -> BoxFuture<'static, Result<(), TransportError>> {
        self.answer(AckKind::Nak((!delay.is_zero()).then_some(delay)))
    }

    fn dead_letter(
        self: Box<Self>,
        reason: String,
        payload: Vec<u8>,
    ) -> BoxFuture<'static, Result<(), TransportError>> {
        Box::pin(async move {
            let mut headers = self.headers.propagated();
            let mut reason = reason;
            if reason.len() > MAX_REASON {
                let mut cut = MAX_REASON;
                while !reason.is_char_boundary(cut) {
                    cut -= 1;
                }
                reason.truncate(cut);
            }
            headers.insert(header::DLQ_REASON, &reason);
            headers.insert(header::DLQ_SUBJECT, &self.subject);
            if let Some(id) = &self.msg_id {
                headers.insert(header::DLQ_MSG_ID, id);
            }
            headers.insert(header::DLQ_STAGE, &self.target.stage);
            headers.insert(header::DLQ_DELIVERY, &self.delivery.to_string());
            // One dead letter per stored message, however often dead-lettering is retried.
            let dlq_id = format!("dlq:{}:{}:{}", self.target.stage, self.target.stream, self.stream_sequence);
            tracing::warn!(subject = %self.subject, msg_id = ?self.msg_id, reason = %reason, "dead-lettered");
            publish_confirmed(&self.context, self.target.subject.clone(), &dlq_id, &headers, payload).await?;
            self.answer(AckKind::Term).await
        })
    }

    fn progress(&self) -> BoxFuture<'static, Result<(), TransportError>> {
        self.answer(AckKind::Progress)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_round_trip_through_a_header_map_with_the_msg_id() {
        let mut h = Headers::new();
        h.insert(header::RUN, "r1");
        h.insert(header::TRACEPARENT, "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        let map = to_header_map("r1.m0:0", &h);
        let back = from_header_map(Some(&map));
        assert_eq!(back.get(MSG_ID_HEADER), Some("r1.m0:0"));
        assert_eq!(back.get(header::RUN), Some("r1"));
        assert_eq!(back.get("TraceParent"), h.get(header::TRACEPARENT));
    }

    #[test]
    fn a_lease_state_is_read_from_its_header_and_unknown_means_running() {
        let check =
            |value: Option<&str>, want: LeaseState| assert_eq!(LeaseState::from_header(value), want, "{value:?}");
        check(None, LeaseState::Running);
        check(Some("running"), LeaseState::Running);
        check(Some("done"), LeaseState::Done);
        check(Some(" Failed "), LeaseState::Failed);
        // A state of a newer reconciler: watched as running, never mistaken for finished.
        check(Some("paused"), LeaseState::Running);
        check(Some(""), LeaseState::Running);
        for state in [LeaseState::Running, LeaseState::Done, LeaseState::Failed] {
            check(Some(state.as_str()), state);
            assert_eq!(state.is_terminal(), state != LeaseState::Running);
        }
    }

    #[test]
    fn a_lease_ttl_header_is_whole_positive_seconds_or_nothing() {
        assert_eq!(lease_ttl(Some("60")), Some(Duration::from_secs(60)));
        assert_eq!(lease_ttl(Some(" 2 ")), Some(Duration::from_secs(2)));
        for bad in [None, Some("0"), Some("-5"), Some("1.5"), Some("soon")] {
            assert_eq!(lease_ttl(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn server_urls_are_checked_without_dialling() {
        assert!(check_url("nats://nats:4222").is_ok());
        assert!(check_url("nats://a:4222, tls://b:4222").is_ok());
        for bad in ["", " , ", "http://nats:4222", "nats://host:port"] {
            assert!(check_url(bad).is_err(), "{bad:?} should be refused");
        }
    }

    #[test]
    fn auth_debug_hides_secrets() {
        let text = format!(
            "{:?} {:?} {:?}",
            Auth::UserPassword { user: "u".into(), password: "hunter2".into() },
            Auth::Token("s3cret".into()),
            Auth::NKeySeed("SUAKEY".into())
        );
        assert!(!text.contains("hunter2") && !text.contains("s3cret") && !text.contains("SUAKEY"), "{text}");
    }
}
