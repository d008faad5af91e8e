//! Every judge's model code, in one place: what it asks the model and how the answer is
//! checked before anything of it is kept. The pair judge's prompt ([`prompt`]) and contract
//! ([`contract`]); the draft judge's review of candidate memories ([`draft`]); the change
//! judge's review of criteria without a check and its cross-model rule ([`change`]).
//!
//! Nothing here obeys the model or the text it is shown: memories, drafts and subject files
//! reach a model only inside fences, and an answer that breaks its contract is not kept.

pub mod change;
pub mod contract;
pub mod draft;
pub mod prompt;
