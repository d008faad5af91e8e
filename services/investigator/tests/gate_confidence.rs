//! Severity a user can gate on: a verdict reaches the confidence a CI gate acts on (80) only
//! on evidence that was right on real repositories. A path written as a bare name that history
//! shows deleted, and a name no file defines whose last definition a commit removed without a
//! rename found, stay findings below it; a path written with its folder keeps its confidence.
//!
//! Real git; each case says what the memory claims and the confidence memval may give.

mod common;

use common::{commit_on_day as commit, new_repo, write, DAY, START};
use memval_investigator::Evidence;
use memval_proto::{Claim, ClaimType, CodeRef, MemoryMeta, Outcome, Source, Verdict};

/// A memory kept outside the repository, written on day 1 (after the first commit).
fn memory() -> MemoryMeta {
    MemoryMeta {
        id: "m".into(),
        agent: "agent".into(),
        tier: 0,
        kind: "notes".into(),
        created_at: None,
        updated_at: Some(START + DAY),
        source: Source { path: "elsewhere/NOTES.md".into(), line: None, row: None, format: "notes".into() },
        first_line: 1,
    }
}

fn file(path: &str, written: Option<&str>, alts: &[&str]) -> Claim {
    Claim {
        claim_type: ClaimType::FileReference,
        claim_text: "claim".into(),
        line: 1,
        lines: vec![1],
        code_refs: vec![CodeRef {
            written: written.map(str::to_owned),
            alt_paths: alts.iter().map(|a| (*a).to_owned()).collect(),
            ..CodeRef::path(path)
        }],
        assertion: None,
    }
}

fn symbol(name: &str) -> Claim {
    Claim {
        claim_type: ClaimType::SymbolReference,
        claim_text: "claim".into(),
        line: 1,
        lines: vec![1],
        code_refs: vec![CodeRef { symbol: Some(name.into()), ..CodeRef::path(".") }],
        assertion: None,
    }
}

#[test]
fn only_evidence_that_holds_up_reaches_the_gate() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, "docs/guide/build.config.js", "module.exports = {};\n");
        write(r, "docs/guide/README.md", "guide\n");
        write(r, "src/server/routes.ts", "export const routes = [];\n");
        write(r, "Makefile", "all:\n\techo all\n");
        write(r, "src/engine.rs", "pub fn warm_up() -> u32 {\n    1\n}\n\npub fn spin() -> u32 {\n    2\n}\n");
    });
    commit(root, 2, |r| {
        std::fs::remove_file(r.join("docs/guide/build.config.js")).unwrap();
        std::fs::remove_file(r.join("src/server/routes.ts")).unwrap();
        std::fs::remove_file(r.join("Makefile")).unwrap();
        write(r, "src/engine.rs", "pub fn spin() -> u32 {\n    2\n}\n");
    });

    let evidence = Evidence::open(root).unwrap();
    let checker = evidence.checker();
    let memory = memory();
    // (case, claim, the confidence's bounds)
    let cases: [(&str, Claim, std::ops::RangeInclusive<u8>); 4] = [
        (
            "a bare name read in the doc's folder, deleted there",
            file("docs/guide/build.config.js", Some("build.config.js"), &["build.config.js"]),
            0..=79,
        ),
        ("a bare name at the root, deleted", file("Makefile", None, &[]), 0..=79),
        ("a path written with its folders, deleted", file("src/server/routes.ts", None, &[]), 80..=100),
        ("a name whose last definition a commit removed", symbol("warm_up"), 0..=79),
    ];
    for (name, claim, bounds) in cases {
        match checker.check(&claim, &memory) {
            Outcome::Checked { verdict: Verdict::Contradicted, confidence, evidence, .. } => {
                assert!(
                    bounds.contains(&confidence),
                    "{name}: confidence {confidence} outside {bounds:?} ({evidence})"
                );
            }
            other => panic!("{name}: wanted CONTRADICTED, got {other:?}"),
        }
    }
}
