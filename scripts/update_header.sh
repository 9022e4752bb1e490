#!/usr/bin/env bash
# Regenerates the C header from rust/capi/ (cbindgen, run by build.rs) and copies it to where the
# Unreal plugin includes it. tests/capi_header.rs fails until the committed copy is current.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo build --release --lib --message-format=json-render-diagnostics > target/update_header.json
out_dir=$(python3 -c '
import json
for line in open("target/update_header.json"):
    m = json.loads(line)
    # The root package "roadgen" (not roadgen-core and the others).
    if m.get("reason") == "build-script-executed" and "#roadgen@" in m.get("package_id", ""):
        print(m["out_dir"])
' | tail -1)
cp "$out_dir/roadgen.h" UnrealPlugin/RoadGen/Source/ThirdParty/RoadGenLib/include/roadgen.h
echo "updated UnrealPlugin/RoadGen/Source/ThirdParty/RoadGenLib/include/roadgen.h"
