#!/usr/bin/env bash
# SYNTAX CHECK ONLY, not an engine build: compiles every .cpp of the Unreal plugin with
# -fsyntax-only against the stand-in engine declarations in tests/ue_stubs/ (the engine API the
# plugin uses, as recorded in the UE API notes) plus the real roadgen.h and RoadGen.hpp, and
# checks RoadGen.uplugin (JSON) and the Build.cs files (C#, when a C# compiler is installed).
# Fails on a misspelt call, a wrong argument, or an engine call the stand-ins do not declare.
# Run from anywhere: scripts/check_plugin_syntax.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

plugin=UnrealPlugin/RoadGen
stubs=tests/ue_stubs
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "SYNTAX CHECK ONLY: not an engine build (stand-ins in $stubs, see its README.md)"

# 1. RoadGen.uplugin is JSON with the modules the sources define.
python3 - "$plugin" <<'PY'
import json, os, sys
plugin = sys.argv[1]
with open(os.path.join(plugin, "RoadGen.uplugin")) as f:
    d = json.load(f)
names = [m["Name"] for m in d["Modules"]]
for n in names:
    build = os.path.join(plugin, "Source", n, n + ".Build.cs")
    if not os.path.isfile(build):
        sys.exit(f"RoadGen.uplugin lists module {n} but {build} is missing")
print(f"ok   RoadGen.uplugin: valid JSON, modules {', '.join(names)} have Build.cs files")
PY

# 2. Build.cs files: compiled against a stand-in of the UnrealBuildTool types when a C# compiler
# is installed (Debian: mono-mcs); otherwise only reported.
mapfile -t buildcs < <(find "$plugin/Source" -name '*.Build.cs' | sort)
if command -v mcs > /dev/null; then
    mcs -nologo -target:library -warnaserror+ -out:"$work/buildcs.dll" "$stubs/UnrealBuildTool.cs" "${buildcs[@]}"
    echo "ok   ${#buildcs[@]} Build.cs files compile with mcs against $stubs/UnrealBuildTool.cs"
else
    echo "SKIP Build.cs check: no C# compiler (apt-get install mono-mcs to check ${#buildcs[@]} Build.cs files)"
fi

# 3. A small stand-in for UnrealHeaderTool: every reflected header includes its .generated.h
# last, and gets one, defining the GENERATED_BODY() macro of each class (Super = declared base).
gen="$work/generated"
mkdir -p "$gen"
python3 - "$plugin/Source" "$gen" <<'PY'
import os, re, sys
src, out = sys.argv[1], sys.argv[2]
decl = re.compile(r'^\s*(UCLASS|USTRUCT)\s*\(.*?\)\s*\n\s*(class|struct)\s+(?:[A-Z0-9_]+_API\s+)?(\w+)(?:\s*:\s*public\s+([\w:]+))?', re.M | re.S)
errors = []
for root, _, files in os.walk(src):
    for name in sorted(files):
        if not name.endswith(".h"):
            continue
        path = os.path.join(root, name)
        text = open(path).read()
        stem = name[:-2]
        includes = re.findall(r'^\s*#include\s+"([^"]+)"', text, re.M)
        reflected = decl.findall(text)
        if not reflected:
            continue
        want = stem + ".generated.h"
        if not includes or includes[-1] != want:
            errors.append(f"{path}: the last #include must be \"{want}\"")
        file_id = "FID_" + re.sub(r'\W', '_', stem)
        lines = [f"// written by scripts/check_plugin_syntax.sh (stand-in for UHT output)",
                 "#undef CURRENT_FILE_ID", f"#define CURRENT_FILE_ID {file_id}"]
        for m in decl.finditer(text):
            kind, _, cls, base = m.groups()
            body = re.search(r'GENERATED_BODY\(\)', text[m.end():])
            if not body:
                errors.append(f"{path}: {cls} has no GENERATED_BODY()")
                continue
            line = text[: m.end() + body.start()].count("\n") + 1
            members = [f"typedef {cls} ThisClass;"]
            if base:
                members.append(f"typedef {base} Super;")
            members.append("static UClass* StaticClass();" if kind == "UCLASS" else "static class UScriptStruct* StaticStruct();")
            lines.append(f"#define {file_id}_{line}_GENERATED_BODY public: {' '.join(members)} private:")
        with open(os.path.join(out, want), "w") as f:
            f.write("\n".join(lines) + "\n")
if errors:
    sys.exit("\n".join(errors))
PY
echo "ok   reflected headers include their .generated.h last"

# 4. Every .cpp, with g++ (and clang++ when installed), for each supported minor version.
includes=(-I "$gen" -I "$stubs" -I "$plugin/Source/ThirdParty/RoadGenLib/include")
for module in "$plugin"/Source/*/; do
    [[ -d "$module/Public" ]] && includes+=(-I "$module/Public")
    [[ -d "$module/Private" ]] && includes+=(-I "$module/Private")
done
defines=(-DROADGEN_API= -DROADGENEDITOR_API= -DROADGENPCG_API=)
mapfile -t sources < <(find "$plugin/Source" -name '*.cpp' | sort)
compilers=(g++)
command -v clang++ > /dev/null && compilers+=(clang++)
failed=0
for cxx in "${compilers[@]}"; do
    for minor in 4 5 6; do
        for src in "${sources[@]}"; do
            if ! "$cxx" -std=c++20 -fsyntax-only -fno-exceptions -fno-rtti -Wall -Werror -Wno-unused-function \
                -DRG_STUB_ENGINE_MINOR_VERSION="$minor" "${defines[@]}" -include "$stubs/RoadGenStubUHT.h" \
                "${includes[@]}" "$src"; then
                echo "FAIL $cxx (5.$minor stand-ins): $src"
                failed=1
            fi
        done
    done
    echo "ok   $cxx: ${#sources[@]} .cpp files x UE 5.4/5.5/5.6 stand-ins"
done
if [[ $failed -ne 0 ]]; then
    echo "plugin syntax check FAILED"
    exit 1
fi
echo "plugin syntax check passed (SYNTAX CHECK ONLY: not an engine build)"
