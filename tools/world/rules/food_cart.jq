# The basket tools' rules (docs/DATA_WORLD.md, "Basket"): what cart_add_item and
# cart_update_item refuse, and the basket after them. With `--stateful` they act on the run's
# basket; without it on a basket of one line whose ids carry it. Call them with the call
# document as `.`.

include "food";

def food_item_words($item): "item \($item.id) (\($item.name))";

# Why cart_add_item refuses the call, in production's words, or null when it takes it.
def food_add_refusal:
  .args as $a | food_item($a.item_id) as $item | food_restaurant_of_item($a.item_id) as $r
  | ($a.option_ids // []) as $opts | .data.food.maxQuantity as $max
  | if $r == null or $r.id != $a.restaurant_id then "failed to add item to basket: unexpected response status 404"
    elif .stateful and .state.basket != null and (.state.basket.lines | length) > 0 and .state.basket.restaurantId != $r.id then
      food_restaurant(.state.basket.restaurantId) as $other
      | "failed to add item to basket: basket \(.state.basket.id) already has items from \($other.name.value) (\($other.id)), clear it with cart_clear before adding items from restaurant \($a.restaurant_id)"
    elif ($item.isAvailable | not) then "failed to add item to basket: \(food_item_words($item)) is currently unavailable"
    elif any($opts[]; . as $o | all($item.optionGroups[].options[]; .id != $o)) then
      "failed to add item to basket: \(food_item_words($item)) has no option \(first($opts[] | . as $o | select(all($item.optionGroups[].options[]; .id != $o)))); get the option ids from food_get_item_details"
    else
      (first($item.optionGroups[] | . as $g | ([$opts[] | select(. as $o | any($g.options[]; .id == $o))] | length) as $n
             | select($n > $g.maxSelections) | "failed to add item to basket: choose at most \($g.maxSelections) option from \"\($g.name)\" for \(food_item_words($item))")
       // first($item.optionGroups[] | . as $g | ([$opts[] | select(. as $o | any($g.options[]; .id == $o))] | length) as $n
             | select($n < $g.minSelections) | "failed to add item to basket: \(food_item_words($item)) needs \($g.minSelections) option from \"\($g.name)\"; get the option ids from food_get_item_details")
       // (($a.quantity + (if .stateful then (first(.state.basket.lines[]? | select(.itemId == $item.id and food_same_options(.optionIds; $opts) and .notes == $a.notes) | .quantity) // 0) else 0 end)) as $q
           | if $q > $max then "failed to add item to basket: quantity \($q) is more than the \($max) allowed of \(food_item_words($item)) per order" else null end))
    end;

# The basket after cart_add_item, the line it added to and the world after it.
def food_added:
  .args as $a | food_item($a.item_id) as $item | ($a.option_ids // []) as $opts
  | if .stateful then
      .state.basket as $b0
      | (if $b0 == null then {id: .state.nextBasketId, restaurantId: ($a.item_id / 100 | floor), lines: []} else $b0 end) as $b
      | (first($b.lines[] | select(.itemId == $item.id and food_same_options(.optionIds; $opts) and .notes == $a.notes)) // null) as $same
      | (if $same != null then $same.id else .state.nextBasketItemId end) as $lineId
      | ($b + {restaurantId: ($a.item_id / 100 | floor), updatedAt: .now, revision: (($b.revision // 0) + 1),
               lines: (if $same != null then [$b.lines[] | if .id == $lineId then .quantity += $a.quantity else . end]
                       else $b.lines + [{id: $lineId, itemId: $item.id, optionIds: $opts, quantity: $a.quantity, notes: $a.notes}] end)}) as $after
      | {basket: $after, lineId: $lineId,
         state: (.state + {basket: $after,
                           nextBasketId: (.state.nextBasketId + (if $b0 == null then 1 else 0 end)),
                           nextBasketItemId: (.state.nextBasketItemId + (if $same == null then 1 else 0 end))})}
    else
      first(food_combos($item) | to_entries[] | select(food_same_options(.value; $opts)) | .key) as $combo
      | food_single($item.id; $combo; $a.quantity; $a.notes; .now) as $b
      | {basket: $b, lineId: $b.lines[0].id, state: .state}
    end;

# The basket line cart_update_item changes: the run's, or in static mode one an id carries.
def food_line_to_update($id):
  if .state.basket != null and any(.state.basket.lines[]; .id == $id) then {basket: .state.basket}
  elif .stateful then null
  else food_decode_line($id) as $l | if $l == null then null else {single: $l} end end;

def food_update_refusal:
  .args as $a | .data.food.maxQuantity as $max
  | if food_line_to_update($a.basket_item_id) == null then
      "failed to update basket item \($a.basket_item_id): unexpected response status 404"
    elif $a.quantity > $max then
      "failed to update basket item \($a.basket_item_id): quantity \($a.quantity) is more than the \($max) allowed of one item per order"
    else null end;

# The basket after cart_update_item (0 removes the line).
def food_updated:
  .args as $a | food_line_to_update($a.basket_item_id) as $found
  | if $found.single != null then
      (if $a.quantity == 0 then {id: 880000, restaurantId: null, lines: [], updatedAt: .now}
       else food_single($found.single.itemId; $found.single.combo; $a.quantity; null; .now) end)
    elif .stateful then
      $found.basket + {updatedAt: .now, revision: (($found.basket.revision // 0) + 1),
        lines: [$found.basket.lines[] | if .id == $a.basket_item_id then .quantity = $a.quantity else . end | select(.quantity > 0)]}
    else
      ([$found.basket.lines | to_entries[] | select(.value.id == $a.basket_item_id) | .key + 1][0]) as $l
      | food_seed_with($l; $a.quantity) + {updatedAt: .now}
    end;

# The basket cart_get_basket shows: the run's, empty when there is none (or it is another
# restaurant's). An emptied basket was last changed when the run cleared or ordered it.
def food_empty_basket: {id: 880000, restaurantId: null, lines: [], updatedAt: (.state.basketEmptiedAt // (.now - 7200))};
def food_current_basket:
  .state.basket as $b
  | if $b == null or ($b.lines | length) == 0
       or (.args.restaurant_id != null and .args.restaurant_id != $b.restaurantId)
    then food_empty_basket else $b end;

# cart_add_item's change (a `jq change`) given its refusal (`food_add_refusal`, or null where
# the file has checked it already): the line added and the basket answered, or the refusal,
# which changes nothing.
def food_add($refused):
  if $refused != null then {response: {error: $refused}}
  else food_added as $added
  | {state: $added.state,
     response: {basket: food_basket_view($added.basket), addedBasketItemId: $added.lineId}} end;

# cart_update_item's change given its refusal (`food_update_refusal`, or null where the file has
# checked it already): the line at its new quantity (gone at 0) and the basket answered, or the
# refusal, which changes nothing.
def food_update($refused):
  if $refused != null then {response: {error: $refused}}
  else food_updated as $basket
  | {state: (.state + {basket: $basket}),
     response: ((if .args.quantity == 0 then {removedBasketItemId: .args.basket_item_id} else {} end)
                + {basket: food_basket_view($basket)})} end;
