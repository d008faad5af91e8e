//! Which name took the place of another in one commit: a rename done by substitution (an
//! editor's "rename symbol", a search and replace), found in the commit's own patch even when
//! the definition's body changed too much to be matched by likeness.
//!
//! The commit's patch of code files (no context lines) is read hunk by hunk. Within a hunk the
//! n-th removed line is set against the n-th added line; a pair where the old name is the only
//! identifier the removed line has and the added line lacks, and exactly one identifier is new
//! on the added line, votes for that identifier. The answer is the name with the most votes, when
//! it has at least [`MIN_VOTES`] and more than half of the removed lines that held the old name.

use std::collections::{BTreeSet, HashMap};

use crate::name_log::identifiers;

/// The fewest lines that must agree on a successor.
pub const MIN_VOTES: usize = 2;

/// What one commit's patch says replaced `name`: the new name, the lines that agree, and the
/// removed lines that held `name`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Substitution {
    pub name: String,
    pub votes: usize,
    pub lines: usize,
}

/// The substitution a `git show -U0` patch shows for `name`, if one name took its place on most
/// of the lines that lost it.
pub(crate) fn substitution(patch: &str, name: &str) -> Option<Substitution> {
    let mut votes: HashMap<String, usize> = HashMap::new();
    let mut lines = 0;
    let (mut removed, mut added): (Vec<&str>, Vec<&str>) = (Vec::new(), Vec::new());
    let mut count = |removed: &mut Vec<&str>, added: &mut Vec<&str>| {
        for (i, old) in removed.iter().enumerate() {
            let had: BTreeSet<&str> = identifiers(old).collect();
            if !had.contains(name) {
                continue;
            }
            lines += 1;
            let Some(new) = added.get(i) else { continue };
            let has: BTreeSet<&str> = identifiers(new).collect();
            let lost: Vec<&&str> = had.difference(&has).collect();
            let gained: Vec<&&str> = has.difference(&had).collect();
            if let ([gone], [came]) = (lost.as_slice(), gained.as_slice()) {
                if **gone == name {
                    *votes.entry((**came).to_owned()).or_default() += 1;
                }
            }
        }
        removed.clear();
        added.clear();
    };
    let mut in_header = true;
    for line in patch.lines() {
        if line.starts_with("diff --git ") {
            count(&mut removed, &mut added);
            in_header = true;
        } else if line.starts_with("@@") {
            count(&mut removed, &mut added);
            in_header = false;
        } else if in_header {
            continue;
        } else if let Some(text) = line.strip_prefix('-') {
            removed.push(text);
        } else if let Some(text) = line.strip_prefix('+') {
            added.push(text);
        }
    }
    count(&mut removed, &mut added);
    let (best, n) = votes.into_iter().max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(&a.0)))?;
    (n >= MIN_VOTES && n * 2 > lines).then_some(Substitution { name: best, votes: n, lines })
}

#[cfg(test)]
mod tests {
    use super::*;

    const RENAME: &str = "\
diff --git a/src/client.ts b/src/client.ts
--- a/src/client.ts
+++ b/src/client.ts
@@ -1,2 +1,4 @@
-export interface IAssistantClient {
-  send(text: string): void;
+export interface IAgentProvider {
+  stream(text: string, signal: AbortSignal): AsyncIterable<string>;
+  close(): void;
+}
diff --git a/src/app.ts b/src/app.ts
--- a/src/app.ts
+++ b/src/app.ts
@@ -3 +3 @@
-const client: IAssistantClient = make();
+const client: IAgentProvider = make();
@@ -9 +9 @@
-function use(c: IAssistantClient) {}
+function use(c: IAgentProvider) {}
";

    #[test]
    fn the_name_that_replaced_it_on_most_lines_is_found() {
        let found = substitution(RENAME, "IAssistantClient").unwrap();
        assert_eq!(found, Substitution { name: "IAgentProvider".into(), votes: 3, lines: 3 });
        assert_eq!(substitution(RENAME, "send"), None, "send was removed, nothing took its place");
        assert_eq!(substitution(RENAME, "client"), None, "on no changed line lost");
    }

    #[test]
    fn one_line_or_a_minority_is_not_a_rename() {
        let one = "@@ -1 +1 @@\n-let a = old_name();\n+let a = new_name();\n";
        assert_eq!(substitution(one, "old_name"), None);
        let split =
            "@@ -1,3 +1,3 @@\n-old_name(1);\n-old_name(2);\n-old_name(3);\n+first(1);\n+second(2);\n+third(3);\n";
        assert_eq!(substitution(split, "old_name"), None, "three names, one vote each");
    }
}
