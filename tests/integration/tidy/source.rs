//! The crate's source as the tidy checks see it: `src/lib.rs` and `src/main.rs` read with syn,
//! every module in its tree, and every path a file names — in its `use` items and in its
//! code, macros' bodies included — resolved, through `use`s and re-exports, to the file that
//! defines what it names.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use proc_macro2::{Spacing, TokenStream, TokenTree};
use quote::ToTokens;
use syn::{Item, ItemUse, UseTree, Visibility};

/// One module: a file, or a `mod name { … }` inside one.
pub struct Module {
    /// Its path from its crate's root (`["engine", "controls", "entries"]`).
    pub path: Vec<String>,
    parent: Option<usize>,
    /// The file it is written in, relative to `src/`.
    pub file: String,
    children: BTreeMap<String, usize>,
    /// The names its own items define.
    defs: BTreeSet<String>,
    /// The names its `use` items bring in, each with the path it names.
    imports: BTreeMap<String, Vec<String>>,
    /// The paths of its `use …::*`.
    globs: Vec<Vec<String>>,
}

/// How a file names a path.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Naming {
    /// A `use` item the file keeps to itself.
    Use,
    /// A `pub use` (or `pub(crate) use`…): a re-export, which offers a name but does not use it.
    Reexport,
    /// A path in code: `crate::a::b()`, `super::C`, `imported_module::f`.
    Code,
}

/// A path named in a file.
pub struct Named {
    /// The module the path is written in.
    pub module: usize,
    pub path: Vec<String>,
    pub naming: Naming,
}

/// What a path names inside the crate.
#[derive(Clone, Copy)]
pub enum Target {
    Module(usize),
    /// An item defined in that module.
    Item(usize),
}

impl Target {
    pub fn module(self) -> usize {
        match self {
            Target::Module(module) | Target::Item(module) => module,
        }
    }
}

pub struct Source {
    pub modules: Vec<Module>,
    pub named: Vec<Named>,
    /// Each macro called (`println!(…)`), by its last name, with the module it is called in.
    pub macros: Vec<(usize, String)>,
}

impl Source {
    /// Reads the library's and the binary's module trees from `src`.
    pub fn read(src: &Path) -> Self {
        let mut source = Source {
            modules: Vec::new(),
            named: Vec::new(),
            macros: Vec::new(),
        };
        for root in ["lib.rs", "main.rs"] {
            source.read_file(src, Vec::new(), None, root);
        }
        source
    }

    fn read_file(
        &mut self,
        src: &Path,
        path: Vec<String>,
        parent: Option<usize>,
        file: &str,
    ) -> usize {
        let text = fs::read_to_string(src.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let parsed = syn::parse_file(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        let module = self.add_module(path, parent, file);
        self.read_items(src, module, &parsed.items);
        module
    }

    fn add_module(&mut self, path: Vec<String>, parent: Option<usize>, file: &str) -> usize {
        self.modules.push(Module {
            path,
            parent,
            file: file.to_owned(),
            children: BTreeMap::new(),
            defs: BTreeSet::new(),
            imports: BTreeMap::new(),
            globs: Vec::new(),
        });
        self.modules.len() - 1
    }

    fn read_items(&mut self, src: &Path, module: usize, items: &[Item]) {
        for item in items {
            match item {
                Item::Mod(child) => {
                    let name = child.ident.to_string();
                    let mut path = self.modules[module].path.clone();
                    path.push(name.clone());
                    let id = match &child.content {
                        Some((_, items)) => {
                            let file = self.modules[module].file.clone();
                            let id = self.add_module(path, Some(module), &file);
                            self.read_items(src, id, items);
                            id
                        }
                        None => {
                            let file = child_file(src, &self.modules[module].file, &name);
                            self.read_file(src, path, Some(module), &file)
                        }
                    };
                    self.modules[module].children.insert(name, id);
                }
                Item::Use(item) => self.read_use(module, item),
                other => {
                    if let Some(name) = defined_name(other) {
                        self.modules[module].defs.insert(name);
                    }
                    self.read_code(module, other.to_token_stream());
                }
            }
        }
    }

    fn read_use(&mut self, module: usize, item: &ItemUse) {
        let naming = match item.vis {
            Visibility::Inherited => Naming::Use,
            _ => Naming::Reexport,
        };
        let mut leaves = Vec::new();
        use_leaves(&item.tree, &mut Vec::new(), &mut leaves);
        for (path, name) in leaves {
            match name {
                Some(name) => {
                    self.modules[module].imports.insert(name, path.clone());
                }
                None => self.modules[module].globs.push(path.clone()),
            }
            self.named.push(Named {
                module,
                path,
                naming,
            });
        }
    }

    /// Every path in `tokens` that starts a path (not the tail of `a::b`), and every `use` in a
    /// block.
    fn read_code(&mut self, module: usize, tokens: TokenStream) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i < tokens.len() {
            match &tokens[i] {
                TokenTree::Group(group) => self.read_code(module, group.stream()),
                TokenTree::Ident(ident) if ident == "use" => {
                    let end = (i..tokens.len())
                        .find(|&j| matches!(&tokens[j], TokenTree::Punct(p) if p.as_char() == ';'));
                    if let Some(end) = end {
                        let item: TokenStream = tokens[i..=end].iter().cloned().collect();
                        if let Ok(item) = syn::parse2::<ItemUse>(item) {
                            self.read_use(module, &item);
                            i = end + 1;
                            continue;
                        }
                    }
                }
                TokenTree::Ident(ident) if is_macro_call(&tokens, i) => {
                    self.macros.push((module, ident.to_string()));
                }
                TokenTree::Ident(_) if !follows_path_separator(&tokens, i) => {
                    let mut path = Vec::new();
                    let mut j = i;
                    while let Some(TokenTree::Ident(ident)) = tokens.get(j) {
                        path.push(ident.to_string());
                        if !is_path_separator(&tokens, j + 1) {
                            break;
                        }
                        j += 3;
                    }
                    if path.len() > 1 {
                        self.named.push(Named {
                            module,
                            path,
                            naming: Naming::Code,
                        });
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }

    fn root(&self, mut module: usize) -> usize {
        while let Some(parent) = self.modules[module].parent {
            module = parent;
        }
        module
    }

    /// What `path`, written in `module`, names in the crate; `None` for another crate's.
    pub fn resolve(&self, module: usize, path: &[String]) -> Option<Target> {
        self.resolve_within(module, path, 0)
    }

    fn resolve_within(&self, module: usize, path: &[String], depth: usize) -> Option<Target> {
        let (first, rest) = path.split_first()?;
        let start = match first.as_str() {
            "crate" => self.root(module),
            "self" => module,
            "super" => {
                let mut at = self.modules[module].parent?;
                let mut rest = rest;
                while rest.first().is_some_and(|s| s == "super") {
                    at = self.modules[at].parent?;
                    rest = &rest[1..];
                }
                return self.walk(at, rest, depth);
            }
            _ => return self.walk_name(module, path, depth),
        };
        self.walk(start, rest, depth)
    }

    /// `path` inside `module`, its first name one that `module` has.
    fn walk(&self, module: usize, path: &[String], depth: usize) -> Option<Target> {
        if path.is_empty() {
            return Some(Target::Module(module));
        }
        self.walk_name(module, path, depth)
            .or(Some(Target::Item(module)))
    }

    /// `path`'s first name looked up in `module`: a child module, an item of its own, a name
    /// it imports, one of its globs'. `None` when nothing there has it.
    fn walk_name(&self, module: usize, path: &[String], depth: usize) -> Option<Target> {
        let (first, rest) = path.split_first()?;
        if depth > 32 {
            return None;
        }
        let m = &self.modules[module];
        if let Some(&child) = m.children.get(first) {
            return self.walk(child, rest, depth);
        }
        if m.defs.contains(first) {
            return Some(Target::Item(module));
        }
        if let Some(import) = m.imports.get(first) {
            return match self.resolve_within(module, import, depth + 1)? {
                Target::Module(found) => self.walk(found, rest, depth + 1),
                item => Some(item),
            };
        }
        m.globs
            .iter()
            .find_map(|glob| match self.resolve_within(module, glob, depth + 1)? {
                Target::Module(found) if found != module => self.walk_name(found, path, depth + 1),
                _ => None,
            })
    }
}

/// The file of `mod name;` declared in `parent`.
fn child_file(src: &Path, parent: &str, name: &str) -> String {
    let parent = Path::new(parent);
    let folder = match parent.file_name().and_then(|f| f.to_str()) {
        Some("lib.rs" | "main.rs" | "mod.rs") => parent.parent().map(Path::to_path_buf),
        _ => Some(parent.with_extension("")),
    }
    .unwrap_or_default();
    let flat: PathBuf = folder.join(format!("{name}.rs"));
    let nested: PathBuf = folder.join(name).join("mod.rs");
    let file = if src.join(&flat).is_file() {
        flat
    } else {
        nested
    };
    file.to_string_lossy().replace('\\', "/")
}

fn defined_name(item: &Item) -> Option<String> {
    let ident = match item {
        Item::Const(i) => &i.ident,
        Item::Enum(i) => &i.ident,
        Item::Fn(i) => &i.sig.ident,
        Item::Static(i) => &i.ident,
        Item::Struct(i) => &i.ident,
        Item::Trait(i) => &i.ident,
        Item::TraitAlias(i) => &i.ident,
        Item::Type(i) => &i.ident,
        Item::Union(i) => &i.ident,
        Item::Macro(i) => i.ident.as_ref()?,
        _ => return None,
    };
    Some(ident.to_string())
}

/// A `use` tree's leaves: each path with the name it brings in (`None` for a glob).
fn use_leaves(
    tree: &UseTree,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    match tree {
        UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_leaves(&p.tree, prefix, out);
            prefix.pop();
        }
        UseTree::Name(n) => {
            let name = n.ident.to_string();
            if name == "self" {
                out.push((prefix.clone(), prefix.last().cloned()));
            } else {
                let mut path = prefix.clone();
                path.push(name.clone());
                out.push((path, Some(name)));
            }
        }
        UseTree::Rename(r) => {
            let mut path = prefix.clone();
            if r.ident != "self" {
                path.push(r.ident.to_string());
            }
            out.push((path, Some(r.rename.to_string())));
        }
        UseTree::Glob(_) => out.push((prefix.clone(), None)),
        UseTree::Group(g) => {
            for tree in &g.items {
                use_leaves(tree, prefix, out);
            }
        }
    }
}

/// Whether `tokens[at]` and `tokens[at + 1]` are `::`.
fn is_path_separator(tokens: &[TokenTree], at: usize) -> bool {
    matches!(
        (tokens.get(at), tokens.get(at + 1)),
        (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
            if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':'
    )
}

/// Whether the identifier at `at` continues a path (`a::b`'s `b`) or names a macro's
/// fragment (`$crate`'s `crate` starts a path: it is kept).
fn follows_path_separator(tokens: &[TokenTree], at: usize) -> bool {
    at >= 2 && is_path_separator(tokens, at - 2)
}

/// Whether the identifier at `at` is a macro's name in a call: `name!(…)`, `name![…]`,
/// `name!{…}`.
fn is_macro_call(tokens: &[TokenTree], at: usize) -> bool {
    matches!(
        (tokens.get(at + 1), tokens.get(at + 2)),
        (Some(TokenTree::Punct(bang)), Some(TokenTree::Group(_))) if bang.as_char() == '!'
    )
}
