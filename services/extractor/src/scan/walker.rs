//! The walker's state: what it has produced so far (the [`Doc`] and the mention budget left)
//! and what is in scope at the line being read (the section's folder or file, the open list
//! scopes, the tree nesting, the folder named most recently). The passes read and update this
//! state; [`Walker::push`] is the one way a sentence gets into the [`Doc`].

use std::collections::HashSet;

use crate::paths::{self, Demote};

use super::context::{context_of, home_names, named_roots, SKILL_BUNDLE_DIRS};
use super::doc::{Doc, Sentence, MAX_MENTIONS};

/// What a list item or a section is about: a folder (its readings), a file (index into
/// [`Doc::anchors`]), or another repository (index into [`Doc::elsewhere`]; list items only).
pub(super) enum Scope {
    Dir(Vec<String>),
    File(usize),
    Elsewhere(usize),
}

pub(super) struct ListScope {
    /// Content column of the item that opened the scope; deeper items are inside it.
    pub(super) col: usize,
    pub(super) scope: Scope,
}

/// An open entry of a tree diagram or listing.
pub(super) struct NestEntry {
    pub(super) col: usize,
    pub(super) name: String,
    /// A root that may be the project's own name: children also get a reading without it.
    pub(super) label: bool,
}

pub(super) struct PendingRoot {
    pub(super) line: u32,
    pub(super) name: String,
    /// Already claimed as a path by the line itself.
    pub(super) emitted: bool,
}

pub(super) struct Walker {
    /// Folders the memory names as the first segment of a path ([`named_roots`]).
    pub(super) roots: HashSet<String>,
    /// File names the memory places in the reader's home folder (`~/esp-idf-env.sh`,
    /// [`home_names`]): the same name written bare is that file.
    pub(super) home: HashSet<String>,
    /// Folders the memory declares its paths relative to ([`super::base`]).
    pub(super) declared: Vec<String>,
    /// The folder paths are read against besides the repo root (the notes file's, unless it
    /// is a tool folder or a skill: [`context_of`]).
    pub(super) context: Option<String>,
    /// For a docs folder inside a package (`web/docs/`), the package's folder (`web`): a
    /// package's docs name its paths from the package (`src/x.ts` is `web/src/x.ts`), read after
    /// `context`.
    pub(super) package: Vec<String>,
    /// Which paths are read from the repo root before `context` (decided once per memory).
    pub(super) context_demote: Demote,
    /// In a skill, the folders it bundles its files in: a bare name (`review.py`) is looked
    /// for there too, after the skill's own folder.
    pub(super) skill_bundle: Vec<String>,
    /// The notes file's own folder: where its relative links point.
    pub(super) file_dir: Option<String>,
    /// A Markdown page's URL folder on a docs site (`scan`'s `page_dir`).
    pub(super) page_dir: Option<String>,
    pub(super) doc: Doc,
    pub(super) paragraph: u32,
    pub(super) section_dir: Option<Vec<String>>,
    /// The folders of the sections this one is inside, by heading level ("### App Directory"
    /// on `app/` holds "#### Backend"): read after the section's own folder.
    pub(super) outer_dirs: Vec<(usize, Vec<String>)>,
    /// The open heading's level and title, while no running text has followed it yet: the
    /// first sentence may name the folder the section is about (`sections`).
    pub(super) fresh_heading: Option<(usize, String)>,
    pub(super) section_anchor: Option<usize>,
    pub(super) recent_dir: Option<Vec<String>>,
    pub(super) list: Vec<ListScope>,
    pub(super) nest: Vec<NestEntry>,
    /// A lone name on the previous line: the root of a tree, should one follow.
    pub(super) pending_root: Option<PendingRoot>,
    /// A command of a code block continued on the next line (`git submodule add \`): its first
    /// line's number and its words so far.
    pub(super) continued: Option<(u32, String)>,
    /// Where an earlier line of the open code block changed folder (`cd spiffworkflow-backend`):
    /// the block's later commands run there. `Some(None)`: somewhere the repository cannot say
    /// (`cd /tmp`). Reset when a code block opens or closes.
    pub(super) fence_cd: Option<Option<String>>,
    /// The folder the memory's last `git clone` made (`crate::clone`): a `cd` into it goes to
    /// the repository's root. Kept for the whole memory: install steps split over blocks.
    pub(super) cloned: Option<String>,
    /// The end of the last prose line when it runs on into the next (`scan::ported::run_on`),
    /// with its paragraph: the words before the next line's first mention start there.
    pub(super) carry: (u32, String),
    /// The carried words the sentence being read starts with (only a line's first sentence).
    pub(super) run_on: String,
    /// The line being read.
    pub(super) line_no: u32,
    pub(super) budget: usize,
    /// Under a line leading into a worked example ([`crate::config::hypothetical`]), until
    /// the next line of running text outside the list or heading: the values set there are
    /// the example's.
    pub(super) example: bool,
    /// Inside a section that records the past (`scan::past`): nothing is read until it ends.
    pub(super) past: Option<PastSection>,
    /// The lines of "Changelog" headings whose sections say how to keep the record, not the
    /// record itself (`record_rules`): read as any other section.
    pub(super) record_rules: std::collections::HashSet<u32>,
}

/// An open section that records the past (`scan::past`): its heading's level, first line and
/// title.
#[derive(Debug)]
pub(super) struct PastSection {
    pub(super) level: usize,
    pub(super) from: u32,
    pub(super) title: String,
}

/// Folders of a package's tests: a notes file in one (`pkg/test/README.md`) names paths from
/// the package (`example/README.md` is `pkg/example/README.md`).
const TEST_DIRS: &[&str] = &["test", "tests", "__tests__", "spec", "specs", "e2e", "integration_test", "testing"];

/// The folder a docs or tests folder sits in, when that is not the repository's root: `web`
/// for `web/docs` and `web/docs/guide`, `packages/x` for `packages/x/test`; `None` for
/// `docs/guide`, `test` or `.github`.
fn package_above_docs(dir: &str) -> Option<String> {
    let segments: Vec<&str> = dir.split('/').filter(|s| !s.is_empty()).collect();
    let docs = segments.iter().position(|s| paths::is_docs_dir(s) || TEST_DIRS.contains(s))?;
    (docs > 0).then(|| segments[..docs].join("/"))
}

impl Walker {
    /// A walker for one memory (`file_dir`: the notes file's folder, repo-relative), with
    /// what is decided once per memory ([`super::context`]) already decided.
    pub(super) fn new(content: &str, file_dir: Option<&str>) -> Self {
        let skill = file_dir.and_then(memval_proto::tools::skill_dir);
        let context = context_of(file_dir, skill.as_deref());
        Walker {
            roots: named_roots(content),
            home: home_names(content),
            declared: super::base::declared_bases(content),
            context_demote: match (&skill, &context) {
                (Some(_), _) => Demote::SkillRoots,
                (None, Some(c)) if paths::is_docs_dir(c) => Demote::Roots,
                _ => Demote::No,
            },
            skill_bundle: skill
                .map(|skill| SKILL_BUNDLE_DIRS.iter().map(|d| format!("{skill}/{d}")).collect())
                .unwrap_or_default(),
            package: context.as_deref().and_then(package_above_docs).into_iter().collect(),
            context,
            file_dir: file_dir.map(str::to_string),
            page_dir: None,
            doc: Doc::default(),
            paragraph: 0,
            section_dir: None,
            outer_dirs: Vec::new(),
            fresh_heading: None,
            section_anchor: None,
            recent_dir: None,
            list: Vec::new(),
            nest: Vec::new(),
            pending_root: None,
            continued: None,
            fence_cd: None,
            cloned: None,
            carry: (0, String::new()),
            run_on: String::new(),
            line_no: 0,
            budget: MAX_MENTIONS,
            example: false,
            past: None,
            record_rules: super::record_rules::how_to_keep(content),
        }
    }

    /// A blank line, a fence opening or closing: a new paragraph, and no tree continues.
    pub(super) fn block_break(&mut self) {
        // A command whose last line still asked for more ends with its block.
        if let Some((line_no, command)) = self.continued.take() {
            self.command_program(&command, line_no);
        }
        self.paragraph += 1;
        self.nest.clear();
    }

    pub(super) fn push(&mut self, mut sentence: Sentence) {
        // A sentence's mentions refer to each other by index, so only whole lists are cut;
        // past the budget the memory is hostile and the rest of it is ignored anyway.
        if sentence.files.len() + sentence.symbols.len() + sentence.configs.len() > self.budget {
            sentence.symbols.clear();
            sentence.configs.clear();
            sentence.line_texts.clear();
            sentence.behaviour = None;
            sentence.files.truncate(self.budget);
        }
        let n = sentence.files.len() + sentence.symbols.len() + sentence.configs.len() + sentence.line_texts.len();
        if n > 0 {
            self.budget = self.budget.saturating_sub(n);
            self.doc.sentences.push(sentence);
        }
    }
}
