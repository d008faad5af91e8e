//! The rule-based claim extractor: turns a memory's text into the checkable claims of
//! docs/contracts.md §2 (files, symbols, line contents, configuration, behavior, architecture), each
//! anchored to code refs and to the line of the memory it came from.
//!
//! [`extract`] is a pure function. With a model injected, [`LlmExtractorStage`] adds the
//! model's claims, checked against docs/contracts.md §2 and merged after the rules' ([`llm`]). This crate
//! must never do I/O of its own (it never looks at the
//! repo: whether a path exists is the investigator's question), and must never follow
//! instructions found in memory text: the text is data, scanned by fixed rules, and
//! "ignore previous instructions" is just words without a code reference. Paths are kept as
//! written (`..` and absolute paths included) for the investigator to confine; nothing here
//! resolves them against a file system.
//!
//! Hostile input (megabyte lines, binary junk, deep trees, unbalanced backticks) cannot
//! panic or blow up: every regex is compiled once and runs in linear time, and the number of
//! mentions per memory is capped.
//!
//! The pieces: `markdown` splits lines into fences, headings, list items, code spans, links
//! and sentences; `paths`, `symbols`, `config`, `lines`, `commands` and `behaviour` recognise
//! what a token or sentence asserts; `mentions` collects one sentence's mentions and ties its
//! symbols and keys to its files; `scan` walks the text, tracks sections, lists and trees,
//! and resolves relative paths against the folders in scope; `claims` turns mentions into
//! claims in the memory's order, deduplicated, with no cap (docs/contracts.md §2 rule 5's
//! limit of 8 is for a model's output only).
//!
//! A symbol is placed in a file of its own sentence, or in the file its section or list item
//! is about; a symbol named in a sentence without a file is looked for anywhere (`.`), except
//! that a line number ("The `ShardedCache` struct (L45)") is counted in the file the
//! paragraph named just before.
//!
//! What is a code reference: paths (inline, in code blocks, in links, in trees, given to shell
//! commands, relative to a folder in scope), backticked identifiers (`Type::method`,
//! `Class.method`), line references (`file.rs:45`, `L45`, "line 45 of X"), config keys with
//! values, and sentences that say what named code does or how it relates to other code. URLs,
//! commands, package names and English words are not. The walker's rules, pass by pass, are in
//! `scan`; what counts as a path in `paths`, a command's arguments in `commands`.
//!
//! Nothing is capped but hostile input: 4,096 mentions per memory (`scan::MAX_MENTIONS`). The
//! lines past it are named in `ExtractedMemory::left_out` (`LeftOut`: first line, reason), and
//! the report lists them under `not_checked` as `unread_text`. A memory with no claim carries a
//! `skip_reason`. A panic inside the rules is caught per memory ([`extract`]) and becomes that
//! memory's skip reason, so one bad memory never loses its batch (the investigator does the same
//! per claim, and the runtime catches a panic around a whole batch and dead-letters it).

mod behaviour;
mod claims;
mod commands;
mod config;
mod lines;
mod markdown;
mod mentions;
pub mod model;
mod paths;
mod scan;
mod stage;
mod symbols;

pub use model::{LlmExtractorConfig, LlmExtractorStage};
pub use stage::ExtractorStage;

use memval_proto::{ExtractedMemory, LeftOut, Memory};

/// Why a memory without claims was skipped (docs/contracts.md §2 rule 4).
pub const NO_CLAIMS_REASON: &str = "no checkable code reference (no file path, symbol or config key)";

/// Why an empty memory (an empty CLAUDE.md, a blank `content`) has no claims.
pub const EMPTY_REASON: &str = "empty: the memory has no text to check";

/// How the skip reason of a memory the extractor failed on begins (a bug in memval, kept to
/// that one memory: the rest of the batch and the run go on).
pub const INTERNAL_ERROR_REASON: &str = "not read: memval's extractor failed on this memory (a bug; please report it)";

/// Extracts every claim of `memory.content`. Pure function, no I/O. A panic inside
/// the rules is caught here and reported as this memory's skip reason
/// ([`INTERNAL_ERROR_REASON`] and the panic's message), never lost with its batch.
pub fn extract(memory: &Memory) -> ExtractedMemory {
    memval_runtime::panics::catch(|| extract_rules(memory)).unwrap_or_else(|panic| {
        tracing::error!(memory = %memory.id, source = %memory.source, panic = %panic.escape_debug(), "the extractor failed on a memory");
        ExtractedMemory {
            memory: memory.meta(),
            claims: Vec::new(),
            skip_reason: Some(format!("{INTERNAL_ERROR_REASON}: {panic}")),
            left_out: Vec::new(),
        }
    })
}

fn extract_rules(memory: &Memory) -> ExtractedMemory {
    let context = memory.context_dir.as_deref().and_then(context_dir);
    let doc = scan::scan(&memory.content, context.as_deref());
    let claims = claims::build(&doc);
    let skip_reason = claims
        .is_empty()
        .then(|| if memory.content.trim().is_empty() { EMPTY_REASON } else { NO_CLAIMS_REASON }.to_string());
    let left_out = doc
        .unread
        .map(|(from, to)| LeftOut {
            line: from,
            reason: format!(
                "lines {from}-{to} not read: the memory names more than {} paths, symbols and keys (memval's limit per memory; split the memory to check the rest)",
                scan::MAX_MENTIONS
            ),
        })
        .into_iter()
        .collect();
    ExtractedMemory { memory: memory.meta(), claims, skip_reason, left_out }
}

/// The notes file's folder, normalised; `None` for the repo root or a folder that is not
/// plainly repo-relative.
fn context_dir(dir: &str) -> Option<String> {
    let tok = paths::parse(dir.trim())?;
    (!tok.unresolvable()).then_some(tok.path)
}

#[cfg(test)]
mod tests;
