//! The rides-and-locations world as tables: the five places, the ride products with their
//! tariffs, the road distances between the places, the captains and the rides that exist.
//! Every ride and location tool file is rendered from these tables, so a fare, a captain or an
//! address reads the same in every tool; change the world here, never in the tool files.

/// One of the five places of the catalog.
pub struct Place {
    /// The digit that stands for this place in a new ride id (see [`ride_key`]).
    pub digit: u8,
    pub uuid: &'static str,
    /// Short slug used in ride scenario names (`business-marina-to-airport`).
    pub key: &'static str,
    /// The name of this place's `reverse_geocode` scenario.
    pub geocode_scenario: &'static str,
    /// The name of this place's first `search_locations` scenario.
    pub search_scenario: &'static str,
    pub title: &'static str,
    pub subtitle: &'static str,
    pub address: &'static str,
    pub latitude: f64,
    pub longitude: f64,
    /// Extra minutes a captain needs to reach a pickup here (traffic, airport approach).
    pub pickup_wait: u32,
    /// What people type for this place: a name suffix for the `search_locations` scenario
    /// (empty for the first) and its match pattern, narrowest first.
    pub aliases: &'static [(&'static str, &'static str)],
}

pub const MARINA: usize = 0;
pub const DUBAI_MALL: usize = 1;
pub const AIRPORT: usize = 2;
pub const MOE: usize = 3;
pub const INTERNET_CITY: usize = 4;

pub const PLACES: [Place; 5] = [
    Place {
        digit: 1,
        uuid: "LOC-50001",
        key: "marina",
        geocode_scenario: "dubai-marina",
        search_scenario: "marina",
        title: "Dubai Marina Walk",
        subtitle: "Dubai Marina, Dubai",
        address: "Dubai Marina Walk, Dubai Marina, Dubai, United Arab Emirates",
        latitude: 25.0866,
        longitude: 55.1474,
        pickup_wait: 0,
        aliases: &[
            ("", "~marina"),
            ("home", "=home"),
            ("my-home", "~my home"),
            ("home-address", "~home address"),
        ],
    },
    Place {
        digit: 2,
        uuid: "LOC-50002",
        key: "dubai-mall",
        geocode_scenario: "dubai-mall",
        search_scenario: "dubai-mall",
        title: "The Dubai Mall",
        subtitle: "Downtown Dubai, Dubai",
        address: "The Dubai Mall, Financial Centre Road, Downtown Dubai, Dubai, United Arab Emirates",
        latitude: 25.1972,
        longitude: 55.2797,
        pickup_wait: 1,
        aliases: &[("", "~dubai mall"), ("downtown", "~downtown")],
    },
    Place {
        digit: 3,
        uuid: "LOC-50003",
        key: "airport",
        geocode_scenario: "airport-terminal-3",
        search_scenario: "airport",
        title: "Dubai International Airport Terminal 3",
        subtitle: "Dubai International Airport, Dubai",
        address: "Terminal 3, Dubai International Airport, Airport Road, Al Garhoud, Dubai, United Arab Emirates",
        latitude: 25.2528,
        longitude: 55.3644,
        pickup_wait: 2,
        aliases: &[
            ("", "~airport"),
            ("dxb", "~dxb"),
            ("terminal", "~terminal"),
            ("t3", "~t3"),
            ("garhoud", "~garhoud"),
        ],
    },
    Place {
        digit: 4,
        uuid: "LOC-50004",
        key: "moe",
        geocode_scenario: "mall-of-the-emirates",
        search_scenario: "mall-of-the-emirates",
        title: "Mall of the Emirates",
        subtitle: "Al Barsha, Dubai",
        address: "Mall of the Emirates, Sheikh Zayed Road, Al Barsha 1, Dubai, United Arab Emirates",
        latitude: 25.1181,
        longitude: 55.2006,
        pickup_wait: 0,
        aliases: &[
            ("", "~of the emirates"),
            ("of-emirates", "~of emirates"),
            ("moe", "=moe"),
            ("moe-first-word", "~moe "),
            ("moe-last-word", "~ moe"),
            ("al-barsha", "~barsha"),
            ("ski-dubai", "~ski dubai"),
        ],
    },
    Place {
        digit: 5,
        uuid: "LOC-50005",
        key: "internet-city",
        geocode_scenario: "internet-city",
        search_scenario: "internet-city",
        title: "Dubai Internet City Building 4",
        subtitle: "Dubai Internet City, Dubai",
        address: "Building 4, Dubai Internet City, Al Sufouh, Dubai, United Arab Emirates",
        latitude: 25.0955,
        longitude: 55.159,
        pickup_wait: 1,
        aliases: &[
            ("", "~internet city"),
            ("dic", "=dic"),
            ("dic-first-word", "~dic "),
            ("dic-last-word", "~ dic"),
            ("al-sufouh", "~sufouh"),
            ("work", "=work"),
            ("my-work", "~my work"),
            ("office", "~office"),
        ],
    },
];

/// Queries that find several places: scenario name, match pattern, the places found.
/// Results come nearest first to the `latitude`/`longitude` bias when it is one of the
/// places, else nearest first to the user's Home.
pub const SEARCH_GROUPS: [(&str, &str, &[usize]); 2] = [
    ("malls", "~mall", &[DUBAI_MALL, MOE]),
    (
        "dubai",
        "=dubai",
        &[MARINA, DUBAI_MALL, AIRPORT, MOE, INTERNET_CITY],
    ),
];

/// The user's Home: the reference point of search results without a bias.
pub const HOME: usize = MARINA;

/// Road distance in tenths of a kilometre and driving minutes between two places (either
/// direction), as a captain drives them on Sheikh Zayed Road and Al Khail Road.
const ROADS: [(usize, usize, u32, u32); 10] = [
    (MARINA, DUBAI_MALL, 261, 24),
    (MARINA, AIRPORT, 384, 33),
    (MARINA, MOE, 102, 14),
    (MARINA, INTERNET_CITY, 36, 8),
    (DUBAI_MALL, AIRPORT, 147, 17),
    (DUBAI_MALL, MOE, 163, 18),
    (DUBAI_MALL, INTERNET_CITY, 239, 22),
    (AIRPORT, MOE, 295, 27),
    (AIRPORT, INTERNET_CITY, 362, 31),
    (MOE, INTERNET_CITY, 74, 11),
];

/// A trip between two points the files cannot measure (a dropped pin) is quoted as a typical
/// city trip of this length: the format has no arithmetic on coordinates.
pub const PINNED_TRIP: Road = Road {
    tenths_km: 150,
    minutes: 18,
};

/// Where a pinned point is reported when a later call cannot know its coordinates.
pub const DUBAI_CENTRE: (f64, f64) = (25.2048, 55.2708);

#[derive(Clone, Copy)]
pub struct Road {
    pub tenths_km: u32,
    pub minutes: u32,
}

impl Road {
    pub fn km(self) -> String {
        format!("{}.{}", self.tenths_km / 10, self.tenths_km % 10)
    }
}

/// The road between two different places.
pub fn road(from: usize, to: usize) -> Road {
    ROADS
        .iter()
        .find(|(a, b, _, _)| (*a, *b) == (from, to) || (*a, *b) == (to, from))
        .map(|&(_, _, tenths_km, minutes)| Road { tenths_km, minutes })
        .unwrap_or_else(|| panic!("no road between places {from} and {to}"))
}

/// Every ordered pair of different places.
pub fn routes() -> impl Iterator<Item = (usize, usize)> {
    (0..PLACES.len()).flat_map(|a| {
        (0..PLACES.len())
            .filter(move |&b| b != a)
            .map(move |b| (a, b))
    })
}

/// The trips a booking is told apart by: every route, a pin to the airport (fixed fares),
/// and pins (`None`) at both ends.
pub fn trips() -> Vec<(Option<usize>, Option<usize>)> {
    let mut trips: Vec<_> = routes().map(|(a, b)| (Some(a), Some(b))).collect();
    trips.push((None, Some(AIRPORT)));
    trips.push((None, None));
    trips
}

/// A ride product with its tariff. Amounts are in fils (1/100 AED).
pub struct Product {
    pub id: u32,
    /// The digit that stands for this product in a new ride id.
    pub digit: u8,
    pub key: &'static str,
    pub name: &'static str,
    pub description: &'static str,
    pub capacity: u32,
    pub eta_minutes: u32,
    pub base: u32,
    pub per_km: u32,
    pub minimum: u32,
    /// Charged by the meter even to the airport (no fixed fare).
    pub metered: bool,
    pub cancellation_fee: u32,
}

pub const GO: usize = 0;
pub const COMFORT: usize = 1;
pub const BUSINESS: usize = 2;
pub const HALA_TAXI: usize = 3;
pub const MAX: usize = 4;

pub const PRODUCTS: [Product; 5] = [
    Product {
        id: 1101,
        digit: 1,
        key: "go",
        name: "Go",
        description: "Affordable everyday rides",
        capacity: 4,
        eta_minutes: 3,
        base: 600,
        per_km: 160,
        minimum: 1400,
        metered: false,
        cancellation_fee: 1000,
    },
    Product {
        id: 1102,
        digit: 2,
        key: "comfort",
        name: "Comfort",
        description: "Newer cars with extra legroom and top-rated captains",
        capacity: 4,
        eta_minutes: 5,
        base: 1100,
        per_km: 205,
        minimum: 2000,
        metered: false,
        cancellation_fee: 1200,
    },
    Product {
        id: 1103,
        digit: 3,
        key: "business",
        name: "Business",
        description: "Premium sedans with professional captains",
        capacity: 4,
        eta_minutes: 7,
        base: 2000,
        per_km: 330,
        minimum: 4000,
        metered: false,
        cancellation_fee: 2500,
    },
    Product {
        id: 1104,
        digit: 4,
        key: "hala-taxi",
        name: "Hala Taxi",
        description: "Dubai RTA taxi, metered fare",
        capacity: 4,
        eta_minutes: 4,
        base: 900,
        per_km: 180,
        minimum: 1700,
        metered: true,
        cancellation_fee: 1000,
    },
    Product {
        id: 1105,
        digit: 5,
        key: "max",
        name: "Max",
        description: "Spacious cars for up to 6 passengers and extra luggage",
        capacity: 6,
        eta_minutes: 9,
        base: 1400,
        per_km: 250,
        minimum: 2600,
        metered: false,
        cancellation_fee: 1500,
    },
];

/// What a product costs on a road. Amounts in fils.
pub struct Fare {
    /// The metered price, to the fil: what a finished ride is charged.
    pub exact: u32,
    pub min: u32,
    pub max: u32,
    /// Fixed up front (trips to the airport, except the metered taxi): `min == max`.
    pub fixed: bool,
    /// The single estimate a ride's status shows before it ends.
    pub estimate: u32,
}

pub fn fare(product: &Product, road: Road, to_airport: bool) -> Fare {
    let exact = (product.base + (product.per_km * road.tenths_km + 5) / 10).max(product.minimum);
    let whole = |fils: u32| fils.div_ceil(100) * 100;
    let rounded = (exact + 50) / 100 * 100;
    if to_airport && !product.metered {
        Fare {
            exact: rounded,
            min: rounded,
            max: rounded,
            fixed: true,
            estimate: rounded,
        }
    } else {
        Fare {
            exact,
            min: exact * 9 / 10 / 100 * 100,
            max: whole(exact * 11 / 10),
            fixed: false,
            estimate: rounded,
        }
    }
}

/// The fare of a product between two of the places.
pub fn route_fare(product: &Product, from: usize, to: usize) -> Fare {
    fare(product, road(from, to), to == AIRPORT)
}

/// `12345` fils as `123.45`, a JSON number with the fils shown.
pub fn aed(fils: u32) -> String {
    format!("{}.{:02}", fils / 100, fils % 100)
}

/// Minutes until a captain of this product reaches a pickup at `place` (`None`: a pin).
pub fn pickup_eta(product: &Product, place: Option<usize>) -> u32 {
    product.eta_minutes + place.map_or(2, |p| PLACES[p].pickup_wait)
}

/// A new ride id is `<kind><product><pickup><drop-off>` followed by three random digits 0–5:
/// `6` for a ride now, `8` for a scheduled one; a place digit is 1–5, or 0 for a pin. No digit
/// after the first can be 6 or 8, so `~<key>` recognises the ride and nothing else.
pub fn ride_key(
    scheduled: bool,
    product: &Product,
    from: Option<usize>,
    to: Option<usize>,
) -> String {
    let digit = |place: Option<usize>| place.map_or(0, |p| PLACES[p].digit);
    format!(
        "{}{}{}{}",
        if scheduled { 8 } else { 6 },
        product.digit,
        digit(from),
        digit(to)
    )
}

/// The template of a new ride id with the given key.
pub fn ride_id_template(key: &str) -> String {
    format!("{key}{{{{rand:0-5}}}}{{{{rand:0-5}}}}{{{{rand:0-5}}}}")
}

/// A captain: one person, one phone, one car, on one ride at a time.
pub struct Captain {
    pub name: &'static str,
    pub rating: &'static str,
    pub phone: &'static str,
    pub make: &'static str,
    pub model: &'static str,
    pub colour: &'static str,
    pub plate: &'static str,
}

impl Captain {
    pub fn first_name(&self) -> &'static str {
        self.name.split(' ').next().unwrap_or(self.name)
    }
}

pub const CAPTAINS: [Captain; 7] = [
    Captain {
        name: "Imran Khan",
        rating: "4.92",
        phone: "+971 5X XXX XX17",
        make: "Toyota",
        model: "Camry",
        colour: "White",
        plate: "Dubai L 48213",
    },
    Captain {
        name: "Muhammad Asif",
        rating: "4.88",
        phone: "+971 5X XXX XX63",
        make: "Hyundai",
        model: "Sonata",
        colour: "Silver",
        plate: "Dubai K 30975",
    },
    Captain {
        name: "Abdul Rehman",
        rating: "4.95",
        phone: "+971 5X XXX XX08",
        make: "Lexus",
        model: "ES 300h",
        colour: "Black",
        plate: "Dubai P 71590",
    },
    Captain {
        name: "Sajid Mehmood",
        rating: "4.81",
        phone: "+971 5X XXX XX54",
        make: "Toyota",
        model: "Camry Hybrid",
        colour: "Cream",
        plate: "Dubai 62418",
    },
    Captain {
        name: "Faisal Mahmood",
        rating: "4.79",
        phone: "+971 5X XXX XX29",
        make: "Kia",
        model: "Carnival",
        colour: "Grey",
        plate: "Dubai M 20584",
    },
    Captain {
        name: "Bilal Ahmed",
        rating: "4.86",
        phone: "+971 5X XXX XX41",
        make: "Nissan",
        model: "Sunny",
        colour: "Blue",
        plate: "Dubai N 55102",
    },
    Captain {
        name: "Rashid Hussain",
        rating: "4.90",
        phone: "+971 5X XXX XX92",
        make: "Nissan",
        model: "Altima",
        colour: "Grey",
        plate: "Dubai R 18736",
    },
];

/// Where a ride stands, with the minutes that place it in time around now.
#[derive(Clone, Copy)]
pub enum Stage {
    Searching,
    Scheduled,
    OnTheWay {
        eta: u32,
    },
    Arrived {
        arrived_ago: u32,
        free_wait_left: u32,
    },
    OnTrip {
        picked_up_ago: u32,
    },
    Completed {
        completed_ago: u32,
    },
    CancelledByCaptain {
        cancelled_ago: u32,
    },
}

/// A ride of the world: its product, route, captain and where it stands.
pub struct Ride {
    pub product: usize,
    /// Pickup and drop-off: one of the places, or `None` for a pinned point.
    pub from: Option<usize>,
    pub to: Option<usize>,
    pub captain: Option<usize>,
    pub booked_ago: u32,
    pub stage: Stage,
}

/// The rides `5001001`–`5001006` of the catalog, in id order, with the `ride_get_status`
/// scenario that tells each.
pub const RIDES: [(&str, &str, Ride); 6] = [
    (
        "5001001",
        "ride-5001001-searching",
        Ride {
            product: GO,
            from: Some(MARINA),
            to: Some(DUBAI_MALL),
            captain: None,
            booked_ago: 1,
            stage: Stage::Searching,
        },
    ),
    (
        "5001002",
        "ride-5001002-captain-on-the-way",
        Ride {
            product: GO,
            from: Some(DUBAI_MALL),
            to: Some(MARINA),
            captain: Some(0),
            booked_ago: 3,
            stage: Stage::OnTheWay { eta: 4 },
        },
    ),
    (
        "5001003",
        "ride-5001003-captain-arrived",
        Ride {
            product: COMFORT,
            from: Some(INTERNET_CITY),
            to: Some(MOE),
            captain: Some(1),
            booked_ago: 11,
            stage: Stage::Arrived {
                arrived_ago: 2,
                free_wait_left: 3,
            },
        },
    ),
    (
        "5001004",
        "ride-5001004-on-trip",
        Ride {
            product: BUSINESS,
            from: Some(DUBAI_MALL),
            to: Some(AIRPORT),
            captain: Some(2),
            booked_ago: 24,
            stage: Stage::OnTrip { picked_up_ago: 9 },
        },
    ),
    (
        "5001005",
        "ride-5001005-completed",
        Ride {
            product: HALA_TAXI,
            from: Some(AIRPORT),
            to: Some(MARINA),
            captain: Some(3),
            booked_ago: 80,
            stage: Stage::Completed { completed_ago: 35 },
        },
    ),
    (
        "5001006",
        "ride-5001006-cancelled-by-captain",
        Ride {
            product: MAX,
            from: Some(MARINA),
            to: Some(MOE),
            captain: Some(4),
            booked_ago: 14,
            stage: Stage::CancelledByCaptain { cancelled_ago: 6 },
        },
    ),
];

/// The ride `ride_get_status` tells for any other id: a Go from Home to The Dubai Mall.
pub const ANY_OTHER_RIDE: Ride = Ride {
    product: GO,
    from: Some(MARINA),
    to: Some(DUBAI_MALL),
    captain: Some(5),
    booked_ago: 3,
    stage: Stage::OnTheWay { eta: 4 },
};

/// The story the forced lifecycle scenarios tell, one stage each: "book me a Comfort to the
/// airport" from Home, with one captain from assignment to drop-off.
pub fn lifecycle() -> [(&'static str, Ride); 5] {
    let ride = |booked_ago, stage| Ride {
        product: COMFORT,
        from: Some(MARINA),
        to: Some(AIRPORT),
        captain: Some(6),
        booked_ago,
        stage,
    };
    let trip = road(MARINA, AIRPORT).minutes;
    [
        ("searching", ride(0, Stage::Searching)),
        ("driver-assigned", ride(1, Stage::OnTheWay { eta: 6 })),
        (
            "arriving",
            ride(
                8,
                Stage::Arrived {
                    arrived_ago: 1,
                    free_wait_left: 4,
                },
            ),
        ),
        ("on-trip", ride(21, Stage::OnTrip { picked_up_ago: 12 })),
        (
            "completed",
            ride(trip + 12 + 10, Stage::Completed { completed_ago: 12 }),
        ),
    ]
}

/// The user's saved places: label, type, delivery instructions, minutes since last used.
pub const SAVED: [(&str, &str, usize, Option<&str>, &str); 3] = [
    (
        "Work",
        "WORK",
        INTERNET_CITY,
        Some("Building 4, 3rd floor, reception will collect"),
        "2h",
    ),
    (
        "Home",
        "HOME",
        MARINA,
        Some("Marina Promenade, Tower 2, apartment 1804. Please call on arrival"),
        "14h30m",
    ),
    ("Airport", "OTHER", AIRPORT, None, "500h"),
];

/// " (the user's Home)" for a place the user saved as Home or Work, else "".
pub fn saved_as(place: usize) -> String {
    SAVED
        .iter()
        .find(|(_, kind, p, _, _)| *p == place && *kind != "OTHER")
        .map_or(String::new(), |(label, ..)| {
            format!(" (the user's {label})")
        })
}

/// Straight-line distance in metres, for ranking search results nearest first.
pub fn metres_between(a: (f64, f64), b: (f64, f64)) -> f64 {
    let radius = 6_371_000.0_f64;
    let (lat1, lat2) = (a.0.to_radians(), b.0.to_radians());
    let dlat = lat2 - lat1;
    let dlng = (b.1 - a.1).to_radians();
    let h = (dlat / 2.0).sin().powi(2) + lat1.cos() * lat2.cos() * (dlng / 2.0).sin().powi(2);
    2.0 * radius * h.sqrt().asin()
}
