//! Lines of a Mermaid diagram (a ```` ```mermaid ```` fence): the paths its boxes name.
//!
//! An architecture diagram labels its boxes with the modules they stand for
//! (`Sync[beacon/sync<br/>Block Sync]`, `Infra[infrastructure/<br/>async, events]`). The
//! line's HTML (`<br/>`) and the diagram's own syntax (node ids, brackets, quotes, arrows,
//! `style` lines) are no paths; the words inside the labels are read as a code span's are, but
//! stricter, since labels are also free text: a path is taken when every segment is plain
//! lower case (`ethereum/spec`, `storage/api`, `infrastructure/`) or it names a file with a
//! known extension and every segment has a lower-case letter (`src/Node.java`). Words joined by
//! slashes in other case (`RocksDB/LevelDB`, `COMBINED/VC_ONLY`, `Geth/Nethermind/Besu`) are
//! alternatives, not paths.

use std::sync::LazyLock;

use regex::Regex;

use crate::mentions::{clean_text, FileMention};
use crate::paths::{self, Strength};

use super::doc::Sentence;
use super::walker::Walker;

/// An HTML tag in a label (`<br/>`, `<b>`).
static TAG: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"</?[A-Za-z][^<>]*>").expect("valid regex"));

/// What in a diagram line separates words: its brackets, quotes, edge bars and commas.
fn separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, '[' | ']' | '(' | ')' | '{' | '}' | '"' | '|' | ',' | ';')
}

/// Whether `word` of a diagram label reads as a path.
fn diagram_path(word: &str) -> Option<paths::PathToken> {
    let segments: Vec<&str> = word.trim_end_matches('/').split('/').collect();
    if word.starts_with(['-', '.', ':']) || segments.iter().any(|s| s.is_empty()) {
        return None;
    }
    let lower = |s: &str| s.bytes().any(|c| c.is_ascii_lowercase());
    if (segments.len() >= 2 || word.ends_with('/')) && segments.iter().all(|s| paths::plain_segment(s)) {
        return paths::parse(word);
    }
    paths::classify(word, Strength::Prose).filter(|_| segments.iter().all(|s| lower(s)))
}

impl Walker {
    /// The paths a Mermaid diagram line's labels name.
    pub(super) fn diagram_line(&mut self, line: &str, line_no: u32) {
        let text = TAG.replace_all(line, " ");
        let t = text.trim_start();
        if t.starts_with("style ") || t.starts_with("classDef ") || t.starts_with("class ") || t.starts_with("%%") {
            return;
        }
        let folders = self.structure_folders();
        let mut files: Vec<FileMention> = Vec::new();
        let mut at = 0;
        for word in text.split(separator) {
            let start = at;
            at += word.len() + 1;
            let Some(tok) = diagram_path(word) else { continue };
            let readings = paths::readings(&tok, &folders);
            files.push(FileMention {
                raw: tok.path.clone(),
                tok,
                readings,
                start,
                end: start + word.len(),
                after: start + word.len(),
            });
            if files.len() >= self.budget {
                break;
            }
        }
        drop(folders);
        if files.is_empty() {
            return;
        }
        self.push(Sentence::of_files(line_no, clean_text(&text), self.paragraph, files));
    }
}

#[cfg(test)]
mod tests {
    use super::diagram_path;

    #[test]
    fn labels_that_are_paths() {
        for word in ["beacon/sync", "infrastructure/", "storage/api", "src/main/Node.java", "docs/guide.md"] {
            assert!(diagram_path(word).is_some(), "{word}");
        }
        for word in [
            "RocksDB/LevelDB",
            "COMBINED/VC_ONLY/BOOTNODE",
            "Geth/Nethermind/Besu",
            "-->",
            "Sync",
            "fill:#e1f5ff",
            "a/b",
            "BCS",
        ] {
            assert!(diagram_path(word).is_none(), "{word}");
        }
    }
}
