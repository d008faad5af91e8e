//! Readings found in session 36, with history: a member the memory names that left a C# page
//! (`TranslationPage.cs`, deleted) but is defined today in a Razor component's `@code` block
//! (SentenceStudio's `SetCurrentSentence`, `TurnsPerRound`) is defined, not "removed"; a name a
//! Vue component's script defines only in an object (`methods: { ... }`) is not called
//! undefined; and a build script rewritten in another dialect in the commit that deleted it
//! (klaviyo's `sample/build.gradle` → `sample/build.gradle.kts`) is STALE to its rewrite. A Razor
//! page's markup and comments (`@* Danger Zone *@`) are no use of a name the code lost.

mod common;

use memval_investigator::Evidence;
use memval_proto::{Claim, ClaimType, CodeRef, Outcome, Verdict};

fn symbol(path: &str, symbol: &str) -> Claim {
    Claim {
        claim_type: ClaimType::SymbolReference,
        claim_text: format!("`{symbol}` is defined in `{path}`"),
        line: 1,
        lines: vec![1],
        code_refs: vec![CodeRef { symbol: Some(symbol.into()), ..CodeRef::path(path) }],
        assertion: None,
    }
}

fn check_all(root: &std::path::Path, claims: &[Claim]) -> Vec<Outcome> {
    let evidence = Evidence::open(root).unwrap();
    let memory = common::notes_file(root, "docs/notes.md", common::START + 40 * common::DAY);
    common::check_as_validate(&evidence, memory, claims.to_vec())
}

const RAZOR_PAGE: &str = "@page \"/translation\"\n@inject ITranslationService Translations\n\n<h1>Translate</h1>\n<button @onclick=\"Next\">Next</button>\n\n@code {\n    private const int TurnsPerRound = 10;\n    private string sentence = \"{\";\n\n    private void SetCurrentSentence(int index)\n    {\n        sentence = index.ToString();\n    }\n}\n";

#[test]
fn a_member_of_a_razor_component_is_defined_there() {
    let (_guard, root) = common::new_repo();
    common::commit_on_day(&root, 0, |r| {
        common::write(
            r,
            "src/App/Pages/TranslationPage.cs",
            "namespace App;\n\npublic class TranslationPage\n{\n    public void SetCurrentSentence(int i) { }\n    const int TurnsPerRound = 8;\n}\n",
        );
        common::write(r, "docs/notes.md", "notes\n");
    });
    common::commit_on_day(&root, 30, |r| {
        std::fs::remove_file(r.join("src/App/Pages/TranslationPage.cs")).unwrap();
        common::write(r, "src/App.UI/Pages/Translation.razor", RAZOR_PAGE);
    });
    let got = check_all(
        &root,
        &[
            symbol(".", "SetCurrentSentence"),
            symbol(".", "TurnsPerRound"),
            symbol(".", "Translation.SetCurrentSentence"),
        ],
    );
    for (i, outcome) in got.iter().enumerate() {
        match outcome {
            // Found as its definition, not as a use of some dependency's name.
            Outcome::Checked { verdict: Verdict::Valid, evidence, .. } => assert!(
                evidence.contains("src/App.UI/Pages/Translation.razor:") && evidence.contains("is defined here"),
                "claim {i}: {evidence}"
            ),
            other => panic!("claim {i} is defined in the Razor page: {other:?}"),
        }
    }
}

#[test]
fn a_vue_member_read_only_in_an_object_is_not_called_undefined() {
    let (_guard, root) = common::new_repo();
    common::commit_on_day(&root, 0, |r| {
        common::write(
            r,
            "src/components/UserList.vue",
            "<template>\n  <ul @click=\"fetchUsers\"></ul>\n</template>\n<script>\nexport default {\n  methods: {\n    fetchUsers() {\n      return []\n    }\n  }\n}\n</script>\n",
        );
        common::write(r, "docs/notes.md", "notes\n");
    });
    let got = check_all(&root, &[symbol("src/components/UserList.vue", "fetchUsers")]);
    assert!(
        !matches!(
            &got[0],
            Outcome::Checked { verdict: Verdict::Contradicted | Verdict::Stale | Verdict::Ambiguous, .. }
        ),
        "{:?}",
        got[0]
    );
}

#[test]
fn a_build_script_rewritten_in_another_dialect_is_stale_to_it() {
    let (_guard, root) = common::new_repo();
    common::commit_on_day(&root, 0, |r| {
        common::write(
            r,
            "sample/build.gradle",
            "plugins {\n    id 'com.android.application'\n}\nandroid {\n    compileSdk 34\n}\n",
        );
        common::write(r, "docs/notes.md", "notes\n");
    });
    // The Kotlin DSL conversion: the Groovy script goes, its Kotlin twin comes, in one commit.
    common::commit_on_day(&root, 30, |r| {
        std::fs::remove_file(r.join("sample/build.gradle")).unwrap();
        common::write(
            r,
            "sample/build.gradle.kts",
            "plugins {\n    id(\"com.android.application\")\n}\nandroid {\n    compileSdk = 34\n    namespace = \"x\"\n}\n",
        );
    });
    let got = check_all(&root, &[common::file_claim("sample/build.gradle")]);
    match &got[0] {
        Outcome::Checked { verdict: Verdict::Stale, successor, .. } => {
            assert_eq!(successor.as_deref(), Some("sample/build.gradle.kts"))
        }
        other => panic!("the script was rewritten as sample/build.gradle.kts: {other:?}"),
    }
}

#[test]
fn a_name_in_a_razor_page_s_markup_is_no_use_of_code() {
    let (_guard, root) = common::new_repo();
    common::commit_on_day(&root, 0, |r| {
        common::write(
            r,
            "src/App/Resources/Styles/ApplicationTheme.cs",
            "namespace App;\n\npublic static class ApplicationTheme\n{\n    public static string Danger = \"#ff0000\";\n}\n",
        );
        common::write(r, "src/App.UI/Pages/Profile.razor", "@page \"/profile\"\n<h1>Profile</h1>\n");
        common::write(r, "docs/notes.md", "notes\n");
    });
    // The theme class goes; a page's Razor comment has the same word.
    common::commit_on_day(&root, 30, |r| {
        std::fs::remove_file(r.join("src/App/Resources/Styles/ApplicationTheme.cs")).unwrap();
        common::write(
            r,
            "src/App.UI/Pages/Profile.razor",
            "@page \"/profile\"\n<h1>Profile</h1>\n@* Danger Zone *@\n<div class=\"card border-danger\">\n<button>Delete</button>\n</div>\n@code {\n    private int count;\n}\n",
        );
    });
    let got = check_all(&root, &[symbol(".", "Danger")]);
    assert!(
        !matches!(&got[0], Outcome::Checked { verdict: Verdict::Valid, .. }),
        "Danger left the code; the page only writes the word: {:?}",
        got[0]
    );
}
