//! Configuration claims: a key and, when the memory states one, its value.
//!
//! Forms: `` `timeout_ms: 250` `` (assignment inside a code span), `` `max_connections` = 100 ``,
//! "`retries` defaults to 3", "`retries` (default: 3)", "env var `DATABASE_URL`". A plain
//! word as key (`tokio = "1"`) needs an explicit `=`/"defaults to", or a config word in the
//! sentence, so dependency lines and prose are not mistaken for settings.
//!
//! An environment prefix's value is its first shell word (`A=1 B=2 cargo test` sets `A` to `1`),
//! and an assignment whose value calls or computes something (`w := m.width - f()`,
//! `New(cfg)`, `a + b`) is a statement of code, not a setting.

use std::sync::LazyLock;

use regex::Regex;

use crate::symbols;

/// Longest value kept.
const MAX_VALUE: usize = 200;
/// How far past a key a connector or value is looked for.
const LOOKAHEAD: usize = 256;

static ASSIGN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^\$?["']?([A-Za-z_][A-Za-z0-9_.\-]*)["']?\s*(:=|=|:)\s*(.+?)\s*[;,]?$"#).expect("valid regex")
});

static KEY: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\$?([A-Za-z_][A-Za-z0-9_.\-]*)$").expect("valid regex"));

static CUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:config(?:uration|s)?|settings?|options?|keys?|env|environment|variables?|vars?|defaults?|flags?|parameters?|params?)\b")
        .expect("valid regex")
});

static ENV_CUE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?i)\b(?:env|environment)\b").expect("valid regex"));

static CONNECTOR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^\s*(?:(?P<strong>:=|=|\(\s*defaults?(?:\s+to)?\s*[:=]?|(?:has\s+(?:a\s+)?)?defaults?\s*(?:to|is|of|[:=])|default\s+value\s*(?:is|of|[:=])|(?:is\s+)?set\s+to|is\s+configured\s+(?:to|as))|(?P<colon>:)|(?P<weak>is|equals)\b)\s*",
    )
    .expect("valid regex")
});

/// "... defaults to", anywhere after the key in the same sentence.
pub(crate) static PHRASE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:defaults?\s+(?:to|is)|default\s+value\s+(?:is|of)|is\s+set\s+to)\s*").expect("valid regex")
});

/// `max_connections = 100` written without backticks.
pub(crate) static PROSE_ASSIGN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[\s(])([A-Za-z_][A-Za-z0-9_]*(?:[._-][A-Za-z0-9_]+)+)\s*(?:=|:=)\s*").expect("valid regex")
});

static PLAIN_VALUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^-?\d[\d_.,]*[a-z%]{0,3}$|^(?:true|false|on|off|yes|no|none|null|enabled|disabled)$")
        .expect("valid regex")
});

/// Type annotations, not values (`max_conns: usize`).
#[rustfmt::skip]
const TYPE_NAMES: &[&str] = &[
    "usize", "isize", "u8", "u16", "u32", "u64", "u128", "i8", "i16", "i32", "i64", "i128", "f32",
    "f64", "bool", "str", "&str", "String", "int", "float", "double", "string", "number",
    "boolean", "any", "char", "byte", "bytes", "object", "list", "dict",
];

/// How a key is joined to its value; weaker ones need more evidence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Connector {
    /// `=`, `:=`, "defaults to", "is set to", "(default: 3)".
    Strong,
    /// `:`.
    Colon,
    /// "is", "equals".
    Weak,
}

/// A value as written after a connector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Value {
    pub text: String,
    /// Written in backticks or quotes.
    pub quoted: bool,
}

/// The sentence talks about configuration.
pub(crate) fn has_cue(sentence: &str) -> bool {
    CUE.is_match(sentence)
}

pub(crate) fn has_env_cue(sentence: &str) -> bool {
    ENV_CUE.is_match(sentence)
}

static DEPENDENCY_CUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:packages?|crates?|dependenc(?:y|ies)|deps|librar(?:y|ies)|gems?|npm|pypi|cargo\.toml|package\.json|requirements\.txt|go\.mod)\b")
        .expect("valid regex")
});

/// The sentence talks about dependencies: plain names in it are package names.
pub(crate) fn has_dependency_cue(sentence: &str) -> bool {
    DEPENDENCY_CUE.is_match(sentence)
}

/// `max_connections`, `server.port`, `max-conns`, `maxConns`, `DATABASE_URL`; not `tokio`.
pub(crate) fn config_like(key: &str) -> bool {
    let alpha = key.bytes().any(|c| c.is_ascii_alphabetic());
    let separated = key.contains(['_', '.', '-']) && !key.starts_with(['.', '-']) && !key.ends_with(['.', '-']);
    let lower_camel = key.starts_with(|c: char| c.is_ascii_lowercase()) && symbols::is_camel(key);
    alpha && (separated || lower_camel)
}

/// `PORT`, `DATABASE_URL`. Not `ARGUMENTS`: `$ARGUMENTS` is the placeholder agent tools
/// (Claude Code, OpenCode, Codex) fill with what the user gives a skill or a slash command, not
/// a setting of the repository.
pub(crate) fn is_env_name(key: &str) -> bool {
    key != "ARGUMENTS"
        && key.len() >= 2
        && key.starts_with(|c: char| c.is_ascii_uppercase())
        && key.bytes().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_')
}

/// The key named by a code span (`retries`, `$DATABASE_URL`), if it is shaped like one.
pub(crate) fn key(span: &str) -> Option<&str> {
    let c = KEY.captures(span.trim())?;
    let key = c.get(1)?.as_str();
    (!key.starts_with("self.") && !key.starts_with("this.")).then_some(key)
}

/// `key = value` / `key: value` written inside one code span, before deciding whether
/// it is a setting (see [`Assignment::accept`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Assignment {
    pub key: String,
    pub value: String,
}

/// Keys of package manifests and common settings: plain words, but settings when a config
/// file is named next to them (`edition = "2021"` in `Cargo.toml`). Dependency names
/// (`tokio = "1"`) are deliberately not here.
#[rustfmt::skip]
const MANIFEST_KEYS: &[&str] = &[
    "name", "version", "edition", "rust-version", "license", "license-file", "repository",
    "documentation", "homepage", "readme", "description", "authors", "publish", "resolver",
    "keywords", "categories", "build", "links", "default-run", "members", "exclude", "include",
    "main", "module", "private", "engines", "packageManager", "requires-python", "toolchain",
    "port", "host", "timeout", "retries", "workers", "threads", "concurrency", "shards",
    "replicas", "level", "debug", "mode", "env", "region", "bucket",
];

impl Assignment {
    /// A setting when the key looks like one, the sentence talks about configuration, or a
    /// manifest key sits next to a named config file.
    pub(crate) fn accept(&self, cue: bool, config_file: bool) -> bool {
        config_like(&self.key) || cue || (config_file && MANIFEST_KEYS.contains(&self.key.as_str()))
    }
}

pub(crate) fn assignment(span: &str) -> Option<Assignment> {
    let c = ASSIGN.captures(span.trim())?;
    let (key, sep, raw) = (c.get(1)?.as_str(), c.get(2)?.as_str(), c.get(3)?.as_str().trim());
    if raw.starts_with(['=', '>', ':']) || key.starts_with("self.") || key.starts_with("this.") {
        return None; // `a == b`, `x => y`, `Type::method`
    }
    if sep == ":" && raw.starts_with("//") {
        return None; // a URL
    }
    if sep == ":" && host_port(span.trim()) {
        return None; // `registry.lan:5000`, `localhost:3000`: an address
    }
    // `config:recommended`, `schedule:nonOfficeHours`, `npm:lodash`: a name in a namespace.
    // YAML wants a blank after a key's colon, JSON quotes its keys.
    let after_colon = &span.trim()[c.get(2)?.end()..];
    if sep == ":"
        && !span.trim().starts_with(['"', '\''])
        && after_colon.starts_with(|ch: char| ch.is_ascii_alphabetic())
        && !raw.contains(char::is_whitespace)
    {
        return None;
    }
    // `A=1 B=2 cargo test`: a shell command prefixed with its environment. The setting is
    // the first word; the rest is the command it runs (and its other variables).
    let tight = sep == "=" && !span.trim()[..c.get(2)?.start()].ends_with(char::is_whitespace);
    let raw = if tight { shell_word(raw) } else { raw };
    // `moe_enable_routing_replay: bool = False`: a field declared with its type; the value is
    // what follows the `=`.
    let raw = match raw.split_once(" = ").filter(|(ty, _)| sep == ":" && annotation(ty)) {
        Some((_, value)) => value.trim(),
        None => raw,
    };
    let value = unquote(raw);
    if value.is_empty() || value.len() > MAX_VALUE || (sep == ":" && is_type(value)) || is_expression(value) {
        return None;
    }
    Some(Assignment { key: key.to_string(), value: value.to_string() })
}

/// `registry.lan:5000`, `localhost:8080`, `10.0.0.8:5000`: a host and a port written
/// together, with no blank around the colon, is an address, not a key set to a number.
fn host_port(span: &str) -> bool {
    let Some((host, port)) = span.rsplit_once(':') else { return false };
    let port_ok = !port.is_empty() && port.len() <= 5 && port.bytes().all(|b| b.is_ascii_digit());
    let host_ok = !host.is_empty()
        && host.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
        && (host.contains('.') || host.eq_ignore_ascii_case("localhost"));
    port_ok && host_ok
}

/// `timeout_ms: 500` written without backticks, in a sentence naming a config file.
pub(crate) static PROSE_COLON: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|[\s(,;])([a-z][a-z0-9_]*(?:[._-][a-z0-9_]+)*)\s*:\s+").expect("valid regex"));

/// Words that end in a colon as labels of running text ("default: 3", "note: ...").
#[rustfmt::skip]
const LABELS: &[&str] = &[
    "default", "defaults", "note", "notes", "example", "eg", "value", "values", "see", "step",
    "type", "reason", "why", "how", "decision", "status", "result", "output", "input", "error",
    "warning", "tip", "todo", "fixme", "update", "context", "summary", "rule", "fix", "cause",
    "impact",
];

/// Whether `key: value` in running text is a setting.
pub(crate) fn accept_prose_colon(key: &str, value: &Value, cue: bool, config_file: bool) -> bool {
    if LABELS.contains(&key) {
        return false;
    }
    let plain = value.quoted || PLAIN_VALUE.is_match(&value.text);
    (config_file && (config_like(key) || plain)) || (cue && config_like(key) && plain)
}

/// The connector right after a key, and its length.
pub(crate) fn connector(after: &str) -> Option<(Connector, usize)> {
    let c = CONNECTOR.captures(head(after, LOOKAHEAD))?;
    let kind = if c.name("strong").is_some() {
        Connector::Strong
    } else if c.name("colon").is_some() {
        Connector::Colon
    } else {
        Connector::Weak
    };
    Some((kind, c.get(0)?.end()))
}

/// `1,000` or `1,209,600` at the start of a text, up to a character that is not a digit.
static GROUPED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(\d{1,3}(?:,\d{3})+)(?:[^\d,]|$)").expect("valid regex"));

/// The value at the start of `text`: a code span, a quoted string or one bare token.
pub(crate) fn value_at(text: &str) -> Option<Value> {
    let t = head(text, LOOKAHEAD);
    for q in ['`', '"', '\''] {
        if let Some(rest) = t.strip_prefix(q) {
            let end = rest.find(q)?;
            let v = unquote(rest[..end].trim());
            return (!v.is_empty() && v.len() <= MAX_VALUE).then(|| Value { text: v.to_string(), quoted: true });
        }
    }
    // "defaults to 1,000": a number with its thousands separated is one value.
    if let Some(number) = GROUPED.captures(t).and_then(|c| c.get(1)) {
        return Some(Value { text: number.as_str().replace(',', ""), quoted: false });
    }
    let token = t.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ')' | ']' | '`')).next()?;
    let token = token.trim_end_matches(['.', ':']);
    if token.is_empty() || token.len() > MAX_VALUE || token.starts_with(['=', '>', '(', '[', '{']) {
        return None;
    }
    // "is set to a truthy value", "defaults to the project's name": a phrase about the value,
    // opened by a determiner, not the value.
    const DETERMINERS: [&str; 13] =
        ["a", "an", "the", "any", "some", "your", "its", "their", "this", "that", "whatever", "each", "every"];
    let phrase = t[token.len()..].starts_with(' ') && t[token.len()..].trim_start().starts_with(char::is_alphanumeric);
    if phrase && DETERMINERS.contains(&token.to_ascii_lowercase().as_str()) {
        return None;
    }
    Some(Value { text: token.to_string(), quoted: false })
}

/// Whether the text before an assignment ends with a word that makes it a condition or an
/// example ("when `X=1`", "if `mode: fast`", "e.g. `port: 80`"), or the assignment sits in a
/// clause that opens with one ("If web restore is enabled (`DISABLE_BACKUP_RESTORE=0`)"): a
/// value the reader may choose, not the setting's value.
pub(crate) fn conditional(before: &str) -> bool {
    const WORDS: [&str; 7] = ["when", "if", "unless", "whenever", "while", "e.g.", "eg"];
    const OPENERS: [&str; 5] = ["when", "if", "unless", "whenever", "while"];
    let word = |w: &str| w.trim_start_matches(['(', '*', '_', '>', '-']).to_ascii_lowercase();
    if before.split_whitespace().next_back().is_some_and(|w| WORDS.contains(&word(w).as_str())) {
        return true;
    }
    // The clause the assignment sits in, or, when it is one more item of a list of settings
    // (", `b=2` and `c=3`"), the clause that list continues: "If you use `a=1`, `b=2` and ...".
    let sentence = before.rsplit(['.', ';', ':', '!', '?', '\n']).next().unwrap_or(before);
    for clause in sentence.rsplit(',') {
        if clause.split_whitespace().next().is_some_and(|w| OPENERS.contains(&word(w).as_str())) {
            return true;
        }
        if !list_item(clause) {
            return false;
        }
    }
    false
}

/// Whether a clause holds nothing but code spans joined by "and", "or" (or nothing): one more
/// item of a list.
fn list_item(clause: &str) -> bool {
    clause.split('`').enumerate().all(|(i, part)| {
        i % 2 == 1
            || part.split_whitespace().all(|w| matches!(w.to_ascii_lowercase().as_str(), "and" | "or" | "&" | "nor"))
    })
}

/// Whether a line leads into a worked example: it ends with `:` and supposes something ("Let's
/// say that we have version `0.47.0`:", "Suppose the key is rotated:", "For example:"). The
/// values of the list under it are the example's, not the repository's settings.
pub(crate) fn hypothetical(line: &str) -> bool {
    const CUES: [&str; 11] = [
        "let's say",
        "let’s say",
        "let us say",
        "say we ",
        "say you ",
        "suppose",
        "imagine",
        "for example",
        "for instance",
        "e.g.",
        "hypothetical",
    ];
    let t = line.trim().trim_matches(['*', '_']);
    let lower = t.to_lowercase();
    t.ends_with(':') && CUES.iter().any(|c| lower.starts_with(c.trim_end()) || lower.contains(&format!(" {c}")))
}

/// Whether `key <connector> value` is a configuration claim.
pub(crate) fn accept(connector: Connector, key: &str, value: &Value, cue: bool) -> bool {
    let plain = value.quoted || PLAIN_VALUE.is_match(&value.text);
    match connector {
        Connector::Strong => true,
        Connector::Colon => (config_like(key) || cue) && plain && !is_type(&value.text),
        Connector::Weak => cue && plain,
    }
}

/// A statement of code, not a setting: the value calls something (`m.width - f()`,
/// `New(cfg)`) or computes (`a + b`).
fn is_expression(value: &str) -> bool {
    static CALL_OR_OP: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"[A-Za-z0-9_]\(|\s[-+*/%]\s|&&|\|\|").expect("valid regex"));
    CALL_OR_OP.is_match(value)
}

/// A type written before a default (`bool`, `Optional[int]`, `list[str] | None`, `str`).
fn annotation(ty: &str) -> bool {
    let ty = ty.trim();
    !ty.is_empty()
        && ty.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && ty.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '[' | ']' | '|' | ',' | ' '))
}

fn is_type(value: &str) -> bool {
    TYPE_NAMES.contains(&value) || value.contains(['<', '&'])
}

/// The first shell word of `raw`: up to the first blank, or a whole quoted string.
fn shell_word(raw: &str) -> &str {
    match raw.chars().next() {
        Some(q @ ('"' | '\'')) => raw[1..].find(q).map_or(raw, |end| &raw[..end + 2]),
        _ => raw.split(char::is_whitespace).next().unwrap_or(raw),
    }
}

fn unquote(v: &str) -> &str {
    for q in ['"', '\'', '`'] {
        if let Some(inner) = v.strip_prefix(q).and_then(|s| s.strip_suffix(q)) {
            return inner.trim();
        }
    }
    v
}

/// At most `n` bytes of `s`, cut on a char boundary.
pub(crate) fn head(s: &str, n: usize) -> &str {
    if s.len() <= n {
        return s;
    }
    let mut end = n;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assignments_inside_code_spans() {
        type Case<'a> = (&'a str, bool, bool, Option<(&'a str, &'a str)>);
        let cases: &[Case<'_>] = &[
            ("timeout_ms: 250", false, false, Some(("timeout_ms", "250"))),
            ("config:recommended", true, true, None),
            ("mode: fast", true, false, Some(("mode", "fast"))),
            ("max_connections = 100", false, false, Some(("max_connections", "100"))),
            ("DATABASE_URL=postgres://db/x", false, false, Some(("DATABASE_URL", "postgres://db/x"))),
            ("log_level = \"debug\"", false, false, Some(("log_level", "debug"))),
            ("\"maxConns\": 10", false, false, Some(("maxConns", "10"))),
            ("retries = 3", true, false, Some(("retries", "3"))),
            ("edition = \"2021\"", false, true, Some(("edition", "2021"))),
            ("edition = \"2021\"", false, false, None),
            ("tokio = \"1\"", false, true, None),
            ("version = \"1.2\"", false, false, None),
            ("max_conns: usize", false, false, None),
            ("a == b", true, true, None),
            ("std::io", true, true, None),
            ("https://x.io", true, true, None),
            ("self.x = 5", true, true, None),
            ("let y = 2", true, true, None),
            // an environment prefix: the value is its first word, not the command
            (
                "DISABLE_KUZU=1 DISABLE_NEPTUNE=1 uv run pytest -m \"not integration\"",
                false,
                false,
                Some(("DISABLE_KUZU", "1")),
            ),
            ("RUST_LOG=debug cargo run", false, false, Some(("RUST_LOG", "debug"))),
            // spaced `=` keeps the whole value; a quoted value is kept whole
            ("greeting = hello world", true, false, Some(("greeting", "hello world"))),
            ("APP_GREETING=\"hello world\" ./run", false, false, Some(("APP_GREETING", "hello world"))),
            // code, not a setting
            ("innerWidth := m.width - t.Dialog.View.GetHorizontalFrameSize()", true, false, None),
            ("client = NewClient(cfg)", true, false, None),
            // an address, not a key set to a number
            ("registry.lan:5000", true, true, None),
            ("localhost:3000", true, true, None),
            ("10.0.0.8:5000", true, true, None),
            ("server.port: 5000", true, false, Some(("server.port", "5000"))),
            // a field declared with its type: the value follows the `=`
            ("moe_enable_routing_replay: bool = False", true, false, Some(("moe_enable_routing_replay", "False"))),
            ("max_tokens: Optional[int] = 512", true, false, Some(("max_tokens", "512"))),
        ];
        for (span, cue, config_file, expected) in cases {
            let got = assignment(span).filter(|a| a.accept(*cue, *config_file)).map(|a| (a.key, a.value));
            let expected = expected.map(|(k, v)| (k.to_string(), v.to_string()));
            assert_eq!(got, expected, "{span}");
        }
    }

    #[test]
    fn connectors_and_values() {
        let read = |after: &str| {
            let (kind, len) = connector(after)?;
            Some((kind, value_at(&after[len..])?.text))
        };
        assert_eq!(read(" = 100 in x"), Some((Connector::Strong, "100".into())));
        assert_eq!(read(" defaults to 3."), Some((Connector::Strong, "3".into())));
        assert_eq!(read(" (default: 30s)"), Some((Connector::Strong, "30s".into())));
        assert_eq!(read(" is set to `info`"), Some((Connector::Strong, "info".into())));
        assert_eq!(read(": 250"), Some((Connector::Colon, "250".into())));
        assert_eq!(read(" is 3"), Some((Connector::Weak, "3".into())));
        assert_eq!(read(" holds the routes"), None);
        // A phrase about the value, opened by a determiner, is no value.
        assert_eq!(read(" is set to a truthy value before"), None);
        assert_eq!(read(" defaults to the project name"), None);
        assert_eq!(read(" defaults to `a`"), Some((Connector::Strong, "a".into())));
        // A number with its thousands separated is one value; a list is not.
        assert_eq!(read(", which defaults to 1,000."), None);
        assert_eq!(read(" defaults to 1,000."), Some((Connector::Strong, "1000".into())));
        assert_eq!(read(" = 1,209,600 seconds"), Some((Connector::Strong, "1209600".into())));
        assert_eq!(read(" = 1,2"), Some((Connector::Strong, "1".into())));
        assert!(conditional("Required when "));
        assert!(conditional("for instance (e.g. "));
        assert!(!conditional("Set "));
        assert!(conditional("If web restore is enabled ("));
        assert!(conditional("The cache. When it is warm (see below) the flag is "));
        assert!(!conditional("When running in production, set "));
        assert!(!conditional("Restore is enabled ("));
        // One more setting of a list the condition opens.
        assert!(conditional("If you use `minimumReleaseAge=3 days`, "));
        assert!(conditional("If you use `a=1`, `prCreation=\"x\"` and "));
        assert!(!conditional("If you use `a=1`, Renovate sets "));
        assert!(hypothetical("Let's say that we have new Strimzi version - `0.47.0`:"));
        assert!(hypothetical("For example:"));
        assert!(hypothetical("**Suppose the key is rotated:**"));
        assert!(!hypothetical("Let's say that we have new Strimzi version."));
        assert!(!hypothetical("The defaults in `app.toml`:"));
        assert!(!hypothetical("Supported say-so flags:"));
        let v = |t: &str, quoted| Value { text: t.into(), quoted };
        assert!(accept(Connector::Weak, "retries", &v("3", false), true));
        assert!(!accept(Connector::Weak, "retries", &v("3", false), false));
        assert!(!accept(Connector::Weak, "Cache", &v("the", false), true));
        assert!(!accept(Connector::Colon, "name", &v("10", false), false));
        assert!(accept(Connector::Colon, "max_conns", &v("10", false), false));
    }

    #[test]
    fn keys_and_env_names() {
        assert_eq!(key("$DATABASE_URL"), Some("DATABASE_URL"));
        assert_eq!(key("retries"), Some("retries"));
        assert_eq!(key("a b"), None);
        assert!(is_env_name("PORT") && is_env_name("DATABASE_URL") && !is_env_name("Port"));
        assert!(!is_env_name("ARGUMENTS"), "an agent tool's argument placeholder");
        assert!(config_like("server.port") && config_like("max-conns") && config_like("maxConns"));
        assert!(!config_like("tokio") && !config_like("ShardedCache") && !config_like("_"));
    }
}
