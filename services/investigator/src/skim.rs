//! Rust source with every function body emptied, for a faster tree-sitter parse. Also
//! emptied: every `const`/`static` table (`= [..];`, `= &[..];`) without a macro call in it,
//! and every comment outside a macro call; newlines are kept throughout. Neither tables nor
//! comments hold a definition, so the definitions found are the same, for about 40% of the
//! bytes.
//!
//! The definition walk ([`crate::symbols`]) never descends into a `block`, so what a
//! function body holds cannot change the definitions of a file; yet parsing the bodies is
//! most of the parse. [`without_fn_bodies`] keeps every byte outside function bodies and,
//! inside each body, only its newlines, so every row (the definitions' lines) stays where it
//! was. Macro calls and `macro_rules!` are kept whole: the walk reads a macro call's text line
//! by line, bodies included. Anything the scanner does not understand (unbalanced or
//! mismatched delimiters, an unterminated literal or comment) gives `None`, and the caller
//! parses the text as it is.
//!
//! Checked against parsing the whole text over every `.rs` file of a cargo registry by the
//! `rust_skim` bench bin (BENCHMARKS.md §2).
//!
//! Skimming must never change a definition: whatever it drops is something the walk does not
//! read, and any file where that cannot be told is parsed whole.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok {
    Ident,
    /// `!`
    Bang,
    /// `;`
    Semi,
    Open(u8),
    Close(u8),
    /// Literals, lifetimes and any other punctuation.
    Other,
}

/// Tokens of `src` as (kind, start byte, end byte), and the byte ranges of its comments;
/// `None` for an unterminated literal or comment.
#[allow(clippy::type_complexity)]
fn tokens(src: &[u8]) -> Option<(Vec<(Tok, usize, usize)>, Vec<(usize, usize)>)> {
    let n = src.len();
    let mut out = Vec::with_capacity(n / 4);
    let mut comments = Vec::new();
    let mut i = 0;
    while i < n {
        let c = src[i];
        let start = i;
        match c {
            b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            b'/' if src.get(i + 1) == Some(&b'/') => {
                i = memchr(b'\n', &src[i..]).map_or(n, |p| i + p);
                comments.push((start, i));
            }
            b'/' if src.get(i + 1) == Some(&b'*') => {
                let mut depth = 1;
                i += 2;
                while depth > 0 {
                    match (src.get(i), src.get(i + 1)) {
                        (Some(b'/'), Some(b'*')) => {
                            depth += 1;
                            i += 2;
                        }
                        (Some(b'*'), Some(b'/')) => {
                            depth -= 1;
                            i += 2;
                        }
                        (Some(_), _) => i += 1,
                        (None, _) => return None,
                    }
                }
                comments.push((start, i));
            }
            b'"' => {
                i = string_end(src, i + 1)?;
                out.push((Tok::Other, start, i));
            }
            b'\'' => {
                i = quote_end(src, i)?;
                out.push((Tok::Other, start, i));
            }
            b'(' | b'[' | b'{' => {
                out.push((Tok::Open(c), i, i + 1));
                i += 1;
            }
            b')' | b']' | b'}' => {
                out.push((Tok::Close(c), i, i + 1));
                i += 1;
            }
            b'!' => {
                out.push((Tok::Bang, i, i + 1));
                i += 1;
            }
            b';' => {
                out.push((Tok::Semi, i, i + 1));
                i += 1;
            }
            c if c == b'_' || c.is_ascii_alphanumeric() || c >= 0x80 => {
                while i < n && (src[i] == b'_' || src[i].is_ascii_alphanumeric() || src[i] >= 0x80) {
                    i += 1;
                }
                let word = &src[start..i];
                // Raw strings (`r"..."`, `br#"..."#`, `cr"..."`) and raw identifiers (`r#fn`).
                if matches!(word, b"r" | b"br" | b"cr") && matches!(src.get(i), Some(b'"' | b'#')) {
                    let mut hashes = 0;
                    while src.get(i + hashes) == Some(&b'#') {
                        hashes += 1;
                    }
                    if src.get(i + hashes) == Some(&b'"') {
                        i = raw_string_end(src, i + hashes + 1, hashes)?;
                        out.push((Tok::Other, start, i));
                        continue;
                    }
                    if word == b"r" && hashes == 1 {
                        i += 1;
                        while i < n && (src[i] == b'_' || src[i].is_ascii_alphanumeric() || src[i] >= 0x80) {
                            i += 1;
                        }
                        // A raw identifier (never the `fn` keyword: its text keeps the `r#`).
                        out.push((Tok::Ident, start, i));
                        continue;
                    }
                }
                out.push((Tok::Ident, start, i));
            }
            _ => {
                out.push((Tok::Other, i, i + 1));
                i += 1;
            }
        }
    }
    Some((out, comments))
}

fn memchr(needle: u8, hay: &[u8]) -> Option<usize> {
    hay.iter().position(|&b| b == needle)
}

/// The end (exclusive) of a string literal whose contents start at `i`.
fn string_end(src: &[u8], mut i: usize) -> Option<usize> {
    loop {
        match src.get(i)? {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
}

fn raw_string_end(src: &[u8], mut i: usize, hashes: usize) -> Option<usize> {
    loop {
        let p = i + memchr(b'"', src.get(i..)?)?;
        let closing = src.len() >= p + 1 + hashes && src[p + 1..p + 1 + hashes].iter().all(|&b| b == b'#');
        if closing {
            return Some(p + 1 + hashes);
        }
        i = p + 1;
    }
}

/// The end of a character literal or lifetime starting with the `'` at `i`.
fn quote_end(src: &[u8], i: usize) -> Option<usize> {
    match src.get(i + 1)? {
        // An escape: a character literal up to its closing quote.
        b'\\' => {
            let from = i + 3;
            Some(from + memchr(b'\'', src.get(from..)?)? + 1)
        }
        _ => {
            // One character (of however many bytes) and a quote: a character literal;
            // otherwise a lifetime or label, which ends with its identifier.
            let first = src[i + 1];
            let width = match first {
                0x00..=0x7f => 1,
                0xc0..=0xdf => 2,
                0xe0..=0xef => 3,
                _ => 4,
            };
            if src.get(i + 1 + width) == Some(&b'\'') {
                return Some(i + 2 + width);
            }
            let mut j = i + 1;
            while j < src.len() && (src[j] == b'_' || src[j].is_ascii_alphanumeric() || src[j] >= 0x80) {
                j += 1;
            }
            Some(j.max(i + 1))
        }
    }
}

/// `src` with the contents of every function body replaced by its newlines, or `None` when
/// the scan is unsure (see the module docs).
pub fn without_fn_bodies(src: &str) -> Option<String> {
    let bytes = src.as_bytes();
    let (toks, comments) = tokens(bytes)?;
    // The matching delimiter of every open one; any mismatch and the text is parsed whole.
    let mut partner = vec![usize::MAX; toks.len()];
    let mut stack: Vec<usize> = Vec::new();
    for (t, (kind, ..)) in toks.iter().enumerate() {
        match *kind {
            Tok::Open(_) => stack.push(t),
            Tok::Close(c) => {
                let o = stack.pop()?;
                let Tok::Open(open) = toks[o].0 else { return None };
                if !matches!((open, c), (b'(', b')') | (b'[', b']') | (b'{', b'}')) {
                    return None;
                }
                partner[o] = t;
                partner[t] = o;
            }
            _ => {}
        }
    }
    if !stack.is_empty() {
        return None;
    }
    let text = |t: usize| &bytes[toks[t].1..toks[t].2];
    let kind_at = |t: usize| toks.get(t).map(|x| x.0);
    // Whether the token at `t` begins an item (after `;`, a brace, an attribute or `pub`).
    let item_start = |t: usize| match t.checked_sub(1).map(|p| (p, toks[p].0)) {
        None => true,
        Some((_, Tok::Semi | Tok::Open(b'{') | Tok::Close(b'}' | b']'))) => true,
        Some((p, Tok::Ident)) => text(p) == b"pub",
        Some((p, Tok::Close(b')'))) => {
            partner[p].checked_sub(1).is_some_and(|q| kind_at(q) == Some(Tok::Ident) && text(q) == b"pub")
        }
        Some(_) => false,
    };
    // Byte ranges to empty: the inside of each body's braces and of each table's brackets,
    // and every comment outside a macro call (`kept`).
    let mut cuts: Vec<(usize, usize)> = Vec::new();
    let mut kept: Vec<(usize, usize)> = Vec::new();
    // The value of the `const`/`static` at `t` when it is `[..]` or `&[..]` followed by `;`
    // with no `!` inside: the index of its `[` and its `]`.
    let table_value = |t: usize| -> Option<(usize, usize)> {
        let mut k = t + 1;
        loop {
            match kind_at(k)? {
                Tok::Open(_) => k = partner[k] + 1,
                Tok::Semi | Tok::Close(_) => return None,
                Tok::Other if text(k) == b"=" => break,
                _ => k += 1,
            }
        }
        k += 1;
        while kind_at(k) == Some(Tok::Other) && text(k) == b"&" {
            k += 1;
        }
        if kind_at(k) != Some(Tok::Open(b'[')) {
            return None;
        }
        let close = partner[k];
        if kind_at(close + 1) != Some(Tok::Semi) || toks[k..close].iter().any(|x| x.0 == Tok::Bang) {
            return None;
        }
        Some((k, close))
    };
    let mut t = 0;
    while t < toks.len() {
        let kind = toks[t].0;
        // A macro call or `macro_rules!` (`name! (..)`, `name! name {..}`): kept whole.
        if kind == Tok::Ident && toks.get(t + 1).map(|x| x.0) == Some(Tok::Bang) {
            let mut d = t + 2;
            if toks.get(d).map(|x| x.0) == Some(Tok::Ident) {
                d += 1;
            }
            if let Some((Tok::Open(_), ..)) = toks.get(d) {
                kept.push((toks[d].1, toks[partner[d]].2));
                t = partner[d] + 1;
                continue;
            }
        }
        // `const NAME: T = [..];` or `static NAME: T = &[..];` at the start of an item: an
        // array with no macro call in it defines nothing (every block is skipped; a macro
        // call is read line by line, so one anywhere in it keeps it whole), and generated
        // tables of this shape are large.
        if kind == Tok::Ident && matches!(text(t), b"const" | b"static") && item_start(t) {
            if let Some((open, close)) = table_value(t) {
                if toks[close].1 > toks[open].2 {
                    cuts.push((toks[open].2, toks[close].1));
                }
                t = close + 1;
                continue;
            }
        }
        // `fn name ... { body }`: the first `{` outside parentheses and brackets, unless a
        // `;` (a signature) or the end of the enclosing item comes first. `fn(` is a type.
        if kind == Tok::Ident && text(t) == b"fn" && toks.get(t + 1).map(|x| x.0) == Some(Tok::Ident) {
            let mut k = t + 2;
            while k < toks.len() {
                match toks[k].0 {
                    Tok::Open(b'{') => {
                        let close = partner[k];
                        if toks[close].1 > toks[k].2 {
                            cuts.push((toks[k].2, toks[close].1));
                        }
                        k = close;
                        break;
                    }
                    Tok::Open(_) => k = partner[k] + 1,
                    Tok::Semi | Tok::Close(_) => break,
                    _ => k += 1,
                }
            }
            t = k.max(t + 1);
            continue;
        }
        t += 1;
    }
    // Both lists are in source order and `kept` ranges do not overlap.
    let mut in_macro = kept.iter().peekable();
    for (from, to) in comments {
        while in_macro.next_if(|m| m.1 <= from).is_some() {}
        if in_macro.peek().is_none_or(|m| m.0 > from) {
            cuts.push((from, to));
        }
    }
    cuts.sort_unstable();
    // A range keeps its newlines, or becomes one space (a comment between two words must
    // still part them); overlapping ranges are emptied as one.
    let mut out = String::with_capacity(src.len());
    let mut at = 0;
    for (from, to) in cuts {
        let from = from.max(at);
        if from >= to {
            continue;
        }
        out.push_str(&src[at..from]);
        let newlines = bytes[from..to].iter().filter(|&&b| b == b'\n').count();
        if newlines == 0 {
            out.push(' ');
        }
        out.extend(std::iter::repeat_n('\n', newlines));
        at = to;
    }
    out.push_str(&src[at..]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_are_emptied_and_lines_kept() {
        let src =
            "fn a() {\n    let x = 1;\n}\nstruct S { f: fn(u8) -> u8 }\nimpl S {\n    pub fn b(&self) -> u8 { 2 }\n}\n";
        let out = without_fn_bodies(src).expect("skimmed");
        assert_eq!(out, "fn a() {\n\n}\nstruct S { f: fn(u8) -> u8 }\nimpl S {\n    pub fn b(&self) -> u8 { }\n}\n");
    }

    #[test]
    fn signatures_macros_and_literals_are_kept() {
        // A signature has no body; a macro call is kept whole (its text is read line by line).
        let src = "extern \"C\" { fn f(x: u8); }\ncfg_if! { if #[cfg(x)] { fn g() { struct Inner; } } }\nmacro_rules! m { () => { fn h() { 1 } } }\n";
        assert_eq!(without_fn_bodies(src).as_deref(), Some(src));
        // Braces inside strings, raw strings, chars and comments do not count.
        let src = "fn a() { let s = \"}\"; let r = r#\"}\"#; let c = '}'; /* } /* } */ */ // }\n}\nfn b<'a>(x: &'a str) -> char { '\\u{7d}' }\nfn r#fn() { x }\n";
        let out = without_fn_bodies(src).expect("skimmed");
        assert_eq!(out, "fn a() {\n}\nfn b<'a>(x: &'a str) -> char { }\nfn r#fn() { }\n");
    }

    #[test]
    fn comments_are_emptied_outside_macro_calls() {
        let src = "/// doc\nstruct A; /* x\n y */ struct B;/*c*/struct C;\nm! { // kept\n}\n";
        let out = without_fn_bodies(src).expect("skimmed");
        assert_eq!(out, " \nstruct A; \n struct B; struct C;\nm! { // kept\n}\n");
    }

    #[test]
    fn tables_of_consts_and_statics_are_emptied_unless_a_macro_is_in_them() {
        let src = "pub const T: &[(u32, u32)] = &[\n    (1, 2),\n];\nstatic U: [u8; 2] = [1, 2];\nconst V: [u8; 1] = [m!(1)];\nstruct S<const N: usize = 3> { f: [u8; N] }\nconst W: u8 = [1][0];\n";
        let out = without_fn_bodies(src).expect("skimmed");
        assert_eq!(out, "pub const T: &[(u32, u32)] = &[\n\n];\nstatic U: [u8; 2] = [ ];\nconst V: [u8; 1] = [m!(1)];\nstruct S<const N: usize = 3> { f: [u8; N] }\nconst W: u8 = [1][0];\n");
    }

    #[test]
    fn what_it_does_not_understand_is_left_to_the_parser() {
        assert_eq!(without_fn_bodies("fn a() { ( }"), None);
        assert_eq!(without_fn_bodies("fn a() { \"open"), None);
        assert_eq!(without_fn_bodies("fn a() {} /* open"), None);
    }
}
