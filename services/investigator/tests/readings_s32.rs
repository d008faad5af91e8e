//! Readings found on fresh25's repositories, each with real git: a source file deleted in the
//! commit that added files of its language in a folder of its name beside it became that folder
//! of modules (tuff's `box-tool/core-box.ts` → `box-tool/core-box/index.ts`); a folder of its
//! name that only gained a README is no such successor.

mod common;

use common::{commit_on_day as commit, new_repo, write, DAY, START};
use memval_investigator::Evidence;
use memval_proto::{Outcome, Verdict};

#[test]
fn a_module_deleted_by_the_commit_that_made_a_folder_of_its_name_became_that_folder() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, "NOTES.md", "notes\n");
        write(r, "src/box/core-box.ts", "export function openBox() {\n  return shortcut('E');\n}\n");
        write(r, "src/box/search.ts", "export function search(q: string) {\n  return q;\n}\n");
    });
    // Day 2, after the memory: `core-box.ts` becomes a folder of modules, rewritten on the way;
    // `search.ts` is deleted in a commit that only gives `search/` a README.
    commit(root, 2, |r| {
        std::fs::remove_file(r.join("src/box/core-box.ts")).unwrap();
        write(r, "src/box/core-box/index.ts", "export { CoreBox } from './module';\n");
        write(r, "src/box/core-box/module.ts", "export class CoreBox {\n  keys = ['Ctrl+E'];\n}\n");
    });
    commit(root, 3, |r| {
        std::fs::remove_file(r.join("src/box/search.ts")).unwrap();
        write(r, "src/box/search/README.md", "Search moved to the server.\n");
    });

    let evidence = Evidence::open(root).unwrap();
    let memory = common::notes_file(root, "NOTES.md", START + DAY);
    let claims = vec![common::file_claim("src/box/core-box.ts"), common::file_claim("src/box/search.ts")];
    let outcomes = common::check_as_validate(&evidence, memory, claims);
    match &outcomes[0] {
        Outcome::Checked { verdict, successor, evidence, .. } => {
            assert_eq!(*verdict, Verdict::Stale, "{evidence}");
            assert_eq!(successor.as_deref(), Some("src/box/core-box/index.ts"), "{evidence}");
            assert!(evidence.contains("became a folder of modules"), "{evidence}");
        }
        other => panic!("the module made a folder: {other:?}"),
    }
    match &outcomes[1] {
        Outcome::Checked { verdict, successor, evidence, .. } => {
            assert_eq!(*verdict, Verdict::Contradicted, "{evidence}");
            assert_eq!(successor.as_deref(), None, "{evidence}");
        }
        other => panic!("the module whose folder holds only prose: {other:?}"),
    }
}
