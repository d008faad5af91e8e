//! A list item about another repository: "**Hybrid Common**: https://github.com/org/common —
//! shared layer for the SDKs. Contains:", with the paths of that repository in the items under
//! it (`typescript/`, `ios/`). The item ends with `:` and links a repository on a code host;
//! what the items under it name is of the linked repository, not of this one, so none of it is a
//! claim, and the mentions are reported as not checked with the line that links the repository.
//!
//! The item itself is read as usual. A link to a repository anywhere else (a sentence that does
//! not lead into a list) opens nothing.

use std::sync::LazyLock;

use regex::Regex;

use super::doc::{Doc, Elsewhere};

/// A repository's address on a code host: `https://github.com/owner/name`.
static REPOSITORY_URL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"https?://(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)/([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)",
    )
    .expect("valid regex")
});

/// The repository (`owner/name`) a list item's content links, when the item leads into the
/// items under it (its text ends with `:`).
pub(super) fn other_repository(content: &str) -> Option<String> {
    let leads = content.trim_end().trim_end_matches(['*', '_']).ends_with(':');
    if !leads {
        return None;
    }
    let name = REPOSITORY_URL.captures(content)?.get(1)?.as_str();
    Some(name.trim_end_matches(".git").trim_end_matches(['.', ')']).to_owned())
}

/// Records a list item about another repository at `line`; returns its index in
/// [`Doc::elsewhere`].
pub(super) fn record(doc: &mut Doc, line: u32, repository: String) -> usize {
    doc.elsewhere.push(Elsewhere { line, repository, mentions: 0 });
    doc.elsewhere.len() - 1
}

#[cfg(test)]
mod tests {
    use super::other_repository;

    #[test]
    fn items_that_lead_into_another_repositorys_paths() {
        let item = "**Hybrid Common**: https://github.com/RevenueCat/purchases-hybrid-common — shared layer for hybrid SDKs (Flutter, React Native). Contains:";
        assert_eq!(other_repository(item).as_deref(), Some("RevenueCat/purchases-hybrid-common"));
        assert_eq!(
            other_repository("The plugin ([repo](https://gitlab.com/acme/plugin.git)) has:").as_deref(),
            Some("acme/plugin")
        );
    }

    #[test]
    fn items_that_do_not() {
        // No link to a repository.
        assert_eq!(other_repository("**Hybrid Common** contains:"), None);
        // A link that leads into nothing.
        assert_eq!(other_repository("**iOS SDK**: https://github.com/RevenueCat/purchases-ios"), None);
        // A link to a site, not a repository.
        assert_eq!(other_repository("See https://docs.example.com/guide for:"), None);
    }
}
