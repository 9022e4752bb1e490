#!/usr/bin/env bash
# SYNTAX CHECK ONLY, not an engine build: checks the two Unreal plugins, UnrealPlugin/RoadGen and
# UnrealPlugin/RoadGenPCG (the PCG node, a plugin of its own so that RoadGen works without PCG):
#   1. the .uplugin files (JSON) and the module graph read from the Build.cs files: every module
#      has a Build.cs, a module of another plugin or of an engine plugin is used only when that
#      plugin is listed, no cycle, no Runtime -> Editor dependency, only RoadGenEditor links
#      RoadGenLib, and nothing in RoadGen depends on RoadGenPCG or PCG (the direction is
#      RoadGenPCG -> RoadGen/RoadGenEditor);
#   2. the Build.cs files compile with mcs against a stand-in of the UnrealBuildTool types
#      (when mcs is installed; Debian package mono-mcs);
#   3. a stand-in for UnrealHeaderTool: reflected headers include their .generated.h last;
#   4. every .cpp compiles with g++ (and clang++ when installed) -fsyntax-only against the
#      stand-in engine declarations in tests/ue_stubs/ plus the real roadgen.h and RoadGen.hpp,
#      for the UE 5.4, 5.5 and 5.6 stand-ins, each module seeing only the Public folders of the
#      modules its Build.cs depends on (as UnrealBuildTool gives it);
#   5. exports: each module is compiled with hidden symbol visibility and its <MODULE>_API macro
#      as default visibility, linked into a shared library, and every symbol a module takes from
#      another of the plugins' modules must be exported by it (what a missing _API macro breaks
#      in a modular editor build); needs no engine and no linking against one.
# Fails on a misspelt call, a wrong argument, an engine call the stand-ins do not declare, an
# include a module's dependencies do not provide, or a cross-module call without _API.
#
# Run from anywhere: scripts/check_plugin_syntax.sh [--strict] [--install-tools]
#   --strict         fail when a step is skipped because its tool (mcs, clang++) is missing
#   --install-tools  first apt-get install the missing tools (mono-mcs, clang; needs root and
#                    the Debian registry; measured here: about 35 s for both, see the README)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

strict=0
install=0
for arg in "$@"; do
    case "$arg" in
        --strict) strict=1 ;;
        --install-tools) install=1 ;;
        *) echo "usage: $0 [--strict] [--install-tools]" >&2; exit 2 ;;
    esac
done

plugins=(UnrealPlugin/RoadGen UnrealPlugin/RoadGenPCG)
stubs=tests/ue_stubs
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
skipped=()

echo "SYNTAX CHECK ONLY: not an engine build (stand-ins in $stubs, see its README.md)"

if [[ $install -eq 1 ]]; then
    missing=()
    command -v mcs > /dev/null || missing+=(mono-mcs)
    command -v clang++ > /dev/null || missing+=(clang)
    if [[ ${#missing[@]} -gt 0 ]]; then
        start=$SECONDS
        echo "==>  apt-get install -y ${missing[*]}"
        # A failed install (no registry, no root) is not a failed check: the steps that need
        # the tools say SKIP below (and fail under --strict).
        if { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } \
            > "$work/apt.log" 2>&1; then
            echo "ok   installed ${missing[*]} in $((SECONDS - start)) s"
        else
            tail -5 "$work/apt.log"
            echo "WARN could not install ${missing[*]}"
        fi
    fi
fi

# 1. The .uplugin files and the module graph of the Build.cs files. Writes $work/modules.tsv:
# module, plugin, module dir, compile flags (include paths of the module and its dependencies).
python3 - "$work/modules.tsv" "${plugins[@]}" <<'PY'
import json, os, re, sys
out, plugin_dirs = sys.argv[1], sys.argv[2:]
errors = []

# Engine modules that live in engine plugins (UE_API_NOTES B.8, B.9, B.10): using one needs the
# plugin in the .uplugin's "Plugins".
ENGINE_PLUGIN_OF = {
    "PCG": "PCG",
    "ScriptableToolsFramework": "ScriptableToolsFramework",
    "EditorScriptableToolsFramework": "ScriptableToolsFramework",
    "GeometryScriptingCore": "GeometryScripting",
}

def deps_of(build_cs):
    text = open(build_cs).read()
    deps = {}
    for kind in ("Public", "Private"):
        names = []
        for m in re.finditer(kind + r'DependencyModuleNames\.(AddRange\(\s*new\s+string\[\]\s*\{([^}]*)\}|Add\(\s*("[^"]*")\s*\))', text):
            names += re.findall(r'"([^"]+)"', m.group(2) or m.group(3))
        deps[kind] = names
    external = re.search(r'Type\s*=\s*ModuleType\.External', text) is not None
    include_dirs = re.findall(r'PublicIncludePaths\.Add\(\s*Path\.Combine\(\s*ModuleDirectory\s*,\s*"([^"]+)"\s*\)\s*\)', text)
    return deps, external, include_dirs

modules = {}   # name -> dict(plugin, dir, type, deps, external, includes)
plugins = {}   # plugin name -> dict(dir, plugins it lists)
for pdir in plugin_dirs:
    pname = os.path.basename(pdir)
    upath = os.path.join(pdir, pname + ".uplugin")
    try:
        with open(upath) as f:
            desc = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"{upath}: {e}")
    listed = {p["Name"] for p in desc.get("Plugins", []) if p.get("Enabled", False)}
    optional = [p["Name"] for p in desc.get("Plugins", []) if p.get("Optional", False)]
    if optional:
        errors.append(f"{upath}: optional plugin dependencies {optional}: an optional plugin does not make a module optional; "
                      "put the modules that need it into a plugin of their own")
    plugins[pname] = {"dir": pdir, "listed": listed}
    builds = {}
    for root, _, files in os.walk(os.path.join(pdir, "Source")):
        for name in files:
            if name.endswith(".Build.cs"):
                builds[name[: -len(".Build.cs")]] = root
    listed_modules = {m["Name"]: m.get("Type", "") for m in desc.get("Modules", [])}
    for mname, mdir in builds.items():
        deps, external, include_dirs = deps_of(os.path.join(mdir, mname + ".Build.cs"))
        if mname in modules:
            errors.append(f"module {mname} is defined twice")
        if not external and mname not in listed_modules:
            errors.append(f"{upath} does not list module {mname} ({mdir})")
        modules[mname] = {"plugin": pname, "dir": mdir, "type": listed_modules.get(mname, "External"),
                          "deps": deps, "external": external, "includes": include_dirs}
    for mname in listed_modules:
        if mname not in builds:
            errors.append(f"{upath} lists module {mname} but no {mname}.Build.cs is under {pdir}/Source")

for mname, m in modules.items():
    for dep in m["deps"]["Public"] + m["deps"]["Private"]:
        if dep in modules:
            other = modules[dep]
            if other["plugin"] != m["plugin"] and other["plugin"] not in plugins[m["plugin"]]["listed"]:
                errors.append(f"{mname} ({m['plugin']}) uses {dep} of plugin {other['plugin']}, which {m['plugin']}.uplugin does not list")
            if m["type"].startswith("Runtime") and other["type"].startswith("Editor"):
                errors.append(f"Runtime module {mname} depends on Editor module {dep}")
        elif dep in ENGINE_PLUGIN_OF and ENGINE_PLUGIN_OF[dep] not in plugins[m["plugin"]]["listed"]:
            errors.append(f"{mname} uses engine module {dep} of plugin {ENGINE_PLUGIN_OF[dep]}, which {m['plugin']}.uplugin does not list")

# The dependency direction: nothing of the RoadGen plugin may need PCG or the RoadGenPCG plugin.
if "RoadGen" in plugins:
    if "PCG" in plugins["RoadGen"]["listed"] or "RoadGenPCG" in plugins["RoadGen"]["listed"]:
        errors.append("RoadGen.uplugin lists PCG or RoadGenPCG: RoadGen must work without PCG")
    for mname, m in modules.items():
        if m["plugin"] != "RoadGen":
            continue
        for dep in m["deps"]["Public"] + m["deps"]["Private"]:
            if dep == "PCG" or (dep in modules and modules[dep]["plugin"] == "RoadGenPCG"):
                errors.append(f"{mname} (plugin RoadGen) depends on {dep}: the direction is RoadGenPCG -> RoadGen, never back")
        for root, _, files in os.walk(m["dir"]):
            for name in files:
                if name.endswith((".h", ".cpp", ".hpp")):
                    path = os.path.join(root, name)
                    for inc in re.findall(r'^\s*#include\s+"([^"]+)"', open(path).read(), re.M):
                        if re.match(r'(Data/)?PCG', inc):
                            errors.append(f"{path} includes {inc}: the RoadGen plugin must not use PCG")

# One module links the Rust static library (UE_API_NOTES A.3, E: one Rust staticlib per binary,
# one wrapper module depending on the External module): RoadGenEditor.
for mname, m in modules.items():
    if "RoadGenLib" in m["deps"]["Public"] + m["deps"]["Private"] and mname != "RoadGenEditor":
        errors.append(f"{mname} depends on RoadGenLib: only RoadGenEditor may (use RoadGen::Run from RoadGenRunner.h)")
    if "RoadGenLib" in m["deps"]["Public"]:
        errors.append(f"{mname} depends on RoadGenLib publicly: keep it private, so roadgen.h stays out of other modules")

# No cycles among the plugins' modules.
state = {}
def visit(name, path):
    if state.get(name) == "done":
        return
    if state.get(name) == "active":
        errors.append("module dependency cycle: " + " -> ".join(path + [name]))
        return
    state[name] = "active"
    for dep in modules[name]["deps"]["Public"] + modules[name]["deps"]["Private"]:
        if dep in modules:
            visit(dep, path + [name])
    state[name] = "done"
for name in sorted(modules):
    visit(name, [])

# Include paths as UnrealBuildTool gives them: the module's own Public and Private folders, the
# Public folders (or an External module's PublicIncludePaths) of its dependencies, and, through
# their public dependencies, of those modules' public dependencies.
def public_dirs(name, seen):
    if name in seen or name not in modules:
        return []
    seen.add(name)
    m = modules[name]
    dirs = [os.path.join(m["dir"], d) for d in m["includes"]] if m["external"] else [os.path.join(m["dir"], "Public")]
    for dep in m["deps"]["Public"]:
        dirs += public_dirs(dep, seen)
    return dirs

with open(out, "w") as f:
    for name in sorted(modules):
        m = modules[name]
        if m["external"]:
            continue
        dirs = [os.path.join(m["dir"], "Public"), os.path.join(m["dir"], "Private")]
        seen = {name}
        for dep in m["deps"]["Public"] + m["deps"]["Private"]:
            dirs += public_dirs(dep, seen)
            for sub in modules.get(dep, {}).get("deps", {}).get("Public", []):
                dirs += public_dirs(sub, seen)
        dirs = [d for i, d in enumerate(dirs) if os.path.isdir(d) and d not in dirs[:i]]
        f.write("\t".join([name, m["plugin"], m["dir"], " ".join("-I" + d for d in dirs)]) + "\n")

if errors:
    sys.exit("\n".join(errors))
summary = "; ".join(f"{p}: " + ", ".join(sorted(n for n, m in modules.items() if m["plugin"] == p)) for p in plugins)
print(f"ok   .uplugin files valid, module graph checked ({summary}); RoadGen does not depend on PCG or RoadGenPCG")
PY

mapfile -t module_rows < "$work/modules.tsv"
# All _API macros empty for the syntax check (as for a monolithic build).
defines=()
for row in "${module_rows[@]}"; do
    IFS=$'\t' read -r name _ _ _ <<< "$row"
    defines+=("-D${name^^}_API=")
done

# 2. Build.cs files: compiled against a stand-in of the UnrealBuildTool types.
mapfile -t buildcs < <(for p in "${plugins[@]}"; do find "$p/Source" -name '*.Build.cs'; done | sort)
if command -v mcs > /dev/null; then
    mcs -nologo -target:library -warnaserror+ -out:"$work/buildcs.dll" "$stubs/UnrealBuildTool.cs" "${buildcs[@]}"
    echo "ok   ${#buildcs[@]} Build.cs files compile with mcs against $stubs/UnrealBuildTool.cs"
else
    echo "SKIP Build.cs compile: no C# compiler (apt-get install mono-mcs, or --install-tools); ${#buildcs[@]} Build.cs files not compiled"
    skipped+=("Build.cs compile (no mcs)")
fi

# 3. A small stand-in for UnrealHeaderTool: every reflected header includes its .generated.h
# last, and gets one, defining the GENERATED_BODY() macro of each class (Super = declared base).
gen="$work/generated"
mkdir -p "$gen"
python3 - "$gen" "${plugins[@]}" <<'PY'
import os, re, sys
out, srcs = sys.argv[1], [os.path.join(p, "Source") for p in sys.argv[2:]]
decl = re.compile(r'^\s*(UCLASS|USTRUCT)\s*\(.*?\)\s*\n\s*(class|struct)\s+(?:[A-Z0-9_]+_API\s+)?(\w+)(?:\s*:\s*public\s+([\w:]+))?', re.M | re.S)
errors = []
for src in srcs:
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

# 4. Every .cpp, with g++ (and clang++ when installed), for each supported minor version; each
# module with the include paths of its own dependencies only.
common=(-std=c++20 -fno-exceptions -fno-rtti -Wall -Werror -Wno-unused-function -include "$stubs/RoadGenStubUHT.h")
compilers=(g++)
if command -v clang++ > /dev/null; then
    compilers+=(clang++)
else
    skipped+=("clang++ compile (not installed)")
fi
failed=0
count=0
for cxx in "${compilers[@]}"; do
    count=0
    for row in "${module_rows[@]}"; do
        IFS=$'\t' read -r name plugin dir flags <<< "$row"
        read -r -a incs <<< "$flags"
        mapfile -t sources < <(find "$dir" -name '*.cpp' | sort)
        for minor in 4 5 6; do
            for src in "${sources[@]}"; do
                if ! "$cxx" "${common[@]}" -fsyntax-only -DRG_STUB_ENGINE_MINOR_VERSION="$minor" "${defines[@]}" \
                    -I "$gen" -I "$stubs" "${incs[@]}" "$src"; then
                    echo "FAIL $cxx (5.$minor stand-ins, module $name): $src"
                    failed=1
                fi
            done
        done
        count=$((count + ${#sources[@]}))
    done
    echo "ok   $cxx: $count .cpp files x UE 5.4/5.5/5.6 stand-ins, per-module include paths"
done
if [[ ${#compilers[@]} -eq 1 ]]; then
    echo "SKIP clang++ compile: not installed (apt-get install clang, or --install-tools)"
fi
if [[ $failed -ne 0 ]]; then
    echo "plugin syntax check FAILED"
    exit 1
fi

# 5. Exports. Each module compiled to objects (5.6 stand-ins, g++) with hidden visibility, its
# own and every other _API macro as default visibility (dllexport / dllimport in a Windows DLL
# build), then linked into lib<Module>.so with engine symbols left undefined. A symbol that a
# module uses and another plugin module defines must be in that module's dynamic symbol table.
visibility='__attribute__((visibility("default")))'
vis_defines=()
for row in "${module_rows[@]}"; do
    IFS=$'\t' read -r name _ _ _ <<< "$row"
    vis_defines+=("-D${name^^}_API=$visibility")
done
for row in "${module_rows[@]}"; do
    IFS=$'\t' read -r name plugin dir flags <<< "$row"
    read -r -a incs <<< "$flags"
    mkdir -p "$work/obj/$name"
    objs=()
    while IFS= read -r src; do
        obj="$work/obj/$name/$(basename "$src" .cpp).o"
        g++ "${common[@]}" -c -O0 -fPIC -fvisibility=hidden -fvisibility-inlines-hidden -DRG_STUB_ENGINE_MINOR_VERSION=6 \
            "${vis_defines[@]}" -I "$gen" -I "$stubs" "${incs[@]}" "$src" -o "$obj"
        objs+=("$obj")
    done < <(find "$dir" -name '*.cpp' | sort)
    g++ -shared -o "$work/obj/lib$name.so" "${objs[@]}"
    nm --defined-only --extern-only "${objs[@]}" 2> /dev/null | awk 'NF == 3 { print $3 }' | sort -u > "$work/obj/$name.defined"
    nm -D --defined-only "$work/obj/lib$name.so" | awk 'NF == 3 { print $3 }' | sort -u > "$work/obj/$name.exported"
    nm --undefined-only "${objs[@]}" 2> /dev/null | awk 'NF == 2 { print $2 }' | sort -u > "$work/obj/$name.used"
done
export_errors=0
cross=0
for row in "${module_rows[@]}"; do
    IFS=$'\t' read -r user _ _ _ <<< "$row"
    for row2 in "${module_rows[@]}"; do
        IFS=$'\t' read -r provider _ _ _ <<< "$row2"
        [[ "$user" == "$provider" ]] && continue
        comm -12 "$work/obj/$user.used" "$work/obj/$provider.defined" > "$work/obj/needed"
        cross=$((cross + $(wc -l < "$work/obj/needed")))
        comm -23 "$work/obj/needed" "$work/obj/$provider.exported" > "$work/obj/missing"
        if [[ -s "$work/obj/missing" ]]; then
            echo "FAIL $user uses symbols of $provider that $provider does not export (add ${provider^^}_API):"
            c++filt < "$work/obj/missing" | sed 's/^/       /'
            export_errors=1
        fi
    done
done
if [[ $export_errors -ne 0 ]]; then
    echo "plugin syntax check FAILED"
    exit 1
fi
echo "ok   exports: the $cross symbols modules take from other plugin modules are exported (_API macros)"

if [[ ${#skipped[@]} -gt 0 ]]; then
    printf 'SKIPPED: %s\n' "$(IFS=';'; echo "${skipped[*]}" | sed 's/;/; /g')"
    if [[ $strict -eq 1 ]]; then
        echo "plugin syntax check FAILED (--strict: a step was skipped)"
        exit 1
    fi
    echo "plugin syntax check passed, with the skips above (SYNTAX CHECK ONLY: not an engine build)"
else
    echo "plugin syntax check passed, nothing skipped (SYNTAX CHECK ONLY: not an engine build)"
fi
