//! One file per command (the clap arguments and a thin `run` over a library crate).

pub mod judge_change;
