//! Leases on reconciliation periods, on the `MEMVAL_LEASES` stream: replicas of a repo claim
//! `memval.v1.leases.reconcile.<repo>.<period>`, the stream stores the first claim, and its
//! holder keeps it alive while it reconciles (a heartbeat every ttl/4) and ends it with
//! `done` or `failed`. A refused replica watches a running lease: a holder silent for a whole
//! ttl, measured on the watcher's own monotonic clock, is presumed dead and its period taken
//! over. Every publish on a lease is a compare-and-swap on the subject's last sequence, so of
//! two replicas taking over the same period one wins.
//!
//! This module decides nothing about reconciling; `reconciling` says when to claim, watch
//! and reconcile, and this module keeps the leases.
//!
//! The holder's heartbeat task (a compare-and-swap publish every ttl/4, then `done` or `failed`),
//! and the watcher's pure decision at its deadline: finished, alive (the sequence changed), or
//! silent for a whole ttl (take over). The lease's owner text is `<run> (pid N)`, its state the
//! `Memval-Lease` header (`running`, `done`, `failed`; none, an older replica's claim, counts as
//! running) and the longest silence its holder promises `Memval-Lease-Ttl`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use memval_proto::display::one_line;
use memval_transport::jetstream::{JetStream, JetStreamError, Lease, LeaseState, Renewal};
use tokio::sync::oneshot;

use crate::topology;

/// The longest part of another holder's owner text kept in a takeover's owner text.
const MAX_FROM: usize = 200;

/// A lease held by this reconciler while it reconciles the period.
pub(crate) struct Held {
    js: JetStream,
    subject: String,
    owner: String,
    ttl: Duration,
    /// `shop (schedule)`: what its log lines start with.
    label: String,
    period: String,
}

impl Held {
    pub(crate) fn new(js: &JetStream, subject: &str, owner: &str, ttl: Duration, label: &str, period: &str) -> Held {
        Held {
            js: js.clone(),
            subject: subject.to_owned(),
            owner: owner.to_owned(),
            ttl,
            label: label.to_owned(),
            period: period.to_owned(),
        }
    }

    /// Beat from now on (the lease was stored at `sequence`) until [`Heartbeat::finish`].
    /// The beats run on their own task, so the reconciliation they cover is not held up.
    pub(crate) fn keep_alive(self, sequence: u64) -> Heartbeat {
        let held = Arc::new(self);
        let (stop, stopped) = oneshot::channel();
        let task = tokio::spawn(beat(held.clone(), sequence, stopped));
        Heartbeat { stop, task, held }
    }

    /// Publish `state` expecting the lease's last message at `expected`. `Some(sequence)`
    /// when stored; `None` when another reconciler has published on the lease since (it took
    /// the period over, presuming this one dead), said here once.
    async fn publish(&self, state: LeaseState, expected: u64) -> Result<Option<u64>, JetStreamError> {
        let publish =
            |expected| self.js.publish_lease(topology::LEASES, &self.subject, &self.owner, state, self.ttl, expected);
        if let Renewal::Stored { sequence } = publish(expected).await? {
            return Ok(Some(sequence));
        }
        let last = self.js.read_lease(topology::LEASES, &self.subject).await?;
        match last {
            // Our own publish whose acknowledgement was lost: carry on from it.
            Some(mine) if mine.owner == self.owner => match publish(mine.sequence).await? {
                Renewal::Stored { sequence } => Ok(Some(sequence)),
                Renewal::Refused => Ok(self.lost(None)),
            },
            other => Ok(self.lost(other.as_ref())),
        }
    }

    fn lost(&self, now: Option<&Lease>) -> Option<u64> {
        let by = now.map_or("another reconciler", |l| l.owner.as_str());
        eprintln!(
            "{}",
            one_line(&format!(
                "memval: reconciler: {}: period {} was taken over by {by} (this reconciler was presumed dead); finishing anyway, the period may get two reports",
                self.label, self.period
            ))
        );
        None
    }
}

/// The heartbeat of a [`Held`] lease.
pub(crate) struct Heartbeat {
    stop: oneshot::Sender<()>,
    task: tokio::task::JoinHandle<Option<u64>>,
    held: Arc<Held>,
}

impl Heartbeat {
    /// Stop beating (a beat in flight is finished, so its sequence is known) and publish
    /// `state`, unless the lease was lost to another reconciler meanwhile.
    pub(crate) async fn finish(self, state: LeaseState) {
        let _ = self.stop.send(());
        let last = match self.task.await {
            Ok(Some(sequence)) => sequence,
            Ok(None) => return,
            Err(e) => {
                tracing::warn!(error = %e, "the lease heartbeat task ended abnormally; the lease is left as it is");
                return;
            }
        };
        if let Err(e) = self.held.publish(state, last).await {
            tracing::warn!(subject = %self.held.subject, state = state.as_str(), error = %e, "cannot end the period's lease; its watchers take it over after the ttl");
        }
    }
}

/// Re-publish the running lease every ttl/4, each expecting the previous one's sequence,
/// until stopped (the last sequence stored) or refused (`None`: the lease was taken over).
async fn beat(held: Arc<Held>, mut sequence: u64, mut stop: oneshot::Receiver<()>) -> Option<u64> {
    let every = heartbeat_every(held.ttl);
    let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = &mut stop => return Some(sequence),
            _ = ticks.tick() => {}
        }
        match held.publish(LeaseState::Running, sequence).await {
            Ok(Some(next)) => sequence = next,
            Ok(None) => return None,
            // The broker may be back by the next beat; the watchers allow a whole ttl.
            Err(e) => {
                tracing::warn!(subject = %held.subject, error = %e, "lease heartbeat not stored, trying again at the next beat")
            }
        }
    }
}

/// How often a holder beats: four beats per ttl, so a watcher needs four missed in a row
/// (not one late publish) before it presumes the holder dead.
pub(crate) fn heartbeat_every(ttl: Duration) -> Duration {
    (ttl / 4).max(Duration::from_millis(50))
}

/// What a watcher learns from a lease at its deadline, having last seen it at `seen`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The holder finished (done or failed): nothing left to do here.
    Ended,
    /// Published since, still running: its holder is alive; watch again from now.
    Alive,
    /// The same message as a whole ttl ago, or none at all: its holder is presumed dead.
    Silent,
}

pub(crate) fn verdict(seen: u64, now: Option<&Lease>) -> Verdict {
    match now {
        Some(lease) if lease.state.is_terminal() => Verdict::Ended,
        Some(lease) if lease.sequence != seen => Verdict::Alive,
        _ => Verdict::Silent,
    }
}

/// How long a watcher waits for a sign of life: its own ttl, or longer when the holder
/// promised a longer one (replicas started with different `--lease-ttl`s do not take over
/// from each other's live holders).
pub(crate) fn patience(own: Duration, promised: Option<Duration>) -> Duration {
    promised.map_or(own, |p| p.max(own))
}

/// The holder an owner text names, without the story of how it got the lease (a takeover's
/// owner text says whom it took over from, which need not nest in the next takeover's).
pub(crate) fn holder_name(owner: &str) -> String {
    let name = owner.split(" (took over ").next().unwrap_or(owner);
    one_line(&name.chars().take(MAX_FROM).collect::<String>())
}

/// A period another replica holds, watched for its holder's silence. `T` is what the
/// watcher will do with the period if it takes it over (`reconciling`'s due work).
pub(crate) struct Watch<T> {
    pub(crate) due: T,
    pub(crate) subject: String,
    /// The lease as last seen, and when (this process's monotonic clock).
    pub(crate) lease: Lease,
    pub(crate) seen_at: Instant,
    /// When to read the lease again.
    pub(crate) check_at: Instant,
}

impl<T> Watch<T> {
    /// Watch `lease`, seen now: read again when its holder would have been silent too long.
    pub(crate) fn new(due: T, subject: String, lease: Lease, ttl: Duration) -> Watch<T> {
        let seen_at = Instant::now();
        let check_at = seen_at + patience(ttl, lease.ttl);
        Watch { due, subject, lease, seen_at, check_at }
    }

    /// Read again after `delay`, keeping what was seen and when (the lease could not be read).
    pub(crate) fn retry(mut self, delay: Duration) -> Watch<T> {
        self.check_at = Instant::now() + delay;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lease(sequence: u64, state: LeaseState) -> Lease {
        Lease { sequence, owner: "reconcile-shop-r1 (pid 7)".into(), state, ttl: None }
    }

    #[test]
    fn a_watcher_ends_on_a_finished_lease_rewatches_a_live_one_and_takes_a_silent_one() {
        let check = |seen: u64, now: Option<Lease>, want: Verdict| {
            assert_eq!(verdict(seen, now.as_ref()), want, "seen {seen}, now {now:?}")
        };
        // Heartbeats since: alive, whatever the sequences in between.
        check(5, Some(lease(6, LeaseState::Running)), Verdict::Alive);
        check(5, Some(lease(90, LeaseState::Running)), Verdict::Alive);
        // Finished, with or without a heartbeat since.
        check(5, Some(lease(6, LeaseState::Done)), Verdict::Ended);
        check(5, Some(lease(5, LeaseState::Failed)), Verdict::Ended);
        // Nothing published for a whole ttl: the crashed winner's one claim.
        check(5, Some(lease(5, LeaseState::Running)), Verdict::Silent);
        // Gone (the stream's age limit, or deleted): nobody holds it.
        check(5, None, Verdict::Silent);
        // Held but unreadable at the claim (sequence unknown): any lease read later is news.
        check(0, Some(lease(3, LeaseState::Running)), Verdict::Alive);
        check(0, None, Verdict::Silent);
    }

    #[test]
    fn a_watcher_waits_for_the_longer_of_its_ttl_and_the_holders() {
        let s = Duration::from_secs;
        assert_eq!(patience(s(60), None), s(60));
        assert_eq!(patience(s(2), Some(s(60))), s(60), "a holder that beats every 15 s is not silent after 2 s");
        assert_eq!(patience(s(60), Some(s(2))), s(60));
    }

    #[test]
    fn four_beats_per_ttl() {
        assert_eq!(heartbeat_every(Duration::from_secs(60)), Duration::from_secs(15));
        assert_eq!(heartbeat_every(Duration::from_secs(2)), Duration::from_millis(500));
        assert_eq!(heartbeat_every(Duration::from_millis(100)), Duration::from_millis(50));
    }

    #[test]
    fn a_takeover_names_the_holder_without_its_own_takeover_story() {
        assert_eq!(holder_name("reconcile-shop-r1 (pid 7)"), "reconcile-shop-r1 (pid 7)");
        assert_eq!(
            holder_name(
                "reconcile-shop-r2 (pid 8) (took over period ingest-e1 from reconcile-shop-r1 (pid 7), silent for 2s)"
            ),
            "reconcile-shop-r2 (pid 8)"
        );
        // Untrusted text: one line, bounded.
        assert_eq!(holder_name("evil\nmemval: reconciler: fake"), "evil\\nmemval: reconciler: fake");
        assert_eq!(holder_name(&"x".repeat(5000)).len(), MAX_FROM);
    }
}
