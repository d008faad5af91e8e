//! Whether a type gets its members from another: `Pipeline.loads` is right when `loads` is
//! defined on `PipelineBase` and `class Pipeline(PipelineBase)` inherits it, and `Ctx.IP` when
//! the interface `Ctx` embeds one that declares `IP`.
//!
//! Read from the type's own definition, the way a reader of the code would: its header (from
//! the line the definition starts on to the line that opens its body, at most four lines) names
//! its bases in every mainstream language (`class A(B):`, `class A < B`, `class A extends B
//! implements C {`, `class A : public B {`, `struct A: B {`); a Go struct or interface lists
//! what it embeds as lines of its body that are just a type's name (`Req`, `*DefaultReq`,
//! `fasthttp.RequestCtx`). A base of a base counts, up to three levels, following only names
//! the repository defines as types.

use crate::index::RepoIndex;

/// How many levels of bases are followed from the type a memory names.
const DEPTH: usize = 3;
/// Lines of a header read for its bases, and lines of a Go body read for what it embeds.
const HEADER_LINES: u32 = 4;
const BODY_LINES: u32 = 400;
/// Definition kinds that can have bases or embed other types.
const TYPE_KINDS: &[&str] = &["type", "class", "interface", "struct", "trait", "protocol", "object", "enum", "module"];

/// Whether `ty` (a type the repository defines) has `base` among its bases, directly or
/// through bases the repository defines.
pub(crate) fn inherits(index: &RepoIndex, ty: &str, base: &str) -> bool {
    let mut level = vec![ty.to_owned()];
    let mut seen = vec![ty.to_owned()];
    for _ in 0..DEPTH {
        let mut next = Vec::new();
        for t in &level {
            let bases = bases_of(index, t);
            if bases.iter().any(|b| b == base) {
                return true;
            }
            for b in bases {
                if !seen.contains(&b) && index.defs_named(&b).any(|(_, d)| TYPE_KINDS.contains(&d.kind)) {
                    seen.push(b.clone());
                    next.push(b);
                }
            }
        }
        if next.is_empty() {
            return false;
        }
        level = next;
    }
    false
}

/// The names a type's definitions give as its bases or embedded types.
fn bases_of(index: &RepoIndex, ty: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (file, def) in index.defs_named(ty) {
        if !TYPE_KINDS.contains(&def.kind) {
            continue;
        }
        let Some(text) = index.read_text(&file.path) else { continue };
        let lines: Vec<&str> = text
            .lines()
            .skip(def.line.saturating_sub(1) as usize)
            .take((def.end_line - def.line + 1) as usize)
            .collect();
        for name in header_names(&lines, ty).into_iter().chain(embedded(&lines)) {
            if !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

/// The identifiers of a definition's header other than its own name and keywords: the header
/// ends at the line that opens the body (`{`, a trailing `:`, or Ruby's next line).
fn header_names(lines: &[&str], own: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in lines.iter().take(HEADER_LINES as usize) {
        let head = line.split('{').next().unwrap_or("");
        for word in head.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            let capital = word.starts_with(|c: char| c.is_uppercase());
            if capital && word != own && !out.iter().any(|w| w == word) {
                out.push(word.to_owned());
            }
        }
        let opens = line.contains('{') || line.trim_end().ends_with(':') || line.trim_start().starts_with("class ");
        if opens {
            break;
        }
    }
    out
}

/// Go's embedded types: body lines that are only a type's name, maybe a pointer, maybe
/// qualified by a package (`Req`, `*DefaultReq`, `fasthttp.RequestCtx`).
fn embedded(lines: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for line in lines.iter().skip(1).take(BODY_LINES as usize) {
        let code = line.split("//").next().unwrap_or("").trim();
        let name = code.trim_start_matches('*');
        let name = name.rsplit('.').next().unwrap_or(name);
        let plain = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_');
        if plain && name.starts_with(|c: char| c.is_uppercase()) && !code.contains(' ') {
            out.push(name.to_owned());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_name_bases_in_each_language() {
        assert_eq!(
            header_names(&["class Pipeline(PipelineBase):", "    def run(self):"], "Pipeline"),
            ["PipelineBase"]
        );
        assert_eq!(header_names(&["class Order < ApplicationRecord", "  def x; end"], "Order"), ["ApplicationRecord"]);
        assert_eq!(
            header_names(&["export class Router extends Base implements Handler {", "  m() {}"], "Router"),
            ["Base", "Handler"]
        );
        assert_eq!(header_names(&["class Cache : public Store<T> {"], "Cache"), ["Store", "T"]);
        // The body is not the header.
        assert!(header_names(&["struct A {", "    b: Other,", "}"], "A").is_empty());
    }

    #[test]
    fn go_bodies_embed_types() {
        let body = [
            "type Ctx interface {",
            "\tReq",
            "\t*Res // responses",
            "\tfasthttp.RequestCtx",
            "\tIP() string",
            "\tname string",
            "}",
        ];
        assert_eq!(embedded(&body), ["Req", "Res", "RequestCtx"]);
    }
}
