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
//!
//! A replica started after a dead holder's claim (it never saw the period fire) still finds the
//! period's running lease and takes it over.
//!
//! And a broker outage: nats-server stopped for 10 s and started again on the same port and
//! store; the reconciler, its judges and the ingest role come back by themselves (or exit
//! non-zero saying why, for their supervisor to restart them), and a period after the outage
//! gets the in-process report.

#[allow(dead_code)]
mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use memval_llm::testing::ScriptedServer;
use support::nats::{eventually, stored, NatsServer, Service};
use support::reconcile::{judge_answer, model_args, project, reconcile_in_process, reports_in, serve_args};
use support::rng::Rng;
use support::GitRepo;

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
const KILL_WITHIN_MS: u64 = 1200;

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

/// The reports every reconciler log in `logs` names for a period: the ones it wrote, and the
/// ones it found written by the holder it took the period over from. Period -> report paths.
fn reported(logs: &Path) -> BTreeMap<u64, BTreeSet<String>> {
    let mut by_period: BTreeMap<u64, BTreeSet<String>> = BTreeMap::new();
    for entry in std::fs::read_dir(logs).unwrap().flatten() {
        if !entry.file_name().to_string_lossy().starts_with("reconciler-") {
            continue;
        }
        for line in std::fs::read_to_string(entry.path()).unwrap().lines() {
            let Some(rest) = line.split("shop (schedule): report ").nth(1) else { continue };
            let path = rest.split(" (").next().unwrap().split(" was written by the holder").next().unwrap();
            let period = rest.rsplit("; period schedule-").next().map(|p| p.trim_end_matches(')'));
            by_period.entry(period.and_then(|p| p.parse().ok()).expect(line)).or_default().insert(path.to_owned());
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

/// The project both tests reconcile, where services write, and what every period's report
/// must be: `memval reconcile` in one process, with the same answers from the model.
struct Setting {
    _repo: GitRepo,
    _work: tempfile::TempDir,
    root: PathBuf,
    out_dir: PathBuf,
    logs: PathBuf,
    want: String,
}

fn setting_up() -> Setting {
    let repo = project();
    let root = repo.dir.path().canonicalize().unwrap();
    let work = tempfile::tempdir().unwrap();
    let (out_dir, logs) = (work.path().join("reports"), work.path().join("logs"));
    std::fs::create_dir_all(&logs).unwrap();
    let local_model = ScriptedServer::start(judge_answer);
    let want = std::fs::read_to_string(reconcile_in_process(&root, &work.path().join("local"), &local_model)).unwrap();
    assert!(!want.contains("not judged"), "{want}");
    Setting { _repo: repo, _work: work, root, out_dir, logs, want }
}

fn kill_reconcilers_period_after_period(replicas: usize, victim: Victim) {
    let started = Instant::now();
    let mut rng = Rng::from_clock();
    let Setting { root, out_dir, logs, want, .. } = &setting_up();

    let nats = NatsServer::start();
    let url = nats.url();
    let model = ScriptedServer::start(|request| judge_answer(request).after(MODEL_DELAY));
    let mut judge_args = model_args(&model);
    judge_args.extend(["--concurrency".to_owned(), "2".to_owned()]);
    let judge_args: Vec<&str> = judge_args.iter().map(String::as_str).collect();
    let judges: Vec<Service> = (0..2).map(|_| Service::start("judge", &url, &judge_args, logs)).collect();
    let schedule = format!("*/{EVERY} * * * * *");
    let extra = ["--pair-judges", "--judge-timeout", "60", "--lease-ttl", "1"];
    let args = serve_args(root, out_dir, &schedule, &extra);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut reconcilers: Vec<Service> =
        (0..replicas).map(|_| Service::start("reconciler", &url, &args, logs)).collect();

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
            panic!("period {t}: its holder (pid {holder}) is not a running reconciler\n{}", all_logs(logs))
        };
        let state = schedule_leases(&url)[&t].last().unwrap().0.clone();
        let doomed = reconcilers.remove(index);
        let pid = doomed.pid();
        doomed.kill();
        let what = if pid == holder { "the holder" } else { "a watcher" };
        if pid == holder && state == "running" {
            mid_run += 1;
        }
        eprintln!("[{replicas} reconcilers] period {round} (schedule-{t}): killed {what} (pid {pid}) {delay} ms after its claim, lease {state}");
        reconcilers.push(Service::start("reconciler", &url, &args, logs));
    }
    let (first, last) = (first.unwrap(), last.unwrap());
    let periods: Vec<u64> = (first..=last).step_by(EVERY as usize).collect();

    // Every period up to the last one killed in ends with a finished lease (or, if one never
    // does, the assertions below say which and show everything).
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        let leases = schedule_leases(&url);
        if periods.iter().all(|t| leases.get(t).is_some_and(|l| l.last().unwrap().0 == "done")) {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    for reconciler in reconcilers {
        let (code, log) = reconciler.terminate();
        assert_eq!(code, Some(0), "{log}");
    }
    for judge in judges {
        let (code, log) = judge.terminate();
        assert_eq!(code, Some(0), "{log}");
    }

    let leases = schedule_leases(&url);
    let by_period = reported(logs);
    let everything = || format!("leases {leases:#?}\nreports {by_period:#?}\n{}", all_logs(logs));
    for t in &periods {
        let reports = by_period.get(t).map_or(0, BTreeSet::len);
        assert_eq!(reports, 1, "period schedule-{t} has {reports} reports\n{}", everything());
        let state = leases.get(t).and_then(|l| l.last()).map(|(state, _)| state.as_str());
        assert_eq!(state, Some("done"), "period schedule-{t}'s lease\n{}", everything());
    }
    // No period after the last one killed in (the schedule goes on) is reported twice either.
    for (t, reports) in &by_period {
        assert_eq!(reports.len(), 1, "period schedule-{t} reported twice\n{}", everything());
    }
    // Every report file in the folder is one of these reports, whole, and the in-process one.
    // (A holder killed once its lease was done may leave its hidden file: not a report.)
    let files: Vec<_> = reports_in(out_dir)
        .into_iter()
        .filter(|f| !f.file_name().unwrap().to_string_lossy().starts_with('.'))
        .collect();
    assert_eq!(files.len(), by_period.len(), "files {files:?}\n{}", everything());
    for file in &files {
        let got = std::fs::read_to_string(file).unwrap();
        assert_eq!(&got, want, "{} differs from the in-process report\n{}", file.display(), everything());
    }
    eprintln!(
        "{PERIODS} periods with {replicas} reconcilers ({victim:?} killed): {mid_run} holders killed mid-run, {} reports, {:.0?}",
        files.len(),
        started.elapsed()
    );
    if victim == Victim::Holder {
        assert!(mid_run >= PERIODS / 3, "too few kills landed mid-run ({mid_run}); make the runs longer");
    }
}

#[test]
fn the_lease_holder_killed_mid_run_in_ten_periods_with_two_reconcilers_still_gives_one_report_each() {
    kill_reconcilers_period_after_period(2, Victim::Holder);
}

#[test]
fn any_of_three_reconcilers_killed_in_ten_periods_still_gives_one_report_each() {
    kill_reconcilers_period_after_period(3, Victim::Anyone);
}

/// The one reconciler killed while it holds a period, and a replica started only after its
/// claim (as compose restarts a dead container): the new replica never saw the period fire,
/// yet it finds the running lease of the period before it started, watches it and takes the
/// period over when the dead holder stays silent. One report, the in-process one.
#[test]
fn a_replica_started_after_a_dead_holders_claim_takes_that_period_over() {
    let Setting { root, out_dir, logs, want, .. } = &setting_up();
    let nats = NatsServer::start();
    let url = nats.url();
    let model = ScriptedServer::start(|request| judge_answer(request).after(MODEL_DELAY));
    let judge_args = model_args(&model);
    let judge_args: Vec<&str> = judge_args.iter().map(String::as_str).collect();
    let judges: Vec<Service> = (0..2).map(|_| Service::start("judge", &url, &judge_args, logs)).collect();
    // A report of the killed period by the replacement can only come from the lease: the
    // period fired before the replacement started.
    let extra = ["--pair-judges", "--judge-timeout", "60", "--lease-ttl", "1"];
    let args = serve_args(root, out_dir, "*/15 * * * * *", &extra);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let holder = Service::start("reconciler", &url, &args, logs);
    let (t, claim) = eventually(Duration::from_secs(30), "the first period's claim", || {
        schedule_leases(&url).into_iter().next().map(|(t, lease)| (t, lease[0].1.clone()))
    });
    assert_eq!(owner_pid(&claim), holder.pid(), "{claim}");
    holder.kill();
    let state = schedule_leases(&url)[&t].last().unwrap().0.clone();
    assert_eq!(state, "running", "the holder was killed before it finished\n{}", all_logs(logs));
    let replacement = Service::start("reconciler", &url, &args, logs);

    let paths = eventually(Duration::from_secs(30), "the period's report by the replacement", || {
        reported(logs).get(&t).cloned()
    });
    let leases = schedule_leases(&url);
    let (state, owner) = leases[&t].last().unwrap().clone();
    assert_eq!(state, "done", "{leases:#?}");
    assert!(owner.contains(&format!("(pid {}) (took over period schedule-{t}", replacement.pid())), "{owner}");
    assert_eq!(paths.len(), 1, "{paths:?}");
    for path in &paths {
        assert_eq!(&std::fs::read_to_string(path).unwrap(), want, "{}", all_logs(logs));
    }
    let (code, log) = replacement.terminate();
    assert_eq!(code, Some(0), "{log}");
    for judge in judges {
        let (code, log) = judge.terminate();
        assert_eq!(code, Some(0), "{log}");
    }
}

/// A memory-ingest event of repo `shop` with id `ev-{n}`.
fn ingest_event(n: usize) -> Vec<u8> {
    serde_json::json!({"event_id": format!("ev-{n}"), "repo": "shop", "memories": [{"id": n, "agent": "ops", "content": "The checkout service retries writes twice."}]})
        .to_string()
        .into_bytes()
}

/// After `outage`, each service is either still running or has exited non-zero saying why
/// (then it is started again, as compose's `restart:` would). Returns the services running.
fn survivors(services: Vec<(Service, Vec<String>)>, url: &str, logs: &Path) -> Vec<Service> {
    services
        .into_iter()
        .map(|(mut service, args)| match service.exited() {
            None => service,
            Some(status) => {
                let log = service.log_text();
                assert!(!status.success(), "memval serve {} exited 0 after the outage:\n{log}", service.role);
                let why = log.lines().rev().find(|l| l.starts_with("memval: error")).unwrap_or_default();
                assert!(!why.is_empty(), "memval serve {} exited ({status}) without saying why:\n{log}", service.role);
                eprintln!("memval serve {} exited after the outage ({status}): {why}; restarted", service.role);
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                Service::start(&service.role.clone(), url, &args, logs)
            }
        })
        .collect()
}

#[test]
fn the_reconciler_its_judges_and_ingest_come_back_by_themselves_after_a_broker_outage() {
    let Setting { root, out_dir, logs, want, .. } = &setting_up();

    let mut nats = NatsServer::start();
    let url = nats.url();
    let model = ScriptedServer::start(judge_answer);
    // Events are counted, not reconciled on (the schedule is what is watched here).
    let extra = [
        "--pair-judges",
        "--judge-timeout",
        "60",
        "--lease-ttl",
        "2",
        "--debounce-events",
        "1000",
        "--debounce-quiet",
        "3600",
    ];
    let reconciler_args = serve_args(root, out_dir, "*/3 * * * * *", &extra);
    let judge_args = model_args(&model);
    let start = |role: &str, args: &[String]| {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        (Service::start(role, &url, &refs, logs), args.to_vec())
    };
    let services = vec![
        start("reconciler", &reconciler_args),
        start("judge", &judge_args),
        start("judge", &judge_args),
        start("ingest", &[]),
    ];
    eventually(Duration::from_secs(30), "a report before the outage", || (!reported(logs).is_empty()).then_some(()));

    // Down for 10 s: every connection is lost, and the schedule fires (three times) meanwhile.
    nats.restart_after(Duration::from_secs(10));
    let back = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    eprintln!("nats-server back after a 10 s outage");
    let services = survivors(services, &url, logs);

    // A period that fired after the restart is reconciled, its pairs judged, as in one process.
    let (period, paths) = eventually(Duration::from_secs(60), "a report of a period after the outage", || {
        reported(logs).into_iter().find(|(t, _)| *t > back)
    });
    for path in &paths {
        let got = std::fs::read_to_string(path).unwrap();
        assert_eq!(&got, want, "{path} (period schedule-{period})\n{}", all_logs(logs));
    }
    // Ingest turns an event into a run again.
    support::nats::publish(&url, "memval.v1.events.memory_ingested", "ev-51", ingest_event(51));
    eventually(Duration::from_secs(30), "the ingest role's run of an event after the outage", || {
        stored(&url, "MEMVAL_MEMORIES")
            .iter()
            .any(|m| m.headers.get("Memval-Run") == Some("ingest-ev-51"))
            .then_some(())
    });
    for service in services {
        let role = service.role.clone();
        let (code, log) = service.terminate();
        assert_eq!(code, Some(0), "memval serve {role}:\n{log}");
    }
}
