//! A tool file's text cut as SPEC §2 cuts it, for writing it again: the frontmatter, then the
//! sections at `## ` headings outside fences, each with its prose and its fenced blocks.

/// A fenced block: the words after its opening fence and the lines inside.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    pub info: String,
    pub content: String,
}

/// A part of a section: prose lines, or a fenced block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    Prose(String),
    Fenced(Block),
}

/// Text before the first heading (`title: None`), or one `## ` section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// The heading's words after `## `, trimmed.
    pub title: Option<String>,
    pub parts: Vec<Part>,
}

impl Section {
    /// The scenario's name, when this is a `## Scenario:` section.
    pub fn scenario(&self) -> Option<&str> {
        self.title
            .as_deref()?
            .strip_prefix("Scenario:")
            .map(str::trim)
    }

    /// The blocks whose info string is `info` (`json tool`, `json response`, …), spaces and
    /// tabs between its words as SPEC allows.
    pub fn blocks<'a>(&'a self, info: &'a str) -> impl Iterator<Item = &'a Block> {
        self.parts.iter().filter_map(move |part| match part {
            Part::Fenced(block) if same_info(&block.info, info) => Some(block),
            _ => None,
        })
    }
}

/// Whether a fence's info string is `wanted`, spaces and tabs between its words as SPEC allows.
pub fn same_info(found: &str, wanted: &str) -> bool {
    found.split_whitespace().eq(wanted.split_whitespace())
}

/// The frontmatter (its `---` lines included) and the sections of `text`.
pub fn cut(text: &str) -> (String, Vec<Section>) {
    let mut lines = text.split_inclusive('\n').peekable();
    let mut frontmatter = String::new();
    if lines.peek().is_some_and(|line| line.trim_end() == "---") {
        frontmatter.push_str(lines.next().unwrap_or_default());
        for line in lines.by_ref() {
            frontmatter.push_str(line);
            if line.trim_end() == "---" {
                break;
            }
        }
    }
    let mut sections = vec![Section {
        title: None,
        parts: Vec::new(),
    }];
    let mut fence: Option<Block> = None;
    for line in lines {
        let section = sections.last_mut().expect("there is a section");
        if let Some(block) = fence.as_mut() {
            if line.starts_with("```") {
                section
                    .parts
                    .push(Part::Fenced(fence.take().expect("open")));
            } else {
                block.content.push_str(line);
            }
        } else if let Some(info) = line.strip_prefix("```") {
            fence = Some(Block {
                info: info.trim().to_string(),
                content: String::new(),
            });
        } else if let Some(title) = line.strip_prefix("## ") {
            sections.push(Section {
                title: Some(title.trim().to_string()),
                parts: Vec::new(),
            });
        } else {
            match section.parts.last_mut() {
                Some(Part::Prose(prose)) => prose.push_str(line),
                _ => section.parts.push(Part::Prose(line.to_string())),
            }
        }
    }
    if let Some(block) = fence {
        // A fence never closed holds prose, as far as SPEC's blocks go.
        let section = sections.last_mut().expect("there is a section");
        section
            .parts
            .push(Part::Prose(format!("```{}\n{}", block.info, block.content)));
    }
    (frontmatter, sections)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_split_outside_fences_only() {
        let text = "---\ntool: t\n---\n# t\n\n## Flow\n\n```text\n## not a heading\n```\n\n## Scenario: a\n\nWords.\n\n```json  response\n{}\n```\n";
        let (front, sections) = cut(text);
        assert_eq!(front, "---\ntool: t\n---\n");
        let titles: Vec<_> = sections.iter().map(|s| s.title.as_deref()).collect();
        assert_eq!(titles, [None, Some("Flow"), Some("Scenario: a")]);
        assert_eq!(sections[2].scenario(), Some("a"));
        let block = sections[2].blocks("json response").next().unwrap();
        assert_eq!(block.content, "{}\n");
        assert_eq!(
            sections[1].parts[1],
            Part::Fenced(Block {
                info: "text".into(),
                content: "## not a heading\n".into()
            })
        );
    }
}
