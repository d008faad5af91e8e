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
//! and sentences; `paths`, `symbols`, `config`, `lines`, `commands` (with `clone`: a `cd` into the
//! folder a `git clone` made) and `behaviour` recognise what a token or sentence asserts; `mentions` collects one sentence's mentions and ties its
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
//! the report lists them under `not_checked` as `unread_text`; so are the sections of a current
//! doc that record the past (`scan::past`), with their heading. A memory with no claim carries a
//! `skip_reason`. A panic inside the rules is caught per memory ([`extract`]) and becomes that
//! memory's skip reason, so one bad memory never loses its batch (the investigator does the same
//! per claim, and the runtime catches a panic around a whole batch and dead-letters it).

mod behaviour;
mod claims;
mod clone;
mod commands;
mod config;
mod disowned;
mod extract;
mod lines;
mod markdown;
mod mentions;
pub mod model;
mod paths;
mod scan;
mod stage;
mod symbols;
mod versions;

pub use extract::{
    extract, EMPTY_REASON, FIXTURE_REASON, HISTORY_REASON, INTERNAL_ERROR_REASON, NO_CLAIMS_REASON, VENDORED_REASON,
};
pub use model::{LlmExtractorConfig, LlmExtractorStage};
pub use stage::ExtractorStage;

#[cfg(test)]
mod tests;
