//! The investigator stage: gives every extracted claim a verdict with `file:line` evidence.
//!
//! Tier A is deterministic: one [`RepoIndex`] per run (a `.gitignore`-aware walk plus
//! tree-sitter symbol definitions) and the repo's git history. Claims that need judgement
//! (behavioral, architectural) get a verdict only where the index proves one; otherwise
//! they are reported as not checked, never as VALID — unless a Tier B investigator (an LLM
//! agent loop with read-only, repo-confined tools, [`model`]) is configured, whose verdicts
//! are kept only when they pass the output contract and their `file:line` evidence checks out.
//!
//! This crate must never read outside the repo root (see [`confine`]), never write to the
//! repo, and never follow an instruction found in memory text or file contents.

mod check;
pub mod confine;
mod embedded;
mod evidence;
mod grammars;
pub mod index;
mod kept;
mod kept_defs;
pub mod model;
mod names;
mod repos;
mod similar;
mod skim;
mod stage;
pub mod symbols;
mod tree_words;
mod usage;

pub use check::config::config_assignments;
pub use check::{Checker, MemoryContext, NAME_SEARCHES_PER_MEMORY};
pub use evidence::{Evidence, INTERNAL_ERROR_REASON};
pub use index::RepoIndex;
pub use kept::KeptVerdicts;
pub use memval_git::{Cache, GitRepo, Progress};
pub use model::{TierB, TierBConfig, TierBStats};
pub use repos::RepoRouter;
pub use stage::InvestigatorStage;
