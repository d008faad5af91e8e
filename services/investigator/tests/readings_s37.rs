//! Readings found in session 37, with history: a notes file deep in a crate
//! (`crates/x/src/adapters/z/CLAUDE.md`) names `benches/README.md` the way the crate has it. The
//! root had a `benches/README.md` long before the notes were written, and history renamed it
//! away and deleted it; what the notes name is the crate's own `crates/x/benches/README.md`,
//! not the root's old file, even where another crate has one too. A bare name
//! (`application.properties`) whose one file of the day, deep in an example, moved to another
//! folder under the same name is still named by it: VALID, not STALE; a root file named bare that
//! moved into a folder (`ADVANCED.md` → `docs/ADVANCED.md`) stays STALE.

mod common;

use memval_investigator::Evidence;
use memval_proto::{Claim, ClaimType, CodeRef, Outcome, Verdict};

fn file_read_from(path: &str, written: &str) -> Claim {
    Claim {
        claim_type: ClaimType::FileReference,
        claim_text: format!("`{written}` exists"),
        line: 1,
        lines: vec![1],
        code_refs: vec![CodeRef { alt_paths: vec![written.into()], ..CodeRef::path(path) }],
        assertion: None,
    }
}

#[test]
fn a_crate_notes_path_is_the_crates_not_the_roots_old_one() {
    let (_guard, root) = common::new_repo();
    common::commit_on_day(&root, 0, |r| {
        common::write(r, "benches/README.md", "# benches\n");
        common::write(r, "Cargo.toml", "[workspace]\n");
    });
    common::commit_on_day(&root, 10, |r| {
        std::fs::create_dir_all(r.join("legacy/benches")).unwrap();
        std::fs::rename(r.join("benches/README.md"), r.join("legacy/benches/README.md")).unwrap();
    });
    common::commit_on_day(&root, 20, |r| {
        std::fs::remove_dir_all(r.join("legacy")).unwrap();
        common::write(r, "crates/x/Cargo.toml", "[package]\nname = \"x\"\n");
        common::write(r, "crates/x/benches/README.md", "# x benches\n");
        common::write(r, "crates/y/Cargo.toml", "[package]\nname = \"y\"\n");
        common::write(r, "crates/y/benches/README.md", "# y benches\n");
        common::write(r, "crates/x/src/adapters/z/mod.rs", "pub fn z() {}\n");
    });
    common::commit_on_day(&root, 30, |r| {
        common::write(r, "crates/x/src/adapters/z/CLAUDE.md", "See `benches/README.md`.\n");
    });
    let evidence = Evidence::open(&root).unwrap();
    let memory = common::notes_file(&root, "crates/x/src/adapters/z/CLAUDE.md", common::START + 30 * common::DAY);
    let got = common::check_as_validate(
        &evidence,
        memory,
        vec![file_read_from("crates/x/src/adapters/z/benches/README.md", "benches/README.md")],
    );
    match &got[0] {
        Outcome::Checked { verdict: Verdict::Valid, evidence, .. } => {
            assert!(evidence.contains("crates/x/benches/README.md") && evidence.contains("its package"), "{evidence}")
        }
        other => panic!("the crate's own benches/README.md: {other:?}"),
    }
}

#[test]
fn a_bare_name_whose_deep_file_moved_under_the_same_name_still_names_it() {
    let (_guard, root) = common::new_repo();
    common::commit_on_day(&root, 0, |r| {
        common::write(r, "NOTES.md", "# notes\n");
        common::write(r, "examples/demo/src/main/resources/application.properties", "server.port=8080\n");
        common::write(r, "ADVANCED.md", "# advanced\n");
    });
    std::fs::create_dir_all(root.join("examples/profiling")).unwrap();
    std::fs::create_dir_all(root.join("docs")).unwrap();
    common::git(&root, &["mv", "examples/demo", "examples/profiling/demo"], common::START + common::DAY);
    common::git(&root, &["mv", "ADVANCED.md", "docs/ADVANCED.md"], common::START + common::DAY);
    common::commit_on_day(&root, 1, |r| {
        common::write(r, "examples/other/src/main/resources/application.properties", "server.port=9090\n")
    });
    let evidence = Evidence::open(&root).unwrap();
    let memory = common::notes_file(&root, "NOTES.md", common::START + common::DAY / 2);
    let got = common::check_as_validate(
        &evidence,
        memory,
        vec![common::file_claim("application.properties"), common::file_claim("ADVANCED.md")],
    );
    match &got[0] {
        Outcome::Checked { verdict: Verdict::Valid, evidence, .. } => assert!(
            evidence.contains("examples/profiling/demo/src/main/resources/application.properties")
                && evidence.contains("still ends with"),
            "{evidence}"
        ),
        other => panic!("the bare name still names the moved file: {other:?}"),
    }
    match &got[1] {
        Outcome::Checked { verdict: Verdict::Stale, successor, .. } => {
            assert_eq!(successor.as_deref(), Some("docs/ADVANCED.md"))
        }
        other => panic!("a root file moved into a folder is STALE: {other:?}"),
    }
}

/// Without history: a memory listing its top folders (`ts-libs/`, `sdk/`) and naming
/// `sdk/sdk-core` wrote that path from the root. When only `ts-libs/sdk/sdk-core` ends with it
/// now, the folder moved under `ts-libs/` (STALE, a guess), though the memory names `ts-libs/`
/// paths too; a path whose first folder the memory never names on its own stays written
/// relative to `ts-libs/` (VALID).
#[test]
fn without_history_a_path_from_a_listed_top_folder_is_not_read_inside_another() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    common::write(root, "ts-libs/eslint-config/index.js", "module.exports = {};\n");
    common::write(root, "ts-libs/sdk/sdk-core/package.json", "{\"name\": \"sdk-core\"}\n");
    common::write(root, "ts-libs/utils/src/log.ts", "export {};\n");
    common::write(root, "AGENTS.md", "notes\n");
    let evidence = Evidence::open(root).unwrap();
    let memory = common::notes_file(root, "AGENTS.md", common::START);
    let got = common::check_as_validate(
        &evidence,
        memory,
        vec![
            common::file_claim("ts-libs/eslint-config"),
            common::file_claim("sdk"),
            common::file_claim("sdk/sdk-core"),
            common::file_claim("utils/src/log.ts"),
        ],
    );
    match &got[2] {
        Outcome::Checked { verdict: Verdict::Stale, successor, evidence, .. } => {
            assert_eq!(successor.as_deref(), Some("ts-libs/sdk/sdk-core"), "{evidence}");
            assert!(evidence.contains("no history"), "{evidence}");
        }
        other => panic!("sdk/sdk-core moved under ts-libs/: {other:?}"),
    }
    match &got[3] {
        Outcome::Checked { verdict: Verdict::Valid, evidence, .. } => {
            assert!(evidence.contains("ts-libs/utils/src/log.ts"), "{evidence}")
        }
        other => panic!("utils/src/log.ts is written relative to ts-libs/: {other:?}"),
    }
}
