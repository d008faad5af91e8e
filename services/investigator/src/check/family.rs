//! A name that stands for a family of the code's names, not for one definition.
//!
//! Docs shorten: "each `ObjectRenderer` handles one kind of node" about `HtmlObjectRenderer`,
//! `IMarkdownObjectRenderer` and their kin, none of which is called `ObjectRenderer` itself. A
//! name of two or more words, starting with a capital, that no code of the repository defines or
//! ever defined, while at least [`MIN_MEMBERS`] names the code defines end with it at a word
//! boundary, is read as that family's name: **not checked**, with some of them, rather than
//! CONTRADICTED as an invention or a misspelling.

use super::common::list;
use super::respelled::name_words;
use super::Checker;

/// The fewest defined names that must end with the memory's name.
const MIN_MEMBERS: usize = 2;

impl Checker<'_> {
    /// Up to a few of the defined names that `name` is the shared last words of, sorted, when
    /// there are at least [`MIN_MEMBERS`]; `None` otherwise.
    pub(super) fn family_of(&self, name: &str) -> Option<String> {
        if !name.starts_with(|c: char| c.is_ascii_uppercase()) || name_words(name).len() < 2 {
            return None;
        }
        let mut members: Vec<&str> = self
            .index
            .tokens()
            .filter(|t| t.len() > name.len() && t.ends_with(name))
            .filter(|t| t[..t.len() - name.len()].ends_with(|c: char| c.is_ascii_alphanumeric()))
            .filter(|t| self.index.defs_named(t).next().is_some())
            .collect();
        if members.len() < MIN_MEMBERS {
            return None;
        }
        members.sort_unstable();
        Some(list(&members.iter().map(|m| m.to_string()).collect::<Vec<_>>()))
    }
}

#[cfg(test)]
mod tests {
    use crate::check::{Checker, MemoryContext};
    use crate::index::RepoIndex;

    fn index(files: &[(&str, &str)]) -> (tempfile::TempDir, RepoIndex) {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            std::fs::write(dir.path().join(path), text).unwrap();
        }
        let index = RepoIndex::build(dir.path()).unwrap();
        (dir, index)
    }

    #[test]
    fn the_shared_last_words_of_defined_names_are_a_family() {
        let (_dir, index) = index(&[
            ("a.cs", "public class HtmlObjectRenderer {}\npublic interface IMarkdownObjectRenderer {}\n"),
            ("b.cs", "public class Renderers { public int ObjectRenderers; }\npublic class SingleThing {}\n"),
        ]);
        let context = MemoryContext::default();
        let checker = Checker { index: &index, git: None, context: &context };
        let family = checker.family_of("ObjectRenderer").expect("two defined names end with it");
        assert!(family.contains("HtmlObjectRenderer") && family.contains("IMarkdownObjectRenderer"), "{family}");
        assert_eq!(checker.family_of("Thing"), None, "one word says too little");
        assert_eq!(checker.family_of("SingleThing"), None, "only itself");
        assert_eq!(checker.family_of("objectRenderer"), None, "not a type's name");
    }
}
