//! The small subset of YAML front matter memory files use: `key: value` lines, quoted values,
//! block scalars and lists (kept as text). A full YAML parser would accept more, but would
//! also turn a typo into a silently different document; here a line that is not
//! `key: value` is reported.

/// Front matter of a Markdown file, plus where the body starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FrontMatter {
    fields: Vec<(String, String)>,
    /// Byte offset of the body (the first byte after the closing `---` line).
    pub body_offset: usize,
    /// 1-based line of the body's first line.
    pub body_line: u32,
}

impl FrontMatter {
    /// The value of the first of `keys` present (case-insensitive); empty values count as absent.
    pub fn get(&self, keys: &[&str]) -> Option<&str> {
        keys.iter().find_map(|key| {
            self.fields.iter().find(|(k, v)| k.eq_ignore_ascii_case(key) && !v.is_empty()).map(|(_, v)| v.as_str())
        })
    }
}

/// Splits the front matter off `text`. `Ok(None)` when the file has none; `Err` says what is
/// broken (never closed, or a line that is not `key: value`).
pub(crate) fn split(text: &str) -> Result<Option<FrontMatter>, String> {
    let mut lines = LineIter::new(text);
    let Some((_, first)) = lines.next() else {
        return Ok(None);
    };
    if first.trim_end() != "---" {
        return Ok(None);
    }
    // Without a closing line, every body line would read as bad front matter: say what is
    // actually missing instead.
    let closed = LineIter::new(text).skip(1).any(|(_, l)| matches!(l.trim_end(), "---" | "..."));
    if !closed {
        return Err("front matter opened with `---` on line 1 is never closed with a `---` line".to_string());
    }
    let mut fields: Vec<(String, String)> = Vec::new();
    let mut block: Option<Block> = None;
    while let Some((line_no, line)) = lines.next() {
        let trimmed = line.trim_end();
        if trimmed == "---" || trimmed == "..." {
            if let Some(b) = block.take() {
                b.finish(&mut fields);
            }
            let body_offset = lines.offset;
            return Ok(Some(FrontMatter { fields, body_offset, body_line: line_no + 1 }));
        }
        if trimmed.trim_start().is_empty() || trimmed.trim_start().starts_with('#') {
            if let Some(b) = block.as_mut() {
                b.lines.push(String::new());
            }
            continue;
        }
        let indented = line.starts_with([' ', '\t']);
        if indented || trimmed.starts_with("- ") || trimmed == "-" {
            match block.as_mut() {
                Some(b) => b.lines.push(trimmed.trim_start().to_string()),
                None => {
                    return Err(format!(
                        "front matter line {line_no} is indented or a list item but follows no key: {trimmed:?}"
                    ))
                }
            }
            continue;
        }
        let Some((key, value)) = split_key_value(trimmed) else {
            return Err(format!("front matter line {line_no} is not `key: value`: {trimmed:?}"));
        };
        if let Some(b) = block.take() {
            b.finish(&mut fields);
        }
        let value = value.trim();
        let style = match value.chars().next() {
            Some('|') => Some('\n'),
            Some('>') => Some(' '),
            _ => None,
        };
        match style {
            Some(sep) => block = Some(Block::new(key, String::new(), sep)),
            None => {
                let value = unquote(value).map_err(|e| format!("front matter line {line_no}: {e}"))?;
                block = Some(Block::new(key, value, ' '));
            }
        }
    }
    Err("front matter opened with `---` on line 1 is never closed with a `---` line".to_string())
}

/// A key whose value may continue on the following indented lines.
struct Block {
    key: String,
    head: String,
    lines: Vec<String>,
    sep: char,
}

impl Block {
    fn new(key: &str, head: String, sep: char) -> Self {
        Block { key: key.to_string(), head, lines: Vec::new(), sep }
    }

    fn finish(mut self, fields: &mut Vec<(String, String)>) {
        while self.lines.last().is_some_and(String::is_empty) {
            self.lines.pop();
        }
        let mut value = self.head;
        for line in self.lines {
            if !value.is_empty() {
                value.push(self.sep);
            }
            value.push_str(line.strip_prefix("- ").unwrap_or(&line));
        }
        fields.push((self.key, value));
    }
}

fn split_key_value(line: &str) -> Option<(&str, &str)> {
    let bytes = line.as_bytes();
    let colon = (0..bytes.len())
        .find(|&i| bytes[i] == b':' && (i + 1 == bytes.len() || bytes[i + 1] == b' ' || bytes[i + 1] == b'\t'))?;
    let key = line[..colon].trim();
    let key = key
        .strip_prefix('"')
        .and_then(|k| k.strip_suffix('"'))
        .or_else(|| key.strip_prefix('\'').and_then(|k| k.strip_suffix('\'')))
        .unwrap_or(key);
    if key.is_empty() {
        return None;
    }
    Some((key, &line[colon + 1..]))
}

fn unquote(value: &str) -> Result<String, String> {
    for q in ['"', '\''] {
        if let Some(rest) = value.strip_prefix(q) {
            return match rest.rfind(q) {
                Some(end) => Ok(rest[..end].to_string()),
                None => Err(format!("quoted value {value:?} is never closed")),
            };
        }
    }
    // A trailing ` # comment` is not part of a plain YAML value.
    let value = value.find(" #").map_or(value, |i| &value[..i]);
    Ok(value.trim_end().to_string())
}

/// Iterates lines with their 1-based number, tracking the byte offset after each line.
struct LineIter<'a> {
    text: &'a str,
    offset: usize,
    line: u32,
}

impl<'a> LineIter<'a> {
    fn new(text: &'a str) -> Self {
        LineIter { text, offset: 0, line: 0 }
    }
}

impl<'a> Iterator for LineIter<'a> {
    type Item = (u32, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        if self.offset >= self.text.len() {
            return None;
        }
        let rest = &self.text[self.offset..];
        let (line, advance) = match rest.find('\n') {
            Some(i) => (&rest[..i], i + 1),
            None => (rest, rest.len()),
        };
        self.offset += advance;
        self.line += 1;
        Some((self.line, line.strip_suffix('\r').unwrap_or(line)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_front_matter() {
        assert_eq!(split("# Title\nbody\n"), Ok(None));
        assert_eq!(split(""), Ok(None));
        assert_eq!(split("----\nx\n"), Ok(None));
    }

    #[test]
    fn fields_and_body_position() {
        let text = "---\nname: Keep tests\ndescription: \"quoted: yes\"\ntype: feedback # why\n---\nBody line\n";
        let fm = split(text).unwrap().unwrap();
        assert_eq!(fm.get(&["name"]), Some("Keep tests"));
        assert_eq!(fm.get(&["DESCRIPTION"]), Some("quoted: yes"));
        assert_eq!(fm.get(&["type"]), Some("feedback"));
        assert_eq!(fm.get(&["missing", "name"]), Some("Keep tests"));
        assert_eq!(fm.body_line, 6);
        assert_eq!(&text[fm.body_offset..], "Body line\n");
    }

    #[test]
    fn crlf_and_block_scalars() {
        let text = "---\r\ndescription: >\r\n  folded\r\n  text\r\ntags:\r\n  - a\r\n  - b\r\n---\r\nbody";
        let fm = split(text).unwrap().unwrap();
        assert_eq!(fm.get(&["description"]), Some("folded text"));
        assert_eq!(fm.get(&["tags"]), Some("a b"));
        assert_eq!(&text[fm.body_offset..], "body");
        assert_eq!(fm.body_line, 9);
    }

    #[test]
    fn broken_front_matter_says_what_is_wrong() {
        let unclosed = split("---\nname: x\nbody\n").unwrap_err();
        assert!(unclosed.contains("never closed"), "{unclosed}");
        let not_kv = split("---\nname: x\njust words\n---\n").unwrap_err();
        assert!(not_kv.contains("line 3") && not_kv.contains("key: value"), "{not_kv}");
        let quote = split("---\nname: \"open\n---\n").unwrap_err();
        assert!(quote.contains("never closed"), "{quote}");
    }
}
