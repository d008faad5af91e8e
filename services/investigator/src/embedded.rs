//! Code inside component files, where the markup around it defines nothing:
//! - a Razor component or page (`.razor`, `.cshtml`): the C# of its `@code { }` and
//!   `@functions { }` blocks, the members of the class the file compiles to;
//! - a single-file component (`.vue`, `.svelte`, `.astro`): its `<script>` elements, and an
//!   Astro file's front matter between its `---` lines; TypeScript when a block says
//!   `lang="ts"` (or the file is Astro's), JavaScript otherwise.
//!
//! [`code_of`] gives that code as one text with the file's lines: everything outside the code
//! is dropped except its line breaks, so a definition found in it keeps its line. A Razor
//! block is read as the body of a class ([`RAZOR_CLASS`], which the caller leaves out of the
//! definitions and as a container: the component's class is named after its file, and a
//! qualifier is matched against the file's stem).

/// The language of a component file's code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Code {
    CSharp,
    TypeScript,
    JavaScript,
}

/// The class a Razor block's members are parsed in.
pub(crate) const RAZOR_CLASS: &str = "__razor_component";

/// What kind of component file a path is (`Lang::of` tells).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Host {
    Razor,
    Script,
    Astro,
}

/// The code of a component file as a text of the same lines, and the language to parse it
/// with; `None` when the file holds no code block.
pub(crate) fn code_of(host: Host, text: &str) -> Option<(Code, String)> {
    let (lang, blocks) = match host {
        Host::Razor => (Code::CSharp, razor_blocks(text)),
        Host::Script | Host::Astro => {
            let mut ts = host == Host::Astro;
            let mut blocks = if host == Host::Astro { front_matter(text).into_iter().collect() } else { Vec::new() };
            for (block, typed) in script_blocks(text) {
                ts |= typed;
                blocks.push(block);
            }
            (if ts { Code::TypeScript } else { Code::JavaScript }, blocks)
        }
    };
    if blocks.is_empty() {
        return None;
    }
    let mut blocks = blocks;
    blocks.sort_by_key(|b| b.start);
    blocks.dedup_by(|later, earlier| later.start < earlier.end);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for block in blocks {
        out.extend(text[at..block.start].chars().filter(|&c| c == '\n'));
        if host == Host::Razor {
            out.push_str("class ");
            out.push_str(RAZOR_CLASS);
            out.push(' ');
        }
        out.push_str(&text[block.clone()]);
        at = block.end;
    }
    out.extend(text[at..].chars().filter(|&c| c == '\n'));
    Some((lang, out))
}

/// The `{ ... }` of every `@code` and `@functions` block, braces included.
fn razor_blocks(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut blocks = Vec::new();
    let mut from = 0;
    while let Some(rel) = text[from..].find('@') {
        let at = from + rel;
        let rest = &text[at + 1..];
        let word = ["code", "functions"]
            .into_iter()
            .find(|w| rest.starts_with(w) && !rest[w.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_'));
        from = at + 1;
        let Some(word) = word else { continue };
        let after = at + 1 + word.len();
        let gap = text[after..].len() - text[after..].trim_start().len();
        if !text[after + gap..].starts_with('{') {
            continue;
        }
        let open = after + gap;
        let Some(close) = matching_brace(text, open) else { break };
        blocks.push(open..close + 1);
        from = close + 1;
    }
    blocks
}

/// The index of the `}` closing the `{` at `open`, past C# strings, characters and comments.
fn matching_brace(text: &str, open: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = open;
    while i < bytes.len() {
        match bytes[i] {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = text[i + 2..].find("*/").map_or(bytes.len(), |n| i + 2 + n + 2);
                continue;
            }
            b'"' => {
                // A verbatim string (`@"..."`) doubles its quotes; others escape with `\`.
                let verbatim = i > 0 && bytes[i - 1] == b'@';
                i += 1;
                while i < bytes.len() {
                    match bytes[i] {
                        b'\\' if !verbatim => i += 1,
                        b'"' if verbatim && bytes.get(i + 1) == Some(&b'"') => i += 1,
                        b'"' => break,
                        b'\n' if !verbatim => break,
                        _ => {}
                    }
                    i += 1;
                }
            }
            b'\'' => {
                // A character literal: `'x'`, `'\n'`, `'\''`.
                let close = match bytes.get(i + 1) {
                    Some(b'\\') => text[i + 3..].find('\'').map(|n| i + 3 + n),
                    Some(_) => text[i + 2..].find('\'').filter(|&n| n <= 3).map(|n| i + 2 + n),
                    None => None,
                };
                if let Some(close) = close.filter(|&c| c <= i + 8) {
                    i = close;
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The contents of every `<script ...>` element, and whether it says it is TypeScript.
fn script_blocks(text: &str) -> Vec<(std::ops::Range<usize>, bool)> {
    let lower = text.to_ascii_lowercase();
    let mut blocks = Vec::new();
    let mut from = 0;
    while let Some(rel) = lower[from..].find("<script") {
        let tag = from + rel;
        let Some(end) = lower[tag..].find('>').map(|n| tag + n) else { break };
        let attrs = &lower[tag + "<script".len()..end];
        from = end + 1;
        if !attrs.is_empty() && !attrs.starts_with(char::is_whitespace) {
            continue; // `<scripts>`, `<script-x>`
        }
        let Some(close) = lower[from..].find("</script").map(|n| from + n) else { break };
        let typed = ["lang=\"ts\"", "lang='ts'", "lang=\"tsx\"", "lang=ts", "type=\"text/typescript\""]
            .iter()
            .any(|a| attrs.contains(a));
        blocks.push((from..close, typed));
        from = close;
    }
    blocks
}

/// An Astro file's front matter: the lines between a first line `---` and the next `---`.
fn front_matter(text: &str) -> Option<std::ops::Range<usize>> {
    let first = text.lines().next()?;
    if first.trim() != "---" {
        return None;
    }
    let start = first.len() + 1;
    let mut at = start;
    for line in text.get(start..)?.split_inclusive('\n') {
        if line.trim() == "---" {
            return Some(start..at);
        }
        at += line.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_without_code_has_none() {
        assert_eq!(code_of(Host::Razor, "@page \"/\"\n<h1>class Foo</h1>\n"), None);
        assert_eq!(code_of(Host::Script, "<template>\n  <p>function x() {}</p>\n</template>\n"), None);
        assert_eq!(code_of(Host::Razor, "@code {\n unclosed"), None);
    }

    #[test]
    fn blocks_and_their_languages() {
        let (code, text) =
            code_of(Host::Razor, "<p>{</p>\n@code { string s = \"}\"; char c = '}'; }\n<p>}</p>").expect("a block");
        assert_eq!(code, Code::CSharp);
        assert_eq!(text, format!("\nclass {RAZOR_CLASS} {{ string s = \"}}\"; char c = '}}'; }}\n"));
        let (code, _) = code_of(Host::Script, "<script setup lang=\"ts\">\nconst a = 1\n</script>").expect("a script");
        assert_eq!(code, Code::TypeScript);
        let (code, _) = code_of(Host::Script, "<script>\nlet a = 1\n</script>").expect("a script");
        assert_eq!(code, Code::JavaScript);
        let (code, text) = code_of(Host::Astro, "---\nconst a = 1;\n---\n<h1>x</h1>\n").expect("front matter");
        assert_eq!(code, Code::TypeScript);
        assert_eq!(text, "\nconst a = 1;\n\n\n");
    }

    #[test]
    fn line_count_is_kept() {
        let text = "a\n@code {\n int X;\n}\nb\n@code { int Y; }";
        let (_, code) = code_of(Host::Razor, text).expect("blocks");
        assert_eq!(code.matches('\n').count(), text.matches('\n').count(), "{code:?}");
        assert_eq!(code.lines().position(|l| l.contains("int Y")), Some(5), "{code:?}");
    }
}
