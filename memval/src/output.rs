//! Where a command's output goes: stdout, or a file written whole.
//!
//! `-o FILE` replaces a regular file (or creates a new one) by writing a temporary file beside it
//! and renaming it into place, removing the temporary on any failure, so a full disk leaves
//! neither half a report nor the temporary. Anything that is not a regular file is written
//! into, never replaced: a device (`-o /dev/null`, `/dev/stdout`) or a FIFO is opened and
//! written in place, and a symbolic link is followed, so its target gets the report and the
//! link stays. A folder or a socket is refused with a message that says so.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context};

/// A memory file's path as code scanning wants it: relative to the repo when inside it.
pub fn sarif_uri(repo: &Path, path: &str) -> String {
    let p = Path::new(path);
    let absolute = if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir().map(|d| d.join(p)).unwrap_or_else(|_| p.to_path_buf())
    };
    let absolute = absolute.canonicalize().unwrap_or(absolute);
    match absolute.strip_prefix(repo) {
        Ok(rel) => rel.to_string_lossy().replace('\\', "/"),
        Err(_) => path.replace('\\', "/"),
    }
}

/// The folder `-o FILE` writes into must exist (memval does not create it).
pub fn check_output_dir(path: &Path) -> anyhow::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !dir.is_dir() {
        return Err(anyhow!(
            "-o {}: the folder {} does not exist; create it or write the report elsewhere",
            path.display(),
            dir.display()
        ));
    }
    Ok(())
}

/// Where `-o PATH` puts the report.
#[derive(Debug, PartialEq, Eq)]
enum Destination {
    /// A regular file, or nothing yet: a temporary beside it renamed into place.
    Replace(PathBuf),
    /// A device or FIFO (through any links): opened and written, never replaced.
    WriteInto(PathBuf),
}

/// What `-o PATH` names, read without writing anything: links are followed to what they
/// name; a link to nothing names the file it would create.
fn destination(path: &Path) -> anyhow::Result<Destination> {
    let mut at = path.to_path_buf();
    // A chain of links ends within this many steps, or the system itself refuses it.
    for _ in 0..40 {
        let meta = match std::fs::symlink_metadata(&at) {
            Ok(meta) => meta,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Destination::Replace(at)),
            Err(e) => return Err(anyhow!("-o {}: cannot read what it is: {e}", path.display())),
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            let target =
                std::fs::read_link(&at).with_context(|| format!("-o {}: cannot read the link", path.display()))?;
            at = match at.parent() {
                Some(dir) if target.is_relative() => dir.join(target),
                _ => target,
            };
            continue;
        }
        if kind.is_file() {
            return Ok(Destination::Replace(at));
        }
        if kind.is_dir() {
            return Err(anyhow!(
                "-o {}: {} is a folder; name a file to write the report to",
                path.display(),
                at.display()
            ));
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if kind.is_char_device() || kind.is_block_device() || kind.is_fifo() {
                return Ok(Destination::WriteInto(at));
            }
        }
        return Err(anyhow!(
            "-o {}: {} is neither a file, a device nor a FIFO (a socket?); name a file to write the report to",
            path.display(),
            at.display()
        ));
    }
    Err(anyhow!("-o {}: too many symbolic links in a row", path.display()))
}

/// Write `text` to stdout, or whole to `path`: a file through a temporary renamed into place,
/// so a failure never leaves half a report behind; a device or FIFO by writing into it.
pub fn emit(path: Option<&Path>, text: &str) -> anyhow::Result<()> {
    match path {
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())?;
            out.flush()?;
        }
        Some(path) => {
            check_output_dir(path)?;
            match destination(path)? {
                Destination::Replace(file) => replace(path, &file, text)?,
                Destination::WriteInto(special) => {
                    let mut out =
                        std::fs::OpenOptions::new().write(true).open(&special).map_err(|e| write_error(path, e))?;
                    out.write_all(text.as_bytes()).and_then(|()| out.flush()).map_err(|e| write_error(path, e))?;
                }
            }
        }
    }
    Ok(())
}

/// `file` (what `path` names) replaced whole by `text`, through a temporary in its folder.
fn replace(path: &Path, file: &Path, text: &str) -> anyhow::Result<()> {
    let dir = file.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let tmp = dir.join(format!(".{}.memval-tmp", file.file_name().and_then(|n| n.to_str()).unwrap_or("report")));
    // Whatever fails, the temporary file goes: a full disk must leave neither half a report
    // nor the half-written temporary beside it.
    let written = std::fs::write(&tmp, text).map_err(|e| write_error(path, e)).and_then(|()| {
        std::fs::rename(&tmp, file).with_context(|| format!("cannot move the report into place at {}", path.display()))
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// Why the report could not be written to `path`, naming the report (not the temporary) and,
/// for a full disk, what to do.
fn write_error(path: &Path, e: std::io::Error) -> anyhow::Error {
    match e.kind() {
        std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded => anyhow!(
            "cannot write the report to {}: the disk is full ({e}); free space on it or write the report elsewhere (-o FILE); no report was written",
            path.display()
        ),
        _ => anyhow!("cannot write the report to {}: {e}; no report was written", path.display()),
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::FileTypeExt;

    use super::*;

    #[test]
    fn a_device_is_written_into_and_never_replaced() {
        // Only read: a broken rule must not be able to replace the machine's /dev/null.
        assert_eq!(destination(Path::new("/dev/null")).unwrap(), Destination::WriteInto("/dev/null".into()));
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("null-link");
        std::os::unix::fs::symlink("/dev/null", &link).unwrap();
        assert_eq!(destination(&link).unwrap(), Destination::WriteInto("/dev/null".into()));
    }

    #[test]
    fn a_fifo_gets_the_report_and_stays_a_fifo() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("report.fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
        assert!(made.success(), "mkfifo failed");
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
        };
        emit(Some(&fifo), "the report\n").unwrap();
        // Checked before the reader is waited for: a replaced FIFO never sees a writer.
        assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "the FIFO was replaced");
        assert_eq!(reader.join().unwrap(), "the report\n");
    }

    #[test]
    fn a_link_stays_a_link_and_its_target_gets_the_report() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("real.json");
        std::fs::write(&target, "old").unwrap();
        let link = dir.path().join("report.json");
        std::os::unix::fs::symlink("real.json", &link).unwrap();
        emit(Some(&link), "new").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link was replaced");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");

        // A link to nothing yet: the file it names is created, the link kept.
        let dangling = dir.path().join("dangling.json");
        std::os::unix::fs::symlink("later.json", &dangling).unwrap();
        emit(Some(&dangling), "made").unwrap();
        assert!(std::fs::symlink_metadata(&dangling).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read_to_string(dir.path().join("later.json")).unwrap(), "made");
    }

    #[test]
    fn a_regular_file_is_replaced_whole_and_a_folder_refused() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("report.json");
        std::fs::write(&file, "an older and longer report").unwrap();
        emit(Some(&file), "short").unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "short");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left, ["report.json"], "a temporary was left behind");

        let err = emit(Some(dir.path()), "x").unwrap_err().to_string();
        assert!(err.contains("is a folder"), "{err}");
    }
}
