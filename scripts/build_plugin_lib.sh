#!/usr/bin/env bash
# Builds the RoadGen static library for this host (Linux x86_64) and copies it into the Unreal
# plugin: UnrealPlugin/RoadGen/Source/ThirdParty/RoadGenLib/lib/Linux/libroadgen.a. The header
# roadgen.h is generated into the plugin by scripts/update_header.sh; this script checks that it
# is current (cargo test --test capi_header). The library is not committed (see the plugin's
# .gitignore).
#
# Other platforms (run on that platform; see UnrealPlugin/README.md):
#   Win64: cargo build --release --lib --target x86_64-pc-windows-msvc
#          copy target\x86_64-pc-windows-msvc\release\roadgen.lib
#               UnrealPlugin\RoadGen\Source\ThirdParty\RoadGenLib\lib\Win64\roadgen.lib
#   Mac:   cargo build --release --lib --target aarch64-apple-darwin
#          cargo build --release --lib --target x86_64-apple-darwin
#          lipo -create target/aarch64-apple-darwin/release/libroadgen.a \
#               target/x86_64-apple-darwin/release/libroadgen.a \
#               -output UnrealPlugin/RoadGen/Source/ThirdParty/RoadGenLib/lib/Mac/libroadgen.a
# Run from anywhere: scripts/build_plugin_lib.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ "$(uname -s)" != Linux ]]; then
    echo "this script builds the Linux library; see its header for the Win64 and Mac commands" >&2
    exit 1
fi

echo "==> cargo build --release --lib (package roadgen)"
cargo build --release --lib -p roadgen

echo "==> roadgen.h is current (cargo test --release --test capi_header)"
cargo test --release --test capi_header

target_dir="${CARGO_TARGET_DIR:-target}"
dest=UnrealPlugin/RoadGen/Source/ThirdParty/RoadGenLib/lib/Linux
mkdir -p "$dest"
cp "$target_dir/release/libroadgen.a" "$dest/libroadgen.a"
echo "==> $dest/libroadgen.a ($(du -h "$dest/libroadgen.a" | cut -f1))"
