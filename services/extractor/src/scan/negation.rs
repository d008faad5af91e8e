//! Mentions a sentence denies: "middleware are no longer registered in `app/Http/Kernel.php`",
//! "Do NOT use `current_family`", "there is no `Justfile`", "`test/` (NOT `spec/`)", "`X` was
//! removed", "none of `X`", "No legacy `X` paths remain", and what a change takes away ("Replace `X` with ...", "drop `X`",
//! "deprecate `X`", "`X` removed",
//! "`old`→`new`": the left side of an arrow, in a sentence about a change), and what a reader or a command is to make ("Create a
//! file named `build.config.js`", "`init` also creates an `appwrite.json`": the file a step
//! makes, whether or not one by that name is in the repository), or what a rule forbids making ("Do not add a generic
//! `features/` directory"). Such a sentence says the thing is not there, or not to be used: it makes no claim
//! that it exists, so no claim is made of the mention (a word that is no claim is not listed
//! either; the sentence's other mentions are read as usual). Only the clause around the mention counts, and only words about being there or
//! being used: "Never edit `gen.rs`" and "Do not modify `build.rs`" still say the file exists.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

/// Words before a mention, in its clause, that deny it is there or is to be used.
const BEFORE: &[&str] = &[
    "no longer",
    "not use",
    "n't use",
    "never use",
    "not call",
    "n't call",
    "instead of",
    "rather than",
    "there is no",
    "there are no",
    "there's no",
    "none of",
    // What a change takes away ([`NEAR`]): "Replace `StockMovement` with typed kinds",
    // "drop `ShippingCategory`", "Migrate `Spree::Promotion` from ...".
    "replace",
    "replaces",
    "replacing",
    "drop",
    "drops",
    "dropping",
    "remove",
    "removes",
    "removing",
    "rename",
    "renames",
    "renaming",
    "migrate",
    "migrates",
    "migrating",
    "deprecate",
    "deprecates",
    "deprecating",
    "not",
    "no",
];

/// Verbs of a change that takes the mention away; they deny only a mention within two words
/// after them.
const NEAR: &[&str] = &[
    "replace",
    "replaces",
    "replacing",
    "drop",
    "drops",
    "dropping",
    "remove",
    "removes",
    "removing",
    "rename",
    "renames",
    "renaming",
    "migrate",
    "migrates",
    "migrating",
    "deprecate",
    "deprecates",
    "deprecating",
];

/// Words after a mention, in its clause, that say it is gone.
const AFTER: &[&str] = &[
    "is no longer",
    "are no longer",
    "no longer exists",
    "was removed",
    "were removed",
    "has been removed",
    "have been removed",
    "was deleted",
    "has been deleted",
    "does not exist",
    "doesn't exist",
    "do not exist",
    "don't exist",
    "is gone",
    "is deprecated",
    "are deprecated",
    "was replaced",
    "has been replaced",
];

/// The bare participles of a list of what a change took away ("PgSearch + `add_search_scope`
/// removed (6.0)"). They say the mention is gone only when they are about it, not about what it
/// holds: "`legacy/` contains deprecated modules" says `legacy/` is there ([`HOLDS`]).
const TAKEN_AWAY: &[&str] = &["removed", "dropped", "deleted", "deprecated", "replaced", "renamed"];

/// Words after a mention that make a later participle describe what the mention holds or is
/// used for, not the mention: "contains deprecated modules", "with renamed fields", "lists
/// removed APIs".
const HOLDS: &[&str] = &[
    "contains", "contain", "holds", "hold", "includes", "include", "keeps", "keep", "lists", "list", "stores", "store",
    "tracks", "track", "with", "of", "for", "marks", "mark", "flags", "flag",
];

/// Words that place a mention outside the repository ("`examples/` ... are **not** stored in
/// this repository"): after it in its clause, or in the comment of its tree row.
const ELSEWHERE: &[&str] = &[
    "not stored in this repository",
    "not part of this repository",
    "not included in this repository",
    "not in this repository",
];

/// Whether `text` (emphasis marks aside) says what it is about is not in this repository.
pub(super) fn said_elsewhere(text: &str) -> bool {
    let text = text.to_lowercase().replace(['*', '_'], "");
    let text = format!(" {} ", text.split_whitespace().collect::<Vec<_>>().join(" "));
    ELSEWHERE.iter().any(|cue| text.contains(&format!(" {cue}")))
}

/// Verbs of making: the mention they are about is what a step makes, not what is there. Not
/// "generate": a generated file is often kept in the repository ("used to generate
/// [the interface](../testdata/Vm.sol)"), and then the text does say it is there.
/// "Writes `REPORT.md` at the target root", "produces a `coverage.xml`": a step or a tool that
/// writes a file out makes it.
const MAKE: &[&str] = &["create", "creates", "creating", "write", "writes", "produce", "produces"];

/// Words that may stand between a verb of making and what it makes: "create a new file named
/// `x`", "creates your own `y`", "create files like `x`", "such as", "e.g."; one other word
/// may stand among them too ("Create debug files like `x`").
const MAKE_FILLER: &[&str] = &[
    "a",
    "an",
    "the",
    "new",
    "your",
    "own",
    "empty",
    "file",
    "files",
    "folder",
    "folders",
    "directory",
    "directories",
    "named",
    "called",
    "also",
    "like",
    "such",
    "as",
    "e",
    "g",
];

/// How far from a mention its clause is read, in bytes.
const WINDOW: usize = 160;

/// Where a clause ends: a mention's denial does not reach past these.
fn clause_break(c: char) -> bool {
    matches!(c, '.' | ';' | ':' | ',' | '(' | ')' | '—' | '–' | '|' | '!' | '?')
}

/// The words of the mention's clause before it, lower-cased, and the window it sits in.
fn clause_words(orig: &str, range: &Range<usize>, start: usize, end: usize) -> Option<(Vec<String>, usize, usize)> {
    let (from, to) = window(orig, range, start, end)?;
    let before = &orig[from..start];
    let clause_start =
        before.rfind(clause_break).map_or(0, |i| i + before[i..].chars().next().map_or(1, char::len_utf8));
    let before = before[clause_start..].to_lowercase();
    let words = before
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect();
    Some((words, from, to))
}

/// Whether the sentence `orig[range]` has its reader (or a command) make the mention: "Create
/// `x`", "creates an `appwrite.json`", a step's "(e.g., `tests/test_x.py`)".
pub(super) fn made(orig: &str, range: &Range<usize>, start: usize, end: usize) -> bool {
    clause_words(orig, range, start, end).is_some_and(|(words, from, _)| makes(&words, &orig[from..start]))
}

/// Whether a clause's words before a mention (`before`: the sentence's text before it) make it.
/// "update or create `.claude/` files" offers making as one choice: the thing may be there.
fn makes(words: &[String], before: &str) -> bool {
    let verb = words
        .iter()
        .enumerate()
        .rev()
        .filter(|(_, w)| !MAKE_FILLER.contains(&w.as_str()))
        .take(2)
        .find(|(_, w)| MAKE.contains(&w.as_str()));
    let alternative = |i: usize| i > 0 && words[i - 1] == "or";
    // "Create in `crates/db/migrations/`": a place after the verb is where things are made,
    // not what is.
    let a_place = words.last().is_some_and(|w| PLACE.contains(&w.as_str()));
    verb.is_some_and(|(i, _)| !alternative(i) && !a_place) || example_of_a_step(before)
}

/// Prepositions that make the mention after them a place: "create in `x/`", "create under `y/`".
const PLACE: &[&str] = &["in", "into", "inside", "under", "within", "at"];

/// Whether a clause's words before a folder have the reader write files out in it: "Create plan
/// files in `./plans/`", "Save screenshots into `out/shots/`". The folder is where new files
/// go, made when the first one is: it need not be there already. "Add tests to `tests/`" is
/// no such clause (adding to a folder says it is there).
fn makes_files_in(words: &[String]) -> bool {
    const VERBS: &[&str] = &["create", "write", "save", "store", "put", "place", "generate"];
    // What is written out, not code of the repository's structure ("Create tests in
    // `tests/unit/`" says where tests live).
    const WRITTEN: &[&str] =
        &["files", "documents", "docs", "notes", "plans", "reports", "logs", "screenshots", "artifacts", "outputs"];
    let (Some(first), Some(last)) = (words.first(), words.last()) else { return false };
    words.len() <= 6
        && VERBS.contains(&first.as_str())
        && matches!(last.as_str(), "in" | "into" | "under" | "inside")
        && words.iter().any(|w| WRITTEN.contains(&w.as_str()))
}

/// Verbs of adding that a prohibition puts before what it forbids making.
const ADD: &[&str] = &["add", "introduce", "create", "make", "put"];

/// Whether a clause's words before a mention forbid making it: "Do not add a generic
/// `features/` directory", "never introduce a `utils.py`", "don't create `x/`". What is not to
/// be made is, if anything, not there; "Do not add to `routes.ts`" is no such clause (the
/// mention is where to add, not what).
fn forbids_making(words: &[String]) -> bool {
    let verb = words
        .iter()
        .enumerate()
        .rev()
        .filter(|(_, w)| {
            !MAKE_FILLER.contains(&w.as_str()) && !matches!(w.as_str(), "generic" | "separate" | "another")
        })
        .take(1)
        .find(|(_, w)| ADD.contains(&w.as_str()));
    verb.is_some_and(|(i, _)| i > 0 && matches!(words[i - 1].as_str(), "not" | "never" | "don't" | "dont"))
}

/// Whether a name is new code a step has its reader write: the clause opens with "Add" or
/// "Introduce" as an instruction and the name is what it adds ("- [ ] Add `detectFormat()`
/// helper function", a plan's "| `htfs/delegates.go` | Add `detectFormat()`, update ..."), not
/// where it adds to ("Add `@Transactional` to service methods", "add in `bar.go`"), nor
/// something about a name that is there ("Add `Foo` tests", "add `Bar` import"). For names
/// only: a file named after "Add" is often where the addition goes ("add `CHANGELOG.md` entry").
pub(super) fn added_new(orig: &str, range: &Range<usize>, start: usize, end: usize) -> bool {
    /// What is added for or about a name, which is there already.
    const ABOUT: &[&str] = &[
        "test",
        "tests",
        "import",
        "imports",
        "support",
        "entry",
        "entries",
        "docs",
        "documentation",
        "example",
        "examples",
        "call",
        "calls",
        "usage",
        "handling",
        "check",
        "checks",
        "coverage",
        "mock",
        "mocks",
    ];
    let Some((words, _, to)) = clause_words(orig, range, start, end) else { return false };
    let kept: Vec<&str> = words.iter().map(String::as_str).filter(|w| !MAKE_FILLER.contains(w)).collect();
    let after = &orig[end..to.max(end)];
    let clause = after[..after.find(clause_break).unwrap_or(after.len())].to_lowercase();
    let mut after_words = clause.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty());
    let about = after_words.clone().next().is_some_and(|w| ABOUT.contains(&w));
    let elsewhere = after_words.any(|w| matches!(w, "to" | "into" | "in" | "on" | "onto" | "inside" | "under"));
    matches!(kept.as_slice(), ["add" | "introduce"]) && !about && !elsewhere
}

/// Whether the sentence `orig[range]` denies the mention at `start..end`.
pub(super) fn denied(orig: &str, range: &Range<usize>, start: usize, end: usize) -> bool {
    let Some((words, from, to)) = clause_words(orig, range, start, end) else { return false };
    if makes(&words, &orig[from..start]) || forbids_making(&words) {
        return true;
    }
    let folder = orig[start..end].trim_end_matches(['`', '*', '_']).ends_with('/');
    if folder && makes_files_in(&words) {
        return true;
    }
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let joined = format!(" {} ", words.join(" "));
    if BEFORE.iter().any(|cue| cue_in(&joined, cue)) {
        // A bare "not" or "no" denies only the mention right after it ("NOT `spec/`", "no
        // `Makefile`"): "Do not modify `build.rs`" says `build.rs` is there. A verb of change
        // denies the mention within two words after it ("Replace generic `StockMovement`"),
        // not a later one ("rename a field in `schema.rb`"). The longer cues deny what follows
        // them in the clause.
        let near = |cue: &str| matches!(cue, "not" | "no") || NEAR.contains(&cue);
        let short_only = BEFORE.iter().filter(|cue| cue_in(&joined, cue)).all(|cue| near(cue));
        let last = |n: usize| words.iter().rev().take(n).any(|w| NEAR.contains(w));
        if !short_only || words.last().is_some_and(|w| matches!(*w, "not" | "no")) || last(2) {
            return true;
        }
    }
    none_remain(&words, &orig[end..to.max(end)])
        || gone_after(&orig[end..to.max(end)], &orig[range.clone()])
        || listed_then_gone(orig, from, start, end, to)
}

/// Whether a mention in a parenthesised list is gone by what the clause says right after the
/// list: "in-place mutators (`set_type`, `redirect_`, `clear_type`) are removed in favor of
/// ...". Only a list of mentions and commas: "(see `x.rs`; it was removed)" is read as usual.
fn listed_then_gone(orig: &str, from: usize, start: usize, end: usize, to: usize) -> bool {
    let list_sep = |c: char| clause_break(c) && c != ',';
    let before = &orig[from..start];
    let Some(open) = before.rfind('(') else { return false };
    if before[open + 1..].contains(list_sep) {
        return false;
    }
    let after = &orig[end..to.max(end)];
    let Some(close) = after.find(')') else { return false };
    !after[..close].contains(list_sep) && GONE.is_match(&after[close + 1..])
}

/// Verbs that, in a clause opening with "No", say none of what it names is left: "No legacy
/// `tasks/broad/` or `tasks/skylab/` import paths remain".
const REMAIN: &[&str] = &["remain", "remains", "left", "survive", "survives", "exist", "exists"];

/// Whether the clause around a mention opens with "No" (`words`: its words before the mention)
/// and says, after it (`after`), that none is left: the sentence tells of a removal, it does
/// not say the thing is there.
fn none_remain(words: &[&str], after: &str) -> bool {
    if words.first() != Some(&"no") {
        return false;
    }
    let clause_end = after.find(clause_break).unwrap_or(after.len());
    after[..clause_end].to_lowercase().split(|c: char| !c.is_alphanumeric()).any(|w| REMAIN.contains(&w))
}

/// Whether a mention is the example a step gives of what it makes: right after "e.g.", "for
/// example", "such as" or "like", in a clause that opens with a verb of making as an instruction
/// ("Create a benchmark file in `benchmarks/` (e.g., `benchmarks/bench_scale.py`)", "Add a test
/// under `tests/`, for example `tests/test_x.py`"). `before`: the sentence's text before the
/// mention.
fn example_of_a_step(before: &str) -> bool {
    const STEP: [&str; 5] = ["create", "add", "write", "make", "put"];
    let Some(cue) = EXAMPLE_CUE.find(before) else { return false };
    let head = before[..cue.start()].trim_end_matches(['(', ',', ' ', '\t']);
    let clause = head.rfind(['.', ';', ':', '!', '?', '\n', '(', ',']).map_or(head, |i| &head[i + 1..]);
    let mut words = clause.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase);
    let first = words.next().unwrap_or_default();
    // "Add tests to the dialect's test file (e.g., `tests/test_x.py`)": the example is where
    // they go, which is there, not what the step makes.
    STEP.contains(&first.as_str()) && !words.any(|w| w == "to" || w == "into")
}

/// An example cue right before a mention: "(e.g., ", ", for example ", " such as ", " like ".
static EXAMPLE_CUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:\(|,|\s)\s*(?:e\.\s?g\.?|eg|for\s+example|for\s+instance|such\s+as|like)[\s,:]*`?$")
        .expect("valid regex")
});

/// Whether the sentence `orig[range]` says the mention at `start..end` is gone: the words
/// after it, in its clause ("`SentryTracingExtension` has been deprecated ... and finally
/// removed", "`setDefaultLocale` has been replaced by ...").
/// A name the memory itself says is gone is no claim wherever else the memory names it
/// (`scan::gone`).
///
/// Only a statement counts here, not a list's bare "removed" ("`cleanup.sh` deleted old
/// branches" is what a script did): a form of "be" before the verb ("was removed", "has been
/// deprecated", "is now replaced"), "no longer exists", "does not exist", "is gone". Not an
/// arrow: `A` → `B` may map one thing to another as well as rename it.
pub(super) fn said_gone(orig: &str, range: &Range<usize>, start: usize, end: usize) -> bool {
    clause_after_matches(orig, range, start, end, &GONE)
}

/// Whether the words after the mention at `start..end`, up to the end of its clause, match `re`.
fn clause_after_matches(orig: &str, range: &Range<usize>, start: usize, end: usize, re: &Regex) -> bool {
    let Some((_, to)) = window(orig, range, start, end) else { return false };
    let after = &orig[end..to.max(end)];
    let clause_end = after.find(clause_break).unwrap_or(after.len());
    re.is_match(&after[..clause_end])
}

/// Whether the words right before a mention say it was renamed or moved away ("we renamed the
/// `antrea-windows-containerd.yml` manifest to ...", "moved `lib/old.rs` into ..."): the mention is
/// the old name. Only the past tense: "Rename `X` to `Y`" asks for a change, and `X` is there.
pub(super) fn renamed_before(orig: &str, range: &Range<usize>, start: usize, end: usize) -> bool {
    let Some((from, _)) = window(orig, range, start, end) else { return false };
    let before = orig[from..start].trim_end_matches(['`', '"', '\'', '*', ' ']).to_lowercase();
    let words: Vec<&str> = before.split_whitespace().rev().take(3).collect();
    let past = |w: &str| matches!(w, "renamed" | "moved" | "relocated");
    match words.as_slice() {
        [w, ..] if past(w) => true,
        [det, w, ..] if past(w) && matches!(*det, "the" | "our" | "its" | "their") => true,
        _ => false,
    }
}

/// Whether the text around a mention says it is not in the repository by design: its clause,
/// or the brackets it stands in, says it is not committed, untracked or ignored ("(not
/// committed; local `docs/superpowers/`)", "`.env.local` is gitignored"). Such a path is the
/// reader's own, on their machine: no claim that the repository has it.
pub(super) fn untracked(orig: &str, range: &Range<usize>, start: usize, end: usize) -> bool {
    let Some((from, to)) = window(orig, range, start, end) else { return false };
    let before = &orig[from..start];
    let after = &orig[end..to.max(end)];
    // The brackets the mention stands in, else its clause.
    let open = before.rfind('(').filter(|&i| !before[i..].contains(')'));
    let close = after.find(')').filter(|&i| !after[..i].contains('('));
    let (left, right) = match (open, close) {
        (Some(o), Some(c)) => (&before[o..], &after[..c]),
        _ => {
            let l = before.rfind(clause_break).map_or(before, |i| &before[i..]);
            // A relative clause on the mention belongs to it ("`x`, which is gitignored").
            let relative = after.trim_start_matches(['`', '*', ' ']).strip_prefix(',').map(str::trim_start);
            let after = relative.filter(|r| r.starts_with("which ")).unwrap_or(after);
            let r = after.find(clause_break).map_or(after, |i| &after[..i]);
            (l, r)
        }
    };
    UNTRACKED.is_match(left) || UNTRACKED.is_match(right)
}

/// Words that say a path is kept out of the repository.
static UNTRACKED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:not\s+(?:committed|checked\s+in|tracked|versioned|in\s+git)|uncommitted|untracked|never\s+committed|git-?ignored|ignored\s+by\s+git)\b")
        .expect("valid regex")
});

/// Whether the words right after a path say it turned into something else ("`wdbx.rs` is now
/// the `wdbx/` module directory", "`utils.py` became the `utils/` package"): the path is the
/// old one. Only for paths: "`Foo` is now a trait" says the name is still there, changed.
pub(super) fn became_other(orig: &str, range: &Range<usize>, start: usize, end: usize) -> bool {
    clause_after_matches(orig, range, start, end, &BECAME)
}

/// "is now the/a/an ...", "became", "has become", right after the mention.
static BECAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^[\s`*_]*(?:(?:is|are)\s+now\s+(?:the|a|an)\b|became\b|(?:has|have)\s+become\b)")
        .expect("valid regex")
});

/// Whether `text` holds words that name what a thing was made from ([`named_as_source`]).
pub(super) fn names_a_source(text: &str) -> bool {
    SOURCE_OF.is_match(text)
}

/// Whether a mention is one of what a thing was made from, as the words `before` it say (the
/// sentence up to the mention, with the words it runs on from on the line before): "consolidated
/// from three stub tutorials (`a.md`,\n`b.md`)", "merged from `x.md`", "replaces `old.rs`",
/// "formerly `OldName`". The names after such words are the old ones, listed (commas, brackets
/// and code spans may stand between) within the same sentence.
pub(super) fn named_as_source(before: &str) -> bool {
    let mut from = before.len().saturating_sub(2 * WINDOW);
    while !before.is_char_boundary(from) {
        from += 1;
    }
    let before = &before[from..];
    let Some(cue) = SOURCE_OF.find_iter(before).last() else { return false };
    // Between the words and the mention, outside code spans: no end of a sentence or clause
    // but the commas and brackets of a list.
    let plain: String = before[cue.end()..].split('`').step_by(2).collect();
    !plain.contains(['.', ';', ':', '!', '?', '—'])
}

/// Words that name what a thing was made from, or replaced.
static SOURCE_OF: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:(?:consolidated|merged|combined|migrated)\s+from|replaces|replacing|supersedes|formerly)\b")
        .expect("valid regex")
});

/// Words of a sentence about a change of names or places.
static CHANGE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:renam\w*|mov(?:e|ed|es|ing)|migrat\w*|replac\w*|deprecat\w*|became|becomes|formerly|previous|previously|old|now|collaps\w*|consolidat\w*|rewrit\w*|switch\w*|chang\w*)\b",
    )
    .expect("valid regex")
});

/// A statement that the thing before it is gone, right after it (one word may stand between:
/// "`X` option was removed"), or gone from here ("`X` will be moved into knife").
static GONE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)^\W*(?:[\w'-]+\s+)?(?:
            (?:is|are|was|were|has\s+been|have\s+been|had\s+been|got|gets|will\s+be)\s+(?:\w+\s+)?
              (?:removed|deleted|dropped|deprecated|replaced|renamed|retired|superseded|moved\s+(?:in)?to|moved\s+out)\b
          | no\s+longer\s+exists?\b | (?:does|do)\s+not\s+exist\b | (?:is|are)\s+gone\b
        )",
    )
    .expect("valid regex")
});

/// The bytes of the sentence `range` read around the mention at `start..end`: a clause is short,
/// so at most [`WINDOW`] bytes each way, and a hostile line of thousands of mentions costs each
/// of them a constant, not the whole line. `None` when the mention is not inside the sentence.
fn window(orig: &str, range: &Range<usize>, start: usize, end: usize) -> Option<(usize, usize)> {
    if start < range.start || end > range.end || start > end {
        return None;
    }
    let mut from = start.saturating_sub(WINDOW).max(range.start);
    while !orig.is_char_boundary(from) {
        from += 1;
    }
    let mut to = (end + WINDOW).min(range.end);
    while !orig.is_char_boundary(to) {
        to -= 1;
    }
    Some((from, to))
}

/// Whether the text right after a mention says it is gone: an arrow to what took its place
/// (`spree_taxons`→`spree_categories`, `Shipment -> Fulfillment`: the left side is what was), or
/// words of its clause ([`AFTER`]). An arrow says "became" only in a sentence about a change
/// ("Tables renamed: ...", "Move `Shipment` -> `Fulfillment`"); elsewhere it maps one thing to
/// what it makes or feeds (`.gitlab/generate-appsec.php` → `appsec-gen.yml`), and both are there.
fn gone_after(after: &str, sentence: &str) -> bool {
    if (after.trim_start().starts_with(['→', '⇒']) || after.trim_start().starts_with("->")) && CHANGE.is_match(sentence)
    {
        return true;
    }
    let clause_end = after.find(clause_break).unwrap_or(after.len());
    // Emphasis marks (`**not**`) are not words.
    let after = after[..clause_end].to_lowercase().replace(['*', '_'], "");
    let after = format!(" {} ", after.split_whitespace().collect::<Vec<_>>().join(" "));
    AFTER.iter().any(|cue| after.contains(&format!(" {cue} "))) || taken_away(&after) || said_elsewhere(&after)
}

/// Whether the clause after a mention (`after`: lower case, words spaced) has one of
/// [`TAKEN_AWAY`] about the mention: no word of [`HOLDS`] before it.
fn taken_away(after: &str) -> bool {
    // Words of the prose only: a code span's text (`Dropped`, a type's name) is no participle.
    let words: Vec<&str> = after
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '`' && c != '\''))
        .filter(|w| !w.is_empty() && !w.contains('`'))
        .collect();
    let Some(at) = words.iter().position(|w| TAKEN_AWAY.contains(w)) else { return false };
    !words[..at].iter().any(|w| HOLDS.contains(w))
}

/// Whether `cue` occurs in ` joined ` as whole words.
fn cue_in(joined: &str, cue: &str) -> bool {
    joined.contains(&format!(" {cue} ")) || (cue.starts_with("n't") && joined.contains(cue))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_old_name_after_renamed_is_gone() {
        let before = |text: &str, mention: &str| {
            let start = text.find(mention).unwrap();
            renamed_before(text, &(0..text.len()), start, start + mention.len())
        };
        assert!(before("we renamed the `a-containerd.yml` manifest to `a.yml`", "`a-containerd.yml`"));
        assert!(before("In v2 we moved `lib/old.rs` into `core/`", "`lib/old.rs`"));
        // a task to rename, or the new name
        assert!(!before("Rename `a.yml` to `b.yml`", "`a.yml`"));
        assert!(!before("we renamed the `a.yml` manifest to `b.yml`", "`b.yml`"));
    }

    fn at(text: &str, mention: &str) -> bool {
        let start = text.find(mention).unwrap();
        denied(text, &(0..text.len()), start, start + mention.len())
    }

    #[test]
    fn a_name_a_step_adds_is_new_code() {
        let added = |text: &str, mention: &str| {
            let start = text.find(mention).unwrap();
            added_new(text, &(0..text.len()), start, start + mention.len())
        };
        assert!(added("- [ ] Add `detectFormat()` helper function with magic byte detection", "`detectFormat()`"));
        assert!(added("| `htfs/delegates.go` | Add `detectFormat()`, update `gzDelegateOpen()` |", "`detectFormat()`"));
        assert!(added("Introduce a new `RetryPolicy` type.", "`RetryPolicy`"));
        // Where it goes, what else it touches, or something about a name that is there.
        assert!(!added(
            "| `htfs/delegates.go` | Add `detectFormat()`, update `gzDelegateOpen()` |",
            "`gzDelegateOpen()`"
        ));
        assert!(!added("Add `@Transactional` to service methods.", "`@Transactional`"));
        assert!(!added("Add `Parser` tests for each dialect.", "`Parser`"));
        assert!(!added("Add the helper in `Registry`.", "`Registry`"));
        // Not an instruction that opens its clause.
        assert!(!added("The loader adds `Registry` at startup.", "`Registry`"));
        assert!(!added("We then add caching around `Registry`.", "`Registry`"));
    }

    #[test]
    fn denials_of_being_there_or_being_used() {
        assert!(at(
            "In Laravel 12, middleware are no longer registered in `app/Http/Kernel.php`.",
            "`app/Http/Kernel.php`"
        ));
        assert!(at("Use `Current.family`. Do NOT use `current_family`.", "`current_family`"));
        assert!(at("There is no `Makefile` or `Justfile` in the repo.", "`Justfile`"));
        assert!(at("`test/` - Test files (NOT `spec/` - Rails uses Minitest)", "`spec/`"));
        assert!(at("The old `LegacyCache` was removed in v2.", "`LegacyCache`"));
        assert!(at("Use `Current.family` instead of `current_family`.", "`current_family`"));
        assert!(at("Replace generic `StockMovement` with typed kinds.", "`StockMovement`"));
        assert!(at("PgSearch + `add_search_scope` removed (6.0 faceting pending)", "`add_search_scope`"));
        assert!(!at("- `legacy/` contains deprecated modules and experiments; expect no changes here.", "`legacy/`"));
        assert!(!at("`compat.rs` keeps the renamed fields readable.", "`compat.rs`"));
        assert!(!at("`tests/test_context.rs` defines `Dropped`, which the tests exercise.", "`tests/test_context.rs`"));
        assert!(at("Tables renamed: `spree_taxons`→`spree_categories`.", "`spree_taxons`"));
        assert!(at("Move `Shipment` -> `Fulfillment` in 6.0.", "`Shipment`"));
        assert!(at(
            "The previous two-layer `shared/` → `app_stack/` indirection was collapsed into this single root.",
            "`shared/`"
        ));
        assert!(at("Drop `ShippingCategory` and its join table.", "`ShippingCategory`"));
        assert!(at("no new callers (none of `restock_backordered`)", "`restock_backordered`"));
        assert!(at("5.6 deprecates `StoreScopedResource`; 6.0 drops it", "`StoreScopedResource`"));
        assert!(at("(so `restock_backordered` and the `min_quantity` guard are deleted)", "`restock_backordered`"));
        assert!(at(
            "in-place mutators (`set_type`, `redirect_`, `combineBond_` on `Bond`) are removed in favor of `redirect()`.",
            "`redirect_`"
        ));
        assert!(!at("The helpers (`a.rs`, `b.rs`) are used by `main.rs`.", "`a.rs`"));
        assert!(!at("The old API (see `a.rs`; kept) was removed later.", "`a.rs`"));
        assert!(at(
            "Example data (logfiles) in `examples/` subfolder are **not** stored in this repository.",
            "`examples/`"
        ));
        assert!(!at("`examples/` holds what this repository ships.", "`examples/`"));
        // A clause opening with "No" that says none is left.
        let warp = "No legacy `tasks/broad/` or `tasks/skylab/` import paths remain.";
        assert!(at(warp, "`tasks/broad/`"));
        assert!(at(warp, "`tasks/skylab/`"));
        assert!(at("No stale copies of `gen/old.rs` are left.", "`gen/old.rs`"));
    }

    #[test]
    fn what_a_step_makes_is_not_said_to_be_there() {
        assert!(at("Create a file named `build.config.js` in your plugin directory.", "`build.config.js`"));
        assert!(at("The `init` command also creates an `appwrite.json` file for your project.", "`appwrite.json`"));
        assert!(!at("Running the generator generates `src/gen/api.ts`.", "`src/gen/api.ts`"));
        assert!(!at("The `init` command also creates an `appwrite.json` file.", "`init`"));
        assert!(!at("`scripts/new.sh` creates a release branch.", "`scripts/new.sh`"));
        assert!(!at("Create a branch, then edit `src/main.rs`.", "`src/main.rs`"));
        assert!(at("5. Writes `COMPOSE-AUDIT-REPORT.md` at the target root.", "`COMPOSE-AUDIT-REPORT.md`"));
        assert!(at("The coverage step produces a `coverage.xml` for the upload.", "`coverage.xml`"));
        assert!(!at("`scripts/report.sh` writes the summary.", "`scripts/report.sh`"));
        assert!(!at("Write tests for `src/parser.rs` first.", "`src/parser.rs`"));
        assert!(at("Create debug files like `./helpdesk/debug.py` with a function", "`./helpdesk/debug.py`"));
        // The example a step gives of what it makes.
        assert!(at(
            "Create a benchmark file in `benchmarks/` (e.g., `benchmarks/bench_scale.py`):",
            "`benchmarks/bench_scale.py`"
        ));
        assert!(at("Add a test under `tests/`, for example `tests/test_scale.py`.", "`tests/test_scale.py`"));
        assert!(!at("Create a benchmark file in `benchmarks/` (e.g., `benchmarks/bench_scale.py`):", "`benchmarks/`"));
        assert!(!at(
            "Benchmarks live in `benchmarks/` (e.g., `benchmarks/bench_gemm.py`).",
            "`benchmarks/bench_gemm.py`"
        ));
        assert!(!at("Run a benchmark, e.g. `benchmarks/bench_gemm.py`.", "`benchmarks/bench_gemm.py`"));
        assert!(!at("Create tests in `tests/unit/` for each module.", "`tests/unit/`"));
        assert!(!at("Create a symlink to `vendor/lib`.", "`vendor/lib`"));
        assert!(!at("When fixing a bug, update or create `.claude/` files to keep them in sync.", "`.claude/`"));
        assert!(at("Clone the repo and create `local.env` from the sample.", "`local.env`"));
    }

    #[test]
    fn the_place_a_step_adds_to_is_said_to_be_there() {
        assert!(!at(
            "Add tests to the appropriate dialect test file (e.g., `tests/dialects/test_snowflake.py`)",
            "`tests/dialects/test_snowflake.py`"
        ));
        assert!(at("Add a test under `tests/`, for example `tests/test_x.py`.", "`tests/test_x.py`"));
    }

    #[test]
    fn what_a_rule_forbids_making_is_not_said_to_be_there() {
        assert!(at("Do not add a generic `features/` directory.", "`features/`"));
        assert!(at("Never introduce a new `utils.py` module.", "`utils.py`"));
        assert!(at("Don't create `helpers/` folders.", "`helpers/`"));
        // where to add, or a rule that does not forbid
        assert!(!at("Do not add to `routes.ts` without a review.", "`routes.ts`"));
        assert!(!at("Add a generic `features/` directory.", "`features/`"));
        assert!(!at("Do not add tests outside `tests/unit/`.", "`tests/unit/`"));
    }

    #[test]
    fn statements_that_still_say_it_is_there() {
        assert!(!at("Never edit `src/gen.rs` by hand.", "`src/gen.rs`"));
        assert!(!at("Do not modify `build.rs` without a reason.", "`build.rs`"));
        assert!(!at("The cache in `lru.go` has no lock.", "`lru.go`"));
        assert!(!at("If the tests are not green, run `make fix` in `tools/`.", "`tools/`"));
        assert!(!at("`Config` is not thread-safe, so clone it.", "`Config`"));
        assert!(!at("Note: `src/main.rs` starts the server.", "`src/main.rs`"));
        assert!(!at("Tables renamed: `spree_taxons`→`spree_categories`.", "`spree_categories`"));
        assert!(!at("`cleanup.sh` removes stale caches.", "`cleanup.sh`"));
        assert!(!at("- `.gitlab/generate-appsec.php` → `appsec-gen.yml`", "`.gitlab/generate-appsec.php`"));
        assert!(!at("`parse()` -> `validate()` -> `emit()`", "`parse()`"));
        assert!(!at("Rename a column in the model at `app/models/user.rb` first.", "`app/models/user.rb`"));
        assert!(!at("No test may import `src/lib.rs` directly.", "`src/lib.rs`"));
        assert!(!at("Tasks in `tasks/wdl/` remain the source of truth.", "`tasks/wdl/`"));
        assert!(!at("No, `src/main.rs` is what is left to port.", "`src/main.rs`"));
        assert!(!at("Add tests in `tests/unit/` for each module.", "`tests/unit/`"));
        assert!(!at("Create the config in `config/app.yml`.", "`config/app.yml`"));
    }

    #[test]
    fn a_folder_new_files_go_into_is_no_claim_that_it_is_there() {
        assert!(at("- **Create plan files in `./plans/`** (relative to the repository root)", "`./plans/`"));
        assert!(at("Save screenshots into `out/shots/`.", "`out/shots/`"));
        assert!(!at("Create plan files in `docs/plan.md`.", "`docs/plan.md`"));
        // Where things are made is no thing made.
        let vibe = "3. **Database migrations**: Create in `crates/db/migrations/`, apply with `sqlx migrate run`";
        assert!(!at(vibe, "`crates/db/migrations/`"));
        assert!(at("Create `crates/db/migrations/` first.", "`crates/db/migrations/`"));
    }

    fn kept_out(text: &str, mention: &str) -> bool {
        let start = text.find(mention).unwrap();
        untracked(text, &(0..text.len()), start, start + mention.len())
    }

    #[test]
    fn a_path_the_text_says_is_kept_out_of_git_is_the_readers() {
        assert!(kept_out(
            "- **Design & plans (not committed; local `docs/superpowers/`):** the plans",
            "`docs/superpowers/`"
        ));
        assert!(kept_out("Put secrets in `.env.local`, which is gitignored.", "`.env.local`"));
        assert!(kept_out("`.env.local` is gitignored.", "`.env.local`"));
        assert!(!kept_out("Commit `src/app.rs`, but keep `secrets.json` untracked.", "`src/app.rs`"));
        assert!(!kept_out("The plans live in `docs/plans/` (committed with the code).", "`docs/plans/`"));
    }

    fn became(text: &str, mention: &str) -> bool {
        let start = text.find(mention).unwrap();
        became_other(text, &(0..text.len()), start, start + mention.len())
    }

    fn source(text: &str, mention: &str) -> bool {
        named_as_source(&text[..text.find(mention).unwrap()])
    }

    #[test]
    fn a_path_that_became_something_else_is_the_old_one() {
        let split = "Already split: `crates/abi-cli/src/wdbx.rs` is now the `wdbx/` module directory.";
        assert!(became(split, "`crates/abi-cli/src/wdbx.rs`"));
        assert!(became("`utils.py` became the `utils/` package.", "`utils.py`"));
        assert!(!became("`src/app.rs` is the entry point.", "`src/app.rs`"));
        assert!(!became("`src/app.rs` is now faster, and `x.rs` is now the default.", "`src/app.rs`"));
    }

    #[test]
    fn what_a_page_was_made_from_is_of_the_past() {
        let tutorials = "Outline-stage material, consolidated from three Zig-era stub tutorials (`advanced.md`,\n`gpu.md`,\n`vector-db.md`). Not in navigation.";
        for name in ["`advanced.md`", "`gpu.md`", "`vector-db.md`"] {
            assert!(source(tutorials, name), "{name}");
        }
        assert!(source("`new.rs` replaces `old.rs` for parsing.", "`old.rs`"));
        assert!(!source("`new.rs` replaces `old.rs` for parsing.", "`new.rs`"));
        assert!(!source("It was consolidated from two files. See `guide.md` for more.", "`guide.md`"));
        assert!(!source("Configuration lives in `config.toml`.", "`config.toml`"));
    }

    fn gone(text: &str, mention: &str) -> bool {
        let start = text.find(mention).unwrap();
        said_gone(text, &(0..text.len()), start, start + mention.len())
    }

    #[test]
    fn statements_that_a_thing_is_gone() {
        assert!(gone(
            "Strawberry's `SentryTracingExtension` has been deprecated in version 0.210.0 and finally removed",
            "`SentryTracingExtension`"
        ));
        assert!(gone(
            "The option `setDefaultLocale` has been replaced by `setDefaultUserLocale`.",
            "`setDefaultLocale`"
        ));
        assert!(gone("`LegacyCache` was removed in v2.", "`LegacyCache`"));
        assert!(gone("`old_fn` is now deprecated", "`old_fn`"));
        assert!(gone("`tools/gen.sh` no longer exists.", "`tools/gen.sh`"));
        assert!(gone("`WindowsBootstrapContext` will be moved into knife, with updates.", "`WindowsBootstrapContext`"));
    }

    #[test]
    fn statements_that_do_not_say_it_is_gone() {
        assert!(!gone("`cleanup.sh` deleted old branches.", "`cleanup.sh`"));
        assert!(!gone("`Cache` evicts what was removed from the store.", "`Cache`"));
        assert!(!gone("`Config` is read once; the old file was removed.", "`Config`"));
        assert!(!gone(
            "The option `setDefaultLocale` has been replaced by `setDefaultUserLocale`.",
            "`setDefaultUserLocale`"
        ));
        assert!(!gone("Use `new_fn`, the old one was removed.", "`new_fn`"));
        assert!(!gone("`CLAUDE.md` → `AGENTS.md` (the older kept)", "`CLAUDE.md`"));
        assert!(!gone("`Worker` moved the job to the queue.", "`Worker`"));
    }
}
