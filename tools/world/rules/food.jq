# The food world's rules (docs/DATA_WORLD.md, "Food and cart"): restaurants and menus from
# food.json, baskets and their money, the ids that carry a basket in static mode, delivery
# slots and the opening of a closed restaurant. Call them with the call document as `.`.

include "area";

# Money is computed in whole fils (the prelude's `cents`), so that sums are exact, and written
# with `cents_money` and `cents_text` (docs/FORMAT.md, "Computed answers").
# Fils as prose: `AED 57.20`.
def food_aed: "AED \(cents_text)";

def food_restaurant($id): first(.data.food.restaurants[] | select(.id == $id)) // null;
def food_item($id): first(.data.food.restaurants[].categories[].items[] | select(.id == $id)) // null;
def food_restaurant_of_item($id): first(.data.food.restaurants[] | select(any(.categories[].items[]; .id == $id))) // null;
def food_name($r): {id: $r.id, name: $r.name};
def food_cover($r): .data.food.images.restaurant + "\($r.id)/cover.jpg";
def food_photo($item): .data.food.images.item + "\($item.id).jpg";

# Opening hours (food.json `hours`, Asia/Dubai): each range names its days and its opening
# and closing as HH:MM; a closing at or before the opening is past midnight (00:00–00:00 is
# the whole day). A range belongs to the day it opens on.
def food_minutes: split(":") | (.[0] | tonumber) * 60 + (.[1] | tonumber);
# The ranges of `$r` as [opening, closing) in Unix seconds, on the Dubai days from the one
# before `$t` for `$days` days.
def food_ranges($r; $t; $days):
  ($t | dubai | . / 86400 | floor) as $today
  | [range($today - 1; $today + $days) as $day
     | ($day * 86400 - 14400) as $midnight
     | ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][$day % 7] as $weekday
     | $r.hours[] | select(any(.days[]; . == $weekday))
     | (.open | food_minutes) as $open | (.close | food_minutes) as $close
     | [$midnight + $open * 60, $midnight + (if $close <= $open then $close + 1440 else $close end) * 60]];
# Whether `$r` is open at `$t`, and when it opens next after `$t` (null: never in a week).
def food_open_at($r; $t): any(food_ranges($r; $t; 1)[]; .[0] <= $t and $t < .[1]);
def food_opening_after($r; $t): [food_ranges($r; $t; 8)[] | .[0] | select(. > $t)] | min;
def food_is_open($r): food_open_at($r; .now);
def food_opens_at($r): food_opening_after($r; .now);
# When it opens, in words: `11:00`, `11:00 tomorrow` or `11:00 on Fri, 4th Dec` (Dubai time).
def food_opens_words($r):
  food_opens_at($r) as $t | (.now | date) as $today
  | if $t == null then "no time this week"
    elif ($t | date) == $today then $t | hhmm
    elif ($t | date) == (.now + 86400 | date) then "\($t | hhmm) tomorrow"
    else "\($t | hhmm) on \($t | daylabel)" end;
def food_closed_words($r; $doc): "restaurant \($r.id) (\($r.name.value)) is closed";

# Whether Careem Food delivers to the point.
def food_served($lat; $lng): area_served($lat; $lng);
def food_unserviceable: {error: "location not serviceable: careem food does not deliver to this location yet"};

# The promotion as the search card shows it.
def food_promotion_text($p):
  if $p.kind == "percent-off" then
    {label: "\($p.percent)% off \($p.what)", description: "\($p.percent)% off all \($p.what), up to \($p.cap | cents | food_aed) per order"}
  elif $p.kind == "plus-free-delivery" then
    {label: "Free delivery with Careem Plus", description: "Careem Plus members get free delivery on orders of \($p.from | cents | food_aed) or more"}
  else
    {label: "\($p.amount | cents | food_aed) off", description: "\($p.amount | cents | food_aed) off orders of \($p.from | cents | food_aed) or more"}
  end;

# A restaurant's search card.
def food_card($r):
  {id: $r.id, name: $r.name, cuisines: $r.cuisines, rating: $r.rating, ratingCount: $r.ratingCount,
   deliveryTime: $r.deliveryTime, deliveryFee: ($r.deliveryFee | cents | cents_money),
   minimumOrder: ($r.minimumOrder | cents | cents_money), distanceKm: $r.distanceKm, isOpen: food_is_open($r)}
  + (if food_is_open($r) then {} else {opensAt: (food_opens_at($r) | iso)} end)
  + {imageUrl: food_cover($r)}
  + (if $r.promotion then {promotion: food_promotion_text($r.promotion)} else {} end);

# A restaurant's own search words: its name, its cuisines and its `words`, in lower case.
def food_own_words($r): [$r.name.value, $r.cuisines[], $r.words[] | ascii_downcase];
# A restaurant's dish words: its items' names and tags, in lower case.
def food_dish_words($r): [$r.categories[].items[] | .name, .tags[] | ascii_downcase];
# Search: how well a word finds a restaurant (0 its name, 1 its own word, 2 a dish, 3 any).
def food_rank($word; $r):
  if ($r.name.value | ascii_downcase | contains($word)) then 0
  elif any(food_own_words($r)[]; . == $word) then 1
  elif any(food_dish_words($r)[]; . == $word) then 2
  elif any(.data.food.genericWords[]; . == $word) then 3
  else null end;
# Every search word, the most specific first: longer before shorter, generic words last.
def food_words:
  ([.data.food.restaurants[] | food_own_words(.)[], food_dish_words(.)[]] | unique) as $own
  | ($own | sort_by([(-length), .])) + .data.food.genericWords;
# The restaurants a query finds, best first, for the longest word it contains.
def food_search($query):
  ($query | ascii_downcase) as $q
  | . as $doc
  | first(food_words[] | select(. as $w | $q | contains($w))) // null
  | if . == null then [] else
      . as $word
      | [$doc.data.food.restaurants[] | . as $r | ($doc | food_rank($word; $r)) as $rank
         | select($rank != null) | {r: ., rank: $rank, open: ($doc | food_is_open($r))}]
      | sort_by([.rank, (if .open then 0 else 1 end), (-.r.rating), .r.id]) | map(.r)
    end;

# The option choices an item allows, the plain item (or each required group's first) first:
# for each group its subsets within bounds, smaller first, then in menu order.
def food_subsets: if length == 0 then [[]] else .[0] as $h | (.[1:] | food_subsets) as $r | $r + ($r | map([$h] + .)) end;
def food_combos($item):
  reduce $item.optionGroups[] as $g ([[]];
    ([range(0; $g.options | length)] | food_subsets
      | map(select(length >= $g.minSelections and length <= $g.maxSelections))
      | sort_by([length, .]) | map(map($g.options[.].id))) as $picks
    | [.[] as $c | $picks[] | $c + .]);
def food_same_options($a; $b): ($a | sort) == ($b | sort);

# A basket line with its names and money (fils), or null for an item the world does not know.
def food_line($line):
  food_item($line.itemId) as $item
  | if $item == null then null else
      [$item.optionGroups[].options[] | select(.id as $o | any($line.optionIds[]?; . == $o))] as $options
      | ($item.price | cents) + ([$options[].price | cents] | add // 0) as $unit
      | {line: $line, item: $item, options: $options, unit: $unit, total: ($unit * $line.quantity)}
    end;

# A basket's money in fils: subtotal, fees, the promotion's discount, total.
def food_money_of($restaurantId; $lines):
  food_restaurant($restaurantId) as $r
  | [$lines[] as $l | food_line($l)] as $ls
  | ([$ls[].total] | add // 0) as $subtotal
  | (if ($ls | length) > 0 and $r != null then $r.deliveryFee | cents else 0 end) as $delivery
  | (if ($ls | length) > 0 then .data.food.serviceFee | cents else 0 end) as $service
  | ($r.promotion // null) as $p
  | (if $p == null then 0
     elif $p.kind == "percent-off" then
       ([$ls[] | select(any(.item.tags[]; . == $p.tag)) | .total] | add // 0) as $tagged
       | [(($tagged * $p.percent + 50) / 100 | floor), ($p.cap | cents)] | min
     elif $p.kind == "plus-free-delivery" then
       (if .data.food.careemPlusMember and $subtotal >= ($p.from | cents) then $delivery else 0 end)
     elif $subtotal >= ($p.from | cents) then $p.amount | cents
     else 0 end) as $discount
  | {lines: $ls, subtotal: $subtotal, deliveryFee: $delivery, serviceFee: $service, discount: $discount,
     total: ($subtotal + $delivery + $service - $discount),
     minimumOrder: (if $r == null then 0 else $r.minimumOrder | cents end),
     meetsMinimumOrder: (($ls | length) > 0 and $r != null and $subtotal >= ($r.minimumOrder | cents))};

# A basket's version: a uuid made of its id, how many times it changed in this run and when it
# last changed, so that every change gives a new one, under a frozen clock too.
def food_version($id; $revision; $at):
  def digits($n): "000000000000" + ($n | floor | tostring) | .[length - 12:];
  (digits($id) | .[4:]) + "-" + (digits($revision) | .[8:]) + "-4000-8000-" + digits($at);

# The basket as the cart tools show it. `$b` is {id, restaurantId, lines, updatedAt, revision}.
def food_basket_view($b):
  food_money_of($b.restaurantId; $b.lines) as $m
  | food_restaurant($b.restaurantId) as $r
  | {id: $b.id, version: food_version($b.id; $b.revision // 0; $b.updatedAt // (.now - 720))}
  + (if ($m.lines | length) > 0 and $r != null then {restaurant: food_name($r)} else {} end)
  + {items: [$m.lines[] | {basketItemId: .line.id, itemId: .item.id, name: .item.name, quantity: .line.quantity,
       options: [.options[] | {id, name, price: (.price | cents | cents_money)}]}
       + (if .line.notes != null then {notes: .line.notes} else {} end) + {
       unitPrice: (.unit | cents_money), total: (.total | cents_money)}],
     subtotal: ($m.subtotal | cents_money), deliveryFee: ($m.deliveryFee | cents_money),
     serviceFee: ($m.serviceFee | cents_money), discount: ($m.discount | cents_money), total: ($m.total | cents_money)}
  + (if ($m.lines | length) > 0 and ($m.meetsMinimumOrder | not) then {minimumOrder: ($m.minimumOrder | cents_money)} else {} end)
  + {meetsMinimumOrder: $m.meetsMinimumOrder, updatedAt: ($b.updatedAt // (.now - 720) | iso)};

# Static mode's ids say what they carry (docs/DATA_WORLD.md, "Ids that carry a basket"): a
# one-line basket is 8 r nn cc q, its line 99 r nn cc, for restaurants 30101–30109 (r 1–9),
# items nn 01–99 and choices cc below 100; any other item's are 8 <item id> ccc q and
# 99 <item id> ccc. The seed basket with line l at quantity q is 88001lq; 880000 is the
# emptied basket.
def food_digits($itemId): {r: (($itemId / 100 | floor) - 30100), nn: ($itemId % 100)};
def food_short($itemId; $combo): food_digits($itemId) as $d | $d.r >= 1 and $d.r <= 9 and $d.nn >= 1 and $combo < 100;
def food_ccc($combo): "00\($combo)" | .[-3:];
def food_line_id($itemId; $combo):
  if food_short($itemId; $combo) then food_digits($itemId) as $d | 9900000 + $d.r * 10000 + $d.nn * 100 + $combo
  else "99\($itemId)\(food_ccc($combo))" | tonumber end;
def food_single_id($itemId; $combo; $q):
  if food_short($itemId; $combo) then food_digits($itemId) as $d | 8000000 + $d.r * 100000 + $d.nn * 1000 + $combo * 10 + $q
  else "8\($itemId)\(food_ccc($combo))\($q)" | tonumber end;
def food_single($itemId; $combo; $q; $notes; $at):
  food_item($itemId) as $item | food_combos($item)[$combo] as $options
  | {id: food_single_id($itemId; $combo; $q), restaurantId: ($itemId / 100 | floor),
     lines: [{id: food_line_id($itemId; $combo), itemId: $itemId, optionIds: $options, quantity: $q, notes: $notes}],
     updatedAt: $at};
# The seed basket with one of its lines (1 or 2) at quantity q (0 removes it).
def food_seed_with($l; $q):
  .state.basket as $b
  | if $b.lines[$l - 1].quantity == $q then $b else
      $b + {id: (8800100 + $l * 10 + $q),
            lines: [$b.lines | to_entries[] | if .key == $l - 1 then .value + {quantity: $q} else .value end | select(.quantity > 0)]}
    end;
# The item and choice a static line id names, when it names an orderable one.
def food_decode_line($id):
  (if $id >= 9910000 and $id < 10000000 then
     {itemId: ((30100 + (($id / 10000 | floor) % 10)) * 100 + (($id / 100 | floor) % 100)), combo: ($id % 100)}
   elif $id >= 10000000000 and ($id | tostring | startswith("99")) then
     ($id | tostring) as $s
     | {itemId: ($s[2:-3] | tonumber), combo: ($s[-3:] | tonumber)}
     | select(food_short(.itemId; .combo) | not)
   else null end // null) as $l
  | if $l == null then null else
      food_item($l.itemId) as $item
      | if $item != null and $item.isAvailable and $l.combo < (food_combos($item) | length) then $l else null end
    end;
# The basket a static id names, or null.
def food_decode_basket($id):
  if $id == 880000 then {id: 880000, restaurantId: null, lines: [], updatedAt: null}
  elif $id == .state.basket.id then .state.basket
  elif $id >= 8800110 and $id <= 8800125 and ($id % 10) <= .data.food.maxQuantity then
    food_seed_with(($id / 10 | floor) % 10; $id % 10)
  elif ($id >= 8100000 and $id < 9000000) or ($id >= 10000000000 and ($id | tostring | startswith("8"))) then
    food_decode_line(if $id < 9000000 then 9900000 + (($id / 10 | floor) % 100000)
                     else "99\($id | tostring | .[1:-1])" | tonumber end) as $l
    | ($id % 10) as $q
    | if $l != null and $q >= 1 and $q <= .data.food.maxQuantity then food_single($l.itemId; $l.combo; $q; null; null) else null end
  else null end;

# The basket a tool acts on: the run's when it is that id; in static mode also the one an id carries.
def food_basket_by_id($id):
  if .state.basket != null and .state.basket.id == $id then .state.basket
  elif $id == 880000 then {id: 880000, restaurantId: null, lines: [], updatedAt: null}
  elif .stateful then null
  else food_decode_basket($id) end;

# Delivery slots of a restaurant: 20-minute slots from now (or, closed, from its opening),
# each under the Dubai day it starts on.
def food_slot_list($r):
  (if food_is_open($r) then {base: .now, offsets: .data.food.slots.fromNow}
     else {base: food_opens_at($r), offsets: .data.food.slots.fromOpening} end) as $s
  | (.data.food.slots.minutes * 60) as $step
  | if $s.base == null then [] else
      [$s.offsets[] | (($s.base + .[0] * 60) | floor_to($step)) as $start
       | {start: $start, end: ($start + $step), isAvailable: (.[1] and food_open_at($r; $start))}]
    end;
def food_slot_days($r):
  food_slot_list($r) | group_by(.start | date) | map(
    {date: (.[0].start | date), weekday: (.[0].start | weekday), label: (.[0].start | daylabel),
     slots: map({start: (.start | iso), end: (.end | iso), label: "\(.start | hhmm) – \(.end | hhmm)", isAvailable})});
# The slot a `scheduled_slot_start` names, when it is one the restaurant offers now.
def food_slot_at($r; $text):
  first(food_slot_list($r)[] | select(.isAvailable and (.start | iso) == $text)) // null;

# A restaurant's menu, as food_get_restaurant_menu shows it.
def food_menu($r):
  . as $doc
  | {id: $r.id, name: $r.name, cuisines: $r.cuisines, rating: $r.rating, ratingCount: $r.ratingCount, isOpen: food_is_open($r)}
  + (if food_is_open($r) then {} else {opensAt: (food_opens_at($r) | iso), statusLabel: "Closed now · opens at \(food_opens_words($r))"} end)
  + {deliveryTime: $r.deliveryTime, deliveryFee: ($r.deliveryFee | cents | cents_money),
     minimumOrder: ($r.minimumOrder | cents | cents_money), imageUrl: food_cover($r),
     menu: {categories: [$r.categories[] | {id, name, items: [.items[] as $i | {id: $i.id, name: $i.name,
       description: $i.description, price: ($i.price | cents | cents_money), imageUrl: ($doc | food_photo($i)),
       isAvailable: $i.isAvailable, hasOptions: (($i.optionGroups | length) > 0)}]}]}};

# An item's details, as food_get_item_details shows them.
def food_details($r; $i):
  {id: $i.id, restaurantId: $r.id, name: $i.name, description: $i.description,
   price: ($i.price | cents | cents_money), imageUrl: food_photo($i), isAvailable: $i.isAvailable,
   optionGroups: [$i.optionGroups[] | {id, name, minSelections, maxSelections,
     options: [.options[] | {id, name, price: (.price | cents | cents_money)}]}]};
