#!/usr/bin/env python3
"""Draws a network stage as a bar of its parts against the time that 50 times the shapely
reference allows, as an SVG (Python 3 and valgrind's callgrind_annotate; no other package).

    scripts/plot_network_budget.py CALLGRIND_OUT --network-s S --reference-s R \
        [--ratio 50] [--name liege] -o OUT.svg

CALLGRIND_OUT is a callgrind profile of `roadgen_core::pipeline::build` (one thread, a release
build without link-time optimisation, so that functions keep their names), as
docs/PERFORMANCE.md ("Where the time goes") makes it. Each part's share of the instructions is
drawn as that share of `network_s` (the stage's wall time on two threads, from `roadgen
bench`); parts that run on both cores and parts that run on one are drawn alike, so the bar
shows where the work is, not a timeline. R is the reference's time from
`scripts/compare_shapely.sh`.
"""

import argparse
import re
import subprocess
import sys

# The parts drawn, by the function whose inclusive instructions they are (in the order drawn),
# and their colours. "the rest" of each stage is what its named parts leave.
PARTS = [
    ("faces overlay", "roadgen_core::blocks::whole_faces", "#d95f02"),
    ("cleaning, checks, lots", "roadgen_core::blocks::finish_blocks", "#e6ab02"),
    ("naming blocks", "roadgen_core::blocks::name_faces", "#a6761d"),
    ("settling junctions", "roadgen_core::pipeline::settle_junctions", "#1b9e77"),
    ("graph of crossings", "roadgen_core::graph::build_graph", "#7570b3"),
]
TOTAL = "roadgen_core::pipeline::build"
BLOCKS = "roadgen_core::blocks::extract_blocks"
NETWORK = "roadgen_core::pipeline::network_stage_in"
REST_COLOUR = "#999999"


def inclusive_counts(path):
    """Inclusive instructions of each function in a callgrind profile (its own entry, the
    largest count given for the name)."""
    text = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", "--threshold=100", path],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    counts = {}
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+) \([\s\d.]+%\)\s+[^:\s]*:(\S+)(?:\s+\[.*\])?\s*$", line)
        if m:
            n = int(m.group(1).replace(",", ""))
            name = m.group(2)
            counts[name] = max(counts.get(name, 0), n)
    return counts


def svg(parts, network_s, reference_s, ratio, name):
    budget = reference_s / ratio
    width, left, right = 900, 30, 20
    scale = (width - left - right) / max(network_s, budget) / 1.05
    x = lambda s: left + s * scale
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="215" '
        'font-family="sans-serif" font-size="13">',
        '<rect width="100%" height="100%" fill="white"/>',
        f'<text x="{left - 20}" y="22" font-size="15">{name} network stage, {network_s * 1e3:.0f} ms on two '
        f"threads, by share of instructions; {ratio:g}\u00d7 the reference ({reference_s:.2f} s) "
        f"allows {budget * 1e3:.0f} ms</text>",
    ]
    at, y, h = 0.0, 50, 44
    for k, (label, seconds, colour) in enumerate(parts):
        out.append(
            f'<rect x="{x(at):.1f}" y="{y}" width="{seconds * scale:.1f}" height="{h}" '
            f'fill="{colour}" stroke="white"/>'
        )
        # Labels below the bar, staggered so that short parts keep theirs apart.
        ly = y + h + 18 + 16 * (k % 3)
        out.append(f'<line x1="{x(at + seconds / 2):.1f}" y1="{y + h}" x2="{x(at + seconds / 2):.1f}" '
                   f'y2="{ly - 12}" stroke="{colour}"/>')
        out.append(f'<text x="{x(at + seconds / 2):.1f}" y="{ly}" text-anchor="middle">'
                   f"{label} {seconds * 1e3:.0f}</text>")
        at += seconds
    bx = x(budget)
    out.append(f'<line x1="{bx:.1f}" y1="38" x2="{bx:.1f}" y2="{y + h + 8}" stroke="black" '
               'stroke-width="2" stroke-dasharray="6,4"/>')
    out.append(f'<text x="{bx + 4:.1f}" y="44">{ratio:g}\u00d7 budget</text>')
    # A scale in milliseconds.
    ty = 170
    out.append(f'<line x1="{x(0):.1f}" y1="{ty}" x2="{x(network_s):.1f}" y2="{ty}" stroke="black"/>')
    for ms in range(0, int(network_s * 1e3) + 1, 100):
        out.append(f'<line x1="{x(ms / 1e3):.1f}" y1="{ty}" x2="{x(ms / 1e3):.1f}" y2="{ty + 5}" stroke="black"/>')
        out.append(f'<text x="{x(ms / 1e3):.1f}" y="{ty + 20}" text-anchor="middle">{ms} ms</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("callgrind_out")
    ap.add_argument("--network-s", type=float, required=True, help="network_s of roadgen bench (seconds)")
    ap.add_argument("--reference-s", type=float, required=True, help="the shapely reference's time (seconds)")
    ap.add_argument("--ratio", type=float, default=50.0, help="the target ratio (default 50)")
    ap.add_argument("--name", default="liege", help="the network's name, for the title (default liege)")
    ap.add_argument("-o", "--out", required=True, help="the SVG to write")
    args = ap.parse_args()
    counts = inclusive_counts(args.callgrind_out)
    missing = [f for f in [TOTAL, BLOCKS, NETWORK] + [p[1] for p in PARTS] if f not in counts]
    if missing:
        sys.exit(f"plot_network_budget: not in the profile (a build with link-time optimisation?): {missing}")
    total = counts[TOTAL]
    share = lambda f: counts[f] / total * args.network_s
    blocks_rest = counts[BLOCKS] - sum(counts[f] for _, f, _ in PARTS[:3])
    network_rest = counts[NETWORK] - sum(counts[f] for _, f, _ in PARTS[3:])
    other = total - counts[BLOCKS] - counts[NETWORK]
    parts = [(label, share(f), colour) for label, f, colour in PARTS]
    parts.insert(3, ("rest of blocks", blocks_rest / total * args.network_s, REST_COLOUR))
    parts.append(("pieces, stitching, ids, rest", (network_rest + other) / total * args.network_s, REST_COLOUR))
    # A part under a millisecond (the blocks' own bookkeeping) would only crowd the labels.
    parts = [p for p in parts if p[1] >= 1e-3]
    with open(args.out, "w") as f:
        f.write(svg(parts, args.network_s, args.reference_s, args.ratio, args.name))
    for label, seconds, _ in parts:
        print(f"{label}: {seconds * 1e3:.1f} ms")
    print(f"budget at {args.ratio:g}x: {args.reference_s / args.ratio * 1e3:.1f} ms; wrote {args.out}")


if __name__ == "__main__":
    main()
