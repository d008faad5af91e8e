//! A path git never had, in any commit: what still makes it a claim about this repository, and
//! what does not. Drift needs a past, so nothing here is reported as a deletion, and a file of
//! the same name elsewhere is not called the path "moved".
//!
//! [`Checker::locate`] comes here when no reading of the path is in the tree or in history, with
//! history that lists every path (a shallow clone, or a log that failed, may have lost the past:
//! it keeps the older reading, capped; a partial clone read again without rename detection still
//! lists every path, and comes here).
//!
//! **Nothing of its name anywhere** ([`Checker::never_existed`]). A claim about the repository
//! only when the folder the memory put it in says the memory meant one of that folder's own
//! entries:
//! - the same name in another case or with other separators (`program.cs` beside `Program.cs`),
//!   or a module path or a docs link without its extension (`core/data/log` beside
//!   `core/data/log.ts`, `../cli-commands` beside `cli-commands.md`): the file is there (VALID
//!   70, saying how it is spelled);
//! - a near miss of an entry: the same words in another order (`with-redis-and-test-db.sh` beside
//!   `with-test-redis-and-db.sh`) or, for names of five characters or more, one edit away (two
//!   from ten): a typo (CONTRADICTED 65, naming the entry);
//! - a source file among the folder's own files of its extension (`src/cache/lru_v2.go` where
//!   `src/cache/` holds Go files): an invented name (CONTRADICTED 65) in an agent's notes; not
//!   checked in a README or doc, which name other projects' files and what the reader will
//!   write (`scripts/deploy.sh`) as well as their own (on the session-13 precision sets such
//!   verdicts in docs were right 3 times in 19).
//!
//! A folder inside a folder of source files (not a folder of pages, `docs/` with a `conf.py`
//! among its `.rst` files) is an invented name (CONTRADICTED 65) in an agent's memory record;
//! in an instruction file kept in the repository (`CLAUDE.md`, a skill, a rule), which names
//! the folders it wants made and those of layouts it teaches (`tests/Browser` of a framework's
//! skill, `public/build`), it is not checked. On the labelled fresh sets 20 to 26, such
//! "invented" folders in notes files were real 5 times in 20, where invented source files were
//! real 12 times in 19.
//!
//! A file a code block of the memory is written for (a comment alone on a line of the block
//! names it: `// 1. src/main/ipc/feature.ts` over a recipe's code, `Assertion::SnippetFile`) is
//! the file the block has its reader make: not checked, whatever its folder holds, unless the
//! folder has it under another spelling. On fresh36 such recipe files were three of the four
//! false "invented" names in notes.
//!
//! A bare `Name.js` or `Name.jl` git never had that a `package.json` or `Project.toml` of the
//! repository depends on (`Leaflet.js`, `leaflet`; `Optimization.jl`, `Optimization`) is the
//! library's name, not checked (`library.rs`).
//!
//! A name git never had whose words mark an example (`ExampleTest.php`, `example2.md`,
//! `sample_config.yml`, `FooTests.swift`, `acme.rb`, `file2.rb`, `FileName.swift`) is one,
//! whatever its folder holds; so is a file its users make from a template the repository has
//! (`lv_conf.h` from `lv_conf_template.h`, `.env` from `.env.example`).
//!
//! Anything else (an example's `docs/example.py`, a skill's `install.sh` beside its `SKILL.md`,
//! the user's `.claude/settings.local.json`, another project's `Transformers.js`, `<br/>` read as
//! `br/`) is **not checked**, with the reason.
//!
//! **Its name elsewhere** ([`Checker::name_elsewhere`]). Files or folders of its name (or of its
//! stem with another extension) are in other places; the path never was:
//! - under the memory's own package (the notes file's folder, above any `.cursor/`, `.junie/`,
//!   `.github/` it sits in), one that ends with the path as written: the memory wrote it relative
//!   to a folder of its package (`auth/oauth_client.rs` in `examples/clients/README.md` is
//!   `examples/clients/src/auth/oauth_client.rs`): VALID 70; several: `Located::Unclear`, which
//!   the file check takes as VALID when each ends with what was written;
//! - its source or compiled twin in the same folder (`client.js` beside `client.ts`): VALID 60;
//! - under the first folder the memory wrote, which exists, with every folder it wrote kept in
//!   order and more between (`agents/TESTING.md` found only at `agents/agents-test/TESTING.md`,
//!   `gui/pages/x` at `gui/src/pages/x`): the place is right and the file is deeper, STALE 60
//!   (not a path written climbing from the memory's folder, `../common/`: the folders before
//!   its name came from where the memory is kept, so it names none of its own);
//!   found deeper under a folder a build copies into its distribution (a Maven assembly's
//!   `src/assembly/static/`, Gradle's `src/dist/`: `hugegraph-store/conf/application.yml` whose
//!   source is `hugegraph-store/hg-store-dist/src/assembly/static/conf/application.yml`), the
//!   path is the built package's layout, **not checked**;
//!   found deeper in several places (`app/Domain/Controllers/` where each `app/Domain/*/` has
//!   a `Controllers/`), a layout the memory describes, **not checked**;
//! - a near miss of a path the repository has (the same letters with other separators,
//!   `src/Infrastructure/Dapper/` for `src/Infrastructure.Dapper/`; an entry of the folder it
//!   names, `src/fonts` beside `src/font`): a typo, CONTRADICTED 65;
//! - anything else (a tutorial's `guides/getting-started.md` beside the repo's
//!   `docs/getting-started.md`, the user's `config/initializers/x.rb`, a build's
//!   `out/test/x.js`): **not checked**, with the reason.
//!
//! **Architecture Invariant:** nothing here applies to a path the tree or history has; a
//! verdict other than VALID given here says "never" in its evidence, not "deleted" or "moved".

use crate::index::basename;
use crate::names::folder;

use super::common::{as_written, list, placeholder_path, PAGE_EXTENSIONS, PLACEHOLDER_WORDS};
use super::located::Located;
use super::Checker;

impl Checker<'_> {
    /// A bare file name (`postgress_schema.ts`) the tree lacks, while history had a file of
    /// that name at one place the tree lacks now (`supabase/functions/utils/postgress_schema.ts`):
    /// the memory named that file, and what became of it is its verdict (renamed: STALE to
    /// where it went; deleted: CONTRADICTED). `None` when history had no such file, or had it at
    /// several places (which one was meant is not known). Which file the name meant is inferred,
    /// so the verdict stays under the confidence a CI gate acts on (75 moved, 70 gone, as for
    /// any bare name: `locate.rs`). Asked for a file claim only: the
    /// names a sentence ties to such a file (`Serverpod`, `logWriter` beside `global_log.dart`)
    /// are read as before, since the file is as often the sentence's aside as their home.
    pub(super) fn bare_name_in_history(&self, git: &memval_git::GitRepo, written: &str) -> Option<Located> {
        let name = written.trim_end_matches('/');
        // A name files of the tree still have (`deploy.sh` of each stack) names one of those.
        if name.contains('/')
            || !name.contains('.')
            || name.starts_with('.')
            || !self.index.files_named(name).is_empty()
        {
            return None;
        }
        // `LocalPreferences.toml`, which the root's `.gitignore` lists: a file each checkout
        // makes for itself, whatever became of a copy the repository once had elsewhere.
        if self.index.ignored_by(name, false).is_some() {
            return None;
        }
        let places: std::collections::BTreeSet<String> = git
            .added_named(name, None)
            .into_iter()
            .map(|(path, _, _)| path)
            .filter(|path| path.contains('/') && self.index.file(path).is_none())
            .collect();
        let [place] = places.iter().collect::<Vec<_>>()[..] else { return None };
        // The one copy was an example's (`sample/sample33-custom-repository/data-source.ts`):
        // the bare name is the file each reader writes in their own project, as the example did.
        // Not when the memory is an example's own README: its files are examples too.
        let in_examples = |path: &str| path.split('/').rev().skip(1).any(names_examples);
        if in_examples(place) && !self.context.own_file().is_some_and(in_examples) {
            return None;
        }
        let note = format!("written as the bare name {name}; the repository's one file of that name was {place}");
        match self.follow_history(git, place, None, 0)? {
            Located::Moved { to, dir, confidence, evidence, since } => Some(Located::Moved {
                to,
                dir,
                confidence: confidence.min(75),
                evidence: format!("{note}; {evidence}"),
                since,
            }),
            // `application-devsec.yml`, untracked and ignored where it was: each developer's
            // own file since, not a deleted one.
            Located::Gone { confidence, evidence, since } => Some(self.unless_generated(
                place,
                Located::Gone { confidence: confidence.min(70), evidence: format!("{note}; {evidence}"), since },
            )),
            _ => None,
        }
    }
}

/// Whether a folder's name says it holds examples (`sample/`, `examples/`, `demo-app/`,
/// `sample33-custom-repository/`, `templates/`).
fn names_examples(folder: &str) -> bool {
    let f = folder.to_ascii_lowercase();
    ["sample", "example", "demo", "template", "starter"].iter().any(|w| f.starts_with(w))
}

/// Folders whose contents a build copies, as they are, to the root of the distribution it makes:
/// a Maven assembly's `src/assembly/static/` (or `src/main/assembly/`), Gradle's `src/dist/`
/// and `src/main/dist/`.
const DISTRIBUTION_CONTENT: &[&str] =
    &["src/assembly/static", "src/main/assembly", "src/assembly", "src/main/dist", "src/dist"];

/// When `found` (a place deeper than `reading`, under its first folder) is `reading`'s rest
/// under a distribution's content folder (`hugegraph-store/conf/application.yml` found at
/// `hugegraph-store/hg-store-dist/src/assembly/static/conf/application.yml`), that folder:
/// the memory wrote the path as the built package lays it out (`conf/` at the package root).
fn distribution_content(reading: &str, found: &str) -> Option<String> {
    let (_, rest) = reading.split_once('/')?;
    let before = found.strip_suffix(rest)?.strip_suffix('/')?;
    DISTRIBUTION_CONTENT.iter().find(|content| before.ends_with(&format!("/{content}"))).map(|_| before.to_owned())
}

/// Why the folder a never-seen path sits in makes it one of the folder's own.
enum FolderSays {
    /// The entry under another spelling: it is there.
    Spelled(String),
    /// A near miss of an entry: a typo.
    NearMiss(String),
    /// A name among the folder's own source files or folders of code.
    AmongCode(String),
}

impl Checker<'_> {
    /// A path no reading of which is in the tree or was ever in git history, and no file of
    /// its name exists: see the module's first part.
    pub(super) fn never_existed(&self, readings: &[&str]) -> Located {
        let written = as_written(readings.iter().copied());
        let Some(git) = self.git else { return self.never_in_repo() };
        if git.paths_incomplete() {
            // A shallow clone, or no log at all: the path may have been deleted behind what it
            // has. (A partial clone read without rename detection still has every path.)
            let (confidence, evidence) = self.history_confidence(
                git,
                85,
                "not in the tree, not in the git history this clone has, and no file of that name exists".into(),
            );
            return Located::Gone { confidence, evidence, since: None };
        }
        let written_folder = written.contains('/');
        // The memory wrote the folder, or named it as a folder itself (a section `## src/x/`),
        // or names a source file of a language the repository is written in.
        let under = readings.iter().map(|r| folder(r)).find(|up| {
            (up.is_empty() || self.index.is_dir(up))
                && ((written_folder && !up.is_empty()) || self.context.names_folder(self.index, up))
        });
        let under = under.or_else(|| self.repo_source_file(written).then(|| folder(readings[0])));
        let not_read = |why: &str| {
            Located::NotInRepo(format!(
                "{written} has never been in the repository (not in the tree, not in git history, no file of its name) and {why}: not read as a path of this repository (an example, another project's file, or one of the user's)"
            ))
        };
        let Some(folder) = under else {
            return not_read(if written_folder {
                "neither has its folder"
            } else {
                "the memory names no folder for it"
            });
        };
        let place = if folder.is_empty() { "the repository's root".to_owned() } else { format!("{folder}/") };
        let name = basename(written.trim_end_matches('/'));
        let files_named = |n: &str| self.index.files_named(n).first().map(|&i| self.index.file_at(i).path.as_str());
        if let Some(template) = template_of(name, files_named) {
            return Located::NotInRepo(format!(
                "{written} has never been in the repository (not in the tree, not in git history); its users make it from {template}: a file of theirs, not one of the repository's"
            ));
        }
        if let Some((manifest, package)) = self.declared_library(written) {
            return Located::NotInRepo(format!(
                "{written} has never been in the repository (not in the tree, not in git history); {manifest} depends on {package}: the library's name, not a file of the repository"
            ));
        }
        if let Some(word) = example_word(name) {
            return Located::NotInRepo(format!(
                "{written} has never been in the repository (not in the tree, not in git history) and its name says `{word}`: read as an example, not a path of this repository"
            ));
        }
        let says = self.folder_says(folder, name);
        // A code block written for a file the repository never had is the file it has its
        // reader make (`// src/main/ipc/feature.ts` over a recipe's code), not a wrong name.
        if self.context.snippet_file(readings) && !matches!(says, Some(FolderSays::Spelled(_))) {
            return not_read("a code block of the memory is written for it: the file the block has its reader make");
        }
        match says {
            Some(FolderSays::Spelled(entry)) => {
                let path = if folder.is_empty() { entry.clone() } else { format!("{folder}/{entry}") };
                Located::Here {
                    dir: self.index.is_dir(&path),
                    note: Some(format!("{name} is written for {entry}, which {place} has")),
                    path,
                    confidence: 70,
                }
            }
            Some(FolderSays::NearMiss(entry)) => {
                let (confidence, evidence) = self.history_confidence(
                    git,
                    65,
                    format!("never in the repository (not in the tree, not in git history); {place} has {entry}, a near miss: a typo or a wrong name"),
                );
                Located::Gone { confidence, evidence, since: None }
            }
            // Docs and READMEs name other projects' files, examples and files a reader makes
            // (a tutorial's `scripts/deploy.sh`): a name among the folder's code files that was
            // never there is no sign of an invented path in a document written for people.
            Some(FolderSays::AmongCode(what)) if self.context.for_people() => not_read(&format!(
                "{place} holds {what}, but a README or doc names examples and other projects' files as well as its own"
            )),
            // An instruction file kept in the repository (`CLAUDE.md`, a skill, a rule) names
            // the folders it wants made and those of the layouts it teaches; an agent's memory
            // record that names a folder asserts it.
            Some(FolderSays::AmongCode(what)) if !name.contains('.') && self.context.own_file().is_some() => {
                not_read(&format!(
                    "{place} holds {what}, but a folder name that is no near miss, in an instruction file of the repository, is a place it proposes or one of another layout"
                ))
            }
            Some(FolderSays::AmongCode(what)) => {
                let (confidence, evidence) = self.history_confidence(
                    git,
                    65,
                    format!("never in the repository (not in the tree, not in git history), though {place} holds {what}: a wrong or invented name"),
                );
                Located::Gone { confidence, evidence, since: None }
            }
            None => not_read(&format!(
                "nothing in {place} is like it (no near miss, no {} of its kind)",
                if name.contains('.') { "source file" } else { "folder of code" }
            )),
        }
    }

    /// What folder `folder` (`""`: the root) says of `name`, which it does not have.
    fn folder_says(&self, folder: &str, name: &str) -> Option<FolderSays> {
        let children = self.index.children(folder);
        let squash = |s: &str| s.chars().filter(|c| c.is_alphanumeric()).collect::<String>().to_lowercase();
        let (stem, ext) = match name.rsplit_once('.') {
            Some((stem, ext)) if !stem.is_empty() => (stem, Some(ext)),
            _ => (name, None),
        };
        if let Some((entry, _)) = children.iter().find(|(entry, _)| {
            squash(entry) == squash(name)
                || (ext.is_none()
                    && entry.rsplit_once('.').is_some_and(|(s, e)| {
                        s == name && (memval_git::CODE_EXTENSIONS.contains(&e) || PAGE_EXTENSIONS.contains(&e))
                    }))
        }) {
            return Some(FolderSays::Spelled(entry.clone()));
        }
        // A name of one or two letters (`x.py`, `br`) or an affix (`_.test.ts`) is nobody's typo.
        if !stem.starts_with(|c: char| c.is_alphanumeric()) || stem.chars().count() < 3 {
            return None;
        }
        let words = |s: &str| {
            let mut w: Vec<String> =
                s.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect();
            w.sort();
            w
        };
        let len = name.chars().count();
        let edits = if len >= 10 { 2 } else { 1 };
        let near: Vec<&String> = children
            .iter()
            .map(|(entry, _)| entry)
            .filter(|entry| {
                (words(entry) == words(name) && words(name).len() > 1)
                    || (len >= 5
                        && entry.chars().count().abs_diff(len) <= edits
                        && crate::similar::within_edits(entry, name, edits))
            })
            .collect();
        if let [entry] = near.as_slice() {
            return Some(FolderSays::NearMiss((*entry).clone()));
        }
        match ext {
            Some(ext) if memval_git::CODE_EXTENSIONS.contains(&ext) => {
                let same = children
                    .iter()
                    .filter(|(e, dir)| !dir && e.rsplit_once('.').is_some_and(|(_, x)| x == ext))
                    .count();
                (same > 0).then(|| {
                    FolderSays::AmongCode(format!("{same} other .{ext} file{}", if same == 1 { "" } else { "s" }))
                })
            }
            Some(_) => None,
            // A folder name: not in a folder of pages (most of its files Markdown, reStructuredText,
            // text or HTML): `docs/` holding a `conf.py` among its pages is no package of code,
            // and "the docs/code" there is prose.
            None => {
                let files = children.iter().filter(|(_, dir)| !dir).count();
                let pages = children
                    .iter()
                    .filter(|(e, dir)| {
                        !dir && e.rsplit_once('.').is_some_and(|(_, x)| {
                            matches!(
                                x.to_ascii_lowercase().as_str(),
                                "md" | "mdx" | "rst" | "txt" | "adoc" | "html" | "htm" | "org"
                            )
                        })
                    })
                    .count();
                let code = children
                    .iter()
                    .filter(|(e, dir)| {
                        !dir && e.rsplit_once('.').is_some_and(|(_, x)| memval_git::CODE_EXTENSIONS.contains(&x))
                    })
                    .count();
                (code > 0 && pages * 2 <= files)
                    .then(|| FolderSays::AmongCode(format!("{code} source file{}", if code == 1 { "" } else { "s" })))
            }
        }
    }

    /// A path git never had that is a near miss of one the repository has: the same letters with
    /// other separators (`src/Infrastructure/Dapper/Repositories` for
    /// `src/Infrastructure.Dapper/Repositories`), or, in a folder it has, a near miss of one of
    /// the folder's entries (`wled00/src/fonts` beside `wled00/src/font`). CONTRADICTED 65,
    /// naming it: a typo, not a move.
    fn misspelled(&self, readings: &[&str], candidates: &[String]) -> Option<Located> {
        let git = self.git?;
        let squash = |s: &str| s.chars().filter(|c| c.is_alphanumeric()).collect::<String>().to_lowercase();
        let near = readings.iter().find_map(|r| {
            let same = candidates.iter().find(|c| squash(c) == squash(r));
            if let Some(same) = same {
                return Some((r.to_string(), format!("{same} is spelled the same but for its separators")));
            }
            let folder = folder(r);
            if !(folder.is_empty() || self.index.is_dir(folder)) || folder.is_empty() {
                return None;
            }
            match self.folder_says(folder, basename(r.trim_end_matches('/'))) {
                Some(FolderSays::NearMiss(entry) | FolderSays::Spelled(entry)) => {
                    Some((r.to_string(), format!("{folder}/ has {entry}, a near miss")))
                }
                _ => None,
            }
        })?;
        let (reading, why) = near;
        let (confidence, evidence) = self.history_confidence(
            git,
            65,
            format!("{reading} was never in the repository (not in the tree, not in git history); {why}: a typo or a wrong name"),
        );
        Some(Located::Gone { confidence, evidence, since: None })
    }

    /// Whether `path` names a source file (`.rs`, `.py`, ...) in a language some file of the
    /// repository is written in.
    fn repo_source_file(&self, path: &str) -> bool {
        let Some((_, ext)) = basename(path).rsplit_once('.') else { return false };
        memval_git::CODE_EXTENSIONS.contains(&ext)
            && self.index.files().any(|(_, f)| f.path.rsplit_once('.').is_some_and(|(_, e)| e == ext))
    }

    /// A path no reading of which is or was in the repository, while files or folders of its
    /// name (`stem`: of its stem, with another extension) are elsewhere: see the module's
    /// second part.
    pub(super) fn name_elsewhere(
        &self,
        readings: &[&str],
        wrote: Option<&str>,
        candidates: Vec<String>,
        stem: bool,
    ) -> Located {
        let written = as_written(readings.iter().copied());
        let package = package_of(readings[0], written);
        let in_package = |c: &&String| package.is_empty() || c.starts_with(&format!("{package}/"));
        if !stem {
            let mut relative: Vec<String> = candidates
                .iter()
                .filter(in_package)
                .filter(|c| c.as_str() == written || c.ends_with(&format!("/{written}")))
                .cloned()
                .collect();
            match relative.len() {
                0 => {}
                1 => {
                    let found = relative.remove(0);
                    return Located::Here {
                        dir: self.index.is_dir(&found),
                        note: Some(format!(
                            "{written} is written relative to a folder of the memory's package; full path {found} ({} was never in the repository)",
                            readings[0]
                        )),
                        path: found,
                        confidence: 70,
                    };
                }
                _ => return Located::Unclear { candidates: relative },
            }
        } else if let Some(twin) = candidates.iter().find(|c| readings.iter().any(|r| folder(r) == folder(c))) {
            return Located::Here {
                path: twin.clone(),
                dir: false,
                confidence: 60,
                note: Some(format!(
                    "{written} is the compiled or source twin of {twin}, beside it ({} was never in the repository)",
                    readings[0]
                )),
            };
        }
        // An example path (`spec/file_spec.rb:123` in a command's usage) is one whatever a file
        // of its name deeper down happens to be.
        if let Some(why) = placeholder_path(written) {
            return Located::NotInRepo(format!("{written} reads as an example, not a path of the repo ({why})"));
        }
        // Under the first folder the memory wrote, with every folder it wrote kept in order
        // and one or more more between (`gui/pages/x` at `gui/src/pages/x`): the place is
        // right, the file deeper. A path written climbing from the memory's folder
        // (`../common/`) names no folder of its own: the folders before it came from where the
        // memory is kept, not from what it wrote.
        if written.contains('/') && !stem && wrote.is_none_or(names_a_folder_of_its_own) {
            for reading in readings.iter().filter(|r| r.ends_with(written)) {
                let first = reading.split('/').next().unwrap_or("");
                if !self.index.is_dir(first) {
                    continue;
                }
                let deeper: Vec<String> = candidates.iter().filter(|c| keeps_in_order(reading, c)).cloned().collect();
                // Deeper in several places (`app/Domain/Controllers/` for the `Controllers/` of
                // each `app/Domain/*/`): a layout each of them has, not one place it went.
                if deeper.len() > 1 {
                    return Located::NotInRepo(format!(
                        "{reading} has never been in the repository (not in the tree, not in git history); {first}/ holds it deeper in {} places ({}): a layout each of them has, not one place it went, so not read as drift",
                        deeper.len(),
                        list(&deeper)
                    ));
                }
                if let Some(best) = deeper.first().cloned() {
                    if let Some(content) = distribution_content(reading, &best) {
                        return Located::NotInRepo(format!(
                            "{reading} has never been in the repository (not in the tree, not in git history); {best} is its source in {content}/, which a build copies into the package it makes: the path is the built package's layout, not one of this tree"
                        ));
                    }
                    return Located::Moved {
                        dir: self.index.is_dir(&best),
                        evidence: format!(
                            "never at {reading} (not in the tree, not in git history); {first}/ holds it deeper, at {best}"
                        ),
                        to: best,
                        confidence: 60,
                        since: None,
                    };
                }
            }
        }
        // A docs link or a module path without its extension (`../reference/panels` beside
        // `panels.md`): the entry of its folder, as when no file of its name is anywhere.
        for reading in readings {
            let (folder, name) = (folder(reading), basename(reading.trim_end_matches('/')));
            if !(folder.is_empty() || self.index.is_dir(folder)) {
                continue;
            }
            if let Some(FolderSays::Spelled(entry)) = self.folder_says(folder, name) {
                let path = if folder.is_empty() { entry.clone() } else { format!("{folder}/{entry}") };
                return Located::Here {
                    dir: self.index.is_dir(&path),
                    note: Some(format!("{name} is written for {entry}, which {folder}/ has")),
                    path,
                    confidence: 70,
                };
            }
        }
        if let Some(typo) = self.misspelled(readings, &candidates) {
            return typo;
        }
        Located::NotInRepo(format!(
            "{written} has never been in the repository (not in the tree, not in git history); {} {}, but nothing ties {} to the memory: not read as drift (an example, a build output, another project's path or one of the user's)",
            if stem { "files of its stem are at" } else { "its name is at" },
            list(&candidates),
            if candidates.len() == 1 { "it" } else { "them" }
        ))
    }
}

/// What a `…Name` stands in for (`ComponentName/`, `PAGE_NAME`, `feature-name.ts`).
const STAND_IN_KINDS: &[&str] = &[
    "file",
    "folder",
    "dir",
    "directory",
    "component",
    "page",
    "feature",
    "module",
    "service",
    "package",
    "project",
    "app",
    "class",
    "function",
    "table",
    "model",
    "plugin",
    "tool",
    "command",
    "route",
    "screen",
    "view",
    "controller",
    "resource",
    "repo",
    "skill",
    "hook",
    "type",
    "test",
    "spec",
    "entity",
    "widget",
    "builder",
    "provider",
    "handler",
    "store",
    "schema",
    "script",
    "step",
];

/// A word of `name` that marks an example (`ExampleTest.php`, `example2.md`,
/// `sample_config.yml`, `template-page.md`): asked only of a name git never had.
fn example_word(name: &str) -> Option<&'static str> {
    let mut words = Vec::new();
    let mut word = String::new();
    for c in name.chars() {
        // A word ends at a separator, before a capital after a small letter, and where
        // digits start.
        let ends = !c.is_alphanumeric()
            || (c.is_uppercase() && word.ends_with(char::is_lowercase))
            || (c.is_ascii_digit() && !word.ends_with(|p: char| p.is_ascii_digit()));
        if ends && !word.is_empty() {
            words.push(std::mem::take(&mut word).to_lowercase());
        }
        if c.is_alphanumeric() {
            word.push(c);
        }
    }
    if !word.is_empty() {
        words.push(word.to_lowercase());
    }
    // `FileName`, `file2`, `ComponentName`, `PAGE_NAME`: a stand-in for a name of that kind.
    if words.windows(2).any(|w| w[0] == "file" && w[1].bytes().all(|b| b.is_ascii_digit())) {
        return Some("file");
    }
    if let Some(kind) =
        words.windows(2).find_map(|w| (w[1] == "name").then(|| STAND_IN_KINDS.iter().find(|k| **k == w[0])).flatten())
    {
        return Some(kind);
    }
    ["example", "examples", "sample", "samples", "template", "placeholder", "dummy"]
        .iter()
        .chain(PLACEHOLDER_WORDS)
        .copied()
        .find(|w| words.iter().any(|x| x == w))
}

/// The template a user copies to make `name` (`lv_conf.h` from `lv_conf_template.h`, `.env`
/// from `.env.example`, `configuration.py` from `configuration_example.py`): files of those
/// names in `files`, the repository's base names.
fn template_of<'a>(name: &str, mut has: impl FnMut(&str) -> Option<&'a str>) -> Option<&'a str> {
    let (stem, ext) = match name.rsplit_once('.') {
        Some((s, e)) if !s.is_empty() => (s, Some(e)),
        _ => (name, None),
    };
    let mut names = Vec::new();
    for kind in ["template", "example", "sample", "dist", "default", "tmpl", "in"] {
        names.push(format!("{name}.{kind}"));
        if let Some(ext) = ext {
            for sep in [".", "_", "-"] {
                names.push(format!("{stem}{sep}{kind}.{ext}"));
            }
        }
    }
    names.iter().find_map(|n| has(n))
}

/// Whether `found` has every segment of `path`, in order, from the same first one, and more.
fn keeps_in_order(path: &str, found: &str) -> bool {
    let want: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    let have: Vec<&str> = found.trim_end_matches('/').split('/').collect();
    if have.len() <= want.len() || have.first() != want.first() {
        return false;
    }
    let mut rest = have.iter();
    want.iter().all(|w| rest.any(|h| h == w))
}

/// Whether a path as the memory wrote it names a folder before its last part, once the `./`
/// and `../` it starts with are set aside (`gui/pages/x`, not `../common/`).
fn names_a_folder_of_its_own(wrote: &str) -> bool {
    let mut rest = wrote.trim();
    while let Some(r) = rest.strip_prefix("../").or_else(|| rest.strip_prefix("./")) {
        rest = r;
    }
    rest.trim_end_matches('/').contains('/')
}

/// The package a memory's path is read in: its most specific reading without what the memory
/// wrote, above any dot-folder the notes file sits in (`.cursor/rules/`, `.junie/`, `.github/`).
fn package_of(first: &str, written: &str) -> String {
    let first = first.trim_end_matches('/');
    let folder = first.strip_suffix(written).map(|f| f.trim_end_matches('/')).unwrap_or("");
    let mut kept = Vec::new();
    for segment in folder.split('/').filter(|s| !s.is_empty()) {
        if segment.starts_with('.') {
            break;
        }
        kept.push(segment);
    }
    kept.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_climbing_path_names_no_folder_of_its_own() {
        assert!(names_a_folder_of_its_own("gui/pages/x"));
        assert!(names_a_folder_of_its_own("../../primitives/lc.v"));
        assert!(!names_a_folder_of_its_own("../common/"));
        assert!(!names_a_folder_of_its_own("./x.md"));
    }

    #[test]
    fn the_package_is_the_notes_folder_above_its_dot_folders() {
        assert_eq!(package_of("examples/clients/auth/oauth_client.rs", "auth/oauth_client.rs"), "examples/clients");
        assert_eq!(package_of("examples/app/.junie/Tools.kt", "Tools.kt"), "examples/app");
        assert_eq!(package_of(".agents/skills/x/index.ts", "index.ts"), "");
        assert_eq!(package_of("lib.rs", "lib.rs"), "");
    }

    #[test]
    fn example_words_are_told_from_names() {
        assert_eq!(example_word("ExampleTest.php"), Some("example"));
        assert_eq!(example_word("example2.md"), Some("example"));
        assert_eq!(example_word("sample_config.yml"), Some("sample"));
        assert_eq!(example_word("exampleService.ts"), Some("example"));
        assert_eq!(example_word("resampler.rs"), None);
        assert_eq!(example_word("templates.rs"), None);
        assert_eq!(example_word("lru.go"), None);
        assert_eq!(example_word("FooTests.swift"), Some("foo"));
        assert_eq!(example_word("FileName.swift"), Some("file"));
        assert_eq!(example_word("file2.rb"), Some("file"));
        assert_eq!(example_word("acme.rb"), Some("acme"));
        assert_eq!(example_word("file_utils.rs"), None);
        assert_eq!(example_word("barrier.rs"), None);
        assert_eq!(example_word("ComponentName"), Some("component"));
        assert_eq!(example_word("PAGE_NAME"), Some("page"));
        assert_eq!(example_word("feature-name.ts"), Some("feature"));
        assert_eq!(example_word("entity_name.dart"), Some("entity"));
        assert_eq!(example_word("widget_name.dart"), Some("widget"));
        assert_eq!(example_word("hostname.rs"), None);
        assert_eq!(example_word("name_service.go"), None);
    }

    #[test]
    fn a_file_users_make_is_known_by_its_template() {
        let repo = ["lv_conf_template.h", ".env.example", "configuration_example.py", "config.yaml.dist"];
        let has = |n: &str| repo.iter().copied().find(|r| *r == n);
        assert_eq!(template_of("lv_conf.h", has), Some("lv_conf_template.h"));
        assert_eq!(template_of(".env", has), Some(".env.example"));
        assert_eq!(template_of("configuration.py", has), Some("configuration_example.py"));
        assert_eq!(template_of("config.yaml", has), Some("config.yaml.dist"));
        assert_eq!(template_of("settings.py", has), None);
    }

    #[test]
    fn deeper_keeps_every_written_folder_in_order() {
        assert!(keeps_in_order("gui/pages/AddNewModel/configs", "gui/src/pages/AddNewModel/configs"));
        assert!(keeps_in_order("agents/TESTING.md", "agents/agents-test/TESTING.md"));
        assert!(!keeps_in_order("config/importmap.rb", "actiontext/test/dummy/config/importmap.rb"));
        assert!(!keeps_in_order("schema/keyspace2/versioned", "schema/temporal/versioned"));
        assert!(!keeps_in_order("agents/TESTING.md", "agents/TESTING.md"));
    }

    #[test]
    fn folders_of_examples() {
        for f in ["sample", "samples", "sample33-custom-repository", "examples", "Example", "demo-app", "templates"] {
            assert!(names_examples(f), "{f}");
        }
        for f in ["src", "docs", "test", "resampler", "counterexample"] {
            assert!(!names_examples(f), "{f}");
        }
    }

    #[test]
    fn a_distributions_content_folder_makes_the_built_layout() {
        assert_eq!(
            distribution_content(
                "hugegraph-store/conf/application.yml",
                "hugegraph-store/hg-store-dist/src/assembly/static/conf/application.yml"
            )
            .as_deref(),
            Some("hugegraph-store/hg-store-dist/src/assembly/static")
        );
        assert_eq!(
            distribution_content("server/bin/start.sh", "server/app/src/main/dist/bin/start.sh").as_deref(),
            Some("server/app/src/main/dist")
        );
        // deeper, but not under a distribution's content
        assert_eq!(distribution_content("gui/pages/x", "gui/src/pages/x"), None);
        assert_eq!(distribution_content("svc/conf/a.yml", "svc/test/static/conf/a.yml"), None);
    }
}
