//! When a reconciler role reconciles, as pure decisions the role's loop asks: the cron
//! [`Schedule`] (validated when the role starts, so a bad expression is a start-up error, not a
//! service that never fires) and the [`Debounce`] of memory-ingest events (after N events, or
//! T seconds of quiet after the last one; an event delivered again counts once).
//!
//! Nothing here waits, reads a clock or does I/O: the caller passes the times in, so the
//! decisions are tested without sleeping.
//!
//! A schedule of 5 fields is crontab's, fired at second 0; 6-7 fields put seconds first (and an
//! optional year last); an expression that cannot parse or never fires again is an error at
//! start-up. An event is known by the run it starts (its `event_id`, else its `Nats-Msg-Id`, else
//! its bytes' hash), and a key seen again within the stream's duplicate window counts once, since
//! the core subscription sees a client's retried publish that the stream de-duplicates.

use std::collections::{HashSet, VecDeque};
use std::str::FromStr;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

use crate::ReconcileError;

/// A cron schedule. Five fields are crontab's (minute hour day-of-month month day-of-week,
/// fired at second 0); six or seven put seconds first (and a year last), as the `cron` crate
/// reads them.
#[derive(Debug, Clone)]
pub struct Schedule {
    expression: String,
    cron: cron::Schedule,
}

impl Schedule {
    pub fn parse(expression: &str) -> Result<Schedule, ReconcileError> {
        let fields = expression.split_whitespace().count();
        let full = match fields {
            5 => format!("0 {}", expression.trim()),
            6 | 7 => expression.trim().to_owned(),
            n => {
                return Err(ReconcileError::Schedule {
                    expression: expression.to_owned(),
                    reason: format!(
                        "{n} fields; expected 5 (minute hour day month weekday) or 6-7 (seconds first, optional year)"
                    ),
                })
            }
        };
        let cron = cron::Schedule::from_str(&full)
            .map_err(|e| ReconcileError::Schedule { expression: expression.to_owned(), reason: e.to_string() })?;
        if cron.upcoming(Utc).next().is_none() {
            return Err(ReconcileError::Schedule {
                expression: expression.to_owned(),
                reason: "it never fires again".into(),
            });
        }
        Ok(Schedule { expression: expression.to_owned(), cron })
    }

    pub fn expression(&self) -> &str {
        &self.expression
    }

    /// The first firing strictly after `after`, if the schedule has one.
    pub fn next_after(&self, after: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.cron.after(&after).next()
    }

    /// The firings at or before `at` and no earlier than `within` before it, newest first, at
    /// most `most` of them: the periods a replica starting at `at` may find claimed by a
    /// holder that died before anyone watched it.
    pub fn fired_within(&self, at: DateTime<Utc>, within: Duration, most: usize) -> Vec<DateTime<Utc>> {
        let earliest = at - chrono::Duration::from_std(within).unwrap_or(chrono::Duration::MAX);
        // `after(t)` runs backwards from t exclusive; a firing at `at` itself counts.
        let from = at + chrono::Duration::milliseconds(1);
        self.cron.after(&from).rev().take_while(|t| *t >= earliest).take(most).collect()
    }
}

/// Debounced memory-ingest events of one repo: a reconciliation is due after `events`
/// distinct events, or once `quiet` has passed since the last one.
///
/// An event is known by its key (the run it starts: its `event_id`, else its message id, else
/// a hash of its bytes). A client that retries a publish, or a broker that delivers it again,
/// sends the same key: it counts once, so a retry neither brings a reconciliation forward nor
/// starts a second one after the first covered it. Keys are remembered for `repeat_window`
/// after they were first seen (the stream's duplicate window, beyond which the broker would
/// take the event as new too), so the memory is bounded by the event rate, not by uptime.
#[derive(Debug, Clone)]
pub struct Debounce {
    events: u32,
    quiet: Duration,
    repeat_window: Duration,
    pending: u32,
    last: Option<Instant>,
    /// The key of the last event counted: what names the period a reconciliation it triggers
    /// covers, the same on every reconciler that counted the same events.
    last_key: Option<String>,
    /// Keys seen within `repeat_window`, oldest first, and the same keys as a set.
    seen_order: VecDeque<(Instant, String)>,
    seen: HashSet<String>,
}

/// What one ingest event did to a [`Debounce`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counted {
    /// Its key was already counted within the window: nothing changed.
    Repeat,
    /// Counted; not enough events yet.
    Pending,
    /// Counted, and the count is reached: a reconciliation is due now (pending cleared).
    Due,
}

impl Debounce {
    /// `events` is at least 1. `repeat_window` is how long an event's key is remembered.
    pub fn new(events: u32, quiet: Duration, repeat_window: Duration) -> Debounce {
        Debounce {
            events: events.max(1),
            quiet,
            repeat_window,
            pending: 0,
            last: None,
            last_key: None,
            seen_order: VecDeque::new(),
            seen: HashSet::new(),
        }
    }

    /// The event known by `key` arrives at `now`.
    pub fn event(&mut self, key: &str, now: Instant) -> Counted {
        while let Some((at, _)) = self.seen_order.front() {
            if now.saturating_duration_since(*at) < self.repeat_window {
                break;
            }
            if let Some((_, old)) = self.seen_order.pop_front() {
                self.seen.remove(&old);
            }
        }
        if !self.seen.insert(key.to_owned()) {
            return Counted::Repeat;
        }
        self.seen_order.push_back((now, key.to_owned()));
        self.last_key = Some(key.to_owned());
        self.pending += 1;
        self.last = Some(now);
        if self.pending >= self.events {
            self.clear();
            return Counted::Due;
        }
        Counted::Pending
    }

    /// When the pending events fall due for quiet, if any are pending.
    pub fn deadline(&self) -> Option<Instant> {
        self.last.filter(|_| self.pending > 0).map(|t| t + self.quiet)
    }

    /// True (and cleared) when events are pending and `quiet` has passed since the last.
    pub fn due(&mut self, now: Instant) -> bool {
        match self.deadline() {
            Some(at) if now >= at => {
                self.clear();
                true
            }
            _ => false,
        }
    }

    /// The key of the last event counted (kept after a reconciliation clears the count).
    pub fn last_key(&self) -> Option<&str> {
        self.last_key.as_deref()
    }

    /// Events waiting to trigger.
    pub fn pending(&self) -> u32 {
        self.pending
    }

    /// Forget pending events (a reconciliation started for another reason covers them). Their
    /// keys stay remembered: a late repeat of a covered event is still a repeat.
    pub fn clear(&mut self) {
        self.pending = 0;
        self.last = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules_are_checked_and_fire_when_they_say() {
        let t = DateTime::parse_from_rfc3339("2026-12-02T10:15:30Z").unwrap().with_timezone(&Utc);
        let every_second = Schedule::parse("* * * * * *").unwrap();
        assert_eq!(every_second.next_after(t).unwrap().to_rfc3339(), "2026-12-02T10:15:31+00:00");
        // Crontab's five fields fire at second 0.
        let hourly = Schedule::parse("0 * * * *").unwrap();
        assert_eq!(hourly.next_after(t).unwrap().to_rfc3339(), "2026-12-02T11:00:00+00:00");
        let nightly = Schedule::parse("0 30 2 * * *").unwrap();
        assert_eq!(nightly.next_after(t).unwrap().to_rfc3339(), "2026-12-03T02:30:00+00:00");
        // Looking back from a start: newest first, bounded by age and by count.
        let every_ten = Schedule::parse("*/10 * * * * *").unwrap();
        let back = |within: u64, most: usize| -> Vec<String> {
            every_ten
                .fired_within(t, Duration::from_secs(within), most)
                .iter()
                .map(|t| t.format("%H:%M:%S").to_string())
                .collect()
        };
        assert_eq!(back(30, 10), ["10:15:30", "10:15:20", "10:15:10", "10:15:00"], "a firing at the start counts");
        assert_eq!(back(30, 2), ["10:15:30", "10:15:20"]);
        assert_eq!(back(5, 10), ["10:15:30"]);
        assert_eq!(
            hourly.fired_within(t, Duration::from_secs(600), 5),
            Vec::<DateTime<Utc>>::new(),
            "none in the last ten minutes"
        );
        for bad in ["", "* *", "61 * * * *", "* * * * * * * *", "every day", "0 0 0 1 1 * 2001"] {
            let err = Schedule::parse(bad).expect_err(bad).to_string();
            assert!(err.contains("schedule") && err.contains(&format!("{bad:?}")), "{bad}: {err}");
        }
    }

    #[test]
    fn ingest_events_trigger_after_n_or_after_quiet() {
        let t0 = Instant::now();
        let s = Duration::from_secs(1);
        let mut d = Debounce::new(3, 2 * s, 300 * s);
        assert_eq!(d.deadline(), None);
        assert!(!d.due(t0 + 100 * s), "nothing pending, nothing due");
        assert_eq!(d.event("e1", t0), Counted::Pending);
        assert_eq!(d.event("e2", t0 + s), Counted::Pending);
        assert_eq!(d.deadline(), Some(t0 + 3 * s), "quiet counts from the last event");
        assert_eq!(d.event("e3", t0 + s), Counted::Due, "the third event triggers at once");
        assert_eq!((d.pending(), d.deadline()), (0, None));

        assert_eq!(d.event("e4", t0 + 10 * s), Counted::Pending);
        assert!(!d.due(t0 + 11 * s));
        assert!(d.due(t0 + 12 * s), "two seconds of quiet");
        assert!(!d.due(t0 + 13 * s), "and only once");

        let mut one = Debounce::new(0, s, s);
        assert_eq!(one.event("e1", t0), Counted::Due, "a count of 0 is taken as 1");
    }

    #[test]
    fn an_event_delivered_again_counts_once() {
        let t0 = Instant::now();
        let s = Duration::from_secs(1);
        let mut d = Debounce::new(3, 60 * s, 10 * s);
        assert_eq!(d.event("e1", t0), Counted::Pending);
        // A client retry and a redelivery of e1: neither counts nor moves the quiet deadline.
        assert_eq!(d.event("e1", t0 + s), Counted::Repeat);
        assert_eq!(d.event("e1", t0 + 2 * s), Counted::Repeat);
        assert_eq!((d.pending(), d.deadline()), (1, Some(t0 + 60 * s)));
        assert_eq!(d.event("e2", t0 + 3 * s), Counted::Pending);
        assert_eq!(d.event("e3", t0 + 4 * s), Counted::Due, "three distinct events, not three deliveries");
        assert_eq!(d.last_key(), Some("e3"), "the event that made it due names the period");
        // After the reconciliation, a late repeat of an event it covered starts nothing.
        assert_eq!(d.event("e2", t0 + 5 * s), Counted::Repeat);
        assert_eq!(d.pending(), 0);
        // Past the window the key is forgotten, as the broker's duplicate window forgets it.
        assert_eq!(d.event("e1", t0 + 10 * s), Counted::Pending);
        assert_eq!(d.seen.len(), 3, "e1 (again), e2 and e3 are remembered: {:?}", d.seen);
        assert_eq!(d.event("e9", t0 + 100 * s), Counted::Pending);
        assert_eq!(d.seen.len(), 1, "keys older than the window are dropped");
    }
}
