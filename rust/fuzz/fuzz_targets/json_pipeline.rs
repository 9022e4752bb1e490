//! A road file all the way through: read it, and when it is small enough, build the network,
//! its meshes, GeoJSON and glTF (see `common::run`).
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use roadgen_core::{RoadGeometry, Settings};
use roadgen_formats::{read_str, ReadOptions};

/// Inputs with more roads than this are only read (keeps each run short).
const MAX_ROADS: usize = 24;
/// Inputs with more points than this, over all roads, are only read.
const MAX_POINTS: usize = 256;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(loaded) = read_str(text, "fuzz.json", &ReadOptions::default()) else { return };
    let points: usize = loaded
        .input
        .roads
        .iter()
        .map(|r| match &r.geometry {
            RoadGeometry::Polyline(p) => p.len(),
            RoadGeometry::Spline(p) => p.len(),
        })
        .sum();
    if loaded.input.roads.len() > MAX_ROADS || points > MAX_POINTS {
        return;
    }
    common::run(&loaded.input, &Settings::default());
});
