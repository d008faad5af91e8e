//! What the table and Markdown views say about claims folded into another claim's row
//! (`fold.rs`): which claims a row shows besides its own, the words for such a second reading,
//! and the summary's count, which names the rows shown and the claims they cover so it never
//! disagrees with the JSON's counts. The texts returned here are raw: each view makes them inert
//! as it does every other field.

use crate::model::{ClaimReport, MemoryReport, Report};

/// For each of `memory`'s claims, in order, the claims folded into its row (none for most).
pub(crate) fn folded_under(memory: &MemoryReport) -> Vec<Vec<&ClaimReport>> {
    let mut under: Vec<Vec<&ClaimReport>> = vec![Vec::new(); memory.claims.len()];
    for claim in &memory.claims {
        if let Some(slot) = claim.folded_into.and_then(|i| under.get_mut(i)) {
            slot.push(claim);
        }
    }
    under
}

/// The second reading a row shows: the folded claim's type, its own verdict and confidence,
/// which rest on the row's evidence (what the sentence says the code does was not checked: the
/// verdict came from its references alone), and its text.
pub(crate) fn also_read_as(claim: &ClaimReport) -> String {
    let article = if claim.claim_type.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    format!(
        "also read as {article} {} claim ({} {} on the same evidence; behaviour not checked): {}",
        claim.claim_type, claim.verdict, claim.confidence, claim.claim_text
    )
}

/// The summary's count before the verdicts: `11 claims` when every claim has a row, else
/// `10 findings shown for 11 claims (1 folded …); by claim`, the verdict counts that follow
/// being per claim as in the JSON.
pub(crate) fn claims_counted(report: &Report) -> String {
    let folded = report.memories.iter().flat_map(|m| &m.claims).filter(|c| c.folded_into.is_some()).count();
    let claims = report.run.claims;
    if folded == 0 {
        return counted(claims, "claim", "claims");
    }
    format!(
        "{} shown for {} ({folded} folded into another claim's row: same reference and evidence); by claim",
        counted(claims - folded, "finding", "findings"),
        counted(claims, "claim", "claims")
    )
}

/// `n` and the noun in its number: "1 memory", "2 memories".
pub(crate) fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
