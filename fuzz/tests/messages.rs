//! NATS messages on generated hostile input: every stage (extractor, investigator on a small
//! git repo, scorer on a temporary sled store, pair judge with a scripted model) is run by
//! `memval_runtime::run_stage` over the in-process transport, the one every transport's
//! messages go through, and fed what a broker could deliver: valid batches of its own
//! message type carrying hostile text and hostile fields, the same encodings cut short or
//! with bits flipped, empty payloads, random bytes, another stage's message on its subject,
//! and its message on a wrong subject or wire version.
//!
//! Asserted for every input: no panic reaches the caller (the stage keeps running, never
//! stops with an error), every input is either processed (acked) or dead-lettered with a
//! reason, the stage drains within a time bound, no output carries a byte of a secret
//! planted beside the repo (a symlink in the repo points at it), and no VALID from the
//! investigator cites a place outside the repo or is given to a claim all of whose paths are
//! outside it. (A claim with several code refs is decided on the first one the investigator
//! can check; the harness does not require every ref to be inside.)
//!
//! Each generated case is built from the text of `memval_fuzz::text(seed, index)` (fields,
//! claims, verdicts and the mutation are drawn from a hash of it), so a case is reproduced
//! from its seed and index, and a failing text kept in `fuzz/corpus/` replays the same
//! messages (the hash is std's `DefaultHasher`, fixed within a toolchain; a new Rust release
//! may change which messages a corpus text turns into, so the corpus files also stand as
//! plain hostile texts for the other harnesses).

use std::hash::{Hash, Hasher};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use memval_llm::{BoxFuture, ChatModel, ChatRequest, ChatResponse, LlmError, StopReason, TokenUsage, UsageReport};
use memval_proto::{
    codec, Assertion, CheckedMemory, Claim, ClaimBatch, ClaimResult, ClaimType, CodeRef, LeftOut, Memory, MemoryBatch,
    Message, Outcome, Pair, PairBatch, RunHeader, Since, Source, Verdict, VerdictBatch,
};
use memval_runtime::{run_stage, Stage, StageConfig};
use memval_transport::inproc::{channel, DeadLetters};
use memval_transport::{Headers, Inbox, Outbox, Outgoing};

/// Planted in a file beside the repo (and reachable through a symlink inside it); no output
/// may carry it.
const SECRET: &str = "TOP-SECRET-PLANTED-nats-4c2e";

/// Longest one stage may take to drain one input before the case counts as a hang.
const STAGE_LIMIT: Duration = Duration::from_secs(10);

/// Paths a hostile claim names: inside, outside, absolute, through the symlink, odd.
const PATHS: &[&str] = &[
    "src/main.rs", "src/lib.rs", "README.md", "../secret.txt", "/etc/passwd", "link", "link/x", "src/../../secret.txt", "src/../src/main.rs",
    ".", "", "src/", "~/.ssh/id_rsa", "C:\\secret.txt", "src/main.rs\u{0}../secret.txt", "src/ünï.rs", "\u{1b}]0;pwned\u{7}",
    "a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../secret.txt",
];

fn hash(text: &str, salt: u64) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    salt.hash(&mut h);
    text.hash(&mut h);
    h.finish()
}

/// A piece of `text`: a char-boundary slice of up to `max` chars, from a random place.
fn piece(rng: &mut fastrand::Rng, text: &str, max: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return String::new();
    }
    let from = rng.usize(..chars.len());
    let len = rng.usize(..=max.min(chars.len() - from));
    chars[from..from + len].iter().collect()
}

fn pick<'a>(rng: &mut fastrand::Rng, xs: &[&'a str]) -> &'a str {
    xs[rng.usize(..xs.len())]
}

fn header(rng: &mut fastrand::Rng, text: &str) -> RunHeader {
    RunHeader {
        run_id: if rng.bool() { format!("run-{}", rng.u16(..)) } else { piece(rng, text, 30) },
        repo: piece(rng, text, 20),
        // Mostly none: a commit the checkout is not at is (rightly) refused by the
        // investigator, which would leave its real work untested.
        commit: (rng.u8(..4) == 0).then(|| piece(rng, text, 40)),
        started_at: if rng.bool() { 1_764_000_000 } else { rng.i64(..) },
        expected_memories: rng.u32(..5),
    }
}

fn memories(rng: &mut fastrand::Rng, text: &str) -> Vec<Memory> {
    (0..rng.usize(0..4))
        .map(|i| Memory {
            id: if rng.u8(..4) == 0 { piece(rng, text, 20) } else { format!("m{i}") },
            agent: piece(rng, text, 20),
            content: if i == 0 { text.to_owned() } else { piece(rng, text, 400) },
            tier: rng.u8(..),
            kind: piece(rng, text, 10),
            created_at: rng.bool().then(|| rng.i64(..)),
            updated_at: rng.bool().then(|| rng.i64(..)),
            source: Source {
                path: piece(rng, text, 30),
                line: rng.bool().then(|| rng.u32(..)),
                row: rng.bool().then(|| rng.i64(..)),
                format: pick(rng, &["jsonl", "notes", "sqlite", ""]).into(),
            },
            context_dir: rng.bool().then(|| pick(rng, PATHS).to_owned()),
            first_line: rng.u32(..),
        })
        .collect()
}

/// Claims as a hostile producer could send them: any type, any path, hostile symbols,
/// lines and assertions.
fn claims(rng: &mut fastrand::Rng, text: &str) -> Vec<Claim> {
    const TYPES: [ClaimType; 6] = [
        ClaimType::FileReference,
        ClaimType::SymbolReference,
        ClaimType::LineContent,
        ClaimType::Behavioral,
        ClaimType::Architectural,
        ClaimType::Configuration,
    ];
    (0..rng.usize(0..5))
        .map(|_| Claim {
            claim_type: TYPES[rng.usize(..TYPES.len())],
            claim_text: piece(rng, text, 80),
            line: rng.u32(..),
            lines: (0..rng.usize(0..3)).map(|_| rng.u32(..)).collect(),
            code_refs: (0..rng.usize(0..3))
                .map(|_| CodeRef {
                    path: pick(rng, PATHS).to_owned(),
                    symbol: rng.bool().then(|| {
                        if rng.bool() {
                            pick(rng, &["main", "parse_header", "Secret"]).to_owned()
                        } else {
                            piece(rng, text, 20)
                        }
                    }),
                    line: rng.bool().then(|| pick(rng, &["0", "1", "2", "4294967295"]).parse().unwrap()),
                    written: rng.bool().then(|| piece(rng, text, 20)),
                    alt_paths: (0..rng.usize(0..2)).map(|_| pick(rng, PATHS).to_owned()).collect(),
                })
                .collect(),
            assertion: match rng.u8(..3) {
                0 => Some(Assertion::LineText {
                    text: if rng.bool() { "TOP-SECRET".into() } else { piece(rng, text, 30) },
                }),
                1 => Some(Assertion::ConfigValue { key: piece(rng, text, 10), value: piece(rng, text, 10) }),
                _ => None,
            },
        })
        .collect()
}

fn memory_batch(rng: &mut fastrand::Rng, text: &str) -> MemoryBatch {
    MemoryBatch { run: header(rng, text), batch_id: piece(rng, text, 20), memories: memories(rng, text) }
}

fn claim_batch(rng: &mut fastrand::Rng, text: &str) -> ClaimBatch {
    let items = memories(rng, text)
        .iter()
        .map(|m| {
            // What the extractor finds in the hostile text, then hostile claims on top.
            let mut item = memval_extractor::extract(m);
            item.claims.extend(claims(rng, text));
            if rng.u8(..4) == 0 {
                item.left_out.push(LeftOut { line: rng.u32(..), reason: piece(rng, text, 40) });
            }
            item
        })
        .collect();
    ClaimBatch { run: header(rng, text), batch_id: piece(rng, text, 20), items }
}

fn verdict_batch(rng: &mut fastrand::Rng, text: &str) -> VerdictBatch {
    let items = memories(rng, text)
        .iter()
        .map(|m| {
            let results: Vec<ClaimResult> = claims(rng, text)
                .into_iter()
                .map(|claim| ClaimResult {
                    // Duplicate and out-of-range indices as well as good ones.
                    index: if rng.u8(..4) == 0 { rng.u32(..) } else { rng.u32(..4) },
                    claim,
                    outcome: if rng.u8(..4) == 0 {
                        Outcome::NotChecked { reason: piece(rng, text, 40) }
                    } else {
                        Outcome::Checked {
                            verdict: Verdict::ALL[rng.usize(..4)],
                            confidence: rng.u8(..),
                            evidence: piece(rng, text, 60),
                            successor: rng.bool().then(|| piece(rng, text, 20)),
                            since: rng.bool().then(|| Since { commit: piece(rng, text, 40), date: rng.i64(..) }),
                        }
                    },
                })
                .collect();
            let total = if rng.bool() { results.len() as u32 } else { rng.u32(..6) };
            CheckedMemory {
                memory: m.meta(),
                total_claims: total,
                results,
                skip_reason: rng.bool().then(|| piece(rng, text, 30)),
                left_out: Vec::new(),
            }
        })
        .collect();
    VerdictBatch { run: header(rng, text), batch_id: piece(rng, text, 20), items }
}

fn pair_batch(rng: &mut fastrand::Rng, text: &str) -> PairBatch {
    let pairs = (0..rng.usize(0..4))
        .map(|i| Pair {
            id_a: if rng.bool() { format!("{i}") } else { piece(rng, text, 10) },
            agent_a: piece(rng, text, 10),
            content_a: piece(rng, text, 300),
            id_b: if rng.bool() { format!("{}", i + 1) } else { piece(rng, text, 10) },
            agent_b: piece(rng, text, 10),
            content_b: piece(rng, text, 300),
            score: [0.5, -1.0, f64::NAN, f64::INFINITY, 1e308][rng.usize(..5)],
            method: pick(rng, &["keyword", "embed", ""]).into(),
        })
        .collect();
    PairBatch { run: header(rng, text), batch_id: piece(rng, text, 20), pairs, expires_at: None }
}

/// One delivery for a stage consuming `M`: `valid` encoded, then mutated as the case's
/// hash says; returns it and what kind of input it is.
fn delivery<M: Message>(
    rng: &mut fastrand::Rng,
    text: &str,
    valid: &M,
    other: (&str, Vec<u8>),
) -> (Outgoing, &'static str) {
    let good = codec::encode(valid).expect("a generated batch encodes");
    let (subject, payload, kind) = match rng.u8(..12) {
        0..=4 => (M::SUBJECT.to_owned(), good, "valid batch, hostile text"),
        5 => {
            let cut = rng.usize(..good.len().max(1));
            (M::SUBJECT.to_owned(), good[..cut].to_vec(), "truncated encoding")
        }
        6 => {
            let mut bytes = good;
            for _ in 0..rng.usize(1..9) {
                if !bytes.is_empty() {
                    let at = rng.usize(..bytes.len());
                    bytes[at] ^= 1 << rng.u8(..8);
                }
            }
            (M::SUBJECT.to_owned(), bytes, "bit-flipped encoding")
        }
        7 => (M::SUBJECT.to_owned(), Vec::new(), "empty payload"),
        8 => (M::SUBJECT.to_owned(), (0..rng.usize(..200)).map(|_| rng.u8(..)).collect(), "random bytes"),
        9 => (other.0.to_owned(), good, "another stage's subject"),
        10 => (M::SUBJECT.replace(".v1.", pick(rng, &[".v2.", ".v0.", ".", ".v1.v1."])), good, "wrong wire version"),
        _ => (M::SUBJECT.to_owned(), other.1, "another message type on this subject"),
    };
    let mut headers = Headers::new();
    if rng.bool() {
        headers.insert("Memval-Run", &piece(rng, text, 20));
    }
    (Outgoing { subject, msg_id: format!("fuzz-{}", rng.u32(..)), headers, payload }, kind)
}

/// A model that answers each call with a generated hostile answer (`memval_fuzz::answer`)
/// chosen by the request, so the judge's contract check and fallbacks run.
struct ScriptedModel;

impl ChatModel for ScriptedModel {
    fn name(&self) -> String {
        "fuzz/scripted".into()
    }

    fn chat<'a>(&'a self, _stage: &'a str, request: &'a ChatRequest) -> BoxFuture<'a, Result<ChatResponse, LlmError>> {
        let key = hash(&format!("{request:?}"), 0);
        Box::pin(async move {
            Ok(ChatResponse {
                text: memval_fuzz::answer(memval_fuzz::base_seed(), key),
                tool_calls: Vec::new(),
                usage: TokenUsage::default(),
                stop: StopReason::EndTurn,
            })
        })
    }

    fn usage(&self) -> UsageReport {
        UsageReport::default()
    }
}

/// What feeding one stage gave.
struct Fed {
    outputs: Vec<(String, Vec<u8>)>,
    /// Why it was dead-lettered, when it was.
    dead_letter: Option<String>,
}

/// Feed `input` to `stage` through `run_stage` over in-process channels and check the
/// transport-level contract; returns the outputs, or why the case failed.
async fn feed<S: Stage>(stage: Arc<S>, input: Outgoing) -> Result<Fed, String> {
    let dead = DeadLetters::default();
    let (input_out, input_in) = channel(1, dead.clone());
    let (output_out, output_in) = channel(64, DeadLetters::default());
    input_out.send(input).await.map_err(|e| format!("queueing: {e}"))?;
    drop(input_out);
    // Retries come back at once and give up after two deliveries: a hostile input that
    // makes a stage retry is still answered within the bound.
    let config = StageConfig {
        concurrency: 2,
        max_deliveries: 2,
        base_backoff: Duration::from_millis(1),
        progress_every: Duration::from_secs(5),
        broker_retry: Duration::from_millis(50),
    };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let run = run_stage(stage, Arc::new(input_in), Arc::new(output_out), config, async {
        let _ = stopped.await;
    });
    // Drain outputs while the stage runs, so a stage with many outputs never blocks on a
    // full channel.
    let collect = async {
        let mut outputs = Vec::new();
        while let Some(next) = output_in.next().await {
            let envelope = next.map_err(|e| format!("reading outputs: {e}"))?;
            outputs.push((envelope.subject.clone(), envelope.payload.clone()));
            envelope.acker.ack().await.map_err(|e| format!("acking an output: {e}"))?;
        }
        Ok::<_, String>(outputs)
    };
    let (stats, outputs) = tokio::time::timeout(STAGE_LIMIT, async { tokio::join!(run, collect) })
        .await
        .map_err(|_| format!("did not drain one input within {STAGE_LIMIT:?}"))?;
    drop(stop);
    let stats = stats.map_err(|e| format!("the stage stopped: {e}"))?;
    let outputs = outputs?;
    let letters = dead.take();
    let (processed, dead_lettered) =
        (stats.processed.load(Ordering::Relaxed), stats.dead_lettered.load(Ordering::Relaxed));
    if processed + dead_lettered != 1 || letters.len() as u64 != dead_lettered {
        return Err(format!(
            "one input, {processed} processed, {dead_lettered} dead-lettered, {} dead letters",
            letters.len()
        ));
    }
    if let Some(letter) = letters.iter().find(|l| l.reason.trim().is_empty()) {
        return Err(format!("dead-lettered without a reason: {:?}", letter.subject));
    }
    // The runtime turns a panic into a dead letter, so it never reaches the caller; one here
    // is still a bug in the stage (text handling that is not char-boundary safe, say).
    if let Some(letter) = letters.iter().find(|l| l.reason.contains("panicked")) {
        return Err(format!("the stage panicked (caught and dead-lettered): {}", letter.reason));
    }
    Ok(Fed { outputs, dead_letter: letters.into_iter().next().map(|l| l.reason) })
}

/// Whether `path`, taken relative to the repo, stays inside it (lexically; the symlink
/// case is covered by the secret check).
fn inside_repo(path: &str) -> bool {
    let mut depth = 0i32;
    for c in Path::new(path).components() {
        match c {
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::ParentDir => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            Component::RootDir | Component::Prefix(_) => return false,
        }
    }
    true
}

fn check_outputs(stage: &str, fed: &Fed) -> Result<(), String> {
    for (subject, payload) in &fed.outputs {
        if payload.windows(SECRET.len()).any(|w| w == SECRET.as_bytes()) {
            return Err(format!("{stage}: an output on {subject} carries the planted secret"));
        }
        if stage == "investigator" {
            let batch: VerdictBatch =
                codec::decode(payload).map_err(|e| format!("{stage}: its own output does not decode: {e}"))?;
            for item in &batch.items {
                for result in &item.results {
                    if let Outcome::Checked { verdict: Verdict::Valid, evidence, .. } = &result.outcome {
                        let shown = || -> String {
                            format!("{:?} / {:?}", result.claim, result.outcome).chars().take(600).collect()
                        };
                        // The place the evidence cites (`path:line — …` or `path — …`) is inside.
                        let cited = evidence.split(" — ").next().unwrap_or("").split(':').next().unwrap_or("").trim();
                        if !cited.is_empty() && !inside_repo(cited) {
                            return Err(format!("{stage}: a VALID cites {cited:?}, outside the repo ({})", shown()));
                        }
                        // A claim whose every code ref (and every other reading of it) is
                        // outside the repo cannot have been found valid inside it.
                        let reaches_inside =
                            |r: &CodeRef| inside_repo(&r.path) || r.alt_paths.iter().any(|p| inside_repo(p));
                        if !result.claim.code_refs.is_empty() && !result.claim.code_refs.iter().any(reaches_inside) {
                            return Err(format!(
                                "{stage}: VALID for a claim whose every path is outside the repo ({})",
                                shown()
                            ));
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

struct World {
    _outer: tempfile::TempDir,
    rt: tokio::runtime::Runtime,
    investigator: Arc<memval_investigator::InvestigatorStage>,
    scorer: Arc<memval_scorer::ScorerStage>,
    judge: Arc<memval_judge::JudgeStage>,
}

fn git(dir: &Path, args: &[&str]) {
    let out = std::process::Command::new("git")
        .args(["-c", "user.name=fuzz", "-c", "user.email=fuzz@example.com", "-c", "commit.gpgsign=false"])
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

fn world() -> World {
    let outer = tempfile::tempdir().unwrap();
    std::fs::write(outer.path().join("secret.txt"), format!("{SECRET}\n")).unwrap();
    let repo: PathBuf = outer.path().join("repo");
    std::fs::create_dir_all(repo.join("src")).unwrap();
    std::fs::write(repo.join("src/main.rs"), "fn main() {}\n").unwrap();
    std::fs::write(repo.join("src/lib.rs"), "pub fn parse_header() {}\npub const MAX: u32 = 100;\n").unwrap();
    std::fs::write(repo.join("README.md"), "# demo\n\nmax_connections = 100\n").unwrap();
    std::os::unix::fs::symlink("../secret.txt", repo.join("link")).unwrap();
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "init"]);
    let store = Arc::new(memval_store::open(&outer.path().join("store")).unwrap());
    World {
        rt: tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap(),
        investigator: Arc::new(memval_investigator::InvestigatorStage::new(&repo)),
        scorer: Arc::new(memval_scorer::ScorerStage::in_process(store)),
        judge: Arc::new(memval_judge::JudgeStage::new(Arc::new(ScriptedModel)).with_batch_size(2)),
        _outer: outer,
    }
}

/// The four deliveries of one case, one per stage, with the kind of each.
fn case(text: &str) -> [(Outgoing, &'static str); 4] {
    let mut rng = fastrand::Rng::with_seed(hash(text, 1));
    let (mb, cb, vb, pb) = (
        memory_batch(&mut rng, text),
        claim_batch(&mut rng, text),
        verdict_batch(&mut rng, text),
        pair_batch(&mut rng, text),
    );
    let (mbe, cbe, vbe, pbe) = (
        codec::encode(&mb).unwrap(),
        codec::encode(&cb).unwrap(),
        codec::encode(&vb).unwrap(),
        codec::encode(&pb).unwrap(),
    );
    [
        delivery(&mut rng, text, &mb, (ClaimBatch::SUBJECT, pbe.clone())),
        delivery(&mut rng, text, &cb, (VerdictBatch::SUBJECT, mbe.clone())),
        delivery(&mut rng, text, &vb, (PairBatch::SUBJECT, cbe.clone())),
        delivery(&mut rng, text, &pb, (MemoryBatch::SUBJECT, vbe.clone())),
    ]
}

#[test]
fn every_stage_answers_every_hostile_message_without_panic_or_hang() {
    let world = world();
    // Four inputs a case (one per stage): 2,500 cases are 10,000 messages.
    let count = memval_fuzz::case_count(10_000).div_ceil(4);
    let kinds = std::sync::Mutex::new(std::collections::BTreeMap::<&'static str, u64>::new());
    let valid_outputs = std::sync::atomic::AtomicU64::new(0);
    let answers = std::sync::Mutex::new(std::collections::BTreeMap::<(&'static str, &'static str), u64>::new());
    let failures = memval_fuzz::run("messages", count, Duration::from_secs(20), |text| {
        let [m, c, v, p] = case(text);
        {
            let mut kinds = kinds.lock().unwrap();
            for (_, kind) in [&m, &c, &v, &p] {
                *kinds.entry(kind).or_default() += 1;
            }
        }
        let outcome: Result<(), String> = world.rt.block_on(async {
            let tally = |stage: &'static str, fed: &Fed| {
                let what = if fed.dead_letter.is_some() { "dead-lettered" } else { "processed" };
                *answers.lock().unwrap().entry((stage, what)).or_default() += 1;
            };
            let fed =
                feed(Arc::new(memval_extractor::ExtractorStage), m.0).await.map_err(|e| format!("extractor: {e}"))?;
            check_outputs("extractor", &fed)?;
            tally("extractor", &fed);
            let fed = feed(world.investigator.clone(), c.0).await.map_err(|e| format!("investigator: {e}"))?;
            check_outputs("investigator", &fed)?;
            tally("investigator", &fed);
            valid_outputs.fetch_add(fed.outputs.len() as u64, Ordering::Relaxed);
            let fed = feed(world.scorer.clone(), v.0).await.map_err(|e| format!("scorer: {e}"))?;
            check_outputs("scorer", &fed)?;
            tally("scorer", &fed);
            let fed = feed(world.judge.clone(), p.0).await.map_err(|e| format!("judge: {e}"))?;
            check_outputs("judge", &fed)?;
            tally("judge", &fed);
            Ok(())
        });
        if let Err(why) = outcome {
            panic!("{why}");
        }
    });
    let kinds = kinds.into_inner().unwrap();
    eprintln!("messages: {} inputs by kind: {kinds:?}", kinds.values().sum::<u64>());
    eprintln!(
        "messages: answered: {:?}; investigator verdict batches: {}",
        answers.lock().unwrap(),
        valid_outputs.load(Ordering::Relaxed)
    );
    memval_fuzz::assert_none(&failures);
    // The harness reaches the stages' real work, not only their decoding: it cannot pass
    // by dead-lettering everything.
    assert!(valid_outputs.load(Ordering::Relaxed) > count / 4, "the investigator produced verdicts for too few inputs");
    assert!(kinds.len() >= 8, "every kind of input was generated: {kinds:?}");
}
