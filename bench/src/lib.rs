//! Shared helpers for memval's benchmarks (`accuracy`, `tier_b`, `speed`, `throughput`).
//!
//! Everything here is deliberately independent of memval's own code: symbol definitions are
//! found with plain regexes, files with a plain directory walk, and memval is only ever run
//! as a binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use regex::Regex;

pub mod labelled;
pub mod llama;
pub mod memories;
pub mod nats;
pub mod pair_corpus;
pub mod pair_exact;
pub mod pair_run;

// ---------------------------------------------------------------------------------------
// Deterministic PRNG (splitmix64)
// ---------------------------------------------------------------------------------------

/// splitmix64: small, fast, and the same on every machine.
#[derive(Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// A new generator derived from this seed and a label (stable per label).
    pub fn derive(seed: u64, label: &str) -> Rng {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in label.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        Rng(seed ^ h)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "Rng::below(0)");
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Symbol definitions by regex
// ---------------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lang {
    Rust,
    Python,
}

impl Lang {
    pub fn of(path: &str) -> Option<Lang> {
        if path.ends_with(".rs") {
            Some(Lang::Rust)
        } else if path.ends_with(".py") {
            Some(Lang::Python)
        } else {
            None
        }
    }
}

/// A definition found by regex: `fn|struct|enum|trait NAME` (Rust) or `def|class NAME`
/// (Python).
#[derive(Debug, Clone)]
pub struct Def {
    pub name: String,
    pub kind: &'static str,
    /// 1-based line of the `fn`/`def` keyword.
    pub line: u32,
    /// Leading whitespace width of the definition line.
    pub indent: usize,
    /// Enclosing inherent `impl TYPE` block (Rust) or `class NAME` (Python), for methods
    /// one level deep.
    pub container: Option<String>,
}

fn rust_def_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r#"^(\s*)(?:pub(?:\s*\([^)]*\))?\s+)?(?:(?:const|async|unsafe|default|extern\s+"[^"]*")\s+)*(fn|struct|enum|trait)\s+([A-Za-z_][A-Za-z0-9_]*)\s*[<({;:]?"#,
        )
        .unwrap()
    })
}

fn rust_impl_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    // Inherent impls only (`impl<T> Type<T> {`): trait impls are skipped on purpose.
    RE.get_or_init(|| {
        Regex::new(r"^(?:unsafe\s+)?impl\s*(?:<[^{]*?>)?\s+((?:\w+::)*)(\w+)\s*(?:<[^{]*>)?\s*(?:where\b.*)?\{?\s*$")
            .unwrap()
    })
}

fn py_def_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"^([ \t]*)(?:async\s+)?(def|class)\s+([A-Za-z_][A-Za-z0-9_]*)\s*[(:]").unwrap())
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

pub fn rust_defs(text: &str) -> Vec<Def> {
    let mut out = Vec::new();
    // The container of indent-4 items: the last top-level line that opened an item.
    let mut top: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let ind = indent_of(line);
        let trimmed = line.trim_start();
        if ind == 0 && trimmed.starts_with(|c: char| c.is_ascii_alphabetic()) {
            top = rust_impl_re().captures(line).and_then(|c| {
                if line.contains(" for ") {
                    None
                } else {
                    Some(c[2].to_string())
                }
            });
        }
        if let Some(c) = rust_def_re().captures(line) {
            let name = c[3].to_string();
            let container = if ind == 4 && c[2].eq("fn") { top.clone() } else { None };
            out.push(Def {
                name,
                kind: match &c[2] {
                    "fn" => "fn",
                    "struct" => "struct",
                    "enum" => "enum",
                    _ => "trait",
                },
                line: i as u32 + 1,
                indent: ind,
                container,
            });
        }
    }
    out
}

pub fn python_defs(text: &str) -> Vec<Def> {
    let mut out = Vec::new();
    let mut top: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let ind = indent_of(line);
        let trimmed = line.trim_start();
        let caps = py_def_re().captures(line);
        if ind == 0 && !trimmed.is_empty() && !trimmed.starts_with('#') && !trimmed.starts_with('@') {
            top = match &caps {
                Some(c) if &c[2] == "class" => Some(c[3].to_string()),
                _ => None,
            };
        }
        if let Some(c) = caps {
            let container = if ind == 4 && &c[2] == "def" { top.clone() } else { None };
            out.push(Def {
                name: c[3].to_string(),
                kind: if &c[2] == "def" { "def" } else { "class" },
                line: i as u32 + 1,
                indent: ind,
                container,
            });
        }
    }
    out
}

pub fn defs_for(path: &str, text: &str) -> Vec<Def> {
    match Lang::of(path) {
        Some(Lang::Rust) => rust_defs(text),
        Some(Lang::Python) => python_defs(text),
        None => Vec::new(),
    }
}

/// Identifier-like words of a text.
pub fn words(text: &str) -> impl Iterator<Item = &str> {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"[A-Za-z_][A-Za-z0-9_]*").unwrap()).find_iter(text).map(|m| m.as_str())
}

// ---------------------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------------------

/// `$CARGO_HOME/registry/src` (default `~/.cargo/registry/src`).
pub fn registry_src() -> Result<PathBuf> {
    let home = match std::env::var_os("CARGO_HOME") {
        Some(h) => PathBuf::from(h),
        None => PathBuf::from(std::env::var_os("HOME").context("HOME is not set")?).join(".cargo"),
    };
    let p = home.join("registry").join("src");
    if !p.is_dir() {
        bail!("{} does not exist: no crate sources available offline", p.display());
    }
    Ok(p)
}

/// The crate source folders (`name-version`) of every registry index, sorted by folder name.
pub fn registry_crates() -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut indexes: Vec<PathBuf> =
        std::fs::read_dir(registry_src()?)?.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_dir()).collect();
    indexes.sort();
    for idx in indexes {
        let mut crates: Vec<PathBuf> =
            std::fs::read_dir(&idx)?.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_dir()).collect();
        crates.sort();
        out.extend(crates);
    }
    Ok(out)
}

/// `serde_json-1.0.154` -> `serde_json`.
pub fn crate_name(dir: &Path) -> String {
    let base = dir.file_name().unwrap_or_default().to_string_lossy().into_owned();
    match base.rfind('-') {
        Some(i) if base[i + 1..].starts_with(|c: char| c.is_ascii_digit()) => base[..i].to_owned(),
        _ => base,
    }
}

/// Every regular file under `root` (symlinks are not followed; `.git` and `__pycache__`
/// skipped), as paths relative to `root` with `/` separators, sorted.
pub fn walk_files(root: &Path) -> Result<Vec<String>> {
    let mut out = Vec::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let dir = root.join(&rel);
        for entry in std::fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let ft = entry.file_type()?;
            let child = rel.join(&name);
            if ft.is_dir() {
                if name == ".git" || name == "__pycache__" {
                    continue;
                }
                stack.push(child);
            } else if ft.is_file() {
                out.push(child.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Copy the regular files of `src` into `dst` (which is created); symlinks, `.git` and
/// `__pycache__` are skipped.
pub fn copy_tree(src: &Path, dst: &Path) -> Result<usize> {
    let files = walk_files(src)?;
    for f in &files {
        let to = dst.join(f);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::copy(src.join(f), &to).with_context(|| format!("copying {f}"))?;
    }
    Ok(files.len())
}

/// Text, when the file looks like text (no NUL in the first 8 KiB) and is under `max` bytes.
pub fn read_text(path: &Path, max: u64) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    if meta.len() > max {
        return None;
    }
    let bytes = std::fs::read(path).ok()?;
    if bytes[..bytes.len().min(8192)].contains(&0) {
        return None;
    }
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

// ---------------------------------------------------------------------------------------
// git
// ---------------------------------------------------------------------------------------

/// Run `git` in `dir` with a neutral config; with `date`, author and committer dates are
/// fixed to it.
pub fn git(dir: &Path, args: &[&str], date: Option<&str>) -> Result<String> {
    let mut cmd = Command::new("git");
    cmd.current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_TERMINAL_PROMPT", "0")
        .args([
            "-c",
            "user.name=memval-bench",
            "-c",
            "user.email=bench@memval.invalid",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
            "-c",
            "core.autocrlf=false",
        ])
        .args(args)
        .stdin(Stdio::null());
    if let Some(d) = date {
        cmd.env("GIT_AUTHOR_DATE", d).env("GIT_COMMITTER_DATE", d);
    }
    let out = cmd.output().with_context(|| format!("running git {args:?}"))?;
    if !out.status.success() {
        bail!("git {:?} in {} failed: {}", args, dir.display(), String::from_utf8_lossy(&out.stderr).trim());
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

// ---------------------------------------------------------------------------------------
// memval
// ---------------------------------------------------------------------------------------

/// `--memval PATH` from the arguments, else `$MEMVAL`, else `target/release/memval` next to
/// the running benchmark binary.
pub fn memval_binary(args: &[String]) -> Result<PathBuf> {
    if let Some(i) = args.iter().position(|a| a == "--memval") {
        let p = PathBuf::from(args.get(i + 1).context("--memval needs a path")?);
        return check_binary(p);
    }
    if let Some(p) = std::env::var_os("MEMVAL") {
        return check_binary(PathBuf::from(p));
    }
    let exe = std::env::current_exe()?;
    let p = exe.with_file_name("memval");
    check_binary(p)
}

fn check_binary(p: PathBuf) -> Result<PathBuf> {
    if !p.is_file() {
        bail!("memval binary not found at {} (build it: cargo build --release -p memval)", p.display());
    }
    Ok(p)
}

/// Value of `--NAME VALUE` in the arguments.
pub fn arg_value(args: &[String], name: &str) -> Option<String> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned())
}

pub struct MemvalRun {
    pub status: std::process::ExitStatus,
    pub elapsed: Duration,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

/// `memval validate --repo REPO --memories MEMORIES --format json --fail-on never --store STORE --quiet`.
/// With `discard`, stdout goes to /dev/null.
pub fn run_memval(memval: &Path, repo: &Path, memories: &Path, store: &Path, discard: bool) -> Result<MemvalRun> {
    run_memval_with(memval, repo, memories, store, discard, &[])
}

/// [`run_memval`] with `extra` arguments after the others (e.g. `--llm-*` flags).
pub fn run_memval_with(
    memval: &Path,
    repo: &Path,
    memories: &Path,
    store: &Path,
    discard: bool,
    extra: &[String],
) -> Result<MemvalRun> {
    let mut cmd = Command::new(memval);
    cmd.arg("validate")
        .arg("--repo")
        .arg(repo)
        .arg("--memories")
        .arg(memories)
        .args(["--format", "json", "--fail-on", "never", "--store"])
        .arg(store)
        .arg("--quiet")
        .args(extra)
        .stdin(Stdio::null())
        .stderr(Stdio::piped());
    if discard {
        cmd.stdout(Stdio::null());
    } else {
        cmd.stdout(Stdio::piped());
    }
    let start = Instant::now();
    let out = cmd.output().with_context(|| format!("running {}", memval.display()))?;
    let elapsed = start.elapsed();
    Ok(MemvalRun {
        status: out.status,
        elapsed,
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    })
}

pub fn median(mut xs: Vec<f64>) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    xs.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_is_stable() {
        let mut r = Rng::new(1);
        assert_eq!(r.next_u64(), 0x910a_2dec_8902_5cc1);
    }

    #[test]
    fn rust_defs_and_containers() {
        let src = "pub struct Cache {\n}\n\nimpl<K: Eq> Cache<K> {\n    pub fn get(&self) {}\n}\nimpl Drop for Cache {\n    fn drop(&mut self) {}\n}\npub(crate) async fn run() {}\n";
        let d = rust_defs(src);
        let names: Vec<_> = d.iter().map(|d| (d.name.as_str(), d.line, d.container.as_deref())).collect();
        assert_eq!(names, vec![("Cache", 1, None), ("get", 5, Some("Cache")), ("drop", 8, None), ("run", 10, None)]);
    }

    #[test]
    fn python_defs_and_containers() {
        let src = "import os\n\nclass A(B):\n    def m(self):\n        pass\n\n@dec\ndef f(x):\n    return x\n";
        let d = python_defs(src);
        let names: Vec<_> = d.iter().map(|d| (d.name.as_str(), d.line, d.container.as_deref())).collect();
        assert_eq!(names, vec![("A", 3, None), ("m", 4, Some("A")), ("f", 8, None)]);
    }
}
