//! A bare file name the repository's own code handles by name: the user's file, not the repo's.
//!
//! A tool's docs name the files it reads or writes in its user's project (`btw.md` a client
//! loads, the `.npmrc` a bot rewrites, the `yarn.lock` it updates). The repository may once have
//! had a copy of its own, since deleted or renamed (GitVersion's own `GitVersion.yml` became
//! `.gitversion.yml`, while its code still looks for `GitVersion.yml` in its users' projects):
//! history then calls the name "deleted" or "moved", yet the memory never meant that copy. When
//! a path written as a bare name is gone or moved and a source file (of a
//! programming language: not prose, not another agent's notes, not data) has it as a whole
//! string (`"btw.md"`, `'.npmrc'`: a file name the code joins to a folder of its user's, not a
//! path or a pattern of the repository's own, `'!**/yarn.lock'`), the name is one the program
//! works with: **not checked**, with the line that names it. The repository's own tooling (a
//! build or CI script under `build/`, `scripts/`, `.github/`, ...) names its own files, so it
//! does not count. A copy moved under its own name (`README.md` → `zerocopy/README.md`) is the
//! repo's own file still, whatever its code reads: the move stands.

use super::located::Located;
use super::Checker;

impl Checker<'_> {
    /// A bare file's name (`btw.md`, `.npmrc`; not a folder's: code names folders for many
    /// reasons) that history calls gone or moved, when the repo's code handles it by name:
    /// not checked, saying where the code names it.
    pub(super) fn users_file(&self, written: &str, found: &Located) -> Option<Located> {
        // Gone, or moved: the repo's own copy renamed (`GitVersion.yml` → `.gitversion.yml`)
        // while its code still reads the name from its users' projects.
        let (evidence, moved) = match found {
            Located::Gone { evidence, .. } => (evidence, false),
            Located::Moved { evidence, to, .. } => {
                // Moved under its own name (zerocopy's `README.md` and `cargo.sh`, moved into
                // `zerocopy/` with the crate): the name the code handles is still the repo's own
                // file's, so nothing tells a user's file from the copy that moved.
                if crate::index::basename(to.trim_end_matches('/')) == written {
                    return None;
                }
                (evidence, true)
            }
            _ => return None,
        };
        if written.contains('/') || !written.contains('.') {
            return None;
        }
        let (path, line) = self.named_as_a_file_by_code(written)?;
        // A rename git recorded is strong evidence for the repo's own copy: only the program's
        // own code outweighs it (leakcanary's `build.gradle`, renamed `build.gradle.kts`, is
        // named as a string only by a Gradle plugin's test fixture).
        if moved && secondary(&path) {
            return None;
        }
        Some(Located::NotInRepo(format!(
            "{written} is a file the repo's code handles by name ({path}:{line}): one of its user's, which the history of the repo's own copy ({evidence}) says nothing of; not checked"
        )))
    }

    /// The first code file (by path) whose text names `name` as a file in a string, and the line.
    pub(super) fn named_as_a_file_by_code(&self, name: &str) -> Option<(String, u32)> {
        let token = name
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .max_by_key(|part| part.len())
            .filter(|part| part.len() >= 2)?;
        let mut files: Vec<&str> =
            self.index.files_with_token(token).map(|f| f.path.as_str()).filter(|p| is_code(p) && !tooling(p)).collect();
        // The program's own code first: a test or a docs script naming it says less.
        files.sort_unstable_by_key(|p| (secondary(p), *p));
        files.into_iter().find_map(|path| {
            let text = self.index.read_text(path)?;
            text.lines().position(|l| names_file_in_string(l, name)).map(|i| (path.to_owned(), i as u32 + 1))
        })
    }
}

/// Whether `path` is a source file of a programming language (`memval_git::CODE_EXTENSIONS`,
/// any letter case: R's `.R`): not prose, not an agent's notes (`.mdc`), not data.
pub(super) fn is_code(path: &str) -> bool {
    let ext = path.rsplit('/').next().unwrap_or(path).rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    ext.is_some_and(|e| memval_git::CODE_EXTENSIONS.contains(&e.as_str()))
}

/// Whether `path` is a test's or a docs or examples script's (`src/App.Tests/AppTest.cs`,
/// `doc/gen.py`), cited only when no other code names the file.
fn secondary(path: &str) -> bool {
    crate::usage::is_test_path(path)
        || path.to_ascii_lowercase().rsplit('/').skip(1).any(|s| matches!(s, "doc" | "docs" | "example" | "examples"))
}

/// Folders of a repository's own tooling: a build or CI script names the repository's files
/// (`build/Targets.fs` passing `docs-builder.sln` to a tool), not its users'.
const TOOLING: &[&str] = &["build", "scripts", "script", "tools", "ci", ".github", "eng", "tasks", "hack"];

/// Whether `path` lies under a [`TOOLING`] folder or is a build script itself (`build.rs`,
/// `build.gradle`, `Rakefile.rb`).
fn tooling(path: &str) -> bool {
    let mut segments = path.split('/').rev();
    let file = segments.next().unwrap_or(path);
    file.starts_with("build.") || segments.any(|s| TOOLING.contains(&s))
}

/// Whether `line` has `name` as a whole string, the file name alone (`"btw.md"`, joined to
/// a folder of the user's by the code around it): not a path or a pattern of the repo's own
/// (`'src/btw.md'`, `'!**/yarn.lock'`).
fn names_file_in_string(line: &str, name: &str) -> bool {
    const QUOTES: [char; 3] = ['"', '\'', '`'];
    line.match_indices(name).any(|(at, _)| {
        let before = line[..at].chars().next_back();
        before.is_some_and(|c| QUOTES.contains(&c)) && line[at + name.len()..].chars().next() == before
    })
}

#[cfg(test)]
mod tests {
    use super::{is_code, names_file_in_string, tooling};

    #[test]
    fn tooling_names_the_repositorys_own_files() {
        assert!(tooling("build/Targets.fs"));
        assert!(tooling("scripts/release.py"));
        assert!(tooling("build.rs"));
        assert!(!tooling("R/btw-config.R"));
        assert!(!tooling("lib/modules/manager/npm/npmrc.ts"));
    }

    #[test]
    fn only_source_files_handle_files() {
        assert!(is_code("R/btw-config.R"));
        assert!(is_code("src/npm/npmrc.ts"));
        assert!(!is_code(".cursor/rules/testing-guide.mdc"), "another note names it");
        assert!(!is_code("docs/guide.md"));
        assert!(!is_code("package.json"));
    }

    #[test]
    fn a_file_named_in_a_string() {
        assert!(names_file_in_string(r#"  path <- file.path(dir, "btw.md")"#, "btw.md"));
        assert!(names_file_in_string("const rc = join(home, '.npmrc');", ".npmrc"));
        assert!(!names_file_in_string("  '!**/yarn.lock',", "yarn.lock"), "a pattern of the repo's files");
        assert!(!names_file_in_string(r#"read("docs/btw.md")"#, "btw.md"), "a path of the repo");
        assert!(!names_file_in_string("// see btw.md for details", "btw.md"), "a comment, no string");
        assert!(!names_file_in_string(r#"load("btw.md.bak")"#, "btw.md"), "another file");
        assert!(!names_file_in_string(r#"load("mybtw.md")"#, "btw.md"), "another name");
    }
}
