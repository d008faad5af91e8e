//! Behavioural and architectural sentences.
//!
//! A sentence without config or line-text mentions is offered to `behaviour::classify` with its
//! code replaced by placeholders (`mentions::placeholders`), so verbs inside code
//! (`src/handles.rs`) are not read as prose.

use std::ops::Range;

use memval_proto::ClaimType;

use crate::behaviour;
use crate::markdown::CodeSpan;
use crate::mentions::{placeholders, FileMention, SymbolMention};

/// The sentence `orig[range]` as a behavioural or architectural claim, if it is one.
pub(super) fn classify(
    orig: &str,
    range: &Range<usize>,
    spans: &[CodeSpan],
    files: &[FileMention],
    syms: &[SymbolMention],
) -> Option<ClaimType> {
    // Places, not names: a symbol and its own file are one place.
    let mut distinct: Vec<&str> = files
        .iter()
        .map(|f| f.readings[0].as_str())
        .chain(syms.iter().map(|s| s.file.map_or(s.name.as_str(), |i| files[i].readings[0].as_str())))
        .collect();
    distinct.sort_unstable();
    distinct.dedup();
    let prose = placeholders(orig, range, spans, files, syms);
    behaviour::classify(&prose, distinct.len())
}
