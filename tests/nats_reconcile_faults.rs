//! Reconcilers SIGKILLed at random points of their runs, period after period: `memval serve
//! reconciler` replicas on one repo and one schedule (a firing every few seconds), two
//! `memval serve judge` replicas with a scripted model slow enough that a reconciliation lasts
//! about a second, on a real nats-server.
//!
//! In each of ten consecutive periods the test waits for the period's claim, kills a
//! reconciler (the lease holder, or one drawn at random) at a random moment of the holder's
//! run, and starts another so the set stays at strength. Then:
//! - every period from the first to the last one killed in has exactly one report, and no
//!   period is reported twice, whoever wrote it (the holder, or the replica that took the
//!   period over once the killed holder's lease fell silent);
//! - every report file in the folder is one of those reports (a killed writer leaves no
//!   partial file) and is byte-identical to `memval reconcile` in one process with the same
//!   model.
//!
//! The random moments come from a seed printed at the start; `MEMVAL_TEST_SEED` replays it.

#[allow(dead_code)]
mod support;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use memval_llm::testing::ScriptedServer;
use support::nats::{eventually, stored, NatsServer, Service};
use support::reconcile::{judge_answer, model_args, project, reconcile_in_process, reports_in};
use support::Rng;

/// Periods in which a reconciler is killed.
const PERIODS: usize = 10;
/// Seconds between firings: a holder's run (about 1 s), its takeover a lease ttl or two after
/// the kill, and the survivor's run fit in one, so no replica is still busy at the next.
const EVERY: u64 = 6;
/// How long the scripted model takes per batch: what makes a reconciliation last (five
/// batches on two judges of two each: two rounds, about a second with the rest of the run).
const MODEL_DELAY: Duration = Duration::from_millis(400);
/// The kill lands this long (at most) after the test sees the period's claim: mostly while
/// the holder reconciles, sometimes as it writes or once it is done.
const KILL_WITHIN_MS: u64 = 1500;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Victim {
    /// The replica holding the period's lease.
    Holder,
    /// Any replica, drawn at random (the holder or one watching it).
    Anyone,
}

/// A schedule period's lease messages: (state, owner text), oldest first.
type Lease = Vec<(String, String)>;

/// Every schedule period's lease on `MEMVAL_LEASES`, by firing time.
fn schedule_leases(url: &str) -> BTreeMap<u64, Lease> {
    let mut leases: BTreeMap<u64, Lease> = BTreeMap::new();
    for message in stored(url, "MEMVAL_LEASES") {
        let Some(t) = message.subject.rsplit_once(".schedule-").and_then(|(_, t)| t.parse().ok()) else { continue };
        let state = message.headers.get("Memval-Lease").unwrap_or("").to_owned();
        leases.entry(t).or_default().push((state, String::from_utf8_lossy(&message.payload).into_owned()));
    }
    leases
}

/// The process id an owner text names first (`<run> (pid N)`, then maybe a takeover's story).
fn owner_pid(owner: &str) -> u32 {
    owner.split("(pid ").nth(1).and_then(|r| r.split(')').next()).and_then(|n| n.parse().ok()).expect(owner)
}

/// The reports every reconciler log in `logs` says it wrote: period -> report paths.
fn reported(logs: &Path) -> BTreeMap<u64, Vec<String>> {
    let mut by_period: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    for entry in std::fs::read_dir(logs).unwrap().flatten() {
        if !entry.file_name().to_string_lossy().starts_with("reconciler-") {
            continue;
        }
        for line in std::fs::read_to_string(entry.path()).unwrap().lines() {
            let Some(rest) = line.split("shop (schedule): report ").nth(1) else { continue };
            let path = rest.split(" (").next().unwrap().to_owned();
            let period = rest.rsplit("; period schedule-").next().and_then(|p| p.strip_suffix(')'));
            by_period.entry(period.and_then(|p| p.parse().ok()).expect(line)).or_default().push(path);
        }
    }
    by_period
}

/// Every reconciler's log, for a failure message.
fn all_logs(logs: &Path) -> String {
    let mut names: Vec<_> = std::fs::read_dir(logs).unwrap().flatten().map(|e| e.path()).collect();
    names.sort();
    names
        .iter()
        .map(|p| format!("--- {}\n{}", p.display(), std::fs::read_to_string(p).unwrap_or_default()))
        .collect::<Vec<_>>()
        .join("\n")
}

fn kill_reconcilers_period_after_period(replicas: usize, victim: Victim) {
    let started = Instant::now();
    let mut rng = Rng::from_clock();
    let r = project();
    let root = r.dir.path().canonicalize().unwrap();
    let work = tempfile::tempdir().unwrap();
    let (local_out, out_dir, logs) = (work.path().join("local"), work.path().join("reports"), work.path().join("logs"));
    std::fs::create_dir_all(&logs).unwrap();

    // What every period's report must be: `memval reconcile` in one process, same model.
    let local_model = ScriptedServer::start(judge_answer);
    let want = std::fs::read_to_string(reconcile_in_process(&root, &local_out, &local_model)).unwrap();
    assert!(!want.contains("not judged"), "{want}");

    let nats = NatsServer::start();
    let url = nats.url();
    let model = ScriptedServer::start(|request| judge_answer(request).after(MODEL_DELAY));
    let mut judge_args = model_args(&model);
    judge_args.extend(["--concurrency".to_owned(), "2".to_owned()]);
    let judge_args: Vec<&str> = judge_args.iter().map(String::as_str).collect();
    let judges: Vec<Service> = (0..2).map(|_| Service::start("judge", &url, &judge_args, &logs)).collect();
    let repo_map = format!("shop={}", root.display());
    let schedule = format!("*/{EVERY} * * * * *");
    let args = [
        "--repo-map",
        &repo_map,
        "--schedule",
        &schedule,
        "--memories",
        "contexts",
        "--memories",
        "agents.jsonl",
        "--out-dir",
        out_dir.to_str().unwrap(),
        "--pair-judges",
        "--judge-timeout",
        "60",
        "--lease-ttl",
        "1",
    ];
    let mut reconcilers: Vec<Service> =
        (0..replicas).map(|_| Service::start("reconciler", &url, &args, &logs)).collect();

    // Period after period: the claim, a random moment, a SIGKILL, a replacement.
    let mut last: Option<u64> = None;
    let mut first: Option<u64> = None;
    let mut mid_run = 0;
    for round in 1..=PERIODS {
        let (t, claim) = eventually(Duration::from_secs(3 * EVERY), "the next period's claim", || {
            schedule_leases(&url)
                .into_iter()
                .find(|(t, _)| last.is_none_or(|l| *t > l))
                .map(|(t, lease)| (t, lease[0].1.clone()))
        });
        first.get_or_insert(t);
        last = Some(t);
        let holder = owner_pid(&claim);
        let delay = rng.below(KILL_WITHIN_MS);
        std::thread::sleep(Duration::from_millis(delay));
        let index = match victim {
            Victim::Holder => reconcilers.iter().position(|s| s.pid() == holder),
            Victim::Anyone => Some(rng.below(reconcilers.len() as u64) as usize),
        };
        let Some(index) = index else {
            panic!("period {t}: its holder (pid {holder}) is not a running reconciler\n{}", all_logs(&logs))
        };
        let state = schedule_leases(&url)[&t].last().unwrap().0.clone();
        let doomed = reconcilers.remove(index);
        let pid = doomed.pid();
        doomed.kill();
        let what = if pid == holder { "the holder" } else { "a watcher" };
        if pid == holder && state == "running" {
            mid_run += 1;
        }
        eprintln!("period {round} (schedule-{t}): killed {what} (pid {pid}) {delay} ms after its claim, lease {state}");
        reconcilers.push(Service::start("reconciler", &url, &args, &logs));
    }
    let (first, last) = (first.unwrap(), last.unwrap());
    let periods: Vec<u64> = (first..=last).step_by(EVERY as usize).collect();

    // Every period up to the last one killed in ends with a finished lease.
    eventually(Duration::from_secs(60), "every period's lease finished", || {
        let leases = schedule_leases(&url);
        periods.iter().all(|t| leases.get(t).is_some_and(|l| l.last().unwrap().0 == "done")).then_some(())
    });
    for reconciler in reconcilers {
        let (code, log) = reconciler.terminate();
        assert_eq!(code, Some(0), "{log}");
    }
    for judge in judges {
        let (code, log) = judge.terminate();
        assert_eq!(code, Some(0), "{log}");
    }

    let leases = schedule_leases(&url);
    let by_period = reported(&logs);
    let everything = || format!("leases {leases:#?}\nreports {by_period:#?}\n{}", all_logs(&logs));
    for t in &periods {
        let reports = by_period.get(t).map_or(&[][..], Vec::as_slice);
        assert_eq!(reports.len(), 1, "period schedule-{t} has {} reports\n{}", reports.len(), everything());
    }
    // No period after the last one killed in (the schedule goes on) is reported twice either.
    for (t, reports) in &by_period {
        assert_eq!(reports.len(), 1, "period schedule-{t} reported twice\n{}", everything());
    }
    // Every file in the folder is one of these reports, whole, and the in-process one.
    let files = reports_in(&out_dir);
    assert_eq!(files.len(), by_period.len(), "files {files:?}\n{}", everything());
    for file in &files {
        let got = std::fs::read_to_string(file).unwrap();
        assert_eq!(got, want, "{} differs from the in-process report\n{}", file.display(), everything());
    }
    eprintln!(
        "{PERIODS} periods with {replicas} reconcilers ({victim:?} killed): {mid_run} holders killed mid-run, {} reports, {:.0?}",
        files.len(),
        started.elapsed()
    );
    if victim == Victim::Holder {
        assert!(mid_run >= PERIODS / 2, "too few kills landed mid-run ({mid_run}); make the runs longer");
    }
}

#[test]
fn the_lease_holder_killed_mid_run_in_ten_periods_with_two_reconcilers_still_gives_one_report_each() {
    kill_reconcilers_period_after_period(2, Victim::Holder);
}
