//! Shared helpers of the integration tests: load a network, check every invariant.

#![allow(dead_code, unreachable_pub)]

use std::collections::BTreeMap;
use std::path::PathBuf;

use roadgen::core::triangulate::MIN_TRIANGLE_AREA;
use roadgen::core::validate::{check_network, NetworkReport};
use roadgen::core::{
    build, build_meshes, FeatureKind, FeatureMesh, Input, MaterialSlot, MeshCollector, Network, Point3, PointKind,
    Road, RoadGeometry, Settings, SplinePoint,
};
use roadgen_formats::{read_file, ReadOptions};

/// A spline point with automatic tangents.
pub fn sp(x: f64, y: f64, kind: PointKind) -> SplinePoint {
    SplinePoint { location: Point3::new(x, y, 0.0), arrive_tangent: None, leave_tangent: None, kind }
}

/// An open spline road at layer 0 with the default profile.
pub fn spline(id: &str, width: f64, pts: Vec<SplinePoint>) -> Road {
    Road {
        id: id.into(),
        width,
        layer: 0,
        closed: false,
        has_height: false,
        profile: Default::default(),
        geometry: RoadGeometry::Spline(pts),
    }
}

/// Two random splines (a failing case of `random_splines_hold_every_invariant` once): `s0`
/// turns back on itself and leaves junction `j/s0/202.37`; `s1` leaves it and comes back to it
/// 2.79 m further on, a sliver narrower than the road that becomes junction surface.
pub fn hairpin_with_sliver() -> Vec<Road> {
    let (l, c) = (PointKind::Linear, PointKind::Curve);
    vec![
        spline(
            "s0",
            9.786471664574242,
            vec![
                sp(276.03970632411136, 281.91139132439946, c),
                sp(231.28466085756713, 84.56069072277523, c),
                sp(259.7951407019912, 286.8180227633668, c),
                sp(222.3611970810777, 65.60844650177123, c),
            ],
        ),
        spline(
            "s1",
            4.0,
            vec![
                sp(78.98907402115707, 169.55673216697664, l),
                sp(217.81194604392815, 92.38117606195593, c),
                sp(218.90510242331317, 84.89300309880483, c),
            ],
        ),
    ]
}

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

/// The grid of block outlines, metres (`blocks::BLOCK_GRID` in the core, private there).
pub const BLOCK_GRID: f64 = 1.0 / 8192.0;

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
    // Block outlines are computed on a 0.1 mm grid (`blocks::BLOCK_GRID`), so a block may
    // reach up to that far into the road along its outline.
    let perimeter: f64 = net
        .blocks
        .iter()
        .flat_map(|b| std::iter::once(&b.polygon.exterior).chain(b.polygon.holes.iter()))
        .map(|r| {
            (0..r.len()).map(|i| (r[i].x - r[(i + 1) % r.len()].x).hypot(r[i].y - r[(i + 1) % r.len()].y)).sum::<f64>()
        })
        .sum();
    let grid_tol = tol.max(BLOCK_GRID * perimeter);
    assert!(
        report.block_road_overlap_area <= grid_tol,
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

/// Builds the meshes of `net` twice, requires the two runs to be equal and checks them with
/// [`check_meshes`].
pub fn meshes_checked(what: &str, net: &Network, settings: &Settings, input: &Input) -> Vec<FeatureMesh> {
    let mut a = MeshCollector::default();
    build_meshes(net, settings, &mut a);
    let mut b = MeshCollector::default();
    build_meshes(net, settings, &mut b);
    assert!(a == b, "{what}: two mesh runs differ");
    check_meshes(what, net, &a.meshes, input);
    a.meshes
}

/// The centerline of an input road, flattened as the pipeline does (a spline's carriageway
/// follows its curve, not its control points); its points as they are if it cannot be.
fn input_polyline(r: &roadgen::core::Road) -> Vec<roadgen::core::Point3> {
    let points = || match &r.geometry {
        RoadGeometry::Polyline(p) => p.clone(),
        RoadGeometry::Spline(p) => p.iter().map(|q| q.location).collect(),
    };
    roadgen::core::flatten::flatten_road(r, Settings::default().tolerance).unwrap_or_else(|_| points())
}

/// A point this close outside a carriageway (metres) is on its curb: a mouth corner placed
/// where it meets another road's curb lies on it up to rounding.
const ON_CURB: f64 = 1e-6;

/// Whether `v` lies on the carriageway of the piece's own input road, on a part of it more than
/// two widths of arc length away from the piece's end `end` (0 start, 1 end): a road that
/// turns back along itself, where the junction has taken in the other leg, so that no piece is
/// left there to check against.
fn on_own_road_far(input: &Input, p: &roadgen::core::RoadPiece, end: usize, v: roadgen::core::Point3) -> bool {
    let at = if end == 0 { p.start } else { p.end };
    input.roads.iter().filter(|r| r.id == p.road).any(|r| {
        let line = input_polyline(r);
        let mut cum = vec![0.0];
        for w in line.windows(2) {
            cum.push(cum[cum.len() - 1] + (w[1].x - w[0].x).hypot(w[1].y - w[0].y));
        }
        let total = cum[cum.len() - 1];
        // The arc lengths within two widths of the end (once more a lap away on a loop).
        let reach = 2.0 * r.width;
        let laps: &[f64] = if r.closed { &[-1.0, 0.0, 1.0] } else { &[0.0] };
        let near: Vec<(f64, f64)> = laps.iter().map(|l| (at + l * total - reach, at + l * total + reach)).collect();
        (0..line.len().saturating_sub(1)).any(|k| {
            // This segment's stretches outside `near`.
            let mut parts = vec![(cum[k], cum[k + 1])];
            for &(n0, n1) in &near {
                parts = parts
                    .into_iter()
                    .flat_map(|(u0, u1)| [(u0, u1.min(n0)), (u0.max(n1), u1)])
                    .filter(|(u0, u1)| u1 > u0)
                    .collect();
            }
            let (a, b) = (line[k], line[k + 1]);
            let len = cum[k + 1] - cum[k];
            let at_arc = |s: f64| {
                let t = if len > 0.0 { (s - cum[k]) / len } else { 0.0 };
                (a.x + t * (b.x - a.x), a.y + t * (b.y - a.y))
            };
            parts.iter().any(|&(u0, u1)| {
                let ((px, py), (qx, qy)) = (at_arc(u0), at_arc(u1));
                let (dx, dy) = (qx - px, qy - py);
                let l2 = dx * dx + dy * dy;
                let t = if l2 > 0.0 { (((v.x - px) * dx + (v.y - py) * dy) / l2).clamp(0.0, 1.0) } else { 0.0 };
                (px + t * dx - v.x).hypot(py + t * dy - v.y) < 0.5 * r.width + ON_CURB
            })
        })
    })
}

fn key(p: roadgen::core::Point3) -> [u64; 3] {
    [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()]
}

/// Everything that must hold of the meshes of a network: finite positions and uvs, indices in
/// range, one mesh per feature, no triangle below `MIN_TRIANGLE_AREA`, top surfaces facing up,
/// every mouth corner a vertex of its junction's mesh (unless two roads overlap there), `v`
/// running along each piece from `start` to `end`, closed block platforms.
pub fn check_meshes(what: &str, net: &Network, meshes: &[FeatureMesh], input: &Input) {
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
                // Roads that overlap each other (parallel ramps drawn too close, or a road that
                // turns back along itself): a mouth corner of one lies on the carriageway of
                // another road, or of another piece of its own road, inside the junction's
                // surface.
                let within = |pts: &[roadgen::core::Point3], half: f64| {
                    pts.windows(2).any(|w| {
                        let (a, b) = (w[0], w[1]);
                        let (dx, dy) = (b.x - a.x, b.y - a.y);
                        let t = (((v.x - a.x) * dx + (v.y - a.y) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
                        let (cx, cy) = (a.x + t * dx - v.x, a.y + t * dy - v.y);
                        (cx * cx + cy * cy).sqrt() < half + ON_CURB
                    })
                };
                // Along the piece itself: its part more than two widths (of arc length) away
                // from this end (a road that comes back along its own way).
                let c = &p.centerline;
                let mut s = 0.0;
                let mut far_part = Vec::new();
                for k in 0..c.len() {
                    if k > 0 {
                        s += (c[k].x - c[k - 1].x).hypot(c[k].y - c[k - 1].y);
                    }
                    let from_end = if end == 0 { s } else { (p.end - p.start) - s };
                    if from_end > 2.0 * p.width {
                        far_part.push(c[k]);
                    }
                }
                let on_other =
                    input.roads.iter().filter(|r| r.id != p.road).any(|r| within(&input_polyline(r), 0.5 * r.width))
                        || net
                            .pieces
                            .iter()
                            .filter(|q| q.road == p.road && q.id != p.id)
                            .any(|q| within(&q.centerline, 0.5 * q.width))
                        || within(&far_part, 0.5 * p.width)
                        || on_own_road_far(input, p, end, v);
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

/// A proptest configuration of `cases` cases drawn from the fixed `seed` (unless
/// `PROPTEST_RNG_SEED` is set), so that every run (and CI) draws the same cases, and no
/// regression files: a failure found this way becomes a named test.
pub fn proptest_config(cases: u32, seed: u64) -> proptest::test_runner::Config {
    use proptest::test_runner::{Config, RngSeed};
    let default = Config::default();
    let rng_seed = match default.rng_seed {
        RngSeed::Random => RngSeed::Fixed(seed),
        fixed => fixed,
    };
    Config { cases, rng_seed, failure_persistence: None, ..default }
}
