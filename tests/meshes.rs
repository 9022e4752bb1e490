//! Meshes of every golden case and real network: what must always hold.

mod common;

use common::{load, meshes_checked};
use roadgen::core::{build, Settings};

/// Builds the network and meshes of a file under `tests/data` and checks every mesh invariant
/// (`common::check_meshes`), and that two mesh runs are equal.
fn check(input_rel: &str) {
    let input = load(input_rel);
    let settings = Settings::default();
    let net = build(&input, &settings).unwrap();
    meshes_checked(input_rel, &net, &settings, &input);
}

#[test]
fn golden_cases() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/golden");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".roads.json"))
        .collect();
    names.sort();
    for name in names {
        let rel = format!("golden/{name}");
        check(&rel);
    }
}

#[test]
fn real_networks() {
    for rel in ["momepy/bubenec.roads.json", "osm/kotka.roads.json", "pcgdemo/CitySpline.json"] {
        check(rel);
    }
}

/// liege_center, the densest network, separately so that a failure names it.
#[test]
fn liege_center() {
    let rel = "osm/liege_center.roads.json";
    check(rel);
}

/// Known to fail: on the whole of Liège two mouths (of about 29,500) stay inside their merged
/// junction's surface (the buried-mouth pass gives up at the middle of the arm), and 4 of 4,414
/// block platforms each miss one sliver triangle (below `MIN_TRIANGLE_AREA`), so they are not
/// closed. Run with
/// `cargo test --release --test meshes -- --ignored`.
#[test]
#[ignore = "known failure: 2 buried mouths and 4 open block platforms in liege (see the comment)"]
fn liege() {
    let rel = "osm/liege.roads.json";
    check(rel);
}
