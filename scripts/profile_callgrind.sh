#!/usr/bin/env bash
# Where the time goes: one `roadgen bench --runs 1 --threads 1` under valgrind's callgrind, and
# the functions with the largest inclusive cost (instructions executed, not wall time).
#
#   scripts/profile_callgrind.sh [INPUT.roads.json] [TOP]
#
# Default input: tests/data/osm/liege.roads.json, TOP 60. Installs valgrind with apt-get when it
# is missing. The release profile keeps line tables, so function names are resolved. The full
# output stays in target/perf/callgrind.out (open it with callgrind_annotate or kcachegrind).
# Used because hardware counters (`perf stat -e instructions`) are not available on the
# benchmark machine; where they are, `perf record -g` is the faster alternative.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

input="${1:-tests/data/osm/liege.roads.json}"
top="${2:-60}"
target="${CARGO_TARGET_DIR:-target}"
out="$target/perf"
mkdir -p "$out"

if ! command -v valgrind > /dev/null && command -v apt-get > /dev/null; then
    echo "profile_callgrind: installing valgrind (apt-get install valgrind)" >&2
    { apt-get install -y -qq valgrind || sudo apt-get install -y -qq valgrind; } > /dev/null 2>&1 || true
fi
command -v valgrind > /dev/null || { echo "profile_callgrind: valgrind is not installed" >&2; exit 1; }

cargo build --release -q -p roadgen-cli
valgrind --tool=callgrind --callgrind-out-file="$out/callgrind.out" \
    "$target/release/roadgen" bench "$input" --runs 1 --threads 1 > "$out/callgrind.bench.json"
echo "callgrind run of: roadgen bench $input --runs 1 --threads 1"
cat "$out/callgrind.bench.json"
callgrind_annotate --inclusive=yes "$out/callgrind.out" 2> /dev/null | head -n "$((top + 25))"
