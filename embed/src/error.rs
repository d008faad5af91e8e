//! What can stop embedding. Every message says what to pass or do next.

use std::path::PathBuf;

/// How to get the model, said with every "not found" error.
pub const HOW_TO_GET: &str = "pass --embed-model DIR (or set MEMVAL_EMBED_MODEL) to a folder holding all-MiniLM-L6-v2's model.safetensors, config.json and tokenizer.json; `bash scripts/embed-model.sh` puts them in ~/.cache/memval/models/all-MiniLM-L6-v2 and prints that folder";

#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    #[error("no embedding model given: {HOW_TO_GET}")]
    NoModel,
    #[error("embedding model folder {0} does not exist or is not a folder: {HOW_TO_GET}")]
    NotAFolder(PathBuf),
    #[error("embedding model file {path} is missing: {HOW_TO_GET}")]
    MissingFile { path: PathBuf },
    #[error("cannot read {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("{path} is not a BERT config.json this embedder can run: {reason}")]
    Config { path: PathBuf, reason: String },
    #[error("{path} is not a usable tokenizer.json: {reason}")]
    Tokenizer { path: PathBuf, reason: String },
    #[error("cannot tokenise: {0}")]
    Tokenise(String),
    #[error("the model in {path} cannot be loaded: {source}")]
    Load { path: PathBuf, source: candle_core::Error },
    #[error("embedding failed: {0}")]
    Compute(#[from] candle_core::Error),
    #[error("the model produced {got}-dimensional vectors, expected {expected}")]
    Dimension { got: usize, expected: usize },
}
