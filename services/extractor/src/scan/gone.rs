//! Names the memory itself says are gone: "`SentryTracingExtension` has been deprecated ... and
//! finally removed", "The option `setDefaultLocale` has been replaced by ...". The memory
//! already tells its reader the thing is not there; that the code no longer has it agrees with
//! the memory. So no mention of that name in the same section is a claim that it exists (the
//! section's heading `# SentryTracingExtension`, "If `setDefaultLocale` was set ..."), and each
//! such name is reported as not checked, with the line that says it is gone.
//!
//! The section runs from the heading above that line (or the memory's start) to the next heading
//! of the same or a higher level. Only the section: a long document names the same file in
//! other contexts (one repository's `CLAUDE.md` was replaced, another's is current).
//!
//! Which words say so is `negation::said_gone` (and `negation::renamed_before`, "we renamed the
//! `x.yml` manifest to ..."): a statement right after the mention ("was
//! removed", "has been replaced"), not a bare "removed" in a list or another clause's verb. A
//! note that its names are of the past ("References below to `TuiLogger`, `IsolatedLogger` ...
//! are historical") makes every name of its paragraph gone (`says_historical`).

use std::sync::LazyLock;

use regex::Regex;

use crate::mentions::{ConfigMention, FileMention, SymbolMention};

use super::doc::{Doc, Gone};

/// Takes every mention of a name the memory says is gone out of the claims: its symbol and key
/// mentions are dropped, its file mentions marked denied, and the count kept per name
/// (`Doc::gone`).
pub(super) fn forget_gone(doc: &mut Doc) {
    if doc.gone.is_empty() {
        return;
    }
    let Doc { sentences, gone, headings, .. } = doc;
    let sections: Vec<(u32, u32)> = gone.iter().map(|g| section_of(headings, g.line)).collect();
    for s in sentences.iter_mut() {
        for (g, (from, to)) in gone.iter_mut().zip(&sections) {
            if s.line < *from || s.line > *to {
                continue;
            }
            let before = s.symbols.len() + s.configs.len();
            s.symbols.retain(|m| !same_name(&m.name, &g.name));
            s.configs.retain(|c| !same_name(&c.key, &g.name));
            g.mentions += before - s.symbols.len() - s.configs.len();
            for (i, f) in s.files.iter().enumerate() {
                if same_name(&f.raw, &g.name) && !s.denied_files.contains(&i) {
                    s.denied_files.push(i);
                    g.mentions += 1;
                }
            }
        }
    }
}

/// The first and last line of the section holding `line`: from the last heading at or before
/// it (line 1 without one) to the line before the next heading of the same or a higher level.
pub(super) fn section_of(headings: &[(u32, usize)], line: u32) -> (u32, u32) {
    let opening = headings.iter().rev().find(|(at, _)| *at <= line);
    let from = opening.map_or(1, |(at, _)| *at);
    let level = opening.map_or(0, |(_, level)| *level);
    let next = headings.iter().find(|(at, l)| *at > line && (*l <= level || level == 0));
    (from, next.map_or(u32::MAX, |(at, _)| at - 1))
}

/// Whether a mention names the gone thing: the same name, or the same path with or without a
/// trailing slash.
fn same_name(mention: &str, gone: &str) -> bool {
    mention.trim_end_matches('/') == gone.trim_end_matches('/')
}

/// The names of a sentence's mentions (a path as written, a symbol, a key) whose place in the
/// line `keep` takes.
pub(super) fn names_where(
    files: &[FileMention],
    symbols: &[SymbolMention],
    configs: &[ConfigMention],
    keep: impl Fn(usize, usize) -> bool,
) -> Vec<String> {
    let files = files.iter().filter(|f| keep(f.start, f.end)).map(|f| f.raw.clone());
    let symbols = symbols.iter().filter(|m| keep(m.start, m.end)).map(|m| m.name.clone());
    let configs = configs.iter().filter(|c| keep(c.start, c.end)).map(|c| c.key.clone());
    files.chain(symbols).chain(configs).collect()
}

/// Records a name the sentence on `line` says is gone, once per name.
pub(super) fn record(doc: &mut Doc, line: u32, name: &str) {
    if name.is_empty() || doc.gone.iter().any(|g| same_name(&g.name, name)) {
        return;
    }
    doc.gone.push(Gone { line, name: name.to_string(), mentions: 0 });
}

/// A note that what it names is of the past: "References below to `TuiLogger` ... are
/// historical", "these names are obsolete", "... no longer apply", and the names a note lists
/// after calling them so ("references some outdated structures (Next.js, `pages/` directory)").
static HISTORICAL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:is|are)\s+(?:now\s+|all\s+)?(?:historical|obsolete|outdated|superseded)\b|\bno\s+longer\s+(?:apply|applies|current|accurate)\b|\b(?:outdated|obsolete|superseded)\s+(?:[a-z-]+\s+){0,2}\(",
    )
    .expect("valid regex")
});

/// Whether the sentence says what it (or its paragraph) names is of the past.
pub(super) fn says_historical(text: &str) -> bool {
    HISTORICAL.is_match(text)
}

/// Records as gone the names `here` of the sentence on `line` and those of the lines before it
/// in the paragraph `paragraph` back to the last one that ends a sentence: a note whose list
/// of names runs over several lines ends with the words that say they are of the past.
pub(super) fn record_paragraph(doc: &mut Doc, paragraph: u32, line: u32, here: Vec<String>) {
    let mut names: Vec<String> = Vec::new();
    let ends_sentence = |text: &str| text.trim_end().ends_with(['.', '!', '?']);
    let same = doc.sentences.iter().rev().take_while(|s| s.paragraph == paragraph && s.line < line);
    for s in same.take_while(|s| !ends_sentence(&s.text)) {
        names.extend(names_where(&s.files, &s.symbols, &s.configs, |_, _| true));
    }
    names.extend(here);
    for name in names {
        record(doc, line, &name);
    }
}

#[cfg(test)]
mod tests {
    use super::{same_name, says_historical, section_of};

    #[test]
    fn notes_that_call_their_names_of_the_past() {
        assert!(says_historical("References below to `TuiLogger` are historical."));
        assert!(says_historical("The README references some outdated structures (Next.js, `pages/` directory)."));
        assert!(says_historical("Two obsolete flags (`--fast`, `--old`) remain accepted."));
        assert!(!says_historical("Update outdated docs in `docs/`."));
        assert!(!says_historical("The `src/ffi/` directory is legacy (prefer `%raw`)."));
    }

    #[test]
    fn a_section_runs_to_the_next_heading_of_its_level() {
        let headings = [(1, 1), (5, 2), (9, 3), (12, 2), (20, 1)];
        assert_eq!(section_of(&headings, 6), (5, 11));
        assert_eq!(section_of(&headings, 5), (5, 11));
        assert_eq!(section_of(&headings, 10), (9, 11));
        assert_eq!(section_of(&headings, 25), (20, u32::MAX));
        assert_eq!(section_of(&[(4, 2)], 2), (1, 3));
        assert_eq!(section_of(&[], 2), (1, u32::MAX));
    }

    #[test]
    fn a_name_is_the_same_with_or_without_its_slash() {
        assert!(same_name("src/old/", "src/old"));
        assert!(same_name("setDefaultLocale", "setDefaultLocale"));
        assert!(!same_name("setDefaultUserLocale", "setDefaultLocale"));
        assert!(!same_name("src/old/a.rs", "src/old"));
    }
}
