//! What counts as a code symbol: `ShardedCache`, `Type::method`, `Class.method`, `fn_name()`,
//! `fn parse`. Plain lowercase words (`serde`, `true`, `the`) never do: they are English or
//! package names far more often than symbols.

use std::sync::LazyLock;

use regex::Regex;

/// What a symbol looks like; decides whether it is taken, and whether it could be a config key.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Shape {
    /// Written with a declaration keyword (`fn parse`, `struct Cache`).
    pub declared: bool,
    /// Written as a call (`parse()`, `parse(input)`, `vec!`).
    pub call: bool,
    /// `Type::method`.
    pub path_sep: bool,
    /// `Class.method`, `server.port`.
    pub dotted: bool,
    /// `ShardedCache`, `getUser`.
    pub camel: bool,
    /// `max_connections`.
    pub snake: bool,
    /// `MAX_RETRIES`.
    pub screaming: bool,
    /// `Healthcheck`: one capitalised word.
    pub capital: bool,
}

impl Shape {
    /// Shaped like code rather than an English word.
    pub(crate) fn is_code(self) -> bool {
        self.declared
            || self.call
            || self.path_sep
            || self.dotted
            || self.camel
            || self.snake
            || self.screaming
            || self.capital
    }

    /// Could name a config key rather than a definition.
    pub(crate) fn key_like(self) -> bool {
        !self.declared && !self.call && !self.path_sep && (self.snake || self.screaming || self.camel || self.dotted)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Symbol {
    pub name: String,
    pub shape: Shape,
}

static DECL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:(?:pub(?:\([a-z ]+\))?|export|default|async|unsafe|const|static|abstract|public|private|protected|extern)\s+)*(?:fn|func|def|function|class|struct|enum|trait|impl|interface|type|mod|module|union|record|protocol)\s+",
    )
    .expect("valid regex")
});

static IDENT_PATH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[A-Za-z_][A-Za-z0-9_]*(?:(?:::|\.)[A-Za-z_][A-Za-z0-9_]*)*").expect("valid regex"));

/// Identifier-shaped tokens in running text, for unbackticked symbols.
pub(crate) static PROSE_SYMBOL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[A-Za-z_][A-Za-z0-9_]*(?:(?:::|\.)[A-Za-z_][A-Za-z0-9_]*)*(?:\(\))?").expect("valid regex")
});

/// Words that, right before or after a name, say it is a definition (`the ShardedCache struct`).
#[rustfmt::skip]
pub(crate) const KEYWORDS: &[&str] = &[
    "struct", "class", "function", "fn", "func", "method", "type", "trait", "interface", "enum",
    "module", "macro", "constant", "const", "field", "hook", "component", "def", "impl",
    "constructor",
];

/// Library and language names that are never defined in the repo under check.
#[rustfmt::skip]
const BLOCKED_NAMES: &[&str] = &[
    "HashMap", "HashSet", "BTreeMap", "BTreeSet", "VecDeque", "RwLock", "RefCell", "OnceCell",
    "OnceLock", "LazyLock", "LazyCell", "PhantomData", "JoinHandle", "TcpStream", "TcpListener",
    "PathBuf", "ToString", "FromStr", "AsRef", "IntoIterator", "DateTime", "TypeError",
    "ValueError", "KeyError", "RuntimeError", "TypeScript", "JavaScript", "GitHub", "GitLab",
    "BitBucket", "PostgreSQL", "MySQL", "MongoDB", "GraphQL", "OpenAI", "ChatGPT", "YouTube",
    "LinkedIn", "PowerShell", "VSCode", "WebSocket", "WebSockets", "OAuth", "iOS", "macOS",
    "iPadOS", "watchOS", "tvOS", "NixOS", "FreeBSD", "OpenBSD", "DevOps", "PyPI", "NuGet",
    "SQLite", "MariaDB", "DynamoDB", "BigQuery", "CloudFlare", "CloudFront", "WebAssembly",
    "NodeJS", "ReactJS", "VueJS", "NextJS", "TailwindCSS", "JetStream", "ClickHouse", "RabbitMQ",
    "eBPF", "gRPC", "IntelliJ", "PyCharm", "WebStorm", "DockerHub", "HuggingFace", "LangChain",
    "CMake", "MSBuild", "LaTeX", "OpenSSL", "LibreSSL", "BoringSSL", "FastAPI", "NumPy", "PyTorch",
    "TensorFlow", "OpenTelemetry", "GitHubActions", "CocoaPods", "SwiftUI", "UIKit", "AppKit",
    "useState", "useEffect", "useRef", "useMemo", "useCallback", "useContext", "useReducer",
    "addEventListener", "setTimeout", "setInterval", "getElementById", "querySelector", "toString",
    "valueOf", "hasOwnProperty", "unwrap_or", "unwrap_or_else", "unwrap_or_default", "map_err",
    "and_then", "ok_or", "ok_or_else", "as_ref", "as_mut", "to_string", "to_owned", "into_iter",
    "iter_mut", "is_some", "is_none", "is_ok", "is_err", "is_empty", "println", "eprintln",
    "format", "vec", "assert", "assert_eq", "assert_ne", "debug_assert", "panic", "todo",
    "unimplemented", "unreachable", "matches", "write", "writeln", "dbg", "print", "len",
    "serde_json", "serde_yaml", "tracing_subscriber", "async_trait", "once_cell", "lazy_static",
    "num_cpus",
];

/// What agents' instruction files name that is no code of the repository: the agent's own
/// tools (Claude Code's `AskUserQuestion`, `TodoWrite`, ...), the markers of a note
/// (`TODO`), floating-point words, and the names of naming conventions (`snake_case`).
#[rustfmt::skip]
const AGENT_WORDS: &[&str] = &[
    "AskUserQuestion", "TodoWrite", "TodoRead", "WebFetch", "WebSearch", "NotebookEdit",
    "NotebookRead", "MultiEdit", "SlashCommand", "ExitPlanMode", "EnterPlanMode", "BashOutput",
    "KillShell", "KillBash", "TaskOutput", "TaskCreate", "TaskUpdate", "TaskList", "TODO",
    "FIXME", "XXX", "HACK", "NaN", "Infinity", "snake_case", "camelCase", "PascalCase",
    "UpperCamelCase", "lowerCamelCase", "SCREAMING_SNAKE_CASE", "UPPER_SNAKE_CASE", "UPPER_CASE",
    "CONSTANT_CASE", "lower_snake_case", "kebab_case", "Title_Case", "CamelCase", "Snake_case",
    "Pascal_Case", "Camel_Snake_Case", "SCREAMING_CASE",
];

/// Roots of qualified names from standard and very common libraries.
#[rustfmt::skip]
const BLOCKED_ROOTS: &[&str] = &[
    "std", "core", "alloc", "tokio", "serde", "serde_json", "anyhow", "thiserror", "futures",
    "Self", "self", "super", "this", "console", "Math", "JSON", "Object", "Array", "Promise",
    "Number", "String", "Date", "Reflect", "Symbol", "window", "document", "process", "os", "sys",
    "json", "re", "np", "pd", "React", "fmt", "strings", "errors", "time", "math", "http", "io",
    "log", "sync", "context", "path", "typing", "collections", "itertools", "functools",
];

/// Trailing segments that make a dotted name a domain (`example.com`), not a symbol.
#[rustfmt::skip]
const TLDS: &[&str] = &[
    "com", "org", "net", "io", "dev", "app", "ai", "co", "uk", "de", "gov", "edu", "info", "sh",
];

/// Trailing segments that make a two-part dotted name a file name (`memory.db`, `python.exe`,
/// `llama.cpp`, `deno.lock`), not a member: the path rules read it as a file.
#[rustfmt::skip]
const FILE_EXTENSIONS: &[&str] = &[
    "db", "sqlite", "exe", "dll", "so", "json", "jsonl", "yaml", "yml", "toml", "ini", "cfg", "conf", "lock",
    "md", "mdc", "txt", "csv", "xml", "html", "css", "sql", "log", "env", "cpp", "hpp", "cc", "h", "c",
    "js", "mjs", "cjs", "jsx", "ts", "tsx", "py", "rb", "go", "rs", "sh", "kt", "java", "swift", "cs",
    "ml", "mli", "ex", "exs", "erl", "hrl", "hs", "scala", "php", "dart", "lua", "zig", "kts", "vue", "svelte",
];

/// Parses a code span or prose token as a symbol, stripping call parentheses, generics,
/// declaration keywords and `self.`/`this.`.
pub(crate) fn parse(text: &str) -> Option<Symbol> {
    let mut t = text.trim();
    if t.is_empty() || t.len() > 200 {
        return None;
    }
    let mut shape = Shape::default();
    if let Some(m) = DECL.find(t) {
        shape.declared = true;
        // `fn parse(x: u32) -> u32`, `impl Cache for Shard`: the leading name is the symbol.
        let name = IDENT_PATH.find(&t[m.end()..])?.as_str();
        return finish(name, shape);
    }
    for prefix in ["self.", "this.", "&mut ", "&", "*", "@"] {
        if let Some(rest) = t.strip_prefix(prefix) {
            t = rest;
        }
    }
    if let Some(rest) = t.strip_suffix('!') {
        t = rest;
        shape.call = true;
    }
    if t.ends_with(')') {
        let open = t.find('(')?;
        if t[open + 1..t.len() - 1].contains(['(', ')']) {
            return None;
        }
        t = &t[..open];
        shape.call = true;
    }
    if t.ends_with('>') {
        t = &t[..t.find('<')?];
    }
    let m = IDENT_PATH.find(t)?;
    if m.end() != t.len() {
        return None;
    }
    finish(t, shape)
}

fn finish(name: &str, mut shape: Shape) -> Option<Symbol> {
    let segments: Vec<&str> = name.split([':', '.']).filter(|s| !s.is_empty()).collect();
    let last = *segments.last()?;
    if segments.len() > 8 || segments.iter().any(|s| s.len() > 64) {
        return None;
    }
    if segments.len() > 1 && segments.iter().all(|s| s.len() == 1) {
        return None; // e.g, i.e
    }
    if name.contains('.') && TLDS.contains(&last) {
        return None;
    }
    if segments.len() == 2 && !name.contains("::") && !shape.call && FILE_EXTENSIONS.contains(&last) {
        return None;
    }
    shape.path_sep = name.contains("::");
    shape.dotted = name.contains('.');
    shape.camel = segments.iter().any(|s| is_camel(s));
    shape.snake = segments.iter().any(|s| is_snake(s));
    shape.screaming = segments.len() == 1 && is_screaming(name);
    shape.capital = segments.len() == 1 && is_capital(name);
    Some(Symbol { name: name.to_string(), shape })
}

/// `ShardedCache`, `HTTPServer`, `getUser`; not `Cache`, `JSON`, `iphone`.
pub(crate) fn is_camel(s: &str) -> bool {
    let b = s.as_bytes();
    if b.is_empty() || !b.iter().all(u8::is_ascii_alphanumeric) || !b.iter().any(u8::is_ascii_lowercase) {
        return false;
    }
    if b[0].is_ascii_uppercase() {
        b.iter().filter(|c| c.is_ascii_uppercase()).count() >= 2
    } else {
        b[0].is_ascii_lowercase() && b[1..].iter().any(u8::is_ascii_uppercase)
    }
}

fn is_snake(s: &str) -> bool {
    s.contains('_')
        && !s.starts_with("__")
        && s.bytes().any(|c| c.is_ascii_lowercase())
        && s.trim_matches('_').bytes().any(|c| c.is_ascii_alphabetic())
}

pub(crate) fn is_screaming(s: &str) -> bool {
    s.len() >= 3
        && s.contains('_')
        && !s.starts_with('_')
        && s.bytes().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_')
}

/// Cheap test that a word of running text could have a code shape (separator, call, inner
/// capital); plain and Capitalised words are rejected without running any regex.
pub(crate) fn maybe_code(word: &str) -> bool {
    word.contains(['_', ':', '.', '(']) || word.bytes().skip(1).any(|c| c.is_ascii_uppercase())
}

/// Library names, dunders, and anything under a standard-library root.
pub(crate) fn blocked(name: &str) -> bool {
    if name.starts_with("__") || BLOCKED_NAMES.contains(&name) || AGENT_WORDS.contains(&name) {
        return true;
    }
    // An agent's MCP tool (`mcp__github__create_issue`), or an acronym's plural (`IDs`, `APIs`).
    let b = name.as_bytes();
    let plural = b.len() >= 3 && b[b.len() - 1] == b's' && b[..b.len() - 1].iter().all(|c| c.is_ascii_uppercase());
    if name.starts_with("mcp__") || plural {
        return true;
    }
    let qualified = name.contains("::") || name.contains('.');
    let root = name.split([':', '.']).next().unwrap_or(name);
    qualified && BLOCKED_ROOTS.contains(&root)
}

/// `Healthcheck`, `Router`: a capitalised word that is not a common type, product or
/// English word. Taken in backticks, or right before "in <file>" in running text.
pub(crate) fn is_capital(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 3
        && b[0].is_ascii_uppercase()
        && b[1..].iter().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && !NOT_SYMBOLS.contains(&s)
}

/// Capitalised words that are types of every language, products, or plain English.
#[rustfmt::skip]
const NOT_SYMBOLS: &[&str] = &[
    "True", "False", "None", "Null", "Nil", "Some", "Self", "String", "Option", "Result", "Vec",
    "Box", "Arc", "Cell", "Mutex", "Error", "Exception", "Object", "Array", "Map", "Set", "List",
    "Dict", "Tuple", "Promise", "Date", "Math", "Number", "Boolean", "Symbol", "Function", "Any",
    "Never", "Unit", "Void", "Default", "Debug", "Clone", "Copy", "Send", "Sync", "Sized", "Drop",
    "Iterator", "Future", "Stream", "Redis", "Postgres", "Postgresql", "Mysql", "Sqlite", "Docker",
    "Kubernetes", "Linux", "Windows", "Python", "Rust", "Java", "Node", "React", "Vue", "Angular",
    "Django", "Flask", "Rails", "Spring", "Nginx", "Kafka", "Git", "Github", "Gitlab", "Ubuntu",
    "Debian", "Alpine", "Yes", "Note", "Warning", "Important", "Todo", "Fixme", "Deprecated",
    "Release", "Info", "Warn", "Trace", "Get", "Post", "Put", "Patch", "Delete", "Head", "Options",
    "Json", "Yaml", "Toml", "Html", "Css", "Http", "Https", "Api", "Cli", "Url", "Uri", "Utc",
    "Cargo", "Npm", "Yarn", "Pip", "Make", "Bash", "Shell", "Terraform", "Ansible", "Helm",
    "Jenkins", "Mac", "Macos", "Android", "Chrome", "Firefox", "Safari", "Slack", "Jira", "The",
    "This", "That", "These", "Those", "And", "But", "For", "Not", "See", "Use", "Run", "Also",
    "Tests", "Test", "Code", "File", "Files", "Folder", "Module", "Package", "Crate", "Docs",
    "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "January",
    "February", "March", "April", "May", "June", "July", "August", "September", "October",
    "November", "December", "English", "French", "German",
];

/// A code span taken as a symbol.
pub(crate) fn from_code_span(text: &str) -> Option<Symbol> {
    let sym = parse(text)?;
    (sym.shape.is_code() && !blocked(&sym.name)).then_some(sym)
}

/// A name in backticks that is not shaped like code (`spawn`, `Error`, `Windows`, `__init__`)
/// but is tied to a file ("`spawn` in `x.rs`", "`x.rs` defines `Windows`") or carries a line
/// (`line`: "`read` (L25)"): a symbol whatever the word, unless it is a language keyword or
/// literal, a standard-library name, or, without a line, the object of "use"/"import" (a
/// package: "we use `serde` in `src/lib.rs`").
pub(crate) fn from_placed_span(text: &str, word_before: &str, line: bool) -> Option<Symbol> {
    let sym = parse(text)?;
    let object = matches!(
        word_before,
        "use" | "uses" | "using" | "used" | "import" | "imports" | "with" | "via" | "crate" | "package" | "library"
    );
    let keyword = !sym.name.contains([':', '.']) && NOT_NAMES.contains(&sym.name.to_ascii_lowercase().as_str());
    let library = !sym.name.starts_with("__") && blocked(&sym.name);
    (sym.name.len() >= 2 && !keyword && !library && (line || !object)).then_some(sym)
}

/// Keywords and literals (compared lowercased): they can never name a definition.
#[rustfmt::skip]
const NOT_NAMES: &[&str] = &[
    "true", "false", "null", "nil", "none", "undefined", "self", "this", "super", "crate",
    "async", "await", "return", "break", "continue", "let", "mut", "pub", "use", "mod", "impl",
    "fn", "func", "def", "class", "struct", "enum", "type", "trait", "interface", "const",
    "static", "if", "else", "elif", "for", "while", "loop", "match", "in", "import", "from",
    "export", "package", "var", "yes", "no", "on", "off", "todo", "fixme",
];

/// Context around an unbackticked name in running text.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ProseContext {
    /// A definition keyword right before or after it.
    pub keyword: bool,
    /// The sentence names a file.
    pub file_in_sentence: bool,
    /// Followed by a line reference (`(L45)`).
    pub line_after: bool,
}

/// A word wrapped in single underscores (`_existing_`), Markdown's emphasis in running text,
/// not a name.
fn emphasis(name: &str) -> bool {
    name.strip_prefix('_')
        .and_then(|n| n.strip_suffix('_'))
        .is_some_and(|inner| !inner.is_empty() && inner.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
}

/// Whether an unbackticked name in running text is a symbol. `::` and `()` are unmistakable;
/// CamelCase, snake_case and `Type.member` need a keyword, a file or a line next to them,
/// because prose is full of product names.
pub(crate) fn accept_prose(sym: &Symbol, cx: ProseContext) -> bool {
    if blocked(&sym.name) || emphasis(&sym.name) {
        return false;
    }
    let s = sym.shape;
    if s.path_sep || (s.call && sym.name.len() >= 2) {
        return true;
    }
    let first = sym.name.split('.').next().unwrap_or("");
    let dotted_ok =
        !s.dotted || is_camel(first) || first.contains('_') || first.starts_with(|c: char| c.is_ascii_uppercase());
    (s.camel || s.snake) && dotted_ok && (cx.keyword || cx.file_in_sentence || cx.line_after)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(text: &str) -> Option<String> {
        from_code_span(text).map(|s| s.name)
    }

    #[test]
    fn code_spans_that_are_symbols() {
        let cases = [
            ("ShardedCache", "ShardedCache"),
            ("Type::method", "Type::method"),
            ("crate::cache::Shard", "crate::cache::Shard"),
            ("Class.method", "Class.method"),
            ("fn_name()", "fn_name"),
            ("parse(input)", "parse"),
            ("get()", "get"),
            ("max_connections", "max_connections"),
            ("MAX_RETRIES", "MAX_RETRIES"),
            ("getUser", "getUser"),
            ("HTTPServer", "HTTPServer"),
            ("fn parse", "parse"),
            ("pub async fn run(listener: TcpListener)", "run"),
            ("struct Cache", "Cache"),
            ("impl Cache for Shard", "Cache"),
            ("Healthcheck", "Healthcheck"),
            ("Cache", "Cache"),
            ("ShardMap<K, V>", "ShardMap"),
            ("self.shard_map", "shard_map"),
            ("my_macro!", "my_macro"),
            ("config.load()", "config.load"),
        ];
        for (text, expected) in cases {
            assert_eq!(span(text).as_deref(), Some(expected), "{text}");
        }
    }

    #[test]
    fn code_spans_that_are_not_symbols() {
        for text in [
            "true",
            "and",
            "the",
            "TODO",
            "serde",
            "lodash",
            "Error",
            "Redis",
            "Note",
            "JSON",
            "HTTP",
            "e.g",
            "i.e",
            "1.2.3",
            "v2.0",
            "std::sync::Arc",
            "tokio::spawn",
            "console.log",
            "HashMap",
            "GitHub",
            "iOS",
            "println!",
            "__init__",
            "example.com",
            "a b",
            "x + y",
            "let y = 2",
            "foo(bar(x))",
            "self.lock",
            "Self::new",
            "os.path.join",
            "",
        ] {
            assert_eq!(span(text), None, "{text:?}");
        }
    }

    #[test]
    fn any_name_placed_in_a_file_or_given_a_line() {
        let placed = |t: &str, before: &str, line: bool| from_placed_span(t, before, line).map(|s| s.name);
        for name in ["spawn", "read", "Error", "Windows", "__init__", "main", "new", "Redis"] {
            assert_eq!(placed(name, "the", false).as_deref(), Some(name), "{name}");
        }
        for name in ["true", "None", "self", "fn", "TODO", "HashMap", "println!", "os.path", "x"] {
            assert_eq!(placed(name, "the", true), None, "{name}");
        }
        // "we use `serde` in `src/lib.rs`": a package, unless a line points at a definition
        assert_eq!(placed("serde", "use", false), None);
        assert_eq!(placed("spawn", "uses", true).as_deref(), Some("spawn"));
    }

    #[test]
    fn prose_names_need_context_unless_unmistakable() {
        let sym = |t: &str| parse(t).unwrap();
        let none = ProseContext::default();
        assert!(accept_prose(&sym("Cache::get"), none));
        assert!(accept_prose(&sym("init()"), none));
        assert!(!accept_prose(&sym("ShardedCache"), none));
        assert!(accept_prose(&sym("ShardedCache"), ProseContext { keyword: true, ..none }));
        assert!(accept_prose(&sym("ShardedCache"), ProseContext { file_in_sentence: true, ..none }));
        assert!(accept_prose(&sym("ShardedCache"), ProseContext { line_after: true, ..none }));
        assert!(!accept_prose(&sym("GitHub"), ProseContext { file_in_sentence: true, ..none }));
        assert!(!accept_prose(&sym("CMake"), ProseContext { file_in_sentence: true, ..none }));
        assert!(!accept_prose(&sym("os.path"), ProseContext { file_in_sentence: true, ..none }));
        assert!(!accept_prose(&sym("Cache"), ProseContext { keyword: true, ..none }));
        // Markdown emphasis in running text is no name; a leading underscore alone may be one
        assert!(!accept_prose(&sym("_existing_"), ProseContext { file_in_sentence: true, ..none }));
        assert!(accept_prose(&sym("_private_fn"), ProseContext { file_in_sentence: true, ..none }));
    }
}
