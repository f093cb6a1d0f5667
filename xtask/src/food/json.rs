//! JSON templates as values, printed the way the hand-written files read: an object or array
//! that fits on a line stays on it, a longer one gets one member a line. Placeholders that
//! stand as bare values (`{{args.notes}}`, `{{rand:…}}`) and money amounts with their fils
//! (`18.50`) are raw text.

use super::world::aed;

/// A piece of a JSON template.
pub enum J {
    /// Printed as it is: a number, a literal, a bare placeholder.
    Raw(String),
    Str(String),
    Obj(Vec<(&'static str, J)>),
    Arr(Vec<J>),
}

/// The widest line that keeps an object or array on one line.
const WIDTH: usize = 140;

pub fn obj(fields: Vec<(&'static str, J)>) -> J {
    J::Obj(fields)
}

pub fn arr(items: Vec<J>) -> J {
    J::Arr(items)
}

pub fn s(text: impl Into<String>) -> J {
    J::Str(text.into())
}

pub fn raw(text: impl Into<String>) -> J {
    J::Raw(text.into())
}

pub fn num(n: impl ToString) -> J {
    J::Raw(n.to_string())
}

pub fn flag(b: bool) -> J {
    J::Raw(b.to_string())
}

/// `{"amount": 18.50, "currency": "AED"}`.
pub fn money(fils: u32) -> J {
    obj(vec![("amount", raw(aed(fils))), ("currency", s("AED"))])
}

/// `{"value": "Shawarma Station", "localized": "محطة الشاورما"}`.
pub fn name(english: &str, arabic: &str) -> J {
    obj(vec![("value", s(english)), ("localized", s(arabic))])
}

impl J {
    /// The template text, indented as a top-level block.
    pub fn render(&self) -> String {
        let mut out = String::new();
        self.write(0, &mut out);
        out
    }

    fn flat(&self) -> String {
        match self {
            J::Raw(text) => text.clone(),
            J::Str(text) => serde_json::to_string(text).expect("a string serialises"),
            J::Obj(fields) => {
                let parts: Vec<String> = fields
                    .iter()
                    .map(|(k, v)| format!("\"{k}\": {}", v.flat()))
                    .collect();
                format!("{{{}}}", parts.join(", "))
            }
            J::Arr(items) => {
                let parts: Vec<String> = items.iter().map(J::flat).collect();
                format!("[{}]", parts.join(", "))
            }
        }
    }

    fn write(&self, indent: usize, out: &mut String) {
        let flat = self.flat();
        let fits = indent + flat.chars().count() <= WIDTH;
        let pad = " ".repeat(indent + 2);
        match self {
            J::Obj(fields) if !fits && !fields.is_empty() => {
                out.push_str("{\n");
                for (n, (key, value)) in fields.iter().enumerate() {
                    out.push_str(&format!("{pad}\"{key}\": "));
                    value.write(indent + 2, out);
                    out.push_str(if n + 1 < fields.len() { ",\n" } else { "\n" });
                }
                out.push_str(&" ".repeat(indent));
                out.push('}');
            }
            J::Arr(items) if !fits && !items.is_empty() => {
                out.push_str("[\n");
                for (n, item) in items.iter().enumerate() {
                    out.push_str(&pad);
                    item.write(indent + 2, out);
                    out.push_str(if n + 1 < items.len() { ",\n" } else { "\n" });
                }
                out.push_str(&" ".repeat(indent));
                out.push(']');
            }
            _ => out.push_str(&flat),
        }
    }
}
