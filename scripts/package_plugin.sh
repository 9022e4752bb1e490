#!/usr/bin/env bash
# Builds the library for this host (scripts/build_plugin_lib.sh) and zips the plugin folder
# UnrealPlugin/RoadGen into target/RoadGen-<version>.zip (the version of the workspace). Libraries
# built on other platforms and copied into lib/Win64 or lib/Mac beforehand are packed as well.
# Unreal build output (Binaries/, Intermediate/) is left out.
# Run from anywhere: scripts/package_plugin.sh [--skip-build]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ "${1:-}" != --skip-build ]]; then
    scripts/build_plugin_lib.sh
fi

version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
target_dir="${CARGO_TARGET_DIR:-target}"
out="$target_dir/RoadGen-$version.zip"
mkdir -p "$target_dir"
rm -f "$out"

python3 - UnrealPlugin "$out" <<'PY'
import os, sys, zipfile
root, out = sys.argv[1], sys.argv[2]
skip = {"Binaries", "Intermediate"}
count = 0
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, "RoadGen")):
        dirnames[:] = sorted(d for d in dirnames if d not in skip)
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            z.write(path, os.path.relpath(path, root))
            count += 1
    libs = [n for n in z.namelist() if "/ThirdParty/RoadGenLib/lib/" in n]
print(f"==> {out}: {count} files; libraries: {', '.join(libs) or 'none (run without --skip-build)'}")
PY
