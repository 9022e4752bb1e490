#!/usr/bin/env bash
# Builds the library for this host (scripts/build_plugin_lib.sh) and zips the two Unreal plugins,
# one zip each (the version of the workspace):
#   target/RoadGen-<version>.zip     UnrealPlugin/RoadGen: roads, junctions, blocks, meshes
#                                    (libraries built on other platforms and copied into
#                                    lib/Win64 or lib/Mac beforehand are packed as well);
#   target/RoadGenPCG-<version>.zip  UnrealPlugin/RoadGenPCG: the PCG node; needs RoadGen and
#                                    the engine's PCG plugin. A project without PCG unpacks only
#                                    the first.
# Each zip holds one plugin folder, to unpack into <Project>/Plugins/. Unreal build output
# (Binaries/, Intermediate/) is left out.
# Run from anywhere: scripts/package_plugin.sh [--skip-build]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ "${1:-}" != --skip-build ]]; then
    scripts/build_plugin_lib.sh
fi

version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
target_dir="${CARGO_TARGET_DIR:-target}"
mkdir -p "$target_dir"

for plugin in RoadGen RoadGenPCG; do
    out="$target_dir/$plugin-$version.zip"
    rm -f "$out"
    python3 - UnrealPlugin "$plugin" "$out" <<'PY'
import os, sys, zipfile
root, plugin, out = sys.argv[1], sys.argv[2], sys.argv[3]
skip = {"Binaries", "Intermediate"}
count = 0
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, plugin)):
        dirnames[:] = sorted(d for d in dirnames if d not in skip)
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            z.write(path, os.path.relpath(path, root))
            count += 1
    names = z.namelist()
if f"{plugin}/{plugin}.uplugin" not in names:
    sys.exit(f"{out}: {plugin}/{plugin}.uplugin missing")
line = f"==> {out}: {count} files"
if plugin == "RoadGen":
    libs = [n for n in names if "/ThirdParty/RoadGenLib/lib/" in n]
    line += f"; libraries: {', '.join(libs) or 'none (run without --skip-build)'}"
print(line)
PY
done
