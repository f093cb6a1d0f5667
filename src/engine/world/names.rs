//! Which of the call document's per-call keys a program names: `.now` changes every second,
//! `.random` on every call, `.forced` with how the scenario was chosen and `.when` with what its
//! condition gave, so a program that
//! names none gives the same answer to the same arguments and state, and that answer can be
//! kept (`answers.rs`). A program names a key when
//! its own text, or the text of a definition it calls (and so on), has the key's name as a
//! word, a field (`.now`, `$doc.now`), a string (`.["now"]`, escapes and all) or a variable
//! (`. as {$now}`). Definitions are told apart by name alone, whatever their arity, which can
//! only find more names than a program reaches. Generic access to the whole document
//! (`to_entries`, `..`, `getpath`, a computed key) names nothing: such a program sees a
//! document without the keys it does not name. A definition of a module the program loads
//! (`modules.rs`) counts as one of its own, and `alias::name` calls `name`: the text read is
//! the flat definitions and those of every module the program reaches (`expr.rs`).

use std::collections::{HashMap, HashSet};

use jaq_core::load::Lexer;
use jaq_core::load::lex::{StrPart, Tok, Token};

/// The keys of the call document that change from call to call.
const PER_CALL: [&str; 4] = ["now", "random", "forced", "when"];

/// The per-call keys of the document a program names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reads {
    pub now: bool,
    pub random: bool,
    pub forced: bool,
    pub when: bool,
}

impl Reads {
    /// What a program that cannot be read is taken to name: everything.
    const ALL: Self = Self {
        now: true,
        random: true,
        forced: true,
        when: true,
    };
    const NONE: Self = Self {
        now: false,
        random: false,
        forced: false,
        when: false,
    };

    /// What `names` name themselves.
    fn among(names: &HashSet<&str>) -> Self {
        Self {
            now: names.contains("now"),
            random: names.contains("random"),
            forced: names.contains("forced"),
            when: names.contains("when"),
        }
    }

    fn with(self, other: Self) -> Self {
        Self {
            now: self.now || other.now,
            random: self.random || other.random,
            forced: self.forced || other.forced,
            when: self.when || other.when,
        }
    }
}

/// What the definitions of one jq text name themselves, by name, and what the text names
/// outside any definition: read once, and put together with others' into a [`Library`].
pub struct Named<'a> {
    bodies: HashMap<&'a str, HashSet<&'a str>>,
    loose: HashSet<&'a str>,
    /// Whether the text lexed: one that did not is taken to name everything.
    lexed: bool,
}

impl<'a> Named<'a> {
    pub fn of(text: &'a str) -> Self {
        let mut named = Self {
            bodies: HashMap::new(),
            loose: HashSet::new(),
            lexed: false,
        };
        let Ok(tokens) = Lexer::new(text).lex() else {
            return named;
        };
        named.lexed = true;
        let mut at = 0;
        while at < tokens.len() {
            match definition(&tokens[at..]) {
                Some((name, body)) => {
                    let names = named.bodies.entry(name).or_default();
                    for token in body {
                        mentions(token, names);
                    }
                    at += body.len() + 2;
                }
                None => {
                    mentions(&tokens[at], &mut named.loose);
                    at += 1;
                }
            }
        }
        named
    }

    /// The names the text defines.
    pub fn defines(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.bodies.keys().copied()
    }
}

/// The definitions of jq texts, by name: what each one names, itself or through the
/// definitions it calls.
pub struct Library<'a> {
    defs: HashMap<&'a str, Reads>,
    /// What the texts name outside any definition (a library has nothing there): every
    /// program reaches it.
    loose: Reads,
}

impl<'a> Library<'a> {
    #[cfg(test)]
    pub fn of(text: &'a str) -> Self {
        Self::of_parts(&[&Named::of(text)])
    }

    /// The library of the texts `parts` were read from, together: a definition given in two
    /// of them names what both name.
    pub fn of_parts(parts: &[&Named<'a>]) -> Self {
        if parts.iter().any(|part| !part.lexed) {
            return Self {
                defs: HashMap::new(),
                loose: Reads::ALL,
            };
        }
        let mut bodies: HashMap<&str, HashSet<&str>> = HashMap::new();
        let mut loose = HashSet::new();
        for part in parts {
            for (name, names) in &part.bodies {
                bodies.entry(name).or_default().extend(names);
            }
            loose.extend(&part.loose);
        }
        // Each definition's calls, then what it reaches, until nothing more is found.
        let calls: HashMap<&str, Vec<&str>> = bodies
            .iter()
            .map(|(name, names)| {
                let called = names
                    .iter()
                    .copied()
                    .filter(|named| bodies.contains_key(named))
                    .collect();
                (*name, called)
            })
            .collect();
        let mut defs: HashMap<&str, Reads> = bodies
            .iter()
            .map(|(name, names)| (*name, Reads::among(names)))
            .collect();
        let mut grew = true;
        while grew {
            grew = false;
            for (name, called) in &calls {
                let reached = called
                    .iter()
                    .fold(defs[name], |reads, callee| reads.with(defs[callee]));
                if reached != defs[name] {
                    defs.insert(name, reached);
                    grew = true;
                }
            }
        }
        let mut library = Self {
            defs,
            loose: Reads::NONE,
        };
        library.loose = library.named(&loose);
        library
    }

    /// The per-call keys that `program` names, itself or through the definitions it reaches.
    pub fn reads(&self, program: &str) -> Reads {
        let Ok(tokens) = Lexer::new(program).lex() else {
            return Reads::ALL;
        };
        let mut names = HashSet::new();
        for token in &tokens {
            mentions(token, &mut names);
        }
        self.loose.with(self.named(&names))
    }

    /// What `names` name, themselves and through the definitions among them.
    fn named(&self, names: &HashSet<&str>) -> Reads {
        names
            .iter()
            .filter_map(|name| self.defs.get(name))
            .fold(Reads::among(names), |reads, def| reads.with(*def))
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
            // `alias::name` calls a definition of an imported module.
            // A word holds a colon only as that `::`: a loop over its few bytes finds it, where
            // a searcher set up per word cost more than the rest of this function.
            if let Some(colon) = word.bytes().rposition(|byte| byte == b':') {
                names.insert(&word[colon + 1..]);
            }
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
        Token(variable, Tok::Var) => {
            // `. as {$now}` binds the field of that name.
            names.insert(variable.trim_start_matches('$'));
        }
        Token(_, Tok::Str(parts)) => {
            let mut text = String::new();
            for part in parts {
                match part {
                    StrPart::Str(piece) => {
                        names.insert(piece);
                        text.push_str(piece);
                    }
                    StrPart::Term(term) => mentions(term, names),
                    StrPart::Char(c) => text.push(*c),
                }
            }
            // A key spelt with escapes, `.["n\u006fw"]`.
            if let Some(key) = PER_CALL.iter().find(|key| **key == text) {
                names.insert(key);
            }
        }
        Token(_, Tok::Fmt | Tok::Num) => {}
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
            (". as {$now, $args} | $now", true, false),
            ("reduce .args as {$random} (0; $random)", false, true),
            (r#".["n\u006fw"]"#, true, false),
            (r#".["ran\("")dom"]"#, false, true),
            ("this does not lex ]", true, true),
            ("import \"clock\" as c; c::stamp", true, false),
            ("c::plain", false, false),
        ];
        for (program, now, random) in cases {
            let reads = library.reads(program);
            assert_eq!((reads.now, reads.random), (now, random), "{program}");
        }
        let forced = |program: &str| library.reads(program).forced;
        assert!(forced("if .forced then 1 else 2 end"));
        assert!(forced(". as {$forced} | $forced"));
        assert!(!forced("pick(2) + stamp"));
        assert!(library.reads("{error: (.when // 1)}").when);
        assert!(!library.reads("pick(2) + stamp").when);
    }

    #[test]
    fn a_library_that_does_not_lex_names_everything() {
        assert_eq!(Library::of("def x: \"").reads(".args"), Reads::ALL);
    }
}
