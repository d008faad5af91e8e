//! Tier A memories drawn from a real tree: existing paths, `path:line` references, backticked
//! symbols with their file, and paths and symbols that do not exist. Used by the `speed`
//! and `throughput` benchmarks; symbols come from this crate's regexes, not from memval.

use std::path::Path;

use anyhow::Result;
use rayon::prelude::*;
use serde_json::json;

use crate::{defs_for, walk_files, Lang, Rng};

/// References written per memory, one per bullet.
pub const REFS_PER_MEMORY: usize = 8;

const DESCS: [&str; 8] = [
    "is where the work happens",
    "was touched in the last refactor",
    "must stay in sync with the docs",
    "is the first place to look when tests fail",
    "is on the hot path",
    "has tricky edge cases",
    "was reviewed twice",
    "is covered by the integration tests",
];
const FAB_A: [&str; 10] =
    ["shard", "tombstone", "quorum", "gossip", "lease", "beacon", "spillover", "lantern", "orchid", "watermark"];
const FAB_B: [&str; 8] = ["planner", "tracker", "broker", "harvester", "sweeper", "governor", "janitor", "warden"];

/// A file memories may mention: its line count and the definitions found in it.
pub struct FileInfo {
    pub path: String,
    pub lines: usize,
    pub defs: Vec<(String, u32)>,
}

/// What a scan of a tree found.
pub struct Tree {
    /// Files memval indexes by default (no hidden component, text, at most 2 MiB), with lines.
    pub files: Vec<FileInfo>,
    pub all_files: usize,
    pub text_files: usize,
    pub total_lines: usize,
    pub rs_lines: usize,
    pub total_bytes: u64,
}

/// Read every file under `root` (in parallel): lines, and definitions in Rust/Python files.
pub fn scan(root: &Path) -> Result<Tree> {
    let all = walk_files(root)?;
    // (path, lines when text, bytes, definitions)
    type Scanned = (String, Option<usize>, u64, Vec<(String, u32)>);
    let infos: Vec<Scanned> = all
        .par_iter()
        .map(|rel| {
            let full = root.join(rel);
            let bytes = std::fs::read(&full).unwrap_or_default();
            let size = bytes.len() as u64;
            if bytes[..bytes.len().min(8192)].contains(&0) {
                return (rel.clone(), None, size, Vec::new());
            }
            let lines = bytes.iter().filter(|&&b| b == b'\n').count()
                + usize::from(!bytes.is_empty() && !bytes.ends_with(b"\n"));
            let defs = if Lang::of(rel).is_some() && size <= 2 << 20 {
                let text = String::from_utf8_lossy(&bytes);
                defs_for(rel, &text).into_iter().map(|d| (d.name, d.line)).collect()
            } else {
                Vec::new()
            };
            (rel.clone(), Some(lines), size, defs)
        })
        .collect();
    let total_lines: usize = infos.iter().filter_map(|i| i.1).sum();
    let total_bytes: u64 = infos.iter().map(|i| i.2).sum();
    let text_files = infos.iter().filter(|i| i.1.is_some()).count();
    let rs_lines: usize = infos.iter().filter(|i| i.0.ends_with(".rs")).filter_map(|i| i.1).sum();
    // Files memval indexes by default: no hidden path component.
    let visible = |p: &str| !p.split('/').any(|c| c.starts_with('.')) && !p.contains(' ') && !p.contains('`');
    let files: Vec<FileInfo> = infos
        .into_iter()
        .filter(|i| i.1.is_some_and(|l| l > 0) && visible(&i.0) && i.2 <= 2 << 20)
        .map(|(path, lines, _, defs)| FileInfo { path, lines: lines.unwrap(), defs })
        .collect();
    Ok(Tree { files, all_files: all.len(), text_files, total_lines, rs_lines, total_bytes })
}

#[derive(Clone)]
pub enum Ref {
    Path(String),
    PathLine(String, usize),
    Symbol(String, String),
    MissingPath(String),
    MissingSymbol(String, String),
}

impl Ref {
    pub fn kind(&self) -> &'static str {
        match self {
            Ref::Path(_) => "path",
            Ref::PathLine(..) => "path:line",
            Ref::Symbol(..) => "symbol",
            Ref::MissingPath(_) => "missing path",
            Ref::MissingSymbol(..) => "missing symbol",
        }
    }

    pub fn render(&self, rng: &mut Rng) -> String {
        let d = rng.pick(&DESCS);
        match self {
            Ref::Path(p) | Ref::MissingPath(p) => format!("`{p}` {d}"),
            Ref::PathLine(p, n) => format!("`{p}:{n}` {d}"),
            Ref::Symbol(s, p) | Ref::MissingSymbol(s, p) => format!("`{s}` in `{p}` {d}"),
        }
    }

    /// The path of a path reference.
    pub fn path(&self) -> Option<&str> {
        match self {
            Ref::Path(p) | Ref::PathLine(p, _) | Ref::MissingPath(p) => Some(p),
            _ => None,
        }
    }

    /// The file a reference is about.
    pub fn file(&self) -> &str {
        match self {
            Ref::Path(p) | Ref::PathLine(p, _) | Ref::MissingPath(p) => p,
            Ref::Symbol(_, p) | Ref::MissingSymbol(_, p) => p,
        }
    }
}

/// `n` memories of [`REFS_PER_MEMORY`] references each: existing paths 30%, `path:line` 25%,
/// symbols with their file 30%, missing paths 8%, missing symbols 7%; one reference per
/// file per memory, so no two claims of a memory collapse.
pub fn generate(files: &[FileInfo], n: usize, rng: &mut Rng) -> Vec<Vec<Ref>> {
    let with_defs: Vec<usize> = (0..files.len()).filter(|&i| files[i].defs.iter().any(|d| d.0.len() >= 4)).collect();
    let dirs: Vec<String> = {
        let mut d: Vec<String> = files.iter().filter_map(|f| f.path.rsplit_once('/').map(|x| x.0.to_owned())).collect();
        d.sort();
        d.dedup();
        d
    };
    let mut memories: Vec<Vec<Ref>> = Vec::with_capacity(n);
    for _ in 0..n {
        let mut refs = Vec::with_capacity(REFS_PER_MEMORY);
        while refs.len() < REFS_PER_MEMORY {
            let r = rng.below(100);
            let f = &files[rng.below(files.len())];
            let fab = format!("{}_{}", rng.pick(&FAB_A), rng.pick(&FAB_B));
            let rf = match r {
                0..=29 => Ref::Path(f.path.clone()),
                30..=54 => Ref::PathLine(f.path.clone(), rng.range(1, f.lines)),
                55..=84 => {
                    let g = &files[with_defs[rng.below(with_defs.len())]];
                    let defs: Vec<&(String, u32)> = g.defs.iter().filter(|d| d.0.len() >= 4).collect();
                    let d = defs[rng.below(defs.len())];
                    Ref::Symbol(d.0.clone(), g.path.clone())
                }
                85..=92 => Ref::MissingPath(format!("{}/{fab}.rs", rng.pick(&dirs))),
                _ => {
                    let g = &files[with_defs[rng.below(with_defs.len())]];
                    let camel: String = fab.split('_').map(|w| w[..1].to_ascii_uppercase() + &w[1..]).collect();
                    Ref::MissingSymbol(camel, g.path.clone())
                }
            };
            if refs.iter().any(|x: &Ref| x.file() == rf.file()) {
                continue;
            }
            refs.push(rf);
        }
        memories.push(refs);
    }
    memories
}

/// The memories as JSONL, one bullet per reference, ids `{prefix}-00001`...
pub fn to_jsonl(memories: &[Vec<Ref>], prefix: &str, rng: &mut Rng) -> String {
    let mut jsonl = String::with_capacity(memories.len() * REFS_PER_MEMORY * 120);
    let agents = ["claude", "codex", "cursor", "aider"];
    for (i, refs) in memories.iter().enumerate() {
        let mut content = String::from("Notes from the last session:");
        for r in refs {
            content.push_str("\n- ");
            content.push_str(&r.render(rng));
        }
        let line = json!({
            "id": format!("{prefix}-{:05}", i + 1),
            "agent": agents[i % agents.len()],
            "content": content,
            "tier": (i % 3) as u8,
            "type": "memory",
            "created_at": "2026-02-01T00:00:00Z",
        });
        jsonl.push_str(&line.to_string());
        jsonl.push('\n');
    }
    jsonl
}
