//! Decision records are found wherever the repository keeps them (a GAAI memory's
//! `decisions/` deep in the tree, ADR folders), the docs and READMEs scanned are counted as
//! docs, and nothing outside the repo root or in a vendored folder is read.

use std::path::Path;

use memval_reconciler::report::{to_markdown, DecStatus};
use memval_reconciler::{reconcile, Inputs};

fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn inputs(repo: &Path) -> Inputs {
    Inputs {
        repo: repo.to_path_buf(),
        // The whole repo as a notes folder: here only READMEs and docs, as in a repository
        // whose agents keep no instruction file.
        memories: vec![repo.to_path_buf()],
        now: 1_800_000_000,
        pair_cap: memval_reconciler::candidates::Cap::Default,
        per_agent: 200,
        method: memval_reconciler::candidates::Method::Keyword,
    }
}

const GAAI_DEC: &str = "---\nid: DEC-1\nstatus: superseded\nupdated_at: 2026-01-12\n---\n\n\
# DEC-1: Throttle jobs\n\n> SUPERSEDED by DEC-8\n\nJobs are throttled.\n";

#[test]
fn records_in_nested_gaai_and_adr_folders_resolve_and_docs_are_counted() {
    let tmp = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let repo = tmp.path();
    // A GAAI memory deep in the tree (its index does not matter: records are found by folder).
    write(repo, "examples/memories/gaai/contexts/memory/decisions/DEC-1.md", GAAI_DEC);
    // ADR folders of three shapes: the id in a heading, in the file name, and a log.
    write(repo, "docs/adr/0007-use-sqlite.md", "# DEC-7 — Use SQLite\n\nStatus: Active\n");
    write(repo, "adr/DEC-8.md", "# Cap connections at the gateway\n\nReplaces DEC-1.\n");
    write(
        repo,
        "architecture/decisions/_log.md",
        "# Decisions\n\n### DEC-9 — One config file\n\nStatus: Active\n\n### DEC-10 — Old flag\n\nOBSOLETE: gone.\n",
    );
    // READMEs and a doc that cite them, and one id no record holds.
    write(repo, "README.md", "# Shop\n\nJobs follow DEC-1; storage follows DEC-7.\nSee DEC-42.\n");
    write(repo, "lib/README.md", "# lib\n\nOne config file (DEC-9), the gateway cap (DEC-8), no old flag (DEC-10).\n");
    write(repo, "docs/guide.md", "# Guide\n\nStart the server.\n");
    // Never read: a vendored folder, and a folder link out of the repo.
    write(repo, "node_modules/pkg/contexts/memory/decisions/DEC-42.md", "# DEC-42 vendored\n");
    write(outside.path(), "decisions/DEC-42.md", "# DEC-42 outside\n");
    #[cfg(unix)]
    std::os::unix::fs::symlink(outside.path(), repo.join("linked")).unwrap();

    let (report, _) = reconcile(&inputs(repo)).expect("reconciles");
    let md = to_markdown(&report);

    let status = |dec: &str| {
        let found: Vec<_> = report.dec_references.iter().filter(|r| r.dec == dec && !r.from_decision).collect();
        assert!(!found.is_empty(), "{dec} is referenced: {md}");
        (found[0].status, found[0].decision.clone())
    };
    assert_eq!(
        status("DEC-1"),
        (DecStatus::Superseded, Some("examples/memories/gaai/contexts/memory/decisions/DEC-1.md:1".into()))
    );
    assert_eq!(status("DEC-7"), (DecStatus::Active, Some("docs/adr/0007-use-sqlite.md:1".into())));
    assert_eq!(status("DEC-8"), (DecStatus::Active, Some("adr/DEC-8.md:1".into())));
    assert_eq!(status("DEC-9"), (DecStatus::Active, Some("architecture/decisions/_log.md:3".into())));
    assert_eq!(status("DEC-10").0, DecStatus::Superseded);
    assert_eq!(status("DEC-42").0, DecStatus::Missing);
    assert_eq!(report.decisions_recorded, 5, "DEC-1, 7, 8, 9, 10 and nothing vendored or outside: {md}");

    // Only the id no record holds is new knowledge, cited where it is.
    let new: Vec<(&str, &[String])> =
        report.new_knowledge.iter().map(|k| (k.description.as_str(), k.sources.as_slice())).collect();
    assert_eq!(new, [("DEC-42 is referenced but no decision record holds it", &["README.md:4".to_owned()][..])]);
    assert!(!md.contains("vendored") && !md.contains("outside"), "{md}");

    // Docs: the two READMEs, the guide, and the ADR records outside a GAAI memory; memory: the
    // GAAI record. Section 7 tells the docs it scanned.
    assert_eq!(report.front.doc_files_scanned, 6, "{md}");
    assert_eq!(report.front.memory_files_scanned, 1, "{md}");
    assert_eq!(report.front.files_scanned, 7, "{md}");
    assert!(md.contains("doc_files_scanned: 6\n"), "{md}");
    assert!(!md.contains("No documentation or README file"), "{md}");
}
