# The area Careem serves (docs/DATA_WORLD.md, "The served area"): the box of area.json around
# Dubai, less its cells of open sea. Every tool that takes a point asks these, so that the
# geocoder, food and rides agree on what is served.

# Whether the point lies in the box (whole degrees, as area.json gives them).
def area_in_box($lat; $lng):
  .data.area.box as $b
  | $lat >= $b.latitude[0] and $lat < $b.latitude[1]
    and $lng >= $b.longitude[0] and $lng < $b.longitude[1];

# Whether the point lies in one of the sea cells (south-west corner, tenths of a degree).
def area_at_sea($lat; $lng):
  any(.data.area.sea[];
    $lat >= .[0] and $lat < .[0] + .[2] and $lng >= .[1] and $lng < .[1] + .[3]);

# Whether Careem serves the point.
def area_served($lat; $lng):
  area_in_box($lat; $lng) and (area_at_sea($lat; $lng) | not);
