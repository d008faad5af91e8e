//! Notes files: the instruction files agent tools read from a repository (CLAUDE.md,
//! AGENTS.md, GEMINI.md, `.cursor/rules/*.mdc`, `.github/copilot-instructions.md`, skills'
//! SKILL.md, commands, rules, ...; see [`notes_tool`]) and its docs (`**/docs/**/*.md`,
//! `**/README.md`). Each file is one memory holding the whole file, so a claim's line number
//! is the file's line number, and its agent is the tool that reads it.
//!
//! A notes folder is walked for the instruction files of every agent tool and for the docs
//! (`memval_proto::tools::notes_agent`, shared with the Claude Code hook): by name at any depth
//! (`CLAUDE.md`, `CLAUDE.local.md`, `AGENTS.md`, `AGENTS.override.md`, `GEMINI.md`,
//! `.cursorrules`, `.windsurfrules`, `.clinerules`, `.roorules`, `CONVENTIONS.md`); inside a tool
//! folder (`memval_proto::tools::TOOL_DIRS`: `.claude`, `.agents`, `.agent`, `.github`,
//! `.cursor`, `.gemini`, `.codex`, `.opencode`, `.cline`, `.clinerules`, `.windsurf`, `.kiro`,
//! `.junie`, `.roo`, `.amazonq`, `.continue`, `.openhands`, `.augment`), a skill's
//! `skills/<name>/SKILL.md` and the markdown of its `commands`, `agents`, `agent`, `rules`,
//! `steering`, `workflows`, `microagents` and `prompts` folders (`.mdc` too under `.cursor`),
//! with the tools' own names in `.github` (`copilot-instructions.md`,
//! `instructions/*.instructions.md`, `prompts/*.prompt.md`, `agents/`, `skills/`; never
//! `.github/workflows`), `.junie/guidelines.md`, `.gemini/styleguide.md`, any markdown in
//! `.clinerules/` and `.roo/rules*/`; then `README.md` and the markdown of a `docs` folder.
//! Other hidden folders, and vendored or generated ones (`SKIPPED_DIRS`), are skipped.
//!
//! A memory's `agent` is the tool that reads the file (`claude-code`, `agents`, `copilot`,
//! `cursor`, `gemini`, ...; the innermost tool folder decides; `docs` for READMEs and docs;
//! `notes` for a file given directly that matches none), so `memval pairs` and `reconcile`
//! compare one tool's notes with another's. A skill's other files are not memories: its
//! SKILL.md names them and they are checked as file references. A file reached under several
//! names (`CLAUDE.md` a link to `AGENTS.md`, a common layout) is one memory, named by the file
//! itself when the walk meets it (folder links are never followed); each other name is a [`Link`] of
//! the load report, printed as a `note:` by `validate` and `pairs`. `context_dir` records the
//! folder a notes file sits in, so the extractor can resolve paths written relative to it.
//!
//! A doc of the walk that records the past by design ([`past_record`]: a changelog, release
//! notes, a decision record, an RFC or a proposal, a plan (`docs/plans/`: what the code was before
//! it and what it would become), a migration or upgrade guide, a postmortem, a blog post, an
//! archive, an old version's docs such as `docs/1.x/`), or one that gives a proposal's stage as
//! its status at its top (`Status: implemented · 2026-08-21`, `proposal.rs`), is loaded with kind
//! `history`: listed, and skipped by the extractor with that reason, since what it says was true
//! when written.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use ignore::WalkBuilder;
use memval_proto::tools::tool_agent;
use memval_proto::{Memory, Source};

use crate::claude::{CREATED_KEYS, UPDATED_KEYS};
use crate::common::{inside, rel_string, Ctx};
use crate::dates::dated;
use crate::error::SourceError;
use crate::finished::reports_finished_work;
use crate::loaded::{Format, Link};
use crate::report::dated_report;
use crate::snapshot::dated_snapshot;
use crate::{dates, frontmatter, text};
use memval_git::GitDates;

/// Vendored, generated and tool folders never scanned. Hidden folders are skipped too,
/// except the agent tools' own (`memval_proto::tools::TOOL_DIRS`).
const SKIPPED_DIRS: &[&str] =
    &["node_modules", "target", "dist", "build", "vendor", "third_party", "bower_components", "venv", "__pycache__"];

/// The agent whose instructions `parts` (a path's components, repo-relative where known)
/// are, `docs` for a README or a file in a docs folder: `memval_proto::tools::notes_agent`.
pub(crate) fn notes_tool(parts: &[String]) -> Option<&'static str> {
    let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
    memval_proto::tools::notes_agent(&parts)
}

/// A path's components as [`notes_tool`] reads them: `path` (its folder canonical, its name as
/// found) relative to the repo root when it is inside it, else `rel` below `base`'s name.
fn tool_parts(path: &Path, ctx: &Ctx, base: &Path, rel: &Path) -> Vec<String> {
    let components =
        |p: &Path| p.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>();
    match ctx.repo_relative(path) {
        Some(r) => components(&r),
        None => {
            let mut parts: Vec<String> =
                base.file_name().map(|n| vec![n.to_string_lossy().into_owned()]).unwrap_or_default();
            parts.extend(components(rel));
            parts
        }
    }
}

/// Loads one notes file given directly.
pub(crate) fn load_file(path: &Path, ctx: &mut Ctx) -> Result<Vec<Memory>, SourceError> {
    let canon = std::fs::canonicalize(path).map_err(|e| SourceError::io(path, e))?;
    let dir = canon.parent().unwrap_or(Path::new("/")).to_path_buf();
    let git = GitDates::lookup(&dir, std::slice::from_ref(&canon));
    let id = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.to_string_lossy().into_owned());
    // The name given decides the agent, in the folder it was given in (a link's own folder).
    let given_dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .canonicalize()
        .unwrap_or_else(|_| dir.clone());
    let parts = tool_parts(&given_dir.join(&id), ctx, &given_dir, Path::new(&id));
    let agent = notes_tool(&parts).unwrap_or("notes");
    match memory(id, agent, &canon, path, &git, ctx) {
        Ok(m) => Ok(vec![m]),
        Err(reason) => {
            ctx.problem(path, reason);
            Ok(Vec::new())
        }
    }
}

/// Loads every notes file under `dir`, honouring `.gitignore`, except for an agent tool's notes
/// file at `dir` itself (`CLAUDE.md`, `.cursorrules`, `.github/copilot-instructions.md`): people
/// ignore their own notes in git, and those are memories too ([`ignored_root_notes`]). A folder
/// with none is not a notes folder: that is an error, so a mistyped path does not look like a
/// clean run.
///
/// A file reached by several names (`CLAUDE.md` a link to `AGENTS.md`) is one memory, named
/// by the file itself when it is in the folder, else by its first link; the other names are
/// returned in `links`.
pub(crate) fn load_dir(dir: &Path, ctx: &mut Ctx, links: &mut Vec<Link>) -> Result<Vec<Memory>, SourceError> {
    let root = std::fs::canonicalize(dir).map_err(|e| SourceError::io(dir, e))?;
    let mut files: Vec<(PathBuf, PathBuf, String, &'static str)> = Vec::new(); // (canonical, shown, id, agent)
    let walked: Vec<PathBuf> = walk(dir).collect();
    let ignored = ignored_root_notes(dir, &walked);
    for found in walked.into_iter().chain(ignored) {
        let shown = dir.join(&found);
        match inside(&root, &shown) {
            Ok(canon) if canon.is_file() => {
                let id = rel_string(Path::new(""), &found).unwrap_or_default();
                // The name it was found under decides (`CLAUDE.md`, a link to `CONTRIBUTING.md`).
                let agent = notes_tool(&tool_parts(&root.join(&found), ctx, &root, &found)).unwrap_or("notes");
                files.push((canon, shown, id, agent));
            }
            Ok(_) => {}
            Err(why) => ctx.problem(&shown, why),
        }
    }
    if files.is_empty() && ctx.problems.is_empty() {
        return Err(SourceError::Unrecognised {
            path: dir.to_path_buf(),
            why: "the folder has no MEMORY.md, no contexts/memory/index.md and no notes files".into(),
        });
    }
    // One memory per file: the name that is the file itself (not a link; the walk follows
    // no folder links) wins over its links, else the first link in walk order.
    let mut keep: HashMap<PathBuf, usize> = HashMap::new();
    for (i, (canon, shown, _, _)) in files.iter().enumerate() {
        let itself = shown.symlink_metadata().is_ok_and(|m| !m.file_type().is_symlink());
        let kept = *keep.entry(canon.clone()).or_insert(i);
        if itself && files[kept].1.symlink_metadata().is_ok_and(|m| m.file_type().is_symlink()) {
            keep.insert(canon.clone(), i);
        }
    }
    for (i, (canon, shown, _, _)) in files.iter().enumerate() {
        let k = keep[canon];
        if k != i {
            links.push(Link { path: shown.clone(), same_as: files[k].2.clone() });
        }
    }
    let canon: Vec<PathBuf> = keep.keys().cloned().collect();
    let git = GitDates::lookup(&root, &canon);
    let mut out = Vec::with_capacity(keep.len());
    for (i, (canon, shown, id, agent)) in files.into_iter().enumerate() {
        if keep[&canon] != i {
            continue;
        }
        match memory(id, agent, &canon, &shown, &git, ctx) {
            Ok(mut m) => {
                if vendored_copy(&m.id) || in_a_site_theme(&root, &m.id) {
                    m.kind = memval_proto::VENDORED_KIND.into();
                } else if test_fixture(&m.id) {
                    m.kind = memval_proto::FIXTURE_KIND.into();
                } else if archived(&m.id)
                    || agent == "docs"
                        && (past_record(&m.id)
                            || stated_proposal(&m.id, &m.content)
                            || dated_report(&m.id, &m.content)
                            || dated_snapshot(&m.id, &m.content)
                            || reports_finished_work(&m.id, &m.content))
                {
                    m.kind = memval_proto::HISTORY_KIND.into();
                }
                out.push(m)
            }
            Err(reason) => ctx.problem(&shown, reason),
        }
    }
    Ok(out)
}

/// Whether a file found in a folder walk sits inside a static site's theme, as Hugo and Zola
/// keep one: a folder under `themes/` that holds the theme's `theme.toml`
/// (`docs/themes/adidoks/`). The theme is its author's project, copied in with the libraries it
/// bundles (Bootstrap's README in `sass/bootstrap/`), and its docs are about its own tree.
/// `root`: the folder walked; `id`: the path below it.
pub(crate) fn in_a_site_theme(root: &Path, id: &str) -> bool {
    let parts: Vec<&str> = id.split('/').collect();
    (1..parts.len().saturating_sub(1))
        .any(|i| parts[i - 1] == "themes" && root.join(parts[..=i].join("/")).join("theme.toml").is_file())
}

/// Whether a file found in a folder walk sits inside a vendored copy of another project: a
/// folder named as a package and its three-part release (`bootstrap-sass-3.4.1`,
/// `bordeaux-threads-0.9.4`, `zlib-v1.3.1`). Its README and docs are that project's, written
/// about its own tree. `id`: the path below the folder given.
pub(crate) fn vendored_copy(id: &str) -> bool {
    let release = |v: &str| {
        let v = v.strip_prefix('v').unwrap_or(v);
        let parts: Vec<&str> = v.split('.').collect();
        parts.len() == 3 && parts.iter().all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    };
    let versioned = |folder: &str| {
        folder.rsplit_once(['-', '_']).is_some_and(|(name, version)| {
            name.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) && release(version)
        })
    };
    id.split('/').rev().skip(1).any(versioned)
}

/// Folders of test inputs: a notes file or doc in one belongs to a make-believe project the
/// tests build (agi-cli's `tests/fixtures/project-resources/repo/.agents/skills/x/SKILL.md`).
const FIXTURES: &[&str] =
    &["fixtures", "fixture", "__fixtures__", "testdata", "test-data", "test_data", "test-fixtures"];

/// Whether a file found in a folder walk sits in a test fixture folder ([`FIXTURES`]).
/// `id`: the path below the folder given.
pub(crate) fn test_fixture(id: &str) -> bool {
    in_folder_named(id, FIXTURES)
}

/// Folders that keep what is no longer current (`docs/old/`, `archive/`, `obsolete/`): a
/// file in one, an agent's rules as much as a doc, describes the project as it was.
const ARCHIVES: &[&str] = &["old", "archive", "archived", "obsolete", "outdated"];

/// Whether a file found in a folder walk sits in an archive folder ([`ARCHIVES`]): its notes
/// or docs were set aside there, so they are read as records of the past whichever agent they
/// were written for (rebrgen's `docs/old/.clinerules/`). `id`: the path below the folder given.
pub(crate) fn archived(id: &str) -> bool {
    in_folder_named(id, ARCHIVES)
}

/// Whether one of the folders `id` sits in (not its file name) is one of `names`, in any case.
fn in_folder_named(id: &str, names: &[&str]) -> bool {
    let folders = id.rsplit_once('/').map_or("", |(dir, _)| dir);
    folders.split('/').any(|f| names.contains(&f.to_ascii_lowercase().as_str()))
}

/// Whether a doc found in a folder walk is a record of the past by design: a changelog,
/// release notes or a "what's new", a decision record, an RFC, a proposal or a plan, a
/// migration or upgrade guide, a postmortem, a blog post, an archive, a file or folder named by
/// its date, or the docs of a past version (`docs/1.x/`, Docusaurus' `versioned_docs/version-6.6/`).
/// What it says was true when written, or proposed; it is not read as a statement about
/// today's code. `id`: the path below the folder given.
pub(crate) fn past_record(id: &str) -> bool {
    const NAMES: &[&str] = &[
        "changelog",
        "changes",
        "history",
        "news",
        "releases",
        "release-notes",
        "release_notes",
        "releasenotes",
        "migrating",
        "migration",
        "upgrading",
        "upgrade",
        "migration-guide",
        "migration_guide",
        "upgrade-guide",
        "upgrade_guide",
        "whats-new",
        "whats_new",
        "whatsnew",
    ];
    const FOLDERS: &[&str] = &[
        "changelog",
        "changelogs",
        "changes",
        "release-notes",
        "releases",
        "adr",
        "adrs",
        "decisions",
        "decision-records",
        "architecture-decisions",
        "rfcs",
        "proposals",
        "migration",
        "migrations",
        "migration-guide",
        "migration_guide",
        "migration-guides",
        "upgrade-guide",
        "upgrade-guides",
        "rfc",
        "proposal",
        "plans",
        "postmortems",
        "upgrading",
        "blog",
        "posts",
        "archive",
        "archived",
        "history",
        "whatsnew",
        // Docusaurus keeps each release's docs, as they stood when it was cut, in
        // `versioned_docs/version-<release>/` (the current docs live elsewhere, in `docs/`).
        "versioned_docs",
    ];
    // A docs site's ordering prefix (`7.migrations/3.migration-0.7.md`, `02-changelog.md`) is
    // not part of the name.
    let parts: Vec<String> = id.split('/').map(|p| unordered(p).to_ascii_lowercase()).collect();
    let Some((file, folders)) = parts.split_last() else { return false };
    let stem = file.rsplit_once('.').map_or(file.as_str(), |(stem, _)| stem);
    let release = |v: &str| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    // `docs/1.x/` (an old major's docs) or `version-6.6/` (a release's, as Docusaurus names it).
    let old_version =
        |f: &str| f.strip_suffix(".x").is_some_and(release) || f.strip_prefix("version-").is_some_and(release);
    NAMES.contains(&stem)
        || part_named_as_record(stem)
        || dated(stem)
        || dated_within(stem)
        || folders.iter().any(|f| FOLDERS.contains(&f.as_str()) || old_version(f) || dated_folder(f))
}

/// A file or folder name without the number a docs site orders its pages by (Nuxt Content's
/// `3.migration-0.7.md`, `02-changelog.md`, `1_intro`): one to three digits and a `.`, `-` or
/// `_` before a word. A year (`2024-03-01-sync`) has four digits and an old major's docs
/// (`1.x`) no word: both are kept.
fn unordered(name: &str) -> &str {
    let digits = name.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &name[digits..];
    match rest.as_bytes() {
        [b'.' | b'-' | b'_', next, _, ..] if (1..=3).contains(&digits) && next.is_ascii_alphabetic() => &rest[1..],
        _ => name,
    }
}

/// A doc that is not a README and says at its top that it is a proposal at some stage
/// (`Status: implemented · 2026-08-21`): see `proposal.rs`.
fn stated_proposal(id: &str, text: &str) -> bool {
    let file = id.rsplit('/').next().unwrap_or(id).to_ascii_lowercase();
    !file.starts_with("readme") && crate::proposal::states_a_proposal(text)
}

/// A record of releases by a name that also says whose or which (`Changelog-Platform`,
/// `release-notes-3.0`, `platform_changelog`): one of the names no current-state document
/// takes, joined to the rest by `-`, `_` or `.`. Broader words (`history`, `migration`,
/// `upgrade`) name current guides and tools as often, so only their whole-name form counts, or
/// a guide's to a version (`upgrading-v4-to-v5`).
fn part_named_as_record(stem: &str) -> bool {
    const RECORDS: &[&str] = &[
        "changelog",
        "changelogs",
        "release-notes",
        "release_notes",
        "releasenotes",
        "whats-new",
        "whats_new",
        "whatsnew",
    ];
    let joined = |rest: &str, at_start: bool| {
        let mark = if at_start { rest.chars().next() } else { rest.chars().last() };
        matches!(mark, Some('-' | '_' | '.'))
    };
    // A guide from one version to another (`upgrading-v4-to-v5`, `migration-3.0`): the broader
    // words count when a version follows them.
    const VERSION_GUIDES: &[&str] = &["upgrading", "upgrade", "migrating", "migration", "migrate"];
    let versioned = |rest: &str| joined(rest, true) && rest.bytes().any(|b| b.is_ascii_digit());
    RECORDS.iter().any(|name| {
        stem.strip_prefix(name).is_some_and(|rest| joined(rest, true))
            || stem.strip_suffix(name).is_some_and(|rest| joined(rest, false))
    }) || VERSION_GUIDES.iter().any(|name| stem.strip_prefix(name).is_some_and(versioned))
}

/// A folder named by the day its write-ups are of: a full date at either end of its name
/// (`2024-03-01-sync`, `Optimized-2025-02-07`, `PerUserDataAudit2025-12-23`).
fn dated_folder(name: &str) -> bool {
    dated(name) || name.len() > 10 && name.get(name.len() - 10..).is_some_and(dated)
}

/// A file name that carries its day after its subject (`scanner-analysis-2026-08-16_zh`,
/// `audit_2025-03-01`): the date joined by `-` or `_`, and nothing after it but a language or
/// a short tag (`_zh`, `-v2`). A report of that day, true of the code it read then.
fn dated_within(stem: &str) -> bool {
    stem.char_indices().filter(|&(i, c)| i > 0 && matches!(c, '-' | '_')).any(|(i, _)| {
        let rest = &stem[i + 1..];
        let (Some(day), Some(tail)) = (rest.get(..10), rest.get(10..)) else { return false };
        dated(day) && (tail.is_empty() || (tail.starts_with(['-', '_']) && tail.len() <= 6))
    })
}

/// Whether `dir` holds at least one notes file (used by detection).
pub(crate) fn any_in(dir: &Path) -> bool {
    walk(dir).next().is_some() || !ignored_root_notes(dir, &[]).is_empty()
}

/// Notes files under `dir`, as paths relative to it, sorted for a stable load order. The
/// patterns are matched against the path below `dir`'s own name; `load_dir` matches again,
/// repo-relative, for the agent.
fn walk(dir: &Path) -> impl Iterator<Item = PathBuf> + '_ {
    let mut builder = WalkBuilder::new(dir);
    builder
        .hidden(false)
        .git_global(false)
        .require_git(false)
        .follow_links(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(|e| {
            e.depth() == 0
                || !e.file_type().is_some_and(|t| t.is_dir())
                || !skipped_dir(&e.file_name().to_string_lossy())
        });
    builder.build().filter_map(move |entry| {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                tracing::warn!(error = %e, "skipping an entry the folder walk could not read");
                return None;
            }
        };
        let ty = entry.file_type()?;
        if ty.is_dir() {
            return None;
        }
        let rel = entry.path().strip_prefix(dir).ok()?.to_path_buf();
        is_notes_file(dir, &rel).then_some(rel)
    })
}

/// The agent tools' notes files at `dir` itself that the walk left out (`.gitignore` names them:
/// a personal `CLAUDE.md`, a tracked file a later ignore rule covers), in a fixed order.
fn ignored_root_notes(dir: &Path, walked: &[PathBuf]) -> Vec<PathBuf> {
    memval_proto::tools::TOOL_FILES
        .iter()
        .map(|(name, _)| PathBuf::from(name))
        .chain(std::iter::once(PathBuf::from(".github/copilot-instructions.md")))
        .filter(|rel| !walked.contains(rel))
        .filter(|rel| dir.join(rel).symlink_metadata().is_ok_and(|m| m.is_file() || m.file_type().is_symlink()))
        .collect()
}

fn skipped_dir(name: &str) -> bool {
    SKIPPED_DIRS.contains(&name) || (name.starts_with('.') && tool_agent(name).is_none())
}

/// Whether `rel`, a path below the scanned folder `dir`, is one of the notes patterns (read
/// with `dir`'s own name in front, so `--memories .claude` still finds its commands).
pub(crate) fn is_notes_file(dir: &Path, rel: &Path) -> bool {
    let mut parts: Vec<String> = dir.file_name().map(|n| vec![n.to_string_lossy().into_owned()]).unwrap_or_default();
    parts.extend(rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()));
    notes_tool(&parts).is_some()
}

fn memory(id: String, agent: &str, canon: &Path, shown: &Path, git: &GitDates, ctx: &Ctx) -> Result<Memory, String> {
    let text = text::read_text(canon)?;
    // Front matter in a notes file is someone else's: a malformed block or date is not a
    // reason to skip the file, only to fall back to the commit date.
    let fm = frontmatter::split(&text).unwrap_or_else(|why| {
        tracing::debug!(path = %shown.display(), why = %why, "front matter ignored");
        None
    });
    let front = |keys: &[&str]| {
        let fm = fm.as_ref()?;
        let (key, value) = keys.iter().find_map(|k| fm.get(&[k]).map(|v| (*k, v)))?;
        let date = dates::parse_date(value);
        if date.is_none() {
            tracing::warn!(path = %shown.display(), key, value, "front matter date ignored, not a date");
        }
        date
    };
    let updated_at = front(UPDATED_KEYS).or_else(|| git.get(canon));
    let created_at = front(CREATED_KEYS);
    Ok(Memory {
        id,
        agent: agent.into(),
        content: text,
        tier: 0,
        kind: "notes".into(),
        created_at,
        updated_at,
        source: Source {
            path: shown.to_string_lossy().into_owned(),
            line: None,
            row: None,
            format: Format::Notes.as_str().into(),
        },
        context_dir: ctx.context_dir(canon),
        first_line: 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(path: &str) -> Option<&'static str> {
        let parts: Vec<String> = path.split('/').map(str::to_owned).collect();
        notes_tool(&parts)
    }

    fn check(path: &str, expected: bool) {
        assert_eq!(tool(path).is_some(), expected, "{path}");
    }

    #[test]
    fn notes_patterns() {
        check("CLAUDE.md", true);
        check(".claude/CLAUDE.md", true);
        check("services/api/AGENTS.md", true);
        check(".cursorrules", true);
        check(".github/copilot-instructions.md", true);
        check("copilot-instructions.md", false);
        check("README.md", true);
        check("pkg/readme.md", true);
        check("docs/guide/setup.md", true);
        check("api/docs/x.md", true);
        check("docs/diagram.png", false);
        check("notes/todo.md", false);
        check("CHANGELOG.md", false);
    }

    #[test]
    fn a_folder_given_directly_keeps_its_name() {
        assert!(is_notes_file(Path::new("/r/.claude"), Path::new("commands/x.md")));
        assert!(is_notes_file(Path::new("/r/.cursor"), Path::new("rules/x.mdc")));
        assert!(!is_notes_file(Path::new("/r/misc"), Path::new("commands/x.md")));
    }

    #[test]
    fn notes_in_a_test_fixture_are_the_fixtures() {
        assert!(test_fixture("apps/cli/tests/fixtures/project-resources/repo/.agents/skills/myskill/SKILL.md"));
        assert!(test_fixture("pkg/testdata/CLAUDE.md"));
        assert!(!test_fixture("fixtures.md"));
        assert!(!test_fixture("docs/fixtures-guide/AGENTS.md"));
    }

    #[test]
    fn notes_and_docs_set_aside_in_an_archive_folder_are_of_the_past() {
        assert!(archived("rebrgen/docs/old/.clinerules/directories.md"));
        assert!(archived("docs/Archive/setup.md"));
        assert!(archived("obsolete/CLAUDE.md"));
        // the file's own name is not its folder, and a word inside a name is not an archive
        assert!(!archived("old.md"));
        assert!(!archived("docs/old-api/CLAUDE.md"));
        assert!(!archived("src/holder/AGENTS.md"));
    }

    #[test]
    fn records_of_the_past_are_known_by_their_place() {
        for (id, past) in [
            ("CHANGELOG.md", true),
            ("docs/changelogs/changelog_1x.md", true),
            ("docs/decisions/0042-samples.md", true),
            ("docs/adr/0001-record.md", true),
            ("MIGRATING.md", true),
            ("docs/1.x/examples/index.md", true),
            ("docs/blog/posts/launch.md", true),
            ("docs/plans/6.0-typed-stock-movements.md", true),
            ("docs/latest/migration-guide/index.md", true),
            ("docs/rfc/0007-sessions.md", true),
            ("docs/whats_new.md", true),
            ("docs/superpowers/specs/2026-07-09-claude-agents-workflows-design.md", true),
            ("notes/2024-03-01_meeting.md", true),
            ("docs/2024-03-01.md", true),
            ("docs/2024-guide.md", false),
            ("docs/20240301-x.md", false),
            ("docs/latest/concepts/routing.md", false),
            ("docs/v2/guide.md", false),
            ("README.md", false),
            ("docs/history-of-nothing.md", false),
            ("docs/Changelog-Platform.md", true),
            ("docs/release-notes-3.0.md", true),
            ("platform_changelog.md", true),
            ("docs/changelogger.md", false),
            ("docs/migration-tool.md", false),
            ("docs/versioned_docs/version-6.6/configuration.md", true),
            ("website/version-5.9/guide.md", true),
            ("docs/docs/configuration.md", false),
            ("docs/version-history-tool.md", false),
            ("docs/docs/upgrading-v4-to-v5.md", true),
            ("docs/migration-3.0.md", true),
            ("docs/upgrade_to_2.md", true),
            ("docs/migrate-tool.md", false),
            ("docs/upgrades.md", false),
            // Design docs are read: many describe what was built ("As-built reference"); their
            // dated and review sections are left out by the extractor (`scan/past.rs`).
            ("docs/design_docs/flashinfer_moe_api.md", false),
            ("docs/design/architecture.md", false),
            ("docs/DeveloperDocs/Optimized-2025-02-07/Cron-Migration.md", true),
            ("docs/Security/PerUserDataAudit2025-12-23/report.md", true),
            ("docs/2025-01-10-retro/notes.md", true),
            ("docs/v2025/guide.md", false),
            ("docs/release-2025/guide.md", false),
            // A report named with its day after its subject.
            ("docs/operations/rustfs-heal-scanner-vs-minio-comprehensive-analysis-2026-08-16_zh.md", true),
            ("docs/audit_2025-03-01.md", true),
            ("docs/api-2024-01-01-reference-and-guide.md", false),
            ("docs/guide-v2.md", false),
            ("docs/设计-2026-08-16é.md", false),
            ("docs/é-2026-08-16_zh.md", true),
            // A docs site's ordering numbers are not part of the name.
            ("docs/content/7.migrations/3.migration-0.7.md", true),
            ("docs/02-changelog.md", true),
            ("docs/content/2.guide/1.getting-started.md", false),
            ("docs/3d-printing.md", false),
        ] {
            assert_eq!(past_record(id), past, "{id}");
        }
    }

    #[test]
    fn a_vendored_copy_is_known_by_its_folder() {
        for (id, vendored) in [
            ("apps/admin/priv/lib-src/bootstrap-sass-3.4.1/README.md", true),
            ("systems/bordeaux-threads-0.9.4/docs/content/atomics/make-atomic-integer.md", true),
            ("third/zlib-v1.3.1/README.md", true),
            ("libs/google_test_1.14.0/docs/primer.md", true),
            // The file's own name, a two-part version, or no name before it: not a copy.
            ("docs/release-1.2.3.md", false),
            ("docs/api-2.0/guide.md", false),
            ("docs/1.2.3/guide.md", false),
            ("docs/v2/guide.md", false),
            ("README.md", false),
        ] {
            assert_eq!(vendored_copy(id), vendored, "{id}");
        }
    }

    #[test]
    fn a_site_theme_is_known_by_its_manifest() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for (path, text) in [
            ("docs/themes/adidoks/theme.toml", "name = \"adidoks\"\n"),
            ("docs/themes/adidoks/sass/bootstrap/README.md", "# Bootstrap\n"),
            ("docs/themes/adidoks/README.md", "# AdiDoks\n"),
            ("docs/themes/plain/README.md", "# our own theme notes\n"),
        ] {
            std::fs::create_dir_all(root.join(path).parent().unwrap()).unwrap();
            std::fs::write(root.join(path), text).unwrap();
        }
        assert!(in_a_site_theme(root, "docs/themes/adidoks/sass/bootstrap/README.md"));
        assert!(in_a_site_theme(root, "docs/themes/adidoks/README.md"));
        // A folder of that name without the theme's manifest is the repository's own.
        assert!(!in_a_site_theme(root, "docs/themes/plain/README.md"));
        assert!(!in_a_site_theme(root, "docs/README.md"));
    }

    #[test]
    fn skipped_dirs() {
        assert!(skipped_dir("node_modules"));
        assert!(skipped_dir(".git"));
        assert!(skipped_dir(".venv"));
        assert!(!skipped_dir(".github"));
        assert!(!skipped_dir(".claude"));
        assert!(!skipped_dir(".cursor"));
        assert!(!skipped_dir(".agents"));
        assert!(skipped_dir(".vscode"));
        assert!(skipped_dir(".idea"));
        assert!(!skipped_dir("docs"));
    }
}
