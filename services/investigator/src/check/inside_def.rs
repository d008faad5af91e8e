//! A line cited on a file that falls inside a function the text names beside it.
//! "`auth/sharing.py:76` (`sharing_enabled()`)" often points at the line in the function the text is about (the environment read at 76 of a
//! function defined at 73), and a test's `file.py:766` at the marker decorating the test whose
//! `def` is at 772. Such a citation is right about where the function is: a line in the
//! function's body, or a decorator or attribute right above its first line. A line given to the
//! name itself (`` `parse_mantissa` (L22) ``) stays the definition's line, whose move is drift. Only functions and methods: a type's span is too long for a line inside it to say
//! which member the text meant. Not where the memory writes the definition out on that line
//! ("`fn main` is on line 12 of `src/main.rs`"): there the line is the definition's, and a
//! definition one line up moved.

use crate::symbols::Def;

use super::anywhere::FUNCTION_KINDS;
use super::Checker;

/// How many lines above a definition its decorators and comments may reach.
const ABOVE: u32 = 12;

impl Checker<'_> {
    /// Whether `line` of `path` lies inside the function `def`: in its body, or among the
    /// decorators, attributes and comments right above its first line.
    pub(super) fn line_inside_def(&self, path: &str, def: &Def, line: u32) -> bool {
        // "`fn main` is on line 12": the memory put the definition itself on that line; and
        // "`parse_mantissa` (L22)" gives the line to the name: there a line off the definition
        // is drift. Only a line cited on the file (`auth/sharing.py:76`) may be one inside it.
        if !FUNCTION_KINDS.contains(&def.kind)
            || self.context.declared_at(path, line)
            || !self.context.file_line_at(path, line)
        {
            return false;
        }
        if line > def.line && line <= def.end_line {
            return true;
        }
        if line >= def.line || def.line - line > ABOVE {
            return false;
        }
        // Above the definition: the cited line is a decorator or attribute of it.
        let Some(text) = self.index.read_text(path) else { return false };
        let lines: Vec<&str> = text.lines().collect();
        let (from, to) = (line as usize - 1, def.line as usize - 1);
        let marker = |l: &str| l.trim_start().starts_with('@') || l.trim_start().starts_with("#[");
        to <= lines.len() && marker(lines[from]) && lines[from..to].iter().all(|l| decorating(l))
    }
}

/// A line that may sit between a decorator and the definition it decorates: a decorator or
/// attribute, a comment, a blank line, or a decorator's arguments running on (indented, or a
/// closing bracket).
fn decorating(line: &str) -> bool {
    let t = line.trim_start();
    t.is_empty()
        || t.starts_with('@')
        || t.starts_with("#[")
        || t.starts_with('#')
        || t.starts_with("//")
        || t.starts_with(')')
        || t.starts_with(']')
        || line.starts_with([' ', '\t']) && !t.starts_with("def ") && !t.starts_with("class ")
}

#[cfg(test)]
mod tests {
    use super::decorating;

    #[test]
    fn what_may_stand_between_a_decorator_and_its_definition() {
        assert!(decorating("    @pytest.mark.xfail("));
        assert!(decorating("        reason=\"delimiter mismatch\","));
        assert!(decorating("    )"));
        assert!(decorating("#[test]"));
        assert!(!decorating("def other():"));
        assert!(!decorating("x = 1"));
    }
}
