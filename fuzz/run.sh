#!/usr/bin/env bash
# Property-based fuzzing for a bounded time: runs the `prop_` tests of
# tests/integration/reliability/properties.rs (tool-file parser, template renderer, matcher)
# round after round with a large PROPTEST_CASES, each round with fresh random inputs, until the
# time is up.
#
#   fuzz/run.sh [SECONDS]        default 300
#   PROPTEST_CASES=N             cases per property per round, default 5000
#
# Exit 0: no property failed in the time given. Exit 1: one did; proptest printed the minimal
# failing input, which belongs in `fixed_cases_from_property_testing` (or a unit test) before
# the bug is fixed. Uses its own target folder unless CARGO_TARGET_DIR says otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-300}"
export PROPTEST_CASES="${PROPTEST_CASES:-5000}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}"
filter="reliability::properties::prop_"

cargo test --quiet --test integration --no-run
deadline=$(($(date +%s) + seconds))
round=0
while true; do
    left=$((deadline - $(date +%s)))
    ((left > 0)) || break
    round=$((round + 1))
    echo "fuzz: round $round, $PROPTEST_CASES cases per property, ${left}s left" >&2
    status=0
    timeout --signal=INT "$left" cargo test --quiet --test integration "$filter" || status=$?
    case "$status" in
        0) ;;
        124) break ;; # the time ran out mid-round: nothing failed
        *)
            echo "fuzz: a property failed in round $round (see the minimal failing input above)" >&2
            exit 1
            ;;
    esac
done
echo "fuzz: $round round(s) in ${seconds}s, no property failed" >&2
