//! A doc deep in a package names paths from the package's root; when history moved the package
//! (with the doc) under a new folder, the path as the doc reads is where it always was: VALID,
//! not STALE with the path it already names. Real git, a real doc committed in the repository.

mod common;

use common::{commit_on_day as commit, git, new_repo, write, DAY, START};
use memval_investigator::Evidence;
use memval_proto::{Claim, ClaimType, CodeRef, MemoryMeta, Outcome, Source, Verdict};

fn doc(root: &std::path::Path, path: &str) -> MemoryMeta {
    MemoryMeta {
        id: path.into(),
        agent: "docs".into(),
        tier: 0,
        kind: "notes".into(),
        created_at: None,
        updated_at: Some(START + DAY),
        source: Source {
            path: root.join(path).to_string_lossy().into_owned(),
            line: None,
            row: None,
            format: "notes".into(),
        },
        first_line: 1,
    }
}

/// A reference as the extractor gives one for a doc in `dir`: the path read from the doc's
/// folder, written as `written`, with the root reading after it.
fn written_in(dir: &str, written: &str) -> Claim {
    let code_ref = CodeRef {
        written: Some(written.into()),
        alt_paths: vec![written.trim_end_matches('/').into()],
        ..CodeRef::path(format!("{dir}/{}", written.trim_end_matches('/')))
    };
    Claim {
        claim_type: ClaimType::FileReference,
        claim_text: "claim".into(),
        line: 1,
        lines: vec![1],
        code_refs: vec![code_ref],
        assertion: None,
    }
}

fn check(root: &std::path::Path, memory: MemoryMeta, claims: Vec<Claim>) -> Vec<Outcome> {
    common::check_as_validate(&Evidence::open(root).unwrap(), memory, claims)
}

fn verdict(o: &Outcome) -> (Verdict, String, Option<String>) {
    match o {
        Outcome::Checked { verdict, evidence, successor, .. } => (*verdict, evidence.clone(), successor.clone()),
        other => panic!("not checked: {other:?}"),
    }
}

#[test]
fn a_path_written_from_the_package_the_doc_moved_with_is_valid() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, "src/Experimental/Experiment/Abstract.php", "<?php class AbstractExperiment {}\n");
        write(r, "src/Experimental/README.md", "The experiments live in `src/Experimental/Experiment/`.\n");
        write(r, "src/Removed.php", "<?php class Removed {}\n");
    });
    // Day 1: the plugin moves under `plugins/x/`, its doc with it.
    git(root, &["mv", "src", "plugins-x-src"], START + DAY);
    std::fs::create_dir_all(root.join("plugins/x")).unwrap();
    git(root, &["mv", "plugins-x-src", "plugins/x/src"], START + DAY);
    commit(root, 1, |_| {});
    // Day 2: a root-level file moves into another package, which a doc of `plugins/x` named.
    commit(root, 2, |r| write(r, "lib/tool.php", "<?php class Tool {}\n"));
    git(root, &["mv", "lib", "plugins/y-lib"], START + 3 * DAY);
    commit(root, 3, |_| {});

    let dir = "plugins/x/src/Experimental";
    let memory = doc(root, "plugins/x/src/Experimental/README.md");
    let got =
        check(root, memory, vec![written_in(dir, "src/Experimental/Experiment/"), written_in(dir, "lib/tool.php")]);
    let (v, evidence, successor) = verdict(&got[0]);
    assert_eq!(v, Verdict::Valid, "{evidence}");
    assert!(evidence.contains("written from plugins/x/"), "{evidence}");
    assert_eq!(successor, None);
    // A path that moved somewhere that is no folder above the doc stays a move.
    let (v, evidence, successor) = verdict(&got[1]);
    assert_eq!(v, Verdict::Stale, "{evidence}");
    assert_eq!(successor.as_deref(), Some("plugins/y-lib/tool.php"));

    // A doc written in the package after the move reads its paths from the package: what it
    // names is there.
    commit(root, 4, |r| write(r, "plugins/x/src/NEW.md", "Creates `src/Experimental/Experiment/`.\n"));
    let got = check(
        root,
        doc(root, "plugins/x/src/NEW.md"),
        vec![written_in("plugins/x/src", "src/Experimental/Experiment/")],
    );
    let (v, evidence, _) = verdict(&got[0]);
    assert_eq!(v, Verdict::Valid, "{evidence}");
    assert!(evidence.contains("written from plugins/x/"), "{evidence}");
}

#[test]
fn a_doc_in_the_package_before_the_path_came_there_read_it_from_the_root() {
    let (_dir, root) = new_repo();
    let root = &root;
    // Day 0: a root script, and a package doc that names it from the root.
    commit(root, 0, |r| {
        write(r, "script/build.py", "print('build')\n");
        write(r, "pkg/docs/NOTES.md", "Build with `script/build.py`.\n");
    });
    // Day 1: the script moves into the package.
    std::fs::create_dir_all(root.join("pkg")).unwrap();
    git(root, &["mv", "script", "pkg/script"], START + DAY);
    commit(root, 1, |_| {});
    // Day 2: a doc added in the package once the script is there.
    commit(root, 2, |r| write(r, "pkg/guide/HOWTO.md", "Build with `script/build.py`.\n"));

    let got = check(root, doc(root, "pkg/docs/NOTES.md"), vec![written_in("pkg/docs", "script/build.py")]);
    let (v, evidence, successor) = verdict(&got[0]);
    assert_eq!(v, Verdict::Stale, "{evidence}");
    assert_eq!(successor.as_deref(), Some("pkg/script/build.py"));
    let got = check(root, doc(root, "pkg/guide/HOWTO.md"), vec![written_in("pkg/guide", "script/build.py")]);
    let (v, evidence, _) = verdict(&got[0]);
    assert_eq!(v, Verdict::Valid, "{evidence}");
    assert!(evidence.contains("written from pkg/"), "{evidence}");
}

#[test]
fn a_project_merged_in_under_a_folder_with_its_history_is_read_from_that_folder() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| write(r, "README.md", "# host\n"));
    // Another project, with its own history at its own root, merged in under `pkg/` (what
    // `git subtree add` does without --squash).
    git(root, &["checkout", "-q", "--orphan", "side"], START + DAY);
    git(root, &["rm", "-rq", "--cached", "."], START + DAY);
    std::fs::remove_file(root.join("README.md")).unwrap();
    commit(root, 1, |r| {
        write(r, "script/build.py", "print('build')\n");
        write(r, "docs/GUIDE.md", "Build with `script/build.py`.\n");
    });
    git(root, &["checkout", "-q", "-f", "main"], START + 2 * DAY);
    git(root, &["merge", "-q", "-s", "ours", "--allow-unrelated-histories", "--no-commit", "side"], START + 2 * DAY);
    git(root, &["read-tree", "--prefix=pkg/", "-u", "side"], START + 2 * DAY);
    git(root, &["commit", "-q", "-m", "Add 'pkg/' from commit 'side'"], START + 2 * DAY);
    // Later, a doc written inside the merged project.
    commit(root, 3, |r| {
        write(r, "pkg/.claude/skills/build/SKILL.md", "Build with `script/build.py`.\n");
        write(r, "web/docs/pkg/build.md", "Build with `script/build.py`.\n");
        write(r, "web/docs/other/build.md", "Build with `script/build.py`.\n");
    });

    for (doc_path, dir) in
        [("pkg/.claude/skills/build/SKILL.md", "pkg/.claude/skills/build"), ("pkg/docs/GUIDE.md", "pkg/docs")]
    {
        let got = check(root, doc(root, doc_path), vec![written_in(dir, "script/build.py")]);
        let (v, evidence, _) = verdict(&got[0]);
        assert_eq!(v, Verdict::Valid, "{doc_path}: {evidence}");
        assert!(evidence.contains("written from pkg/"), "{evidence}");
    }
    // A docs site's section named for the package writes its paths from there too; a section
    // named for nothing of the kind does not.
    let got = check(root, doc(root, "web/docs/pkg/build.md"), vec![written_in("web/docs/pkg", "script/build.py")]);
    let (v, evidence, _) = verdict(&got[0]);
    assert_eq!(v, Verdict::Valid, "{evidence}");
    assert!(evidence.contains("section of the memory's file is named for"), "{evidence}");
    let got = check(root, doc(root, "web/docs/other/build.md"), vec![written_in("web/docs/other", "script/build.py")]);
    let (v, evidence, _) = verdict(&got[0]);
    assert_ne!(v, Verdict::Valid, "{evidence}");
    // A bare name the section's text placed in a folder of the package (`build.py` under a line
    // naming `script/`) is read from the package as placed, not only as written.
    let placed = Claim {
        code_refs: vec![CodeRef { written: Some("build.py".into()), ..CodeRef::path("script/build.py") }],
        ..written_in("web/docs/pkg", "script/build.py")
    };
    let got = check(root, doc(root, "web/docs/pkg/build.md"), vec![placed]);
    let (v, evidence, _) = verdict(&got[0]);
    assert_eq!(v, Verdict::Valid, "{evidence}");
    assert!(evidence.contains("script/build.py is written from pkg/"), "{evidence}");
}
