//! Without history, more readings of a path that is gone: the same path in other letter case,
//! a file renamed to another style of the same words, a page that became a folder, a folder
//! renamed by a word added to its name, and a first folder whose contents moved up to the root.
//!
//! - **Letter case.** `tracer/README.MD` when the tree has `tracer/README.md` (each segment the
//!   unique one of its folder equal but for case): the same file, renamed in case (60).
//! - **The same words in another style.** `publishLocal.sh` when the tree's only file with the
//!   words `publish`, `local` and the extension `.sh` is `scripts/publish_local.sh` (two words
//!   at least; words split as below): renamed, and perhaps moved (50).
//! - **A page that became a folder.** `.claude/skills/review.md` gone where `.claude/skills/review/`
//!   stands beside it holding `SKILL.md`, `README.md` or `index.md`: that file (55), the way
//!   agent skills and docs sites turn a page into a folder with its assets.
//! - **A word added.** A folder gone from a folder that still stands, where exactly one sibling
//!   folder's name is its name with one word added in front or behind (`packages/rum` →
//!   `packages/browser-rum`, `desktop` → `desktopApp`; words split at `-`, `_`, `.` and a lower-
//!   to upper-case change): renamed to it (50). Two such siblings (`app` beside `androidApp` and
//!   `desktopApp`) say nothing. A sibling the memory names as it is, or one that lacks what the
//!   memory names inside the missing folder, is another folder.
//! - **Moved up to the root.** `ragas/tests` when `ragas/` is gone from the root and `tests` is
//!   there, and another path the memory names in `ragas/` is at the root too with the rest of its
//!   path (`ragas/pyproject.toml` → `pyproject.toml`): a sub-project became the repository (50).
//!   One path alone proves nothing (`tests` is in most repositories), and a root path the memory
//!   names as it is belongs to the memory's other reading.
//!
//! All of them only read the index; with history, git's renames answer instead.

use crate::names::basename;

use super::located::Located;
use super::Checker;

impl Checker<'_> {
    /// The one path of the tree equal to `path` but for letter case, segment by segment.
    pub(super) fn other_case(&self, path: &str) -> Option<Located> {
        let mut at = String::new();
        for segment in path.split('/').filter(|s| !s.is_empty()) {
            let exact = if at.is_empty() { segment.to_owned() } else { format!("{at}/{segment}") };
            // A folder's listing walks every file: only where the segment is not there as written.
            let name = if self.index.is_dir(&exact) || self.index.file(&exact).is_some() {
                segment.to_owned()
            } else {
                let children = self.index.children(&at);
                let folded: Vec<&String> =
                    children.iter().map(|(n, _)| n).filter(|n| n.eq_ignore_ascii_case(segment)).collect();
                match folded.as_slice() {
                    [one] => (*one).clone(),
                    _ => return None,
                }
            };
            at = if at.is_empty() { name } else { format!("{at}/{name}") };
        }
        if at == path || at.is_empty() {
            return None;
        }
        let dir = self.index.is_dir(&at);
        Some(Located::Moved {
            to: at.clone(),
            dir,
            confidence: 60,
            evidence: format!("no history; {at} is the same path in other letter case (unconfirmed)"),
            since: None,
        })
    }

    /// The one file of the tree whose name has the same words (two or more) and extension as
    /// the missing file's, in another style (`publishLocal.sh` → `scripts/publish_local.sh`).
    pub(super) fn same_words_restyled(&self, path: &str) -> Option<Located> {
        let name = basename(path);
        let (stem, ext) = name.rsplit_once('.')?;
        let words = name_words(stem);
        if words.len() < 2 || stem.is_empty() {
            return None;
        }
        let found: Vec<&str> = self
            .index
            .files()
            .map(|(_, f)| f.path.as_str())
            .filter(|p| {
                let other = basename(p);
                // Only separators differ between styles: a cheap length test first.
                other != name
                    && other.len().abs_diff(name.len()) < words.len()
                    && other.rsplit_once('.').is_some_and(|(s, e)| e == ext && name_words(s) == words)
            })
            .take(2)
            .collect();
        let [to] = found.as_slice() else {
            return None;
        };
        Some(Located::Moved {
            to: (*to).to_owned(),
            dir: false,
            confidence: 50,
            evidence: format!(
                "no history; {to} is the only file with the same words as {name}, in another style (unconfirmed)"
            ),
            since: None,
        })
    }

    /// A Markdown page gone where a folder of its stem beside it holds an entry page: that page.
    pub(super) fn page_became_folder(&self, path: &str) -> Option<Located> {
        let (stem, ext) = basename(path).rsplit_once('.')?;
        if !matches!(ext, "md" | "mdx" | "mdc") || stem.is_empty() {
            return None;
        }
        let folder = match path.rsplit_once('/') {
            Some((dir, _)) => format!("{dir}/{stem}"),
            None => stem.to_owned(),
        };
        let entry = ["SKILL.md", "README.md", "index.md", "index.mdx"]
            .iter()
            .map(|e| format!("{folder}/{e}"))
            .find(|p| self.index.file(p).is_some())?;
        Some(Located::Moved {
            to: entry.clone(),
            dir: false,
            confidence: 55,
            evidence: format!("no history; {folder}/ stands where {path} was, and {entry} is its page (unconfirmed)"),
            since: None,
        })
    }

    /// A folder's own page gone with its folder (`.kiro/skills/react/SKILL.md`, `guide/index.md`)
    /// where one page in the tree is named after that folder (`docs/agents/react.md`): the
    /// folder's page became a page of its own, the reverse of [`Self::page_became_folder`]. A
    /// README is not such a page: a deleted package's README says nothing of a doc named like it.
    pub(super) fn folder_became_page(&self, path: &str) -> Option<Located> {
        let (folder, entry) = path.rsplit_once('/')?;
        if !matches!(entry, "SKILL.md" | "index.md" | "index.mdx") || self.index.is_dir(folder) {
            return None;
        }
        let name = basename(folder);
        if name.is_empty() || name.starts_with('.') {
            return None;
        }
        let pages: Vec<String> = ["md", "mdx", "mdc"]
            .iter()
            .flat_map(|ext| self.index.files_named(&format!("{name}.{ext}")).iter())
            .map(|&i| self.index.file_at(i).path.clone())
            .collect();
        let [to] = pages.as_slice() else { return None };
        Some(Located::Moved {
            to: to.clone(),
            dir: false,
            confidence: 50,
            evidence: format!(
                "no history; {folder}/ is gone, and {to}, the one page named after it, is where its page went (unconfirmed)"
            ),
            since: None,
        })
    }

    /// The one sibling folder whose name is the missing folder's with one word added.
    pub(super) fn word_added(&self, path: &str) -> Option<Located> {
        let path = path.trim_end_matches('/');
        let name = basename(path);
        let parent = path.strip_suffix(name)?.trim_end_matches('/');
        if !parent.is_empty() && !self.index.is_dir(parent) {
            return None;
        }
        let old = name_words(name);
        if old.is_empty() {
            return None;
        }
        let siblings: Vec<String> = self
            .index
            .children(parent)
            .into_iter()
            .filter(|(child, dir)| *dir && one_word_added(&old, &name_words(child)))
            .map(|(child, _)| if parent.is_empty() { child } else { format!("{parent}/{child}") })
            .filter(|d| !self.context.knew(self.index, d, path))
            .filter(|d| self.holds_named_children(path, d).unwrap_or(true))
            .collect();
        let [to] = siblings.as_slice() else {
            return None;
        };
        Some(Located::Moved {
            to: to.clone(),
            dir: true,
            confidence: 50,
            evidence: format!(
                "no history; {to} is the only folder beside it named {name} with one word added (a rename; unconfirmed)"
            ),
            since: None,
        })
    }
}

impl Checker<'_> {
    /// `first/rest` gone with `first/` gone from the root, where `rest` and another path the
    /// memory names in `first/` are at the root with the rest of their path.
    pub(super) fn moved_up(&self, path: &str) -> Option<Located> {
        let (first, rest) = path.trim_end_matches('/').split_once('/')?;
        if rest.is_empty() || self.index.is_dir(first) || self.index.file(first).is_some() {
            return None;
        }
        let here = |p: &str| self.index.has(p);
        if !here(rest) || self.context.knew(self.index, rest, path) {
            return None;
        }
        let others: Vec<String> = self
            .context
            .inside(self.index, first)
            .into_iter()
            .filter(|p| p != path)
            .filter(|p| here(&p[first.len() + 1..]))
            .collect();
        if others.is_empty() {
            return None;
        }
        let dir = self.index.is_dir(rest);
        Some(Located::Moved {
            to: rest.to_owned(),
            dir,
            confidence: 50,
            evidence: format!(
                "no history; {first}/ is gone from the root, and {rest} is at the root as {} more of the paths the memory names in {first}/ are ({}): its contents moved up (unconfirmed)",
                others.len(),
                super::common::list(&others)
            ),
            since: None,
        })
    }
}

impl Checker<'_> {
    /// Without history, `path` (`extensions/storage`, a row of a tree drawn under
    /// `extensions/`) gone, while its shorter reading `reading` (`storage`) was found (`found`)
    /// under a folder whose name has the same words as the tree's gone root, plural or case
    /// aside (`submitqueue/extension/storage`): the tree's root was renamed and moved, and the
    /// row with it. That is a move, not `storage` written relative to some folder.
    pub(super) fn root_respelled(&self, path: &str, reading: &str, found: &Located) -> Option<Located> {
        if self.git.is_some() {
            return None;
        }
        let Located::Here { path: at, dir, .. } = found else { return None };
        let root = path.strip_suffix(reading)?.strip_suffix('/')?;
        let prefix = at.strip_suffix(reading)?.strip_suffix('/')?;
        if root.is_empty() || self.index.is_dir(root) {
            return None;
        }
        let (gone, there) = (basename(root), basename(prefix));
        if gone == there || crate::tree_words::words(gone) != crate::tree_words::words(there) {
            return None;
        }
        Some(Located::Moved {
            to: at.clone(),
            dir: *dir,
            confidence: 55,
            evidence: format!(
                "no history; {root}/ is gone, and {reading} is under {prefix}/, whose name has the same words as {gone} (renamed and moved with what it holds; unconfirmed)"
            ),
            since: None,
        })
    }
}

/// A file or folder name's words, lower-cased: split at `-`, `_`, `.`, spaces and where a lower
/// case letter or digit is followed by an upper case one (`desktopApp` → `desktop`, `app`).
pub(super) fn name_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if matches!(c, '-' | '_' | '.' | ' ') {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// Whether `a` and `b` are the same two or more words joined in two naming styles, one with
/// underscores and one without (`device_print` and `devicePrint`): a binding that spells
/// another language's API in its own style, not a misspelling of it.
pub(super) fn restyled(a: &str, b: &str) -> bool {
    let words = name_words(a);
    words.len() >= 2 && words == name_words(b) && a.contains('_') != b.contains('_')
}

/// Whether `env` is `name` as an environment variable spells it: the same words, one in
/// capitals with underscores (`PYTH_PRO_URL`), the other in lower case (`pyth_pro_url`, the
/// field a CLI or settings library reads from it).
pub(super) fn env_spelling(env: &str, name: &str) -> bool {
    let upper = |s: &str| s.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_');
    let lower = |s: &str| s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
    let (big, small) = if upper(env) { (env, name) } else { (name, env) };
    upper(big) && lower(small) && big.bytes().any(|b| b.is_ascii_uppercase()) && big.eq_ignore_ascii_case(small)
}

/// Whether `new` is `old` with exactly one word added before or after it.
fn one_word_added(old: &[String], new: &[String]) -> bool {
    new.len() == old.len() + 1 && (new[1..] == *old || new[..old.len()] == *old)
}

#[cfg(test)]
mod tests {
    use super::{name_words, one_word_added, restyled};

    #[test]
    fn the_same_words_in_another_naming_style() {
        assert!(restyled("device_print", "devicePrint"));
        assert!(restyled("DevicePrint", "device_print"));
        assert!(!restyled("OrderBy", "orderBy"), "only the case differs: a misspelling");
        assert!(!restyled("print", "Print"), "one word");
        assert!(!restyled("device_print", "device_prints"));
    }

    #[test]
    fn an_environment_variable_spells_its_setting() {
        use super::env_spelling;
        assert!(env_spelling("PYTH_PRO_URL", "pyth_pro_url"));
        assert!(env_spelling("port", "PORT"));
        assert!(!env_spelling("PYTH_PRO_URL", "pyth_pro_uri"));
        assert!(!env_spelling("OrderBy", "orderby"));
        assert!(!env_spelling("renderItems", "RenderItems"));
    }

    #[test]
    fn words_of_names() {
        assert_eq!(name_words("desktopApp"), ["desktop", "app"]);
        assert_eq!(name_words("browser-rum-core"), ["browser", "rum", "core"]);
        assert_eq!(name_words("HTTPServer_v2"), ["httpserver", "v2"]);
    }

    #[test]
    fn one_word_in_front_or_behind() {
        let w = |s: &str| name_words(s);
        assert!(one_word_added(&w("rum"), &w("browser-rum")));
        assert!(one_word_added(&w("rum-core"), &w("browser-rum-core")));
        assert!(one_word_added(&w("desktop"), &w("desktopApp")));
        assert!(!one_word_added(&w("core"), &w("browser-rum-core")));
        assert!(!one_word_added(&w("store-example"), &w("with-store")));
        assert!(!one_word_added(&w("rum"), &w("rum")));
        assert!(!one_word_added(&w("core"), &w("browser-core-x")));
    }
}
