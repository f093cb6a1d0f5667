//! The names a person knows the world's ids by (a restaurant's, an item's, an option's, a ride
//! product's, a place's, a payment method's), read from the world's data files, so that a
//! difference says `Kaizen Sushi Bar` where the state holds `restaurantId: 30102`.

use std::collections::HashMap;

use serde_json::Value;

/// Each id the data names, by its compact JSON (`30102`, `"PM-9001"`).
#[derive(Debug, Clone, Default)]
pub struct Names(HashMap<String, String>);

/// The fields that hold an entity's id in the data files.
const IDENTITIES: [&str; 3] = ["id", "productId", "locationUuid"];

impl Names {
    /// Every object of `data` with an id and a name (`name`, `name.value`, `displayName` or
    /// `title`); where two share an id, the first read.
    pub fn of_data(data: &Value) -> Self {
        let mut names = HashMap::new();
        let mut stack = vec![data];
        while let Some(value) = stack.pop() {
            match value {
                Value::Object(map) => {
                    let id = IDENTITIES
                        .iter()
                        .find_map(|key| map.get(*key).filter(|v| v.is_string() || v.is_number()));
                    if let (Some(id), Some(name)) = (id, name_of(value)) {
                        names
                            .entry(id.to_string())
                            .or_insert_with(|| name.to_string());
                    }
                    stack.extend(map.values().rev());
                }
                Value::Array(list) => stack.extend(list.iter().rev()),
                _ => {}
            }
        }
        Self(names)
    }

    /// The name of the entity whose id is `id`.
    pub fn of(&self, id: &Value) -> Option<&str> {
        if !(id.is_string() || id.is_number()) {
            return None;
        }
        self.0.get(&id.to_string()).map(String::as_str)
    }
}

/// An object's own name, as the data files and the answers write it.
pub fn name_of(entity: &Value) -> Option<&str> {
    ["/name/value", "/name", "/displayName", "/title"]
        .iter()
        .find_map(|pointer| entity.pointer(pointer).and_then(Value::as_str))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ids_are_named_as_the_data_names_them() {
        let data = json!({
            "food": {"restaurants": [{"id": 30102, "name": {"value": "Kaizen Sushi Bar"},
                "categories": [{"items": [{"id": 3010201, "name": "Salmon Nigiri"}]}]}]},
            "rides": {"products": [{"productId": 1102, "name": "Comfort"}]},
            "places": {"places": [{"locationUuid": "LOC-50001", "title": "Dubai Marina Walk"}]},
            "account": {"paymentMethods": [{"id": "PM-9001", "displayName": "Visa 1881"}]},
        });
        let names = Names::of_data(&data);
        let cases = [
            (json!(30102), Some("Kaizen Sushi Bar")),
            (json!(3010201), Some("Salmon Nigiri")),
            (json!(1102), Some("Comfort")),
            (json!("LOC-50001"), Some("Dubai Marina Walk")),
            (json!("PM-9001"), Some("Visa 1881")),
            (json!("30102"), None),
            (json!(2), None),
            (json!([30102]), None),
        ];
        for (id, want) in cases {
            assert_eq!(names.of(&id), want, "{id}");
        }
    }
}
