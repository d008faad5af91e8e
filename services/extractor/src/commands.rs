//! Shell commands. A command asserts that the script it runs exists (`./scripts/deploy.sh`,
//! `python tools/gen.py`) and that the paths it is given do (`bun test src/x.test.ts`,
//! `make -C dir`, `-f docker-compose.yml`, [`path_args_under`]); names, refs, packages, images,
//! outputs and globs in it are not claims.
//!
//! How a command line is read:
//! - Its arguments end at a shell comment (`#`): what follows is prose, read as such by the
//!   walker.
//! - A shell argument is read without its quotes (`pushd 'eng/tools'`); `cd` and `pushd` take a
//!   folder. A word whose quoted text could expand (`"$DIR/x"`) is kept as it is.
//! - A line that sets a value (`readme = "README.md"`, `include: 'x.md'`) is a setting, not a
//!   command.
//! - A file-shaped argument (a stem and a 1-10 character extension) of a program of the repo
//!   itself, one written with a relative path (`./build/alloy run example-config.alloy`), is a
//!   file whatever its extension ([`repo_program_files`]); other programs' words need a known
//!   extension (`npm run lint.fix` is a script name, `make app.o` a target).
//! - A `-m` value with a `/` is a path (`maturin develop -m python/Cargo.toml`); without one it is
//!   a module (`python -m pkg.mod`).
//! - Outputs (`-o`, `>`), package names (`npm install x`), refs and images (`git`, `docker run`),
//!   globs and variables are not claims.

/// Programs that start a command line inside code (a code span or a code block).
#[rustfmt::skip]
const TOOLS: &[&str] = &[
    "cargo", "rustup", "rustc", "npm", "npx", "yarn", "pnpm", "bun", "deno", "pip", "pip3", "pipx",
    "poetry", "uv", "uvx", "git", "gh", "docker", "docker-compose", "podman", "kubectl", "helm",
    "terraform", "brew", "apt", "apt-get", "dnf", "yum", "sudo", "curl", "wget", "mvn", "gradle",
    "./gradlew", "dotnet", "go", "make", "python", "python3", "node", "bash", "sh", "zsh", "cd",
    "ls", "cat", "rm", "cp", "mv", "mkdir", "chmod", "chown", "export", "source", "echo", "grep",
    "rg", "sed", "awk", "find", "tar", "ssh", "scp", "rsync", "just", "bundle", "gem", "rake",
    "composer", "java", "javac", "gcc", "clang", "cmake", "ninja", "pytest", "tox", "nox", "jest",
    "vitest", "eslint", "prettier", "tsc", "rustfmt", "psql", "mysql", "sqlite3", "redis-cli",
    "nats", "nats-server", "systemctl", "journalctl", "touch", "head", "tail", "less", "diff",
    "xargs", "env", "tree", "open", "code", "vim", "nano", "memval", "pushd", "popd",
];

/// Programs and the subcommands that make a prose line (outside code) a command. Stricter
/// than [`TOOLS`]: "git history shows ..." is a sentence, "git checkout main" a command.
const PROSE_TOOLS: &[(&str, &[&str])] = &[
    (
        "cargo",
        &[
            "build", "test", "run", "check", "clippy", "fmt", "add", "install", "bench", "doc", "publish", "update",
            "clean", "nextest", "tree",
        ],
    ),
    ("npm", &["install", "i", "ci", "run", "test", "start", "exec", "add", "build", "publish", "uninstall"]),
    ("pnpm", &["install", "i", "run", "test", "add", "exec", "build", "dev"]),
    ("yarn", &["install", "add", "run", "test", "build", "dev", "start"]),
    (
        "git",
        &[
            "checkout",
            "clone",
            "commit",
            "push",
            "pull",
            "fetch",
            "merge",
            "rebase",
            "log",
            "diff",
            "status",
            "add",
            "reset",
            "stash",
            "switch",
            "branch",
            "tag",
            "show",
            "blame",
            "mv",
            "rm",
            "restore",
            "cherry-pick",
            "bisect",
            "worktree",
        ],
    ),
    ("pip", &["install", "uninstall", "freeze"]),
    ("pip3", &["install", "uninstall", "freeze"]),
    ("docker", &["build", "run", "compose", "exec", "push", "pull", "ps", "logs"]),
    ("go", &["build", "test", "run", "get", "mod", "install", "vet", "generate", "fmt", "work"]),
    ("kubectl", &["apply", "get", "describe", "delete", "logs", "exec", "rollout"]),
    ("npx", &[]),
    ("sudo", &[]),
    ("uvx", &[]),
];

/// Interpreters whose first argument is the program actually run (`bash scripts/x.sh`).
#[rustfmt::skip]
const INTERPRETERS: &[&str] = &[
    "bash", "sh", "zsh", "python", "python3", "node", "ruby", "perl", "deno", "bun", "tsx",
    "ts-node", "pwsh",
];

/// The program a command runs when it is a file of the repo (`./scripts/deploy.sh staging`,
/// `bash scripts/x.sh`): a command names its own script, whatever its arguments are.
pub(crate) fn program(text: &str) -> Option<&str> {
    let t = text.trim_start();
    let t = t.strip_prefix("$ ").unwrap_or(t);
    let mut words = t.split_whitespace().skip_while(|w| w.contains('=') || *w == "sudo" || *w == "exec");
    let first = words.next()?;
    let program = if INTERPRETERS.contains(&first) { words.find(|w| !w.starts_with('-'))? } else { first };
    (program.contains('/') || program.contains('.')).then_some(program)
}

/// Flags of `docker compose exec`/`run` and `docker exec` that take the next word as their value.
const CONTAINER_VALUE_FLAGS: &[&str] = &[
    "-e",
    "--env",
    "--env-file",
    "-u",
    "--user",
    "--index",
    "--entrypoint",
    "-v",
    "--volume",
    "-p",
    "--publish",
    "--name",
    "-l",
    "--label",
    "--detach-keys",
];

/// The command a line runs inside a compose service or a container (`docker compose exec web
/// bin/rails test test/models/user_test.rb` runs `bin/rails test test/models/user_test.rb`): a
/// development service mounts the checkout as its working folder, so what the command names is
/// the repository's, read as a command line of its own. `None` for any other line, for `docker
/// run IMAGE` (an image's files, not the checkout), for a command given its own working folder
/// (`-w /srv`), and for a compose command with options of its own before `exec` (`-f x.yml`,
/// read as they are).
pub(crate) fn in_container(text: &str) -> Option<&str> {
    let t = text.trim_start();
    let t = t.strip_prefix("$ ").unwrap_or(t);
    let mut words = t.split_whitespace().map(|w| (w.as_ptr() as usize - t.as_ptr() as usize, w));
    let (_, first) = words.next()?;
    let sub = match first {
        "docker" | "podman" => match words.next()?.1 {
            "compose" => words.next()?.1,
            "exec" => "exec",
            _ => return None,
        },
        "docker-compose" | "podman-compose" => words.next()?.1,
        _ => return None,
    };
    if !matches!(sub, "exec" | "run") {
        return None;
    }
    let mut value_next = false;
    for (at, w) in words {
        if std::mem::take(&mut value_next) {
            continue;
        }
        if w.starts_with('-') {
            if matches!(w, "-w" | "--workdir") || w.starts_with("--workdir=") {
                return None;
            }
            value_next = CONTAINER_VALUE_FLAGS.contains(&w);
            continue;
        }
        // the service or container; the command starts after it
        let rest = t[at + w.len()..].trim_start();
        return (!rest.is_empty() && !rest.starts_with(['&', ';', '|'])).then_some(rest);
    }
    None
}

/// Text of a code span or code line that is a command (`cargo test -p foo`, `$ make`).
pub(crate) fn is_command(text: &str) -> bool {
    let t = text.trim_start();
    let prompt = t.starts_with("$ ");
    let t = t.trim_start_matches("$ ").trim_start();
    let mut words = t.split_whitespace();
    let Some(mut first) = words.next() else {
        return prompt;
    };
    let mut rest: Vec<&str> = words.take(2).collect();
    // `RUST_LOG=debug cargo run`
    if first.contains('=') && !rest.is_empty() {
        first = rest.remove(0);
    }
    if prompt {
        return true;
    }
    if rest.is_empty() {
        return false; // `make` or `cargo` alone is a name, and neither a path nor a symbol
    }
    TOOLS.contains(&first) || (first.starts_with("./") && !first.contains('='))
}

/// A prose line (list marker already stripped) that is a command.
pub(crate) fn is_prose_command(text: &str) -> bool {
    let t = text.trim_start();
    if t.starts_with("$ ") {
        return true;
    }
    let mut words = t.split_whitespace();
    let (Some(first), second) = (words.next(), words.next()) else {
        return false;
    };
    PROSE_TOOLS.iter().any(|(tool, subs)| {
        *tool == first
            && match second {
                None => subs.is_empty(),
                Some(s) => subs.is_empty() || subs.contains(&s) || s.starts_with('-'),
            }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_in_code() {
        for cmd in [
            "cargo build --release",
            "npm install lodash",
            "git checkout main",
            "pip install -r requirements.txt",
            "make test",
            "$ ls",
            "RUST_LOG=debug cargo run -- src/main.rs",
            "./scripts/setup.sh --force",
            "go test ./...",
        ] {
            assert!(is_command(cmd), "{cmd}");
        }
        for not_cmd in
            ["src/main.rs", "ShardedCache::get", "cargo", "make", "max_connections = 100", "./scripts/setup.sh"]
        {
            assert!(!is_command(not_cmd), "{not_cmd}");
        }
    }

    #[test]
    fn a_command_names_its_own_script() {
        assert_eq!(program("./scripts/deploy.sh staging"), Some("./scripts/deploy.sh"));
        assert_eq!(program("scripts/deploy.sh production"), Some("scripts/deploy.sh"));
        assert_eq!(program("$ FOO=1 bash -x tools/run.sh now"), Some("tools/run.sh"));
        assert_eq!(program("python3 manage.py migrate"), Some("manage.py"));
        assert_eq!(program("cargo run -- src/main.rs"), None);
        assert_eq!(program("npm install lodash"), None);
    }

    #[test]
    fn commands_in_prose_need_a_subcommand() {
        assert!(is_prose_command("cargo build --release"));
        assert!(is_prose_command("git checkout -b x"));
        assert!(is_prose_command("$ anything"));
        assert!(!is_prose_command("git history shows src/a.rs moved"));
        assert!(!is_prose_command("Make sure `foo()` is called"));
        assert!(!is_prose_command("go to src/main.rs"));
    }
}

/// Programs whose arguments are not paths in the repo (refs, images, hosts, URLs, packages,
/// or files the command creates).
#[rustfmt::skip]
const NO_PATH_ARGS: &[&str] = &[
    "git", "gh", "docker", "podman", "kubectl", "helm", "brew", "apt", "apt-get", "dnf", "yum",
    "curl", "wget", "ssh", "scp", "rsync", "mkdir", "touch", "echo", "export", "pip", "pip3",
    "pipx", "gem", "ssh-keygen", "open", "systemctl", "journalctl", "psql", "mysql", "redis-cli",
    "nats", "terraform", "rm", "printf",
];

/// Subcommands of package managers whose arguments are package names.
const PACKAGE_SUBCOMMANDS: &[&str] = &[
    "add",
    "install",
    "i",
    "remove",
    "rm",
    "uninstall",
    "get",
    "publish",
    "login",
    "update",
    "upgrade",
    "dlx",
    "create",
];

/// Flags whose value is a path that must exist (`make -C dir`, `-f docker-compose.yml`).
const PATH_FLAGS: &[&str] = &[
    "-C",
    "-f",
    "--file",
    "--manifest-path",
    "--config",
    "--config-file",
    "--rcfile",
    "--project",
    "--cwd",
    "--dir",
    "--directory",
    "--include",
];

/// Test runners: their arguments are test files, or folders of tests (`pytest python/tests`).
const TEST_RUNNERS: &[&str] = &["pytest", "py.test", "jest", "vitest", "mocha", "rspec", "phpunit", "pest"];

/// Flags whose value is a module, a name or code for one program and a file for another:
/// `python -m pkg.tool` names a module, `maturin develop -m python/Cargo.toml` a manifest;
/// `git -c core.x=y` and `bash -c 'make'` give a setting or code, `fluent-bit -c
/// conf/fluent-bit.conf` a config file. Module names are dotted, settings and code are not plain
/// path words, so a plain value with a `/` is a path.
const MODULE_OR_PATH_FLAGS: &[&str] = &["-m", "-c"];

/// Flags whose value is what the command makes: never a path that exists before it runs.
const OUTPUT_FLAGS: &[&str] = &["-o", "-O", "--out", "--output", "--out-dir", "--outdir", "--target-dir"];

/// Flags whose value is not an existing path: an output, a name, a pattern, a number. Of those
/// not in [`OUTPUT_FLAGS`], a value with a folder and a file's extension is the file the program
/// reads all the same (`osrm-extract -p profiles/car.lua`, where `-p` is a profile, not a package).
#[rustfmt::skip]
const VALUE_FLAGS: &[&str] = &[
    "-o", "-O", "--out", "--output", "--out-dir", "--outdir", "--target-dir", "-p", "--package",
    "-F", "--features", "--bin", "--example", "--test", "--bench", "-j", "--jobs", "--target",
    "-k", "--filter", "-t", "--tag", "--name", "-n", "-e", "--env", "--profile",
    "--grep", "-g", "--reporter", "--project-name", "--format", "--log", "--since", "--until",
];

/// The file a segment of a command line appends to (`>> dir/file.txt`, `>>dir/file.txt`), when
/// it is a plain relative path with a folder: a bare name (`>> notes.txt`) is as often a file
/// the reader makes as one of the repository.
fn appended_to(segment: &str) -> Option<(&str, bool)> {
    let mut words = segment.split_whitespace();
    while let Some(w) = words.next() {
        if w.starts_with('#') {
            return None;
        }
        let target = match w.strip_prefix(">>") {
            Some("") => words.next()?,
            Some(rest) => rest,
            None => continue,
        };
        let t = unquote(target);
        let plain = !t.contains(['*', '?', '$', '{', '}', '(', ')', '<', '>', '"', '\'', '`', '=', ':']);
        return (plain && t.contains('/') && !t.starts_with(['/', '~', '-', '&'])).then_some((t, false));
    }
    None
}

/// A shell word without the quotes around it (`'src/my dir'` stays whole only when it has no
/// space, since words are split first): `pushd 'tools/azsdk'` names `tools/azsdk`. A word
/// whose quoted text could expand (`"$DIR/x"`) or holds another quote is returned as is.
fn unquote(w: &str) -> &str {
    let quoted = w.len() >= 2 && (w.starts_with('"') && w.ends_with('"') || w.starts_with('\'') && w.ends_with('\''));
    match w.get(1..w.len().saturating_sub(1)) {
        Some(inner) if quoted && !inner.contains(['"', '\'', '$', '`']) => inner,
        _ => w,
    }
}

/// A path argument of a command line: the word as written, whether it names a folder, and
/// the folders the command runs in when it reaches it (`under`, outermost first): `go -C
/// brokers test ./internal/x/...` runs in `brokers/`, and so does every segment after `cd
/// brokers &&`. `None` when it runs somewhere the repository cannot say (`cd /tmp`, `cd ..`,
/// `cd $DIR`): its relative paths are not the repository's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PathArg<'a> {
    pub(crate) word: &'a str,
    pub(crate) folder: bool,
    pub(crate) under: Option<Vec<&'a str>>,
}

/// Flags that run the command in the folder they name.
const RUNS_IN_FLAGS: &[&str] = &["-C", "--cwd", "--dir", "--directory"];

/// Where a shell line leaves the shell that runs it: `None` when it changes no folder,
/// `Some(Some(folders))` after `cd web` or `cd a && cd b` (outermost first, from where it
/// started), `Some(None)` after a change to a place the repository cannot say (`cd ..`, `cd
/// /tmp`, `cd $DIR`, a bare `cd`, `popd`); `Some(Some([]))` back at the root (`cd <repo-root>`).
/// A shell fence's later lines run there.
pub(crate) fn cd_after(text: &str) -> Option<Option<Vec<&str>>> {
    let t = text.trim_start();
    let t = t.strip_prefix("$ ").unwrap_or(t);
    let mut now: Option<Vec<&str>> = Some(Vec::new());
    let mut changed = false;
    for segment in t.split(['&', ';', '|']) {
        let mut words = segment.split_whitespace().skip_while(|w| w.contains('='));
        match words.next() {
            Some("cd" | "pushd") => {
                changed = true;
                now = match words.next().map(unquote) {
                    Some(w) if names_the_root(w) => Some(Vec::new()),
                    Some(w) => within(now, w),
                    None => None,
                };
            }
            Some("popd") => {
                changed = true;
                now = None;
            }
            _ => {}
        }
    }
    changed.then_some(now)
}

/// A `cd` target that stands for the repository's root: a placeholder or variable whose words
/// say so (`<repo-root>`, `$REPO_ROOT`, `${PROJECT_ROOT}`, `<your-checkout>`) or git's own answer
/// (`$(git rev-parse --show-toplevel)`). Any other placeholder (`/path/to/x`, `$BUILD_DIR`)
/// is a place the repository cannot say.
fn names_the_root(w: &str) -> bool {
    let w = w.trim_matches(['"', '\'']);
    if w.starts_with("$(git") || w.starts_with("`git") {
        return true;
    }
    let placeholder = w.starts_with(['<', '$', '{']);
    let lower = w.to_ascii_lowercase();
    placeholder && ["root", "repo", "toplevel", "checkout", "project", "workspace"].iter().any(|k| lower.contains(k))
}

/// The folders a command runs in once it changes into `w` from `under` (`cd`, `-C`), `..` taking
/// one back (`cd packages/core && ... && cd ../..` returns to where it started): `None` above
/// where it started, when it started nowhere the repository can say, or for such a place.
fn within<'a>(under: Option<Vec<&'a str>>, w: &'a str) -> Option<Vec<&'a str>> {
    let mut under = under?;
    if !repo_folder(w) {
        return None;
    }
    for part in w.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                under.pop()?;
            }
            _ => under.push(part),
        }
    }
    Some(under)
}

/// Whether a folder a command changes into (`cd`, `-C`) can be a place of the repository, as far
/// as its words tell (`..` is [`within`]'s to follow).
fn repo_folder(w: &str) -> bool {
    !w.is_empty()
        && !w.starts_with(['/', '~', '-'])
        && !w.contains(['$', '*', '?', '{', '}', '(', ')', '<', '>', '"', '\'', '`', '=', ':'])
}

/// The paths a command line names as arguments: `bun test src/x.test.ts`, `make -C dir`,
/// `docker compose -f docker-compose.yml up` (the `-f` value), `pytest tests/unit`. Only
/// what must already exist for the command to work: not outputs (`-o`, `>`), not package
/// names (`npm install x`), not refs or images (`git`, `docker run`), not globs or variables.
/// Each segment of `a && b; c | d` is read on its own, in the folder the segments before it
/// changed into (`cd web && npm test src/a.test.ts`), and after a flag that changes the
/// command's folder (`-C`, `--cwd`, `--dir`, `--directory`), in that folder. `folder` when the
/// flag names a directory (`-C`, `--cwd`).
pub(crate) fn path_args_under(text: &str) -> Vec<PathArg<'_>> {
    let t = text.trim_start();
    let t = t.strip_prefix("$ ").unwrap_or(t);
    let mut out: Vec<PathArg<'_>> = Vec::new();
    // The folder the line is in after its `cd` segments, from the folder it started in.
    let mut line_under: Option<Vec<&str>> = Some(Vec::new());
    for segment in t.split(['&', ';', '|']) {
        let mut under = line_under.clone();
        // `TESTPATH=tests/x/test_y.py tox -e py3`: a leading variable set to a slashed path
        // hands that path to the command; `export BUNDLE_GEMFILE=gemfiles/x/Gemfile` to the
        // commands after it.
        for w in segment.split_whitespace().skip_while(|w| *w == "export").take_while(|w| w.contains('=')) {
            if let Some((name, value)) = w.split_once('=') {
                let name_ok =
                    !name.is_empty() && name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
                let plain =
                    !value.contains(['*', '?', '$', '{', '}', '(', ')', '<', '>', '"', '\'', '`', '@', '=', ':', ',']);
                if name_ok && plain && value.contains('/') && !value.starts_with('/') && !value.starts_with('-') {
                    out.push(PathArg { word: value, folder: false, under: under.clone() });
                }
            }
        }
        // `echo "8.4.11" >> platforms/php/versionsToBuild.txt`: a file appended to is one that
        // is there, whatever the program (`>` may make a new one, so it says nothing).
        if let Some((word, folder)) = appended_to(segment) {
            out.push(PathArg { word, folder, under: under.clone() });
        }
        let mut words = segment
            .split_whitespace()
            .skip_while(|w| w.contains('=') || matches!(*w, "sudo" | "exec" | "time" | "export"))
            .peekable();
        let Some(first) = words.next() else { continue };
        // `readme = "README.md"`, `include: 'x.md'`: a setting, not a command.
        if first.ends_with(':') || words.peek().is_some_and(|w| w.starts_with('=') || w.starts_with(':')) {
            continue;
        }
        // `/extract-adrs docs/plans/x.md`: an agent tool's slash command, whose words are what
        // the user types to it (an example input), not paths the repository must have.
        if first.len() > 1
            && first.starts_with('/')
            && !first[1..].contains('/')
            && first[1..].starts_with(char::is_alphabetic)
        {
            continue;
        }
        let program = first.rsplit('/').next().unwrap_or(first);
        // `docker compose -f x.yml up`, `docker build -f app/Dockerfile -t app .`: only the file
        // flags count for docker.
        let flags_only = matches!(program, "docker" | "podman") && matches!(words.peek(), Some(&"compose" | &"build"))
            || matches!(program, "pip" | "pip3");
        if NO_PATH_ARGS.contains(&program) && !flags_only {
            continue;
        }
        if words.peek().is_some_and(|w| PACKAGE_SUBCOMMANDS.contains(w))
            && !INTERPRETERS.contains(&program)
            && !flags_only
        {
            continue;
        }
        // `pip install -r requirements/dev.txt`: pip reads the files of its requirement and
        // constraint flags, and no other argument is a path. A bare `requirements.txt` is as
        // often the reader's own file as the repository's: only a path with a folder counts.
        let pip = matches!(program, "pip" | "pip3");
        let mut skip_next = false;
        let mut slashed_path_next = false;
        let mut file_value_next = false;
        // `pytest python/tests`, `python -m pytest python/tests`: what a test runner is given
        // is a test file or a folder of tests, with an extension or without.
        let mut test_runner = TEST_RUNNERS.contains(&program);
        // `cd dir`, `pushd dir`: the one argument is a folder, where the segments after it run.
        let changes_folder = matches!(program, "cd" | "pushd");
        let mut path_next: Option<bool> = changes_folder.then_some(true);
        // The value of a flag that runs the command in a folder (`go -C dir`): the arguments
        // after it are read there.
        let mut runs_in_next = false;
        for w in words {
            let w = unquote(w);
            if std::mem::take(&mut skip_next) {
                continue;
            }
            // `python -m pytest`, `uv run pytest`, `npx jest`: the runner run by another program.
            if TEST_RUNNERS.contains(&w) {
                test_runner = true;
            }
            if std::mem::take(&mut file_value_next) {
                let plain = !w.contains(['=', '$', '"', '\'', '`', '(', ')', '*', '?', '{', '}', ':', '<', '>', '@']);
                let name = w.rsplit('/').next().unwrap_or(w);
                if plain && w.contains('/') && !w.starts_with('-') && crate::paths::has_known_ext(name) {
                    out.push(PathArg { word: w, folder: false, under: under.clone() });
                }
                continue;
            }
            if std::mem::take(&mut slashed_path_next) {
                let plain = !w.contains(['=', '$', '"', '\'', '`', '(', ')', '*', '?', '{', '}', ':', '<', '>']);
                if plain && w.contains('/') && !w.starts_with('-') {
                    out.push(PathArg { word: w, folder: false, under: under.clone() });
                }
                continue;
            }
            if let Some(folder) = path_next.take() {
                // `cd <repo-root>`, `cd "$REPO_ROOT"`: back at the root, no path of the repo.
                if changes_folder && names_the_root(w) {
                    line_under = Some(Vec::new());
                    continue;
                }
                out.push(PathArg { word: w, folder, under: under.clone() });
                if std::mem::take(&mut runs_in_next) {
                    under = within(under, w);
                }
                if changes_folder {
                    line_under = within(under.clone(), w);
                }
                continue;
            }
            if w.starts_with(['>', '<']) || w.ends_with('>') || w == "2>" {
                skip_next = w.len() <= 2;
                continue;
            }
            if w == "--" {
                continue;
            }
            if w.starts_with('#') {
                break; // a shell comment: what follows is prose, read as such by the caller
            }
            if let Some(flag) = w.strip_prefix('-').map(|_| w) {
                match flag.split_once('=') {
                    Some((f, v)) if PATH_FLAGS.contains(&f) => {
                        let runs_in = RUNS_IN_FLAGS.contains(&f);
                        out.push(PathArg { word: unquote(v), folder: runs_in, under: under.clone() });
                        if runs_in {
                            under = within(under, unquote(v));
                        }
                    }
                    Some(_) => {}
                    None if pip && matches!(flag, "-r" | "--requirement" | "-c" | "--constraint") => {
                        slashed_path_next = true
                    }
                    None if PATH_FLAGS.contains(&flag) => {
                        let runs_in = RUNS_IN_FLAGS.contains(&flag);
                        path_next = Some(runs_in);
                        runs_in_next = runs_in;
                    }
                    None if MODULE_OR_PATH_FLAGS.contains(&flag) => slashed_path_next = true,
                    None if VALUE_FLAGS.contains(&flag) && !OUTPUT_FLAGS.contains(&flag) => file_value_next = true,
                    None if VALUE_FLAGS.contains(&flag) => skip_next = true,
                    None => {}
                }
                continue;
            }
            if flags_only {
                continue;
            }
            let plain = !w.contains(['*', '?', '$', '{', '}', '(', ')', '<', '>', '"', '\'', '`', '@', '='])
                && !w.contains("://")
                && !w.contains(':');
            if plain && w.contains(['/', '.']) {
                let folder = test_runner && w.contains('/') && !w.rsplit('/').next().is_some_and(|n| n.contains('.'));
                out.push(PathArg { word: w, folder, under: under.clone() });
            }
        }
    }
    out
}

/// The arguments of a program of the repo itself (`./build/alloy run example-config.alloy`,
/// `bin/tool check rules.star`) that are shaped like file names, whatever their extension:
/// a project's own tool reads the project's own files (configs, inputs), often of a format
/// of its own that no list of extensions knows. Other programs' arguments with an unknown
/// extension stay words (`npm run lint.fix` names a script, `make app.o` a target).
pub(crate) fn repo_program_files(text: &str) -> Vec<&str> {
    let t = text.trim_start();
    let t = t.strip_prefix("$ ").unwrap_or(t);
    let mut out = Vec::new();
    for segment in t.split(['&', ';', '|']) {
        let mut words =
            segment.split_whitespace().skip_while(|w| w.contains('=') || *w == "sudo" || *w == "exec" || *w == "time");
        let Some(program) = words.next() else { continue };
        let of_repo = program.contains('/') && !program.starts_with(['/', '~', '$']) && !program.contains("://");
        if !of_repo {
            continue;
        }
        for w in words {
            if w.starts_with('#') {
                break;
            }
            if file_shaped(w) {
                out.push(w);
            }
        }
    }
    out
}

/// `name.ext` or `dir/name.ext`: path characters only, a stem with a letter, an extension of
/// 1-10 letters or digits starting with a letter (not `v1.2`, `3.14`, `..`).
fn file_shaped(w: &str) -> bool {
    if w.starts_with('-')
        || w.contains("://")
        || !w.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '/'))
    {
        return false;
    }
    let name = w.rsplit('/').next().unwrap_or(w);
    let Some((stem, ext)) = name.rsplit_once('.') else { return false };
    stem.chars().any(|c| c.is_ascii_alphabetic())
        && (1..=10).contains(&ext.len())
        && ext.starts_with(|c: char| c.is_ascii_alphabetic())
        && ext.chars().all(|c| c.is_ascii_alphanumeric())
}

#[cfg(test)]
mod repo_program_tests {
    use super::repo_program_files;

    #[test]
    fn a_repo_programs_file_shaped_arguments_are_files() {
        let cases: &[(&str, &[&str])] = &[
            ("./build/alloy run example-config.alloy", &["example-config.alloy"]),
            ("bin/tool check rules/main.star --verbose", &["rules/main.star"]),
            ("$ FOO=1 ./scripts/run fixtures/a.cue && npm run lint.fix", &["fixtures/a.cue"]),
            ("./build/alloy run", &[]),
            ("./tool --version v1.2", &[]),
            ("./tool 3.14 http://x.io/a.b", &[]),
            ("npm run lint.fix", &[]),
            ("make app.o", &[]),
            ("/usr/bin/tool conf.alloy", &[]),
            ("./tool run x.alloy # then edit y.alloy", &["x.alloy"]),
        ];
        for (line, want) in cases {
            assert_eq!(repo_program_files(line), want.to_vec(), "{line}");
        }
    }
}

#[cfg(test)]
mod path_arg_tests {
    use super::{cd_after, path_args_under};

    /// The path arguments as `(word, folder)`.
    #[test]
    fn a_command_run_in_a_compose_service_is_read_as_its_own() {
        use super::in_container;
        assert_eq!(in_container("docker compose exec web bin/rails test x_test.rb"), Some("bin/rails test x_test.rb"));
        assert_eq!(in_container("docker-compose run --rm -e A=1 api pytest tests/unit"), Some("pytest tests/unit"));
        assert_eq!(in_container("$ docker exec -it app ./scripts/seed.sh"), Some("./scripts/seed.sh"));
        assert_eq!(in_container("docker compose exec -w /srv web make"), None);
        assert_eq!(in_container("docker run org/image ./x.sh"), None);
        assert_eq!(in_container("docker compose -f dev.yml exec web make"), None);
        assert_eq!(in_container("docker compose up -d"), None);
        assert_eq!(in_container("docker compose exec web"), None);
    }

    fn path_args(text: &str) -> Vec<(&str, bool)> {
        path_args_under(text).into_iter().map(|a| (a.word, a.folder)).collect()
    }

    #[test]
    fn arguments_that_must_exist_are_paths_and_the_rest_are_not() {
        let cases: &[(&str, &[(&str, bool)])] = &[
            ("bun test src/x.test.ts", &[("src/x.test.ts", false)]),
            ("make -C dir test", &[("dir", true)]),
            ("docker compose -f docker-compose.yml up -d", &[("docker-compose.yml", false)]),
            ("pip install -r tests/requirements.txt", &[("tests/requirements.txt", false)]),
            ("pip install -c ci/constraints.txt requests flask", &[("ci/constraints.txt", false)]),
            ("pip install -r requirements.txt", &[]),
            ("pip install requests/foo", &[]),
            ("docker-compose -f deploy/compose.yaml up", &[("deploy/compose.yaml", false)]),
            ("pytest -k slow tests/unit/test_a.py", &[("tests/unit/test_a.py", false)]),
            (
                "./build/osrm-extract -p profiles/car.lua data.osm.pbf",
                &[("profiles/car.lua", false), ("data.osm.pbf", false)],
            ),
            ("tool --profile profiles/dev.toml -o out/x.json", &[("profiles/dev.toml", false)]),
            ("cargo test --manifest-path crates/x/Cargo.toml -p x", &[("crates/x/Cargo.toml", false)]),
            ("$ RUST_LOG=debug python scripts/gen.py --out build/out.json", &[("scripts/gen.py", false)]),
            ("cd web && npm run build > build/log.txt", &[("web", true)]),
            ("git checkout feature/x", &[]),
            ("docker run org/image:1.2", &[]),
            ("docker build -f TrashMob/Dockerfile -t trashmob:latest .", &[("TrashMob/Dockerfile", false)]),
            ("npm install @scope/pkg lodash.get", &[]),
            ("cargo add serde/derive", &[]),
            ("cargo test --features serde/std", &[]),
            ("ls src/*.rs $HOME/x", &[]),
            ("curl https://example.com/a.sh | bash", &[]),
            ("mkdir -p out/dir", &[]),
            ("maturin develop -m python/Cargo.toml", &[("python/Cargo.toml", false)]),
            ("python -m pkg.tool src/a.py", &[("src/a.py", false)]),
            ("python -m http.server", &[]),
            ("TESTPATH=tests/integrations/test_a.py tox -e py3.14", &[("tests/integrations/test_a.py", false)]),
            ("RUST_LOG=debug cargo test", &[]),
            ("DATABASE_URL=postgres://localhost/db cargo run", &[]),
            ("OUT=/tmp/x make", &[]),
            ("pushd 'tools/Azure.Mcp.Tools.Storage/tests'", &[("tools/Azure.Mcp.Tools.Storage/tests", true)]),
            ("pytest \"tests/unit/test_a.py\"", &[("tests/unit/test_a.py", false)]),
            ("cat \"$DIR/x.txt\" 'a'b'", &[]),
            ("readme = \"README.md\"", &[]),
            ("./build/bin/fluent-bit -c conf/fluent-bit.conf", &[("conf/fluent-bit.conf", false)]),
            ("git -c core.hooksPath=.githooks/ commit", &[]),
            ("bash -c 'make all'", &[]),
            ("python -c \"import a/b\"", &[]),
            ("export BUNDLE_GEMFILE=gemfiles/rails_72/Gemfile", &[("gemfiles/rails_72/Gemfile", false)]),
            ("export PATH=$PATH:bin/x", &[]),
            ("include: 'docs/x.md'", &[]),
            (
                "echo \"8.4.11, <sha256>,\" >> platforms/php/versions/bookworm/versionsToBuild.txt",
                &[("platforms/php/versions/bookworm/versionsToBuild.txt", false)],
            ),
            ("printf x >>docs/log/changes.md", &[("docs/log/changes.md", false)]),
            ("echo x >> notes.txt", &[]),
            ("echo x >> $GITHUB_ENV", &[]),
            ("echo x > build/new.txt", &[]),
            (
                "coverage report --include=\"archivebox/core/models.py\" --show-missing",
                &[("archivebox/core/models.py", false)],
            ),
            ("grep -rn --include=*.py foo", &[("*.py", false)]),
            ("/extract-adrs-ci docs/plans/human-annotations.md", &[]),
            ("/usr/bin/python3 tools/gen.py", &[("tools/gen.py", false)]),
        ];
        for (line, want) in cases {
            assert_eq!(path_args(line), want.to_vec(), "{line}");
        }
    }

    #[test]
    fn arguments_are_read_in_the_folder_the_command_runs_in() {
        let under = |line: &str| -> Vec<(String, Option<String>)> {
            path_args_under(line).into_iter().map(|a| (a.word.to_owned(), a.under.map(|u| u.join("/")))).collect()
        };
        let some = |w: &str, u: &str| (w.to_owned(), Some(u.to_owned()));
        assert_eq!(
            under("go -C authd-oidc-brokers generate --tags withmsentraid ./internal/providers/msentraid/..."),
            vec![some("authd-oidc-brokers", ""), some("./internal/providers/msentraid/...", "authd-oidc-brokers")]
        );
        assert_eq!(
            under("make --directory=docs/site build/x.html"),
            vec![some("docs/site", ""), some("build/x.html", "docs/site")]
        );
        assert_eq!(under("cd web && npm test src/a.test.ts"), vec![some("web", ""), some("src/a.test.ts", "web")]);
        assert_eq!(
            under("cd ./apps/api/ && cd server && pytest tests/unit"),
            vec![some("./apps/api/", ""), some("server", "apps/api"), some("tests/unit", "apps/api/server")]
        );
        // Outside the repository, or somewhere it cannot say: no folder of it.
        assert_eq!(under("cd /tmp && cat logs/a.txt")[1], ("logs/a.txt".to_owned(), None));
        assert_eq!(under("cd .. && pytest tests/unit")[1], ("tests/unit".to_owned(), None));
        assert_eq!(under("cd $BUILD_DIR; bash scripts/x.sh")[1], ("scripts/x.sh".to_owned(), None));
        // A placeholder for the root is the root, as `cd_after` reads it, and no path itself.
        assert_eq!(under("cd $ROOT; bash scripts/x.sh"), vec![some("scripts/x.sh", "")]);
        assert_eq!(cd_after("cd spiffworkflow-backend"), Some(Some(vec!["spiffworkflow-backend"])));
        assert_eq!(cd_after("cd ./apps/api/ && cd server && pytest"), Some(Some(vec!["apps", "api", "server"])));
        assert_eq!(cd_after("cd .."), Some(None));
        assert_eq!(cd_after("cd packages/core && pnpm pack && cd ../.."), Some(Some(vec![])));
        assert_eq!(cd_after("cd web/app && cd ../api"), Some(Some(vec!["web", "api"])));
        assert_eq!(cd_after("cd"), Some(None));
        assert_eq!(cd_after("uv sync"), None);
        // a placeholder or git's answer for the repository's root is the root
        assert_eq!(cd_after("cd <repo-root>"), Some(Some(vec![])));
        assert_eq!(cd_after("cd \"$REPO_ROOT\" && cd web"), Some(Some(vec!["web"])));
        assert_eq!(cd_after("cd $(git rev-parse --show-toplevel)"), Some(Some(vec![])));
        assert_eq!(cd_after("cd $BUILD_DIR"), Some(None));
    }
}
