//! A road's own corner radius (`ProfileOverride::corner_radius`) rounds the junction corners
//! beside it; a corner between two roads takes the smaller radius.

mod common;

use common::build_checked;
use roadgen::core::validate::polygon_area;
use roadgen::core::{Input, Point3, ProfileOverride, Road, RoadGeometry, Settings};

fn road(id: &str, a: (f64, f64), b: (f64, f64), corner_radius: Option<f64>) -> Road {
    Road {
        id: id.into(),
        width: 7.0,
        layer: 0,
        closed: false,
        has_height: false,
        profile: ProfileOverride { corner_radius, ..ProfileOverride::default() },
        geometry: RoadGeometry::Polyline(vec![Point3::new(a.0, a.1, 0.0), Point3::new(b.0, b.1, 0.0)]),
    }
}

fn x_crossing(ra: Option<f64>, rb: Option<f64>) -> Input {
    Input { roads: vec![road("a", (-100.0, 0.0), (100.0, 0.0), ra), road("b", (0.0, -100.0), (0.0, 100.0), rb)] }
}

fn junction_area(what: &str, input: &Input, settings: &Settings) -> f64 {
    let (net, _) = build_checked(what, input, settings);
    assert_eq!(net.junctions.len(), 1, "{what}");
    polygon_area(&net.junctions[0].polygon)
}

#[test]
fn overrides_on_every_road_equal_the_setting() {
    let settings = Settings::default();
    let by_override = build_checked("override 2 m", &x_crossing(Some(2.0), Some(2.0)), &settings).0;
    let by_setting =
        build_checked("setting 2 m", &x_crossing(None, None), &Settings { corner_radius: 2.0, ..settings }).0;
    assert_eq!(by_override.junctions, by_setting.junctions);
    assert_eq!(by_override.pieces, by_setting.pieces);
    assert_eq!(by_override.blocks.len(), by_setting.blocks.len());
}

#[test]
fn a_corner_takes_the_smaller_radius() {
    let settings = Settings::default();
    // Every corner of an X lies between road a and road b, so a sharp road a makes every corner
    // sharp: the surface is the square where the carriageways cross.
    let sharp = junction_area("a sharp", &x_crossing(Some(0.0), None), &settings);
    assert!((sharp - 49.0).abs() < 1e-6, "sharp corners: {sharp} m²");
    let rounded = junction_area("default", &x_crossing(None, None), &settings);
    assert!(rounded > sharp + 1.0, "rounded corners: {rounded} m² against {sharp} m²");
    // A larger radius on one road does not enlarge corners the other road keeps small.
    let mixed = junction_area("a 12 m, b 6 m", &x_crossing(Some(12.0), None), &settings);
    assert!((mixed - rounded).abs() < 1e-9, "{mixed} m² against {rounded} m²");
}

#[test]
fn a_bad_corner_radius_leaves_the_road_out() {
    let mut input = x_crossing(None, None);
    input.roads.push(road("bad", (-100.0, 50.0), (100.0, 50.0), Some(f64::NAN)));
    let (net, _) = build_checked("NaN radius", &input, &Settings::default());
    assert!(net.diagnostics.iter().any(|d| d.road.as_deref() == Some("bad")), "{:?}", net.diagnostics);
    assert_eq!(net.junctions.len(), 1);
}
