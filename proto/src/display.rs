//! Text from memories, files and models shown to people. Every byte of it is untrusted: a
//! terminal escape in a memory's `agent` field must not retitle the user's terminal, and a
//! bidi override must not reorder what they read. These functions make such text inert for
//! the formats memval prints; they never change printable text.

/// Whether `c` would act on a terminal (or reorder text) instead of being shown: C0 controls
/// except newline and tab, DEL, C1 controls, and the bidi embedding, override and isolate
/// characters.
pub fn is_active(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` with every [`is_active`] character written as a visible `\u{..}` escape, for
/// table, Markdown and log output.
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
}
