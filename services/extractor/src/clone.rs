//! A `git clone` in a memory's shell lines, and the `cd` into the folder it made.
//!
//! Install steps start with `git clone https://github.com/org/proj` and `cd proj`: that `proj`
//! is the reader's fresh checkout, named after the repository, not a folder inside it (a
//! repository renamed on disk from `FABulous/` to `fabulous/` says nothing of the checkout's
//! name). So a `cd` into the folder a clone made, as the first folder of its target, is a `cd`
//! to the repository's root, and what follows it (`cd proj/docs`) is read from there. The
//! clone is read from the line that runs it: the folder given after the URL, else the URL's
//! last segment without `.git`.

/// Flags of `git clone` that take the next word as their value.
const VALUE_FLAGS: &[&str] = &[
    "-b",
    "--branch",
    "-o",
    "--origin",
    "-c",
    "--config",
    "--depth",
    "-j",
    "--jobs",
    "--reference",
    "--reference-if-able",
    "--separate-git-dir",
    "--template",
    "-u",
    "--upload-pack",
    "--shallow-since",
    "--shallow-exclude",
    "--filter",
    "--server-option",
];

/// The folder the shell line `text` has `git clone` make, when it runs one: the folder named
/// after the URL (`git clone URL dir`), else the URL's last segment without `.git`.
pub(crate) fn cloned_folder(text: &str) -> Option<String> {
    let t = text.trim_start();
    let t = t.strip_prefix("$ ").unwrap_or(t);
    t.split(['&', ';', '|']).find_map(|segment| {
        let mut words = segment.split_whitespace().skip_while(|w| w.contains('='));
        if words.next() != Some("git") {
            return None;
        }
        // `git -C dir clone`, `git -c k=v clone`: the options before the subcommand.
        let mut words = words.skip_while(|w| *w != "clone");
        words.next()?;
        let mut operands = Vec::new();
        let mut value_next = false;
        for w in words {
            if std::mem::take(&mut value_next) {
                continue;
            }
            if w.starts_with('#') {
                break;
            }
            if w.starts_with('-') {
                value_next = VALUE_FLAGS.contains(&w);
                continue;
            }
            operands.push(w.trim_matches(['"', '\'']));
        }
        let folder = match operands.as_slice() {
            [_, dir, ..] => dir.trim_end_matches('/').to_owned(),
            [url] => {
                let last = url.trim_end_matches('/').rsplit(['/', ':']).next()?;
                last.strip_suffix(".git").unwrap_or(last).to_owned()
            }
            [] => return None,
        };
        plain_folder(&folder).then_some(folder)
    })
}

/// `text` with each `cd` (or `pushd`) into `folder`, the clone's, made a `cd` to the
/// repository's root (`cd proj/docs` → `cd <repo-root> && cd docs`); `None` when no such `cd`.
pub(crate) fn into_the_clone(text: &str, folder: &str) -> Option<String> {
    let mut changed = false;
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(at) = next_cd(rest) {
        let (before, cd) = rest.split_at(at);
        out.push_str(before);
        let program = if cd.starts_with("cd") { "cd" } else { "pushd" };
        let after_program = &cd[program.len()..];
        let gap = after_program.len() - after_program.trim_start().len();
        let target_len = after_program[gap..].find(char::is_whitespace).unwrap_or(after_program.len() - gap);
        let target = &after_program[gap..gap + target_len];
        let bare = target.trim_matches(['"', '\'']);
        let bare = bare.strip_prefix("./").unwrap_or(bare);
        match bare.strip_prefix(folder).filter(|r| r.is_empty() || r.starts_with('/')) {
            Some(inside) => {
                changed = true;
                out.push_str(&format!("{program} <repo-root>"));
                let inside = inside.trim_matches('/');
                if !inside.is_empty() {
                    out.push_str(&format!(" && {program} {inside}"));
                }
                rest = &after_program[gap + target_len..];
            }
            None => {
                out.push_str(program);
                rest = after_program;
            }
        }
    }
    out.push_str(rest);
    changed.then_some(out)
}

/// Where the next `cd ` or `pushd ` starts in `text` as a command word (at the start, or
/// after a shell separator and spaces).
fn next_cd(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < text.len() {
        let starts_word = i == 0 || {
            let before = text[..i].trim_end();
            before.is_empty() || before.ends_with(['&', ';', '|', '(']) || before.ends_with("$ ")
        };
        if starts_word
            && (text[i..].starts_with("cd ") || text[i..].starts_with("pushd "))
            && (i == 0 || bytes[i - 1].is_ascii_whitespace() || matches!(bytes[i - 1], b'&' | b';' | b'|' | b'('))
        {
            return Some(i);
        }
        i += text[i..].chars().next().map_or(1, char::len_utf8);
    }
    None
}

/// A folder name a clone makes: letters, digits, `.`, `_`, `-`, no path, no placeholder.
fn plain_folder(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && name.chars().all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

#[cfg(test)]
mod tests {
    use super::{cloned_folder, into_the_clone};
    #[test]
    fn the_folder_a_clone_makes_is_its_last_url_segment_or_the_folder_given() {
        assert_eq!(cloned_folder("git clone https://github.com/FPGA-Research/FABulous").as_deref(), Some("FABulous"));
        assert_eq!(cloned_folder("git clone git@github.com:org/proj.git").as_deref(), Some("proj"));
        assert_eq!(cloned_folder("$ git clone --depth 1 -b main https://x.org/a/b.git mine").as_deref(), Some("mine"));
        assert_eq!(cloned_folder("git clone --recursive https://x.org/a/tool/ && cd tool").as_deref(), Some("tool"));
        assert_eq!(cloned_folder("git -c http.sslVerify=false clone https://x.org/a/b").as_deref(), Some("b"));
        assert_eq!(cloned_folder("git clone https://x.org/a/b $HOME/src/b"), None);
        assert_eq!(cloned_folder("git checkout main"), None);
        assert_eq!(cloned_folder("echo git clone"), None);
    }

    #[test]
    fn a_cd_into_the_clone_goes_to_the_root() {
        assert_eq!(into_the_clone("cd FABulous", "FABulous").as_deref(), Some("cd <repo-root>"));
        assert_eq!(into_the_clone("cd ./proj/", "proj").as_deref(), Some("cd <repo-root>"));
        assert_eq!(
            into_the_clone("git clone URL && cd proj/docs && make", "proj").as_deref(),
            Some("git clone URL && cd <repo-root> && cd docs && make")
        );
        // another folder, or one whose name only starts like the clone's
        assert_eq!(into_the_clone("cd project", "proj"), None);
        assert_eq!(into_the_clone("cd src", "proj"), None);
        assert_eq!(into_the_clone("make cd proj", "proj"), None);
    }
}
