//! The width a table view is sized to (`memval_report::to_table`): the terminal's when stdout
//! is one, else `COLUMNS` when the environment holds a number (as the help reads it), else
//! none, and the table is as wide as its content. Output written to a file (`-o`) has no
//! width. A leaf: it imports nothing of the binary.

use std::io::IsTerminal;

/// The width a table written to stdout is sized to, or `None` (see the module doc).
pub fn table_width() -> Option<usize> {
    if std::io::stdout().is_terminal() {
        if let Some((terminal_size::Width(w), _)) = terminal_size::terminal_size() {
            return Some(usize::from(w));
        }
    }
    columns(std::env::var("COLUMNS").ok().as_deref())
}

/// `COLUMNS`'s value as a width: a positive number, else none.
fn columns(value: Option<&str>) -> Option<usize> {
    value?.trim().parse::<usize>().ok().filter(|w| *w > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_is_a_positive_number_or_nothing() {
        assert_eq!(columns(Some("120")), Some(120));
        assert_eq!(columns(Some(" 80\n")), Some(80));
        assert_eq!(columns(Some("0")), None);
        assert_eq!(columns(Some("wide")), None);
        assert_eq!(columns(None), None);
    }
}
