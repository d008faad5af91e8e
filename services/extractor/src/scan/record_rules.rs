//! Sections named for a record of the past ("## Changelog", "### Changelog Requirements")
//! that say how to keep the record, not what it holds: their opening gives a rule ("Every pull
//! request must include an entry in `CHANGELOG.md`") and no entry starts with a version or a
//! day. `past` skips a record's section; one of these is read as any other section, since the
//! files it names are today's.

use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;

use crate::markdown;

/// A heading that names the record itself (a changelog, release notes), where the title alone
/// cannot say whether the section holds the record or the rules for writing it.
static RECORD_NAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^[^a-z0-9]*(?:change\s?log|release\s+(?:notes|history)|version\s+history|what'?s\s+changed)\b")
        .expect("valid regex")
});

/// A record's entries: a version (`v1.2.0`, `[1.4.0]`, `[Unreleased]`) or a day at the start of
/// a sub-heading or an item.
static ENTRY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^[\s*+#-]*\[?(?:v?\d+\.\d+(?:\.\d+)?\b|unreleased\b|(?:19|20)\d\d-\d\d-\d\d\b)")
        .expect("valid regex")
});

/// Words that tell the reader what to do: the rules for writing the record.
static RULE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:must|should|shall|always|never|do\s+not|don'?t|make\s+sure|ensure|is\s+required|are\s+required|need\s+to)\b|^[\s*+\d.)-]*(?:\*\*)?(?:add|insert|update|write|include|document|record|describe|list)\s",
    )
    .expect("valid regex")
});

/// How many lines of a section's opening are read for its rules.
const OPENING_LINES: usize = 8;

/// The lines of the headings named for a record ("## Changelog", "### Changelog Requirements")
/// whose sections say how to keep it: their opening lines (before any sub-heading) give a rule
/// ("Every pull request must include an entry in `CHANGELOG.md`", "Add a line at the top"), and
/// no sub-heading or item starts with a version or a day, as a record's entries do. Such a
/// section is about today's practice and the files it names are today's.
pub(super) fn how_to_keep(content: &str) -> HashSet<u32> {
    let lines: Vec<&str> = content.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
    let mut in_fence: Option<markdown::Fence> = None;
    let mut headings = Vec::new();
    // Lines of running text and items (not headings, not code): where a record's entries are.
    let mut text = vec![false; lines.len()];
    for (i, line) in lines.iter().enumerate() {
        match in_fence.take() {
            Some(f) if f.closes(line) => {}
            Some(f) => in_fence = Some(f),
            None => match markdown::fence_open(line) {
                Some(f) => in_fence = Some(f),
                None => match markdown::heading_level(line) {
                    Some((level, title)) => headings.push((i, level, title)),
                    None => text[i] = true,
                },
            },
        }
    }
    let mut found = HashSet::new();
    for (k, &(i, level, title)) in headings.iter().enumerate() {
        if !RECORD_NAME.is_match(title.trim()) {
            continue;
        }
        let end = headings[k + 1..].iter().find(|(_, l, _)| *l <= level).map_or(lines.len(), |(j, _, _)| *j);
        let inner: Vec<usize> = headings[k + 1..].iter().filter(|(j, _, _)| *j < end).map(|(j, _, _)| *j).collect();
        let opening_end = inner.first().copied().unwrap_or(end);
        let opening: Vec<&str> = (i + 1..opening_end)
            .filter(|&j| text[j] && !lines[j].trim().is_empty())
            .map(|j| lines[j])
            .take(OPENING_LINES)
            .collect();
        let entries = inner.iter().any(|&j| ENTRY.is_match(lines[j]))
            || (i + 1..end).any(|j| text[j] && ENTRY.is_match(lines[j]));
        if !entries && opening.iter().any(|l| RULE.is_match(l)) {
            found.insert(u32::try_from(i + 1).unwrap_or(u32::MAX));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::how_to_keep;

    #[test]
    fn a_changelog_section_of_rules_is_read_and_one_of_entries_is_not() {
        let rules = "# Notes\n\n## Changelog\n\n**Every pull request must include an entry in [`CHANGELOG.md`](CHANGELOG.md).**\n\n1. **Insert the new line(s) at the top of `CHANGELOG.md`**\n";
        assert_eq!(how_to_keep(rules).into_iter().collect::<Vec<_>>(), [3]);
        let requirements = "### Changelog Requirements\nAll user-facing changes must be documented in `NEXT_CHANGELOG.md` with format:\n```\n* 1.0 <Summary of change>\n```\n";
        assert_eq!(how_to_keep(requirements).into_iter().collect::<Vec<_>>(), [1]);
        // Entries under versions, or items that start with one, are the record itself, even
        // when an entry says what a user must now do.
        for record in [
            "## Changelog\n\nUsers must now call `init()` first.\n\n### v1.2.0\n- Added `foo`\n",
            "## Release notes\n\n- 1.4.0: `bar` should be used instead of `baz`\n",
            "## Changelog\n\n- [Unreleased] you must pass `--flag`\n",
            "## Changelog\n\nSee `CHANGELOG.md`.\n",
        ] {
            assert!(how_to_keep(record).is_empty(), "{record}");
        }
        // Only the record's own names: "Breaking changes" says what changed, whatever follows.
        assert!(how_to_keep("## Breaking changes\n\nYou must now call `init()`.\n").is_empty());
    }
}
