//! The YAML front matter at the top of a notes file (`---` to `---`): which of its lines are
//! skipped because they configure the agent tool, not the repository.
//!
//! In a notes file's YAML front matter (the `---` block at its top), the keys that configure the
//! agent tool rather than the repository (`tools`, `mcp-servers`/`mcpServers`/`mcp_servers`,
//! `model`, `color`, `argument-hint`: `TOOL_KEYS`) are not read, together with their indented
//! continuation lines: a sub-agent's `tools: [playwright-test/browser_click]` names no file of
//! the repo. The other keys (`description`, `globs`, `applyTo`, `allowed-tools`) are read as
//! text: `allowed-tools`' `Bash(./scripts/release.sh:*)` names a script of the repo. A docs
//! page's list of its old addresses (`RedirectFrom`, `redirect_from`, `aliases`) is skipped the
//! same way: where the page used to be is no path of today's tree.

/// Front matter keys that configure the agent tool, not the repository: the tools a sub-agent
/// may call (`tools: [playwright-test/browser_click]`), its MCP servers and model. Their values
/// name no file of the repo. (`globs`, `applyTo`, `description` are read, and so is
/// `allowed-tools`, whose `Bash(./scripts/release.sh:*)` names a script of the repo.)
const TOOL_KEYS: &[&str] = &["tools", "mcp-servers", "mcpServers", "mcp_servers", "model", "color", "argument-hint"];

/// Front matter keys of a docs site that list a page's old addresses (`RedirectFrom:
/// docs/build-server-support/build-server/azure-devops`, Jekyll's `redirect_from`, Hugo's
/// `aliases`): where the page used to be, by design, not a path of the tree. Compared without
/// case, `-` or `_`.
const PAST_ADDRESS_KEYS: &[&str] = &["redirectfrom", "aliases", "oldurl", "oldurls"];

/// The YAML front matter at the top of a notes file (`---` to `---`), line by line: which
/// lines belong to one of the [`TOOL_KEYS`] or [`PAST_ADDRESS_KEYS`] (the key's line and its indented continuation).
#[derive(Default)]
pub(super) struct FrontMatter {
    /// Inside the block.
    open: bool,
    /// The block has ended (or there is none): nothing more is skipped.
    done: bool,
    /// The current top-level key is skipped: a tool key or a page's old addresses.
    in_skipped_key: bool,
}

impl FrontMatter {
    /// Whether line `i` (0-based) is to be skipped.
    pub(super) fn skips(&mut self, i: usize, line: &str) -> bool {
        if self.done {
            return false;
        }
        if !self.open {
            if i == 0 && line.trim_end() == "---" {
                self.open = true;
            } else {
                self.done = true;
            }
            return false;
        }
        if matches!(line.trim_end(), "---" | "...") {
            self.done = true;
            return false;
        }
        let continued = line.starts_with([' ', '\t', '-']) || line.trim().is_empty();
        if !continued {
            let key = line.split(':').next().unwrap_or("").trim().trim_matches(['"', '\'']);
            let squashed: String = key.chars().filter(|c| !matches!(c, '-' | '_')).collect::<String>().to_lowercase();
            self.in_skipped_key = TOOL_KEYS.contains(&key) || PAST_ADDRESS_KEYS.contains(&squashed.as_str());
        }
        self.in_skipped_key
    }
}
