//! What the pair judge asks the model ([`prompt`]) and how its answer is checked before
//! anything of it is kept ([`contract`]).

pub mod contract;
pub mod prompt;
