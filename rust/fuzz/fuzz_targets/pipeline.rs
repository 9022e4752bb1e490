//! The pipeline on small inputs drawn from the fuzzer's bytes: a few roads (polylines or
//! splines, open or closed, on one of two layers) whose coordinates mostly lie on a coarse
//! grid, so that roads meet, overlap and repeat points, and sometimes are any `f64` at all
//! (NaN, infinities, huge, tiny); widths and settings drawn the same way. See `common::run`
//! for what is checked.
#![no_main]

mod common;

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;

mod decode;

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    if let Ok((input, settings)) = decode::input(&mut u) {
        common::run(&input, &settings);
    }
});
