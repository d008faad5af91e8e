//! Where model results are kept between runs, so a second run over unchanged input costs no
//! call. The store behind it is the caller's (memval keeps it in its sled store); stages
//! decide what a result depends on and check it before using a cached one.

use std::collections::HashMap;
use std::sync::Mutex;

use sha2::{Digest, Sha256};

/// A key-value table for cached model results. Failures to write are the cache's to log: a
/// result that could not be cached only costs a call next time.
pub trait ResultCache: Send + Sync {
    fn get(&self, key: &str) -> Option<Vec<u8>>;
    fn put(&self, key: &str, value: &[u8]);
}

/// A cache key: the SHA-256 (hex) of the parts, each length-prefixed so no two lists of
/// parts give the same bytes. Callers pass the stage, the prompt version, the model and the
/// input.
pub fn cache_key(parts: &[&str]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update((p.len() as u64).to_be_bytes());
        h.update(p.as_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// A cache in memory (tests, or one process).
#[derive(Debug, Default)]
pub struct MemoryCache(Mutex<HashMap<String, Vec<u8>>>);

impl MemoryCache {
    pub fn len(&self) -> usize {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl ResultCache for MemoryCache {
    fn get(&self, key: &str) -> Option<Vec<u8>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).get(key).cloned()
    }

    fn put(&self, key: &str, value: &[u8]) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).insert(key.to_owned(), value.to_vec());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_differ_when_any_part_or_split_differs() {
        let base = cache_key(&["investigator", "v1", "openai/m", "claim"]);
        assert_eq!(base.len(), 64);
        assert_eq!(base, cache_key(&["investigator", "v1", "openai/m", "claim"]));
        for other in [
            cache_key(&["investigator", "v2", "openai/m", "claim"]),
            cache_key(&["investigator", "v1", "openai/n", "claim"]),
            cache_key(&["investigator", "v1", "openai/m", "claim2"]),
            cache_key(&["investigator", "v1", "openai/mc", "laim"]),
        ] {
            assert_ne!(base, other);
        }
    }
}
