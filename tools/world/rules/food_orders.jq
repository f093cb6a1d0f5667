# Orders (docs/DATA_WORLD.md, "Orders"): placing one, its life on the run's clock, the user's
# past orders of food_orders.json. Call them with the call document as `.`.

include "clock";
include "food";
include "wallet";

def food_courier($name): first(.data.food_orders.couriers[] | select(.name == $name)) // null;
def food_place_title($uuid): first(.data.places.places[] | select(.locationUuid == $uuid) | .title) // "your address";

def food_order_items($lines):
  [$lines[] | {itemId: .item.id, name: .item.name}
   + (if (.options | length) > 0 then {options: (.options | map(.name))} else {} end)
   + {quantity: .line.quantity, total: (.total | cents_money)}];

# Why food_place_order refuses the call, in production's words, or null when it takes it;
# `$careemPay` is Careem Pay's balance in fils (wallet.jq's `wallet_balance`).
def food_place_refusal($careemPay):
  .args as $a | food_basket_by_id($a.basket_id) as $b
  | .data.food.unservedPinPrefix as $unserved
  | if ($a.delivery_location_uuid | startswith($unserved)) then food_unserviceable.error
    elif $b == null then "failed to place order: unexpected response status 404"
    elif ($b.lines | length) == 0 then "failed to place order: basket \($b.id) is empty"
    else
      food_money_of($b.restaurantId; $b.lines) as $m | food_restaurant($b.restaurantId) as $r
      | if ($m.meetsMinimumOrder | not) then
          "below minimum order: basket subtotal \($m.subtotal | food_aed) is below the restaurant minimum of \($m.minimumOrder | food_aed)"
        elif $a.scheduled_slot_start != null and food_slot_at($r; $a.scheduled_slot_start) == null then
          "failed to place order: scheduled_slot_start must be the start of a delivery slot from food_get_delivery_slots (days[].slots[].start), got \($a.scheduled_slot_start | tojson)"
        elif (food_is_open($r) | not) and $a.scheduled_slot_start == null then
          "failed to place order: \(food_closed_words($r; .)) and not accepting orders, opens at \(food_opens_words($r)); choose a slot from food_get_delivery_slots"
        elif (first(.data.account.paymentMethods[] | select(.id == $a.payment_method_id)) // null) == null then
          "failed to place order: payment method \($a.payment_method_id | tojson) not found; use an id from get_payment_methods"
        elif (first(.data.account.paymentMethods[] | select(.id == $a.payment_method_id)).type == "CAREEM_PAY")
             and $m.total > $careemPay then
          "payment declined: Careem Pay balance \($careemPay | food_aed) is less than the order total of \($m.total | food_aed); choose another payment method"
        else null end
    end;

# The order food_place_order makes of the call's basket: an id from the run's counter (in
# static mode one that carries the basket), its lines and money, the slot it waits for.
def food_new_order:
  .args as $a | food_basket_by_id($a.basket_id) as $b
  | food_restaurant($b.restaurantId) as $r
  | (if $a.scheduled_slot_start != null then food_slot_at($r; $a.scheduled_slot_start) else null end) as $slot
  | (if .stateful then .state.nextOrderId else $b.id * 100 + 10 + (.random % 90) end) as $id
  | .data.food_orders.newOrderCouriers as $couriers
  | {id: $id, basketId: $b.id, restaurantId: $b.restaurantId, lines: $b.lines,
     paymentMethodId: $a.payment_method_id, deliveryLocationUuid: $a.delivery_location_uuid,
     notes: $a.notes, placedAt: .now, slot: $slot, courier: $couriers[$id % ($couriers | length)]};

# The world after an order is placed: the order first, the basket gone, the counter moved on.
def food_after_order($order):
  .state + {orders: ([$order] + (.state.orders // [])), basket: null, basketEmptiedAt: .now,
            nextOrderId: ((.state.nextOrderId // 700101) + 1)};

# A slot as every label shows it, in Dubai time: `Scheduled for Sat, 5th Dec, 13:40 – 14:00`.
def food_slot_label($slot): "Scheduled for \($slot.start | daylabel), \($slot.start | hhmm) – \($slot.end | hhmm)";

# Where a placed order stands at the run's clock: the steps reached, each with its time.
def food_life($o):
  .now as $now | food_restaurant($o.restaurantId) as $r | .data.food_orders.lifecycle as $l
  | (if $o.slot != null then
       ($o.slot.start - $l.scheduledPlacedBeforeSlot * 60) as $prep
       | {preparing: (if food_open_at($r; $prep) then $prep else food_opening_after($r; $prep) // $prep end), eta: $o.slot.end}
     else {preparing: ($o.placedAt + $l.placedMinutes * 60), eta: ($o.placedAt + $r.deliveryTime.max * 60)} end) as $t
  | [{status: "PLACED", at: $o.placedAt, title: $l.statusLabels.PLACED,
      label: (if $o.slot != null then food_slot_label($o.slot) else $l.statusLabels.PLACED end)},
     {status: "PREPARING", at: $t.preparing, title: "\($r.name.value) accepted your order and is preparing it", label: $l.statusLabels.PREPARING},
     {status: "ON_THE_WAY", at: ($t.eta - $l.onTheWayBeforeEta * 60), title: "\($o.courier) picked up your order", label: $l.statusLabels.ON_THE_WAY},
     {status: "DELIVERED", at: $t.eta, title: "Delivered to \(food_place_title($o.deliveryLocationUuid))", label: $l.statusLabels.DELIVERED}]
  | {steps: ([.[0]] + [.[1:][] | select(.at <= $now)]), eta: $t.eta};

# food_place_order's answer for the order `$o` just placed.
def food_placed($o):
  food_money_of($o.restaurantId; $o.lines) as $m | food_life($o) as $life
  | {order: ({id: $o.id, status: "PLACED",
      statusLabel: $life.steps[0].label,
      restaurant: food_name(food_restaurant($o.restaurantId)), basketId: $o.basketId,
      itemCount: ([$o.lines[].quantity] | add), total: ($m.total | cents_money),
      paymentMethodId: $o.paymentMethodId, deliveryLocationUuid: $o.deliveryLocationUuid, notes: $o.notes,
      isScheduled: ($o.slot != null), placedAt: ($o.placedAt | iso), estimatedDeliveryAt: ($life.eta | iso)})};

# food_place_order's change (a `jq change`) given its refusal (`food_place_refusal`, or null
# where the file has checked it already): the order placed and the world after it, or the
# refusal, which changes nothing.
def food_place($refused):
  if $refused != null then {response: {error: $refused}}
  else food_new_order as $o | {state: food_after_order($o), response: food_placed($o)} end;

# An order the agent placed, as food_get_order_status tells it now.
def food_order_view($o):
  food_life($o) as $life | ($life.steps | last) as $at
  | food_money_of($o.restaurantId; $o.lines) as $m
  | food_courier($o.courier) as $c
  | {id: $o.id, status: $at.status, statusLabel: $at.label, restaurant: food_name(food_restaurant($o.restaurantId)),
     items: food_order_items($m.lines), subtotal: ($m.subtotal | cents_money), deliveryFee: ($m.deliveryFee | cents_money),
     serviceFee: ($m.serviceFee | cents_money), discount: ($m.discount | cents_money), total: ($m.total | cents_money)}
  + (if $o.paymentMethodId != null then {paymentMethodId: $o.paymentMethodId, deliveryLocationUuid: $o.deliveryLocationUuid} else {} end)
  + {placedAt: ($o.placedAt | iso)}
  + (if $at.status == "DELIVERED" then {deliveredAt: ($life.eta | iso)} else {estimatedDeliveryAt: ($life.eta | iso)} end)
  + (if $at.status == "ON_THE_WAY" then
       {captain: ({name: $c.name, rating: $c.rating, phone: $c.phone, vehicle: "Motorbike",
                   location: (.data.food_orders.lifecycle.courierLocation + {updatedAtUnix: .now})})}
     elif $at.status == "DELIVERED" then {captain: {name: $c.name, rating: $c.rating, phone: $c.phone, vehicle: "Motorbike"}}
     else {} end)
  + {timeline: [$life.steps[] | {status, label: .title, time: (.at | iso)}]};

# One of the user's seed orders (food_orders.json), its timeline in minutes from the run's
# epoch: the steps reached by now, the last of them its status.
def food_past_view($p):
  .now as $now | clock_epoch as $epoch | .data.food_orders.lifecycle as $l
  | ($epoch - $p.placedMinutesAgo * 60) as $placed
  | [$p.timeline[] | . + {at: ($epoch + .minutes * 60)}] as $all
  | ([$all[0]] + [$all[1:][] | select(.at <= $now)]) as $steps
  | ($steps | last) as $at
  | (first($all[] | select(.status == "DELIVERED") | .at) // null) as $eta
  | food_money_of($p.restaurantId; $p.lines) as $m
  | food_courier($p.courier) as $c
  | {id: $p.id, status: $at.status, statusLabel: ($at.statusLabel // $l.statusLabels[$at.status]),
     restaurant: food_name(food_restaurant($p.restaurantId)),
     items: food_order_items($m.lines), subtotal: ($m.subtotal | cents_money), deliveryFee: ($m.deliveryFee | cents_money),
     serviceFee: ($m.serviceFee | cents_money), discount: ($m.discount | cents_money), total: ($m.total | cents_money),
     paymentMethodId: $p.paymentMethodId, deliveryLocationUuid: $p.deliveryLocationUuid, placedAt: ($placed | iso)}
  + (if $at.status == "DELIVERED" then {deliveredAt: ($at.at | iso)}
     elif $at.status != "CANCELLED" and $eta != null then {estimatedDeliveryAt: ($eta | iso)} else {} end)
  + (if $at.status == "CANCELLED" then
       {cancelledAt: ($at.at | iso), cancellationReason: $p.cancellationReason,
        refund: {amount: ($m.total | cents_money), destination: $p.refundedTo, status: "REFUNDED"}}
     else {} end)
  + (if $c == null or ($at.status != "ON_THE_WAY" and $at.status != "DELIVERED") then {} else
       {captain: ({name: $c.name, rating: $c.rating, phone: $c.phone, vehicle: "Motorbike"}
         + (if $at.status == "ON_THE_WAY" then {location: ($l.courierLocation + {updatedAtUnix: $now})} else {} end))}
     end)
  + {timeline: [$steps[] | {status, label, time: (.at | iso)}]};

# The order food_get_order_status tells for an id: the run's, a past one, in static mode one
# whose id carries its basket (just placed); null for an id no answer handed out.
def food_order_by_id($id):
  (first(.state.orders[]? | select(.id == $id)) // null) as $mine
  | (first(.data.food_orders.pastOrders[] | select(.id == $id)) // null) as $past
  | if $mine != null then food_order_view($mine)
    elif $past != null then food_past_view($past)
    elif .stateful then null
    else food_decode_basket($id / 100 | floor) as $b
      | if $b != null and $id % 100 >= 10 and food_money_of($b.restaurantId; $b.lines).meetsMinimumOrder
        then food_order_view({id: $id, restaurantId: $b.restaurantId, lines: $b.lines, placedAt: .now, slot: null,
                              courier: .data.food_orders.newOrderCouriers[0]})
        else null end
    end;

# An order as food_list_orders lists it.
def food_listed($view):
  {id: $view.id, restaurant: $view.restaurant, status: $view.status, statusLabel: $view.statusLabel,
   itemsSummary: ($view.items | map("\(.quantity) × \(.name)\(if .options then " (\(.options | join(", ")))" else "" end)") | join(", ")),
   itemCount: ($view.items | map(.quantity) | add // 0), total: $view.total, placedAt: $view.placedAt};
