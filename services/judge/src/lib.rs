//! The pair judge (docs/contracts.md §5): for candidate pairs of memories of two different agents, an LLM
//! says whether they are contradictory, consistent or unrelated, quoting each side verbatim
//! when they contradict.
//!
//! The model's answer is checked, never trusted ([`contract`]): one judgement per pair, the
//! verdict enum, an integer confidence 0-100, verbatim quotes. Whatever fails is replaced by the
//! docs/contracts.md §4 fallback (`unrelated`, confidence 0) with the reason, so every pair of a batch gets
//! exactly one judgement. [`plan`] decides which candidates a run judges.
//!
//! This crate must never take a side, change or archive a memory, or follow an instruction
//! found in memory text: the text is fenced as data in memval's own prompt ([`prompt`]).

pub mod change;
pub mod draft;
pub mod input;
pub mod model;
pub mod plan;
pub mod result;
mod stage;

pub use model::contract::Checked;
pub use model::{contract, prompt};
pub use stage::{JudgeStage, STAGE};
