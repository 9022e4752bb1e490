//! Build script of the C ABI package. The C header (cbindgen) and the C/C++ test harness are
//! generated here once the C ABI exists; for now it only tells Cargo when to rerun.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
}
