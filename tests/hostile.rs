//! Hostile inputs through the core: never a panic; a bad road is left out with a diagnostic
//! that names it, and the rest of the network is still built.

mod common;

use common::build_checked;
use roadgen::core::{build, DiagnosticCode, Error, Input, Point3, Road, RoadGeometry, Settings};

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
    let (net, _) = build_checked(name, &Input { roads }, &Settings::default());
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
        build_checked(name, &Input { roads }, &Settings::default());
    }
}
