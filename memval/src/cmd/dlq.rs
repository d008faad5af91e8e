//! `memval dlq list|replay`: the dead letters of a cluster ([`memval_pipeline::dlq`]), shown
//! by [`memval_report::dlq`].

use std::process::ExitCode;

use clap::Subcommand;
use memval_pipeline::dlq::{self, Filter, Letter};
use memval_pipeline::topology;
use memval_proto::display::one_line;

use crate::flags::{HistoryFormat, NatsArgs};

#[derive(Debug, clap::Args)]
#[command(
    about = "List or re-inject the dead letters of a NATS cluster",
    before_help = "Typical use: memval dlq list --nats nats://127.0.0.1:4222",
    before_long_help = "Batches land in the dead-letter stream (MEMVAL_DLQ) when a stage could not process them \
(bad payload, too many redeliveries). `dlq list` shows them and changes nothing; `dlq replay` publishes them again \
and removes them. Each command's --help says more.",
    after_help = "Exit codes: those of the command run: 0 on success; 2 on bad usage, or when NATS cannot be \
reached or a replay fails."
)]
pub struct DlqArgs {
    #[command(subcommand)]
    pub command: DlqCommand,
}

#[derive(Debug, Subcommand)]
pub enum DlqCommand {
    // No doc comments here: clap would put them over the long help of each command's Args.
    List(DlqListArgs),
    Replay(DlqReplayArgs),
}

#[derive(Debug, clap::Args)]
pub struct DlqTarget {
    /// NATS server URL(s), comma-separated.
    #[arg(long, env = "MEMVAL_NATS_URL", hide_env_values = true, value_name = "URL")]
    pub nats: String,
    #[command(flatten)]
    pub conn: NatsArgs,
    /// Only dead letters of this stage (extractor, investigator, scorer, ingest, judge).
    #[arg(long, value_name = "STAGE")]
    pub stage: Option<String>,
    /// Only dead letters of this run.
    #[arg(long, value_name = "RUN_ID")]
    pub run: Option<String>,
    /// Look at this many dead letters at most, oldest first.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub limit: u32,
}

#[derive(Debug, clap::Args)]
#[command(
    about = "Show dead letters: sequence, time, stage, reason, original subject and message id",
    before_help = "Typical use: memval dlq list --nats nats://127.0.0.1:4222",
    before_long_help = "Shows the dead letters of a cluster (stream MEMVAL_DLQ), oldest first. Batches land there \
when a stage could not process them (bad payload, too many redeliveries). Listing changes nothing.",
    after_help = "Exit codes: 0 on success (also when there are none); 2 on bad usage or when NATS cannot be reached."
)]
pub struct DlqListArgs {
    #[command(flatten)]
    pub target: DlqTarget,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: HistoryFormat,
}

#[derive(Debug, clap::Args)]
#[command(
    about = "Publish dead letters again, then remove them from the dead-letter stream",
    before_help = "Typical use: memval dlq replay --nats nats://127.0.0.1:4222 SEQ...",
    before_long_help = "Publishes dead letters again on their original subject (or --subject), with the headers \
they carried and a new message id (the same if the replay is repeated), then removes each from the dead-letter \
stream once it is published (unless --keep). Name sequences from `memval dlq list`, or --all for every letter that \
matches --stage/--run.",
    after_help = "Exit codes: 0 on success; 2 on bad usage, a sequence that names no dead letter, or when NATS \
cannot be reached or a publish fails (letters not yet published stay in the stream)."
)]
pub struct DlqReplayArgs {
    #[command(flatten)]
    pub target: DlqTarget,
    /// Sequences (from `memval dlq list`) to replay.
    #[arg(value_name = "SEQ", required_unless_present = "all")]
    pub sequences: Vec<u64>,
    /// Replay every dead letter that matches --stage/--run.
    #[arg(long, conflicts_with = "sequences")]
    pub all: bool,
    /// Publish on this subject instead of the original one (e.g. a fixed version).
    #[arg(long, value_name = "SUBJECT")]
    pub subject: Option<String>,
    /// Keep the dead letters after replaying them.
    #[arg(long)]
    pub keep: bool,
}

impl DlqTarget {
    fn filter(&self) -> Filter {
        Filter { stage: self.stage.clone(), run: self.run.clone(), limit: self.limit as usize }
    }
}

pub async fn run(args: DlqArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        DlqCommand::List(list) => {
            let js = topology::connect(&list.target.nats, "memval-dlq", &list.target.conn.options()?).await?;
            let letters = dlq::letters(&js, &list.target.filter()).await?;
            let views: Vec<_> = letters.iter().map(Letter::view).collect();
            let text = match list.format {
                HistoryFormat::Json => memval_report::dlq::to_json(&views),
                HistoryFormat::Table => memval_report::dlq::to_table(&views),
            };
            print!("{text}");
        }
        DlqCommand::Replay(replay) => {
            let js = topology::connect(&replay.target.nats, "memval-dlq", &replay.target.conn.options()?).await?;
            let all = dlq::letters(&js, &replay.target.filter()).await?;
            let chosen = dlq::select(&all, &replay.sequences, replay.all)?;
            let mut print = |sequence: u64, subject: &str| println!("replayed {sequence} to {}", one_line(subject));
            dlq::replay(&js, &chosen, replay.subject.as_deref(), replay.keep, &mut print).await?;
            if chosen.is_empty() {
                println!("no dead letters to replay");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
