//! Contradictions memval can prove without a model (docs/contracts.md §6 section 3): two memories of
//! different agents that
//!
//! - give the same configuration key different values (`cache_ttl = 300` vs `cache_ttl: 60`),
//!   the key written as code would write it (`snake_case`, `dotted.key`, `UPPER_SNAKE`, or in
//!   backticks), so prose like "status: done" is not a key;
//! - take and reject the same named choice ("we use PostgreSQL" vs "we rejected PostgreSQL"),
//!   a "use" preceded by a negation counting as a rejection.
//!
//! Each side is quoted verbatim from the memory. Everything else is for the pair judge.
//! Text in, findings out: nothing here reads a file or obeys memory text.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use regex::Regex;

/// One side of a proven contradiction.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Side {
    pub id: String,
    pub agent: String,
    /// Where the memory is (file:line, db row).
    pub source: String,
    /// Verbatim from the memory.
    pub quote: String,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Same configuration key, different values.
    ConfigValue,
    /// A named choice taken by one side and rejected by the other.
    Choice,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Proven {
    pub kind: Kind,
    /// The key or the choice's name, lowercased.
    pub subject: String,
    pub a: Side,
    pub b: Side,
}

/// What a memory is, for this module.
pub struct Text<'a> {
    pub id: &'a str,
    pub agent: &'a str,
    pub source: String,
    pub content: &'a str,
}

fn config_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?x)
            (?: `(?P<bk>[A-Za-z][A-Za-z0-9_.\-]*)`
              | \b(?P<k>[a-z][a-z0-9]*(?:[_.][a-z0-9]+)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b )
            \s*
            (?: = | :\s | \s(?:is|defaults\s+to|is\s+set\s+to|must\s+(?:stay|be)(?:\s+at)?)\s )
            \s*`?(?P<v>[A-Za-z0-9][A-Za-z0-9_.:/\-]*)`?",
        )
        .unwrap()
    })
}

/// File names are not configuration keys (`lru.rs: 45` says where, not what).
fn looks_like_file(key: &str) -> bool {
    const EXT: &[&str] = &[
        "rs", "py", "md", "ts", "js", "go", "json", "yaml", "yml", "toml", "txt", "sh", "java", "c", "h", "cpp", "rb",
        "tsx", "jsx", "lock", "cfg", "ini",
    ];
    key.rsplit_once('.').is_some_and(|(_, ext)| EXT.contains(&ext.to_ascii_lowercase().as_str()))
}

/// `(key, value, quote)` assertions of `text`.
pub fn config_values(text: &str) -> Vec<(String, String, String)> {
    config_re()
        .captures_iter(text)
        .filter_map(|c| {
            let key = c.name("bk").or(c.name("k"))?.as_str();
            let value = c.name("v")?.as_str().trim_end_matches(['.', ':', '-', '/']);
            if looks_like_file(key) || value.is_empty() {
                return None;
            }
            Some((
                key.to_ascii_lowercase(),
                value.to_ascii_lowercase(),
                c.get(0)?.as_str().trim_end_matches(['.', ':']).to_owned(),
            ))
        })
        .collect()
}

fn choice_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?ix)\b(?P<verb>
                decided\s+to\s+use|decided\s+on|went\s+with|standardi[sz]ed\s+on|switched\s+to|migrated\s+to|chose|picked|adopted|uses|use|using
              | do\s+not\s+use|don't\s+use|never\s+use|rejected|ruled\s+out|dropped|abandoned|avoid
            )\s+`?(?P<name>[A-Za-z][A-Za-z0-9+\#]*(?:[.\-][A-Za-z0-9]+)*)`?",
        )
        .unwrap()
    })
}

/// Words after a verb that are not names.
const NOT_NAMES: &[&str] = &[
    "the", "a", "an", "it", "this", "that", "these", "those", "our", "their", "its", "them", "any", "all", "some",
    "one", "to", "of", "for", "in", "on", "with", "and", "or", "as", "is", "be", "case", "cases", "instead", "only",
    "same", "new", "old",
];

/// `(name, taken, quote)` choices of `text`: `taken` false for a rejection.
pub fn choices(text: &str) -> Vec<(String, bool, String)> {
    let mut out = Vec::new();
    for c in choice_re().captures_iter(text) {
        let (Some(verb), Some(name), Some(all)) = (c.name("verb"), c.name("name"), c.get(0)) else { continue };
        let name_l = name.as_str().to_ascii_lowercase();
        if NOT_NAMES.contains(&name_l.as_str()) || name_l.len() < 2 {
            continue;
        }
        let v = verb.as_str().to_ascii_lowercase();
        let mut taken = !(v.contains("not")
            || v.contains("n't")
            || v.starts_with("never")
            || ["rejected", "dropped", "abandoned", "avoid"].contains(&v.as_str())
            || v.starts_with("ruled"));
        // "we will not use X", "no longer using X": a negation just before the verb.
        let before = text[..all.start()].to_ascii_lowercase();
        let before = before.trim_end();
        if taken
            && (before.ends_with("not")
                || before.ends_with("n't")
                || before.ends_with("never")
                || before.ends_with("no longer")
                || before.ends_with("stop"))
        {
            taken = false;
            let start = before.rfind(|ch: char| ch.is_whitespace()).map_or(0, |i| i + 1);
            out.push((name_l, taken, text[start..all.end()].trim().to_owned()));
            continue;
        }
        out.push((name_l, taken, all.as_str().to_owned()));
    }
    out
}

/// Every provable contradiction between memories of different agents, each memory pair and
/// subject once, in a stable order.
pub fn prove(memories: &[Text<'_>]) -> Vec<Proven> {
    let mut by_key: BTreeMap<String, Vec<(usize, String, String)>> = BTreeMap::new();
    let mut by_choice: BTreeMap<String, Vec<(usize, bool, String)>> = BTreeMap::new();
    for (i, m) in memories.iter().enumerate() {
        for (k, v, q) in config_values(m.content) {
            by_key.entry(k).or_default().push((i, v, q));
        }
        for (n, taken, q) in choices(m.content) {
            by_choice.entry(n).or_default().push((i, taken, q));
        }
    }
    let side = |i: usize, quote: &str| Side {
        id: memories[i].id.to_owned(),
        agent: memories[i].agent.to_owned(),
        source: memories[i].source.clone(),
        quote: quote.to_owned(),
    };
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (key, list) in &by_key {
        for (x, (i, vi, qi)) in list.iter().enumerate() {
            for (j, vj, qj) in &list[x + 1..] {
                if memories[*i].agent != memories[*j].agent
                    && vi != vj
                    && seen.insert((0, key.clone(), *i.min(j), *i.max(j)))
                {
                    out.push(Proven {
                        kind: Kind::ConfigValue,
                        subject: key.clone(),
                        a: side(*i, qi),
                        b: side(*j, qj),
                    });
                }
            }
        }
    }
    for (name, list) in &by_choice {
        for (i, ti, qi) in list.iter().filter(|c| c.1) {
            for (j, tj, qj) in list.iter().filter(|c| !c.1) {
                debug_assert!(*ti && !*tj);
                if memories[*i].agent != memories[*j].agent && seen.insert((1, name.clone(), *i.min(j), *i.max(j))) {
                    out.push(Proven { kind: Kind::Choice, subject: name.clone(), a: side(*i, qi), b: side(*j, qj) });
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t<'a>(id: &'a str, agent: &'a str, content: &'a str) -> Text<'a> {
        Text { id, agent, source: format!("m:{id}"), content }
    }

    #[test]
    fn config_keys_look_like_code() {
        let got = config_values("Set cache_ttl = 300. `max-conns`: 40 and MEMVAL_PORT is 8080; retry.limit defaults to 3. See lru.rs: 45. Status: done.");
        let kv: Vec<(&str, &str)> = got.iter().map(|(k, v, _)| (k.as_str(), v.as_str())).collect();
        assert_eq!(kv, [("cache_ttl", "300"), ("max-conns", "40"), ("memval_port", "8080"), ("retry.limit", "3")]);
        assert_eq!(got[0].2, "cache_ttl = 300");
    }

    #[test]
    fn choices_taken_and_rejected() {
        let got =
            choices("We decided to use PostgreSQL. We rejected MongoDB; we will not use Redis here. Use the cache.");
        let c: Vec<(&str, bool)> = got.iter().map(|(n, t, _)| (n.as_str(), *t)).collect();
        assert_eq!(c, [("postgresql", true), ("mongodb", false), ("redis", false)]);
        assert_eq!(got[2].2, "not use Redis");
    }

    #[test]
    fn proven_only_across_agents_and_when_they_differ() {
        let ms = [
            t("1", "pm", "We decided to use PostgreSQL as the primary database. cache_ttl = 300"),
            t("2", "tech-lead", "We rejected PostgreSQL; product store stays on SQLite. cache_ttl = 60"),
            t("3", "pm", "cache_ttl = 60 in staging"),
            t("4", "qa", "cache_ttl = 300 everywhere"),
        ];
        let p = prove(&ms);
        let got: Vec<(Kind, &str, &str, &str)> =
            p.iter().map(|x| (x.kind.clone(), x.subject.as_str(), x.a.id.as_str(), x.b.id.as_str())).collect();
        assert_eq!(
            got,
            [
                (Kind::ConfigValue, "cache_ttl", "1", "2"),
                // 1 and 3: same agent. 2 and 3: same value.
                (Kind::ConfigValue, "cache_ttl", "2", "4"),
                (Kind::ConfigValue, "cache_ttl", "3", "4"),
                (Kind::Choice, "postgresql", "1", "2"),
            ]
        );
        assert_eq!(p[3].a.quote, "decided to use PostgreSQL");
        assert_eq!(p[3].b.quote, "rejected PostgreSQL");
        assert!(ms[1].content.contains(&p[0].b.quote));
    }
}
