#!/bin/sh
# Seeds the cargo-fuzz corpora of rust/fuzz from the golden cases (and the small sample files
# of the other input formats). The corpora are not committed: run this once before fuzzing.
#   scripts/seed_fuzz_corpus.sh
#   cd rust/fuzz && cargo +nightly fuzz run read_json -- -max_total_time=600
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
corpus="$root/rust/fuzz/corpus"
for target in read_json json_pipeline pipeline; do
    mkdir -p "$corpus/$target"
    # The JSON targets start from real files; the pipeline target reads its bytes as choices
    # (see fuzz_targets/pipeline.rs), for which the same files are simply varied seeds.
    cp "$root"/tests/data/golden/*.roads.json "$corpus/$target/"
    cp "$root/tests/data/pointcloud/crossing.json" "$root/tests/data/pcgdemo/ThreeRoadModel.json" "$corpus/$target/"
done
echo "seeded $(ls "$corpus/read_json" | wc -l) files per target under $corpus"
