//! One file per command: its flags, the one library call they become, and how its result is
//! printed and turned into an exit code.

pub mod dlq;
pub mod history;
pub mod hook;
pub mod judge;
pub mod judge_change;
pub mod judge_draft;
pub mod mcp;
pub mod pairs;
pub mod reconcile;
pub mod serve;
pub mod validate;
