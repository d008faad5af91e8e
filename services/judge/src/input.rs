//! The pair judge's input: candidate pairs as JSONL (docs/contracts.md §5), each line checked on its own.
//!
//! A line that is not a valid pair is a problem with its line number, never the end of the input.

use std::collections::HashSet;
use std::io::BufRead;

use memval_proto::Pair;
use serde_json::Value;

use crate::plan;

/// A line of the input that could not be used.
pub struct Problem {
    /// 1-based line of the input.
    pub line: usize,
    pub reason: String,
}

/// What [`read`] made of the input.
pub struct Input {
    pub pairs: Vec<Pair>,
    /// Lines that could not be used, each with the reason.
    pub problems: Vec<Problem>,
    /// Ids given as JSON strings, printed back as strings (integer ids as integers).
    pub text_ids: HashSet<String>,
}

/// Read candidate pairs, one JSON object per line (docs/contracts.md §5). A line that is not a pair is a
/// [`Problem`], never the end of the input; only a read error is.
pub fn read(reader: impl BufRead) -> std::io::Result<Input> {
    let mut pairs = Vec::new();
    let mut problems = Vec::new();
    let mut text_ids = HashSet::new();
    for (i, line) in reader.lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        match parse_pair(&line, &mut text_ids).and_then(plan::normalise) {
            Ok(pair) => pairs.push(pair),
            Err(reason) => problems.push(Problem { line: i + 1, reason }),
        }
    }
    Ok(Input { pairs, problems, text_ids })
}

fn parse_pair(line: &str, text_ids: &mut HashSet<String>) -> Result<Pair, String> {
    let v: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let obj = v.as_object().ok_or("not a JSON object")?;
    let mut id = |key: &str| -> Result<String, String> {
        match obj.get(key) {
            Some(Value::Number(n)) if n.is_i64() || n.is_u64() => Ok(n.to_string()),
            Some(Value::String(s)) if !s.trim().is_empty() => {
                text_ids.insert(s.trim().to_owned());
                Ok(s.trim().to_owned())
            }
            _ => Err(format!("{key} must be an integer or a non-empty string")),
        }
    };
    let (id_a, id_b) = (id("id_a")?, id("id_b")?);
    let text = |key: &str| -> Result<String, String> {
        obj.get(key).and_then(Value::as_str).map(str::to_owned).ok_or_else(|| format!("{key} must be a string"))
    };
    Ok(Pair {
        id_a,
        agent_a: text("agent_a")?,
        content_a: text("content_a")?,
        id_b,
        agent_b: text("agent_b")?,
        content_b: text("content_b")?,
        score: obj.get("score").and_then(Value::as_f64).unwrap_or(0.0),
        method: obj.get("method").and_then(Value::as_str).unwrap_or("").to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_line_is_a_pair_or_a_problem() {
        let text = concat!(
            r#"{"id_a": 1, "agent_a": "x", "content_a": "a", "id_b": "m-2", "agent_b": "y", "content_b": "b", "score": 0.4, "method": "keyword"}"#,
            "\n",
            "\n",
            "not json\n",
            r#"{"id_a": 1, "agent_a": "x", "content_a": "a", "id_b": 2, "agent_b": "y"}"#,
            "\n",
        );
        let input = read(text.as_bytes()).unwrap();
        assert_eq!(input.pairs.len(), 1);
        assert_eq!((input.pairs[0].id_a.as_str(), input.pairs[0].id_b.as_str()), ("1", "m-2"));
        assert!(input.text_ids.contains("m-2") && !input.text_ids.contains("1"));
        let problems: Vec<(usize, bool)> =
            input.problems.iter().map(|p| (p.line, p.reason.contains("content_b"))).collect();
        assert_eq!(problems, vec![(3, false), (4, true)]);
    }
}
