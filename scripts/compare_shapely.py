#!/usr/bin/env python3
"""RoadGen against a shapely reference on the same road JSON inputs, in one run.

Run it through scripts/compare_shapely.sh, which makes a virtual environment with shapely and
numpy and builds the release `roadgen`. For each input, the reference does, on one core (the
process is pinned to one CPU where the OS allows it), with GEOS through shapely 2:

1. surface:    union_all(buffer(centerline, width / 2, cap_style="round", join_style="round",
               quad_segs=8)) -- the road surface;
2. noding:     union_all(centerlines) -- the centerlines noded at every crossing;
3. polygonize: polygonize_full(noded edges) -- the faces of the centerline graph;
4. blocks:     each face minus the union of the road buffers whose boxes meet the face's box
               (one STRtree query for all faces); every part above 1 m^2 is a block.

This is "polygonize(unary_union(linework)) minus the road surface", done face by face: the
steps of the reference figures (tests/data/reference, "shapely time s") with the same shapely
calls, node degrees of the noding included (the bookkeeping between the calls is leaner: the
candidate buffers are grouped with numpy, and no output geometry is kept). The reference total
is the median of each run's sum of the four steps. The reference's blocks are also timed a second,
tighter way (4'. `blocks_tight`: an STRtree query per face with the "intersects" predicate, so
that only the buffers that touch the face are unioned): the same blocks in less time, given
as a second, stricter ratio. Centerlines
are the roads' polylines (a spline's point locations taken as a polyline; a closed road gets its
first point again), in metres; layers are ignored (the reference is planar). Building the
shapely geometries from the parsed JSON is not timed (RoadGen's `network_s` excludes parsing too).

RoadGen runs as `roadgen bench INPUT --runs N` (all cores, then `--threads 1`). The table gives
the median seconds of each side and the ratio reference / RoadGen for RoadGen's `network_s`
(junctions, road pieces, blocks and lots: more than the reference computes) and `total_s`
(network and meshes).
"""

import argparse
import json
import math
import os
import platform
import resource
import statistics
import subprocess
import sys
import time

import numpy as np
import shapely
from shapely import STRtree

UNIT_METRES = {"m": 1.0, "cm": 0.01}
DEFAULT_WIDTH_M = 5.0  # roadgen's default width for roads without one (ReadOptions::default_width)
BUFFER_QUAD_SEGS = 8  # segments per quarter circle of the round caps and joins
MIN_BLOCK_AREA_M2 = 1.0  # the same threshold as roadgen's default `min_block_area`
STAGES = ("surface", "noding", "polygonize", "blocks")
TIGHT_STAGES = ("surface", "noding", "polygonize", "blocks_tight")


def fail(message):
    print(f"compare_shapely: {message}", file=sys.stderr)
    sys.exit(1)


def centerlines(path):
    """(shapely LineStrings, widths) in metres from a road JSON file."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, dict) or not isinstance(data.get("roads"), list):
        fail(f"{path}: not a road JSON file (expected an object with \"roads\")")
    scale = UNIT_METRES.get(data.get("units", "m"))
    if scale is None:
        fail(f"{path}: unknown units {data.get('units')!r}")
    lines, widths = [], []
    for road in data["roads"]:
        if isinstance(road.get("points"), list):
            pts = road["points"]
        else:
            pts = [p["location"] for p in (road.get("spline") or {}).get("points", [])]
        xy = [(float(p[0]) * scale, float(p[1]) * scale) for p in pts]
        # Repeated points: dropped, as roadgen merges them.
        xy = [p for i, p in enumerate(xy) if i == 0 or p != xy[i - 1]]
        if road.get("closed") and len(xy) > 2 and xy[0] != xy[-1]:
            xy.append(xy[0])
        width = road.get("width")
        width = DEFAULT_WIDTH_M if width is None else float(width) * scale
        if len(xy) < 2 or not width > 0 or not all(map(math.isfinite, (c for p in xy for c in p))):
            continue  # roadgen leaves such roads out with a diagnostic
        lines.append(shapely.LineString(xy))
        widths.append(width)
    return np.array(lines, dtype=object), np.array(widths)


def reference(lines, widths):
    """One run of the shapely reference: seconds per stage, block count and surface area."""
    t = {}
    t0 = time.perf_counter()
    buffers = shapely.buffer(lines, widths / 2, quad_segs=BUFFER_QUAD_SEGS, cap_style="round", join_style="round")
    surface = shapely.union_all(buffers)
    t["surface"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    noded = shapely.union_all(lines)
    edges = shapely.get_parts(noded)
    edges = edges[shapely.get_type_id(edges) == 1]
    node_degrees(edges)
    t["noding"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    polygons = shapely.polygonize_full(edges)[0]
    faces = shapely.get_parts(polygons)
    t["polygonize"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    tree = STRtree(buffers)
    face_at, buffer_at = tree.query(faces)
    order = np.argsort(face_at, kind="stable")
    face_at, buffer_at = face_at[order], buffer_at[order]
    starts = np.searchsorted(face_at, np.arange(len(faces) + 1))
    blocks = sum(
        block_count(face, buffers[buffer_at[starts[i] : starts[i + 1]]]) for i, face in enumerate(faces)
    )
    t["blocks"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    tree = STRtree(buffers)
    tight = sum(block_count(face, buffers[tree.query(face, predicate="intersects")]) for face in faces)
    t["blocks_tight"] = time.perf_counter() - t0
    if tight != blocks:
        print(
            f"compare_shapely: warning: the reference's two block steps disagree ({blocks} and {tight} blocks)",
            file=sys.stderr,
        )
    return t, blocks, float(shapely.area(surface))


def node_degrees(edges):
    """The noded edges' end points and how many edge ends meet at each (the junctions)."""
    if len(edges) == 0:
        return np.empty((0, 2)), np.empty(0, dtype=int)
    coords = shapely.get_coordinates(edges)
    counts = shapely.get_num_points(edges)
    first = np.concatenate([[0], np.cumsum(counts)[:-1]])
    ends = np.vstack([coords[first], coords[first + counts - 1]])
    return np.unique(ends, axis=0, return_counts=True)


def block_count(face, near):
    """Parts of `face` minus the union of the buffers `near` that are polygons above 1 m^2."""
    rest = face if len(near) == 0 else shapely.difference(face, shapely.union_all(near))
    parts = shapely.get_parts(rest)
    parts = parts[shapely.get_type_id(parts) == 3]
    return int(np.count_nonzero(shapely.area(parts) > MIN_BLOCK_AREA_M2))


def run_roadgen(binary, path, runs, threads, all_cpus):
    cmd = [binary, "bench", path, "--runs", str(runs)]
    if threads is not None:
        cmd += ["--threads", str(threads)]
    # Undo this process's pinning to one core for the child.
    restore = (lambda: os.sched_setaffinity(0, all_cpus)) if all_cpus else None
    p = subprocess.run(cmd, capture_output=True, text=True, preexec_fn=restore)
    if p.returncode != 0:
        fail(f"{' '.join(cmd)} failed: {p.stderr.strip()}")
    return json.loads(p.stdout)


def main():
    ap = argparse.ArgumentParser(description="RoadGen against the shapely reference, side by side.")
    ap.add_argument("inputs", nargs="+", help="road JSON files")
    ap.add_argument("--roadgen", required=True, help="the roadgen binary")
    ap.add_argument("--runs", type=int, default=3, help="runs of each side; medians are reported (default 3)")
    args = ap.parse_args()
    if args.runs < 1:
        fail("--runs must be at least 1")

    all_cpus = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    print(
        f"shapely {shapely.__version__}, GEOS {shapely.geos_version_string}, numpy {np.__version__}, "
        f"Python {platform.python_version()}, {os.cpu_count()} CPUs; {args.runs} runs each, medians",
        file=sys.stderr,
    )
    rows = []
    for path in args.inputs:
        name = os.path.basename(path).removesuffix(".roads.json")
        rg = run_roadgen(args.roadgen, path, args.runs, None, all_cpus)
        rg1 = run_roadgen(args.roadgen, path, args.runs, 1, all_cpus)
        if all_cpus:
            os.sched_setaffinity(0, {min(all_cpus)})
        lines, widths = centerlines(path)
        times, blocks, area = [], None, None
        for i in range(args.runs):
            t, blocks, area = reference(lines, widths)
            times.append(t)
            print(
                f"compare_shapely: {name} run {i + 1}/{args.runs}: "
                + ", ".join(f"{k} {t[k]:.3f} s" for k in STAGES + TIGHT_STAGES[-1:]),
                file=sys.stderr,
            )
        if all_cpus:
            os.sched_setaffinity(0, all_cpus)
        med = {k: statistics.median(t[k] for t in times) for k in STAGES + TIGHT_STAGES}
        ref_total = statistics.median(sum(t[k] for k in STAGES) for t in times)
        tight_total = statistics.median(sum(t[k] for k in TIGHT_STAGES) for t in times)
        rows.append((name, len(lines), med, ref_total, tight_total, blocks, rg, rg1))

    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    threads = rows[0][6]["threads"]
    print(
        "| network | roads | shapely s (surface + noding + polygonize + blocks) | roadgen network_s "
        f"({threads} threads) | ratio | roadgen network_s (1 thread) | ratio | "
        "roadgen total_s with meshes | ratio | blocks shapely | blocks roadgen |"
    )
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, roads, med, ref_total, _, blocks, rg, rg1 in rows:
        parts = " + ".join(f"{med[k]:.3f}" for k in STAGES)
        print(
            f"| {name} | {roads} | {ref_total:.3f} ({parts}) | {rg['network_s']:.3f} | "
            f"{ref_total / rg['network_s']:.1f}x | {rg1['network_s']:.3f} | {ref_total / rg1['network_s']:.1f}x | "
            f"{rg['total_s']:.3f} | {ref_total / rg['total_s']:.1f}x | {blocks} | {rg['blocks']} |"
        )
    print(
        "\nWith the reference's blocks tightened (only the buffers that intersect a face unioned):\n\n"
        f"| network | shapely s (blocks_tight) | ratio to network_s ({threads} threads) | ratio, 1 thread | "
        "ratio to total_s |"
    )
    print("|---|---|---:|---:|---:|")
    for name, _, med, _, tight_total, _, rg, rg1 in rows:
        print(
            f"| {name} | {tight_total:.3f} ({med['blocks_tight']:.3f}) | {tight_total / rg['network_s']:.1f}x | "
            f"{tight_total / rg1['network_s']:.1f}x | {tight_total / rg['total_s']:.1f}x |"
        )
    print(f"\nshapely process peak memory: {peak_mb:.0f} MB (all inputs)", file=sys.stderr)


if __name__ == "__main__":
    main()
