//! What counts as a file or folder path in memory text, and the readings of a relative one.
//!
//! A path is only ever normalised textually (`./` and empty segments dropped). `..` segments,
//! absolute paths and `~` are kept exactly as written: confining them is the investigator's
//! job, and resolving them here would hide what the memory actually said.
//!
//! What a path is, beyond its shape:
//! - Claude Code's imports (`@docs/guide.md`): an `@` before a name with a known extension, a
//!   folder with its trailing slash (`@ext/`) or a path of three segments and more
//!   (`@lib/datadog/core`) is a path; `@types/node` (an npm scope) and `@user` (a mention) stay
//!   text; an npm scope's folder inside a path (`packages/@scope/cli/`) is a segment.
//! - A two-segment code span or bold word of plain lowercase words (`tasks/coverage`) is a path
//!   only when the same memory names its first folder as a path elsewhere in a code span
//!   ([`named_root`], [`under_named_root`]), so repository slugs and word pairs
//!   (`tokio-rs/tokio`, `and/or`) stay text.
//! - A path pattern names the folder before it (`bindings/*`, `docs/**`,
//!   `src/core/controller/<domain>/`); a pattern of files (`src/**/*.rs`) names none
//!   ([`pattern_folder`]). So does a path whose file name is a bracketed placeholder outside a
//!   web framework's routes (`app/models/[model_name].rb`, [`placeholder_file_folder`]).
//! - URLs, package names and English words are not paths.
//! - A web framework's route segments are path segments: a route group (`(marketing)/`) and a
//!   dynamic segment (`[id]/`, `[...slug].tsx`, `[[...slug]]`), where every other segment is a
//!   plain name; a markdown link or a bracketed word stays text.
//!
//! The readings of a relative path ([`readings`]): joined onto each folder in scope, most
//! specific first, then as written. A path starting with `..` is read against the notes
//! file's own folder (`../api.md` in `docs/guide/` is `docs/api.md`) while it stays inside
//! the repo; one that would climb above the root, like an absolute path or `~`, is kept as
//! written for the investigator to refuse. A docs folder inside a package (`web/docs/`) reads
//! paths against the package too (`web`), after its own folder: a package's docs write
//! `src/x.ts` for `web/src/x.ts`. Which joins come after the reading from the root is the
//! folder's [`Demote`]: nothing for a package's own notes, well-known top folders for a docs
//! folder, and for a skill every path of several segments except those under a folder a skill
//! bundles ([`SKILL_BUNDLE`]: `scripts/`, `references/`, `reference/`, `assets/`, `templates/`,
//! `examples/`, `resources/`).

use std::sync::LazyLock;

use regex::Regex;

/// Longest path we keep; anything longer is junk or hostile.
pub(crate) const MAX_PATH_LEN: usize = 512;
/// `path` plus at most four `alt_paths`.
pub(crate) const MAX_READINGS: usize = 5;

/// How much surrounding evidence there is that a token is meant as a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Strength {
    /// A bare word in running text: needs a known extension or a well-known top folder.
    Prose,
    /// Inside backticks: any plausible folder (`a/b/`) or three-segment path is accepted too.
    Backtick,
    /// Alone in a heading, a link target or a line of its own: anything shaped like a path.
    Standalone,
}

/// A path as the memory wrote it, normalised.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PathToken {
    /// No `./` prefix, no empty segments, no trailing slash.
    pub path: String,
    /// Written with a trailing slash.
    pub dir: bool,
    /// From a `:45` or `#L45` suffix.
    pub line: Option<u32>,
}

impl PathToken {
    /// Absolute, home-relative or containing `..`: emitted as written, never joined.
    pub(crate) fn unresolvable(&self) -> bool {
        unresolvable(&self.path)
    }

    pub(crate) fn has_config_ext(&self) -> bool {
        has_config_ext(&self.path)
    }
}

pub(crate) fn unresolvable(path: &str) -> bool {
    path.starts_with('/') || path.starts_with('~') || path.split('/').any(|s| s == "..")
}

pub(crate) fn has_config_ext(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    if name.starts_with(".env") {
        return true;
    }
    name.rsplit_once('.')
        .is_some_and(|(stem, ext)| !stem.is_empty() && CONFIG_EXTS.contains(&ext.to_ascii_lowercase().as_str()))
}

/// Extensions of source, config and doc files. Deliberately missing: TLDs (`com`, `io`,
/// `org`) and one-letter extensions that collide with abbreviations (`s`, `r`, `m`, `d`).
#[rustfmt::skip]
const EXTENSIONS: &[&str] = &[
    "rs", "go", "py", "pyi", "pyx", "pxd", "ipynb", "ts", "tsx", "js", "jsx", "mjs", "cjs", "mts",
    "cts", "c", "h", "cc", "hh", "cpp", "hpp", "cxx", "hxx", "java", "kt", "kts", "scala", "sbt",
    "groovy", "gradle", "rb", "rake", "gemspec", "erb", "php", "cs", "fs", "fsx", "swift", "dart",
    "lua", "pl", "pm", "ex", "exs", "erl", "hrl", "hs", "elm", "ml", "mli", "clj", "cljs", "cljc",
    "edn", "jl", "zig", "nim", "sol", "vim", "el", "toml", "yaml", "yml", "json", "jsonc", "json5",
    "jsonl", "ndjson", "ini", "cfg", "conf", "env", "properties", "xml", "xsd", "plist", "lock",
    "md", "mdx", "markdown", "rst", "adoc", "txt", "tex", "sql", "prisma", "graphql", "gql",
    "proto", "thrift", "avsc", "fbs", "capnp", "sh", "bash", "zsh", "fish", "ps1", "psm1", "bat",
    "cmd", "html", "htm", "css", "scss", "sass", "less", "styl", "vue", "svelte", "astro", "hbs",
    "ejs", "pug", "liquid", "njk", "j2", "jinja", "tmpl", "tpl", "twig", "mustache", "tf",
    "tfvars", "hcl", "nix", "cmake", "mk", "bzl", "bazel", "bazelrc", "dockerfile", "containerfile", "sln",
    // a build file named for its part (`lib.Makefile`, `ci.Jenkinsfile`)
    "makefile", "justfile", "jenkinsfile",
    "csproj", "fsproj", "vcxproj", "cabal", "svg", "png", "jpg", "jpeg", "gif", "webp", "ico",
    "pdf", "csv", "tsv", "db", "sqlite", "log", "patch", "diff", "ron", "kdl", "slnx", "vbproj",
    "props", "targets", "nuspec", "resx", "xaml", "razor", "cshtml", "config", "c++", "h++",
    "nu", "cu", "cuh", "metal", "wgsl", "glsl", "hlsl", "asm", "gleam", "odin", "hx", "cr", "rkt",
    "scm", "f90", "coffee", "wat", "typ", "lean", "agda", "idr", "sv", "vhd", "tla",
    // GN (Chromium, Electron, Fuchsia) and Xcode (bundles are folders with an extension)
    "gn", "gni", "xcodeproj", "xcworkspace", "xcconfig", "pbxproj", "xcscheme", "xctestplan",
    "entitlements", "storyboard", "xib", "xcassets", "xcstrings",
    // CocoaPods specs, Clang module maps, .NET strong-name keys (`Ably.podspec`,
    // `Source/Ably.modulemap`, `product.snk`)
    "podspec", "modulemap", "snk",
    // Cursor rules, PHP tool configs (`phpstan.neon`, `phpunit.xml.dist`), solution filters
    "mdc", "neon", "dist", "slnf",
    // R Markdown and Quarto, R documentation, Fluent translations (`l10n/en-US/viewer.ftl`)
    "rmd", "qmd", "rd", "ftl",
    // MSBuild traversal projects (`AgentSdk.proj`), VS Code workspaces
    "proj", "code-workspace",
    // Delphi and Free Pascal (units, programs, packages, forms, project groups), Azure Bicep,
    // Mojo, Godot (scripts, scenes, resources), policy and config languages, Visual Basic
    "pas", "dpr", "dpk", "dproj", "groupproj", "dfm", "fmx", "lpr", "lpi", "lpk", "bicep",
    "bicepparam", "mojo", "gd", "tscn", "tres", "rego", "cue", "jsonnet", "libsonnet", "pkl", "vb",
    "vbs",
];

/// Files that are named without an extension but are unmistakably files.
#[rustfmt::skip]
const BARE_NAMES: &[&str] = &[
    "Makefile", "makefile", "GNUmakefile", "Dockerfile", "Containerfile", "Justfile", "justfile",
    "Rakefile", "Gemfile", "Procfile", "Vagrantfile", "Jenkinsfile", "Brewfile", "Pipfile",
    "Podfile", "Cartfile", "Taskfile", "Earthfile", "Tiltfile", "CODEOWNERS", "go.mod", "go.sum", "go.work",
    "MANIFEST.in", "Cargo.lock", "yarn.lock", "poetry.lock", "Gemfile.lock", "flake.lock",
    "composer.lock", "Pipfile.lock", "bun.lock", "uv.lock", "mix.lock", "Podfile.lock",
    "LICENSE", "LICENCE", "COPYING",
];

/// Files named without an extension that are files when written as code (`NOTICE`,
/// Chromium's `DEPS`, a project's `CONTRIBUTING`); in running text the same words are ordinary
/// capitals.
#[rustfmt::skip]
const CODE_BARE_NAMES: &[&str] = &[
    "NOTICE", "DEPS", "OWNERS", "AUTHORS", "CONTRIBUTORS", "PATENTS", "NAMESPACE", "DESCRIPTION",
    "CONTRIBUTING", "CHANGELOG", "CHANGES", "MAINTAINERS", "SECURITY",
];

/// Any of [`BARE_NAMES`] or [`CODE_BARE_NAMES`] inside a token, in one literal search (this
/// runs for every word).
static BARE_NAME_IN: LazyLock<Regex> = LazyLock::new(|| {
    let names: Vec<String> = BARE_NAMES.iter().chain(CODE_BARE_NAMES).map(|n| regex::escape(n)).collect();
    Regex::new(&names.join("|")).expect("valid regex")
});

/// Extensions that are also common member names (`console.log`, `mutex.lock`, `self.db`):
/// a name with one of them needs a folder (`logs/app.log`) to count as a file.
#[rustfmt::skip]
const MEMBER_LIKE_EXTS: &[&str] = &[
    "log", "lock", "db", "env", "ex", "el", "fs", "pl", "ml", "pm",
];

/// Dotfiles that are files, as opposed to a bare extension such as `.rs`.
#[rustfmt::skip]
const DOTFILES: &[&str] = &[
    ".gitignore", ".gitattributes", ".gitmodules", ".dockerignore", ".editorconfig", ".env",
    ".envrc", ".cursorrules", ".npmrc", ".nvmrc", ".yarnrc", ".prettierrc", ".prettierignore",
    ".eslintrc", ".eslintignore", ".babelrc", ".browserslistrc", ".python-version",
    ".ruby-version", ".node-version", ".tool-versions", ".clang-format", ".clang-tidy", ".flake8",
    ".pylintrc", ".coveragerc", ".bashrc", ".zshrc", ".profile", ".mailmap", ".htaccess",
    ".env.example", ".env.local", ".env.sample", ".env.test", ".env.development",
    ".env.production", ".npmignore", ".vscodeignore", ".stylelintrc", ".style.yapf",
];

/// An environment file of one setting (`.env.docker`, `.env.prod_electron`, `.env-dist`):
/// `.env.` (or `.env-`, `.env_`) and a plain word, as dotenv loaders and Vite name them.
fn env_file(name: &str) -> bool {
    let rest = name.strip_prefix(".env.").or_else(|| name.strip_prefix(".env-")).or_else(|| name.strip_prefix(".env_"));
    rest.is_some_and(|rest| {
        !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
    })
}

/// A tool's own dotfile by the shape tools name them: a run-control file, `.` and the tool's
/// name and `rc` (`.luacheckrc`, `.mocharc`, `.swcrc`), an ignore list, `.` and a name and
/// `ignore` (`.helmignore`, `.gcloudignore`), or a version pin, `.` and a name and `version`
/// (`.bazelversion`, `.swift-version`). The name before the suffix has three letters or
/// more, so `.rc` and `.src`, extensions, are not files.
fn tool_dotfile(name: &str) -> bool {
    let Some(rest) = name.strip_prefix('.') else { return false };
    let tool = rest
        .strip_suffix("rc")
        .filter(|t| t.len() >= 3)
        .or_else(|| rest.strip_suffix("ignore").filter(|t| t.len() >= 2))
        .or_else(|| rest.strip_suffix("version").map(|t| t.trim_end_matches('-')).filter(|t| t.len() >= 2));
    tool.is_some_and(|t| {
        t.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && t.bytes().any(|b| b.is_ascii_lowercase())
    })
}

/// A license file named by its license (`LICENSE-MIT`, `LICENSE-APACHE`, `LICENCE-BSD-3`), as
/// dual-licensed projects keep them.
fn license_file(name: &str) -> bool {
    ["LICENSE-", "LICENCE-"].iter().any(|p| {
        name.strip_prefix(p).is_some_and(|rest| {
            !rest.is_empty()
                && rest.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || matches!(b, b'-' | b'.'))
        })
    })
}

/// Top folders common enough that `src/cache` in running text is surely a path.
#[rustfmt::skip]
const COMMON_DIRS: &[&str] = &[
    "src", "lib", "libs", "internal", "cmd", "pkg", "app", "apps", "api", "services", "service",
    "crates", "packages", "modules", "components", "docs", "doc", "test", "tests", "spec", "specs",
    "scripts", "script", "bin", "config", "configs", "conf", "tools", "examples", "example",
    "benches", "bench", "web", "frontend", "backend", "server", "client", "core", "common",
    "shared", "utils", "util", "include", "assets", "static", "public", "migrations", "db",
    "deploy", "infra", "k8s", "charts", "proto", "protos", "vendor", "third_party", "build",
    "data", "fixtures", "templates", "views", "models", "controllers", "handlers", "routes",
    "middleware", "store", "hooks", "pages", "styles", "plugins", "contexts", ".github", ".vscode",
    ".cargo", ".config", ".devcontainer", ".circleci", ".husky",
];

/// Top folders that start a path even in running text without an extension; a subset of
/// [`COMMON_DIRS`] without words that pair up in English ("client/server", "frontend/backend").
#[rustfmt::skip]
const PROSE_ROOTS: &[&str] = &[
    "src", "lib", "libs", "internal", "cmd", "pkg", "services", "crates", "packages", "apps",
    "docs", "tests", "scripts", "config", "configs", "components", "modules", "include",
    "migrations", "vendor", "third_party", "examples", "benches", "tools", "contexts", "proto",
    "deploy", "infra", "k8s", "charts", ".github", ".cargo", ".cursor", ".vscode", ".devcontainer",
    ".husky", ".circleci", ".gitlab",
];

/// Absolute paths are only taken when they look like system paths, not URL routes (`/api/v1`).
#[rustfmt::skip]
const SYSTEM_ROOTS: &[&str] = &[
    "etc", "usr", "home", "var", "tmp", "opt", "root", "Users", "bin", "sbin", "dev", "proc",
    "srv", "mnt", "private", "Library", "System", "lib", "run",
];

/// `text/html`, `application/json`: media types, not folders.
#[rustfmt::skip]
const MIME_TOPS: &[&str] = &[
    "application", "text", "image", "audio", "video", "multipart", "font", "model", "message",
];

/// Product and site names that happen to end in a source extension.
#[rustfmt::skip]
const NOT_FILES: &[&str] = &[
    "node.js", "vue.js", "next.js", "nuxt.js", "react.js", "express.js", "three.js", "d3.js",
    "chart.js", "ember.js", "angular.js", "backbone.js", "alpine.js", "solid.js", "p5.js",
    "nest.js", "docs.rs", "rustup.rs", "bun.sh",
];

#[rustfmt::skip]
const CONFIG_EXTS: &[&str] = &[
    "toml", "yaml", "yml", "json", "jsonc", "json5", "ini", "cfg", "conf", "env", "properties",
    "xml", "plist", "tfvars", "hcl",
];

/// `:45`, `:45:7`, `:45-60`, `#L45`, `#L45-L60`.
static LINE_SUFFIX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(.+?)(?::(\d{1,9})(?:[-:]\d{1,9})?|#L(\d{1,9})(?:-L?\d{1,9})?)$").expect("valid regex")
});

/// A folder or file name of a web framework's routes: a route group (`(marketing)`), a dynamic
/// segment (`[id]`, `[...slug]`, `[[...slug]]`), as a folder or as a file's stem (`[id].tsx`).
static ROUTE_SEGMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:\([A-Za-z0-9_.-]+\)|\[\[?(?:\.\.\.)?[A-Za-z0-9_-]+\]\]?)(?:\.[A-Za-z0-9]{1,10})?$")
        .expect("valid regex")
});

/// Whether `t` is a path with route segments (`app/(marketing)/page.tsx`, `[id]/`, `[slug].astro`):
/// every segment a plain name or a route segment, at least one of them a route segment, and
/// more than a bare `[x]` or `(x)` (a folder's slash, another segment or an extension). A
/// `[name]` that ends a longer path without an extension is a placeholder
/// (`.claude/commands/[category]/`), not a dynamic segment.
fn route_path(t: &str) -> bool {
    let segments: Vec<&str> = t.split('/').filter(|s| !s.is_empty()).collect();
    let plain = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-'));
    let routes = segments.iter().filter(|s| ROUTE_SEGMENT.is_match(s)).count();
    let Some(last) = segments.last() else { return false };
    let placeholder_last = segments.len() > 1 && last.starts_with('[') && last.ends_with(']');
    routes > 0
        && !placeholder_last
        && segments.iter().all(|s| plain(s) || ROUTE_SEGMENT.is_match(s))
        && (segments.len() > 1 || t.ends_with('/') || segments[0].ends_with(|c: char| c.is_alphanumeric()))
}

/// Normalises `token` and checks it is made of path characters, without judging whether it
/// looks like a path. Used directly for tree and listing entries.
pub(crate) fn parse(token: &str) -> Option<PathToken> {
    if token.len() > MAX_PATH_LEN * 2 {
        return None;
    }
    let quoted = token.trim_matches(|c: char| matches!(c, '"' | '\'' | '`'));
    let route = route_path(quoted.trim_end_matches(['.', ',', ';', ':']));
    let brackets: &[char] = if route { &[] } else { &['(', ')', '[', ']'] };
    let t = quoted.trim_matches(|c: char| matches!(c, '<' | '>') || brackets.contains(&c));
    let t = strip_emphasis(t);
    let t = if route {
        t.trim_end_matches(['.', ',', ';', '!', '?', ':'])
    } else {
        t.trim_end_matches(['.', ',', ';', '!', '?', ':', ')'])
    };
    let suffix = if t.contains([':', '#']) { LINE_SUFFIX.captures(t) } else { None };
    let (t, line) = match suffix {
        Some(c) => {
            let line = c.get(2).or_else(|| c.get(3)).and_then(|m| m.as_str().parse::<u32>().ok());
            (c.get(1).map_or(t, |m| m.as_str()), line.filter(|&n| n > 0))
        }
        // A heading anchor (`guide.md#setup`) names the file, not a line.
        None => (t.split('#').next().unwrap_or(t), None),
    };
    if t.is_empty() || t.len() > MAX_PATH_LEN || t.contains("://") {
        return None;
    }
    // `@docs/guide.md`: a Claude Code memory file imports another file this way, and names a
    // folder as `@ext/` or `@lib/datadog/core`. Taken: a name with a file extension, a folder
    // with its trailing slash, or three segments and more; `@types/node` (two segments) is an
    // npm scope and `@user` a mention.
    let t = match t.strip_prefix('@') {
        Some(rest)
            if rest.rsplit('/').next().and_then(|n| n.rsplit_once('.')).is_some_and(|(stem, ext)| {
                !stem.is_empty() && EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str())
            }) || (rest.ends_with('/') && rest.len() > 1)
                || rest.split('/').filter(|s| !s.is_empty()).count() >= 3 =>
        {
            rest
        }
        _ => t,
    };
    let forbidden = |c: char| {
        c.is_whitespace()
            || c.is_control()
            || matches!(
                c,
                '*' | '?'
                    | '['
                    | ']'
                    | '{'
                    | '}'
                    | '<'
                    | '>'
                    | '|'
                    | '"'
                    | '\''
                    | '`'
                    | '$'
                    | '%'
                    | '^'
                    | '&'
                    | '='
                    | ','
                    | ';'
                    | '\\'
                    | '@'
                    | ':'
                    | '#'
                    | '!'
                    | '('
                    | ')'
            )
    };
    let brackets_of_routes = |c: char| route && matches!(c, '(' | ')' | '[' | ']');
    // An npm scope's folder inside a path (`packages/@scope/cli/`, `node_modules/@types/node/`).
    let scoped = t.replace("/@", "/");
    if scoped.chars().any(|c| forbidden(c) && !brackets_of_routes(c)) {
        return None;
    }
    let absolute = t.starts_with('/');
    let dir = t.ends_with('/');
    let segments: Vec<&str> = t.split('/').filter(|s| !s.is_empty() && *s != ".").collect();
    if segments.is_empty() {
        return None;
    }
    for (i, s) in segments.iter().enumerate() {
        let home = i == 0 && !absolute && *s == "~";
        if s.len() > 255 || !(home || *s == ".." || s.chars().any(char::is_alphanumeric)) {
            return None;
        }
    }
    let mut path = String::with_capacity(t.len());
    if absolute {
        path.push('/');
    }
    path.push_str(&segments.join("/"));
    Some(PathToken { path, dir, line })
}

/// Names a folder: written with a trailing slash, or its last segment has no extension
/// (`## services/api`, `internal/cache`).
pub(crate) fn folder_like(tok: &PathToken) -> bool {
    let last = tok.path.rsplit('/').next().unwrap_or(&tok.path);
    tok.dir || !(last.contains('.') || BARE_NAMES.contains(&last) || CODE_BARE_NAMES.contains(&last))
}

/// Starts with a well-known top folder (`src`, `internal/cache`), as opposed to a project
/// name (`myproject`).
pub(crate) fn is_common_dir(path: &str) -> bool {
    COMMON_DIRS.contains(&first_segment(path))
}

static NAME_IN_FOLDER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^\s*\(?\s*(?:in|under|inside|within|from)\s+(?:the\s+)?(?:(?:folder|directory|dir|package|module)\s+)?$",
    )
    .expect("valid regex")
});

/// The gap between a bare file name and the folder after it places the file there
/// ("`lru.go` in `internal/cache/`").
pub(crate) fn name_in_folder(gap: &str) -> bool {
    gap.len() <= 64 && NAME_IN_FOLDER.is_match(gap)
}

/// The gap between a folder and the bare file name after it places the file there
/// ("`src/cache/`: `lru.go`").
pub(crate) fn folder_then_name(gap: &str) -> bool {
    matches!(gap.trim(), ":" | "/" | "->" | "→")
}

/// Whether `token` is a media type (`application/json`, `text/html`), not a path.
pub(crate) fn media_type(token: &str) -> bool {
    token.split_once('/').is_some_and(|(top, sub)| !sub.contains('/') && MIME_TOPS.contains(&top))
}

/// A token that reads as a path given how it was written.
pub(crate) fn classify(token: &str, strength: Strength) -> Option<PathToken> {
    // Most words of running text: no separator, no extension, not a known file name.
    if !token.contains(['/', '.']) && !BARE_NAME_IN.is_match(token) {
        return None;
    }
    // Bold text names a thing as deliberately as backticks do (`**script/get-me** - ...`).
    let bold = token.starts_with("**") && token.trim_end_matches(['.', ',', ':', ';']).ends_with("**");
    let strength = if bold && strength < Strength::Backtick { Strength::Backtick } else { strength };
    let tok = parse(token)?;
    looks_like_path(&tok, strength).then_some(tok)
}

/// The folder a code span's path pattern names: `bindings/*` and `docs/**` (everything in
/// a folder), `src/core/controller/<domain>/` and `api/{version}/routes` (a placeholder
/// segment) name the folder before the pattern. A pattern of files (`src/**/*.rs`) or one
/// that starts with a wildcard names no folder.
pub(crate) fn pattern_folder(token: &str) -> Option<PathToken> {
    let t = token.trim();
    let segments: Vec<&str> = t.trim_end_matches('/').split('/').collect();
    let placeholder = |s: &str| {
        (s.starts_with('<') && s.ends_with('>'))
            || (s.starts_with('{') && s.ends_with('}'))
            || (s.starts_with('[') && s.ends_with(']'))
    };
    let cut = match segments.iter().position(|s| s.contains(['*', '<', '>', '{', '}', '[', ']', '?'])) {
        Some(i)
            if segments[i..].iter().all(|s| *s == "*" || *s == "**" || placeholder(s) || !s.contains(['*', '?'])) =>
        {
            i
        }
        _ => return None,
    };
    // `dir/*`, `dir/**`: only whole-segment wildcards after the folder, and no file pattern.
    if segments[cut..].iter().any(|s| s.contains(['*', '?']) && *s != "*" && *s != "**") {
        return None;
    }
    if cut == 0 {
        return None;
    }
    let folder = format!("{}/", segments[..cut].join("/"));
    classify(&folder, Strength::Backtick)
}

/// The folder of a path whose file name is a bracketed placeholder outside a web framework's
/// routes (`app/models/katello/[model_name].rb`, `app/lib/actions/[domain]/[action].rb`): the
/// file is an example, its folder a claim. A route file keeps its brackets
/// (`pages/[slug].tsx`, `app/[id]/page.tsx`): only the extensions a router serves name one.
pub(crate) fn placeholder_file_folder(token: &str) -> Option<PathToken> {
    let t = token.trim();
    let last = t.rsplit('/').next()?;
    let (stem, ext) = last.rsplit_once('.')?;
    let bracketed = |s: &str| {
        s.split_once('[').and_then(|(_, rest)| rest.split_once(']')).is_some_and(|(inner, _)| {
            !inner.is_empty() && inner.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        })
    };
    if !bracketed(stem) || ROUTE_EXTS.contains(&ext.to_ascii_lowercase().as_str()) {
        return None;
    }
    pattern_folder(t)
}

/// Extensions of the files a web framework's file-system router serves, where `[id]` in a
/// name is a dynamic segment, not a placeholder.
const ROUTE_EXTS: &[&str] =
    &["js", "jsx", "ts", "tsx", "mjs", "cjs", "mts", "vue", "svelte", "astro", "md", "mdx", "html", "marko", "solid"];

fn looks_like_path(tok: &PathToken, strength: Strength) -> bool {
    let p = tok.path.as_str();
    let absolute = p.starts_with('/');
    let segments: Vec<&str> = p.split('/').filter(|s| !s.is_empty()).collect();
    let Some(&last) = segments.last() else {
        return false;
    };
    if segments.iter().any(|s| s.starts_with('-')) {
        return false; // a command-line flag
    }
    // Dates (2024/01/02), fractions (1/2), versions (1.2.3).
    if segments.iter().all(|s| s.chars().all(|c| c.is_ascii_digit() || c == '.' || c == '-')) {
        return false;
    }
    let named = !tok.dir
        && (has_known_ext(last)
            || BARE_NAMES.contains(&last)
            || license_file(last)
            || (strength >= Strength::Backtick && CODE_BARE_NAMES.contains(&last)));
    if absolute {
        return named || (segments.len() >= 2 && SYSTEM_ROOTS.contains(&segments[0]));
    }
    if segments[0] == "~" {
        return segments.len() >= 2;
    }
    // A trailing slash marks a folder even in running text ("everything under shard/").
    let plain_segments = segments.iter().all(|s| plain_segment(s));
    if segments.len() == 1 {
        if tok.dir {
            return last != ".." && (strength >= Strength::Backtick || COMMON_DIRS.contains(&last) || plain_segments);
        }
        // `mutex.lock` may be a member; `Cargo-minimal.lock` cannot, a name with a dash, nor
        // `Js_array.ml:10`, a name with a line.
        let member_like = tok.line.is_none()
            && last.rsplit_once('.').is_some_and(|(stem, ext)| {
                !stem.is_empty() && !stem.contains('-') && MEMBER_LIKE_EXTS.contains(&ext.to_ascii_lowercase().as_str())
            });
        return named
            && !(member_like && !BARE_NAMES.contains(&last) && !DOTFILES.contains(&last))
            && !NOT_FILES.contains(&last.to_ascii_lowercase().as_str());
    }
    if named || segments.contains(&"..") {
        return true;
    }
    if segments.len() == 2 && MIME_TOPS.contains(&segments[0]) {
        return false;
    }
    let common = COMMON_DIRS.contains(&segments[0]);
    match strength {
        // ...but not `TODO/FIXME` on a line of its own.
        Strength::Standalone => segments.iter().any(|s| s.bytes().any(|c| c.is_ascii_lowercase())),
        // Two segments in code: a folder, a common root, a dot-folder (`.githooks/pre-commit`),
        // or a file name with an extension, known or not (`R/bibentries.R`).
        Strength::Backtick => {
            tok.dir
                || common
                || segments.len() >= 3
                || (segments[0].len() > 1 && segments[0].starts_with('.'))
                || ext_like(last)
        }
        // A folder in running text: plain segments, or a plain first one and names after it
        // (`sources/AITerm/`).
        Strength::Prose => {
            PROSE_ROOTS.contains(&segments[0])
                || (tok.dir && plain_segments)
                || (tok.dir && plain_segment(segments[0]) && segments[1..].iter().all(|s| name_segment(s)))
        }
    }
}

/// Plain path words (a code span, or a word of running text) the text calls a folder right
/// after them ("are in the `felix/fv` directory"), which on their own may be a repository's
/// owner and name: the folder.
pub(crate) fn named_a_folder(masked: &str, after: &str) -> Option<PathToken> {
    let next = after.trim_start().split(|c: char| !c.is_ascii_alphabetic()).next()?;
    let folder_word = matches!(
        next.to_ascii_lowercase().as_str(),
        "directory" | "directories" | "folder" | "folders" | "dir" | "subdirectory" | "subfolder"
    );
    let plain = masked.contains('/') && !masked.ends_with('/') && masked.split('/').all(plain_segment);
    (folder_word && plain).then(|| classify(&format!("{masked}/"), Strength::Backtick)).flatten()
}

/// A path segment of two or more lower-case letters, digits, `_`, `-` or `.` (`storage`,
/// `p2p`, `api_v2`): how folder names are written, unlike words of prose (`Read`, `I/O`).
pub(crate) fn plain_segment(s: &str) -> bool {
    s.len() >= 2 && s.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, b'_' | b'-' | b'.'))
}

/// A segment that names something: letters, digits, `_`, `-`, `.`, starting with a letter.
fn name_segment(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && s.bytes().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'))
}

/// A file name with an extension of one to four letters or digits after a stem (`bibentries.R`,
/// `schema.prisma2`), whether or not the extension is known.
fn ext_like(name: &str) -> bool {
    name.rsplit_once('.').is_some_and(|(stem, ext)| {
        stem.chars().any(char::is_alphanumeric)
            && !stem.starts_with('.')
            && (1..=4).contains(&ext.len())
            && ext.bytes().all(|c| c.is_ascii_alphanumeric())
            && ext.bytes().any(|c| c.is_ascii_alphabetic())
    })
}

pub(crate) fn has_known_ext(name: &str) -> bool {
    if DOTFILES.contains(&name) || env_file(name) || tool_dotfile(name) {
        return true;
    }
    if let Some(rest) = name.strip_prefix('.') {
        if !rest.contains('.') {
            return false; // `.rs` is an extension, not a file
        }
    }
    let Some((stem, ext)) = name.rsplit_once('.') else {
        return false;
    };
    if !stem.chars().any(char::is_alphanumeric) {
        return false;
    }
    // `e.g`, `U.S.C`: every part a single letter.
    if name.split('.').all(|part| part.chars().count() <= 1) {
        return false;
    }
    let ext = ext.to_ascii_lowercase();
    // A copy to start from (`env.properties.sample`, `config.yml.example`, `config.h.in`): a
    // suffix after a file's own extension.
    if COPY_SUFFIXES.contains(&ext.as_str()) && stem.contains('.') {
        return has_known_ext(stem);
    }
    EXTENSIONS.contains(&ext.as_str())
}

/// Suffixes that make a file a copy or a template of another file (`env.properties.sample`,
/// `settings.json.example`, `config.h.in`); a name is a file when what comes before them is.
const COPY_SUFFIXES: &[&str] = &["sample", "example", "template", "orig", "in", "default"];

/// `**src/a.rs**` (also `**src/a.rs**.` at the end of a sentence) is bold text,
/// `**/docs/**` is a glob. A word at one end of a bold run of several words
/// ("**Update CHANGELOG.md** -") carries the run's `**` on that end only.
fn strip_emphasis(t: &str) -> &str {
    let t0 = t;
    let bold_end =
        |inner: &str| !inner.is_empty() && !inner.contains('*') && inner.ends_with(|c: char| c.is_alphanumeric());
    if let Some(inner) = t.trim_end_matches(['.', ',', ':', ';']).strip_suffix("**").filter(|i| !i.starts_with('*')) {
        if bold_end(inner) && inner.starts_with(|c: char| c.is_alphanumeric() || c == '.') {
            return inner;
        }
    }
    if let Some(inner) = t.strip_prefix("**").filter(|i| !i.ends_with('*')) {
        if bold_end(inner.trim_end_matches(['.', ',', ':', ';'])) && inner.starts_with(|c: char| c.is_alphanumeric()) {
            return inner;
        }
    }
    let t = match t.trim_end_matches(['.', ',', ':', ';', '!', '?']) {
        bold if bold.ends_with('*') && bold.starts_with('*') => bold,
        _ => t,
    };
    let lead = t.len() - t.trim_start_matches('*').len();
    let trail = t.len() - t.trim_end_matches('*').len();
    if lead > 0 && lead == trail && t.len() > 2 * lead {
        let inner = &t[lead..t.len() - trail];
        if !inner.contains('*') && inner.starts_with(|c: char| c.is_alphanumeric() || c == '.') {
            return inner;
        }
    }
    t0
}

/// A folder that relative paths may be written against, with its own readings.
pub(crate) struct Folder<'a> {
    pub readings: &'a [String],
    /// Only bare file names (`handlers.go`) are read against it, not `a/b.go`.
    pub bare_only: bool,
    /// A weak hint: its readings come after the path as written.
    pub fallback: bool,
    /// Which paths joined onto this folder come after the path as written ([`Demote`]).
    pub demote: Demote,
    /// The notes file's own folder: `../x` is read against it, while it stays in the repo.
    pub own: bool,
}

/// Which paths are read from the repo root before they are joined onto a notes file's folder:
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Demote {
    /// none (a package's README: its `src/` is the package's own);
    No,
    /// in a docs folder, those that start with a well-known top folder (`src/...`, see
    /// `PROSE_ROOTS`), since docs describe the whole repo;
    Roots,
    /// the folder is a skill's: every path of more than one segment (a skill describes the
    /// repository) but those under a folder a skill bundles of its own (`scripts/`,
    /// `references/`, `assets/`, `templates/`, `examples/`); a bare name is the skill's first.
    SkillRoots,
}

/// Folders an agent skill bundles beside its SKILL.md.
const SKILL_BUNDLE: &[&str] = &["scripts", "references", "reference", "assets", "templates", "examples", "resources"];

/// `base/p` with its `..` segments applied; `None` when it would climb above the repo root.
/// `../x` read as a docs site with pretty URLs reads it (Hugo, and every generator that serves
/// `guide/setup.md` at `guide/setup/`): against the page's own URL folder `page`
/// (`docs/guide/setup` for `docs/guide/setup.md`), so `../diagram.png` is `docs/guide/diagram.png`.
/// `None` unless `p` climbs and stays inside the repo.
pub(crate) fn page_reading(page: &str, p: &str) -> Option<String> {
    p.starts_with("..").then(|| climb(page, p)).flatten()
}

fn climb(base: &str, p: &str) -> Option<String> {
    let mut parts: Vec<&str> = base.split('/').filter(|s| !s.is_empty() && *s != ".").collect();
    for seg in p.split('/').filter(|s| !s.is_empty() && *s != ".") {
        if seg == ".." {
            parts.pop()?;
        } else {
            parts.push(seg);
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

#[rustfmt::skip]
const DOCS_DIRS: &[&str] = &[
    "docs", "doc", "documentation", "wiki", "notes", ".github", "contexts", "adr", "adrs",
    "design", "rfcs", "guides",
];

/// A folder of documentation (its notes describe the whole repo, not the folder).
pub(crate) fn is_docs_dir(path: &str) -> bool {
    path.split('/').any(|s| DOCS_DIRS.contains(&s))
}

/// The repo-relative readings of `tok`, most likely first: joined onto each folder in order,
/// then as written. A join is demoted below the as-written reading when the folder is only a
/// fallback, or when the path already starts with the folder's first segment
/// (`services/web/x.go` under `services/api`).
pub(crate) fn readings(tok: &PathToken, folders: &[Folder<'_>]) -> Vec<String> {
    let p = tok.path.as_str();
    if tok.unresolvable() {
        // `../api.md` in `docs/guide/NOTES.md` is `docs/api.md`: relative to the notes
        // file's folder, allowed while it stays inside the repo. Anything else (absolute,
        // `~`, climbing above the root) is kept as written, for the investigator to refuse.
        if p.starts_with("..") {
            if let Some(inside) =
                folders.iter().filter(|f| f.own).find_map(|f| f.readings.first().and_then(|b| climb(b, p)))
            {
                return vec![inside];
            }
        }
        return vec![p.to_string()];
    }
    let bare = !p.contains('/');
    let mut front = Vec::new();
    let mut back = Vec::new();
    for folder in folders {
        if folder.bare_only && !bare {
            continue;
        }
        // The folder itself: same readings. Already under one of its readings: as written.
        if folder.readings.iter().any(|b| b == p) {
            front.extend(folder.readings.iter().cloned());
            continue;
        }
        if folder.readings.iter().any(|b| p.starts_with(b.as_str()) && p.as_bytes().get(b.len()) == Some(&b'/')) {
            front.push(p.to_string());
            continue;
        }
        for base in folder.readings {
            let b = base.as_str();
            if b.is_empty() || b == "." || unresolvable(b) {
                continue;
            }
            if p == b || (p.starts_with(b) && p.as_bytes().get(b.len()) == Some(&b'/')) {
                front.push(p.to_string());
                continue;
            }
            let joined = format!("{b}/{p}");
            if joined.len() > MAX_PATH_LEN {
                continue;
            }
            let root = PROSE_ROOTS.contains(&first_segment(p));
            let demoted = match folder.demote {
                Demote::No => false,
                Demote::Roots => root,
                Demote::SkillRoots => !bare && !SKILL_BUNDLE.contains(&first_segment(p)),
            };
            if folder.fallback || demoted || (!bare && first_segment(p) == first_segment(b)) {
                back.push(joined);
            } else {
                front.push(joined);
            }
        }
    }
    front.push(p.to_string());
    front.extend(back);
    let mut out: Vec<String> = Vec::with_capacity(MAX_READINGS);
    for r in front {
        if !out.contains(&r) {
            out.push(r);
            if out.len() == MAX_READINGS {
                break;
            }
        }
    }
    out
}

fn first_segment(p: &str) -> &str {
    p.split('/').next().unwrap_or(p)
}

/// The folder a path names as its first segment, when the path is strong enough evidence
/// that the folder exists: a code span accepted as a path with more than one segment
/// (`tasks/coverage/misc/pass`, `graphiti_core/driver.py`) or written as a folder (`tasks/`).
pub(crate) fn named_root(tok: &PathToken) -> Option<&str> {
    if tok.unresolvable() {
        return None;
    }
    let first = first_segment(&tok.path);
    (tok.path.len() > first.len() || tok.dir).then_some(first).filter(|f| !f.is_empty())
}

/// A code span of two plain segments under a folder the same memory names elsewhere
/// ([`named_root`]): `tasks/coverage` beside `tasks/coverage/misc/pass`. On its own such a span
/// is as likely a repository slug or a pair of words (`tokio-rs/tokio`, `and/or`); the
/// memory naming its first folder as a path elsewhere is what makes it a path.
pub(crate) fn under_named_root(token: &str, roots: &std::collections::HashSet<String>) -> Option<PathToken> {
    let tok = parse(token)?;
    let segments: Vec<&str> = tok.path.split('/').collect();
    let plain = |s: &str| {
        s.len() >= 2
            && s.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, b'_' | b'-' | b'.'))
            && s.bytes().any(|c| c.is_ascii_lowercase())
    };
    (segments.len() == 2 && !tok.unresolvable() && segments.iter().all(|s| plain(s)) && roots.contains(segments[0]))
        .then_some(tok)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(token: &str, strength: Strength, expected: Option<(&str, bool, Option<u32>)>) {
        let got = classify(token, strength).map(|t| (t.path, t.dir, t.line));
        let expected = expected.map(|(p, d, l)| (p.to_string(), d, l));
        assert_eq!(got, expected, "token {token:?} ({strength:?})");
    }

    #[test]
    fn accepts_paths_as_written() {
        use Strength::*;
        type Case<'a> = (&'a str, Strength, Option<(&'a str, bool, Option<u32>)>);
        let cases: &[Case<'_>] = &[
            ("src/foo.rs", Prose, Some(("src/foo.rs", false, None))),
            ("internal/cache/lru.go", Prose, Some(("internal/cache/lru.go", false, None))),
            ("./src/foo.rs", Prose, Some(("src/foo.rs", false, None))),
            ("././src//foo.rs", Prose, Some(("src/foo.rs", false, None))),
            ("lru.go", Prose, Some(("lru.go", false, None))),
            (".luacheckrc", Backtick, Some((".luacheckrc", false, None))),
            ("uMakerAi.Chat.Claude.pas", Backtick, Some(("uMakerAi.Chat.Claude.pas", false, None))),
            ("Deploy/backupAlerts.bicep", Backtick, Some(("Deploy/backupAlerts.bicep", false, None))),
            ("Demos/DemosVersion31.groupproj", Backtick, Some(("Demos/DemosVersion31.groupproj", false, None))),
            (".helmignore", Backtick, Some((".helmignore", false, None))),
            (".style.yapf", Backtick, Some((".style.yapf", false, None))),
            (".e.g", Backtick, None),
            // a member chain is no dotfile
            (".events.emit", Backtick, None),
            (".rc", Backtick, None),
            (".src", Backtick, None),
            ("lru.go.", Prose, Some(("lru.go", false, None))),
            ("(lru.go),", Prose, Some(("lru.go", false, None))),
            ("src/cache/", Prose, Some(("src/cache", true, None))),
            ("src/", Prose, Some(("src", true, None))),
            ("shard/", Prose, Some(("shard", true, None))),
            ("lib/tombstone/", Prose, Some(("lib/tombstone", true, None))),
            ("internal/cache", Prose, Some(("internal/cache", false, None))),
            ("weird/thing/", Backtick, Some(("weird/thing", true, None))),
            ("a/b/c", Backtick, Some(("a/b/c", false, None))),
            ("services/api", Standalone, Some(("services/api", false, None))),
            ("file.rs:45", Prose, Some(("file.rs", false, Some(45)))),
            ("AgentSdk.proj", Prose, Some(("AgentSdk.proj", false, None))),
            (
                "vscode-dotnet-runtime.code-workspace",
                Backtick,
                Some(("vscode-dotnet-runtime.code-workspace", false, None)),
            ),
            ("../.vscodeignore", Backtick, Some(("../.vscodeignore", false, None))),
            ("file.rs:45:7", Prose, Some(("file.rs", false, Some(45)))),
            ("src/a.rs:10-20", Prose, Some(("src/a.rs", false, Some(10)))),
            ("file.rs#L45", Prose, Some(("file.rs", false, Some(45)))),
            ("src/a.rs#L3-L9", Prose, Some(("src/a.rs", false, Some(3)))),
            ("guide.md#setup", Prose, Some(("guide.md", false, None))),
            ("Makefile", Prose, Some(("Makefile", false, None))),
            ("go.mod", Prose, Some(("go.mod", false, None))),
            (".env", Prose, Some((".env", false, None))),
            (".env.docker", Backtick, Some((".env.docker", false, None))),
            (".env.prod_electron", Prose, Some((".env.prod_electron", false, None))),
            (".env-dist", Backtick, Some((".env-dist", false, None))),
            (".bazelversion", Backtick, Some((".bazelversion", false, None))),
            (".swift-version", Backtick, Some((".swift-version", false, None))),
            ("ci.bazelrc", Backtick, Some(("ci.bazelrc", false, None))),
            ("Cargo-minimal.lock", Backtick, Some(("Cargo-minimal.lock", false, None))),
            ("mutex.lock", Backtick, None),
            ("Ably.podspec", Backtick, Some(("Ably.podspec", false, None))),
            ("Source/Ably.modulemap", Backtick, Some(("Source/Ably.modulemap", false, None))),
            ("product.snk", Backtick, Some(("product.snk", false, None))),
            ("Cartfile", Backtick, Some(("Cartfile", false, None))),
            (
                "packages/@postgrestools/backend-jsonrpc/",
                Backtick,
                Some(("packages/@postgrestools/backend-jsonrpc", true, None)),
            ),
            (
                "node_modules/@types/node/index.d.ts",
                Backtick,
                Some(("node_modules/@types/node/index.d.ts", false, None)),
            ),
            ("LICENSE-APACHE", Backtick, Some(("LICENSE-APACHE", false, None))),
            ("LICENSE-Apache", Backtick, None),
            (".github/workflows/ci.yml", Prose, Some((".github/workflows/ci.yml", false, None))),
            (".rustfmt.toml", Prose, Some((".rustfmt.toml", false, None))),
            ("**src/a.rs**", Prose, Some(("src/a.rs", false, None))),
            ("../../etc/passwd", Prose, Some(("../../etc/passwd", false, None))),
            ("/etc/passwd", Prose, Some(("/etc/passwd", false, None))),
            ("~/.bashrc", Prose, Some(("~/.bashrc", false, None))),
            ("Cargo.lock", Prose, Some(("Cargo.lock", false, None))),
            ("logs/app.log", Prose, Some(("logs/app.log", false, None))),
            ("README.MD", Prose, Some(("README.MD", false, None))),
            ("env.properties.sample", Backtick, Some(("env.properties.sample", false, None))),
            ("config/settings.json.example", Prose, Some(("config/settings.json.example", false, None))),
            ("config.h.in", Backtick, Some(("config.h.in", false, None))),
            ("R/bibentries.R", Backtick, Some(("R/bibentries.R", false, None))),
            (".githooks/pre-commit", Backtick, Some((".githooks/pre-commit", false, None))),
            ("l10n/en-US/viewer.ftl", Prose, Some(("l10n/en-US/viewer.ftl", false, None))),
            ("sources/AITerm/", Prose, Some(("sources/AITerm", true, None))),
            ("NAMESPACE", Backtick, Some(("NAMESPACE", false, None))),
        ];
        for (token, strength, expected) in cases {
            check(token, *strength, *expected);
        }
    }

    #[test]
    fn rejects_what_is_not_a_path() {
        use Strength::*;
        let cases: &[(&str, Strength)] = &[
            ("https://example.com/a.rs", Backtick),
            ("http://x/y", Prose),
            ("user@example.com", Prose),
            ("@types/node", Backtick),
            ("1.2.3", Backtick),
            ("v2.0", Backtick),
            ("2024/01/02", Backtick),
            ("1/2", Prose),
            (".rs", Backtick),
            ("*.rs", Backtick),
            ("**/docs/**", Backtick),
            ("src/*.rs", Backtick),
            ("e.g.", Prose),
            ("i.e.", Prose),
            ("etc.", Prose),
            ("U.S.C.", Prose),
            ("and/or", Prose),
            ("w/", Prose),
            ("Foo/", Prose),
            ("and/or", Backtick),
            ("client/server", Prose),
            ("tokio-rs/tokio", Backtick),
            ("text/html", Backtick),
            ("application/json", Standalone),
            ("Node.js", Prose),
            ("console.log", Backtick),
            ("mutex.lock", Backtick),
            ("self.db", Backtick),
            ("docs.rs", Backtick),
            ("serde", Backtick),
            ("example.com", Prose),
            ("/api/v1/users", Backtick),
            ("--config/x", Backtick),
            ("std::fs", Backtick),
            ("..", Backtick),
            ("../", Backtick),
            ("src\\main.rs", Prose),
            ("a\0b.rs", Prose),
            ("", Prose),
            (".", Prose),
            ("/", Prose),
            ("self.in", Backtick),
            ("foo.example", Backtick),
            ("Read/Write/", Prose),
            ("client/Server", Prose),
            ("NAMESPACE", Prose),
            ("react/jsx-runtime", Backtick),
        ];
        for (token, strength) in cases {
            check(token, *strength, None);
        }
    }

    fn folder(readings: &[String], bare_only: bool) -> Folder<'_> {
        Folder { readings, bare_only, fallback: false, demote: Demote::No, own: false }
    }

    #[test]
    fn readings_put_the_likely_join_first() {
        let api = vec!["services/api".to_string()];
        let docs = vec!["docs".to_string()];
        let tok = |p: &str| parse(p).unwrap();

        // bare name under a section folder
        assert_eq!(readings(&tok("handlers.go"), &[folder(&api, false)]), ["services/api/handlers.go", "handlers.go"]);
        // relative to the notes file's folder
        assert_eq!(
            readings(&tok("guide/setup.md"), &[folder(&docs, false)]),
            ["docs/guide/setup.md", "guide/setup.md"]
        );
        // both: section folder, then context folder, then as written
        assert_eq!(
            readings(&tok("handlers.go"), &[folder(&api, false), folder(&docs, false)]),
            ["services/api/handlers.go", "docs/handlers.go", "handlers.go"]
        );
        // already under the folder: no join
        assert_eq!(readings(&tok("services/api/x.go"), &[folder(&api, false)]), ["services/api/x.go"]);
        // same top segment as the folder: as written first, join as the fallback
        assert_eq!(
            readings(&tok("services/web/x.go"), &[folder(&api, false)]),
            ["services/web/x.go", "services/api/services/web/x.go"]
        );
        // a bare-only folder does not apply to a path with a slash
        assert_eq!(readings(&tok("a/b.go"), &[folder(&api, true)]), ["a/b.go"]);
        // a fallback folder comes after the path as written
        let weak = Folder { readings: &api, bare_only: true, fallback: true, demote: Demote::No, own: false };
        assert_eq!(readings(&tok("x.go"), &[weak]), ["x.go", "services/api/x.go"]);
        // `..` and absolute paths are never joined
        assert_eq!(readings(&tok("../../etc/passwd"), &[folder(&docs, false)]), ["../../etc/passwd"]);
        assert_eq!(readings(&tok("/etc/passwd"), &[folder(&docs, false)]), ["/etc/passwd"]);
    }
}
