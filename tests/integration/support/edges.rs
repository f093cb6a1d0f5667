//! The edges of the data world (`docs/DATA_WORLD.md`, "The served area"): points an agent may
//! send that Careem does not serve, and a dropped pin in Dubai that it does.

use serde_json::{Value, json};

/// What lies at a point Careem does not serve.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Unserved {
    /// Land outside the area: the geocoder pins it with `serviceable` false.
    Abroad,
    /// Open sea: the geocoder finds no address.
    AtSea,
}

/// A point by name, as `{"latitude", "longitude"}` arguments, and what lies there.
pub struct Edge {
    pub name: &'static str,
    pub point: Value,
    pub lies: Unserved,
}

/// The points Careem does not serve that the journeys walk to: the (0, 0) an agent sends when
/// it knows nothing, in whole numbers and as decimals, cities abroad (Riyadh's latitude is
/// Dubai's band, its longitude is not; Doha's too), and the Gulf off Dubai's coast.
pub fn unserved_points() -> Vec<Edge> {
    let edge = |name, point, lies| Edge { name, point, lies };
    let at = |latitude: f64, longitude: f64| json!({"latitude": latitude, "longitude": longitude});
    vec![
        edge(
            "(0, 0)",
            json!({"latitude": 0, "longitude": 0}),
            Unserved::Abroad,
        ),
        edge("(0.0, 0.0)", at(0.0, 0.0), Unserved::Abroad),
        edge("London", at(51.5074, -0.1278), Unserved::Abroad),
        edge("Riyadh", at(24.7136, 46.6753), Unserved::Abroad),
        edge("Doha", at(25.2854, 51.531), Unserved::Abroad),
        edge("Sydney", at(-33.8688, 151.2093), Unserved::Abroad),
        edge("Tokyo", at(35.6762, 139.6503), Unserved::Abroad),
        edge("the Gulf off Jebel Ali", at(25.35, 55.05), Unserved::AtSea),
        edge("the open Gulf", at(25.5, 54.6), Unserved::AtSea),
    ]
}

/// A dropped pin in Dubai Marina, served like any point in the area.
pub fn dubai_pin() -> Value {
    json!({"latitude": 25.0712, "longitude": 55.1388})
}
