//! Arguments a computed answer echoes, written back as `{{args.…}}` placeholders, so that an
//! exported scenario echoes what each call sends, as the computed one does.
//!
//! The scenario is rendered twice more with every free argument changed to a value of its own
//! (a probe): a part of the answer that follows the probes exactly (the argument itself, or a
//! text with the argument's text in it) is an echo. A free argument is a required one, or one
//! with a default, of type string, integer or number, with no `enum`, `const` or `format`,
//! whose probes stay within its bounds, and that the scenario's match rule does not pin (a
//! `"*"` pins nothing). A part that changes in any other way (a fare from a distance) keeps its
//! value for the sample arguments.

use serde_json::{Map, Value};

use super::node::{Node, Piece};
use crate::engine::select::arguments;

/// One free argument: its name, its sample value and its two probes.
#[derive(Debug, Clone)]
pub struct Probe {
    key: String,
    sample: Value,
    first: Value,
    second: Value,
}

/// The free arguments of `args` under `schema`, with `rule` pinning some.
pub fn probes(schema: &Value, args: &Value, rule: Option<&Value>) -> Vec<Probe> {
    let Value::Object(args) = args else {
        return Vec::new();
    };
    let required: Vec<&str> = arguments::required(schema).collect();
    let pinned = |key: &str| {
        rule.and_then(|rule| rule.get(key))
            .is_some_and(|pattern| pattern != "*")
    };
    args.iter()
        .enumerate()
        .filter(|(_, (key, _))| !pinned(key))
        .filter_map(|(index, (key, sample))| {
            let property = schema.get("properties")?.get(key)?;
            let wanted = required.contains(&key.as_str()) || property.get("default").is_some();
            let fixed = ["enum", "const", "format"]
                .iter()
                .any(|word| property.get(word).is_some());
            if !wanted || fixed {
                return None;
            }
            let (first, second) = match (sample, property.get("type")?.as_str()?) {
                (Value::String(_), "string") => (
                    Value::from(format!("qzx{index}a")),
                    Value::from(format!("qzx{index}b")),
                ),
                (Value::Number(_), "integer") => {
                    (Value::from(7_001 + index), Value::from(7_301 + index))
                }
                (Value::Number(_), "number") => (
                    Value::from(11.5 + index as f64),
                    Value::from(12.25 + index as f64),
                ),
                _ => return None,
            };
            let within = |probe: &Value| {
                let n = probe.as_f64().unwrap_or_default();
                property
                    .get("minimum")
                    .and_then(Value::as_f64)
                    .is_none_or(|min| n >= min)
                    && property
                        .get("maximum")
                        .and_then(Value::as_f64)
                        .is_none_or(|max| n <= max)
            };
            (!first.is_number() || (within(&first) && within(&second))).then(|| Probe {
                key: key.clone(),
                sample: sample.clone(),
                first,
                second,
            })
        })
        .collect()
}

/// `args` with every probe's first (or second) value.
pub fn probed(args: &Value, probes: &[Probe], second: bool) -> Value {
    let mut map = args.as_object().cloned().unwrap_or_else(Map::new);
    for probe in probes {
        let value = if second { &probe.second } else { &probe.first };
        map.insert(probe.key.clone(), value.clone());
    }
    Value::Object(map)
}

/// The answer for the probes, beside the one for the sample arguments.
#[derive(Debug, Clone, Copy)]
pub struct Probed<'a> {
    pub first: &'a Value,
    pub second: &'a Value,
}

impl<'a> Probed<'a> {
    /// The same place in both answers, when both have it.
    pub fn at_key(self, key: &str) -> Option<Self> {
        Some(Self {
            first: self.first.get(key)?,
            second: self.second.get(key)?,
        })
    }

    pub fn at_index(self, index: usize, length: usize) -> Option<Self> {
        let same = |value: &Value| value.as_array().is_some_and(|a| a.len() == length);
        (same(self.first) && same(self.second)).then_some(Self {
            first: self.first.get(index)?,
            second: self.second.get(index)?,
        })
    }
}

/// `value` (the sample's answer at this place) as an echo of the probes, when it is one.
pub fn echo(value: &Value, probed: Probed<'_>, probes: &[Probe]) -> Option<Node> {
    if probed.first == probed.second {
        return None;
    }
    let whole = probes.iter().find(|probe| {
        *value == probe.sample && *probed.first == probe.first && *probed.second == probe.second
    });
    if let Some(probe) = whole {
        let expression = format!("args.{}", probe.key);
        return Some(match value {
            Value::String(_) => Node::Text(vec![Piece::Placeholder(expression)]),
            _ => Node::Bare(expression),
        });
    }
    let (Value::String(text), Value::String(first), Value::String(second)) =
        (value, probed.first, probed.second)
    else {
        return None;
    };
    let pieces = split(first, probes);
    let fits = |written: &str, pick: fn(&Probe) -> &Value| {
        render(&pieces, probes, pick).as_deref() == Some(written)
    };
    let echoes = pieces
        .iter()
        .any(|piece| matches!(piece, Piece::Placeholder(_)));
    (echoes && fits(text, |p| &p.sample) && fits(second, |p| &p.second))
        .then_some(Node::Text(pieces))
}

/// `text` cut at each probe's first text.
fn split(text: &str, probes: &[Probe]) -> Vec<Piece> {
    let mut pieces = vec![Piece::Text(text.to_string())];
    for probe in probes {
        let needle = as_text(&probe.first);
        pieces = pieces
            .into_iter()
            .flat_map(|piece| match piece {
                Piece::Text(words) if words.contains(&needle) => {
                    let mut cut = Vec::new();
                    for (index, part) in words.split(&needle).enumerate() {
                        if index > 0 {
                            cut.push(Piece::Placeholder(format!("args.{}", probe.key)));
                        }
                        if !part.is_empty() {
                            cut.push(Piece::Text(part.to_string()));
                        }
                    }
                    cut
                }
                other => vec![other],
            })
            .collect();
    }
    pieces
}

/// The pieces with each placeholder as the text of the value `pick` gives its probe.
fn render(pieces: &[Piece], probes: &[Probe], pick: fn(&Probe) -> &Value) -> Option<String> {
    pieces
        .iter()
        .map(|piece| match piece {
            Piece::Text(words) => Some(words.clone()),
            Piece::Placeholder(expression) => {
                let key = expression.strip_prefix("args.")?;
                let probe = probes.iter().find(|p| p.key == key)?;
                Some(as_text(pick(probe)))
            }
        })
        .collect()
}

/// A value as SPEC inserts it into a string: a string's characters, anything else its JSON.
fn as_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// A stand-in for a computed answer: `{at: {lat, lon}, label, fare}` from the arguments.
    fn answer(args: &Value) -> Value {
        let (lat, q) = (&args["lat"], args["q"].as_str().unwrap_or_default());
        json!({"at": {"lat": lat}, "label": format!("near {q} ({lat})"), "fare": lat.as_f64().unwrap_or_default() * 2.0 + 1.0, "pinned": args["id"]})
    }

    #[test]
    fn what_follows_the_probes_is_an_echo_and_nothing_else_is() {
        let schema = json!({"type": "object", "required": ["lat", "q", "id"], "properties": {
            "lat": {"type": "number", "minimum": -90, "maximum": 90},
            "q": {"type": "string"},
            "id": {"type": "integer"},
            "when": {"type": "string", "format": "date-time"},
            "note": {"type": "string"},
        }});
        let args = json!({"lat": 1, "q": "sample", "id": 30101, "when": "x", "note": "sample"});
        let probes = probes(&schema, &args, Some(&json!({"id": 30101})));
        let keys: Vec<_> = probes.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(
            keys,
            ["lat", "q"],
            "pinned, formatted and optional ones stay"
        );
        let value = answer(&args);
        let (first, second) = (
            answer(&probed(&args, &probes, false)),
            answer(&probed(&args, &probes, true)),
        );
        let probed = Probed {
            first: &first,
            second: &second,
        };
        let at = |key: &str| probed.at_key(key).unwrap();
        assert_eq!(
            echo(
                &value["at"]["lat"],
                at("at").at_key("lat").unwrap(),
                &probes
            ),
            Some(Node::Bare("args.lat".into()))
        );
        assert_eq!(
            echo(&value["label"], at("label"), &probes),
            Some(Node::Text(vec![
                Piece::Text("near ".into()),
                Piece::Placeholder("args.q".into()),
                Piece::Text(" (".into()),
                Piece::Placeholder("args.lat".into()),
                Piece::Text(")".into()),
            ]))
        );
        assert_eq!(echo(&value["fare"], at("fare"), &probes), None);
        assert_eq!(echo(&value["pinned"], at("pinned"), &probes), None);
    }
}
