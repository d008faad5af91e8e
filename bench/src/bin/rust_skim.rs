//! Differential check of the investigator's skimmed Rust parse (function bodies emptied
//! before tree-sitter parses the file) against the parse of the whole text: for every `.rs`
//! file under a folder (default: the cargo registry's sources, the speed benchmark's tree),
//! the two lists of definitions must be identical (name, container, first and last line,
//! kind). Prints the counts and every file that differs; exits 1 if any does.
//!
//! Usage: rust_skim [DIR] [--show N]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Result;
use memval_investigator::symbols::{definitions, parse_definitions, skimmed, Lang};
use rayon::prelude::*;

/// The investigator parses files up to this size (its `MAX_PARSE_BYTES`).
const MAX_BYTES: u64 = 2 * 1024 * 1024;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let Ok(kind) = entry.file_type() else { continue };
        let path = entry.path();
        if kind.is_dir() {
            rust_files(&path, out);
        } else if kind.is_file() && path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

struct One {
    path: PathBuf,
    bytes: usize,
    defs: usize,
    same: bool,
    whole: Duration,
    skimmed: Duration,
    /// Bytes tree-sitter reads after skimming; `None` when the text is parsed as it is.
    skimmed_bytes: Option<usize>,
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let show: usize = args
        .iter()
        .position(|a| a == "--show")
        .and_then(|i| args.get(i + 1))
        .map(|s| s.parse())
        .transpose()?
        .unwrap_or(20);
    let dir = match args.iter().find(|a| !a.starts_with("--") && a.parse::<usize>().is_err()) {
        Some(d) => PathBuf::from(d),
        None => {
            let home = std::env::var("CARGO_HOME")
                .map(PathBuf::from)
                .or_else(|_| std::env::var("HOME").map(|h| PathBuf::from(h).join(".cargo")))?;
            home.join("registry/src")
        }
    };
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    files.sort();
    let started = Instant::now();
    let results: Vec<One> = files
        .par_iter()
        .filter_map(|path| {
            let meta = std::fs::metadata(path).ok()?;
            if meta.len() > MAX_BYTES {
                return None;
            }
            let bytes = std::fs::read(path).ok()?;
            if bytes[..bytes.len().min(8192)].contains(&0) {
                return None;
            }
            let text = String::from_utf8_lossy(&bytes);
            let t = Instant::now();
            let whole = parse_definitions(Lang::Rust, &text);
            let whole_time = t.elapsed();
            let t = Instant::now();
            let skimmed_defs = definitions(Lang::Rust, &text);
            let skimmed_time = t.elapsed();
            let skimmed_bytes = skimmed(&text).map(|s| s.len());
            Some(One {
                skimmed_bytes,
                path: path.clone(),
                bytes: text.len(),
                defs: whole.len(),
                same: whole == skimmed_defs,
                whole: whole_time,
                skimmed: skimmed_time,
            })
        })
        .collect();
    let differing: Vec<&One> = results.iter().filter(|r| !r.same).collect();
    let sum = |f: fn(&One) -> Duration| results.iter().map(f).sum::<Duration>().as_secs_f64();
    println!("rust_skim: {}", dir.display());
    println!(
        "  {} .rs files ({:.1} MB, {} definitions) compared in {:.1}s",
        results.len(),
        results.iter().map(|r| r.bytes).sum::<usize>() as f64 / 1e6,
        results.iter().map(|r| r.defs).sum::<usize>(),
        started.elapsed().as_secs_f64()
    );
    println!(
        "  parse time: whole text {:.1}s, skimmed {:.1}s (ratio {:.3})",
        sum(|r| r.whole),
        sum(|r| r.skimmed),
        sum(|r| r.skimmed) / sum(|r| r.whole)
    );
    let kept: Vec<&One> = results.iter().filter(|r| r.skimmed_bytes.is_none()).collect();
    println!(
        "  skimmed: {} files, {:.1} MB -> {:.1} MB; parsed as they are (the scan was unsure): {} files, {:.1} MB",
        results.len() - kept.len(),
        results.iter().filter(|r| r.skimmed_bytes.is_some()).map(|r| r.bytes).sum::<usize>() as f64 / 1e6,
        results.iter().filter_map(|r| r.skimmed_bytes).sum::<usize>() as f64 / 1e6,
        kept.len(),
        kept.iter().map(|r| r.bytes).sum::<usize>() as f64 / 1e6
    );
    for r in kept.iter().take(show) {
        println!("  parsed whole: {}", r.path.display());
    }
    println!("  identical definitions: {} files; differing: {}", results.len() - differing.len(), differing.len());
    for r in differing.iter().take(show) {
        println!("  differs: {}", r.path.display());
    }
    if !differing.is_empty() {
        std::process::exit(1);
    }
    Ok(())
}
