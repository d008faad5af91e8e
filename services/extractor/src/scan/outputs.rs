//! Where the text says a build writes: "Binaries are output to `bin/`", "compiled into
//! `dist/`", "the site is built into `_site/`", or a project template does ("The template
//! generates a `scalafix/` directory"). Such a folder holds what a build makes, which a
//! checkout does not have (or once had by mistake): the mention is no claim that it is there,
//! and neither is any path the memory names below it ("run `bin/message-info-gtk4`" further
//! down). Each such folder is reported as not checked, with the line that says so.
//!
//! A list item that calls its folders build output says the same: "`bin/`, `obj/`, `target/` –
//! compiled output", and so does a line labelled so: "**Build artifacts.** Treat `vendor/`,
//! `public/build/` as read-only".
//!
//! Only words that say the build puts its output there count. "Generated" does not (generated
//! code is often kept in the repository), nor "placed" or "saved" ("tests are placed in
//! `tests/`" describes the layout).

use std::ops::Range;

use super::doc::Doc;

/// The words right before a folder that say a build writes into it.
const WRITTEN_INTO: &[&str] = &[
    "output to",
    "output into",
    "outputs to",
    "outputs into",
    "outputted to",
    "outputted into",
    "written to",
    "written into",
    "built to",
    "built into",
    "compiled to",
    "compiled into",
    "emitted to",
    "emitted into",
    // a project template or generator writes a new project: "The template generates a
    // `scalafix/` directory" (the reader's project, not this repository)
    "template generates",
    "template creates",
    "templates generate",
    "generator generates",
    "generator creates",
];

/// Words that may stand between those and the folder: "output to the `bin/` directory".
const FILLER: &[&str] = &["the", "a", "its", "their", "your"];

/// How far before a mention its cue is looked for, in bytes.
const WINDOW: usize = 48;

/// Whether the mention starting at `start` in the sentence `orig[range]` is a folder the text
/// says a build writes into.
pub(super) fn written_into(orig: &str, range: &Range<usize>, start: usize) -> bool {
    if start < range.start || start > range.end {
        return false;
    }
    let mut from = start.saturating_sub(WINDOW).max(range.start);
    while !orig.is_char_boundary(from) {
        from += 1;
    }
    let before = orig[from..start].to_lowercase();
    let mut words: Vec<&str> = before.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    while words.last().is_some_and(|w| FILLER.contains(w)) {
        words.pop();
    }
    let tail = words.iter().rev().take(2).rev().copied().collect::<Vec<_>>().join(" ");
    WRITTEN_INTO.contains(&tail.as_str())
}

/// What a list item says its folders are, after a dash or colon, when it calls them build output.
const DESCRIBED_AS: &[&str] = &[
    "compiled output",
    "compiled outputs",
    "compiled artifacts",
    "build output",
    "build outputs",
    "build artifacts",
    "build artefacts",
    "build products",
];

/// Whether the text after the mention ending at `end` in the sentence `orig[range]` calls it
/// (with the mentions listed beside it) build output: "`bin/`, `obj/`, `target/` – compiled
/// output".
pub(super) fn described_as_output(orig: &str, range: &Range<usize>, end: usize) -> bool {
    if end < range.start || end > range.end {
        return false;
    }
    let mut rest = &orig[end..range.end];
    // The other mentions of the list: "`, `obj/`, and `target/`".
    loop {
        let t = rest.trim_start_matches([',', ' ', '\t']);
        let t = t.strip_prefix("and ").or_else(|| t.strip_prefix("or ")).unwrap_or(t).trim_start();
        match t.strip_prefix('`').and_then(|s| s.find('`').map(|i| &s[i + 1..])) {
            Some(after) => rest = after,
            None => {
                rest = t;
                break;
            }
        }
    }
    let Some(rest) = ['–', '—', '-', ':'].iter().find_map(|d| rest.strip_prefix(*d)) else { return false };
    let text = rest.trim_start().to_lowercase();
    let text = text.strip_prefix("the ").or_else(|| text.strip_prefix("all ")).unwrap_or(&text);
    DESCRIBED_AS.iter().any(|cue| {
        // The description ends there: "compiled output. You never ...", not "compiled output is
        // compared here".
        text.strip_prefix(cue)
            .is_some_and(|after| after.trim_start().chars().next().is_none_or(|c| ".,;:()".contains(c)))
    })
}

/// Whether the line opens with a label that calls what it lists build output: "**Build
/// artifacts.** Treat `vendor/`, `public/build/` as read-only", "Build outputs: `dist/`,
/// `out/`". The label ends at a period or colon (bold or not); "Build output goes to the
/// console" is a sentence, not a label.
pub(super) fn labelled_as_output(line: &str) -> bool {
    let text = line.trim_start().trim_start_matches(['*', '_']).to_lowercase();
    DESCRIBED_AS.iter().any(|cue| {
        text.strip_prefix(cue).is_some_and(|after| {
            let after = after.trim_start_matches(['*', '_']);
            after.starts_with(['.', ':']) || after.trim_start().starts_with(['—', '–'])
        })
    })
}

/// Marks every file mention at or below a build-output folder of the memory as no claim
/// (`denied_files`), and records, per folder, how many mentions that took (`Doc::outputs`).
pub(super) fn deny_below_outputs(doc: &mut Doc) {
    if doc.outputs.is_empty() {
        return;
    }
    let folders: Vec<String> = doc.outputs.iter().map(|o| o.folder.clone()).collect();
    for s in &mut doc.sentences {
        for (i, f) in s.files.iter().enumerate() {
            let Some(path) = f.readings.first() else { continue };
            let Some(k) = folders.iter().position(|d| path == d || path.starts_with(&format!("{d}/"))) else {
                continue;
            };
            if !s.denied_files.contains(&i) {
                s.denied_files.push(i);
            }
            doc.outputs[k].mentions += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{described_as_output, labelled_as_output, written_into};

    fn at(text: &str, mention: &str) -> bool {
        written_into(text, &(0..text.len()), text.find(mention).unwrap())
    }

    #[test]
    fn a_line_labelled_build_output() {
        assert!(labelled_as_output("**Build artifacts.** Treat `vendor/`, `public/build/` as read-only."));
        assert!(labelled_as_output("Build outputs: `dist/`, `out/`"));
        assert!(labelled_as_output("*Build output* — `bin/` and `obj/`"));
        assert!(!labelled_as_output("Build output goes to the console, not `logs/`."));
        assert!(!labelled_as_output("The build artifacts: `dist/`."), "a label opens the line");
    }

    #[test]
    fn folders_a_build_writes_into() {
        assert!(at("Binaries are output to `bin/` directory with variants.", "`bin/`"));
        assert!(at("The site is built into the `_site/` folder.", "`_site/`"));
        assert!(at("TypeScript is compiled to `dist/`.", "`dist/`"));
        assert!(!at("Generated clients live in `src/gen/`.", "`src/gen/`"));
        assert!(!at("Tests are placed in `tests/`.", "`tests/`"));
        assert!(!at("The output of `make` goes to the console.", "`make`"));
        assert!(!at("Read `docs/output.md` before you change `src/out/`.", "`src/out/`"));
    }

    fn described(text: &str, mention: &str) -> bool {
        let end = text.find(mention).unwrap() + mention.len();
        described_as_output(text, &(0..text.len()), end)
    }

    #[test]
    fn folders_a_list_item_calls_build_output() {
        let item = "- `bin/`, `obj/`, `target/` – compiled output. You never need to look in here.";
        assert!(described(item, "`bin/`"));
        assert!(described(item, "`target/`"));
        assert!(described("- `dist/` and `build/`: build artifacts", "`dist/`"));
        assert!(!described("- `src/` – the compiler's sources", "`src/`"));
        assert!(!described("- `tests/` – compiled output is compared here", "`tests/`"));
        assert!(!described("- `gen/` – generated code, kept in git", "`gen/`"));
        assert!(!described("- `out/` – build outputsfoo", "`out/`"));
    }
}
