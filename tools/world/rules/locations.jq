# The places people look for (docs/DATA_WORLD.md, "Rides and locations"): the places of
# places.json found by what people type (locations.json), nearest first, and the saved ones.

# The place at exactly these coordinates, or null for a point that is none of them.
def loc_at($lat; $lng):
  first(.data.places.places[] | select(.latitude == $lat and .longitude == $lng)) // null;

# The place with this uuid.
def loc_place($uuid): first(.data.places.places[] | select(.locationUuid == $uuid));

# A dropped pin in Dubai at these coordinates, echoed as a `reverse_geocode` pin reads (no uuid).
def loc_pin($lat; $lng):
  {title: "Pinned location", subtitle: "Dubai, United Arab Emirates",
   formattedAddress: "Pinned location (\($lat), \($lng)), Dubai, United Arab Emirates",
   latitude: $lat, longitude: $lng, city: "Dubai", countryCode: "AE", serviceable: true};

# Whether the text a person typed fits a rule: one of `contains` in it, or it is one of
# `equals` (both case-insensitive, as SPEC's "~" and "=" patterns).
def loc_fits($query; $rule):
  ($query | ascii_downcase) as $q
  | any(($rule.contains // [])[]; . as $c | $q | contains($c))
    or any(($rule.equals // [])[]; . == $q);

# Straight-line metres between two points, for ranking results nearest first.
def loc_metres($a; $b):
  def rad: . * 3.141592653589793 / 180;
  (($b.latitude - $a.latitude) | rad) as $dlat
  | (($b.longitude - $a.longitude) | rad) as $dlng
  | (($dlat / 2 | sin) * ($dlat / 2 | sin)
     + ($a.latitude | rad | cos) * ($b.latitude | rad | cos) * ($dlng / 2 | sin) * ($dlng / 2 | sin))
  | 2 * 6371000 * (sqrt | asin);

# The places a query finds: a place's own names first, then a group nearest the bias (or the
# user's Home) first, cut to `limit`.
def loc_search($args):
  . as $doc
  | .data.locations.search as $search
  | (first($search.aliases[] | select(loc_fits($args.query; .))) // null) as $own
  | if $own then [$doc | loc_place($own.place)]
    else (first($search.groups[] | select(loc_fits($args.query; .))) // {places: []}) as $group
      | (if $args.latitude != null and $args.longitude != null
         then {latitude: $args.latitude, longitude: $args.longitude}
         else $doc | loc_place($search.nearestTo) end) as $near
      | [$group.places[] as $uuid | $doc | loc_place($uuid)]
      | sort_by(loc_metres($near; .))
      | if ($args.limit // 0) >= 1 then .[:$args.limit] else . end
    end;
