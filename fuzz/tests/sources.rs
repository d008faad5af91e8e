//! Every memory source format on generated hostile text: JSONL (with broken lines among
//! good ones), a JSON array, notes files, a Claude Code folder, a GAAI registry and a SQLite
//! `memory.db`, each loaded and then extracted. Checked: no panic, no memory lost to an
//! internal error, each load bounded in time, and the memory files byte-identical after.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

const PER_FORMAT: u64 = 1_700;
const BATCH: u64 = 100;

fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(p.strip_prefix(dir).unwrap().display().to_string(), std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

fn json_str(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

/// Writes one batch of cases in `format` under `dir`; returns the path to load.
fn write_batch(format: &str, dir: &Path, cases: &[(u64, String)]) -> std::path::PathBuf {
    let agent = |i: u64| ["ops", "naïve\u{1b}]0;x\u{7}", "日本", "", "a\u{202e}b"][(i % 5) as usize];
    match format {
        "jsonl" => {
            let mut text = String::new();
            for (i, t) in cases {
                if i % 10 == 7 {
                    text.push_str(t.lines().next().unwrap_or("{"));
                } else {
                    text.push_str(&format!("{{\"id\": \"{i}\", \"agent\": {}, \"content\": {}, \"tier\": {}, \"created_at\": \"2026-01-0{}\"}}", json_str(agent(*i)), json_str(t), i % 4, 1 + i % 9));
                }
                text.push('\n');
            }
            let p = dir.join("m.jsonl");
            std::fs::write(&p, text).unwrap();
            p
        }
        "json" => {
            let items: Vec<String> = cases
                .iter()
                .map(|(i, t)| {
                    format!("{{\"id\": {i}, \"agent\": {}, \"content\": {}}}", json_str(agent(*i)), json_str(t))
                })
                .collect();
            let p = dir.join("m.json");
            std::fs::write(&p, format!("[{}]", items.join(",\n"))).unwrap();
            p
        }
        "notes" => {
            for (i, t) in cases {
                let d = dir.join(format!("pkg{i}"));
                std::fs::create_dir_all(&d).unwrap();
                std::fs::write(d.join(if i % 2 == 0 { "CLAUDE.md" } else { "AGENTS.md" }), t).unwrap();
            }
            dir.to_path_buf()
        }
        "claude-code" => {
            let mem = dir.join("memory");
            std::fs::create_dir_all(&mem).unwrap();
            let mut index = String::from("# Memory index\n");
            for (i, t) in cases {
                let kind = ["feedback", "user", "project", "reference"][(i % 4) as usize];
                let name = format!("{kind}_{i}.md");
                index.push_str(&format!(
                    "- [{}]({name}) — {}\n",
                    t.lines().next().unwrap_or("").chars().take(40).collect::<String>(),
                    agent(*i)
                ));
                let front = if i % 6 == 0 {
                    format!("---\nname: {}\ntype: {kind}\n", t.chars().take(30).collect::<String>())
                } else {
                    format!("---\ntype: {kind}\nupdated_at: 2026-02-0{}\n---\n", 1 + i % 9)
                };
                std::fs::write(mem.join(name), format!("{front}{t}")).unwrap();
            }
            std::fs::write(mem.join("MEMORY.md"), index).unwrap();
            mem
        }
        "gaai" => {
            let mem = dir.join("contexts/memory");
            std::fs::create_dir_all(mem.join("decisions")).unwrap();
            std::fs::create_dir_all(mem.join("project")).unwrap();
            let mut index = String::from("# Memory index\n\n");
            for (i, t) in cases {
                if i % 3 == 0 {
                    std::fs::write(
                        mem.join(format!("decisions/DEC-{i}.md")),
                        format!("---\nid: DEC-{i}\n---\n# DEC-{i}\n{t}"),
                    )
                    .unwrap();
                } else {
                    let name = format!("project/p{i}.md");
                    index.push_str(&format!(
                        "- [{}]({name})\n",
                        t.chars().take(20).collect::<String>().replace(['[', ']', '(', ')', '\n'], " ")
                    ));
                    std::fs::write(mem.join(name), t).unwrap();
                }
            }
            std::fs::write(mem.join("index.md"), index).unwrap();
            dir.join("contexts")
        }
        "sqlite" => {
            let p = dir.join("memory.db");
            let conn = sqlite_fixture(&p);
            for (i, t) in cases {
                conn(&format!(
                    "INSERT INTO memories (id, agent, type, content, created_at, tier, archived) VALUES ({i}, {}, 'memory', {}, '2026-01-01', {}, {});",
                    sql_str(agent(*i)),
                    sql_str(t),
                    i % 3,
                    u8::from(i % 13 == 0)
                ));
            }
            p
        }
        _ => unreachable!(),
    }
}

fn sql_str(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''").replace('\0', ""))
}

/// A fixture `memory.db` with validate-memory's `memories` table; returns a statement runner.
fn sqlite_fixture(path: &Path) -> impl Fn(&str) {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.execute_batch("CREATE TABLE memories (id INTEGER PRIMARY KEY, agent TEXT, type TEXT, content TEXT, metadata_json TEXT, created_at TEXT, updated_at TEXT, tier INTEGER, archived INTEGER DEFAULT 0);").unwrap();
    move |sql: &str| conn.execute_batch(sql).unwrap()
}

#[test]
fn every_source_format_survives_hostile_text() {
    let seed = memval_fuzz::base_seed();
    let per_format = memval_fuzz::case_count(PER_FORMAT * 6) / 6;
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut failures = Vec::new();
    let mut loaded_total = 0usize;
    for (f, format) in ["jsonl", "json", "notes", "claude-code", "gaai", "sqlite"].iter().enumerate() {
        let mut start = 0;
        while start < per_format {
            let cases: Vec<(u64, String)> = (start..(start + BATCH).min(per_format))
                .map(|i| {
                    let index = i + (f as u64) * 1_000_000;
                    (i, memval_fuzz::text(seed, index))
                })
                .collect();
            start += BATCH;
            let repo = tempfile::tempdir().unwrap();
            let path = write_batch(format, repo.path(), &cases);
            let before = snapshot(repo.path());
            let began = Instant::now();
            let outcome = memval_runtime::panics::catch(|| memval_sources::load(&path, repo.path()));
            let took = began.elapsed();
            match outcome {
                Err(panic) => failures.push(format!("{format} batch at {}: load panicked: {panic}", cases[0].0)),
                Ok(Err(e)) if *format != "json" => {
                    failures.push(format!("{format} batch at {}: load failed: {e}", cases[0].0))
                }
                Ok(Err(_)) => {}
                Ok(Ok(report)) => {
                    loaded_total += report.memories.len();
                    for m in &report.memories {
                        let out = memval_extractor::extract(m);
                        if let Some(r) =
                            out.skip_reason.filter(|r| r.starts_with(memval_extractor::INTERNAL_ERROR_REASON))
                        {
                            failures.push(format!("{format}: memory {} ({}): {r}", m.id, m.source));
                        }
                    }
                }
            }
            if took > Duration::from_secs(20) {
                failures.push(format!("{format} batch at {}: load took {took:?}", cases[0].0));
            }
            if snapshot(repo.path()) != before {
                failures.push(format!("{format} batch at {}: the memory files changed on load", cases[0].0));
            }
        }
    }
    std::panic::set_hook(hook);
    println!("loaded {loaded_total} memories from {} generated inputs", per_format * 6);
    assert!(
        loaded_total as u64 > per_format * 3,
        "too few memories loaded ({loaded_total}): the fixtures are not being read"
    );
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures[..failures.len().min(10)].join("\n"));
}
