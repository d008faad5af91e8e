//! `memval history`: a store's runs → the history views of [`memval_report::history`].

use std::path::PathBuf;
use std::process::ExitCode;

use crate::flags::HistoryFormat;
use crate::output::emit;

#[derive(Debug, clap::Args)]
#[command(
    about = "Show how memories' scores changed over runs",
    before_help = "Typical use: memval history --repo .",
    before_long_help = "Reads the runs kept in a memval store (REPO/.memval/store, or --store): per memory, each \
run's score and verdict counts, oldest first. Change-validation verdicts kept by `memval judge change --store` are \
listed first in the table. FILTER keeps memories whose id or source path contains it. --format json is one \
document: {\"memories\": [per memory, its runs], \"change_verdicts\": [the same verdicts, digests in full]}. Reads \
the store only; never writes it.",
    after_long_help = "Examples:\n  memval history --repo .\n  memval history lru --format json",
    after_help = "Exit codes: 0 on success; 2 when there is no store or it cannot be read."
)]
pub struct HistoryArgs {
    /// Only memories whose id or source path contains this text.
    pub filter: Option<String>,
    /// Repository whose default store (REPO/.memval/store) to read.
    #[arg(long, value_name = "PATH", default_value = ".")]
    pub repo: PathBuf,
    /// Read this store instead of the repo's default one.
    #[arg(long, value_name = "DIR")]
    pub store: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: HistoryFormat,
}

pub fn run(args: HistoryArgs) -> anyhow::Result<ExitCode> {
    let dir = args.store.clone().unwrap_or_else(|| memval_store::default_dir(&args.repo));
    if !dir.exists() {
        return Err(anyhow::anyhow!(
            "no memval store at {}; run `memval validate` first or pass --store",
            dir.display()
        ));
    }
    let store = memval_store::open(&dir)?;
    let points = memval_scorer::ScoreStore::history(&store, args.filter.as_deref().unwrap_or(""))?;
    let text = match args.format {
        HistoryFormat::Json => memval_report::history::to_json(
            &points,
            memval_judge::change::render::history_records(store.verdicts()?.entries()?),
        ),
        HistoryFormat::Table => {
            // Change-validation verdicts kept with `judge change --store` come first.
            let mut text = String::new();
            for line in memval_judge::change::render::history_lines(store.verdicts()?.entries()?) {
                text.push_str(&line);
                text.push('\n');
            }
            text + &memval_report::history::to_table(&points, args.filter.as_deref())
        }
    };
    emit(None, &text)?;
    Ok(ExitCode::SUCCESS)
}
