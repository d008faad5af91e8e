//! The draft judgement as text: the docs/contracts.md §7 JSON document (what the CLI prints and the NATS
//! service replies) and a table for a terminal. Both escape what would act on a terminal;
//! neither changes a quote's printable text. The table shows every field from a memory, the
//! draft or the model on its own line through [`one_line`] (quotes as Rust string literals):
//! a model's reason with a newline must not print a verdict line that memval did not decide.

use memval_proto::display::{json_safe, one_line, terminal_safe};

use super::Judgement;

/// The judgement as pretty JSON, one trailing newline.
pub fn json(j: &Judgement) -> String {
    // Serializing plain strings, numbers and lists cannot fail.
    json_safe(&format!("{}\n", serde_json::to_string_pretty(j).unwrap_or_default()))
}

/// The judgement as compact JSON bytes (the NATS reply).
pub fn json_bytes(j: &Judgement) -> Vec<u8> {
    json_safe(&serde_json::to_string(j).unwrap_or_default()).into_bytes()
}

/// The judgement for a person at a terminal.
pub fn table(j: &Judgement) -> String {
    let mut out = String::new();
    let score = j.score.map_or("null".to_owned(), |s| s.to_string());
    out.push_str(&format!(
        "{}: {}  score {score}  confidence {:.2}\n",
        one_line(j.judge),
        if j.veto { "VETO" } else { "no veto" },
        j.confidence
    ));
    out.push_str(&format!("reason: {}\n", one_line(&j.reason)));
    for e in &j.evidence {
        out.push_str(&format!(
            "evidence: {}\n    memory: {:?}\n    draft:  {:?}\n",
            one_line(&e.memory_file),
            e.memory_excerpt,
            e.draft_match
        ));
    }
    for n in &j.not_judged {
        out.push_str(&format!("not judged: {}: {}\n", one_line(&n.memory_file), one_line(&n.reason)));
    }
    for line in &j.detail {
        out.push_str(&format!("detail: {}\n", one_line(line)));
    }
    terminal_safe(&out)
}
