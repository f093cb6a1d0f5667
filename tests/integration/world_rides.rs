//! The ride world's tables held to the rules of `docs/DATA_WORLD.md`: fares, captains and
//! places. The files they generate are checked by `generated`.

use xtask::rides::world::{
    self, CAPTAINS, PLACES, PRODUCTS, RIDES, lifecycle, road, route_fare, routes,
};

#[test]
fn fares_differ_by_product_and_never_fall_with_distance() {
    for (from, to) in routes() {
        let mut fares: Vec<u32> = PRODUCTS
            .iter()
            .map(|p| route_fare(p, from, to).estimate)
            .collect();
        fares.sort_unstable();
        fares.dedup();
        assert_eq!(
            fares.len(),
            PRODUCTS.len(),
            "two products cost the same from {from} to {to}"
        );
    }
    for product in &PRODUCTS {
        let mut by_distance: Vec<(u32, u32)> = routes()
            .map(|(from, to)| {
                (
                    road(from, to).tenths_km,
                    route_fare(product, from, to).estimate,
                )
            })
            .collect();
        by_distance.sort_unstable();
        for pair in by_distance.windows(2) {
            assert!(pair[0].1 <= pair[1].1, "{}: {pair:?}", product.name);
        }
        let (shortest, longest) = (by_distance[0], by_distance[by_distance.len() - 1]);
        assert!(shortest.1 < longest.1, "{}: a flat fare", product.name);
    }
}

#[test]
fn one_captain_one_car_one_ride() {
    let mut driving: Vec<usize> = RIDES
        .iter()
        .filter_map(|(_, _, ride)| ride.captain)
        .collect();
    driving.push(world::ANY_OTHER_RIDE.captain.expect("a captain"));
    driving.push(lifecycle()[1].1.captain.expect("a captain"));
    let mut distinct = driving.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), driving.len(), "a captain drives two rides");
    for field in [
        |c: &world::Captain| c.name,
        |c: &world::Captain| c.phone,
        |c: &world::Captain| c.plate,
    ] {
        let mut values: Vec<&str> = CAPTAINS.iter().map(field).collect();
        values.sort_unstable();
        values.dedup();
        assert_eq!(
            values.len(),
            CAPTAINS.len(),
            "two captains share a name, phone or plate"
        );
    }
    let story: Vec<_> = lifecycle()
        .iter()
        .map(|(_, r)| (r.product, r.from, r.to))
        .collect();
    assert!(
        story.windows(2).all(|w| w[0] == w[1]),
        "the lifecycle changes ride"
    );
}

#[test]
fn places_are_distinct_and_in_dubai() {
    for (i, a) in PLACES.iter().enumerate() {
        assert!((24.7..25.4).contains(&a.latitude) && (54.9..55.6).contains(&a.longitude));
        for b in &PLACES[i + 1..] {
            assert_ne!((a.latitude, a.longitude), (b.latitude, b.longitude));
            assert_ne!(a.uuid, b.uuid);
        }
    }
}
