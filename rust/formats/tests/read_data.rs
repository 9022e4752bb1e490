//! The readers on the data files shipped in `tests/data`.

// Numbers are copied digit for digit from the data files.
#![allow(clippy::excessive_precision)]

use std::path::PathBuf;

use roadgen_core::{Point3, PointKind, Road, RoadGeometry};
use roadgen_formats::{read_file, Format, Frame, Loaded, ReadOptions};

fn data(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data").join(rel)
}

fn load(rel: &str) -> Loaded {
    match read_file(&data(rel), &ReadOptions::default()) {
        Ok(l) => l,
        Err(e) => panic!("{rel}: {e}"),
    }
}

fn road<'a>(loaded: &'a Loaded, id: &str) -> &'a Road {
    loaded.input.roads.iter().find(|r| r.id == id).unwrap_or_else(|| panic!("no road {id}"))
}

fn close(a: Point3, b: Point3, tol: f64) -> bool {
    (a.x - b.x).abs() <= tol && (a.y - b.y).abs() <= tol && (a.z - b.z).abs() <= tol
}

#[test]
fn road_files_load_with_expected_counts() {
    for (rel, count, closed) in [
        ("osm/kotka.roads.json", 181, 0),
        ("osm/liege_center.roads.json", 1565, 3),
        ("osm/liege.roads.json", 16387, 75),
        ("momepy/bubenec.roads.json", 35, 0),
        ("momepy/momepy_rabs_1.roads.json", 43, 0),
        ("momepy/momepy_rabs_2.roads.json", 24, 0),
        ("momepy/momepy_rabs_3.roads.json", 21, 0),
    ] {
        let l = load(rel);
        assert_eq!(l.format, Format::Roads, "{rel}");
        assert_eq!(l.frame, Frame::default(), "{rel}");
        assert_eq!(l.input.roads.len(), count, "{rel}");
        // The files' own `stats.closed`.
        assert_eq!(l.input.roads.iter().filter(|r| r.closed).count(), closed, "{rel}");
        for r in &l.input.roads {
            assert!(!r.has_height, "{rel}: road {} has no z", r.id);
            assert!(matches!(r.geometry, RoadGeometry::Polyline(_)), "{rel}");
        }
    }
}

#[test]
fn kotka_reads_ids_widths_points_and_layers() {
    let l = load("osm/kotka.roads.json");
    // Ids in file order, numbers written in decimal.
    assert_eq!(l.input.roads[0].id, "0");
    assert_eq!(l.input.roads[1].id, "1");
    let r0 = road(&l, "0");
    assert_eq!(r0.width, 10.0);
    assert_eq!(r0.layer, 0);
    match &r0.geometry {
        RoadGeometry::Polyline(p) => {
            assert_eq!(p.len(), 8);
            assert_eq!(p[0], Point3::new(-119.57, -856.16, 0.0));
            assert_eq!(p[7], Point3::new(-275.87, -671.76, 0.0));
        }
        g => panic!("{g:?}"),
    }
    let r1 = road(&l, "1");
    assert_eq!(r1.layer, 1);
    assert_eq!(r1.width, 10.0);
    // The file says five roads have a layer, all of them bridges (layer 1).
    assert_eq!(l.input.roads.iter().filter(|r| r.layer != 0).count(), 5);
}

#[test]
fn pcgdemo_files_load_as_unreal_splines() {
    for (rel, count) in [("pcgdemo/CitySpline.json", 5), ("pcgdemo/ThreeRoadModel.json", 6)] {
        let l = load(rel);
        assert_eq!(l.format, Format::UnrealSplines, "{rel}");
        assert_eq!(l.frame, Frame { metres_per_unit: 0.01, mirror_y: true });
        assert_eq!(l.input.roads.len(), count, "{rel}");
        for r in &l.input.roads {
            assert_eq!(r.width, 5.0, "{rel}: default width");
            assert_eq!(r.layer, 0);
            assert!(r.has_height);
            // Only CitySpline's "Outline" has bCloseLoop set.
            assert_eq!(r.closed, r.id == "Outline", "{rel}: {}", r.id);
            match &r.geometry {
                RoadGeometry::Spline(p) => {
                    assert!(p.len() >= 2, "{rel}: {}", r.id);
                    assert!(p.iter().all(|q| q.arrive_tangent.is_some() && q.arrive_tangent == q.leave_tangent));
                }
                g => panic!("{g:?}"),
            }
        }
    }
    let l = load("pcgdemo/CitySpline.json");
    let ids: Vec<&str> = l.input.roads.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["arterialroads2", "Arterialroads0", "Outline", "arterialroads3", "arterialroads1"]);
    // "Outline" starts with linear points (PointType 0).
    match &road(&l, "Outline").geometry {
        RoadGeometry::Spline(p) => assert_eq!(p[0].kind, PointKind::Linear),
        g => panic!("{g:?}"),
    }
    let kinds: Vec<PointKind> = l
        .input
        .roads
        .iter()
        .flat_map(|r| match &r.geometry {
            RoadGeometry::Spline(p) => p.iter().map(|q| q.kind).collect(),
            RoadGeometry::Polyline(_) => Vec::new(),
        })
        .collect();
    assert_eq!(kinds.iter().filter(|k| **k == PointKind::Linear).count(), 7);
    assert_eq!(kinds.iter().filter(|k| **k == PointKind::Curve).count(), 16);
    assert_eq!(kinds.iter().filter(|k| **k == PointKind::CurveCustomTangent).count(), 1);
}

#[test]
fn pcgdemo_actor_transform_by_hand() {
    let l = load("pcgdemo/ThreeRoadModel.json");
    // Actor3: rotation quaternion (0, 0, 0.4226, 0.9063) = 50° about z (sin 25°, cos 25°).
    let a = 50f64.to_radians();
    let (s, c) = a.sin_cos();
    let (lx, ly, lz) = (-16829.373883494871, 19808.788817900619, -0.0001509999880227042);
    let (px, py) = (2557.6908130000002, 3.0000000000000001e-06);
    let world = (lx + px * c - py * s, ly + px * s + py * c, lz);
    let expected = Point3::new(world.0 * 0.01, -world.1 * 0.01, world.2 * 0.01);
    let tangent = Point3::new((px * c - py * s) * 0.01, -(px * s + py * c) * 0.01, 0.0);
    let r = road(&l, "Actor3");
    let RoadGeometry::Spline(p) = &r.geometry else { panic!("{:?}", r.geometry) };
    assert!(close(p[0].location, Point3::new(lx * 0.01, -ly * 0.01, lz * 0.01), 1e-9));
    assert!(close(p[1].location, expected, 1e-6), "{:?} vs {expected:?}", p[1].location);
    // Worked out on paper: x = (-16829.374 + 2557.691 cos 50°) cm, y = -(19808.789 + 2557.691
    // sin 50°) cm.
    assert!(close(p[1].location, Point3::new(-151.8532, -217.6809, 0.0), 1e-4));
    let t = p[1].leave_tangent.unwrap_or_default();
    assert!(close(t, tangent, 1e-6), "{t:?} vs {tangent:?}");
    assert_eq!(p[1].kind, PointKind::Curve);

    // Actor2 has the identity rotation: a plain translation, cm -> m, y mirrored.
    let r = road(&l, "Actor2");
    let RoadGeometry::Spline(p) = &r.geometry else { panic!("{:?}", r.geometry) };
    let e = Point3::new(
        (-19368.347341977613 + 2557.6908131313321) * 0.01,
        -(19819.038070559309 + 3.4731565392576158e-06) * 0.01,
        (-0.00015064632134453859 - 4.5474735088646412e-13) * 0.01,
    );
    assert!(close(p[1].location, e, 1e-9), "{:?}", p[1].location);
}

#[test]
fn format_override_applies_to_files() {
    let opts = ReadOptions { format: Some(Format::PointCloud), ..ReadOptions::default() };
    let path = data("momepy/bubenec.roads.json");
    let e = read_file(&path, &opts).unwrap_err().to_string();
    assert!(e.contains("bubenec.roads.json"), "{e}");
    assert!(e.contains("GameObjects"), "{e}");
    assert!(!e.contains('\n'), "{e}");
}
