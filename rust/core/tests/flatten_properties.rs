//! Property tests of curve flattening (`flatten::flatten_road`): every point of the true curve
//! lies within the tolerance of the polyline, the polyline passes through every input point,
//! and a closed road comes back to its first point.

#[path = "../src/proptests/config.rs"]
mod config;

use proptest::prelude::*;
use roadgen_core::flatten::{auto_tangents, flatten_road, hermite};
use roadgen_core::{Point3, PointKind, Road, RoadGeometry, SplinePoint};

/// Cases per property (each flattens one spline and samples it densely).
const CASES: u32 = 256;
/// Seed of the case generator, so that every run (and CI) draws the same cases; set
/// `PROPTEST_RNG_SEED` to draw others.
const SEED: u64 = 0x5EED_F1A7;
/// Samples of the true curve per spline segment.
const SAMPLES: usize = 64;

fn kind() -> impl Strategy<Value = PointKind> {
    prop_oneof![
        Just(PointKind::Linear),
        Just(PointKind::Curve),
        Just(PointKind::Constant),
        Just(PointKind::CurveClamped),
        Just(PointKind::CurveCustomTangent),
    ]
}

fn vec3(range: f64) -> impl Strategy<Value = Point3> {
    (-range..range, -range..range, -range / 10.0..range / 10.0).prop_map(|(x, y, z)| Point3::new(x, y, z))
}

/// A spline point: a location within 500 m, a kind, and sometimes given tangents (up to 300 m
/// per unit of parameter, as Unreal's editor produces for such distances).
fn spline_point() -> impl Strategy<Value = SplinePoint> {
    (vec3(500.0), kind(), proptest::option::of(vec3(300.0)), proptest::option::of(vec3(300.0))).prop_map(
        |(location, kind, arrive_tangent, leave_tangent)| SplinePoint { location, arrive_tangent, leave_tangent, kind },
    )
}

fn road(points: Vec<SplinePoint>, closed: bool) -> Road {
    Road {
        id: "p".into(),
        width: 7.0,
        layer: 0,
        closed,
        has_height: true,
        geometry: RoadGeometry::Spline(points),
        profile: Default::default(),
    }
}

fn dist(a: Point3, b: Point3) -> f64 {
    ((a.x - b.x).powi(2) + (a.y - b.y).powi(2) + (a.z - b.z).powi(2)).sqrt()
}

/// 3D distance from `q` to segment `a-b`.
fn dist_to_segment(q: Point3, a: Point3, b: Point3) -> f64 {
    let ab = Point3::new(b.x - a.x, b.y - a.y, b.z - a.z);
    let aq = Point3::new(q.x - a.x, q.y - a.y, q.z - a.z);
    let len2 = ab.x * ab.x + ab.y * ab.y + ab.z * ab.z;
    let t = if len2 > 0.0 { ((aq.x * ab.x + aq.y * ab.y + aq.z * ab.z) / len2).clamp(0.0, 1.0) } else { 0.0 };
    dist(q, Point3::new(a.x + t * ab.x, a.y + t * ab.y, a.z + t * ab.z))
}

fn dist_to_polyline(q: Point3, line: &[Point3]) -> f64 {
    line.windows(2).map(|w| dist_to_segment(q, w[0], w[1])).fold(f64::INFINITY, f64::min)
}

/// Points of the true curve, `SAMPLES` per segment, as the module docs define it: Hermite
/// segments with the start point's leave tangent and the end point's arrive tangent (automatic
/// where not given), straight lines after linear and constant points.
fn true_curve(points: &[SplinePoint], closed: bool) -> Vec<Point3> {
    let tangents = auto_tangents(points, closed);
    let n = points.len();
    let segments = if closed { n } else { n - 1 };
    let mut out = Vec::new();
    for i in 0..segments {
        let j = (i + 1) % n;
        let (a, b) = (points[i].location, points[j].location);
        for k in 0..=SAMPLES {
            let t = k as f64 / SAMPLES as f64;
            out.push(match points[i].kind {
                PointKind::Linear | PointKind::Constant => {
                    Point3::new(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y), a.z + t * (b.z - a.z))
                }
                _ => hermite(a, tangents[i].1, b, tangents[j].0, t),
            });
        }
    }
    out
}

proptest! {
    #![proptest_config(config::proptest_config(CASES, SEED))]

    /// Every point of the true curve is within the tolerance (3D) of the flattened polyline;
    /// the polyline starts at the first point, passes through every input point, and a closed
    /// road ends where it starts.
    #[test]
    fn flattening_stays_within_the_tolerance(
        points in proptest::collection::vec(spline_point(), 2..7),
        closed in any::<bool>(),
        tolerance in prop_oneof![Just(0.01), Just(0.05), 0.01..2.0f64],
    ) {
        // Distinct points (random f64s almost surely are; a draw that repeats one is not
        // this property's business: cleanup merges such points, see the unit tests).
        let distinct = points.windows(2).all(|w| w[0].location.xy() != w[1].location.xy())
            && (!closed || points[0].location.xy() != points[points.len() - 1].location.xy());
        prop_assume!(distinct && (!closed || points.len() >= 3));
        let flat = flatten_road(&road(points.clone(), closed), tolerance).unwrap();
        // A little slack for rounding: coordinates are up to 1,000 m, so 1e-9 m is ~10^4 ulps.
        let slack = 1e-9;
        for q in true_curve(&points, closed) {
            let d = dist_to_polyline(q, &flat);
            prop_assert!(d <= tolerance + slack, "curve point {q:?} is {d} m from the polyline (tolerance {tolerance})");
        }
        prop_assert_eq!(flat[0], points[0].location);
        for p in &points {
            prop_assert!(flat.contains(&p.location), "input point {:?} is not a polyline vertex", p.location);
        }
        if closed {
            prop_assert_eq!(flat[flat.len() - 1], flat[0]);
        }
    }

    /// A polyline comes out as it went in, once consecutive repeats are merged.
    #[test]
    fn polylines_are_kept_as_they_are(
        points in proptest::collection::vec(vec3(1000.0), 2..20),
        repeat in proptest::collection::vec(any::<bool>(), 20),
    ) {
        let mut with_repeats = Vec::new();
        for (i, p) in points.iter().enumerate() {
            with_repeats.push(*p);
            if repeat[i] {
                with_repeats.push(*p);
            }
        }
        let r = Road { geometry: RoadGeometry::Polyline(with_repeats), ..road(Vec::new(), false) };
        let flat = flatten_road(&r, 0.05).unwrap();
        prop_assert_eq!(flat, points);
    }
}
