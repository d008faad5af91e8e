//! `memval dlq list|replay`: what the cluster gave up on, and a way to try again.
//!
//! A dead letter is the original payload, untouched, with the reason and origin in headers,
//! so replaying it is publishing the same bytes on the same subject (or another one, for a
//! message of a version only a newer build speaks).

use std::process::ExitCode;

use anyhow::anyhow;
use memval_runtime::{publish_confirmed, StageConfig};
use memval_transport::jetstream::StoredMessage;
use memval_transport::{header, Outgoing};

use crate::cli::{DlqArgs, DlqCommand, DlqTarget, HistoryFormat};
use crate::cluster;
use crate::remote::run_of;

struct Letter {
    stored: StoredMessage,
    stage: String,
    run: Option<String>,
}

async fn letters(target: &DlqTarget, js: &memval_transport::jetstream::JetStream) -> anyhow::Result<Vec<Letter>> {
    let stored = js.stored_messages(cluster::DLQ, 0, target.limit as usize).await?;
    Ok(stored
        .into_iter()
        .map(|stored| {
            let stage = stored
                .headers
                .get(header::DLQ_STAGE)
                .map(str::to_owned)
                .unwrap_or_else(|| stored.subject.rsplit('.').next().unwrap_or("").to_owned());
            let run = run_of(&stored.headers, &stored.payload);
            Letter { stored, stage, run }
        })
        .filter(|l| target.stage.as_ref().is_none_or(|s| *s == l.stage))
        .filter(|l| target.run.as_ref().is_none_or(|r| l.run.as_ref() == Some(r)))
        .collect())
}

pub async fn dlq(args: DlqArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        DlqCommand::List(list) => {
            let js = cluster::connect(&list.target.nats, &list.target.conn, "memval-dlq").await?;
            let letters = letters(&list.target, &js).await?;
            match list.format {
                HistoryFormat::Json => {
                    let items: Vec<serde_json::Value> = letters
                        .iter()
                        .map(|l| {
                            let h = &l.stored.headers;
                            serde_json::json!({
                                "sequence": l.stored.sequence,
                                "time": memval_proto::rfc3339(l.stored.time),
                                "stage": l.stage,
                                "run": l.run,
                                "subject": h.get(header::DLQ_SUBJECT),
                                "msg_id": h.get(header::DLQ_MSG_ID),
                                "delivery": h.get(header::DLQ_DELIVERY).and_then(|d| d.parse::<u32>().ok()),
                                "reason": h.get(header::DLQ_REASON),
                                "bytes": l.stored.payload.len(),
                            })
                        })
                        .collect();
                    println!("{}", serde_json::to_string_pretty(&items)?);
                }
                HistoryFormat::Table => {
                    if letters.is_empty() {
                        println!("no dead letters");
                    }
                    for l in &letters {
                        let h = &l.stored.headers;
                        println!(
                            "{:>6}  {}  {:<12}  {}  {}  run {}",
                            l.stored.sequence,
                            memval_proto::rfc3339(l.stored.time),
                            l.stage,
                            h.get(header::DLQ_SUBJECT).unwrap_or("?"),
                            h.get(header::DLQ_MSG_ID).unwrap_or("-"),
                            l.run.as_deref().unwrap_or("?"),
                        );
                        println!("        {}", h.get(header::DLQ_REASON).unwrap_or("no reason given"));
                    }
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        DlqCommand::Replay(replay) => {
            let js = cluster::connect(&replay.target.nats, &replay.target.conn, "memval-dlq").await?;
            let all = letters(&replay.target, &js).await?;
            let chosen: Vec<&Letter> = if replay.all {
                all.iter().collect()
            } else {
                let missing: Vec<u64> =
                    replay.sequences.iter().copied().filter(|s| !all.iter().any(|l| l.stored.sequence == *s)).collect();
                if !missing.is_empty() {
                    return Err(anyhow!("no dead letter with sequence {missing:?} (see `memval dlq list`)"));
                }
                all.iter().filter(|l| replay.sequences.contains(&l.stored.sequence)).collect()
            };
            let outbox = js.outbox();
            let config = StageConfig::default();
            for letter in &chosen {
                let h = &letter.stored.headers;
                let subject = match (&replay.subject, h.get(header::DLQ_SUBJECT)) {
                    (Some(s), _) => s.clone(),
                    (None, Some(s)) => s.to_owned(),
                    (None, None) => {
                        return Err(anyhow!("dead letter {} does not say where it came from; pass --subject", letter.stored.sequence))
                    }
                };
                // A fresh id (the original is still in the stream's duplicate window), but
                // the same one if this replay is repeated.
                let msg_id = format!("{}:replay{}", h.get(header::DLQ_MSG_ID).unwrap_or("dlq"), letter.stored.sequence);
                let message = Outgoing { subject: subject.clone(), msg_id, headers: h.propagated(), payload: letter.stored.payload.clone() };
                publish_confirmed(&outbox, message, &config).await.map_err(|e| anyhow!("replaying {}: {e}", letter.stored.sequence))?;
                if !replay.keep {
                    js.delete_message(cluster::DLQ, letter.stored.sequence).await?;
                }
                println!("replayed {} to {subject}", letter.stored.sequence);
            }
            if chosen.is_empty() {
                println!("no dead letters to replay");
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
