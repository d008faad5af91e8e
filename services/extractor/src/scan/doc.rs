//! What the walk produces, and the limits that keep it cheap: one [`Sentence`] for each
//! sentence, tree row, listing entry, command or code line that mentions something, gathered
//! in a [`Doc`] for `claims` to rank.
//!
//! The mention budget. At most 4,096 mentions (paths, symbols, keys, line texts) per memory
//! (`MAX_MENTIONS`); a sentence's mentions refer to each other by index, so only whole lists are
//! cut (`Walker::push`). Past the budget the walk stops, and `Doc::unread` records the line it
//! stopped on and the memory's last line; the extractor reports them as `left_out`
//! (`not_checked`, `unread_text`).
//! Trees and listings are followed at most `MAX_NEST` levels deep, and code spans longer than
//! `MAX_SPAN` bytes are not looked at.

use memval_proto::ClaimType;

use crate::mentions::{ConfigMention, FileMention, LineTextMention, SymbolMention};

/// Mentions kept per memory, so hostile text cannot blow up memory or time.
pub(crate) const MAX_MENTIONS: usize = 4096;
/// Deepest tree or listing nesting followed.
pub(super) const MAX_NEST: usize = 64;
/// Longest code span looked at.
pub(super) const MAX_SPAN: usize = 512;

/// What a line of running text is: a sentence of prose or a heading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Prose,
    Heading,
}

/// A sentence (or a tree/code line) that mentions something.
#[derive(Debug, Clone)]
pub(crate) struct Sentence {
    pub line: u32,
    pub text: String,
    pub paragraph: u32,
    /// The file the enclosing section or list item is about (index into [`Doc::anchors`]).
    pub anchor: Option<usize>,
    pub files: Vec<FileMention>,
    pub symbols: Vec<SymbolMention>,
    pub configs: Vec<ConfigMention>,
    pub line_texts: Vec<LineTextMention>,
    pub behaviour: Option<ClaimType>,
    /// Files the sentence denies are there or are to be used (indices into `files`): no claim
    /// is made of them ([`super::negation`]).
    pub denied_files: Vec<usize>,
    /// Versions of a language or build tool the sentence states (`crate::versions`).
    pub versions: Vec<crate::versions::ToolVersion>,
    /// Files a code block's comment names as the file the block is written for (indices into
    /// `files`; `code_blocks::snippet_file`): their claims carry `Assertion::SnippetFile`.
    pub snippet_files: Vec<usize>,
}

impl Sentence {
    /// A code line's or a command's sentence: the files it names, nothing else.
    pub(super) fn of_files(line: u32, text: String, paragraph: u32, files: Vec<FileMention>) -> Sentence {
        Sentence {
            line,
            text,
            paragraph,
            anchor: None,
            files,
            symbols: Vec::new(),
            configs: Vec::new(),
            line_texts: Vec::new(),
            behaviour: None,
            denied_files: Vec::new(),
            versions: Vec::new(),
            snippet_files: Vec::new(),
        }
    }
}

#[derive(Debug, Default)]
pub(crate) struct Doc {
    pub sentences: Vec<Sentence>,
    pub anchors: Vec<FileMention>,
    /// When the memory names more than [`MAX_MENTIONS`] things: the line the scan stopped
    /// on and the memory's last line. What lies between is reported as not read.
    pub unread: Option<(u32, u32)>,
    /// Sections that record the past (`scan::past`): first line, last line, heading. Not
    /// read, and reported as such.
    pub past_sections: Vec<(u32, u32, String)>,
    /// Folders the text says a build writes into (`scan::outputs`): no path at or below them is
    /// a claim, and each is reported as not checked.
    pub outputs: Vec<Output>,
    /// Names the memory says are gone (`scan::gone`): no mention of them is a claim, and each
    /// is reported as not checked.
    pub gone: Vec<Gone>,
    /// Names a section takes as its worked example (`scan::worked`): no mention built from them
    /// in that section is a claim, and each is reported as not checked.
    pub examples: Vec<Example>,
    /// Files the memory has its reader make (`scan::made`): later mentions of their names, and
    /// names tied to them, are no claims, and each is reported as not checked.
    pub made: Vec<Made>,
    /// List items about another repository (`scan::elsewhere`): what the items under them name
    /// is no claim, and each is reported as not checked.
    pub elsewhere: Vec<Elsewhere>,
    /// Every heading read: its line and level.
    pub headings: Vec<(u32, usize)>,
}

/// A name the memory says is gone ("`X` was removed").
#[derive(Debug)]
pub(crate) struct Gone {
    /// The line that says so.
    pub line: u32,
    /// The name (a symbol, a key or a path), as written.
    pub name: String,
    /// How many other mentions of it the memory makes (the one that says it is gone is no
    /// claim already).
    pub mentions: usize,
}

/// A name a section walks through as its example ("using `rocRoller` as an example").
#[derive(Debug)]
pub(crate) struct Example {
    /// The line that says so.
    pub line: u32,
    /// The example's name.
    pub name: String,
    /// How many mentions of the section were built from it.
    pub mentions: usize,
}

/// A file the memory has its reader make ("Create `flashinfer/scale.py`:").
#[derive(Debug)]
pub(crate) struct Made {
    /// The line that makes it.
    pub line: u32,
    /// The path as written.
    pub path: String,
    /// Its file name.
    pub name: String,
    /// How many later mentions refer to it, or are tied to it.
    pub mentions: usize,
}

/// A list item that links another repository and leads into items naming its paths.
#[derive(Debug)]
pub(crate) struct Elsewhere {
    /// The item's line.
    pub line: u32,
    /// The repository it links (`owner/name`).
    pub repository: String,
    /// How many mentions the items under it make.
    pub mentions: usize,
}

/// A folder the memory says a build writes into.
#[derive(Debug)]
pub(crate) struct Output {
    /// The line that says so.
    pub line: u32,
    /// The folder, as its first reading (repository-relative).
    pub folder: String,
    /// How many mentions of the memory are at or below it.
    pub mentions: usize,
}
