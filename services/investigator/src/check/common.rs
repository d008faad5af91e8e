//! Leaf helpers every check imports: the evidence's wording (lists, clipped text, short
//! commit ids, kinds of file), example paths, kinds of file a rename may keep, closest candidate.
//! It imports no other module of `check`.

use memval_proto::{Outcome, Verdict};

use crate::index::{basename, FileKind};
use crate::similar::shared_dirs;

/// Largest number of candidates quoted in an AMBIGUOUS verdict's evidence.
pub(super) const MAX_LISTED: usize = 4;

/// Extensions of pages a docs link may name without (`../guide` for `guide.md`).
pub(super) const PAGE_EXTENSIONS: &[&str] = &["md", "mdx", "markdown", "rst", "html", "htm"];

/// Whether a file of extension `ext` (lower case) is one people read rather than one a build
/// reads: a page, plain text or AsciiDoc.
pub(super) fn read_by_people(ext: &str) -> bool {
    PAGE_EXTENSIONS.contains(&ext) || matches!(ext, "txt" | "adoc")
}

pub(super) fn checked(verdict: Verdict, confidence: u8, evidence: String, successor: Option<String>) -> Outcome {
    Outcome::Checked { verdict, confidence, evidence, successor, since: None }
}

/// Of a path's readings (as resolved, relative to the notes' folder, from the root), the one
/// closest to what the memory wrote: the fewest folders, then the shortest.
pub(super) fn as_written<'r>(readings: impl IntoIterator<Item = &'r str>) -> &'r str {
    readings
        .into_iter()
        .map(|p| p.trim().trim_start_matches("./").trim_end_matches('/'))
        .min_by_key(|p| (p.matches('/').count(), p.len()))
        .unwrap_or("")
}

/// Words that stand for any name in examples (`foo.py`, `FooTests.swift`, `acme.rb`).
pub(crate) const PLACEHOLDER_WORDS: &[&str] =
    &["foo", "bar", "baz", "qux", "quux", "xxx", "yyy", "zzz", "acme", "whatever"];

/// Kinds of thing whose `Name` stands for any one of them in a path (`stepName.go`,
/// `componentName.tsx`).
const STAND_IN_KINDS: &[&str] = &[
    "step",
    "file",
    "class",
    "component",
    "module",
    "tool",
    "plugin",
    "package",
    "feature",
    "service",
    "project",
    "command",
    "resource",
    "function",
    "model",
    "page",
    "widget",
    "your",
    "my",
];

/// Why a path is written as an example rather than a reference: the `path/to/` of
/// instructions, the `foo`/`bar` of examples, a `my_feature`/`your-app`/`yourImplementation`/
/// `new_op`/`NewWidget`/`newStep`/`stepName`/`script_name`/`FILENAME`/`mymodule` stand-in, one with `my`/`your` as a word of its name (`test_integration_my_agent.py`),
/// a file named by its kind alone (`Component.svelte`), or one stamped with the time a generator makes it
/// (`20260220123456_add_metadata.exs`).
/// `None` for anything else (the caller asks only about paths nothing in the repo is named like).
pub(crate) fn placeholder_path(path: &str) -> Option<&'static str> {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    if segments.windows(2).any(|w| w[0].eq_ignore_ascii_case("path") && w[1].eq_ignore_ascii_case("to")) {
        return Some("`path/to/` stands for any path");
    }
    for segment in &segments {
        let lower = segment.to_ascii_lowercase();
        let stem = lower.split('.').next().unwrap_or(&lower);
        if stem.split(['_', '-']).any(|w| PLACEHOLDER_WORDS.contains(&w)) {
            return Some("`foo`, `bar` and the like are example names");
        }
        let original_stem = segment.split('.').next().unwrap_or(segment);
        // `myFeature`, `MyRule`, `YourComponent`, `SomePage` (not `MYSQL`, `Mycelium`,
        // `Something`).
        let camel_stand_in = ["my", "My", "your", "Your", "some", "Some", "New"].iter().any(|p| {
            original_stem.starts_with(p) && original_stem[p.len()..].starts_with(|c: char| c.is_ascii_uppercase())
        });
        // A word of the name that stands for the reader's own thing: `newStep`, `newTool`
        // (`integration_newTool_test.go`), or a kind of thing and `Name` (`stepName_test.go`).
        let word_stand_in = original_stem.split(['_', '-']).any(|w| {
            w.strip_prefix("new").is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()))
                || w.strip_suffix("Name").is_some_and(|kind| STAND_IN_KINDS.contains(&kind))
        });
        // The same kind and name as words of a whole name, or in capitals as a template's
        // blank is written: `script_name.py`, `file-name.md`, `FILENAME.rb`, `CLASS_NAME.java`.
        let capitals = original_stem.bytes().any(|b| b.is_ascii_uppercase())
            && !original_stem.bytes().any(|b| b.is_ascii_lowercase());
        let kind_and_name = |name: &str| {
            name.strip_suffix("name")
                .map(|kind| kind.trim_end_matches(['_', '-']))
                .is_some_and(|kind| (kind.is_empty() && capitals) || STAND_IN_KINDS.contains(&kind) || kind == "script")
        };
        let named_blank = (original_stem == stem || capitals) && kind_and_name(stem);
        // A file named by its kind alone, as a class is (`Component.svelte`, `Page.tsx`): any
        // one of them. Lowercase names are conventions some frameworks give real files
        // (`app/login/page.tsx`), so they are not read so.
        let kind_alone = segments.last() == Some(segment)
            && original_stem.len() > 1
            && original_stem.starts_with(|c: char| c.is_ascii_uppercase())
            && original_stem[1..].bytes().all(|b| b.is_ascii_lowercase())
            && STAND_IN_KINDS.contains(&stem)
            && !matches!(stem, "my" | "your");
        if kind_alone {
            return Some("a file named by its kind alone (`Component`, `Page`) stands for any one of them");
        }
        // `20260220123456_add_metadata.exs`: a name stamped with the moment a generator made it
        // (a migration), shown as what the command makes.
        let digits = original_stem.bytes().take_while(u8::is_ascii_digit).count();
        if segments.last() == Some(segment) && digits >= 12 && original_stem[digits..].starts_with(['_', '-']) {
            return Some("a name stamped with the time a generator makes it (a migration) is an example of its output");
        }
        // `file_spec.rb`, `test_module.py`, `component.test.tsx`: a test named for a kind of
        // thing alone stands for any test (`rspec spec/file_spec.rb:123`).
        if segments.last() == Some(segment) {
            let without_ext = lower.rsplit_once('.').map_or(lower.as_str(), |(stem, _)| stem);
            let words: Vec<&str> = without_ext.split(['_', '-', '.']).filter(|w| !w.is_empty()).collect();
            let tests = words.iter().filter(|w| matches!(**w, "test" | "tests" | "spec" | "specs")).count();
            if tests == 1
                && words.len() == 2
                && words.iter().any(|w| STAND_IN_KINDS.contains(w) && !matches!(*w, "my" | "your"))
            {
                return Some("a test named for a kind of thing alone (`file_spec.rb`) stands for any test");
            }
        }
        // `changed_file.rb`, `changed_file_spec.rb`: the files the reader changed, as a command
        // run on them shows them.
        let changed_file = ["changed", "modified", "edited", "touched", "affected"].iter().any(|w| {
            stem.strip_prefix(w).is_some_and(|rest| {
                ["_file", "-file"]
                    .iter()
                    .any(|f| rest.strip_prefix(f).is_some_and(|tail| tail.is_empty() || tail.starts_with(['_', '-'])))
            })
        });
        if changed_file {
            return Some("a `changed_file` name stands for the files the reader changed");
        }
        // `mymodule.ext.c`, `yourapp`: the reader's word run into a kind of thing.
        let run_together = ["my", "your"].iter().any(|p| {
            stem.strip_prefix(p)
                .is_some_and(|kind| STAND_IN_KINDS.contains(&kind) || matches!(kind, "app" | "lib" | "repo" | "crate"))
        });
        if ["my_", "my-", "your_", "your-", "some_", "some-", "new_", "new-"].iter().any(|p| stem.starts_with(p))
            || run_together
            || stem.split(['_', '-']).skip(1).any(|w| matches!(w, "my" | "your"))
            || stem.rsplit_once(['_', '-']).is_some_and(|(_, last)| last == "new")
            || camel_stand_in
            || word_stand_in
            || named_blank
        {
            return Some("a `my_...`/`your_...`/`new_...` name stands for the reader's own");
        }
    }
    None
}

/// Whether two extensions are one kind of file, so a file can be renamed from one to the
/// other and stay the same file: one language's variants (`js`/`ts`/`tsx`, `c`/`cpp`/`h`),
/// spellings (`yml`/`yaml`), doc formats (a Cursor rule's `.mdc` is Markdown with a header).
/// Compared without case.
pub(crate) fn same_kind_of_file(a: &str, b: &str) -> bool {
    const KINDS: &[&[&str]] = &[
        &["js", "jsx", "ts", "tsx", "mjs", "cjs", "mts", "cts"],
        &["py", "pyi", "pyx"],
        &["c", "h", "cc", "hh", "cpp", "hpp", "cxx", "hxx"],
        &["java", "kt", "kts", "scala", "groovy"],
        &["sh", "bash", "zsh"],
        &["yml", "yaml"],
        &["json", "jsonc", "json5"],
        &["md", "mdx", "mdc", "markdown", "rst", "adoc", "txt"],
        &["html", "htm"],
        &["css", "scss", "sass", "less"],
        &["ex", "exs"],
        &["toml", "ini", "cfg", "conf"],
    ];
    let (a, b) = (a.to_ascii_lowercase(), b.to_ascii_lowercase());
    a == b || KINDS.iter().any(|kind| kind.contains(&a.as_str()) && kind.contains(&b.as_str()))
}

/// Prose (Markdown, text, HTML): it describes code and settings, it proves nothing of them.
pub(super) fn is_prose(path: &str) -> bool {
    let ext = basename(path).rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    matches!(ext.as_deref(), Some("md" | "markdown" | "mdx" | "mdc" | "txt" | "rst" | "adoc" | "html" | "htm"))
}

pub(crate) fn list(candidates: &[String]) -> String {
    let mut shown: Vec<&str> = candidates.iter().take(MAX_LISTED).map(String::as_str).collect();
    if candidates.len() > MAX_LISTED {
        shown.push("...");
    }
    shown.join(", ")
}

pub(super) fn short(commit: &str) -> &str {
    &commit[..commit.len().min(10)]
}

/// Whether `name` occurs in `text` as a whole identifier.
pub(super) fn identifiers_contain(text: &str, name: &str) -> bool {
    !name.is_empty() && crate::index::identifiers(text).any(|w| w == name)
}

pub(super) fn kind_name(kind: FileKind) -> &'static str {
    match kind {
        FileKind::Text => "file",
        FileKind::Binary => "binary file",
        FileKind::Huge => "file (too large to index)",
        FileKind::Symlink => "symlink",
        FileKind::BrokenSymlink => "symlink whose target does not exist",
        FileKind::Special => "special file (FIFO, socket or device; never read)",
    }
}

pub(super) fn slice_lines(text: &str, first: u32, last: u32) -> String {
    text.lines()
        .skip(first.saturating_sub(1) as usize)
        .take((last.saturating_sub(first) + 1) as usize)
        .collect::<Vec<_>>()
        .join("\n")
}

pub(super) fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub(super) fn clip(s: &str) -> String {
    let s = s.trim();
    if s.chars().count() <= 60 {
        s.to_owned()
    } else {
        format!("{}…", s.chars().take(60).collect::<String>())
    }
}

pub(super) fn nearest_line(lines: &[&str], wanted: &str, around: u32) -> Option<u32> {
    lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.trim() == wanted)
        .map(|(i, _)| i as u32 + 1)
        .min_by_key(|&l| (i64::from(l) - i64::from(around)).abs())
}

/// The candidate sharing the most leading folders (then the longest common suffix) with
/// `path`, if exactly one is best.
pub(super) fn best_candidate(path: &str, candidates: &[String]) -> Option<String> {
    let score = |c: &str| {
        let suffix = path.rsplit('/').zip(c.rsplit('/')).take_while(|(a, b)| a == b).count();
        (suffix, shared_dirs(path, c))
    };
    let best = candidates.iter().map(|c| score(c)).max()?;
    let mut top = candidates.iter().filter(|c| score(c) == best);
    let first = top.next()?;
    if top.next().is_none() {
        Some(first.clone())
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rename_keeps_the_kind_of_file() {
        let cases = [
            ("js", "ts", true),
            ("JSX", "tsx", true),
            ("yml", "yaml", true),
            ("md", "mdx", true),
            ("mdc", "md", true),
            ("h", "cpp", true),
            ("rs", "rs", true),
            ("rs", "rb", false),
            ("py", "rs", false),
            ("ts", "json", false),
            ("md", "py", false),
        ];
        for (a, b, want) in cases {
            assert_eq!(same_kind_of_file(a, b), want, "{a} {b}");
        }
    }

    #[test]
    fn example_paths_are_told_from_paths() {
        let cases: &[(&str, bool)] = &[
            ("path/to/file.ts", true),
            ("src/Path/To/x.rs", true),
            ("tests/path/test_foo.py", true),
            ("foo_tools.go", true),
            ("tests/specs/my_feature/main.ts", true),
            ("your-app/config.yml", true),
            ("tests/integrations/test_integration_my_agent.py", true),
            ("common/archiver/yourImplementation/historyArchiver.go", true),
            ("Sources/Rules/MyRule.swift", true),
            ("Tests/Rules/MyRuleTests.swift", true),
            ("src/components/YourComponent.tsx", true),
            ("flashinfer/jit/new_op.py", true),
            ("csrc/new_op_jit_binding.cu", true),
            ("src/widgets/NewWidget.tsx", true),
            ("src/news/feed.ts", false),
            ("src/Newton.rs", false),
            ("app/assets/js/pages/SomePage/", true),
            ("src/Something.ts", false),
            ("docs/MYSQL.md", false),
            ("src/Mycelium.swift", false),
            ("src/myriad/mypy_plugin.py", false),
            ("src/yourself.rs", false),
            ("src/utils/path.ts", false),
            ("src/food/barrel.ts", false),
            ("crates/mystery/lib.rs", false),
            ("docs/some.md", false),
            ("internal/ui/model/chat.go", false),
            ("cmd/stepName_test.go", true),
            ("cmd/stepName_generated.go", true),
            ("cmd/newStep.go", true),
            ("integration/integration_newTool_test.go", true),
            ("vars/newStep.groovy", true),
            ("src/newsletter.ts", false),
            ("src/renewToken.ts", false),
            ("src/userName.ts", false),
            ("src/fileNames.ts", false),
            ("src/lib/Component.svelte", true),
            ("src/pages/Page.tsx", true),
            ("app/login/page.tsx", false),
            ("src/Component/index.ts", false),
            ("src/COMPONENT.md", false),
            ("src/ComponentList.tsx", false),
            ("apps/explorer/priv/repo/migrations/20260220123456_add_metadata_to_blocks.exs", true),
            ("db/migrate/20240101120000-create-users.js", true),
            ("db/migrate/2024_01_01_create_users.php", false),
            ("data/123_items.json", false),
            ("script/fix_whatever.rb", true),
            ("script_name.py", true),
            ("docs/file-name.md", true),
            ("FILENAME.rb", true),
            ("src/CLASS_NAME.java", true),
            ("NAME", true),
            ("src/name.rs", false),
            ("src/username.rs", false),
            ("src/rename.rs", false),
            ("src/hostname.go", false),
            ("src/ScriptName.cs", false),
            ("README.md", false),
            (".azure/applications/web-api-new", true),
            ("src/renew.ts", false),
            ("src/new.ts", false),
            ("lib/mongoid/changed_file.rb", true),
            ("spec/mongoid/changed_file_spec.rb", true),
            ("src/changed_files.rs", false),
            ("src/changelog_file.rs", false),
            ("spec/file_spec.rb", true),
            ("tests/test_module.py", true),
            ("src/component.test.tsx", true),
            ("spec/user_spec.rb", false),
            ("tests/test_file_io.py", false),
            ("src/files_spec.rb", false),
        ];
        for (path, example) in cases {
            assert_eq!(placeholder_path(path).is_some(), *example, "{path}");
        }
    }

    #[test]
    fn best_candidate_prefers_the_closest_path() {
        let c = vec!["a/x/lru.go".to_owned(), "b/cache/lru.go".to_owned()];
        assert_eq!(best_candidate("internal/cache/lru.go", &c), Some("b/cache/lru.go".into()));
        assert_eq!(best_candidate("lru.go", &c), None);
    }
}
