//! The code spans of a sentence, the most deliberate way memory text names code.
//!
//! Per sentence, each code span is, in order: a command (the program it runs, `./x` included, and
//! the paths it is given, each at its own place in the span), a path (including a path pattern's
//! folder, and a two-segment span of plain lowercase words under a named root: see `context`), an
//! assignment (a config candidate, see `keys`; not one that follows "when", "if" or "e.g.": a
//! condition or an example, not the setting's value), or a candidate symbol, key or line text for the
//! later passes. A heading made only of code spans (`` ### `editors/code` ``, `` ### `crates/a`,
//! `crates/b` ``) names each as a path as deliberately as a line of its own would (standalone
//! strength). Plain words the text calls a folder right after them (`` `felix/fv` directory ``)
//! are that folder. A span holding a Cursor link (`` `[guide](mdc:.cursor/rules/guide.mdc)` ``) names
//! its target, from the root. So does an include directive with a folder in its header's name
//! (`` `#include <category/core/hex.hpp>` ``).

use std::ops::Range;

use crate::commands;
use crate::config;
use crate::markdown::CodeSpan;
use crate::mentions::{Cand, Line};
use crate::paths::{self, PathToken, Strength};

use super::command_lines::{program_token, span_command};
use super::doc::{Kind, MAX_SPAN};
use super::found::Found;
use super::links::cursor_link;
use super::walker::Walker;
use super::words::the_readers_file;

impl Walker {
    /// Reads the code spans `spans` of the sentence `range` of `line` into `found`.
    pub(super) fn code_spans<'a>(
        &self,
        line: &Line<'a>,
        range: &Range<usize>,
        spans: &[CodeSpan],
        kind: Kind,
        found: &mut Found<'a>,
    ) {
        let orig = line.orig;
        let strength = span_strength(line, range, kind, spans);
        for sp in spans {
            let inner = orig[sp.inner.clone()].trim();
            if inner.is_empty() || inner.len() > MAX_SPAN {
                continue;
            }
            if inner.contains(char::is_whitespace) && span_command(orig, inner, &mut found.raw) {
                continue;
            }
            if commands::is_command(inner) {
                continue;
            }
            // `` `[guide.mdc](mdc:.cursor/rules/guide.mdc)` ``: a Cursor link written as code
            // names its target, from the root.
            if let Some(tok) = span_cursor_link(inner) {
                found.root_relative.push((sp.start, sp.end));
                found.raw.push((tok, sp.start, sp.end));
                continue;
            }
            if let Some(tok) = included_header(inner) {
                found.raw.push((tok, sp.start, sp.end));
                continue;
            }
            let masked = line.masked[sp.inner.clone()].trim();
            let tok = self
                .span_path(masked, inner, strength)
                .or_else(|| paths::named_a_folder(masked, &orig[sp.end..]))
                .or_else(|| named_a_dotfile(masked, &orig[..sp.start], &orig[sp.end..]));
            if let Some(tok) = tok {
                // "your app's `build.gradle`": the reader's file, not one of the repository; so
                // is a bare name the memory places in the reader's home folder, and "ESP-IDF's
                // `export.sh`" is another project's.
                let before = orig[..sp.start].trim_end_matches('`');
                let bare = !tok.path.contains('/');
                let elsewhere = bare && (self.home.contains(&tok.path) || anothers_file(before));
                if !the_readers_file(before, &tok.path) && !elsewhere {
                    found.raw.push((tok, sp.start, sp.end));
                }
                continue;
            }
            if let Some(a) = config::assignment(inner) {
                // "Required when `AI_PROVIDER=anthropic`": a condition, not the setting's value.
                if !config::conditional(&orig[..sp.start]) {
                    found.assignments.push((a, sp.start, sp.end));
                }
                continue;
            }
            found.cands.push(Cand { start: sp.start, end: sp.end, text: inner, used: false });
        }
    }

    /// A code span as a path (`masked`: the span with URLs blanked; `inner`: as written): a
    /// placeholder file's folder, a path, a path pattern's folder, a `./script`, or plain words under a folder the memory
    /// names as a path elsewhere ([`paths::under_named_root`]).
    fn span_path(&self, masked: &str, inner: &str, strength: Strength) -> Option<PathToken> {
        paths::placeholder_file_folder(masked)
            .or_else(|| paths::classify(masked, strength))
            .or_else(|| paths::pattern_folder(masked))
            .or_else(|| program_token(masked).filter(|_| inner.starts_with("./")))
            .or_else(|| paths::under_named_root(masked, &self.roots))
    }
}

/// Whether the words before a bare file name give it to another project by name: a capitalised
/// possessive ("source ESP-IDF's `export.sh`", "Gradle's `settings.gradle`"). A lower-case one
/// ("the project's `Makefile`") may be this repository's.
fn anothers_file(before: &str) -> bool {
    let Some(word) = before.split_whitespace().next_back() else { return false };
    let owner = word.strip_suffix("'s").or_else(|| word.strip_suffix("\u{2019}s")).unwrap_or("");
    owner.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && owner.chars().all(|c| c.is_alphanumeric() || matches!(c, '-' | '.' | '_'))
}

/// How sure a code span is to be a path. A heading made only of code spans (`### `editors/code``,
/// `### `crates/a`, `crates/b``) names each as a path as deliberately as a line of its own would.
fn span_strength(line: &Line<'_>, range: &Range<usize>, kind: Kind, spans: &[CodeSpan]) -> Strength {
    let spans_heading = kind == Kind::Heading
        && !spans.is_empty()
        && line.open[range.clone()]
            .split(|c: char| c.is_whitespace() || c == ',' || c == '&')
            .all(|w| w.is_empty() || w == "and");
    if spans_heading {
        Strength::Standalone
    } else {
        Strength::Backtick
    }
}

/// A code span of a dot and a long name the text calls a file right after it ("uses the
/// `.taskmasterconfig` file"): a tool's own dotfile, not an extension. Not after "a", "an",
/// "each" or "every" ("each `.mdc` file" is a kind of file), and not a name of five letters or
/// fewer, which may be an extension whatever is said of it.
fn named_a_dotfile(masked: &str, before: &str, after: &str) -> Option<PathToken> {
    let next = after.trim_start().split(|c: char| !c.is_ascii_alphabetic()).next()?;
    let kind_of = before
        .split_whitespace()
        .next_back()
        .is_some_and(|w| matches!(w.to_ascii_lowercase().as_str(), "a" | "an" | "each" | "every" | "any"));
    let name = masked.strip_prefix('.')?;
    let plain = name.len() > 5 && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'));
    (next.eq_ignore_ascii_case("file") && plain && !kind_of).then(|| paths::parse(masked)).flatten().filter(|t| !t.dir)
}

/// A code span holding a Cursor link, `[text](mdc:path)`: its path.
fn span_cursor_link(inner: &str) -> Option<PathToken> {
    let target = inner.strip_prefix('[')?.split_once("](")?.1.strip_suffix(')')?;
    cursor_link(target)
}

/// The header of an include directive written as code (`#include <category/core/hex.hpp>`,
/// `#import "Sources/App/App.h"`), when its name has a folder: a path. A bare `<vector>` is the
/// compiler's.
fn included_header(inner: &str) -> Option<PathToken> {
    let rest = inner.strip_prefix("#include").or_else(|| inner.strip_prefix("#import"))?.trim();
    let header = rest
        .strip_prefix('<')
        .and_then(|r| r.strip_suffix('>'))
        .or_else(|| rest.strip_prefix('"').and_then(|r| r.strip_suffix('"')))?;
    if !header.contains('/') {
        return None;
    }
    paths::classify(header, Strength::Backtick).filter(|tok| !tok.dir)
}

#[cfg(test)]
mod tests {
    use super::anothers_file;

    #[test]
    fn a_file_another_project_owns() {
        assert!(anothers_file("set `IDF_PATH` and source ESP-IDF's "));
        assert!(!anothers_file("run the project's "));
        assert!(!anothers_file("Run "));
    }
}
