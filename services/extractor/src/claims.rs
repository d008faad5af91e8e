//! From mentions to claims: one claim per file, symbol, config key and line content, plus a
//! claim per behavioral or architectural sentence; then deduplicated in the memory's order,
//! a repeated claim keeping every line that makes it (`Claim::lines`). Nothing is capped:
//! docs/contracts.md §2 rule 5's limit of [`MAX_CLAIMS`] applies to a model's output only
//! (`llm::contract`), so every reference a memory makes is checked.
//!
//! Every reference becomes a claim, in the memory's order; a claim made again on another line is
//! one claim whose `lines` lists every line; a code ref resolved from what the memory wrote (a
//! tree row, a section's folder, the notes file's folder) keeps the text as `written`.

use std::collections::hash_map::{Entry, HashMap};

use memval_proto::{Assertion, Claim, ClaimType, CodeRef};

use crate::mentions::{ConfigMention, FileMention, SymbolMention};
use crate::paths;
use crate::scan::{Doc, Sentence};

/// docs/contracts.md §2 rule 5, for model output only.
pub(crate) const MAX_CLAIMS: usize = 8;
/// The code ref path of a symbol or key named without a file: anywhere in the repo.
const ANYWHERE: &str = ".";

pub(crate) fn build(doc: &Doc) -> Vec<Claim> {
    let near_file = paragraph_fallback(doc, |f| !paths::folder_like(&f.tok));
    let near_config = paragraph_config(doc);
    let mut out = Vec::new();
    for (si, s) in doc.sentences.iter().enumerate() {
        for (i, f) in s.files.iter().enumerate() {
            if !s.denied_files.contains(&i) {
                let mut claim = file_claim(s, f);
                if s.snippet_files.contains(&i) {
                    claim.assertion = Some(Assertion::SnippetFile);
                }
                out.push(claim);
            }
        }
        for lt in &s.line_texts {
            out.push(line_claim(s, &s.files[lt.file], &lt.text));
        }
        // A symbol's file is one of its own sentence, else the file the enclosing section or
        // list item is about, else anywhere: another sentence's file is not lent to it
        // ("Line 40 of `a.rs` is long. `Context` needs a reviewer." says nothing of where
        // `Context` is). Only a line number needs a file to count in: "... in lru.go. The
        // ShardedCache struct (L45) ..." is line 45 of the file just named.
        let targets: Vec<Option<&FileMention>> = s
            .symbols
            .iter()
            .map(|sym| {
                if sym.free {
                    return None;
                }
                let lent = sym.line.and(near_file[si]).map(|(k, i)| &doc.sentences[k].files[i]);
                sym.file.map(|i| &s.files[i]).or(lent).or_else(|| s.anchor.map(|a| &doc.anchors[a]))
            })
            .collect();
        for (sym, target) in s.symbols.iter().zip(&targets) {
            out.push(symbol_claim(s, sym, *target));
        }
        for c in &s.configs {
            let target = c
                .file
                .map(|i| &s.files[i])
                .or_else(|| near_config[si].map(|(k, i)| &doc.sentences[k].files[i]))
                .or_else(|| s.anchor.map(|a| &doc.anchors[a]).filter(|f| f.tok.has_config_ext()));
            out.push(config_claim(s, c, target));
        }
        for v in &s.versions {
            out.push(version_claim(s, v));
        }
        if let Some(claim_type) = s.behaviour {
            let refs = s
                .files
                .iter()
                .enumerate()
                .filter(|(i, _)| !s.denied_files.contains(i))
                .map(|(_, f)| file_ref(f))
                .chain(s.symbols.iter().zip(&targets).map(|(sym, t)| symbol_ref(sym, *t)));
            out.push(sentence_claim(s, claim_type, refs));
        }
    }
    select(out)
}

/// For each sentence, the last file satisfying `want` named by an earlier sentence of the
/// same paragraph: "... in internal/cache/lru.go. The `ShardedCache` struct (L45) ..." (a
/// symbol's line is counted in some file), "`max_connections = 100` in\n`config/app.toml`"
/// (a sentence wrapped over two lines). Later sentences are not looked at: "Use `foo()`.
/// Never edit `gen.rs`." does not put `foo` in `gen.rs`.
fn paragraph_fallback(doc: &Doc, want: impl Fn(&FileMention) -> bool) -> Vec<Option<(usize, usize)>> {
    let mut out = vec![None; doc.sentences.len()];
    let mut last: Option<(u32, usize, usize)> = None;
    for (si, s) in doc.sentences.iter().enumerate() {
        if let Some((p, k, i)) = last {
            if p == s.paragraph {
                out[si] = Some((k, i));
            }
        }
        if let Some(i) = s.files.iter().rposition(&want) {
            last = Some((s.paragraph, si, i));
        }
    }
    out
}

/// For each sentence, the config file of its paragraph closest to it, before or after:
/// "`max_connections = 100` in\n`config/app.toml`" wraps a sentence over two lines.
fn paragraph_config(doc: &Doc) -> Vec<Option<(usize, usize)>> {
    let want = |f: &FileMention| !paths::folder_like(&f.tok) && f.tok.has_config_ext();
    let mut out = paragraph_fallback(doc, want);
    let mut next: Option<(u32, usize, usize)> = None;
    for si in (0..doc.sentences.len()).rev() {
        let s = &doc.sentences[si];
        if out[si].is_none() {
            out[si] = next.filter(|(p, _, _)| *p == s.paragraph).map(|(_, k, i)| (k, i));
        }
        if let Some(i) = s.files.iter().position(want) {
            next = Some((s.paragraph, si, i));
        }
    }
    out
}

/// The text as written, when it differs from the path it was resolved to. A tree diagram's row
/// writes its folders by its place in the tree (`test_install` under `e2e/cli/`): what it wrote
/// is the whole path, not the row's bare name.
fn written(f: &FileMention) -> Option<String> {
    let as_written = if f.tok.path != f.raw { &f.tok.path } else { &f.raw };
    (*as_written != f.readings[0]).then(|| as_written.clone())
}

fn file_ref(f: &FileMention) -> CodeRef {
    CodeRef {
        path: f.readings[0].clone(),
        symbol: None,
        line: f.tok.line,
        written: written(f),
        alt_paths: f.readings[1..].to_vec(),
    }
}

fn symbol_ref(sym: &SymbolMention, target: Option<&FileMention>) -> CodeRef {
    let (path, alt_paths) = match target {
        Some(f) => (f.readings[0].clone(), f.readings[1..].to_vec()),
        None => (ANYWHERE.to_string(), Vec::new()),
    };
    CodeRef { path, symbol: Some(sym.name.clone()), line: sym.line, written: target.and_then(written), alt_paths }
}

fn file_claim(s: &Sentence, f: &FileMention) -> Claim {
    let shown = if f.tok.dir { format!("{}/", f.raw) } else { f.raw.clone() };
    let path = &f.readings[0];
    let kind = if f.tok.dir { "directory " } else { "" };
    let whole = match f.tok.line {
        Some(n) => format!("line {n} of {kind}`{shown}`"),
        None => format!("{kind}`{shown}`"),
    };
    let claim_text = if f.raw == *path { format!("{whole} exists") } else { format!("{whole} exists at {path}") };
    Claim {
        claim_type: ClaimType::FileReference,
        claim_text,
        line: s.line,
        lines: Vec::new(),
        code_refs: vec![file_ref(f)],
        assertion: None,
    }
}

fn line_claim(s: &Sentence, f: &FileMention, text: &str) -> Claim {
    let r = file_ref(f);
    let claim_text = format!("line {} of {} contains `{text}`", r.line.unwrap_or_default(), r.path);
    Claim {
        claim_type: ClaimType::LineContent,
        claim_text,
        line: s.line,
        lines: Vec::new(),
        code_refs: vec![r],
        assertion: Some(Assertion::LineText { text: text.to_string() }),
    }
}

fn symbol_claim(s: &Sentence, sym: &SymbolMention, target: Option<&FileMention>) -> Claim {
    let r = symbol_ref(sym, target);
    // A key-shaped name tied to a config file is a setting, not a definition.
    if target.is_some_and(|f| f.tok.has_config_ext()) && sym.shape.key_like() {
        let claim = Claim {
            claim_type: ClaimType::Configuration,
            claim_text: format!("config key `{}` is set in {}", sym.name, r.path),
            line: s.line,
            lines: Vec::new(),
            code_refs: vec![r],
            assertion: None,
        };
        return claim;
    }
    let claim_text = match (r.path.as_str(), r.line) {
        (ANYWHERE, None) => format!("`{}` is defined in the repo", sym.name),
        (ANYWHERE, Some(n)) => format!("`{}` (line {n}) is defined in the repo", sym.name),
        (path, None) => format!("`{}` is defined in {path}", sym.name),
        (path, Some(n)) => format!("`{}` is defined at {path}:{n}", sym.name),
    };
    Claim {
        claim_type: ClaimType::SymbolReference,
        claim_text,
        line: s.line,
        lines: Vec::new(),
        code_refs: vec![r],
        assertion: None,
    }
}

fn config_claim(s: &Sentence, c: &ConfigMention, target: Option<&FileMention>) -> Claim {
    let (path, alt_paths) = match target {
        Some(f) => (f.readings[0].clone(), f.readings[1..].to_vec()),
        None => (ANYWHERE.to_string(), Vec::new()),
    };
    let written = target.and_then(written);
    let place = if path == ANYWHERE { String::new() } else { format!(" in {path}") };
    let (claim_text, assertion) = match &c.value {
        Some(v) => {
            (format!("`{}` = {v}{place}", c.key), Some(Assertion::ConfigValue { key: c.key.clone(), value: v.clone() }))
        }
        None if path == ANYWHERE => (format!("config key `{}` is used in the repo", c.key), None),
        None => (format!("config key `{}` is set{place}", c.key), None),
    };
    let code_ref = CodeRef { path, symbol: Some(c.key.clone()), line: None, written, alt_paths };
    Claim {
        claim_type: ClaimType::Configuration,
        claim_text,
        line: s.line,
        lines: Vec::new(),
        code_refs: vec![code_ref],
        assertion,
    }
}

/// "Scala 3.6.4": the version the repository pins for that tool, wherever it pins it.
fn version_claim(s: &Sentence, v: &crate::versions::ToolVersion) -> Claim {
    Claim {
        claim_type: ClaimType::Configuration,
        claim_text: format!("{} {} is the version the repository pins", v.tool, v.version),
        line: s.line,
        lines: Vec::new(),
        code_refs: vec![CodeRef::path(ANYWHERE)],
        assertion: Some(Assertion::ToolVersion { tool: v.tool.to_owned(), version: v.version.clone() }),
    }
}

fn sentence_claim(s: &Sentence, claim_type: ClaimType, refs: impl Iterator<Item = CodeRef>) -> Claim {
    // Every reference the sentence makes is kept: the investigator checks each one, so a
    // cap here would drop references silently.
    let mut code_refs: Vec<CodeRef> = Vec::new();
    for r in refs {
        if !code_refs.iter().any(|c| c.path == r.path && c.symbol == r.symbol && c.line == r.line) {
            code_refs.push(r);
        }
    }
    Claim { claim_type, claim_text: s.text.clone(), line: s.line, lines: Vec::new(), code_refs, assertion: None }
}

/// Each claim once, in the memory's order; a claim made again on another line keeps its
/// first place and adds that line to `lines`.
fn select(candidates: Vec<Claim>) -> Vec<Claim> {
    let mut first: HashMap<_, usize> = HashMap::new();
    let mut unique: Vec<Claim> = Vec::new();
    for mut claim in candidates {
        if claim.code_refs.is_empty() || claim.code_refs.iter().any(|r| r.path.is_empty()) {
            continue;
        }
        match first.entry(identity(&claim)) {
            Entry::Occupied(at) => {
                let kept = &mut unique[*at.get()];
                if !kept.lines.contains(&claim.line) {
                    kept.lines.push(claim.line);
                }
            }
            Entry::Vacant(slot) => {
                slot.insert(unique.len());
                claim.lines = vec![claim.line];
                unique.push(claim);
            }
        }
    }
    unique
}

type RefKey = (String, Option<String>, Option<u32>);

/// What makes two claims the same: type, anchors (paths, symbols, lines) and assertion; for
/// sentence claims also the sentence.
fn identity(c: &Claim) -> (ClaimType, Vec<RefKey>, Option<Assertion>, Option<String>) {
    let refs = c.code_refs.iter().map(|r| (r.path.clone(), r.symbol.clone(), r.line)).collect();
    let text = matches!(c.claim_type, ClaimType::Behavioral | ClaimType::Architectural).then(|| c.claim_text.clone());
    (c.claim_type, refs, c.assertion.clone(), text)
}
