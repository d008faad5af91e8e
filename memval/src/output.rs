//! Where a command's output goes: stdout, or a file written whole.
//!
//! `-o FILE` writes a temporary file beside the report and renames it into place, removing the
//! temporary on any failure, so a full disk leaves neither half a report nor the temporary.

use std::io::Write;
use std::path::Path;

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

/// Write `text` to stdout, or whole to `path`: to a temporary file renamed into place, so a
/// failure never leaves half a report behind.
pub fn emit(path: Option<&Path>, text: &str) -> anyhow::Result<()> {
    match path {
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())?;
            out.flush()?;
        }
        Some(path) => {
            check_output_dir(path)?;
            let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
            let tmp =
                dir.join(format!(".{}.memval-tmp", path.file_name().and_then(|n| n.to_str()).unwrap_or("report")));
            // Whatever fails, the temporary file goes: a full disk must leave neither half a
            // report nor the half-written temporary beside it.
            let written = std::fs::write(&tmp, text).map_err(|e| write_error(path, e)).and_then(|()| {
                std::fs::rename(&tmp, path)
                    .with_context(|| format!("cannot move the report into place at {}", path.display()))
            });
            if written.is_err() {
                let _ = std::fs::remove_file(&tmp);
            }
            written?;
        }
    }
    Ok(())
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
