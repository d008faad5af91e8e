//! The rule extractor on generated hostile text: never a panic, never slow.

use std::time::Duration;

use memval_proto::{Memory, Source};

fn memory(text: &str, context_dir: Option<&str>) -> Memory {
    Memory {
        id: "fuzz".into(),
        agent: "fuzz".into(),
        content: text.into(),
        tier: 1,
        kind: "notes".into(),
        created_at: None,
        updated_at: None,
        source: Source { path: "docs/CLAUDE.md".into(), line: None, row: None, format: "notes".into() },
        context_dir: context_dir.map(str::to_string),
        first_line: 1,
    }
}

#[test]
fn extract_never_panics_and_stays_fast() {
    let failures = memval_fuzz::run("extractor", memval_fuzz::case_count(10_000), Duration::from_secs(2), |text| {
        // Half the inputs as a notes file in `docs/` (relative paths resolved against it).
        let dir = (text.len() % 2 == 0).then_some("docs");
        let out = memval_extractor::extract(&memory(text, dir));
        if let Some(reason) =
            out.skip_reason.as_deref().filter(|r| r.starts_with(memval_extractor::INTERNAL_ERROR_REASON))
        {
            panic!("{reason}");
        }
        // Every claim names a line inside the memory.
        let lines = text.split('\n').count() as u32 + 1;
        for c in &out.claims {
            assert!(c.line <= lines, "claim line {} past the memory's {} lines", c.line, lines);
        }
    });
    memval_fuzz::assert_none(&failures);
}
