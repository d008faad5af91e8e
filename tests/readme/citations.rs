//! Every file, folder and section README.md cites is in the repository.
//!
//! What counts as a repository path, so that paths on the user's machine (`/tmp/memval-demo`,
//! `~/.cache/memval`, `REPO/.memval/store`) and the example paths of users' repositories
//! (`src/app/main.py`, `contexts/memory/index.md`) are never taken for one: a word of the
//! README's prose (in a code span, a link or bare) or of one of its code blocks, with the
//! punctuation around it and a `#anchor` or `:line` after it removed, that
//! - is relative, contains no glob or placeholder (`* ? { } < > $ …`) and no `=`, and has as
//!   first segment an entry of the repository's top folder (not `target`, `.git` or
//!   `.memval`, which a build or a run leaves there) followed by a `/`; or
//! - is a document named in capitals (`SPEC.md`): memval's own documents sit in the top folder,
//!   so one named there must exist, unless it is an agent instruction file the README names as
//!   an input (`CLAUDE.md`, `AGENTS.md`, ...).
//!
//! The demo sample's block is left out: its paths are the demo repository's, and the sample
//! test compares it with the demo's output. The one exception is [`NOT_OURS`].
//!
//! A section is cited as a link (`[..](#anchor)`, `[..](FILE#anchor)`: a heading of that file
//! has that anchor), as `see "Title"` or `see FILE, 'Title'` (a heading begins with the title,
//! or a bold paragraph lead is it; `below`/`above` after it is checked too), or as `FILE §N`
//! (a heading of FILE is numbered N).

use std::collections::BTreeSet;
use std::path::Path;

use crate::markdown::{link_targets, Doc};
use crate::{readme, workspace};

/// Words the rule would take for repository paths that are examples of a user's, each with
/// why. Keep it short: rephrasing the README is the better fix.
const NOT_OURS: &[(&str, &str)] = &[("docs/1.x/", "an old version's docs folder in a user's repository")];

/// Agent instruction files the README names as memval's inputs, not as its documents.
const INPUT_NAMES: &[&str] = &["CLAUDE.md", "AGENTS.md", "GEMINI.md", "MEMORY.md", "SKILL.md", "CONVENTIONS.md"];

/// The entries of the repository's top folder, without what builds and runs leave there.
fn top_level(root: &Path) -> BTreeSet<String> {
    std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !matches!(n.as_str(), "target" | ".git" | ".memval"))
        .collect()
}

/// The word as a repository path, by the rule of the module doc, or `None`.
fn repo_path(word: &str, top: &BTreeSet<String>) -> Option<String> {
    let word = word.trim_matches(|c: char| "()[]\"',.;:!`".contains(c));
    let word = word.split('#').next().unwrap();
    let word = match word.rsplit_once(':') {
        Some((path, line)) if line.chars().all(|c| c.is_ascii_digit()) => path,
        _ => word,
    };
    if word.is_empty() || word.contains(|c: char| "*?{}<>$…=|".contains(c)) {
        return None;
    }
    if NOT_OURS.iter().any(|(w, _)| *w == word) {
        return None;
    }
    let first = word.split('/').next().unwrap();
    if top.contains(first) && word.contains('/') {
        return Some(word.to_owned());
    }
    let capitals = word.strip_suffix(".md").is_some_and(|stem| {
        stem.starts_with(|c: char| c.is_ascii_uppercase())
            && stem.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_' || c == '-')
    });
    (capitals && !word.contains('/') && !INPUT_NAMES.contains(&word)).then(|| word.to_owned())
}

/// Every word of the README's prose and code blocks (the sample's excepted) that may be a
/// path, with the 0-based line it is on (for prose, its paragraph's first line). A bare word of prose (outside
/// a code span, link targets included) may be one only when it names a file (a `.` in its
/// last segment) or ends in `/`: `embed/both` is two words, not the `embed` folder.
fn words(doc: &Doc) -> Vec<(usize, String)> {
    let mut out = vec![];
    for (para, line) in doc.paragraphs.iter().zip(&doc.paragraph_lines) {
        for (i, part) in para.split('`').enumerate() {
            let part = part.replace("](", " ");
            let code = i % 2 == 1;
            let named = |w: &&str| {
                let w = w.trim_end_matches(|c: char| ")],.;:".contains(c));
                code || w.ends_with('/') || w.rsplit('/').next().is_some_and(|last| last.contains('.'))
            };
            out.extend(part.split_whitespace().filter(named).map(|w| (*line, w.to_owned())));
        }
    }
    for block in doc.blocks.iter().filter(|b| !crate::sample::is_sample(b)) {
        for (i, text) in block.lines.iter().enumerate() {
            out.extend(text.split_whitespace().map(|w| (block.fence_line + 1 + i, w.to_owned())));
        }
    }
    out
}

/// The README's repository paths, by the rule of the module doc, with their 1-based lines.
pub fn cited_paths(text: &str) -> Vec<(usize, String)> {
    let top = top_level(&workspace());
    words(&Doc::parse(text)).into_iter().filter_map(|(line, w)| Some((line + 1, repo_path(&w, &top)?))).collect()
}

#[test]
fn every_path_the_readme_cites_exists() {
    let root = workspace();
    let cited = cited_paths(&readme());
    assert!(cited.len() > 20, "the rule finds too few paths; is README.md read? {cited:?}");
    let missing: Vec<String> = cited
        .iter()
        .filter(|(_, p)| !root.join(p).exists())
        .map(|(line, p)| format!("README.md:{line}: `{p}` is not in the repository"))
        .collect();
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// A section reference of the README that does not hold, or `None`.
type Problem = Option<String>;

/// `[..](#anchor)` and `[..](FILE#anchor)`.
fn check_link(target: &str, doc: &Doc) -> Problem {
    let (file, anchor) = target.split_once('#')?;
    if file.contains("://") {
        return None;
    }
    let found = if file.is_empty() {
        doc.has_anchor(anchor)
    } else {
        std::fs::read_to_string(workspace().join(file)).is_ok_and(|t| Doc::parse(&t).has_anchor(anchor))
    };
    (!found).then(|| format!("link `{target}`: no heading with that anchor"))
}

/// The text between the quote that opens `rest` and the same quote closing it.
fn quoted(rest: &str) -> Option<(&str, &str)> {
    let open = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    rest[1..].split_once(open)
}

/// `see "Title"`, `see "Title" below`, `see FILE, 'Title'`.
fn check_see(after: &str, line: usize, doc: &Doc) -> Problem {
    if let Some((title, tail)) = quoted(after) {
        let Some(at) = doc.section(title) else { return Some(format!("see \"{title}\": no such section")) };
        let tail = tail.trim_start();
        let wrong = tail.starts_with("below") && at < line || tail.starts_with("above") && at > line;
        return wrong.then(|| format!("see \"{title}\" {}: it is on line {}", &tail[..5], at + 1));
    }
    let (word, rest) = after.split_once(' ')?;
    let file = word.strip_suffix(',')?.trim_matches('`');
    let (title, _) = quoted(rest).filter(|_| file.ends_with(".md"))?;
    match std::fs::read_to_string(workspace().join(file)) {
        Ok(text) if Doc::parse(&text).section(title).is_some() => None,
        Ok(_) => Some(format!("see {file}, \"{title}\": no such section in {file}")),
        Err(_) => Some(format!("see {file}, \"{title}\": no such file")),
    }
}

/// `FILE §N`: a heading of FILE is numbered N (`§3. Verdicts and scores`, `4. Accuracy on
/// real history`).
fn check_numbered(before: &str, after: &str) -> Problem {
    let number: String = after.chars().take_while(char::is_ascii_digit).collect();
    let word = before.trim_end().rsplit(char::is_whitespace).next().unwrap_or("");
    let file = word.trim_matches(|c: char| "(`".contains(c));
    if !file.ends_with(".md") {
        return Some(format!("§{number} after `{word}`, not after a document"));
    }
    let Ok(text) = std::fs::read_to_string(workspace().join(file)) else {
        return Some(format!("{file} §{number}: no such file"));
    };
    let numbered = |h: &String| [format!("§{number}. "), format!("{number}. ")].iter().any(|p| h.starts_with(p));
    let found = Doc::parse(&text).headings.iter().any(|(_, h)| numbered(h));
    (!found).then(|| format!("{file} §{number}: no heading numbered {number}"))
}

/// The problems of one paragraph or code line starting on 0-based `line`.
fn section_problems(text: &str, line: usize, doc: &Doc) -> Vec<String> {
    let mut out: Vec<Problem> = link_targets(text).into_iter().map(|t| check_link(t, doc)).collect();
    for (at, _) in text.match_indices("see ").chain(text.match_indices("See ")) {
        out.push(check_see(&text[at + 4..], line, doc));
    }
    for (at, _) in text.match_indices('§') {
        out.push(check_numbered(&text[..at], &text[at + '§'.len_utf8()..]));
    }
    out.into_iter().flatten().map(|p| format!("README.md:{}: {p}", line + 1)).collect()
}

#[test]
fn every_section_the_readme_cites_exists() {
    let doc = Doc::parse(&readme());
    let mut problems = vec![];
    for (para, line) in doc.paragraphs.iter().zip(&doc.paragraph_lines) {
        problems.extend(section_problems(para, *line, &doc));
    }
    for block in &doc.blocks {
        for (i, text) in block.lines.iter().enumerate() {
            problems.extend(section_problems(text, block.fence_line + 1 + i, &doc));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
