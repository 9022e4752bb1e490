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

/// The whole of Liège (16,387 roads, about 29,500 mouths, 4,414 block platforms). Once a known
/// failure: mouths buried in merged junctions (now given their carriageway back), a sliver hole
/// next to a mouth corner (now junction surface), and 4 open block platforms (closed since the
/// block grid became 2^-13 m; the cause was not isolated).
#[test]
fn liege() {
    let rel = "osm/liege.roads.json";
    check(rel);
}

/// The share of triangles of `ts` with an angle below `deg` degrees, and their number.
fn thin_share(ts: &[roadgen::core::triangulate::Triangulation], deg: f64) -> (f64, usize) {
    let (mut thin, mut all) = (0usize, 0usize);
    for t in ts {
        for tr in &t.triangles {
            let p = tr.map(|i| t.vertices[i as usize]);
            let smallest = (0..3)
                .map(|k| {
                    let (a, b, c) = (p[k], p[(k + 1) % 3], p[(k + 2) % 3]);
                    let (u, v) = ((b.x - a.x, b.y - a.y), (c.x - a.x, c.y - a.y));
                    (u.0 * v.1 - u.1 * v.0).abs().atan2(u.0 * v.0 + u.1 * v.1).to_degrees()
                })
                .fold(180.0, f64::min);
            thin += usize::from(smallest < deg);
            all += 1;
        }
    }
    (thin as f64 / all.max(1) as f64, all)
}

/// Junction surfaces are triangulated without most slivers: on liege_center, the refined
/// triangulation the meshes use has under 15 % of its triangles with an angle below 10°
/// (10.7 % when this was written), where the constrained triangulation alone has over half.
#[test]
fn junction_triangles_are_mostly_well_shaped() {
    use roadgen::core::triangulate::{triangulate, triangulate_plain};
    let net = build(&load("osm/liege_center.roads.json"), &Settings::default()).unwrap();
    let refined: Vec<_> = net.junctions.iter().map(|j| triangulate(&j.polygon)).collect();
    let plain: Vec<_> = net.junctions.iter().map(|j| triangulate_plain(&j.polygon)).collect();
    let (share, count) = thin_share(&refined, 10.0);
    let (plain_share, plain_count) = thin_share(&plain, 10.0);
    assert!(share < 0.15, "{:.1} % of {count} junction triangles have an angle below 10°", 100.0 * share);
    assert!(plain_share > 0.5, "unrefined: {:.1} % of {plain_count}", 100.0 * plain_share);
    // Refinement adds points, but not without bound (at most 4 per input vertex).
    assert!(count > plain_count && count < 3 * plain_count, "{count} triangles against {plain_count} unrefined");
}
