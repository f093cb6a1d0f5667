# The calls `careem-mcp lint` makes over the whole world (docs/DATA_WORLD.md, "Checking the
# world"): for each tool, the arguments to try, made from the data so that a restaurant, item,
# place, product or ride added to it is tried too. lint runs every call as a client's would be
# answered, once as `serve` and once as `serve --stateful`, on the seed state, and reports a
# program that fails with the call and the entity of the data it was computing.
#
# The program sees the document a computed scenario sees (`.data`, `.state`, `.now`,
# `.stateful`) with the world's definitions, and gives {"<tool>": [<arguments>, …], …}.
include "food"; include "rides";
. as $doc
| .data.places.places as $places
| ($places[0] | {latitude, longitude}) as $home
| [.data.food.restaurants[] | . as $r | .categories[].items[] | {r: $r, item: .}] as $items
| [$items[] | . as $i | ($doc | food_combos($i.item)) | to_entries[] | $i + {combo: .key, options: .value}] as $choices
| [$choices | group_by(.item.id)[] | first] as $firsts
| [.data.account.paymentMethods[].id] as $methods
| {payment_method_id: $methods[0], delivery_location_uuid: $places[0].locationUuid} as $pay
| .data.rides.products as $products
| .data.food.maxQuantity as $max
| [$places[] as $a | $places[] | select(.locationUuid != $a.locationUuid) | {from: $a, to: .}] as $trips
| .data.rides.pinnedInDubai as $pin
| def trip($from; $to): {pickupLatitude: $from.latitude, pickupLongitude: $from.longitude,
                         dropoffLatitude: $to.latitude, dropoffLongitude: $to.longitude};
  def digit($place): ([$places[].locationUuid] | index($place.locationUuid)) + 1;
{
  food_merchant_search: ([food_words[], (.data.food.restaurants[] | .name.value, .cuisines[])]
                         | unique | map({query: .} + $home)),
  food_get_restaurant_menu: [.data.food.restaurants[] | {restaurant_id: .id} + $home],
  food_get_delivery_slots: [.data.food.restaurants[] | {restaurant_id: .id} + $home],
  food_get_item_details: [$items[] | {restaurant_id: .r.id, item_id: .item.id}],
  cart_add_item: [$choices[] | {restaurant_id: .r.id, item_id: .item.id, option_ids: .options, quantity: 1}],
  cart_update_item: ([$firsts[] | . as $c | {basket_item_id: ($doc | food_line_id($c.item.id; $c.combo)), quantity: 2}]
                     + [.state.basket.lines[]? | {basket_item_id: .id} | (. + {quantity: 0}), (. + {quantity: $max})]),
  cart_get_basket: ([{}] + [.data.food.restaurants[] | {restaurant_id: .id}]),
  cart_clear: ([{}] + [.data.food.restaurants[] | {restaurant_id: .id}]),
  food_place_order: ([$firsts[] | . as $c | {basket_id: ($doc | food_single_id($c.item.id; $c.combo; $max))} + $pay]
                     + [.state.basket.id? // empty | {basket_id: .} as $seed
                        | ($methods[] | $seed + $pay + {payment_method_id: .}),
                          ($places[1:][] | $seed + $pay + {delivery_location_uuid: .locationUuid})]
                     + [.data.food.restaurants[] as $r | first($firsts[] | select(.r.id == $r.id)) as $c
                        | first(($doc | food_slot_list($r))[] | select(.isAvailable))
                        | {basket_id: ($doc | food_single_id($c.item.id; $c.combo; $max)),
                           scheduled_slot_start: (.start | iso)} + $pay]),
  food_get_order_status: ([.data.food_orders.pastOrders[] | {order_id: .id}]
                          + [$firsts[] | . as $c | {order_id: (($doc | food_single_id($c.item.id; $c.combo; $max)) * 100 + 10)}]),
  food_list_orders: [{}],
  search_locations: ([.data.locations.search | (.aliases[], .groups[]) | (.contains // [])[], (.equals // [])[]]
                     + [$places[].title] | unique | map({query: .})
                     + [$places[] | {query: "dubai", latitude, longitude}]),
  reverse_geocode: [($places[], $pin) | {latitude, longitude}],
  get_saved_locations: [{}],
  ride_get_estimates: ([$trips[] | trip(.from; .to)] + [$places[] | trip($pin; .), trip(.; $pin)]),
  ride_book: ([$trips[] | trip(.from; .to) + {productId: $products[0].productId}]
              + [$products[] | trip($places[0]; $places[1]) + {productId}]
              + [$methods[] as $method | trip($places[0]; $places[1]) + {productId: $products[0].productId, paymentMethodId: $method}]
              + [$products[] | trip($pin; $places[0]) + {productId, scheduledAt: (($doc.now + 7200) | iso)}]),
  ride_get_status: ([.data.rides.seedRides[] | {rideId}]
                    + [$trips[] | {rideId: "61\(digit(.from))\(digit(.to))001"}]
                    + [$products | to_entries[] | "\(.key + 1)12001" | {rideId: ("6" + .)}, {rideId: ("8" + .)}]
                    + [{rideId: "0"}]),
  ride_cancel: ([.data.rides.seedRides[] | {rideId}] + [{rideId: "6112001"}, {rideId: "0"}]),
  get_payment_methods: [{}],
  get_user_profile: [{}]
}
