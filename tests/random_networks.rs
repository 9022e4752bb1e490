//! Random networks (a small deterministic generator, no external crate): the pipeline never
//! panics and every invariant holds. The fuller property tests and fuzzing come with the
//! robustness work; this is the smoke test that runs on every build.

mod common;

use roadgen::core::{FeatureMesh, Input, Network, Point3, Road, RoadGeometry, Settings};

/// [`common::build_checked`] (the network, built twice, with every invariant), then
/// [`common::meshes_checked`] on it (its meshes, built twice, with every invariant), so that a
/// panic or a bad mesh in the mesh stage shows too; returns the network and its meshes.
fn build_and_mesh_checked(what: &str, input: &Input, settings: &Settings) -> (Network, Vec<FeatureMesh>) {
    let (net, _) = common::build_checked(what, input, settings);
    let meshes = common::meshes_checked(what, &net, settings, input);
    (net, meshes)
}

/// SplitMix64: tiny, deterministic, good enough to draw test cases.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [lo, hi).
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.next() >> 11) as f64 / (1u64 << 53) as f64)
    }
}

fn polyline(id: String, width: f64, pts: Vec<(f64, f64)>) -> Road {
    Road {
        id,
        width,
        layer: 0,
        closed: false,
        has_height: false,
        profile: Default::default(),
        geometry: RoadGeometry::Polyline(pts.into_iter().map(|(x, y)| Point3::new(x, y, 0.0)).collect()),
    }
}

/// Random wiggly roads in a square.
fn random_roads(rng: &mut Rng, n: usize, size: f64) -> Input {
    let mut roads = Vec::new();
    for i in 0..n {
        let k = 2 + (rng.next() % 5) as usize;
        let mut pts = vec![(rng.range(0.0, size), rng.range(0.0, size))];
        for _ in 1..k {
            let (x, y) = pts[pts.len() - 1];
            pts.push((x + rng.range(-size / 3.0, size / 3.0), y + rng.range(-size / 3.0, size / 3.0)));
        }
        roads.push(polyline(format!("r{i}"), rng.range(4.0, 12.0), pts));
    }
    Input { roads }
}

/// A grid with jittered nodes, some roads missing.
fn jittered_grid(rng: &mut Rng, n: usize, spacing: f64) -> Input {
    let mut roads = Vec::new();
    let node = |rng: &mut Rng, i: usize, j: usize| {
        (i as f64 * spacing + rng.range(-0.2, 0.2) * spacing, j as f64 * spacing + rng.range(-0.2, 0.2) * spacing)
    };
    let mut nodes = vec![vec![(0.0, 0.0); n]; n];
    for (i, row) in nodes.iter_mut().enumerate() {
        for (j, p) in row.iter_mut().enumerate() {
            *p = node(rng, i, j);
        }
    }
    for i in 0..n {
        for j in 0..n {
            if i + 1 < n && !rng.next().is_multiple_of(6) {
                roads.push(polyline(format!("h{i}_{j}"), rng.range(5.0, 10.0), vec![nodes[i][j], nodes[i + 1][j]]));
            }
            if j + 1 < n && !rng.next().is_multiple_of(6) {
                roads.push(polyline(format!("v{i}_{j}"), rng.range(5.0, 10.0), vec![nodes[i][j], nodes[i][j + 1]]));
            }
        }
    }
    Input { roads }
}

/// Many roads from one point at random, sometimes tiny, angles.
fn star(rng: &mut Rng, n: usize) -> Input {
    let roads = (0..n)
        .map(|i| {
            let a = rng.range(0.0, std::f64::consts::TAU);
            polyline(format!("s{i}"), rng.range(4.0, 10.0), vec![(0.0, 0.0), (150.0 * a.cos(), 150.0 * a.sin())])
        })
        .collect();
    Input { roads }
}

#[test]
fn random_roads_hold_every_invariant() {
    let mut rng = Rng(1);
    for case in 0..60 {
        let n = 2 + case % 12;
        let input = random_roads(&mut rng, n, 300.0);
        build_and_mesh_checked(&format!("random case {case}"), &input, &Settings::default());
    }
}

#[test]
fn jittered_grids_hold_every_invariant() {
    let mut rng = Rng(2);
    for case in 0..20 {
        let input = jittered_grid(&mut rng, 3 + case % 5, 60.0 + 10.0 * (case % 4) as f64);
        build_and_mesh_checked(&format!("grid case {case}"), &input, &Settings::default());
    }
}

#[test]
fn stars_hold_every_invariant() {
    let mut rng = Rng(3);
    for case in 0..20 {
        let input = star(&mut rng, 3 + case % 10);
        let (net, _) = build_and_mesh_checked(&format!("star case {case}"), &input, &Settings::default());
        // No road is lost: every arm is in the one junction.
        let all: usize = net.junctions.iter().map(|j| j.roads.len()).sum();
        assert!(all >= input.roads.len(), "star case {case}: {} roads in junctions", all);
    }
}

/// docs/ROBUSTNESS.md, row "50 roads through one point": one junction at the common point
/// with all 50 roads; the far ends of two arms (`s17`, `s28`, drawn 0.93 m apart at 150 m) are
/// within the snap distance, so they are joined (`end_snapped`) in a second junction of those
/// two roads; no other junction.
#[test]
fn fifty_roads_through_one_point_and_overlapping_copies() {
    use roadgen::core::validate::point_in_ring;
    use roadgen::core::{DiagnosticCode, Point};
    let mut rng = Rng(4);
    let input = star(&mut rng, 50);
    let (net, _) = build_and_mesh_checked("50-arm star", &input, &Settings::default());
    assert_eq!(net.junctions.len(), 2, "50-arm star: {} junctions", net.junctions.len());
    let (centre, ends): (Vec<_>, Vec<_>) =
        net.junctions.iter().partition(|j| point_in_ring(Point::new(0.0, 0.0), &j.polygon.exterior));
    assert_eq!(centre.len(), 1, "50-arm star: {} junctions hold the common point", centre.len());
    let mut arms: Vec<&str> = centre[0].roads.iter().map(String::as_str).collect();
    arms.sort_unstable();
    let mut ids: Vec<&str> = input.roads.iter().map(|r| r.id.as_str()).collect();
    ids.sort_unstable();
    assert_eq!(arms, ids, "50-arm star: the junction at the common point does not hold every road, once");
    // The other junction: the snapped far ends of s17 and s28, 150 m out.
    let end = ends[0];
    assert_eq!(end.roads, ["s17", "s28"], "50-arm star: {}", end.id);
    assert!(end.polygon.exterior.iter().all(|p| p.x.hypot(p.y) > 140.0), "50-arm star: {} is not at the ends", end.id);
    for r in ["s17", "s28"] {
        assert!(
            net.diagnostics.iter().any(|d| d.code == DiagnosticCode::EndSnapped && d.road.as_deref() == Some(r)),
            "50-arm star: no end_snapped for {r}"
        );
    }

    // Two identical roads and one overlapping half of another.
    let copies = Input {
        roads: vec![
            polyline("a".into(), 7.0, vec![(-100.0, 0.0), (100.0, 0.0)]),
            polyline("b".into(), 7.0, vec![(-100.0, 0.0), (100.0, 0.0)]),
            polyline("c".into(), 7.0, vec![(0.0, 0.0), (200.0, 0.0)]),
            polyline("d".into(), 7.0, vec![(0.0, -100.0), (0.0, 100.0)]),
        ],
    };
    build_and_mesh_checked("overlapping copies", &copies, &Settings::default());
}
