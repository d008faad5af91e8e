//! Every section of the reconciliation report that found nothing says why, and what input or
//! flag would change it (`memval_reconciler::empty`): no decision record, no reference, one
//! agent's memories, no pair, no declared code path, no doc.

use memval_reconciler::report::{
    to_markdown, Contradictions, DecReference, DecStatus, FrontMatter, GitSection, Report, SKILL,
};

/// A report of `files` memory files and `docs` docs with no finding at all.
fn nothing_found(files: usize, docs: usize) -> Report {
    Report {
        front: FrontMatter {
            skill: SKILL.into(),
            generated_at: "2026-12-02".into(),
            scan_manifest_source: ". (notes)".into(),
            files_scanned: files + docs,
            memory_files_scanned: files,
            doc_files_scanned: docs,
            findings_count: 0,
            code_path_findings_count: 0,
            doc_staleness_findings_count: 0,
        },
        stale_entries: Vec::new(),
        dec_references: Vec::new(),
        decisions_recorded: 0,
        contradictions: Contradictions::default(),
        new_knowledge: Vec::new(),
        missing_files: Vec::new(),
        code_paths: GitSection::default(),
        docs: GitSection::default(),
        not_loaded: Vec::new(),
        manifest: Vec::new(),
        report_path: None,
    }
}

fn section<'a>(md: &'a str, title: &str) -> &'a str {
    let start = md.find(&format!("## {title}")).unwrap();
    let rest = &md[start..];
    rest[3..].find("\n## ").map_or(rest, |i| &rest[..i + 3])
}

#[test]
fn no_decision_record_says_where_they_are_looked_for() {
    let md = to_markdown(&nothing_found(3, 0));
    let s1 = section(&md, "1. Stale Entries");
    assert!(s1.contains("No decision record was found, so no file can be older than one"), "{s1}");
    assert!(s1.contains("`docs/adr/`") && s1.contains("--repo") && s1.contains("--memories"), "{s1}");
    let s2 = section(&md, "2. Superseded References");
    assert!(s2.contains("No `DEC-…` reference in the 3 file(s) scanned"), "{s2}");
    assert!(s2.contains("No decision record was found either"), "{s2}");
}

#[test]
fn recorded_but_uncited_decisions_are_told_apart_from_none() {
    let mut r = nothing_found(3, 0);
    r.decisions_recorded = 2;
    let md = to_markdown(&r);
    assert!(section(&md, "1. Stale Entries")
        .contains("2 decision(s) recorded, but no file other than a decision record references one"));
    assert!(section(&md, "2. Superseded References").contains("2 decision(s) are recorded, and nothing cites them"));
    r.dec_references.push(DecReference {
        file: "README.md".into(),
        line: 3,
        dec: "DEC-1".into(),
        status: DecStatus::Active,
        marker: None,
        marker_text: None,
        decision: Some("adr/DEC-1.md:1".into()),
        from_decision: false,
    });
    let md = to_markdown(&r);
    assert!(section(&md, "1. Stale Entries").contains("(1 reference(s) to 2 recorded decision(s) checked)"));
    assert!(!section(&md, "2. Superseded References").contains("No `DEC-…` reference"));
}

#[test]
fn one_agent_no_model_and_no_pair_say_why() {
    let mut r = nothing_found(2, 0);
    r.contradictions.memories = 2;
    r.contradictions.agents = vec!["docs".into()];
    let md = to_markdown(&r);
    let s3 = section(&md, "3. Contradictions");
    assert!(s3.contains("Proven without a model: none: all 2 memories belong to one agent (docs)"), "{s3}");
    assert!(s3.contains("pass another agent's memories as well (another --memories"), "{s3}");
    assert!(s3.contains("Candidate pairs: none (all memories belong to one agent (docs)"), "{s3}");
    // No pair to judge: no claim that a model is missing.
    assert!(!s3.contains("no model configured"), "{s3}");

    r.contradictions.agents = vec!["agents".into(), "claude-code".into()];
    let s3 = to_markdown(&r);
    let s3 = section(&s3, "3. Contradictions");
    assert!(s3.contains("none: no configuration key has two values"), "{s3}");
    assert!(
        s3.contains("Candidate pairs: none (no pair of two agents' memories reached the method's threshold"),
        "{s3}"
    );

    r.contradictions.agents.clear();
    r.contradictions.memories = 0;
    let md = to_markdown(&r);
    assert!(section(&md, "3. Contradictions").contains("none: no memory was read from --memories"));
}

#[test]
fn no_code_path_and_no_doc_say_there_was_nothing_to_check() {
    let md = to_markdown(&nothing_found(2, 0));
    let s6 = section(&md, "6. Code-Path Staleness");
    assert!(s6.contains("No memory file declares `depends_on.code_paths` in its front matter"), "{s6}");
    let s7 = section(&md, "7. Documentation & README Staleness");
    assert!(s7.contains("No documentation or README file was scanned: none under --repo matches"), "{s7}");

    let mut r = nothing_found(2, 4);
    r.code_paths.checked = 3;
    r.docs.checked = 4;
    let md = to_markdown(&r);
    assert!(section(&md, "6. Code-Path Staleness").contains("changed since its file's updated_at (3 checked)"));
    let s7 = section(&md, "7. Documentation & README Staleness");
    assert!(
        s7.contains("No documentation file is older than the code near it (4 doc(s) scanned, 4 check(s) made)"),
        "{s7}"
    );
}
