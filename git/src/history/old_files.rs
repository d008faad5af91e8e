//! Old file versions: `git ls-tree` of the tree at a commit (cached for a few dates), and one
//! long-lived `git cat-file --batch` for old file contents.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Stdio};
use std::sync::Arc;

use super::cmd::{git, output};
use super::GitRepo;

/// Texts of old file versions, up to [`BLOB_CACHE_BYTES`]; when full it starts over, which
/// keeps it simple and bounded (a run touches each file's old version in bursts).
#[derive(Default)]
pub(super) struct BlobCache {
    texts: HashMap<String, Option<Arc<str>>>,
    bytes: usize,
}

const BLOB_CACHE_BYTES: usize = 64 * 1024 * 1024;

impl GitRepo {
    /// Every file path (relative to the repo dir) in the tree of commit `rev`; cached per
    /// commit. `None` when git cannot list it.
    pub fn files_at(&self, rev: &str) -> Option<Arc<Vec<String>>> {
        let mut trees = self.trees.lock().expect("tree cache poisoned");
        if let Some(known) = trees.get(rev) {
            return known.clone();
        }
        let listed = output(git(&self.dir).args(["ls-tree", "-r", "--full-name", "--name-only", "-z", rev, "--", "."]))
            .map(|out| {
                Arc::new(out.split('\0').filter(|p| !p.is_empty()).filter_map(|p| self.local(p)).collect::<Vec<_>>())
            });
        if trees.len() >= 8 {
            trees.clear();
        }
        trees.insert(rev.to_owned(), listed.clone());
        listed
    }

    /// Text of `path` (relative to the repo dir) at commit `rev`, if it existed.
    pub fn show(&self, rev: &str, path: &str) -> Option<Arc<str>> {
        self.read_spec(format!("{rev}:{}{path}", self.prefix))
    }

    /// Text of the blob `spec` names (`rev:path`, or a blob id), through the one
    /// `cat-file --batch` and the blob cache.
    pub(super) fn read_spec(&self, spec: String) -> Option<Arc<str>> {
        if let Some(known) = self.blobs.lock().expect("blob cache poisoned").texts.get(&spec) {
            return known.clone();
        }
        let text: Option<Arc<str>> = {
            let mut guard = self.cat.lock().expect("cat-file poisoned");
            if guard.is_none() {
                *guard = CatFile::spawn(&self.dir);
            }
            let cat = guard.as_mut()?;
            match cat.get(&spec) {
                Ok(found) => found.map(|bytes| Arc::from(String::from_utf8_lossy(&bytes))),
                Err(_) => {
                    // A broken pipe is not an answer: forget the process, cache nothing.
                    *guard = None;
                    return None;
                }
            }
        };
        let mut cache = self.blobs.lock().expect("blob cache poisoned");
        let size = text.as_ref().map_or(0, |t| t.len()) + spec.len();
        if cache.bytes + size > BLOB_CACHE_BYTES {
            cache.texts.clear();
            cache.bytes = 0;
        }
        cache.bytes += size;
        cache.texts.insert(spec, text.clone());
        text
    }
}

/// A long-lived `git cat-file --batch`, so old file versions cost no process each.
pub(super) struct CatFile {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

/// Blobs larger than this are not read back from history.
const MAX_BLOB: usize = 4 * 1024 * 1024;

impl CatFile {
    fn spawn(dir: &Path) -> Option<CatFile> {
        let mut child =
            git(dir).args(["cat-file", "--batch"]).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().ok()?;
        let stdin = child.stdin.take()?;
        let stdout = BufReader::new(child.stdout.take()?);
        Some(CatFile { child, stdin, stdout })
    }

    fn get(&mut self, spec: &str) -> std::io::Result<Option<Vec<u8>>> {
        if spec.contains('\n') {
            return Ok(None);
        }
        writeln!(self.stdin, "{spec}")?;
        self.stdin.flush()?;
        let mut header = String::new();
        self.stdout.read_line(&mut header)?;
        let parts: Vec<&str> = header.split_whitespace().collect();
        let [_, kind, size] = parts.as_slice() else { return Ok(None) };
        let size: usize = size.parse().map_err(|_| std::io::Error::other("bad cat-file header"))?;
        let mut body = vec![0; size + 1];
        self.stdout.read_exact(&mut body)?;
        body.pop();
        Ok((*kind == "blob" && size <= MAX_BLOB).then_some(body))
    }
}

impl Drop for CatFile {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
