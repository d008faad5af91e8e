//! Readings found in session 43. A module kept as a facade after its code moved
//! (`src/lib/agents.ts` holding only `export * from './agent-spec/agents.js'`) still offers
//! every name of the module it re-exports: a memory saying such a name is in the facade is
//! right (VALID, with both files in the evidence), while a file that re-exports only some names,
//! or nothing, leaves the name moved (STALE with where it went). A release-notes fragment a
//! release gathered is not drift. Without history, a path in a package renamed by words added
//! to its name is found from the rest of the path (a guard for what the forty-third set showed;
//! this passed before the session's changes too).

mod common;

use memval_investigator::Evidence;
use memval_proto::{Claim, ClaimType, CodeRef, Outcome, Verdict};

fn symbol_in(path: &str, symbol: &str) -> Claim {
    Claim {
        claim_type: ClaimType::SymbolReference,
        claim_text: format!("`{symbol}` is defined in {path}"),
        code_refs: vec![CodeRef { symbol: Some(symbol.into()), ..CodeRef::path(path) }],
        ..common::file_claim(path)
    }
}

#[test]
fn a_facade_that_reexports_the_module_a_name_moved_to_still_offers_it() {
    let (_guard, root) = common::new_repo();
    common::commit_on_day(&root, 0, |r| {
        common::write(
            r,
            "src/lib/agents.ts",
            "export function credentialPresence(agent: string): boolean {\n  return agent.length > 0;\n}\n",
        );
        common::write(
            r,
            "src/lib/tools.ts",
            "export function toolVersion(name: string): string {\n  return name + '@1';\n}\n",
        );
        common::write(r, "NOTES.md", "# notes\n");
    });
    common::commit_on_day(&root, 5, |r| {
        common::write(
            r,
            "src/lib/agent-spec/agents.ts",
            "export function credentialPresence(agent: string): boolean {\n  return agent.length > 0;\n}\n",
        );
        common::write(r, "src/lib/agents.ts", "/** Hub facade. */\nexport * from './agent-spec/agents.js';\n");
        common::write(
            r,
            "src/lib/tool-spec/tools.ts",
            "export function toolVersion(name: string): string {\n  return name + '@1';\n}\n",
        );
        common::write(r, "src/lib/tools.ts", "export { other } from './elsewhere.js';\nexport const other = 1;\n");
    });
    let evidence = Evidence::open(&root).unwrap();
    let memory = common::notes_file(&root, "NOTES.md", common::START + common::DAY);
    let claims =
        vec![symbol_in("src/lib/agents.ts", "credentialPresence"), symbol_in("src/lib/tools.ts", "toolVersion")];
    let got = common::check_as_validate(&evidence, memory, claims);
    match &got[0] {
        Outcome::Checked { verdict: Verdict::Valid, evidence, .. } => {
            assert!(evidence.contains("re-exports everything of src/lib/agent-spec/agents.ts"), "{evidence}");
        }
        other => panic!("a facade re-exporting the module: {other:?}"),
    }
    match &got[1] {
        Outcome::Checked { verdict: Verdict::Stale, successor, .. } => {
            assert_eq!(successor.as_deref(), Some("src/lib/tool-spec/tools.ts"));
        }
        other => panic!("no re-export of the module it went to: {other:?}"),
    }
}

/// A release-notes fragment (`changelog.d/fixed/6623-x.md`) is deleted by the release that
/// collects it: a memory naming one as the example of the format is not contradicted by that.
#[test]
fn a_release_fragment_gathered_by_a_release_is_not_drift() {
    let (_guard, root) = common::new_repo();
    common::commit_on_day(&root, 0, |r| {
        common::write(r, "changelog.d/README.md", "One file per change.\n");
        common::write(r, "changelog.d/fixed/6623-wire-max.md", "Wire the max (#6623)\n");
        common::write(r, "scripts/assemble.py", "print('assemble')\n");
        common::write(r, "NOTES.md", "# notes\n");
    });
    common::commit_on_day(&root, 5, |r| {
        std::fs::remove_file(r.join("changelog.d/fixed/6623-wire-max.md")).unwrap();
        std::fs::remove_file(r.join("scripts/assemble.py")).unwrap();
        common::write(r, "CHANGELOG.md", "- Wire the max (#6623)\n");
    });
    let evidence = Evidence::open(&root).unwrap();
    let memory = common::notes_file(&root, "NOTES.md", common::START + common::DAY);
    let claims = ["changelog.d/fixed/6623-wire-max.md", "scripts/assemble.py"].map(common::file_claim).to_vec();
    let got = common::check_as_validate(&evidence, memory, claims);
    match &got[0] {
        Outcome::NotChecked { reason } => assert!(reason.contains("release-notes fragment"), "{reason}"),
        other => panic!("a gathered fragment: {other:?}"),
    }
    assert!(matches!(&got[1], Outcome::Checked { verdict: Verdict::Contradicted, .. }), "{:?}", got[1]);
}

/// Without history: a package renamed by words added to its name (`packages/api` →
/// `packages/api-llamaindex-ts`, beside `api-langchain-js`) is found from the rest of the path,
/// when only one such sibling holds it; a rest every sibling holds says nothing.
#[test]
fn without_history_a_path_in_a_folder_renamed_by_words_added_is_found_from_its_rest() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    common::write(&root, "packages/api-llamaindex-ts/src/mcp/mcp-tools.ts", "export const tools = [];\n");
    common::write(&root, "packages/api-llamaindex-ts/package.json", "{}\n");
    common::write(&root, "packages/api-langchain-js/src/server.ts", "export {};\n");
    common::write(&root, "packages/api-langchain-js/package.json", "{}\n");
    // the same file name elsewhere, outside the renamed package: the name alone says nothing
    common::write(&root, "examples/src/mcp/mcp-tools.ts", "export const tools = [];\n");
    common::write(&root, "NOTES.md", "# notes\n");
    let evidence = Evidence::open(&root).unwrap();
    let memory = common::notes_file(&root, "NOTES.md", common::START);
    let claims = ["packages/api/src/mcp/mcp-tools.ts", "packages/api/package.json"].map(common::file_claim).to_vec();
    let got = common::check_as_validate(&evidence, memory, claims);
    match &got[0] {
        Outcome::Checked { verdict: Verdict::Stale, successor, confidence, .. } => {
            assert_eq!(successor.as_deref(), Some("packages/api-llamaindex-ts/src/mcp/mcp-tools.ts"));
            assert!(*confidence <= 60, "{confidence}: {got:?}");
        }
        other => panic!("renamed folder found from the rest: {other:?}"),
    }
    assert!(!matches!(&got[1], Outcome::Checked { verdict: Verdict::Stale, .. }), "{:?}", got[1]);
}
