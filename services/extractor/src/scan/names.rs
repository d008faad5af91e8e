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

/// Ties each symbol to the nearest file of the sentence ([`bind`]). A bare word that names the
/// tool its file configures ("`eslint.config.mjs`: Modern ESLint flat config", "`.prettierrc`:
/// Prettier's options") is that tool, not a name defined in the file: no symbol. A page of
/// prose (`audit/areas/belt-js.md`, `notes.txt`) defines no name: a symbol near one is what the
/// page discusses ("`indexOf` diverges from JS (audit/areas/belt-js.md)"), so it is tied to
/// such a file only when written right next to it ("`Foo` in `docs/x.md`").
pub(super) fn tie_to_files(orig: &str, files: &[FileMention], syms: &mut Vec<SymbolMention>) {
    let plain: Vec<usize> =
        (0..files.len()).filter(|&i| !paths::folder_like(&files[i].tok) && !prose_page(&files[i].tok.path)).collect();
    let folders: Vec<usize> = (0..files.len()).filter(|&i| paths::folder_like(&files[i].tok)).collect();
    for s in syms.iter_mut() {
        bind(orig, files, &plain, &folders, s);
    }
    syms.retain(|s| {
        let bare = !orig.get(..s.start).is_some_and(|b| b.ends_with('`'));
        !(bare && s.file.is_some_and(|i| configured_tool(&files[i].tok.path).eq_ignore_ascii_case(&s.name)))
    });
}

/// A file of prose, which defines no names: Markdown, reStructuredText, AsciiDoc, plain text.
fn prose_page(path: &str) -> bool {
    path.rsplit_once('.').is_some_and(|(_, ext)| {
        matches!(ext.to_ascii_lowercase().as_str(), "md" | "mdx" | "markdown" | "rst" | "adoc" | "txt")
    })
}

/// The tool a config file is named after: its name's first part, without a leading dot or a
/// trailing `rc` (`eslint.config.mjs`, `.prettierrc`, `jest.config.ts`, `.babelrc.json`,
/// `Cargo.toml`). A file that is no config file (`src/error.rs`) names no tool.
fn configured_tool(path: &str) -> &str {
    let written = path.rsplit('/').next().unwrap_or(path);
    let name = written.trim_start_matches('.');
    let config = written.starts_with('.') || name.contains(".config.") || crate::paths::has_config_ext(written);
    if !config {
        return "";
    }
    let first = name.split('.').next().unwrap_or(name);
    first.strip_suffix("rc").filter(|t| t.len() >= 3).unwrap_or(first)
}

#[cfg(test)]
mod tests {
    use super::configured_tool;

    #[test]
    fn the_tool_a_config_file_is_named_after() {
        assert_eq!(configured_tool("eslint.config.mjs"), "eslint");
        assert_eq!(configured_tool("web/.prettierrc"), "prettier");
        assert_eq!(configured_tool(".babelrc.json"), "babel");
        assert_eq!(configured_tool("jest.config.ts"), "jest");
        assert_eq!(configured_tool("Cargo.toml"), "Cargo");
        // a file that configures nothing names no tool
        assert_eq!(configured_tool("Makefile"), "");
        assert_eq!(configured_tool("src/error.rs"), "");
    }
}
