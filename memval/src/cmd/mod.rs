//! One file per command: its clap arguments and a `run` that parses, calls the library,
//! prints and sets the exit code.

pub mod pairs;
pub mod reconcile;
