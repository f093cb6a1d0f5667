//! Which of the call document's per-call keys a program names: `.now` changes every second and
//! `.random` on every call, so a program that names neither gives the same answer to the same
//! arguments and state, and that answer can be kept (`answers.rs`). A program names a key when
//! its own text, or the text of a definition it calls (and so on), has the key's name as a
//! word, a field (`.now`, `$doc.now`) or a string (`.["now"]`). Definitions are told apart by
//! name alone, whatever their arity, which can only find more names than a program reaches.

use std::collections::{HashMap, HashSet};

use jaq_core::load::Lexer;
use jaq_core::load::lex::{StrPart, Tok, Token};

/// The per-call keys of the document a program names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reads {
    pub now: bool,
    pub random: bool,
}

impl Reads {
    /// What a program that cannot be read is taken to name: everything.
    const ALL: Self = Self {
        now: true,
        random: true,
    };
}

/// The definitions of a jq text, by name: the names each one's body mentions.
pub struct Library<'a> {
    defs: HashMap<&'a str, HashSet<&'a str>>,
    /// Names mentioned outside any definition (a library holds none): reached by every program.
    loose: HashSet<&'a str>,
    /// Whether the text lexed; a library that did not is taken to name everything.
    lexed: bool,
}

impl<'a> Library<'a> {
    pub fn of(text: &'a str) -> Self {
        let mut library = Self {
            defs: HashMap::new(),
            loose: HashSet::new(),
            lexed: true,
        };
        let Ok(tokens) = Lexer::new(text).lex() else {
            library.lexed = false;
            return library;
        };
        let mut at = 0;
        while at < tokens.len() {
            match definition(&tokens[at..]) {
                Some((name, body)) => {
                    let names = library.defs.entry(name).or_default();
                    for token in body {
                        mentions(token, names);
                    }
                    at += body.len() + 2;
                }
                None => {
                    mentions(&tokens[at], &mut library.loose);
                    at += 1;
                }
            }
        }
        library
    }

    /// The per-call keys that `program` names, itself or through the definitions it reaches.
    pub fn reads(&self, program: &str) -> Reads {
        let Ok(tokens) = Lexer::new(program).lex() else {
            return Reads::ALL;
        };
        if !self.lexed {
            return Reads::ALL;
        }
        let mut reached: HashSet<&str> = self.loose.clone();
        for token in &tokens {
            mentions(token, &mut reached);
        }
        let mut pending: Vec<&str> = reached.iter().copied().collect();
        while let Some(name) = pending.pop() {
            for &named in self.defs.get(name).into_iter().flatten() {
                if reached.insert(named) {
                    pending.push(named);
                }
            }
        }
        Reads {
            now: reached.contains("now"),
            random: reached.contains("random"),
        }
    }
}

/// The definition `tokens` start with: its name, and its tokens from after the name to before
/// the `;` that ends it (a definition nested in it ends with a `;` of its own).
fn definition<'t, 'a>(tokens: &'t [Token<&'a str>]) -> Option<(&'a str, &'t [Token<&'a str>])> {
    let [Token("def", Tok::Word), Token(name, Tok::Word), rest @ ..] = tokens else {
        return None;
    };
    let mut nested = 0usize;
    for (at, token) in rest.iter().enumerate() {
        match token {
            Token("def", Tok::Word) => nested += 1,
            Token(";", Tok::Sym) if nested == 0 => return Some((name, &rest[..at])),
            Token(";", Tok::Sym) => nested -= 1,
            _ => {}
        }
    }
    Some((name, rest))
}

/// Adds the names `token` mentions: words, fields and strings, within blocks and
/// interpolations too.
fn mentions<'a>(token: &Token<&'a str>, names: &mut HashSet<&'a str>) {
    match token {
        Token(word, Tok::Word) => {
            names.insert(word);
        }
        Token(symbol, Tok::Sym) => {
            if let Some(field) = symbol.strip_prefix('.').filter(|f| !f.is_empty()) {
                names.insert(field);
            }
        }
        Token(_, Tok::Block(inner)) => {
            for token in inner {
                mentions(token, names);
            }
        }
        Token(_, Tok::Str(parts)) => {
            for part in parts {
                match part {
                    StrPart::Str(text) => {
                        names.insert(text);
                    }
                    StrPart::Term(term) => mentions(term, names),
                    StrPart::Char(_) => {}
                }
            }
        }
        Token(_, Tok::Var | Tok::Fmt | Tok::Num) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEFS: &str = r#"
        # A comment that names now and random reaches nothing.
        def stamp: .now;
        def pick($n): .random % $n;
        def outer: def inner: stamp; inner + 1;
        def after_outer: .data.x;
        def keyed: .["random"];
        def through($f): $f;
        def deep: [.data[] | {v: "\(stamp)"}];
        def plain: .args.id;
    "#;

    #[test]
    fn a_program_names_what_it_and_the_definitions_it_reaches_name() {
        let library = Library::of(DEFS);
        let cases = [
            (".args.id", false, false),
            ("plain", false, false),
            ("after_outer", false, false),
            (".now + 1", true, false),
            ("stamp", true, false),
            ("pick(10)", false, true),
            ("outer", true, false),
            ("keyed", false, true),
            ("deep", true, false),
            (". as $doc | $doc.random", false, true),
            ("{now}", true, false),
            (r#".["now"]"#, true, false),
            ("def local: stamp; .args | local", true, false),
            ("through(pick(2))", false, true),
            ("\"at \\(.random)\"", false, true),
            ("this does not lex ]", true, true),
        ];
        for (program, now, random) in cases {
            assert_eq!(library.reads(program), Reads { now, random }, "{program}");
        }
    }

    #[test]
    fn a_library_that_does_not_lex_names_everything() {
        assert_eq!(Library::of("def x: \"").reads(".args"), Reads::ALL);
    }
}
