//! A file that re-exports everything of another file offers its names.
//!
//! A module kept as a facade after its code moved (`src/lib/agents.ts` holding only
//! `export * from './agent-spec/agents.js'`, a package's `__init__.py` with
//! `from .core import *`, a Rust `pub use agents::*;`) still gives every name of the file it
//! re-exports: callers import them from it, and a memory saying a name "is in" the facade is
//! right about where to import it from. The name is defined in the other file, so the evidence
//! says both. Only a whole-module re-export counts (`export * as ns` puts the names under a
//! namespace, a list of names is read by the parser as it is), and only one step: the file the
//! name moved to must be the one re-exported, resolved from the facade's own folder.

/// Whether the text of `facade` (a file at `facade`, repository-relative) re-exports every name
/// of the file `target`.
pub(super) fn reexports_all(facade: &str, text: &str, target: &str) -> bool {
    let dir = facade.rsplit_once('/').map_or("", |(d, _)| d);
    text.lines().filter_map(|line| star_source(line.trim())).any(|source| match source {
        Source::Relative(spec) => join(dir, spec).is_some_and(|m| module_file(&m, target)),
        Source::PythonModule(dots, module) => python_module(dir, dots, module).is_some_and(|m| module_file(&m, target)),
        Source::RustModule(module) => rust_module(facade, module, target),
    })
}

enum Source<'a> {
    /// `export * from './x'` (JavaScript, TypeScript): a path from the file's folder.
    Relative(&'a str),
    /// `from .x.y import *`: leading dots, then the dotted module.
    PythonModule(usize, &'a str),
    /// `pub use x::*;`: the last module segment.
    RustModule(&'a str),
}

fn star_source(line: &str) -> Option<Source<'_>> {
    if let Some(rest) = line.strip_prefix("export * from ").or_else(|| line.strip_prefix("export *from ")) {
        let spec = rest.trim().trim_end_matches(';').trim().trim_matches(|c| c == '\'' || c == '"');
        return (spec.starts_with("./") || spec.starts_with("../")).then_some(Source::Relative(spec));
    }
    if let Some(rest) = line.strip_prefix("from ") {
        let (module, names) = rest.split_once(" import ")?;
        if names.trim() != "*" {
            return None;
        }
        let dots = module.len() - module.trim_start_matches('.').len();
        return (dots > 0).then(|| Source::PythonModule(dots, module.trim_start_matches('.')));
    }
    let rest = line.strip_prefix("pub use ")?.trim_end_matches(';').trim();
    let module = rest.strip_suffix("::*")?;
    let last = module.rsplit("::").next()?;
    (!last.is_empty() && last != "crate" && last != "super" && last != "self").then_some(Source::RustModule(last))
}

/// `dir` joined with a relative path (`./a/b.js`, `../c`); `None` when it climbs above the
/// repository root.
fn join(dir: &str, spec: &str) -> Option<String> {
    let mut parts: Vec<&str> = dir.split('/').filter(|s| !s.is_empty()).collect();
    for seg in spec.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

fn python_module(dir: &str, dots: usize, module: &str) -> Option<String> {
    let mut base: Vec<&str> = dir.split('/').filter(|s| !s.is_empty()).collect();
    for _ in 1..dots {
        base.pop()?;
    }
    base.extend(module.split('.').filter(|s| !s.is_empty()));
    Some(base.join("/"))
}

/// Whether `target` is the module file `module` names (with or without its extension, or the
/// folder's index file).
fn module_file(module: &str, target: &str) -> bool {
    let stem = |p: &str| -> String {
        let name = p.rsplit('/').next().unwrap_or(p);
        match name.rsplit_once('.') {
            Some((s, _)) if !s.is_empty() => format!("{}{s}", &p[..p.len() - name.len()]),
            _ => p.to_owned(),
        }
    };
    let target_stem = stem(target);
    target_stem == stem(module)
        || target_stem == module
        || ["index", "__init__", "mod"].iter().any(|i| target_stem == format!("{module}/{i}"))
}

/// A Rust `pub use m::*;` in the facade file: `target` is `m.rs` or `m/mod.rs` beside it (a
/// `lib.rs`, `main.rs` or `mod.rs`), or in the facade's own module folder (`src/foo.rs` →
/// `src/foo/m.rs`).
fn rust_module(facade: &str, module: &str, target: &str) -> bool {
    let (dir, name) = facade.rsplit_once('/').unwrap_or(("", facade));
    let own =
        name.strip_suffix(".rs").map(|stem| if dir.is_empty() { stem.to_owned() } else { format!("{dir}/{stem}") });
    let under = |base: &str| {
        let prefix = if base.is_empty() { String::new() } else { format!("{base}/") };
        target == format!("{prefix}{module}.rs") || target == format!("{prefix}{module}/mod.rs")
    };
    under(dir) || own.is_some_and(|o| under(&o))
}

#[cfg(test)]
mod tests {
    use super::reexports_all;

    #[test]
    fn whole_module_reexports_in_three_languages() {
        let ts = "/** Hub facade. */\nexport * from './agent-spec/agents.js';\n";
        assert!(reexports_all("apps/cli/src/lib/agents.ts", ts, "apps/cli/src/lib/agent-spec/agents.ts"));
        assert!(!reexports_all("apps/cli/src/lib/agents.ts", ts, "apps/cli/src/lib/other/agents.ts"));
        let up = "export * from \"../core\";";
        assert!(reexports_all("pkg/a/b.ts", up, "pkg/core/index.ts"));
        assert!(reexports_all("pkg/a/b.ts", up, "pkg/core.ts"));
        // a namespace or a list of names is not a re-export of everything
        assert!(!reexports_all("a/b.ts", "export * as x from './c';", "a/c.ts"));
        assert!(!reexports_all("a/b.ts", "export { f } from './c';", "a/c.ts"));

        let py = "from .core.engine import *\n";
        assert!(reexports_all("pkg/__init__.py", py, "pkg/core/engine.py"));
        assert!(reexports_all("pkg/sub/__init__.py", "from ..util import *", "pkg/util/__init__.py"));
        assert!(!reexports_all("pkg/__init__.py", "from .core import run", "pkg/core.py"));

        assert!(reexports_all("src/lib.rs", "pub use agents::*;", "src/agents.rs"));
        assert!(reexports_all("src/lib.rs", "pub use self::agents::*;", "src/agents/mod.rs"));
        assert!(!reexports_all("src/lib.rs", "pub use agents::Agent;", "src/agents.rs"));
    }
}
