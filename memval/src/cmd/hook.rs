//! `memval hook claude`: reads one Claude Code hook event on stdin, hands it to
//! `memval_integrations::hook::claude`, prints its answer and exits with its code.

use std::io::{Read, Write};
use std::process::ExitCode;

use anyhow::Context;
use memval_integrations::hook::{self, HookEnv};

#[derive(Debug, clap::Args)]
#[command(
    about = "Agent hooks: `hook claude` answers Claude Code's PostToolUse and Stop events",
    before_help = "Typical use: memval hook claude, as a command hook in .claude/settings.json",
    before_long_help = "One command per agent; `memval hook claude --help` shows the settings that install it.",
    after_help = "Exit codes: those of the hook (`memval hook claude --help`); 2 on bad usage."
)]
pub struct HookArgs {
    #[command(subcommand)]
    pub agent: HookAgent,
}

#[derive(Debug, clap::Subcommand)]
pub enum HookAgent {
    /// A Claude Code command hook for PostToolUse (Write|Edit|MultiEdit) and Stop.
    #[command(
        before_help = "Typical use: memval hook claude, as a command hook in .claude/settings.json",
        before_long_help = "Reads the hook event on stdin. PostToolUse of Write, Edit or MultiEdit on a memory file \
(CLAUDE.md, CLAUDE.local.md, AGENTS.md, .github/copilot-instructions.md, or a file in the project's Claude memory \
folder) validates that file; Stop validates the project's memory files (not when stop_hook_active is set). The project is \
$CLAUDE_PROJECT_DIR, else the event's cwd; files outside it (and outside its Claude memory folder) are never read.",
        after_long_help = "In .claude/settings.json:\n  {\"hooks\": {\"PostToolUse\": [{\"matcher\": \"Write|Edit|MultiEdit\", \"hooks\": [{\"type\": \"command\", \"command\": \"memval hook claude\"}]}],\n             \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"memval hook claude\"}]}]}}",
        after_help = "Exit codes (Claude Code's): 0 with no output when every checked claim holds; 0 with \
{\"decision\":\"block\",\"reason\":...} on stdout naming the false claims, which Claude reads; 1 with a message on \
stderr for input it cannot use or a path it refuses; 2 on bad usage."
    )]
    Claude,
}

pub async fn run(args: HookArgs) -> anyhow::Result<ExitCode> {
    match args.agent {
        HookAgent::Claude => {
            let mut payload = Vec::new();
            std::io::stdin()
                .take(hook::MAX_PAYLOAD_BYTES as u64 + 1)
                .read_to_end(&mut payload)
                .context("cannot read the hook event from stdin")?;
            let answer = hook::claude(&payload, &HookEnv::from_env()).await;
            std::io::stdout().write_all(answer.stdout.as_bytes())?;
            std::io::stderr().write_all(answer.stderr.as_bytes())?;
            Ok(ExitCode::from(answer.code))
        }
    }
}
