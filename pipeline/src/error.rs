use memval_runtime::StageError;
use memval_store::StoreError;
use memval_transport::TransportError;

/// Why a run, a service or a submission failed. Every message says what to do about it.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad input or configuration: the message names the flag or file to fix.
    #[error("{0}")]
    Usage(String),
    /// The run cannot be completed; nothing is reported as if it were.
    #[error("{0}")]
    Incomplete(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("{context}: {source}")]
    Transport { context: String, source: TransportError },
    #[error(transparent)]
    JetStream(#[from] memval_transport::jetstream::JetStreamError),
    #[error("{context}: {source}")]
    Nats { context: String, source: memval_transport::jetstream::JetStreamError },
    #[error("{context}: {source}")]
    Codec { context: &'static str, source: memval_proto::codec::CodecError },
    #[error("{0}")]
    Stage(#[from] StageError),
    #[error("model: {0}")]
    Model(#[from] memval_llm::LlmError),
    #[error("a task of the run failed: {0}")]
    Task(#[from] tokio::task::JoinError),
}

impl Error {
    pub(crate) fn transport(context: impl Into<String>) -> impl FnOnce(TransportError) -> Error {
        let context = context.into();
        move |source| Error::Transport { context, source }
    }

    pub(crate) fn nats(
        context: impl Into<String>,
    ) -> impl FnOnce(memval_transport::jetstream::JetStreamError) -> Error {
        let context = context.into();
        move |source| Error::Nats { context, source }
    }

    pub(crate) fn codec(context: &'static str) -> impl FnOnce(memval_proto::codec::CodecError) -> Error {
        move |source| Error::Codec { context, source }
    }
}
