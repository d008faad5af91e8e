//! Readings found on fresh26's repositories, each with real git: a method renamed in its file
//! (OPC UA's `WithAuthorizationService` → `AddAuthorizationService`), the file moved by a new
//! layout a week later, is STALE to the new name: the rename is read where the file was.

mod common;

use common::{commit_on_day as commit, new_repo, write, DAY, START};
use memval_investigator::Evidence;
use memval_proto::{Claim, ClaimType, CodeRef, Outcome, Verdict};

fn defined_in_repo(symbol: &str) -> Claim {
    Claim {
        claim_type: ClaimType::SymbolReference,
        claim_text: format!("`{symbol}` is defined in the repo"),
        line: 1,
        lines: vec![1],
        code_refs: vec![CodeRef { symbol: Some(symbol.into()), ..CodeRef::path(".") }],
        assertion: None,
    }
}

/// Asserts `outcome` is STALE with `successor` (`what` names the case in a failure).
fn assert_stale_to(outcome: &Outcome, successor: &str, what: &str) {
    match outcome {
        Outcome::Checked { verdict, successor: got, evidence, .. } => {
            assert_eq!(*verdict, Verdict::Stale, "{what}: {evidence}");
            assert_eq!(got.as_deref(), Some(successor), "{what}: {evidence}");
        }
        other => panic!("{what}: {other:?}"),
    }
}

const WITH: &str = "namespace Gds
{
    public static class GdsServerBuilderExtensions
    {
        public static IGdsServerBuilder WithAuthorizationService(
            this IGdsServerBuilder gdsBuilder,
            Action<AuthorizationOptions> configure = null)
        {
            return WithAuthorizationService<CertificateJwtIssuer>(gdsBuilder, configure);
        }

        public static IGdsServerBuilder WithAuthorizationService<
            TIssuer>(this IGdsServerBuilder gdsBuilder, Action<AuthorizationOptions> configure = null)
            where TIssuer : class, ITokenIssuer
        {
            var options = new AuthorizationOptions();
            configure?.Invoke(options);
            gdsBuilder.Services.AddSingleton<ITokenIssuer, TIssuer>();
            gdsBuilder.Services.AddSingleton(options);
            return gdsBuilder;
        }
    }
}
";

#[test]
fn a_method_renamed_in_a_file_moved_later_is_stale_to_its_new_name() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, "NOTES.md", "notes\n");
        write(r, "src/Gds/GdsServerBuilderExtensions.cs", WITH);
    });
    // Day 2, after the memory: the method is renamed with its overload, and the commit adds
    // other builder methods elsewhere.
    commit(root, 2, |r| {
        write(
            r,
            "src/Gds/GdsServerBuilderExtensions.cs",
            &WITH.replace("WithAuthorizationService", "AddAuthorizationService"),
        );
        write(
            r,
            "src/Gds/GdsClientBuilderExtensions.cs",
            "namespace Gds\n{\n    public static class GdsClientBuilderExtensions\n    {\n        public static IGdsClientBuilder AddAuthorizationServiceClient(this IGdsClientBuilder builder)\n        {\n            return builder;\n        }\n    }\n}\n",
        );
    });
    // Day 3: a new layout moves the file; the rename is in its history at the old path.
    commit(root, 3, |r| {
        let text = std::fs::read_to_string(r.join("src/Gds/GdsServerBuilderExtensions.cs")).unwrap();
        std::fs::remove_file(r.join("src/Gds/GdsServerBuilderExtensions.cs")).unwrap();
        write(r, "libraries/Gds.Server/Hosting/GdsServerBuilderExtensions.cs", &text);
    });

    let evidence = Evidence::open(root).unwrap();
    let memory = common::notes_file(root, "NOTES.md", START + DAY);
    assert_stale_to(
        &common::check_as_validate(&evidence, memory, vec![defined_in_repo("WithAuthorizationService")])[0],
        "AddAuthorizationService",
        "the renamed extension method",
    );
}

const SOURCES: &str = "from enum import StrEnum


class OptionsSource(StrEnum):
    agent_tools = \"agent_tools\"
    vars_llm_node = \"vars_llm_node\"
    vars_router_node = \"vars_router_node\"
    jinja_node = \"jinja_node\"
    voices = \"voices\"
";

const NODES: &str = "from base import OptionsSource


def fields():
    picked = Field(options_source=OptionsSource.agent_tools)
    prompt = Field(options_source=OptionsSource.jinja_node)
    other = Field(options_source=OptionsSource.vars_llm_node)
    route = Field(options_source=OptionsSource.vars_router_node)
    return [picked, prompt, other, route]
";

#[test]
fn enum_members_renamed_together_are_stale_each_to_its_own_new_name() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, "NOTES.md", "notes\n");
        write(r, "apps/base.py", SOURCES);
        write(r, "apps/nodes.py", NODES);
    });
    // Day 2, after the memory: four members renamed in one commit, their uses with them.
    let renamed = |text: &str| {
        text.replace("agent_tools", "tools")
            .replace("vars_llm_node", "llm_prompt_variables")
            .replace("vars_router_node", "router_prompt_variables")
            .replace("jinja_node", "template_variables")
    };
    commit(root, 2, |r| {
        write(r, "apps/base.py", &renamed(SOURCES));
        write(r, "apps/nodes.py", &renamed(NODES));
    });

    let evidence = Evidence::open(root).unwrap();
    let memory = common::notes_file(root, "NOTES.md", START + DAY);
    let outcomes = common::check_as_validate(
        &evidence,
        memory,
        vec![defined_in_repo("agent_tools"), defined_in_repo("jinja_node")],
    );
    for (outcome, new) in outcomes.iter().zip(["tools", "template_variables"]) {
        assert_stale_to(outcome, new, "the renamed member");
    }
}

#[test]
fn members_renamed_together_that_nothing_tells_apart_are_ambiguous_naming_them() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, "NOTES.md", "notes\n");
        write(r, "apps/base.py", SOURCES);
    });
    // Day 2: the members are renamed and nothing uses them, so no patch line pairs the names.
    commit(root, 2, |r| {
        let renamed = SOURCES.replace("agent_tools", "tools").replace("jinja_node", "template_variables");
        write(r, "apps/base.py", &renamed);
    });

    let evidence = Evidence::open(root).unwrap();
    let memory = common::notes_file(root, "NOTES.md", START + DAY);
    match &common::check_as_validate(&evidence, memory, vec![defined_in_repo("agent_tools")])[0] {
        Outcome::Checked { verdict, successor, evidence, .. } => {
            assert_eq!(*verdict, Verdict::Ambiguous, "{evidence}");
            assert_eq!(successor.as_deref(), None, "{evidence}");
            assert!(evidence.contains("tools") && evidence.contains("template_variables"), "{evidence}");
        }
        other => panic!("the renamed member: {other:?}"),
    }
}

#[test]
fn a_property_whose_unit_went_into_its_type_is_stale_to_the_shorter_name() {
    let (_dir, root) = new_repo();
    let root = &root;
    let options = "package org.example.provider\n\ndata class ProviderOptions(\n    val endpoint: String,\n    val pollingIntervalInMillis: Long = 300000,\n    val timeout: Long = 10000,\n)\n";
    commit(root, 0, |r| {
        write(r, "NOTES.md", "notes\n");
        write(r, "src/main/kotlin/ProviderOptions.kt", options);
    });
    // Day 2: the interval becomes a Duration and loses its unit from the name.
    commit(root, 2, |r| {
        let now =
            options.replace("val pollingIntervalInMillis: Long = 300000", "val pollingInterval: Duration = 5.minutes");
        write(r, "src/main/kotlin/ProviderOptions.kt", &now);
    });

    let evidence = Evidence::open(root).unwrap();
    let memory = common::notes_file(root, "NOTES.md", START + DAY);
    assert_stale_to(
        &common::check_as_validate(&evidence, memory, vec![defined_in_repo("pollingIntervalInMillis")])[0],
        "pollingInterval",
        "the renamed property",
    );
}

fn joined(path: &str, written: &str) -> Claim {
    Claim {
        claim_type: ClaimType::FileReference,
        claim_text: format!("`{written}` exists at {path}"),
        line: 1,
        lines: vec![1],
        code_refs: vec![CodeRef { written: Some(written.into()), ..CodeRef::path(path) }],
        assertion: None,
    }
}

#[test]
fn a_bare_name_joined_onto_the_package_a_skill_describes_is_the_one_file_of_that_name_in_it() {
    let (_dir, root) = new_repo();
    let root = &root;
    commit(root, 0, |r| {
        write(r, ".agents/skills/mobile/SKILL.md", "skill\n");
        write(r, "web/mobile/src/pages/_app.tsx", "export default function App() {}\n");
        write(r, "web/mobile/src/styles/globals.css", "body {}\n");
        write(r, "web/mobile/src/lib/cn.ts", "export const cn = 1;\n");
        write(r, "web/oss/src/pages/_app.tsx", "export default function App() {}\n");
        write(r, "web/oss/src/lib/a.ts", "export const a = 1;\n");
        write(r, "web/oss/src/lib/b.ts", "export const b = 1;\n");
    });
    let evidence = Evidence::open(root).unwrap();
    let memory = common::notes_file(root, ".agents/skills/mobile/SKILL.md", START + DAY);
    let claims = vec![
        joined("web/mobile/_app.tsx", "_app.tsx"),
        joined("web/mobile/globals.css", "globals.css"),
        joined("web/mobile/lib", "lib/"),
        // a full path the memory wrote itself is not read deeper
        joined("web/pages/_app.tsx", "web/pages/_app.tsx"),
    ];
    let outcomes = common::check_as_validate(&evidence, memory, claims);
    for (outcome, at) in outcomes[..3].iter().zip([
        "web/mobile/src/pages/_app.tsx",
        "web/mobile/src/styles/globals.css",
        "web/mobile/src/lib",
    ]) {
        match outcome {
            Outcome::Checked { verdict, evidence, .. } => {
                assert_eq!(*verdict, Verdict::Valid, "{evidence}");
                assert!(evidence.starts_with(at), "{evidence}");
            }
            other => panic!("the bare name under the package: {other:?}"),
        }
    }
    assert!(
        !matches!(&outcomes[3], Outcome::Checked { verdict: Verdict::Valid, .. }),
        "a written full path that was never there: {:?}",
        outcomes[3]
    );
}

/// A folder deleted on one line of history while another line moved it away and back, the
/// two merged: replayed by time, its files' renames run past their deletion and end where the
/// tree has nothing. Git had the folder, so it is gone, not "never in the repository"
/// (WrenAI's `wren-launcher/`, deleted on a branch merged after an import into `core/` and
/// its revert on the main line).
#[test]
fn a_folder_deleted_on_a_merged_line_while_moved_and_back_on_another_is_gone() {
    let (_dir, root) = new_repo();
    let root = &root;
    let git = |args: &[&str], day: i64| common::git(root, args, START + day * DAY);
    commit(root, 0, |r| {
        write(r, "NOTES.md", "notes\n");
        write(r, "launcher/main.go", "package main\n\nfunc main() {}\n");
        write(r, "launcher/Makefile", "build:\n\tgo build\n");
        write(r, "app/app.py", "print(1)\n");
    });
    // A branch deletes the launcher (day 2) ...
    git(&["checkout", "-q", "-b", "cleanup"], 2);
    commit(root, 2, |r| std::fs::remove_dir_all(r.join("launcher")).unwrap());
    // ... while the main line moves it into core/ and back (days 3 and 4) ...
    git(&["checkout", "-q", "main"], 3);
    git(&["mv", "launcher", "core"], 3);
    git(&["commit", "-q", "-m", "import into core"], 3);
    git(&["mv", "core", "launcher"], 4);
    git(&["commit", "-q", "-m", "revert the import"], 4);
    // ... and takes the branch, deletion and all (day 5).
    git(&["merge", "-q", "--no-ff", "-X", "theirs", "-m", "merge cleanup", "cleanup"], 5);
    if root.join("launcher").exists() {
        git(&["rm", "-r", "-q", "launcher"], 5);
        git(&["commit", "-q", "--amend", "--no-edit"], 5);
    }
    assert!(!root.join("launcher").exists());

    let evidence = Evidence::open(root).unwrap();
    let memory = common::notes_file(root, "NOTES.md", START + DAY);
    match &common::check_as_validate(&evidence, memory, vec![common::file_claim("launcher/")])[0] {
        Outcome::Checked { verdict, evidence, .. } => {
            assert_eq!(*verdict, Verdict::Contradicted, "{evidence}");
            assert!(!evidence.contains("never"), "{evidence}");
        }
        other => panic!("the folder merged away: {other:?}"),
    }
}

#[test]
fn a_constant_renamed_with_a_word_between_its_words_is_stale_to_the_new_name() {
    let (_dir, root) = new_repo();
    let root = &root;
    let model = "class Project < ApplicationRecord\n  STATUS_CHOICE = %w[? Met Unmet].freeze\n  STATUS_CHOICE_NA = (STATUS_CHOICE + %w[N/A]).freeze\n\n  def badge\n    :in_progress\n  end\nend\n";
    commit(root, 0, |r| {
        write(r, "NOTES.md", "notes\n");
        write(r, "app/models/project.rb", model);
    });
    // Day 2: the constant is renamed, and given another value on the way.
    commit(root, 2, |r| {
        let now = model.replace(
            "STATUS_CHOICE_NA = (STATUS_CHOICE + %w[N/A]).freeze",
            "STATUS_CHOICE_WITH_NA = %i[unknown met unmet na].freeze",
        );
        write(r, "app/models/project.rb", &now);
    });

    let evidence = Evidence::open(root).unwrap();
    let memory = common::notes_file(root, "NOTES.md", START + DAY);
    assert_stale_to(
        &common::check_as_validate(&evidence, memory, vec![defined_in_repo("STATUS_CHOICE_NA")])[0],
        "STATUS_CHOICE_WITH_NA",
        "the renamed constant",
    );
}
