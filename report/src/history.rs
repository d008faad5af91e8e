//! The views of `memval history`: each memory's scores over the runs in a store. A memory's
//! source, id and run id are shown through [`one_line`]: a store is written from memories'
//! text, and a newline in it must not add a run that never happened.

use std::fmt::Write as _;

use memval_proto::display::one_line;

use memval_store::HistoryPoint;

/// One JSON document, `{"memories": [...], "change_verdicts": [...]}`: per memory (in the
/// order first seen), its runs with score and verdicts; then the stored change-validation
/// verdicts as the caller read them (`memval_judge::change::render::history_records`), the
/// same the table lists first.
pub fn to_json(points: &[HistoryPoint], change_verdicts: Vec<serde_json::Value>) -> String {
    let mut by_memory: Vec<(&str, Vec<&HistoryPoint>)> = Vec::new();
    for p in points {
        match by_memory.iter_mut().find(|(k, _)| *k == p.source) {
            Some((_, list)) => list.push(p),
            None => by_memory.push((&p.source, vec![p])),
        }
    }
    let grouped: Vec<serde_json::Value> = by_memory
        .into_iter()
        .map(|(source, list)| {
            serde_json::json!({
                "memory_id": list[0].memory_id,
                "source": source,
                "runs": list.iter().map(|p| serde_json::json!({
                    "run_id": p.run_id,
                    "started_at": memval_proto::rfc3339(p.started_at),
                    "score": p.score,
                    "verdicts": p.verdicts.iter().map(|(v, c)| serde_json::json!({"verdict": v, "confidence": c})).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let doc = serde_json::json!({"memories": grouped, "change_verdicts": change_verdicts});
    let text = serde_json::to_string_pretty(&doc).expect("history serialises");
    memval_proto::display::json_safe(&text) + "\n"
}

/// One line per run under each memory, with the change in score since its previous run.
/// `filter` is what the user asked for, quoted when nothing matched.
pub fn to_table(points: &[HistoryPoint], filter: Option<&str>) -> String {
    let mut out = String::new();
    if points.is_empty() {
        let what = filter.map(|f| format!(" for memories matching {f:?}")).unwrap_or_default();
        let _ = writeln!(out, "no runs recorded{what}");
        return memval_proto::display::terminal_safe(&out);
    }
    let mut current = "";
    let mut previous: Option<u8> = None;
    for p in points {
        if p.source != current {
            let _ = writeln!(out, "{} ({})", one_line(&p.source), one_line(&p.memory_id));
            current = &p.source;
            previous = None;
        }
        let score = p.score.map_or("-".to_owned(), |s| s.to_string());
        let change = match (previous, p.score) {
            (Some(a), Some(b)) if b > a => format!("  (+{})", b - a),
            (Some(a), Some(b)) if b < a => format!("  (-{})", a - b),
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "    {}  {:>3}{change}  run {}",
            memval_proto::rfc3339(p.started_at),
            score,
            one_line(&p.run_id)
        );
        previous = p.score;
    }
    memval_proto::display::terminal_safe(&out)
}
