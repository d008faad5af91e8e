//! Just enough Markdown for the README checks: fenced code blocks, the prose between them cut
//! into paragraphs, inline code spans, link targets and headings. It reads the subset the
//! project's documents are written in (fences of three backticks at the start of a line, ATX
//! headings, `[text](target)` links); anything else is prose.

/// A fenced code block: the 0-based index of its opening fence line and the lines between
/// the fences.
pub struct Block {
    pub fence_line: usize,
    pub lines: Vec<String>,
}

/// A document split into its code blocks and its prose paragraphs. A paragraph is a run of
/// non-blank prose lines joined with single spaces, so a code span or a reference broken
/// over two lines is read whole.
pub struct Doc {
    pub blocks: Vec<Block>,
    pub paragraphs: Vec<String>,
    /// Headings in order, with the 0-based line each is on; text without the `#` marks.
    pub headings: Vec<(usize, String)>,
    /// Bold leads of paragraphs and list items (`**Store**: ...`, `- **Imports run one
    /// way.** ...`), without their closing `.` or `:`, with their lines: they name sections
    /// too.
    pub leads: Vec<(usize, String)>,
    /// The 0-based line each paragraph starts on, parallel to `paragraphs`.
    pub paragraph_lines: Vec<usize>,
}

fn is_fence(line: &str) -> bool {
    line.trim_start().starts_with("```")
}

impl Doc {
    pub fn parse(text: &str) -> Doc {
        let mut doc =
            Doc { blocks: vec![], paragraphs: vec![], headings: vec![], leads: vec![], paragraph_lines: vec![] };
        let mut block: Option<Block> = None;
        let mut para: Vec<&str> = vec![];
        let mut para_start = 0;
        for (i, line) in text.lines().enumerate() {
            if let Some(b) = block.as_mut() {
                if is_fence(line) {
                    doc.blocks.push(block.take().unwrap());
                } else {
                    b.lines.push(line.to_owned());
                }
                continue;
            }
            if is_fence(line) || line.trim().is_empty() || line.starts_with('#') {
                doc.flush(&mut para, para_start);
            }
            if is_fence(line) {
                block = Some(Block { fence_line: i, lines: vec![] });
            } else if line.starts_with('#') {
                doc.headings.push((i, line.trim_start_matches('#').trim().to_owned()));
            } else if !line.trim().is_empty() {
                if para.is_empty() {
                    para_start = i;
                }
                let item = line.strip_prefix("- ").or_else(|| line.strip_prefix("* "));
                if para.is_empty() || item.is_some() {
                    let start = item.unwrap_or(line);
                    if let Some((lead, _)) = start.strip_prefix("**").and_then(|rest| rest.split_once("**")) {
                        doc.leads.push((i, lead.trim_end_matches(['.', ':']).to_owned()));
                    }
                }
                para.push(line.trim());
            }
        }
        doc.flush(&mut para, para_start);
        doc
    }

    fn flush(&mut self, para: &mut Vec<&str>, start: usize) {
        if !para.is_empty() {
            self.paragraphs.push(para.join(" "));
            self.paragraph_lines.push(start);
            para.clear();
        }
    }

    /// Whether a heading of this document begins with `title` (a reference may leave out a
    /// heading's subtitle: "Check what rules cannot" for "Check what rules cannot: an LLM
    /// investigator"), or a bold paragraph lead is `title`. Gives the line it is on.
    pub fn section(&self, title: &str) -> Option<usize> {
        let heading = self.headings.iter().find(|(_, h)| h.starts_with(title));
        let lead = || self.leads.iter().find(|(_, l)| l == title);
        heading.or_else(lead).map(|(line, _)| *line)
    }

    /// Whether a heading's GitHub anchor (`#run-it-as-a-cluster-nats-jetstream`) is `anchor`.
    pub fn has_anchor(&self, anchor: &str) -> bool {
        self.headings.iter().any(|(_, h)| slug(h) == anchor)
    }
}

/// GitHub's anchor for a heading: lower case, spaces to `-`, punctuation other than `-` and
/// `_` dropped.
pub fn slug(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The inline code spans of a paragraph (single backticks), in order.
pub fn code_spans(paragraph: &str) -> Vec<&str> {
    paragraph.split('`').skip(1).step_by(2).collect()
}

/// The targets of the paragraph's `[text](target)` links, in order.
pub fn link_targets(paragraph: &str) -> Vec<&str> {
    paragraph.split("](").skip(1).filter_map(|rest| rest.split_once(')').map(|(target, _)| target)).collect()
}
