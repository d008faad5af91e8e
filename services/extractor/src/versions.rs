//! The version of a language or build tool a memory states as the one the project uses
//! ("Scala 3.6.4, SBT 1.12.11", "Install Node.js 22.18.0 exactly"): a claim the investigator
//! checks against the files that pin that tool's version (`.nvmrc`, `project/build.properties`,
//! `go.mod`, ...). Only a plain statement of one version is read: a sentence about a range, a
//! change or several versions ("Node 18+", "upgraded from Python 3.9", "tested on Go 1.21 and
//! 1.22") says something no pin file can confirm or deny, and is left as it was.

use std::sync::LazyLock;

use regex::Regex;

/// A tool and the version the memory gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ToolVersion {
    /// The tool's name as the investigator knows it (`node`, `python`, `go`, `rust`, `java`,
    /// `scala`, `sbt`, `gradle`, `ruby`).
    pub tool: &'static str,
    /// Two or three numbers (`22.18.0`, `3.11`).
    pub version: String,
}

/// A tool's name then its version. "Go" only capitalised ("go 1.5x faster" is a verb);
/// one-number versions ("Java 17", "Node 22") are too often a family, not a pin.
static TOOL_VERSION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)(?:^|[^\w./-])
        ( (?i:node(?:\.?js)?|python|rust|java|jdk|scala|sbt|gradle|ruby) | Go | Golang )
        \s+v?(\d+\.\d+(?:\.\d+)?)
        ([^\s,;:)]*)",
    )
    .expect("valid regex")
});

/// Words of a sentence about a range, a change, a comparison or a history of versions, or about
/// what a CI job runs ("CI's `coverage` job (ubuntu, Python 3.12)"), which may differ from the pin.
static NOT_A_PIN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:upgrad|migrat|support|compatib|test(?:ed|s)?\s+(?:on|with|against)|minimum|at\s+least|or\s+(?:later|newer|higher|above|greater)|and\s+(?:later|newer|above|up)|deprecat|drop|until|older|newer|previous|legacy|used\s+to|was|were|from\s+v?\d|to\s+v?\d|matrix|between|bump|requires?|ci|jobs?|runners?|workflows?|>=|<=|~>|\^)",
    )
    .expect("valid regex")
});

/// The tool versions `text` (one sentence of running text) states, each tool at most once:
/// none when the sentence is about ranges or changes, or gives one tool two versions.
pub(crate) fn tool_versions(text: &str) -> Vec<ToolVersion> {
    if NOT_A_PIN.is_match(text) {
        return Vec::new();
    }
    let mut found: Vec<ToolVersion> = Vec::new();
    let mut twice: Vec<&'static str> = Vec::new();
    for m in TOOL_VERSION.captures_iter(text) {
        // `3.11+`, `1.22.x`, `17.0.16+`: a range.
        if !m[3].is_empty() {
            continue;
        }
        let tool = match m[1].to_ascii_lowercase().as_str() {
            "node" | "nodejs" | "node.js" => "node",
            "python" => "python",
            "go" | "golang" => "go",
            "rust" => "rust",
            "java" | "jdk" => "java",
            "scala" => "scala",
            "sbt" => "sbt",
            "gradle" => "gradle",
            "ruby" => "ruby",
            _ => continue,
        };
        let version = m[2].to_owned();
        match found.iter().position(|f| f.tool == tool) {
            Some(i) if found[i].version != version => twice.push(tool),
            Some(_) => {}
            None => found.push(ToolVersion { tool, version }),
        }
    }
    found.retain(|f| !twice.contains(&f.tool));
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<String> {
        tool_versions(text).into_iter().map(|t| format!("{} {}", t.tool, t.version)).collect()
    }

    #[test]
    fn plain_statements_of_a_version_are_read() {
        assert_eq!(
            read("Scala 3.6.4, SBT 1.12.11 (see `build.sbt`, `project/build.properties`)"),
            ["scala 3.6.4", "sbt 1.12.11"]
        );
        assert_eq!(
            read("Install Node.js 22.18.0 exactly (project specifies this in .nvmrc and package.json)"),
            ["node 22.18.0"]
        );
        assert_eq!(read("The service is written in Go 1.22 with chi."), ["go 1.22"]);
        assert_eq!(read("Uses Python 3.11 and uv."), ["python 3.11"]);
    }

    #[test]
    fn ranges_changes_and_families_are_not() {
        for text in [
            "Requires Node 18+",
            "Python 3.11+ is needed",
            "Tested on Go 1.21 and Go 1.22",
            "We upgraded from Python 3.9 to Python 3.11",
            "Java 17.0.16+ recommended",
            "Supports Ruby 3.2 and later",
            "Use Java 17",
            "go 1.5x faster than before",
            "Install it with python3.11 -m venv",
            "the `node-v22.18.0-linux-x64` tarball",
            "Node 20.x works",
            "CI's dedicated `coverage` job (ubuntu, Python 3.12) uploads the report",
        ] {
            assert!(read(text).is_empty(), "{text}: {:?}", read(text));
        }
    }
}
