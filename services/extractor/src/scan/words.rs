//! The words of a sentence's running text (outside code spans and links).
//!
//! Words of the running text are paths by shape ([`Strength::Prose`]: a known extension or a
//! well-known top folder; standalone strength when the line is a single token). A bold
//! two-segment word (`**internal-packages/redis**`) is a path on the same terms as a two-segment
//! code span: under a root the memory names elsewhere (see `context`).

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use crate::mentions::Line;
use crate::paths::{self, Strength};

use super::found::Found;
use super::walker::Walker;

/// Candidate path tokens of running text.
pub(super) static TOKEN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"[^\s\x00-\x1f\x7f`()\[\]{}<>"',;|=]+"#).expect("valid regex"));

impl Walker {
    /// Reads the paths among the words of the sentence `range` of `line` into `found`
    /// (`single`: the line is one token, as deliberate as a code span).
    pub(super) fn words(&self, line: &Line<'_>, range: &Range<usize>, single: bool, found: &mut Found<'_>) {
        let strength = if single { Strength::Standalone } else { Strength::Prose };
        for m in TOKEN.find_iter(&line.open[range.clone()]) {
            // `no-op/`nothing``: a slash right before a code span puts two alternatives side
            // by side; the word before it is no folder.
            let next = line.orig.get(range.start + m.end()..).and_then(|rest| rest.chars().next());
            if m.as_str().ends_with('/') && next == Some('`') {
                continue;
            }
            // Bold two-segment words (`**internal-packages/redis**`) are paths on the same
            // terms as code spans: under a folder the memory names as a path elsewhere, which
            // keeps a bold `owner/repo` out.
            let bold = |t: &str| t.starts_with("**") && t.trim_end_matches(['.', ',', ':', ';']).ends_with("**");
            if let Some(tok) = paths::classify(m.as_str(), strength)
                .or_else(|| bold(m.as_str()).then(|| paths::under_named_root(m.as_str(), &self.roots)).flatten())
            {
                found.raw.push((tok, range.start + m.start(), range.start + m.end()));
            }
        }
    }
}
