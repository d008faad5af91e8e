//! A symbol as a memory writes it (`Type::method`, `Class.method`, `name()`), and which
//! definitions answer to it.

use crate::symbols::Def;

/// A symbol as a memory writes it: `Type::method`, `Class.method`, `name()`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct SymbolName {
    pub(super) name: String,
    pub(super) qualifier: Option<String>,
}

impl SymbolName {
    pub(super) fn parse(raw: &str) -> SymbolName {
        let raw = raw.trim().trim_end_matches("()").trim_end_matches('!');
        let raw = raw.split(['(', '<', ' ']).next().unwrap_or(raw);
        let parts: Vec<&str> = raw.split("::").flat_map(|p| p.split('.')).filter(|p| !p.is_empty()).collect();
        match parts.as_slice() {
            [] => SymbolName { name: raw.to_owned(), qualifier: None },
            [one] => SymbolName { name: (*one).to_owned(), qualifier: None },
            [.., q, n] => SymbolName { name: (*n).to_owned(), qualifier: Some((*q).to_owned()) },
        }
    }

    /// Does `def` in `path` answer to this name? A qualifier matches the enclosing type, a
    /// variable named after it (`configuration.getAsInt` for `CompilerConfiguration`'s), or a
    /// module (a path segment or file stem).
    pub(super) fn matches(&self, path: &str, def: &Def) -> bool {
        if *def.name != *self.name {
            return false;
        }
        match &self.qualifier {
            None => true,
            Some(q) => {
                def.container.as_deref() == Some(q.as_str())
                    || def.container.as_deref().is_some_and(|c| named_after(q, c))
                    || path.split('/').any(|seg| seg == q || seg.split('.').next() == Some(q.as_str()))
                    || matches!(q.as_str(), "self" | "Self" | "crate" | "super" | "this")
            }
        }
    }

    /// A function's, a variable's or a member's name (`ioQueue`, `error.isTaskCancelled`,
    /// `self.load`), not a type's: one a text cites at a line of its use as often as at its
    /// definition. A `snake_case` name is left out: Python and Rust define functions so, and a
    /// line given with one is most often its `def`'s.
    pub(super) fn use_like(&self) -> bool {
        let lower = |s: &str| s.starts_with(|c: char| c.is_ascii_lowercase());
        let camel =
            lower(&self.name) && self.name.contains(|c: char| c.is_ascii_uppercase()) && !self.name.contains('_');
        camel || self.qualifier.as_deref().is_some_and(lower) && lower(&self.name)
    }

    pub(super) fn display(&self) -> String {
        match &self.qualifier {
            Some(q) => format!("{q}::{}", self.name),
            None => self.name.clone(),
        }
    }
}

/// Whether the lower-case `variable` is named after the type `container`, as variables are
/// (`configuration: CompilerConfiguration`, `client: HttpClient`, `user: User`): the type's
/// name ends with the variable's, capitalised, on a word boundary.
fn named_after(variable: &str, container: &str) -> bool {
    let mut chars = variable.chars();
    let Some(first) = chars.next().filter(char::is_ascii_lowercase) else { return false };
    let word: String = first.to_ascii_uppercase().to_string() + chars.as_str();
    variable.len() >= 3 && container.ends_with(&word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    pub(super) fn symbol_names_parse() {
        let cases = [
            ("ShardedCache", "ShardedCache", None),
            ("Cache::get", "get", Some("Cache")),
            ("Router.handle()", "handle", Some("Router")),
            ("parse_header()", "parse_header", None),
            ("crate::cache::ShardedCache", "ShardedCache", Some("cache")),
        ];
        for (raw, name, q) in cases {
            let s = SymbolName::parse(raw);
            assert_eq!((s.name.as_str(), s.qualifier.as_deref()), (name, q), "{raw}");
        }
    }

    #[test]
    fn names_cited_at_a_line_of_their_use() {
        for (raw, use_like) in [
            ("ioQueue", true),
            ("error.isTaskCancelled", true),
            ("self.loadAndCacheImage", true),
            ("ShardedCache", false),
            ("Cache::get", false),
            ("render_matrix", false),
            ("store", false),
        ] {
            assert_eq!(SymbolName::parse(raw).use_like(), use_like, "{raw}");
        }
    }

    #[test]
    fn a_variable_named_after_its_type_answers_for_it() {
        let def = |container: &str| Def {
            name: "getAsInt".into(),
            container: Some(container.into()),
            line: 1,
            end_line: 1,
            kind: "fun",
        };
        let sym = SymbolName::parse("configuration.getAsInt");
        assert!(sym.matches("src/Options.kt", &def("CompilerConfiguration")));
        assert!(sym.matches("src/Options.kt", &def("Configuration")));
        assert!(!sym.matches("src/Options.kt", &def("Settings")), "another type's member");
        assert!(!sym.matches("src/Options.kt", &def("Reconfiguration")), "not on a word boundary");
        assert!(!SymbolName::parse("Configuration.getAsInt").matches("src/Options.kt", &def("CompilerConfiguration")));
    }
}
