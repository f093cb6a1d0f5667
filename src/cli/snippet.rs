//! A problem shown as rustc and ruff show theirs: the message, then the offending line of the
//! file with its neighbours and a caret under it.

use annotate_snippets::renderer::DecorStyle;
use annotate_snippets::{AnnotationKind, Level, Origin, Renderer, Snippet};

use crate::cli::printable::{printable, printable_lines};
use crate::engine::Diagnostic;

/// Lines shown on each side of the offending one.
const CONTEXT: usize = 2;

/// `source` is the file's text when it could be read; without it (or for a problem of the
/// whole file, line 0) only the place is shown. The title, the path and the quoted lines are
/// escaped for the terminal (a tool file can hold any bytes).
pub fn render(diagnostic: &Diagnostic, source: Option<&str>, colour: bool) -> String {
    let title = match &diagnostic.scenario {
        Some(name) => format!("scenario \"{name}\": {}", diagnostic.message),
        None => diagnostic.message.clone(),
    };
    let title = printable(&title).into_owned();
    let path = printable(&diagnostic.path.display().to_string()).into_owned();
    let source = source.map(printable_lines);
    let renderer = if colour {
        Renderer::styled()
    } else {
        Renderer::plain()
    }
    .decor_style(DecorStyle::Unicode);
    let title = Level::ERROR.primary_title(&title);
    let report = match source
        .as_deref()
        .and_then(|text| window(text, diagnostic.line))
    {
        Some(window) => [title.element(
            Snippet::source(window.text)
                .line_start(window.first_line)
                .path(&path)
                .fold(false)
                .annotation(AnnotationKind::Primary.span(window.span)),
        )],
        None => [title.element(Origin::path(&path).line(diagnostic.line))],
    };
    renderer.render(&report)
}

/// The lines around `line` (1-based) and, within them, the offending line's text without
/// its indentation.
struct Window<'a> {
    text: &'a str,
    first_line: usize,
    span: std::ops::Range<usize>,
}

fn window(source: &str, line: usize) -> Option<Window<'_>> {
    let lines: Vec<(usize, &str)> = source
        .split_inclusive('\n')
        .scan(0, |offset, text| {
            let start = *offset;
            *offset += text.len();
            Some((start, text))
        })
        .collect();
    let index = line.checked_sub(1).filter(|&i| i < lines.len())?;
    let first = index.saturating_sub(CONTEXT);
    let last = (index + CONTEXT).min(lines.len() - 1);
    let base = lines[first].0;
    let end = lines[last].0 + lines[last].1.len();
    let (start, text) = lines[index];
    let content = text.trim_end();
    let indent = content.len() - content.trim_start().len();
    // An empty line still gets a caret: a span of its line ending, or of its one position.
    let span_start = start + indent - base;
    let span_end = (start + content.len() - base).max(span_start + 1);
    Some(Window {
        text: source[base..end].trim_end_matches('\n'),
        first_line: first + 1,
        span: span_start..span_end.min(end - base),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_offending_line_is_quoted_with_its_neighbours_and_a_caret() {
        let source = "one\ntwo\n  three\nfour\nfive\nsix\n";
        let diagnostic = Diagnostic::new("tools/t.md", 3, "bad three").in_scenario("s");
        let shown = render(&diagnostic, Some(source), false);
        let expected = "\
error: scenario \"s\": bad three
  ╭▸ tools/t.md:3:3
  │
1 │ one
2 │ two
3 │   three
  │   ━━━━━
4 │ four
5 │ five
  ╰╴";
        assert_eq!(shown.trim_end(), expected.trim_end(), "\n{shown}");
    }

    #[test]
    fn without_a_line_only_the_place_is_shown() {
        let cases = [(0, Some("text\n")), (9, Some("text\n")), (1, None)];
        for (line, source) in cases {
            let diagnostic = Diagnostic::new("docs/SOURCE.md", line, "missing");
            let shown = render(&diagnostic, source, false);
            assert!(shown.starts_with("error: missing"), "{shown}");
            assert!(shown.contains("docs/SOURCE.md"), "{shown}");
            assert!(!shown.contains('━'), "{shown}");
        }
    }
}
