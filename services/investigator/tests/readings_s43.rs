//! Readings found in session 43. A module kept as a facade after its code moved
//! (`src/lib/agents.ts` holding only `export * from './agent-spec/agents.js'`) still offers
//! every name of the module it re-exports: a memory saying such a name is in the facade is
//! right (VALID, with both files in the evidence), while a file that re-exports only some names,
//! or nothing, leaves the name moved (STALE with where it went).

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
