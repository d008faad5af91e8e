//! The answer to "where is this path now?" that every check reads.

use memval_proto::Since;

use crate::confine::Refusal;

/// Where a path named by a memory is now.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Located {
    /// Exists now at `path`; `note` says how it was found when not verbatim.
    Here {
        path: String,
        dir: bool,
        confidence: u8,
        note: Option<String>,
    },
    /// Gone from the named place; its successor exists at `to`.
    Moved {
        to: String,
        dir: bool,
        confidence: u8,
        evidence: String,
        /// The commit that moved it, when history says.
        since: Option<Since>,
    },
    /// Gone, and nothing took its place.
    Gone {
        confidence: u8,
        evidence: String,
        /// The commit that deleted it, when history says.
        since: Option<Since>,
    },
    /// Several places could be meant.
    Unclear {
        candidates: Vec<String>,
    },
    /// A folder whose files history shows going to several places with no majority, and not
    /// gone (mostly deleted with no folder taking a quarter): no one successor. `candidates`:
    /// the folders its files went to, most first.
    Split {
        candidates: Vec<String>,
        evidence: String,
    },
    Refused(Refusal),
    /// Nothing of that name is or was in the repo, and the path says why it never was one of
    /// its files: an example (`path/to/file.ts`) or what git ignores (`dist/`). Not checked.
    NotInRepo(String),
    /// With history: nothing of that name is in the tree, and git never had the path. Only the
    /// tree search gives this, and [`Checker::locate`](super::Checker) turns it into `Gone` (the
    /// memory named a file under a folder of the repo that never held it) or `NotInRepo` (no
    /// sign it is a path of this repository at all) before anyone else sees it.
    NeverInRepo,
    /// With complete history: the path was never in the repository, and files or folders of its
    /// name (`stem`: of its stem, with another extension) are elsewhere. Only the tree search
    /// gives this, and [`Checker::locate`](super::Checker) reads it against the memory's folders
    /// (`check/no_past.rs`) before anyone else sees it.
    NameElsewhere {
        candidates: Vec<String>,
        stem: bool,
    },
}

/// The reason a check gives should a [`Located::NeverInRepo`] or [`Located::NameElsewhere`]
/// ever reach it unread.
pub(crate) const NEVER_IN_REPO: &str =
    "never in the repository (not in the tree, not in git history): not read as a path of this repository";
