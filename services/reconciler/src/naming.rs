//! The report's dated file name (docs/contracts.md §6): `{YYYY-MM-DD}.reconciliation-report.md`, then
//! `{YYYY-MM-DD}-02.reconciliation-report.md`, `-03`, … for later runs the same day.
//!
//! A report is never overwritten: the file is created with `create_new`, so two runs racing
//! for the same name get two names, not one clobbered file.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::ReconcileError;

/// The name of the `n`-th report of `date` (`n` from 1).
pub fn report_name(date: &str, n: u32) -> String {
    if n <= 1 {
        format!("{date}.reconciliation-report.md")
    } else {
        format!("{date}-{n:02}.reconciliation-report.md")
    }
}

/// Writes `text` as the first free report name of `date` in `dir` (created if needed) and
/// returns its path. Existing files are never opened for writing.
pub fn write_new(dir: &Path, date: &str, text: &str) -> Result<PathBuf, ReconcileError> {
    std::fs::create_dir_all(dir).map_err(|source| ReconcileError::Write { path: dir.to_path_buf(), source })?;
    for n in 1..=9999 {
        let path = dir.join(report_name(date, n));
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(mut f) => {
                f.write_all(text.as_bytes())
                    .and_then(|()| f.sync_all())
                    .map_err(|source| ReconcileError::Write { path: path.clone(), source })?;
                return Ok(path);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(source) => return Err(ReconcileError::Write { path, source }),
        }
    }
    Err(ReconcileError::Write {
        path: dir.to_path_buf(),
        source: std::io::Error::other(format!("9999 reports already exist for {date}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(report_name("2026-12-01", 1), "2026-12-01.reconciliation-report.md");
        assert_eq!(report_name("2026-12-01", 2), "2026-12-01-02.reconciliation-report.md");
        assert_eq!(report_name("2026-12-01", 10), "2026-12-01-10.reconciliation-report.md");
    }

    #[test]
    fn never_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("reports");
        let a = write_new(&out, "2026-12-01", "first").unwrap();
        let b = write_new(&out, "2026-12-01", "second").unwrap();
        let c = write_new(&out, "2026-12-01", "third").unwrap();
        assert_eq!(a.file_name().unwrap(), "2026-12-01.reconciliation-report.md");
        assert_eq!(b.file_name().unwrap(), "2026-12-01-02.reconciliation-report.md");
        assert_eq!(c.file_name().unwrap(), "2026-12-01-03.reconciliation-report.md");
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "first");
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "second");
    }
}
