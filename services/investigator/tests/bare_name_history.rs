//! A bare file name the tree lacks is read against history: when the repository once had one
//! file of that name, deeper than the root, the memory named it, and what became of it is the
//! verdict. Real git.

mod common;

use common::{commit_on_day as commit, git, new_repo, write, DAY, START};
use memval_investigator::Evidence;
use memval_proto::{Claim, CodeRef, MemoryMeta, Outcome, Verdict};

fn notes(root: &std::path::Path) -> MemoryMeta {
    common::notes_file(root, "NOTES.md", START + DAY / 2)
}

fn file(path: &str) -> Claim {
    common::file_claim(path)
}

fn verdict(o: &Outcome) -> (Verdict, String, Option<String>) {
    match o {
        Outcome::Checked { verdict, evidence, successor, .. } => (*verdict, evidence.clone(), successor.clone()),
        other => panic!("not checked: {other:?}"),
    }
}

#[test]
fn a_bare_name_history_had_deeper_is_followed() {
    let (_dir, root) = new_repo();
    commit(&root, 0, |r| {
        write(r, "NOTES.md", "# notes\n");
        write(r, "supabase/utils/postgress_schema.ts", "export const a = 1;\n");
        write(r, "supabase/utils/old_helpers.ts", "export const b = 1;\n");
        write(r, "src/main.ts", "export {};\n");
    });
    std::fs::create_dir_all(root.join("supabase/db")).unwrap();
    git(&root, &["mv", "supabase/utils/postgress_schema.ts", "supabase/db/postgres_schema.ts"], START + DAY);
    git(&root, &["rm", "-q", "supabase/utils/old_helpers.ts"], START + DAY);
    commit(&root, 1, |_| {});
    let got = common::check_as_validate(
        &Evidence::open(&root).unwrap(),
        notes(&root),
        vec![file("postgress_schema.ts"), file("old_helpers.ts")],
    );
    let (v, evidence, successor) = verdict(&got[0]);
    assert_eq!(v, Verdict::Stale, "{evidence}");
    assert_eq!(successor.as_deref(), Some("supabase/db/postgres_schema.ts"));
    assert!(evidence.contains("supabase/utils/postgress_schema.ts"), "{evidence}");
    let (v, evidence, _) = verdict(&got[1]);
    assert_eq!(v, Verdict::Contradicted, "{evidence}");
    assert!(evidence.contains("deleted"), "{evidence}");
}

/// A bare name listed under its folder (`CompilerDetection.cmake` under `tests/cmake/`), the
/// extractor's joined reading the only one history had: the verdict is reported at that reading.
#[test]
fn a_listed_bare_name_is_reported_at_the_reading_history_had() {
    let (_dir, root) = new_repo();
    commit(&root, 0, |r| {
        write(r, "NOTES.md", "# notes\n");
        write(r, "tests/cmake/CompilerDetection.cmake", "set(X 1)\n");
        write(r, "src/main.cpp", "int main() {}\n");
    });
    git(&root, &["rm", "-q", "tests/cmake/CompilerDetection.cmake"], START + DAY);
    commit(&root, 1, |_| {});
    let listed = CodeRef {
        written: Some("CompilerDetection.cmake".into()),
        alt_paths: vec!["tests/cmake/CompilerDetection.cmake".into()],
        ..CodeRef::path("CompilerDetection.cmake")
    };
    let claim = Claim { code_refs: vec![listed], ..file("CompilerDetection.cmake") };
    let got = common::check_as_validate(&Evidence::open(&root).unwrap(), notes(&root), vec![claim]);
    let (v, evidence, _) = verdict(&got[0]);
    assert_eq!(v, Verdict::Contradicted, "{evidence}");
    assert!(evidence.starts_with("tests/cmake/CompilerDetection.cmake — "), "{evidence}");
}

/// The same, as the extractor gives it when the folder is named first: the joined path as the
/// claim's path, the bare name as its other reading. The root has the bare reading's folder, the
/// joined one's folder is gone: history had the joined one, so the verdict is reported there.
#[test]
fn a_joined_path_history_had_is_reported_though_its_folder_is_gone() {
    let (_dir, root) = new_repo();
    commit(&root, 0, |r| {
        write(r, "NOTES.md", "# notes\n");
        write(r, "tests/cmake/CompilerFlags.cmake", "set(X 1)\n");
        write(r, "src/main.cpp", "int main() {}\n");
    });
    git(&root, &["rm", "-q", "-r", "tests"], START + DAY);
    commit(&root, 1, |_| {});
    let joined = CodeRef {
        written: Some("CompilerFlags.cmake".into()),
        alt_paths: vec!["CompilerFlags.cmake".into()],
        ..CodeRef::path("tests/cmake/CompilerFlags.cmake")
    };
    let claim = Claim { code_refs: vec![joined], ..file("CompilerFlags.cmake") };
    let got = common::check_as_validate(&Evidence::open(&root).unwrap(), notes(&root), vec![claim]);
    let (v, evidence, _) = verdict(&got[0]);
    assert_eq!(v, Verdict::Contradicted, "{evidence}");
    assert!(evidence.starts_with("tests/cmake/CompilerFlags.cmake — "), "{evidence}");
}

/// The repository's one copy of the name was an example's (`sample/sample33-custom-repository/
/// data-source.ts`, since deleted): the bare name is the file each reader writes, not that copy.
#[test]
fn a_bare_name_whose_one_copy_was_an_examples_is_the_readers_file() {
    let (_dir, root) = new_repo();
    commit(&root, 0, |r| {
        write(r, "NOTES.md", "# notes\n");
        write(r, "sample/sample33-custom-repository/data-source.ts", "export const a = 1;\n");
        write(r, "src/main.ts", "export {};\n");
    });
    git(&root, &["rm", "-q", "-r", "sample"], START + DAY);
    commit(&root, 1, |_| {});
    let got = common::check_as_validate(&Evidence::open(&root).unwrap(), notes(&root), vec![file("data-source.ts")]);
    assert!(
        matches!(&got[0], Outcome::NotChecked { .. }),
        "an example's copy deleted says nothing of the reader's file: {:?}",
        got[0]
    );
}

/// An example's own README naming an example's file: its files are examples too, so history is
/// followed as for any bare name.
#[test]
fn an_examples_readme_still_follows_its_examples_file() {
    let (_dir, root) = new_repo();
    commit(&root, 0, |r| {
        write(r, "examples/store/README.md", "# store\n");
        write(r, "examples/store/main.go", "package main\n");
        write(r, "examples/basic/basic.go", "package basic\n");
    });
    git(&root, &["rm", "-q", "-r", "examples/basic"], START + DAY);
    commit(&root, 1, |_| {});
    let mut memory = notes(&root);
    memory.id = "examples/store/README.md".into();
    memory.source.path = root.join("examples/store/README.md").to_string_lossy().into_owned();
    let got = common::check_as_validate(&Evidence::open(&root).unwrap(), memory, vec![file("basic.go")]);
    let (v, evidence, _) = verdict(&got[0]);
    assert_eq!(v, Verdict::Contradicted, "{evidence}");
    assert!(evidence.contains("examples/basic/basic.go"), "{evidence}");
}
