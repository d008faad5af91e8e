//! One reconciliation, in one process (docs/contracts.md §6): manifest, decisions and their references,
//! stale entries, code-path and documentation staleness through git, missing files, new
//! knowledge candidates, and contradictions (proven ones, plus candidate pairs for the pair
//! judge). [`reconcile`] builds the [`Report`]; [`crate::judging`] adds the judge's answers
//! when a model is configured; the caller renders and writes it.
//!
//! How new knowledge candidates are found (both provable, no model): a `DEC-…` id referenced
//! somewhere but recorded nowhere (one candidate per id, every reference listed), and a
//! Markdown file inside a GAAI memory folder that `index.md` does not register.
//!
//! It never modifies, moves or deletes a memory, a decision or a doc: every file is opened
//! for reading only, git is only asked (`log`, `rev-list`), never told. The only write is the
//! embed method's cache of embeddings, in the store its [`Method`] names.
//!
//! How the rest is decided. Every `DEC-…` reference of every scanned file is classified ACTIVE,
//! SUPERSEDED or MISSING (a decision's own heading is a definition, not a reference). SUPERSEDED
//! references made *by decision records* ("Supersedes DEC-3") are classified and counted but are
//! not findings, and decision records are not checked for staleness: they cite later decisions by
//! nature. A stale entry is a file whose `updated_at` is older than a DEC it cites (one row per
//! DEC, the delta in days). Code paths: `git rev-list --count --since` per `depends_on.code_paths`
//! entry of a memory file; docs: their `depends_on`, else proximity (a README's own folder, else
//! the nearest `src/`, `lib/`, `api/` from the doc's folder up), the doc's own commits excluded.
//!
//! Git is asked through `memval_git::Activity`; paths from memory files go in as `:(literal)`
//! pathspecs after `--`, absolute or climbing paths refused. Without git (or outside a
//! repository, or before the first commit) both git sections say they were skipped and why; a
//! failing git command is listed under "Not checked" with git's message, never read as "no
//! commits".

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::candidates::{embed_note, resolve_cap, Cap, Method, Pairer};
use crate::contradictions::{self, Text};
use crate::decisions::{self, Decision};
use crate::pairs::{self, normalised_ids, Options};
use crate::records;
use crate::report::*;
use crate::scan::{self, Content, Origin};
use crate::ReconcileError;
use memval_git::Activity;

/// What a reconciliation is given.
#[derive(Debug, Clone)]
pub struct Inputs {
    pub repo: PathBuf,
    pub memories: Vec<PathBuf>,
    /// Unix seconds: "today" for the report date and the days-stale counts.
    pub now: i64,
    pub pair_cap: Cap,
    /// Memories per agent for candidate pairs; 0 for all.
    pub per_agent: usize,
    /// How candidate pairs are proposed: keyword, embed or both, as `memval pairs --method`.
    pub method: Method,
}

/// Where the report goes by default: `contexts/artefacts/reconciliation-reports/` beside a
/// GAAI `contexts/` folder, else `REPO/.memval/reconciliation-reports/`.
pub fn default_out_dir(repo: &Path, gaai_dirs: &[PathBuf]) -> PathBuf {
    match gaai_dirs.first().and_then(|m| m.parent()) {
        Some(contexts) if contexts.file_name().is_some_and(|n| n == "contexts") => {
            contexts.join("artefacts").join("reconciliation-reports")
        }
        _ => repo.join(".memval").join("reconciliation-reports"),
    }
}

fn day(ts: i64) -> String {
    chrono::DateTime::from_timestamp(ts, 0).map(|t| t.format("%Y-%m-%d").to_string()).unwrap_or_default()
}

fn days_between(from: i64, to: i64) -> i64 {
    (to - from).div_euclid(86_400)
}

struct Recorded {
    decision: Decision,
    at: String,
    updated: Option<i64>,
}

/// Builds the report (contradiction candidates unjudged) and returns it with the output
/// folder it would go to by default.
pub fn reconcile(inputs: &Inputs) -> Result<(Report, PathBuf), ReconcileError> {
    let repo = inputs.repo.canonicalize().map_err(|e| ReconcileError::Input {
        path: inputs.repo.clone(),
        reason: format!("not a readable folder: {e}"),
    })?;
    // A missing embed model is an error before the scan, not after it.
    let pairer = Pairer::new(&inputs.method)?;
    let mut manifest = scan::manifest(&repo, &inputs.memories)?;
    // Why git cannot answer is reported in the staleness sections, never read as "no commits".
    let git = Activity::open(&repo).map_err(|e| e.to_string());
    if let Ok(g) = &git {
        scan::git_dates(&mut manifest, &repo, g);
    }
    let entries = &manifest.entries;

    // Decisions, in both shapes.
    let mut recorded: HashMap<String, Recorded> = HashMap::new();
    let mut own_ids: HashMap<usize, Vec<(u32, String)>> = HashMap::new();
    for (k, e) in entries.iter().enumerate() {
        let (Content::Text(text), Some(file)) = (&e.content, &e.file) else { continue };
        let stem = file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let in_decisions = records::in_decision_folder(file.strip_prefix(&repo).unwrap_or(file))
            || e.category.as_deref() == Some("decisions");
        let found: Vec<Decision> = match decisions::from_file(&stem, text) {
            Some(d) => vec![d],
            None if in_decisions => decisions::from_log(text),
            None => Vec::new(),
        };
        for d in found {
            let whole_file = d.line == 1 && stem.starts_with(&d.id);
            if whole_file {
                // A decision's own file mentions its id as a title, not as a reference.
                for (i, line) in text.lines().enumerate() {
                    if decisions::ids_in(line).contains(&d.id) {
                        own_ids.entry(k).or_default().push(((i + 1) as u32, d.id.clone()));
                    }
                }
            } else {
                own_ids.entry(k).or_default().push((d.line, d.id.clone()));
            }
            let updated = d.date.as_deref().and_then(scan::parse_date).or(e.updated_at);
            let at = format!("{}:{}", e.path, d.line);
            recorded.entry(d.id.clone()).or_insert(Recorded { decision: d, at, updated });
        }
    }

    // Every reference, classified.
    let mut refs: Vec<DecReference> = Vec::new();
    let mut stale = Vec::new();
    for (k, e) in entries.iter().enumerate() {
        let Content::Text(text) = &e.content else { continue };
        let defining = own_ids.get(&k).cloned().unwrap_or_default();
        // A decision record cites later decisions by nature (superseded by …).
        let is_decision = !defining.is_empty() || e.category.as_deref() == Some("decisions");
        let mut newest: BTreeMap<String, i64> = BTreeMap::new();
        for r in decisions::references(text, &defining) {
            let (status, marker, marker_text, decision) = match recorded.get(&r.id) {
                None => (DecStatus::Missing, None, None, None),
                Some(rec) => {
                    if let Some(t) = rec.updated {
                        newest.insert(r.id.clone(), t);
                    }
                    match &rec.decision.marker {
                        Some((m, line)) => {
                            (DecStatus::Superseded, Some(m.clone()), Some(line.clone()), Some(rec.at.clone()))
                        }
                        None => (DecStatus::Active, None, None, Some(rec.at.clone())),
                    }
                }
            };
            refs.push(DecReference {
                file: e.path.clone(),
                line: r.line,
                dec: r.id,
                status,
                marker,
                marker_text,
                decision,
                from_decision: is_decision,
            });
        }
        if let (Some(updated), false) = (e.updated_at, is_decision) {
            for (dec, t) in newest {
                if t > updated {
                    stale.push(StaleEntry {
                        file: e.path.clone(),
                        dec,
                        file_updated_at: day(updated),
                        dec_updated_at: day(t),
                        delta_days: days_between(updated, t),
                    });
                }
            }
        }
    }

    // New knowledge: decisions referenced but recorded nowhere; unregistered memory files.
    let mut missing_decs: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for r in refs.iter().filter(|r| r.status == DecStatus::Missing) {
        let list = missing_decs.entry(r.dec.clone()).or_default();
        let at = format!("{}:{}", r.file, r.line);
        // The same id twice on a line is one place to look.
        if list.last() != Some(&at) {
            list.push(at);
        }
    }
    let mut new_knowledge: Vec<NewKnowledge> = missing_decs
        .into_iter()
        .map(|(dec, sources)| NewKnowledge {
            description: format!("{dec} is referenced but no decision record holds it"),
            category: "decisions".into(),
            sources,
        })
        .collect();
    for path in &manifest.unregistered {
        let category = Path::new(path)
            .parent()
            .and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned())
            .filter(|n| n != "memory")
            .unwrap_or_else(|| "memory".into());
        new_knowledge.push(NewKnowledge {
            description: "memory file not registered in index.md".into(),
            category,
            sources: vec![path.clone()],
        });
    }

    let missing_files: Vec<MissingFile> = entries
        .iter()
        .filter_map(|e| match &e.content {
            Content::Missing => Some(MissingFile {
                path: e.path.clone(),
                class: "MISSING_FILE".into(),
                reason: "not on disk".into(),
                index_line: e.index_line,
            }),
            Content::Unreadable(why) => Some(MissingFile {
                path: e.path.clone(),
                class: "UNREADABLE".into(),
                reason: why.clone(),
                index_line: e.index_line,
            }),
            Content::Text(_) => None,
        })
        .collect();

    let (code_paths, docs) = staleness(&repo, &manifest, git.as_ref(), inputs.now);
    let contradictions = candidates(&repo, inputs, &pairer)?;

    let read = |o: Origin| entries.iter().filter(|e| e.origin == o && matches!(e.content, Content::Text(_))).count();
    let (memory_files, doc_files) = (read(Origin::Memory), read(Origin::Documentation));
    let mut report = Report {
        front: FrontMatter {
            skill: SKILL.into(),
            generated_at: day(inputs.now),
            scan_manifest_source: manifest.source.clone(),
            files_scanned: memory_files + doc_files,
            memory_files_scanned: memory_files,
            doc_files_scanned: doc_files,
            findings_count: 0,
            code_path_findings_count: 0,
            doc_staleness_findings_count: 0,
        },
        stale_entries: stale,
        dec_references: refs,
        decisions_recorded: recorded.len(),
        contradictions,
        new_knowledge,
        missing_files,
        code_paths,
        docs,
        not_loaded: manifest.load_problems.clone(),
        manifest: entries
            .iter()
            .map(|e| ManifestEntry {
                path: e.path.clone(),
                origin: e.origin,
                category: e.category.clone(),
                updated_at: e.updated_at.map(day),
                updated_from: e.updated_from.map(str::to_owned),
                read: matches!(e.content, Content::Text(_)),
            })
            .collect(),
        report_path: None,
    };
    report.count();
    Ok((report, default_out_dir(&repo, &manifest.gaai_dirs)))
}

/// A path relative to the repo as git wants it (relative to the top of the work tree).
fn in_git(repo: &Path, git: &Activity, rel: &str) -> String {
    match repo.strip_prefix(git.top()) {
        Ok(sub) if !sub.as_os_str().is_empty() => sub.join(rel.trim_start_matches("./")).to_string_lossy().into_owned(),
        _ => rel.to_owned(),
    }
}

/// The folder a doc is checked against by proximity: a README's own folder; for a doc, the
/// nearest `src/`, `lib/` or `api/` from its folder up to the repo root.
fn proximity(repo: &Path, doc: &Path, readme: bool) -> Option<String> {
    let rel = doc.strip_prefix(repo).ok()?;
    let mut dir = rel.parent()?.to_path_buf();
    if readme {
        return Some(if dir.as_os_str().is_empty() { ".".into() } else { dir.to_string_lossy().into_owned() });
    }
    loop {
        for name in ["src", "lib", "api"] {
            if repo.join(&dir).join(name).is_dir() {
                return Some(dir.join(name).to_string_lossy().into_owned());
            }
        }
        if !dir.pop() {
            return None;
        }
    }
}

fn staleness(
    repo: &Path,
    manifest: &scan::Manifest,
    git: Result<&Activity, &String>,
    now: i64,
) -> (GitSection<CodePathFinding>, GitSection<DocFinding>) {
    let mut code = GitSection::default();
    let mut docs = GitSection::default();
    let git = match git {
        Ok(g) => g,
        Err(why) => {
            code.skipped = Some(why.clone());
            docs.skipped = Some(why.clone());
            return (code, docs);
        }
    };
    for e in &manifest.entries {
        let Content::Text(_) = e.content else { continue };
        let no_date = |what: &str| NotChecked {
            file: e.path.clone(),
            what: what.to_owned(),
            reason: match &e.date_problem {
                Some(problem) => format!("the file has no updated_at: {problem}"),
                None => "the file has no updated_at (no front matter date, registry date or commit)".into(),
            },
        };
        match e.origin {
            Origin::Memory => {
                for p in &e.code_paths {
                    let Some(updated) = e.updated_at else {
                        code.not_checked.push(no_date(p));
                        continue;
                    };
                    let counted = git.commits_since(&in_git(repo, git, p), updated, None);
                    code.checked += usize::from(counted.is_ok());
                    match counted {
                        Ok(0) => {}
                        Ok(n) => code.findings.push(CodePathFinding {
                            file: e.path.clone(),
                            code_path: p.clone(),
                            commits: n,
                            days_stale: days_between(updated, now),
                        }),
                        Err(err) => code.not_checked.push(NotChecked {
                            file: e.path.clone(),
                            what: p.clone(),
                            reason: err.to_string(),
                        }),
                    }
                }
            }
            Origin::Documentation => {
                let Some(file) = &e.file else { continue };
                let readme = file.file_name().is_some_and(|n| n == "README.md");
                let (source, refs): (&str, Vec<String>) = if e.code_paths.is_empty() {
                    match proximity(repo, file, readme) {
                        Some(dir) => ("proximity", vec![dir]),
                        None => {
                            docs.not_checked.push(NotChecked {
                                file: e.path.clone(),
                                what: "proximity".into(),
                                reason: "no depends_on and no src/, lib/ or api/ folder near it".into(),
                            });
                            continue;
                        }
                    }
                } else {
                    ("depends_on", e.code_paths.clone())
                };
                for r in refs {
                    let Some(updated) = e.updated_at else {
                        docs.not_checked.push(no_date(&r));
                        continue;
                    };
                    // The doc's own commit is not a change of the code near it.
                    let own = file.strip_prefix(repo).ok().map(|p| in_git(repo, git, &p.to_string_lossy()));
                    let counted = git.commits_since(&in_git(repo, git, &r), updated, own.as_deref());
                    docs.checked += usize::from(counted.is_ok());
                    match counted {
                        Ok(0) => {}
                        Ok(n) => docs.findings.push(DocFinding {
                            file: e.path.clone(),
                            source: source.into(),
                            reference: r,
                            commits: n,
                            days_stale: days_between(updated, now),
                        }),
                        Err(err) => {
                            docs.not_checked.push(NotChecked { file: e.path.clone(), what: r, reason: err.to_string() })
                        }
                    }
                }
            }
        }
    }
    (code, docs)
}

/// Contradictions without a language model: proven ones, and the candidates for the judge (by
/// `pairer`'s method, the same pairs `memval pairs` proposes).
fn candidates(repo: &Path, inputs: &Inputs, pairer: &Pairer) -> Result<Contradictions, ReconcileError> {
    let mut memories = Vec::new();
    let mut config_cap = None;
    let mut resolved = HashSet::new();
    for path in &inputs.memories {
        let loaded = memval_sources::load(path, repo)?;
        if loaded.format == memval_sources::Format::Sqlite {
            config_cap = memval_sources::sqlite_config(path)?.reconcile_pair_cap;
            resolved.extend(memval_sources::reconcile_log(path)?.iter().map(|r| normalised_ids(&r.id_a, &r.id_b)));
        }
        memories.extend(loaded.memories);
    }
    // Ids key pairs: unique across every memories path.
    memval_proto::make_ids_unique(&mut memories);
    let texts: Vec<Text<'_>> = memories
        .iter()
        .map(|m| Text { id: &m.id, agent: &m.agent, source: m.source.to_string(), content: &m.content })
        .collect();
    let proven = contradictions::prove(&texts);
    let (cap, cap_note) = resolve_cap(inputs.pair_cap, config_cap);
    let options = Options { cap, per_agent: (inputs.per_agent > 0).then_some(inputs.per_agent), resolved };
    let (found, embedded) = pairer.pairs(&memories, &options, &mut |_| {})?;
    let mut notes: Vec<String> = pairs::summary(&found).lines().map(str::to_owned).collect();
    notes.push(cap_note);
    notes.extend(embedded.as_ref().map(embed_note));
    Ok(Contradictions {
        proven,
        candidates: found
            .pairs
            .into_iter()
            .map(|pair| CandidatePair {
                pair,
                judgement: None,
                not_judged: Some("not judged: no model configured".into()),
            })
            .collect(),
        judged_by: None,
        candidate_notes: notes,
        judge_notes: Vec::new(),
        memories: memories.len(),
        agents: pairs::agents_of(&memories),
    })
}

/// What `memval reconcile --fail-on` can name: a kind of finding that fails the run (exit 1),
/// or never.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailOn {
    Never,
    Any,
    Stale,
    Superseded,
    Contradictions,
    NewKnowledge,
    Missing,
    CodePath,
    Docs,
}

impl FailOn {
    /// Every value, in the order `--help` lists them.
    pub const ALL: [FailOn; 9] = [
        FailOn::Never,
        FailOn::Any,
        FailOn::Stale,
        FailOn::Superseded,
        FailOn::Contradictions,
        FailOn::NewKnowledge,
        FailOn::Missing,
        FailOn::CodePath,
        FailOn::Docs,
    ];

    /// The name a user gives (`--fail-on new-knowledge`).
    pub fn name(self) -> &'static str {
        match self {
            FailOn::Never => "never",
            FailOn::Any => "any",
            FailOn::Stale => "stale",
            FailOn::Superseded => "superseded",
            FailOn::Contradictions => "contradictions",
            FailOn::NewKnowledge => "new-knowledge",
            FailOn::Missing => "missing",
            FailOn::CodePath => "code-path",
            FailOn::Docs => "docs",
        }
    }
}

impl std::fmt::Display for FailOn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A `--fail-on` value that is none of [`FailOn::ALL`]'s names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown --fail-on value {0:?}")]
pub struct UnknownFailOn(pub String);

impl std::str::FromStr for FailOn {
    type Err = UnknownFailOn;

    /// A name exactly as [`FailOn::name`] gives it.
    fn from_str(s: &str) -> Result<FailOn, UnknownFailOn> {
        FailOn::ALL.into_iter().find(|v| v.name() == s).ok_or_else(|| UnknownFailOn(s.to_owned()))
    }
}

/// Whether `report` has a finding of a kind in `fail_on` ([`FailOn::Never`] names none).
pub fn fails(report: &Report, fail_on: &[FailOn]) -> bool {
    fail_on.iter().any(|f| match f {
        FailOn::Never => false,
        FailOn::Any => report.front.findings_count > 0,
        FailOn::Stale => !report.stale_entries.is_empty(),
        FailOn::Superseded => report.superseded().next().is_some(),
        FailOn::Contradictions => {
            !report.contradictions.proven.is_empty() || report.contradictions.judged_contradictory().next().is_some()
        }
        FailOn::NewKnowledge => !report.new_knowledge.is_empty(),
        FailOn::Missing => !report.missing_files.is_empty(),
        FailOn::CodePath => !report.code_paths.findings.is_empty(),
        FailOn::Docs => !report.docs.findings.is_empty(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fail_on_names_parse_and_print_alike() {
        for f in FailOn::ALL {
            assert_eq!(f.name().parse::<FailOn>(), Ok(f));
            assert_eq!(f.to_string(), f.name());
        }
        assert!("new_knowledge".parse::<FailOn>().is_err());
    }
}
