#!/usr/bin/env bash
# Validates glTF files (.glb or .gltf) with the Khronos glTF-Validator, pinned in
# scripts/package.json and package-lock.json. On first use it installs the validator (npm ci)
# into <target>/gltf-validator/ ($CARGO_TARGET_DIR, default target/ at the repository root).
#
# Prints a summary line and every issue per file; exits non-zero if any file has an ERROR
# (warnings, infos and hints are printed but allowed).
#
# Usage: scripts/validate_gltf.sh FILE.glb...
set -euo pipefail

if [ "$#" -eq 0 ]; then
    echo "usage: $0 FILE.glb..." >&2
    exit 2
fi

scripts="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$scripts")"
target="${CARGO_TARGET_DIR:-$root/target}"
case "$target" in
    /*) ;;
    *) target="$root/$target" ;;
esac
dir="$target/gltf-validator"

for tool in node npm; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "$0: '$tool' is needed to run the glTF-Validator" >&2
        exit 2
    fi
done

# (Re)install when the pinned lock file differs from the installed one.
if ! cmp -s "$scripts/package-lock.json" "$dir/package-lock.json" ||
    [ ! -f "$dir/node_modules/gltf-validator/package.json" ]; then
    echo "installing the glTF-Validator into $dir" >&2
    rm -rf "$dir"
    mkdir -p "$dir"
    cp "$scripts/package.json" "$scripts/package-lock.json" "$dir/"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >&2)
fi

exec node "$scripts/validate_gltf.mjs" "$dir" "$@"
