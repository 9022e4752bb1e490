#!/usr/bin/env python3
"""Writes the golden cases in tests/data/golden/ (RoadGen road JSON, metres).

Each case is drawn for one situation the engine must handle; tests/golden.rs states what is
expected of each. Run from the repository root: python3 scripts/make_golden.py
"""
import json
import math
import os

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "golden")


def road(rid, pts, width=7.0, **kw):
    r = {"id": rid, "width": width, "points": [[round(c, 6) for c in p] for p in pts]}
    r.update(kw)
    return r


def polar(r, deg):
    a = math.radians(deg)
    return (r * math.cos(a), r * math.sin(a))


def star(angles, length=150.0, width=7.0):
    return [road(f"arm{i}", [(0.0, 0.0), polar(length, a)], width) for i, a in enumerate(angles)]


def square(cx, cy, half, prefix, width=7.0):
    c = [(cx - half, cy - half), (cx + half, cy - half), (cx + half, cy + half), (cx - half, cy + half)]
    return [road(f"{prefix}{i}", [c[i], c[(i + 1) % 4]], width) for i in range(4)]


def circle(cx, cy, r, n=48):
    return [(cx + r * math.cos(2 * math.pi * k / n), cy + r * math.sin(2 * math.pi * k / n)) for k in range(n)]


CASES = {
    "x": [road("a", [(-150, 0), (150, 0)]), road("b", [(0, -150), (0, 150)])],
    "t": [road("main", [(-150, 0), (150, 0)]), road("side", [(0, 150), (0, 0)])],
    "t_snap": [road("main", [(-150, 0), (150, 0)]), road("side", [(10, 150), (10, 0.6)])],
    "t_overshoot": [road("main", [(-150, 0), (150, 0)]), road("side", [(0, 150), (0, -4)])],
    "y": star([90, 210, 330]),
    "five_way": star([0, 65, 140, 215, 290]),
    "eight_way": [road(f"r{i}", [polar(150, a), polar(150, a + 180)]) for i, a in enumerate([0, 45, 90, 135])],
    "merge_10": [road("main", [(-200, 0), (200, 0)]), road("branch", [polar(300, 10), (0, 0)])],
    "merge_5": [road("main", [(-300, 0), (300, 0)]), road("branch", [polar(400, 5), (0, 0)])],
    "unequal_widths": [road("wide", [(-150, 0), (150, 0)], 14.0), road("narrow", [(0, -150), (0, 150)], 5.0),
                       road("medium", [(-100, -100), (100, 100)], 9.0)],
    "loop_crossing": [road("ring", circle(0, 0, 80), 7.0, closed=True), road("through", [(-150, 10), (150, -10)])],
    "dead_end_in_block": square(0, 0, 100, "s") + [road("culdesac", [(0, -100), (0, -20), (15, 10)])],
    "hole": square(0, 0, 200, "outer") + square(0, 0, 50, "inner"),
    "close_junctions": [road("north", [(-150, 6), (150, 6)]), road("south", [(-150, -6), (150, -6)]),
                        road("cross", [(0, -150), (0, 150)])],
    "layers": [road("ground", [(-150, 0), (150, 0)], layer=0), road("bridge", [(0, -150), (0, 150)], layer=1)],
    "end_to_end": [road("first", [(-150, 0), (0, 0)]), road("second", [(0, 0), (100, 80)])],
    "short_arm": [road("main", [(-150, 0), (150, 0)]), road("stub", [(0, 0), (0, 7)])],
    "near_miss": [road("main", [(-150, 0), (150, 0)]), road("side", [(0, 150), (0, 5.5)])],
    # 3D: an overpass 8 m above the ground road (no junction), and a road 1 m up (a junction).
    "heights": [road("ground", [(-150, 0, 0), (150, 0, 0)]), road("overpass", [(-50, -150, 8), (-50, 150, 8)]),
                road("ramp", [(50, -150, 1), (50, 150, 1)])],
    # A U-turn of 3 m radius on a 10 m road: the inner curb would run backwards.
    "tight_bend": [road("uturn", [(-100, 3)] + [(3 * math.cos(math.radians(a)), 3 * math.sin(math.radians(a)))
                                               for a in range(90, -91, -15)] + [(-100, -3)], 10.0)],
    # Per-road profiles: a wide sidewalk on one road, no sidewalk and a high curb on another.
    "profiles": [road("plain", [(-150, 0), (150, 0)]),
                 road("boulevard", [(0, -150), (0, 150)], 9.0, profile={"sidewalk": 4.5}),
                 road("lane", [(-150, 100), (150, 100)], 5.0, profile={"sidewalk": 0, "curb_height": 0.25}),
                 road("west", [(-120, -150), (-120, 150)]), road("east", [(120, -150), (120, 150)])],
    "straight_continuation": [road("narrow", [(-150, 0), (0, 0)], 7.0), road("wide", [(0, 0), (150, 0)], 10.0)],
    "spline_curves": None,  # written below: splines with Unreal semantics
}


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, roads in CASES.items():
        if roads is None:
            continue
        doc = {"units": "m", "name": name, "roads": roads}
        with open(os.path.join(OUT, f"{name}.roads.json"), "w") as f:
            json.dump(doc, f, indent=1)
    # Two curved roads (splines with automatic tangents) crossing twice, and a straight road.
    spline = {
        "units": "m",
        "name": "spline_curves",
        "roads": [
            {"id": "wave", "width": 8.0, "spline": {"points": [
                {"location": [-200, 0, 0]}, {"location": [-100, 60, 0]}, {"location": [0, 0, 0]},
                {"location": [100, -60, 0]}, {"location": [200, 0, 0]}]}},
            {"id": "bow", "width": 6.0, "spline": {"points": [
                {"location": [-200, 30, 0], "leave_tangent": [300, -150, 0], "type": "curve_custom_tangent"},
                {"location": [200, 30, 0], "arrive_tangent": [300, 150, 0], "type": "curve_custom_tangent"}]}},
            {"id": "straight", "width": 7.0, "spline": {"points": [
                {"location": [0, -150, 0], "type": "linear"}, {"location": [0, 150, 0], "type": "linear"}]}},
        ],
    }
    with open(os.path.join(OUT, "spline_curves.roads.json"), "w") as f:
        json.dump(spline, f, indent=1)


if __name__ == "__main__":
    main()
