//! Whole-pipeline properties on random networks (proptest): random splines, jittered grids,
//! stars with many arms at tiny angles and random closed loops. For every case: no panic,
//! every invariant of the network (`common::build_checked`) and of its meshes
//! (`common::meshes_checked`); the same network, exactly, when the roads come in another order;
//! the same up to ids when they run the other way; the same shapes when the whole input is moved by 10⁶ m or rotated;
//! and Euler's formula for the blocks of straight-road networks.

mod common;

use std::collections::BTreeMap;
use std::f64::consts::TAU;

use common::{build_checked, meshes_checked, sp, spline};
use proptest::prelude::*;
use roadgen::core::validate::polygon_area;
use roadgen::core::{DiagnosticCode, Input, Network, Point3, PointKind, Road, RoadGeometry, Settings, SplinePoint};

/// Cases of the per-generator invariant properties.
const CASES: u32 = 48;
/// Cases of the invariance properties (each builds two networks).
const INVARIANCE_CASES: u32 = 24;
/// Cases of the Euler property.
const EULER_CASES: u32 = 48;
/// Seed of the case generator, so that every run (and CI) draws the same cases; set
/// `PROPTEST_RNG_SEED` to draw others.
const SEED: u64 = 0x5EED_0006;

fn config(cases: u32) -> ProptestConfig {
    common::proptest_config(cases, SEED)
}

fn polyline(id: String, width: f64, pts: &[(f64, f64)], closed: bool) -> Road {
    Road {
        id,
        width,
        layer: 0,
        closed,
        has_height: false,
        profile: Default::default(),
        geometry: RoadGeometry::Polyline(pts.iter().map(|&(x, y)| Point3::new(x, y, 0.0)).collect()),
    }
}

/// 2 to 8 splines with 2 to 5 points in a 300 m square, mostly Unreal's automatic curves.
fn random_splines() -> impl Strategy<Value = Input> {
    let point = (0.0..300.0f64, 0.0..300.0f64, prop_oneof![4 => Just(PointKind::Curve), 1 => Just(PointKind::Linear)]);
    let road = (proptest::collection::vec(point, 2..6), 4.0..12.0f64);
    proptest::collection::vec(road, 2..9).prop_map(|roads| Input {
        roads: roads
            .into_iter()
            .enumerate()
            .map(|(i, (pts, width))| Road {
                geometry: RoadGeometry::Spline(
                    pts.into_iter()
                        .map(|(x, y, kind)| SplinePoint {
                            location: Point3::new(x, y, 0.0),
                            arrive_tangent: None,
                            leave_tangent: None,
                            kind,
                        })
                        .collect(),
                ),
                ..polyline(format!("s{i}"), width, &[], false)
            })
            .collect(),
    })
}

/// A grid of `n` × `n` nodes `spacing` apart, each moved by up to `jitter` × `spacing`, with the
/// roads of `keep` (one flag per grid edge; missing ones left out), one road per grid edge.
fn grid(n: usize, spacing: f64, jitter: &[(f64, f64)], keep: &[bool], widths: &[f64]) -> (Vec<(f64, f64)>, Vec<Road>) {
    let nodes: Vec<(f64, f64)> = (0..n * n)
        .map(|k| {
            let (i, j) = (k / n, k % n);
            let (dx, dy) = jitter[k % jitter.len()];
            (i as f64 * spacing + dx * spacing, j as f64 * spacing + dy * spacing)
        })
        .collect();
    let mut roads = Vec::new();
    let mut e = 0;
    for i in 0..n {
        for j in 0..n {
            for (di, dj, name) in [(1, 0, "h"), (0, 1, "v")] {
                if i + di < n && j + dj < n {
                    if keep[e % keep.len()] {
                        let (a, b) = (nodes[i * n + j], nodes[(i + di) * n + j + dj]);
                        roads.push(polyline(format!("{name}{i}_{j}"), widths[e % widths.len()], &[a, b], false));
                    }
                    e += 1;
                }
            }
        }
    }
    (nodes, roads)
}

/// Jittered grids of 2 to 6 nodes a side, 50 to 100 m apart, some roads missing.
fn jittered_grid() -> impl Strategy<Value = Input> {
    (
        2..7usize,
        50.0..100.0f64,
        proptest::collection::vec((-0.2..0.2f64, -0.2..0.2f64), 36),
        proptest::collection::vec(prop_oneof![5 => Just(true), 1 => Just(false)], 60),
        proptest::collection::vec(5.0..10.0f64, 60),
    )
        .prop_map(|(n, spacing, jitter, keep, widths)| Input { roads: grid(n, spacing, &jitter, &keep, &widths).1 })
}

/// 3 to 30 arms from one point, in bunches whose neighbours are 0.2° to 3° apart.
fn star() -> impl Strategy<Value = Input> {
    (proptest::collection::vec((0.0..TAU, 1..5usize, 0.2f64..3.0), 1..8), 80.0..200.0f64, 4.0..10.0f64).prop_map(
        |(bunches, length, width)| {
            let mut roads = Vec::new();
            for (start, count, step) in bunches {
                for k in 0..count {
                    let a = start + (k as f64 * step).to_radians();
                    let end = (length * a.cos(), length * a.sin());
                    roads.push(polyline(format!("a{}", roads.len()), width, &[(0.0, 0.0), end], false));
                }
            }
            Input { roads }
        },
    )
}

/// 1 to 4 closed loops (star-shaped polygons of 3 to 8 corners, 20 to 80 m from their centres)
/// that may cross each other, and sometimes a straight road across them all.
fn closed_loops() -> impl Strategy<Value = Input> {
    let ring = (0.0..150.0f64, 0.0..150.0f64, proptest::collection::vec(20.0..80.0f64, 3..9), 4.0..9.0f64);
    (proptest::collection::vec(ring, 1..5), any::<bool>()).prop_map(|(rings, across)| {
        let mut roads: Vec<Road> = rings
            .into_iter()
            .enumerate()
            .map(|(i, (cx, cy, radii, width))| {
                let n = radii.len();
                let pts: Vec<(f64, f64)> = radii
                    .iter()
                    .enumerate()
                    .map(|(k, r)| {
                        let a = TAU * k as f64 / n as f64;
                        (cx + r * a.cos(), cy + r * a.sin())
                    })
                    .collect();
                polyline(format!("o{i}"), width, &pts, true)
            })
            .collect();
        if across {
            roads.push(polyline("across".into(), 7.0, &[(-100.0, 30.0), (250.0, 120.0)], false));
        }
        Input { roads }
    })
}

/// The kinds of network whose invariants hold today (random splines and closed loops do not
/// always: see the known failures at the end of this file).
fn network() -> impl Strategy<Value = Input> {
    prop_oneof![jittered_grid(), star()]
}

/// Builds, checks every invariant of the network and of its meshes.
fn check_all(what: &str, input: &Input) -> Network {
    let settings = Settings::default();
    let (net, _) = build_checked(what, input, &settings);
    meshes_checked(what, &net, &settings, input);
    net
}

/// A network up to ids: junctions as (degree, roads, area), pieces as (road, area), block
/// areas, and the number of diagnostics of each code; each list sorted.
#[derive(Debug)]
struct Shape {
    junctions: Vec<(usize, Vec<String>, f64)>,
    pieces: Vec<(String, f64)>,
    blocks: Vec<f64>,
    diagnostics: BTreeMap<DiagnosticCode, usize>,
}

fn shape(net: &Network) -> Shape {
    shape_without(net, &[])
}

/// [`shape`], not counting the diagnostics of the codes in `skip`.
fn shape_without(net: &Network, skip: &[DiagnosticCode]) -> Shape {
    let mut junctions: Vec<_> =
        net.junctions.iter().map(|j| (j.degree, j.roads.clone(), polygon_area(&j.polygon))).collect();
    junctions.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.total_cmp(&b.2)));
    let mut pieces: Vec<_> = net.pieces.iter().map(|p| (p.road.clone(), polygon_area(&p.polygon))).collect();
    pieces.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let mut blocks: Vec<f64> = net.blocks.iter().map(|b| b.area).collect();
    blocks.sort_by(f64::total_cmp);
    let mut diagnostics = BTreeMap::new();
    for d in net.diagnostics.iter().filter(|d| !skip.contains(&d.code)) {
        *diagnostics.entry(d.code).or_insert(0) += 1;
    }
    Shape { junctions, pieces, blocks, diagnostics }
}

/// The two shapes are equal, areas within `rel` × area + `abs` square metres.
fn same_shape(a: &Shape, b: &Shape, rel: f64, abs: f64) -> Result<(), TestCaseError> {
    let near = |x: f64, y: f64| (x - y).abs() <= rel * x.abs().max(y.abs()) + abs;
    prop_assert_eq!(a.junctions.len(), b.junctions.len(), "junctions");
    prop_assert_eq!(a.pieces.len(), b.pieces.len(), "road pieces");
    prop_assert_eq!(a.blocks.len(), b.blocks.len(), "blocks");
    for (x, y) in a.junctions.iter().zip(&b.junctions) {
        prop_assert!(x.0 == y.0 && x.1 == y.1 && near(x.2, y.2), "junction {x:?} != {y:?}");
    }
    for (x, y) in a.pieces.iter().zip(&b.pieces) {
        prop_assert!(x.0 == y.0 && near(x.1, y.1), "piece {x:?} != {y:?}");
    }
    for (x, y) in a.blocks.iter().zip(&b.blocks) {
        prop_assert!(near(*x, *y), "block of {x} m² != {y} m²");
    }
    prop_assert_eq!(&a.diagnostics, &b.diagnostics);
    Ok(())
}

/// Applies `f` to every point of every road.
fn map_points(input: &Input, f: impl Fn(f64, f64) -> (f64, f64)) -> Input {
    let mut out = input.clone();
    for r in &mut out.roads {
        match &mut r.geometry {
            RoadGeometry::Polyline(p) => p.iter_mut().for_each(|q| (q.x, q.y) = f(q.x, q.y)),
            RoadGeometry::Spline(p) => {
                p.iter_mut().for_each(|q| (q.location.x, q.location.y) = f(q.location.x, q.location.y))
            }
        }
    }
    out
}

/// The road run the other way, when that is the same curve: a polyline, or a spline whose
/// points are all automatic curves (their tangents give the same curve either way). Other
/// splines are kept as they are: a segment's kind is its start point's, so reversing them
/// would change the curve.
fn reversed(r: &Road) -> Road {
    let mut r = r.clone();
    match &mut r.geometry {
        RoadGeometry::Polyline(p) => p.reverse(),
        RoadGeometry::Spline(p) => {
            if p.iter().all(|q| q.kind == PointKind::Curve && q.arrive_tangent.is_none() && q.leave_tangent.is_none()) {
                p.reverse();
            }
        }
    }
    r
}

proptest! {
    #![proptest_config(config(CASES))]

    #[test]
    fn random_splines_hold_every_invariant(input in random_splines()) {
        check_all("random splines", &input);
    }

    #[test]
    fn jittered_grids_hold_every_invariant(input in jittered_grid()) {
        check_all("jittered grid", &input);
    }

    /// Also: no arm is lost, every road of the star (of two or more) meets the others in a
    /// junction.
    #[test]
    fn stars_at_tiny_angles_hold_every_invariant(input in star()) {
        let net = check_all("star", &input);
        let met: std::collections::BTreeSet<&String> = net.junctions.iter().flat_map(|j| j.roads.iter()).collect();
        // (One arm alone is a road with two dead ends, no junction.)
        let expected = if input.roads.len() >= 2 { input.roads.len() } else { 0 };
        prop_assert_eq!(met.len(), expected, "a road was lost from the junction");
    }

    #[test]
    fn closed_loops_hold_every_invariant(input in closed_loops()) {
        check_all("closed loops", &input);
    }
}

proptest! {
    #![proptest_config(config(INVARIANCE_CASES))]

    /// Another order of the input roads gives the same network, exactly: roads are numbered
    /// by id before anything else, so no decision can see the input order (jittered grids and
    /// stars at tiny angles, whose arms tie and nearly tie in angle).
    #[test]
    fn input_order_does_not_matter(input in network(), seed in any::<u64>()) {
        let a = check_all("network", &input);
        let mut shuffled = input.clone();
        // Fisher-Yates with a SplitMix64 stream from the seed.
        let mut state = seed;
        for i in (1..shuffled.roads.len()).rev() {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let z = (state ^ (state >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            shuffled.roads.swap(i, (z % (i as u64 + 1)) as usize);
        }
        let b = check_all("shuffled network", &shuffled);
        prop_assert!(a == b, "the network depends on the input order");
    }

    /// Roads run the other way (each with probability ½) give the same network up to ids.
    #[test]
    fn road_direction_does_not_matter(input in network(), flip in proptest::collection::vec(any::<bool>(), 64)) {
        let a = check_all("network", &input);
        let mut flipped = input.clone();
        for (r, f) in flipped.roads.iter_mut().zip(flip.iter().cycle()) {
            if *f {
                *r = reversed(r);
            }
        }
        let b = check_all("reversed roads", &flipped);
        same_shape(&shape(&a), &shape(&b), 1e-6, 1e-6)?;
    }

    /// The whole input moved by 10⁶ m gives the same network up to ids; areas within 0.1 %
    /// and 0.01 m² (block outlines are computed on a 0.1 mm grid).
    #[test]
    fn translation_by_a_million_metres_does_not_matter(input in network(), dx in -1.0..1.0f64, dy in -1.0..1.0f64) {
        let a = check_all("network", &input);
        let moved = map_points(&input, |x, y| (x + 1e6 * dx.signum(), y + 1e6 * dy.signum()));
        let b = check_all("moved network", &moved);
        // Faces below the minimum block area (slivers between arms at tiny angles) may come
        // and go with rounding: `face_dropped` is not compared.
        let skip = [DiagnosticCode::FaceDropped];
        same_shape(&shape_without(&a, &skip), &shape_without(&b, &skip), 1e-3, 1e-2)?;
    }

    /// The whole input rotated about the origin gives the same network up to ids; areas within
    /// 0.1 % and 0.01 m² (docs/ROBUSTNESS.md lists the seeds on which stars did not, and their
    /// regression tests).
    #[test]
    fn rotation_does_not_matter(input in network(), angle in 0.0..TAU) {
        let a = check_all("network", &input);
        let b = check_all("rotated network", &rotated(&input, angle));
        let skip = [DiagnosticCode::FaceDropped];
        same_shape(&shape_without(&a, &skip), &shape_without(&b, &skip), 1e-3, 1e-2)?;
    }
}

/// Union-find over node indices, for the component count.
fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

proptest! {
    #![proptest_config(config(EULER_CASES))]

    /// Euler's formula on straight-road networks: a jittered grid (some edges missing) with
    /// diagonals in some cells (one, or both crossing in the middle) is a planar straight-line
    /// graph whose faces are all much larger than its roads are wide. Its vertices V, edges E
    /// and components C are counted here, independently of the engine; the bounded faces are
    /// then F − 1 = E − V + C, and each must be exactly one block (a component inside a face
    /// is a hole of that block, not a face of its own).
    #[test]
    fn blocks_of_straight_networks_follow_eulers_formula(
        n in 2..6usize,
        spacing in 70.0..100.0f64,
        jitter in proptest::collection::vec((-0.12..0.12f64, -0.12..0.12f64), 36),
        keep in proptest::collection::vec(prop_oneof![4 => Just(true), 1 => Just(false)], 60),
        diagonals in proptest::collection::vec(0..4u8, 25),
        widths in proptest::collection::vec(4.0..8.0f64, 60),
    ) {
        let (nodes, mut roads) = grid(n, spacing, &jitter, &keep, &widths);
        // Graph: node indices of the grid, then one per crossing of two diagonals.
        let mut points = nodes.clone();
        let mut edges: Vec<(usize, usize)> = Vec::new();
        for r in &roads {
            let RoadGeometry::Polyline(p) = &r.geometry else { unreachable!() };
            let idx = |q: &Point3| nodes.iter().position(|m| m.0 == q.x && m.1 == q.y).unwrap();
            edges.push((idx(&p[0]), idx(&p[1])));
        }
        for i in 0..n - 1 {
            for j in 0..n - 1 {
                let (a, b, c, d) = (i * n + j, (i + 1) * n + j, (i + 1) * n + j + 1, i * n + j + 1);
                let mut diagonal = |u: usize, v: usize, name: &str| {
                    roads.push(polyline(format!("{name}{i}_{j}"), 5.0, &[nodes[u], nodes[v]], false));
                };
                match diagonals[(i * (n - 1) + j) % diagonals.len()] {
                    1 => { diagonal(a, c, "d"); edges.push((a, c)); }
                    2 => { diagonal(b, d, "e"); edges.push((b, d)); }
                    3 => {
                        diagonal(a, c, "d");
                        diagonal(b, d, "e");
                        // The cell is convex, so its diagonals cross inside it: one more vertex
                        // and four edges.
                        let m = points.len();
                        points.push((0.0, 0.0));
                        edges.extend([(a, m), (m, c), (b, m), (m, d)]);
                    }
                    _ => {}
                }
            }
        }
        let mut used = vec![false; points.len()];
        let mut parent: Vec<usize> = (0..points.len()).collect();
        for &(u, v) in &edges {
            used[u] = true;
            used[v] = true;
            let (ru, rv) = (find(&mut parent, u), find(&mut parent, v));
            parent[ru.max(rv)] = ru.min(rv);
        }
        let v = used.iter().filter(|&&u| u).count() as i64;
        let e = edges.len() as i64;
        let c = (0..points.len()).filter(|&i| used[i] && find(&mut parent, i) == i).count() as i64;
        let input = Input { roads };
        let net = check_all("grid with diagonals", &input);
        let dropped = net.diagnostics.iter().filter(|d| d.code == DiagnosticCode::FaceDropped).count();
        prop_assert_eq!(dropped, 0, "every face here is large");
        prop_assert_eq!(net.blocks.len() as i64, e - v + c, "V = {}, E = {}, C = {}", v, e, c);
    }
}

// Known failures: the smallest cases the properties above shrank to. Each is a bug to fix in
// the core (see docs/ROBUSTNESS.md, "Known failures"); run them with
// `cargo test --release --test properties -- --ignored`.

/// A road as (id, width, closed, points).
type RoadSpec<'a> = (&'a str, f64, bool, &'a [(f64, f64)]);

fn roads(list: &[RoadSpec]) -> Input {
    Input { roads: list.iter().map(|&(id, w, closed, pts)| polyline(id.into(), w, pts, closed)).collect() }
}

/// Three closed loops (the first failing case of `closed_loops_hold_every_invariant` on seed
/// 3): a fallback junction's arm along `o1` is set back exactly to the loop's sharp corner
/// (157°), where the piece beyond starts square to the next segment. The stub's end used that
/// cross-section too and twisted into a bow tie, and the junction lost the stub and the mouth
/// corner (83.40, −20.90). The stub now ends square to its own segment, with a wedge out to the
/// mouth's outer corner.
#[test]
fn closed_loop_corner_on_a_mouth_keeps_the_stub() {
    let input = roads(&[
        (
            "o0",
            4.0,
            true,
            &[
                (172.26112691576856, 68.33677193125509),
                (102.01087648169008, 108.75357557156691),
                (95.15769017343737, 16.049901411314302),
            ],
        ),
        (
            "o1",
            4.0,
            true,
            &[
                (159.66996472478786, 13.952622183092743),
                (86.48627799577811, 40.255152997534026),
                (82.61056836313435, -19.062834630471592),
            ],
        ),
        (
            "o2",
            4.520154615713926,
            true,
            &[
                (91.92876083499608, 0.0),
                (43.701473816043965, 32.27925218595973),
                (15.065038877240298, 17.320508075688775),
                (5.065038877240294, 2.4492935982947065e-15),
                (15.065038877240285, -17.320508075688767),
                (51.875867704474594, -46.43771772180209),
            ],
        ),
    ]);
    check_all("closed loops", &input);
}

/// A wide spline (`s2`, 10.1 m) turns back at a sharp tip whose two legs overlap all the way
/// from the tip to the junction both leave (the first failing case of
/// `random_splines_hold_every_invariant` on seed 11): the piece around the tip had its mouths
/// inside the junction, and no march along half of it could bring them out. That piece is now
/// junction surface, without the slits the union left along its mouths.
#[test]
fn hairpin_tip_with_buried_mouths_is_junction_surface() {
    let c = PointKind::Curve;
    let input = Input {
        roads: vec![
            spline(
                "s0",
                4.0,
                vec![
                    sp(148.918500294487, 47.09052430089326, c),
                    sp(40.119581960175815, 267.8752356470414, c),
                    sp(298.3621396345055, 130.88497962354057, c),
                ],
            ),
            spline(
                "s1",
                11.57270893405168,
                vec![
                    sp(71.85878388583654, 103.40331527386027, c),
                    sp(42.894997524570144, 268.00718025088406, c),
                    sp(160.18690248859423, 265.8532549106687, c),
                ],
            ),
            spline(
                "s2",
                10.100570084843444,
                vec![
                    sp(191.67376549769165, 131.58388153501704, c),
                    sp(19.959624138408827, 259.39508625773215, c),
                    sp(152.89034080065682, 117.98407842546797, c),
                ],
            ),
        ],
    };
    let net = check_all("random splines", &input);
    // Taken into the junction as a sliver whose mouths it covers, or because the march out of
    // the junction stopped halfway round the tip with a mouth still inside.
    assert!(
        net.diagnostics.iter().any(|d| d.code == DiagnosticCode::JunctionsMerged
            && (d.message.contains("with its mouths inside the junction")
                || d.message.contains("need more of road s2 than it has"))),
        "the tip is junction surface: {:?}",
        net.diagnostics
    );
    assert!(
        !net.pieces.iter().any(|p| p.road == "s2" && p.from.is_some() && p.from == p.to),
        "no piece of s2 leaves a junction and comes back to it"
    );
}

/// Road `s2` ends 4.3 m from `s0` after crossing it at a shallow angle, so that its mouth's
/// corner lies on the curb of `s0`'s next corner, 0.06 mm off (the first failing case of
/// `random_splines_hold_every_invariant` on seed 31). The junction's outline came back within a
/// hair of itself there, the union with the junction it merged with cut it in two, and `s0`'s
/// mouth was lost with the smaller part. Such an outline is now built from the union of its arms.
#[test]
fn mouth_corner_on_the_next_curb_keeps_the_other_mouth() {
    let c = PointKind::Curve;
    let input = Input {
        roads: vec![
            spline(
                "s0",
                4.0,
                vec![sp(147.62731687514042, 177.91074637647696, c), sp(71.21535628922607, 38.79051716653703, c)],
            ),
            spline(
                "s1",
                11.348684217423562,
                vec![
                    sp(290.5425979459072, 0.0, c),
                    sp(22.459542727421702, 220.2525715281379, c),
                    sp(126.78901628955134, 115.61982107211874, c),
                ],
            ),
            spline(
                "s2",
                6.7314075858443205,
                vec![
                    sp(0.0, 0.0, c),
                    sp(258.55403800102016, 172.63621051908692, c),
                    sp(200.70963173413088, 196.07325207244315, c),
                    sp(84.87503781887806, 72.56224259039344, c),
                ],
            ),
        ],
    };
    let net = check_all("random splines", &input);
    assert!(net.pieces.iter().any(|p| p.road == "s0" && p.from.is_some()), "s0 still leaves its junctions");
}

/// Road `s2` turns back at a tip 3.4 m long, narrower than its width, whose inner curb folds
/// and whose mouth corner the junction covers (the first failing case of
/// `random_splines_hold_every_invariant` on seed 22). The union of the tip with the junction
/// left two slits of no width as holes, which touched the outline, and the tip stayed a piece
/// with a buried mouth. Holes too small for a block are now junction surface there too.
#[test]
fn hairpin_tip_union_without_slits() {
    let c = PointKind::Curve;
    let l = PointKind::Linear;
    let input = Input {
        roads: vec![
            spline(
                "s0",
                8.679244237528145,
                vec![
                    sp(271.41860537368086, 175.75666148895755, c),
                    sp(228.8373563990741, 268.782477065179, l),
                    sp(65.89680022093096, 37.6643131111727, c),
                ],
            ),
            spline(
                "s1",
                10.27714186278707,
                vec![
                    sp(114.46487032004335, 66.86904578750777, c),
                    sp(174.66324292863783, 180.92917343574945, c),
                    sp(271.1425593131017, 274.93357098857007, c),
                ],
            ),
            spline(
                "s2",
                7.3990415584209375,
                vec![
                    sp(115.5303598750437, 152.0580275533649, l),
                    sp(283.0532096404166, 30.268176564513677, c),
                    sp(243.8878192001132, 269.1333250297375, c),
                    sp(246.06222343786837, 131.93828434427942, c),
                    sp(229.7159943284863, 164.87022486710237, c),
                ],
            ),
        ],
    };
    let net = check_all("random splines", &input);
    assert!(
        !net.pieces.iter().any(|p| p.road == "s2" && p.from.is_some() && p.from == p.to),
        "no piece of s2 leaves a junction and comes back to it"
    );
}

/// Two closed loops run on top of each other for 40 m (the first failing case of
/// `closed_loops_hold_every_invariant` on seed 36). At the junction where they leave together,
/// the corner patch beside `o2`'s mouth covered `o1`'s mouth corner (4.27, 57.10) by 0.74 m,
/// and `o1`'s mouth could march no further than the middle of its edge. A piece whose mouth
/// corner lies deeper than 5 % of its width (was 10 %) inside its junction now takes its
/// carriageway back from the junction.
#[test]
fn overlapping_loops_take_a_buried_mouth_back() {
    let input = roads(&[
        (
            "o0",
            4.0,
            true,
            &[
                (96.50505512895352, 53.75758562020725),
                (76.50505512895352, 73.75758562020725),
                (14.279498831671859, 53.75758562020726),
                (76.50505512895352, 33.75758562020725),
            ],
        ),
        (
            "o1",
            8.166750602108934,
            true,
            &[
                (42.810676190386815, 36.870357371967344),
                (-0.34136852769378123, 69.42546000912878),
                (2.244335758373584, 8.793825931623232),
            ],
        ),
        (
            "o2",
            6.253391960898498,
            true,
            &[
                (48.152581594920726, 23.68714926975096),
                (38.152581594920726, 41.00765734543973),
                (1.3658228362354414, 70.08317640988453),
                (0.4426864420812002, 23.687149269750964),
                (18.15258159492072, 6.366641194062193),
                (38.152581594920726, 6.36664119406219),
            ],
        ),
    ]);
    check_all("closed loops", &input);
}

/// Two closed loops and a road across them: an arm of one junction marched out to unbury its
/// mouth and reached into the next junction's surface (they overlapped by 1.1 m²); the two are
/// now merged. Formerly a known failure.
#[test]
fn closed_loops_junctions_do_not_overlap() {
    let input = roads(&[
        (
            "o0",
            8.963133095768411,
            true,
            &[
                (107.76356095219401, 31.809475563387526),
                (124.10846167536255, 77.3845395465294),
                (74.04010242391216, 91.93587595643248),
                (69.74418359414562, 40.48715034573869),
                (69.74418359414562, 23.131800781036368),
                (83.31314227306773, 12.310917319751052),
                (100.23335698936867, 16.17284591402693),
            ],
        ),
        (
            "o1",
            4.0,
            true,
            &[
                (147.18919578091501, 74.87738367778464),
                (58.69362092553773, 104.35329057926174),
                (47.42435277176628, 25.882531769857536),
            ],
        ),
        ("across", 7.0, false, &[(-100.0, 30.0), (250.0, 120.0)]),
    ]);
    check_all("closed loops", &input);
}

/// Four closed loops (two identical triangles) meeting at shared points: `r/o2/113.53`, a
/// 1.5 m piece with both mouths on one junction, had a mouth corner at the tip of a spike of no
/// width on the junction's outline, which the triangulation left out. Formerly a known failure;
/// the sliver is now junction surface.
#[test]
fn closed_loops_sliver_piece_is_junction_surface() {
    let triangle: &[(f64, f64)] =
        &[(20.0, 0.0), (-9.999999999999996, 17.320508075688775), (-10.000000000000009, -17.320508075688767)];
    let input = roads(&[
        (
            "o0",
            6.148877932900681,
            true,
            &[
                (20.0, 93.15754593686908),
                (-18.420240723239324, 125.06233875716889),
                (-10.000000000000009, 75.83703786118032),
            ],
        ),
        ("o1", 4.0, true, triangle),
        (
            "o2",
            6.34610828335898,
            true,
            &[
                (20.0, 134.4953901803366),
                (0.0, 154.4953901803366),
                (-20.0, 134.4953901803366),
                (0.0, 74.34068473235797),
            ],
        ),
        ("o3", 4.0, true, triangle),
    ]);
    check_all("closed loops", &input);
}

/// Three splines whose mouth corner of `r/s1/106.77` used to stay buried inside junction
/// `j/s0/221.99` (so it was not a vertex of the junction's mesh): the junction now yields that
/// piece's carriageway (`pipeline::yield_to_buried`). Formerly a known failure.
#[test]
fn spline_mouth_stitched() {
    let (l, c) = (PointKind::Linear, PointKind::Curve);
    let input = Input {
        roads: vec![
            spline(
                "s0",
                10.288323867231712,
                vec![
                    sp(201.23332275668255, 238.55013081217467, l),
                    sp(249.8735896086765, 116.53990805275569, c),
                    sp(71.27500217358738, 132.9087413384257, l),
                ],
            ),
            spline(
                "s1",
                7.4407709139316305,
                vec![sp(273.8112987021065, 144.32676144099736, c), sp(40.829851528287755, 82.1812280260787, c)],
            ),
            spline(
                "s2",
                4.0,
                vec![sp(169.01798686038984, 100.84716191566547, c), sp(182.6315671809028, 234.48370288147643, c)],
            ),
        ],
    };
    check_all("random splines", &input);
}

/// Three closed loops (found by `closed_loops_hold_every_invariant` while shrinking a case):
/// the piece of `o0` that runs from one junction round the loop to the other ended 2.75 m away
/// from the second junction's surface, which had a notch cut into it where the folded
/// carriageway of the apex crossed itself. Formerly a known failure: the junction's arm stubs
/// are now whole where their curbs fold (`junction::strip_parts`).
#[test]
fn closed_loops_acute_apex() {
    let input = roads(&[
        (
            "o0",
            8.963133095768411,
            true,
            &[
                (33.42084526625224, 31.809475563387526),
                (12.469796037174671, 47.44610521274812),
                (-4.450418679126287, 51.308033807024),
                (-18.01937735804838, 40.48715034573869),
                (-18.019377358048384, 23.131800781036368),
                (-4.450418679126292, 12.310917319751052),
                (35.3501327052662, -12.518188780129488),
            ],
        ),
        (
            "o1",
            4.0,
            true,
            &[
                (20.0, 74.87738367778464),
                (-9.999999999999996, 92.19789175347341),
                (-10.000000000000009, 57.55687560209587),
            ],
        ),
        (
            "o2",
            7.625378475714099,
            true,
            &[
                (93.01263881071841, 7.420176683714921),
                (73.01263881071841, 83.02723762938925),
                (29.560833221095756, 7.420176683714926),
                (73.0126388107184, -71.88179762527918),
            ],
        ),
    ]);
    check_all("closed loops", &input);
}

/// Two random splines: a road piece was cut 3e-14 m past a centerline vertex, and the direction
/// of that last, rounding-sized segment turned its mouth by 29° (0.27 m away from the
/// junction's outline). Cuts now leave out a vertex that close to their ends.
#[test]
fn spline_cut_next_to_a_vertex_keeps_its_mouth() {
    let (l, c) = (PointKind::Linear, PointKind::Curve);
    let input = Input {
        roads: vec![
            spline(
                "s0",
                4.0,
                vec![
                    sp(239.26735405865392, 90.17755407790592, c),
                    sp(0.0, 96.96372608836272, c),
                    sp(52.60752134355963, 156.73569111252974, c),
                    sp(32.744943939229465, 0.0, c),
                ],
            ),
            spline(
                "s1",
                6.737544910863918,
                vec![
                    sp(0.0, 155.54054176206935, l),
                    sp(166.68232106441917, 102.3472794891377, c),
                    sp(0.0, 72.70528881153018, c),
                    sp(0.0, 100.32868270686399, c),
                    sp(0.0, 0.0, c),
                ],
            ),
        ],
    };
    check_all("random splines", &input);
}

/// Four pairs of random splines (seeds 3, 5, 8 and 9 of `random_splines_hold_every_invariant`):
/// a road leaves a junction and comes back to it 0.02 to 2.8 m further on, less than its width;
/// the sliver piece between the two mouths had a mouth corner off the junction's outline (up to
/// 2.1 m). Such a sliver is now junction surface.
#[test]
fn sliver_between_two_mouths_of_one_junction_is_junction_surface() {
    let (l, c) = (PointKind::Linear, PointKind::Curve);
    let inputs = [
        Input {
            roads: vec![
                spline("s0", 4.0, vec![sp(225.4836641747048, 265.9276539542005, c), sp(0.0, 221.35778193019144, c)]),
                spline(
                    "s1",
                    7.496075063513897,
                    vec![
                        sp(168.36005304459383, 12.325950390946387, c),
                        sp(185.3912216399521, 281.4550785914705, c),
                        sp(133.15200728088269, 77.82636733665396, l),
                        sp(14.492067412638981, 70.62365131844237, c),
                    ],
                ),
            ],
        },
        // Seed 5: `s0` turns back on itself and came back to junction `j/s0/182.96` 0.09 m
        // further on; the fallback outline now covers that stretch whole.
        Input {
            roads: vec![
                spline(
                    "s0",
                    10.111855317146302,
                    vec![
                        sp(297.5390543234454, 103.38555177934205, l),
                        sp(214.55953451994674, 270.4076864755348, c),
                        sp(237.19355507654248, 144.94250937596877, c),
                    ],
                ),
                spline(
                    "s1",
                    6.871579142535373,
                    vec![
                        sp(264.40759787862237, 139.07023105295818, c),
                        sp(24.645188447546428, 193.59295643035156, c),
                        sp(276.80100898854505, 285.25588300728225, c),
                        sp(249.5022462351956, 271.1138323960279, c),
                    ],
                ),
            ],
        },
        Input { roads: common::hairpin_with_sliver() },
        Input {
            roads: vec![
                spline(
                    "s0",
                    4.0,
                    vec![
                        sp(193.49965708709516, 0.0, c),
                        sp(158.3983287327043, 79.64282434305545, c),
                        sp(26.51377386713416, 137.2775956920091, c),
                    ],
                ),
                spline(
                    "s1",
                    6.300880538760019,
                    vec![
                        sp(237.1408971018505, 88.61213171968869, l),
                        sp(140.3245366784058, 155.68568347342745, c),
                        sp(214.6940222328262, 84.26803535997763, c),
                        sp(136.92319783588235, 15.541249601667445, c),
                    ],
                ),
                spline(
                    "s2",
                    11.731501016676194,
                    vec![
                        sp(253.94562101813327, 186.20418342917225, c),
                        sp(0.0, 0.0, c),
                        sp(157.57177687050876, 0.0, c),
                    ],
                ),
                spline(
                    "s3",
                    7.34781659254602,
                    vec![sp(162.90577537063086, 124.4909944977051, c), sp(0.0, 103.13697428502377, c)],
                ),
                spline(
                    "s4",
                    10.457046579340046,
                    vec![
                        sp(139.58214269801707, 273.3033367831296, l),
                        sp(186.60563710571566, 1.840660262586668, c),
                        sp(82.19820347720903, 150.02125053287045, c),
                    ],
                ),
                spline(
                    "s5",
                    8.057721077575268,
                    vec![sp(229.21916049160762, 288.03480789482904, c), sp(127.98650432871666, 0.0, c)],
                ),
            ],
        },
    ];
    for input in &inputs {
        check_all("random splines", input);
        let net = roadgen::core::build(input, &Settings::default()).expect("builds");
        assert!(net.pieces.iter().all(|p| p.from.is_none() || p.from != p.to || p.end - p.start >= p.width));
    }
}

/// A star whose arms repeat (five copies of one road, two more at 0.2° and 0.4°): the junction
/// is the same in any input order (it was 22.807 m² or 22.792 m² when roads, and so arms at
/// equal angles, were numbered in input order).
#[test]
fn identical_arms_do_not_depend_on_input_order() {
    let same: &[(f64, f64)] = &[(0.0, 0.0), (80.0, 0.0)];
    let list: Vec<RoadSpec> = vec![
        ("a0", 4.0, false, same),
        ("a1", 4.0, false, same),
        ("a2", 4.0, false, &[(0.0, 0.0), (79.99951261262323, 0.27925211321789856)]),
        ("a3", 4.0, false, &[(0.0, 0.0), (79.99805045643159, 0.5585008238369242)]),
        ("a4", 4.0, false, same),
        ("a5", 4.0, false, same),
        ("a6", 4.0, false, same),
    ];
    let input = roads(&list);
    let mut reversed_order = input.clone();
    reversed_order.roads.reverse();
    let (a, b) = (check_all("star", &input), check_all("star, reversed order", &reversed_order));
    assert!(a == b, "the network depends on the input order");
}

/// A star of five arms, two pairs 0.2° and 0.9° apart, rotated by 3.29 rad: the junction's
/// surface was 689.0 m² in place and 690.7 m² rotated (0.24 %). Its outline is the fallback
/// union, and the fillet patch of the corner 60 m out only touches the arm stubs along the
/// curbs: the union kept it or left it apart (then `largest` dropped it) depending on how the
/// booleans' grid rounded the coordinates. A detached patch is now grown by a hair and joins.
#[test]
fn star_rotation_keeps_the_corner_patch_that_touches_the_stubs() {
    let w = 6.112821246840268;
    let input = roads(&[
        ("a0", w, false, &[(0.0, 0.0), (79.22263858501742, -11.125355528148669)]),
        ("a1", w, false, &[(0.0, 0.0), (79.26099067161162, -10.848749133181055)]),
        ("a2", w, false, &[(0.0, 0.0), (-69.87133697045908, 38.96147160927778)]),
        ("a3", w, false, &[(0.0, 0.0), (77.44576584813967, -20.05376154727894)]),
        ("a4", w, false, &[(0.0, 0.0), (77.72363442026345, -18.948262519430074)]),
    ]);
    same_when_rotated("star", &input, 3.288296284012764);
}

/// A star of seven arms (seed 32 of `rotation_does_not_matter`): the corner patch between
/// `a2` and `a6`, two arms 10.7° apart, touches their stubs along the curbs. Rotated by
/// 4.0096 rad the booleans' grid left it apart from them and the junction lost 2.9 m²; elsewhere
/// in the same junction another patch touched the rest at a single point. Every patch is now
/// grown by a hair before the union.
#[test]
fn star_rotation_keeps_every_corner_patch() {
    let w = 8.996422585143765;
    let input = roads(&[
        ("a0", w, false, &[(0.0, 0.0), (54.71779390945368, 58.36062910629523)]),
        ("a1", w, false, &[(0.0, 0.0), (32.00486166817649, -73.319089121462)]),
        ("a2", w, false, &[(0.0, 0.0), (-44.4636014591331, 66.50554973296121)]),
        ("a3", w, false, &[(0.0, 0.0), (-29.64326660009243, -74.30529419412754)]),
        ("a4", w, false, &[(0.0, 0.0), (-26.6933076542966, -75.41529902130648)]),
        ("a5", w, false, &[(0.0, 0.0), (-23.701914153082782, -76.40824082178501)]),
        ("a6", w, false, &[(0.0, 0.0), (-56.02462024387105, 57.10728435611375)]),
    ]);
    same_when_rotated("star", &input, 4.0096450942124395);
}

/// A star of four arms, three of them 0.3° apart (seed 1583 of `rotation_does_not_matter`):
/// the junction was 58.382 m² in place and 58.515 m² rotated by 4.66 rad. The mouth corners of
/// the three arms that overlap lie within 6 cm of each other. One of them, with no vertex of
/// the outline within the snap distance, went into the nearest edge; rotated, the union had
/// left a vertex on the straight edge next to that one (in the middle of it), and the corner
/// replaced that vertex instead: two outlines, 0.13 m² apart. A vertex on the straight line
/// between its neighbours now takes a corner only where no other edge lies nearer.
#[test]
fn star_rotation_puts_a_corner_in_the_same_edge_whatever_vertices_split_them() {
    let w = 6.914358134144989;
    let input = roads(&[
        ("a0", w, false, &[(0.0, 0.0), (65.54037074270425, 45.8743915808033)]),
        ("a1", w, false, &[(0.0, 0.0), (65.29720523585385, 46.21985491525021)]),
        ("a2", w, false, &[(0.0, 0.0), (65.05221881054003, 46.564029334086)]),
        ("a3", w, false, &[(0.0, 0.0), (-78.63643925370025, 14.707495418972991)]),
    ]);
    same_when_rotated("star", &input, 4.65643359226012);
}

/// A star of seven roads, 4 m wide, four of them within 0.5° of each other, whose far ends lie
/// within 0.8 m and make one junction (seed 1295 of `road_direction_does_not_matter`, with
/// `a6` drawn the other way): the junction was 14.284861 m² one way and 14.284780 m² the other.
/// Along `a6`, stops closer than the merge distance (ends of the roads beside it, joined to it)
/// were one stop at the first of them along the road, a different one with the road reversed:
/// its far edge ended 2 × 10⁻⁵ m further along, and the unions of the march rounded one grid
/// step apart. The stop kept is now the one whose point is lowest, whichever way the road runs.
/// (Seed 1176 failed the same way.)
#[test]
fn stops_merged_along_a_road_do_not_depend_on_its_direction() {
    let w = 4.0;
    let input = roads(&[
        ("a0", w, false, &[(0.0, 0.0), (13.443358047092405, -78.8623872604531)]),
        ("a1", w, false, &[(0.0, 0.0), (13.83200377677991, -78.79515005074326)]),
        ("a2", w, false, &[(0.0, 0.0), (14.22031328861124, -78.72599754829244)]),
        ("a3", w, false, &[(0.0, 0.0), (80.0, 0.0)]),
        ("a4", w, false, &[(0.0, 0.0), (79.99951261262323, 0.27925211321789856)]),
        ("a5", w, false, &[(0.0, 0.0), (10.265087219059081, -79.33869159738589)]),
        ("a6", w, false, &[(0.0, 0.0), (13.633717388331434, -78.8297009392723)]),
    ]);
    let mut flipped = input.clone();
    flipped.roads[6] = reversed(&flipped.roads[6]);
    let a = check_all("star", &input);
    let b = check_all("star with a6 reversed", &flipped);
    same_shape(&shape(&a), &shape(&b), 1e-6, 1e-6).unwrap();
}

/// A 3 × 3 grid, jittered, with one diagonal (the first failing case of
/// `blocks_of_straight_networks_follow_eulers_formula` on seed 90). The junction where the
/// diagonal meets the corner falls back to the union of its arms; the corner patch, grown by a
/// hair, left a vertex 0.1 mm beside a mouth corner, and the block next to it a face of 0 m²
/// (a `face_dropped` diagnostic on a network whose faces are all large). Vertices within twice
/// the coincidence distance of a mouth corner are now its twins, as in `unbury_mouths`.
#[test]
fn grid_diagonal_leaves_no_crack_beside_a_grown_patch() {
    let input = roads(&[
        ("h0_0", 4.0, false, &[(0.0, 0.0), (83.19820019670063, 0.0)]),
        ("v0_0", 4.0, false, &[(0.0, 0.0), (0.0, 83.19820019670063)]),
        ("h0_1", 4.0, false, &[(0.0, 83.19820019670063), (83.19820019670063, 74.97545132910643)]),
        ("v0_1", 4.0, false, &[(0.0, 83.19820019670063), (0.0, 166.39640039340125)]),
        ("h0_2", 4.0, false, &[(0.0, 166.39640039340125), (83.19820019670063, 166.39640039340125)]),
        ("h1_0", 4.0, false, &[(83.19820019670063, 0.0), (166.39640039340125, 0.0)]),
        ("v1_0", 4.0, false, &[(83.19820019670063, 0.0), (83.19820019670063, 74.97545132910643)]),
        ("h1_1", 4.0, false, &[(83.19820019670063, 74.97545132910643), (156.42799258673585, 88.52795752419078)]),
        ("v1_1", 4.0, false, &[(83.19820019670063, 74.97545132910643), (83.19820019670063, 166.39640039340125)]),
        ("v2_0", 4.0, false, &[(166.39640039340125, 0.0), (156.42799258673585, 88.52795752419078)]),
        (
            "v2_1",
            4.01266323175163,
            false,
            &[(156.42799258673585, 88.52795752419078), (176.10801427427396, 159.85177705690137)],
        ),
        ("d1_1", 5.0, false, &[(83.19820019670063, 74.97545132910643), (176.10801427427396, 159.85177705690137)]),
    ]);
    let net = check_all("grid with diagonals", &input);
    assert!(net.diagnostics.iter().all(|d| d.code != DiagnosticCode::FaceDropped), "{:?}", net.diagnostics);
    assert_eq!(net.blocks.len(), 4);
}

/// Five random splines (the first failing case of `random_splines_hold_every_invariant` on
/// seed 18): a fallback junction's outline keeps a spike of about a centimetre, the block beside
/// it a crack, and the polygon library's inset of that block gave its lot a spike 1.6 m long
/// with an 8 mm base pointing at the crack. The triangle between the spike's base and the next
/// vertex was too small for the sidewalk band's mesh, and the platform did not close (3 open
/// edges). Parts of a lot's outline that leave it and come back within the tolerance are now
/// cut off.
#[test]
fn lot_spike_towards_a_crack_is_cut() {
    let c = PointKind::Curve;
    let input = Input {
        roads: vec![
            spline(
                "s0",
                11.243136331925765,
                vec![
                    sp(30.029084286930633, 61.872118875513706, c),
                    sp(108.68406269305072, 285.6273320176352, c),
                    sp(229.683908023034, 69.15301973260497, c),
                    sp(210.88072077175113, 159.74338891656012, c),
                ],
            ),
            spline(
                "s1",
                4.0,
                vec![
                    sp(0.0, 230.64526573738226, c),
                    sp(271.08468170965534, 127.42052958881993, c),
                    sp(60.66364378912973, 0.0, c),
                ],
            ),
            spline(
                "s2",
                4.0,
                vec![sp(181.3390907730051, 172.60900700146777, c), sp(38.15041609314013, 53.48448330820117, c)],
            ),
            spline(
                "s3",
                11.780145139132003,
                vec![
                    sp(123.05705428642099, 0.0, c),
                    sp(31.483522095560875, 210.01200522039412, c),
                    sp(202.07035911767895, 90.73936831022435, c),
                    sp(135.56140390130074, 251.131974691987, c),
                ],
            ),
            spline("s4", 4.0, vec![sp(0.0, 0.0, c), sp(0.0, 0.0, c)]),
        ],
    };
    check_all("random splines", &input);
}

/// Two random splines (seed 7 of `random_splines_hold_every_invariant`): the booleans left two
/// rounding twins (0.03 and 0.2 µm) beside a mouth corner of `j/s0/258.05`, and the junction's
/// mesh lost the corner. They were not removed because removing every corner's twins at once
/// made the outline cross itself at another corner 25 m away: twins now go corner by corner
/// where all at once is not valid.
#[test]
fn twins_beside_a_mouth_corner_go_even_when_another_corner_cannot_be_helped() {
    let input = Input {
        roads: vec![
            spline(
                "s0",
                7.520398462082099,
                vec![
                    sp(92.31953524089634, 0.0, PointKind::Curve),
                    sp(219.5467292467782, 164.56284736667837, PointKind::Curve),
                    sp(170.7832641575845, 174.5254168641176, PointKind::Curve),
                ],
            ),
            spline(
                "s1",
                8.932979863982997,
                vec![
                    sp(67.40757428800954, 20.0639679692359, PointKind::Curve),
                    sp(54.17470155340175, 193.25930801938324, PointKind::Curve),
                    sp(202.84299010437317, 159.7156243588706, PointKind::Curve),
                    sp(24.686482493617717, 91.52007789834082, PointKind::Curve),
                ],
            ),
        ],
    };
    check_all("splines", &input);
}

/// Two random splines (seed 7 of `random_splines_hold_every_invariant`, after the case above):
/// beside a mouth corner of `j/s0/167.38` the booleans left a tooth, two vertices 0.9 and
/// 1.6 mm from the corner making a triangle of 0.7 mm² with it, below what a mesh keeps, and
/// the junction's mesh lost the corner. The nearer neighbour now goes (when that changes the
/// outline by less than a square centimetre).
#[test]
fn a_tooth_beside_a_mouth_corner_is_cleared() {
    let input = Input {
        roads: vec![
            spline(
                "s0",
                7.520398462082099,
                vec![
                    sp(92.31953524089634, 222.62539886891318, PointKind::Curve),
                    sp(219.5467292467782, 164.56284736667837, PointKind::Curve),
                    sp(170.7832641575845, 174.5254168641176, PointKind::Curve),
                ],
            ),
            spline(
                "s1",
                8.932979863982997,
                vec![
                    sp(67.40757428800954, 20.0639679692359, PointKind::Curve),
                    sp(54.17470155340175, 193.25930801938324, PointKind::Curve),
                    sp(202.84299010437317, 159.7156243588706, PointKind::Curve),
                    sp(24.686482493617717, 91.52007789834082, PointKind::Curve),
                    sp(237.8910271628902, 27.362226141044587, PointKind::Curve),
                ],
            ),
        ],
    };
    check_all("splines", &input);
}

/// A random spline that turns back along itself (seed 7 of `random_splines_hold_every_invariant`,
/// after the two cases above; `s1`, all one point, is left out): the face between the turns,
/// `b/s0/167.6/R` (5.8 m²), had three holes 0.04 to 0.24 mm wide, cracks the block grid left
/// between surfaces that nearly touch, whose triangles were too thin for the platform's mesh to
/// keep, so the platform did not close (8 edges). Holes thinner than the grid are filled.
#[test]
fn cracks_in_a_block_are_not_holes() {
    let input = Input {
        roads: vec![
            spline(
                "s0",
                9.224078900478268,
                vec![
                    sp(76.39302368625422, 172.36559546882185, PointKind::Curve),
                    sp(212.1609221002025, 18.391746725748963, PointKind::Curve),
                    sp(206.79166102410582, 29.88901905814475, PointKind::Curve),
                    sp(91.99722215674385, 271.68245010100827, PointKind::Curve),
                ],
            ),
            spline("s1", 4.0, vec![sp(0.0, 0.0, PointKind::Curve), sp(0.0, 0.0, PointKind::Curve)]),
        ],
    };
    let net = check_all("splines", &input);
    assert!(net.blocks.iter().all(|b| b.polygon.holes.is_empty()), "a crack came out as a hole");
}

/// Three closed loops and a road across them (seed 13 of `closed_loops_hold_every_invariant`):
/// the outline of block `b/o0/102.2/L` ran out along a line and back, a spike 0.03 mm wide
/// (narrower than the block grid) whose two sides the cleaning kept (each triangle above the
/// smallest area), and the sliver between its base and the outline was too small for the
/// platform's mesh to keep: 6 edges did not close. A vertex less than the grid from the line
/// through its neighbours now goes too.
#[test]
fn a_spike_thinner_than_the_grid_is_cleaned_off_a_block() {
    let input = roads(&[
        (
            "o0",
            8.987046473528395,
            true,
            &[
                (55.08015589684115, 100.20315169294395),
                (47.54995193401582, 115.83978134230455),
                (30.62973721771486, 119.70170993658041),
                (-28.118736217882628, 130.6381340721502),
                (-1.1097276501840838, 82.77502231909642),
                (22.422513776677505, 44.74639809250065),
                (56.40197469511395, 73.4664365930788),
            ],
        ),
        (
            "o1",
            4.685591245258442,
            true,
            &[
                (95.44263882822395, 29.892250144550676),
                (70.19339597514946, 59.852868477429),
                (27.61550827662677, 73.67869658447555),
                (26.007091637400638, 29.89225014455068),
                (16.879306820750735, -32.48984269724633),
                (72.7393298058861, -4.478054935871992),
            ],
        ),
        (
            "o2",
            4.0,
            true,
            &[
                (20.0, 145.61366122756033),
                (-9.999999999999996, 162.9341693032491),
                (-13.81920387441671, 121.67809799691794),
            ],
        ),
        ("across", 7.0, false, &[(-100.0, 30.0), (250.0, 120.0)]),
    ]);
    check_all("closed loops", &input);
}

/// A fan of five arms 0.55° apart meeting again 99 m out, found by
/// `translation_by_a_million_metres_does_not_matter` (`PROPTEST_RNG_SEED=8`): the end of `a1`
/// lies exactly halfway between `a0` and `a2`, so moved by 10⁶ m it snapped to the other one
/// (the far junction was 47.11 m² in place, 47.63 m² moved); and two crossings that are one
/// point came out 10⁻¹⁰ m apart along `a1`, an edge of that length inside the junction. Ties
/// within a rounding step now go to the road first by id, and such stops are one.
#[test]
fn fan_whose_end_lies_halfway_between_two_roads_does_not_move_with_the_input() {
    let w = 6.100244354457484;
    let input = roads(&[
        ("a0", w, false, &[(0.0, 0.0), (96.70356405350607, -22.652038645009203)]),
        ("a1", w, false, &[(0.0, 0.0), (96.91643632262706, -21.723225495946014)]),
        ("a2", w, false, &[(0.0, 0.0), (97.12038779364082, -20.792412804635415)]),
        ("a3", w, false, &[(0.0, 0.0), (97.44437973812123, -19.21684190699328)]),
        ("a4", w, false, &[(0.0, 0.0), (97.61888133712812, -18.30978322955361)]),
    ]);
    same_when_moved_a_million_metres_each_way("fan", &input);
}

/// `input` turned by `angle` radians about the origin.
fn rotated(input: &Input, angle: f64) -> Input {
    let (s, c) = angle.sin_cos();
    map_points(input, |x, y| (c * x - s * y, s * x + c * y))
}

/// `input` gives the same network (as `rotation_does_not_matter` compares it) turned by `angle`
/// radians.
fn same_when_rotated(what: &str, input: &Input, angle: f64) {
    let a = check_all(what, input);
    let b = check_all(&format!("{what} rotated"), &rotated(input, angle));
    let skip = [DiagnosticCode::FaceDropped];
    same_shape(&shape_without(&a, &skip), &shape_without(&b, &skip), 1e-3, 1e-2).unwrap();
}

/// `input` gives the same network (as `translation_by_a_million_metres_does_not_matter`
/// compares it) moved by 10⁶ m towards each of the four quadrants.
fn same_when_moved_a_million_metres_each_way(what: &str, input: &Input) {
    let a = check_all(what, input);
    let skip = [DiagnosticCode::FaceDropped];
    for (dx, dy) in [(1e6, 1e6), (1e6, -1e6), (-1e6, 1e6), (-1e6, -1e6)] {
        let moved = map_points(input, |x, y| (x + dx, y + dy));
        let b = check_all(&format!("{what} moved by ({dx}, {dy})"), &moved);
        same_shape(&shape_without(&a, &skip), &shape_without(&b, &skip), 1e-3, 1e-2).unwrap();
    }
}

/// A star of ten arms in bunches 2.2° apart (found by
/// `translation_by_a_million_metres_does_not_matter` on `PROPTEST_RNG_SEED=40`): the piece of
/// `a6` was 12.48 m² in place and 12.70 m² moved by 10⁶ m. Where the fallback outline's parts
/// only touched, `grow_detached` grew them by a hair (0.05 mm) in place but not when moved,
/// and `a6`'s mouth corner, placed on the outline, was then 0.05001 mm inside it: buried, and
/// marched out one step (0.05 m). A corner within twice the hair of the outline is now on it.
#[test]
fn star_mouth_on_a_grown_outline_does_not_move_with_the_input() {
    let w = 4.258488060139965;
    let input = roads(&[
        ("a0", w, false, &[(0.0, 0.0), (55.87027331800092, 105.38547077625272)]),
        ("a1", w, false, &[(0.0, 0.0), (52.021411700307844, 107.33758715411678)]),
        ("a2", w, false, &[(0.0, 0.0), (48.10445191395595, 109.1491942133264)]),
        ("a3", w, false, &[(0.0, 0.0), (119.2794403548262, 0.0)]),
        ("a4", w, false, &[(0.0, 0.0), (119.278713663657, 0.41636294728166884)]),
        ("a5", w, false, &[(0.0, 0.0), (119.27653359900386, 0.8327208213122212)]),
        ("a6", w, false, &[(0.0, 0.0), (113.8053072125865, 35.720259540061434)]),
        ("a7", w, false, &[(0.0, 0.0), (112.36442107656177, 40.022765615205365)]),
        ("a8", w, false, &[(0.0, 0.0), (110.76094049540961, 44.2673576344113)]),
        ("a9", w, false, &[(0.0, 0.0), (-100.16245791430086, 64.76933623194276)]),
    ]);
    same_when_moved_a_million_metres_each_way("star", &input);
}

/// A star of five distinct arms (four within 1.2° of each other): the same network in any
/// input order (the junction was 15.6389051 m² or 15.6389052 m² before roads were numbered by
/// id).
#[test]
fn star_at_tiny_angles_does_not_depend_on_input_order() {
    let input = roads(&[
        ("a0", 4.0, false, &[(0.0, 0.0), (80.0, 0.0)]),
        ("a1", 4.0, false, &[(0.0, 0.0), (79.99951261262323, 0.27925211321789856)]),
        ("a2", 4.0, false, &[(0.0, 0.0), (22.738416670834617, -76.70048505259605)]),
        ("a3", 4.0, false, &[(0.0, 0.0), (79.99395146910933, -0.98373185258069)]),
        ("a4", 4.0, false, &[(0.0, 0.0), (79.99689798356569, -0.7044948594446339)]),
    ]);
    let mut reversed_order = input.clone();
    reversed_order.roads.reverse();
    let (a, b) = (check_all("star", &input), check_all("star, reversed order", &reversed_order));
    assert!(a == b, "the network depends on the input order");
}

/// Road `s0` turns back on itself past a sharp curve, under road `s2`, inside a junction whose
/// outline is the union of its arms (the first failing case of `random_splines_hold_every_invariant`
/// on seed 56). The carriageway of the folded stretch took the curbs' mitre at the turn, which
/// reached 12 m out, past `s2`'s mouth: the corner stayed 0.16 m inside the junction, not a
/// vertex of it. A folded stretch's turns are now bevelled.
#[test]
fn folded_stretch_keeps_its_turn_inside_the_mouths() {
    let c = PointKind::Curve;
    let l = PointKind::Linear;
    let input = Input {
        roads: vec![
            spline(
                "s0",
                9.10861148035388,
                vec![
                    sp(175.54015586865495, 106.25871284955565, c),
                    sp(245.10522821670148, 148.66742203378823, l),
                    sp(135.49777138723002, 86.93090893854338, c),
                ],
            ),
            spline(
                "s1",
                4.0,
                vec![sp(297.525306866644, 255.01598744026876, c), sp(265.85643330921016, 114.86283026522702, c)],
            ),
            spline(
                "s2",
                4.563061889652262,
                vec![
                    sp(52.082997677217634, 290.35489533194504, l),
                    sp(271.9571968245164, 196.58790494991212, c),
                    sp(100.13109647131654, 88.94079395802922, c),
                ],
            ),
        ],
    };
    check_all("folded stretch", &input);
}

/// Two roads whose fallback junction leaves a tooth a millimetre across at a mouth corner (the
/// first failing case of `random_splines_hold_every_invariant` on seed 120): the corner's
/// neighbours lie 0.7 and 1.4 mm from it, the triangle they make is smaller than the mesh
/// keeps, and taking either away changed the outline by 3·10⁻⁴ m², more than the square
/// centimetre allowed then, so the mesh lost the corner. A neighbour may now go when the
/// outline moves by no more than the tolerance where it was (here 0.6 mm).
#[test]
fn millimetre_tooth_beside_a_mouth_corner_goes() {
    let c = PointKind::Curve;
    let l = PointKind::Linear;
    let input = Input {
        roads: vec![
            spline(
                "s0",
                11.306263270802173,
                vec![
                    sp(243.02263653558126, 32.85408731885739, c),
                    sp(26.824420471860353, 72.8539242711709, c),
                    sp(43.99753904544966, 211.4487623464679, c),
                ],
            ),
            spline(
                "s1",
                4.958114239485753,
                vec![
                    sp(56.22475400136583, 100.03281767975015, l),
                    sp(187.92417293028868, 282.1525196882396, c),
                    sp(37.007297471441106, 200.65360013608796, c),
                    sp(107.97785144901695, 116.42331685528409, c),
                ],
            ),
        ],
    };
    check_all("millimetre tooth", &input);
}

/// Three roads that leave a crack between two road surfaces, 3 cm wide and several metres long,
/// as a spike of a block's outline (the first failing case of
/// `random_splines_hold_every_invariant` on seed 111). The outline's next vertex lay 0.01 mm
/// from the spike's base, so the platform's triangulation had a triangle there smaller than the
/// mesh keeps, and three edges stayed open. A part of a block's outline that leaves it and
/// comes back within the tolerance (as for lots) is now cut off.
#[test]
fn crack_between_two_roads_is_no_part_of_a_block() {
    let c = PointKind::Curve;
    let l = PointKind::Linear;
    let input = Input {
        roads: vec![
            spline(
                "s0",
                6.143195504303675,
                vec![
                    sp(119.31862651763961, 220.62210268806805, c),
                    sp(63.683283320653395, 41.5866784331556, c),
                    sp(87.95696865466209, 252.66599611659973, l),
                ],
            ),
            spline(
                "s1",
                11.813970206782628,
                vec![
                    sp(186.9324554938413, 201.1099554777061, c),
                    sp(16.25550064261493, 270.81691708367794, c),
                    sp(126.10028093484159, 141.93614920261794, c),
                ],
            ),
            spline("s2", 4.0, vec![sp(286.7639298710827, 227.9616223099872, c), sp(0.0, 181.14999295310048, c)]),
        ],
    };
    check_all("crack", &input);
}

/// A lot whose inset left a spike 6 mm long on a base of 0.35 mm (the first failing case of
/// `random_splines_hold_every_invariant` on seed 202): too short for `cut_thin_spikes`, wider
/// at its base than the block grid, so cleaning kept it, and the triangle beside its base was
/// smaller than the mesh keeps (three edges of the platform open). Cleaning now also drops a
/// vertex whose neighbours are closer than the square root of the smallest triangle (1 mm).
#[test]
fn millimetre_spike_of_a_lot_is_cleaned() {
    let c = PointKind::Curve;
    let l = PointKind::Linear;
    let input = Input {
        roads: vec![
            spline(
                "s0",
                5.7190919843917385,
                vec![
                    sp(38.0428363698388, 282.1045696003984, c),
                    sp(54.99187572835079, 88.13175802700766, c),
                    sp(217.8436891328815, 261.7986650237023, c),
                    sp(165.810113793525, 264.2229191378198, c),
                ],
            ),
            spline(
                "s1",
                4.922859263737418,
                vec![
                    sp(263.09723872522557, 81.87583495748174, c),
                    sp(279.10715445672685, 144.4611862185482, c),
                    sp(95.33948129964577, 132.91740001629216, c),
                    sp(170.10485817601068, 78.31292770606, l),
                ],
            ),
            spline(
                "s2",
                10.365158381597857,
                vec![
                    sp(275.8722134062346, 51.26351118086726, l),
                    sp(75.25982626869667, 104.63272492694192, c),
                    sp(282.39369007568285, 131.928876594678, c),
                    sp(201.36330241032726, 78.72096722842079, c),
                ],
            ),
            spline(
                "s3",
                7.798670065383344,
                vec![
                    sp(214.9971123591833, 207.05111106208219, c),
                    sp(0.0, 97.83340669348442, l),
                    sp(132.44503603322627, 129.74299441073745, c),
                ],
            ),
        ],
    };
    check_all("lot spike", &input);
}

/// Road `s0` (10.8 m wide) turns back at a tip much tighter than its half-width, and its two
/// legs overlap up to the tip (the first failing case of `random_splines_hold_every_invariant`
/// on seed 148). Both legs' mouths were marched out to the tip, leaving a piece of 0.49 m round
/// it; the carriageway there folds away from the junction's surface, so the union of the two
/// fell apart and the piece stayed, its mouth corner 0.49 m off the junction. The stretch grown
/// back into the junction by the road's width now bridges the gap: the tip is junction surface.
#[test]
fn hairpin_tip_folded_away_from_its_junction_is_junction_surface() {
    let c = PointKind::Curve;
    let l = PointKind::Linear;
    let input = Input {
        roads: vec![
            spline(
                "s0",
                10.847686707386245,
                vec![
                    sp(65.27606762873579, 93.11444532530122, l),
                    sp(99.59730365812148, 289.60026895663947, c),
                    sp(92.60590545818545, 50.55214815520978, c),
                    sp(298.1404309145259, 254.7124333480071, c),
                ],
            ),
            spline("s1", 4.0, vec![sp(0.0, 250.925434923143, c), sp(274.7748704739582, 0.0, c)]),
        ],
    };
    let net = check_all("hairpin tip", &input);
    assert!(
        !net.pieces.iter().any(|p| p.road == "s0" && p.from.is_some() && p.from == p.to && p.end - p.start < p.width),
        "no piece of s0 shorter than its width leaves a junction and comes back to it"
    );
}

/// Three closed loops whose mouths the merged junction buries (the first failing case of
/// `closed_loops_hold_every_invariant` on seed 229): `o2`'s mouth was marched out along its
/// edge up to the middle, where another junction waits, and stopped there with a corner still
/// 0.07 m under the curb of `o1`, too shallow for the junction to yield the piece's carriageway
/// (5 % of the width, which guards against corners that only rounding buries). A march that
/// stopped halfway is known to have left its corner buried, so any depth beyond the tolerance
/// now counts for it.
#[test]
fn mouth_left_buried_halfway_along_its_edge_gets_its_carriageway_back() {
    let input = roads(&[
        (
            "o0",
            5.243453069763867,
            true,
            &[
                (156.26426837874195, 110.31114690687708),
                (148.7340644159166, 125.94777655623768),
                (131.81384969961567, 129.80970515051357),
                (106.47118755054063, 124.65873844982004),
                (67.02080757435152, 76.96525366508872),
                (131.81384969961564, 90.8125886632406),
                (148.7340644159166, 94.67451725751648),
            ],
        ),
        (
            "o1",
            7.0708749435469835,
            true,
            &[
                (161.4129926440677, 49.63775445041523),
                (155.37482588775416, 73.82035899528432),
                (108.6818962888855, 106.32967632502336),
                (121.41299264406771, 49.63775445041523),
                (131.4129926440677, 32.317246374726466),
                (151.4129926440677, 32.31724637472646),
            ],
        ),
        (
            "o2",
            4.0,
            true,
            &[
                (113.68931246348744, 114.57517155275913),
                (68.66488810735203, 177.6985310283315),
                (31.97452543384955, 126.3308765986086),
                (31.974525433849543, 102.81946650690966),
                (55.47847553432843, 92.03541696758222),
            ],
        ),
    ]);
    check_all("closed loops", &input);
    same_when_rotated("closed loops", &input, 0.7);
    same_when_moved_a_million_metres_each_way("closed loops", &input);
}

/// Three splines crossing one another at shallow angles (the first failing case of
/// `random_splines_hold_every_invariant` on seed 201): as above, `s1`'s mouth was left under
/// the merged junction's surface, 0.13 m deep, where its march stopped halfway along the edge.
#[test]
fn shallow_mouth_under_a_merged_junction_gets_its_carriageway_back() {
    let c = PointKind::Curve;
    let l = PointKind::Linear;
    let input = Input {
        roads: vec![
            spline(
                "s0",
                5.94930006664041,
                vec![
                    sp(14.694730568946701, 269.18876968633083, l),
                    sp(193.48583989488438, 7.277813484220969, l),
                    sp(52.786236722836286, 208.30870444770858, c),
                ],
            ),
            spline(
                "s1",
                11.702275711998139,
                vec![
                    sp(3.8400900183846503, 201.01774570020237, c),
                    sp(200.90245277351102, 11.023692038342913, c),
                    sp(84.43154784985454, 152.73010841918563, c),
                ],
            ),
            spline(
                "s2",
                8.28919771510576,
                vec![
                    sp(0.0, 266.7245753325394, c),
                    sp(0.0, 106.28970312979462, c),
                    sp(230.92778262247867, 72.23297651036368, c),
                    sp(193.58461737060946, 187.28869021453986, c),
                ],
            ),
        ],
    };
    check_all("random splines", &input);
    same_when_rotated("random splines", &input, 0.7);
    same_when_moved_a_million_metres_each_way("random splines", &input);
}

/// Road `s0` leaves a junction (whose outline is the union of its arms) into a bend tighter
/// than its half-width (the first failing case of `random_splines_hold_every_invariant` on seed
/// 179): the inner curb from the mouth runs back behind the mouth's cross-section, so the road
/// piece's carriageway (cleaned of the fold) and the junction's outline beside it end where
/// that curb crosses the mouth, 0.16 m short of the corner that the mesh took from the
/// centerline. The mesh's mouth corner is now that crossing, a vertex of both.
#[test]
fn mouth_in_a_bend_tighter_than_the_half_width_ends_where_the_folded_curb_crosses_it() {
    let c = PointKind::Curve;
    let l = PointKind::Linear;
    let input = Input {
        roads: vec![
            spline(
                "s0",
                8.474336259573427,
                vec![
                    sp(99.85804999607508, 6.720127935195076, l),
                    sp(207.83861996612524, 263.0262338911116, c),
                    sp(158.39841914847938, 190.23904246558988, l),
                    sp(209.27917700983778, 181.75926799871831, c),
                ],
            ),
            spline(
                "s1",
                8.607104590929113,
                vec![sp(61.596059713668005, 225.90211071460374, c), sp(273.4358652117524, 138.40661783900651, c)],
            ),
        ],
    };
    check_all("mouth in a tight bend", &input);
    same_when_rotated("mouth in a tight bend", &input, 0.7);
}

/// Three splines whose junction surrounds the start of `s0`'s piece (the first failing case of
/// `random_splines_hold_every_invariant` on seed 247): the junction's outline had a hole of
/// 1.2 m² (above `min_block_area`) whose ring held that piece's mouth corners, and a vertex of
/// it lay within the tolerance of another corner on the outer ring, so it was dropped as a
/// sliver between two arms: the junction then covered the mouth. A hole with a mouth corner of
/// its own is no sliver and stays.
#[test]
fn hole_that_holds_a_mouth_is_no_sliver() {
    let c = PointKind::Curve;
    let input = Input {
        roads: vec![
            spline(
                "s0",
                9.146726426093666,
                vec![sp(110.13674841375665, 280.5960982752441, c), sp(274.71497381395955, 51.62304561620589, c)],
            ),
            spline(
                "s1",
                6.147751252989869,
                vec![
                    sp(0.0, 10.317703134611003, c),
                    sp(138.1374052710968, 225.50101157289467, c),
                    sp(154.98929815364318, 126.28862818204531, c),
                ],
            ),
            spline(
                "s2",
                9.409862812393001,
                vec![
                    sp(163.22179502691952, 214.8403713520092, c),
                    sp(0.0, 204.0092113989975, c),
                    sp(0.0, 201.7339613857399, c),
                ],
            ),
        ],
    };
    check_all("hole that holds a mouth", &input);
    same_when_rotated("hole that holds a mouth", &input, 0.7);
}

/// Four splines, one 11.7 m wide looping back across the others (the first failing case of
/// `random_splines_hold_every_invariant` on seed 85): the same dropped hole (1.0 m²), in a
/// merged junction whose surface then covered `s2`'s mouth.
#[test]
fn hole_that_holds_a_mouth_in_a_merged_junction_is_no_sliver() {
    let c = PointKind::Curve;
    let input = Input {
        roads: vec![
            spline("s0", 4.0, vec![sp(173.22408423535367, 229.11263884216405, c), sp(247.91707440724772, 0.0, c)]),
            spline(
                "s1",
                11.665161686360666,
                vec![
                    sp(111.80591830650407, 90.00272439799747, c),
                    sp(31.55383135368214, 94.20052487724323, c),
                    sp(171.0426725777688, 204.6955443175327, c),
                    sp(84.47127897236443, 88.22080876423982, c),
                ],
            ),
            spline(
                "s2",
                9.454031000082894,
                vec![
                    sp(0.0, 229.52985700312766, c),
                    sp(271.54391894495683, 238.35006150075446, c),
                    sp(29.88983631112533, 179.52067380874522, c),
                ],
            ),
            spline(
                "s3",
                4.0,
                vec![
                    sp(59.194392897976044, 159.085100847521, c),
                    sp(154.96155940674984, 200.27914451947908, c),
                    sp(174.35846788587406, 80.60136558966832, c),
                ],
            ),
        ],
    };
    check_all("hole that holds a mouth, merged", &input);
}

/// Two closed loops (the first failing case of `closed_loops_hold_every_invariant` on seed
/// 318): a mouth of `o0` falls exactly on a vertex where the loop turns by 137°, in a junction
/// built from the union of its arms. The arm's carriageway ends square to its last segment and
/// a wedge on the outer side of the turn reaches the mouth's outer corner; the wedge shared
/// half of the quadrilateral's end, the boolean operation's rounding left them touching at one
/// point, and the union kept the larger part without the corner. The wedge now reaches a hair
/// back into the quadrilateral.
#[test]
fn wedge_at_a_mouth_on_a_sharp_vertex_stays_joined() {
    let input = roads(&[
        (
            "o0",
            5.248612185278742,
            true,
            &[
                (119.03690431327058, 20.283415929878224),
                (145.31667286061705, 69.76495482290164),
                (95.83513396759363, 52.913666192356395),
                (60.582756507234016, 55.53579339023785),
                (75.83513396759363, 20.283415929878228),
                (81.69299834386268, 6.141280306147275),
                (95.83513396759363, 0.28341592987822395),
                (109.97726959132459, 6.141280306147269),
            ],
        ),
        (
            "o1",
            8.988467157546138,
            true,
            &[
                (138.13519095004216, 71.45582388211243),
                (69.4225960308471, 88.7763319578012),
                (68.76394685901542, 52.99450197644805),
            ],
        ),
    ]);
    check_all("wedge at a sharp vertex", &input);
}

/// Three splines (the first failing case of `random_splines_hold_every_invariant` on seed 328):
/// `s0` and `s2` run side by side, overlapping, between two junctions built from the union of
/// their arms. The short piece of `s2` between them had its mouth at the upper junction still
/// buried where the march that unburies mouths had to stop, halfway along it, and its corner
/// was on no junction. The two junctions need more of the road than it has between them: they
/// are now one junction, that piece inside it.
#[test]
fn mouth_still_buried_halfway_merges_the_two_junctions() {
    let (c, l) = (PointKind::Curve, PointKind::Linear);
    let input = Input {
        roads: vec![
            spline(
                "s0",
                5.410017403183167,
                vec![
                    sp(116.17418505741934, 241.2556614428875, c),
                    sp(197.00133094225532, 65.94084150644066, l),
                    sp(141.7330312175852, 214.27702868199557, c),
                ],
            ),
            spline(
                "s1",
                6.1700599721744185,
                vec![
                    sp(207.99282281613398, 263.1419257112949, c),
                    sp(228.20111722931208, 164.08516129659057, c),
                    sp(124.09264972331786, 129.64489098039695, c),
                ],
            ),
            spline(
                "s2",
                7.739842106652577,
                vec![sp(191.6886597387499, 82.66789365585872, c), sp(138.60643959659149, 179.81133689477568, c)],
            ),
        ],
    };
    let net = check_all("mouth still buried halfway", &input);
    let merged = net
        .diagnostics
        .iter()
        .filter(|d| d.code == DiagnosticCode::JunctionsMerged && d.road.as_deref() == Some("s2"))
        .count();
    assert!(merged >= 1, "the junctions at both ends of s2's short piece are one: {:?}", net.diagnostics);
}

/// Three closed loops drawn nearly on top of each other (the first failing case of
/// `closed_loops_hold_every_invariant` on seed 313): a junction of 8 arms built from their
/// union swallows most of them, and the mouth of `o0`'s piece beside it stayed 7 cm inside
/// where its march stopped halfway. The junctions at its two ends are now one.
#[test]
fn overlapping_loops_with_a_mouth_still_buried_halfway() {
    let input = roads(&[
        (
            "o0",
            6.875305151744977,
            true,
            &[
                (47.728806056456335, 25.165944682420477),
                (43.24566312648436, 65.79613367797903),
                (6.393749938137429, 44.664502926056954),
                (-7.175208740784665, 33.84361946477164),
                (-7.175208740784669, 16.48826990006932),
                (6.393749938137423, 5.667386438784003),
                (34.867960996721905, -4.958938121663611),
            ],
        ),
        (
            "o1",
            7.044679330071271,
            true,
            &[
                (108.48972208740571, 32.09218761913389),
                (98.48972208740571, 49.41269569482266),
                (65.15466545621126, 72.50969130185973),
                (32.16275670045839, 32.092187619133895),
                (72.35376326805073, 4.143887115171971),
                (98.48972208740571, 14.771679543445117),
            ],
        ),
        (
            "o2",
            6.087246659596034,
            true,
            &[
                (96.08298576491838, 67.54000781560418),
                (76.08298576491838, 87.54000781560418),
                (12.047310869938812, 67.5400078156042),
                (76.08298576491836, -11.193076639455441),
            ],
        ),
    ]);
    check_all("overlapping loops, mouth buried halfway", &input);
}

/// Three closed loops (the first failing case of `closed_loops_hold_every_invariant` on seed
/// 244 once junctions joined over a mouth still buried halfway): after two junctions were
/// joined that way, a piece of `o2` left the joined junction and came back to it with its
/// mouth still 0.31 m inside where the march stopped halfway. A mouth buried halfway along a
/// road between two mouths of one junction takes that road into the junction too.
#[test]
fn mouth_still_buried_halfway_back_to_the_same_junction() {
    let input = roads(&[
        (
            "o0",
            4.732429157014009,
            true,
            &[
                (42.0293622741623, 88.09101896543157),
                (36.17149789789325, 102.23315458916252),
                (22.029362274162303, 108.09101896543157),
                (-10.474205232563726, 120.5945864721576),
                (0.43933765110189427, 88.09101896543157),
                (-24.72125563771681, 41.340401053552476),
                (22.0293622741623, 68.09101896543157),
                (36.171497897893246, 73.94888334170062),
            ],
        ),
        (
            "o1",
            4.0,
            true,
            &[
                (58.0591554362723, 148.47030338665),
                (3.3982516215262137, 168.47030338665),
                (-45.17379838462945, 148.47030338665),
                (3.398251621526199, 76.91543166492895),
            ],
        ),
        (
            "o2",
            8.664799028926279,
            true,
            &[
                (56.534339687084426, 82.01436652851295),
                (-6.209239080847016, 109.11446671515678),
                (-3.984535664655443, 58.76756569048503),
            ],
        ),
    ]);
    check_all("closed loops, buried halfway back to the same junction", &input);
}

/// Three splines (the first failing case of `random_splines_hold_every_invariant` on seed 77
/// once junctions joined over a mouth still buried halfway): the road taken in between the two
/// junctions reached 0.05 m² into a third, and only surfaces that grew while unburying were
/// checked for overlap. Surfaces that grew by joining are checked too, and joined.
#[test]
fn a_road_taken_into_a_junction_does_not_overlap_a_third() {
    let (c, l) = (PointKind::Curve, PointKind::Linear);
    let input = Input {
        roads: vec![
            spline(
                "s0",
                6.2047296262478495,
                vec![
                    sp(207.76372974066513, 249.6654479078888, c),
                    sp(176.18683739665775, 285.4565705632815, c),
                    sp(274.2594620710904, 196.57261831140363, c),
                ],
            ),
            spline(
                "s1",
                9.912319189807063,
                vec![sp(0.0, 254.03256141893803, c), sp(161.08081099692666, 299.9949825763109, c), sp(0.0, 0.0, c)],
            ),
            spline(
                "s2",
                8.20510832853955,
                vec![
                    sp(68.1370966228011, 135.4738679723133, l),
                    sp(239.5913461278841, 287.0460022214142, c),
                    sp(115.87431333165294, 284.1355682606659, c),
                ],
            ),
        ],
    };
    check_all("road taken into a junction beside a third", &input);
}

/// Three splines (the first failing case of `random_splines_hold_every_invariant` on seed 40
/// once junctions joined over a mouth still buried halfway): the march that unburies a mouth
/// of `s0` in the joined junction stopped halfway along its edge, where the road turns
/// sharply; the stretch given up folded over itself there, the union lost the part holding the
/// new corner, and the mouth ended 0.29 m off the junction. A move that would leave a corner
/// off the surface is no longer made.
#[test]
fn a_march_does_not_leave_a_mouth_corner_off_the_junction() {
    let (c, l) = (PointKind::Curve, PointKind::Linear);
    let input = Input {
        roads: vec![
            spline(
                "s0",
                4.063142981843491,
                vec![
                    sp(259.11734451379857, 190.51669427858397, c),
                    sp(65.79629565905216, 258.7195737450585, c),
                    sp(96.76881661307998, 114.82901362755977, l),
                    sp(272.0583899551468, 202.68873092272696, c),
                ],
            ),
            spline(
                "s1",
                10.484218878247473,
                vec![
                    sp(34.35456719574092, 130.62236919245646, c),
                    sp(48.59345015338446, 132.68048804399274, c),
                    sp(299.41398754012073, 8.393578719759814, c),
                ],
            ),
            spline(
                "s2",
                11.208906461050661,
                vec![
                    sp(150.8460544579672, 7.248456647719185, c),
                    sp(5.565437841446124, 96.34317293875819, c),
                    sp(221.86235015672435, 145.46292998759915, l),
                ],
            ),
        ],
    };
    check_all("march at a sharp turn halfway", &input);
}

/// Road `s1` winds back across `s0` twice near `s0`'s bend (the first failing case of
/// `random_splines_hold_every_invariant` on seed 448): the mouth of piece `r/s1/189.48` at
/// junction `j/s0/191.96` lies on a centerline vertex 1.5 m before a sharp bend of `s1`. The
/// junction offset its corners along the segment inside the junction (the setback a few ulps
/// short of the vertex), the mesh along the piece's last segment, 3° apart: the corners lay
/// 0.22 m apart. Both now take the piece's side of the vertex (`curb::mouth_at`).
#[test]
fn winding_spline_across_a_bend() {
    let c = PointKind::Curve;
    let input = Input {
        roads: vec![
            spline(
                "s0",
                8.705684607012946,
                vec![
                    sp(88.45003479017637, 274.65746699172564, c),
                    sp(105.32772740801796, 74.45508691725335, c),
                    sp(272.32493825755813, 271.1654202994478, c),
                ],
            ),
            spline(
                "s1",
                8.345766157167336,
                vec![
                    sp(286.35196481178684, 287.27018090760066, c),
                    sp(195.16206307069416, 206.8012017634256, c),
                    sp(104.27947899373301, 85.53447114618346, c),
                    sp(23.623905120452623, 132.3209617539706, c),
                    sp(296.7187243407715, 164.3311333279139, c),
                ],
            ),
        ],
    };
    check_all("winding spline across a bend", &input);
    same_when_rotated("winding spline across a bend", &input, 0.7);
}

/// Two closed loops that cross twice, a few metres apart (the first failing case of
/// `closed_loops_hold_every_invariant` on seed 45). Loop `o1` leaves the junction of the two
/// crossings and comes back to it; the left curb of one of its arms and the right curb of the
/// other are one curb, whose segments touch end to end at every vertex. Taken for a corner, the
/// touch at the loop's sharpest vertex set both arms back around the loop, and the junction
/// covered the whole inside of `o1` (7,116 m²), leaving a piece of 7 m, with no diagnostic. The
/// inside of `o1` is now a block, and the junction covers the crossings only.
#[test]
fn loop_back_into_its_junction_keeps_its_inside() {
    let input = roads(&[
        (
            "o0",
            4.0,
            true,
            &[
                (165.2428181469961, 107.2969185406722),
                (151.42315803449503, 126.31804886657527),
                (105.08381138570502, 136.474144835205),
                (82.14692387706856, 61.45506801104009),
                (151.42315803449503, 88.27578821476912),
            ],
        ),
        (
            "o1",
            7.707056708128318,
            true,
            &[
                (118.47577121444208, 149.15006222023658),
                (87.25193077443538, 193.98401983919865),
                (13.278901629647457, 192.31075212088538),
                (37.3633576381974, 123.48775387367357),
                (85.05646007394267, 111.07306863253152),
            ],
        ),
    ]);
    let net = check_all("loop back into its junction", &input);
    assert_eq!(net.junctions.len(), 1);
    let junction = polygon_area(&net.junctions[0].polygon);
    assert!(junction < 1_000.0, "the junction covers {junction:.0} m²");
    // The inside of `o1`, whose centerline encloses about 6,000 m², less its road.
    let inside = net.blocks.iter().map(|b| polygon_area(&b.polygon)).fold(0.0, f64::max);
    assert!(inside > 4_000.0, "largest block {inside:.0} m²");
}

/// Three random splines (the first failing case of `random_splines_hold_every_invariant` on
/// seed 367): road `s0` leaves a junction of eight arms and comes back to it 21 m on, bending
/// away from its centre; its two arms' outer curbs touch end to end where they run on each
/// other, and taken for a corner that touch set both arms back past each other. The edge went
/// inside the junction, and the mouth of `s1`'s piece beside it was left off the junction's
/// outline. The curbs' touch is a corner only for a loop hardly larger than its road.
#[test]
fn road_back_into_its_junction_leaves_its_neighbours_mouths() {
    let c = PointKind::Curve;
    let l = PointKind::Linear;
    let input = Input {
        roads: vec![
            spline(
                "s0",
                5.09143769574938,
                vec![
                    sp(172.27823730149217, 72.83922065842472, l),
                    sp(111.85080500373144, 82.73476975136265, c),
                    sp(185.02479504492953, 126.97729448615844, c),
                    sp(66.7829547163431, 61.26246301582934, l),
                ],
            ),
            spline(
                "s1",
                11.942929801773268,
                vec![
                    sp(50.2477890727014, 271.86684308027174, c),
                    sp(245.28949675263252, 18.005579044421165, c),
                    sp(14.160831955351815, 158.18003374637894, c),
                ],
            ),
            spline(
                "s2",
                6.585859689616648,
                vec![
                    sp(67.88143640627278, 38.74699459860203, c),
                    sp(99.21062244504587, 172.26245441449174, c),
                    sp(183.631219406726, 108.28417725672806, c),
                    sp(107.59123667412226, 75.5161426793113, c),
                ],
            ),
        ],
    };
    check_all("road back into its junction", &input);
}

/// Three random splines (the first failing case of `random_splines_hold_every_invariant` on
/// seed 713): the mouth of piece `r/s1/50.45` on junction `j/s0/10.11` has its corner between
/// two edges of the junction's outline 1.4 and 1.9 mm long. The point that the junction's
/// triangulation seeded inside that corner made two triangles below the smallest kept, and
/// left out, they took the corner out of the junction's mesh (a hole beside the road's mesh).
/// Such a point is taken out again.
#[test]
fn a_mouth_corner_between_millimetre_edges_stays_in_the_mesh() {
    let c = PointKind::Curve;
    let l = PointKind::Linear;
    let input = Input {
        roads: vec![
            spline(
                "s0",
                10.765718009474703,
                vec![sp(254.27640851555776, 32.43471513747848, c), sp(140.4680703508686, 115.79805263005188, c)],
            ),
            spline(
                "s1",
                4.607275590101275,
                vec![sp(285.03808498445966, 47.59168600579219, c), sp(192.56336184613286, 46.22972787775365, c)],
            ),
            spline(
                "s2",
                4.0,
                vec![
                    sp(191.82086290063808, 181.10412144515095, c),
                    sp(218.60047285160002, 36.87872397724582, l),
                    sp(0.0, 203.2903839732208, c),
                ],
            ),
        ],
    };
    check_all("mouth corner between millimetre edges", &input);
}

/// Five random splines (the first failing case of `random_splines_hold_every_invariant` on
/// seed 563) that cross within a few metres of each other: road `s3` leaves junction
/// `j/s0/145.42` and comes back to it after 3.93 m, and that sliver of road, taken into the
/// junction, ran across junction `j/s2/60.02`; the two overlapped by 2.64 m². The junction now
/// takes only the part of the sliver that no other junction covers.
#[test]
fn sliver_taken_into_a_junction_leaves_its_neighbours_surface() {
    let c = PointKind::Curve;
    let l = PointKind::Linear;
    let input = Input {
        roads: vec![
            spline(
                "s0",
                4.0,
                vec![
                    sp(84.81676481937335, 276.5874811271274, c),
                    sp(228.7122298840628, 152.69196094402412, l),
                    sp(0.0, 47.90034799660789, c),
                ],
            ),
            spline(
                "s1",
                4.0,
                vec![sp(257.1942500903651, 252.05562099116193, c), sp(57.598843229275836, 23.506291912260217, c)],
            ),
            spline(
                "s2",
                10.427329343600036,
                vec![sp(212.43475585488105, 290.89708856673246, c), sp(242.04137388840206, 17.601567974554197, c)],
            ),
            spline(
                "s3",
                9.053769881656903,
                vec![sp(16.261818959033903, 49.43061437730045, c), sp(288.3094524447645, 268.3138332147745, c)],
            ),
            spline(
                "s4",
                9.135363528136946,
                vec![sp(224.4814986534457, 231.79018523529984, c), sp(0.0, 209.21373034212024, c)],
            ),
        ],
    };
    let net = check_all("sliver across a neighbour", &input);
    assert!(
        net.diagnostics
            .iter()
            .any(|d| d.code == DiagnosticCode::JunctionsMerged && d.message.contains("comes back to it")),
        "the sliver of s3 is junction surface: {:?}",
        net.diagnostics
    );
}

/// Two closed loops and a road across them (the first failing case of
/// `closed_loops_hold_every_invariant` on seed 593): the outline of block `b/o1/99.0/L` started
/// at the tip of a spike of no width, which the cleaning kept (see the `blocks` test
/// `spike_at_a_rings_start_is_cleaned`), and its platform had 6 open edges.
#[test]
fn block_outline_from_a_spike_tip_is_cleaned() {
    let input = roads(&[
        (
            "o0",
            6.072598899699503,
            true,
            &[
                (114.81881400900173, 106.72190013633295),
                (70.26044579010716, 120.8640357600639),
                (56.118310166376205, 126.72190013633295),
                (41.97617454264525, 120.8640357600639),
                (36.118310166376205, 106.72190013633295),
                (41.97617454264525, 92.579764512602),
                (56.1183101663762, 62.39217933250254),
                (87.65608456813102, 75.18412573457812),
            ],
        ),
        (
            "o1",
            6.282938199201906,
            true,
            &[
                (137.5703902304396, 53.85878536104652),
                (130.04018626761427, 69.49541501040711),
                (108.29818056747204, 94.48299022711007),
                (57.53784169009278, 82.76893704040852),
                (90.95878796905141, 41.04331314616094),
                (113.11997155131333, 34.36022711741005),
                (130.04018626761427, 38.22215571168592),
            ],
        ),
        ("across", 7.0, false, &[(-100.0, 30.0), (250.0, 120.0)]),
    ]);
    check_all("block outline from a spike tip", &input);
}

/// A road that runs 190 m from a T-junction, turns back in a hairpin and ends 100 m later (the
/// minimal failing case of `random_splines_hold_every_invariant` on seed 769). The piece's
/// polygon is triangulated (its corners moved to the sweep's), and each vertex takes `v` from
/// its nearest centerline segment: rstar's single nearest-neighbour search gave a vertex at a
/// corner of the dead end's cap the piece's first segment (186 m long), 38 m away, where the
/// last segment lay 3.06 m away, so `v` there was 158.7 m of the road instead of about 418. The
/// nearest segment is now found by rstar's nearest-neighbour iterator.
#[test]
fn a_dead_end_cap_beside_a_hairpin_takes_v_from_its_own_segment() {
    let c = PointKind::Curve;
    let l = PointKind::Linear;
    let input = Input {
        roads: vec![
            spline(
                "s0",
                6.115996069032594,
                vec![
                    sp(214.36332820543493, 190.82271479124122, l),
                    sp(5.6060577587418985, 36.8596019306594, c),
                    sp(66.50667236780296, 125.44244620331844, c),
                ],
            ),
            spline(
                "s1",
                10.588008852787441,
                vec![
                    sp(0.0, 248.8545769927085, c),
                    sp(140.32405191279813, 180.94323859022344, c),
                    sp(164.522480511542, 147.2119638006821, c),
                ],
            ),
        ],
    };
    check_all("hairpin to a dead end", &input);
}

/// A star of 13 arms of 179 m from one point, several a fraction of a degree apart (the minimal
/// failing case of `rotation_does_not_matter` on seed 663, turned by 0.702 rad). The junction
/// of all 13 arms yields the carriageway of piece `r/a7/0.00`, which its surface buries, in
/// place (3,192.9 m²) but refused to when turned (3,267.8 m²): the cut outline passed 1.8e-8 m
/// from `a6`'s mouth corner, beside a tooth of two vertices 5e-5 m from it, and moving the
/// nearest vertex onto the corner made the ring cross itself, so the cut would lose a stitched
/// corner. The cut's rounding twins are now dropped around each corner (`drop_twins`), as the
/// finished outline's are.
#[test]
fn a_star_of_thirteen_arms_yields_the_same_carriageway_when_turned() {
    const W: f64 = 4.79832853747044;
    let input = roads(&[
        ("a0", W, false, &[(0.0, 0.0), (53.74550900599197, 170.7525665429655)]),
        ("a1", W, false, &[(0.0, 0.0), (177.34176517491372, 24.390921343171517)]),
        ("a2", W, false, &[(0.0, 0.0), (175.8355880540656, 33.568805355626964)]),
        ("a3", W, false, &[(0.0, 0.0), (178.98252103962892, -3.2056016006057435)]),
        ("a4", W, false, &[(0.0, 0.0), (178.9994454647555, 2.0535926161348996)]),
        ("a5", W, false, &[(0.0, 0.0), (178.86186790193804, 7.31101429028041)]),
        ("a6", W, false, &[(0.0, 0.0), (176.89597922185345, 27.437770581164404)]),
        ("a7", W, false, &[(0.0, 0.0), (175.65423475307492, 34.50519573389876)]),
        ("a8", W, false, &[(0.0, 0.0), (174.1302463655431, 41.517177408854316)]),
        ("a9", W, false, &[(0.0, 0.0), (-151.0667444287834, -96.04091548403552)]),
        ("a10", W, false, &[(0.0, 0.0), (171.0039752089993, -52.94014716680498)]),
        ("a11", W, false, &[(0.0, 0.0), (171.18772899389307, -52.34290936923967)]),
        ("a12", W, false, &[(0.0, 0.0), (171.36939691033263, -51.74503378984212)]),
    ]);
    same_when_rotated("star of thirteen arms", &input, 0.7019311110441475);
}

/// Three splines (the minimal failing case of `random_splines_hold_every_invariant` on seed
/// 895). Piece `r/s2/333.70` starts at junction `j/s0/21.68` where its curb folds at the mouth:
/// its polygon has the mouth corner and two more vertices within 1.9 mm of it. Its mesh is its
/// polygon triangulated with the corner on the junction's vertex, but no triangle kept had the
/// corner, so no road vertex lay on the junction's. A triangulation that loses a corner now
/// gives way to the held sweep, whose corners are the junction's vertices.
#[test]
fn a_mouth_corner_beside_a_millimetre_fold_of_the_curb_stays_in_the_road_mesh() {
    let c = PointKind::Curve;
    let input = Input {
        roads: vec![
            spline(
                "s0",
                8.876863683173664,
                vec![sp(266.82478592545675, 258.75746043009457, c), sp(157.85155689389387, 0.0, c)],
            ),
            spline(
                "s1",
                4.0,
                vec![sp(117.42895644513887, 139.88821032317023, c), sp(267.8483518722292, 245.39932318951716, c)],
            ),
            spline(
                "s2",
                6.358971023005344,
                vec![
                    sp(0.0, 29.01404068717942, c),
                    sp(174.83967432172236, 124.6363407636372, c),
                    sp(254.72570545210368, 256.03948507366556, c),
                    sp(62.55696449427127, 64.85369977347068, c),
                ],
            ),
        ],
    };
    check_all("fold at a mouth", &input);
}

/// Property seed 904: four splines crossing within a few metres. Two of their crossings, 11.5 m
/// apart, make one base junction whose curbs overlap, so its outline is the union of its arms'
/// stubs; the stubs from one crossing touch none from the other. The hull of the arms' starts
/// that should bridge the two was no area (two points and their midpoint), so the outline kept
/// the larger part and dropped the other's three mouths, leaving 5.75 m of carriageway between
/// the junction and road `s2`'s next piece that no feature covered. The hull of the arms' first
/// cross-sections now bridges them.
#[test]
fn a_junction_of_two_crossings_whose_stubs_do_not_meet_keeps_the_mouths_of_both() {
    let c = PointKind::Curve;
    let input = Input {
        roads: vec![
            spline(
                "s0",
                4.0,
                vec![sp(256.4699951933782, 6.266447602609309, c), sp(62.673176156528925, 110.35067695538339, c)],
            ),
            spline(
                "s1",
                4.0,
                vec![
                    sp(84.41115908662945, 95.96465372297725, c),
                    sp(293.89659394420926, 14.50141249351733, c),
                    sp(266.34623682934705, 105.85465647810527, c),
                ],
            ),
            spline(
                "s2",
                11.491855917721157,
                vec![
                    sp(204.4171748077087, 197.28992106286927, c),
                    sp(13.973668932313643, 101.55222702094318, c),
                    sp(283.9009778548104, 19.641855175983522, c),
                ],
            ),
            spline("s3", 4.0, vec![sp(0.0, 222.3069476355219, c), sp(238.8309822342466, 8.795293044543131, c)]),
        ],
    };
    check_all("two crossings in one fallback junction", &input);
}

/// Property seed 1204: a lot that ends in a tip a few centimetres wide, where one lot vertex
/// lies 0.017 mm from the line through two others. The block's top, triangulated with the lot
/// rings inside, had a triangle of 2.2·10⁻⁷ m² there, below the smallest kept: left out, it
/// opened the block's mesh (three edges not closed). That lot vertex is now taken out of the
/// top's copy of the ring.
#[test]
fn a_lot_tip_a_few_centimetres_wide_leaves_the_block_mesh_closed() {
    let (c, l) = (PointKind::Curve, PointKind::Linear);
    let input = Input {
        roads: vec![
            spline(
                "s0",
                4.7869175840632066,
                vec![
                    sp(125.26821440201219, 73.7079746284889, c),
                    sp(271.15049174742506, 73.61424042395919, c),
                    sp(218.01335377395418, 222.55383714774914, c),
                ],
            ),
            spline(
                "s1",
                6.497275465262332,
                vec![
                    sp(178.82642612196435, 105.6527153782665, c),
                    sp(260.4213591537316, 157.6360799486487, c),
                    sp(164.08622572874702, 27.443261027270957, c),
                ],
            ),
            spline(
                "s2",
                11.352519956873184,
                vec![
                    sp(143.8119591556934, 255.30374429865478, c),
                    sp(232.03053608416627, 71.99699768631227, l),
                    sp(281.1768905955729, 237.5476786912918, c),
                ],
            ),
        ],
    };
    check_all("lot tip", &input);
}

/// Property seed 1329: a road 10.4 m wide that turns back on itself in a hairpin tighter than
/// its width, the tip a junction of four arms (both legs, both ends of the tip). Unburying the
/// tip's mouths moved them 4 cm along a stretch where the curb folds, taken as the one ring of
/// `strip`, which does not hold the carriageway there: the junction's union with it came out
/// 1.4 m² smaller than the surface before, without the mouths of both legs ("r/s0/328.72 end
/// 0: mouth corner ... is not a vertex of junction j/s0/318.28"). A stretch is now the parts
/// of `strip_parts`, as an arm's stub is.
#[test]
fn a_hairpin_tip_unburied_along_a_folded_curb_keeps_the_mouths_of_its_legs() {
    let c = PointKind::Curve;
    let input = Input {
        roads: vec![
            spline(
                "s0",
                10.360985802905683,
                vec![
                    sp(109.75318533762781, 277.07910221140673, c),
                    sp(260.12444021923125, 1.2545178660288692, c),
                    sp(205.5512157228252, 60.49322175663956, c),
                    sp(51.86922450606828, 28.76243244542208, c),
                ],
            ),
            spline("s1", 4.0, vec![sp(0.0, 0.0, c), sp(290.95246339320903, 33.57241106111707, c)]),
        ],
    };
    check_all("hairpin", &input);
}

/// Property seed 1463: four wide roads (8.6 to 11.3 m) that cross within a few metres and
/// turn sharply, merged into one junction of 8 arms. The strip of road that joins two of its
/// base junctions turns so sharply that a curb folds, and was taken as the one ring of
/// `strip`, which does not hold the carriageway there: the union of the bases and strips came
/// out in two parts, and the smaller, with the mouths of three road pieces, was dropped
/// ("r/s1/0.00 end 1: mouth corner ... is not a vertex of junction j/s0/194.46"; the pieces
/// ended 6 to 27 m from the junction). When the union falls apart, it is now made again with
/// every strip whose curb folds taken as the parts of `strip_parts`, as a base's inner edges
/// are.
#[test]
fn a_merged_junction_joined_along_a_folded_curb_keeps_every_mouth() {
    let (c, l) = (PointKind::Curve, PointKind::Linear);
    let input = Input {
        roads: vec![
            spline(
                "s0",
                9.644077896770208,
                vec![
                    sp(69.44590253529026, 101.879066088217, c),
                    sp(188.21132451266783, 121.51216825810963, c),
                    sp(71.26393810499943, 201.68377106275162, c),
                    sp(268.76174081913837, 59.08676335269491, c),
                ],
            ),
            spline(
                "s1",
                9.561035266806694,
                vec![
                    sp(29.1376380092173, 113.70240345745141, c),
                    sp(32.20589757894729, 202.07187246900222, c),
                    sp(147.7705164845104, 117.44653095397378, l),
                    sp(280.7021290469508, 38.07633189843731, c),
                ],
            ),
            spline(
                "s2",
                11.321971056385468,
                vec![
                    sp(69.88401099298136, 272.1450356773349, c),
                    sp(130.8825404573688, 143.50187601782963, l),
                    sp(47.18497632144147, 124.05148100362427, c),
                ],
            ),
            spline(
                "s3",
                8.58629160736847,
                vec![sp(71.24956673808006, 191.73847966856675, c), sp(203.1064048546488, 189.14881628038222, c)],
            ),
        ],
    };
    check_all("folded join", &input);
}

/// Property seed 1854 (`translation_by_a_million_metres_does_not_matter`, shrunk to no
/// translation at all): thirteen roads of one width from one point, in four fans of nearly
/// parallel roads (a quarter of a degree apart), whose far ends meet again in pairs. The
/// outer mouth corner of `a9`, one of a fan of four, was a vertex of the junction at the
/// centre until the stitching of the mouths gave that vertex to the corner of `a10`, 4.7 cm
/// away on `a9`'s carriageway, which came first: a vertex that already is a corner now stays
/// that corner, and corners that are vertices already are stitched first.
#[test]
fn fans_of_nearly_parallel_roads_keep_every_mouth() {
    let w = 4.43544757019133;
    let ends: [(&str, (f64, f64)); 13] = [
        ("a0", (77.44317461191295, 20.063765998155993)),
        ("a1", (77.37266718841524, 20.333970889886007)),
        ("a2", (77.30121700338516, 20.603928018597742)),
        ("a3", (77.22882492742067, 20.873634094948777)),
        ("a4", (61.14570182685569, 51.58685053481416)),
        ("a5", (60.96525759348924, 51.79997458068395)),
        ("a6", (79.9835128727945, 1.6240900613929274)),
        ("a7", (79.97735645359171, 1.9032747292844798)),
        ("a8", (79.97022553553984, 2.182436206374093)),
        ("a9", (-31.07461502996378, -73.71816805062066)),
        ("a10", (-30.817101285141398, -73.8261895832457)),
        ("a11", (-30.559212043665145, -73.93331156704879)),
        ("a12", (-30.300950447833976, -74.0395326967824)),
    ];
    let pts: Vec<[(f64, f64); 2]> = ends.iter().map(|&(_, e)| [(0.0, 0.0), e]).collect();
    let list: Vec<RoadSpec> = ends.iter().zip(&pts).map(|(&(id, _), p)| (id, w, false, &p[..])).collect();
    check_all("fans", &roads(&list));
}

/// Property seed 1917 (`closed_loops_hold_every_invariant`): three closed loops; the mouth of
/// `o2`'s piece from 97.53 m must be a vertex of junction `j/o0/142.49`. A known failure (the
/// junction's outline passes 22 cm inside the mouth corner; docs/ROBUSTNESS.md, "Known
/// failures").
#[test]
#[ignore = "known failure: docs/ROBUSTNESS.md, property seed 1917"]
fn three_loops_of_seed_1917_keep_every_mouth() {
    let input = roads(&[
        (
            "o0",
            4.6619846065666035,
            true,
            &[
                (116.06152132716684, 149.2525472013518),
                (102.24186121466579, 168.27367752725488),
                (79.8811814396679, 161.00825224720126),
                (53.37685591259778, 118.24032248398781),
                (118.33972580348401, 80.68728404676635),
            ],
        ),
        (
            "o1",
            8.103110882053343,
            true,
            &[
                (96.75552780557446, 105.23102411097956),
                (71.52037759854721, 156.96834256941662),
                (19.783059140110154, 125.23102411097956),
                (5.640923516379205, 119.37315973471051),
                (-0.21694085988984568, 105.23102411097956),
                (5.6409235163792, 91.08888848724861),
                (19.78305914011015, 85.23102411097956),
                (72.97803300136681, 52.03605024972287),
            ],
        ),
        (
            "o2",
            4.5551523983073094,
            true,
            &[
                (142.1484644722587, 48.56739664081238),
                (136.29060009598965, 62.709532264543334),
                (122.1484644722587, 112.3379046828774),
                (89.23434137459233, 81.48151973847874),
                (83.04936384954044, 48.56739664081239),
                (108.00632884852774, 34.42526101708143),
                (122.1484644722587, 28.567396640812383),
                (136.29060009598965, 34.425261017081425),
            ],
        ),
    ]);
    check_all("closed loops", &input);
}

/// Property seed 2297 (`closed_loops_hold_every_invariant`): three closed loops and a straight
/// road across them; the mouth of `o0`'s piece from 197.84 m must be a vertex of junction
/// `j/across/253.19`. The strip of `o2` between two of the merged junction's bases ended on
/// `o2`'s sharp corner, with that corner's next cross-section: a ring crossing itself, whose
/// lobe of the wrong sign cut the stretch of the junction that holds `o0`'s mouth away from
/// the rest, and the junction kept its largest part (the mouth corner then lay 5.2 m from its
/// outline).
#[test]
fn three_loops_and_a_road_of_seed_2297_keep_every_mouth() {
    let input = roads(&[
        (
            "o0",
            5.006129583563891,
            true,
            &[
                (166.36626474417204, 133.63183285891915),
                (92.13418931597363, 175.63260342729842),
                (94.43640172278303, 95.61861114894927),
            ],
        ),
        (
            "o1",
            8.283700195247635,
            true,
            &[
                (138.23877253082782, 46.107688892385845),
                (156.2786014726884, 84.14751783424643),
                (118.23877253082782, 114.77982488658114),
                (76.22477939511116, 88.12168202810251),
                (98.23877253082782, 46.107688892385845),
                (104.09663690709687, 31.965553268654894),
                (118.23877253082782, 26.107688892385845),
                (132.38090815455877, 31.96555326865489),
            ],
        ),
        (
            "o2",
            8.134942850802965,
            true,
            &[
                (155.55292666591293, 80.75875921423547),
                (162.21899602842166, 127.89276838811764),
                (122.09053354754957, 103.12928588684514),
                (115.00616314389447, 80.75875921423547),
                (125.00616314389445, 63.438251138546704),
                (145.00616314389447, 63.4382511385467),
            ],
        ),
        ("across", 7.0, false, &[(-100.0, 30.0), (250.0, 120.0)]),
    ]);
    check_all("closed loops", &input);
}

/// Property seed 2555 (`random_splines_hold_every_invariant`): three splines; the mouth of
/// `s2`'s piece from 10.70 m must be a vertex of junction `j/s0/369.67`. A known failure
/// (`s2` runs along `s0`, over it, into a merged junction of ten arms built from the union of
/// its arms; docs/ROBUSTNESS.md, "Known failures").
#[test]
#[ignore = "known failure: docs/ROBUSTNESS.md, property seed 2555"]
fn three_splines_of_seed_2555_keep_every_mouth() {
    let c = PointKind::Curve;
    let input = Input {
        roads: vec![
            spline(
                "s0",
                7.057786926619546,
                vec![
                    sp(232.59199684734833, 246.79122912739146, c),
                    sp(178.81919039804896, 0.0, c),
                    sp(59.408433629334596, 253.96917399701093, c),
                    sp(257.70328927320844, 47.1008959075602, c),
                ],
            ),
            spline(
                "s1",
                6.518550951360127,
                vec![sp(277.7047413065348, 272.4896978808805, c), sp(35.537915297482506, 22.082812852168065, c)],
            ),
            spline(
                "s2",
                4.387736227079197,
                vec![
                    sp(118.33212849177185, 92.78339395169604, c),
                    sp(39.661927466692596, 219.49948790308113, c),
                    sp(155.91057650519986, 14.029788718784959, c),
                    sp(19.002598454901403, 252.32042959468697, c),
                ],
            ),
        ],
    };
    check_all("random splines", &input);
}

/// Property seed 2714 (`random_splines_hold_every_invariant`): three splines, `s0` turning
/// sharply at a linear point; the mouth of `s0`'s piece from 241.77 m must be a vertex of
/// junction `j/s0/241.77`. A known failure (the mouth lies within a half-width of the sharp
/// corner; docs/ROBUSTNESS.md, "Known failures").
#[test]
#[ignore = "known failure: docs/ROBUSTNESS.md, property seed 2714"]
fn three_splines_of_seed_2714_keep_every_mouth() {
    let (l, c) = (PointKind::Linear, PointKind::Curve);
    let input = Input {
        roads: vec![
            spline(
                "s0",
                10.170671967317837,
                vec![
                    sp(13.933096083422615, 230.74207321579811, c),
                    sp(271.3695530508932, 211.777618524243, l),
                    sp(176.94690063033877, 129.01894157003744, c),
                ],
            ),
            spline(
                "s1",
                9.817767635764469,
                vec![
                    sp(228.81762175106172, 276.83976316088496, l),
                    sp(286.09682060523625, 296.08160349190223, c),
                    sp(150.8138836684386, 39.68986793325844, c),
                ],
            ),
            spline(
                "s2",
                4.545754959761438,
                vec![
                    sp(168.26243645338369, 13.184471873597703, c),
                    sp(279.5432826791509, 210.84059175744494, c),
                    sp(123.56518271225418, 277.5830570321366, c),
                ],
            ),
        ],
    };
    check_all("random splines", &input);
}
