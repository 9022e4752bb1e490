//! Shared helpers of the integration tests: load a network, check every invariant.

#![allow(dead_code, unreachable_pub)]

use std::path::PathBuf;

use roadgen::core::validate::{check_network, NetworkReport};
use roadgen::core::{build, Input, Network, Settings};
use roadgen_formats::{read_file, ReadOptions};

/// Path of a file under `tests/data`.
pub fn data(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(rel)
}

/// Reads an input file under `tests/data`.
pub fn load(rel: &str) -> Input {
    match read_file(&data(rel), &ReadOptions::default()) {
        Ok(l) => l.input,
        Err(e) => panic!("{e}"),
    }
}

/// Largest share of the enclosed area that may be neither road nor block.
pub const MAX_GAP_FRACTION: f64 = 0.005;

/// Runs the pipeline and checks everything that must always hold; returns the network and its
/// report. `what` names the case in failure messages.
pub fn build_checked(what: &str, input: &Input, settings: &Settings) -> (Network, NetworkReport) {
    let net = build(input, settings).unwrap_or_else(|e| panic!("{what}: {e}"));
    let again = build(input, settings).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(net == again, "{what}: two runs differ");
    let report = check_network(&net);
    assert!(
        report.invalid.is_empty(),
        "{what}: invalid polygons: {:?}",
        &report.invalid[..report.invalid.len().min(10)]
    );
    let tol = 1e-6 * report.enclosed_area.max(1.0);
    assert!(report.junction_overlap_area <= tol, "{what}: junctions overlap by {} m²", report.junction_overlap_area);
    assert!(report.block_overlap_area <= tol, "{what}: blocks overlap by {} m²", report.block_overlap_area);
    assert!(
        report.block_road_overlap_area <= tol,
        "{what}: blocks overlap roads by {} m²",
        report.block_road_overlap_area
    );
    assert!(
        report.gap_fraction() < MAX_GAP_FRACTION,
        "{what}: gap of {:.3} % between blocks and roads",
        100.0 * report.gap_fraction()
    );
    let mut ids: Vec<&str> = net
        .junctions
        .iter()
        .map(|j| j.id.as_str())
        .chain(net.pieces.iter().map(|p| p.id.as_str()))
        .chain(net.blocks.iter().map(|b| b.id.as_str()))
        .collect();
    let n = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), n, "{what}: ids are not unique");
    (net, report)
}
