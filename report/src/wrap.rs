//! Text laid out for a terminal of a given width: word wrapping, paragraphs with a hanging
//! indent, and rows of side-by-side columns. A leaf: the table views import it, it imports
//! nothing of the crate.
//!
//! The contract: nothing is ever cut. Text longer than its column goes on to further lines; a
//! word longer than a whole line (a long path) is split after its last `/` that fits, so a path
//! breaks between its folders and its file name and line number stay together. No line this
//! module returns ends in a space.
//!
//! Width is counted in `char`s. The views pass text through `display::one_line` first, which
//! escapes control and bidi characters, so each char is one column except for wide (East
//! Asian) characters, which take two on most terminals and are counted as one here.

/// Columns `text` takes, as this module counts them.
pub(crate) fn width(text: &str) -> usize {
    text.chars().count()
}

/// `text` broken into lines of at most `width` columns (at least 1), at spaces where it can
/// be. The spaces a line is broken at are dropped; other runs of spaces are kept. Always at
/// least one line (an empty one for empty text).
pub(crate) fn wrap(text: &str, width: usize) -> Vec<String> {
    wrap_hanging(text, width, width)
}

/// [`wrap`] with a first line of `first` columns and further lines of `rest`.
fn wrap_hanging(text: &str, first: usize, rest: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let limit = |lines: &Vec<String>| if lines.is_empty() { first } else { rest }.max(1);
    for word in text.split(' ') {
        if line.is_empty() {
            if word.is_empty() && !lines.is_empty() {
                // Spaces at the start of a continuation line would only indent it.
                continue;
            }
        } else if width(&line) + 1 + width(word) <= limit(&lines) {
            line.push(' ');
            line.push_str(word);
            continue;
        } else {
            lines.push(std::mem::take(&mut line));
            if word.is_empty() {
                continue;
            }
        }
        let mut tail = word;
        while width(tail) > limit(&lines) {
            let (head, after) = split_word(tail, limit(&lines));
            lines.push(head.to_owned());
            tail = after;
        }
        line.push_str(tail);
    }
    lines.push(line);
    lines.iter_mut().for_each(|l| l.truncate(l.trim_end().len()));
    lines
}

/// A word longer than `width` split into a first line and the rest: after the last `/` that
/// fits, so a path breaks between folders and keeps its file name and line number together;
/// else at exactly `width` columns.
fn split_word(word: &str, width: usize) -> (&str, &str) {
    let end = word.char_indices().nth(width).map_or(word.len(), |(i, _)| i);
    let at = match word[..end].rfind('/') {
        Some(slash) if slash + 1 < word.len() => slash + 1,
        _ => end,
    };
    word.split_at(at)
}

/// `text` as a paragraph: the first line starts with `first` spaces, every further line with
/// `rest`; with a width, each line holds at most that many columns (never less than 10 for
/// the text itself), and without one the text stays on one line.
pub(crate) fn paragraph(text: &str, width: Option<usize>, first: usize, rest: usize) -> Vec<String> {
    let Some(width) = width else {
        return vec![format!("{:first$}{text}", "").trim_end().to_owned()];
    };
    let lines = wrap_hanging(text, width.saturating_sub(first).max(10), width.saturating_sub(rest).max(10));
    lines
        .into_iter()
        .enumerate()
        .map(|(i, line)| {
            let indent = if i == 0 { first } else { rest };
            format!("{:indent$}{line}", "").trim_end().to_owned()
        })
        .collect()
}

/// One column of a row: its text, and the width it is wrapped to (`None`: not wrapped, for
/// the last column of a view that is not sized to a terminal).
pub(crate) struct Cell<'a> {
    pub text: &'a str,
    pub width: Option<usize>,
}

/// A row of cells side by side after `indent` spaces, two spaces between columns, as many
/// lines as its tallest cell needs. Every cell but the last is padded to its width (a wider
/// unwrapped cell pushes the rest right); no line ends in a space.
pub(crate) fn row(indent: usize, cells: &[Cell<'_>]) -> Vec<String> {
    let wrapped: Vec<Vec<String>> = cells
        .iter()
        .map(|c| match c.width {
            Some(w) => wrap(c.text, w),
            None => vec![c.text.to_owned()],
        })
        .collect();
    let height = wrapped.iter().map(Vec::len).max().unwrap_or(1);
    (0..height)
        .map(|i| {
            let mut line = " ".repeat(indent);
            for (n, (cell, lines)) in cells.iter().zip(&wrapped).enumerate() {
                let text = lines.get(i).map_or("", String::as_str);
                line.push_str(text);
                if n + 1 < cells.len() {
                    let pad = cell.width.unwrap_or(0).saturating_sub(width(text));
                    line.push_str(&" ".repeat(pad + 2));
                }
            }
            line.truncate(line.trim_end().len());
            line
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_at_spaces_and_keeps_every_word() {
        let text = "`ShardedCache` is defined at internal/cache/lru.go:42";
        let lines = wrap(text, 30);
        assert_eq!(lines, ["`ShardedCache` is defined at", "internal/cache/lru.go:42"]);
        assert!(lines.iter().all(|l| width(l) <= 30));
        assert_eq!(wrap(text, 200), [text]);
        assert_eq!(wrap("", 5), [""]);
    }

    #[test]
    fn a_long_path_breaks_after_a_folder_and_keeps_its_line_number() {
        let path = "internal/storage/cache/sharded/lru_eviction_policy.go:412";
        let lines = wrap(path, 40);
        assert_eq!(lines, ["internal/storage/cache/sharded/", "lru_eviction_policy.go:412"]);
        assert_eq!(lines.concat(), path);
        // No slash: cut at the width, nothing lost.
        let word = "x".repeat(25);
        assert_eq!(wrap(&word, 10).concat(), word);
        assert!(wrap(&word, 10).iter().all(|l| width(l) <= 10));
    }

    #[test]
    fn a_row_pads_inner_cells_and_never_ends_in_a_space() {
        let lines = row(
            4,
            &[
                Cell { text: "STALE", width: Some(8) },
                Cell { text: "one two three", width: Some(7) },
                Cell { text: "x", width: Some(5) },
            ],
        );
        assert_eq!(lines, ["    STALE     one two  x", "              three"]);
        let plain = row(0, &[Cell { text: "a", width: Some(3) }, Cell { text: "", width: None }]);
        assert_eq!(plain, ["a"]);
    }

    #[test]
    fn a_paragraph_hangs_its_further_lines() {
        let lines = paragraph("alpha beta gamma delta epsilon zeta", Some(20), 0, 4);
        assert_eq!(lines, ["alpha beta gamma", "    delta epsilon", "    zeta"]);
        assert_eq!(paragraph("a  b ", None, 2, 4), ["  a  b"]);
    }
}
