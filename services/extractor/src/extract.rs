//! One memory's claims by the rules: the walk of its text ([`crate::scan`]), the claims built
//! from what it found ([`crate::claims`]), why a memory without claims was skipped, and a bug
//! on one memory kept to that memory.

use memval_proto::{ExtractedMemory, LeftOut, Memory};

use crate::{claims, paths, scan};

/// Why a memory without claims was skipped (docs/contracts.md §2 rule 4).
pub const NO_CLAIMS_REASON: &str = "no checkable code reference (no file path, symbol or config key)";

/// Why an empty memory (an empty CLAUDE.md, a blank `content`) has no claims.
pub const EMPTY_REASON: &str = "empty: the memory has no text to check";

/// Why a doc that records the past by design is not checked.
pub const HISTORY_REASON: &str = "a record of the past or a plan by design (a changelog, release notes, a decision record, an RFC, a plan, a migration guide, a postmortem, a blog post, a report or an audit dated at its top, a doc whose top says on which day it read the code, a file or folder named by its date, an old version's docs, or notes set aside in an archive folder such as docs/old/): what it says was true when written, or was to become true, so it is not checked against today's code";

/// Why a doc inside a vendored copy of another project (`bootstrap-sass-3.4.1/README.md`) is
/// not checked.
pub const VENDORED_REASON: &str = "a file of a vendored copy of another project (a folder named as a package and its release, such as bootstrap-sass-3.4.1/): it describes that project, not this repository, so it is not checked against this repository's code";
pub const FIXTURE_REASON: &str = "a file of a test fixture (a folder such as tests/fixtures/ or testdata/): input for the project's tests, written about the fixture, not about this repository, so it is not checked against this repository's code";

/// Why a memory whose opening says it is not current ("ignore this document", "Deprecated:")
/// is not checked; the skip reason goes on with the line that says so.
pub const DISOWNED_REASON: &str = "its opening says it is not current (outdated, deprecated, or to be ignored), so it is not checked against today's code";

/// How the skip reason of a memory the extractor failed on begins (a bug in memval, kept to
/// that one memory: the rest of the batch and the run go on).
pub const INTERNAL_ERROR_REASON: &str = "not read: memval's extractor failed on this memory (a bug; please report it)";

/// Extracts every claim of `memory.content`. Pure function, no I/O. A panic inside
/// the rules is caught here and reported as this memory's skip reason
/// ([`INTERNAL_ERROR_REASON`] and the panic's message), never lost with its batch.
pub fn extract(memory: &Memory) -> ExtractedMemory {
    memval_runtime::panics::catch(|| extract_rules(memory)).unwrap_or_else(|panic| {
        tracing::error!(memory = %memory.id, source = %memory.source, panic = %panic.escape_debug(), "the extractor failed on a memory");
        ExtractedMemory {
            memory: memory.meta(),
            claims: Vec::new(),
            skip_reason: Some(format!("{INTERNAL_ERROR_REASON}: {panic}")),
            left_out: Vec::new(),
        }
    })
}

/// Why a memory of this `kind` is skipped whole, by the rules and the model alike: a record of
/// the past, or a vendored project's file. `None` for a memory to read.
pub(crate) fn kind_skip_reason(kind: &str) -> Option<&'static str> {
    match kind {
        memval_proto::HISTORY_KIND => Some(HISTORY_REASON),
        memval_proto::VENDORED_KIND => Some(VENDORED_REASON),
        memval_proto::FIXTURE_KIND => Some(FIXTURE_REASON),
        _ => None,
    }
}

fn extract_rules(memory: &Memory) -> ExtractedMemory {
    if let Some(reason) = kind_skip_reason(&memory.kind) {
        return ExtractedMemory {
            memory: memory.meta(),
            claims: Vec::new(),
            skip_reason: Some(reason.into()),
            left_out: Vec::new(),
        };
    }
    if let Some((line, text)) = crate::disowned::disowned(&memory.content) {
        return ExtractedMemory {
            memory: memory.meta(),
            claims: Vec::new(),
            skip_reason: Some(format!("{DISOWNED_REASON} (line {line}: \"{text}\")")),
            left_out: Vec::new(),
        };
    }
    let context = memory.context_dir.as_deref().and_then(context_dir);
    let page = context.as_deref().and_then(|dir| page_dir(dir, memory));
    let doc = scan::scan(&memory.content, context.as_deref(), page.as_deref());
    let claims = claims::build(&doc);
    let skip_reason = claims
        .is_empty()
        .then(|| if memory.content.trim().is_empty() { EMPTY_REASON } else { NO_CLAIMS_REASON }.to_string());
    let left_out = doc
        .unread
        .map(|(from, to)| LeftOut {
            line: from,
            reason: format!(
                "lines {from}-{to} not read: the memory names more than {} paths, symbols and keys (memval's limit per memory; split the memory to check the rest)",
                scan::MAX_MENTIONS
            ),
        })
        .into_iter()
        .chain(doc.past_sections.iter().map(|(from, to, title)| LeftOut {
            line: *from,
            reason: format!(
                "lines {from}-{to} not read: the section \"{title}\" records the past (a changelog, breaking changes, what was removed or renamed, a migration from an old version): true of its time, so not checked against today's code"
            ),
        }))
        .chain(doc.outputs.iter().filter(|o| o.mentions > 0).map(|o| LeftOut {
            line: o.line,
            reason: format!(
                "{}/ and the {} mention(s) of it or below it not checked: line {} says a build or a project template writes there (what a build or a template makes, which a checkout does not keep)",
                o.folder, o.mentions, o.line
            ),
        }))
        .chain(doc.examples.iter().filter(|e| e.mentions > 0).map(|e| LeftOut {
            line: e.line,
            reason: format!(
                "{} and {} mention(s) built from it not checked: line {} takes it as the example the section walks through, what a reader makes for their own case",
                e.name, e.mentions, e.line
            ),
        }))
        .chain(doc.made.iter().filter(|m| m.mentions > 0).map(|m| LeftOut {
            line: m.line,
            reason: format!(
                "{} mention(s) after line {} not checked: they name {}, which that line has the reader create, or what the text ties to it (the reader's new file, not one of the repository)",
                m.mentions, m.line, m.path
            ),
        }))
        .chain(doc.elsewhere.iter().filter(|e| e.mentions > 0).map(|e| LeftOut {
            line: e.line,
            reason: format!(
                "{} mention(s) in the items under line {} not checked: that item is about another repository ({}), so they name its paths and names, not this repository's",
                e.mentions, e.line, e.repository
            ),
        }))
        .chain(doc.gone.iter().filter(|g| g.mentions > 0).map(|g| LeftOut {
            line: g.line,
            reason: format!(
                "{} and its {} other mention(s) not checked: line {} says it is gone (removed, renamed or replaced), so the code not having it agrees with the memory",
                g.name, g.mentions, g.line
            ),
        }))
        .collect();
    ExtractedMemory { memory: memory.meta(), claims, skip_reason, left_out }
}

/// The notes file's folder, normalised; `None` for the repo root or a folder that is not
/// plainly repo-relative.
/// The URL folder a docs site serves a notes file's Markdown page at (`docs/guide/setup` for
/// `docs/guide/setup.md` in `docs/guide`): `None` for other formats and for a folder's index
/// page (`README.md`, `index.md`, `_index.md`), which is served at its folder itself.
fn page_dir(dir: &str, memory: &Memory) -> Option<String> {
    if memory.source.format != "notes" {
        return None;
    }
    let name = memory.source.path.rsplit(['/', '\\']).next()?;
    let (stem, ext) = name.rsplit_once('.')?;
    let page = matches!(ext.to_ascii_lowercase().as_str(), "md" | "mdx" | "markdown");
    let index = matches!(stem.to_ascii_lowercase().as_str(), "readme" | "index" | "_index");
    (page && !index && !stem.is_empty()).then(|| format!("{dir}/{stem}"))
}

fn context_dir(dir: &str) -> Option<String> {
    let tok = paths::parse(dir.trim())?;
    (!tok.unresolvable()).then_some(tok.path)
}
