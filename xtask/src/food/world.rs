//! The food world's tables: restaurants with their menus and promotions, the user's past
//! orders and the couriers who carried them. Every food, cart and order tool file is rendered
//! from these; `docs/DATA_WORLD.md` states the rules they keep.

/// A restaurant that delivers to the user's places.
pub struct Restaurant {
    pub id: u32,
    /// Slug for scenario names, e.g. `shawarma-station`.
    pub key: &'static str,
    pub name: &'static str,
    pub arabic: &'static str,
    pub cuisines: &'static [&'static str],
    pub rating: f64,
    pub rating_count: u32,
    /// Delivery estimate in minutes, `(min, max)`.
    pub eta: (u32, u32),
    pub delivery_fee: u32,
    pub minimum_order: u32,
    pub distance_km: f64,
    pub open: bool,
    pub promotion: Option<Promotion>,
    /// Words a person types to find the restaurant besides its dishes: its name and cuisines,
    /// lower case.
    pub words: &'static [&'static str],
    pub categories: &'static [Category],
}

/// An offer running at a restaurant; the search shows it and every basket applies it.
#[derive(Clone, Copy)]
pub enum Promotion {
    /// `percent` off the lines whose item carries `tag`, at most `cap`.
    PercentOff {
        percent: u32,
        tag: &'static str,
        what: &'static str,
        cap: u32,
    },
    /// Careem Plus members pay no delivery fee from a subtotal of `from`.
    PlusFreeDelivery { from: u32 },
    /// `amount` off from a subtotal of `from`.
    AmountOff { amount: u32, from: u32 },
}

/// A menu section.
pub struct Category {
    pub id: u32,
    pub name: &'static str,
    pub items: &'static [Item],
}

/// A dish or drink. Option group ids are the item id × 10 + n, option ids the group id × 10 + n.
pub struct Item {
    pub id: u32,
    pub name: &'static str,
    pub description: &'static str,
    pub price: u32,
    pub available: bool,
    pub groups: &'static [Group],
    /// Dish words a person may search for, lower case.
    pub tags: &'static [&'static str],
}

/// A group of options: size, side, extras.
pub struct Group {
    pub name: &'static str,
    pub min: usize,
    pub max: usize,
    pub options: &'static [Choice],
}

/// One option with its surcharge.
pub struct Choice {
    pub name: &'static str,
    pub price: u32,
}

/// Careem's service fee on every order.
pub const SERVICE_FEE: u32 = 250;
/// What the user's Careem Pay credit holds (`get_payment_methods`).
pub const CAREEM_PAY_BALANCE: u32 = 5720;
/// The most of one item a basket line takes.
pub const MAX_QUANTITY: u32 = 5;
/// When the closed restaurant opens: between 30 and 60 minutes from now, on the half hour.
pub const OPENS: &str = "now+1h@30m";
/// The user's Careem Plus membership (`get_user_profile`): free delivery where offered.
pub const PLUS_MEMBER: bool = true;

const fn item(
    id: u32,
    name: &'static str,
    description: &'static str,
    price: u32,
    tags: &'static [&'static str],
) -> Item {
    Item {
        id,
        name,
        description,
        price,
        available: true,
        groups: &[],
        tags,
    }
}

const fn sold_out(mut item: Item) -> Item {
    item.available = false;
    item
}

const fn with(mut item: Item, groups: &'static [Group]) -> Item {
    item.groups = groups;
    item
}

const fn choice(name: &'static str, price: u32) -> Choice {
    Choice { name, price }
}

pub static RESTAURANTS: [Restaurant; 6] = [
    Restaurant {
        id: 30101,
        key: "shawarma-station",
        name: "Shawarma Station",
        arabic: "محطة الشاورما",
        cuisines: &["Lebanese", "Shawarma", "Arabic"],
        rating: 4.6,
        rating_count: 3284,
        eta: (20, 30),
        delivery_fee: 500,
        minimum_order: 2000,
        distance_km: 1.4,
        open: true,
        promotion: Some(Promotion::PercentOff {
            percent: 20,
            tag: "wrap",
            what: "wraps",
            cap: 1500,
        }),
        words: &[
            "shawarma station",
            "shawarma",
            "lebanese",
            "arabic",
            "middle eastern",
        ],
        categories: &[
            Category {
                id: 301011,
                name: "Shawarma",
                items: &[
                    with(
                        item(
                            3010101,
                            "Chicken Shawarma Wrap",
                            "Marinated chicken shawarma in Lebanese bread with garlic toum, pickles and fries.",
                            1650,
                            &["chicken", "wrap"],
                        ),
                        &[
                            Group {
                                name: "Choose your size",
                                min: 1,
                                max: 1,
                                options: &[choice("Regular", 0), choice("Large", 400)],
                            },
                            Group {
                                name: "Extras",
                                min: 0,
                                max: 1,
                                options: &[choice("Add cheese", 300)],
                            },
                        ],
                    ),
                    item(
                        3010102,
                        "Beef Shawarma Plate",
                        "Slow-roasted beef shawarma with tahini, onion-sumac salad, fries, pickles and pita.",
                        3400,
                        &["beef"],
                    ),
                ],
            },
            Category {
                id: 301012,
                name: "Wraps & Grills",
                items: &[
                    item(
                        3010103,
                        "Falafel Wrap",
                        "Crispy falafel with tahini, tomato, parsley, turnip pickles and radish.",
                        1250,
                        &["falafel", "wrap", "vegetarian"],
                    ),
                    item(
                        3010109,
                        "Shish Tawook Plate",
                        "Charcoal-grilled chicken cubes with garlic toum, grilled tomato, fries and pita.",
                        3600,
                        &["shish tawook", "chicken", "grill"],
                    ),
                    sold_out(item(
                        3010106,
                        "Mixed Grill Platter",
                        "Shish tawook, lamb kofta and lamb kebab skewers with hummus, fries and grilled vegetables. Serves two.",
                        6800,
                        &["grill", "kebab"],
                    )),
                ],
            },
            Category {
                id: 301013,
                name: "Mezze & Drinks",
                items: &[
                    item(
                        3010104,
                        "Hummus with Pita",
                        "Creamy chickpea hummus with tahini, lemon and olive oil, served with warm pita.",
                        1600,
                        &["hummus", "vegetarian"],
                    ),
                    item(
                        3010105,
                        "Fattoush Salad",
                        "Lettuce, tomato, cucumber, radish and crispy bread with pomegranate-sumac dressing.",
                        1850,
                        &["fattoush", "salad", "vegetarian"],
                    ),
                    item(
                        3010112,
                        "Ayran",
                        "Chilled salted yoghurt drink, 250 ml.",
                        550,
                        &["ayran", "yoghurt"],
                    ),
                ],
            },
        ],
    },
    Restaurant {
        id: 30102,
        key: "kaizen-sushi-bar",
        name: "Kaizen Sushi Bar",
        arabic: "كايزن سوشي بار",
        cuisines: &["Japanese", "Sushi", "Asian"],
        rating: 4.7,
        rating_count: 1876,
        eta: (30, 45),
        delivery_fee: 850,
        minimum_order: 4500,
        distance_km: 3.8,
        open: true,
        promotion: Some(Promotion::PlusFreeDelivery { from: 6000 }),
        words: &["kaizen", "sushi", "japanese", "asian"],
        categories: &[
            Category {
                id: 301021,
                name: "Nigiri & Sashimi",
                items: &[
                    item(
                        3010201,
                        "Salmon Nigiri (2 pcs)",
                        "Norwegian salmon over seasoned sushi rice.",
                        2400,
                        &["salmon", "nigiri"],
                    ),
                    item(
                        3010205,
                        "Salmon Sashimi (5 pcs)",
                        "Thick-cut Norwegian salmon with daikon and shiso.",
                        4200,
                        &["salmon", "sashimi"],
                    ),
                ],
            },
            Category {
                id: 301022,
                name: "Signature Rolls",
                items: &[
                    with(
                        item(
                            3010202,
                            "Dragon Roll (8 pcs)",
                            "Shrimp tempura and cucumber, topped with avocado, eel sauce and sesame.",
                            5200,
                            &["dragon roll", "roll", "shrimp"],
                        ),
                        &[Group {
                            name: "Extras",
                            min: 0,
                            max: 1,
                            options: &[choice("Tobiko topping", 800)],
                        }],
                    ),
                    item(
                        3010203,
                        "California Roll (8 pcs)",
                        "Crab stick, avocado, cucumber and Japanese mayo, rolled in tobiko.",
                        3850,
                        &["california roll", "roll"],
                    ),
                    sold_out(item(
                        3010207,
                        "Rainbow Roll (8 pcs)",
                        "California roll topped with salmon, tuna, yellowtail and avocado.",
                        5800,
                        &["rainbow roll", "roll"],
                    )),
                ],
            },
            Category {
                id: 301023,
                name: "Hot Dishes",
                items: &[
                    item(
                        3010208,
                        "Chicken Teriyaki Bowl",
                        "Grilled chicken thigh with teriyaki glaze over steamed rice with pickled vegetables.",
                        4800,
                        &["chicken", "teriyaki", "bowl"],
                    ),
                    item(
                        3010210,
                        "Miso Soup",
                        "White miso with tofu, wakame and spring onion.",
                        1450,
                        &["miso", "soup"],
                    ),
                ],
            },
        ],
    },
    Restaurant {
        id: 30103,
        key: "smash-yard-burgers",
        name: "Smash Yard Burgers",
        arabic: "سماش يارد برجرز",
        cuisines: &["Burgers", "American", "Fast Food"],
        rating: 4.5,
        rating_count: 2410,
        eta: (25, 35),
        delivery_fee: 600,
        minimum_order: 3000,
        distance_km: 2.6,
        open: true,
        promotion: None,
        words: &["smash yard", "burger", "american", "fast food"],
        categories: &[
            Category {
                id: 301031,
                name: "Burgers",
                items: &[
                    with(
                        item(
                            3010301,
                            "Classic Smash Burger",
                            "Smashed beef patty, American cheese, pickles, onions and Yard sauce in a potato bun.",
                            3600,
                            &["beef", "cheeseburger"],
                        ),
                        &[Group {
                            name: "Patties",
                            min: 1,
                            max: 1,
                            options: &[choice("Single patty", 0), choice("Double patty", 1200)],
                        }],
                    ),
                    item(
                        3010304,
                        "Crispy Chicken Burger",
                        "Buttermilk fried chicken thigh, coleslaw, pickles and hot honey mayo.",
                        3450,
                        &["chicken"],
                    ),
                    sold_out(item(
                        3010305,
                        "Mushroom Swiss Burger",
                        "Smashed beef patty, sautéed mushrooms, Swiss cheese and truffle mayo.",
                        4200,
                        &["mushroom"],
                    )),
                ],
            },
            Category {
                id: 301032,
                name: "Sides & Drinks",
                items: &[
                    item(
                        3010302,
                        "Truffle Fries",
                        "Skin-on fries tossed in truffle oil and parmesan.",
                        2200,
                        &["fries", "truffle"],
                    ),
                    item(
                        3010308,
                        "Salted Caramel Shake",
                        "Vanilla ice cream shake with salted caramel sauce.",
                        2400,
                        &["shake", "dessert"],
                    ),
                    item(
                        3010309,
                        "Coca-Cola 330 ml",
                        "Chilled can.",
                        700,
                        &["coca-cola", "coke", "soft drink"],
                    ),
                ],
            },
        ],
    },
    Restaurant {
        id: 30104,
        key: "morning-syrniki-cafe",
        name: "Morning Syrniki Café",
        arabic: "مقهى مورنينغ سيرنيكي",
        cuisines: &["Breakfast", "Eastern European", "Café"],
        rating: 4.8,
        rating_count: 964,
        eta: (20, 30),
        delivery_fee: 450,
        minimum_order: 2500,
        distance_km: 1.1,
        open: true,
        promotion: Some(Promotion::AmountOff {
            amount: 1000,
            from: 6000,
        }),
        words: &[
            "morning syrniki",
            "syrniki",
            "breakfast",
            "brunch",
            "eastern european",
            "cafe",
            "café",
            "coffee",
        ],
        categories: &[
            Category {
                id: 301041,
                name: "Syrniki",
                items: &[
                    with(
                        item(
                            3010401,
                            "Classic Syrniki with Sour Cream",
                            "Golden cottage-cheese pancakes served with smetana sour cream.",
                            3200,
                            &["pancake", "cottage cheese"],
                        ),
                        &[Group {
                            name: "Portion",
                            min: 1,
                            max: 1,
                            options: &[choice("3 pieces", 0), choice("5 pieces", 1200)],
                        }],
                    ),
                    item(
                        3010402,
                        "Syrniki with Berries",
                        "Cottage-cheese pancakes with fresh berries, berry compote and sour cream.",
                        3850,
                        &["pancake", "berries"],
                    ),
                ],
            },
            Category {
                id: 301042,
                name: "Breakfast Plates",
                items: &[
                    item(
                        3010405,
                        "Shakshuka",
                        "Eggs poached in spiced tomato and pepper sauce, served with sourdough.",
                        3400,
                        &["shakshuka", "eggs", "vegetarian"],
                    ),
                    item(
                        3010407,
                        "Avocado Toast with Poached Egg",
                        "Sourdough, smashed avocado, poached egg, feta and chilli flakes.",
                        3950,
                        &["avocado", "toast", "eggs"],
                    ),
                    sold_out(item(
                        3010408,
                        "Buckwheat Porridge",
                        "Buckwheat kasha with butter, honey and walnuts.",
                        2600,
                        &["porridge", "buckwheat"],
                    )),
                ],
            },
            Category {
                id: 301043,
                name: "Coffee & Drinks",
                items: &[
                    with(
                        item(
                            3010403,
                            "Flat White",
                            "Double ristretto with silky steamed milk.",
                            1700,
                            &["flat white", "espresso"],
                        ),
                        &[Group {
                            name: "Milk",
                            min: 1,
                            max: 1,
                            options: &[choice("Full-fat milk", 0), choice("Oat milk", 300)],
                        }],
                    ),
                    item(
                        3010410,
                        "Fresh Orange Juice",
                        "Freshly squeezed, 300 ml.",
                        1800,
                        &["orange juice", "juice"],
                    ),
                ],
            },
        ],
    },
    Restaurant {
        id: 30105,
        key: "saffron-biryani-house",
        name: "Saffron Biryani House",
        arabic: "بيت الزعفران للبرياني",
        cuisines: &["Indian", "Biryani", "Curry"],
        rating: 4.6,
        rating_count: 4152,
        eta: (35, 50),
        delivery_fee: 750,
        minimum_order: 3500,
        distance_km: 5.2,
        open: true,
        promotion: Some(Promotion::PlusFreeDelivery { from: 6000 }),
        words: &["saffron", "biryani", "indian", "curry"],
        categories: &[
            Category {
                id: 301051,
                name: "Biryani",
                items: &[
                    with(
                        item(
                            3010501,
                            "Chicken Dum Biryani",
                            "Hyderabadi-style chicken slow-cooked with saffron basmati rice, served with raita and salan.",
                            4200,
                            &["chicken"],
                        ),
                        &[Group {
                            name: "Spice level",
                            min: 1,
                            max: 1,
                            options: &[choice("Mild", 0), choice("Medium", 0), choice("Hot", 0)],
                        }],
                    ),
                    item(
                        3010502,
                        "Mutton Biryani",
                        "Tender bone-in mutton layered with saffron basmati rice and fried onions.",
                        5500,
                        &["mutton", "lamb"],
                    ),
                    sold_out(item(
                        3010504,
                        "Prawn Biryani",
                        "Coastal-style prawn biryani with coconut and curry leaves.",
                        5800,
                        &["prawn", "shrimp"],
                    )),
                ],
            },
            Category {
                id: 301052,
                name: "Curries & Breads",
                items: &[
                    item(
                        3010505,
                        "Butter Chicken",
                        "Tandoori chicken in a creamy tomato and butter gravy.",
                        4500,
                        &["butter chicken", "chicken"],
                    ),
                    item(
                        3010506,
                        "Dal Makhani",
                        "Black lentils slow-cooked overnight with butter and cream.",
                        2900,
                        &["dal makhani", "lentil", "vegetarian"],
                    ),
                    item(
                        3010508,
                        "Garlic Naan",
                        "Tandoor-baked naan with garlic butter.",
                        850,
                        &["naan", "bread"],
                    ),
                ],
            },
        ],
    },
    Restaurant {
        id: 30106,
        key: "green-bowl-kitchen",
        name: "Green Bowl Kitchen",
        arabic: "مطبخ جرين بول",
        cuisines: &["Healthy", "Salads", "Bowls"],
        rating: 4.4,
        rating_count: 731,
        eta: (25, 35),
        delivery_fee: 600,
        minimum_order: 4000,
        distance_km: 2.2,
        open: false,
        promotion: None,
        words: &["green bowl", "healthy", "salad", "bowl", "vegan"],
        categories: &[
            Category {
                id: 301061,
                name: "Bowls",
                items: &[
                    with(
                        item(
                            3010601,
                            "Quinoa Power Bowl",
                            "Tri-colour quinoa, roasted sweet potato, chickpeas, kale, avocado and pumpkin seeds.",
                            3900,
                            &["quinoa", "vegan"],
                        ),
                        &[
                            Group {
                                name: "Dressing",
                                min: 1,
                                max: 1,
                                options: &[choice("Lemon tahini", 0), choice("Miso ginger", 0)],
                            },
                            Group {
                                name: "Add protein",
                                min: 0,
                                max: 1,
                                options: &[
                                    choice("Grilled chicken", 1200),
                                    choice("Grilled halloumi", 1000),
                                ],
                            },
                        ],
                    ),
                    item(
                        3010602,
                        "Salmon Poke Bowl",
                        "Marinated salmon, sushi rice, edamame, mango, cucumber and sesame-soy dressing.",
                        4950,
                        &["poke", "salmon"],
                    ),
                    item(
                        3010603,
                        "Falafel Buddha Bowl",
                        "Baked falafel, brown rice, hummus, pickled red cabbage and greens.",
                        3700,
                        &["falafel", "buddha bowl", "vegan"],
                    ),
                ],
            },
            Category {
                id: 301062,
                name: "Salads & Juices",
                items: &[
                    item(
                        3010604,
                        "Grilled Chicken Caesar",
                        "Romaine, grilled chicken, parmesan, sourdough croutons and light Caesar dressing.",
                        3800,
                        &["caesar", "chicken", "salad"],
                    ),
                    item(
                        3010607,
                        "Green Detox Juice",
                        "Cold-pressed apple, cucumber, celery, spinach and ginger.",
                        2100,
                        &["juice", "detox"],
                    ),
                    sold_out(item(
                        3010608,
                        "Acai Berry Smoothie",
                        "Acai, banana, mixed berries and almond milk.",
                        2600,
                        &["smoothie", "acai"],
                    )),
                ],
            },
        ],
    },
];

/// Words that find every restaurant, ranked after every dish and cuisine word.
pub const GENERIC_WORDS: [&str; 2] = ["restaurant", "food"];

/// A courier who delivers food orders: one person, one phone, on one order at a time.
pub struct Courier {
    pub name: &'static str,
    pub rating: f64,
    pub phone: &'static str,
}

pub const ARJUN: Courier = Courier {
    name: "Arjun Nair",
    rating: 4.88,
    phone: "+971 5X XXX XX35",
};
pub const SANJAY: Courier = Courier {
    name: "Sanjay Pillai",
    rating: 4.95,
    phone: "+971 5X XXX XX76",
};
pub const VINOD: Courier = Courier {
    name: "Vinod Menon",
    rating: 4.91,
    phone: "+971 5X XXX XX58",
};

/// Where an order stands.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Placed,
    Preparing,
    OnTheWay,
    Delivered,
    Cancelled,
}

impl Status {
    pub fn code(self) -> &'static str {
        match self {
            Status::Placed => "PLACED",
            Status::Preparing => "PREPARING",
            Status::OnTheWay => "ON_THE_WAY",
            Status::Delivered => "DELIVERED",
            Status::Cancelled => "CANCELLED",
        }
    }
}

/// One of the user's earlier orders, as `food_list_orders` lists them.
pub struct PastOrder {
    pub id: u32,
    pub key: &'static str,
    pub restaurant: u32,
    /// `(item id, chosen option ids, quantity)`.
    pub lines: &'static [(u32, &'static [u64], u32)],
    pub status: Status,
    pub label: &'static str,
    pub payment: &'static str,
    pub location: &'static str,
    /// Minutes ago it was placed.
    pub placed: i64,
    /// Minutes from now of the estimated delivery, for orders still on their way.
    pub eta: Option<i64>,
    /// Each status reached, with its label and minutes from now.
    pub timeline: &'static [(Status, &'static str, i64)],
    pub courier: Option<(&'static Courier, bool)>,
    /// The reason and the card refunded, for a cancelled order.
    pub cancelled: Option<(&'static str, &'static str)>,
}

/// The user's orders, newest first.
pub static PAST_ORDERS: [PastOrder; 4] = [
    PastOrder {
        id: 700001,
        key: "order-700001-preparing",
        restaurant: 30101,
        lines: &[(3010102, &[], 1), (3010105, &[], 1)],
        status: Status::Preparing,
        label: "Preparing your order",
        payment: "PM-9001",
        location: "LOC-50001",
        placed: 12,
        eta: Some(23),
        timeline: &[
            (Status::Placed, "Order placed", -12),
            (
                Status::Preparing,
                "Shawarma Station accepted your order and is preparing it",
                -10,
            ),
        ],
        courier: None,
        cancelled: None,
    },
    PastOrder {
        id: 700002,
        key: "order-700002-on-the-way",
        restaurant: 30102,
        lines: &[(3010201, &[], 2), (3010202, &[], 1)],
        status: Status::OnTheWay,
        label: "Your order is on the way",
        payment: "PM-9002",
        location: "LOC-50001",
        placed: 34,
        eta: Some(9),
        timeline: &[
            (Status::Placed, "Order placed", -34),
            (
                Status::Preparing,
                "Kaizen Sushi Bar accepted your order and is preparing it",
                -31,
            ),
            (Status::OnTheWay, "Arjun Nair picked up your order", -7),
        ],
        courier: Some((&ARJUN, true)),
        cancelled: None,
    },
    PastOrder {
        id: 700004,
        key: "order-700004-cancelled",
        restaurant: 30105,
        lines: &[(3010501, &[301050112], 1), (3010502, &[], 1)],
        status: Status::Cancelled,
        label: "Cancelled by the restaurant",
        payment: "PM-9001",
        location: "LOC-50001",
        placed: 180,
        eta: None,
        timeline: &[
            (Status::Placed, "Order placed", -180),
            (
                Status::Cancelled,
                "Saffron Biryani House cancelled your order",
                -172,
            ),
        ],
        courier: None,
        cancelled: Some((
            "The restaurant was too busy to accept new orders",
            "Visa ending 1881",
        )),
    },
    PastOrder {
        id: 700003,
        key: "order-700003-delivered",
        restaurant: 30104,
        lines: &[(3010402, &[], 1), (3010403, &[301040312], 2)],
        status: Status::Delivered,
        label: "Delivered",
        payment: "PM-9001",
        location: "LOC-50005",
        placed: 1560,
        eta: None,
        timeline: &[
            (Status::Placed, "Order placed", -1560),
            (
                Status::Preparing,
                "Morning Syrniki Café accepted your order and is preparing it",
                -1558,
            ),
            (
                Status::OnTheWay,
                "Sanjay Pillai picked up your order",
                -1544,
            ),
            (
                Status::Delivered,
                "Delivered to Dubai Internet City Building 4",
                -1528,
            ),
        ],
        courier: Some((&SANJAY, false)),
        cancelled: None,
    },
];

/// Money as the files write it: `18.50`.
pub fn aed(fils: u32) -> String {
    format!("{}.{:02}", fils / 100, fils % 100)
}

pub fn restaurant(id: u32) -> &'static Restaurant {
    RESTAURANTS
        .iter()
        .find(|r| r.id == id)
        .unwrap_or_else(|| panic!("no restaurant {id}"))
}

/// Every item with the restaurant that serves it.
pub fn items() -> impl Iterator<Item = (&'static Restaurant, &'static Item)> {
    RESTAURANTS.iter().flat_map(|r| {
        r.categories
            .iter()
            .flat_map(move |c| c.items.iter().map(move |i| (r, i)))
    })
}

pub fn item_by_id(id: u32) -> (&'static Restaurant, &'static Item) {
    items()
        .find(|(_, i)| i.id == id)
        .unwrap_or_else(|| panic!("no item {id}"))
}

/// Whether `cart_add_item` takes the item: it is on sale at an open restaurant.
pub fn orderable(restaurant: &Restaurant, item: &Item) -> bool {
    restaurant.open && item.available
}

pub fn group_id(item: &Item, group: usize) -> u64 {
    u64::from(item.id) * 10 + group as u64 + 1
}

pub fn option_id(item: &Item, group: usize, option: usize) -> u64 {
    group_id(item, group) * 10 + option as u64 + 1
}

/// `(group, option)` of an option id of the item.
pub fn option_by_id(item: &Item, id: u64) -> (usize, usize) {
    for (g, group) in item.groups.iter().enumerate() {
        for o in 0..group.options.len() {
            if option_id(item, g, o) == id {
                return (g, o);
            }
        }
    }
    panic!("item {} has no option {id}", item.id)
}

/// A name as a scenario-name slug: `Salmon Nigiri (2 pcs)` → `salmon-nigiri-2-pcs`.
pub fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        let c = match c {
            'é' | 'è' => 'e',
            c => c.to_ascii_lowercase(),
        };
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}
