//! Line claims: a `file:45` with no symbol (is line 45 still the line the memory saw?) and a
//! `line_content` claim (is the text still in the file, and where?).
//!
//! ## Line numbers
//!
//! A file claim with a line is VALID when the line the memory saw (read from git at the memory's
//! date) is still there; STALE when that line moved (successor `path:newline`) or changed, or is
//! past the file's end; not checked, with history, when no version of the file ever reached that
//! line (another file of its name: drift needs a past). The file itself goes through the file
//! rules.
//!
//! ## Line text
//!
//! A `line_content` claim is VALID when the stated line contains the text; STALE when the text is
//! at another line (`path:line`); CONTRADICTED when the text is not in the file.

use memval_proto::{CodeRef, Outcome, UnixSeconds, Verdict};

use crate::index::FileKind;

use super::common::{checked, clip, kind_name, nearest_line, squash};
use super::located::Located;
use super::Checker;

impl Checker<'_> {
    /// `file:45` with no symbol: is line 45 still the line the memory saw?
    pub(super) fn check_line_number(
        &self,
        path: &str,
        raw: &str,
        line: u32,
        since: Option<UnixSeconds>,
        base: u8,
    ) -> Outcome {
        let Some(current) = self.index.read_text(path) else {
            // The file is there but its lines cannot be read: the claim is about a line.
            let kind = self.index.file(path).map_or(FileKind::Huge, |f| f.kind);
            return Outcome::NotChecked {
                reason: format!("{path} is a {}; its line {line} cannot be read", kind_name(kind)),
            };
        };
        let old_line = self
            .old_text(raw, since)
            .and_then(|text| text.lines().nth((line as usize).saturating_sub(1)).map(str::trim).map(str::to_owned));
        let line_now = (line > 0).then(|| current.lines().nth(line as usize - 1)).flatten();
        match old_line {
            Some(old) if old.len() >= 4 => {
                if line_now.map(str::trim) == Some(old.as_str()) {
                    return checked(
                        Verdict::Valid,
                        base.min(95),
                        format!("{path}:{line} — still reads `{}`", clip(&old)),
                        None,
                    );
                }
                let now: Vec<&str> = current.lines().collect();
                if let Some(found) = nearest_line(&now, &old, line) {
                    return checked(
                        Verdict::Stale,
                        base.min(90),
                        format!(
                            "{path}:{found} — the line the memory cited at {line} (`{}`) is now at {found}",
                            clip(&old)
                        ),
                        Some(format!("{path}:{found}")),
                    );
                }
                checked(
                    Verdict::Stale,
                    base.min(60),
                    format!("{path}:{line} — line {line} changed since the memory (`{}` is gone)", clip(&old)),
                    None,
                )
            }
            _ if line_now.is_none() => {
                let lines = current.lines().count();
                // Drift needs a past: a line no version of the file ever reached is another
                // file's (a namesake in another project: the Linux kernel's `hub.c:3149` beside a
                // 482-line `hub.c`), or one the memory never saw here.
                let reached = self.git.and_then(|git| git.some_version(path, |t| t.lines().count() >= line as usize));
                if reached == Some(false) {
                    return Outcome::NotChecked {
                        reason: format!(
                            "{path} has {lines} lines, and no version of it in git history had a line {line}: not drift (the memory cites another file of that name, or a line this one never had)"
                        ),
                    };
                }
                checked(
                    Verdict::Stale,
                    base.min(60),
                    format!("{path}:{lines} — the file has {lines} lines now; line {line} does not exist"),
                    None,
                )
            }
            _ => checked(
                Verdict::Valid,
                base.min(80),
                format!("{path}:{line} — file exists and has that line (no earlier version to compare)"),
                None,
            ),
        }
    }

    pub(super) fn check_line_text(&self, r: &CodeRef, text: &str, since: Option<UnixSeconds>) -> Outcome {
        let raw = r.path.trim();
        let path = match self.locate(raw, &r.alt_paths, since) {
            Located::Refused(refusal) => return Outcome::NotChecked { reason: refusal.to_string() },
            Located::NotInRepo(reason) => return Outcome::NotChecked { reason },
            Located::Here { path, dir: false, .. } | Located::Moved { to: path, dir: false, .. } => path,
            Located::Gone { confidence, evidence, since } => {
                return checked(Verdict::Contradicted, confidence, format!("{raw} — {evidence}"), None).since(since)
            }
            _ => {
                return Outcome::NotChecked { reason: format!("{raw} is not a single file; cannot check a line of it") }
            }
        };
        let Some(content) = self.index.read_text(&path) else {
            return Outcome::NotChecked { reason: format!("{path} is binary, too large or unreadable") };
        };
        let needle = squash(text);
        if needle.is_empty() {
            return Outcome::NotChecked { reason: "no text to look for".into() };
        }
        let lines: Vec<&str> = content.lines().collect();
        let hit = |l: &str| squash(l).contains(&needle);
        let want = r.line.unwrap_or(0);
        if want > 0 && lines.get(want as usize - 1).is_some_and(|l| hit(l)) {
            return checked(Verdict::Valid, 95, format!("{path}:{want} — contains `{}`", clip(text)), None);
        }
        let found: Vec<usize> = lines.iter().enumerate().filter(|(_, l)| hit(l)).map(|(i, _)| i + 1).collect();
        let nearest = found.iter().copied().min_by_key(|&l| (l as i64 - i64::from(want)).abs());
        match (nearest, want) {
            (Some(at), 0) => checked(Verdict::Valid, 90, format!("{path}:{at} — contains `{}`", clip(text)), None),
            (Some(at), _) => checked(
                Verdict::Stale,
                85,
                format!("{path}:{at} — `{}` is here now, not at line {want}", clip(text)),
                Some(format!("{path}:{at}")),
            ),
            (None, _) => checked(
                Verdict::Contradicted,
                70,
                format!("{path}:{} — `{}` does not occur in the file", want.max(1), clip(text)),
                None,
            ),
        }
    }
}
