//! Readings found in session 42. A file deleted in the commit that added one of its stem with
//! another extension beside it (`eslint.config.mjs` → `eslint.config.js`, the text rewritten
//! beyond what git calls a rename) was converted there: STALE with that file. A header deleted
//! when its source came in, or a format's successor (`.sln` → `.slnx`), is not. A line cited on
//! a file (`auth/sharing.py:5`) that falls in the body of the function named beside it, or on a
//! decorator right above it, is where the function is: VALID; a line of another function, a line
//! given to the name itself (`sharing_enabled` (L5)) or one the memory says holds the written-out
//! definition is not.

mod common;

use memval_investigator::Evidence;
use memval_proto::{Assertion, Claim, ClaimType, CodeRef, Outcome, Verdict};

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

fn symbol_at(path: &str, symbol: &str, line: u32) -> Claim {
    Claim {
        claim_type: ClaimType::SymbolReference,
        claim_text: format!("`{symbol}` is defined at {path}:{line}"),
        code_refs: vec![CodeRef { symbol: Some(symbol.into()), line: Some(line), ..CodeRef::path(path) }],
        ..common::file_claim(path)
    }
}

#[test]
fn a_line_inside_a_function_or_among_its_decorators_is_where_it_is() {
    let (_guard, root) = common::new_repo();
    let source = "import os\n\n\ndef sharing_enabled():\n    mode = os.environ.get(\"MODE\")\n    return mode == \"docker\"\n\n\n@pytest.mark.xfail(\n    reason=\"delimiter\",\n)\ndef test_concat():\n    assert True\n\n\ndef other():\n    return 1\n";
    common::commit_on_day(&root, 0, |r| {
        common::write(r, "auth/sharing.py", source);
        common::write(r, "NOTES.md", "# notes\n");
    });
    let evidence = Evidence::open(&root).unwrap();
    let memory = common::notes_file(&root, "NOTES.md", common::START + common::DAY);
    // the memory cites the lines on the file (`auth/sharing.py:5` (`sharing_enabled()`))
    let file_line = |line: u32| Claim {
        claim_text: format!("line {line} of `auth/sharing.py` exists"),
        code_refs: vec![CodeRef { line: Some(line), ..CodeRef::path("auth/sharing.py") }],
        ..common::file_claim("auth/sharing.py")
    };
    let claims = vec![
        symbol_at("auth/sharing.py", "sharing_enabled", 5),
        symbol_at("auth/sharing.py", "test_concat", 9),
        symbol_at("auth/sharing.py", "sharing_enabled", 17),
        file_line(5),
        file_line(9),
        file_line(17),
    ];
    let got = common::check_as_validate(&evidence, memory, claims);
    for (i, what) in [(0, "the environment read in its body"), (1, "its decorator")] {
        match &got[i] {
            Outcome::Checked { verdict: Verdict::Valid, evidence, .. } => {
                assert!(evidence.contains("inside"), "{evidence}")
            }
            other => panic!("{what}: {other:?}"),
        }
    }
    // a line of another function is not where it is
    assert!(matches!(&got[2], Outcome::Checked { verdict: Verdict::Stale, .. }), "{:?}", got[2]);
    // "`def sharing_enabled` is on line 5": the memory put the definition on that line, and it
    // is a line up now
    let memory = common::notes_file(&root, "NOTES.md", common::START + common::DAY);
    let written_out = Claim {
        claim_type: ClaimType::FileReference,
        claim_text: "line 5 of auth/sharing.py contains `def sharing_enabled`".into(),
        code_refs: vec![CodeRef { line: Some(5), ..CodeRef::path("auth/sharing.py") }],
        assertion: Some(Assertion::LineText { text: "def sharing_enabled".into() }),
        ..common::file_claim("auth/sharing.py")
    };
    let got = common::check_as_validate(
        &evidence,
        memory,
        vec![written_out, file_line(5), symbol_at("auth/sharing.py", "sharing_enabled", 5)],
    );
    assert!(matches!(&got[2], Outcome::Checked { verdict: Verdict::Stale, .. }), "{:?}", got[2]);
    // "`sharing_enabled` (L5)": the line is the name's, not a place in the file
    let memory = common::notes_file(&root, "NOTES.md", common::START + common::DAY);
    let got = common::check_as_validate(&evidence, memory, vec![symbol_at("auth/sharing.py", "sharing_enabled", 5)]);
    assert!(matches!(&got[0], Outcome::Checked { verdict: Verdict::Stale, .. }), "{:?}", got[0]);
}
