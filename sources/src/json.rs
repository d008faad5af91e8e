//! JSON and JSONL memory files: `{id, agent, content, tier, type, created_at, updated_at?, source?}`
//! objects, as an array, as `{"memories": [...]}`, or one per line.

use std::io::Read;
use std::path::Path;

use memval_proto::{Memory, Source};
use serde_json::{Map, Value};

use crate::common::Ctx;
use crate::dates;
use crate::error::SourceError;
use crate::loaded::Format;
use crate::text::{too_large, MAX_MEMORY_BYTES};

/// Largest JSON/JSONL file read: a store of many memories, each under the per-memory limit.
const MAX_STORE_BYTES: u64 = 512 * 1024 * 1024;

pub(crate) fn load_json(path: &Path, ctx: &mut Ctx) -> Result<Vec<Memory>, SourceError> {
    let text = read_store(path)?;
    let text = crate::text::decode(text).map_err(|reason| malformed(path, "JSON", reason))?;
    if text.trim().is_empty() {
        return Err(malformed(
            path,
            "JSON",
            "the file is empty; a JSON memory file holds an array of memory objects or an object with a `memories` array".into(),
        ));
    }
    let doc: Value = serde_json::from_str(&text).map_err(|e| malformed(path, "JSON", e.to_string()))?;
    let (items, key) = match doc {
        Value::Array(items) => (items, None),
        Value::Object(mut obj) => match obj.remove("memories") {
            Some(Value::Array(items)) => (items, Some("memories")),
            Some(_) => {
                return Err(malformed(path, "JSON", "`memories` is not an array".into()));
            }
            None if obj.contains_key("content") => (vec![Value::Object(obj)], None),
            None => {
                return Err(malformed(
                    path,
                    "JSON",
                    "expected an array of memory objects or an object with a `memories` array".into(),
                ))
            }
        },
        _ => {
            return Err(malformed(
                path,
                "JSON",
                "expected an array of memory objects or an object with a `memories` array".into(),
            ))
        }
    };
    let lines = element_lines(&text, key).filter(|l| l.len() == items.len());
    let shown = path.to_string_lossy().into_owned();
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        let line = lines.as_ref().map(|l| l[i]);
        let whence = match line {
            Some(l) => format!("line {l} (memory #{})", i + 1),
            None => format!("memory #{}", i + 1),
        };
        let source = Source { path: shown.clone(), line, row: None, format: Format::Json.as_str().into() };
        match record(item, source) {
            Ok(m) => out.push(m),
            Err(reason) => ctx.problem(path, format!("{whence}: {reason}")),
        }
    }
    Ok(out)
}

pub(crate) fn load_jsonl(path: &Path, ctx: &mut Ctx) -> Result<Vec<Memory>, SourceError> {
    let bytes = read_store(path)?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        ctx.problem(path, "the file is empty: no memories in it (JSONL holds one memory object per line)");
        return Ok(Vec::new());
    }
    let shown = path.to_string_lossy().into_owned();
    let mut out = Vec::new();
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let line_no = (i + 1) as u32;
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let raw = if i == 0 { raw.strip_prefix(b"\xef\xbb\xbf").unwrap_or(raw) } else { raw };
        if raw.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let parsed = std::str::from_utf8(raw)
            .map_err(|e| format!("not valid UTF-8 (byte {} of the line)", e.valid_up_to() + 1))
            .and_then(|line| serde_json::from_str::<Value>(line).map_err(|e| format!("not valid JSON: {e}")))
            .and_then(|value| {
                record(
                    value,
                    Source {
                        path: shown.clone(),
                        line: Some(line_no),
                        row: None,
                        format: Format::Jsonl.as_str().into(),
                    },
                )
            });
        match parsed {
            Ok(m) => out.push(m),
            Err(reason) => ctx.problem(path, format!("line {line_no}: {reason}")),
        }
    }
    Ok(out)
}

fn read_store(path: &Path) -> Result<Vec<u8>, SourceError> {
    let file = crate::text::open_regular(path).map_err(|e| SourceError::io(path, e))?;
    let mut bytes = Vec::new();
    file.take(MAX_STORE_BYTES + 1).read_to_end(&mut bytes).map_err(|e| SourceError::io(path, e))?;
    if bytes.len() as u64 > MAX_STORE_BYTES {
        return Err(malformed(
            path,
            "JSON",
            format!("larger than {} MiB; split it into several files", MAX_STORE_BYTES >> 20),
        ));
    }
    Ok(bytes)
}

fn malformed(path: &Path, format: &'static str, reason: String) -> SourceError {
    SourceError::Malformed { path: path.to_path_buf(), format, reason }
}

/// One memory object. The error is a Problem reason naming the bad field.
pub(crate) fn record(value: Value, source: Source) -> Result<Memory, String> {
    let Value::Object(mut obj) = value else {
        return Err(format!("expected a memory object, found {}", kind_of(&value)));
    };
    let id = match obj.remove("id") {
        Some(Value::Number(n)) if n.is_i64() || n.is_u64() => n.to_string(),
        Some(Value::String(s)) if !s.trim().is_empty() => s,
        Some(other) => return Err(format!("`id` must be an integer or a non-empty string, found {other}")),
        None => return Err("missing `id`".into()),
    };
    let content = match obj.remove("content") {
        Some(Value::String(s)) => s,
        Some(other) => return Err(format!("memory {id}: `content` must be a string, found {}", kind_of(&other))),
        None => return Err(format!("memory {id}: missing `content`")),
    };
    if content.len() as u64 > MAX_MEMORY_BYTES {
        return Err(format!("memory {id}: {}", too_large(content.len() as u64)));
    }
    let agent = optional_string(&mut obj, &["agent"]).map_err(|e| format!("memory {id}: {e}"))?;
    let kind = optional_string(&mut obj, &["type", "kind"]).map_err(|e| format!("memory {id}: {e}"))?;
    let tier = match obj.remove("tier") {
        None | Some(Value::Null) => 0,
        Some(v) => tier(&v).map_err(|e| format!("memory {id}: {e}"))?,
    };
    let created_at = date_field(&mut obj, "created_at").map_err(|e| format!("memory {id}: {e}"))?;
    let updated_at = date_field(&mut obj, "updated_at").map_err(|e| format!("memory {id}: {e}"))?;
    Ok(Memory {
        id,
        agent: agent.unwrap_or_else(|| "unknown".into()),
        content,
        tier,
        kind: kind.unwrap_or_else(|| "memory".into()),
        created_at,
        updated_at,
        source,
        context_dir: None,
        first_line: 1,
    })
}

/// A tier 0-2, as a number or a numeric string.
pub(crate) fn tier(value: &Value) -> Result<u8, String> {
    let n = match value {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    };
    match n {
        Some(t @ 0..=2) => Ok(t as u8),
        _ => Err(format!("`tier` must be 0, 1 or 2, found {value}")),
    }
}

fn optional_string(obj: &mut Map<String, Value>, keys: &[&str]) -> Result<Option<String>, String> {
    for key in keys {
        match obj.remove(*key) {
            None | Some(Value::Null) => continue,
            Some(Value::String(s)) if s.trim().is_empty() => continue,
            Some(Value::String(s)) => return Ok(Some(s)),
            Some(other) => return Err(format!("`{key}` must be a string, found {}", kind_of(&other))),
        }
    }
    Ok(None)
}

fn date_field(obj: &mut Map<String, Value>, key: &str) -> Result<Option<i64>, String> {
    match obj.remove(key) {
        None => Ok(None),
        Some(v) => dates::from_json(&v).map_err(|e| format!("`{key}`: {e}")),
    }
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The 1-based line each element of the memories array starts on: the top-level array when
/// `key` is `None`, else the array under that key of the top-level object. Assumes `text` is
/// valid JSON (it has been parsed already), so the scan only tracks strings and nesting.
fn element_lines(text: &str, key: Option<&str>) -> Option<Vec<u32>> {
    let bytes = text.as_bytes();
    let mut stack: Vec<u8> = Vec::new();
    let mut line = 1u32;
    let mut target_depth: Option<usize> = None;
    let mut expecting = false;
    let mut lines = Vec::new();
    // Tracking the key of the top-level object's current member.
    let mut last_sig = 0u8;
    let mut current_key: Option<&str> = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\n' {
            line += 1;
            i += 1;
            continue;
        }
        if b.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if expecting && Some(stack.len()) == target_depth && b != b']' {
            lines.push(line);
            expecting = false;
        }
        match b {
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    } else if bytes[i] == b'\n' {
                        line += 1;
                    }
                    i += 1;
                }
                if stack == [b'{'] && matches!(last_sig, b'{' | b',') {
                    current_key = text.get(start..i);
                }
                last_sig = b'"';
            }
            b'[' | b'{' => {
                let opens_target = target_depth.is_none()
                    && b == b'['
                    && match key {
                        None => stack.is_empty(),
                        Some(k) => stack == [b'{'] && current_key == Some(k),
                    };
                stack.push(b);
                if opens_target {
                    target_depth = Some(stack.len());
                    expecting = true;
                }
                last_sig = b;
            }
            b']' | b'}' => {
                if Some(stack.len()) == target_depth {
                    return Some(lines);
                }
                stack.pop();
                last_sig = b;
            }
            b',' => {
                if Some(stack.len()) == target_depth {
                    expecting = true;
                }
                last_sig = b;
            }
            _ => last_sig = b,
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_lines_of_a_top_level_array() {
        let text = "[\n  {\"id\": 1,\n   \"content\": \"a [b] {c}\\\" ,\"},\n  {\"id\": 2}, {\"id\": 3}\n]";
        assert_eq!(element_lines(text, None), Some(vec![2, 4, 4]));
    }

    #[test]
    fn element_lines_under_the_memories_key() {
        let text = "{\n \"other\": [{\"x\": [1]}],\n \"nested\": {\"memories\": [9]},\n \"memories\": [\n\n  {\"id\": \"a\"},\n  {\"id\": \"b\"}\n ]\n}";
        assert_eq!(element_lines(text, Some("memories")), Some(vec![6, 7]));
        assert_eq!(element_lines("{\"memories\": []}", Some("memories")), Some(vec![]));
    }

    #[test]
    fn record_fields_and_defaults() {
        let source = Source { path: "m.json".into(), line: Some(3), row: None, format: "json".into() };
        let m =
            record(serde_json::json!({"id": 7, "content": "c", "created_at": "2026-03-15"}), source.clone()).unwrap();
        assert_eq!((m.id.as_str(), m.agent.as_str(), m.kind.as_str(), m.tier), ("7", "unknown", "memory", 0));
        assert_eq!(m.created_at, Some(1_773_532_800));
        let bad_tier = record(serde_json::json!({"id": "x", "content": "c", "tier": 3}), source.clone());
        assert!(bad_tier.unwrap_err().contains("tier"));
        let no_content = record(serde_json::json!({"id": 1}), source.clone());
        assert!(no_content.unwrap_err().contains("missing `content`"));
        let float_id = record(serde_json::json!({"id": 1.5, "content": "c"}), source);
        assert!(float_id.unwrap_err().contains("`id`"));
    }
}
