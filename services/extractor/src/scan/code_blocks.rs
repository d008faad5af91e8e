//! Lines of a fenced code block.
//!
//! In a shell fence, an empty line or a line that reads as a command, the program the command
//! runs and the paths given to it are the claims (`command_lines`); a command continued over
//! lines with `\` is read whole, at its first line; a line of a listing fence
//! holding one name is a listing entry (`trees`); any other code line is scanned whole for
//! paths; a Mermaid diagram's line gives the paths its labels name (`diagrams`). For a tree row, a listing entry or a command, the comment at the end of the line
//! (`uv sync  # after editing pyproject.toml`, `frontend/  # see frontend/AGENTS.md`;
//! `markdown::code_comment`) is prose written in the code block, and the paths it names are read
//! too. In a code line a word plain reading did not take is taken when the code writes it
//! deliberately (`code_literal`): a quoted string literal (`paths: ["Sources/**"]`,
//! `pushd 'tools/azsdk'`) reads as a code span does, and a folder glob (`- Tests/**`, quoted or
//! not) names its folder; a file pattern (`src/**/*.ts`) names none.
//!
//! A line of a fence stamped with a date and time (`INF 2022-05-11 16:42:30.591+02:00 Listening on
//! ... file=wakunode2.nim:941`) is a record of one past run, shown as sample output: the paths
//! and line numbers it names were where that run's code was, not a claim about today's code,
//! so the line is not read (`is_log_record`); so is a frame of a stack trace a debugger or a crash
//! printed (`#7  0x5efc in isPolygonCorner () at src/gc/init.cpp:705`).
//!
//! A block whose first line is a comment holding one bare file name (`// build.gradle`,
//! `# .eslintrc.js`) is a snippet for that file, which is the reader's as often as this
//! repository's ("add this to your build file"): the name is not read (`snippet_header`). A
//! header with a folder (`// src/main.rs`) is read as any code line. So is a line of running
//! text that only labels the block under it with a bare file name (`**.envrc:**`,
//! `snippet_label`): the label is not read.
//!
//! In a Dockerfile fence only what `COPY` and `ADD` take from the build context is read
//! (`copied_from_context`): the other instructions (`CMD ["python", "src/__main__.py"]`, `RUN`,
//! `WORKDIR`) name paths inside the image, and `COPY --from=builder` copies from another stage.

use std::sync::LazyLock;

use regex::Regex;

use crate::commands;
use crate::markdown::{self, Fence};
use crate::mentions::{clean_text, FileMention};
use crate::paths::{self, PathToken, Strength};

use super::doc::Sentence;
use super::trees::root_candidate;
use super::walker::{PendingRoot, Walker};
use super::words::TOKEN;

impl Walker {
    /// A line of a fenced block (`first`: the block's first line).
    pub(super) fn code_line(&mut self, line: &str, line_no: u32, fence: &Fence, first: bool) {
        if first && snippet_header(line) {
            return;
        }
        if !fence.is_diagram() {
            if let Some(header) = snippet_file(line) {
                self.snippet_file_line(line, header, line_no);
                return;
            }
        }
        if !self.code_structure(line, line_no, fence) {
            return;
        }
        // A tree row, a listing entry or a command is read for its structure; a comment at
        // its end is prose written in the code block (`uv sync  # after editing
        // pyproject.toml`, `frontend/  # see frontend/AGENTS.md`), so the paths it names
        // are read too. Other code lines were read whole already.
        if let Some(comment) = markdown::code_comment(line) {
            self.code_paths(comment, line_no, false);
        }
    }

    /// A comment line naming the file the code after it is written for (`// 1.
    /// src/main/ipc/feature.ts`): its paths are read as any code line's, and the one it names
    /// as the block's file is marked so.
    fn snippet_file_line(&mut self, line: &str, header: &str, line_no: u32) {
        let before = self.doc.sentences.len();
        self.code_paths(line, line_no, false);
        if let Some(s) = self.doc.sentences.get_mut(before) {
            if let Some(i) = s.files.iter().position(|f| f.raw == header.trim_start_matches("./").trim_end_matches('/'))
            {
                s.snippet_files.push(i);
            }
        }
    }

    /// Reads a code line; `true` when only its structure was read (a tree row, a listing
    /// entry, a command), `false` when the whole line was scanned for paths.
    fn code_structure(&mut self, line: &str, line_no: u32, fence: &Fence) -> bool {
        if fence.is_diagram() {
            self.diagram_line(line, line_no);
            return true;
        }
        if is_log_record(line) {
            self.pending_root = None;
            return true;
        }
        if fence.is_dockerfile() {
            if let Some(sources) = copied_from_context(line) {
                self.code_paths(&sources, line_no, false);
            }
            return true;
        }
        if markdown::is_tree_line(line) && self.tree_line(line, line_no) {
            return true;
        }
        self.pending_root = markdown::single_token(line).and_then(root_candidate).map(|name| PendingRoot {
            line: line_no,
            name,
            emitted: false,
        });
        if self.continued.is_some() || fence.is_shell() || line.trim().is_empty() || commands::is_command(line) {
            self.command_line(line, line_no);
            return true;
        }
        if fence.is_listing() {
            if let Some(token) = markdown::single_token(line) {
                let col = markdown::indent_width(line);
                let listed = !self.nest.is_empty()
                    || token == "."
                    || token == "./"
                    || paths::classify(token, Strength::Standalone).is_some();
                let root = self.nest.is_empty();
                if listed && self.nest_entry(col, token, line_no, line, root) {
                    self.pending_root = None;
                    return true;
                }
            }
        }
        self.code_paths(line, line_no, fence.is_html());
        false
    }

    /// A line of a command in a code block. A command continued over lines (`git submodule add
    /// \`, then `--name x \`, then `math-libs/x`) is read once, whole, at its first line: the
    /// last line's word is an argument of `git`, not a program of its own.
    fn command_line(&mut self, line: &str, line_no: u32) {
        let more = line.trim_end().strip_suffix('\\');
        match (self.continued.take(), more) {
            (None, None) => self.block_command(line, line_no),
            (None, Some(head)) => self.continued = Some((line_no, head.trim_end().to_owned())),
            (Some((first, mut words)), more) => {
                words.push(' ');
                words.push_str(more.unwrap_or(line).trim());
                if more.is_some() {
                    self.continued = Some((first, words));
                } else {
                    self.block_command(&words, first);
                }
            }
        }
    }

    /// A whole command of a code block, run where the block's earlier lines left the shell: after
    /// a line `cd spiffworkflow-backend`, `./bin/recreate_db clean` runs
    /// `spiffworkflow-backend/bin/recreate_db`, as the reader's shell would. After a change to a
    /// place the repository cannot say (`cd /tmp`), the block's relative paths are none of its.
    /// A `cd` into the folder an earlier `git clone` made is a `cd` to the repository's root
    /// (`crate::clone`).
    fn block_command(&mut self, line: &str, line_no: u32) {
        if let Some(folder) = crate::clone::cloned_folder(line) {
            self.cloned = Some(folder);
        }
        let into_clone = self.cloned.as_deref().and_then(|folder| crate::clone::into_the_clone(line, folder));
        let line = into_clone.as_deref().unwrap_or(line);
        match self.fence_cd.clone() {
            Some(Some(dir)) => self.command_program_in(line, line_no, Some(&dir)),
            Some(None) => {}
            None => self.command_program(line, line_no),
        }
        // Where the line leaves the shell, from the root: a `cd ../..` can take it back there.
        let from_root = match &self.fence_cd {
            Some(Some(dir)) => format!("cd {dir} && {}", line.trim_start()),
            _ => line.to_owned(),
        };
        if let Some(after) = commands::cd_after(&from_root) {
            self.fence_cd = match (&self.fence_cd, after) {
                (Some(None), _) | (_, None) => Some(None),
                (_, Some(dirs)) => (!dirs.is_empty()).then(|| Some(dirs.join("/"))),
            };
        }
    }

    /// Paths in a line of a code block (`include!("src/x.rs")`, `import "./lib/util.js"`). An
    /// import of a parent folder's module (`from "../types"`) is relative to the file the
    /// snippet stands for, which the text does not name: it is no path of the doc's folder.
    /// In an HTML block (`html`): the `../x` of an `<img src>` is read against the page's URL
    /// folder too, as a link of the page's text is.
    fn code_paths(&mut self, line: &str, line_no: u32, html: bool) {
        let masked = markdown::mask_urls(line);
        let folders = self.structure_folders();
        let import = is_import(line);
        let files: Vec<FileMention> = TOKEN
            .find_iter(&masked)
            .filter(|m| !(import && m.as_str().starts_with("../")))
            .filter_map(|m| {
                let tok = paths::classify(m.as_str(), Strength::Prose)
                    .or_else(|| code_literal(&masked, m.start(), m.end()))?;
                let readings = paths::readings(&tok, &folders);
                Some(FileMention {
                    raw: tok.path.clone(),
                    tok,
                    readings,
                    start: m.start(),
                    end: m.end(),
                    after: m.end(),
                })
            })
            .take(self.budget)
            .collect();
        drop(folders);
        let mut files = files;
        if html {
            self.page_relative_readings(&mut files);
        }
        self.push(Sentence::of_files(line_no, clean_text(line.trim()), self.paragraph, files));
    }
}

/// A date and a time of day, as logs stamp them (`2022-05-11 16:42:30`, `2021-06-23T10:37:25Z`,
/// `2024/01/02 03:04`), or a time of day to the millisecond (`16:42:30.591`).
static TIMESTAMP: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:19|20)\d\d[-/](?:0[1-9]|1[0-2])[-/](?:0[1-9]|[12]\d|3[01])[T ]?[0-2]\d:[0-5]\d|\b[0-2]\d:[0-5]\d:[0-5]\d[.,]\d{3}")
        .expect("valid regex")
});

/// Whether a code line is a record of one past run: a log line (it carries a timestamp), or a
/// frame of a stack trace a debugger or a crash printed (`#7  0x5efc in isPolygonCorner () at
/// src/gc/init.cpp:705`, `    at parse (src/cli.js:12:5)`, `  File "app.py", line 12, in main`):
/// where that run's code was, not a claim about today's.
pub(super) fn is_log_record(line: &str) -> bool {
    TIMESTAMP.is_match(line) || STACK_FRAME.is_match(line)
}

/// A frame of a stack trace: gdb's and lldb's (`#7  0x... in f () at file:705`, `frame #3:
/// ... at file:12`), JavaScript's and Java's (`at f (file.js:12:5)`, `at a.B.c(B.java:42)`),
/// Python's (`File "x.py", line 12, in f`).
static STACK_FRAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"^\s*(?:(?:frame\s+)?#\d+\s+(?:0x[0-9a-fA-F]+\s+in\s+)?\S.*\sat\s+\S+:\d+|at\s+\S+\s*\(\S+:\d+(?::\d+)?\)|File\s+"[^"]+",\s+line\s+\d+)"#,
    )
    .expect("valid regex")
});

/// Whether a code line imports a module by a quoted specifier: `import x from "y"`, `export *
/// from "y"`, `require("y")`, `import("y")`, `from "y" import` is Python's and has no quotes.
fn is_import(line: &str) -> bool {
    let t = line.trim_start();
    let quoted_after =
        |cue: &str| t.find(cue).is_some_and(|i| t[i + cue.len()..].trim_start().starts_with(['"', '\'']));
    (t.starts_with("import ") || t.starts_with("export ")) && (quoted_after(" from") || quoted_after("import"))
        || quoted_after("require(")
        || quoted_after("import(")
}

/// A word of a code line that plain reading did not take as a path, taken anyway when the
/// code writes it deliberately: a quoted string literal (`paths: ["Sources/**"]`,
/// `pushd 'tools/azsdk'`) reads as a code span does, and a folder glob (`- Tests/**`, quoted
/// or not) names its folder. A file pattern (`src/**/*.ts`) names no folder.
fn code_literal(line: &str, start: usize, end: usize) -> Option<PathToken> {
    let word = &line[start..end];
    let before = line[..start].chars().next_back();
    let quoted = matches!(before, Some('"' | '\'')) && line[end..].starts_with(before?);
    if quoted {
        paths::classify(word, Strength::Backtick).or_else(|| paths::pattern_folder(word))
    } else {
        paths::pattern_folder(word).filter(|_| word.contains('*'))
    }
}

/// Whether a block's first line is a comment naming, alone, the bare file the snippet is for:
/// `// build.gradle`, `# .eslintrc.js`, `<!-- index.html -->`.
fn snippet_header(line: &str) -> bool {
    let t = line.trim();
    let Some(rest) = ["//", "#", "--", "<!--", "/*"].iter().find_map(|c| t.strip_prefix(c)) else { return false };
    let name = rest.trim().trim_end_matches("-->").trim_end_matches("*/").trim();
    !name.is_empty()
        && !name.contains(char::is_whitespace)
        && !name.contains('/')
        && paths::classify(name, Strength::Standalone).is_some_and(|tok| !paths::folder_like(&tok))
}

/// Whether a line of running text is only a label naming the bare file the code block right
/// after it is for (`**.envrc:**`, `` `config.toml`: ``, `**File: `.env`**`): such a block is
/// a sample of that file, the reader's as often as this repository's, as with a comment
/// header (`snippet_header`). The caller checks that a block follows.
pub(super) fn snippet_label(line: &str) -> bool {
    let t = line.trim();
    if !(t.contains(':') && (t.starts_with("**") || t.starts_with('`') || t.starts_with("__"))) {
        return false;
    }
    let bare: String = t.chars().filter(|c| !matches!(c, '*' | '`')).collect();
    let bare = bare.trim().trim_start_matches("__").trim_end_matches("__").trim();
    let name = match ["File:", "file:"].iter().find_map(|l| bare.strip_prefix(l)) {
        Some(after) => after.trim().trim_end_matches(':').trim(),
        None => match bare.strip_suffix(':') {
            Some(name) => name.trim(),
            None => return false,
        },
    };
    !name.is_empty()
        && !name.contains(char::is_whitespace)
        && !name.contains('/')
        && paths::classify(name, Strength::Backtick).is_some_and(|tok| !paths::folder_like(&tok))
}

/// The path a code line names as the file the block is written for: a comment holding only
/// that path with a folder, after a step's number or a "File:" label at most, and before at
/// most a description after a dash or a colon (`// src/renderer/store/useStore.ts`, `// 1.
/// src/main/ipc/feature.ts`, `# File: app/models.py`, `// 2. src/shared/types.ts - add to
/// the interface`). A bare file name is not one (`snippet_header`: the reader's file as
/// often), nor a comment that says something of a path (`// see src/x.ts`).
fn snippet_file(line: &str) -> Option<&str> {
    let t = line.trim();
    let rest = ["//", "#", "--", "<!--", "/*"].iter().find_map(|c| t.strip_prefix(c))?;
    let rest = rest.trim_end().trim_end_matches("-->").trim_end_matches("*/").trim();
    // `1.`, `2)`, `Step 3:`
    let rest = match rest.split_once(char::is_whitespace) {
        Some((step, after))
            if step.trim_end_matches(['.', ')', ':']).bytes().all(|b| b.is_ascii_digit())
                && step.len() > 1
                && step.ends_with(['.', ')', ':']) =>
        {
            after.trim_start()
        }
        _ => rest,
    };
    let rest = ["File:", "file:", "In ", "in "].iter().find_map(|l| rest.strip_prefix(l)).unwrap_or(rest).trim_start();
    let rest = rest.trim_end_matches(':');
    let (path, tail) = match rest.find(char::is_whitespace) {
        Some(at) => (&rest[..at], rest[at..].trim_start()),
        None => (rest, ""),
    };
    let described = tail.is_empty() || ["- ", "— ", "– ", "(", ":"].iter().any(|d| tail.starts_with(d));
    let path = path.trim_end_matches(':');
    let tok = paths::classify(path, Strength::Backtick)?;
    (described && path.contains('/') && !tok.dir && !tok.unresolvable() && tok.line.is_none()).then_some(path)
}

/// A Dockerfile line's sources from the build context: for `COPY` and `ADD` (not `--from=`
/// another stage), the line with everything but its source operands blanked, so the paths keep
/// their columns; `None` for any other instruction.
fn copied_from_context(line: &str) -> Option<String> {
    let t = line.trim_start();
    let word = t.split_whitespace().next()?;
    if !(word.eq_ignore_ascii_case("copy") || word.eq_ignore_ascii_case("add")) {
        return None;
    }
    if t.split_whitespace().any(|w| w.to_ascii_lowercase().starts_with("--from")) {
        return None;
    }
    let start = line.len() - t.len() + word.len();
    // Operands, shell form or JSON form (`["a", "b", "/dst/"]`), each with its byte range.
    let operands: Vec<(usize, usize)> = OPERAND
        .find_iter(&line[start..])
        .filter(|m| !m.as_str().starts_with("--"))
        .map(|m| (start + m.start(), start + m.end()))
        .collect();
    let (_, sources) = operands.split_last()?;
    let mut out = vec![b' '; line.len()];
    for &(a, b) in sources {
        out[a..b].copy_from_slice(&line.as_bytes()[a..b]);
    }
    String::from_utf8(out).ok()
}

/// An operand of a Dockerfile instruction: a word, outside JSON-form quotes and brackets.
static OPERAND: LazyLock<Regex> = LazyLock::new(|| Regex::new(r#"[^\s\[\]",]+"#).expect("valid regex"));

#[cfg(test)]
mod tests {
    use super::{copied_from_context, is_log_record, snippet_file, snippet_header, snippet_label};

    #[test]
    fn a_comment_naming_one_path_is_the_file_a_snippet_is_for() {
        assert_eq!(
            snippet_file("// src/renderer/store/useFeatureStore.ts"),
            Some("src/renderer/store/useFeatureStore.ts")
        );
        assert_eq!(snippet_file("// 1. src/main/ipc/feature.ts"), Some("src/main/ipc/feature.ts"));
        assert_eq!(
            snippet_file("// 2. src/shared/types.ts - add to ElectronAPI interface"),
            Some("src/shared/types.ts")
        );
        assert_eq!(snippet_file("# File: app/models.py"), Some("app/models.py"));
        assert_eq!(snippet_file("<!-- docs/index.html -->"), Some("docs/index.html"));
        // a bare name, a folder, a remark about a path, a line of code
        assert_eq!(snippet_file("// build.gradle"), None);
        assert_eq!(snippet_file("# src/cache/"), None);
        assert_eq!(snippet_file("// see src/x.ts for the rest"), None);
        assert_eq!(snippet_file("import x from 'src/x.ts'"), None);
        assert_eq!(snippet_file("#include <src/x.h>"), None);
    }

    #[test]
    fn stack_frames_are_records_of_one_run() {
        assert!(is_log_record("#7  0x00005efc3b72b865 in isPolygonCorner () at src/drt/src/gc/FlexGC_init.cpp:705"));
        assert!(is_log_record("#0  main () at src/main.c:12"));
        assert!(is_log_record("    at parse (src/cli.js:12:5)"));
        assert!(is_log_record("\tat com.acme.Parser.parse(Parser.java:42)"));
        assert!(is_log_record("  File \"app/main.py\", line 12, in main"));
        assert!(!is_log_record("#include \"src/util.h\""));
        assert!(!is_log_record("see src/main.c:12 for the loop"));
        assert!(!is_log_record("# look at src/main.c:12"));
    }

    #[test]
    fn a_label_over_a_block_names_the_bare_file_it_is_for() {
        assert!(snippet_label("**.envrc:**"));
        assert!(snippet_label("**.envrc**:"));
        assert!(snippet_label("`config.toml`:"));
        assert!(snippet_label("**File: `.env`**"));
        // with a folder, prose, a folder, no colon
        assert!(!snippet_label("`src/config.ts`:"));
        assert!(!snippet_label("**Edit `config.toml` like this:**"));
        assert!(!snippet_label("**docs:**"));
        assert!(!snippet_label("**.envrc**"));
    }

    #[test]
    fn a_snippets_header_names_the_file_it_is_for() {
        assert!(snippet_header("// build.gradle"));
        assert!(snippet_header("# .eslintrc.js"));
        assert!(snippet_header("<!-- index.html -->"));
        assert!(!snippet_header("// src/main.rs"));
        assert!(!snippet_header("// see build.gradle for the versions"));
        assert!(!snippet_header("# Install the deps"));
        assert!(!snippet_header("build.gradle"));
    }

    #[test]
    fn what_a_dockerfile_takes_from_the_build_context() {
        let got = |l: &str| copied_from_context(l).map(|s| s.split_whitespace().map(str::to_owned).collect::<Vec<_>>());
        assert_eq!(
            got("COPY pyproject.toml pdm.lock /project/"),
            Some(vec!["pyproject.toml".into(), "pdm.lock".into()])
        );
        assert_eq!(got("ADD --chown=app src/ /app/src"), Some(vec!["src/".into()]));
        assert_eq!(
            got(r#"COPY ["a b.txt", "conf/app.ini", "/etc/"]"#),
            Some(vec!["a".into(), "b.txt".into(), "conf/app.ini".into()])
        );
        assert_eq!(got("COPY --from=builder /project/.venv/ /project/.venv"), None);
        assert_eq!(got(r#"CMD ["python", "src/__main__.py"]"#), None);
        assert_eq!(got("RUN ./scripts/build.sh"), None);
        assert_eq!(got("WORKDIR /project"), None);
    }

    #[test]
    fn timestamped_lines_are_records_of_a_past_run() {
        for line in [
            "INF 2022-05-11 16:42:30.591+02:00 Listening on topics=\"wakunode\" file=wakunode2.nim:941",
            "2021-06-23T10:37:25Z DEBUG src/server/main.rs:88 started",
            "[2024/01/02 03:04:05] loaded config/app.yaml",
            "16:42:30.591 INFO  [main] c.e.App - started in lib/app.jar",
        ] {
            assert!(is_log_record(line), "{line}");
        }
    }

    #[test]
    fn code_and_commands_are_not() {
        for line in [
            "cargo run --bin server -- --config config/app.yaml",
            "include!(\"src/gen/2024_01_02_schema.rs\");",
            "db/migrate/20240102030405_create_users.rb",
            "version: 2024-01-02",
            "timeout: 10:30",
        ] {
            assert!(!is_log_record(line), "{line}");
        }
    }
}
