//! Deterministic (Tier A) verdicts: what the repo index and git history prove about a claim.
//!
//! One module per kind of check, each an `impl Checker` block: [`file`] (a path), [`line`] (a
//! line number or a line's text), [`symbol`] (a symbol in a file), [`anywhere`] (a symbol named
//! without a file), [`renamed`] (a symbol gone from its file), [`config`] (a key's value),
//! [`anchors`] (behavioural and architectural claims without a model). Where a path is now is
//! [`locate`]: [`history`] first, then the [`search`] of today's tree, then (without history)
//! the second look of [`tree_only`], with the memory's other references ([`context`]) to break
//! ties; a path git never had is read by [`no_past`]; drift whose change came before the
//! memory's line was written is not drift ([`written`]). Leaves every other module imports: [`common`], [`located`], [`symbol_name`]. A new
//! claim type is one new module here plus its arm in [`Checker::check`].
//!
//! ## Every reference of a claim
//!
//! `Checker::check`, `combine`: a claim's assertion (config value, line text, symbol) is about its
//! first reference; each further reference is checked for existence and fate like a file or symbol
//! claim of its own. The most severe proven verdict decides (CONTRADICTED > STALE > AMBIGUOUS >
//! VALID), at the lowest confidence among the references giving it, with every reference's
//! evidence. A reference that could not be checked (refused, unreadable) is named with its reason
//! ("not checked: ..."), and when nothing else proves a defect the claim is **not checked**, never
//! VALID with a part unproven.
//!
//! **Architecture Invariant:** a claim is VALID only when every one of its references is.
//!
//! ## Confidence
//!
//! Confidence is the strength of the evidence chain, on a fixed scale. It multiplies the verdict's
//! points in the score, so weak evidence moves a score less than strong evidence.
//!
//! | evidence | confidence |
//! |---|---|
//! | exact match in the current tree (path exists, symbol defined at the stated place) | 100 |
//! | a reading of the path other than the verbatim one (alternative folder) / symbol defined, but not at the stated line | 95 / 90 |
//! | rename or deletion recorded by git after the memory's date | 95 |
//! | the same, found only by searching all history (the memory's date is later than the change) | 80 |
//! | config value found / changed; line text found / moved | 95 / 85 |
//! | symbol moved to another file (unique definition elsewhere) | 85 |
//! | symbol rename detected by body similarity *s* (Jaccard of identifiers, name excluded, *s* ≥ 0.5) | 60 + 35·*s* |
//! | unique path ending in the memory's path | 85 |
//! | deleted, then the same file name added after the memory's date; unique path ending in a path that existed in history | 80 |
//! | successor found only by file name, no history (and tied to the memory) | 65 (one candidate) / 55 (best of several) |
//! | no history: moved under a new prefix (one place / chosen of several by the memory's other references) | 60 / 50 |
//! | no history: written relative to a folder the memory names, chosen of several places | 70 |
//! | no history: a same-named file or folder that nothing ties to the memory, gone | 50 |
//! | no history, second look: package name / same words (55); children all in one folder (50); like name where siblings moved (45); bare manifest gone from the root (50); bare folder, several untied places deeper, gone (40) | 40–55 |
//! | same stem, other extension; close symbol name without history | 50 |
//! | several candidates, or mention without definition | 40 |
//! | not found anywhere, no history to confirm | 70–75 |
//! | a path written as a bare name (`LICENSE`, `api/`) that history shows gone (`locate.rs`) | at most 70 |
//! | a name no file defines, its last definition removed by a commit, no rename found (`anywhere.rs`) | 70 |
//! | a name the code used but never defined (a local, another library's), its last uses removed by a commit, and no other file names it (`anywhere.rs`) | 60 |
//! | VALID: a name whose only definition git saw was a dependency's vendored copy (`vendor/`, `third_party/`), still named by tests, strings or config (`anywhere.rs`) | 60 |
//!
//! 80 is where `validate`'s gate starts by default (`--fail-confidence`): a verdict at 80 or
//! more rests on evidence that held up on real repositories' notes and docs (the precision
//! benchmark, BENCHMARKS.md §4); the weaker kinds above stay under it, reported but not failing
//! a run.

mod anchors;
mod anywhere;
mod common;
pub(crate) mod config;
mod context;
mod convention;
mod extension_changed;
mod extracted;
mod family;
mod file;
mod folder_put_in;
mod history;
mod inherits;
mod inside_def;
mod left_repo;
mod library;
mod line;
mod locate;
mod located;
mod module_folder;
mod module_tail;
mod namespaced;
mod no_past;
mod notes_renamed;
mod package_relative;
mod pins;
mod reexport;
mod renamed;
mod respelled;
mod search;
mod symbol;
mod symbol_name;
mod tree_only;
mod user_file;
mod word_replaced;
mod written;

use memval_git::GitRepo;
use memval_proto::{Assertion, Claim, ClaimType, CodeRef, MemoryMeta, Outcome, Since, UnixSeconds, Verdict};

use crate::index::RepoIndex;

use common::checked;
pub use context::{MemoryContext, NAME_SEARCHES_PER_MEMORY};

pub struct Checker<'a> {
    pub index: &'a RepoIndex,
    pub git: Option<&'a GitRepo>,
    /// The memory the checked claims come from: its other references.
    pub context: &'a MemoryContext,
}

/// One outcome for a claim from the outcomes of each of its references (the first carries
/// the claim's own assertion). The most severe proven verdict decides, with the evidence of
/// every reference, so a defect found in the second reference is not hidden by the first.
/// A reference that could not be checked is named in the evidence; and when nothing else
/// proves a defect, the claim is not checked (it cannot be VALID with a part unproven).
fn combine(outcomes: Vec<(&CodeRef, Outcome)>) -> Outcome {
    if outcomes.len() == 1 {
        return outcomes
            .into_iter()
            .next()
            .map(|(_, o)| o)
            .unwrap_or(Outcome::NotChecked { reason: "claim has no code reference with a path".into() });
    }
    let name = |r: &CodeRef| match &r.symbol {
        Some(s) => format!("{}#{s}", r.path),
        None => r.path.clone(),
    };
    let mut unchecked = Vec::new();
    let mut decided: Vec<Decided> = Vec::new();
    for (r, outcome) in &outcomes {
        match outcome {
            Outcome::NotChecked { reason } => unchecked.push(format!("{} ({reason})", name(r))),
            Outcome::Checked { verdict, confidence, evidence, successor, since } => {
                decided.push((*verdict, *confidence, evidence.clone(), successor.clone(), since.clone()))
            }
        }
    }
    let worst = decided.iter().map(|d| verdict_rank(d.0)).max();
    let not_checked_note = (!unchecked.is_empty()).then(|| format!("not checked: {}", unchecked.join("; ")));
    match worst {
        Some(rank) if rank > 0 || not_checked_note.is_none() => {
            // The deciding references first (the most severe, least confident one leads, so
            // the claim claims no more certainty than its weakest deciding reference).
            let mut lead: Vec<&Decided> = decided.iter().filter(|d| verdict_rank(d.0) == rank).collect();
            lead.sort_by_key(|d| d.1);
            let (verdict, confidence, _, successor, since) = lead[0].clone();
            let mut parts: Vec<String> = lead.iter().map(|d| d.2.clone()).collect();
            let others: Vec<String> =
                decided.iter().filter(|d| verdict_rank(d.0) != rank).map(|d| format!("{}: {}", d.0, d.2)).collect();
            if !others.is_empty() {
                parts.push(format!("other references: {}", others.join("; ")));
            }
            parts.extend(not_checked_note);
            checked(verdict, confidence, parts.join(" | "), successor).since(since)
        }
        _ => {
            let proven: Vec<String> = decided.iter().map(|d| format!("{}: {}", d.0, d.2)).collect();
            let mut reason = not_checked_note.unwrap_or_default();
            if !proven.is_empty() {
                reason = format!("{reason}; checked: {}", proven.join("; "));
            }
            Outcome::NotChecked { reason }
        }
    }
}

/// A reference's checked outcome: verdict, confidence, evidence, successor, since.
type Decided = (Verdict, u8, String, Option<String>, Option<Since>);

/// VALID < AMBIGUOUS < STALE < CONTRADICTED: the order in which a reference's verdict
/// outweighs another's for the claim as a whole.
fn verdict_rank(v: Verdict) -> u8 {
    match v {
        Verdict::Valid => 0,
        Verdict::Ambiguous => 1,
        Verdict::Stale => 2,
        Verdict::Contradicted => 3,
    }
}

impl Checker<'_> {
    /// The verdict for one claim of `memory`.
    pub fn check(&self, claim: &Claim, memory: &MemoryMeta) -> Outcome {
        let outcome = self.check_at(claim, memory.asserted_at());
        self.after_the_change(claim, memory, outcome)
    }

    /// The verdict for one claim of a memory asserted at `since`.
    fn check_at(&self, claim: &Claim, since: Option<UnixSeconds>) -> Outcome {
        let mut refs = claim.code_refs.iter().filter(|r| !r.path.trim().is_empty());
        let Some(primary) = refs.next() else {
            return Outcome::NotChecked { reason: "claim has no code reference with a path".into() };
        };
        let first = match (&claim.assertion, claim.claim_type) {
            (Some(Assertion::ConfigValue { key, value }), _) => self.check_config(primary, key, value, since),
            (Some(Assertion::LineText { text }), _) => self.check_line_text(primary, text, since),
            (Some(Assertion::ToolVersion { tool, version }), _) => self.check_tool_version(tool, version),
            (Some(Assertion::SnippetFile), _) => self.check_snippet_file(primary, since),
            (None, ClaimType::FileReference) => self.check_file(primary, since, names_a_folder(claim)),
            (None, ClaimType::SymbolReference) => self.check_ref(primary, since),
            (None, tier_b) => return self.check_anchors(tier_b, &claim.code_refs, since),
        };
        // The assertion is about the first reference; every other one the claim names is
        // checked too (it exists, or where it went), so no reference goes unchecked.
        let rest: Vec<(&CodeRef, Outcome)> = refs.map(|r| (r, self.check_ref(r, since))).collect();
        if rest.is_empty() {
            return first;
        }
        combine(std::iter::once((primary, first)).chain(rest).collect())
    }

    /// Existence (and fate) of one reference: its symbol when it names one, else its path.
    fn check_ref(&self, r: &CodeRef, since: Option<UnixSeconds>) -> Outcome {
        match &r.symbol {
            Some(symbol) => self.check_symbol(r, symbol, since),
            None => self.check_file(r, since, false),
        }
    }
}

/// Whether the memory wrote the claim's path as a folder: the extractor says so in the claim's
/// text (``directory `mettagrid/` exists``, docs/contracts.md).
fn names_a_folder(claim: &Claim) -> bool {
    claim.claim_text.starts_with("directory `")
}
