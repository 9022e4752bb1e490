//! The readers on small hand-written inputs: fields, defaults, units, frames, detection and
//! error messages.

use roadgen_core::{Point3, PointKind, Road, RoadGeometry, SplinePoint};
use roadgen_formats::{read_file, read_str, Format, Frame, Loaded, ReadOptions};

fn read(text: &str) -> Loaded {
    match read_str(text, "city.json", &ReadOptions::default()) {
        Ok(l) => l,
        Err(e) => panic!("{e}"),
    }
}

fn read_as(text: &str, format: Format) -> Result<Loaded, String> {
    let opts = ReadOptions { format: Some(format), ..ReadOptions::default() };
    read_str(text, "city.json", &opts).map_err(|e| e.to_string())
}

/// The error message, checked to be one line naming the file.
fn error(text: &str) -> String {
    match read_str(text, "city.json", &ReadOptions::default()) {
        Ok(l) => panic!("expected an error, got {l:?}"),
        Err(e) => {
            let m = e.to_string();
            assert!(m.starts_with("city.json: "), "{m}");
            assert!(!m.contains('\n'), "{m}");
            m
        }
    }
}

fn polyline(r: &Road) -> &[Point3] {
    match &r.geometry {
        RoadGeometry::Polyline(p) => p,
        g => panic!("not a polyline: {g:?}"),
    }
}

fn spline(r: &Road) -> &[SplinePoint] {
    match &r.geometry {
        RoadGeometry::Spline(p) => p,
        g => panic!("not a spline: {g:?}"),
    }
}

fn near(a: Point3, b: Point3) -> bool {
    (a.x - b.x).abs() < 1e-9 && (a.y - b.y).abs() < 1e-9 && (a.z - b.z).abs() < 1e-9
}

// ----------------------------------------------------------------------------------------------
// Roads

#[test]
fn roads_fields_and_defaults() {
    let l = read(
        r#"{"roads": [
            {"id": 17, "width": 7.5, "points": [[0, 0], [10, 0]], "highway": "primary"},
            {"id": "main street", "points": [[0, 0, 1], [0, 10]], "layer": -1, "closed": true},
            {"id": 3.5, "width": -2, "points": [[4, 4]], "layer": 2.0}
        ]}"#,
    );
    assert_eq!(l.format, Format::Roads);
    assert_eq!(l.frame, Frame { metres_per_unit: 1.0, mirror_y: false });
    let [a, b, c] = &l.input.roads[..] else { panic!("{:?}", l.input.roads) };
    assert_eq!((a.id.as_str(), a.width, a.layer, a.closed, a.has_height), ("17", 7.5, 0, false, false));
    assert_eq!(polyline(a), [Point3::new(0.0, 0.0, 0.0), Point3::new(10.0, 0.0, 0.0)]);
    // No width: the default; any z makes the road carry heights.
    assert_eq!((b.id.as_str(), b.width, b.layer, b.closed, b.has_height), ("main street", 5.0, -1, true, true));
    assert_eq!(polyline(b)[0], Point3::new(0.0, 0.0, 1.0));
    // Semantic problems (one point, negative width) are left for the core to report.
    assert_eq!((c.id.as_str(), c.width, c.layer), ("3.5", -2.0, 2));
    assert_eq!(polyline(c).len(), 1);
}

#[test]
fn default_width_option_is_used() {
    let opts = ReadOptions { default_width: 8.0, ..ReadOptions::default() };
    let l = read_str(r#"{"roads":[{"id":1,"points":[[0,0],[1,1]]}]}"#, "a.json", &opts).unwrap();
    assert_eq!(l.input.roads[0].width, 8.0);
    assert_eq!(ReadOptions::default().default_width, 5.0);
    assert_eq!(ReadOptions::default().format, None);
}

#[test]
fn roads_in_centimetres_scale_points_widths_and_tangents() {
    let l = read(
        r#"{"units": "cm", "roads": [
            {"id": 1, "width": 350, "points": [[100, 200], [300, -400, 50]]},
            {"id": 2, "width": 500, "spline": {"points": [
                {"location": [0, 0, 0], "arrive_tangent": [100, 0, 0], "leave_tangent": [0, 200, 0]},
                {"location": [1000, 0, 0]}
            ]}}
        ]}"#,
    );
    assert_eq!(l.frame, Frame { metres_per_unit: 0.01, mirror_y: false });
    let r1 = &l.input.roads[0];
    assert_eq!(r1.width, 3.5);
    assert!(near(polyline(r1)[0], Point3::new(1.0, 2.0, 0.0)));
    assert!(near(polyline(r1)[1], Point3::new(3.0, -4.0, 0.5)));
    let r2 = &l.input.roads[1];
    assert_eq!(r2.width, 5.0);
    let p = spline(r2);
    assert!(near(p[1].location, Point3::new(10.0, 0.0, 0.0)));
    assert!(near(p[0].arrive_tangent.unwrap(), Point3::new(1.0, 0.0, 0.0)));
    assert!(near(p[0].leave_tangent.unwrap(), Point3::new(0.0, 2.0, 0.0)));
    // The default width is in metres whatever the units.
    let l = read(r#"{"units": "cm", "roads": [{"id": 1, "points": []}]}"#);
    assert_eq!(l.input.roads[0].width, 5.0);
}

#[test]
fn spline_roads_with_and_without_tangents() {
    let l = read(
        r#"{"roads": [
            {"id": "s", "width": 6, "spline": {"points": [
                {"location": [0, 0, 2], "arrive_tangent": [5, 0, 0], "leave_tangent": [5, 1, 0], "type": "curve_custom_tangent"},
                {"location": [10, 0, 2], "type": "linear"},
                {"location": [20, 5, 2], "type": "constant"},
                {"location": [30, 5, 2], "type": "curve_clamped"},
                {"location": [40, 0, 2]}
            ]}},
            {"id": "flat", "width": 6, "spline": {"points": [{"location": [0, 0]}, {"location": [1, 0]}]}}
        ]}"#,
    );
    let s = &l.input.roads[0];
    assert!(s.has_height);
    let p = spline(s);
    assert_eq!(p.len(), 5);
    assert_eq!(p[0].location, Point3::new(0.0, 0.0, 2.0));
    assert_eq!(p[0].arrive_tangent, Some(Point3::new(5.0, 0.0, 0.0)));
    assert_eq!(p[0].leave_tangent, Some(Point3::new(5.0, 1.0, 0.0)));
    assert_eq!(p[1].arrive_tangent, None);
    assert_eq!(p[1].leave_tangent, None);
    let kinds: Vec<PointKind> = p.iter().map(|q| q.kind).collect();
    assert_eq!(
        kinds,
        [
            PointKind::CurveCustomTangent,
            PointKind::Linear,
            PointKind::Constant,
            PointKind::CurveClamped,
            PointKind::Curve
        ]
    );
    let flat = &l.input.roads[1];
    assert!(!flat.has_height);
    assert_eq!(spline(flat)[1].location, Point3::new(1.0, 0.0, 0.0));
}

#[test]
fn duplicate_ids_are_an_error_naming_the_id() {
    let m = error(r#"{"roads": [{"id": 7, "points": []}, {"id": "7", "points": []}]}"#);
    assert!(m.contains("duplicate road id 7"), "{m}");
}

#[test]
fn wrong_types_name_the_road_and_point() {
    let m = error(r#"{"roads": [{"id": 17, "width": 5, "points": [[0, 0], [1, 1], [2, 2], [3, "x"]]}]}"#);
    assert_eq!(m, "city.json: road 17, point 3: coordinate 1 is not a number (found a string)");
    let m = error(r#"{"roads": [{"id": 1, "points": []}, {"id": [1], "points": []}]}"#);
    assert!(m.starts_with("city.json: road #1: "), "{m}");
    let m = error(r#"{"roads": [{"id": "a", "width": "wide", "points": []}]}"#);
    assert!(m.starts_with("city.json: road a: "), "{m}");
    assert!(m.contains("width"), "{m}");
    let m = error(r#"{"roads": [{"id": "a", "points": [[0, 0], [1]]}]}"#);
    assert!(m.starts_with("city.json: road a, point 1: "), "{m}");
    let m =
        error(r#"{"roads": [{"id": "a", "spline": {"points": [{"location": [0, 0], "leave_tangent": [1, true]}]}}]}"#);
    assert_eq!(m, "city.json: road a, point 0: \"leave_tangent\": coordinate 1 is not a number (found a boolean)");
    let m = error(r#"{"roads": [{"id": "a", "layer": 1.5, "points": []}]}"#);
    assert!(m.contains("road a: ") && m.contains("layer"), "{m}");
    let m = error(r#"{"roads": [{"id": "a", "closed": "yes", "points": []}]}"#);
    assert!(m.contains("road a: ") && m.contains("closed"), "{m}");
    let m = error(r#"{"roads": [{"id": "a", "width": 5}]}"#);
    assert!(m.contains("road a: ") && m.contains("points"), "{m}");
    let m = error(r#"{"roads": [{"id": "a", "spline": {"points": [{"location": [0, 0], "type": "bezier"}]}}]}"#);
    assert!(m.starts_with("city.json: road a, point 0"), "{m}");
    let m = error(r#"{"units": "ft", "roads": []}"#);
    assert!(m.contains("units"), "{m}");
    let m = error(r#"{"roads": {"id": 1}}"#);
    assert!(m.contains("\"roads\" must be an array"), "{m}");
    let m = error(r#"{"roads": [5]}"#);
    assert!(m.starts_with("city.json: road #0: "), "{m}");
}

#[test]
fn overflowing_numbers_are_rejected() {
    // JSON cannot write inf, but a number too big for f64 overflows.
    let m = error(r#"{"roads": [{"id": 1, "points": [[0, 1e999]]}]}"#);
    assert!(m.contains("line 1"), "{m}");
    // A width that becomes infinite after scaling.
    let m = error(r#"{"Splines": [{"OwnerName": "A", "Scale.X": 1e300, "Points": [{"Location.X": 1e300}]}]}"#);
    assert!(m.starts_with("city.json: road A, point 0: "), "{m}");
}

#[test]
fn malformed_json_gives_line_and_column() {
    let m = error("{\"roads\": [\n  {\"id\": 1,\n   \"points\": [[0, 0] [1, 1]]}\n]}");
    assert!(m.starts_with("city.json: line 3 column "), "{m}");
    assert!(m.contains("expected"), "{m}");
    assert_eq!(error(" \n"), "city.json: file is empty");
    let m = error("{\"roads\": [");
    assert!(m.starts_with("city.json: line 1 column "), "{m}");
}

#[test]
fn unknown_format_is_named() {
    let m = error(r#"{"features": []}"#);
    assert_eq!(
        m,
        "city.json: unknown input format (expected an object with \"roads\", \"Splines\" or \"GameObjects\")"
    );
    let m = error("[1, 2]");
    assert!(m.contains("unknown input format"), "{m}");
}

#[test]
fn missing_file_says_cannot_read() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("no_such_city.json");
    let e = read_file(&path, &ReadOptions::default()).unwrap_err().to_string();
    assert!(e.starts_with("cannot read "), "{e}");
    assert!(e.contains("no_such_city.json"), "{e}");
    assert!(!e.contains("os error") && !e.contains('\n'), "{e}");
}

// ----------------------------------------------------------------------------------------------
// Detection and --format

#[test]
fn detection_by_content_and_override() {
    let both = r#"{"roads": [{"id": 1, "points": [[0, 0], [1, 0]]}],
                   "GameObjects": [{"X": 0, "Y": 0, "ID": 9}, {"X": 100, "Y": 0, "ID": 9}]}"#;
    let l = read(both);
    assert_eq!(l.format, Format::Roads);
    assert_eq!(l.input.roads[0].id, "1");
    let l = read_as(both, Format::PointCloud).unwrap();
    assert_eq!(l.format, Format::PointCloud);
    assert_eq!(l.input.roads[0].id, "9");
    assert_eq!(read(r#"{"Splines": []}"#).format, Format::UnrealSplines);
    assert_eq!(read(r#"{"GameObjects": []}"#).format, Format::PointCloud);
    // Overriding with a format the file is not: an error naming the missing member.
    let m = read_as(r#"{"roads": []}"#, Format::UnrealSplines).unwrap_err();
    assert!(m.starts_with("city.json: ") && m.contains("Splines"), "{m}");
}

#[test]
fn format_names_for_the_cli() {
    assert_eq!("roads".parse::<Format>(), Ok(Format::Roads));
    assert_eq!("unreal".parse::<Format>(), Ok(Format::UnrealSplines));
    assert_eq!("pointcloud".parse::<Format>(), Ok(Format::PointCloud));
    assert_eq!(Format::Roads.to_string(), "roads");
    assert_eq!(Format::UnrealSplines.to_string(), "unreal");
    assert_eq!(Format::PointCloud.to_string(), "pointcloud");
    assert!("geojson".parse::<Format>().is_err());
}

// ----------------------------------------------------------------------------------------------
// Point cloud

#[test]
fn point_cloud_two_ids_in_order_with_widths_in_metres() {
    let l = read(
        r#"{"GameObjects": [
            {"X": 0, "Y": 0, "Z": 10, "ID": 2, "Width": 700, "SplineType": 1, "Layer": 3},
            {"X": 1000, "Y": 500, "Z": 10, "ID": 2, "Width": 900, "Layer": 3},
            {"X": 0, "Y": 0, "Z": 0, "ID": "a", "Layer": 1},
            {"X": 0, "Y": -2000, "ID": "a"},
            {"X": 2000, "Y": 1000, "Z": 20, "ID": 2}
        ]}"#,
    );
    assert_eq!(l.format, Format::PointCloud);
    assert_eq!(l.frame, Frame { metres_per_unit: 0.01, mirror_y: true });
    let [a, b] = &l.input.roads[..] else { panic!("{:?}", l.input.roads) };
    assert_eq!(a.id, "2");
    assert_eq!(a.width, 7.0);
    assert_eq!(a.layer, 0, "Layer groups segments; it is not a grade level");
    assert!(a.has_height && !a.closed);
    let pa = polyline(a);
    assert_eq!(pa.len(), 3);
    assert!(near(pa[0], Point3::new(0.0, 0.0, 0.1)));
    assert!(near(pa[1], Point3::new(10.0, -5.0, 0.1)));
    assert!(near(pa[2], Point3::new(20.0, -10.0, 0.2)));
    assert_eq!(b.id, "a");
    assert_eq!(b.width, 5.0, "no Width: the default");
    assert!(near(polyline(b)[1], Point3::new(0.0, 20.0, 0.0)));
    assert_eq!(b.layer, 0);
}

#[test]
fn point_cloud_errors_name_road_and_point() {
    let m = error(r#"{"GameObjects": [{"X": 0, "Y": 0, "ID": 4}, {"X": 0, "Y": true, "ID": 4}]}"#);
    assert!(m.starts_with("city.json: road 4, point 1: "), "{m}");
    assert!(m.contains("\"Y\""), "{m}");
    let m = error(r#"{"GameObjects": [{"X": 0, "Y": 0}]}"#);
    assert!(m.starts_with("city.json: object #0: "), "{m}");
    let m = error(r#"{"GameObjects": [{"X": 0, "Y": 0, "ID": 1, "Width": "7"}]}"#);
    assert!(m.starts_with("city.json: road 1: ") && m.contains("Width"), "{m}");
}

// ----------------------------------------------------------------------------------------------
// Unreal splines

#[test]
fn unreal_transform_scale_world_space_and_shared_owners() {
    let l = read(
        r#"{"CoordSpace": "Local", "Splines": [
            {"OwnerName": "A", "Index": 0, "Location.X": 1000, "Location.Y": 2000, "Location.Z": 300,
             "Rotation.X": 0, "Rotation.Y": 0, "Rotation.Z": 0.7071067811865476, "Rotation.W": 0.7071067811865476,
             "Scale.X": 2, "Scale.Y": 1, "Scale.Z": 1, "bCloseLoop": true,
             "Points": [
                {"PointType": 3, "Location.X": 100, "Location.Y": 0, "Location.Z": 0,
                 "Tangent.X": 50, "Tangent.Y": 0, "Tangent.Z": 0},
                {"PointType": 0, "Location.X": 0, "Location.Y": 100, "Location.Z": 10}
             ]},
            {"OwnerName": "A", "Index": 1, "Points": [{"Location.X": 1, "Location.Y": 2, "Location.Z": 3}]},
            {"OwnerName": "B", "CoordSpace": "World", "Location.X": 5000,
             "Rotation.Z": 1, "Rotation.W": 0,
             "Points": [{"Location.X": 100, "Location.Y": 200, "Location.Z": 0}]}
        ]}"#,
    );
    let ids: Vec<&str> = l.input.roads.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["A#0", "A#1", "B"]);
    let a = &l.input.roads[0];
    assert!(a.closed && a.has_height);
    assert_eq!(a.width, 5.0);
    let p = spline(a);
    // Local (100, 0, 0), scaled x2 = (200, 0, 0), rotated 90° about z = (0, 200, 0),
    // translated = (1000, 2200, 300) cm -> (10, -22, 3) m in the core.
    assert!(near(p[0].location, Point3::new(10.0, -22.0, 3.0)), "{:?}", p[0].location);
    // Tangent (50, 0, 0) -> (100, 0, 0) -> (0, 100, 0) cm -> (0, -1, 0) m, both ways.
    assert!(near(p[0].arrive_tangent.unwrap(), Point3::new(0.0, -1.0, 0.0)));
    assert_eq!(p[0].arrive_tangent, p[0].leave_tangent);
    assert_eq!(p[0].kind, PointKind::CurveClamped);
    // Local (0, 100, 10) -> rotated (-100, 0, 10) -> (900, 2000, 310) cm.
    assert!(near(p[1].location, Point3::new(9.0, -20.0, 3.1)), "{:?}", p[1].location);
    assert_eq!(p[1].arrive_tangent, None, "no Tangent: automatic");
    assert_eq!(p[1].kind, PointKind::Linear);
    // No transform members: identity.
    assert!(near(spline(&l.input.roads[1])[0].location, Point3::new(0.01, -0.02, 0.03)));
    // World space: the actor transform is not applied.
    assert!(near(spline(&l.input.roads[2])[0].location, Point3::new(1.0, -2.0, 0.0)));
}

#[test]
fn unreal_errors_name_the_spline_and_point() {
    let m = error(r#"{"Splines": [{"OwnerName": "Road7", "Points": [{"Location.X": 0, "Location.Y": "n"}]}]}"#);
    assert!(m.starts_with("city.json: road Road7, point 0: "), "{m}");
    let m = error(r#"{"Splines": [{"OwnerName": "R", "Rotation.X": 0, "Rotation.W": 0, "Points": []}]}"#);
    assert!(m.starts_with("city.json: road R: ") && m.contains("Rotation"), "{m}");
    let m = error(r#"{"Splines": [{"OwnerName": "R", "Points": [{"PointType": 9, "Location.X": 0}]}]}"#);
    assert!(m.starts_with("city.json: road R, point 0: ") && m.contains("PointType"), "{m}");
    let m = error(r#"{"CoordSpace": "Component", "Splines": []}"#);
    assert!(m.contains("CoordSpace"), "{m}");
}

#[test]
fn profile_overrides_are_read_in_the_file_units() {
    let l = read(
        r#"{"units": "cm", "roads": [
            {"id": 1, "width": 700, "points": [[0, 0], [1000, 0]],
             "profile": {"sidewalk": 300, "sidewalk_left": 150, "curb_height": 20, "corner_radius": 400}},
            {"id": 2, "width": 700, "points": [[0, 0], [0, 1000]]}
        ]}"#,
    );
    let p = l.input.roads[0].profile;
    assert_eq!(p.sidewalk_left, Some(1.5));
    assert_eq!(p.sidewalk_right, Some(3.0));
    assert_eq!(p.curb_height, Some(0.2));
    assert_eq!(p.curb_width, None);
    assert_eq!(p.corner_radius, Some(4.0));
    assert_eq!(l.input.roads[1].profile, Default::default());
    let bad = r#"{"roads": [{"id": "r", "width": 7, "points": [[0, 0], [1, 0]], "profile": {"corner_radius": -1}}]}"#;
    let e = read_str(bad, "bad.json", &ReadOptions::default()).unwrap_err().to_string();
    assert!(e.contains("bad.json") && e.contains("corner_radius"), "{e}");
}
