#!/usr/bin/env bash
# The scaling table of docs/PERFORMANCE.md, regenerated with one command:
#
#   scripts/perf_table.sh [--runs N]
#
# Builds the release roadgen, writes liege tiled 2x2 (scripts/tile_network.py) to target/perf/,
# runs `roadgen bench --runs N` (default 5) on kotka, liege_center, liege and liege 2x2, and
# `roadgen bench --runs 1` under `/usr/bin/time -v` for the peak memory of one pass ("Maximum
# resident set size"; apt installs `time` when it is missing, else the JSON's peak_rss_mb is
# used; "peak MB to network" is the JSON's peak_rss_network_mb: parsing and one network, before
# meshes), then liege and liege 2x2 with --threads 1 and with every core, and prints markdown
# tables. Raw JSON and time reports stay in target/perf/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

runs=5
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs="$2"; shift 2 ;;
        --runs=*) runs="${1#--runs=}"; shift ;;
        *) echo "perf_table: unknown argument $1 (usage: scripts/perf_table.sh [--runs N])" >&2; exit 2 ;;
    esac
done

target="${CARGO_TARGET_DIR:-target}"
out="$target/perf"
mkdir -p "$out"
roadgen="$target/release/roadgen"

if [ ! -x /usr/bin/time ] && command -v apt-get > /dev/null; then
    echo "perf_table: installing GNU time (apt-get install time)" >&2
    { apt-get install -y -qq time || sudo apt-get install -y -qq time; } > /dev/null 2>&1 || true
fi

cargo build --release -q -p roadgen-cli
python3 scripts/tile_network.py tests/data/osm/liege.roads.json "$out/liege_2x2.roads.json"

cores=$(nproc)
# bench NAME INPUT THREADS: the medians of $runs runs in $out/NAME.tTHREADS.json; then one run
# (--runs 1) for the peak memory of one pass, in $out/NAME.tTHREADS.mem.json (and .mem.time).
# Memory is taken from its own single run because a process that repeats the pipeline keeps
# growing its heap (freed memory is not all reused), so a --runs 5 peak overstates one pass.
bench() {
    local name="$1" input="$2" threads="$3"
    local json="$out/$name.t$threads.json" mem="$out/$name.t$threads.mem"
    echo "perf_table: $name, $threads threads, $runs runs, then 1 run for memory" >&2
    "$roadgen" bench "$input" --runs "$runs" --threads "$threads" > "$json" 2> /dev/null
    rm -f "$mem.time"
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -v -o "$mem.time" "$roadgen" bench "$input" --runs 1 --threads "$threads" > "$mem.json" 2> /dev/null
    else
        "$roadgen" bench "$input" --runs 1 --threads "$threads" > "$mem.json" 2> /dev/null
    fi
}

for n in kotka liege_center liege; do
    bench "$n" "tests/data/osm/$n.roads.json" "$cores"
done
bench liege_2x2 "$out/liege_2x2.roads.json" "$cores"
bench liege "tests/data/osm/liege.roads.json" 1
bench liege_2x2 "$out/liege_2x2.roads.json" 1

# Outside a git checkout (e.g. a `git archive` export), ROADGEN_COMMIT names the commit.
commit=$(git rev-parse --short HEAD 2> /dev/null || echo "${ROADGEN_COMMIT:-unknown}")
dirty=$(git status --porcelain --untracked-files=no -- rust Cargo.toml Cargo.lock 2> /dev/null | head -1 || true)
cpu=$(grep -m1 "model name" /proc/cpuinfo 2> /dev/null | cut -d: -f2 | sed 's/^ *//' || true)
PERF_OUT="$out" PERF_CORES="$cores" PERF_RUNS="$runs" PERF_COMMIT="$commit${dirty:+ (with uncommitted changes in rust/)}" \
    PERF_CPU="${cpu:-unknown CPU}" python3 - << 'PY'
import datetime, json, os, re

out, cores = os.environ["PERF_OUT"], int(os.environ["PERF_CORES"])

def load(name, threads):
    with open(f"{out}/{name}.t{threads}.json") as f:
        j = json.load(f)
    with open(f"{out}/{name}.t{threads}.mem.json") as f:
        m = json.load(f)
    j["peak"], j["peak_rss_network_mb"] = m.get("peak_rss_mb"), m.get("peak_rss_network_mb")
    try:
        with open(f"{out}/{name}.t{threads}.mem.time") as f:
            found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", f.read())
        if found:
            j["peak"] = int(found.group(1)) / 1024
    except FileNotFoundError:
        pass
    return j

print(f"Measured {datetime.date.today()} at commit {os.environ['PERF_COMMIT']}, {cores} cores "
      f"({os.environ['PERF_CPU']}), `roadgen bench --runs {os.environ['PERF_RUNS']}` (medians), "
      f"command `scripts/perf_table.sh --runs {os.environ['PERF_RUNS']}`.\n")
names = ["kotka", "liege_center", "liege", "liege_2x2"]
rows = {n: load(n, cores) for n in names}
base = rows["liege"]
print("| network | roads | junctions | pieces | blocks | triangles | parse_s | network_s | meshes_s | total_s "
      "| geojson_s | glb_s | peak MB | peak MB to network | roads / liege | network_s / liege | total_s / liege |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for n in names:
    j = rows[n]
    peak = "n/a" if j["peak"] is None else f"{j['peak']:.0f}"
    peak_net = "n/a" if j.get("peak_rss_network_mb") is None else f"{j['peak_rss_network_mb']:.0f}"
    print(f"| {n} | {j['roads']} | {j['junctions']} | {j['pieces']} | {j['blocks']} | {j['triangles']} "
          f"| {j['parse_s']:.3f} | {j['network_s']:.3f} | {j['meshes_s']:.3f} | {j['total_s']:.3f} "
          f"| {j['geojson_s']:.3f} | {j['glb_s']:.3f} | {peak} | {peak_net} | {j['roads'] / base['roads']:.2f} "
          f"| {j['network_s'] / base['network_s']:.2f} | {j['total_s'] / base['total_s']:.2f} |")

print(f"\nThreads (same commit): 1 against {cores}.\n")
def cpu(j, key):
    return "n/a" if j.get(key) is None else f"{j[key]:.3f}"

def busy(j, stage):
    # Cores kept busy on average: CPU time over wall time (below `threads` when the machine is shared).
    c = j.get(f"{stage}_cpu_s")
    return "n/a" if c is None else f"{c / j[f'{stage}_s']:.2f}"

print("| network | threads | network_s | network CPU s | cores busy | meshes_s | meshes CPU s | cores busy "
      "| total_s | peak MB | speed-up of total_s | output digest | identical |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")
for n in ["liege", "liege_2x2"]:
    one, all_ = load(n, 1), rows[n]
    for j in (one, all_):
        peak = "n/a" if j["peak"] is None else f"{j['peak']:.0f}"
        same = "yes" if j["output_digest"] == one["output_digest"] and j["identical_runs"] else "NO"
        print(f"| {n} | {j['threads']} | {j['network_s']:.3f} | {cpu(j, 'network_cpu_s')} | {busy(j, 'network')} "
              f"| {j['meshes_s']:.3f} | {cpu(j, 'meshes_cpu_s')} | {busy(j, 'meshes')} | {j['total_s']:.3f} | {peak} "
              f"| {one['total_s'] / j['total_s']:.2f} | `{j['output_digest']}` | {same} |")
print("\nLoad average when done: " + open("/proc/loadavg").read().split()[0] + f" (on {cores} cores).")
PY
