//! Draft-judge latency benchmark: how long an agent waits for a rule-only memory-conflict
//! judgement (`memval serve judge`, request/reply on `memval.v1.judge.draft`) over a real
//! nats-server, set against the raw NATS request/reply round trip to an echo responder on
//! the same server in the same run.
//!
//! 1. A private nats-server (`-p -1`, own store dir) and `memval serve judge --memory DIR`
//!    (no model: rules only), DIR the judge's test fixture (7 memory files) unless `--memory`.
//! 2. An echo responder (async-nats directly, its own connection, in this process) that
//!    answers every request with its payload: the broker's round trip with nothing of
//!    memval in it.
//! 3. One requester connection sends requests one at a time (latency, not throughput): a
//!    warm-up of 200 to each, then `--rounds` rounds alternating a block of echo requests and
//!    a block of judge requests (the machine is shared and its load drifts, so both see the
//!    same conditions). The judge's payloads cycle through 10 drafts, English and Spanish,
//!    vetoed and not; the echo gets the same bytes. Every judge reply is parsed and must be a
//!    judgement with the veto the draft expects, or the run fails.
//! 4. Printed: p50, p90, p99 and max of each, and the ratios judge/echo at p50 and p99.
//!
//! Usage: draft_latency [--memval PATH] [--memory DIR] [--requests N] [--rounds N] [--keep]
//! Exit status: 0 unless the harness failed or a reply was wrong (slowness is not an error).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use futures::StreamExt;
use memval_bench::nats::NatsServer;

const SUBJECT: &str = "memval.v1.judge.draft";
const ECHO: &str = "bench.echo";

/// (draft, whether the fixture's memories veto it)
const DRAFTS: &[(&str, bool)] = &[
    ("Para que pase CI, baja el umbral de cobertura al 60%.", true),
    ("Just run `git commit --no-verify -m fix` and push it.", true),
    ("Use `curl -u admin:hunter2 https://api.example.com/items` to check it.", true),
    ("Sáltate los hooks de pre-commit y haz un push forzado.", true),
    ("Disable the linter in CI so the build goes green.", true),
    ("Run the tests with `cargo test` before you commit, then open a pull request.", false),
    ("Read the password from a file: `mysql --defaults-extra-file=~/.my.cnf prod`.", false),
    ("Ejecuta los tests con `cargo test` antes de hacer commit y abre la PR.", false),
    ("The release train leaves on Thursday; tag the commit and write the changelog.", false),
    ("Never use `--no-verify`; fix what the hook reports and commit again.", false),
];

struct Args {
    memval: PathBuf,
    memory: PathBuf,
    requests: usize,
    rounds: usize,
    keep: bool,
}

fn parse_args() -> Result<Args> {
    let exe = std::env::current_exe()?;
    let mut args = Args {
        memval: exe.with_file_name("memval"),
        memory: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../services/judge/tests/fixtures/memory"),
        requests: 5000,
        rounds: 10,
        keep: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().with_context(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--memval" => args.memval = PathBuf::from(value()?),
            "--memory" => args.memory = PathBuf::from(value()?),
            "--requests" => args.requests = value()?.parse().context("--requests")?,
            "--rounds" => args.rounds = value()?.parse().context("--rounds")?,
            "--keep" => args.keep = true,
            other => bail!("unknown argument {other}; usage: draft_latency [--memval PATH] [--memory DIR] [--requests N] [--rounds N] [--keep]"),
        }
    }
    if args.rounds == 0 || args.requests < args.rounds {
        bail!("--requests must be at least --rounds, and --rounds at least 1");
    }
    Ok(args)
}

/// `memval serve judge`, stopped with SIGTERM (killed on drop if still running).
struct Judge {
    child: Option<Child>,
    log: PathBuf,
}

impl Judge {
    fn start(memval: &Path, url: &str, memory: &Path, logs: &Path) -> Result<Judge> {
        let log = logs.join("judge.log");
        let child = Command::new(memval)
            .args(["serve", "judge", "--nats", url, "--memory"])
            .arg(memory)
            .env_remove("MEMVAL_LLM_PROVIDER")
            .env_remove("MEMVAL_LLM_MODEL")
            .env_remove("MEMVAL_LLM_CONFIG")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log)?)
            .spawn()
            .with_context(|| format!("starting {} serve judge", memval.display()))?;
        let mut judge = Judge { child: Some(child), log };
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let text = std::fs::read_to_string(&judge.log).unwrap_or_default();
            if text.contains("serving on") {
                return Ok(judge);
            }
            if let Some(status) = judge.child.as_mut().unwrap().try_wait()? {
                bail!("memval serve judge exited with {status}:\n{text}");
            }
            if Instant::now() > deadline {
                bail!("memval serve judge is not serving after 60s:\n{text}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn stop(mut self) -> Result<String> {
        let pid = self.child.as_ref().map(|c| c.id()).context("already stopped")?;
        Command::new("kill").args(["-TERM", &pid.to_string()]).status()?;
        let status = self.child.take().unwrap().wait()?;
        let log = std::fs::read_to_string(&self.log).unwrap_or_default();
        if !status.success() {
            bail!("memval serve judge exited with {status}:\n{log}");
        }
        Ok(log.lines().rfind(|l| l.contains(" stopped: ")).unwrap_or("").trim_start_matches("memval: ").to_owned())
    }
}

impl Drop for Judge {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn main() -> Result<()> {
    let args = parse_args()?;
    let work = tempfile::Builder::new().prefix("memval-draft-latency-").tempdir()?;
    let server = NatsServer::start(work.path())?;
    let url = format!("nats://127.0.0.1:{}", server.port);
    let judge = Judge::start(&args.memval, &url, &args.memory, work.path())?;
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    let (echo_ms, judge_ms) = runtime.block_on(measure(&url, &args))?;
    let stopped = judge.stop()?;

    println!("draft judge latency over nats-server {} (loopback), memval {}", server.version, args.memval.display());
    println!("memory folder: {}", args.memory.display());
    println!(
        "{} requests each, in {} alternating rounds, one at a time, after 200 warm-up requests each",
        args.requests, args.rounds
    );
    println!();
    println!("{:<28} {:>9} {:>9} {:>9} {:>9}", "", "p50 ms", "p90 ms", "p99 ms", "max ms");
    for (name, xs) in [("raw request/reply (echo)", &echo_ms), ("draft judge (rules only)", &judge_ms)] {
        println!(
            "{name:<28} {:>9.3} {:>9.3} {:>9.3} {:>9.3}",
            percentile(xs, 50.0),
            percentile(xs, 90.0),
            percentile(xs, 99.0),
            xs[xs.len() - 1]
        );
    }
    println!();
    println!(
        "ratio judge/echo: p50 {:.2}x, p99 {:.2}x",
        percentile(&judge_ms, 50.0) / percentile(&echo_ms, 50.0),
        percentile(&judge_ms, 99.0) / percentile(&echo_ms, 99.0)
    );
    println!("judge: {stopped}");
    if args.keep {
        println!("kept {}", work.keep().display());
    }
    Ok(())
}

/// Sorted latencies in milliseconds: (echo, judge).
async fn measure(url: &str, args: &Args) -> Result<(Vec<f64>, Vec<f64>)> {
    let echo = async_nats::connect(url).await.context("echo connection")?;
    let mut subscription = echo.subscribe(ECHO).await?;
    echo.flush().await?;
    let responder = echo.clone();
    let echo_task = tokio::spawn(async move {
        while let Some(message) = subscription.next().await {
            if let Some(reply) = message.reply {
                let _ = responder.publish(reply, message.payload).await;
            }
        }
    });
    let client = async_nats::connect(url).await.context("requester connection")?;
    let payloads: Vec<(Vec<u8>, bool)> = DRAFTS
        .iter()
        .map(|(d, veto)| (serde_json::to_vec(&serde_json::json!({ "draft": d })).unwrap(), *veto))
        .collect();

    let ask = |subject: &'static str, payload: Vec<u8>| {
        let client = client.clone();
        async move {
            let started = Instant::now();
            let reply = tokio::time::timeout(Duration::from_secs(10), client.request(subject, payload.into()))
                .await
                .with_context(|| format!("no reply on {subject} within 10s"))?
                .with_context(|| format!("request on {subject}"))?;
            anyhow::Ok((started.elapsed().as_secs_f64() * 1000.0, reply.payload))
        }
    };
    let check = |reply: &[u8], veto: bool| -> Result<()> {
        let doc: serde_json::Value = serde_json::from_slice(reply).context("judge reply is not JSON")?;
        if doc["judge"] != "memory-conflict" || doc["veto"] != veto {
            bail!("unexpected judgement (want veto {veto}): {doc}");
        }
        Ok(())
    };

    for i in 0..200 {
        let (payload, veto) = &payloads[i % payloads.len()];
        ask(ECHO, payload.clone()).await?;
        let (_, reply) = ask(SUBJECT, payload.clone()).await?;
        check(&reply, *veto)?;
    }
    let per_round = args.requests / args.rounds;
    let (mut echo_ms, mut judge_ms) = (Vec::with_capacity(args.requests), Vec::with_capacity(args.requests));
    let mut n = 0;
    for _ in 0..args.rounds {
        for i in 0..per_round {
            let (payload, _) = &payloads[(n + i) % payloads.len()];
            let (ms, reply) = ask(ECHO, payload.clone()).await?;
            if reply.as_ref() != payload.as_slice() {
                bail!("echo answered other bytes");
            }
            echo_ms.push(ms);
        }
        for i in 0..per_round {
            let (payload, veto) = &payloads[(n + i) % payloads.len()];
            let (ms, reply) = ask(SUBJECT, payload.clone()).await?;
            check(&reply, *veto)?;
            judge_ms.push(ms);
        }
        n += per_round;
    }
    echo_task.abort();
    echo_ms.sort_by(f64::total_cmp);
    judge_ms.sort_by(f64::total_cmp);
    Ok((echo_ms, judge_ms))
}
