//! The reconciler role on a cluster (`memval serve reconciler`): when to reconcile (the cron
//! schedule, a request on `memval.v1.reconcile.<repo>`, debounced memory-ingest events) and
//! how its candidate pairs reach the `memval serve judge` replicas (as `PairBatch`es on the
//! `MEMVAL_PAIRS` stream, judgements back on the run's own consumer of `MEMVAL_JUDGEMENTS`).
//!
//! The reconciliation itself is `memval_reconciler::Reconciler`, the code `memval reconcile`
//! runs, so both write the same report. This module never judges a pair or edits a file; it
//! only waits for judgements, and a pair whose batch got none within the timeout (or was
//! dead-lettered by the judges) is handed back with the reason, never dropped.
//!
//! The reconciler role's loop: the cron schedule, requests on `memval.v1.reconcile.<repo>` of each
//! served repo (a `Listener` in the queue group `memval-reconciler`), memory-ingest events (a
//! core subscription, debounced per repo), one reconciliation at a time, the one in progress
//! finished on shutdown, and the leases of periods other replicas hold watched as one more deadline
//! (`lease`). `JetStreamJudges` is its `PairJudges` over the cluster: a per-run judgements
//! consumer and a dead-letter watcher, both created before the batches are published with the
//! run's id; judgements kept once per batch id; a dead-lettered batch, or one unanswered within
//! `--judge-timeout`, comes back as its reason. When it stops waiting it deletes its unanswered
//! batches from `MEMVAL_PAIRS` by the stream sequences of their publish acks
//! (`Outbox::send_stored`). The full behaviour, with the leases, is `docs/cluster.md`, "The
//! reconciler role".

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use memval_proto::ingest::event_run;
use memval_proto::{codec, subjects, unix_millis, JudgementBatch, Message, PairBatch, RunHeader};
use memval_reconciler::{Counted, Debounce, PairJudges, Reconciler, RepoTarget, Schedule, Trigger};
use memval_runtime::{Inbox, Outbox, StageConfig};
use memval_transport::jetstream::{Claim, JetStream, Lease, LeaseState, Renewal};
use memval_transport::reply::{Request, Requester};
use memval_transport::{header, Headers, Outgoing};

use crate::lease::{self, Held, Verdict};
use crate::submit::belongs_to;
use crate::topology;
use crate::Error;

/// Replicas of `serve reconciler` serving the same repo share its requests through this queue
/// group. The schedule and the ingest events reach every replica; of those due for the same
/// repo and period (a schedule firing, the event that made the count) one writes the report:
/// each claims `memval.v1.leases.reconcile.<repo>.<period>` on `MEMVAL_LEASES` first and the
/// stream stores only the first claim. Its holder keeps that lease alive while it reconciles
/// and ends it `done` or `failed` (the `lease` module); the others write nothing for a finished
/// lease (they say who had it) and watch a running one, taking the period over when its
/// holder stays silent for a whole `--lease-ttl` (crashed, killed, cut off), so a period whose
/// winner died still gets its report. Ingest events are not shared: each reconciler counts the
/// events of its own repos, as each fires its own schedule. Events arrive on a core
/// subscription, which sees every publish (a client's retry too, which the stream
/// de-duplicates but core NATS does not): the debounce counts each event key once within the
/// stream's duplicate window.
pub const QUEUE_GROUP: &str = "memval-reconciler";

/// Pair judging through the cluster: batches to `MEMVAL_PAIRS`, judgements from the run's
/// consumer, waited for until `timeout` after the first batch is published. Each batch carries
/// that deadline (`PairBatch::expires_at`), so a judge that gets it later does not judge it,
/// and the batches still unanswered then are deleted from the stream.
pub struct JetStreamJudges {
    js: JetStream,
    timeout: Duration,
}

impl JetStreamJudges {
    pub fn new(js: JetStream, timeout: Duration) -> JetStreamJudges {
        JetStreamJudges { js, timeout }
    }

    async fn ask_judges(
        &self,
        run: &RunHeader,
        batches: &[PairBatch],
    ) -> Result<HashMap<String, Result<JudgementBatch, String>>, Error> {
        // Both consumers exist before the first batch is out, so no answer is missed.
        let judged = self.js.inbox(&topology::run_judgements_consumer(&run.run_id), 16).await?;
        let dead = self.js.inbox(&topology::run_dlq_consumer(&format!("{}-judge", run.run_id)), 1).await?;
        let result = exchange(&self.js.outbox(), &judged, &dead, run, batches, self.timeout).await;
        drop((judged, dead));
        let result = match result {
            Ok(Exchanged { answers, stored }) => {
                self.withdraw(run, &answers, &stored).await;
                Ok(answers)
            }
            Err(e) => Err(e),
        };
        for spec in [
            topology::run_judgements_consumer(&run.run_id),
            topology::run_dlq_consumer(&format!("{}-judge", run.run_id)),
        ] {
            if let Err(e) = self.js.delete_consumer(&spec.stream, &spec.durable).await {
                tracing::warn!(consumer = %spec.durable, error = %e, "cannot delete the reconciliation's consumer; it expires when idle");
            }
        }
        result
    }

    /// Delete from `MEMVAL_PAIRS` the batches given up on, by the stream sequences their
    /// publish acks gave: nobody will read their answers. A batch a judge already acked is not
    /// found, which is fine; one a judge is working on is deleted under it (its late answer
    /// goes unread). Best effort: a batch left behind is skipped by the judges as expired.
    async fn withdraw(
        &self,
        run: &RunHeader,
        answers: &HashMap<String, Result<JudgementBatch, String>>,
        stored: &[(String, u64)],
    ) {
        let mut deleted = 0usize;
        for (batch_id, sequence) in stored.iter().filter(|(id, _)| !answers.contains_key(id)) {
            match self.js.delete_message(topology::PAIRS, *sequence).await {
                Ok(true) => deleted += 1,
                Ok(false) => {}
                Err(e) => {
                    tracing::warn!(batch_id = %memval_proto::display::one_line(batch_id), sequence, error = %e, "cannot delete a pair batch given up on; the judges will skip it as expired")
                }
            }
        }
        if deleted > 0 {
            tracing::info!(run = %memval_proto::display::one_line(&run.run_id), deleted, "pair batches given up on deleted from the queue");
        }
    }
}

/// What [`exchange`] got: an answer per batch answered in time, and where each batch was
/// stored (batch id, stream sequence) when the transport says.
struct Exchanged {
    answers: HashMap<String, Result<JudgementBatch, String>>,
    stored: Vec<(String, u64)>,
}

/// Publish `batches` on `outbox`, each stamped with the deadline `timeout` from now, and
/// collect, until each has an answer or the deadline has passed, the judgements arriving on
/// `judged` (a duplicate delivery is kept once) and the judges' dead letters of these batches
/// arriving on `dead`. A batch missing from the answers got neither in time.
async fn exchange(
    outbox: &dyn Outbox,
    judged: &dyn Inbox,
    dead: &dyn Inbox,
    run: &RunHeader,
    batches: &[PairBatch],
    timeout: Duration,
) -> Result<Exchanged, Error> {
    let config = StageConfig::default();
    // One deadline for the wait and for the judges: the wall clock travels in the batches, the
    // monotonic one bounds the wait (read second, so the wait never ends before the stamp).
    // Publishing counts against the timeout, so no judge works on a batch after this
    // reconciler has stopped reading answers.
    let expires_at = unix_millis(std::time::SystemTime::now())
        .saturating_add(i64::try_from(timeout.as_millis()).unwrap_or(i64::MAX));
    let deadline = tokio::time::Instant::now() + timeout;
    let mut stored = Vec::new();
    for batch in batches {
        let stamped = PairBatch { expires_at: Some(expires_at), ..batch.clone() };
        let payload = codec::encode(&stamped).map_err(Error::codec("encoding a pair batch"))?;
        let mut headers = Headers::new();
        headers.insert(header::RUN, &run.run_id);
        let message = Outgoing { subject: batch.subject(), msg_id: batch.batch_id.clone(), headers, payload };
        if let Some(sequence) = memval_runtime::publish_stored(outbox, message, &config).await? {
            stored.push((batch.batch_id.clone(), sequence));
        }
    }
    // The judge stage answers batch B with `B.j`.
    let mut answers: HashMap<String, Result<JudgementBatch, String>> = HashMap::new();
    while answers.len() < batches.len() {
        tokio::select! {
            _ = tokio::time::sleep_until(deadline) => break,
            next = judged.next() => match next {
                Some(Ok(envelope)) => {
                    let decoded = codec::decode::<JudgementBatch>(&envelope.payload);
                    let _ = envelope.acker.ack().await;
                    match decoded {
                        Ok(out) => {
                            let Some(input) = out.batch_id.strip_suffix(".j").map(str::to_owned) else { continue };
                            // A duplicate delivery answers a batch already answered: kept once.
                            if batches.iter().any(|b| b.batch_id == input) {
                                answers.entry(input).or_insert(Ok(out));
                            }
                        }
                        Err(e) => tracing::warn!(error = %e, "an undecodable judgement batch; its pairs stay unanswered"),
                    }
                }
                Some(Err(e)) => pause(&e.to_string()).await,
                None => return Err(Error::Incomplete(format!("the judgement consumer of {} closed", run.run_id))),
            },
            next = dead.next() => match next {
                Some(Ok(envelope)) => {
                    let ours = belongs_to(&envelope, &run.run_id);
                    let reason = envelope.headers.get(header::DLQ_REASON).unwrap_or("no reason given").to_owned();
                    let msg_id = envelope.headers.get(header::DLQ_MSG_ID).unwrap_or("").to_owned();
                    let _ = envelope.acker.ack().await;
                    if ours && batches.iter().any(|b| b.batch_id == msg_id) {
                        answers.entry(msg_id).or_insert(Err(format!("not judged: the judges gave up on the batch ({reason})")));
                    }
                }
                Some(Err(e)) => pause(&e.to_string()).await,
                None => return Err(Error::Incomplete(format!("the dead-letter consumer of {} closed", run.run_id))),
            },
        }
    }
    Ok(Exchanged { answers, stored })
}

async fn pause(error: &str) {
    tracing::warn!(error, "nats unavailable while waiting for judgements, retrying");
    tokio::time::sleep(Duration::from_millis(500)).await;
}

impl PairJudges for JetStreamJudges {
    fn judge<'a>(
        &'a self,
        run: &'a RunHeader,
        batches: Vec<PairBatch>,
    ) -> BoxFuture<'a, Vec<Result<JudgementBatch, String>>> {
        Box::pin(async move {
            match self.ask_judges(run, &batches).await {
                Ok(mut answers) => batches
                    .iter()
                    .map(|b| {
                        answers.remove(&b.batch_id).unwrap_or_else(|| {
                            Err(format!(
                                "not judged: no judgement within {}s (is a `memval serve judge` with a model running on this NATS?)",
                                self.timeout.as_secs()
                            ))
                        })
                    })
                    .collect(),
                Err(e) => batches.iter().map(|_| Err(format!("not judged: the pairs could not reach the judges ({e})"))).collect(),
            }
        })
    }
}

const DAY: Duration = Duration::from_secs(86_400);

/// When the reconciler role reconciles.
pub struct Triggers {
    /// Every served repo, on this schedule.
    pub schedule: Schedule,
    /// After this many memory-ingest events of a repo...
    pub debounce_events: u32,
    /// ...or this long after its last event.
    pub debounce_quiet: Duration,
    /// A period's lease holder beats every quarter of this; a replica watching the lease
    /// takes the period over after this long without a beat.
    pub lease_ttl: Duration,
}

/// Serve `reconciler` on `js` until `shutdown` resolves. Reconciliations run one at a time,
/// in the order they fall due; a request or event arriving meanwhile waits in its (bounded)
/// subscription. The reconciliation in progress when `shutdown` resolves is finished.
pub async fn serve_reconciler(
    js: &JetStream,
    reconciler: Arc<Reconciler>,
    triggers: Triggers,
    url: &str,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<ReconcilerStats, Error> {
    let connection = js.requester();
    // One subscription per served repo, so a request reaches only a reconciler that serves
    // it (a repo nobody serves gets "no responders" at once, not a wrong answer).
    let mut listeners = Vec::new();
    for target in reconciler.repos() {
        let subject = target.request_subject();
        listeners.push(
            connection
                .listen(&subject, Some(QUEUE_GROUP))
                .await
                .map_err(Error::transport(format!("listening on {subject}")))?,
        );
    }
    let requests = futures::stream::select_all(
        listeners
            .into_iter()
            .map(|l| Box::pin(futures::stream::unfold(l, |mut l| async move { l.next().await.map(|r| (r, l)) }))),
    );
    tokio::pin!(requests);
    let mut events = connection
        .listen(subjects::MEMORY_INGESTED, None)
        .await
        .map_err(Error::transport("listening for ingest events"))?;
    let names: Vec<&str> = reconciler.repos().iter().map(|r| r.name.as_str()).collect();
    eprintln!(
        "memval: reconciler serving on {url} (repos {}, schedule {:?}, requests on {}.<repo>, after {} ingest events or {}s quiet, pair judges: {})",
        names.join(", "),
        triggers.schedule.expression(),
        subjects::RECONCILE,
        triggers.debounce_events,
        triggers.debounce_quiet.as_secs_f64(),
        if reconciler.judges() { "memval serve judge over MEMVAL_PAIRS" } else { "none (candidates not judged)" }
    );
    let window = js.settings().duplicate_window;
    let mut debounce: BTreeMap<String, Debounce> = reconciler
        .repos()
        .iter()
        .map(|r| (r.name.clone(), Debounce::new(triggers.debounce_events, triggers.debounce_quiet, window)))
        .collect();
    let mut stats = ReconcilerStats::default();
    let ttl = triggers.lease_ttl;
    // Periods other replicas hold, until their holder ends the lease or falls silent.
    let mut watches: Vec<Watch> = Vec::new();
    tokio::pin!(shutdown);
    let started = chrono::Utc::now();
    let mut next_fire = triggers.schedule.next_after(started);
    // Periods that fired before this replica started may be held by a reconciler that died
    // with nobody watching (the others were down, or started after its claim, as this one):
    // watched like any period claimed by another.
    watches.extend(claimed_before_start(js, &reconciler, &triggers, started, ttl).await);
    loop {
        let until_fire = next_fire.map(|t| (t - chrono::Utc::now()).to_std().unwrap_or(Duration::ZERO));
        let quiet_due = debounce.values().filter_map(Debounce::deadline).min();
        let watch_due = watches.iter().map(|w| w.check_at).min();
        let work: Vec<Work> = tokio::select! {
            biased;
            _ = &mut shutdown => break,
            // Before the other triggers: a check is one read, and a busy schedule must not
            // keep a dead holder's period waiting.
            _ = tokio::time::sleep_until(watch_due.unwrap_or_else(Instant::now).into()), if watch_due.is_some() => {
                let now = Instant::now();
                let (ready, waiting): (Vec<Watch>, Vec<Watch>) = std::mem::take(&mut watches).into_iter().partition(|w| w.check_at <= now);
                watches = waiting;
                let mut work = Vec::new();
                for watch in ready {
                    match check_watch(js, watch, ttl, &mut stats).await {
                        Checked::Watching(w) => watches.push(w),
                        Checked::Ended => {}
                        Checked::TookOver(w) => work.push(w),
                    }
                }
                work
            }
            // A firing years away is waited for a day at a time (the timer's range is finite).
            _ = tokio::time::sleep(until_fire.unwrap_or(DAY).min(DAY)), if until_fire.is_some() => {
                if until_fire.is_some_and(|wait| wait > DAY) {
                    Vec::new()
                } else {
                    // Every replica computes the same firing instant from the same expression.
                    let period = next_fire.map(|t| format!("schedule-{}", t.timestamp()));
                    next_fire = triggers.schedule.next_after(chrono::Utc::now());
                    reconciler.repos().iter().map(|r| Work::Claim(Due { target: r.clone(), trigger: Trigger::Schedule, reply: None, period: period.clone() })).collect()
                }
            }
            _ = tokio::time::sleep_until(quiet_due.unwrap_or_else(Instant::now).into()), if quiet_due.is_some() => {
                let now = Instant::now();
                let mut due = Vec::new();
                for (name, d) in debounce.iter_mut() {
                    let pending = d.pending();
                    let period = d.last_key().map(|k| format!("ingest-{k}"));
                    if d.due(now) {
                        if let Some(r) = reconciler.find(name) {
                            due.push(Work::Claim(Due { target: r.clone(), trigger: Trigger::Ingest(pending), reply: None, period }));
                        }
                    }
                }
                due
            }
            request = futures::StreamExt::next(&mut requests) => match request {
                // A request reaches one replica (the queue group): nothing to claim.
                Some(request) => match on_request(&reconciler, &connection, &request, &mut stats).await {
                    Some(target) => vec![Work::Claim(Due { target, trigger: Trigger::Request, reply: request.reply, period: None })],
                    None => Vec::new(),
                },
                None => return Err(Error::Incomplete("the reconcile request subscription ended".into())),
            },
            event = events.next() => match event {
                Some(event) => on_event(&reconciler, &event, &mut debounce, &mut stats).into_iter().map(Work::Claim).collect(),
                None => return Err(Error::Incomplete("the memory-ingest subscription ended".into())),
            },
        };
        for work in work {
            let due = match &work {
                Work::Claim(due) | Work::TakenOver { due, .. } => due,
            };
            if let Some(d) = debounce.get_mut(&due.target.name) {
                // This reconciliation covers the events so far.
                d.clear();
            }
            match work {
                Work::Claim(due) => {
                    if let Some(watch) = reconcile_one(js, &reconciler, &connection, due, ttl, &mut stats).await {
                        watches.push(watch);
                    }
                }
                Work::TakenOver { due, run_id, held, sequence } => {
                    run_reconciliation(&reconciler, &connection, &due, &run_id, Some((*held, sequence)), &mut stats)
                        .await;
                }
            }
        }
    }
    // Another replica, or the next period, covers what was still watched.
    for watch in watches {
        eprintln!(
            "{}",
            memval_proto::display::one_line(&format!(
                "memval: reconciler: {} ({}): stopped watching period {} at shutdown (held by {} when last seen)",
                watch.due.target.name,
                watch.due.trigger,
                watch.due.period.as_deref().unwrap_or(""),
                watch.lease.owner
            ))
        );
    }
    // Unanswered requests time out for their requesters; nothing else is lost (a request is
    // only a trigger).
    let _ = events.drain().await;
    Ok(stats)
}

/// A period another replica holds, watched with the work due for it.
type Watch = lease::Watch<Due>;

/// How far back a starting reconciler looks for scheduled periods still running, and how many
/// of them it reads at most: enough for a day of an hourly schedule, or the last firings of a
/// frequent one, at one lease read each.
const LOOK_BACK: Duration = Duration::from_secs(24 * 3600);
const LOOK_BACK_PERIODS: usize = 24;

/// The scheduled periods of the last [`LOOK_BACK`] (at most [`LOOK_BACK_PERIODS`] per repo)
/// whose lease says running: their holder may have died before any replica watched it, so this
/// one watches them and takes over a silent one. A period nobody claimed is not reconciled
/// late, and one already done is left alone.
async fn claimed_before_start(
    js: &JetStream,
    reconciler: &Reconciler,
    triggers: &Triggers,
    started: chrono::DateTime<chrono::Utc>,
    ttl: Duration,
) -> Vec<Watch> {
    let mut watches = Vec::new();
    for fired in triggers.schedule.fired_within(started, LOOK_BACK, LOOK_BACK_PERIODS) {
        let period = format!("schedule-{}", fired.timestamp());
        for target in reconciler.repos() {
            let subject = lease_subject(&target.name, &period);
            match js.read_lease(topology::LEASES, &subject).await {
                Ok(Some(lease)) if !lease.state.is_terminal() => {
                    tracing::info!(
                        repo = %target.name,
                        period = %period,
                        holder = %memval_proto::display::one_line(&lease.owner),
                        "a period claimed before this reconciler started, watching its lease"
                    );
                    let due = Due {
                        target: target.clone(),
                        trigger: Trigger::Schedule,
                        reply: None,
                        period: Some(period.clone()),
                    };
                    watches.push(Watch::new(due, subject, lease, ttl));
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(subject = %subject, error = %e, "cannot read the lease of a period before this reconciler started; not watched")
                }
            }
        }
    }
    watches
}

/// What the reconciler does next: claim a period (or just reconcile, for a request), or
/// reconcile a period it has just taken over from a silent holder.
enum Work {
    Claim(Due),
    TakenOver { due: Due, run_id: String, held: Box<Held>, sequence: u64 },
}

/// What became of a watch at its deadline.
enum Checked {
    Watching(Watch),
    /// The holder finished (logged and counted).
    Ended,
    TookOver(Work),
}

/// Read a watched lease again and act on it: a finished one ends the watch, a live one is
/// watched again from now, a silent one is taken over (a compare-and-swap expecting the
/// message seen a ttl ago; refused, somebody else published, so the watch goes on).
async fn check_watch(js: &JetStream, watch: Watch, ttl: Duration, stats: &mut ReconcilerStats) -> Checked {
    // A read that fails is tried again soon, keeping what was seen and when.
    let retry = lease::heartbeat_every(ttl);
    let now = match js.read_lease(topology::LEASES, &watch.subject).await {
        Ok(now) => now,
        Err(e) => {
            tracing::warn!(subject = %watch.subject, error = %e, "cannot read a watched lease, trying again");
            return Checked::Watching(watch.retry(retry));
        }
    };
    match lease::verdict(watch.lease.sequence, now.as_ref()) {
        Verdict::Ended => {
            left_to_other(&watch.due, now.as_ref().expect("an ended lease was read"), stats);
            Checked::Ended
        }
        Verdict::Alive => {
            Checked::Watching(Watch::new(watch.due, watch.subject, now.expect("a live lease was read"), ttl))
        }
        Verdict::Silent => {
            let Watch { due, subject, lease: seen, seen_at, .. } = watch;
            let period = due.period.clone().unwrap_or_default();
            let silent = seen_at.elapsed().as_secs();
            let from = lease::holder_name(&seen.owner);
            let run_id = new_reconcile_run(&due.target);
            let owner = format!(
                "{run_id} (pid {}) (took over period {period} from {from}, silent for {silent}s)",
                std::process::id()
            );
            let expected = now.as_ref().map_or(0, |l| l.sequence);
            match js.publish_lease(topology::LEASES, &subject, &owner, LeaseState::Running, ttl, expected).await {
                Ok(Renewal::Stored { sequence }) => {
                    stats.taken_over += 1;
                    let label = format!("{} ({})", due.target.name, due.trigger);
                    eprintln!(
                        "{}",
                        memval_proto::display::one_line(&format!(
                            "memval: reconciler: {label}: took over period {period} from {from}, silent for {silent}s"
                        ))
                    );
                    let held = Box::new(Held::new(js, &subject, &owner, ttl, &label, &period));
                    Checked::TookOver(Work::TakenOver { due, run_id, held, sequence })
                }
                // Somebody else published first (the holder woke, or another replica took
                // over): watch that.
                Ok(Renewal::Refused) => match js.read_lease(topology::LEASES, &subject).await {
                    Ok(Some(l)) if l.state.is_terminal() => {
                        left_to_other(&due, &l, stats);
                        Checked::Ended
                    }
                    Ok(Some(l)) => Checked::Watching(Watch::new(due, subject, l, ttl)),
                    Ok(None) | Err(_) => Checked::Watching(Watch {
                        due,
                        subject,
                        lease: seen,
                        seen_at,
                        check_at: Instant::now() + retry,
                    }),
                },
                Err(e) => {
                    tracing::warn!(subject = %subject, error = %e, "cannot take over a silent lease, trying again");
                    Checked::Watching(Watch { due, subject, lease: seen, seen_at, check_at: Instant::now() + retry })
                }
            }
        }
    }
}

/// Say that `due`'s period is another reconciler's, finished or failed: no report here.
fn left_to_other(due: &Due, lease: &Lease, stats: &mut ReconcilerStats) {
    stats.left_to_others += 1;
    let failed = if lease.state == LeaseState::Failed { " (its reconciliation failed)" } else { "" };
    eprintln!(
        "{}",
        memval_proto::display::one_line(&format!(
            "memval: reconciler: {} ({}): no report here; period {} is reconciled by {}{failed}",
            due.target.name,
            due.trigger,
            due.period.as_deref().unwrap_or(""),
            lease.owner
        ))
    );
}

fn new_reconcile_run(target: &RepoTarget) -> String {
    format!("reconcile-{}-{}", subjects::subject_token(&target.name), crate::new_run_id())
}

/// A reconciliation that is due, and the period it covers when other replicas are due for the
/// same one (`None` for a request, which reaches one replica).
#[derive(Clone)]
pub(crate) struct Due {
    target: RepoTarget,
    trigger: Trigger,
    reply: Option<String>,
    period: Option<String>,
}

/// The subject a reconciler claims before reconciling `repo` for `period`.
fn lease_subject(repo: &str, period: &str) -> String {
    format!("{}.{}.{}", subjects::RECONCILE_LEASES, subjects::subject_token(repo), subjects::subject_token(period))
}

/// What a reconciler role did.
#[derive(Debug, Default, Clone)]
pub struct ReconcilerStats {
    pub reports: u64,
    pub failed: u64,
    pub requests: u64,
    pub ingest_events: u64,
    /// Ingest events delivered again (same event key within the duplicate window), not counted.
    pub repeated_events: u64,
    /// Requests for a repo this reconciler does not serve, and events it could not read.
    pub ignored: u64,
    /// Reconciliations not run here because another reconciler claimed their period first
    /// and finished it.
    pub left_to_others: u64,
    /// Periods taken over from a reconciler that claimed them and then fell silent.
    pub taken_over: u64,
}

async fn on_request(
    reconciler: &Reconciler,
    connection: &Requester,
    request: &Request,
    stats: &mut ReconcilerStats,
) -> Option<RepoTarget> {
    stats.requests += 1;
    let target = reconciler.repos().iter().find(|r| r.request_subject() == request.subject).cloned();
    if target.is_none() {
        stats.ignored += 1;
        let repo = request.subject.rsplit('.').next().unwrap_or("");
        tracing::warn!(subject = %request.subject, "a reconcile request for a repo this reconciler does not serve");
        if let Some(reply) = &request.reply {
            let known: Vec<&str> = reconciler.repos().iter().map(|r| r.name.as_str()).collect();
            let text =
                memval_reconciler::stage::error_reply(repo, &format!("this reconciler serves {}", known.join(", ")));
            let _ = connection.answer(reply, memval_proto::display::json_safe(&text).into_bytes()).await;
        }
    }
    target
}

fn on_event(
    reconciler: &Reconciler,
    event: &Request,
    debounce: &mut BTreeMap<String, Debounce>,
    stats: &mut ReconcilerStats,
) -> Vec<Due> {
    stats.ingest_events += 1;
    // Only the repo and the event's key (its run id, as the ingest role names it) are read
    // here; the ingest role validates and dead-letters bad events.
    let (repo, key) = match event_run(&event.payload, event.msg_id.as_deref(), 0) {
        Ok((header, _)) => (header.repo, header.run_id),
        Err(reason) => {
            stats.ignored += 1;
            tracing::warn!(reason, "an ingest event the reconciler cannot read");
            return Vec::new();
        }
    };
    let Some(target) = reconciler.find(&repo).cloned() else {
        stats.ignored += 1;
        return Vec::new();
    };
    let d = debounce.get_mut(&target.name).expect("every served repo has a debounce");
    let pending = d.pending() + 1;
    match d.event(&key, Instant::now()) {
        Counted::Due => {
            vec![Due { period: Some(format!("ingest-{key}")), target, trigger: Trigger::Ingest(pending), reply: None }]
        }
        Counted::Pending => Vec::new(),
        Counted::Repeat => {
            stats.repeated_events += 1;
            tracing::debug!(event = %key, repo = %target.name, "an ingest event delivered again, counted once");
            Vec::new()
        }
    }
}

/// Claim `due`'s period and reconcile it, or leave it to the reconciler that holds it: a
/// finished holder is named and nothing is written; a running one is returned to be watched.
async fn reconcile_one(
    js: &JetStream,
    reconciler: &Reconciler,
    connection: &Requester,
    due: Due,
    ttl: Duration,
    stats: &mut ReconcilerStats,
) -> Option<Watch> {
    let run_id = new_reconcile_run(&due.target);
    let mut held = None;
    if let Some(period) = &due.period {
        let owner = format!("{run_id} (pid {})", std::process::id());
        let subject = lease_subject(&due.target.name, period);
        let label = format!("{} ({})", due.target.name, due.trigger);
        match js.claim(topology::LEASES, &subject, &owner, ttl).await {
            Ok(Claim::Won { sequence }) => held = Some((Held::new(js, &subject, &owner, ttl, &label, period), sequence)),
            Ok(Claim::Held(lease)) if lease.state.is_terminal() => {
                left_to_other(&due, &lease, stats);
                return None;
            }
            Ok(Claim::Held(lease)) => {
                tracing::info!(
                    repo = %due.target.name,
                    period = %memval_proto::display::one_line(period),
                    holder = %memval_proto::display::one_line(&lease.owner),
                    "period claimed by another reconciler, watching its lease"
                );
                return Some(Watch::new(due, subject, lease, ttl));
            }
            Err(e) => match js.read_lease(topology::LEASES, &subject).await {
                // Stored, but its acknowledgement was lost: it is ours to keep alive, or the
                // others would take it over from this live reconciler.
                Ok(Some(mine)) if mine.owner == owner => held = Some((Held::new(js, &subject, &owner, ttl, &label, period), mine.sequence)),
                // Two reports of a period are better than none: the claim only avoids the double.
                _ => eprintln!(
                    "{}",
                    memval_proto::display::one_line(&format!(
                        "memval: reconciler: {label}: cannot claim period {period} ({e}); reconciling anyway, another reconciler may report it too"
                    ))
                ),
            },
        }
    }
    run_reconciliation(reconciler, connection, &due, &run_id, held, stats).await;
    None
}

/// Reconcile `due` as run `run_id`, keeping `held` (a lease stored at a sequence) alive
/// meanwhile and ending it `done` or `failed`; answer the request when there is one.
async fn run_reconciliation(
    reconciler: &Reconciler,
    connection: &Requester,
    due: &Due,
    run_id: &str,
    held: Option<(Held, u64)>,
    stats: &mut ReconcilerStats,
) {
    let (target, trigger, reply) = (&due.target, due.trigger, due.reply.as_deref());
    let heartbeat = held.map(|(held, sequence)| held.keep_alive(sequence));
    let period = due.period.as_deref().map(|p| format!("; period {p}")).unwrap_or_default();
    let result = reconciler.reconcile_period(target, trigger, run_id, due.period.as_deref()).await;
    if let Some(heartbeat) = heartbeat {
        heartbeat.finish(if result.is_ok() { LeaseState::Done } else { LeaseState::Failed }).await;
    }
    // The lease is ended: nobody will look for the period's report by its hidden file now.
    if let (Ok(outcome), Some(p)) = (&result, &due.period) {
        if let Some(dir) = outcome.report.parent() {
            memval_reconciler::naming::clear_period(dir, p);
        }
    }
    let answer = match result {
        Ok(outcome) if outcome.written_before => {
            stats.left_to_others += 1;
            eprintln!(
                "{}",
                memval_proto::display::one_line(&format!(
                    "memval: reconciler: {} ({trigger}): report {} was written by the holder this period was taken over from, before it fell silent; none written here{period}",
                    target.name,
                    outcome.report.display(),
                ))
            );
            outcome.to_json()
        }
        Ok(outcome) => {
            stats.reports += 1;
            eprintln!(
                "{}",
                memval_proto::display::one_line(&format!(
                    "memval: reconciler: {} ({trigger}): report {} ({} findings; {} candidate pairs, {} judged{period})",
                    target.name,
                    outcome.report.display(),
                    outcome.front.findings_count,
                    outcome.candidates,
                    outcome.judged
                ))
            );
            outcome.to_json()
        }
        Err(e) => {
            stats.failed += 1;
            eprintln!(
                "{}",
                memval_proto::display::one_line(&format!(
                    "memval: reconciler: {} ({trigger}) failed: {e}",
                    target.name
                ))
            );
            memval_reconciler::stage::error_reply(&target.name, &e.to_string())
        }
    };
    if let Some(reply) = reply {
        if let Err(e) = connection.answer(reply, memval_proto::display::json_safe(&answer).into_bytes()).await {
            tracing::warn!(error = %e, "could not answer a reconcile request");
        }
    }
}

/// The repos of `--repo-map NAME=PATH` as a reconciler serves them: each repo's memories are
/// `memories` (default `contexts`) taken inside it unless absolute; `out_dir` holds the
/// reports of a single repo, and one folder per repo name below it when there are several
/// (so two repos' reports never share a dated name).
pub fn targets(
    repos: Vec<(String, std::path::PathBuf)>,
    memories: &[std::path::PathBuf],
    out_dir: Option<std::path::PathBuf>,
) -> Vec<RepoTarget> {
    let several = repos.len() > 1;
    let memories = crate::config::reconciler_memories(memories);
    repos
        .into_iter()
        .map(|(name, repo)| RepoTarget {
            memories: memories.iter().map(|m| if m.is_absolute() { m.clone() } else { repo.join(m) }).collect(),
            out_dir: out_dir.as_ref().map(|d| if several { d.join(subjects::subject_token(&name)) } else { d.clone() }),
            name,
            repo,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use memval_proto::Judgement;
    use memval_transport::inproc::{channel, DeadLetters};

    use super::*;

    fn header() -> RunHeader {
        RunHeader { run_id: "rec-1".into(), repo: "shop".into(), commit: None, started_at: 0, expected_memories: 0 }
    }

    fn judged(batch: &str, ids: (&str, &str), rationale: &str) -> Vec<u8> {
        let j = Judgement {
            id_a: ids.0.into(),
            id_b: ids.1.into(),
            verdict: memval_proto::PairVerdict::Consistent,
            claim_a: String::new(),
            claim_b: String::new(),
            confidence: 70,
            rationale: rationale.into(),
            fallback: None,
        };
        codec::encode(&JudgementBatch {
            run: header(),
            batch_id: format!("{batch}.j"),
            judgements: vec![j],
            notes: Vec::new(),
            model: "m".into(),
        })
        .unwrap()
    }

    #[tokio::test]
    async fn every_batch_ends_answered_once_given_up_or_missing() {
        let dead = DeadLetters::default();
        let (pairs_out, pairs_in) = channel(8, dead.clone());
        let (judged_out, judged_in) = channel(8, dead.clone());
        let (dlq_out, dlq_in) = channel(8, dead.clone());
        let batches: Vec<PairBatch> = (0..4)
            .map(|i| PairBatch { run: header(), batch_id: format!("rec-1.p{i}"), pairs: Vec::new(), expires_at: None })
            .collect();
        // p0 answered twice (a redelivered batch judged again), p1 once, p2 dead-lettered by
        // the judges, p3 never answered; and an answer of another run's batch.
        judged_out.publish(subjects::JUDGEMENTS, "a".into(), judged("rec-1.p0", ("1", "2"), "first")).await.unwrap();
        judged_out.publish(subjects::JUDGEMENTS, "b".into(), judged("rec-1.p0", ("1", "2"), "second")).await.unwrap();
        judged_out.publish(subjects::JUDGEMENTS, "c".into(), judged("other.p0", ("1", "2"), "other")).await.unwrap();
        judged_out.publish(subjects::JUDGEMENTS, "d".into(), judged("rec-1.p1", ("3", "4"), "p1")).await.unwrap();
        let mut letter = Headers::new();
        letter.insert(header::RUN, "rec-1");
        letter.insert(header::DLQ_MSG_ID, "rec-1.p2");
        letter.insert(header::DLQ_REASON, "model unreachable");
        dlq_out
            .send(Outgoing {
                subject: "memval.v1.dlq.judge".into(),
                msg_id: "x".into(),
                headers: letter,
                payload: Vec::new(),
            })
            .await
            .unwrap();

        let before = unix_millis(std::time::SystemTime::now());
        let got = exchange(&pairs_out, &judged_in, &dlq_in, &header(), &batches, Duration::from_millis(300))
            .await
            .unwrap()
            .answers;
        let after = unix_millis(std::time::SystemTime::now());
        let first = got["rec-1.p0"].as_ref().unwrap();
        assert_eq!(first.judgements.len(), 1);
        assert_eq!(first.judgements[0].rationale, "first", "the duplicate delivery is not a second judgement");
        assert_eq!(got["rec-1.p1"].as_ref().unwrap().judgements[0].rationale, "p1");
        assert_eq!(
            got["rec-1.p2"].as_ref().unwrap_err(),
            "not judged: the judges gave up on the batch (model unreachable)"
        );
        assert!(!got.contains_key("rec-1.p3") && got.len() == 3, "{:?}", got.keys());
        // Every batch went out, under its own id, with its run in the headers.
        for want in &batches {
            let sent = pairs_in.next().await.unwrap().unwrap();
            assert_eq!(
                (sent.subject.as_str(), sent.msg_id.as_deref()),
                (subjects::PAIRS, Some(want.batch_id.as_str()))
            );
            assert_eq!(sent.headers.get(header::RUN), Some("rec-1"));
            // Each carries the moment the wait ends: 300 ms after it began, before it ended.
            let expires_at = codec::decode::<PairBatch>(&sent.payload).unwrap().expires_at.expect("a deadline");
            assert!((before + 300..=after).contains(&expires_at), "{before} + 300 <= {expires_at} <= {after}");
            sent.acker.ack().await.unwrap();
        }
    }

    #[test]
    fn each_repo_gets_its_memories_and_its_own_report_folder() {
        let one = targets(vec![("shop".into(), "/srv/shop".into())], &[], Some("/reports".into()));
        assert_eq!(one[0].memories, [PathBuf::from("/srv/shop/contexts")]);
        assert_eq!(one[0].out_dir.as_deref(), Some(std::path::Path::new("/reports")));
        assert_eq!(one[0].request_subject(), "memval.v1.reconcile.shop");
        let two = targets(
            vec![("shop".into(), "/srv/shop".into()), ("web.app".into(), "/srv/web".into())],
            &["notes.md".into(), "/shared/memory.db".into()],
            Some("/reports".into()),
        );
        assert_eq!(two[1].memories, [PathBuf::from("/srv/web/notes.md"), PathBuf::from("/shared/memory.db")]);
        assert_eq!(two[1].out_dir.as_deref(), Some(std::path::Path::new("/reports/web_app")));
        assert_eq!(two[1].request_subject(), "memval.v1.reconcile.web_app");
        assert_eq!(targets(vec![("a".into(), "/a".into())], &[], None)[0].out_dir, None);
    }

    #[test]
    fn a_lease_is_one_subject_per_repo_and_period() {
        assert_eq!(lease_subject("shop", "schedule-1764658200"), "memval.v1.leases.reconcile.shop.schedule-1764658200");
        // Dots and wildcards in a repo name or an event key cannot add or widen tokens.
        assert_eq!(
            lease_subject("web.app", "ingest-ingest-e.1>*"),
            "memval.v1.leases.reconcile.web_app.ingest-ingest-e_1__"
        );
    }
}
