//! Readings found in session 35, without history (a tree alone): a folder whose contents were
//! split across new packages (vibe-kanban's `frontend/` → `packages/ui`, `packages/web-core`,
//! `packages/remote-web`, ...) is not "moved" to the one package where two of its named children
//! are found by name, while most of what the memory names inside it is found nowhere or in
//! several places.

mod common;

use memval_investigator::Evidence;
use memval_proto::{Claim, ClaimType, CodeRef, Outcome, Verdict};

fn tree(files: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for path in files {
        common::write(dir.path(), path, "x\n");
    }
    dir
}

fn reference(path: &str) -> Claim {
    Claim {
        claim_type: ClaimType::FileReference,
        claim_text: format!("`{path}` exists"),
        line: 1,
        lines: vec![1],
        code_refs: vec![CodeRef::path(path)],
        assertion: None,
    }
}

fn check_all(dir: &tempfile::TempDir, claims: &[Claim]) -> Vec<Outcome> {
    let evidence = Evidence::open(dir.path()).unwrap();
    let memory = common::notes_file(dir.path(), "CLAUDE.md", common::START);
    common::check_as_validate(&evidence, memory, claims.to_vec())
}

fn successor(outcome: &Outcome) -> Option<&str> {
    match outcome {
        Outcome::Checked { successor, .. } => successor.as_deref(),
        _ => None,
    }
}

#[test]
fn a_folder_split_across_packages_is_not_moved_to_where_two_children_are_found_by_name() {
    let dir = tree(&[
        "packages/ui/src/components/button.tsx",
        "packages/ui/src/lib/utils.ts",
        "packages/web-core/src/pages/home.tsx",
        "packages/remote-web/src/pages/login.tsx",
        "packages/web-core/src/hooks/use-a.ts",
        "packages/remote-web/src/hooks/use-b.ts",
        "package.json",
    ]);
    let claims = vec![
        reference("frontend"),
        reference("frontend/src"),
        reference("frontend/src/components"),
        reference("frontend/src/pages"),
        reference("frontend/src/hooks"),
        reference("frontend/src/lib"),
    ];
    let got = check_all(&dir, &claims);
    for (i, what) in [(0, "frontend"), (1, "frontend/src")] {
        assert!(
            !matches!(&got[i], Outcome::Checked { verdict: Verdict::Stale | Verdict::Valid, .. }),
            "{what} is not moved: {:?}",
            got[i]
        );
        assert_ne!(successor(&got[i]), Some("packages/ui"), "{what}");
    }
    // A child found by its one close match still is.
    assert_eq!(successor(&got[2]), Some("packages/ui/src/components"), "{:?}", got[2]);
}

#[test]
fn a_folder_most_of_whose_named_children_are_found_by_name_in_one_place_moved_there() {
    let dir = tree(&[
        "apps/web/src/components/button.tsx",
        "apps/web/src/lib/utils.ts",
        "apps/web/src/pages/home.tsx",
        "package.json",
    ]);
    let claims = vec![
        reference("frontend/src"),
        reference("frontend/src/components"),
        reference("frontend/src/pages"),
        reference("frontend/src/lib"),
    ];
    let got = check_all(&dir, &claims);
    assert!(matches!(&got[0], Outcome::Checked { verdict: Verdict::Stale, .. }), "{:?}", got[0]);
    assert_eq!(successor(&got[0]), Some("apps/web/src"), "{:?}", got[0]);
}

/// From fresh30 (Cytnx): a skill gives `ASAN_OPTIONS='detect_leaks=0'` without a file; the
/// package manager's config sets it to another value (and once had the memory's), while the
/// build script the skill documents exports exactly the memory's value. One of the places that
/// set the variable has the memory's value: VALID, not STALE to the config file's value.
#[test]
fn a_setting_without_a_file_that_a_script_sets_as_written_is_valid() {
    use common::{commit_on_day as commit, new_repo, DAY, START};
    use memval_proto::Assertion;
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        common::write(r, "pixi.toml", "[tasks.test]\nenv = { ASAN_OPTIONS = \"detect_leaks=0\" }\n");
        common::write(r, "scripts/build.sh", "#!/bin/bash\nexport ASAN_OPTIONS='detect_leaks=0'\n");
        common::write(r, "NOTES.md", "notes\n");
    });
    commit(root, 3, |r| {
        common::write(r, "pixi.toml", "[tasks.test]\nenv = { ASAN_OPTIONS = \"protect_shadow_gap=0\" }\n")
    });
    let setting = |value: &str| Claim {
        claim_type: ClaimType::Configuration,
        claim_text: format!("`ASAN_OPTIONS` = {value}"),
        line: 1,
        lines: vec![1],
        code_refs: vec![CodeRef { symbol: Some("ASAN_OPTIONS".into()), ..CodeRef::path(".") }],
        assertion: Some(Assertion::ConfigValue { key: "ASAN_OPTIONS".into(), value: value.into() }),
    };
    let evidence = Evidence::open(root).unwrap();
    let memory = common::notes_file(root, "NOTES.md", START + DAY);
    let got = common::check_as_validate(&evidence, memory, vec![setting("detect_leaks=0"), setting("halt_on_error=1")]);
    match &got[0] {
        Outcome::Checked { verdict: Verdict::Valid, evidence, .. } => {
            assert!(evidence.contains("scripts/build.sh:2"), "{evidence}");
            assert!(evidence.contains("pixi.toml"), "the other place is named: {evidence}");
        }
        other => panic!("the script's value: {other:?}"),
    }
    // A value no file sets, and the config file never had, is not made VALID by the script.
    assert!(!matches!(&got[1], Outcome::Checked { verdict: Verdict::Valid, .. }), "{:?}", got[1]);
}

/// From fresh30 (camaleon-cms, lighty): names git saw removed as definitions that the
/// repository still keeps as data. `draw_custom_assets`, a helper method renamed, is still the
/// name of the hook the code fires (`hooks_run('draw_custom_assets')`); `initialYangsPaths`, a
/// Java field gone with the module that read it, is still a key of the configuration the
/// project ships. The memory names the hook and the option: VALID, not renamed or removed. A
/// name gone from everywhere stays drift.
#[test]
fn names_removed_as_definitions_but_kept_as_a_hook_or_a_config_key_are_valid() {
    use common::{commit_on_day as commit, new_repo, write, DAY, START};
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, "NOTES.md", "notes\n");
        write(r, "app/html_helper.rb", "def draw_custom_assets\n  hooks_run('draw_custom_assets')\nend\n");
        write(
            r,
            "src/GnmiConfiguration.java",
            "class GnmiConfiguration {\n  String initialYangsPaths;\n  void removedThing() {}\n}\n",
        );
        write(
            r,
            "app/src/test/resources/config.json",
            "{\n  \"gnmi\": {\n    \"initialYangsPaths\": [\"a\"]\n  }\n}\n",
        );
    });
    commit(root, 3, |r| {
        write(r, "app/html_helper.rb", "def cama_draw_custom_assets\n  hooks_run('draw_custom_assets')\nend\n");
        write(r, "src/GnmiConfiguration.java", "class Other {}\n");
    });
    let symbol = |s: &str| Claim {
        claim_type: ClaimType::SymbolReference,
        claim_text: format!("`{s}` is defined in the repo"),
        line: 1,
        lines: vec![1],
        code_refs: vec![CodeRef { symbol: Some(s.into()), ..CodeRef::path(".") }],
        assertion: None,
    };
    let evidence = Evidence::open(root).unwrap();
    let memory = common::notes_file(root, "NOTES.md", START + DAY);
    let got = common::check_as_validate(
        &evidence,
        memory,
        vec![symbol("draw_custom_assets"), symbol("initialYangsPaths"), symbol("removedThing")],
    );
    for (i, place) in [(0, "app/html_helper.rb:2"), (1, "app/src/test/resources/config.json:3")] {
        match &got[i] {
            Outcome::Checked { verdict: Verdict::Valid, evidence, .. } => {
                assert!(evidence.contains(place), "{evidence}")
            }
            other => panic!("claim {i}: {other:?}"),
        }
    }
    assert!(matches!(&got[2], Outcome::Checked { verdict: Verdict::Contradicted, .. }), "{:?}", got[2]);
}
