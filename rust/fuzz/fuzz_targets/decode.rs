//! How the `pipeline` target turns the fuzzer's bytes into an `Input` and `Settings`: shared
//! with the `slow_repro` binary, which decodes saved artifacts the same way.

use arbitrary::{Result, Unstructured};
use roadgen_core::{Input, Point3, PointKind, ProfileOverride, Road, RoadGeometry, Settings, SplinePoint};

/// Most roads per input.
const MAX_ROADS: usize = 8;
/// Most points per road.
const MAX_POINTS: usize = 8;
/// Step of the coordinate grid, metres.
const GRID: f64 = 5.0;
/// Grid coordinates run over ± this many steps.
const GRID_STEPS: i8 = 20;

/// Any `f64` (NaN, infinities and subnormals included).
fn any_f64(u: &mut Unstructured) -> Result<f64> {
    Ok(f64::from_bits(u.arbitrary()?))
}

fn coord(u: &mut Unstructured) -> Result<f64> {
    Ok(match u.int_in_range(0..=15u8)? {
        0 => any_f64(u)?,
        1 => f64::from(u.arbitrary::<i16>()?) * 1e3,
        2 => f64::from(u.arbitrary::<i8>()?) * 1e-2,
        _ => f64::from(u.int_in_range(-GRID_STEPS..=GRID_STEPS)?) * GRID,
    })
}

fn point(u: &mut Unstructured, heights: bool) -> Result<Point3> {
    let z = if heights { f64::from(u.int_in_range(-4i8..=4)?) * 2.0 } else { 0.0 };
    Ok(Point3::new(coord(u)?, coord(u)?, z))
}

fn length(u: &mut Unstructured, usual: (u8, u8)) -> Result<f64> {
    Ok(match u.int_in_range(0..=9u8)? {
        0 => any_f64(u)?,
        1 => 0.0,
        2 => 1e-3,
        3 => 100.0,
        _ => f64::from(u.int_in_range(usual.0..=usual.1)?),
    })
}

fn kind(u: &mut Unstructured) -> Result<PointKind> {
    Ok(*u.choose(&[
        PointKind::Linear,
        PointKind::Curve,
        PointKind::Constant,
        PointKind::CurveClamped,
        PointKind::CurveCustomTangent,
    ])?)
}

fn tangent(u: &mut Unstructured) -> Result<Option<Point3>> {
    Ok(if u.ratio(1, 3)? { Some(Point3::new(coord(u)?, coord(u)?, 0.0)) } else { None })
}

fn road(u: &mut Unstructured, i: usize) -> Result<Road> {
    let has_height = u.ratio(1, 4)?;
    let n = u.int_in_range(0..=MAX_POINTS)?;
    let geometry = if u.ratio(1, 3)? {
        let mut pts = Vec::with_capacity(n);
        for _ in 0..n {
            pts.push(SplinePoint {
                location: point(u, has_height)?,
                arrive_tangent: tangent(u)?,
                leave_tangent: tangent(u)?,
                kind: kind(u)?,
            });
        }
        RoadGeometry::Spline(pts)
    } else {
        let mut pts = Vec::with_capacity(n);
        for _ in 0..n {
            pts.push(point(u, has_height)?);
        }
        RoadGeometry::Polyline(pts)
    };
    let profile = if u.ratio(1, 4)? {
        ProfileOverride {
            curb_height: Some(length(u, (0, 1))?),
            curb_width: Some(length(u, (0, 1))?),
            sidewalk_left: Some(length(u, (0, 5))?),
            sidewalk_right: Some(length(u, (0, 5))?),
            ..ProfileOverride::default()
        }
    } else {
        ProfileOverride::default()
    };
    Ok(Road {
        // Now and then an id repeats.
        id: if u.ratio(1, 16)? { "r0".to_owned() } else { format!("r{i}") },
        width: length(u, (2, 14))?,
        layer: i32::from(u.ratio(1, 6)?),
        closed: u.ratio(1, 5)?,
        has_height,
        geometry,
        profile,
    })
}

fn settings(u: &mut Unstructured) -> Result<Settings> {
    let mut s = Settings::default();
    if u.ratio(1, 4)? {
        s.tolerance = *u.choose(&[0.01, 0.05, 0.5, 2.0])?;
        s.corner_radius = f64::from(u.int_in_range(0..=20u8)?);
        s.merge_distance = f64::from(u.int_in_range(0..=10u8)?);
        s.snap_distance = f64::from(u.int_in_range(0..=5u8)?);
        s.min_block_area = *u.choose(&[0.0, 1.0, 100.0])?;
        s.profile.sidewalk_left = f64::from(u.int_in_range(0..=5u8)?);
        s.profile.sidewalk_right = s.profile.sidewalk_left;
    }
    Ok(s)
}

pub fn input(u: &mut Unstructured) -> Result<(Input, Settings)> {
    let settings = settings(u)?;
    let n = u.int_in_range(0..=MAX_ROADS)?;
    let mut roads = Vec::with_capacity(n);
    for i in 0..n {
        roads.push(road(u, i)?);
    }
    Ok((Input { roads }, settings))
}
