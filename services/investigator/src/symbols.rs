//! Symbol definitions of one file: tree-sitter for Rust, Python, Go, TypeScript and
//! JavaScript here, and for Java, C#, Kotlin, Swift, Ruby, PHP, C and C++ in
//! [`crate::grammars`]; the code blocks of Razor, Vue, Svelte and Astro files with those
//! grammars ([`crate::embedded`]); a line-based fallback for other text files.
//!
//! Methods carry their `impl`, class or receiver as their container; a Go struct field's tag keys
//! (`yaml:"editInTerminal"`) are names of the code too, with the struct as container. The definition walk never
//! descends into a function body (a `block`), so a definition nested in a body is not found;
//! a macro call's text is read line by line. Rust files are skimmed first ([`crate::skim`]).
//! The index logs each file it parses, with its size and time, under `--log memval::parse=debug`.

use std::sync::LazyLock;

use regex::Regex;
use tree_sitter::{Language, Node, Parser};

use crate::embedded::{Code, Host, RAZOR_CLASS};
use crate::grammars::Grammar;

/// One definition found in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Def {
    pub name: Box<str>,
    /// Enclosing type, class, impl or trait, for methods and fields.
    pub container: Option<Box<str>>,
    /// 1-based first and last line of the definition.
    pub line: u32,
    pub end_line: u32,
    pub kind: &'static str,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Rust,
    Python,
    Go,
    TypeScript,
    Tsx,
    JavaScript,
    Java,
    CSharp,
    Kotlin,
    Swift,
    Ruby,
    Php,
    C,
    Cpp,
    /// Prose and data (Markdown, JSON, YAML, ...): defines nothing, even when a code block
    /// in it looks like a definition.
    Doc,
    /// A component file whose code sits in blocks of its markup (`crate::embedded`): a Razor
    /// component's `@code`, a Vue, Svelte or Astro file's script.
    Embedded(Host),
    /// Anything else that is text: line-based fallback.
    Other,
}

impl Lang {
    pub fn of(path: &str) -> Lang {
        match path.rsplit('.').next().unwrap_or("") {
            "rs" => Lang::Rust,
            "py" | "pyi" => Lang::Python,
            "go" => Lang::Go,
            "ts" | "mts" | "cts" => Lang::TypeScript,
            "tsx" => Lang::Tsx,
            "js" | "jsx" | "mjs" | "cjs" => Lang::JavaScript,
            "java" => Lang::Java,
            "cs" => Lang::CSharp,
            "kt" | "kts" => Lang::Kotlin,
            "swift" => Lang::Swift,
            "rb" | "rake" | "gemspec" => Lang::Ruby,
            "php" => Lang::Php,
            "razor" | "cshtml" => Lang::Embedded(Host::Razor),
            "vue" | "svelte" => Lang::Embedded(Host::Script),
            "astro" => Lang::Embedded(Host::Astro),
            "c" => Lang::C,
            "h" | "hh" | "hpp" | "hxx" | "cc" | "cpp" | "cxx" | "c++" | "h++" | "ino" => Lang::Cpp,
            "md" | "markdown" | "mdx" | "mdc" | "txt" | "rst" | "adoc" | "html" | "htm" | "json" | "yaml" | "yml"
            | "toml" | "lock" | "csv" | "svg" | "xml" | "ini" | "cfg" | "orig" => Lang::Doc,
            _ => Lang::Other,
        }
    }

    /// Whether a file of this language may define what its parse does not find: a language
    /// without a grammar here, whose lines are only guessed at, or a Vue, Svelte or Astro
    /// script, whose members may sit in an object (Vue's `methods: { ... }`), which the walk
    /// does not read.
    pub fn guessed(self) -> bool {
        matches!(self, Lang::Other | Lang::Embedded(Host::Script | Host::Astro))
    }

    /// Its grammar in `crate::grammars`, for the languages read there.
    fn more(self) -> Option<Grammar> {
        Some(match self {
            Lang::Java => Grammar::Java,
            Lang::CSharp => Grammar::CSharp,
            Lang::Kotlin => Grammar::Kotlin,
            Lang::Swift => Grammar::Swift,
            Lang::Ruby => Grammar::Ruby,
            Lang::Php => Grammar::Php,
            Lang::C => Grammar::C,
            Lang::Cpp => Grammar::Cpp,
            _ => return None,
        })
    }

    fn grammar(self) -> Option<Language> {
        Some(match self {
            Lang::Rust => tree_sitter_rust::LANGUAGE.into(),
            Lang::Python => tree_sitter_python::LANGUAGE.into(),
            Lang::Go => tree_sitter_go::LANGUAGE.into(),
            Lang::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Lang::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Lang::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Lang::Java => tree_sitter_java::LANGUAGE.into(),
            Lang::CSharp => tree_sitter_c_sharp::LANGUAGE.into(),
            Lang::Kotlin => tree_sitter_kotlin_ng::LANGUAGE.into(),
            Lang::Swift => tree_sitter_swift::LANGUAGE.into(),
            Lang::Ruby => tree_sitter_ruby::LANGUAGE.into(),
            Lang::Php => tree_sitter_php::LANGUAGE_PHP.into(),
            Lang::C => tree_sitter_c::LANGUAGE.into(),
            Lang::Cpp => tree_sitter_cpp::LANGUAGE.into(),
            Lang::Other | Lang::Doc | Lang::Embedded(_) => return None,
        })
    }
}

thread_local! {
    static PARSERS: std::cell::RefCell<Vec<(Lang, Parser)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Definitions in `text`, a file of language `lang`. A Rust text is parsed with its function
/// bodies emptied ([`crate::skim`]): the walk skips blocks, so the definitions are the same,
/// and the parse is several times faster.
pub fn definitions(lang: Lang, text: &str) -> Vec<Def> {
    if lang == Lang::Rust {
        if let Some(defs) = crate::skim::without_fn_bodies(text).and_then(|skimmed| tree_definitions(lang, &skimmed)) {
            return defs;
        }
    }
    parse_definitions(lang, text)
}

/// What [`definitions`] hands tree-sitter for a Rust text: `None` when it parses the text as
/// it is (see [`crate::skim`]).
pub fn skimmed(text: &str) -> Option<String> {
    crate::skim::without_fn_bodies(text)
}

/// [`definitions`] of the text as it is, without emptying Rust function bodies: what the
/// skimmed parse is checked against (the `rust_skim` bench bin).
pub fn parse_definitions(lang: Lang, text: &str) -> Vec<Def> {
    match lang {
        Lang::Doc => return Vec::new(),
        Lang::Embedded(host) => return embedded_definitions(host, text),
        _ => {}
    }
    let mut defs = tree_definitions(lang, text).unwrap_or_else(|| fallback_definitions(text));
    // A C or C++ header may be Objective-C's (`@interface SPImageView : NSImageView`), which the
    // C++ grammar does not read: its classes and protocols are read by line.
    if matches!(lang, Lang::C | Lang::Cpp) && text.contains('@') {
        defs.extend(objc_definitions(text));
    }
    defs
}

/// A component file's definitions: those of its code blocks, parsed by their language's
/// grammar (`crate::embedded`). Its markup defines nothing. A Razor block's members belong to
/// the class the file compiles to, named after the file: no container.
fn embedded_definitions(host: Host, text: &str) -> Vec<Def> {
    let Some((code_lang, code)) = crate::embedded::code_of(host, text) else {
        return Vec::new();
    };
    let lang = match code_lang {
        Code::CSharp => Lang::CSharp,
        Code::TypeScript => Lang::TypeScript,
        Code::JavaScript => Lang::JavaScript,
    };
    let mut defs = tree_definitions(lang, &code).unwrap_or_default();
    defs.retain(|d| &*d.name != RAZOR_CLASS);
    for d in &mut defs {
        if d.container.as_deref() == Some(RAZOR_CLASS) {
            d.container = None;
        }
    }
    defs
}

/// Objective-C's classes, categories' classes and protocols: `@interface X`, `@implementation
/// X`, `@protocol X` (not `@protocol X;`, a forward declaration).
fn objc_definitions(text: &str) -> Vec<Def> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| line.len() <= 1000)
        .filter_map(|(i, line)| {
            let name = OBJC_DEF.captures(line)?.get(1)?;
            Some(Def {
                name: name.as_str().into(),
                container: None,
                line: i as u32 + 1,
                end_line: i as u32 + 1,
                kind: "class",
            })
        })
        .collect()
}

static OBJC_DEF: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*@(?:interface|implementation|protocol)\s+([A-Za-z_][A-Za-z0-9_]*)\b\s*(?:[^;\s]|$)")
        .expect("objc regex")
});

/// Definitions from the language's grammar; `None` without one, or when the parser gives
/// no tree.
fn tree_definitions(lang: Lang, text: &str) -> Option<Vec<Def>> {
    let grammar = lang.grammar()?;
    let tree = PARSERS.with(|cell| {
        let mut parsers = cell.borrow_mut();
        let idx = match parsers.iter().position(|(l, _)| *l == lang) {
            Some(i) => i,
            None => {
                let mut parser = Parser::new();
                parser.set_language(&grammar).ok()?;
                parsers.push((lang, parser));
                parsers.len() - 1
            }
        };
        parsers[idx].1.parse(text, None)
    })?;
    let mut defs = Vec::new();
    collect(lang, tree.root_node(), text.as_bytes(), None, &mut defs, 0);
    Some(defs)
}

fn text_of<'a>(node: Node<'_>, src: &'a [u8]) -> &'a str {
    node.utf8_text(src).unwrap_or("")
}

fn push(defs: &mut Vec<Def>, name: &str, container: Option<&str>, node: Node<'_>, kind: &'static str) {
    let name = name.trim();
    if name.is_empty() || name.len() > 200 {
        return;
    }
    defs.push(Def {
        name: name.into(),
        container: container.map(Into::into),
        line: node.start_position().row as u32 + 1,
        end_line: node.end_position().row as u32 + 1,
        kind,
    });
}

/// The last identifier-like segment of a type expression (`&mut Foo<T>` → `Foo`).
fn type_name(node: Node<'_>, src: &[u8]) -> Option<String> {
    let text = text_of(node, src);
    let base = text.split('<').next().unwrap_or(text);
    let ident = base.rsplit(|c: char| !(c.is_alphanumeric() || c == '_')).find(|s| !s.is_empty())?;
    Some(ident.to_owned())
}

const MAX_DEPTH: usize = 64;

fn rust_kind(kind: &str) -> &'static str {
    match kind {
        "struct_item" => "struct",
        "enum_item" => "enum",
        "union_item" => "union",
        "trait_item" => "trait",
        "type_item" => "type",
        "mod_item" => "mod",
        "const_item" => "const",
        "static_item" => "static",
        "macro_definition" => "macro",
        _ => "item",
    }
}

fn collect(lang: Lang, node: Node<'_>, src: &[u8], container: Option<&str>, defs: &mut Vec<Def>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    let kind = node.kind();
    let name_field = || node.child_by_field_name("name").map(|n| text_of(n, src).to_owned());
    let mut next_container: Option<String> = None;
    let mut descend = true;
    if let Some(grammar) = lang.more() {
        let step = crate::grammars::step(grammar, node, src);
        for (name, def_kind) in &step.defs {
            push(defs, name, step.scope.as_deref().or(container), node, def_kind);
        }
        if step.descend {
            let container = step.container.as_deref().or(container);
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor) {
                collect(lang, child, src, container, defs, depth + 1);
            }
        }
        return;
    }
    match (lang, kind) {
        // Bodies of functions rarely hold definitions a memory names; skipping them keeps
        // the index fast on large trees.
        (Lang::Rust | Lang::Go, "block") => descend = false,
        (Lang::JavaScript | Lang::TypeScript | Lang::Tsx, "statement_block") => descend = false,
        (Lang::Rust, "function_item" | "function_signature_item") => {
            if let Some(n) = name_field() {
                push(defs, &n, container, node, "fn");
            }
        }
        (Lang::Rust, "struct_item" | "enum_item" | "union_item" | "trait_item" | "type_item" | "mod_item") => {
            if let Some(n) = name_field() {
                push(defs, &n, container, node, rust_kind(kind));
                next_container = Some(n);
            }
        }
        (Lang::Rust, "const_item" | "static_item" | "macro_definition") => {
            if let Some(n) = name_field() {
                push(defs, &n, container, node, rust_kind(kind));
            }
        }
        // Items declared inside macro calls (`s! { pub struct stat {..} }`, `cfg_x! {..}`)
        // are opaque token trees to the grammar; read them line by line.
        (Lang::Rust, "macro_invocation") if depth <= 4 => {
            let first = node.start_position().row as u32;
            for mut def in fallback_definitions(text_of(node, src)).into_iter().skip(1) {
                def.line += first;
                def.end_line += first;
                def.container = container.map(Into::into);
                defs.push(def);
            }
            descend = false;
        }
        (Lang::Rust, "impl_item") => {
            next_container = node.child_by_field_name("type").and_then(|t| type_name(t, src));
        }
        (Lang::Rust, "field_declaration" | "enum_variant") => {
            if let Some(n) = name_field() {
                push(defs, &n, container, node, if kind == "enum_variant" { "variant" } else { "field" });
            }
            descend = false;
        }
        (Lang::Python, "function_definition") => {
            if let Some(n) = name_field() {
                push(defs, &n, container, node, "def");
            }
            descend = false;
        }
        (Lang::Python, "class_definition") => {
            if let Some(n) = name_field() {
                push(defs, &n, container, node, "class");
                next_container = Some(n);
            }
        }
        (Lang::Python, "assignment") => {
            if let Some(left) = node.child_by_field_name("left") {
                if left.kind() == "identifier" {
                    push(defs, text_of(left, src), container, node, "assign");
                }
            }
            descend = false;
        }
        (Lang::Go, "function_declaration") => {
            if let Some(n) = name_field() {
                push(defs, &n, container, node, "func");
            }
        }
        (Lang::Go, "method_declaration") => {
            let receiver = node.child_by_field_name("receiver").and_then(|r| {
                let mut cursor = r.walk();
                let param = r.named_children(&mut cursor).find(|c| c.kind() == "parameter_declaration");
                param.and_then(|p| p.child_by_field_name("type")).and_then(|t| type_name(t, src))
            });
            if let Some(n) = name_field() {
                push(defs, &n, receiver.as_deref(), node, "method");
            }
        }
        (Lang::Go, "type_spec" | "type_alias") => {
            if let Some(n) = name_field() {
                push(defs, &n, container, node, "type");
                next_container = Some(n);
            }
        }
        // `type Ctx interface { IP() string }`: a method the interface declares is a member of
        // it as much as a method a struct's receiver defines.
        (Lang::Go, "method_elem") => {
            if let Some(n) = name_field() {
                push(defs, &n, container, node, "method");
            }
            descend = false;
        }
        (Lang::Go, "const_spec" | "var_spec") => {
            let mut cursor = node.walk();
            for child in node.children_by_field_name("name", &mut cursor) {
                push(defs, text_of(child, src), container, node, "var");
            }
            descend = false;
        }
        (Lang::Go, "field_declaration") => {
            let mut cursor = node.walk();
            for child in node.children_by_field_name("name", &mut cursor) {
                push(defs, text_of(child, src), container, node, "field");
            }
            // `yaml:"editInTerminal"`: the key the field is read and written as is a name of
            // the code too (a config key, a JSON field).
            if let Some(tag) = node.child_by_field_name("tag") {
                for key in struct_tag_keys(text_of(tag, src)) {
                    push(defs, key, container, node, "tag");
                }
            }
            descend = false;
        }
        (
            Lang::JavaScript | Lang::TypeScript | Lang::Tsx,
            "function_declaration" | "generator_function_declaration" | "function_signature",
        ) => {
            if let Some(n) = name_field() {
                push(defs, &n, container, node, "function");
            }
        }
        (
            Lang::JavaScript | Lang::TypeScript | Lang::Tsx,
            "class_declaration" | "abstract_class_declaration" | "class" | "interface_declaration",
        ) => {
            if let Some(n) = name_field() {
                push(defs, &n, container, node, if kind == "interface_declaration" { "interface" } else { "class" });
                next_container = Some(n);
            }
        }
        (Lang::JavaScript | Lang::TypeScript | Lang::Tsx, "type_alias_declaration" | "enum_declaration") => {
            if let Some(n) = name_field() {
                push(defs, &n, container, node, "type");
            }
        }
        (
            Lang::JavaScript | Lang::TypeScript | Lang::Tsx,
            "method_definition"
            | "method_signature"
            | "abstract_method_signature"
            | "public_field_definition"
            | "field_definition"
            | "property_signature",
        ) => {
            let name = node.child_by_field_name("name").or_else(|| node.child_by_field_name("property"));
            if let Some(n) = name {
                push(defs, text_of(n, src), container, node, "method");
            }
            descend = false;
        }
        (Lang::JavaScript | Lang::TypeScript | Lang::Tsx, "variable_declarator") => {
            if let Some(n) = node.child_by_field_name("name") {
                if n.kind() == "identifier" {
                    push(defs, text_of(n, src), container, node, "const");
                }
            }
            // `const Foo = class { ... }` / object literals with methods are rare in
            // memories; do not descend into initialisers.
            descend = false;
        }
        _ => {}
    }
    if !descend {
        return;
    }
    let container = next_container.as_deref().or(container);
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        collect(lang, child, src, container, defs, depth + 1);
    }
}

/// A definition keyword of the languages without a grammar here, after any modifiers (Move's
/// `public(package) fun`, `entry fun`); a module named with its path (`module pkg::name;`) defines
/// its last segment.
static FALLBACK_DEF: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\s*(?:(?:export|pub(?:\([^)]*\))?|public(?:\([^)]*\))?|private|protected|internal|static|abstract|final|async|default|open|override|inline|extern|entry|native)\s+)*(?:def|class|fn|fun|func|function|struct|enum|trait|interface|type|module|sub|proc|record|object|macro|defmodule|defp?)\s+(?:[A-Za-z_][A-Za-z0-9_]*::)*([A-Za-z_][A-Za-z0-9_?!]*)",
    )
    .expect("fallback regex")
});

/// A top-level binding at the start of a line: OCaml's and F#'s `let` / `let rec`, an
/// interface's `val`, an `external` (`let isArray _ = true`, `val indexOf : ...`).
static TOP_LET: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(?:let(?:\s+rec)?|val|external)\s+([A-Za-z_][A-Za-z0-9_']*)").expect("let regex"));

/// C-family function definitions: `int foo(...)` at the start of a line, not a call.
static C_FUNCTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[A-Za-z_][A-Za-z0-9_\s\*&:<>,]*?[\s\*&]([A-Za-z_][A-Za-z0-9_]*)\s*\([^;]*$").expect("c regex")
});

static C_TYPE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:typedef\s+)?(?:struct|union|enum|class)\s+([A-Za-z_][A-Za-z0-9_]*)").expect("c type regex")
});

static DEFINE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*#\s*define\s+([A-Za-z_][A-Za-z0-9_]*)").expect("define regex"));

/// Line-based definitions for languages without a grammar here.
pub fn fallback_definitions(text: &str) -> Vec<Def> {
    let mut defs = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.len() > 1000 {
            continue;
        }
        let line_no = i as u32 + 1;
        let name = FALLBACK_DEF
            .captures(line)
            .or_else(|| OBJC_DEF.captures(line))
            .or_else(|| TOP_LET.captures(line))
            .or_else(|| C_TYPE.captures(line))
            .or_else(|| DEFINE.captures(line))
            .or_else(|| {
                let trimmed = line.trim_start();
                let keyword = ["if", "while", "for", "switch", "return", "else"].iter().any(|k| trimmed.starts_with(k));
                if keyword || line.starts_with([' ', '\t']) {
                    None
                } else {
                    C_FUNCTION.captures(line)
                }
            })
            .and_then(|c| c.get(1));
        if let Some(name) = name {
            defs.push(Def {
                name: name.as_str().into(),
                container: None,
                line: line_no,
                end_line: line_no,
                kind: "text",
            });
        }
    }
    defs
}

/// The names of a Go struct tag (`` `json:"id,omitempty" yaml:"id"` `` → `id`, `id`): each
/// `key:"value"` pair's value up to its first comma, except `-` (not serialised) and empty ones.
fn struct_tag_keys(tag: &str) -> Vec<&str> {
    let mut keys = Vec::new();
    let mut rest = tag.trim_matches('`');
    while let Some((_, after)) = rest.split_once(":\"") {
        let Some((value, tail)) = after.split_once('"') else { break };
        let name = value.split(',').next().unwrap_or("");
        if !name.is_empty() && name != "-" && !keys.contains(&name) {
            keys.push(name);
        }
        rest = tail;
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(lang: Lang, src: &str) -> Vec<(String, Option<String>, u32)> {
        definitions(lang, src)
            .into_iter()
            .map(|d| (d.name.to_string(), d.container.map(|c| c.to_string()), d.line))
            .collect()
    }

    fn has(lang: Lang, src: &str, name: &str, container: Option<&str>, line: u32) {
        let found = names(lang, src);
        assert!(
            found.iter().any(|(n, c, l)| n == name && c.as_deref() == container && *l == line),
            "{name} ({container:?}) at {line} not in {found:?}"
        );
    }

    #[test]
    fn rust_definitions_with_impl_containers() {
        let src = "pub struct ShardedCache {\n    shards: Vec<u8>,\n}\n\nimpl<T> ShardedCache<T> {\n    pub fn get(&self) {}\n}\nconst MAX: u32 = 1;\nenum E { A }\ntrait Store { fn put(&self); }\n";
        has(Lang::Rust, src, "ShardedCache", None, 1);
        has(Lang::Rust, src, "shards", Some("ShardedCache"), 2);
        has(Lang::Rust, src, "get", Some("ShardedCache"), 6);
        has(Lang::Rust, src, "MAX", None, 8);
        has(Lang::Rust, src, "A", Some("E"), 9);
        has(Lang::Rust, src, "put", Some("Store"), 10);
    }

    #[test]
    fn python_go_and_typescript() {
        has(
            Lang::Python,
            "class TokenBucket:\n    def take(self):\n        pass\nRATE = 3\n",
            "take",
            Some("TokenBucket"),
            2,
        );
        has(Lang::Python, "class TokenBucket:\n    def take(self):\n        pass\nRATE = 3\n", "RATE", None, 4);
        let go = "package x\n\ntype Cache struct {\n\tmu sync.Mutex\n}\n\nfunc (c *Cache) Get(k string) {}\nfunc New() *Cache { return nil }\n";
        has(Lang::Go, go, "Cache", None, 3);
        has(Lang::Go, go, "mu", Some("Cache"), 4);
        has(Lang::Go, go, "Get", Some("Cache"), 7);
        has(Lang::Go, go, "New", None, 8);
        let tagged =
            "package x\n\ntype OS struct {\n\tSuspend bool `yaml:\"editInTerminal,omitempty\" json:\"-\"`\n}\n";
        has(Lang::Go, tagged, "editInTerminal", Some("OS"), 4);
        let iface = "package x\n\ntype Ctx interface {\n\tReq\n\t// IP is the client's address.\n\tIP() string\n}\n";
        has(Lang::Go, iface, "IP", Some("Ctx"), 6);
        assert_eq!(struct_tag_keys("`json:\"id,omitempty\" yaml:\"id\" db:\"-\"`"), ["id"]);
        let ts = "export class Router {\n  handle(req: Req) {}\n}\nexport interface Req { path: string }\nexport const makeRouter = () => new Router();\nfunction helper() {}\n";
        has(Lang::TypeScript, ts, "handle", Some("Router"), 2);
        has(Lang::TypeScript, ts, "Req", None, 4);
        has(Lang::TypeScript, ts, "makeRouter", None, 5);
        has(Lang::JavaScript, "function helper() {}\nclass A { m() {} }\n", "m", Some("A"), 2);
    }

    /// The eight languages of `crate::grammars`: types with their members, functions, fields,
    /// constants and macros, each at its line and in its container.
    #[test]
    fn java_csharp_kotlin_swift_ruby_php_c_and_cpp() {
        let java = "package x;\npublic class LruCache<K> {\n  private final int capacity;\n  public LruCache(int c) { int local = 1; }\n  public V get(K key) { return null; }\n}\nenum Mode { FAST, SLOW }\n";
        has(Lang::Java, java, "LruCache", None, 2);
        has(Lang::Java, java, "capacity", Some("LruCache"), 3);
        has(Lang::Java, java, "get", Some("LruCache"), 5);
        has(Lang::Java, java, "SLOW", Some("Mode"), 7);
        assert!(!names(Lang::Java, java).iter().any(|(n, _, _)| n == "local"), "a local is no definition");
        let cs = "namespace App {\n  public class Store {\n    private int _count;\n    public string Name { get; set; }\n    public void Save() { }\n  }\n  public enum Kind { A, B }\n}\n";
        has(Lang::CSharp, cs, "Store", None, 2);
        has(Lang::CSharp, cs, "_count", Some("Store"), 3);
        has(Lang::CSharp, cs, "Name", Some("Store"), 4);
        has(Lang::CSharp, cs, "Save", Some("Store"), 5);
        has(Lang::CSharp, cs, "B", Some("Kind"), 7);
        let kt = "package x\n\nclass User(val name: String, other: Int) {\n    val id = 1\n    fun greet(): String = name\n}\nobject Registry\nfun top() {}\nfun Arb.Companion.date(y: Int): Arb<Int> = y\n";
        has(Lang::Kotlin, kt, "User", None, 3);
        has(Lang::Kotlin, kt, "name", Some("User"), 3);
        assert!(!names(Lang::Kotlin, kt).iter().any(|(n, _, _)| n == "other"), "a plain parameter is no property");
        has(Lang::Kotlin, kt, "id", Some("User"), 4);
        has(Lang::Kotlin, kt, "greet", Some("User"), 5);
        has(Lang::Kotlin, kt, "Registry", None, 7);
        has(Lang::Kotlin, kt, "top", None, 8);
        has(Lang::Kotlin, kt, "date", Some("Arb"), 9);
        let swift = "import Foundation\n\nstruct Session {\n    let id: String\n    func resume() {}\n}\nprotocol Store {\n    func load() -> Int\n}\nenum State { case idle, busy }\n";
        has(Lang::Swift, swift, "Session", None, 3);
        has(Lang::Swift, swift, "id", Some("Session"), 4);
        has(Lang::Swift, swift, "resume", Some("Session"), 5);
        has(Lang::Swift, swift, "load", Some("Store"), 8);
        has(Lang::Swift, swift, "busy", Some("State"), 10);
        let ruby = "module Billing\n  MAX = 3\n  class Invoice < Base\n    def total\n    end\n    def self.build; end\n  end\nend\n";
        has(Lang::Ruby, ruby, "Billing", None, 1);
        has(Lang::Ruby, ruby, "MAX", Some("Billing"), 2);
        has(Lang::Ruby, ruby, "total", Some("Invoice"), 4);
        has(Lang::Ruby, ruby, "build", Some("Invoice"), 6);
        let php = "<?php\nnamespace App;\nclass OrderService {\n    const LIMIT = 5;\n    private $repo;\n    public function place() {}\n}\nfunction helper() {}\n";
        has(Lang::Php, php, "OrderService", None, 3);
        has(Lang::Php, php, "LIMIT", Some("OrderService"), 4);
        has(Lang::Php, php, "repo", Some("OrderService"), 5);
        has(Lang::Php, php, "place", Some("OrderService"), 6);
        has(Lang::Php, php, "helper", None, 8);
        let c = "#define LIMIT 4\nstruct node {\n  int value;\n};\ntypedef struct node node_t;\nint parse(const char *s);\nstatic int *lookup(int k) {\n  int inner = 0;\n  return 0;\n}\nstruct node *head;\n";
        has(Lang::C, c, "LIMIT", None, 1);
        has(Lang::C, c, "node", None, 2);
        has(Lang::C, c, "value", Some("node"), 3);
        has(Lang::C, c, "node_t", None, 5);
        has(Lang::C, c, "parse", None, 6);
        has(Lang::C, c, "lookup", None, 7);
        assert!(!names(Lang::C, c).iter().any(|(n, _, _)| n == "inner" || n == "head"), "{:?}", names(Lang::C, c));
        let cpp = "namespace net {\nclass Socket {\n public:\n  void close();\n  int fd_;\n};\n}\nvoid net::Socket::close() {}\nusing Port = int;\n";
        has(Lang::Cpp, cpp, "net", None, 1);
        has(Lang::Cpp, cpp, "Socket", Some("net"), 2);
        has(Lang::Cpp, cpp, "close", Some("Socket"), 4);
        has(Lang::Cpp, cpp, "fd_", Some("Socket"), 5);
        has(Lang::Cpp, cpp, "close", Some("Socket"), 8);
        has(Lang::Cpp, cpp, "Port", None, 9);
        let objc = "@protocol Drawing;\n@interface SPImageView : NSImageView\n- (void)draw;\n@end\n@protocol Shape <NSObject>\n@end\n";
        has(Lang::Cpp, objc, "SPImageView", None, 2);
        has(Lang::Cpp, objc, "Shape", None, 5);
        assert!(!names(Lang::Cpp, objc).iter().any(|(n, _, _)| n == "Drawing"), "{:?}", names(Lang::Cpp, objc));
        has(Lang::Other, "@implementation SPImageView\n@end\n", "SPImageView", None, 1);
        // A forward declaration defines nothing, in C++ or in an Objective-C header.
        for header in
            ["class WebView;\nclass Shown { int x; };\n", "@class WebView;\n@class Shown;\nclass Shown { int x; };\n"]
        {
            assert!(!names(Lang::Cpp, header).iter().any(|(n, _, _)| n == "WebView"), "{:?}", names(Lang::Cpp, header));
            assert!(names(Lang::Cpp, header).iter().any(|(n, _, _)| n == "Shown"), "{:?}", names(Lang::Cpp, header));
        }
    }

    #[test]
    fn fallback_finds_common_definitions() {
        let c = "#define LIMIT 4\nstruct node {\n};\nstatic int parse_header(const char *s) {\n  return foo(s);\n}\n";
        has(Lang::Other, c, "LIMIT", None, 1);
        has(Lang::Other, c, "node", None, 2);
        has(Lang::Other, c, "parse_header", None, 4);
        assert!(!names(Lang::Other, c).iter().any(|(n, _, _)| n == "foo"));
        has(Lang::Other, "module Billing\n  def charge(x)\n  end\nend\n", "charge", None, 2);
        // Move: `fun` under `public(package)`, `entry`; a module named with its address.
        let mv = "module deepbook::ewma_config;\n\npublic(package) fun penalty_rate(c: &C): u64 {\n    c.rate\n}\nentry fun run() {}\n";
        has(Lang::Other, mv, "ewma_config", None, 1);
        has(Lang::Other, mv, "penalty_rate", None, 3);
        has(Lang::Other, mv, "run", None, 6);
    }

    #[test]
    fn hostile_input_does_not_panic() {
        let deep = "(".repeat(100_000);
        for lang in [
            Lang::Rust,
            Lang::Python,
            Lang::Go,
            Lang::TypeScript,
            Lang::JavaScript,
            Lang::Java,
            Lang::CSharp,
            Lang::Kotlin,
            Lang::Swift,
            Lang::Ruby,
            Lang::Php,
            Lang::C,
            Lang::Cpp,
            Lang::Other,
        ] {
            let _ = definitions(lang, &deep);
            let _ = definitions(lang, "\u{0}\u{1}fn \u{FFFD} struct");
        }
    }

    fn defs_at(path: &str, text: &str) -> Vec<(String, Option<String>, u32)> {
        definitions(Lang::of(path), text)
            .into_iter()
            .map(|d| (d.name.to_string(), d.container.map(|c| c.to_string()), d.line))
            .collect()
    }

    #[test]
    fn razor_members_keep_their_lines_and_lose_the_wrapper() {
        let text = "@page \"/quiz\"\n@inject IQuizService Quiz\n\n<h1>@Title</h1>\n<button @onclick=\"Next\">{</button>\n\n@code {\n    private const int TurnsPerRound = 10;\n    string label = \"}\";\n    private async Task LoadResources()\n    {\n        var c = '}';\n    }\n}\n";
        let defs = defs_at("src/Pages/VocabQuiz.razor", text);
        assert!(defs.contains(&("TurnsPerRound".into(), None, 8)), "{defs:?}");
        assert!(defs.contains(&("LoadResources".into(), None, 10)), "{defs:?}");
        assert!(defs.iter().all(|(n, c, _)| n != RAZOR_CLASS && c.as_deref() != Some(RAZOR_CLASS)), "{defs:?}");
        // The markup defines nothing, whatever it looks like.
        assert!(defs.iter().all(|(n, _, _)| n != "Title" && n != "Next"), "{defs:?}");
    }

    #[test]
    fn razor_functions_block_and_nested_types() {
        let text = "@model Foo\n@functions {\n    public class Row { public int Id { get; set; } }\n    void Save() { }\n}\n<p>x</p>\n";
        let defs = defs_at("Pages/Edit.cshtml", text);
        assert!(defs.contains(&("Row".into(), None, 3)), "{defs:?}");
        assert!(defs.contains(&("Id".into(), Some("Row".into()), 3)), "{defs:?}");
        assert!(defs.contains(&("Save".into(), None, 4)), "{defs:?}");
    }

    #[test]
    fn single_file_components_read_their_scripts() {
        let vue = "<template>\n  <div @click=\"refresh\">{{ count }}</div>\n</template>\n\n<script setup lang=\"ts\">\nimport { ref } from 'vue'\nconst count = ref<number>(0)\nfunction refresh(): void { count.value++ }\n</script>\n";
        let defs = defs_at("src/components/Counter.vue", vue);
        assert!(defs.iter().any(|(n, _, l)| n == "refresh" && *l == 8), "{defs:?}");
        let svelte =
            "<script>\n  export let name;\n  function greet() { return name }\n</script>\n<h1>Hello {name}</h1>\n";
        let defs = defs_at("src/App.svelte", svelte);
        assert!(defs.iter().any(|(n, _, l)| n == "greet" && *l == 3), "{defs:?}");
        let astro = "---\ninterface Props { title: string }\nconst { title } = Astro.props;\n---\n<h1>{title}</h1>\n<script>\n  function toggle() {}\n</script>\n";
        let defs = defs_at("src/pages/index.astro", astro);
        assert!(defs.iter().any(|(n, _, l)| n == "Props" && *l == 2), "{defs:?}");
        assert!(defs.iter().any(|(n, _, l)| n == "toggle" && *l == 7), "{defs:?}");
    }

    #[test]
    fn a_component_without_code_defines_nothing() {
        assert!(defs_at("Pages/Index.razor", "@page \"/\"\n<h1>class Foo</h1>\n").is_empty());
        assert!(defs_at("src/Empty.vue", "<template>\n  <p>function x() {}</p>\n</template>\n").is_empty());
    }
}
