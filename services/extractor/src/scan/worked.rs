//! A section that walks through its steps with a named example: "To add a new submodule, using
//! https://github.com/ROCm/rocRoller as an example:", "Taking `payments` as the example ...". The
//! paths and names built from the example's name in that section (`math-libs/BLAS/rocRoller`,
//! `ls math-libs/BLAS/rocRoller`) are the example's, what the reader would make for their own
//! case, not claims about the repository. From the line that names the example to the end of
//! its section, a file mention with a path segment of that name is no claim, nor is a symbol of
//! that name; each such example is reported as not checked, with its line.

use std::sync::LazyLock;

use regex::Regex;

use super::doc::{Doc, Example};
use super::gone::section_of;

/// "using X as an example", "taking X as the example", "with X as our running example".
static AS_AN_EXAMPLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:using|taking|use|take|with)\s+(\S+(?:\s+\S+)?)\s+as\s+(?:an?|the|our)\s+(?:worked\s+|running\s+)?example\b",
    )
    .expect("valid regex")
});

/// The name a sentence takes as its example, cleaned of Markdown and read from a URL's last
/// segment (`https://github.com/ROCm/rocRoller.git` → `rocRoller`). `None` for none, or for a
/// name too short to tell from a word (under three characters).
pub(super) fn example_name(text: &str) -> Option<String> {
    let raw = AS_AN_EXAMPLE.captures(text)?.get(1)?.as_str();
    // `[rocRoller](https://...)` names what its text says.
    let raw = raw.strip_prefix('[').and_then(|r| r.split(']').next()).unwrap_or(raw);
    let raw = raw.trim_matches(|c: char| matches!(c, '`' | '"' | '\'' | '*' | '_' | '<' | '>' | ',' | ':' | '(' | ')'));
    let last = raw.trim_end_matches('/').rsplit('/').next().unwrap_or(raw);
    let name = last.strip_suffix(".git").unwrap_or(last);
    let plain = name.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'));
    (plain && name.chars().count() >= 3 && !name.contains(' ')).then(|| name.to_string())
}

/// Records the example a sentence on `line` names.
pub(super) fn record(doc: &mut Doc, line: u32, name: String) {
    if !doc.examples.iter().any(|e| e.name.eq_ignore_ascii_case(&name)) {
        doc.examples.push(Example { line, name, mentions: 0 });
    }
}

/// Takes the example's mentions out of the claims, from its line to the end of its section.
pub(super) fn forget_examples(doc: &mut Doc) {
    let Doc { sentences, examples, headings, .. } = doc;
    for e in examples.iter_mut() {
        let (_, to) = section_of(headings, e.line);
        for s in sentences.iter_mut().filter(|s| s.line >= e.line && s.line <= to) {
            let before = s.symbols.len();
            s.symbols.retain(|m| !m.name.eq_ignore_ascii_case(&e.name));
            e.mentions += before - s.symbols.len();
            for (i, f) in s.files.iter().enumerate() {
                let of_example = f.tok.path.split('/').any(|seg| {
                    seg.eq_ignore_ascii_case(&e.name)
                        || seg.split('.').next().is_some_and(|stem| stem.eq_ignore_ascii_case(&e.name))
                });
                if of_example && !s.denied_files.contains(&i) {
                    s.denied_files.push(i);
                    e.mentions += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::example_name;

    #[test]
    fn the_name_a_walk_through_takes_as_its_example() {
        let cases: [(&str, Option<&str>); 7] = [
            ("To add a new submodule, using https://github.com/ROCm/rocRoller as an example:", Some("rocRoller")),
            ("Taking `payments` as the example, create the module.", Some("payments")),
            ("We use [scale](https://example.invalid/scale) as our running example.", Some("scale")),
            ("Using the cache as an example of a shared resource", None),
            ("Use it as an example.", None),
            ("This module serves as an example of the pattern.", None),
            ("See `docs/x.md` for an example.", None),
        ];
        for (text, want) in cases {
            assert_eq!(example_name(text).as_deref(), want, "{text}");
        }
    }
}
