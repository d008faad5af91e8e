//! Without history, a word of the project renamed throughout the tree: `winsdk` became `winapp`
//! in every folder and file name that held it (`src/winsdk-CLI/Winsdk.Cli/winsdk.sln` →
//! `src/winapp-CLI/WinApp.Cli/winapp.sln`, `winsdk.example.yaml` → `winapp.example.yaml`).
//!
//! A path the tree does not have, read with one of its words (three letters at least, not a
//! number) replaced by another wherever it occurs, letter case aside, is a path of the tree.
//! The new word is one word (letters and digits) that neither holds the old one nor is held by
//! it: `client` → `node_client` is a name grown by an affix, which other readings weigh.
//! One such match proves little (`login.ts` beside `logout.ts`), so the same replacement must
//! also find another of the memory's paths that the tree does not have as written, and hold at
//! two places of one path at least (`src/winsdk-CLI/winsdk.sln`): a product renamed shows in
//! every place the memory named it, where two features that merely sit in the same places
//! (`migrations/` and `test_migrations.py` gone beside `config/` and `test_config.py`) do not. Of several replacements, the one most of
//! the memory's other paths agree with, when no other agrees as often; the successor is a
//! guess (50) saying "no history". A place the memory names as it is, it knew as something
//! else, so it is no successor.

use super::common::list;
use super::located::Located;
use super::respelled::name_words;
use super::Checker;

/// A successor found by a word replaced, with the word, its replacement and the memory's other
/// missing paths the same replacement finds.
struct Replaced {
    to: String,
    old: String,
    new: String,
    agreeing: Vec<String>,
}

impl Checker<'_> {
    /// The path of the tree that is `path` with one word replaced throughout, the same
    /// replacement finding another of the memory's missing paths.
    pub(super) fn word_replaced(&self, path: &str) -> Option<Located> {
        let path = path.trim_end_matches('/');
        if !path.is_ascii() {
            return None;
        }
        let lower = path.to_ascii_lowercase();
        let others: Vec<String> =
            self.context.missing(self.index, path).filter(|p| p.is_ascii()).map(str::to_ascii_lowercase).collect();
        if others.is_empty() {
            return None;
        }
        let tree = self.index.tree_words();
        let mut words: Vec<String> = path
            .split('/')
            .flat_map(name_words)
            .filter(|w| w.len() >= 3 && !w.bytes().all(|b| b.is_ascii_digit()))
            .collect();
        words.sort();
        words.dedup();
        let mut found: Vec<Replaced> = Vec::new();
        for old in &words {
            let with: Vec<&String> = others.iter().filter(|o| o.contains(old.as_str())).collect();
            if with.is_empty() {
                continue;
            }
            let chunks: Vec<&str> = lower.split(old.as_str()).collect();
            for (lq, q) in tree.lower_starting(chunks[0]) {
                // Another word, not the old one grown or cut (`client` → `node_client` is an
                // affix, read by other rules).
                let Some(new) =
                    replaced_by(&chunks, lq).filter(|new| !new.contains(old.as_str()) && !old.contains(new))
                else {
                    continue;
                };
                let agreeing: Vec<String> = with
                    .iter()
                    .filter_map(|o| tree.path_in_any_case(&o.replace(old.as_str(), new)))
                    .map(str::to_owned)
                    .collect();
                // A word renamed throughout shows in some path at two places at least (the
                // folder and its project file, `winsdk-CLI/winsdk.sln`); two siblings that
                // merely share a name's place (`migrations/` → `config/`,
                // `test_migrations.py` → `test_config.py`) do not.
                let twice = chunks.len() > 2
                    || with
                        .iter()
                        .any(|o| o.matches(old.as_str()).count() >= 2 && agreeing_has(&agreeing, o, old, new));
                if twice && !agreeing.is_empty() && !self.context.knew(self.index, q, path) {
                    found.push(Replaced { to: q.clone(), old: old.clone(), new: new.to_owned(), agreeing });
                }
            }
        }
        found.sort_by_key(|f| std::cmp::Reverse(f.agreeing.len()));
        let [best, rest @ ..] = found.as_slice() else { return None };
        if rest.first().is_some_and(|r| r.agreeing.len() == best.agreeing.len()) {
            return None;
        }
        let Replaced { to, old, new, agreeing } = best;
        Some(Located::Moved {
            to: to.clone(),
            dir: self.index.is_dir(to),
            confidence: 50,
            evidence: format!(
                "no history; {to} is the path with \"{old}\" read as \"{new}\", as {} other path{} the memory names and the tree lacks {} found that way ({}): a word renamed throughout (unconfirmed)",
                agreeing.len(),
                if agreeing.len() == 1 { "" } else { "s" },
                if agreeing.len() == 1 { "is" } else { "are" },
                list(agreeing)
            ),
            since: None,
        })
    }
}

/// Whether `agreeing` (paths of the tree) holds `other` (a lower-case missing path) with `old`
/// read as `new`.
fn agreeing_has(agreeing: &[String], other: &str, old: &str, new: &str) -> bool {
    let replaced = other.replace(old, new);
    agreeing.iter().any(|a| a.to_ascii_lowercase() == replaced)
}

/// The word that fills every gap between `chunks` (a lower-case path split at each occurrence
/// of a word) to make `candidate`, when one word (letters and digits) does.
fn replaced_by<'a>(chunks: &[&str], candidate: &'a str) -> Option<&'a str> {
    let gaps = chunks.len().checked_sub(1).filter(|&g| g > 0)?;
    let fixed: usize = chunks.iter().map(|c| c.len()).sum();
    let spare = candidate.len().checked_sub(fixed).filter(|&s| s > 0 && s % gaps == 0)?;
    let width = spare / gaps;
    let start = chunks[0].len();
    let word = candidate.get(start..start + width)?;
    if !word.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    let mut rebuilt = String::with_capacity(candidate.len());
    for (i, chunk) in chunks.iter().enumerate() {
        if i > 0 {
            rebuilt.push_str(word);
        }
        rebuilt.push_str(chunk);
    }
    (rebuilt == candidate).then_some(word)
}

#[cfg(test)]
mod tests {
    use super::replaced_by;

    #[test]
    fn one_word_fills_every_gap_or_none_does() {
        let split = |p: &'static str, w: &str| p.split(w).map(str::to_owned).collect::<Vec<_>>();
        let cases = [
            ("src/winsdk-cli/winsdk.cli/winsdk.sln", "winsdk", "src/winapp-cli/winapp.cli/winapp.sln", Some("winapp")),
            ("winsdk.example.yaml", "winsdk", "winapp.example.yaml", Some("winapp")),
            ("src/winsdk-cli/winsdk.sln", "winsdk", "src/winapp-cli/winsdk.sln", None),
            // The path itself is filled by its own word; the caller drops that one.
            ("src/auth/login.ts", "auth", "src/auth/login.ts", Some("auth")),
            ("src/auth/login.ts", "auth", "src/a/b/login.ts", None),
            ("docs/api.md", "api", "docs/api-v2.md", None),
            ("src/client.rs", "client", "src/node_client.rs", None),
        ];
        for (path, word, candidate, want) in cases {
            let chunks = split(path, word);
            let chunks: Vec<&str> = chunks.iter().map(String::as_str).collect();
            assert_eq!(replaced_by(&chunks, candidate), want, "{path} with {word} -> {candidate}");
        }
    }
}
