//! Hostile inputs through the core: never a panic; a bad road is left out with a diagnostic
//! that names it, and the rest of the network is still built.

mod common;

use roadgen::core::{
    build, DiagnosticCode, Error, FeatureMesh, Input, Network, Point, Point3, Road, RoadGeometry, Settings,
};

/// [`common::build_checked`] (the network, built twice, with every invariant), then
/// [`common::meshes_checked`] on it (its meshes, built twice, with every invariant), so that a
/// panic or a bad mesh in the mesh stage shows too; returns the network and its meshes.
fn build_and_mesh_checked(what: &str, input: &Input, settings: &Settings) -> (Network, Vec<FeatureMesh>) {
    let (net, _) = common::build_checked(what, input, settings);
    let meshes = common::meshes_checked(what, &net, settings, input);
    (net, meshes)
}

fn pl(id: &str, w: f64, pts: &[(f64, f64)]) -> Road {
    Road {
        id: id.into(),
        width: w,
        layer: 0,
        closed: false,
        has_height: false,
        profile: Default::default(),
        geometry: RoadGeometry::Polyline(pts.iter().map(|&(x, y)| Point3::new(x, y, 0.0)).collect()),
    }
}

fn cross(offset: f64) -> Vec<Road> {
    vec![
        pl("ok_a", 7.0, &[(offset - 100.0, offset), (offset + 100.0, offset)]),
        pl("ok_b", 7.0, &[(offset, offset - 100.0), (offset, offset + 100.0)]),
    ]
}

/// `bad` is left out with a `road_skipped` diagnostic naming it; the crossing of the two good
/// roads is still built.
fn skipped_but_rest_built(name: &str, bad: Road) {
    let mut roads = cross(0.0);
    let id = bad.id.clone();
    roads.push(bad);
    let (net, _) = build_and_mesh_checked(name, &Input { roads }, &Settings::default());
    assert!(
        net.diagnostics.iter().any(|d| d.code == DiagnosticCode::RoadSkipped && d.road.as_deref() == Some(&id)),
        "{name}: {:?}",
        net.diagnostics
    );
    assert_eq!(net.junctions.len(), 1, "{name}");
    assert_eq!(net.pieces.iter().filter(|p| p.road.starts_with("ok_")).count(), 4, "{name}");
}

#[test]
fn bad_roads_are_left_out_with_a_diagnostic() {
    skipped_but_rest_built("one point", pl("bad", 7.0, &[(5.0, 5.0)]));
    skipped_but_rest_built("identical points", pl("bad", 7.0, &[(5.0, 5.0), (5.0, 5.0), (5.0, 5.0)]));
    skipped_but_rest_built("NaN coordinate", pl("bad", 7.0, &[(0.0, f64::NAN), (10.0, 10.0)]));
    skipped_but_rest_built("infinite coordinate", pl("bad", 7.0, &[(0.0, f64::INFINITY), (10.0, 10.0)]));
    skipped_but_rest_built("NaN width", pl("bad", f64::NAN, &[(0.0, 10.0), (10.0, 10.0)]));
    skipped_but_rest_built("zero width", pl("bad", 0.0, &[(0.0, 10.0), (10.0, 10.0)]));
    skipped_but_rest_built("negative width", pl("bad", -3.0, &[(0.0, 10.0), (10.0, 10.0)]));
    skipped_but_rest_built("coordinates of 1e200", pl("bad", 7.0, &[(1e200, 0.0), (-1e200, 0.0)]));
    skipped_but_rest_built("duplicate id", pl("ok_a", 7.0, &[(300.0, 0.0), (400.0, 0.0)]));
}

#[test]
fn strict_mode_stops_at_the_first_bad_road() {
    let mut roads = cross(0.0);
    roads.push(pl("bad", -1.0, &[(0.0, 10.0), (10.0, 10.0)]));
    let strict = Settings { strict: true, ..Settings::default() };
    match build(&Input { roads }, &strict) {
        Err(Error::BadRoad { road, .. }) => assert_eq!(road, "bad"),
        other => panic!("expected BadRoad, got {other:?}"),
    }
}

#[test]
fn degenerate_geometry_still_gives_a_valid_network() {
    let cases: Vec<(&str, Vec<Road>)> = vec![
        ("empty", Vec::new()),
        ("far from the origin (1e7 m)", cross(1e7)),
        ("tiny width", vec![pl("a", 1e-6, &[(0.0, 0.0), (100.0, 0.0)]), pl("b", 1e-6, &[(50.0, -50.0), (50.0, 50.0)])]),
        ("huge width", vec![pl("a", 1e5, &[(0.0, 0.0), (100.0, 0.0)]), pl("b", 7.0, &[(50.0, -50.0), (50.0, 50.0)])]),
        (
            "crossing itself many times",
            vec![pl(
                "a",
                7.0,
                &(0..40)
                    .map(|i| (i as f64 * 10.0, if i % 2 == 0 { 0.0 } else { 60.0 }))
                    .chain([(200.0, -30.0), (200.0, 100.0)])
                    .collect::<Vec<_>>(),
            )],
        ),
        (
            "zigzag tighter than its width",
            vec![pl(
                "a",
                7.0,
                &(0..200).map(|i| (i as f64 * 0.5, if i % 2 == 0 { 0.0 } else { 3.0 })).collect::<Vec<_>>(),
            )],
        ),
        ("hairpin", vec![pl("a", 10.0, &[(0.0, 0.0), (100.0, 0.0), (0.0, 1.0)])]),
        (
            "closed loop of three points",
            vec![Road { closed: true, ..pl("a", 7.0, &[(0.0, 0.0), (30.0, 0.0), (15.0, 20.0)]) }],
        ),
        (
            "closed loop tighter than its width",
            vec![Road { closed: true, ..pl("a", 7.0, &[(0.0, 0.0), (3.0, 0.0), (1.5, 2.0)]) }],
        ),
        (
            "two identical roads",
            vec![pl("a", 7.0, &[(0.0, 0.0), (100.0, 0.0)]), pl("b", 7.0, &[(0.0, 0.0), (100.0, 0.0)])],
        ),
    ];
    for (name, roads) in cases {
        build_and_mesh_checked(name, &Input { roads }, &Settings::default());
    }
}

// One test per row of the hostile-input table in docs/ROBUSTNESS.md.

/// The `road_skipped` diagnostic of road `id`.
fn skipped<'a>(net: &'a roadgen::core::Network, id: &str) -> &'a roadgen::core::Diagnostic {
    net.diagnostics
        .iter()
        .find(|d| d.code == DiagnosticCode::RoadSkipped && d.road.as_deref() == Some(id))
        .unwrap_or_else(|| panic!("no road_skipped for {id}: {:?}", net.diagnostics))
}

/// `bad` is left out with a message that names it (and contains `says`); the rest is built.
fn skipped_saying(name: &str, bad: Road, says: &str) {
    let mut roads = cross(0.0);
    roads.push(bad);
    let (net, _) = build_and_mesh_checked(name, &Input { roads }, &Settings::default());
    let d = skipped(&net, "bad");
    assert!(d.message.contains("road bad") && d.message.contains(says), "{name}: {}", d.message);
    assert_eq!(net.junctions.len(), 1, "{name}");
    assert_eq!(net.pieces.len(), 4, "{name}");
}

#[test]
fn empty_input_gives_an_empty_network() {
    let net = build(&Input::default(), &Settings::default()).unwrap();
    assert_eq!(net, roadgen::core::Network::default());
}

#[test]
fn road_with_one_point_is_skipped() {
    skipped_saying("one point", pl("bad", 7.0, &[(5.0, 5.0)]), "at least 2 distinct points");
}

#[test]
fn road_with_all_points_identical_is_skipped() {
    skipped_saying("identical points", pl("bad", 7.0, &[(5.0, 5.0); 4]), "at least 2 distinct points");
}

#[test]
fn consecutive_duplicate_points_are_merged() {
    let clean =
        vec![pl("a", 7.0, &[(-100.0, 0.0), (0.0, 0.0), (100.0, 0.0)]), pl("b", 7.0, &[(0.0, -100.0), (0.0, 100.0)])];
    let repeated = vec![
        pl("a", 7.0, &[(-100.0, 0.0), (-100.0, 0.0), (0.0, 0.0), (0.0, 0.0), (0.0, 0.0), (100.0, 0.0)]),
        pl("b", 7.0, &[(0.0, -100.0), (0.0, 100.0), (0.0, 100.0)]),
    ];
    let (a, _) = build_and_mesh_checked("clean", &Input { roads: clean }, &Settings::default());
    let (b, _) = build_and_mesh_checked("repeated points", &Input { roads: repeated }, &Settings::default());
    assert_eq!(a, b);
}

#[test]
fn non_finite_coordinates_are_skipped_naming_the_point() {
    for (name, v) in [("NaN", f64::NAN), ("+inf", f64::INFINITY), ("-inf", f64::NEG_INFINITY)] {
        skipped_saying(
            name,
            pl("bad", 7.0, &[(0.0, 10.0), (10.0, 10.0), (20.0, v)]),
            "point 2: coordinate is not finite",
        );
    }
}

#[test]
fn non_finite_widths_are_skipped() {
    for w in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        skipped_saying(&format!("width {w}"), pl("bad", w, &[(0.0, 10.0), (10.0, 10.0)]), "width");
    }
}

#[test]
fn zero_and_negative_widths_are_skipped() {
    for w in [0.0, -0.0, -3.0] {
        skipped_saying(&format!("width {w}"), pl("bad", w, &[(0.0, 10.0), (10.0, 10.0)]), "is not a positive number");
    }
}

/// A width beyond `max_coordinate` is left out; a huge one below it (100 km) is built.
#[test]
fn enormous_widths() {
    skipped_saying("width 1e12", pl("bad", 1e12, &[(0.0, 10.0), (10.0, 10.0)]), "is not a positive number up to");
    let roads = vec![pl("a", 1e5, &[(0.0, 0.0), (100.0, 0.0)]), pl("b", 7.0, &[(50.0, -50.0), (50.0, 50.0)])];
    let (net, _) = build_and_mesh_checked("width 1e5", &Input { roads }, &Settings::default());
    assert!(!net.diagnostics.iter().any(|d| d.code == DiagnosticCode::RoadSkipped));
    let wide =
        net.pieces.iter().any(|p| p.road == "a") || net.junctions.iter().any(|j| j.roads.iter().any(|r| r == "a"));
    assert!(wide, "the 100 km wide road is lost: {net:?}");
}

/// At 1e7 m from the origin a crossing is built as it is at the origin.
#[test]
fn coordinates_of_1e7_m() {
    let (here, _) = build_and_mesh_checked("at the origin", &Input { roads: cross(0.0) }, &Settings::default());
    let (far, _) = build_and_mesh_checked("at 1e7 m", &Input { roads: cross(1e7) }, &Settings::default());
    assert_eq!((far.junctions.len(), far.pieces.len(), far.blocks.len()), (1, 4, 0));
    let area = |n: &roadgen::core::Network| roadgen::core::validate::polygon_area(&n.junctions[0].polygon);
    assert!((area(&here) - area(&far)).abs() < 1e-3 * area(&here), "{} m² vs {} m²", area(&here), area(&far));
    assert!(far.junctions[0].polygon.exterior.iter().all(|p| (p.x - 1e7).abs() < 100.0 && (p.y - 1e7).abs() < 100.0));
}

/// Two identical roads across a third: one junction where they cross it, both roads there,
/// every invariant holds (the two copies share one carriageway, see docs/ROBUSTNESS.md).
#[test]
fn two_identical_roads_on_top_of_each_other() {
    let roads = vec![
        pl("a", 7.0, &[(-100.0, 0.0), (100.0, 0.0)]),
        pl("b", 7.0, &[(-100.0, 0.0), (100.0, 0.0)]),
        pl("c", 7.0, &[(0.0, -100.0), (0.0, 100.0)]),
    ];
    let (net, _) = build_and_mesh_checked("identical roads", &Input { roads }, &Settings::default());
    let met: std::collections::BTreeSet<&str> =
        net.junctions.iter().flat_map(|j| j.roads.iter().map(|r| r.as_str())).collect();
    assert!(["a", "b", "c"].iter().all(|r| met.contains(r)), "{met:?}");
    assert!(!net.diagnostics.iter().any(|d| d.code == DiagnosticCode::RoadSkipped));
}

/// A road that runs along half of another: every invariant holds, both roads are kept.
#[test]
fn road_overlapping_another_along_part_of_its_length() {
    let roads = vec![pl("a", 7.0, &[(-100.0, 0.0), (100.0, 0.0)]), pl("b", 7.0, &[(0.0, 0.0), (200.0, 0.0)])];
    let (net, _) = build_and_mesh_checked("partial overlap", &Input { roads }, &Settings::default());
    for r in ["a", "b"] {
        assert!(net.junctions.iter().any(|j| j.roads.iter().any(|x| x == r)), "{r} meets no junction");
    }
}

/// A zigzag crossed by its own last leg 39 times: its crossings are closer together than their
/// setbacks, so they merge into junctions of road `a` (`junctions_merged`); all valid.
#[test]
fn road_crossing_itself_many_times() {
    let mut pts: Vec<(f64, f64)> = (0..40).map(|i| (i as f64 * 10.0, if i % 2 == 0 { 0.0 } else { 60.0 })).collect();
    pts.extend([(400.0, 30.0), (-10.0, 30.0)]);
    let (net, _) =
        build_and_mesh_checked("self crossings", &Input { roads: vec![pl("a", 3.0, &pts)] }, &Settings::default());
    assert!(!net.junctions.is_empty());
    assert!(net.junctions.iter().all(|j| j.roads == ["a"]));
    assert!(net
        .diagnostics
        .iter()
        .any(|d| d.code == DiagnosticCode::JunctionsMerged && d.road.as_deref() == Some("a")));
}

/// Given zero-length tangents (a curve with a stop at each point) and a cusp (tangents that
/// turn the curve back on itself) are curves like any other: the road is built.
#[test]
fn spline_with_a_zero_length_tangent_or_a_cusp() {
    use roadgen::core::{PointKind, SplinePoint};
    let zero = Point3::new(0.0, 0.0, 0.0);
    let sp = |x: f64, y: f64, t: Option<Point3>| SplinePoint {
        location: Point3::new(x, y, 0.0),
        arrive_tangent: t,
        leave_tangent: t,
        kind: PointKind::CurveCustomTangent,
    };
    let spline = |id: &str, pts: Vec<SplinePoint>| Road { geometry: RoadGeometry::Spline(pts), ..pl(id, 7.0, &[]) };
    // Cusp: a cubic whose control polygon crosses itself (tangents pointing across each other).
    let cusp = Point3::new(300.0, 0.0, 0.0);
    let roads = vec![
        spline("zero", vec![sp(-100.0, 20.0, Some(zero)), sp(0.0, 40.0, Some(zero)), sp(100.0, 20.0, Some(zero))]),
        spline(
            "cusp",
            vec![
                SplinePoint { leave_tangent: Some(cusp), ..sp(-50.0, -100.0, None) },
                SplinePoint { arrive_tangent: Some(cusp), ..sp(50.0, -100.0, None) },
            ],
        ),
        pl("c", 7.0, &[(0.0, -200.0), (0.0, 100.0)]),
    ];
    let (net, _) = build_and_mesh_checked("zero tangent and cusp", &Input { roads }, &Settings::default());
    assert!(!net.diagnostics.iter().any(|d| d.code == DiagnosticCode::RoadSkipped), "{:?}", net.diagnostics);
    for r in ["zero", "cusp"] {
        assert!(net.pieces.iter().any(|p| p.road == r), "{r} gives no piece");
    }
}

/// A closed loop of three points: one ring-shaped piece with no junction, the triangle inside
/// it one block.
#[test]
fn closed_loop_of_three_points() {
    let roads = vec![Road { closed: true, ..pl("a", 7.0, &[(0.0, 0.0), (60.0, 0.0), (30.0, 40.0)]) }];
    let (net, _) = build_and_mesh_checked("triangle loop", &Input { roads }, &Settings::default());
    assert_eq!((net.junctions.len(), net.pieces.len(), net.blocks.len()), (0, 1, 1));
    assert_eq!(net.pieces[0].polygon.holes.len(), 1);
}

/// 100,000 short roads (a 1 km square of 5 m segments, each its own road, in rows that touch
/// end to end) are built, and every invariant holds, in a few seconds in release mode.
#[test]
fn hundred_thousand_short_roads() {
    const SIDE: usize = 250;
    const STEP: f64 = 5.0;
    let mut roads = Vec::with_capacity(2 * SIDE * (SIDE - 1) + 1);
    for i in 0..SIDE {
        for j in 0..SIDE - 1 {
            let (a, b) = (i as f64 * 4.0 * STEP, j as f64 * STEP);
            roads.push(pl(&format!("h{i}_{j}"), 1.0, &[(b, a), (b + STEP, a)]));
            roads.push(pl(&format!("v{i}_{j}"), 1.0, &[(a + 2.0 * STEP, b), (a + 2.0 * STEP, b + STEP)]));
        }
    }
    roads.truncate(100_000);
    assert_eq!(roads.len(), 100_000);
    let start = std::time::Instant::now();
    let (net, _) = build_and_mesh_checked("100,000 roads", &Input { roads }, &Settings::default());
    println!("100,000 roads: {:.2} s (two builds and the checks)", start.elapsed().as_secs_f64());
    assert!(!net.diagnostics.iter().any(|d| d.code == DiagnosticCode::RoadSkipped));
    // Every road is a piece or lies inside a junction (a 5 m road between two end-to-end
    // junctions is shorter than their setbacks).
    let mut kept: std::collections::BTreeSet<&str> = net.pieces.iter().map(|p| p.road.as_str()).collect();
    kept.extend(net.junctions.iter().flat_map(|j| j.roads.iter().map(|r| r.as_str())));
    assert_eq!(kept.len(), 100_000, "a road was lost");
}

/// The reader's error for `text` (as file `f.json`): one line naming the file.
fn read_error(text: &str) -> String {
    let opts = roadgen_formats::ReadOptions::default();
    match roadgen_formats::read_str(text, "f.json", &opts) {
        Ok(l) => panic!("read {text:?} as {} roads", l.input.roads.len()),
        Err(e) => {
            let msg = e.to_string();
            assert!(msg.starts_with("f.json: ") && !msg.contains('\n'), "{msg}");
            msg
        }
    }
}

#[test]
fn malformed_json_is_an_error_naming_line_and_column() {
    let msg = read_error("{\"roads\": [\n  {\"id\": \"a\", \"points\": [[0, 0], [1, 1]]},,\n]}");
    assert!(msg.contains("line 2 column"), "{msg}");
}

#[test]
fn wrong_types_are_an_error_naming_road_and_point() {
    let msg = read_error(r#"{"roads": [{"id": "a", "points": [[0, 0], [1, "x"]]}]}"#);
    assert!(msg.contains("road a, point 1"), "{msg}");
    let msg = read_error(r#"{"roads": [{"id": "a", "width": "wide", "points": [[0, 0], [1, 1]]}]}"#);
    assert!(msg.contains("road a") && msg.contains("width"), "{msg}");
    let msg = read_error(r#"{"roads": {"id": "a"}}"#);
    assert!(msg.contains("roads"), "{msg}");
}

#[test]
fn truncated_files_are_an_error() {
    let full = std::fs::read_to_string(common::data("golden/x.roads.json")).unwrap();
    for cut in [0, 1, full.len() / 3, full.len() / 2, full.len() - 2] {
        let msg = read_error(&full[..cut]);
        assert!(msg.contains("line") || msg.contains("empty"), "cut at {cut}: {msg}");
    }
}

/// Fuzzing regression (`pipeline` target): a sidewalk so wide (1e300 m) that the lot inset
/// went beyond the coordinate range of the polygon library, which panicked. The band covers
/// the whole block: the block has no lot.
#[test]
fn fuzz_huge_sidewalk_gives_no_lot() {
    let profile = roadgen::core::ProfileOverride {
        sidewalk_left: Some(1e300),
        sidewalk_right: Some(1e300),
        ..Default::default()
    };
    let roads = vec![Road { closed: true, profile, ..pl("a", 7.0, &[(0.0, 0.0), (60.0, 0.0), (30.0, 40.0)]) }];
    let (net, _) = build_and_mesh_checked("huge sidewalk", &Input { roads }, &Settings::default());
    assert_eq!(net.blocks.len(), 1);
    assert!(net.blocks[0].lots.is_empty());
}

/// Fuzzing regression (`pipeline` target, `timeout-3e3959b7…` and 4 more): a road of thousands
/// of kilometres flattened at the default tolerance has tens of thousands of vertices. Two
/// stages were quadratic in them: a road piece's mesh looked for each vertex's joint by
/// scanning the whole centerline (`mesh::joint`), and the triangulation inserted a block's
/// vertices in ring order, the worst order for a long thin polygon (`triangulate`, now bulk
/// loaded above `BULK_LOAD_MIN_VERTICES`). A closed road of 16,384 vertices (a circle of
/// 1,000 km) exercises both: its ring piece and the block inside it. Counts only: each mesh
/// stays proportional to the outline.
#[test]
fn fuzz_long_closed_road_meshes_in_bounded_work() {
    use roadgen::core::FeatureKind;
    const N: usize = 16_384;
    const RADIUS: f64 = 1e6;
    let pts: Vec<(f64, f64)> = (0..N)
        .map(|i| {
            let a = std::f64::consts::TAU * i as f64 / N as f64;
            (RADIUS * a.cos(), RADIUS * a.sin())
        })
        .collect();
    let roads = vec![Road { closed: true, ..pl("ring", 10.0, &pts) }];
    let settings = Settings::default();
    let (net, meshes) = build_and_mesh_checked("long closed road", &Input { roads }, &settings);
    assert_eq!(net.pieces.len(), 1);
    assert_eq!(net.blocks.len(), 1);
    let road = meshes.iter().find(|m| m.kind == Some(FeatureKind::Road)).unwrap();
    // Two curb points per centerline vertex (the seam's vertex twice).
    assert!(road.vertices.len() <= 2 * (N + 1), "{}", road.vertices.len());
    let block = meshes.iter().find(|m| m.kind == Some(FeatureKind::Block)).unwrap();
    let outline: usize =
        net.blocks[0].polygon.exterior.len() + net.blocks[0].lots.iter().map(|l| l.exterior.len()).sum::<usize>();
    // Top (band and lots), a skirt of four vertices per outline edge, and a bottom.
    assert!(block.vertices.len() <= 8 * outline, "{} vertices for an outline of {outline}", block.vertices.len());
}

/// Found by fuzzing (`pipeline` target: `timeout-24728d72…`, `timeout-4f951b81…` and 17 more):
/// roads of 10,000+ km (coordinates of 1e7 m) meet at a junction whose surface covers one of
/// their mouths, and `pipeline::unbury_mouths` marched out along the arm in steps of
/// `tolerance`, up to half the arm's length: 1.5e7 m / 0.05 m = 3e8 steps, each a
/// point-in-polygon test, for minutes to hours. It now takes, without testing them, the steps a
/// corner makes before it first comes near the outline (the same stopping point on the
/// tolerance grid, so outputs are unchanged): this build takes seconds, and a return of the
/// march would hang the test suite. Reproducer: `timeout-4f951b81…` (its third road, beyond
/// `max_coordinate`, left out).
#[test]
fn fuzz_far_roads_unbury_their_mouths_in_bounded_work() {
    use roadgen::core::{PointKind, ProfileOverride, SplinePoint};
    let sp = |x: f64, y: f64, leave: Option<(f64, f64)>, kind: PointKind| SplinePoint {
        location: Point3::new(x, y, 0.0),
        arrive_tangent: None,
        leave_tangent: leave.map(|(x, y)| Point3::new(x, y, 0.0)),
        kind,
    };
    let mut r2_points = vec![
        sp(0.44, 0.83, Some((40.0, 65.0)), PointKind::CurveCustomTangent),
        sp(-55.0, 70.0, None, PointKind::Linear),
        sp(60.0, -25.0, None, PointKind::CurveCustomTangent),
        sp(70.0, 29_795_000.0, None, PointKind::CurveCustomTangent),
        sp(40.0, 60.0, Some((45.0, 0.73)), PointKind::CurveClamped),
        sp(0.58, 0.51, Some((-65.0, 0.66)), PointKind::Curve),
        sp(45.0, -55.0, Some((-25.0, 12_598_000.0)), PointKind::Linear),
    ];
    r2_points[3].arrive_tangent = Some(Point3::new(0.5, 0.44, 0.0));
    let roads = vec![
        Road {
            geometry: RoadGeometry::Spline(vec![
                sp(-55.0, 60.0, None, PointKind::Constant),
                sp(3.068024418012226e-57, -25.0, None, PointKind::CurveCustomTangent),
                sp(-25.0, 12_598_000.0, None, PointKind::Linear),
            ]),
            ..pl("r0", 4.0, &[])
        },
        Road {
            geometry: RoadGeometry::Spline(r2_points),
            profile: ProfileOverride {
                curb_height: Some(69_579_522_885.196_18),
                curb_width: Some(0.0),
                sidewalk_left: Some(2.0),
                sidewalk_right: Some(1.0),
                ..Default::default()
            },
            ..pl("r2", 100.0, &[])
        },
    ];
    let (net, _) = build_and_mesh_checked("unbury march", &Input { roads }, &Settings::default());
    assert!(!net.junctions.is_empty());
}

/// Found by fuzzing (`json_pipeline` target, a timeout): the `loop_crossing` golden case with one
/// ring point moved 771,000 km away. A mouth buried in its junction marched out along the
/// 771,000 km arm in billions of repeated additions (13 s; minutes before the march skipped
/// untested steps); long skips now jump by one multiplication. A return of the slow march would
/// hang the test suite.
#[test]
fn fuzz_far_ring_builds_in_bounded_work() {
    let input = common::load("fuzz/far_ring.roads.json");
    let (net, _) = build_and_mesh_checked("far ring", &input, &Settings::default());
    assert!(net.junctions.len() >= 2, "{} junctions", net.junctions.len());
    assert!(net.pieces.iter().any(|p| p.road == "ring") && net.pieces.iter().any(|p| p.road == "through"));
}

/// Found by fuzzing (`json_pipeline` target, an invalid block): the `tight_bend` case with a
/// 1010 m wide road zigzagging over a few metres. Cleaning a block's outline
/// (`simplify_ring`, dropping sliver vertices) brought an edge of a thin part across another;
/// a cleaning that would make the outline invalid is now not applied (unit test
/// `blocks::tests::cleaning_that_would_cross_a_hole_is_not_applied`). Those blocks were holes
/// that the folded carriageway left in the junction's surface; the zigzag's junction is now
/// the whole carriageway (`junction::strip_parts`), and no block is left inside it.
#[test]
fn fuzz_wide_zigzag_gives_valid_output() {
    let input = common::load("fuzz/wide_zigzag.roads.json");
    let (net, _) = build_and_mesh_checked("wide zigzag", &input, &Settings::default());
    assert_eq!(net.junctions.len(), 1);
    assert!(net.blocks.is_empty(), "{} blocks inside a road 1010 m wide", net.blocks.len());
    // The junction covers the road a few metres around its zigzag.
    let j = &net.junctions[0].polygon;
    for q in [(0.0, 0.0), (3.0, 2.0), (2.0, -1.0), (-50.0, 200.0), (-50.0, -200.0)] {
        assert!(roadgen::core::validate::point_in_ring(Point::new(q.0, q.1), &j.exterior), "{q:?}");
    }
}

/// Found by fuzzing the C ABI (`capi` target, a timeout: over 5 minutes in a release build,
/// 0.24 s with the limit below): a piece whose sweep is not its polygon is meshed from its
/// polygon triangulated, and a spline flattened into very many points gave a polygon that the
/// triangulation took minutes over. A polygon of more than `mesh::POLYGON_MESH_MAX_VERTICES`
/// (16,384) keeps the sweep, whose work is linear. This test takes that branch (a road of
/// 9,000 points a metre apart, each a millimetre off the line, that turns back at its end, so
/// that its sweep is not its polygon); the fuzz input itself is a C ABI byte string, not
/// committed.
#[test]
fn fuzz_long_wiggly_road_meshes_in_bounded_work() {
    let mut pts: Vec<(f64, f64)> = (0..9_000).map(|i| (i as f64, 1e-3 * (i % 2) as f64)).collect();
    pts.push((8_000.0, 30.0));
    let input = Input { roads: vec![pl("a", 7.0, &pts)] };
    let (net, meshes) = build_and_mesh_checked("long wiggly road", &input, &Settings::default());
    let biggest = net.pieces.iter().map(|p| p.polygon.exterior.len()).max().unwrap_or(0);
    assert!(biggest > 1 << 14, "the largest piece polygon has {biggest} vertices");
    assert!(meshes.iter().any(|m| m.id.starts_with("r/a/") && !m.triangles.is_empty()));
}
