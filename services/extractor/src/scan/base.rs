//! A folder the memory declares its paths relative to.
//!
//! A notes file at a monorepo's root may say once where its short paths live: "app paths such
//! as `src/...` and `drizzle/` are relative to `apps/desktop/`", "all paths below are relative
//! to the `backend/` directory". A path it names later (`drizzle/meta/`) is then the declared
//! folder's, though written from nowhere in particular. Such a folder is read for every path
//! of the memory after the path as written (a weak hint: the same memory may still name root
//! files by their root paths), before the walk, so the declaration holds for the whole file.
//!
//! Only a sentence that speaks of paths (`path`, `paths`) and then says "relative to" a code
//! span naming one folder declares one; "relative to the repo root" names none.

use crate::markdown;
use crate::paths::{self, Strength};

/// The folders the memory declares its paths relative to, in the order it names them.
pub(super) fn declared_bases(content: &str) -> Vec<String> {
    let mut bases = Vec::new();
    for paragraph in paragraphs(content) {
        let spans = markdown::code_spans(&paragraph);
        for range in markdown::sentences(&paragraph, &spans) {
            if let Some(base) = declared_in(&paragraph[range]) {
                if !bases.contains(&base) {
                    bases.push(base);
                }
            }
        }
    }
    bases
}

/// The folder one sentence declares its paths relative to (`... paths ... are relative to
/// `apps/x/``), if it declares one.
fn declared_in(sentence: &str) -> Option<String> {
    let lower = sentence.to_ascii_lowercase();
    let at = lower.find("relative to ")?;
    let speaks_of_paths = lower[..at].split(|c: char| !c.is_ascii_alphanumeric()).any(|w| w == "path" || w == "paths");
    if !speaks_of_paths {
        return None;
    }
    let after = &sentence[at + "relative to ".len()..];
    // `relative to `apps/x/``, `relative to the `backend/` directory`: the span comes first,
    // at most after an article.
    let span = markdown::code_spans(after).into_iter().next()?;
    let lead = after[..span.start].trim();
    if !(lead.is_empty() || matches!(lead.to_ascii_lowercase().as_str(), "the" | "its")) {
        return None;
    }
    let inner = after[span.inner].trim();
    let folder = inner.trim_start_matches("./").trim_end_matches('/');
    if folder.is_empty() || folder.contains(char::is_whitespace) || folder.starts_with(['/', '~', '.', '$', '<']) {
        return None;
    }
    let tok = paths::classify(&format!("{folder}/"), Strength::Backtick)?;
    (!tok.unresolvable()).then(|| folder.to_owned())
}

/// The memory's paragraphs outside code blocks, each one string (a sentence may wrap).
fn paragraphs(content: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut fence = false;
    for line in content.split('\n') {
        let t = line.trim();
        if t.starts_with("```") || t.starts_with("~~~") {
            fence = !fence;
            out.push(std::mem::take(&mut current));
            continue;
        }
        if fence {
            continue;
        }
        if t.is_empty() || t.starts_with('#') {
            out.push(std::mem::take(&mut current));
            continue;
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(t);
    }
    out.push(current);
    out.retain(|p| !p.is_empty());
    out
}

#[cfg(test)]
mod tests {
    use super::declared_bases;

    #[test]
    fn a_sentence_about_paths_declares_the_folder_they_are_relative_to() {
        let notes = "# Overview\n\nThe app lives in `apps/desk/`. Unless a path is prefixed with `packages/`, app paths\nsuch as `src/...` and `drizzle/` are relative to\n`apps/desk/`.\n\n- `drizzle/` - migrations\n";
        assert_eq!(declared_bases(notes), vec!["apps/desk".to_owned()]);
        assert_eq!(
            declared_bases("All paths below are relative to the `backend/` directory."),
            vec!["backend".to_owned()]
        );
        assert_eq!(declared_bases("File paths are relative to `./web`; run commands there."), vec!["web".to_owned()]);
    }

    #[test]
    fn other_sentences_declare_none() {
        // the root, a sentence not about paths, a span that is not the folder right after
        assert!(declared_bases("All paths are relative to the repository root.").is_empty());
        assert!(declared_bases("Imports are relative to `src/`.").is_empty());
        assert!(declared_bases("Paths are relative to where you run `make` from, see `docs/`.").is_empty());
        assert!(declared_bases("Paths are relative to `$HOME/.config`.").is_empty());
        // inside a code block
        assert!(declared_bases("```\n# paths are relative to `src/`\n```\n").is_empty());
    }
}
