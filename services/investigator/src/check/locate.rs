//! Where a path a memory names is now: verbatim; what history says of the path as written;
//! its other readings (relative to the notes file's folder or the repo root); their history;
//! the tree search; without history, a second look. Every reading is confined to the repo
//! root first ([`crate::confine`]).
//!
//! A bare name (`runtime/`) whose namesake at the root was already gone when the memory was
//! written names what bears that name now (`packages/core/src/runtime/`), not the root's old one:
//! history before the memory's date is not asked about it. So does a longer path the root did
//! not have then, found now at the end of a package's paths (`module_tail.rs`).
//!
//! A bare name that is gone while the repo's code names it as a file in a string is its user's
//! file, not checked (`user_file.rs`). A bare folder name packages keep by convention (`tests/`)
//! gone from the root while packages side by side keep theirs is that convention
//! (`convention.rs`).
//!
//! A path whose folders are written as a namespace (`Terminal.Gui.App/View.cs`) is read with
//! dots as folder breaks when nothing is at the path as written (`namespaced.rs`).
//!
//! With or without history, a missing path is reported (the evidence's first word, which the
//! report takes as the claim's path) at its first reading whose folder is still in the tree, when
//! the path as written has none.

use memval_git::GitRepo;
use memval_proto::UnixSeconds;

use crate::confine::RepoRoot;
use crate::names::folder;

use super::common::{as_written, placeholder_path, read_by_people, short, PAGE_EXTENSIONS};
use super::convention::side_by_side;
use super::history::since_of;
use super::located::Located;
use super::Checker;

/// The highest confidence of "gone" for a path written as a bare name (`build.config.js`,
/// `LICENSE`, `api/`): such a name is as often a file of the reader's own project, of another
/// tool or of a template as one of this repository (on the labelled real repositories' notes
/// and docs, two of three such verdicts were false alarms; of paths written with a folder, one
/// in four), so it stays a finding below the confidence a CI gate acts on (80).
const BARE_NAME_GONE: u8 = 70;

impl Checker<'_> {
    pub(super) fn locate(&self, raw: &str, alts: &[String], since: Option<UnixSeconds>) -> Located {
        self.locate_written(raw, alts, None, since)
    }

    /// [`Self::locate`] of a path the memory wrote as `written` (`../common/`, before the
    /// extractor resolved it to `raw`), when that differs from `raw`.
    pub(super) fn locate_written(
        &self,
        raw: &str,
        alts: &[String],
        written: Option<&str>,
        since: Option<UnixSeconds>,
    ) -> Located {
        let found = self.kept_in_own_folder(raw, self.locate_readings(raw, alts, written, since));
        let written = as_written(std::iter::once(raw).chain(alts.iter().map(String::as_str)));
        let bare = !written.is_empty() && !written.contains('/');
        if bare {
            if let Some(users) = self.users_file(written, &found) {
                return users;
            }
        }
        let found = if bare { self.each_packages_own(raw, written, found) } else { found };
        match found {
            Located::Gone { confidence, evidence, since }
                if confidence > BARE_NAME_GONE && bare =>
            {
                Located::Gone {
                    confidence: BARE_NAME_GONE,
                    evidence: format!(
                        "{evidence}; written as the bare name {written}, which may be a file of the reader's project or another tool's"
                    ),
                    since,
                }
            }
            found => found,
        }
    }

    /// Without history, a path read inside the folder its notes are kept in
    /// (`sdks/community/java/CLAUDE.md` naming `packages/core`) is not found moved outside it:
    /// a same-named place elsewhere (`sdks/typescript/packages/core`) is another package's own,
    /// however many of the notes' paths match there, while the folder holds more than the notes.
    fn kept_in_own_folder(&self, raw: &str, found: Located) -> Located {
        let Located::Moved { to, .. } = &found else {
            return found;
        };
        let Some(own) = self.context.own_file().map(folder).filter(|f| !f.is_empty()) else {
            return found;
        };
        let inside = |p: &str| p.starts_with(&format!("{own}/"));
        // A folder left holding only the notes is one whose package moved around them (kDrive's
        // `src/front/macOS/` → `src/gui4/macOS/`): there the place elsewhere is where it went.
        if self.git.is_some() || !inside(raw) || inside(to) || self.holds_only_the_memory(own) {
            return found;
        }
        Located::Gone {
            confidence: 50,
            evidence: format!(
                "no history; nothing at {raw}, and {to}, where a path ends like it, lies outside {own}/, the folder the notes naming it are kept in: another package's, not where it went"
            ),
            since: None,
        }
    }

    fn locate_readings(&self, raw: &str, alts: &[String], wrote: Option<&str>, since: Option<UnixSeconds>) -> Located {
        let path = match RepoRoot::normalise(raw) {
            Ok(p) => p,
            Err(refusal) => return Located::Refused(refusal),
        };
        if let Some(here) = self.exists(&path, 100, None) {
            return here;
        }
        if let Err(refusal) = self.index.resolve_existing(&path) {
            return Located::Refused(refusal);
        }
        // A link to a page without its extension; from a page a docs site serves as a folder
        // (`../semaphore` from `semaphores/make-semaphore.md`), its other reading is the page.
        let other_readings = alts.iter().filter_map(|a| RepoRoot::normalise(a).ok());
        if let Some(page) =
            std::iter::once(path.clone()).chain(other_readings).find_map(|p| self.page_without_extension(&p))
        {
            return page;
        }
        if let Some(each) = self.folder_of_each_package(raw, alts, since) {
            return each;
        }
        // Another reading that exists (from the notes' folder) is checked below, and wins.
        let another_exists =
            alts.iter().any(|a| self.index.file(a).is_some() || self.index.is_dir(a.trim_end_matches('/')));
        // Without history, nothing else tells a package deleted around its notes.
        if let Some(gone) = self.in_an_outlived_folder(&path).filter(|_| !another_exists && self.git.is_none()) {
            return gone;
        }
        if let Some(tail) = self.written_relative_to_a_package(&path, since).filter(|_| !another_exists) {
            return tail;
        }
        if let Some(not_a_path) = self.not_a_path_of_the_repo(&path, alts, since) {
            return not_a_path;
        }
        // What history says of the path as written comes before other readings of it: a
        // file moved to where another reading points is a move, not a match.
        if let (Some(git), Some(since)) = (self.git, since) {
            if let Some(found) = self.follow_history(git, &path, Some(since), 0) {
                return self.unless_generated(&path, found);
            }
        }
        // Other readings of the path (e.g. relative to the repo root instead of the notes
        // file's folder), confined like the first.
        let alts: Vec<String> =
            alts.iter().filter_map(|a| RepoRoot::normalise(a).ok()).filter(|a| *a != path).collect();
        for alt in &alts {
            if self.index.resolve_existing(alt).is_err() {
                continue;
            }
            if let Some(here) = self.exists(alt, 95, Some(format!("read as {alt}"))) {
                return here;
            }
        }
        // `Terminal.Gui.App/ApplicationImpl.cs`: folders written as the namespace they hold.
        if let Some(here) = std::iter::once(&path).chain(alts.iter()).find_map(|r| self.namespace_folders(r)) {
            return here;
        }
        if let Some(built) = self.in_an_ignored_folder(&path, &alts) {
            return built;
        }
        let readings: Vec<&str> = std::iter::once(path.as_str()).chain(alts.iter().map(String::as_str)).collect();
        if let Some(here) = readings.iter().find_map(|r| self.in_package_src(r)) {
            return here;
        }
        if self.git.is_none() {
            if let Some(gone) = self.bare_project_file(&readings) {
                return gone;
            }
        }
        // A bare name (`runtime/`) that things of the repository are named now, while the
        // root's namesake was gone before the memory was written: the memory names those, not
        // the root's old one.
        let written = as_written(readings.iter().copied());
        let named_now = !written.contains('/')
            && (!self.index.dirs_named(written).is_empty() || !self.index.files_named(written).is_empty());
        // Where the memory put the path first, git ignores it and never had it: what a build
        // or the user makes there (tamboui's `docs/video/output/index.html`, which the script
        // beside the notes writes), whatever another reading's history says (a root
        // `output/index.html` deleted long ago).
        if self.git.is_some_and(|git| !git.paths_incomplete() && !git.ever_had(&path)) {
            if let Some(built) = self.ignored_here(&path) {
                return built;
            }
        }
        if let Some(git) = self.git {
            for (window, penalty) in [(since, 0u8), (None, 15u8)] {
                if window.is_none() && since.is_none() && penalty > 0 {
                    break;
                }
                if window.is_none() && since.is_some() && named_now {
                    break;
                }
                for reading in &readings {
                    if let Some(found) = self.follow_history(git, reading, window, penalty) {
                        // The path as written, gone from the root, is its package's now
                        // (`benches/README.md` in a crate's `src/adapters/x/CLAUDE.md`: the
                        // crate's own, not the root's old file renamed away and deleted).
                        if matches!(found, Located::Gone { .. }) && *reading != path {
                            if let Some(tail) = self.written_relative_to_a_package(reading, since) {
                                return tail;
                            }
                        }
                        return self.unless_generated(reading, found);
                    }
                }
            }
        }
        let bare = !written.contains('/');
        let mut first = None;
        for reading in &readings {
            match self.search_tree_at(reading, since, bare) {
                gone @ (Located::Gone { .. } | Located::NeverInRepo | Located::NameElsewhere { .. }) => {
                    first.get_or_insert(gone);
                }
                found => {
                    if let Some(moved) = self.root_respelled(&path, reading, &found) {
                        return moved;
                    }
                    return self.second_look(reading, found);
                }
            }
        }
        let found = match first.unwrap_or_else(|| self.search_tree(&path)) {
            Located::NeverInRepo => {
                match self.git.and_then(|git| readings.iter().find(|r| git.ever_had(r)).map(|r| (git, *r))) {
                    Some((git, had)) => self.taken_away(git, had),
                    None => self.never_existed(&readings),
                }
            }
            Located::NameElsewhere { candidates, stem } => self.name_elsewhere(&readings, wrote, candidates, stem),
            found => found,
        };
        self.second_look(&path, found)
    }

    /// `pages/api` in `tests/js/README.md`, where `tests/js/` is a package (it has a manifest)
    /// that keeps its code under `src/`: `tests/js/src/pages/api`. A package's own doc names its
    /// paths from its source folder as often as from its root, so this reading comes before
    /// what history says of the same words read from the repository's root.
    fn in_package_src(&self, reading: &str) -> Option<Located> {
        let own = self.context.own_file()?.rsplit_once('/')?.0;
        let tail = reading.strip_prefix(own)?.strip_prefix('/')?;
        if tail.starts_with("src/")
            || !memval_git::MANIFEST_NAMES.iter().any(|m| self.index.file(&format!("{own}/{m}")).is_some())
        {
            return None;
        }
        let path = format!("{own}/src/{tail}");
        self.exists(&path, 80, Some(format!("{tail} written from the package {own}/, whose code is under {own}/src/")))
    }

    /// In a README or doc, a link to a page written without its extension, as docs generators
    /// let one write it (`../topics/images` for `docs/topics/images.md`): the page, whatever a
    /// folder of that name once was. A claim's path carries no trailing slash, so a folder
    /// mention (`images/`) in a doc is read the same way; an agent's notes are not.
    fn page_without_extension(&self, path: &str) -> Option<Located> {
        let name = path.rsplit('/').next().unwrap_or(path);
        if !self.context.for_people() || name.contains('.') || name.is_empty() {
            return None;
        }
        PAGE_EXTENSIONS.iter().map(|ext| format!("{path}.{ext}")).find(|page| self.index.file(page).is_some()).map(
            |page| Located::Here {
                note: Some(format!("{path} is a link to the page {page}, written without its extension")),
                path: page,
                dir: false,
                confidence: 85,
            },
        )
    }

    /// A path git had whose renames and deletions, replayed by time, end nowhere the tree has:
    /// lines of history that moved and deleted the same files in parallel, then merged (a
    /// branch deleting `wren-launcher/` merged after the main line moved it into `core/` and
    /// back). Which change won is the merge's; the tree says nothing of the path is left, so it
    /// is gone, dated by the last change that took it away.
    fn taken_away(&self, git: &GitRepo, path: &str) -> Located {
        let last = git.last_taken_away_in(path);
        let (confidence, evidence) = self.history_confidence(
            git,
            70,
            format!(
                "git had {path}, but its renames and deletions ran on lines of history merged later, so no one of them decides where it went; nothing of it is in the tree now (the last change that took it away: {})",
                last.as_ref().map_or("none found".to_owned(), |(commit, _)| short(commit).to_owned())
            ),
        );
        Located::Gone { confidence, evidence, since: last.and_then(|(commit, _)| since_of(git, &commit)) }
    }

    /// Before history: a path that is not the repository's whatever its past. An example the
    /// memory's own folder reading shows (`vscode/my_project/server/Gemfile`: the history of
    /// `server/Gemfile` is not what it meant), or the project's own name written bare
    /// (`whisper.cpp` in whisper.cpp's notes: its README's title, or its folder's name).
    /// A root file or folder of that name, when the memory was written, is no project name;
    /// a path git had is the repository's, whatever its name says (`new-image-release.md`).
    fn not_a_path_of_the_repo(&self, path: &str, alts: &[String], since: Option<UnixSeconds>) -> Option<Located> {
        let git_had = || self.git.is_some_and(|g| g.follow(path, None).known);
        if let Some(why) = placeholder_path(path).filter(|_| !git_had()) {
            return Some(Located::NotInRepo(format!("{path} reads as an example, not a path of the repo ({why})")));
        }
        let written = as_written(std::iter::once(path).chain(alts.iter().map(String::as_str)));
        if !written.contains('/')
            && self.index.project_names().iter().any(|n| n.eq_ignore_ascii_case(written))
            && !self.root_had(written.trim_end_matches('/'), since)
        {
            return Some(Located::NotInRepo(format!(
                "{written} is the project's own name (its README's title or its folder's name), not read as a file"
            )));
        }
        None
    }

    /// "The following workflow assumes you are in the `build/` subdirectory: 1. `./src/zeek`":
    /// the folder the memory put the path in (`build`, the first reading's folders before the
    /// path as written) is not in the tree, git ignores it, and git never had the path there: the
    /// path names what a build makes in that folder, whatever history says of the path as
    /// written from the root (zeek's old `src/zeek`). With history only: without it, a tracked
    /// folder that moved away and is ignored now looks the same.
    fn in_an_ignored_folder(&self, path: &str, alts: &[String]) -> Option<Located> {
        let git = self.git?;
        let folder = alts.iter().find_map(|a| path.strip_suffix(a.as_str())?.strip_suffix('/'))?;
        if folder.is_empty() || self.index.is_dir(folder) || git.follow(path, None).known {
            return None;
        }
        let (file, pattern) = self.index.ignored_by(folder, true)?;
        Some(Located::NotInRepo(format!(
            "{path} is read in {folder}/, which is not in the tree and git ignores ({file}: `{pattern}`): what a build makes there, which a checkout does not have"
        )))
    }

    /// A path history shows deleted that git ignores today, itself or what is put in it (a
    /// folder a build or a fetch fills: `test/data/reference-output/odr-*/`): the build generates
    /// it since (uv's `docs/reference/cli.md`), so a checkout does not have it and nothing is gone. Not when
    /// the ignore rule was written after the deletion: removed code whose leftovers a later
    /// rule keeps out of `git status` (Wox's `wox.ui.flutter/`, ignored two weeks after the UI
    /// was deleted) is gone, not built, unless a build or config file still names it (a
    /// rewritten rule for a folder the build fills) or a script beside the folder writes it. A
    /// rule blame cannot date counts as written before, and the reason says git failed.
    pub(super) fn unless_generated(&self, path: &str, found: Located) -> Located {
        let Located::Gone { since, .. } = &found else {
            return found;
        };
        let Some((file, pattern)) = self
            .index
            .ignored_by(path, false)
            .or_else(|| self.index.ignored_by(path, true))
            .or_else(|| self.index.ignores_inside(path))
        else {
            return found;
        };
        // When the path went: the verdict's own commit, else the last file history took from it.
        let deleted = since.as_ref().map(|s| s.date).or_else(|| self.git.and_then(|git| git.last_taken_away(path)));
        let (ignored_at, blame_failed) = match self.git.map(|git| git.line_written_at(&file, &pattern)) {
            Some(Ok(at)) => (at, String::new()),
            Some(Err(e)) => (None, format!(" (git could not date the rule, taken as older than the deletion: {e})")),
            None => (None, String::new()),
        };
        if let (Some(ignored_at), Some(deleted)) = (ignored_at, deleted) {
            if ignored_at > deleted && !self.named_by_the_build(&pattern) && !self.made_by_code_beside(&file, &pattern)
            {
                return found;
            }
        }
        let what = if pattern.trim_start_matches('/').starts_with(&format!("{}/", path.trim_end_matches('/'))) {
            "what is put in it"
        } else {
            "it"
        };
        Located::NotInRepo(format!(
            "{path} was deleted from git and git ignores {what} now ({file}: `{pattern}`): made by the build or kept by each checkout for itself since, which a fresh checkout does not have{blame_failed}"
        ))
    }

    /// Whether a tracked file other than a page, an ignore file or the memory names what the
    /// ignore rule `pattern` names (Terminal.Gui's `.csproj` and `nuget.config` name
    /// `local_packages`, where its release build puts packages): something of the repository
    /// still makes or reads it. A pattern with wildcards, or a common word (`docs`), names
    /// nothing to look for.
    fn named_by_the_build(&self, pattern: &str) -> bool {
        let pattern = pattern.trim_matches('/');
        let name = pattern.rsplit('/').next().unwrap_or(pattern);
        // A word as common as `docs` or `build` is in every build file, whatever it ignores.
        let specific = name.contains(['_', '-', '.']) || name.len() >= 10;
        if !specific || name.contains(['*', '?', '[', '!']) {
            return false;
        }
        let Some(token) = name.split(|c: char| !(c.is_alphanumeric() || c == '_')).max_by_key(|t| t.len()) else {
            return false;
        };
        let own = self.context.own_file();
        self.index.files_with_token(token).any(|f| {
            let file_name = f.path.rsplit('/').next().unwrap_or(&f.path);
            let ext = file_name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default();
            Some(f.path.as_str()) != own
                && !file_name.ends_with("ignore")
                && !read_by_people(&ext)
                && self.index.read_text(&f.path).is_some_and(|t| t.contains(name))
        })
    }

    /// Whether a source file beside the folder the ignore rule `pattern` (of the ignore file
    /// `file`) names has that folder's name as a string: the script that writes it there
    /// (tamboui's `docs/video/generate.java` resolving `"output"` for `docs/video/output`). A
    /// name as common as `output` says something only that close; a pattern without a folder
    /// before its name, or with wildcards, names no place to look beside.
    fn made_by_code_beside(&self, file: &str, pattern: &str) -> bool {
        let pattern = pattern.trim_matches('/');
        if pattern.contains(['*', '?', '[', '!']) {
            return false;
        }
        let base = file.rsplit_once('/').map_or("", |(dir, _)| dir);
        let full = if base.is_empty() { pattern.to_owned() } else { format!("{base}/{pattern}") };
        let Some((parent, name)) = full.rsplit_once('/') else {
            return false;
        };
        let quoted = [format!("\"{name}\""), format!("'{name}'"), format!("\"{name}/")];
        self.index.children(parent).into_iter().any(|(child, dir)| {
            !dir && super::user_file::is_code(&child)
                && self
                    .index
                    .read_text(&format!("{parent}/{child}"))
                    .is_some_and(|text| quoted.iter().any(|q| text.contains(q.as_str())))
        })
    }

    /// A bare name (`lib/`, `test/`, `pyproject.toml`) that no reading finds, while two or more
    /// packages side by side have it (`actionpack/lib`, `activerecord/lib`;
    /// `libs/a/pyproject.toml`, `libs/b/pyproject.toml`): in a repository of packages it names
    /// each package's own, whatever the root once had (`Located::Unclear`, which the file
    /// check takes as VALID when each ends with the name). With history only, and only when the
    /// root had no such file or folder when the memory was written: a root `docs/` of that
    /// day, deleted since, is what the memory named (a tree diagram's top row), however many
    /// folders are called `docs` now.
    fn folder_of_each_package(&self, raw: &str, alts: &[String], since: Option<UnixSeconds>) -> Option<Located> {
        let name = raw.trim().trim_start_matches("./").trim_end_matches('/');
        // Without history the second look decides (`check/tree_only.rs`).
        self.git?;
        if name.is_empty()
            || name.contains('/')
            || alts.iter().any(|a| self.index.file(a).is_some() || self.index.is_dir(a.trim_end_matches('/')))
        {
            return None;
        }
        if self.root_had(name, since) {
            return None;
        }
        let mut places: Vec<String> = self.index.dirs_named(name).into_iter().map(str::to_owned).collect();
        if places.is_empty() {
            places = self.index.files_named(name).iter().map(|&i| self.index.file_at(i).path.clone()).collect();
        }
        places.sort();
        side_by_side(&places).then_some(Located::Unclear { candidates: places })
    }

    /// Without history, a path the tree search found gone or could not place gets a second
    /// look ([`Checker::guess_without_history`]); anything else is kept.
    pub(super) fn second_look(&self, path: &str, found: Located) -> Located {
        if self.git.is_some() {
            return found;
        }
        self.guess_without_history(path, &found).unwrap_or(found)
    }

    /// Whether the repository's root had a file or folder `name` when the memory was written
    /// (`since`, with history): then a bare `name` is that one, whatever else is called so now.
    fn root_had(&self, name: &str, since: Option<UnixSeconds>) -> bool {
        let (Some(git), Some(since)) = (self.git, since) else { return false };
        git.had_at(name, since)
    }

    /// `Here` when `path` is a file or directory of the repo now.
    pub(super) fn exists(&self, path: &str, confidence: u8, note: Option<String>) -> Option<Located> {
        if self.holds_only_the_memory(path) {
            return None;
        }
        if self.index.file(path).is_some() {
            if self.index.resolve_existing(path).is_err() {
                return None;
            }
            return Some(Located::Here { path: path.to_owned(), dir: false, confidence, note });
        }
        if self.index.is_dir(path) {
            return Some(Located::Here { path: path.to_owned(), dir: true, confidence, note });
        }
        // Ignored by `.gitignore` but present on disk.
        match self.index.resolve_existing(path) {
            Ok(Some(real)) => Some(Located::Here {
                path: path.to_owned(),
                dir: real.is_dir(),
                confidence: confidence.min(90),
                note: Some(note.unwrap_or_else(|| "present on disk but ignored by .gitignore".into())),
            }),
            _ => None,
        }
    }

    /// A path read in the memory's own folder when that folder holds nothing but the memory
    /// (`packages/x-headless/AGENTS.md` left after its package was deleted): what the notes
    /// described is gone, and files ending the same way in other packages (`src/index.ts`) are
    /// theirs, not where it went. Unless the memory's other paths in that folder are found,
    /// at least two and more than anywhere else, under one other folder with the rest of their
    /// path kept (most of them, two at least two folders deep: no other package has those by
    /// chance), and this one is there too: the folder moved around its notes (`src/front/macOS/` →
    /// `src/gui4/macOS/`). Used without history, which says when and how.
    fn in_an_outlived_folder(&self, path: &str) -> Option<Located> {
        let own = self.context.own_file()?;
        let dir = own.rsplit_once('/')?.0;
        if !path.starts_with(&format!("{dir}/")) || !self.holds_only_the_memory(dir) {
            return None;
        }
        // The rest of the memory's other missing paths in the folder (`src/a.ts` of `dir/src/a.ts`).
        let rests: Vec<String> = self
            .context
            .inside(self.index, dir)
            .iter()
            .filter(|p| *p != path)
            .filter_map(|p| p.strip_prefix(&format!("{dir}/")).map(str::to_owned))
            .collect();
        // Short names (`rust/kaos` beside the Python package `packages/kaos`) are found in other
        // packages by chance; a folder that moved took most of what the memory names in it,
        // paths two folders deep or more among them.
        let deep_kept = |new: &str| {
            let kept: Vec<&String> = rests
                .iter()
                .filter(|rest| {
                    let there = format!("{new}/{rest}");
                    self.index.has(&there)
                })
                .collect();
            let deep = kept.iter().filter(|rest| rest.trim_end_matches('/').contains('/')).count();
            deep >= 2 && kept.len() * 2 > rests.len()
        };
        if let Some(new) = self.context.moved_to(self.index, dir, path).filter(|new| deep_kept(new)) {
            let to = format!("{new}/{}", &path[dir.len() + 1..]);
            let is_dir = self.index.is_dir(&to);
            if is_dir || self.index.file(&to).is_some() {
                return Some(Located::Moved {
                    evidence: format!(
                        "no history; {dir}/ holds nothing but this memory now, and the memory's other paths in it are found under {new}/ with the rest of their path kept: the folder moved there (unconfirmed)"
                    ),
                    to,
                    dir: is_dir,
                    confidence: 50,
                    since: None,
                });
            }
        }
        // The folder set aside under one more folder (`verifiers/envs/` → `verifiers/legacy/envs/`,
        // a new `verifiers/envs/` holding only the notes): of the places that are it with one
        // folder put in, the one where this path and another of the memory's paths in the folder
        // are found with their rest kept.
        let rest = &path[dir.len() + 1..];
        let holds_them = |new: &String| {
            self.index.has(&format!("{new}/{rest}")) && rests.iter().any(|o| self.index.has(&format!("{new}/{o}")))
        };
        let set_aside: Vec<String> = self.places_put_in(dir, true).into_iter().filter(holds_them).collect();
        if let [new] = set_aside.as_slice() {
            let to = format!("{new}/{rest}");
            return Some(Located::Moved {
                dir: self.index.is_dir(&to),
                evidence: format!(
                    "no history; {dir}/ holds nothing but this memory now, and {new}/, a place that is it with one folder put in, holds this and the memory's other paths in it: set aside there (unconfirmed)"
                ),
                to,
                confidence: 50,
                since: None,
            });
        }
        Some(Located::Gone {
            confidence: 70,
            evidence: format!("{path} — {dir}/ holds nothing but this memory now: what it described is gone"),
            since: None,
        })
    }

    /// A folder whose one file is the memory itself (`deployment/` holding `deployment/AGENTS.md`
    /// and nothing else): the notes outlived what they describe, and their own file is no
    /// evidence that the folder they describe is there.
    pub(super) fn holds_only_the_memory(&self, path: &str) -> bool {
        let dir = path.trim_end_matches('/');
        match self.context.own_file().and_then(|f| f.strip_prefix(dir)) {
            Some(rest) if rest.starts_with('/') && !dir.is_empty() => {
                self.index.is_dir(dir) && self.index.dir_file_count(dir) == 1
            }
            _ => false,
        }
    }

    /// Of a missing path's readings, the one the memory meant: with history, the path as
    /// written when history had it (as a file, or as a folder with files), else the first reading
    /// history had (`src/x/AppleUIKit/` under a heading `### iOS/macOS`, which was never a folder,
    /// is the root's `src/x/AppleUIKit`); else the first whose folder is
    /// still in the tree when the path as written has none (a tree drawn under the project's
    /// name, `myproject/src/x/gone.py`, means `src/x/gone.py` once `src/x/` is there; a bare
    /// name's folder, the root, does not count); else the path as written. The report names this reading as the claim's path.
    pub(super) fn meant<'r>(&self, raw: &'r str, alts: &'r [String]) -> &'r str {
        // A bare name in a list under its folder (`CompilerDetection.cmake` under
        // `tests/cmake/`) that only the joined reading was ever a file of: that reading.
        if let Some(git) = self.git.filter(|_| self.index.file(raw).is_none() && !self.index.is_dir(raw)) {
            if git.ever_had(raw) {
                return raw;
            }
            if let Some(known) = alts.iter().find(|a| *a != raw && git.ever_had(a)) {
                return known;
            }
        }
        let folder_there = |p: &str| match p.trim_end_matches('/').rsplit_once('/') {
            Some((up, _)) => self.index.is_dir(up),
            None => true,
        };
        if folder_there(raw) {
            return raw;
        }
        // The root is every bare name's folder, so it says nothing: `LinkerCompatibility.cmake`
        // listed under a `tests/cmake/` that is gone as a whole still means that folder's file.
        let in_a_folder_there = |p: &str| p.trim_end_matches('/').contains('/') && folder_there(p);
        alts.iter().map(String::as_str).find(|a| in_a_folder_there(a) && RepoRoot::normalise(a).is_ok()).unwrap_or(raw)
    }
}
