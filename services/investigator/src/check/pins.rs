//! A tool's version a memory states ("Scala 3.6.4", "Node.js 22.18.0"), checked against the
//! files that tool reads its version from: `.nvmrc`, `.node-version`, `package.json`'s
//! `engines.node` and `volta.node`; `.python-version` and `runtime.txt`; `go.mod`'s `go` and
//! `toolchain` lines; `rust-toolchain` and `rust-toolchain.toml`'s `channel`; `.java-version`
//! and `.sdkmanrc`; `build.sbt`'s `scalaVersion`; `project/build.properties`' `sbt.version`;
//! `gradle-wrapper.properties`' distribution; `.ruby-version`; and `.tool-versions` for each.
//! A folder of its own may pin its own (`web/.nvmrc`), so every such file counts wherever it is.
//!
//! Versions agree when one is the other's start (`22` pins `22.18.0`, `1.22.0` is `1.22`):
//! - **VALID** when a pin agrees;
//! - **STALE** (75) when every pin disagrees, each named with its line: the project moved on
//!   from the version the memory gives;
//! - **not checked** when nothing pins the tool exactly (no such file, or only a range such as
//!   `>=18`, `lts/*`, `stable`), saying so.

use memval_proto::{Outcome, Verdict};

use super::common::{checked, list, MAX_LISTED};
use super::Checker;

/// Where a tool's version is pinned: the file's name, and how to read the version from a line.
struct PinFile {
    name: &'static str,
    read: fn(&str) -> Option<&str>,
}

/// The whole line is the version (`22.18.0`, `v22.18.0`, `3.11.4`).
fn whole(line: &str) -> Option<&str> {
    Some(line.trim())
}

/// The value after `prefix` on a line that starts with it (`go 1.22.0`, `sbt.version=1.12.15`,
/// `channel = "1.82.0"`, `scalaVersion := "3.6.4", // note`): its first word, unquoted.
fn after<'a>(line: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = line.trim().strip_prefix(prefix)?.trim_start_matches([' ', '\t', '=', ':', '"', '\'']);
    let end = rest.find([' ', '\t', '"', '\'', ',']).unwrap_or(rest.len());
    Some(&rest[..end])
}

/// `.tool-versions` (asdf, mise): `nodejs 22.18.0`.
fn asdf<'a>(line: &'a str, names: &[&str]) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    let name = words.next()?;
    names.contains(&name).then(|| words.next()).flatten()
}

fn pin_files(tool: &str) -> &'static [PinFile] {
    match tool {
        "node" => &[
            PinFile { name: ".nvmrc", read: whole },
            PinFile { name: ".node-version", read: whole },
            PinFile { name: "package.json", read: |l| after(l, "\"node\":") },
            PinFile { name: ".tool-versions", read: |l| asdf(l, &["nodejs", "node"]) },
        ],
        "python" => &[
            PinFile { name: ".python-version", read: whole },
            PinFile { name: "runtime.txt", read: |l| after(l, "python-") },
            PinFile { name: ".tool-versions", read: |l| asdf(l, &["python"]) },
        ],
        "go" => &[
            PinFile { name: "go.mod", read: |l| after(l, "go ") },
            PinFile { name: "go.mod", read: |l| after(l, "toolchain go") },
            PinFile { name: ".tool-versions", read: |l| asdf(l, &["golang", "go"]) },
        ],
        "rust" => &[
            PinFile { name: "rust-toolchain", read: whole },
            PinFile {
                name: "rust-toolchain.toml",
                read: |l| after(l, "channel").map(|v| v.trim_start_matches([' ', '=', '"'])),
            },
            PinFile { name: ".tool-versions", read: |l| asdf(l, &["rust"]) },
        ],
        "java" => &[
            PinFile { name: ".java-version", read: whole },
            PinFile { name: ".sdkmanrc", read: |l| after(l, "java=") },
            PinFile { name: ".tool-versions", read: |l| asdf(l, &["java"]) },
        ],
        "scala" => &[PinFile { name: "build.sbt", read: |l| after(l, "scalaVersion :=") }],
        "sbt" => &[PinFile { name: "build.properties", read: |l| after(l, "sbt.version=") }],
        "gradle" => &[PinFile {
            name: "gradle-wrapper.properties",
            read: |l| {
                after(l, "distributionUrl=")
                    .and_then(|u| u.rsplit("/gradle-").next())
                    .map(|v| v.trim_end_matches("-bin.zip").trim_end_matches("-all.zip"))
            },
        }],
        "ruby" => &[
            PinFile { name: ".ruby-version", read: whole },
            PinFile { name: ".tool-versions", read: |l| asdf(l, &["ruby"]) },
        ],
        _ => &[],
    }
}

/// A version's numbers (`v22.18.0` → 22, 18, 0; `temurin-17.0.2` is not one), or `None` when
/// it is a range or a name (`>=18`, `^22`, `lts/*`, `stable`, `3.11.x`).
fn numbers(version: &str) -> Option<Vec<u32>> {
    let v = version.trim().trim_start_matches(['v', '=']);
    let v = v.strip_prefix("ruby-").unwrap_or(v);
    let parts: Option<Vec<u32>> = v.split('.').map(|p| p.parse().ok()).collect();
    parts.filter(|p| !p.is_empty())
}

/// Whether two versions agree: one is the start of the other.
fn agree(a: &[u32], b: &[u32]) -> bool {
    a.iter().zip(b).all(|(x, y)| x == y)
}

impl Checker<'_> {
    /// The memory says the repository uses `tool` at `version`.
    pub(super) fn check_tool_version(&self, tool: &str, version: &str) -> Outcome {
        let files = pin_files(tool);
        let Some(stated) = numbers(version) else {
            return Outcome::NotChecked { reason: format!("{tool} {version} is not a version memval can compare") };
        };
        let mut pins: Vec<(String, usize, String, Vec<u32>)> = Vec::new();
        for pin in files {
            for &i in self.index.files_named(pin.name) {
                // Each reader wants its tool's own key (`sbt.version=`), so a file of the same
                // name that another tool keeps (`build.properties` of a Java project) pins nothing.
                let path = &self.index.file_at(i).path;
                let Some(text) = self.index.read_text(path) else { continue };
                for (n, line) in text.lines().enumerate() {
                    if let Some((found, parsed)) = (pin.read)(line).and_then(|v| Some((v, numbers(v)?))) {
                        pins.push((path.clone(), n + 1, found.to_owned(), parsed));
                    }
                }
            }
        }
        pins.sort();
        pins.dedup();
        if let Some((path, line, found, _)) = pins.iter().find(|(_, _, _, p)| agree(p, &stated)) {
            return checked(Verdict::Valid, 90, format!("{path}:{line} — {tool} pinned at {found}"), None);
        }
        if pins.is_empty() {
            // A file read for two keys (`go.mod`'s `go` and `toolchain`) is named once.
            let mut names: Vec<String> = Vec::new();
            for f in files {
                if !names.iter().any(|n| n == f.name) {
                    names.push(f.name.to_owned());
                }
            }
            return Outcome::NotChecked {
                reason: format!(
                    "no file of the repository pins {tool} at one version (looked for {}): {tool} {version} not checked",
                    list(&names)
                ),
            };
        }
        let shown: Vec<String> = pins.iter().take(MAX_LISTED).map(|(p, l, v, _)| format!("{p}:{l} pins {v}")).collect();
        let more =
            if pins.len() > MAX_LISTED { format!(" and {} more", pins.len() - MAX_LISTED) } else { String::new() };
        checked(
            Verdict::Stale,
            75,
            format!(
                "{}:{} — {tool} is pinned at {}, not {version} ({}{more})",
                pins[0].0,
                pins[0].1,
                pins[0].2,
                shown.join(", ")
            ),
            None,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_agree_when_one_starts_the_other() {
        let n = |v: &str| numbers(v).unwrap();
        assert!(agree(&n("22"), &n("22.18.0")));
        assert!(agree(&n("1.22.0"), &n("1.22")));
        assert!(agree(&n("v22.18.0"), &n("22.18.0")));
        assert!(!agree(&n("24.19.0"), &n("22.18.0")));
        assert!(!agree(&n("1.12.15"), &n("1.12.11")));
        for range in [">=18", "^22", "lts/*", "stable", "3.11.x", "temurin-17.0.2", ""] {
            assert!(numbers(range).is_none(), "{range}");
        }
    }

    #[test]
    fn pin_files_are_read_as_their_tools_write_them() {
        let read = |tool: &str, name: &str, line: &str| {
            pin_files(tool).iter().filter(|p| p.name == name).find_map(|p| (p.read)(line)).map(str::to_owned)
        };
        assert_eq!(read("sbt", "build.properties", "sbt.version=1.12.15").as_deref(), Some("1.12.15"));
        assert_eq!(read("node", "package.json", r#"    "node": "24.19.0""#).as_deref(), Some("24.19.0"));
        assert_eq!(read("go", "go.mod", "go 1.22.0").as_deref(), Some("1.22.0"));
        assert_eq!(read("go", "go.mod", "toolchain go1.23.4").as_deref(), Some("1.23.4"));
        assert_eq!(read("scala", "build.sbt", r#"    scalaVersion := "3.6.4", // note"#).as_deref(), Some("3.6.4"));
        assert_eq!(read("rust", "rust-toolchain.toml", r#"channel = "1.82.0""#).as_deref(), Some("1.82.0"));
        assert_eq!(
            read(
                "gradle",
                "gradle-wrapper.properties",
                "distributionUrl=https\\://services.gradle.org/distributions/gradle-8.10.2-bin.zip"
            )
            .as_deref(),
            Some("8.10.2")
        );
        assert_eq!(read("node", ".tool-versions", "nodejs 22.18.0").as_deref(), Some("22.18.0"));
        assert_eq!(read("node", ".tool-versions", "python 3.12.1"), None);
    }
}
