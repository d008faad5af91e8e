//! The binary's last word on a failure, `memval: error: ...`, is one line whatever the error
//! quotes: a path named on the command line or in a memory can hold a newline, and the line
//! after it must not pass for one memval printed.

// The shared support module has helpers this test does not use.
#![allow(dead_code)]

mod support;

use support::memval;

#[test]
fn an_error_quoting_a_newline_is_one_line() {
    let repo = tempfile::tempdir().unwrap();
    let forged = repo.path().join("notes\nmemval: error: forged second line\r\u{1b}[2K.md");
    let out =
        memval(&["validate", "--repo", repo.path().to_str().unwrap(), "--memories", forged.to_str().unwrap(), "-q"]);
    assert_eq!(out.status.code(), Some(2), "a missing --memories is an error");
    let stderr = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "one line, the quoted newline escaped:\n{stderr}");
    assert!(lines[0].starts_with("memval: error: --memories "), "{stderr}");
    assert!(lines[0].contains("notes\\nmemval: error: forged second line\\r\\u{1b}[2K.md does not exist"), "{stderr}");
    assert!(!stderr.contains('\u{1b}') && !stderr.contains('\r'), "{stderr:?}");
}
