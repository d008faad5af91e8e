//! The document walker: reads memory text line by line, follows its markdown structure
//! (sections, paragraphs, list nesting, fences, trees) and collects what each sentence
//! mentions: files, symbols, config keys, line contents.
//!
//! [`scan`] dispatches each line: front matter ([`front_matter`]), fenced code
//! ([`code_blocks`], which hands tree rows and listing entries to [`trees`] and commands to
//! [`command_lines`]), headings and list items ([`sections`]), tree rows ([`trees`]),
//! commands written as prose ([`command_lines`]), and running text, read one sentence at a
//! time by `Walker::sentence` in these passes, in this order:
//!
//! 1. [`spans`]: the code spans (commands, paths, assignments, candidate names);
//! 2. [`links`]: the markdown link targets;
//! 3. [`words`]: the paths among the words of the running text;
//! 4. [`keys`]: which assignments are settings (a config file among the paths counts);
//! 5. [`found`]: a path inside another (a code span inside a link) dropped, the budget kept;
//! 6. [`scope`]: each path's readings against the folders in scope, except links written
//!    `./x`, read from the notes file's folder ([`links`]);
//! 7. [`line_refs`]: the line each file is cited at; then the line contents and the keys of
//!    the running text (`mentions`);
//! 8. [`names`]: the symbols, tied to the nearest file; the names declared on a cited line
//!    ([`line_refs`]); the keys tied to the nearest config file ([`keys`]);
//! 9. [`behavioural`]: a sentence without settings or line contents as a behavioural or
//!    architectural claim;
//! 10. [`negation`]: what the sentence denies ("no longer in `Kernel.php`", "NOT `spec/`") is
//!     no claim: its symbols and keys are dropped, its files marked `denied_files`; so is
//!     what a port was made from ("ports legacy's `x.rs`", [`ported`]), the words before it
//!     taken from the previous line when the sentence wraps (`Walker::carry`);
//! 11. [`outputs`]: a folder the sentence says a build writes into ("output to `bin/`") is
//!     recorded; once the walk ends, every file mention at or below such a folder, in any
//!     sentence, is marked `denied_files` too;
//! 12. [`gone`]: a name the sentence says is gone ("`X` has been removed", "`Y` was replaced
//!     by ...") is recorded; once the walk ends, every mention of it in the same section, its
//!     heading included, is no claim (the memory already says it is not there);
//! 13. [`worked`]: a name the sentence takes as its example ("using `rocRoller` as an
//!     example") is recorded; once the walk ends, the mentions built from it in the rest of
//!     its section are no claims;
//! 14. [`elsewhere`]: under a list item that links another repository and leads into the
//!     items below it ("**Common**: https://github.com/org/common. Contains:"), nothing a line
//!     names is a claim: its files are marked `denied_files`, its symbols and keys dropped;
//! 15. [`made`]: a file the sentence has the reader make ("Create `flashinfer/scale.py`:") is
//!     recorded; once the walk ends, later mentions of its file name, and the names tied to it
//!     as a section's or list item's file, are no claims.
//!
//! A line of running text that supposes something and ends with `:` ("Let's say we have
//! version `0.47.0`:", [`config::hypothetical`]) leads into a worked example: the settings of
//! the list under it, up to the next running text outside the list or heading, are the
//! example's and none is a claim.
//!
//! The walker's state is in [`walker`] (what is in scope, what was produced so far), what the
//! walk produces in [`doc`], what is decided once per memory in [`context`] and [`base`] (a
//! folder the memory declares its paths relative to, read for each path after it as written).
//!
//! Modules depend on each other in one direction only: this module uses the passes; the
//! passes use [`walker`], [`doc`], [`found`], [`context`] and [`base`], which use none of them; and
//! [`code_blocks`] and [`sections`] use [`trees`] and [`command_lines`], never the other way
//! round.

mod base;
mod behavioural;
mod code_blocks;
mod command_lines;
mod context;
mod diagrams;
mod doc;
mod elsewhere;
mod found;
mod front_matter;
mod gone;
mod keys;
mod line_refs;
mod links;
mod made;
mod names;
mod negation;
mod outputs;
mod past;
mod ported;
mod record_rules;
mod scope;
mod sections;
mod spans;
mod trees;
mod walker;
mod words;
mod worked;

use std::ops::Range;

use crate::markdown::{self, Fence};
use crate::mentions::{clean_text, config_mentions, line_contents, Line};
use crate::paths;
use crate::{commands, config};

pub(crate) use doc::{Doc, Sentence, MAX_MENTIONS};

use doc::Kind;
use found::Found;
use front_matter::FrontMatter;
use walker::Walker;

/// The most of a sentence running over several lines that is carried to the next line.
const CARRIED_BYTES: usize = 400;

/// `file_dir`: the notes file's folder, repo-relative (`None` at the root or outside the repo);
/// `page_dir`: for a Markdown page, the folder its URL names on a docs site (`docs/guide/setup`
/// for `docs/guide/setup.md`), where `../x` may point too.
pub(crate) fn scan(content: &str, file_dir: Option<&str>, page_dir: Option<&str>) -> Doc {
    let mut w = Walker::new(content, file_dir);
    w.page_dir = page_dir.map(str::to_string);
    let mut fence: Option<Fence> = None;
    let mut fence_line = 0;
    let mut last_read = 0;
    let mut front = FrontMatter::default();
    let lines: Vec<&str> = content.split('\n').collect();
    let cut = unclosed_fence_end(&lines);
    for (i, raw) in lines.iter().copied().enumerate() {
        if w.budget == 0 {
            break;
        }
        let line_no = u32::try_from(i + 1).unwrap_or(u32::MAX);
        last_read = line_no;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if front.skips(i, line) {
            continue;
        }
        // A fence never closed ends where the text turns back into a document's sections.
        if cut == Some(i) && fence.take().is_some() {
            w.fence_cd = None;
            w.block_break();
        }
        match fence.take() {
            Some(f) if f.closes(line) => {
                w.fence_cd = None;
                w.block_break()
            }
            Some(f) => {
                if w.past.is_none() {
                    w.code_line(line, line_no, &f, line_no == fence_line + 1);
                }
                fence = Some(f);
            }
            None => match markdown::fence_open(line) {
                Some(f) => {
                    w.block_break();
                    w.fence_cd = None;
                    fence = Some(f);
                    fence_line = line_no;
                }
                // `**.envrc:**` over a block: the label of a sample file, not read.
                None if code_blocks::snippet_label(line) && block_follows(&lines[i + 1..]) => w.block_break(),
                None => w.text_line(line, line_no),
            },
        }
    }
    let last = u32::try_from(content.split('\n').count()).unwrap_or(u32::MAX);
    w.end_past(last_read);
    if w.budget == 0 {
        w.doc.unread = Some((last_read, last));
    }
    outputs::deny_below_outputs(&mut w.doc);
    gone::forget_gone(&mut w.doc);
    worked::forget_examples(&mut w.doc);
    made::forget_made(&mut w.doc);
    w.doc
}

/// Where a code fence the text never closes ends (an index into `lines`): at the first heading
/// of level two or more after a blank line (`## Test Structure`), where the writer went back to
/// the document and forgot the closing fence; a renderer would show the rest as code, but what
/// follows is sections of the notes. `None` when every fence closes, or no such heading follows.
fn unclosed_fence_end(lines: &[&str]) -> Option<usize> {
    let mut open: Option<(Fence, usize)> = None;
    for (i, raw) in lines.iter().enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        open = match open.take() {
            Some((f, _)) if f.closes(line) => None,
            Some(o) => Some(o),
            None => markdown::fence_open(line).map(|f| (f, i)),
        };
    }
    let (_, at) = open?;
    let heading = |l: &str| {
        let hashes = l.bytes().take_while(|&b| b == b'#').count();
        (2..=6).contains(&hashes) && l[hashes..].starts_with(' ') && l[hashes..].trim().len() > 1
    };
    (at + 2..lines.len()).find(|&i| lines[i - 1].trim().is_empty() && heading(lines[i]))
}

/// Whether a code fence opens on the next line, or after one blank line.
fn block_follows(rest: &[&str]) -> bool {
    let mut rest = rest.iter().map(|l| l.strip_suffix('\r').unwrap_or(l));
    match rest.next() {
        Some(l) if l.trim().is_empty() => rest.next().is_some_and(|l| markdown::fence_open(l).is_some()),
        Some(l) => markdown::fence_open(l).is_some(),
        None => false,
    }
}

impl Walker {
    /// A line outside code fences: blank, a heading, a tree row, a command, or running text
    /// (a list item's or a paragraph's).
    fn text_line(&mut self, line: &str, line_no: u32) {
        let line = markdown::strip_blockquote(line);
        if line.trim().is_empty() {
            self.block_break();
            return;
        }
        if let Some((level, text)) = markdown::heading_level(line) {
            self.outer_dirs.retain(|(l, _)| *l < level);
            self.close_section();
            self.doc.headings.push((line_no, level));
            if self.past_heading(level, text, line_no) {
                return;
            }
            if !text.is_empty() {
                self.prose(text, line_no, Kind::Heading, None);
            }
            // A heading that names a folder scopes its own section only (a page's title
            // `# exec/` names the page's own folder); a section the first sentence puts on a
            // folder holds its sub-sections too (`sections::subject_folder`).
            if self.section_dir.is_none() {
                self.fresh_heading = Some((level, text.to_lowercase()));
            }
            return;
        }
        if self.past.is_some() {
            return;
        }
        // An indented block's line of one past run (a debugger's stack frame): not read.
        if code_blocks::is_log_record(line) {
            return;
        }
        if markdown::is_tree_line(line) && self.tree_line(line, line_no) {
            return;
        }
        let (content, item_col) = self.list_item(line);
        if content.trim().is_empty() {
            return;
        }
        // Running text outside a list ends a worked example; it may lead into another.
        let outside_list = item_col.is_none() && markdown::indent_width(line) == 0;
        if outside_list {
            self.example = false;
        }
        if commands::is_prose_command(content) {
            self.command_program(content, line_no);
            return;
        }
        let first = self.doc.sentences.len();
        self.prose(content, line_no, Kind::Prose, item_col);
        if let Some(heading) = self.fresh_heading.take().filter(|_| outside_list) {
            self.subject_folder(&heading, first);
        }
        if outside_list && config::hypothetical(content) {
            self.example = true;
        }
    }

    /// A heading or a line of running text: an intro prefix, each sentence, then what the
    /// line opens for the lines after it.
    fn prose(&mut self, content: &str, line_no: u32, kind: Kind, item_col: Option<usize>) {
        self.line_no = line_no;
        let line = Line::new(content);
        let single = !content.trim().contains(char::is_whitespace);
        let opened = self.intro_prefix(&line, kind, item_col);
        let first = self.doc.sentences.len();
        let ranges = markdown::sentences(&line.masked, &line.spans);
        // Where the line's last sentence starts: the one that introduces what follows.
        let last = ranges.last().map_or(0, |r| r.start);
        let (paragraph, carried) = std::mem::take(&mut self.carry);
        for (i, range) in ranges.into_iter().enumerate() {
            if self.budget == 0 {
                break;
            }
            // The first sentence continues the previous line's, in the same paragraph.
            self.run_on = if i == 0 && paragraph == self.paragraph { carried.clone() } else { String::new() };
            self.sentence(&line, range, line_no, kind, single);
        }
        self.run_on.clear();
        if kind == Kind::Prose {
            // A sentence running over several lines carries all of them, so a list that began
            // two lines up ("consolidated from three pages\n(`a.md`, `b.md`,\n`c.md`)") is read
            // with its opening words (the last few hundred bytes of it).
            let tail = ported::run_on(content);
            let whole = !tail.is_empty() && tail == content.trim();
            let tail = if whole && paragraph == self.paragraph && !carried.is_empty() {
                let joined = format!("{carried} {tail}");
                let mut from = joined.len().saturating_sub(CARRIED_BYTES);
                while !joined.is_char_boundary(from) {
                    from += 1;
                }
                joined[from..].to_owned()
            } else {
                tail
            };
            self.carry = (self.paragraph, tail);
        }
        self.scopes_after(content, first, kind, item_col, (single, opened), last);
    }

    /// One sentence (`range` of `line`): its paths, keys, line contents, symbols and whether
    /// it states behaviour, each found by its pass (see the module docs).
    fn sentence(&mut self, line: &Line<'_>, range: Range<usize>, line_no: u32, kind: Kind, single: bool) {
        let orig = line.orig;
        let text = &orig[range.clone()];
        let cue = config::has_cue(text);
        let env_cue = config::has_env_cue(text);
        let spans = line.spans_in(&range);

        let mut found = Found::default();
        self.code_spans(line, &range, spans, kind, &mut found);
        links::links(line, &range, &mut found);
        self.words(line, &range, single, &mut found);
        let config_file = found.names_config_file();
        let mut configs = keys::settings(std::mem::take(&mut found.assignments), cue, config_file);
        found.drop_nested();
        found.drop_repository_slugs(orig);
        found.truncate(self.budget);
        let Found { raw, mut cands, own_relative, root_relative, linked, .. } = found;

        let mut files = self.resolve(orig, raw);
        self.own_relative_readings(&mut files, &own_relative);
        self.tool_folder_link_readings(&mut files, &linked);
        Self::root_relative_readings(&mut files, &root_relative);
        self.page_relative_readings(&mut files);
        line_refs::line_numbers(orig, &range, &mut files);

        let text_kind = matches!(kind, Kind::Prose | Kind::Heading);
        let mut line_texts = Vec::new();
        if text_kind {
            line_texts = line_contents(orig, &range, &files, &mut cands);
            config_mentions(line, &range, cue, env_cue, config_file, &mut cands, &mut configs);
        }
        let mut syms = Vec::new();
        if text_kind {
            syms = names::symbols(line, &range, &files, &cands, &configs);
        }

        names::tie_to_files(orig, &files, &mut syms);
        line_refs::declared_names(&files, &line_texts, &mut syms);
        keys::tie_to_files(orig, &files, &mut configs);
        let behaviour = (kind == Kind::Prose && configs.is_empty() && line_texts.is_empty())
            .then(|| behavioural::classify(orig, &range, spans, &files, &syms))
            .flatten();
        // What the sentence says is not there, or not to be used, is no claim that it exists.
        // Nor is what a port was made from ("ports legacy's `x.rs`"), whatever line it began on.
        // Only a sentence with a port word, here or on the line it runs on from, is read for one.
        let may_port = ported::mentions_a_port(&self.run_on) || ported::mentions_a_port(&orig[range.clone()]);
        let ported_from = |start: usize| {
            may_port && {
                let before = format!("{} {}", self.run_on, orig.get(range.start..start).unwrap_or(""));
                ported::port_source(&before)
            }
        };
        let denied_files: Vec<usize> = if text_kind {
            (0..files.len())
                .filter(|&i| {
                    negation::denied(orig, &range, files[i].start, files[i].end)
                        || ported_from(files[i].start)
                        // Read on the whole line: brackets may hold more than one sentence
                        // ("(not committed; local `docs/superpowers/`)").
                        || negation::untracked(orig, &(0..orig.len()), files[i].start, files[i].end)
                })
                .collect()
        } else {
            Vec::new()
        };
        if text_kind {
            // A file the sentence has the reader make: later mentions of it are the reader's.
            for &i in &denied_files {
                let f = &files[i];
                if !paths::folder_like(&f.tok) && negation::made(orig, &range, f.start, f.end) {
                    made::record(&mut self.doc, line_no, &f.tok.path);
                }
            }
            let output = |f: &&crate::mentions::FileMention| {
                paths::folder_like(&f.tok)
                    && (outputs::written_into(orig, &range, f.start)
                        || outputs::described_as_output(orig, &range, f.end)
                        || outputs::labelled_as_output(orig))
            };
            for f in files.iter().filter(output) {
                if let Some(folder) = f.readings.first() {
                    self.doc.outputs.push(doc::Output { line: line_no, folder: folder.clone(), mentions: 0 });
                }
            }
            // A name the memory says is gone is no claim in that section (`gone`).
            let said_gone = |start: usize, end: usize| {
                negation::said_gone(orig, &range, start, end) || negation::renamed_before(orig, &range, start, end)
            };
            for name in gone::names_where(&files, &syms, &configs, said_gone) {
                gone::record(&mut self.doc, line_no, &name);
            }
            // "`wdbx.rs` is now the `wdbx/` directory", "consolidated from `a.md`, `b.md`":
            // the old names.
            let became = |f: &&crate::mentions::FileMention| negation::became_other(orig, &range, f.start, f.end);
            // Only a sentence with such words, here or on the lines it runs on from, is read
            // mention by mention.
            let may_source = negation::names_a_source(&format!("{} {}", self.run_on, &orig[range.clone()]));
            let sources = |start: usize, _: usize| {
                may_source
                    && negation::named_as_source(&format!(
                        "{} {}",
                        self.run_on,
                        orig.get(range.start..start).unwrap_or("")
                    ))
            };
            let old: Vec<String> = files
                .iter()
                .filter(became)
                .map(|f| f.raw.clone())
                .chain(gone::names_where(&files, &syms, &configs, sources))
                .collect();
            for name in old {
                gone::record(&mut self.doc, line_no, &name);
            }
            // "To add a new submodule, using `rocRoller` as an example:": the section's example.
            if let Some(name) = worked::example_name(text) {
                worked::record(&mut self.doc, line_no, name);
            }
            // "References below to `TuiLogger`, `IsolatedLogger` ... are historical": every name
            // of the paragraph so far.
            if gone::says_historical(text) {
                let here = gone::names_where(&files, &syms, &configs, |_, _| true);
                gone::record_paragraph(&mut self.doc, self.paragraph, line_no, here);
            }
            // A name tied to a file the sentence denies or has the reader make (`def execute()`
            // in "Create debug files like `debug.py` with `def execute():`") is that file's.
            syms.retain(|s| {
                !negation::denied(orig, &range, s.start, s.end)
                    && !negation::added_new(orig, &range, s.start, s.end)
                    && !ported_from(s.start)
                    && !s.file.is_some_and(|f| denied_files.contains(&f))
            });
            configs.retain(|c| !negation::denied(orig, &range, c.start, c.end));
        }

        // Under a list item about another repository, nothing the line names is of this one.
        let (mut denied_files, mut behaviour) = (denied_files, behaviour);
        let elsewhere = self.elsewhere();
        if let Some(k) = elsewhere {
            self.doc.elsewhere[k].mentions += files.len() + syms.len() + configs.len();
            denied_files = (0..files.len()).collect();
            syms.clear();
            configs.clear();
            line_texts.clear();
            behaviour = None;
        }

        // Nor is a folder it names one a later bare name of this repository is read in.
        if let Some(dir) = files.iter().rfind(|f| paths::folder_like(&f.tok)).filter(|_| elsewhere.is_none()) {
            self.recent_dir = Some(dir.readings.clone());
        }
        if self.example {
            configs.clear();
        }
        // A tool's version stated in running text of this repository, outside a worked example.
        let versions = if kind == Kind::Prose && elsewhere.is_none() && !self.example {
            crate::versions::tool_versions(&orig[range.clone()])
        } else {
            Vec::new()
        };
        let has_mentions = !(files.is_empty() && syms.is_empty() && configs.is_empty() && versions.is_empty());
        self.push(Sentence {
            line: line_no,
            text: if has_mentions { clean_text(text) } else { String::new() },
            paragraph: self.paragraph,
            anchor: self.anchor(),
            files,
            symbols: syms,
            configs,
            line_texts,
            behaviour,
            denied_files,
            versions,
            snippet_files: Vec::new(),
        });
    }
}
