//! The definitions a program is compiled with: the flat `tools/world/*.jq` files, in front of
//! every program, and the world's jq modules, `tools/world/rules/NAME.jq`, which a program or
//! another module loads by name with `include "NAME";` or `import "NAME" as alias;` at its top
//! (docs/FORMAT.md, "Computed answers"). A program sees only the modules it loads itself: a
//! module's definitions are not in front of every program, as the flat files' are.

use std::collections::BTreeSet;
use std::path::PathBuf;

use jaq_core::load::Lexer;
use jaq_core::load::lex::{StrPart, Tok, Token};

/// The folder under the world folder whose `*.jq` files are modules.
pub const FOLDER: &str = "rules";

/// The world's definitions, as read from its folder.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Definitions {
    /// The flat `*.jq` files' text, in name order.
    pub flat: String,
    /// The modules, by name.
    pub modules: Vec<Module>,
}

/// One `rules/NAME.jq` file.
#[derive(Debug, Clone, PartialEq)]
pub struct Module {
    /// Its file stem, the name a directive gives.
    pub name: String,
    pub path: PathBuf,
    pub text: String,
    /// The modules its directives load, read once with it.
    loads: Vec<String>,
}

impl Module {
    pub fn new(name: &str, path: PathBuf, text: &str) -> Self {
        Self {
            name: name.to_string(),
            path,
            text: text.to_string(),
            loads: Directives::of(text)
                .names
                .into_iter()
                .map(str::to_string)
                .collect(),
        }
    }
}

impl Definitions {
    /// Flat definitions alone, with no modules: the unit tests' world.
    #[cfg(test)]
    pub fn flat(text: &str) -> Self {
        Self {
            flat: text.to_string(),
            modules: Vec::new(),
        }
    }

    /// The module named `name`, by its index.
    pub fn module(&self, name: &str) -> Option<(usize, &Module)> {
        self.modules
            .iter()
            .enumerate()
            .find(|(_, module)| module.name == name)
    }

    /// The modules `names` load, and the modules those load, and so on, by index.
    pub fn reach<'a>(&self, names: impl IntoIterator<Item = &'a str>) -> BTreeSet<usize> {
        let mut reached = BTreeSet::new();
        let mut to_visit: Vec<String> = names.into_iter().map(str::to_string).collect();
        while let Some(name) = to_visit.pop() {
            if let Some((index, module)) = self.module(&name)
                && reached.insert(index)
            {
                to_visit.extend(module.loads.iter().cloned());
            }
        }
        reached
    }
}

/// The directives (`module`, `include`, `import`) at the top of a jq text.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Directives<'a> {
    /// The names of the modules they load, in order.
    pub names: Vec<&'a str>,
    /// Where they end in the text: just past the last one's `;`.
    pub end: usize,
}

impl<'a> Directives<'a> {
    /// The directives `text` starts with (after any comment); none when they do not lex.
    /// Only the top of `text` is lexed, a `;` at a time, for as long as a directive follows:
    /// the shipped modules and programs hold one or two lines of directives above hundreds of
    /// lines that start-up would otherwise lex once more here. A `;` inside a directive's
    /// string leaves a piece that does not lex, and the next `;` is tried.
    pub fn of(text: &'a str) -> Self {
        let mut found = Self::default();
        let mut next = 0;
        while opens_with_directive(&text[found.end..]) {
            // The next `;`: the end of the directive after `found`'s, unless it stands in a
            // string or a comment.
            next = text[next..]
                .find(';')
                .map_or(text.len(), |at| next + at + 1);
            match Lexer::new(&text[..next]).lex() {
                Ok(tokens) => {
                    let (directives, all) = Self::read(text, &tokens);
                    if !all {
                        return directives;
                    }
                    found = directives;
                }
                Err(_) if next == text.len() => return Self::default(),
                Err(_) => {}
            }
            if next == text.len() {
                break;
            }
        }
        found
    }

    /// The directives `tokens` (lexed from the top of `text`) start with, and whether they
    /// are all directives, so that more may follow.
    fn read(text: &'a str, tokens: &[Token<&'a str>]) -> (Self, bool) {
        let mut directives = Self::default();
        let mut at = 0;
        while let Some(Token(word, Tok::Word)) = tokens.get(at)
            && matches!(*word, "module" | "include" | "import")
        {
            let Some(semicolon) = tokens[at..]
                .iter()
                .position(|token| matches!(token, Token(";", Tok::Sym)))
            else {
                return (directives, false);
            };
            if *word != "module"
                && let Some(Token(_, Tok::Str(parts))) = tokens.get(at + 1)
                && let [StrPart::Str(name)] = parts.as_slice()
            {
                directives.names.push(name);
            }
            at += semicolon;
            directives.end = offset(text, tokens[at].0) + 1;
            at += 1;
        }
        (directives, at == tokens.len())
    }
}

/// Whether `rest`, past whitespace and comments as jq's lexer skips them (a comment line that
/// ends in an odd number of backslashes goes on to the next), opens with a directive's word.
fn opens_with_directive(rest: &str) -> bool {
    let mut rest = rest;
    loop {
        rest = rest.trim_start();
        let Some(comment) = rest.strip_prefix('#') else {
            break;
        };
        rest = comment;
        loop {
            let (line, after) = rest.split_once('\n').unwrap_or((rest, ""));
            let line = line.strip_suffix('\r').unwrap_or(line);
            rest = after;
            if line.chars().rev().take_while(|c| *c == '\\').count() % 2 == 0 {
                break;
            }
        }
    }
    ["module", "include", "import"].iter().any(|word| {
        rest.strip_prefix(word).is_some_and(|after| {
            !(after.starts_with(|c: char| c.is_alphanumeric() || c == '_')
                || after.starts_with("::"))
        })
    })
}

impl Directives<'_> {
    /// `text`, which these directives start, with them replaced by spaces, lines kept.
    pub fn blank(&self, text: &str) -> String {
        let blanked: String = text[..self.end]
            .chars()
            .map(|c| if c == '\n' { '\n' } else { ' ' })
            .collect();
        blanked + &text[self.end..]
    }
}

/// `text` with its leading directives replaced by spaces, lines kept: what the definitions
/// after them name, without the module names the directives give.
pub fn blank_directives(text: &str) -> String {
    Directives::of(text).blank(text)
}

/// Where `piece`, a slice of `text`, starts in it.
fn offset(text: &str, piece: &str) -> usize {
    piece.as_ptr() as usize - text.as_ptr() as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directives_are_read_from_the_top_alone() {
        let cases: [(&str, &[&str], usize); 10] = [
            (".a", &[], 0),
            // A `;` in a comment or in a string ends no directive.
            ("# x; y\ninclude \"a\"; .b", &["a"], 19),
            ("include \"a;b\"; .c", &["a;b"], 14),
            // A comment line that ends in a backslash goes on to the next line.
            ("# c \\\ninclude \"a\"; .b", &[], 0),
            (
                "include \"a\"; include \"b\"; sub(\"x\"; \"y\")",
                &["a", "b"],
                25,
            ),
            ("include \"food\"; .a", &["food"], 15),
            (
                "# a comment\ninclude \"food\";\nimport \"rides\" as r;\n.a",
                &["food", "rides"],
                48,
            ),
            ("module {v: 1}; include \"area\"; def x: 1;", &["area"], 30),
            (".a | include", &[], 0),
            ("include \"food\"", &[], 0),
        ];
        for (text, names, end) in cases {
            let directives = Directives::of(text);
            assert_eq!(
                (directives.names.as_slice(), directives.end),
                (names, end),
                "{text}"
            );
        }
        assert_eq!(
            blank_directives("include \"a\";\ninclude \"b\"; .x"),
            "            \n             .x"
        );
    }

    #[test]
    fn a_module_reaches_what_it_loads_in_turn() {
        let module =
            |name: &str, text: &str| Module::new(name, PathBuf::from(format!("{name}.jq")), text);
        let defs = Definitions {
            flat: String::new(),
            modules: vec![
                module("area", "def area: 1;"),
                module("food", "include \"area\"; def food: area;"),
                module("rides", "import \"food\" as f; def ride: f::food;"),
                module("loop", "include \"loop\"; def l: 1;"),
            ],
        };
        let names = |reached: BTreeSet<usize>| -> Vec<String> {
            reached
                .into_iter()
                .map(|index| defs.modules[index].name.clone())
                .collect()
        };
        assert_eq!(names(defs.reach(["rides"])), ["area", "food", "rides"]);
        assert_eq!(names(defs.reach(["area"])), ["area"]);
        assert_eq!(names(defs.reach(["loop", "nosuch"])), ["loop"]);
    }
}
