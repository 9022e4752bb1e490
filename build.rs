//! Build script of the C ABI package: generates the C header `roadgen.h` from `rust/capi/` with
//! cbindgen into `OUT_DIR`. The committed copy that the plugin includes is compared with it by
//! `tests/capi_header.rs` (update it with `scripts/update_header.sh`).

use std::env;
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-changed=rust/capi");
    let dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let mut config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml is readable");
    let version = |part: &str| env::var(format!("CARGO_PKG_VERSION_{part}")).expect("cargo sets the version");
    let (major, minor, patch) = (version("MAJOR"), version("MINOR"), version("PATCH"));
    config.after_includes = Some(format!(
        "\n#define ROADGEN_VERSION_MAJOR {major}\n#define ROADGEN_VERSION_MINOR {minor}\n\
         #define ROADGEN_VERSION_PATCH {patch}\n\
         /* The version this header belongs to; rg_abi_version() must return the same. */\n\
         #define ROADGEN_ABI_VERSION ((ROADGEN_VERSION_MAJOR << 16) | (ROADGEN_VERSION_MINOR << 8) | \
         ROADGEN_VERSION_PATCH)\n"
    ));
    match cbindgen::Builder::new().with_crate(&dir).with_config(config).generate() {
        Ok(bindings) => {
            bindings.write_to_file(out.join("roadgen.h"));
        }
        Err(e) => panic!("cbindgen could not generate roadgen.h: {e}"),
    }
}
