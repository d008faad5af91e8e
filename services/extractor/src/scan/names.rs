//! Symbols of a sentence: code spans and bare words shaped like code, tied to the nearest
//! file of the sentence.
//!
//! A sentence's "dependency talk" cue (`crates`, `packages`, ...; `config::has_dependency_cue`)
//! is judged with the words inside the paths it names blanked out (`dependency_cue`), so monorepo
//! folders (`crates/core/src/lib.rs`, `packages/cli/`) do not hide the symbols beside them.
//! Symbols are tied to the nearest file of their sentence (`mentions::bind`).

use std::ops::Range;

use crate::config;
use crate::mentions::{bind, symbol_mentions, Cand, ConfigMention, FileMention, Line, SymbolMention};
use crate::paths;

/// The symbols of the sentence `range` of `line`, outside the keys already taken from its
/// running text.
pub(super) fn symbols(
    line: &Line<'_>,
    range: &Range<usize>,
    files: &[FileMention],
    cands: &[Cand<'_>],
    configs: &[ConfigMention],
) -> Vec<SymbolMention> {
    let taken: Vec<(usize, usize)> = configs.iter().filter(|c| c.prose).map(|c| (c.start, c.end)).collect();
    symbol_mentions(line, range, files, cands, &taken, dependency_cue(line.orig, range, files))
}

/// Whether the sentence `orig[range]` talks about dependencies ("the `serde` crate"), not
/// counting the words inside the paths it names: `crates/core/src/lib.rs` and
/// `packages/cli/` are folders of a monorepo, not talk of packages.
fn dependency_cue(orig: &str, range: &Range<usize>, files: &[FileMention]) -> bool {
    let mut text = orig[range.clone()].to_string();
    for f in files.iter().filter(|f| f.tok.path.contains('/')) {
        let (a, b) = (f.start.max(range.start) - range.start, f.end.min(range.end).saturating_sub(range.start));
        if a < b && text.is_char_boundary(a) && text.is_char_boundary(b) {
            text.replace_range(a..b, &" ".repeat(b - a));
        }
    }
    config::has_dependency_cue(&text)
}

/// Ties each symbol to the nearest file of the sentence ([`bind`]).
pub(super) fn tie_to_files(orig: &str, files: &[FileMention], syms: &mut [SymbolMention]) {
    let plain: Vec<usize> = (0..files.len()).filter(|&i| !paths::folder_like(&files[i].tok)).collect();
    let folders: Vec<usize> = (0..files.len()).filter(|&i| paths::folder_like(&files[i].tok)).collect();
    for s in syms.iter_mut() {
        bind(orig, files, &plain, &folders, s);
    }
}
