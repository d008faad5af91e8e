//! `action.yml` (the composite GitHub Action) and `examples/memval-workflow.yml` (a workflow
//! that uses it as `uses: ./`) under the real `actionlint` from the venv of
//! `scripts/pytools.sh`. actionlint lints workflows and, through a local `uses: ./`, the
//! action's metadata: its inputs and outputs as the workflow uses them.

#[allow(dead_code)] // not every helper is used here
mod support;

use std::process::{Command, Output};

use support::{venv, workspace};

/// actionlint on a scratch repo holding `action.yml` and `workflow` as its only workflow.
fn lint(workflow: &str) -> Output {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(workspace().join("action.yml"), dir.path().join("action.yml")).unwrap();
    let workflows = dir.path().join(".github/workflows");
    std::fs::create_dir_all(&workflows).unwrap();
    std::fs::write(workflows.join("memval.yml"), workflow).unwrap();
    // actionlint finds the project by its .git folder.
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    Command::new(venv::tool("actionlint"))
        .args(["-no-color", ".github/workflows/memval.yml"])
        .current_dir(dir.path())
        .output()
        .expect("actionlint runs")
}

fn said(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

#[test]
fn the_action_and_its_example_workflow_lint_clean() {
    let workflow = std::fs::read_to_string(workspace().join("examples/memval-workflow.yml")).unwrap();
    let out = lint(&workflow);
    assert!(out.status.success(), "actionlint found problems:\n{}", said(&out));
}

#[test]
fn actionlint_reads_the_actions_inputs() {
    // The same workflow with an input action.yml does not declare: if actionlint did not read
    // action.yml, this would pass too and the test above would prove nothing about it.
    let workflow = std::fs::read_to_string(workspace().join("examples/memval-workflow.yml")).unwrap();
    let broken = workflow.replace("fail-on: stale", "fail-on: stale\n          no-such-input: x");
    assert_ne!(broken, workflow);
    let out = lint(&broken);
    let text = said(&out);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("no-such-input") && text.contains("not defined"), "{text}");
}
