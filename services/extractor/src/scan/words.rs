//! The words of a sentence's running text (outside code spans and links).
//!
//! Words of the running text are paths by shape ([`Strength::Prose`]: a known extension or a
//! well-known top folder; standalone strength when the line is a single token). A bold
//! two-segment word (`**internal-packages/redis**`) is a path on the same terms as a two-segment
//! code span: under a root the memory names elsewhere (see `context`).
//!
//! A word that opens its line and is defined by what follows a dash or colon ("- app/desktop -
//! our python desktop app", a definition list of folders) is as deliberate as a code span
//! ([`defined_after`]).
//!
//! A bare file name after an indefinite article or a reader's word ("a multi-stage Dockerfile",
//! "your own Makefile", "any README.md") names a kind of file, not one of this repository: no
//! path ([`a_kind_of_file`]). Nor does a capitalised dotted name listed among tools' names
//! ("Pytest, Coverage.py, Playwright": [`a_named_tool`]).

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use crate::mentions::Line;
use crate::paths::{self, PathToken, Strength};

use super::command_lines::program_token;
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
            let opens = range.start + m.start() == 0 || line.open[..range.start + m.start()].trim().is_empty();
            // "app/web_ui: the svelte app": the colon is read with the word.
            let colon = usize::from(m.as_str().ends_with(':'));
            let after = &line.open[range.start + m.end() - colon..];
            let strength = if opens && defined_after(after) && m.as_str().contains('/') {
                strength.max(Strength::Backtick)
            } else {
                strength
            };
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
            if !single && a_kind_of_file(&line.open[range.start..range.start + m.start()], m.as_str()) {
                continue;
            }
            if a_named_tool(
                &line.open[range.start..range.start + m.start()],
                m.as_str(),
                &line.open[range.start + m.end()..range.end],
            ) {
                continue;
            }
            if let Some(tok) = paths::classify(m.as_str(), strength)
                .or_else(|| bold(m.as_str()).then(|| paths::under_named_root(m.as_str(), &self.roots)).flatten())
                .or_else(|| paths::named_a_folder(m.as_str(), &line.open[range.start + m.end()..]))
                .or_else(|| written_from_here(m.as_str()))
            {
                found.raw.push((tok, range.start + m.start(), range.start + m.end()));
            }
        }
    }
}

/// A word written from the current folder ("the backupspec module (./backupspec)", "see
/// ./v3/pkg/managerclient"): the leading `./` says path as plainly as backticks do, so it is
/// read as a code span's `./script` would be, a folder or file of its own.
fn written_from_here(word: &str) -> Option<PathToken> {
    let word = word.trim_end_matches(['.', ',', ':', ';', '!', '?']);
    let rest = word.strip_prefix("./")?;
    let named = |s: &str| s.chars().next().is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    let plain = !rest.is_empty() && rest.trim_end_matches('/').split('/').all(named);
    plain.then(|| program_token(word).or_else(|| paths::classify(word, Strength::Backtick))).flatten()
}

/// Whether a bare name in a code span right after `before` is the reader's own file: after
/// "your" or "their", with at most one word between ("your app's `build.gradle`", "In your
/// `build.gradle`"). Unlike running text, an article does not count: "a `Makefile` target" is
/// a target of the repository's Makefile.
pub(super) fn the_readers_file(before: &str, name: &str) -> bool {
    if name.contains('/') {
        return false;
    }
    let words: Vec<String> = before.split_whitespace().rev().take(2).map(str::to_lowercase).collect();
    let reader = |w: &String| matches!(w.as_str(), "your" | "their");
    let plain = |w: &String| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase() || c == '-' || c == '\'');
    match words.as_slice() {
        [last, ..] if reader(last) => true,
        [last, second] => plain(last) && reader(second),
        _ => false,
    }
}

/// Whether `word`, a bare dotted name in running text, is a tool's name among tools' names
/// ("Pytest, Coverage.py, Playwright"): one capitalised word before the dot, and a list item
/// beside it that is a capitalised word with no dot. A file of the repository named in prose
/// is not listed among products.
fn a_named_tool(before: &str, word: &str, after: &str) -> bool {
    let word = word.trim_end_matches(['.', ',', ':', ';', '!', '?']);
    let Some((stem, ext)) = word.split_once('.') else {
        return false;
    };
    let one_word = |w: &str| {
        let mut cs = w.chars();
        cs.next().is_some_and(|c| c.is_ascii_uppercase())
            && cs.as_str().len() >= 2
            && cs.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
    };
    if !one_word(stem) || ext.is_empty() || ext.contains('.') || !ext.chars().all(|c| c.is_ascii_lowercase()) {
        return false;
    }
    // A list item is the text between commas; the words beside the name are its neighbours.
    let item_before = before.trim_end().strip_suffix(',').map(|b| b.rsplit([',', ':']).next().unwrap_or(""));
    let item_after = after.trim_start().strip_prefix(',').map(|a| a.split([',', '(', ';']).next().unwrap_or(""));
    let tool = |item: &str| {
        let item = item.trim().trim_start_matches("and ").trim_start_matches("or ").trim_matches('*').trim();
        let first = item.split_whitespace().next().unwrap_or("");
        !item.is_empty()
            && item.split_whitespace().count() <= 2
            && first.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && !item.contains(['.', '/', '`'])
    };
    item_before.is_some_and(tool) || item_after.is_some_and(tool)
}

/// Whether the text right after a line's first word defines it: " - our desktop app", " – x",
/// " — x", ": x".
fn defined_after(after: &str) -> bool {
    [" - ", " – ", " — ", ": "].iter().any(|sep| after.starts_with(sep))
}

/// Words before a bare file name that make it a kind of file: "a Dockerfile", "your Makefile".
const KIND_OF: &[&str] = &["a", "an", "any", "each", "every", "your", "their", "another", "some"];

/// Words that, before the article, say the repository has the file: "the repo has a
/// Dockerfile", "there is a Makefile", "ships an `.env.example`".
const HAS: &[&str] =
    &["has", "have", "is", "are", "includes", "include", "contains", "contain", "ships", "provides", "with"];

/// Whether `word`, a bare name (no folder) in running text after `before`, is a kind of file:
/// right after a word of [`KIND_OF`], or after one and a plain lower-case word ("a multi-stage
/// Dockerfile", "your own Makefile"), unless the words before that say something has it
/// ("This repository has a Dockerfile").
fn a_kind_of_file(before: &str, word: &str) -> bool {
    if word.trim_end_matches(['.', ',', ':', ';', '!', '?']).contains('/') {
        return false;
    }
    let words: Vec<String> = before.split_whitespace().rev().take(5).map(str::to_lowercase).collect();
    let kind = |w: &String| KIND_OF.contains(&w.as_str());
    let plain = |w: &String| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase() || c == '-');
    let article = match words.as_slice() {
        [last, ..] if kind(last) => 0,
        [last, second, ..] if plain(last) && kind(second) => 1,
        _ => return false,
    };
    !words[article + 1..].iter().take(2).any(|w| HAS.contains(&w.as_str()))
}

#[cfg(test)]
mod tests {
    use super::{a_kind_of_file, a_named_tool, defined_after, the_readers_file};

    #[test]
    fn a_tools_name_among_tools_is_no_file() {
        assert!(a_named_tool("**Testing:** Pytest, ", "Coverage.py", ", Playwright (integration), Jest"));
        assert!(a_named_tool("", "Coverage.py", ", Pytest"));
        // a file among files, a file in a sentence, a CamelCase class file
        assert!(!a_named_tool("Edit README.md, ", "Setup.py", ", LICENSE.txt"));
        assert!(!a_named_tool("Run ", "Setup.py", " first"));
        assert!(!a_named_tool("Pytest, ", "UserService.java", ", Mockito"));
    }

    #[test]
    fn the_readers_own_files() {
        assert!(the_readers_file("add the dependency to your app's ", "build.gradle"));
        assert!(the_readers_file("In your ", "build.gradle"));
        assert!(!the_readers_file("Add a ", "Makefile"));
        assert!(!the_readers_file("Bugsnag client library to ", "build.gradle"));
        assert!(!the_readers_file("In your ", "app/build.gradle"));
    }

    #[test]
    fn a_first_word_defined_after_a_dash() {
        assert!(defined_after(" - our python desktop app"));
        assert!(defined_after(": the web UI"));
        assert!(!defined_after(" is our desktop app"));
        assert!(!defined_after("-rc1 is out"));
    }

    #[test]
    fn kinds_of_files() {
        assert!(a_kind_of_file("Use PDM in a multi-stage ", "Dockerfile"));
        assert!(a_kind_of_file("Add it to your ", "Makefile."));
        assert!(a_kind_of_file("Each new package needs a ", "README.md"));
        assert!(a_kind_of_file("write your own ", "Makefile"));
    }

    #[test]
    fn files_of_the_repository() {
        assert!(!a_kind_of_file("Build with the ", "Dockerfile"));
        assert!(!a_kind_of_file("See ", "CONTRIBUTING.md"));
        assert!(!a_kind_of_file("a copy of ", "docs/setup.md"));
        assert!(!a_kind_of_file("Edit the root ", "Makefile"));
        assert!(!a_kind_of_file("a v2 ", "Makefile"));
        assert!(!a_kind_of_file("This repository has a ", "Dockerfile"));
        assert!(!a_kind_of_file("At the root there is a ", "Makefile"));
        assert!(!a_kind_of_file("The server ships with a default ", "config.toml"));
    }
}
