//! The memory-conflict judge (docs/contracts.md §7): does a draft recommendation contradict what the user
//! saved in their Claude Code memory folder?
//!
//! How it decides, in order:
//! 1. [`memory`] reads the folder (`MEMORY.md` plus the typed memory files, whole);
//! 2. [`candidates`] picks the memories the draft may touch, greedily, index first;
//! 3. [`rules`] applies the veto rules that need no model (bypassing a safety mechanism,
//!    shortcuts against a root-cause memory, credentials in command arguments) to every
//!    memory, English and Spanish;
//! 4. with a model, [`crate::model::draft`] asks it about the candidates under a contract (verbatim quotes,
//!    one entry per candidate); without one, the output lists the candidates not judged;
//! 5. the findings become one docs/contracts.md §7 [`Judgement`]; [`render`] prints it.
//!
//! Every cited `memory_excerpt` is checked to be a verbatim substring of its memory file and
//! every `draft_match` of the draft before it is output, whoever produced it. No citation, no
//! score: without evidence `score` is null and `veto` false. The veto is computed here from
//! the rules and the contract-checked findings, never taken from a model. Draft and memory
//! text are data: nothing in them is obeyed, and no file outside the folder is read.
//!
//! The judgement: `score` is the lowest finding's (null without one), `confidence` the highest
//! among findings at that score, `veto` true when any finding vetoes. With a model, at most 25
//! candidates go to it (`model::MAX_CANDIDATES`); the rest are listed as not judged, saying so.

pub mod candidates;
mod error;
pub mod memory;
pub mod render;
pub mod rules;
pub mod service;

use std::sync::Arc;

// The draft judge's prompt and contract live with every judge's model code.
use crate::model::draft as model;

use memval_llm::{ChatModel, LlmError};
use serde::Serialize;

pub use error::DraftError;
pub use memory::{read_folder, MemoryFolder};

/// The `judge` field of every judgement.
pub const JUDGE: &str = "memory-conflict";
/// Name the draft judge's model usage is counted under.
pub const STAGE: &str = "draft-judge";
/// Largest draft judged; a larger one is bad input.
pub const MAX_DRAFT_BYTES: usize = 1024 * 1024;

/// The draft as text: non-empty UTF-8 of at most [`MAX_DRAFT_BYTES`].
pub fn draft_text(bytes: Vec<u8>) -> Result<String, DraftError> {
    if bytes.len() > MAX_DRAFT_BYTES {
        return Err(DraftError::Draft(format!("{} bytes, over the {MAX_DRAFT_BYTES}-byte limit", bytes.len())));
    }
    let text = String::from_utf8(bytes).map_err(|_| DraftError::Draft("not UTF-8 text".into()))?;
    if text.trim().is_empty() {
        return Err(DraftError::Draft("empty".into()));
    }
    Ok(text)
}

/// One citation: a memory passage and the draft passage that goes against it, both verbatim.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Evidence {
    pub memory_file: String,
    pub memory_excerpt: String,
    pub draft_match: String,
}

/// A memory no one judged against the draft, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NotJudged {
    pub memory_file: String,
    pub reason: String,
}

/// The docs/contracts.md §7 output, plus what was not judged and notes on the model's answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Judgement {
    pub judge: &'static str,
    /// 0-49 contradiction, 50-99 overlap, 100 none; null without a citation.
    pub score: Option<u8>,
    pub veto: bool,
    pub confidence: f64,
    pub evidence: Vec<Evidence>,
    pub reason: String,
    /// Memories that no rule cited and no model judged (or that could not be read).
    pub not_judged: Vec<NotJudged>,
    /// Notes on the model's answer (entries dropped, files shown cut).
    pub detail: Vec<String>,
}

/// A conflict found by a rule or the model, before it becomes evidence.
#[derive(Debug, Clone, PartialEq)]
struct Finding {
    evidence: Evidence,
    score: u8,
    confidence: f64,
    veto: bool,
    why: String,
}

/// What needs no model: the candidates and the rule hits. Pure and quick, so a service can
/// run it on a blocking thread beside the folder read.
#[derive(Debug, Clone, PartialEq)]
pub struct Prepared {
    pub candidates: Vec<candidates::Candidate>,
    pub hits: Vec<rules::RuleHit>,
}

pub fn prepare(folder: &MemoryFolder, draft: &str) -> Prepared {
    Prepared { candidates: candidates::select(folder, draft), hits: rules::evaluate(&folder.files, draft) }
}

/// The judge: the rules always, a model when one is given.
#[derive(Clone, Default)]
pub struct DraftJudge {
    model: Option<Arc<dyn ChatModel>>,
}

impl DraftJudge {
    pub fn new(model: Option<Arc<dyn ChatModel>>) -> DraftJudge {
        DraftJudge { model }
    }

    pub fn model(&self) -> Option<&Arc<dyn ChatModel>> {
        self.model.as_ref()
    }

    /// Judge `draft` against `folder`.
    pub async fn judge(&self, folder: &MemoryFolder, draft: &str) -> Judgement {
        let prepared = prepare(folder, draft);
        self.finish(folder, draft, prepared).await
    }

    /// The model review (if any) on top of `prepared`, and the judgement.
    pub async fn finish(&self, folder: &MemoryFolder, draft: &str, prepared: Prepared) -> Judgement {
        let mut findings: Vec<Finding> = prepared
            .hits
            .into_iter()
            .map(|h| Finding {
                evidence: Evidence {
                    memory_file: h.memory_file,
                    memory_excerpt: h.memory_excerpt,
                    draft_match: h.draft_match,
                },
                score: rules::RULE_SCORE,
                confidence: rules::RULE_CONFIDENCE,
                veto: true,
                why: format!("rule {}: {}", h.rule, h.why),
            })
            .collect();
        let mut not_judged: Vec<NotJudged> = folder
            .unread
            .iter()
            .map(|u| NotJudged { memory_file: u.memory_file.clone(), reason: format!("not read: {}", u.reason) })
            .collect();
        let mut detail = Vec::new();
        let candidates: Vec<&memory::MemoryFile> = prepared.candidates.iter().map(|c| &folder.files[c.file]).collect();
        let mut judged_by_model = 0;
        match &self.model {
            None => {
                for file in &candidates {
                    if !findings.iter().any(|f| f.evidence.memory_file == file.name) {
                        not_judged.push(NotJudged {
                            memory_file: file.name.clone(),
                            reason:
                                "candidate: no veto rule fired on it, and no model is configured to judge it further"
                                    .into(),
                        });
                    }
                }
            }
            Some(model) => {
                let (sent, over) = candidates.split_at(candidates.len().min(model::MAX_CANDIDATES));
                for file in over {
                    not_judged.push(NotJudged {
                        memory_file: file.name.clone(),
                        reason: format!("candidate beyond the {} a model reviews per draft", model::MAX_CANDIDATES),
                    });
                }
                for file in sent.iter().filter(|f| model::is_cut(f)) {
                    detail.push(format!(
                        "{}: the model saw its first {} bytes only",
                        file.name,
                        model::MAX_PROMPT_FILE_BYTES
                    ));
                }
                let (reviews, notes) = review(model.as_ref(), draft, sent).await;
                detail.extend(notes);
                for (file, review) in sent.iter().zip(reviews) {
                    match review {
                        model::Review::Clear => judged_by_model += 1,
                        model::Review::Conflict { score, confidence, memory_excerpt, draft_match, reason } => {
                            judged_by_model += 1;
                            let veto = model::vetoes(file.kind, score, confidence);
                            let why = if reason.is_empty() {
                                format!("the model finds the draft against {}", file.name)
                            } else {
                                format!("{}: {reason}", file.name)
                            };
                            findings.push(Finding {
                                evidence: Evidence { memory_file: file.name.clone(), memory_excerpt, draft_match },
                                score,
                                confidence,
                                veto,
                                why: format!("model: {why}"),
                            });
                        }
                        model::Review::NotJudged(reason) => {
                            not_judged.push(NotJudged { memory_file: file.name.clone(), reason })
                        }
                    }
                }
            }
        }
        // The invariant, whoever produced the finding: only verbatim citations leave here.
        findings.retain(|f| {
            let ok = folder.file(&f.evidence.memory_file).is_some_and(|m| m.text.contains(&f.evidence.memory_excerpt))
                && draft.contains(&f.evidence.draft_match)
                && !f.evidence.memory_excerpt.is_empty()
                && !f.evidence.draft_match.is_empty();
            if !ok {
                detail.push(format!("a citation of {} was not verbatim and was dropped", f.evidence.memory_file));
            }
            ok
        });
        combine(findings, not_judged, detail, candidates.len(), judged_by_model, self.model.is_some())
    }
}

async fn review(
    model: &dyn ChatModel,
    draft: &str,
    files: &[&memory::MemoryFile],
) -> (Vec<model::Review>, Vec<String>) {
    if files.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let all = |reason: String| {
        (files.iter().map(|_| model::Review::NotJudged(reason.clone())).collect(), vec![reason.clone()])
    };
    match model.chat(STAGE, &model::request(draft, files)).await {
        Ok(answer) => model::enforce(draft, files, &answer.text),
        Err(LlmError::Malformed(reason)) => all(format!("malformed model output ({reason})")),
        Err(LlmError::Budget(reason)) => all(format!("deferred: the llm budget is used up ({reason})")),
        Err(e) => all(format!("the model gave no answer: {e}")),
    }
}

fn combine(
    mut findings: Vec<Finding>,
    not_judged: Vec<NotJudged>,
    detail: Vec<String>,
    candidates: usize,
    judged: usize,
    with_model: bool,
) -> Judgement {
    findings.sort_by(|a, b| {
        a.score.cmp(&b.score).then(b.veto.cmp(&a.veto)).then(a.evidence.memory_file.cmp(&b.evidence.memory_file))
    });
    findings.dedup_by(|a, b| a.evidence == b.evidence);
    let score = findings.first().map(|f| f.score);
    let veto = findings.iter().any(|f| f.veto);
    let confidence = findings.iter().filter(|f| Some(f.score) == score).map(|f| f.confidence).fold(0.0, f64::max);
    let reason = if veto {
        let vetoes: Vec<&Finding> = findings.iter().filter(|f| f.veto).collect();
        let more = if vetoes.len() > 1 { format!(" (and {} more)", vetoes.len() - 1) } else { String::new() };
        format!("veto: {}{more}", vetoes[0].why)
    } else if let Some(first) = findings.first() {
        first.why.clone()
    } else if candidates == 0 {
        "no saved memory touches the draft and no veto rule fired: nothing to cite".to_owned()
    } else if with_model {
        format!("no conflict cited: no veto rule fired, the model found none in {judged} of {}", memories(candidates))
    } else {
        format!("no veto rule fired; {} not judged (no model configured): nothing to cite", memories(candidates))
    };
    let mut evidence = Vec::with_capacity(findings.len());
    for f in findings {
        evidence.push(f.evidence);
    }
    Judgement { judge: JUDGE, score, veto, confidence, evidence, reason, not_judged, detail }
}

fn memories(n: usize) -> String {
    if n == 1 {
        "1 candidate memory".to_owned()
    } else {
        format!("{n} candidate memories")
    }
}

/// The judgement's exit code for a command line: 1 on a veto, else 0.
pub fn exit_code(j: &Judgement) -> u8 {
    u8::from(j.veto)
}
