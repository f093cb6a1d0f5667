//! One tool file parsed as SPEC §2 describes: frontmatter, sections split outside fences, the
//! `json tool` definition and the scenarios. Parsing never stops at the first problem: it
//! keeps what it understood and lists every problem as a [`Diagnostic`].

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use chrono::Utc;
use serde_json::{Map, Value};

use super::diagnostic::Diagnostic;
use super::entropy::Entropy;
use super::frontmatter;
use super::template::{RenderContext, Template};
use crate::engine::line_ends;

/// Whether a scenario answers normally or with `isError: true`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Response,
    Error,
}

#[derive(Debug, Clone)]
pub struct Scenario {
    pub name: String,
    pub line: usize,
    /// The `json match` rule; `None` (and no `when`) makes this a default scenario.
    pub rule: Option<Value>,
    /// The `jq when` condition (docs/FORMAT.md, "Computed answers"): the scenario matches only
    /// when it gives `true`.
    pub when: Option<Program>,
    pub outcome: Outcome,
    pub answer: Answer,
    /// The `jq update` program: the run's state after the call.
    pub update: Option<Program>,
    /// The `json sample` arguments that reach this scenario, for the honesty check.
    pub sample: Option<Value>,
}

impl Scenario {
    /// Whether this scenario is chosen when nothing matches: neither a match rule nor a
    /// condition.
    pub fn is_default(&self) -> bool {
        self.rule.is_none() && self.when.is_none()
    }

    /// Whether its answer is computed from the world.
    pub fn is_computed(&self) -> bool {
        matches!(self.answer, Answer::Computed(_) | Answer::Change(_))
    }

    /// Whether it gives the run's state after the call: a `jq update`, or a `jq change`.
    pub fn changes(&self) -> bool {
        self.update.is_some() || matches!(self.answer, Answer::Change(_))
    }
}

/// How a scenario's value is made.
#[derive(Debug, Clone)]
pub enum Answer {
    /// A JSON template (SPEC §2 and §3).
    Template(Template),
    /// A jq program over the world (docs/FORMAT.md, "Computed answers").
    Computed(Program),
    /// A `jq change` program: the run's state after the call and the response together, one
    /// program, so that nothing it computes for the one is computed again for the other.
    Change(Program),
}

/// The source of a jq block and the line its code starts on; the world compiles it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    pub source: String,
    pub line: usize,
}

#[derive(Debug, Clone)]
pub struct ToolFile {
    pub path: PathBuf,
    pub tool: String,
    pub domain: Option<String>,
    pub definition: Map<String, Value>,
    pub definition_line: usize,
    pub scenarios: Vec<Scenario>,
}

/// What parsing understood, and everything wrong with it. The file is fit to serve only when
/// `diagnostics` is empty.
#[derive(Debug, Clone)]
pub struct Parsed {
    pub file: ToolFile,
    pub diagnostics: Vec<Diagnostic>,
}

/// The kinds of fenced block a tool file holds (` ```json tool `, …): SPEC §2's four, and the
/// computed scenarios' (` ```jq response `, …) and samples of docs/FORMAT.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BlockKind {
    Tool,
    Match,
    Response,
    Error,
    Sample,
    JqWhen,
    JqResponse,
    JqError,
    JqUpdate,
    JqChange,
}

impl BlockKind {
    const ALL: [Self; 10] = [
        Self::Tool,
        Self::Match,
        Self::Response,
        Self::Error,
        Self::Sample,
        Self::JqWhen,
        Self::JqResponse,
        Self::JqError,
        Self::JqUpdate,
        Self::JqChange,
    ];

    /// The language after the fence.
    fn language(self) -> &'static str {
        match self {
            Self::JqWhen | Self::JqResponse | Self::JqError | Self::JqUpdate | Self::JqChange => {
                "jq"
            }
            _ => "json",
        }
    }

    /// The word after the language.
    fn word(self) -> &'static str {
        match self {
            Self::Tool => "tool",
            Self::Match => "match",
            Self::Response | Self::JqResponse => "response",
            Self::Error | Self::JqError => "error",
            Self::Sample => "sample",
            Self::JqWhen => "when",
            Self::JqUpdate => "update",
            Self::JqChange => "change",
        }
    }

    /// Whether the block makes the scenario's value.
    fn is_answer(self) -> bool {
        matches!(
            self,
            Self::Response | Self::Error | Self::JqResponse | Self::JqError | Self::JqChange
        )
    }
}

impl std::fmt::Display for BlockKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.language(), self.word())
    }
}

struct Section<'a> {
    title: &'a str,
    line: usize,
    body: &'a str,
    body_line: usize,
}

struct Block<'a> {
    kind: BlockKind,
    content: &'a str,
    line: usize,
}

pub fn parse(path: &Path, text: &str) -> Parsed {
    let text = &*line_ends::as_lf(text);
    let mut diagnostics = Vec::new();
    let mut file = ToolFile {
        path: path.to_path_buf(),
        tool: String::new(),
        domain: None,
        definition: Map::new(),
        definition_line: 1,
        scenarios: Vec::new(),
    };
    let lines: Vec<&str> = text.split('\n').collect();
    let body_line = match frontmatter::parse(&lines) {
        Ok(front) => {
            match front.fields.get("tool").filter(|t| !t.is_empty()) {
                Some(tool) => file.tool = tool.clone(),
                None => diagnostics.push(Diagnostic::new(path, 1, "frontmatter has no `tool`")),
            }
            file.domain = front.fields.get("domain").cloned();
            front.body_line
        }
        Err(error) => {
            diagnostics.push(Diagnostic::new(path, 1, error.to_string()));
            return Parsed { file, diagnostics };
        }
    };

    let mut seen_definition = false;
    // The names of the scenarios read so far, in lower case: one look-up a heading, not a scan
    // of the scenarios before it, so that a file of many scenarios parses in linear time.
    let mut names = HashSet::new();
    for section in sections(text, body_line) {
        if section.title == "Definition" {
            if seen_definition {
                diagnostics.push(Diagnostic::new(
                    path,
                    section.line,
                    "a second `## Definition` section",
                ));
                continue;
            }
            seen_definition = true;
            read_definition(&section, &mut file, &mut diagnostics);
        } else if let Some(name) = section.title.strip_prefix("Scenario:") {
            let name = name.trim();
            if name.is_empty() {
                diagnostics.push(Diagnostic::new(
                    path,
                    section.line,
                    "a scenario heading without a name",
                ));
                continue;
            }
            let key = name.to_ascii_lowercase();
            if names.contains(&key) {
                diagnostics.push(
                    Diagnostic::new(
                        path,
                        section.line,
                        "a second scenario with this name (names are case-insensitive)",
                    )
                    .in_scenario(name),
                );
                continue;
            }
            if let Some(scenario) = read_scenario(path, name, &section, &mut diagnostics) {
                names.insert(key);
                file.scenarios.push(scenario);
            }
        }
    }

    if !seen_definition {
        diagnostics.push(Diagnostic::new(
            path,
            body_line,
            "no `## Definition` section",
        ));
    }
    if file.scenarios.is_empty() && !diagnostics.iter().any(|d| d.scenario.is_some()) {
        diagnostics.push(Diagnostic::new(
            path,
            body_line,
            "no `## Scenario: <name>` section",
        ));
    } else if !file.scenarios.is_empty() && !file.scenarios.iter().any(Scenario::is_default) {
        diagnostics.push(Diagnostic::new(
            path,
            file.scenarios[0].line,
            "no default scenario: at least one scenario must have no `json match` and no `jq when` block",
        ));
    }
    Parsed { file, diagnostics }
}

/// Splits at `## ` headings that are outside fenced blocks.
fn sections(text: &str, first_line: usize) -> Vec<Section<'_>> {
    let mut found: Vec<(usize, usize, usize, &str)> = Vec::new(); // (heading start, body start, line, title)
    let mut offset = 0;
    let mut in_fence = false;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        let number = index + 1;
        if number >= first_line {
            if line.starts_with("```") {
                in_fence = !in_fence;
            } else if !in_fence && let Some(title) = line.strip_prefix("## ") {
                found.push((offset, offset + line.len(), number, title.trim()));
            }
        }
        offset += line.len();
    }
    found
        .iter()
        .enumerate()
        .map(|(i, &(_, body_start, line, title))| {
            let end = found.get(i + 1).map_or(text.len(), |next| next.0);
            Section {
                title,
                line,
                body: &text[body_start..end],
                body_line: line + 1,
            }
        })
        .collect()
}

/// The fenced blocks of a section, in order: a line `` ```json KIND `` (spaces or tabs around
/// the kind, nothing else), the lines up to the next line that is `` ``` `` alone (spaces or
/// tabs after it), and that line. An opening line never closed opens no block. This is what the
/// pattern `(?ms)^```json[ \t]+(tool|match|response|error)[ \t]*\n(.*?)^```[ \t]*$` finds,
/// scanned line by line: the pattern's backtracking over large files was a quarter of start-up.
fn blocks<'a>(section: &Section<'a>) -> Vec<Block<'a>> {
    let body = section.body;
    let mut lines = Vec::new();
    let mut start = 0;
    for line in body.split('\n') {
        lines.push((start, line));
        start += line.len() + 1;
    }
    let mut found = Vec::new();
    let mut index = 0;
    while index < lines.len() {
        let (_, line) = lines[index];
        // The opening line must end in a newline: the last piece of the split does not.
        let opened = opening_fence(line).filter(|_| index + 1 < lines.len());
        let closing = opened
            .and_then(|_| (index + 1..lines.len()).find(|&after| closing_fence(lines[after].1)));
        match (opened, closing) {
            (Some(kind), Some(closing)) => {
                found.push(Block {
                    kind,
                    content: &body[lines[index + 1].0..lines[closing].0],
                    line: section.body_line + index,
                });
                index = closing + 1;
            }
            _ => index += 1,
        }
    }
    found
}

fn is_blank(text: &str) -> bool {
    text.bytes().all(|byte| byte == b' ' || byte == b'\t')
}

/// The kind of block a `` ```json KIND `` or `` ```jq KIND `` line opens.
fn opening_fence(line: &str) -> Option<BlockKind> {
    let rest = line.strip_prefix("```")?;
    BlockKind::ALL.into_iter().find(|kind| {
        rest.strip_prefix(kind.language()).is_some_and(|rest| {
            let after = rest.trim_start_matches([' ', '\t']);
            after.len() != rest.len() && after.strip_prefix(kind.word()).is_some_and(is_blank)
        })
    })
}

fn closing_fence(line: &str) -> bool {
    line.strip_prefix("```").is_some_and(is_blank)
}

fn read_definition(section: &Section<'_>, file: &mut ToolFile, diagnostics: &mut Vec<Diagnostic>) {
    let path = file.path.clone();
    let tools: Vec<Block<'_>> = blocks(section)
        .into_iter()
        .filter(|b| b.kind == BlockKind::Tool)
        .collect();
    let Some(block) = tools.first() else {
        diagnostics.push(Diagnostic::new(
            &path,
            section.line,
            "the Definition has no ```json tool block",
        ));
        return;
    };
    if tools.len() > 1 {
        diagnostics.push(Diagnostic::new(
            &path,
            tools[1].line,
            "the Definition has more than one ```json tool block",
        ));
    }
    file.definition_line = block.line;
    match serde_json::from_str::<Value>(block.content) {
        Ok(Value::Object(definition)) => {
            match definition.get("name").and_then(Value::as_str) {
                Some(name) if name == file.tool => {}
                Some(name) => diagnostics.push(Diagnostic::new(
                    &path,
                    block.line,
                    format!(
                        "the definition's name {name:?} differs from the frontmatter's tool {:?}",
                        file.tool
                    ),
                )),
                None => diagnostics.push(Diagnostic::new(
                    &path,
                    block.line,
                    "the definition has no string `name`",
                )),
            }
            if !definition.get("inputSchema").is_some_and(Value::is_object) {
                diagnostics.push(Diagnostic::new(
                    &path,
                    block.line,
                    "the definition has no object `inputSchema`",
                ));
            }
            file.definition = definition;
        }
        Ok(_) => diagnostics.push(Diagnostic::new(
            &path,
            block.line,
            "the definition is not a JSON object",
        )),
        Err(error) => diagnostics.push(json_error(&path, block.line, "the definition", &error)),
    }
}

fn read_scenario(
    path: &Path,
    name: &str,
    section: &Section<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Scenario> {
    let mut problem = |line: usize, message: String| {
        diagnostics.push(Diagnostic::new(path, line, message).in_scenario(name))
    };
    let all = blocks(section);
    let of =
        |kind: BlockKind| -> Vec<&Block<'_>> { all.iter().filter(|b| b.kind == kind).collect() };
    for kind in [
        BlockKind::Match,
        BlockKind::Sample,
        BlockKind::JqWhen,
        BlockKind::JqUpdate,
    ] {
        if let [_, second, ..] = of(kind).as_slice() {
            problem(second.line, format!("more than one ```{kind} block"));
        }
    }
    let answers: Vec<&Block<'_>> = all.iter().filter(|b| b.kind.is_answer()).collect();
    let answer = match answers.as_slice() {
        [] => {
            problem(
                section.line,
                "no ```json response or ```json error block".into(),
            );
            return None;
        }
        [one] => *one,
        [_, second, ..] => {
            problem(
                second.line,
                "more than one ```json response / ```json error block".into(),
            );
            return None;
        }
    };
    let object =
        |block: Option<&&Block<'_>>, what: &str, problem: &mut dyn FnMut(usize, String)| {
            let block = block?;
            match serde_json::from_str::<Value>(block.content) {
                Ok(value @ Value::Object(_)) => Some(Ok(value)),
                Ok(_) => {
                    problem(block.line, format!("the {what} block is not a JSON object"));
                    Some(Err(()))
                }
                Err(error) => {
                    problem(
                        block.line,
                        json_error(path, block.line, &format!("the {what} block"), &error).message,
                    );
                    Some(Err(()))
                }
            }
        };
    let rule = object(of(BlockKind::Match).first(), "match", &mut problem)
        .transpose()
        .ok()?;
    let sample = object(of(BlockKind::Sample).first(), "sample", &mut problem)
        .transpose()
        .ok()?;
    let program = |block: &Block<'_>| Program {
        source: block.content.to_string(),
        line: block.line + 1,
    };
    let when = of(BlockKind::JqWhen).first().map(|b| program(b));
    let update = of(BlockKind::JqUpdate).first().map(|b| program(b));
    if answer.kind == BlockKind::JqChange
        && let Some(update) = of(BlockKind::JqUpdate).first()
    {
        problem(
            update.line,
            "a ```jq update block beside a ```jq change block: the change gives the state".into(),
        );
        return None;
    }
    let outcome = if matches!(answer.kind, BlockKind::Error | BlockKind::JqError) {
        Outcome::Error
    } else {
        Outcome::Response
    };
    let answer = match answer.kind {
        BlockKind::JqResponse | BlockKind::JqError => Answer::Computed(program(answer)),
        BlockKind::JqChange => Answer::Change(program(answer)),
        _ => Answer::Template(template(answer, &mut problem)?),
    };
    Some(Scenario {
        name: name.to_string(),
        line: section.line,
        rule,
        when,
        outcome,
        answer,
        update,
        sample,
    })
}

/// A JSON template block, checked by rendering it once with empty arguments (SPEC §2).
fn template(answer: &Block<'_>, problem: &mut dyn FnMut(usize, String)) -> Option<Template> {
    let template = match Template::parse(answer.content) {
        Ok(template) => template,
        Err(error) => {
            problem(
                answer.line,
                format!("the {} template: {error}", answer.kind.word()),
            );
            return None;
        }
    };
    let entropy = Entropy::default();
    let ctx = RenderContext {
        args: &Value::Object(Map::new()),
        now: Utc::now(),
        entropy: &entropy,
    };
    if let Err(error) = template.render(ctx) {
        let error = error.0;
        problem(
            answer.line + error.line(),
            format!(
                "the {} template rendered with empty arguments is not valid JSON: {error}",
                answer.kind.word()
            ),
        );
        return None;
    }
    Some(template)
}

/// A JSON syntax error located at its own line inside the file (the block's content starts on
/// the line after its fence), not at the block's first line.
fn json_error(path: &Path, block_line: usize, what: &str, error: &serde_json::Error) -> Diagnostic {
    Diagnostic::new(
        path,
        block_line + error.line(),
        format!("{what} is not valid JSON: {error}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The blocks as the pattern the scanner replaced finds them (SPEC §2's, with the kinds of
    /// computed answers beside them): (kind, content, line).
    fn by_pattern(section: &Section<'_>) -> Vec<(String, String, usize)> {
        let pattern = regex::Regex::new(
            r"(?ms)^```(?:json[ \t]+(tool|match|response|error|sample)|jq[ \t]+(when|response|error|update|change))[ \t]*\n(.*?)^```[ \t]*$",
        )
        .unwrap();
        pattern
            .captures_iter(section.body)
            .map(|caps| {
                let before = &section.body[..caps.get(0).unwrap().start()];
                let kind = caps.get(1).or_else(|| caps.get(2)).unwrap();
                (
                    kind.as_str().to_string(),
                    caps[3].to_string(),
                    section.body_line + before.matches('\n').count(),
                )
            })
            .collect()
    }

    #[test]
    fn the_block_scanner_finds_what_the_pattern_found() {
        let mut bodies: Vec<String> = [
            "```json tool\n{}\n```\n",
            "```json tool\n{}\n```",
            "```json tool\n```\n",
            "```json  \t match \t\n{\"a\": 1}\n```  \t\nafter",
            "```jsontool\n{}\n```\n",
            "```json tools\n{}\n```\n",
            "```json tool x\n{}\n```\n",
            "```json tool\r\n{}\r\n```\r\n",
            "```json tool",
            "```json tool\n{} never closed\n",
            "```json tool\n```json response\n{}\n```\n",
            "```json response\n{}\n````\n{}\n``` \n",
            " ```json tool\n{}\n```\n",
            "```json error\n{}\n```\n```json response\n[]\n```\n\n```json match\n{}\n```",
            "text\n```json tool\n{\"é\": \"🍣\"}\n```\nmore\n```json response\nno end",
            "```jq when\n.a\n```\n```jq  update \n.state\n```\n```jq response\n{}\n```\n```json sample\n{}\n```\n",
            "```jqwhen\n.a\n```\n```jq when x\n.a\n```\n```jq match\n{}\n```\n",
            "",
        ]
        .map(str::to_string)
        .to_vec();
        for entry in std::fs::read_dir("tools").unwrap().flatten() {
            for file in std::fs::read_dir(entry.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                if file.path().extension().is_some_and(|e| e == "md") {
                    bodies.push(std::fs::read_to_string(file.path()).unwrap());
                }
            }
        }
        assert!(bodies.len() > 30, "the repository's tool files are read");
        for body in &bodies {
            let section = Section {
                title: "t",
                line: 1,
                body,
                body_line: 7,
            };
            let scanned: Vec<_> = blocks(&section)
                .into_iter()
                .map(|block| {
                    (
                        block.kind.word().to_string(),
                        block.content.to_string(),
                        block.line,
                    )
                })
                .collect();
            assert_eq!(scanned, by_pattern(&section), "{body:?}");
        }
    }

    const DEFINITION: &str = "## Definition\n\n```json tool\n{\"name\": \"t\", \"inputSchema\": {\"type\": \"object\"}}\n```\n";
    const DEFAULT: &str = "## Scenario: ok\n\n```json response\n{\"a\": 1}\n```\n";

    fn file(body: &str) -> String {
        format!("---\ntool: t\n---\n{body}")
    }

    /// (file text, expected line, expected scenario, fragment of the message)
    #[test]
    fn every_fail_fast_case_names_line_and_scenario() {
        let cases: Vec<(String, usize, Option<&str>, &str)> = vec![
            ("tool: t\n".to_string(), 1, None, "must start with"),
            ("---\ntool: t\n".to_string(), 1, None, "never closed"),
            (
                format!("---\ndomain: x\n---\n{DEFINITION}{DEFAULT}"),
                1,
                None,
                "no `tool`",
            ),
            (file(DEFAULT), 4, None, "no `## Definition`"),
            (
                file("## Definition\n\ntext only\n## Scenario: ok\n\n```json response\n{}\n```\n"),
                4,
                None,
                "no ```json tool",
            ),
            (
                file("## Definition\n\n```json tool\n{\"name\": \"t\",}\n```\n"),
                7,
                None,
                "not valid JSON",
            ),
            (
                file(
                    "## Definition\n\n```json tool\n{\"name\": \"other\", \"inputSchema\": {}}\n```\n",
                ),
                6,
                None,
                "differs from the frontmatter",
            ),
            (
                file("## Definition\n\n```json tool\n{\"name\": \"t\"}\n```\n"),
                6,
                None,
                "no object `inputSchema`",
            ),
            (file(DEFINITION), 4, None, "no `## Scenario"),
            (
                file(&format!(
                    "{DEFINITION}{DEFAULT}## Scenario: other\n\n```json response\n{{}}\n```\n## Scenario: OK\n\n```json response\n{{}}\n```\n"
                )),
                19,
                Some("OK"),
                "a second scenario with this name",
            ),
            (
                file(&format!("{DEFINITION}## Scenario: empty\n\nno blocks\n")),
                9,
                Some("empty"),
                "no ```json response",
            ),
            (
                file(&format!(
                    "{DEFINITION}## Scenario: two\n\n```json response\n{{}}\n```\n\n```json error\n{{}}\n```\n"
                )),
                15,
                Some("two"),
                "more than one ```json response",
            ),
            (
                file(&format!(
                    "{DEFINITION}{DEFAULT}## Scenario: twice\n\n```json match\n{{}}\n```\n```json match\n{{}}\n```\n```json response\n{{}}\n```\n"
                )),
                19,
                Some("twice"),
                "more than one ```json match",
            ),
            (
                file(&format!(
                    "{DEFINITION}## Scenario: bad\n\n```json response\n{{\"a\": }}\n```\n"
                )),
                12,
                Some("bad"),
                "not valid JSON",
            ),
            (
                file(&format!(
                    "{DEFINITION}## Scenario: bad\n\n```json response\n{{\"a\": {{{{ tomorrow }}}}}}\n```\n"
                )),
                11,
                Some("bad"),
                "unknown placeholder",
            ),
            (
                file(&format!(
                    "{DEFINITION}{DEFAULT}## Scenario: rule\n\n```json match\n[1]\n```\n```json response\n{{}}\n```\n"
                )),
                16,
                Some("rule"),
                "not a JSON object",
            ),
            (
                file(&format!(
                    "{DEFINITION}{DEFAULT}## Scenario: OK\n\n```json response\n{{}}\n```\n"
                )),
                14,
                Some("OK"),
                "a second scenario",
            ),
            (
                file(&format!(
                    "{DEFINITION}## Scenario: only-match\n\n```json match\n{{\"a\": 1}}\n```\n```json response\n{{}}\n```\n"
                )),
                9,
                None,
                "no default scenario",
            ),
        ];
        for (text, line, scenario, fragment) in cases {
            let parsed = parse(Path::new("tools/t.md"), &text);
            let found = parsed
                .diagnostics
                .iter()
                .find(|d| d.message.contains(fragment));
            let Some(found) = found else {
                panic!(
                    "expected {fragment:?} in {:?}\nfor:\n{text}",
                    parsed.diagnostics
                );
            };
            assert_eq!(
                (found.line, found.scenario.as_deref()),
                (line, scenario),
                "{fragment}: {found}"
            );
        }
    }

    #[test]
    fn headings_inside_fences_do_not_split_sections() {
        let text = file(&format!(
            "intro\n## Flow\n\n```text\n## Scenario: not-a-scenario\n```\n{DEFINITION}{DEFAULT}## Scenario: picky\n\n```json match\n{{\"q\": \"~x\"}}\n```\n\n```json error\n{{\"error\": \"e\"}}\n```\n"
        ));
        let parsed = parse(Path::new("t.md"), &text);
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        let names: Vec<_> = parsed
            .file
            .scenarios
            .iter()
            .map(|s| (s.name.as_str(), s.rule.is_some(), s.outcome))
            .collect();
        assert_eq!(
            names,
            vec![
                ("ok", false, Outcome::Response),
                ("picky", true, Outcome::Error)
            ]
        );
        assert_eq!(parsed.file.definition["name"], "t");
    }
}
