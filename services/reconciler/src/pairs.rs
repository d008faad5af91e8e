//! Candidate pairs for the pair judge (docs/contracts.md §5), keyword method: memories of two different
//! agents whose token sets have a Jaccard of at least 0.15, best first, capped.
//!
//! An all-pairs scan is quadratic and, because common words are kept, hundreds of millions
//! of pairs pass 0.15 on 100k real memories. So the top `cap` pairs are found by an exact top-k
//! set-similarity join, `keyword_join.rs` (prefix, size and positional filtering with
//! overlap counting, frequent tokens indexed by pairs, at a threshold seeded from each
//! memory's rarest tokens that only rises; its module doc says how and why). This module samples, tokenises and ranks the tokens, and
//! says what was left out.
//!
//! Every pair emitted carries its exact Jaccard, computed from the two token lists; a bound
//! never stands in for a score. With no cap the threshold stays at 0.15 and every pair at or
//! above it is produced (for benchmarks and small inputs). [`exhaustive`] is the plain
//! all-pairs scan the join is measured against.
//!
//! This module never reads files or changes a memory: memories in, pairs out.
//!
//! Tokens are lowercase alphanumeric runs of 4+ characters (Unicode letters and digits; common
//! words kept, as the seed keeps them); the score is the exact Jaccard of the two token sets. The
//! tokens are ranked rarest first (ties by first appearance). Ties break on ids (numeric when both are integers), so the output
//! equals the all-pairs scan's prefix exactly (`exhaustive`, checked in unit tests on skewed random
//! corpora and in `bench/pairs`). Per-agent sampling takes the numerically highest `tier` first
//! (docs/contracts.md §5 says "highest tier"; memval reads that as the larger number), then the
//! newest `updated_at`/`created_at`, then id. `--cap` is taken as given (0 = no cap); without it
//! the cap is `reconcile_pair_cap` of a `memory.db`, clamped to 1-500, else 50. Pairs settled in
//! `reconcile_log` (`pick-survivor`, `merge`, `both-stale`; read by
//! `memval_sources::reconcile_log`) are not raised, and counted apart from the join (those at or
//! above the floor), so the count never depends on the order pairs were met in. What sampling, the cap, the log or token-less
//! memories left out is printed.

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};

use memval_proto::{Memory, Pair};

use crate::keyword_join::{join, Record, Scored};
use crate::tokens::{jaccard_of, tokens};

/// docs/contracts.md §5: the keyword method's Jaccard floor.
pub const KEYWORD_THRESHOLD: f64 = 0.15;
/// docs/contracts.md §5: memories sampled per agent.
pub const DEFAULT_PER_AGENT: usize = 200;
/// The name a keyword pair's `method` carries.
pub const KEYWORD: &str = "keyword";
// The embed method is `embed_pairs`; its floor and names are here, beside the keyword
// method's and [`Candidates`], so that [`summary`] can describe every method and
// `embed_pairs` depends on this module, not the other way round.
/// docs/contracts.md §5: the embed method's cosine floor.
pub const EMBED_THRESHOLD: f64 = 0.55;
/// The name an embed pair's `method` carries.
pub const EMBED: &str = "embed";
/// [`Candidates::method`] of merged keyword and embed candidates (each pair still names the
/// method its score came from).
pub const BOTH: &str = "both";

/// What [`keyword_pairs`] is asked for.
#[derive(Debug, Clone)]
pub struct Options {
    /// At most this many pairs, the best ones; `None` for every pair at or above the floor.
    pub cap: Option<usize>,
    /// At most this many memories per agent (highest tier, then newest); `None` for all.
    pub per_agent: Option<usize>,
    /// Pairs already resolved, as normalised `(id_a, id_b)` (see [`normalised_ids`]).
    pub resolved: HashSet<(String, String)>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            cap: Some(memval_judge::plan::DEFAULT_PAIR_CAP as usize),
            per_agent: Some(DEFAULT_PER_AGENT),
            resolved: HashSet::new(),
        }
    }
}

/// An agent whose memories were not all compared, because of per-agent sampling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sampled {
    pub agent: String,
    pub kept: usize,
    pub total: usize,
}

/// The pairs, and what the run did not compare (nothing is left out silently).
#[derive(Debug, Clone, Default)]
pub struct Candidates {
    /// Best first: score descending, then `id_a`, then `id_b`.
    pub pairs: Vec<Pair>,
    /// Memories read.
    pub memories: usize,
    /// Agents that had more memories than the per-agent sample.
    pub sampled: Vec<Sampled>,
    /// Memories with no token of four characters or more: nothing to compare them on.
    pub without_tokens: Vec<String>,
    /// Pairs at or above the floor not raised because `reconcile_log` resolved them.
    pub resolved_skipped: usize,
    /// The cap was reached: more pairs may pass the floor, none scoring above the last one.
    pub capped: bool,
    /// Pairs whose Jaccard was computed (the work the bounds did not avoid; with the join on
    /// several threads it varies from run to run, the pairs never do).
    pub verified: u64,
    /// How the pairs were found: `keyword`, `embed` or `both` (the first line of [`summary`]).
    pub method: String,
    /// Memories the embed method did not compare: their text is blank.
    pub without_text: Vec<String>,
    /// The agents of the memories read, sorted, each once: with fewer than two there is no
    /// pair to make (pairs are only made across agents), and the summary says so.
    pub agents: Vec<String>,
}

/// The agents of `memories`, sorted, each once.
pub fn agents_of(memories: &[Memory]) -> Vec<String> {
    let mut agents: Vec<String> = memories.iter().map(|m| m.agent.clone()).collect();
    agents.sort();
    agents.dedup();
    agents
}

/// Compare ids numerically when both are integers, as text otherwise (the judge's order).
pub fn id_order(a: &str, b: &str) -> Ordering {
    match (a.parse::<i64>(), b.parse::<i64>()) {
        (Ok(x), Ok(y)) => x.cmp(&y),
        _ => a.cmp(b),
    }
}

/// `(a, b)` with the smaller id first.
pub fn normalised_ids(a: &str, b: &str) -> (String, String) {
    if id_order(a, b) == Ordering::Greater {
        (b.to_owned(), a.to_owned())
    } else {
        (a.to_owned(), b.to_owned())
    }
}

/// The memories each agent contributes (docs/contracts.md §5): up to `per_agent`, highest tier first,
/// then newest (`updated_at`, else `created_at`; undated last), then id. Returns indices
/// into `memories` in input order, and the agents that were cut.
pub fn sample(memories: &[Memory], per_agent: Option<usize>) -> (Vec<usize>, Vec<Sampled>) {
    let Some(limit) = per_agent else { return ((0..memories.len()).collect(), Vec::new()) };
    let mut by_agent: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, m) in memories.iter().enumerate() {
        by_agent.entry(m.agent.as_str()).or_default().push(i);
    }
    let mut keep = Vec::with_capacity(memories.len());
    let mut sampled = Vec::new();
    for (agent, mut list) in by_agent {
        if list.len() > limit {
            let date = |i: usize| memories[i].updated_at.or(memories[i].created_at);
            list.sort_by(|&x, &y| {
                memories[y]
                    .tier
                    .cmp(&memories[x].tier)
                    .then_with(|| date(y).cmp(&date(x)))
                    .then_with(|| id_order(&memories[x].id, &memories[y].id))
            });
            sampled.push(Sampled { agent: agent.to_owned(), kept: limit, total: list.len() });
            list.truncate(limit);
        }
        keep.extend(list);
    }
    keep.sort_unstable();
    sampled.sort_by(|a, b| a.agent.cmp(&b.agent));
    (keep, sampled)
}

/// The records of the sampled memories (those with tokens), and the ids of those without.
fn records(memories: &[Memory], keep: &[usize]) -> (Vec<Record>, Vec<String>) {
    let mut agents: HashMap<&str, u32> = HashMap::new();
    let mut vocab: HashMap<String, u32> = HashMap::new();
    let mut df: Vec<u32> = Vec::new();
    let mut lists: Vec<(usize, Vec<u32>)> = Vec::with_capacity(keep.len());
    let mut without = Vec::new();
    for &i in keep {
        let toks = tokens(&memories[i].content);
        if toks.is_empty() {
            without.push(memories[i].id.clone());
            continue;
        }
        let ids: Vec<u32> = toks
            .into_iter()
            .map(|t| {
                let next = vocab.len() as u32;
                let id = *vocab.entry(t).or_insert(next);
                if id == next {
                    df.push(0);
                }
                df[id as usize] += 1;
                id
            })
            .collect();
        lists.push((i, ids));
    }
    // Rarest first; ties by the token's first appearance, so runs are deterministic.
    let mut order: Vec<u32> = (0..df.len() as u32).collect();
    order.sort_by_key(|&t| (df[t as usize], t));
    let mut rank = vec![0u32; df.len()];
    for (r, &t) in order.iter().enumerate() {
        rank[t as usize] = r as u32;
    }
    let mut by_id: Vec<usize> = (0..lists.len()).collect();
    by_id.sort_by(|&x, &y| id_order(&memories[lists[x].0].id, &memories[lists[y].0].id));
    let mut id_rank = vec![0u32; lists.len()];
    for (r, &x) in by_id.iter().enumerate() {
        id_rank[x] = r as u32;
    }
    let records = lists
        .into_iter()
        .enumerate()
        .map(|(k, (memory, ids))| {
            let mut tokens: Vec<u32> = ids.into_iter().map(|t| rank[t as usize]).collect();
            tokens.sort_unstable();
            let next = agents.len() as u32;
            let agent = *agents.entry(memories[memory].agent.as_str()).or_insert(next);
            Record { memory, agent, id_rank: id_rank[k], tokens }
        })
        .collect();
    (records, without)
}

/// The keyword candidates of `memories` (see the module docs for how).
pub fn keyword_pairs(memories: &[Memory], options: &Options) -> Candidates {
    let (keep, sampled) = sample(memories, options.per_agent);
    let (records, without_tokens) = records(memories, &keep);
    let resolved = resolved_records(memories, &records, &options.resolved);
    let found = join(&records, KEYWORD_THRESHOLD, options.cap, &resolved);
    // Counted apart from the join, so the count is the same however the join met the pairs.
    let resolved_skipped = resolved
        .iter()
        .filter(|&&(x, y)| {
            let (rx, ry) = (&records[x as usize], &records[y as usize]);
            rx.agent != ry.agent && crate::tokens::jaccard(&rx.tokens, &ry.tokens) >= KEYWORD_THRESHOLD
        })
        .count();
    let pairs = found.pairs.iter().map(|s| pair_of(memories, &records, s)).collect();
    Candidates {
        pairs,
        memories: memories.len(),
        sampled,
        without_tokens,
        resolved_skipped,
        capped: found.capped,
        verified: found.verified,
        method: KEYWORD.to_owned(),
        without_text: Vec::new(),
        agents: agents_of(memories),
    }
}

/// The record pairs (smaller index first) whose ids `resolved` holds, normalised.
fn resolved_records(
    memories: &[Memory],
    records: &[Record],
    resolved: &HashSet<(String, String)>,
) -> HashSet<(u32, u32)> {
    let mut out = HashSet::new();
    if resolved.is_empty() {
        return out;
    }
    let mut by_id: HashMap<&str, Vec<u32>> = HashMap::new();
    for (r, rec) in records.iter().enumerate() {
        by_id.entry(memories[rec.memory].id.as_str()).or_default().push(r as u32);
    }
    for (a, b) in resolved {
        if id_order(a, b) == Ordering::Greater {
            continue;
        }
        let (Some(xs), Some(ys)) = (by_id.get(a.as_str()), by_id.get(b.as_str())) else { continue };
        for &x in xs {
            for &y in ys {
                if x != y {
                    out.insert((x.min(y), x.max(y)));
                }
            }
        }
    }
    out
}

fn pair_of(memories: &[Memory], records: &[Record], s: &Scored) -> Pair {
    pair(&memories[records[s.a as usize].memory], &memories[records[s.b as usize].memory], s.score, KEYWORD)
}

/// The docs/contracts.md §5 candidate of `a` and `b` (already in `id_a < id_b` order), found by `method`.
pub(crate) fn pair(a: &Memory, b: &Memory, score: f64, method: &str) -> Pair {
    Pair {
        id_a: a.id.clone(),
        agent_a: a.agent.clone(),
        content_a: a.content.clone(),
        id_b: b.id.clone(),
        agent_b: b.agent.clone(),
        content_b: b.content.clone(),
        score,
        method: method.to_owned(),
    }
}

/// Every pair of memories of different agents at or above the floor, by comparing each
/// memory with every other: quadratic, the reference the join is checked and measured
/// against. Same sampling, resolved pairs and order as [`keyword_pairs`]; no cap.
pub fn exhaustive(memories: &[Memory], options: &Options) -> Vec<Pair> {
    let (keep, _) = sample(memories, options.per_agent);
    let (records, _) = records(memories, &keep);
    // Token ranks are sorted, which is all the overlap needs.
    let mut found = Vec::new();
    for x in 0..records.len() {
        for y in x + 1..records.len() {
            let (rx, ry) = (&records[x], &records[y]);
            if rx.agent == ry.agent {
                continue;
            }
            let overlap = crate::tokens::overlap(&rx.tokens, &ry.tokens);
            let score = jaccard_of(rx.tokens.len(), ry.tokens.len(), overlap);
            if score < KEYWORD_THRESHOLD {
                continue;
            }
            let (ma, mb) = (&memories[rx.memory], &memories[ry.memory]);
            if options.resolved.contains(&normalised_ids(&ma.id, &mb.id)) {
                continue;
            }
            found.push(Scored::new(score, &records, x as u32, y as u32));
        }
    }
    found.sort();
    found.iter().map(|s| pair_of(memories, &records, s)).collect()
}

/// One candidate as docs/contracts.md §5's JSON line: `{id_a, agent_a, content_a, id_b, agent_b,
/// content_b, score, method}`, integer ids as numbers. Escaped for a terminal.
pub fn to_jsonl_line(p: &Pair) -> String {
    use memval_judge::prompt::id_value;
    let v = serde_json::json!({
        "id_a": id_value(&p.id_a),
        "agent_a": p.agent_a,
        "content_a": p.content_a,
        "id_b": id_value(&p.id_b),
        "agent_b": p.agent_b,
        "content_b": p.content_b,
        "score": p.score,
        "method": p.method,
    });
    memval_proto::display::json_safe(&v.to_string())
}

/// The candidates as JSONL, one pair a line (the input of `memval judge pairs`).
pub fn to_jsonl(pairs: &[Pair]) -> String {
    pairs.iter().map(|p| to_jsonl_line(p) + "\n").collect()
}

/// The candidates as a table for a person: score, the two sides, the start of each text.
pub fn to_table(c: &Candidates) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let short = |s: &str| {
        let one: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
        let one = memval_proto::display::one_line(&one);
        if one.chars().count() > 60 {
            format!("{}…", one.chars().take(59).collect::<String>())
        } else {
            one
        }
    };
    // An agent or id with a newline must not start a pair row of its own.
    let side = |agent: &str, id: &str| memval_proto::display::one_line(&format!("{agent}:{id}"));
    let _ = writeln!(out, "{:>6}  {:<28}  {:<28}  contents", "score", "a (agent:id)", "b (agent:id)");
    for p in &c.pairs {
        let _ = writeln!(
            out,
            "{:>6.3}  {:<28}  {:<28}  {} | {}",
            p.score,
            side(&p.agent_a, &p.id_a),
            side(&p.agent_b, &p.id_b),
            short(&p.content_a),
            short(&p.content_b)
        );
    }
    out.push_str(&summary(c));
    memval_proto::display::terminal_safe(&out)
}

/// What the run compared and what it did not, one line each (stderr for JSONL, under the
/// table otherwise): sampling, memories without tokens, resolved pairs, the cap.
pub fn summary(c: &Candidates) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let how = match c.method.as_str() {
        BOTH => format!(
            "keyword, Jaccard >= {KEYWORD_THRESHOLD}, and embed, cosine >= {EMBED_THRESHOLD}; the higher score of a pair found by both"
        ),
        EMBED => format!("embed, cosine >= {EMBED_THRESHOLD}"),
        _ => format!("keyword, Jaccard >= {KEYWORD_THRESHOLD}"),
    };
    let _ = writeln!(out, "{} pairs from {} memories ({how})", c.pairs.len(), c.memories);
    match c.agents.as_slice() {
        [] => {
            let _ = writeln!(out, "no memory was read: point --memories at a file or folder of memories");
        }
        [only] => {
            let _ = writeln!(
                out,
                "all {} memories belong to one agent ({}): pairs are only made between memories of two different agents; \
point --memories at memories of a second agent as well (a folder holding two tools' notes files, records with \
another `agent`, or, for reconcile, a second --memories)",
                c.memories,
                memval_proto::display::one_line(only)
            );
        }
        _ if c.pairs.is_empty() && c.resolved_skipped == 0 => {
            let change = match c.method.as_str() {
                BOTH => "no two agents' memories are close enough by words or by meaning to compare",
                EMBED => "--method both also finds pairs that share words",
                _ => "--method both (with --embed-model DIR) also finds paraphrases the keyword method misses",
            };
            let _ = writeln!(out, "no pair of memories of two different agents reached the threshold above: {change}");
        }
        _ => {}
    }
    for s in &c.sampled {
        let _ = writeln!(
            out,
            "agent {}: {} of {} memories compared (per-agent sample; --per-agent 0 compares all)",
            memval_proto::display::one_line(&s.agent),
            s.kept,
            s.total
        );
    }
    for (ids, why) in [
        (&c.without_tokens, "by keyword: no word of 4 or more letters or digits"),
        (&c.without_text, "by embed: blank text"),
    ] {
        if ids.is_empty() {
            continue;
        }
        let shown: Vec<String> = ids.iter().take(10).map(|id| memval_proto::display::one_line(id)).collect();
        let more = ids.len().saturating_sub(shown.len());
        let _ = writeln!(
            out,
            "{} {} not compared {why} (ids {}{})",
            ids.len(),
            if ids.len() == 1 { "memory" } else { "memories" },
            shown.join(", "),
            if more > 0 { format!(" and {more} more") } else { String::new() }
        );
    }
    if c.resolved_skipped > 0 {
        let _ = writeln!(out, "{} pairs not raised: already resolved in reconcile_log", c.resolved_skipped);
    }
    if c.capped {
        let last = c.pairs.last().map_or(0.0, |p| p.score);
        let _ = writeln!(
            out,
            "capped at {} pairs: pairs scoring {last:.3} or less may be left out (raise --cap, or --cap 0 for all)",
            c.pairs.len()
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use memval_proto::Source;

    pub(crate) fn memory(id: &str, agent: &str, content: &str) -> Memory {
        Memory {
            id: id.into(),
            agent: agent.into(),
            content: content.into(),
            tier: 0,
            kind: "memory".into(),
            created_at: None,
            updated_at: None,
            source: Source { path: "m.jsonl".into(), line: None, row: None, format: "jsonl".into() },
            context_dir: None,
            first_line: 1,
        }
    }

    fn ids(pairs: &[Pair]) -> Vec<(String, String)> {
        pairs.iter().map(|p| (p.id_a.clone(), p.id_b.clone())).collect()
    }

    fn opts(cap: Option<usize>) -> Options {
        Options { cap, per_agent: None, resolved: HashSet::new() }
    }

    #[test]
    fn only_different_agents_above_the_floor_with_exact_scores() {
        let m = vec![
            memory("12", "pm", "We decided to use PostgreSQL as the primary database."),
            memory("34", "tech-lead", "We rejected PostgreSQL; the primary database stays SQLite."),
            memory("5", "pm", "We decided to use PostgreSQL as the primary database today."),
            memory("7", "qa", "Flaky tests retry twice in continuous integration."),
        ];
        let c = keyword_pairs(&m, &opts(None));
        // 12 and 5 share an agent: never paired. 7 shares nothing with the others.
        assert_eq!(ids(&c.pairs), [("12".into(), "34".into()), ("5".into(), "34".into())]);
        // 12: decided postgresql primary database (4); 34: rejected postgresql primary database stays sqlite (6).
        assert_eq!(c.pairs[0].score, 3.0 / 7.0);
        // 5 adds "today": 3 / 8. Integer ids order numerically: 5 < 34.
        assert_eq!(c.pairs[1].score, 3.0 / 8.0);
        assert_eq!(c.pairs[1].agent_a, "pm");
        assert!(!c.capped);
        assert_eq!(c.pairs[0].method, "keyword");
    }

    #[test]
    fn the_cap_keeps_the_best_and_says_so() {
        let m = vec![
            memory("1", "a", "alpha beta gamma delta"),
            memory("2", "b", "alpha beta gamma delta"),
            memory("3", "c", "alpha beta gamma epsilon"),
            memory("4", "d", "alpha beta zeta theta"),
        ];
        let c = keyword_pairs(&m, &opts(Some(2)));
        assert_eq!(ids(&c.pairs), [("1".into(), "2".into()), ("1".into(), "3".into())]);
        assert_eq!(c.pairs[0].score, 1.0);
        assert_eq!(c.pairs[1].score, 3.0 / 5.0);
        assert!(c.capped);
        assert!(summary(&c).contains("capped at 2 pairs"));
    }

    #[test]
    fn resolved_pairs_are_not_raised_again() {
        let m = vec![
            memory("1", "a", "alpha beta gamma delta"),
            memory("2", "b", "alpha beta gamma delta"),
            memory("3", "c", "alpha beta gamma delta"),
        ];
        let mut o = opts(None);
        o.resolved.insert(normalised_ids("2", "1"));
        let c = keyword_pairs(&m, &o);
        assert_eq!(ids(&c.pairs), [("1".into(), "3".into()), ("2".into(), "3".into())]);
        assert_eq!(c.resolved_skipped, 1);
    }

    #[test]
    fn one_agent_makes_no_pair_and_the_summary_says_why() {
        let m = vec![memory("1", "docs", "alpha beta gamma delta"), memory("2", "docs", "alpha beta gamma delta")];
        let c = keyword_pairs(&m, &opts(None));
        assert!(c.pairs.is_empty());
        assert!(
            summary(&c).contains("all 2 memories belong to one agent (docs): pairs are only made between memories of two different agents"),
            "{}",
            summary(&c)
        );
        assert!(summary(&c).contains("point --memories at memories of a second agent as well"), "{}", summary(&c));
        // Two agents: no such line, whatever the pairs.
        let two = keyword_pairs(&[memory("1", "a", "alpha beta"), memory("2", "b", "gamma delta")], &opts(None));
        assert!(!summary(&two).contains("one agent"), "{}", summary(&two));
    }

    #[test]
    fn no_pair_says_why_and_what_would_change_it() {
        // Two agents that share no word: the threshold, and the method that also finds paraphrases.
        let two = keyword_pairs(
            &[memory("1", "a", "alpha beta gamma delta"), memory("2", "b", "epsilon zeta theta iota")],
            &opts(None),
        );
        assert!(two.pairs.is_empty());
        assert!(
            summary(&two)
                .contains("no pair of memories of two different agents reached the threshold above: --method both"),
            "{}",
            summary(&two)
        );
        // Nothing read: say so, and where memories come from.
        let none = keyword_pairs(&[], &opts(None));
        assert!(summary(&none).contains("no memory was read: point --memories at"), "{}", summary(&none));
        // Pairs found: no excuse is printed.
        let found = keyword_pairs(&[memory("1", "a", "alpha beta"), memory("2", "b", "alpha beta")], &opts(None));
        assert!(!found.pairs.is_empty());
        assert!(!summary(&found).contains("no pair") && !summary(&found).contains("no memory"), "{}", summary(&found));
    }

    #[test]
    fn memories_without_tokens_are_listed() {
        let m = vec![memory("1", "a", "ok, go"), memory("2", "b", "alpha beta")];
        let c = keyword_pairs(&m, &opts(None));
        assert_eq!(c.without_tokens, ["1"]);
        assert!(summary(&c).contains("1 memory not compared"));
    }

    #[test]
    fn sampling_takes_highest_tier_then_newest() {
        let mut m = Vec::new();
        for (id, tier, updated) in [("1", 0, 10), ("2", 2, 5), ("3", 1, 50), ("4", 1, 40), ("5", 0, 99)] {
            let mut x = memory(id, "a", "text");
            x.tier = tier;
            x.updated_at = Some(updated);
            m.push(x);
        }
        m.push(memory("6", "b", "text"));
        let (keep, sampled) = sample(&m, Some(3));
        let kept: Vec<&str> = keep.iter().map(|&i| m[i].id.as_str()).collect();
        assert_eq!(kept, ["2", "3", "4", "6"]);
        assert_eq!(sampled, [Sampled { agent: "a".into(), kept: 3, total: 5 }]);
        assert_eq!(sample(&m, None).0.len(), 6);
    }

    #[test]
    fn jsonl_line_is_the_spec_shape() {
        let m = vec![memory("12", "pm", "use postgres now"), memory("x-34", "tl", "use postgres never")];
        let c = keyword_pairs(&m, &opts(None));
        let line = to_jsonl_line(&c.pairs[0]);
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        // "12" < "x-34" as text (one id is not an integer).
        assert_eq!(v["id_a"], 12);
        assert_eq!(v["id_b"], "x-34");
        // {postgres} and {postgres, never}.
        assert_eq!(v["score"], 0.5);
        assert_eq!(v["method"], "keyword");
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys.len(), 8);
    }

    /// A small deterministic generator: no test depends on a random seed it cannot replay.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    fn corpus(seed: u64, n: usize, agents: usize, vocab: usize) -> Vec<Memory> {
        let mut r = Rng(seed);
        let words: Vec<String> = (0..vocab).map(|i| format!("word{i}")).collect();
        (0..n)
            .map(|i| {
                let len = 3 + r.below(12);
                // Skewed: low word numbers are common, as in real text.
                let text: Vec<&str> = (0..len)
                    .map(|_| {
                        let top = 1 + r.below(vocab);
                        words[r.below(top)].as_str()
                    })
                    .collect();
                memory(&i.to_string(), &format!("agent{}", r.below(agents)), &text.join(" "))
            })
            .collect()
    }

    #[test]
    fn the_join_equals_the_all_pairs_scan() {
        for seed in 1..=12u64 {
            let m = corpus(seed * 7919, 150, 5, 40);
            let want = exhaustive(&m, &opts(None));
            assert!(want.len() > 50, "seed {seed}: the corpus must have pairs to rank");
            let all = keyword_pairs(&m, &opts(None));
            assert_eq!(ids(&all.pairs), ids(&want), "seed {seed}: no cap");
            for k in [1, 7, 50] {
                let top = keyword_pairs(&m, &opts(Some(k)));
                assert_eq!(ids(&top.pairs), ids(&want[..k.min(want.len())]), "seed {seed}, cap {k}");
                let scores: Vec<f64> = top.pairs.iter().map(|p| p.score).collect();
                let exact: Vec<f64> = want[..k.min(want.len())].iter().map(|p| p.score).collect();
                assert_eq!(scores, exact);
            }
        }
    }

    #[test]
    fn the_table_keeps_one_row_per_pair_whatever_the_memories_say() {
        let forged = "\n 0.999  pm:1   tech-lead:2   forged | forged\r\n\u{2028}\u{85}\tx";
        let table_of = |t: &str| {
            let m = vec![
                memory(
                    &format!("12{t}"),
                    &format!("pm{t}"),
                    &format!("We decided to use PostgreSQL as the primary database.{t}"),
                ),
                memory(
                    &format!("34{t}"),
                    &format!("tech-lead{t}"),
                    "We rejected PostgreSQL; the primary database stays SQLite.",
                ),
                memory(&format!("56{t}"), "qa", "x"),
            ];
            let mut c = keyword_pairs(&m, &opts(None));
            assert_eq!(c.pairs.len(), 1, "{t:?}");
            c.sampled = vec![Sampled { agent: format!("pm{t}"), kept: 1, total: 2 }];
            to_table(&c)
        };
        let (plain, shown) = (table_of(""), table_of(forged));
        assert_eq!(shown.lines().count(), plain.lines().count(), "{shown}");
        assert!(shown.contains("pm\\n 0.999  pm:1"), "{shown}");
        assert!(!shown.chars().any(|c| matches!(c, '\r' | '\u{2028}' | '\u{85}' | '\t')), "{shown}");
    }
}
