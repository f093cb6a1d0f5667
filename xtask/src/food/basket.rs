//! Baskets and their money: which option choices an item allows, the basket every
//! `cart_add_item` answer stands for, and the ids that carry a basket from tool to tool.
//!
//! Ids say what they hold, so that a later call can answer for them: a one-line basket is
//! `8 r nn cc q` (restaurant 3010r, item nn of it, option choice cc, quantity q), its line
//! `99 r nn cc`; an order of basket `b` is `b × 100 + 10..99`, found again by its basket
//! digits. The user's standing basket is 880001 (lines 990001, 990002), the same basket with
//! line `l` changed to quantity `q` is `88001lq`, and 880000 is the emptied basket.

use super::world::{
    CAREEM_PAY_BALANCE, Item, MAX_QUANTITY, PLUS_MEMBER, Promotion, RESTAURANTS, Restaurant,
    SERVICE_FEE, aed, item_by_id, option_by_id, orderable, restaurant, slug,
};

/// One choice of options for an item: `(group, option)` pairs, groups in menu order.
pub type Choices = Vec<(usize, usize)>;

/// Every choice the item's groups allow, the plain item (or the first of each required
/// group) first.
pub fn combos(item: &Item) -> Vec<Choices> {
    let mut all: Vec<Choices> = vec![Vec::new()];
    for (g, group) in item.groups.iter().enumerate() {
        let subsets: Vec<Vec<usize>> = subsets(group.options.len())
            .into_iter()
            .filter(|s| (group.min..=group.max).contains(&s.len()))
            .collect();
        all = all
            .into_iter()
            .flat_map(|chosen| {
                subsets.iter().map(move |subset| {
                    let mut next = chosen.clone();
                    next.extend(subset.iter().map(|&o| (g, o)));
                    next
                })
            })
            .collect();
    }
    all
}

/// The option sets that break a group's maximum: one more than it allows.
pub fn too_many(item: &Item) -> Vec<(usize, Vec<usize>)> {
    item.groups
        .iter()
        .enumerate()
        .flat_map(|(g, group)| {
            subsets(group.options.len())
                .into_iter()
                .filter(move |s| s.len() == group.max + 1)
                .map(move |s| (g, s))
        })
        .collect()
}

/// Subsets of `0..n`, smaller first, each in ascending order.
fn subsets(n: usize) -> Vec<Vec<usize>> {
    let mut all: Vec<Vec<usize>> = (0..1u32 << n)
        .map(|bits| (0..n).filter(|i| bits & (1 << i) != 0).collect())
        .collect();
    all.sort_by(|a: &Vec<usize>, b| a.len().cmp(&b.len()).then(a.cmp(b)));
    all
}

/// One basket line.
#[derive(Clone)]
pub struct Line {
    pub id: u64,
    pub item: &'static Item,
    pub choices: Choices,
    pub quantity: u32,
}

impl Line {
    pub fn option_ids(&self) -> Vec<u64> {
        self.choices
            .iter()
            .map(|&(g, o)| super::world::option_id(self.item, g, o))
            .collect()
    }

    /// The chosen options' names and surcharges.
    pub fn options(&self) -> Vec<(u64, &'static str, u32)> {
        self.choices
            .iter()
            .map(|&(g, o)| {
                let choice = &self.item.groups[g].options[o];
                (
                    super::world::option_id(self.item, g, o),
                    choice.name,
                    choice.price,
                )
            })
            .collect()
    }

    /// One item with its options.
    pub fn unit(&self) -> u32 {
        self.item.price + self.options().iter().map(|o| o.2).sum::<u32>()
    }

    pub fn total(&self) -> u32 {
        self.unit() * self.quantity
    }

    /// `Chicken Shawarma Wrap (Large, Add cheese)`.
    pub fn name_with_options(&self) -> String {
        let names: Vec<&str> = self.options().iter().map(|o| o.1).collect();
        if names.is_empty() {
            self.item.name.to_string()
        } else {
            format!("{} ({})", self.item.name, names.join(", "))
        }
    }

    /// `chicken-shawarma-wrap-large-add-cheese`.
    pub fn slug(&self) -> String {
        let mut text = slug(self.item.name);
        for (_, name, _) in self.options() {
            text.push('-');
            text.push_str(&slug(name));
        }
        text
    }
}

/// A basket as one answer shows it.
#[derive(Clone)]
pub struct Basket {
    pub id: u64,
    pub restaurant: Option<&'static Restaurant>,
    pub lines: Vec<Line>,
}

impl Basket {
    pub fn subtotal(&self) -> u32 {
        self.lines.iter().map(Line::total).sum()
    }

    pub fn delivery_fee(&self) -> u32 {
        self.restaurant
            .filter(|_| !self.lines.is_empty())
            .map_or(0, |r| r.delivery_fee)
    }

    pub fn service_fee(&self) -> u32 {
        if self.lines.is_empty() {
            0
        } else {
            SERVICE_FEE
        }
    }

    /// What the restaurant's promotion and Careem Plus take off.
    pub fn discount(&self) -> u32 {
        let subtotal = self.subtotal();
        match self.restaurant.and_then(|r| r.promotion) {
            Some(Promotion::PercentOff {
                percent, tag, cap, ..
            }) => {
                let tagged: u32 = self
                    .lines
                    .iter()
                    .filter(|l| l.item.tags.contains(&tag))
                    .map(Line::total)
                    .sum();
                ((tagged * percent + 50) / 100).min(cap)
            }
            Some(Promotion::PlusFreeDelivery { from }) if PLUS_MEMBER && subtotal >= from => {
                self.delivery_fee()
            }
            Some(Promotion::AmountOff { amount, from }) if subtotal >= from => amount,
            _ => 0,
        }
    }

    pub fn total(&self) -> u32 {
        self.subtotal() + self.delivery_fee() + self.service_fee() - self.discount()
    }

    pub fn minimum_order(&self) -> u32 {
        self.restaurant.map_or(0, |r| r.minimum_order)
    }

    pub fn meets_minimum(&self) -> bool {
        !self.lines.is_empty() && self.subtotal() >= self.minimum_order()
    }

    pub fn item_count(&self) -> u32 {
        self.lines.iter().map(|l| l.quantity).sum()
    }

    /// Whether Careem Pay's balance covers the order.
    pub fn within_careem_pay(&self) -> bool {
        self.total() <= CAREEM_PAY_BALANCE
    }

    /// The order ids `food_place_order` hands out for this basket.
    pub fn order_ids(&self) -> (u64, u64) {
        (self.id * 100 + 10, self.id * 100 + 99)
    }

    /// `2 × Chicken Shawarma Wrap (Large), 1 × Hummus with Pita`.
    pub fn summary(&self) -> String {
        let parts: Vec<String> = self
            .lines
            .iter()
            .map(|l| format!("{} × {}", l.quantity, l.name_with_options()))
            .collect();
        parts.join(", ")
    }

    /// Prose: `basket 880001 at Shawarma Station: 2 × …, AED 56.30`.
    pub fn words(&self) -> String {
        match self.restaurant {
            Some(r) if !self.lines.is_empty() => format!(
                "basket {} at {}: {}, total AED {}",
                self.id,
                r.name,
                self.summary(),
                aed(self.total())
            ),
            _ => format!("the empty basket {}", self.id),
        }
    }
}

/// The user's basket as it stands: two Large chicken shawarma wraps and a hummus.
pub const STANDING_ID: u64 = 880001;
/// The basket once emptied.
pub const EMPTY_ID: u64 = 880000;

pub fn standing() -> Basket {
    let (shawarma, wrap) = item_by_id(3010101);
    let (_, hummus) = item_by_id(3010104);
    Basket {
        id: STANDING_ID,
        restaurant: Some(shawarma),
        lines: vec![
            Line {
                id: 990001,
                item: wrap,
                choices: vec![option_by_id(wrap, 301010112)],
                quantity: 2,
            },
            Line {
                id: 990002,
                item: hummus,
                choices: Vec::new(),
                quantity: 1,
            },
        ],
    }
}

pub fn empty() -> Basket {
    Basket {
        id: EMPTY_ID,
        restaurant: None,
        lines: Vec::new(),
    }
}

/// The standing basket with its line `line` (0 or 1) at `quantity`; 0 removes the line.
pub fn standing_with(line: usize, quantity: u32) -> Basket {
    let mut basket = standing();
    if basket.lines[line].quantity == quantity {
        return basket;
    }
    basket.id = 880_010 * 10 + (line as u64 + 1) * 10 + u64::from(quantity);
    if quantity == 0 {
        basket.lines.remove(line);
    } else {
        basket.lines[line].quantity = quantity;
    }
    basket
}

/// The restaurant digit and the item's two digits: `(1, 1)` for 3010101.
fn digits(item: &Item) -> (u64, u64) {
    let restaurant = u64::from(item.id / 100 - 30100);
    (restaurant, u64::from(item.id % 100))
}

/// The line `cart_add_item` adds for the item with choice number `combo`.
pub fn line(item: &'static Item, combo: usize, quantity: u32) -> Line {
    let (r, nn) = digits(item);
    Line {
        id: 9_900_000 + r * 10_000 + nn * 100 + combo as u64,
        item,
        choices: combos(item)[combo].clone(),
        quantity,
    }
}

/// The basket of that one line, which `cart_add_item` answers with.
pub fn single(item: &'static Item, combo: usize, quantity: u32) -> Basket {
    let (r, nn) = digits(item);
    Basket {
        id: 8_000_000 + r * 100_000 + nn * 1000 + combo as u64 * 10 + u64::from(quantity),
        restaurant: Some(restaurant(item.id / 100)),
        lines: vec![line(item, combo, quantity)],
    }
}

/// Every line `cart_add_item` can add: orderable item × option choice.
pub fn line_kinds() -> Vec<(&'static Item, usize)> {
    RESTAURANTS
        .iter()
        .flat_map(|r| {
            r.categories
                .iter()
                .flat_map(|c| c.items.iter())
                .map(move |i| (r, i))
        })
        .filter(|(r, i)| orderable(r, i))
        .flat_map(|(_, i)| (0..combos(i).len()).map(move |c| (i, c)))
        .collect()
}

/// The standing basket's variants that `cart_update_item` answers with, `(line, quantity)`.
pub fn standing_updates() -> Vec<(usize, u32)> {
    (0..2)
        .flat_map(|line| (0..=MAX_QUANTITY).map(move |q| (line, q)))
        .collect()
}

/// Every basket some answer hands out, each once: the standing basket and its variants,
/// then every one-line basket.
pub fn all() -> Vec<Basket> {
    let mut baskets = vec![standing()];
    for (line, quantity) in standing_updates() {
        let basket = standing_with(line, quantity);
        if basket.id != STANDING_ID {
            baskets.push(basket);
        }
    }
    for (item, combo) in line_kinds() {
        for quantity in 1..=MAX_QUANTITY {
            baskets.push(single(item, combo, quantity));
        }
    }
    baskets
}
