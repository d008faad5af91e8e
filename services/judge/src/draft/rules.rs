//! The veto rules of docs/contracts.md §7 that need no model, as a table: what in a draft counts as the
//! action (bypassing a safety mechanism, taking a shortcut, putting credentials in command
//! arguments), and what kind of saved memory forbids it. A rule fires when both are found;
//! its evidence is the memory line that forbids the action and the draft clause that takes it,
//! both cut verbatim from their texts.
//!
//! The patterns read English and Spanish. A match inside a clause that negates it ("never use
//! `--no-verify`", "no bajes el umbral") does not count. Rules see words, not intent: anything
//! subtler (a contradiction of a `user_*` memory, a paraphrase no pattern knows) is the model's
//! job ([`super::model`]), and the output says which memories no model judged.
//! Nothing here follows an instruction found in a draft or a memory: both are only matched.
//!
//! The rules: `bypass-hooks`, `bypass-force-push` and `bypass-checks` (a draft pattern for the
//! action, and a `feedback` memory line that names the mechanism and carries a prohibition cue);
//! `shortcut` and `shortcut-hooks` (a shortcut or a hook skip while a `feedback` memory is about
//! the root cause, by a line or by its file name); `credentials-in-args` (a literal secret in a
//! command while any memory forbids credentials, in a line or by its file name). They run against
//! *every* memory, not only candidates. Bare "not"/"no" do not negate (too often about something
//! else). A rule hit is score 10 ([`RULE_SCORE`]), confidence 0.9 ([`RULE_CONFIDENCE`]) and a
//! veto.

use std::sync::OnceLock;

use regex::Regex;

use super::memory::{Kind, MemoryFile};

/// The confidence of a rule hit: below 1 because a pattern sees words, not intent (a quoted
/// counter-example can fire it).
pub const RULE_CONFIDENCE: f64 = 0.9;
/// The docs/contracts.md §7 score of a rule hit: a direct contradiction.
pub const RULE_SCORE: u8 = 10;
/// Longest excerpt or draft match cited (cut at a character boundary, so still verbatim).
pub const MAX_QUOTE: usize = 300;

/// One veto rule: draft patterns, and the memories that forbid what they find.
pub struct Rule {
    pub id: &'static str,
    /// What the draft does when a pattern matches, for the reason line.
    pub action: &'static str,
    /// Case-insensitive unless the pattern says otherwise; any one matching is the action.
    pub draft: &'static [&'static str],
    /// Memory types the rule consults.
    pub kinds: &'static [Kind],
    /// A memory line must name the mechanism (one of these)...
    pub topic: &'static [&'static str],
    /// ...and forbid something (a prohibition cue on the same line) unless `by_itself`.
    pub needs_prohibition: bool,
    /// A memory whose file name contains one of these is this rule's memory by itself
    /// (`feedback_root_cause_always.md`), whatever its lines say.
    pub file_names: &'static [&'static str],
}

const HOOK_SKIP: &[&str] = &[
    r"--no-verify\b",
    r"\bgit\s+commit\b[^\n|;&]*\s-n\b",
    r"(?-i)\bHUSKY=0\b",
    r"(?-i)\bHUSKY_SKIP_HOOKS=1\b",
    r"(?-i)\bSKIP=[\w,-]+\s+git\b",
    r"\b(?:skip|skipping|skips|bypass|bypassing|disable|disabling|ignore|ignoring|turn\s+off|without)\s+(?:the\s+|running\s+(?:the\s+)?|git\s+|pre-commit\s+|commit\s+|commit-msg\s+)*hooks?\b",
    r"\b(?:salta|saltar|sáltate|saltarte|saltarse|sáltalos|omite|omitir|desactiva|desactivar|deshabilita|deshabilitar|ignora|ignorar|sin)\s+(?:el\s+|los\s+|la\s+|las\s+)?(?:ganchos?|hooks?|pre-commit)\b",
];

const FORCE_PUSH: &[&str] = &[
    r"\bgit\s+push\b[^\n|;&]*\s(?:--force(?:-with-lease)?|-f)\b",
    r"\bpush\s+(?:--force|-f)\b",
    r"\bforce[- ]push(?:es|ed|ing)?\b",
    r"\b(?:forzar|fuerza|forzad|haz\s+un)\s+(?:el\s+)?push(?:\s+forzado)?\b",
    r"\bpush\s+forzado\b",
];

const DISABLE_CHECK: &[&str] = &[
    r"\b(?:disable|disabling|turn\s+off|switch\s+off|bypass|bypassing|skip|skipping|remove|removing|comment\s+out)\s+(?:the\s+|a\s+|all\s+|that\s+|this\s+)?(?:\w+\s+){0,2}?(?:checks?|linters?|lint(?:ing)?|type[- ]?check(?:s|ing|er)?|ssl\s+verification|certificate\s+verification|tls\s+verification|branch\s+protection|ci|status\s+checks?|validation)\b",
    r"--no-check-certificate\b",
    r"--insecure\b",
    r"\bverify\s*=\s*False\b",
    r"\bGIT_SSL_NO_VERIFY\s*=\s*(?:1|true)\b",
    r"\bhttp\.sslVerify\s*[= ]\s*false\b",
    r"--skip-checks?\b",
    r"\b(?:desactiva|desactivar|deshabilita|deshabilitar|quita|quitar|salta|saltar|sáltate|omite|omitir|apaga|apagar)\s+(?:el\s+|la\s+|los\s+|las\s+)?(?:\w+\s+){0,2}?(?:checks?|comprobaci[oó]n(?:es)?|verificaci[oó]n(?:es)?|linter|lint|ci|validaci[oó]n(?:es)?|protecci[oó]n)\b",
];

const SHORTCUT: &[&str] = &[
    // Lowering a threshold or coverage.
    r"\b(?:lower|lowering|lowers|reduce|reducing|decrease|decreasing|drop|dropping|relax|relaxing|loosen|loosening)\s+(?:the\s+|our\s+|your\s+)?(?:[\w-]+\s+){0,2}?(?:coverage|thresholds?|tolerances?|min(?:imum)?)\b",
    r"\b(?:baja|bajar|bajad|bajamos|rebaja|rebajar|reduce|reducir|disminuye|disminuir|relaja|relajar)\s+(?:el\s+|la\s+|los\s+|las\s+)?(?:\w+\s+){0,2}?(?:umbral(?:es)?|cobertura|tolerancia|m[ií]nimo)\b",
    // Skipping or deleting tests.
    r"\b(?:skip|skipping|disable|disabling|ignore|ignoring|comment\s+out|commenting\s+out|delete|deleting|remove|removing|mute|muting|xfail)\s+(?:the\s+|that\s+|this\s+|those\s+|these\s+|a\s+|all\s+)?(?:[\w-]+\s+){0,2}?(?:tests?|specs?|test\s+suite)\b",
    r"\b(?:salta|saltar|sáltate|saltarte|omite|omitir|desactiva|desactivar|deshabilita|deshabilitar|ignora|ignorar|comenta|comentar|borra|borrar|elimina|eliminar|quita|quitar)\s+(?:el\s+|la\s+|los\s+|las\s+|ese\s+|esos\s+|este\s+|estos\s+)?(?:\w+\s+){0,2}?(?:tests?|pruebas?)\b",
    // Skip markers: pytest, unittest, Rust, jest/vitest/mocha, Maven, Go, JUnit 4 and 5.
    r"@pytest\.mark\.(?:skip|skipif|xfail)\b|\bpytest\.skip\(|@unittest\.skip|#\[ignore\]|\b(?:it|describe|test|suite)\.skip\b|\bx(?:it|describe|test)\(|-DskipTests\b|-Dmaven\.test\.skip\b|--skip-tests?\b|\bt\.Skip(?:f|Now)?\(",
    r"(?-i)@(?:Disabled|Ignore)\b",
    // Deselecting tests on the command line: pytest's `-k 'not ...'` and `--deselect`, jest's
    // `--testPathIgnorePatterns`, `cargo test -- --skip`, `go test -skip`.
    r#"(?:^|[\s`])-k\s*=?\s*['"]?\s*not\b|--deselect\b|--testPathIgnorePatterns\b|\bcargo\s+test\b[^\n`]*\s--skip\s|\bgo\s+test\b[^\n`]*\s-skip[\s=]"#,
    // Retrying without investigating.
    r"\b(?:re-?run|retry|re-?trigger|restart)\s+(?:it|them|the\s+\w+(?:\s+\w+)?)?\s*(?:until|till)\s+(?:it\s+)?(?:passes|pass|goes\s+green|is\s+green|works)\b",
    r"\bjust\s+(?:re-?run|retry|re-?trigger)\b",
    r"\bkeep\s+(?:re-?running|retrying)\b",
    r"\bretry\s+without\s+(?:investigating|looking)\b",
    r"\b(?:reintenta|reintentar|rel[aá]nza|relanzar|vuelve\s+a\s+(?:lanzar|ejecutar|correr))(?:lo|la|los)?\b[^.\n]{0,40}?\bhasta\s+que\b",
    r"\bsimplemente\s+(?:reintenta|rel[aá]nza|vuelve\s+a\s+lanzar)",
    r"\breintenta(?:r)?\s+sin\s+investigar\b",
];

const CREDENTIALS: &[&str] = &[
    // `--password x`, `--token=x` (not `--password-file`, `--password "$PW"`).
    r#"--(?:password|passwd|pass|token|api-key|apikey|secret|client-secret|access-key|auth-token)(?:=|\s+)(?:"[^"$\s][^"]*"|'[^'$\s][^']*'|[^\s"'$<@-][^\s]*)"#,
    // sshpass -p x; mysql -pSECRET (mysql's `-p db` prompts, so only the attached form).
    r#"\bsshpass\b[^\n|;&]*\s-p\s*(?:"[^"$\s][^"]*"|'[^'$\s][^']*'|[^\s"'$-][^\s]*)"#,
    r#"\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n|;&]*\s-p(?:"[^"$\s][^"]*"|'[^'$\s][^']*'|[^\s"'$-][^\s]*)"#,
    // curl -u user:pass
    r#"\b(?:curl|wget|http)\b[^\n|;&]*\s(?:-u|--user)[\s=]*(?:"[^"$\s:]+:[^"$\s]+"|'[^'$\s:]+:[^'$\s]+'|[^\s"'$:]+:[^\s"'$]+)"#,
    // TOKEN=x cmd, export API_KEY=x (not TOKEN=$(cat f), not BYPASS=1).
    r#"(?-i)(?:^|[\s;&|(`])(?:export\s+)?(?:[A-Z0-9]+_)*(?:TOKEN|SECRET|PASSWORD|PASSWD|PASS|PWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?)(?:_[A-Z0-9]+)*=(?:"[^"$\s][^"]*"|'[^'$\s][^']*'|[^\s"'$][^\s]*)"#,
    // A literal bearer/basic token in a header.
    r#"\bauthorization:\s*(?:bearer|token|basic)\s+[^\s"'$<{][^\s"']{7,}"#,
    r"\bbearer\s+[A-Za-z0-9._~+/-]{16,}=*",
    // scheme://user:pass@host
    r"\b[a-z][a-z0-9+.-]*://[^\s/:@$]+:[^\s/@$]+@",
];

/// The rules, in the order their evidence is listed.
pub const RULES: &[Rule] = &[
    Rule {
        id: "bypass-hooks",
        action: "skips git hooks",
        draft: HOOK_SKIP,
        kinds: &[Kind::Feedback],
        topic: &[r"no-verify", r"\bhooks?\b", r"pre-commit", r"\bhusky\b", r"\bganchos?\b", SAFETY],
        needs_prohibition: true,
        file_names: &[],
    },
    Rule {
        id: "bypass-force-push",
        action: "force-pushes",
        draft: FORCE_PUSH,
        kinds: &[Kind::Feedback],
        topic: &[r"\bforce", r"\bforza", r"push\s+-f\b", SAFETY],
        needs_prohibition: true,
        file_names: &[],
    },
    Rule {
        id: "bypass-checks",
        action: "disables a check",
        draft: DISABLE_CHECK,
        kinds: &[Kind::Feedback],
        topic: &[
            r"\bchecks?\b",
            r"\blint",
            r"\bci\b",
            r"(?:^|[^\w-])verif",
            r"\bcomprobaci",
            r"\bvalidat",
            r"\bvalidaci",
            r"\bprotec",
            r"\bssl\b|\btls\b|\bcertific",
            SAFETY,
        ],
        needs_prohibition: true,
        file_names: &[],
    },
    Rule {
        id: "shortcut",
        action: "takes a shortcut",
        draft: SHORTCUT,
        kinds: &[Kind::Feedback],
        topic: &[r"root[- ]cause", r"causa[- ]ra[ií]z"],
        needs_prohibition: false,
        file_names: &["root_cause"],
    },
    // Hook-skip flags are a shortcut too (docs/contracts.md §7), judged against the root-cause memory.
    Rule {
        id: "shortcut-hooks",
        action: "skips hooks as a shortcut",
        draft: HOOK_SKIP,
        kinds: &[Kind::Feedback],
        topic: &[r"root[- ]cause", r"causa[- ]ra[ií]z"],
        needs_prohibition: false,
        file_names: &["root_cause"],
    },
    Rule {
        id: "credentials-in-args",
        action: "puts credentials in command arguments",
        draft: CREDENTIALS,
        kinds: &[Kind::Feedback, Kind::User, Kind::Project, Kind::Reference],
        topic: &[
            r"credential",
            r"credencial",
            r"passw",
            r"contrase[ñn]a",
            r"\bsecrets?\b",
            r"\bsecretos?\b",
            r"\btokens?\b",
            r"api[ _-]?keys?",
            r"\bclaves?\b",
        ],
        needs_prohibition: true,
        file_names: &["credential", "credencial"],
    },
];

/// A memory line naming safety mechanisms in general forbids bypassing any of them.
const SAFETY: &str = r"safety|guardrail|seguridad|salvaguarda";

/// A line that forbids something (English, Spanish). `--no-…` flags are removed first, so
/// the `no` of `--no-verify` is not read as a prohibition.
const PROHIBITION: &str = r"\b(?:never|don'?t|do\s+not|must\s+not|mustn'?t|should\s+not|shouldn'?t|avoid|forbidden|prohibited|not\s+allowed|no\s+longer|refuse|nunca|jam[aá]s|no|prohibid[oa]s?|evita|evitar)\b";

/// A clause that negates the action it contains ("never use --no-verify", "no bajes el
/// umbral"). Bare English "not" and Spanish "no" are too often about something else ("if it
/// does not pass, skip the test"); only forms that negate an instruction count.
const NEGATION: &str = r"\b(?:don'?t|do\s+not|never|avoid|without|instead\s+of|rather\s+than|shouldn'?t|should\s+not|must\s+not|mustn'?t|no\s+need\s+to|not\s+a\s+good\s+idea|bad\s+idea|stop|nunca|jam[aá]s|evita|evitar|sin|en\s+vez\s+de|en\s+lugar\s+de|mala\s+idea|no\s+(?:uses|hagas|pongas|saltes|desactives|deshabilites|bajes|reduzcas|borres|elimines|fuerces|reintentes|omitas|ejecutes|pases|escribas|comentes|ignores|quites|relances|debes|deber[ií]as)|no\s+se\s+debe|no\s+hay\s+que)\b";

struct Compiled {
    draft: Vec<Vec<Regex>>,
    topic: Vec<Vec<Regex>>,
    prohibition: Regex,
    negation: Regex,
    no_flag: Regex,
}

fn compiled() -> &'static Compiled {
    static C: OnceLock<Compiled> = OnceLock::new();
    C.get_or_init(|| {
        let ci = |p: &str| {
            Regex::new(&format!("(?i){}", ascii_boundaries(p))).unwrap_or_else(|e| panic!("rule pattern {p:?}: {e}"))
        };
        Compiled {
            draft: RULES.iter().map(|r| r.draft.iter().map(|p| ci(p)).collect()).collect(),
            topic: RULES.iter().map(|r| r.topic.iter().map(|p| ci(p)).collect()).collect(),
            prohibition: ci(PROHIBITION),
            negation: ci(NEGATION),
            no_flag: ci(r"--no-[\w-]+"),
        }
    })
}

/// `pattern` with every `\b` an ASCII word boundary. A Unicode `\b` keeps the regex engine
/// off its fast DFA for any text with a non-ASCII letter (every Spanish draft), which made a
/// judgement several times slower; every boundary in the tables sits beside an ASCII
/// letter, digit or punctuation, where the two kinds agree.
pub(crate) fn ascii_boundaries(pattern: &str) -> String {
    pattern.replace(r"\b", r"(?-u:\b)")
}

/// Where a rule matched a draft.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DraftHit {
    /// The matched text itself.
    pub matched: String,
    /// The clause around it, cut from the draft: what evidence cites.
    pub clause: String,
}

/// A rule that fired: the draft clause, and the memory line that forbids it.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleHit {
    pub rule: &'static str,
    pub memory_file: String,
    pub memory_excerpt: String,
    pub draft_match: String,
    pub why: String,
}

/// Every place in `draft` where `rule` (an index into [`RULES`]) sees its action, skipping
/// negated clauses. One hit per clause.
pub fn draft_hits(rule: usize, draft: &str) -> Vec<DraftHit> {
    let c = compiled();
    let mut hits: Vec<DraftHit> = Vec::new();
    for re in &c.draft[rule] {
        for m in re.find_iter(draft) {
            let (start, end) = clause_bounds(draft, m.start(), m.end());
            let before = c.no_flag.replace_all(&draft[start..m.start()], " ");
            if c.negation.is_match(&before) {
                continue;
            }
            let clause = quote(draft, start, end, m.start(), m.end());
            if !hits.iter().any(|h| h.clause == clause) {
                hits.push(DraftHit { matched: m.as_str().trim().to_owned(), clause });
            }
        }
    }
    hits
}

/// The line of `memory` that makes it `rule`'s memory, if it is one.
pub fn memory_line(rule: usize, memory: &MemoryFile) -> Option<String> {
    let r = &RULES[rule];
    if !r.kinds.contains(&memory.kind) {
        return None;
    }
    let c = compiled();
    let topical = |line: &str| c.topic[rule].iter().any(|t| t.is_match(line));
    let forbids = |line: &str| c.prohibition.is_match(&c.no_flag.replace_all(line, " "));
    // Body lines first (what the memory says), then front matter (`description:`).
    let mut body = Vec::new();
    let mut front = Vec::new();
    let mut offset = 0;
    let mut in_front_matter = memory.text.starts_with("---");
    for (n, line) in memory.text.split_inclusive('\n').enumerate() {
        let start = offset;
        offset += line.len();
        let trimmed = line.trim();
        if n > 0 && in_front_matter && trimmed == "---" {
            in_front_matter = false;
            continue;
        }
        if trimmed.is_empty() || trimmed == "---" {
            continue;
        }
        if in_front_matter {
            front.push((start, line))
        } else {
            body.push((start, line))
        }
    }
    let first_body_line = body.first().copied();
    for &(start, line) in body.iter().chain(&front) {
        if topical(line) && (!r.needs_prohibition || forbids(line)) {
            return Some(trim_quote(&memory.text, start, start + line.len()));
        }
    }
    let named = r.file_names.iter().any(|f| memory.name.to_ascii_lowercase().contains(f));
    if named {
        // The file's name says what it is; its first body line is what it says.
        return first_body_line.map(|(start, line)| trim_quote(&memory.text, start, start + line.len()));
    }
    None
}

/// Every rule that fires for `draft` against the memories in `files`.
pub fn evaluate(files: &[MemoryFile], draft: &str) -> Vec<RuleHit> {
    let mut out = Vec::new();
    for (i, rule) in RULES.iter().enumerate() {
        let draft_hits = draft_hits(i, draft);
        if draft_hits.is_empty() {
            continue;
        }
        for memory in files {
            let Some(excerpt) = memory_line(i, memory) else { continue };
            for hit in &draft_hits {
                out.push(RuleHit {
                    rule: rule.id,
                    memory_file: memory.name.clone(),
                    memory_excerpt: excerpt.clone(),
                    draft_match: hit.clause.clone(),
                    why: format!(
                        "the draft {} ({:?}) and {} forbids it",
                        rule.action,
                        shorten(&hit.matched),
                        memory.name
                    ),
                });
            }
        }
    }
    out
}

/// Start and end of the clause around `[m_start, m_end)`: from the previous sentence or
/// clause break (`.`, `;`, `!`, `?`, `,`, line break) to the next one.
fn clause_bounds(text: &str, m_start: usize, m_end: usize) -> (usize, usize) {
    let is_break = |c: char| matches!(c, '.' | ';' | '!' | '?' | ',' | '\n' | '¡' | '¿');
    // A `.` inside a word (`pytest.mark.skip`, `e.g.`) is not a break: only one followed by
    // whitespace or the end is.
    let bytes = text.as_bytes();
    let breaks_at =
        |i: usize, c: char| is_break(c) && (c != '.' || bytes.get(i + 1).is_none_or(|b| b.is_ascii_whitespace()));
    let start =
        text[..m_start].char_indices().rev().find(|&(i, c)| breaks_at(i, c)).map_or(0, |(i, c)| i + c.len_utf8());
    let end =
        text[m_end..].char_indices().find(|&(i, c)| breaks_at(m_end + i, c)).map_or(text.len(), |(i, _)| m_end + i);
    (start, end)
}

/// `text[start..end]` trimmed, at most [`MAX_QUOTE`] bytes, kept around the match: always a
/// substring of `text`.
fn quote(text: &str, start: usize, end: usize, m_start: usize, m_end: usize) -> String {
    let (mut s, mut e) = (start, end);
    if e - s > MAX_QUOTE {
        let room = MAX_QUOTE.saturating_sub(m_end - m_start) / 2;
        s = floor_char(text, m_start.saturating_sub(room).max(start));
        e = ceil_char(text, (m_end + room).min(end));
        if e - s > MAX_QUOTE {
            e = floor_char(text, s + MAX_QUOTE).max(m_end.min(end));
        }
    }
    text[s..e].trim().to_owned()
}

fn trim_quote(text: &str, start: usize, end: usize) -> String {
    let line = text[start..end].trim();
    if line.len() <= MAX_QUOTE {
        return line.to_owned();
    }
    line[..floor_char(line, MAX_QUOTE)].trim_end().to_owned()
}

fn floor_char(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_char(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

fn shorten(s: &str) -> String {
    if s.chars().count() <= 60 {
        s.to_owned()
    } else {
        format!("{}…", s.chars().take(60).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_compiles() {
        let c = compiled();
        assert_eq!(c.draft.len(), RULES.len());
    }

    #[test]
    fn clauses_stop_at_breaks_but_not_inside_words() {
        let text = "First, add @pytest.mark.skip to it. Then push";
        let m = text.find("@pytest").unwrap();
        let (s, e) = clause_bounds(text, m, m + "@pytest.mark.skip".len());
        assert_eq!(&text[s..e], " add @pytest.mark.skip to it");
    }

    #[test]
    fn long_clauses_are_cut_around_the_match_verbatim() {
        let text = format!("{} git commit --no-verify {}", "é".repeat(400), "ü".repeat(400));
        let hits = draft_hits(0, &text);
        assert_eq!(hits.len(), 1);
        assert!(hits[0].clause.len() <= MAX_QUOTE + 4, "{}", hits[0].clause.len());
        assert!(hits[0].clause.contains("--no-verify"));
        assert!(text.contains(&hits[0].clause));
    }
}
