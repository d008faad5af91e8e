//! Text from memories, files and models shown to people. Every byte of it is untrusted: a
//! terminal escape in a memory's `agent` field must not retitle the user's terminal, and a
//! bidi override must not reorder what they read. These functions make such text inert for
//! the formats memval prints; they never change printable text. A field shown inside a row
//! goes through [`one_line`], never [`terminal_safe`] alone: a newline kept in a memory's text
//! would let it print rows that pass for memval's own.
//!
//! The four functions: [`terminal_safe`] for a whole document (terminal controls and bidi
//! overrides escaped, newlines kept); [`one_line`] for any field shown inside a row or line
//! (also escapes `\n`, `\r`, `\t` and the Unicode line separators, so a memory cannot print a
//! row that passes for memval's; a Markdown cell goes through it too, with `|` escaped
//! besides); [`error_chain`] for an error and its causes on one line, each link through
//! [`one_line`] (the binary's `memval: error: ...`); [`json_safe`] for JSON text.

/// Whether `c` would act on a terminal (or reorder text) instead of being shown: C0 controls
/// except newline and tab, DEL, C1 controls, and the bidi embedding, override and isolate
/// characters.
pub fn is_active(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` with every [`is_active`] character written as a visible `\u{..}` escape, for
/// whole documents (table, Markdown and log output). It keeps newlines and tabs, so a single
/// field shown inside a row needs [`one_line`] instead.
pub fn terminal_safe(text: &str) -> String {
    if !text.chars().any(is_active) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_active(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// `text` as one line of a row, for any field a table, list or log line shows inline: newline,
/// carriage return and tab written as `\n`, `\r`, `\t`, the Unicode line and paragraph
/// separators and every other [`is_active`] character as `\u{..}`. A memory whose text holds
/// a newline then cannot start a row of its own that passes for memval's (a forged verdict,
/// pair or dead letter). Printable text, backslashes included, is left as it is.
pub fn one_line(text: &str) -> String {
    if !text.chars().any(|c| breaks_line(c) || is_active(c)) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if breaks_line(c) || is_active(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// An error and its causes as one line, `error: cause: cause` (anyhow's `{:#}` shape), each
/// link through [`one_line`]. A link can quote a memory's text, a path a memory named or a
/// model's words; a newline in one must not print a second line that passes for memval's own
/// (`memval: error: ...`, a verdict row). The `: ` between links is memval's, so the chain
/// still reads as one.
pub fn error_chain<I, S>(links: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    links.into_iter().map(|link| one_line(link.as_ref())).collect::<Vec<_>>().join(": ")
}

/// Characters some viewer (a terminal, an editor, a Markdown renderer) starts a new line or
/// column at, beyond the C0/C1 controls [`is_active`] already covers.
fn breaks_line(c: char) -> bool {
    matches!(c, '\n' | '\t' | '\u{2028}' | '\u{2029}')
}

/// A JSON document (as serde_json writes it: C0 controls already escaped) with DEL, C1
/// controls and bidi controls escaped as `\uXXXX` too. Such characters only occur inside
/// strings, so the document stays valid and decodes to the same values.
pub fn json_safe(json: &str) -> String {
    if !json.chars().any(is_active) {
        return json.to_owned();
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if is_active(c) && c != '\n' {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_act_nowhere_and_printable_text_is_untouched() {
        let hostile = "agent\u{1b}]0;pwned\u{7} \u{9b}31m \u{202e}txt.exe\u{7f}";
        let shown = terminal_safe(hostile);
        assert!(!shown.chars().any(is_active), "{shown}");
        assert_eq!(shown, "agent\\u{1b}]0;pwned\\u{7} \\u{9b}31m \\u{202e}txt.exe\\u{7f}");
        assert_eq!(terminal_safe("naïve 日本 → `src/a.rs`\n\tok"), "naïve 日本 → `src/a.rs`\n\tok");
        let json = serde_json::to_string(&serde_json::json!({"agent": hostile})).unwrap();
        let safe = json_safe(&json);
        assert!(!safe.chars().any(is_active), "{safe}");
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back["agent"], hostile);
    }

    #[test]
    fn one_line_never_breaks_a_line_and_keeps_printable_text() {
        let forged = "use lru\nCLAUDE.md  [pm]  score 100  keep\r\n\tVALID\u{2028}x\u{85}y\u{1b}[2K";
        let shown = one_line(forged);
        assert_eq!(shown, "use lru\\nCLAUDE.md  [pm]  score 100  keep\\r\\n\\tVALID\\u{2028}x\\u{85}y\\u{1b}[2K");
        assert_eq!(shown.lines().count(), 1);
        assert!(!shown.chars().any(|c| is_active(c) || breaks_line(c)), "{shown}");
        // What is already safe, backslashes included, comes back unchanged (and so does its
        // second pass: renderers may escape a field and then the whole output).
        assert_eq!(one_line("naïve 日本 → `src/a.rs` C:\\x\\n"), "naïve 日本 → `src/a.rs` C:\\x\\n");
        assert_eq!(one_line(&shown), shown);
        assert_eq!(terminal_safe(&shown), shown);
    }

    #[test]
    fn an_error_chain_is_one_line_whatever_its_links_quote() {
        let links = ["cannot read memories", "no such file: notes\nmemval: error: forged\r\u{1b}[2K.md"];
        let shown = error_chain(links);
        assert_eq!(shown, "cannot read memories: no such file: notes\\nmemval: error: forged\\r\\u{1b}[2K.md");
        assert_eq!(shown.lines().count(), 1);
        assert_eq!(error_chain(["a", "b", "c"]), "a: b: c", "memval's own chain reads as anyhow's alternate form");
    }
}
