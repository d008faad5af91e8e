//! Commands: a line of a shell fence, a line of prose that is a command, or a code span
//! holding one. What a command names is the program it runs and the paths it is given,
//! nothing else: `cargo test -p memval-extractor` names no file.

use crate::commands;
use crate::mentions::{clean_text, FileMention};
use crate::paths::{self, PathToken, Strength};

use super::doc::Sentence;
use super::walker::Walker;

/// The script a command runs, as a path: `./gradlew` and `./mvnw` name a file of the
/// current folder even without an extension, and a program run by a relative path through
/// folders (`ci/kani <crate>`, `scripts/bootstrap --dev`) names a file of the repo: a command's
/// program is a file, with or without an extension.
pub(super) fn program_token(program: &str) -> Option<PathToken> {
    paths::classify(program, Strength::Backtick).or_else(|| {
        let name = program.strip_prefix("./").unwrap_or(program);
        let through_folders = name.contains('/')
            && !name.starts_with(['/', '~', '@', '$', '-', '.'])
            && !paths::media_type(name)
            && name
                .split('/')
                .all(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)));
        let here = program.starts_with("./") && !name.is_empty() && !name.contains('/');
        (here || through_folders).then(|| paths::parse(name)).flatten().filter(|t| !t.dir)
    })
}

/// The path arguments of a command line ([`commands::path_args_under`]) that are shaped like
/// paths (a folder pattern, `dir/*`, as its folder), with the word each came from. A file
/// name of an extension no list knows counts only as the argument of a program of the repo
/// ([`commands::repo_program_files`]). An argument given where the command runs in a folder
/// (`go -C brokers test ./internal/x/...`, `cd web && npm test src/a.test.ts`) is read in that
/// folder (`brokers/internal/x`); one given where it runs outside the repository (`cd /tmp`)
/// is none of its paths.
fn command_arg_tokens(line: &str) -> Vec<(PathToken, &str)> {
    let own_files = commands::repo_program_files(line);
    commands::path_args_under(line)
        .into_iter()
        .filter_map(|arg| {
            let w = arg.word.trim_end_matches([',', ';']);
            let under = arg.under?;
            let relative = !w.starts_with(['/', '~']);
            let placed = if under.is_empty() || !relative {
                w.to_owned()
            } else {
                format!("{}/{}", under.join("/"), w.trim_start_matches("./"))
            };
            let tok = if arg.folder && !placed.ends_with('/') {
                paths::classify(&format!("{placed}/"), Strength::Backtick)
            } else {
                paths::classify(&placed, Strength::Backtick)
                    .or_else(|| own_files.contains(&w).then(|| paths::parse(&placed)).flatten().filter(|t| !t.dir))
                    // `--include='src/plugins/*'`: a pattern over a folder names the folder
                    .or_else(|| paths::pattern_folder(&placed))
            }?;
            (!tok.unresolvable()).then_some((tok, w))
        })
        .collect()
}

/// A code span with a space in it (`inner`, a slice of the line `orig`), read as a command:
/// the program it runs and the paths it is given, each at its own place in the span, added to
/// `raw`. Returns whether any was found (then the span is nothing else).
pub(super) fn span_command(orig: &str, inner: &str, raw: &mut Vec<(PathToken, usize, usize)>) -> bool {
    // `docker compose exec web bin/rails test ...`: the command run in the service.
    let inner = commands::in_container(inner).unwrap_or(inner);
    let at = |w: &str| {
        let start = w.as_ptr() as usize - orig.as_ptr() as usize;
        (start, start + w.len())
    };
    let program = commands::program(inner).and_then(|p| Some((program_token(p)?, at(p))));
    let program_found = program.is_some();
    if let Some((tok, (a, b))) = program {
        raw.push((tok, a, b));
    }
    let args = command_arg_tokens(inner);
    let args_found = !args.is_empty();
    for (tok, w) in args {
        let (a, b) = at(w);
        raw.push((tok, a, b));
    }
    program_found || args_found
}

impl Walker {
    /// A command line of a code block: the program it runs (`./scripts/run.sh`,
    /// `python tools/gen.py`) and the paths given to it (`bun test src/x.test.ts`,
    /// `make -C dir`, `-f docker-compose.yml`).
    pub(super) fn command_program(&mut self, line: &str, line_no: u32) {
        self.command_program_in(line, line_no, None);
    }

    /// [`Self::command_program`] of a line that runs in the folder `dir` of the repository (a
    /// code block's earlier `cd dir`): its program and relative paths are read there.
    pub(super) fn command_program_in(&mut self, line: &str, line_no: u32, dir: Option<&str>) {
        // `docker compose exec web bin/rails test ...`: the command run in the service.
        let line = commands::in_container(line).unwrap_or(line);
        let folders = self.structure_folders();
        let placed = |p: &str| match dir {
            Some(dir) if !p.starts_with(['/', '~']) => format!("{dir}/{}", p.trim_start_matches("./")),
            _ => p.to_owned(),
        };
        let program = commands::program(line).and_then(|p| program_token(&placed(p)));
        let in_dir = dir.map(|d| format!("cd {d} && {}", line.trim_start()));
        let args = command_arg_tokens(in_dir.as_deref().unwrap_or(line));
        let files: Vec<FileMention> = program
            .into_iter()
            // The `cd dir` put before the line is not one of its arguments.
            .chain(args.into_iter().map(|(tok, _)| tok).filter(|tok| dir.is_none_or(|d| tok.path != d)))
            .map(|tok| {
                let mut readings = paths::readings(&tok, &folders);
                // A doc's code block often holds recipes that each start at the root ("# Run
                // the tests", `cd packages/x`): what the block's `cd` placed is read as
                // written too, after.
                let written = dir
                    .and_then(|d| tok.path.strip_prefix(d)?.strip_prefix('/'))
                    .and_then(|rest| paths::parse(&if tok.dir { format!("{rest}/") } else { rest.to_owned() }));
                if let Some(written) = written.filter(|w| w.dir == tok.dir) {
                    for r in paths::readings(&written, &folders) {
                        if !readings.contains(&r) {
                            readings.push(r);
                        }
                    }
                }
                FileMention { raw: tok.path.clone(), readings, tok, start: 0, end: 0, after: 0 }
            })
            .collect();
        if files.is_empty() {
            return;
        }
        self.push(Sentence::of_files(line_no, clean_text(line.trim()), self.paragraph, files));
    }
}
