//! What a port was made from: "`iceoryx2_adapter.rs` is the parity port of legacy's
//! `local_tests.rs`", "`zmq_integration.rs` ports the core tests from legacy's
//! `integration_tests.rs`", "`tests/kdb_integration.rs` ports both legacy files —
//! `integration_tests.rs` and `cache_integration_tests.rs`". The names after a port word and a
//! word for the old code (`legacy`, `old`, `previous`, `original`, `former`) are the old code's,
//! which the port replaced: the sentence says where the new file came from, not that the old one
//! is still there, so they are no claim. The port itself (`iceoryx2_adapter.rs`, before the port
//! word) is read as usual.
//!
//! Notes wrap their sentences over lines, so the words before a mention include the end of the
//! previous line when it runs on into this one (`Walker::carry`): "`iceoryx2_integration.rs`
//! ports legacy's\n`integration_tests.rs` — ...".

use std::sync::LazyLock;

use regex::Regex;

/// A port word, then (with no sentence's end between) a word for the old code, then anything up
/// to the mention but a sentence's end.
static PORT_SOURCE: LazyLock<Regex> = LazyLock::new(|| {
    // A sentence ends at `.`, `;`, `!` or `?` before a space; `x.rs` goes on.
    let on = r"(?:[^.;!?]|[.;!?]\S)";
    Regex::new(&format!(r"(?i)\bport(?:s|ed|ing)?\b{on}*?\b(?:legacy|old|previous|original|former)\b{on}*$"))
        .expect("valid regex")
});

/// Whether `text` has the word a port sentence needs (`port`, `ports`, ...), case aside: a cheap
/// test before [`port_source`] reads the words before each mention.
pub(super) fn mentions_a_port(text: &str) -> bool {
    text.as_bytes().windows(4).any(|w| w.eq_ignore_ascii_case(b"port"))
}

/// Whether the words before a mention (`before`: the sentence's text up to it, with the run-on
/// end of the previous line in front) make it what a port was made from.
pub(super) fn port_source(before: &str) -> bool {
    let before = before.trim_end().trim_end_matches(['`', '*', '[']);
    let Some(m) = PORT_SOURCE.find(before) else { return false };
    // Past another name after the old-code word, only a list goes on ("(`mod.rs`, `pub.rs`",
    // "`a.rs` and `b.rs`"): "`x.rs` — cross-process, over `shm.rs`" is about the port again.
    let tail = &before[m.start()..];
    match tail.rfind('`') {
        Some(i) => tail[i + 1..]
            .split(|c: char| c.is_whitespace() || matches!(c, ',' | '(' | '*'))
            .all(|w| w.is_empty() || w == "and" || w == "or"),
        None => true,
    }
}

/// The end of a line that runs on into the next: its last sentence, when it does not end with a
/// sentence's end or a colon (`... ports legacy's`), else nothing.
pub(super) fn run_on(line: &str) -> String {
    let t = line.trim_end();
    if t.is_empty() || t.ends_with(['.', '!', '?', ':', ';']) {
        return String::new();
    }
    // The last sentence's end: a `.`, `!`, `?` or `;` before a space (`x.rs` goes on).
    let start =
        t.match_indices([' ', '\t']).rev().find(|(i, _)| t[..*i].ends_with(['.', '!', '?', ';'])).map_or(0, |(i, _)| i);
    t[start..].trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::{port_source, run_on};

    #[test]
    fn what_a_port_was_made_from() {
        for before in [
            "`iceoryx2_adapter.rs` is the parity port of legacy's ",
            "`zmq_integration.rs` ports the core pub/sub tests from legacy's ",
            "`tests/kdb_integration.rs` ports **both** legacy files — ",
            "`tests/kdb_integration.rs` ports **both** legacy files — `integration_tests.rs` and ",
            "is the parity port of legacy's node-level unit tests (`mod.rs`, ",
            "is the parity port of legacy's node-level unit tests (`mod.rs`, `",
        ] {
            assert!(port_source(before), "{before}");
        }
        for before in [
            // the port itself, and ports of other kinds
            "",
            "Legacy tests were ported. See ",
            "The server listens on the port set in ",
            "Port the handler to ",
            "`a.rs` is a port of legacy's `b.rs`. The new one lives in ",
            "`b.rs` ports legacy's `x.rs` — cross-process, over ",
        ] {
            assert!(!port_source(before), "{before}");
        }
    }

    #[test]
    fn a_line_runs_on_until_a_sentence_ends() {
        assert_eq!(run_on("`x.rs` is done. `y.rs` ports legacy's"), "`y.rs` ports legacy's");
        assert_eq!(run_on("`y.rs` ports legacy's"), "`y.rs` ports legacy's");
        assert_eq!(run_on("The port is done."), "");
        assert_eq!(run_on("Files:"), "");
    }
}
