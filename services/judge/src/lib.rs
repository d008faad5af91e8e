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
//!
//! The crate has the shape every service crate has: `lib.rs`, `stage.rs` (every `Stage` impl),
//! domain modules (`plan`, `input`, `result`, and the `draft` and `change` judges), one `model/`
//! folder for everything it asks a model, and `tests/` against the scripted model server.
//! `tests/render.rs` renders fixed, hostile fixtures through every judge's views (pairs result,
//! draft judgement, change validation, manifest and history lines) and compares them with
//! `tests/golden/`.

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
