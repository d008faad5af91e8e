//! The wire codec: postcard, used by every transport (in-process included).

use crate::Message;

#[derive(Debug, thiserror::Error)]
pub enum CodecError {
    #[error("cannot encode message: {0}")]
    Encode(postcard::Error),
    #[error("cannot decode message ({len} bytes): {source}")]
    Decode { len: usize, source: postcard::Error },
}

pub fn encode<M: Message>(msg: &M) -> Result<Vec<u8>, CodecError> {
    postcard::to_stdvec(msg).map_err(CodecError::Encode)
}

pub fn decode<M: Message>(bytes: &[u8]) -> Result<M, CodecError> {
    postcard::from_bytes(bytes).map_err(|source| CodecError::Decode { len: bytes.len(), source })
}
