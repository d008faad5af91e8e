//! `memval mcp`: the MCP server (`memval_integrations::mcp`) on stdin/stdout until the client
//! closes the session or the process gets SIGINT/SIGTERM.

use std::process::ExitCode;

/// No flags: the session is configured by the client's tool calls (`--help` on `memval mcp`
/// lists the tools; the text is in `cli.rs` beside the other commands').
#[derive(Debug, clap::Args)]
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
    memval_integrations::mcp::serve(
        tokio::io::stdin(),
        tokio::io::stdout(),
        memval_integrations::confine::claude_home(),
        shutdown,
    )
    .await?;
    Ok(ExitCode::SUCCESS)
}
