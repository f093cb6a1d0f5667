# Payment methods and Careem Pay (docs/DATA_WORLD.md, "Account"): what the user's methods are
# called in a decline, and Careem Pay's balance on the run's clock. Call them with the call
# document as `.`; amounts are in fils.

include "food";
include "rides";

# The method with this id; the default one when `$id` is null.
def wallet_method($id):
  first(.data.account.paymentMethods[] | select(if $id == null then .isDefault else .id == $id end)) // null;

# What Careem Pay has paid in this run: an order its total, when placed; a ride booked with it
# holds its upper estimate until it ends, then costs its metered fare, or its cancellation fee
# when cancelled. Static mode keeps no orders or rides, so nothing is spent there.
def wallet_spent:
  . as $doc
  | [.data.account.paymentMethods[] | select(.type == "CAREEM_PAY") | .id] as $wallets
  | ([.state.orders[]? | select(.paymentMethodId as $m | $wallets | index($m))
      | . as $o | $doc | food_money_of($o.restaurantId; $o.lines).total] | add // 0)
    + ([.state.rides[]? | select(.view == null and (.paymentMethodId as $m | $wallets | index($m)))
        | . as $ride | ($doc | ride_view($ride.rideId)) as $now
        | if $now.status == "COMPLETED" or $now.status == "CANCELLED" then $now.fareFils else $ride.fare.max end]
       | add // 0);

# Careem Pay's balance now.
def wallet_balance:
  ((first(.data.account.paymentMethods[] | select(.type == "CAREEM_PAY") | .balance.amount) // 0) | cents)
  - wallet_spent;

# The balance when `$id` is Careem Pay; null for any other method.
def wallet_balance_of($id):
  if wallet_method($id).type == "CAREEM_PAY" then wallet_balance else null end;

# The user's methods as get_payment_methods lists them, Careem Pay with its balance now.
def wallet_methods:
  wallet_balance as $balance
  | [.data.account.paymentMethods[]
     | if .type == "CAREEM_PAY" then .balance.amount = ($balance / 100) else . end];

# A payment declined, in words that name the method chosen (the default one when none was).
def wallet_declined($id):
  wallet_method($id) as $m
  | "payment declined: " + (
      if $m == null or $m.type == "CARD" then "card ending \(($m // wallet_method(null)).last4) was declined by the issuer"
      elif $m.type == "CAREEM_PAY" then "Careem Pay could not be charged"
      else "cash is not accepted for this payment; choose another payment method" end);
