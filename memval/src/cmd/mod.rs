//! One file per command: each holds its clap arguments and a `run` that parses, calls the
//! library, prints and sets the exit code.

pub mod judge_draft;
