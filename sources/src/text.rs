//! Reading one memory file as text, with the limits every format shares.
//!
//! Every file is opened with `O_NONBLOCK` and refused unless it is a regular file: a FIFO given
//! as memories, or sitting inside a memory folder, used to block a run forever.

use std::io::Read;
use std::path::Path;

/// Largest single memory memval reads. A memory bigger than this is a dump, not a memory,
/// and would blow the extractor's context anyway.
pub(crate) const MAX_MEMORY_BYTES: u64 = 4 * 1024 * 1024;

/// Opens `path` for reading only if it is a regular file (after following symlinks). A FIFO
/// is opened without blocking and refused, as are sockets and devices: reading one would
/// wait forever or never end.
pub(crate) fn open_regular(path: &Path) -> std::io::Result<std::fs::File> {
    #[cfg(unix)]
    let file = {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path)?
    };
    #[cfg(not(unix))]
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::other(format!(
            "not a regular file but {}; memval reads regular files only",
            kind_of(&meta)
        )));
    }
    Ok(file)
}

fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
    }
    if meta.is_dir() {
        "a directory"
    } else {
        "a special file"
    }
}

/// Reads `path` as UTF-8 text. The error is a Problem reason: too large, binary, not UTF-8,
/// or the I/O error.
pub(crate) fn read_text(path: &Path) -> Result<String, String> {
    let file = open_regular(path).map_err(|e| format!("cannot read: {e}"))?;
    let len = file.metadata().map_err(|e| format!("cannot read: {e}"))?.len();
    if len > MAX_MEMORY_BYTES {
        return Err(too_large(len));
    }
    let mut bytes = Vec::with_capacity(len as usize);
    // Read one byte past the limit so a file that grew after `metadata` is still caught.
    file.take(MAX_MEMORY_BYTES + 1).read_to_end(&mut bytes).map_err(|e| format!("cannot read: {e}"))?;
    if bytes.len() as u64 > MAX_MEMORY_BYTES {
        return Err(too_large(bytes.len() as u64));
    }
    decode(bytes)
}

/// Turns bytes into text, rejecting binary content and invalid UTF-8. Strips a UTF-8 BOM.
pub(crate) fn decode(bytes: Vec<u8>) -> Result<String, String> {
    if bytes.contains(&0) {
        return Err("binary file (contains NUL bytes), not text".to_string());
    }
    let mut text = String::from_utf8(bytes).map_err(|e| {
        format!("not valid UTF-8 (first bad byte at offset {}); save it as UTF-8", e.utf8_error().valid_up_to())
    })?;
    if text.starts_with('\u{feff}') {
        text.drain(..3);
    }
    Ok(text)
}

pub(crate) fn too_large(len: u64) -> String {
    format!("too large: {len} bytes, memval reads memories up to 4 MiB")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_rejects_binary_and_bad_utf8() {
        assert_eq!(decode(b"\xef\xbb\xbfhi".to_vec()), Ok("hi".to_string()));
        assert!(decode(b"a\0b".to_vec()).unwrap_err().contains("binary"));
        assert!(decode(b"ok\xff".to_vec()).unwrap_err().contains("offset 2"));
    }
}
