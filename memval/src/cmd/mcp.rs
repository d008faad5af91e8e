//! `memval mcp`: the MCP server (`memval_integrations::mcp`) on stdin/stdout until the client
//! closes the session or the process gets SIGINT/SIGTERM.

use std::process::ExitCode;

#[derive(Debug, clap::Args)]
#[command(
    long_about = "A Model Context Protocol server on stdio, for coding agents. Tools: validate_memories {repo, memories, fail_on?}, \
check_memory {repo, text}, judge_draft {memory_dir, draft}, reconcile {repo, memories}; each answers with the JSON the matching \
command prints. Paths outside the repo (or its Claude Code memory folder) are refused. No model is used. Logs go to stderr.\n\n\
Exit codes: 0 when the session ends; 2 when it cannot start.",
    after_help = "Claude Code:  claude mcp add memval -- memval mcp\nCursor (.cursor/mcp.json):  {\"mcpServers\": {\"memval\": {\"command\": \"memval\", \"args\": [\"mcp\"]}}}"
)]
pub struct McpArgs {}

pub async fn run(_args: McpArgs) -> anyhow::Result<ExitCode> {
    let shutdown = async {
        let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(s) => s,
            Err(_) => return std::future::pending().await,
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    };
    memval_integrations::mcp::serve(tokio::io::stdin(), tokio::io::stdout(), memval_integrations::confine::claude_home(), shutdown).await?;
    Ok(ExitCode::SUCCESS)
}
