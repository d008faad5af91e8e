//! What "still used" means for a symbol: the repo's own non-test code names it, outside
//! comments and string literals.
//!
//! A symbol claim is about the symbol. The identifier index counts every word of every text
//! file, so the notes file that names the symbol, the docs that describe it, a test that
//! pins its old behaviour or a comment saying it was removed all "mention" it. None of these
//! means the code still has it. This module decides which files count (code, not tests, not
//! docs or data) and masks comments and strings out of their text.
//!
//! It reads files only through the [`RepoIndex`] (confined, cached) and decides no verdict.
//!
//! "Still used" counts only the repo's own code: files of a programming language (by extension),
//! not tests (`tests/`, `__tests__/`, `*_test.go`, `*.test.ts`, `test_*.py`, `FooTest.java`, ...),
//! with comments and string literals masked out. Docs, data, the notes file itself, a test
//! pinning old behaviour, or a comment saying the symbol was removed keep no symbol alive. The
//! identifier index narrows the files; they are read (cached) and masked only for a symbol that is
//! defined nowhere.

use crate::index::RepoIndex;

/// Whether the repo's own non-test code names `name` outside comments and strings. The
/// identifier index narrows the files; each is read (cached by the index) and masked until
/// one names it.
pub(crate) fn used_in_code(index: &RepoIndex, name: &str) -> bool {
    if let Some(&known) = index.used.lock().expect("usage cache poisoned").get(name) {
        return known;
    }
    let used = index.files_with_token(name).any(|f| {
        let Some(syntax) = Syntax::of(&f.path).filter(|_| !is_test_path(&f.path)) else {
            return false;
        };
        index.read_text(&f.path).is_some_and(|text| names(&code_only(&text, syntax), name))
    });
    index.used.lock().expect("usage cache poisoned").insert(name.into(), used);
    used
}

/// Where the repo's own non-test code gives `name` as a whole string value: a constant set to it
/// (`StrategyTypeTokenExchange = "token_exchange"`, `const X: &str = "name"`), a key or a struct
/// tag (`json:"name"`). A name the code keeps as data (a strategy, a serialised field, a
/// registered name) is the code's, though no definition of it is there to parse. A string
/// merely used (`let _ = "name"`, `log("name")`) is not. The file and 1-based line.
pub(crate) fn given_as_a_string(index: &RepoIndex, name: &str) -> Option<(String, usize)> {
    let quoted = [format!("\"{name}\""), format!("'{name}'"), format!("`{name}`")];
    code_files_naming(index, name).into_iter().find_map(|path| {
        let text = index.read_text(path)?;
        let line = text
            .lines()
            .position(|l| quoted.iter().any(|q| l.find(q.as_str()).is_some_and(|at| keeps_as_data(&l[..at]))))?;
        Some((path.to_owned(), line + 1))
    })
}

/// The repo's own non-test code files the identifier index says name `name`, in path order (the
/// same answer on every run, whatever order the index keeps).
fn code_files_naming<'i>(index: &'i RepoIndex, name: &str) -> Vec<&'i str> {
    let mut files: Vec<&str> = index
        .files_with_token(name)
        .filter(|f| Syntax::of(&f.path).is_some() && !is_test_path(&f.path))
        .map(|f| f.path.as_str())
        .collect();
    files.sort_unstable();
    files
}

/// Calls that read an environment variable named by the string right after them:
/// `os.environ.get("X")`, `getenv("X")`, `process.env["X"]`, `std::env::var("X")`, Laravel's
/// `env('X')`, .NET's `GetEnvironmentVariable("X")`.
const ENV_READS: &[&str] = &[
    "getenv(",
    "environ.get(",
    "environ[",
    "env[",
    "env.fetch(",
    "env::var(",
    "env::var_os(",
    "Getenv(",
    "LookupEnv(",
    "GetEnvironmentVariable(",
    "env(",
];

/// Words in the name of a call that make the string given to it the name of a hook, an event
/// or a signal the code fires or listens for: `hooks_run('draw_custom_assets')`,
/// `do_action('init')`, `emit("saved")`, `trigger('change')`, `register_hook("x")`.
const HOOK_CALL_WORDS: &[&str] =
    &["hook", "emit", "trigger", "dispatch", "fire", "action", "filter", "publish", "subscribe", "event", "signal"];

/// Whether the code before a string ends by calling a hook or event function with it (its
/// first argument): the string is a name the code fires or listens for.
fn hook_call(lower: &str) -> bool {
    let Some(call) = lower.trim_end().strip_suffix('(') else { return false };
    let name = call.trim_end().rsplit(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or("");
    !name.is_empty() && HOOK_CALL_WORDS.iter().any(|w| name.contains(w))
}

/// Whether the code before a string on its line makes the string a constant's value, a key's or
/// a tag's (`Name = `, `const x: &str = `, `json:`, `"kind": `), the name of an environment
/// variable it reads ([`ENV_READS`]) or of a hook or event it fires ([`hook_call`]); not
/// `let _ = ` or a comment.
fn keeps_as_data(before: &str) -> bool {
    let before = before.trim_end();
    let line = before.trim_start();
    if line.starts_with(['/', '#', '*']) {
        return false;
    }
    if before.ends_with(':') {
        return true;
    }
    let lower = before.to_ascii_lowercase();
    if ENV_READS.iter().any(|call| lower.ends_with(&call.to_ascii_lowercase())) || hook_call(&lower) {
        return true;
    }
    let Some(lhs) = before.strip_suffix('=').map(str::trim_end) else { return false };
    let ident = lhs.rsplit(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or("");
    let constant = ["const ", "static ", "pub const ", "export const ", "final "].iter().any(|k| line.contains(k));
    constant || ident.starts_with(|c: char| c.is_ascii_uppercase())
}

/// Where the repo's own non-test code first names `name` (outside comments and strings): the
/// file and 1-based line, for evidence. The same files count as for [`used_in_code`].
pub(crate) fn first_use_in_code(index: &RepoIndex, name: &str) -> Option<(String, usize)> {
    code_files_naming(index, name).into_iter().find_map(|path| {
        let text = index.read_text(path)?;
        first_use(path, &text, name).map(|line| (path.to_owned(), line))
    })
}

/// Whether a file's text names `name` as code: outside comments and strings when the file is
/// code of a language [`Syntax`] knows, anywhere otherwise. The 1-based line of the first use.
pub(crate) fn first_use(path: &str, text: &str, name: &str) -> Option<usize> {
    // Most files a claim names do not contain the name at all: no masking for them.
    if !text.contains(name) {
        return None;
    }
    let masked;
    let text = match Syntax::of(path) {
        Some(syntax) => {
            masked = code_only(text, syntax);
            masked.as_str()
        }
        None => text,
    };
    if !text.contains(name) {
        return None;
    }
    text.lines().position(|l| names(l, name)).map(|i| i + 1)
}

/// A block comment's opener and closer (`/*`, `*/`).
type Block = (&'static [u8], &'static [u8]);

/// How a language writes comments and what a single quote starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Syntax {
    /// `//` and `/* */` comments; `'x'` is a character literal (Rust lifetimes `'a` are not
    /// closed, so a quote only opens a literal that closes within two characters or an escape).
    CChar,
    /// `//` and `/* */` comments; `'...'` and `` `...` `` are strings (JavaScript, TypeScript,
    /// Go's raw strings).
    CString,
    /// `#` comments; `'...'`, `"..."` and triple-quoted strings (Python, Ruby, shell, ...).
    Hash,
    /// `(* *)` comments; `"..."` strings, `'x'` characters (`'a` is a type variable): OCaml.
    Ml,
    /// `--` and `{- -}` comments; `"..."` strings, `'x'` characters (a prime ends a name:
    /// `x'`): Haskell, Elm, Lua, PureScript.
    Dash,
    /// `%` comments; `"..."` strings (`'quoted atoms'` are names): Erlang.
    Percent,
    /// `;` comments; `"..."` strings (`'` quotes a form): Clojure and the Lisps.
    Semi,
}

impl Syntax {
    /// Its line comment's opener and its block comment's (opener, closer).
    fn comments(self) -> (Option<&'static [u8]>, Option<Block>) {
        match self {
            Syntax::CChar | Syntax::CString => (Some(b"//"), Some((b"/*", b"*/"))),
            Syntax::Hash => (Some(b"#"), None),
            Syntax::Ml => (None, Some((b"(*", b"*)"))),
            Syntax::Dash => (Some(b"--"), Some((b"{-", b"-}"))),
            Syntax::Percent => (Some(b"%"), None),
            Syntax::Semi => (Some(b";"), None),
        }
    }

    /// The syntax of a code file, or `None` for what is not code (docs, data, config, files
    /// without an extension we know).
    pub(crate) fn of(path: &str) -> Option<Syntax> {
        let name = path.rsplit('/').next().unwrap_or(path);
        let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase())?;
        Some(match ext.as_str() {
            "rs" | "c" | "h" | "cc" | "cpp" | "cxx" | "hpp" | "hh" | "hxx" | "java" | "kt" | "kts" | "scala" | "cs"
            | "fs" | "swift" | "dart" | "m" | "mm" | "zig" | "sol" | "groovy" | "gradle" => Syntax::CChar,
            "go" | "ts" | "tsx" | "mts" | "cts" | "js" | "jsx" | "mjs" | "cjs" | "vue" | "svelte" | "astro" | "php" => {
                Syntax::CString
            }
            "py" | "pyi" | "pyx" | "rb" | "sh" | "bash" | "zsh" | "pl" | "pm" | "r" | "ex" | "exs" | "nim" | "jl" => {
                Syntax::Hash
            }
            "ml" | "mli" | "mll" | "mly" => Syntax::Ml,
            "hs" | "elm" | "lua" | "purs" => Syntax::Dash,
            "erl" | "hrl" => Syntax::Percent,
            "clj" | "cljs" | "cljc" | "el" | "lisp" | "scm" | "rkt" => Syntax::Semi,
            _ => return None,
        })
    }
}

/// A test file or a file under a test folder: what it names is pinned by tests, not used.
pub(crate) fn is_test_path(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let mut segments = lower.split('/');
    let name = segments.next_back().unwrap_or("");
    if segments.any(|s| {
        matches!(s, "test" | "tests" | "__tests__" | "__mocks__" | "spec" | "specs" | "testdata" | "fixtures" | "e2e")
    }) {
        return true;
    }
    let stem = name.split('.').next().unwrap_or(name);
    name.contains(".test.")
        || name.contains(".spec.")
        || stem.starts_with("test_")
        || stem.ends_with("_test")
        || stem.ends_with("_tests")
        || stem.ends_with("_spec")
        || stem == "conftest"
        // `FooTest.java`, `FooTests.cs`: the original case of the stem
        || path.rsplit('/').next().unwrap_or("").split('.').next().is_some_and(|s| {
            s.len() > 4 && (s.ends_with("Test") || s.ends_with("Tests") || s.ends_with("Spec"))
        })
}

/// `text` with every comment and string literal replaced by spaces (line breaks kept, so
/// line numbers still hold).
pub(crate) fn code_only(text: &str, syntax: Syntax) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let blank = |out: &mut Vec<u8>, s: &[u8]| out.extend(s.iter().map(|&c| if c == b'\n' { b'\n' } else { b' ' }));
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        let (line, block) = syntax.comments();
        let end = if line.is_some_and(|l| rest.starts_with(l)) {
            Some(rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len()))
        } else if let Some((open, close)) = block.filter(|(open, _)| rest.starts_with(open)) {
            Some(find(rest, open.len(), close).map_or(rest.len(), |e| e + close.len()))
        } else if syntax == Syntax::Hash && (rest.starts_with(b"\"\"\"") || rest.starts_with(b"'''")) {
            Some(find(rest, 3, &rest[..3]).map_or(rest.len(), |e| e + 3))
        } else if rest[0] == b'"' || (rest[0] == b'`' && syntax == Syntax::CString) {
            Some(string_end(rest, rest[0]))
        } else if rest[0] == b'\'' {
            match syntax {
                Syntax::CChar | Syntax::Ml | Syntax::Dash => char_literal_end(rest),
                Syntax::CString | Syntax::Hash => Some(string_end(rest, b'\'')),
                Syntax::Percent | Syntax::Semi => None,
            }
        } else {
            None
        };
        match end {
            Some(n) => {
                blank(&mut out, &rest[..n]);
                i += n;
            }
            None => {
                out.push(rest[0]);
                i += 1;
            }
        }
    }
    // Only ASCII bytes were replaced (by ASCII), whole multi-byte characters were copied or
    // blanked byte by byte: the result may split nothing but blanked characters.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Where `needle` starts in `hay`, searching from `from`.
fn find(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    hay.get(from..)?.windows(needle.len()).position(|w| w == needle).map(|p| p + from)
}

/// Length of the string literal at the start of `s` (quote to quote, backslash escapes; an
/// unclosed one ends at the line's end, except a backtick string, which may span lines).
fn string_end(s: &[u8], quote: u8) -> usize {
    let mut i = 1;
    while i < s.len() {
        match s[i] {
            b'\\' => i += 2,
            c if c == quote => return i + 1,
            b'\n' if quote != b'`' => return i,
            _ => i += 1,
        }
    }
    s.len()
}

/// A character literal at the start of `s` (`'x'`, `'\n'`, `'\u{1F600}'`), or `None` for a
/// lone quote (a Rust lifetime or label).
fn char_literal_end(s: &[u8]) -> Option<usize> {
    if s.get(1) == Some(&b'\\') {
        let close = s.iter().skip(2).take(12).position(|&c| c == b'\'')?;
        return Some(close + 3);
    }
    // one character, possibly multi-byte
    let width = std::str::from_utf8(&s[1..s.len().min(5)])
        .ok()
        .or_else(|| std::str::from_utf8(&s[1..s.len().min(2)]).ok())
        .and_then(|t| t.chars().next())
        .map(char::len_utf8)?;
    (s.get(1 + width) == Some(&b'\'')).then_some(width + 2)
}

/// Whether `name` occurs as a whole identifier in `code`.
pub(crate) fn names(code: &str, name: &str) -> bool {
    crate::index::identifiers(code).any(|t| t == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_given_as_a_string_value() {
        let dir = tempfile::tempdir().unwrap();
        let write = |p: &str, t: &str| {
            let full = dir.path().join(p);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(full, t).unwrap();
        };
        write("pkg/auth/types.go", "package types\n\nconst (\n\tStrategyTypeTokenExchange = \"token_exchange\"\n)\n");
        write("pkg/api/spec.go", "type Spec struct {\n\tURL string `json:\"repository_url\"`\n}\n");
        write(
            "pkg/log/log.go",
            "package log\n\nfunc f() { println(\"header_injection failed\") }\n// x = \"stale_name\"\n",
        );
        write("src/main.rs", "const KIND: &str = \"rust_kind\";\nfn main() { let _ = \"used_once\"; }\n");
        write(
            "examples/tts/main.py",
            "import os\nvoice = os.environ.get(\"POCKET_TTS_VOICE\", \"alba\")\nprint(\"LOUD_NAME\")\n",
        );
        write(
            "app/helpers/html_helper.rb",
            "def cama_draw_custom_assets\n  hooks_run('draw_custom_assets')\n  render('printed_name')\nend\n",
        );
        let index = RepoIndex::build(dir.path()).unwrap();
        // A hook the code fires by its name is a name the code keeps; a template it renders is
        // merely used.
        assert_eq!(given_as_a_string(&index, "draw_custom_assets"), Some(("app/helpers/html_helper.rb".into(), 2)));
        assert_eq!(given_as_a_string(&index, "printed_name"), None);
        assert_eq!(given_as_a_string(&index, "token_exchange"), Some(("pkg/auth/types.go".into(), 4)));
        assert_eq!(given_as_a_string(&index, "repository_url"), Some(("pkg/api/spec.go".into(), 2)));
        assert_eq!(given_as_a_string(&index, "header_injection"), None);
        assert_eq!(given_as_a_string(&index, "stale_name"), None);
        assert_eq!(given_as_a_string(&index, "rust_kind"), Some(("src/main.rs".into(), 1)));
        assert_eq!(given_as_a_string(&index, "used_once"), None);
        // An environment variable the code reads is a name it keeps; one it prints is not.
        assert_eq!(given_as_a_string(&index, "POCKET_TTS_VOICE"), Some(("examples/tts/main.py".into(), 2)));
        assert_eq!(given_as_a_string(&index, "LOUD_NAME"), None);
    }

    #[test]
    fn comments_and_strings_are_masked_and_code_is_kept() {
        // (path, text, name, used in code)
        let cases: &[(&str, &str, &str, bool)] = &[
            ("a.rs", "fn f() { old_name(); }", "old_name", true),
            ("a.rs", "// old_name was removed\nfn f() {}", "old_name", false),
            ("a.rs", "/* old_name\n */ fn f() {}", "old_name", false),
            ("a.rs", "fn f() { log(\"old_name\"); }", "old_name", false),
            ("a.rs", "fn f<'a>(x: &'a str) { old_name(x) }", "old_name", true),
            ("a.rs", "let c = 'x'; old_name(c);", "old_name", true),
            ("a.rs", "let c = '\\n'; old_name(c);", "old_name", true),
            ("a.py", "# old_name is gone\ndef f(): pass", "old_name", false),
            ("a.py", "\"\"\"old_name\nmore\"\"\"\ndef f(): pass", "old_name", false),
            ("a.py", "x = 'old_name'\nold_name()", "old_name", true),
            ("a.ts", "const s = `old_name ${x}`;", "old_name", false),
            ("a.ts", "import { old_name } from './x';", "old_name", true),
            ("a.go", "s := \"a\\\"old_name\"", "old_name", false),
            ("a.go", "x := old_name() // call", "old_name", true),
            ("a.py", "print('it''s') ; old_name()", "old_name", true),
            ("a.ml", "(* old_name was removed *)\nlet f x = x", "old_name", false),
            ("a.ml", "let f (x : 'a) = old_name x", "old_name", true),
            ("a.ml", "let s = \"old_name\" in s", "old_name", false),
            ("a.hs", "-- old_name is gone\nf x = x", "old_name", false),
            ("a.hs", "{- old_name\n-} f x' = old_name x'", "old_name", true),
            ("a.erl", "% old_name\nf() -> ok.", "old_name", false),
            ("a.erl", "f() -> old_name().", "old_name", true),
            ("a.clj", "; old_name\n(defn f [] 1)", "old_name", false),
            ("a.clj", "(defn f [] (old_name 'x))", "old_name", true),
        ];
        for (path, text, name, want) in cases {
            let syntax = Syntax::of(path).unwrap();
            let code = code_only(text, syntax);
            assert_eq!(code.lines().count(), text.lines().count(), "{path}: {text:?}");
            assert_eq!(names(&code, name), *want, "{path}: {text:?} -> {code:?}");
        }
    }

    #[test]
    fn only_code_files_count_and_tests_do_not() {
        // (path, counted as code, a test file)
        let cases: &[(&str, bool, bool)] = &[
            ("src/lib.rs", true, false),
            ("CLAUDE.md", false, false),
            ("docs/api.md", false, false),
            ("package.json", false, false),
            ("Makefile", false, false),
            ("tests/history.rs", true, true),
            ("src/parser_test.go", true, true),
            ("src/x.test.ts", true, true),
            ("web/__tests__/a.tsx", true, true),
            ("tests_helper.py", true, false),
            ("pkg/test_parser.py", true, true),
            ("src/FooTest.java", true, true),
            ("src/Contest.java", true, false),
            ("src/testing.rs", true, false),
            ("packages/Js/lib/Js_array.ml", true, false),
            ("src/Main.hs", true, false),
            ("src/app.erl", true, false),
        ];
        for (path, code, test) in cases {
            assert_eq!(Syntax::of(path).is_some(), *code, "{path}");
            assert_eq!(is_test_path(path), *test, "{path}");
        }
    }
}
