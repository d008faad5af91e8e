//! What the token passes of a sentence (code spans, links, words) find before any path is
//! resolved: path tokens at their place in the line, `key = value` assignments, and the code
//! spans left over as candidate symbols, keys or line texts.
//!
//! A code span inside a link (`` [`a.rs`](a.rs) ``) is the same mention as the link.

use crate::config::Assignment;
use crate::mentions::Cand;
use crate::paths::PathToken;

#[derive(Default)]
pub(super) struct Found<'a> {
    /// Path tokens, with the byte range of the line each was written at.
    pub(super) raw: Vec<(PathToken, usize, usize)>,
    /// Code spans not taken as a path, a command or an assignment.
    pub(super) cands: Vec<Cand<'a>>,
    /// `key = value` code spans, settings or not depending on the rest of the sentence.
    pub(super) assignments: Vec<(Assignment, usize, usize)>,
    /// Where links written `./x` or `../x` are: read from the notes file's own folder.
    pub(super) own_relative: Vec<(usize, usize)>,
    /// Where links written `/x.md` are: read from the repository's root.
    pub(super) root_relative: Vec<(usize, usize)>,
    /// Where the other links are (`instructions/x.md`): a renderer reads them from the notes
    /// file's folder, whatever the folders in scope say.
    pub(super) linked: Vec<(usize, usize)>,
}

impl Found<'_> {
    /// Whether a path of the sentence is a config file: `edition = "2021"` is a setting next
    /// to `Cargo.toml`, `tokio = "1"` is not.
    pub(super) fn names_config_file(&self) -> bool {
        self.raw.iter().any(|r| r.0.has_config_ext())
    }

    /// A code span inside a link (`` [`a.rs`](a.rs) ``) is the same mention as the link: of
    /// paths found inside another, only the outer one is kept. Paths end up in line order.
    pub(super) fn drop_nested(&mut self) {
        self.raw.sort_by_key(|r| (r.1, std::cmp::Reverse(r.2)));
        let mut reach = 0;
        self.raw.retain(|r| {
            let keep = r.2 > reach;
            reach = reach.max(r.2);
            keep
        });
    }

    /// A repository's `owner/name` (`conda/infrastructure`) is no path of this one: a path of
    /// two segments that a code host's URL on the line names as its repository
    /// (`github.com/conda/infrastructure/...`), that the line calls a repository "on
    /// GitHub", or that a verb of git's takes ("Clone/fetch `rustfs/console`", "fork
    /// `org/tool`"), is dropped.
    pub(super) fn drop_repository_slugs(&mut self, line: &str) {
        let lower = line.to_lowercase();
        self.raw.retain(|(tok, start, end)| {
            let slug = tok.path.to_lowercase();
            if tok.line.is_some() || slug.split('/').count() != 2 {
                return true;
            }
            let hosted = ["github.com/", "gitlab.com/", "bitbucket.org/", "codeberg.org/"].iter().any(|host| {
                let named = format!("{host}{slug}");
                lower.match_indices(&named).any(|(at, _)| {
                    lower[at + named.len()..].chars().next().is_none_or(|c| matches!(c, '/' | ')' | '.' | '#' | ' '))
                })
            });
            let after = lower.get(*end..).unwrap_or("").trim_start_matches(['`', '*', '_', ')']).trim_start();
            let called_one = ["on github", "on gitlab", "repository", "repo "].iter().any(|w| after.starts_with(w));
            let before = lower.get(..*start).unwrap_or("").trim_end_matches(['`', '*', '_', '(', ' ']);
            let verb = before.rsplit(|c: char| c.is_whitespace()).next().unwrap_or("");
            let cloned = verb.split('/').any(|v| matches!(v, "clone" | "fetch" | "fork" | "clones" | "forks"));
            !(hosted || called_one || cloned)
        });
    }

    /// Past the memory's mention budget the text is hostile: stop doing work for it.
    pub(super) fn truncate(&mut self, budget: usize) {
        self.raw.truncate(budget);
        self.cands.truncate(budget);
    }
}
