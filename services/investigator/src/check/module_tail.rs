//! A path the root did not have when the memory was written, found now as the tail of a
//! package's path: written relative to that package, not moved.
//!
//! Notes of a multi-module build name paths the way each module has them: `src/main/scala` of
//! every sbt module, `src/test/groovy/` of every Gradle module, `lib/plugins/aws/` of the one
//! package that holds it. When the repository's root had no such path at the memory's date,
//! nor when the memory's file was first committed (history says so), the memory was not naming
//! the root's; when the tree has it now at the end
//! of one or more longer paths (`airframe-codec/src/main/scala`), those are what it names:
//! **VALID**, at 80 for one place or for the one of several in the package holding the memory's
//! own file (a crate's `benches/README.md` named in its `src/adapters/x/CLAUDE.md`), and 70 when
//! it is a folder every one of several packages has, listed. The notes folder's reading is tried
//! first; the path as written, when history shows it gone from the root (renamed away and
//! deleted: `locate.rs`), is its package's now. Bare names are `locate.rs`'s
//! (`folder_of_each_package`); without a date or history nothing is said here.

use memval_proto::UnixSeconds;

use super::common::list;
use super::located::Located;
use super::Checker;

impl Checker<'_> {
    /// `Here` at the path(s) ending with `path`, when the root did not have `path` at `since`.
    pub(super) fn written_relative_to_a_package(&self, path: &str, since: Option<UnixSeconds>) -> Option<Located> {
        let (git, since) = (self.git?, since?);
        let path = path.trim_start_matches("./").trim_end_matches('/');
        if !path.contains('/')
            || path.starts_with('/')
            || path.split('/').any(|s| s.is_empty() || s == "." || s == "..")
        {
            return None;
        }
        // Nor when the root had it as the memory's file began: lines older than its last edit
        // may have meant the root's (a doc of 2024 naming `lib/x`, moved into `app/` in 2025).
        let began = self
            .context
            .own_file()
            .and_then(|own| git.commits_changing(own, None).ok())
            .and_then(|commits| commits.first().map(|(_, at)| *at));
        if git.had_at(path, since) || began.is_some_and(|at| git.had_at(path, at)) {
            return None;
        }
        let tail = format!("/{path}");
        let mut places: Vec<(String, bool)> = self
            .index
            .dirs()
            .filter(|d| d.ends_with(&tail))
            .map(|d| (d.to_owned(), true))
            .chain(self.index.files().filter(|(_, f)| f.path.ends_with(&tail)).map(|(_, f)| (f.path.clone(), false)))
            .collect();
        places.sort();
        let why = format!("the root had no {path} when the memory was written");
        // Of several, the one in the memory's own package: under a folder that holds the
        // memory's file (`crates/x/benches/README.md` for `benches/README.md` in
        // `crates/x/src/adapters/y/CLAUDE.md`), the deepest such folder.
        let own = self.context.own_file().and_then(|f| f.rsplit_once('/')).map(|(dir, _)| format!("{dir}/"));
        let holds_own = |p: &str| {
            let package = &p[..p.len() - tail.len()];
            own.as_deref().is_some_and(|own| own.starts_with(&format!("{package}/")))
        };
        if let Some((mine, dir)) =
            places.iter().filter(|(p, _)| holds_own(p)).max_by_key(|(p, _)| p.len()).filter(|_| places.len() > 1)
        {
            return Some(Located::Here {
                path: mine.clone(),
                dir: *dir,
                confidence: 80,
                note: Some(format!("written relative to its package, the one holding the memory: {why}")),
            });
        }
        match places.as_slice() {
            [] => None,
            [(only, dir)] => Some(Located::Here {
                path: only.clone(),
                dir: *dir,
                confidence: 80,
                note: Some(format!("written relative to its package: {why}")),
            }),
            [(first, dir), ..] => Some(Located::Here {
                path: first.clone(),
                dir: *dir,
                confidence: 70,
                note: Some(format!(
                    "the {} of each of {} packages ({}): {why}",
                    path,
                    places.len(),
                    list(&places.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>())
                )),
            }),
        }
    }
}
