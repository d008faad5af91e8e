//! Which memories a draft may contradict, chosen greedily: a memory whose index line touches
//! the draft's domain is a candidate; a memory the index does not make one is then read whole
//! and becomes one if its text does. A false candidate costs a few prompt tokens; a missed one
//! is a conflict nobody looks at (docs/contracts.md §7).
//!
//! "Touches" means a shared topic (a small English/Spanish lexicon of the domains agents'
//! feedback is about: tests and coverage, git hooks and pushes, credentials, CI and checks,
//! debugging and retries, dependencies, style, language) or shared words (4+ letters, stop
//! words dropped, plural/verb endings stripped). The index line needs one shared topic or word;
//! the whole text, longer and so matching by chance more often, a topic or two words.
//! Every `user_*` memory is a candidate: who the user is and how they want answers applies
//! to any draft, and contradicting it is a veto (docs/contracts.md §7).
//! Candidates are for the model and for the report; the veto rules read every memory anyway.
//!
//! The lexicon also covers deploys and data. Candidates are taken in order: every `user_*` memory;
//! then each memory whose index line shares a topic or a content word with the draft; then, for
//! the rest, those whose whole text shares a topic or two words.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use regex::Regex;
use serde::Serialize;

use super::memory::{Kind, MemoryFolder};

/// Why a memory is a candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Via {
    /// Its `MEMORY.md` line touches the draft.
    Index,
    /// Its text does (the index did not make it a candidate).
    Text,
    /// A `user_*` memory: it describes the user (role, expertise, preferences, language), so
    /// any answer can go against it, whatever words it shares with the draft.
    User,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// Index into [`MemoryFolder::files`].
    pub file: usize,
    pub via: Via,
    /// The topics and words it shares with the draft, for the record.
    pub shared: Vec<String>,
}

const TOPICS: &[(&str, &str)] = &[
    (
        "tests",
        r"\btests?\b|\btesting\b|\bpruebas?\b|\bcoverage\b|\bcobertura\b|\bpytest\b|\bcargo\s+test\b|\bjest\b|\bspecs?\b|\bflaky\b|\bumbral|\bthreshold",
    ),
    (
        "git",
        r"\bgit\b|\bcommit(?:s|ted|ting)?\b|\bpush(?:es|ed|ing)?\b|\bhooks?\b|\bganchos?\b|pre-commit|no-verify|\bforce\b|\bforzad|\brebase\b|\bbranch(?:es)?\b|\brama\b",
    ),
    (
        "credentials",
        r"credential|credencial|passw|contrase[ñn]a|\bsecrets?\b|\bsecretos?\b|\btokens?\b|api[ _-]?keys?|\bbearer\b|\bclaves?\b|\bauth",
    ),
    (
        "checks",
        r"\bci\b|\bchecks?\b|\blint|\bverif|\bcomprobaci|\bvalidat|\bvalidaci|\bsafety\b|\bseguridad\b|\bssl\b|\btls\b|\bcertific",
    ),
    (
        "debugging",
        r"root[- ]cause|causa[- ]ra[ií]z|\bretr(?:y|ies|ying)\b|\breintent|\brelanz|\bre-?run\b|\bdebug|\bdepur|\binvestigat|\binvestig|\bworkaround|\bshortcuts?\b|\batajos?\b",
    ),
    (
        "dependencies",
        r"\bdependenc|\bdependencias?\b|\bpackages?\b|\bpaquetes?\b|\bcrates?\b|\bnpm\b|\bpip\b|\bcargo\b|\bversions?\b|\bversi[oó]n",
    ),
    (
        "style",
        r"\bstyle\b|\bestilo\b|\bformat|\bnaming\b|\bcomments?\b|\bcomentarios?\b|\bemojis?\b|\bverbos|\bconcis|\bshort\b|\bbreve",
    ),
    ("language", r"\benglish\b|\bingl[eé]s\b|\bspanish\b|\bespa[ñn]ol\b|\blanguage\b|\bidioma\b|\blengua\b"),
    ("deploy", r"\bdeploy|\bdespleg|\bproduction\b|\bproducci[oó]n\b|\brelease\b|\bdocker\b|\bkubernetes\b|\bk8s\b"),
    (
        "data",
        r"\bdatabase\b|\bbase\s+de\s+datos\b|\bmigrat|\bmigraci|\bsql\b|\bbackups?\b|\bcopias?\s+de\s+seguridad\b|\bdelete\b|\bborrar\b|\brm\s+-rf\b",
    ),
];

const STOP: &[&str] = &[
    // English
    "about",
    "after",
    "again",
    "also",
    "always",
    "because",
    "been",
    "before",
    "being",
    "both",
    "could",
    "does",
    "doing",
    "done",
    "each",
    "even",
    "every",
    "first",
    "from",
    "have",
    "here",
    "into",
    "just",
    "like",
    "made",
    "make",
    "many",
    "more",
    "most",
    "much",
    "must",
    "need",
    "never",
    "only",
    "other",
    "over",
    "same",
    "should",
    "some",
    "such",
    "than",
    "that",
    "their",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "under",
    "until",
    "very",
    "want",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "will",
    "with",
    "without",
    "would",
    "your",
    "yours",
    "name",
    "description",
    "type",
    "feedback",
    "user",
    "project",
    "reference",
    "memory",
    "memories",
    "apply",
    "please",
    "thing",
    "things",
    "sure",
    "okay",
    "let's",
    "here's",
    "it's",
    "don't",
    "can't",
    "won't",
    "since",
    "still",
    "well",
    // Spanish
    "algo",
    "ante",
    "antes",
    "aquí",
    "cada",
    "como",
    "cómo",
    "con",
    "cual",
    "cuál",
    "cuando",
    "cuándo",
    "desde",
    "donde",
    "dónde",
    "durante",
    "entre",
    "esta",
    "está",
    "este",
    "esto",
    "estos",
    "estas",
    "hace",
    "hacer",
    "hasta",
    "luego",
    "más",
    "mismo",
    "mucho",
    "muy",
    "nada",
    "nunca",
    "otra",
    "otro",
    "para",
    "pero",
    "poco",
    "porque",
    "puede",
    "pues",
    "que",
    "quiero",
    "sobre",
    "siempre",
    "sólo",
    "solo",
    "también",
    "tanto",
    "tiene",
    "todo",
    "todos",
    "todas",
    "usar",
    "vamos",
    "ya",
    "eres",
    "será",
    "sería",
    "haz",
    "luego",
    "primero",
    "después",
    "entonces",
    "aunque",
];

struct Compiled {
    topics: Vec<(&'static str, Regex)>,
    word: Regex,
}

fn compiled() -> &'static Compiled {
    static C: OnceLock<Compiled> = OnceLock::new();
    C.get_or_init(|| Compiled {
        topics: TOPICS
            .iter()
            .map(|(name, p)| {
                (*name, Regex::new(&format!("(?i){}", super::rules::ascii_boundaries(p))).expect("topic pattern"))
            })
            .collect(),
        word: Regex::new(r"[\p{L}\p{N}][\p{L}\p{N}'_-]*").expect("word pattern"),
    })
}

/// What a text is about: its topics and its stemmed content words.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Terms {
    pub topics: BTreeSet<&'static str>,
    pub words: BTreeSet<String>,
}

impl Terms {
    pub fn of(text: &str) -> Terms {
        let c = compiled();
        let topics = c.topics.iter().filter(|(_, re)| re.is_match(text)).map(|(name, _)| *name).collect();
        let words = c
            .word
            .find_iter(text)
            .map(|m| m.as_str().trim_matches(|ch| ch == '\'' || ch == '-' || ch == '_').to_lowercase())
            .filter(|w| {
                w.chars().count() >= 4 && !STOP.contains(&w.as_str()) && !w.chars().all(|ch| ch.is_ascii_digit())
            })
            .map(|w| stem(&w))
            .collect();
        Terms { topics, words }
    }

    /// What `self` and `other` share: topics as `topic:NAME`, then words.
    fn shared(&self, other: &Terms) -> (usize, usize, Vec<String>) {
        let topics: Vec<String> = self.topics.intersection(&other.topics).map(|t| format!("topic:{t}")).collect();
        let words: Vec<String> = self.words.intersection(&other.words).cloned().collect();
        let (t, w) = (topics.len(), words.len());
        (t, w, topics.into_iter().chain(words).collect())
    }
}

/// A crude English/Spanish stem: common endings off, at most 6 characters kept, so `tests`,
/// `testing` and `tested` meet, as do `umbral` and `umbrales`.
fn stem(word: &str) -> String {
    const ENDINGS: &[&str] =
        &["aciones", "ación", "ations", "ation", "mente", "iones", "ión", "ing", "ies", "es", "ed", "s"];
    let mut w = word;
    for end in ENDINGS {
        if let Some(base) = w.strip_suffix(end) {
            if base.chars().count() >= 4 {
                w = base;
                break;
            }
        }
    }
    w.chars().take(6).collect()
}

/// The candidates for `draft` in `folder`, index matches first, in file order.
pub fn select(folder: &MemoryFolder, draft: &str) -> Vec<Candidate> {
    let wanted = Terms::of(draft);
    let mut out = Vec::new();
    let mut by_text = Vec::new();
    for (i, file) in folder.files.iter().enumerate() {
        if file.kind == Kind::User {
            let (_, _, shared) = Terms::of(&file.text).shared(&wanted);
            out.push(Candidate { file: i, via: Via::User, shared });
            continue;
        }
        if !file.index_line.is_empty() {
            let (t, w, shared) = Terms::of(&file.index_line).shared(&wanted);
            if t + w >= 1 {
                out.push(Candidate { file: i, via: Via::Index, shared });
                continue;
            }
        }
        let (t, w, shared) = Terms::of(&file.text).shared(&wanted);
        if t >= 1 || w >= 2 {
            by_text.push(Candidate { file: i, via: Via::Text, shared });
        }
    }
    out.extend(by_text);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draft::memory::from_texts;

    fn names(folder: &MemoryFolder, c: &[Candidate]) -> Vec<(String, Via)> {
        c.iter().map(|c| (folder.files[c.file].name.clone(), c.via)).collect()
    }

    #[test]
    fn index_first_then_text_and_unrelated_memories_stay_out() {
        let folder = from_texts(
            Some("- [Root cause](feedback_root_cause_always.md) — never lower thresholds or skip tests\n- [Tabs](feedback_tabs.md) — indentation\n- [Cooking](project_food.md) — lunch is paella\n"),
            vec![
                ("feedback_root_cause_always.md".into(), "---\ntype: feedback\n---\nFix causes.".into()),
                ("feedback_tabs.md".into(), "---\ntype: feedback\n---\nIndent with tabs. Coverage reports use tabs too.".into()),
                ("project_food.md".into(), "---\ntype: project\n---\nThe team lunch is paella.".into()),
                ("user_role.md".into(), "---\ntype: user\n---\nThe user is a chef.".into()),
            ],
        );
        let draft = "Para que pase CI, baja el umbral de cobertura al 60%.";
        assert_eq!(
            names(&folder, &select(&folder, draft)),
            vec![
                ("feedback_root_cause_always.md".into(), Via::Index),
                ("user_role.md".into(), Via::User),
                ("feedback_tabs.md".into(), Via::Text)
            ]
        );
    }

    #[test]
    fn stems_meet_across_endings() {
        for (a, b) in [("tests", "testing"), ("tested", "test"), ("umbrales", "umbral"), ("coverage", "coverage")] {
            assert_eq!(stem(a), stem(b), "{a} {b}");
        }
    }
}
