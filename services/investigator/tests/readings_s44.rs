//! Readings found in session 44. A folder the memory places in a sibling repository is not a
//! deletion. Without history, a product renamed throughout the tree
//! (`winsdk` → `winapp` in every folder and file name that held it) is found from the memory's
//! paths: each gone path read with the word replaced is in the tree, and the same replacement
//! finds the memory's other gone paths. One path alone, or a replacement nothing else agrees
//! with, proves nothing.

mod common;

use memval_investigator::Evidence;
use memval_proto::{Claim, CodeRef, Outcome, Verdict};

#[test]
fn without_history_a_word_renamed_throughout_is_found_from_the_memorys_paths() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    for path in [
        "src/winapp-CLI/WinApp.Cli/WinApp.Cli.csproj",
        "src/winapp-CLI/WinApp.Cli/Services/MsixService.cs",
        "src/winapp-CLI/winapp.sln",
        "winapp.example.yaml",
        "docs/logout.md",
        "NOTES.md",
    ] {
        common::write(&root, path, "x\n");
    }
    let evidence = Evidence::open(&root).unwrap();
    let memory = common::notes_file(&root, "NOTES.md", common::START);
    let claims = [
        "src/winsdk-CLI/Winsdk.Cli/Winsdk.Cli.csproj",
        "src/winsdk-CLI/Winsdk.Cli/Services/MsixService.cs",
        "src/winsdk-CLI/winsdk.sln",
        "winsdk.example.yaml",
        // a word replaced in this path alone (`login` → `logout`): nothing agrees
        "docs/login.md",
    ]
    .map(common::file_claim)
    .to_vec();
    let got = common::check_as_validate(&evidence, memory, claims);
    let want = [
        "src/winapp-CLI/WinApp.Cli/WinApp.Cli.csproj",
        "src/winapp-CLI/WinApp.Cli/Services/MsixService.cs",
        "src/winapp-CLI/winapp.sln",
        "winapp.example.yaml",
    ];
    for (i, want) in want.iter().enumerate() {
        match &got[i] {
            Outcome::Checked { verdict: Verdict::Stale, successor, confidence, evidence, .. } => {
                assert_eq!(successor.as_deref(), Some(*want), "{evidence}");
                // A file of the same name is found by its name alone (the tree search); the
                // others only by the word replaced.
                if !want.ends_with("MsixService.cs") {
                    assert!(*confidence <= 50 && evidence.contains("read as \"winapp\""), "{confidence}: {evidence}");
                }
            }
            other => panic!("{want}: {other:?}"),
        }
    }
    assert!(!matches!(&got[4], Outcome::Checked { verdict: Verdict::Stale, .. }), "{:?}", got[4]);
}

/// Code that moved out to a sibling repository, as the memory says with paths outside the root
/// (`../wdbx/crates/w/src/...`): the same files named in short form (`entropy.rs`,
/// `crates/w/src/entropy.rs`) left this repository; they are not reported as deleted. A memory
/// that names no such sibling path still gets the deletion.
#[test]
fn a_folder_the_memory_places_in_a_sibling_repository_is_not_a_deletion() {
    let (_guard, root) = common::new_repo();
    common::commit_on_day(&root, 0, |r| {
        common::write(r, "crates/w/src/entropy.rs", "pub fn entropy() {}\n");
        common::write(r, "crates/w/src/lib.rs", "pub mod entropy;\n");
        common::write(r, "NOTES.md", "# notes\n");
        common::write(r, ".agents/skills/x/SKILL.md", "# skill\n");
    });
    common::commit_on_day(&root, 5, |r| std::fs::remove_dir_all(r.join("crates")).unwrap());
    let evidence = Evidence::open(&root).unwrap();
    let claims =
        || ["entropy.rs", "crates/w/src/entropy.rs", "../wdbx/crates/w/src/lib.rs"].map(common::file_claim).to_vec();
    let memory = common::notes_file(&root, "NOTES.md", common::START + common::DAY);
    let got = common::check_as_validate(&evidence, memory, claims());
    for (i, path) in ["entropy.rs", "crates/w/src/entropy.rs"].iter().enumerate() {
        match &got[i] {
            Outcome::NotChecked { reason } => {
                assert!(reason.contains("another one (../wdbx/crates/w/src/lib.rs)"), "{path}: {reason}")
            }
            other => panic!("{path}: {other:?}"),
        }
    }
    // As the extractor reads them in a skill's folder: the bare name and the sibling path
    // joined to `.agents/skills/x/`, each with its written form.
    let in_skill = |path: &str, written: &str| Claim {
        code_refs: vec![CodeRef {
            written: Some(written.into()),
            alt_paths: vec![written.into()],
            ..CodeRef::path(path)
        }],
        ..common::file_claim(path)
    };
    let memory = common::notes_file(&root, "NOTES.md", common::START + common::DAY);
    let got = common::check_as_validate(
        &evidence,
        memory,
        vec![
            in_skill(".agents/skills/x/entropy.rs", "entropy.rs"),
            in_skill(".agents/skills/wdbx/crates/w/src/lib.rs", "../wdbx/crates/w/src/lib.rs"),
        ],
    );
    match &got[0] {
        Outcome::NotChecked { reason } => assert!(reason.starts_with("entropy.rs is gone"), "{reason}"),
        other => panic!("in a skill's folder: {other:?}"),
    }
    // Without the sibling path, the deletion is reported.
    let memory = common::notes_file(&root, "NOTES.md", common::START + common::DAY);
    let got = common::check_as_validate(&evidence, memory, claims()[..2].to_vec());
    assert!(got.iter().all(|o| matches!(o, Outcome::Checked { verdict: Verdict::Contradicted, .. })), "{got:?}");
}
