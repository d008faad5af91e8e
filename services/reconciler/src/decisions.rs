//! Decision records (docs/contracts.md §6) and the `DEC-…` references that point at them.
//!
//! Decisions come in two real shapes, both read: one file per decision
//! (`decisions/DEC-12.md`, the id from the file name) and a decisions log with one heading per
//! decision (GAAI's own `decisions/_log.md`: `### DEC-2026-02-12-03 — Title`, the section
//! running to the next heading of the same or a higher level). A decision is superseded when
//! its status says so, or when a line of it *starts* with a marker (`> SUPERSEDED by DEC-20`,
//! `**RETRACTED**`): a marker word in running prose ("this obsoletes nothing") is not a status.
//!
//! Pure text in, records out: no file access here.
//!
//! A decision's date is a `Date:`/`Updated:` field, else the date in its id; the report falls back
//! to the file's `updated_at` when neither is there.

use std::sync::OnceLock;

use regex::Regex;

/// The supersession markers (docs/contracts.md §6), as they are quoted in the report.
pub const MARKERS: [&str; 3] = ["SUPERSEDED", "RETRACTED", "OBSOLETE"];

/// A decision record found in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub id: String,
    /// 1-based line where the decision starts (its heading, or 1 for a file of its own).
    pub line: u32,
    /// The marker word and the line it was found on, verbatim (trimmed), when superseded.
    pub marker: Option<(String, String)>,
    /// The decision's own date: a `Date:`/`Updated:` field, else the date in its id.
    pub date: Option<String>,
}

/// A `DEC-…` reference in a scanned file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    pub id: String,
    pub line: u32,
}

fn dec_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    // DEC-12, DEC-2026-02-12-03; never part of a longer word (XDEC-1, DEC-12a).
    RE.get_or_init(|| Regex::new(r"(?:^|[^A-Za-z0-9_])(DEC-[0-9]+(?:-[0-9]+)*)(?:$|[^A-Za-z0-9_])").unwrap())
}

/// Every decision id in `text`, in order (overlapping matches are handled one at a time).
pub fn ids_in(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(c) = dec_re().captures_at(text, at) {
        let m = c.get(1).unwrap();
        out.push(m.as_str().to_owned());
        at = m.end();
    }
    out
}

/// Every `DEC-…` reference of `text`, with its line. `skip_line` is a line that defines a
/// decision rather than refers to one (its own heading), left out.
pub fn references(text: &str, defining: &[(u32, String)]) -> Vec<Reference> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let no = (i + 1) as u32;
        for id in ids_in(line) {
            if defining.iter().any(|(l, d)| *l == no && *d == id) {
                continue;
            }
            out.push(Reference { id, line: no });
        }
    }
    out
}

/// The marker a line carries as a status, if any: a status field (`Status: Superseded by
/// DEC-9`, `**Status:** RETRACTED`) or a line starting with the marker once quote, list and
/// emphasis characters are stripped.
pub fn marker_of(line: &str) -> Option<String> {
    let stripped = line.trim().trim_start_matches(['>', '#', '*', '-', '_', ' ', '\t', '[', '(']).trim_start();
    let lower = stripped.to_ascii_lowercase();
    let status = lower
        .strip_prefix("status")
        .map(|r| r.trim_start_matches(['*', '_', ' ', ':', '=']).trim_start_matches(['*', '_', ' ']));
    for m in MARKERS {
        let word = m.to_ascii_lowercase();
        if lower.starts_with(&word) || status.is_some_and(|s| s.starts_with(&word)) {
            return Some(m.to_owned());
        }
    }
    None
}

fn date_field(line: &str) -> Option<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"(?i)^[>*_\-\s]*(?:updated(?:_at)?|last[ _]updated|date|decided(?:_at)?)[*_\s]*[:=][*_\s]*(\d{4}-\d{2}-\d{2}(?:[T ][0-9:.+\-Z]+)?)").unwrap()
    });
    re.captures(line.trim()).map(|c| c[1].trim().to_owned())
}

fn date_in_id(id: &str) -> Option<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| Regex::new(r"^DEC-(\d{4})-(\d{2})-(\d{2})").unwrap());
    re.captures(id).map(|c| format!("{}-{}-{}", &c[1], &c[2], &c[3]))
}

/// Reads the decision of a file of its own, named `file_stem` (`DEC-12`, `DEC-12-use-sqlite`).
/// `None` when the name holds no decision id. Front matter `status:`/`updated_at:` lines are
/// lines like any other here.
pub fn from_file(file_stem: &str, text: &str) -> Option<Decision> {
    let id = ids_in(file_stem).into_iter().next().filter(|id| file_stem.starts_with(id.as_str()))?;
    let mut d = Decision { id, line: 1, marker: None, date: None };
    read_body(&mut d, text.lines());
    d.date = d.date.or_else(|| date_in_id(&d.id));
    Some(d)
}

fn read_body<'a>(d: &mut Decision, lines: impl Iterator<Item = &'a str>) {
    let mut in_fence = false;
    for line in lines {
        let t = line.trim();
        if t.starts_with("```") || t.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        if d.marker.is_none() {
            if let Some(m) = marker_of(line) {
                d.marker = Some((m, t.to_owned()));
            }
        }
        if d.date.is_none() {
            d.date = date_field(line);
        }
    }
}

/// Reads a decisions log: every heading that starts with a decision id opens a decision.
pub fn from_log(text: &str) -> Vec<Decision> {
    let lines: Vec<&str> = text.lines().collect();
    let mut heads: Vec<(usize, usize, String)> = Vec::new(); // (index, level, id)
    let mut in_fence = false;
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let level = t.chars().take_while(|&c| c == '#').count();
        if level == 0 || level > 6 {
            continue;
        }
        let title = t[level..].trim_start().trim_start_matches(['*', '_', '[']);
        if let Some(id) = ids_in(title).into_iter().next().filter(|id| title.starts_with(id.as_str())) {
            heads.push((i, level, id));
        }
    }
    let mut out = Vec::new();
    for (k, (start, level, id)) in heads.iter().enumerate() {
        // The section ends at the next heading of the same or a higher level.
        let end = (start + 1..lines.len())
            .find(|&j| {
                let t = lines[j].trim_start();
                let l = t.chars().take_while(|&c| c == '#').count();
                l > 0 && l <= *level && t[l..].starts_with(' ')
            })
            .or_else(|| heads.get(k + 1).map(|h| h.0))
            .unwrap_or(lines.len());
        let mut d = Decision { id: id.clone(), line: (*start + 1) as u32, marker: None, date: None };
        read_body(&mut d, lines[start + 1..end].iter().copied());
        d.date = d.date.or_else(|| date_in_id(&d.id));
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_references() {
        assert_eq!(ids_in("see DEC-12 and DEC-2026-02-12-03, not XDEC-1 or DEC-12a"), ["DEC-12", "DEC-2026-02-12-03"]);
        assert_eq!(ids_in("(DEC-1)(DEC-2)"), ["DEC-1", "DEC-2"]);
        let text = "### DEC-3 — Title\nSuperseded by DEC-4.\nAlso DEC-3 again";
        let refs = references(text, &[(1, "DEC-3".into())]);
        assert_eq!(refs, [Reference { id: "DEC-4".into(), line: 2 }, Reference { id: "DEC-3".into(), line: 3 }]);
    }

    #[test]
    fn markers_are_status_not_prose() {
        for (line, want) in [
            ("> SUPERSEDED by DEC-20", Some("SUPERSEDED")),
            ("**Status:** Superseded by DEC-2026-03-01-01", Some("SUPERSEDED")),
            ("Status: retracted", Some("RETRACTED")),
            ("status: obsolete", Some("OBSOLETE")),
            ("- **OBSOLETE** since March", Some("OBSOLETE")),
            ("## RETRACTED", Some("RETRACTED")),
            ("**Status:** Active", None),
            ("This decision is not superseded.", None),
            ("We made the old cache obsolete.", None),
        ] {
            assert_eq!(marker_of(line).as_deref(), want, "{line:?}");
        }
    }

    #[test]
    fn one_file_per_decision() {
        let d = from_file("DEC-12", "---\nstatus: superseded\nupdated_at: 2026-03-01\n---\n# Use SQLite\n").unwrap();
        assert_eq!(d.id, "DEC-12");
        assert_eq!(d.marker, Some(("SUPERSEDED".into(), "status: superseded".into())));
        assert_eq!(d.date.as_deref(), Some("2026-03-01"));
        let d = from_file("DEC-7-use-nats", "# Use NATS\n\nWe use NATS.\n").unwrap();
        assert_eq!((d.id.as_str(), d.marker.clone()), ("DEC-7", None));
        assert_eq!(from_file("README", "DEC-1"), None);
        let d = from_file("DEC-2026-01-05-02", "> RETRACTED: wrong numbers").unwrap();
        assert_eq!(d.marker.unwrap().0, "RETRACTED");
        assert_eq!(d.date.as_deref(), Some("2026-01-05"));
    }

    #[test]
    fn a_decisions_log_like_gaais() {
        let log = "# Decision log\n\n\
### DEC-2026-02-12-03 — Store on SQLite\n\n**Status:** Superseded by DEC-2026-03-01-01\n**Date:** 2026-02-12\n\nWe store on SQLite.\n\n\
### DEC-2026-03-01-01 — Store on PostgreSQL\n\n**Status:** Active\n\nSupersedes DEC-2026-02-12-03.\n```\n> OBSOLETE in a code block\n```\n\n\
### DEC-9 — Old flag\n\nOBSOLETE: the flag is gone.\n\n## Appendix\n\n> RETRACTED is not about DEC-9 here\n";
        let ds = from_log(log);
        let got: Vec<(&str, u32, Option<&str>, Option<&str>)> = ds
            .iter()
            .map(|d| (d.id.as_str(), d.line, d.marker.as_ref().map(|m| m.0.as_str()), d.date.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                ("DEC-2026-02-12-03", 3, Some("SUPERSEDED"), Some("2026-02-12")),
                ("DEC-2026-03-01-01", 10, None, Some("2026-03-01")),
                ("DEC-9", 19, Some("OBSOLETE"), None),
            ]
        );
        assert_eq!(ds[0].marker.as_ref().unwrap().1, "**Status:** Superseded by DEC-2026-03-01-01");
    }
}
