//! Symbol definitions kept between runs by the content of the file they were parsed from: they
//! depend on nothing else (and on memval's build), so a file whose text an earlier run parsed,
//! in this checkout or another, is not parsed again. A leaf: the index and the kept verdicts
//! (`kept.rs`) both use it. Only the newest build's definitions are kept.

use memval_git::Cache;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::symbols::{Def, Lang};

/// memval's version and its executable's size and modification time, read once.
pub(crate) fn code_id() -> &'static str {
    static ID: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    ID.get_or_init(read_code_id)
}

fn read_code_id() -> String {
    let exe = std::env::current_exe().ok().and_then(|p| std::fs::metadata(p).ok());
    let stamp = exe
        .map(|m| {
            format!("{} {:?}", m.len(), m.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()))
        })
        .unwrap_or_else(|| "unknown executable".into());
    format!("{} {stamp}", env!("CARGO_PKG_VERSION"))
}

/// The key of the definitions a file's text holds in `lang`: they depend on nothing else
/// (and on memval's build), so a file whose content was parsed by an earlier run, in this
/// checkout or another, is not parsed again.
pub(crate) fn defs_key(lang: Lang, text: &str) -> String {
    let mut hash = Sha256::new();
    hash.update(format!("{lang:?}").as_bytes());
    hash.update([0]);
    hash.update(text.as_bytes());
    format!("{}{}", defs_prefix(), hex(&hash.finalize()))
}

/// Where this build's definitions are kept: `defs/v1\0{build}\0`.
fn defs_prefix() -> &'static str {
    static PREFIX: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    PREFIX.get_or_init(|| format!("defs/v1\0{}\0", hex(&Sha256::digest(code_id().as_bytes()))))
}

/// Remove the definitions other builds of memval kept (they are read by none): called once
/// per run that keeps anything.
pub(crate) fn forget_other_builds(cache: &dyn Cache) {
    let build = defs_prefix();
    for old in memval_git::newest_first(cache, "defs/v1\0builds", build, 1) {
        cache.remove_prefix(&old);
    }
}

/// A definition as kept: its kind spelled out.
#[derive(Serialize, Deserialize)]
struct KeptDef {
    name: Box<str>,
    container: Option<Box<str>>,
    line: u32,
    end_line: u32,
    kind: String,
}

pub(crate) fn encode_defs(defs: &[Def]) -> Option<Vec<u8>> {
    let kept: Vec<KeptDef> = defs
        .iter()
        .map(|d| KeptDef {
            name: d.name.clone(),
            container: d.container.clone(),
            line: d.line,
            end_line: d.end_line,
            kind: d.kind.to_owned(),
        })
        .collect();
    postcard::to_stdvec(&kept).ok()
}

/// The definitions kept in `bytes`; `None` when they do not read back (then the file is
/// parsed).
pub(crate) fn decode_defs(bytes: &[u8]) -> Option<Vec<Def>> {
    let kept: Vec<KeptDef> = postcard::from_bytes(bytes).ok()?;
    kept.into_iter()
        .map(|d| {
            Some(Def { name: d.name, container: d.container, line: d.line, end_line: d.end_line, kind: kind(&d.kind)? })
        })
        .collect()
}

/// The one `&'static str` of a definition kind read back: kinds are few, so each distinct one
/// is made static once; past [`MAX_KINDS`] (never, from memval's own entries) the entry is
/// not used.
fn kind(name: &str) -> Option<&'static str> {
    static KINDS: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());
    let mut kinds = KINDS.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(known) = kinds.iter().find(|k| **k == name) {
        return Some(known);
    }
    if kinds.len() >= MAX_KINDS {
        return None;
    }
    let made: &'static str = Box::leak(name.to_owned().into_boxed_str());
    kinds.push(made);
    Some(made)
}

const MAX_KINDS: usize = 256;

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
