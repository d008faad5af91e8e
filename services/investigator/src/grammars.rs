//! Definitions in the mainstream languages beyond the first five: Java, C#, Kotlin, Swift, Ruby,
//! PHP, C and C++, each read with its tree-sitter grammar.
//!
//! What counts as a definition, per node of a grammar ([`step`]):
//! - types: classes, interfaces, structs, records, enums, traits, protocols, objects, modules
//!   and namespaces (their members get them as container); a C `struct`/`enum`/`union` only
//!   with a body (`struct foo *p;` uses one), a `typedef`, a C++ `using` alias;
//! - functions, methods, constructors (bodies are not read: what a memory names lives at the
//!   top of a file or of a type); a C or C++ function by the innermost name of its declarator
//!   (`Foo::bar` gives `bar` in `Foo`), a prototype in a header too;
//! - fields, properties, constants, enum members, `#define` macros and Ruby constants
//!   (`MAX = 3`).
//!
//! A name the grammar cannot place (a parse error around it) is simply not found there; the
//! checks then go on as for any missing definition.

use tree_sitter::Node;

/// The languages read here (`crate::symbols::Lang` maps its own onto these).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Grammar {
    Java,
    CSharp,
    Kotlin,
    Swift,
    Ruby,
    Php,
    C,
    Cpp,
}

/// What one node of a tree adds: definitions (name, kind), the type they belong to when the node
/// says so itself (`void Foo::bar() {}`), the container its children get, and whether its
/// children are read at all.
pub(crate) struct Step {
    pub defs: Vec<(String, &'static str)>,
    pub scope: Option<String>,
    pub container: Option<String>,
    pub descend: bool,
}

impl Step {
    fn read_on() -> Step {
        Step { defs: Vec::new(), scope: None, container: None, descend: true }
    }

    /// Nothing here, and nothing below (a function's body).
    fn stop() -> Step {
        Step::all(Vec::new(), "")
    }

    /// Several definitions of one kind (`int a, b;`), whose children are not read.
    fn all(names: Vec<String>, kind: &'static str) -> Step {
        Step { defs: names.into_iter().map(|n| (n, kind)).collect(), scope: None, container: None, descend: false }
    }

    fn def(name: Option<String>, kind: &'static str, container: bool, descend: bool) -> Step {
        let container = if container { name.clone() } else { None };
        Step { defs: name.into_iter().map(|n| (n, kind)).collect(), scope: None, container, descend }
    }
}

fn text_of<'a>(node: Node<'_>, src: &'a [u8]) -> &'a str {
    node.utf8_text(src).unwrap_or("")
}

/// The last identifier of a name node (`Foo::Bar` → `Bar`, `Foo<T>` → `Foo`, `$count` → `count`).
fn last_ident(node: Node<'_>, src: &[u8]) -> Option<String> {
    let text = text_of(node, src);
    let base = text.split('<').next().unwrap_or(text);
    let ident =
        base.rsplit(|c: char| !(c.is_alphanumeric() || c == '_' || c == '?' || c == '!')).find(|s| !s.is_empty())?;
    Some(ident.to_owned())
}

fn name_of(node: Node<'_>, src: &[u8]) -> Option<String> {
    node.child_by_field_name("name").and_then(|n| last_ident(n, src))
}

/// The first named child of `node` whose kind is one of `kinds`.
fn child_of_kind<'t>(node: Node<'t>, kinds: &[&str]) -> Option<Node<'t>> {
    let mut cursor = node.walk();
    let found = node.named_children(&mut cursor).find(|c| kinds.contains(&c.kind()));
    found
}

/// The name a C or C++ declarator declares, and the type it is scoped to (`Foo::bar`): the
/// innermost `declarator` field, through pointers, references, arrays and parentheses.
fn declarator_name(node: Node<'_>, src: &[u8]) -> Option<(String, Option<String>)> {
    let mut n = node;
    for _ in 0..16 {
        match n.kind() {
            "identifier" | "field_identifier" | "type_identifier" | "destructor_name" | "operator_name" => {
                return Some((text_of(n, src).to_owned(), None));
            }
            "qualified_identifier" => {
                let scope = n.child_by_field_name("scope").and_then(|s| last_ident(s, src));
                let inner = n.child_by_field_name("name")?;
                let (name, nearer) = declarator_name(inner, src)?;
                return Some((name, nearer.or(scope)));
            }
            _ => {
                n = n.child_by_field_name("declarator").or_else(|| {
                    child_of_kind(n, &["identifier", "field_identifier", "qualified_identifier", "type_identifier"])
                })?;
            }
        }
    }
    None
}

/// The definitions `node` adds, in `lang` (one of the languages of this module).
pub(crate) fn step(lang: Grammar, node: Node<'_>, src: &[u8]) -> Step {
    let kind = node.kind();
    match (lang, kind) {
        // Bodies of functions: nothing a memory names lives there.
        (_, "block" | "compound_statement" | "function_body" | "statements" | "constructor_body") => Step::stop(),
        (
            Grammar::Java,
            "class_declaration"
            | "interface_declaration"
            | "enum_declaration"
            | "record_declaration"
            | "annotation_type_declaration",
        )
        | (
            Grammar::CSharp,
            "class_declaration"
            | "interface_declaration"
            | "struct_declaration"
            | "record_declaration"
            | "enum_declaration",
        )
        | (Grammar::Kotlin, "class_declaration" | "object_declaration")
        | (Grammar::Swift, "class_declaration" | "protocol_declaration")
        | (Grammar::Php, "class_declaration" | "interface_declaration" | "trait_declaration" | "enum_declaration")
        | (Grammar::Ruby, "class" | "module")
        | (Grammar::Cpp, "namespace_definition") => Step::def(name_of(node, src), "class", true, true),
        // `class Foo;` (and Objective-C's `@class Foo;` in a header read as C++) only declares
        // a name defined elsewhere, often in another library.
        (Grammar::Cpp, "class_specifier") => {
            if node.child_by_field_name("body").is_some() {
                Step::def(name_of(node, src), "class", true, true)
            } else {
                Step::read_on()
            }
        }
        (Grammar::C | Grammar::Cpp, "struct_specifier" | "enum_specifier" | "union_specifier") => {
            if node.child_by_field_name("body").is_some() {
                Step::def(name_of(node, src), "struct", true, true)
            } else {
                Step::read_on()
            }
        }
        (Grammar::CSharp, "namespace_declaration" | "file_scoped_namespace_declaration") => Step::read_on(),
        (
            Grammar::Java,
            "method_declaration"
            | "constructor_declaration"
            | "compact_constructor_declaration"
            | "annotation_type_element_declaration",
        )
        | (
            Grammar::CSharp,
            "method_declaration"
            | "constructor_declaration"
            | "destructor_declaration"
            | "delegate_declaration"
            | "local_function_statement",
        )
        | (Grammar::Swift, "function_declaration" | "protocol_function_declaration")
        | (Grammar::Php, "method_declaration" | "function_definition")
        | (Grammar::Ruby, "method" | "singleton_method") => Step::def(name_of(node, src), "method", false, false),
        // `fun Arb.Companion.date()`: an extension function belongs to its receiver type.
        (Grammar::Kotlin, "function_declaration") => {
            let name = node.child_by_field_name("name");
            let receiver = name.and_then(|n| {
                let mut cursor = node.walk();
                let before = node
                    .named_children(&mut cursor)
                    .find(|c| c.kind() == "user_type" && c.end_byte() <= n.start_byte());
                before
                    .and_then(|t| child_of_kind(t, &["identifier", "type_identifier"]))
                    .map(|i| text_of(i, src).to_owned())
            });
            let defs = name.map(|n| (text_of(n, src).to_owned(), "method")).into_iter().collect();
            Step { defs, scope: receiver, container: None, descend: false }
        }
        (Grammar::Swift, "init_declaration") => Step::def(Some("init".to_owned()), "method", false, false),
        (Grammar::Java, "enum_constant") | (Grammar::CSharp, "enum_member_declaration" | "property_declaration") => {
            Step::def(name_of(node, src), "field", false, false)
        }
        (Grammar::Swift, "property_declaration" | "protocol_property_declaration" | "typealias_declaration")
        | (Grammar::Swift, "associatedtype_declaration") => {
            let name = node
                .child_by_field_name("name")
                .and_then(|p| p.child_by_field_name("bound_identifier").or(Some(p)))
                .and_then(|n| last_ident(n, src));
            Step::def(name, "field", false, false)
        }
        (Grammar::Swift, "enum_entry") => {
            let mut cursor = node.walk();
            let names: Vec<String> =
                node.children_by_field_name("name", &mut cursor).map(|n| text_of(n, src).to_owned()).collect();
            Step::all(names, "variant")
        }
        (Grammar::Java, "field_declaration" | "constant_declaration") => {
            let mut cursor = node.walk();
            let names: Vec<String> =
                node.children_by_field_name("declarator", &mut cursor).filter_map(|d| name_of(d, src)).collect();
            Step::all(names, "field")
        }
        (Grammar::CSharp, "field_declaration" | "event_field_declaration") => {
            let declarators = child_of_kind(node, &["variable_declaration"]).map(|v| {
                let mut cursor = v.walk();
                let names: Vec<String> = v
                    .named_children(&mut cursor)
                    .filter(|c| c.kind() == "variable_declarator")
                    .filter_map(|d| {
                        name_of(d, src)
                            .or_else(|| child_of_kind(d, &["identifier"]).map(|i| text_of(i, src).to_owned()))
                    })
                    .collect();
                names
            });
            Step::all(declarators.unwrap_or_default(), "field")
        }
        (Grammar::Kotlin, "property_declaration") => {
            let name = child_of_kind(node, &["variable_declaration"])
                .and_then(|v| child_of_kind(v, &["identifier", "simple_identifier"]))
                .map(|i| text_of(i, src).to_owned());
            Step::def(name, "field", false, false)
        }
        (Grammar::Kotlin, "enum_entry") => Step::def(
            child_of_kind(node, &["identifier", "simple_identifier"]).map(|i| text_of(i, src).to_owned()),
            "variant",
            false,
            false,
        ),
        (Grammar::Kotlin, "class_parameter") => {
            // `class User(val name: String)`: a property, when declared with `val` or `var`.
            let property = text_of(node, src).split_whitespace().any(|w| w == "val" || w == "var");
            let name = child_of_kind(node, &["identifier", "simple_identifier"]).map(|i| text_of(i, src).to_owned());
            Step::def(name.filter(|_| property), "field", false, false)
        }
        (Grammar::Php, "property_declaration") => {
            let mut cursor = node.walk();
            let names: Vec<String> = node
                .named_children(&mut cursor)
                .filter(|c| c.kind() == "property_element")
                .filter_map(|e| name_of(e, src))
                .collect();
            Step::all(names, "field")
        }
        (Grammar::Php, "const_declaration") => {
            let mut cursor = node.walk();
            let names: Vec<String> = node
                .named_children(&mut cursor)
                .filter(|c| c.kind() == "const_element")
                .filter_map(|e| child_of_kind(e, &["name"]).map(|n| text_of(n, src).to_owned()))
                .collect();
            Step::all(names, "const")
        }
        (Grammar::Php, "namespace_definition") => Step::read_on(),
        (Grammar::Ruby, "assignment") => {
            let name =
                node.child_by_field_name("left").filter(|l| l.kind() == "constant").map(|l| text_of(l, src).to_owned());
            Step::def(name, "const", false, false)
        }
        (Grammar::C | Grammar::Cpp, "function_definition") => {
            let found = node.child_by_field_name("declarator").and_then(|d| declarator_name(d, src));
            match found {
                Some((name, Some(scope))) => {
                    Step { defs: vec![(name, "function")], scope: Some(scope), container: None, descend: false }
                }
                Some((name, None)) => Step::def(Some(name), "function", false, false),
                None => Step::stop(),
            }
        }
        // A prototype (`int parse(const char *s);`) in a header: the function's declaration.
        (Grammar::C | Grammar::Cpp, "declaration" | "field_declaration") => {
            let mut cursor = node.walk();
            let mut defs = Vec::new();
            for d in node.children_by_field_name("declarator", &mut cursor) {
                let function =
                    d.kind() == "function_declarator" || child_of_kind(d, &["function_declarator"]).is_some();
                let field = kind == "field_declaration";
                if function || field {
                    if let Some((name, _)) = declarator_name(d, src) {
                        defs.push((name, if function { "function" } else { "field" }));
                    }
                }
            }
            Step { defs, scope: None, container: None, descend: false }
        }
        (Grammar::C | Grammar::Cpp, "type_definition") => {
            let name = node.child_by_field_name("declarator").and_then(|d| declarator_name(d, src)).map(|(n, _)| n);
            Step { defs: name.into_iter().map(|n| (n, "type")).collect(), scope: None, container: None, descend: true }
        }
        (Grammar::Cpp, "alias_declaration") => Step::def(name_of(node, src), "type", false, false),
        (Grammar::C | Grammar::Cpp, "preproc_def" | "preproc_function_def") => {
            Step::def(name_of(node, src), "macro", false, false)
        }
        (Grammar::C | Grammar::Cpp, "enumerator") => Step::def(name_of(node, src), "variant", false, false),
        _ => Step::read_on(),
    }
}
