//! The GeoJSON writer on a small hand-built network.

use roadgen_core::{Block, Diagnostic, DiagnosticCode, Junction, Network, Point, Point3, Polygon, RoadPiece};
use roadgen_formats::{write_geojson, Frame};
use serde_json::{json, Value};

fn square(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<Point> {
    // Counter-clockwise in the core's frame.
    vec![Point::new(x0, y0), Point::new(x1, y0), Point::new(x1, y1), Point::new(x0, y1)]
}

fn network() -> Network {
    let mut hole = square(2.0, 2.0, 4.0, 4.0);
    hole.reverse(); // clockwise
    Network {
        junctions: vec![Junction {
            id: "j1".into(),
            center: Point::new(0.0, 0.0),
            degree: 3,
            roads: vec!["17".into(), "main \"st\"".into()],
            polygon: Polygon { exterior: square(-1.0, -1.0, 1.0, 1.0), holes: vec![] },
        }],
        pieces: vec![RoadPiece {
            id: "17:0".into(),
            road: "17".into(),
            from: Some("j1".into()),
            to: None,
            start: 1.0,
            end: 11.123456,
            centerline: vec![Point3::new(1.0, 0.0, 0.0), Point3::new(11.0, 0.0, 0.0)],
            width: 6.0,
            profile: Default::default(),
            polygon: Polygon { exterior: square(1.0, -3.0, 11.0, 3.0), holes: vec![] },
        }],
        blocks: vec![Block {
            id: "b1".into(),
            polygon: Polygon { exterior: square(0.0, 0.0, 10.0, 10.0), holes: vec![hole] },
            area: 96.0,
            profile: Default::default(),
            bands: vec![],
            lots: vec![],
        }],
        diagnostics: vec![
            Diagnostic {
                code: DiagnosticCode::NearMiss,
                position: Point::new(-0.0000001, 2.5),
                road: Some("17".into()),
                message: "road 17 ends 3 m from road 18".into(),
            },
            Diagnostic {
                code: DiagnosticCode::FaceDropped,
                position: Point::new(5.0, 5.0),
                road: None,
                message: "tiny face".into(),
            },
        ],
    }
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn ring(v: &Value) -> Vec<[f64; 2]> {
    v.as_array().unwrap().iter().map(|p| [p[0].as_f64().unwrap(), p[1].as_f64().unwrap()]).collect()
}

/// Shoelace signed area of a closed ring (positive: counter-clockwise).
fn signed_area(r: &[[f64; 2]]) -> f64 {
    r.windows(2).map(|w| w[0][0] * w[1][1] - w[1][0] * w[0][1]).sum::<f64>() / 2.0
}

#[test]
fn features_properties_and_rings_in_metres() {
    let text = write_geojson(&network(), &Frame::default());
    let v = parse(&text);
    assert_eq!(v["type"], "FeatureCollection");
    let f = v["features"].as_array().unwrap();
    assert_eq!(f.len(), 3);
    let kinds: Vec<&str> = f.iter().map(|x| x["properties"]["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["junction", "road", "block"]);
    for x in f {
        assert_eq!(x["type"], "Feature");
        assert_eq!(x["geometry"]["type"], "Polygon");
    }

    let j = &f[0]["properties"];
    assert_eq!(j, &json!({"kind": "junction", "id": "j1", "degree": 3, "roads": ["17", "main \"st\""]}));
    // Whole numbers are written without a fraction (`6`, not `6.0`).
    let r = &f[1]["properties"];
    assert_eq!(
        r,
        &json!({"kind": "road", "id": "17:0", "road": "17", "from": "j1", "to": null,
                "width": 6, "start": 1, "end": 11.1235})
    );
    let b = &f[2]["properties"];
    assert_eq!(b, &json!({"kind": "block", "id": "b1", "area": 96}));

    // Rings are closed, exteriors counter-clockwise, holes clockwise, coordinates unchanged.
    let rings = f[2]["geometry"]["coordinates"].as_array().unwrap();
    assert_eq!(rings.len(), 2);
    let ext = ring(&rings[0]);
    assert_eq!(ext.len(), 5);
    assert_eq!(ext[0], ext[4]);
    assert_eq!(ext[..4], [[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]]);
    assert!(signed_area(&ext) > 0.0);
    let hole = ring(&rings[1]);
    assert_eq!(hole.first(), hole.last());
    assert!(signed_area(&hole) < 0.0);

    let d = v["diagnostics"].as_array().unwrap();
    assert_eq!(
        d[0],
        json!({"code": "near_miss", "message": "road 17 ends 3 m from road 18", "road": "17",
               "position": [0, 2.5]})
    );
    assert_eq!(d[1]["road"], Value::Null);
    assert_eq!(d[1]["code"], "face_dropped");
    assert_eq!(d.len(), 2);
}

#[test]
fn negative_zero_is_written_as_zero() {
    let text = write_geojson(&network(), &Frame::default());
    assert!(!text.contains("-0,") && !text.contains("-0]"), "{text}");
    assert!(text.contains("\"position\":[0,2.5]"), "{text}");
}

#[test]
fn mirrored_centimetre_frame_converts_and_reverses_rings() {
    let frame = Frame { metres_per_unit: 0.01, mirror_y: true };
    let v = parse(&write_geojson(&network(), &frame));
    let f = v["features"].as_array().unwrap();
    let r = &f[1]["properties"];
    assert_eq!(r["width"], json!(600));
    assert_eq!(r["start"], json!(100));
    assert_eq!(r["end"], json!(1112.3456));
    assert_eq!(f[2]["properties"]["area"], json!(960000));

    let rings = f[2]["geometry"]["coordinates"].as_array().unwrap();
    let ext = ring(&rings[0]);
    assert_eq!(ext.len(), 5);
    assert_eq!(ext[0], ext[4]);
    // Still counter-clockwise in the output (mirrored) frame, holes clockwise.
    assert!(signed_area(&ext) > 0.0, "{ext:?}");
    assert!(signed_area(&ring(&rings[1])) < 0.0);
    // Every core point maps to (x / 0.01, -y / 0.01).
    let mut got: Vec<[i64; 2]> = ext[..4].iter().map(|p| [p[0] as i64, p[1] as i64]).collect();
    got.sort_unstable();
    assert_eq!(got, [[0, -1000], [0, 0], [1000, -1000], [1000, 0]]);
    // The reversed ring is the same cycle read backwards.
    assert_eq!(ext[..4], [[0.0, -1000.0], [1000.0, -1000.0], [1000.0, 0.0], [0.0, 0.0]]);
    assert_eq!(v["diagnostics"][0]["position"], json!([0, -250]));
}

#[test]
fn output_is_deterministic_and_one_feature_per_line() {
    let a = write_geojson(&network(), &Frame::default());
    let b = write_geojson(&network(), &Frame::default());
    assert_eq!(a, b);
    let feature_lines = a.lines().filter(|l| l.starts_with("{\"type\":\"Feature\"")).count();
    assert_eq!(feature_lines, 3);
    let diagnostic_lines = a.lines().filter(|l| l.starts_with("{\"code\":")).count();
    assert_eq!(diagnostic_lines, 2);
    assert!(a.ends_with('\n'));
}

#[test]
fn empty_network_is_valid() {
    let v = parse(&write_geojson(&Network::default(), &Frame::default()));
    assert_eq!(v, json!({"type": "FeatureCollection", "features": [], "diagnostics": []}));
}

#[test]
fn already_closed_rings_are_not_closed_twice() {
    let mut net = network();
    let mut ext = square(-1.0, -1.0, 1.0, 1.0);
    ext.push(ext[0]);
    net.junctions[0].polygon.exterior = ext;
    let v = parse(&write_geojson(&net, &Frame::default()));
    let r = ring(&v["features"][0]["geometry"]["coordinates"][0]);
    assert_eq!(r.len(), 5);
}
