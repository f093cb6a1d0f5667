# Rides (docs/DATA_WORLD.md, "Rides and locations"): the products and their fares on the roads
# of rides.json, the rides an agent books, and where each ride stands on the run's clock.
# Amounts are computed in fils (1/100 AED) so that they add up to the fil.

include "area";
include "clock";
include "locations";

# The product with this id, or null.
def ride_product($id): first(.data.rides.products[] | select(.productId == $id)) // null;

# A trip between two points ({latitude, longitude}): the places at its ends (null for a pin),
# the road between them (a typical city trip when an end is a pin), whether fixed airport
# fares apply, and the extra minutes a captain needs to reach the pickup.
def ride_trip($pickup; $dropoff):
  loc_at($pickup.latitude; $pickup.longitude) as $from
  | loc_at($dropoff.latitude; $dropoff.longitude) as $to
  | {from: $from, to: $to,
     road: ((if $from and $to then
               first(.data.rides.roads[]
                 | select((.between | sort) == ([$from.locationUuid, $to.locationUuid] | sort)))
             else empty end) // .data.rides.pinnedTrip),
     toAirport: ($to != null and $to.locationUuid == .data.rides.fixedFaresTo),
     wait: .data.rides.pickupWait[$from.locationUuid // "pinned"]};

# The call's trip, from the four coordinates of its arguments.
def ride_args_trip:
  ride_trip({latitude: .args.pickupLatitude, longitude: .args.pickupLongitude};
            {latitude: .args.dropoffLatitude, longitude: .args.dropoffLongitude});

# What `$product` costs on `$trip`, in fils: the metered price (`exact`), the range quoted
# (`min`–`max`, one fixed price to the airport except on the meter) and the single
# `estimate` a ride shows until it ends.
def ride_fare($product; $trip):
  ($trip.road.km * 10 | round) as $tenths
  | ([($product.base | cents) + ((($product.perKm | cents) * $tenths + 5) / 10 | floor),
      ($product.minimum | cents)] | max) as $exact
  | ((($exact + 50) / 100 | floor) * 100) as $rounded
  | if $trip.toAirport and ($product.metered | not) then
      {exact: $rounded, min: $rounded, max: $rounded, fixed: true, estimate: $rounded}
    else
      {exact: $exact, min: ((($exact * 9 / 10 | floor) / 100 | floor) * 100),
       max: ((($exact * 11 / 10 | floor) / 100 | ceil) * 100), fixed: false, estimate: $rounded}
    end;

# The call's estimates; `$surge` multiplies every fare but the meter's (1 for none).
def ride_quote($surge):
  . as $doc
  | ride_args_trip as $trip
  | .data.rides as $rides
  | (if $surge > 1 then $rides.surge.expiresInMinutes else $rides.quoteExpiresInMinutes end) as $expiry
  | {estimateId: "EST-\(.now)-\(.random % 100000)",
     expiresAt: (.now + 60 * $expiry | iso),
     quoteExpiresAtMs: ((.now + 60 * $expiry) * 1000),
     pickup: {latitude: .args.pickupLatitude, longitude: .args.pickupLongitude},
     dropoff: {latitude: .args.dropoffLatitude, longitude: .args.dropoffLongitude}}
  + (if $surge > 1 then {notice: "Demand is high right now, so fares are higher than usual."}
     elif $trip.toAirport then {notice: "Fixed fares apply for trips to Dubai International Airport. Hala Taxi is charged by the meter."}
     else {} end)
  + {products: ([$rides.products[] as $product
      | ride_fare($product; $trip) as $fare
      | (if $product.metered then 1 else $surge end) as $m
      | {productId: $product.productId, name: $product.name, description: $product.description,
         capacity: $product.capacity,
         etaMinutes: ($product.etaMinutes + $trip.wait + (if $surge > 1 then $rides.surge.extraEtaMinutes else 0 end)),
         fare: {min: ($fare.min * ($m * 10 | round) / 10 | floor | cents_money),
                max: ($fare.max * ($m * 10 | round) / 10 | floor | cents_money)},
         fixedFare: $fare.fixed, surgeMultiplier: $m}]
      | sort_by(.fare.min.amount))};

# Why the call's trip cannot be priced or booked (the words after "failed to <verb>: "), or null.
def ride_refusal:
  if .args.pickupLatitude == .args.dropoffLatitude and .args.pickupLongitude == .args.dropoffLongitude
  then "pickup and drop-off are the same place"
  elif (area_served(.args.pickupLatitude; .args.pickupLongitude)
        and area_served(.args.dropoffLatitude; .args.dropoffLongitude)) | not
  then "pickup or drop-off location is outside the service area"
  else null end;

# The digit a new ride id gives a place (its position in places.json, from 1), 0 for a pin.
def ride_place_digit($place):
  if $place then ([.data.places.places[].locationUuid] | index($place.locationUuid)) + 1 else 0 end;

# The ride the call books, as the world keeps it (times in Unix seconds). Its id is
# `<6 now, 8 scheduled><product><pickup><drop-off>` and the run's counter, so that a later call
# knows the ride from its id even when the world forgets (static mode).
def ride_new($scheduled):
  ride_args_trip as $trip
  | (ride_product(.args.productId) // ride_product(1102)) as $product
  | ride_fare($product; $trip) as $fare
  | (.state.nextRideId // 1) as $n
  | .data.rides.newRideCaptains as $pool
  | ([.data.rides.products[].productId] | index($product.productId) + 1) as $digit
  | {rideId: ("\(if $scheduled then 8 else 6 end)\($digit)\(ride_place_digit($trip.from))\(ride_place_digit($trip.to))"
              + ("00\($n % 1000)" | .[-3:])),
     productId: $product.productId,
     pickup: ($trip.from // loc_pin(.args.pickupLatitude; .args.pickupLongitude)),
     dropoff: ($trip.to // loc_pin(.args.dropoffLatitude; .args.dropoffLongitude)),
     fare: $fare, km: $trip.road.km,
     etaMinutes: ($product.etaMinutes + $trip.wait),
     captain: $pool[$n % ($pool | length)],
     createdAt: .now,
     scheduled: $scheduled,
     scheduledText: (if $scheduled then .args.scheduledAt else null end),
     scheduledAt: (if $scheduled then (.args.scheduledAt | try fromiso catch null) else null end),
     paymentMethodId: .args.paymentMethodId,
     cancelled: null};

# A scheduled ride's label: its pickup time in Dubai time when `scheduledAt` reads as RFC 3339
# (`Scheduled for Sat, 5th Dec, 20:00. `), else the words the agent gave.
def ride_scheduled_words($ride):
  if $ride.scheduledAt != null then "Scheduled for \($ride.scheduledAt | daylabel), \($ride.scheduledAt | hhmm). "
  elif $ride.scheduledText then "Scheduled for \($ride.scheduledText). "
  else "Scheduled. " end;

# `ride_book`'s answer for a ride of `ride_new`.
def ride_booked($ride):
  {ride: ({rideId: $ride.rideId,
     status: (if $ride.scheduled then "SCHEDULED" else "SEARCHING" end),
     statusLabel: (if $ride.scheduled
       then ride_scheduled_words($ride)
         + "Careem starts looking for a captain \(.data.rides.clock.scheduledSearchBeforeMinutes) minutes before pickup."
       else "Finding you a captain" end),
     productId: $ride.productId, pickup: $ride.pickup, dropoff: $ride.dropoff,
     fareEstimate: {min: ($ride.fare.min | cents_money), max: ($ride.fare.max | cents_money)}}
     + (if $ride.scheduledAt then {scheduledAt: ($ride.scheduledAt | iso)} else {} end)
     + {createdAt: ($ride.createdAt | iso)})};

# The state after booking `$ride`: first in `rides`, the counter moved on.
def ride_kept($ride):
  .state + {rides: ([$ride] + (.state.rides // [])), nextRideId: ((.state.nextRideId // 1) + 1)};

# `ride_book`'s change (a `jq change`): the ride of `ride_new`, kept and answered.
def ride_book($scheduled): ride_new($scheduled) as $ride | {state: ride_kept($ride), response: ride_booked($ride)};

# A ride told in minutes around `$base` (`anyOtherRide` and `bookedRideStory` around now, the
# seed rides around the run's epoch), as a ride at this moment: the form `ride_answer` reads.
def ride_story_at($s; $base):
  ride_product($s.productId) as $product
  | (if $s.pickup then loc_place($s.pickup) else .data.rides.pinnedInDubai end) as $from
  | (if $s.dropoff then loc_place($s.dropoff) else .data.rides.pinnedInDubai end) as $to
  | ride_fare($product; ride_trip($from; $to)) as $fare
  | {productId: $s.productId, pickup: $from, dropoff: $to, captain: $s.captain,
     status: $s.status, km: ride_trip($from; $to).road.km,
     times: ($s.minutes | map_values($base + 60 * .)),
     fareFils: (if $s.status == "COMPLETED" then $fare.exact
                elif $s.status == "CANCELLED" then 0 else $fare.estimate end),
     cancelledBy: $s.cancelledBy, cancellationReason: $s.cancellationReason};
def ride_story($s): ride_story_at($s; .now);

# A seed ride (rides.json `seedRides`) at this moment: its milestones count in minutes from the
# run's epoch, and it stands at the last one the run's clock has passed.
def ride_seed($s):
  clock_epoch as $epoch | .now as $now
  | ($s.minutes | map_values($epoch + 60 * .)) as $t
  | def passed($key): $t[$key] != null and $now >= $t[$key];
    (if passed("cancelledAt") then "CANCELLED"
     elif passed("completedAt") then "COMPLETED"
     elif passed("pickedUpAt") then "ON_TRIP"
     elif passed("pickupEta") then "CAPTAIN_ARRIVED"
     elif passed("assignedAt") then "CAPTAIN_ON_THE_WAY"
     else "SEARCHING" end) as $status
  | ride_story_at($s + {status: $status}; $epoch);

# A booked ride at this moment, on the run's clock (catalog "The world's clock").
def ride_stage($ride):
  .data.rides.clock as $c
  | .now as $now
  | (if $ride.scheduled then ($ride.scheduledAt // null | if . then . - 60 * $c.scheduledSearchBeforeMinutes else null end)
     else $ride.createdAt end) as $start
  | ($start + 60 * $c.searchingMinutes) as $assigned
  | ($assigned + 60 * $ride.etaMinutes) as $arrived
  | ($arrived + 60 * $c.arrivedMinutes) as $picked
  | ([$c.minimumTripMinutes, ($ride.km / $c.tripKmPerHour * 60 | ceil)] | max) as $trip
  | ($picked + 60 * $trip) as $done
  | (if $start == null or $now < $start then (if $ride.scheduled then "SCHEDULED" else "SEARCHING" end)
     elif $now < $assigned then "SEARCHING"
     elif $now < $arrived then "CAPTAIN_ON_THE_WAY"
     elif $now < $picked then "CAPTAIN_ARRIVED"
     elif $now < $done then "ON_TRIP"
     else "COMPLETED" end) as $status
  | {productId: $ride.productId, pickup: $ride.pickup, dropoff: $ride.dropoff,
     captain: $ride.captain, status: $status, km: $ride.km, scheduledText: $ride.scheduledText,
     scheduledAt: $ride.scheduledAt,
     times: {createdAt: $ride.createdAt, pickupEta: $arrived,
             freeWaitUntil: ($arrived + 60 * $c.freeWaitMinutes), pickedUpAt: $picked,
             dropoffEta: $done, completedAt: $done},
     fareFils: (if $status == "COMPLETED" then $ride.fare.exact else $ride.fare.estimate end)};

# `$r` cancelled by the user as `$c` says ({at, fee, assigned, reason}).
def ride_cancelled($r; $c):
  $r + {status: "CANCELLED", captain: (if $c.assigned then $r.captain else null end),
        times: ($r.times + {cancelledAt: $c.at}), fareFils: $c.fee,
        cancelledBy: "USER", cancellationReason: $c.reason};

# The ride with this id at this moment: one the world keeps, one of the seed rides, one that
# `ride_book` handed out (known from its id), or the ride any other id tells.
def ride_view($id):
  . as $doc
  | (first(.state.rides[]? | select(.rideId == $id)) // null) as $kept
  | (first(.data.rides.seedRides[] | select(.rideId == $id)) // null) as $seed
  | if $kept then
      (if $kept.view then $kept.view else ride_stage($kept) end) as $r
      | if $kept.cancelled then ride_cancelled($r; $kept.cancelled) else $r end
    elif $seed then ride_seed($seed)
    elif ($id | type) == "string" and ($id | test("^[68][1-5][0-5][0-5][0-9]{3}$")) then
      ($id | split("") | map(tonumber)) as $d
      | (if $d[0] == 8 then "SCHEDULED" else "SEARCHING" end) as $status
      | ride_story({productId: .data.rides.products[$d[1] - 1].productId,
          pickup: (if $d[2] > 0 then .data.places.places[$d[2] - 1].locationUuid else null end),
          dropoff: (if $d[3] > 0 then .data.places.places[$d[3] - 1].locationUuid else null end),
          status: $status, minutes: {createdAt: 0}})
    else ride_story(.data.rides.anyOtherRide) end;

# How a status sentence names a ride's end.
def ride_title($end): if $end.locationUuid then $end.title else "the pinned point" end;

# `ride_get_status`'s answer for the ride `$r` under the id `$id`.
def ride_answer($id; $r):
  . as $doc
  | ride_product($r.productId) as $product
  | (if $r.captain != null and ($r.status != "SEARCHING" and $r.status != "SCHEDULED")
     then .data.rides.captains[$r.captain] else null end) as $c
  | (($c.name // "") | split(" ") | .[0]) as $first
  | $r.times as $t
  | {ride: ({rideId: $id, status: $r.status,
    statusLabel: (
      if $r.status == "SEARCHING" then "Finding you a captain"
      elif $r.status == "SCHEDULED" then
        ride_scheduled_words($r)
        + "Careem starts looking for a captain \(.data.rides.clock.scheduledSearchBeforeMinutes) minutes before pickup."
      elif $r.status == "CAPTAIN_ON_THE_WAY" then
        "\($first) is on the way in a \($c.car.colour | ascii_downcase) \($c.car.make) \($c.car.model) (\($c.car.plate)), arriving at \($t.pickupEta | hhmm)"
      elif $r.status == "CAPTAIN_ARRIVED" then
        "\($first) has arrived at \(ride_title($r.pickup)) and is waiting, free waiting until \($t.freeWaitUntil | hhmm)"
      elif $r.status == "ON_TRIP" then "On your way, arriving at \(ride_title($r.dropoff)) at \($t.dropoffEta | hhmm)"
      elif $r.status == "COMPLETED" then "Trip completed at \($t.completedAt | hhmm)"
      elif $r.cancelledBy == "CAPTAIN" then "Cancelled by the captain at \($t.cancelledAt | hhmm)"
      else "Cancelled at \($t.cancelledAt | hhmm)" end),
    product: {productId: $product.productId, name: $product.name},
    pickup: $r.pickup, dropoff: $r.dropoff}
  + (if $c then {captain: {name: $c.name, rating: $c.rating, phone: $c.phone}, car: $c.car} else {} end)
  + (if $r.status == "CAPTAIN_ON_THE_WAY" then
       {pickupEtaMinutes: (($t.pickupEta - $doc.now) / 60 | ceil), pickupEta: ($t.pickupEta | iso), dropoffEta: ($t.dropoffEta | iso)}
     elif $r.status == "CAPTAIN_ARRIVED" then
       {pickupEtaMinutes: 0, pickupEta: ($t.pickupEta | iso), dropoffEta: ($t.dropoffEta | iso)}
     elif $r.status == "ON_TRIP" then
       {pickupEta: ($t.pickupEta | iso), pickedUpAt: ($t.pickedUpAt | iso), dropoffEta: ($t.dropoffEta | iso)}
     elif $r.status == "COMPLETED" then
       {pickupEta: ($t.pickupEta | iso), pickedUpAt: ($t.pickedUpAt | iso), completedAt: ($t.completedAt | iso), distanceKm: $r.km}
     elif $r.status == "CANCELLED" then
       {cancelledAt: ($t.cancelledAt | iso), cancelledBy: $r.cancelledBy, cancellationReason: $r.cancellationReason}
     else {} end)
  + {fare: ($r.fareFils | cents_money), createdAt: ($t.createdAt | iso)})};

# `ride_get_status`'s answer for the ride with this id.
def ride_status($id): ride_answer($id; ride_view($id));

# The call's ride id, "" when it has none.
def ride_id: if (.args.rideId | type) == "string" then .args.rideId else "" end;

# What cancelling the ride `$r` does: "free", "fee", "on-trip" (refused) or "ended" (refused).
def ride_cancel_case($r):
  if $r.status == "SEARCHING" or $r.status == "SCHEDULED" then "free"
  elif $r.status == "CAPTAIN_ON_THE_WAY" or $r.status == "CAPTAIN_ARRIVED" then "fee"
  elif $r.status == "ON_TRIP" then "on-trip"
  else "ended" end;

# The cancellation fee of the call's ride, in fils: its product's.
def ride_fee: ride_product(ride_view(ride_id).productId).cancellationFee | cents;

# The state after cancelling the call's ride for `$fee` fils: a kept ride is marked cancelled,
# any other is kept as it stands now, cancelled.
def ride_cancel_state($fee):
  ride_id as $id
  | ride_view($id) as $r
  | {at: .now, fee: $fee, assigned: ($r.status != "SEARCHING" and $r.status != "SCHEDULED"),
     reason: (if (.args.reason | type) == "string" and .args.reason != ""
              then "You cancelled the ride: \(.args.reason)" else "You cancelled the ride." end)} as $c
  | if any(.state.rides[]?; .rideId == $id)
    then .state + {rides: [.state.rides[] | if .rideId == $id then . + {cancelled: $c} else . end]}
    else .state + {rides: ([{rideId: $id, view: $r, cancelled: $c}] + (.state.rides // []))} end;

# `ride_cancel`'s answer for `$fee` fils, read on the state before the call.
def ride_cancel_answer($fee):
  ride_view(ride_id) as $r
  | {cancelled: true, rideId: ride_id, cancellationFee: ($fee | cents_money), cancelledAt: (.now | iso),
     message: (if $fee == 0 then "Your ride has been cancelled. You were not charged."
       else "Your ride has been cancelled. A cancellation fee of AED \($fee | cents_text) applies because \(
         if $r.status == "CAPTAIN_ARRIVED" then "your captain had already arrived"
         else "your captain was already on the way" end)." end)};

# `ride_cancel`'s change for `$fee` fils: the ride cancelled, and the answer.
def ride_cancel($fee): {state: ride_cancel_state($fee), response: ride_cancel_answer($fee)};

# `ride_cancel`'s refusal of a ride that has ended (or is on its trip).
def ride_cancel_refusal:
  ride_view(ride_id) as $r
  | {error: "failed to cancel ride: ride \(ride_id) \(
      if $r.status == "ON_TRIP" then "is on its trip and can no longer be cancelled"
      elif $r.status == "CANCELLED" then "is already cancelled"
      else "is already completed" end)"};
