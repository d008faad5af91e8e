//! The report's dated file name (docs/contracts.md §6): `{YYYY-MM-DD}.reconciliation-report.md`, then
//! `{YYYY-MM-DD}-02.reconciliation-report.md`, `-03`, … for later runs the same day.
//!
//! A report is never overwritten and never seen half-written: it is written whole (and synced)
//! to a hidden file beside it, then hard-linked to the first free report name, which fails
//! rather than replaces when the name is taken, so two runs racing for the same name get two
//! names, and a writer killed mid-write leaves no report, only its hidden file.
//!
//! A report of a cluster's period (a schedule firing, an ingest event) keeps its hidden file,
//! named after the period, until its reconciler has ended the period's lease
//! ([`clear_period`]). A replica that takes the period over from a holder that fell silent
//! looks for it first ([`write_period`]): a hidden file of the period with a second link is a
//! report the holder wrote before it died, so the period is not reported twice. Where hard
//! links are not supported, the report is created with `create_new` and written in place.

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

/// What ends the name of a report's hidden file.
const HIDDEN: &str = ".report-tmp";

/// Writes `text` as the first free report name of `date` in `dir` (created if needed) and
/// returns its path. Existing files are never opened for writing.
pub fn write_new(dir: &Path, date: &str, text: &str) -> Result<PathBuf, ReconcileError> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let hidden = dir.join(format!(".{date}.{}.{n}{HIDDEN}", std::process::id()));
    let path = write_linked(dir, date, text, &hidden)?;
    let _ = std::fs::remove_file(&hidden);
    Ok(path)
}

/// A period's report: `Written::Before` when a hidden file of `period` in `dir` is linked to a
/// report already (its earlier holder wrote it, then fell silent), else written as
/// [`write_new`] writes, its hidden file `.{period}.{run}.report-tmp` left for
/// [`clear_period`].
pub fn write_period(dir: &Path, date: &str, text: &str, period: &str, run: &str) -> Result<Written, ReconcileError> {
    if let Some(path) = written_before(dir, period) {
        return Ok(Written::Before(path));
    }
    let hidden = dir.join(format!("{}{}{HIDDEN}", period_prefix(period), token(run)));
    write_linked(dir, date, text, &hidden).map(Written::New)
}

/// Whether [`write_period`] wrote the report or found it written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Written {
    New(PathBuf),
    Before(PathBuf),
}

/// Remove the hidden files of `period` in `dir` once its lease is ended (nobody will look).
pub fn clear_period(dir: &Path, period: &str) {
    for hidden in hidden_of(dir, period) {
        let _ = std::fs::remove_file(hidden);
    }
}

fn token(text: &str) -> String {
    text.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect()
}

fn period_prefix(period: &str) -> String {
    format!(".period-{}.", token(period))
}

fn hidden_of(dir: &Path, period: &str) -> Vec<PathBuf> {
    let prefix = period_prefix(period);
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    entries
        .flatten()
        .filter(|e| e.file_name().to_str().is_some_and(|n| n.starts_with(&prefix) && n.ends_with(HIDDEN)))
        .map(|e| e.path())
        .collect()
}

/// The report a hidden file of `period` is linked to, if any.
#[cfg(unix)]
fn written_before(dir: &Path, period: &str) -> Option<PathBuf> {
    use std::os::unix::fs::MetadataExt;
    let linked: Vec<(u64, u64)> = hidden_of(dir, period)
        .iter()
        .filter_map(|h| std::fs::symlink_metadata(h).ok())
        .filter(|m| m.nlink() >= 2)
        .map(|m| (m.dev(), m.ino()))
        .collect();
    if linked.is_empty() {
        return None;
    }
    let mut reports: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|e| e.file_name().to_str().is_some_and(|n| n.ends_with(".reconciliation-report.md")))
        .map(|e| e.path())
        .collect();
    reports.sort();
    reports.into_iter().find(|r| std::fs::symlink_metadata(r).is_ok_and(|m| linked.contains(&(m.dev(), m.ino()))))
}

#[cfg(not(unix))]
fn written_before(_dir: &Path, _period: &str) -> Option<PathBuf> {
    None
}

/// Write `text` whole to `hidden`, then link it to the first free report name of `date`.
fn write_linked(dir: &Path, date: &str, text: &str, hidden: &Path) -> Result<PathBuf, ReconcileError> {
    let write_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ReconcileError::Write { path, source }
    };
    std::fs::create_dir_all(dir).map_err(write_err(dir))?;
    let mut file = std::fs::File::create(hidden).map_err(write_err(hidden))?;
    file.write_all(text.as_bytes()).and_then(|()| file.sync_all()).map_err(write_err(hidden))?;
    drop(file);
    for n in 1..=9999 {
        let path = dir.join(report_name(date, n));
        match std::fs::hard_link(hidden, &path) {
            Ok(()) => return Ok(path),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            // A file system without hard links: create the report in place.
            Err(e) if matches!(e.kind(), std::io::ErrorKind::Unsupported | std::io::ErrorKind::PermissionDenied) => {
                let _ = std::fs::remove_file(hidden);
                return create_in_place(dir, date, text);
            }
            Err(source) => return Err(ReconcileError::Write { path, source }),
        }
    }
    Err(ReconcileError::Write {
        path: dir.to_path_buf(),
        source: std::io::Error::other(format!("9999 reports already exist for {date}")),
    })
}

fn create_in_place(dir: &Path, date: &str, text: &str) -> Result<PathBuf, ReconcileError> {
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
        // Nothing hidden is left behind.
        assert_eq!(std::fs::read_dir(&out).unwrap().count(), 3);
    }

    #[test]
    fn a_period_written_before_its_holder_fell_silent_is_not_written_again() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        // The holder wrote its report, then died before ending its lease: its hidden file stays.
        let first = write_period(out, "2026-12-01", "report", "schedule-1", "rec-a").unwrap();
        let Written::New(path) = first else { panic!("{first:?}") };
        // Whoever takes the period over finds it, and writes nothing.
        assert_eq!(
            write_period(out, "2026-12-01", "again", "schedule-1", "rec-b").unwrap(),
            Written::Before(path.clone())
        );
        // Another period is its own.
        let other = write_period(out, "2026-12-01", "next", "schedule-2", "rec-b").unwrap();
        assert_eq!(other, Written::New(out.join("2026-12-01-02.reconciliation-report.md")));
        // A holder that died before linking left a hidden file only: the period is written.
        std::fs::write(out.join(".period-schedule-3.rec-a.report-tmp"), "half").unwrap();
        let third = write_period(out, "2026-12-01", "whole", "schedule-3", "rec-b").unwrap();
        assert_eq!(third, Written::New(out.join("2026-12-01-03.reconciliation-report.md")));
        // Once the lease is ended the hidden files go; the reports stay.
        for period in ["schedule-1", "schedule-2", "schedule-3"] {
            clear_period(out, period);
        }
        let mut left: Vec<String> =
            std::fs::read_dir(out).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
        left.sort();
        assert_eq!(
            left,
            [
                "2026-12-01-02.reconciliation-report.md",
                "2026-12-01-03.reconciliation-report.md",
                "2026-12-01.reconciliation-report.md"
            ]
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "report");
    }
}
