//! The C ABI driven from C and C++ exactly as the Unreal plugin drives it: `tests/capi/driver.c`
//! (C11) and `tests/capi/driver.cpp` (C++17 through the plugin's `RoadGen.hpp`, with
//! `-fno-exceptions -fno-rtti` like Unreal) are compiled with the system `cc` / `c++`, linked
//! against the crate's static library and run; the header is compiled as C and as C++ with
//! warnings as errors.
//!
//! Where the static library comes from: an integration test is linked against the crate's rlib,
//! and the `libroadgen-<hash>.a` that cargo may leave next to it cannot be told apart from stale
//! ones of other builds. So the first test that needs it runs `cargo build --release --lib` into
//! its own target directory (`<target>/capi-lib`, so that it never waits for the lock of the
//! build that is running these tests) and takes the `.a` path from cargo's JSON messages. The
//! first run compiles the dependencies once more; later runs are incremental.
//!
//! The binaries are left in `<target>/capi-drivers/` (plain, and built with
//! `-fsanitize=address,undefined`) for `scripts/check_capi_memory.sh`, which runs them under
//! valgrind and the sanitizers.

// One test calls the C ABI's `unsafe extern "C"` functions directly from Rust.
#![allow(unsafe_code)]

use std::mem::{offset_of, size_of};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use roadgen::*;

/// What `rustc --print native-static-libs` says the static library needs on Linux.
const NATIVE_LIBS: &[&str] = &["-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl", "-lc"];
/// Where the plugin includes the headers from.
const INCLUDE: &str = "UnrealPlugin/RoadGen/Source/ThirdParty/RoadGenLib/include";
/// Warnings as errors, for the drivers and the header checks.
const C_FLAGS: &[&str] = &["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-g", "-O1"];
const CXX_FLAGS: &[&str] =
    &["-std=c++17", "-Wall", "-Wextra", "-Werror", "-pedantic", "-fno-exceptions", "-fno-rtti", "-g", "-O1"];
/// Stricter warnings for the headers alone (what a plugin module may turn on).
const HEADER_CXX_FLAGS: &[&str] = &[
    "-Wall",
    "-Wextra",
    "-Werror",
    "-pedantic",
    "-Wshadow",
    "-Wconversion",
    "-Wsign-conversion",
    "-Wold-style-cast",
    "-Wundef",
    "-Wcast-qual",
    "-fno-exceptions",
    "-fno-rtti",
];
const SANITIZE: &str = "-fsanitize=address,undefined";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The target directory this test was built in (`<target>/<profile>/deps/<this test>`).
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's path");
    exe.ancestors().nth(3).expect("the test runs from <target>/<profile>/deps").to_path_buf()
}

fn out_dir() -> PathBuf {
    target_dir().join("capi-drivers")
}

fn show(out: &Output) -> String {
    format!(
        "status {}\n--- stdout\n{}--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn run(cmd: &mut Command) -> Result<Output, String> {
    let out = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
    if out.status.success() {
        Ok(out)
    } else {
        Err(format!("{cmd:?} failed: {}", show(&out)))
    }
}

/// Builds the static library (see the module comment) and returns its path.
fn build_static_lib() -> Result<PathBuf, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = run(Command::new(cargo)
        .current_dir(root())
        .env("CARGO_TARGET_DIR", target_dir().join("capi-lib"))
        .args(["build", "--release", "--lib", "--message-format=json-render-diagnostics"]))?;
    let (mut lib, mut header) = (None, None);
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Ok(msg) = serde_json::from_str::<serde_json::Value>(line) else { continue };
        let is_root = msg["package_id"].as_str().is_some_and(|id| id.contains("#roadgen@"));
        if msg["reason"] == "build-script-executed" && is_root {
            header = msg["out_dir"].as_str().map(|d| Path::new(d).join("roadgen.h"));
        }
        if msg["reason"] == "compiler-artifact" && msg["target"]["name"] == "roadgen" {
            let mut files = msg["filenames"].as_array().into_iter().flatten().filter_map(|f| f.as_str());
            lib = files.find(|f| f.ends_with(".a")).map(PathBuf::from);
        }
    }
    let lib = lib.ok_or_else(|| format!("cargo build named no libroadgen .a: {}", show(&out)))?;
    // The drivers include the committed header: it must describe the library they link (else
    // they would misread every struct). tests/capi_header.rs says how to update it.
    let header = header.ok_or("cargo build did not report the header's build script")?;
    let generated = std::fs::read_to_string(&header).map_err(|e| format!("{}: {e}", header.display()))?;
    let committed = std::fs::read_to_string(root().join(INCLUDE).join("roadgen.h")).map_err(|e| e.to_string())?;
    if generated != committed {
        return Err(format!(
            "{INCLUDE}/roadgen.h is not the header of the library built from rust/capi/ ({}); \
             run scripts/update_header.sh",
            header.display()
        ));
    }
    Ok(lib)
}

/// `#define`s of the Rust sizes and offsets that the drivers `_Static_assert` / `static_assert`.
fn layout_header() -> String {
    let mut h = String::from("/* Generated by tests/capi_drivers.rs: the layout Rust sees. */\n");
    let mut size = |name: &str, v: usize| h.push_str(&format!("#define RG_EXPECT_SIZEOF_{name} {v}\n"));
    size("RgVec2", size_of::<RgVec2>());
    size("RgVec3", size_of::<RgVec3>());
    size("RgProfile", size_of::<RgProfile>());
    size("RgSettings", size_of::<RgSettings>());
    size("RgSplinePoint", size_of::<RgSplinePoint>());
    size("RgSpline", size_of::<RgSpline>());
    size("RgStr", size_of::<RgStr>());
    size("RgRing", size_of::<RgRing>());
    size("RgPolygon", size_of::<RgPolygon>());
    size("RgJunction", size_of::<RgJunction>());
    size("RgRoadPiece", size_of::<RgRoadPiece>());
    size("RgBlock", size_of::<RgBlock>());
    size("RgDiagnostic", size_of::<RgDiagnostic>());
    size("RgMesh", size_of::<RgMesh>());
    size("RgNetworkView", size_of::<RgNetworkView>());
    size("RgFeatureRef", size_of::<RgFeatureRef>());
    size("RgChangesView", size_of::<RgChangesView>());
    size("RgResult", size_of::<RgResult>());
    let mut offset = |name: &str, v: usize| h.push_str(&format!("#define RG_EXPECT_OFFSETOF_{name} {v}\n"));
    offset("RgSettings_profile", offset_of!(RgSettings, profile));
    offset("RgSettings_strict", offset_of!(RgSettings, strict));
    offset("RgSettings_build_meshes", offset_of!(RgSettings, build_meshes));
    offset("RgSplinePoint_point_type", offset_of!(RgSplinePoint, point_type));
    offset("RgSpline_width", offset_of!(RgSpline, width));
    offset("RgSpline_layer", offset_of!(RgSpline, layer));
    offset("RgSpline_closed", offset_of!(RgSpline, closed));
    offset("RgSpline_auto_tangents", offset_of!(RgSpline, auto_tangents));
    offset("RgSpline_profile_mask", offset_of!(RgSpline, profile_mask));
    offset("RgSpline_profile", offset_of!(RgSpline, profile));
    offset("RgSpline_corner_radius", offset_of!(RgSpline, corner_radius));
    offset("RgJunction_polygon", offset_of!(RgJunction, polygon));
    offset("RgRoadPiece_centerline", offset_of!(RgRoadPiece, centerline));
    offset("RgRoadPiece_polygon", offset_of!(RgRoadPiece, polygon));
    offset("RgBlock_lots", offset_of!(RgBlock, lots));
    offset("RgDiagnostic_message", offset_of!(RgDiagnostic, message));
    offset("RgMesh_material_slots", offset_of!(RgMesh, material_slots));
    offset("RgNetworkView_mesh_count", offset_of!(RgNetworkView, mesh_count));
    offset("RgFeatureRef_id", offset_of!(RgFeatureRef, id));
    offset("RgChangesView_remeshed_count", offset_of!(RgChangesView, remeshed_count));
    offset("RgChangesView_full_build", offset_of!(RgChangesView, full_build));
    h
}

/// A compile of `source` into `exe` with `compiler`, `flags`, the include paths and the library.
fn compile(compiler: &str, flags: &[&str], source: &Path, layout_dir: &Path, lib: &Path, exe: &Path) -> Command {
    let mut cmd = Command::new(compiler);
    cmd.args(flags)
        .arg("-I")
        .arg(root().join(INCLUDE))
        .arg("-I")
        .arg(layout_dir)
        .arg(source)
        .arg(lib)
        .args(NATIVE_LIBS)
        .arg("-o")
        .arg(exe);
    cmd
}

/// The compiled drivers.
struct Drivers {
    c: PathBuf,
    cpp: PathBuf,
}

fn drivers() -> &'static Drivers {
    static DRIVERS: OnceLock<Result<Drivers, String>> = OnceLock::new();
    let built = DRIVERS.get_or_init(|| {
        let lib = build_static_lib()?;
        let out = out_dir();
        std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
        std::fs::write(out.join("capi_layout.h"), layout_header()).map_err(|e| e.to_string())?;
        let (c_src, cpp_src) = (root().join("tests/capi/driver.c"), root().join("tests/capi/driver.cpp"));
        let drivers = Drivers { c: out.join("driver_c"), cpp: out.join("driver_cpp") };
        run(&mut compile("cc", C_FLAGS, &c_src, &out, &lib, &drivers.c))?;
        run(&mut compile("c++", &[CXX_FLAGS, &["-pthread"]].concat(), &cpp_src, &out, &lib, &drivers.cpp))?;
        // The same with AddressSanitizer and UBSan on the C / C++ side, for
        // scripts/check_capi_memory.sh (the Rust side is not instrumented; its heap goes through
        // the sanitizer's malloc, so leaks and bad frees across the boundary are still seen).
        run(&mut compile("cc", &[C_FLAGS, &[SANITIZE]].concat(), &c_src, &out, &lib, &out.join("driver_c_asan")))?;
        let cpp_asan = [CXX_FLAGS, &["-pthread", SANITIZE]].concat();
        run(&mut compile("c++", &cpp_asan, &cpp_src, &out, &lib, &out.join("driver_cpp_asan")))?;
        Ok(drivers)
    });
    match built {
        Ok(d) => d,
        Err(e) => panic!("building the C ABI drivers failed:\n{e}"),
    }
}

/// Runs a driver (with a section name, or all sections) and checks its verdict.
fn run_driver(exe: &Path, name: &str, section: &str) {
    let out = Command::new(exe).arg(section).output().unwrap_or_else(|e| panic!("{}: {e}", exe.display()));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or("");
    assert!(
        out.status.success() && last.starts_with(&format!("{name}: ")) && last.ends_with(" checks passed"),
        "{} {section}: {}",
        exe.display(),
        show(&out)
    );
}

#[test]
fn c_driver_passes_every_check() {
    run_driver(&drivers().c, "driver.c", "all");
}

#[test]
fn cpp_driver_passes_every_check() {
    run_driver(&drivers().cpp, "driver.cpp", "all");
}

#[test]
fn a_panic_comes_back_as_an_error_code() {
    // rg_selftest_panic returns RgResult_Panic with a message naming it, the handle stays live
    // and empty, and generates again (see section_panic in both drivers).
    run_driver(&drivers().c, "driver.c", "panic");
    run_driver(&drivers().cpp, "driver.cpp", "panic");
}

#[test]
fn the_drivers_build_with_warnings_as_errors() {
    // Also what scripts/check_capi_memory.sh runs to build the binaries it checks.
    let d = drivers();
    assert!(d.c.exists() && d.cpp.exists());
}

#[test]
fn an_update_is_a_generation_of_the_edited_input() {
    // rg_update after rg_generate: moving and removing roads gives exactly the views (network
    // and every mesh, byte for byte) of a generation of the edited input; the change lists name
    // what is and is not in the view; caller mistakes leave the network as it was (section_update
    // in driver.c).
    run_driver(&drivers().c, "driver.c", "update");
}

#[test]
fn a_count_without_its_array_is_a_null_argument() {
    // splines / points / id null with a count > 0: RgResult documents RgResult_NullArgument.
    run_driver(&drivers().c, "driver.c", "null_arrays");
    run_driver(&drivers().cpp, "driver.cpp", "null_arrays");
}

#[test]
fn sidewalk_left_is_the_left_side_in_both_frames() {
    // A sidewalk on a road's left, looking along it, is on the same physical side whether the
    // caller is right-handed or Unreal's left-handed frame (see SectionSides in driver.cpp).
    run_driver(&drivers().cpp, "driver.cpp", "sides");
}

#[test]
fn a_panic_in_rust_is_an_error_code_too() {
    // The same from Rust, without the drivers: the process survives and the handle is usable.
    let mut h = 0;
    // SAFETY: `h` is a writable handle.
    assert_eq!(unsafe { rg_network_new(&mut h) }, RgResult::Ok);
    assert_eq!(rg_selftest_panic(h), RgResult::Panic);
    let mut buf = [0u8; 256];
    let mut needed = 0;
    // SAFETY: `buf` has 256 writable bytes; `needed` is writable.
    let r = unsafe { rg_last_error(h, buf.as_mut_ptr().cast(), buf.len(), &mut needed) };
    assert_eq!(r, RgResult::Ok);
    let msg = std::ffi::CStr::from_bytes_until_nul(&buf).expect("NUL-terminated").to_str().expect("UTF-8");
    assert!(msg.contains("rg_selftest_panic"), "{msg}");
    assert_eq!(needed, msg.len() + 1);
    assert_eq!(rg_network_free(h), RgResult::Ok);
}

#[test]
fn layout_static_asserts_are_live() {
    // A layout header that disagrees with the structs must stop the compile: proof that the
    // drivers' static asserts compare what they claim to.
    let d = drivers();
    let bad = out_dir().join("bad-layout");
    std::fs::create_dir_all(&bad).expect("bad-layout dir");
    let wrong = layout_header().replace(
        &format!("RG_EXPECT_SIZEOF_RgSettings {}", size_of::<RgSettings>()),
        &format!("RG_EXPECT_SIZEOF_RgSettings {}", size_of::<RgSettings>() + 8),
    );
    std::fs::write(bad.join("capi_layout.h"), wrong).expect("write");
    for (compiler, flags, src) in [("cc", C_FLAGS, "tests/capi/driver.c"), ("c++", CXX_FLAGS, "tests/capi/driver.cpp")]
    {
        let out = Command::new(compiler)
            .args(flags)
            .arg("-fsyntax-only")
            .arg("-I")
            .arg(root().join(INCLUDE))
            .arg("-I")
            .arg(&bad)
            .arg(root().join(src))
            .output()
            .expect("compiler runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && stderr.contains("RgSettings"), "{compiler} {src}: {}", show(&out));
    }
    assert!(d.c.exists() && d.cpp.exists());
}

#[test]
fn header_compiles_as_c_and_cpp_with_warnings_as_errors() {
    let dir = out_dir().join("header-check");
    std::fs::create_dir_all(&dir).expect("header-check dir");
    let c = dir.join("roadgen_h.c");
    std::fs::write(
        &c,
        "#include \"roadgen.h\"\nint main(void) { return rg_abi_version() == ROADGEN_ABI_VERSION ? 0 : 1; }\n",
    )
    .expect("write");
    let cpp = dir.join("roadgen_hpp.cpp");
    std::fs::write(
        &cpp,
        "#include \"roadgen.h\"\n#include \"RoadGen.hpp\"\nint main() { return roadgen::CheckAbiVersion() ? 0 : 1; }\n",
    )
    .expect("write");
    let mut checks: Vec<(&str, Vec<&str>, &Path)> = vec![
        ("cc", vec!["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"], &c),
        ("cc", vec!["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-Wundef", "-Wstrict-prototypes"], &c),
        ("c++", [&["-std=c++17"], HEADER_CXX_FLAGS].concat(), &cpp),
        ("c++", [&["-std=c++20"], HEADER_CXX_FLAGS].concat(), &cpp),
        // roadgen.h alone as C++ too (a C++ file may include it without the wrapper).
        ("c++", [&["-std=c++17", "-x", "c++"], HEADER_CXX_FLAGS].concat(), &c),
    ];
    // Unreal builds with clang on Linux and Mac: the same with clang when it is installed.
    let clang = Command::new("clang++").arg("--version").output().is_ok_and(|o| o.status.success());
    if clang {
        checks.push(("clang++", [&["-std=c++17"], HEADER_CXX_FLAGS].concat(), &cpp));
        checks.push(("clang++", [&["-std=c++20"], HEADER_CXX_FLAGS].concat(), &cpp));
    }
    for (compiler, flags, src) in checks {
        run(Command::new(compiler).args(&flags).arg("-fsyntax-only").arg("-I").arg(root().join(INCLUDE)).arg(src))
            .unwrap_or_else(|e| panic!("{e}"));
    }
}
