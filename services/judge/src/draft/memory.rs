//! Reads a Claude Code memory folder for the draft judge: the `MEMORY.md` index (one line per
//! memory) and the `feedback_*`, `user_*`, `project_*`, `reference_*` files beside it, each
//! kept whole, so every excerpt the judge cites can be checked against the file's exact text.
//!
//! Only regular files directly inside the folder are read: an index link with a folder in it
//! (`../x.md`, `sub/x.md`), a symlink, a FIFO or a device is never opened, and is reported as
//! not read with the reason. Nothing here is interpreted beyond the front matter's `type`;
//! memory text is data. (The `memval-sources` loader is not reused: it strips the front
//! matter, drops the index lines and asks git for dates, none of which suits a judgement that
//! sits in an agent's reply path.)
//!
//! Also not read, and listed in `not_judged` with the reason: non-UTF-8 text and files over 64 KiB
//! ([`MAX_FILE_BYTES`]). A memory's kind comes from its front matter's `type`, else its file-name
//! prefix.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;
use std::sync::OnceLock;

use regex::Regex;
use serde::Serialize;

use super::error::DraftError;

/// The index file of a Claude Code memory folder.
pub const INDEX: &str = "MEMORY.md";
/// Largest memory file read; a larger one is reported as not read.
pub const MAX_FILE_BYTES: u64 = 64 * 1024;
/// Most memory files read from one folder; the rest are reported as not read.
pub const MAX_FILES: usize = 2000;

/// What a memory file says it is (front matter `type`, else its file-name prefix).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Feedback,
    User,
    Project,
    Reference,
}

impl Kind {
    pub const ALL: [Kind; 4] = [Kind::Feedback, Kind::User, Kind::Project, Kind::Reference];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Feedback => "feedback",
            Kind::User => "user",
            Kind::Project => "project",
            Kind::Reference => "reference",
        }
    }

    fn parse(text: &str) -> Option<Kind> {
        let t = text.trim().trim_matches(|c| c == '"' || c == '\'').to_ascii_lowercase();
        Kind::ALL.into_iter().find(|k| k.as_str() == t)
    }

    fn from_file_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| name.starts_with(&format!("{}_", k.as_str())))
    }
}

/// One memory file, its text exactly as read.
#[derive(Debug, Clone, PartialEq)]
pub struct MemoryFile {
    /// The file name inside the folder (`feedback_root_cause_always.md`): what evidence cites.
    pub name: String,
    pub kind: Kind,
    /// The whole file, front matter included.
    pub text: String,
    /// The `MEMORY.md` lines that link to this file, joined (empty when the index does not
    /// list it).
    pub index_line: String,
}

/// A file that belongs to the memory but was not read, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unread {
    pub memory_file: String,
    pub reason: String,
}

/// A memory folder as the judge sees it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MemoryFolder {
    pub files: Vec<MemoryFile>,
    pub unread: Vec<Unread>,
    /// Whether a `MEMORY.md` was found.
    pub has_index: bool,
}

impl MemoryFolder {
    pub fn file(&self, name: &str) -> Option<&MemoryFile> {
        self.files.iter().find(|f| f.name == name)
    }
}

/// Whether `name` is named like a Claude Code memory file.
pub fn is_memory_file_name(name: &str) -> bool {
    name.ends_with(".md") && Kind::from_file_name(name).is_some()
}

/// The memory folder at `dir`. Fails only when `dir` is not a readable folder or holds
/// neither a `MEMORY.md` nor a memory file; a file that cannot be read is [`Unread`].
pub fn read_folder(dir: &Path) -> Result<MemoryFolder, DraftError> {
    let bad = |reason: String| DraftError::MemoryFolder { path: dir.display().to_string(), reason };
    let meta = std::fs::metadata(dir).map_err(|e| bad(e.to_string()))?;
    if !meta.is_dir() {
        return Err(bad("not a folder".into()));
    }
    let index = match read_regular(&dir.join(INDEX)) {
        Ok(text) => Some(text),
        Err(ReadError::Missing) => None,
        Err(ReadError::Other(reason)) => return Err(bad(format!("{INDEX}: {reason}"))),
    };
    let mut names: Vec<String> = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| bad(e.to_string()))? {
        let entry = entry.map_err(|e| bad(e.to_string()))?;
        // A name that is not UTF-8 cannot be cited; it is not a Claude Code memory name either.
        if let Some(name) = entry.file_name().to_str() {
            if is_memory_file_name(name) {
                names.push(name.to_owned());
            }
        }
    }
    names.sort();
    if index.is_none() && names.is_empty() {
        return Err(bad(format!(
            "no {INDEX} and no feedback_/user_/project_/reference_*.md files: not a Claude Code memory folder"
        )));
    }
    let mut texts = Vec::new();
    let mut unread = Vec::new();
    let wanted = listed_names(index.as_deref().unwrap_or(""), &mut unread);
    for name in wanted.iter().filter(|n| !names.contains(n)) {
        match read_regular(&dir.join(name)) {
            Err(ReadError::Missing) => unread.push(Unread {
                memory_file: name.clone(),
                reason: format!("listed in {INDEX} but the file does not exist"),
            }),
            Err(ReadError::Other(reason)) => unread.push(Unread { memory_file: name.clone(), reason }),
            Ok(text) => texts.push((name.clone(), text)),
        }
    }
    for (i, name) in names.iter().enumerate() {
        if i >= MAX_FILES {
            unread.push(Unread {
                memory_file: name.clone(),
                reason: format!("beyond the first {MAX_FILES} memory files of the folder"),
            });
            continue;
        }
        match read_regular(&dir.join(name)) {
            Ok(text) => texts.push((name.clone(), text)),
            Err(ReadError::Missing) => {
                unread.push(Unread { memory_file: name.clone(), reason: "vanished while the folder was read".into() })
            }
            Err(ReadError::Other(reason)) => unread.push(Unread { memory_file: name.clone(), reason }),
        }
    }
    let mut folder = from_texts(index.as_deref(), texts);
    unread.append(&mut folder.unread);
    folder.unread = unread;
    Ok(folder)
}

/// A folder from texts already in hand (tests, and callers that hold the memory elsewhere):
/// `index` is `MEMORY.md`, `files` are `(file name, text)`. A file whose kind can be told
/// neither from its front matter nor from its name is [`Unread`].
pub fn from_texts(index: Option<&str>, files: Vec<(String, String)>) -> MemoryFolder {
    let mut lines: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for line in index.unwrap_or("").lines() {
        for target in links(line) {
            lines.entry(target).or_default().push(line.trim());
        }
    }
    let mut folder = MemoryFolder { has_index: index.is_some(), ..MemoryFolder::default() };
    for (name, text) in files {
        let kind = match front_matter_type(&text) {
            Some(declared) => match Kind::parse(declared) {
                Some(kind) => kind,
                None => {
                    folder.unread.push(Unread {
                        memory_file: name,
                        reason: format!(
                            "front matter type {:?} is not feedback, user, project or reference",
                            declared.trim()
                        ),
                    });
                    continue;
                }
            },
            None => match Kind::from_file_name(&name) {
                Some(kind) => kind,
                None => {
                    folder.unread.push(Unread {
                        memory_file: name,
                        reason: "no front matter type and no memory-type file-name prefix".into(),
                    });
                    continue;
                }
            },
        };
        let index_line = lines.get(&name).map(|l| l.join("\n")).unwrap_or_default();
        folder.files.push(MemoryFile { name, kind, text, index_line });
    }
    folder
}

/// File names the index links to that are plain names inside the folder; links that leave it
/// are reported, never followed.
fn listed_names(index: &str, unread: &mut Vec<Unread>) -> Vec<String> {
    let mut out = Vec::new();
    for line in index.lines() {
        for target in links(line) {
            if target.contains('/') || target.contains('\\') || target == INDEX {
                if target != INDEX {
                    unread.push(Unread {
                        memory_file: target.clone(),
                        reason: format!(
                            "linked from {INDEX} outside the memory folder itself; only files directly in it are read"
                        ),
                    });
                }
                continue;
            }
            if !out.contains(&target) {
                out.push(target);
            }
        }
    }
    out
}

/// Relative `.md` link targets on one index line (`./` dropped, `#anchors` cut).
fn links(line: &str) -> Vec<String> {
    static LINK: OnceLock<Regex> = OnceLock::new();
    let link = LINK.get_or_init(|| Regex::new(r#"\]\(\s*<?([^)<>\s]+?)>?(?:\s+"[^"]*")?\s*\)"#).expect("valid regex"));
    link.captures_iter(line)
        .filter_map(|c| {
            let target = c[1].split('#').next().unwrap_or_default().replace("%20", " ");
            let target = target.strip_prefix("./").unwrap_or(&target).to_owned();
            (target.to_ascii_lowercase().ends_with(".md") && !target.contains("://")).then_some(target)
        })
        .collect()
}

/// The `type:` value of a leading `---` front matter block, if there is one.
fn front_matter_type(text: &str) -> Option<&str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.lines();
    if lines.next()?.trim_end() != "---" {
        return None;
    }
    for line in lines {
        if line.trim_end() == "---" {
            return None;
        }
        if let Some((key, value)) = line.split_once(':') {
            if key.trim().eq_ignore_ascii_case("type") {
                return Some(value);
            }
        }
    }
    None
}

enum ReadError {
    Missing,
    Other(String),
}

/// `path` as UTF-8 text, only if it is a regular file and not a symlink (a symlink could
/// point anywhere), opened without blocking so a FIFO swapped in is refused, not waited on.
fn read_regular(path: &Path) -> Result<String, ReadError> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(ReadError::Missing),
        Err(e) => return Err(ReadError::Other(format!("cannot read: {e}"))),
    };
    if meta.file_type().is_symlink() {
        return Err(ReadError::Other("a symlink; only regular files inside the memory folder are read".into()));
    }
    if !meta.is_file() {
        return Err(ReadError::Other("not a regular file".into()));
    }
    let file = {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW).open(path)
    }
    .map_err(|e| ReadError::Other(format!("cannot read: {e}")))?;
    let meta = file.metadata().map_err(|e| ReadError::Other(format!("cannot read: {e}")))?;
    if !meta.is_file() {
        return Err(ReadError::Other("not a regular file".into()));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(ReadError::Other(format!(
            "{} bytes, over the {MAX_FILE_BYTES}-byte limit for one memory file",
            meta.len()
        )));
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(|e| ReadError::Other(format!("cannot read: {e}")))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(ReadError::Other(format!("grew over the {MAX_FILE_BYTES}-byte limit while read")));
    }
    String::from_utf8(bytes).map_err(|_| ReadError::Other("not UTF-8 text".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_come_from_front_matter_then_the_name() {
        let folder = from_texts(
            Some("- [Root cause](feedback_root_cause_always.md) — never shortcuts\n- [me](./user_role.md)\n"),
            vec![
                ("feedback_root_cause_always.md".into(), "---\nname: x\ntype: feedback\n---\nbody".into()),
                ("user_role.md".into(), "no front matter".into()),
                ("project_x.md".into(), "---\ntype: \"user\"\n---\n".into()),
                ("reference_y.md".into(), "---\ntype: opinion\n---\n".into()),
            ],
        );
        let kinds: Vec<(&str, Kind)> = folder.files.iter().map(|f| (f.name.as_str(), f.kind)).collect();
        assert_eq!(
            kinds,
            vec![
                ("feedback_root_cause_always.md", Kind::Feedback),
                ("user_role.md", Kind::User),
                ("project_x.md", Kind::User)
            ]
        );
        assert_eq!(folder.files[0].index_line, "- [Root cause](feedback_root_cause_always.md) — never shortcuts");
        assert_eq!(folder.files[1].index_line, "- [me](./user_role.md)");
        assert_eq!(folder.unread.len(), 1);
        assert!(folder.unread[0].reason.contains("opinion"), "{:?}", folder.unread);
    }

    #[test]
    fn links_outside_the_folder_are_reported_not_followed() {
        let mut unread = Vec::new();
        let names = listed_names(
            "[a](../secret.md) [b](sub/x.md) [c](feedback_a.md) [d](https://x.y/z.md) [e](MEMORY.md)",
            &mut unread,
        );
        assert_eq!(names, vec!["feedback_a.md".to_owned()]);
        let reported: Vec<&str> = unread.iter().map(|u| u.memory_file.as_str()).collect();
        assert_eq!(reported, vec!["../secret.md", "sub/x.md"]);
    }
}
