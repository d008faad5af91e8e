//! Readings found in session 42. A file deleted in the commit that added one of its stem with
//! another extension beside it (`eslint.config.mjs` → `eslint.config.js`, the text rewritten
//! beyond what git calls a rename) was converted there: STALE with that file. A header deleted
//! when its source came in, or a format's successor (`.sln` → `.slnx`), is not.

mod common;

use memval_investigator::Evidence;
use memval_proto::{Outcome, Verdict};

#[test]
fn a_file_converted_to_another_extension_in_the_commit_that_deleted_it_is_stale() {
    let (_guard, root) = common::new_repo();
    common::commit_on_day(&root, 0, |r| {
        common::write(
            r,
            "eslint.config.mjs",
            "import js from '@eslint/js';\nexport default [\n  js.configs.recommended,\n  { rules: { semi: 'error' } },\n];\n",
        );
        common::write(r, "lib/cache.h", "int cache_get(int key);\nint cache_put(int key, int value);\n");
        common::write(
            r,
            "App.sln",
            "Microsoft Visual Studio Solution File, Format Version 12.00\nProject(\"x\") = \"App\"\n",
        );
        common::write(r, "NOTES.md", "# notes\n");
    });
    common::commit_on_day(&root, 5, |r| {
        std::fs::remove_file(r.join("eslint.config.mjs")).unwrap();
        common::write(
            r,
            "eslint.config.js",
            "const globals = require('globals');\nmodule.exports = [\n  { languageOptions: { globals: globals.node } },\n];\n",
        );
        std::fs::remove_file(r.join("lib/cache.h")).unwrap();
        common::write(
            r,
            "lib/cache.c",
            "#include <stdlib.h>\nstatic int table[64];\nint get(int k) { return table[k]; }\n",
        );
        std::fs::remove_file(r.join("App.sln")).unwrap();
        common::write(r, "App.slnx", "<Solution>\n  <Project Path=\"App/App.csproj\" />\n</Solution>\n");
    });
    let evidence = Evidence::open(&root).unwrap();
    let memory = common::notes_file(&root, "NOTES.md", common::START + common::DAY);
    let claims = ["eslint.config.mjs", "lib/cache.h", "App.sln"].map(common::file_claim).to_vec();
    let got = common::check_as_validate(&evidence, memory, claims);
    match &got[0] {
        Outcome::Checked { verdict: Verdict::Stale, evidence, .. } => {
            assert!(evidence.contains("eslint.config.js") && evidence.contains(".js for .mjs"), "{evidence}");
        }
        other => panic!("converted to .js in the commit that deleted it: {other:?}"),
    }
    // a header is not renamed to its source, nor a solution to its format's successor
    for (i, what) in [(1, "header"), (2, "format's successor")] {
        assert!(!matches!(&got[i], Outcome::Checked { verdict: Verdict::Stale, .. }), "{what}: {:?}", got[i]);
    }
}
