//! Every flag the README shows a command with is one of that command's flags.
//!
//! An invocation is the word `memval` in a code block or an inline code span and the words
//! after it, up to a shell separator (`&`, `&&`, `;`, `>`, a `#` comment, a `(` remark, or a
//! `|` that is a pipe, not an alternative: one before a word that is not a flag). A block's
//! line ending in `\` or followed by an indented line continues on the next. Its command is
//! the longest run of words naming subcommands (`judge change manifest`; `dlq list|replay`
//! names each alternative), read from `--help`'s command list; its flags are the words
//! beginning `--` (after `[` or `(`), without placeholders (`--llm-*`). Each flag must appear
//! in `memval COMMAND --help`, of the real binary.

use std::collections::HashMap;
use std::process::Command;

use crate::markdown::{code_spans, Doc};
use crate::readme;

/// `--help` of each command, asked once.
#[derive(Default)]
struct Helps(HashMap<Vec<String>, String>);

impl Helps {
    fn get(&mut self, command: &[String]) -> &str {
        self.0.entry(command.to_vec()).or_insert_with(|| {
            let out = Command::new(env!("CARGO_BIN_EXE_memval")).args(command).arg("--help").output().unwrap();
            assert!(out.status.success(), "memval {} --help failed", command.join(" "));
            String::from_utf8(out.stdout).unwrap()
        })
    }

    /// The subcommands `--help` of `command` lists under "Commands:".
    fn subcommands(&mut self, command: &[String]) -> Vec<String> {
        let help = self.get(command);
        let listed = help.lines().skip_while(|l| l.trim() != "Commands:").skip(1);
        listed
            .take_while(|l| l.starts_with("  "))
            .filter_map(|l| l.split_whitespace().next())
            .map(String::from)
            .collect()
    }
}

/// Whether `help` mentions `flag` as a whole word (`--store` is not `--store-dir`).
fn mentions(help: &str, flag: &str) -> bool {
    help.match_indices(flag).any(|(at, _)| {
        let next = help[at + flag.len()..].chars().next();
        !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    })
}

/// Whether the word ends an invocation; `next` is the word after it.
fn ends(word: &str, next: Option<&&str>) -> bool {
    match word {
        "&" | "&&" | ";" | ">" | ">>" | "2>" => true,
        "|" => !next.is_some_and(|n| n.starts_with('-')),
        _ => word.starts_with('#') || word.starts_with('('),
    }
}

/// The flag a word names, if it names one.
fn flag(word: &str) -> Option<String> {
    let word = word.trim_start_matches(['[', '(']);
    let name: String =
        word.strip_prefix("--")?.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
    let placeholder = word[2 + name.len()..].starts_with('*');
    (!name.is_empty() && !placeholder).then(|| format!("--{name}"))
}

/// Every invocation in one command line: its words after `memval`.
fn invocations(line: &str) -> Vec<Vec<&str>> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut out = vec![];
    for (i, w) in words.iter().enumerate() {
        if *w == "memval" {
            let rest = &words[i + 1..];
            let end = (0..rest.len()).find(|&j| rest[j] == "memval" || ends(rest[j], rest.get(j + 1)));
            out.push(rest[..end.unwrap_or(rest.len())].to_vec());
        }
    }
    out
}

/// The commands an invocation names (one per alternative) and the flags it gives them.
fn command_and_flags(words: &[&str], helps: &mut Helps) -> (Vec<Vec<String>>, Vec<String>) {
    let mut commands = vec![vec![]];
    let mut i = 0;
    while let Some(w) = words.get(i).filter(|w| !w.starts_with('-')) {
        let alternatives: Vec<String> = w.split('|').map(String::from).collect();
        let known = commands.iter().all(|c| {
            let subs = helps.subcommands(c);
            alternatives.iter().all(|a| subs.contains(a))
        });
        if !known {
            break;
        }
        commands = commands
            .iter()
            .flat_map(|c| alternatives.iter().map(move |a| [c.clone(), vec![a.clone()]].concat()))
            .collect();
        i += 1;
    }
    (commands, words[i..].iter().filter_map(|w| flag(w)).collect())
}

/// The command lines of the README: code block lines with their continuations joined, and
/// inline code spans; each with its 1-based line (a span: its paragraph's).
fn command_lines(text: &str) -> Vec<(usize, String)> {
    let doc = Doc::parse(text);
    let mut out = vec![];
    for block in &doc.blocks {
        let mut current: Option<(usize, String)> = None;
        for (i, line) in block.lines.iter().enumerate() {
            let continues = line.starts_with([' ', '\t']) || current.as_ref().is_some_and(|(_, l)| l.ends_with('\\'));
            match current.as_mut() {
                Some((_, l)) if continues => {
                    l.push(' ');
                    l.push_str(line.trim());
                }
                _ => out.extend(current.replace((block.fence_line + 2 + i, line.trim_start_matches("$ ").to_owned()))),
            }
        }
        out.extend(current);
    }
    for (para, line) in doc.paragraphs.iter().zip(&doc.paragraph_lines) {
        out.extend(code_spans(para).into_iter().map(|s| (line + 1, s.to_owned())));
    }
    out
}

#[test]
fn every_flag_the_readme_shows_is_a_flag_of_its_command() {
    let mut helps = Helps::default();
    let (mut checked, mut wrong) = (0, vec![]);
    for (line, text) in command_lines(&readme()) {
        for words in invocations(&text) {
            let (commands, flags) = command_and_flags(&words, &mut helps);
            for command in commands.iter().filter(|c| !c.is_empty()) {
                for flag in &flags {
                    checked += 1;
                    if !mentions(helps.get(command), flag) {
                        wrong.push(format!("README.md:{line}: `memval {}` has no {flag}", command.join(" ")));
                    }
                }
            }
        }
    }
    assert!(checked > 50, "too few flags found ({checked}); is README.md read?");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
