//! The JSON readers on arbitrary bytes: `read_file` (text decoding included) and `read_str`
//! with the format detected and forced to each of the three formats. Never a panic; every
//! error is one line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use roadgen_formats::{read_file, read_str, Format, ReadError, ReadOptions};

/// An error's message must be one line (the CLI prints it as such).
fn check_one_line(e: &ReadError) {
    let msg = e.to_string();
    assert!(!msg.contains('\n') && !msg.contains('\r'), "error message is not one line: {msg:?}");
}

fuzz_target!(|data: &[u8]| {
    let path = std::env::temp_dir().join(format!("roadgen-fuzz-read-{}.json", std::process::id()));
    if std::fs::write(&path, data).is_ok() {
        if let Err(e) = read_file(&path, &ReadOptions::default()) {
            check_one_line(&e);
        }
    }
    if let Ok(text) = std::str::from_utf8(data) {
        for format in [None, Some(Format::Roads), Some(Format::UnrealSplines), Some(Format::PointCloud)] {
            let opts = ReadOptions { format, ..ReadOptions::default() };
            if let Err(e) = read_str(text, "fuzz.json", &opts) {
                check_one_line(&e);
            }
        }
    }
});
