//! Shell commands. Paths and names inside a command (`cargo run -- src/main.rs`) are not
//! assertions about the code, so a command yields no claims at all: precision over recall.

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
    "xargs", "env", "tree", "open", "code", "vim", "nano", "memval",
];

/// Programs and the subcommands that make a prose line (outside code) a command. Stricter
/// than [`TOOLS`]: "git history shows ..." is a sentence, "git checkout main" a command.
const PROSE_TOOLS: &[(&str, &[&str])] = &[
    (
        "cargo",
        &[
            "build", "test", "run", "check", "clippy", "fmt", "add", "install", "bench", "doc",
            "publish", "update", "clean", "nextest", "tree",
        ],
    ),
    (
        "npm",
        &[
            "install",
            "i",
            "ci",
            "run",
            "test",
            "start",
            "exec",
            "add",
            "build",
            "publish",
            "uninstall",
        ],
    ),
    (
        "pnpm",
        &["install", "i", "run", "test", "add", "exec", "build", "dev"],
    ),
    (
        "yarn",
        &["install", "add", "run", "test", "build", "dev", "start"],
    ),
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
    (
        "docker",
        &[
            "build", "run", "compose", "exec", "push", "pull", "ps", "logs",
        ],
    ),
    (
        "go",
        &[
            "build", "test", "run", "get", "mod", "install", "vet", "generate", "fmt", "work",
        ],
    ),
    (
        "kubectl",
        &[
            "apply", "get", "describe", "delete", "logs", "exec", "rollout",
        ],
    ),
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
    let mut words = t
        .split_whitespace()
        .skip_while(|w| w.contains('=') || *w == "sudo" || *w == "exec");
    let first = words.next()?;
    let program = if INTERPRETERS.contains(&first) {
        words.find(|w| !w.starts_with('-'))?
    } else {
        first
    };
    (program.contains('/') || program.contains('.')).then_some(program)
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
        for not_cmd in [
            "src/main.rs",
            "ShardedCache::get",
            "cargo",
            "make",
            "max_connections = 100",
            "./scripts/setup.sh",
        ] {
            assert!(!is_command(not_cmd), "{not_cmd}");
        }
    }

    #[test]
    fn a_command_names_its_own_script() {
        assert_eq!(
            program("./scripts/deploy.sh staging"),
            Some("./scripts/deploy.sh")
        );
        assert_eq!(
            program("scripts/deploy.sh production"),
            Some("scripts/deploy.sh")
        );
        assert_eq!(
            program("$ FOO=1 bash -x tools/run.sh now"),
            Some("tools/run.sh")
        );
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
