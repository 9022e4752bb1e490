#!/usr/bin/env bash
# RoadGen against the shapely reference (road surface by buffer and union, blocks by
# polygonize), side by side on the same inputs, in one run; prints a markdown table.
#
#   scripts/compare_shapely.sh [--runs N] [INPUT.roads.json ...]
#
# Default inputs: kotka, liege_center and liege from tests/data/osm. Needs python3 (with venv
# and pip) and cargo; makes a virtual environment in target/shapely-venv with shapely and
# numpy (pip), builds the release roadgen, then runs scripts/compare_shapely.py.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

target="${CARGO_TARGET_DIR:-target}"
venv="$target/shapely-venv"
if [ ! -x "$venv/bin/python" ]; then
    echo "compare_shapely: creating $venv" >&2
    python3 -m venv "$venv" || {
        echo "compare_shapely: python3 -m venv failed (on Debian/Ubuntu: apt-get install python3-venv)" >&2
        exit 1
    }
fi
if ! "$venv/bin/python" -c "import shapely, numpy" 2>/dev/null; then
    echo "compare_shapely: installing shapely and numpy into $venv" >&2
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    "$venv/bin/python" -m pip install --quiet "shapely>=2.0" numpy
fi

cargo build --release -q -p roadgen-cli

runs=()
inputs=()
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs=(--runs "$2"); shift 2 ;;
        --runs=*) runs=(--runs "${1#--runs=}"); shift ;;
        *) inputs+=("$1"); shift ;;
    esac
done
if [ ${#inputs[@]} -eq 0 ]; then
    inputs=(tests/data/osm/kotka.roads.json tests/data/osm/liege_center.roads.json tests/data/osm/liege.roads.json)
fi
exec "$venv/bin/python" scripts/compare_shapely.py --roadgen "$target/release/roadgen" "${runs[@]}" "${inputs[@]}"
