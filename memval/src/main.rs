//! `memval`: the one binary. Thin: parse arguments, hand them to one library call per
//! command (`cmd/`), print what comes back, and exit with its code. Every error exits 2.
//!
//! `main` parses the command line, installs telemetry (`telemetry.rs`: the stderr logger, and the
//! OTLP exporter when configured, see `docs/tracing.md`) and the panic hook, runs the command,
//! shuts telemetry down (flushing spans), and turns an error into exit code 2. `cmd/<name>.rs`
//! holds one command each (`validate`, `history`, `serve`, `dlq`, `judge`, `judge_change`,
//! `judge_draft`, `pairs`, `reconcile`, `hook`, `mcp`); `cli.rs` the top-level command list and
//! shared flags; `help.rs` the shape every command's help takes; `model_flags.rs` the `--llm-*`
//! flags; `output.rs` where output goes; `width.rs` the width a table is sized to.

mod cli;
mod cmd;
mod flags;
mod help;
mod model_flags;
mod output;
mod telemetry;
mod width;

use std::process::ExitCode;

use clap::FromArgMatches;

use cli::{Cli, Command};

fn main() -> ExitCode {
    // A panic's message can quote input text (a memory, a file): escaped, never raw. Panics
    // on one memory or claim are caught where they happen and reported on it; this line
    // says where, so the bug can be reported.
    std::panic::set_hook(Box::new(|info| {
        let what = memval_runtime::panics::message(info.payload());
        let at = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        eprintln!("memval: internal error (a bug; please report it){at}: {}", what.escape_debug());
    }));
    let mut matches = cli::command().get_matches();
    let cli = match Cli::from_arg_matches_mut(&mut matches) {
        Ok(cli) => cli,
        Err(e) => e.format(&mut cli::command()).exit(),
    };
    // Logs to stderr; traces over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set (not for a
    // `--check-config`, which only reports what tracing would do).
    let export_traces = !matches!(&cli.command, Command::Serve(args) if args.check_config);
    let telemetry = match telemetry::init(&cli.log, &cli.command.service_name(), export_traces) {
        Ok(telemetry) => telemetry,
        Err(e) => {
            eprintln!("memval: error: {}", memval_proto::display::error_chain(e.chain().map(ToString::to_string)));
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("memval: cannot start the async runtime: {e}");
            return ExitCode::from(2);
        }
    };
    let result = runtime.block_on(async {
        match cli.command {
            Command::Validate(args) => cmd::validate::run(*args).await,
            Command::History(args) => cmd::history::run(args),
            Command::Serve(args) => cmd::serve::serve(*args, &cli::known_env()).await,
            Command::Dlq(args) => cmd::dlq::run(args).await,
            Command::Judge(args) => cmd::judge::judge(args).await,
            Command::Pairs(args) => cmd::pairs::run(args).await,
            Command::Reconcile(args) => cmd::reconcile::run(*args).await,
            Command::Hook(args) => cmd::hook::run(args).await,
            Command::Mcp(args) => cmd::mcp::run(args).await,
        }
    });
    let code = match result {
        Ok(code) => code,
        Err(e) => {
            // An error can quote input (a path, a memory's field, a model's words): one line,
            // escaped, so a newline in it cannot print a line that passes for memval's.
            eprintln!("memval: error: {}", memval_proto::display::error_chain(e.chain().map(ToString::to_string)));
            ExitCode::from(2)
        }
    };
    telemetry.shutdown();
    code
}
