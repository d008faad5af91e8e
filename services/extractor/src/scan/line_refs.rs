//! Line numbers and line contents of a sentence: the line a file is cited at (`src/main.rs:12`,
//! "line 12 of `src/main.rs`", "`lru.go` (L45)").
//!
//! A declared name on a stated line ("line 12 of `src/main.rs` holds `fn main`") sits on that
//! line.

use std::ops::Range;

use crate::lines;
use crate::mentions::{gap, FileMention, LineTextMention, SymbolMention};
use crate::symbols;

/// Gives each file of the sentence `range` the line number written after it (`after`: where
/// the mention ends, line reference included) or before it; a folder has no line.
pub(super) fn line_numbers(orig: &str, range: &Range<usize>, files: &mut [FileMention]) {
    for f in files.iter_mut() {
        if f.tok.dir {
            f.tok.line = None;
        } else if f.tok.line.is_none() {
            if let Some((n, len)) = lines::after_file(gap(orig, f.end, range.end)) {
                f.tok.line = Some(n);
                f.after = f.end + len;
            } else {
                f.tok.line = lines::before_file(gap(orig, range.start, f.start));
            }
        }
    }
}

/// "line 12 of `src/main.rs` holds `fn main`": the declared name sits on that line.
pub(super) fn declared_names(files: &[FileMention], line_texts: &[LineTextMention], syms: &mut Vec<SymbolMention>) {
    for lt in line_texts {
        let f = &files[lt.file];
        if let Some(sym) = symbols::parse(&lt.text).filter(|s| s.shape.is_code() && !symbols::blocked(&s.name)) {
            syms.push(SymbolMention {
                name: sym.name,
                shape: sym.shape,
                line: f.tok.line,
                file: Some(lt.file),
                free: false,
                start: f.start,
                end: f.end,
            });
        }
    }
}
