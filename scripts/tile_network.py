#!/usr/bin/env python3
"""Writes a tiling of a RoadGen road JSON file: NX x NY copies side by side, with unique road ids.

Used to make larger networks of known content for the scaling table (docs/PERFORMANCE.md):

    python3 scripts/tile_network.py tests/data/osm/liege.roads.json target/perf/liege_2x2.roads.json

Each copy is moved by whole multiples of the network's extent plus a gap, so that copies do not
touch; road ids become "<id>@<column>,<row>" (strings, the first copy included, so every id is
unique). Polylines ("points") and splines
("spline.points[].location") are both moved; tangents, widths and every other member are kept.
Standard library only.
"""

import argparse
import json
import math
import os
import sys

# Gap between neighbouring copies, in metres (converted to the file's units).
DEFAULT_GAP_M = 100.0
UNIT_METRES = {"m": 1.0, "cm": 0.01}


def fail(message):
    print(f"tile_network: {message}", file=sys.stderr)
    sys.exit(1)


def road_positions(road):
    """The coordinate lists of one road (polyline points or spline point locations)."""
    if isinstance(road.get("points"), list):
        return road["points"]
    spline = road.get("spline")
    if isinstance(spline, dict) and isinstance(spline.get("points"), list):
        return [p["location"] for p in spline["points"] if isinstance(p, dict) and "location" in p]
    return []


def extent(roads):
    """(min x, min y, max x, max y) over every finite point of every road."""
    xs, ys = [], []
    for road in roads:
        for p in road_positions(road):
            if isinstance(p, list) and len(p) >= 2 and all(isinstance(v, (int, float)) for v in p[:2]):
                if math.isfinite(p[0]) and math.isfinite(p[1]):
                    xs.append(p[0])
                    ys.append(p[1])
    if not xs:
        fail("the input has no usable points")
    return min(xs), min(ys), max(xs), max(ys)


def moved(p, dx, dy):
    return [p[0] + dx, p[1] + dy] + list(p[2:])


def copy_road(road, dx, dy, suffix):
    out = json.loads(json.dumps(road))  # a deep copy of plain JSON data
    out["id"] = f"{road['id']}@{suffix}"
    if isinstance(out.get("points"), list):
        out["points"] = [moved(p, dx, dy) for p in out["points"]]
    elif isinstance(out.get("spline"), dict):
        for p in out["spline"].get("points", []):
            if isinstance(p, dict) and isinstance(p.get("location"), list):
                p["location"] = moved(p["location"], dx, dy)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input", help="a road JSON file (top-level \"roads\")")
    ap.add_argument("output", help="the tiled road JSON file to write (its folder is created)")
    ap.add_argument("--nx", type=int, default=2, help="copies along x (default 2)")
    ap.add_argument("--ny", type=int, default=2, help="copies along y (default 2)")
    ap.add_argument("--gap", type=float, default=DEFAULT_GAP_M, help=f"metres between copies (default {DEFAULT_GAP_M:g})")
    args = ap.parse_args()
    if args.nx < 1 or args.ny < 1:
        fail("--nx and --ny must be at least 1")
    if not (math.isfinite(args.gap) and args.gap >= 0):
        fail("--gap must be a finite number of metres, at least 0")
    try:
        with open(args.input, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"cannot read {args.input}: {e}")
    if not isinstance(data, dict) or not isinstance(data.get("roads"), list):
        fail(f"{args.input}: not a road JSON file (expected an object with \"roads\")")
    units = data.get("units", "m")
    if units not in UNIT_METRES:
        fail(f"{args.input}: unknown units {units!r} (expected \"m\" or \"cm\")")
    for i, road in enumerate(data["roads"]):
        if not isinstance(road, dict) or "id" not in road:
            fail(f"{args.input}: road #{i}: missing \"id\"")
    x0, y0, x1, y1 = extent(data["roads"])
    gap = args.gap / UNIT_METRES[units]
    step_x, step_y = (x1 - x0) + gap, (y1 - y0) + gap
    roads = [
        copy_road(road, i * step_x, j * step_y, f"{i},{j}")
        for j in range(args.ny)
        for i in range(args.nx)
        for road in data["roads"]
    ]
    out = dict(data)
    out["roads"] = roads
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w", encoding="utf-8") as f:
        json.dump(out, f, separators=(",", ":"))
    print(
        f"tile_network: {len(data['roads'])} roads x {args.nx}x{args.ny} = {len(roads)} roads -> {args.output}",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
