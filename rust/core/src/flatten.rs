//! Curve flattening: a road's centerline (an Unreal-style spline or a polyline) becomes a
//! polyline that stays within a tolerance of the true curve.
//!
//! ## Spline semantics
//! Splines follow Unreal Engine 5's `FInterpCurve` with unit-spaced keys (point `i` sits at
//! parameter `i`; a closed spline's loop key is one unit after the last point):
//!
//! - Segment `i` runs from point `i` to point `i + 1`; a closed spline also has a segment from
//!   the last point back to the first.
//! - The segment's *start* point decides how it is interpolated: [`PointKind::Linear`] gives a
//!   straight line; [`PointKind::Constant`] also gives a straight line (Unreal holds the start
//!   value and jumps at the next key, which is no usable road centerline, so the only sensible
//!   reading of it is the straight line between the two points); the three curve kinds give
//!   the cubic Hermite segment of [`hermite`] with the start point's leave tangent and the end
//!   point's arrive tangent.
//! - Missing tangents are Unreal's automatic tangents, see [`auto_tangents`].
//!
//! ## Cleanup
//! Consecutive points with exactly the same x and y are merged (the first is kept); for a
//! closed road a last point equal (in x and y) to the first is dropped before the road is
//! closed. A road needs 2 distinct points (3 when closed) after that.

use crate::{Error, Point3, PointKind, Road, RoadGeometry, SplinePoint};

/// Deepest level of the adaptive subdivision of one segment.
///
/// Every level halves the parameter interval, so a segment gives at most 2^16 = 65,536 pieces.
/// The cap is needed because the flatness test can never pass for some inputs (a tolerance
/// far below the rounding error of the coordinates, or control points so large that the
/// distance computation overflows), and it is safe because at a normal scale the distance of
/// the inner control points from the chord shrinks about fourfold per level: a curve whose
/// control points are a kilometre off its chord is within 1 km / 4^16 ≈ 0.2 µm after 16
/// levels. At the cap the chord is emitted as it is.
const MAX_DEPTH: u32 = 16;

/// Smallest time difference Unreal divides by (`UE_KINDA_SMALL_NUMBER`).
const KINDA_SMALL_NUMBER: f64 = 1e-4;

/// Share of the neighbours' height difference near either neighbour within which
/// `ClampFloatTangent` starts to flatten a clamped tangent (Unreal writes it `0.333f`).
const CLAMP_THRESHOLD: f64 = 1.0 / 3.0;

/// The zero vector.
const ZERO: Point3 = Point3::new(0.0, 0.0, 0.0);

/// Flattens a road's centerline to a polyline within `tolerance` metres of the true curve.
/// For a closed road the returned polyline ends with a copy of its first point.
///
/// Polylines are used as they are (after cleanup). Each curve segment of a spline is turned
/// into its Bézier form (`p0`, `p0 + t0/3`, `p1 - t1/3`, `p1`) and split in halves (de
/// Casteljau) until both inner control points are within `tolerance` (3D distance) of the
/// chord between the piece's end points; the chord is then emitted. A Bézier curve lies in the
/// convex hull of its control points, and the distance to the chord is a convex function, so
/// its largest value on the hull is reached at a control point: every point of the true curve
/// is therefore within `tolerance` metres (in 3D) of the polyline. All vertices of the
/// polyline lie on the curve. Straight segments give just their end point.
///
/// Cost: the number of pieces of a segment grows like the square root of (how far its control
/// points are off the chord / `tolerance`), since each split makes that distance about four
/// times smaller; the work is proportional to the number of points emitted, at most 2^16 per
/// segment (the depth cap, reached only for absurd input, where the bound above no longer
/// holds).
///
/// # Errors
/// [`Error::BadRoad`] when a coordinate or a tangent is not finite (naming the point's index in
/// the input), or when fewer than 2 distinct points (3 for a closed road) remain after cleanup.
/// [`Error::BadSetting`] when `tolerance` is not finite and positive.
pub fn flatten_road(road: &Road, tolerance: f64) -> Result<Vec<Point3>, Error> {
    if !(tolerance.is_finite() && tolerance > 0.0) {
        return Err(Error::BadSetting { name: "tolerance", value: tolerance });
    }
    let points = match &road.geometry {
        RoadGeometry::Polyline(points) => {
            if let Some(i) = points.iter().position(|p| !is_finite(*p)) {
                return Err(bad_road(road, Some(i), "coordinate is not finite"));
            }
            points.clone()
        }
        RoadGeometry::Spline(points) => flatten_spline(road, points, tolerance)?,
    };
    finish(road, points)
}

/// Unreal's FMath::CubicInterp: Hermite segment p0 -> p1 with tangents t0 (leave of p0), t1
/// (arrive of p1) at parameter a in \[0,1\].
///
/// The value is `(2a³-3a²+1)·p0 + (a³-2a²+a)·t0 + (a³-a²)·t1 + (-2a³+3a²)·p1`; outside
/// `[0, 1]` the same polynomial is evaluated.
pub fn hermite(p0: Point3, t0: Point3, p1: Point3, t1: Point3, a: f64) -> Point3 {
    let a2 = a * a;
    let a3 = a2 * a;
    let h_p0 = 2.0 * a3 - 3.0 * a2 + 1.0;
    let h_t0 = a3 - 2.0 * a2 + a;
    let h_t1 = a3 - a2;
    let h_p1 = -2.0 * a3 + 3.0 * a2;
    let comb = |p0: f64, t0: f64, p1: f64, t1: f64| h_p0 * p0 + h_t0 * t0 + h_t1 * t1 + h_p1 * p1;
    Point3::new(comb(p0.x, t0.x, p1.x, t1.x), comb(p0.y, t0.y, p1.y, t1.y), comb(p0.z, t0.z, p1.z, t1.z))
}

/// Fills missing tangents with Unreal's automatic tangents (AutoSetTangents, tension 0, no
/// stationary endpoints). Returns (arrive, leave) per point.
///
/// A tangent that is given is used as it is; when only one of arrive and leave is given, it is
/// used for both. The others follow `FInterpCurve::AutoSetTangents`, with point `i` at key `i`,
/// its neighbours `prev`/`next` (for an open spline the point itself at either end, for a
/// closed one the wrap-around neighbour, one key before the first or after the last):
///
/// - curve kinds (a custom-tangent point without tangents counts as [`PointKind::Curve`]):
///   when `prev` is itself a curve kind, `((p - prev) + (next - p)) / max(1e-4, next time -
///   prev time)` for both tangents (each axis clamped by Unreal's `ClampFloatTangent` for
///   [`PointKind::CurveClamped`]); otherwise `prev`'s tangents are copied, as Unreal does;
/// - a [`PointKind::Linear`] point: leave `next - p`, arrive the same when `prev` is a curve
///   kind and `p - prev` otherwise;
/// - a [`PointKind::Constant`] point: zero.
pub fn auto_tangents(points: &[SplinePoint], closed: bool) -> Vec<(Point3, Point3)> {
    let Some(last) = points.len().checked_sub(1) else {
        return Vec::new();
    };
    (0..points.len()).map(|i| tangents_at(points, closed, i, last)).collect()
}

/// Where a point's neighbours are, by index and key.
struct Neighbours {
    /// Index of the previous point (the point itself at the start of an open spline).
    prev: usize,
    /// Index of the next point (the point itself at the end of an open spline).
    next: usize,
    /// Key of the previous point (one before the point's own key across a closed loop's seam).
    prev_time: f64,
    /// Key of the point.
    this_time: f64,
    /// Key of the next point (one after the point's own key across a closed loop's seam).
    next_time: f64,
}

/// The neighbours of point `i` of a spline whose last index is `last`.
fn neighbours(i: usize, last: usize, closed: bool) -> Neighbours {
    let prev = match (i, closed) {
        (0, true) => last,
        (0, false) => 0,
        _ => i - 1,
    };
    let next = if i == last {
        if closed {
            0
        } else {
            last
        }
    } else {
        i + 1
    };
    let this_time = i as f64;
    let prev_time = if closed && i == 0 { this_time - 1.0 } else { prev as f64 };
    let next_time = if closed && i == last { this_time + 1.0 } else { next as f64 };
    Neighbours { prev, next, prev_time, this_time, next_time }
}

/// Unreal's `IsCurveKey`: the kinds interpolated by a cubic.
fn is_curve_key(kind: PointKind) -> bool {
    matches!(kind, PointKind::Curve | PointKind::CurveClamped | PointKind::CurveCustomTangent)
}

/// The tangents the user gave, with one of them standing for both when the other is missing.
fn given_tangents(point: &SplinePoint) -> Option<(Point3, Point3)> {
    match (point.arrive_tangent, point.leave_tangent) {
        (Some(arrive), Some(leave)) => Some((arrive, leave)),
        (Some(t), None) | (None, Some(t)) => Some((t, t)),
        (None, None) => None,
    }
}

/// The (arrive, leave) tangents of point `i`.
fn tangents_at(points: &[SplinePoint], closed: bool, i: usize, last: usize) -> (Point3, Point3) {
    let Some(this) = points.get(i) else {
        return (ZERO, ZERO);
    };
    if !is_curve_key(this.kind) {
        return straight_tangents(points, closed, i, last);
    }
    if let Some(given) = given_tangents(this) {
        return given;
    }
    let nb = neighbours(i, last, closed);
    let (Some(prev), Some(next)) = (points.get(nb.prev), points.get(nb.next)) else {
        return (ZERO, ZERO);
    };
    if !is_curve_key(prev.kind) {
        // Following a line or a constant, Unreal copies its tangents. They depend only on
        // positions (or are given), never on other automatic curve tangents, so the order in
        // which points are visited does not matter, even across a closed loop's seam.
        return straight_tangents(points, closed, nb.prev, last);
    }
    let (p, q, r) = (prev.location, this.location, next.location);
    let tangent = if this.kind == PointKind::CurveClamped {
        let clamp = |p: f64, q: f64, r: f64| clamp_float_tangent(p, nb.prev_time, q, nb.this_time, r, nb.next_time);
        Point3::new(clamp(p.x, q.x, r.x), clamp(p.y, q.y, r.y), clamp(p.z, q.z, r.z))
    } else {
        let dt = (nb.next_time - nb.prev_time).max(KINDA_SMALL_NUMBER);
        scale(add(sub(q, p), sub(r, q)), 1.0 / dt)
    };
    (tangent, tangent)
}

/// The (arrive, leave) tangents of point `i` when it is not a curve kind (the given ones, or
/// Unreal's automatic tangents of a line or a constant).
fn straight_tangents(points: &[SplinePoint], closed: bool, i: usize, last: usize) -> (Point3, Point3) {
    let Some(this) = points.get(i) else {
        return (ZERO, ZERO);
    };
    if let Some(given) = given_tangents(this) {
        return given;
    }
    let nb = neighbours(i, last, closed);
    let (Some(prev), Some(next)) = (points.get(nb.prev), points.get(nb.next)) else {
        return (ZERO, ZERO);
    };
    match this.kind {
        PointKind::Constant => (ZERO, ZERO),
        _ => {
            let leave = sub(next.location, this.location);
            let arrive = if is_curve_key(prev.kind) { leave } else { sub(this.location, prev.location) };
            (arrive, leave)
        }
    }
}

/// Unreal's `ClampFloatTangent`: the automatic tangent of one axis, flattened at local extrema
/// and near a neighbour's value so that the curve does not overshoot.
fn clamp_float_tangent(
    prev_val: f64,
    prev_time: f64,
    cur_val: f64,
    cur_time: f64,
    next_val: f64,
    next_time: f64,
) -> f64 {
    let prev_to_next_time = (next_time - prev_time).max(KINDA_SMALL_NUMBER);
    let prev_to_cur_time = (cur_time - prev_time).max(KINDA_SMALL_NUMBER);
    let cur_to_next_time = (next_time - cur_time).max(KINDA_SMALL_NUMBER);

    let prev_to_next_height = next_val - prev_val;
    let prev_to_cur_height = cur_val - prev_val;
    let cur_to_next_height = next_val - cur_val;

    if (prev_to_cur_height >= 0.0 && cur_to_next_height <= 0.0)
        || (prev_to_cur_height <= 0.0 && cur_to_next_height >= 0.0)
    {
        // A crest or a trough (or a flat stretch): the tangent is flat.
        return 0.0;
    }
    // The three values form a slope, so `prev_to_next_height` is not zero; the guard keeps
    // the division below safe should that reasoning ever be broken.
    if prev_to_next_height == 0.0 {
        return 0.0;
    }
    let cur_to_next = cur_to_next_height / cur_to_next_time;
    let prev_to_cur = prev_to_cur_height / prev_to_cur_time;
    let prev_to_next = prev_to_next_height / prev_to_next_time;
    let alpha = prev_to_cur_height / prev_to_next_height;
    let lower = CLAMP_THRESHOLD;
    let upper = 1.0 - CLAMP_THRESHOLD;
    let lerp = |a: f64, b: f64, t: f64| a + (b - a) * t;

    let mut tangent = prev_to_next;
    if alpha < lower {
        let clamp = lerp(prev_to_next, prev_to_cur, 1.0 - alpha / CLAMP_THRESHOLD);
        tangent = if prev_to_next_height > 0.0 { tangent.min(clamp) } else { tangent.max(clamp) };
    }
    if alpha > upper {
        let clamp = lerp(prev_to_next, cur_to_next, (alpha - upper) / CLAMP_THRESHOLD);
        tangent = if prev_to_next_height > 0.0 { tangent.min(clamp) } else { tangent.max(clamp) };
    }
    tangent
}

/// Flattens the spline of `road` (without the closing point; [`finish`] adds it).
fn flatten_spline(road: &Road, points: &[SplinePoint], tolerance: f64) -> Result<Vec<Point3>, Error> {
    for (i, p) in points.iter().enumerate() {
        if !is_finite(p.location) {
            return Err(bad_road(road, Some(i), "coordinate is not finite"));
        }
        let tangents = [p.arrive_tangent, p.leave_tangent];
        if tangents.iter().flatten().any(|t| !is_finite(*t)) {
            return Err(bad_road(road, Some(i), "tangent is not finite"));
        }
    }
    // Keep each point's index in the input, for errors.
    let indexed: Vec<(usize, SplinePoint)> = points.iter().copied().enumerate().collect();
    let cleaned = dedupe(indexed, road.closed, |(_, p)| p.location);
    check_count(road, cleaned.len())?;
    let (origin, points): (Vec<usize>, Vec<SplinePoint>) = cleaned.into_iter().unzip();
    let tangents = auto_tangents(&points, road.closed);
    for ((arrive, leave), i) in tangents.iter().zip(&origin) {
        if !is_finite(*arrive) || !is_finite(*leave) {
            return Err(bad_road(road, Some(*i), "automatic tangent is not finite"));
        }
    }

    let n = points.len();
    let segments = if road.closed { n } else { n.saturating_sub(1) };
    let mut out = Vec::with_capacity(n + 1);
    if let Some(first) = points.first() {
        out.push(first.location);
    }
    for i in 0..segments {
        let j = if i + 1 == n { 0 } else { i + 1 };
        let (Some(a), Some(b), Some(ta), Some(tb)) = (points.get(i), points.get(j), tangents.get(i), tangents.get(j))
        else {
            break;
        };
        if !is_curve_key(a.kind) {
            out.push(b.location);
            continue;
        }
        let c1 = add(a.location, scale(ta.1, 1.0 / 3.0));
        let c2 = sub(b.location, scale(tb.0, 1.0 / 3.0));
        if !is_finite(c1) || !is_finite(c2) {
            let at = origin.get(i).copied();
            return Err(bad_road(road, at, "curve is too large to flatten"));
        }
        subdivide([a.location, c1, c2, b.location], tolerance, 0, &mut out);
    }
    Ok(out)
}

/// Emits the cubic Bézier `bezier` (without its first point) as chords within `tolerance`.
fn subdivide(bezier: [Point3; 4], tolerance: f64, depth: u32, out: &mut Vec<Point3>) {
    let [p0, p1, p2, p3] = bezier;
    let flat = distance_to_segment(p1, p0, p3) <= tolerance && distance_to_segment(p2, p0, p3) <= tolerance;
    if flat || depth >= MAX_DEPTH {
        out.push(p3);
        return;
    }
    let p01 = midpoint(p0, p1);
    let p12 = midpoint(p1, p2);
    let p23 = midpoint(p2, p3);
    let p012 = midpoint(p01, p12);
    let p123 = midpoint(p12, p23);
    let mid = midpoint(p012, p123);
    subdivide([p0, p01, p012, mid], tolerance, depth + 1, out);
    subdivide([mid, p123, p23, p3], tolerance, depth + 1, out);
}

/// Cleans up a flattened centerline, checks it still has enough points and closes it.
fn finish(road: &Road, points: Vec<Point3>) -> Result<Vec<Point3>, Error> {
    let mut points = dedupe(points, road.closed, |p| *p);
    check_count(road, points.len())?;
    if road.closed {
        if let Some(first) = points.first().copied() {
            points.push(first);
        }
    }
    Ok(points)
}

/// Merges consecutive items at the same x and y (keeping the first) and, when `closed`, drops
/// last items at the x and y of the first.
fn dedupe<T>(items: Vec<T>, closed: bool, location: impl Fn(&T) -> Point3) -> Vec<T> {
    let mut out: Vec<T> = Vec::with_capacity(items.len());
    for item in items {
        if out.last().is_some_and(|last| same_xy(location(last), location(&item))) {
            continue;
        }
        out.push(item);
    }
    if closed {
        while out.len() > 1 {
            match (out.first(), out.last()) {
                (Some(first), Some(last)) if same_xy(location(first), location(last)) => {
                    out.pop();
                }
                _ => break,
            }
        }
    }
    out
}

/// Fails unless `count` distinct points are enough for `road`.
fn check_count(road: &Road, count: usize) -> Result<(), Error> {
    if road.closed && count < 3 {
        Err(bad_road(road, None, "a closed road needs at least 3 distinct points"))
    } else if count < 2 {
        Err(bad_road(road, None, "a road needs at least 2 distinct points"))
    } else {
        Ok(())
    }
}

/// The error for a bad `road`.
fn bad_road(road: &Road, point: Option<usize>, reason: &str) -> Error {
    Error::BadRoad { road: road.id.clone(), point, reason: reason.to_owned() }
}

/// Same x and y, exactly.
fn same_xy(a: Point3, b: Point3) -> bool {
    a.x == b.x && a.y == b.y
}

/// All coordinates finite.
fn is_finite(p: Point3) -> bool {
    p.x.is_finite() && p.y.is_finite() && p.z.is_finite()
}

/// `a + b`.
fn add(a: Point3, b: Point3) -> Point3 {
    Point3::new(a.x + b.x, a.y + b.y, a.z + b.z)
}

/// `a - b`.
fn sub(a: Point3, b: Point3) -> Point3 {
    Point3::new(a.x - b.x, a.y - b.y, a.z - b.z)
}

/// `a * s`.
fn scale(a: Point3, s: f64) -> Point3 {
    Point3::new(a.x * s, a.y * s, a.z * s)
}

/// `a · b`.
fn dot(a: Point3, b: Point3) -> f64 {
    a.x * b.x + a.y * b.y + a.z * b.z
}

/// The point halfway between `a` and `b` (halved first, so that it cannot overflow).
fn midpoint(a: Point3, b: Point3) -> Point3 {
    add(scale(a, 0.5), scale(b, 0.5))
}

/// 3D distance from `p` to the segment `a`-`b` (to `a` when the segment is a point). NaN or
/// infinity when the computation overflows, which fails every `<=` test.
fn distance_to_segment(p: Point3, a: Point3, b: Point3) -> f64 {
    let ab = sub(b, a);
    let ap = sub(p, a);
    let len2 = dot(ab, ab);
    let t = if len2 > 0.0 {
        let t = dot(ap, ab) / len2;
        // Only an overflow (infinity / infinity) gives NaN: measure from `a` then.
        if t.is_nan() {
            0.0
        } else {
            t.clamp(0.0, 1.0)
        }
    } else {
        0.0
    };
    let d = sub(ap, scale(ab, t));
    dot(d, d).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64, z: f64) -> Point3 {
        Point3::new(x, y, z)
    }

    fn sp(location: Point3, kind: PointKind) -> SplinePoint {
        SplinePoint { location, arrive_tangent: None, leave_tangent: None, kind }
    }

    fn sp_t(location: Point3, arrive: Point3, leave: Point3, kind: PointKind) -> SplinePoint {
        SplinePoint { location, arrive_tangent: Some(arrive), leave_tangent: Some(leave), kind }
    }

    fn road(geometry: RoadGeometry, closed: bool) -> Road {
        Road {
            id: "r7".to_owned(),
            width: 8.0,
            layer: 0,
            closed,
            has_height: true,
            geometry,
            profile: Default::default(),
        }
    }

    fn spline(points: &[Point3], kind: PointKind, closed: bool) -> Road {
        let points = points.iter().map(|&l| sp(l, kind)).collect();
        road(RoadGeometry::Spline(points), closed)
    }

    fn close(a: Point3, b: Point3, eps: f64) -> bool {
        (a.x - b.x).abs() <= eps && (a.y - b.y).abs() <= eps && (a.z - b.z).abs() <= eps
    }

    fn assert_close(a: Point3, b: Point3) {
        assert!(close(a, b, 1e-12), "{a:?} != {b:?}");
    }

    fn distance_to_polyline(q: Point3, line: &[Point3]) -> f64 {
        line.windows(2)
            .map(|w| match w {
                [a, b] => distance_to_segment(q, *a, *b),
                _ => f64::INFINITY,
            })
            .fold(f64::INFINITY, f64::min)
    }

    /// `samples` points of the exact curve of an all-curve spline (evaluated with `hermite`).
    fn dense_samples(points: &[SplinePoint], closed: bool, samples: usize) -> Vec<Point3> {
        let tangents = auto_tangents(points, closed);
        let n = points.len();
        let segments = if closed { n } else { n - 1 };
        let mut out = Vec::new();
        for k in 0..samples {
            let u = k as f64 / (samples - 1) as f64 * segments as f64;
            let i = (u.floor() as usize).min(segments - 1);
            let a = u - i as f64;
            let j = (i + 1) % n;
            out.push(hermite(points[i].location, tangents[i].1, points[j].location, tangents[j].0, a));
        }
        out
    }

    fn bad_road_point(result: Result<Vec<Point3>, Error>) -> Option<usize> {
        match result {
            Err(Error::BadRoad { road, point, .. }) => {
                assert_eq!(road, "r7");
                point
            }
            other => panic!("expected BadRoad, got {other:?}"),
        }
    }

    #[test]
    fn hermite_end_and_mid_values() {
        let (p0, t0, p1, t1) = (p(1.0, 2.0, 3.0), p(4.0, 0.0, -2.0), p(5.0, -2.0, 7.0), p(0.0, 8.0, 2.0));
        assert_close(hermite(p0, t0, p1, t1, 0.0), p0);
        assert_close(hermite(p0, t0, p1, t1, 1.0), p1);
        // a = 1/2: weights 1/2, 1/8, -1/8, 1/2.
        // x: 0.5 + 0.5 + 0 + 2.5 = 3.5; y: 1 + 0 - 1 - 1 = -1; z: 1.5 - 0.25 - 0.25 + 3.5 = 4.5.
        assert_close(hermite(p0, t0, p1, t1, 0.5), p(3.5, -1.0, 4.5));
        // a = 1/4: weights 27/32, 9/64, -3/64, 5/32; x = 27/32 + 36/64 + 25/32 = 2.1875.
        let q = hermite(p0, t0, p1, t1, 0.25);
        assert!((q.x - 2.1875).abs() < 1e-12, "{q:?}");
    }

    #[test]
    fn curve_stays_within_tolerance_of_dense_samples() {
        let locs = [p(0.0, 0.0, 0.0), p(30.0, 10.0, 1.0), p(50.0, -20.0, 2.0), p(80.0, 0.0, 0.0), p(90.0, 40.0, 3.0)];
        for kind in [PointKind::Curve, PointKind::CurveClamped] {
            let r = spline(&locs, kind, false);
            let RoadGeometry::Spline(points) = &r.geometry else { unreachable!() };
            let samples = dense_samples(points, false, 2000);
            let mut counts = Vec::new();
            for tolerance in [0.01, 0.05, 0.5] {
                let line = flatten_road(&r, tolerance).unwrap();
                let worst = samples.iter().map(|&q| distance_to_polyline(q, &line)).fold(0.0, f64::max);
                assert!(worst <= tolerance * (1.0 + 1e-9), "{kind:?} {tolerance}: {worst}");
                // The control points are vertices of the polyline, in order, and it ends there.
                assert_eq!(line.first(), Some(&locs[0]));
                assert_eq!(line.last(), Some(&locs[4]));
                for l in &locs {
                    assert!(line.contains(l));
                }
                counts.push(line.len());
            }
            assert!(counts[0] > counts[1] && counts[1] > counts[2], "{counts:?}");
            // The control polygon alone is far off the curve: real subdivision happened.
            assert!(counts[2] > locs.len());
        }
    }

    #[test]
    fn custom_tangents_use_leave_of_start_and_arrive_of_end() {
        // Arrive and leave differ at every point, so mixing them up moves the curve.
        let points = vec![
            sp_t(p(0.0, 0.0, 0.0), p(0.0, 0.0, 0.0), p(0.0, 40.0, 0.0), PointKind::CurveCustomTangent),
            sp_t(p(20.0, 0.0, 5.0), p(30.0, -30.0, 0.0), p(10.0, 30.0, 2.0), PointKind::CurveCustomTangent),
            sp_t(p(40.0, 10.0, 0.0), p(0.0, 40.0, 0.0), p(-50.0, 0.0, 0.0), PointKind::CurveCustomTangent),
        ];
        let samples = dense_samples(&points, false, 2000);
        let line = flatten_road(&road(RoadGeometry::Spline(points), false), 0.03).unwrap();
        let worst = samples.iter().map(|&q| distance_to_polyline(q, &line)).fold(0.0, f64::max);
        assert!(worst <= 0.03 * (1.0 + 1e-9), "{worst}");
        // The true curve at a = 1/2 of segment 0, by hand: 0.5·p0 + 0.125·t0 - 0.125·t1 + 0.5·p1
        // = (10 - 3.75, 5 + 3.75, 2.5) = (6.25, 8.75, 2.5).
        assert!(distance_to_polyline(p(6.25, 8.75, 2.5), &line) <= 0.03);
    }

    #[test]
    fn straight_tangents_give_two_points() {
        let a = p(0.0, 0.0, 0.0);
        let b = p(10.0, 5.0, 1.0);
        let t = p(10.0, 5.0, 1.0);
        let r = road(
            RoadGeometry::Spline(vec![
                sp_t(a, t, t, PointKind::CurveCustomTangent),
                sp_t(b, t, t, PointKind::CurveCustomTangent),
            ]),
            false,
        );
        assert_eq!(flatten_road(&r, 1e-6).unwrap(), vec![a, b]);
        // Automatic tangents of two curve points are the chord: straight as well.
        assert_eq!(flatten_road(&spline(&[a, b], PointKind::Curve, false), 1e-6).unwrap(), vec![a, b]);
        // A bent tangent is not straight.
        let bent = road(
            RoadGeometry::Spline(vec![
                sp_t(a, t, p(0.0, 20.0, 0.0), PointKind::CurveCustomTangent),
                sp_t(b, t, t, PointKind::CurveCustomTangent),
            ]),
            false,
        );
        assert!(flatten_road(&bent, 0.01).unwrap().len() > 2);
    }

    #[test]
    fn auto_tangents_open_curve() {
        let points = [
            sp(p(0.0, 0.0, 0.0), PointKind::Curve),
            sp(p(4.0, 2.0, 0.0), PointKind::Curve),
            sp(p(6.0, -2.0, 1.0), PointKind::Curve),
        ];
        let t = auto_tangents(&points, false);
        assert_eq!(t.len(), 3);
        // Ends: one-sided differences; middle: (next - prev) / 2.
        assert_close(t[0].0, p(4.0, 2.0, 0.0));
        assert_close(t[0].1, p(4.0, 2.0, 0.0));
        assert_close(t[1].0, p(3.0, -1.0, 0.5));
        assert_close(t[1].1, p(3.0, -1.0, 0.5));
        assert_close(t[2].0, p(2.0, -4.0, 1.0));
        assert_close(t[2].1, p(2.0, -4.0, 1.0));
    }

    #[test]
    fn auto_tangents_given_linear_constant_and_copy_rules() {
        // A given tangent is used as is; one given stands for both.
        let mut given = sp(p(4.0, 2.0, 0.0), PointKind::Curve);
        given.leave_tangent = Some(p(9.0, 9.0, 9.0));
        let points = [sp(p(0.0, 0.0, 0.0), PointKind::Curve), given, sp(p(6.0, -2.0, 1.0), PointKind::Curve)];
        let t = auto_tangents(&points, false);
        assert_close(t[1].0, p(9.0, 9.0, 9.0));
        assert_close(t[1].1, p(9.0, 9.0, 9.0));
        assert_close(t[2].0, p(2.0, -4.0, 1.0));

        // Linear after a curve: arrive = leave = next - this. Curve after a linear: copy.
        let points = [
            sp(p(0.0, 0.0, 0.0), PointKind::Curve),
            sp(p(10.0, 0.0, 0.0), PointKind::Linear),
            sp(p(20.0, 5.0, 0.0), PointKind::Curve),
            sp(p(30.0, 5.0, 0.0), PointKind::Constant),
            sp(p(40.0, 0.0, 0.0), PointKind::Linear),
        ];
        let t = auto_tangents(&points, false);
        assert_close(t[1].0, p(10.0, 5.0, 0.0));
        assert_close(t[1].1, p(10.0, 5.0, 0.0));
        assert_close(t[2].0, p(10.0, 5.0, 0.0));
        assert_close(t[2].1, p(10.0, 5.0, 0.0));
        assert_close(t[3].0, ZERO);
        assert_close(t[3].1, ZERO);
        // Linear after a constant: arrive = this - prev; leave at the open end is zero.
        assert_close(t[4].0, p(10.0, -5.0, 0.0));
        assert_close(t[4].1, ZERO);

        // Linear first (not a curve key before it): arrive this - prev, leave next - this.
        let points = [
            sp(p(0.0, 0.0, 0.0), PointKind::Linear),
            sp(p(10.0, 0.0, 0.0), PointKind::Linear),
            sp(p(20.0, 10.0, 0.0), PointKind::Curve),
        ];
        let t = auto_tangents(&points, false);
        assert_close(t[1].0, p(10.0, 0.0, 0.0));
        assert_close(t[1].1, p(10.0, 10.0, 0.0));
        // The curve after it copies both, arrive included.
        assert_close(t[2].0, p(10.0, 0.0, 0.0));
        assert_close(t[2].1, p(10.0, 10.0, 0.0));
    }

    #[test]
    fn auto_tangents_clamped() {
        // x rises 0, 1, 10: alpha 0.1 -> lerp(5, 1, 0.7) = 2.2; y is a crest -> 0.
        // z falls 10, 9, 0 -> max(-5, lerp(-5, -1, 0.7)) = -2.2.
        let points = [
            sp(p(0.0, 0.0, 10.0), PointKind::CurveClamped),
            sp(p(1.0, 5.0, 9.0), PointKind::CurveClamped),
            sp(p(10.0, 0.0, 0.0), PointKind::CurveClamped),
        ];
        let t = auto_tangents(&points, false);
        assert_close(t[1].1, p(2.2, 0.0, -2.2));
        assert_close(t[1].0, t[1].1);
        // Open ends: the one-sided difference makes every axis an extremum -> 0.
        assert_close(t[0].1, ZERO);
        assert_close(t[2].0, ZERO);
        // Near the upper neighbour: 0, 9, 10 -> alpha 0.9 -> lerp(5, 1, 0.7) = 2.2; the
        // middle third is not clamped: 0, 5, 10 -> 5.
        assert!((clamp_float_tangent(0.0, 0.0, 9.0, 1.0, 10.0, 2.0) - 2.2).abs() < 1e-12);
        assert!((clamp_float_tangent(0.0, 0.0, 5.0, 1.0, 10.0, 2.0) - 5.0).abs() < 1e-12);
        assert!((clamp_float_tangent(10.0, 0.0, 1.0, 1.0, 0.0, 2.0) + 2.2).abs() < 1e-12);
    }

    #[test]
    fn closed_spline_wraps_and_closes() {
        let locs = [p(0.0, 0.0, 0.0), p(20.0, 0.0, 0.0), p(20.0, 20.0, 2.0), p(0.0, 20.0, 0.0)];
        let r = spline(&locs, PointKind::Curve, true);
        let RoadGeometry::Spline(points) = &r.geometry else { unreachable!() };
        let t = auto_tangents(points, true);
        // Point 0: (p1 - p3) / 2 across the seam; point 3: (p0 - p2) / 2.
        assert_close(t[0].1, p(10.0, -10.0, 0.0));
        assert_close(t[3].0, p(-10.0, -10.0, -1.0));
        let open = auto_tangents(points, false);
        assert_close(open[0].1, p(20.0, 0.0, 0.0));

        let line = flatten_road(&r, 0.02).unwrap();
        assert_eq!(line.first(), line.last());
        assert_eq!(line.first(), Some(&locs[0]));
        // No duplicate where segments join, and the closing copy appears once.
        assert!(line.windows(2).all(|w| !same_xy(w[0], w[1])));
        assert_eq!(line.iter().filter(|&&q| q == locs[0]).count(), 2);
        let samples = dense_samples(points, true, 2000);
        let worst = samples.iter().map(|&q| distance_to_polyline(q, &line)).fold(0.0, f64::max);
        assert!(worst <= 0.02 * (1.0 + 1e-9), "{worst}");
        // The wrap segment is curved (the tangent at point 0 is not along the seam chord).
        let last_ctrl = line.iter().rposition(|&q| q == locs[3]).unwrap();
        assert!(line.len() - last_ctrl > 2);

        // A closed road whose last point repeats the first gives the same polyline.
        let mut repeated = locs.to_vec();
        repeated.push(locs[0]);
        assert_eq!(flatten_road(&spline(&repeated, PointKind::Curve, true), 0.02).unwrap(), line);
    }

    #[test]
    fn linear_and_constant_segments_are_straight() {
        let locs = [p(0.0, 0.0, 0.0), p(10.0, 3.0, 1.0), p(15.0, -7.0, 2.0), p(30.0, 0.0, 0.0)];
        for kind in [PointKind::Linear, PointKind::Constant] {
            let line = flatten_road(&spline(&locs, kind, false), 0.001).unwrap();
            assert_eq!(line, locs.to_vec());
        }
        // Mixed: the linear start makes segment 0 straight; segment 1 (a curve) is not.
        let r = road(
            RoadGeometry::Spline(vec![
                sp(locs[0], PointKind::Linear),
                sp(locs[1], PointKind::Curve),
                sp(locs[2], PointKind::Curve),
                sp(locs[3], PointKind::Curve),
            ]),
            false,
        );
        let line = flatten_road(&r, 0.001).unwrap();
        assert_eq!(&line[..2], &locs[..2]);
        assert!(line.len() > locs.len());

        let poly = road(RoadGeometry::Polyline(locs.to_vec()), true);
        let mut closed = locs.to_vec();
        closed.push(locs[0]);
        assert_eq!(flatten_road(&poly, 0.05).unwrap(), closed);
    }

    #[test]
    fn duplicate_points_are_merged() {
        let a = p(0.0, 0.0, 0.0);
        let a2 = p(0.0, 0.0, 5.0);
        let b = p(10.0, 0.0, 0.0);
        let c = p(10.0, 10.0, 0.0);
        let poly = road(RoadGeometry::Polyline(vec![a, a2, b, b, b, c, c]), false);
        assert_eq!(flatten_road(&poly, 0.05).unwrap(), vec![a, b, c]);
        let closed = road(RoadGeometry::Polyline(vec![a, b, b, c, a2]), true);
        assert_eq!(flatten_road(&closed, 0.05).unwrap(), vec![a, b, c, a]);
        // A duplicated spline point does not change the curve.
        let clean = flatten_road(&spline(&[a, b, c], PointKind::Curve, false), 0.01).unwrap();
        let dup = flatten_road(&spline(&[a, a, b, b, c], PointKind::Curve, false), 0.01);
        assert_eq!(dup.unwrap(), clean);
        // Only the duplicates: too few points.
        assert_eq!(bad_road_point(flatten_road(&road(RoadGeometry::Polyline(vec![a, a2]), false), 0.05)), None);
        assert_eq!(bad_road_point(flatten_road(&road(RoadGeometry::Polyline(vec![a, b, a]), true), 0.05)), None);
    }

    #[test]
    fn non_finite_values_name_the_point() {
        let a = p(0.0, 0.0, 0.0);
        let b = p(10.0, 0.0, 0.0);
        let nan = p(1.0, f64::NAN, 0.0);
        let poly = road(RoadGeometry::Polyline(vec![a, b, nan]), false);
        assert_eq!(bad_road_point(flatten_road(&poly, 0.05)), Some(2));
        let r = spline(&[a, a, nan, b], PointKind::Curve, false);
        assert_eq!(bad_road_point(flatten_road(&r, 0.05)), Some(2));
        let mut bad_tangent = sp(b, PointKind::CurveCustomTangent);
        bad_tangent.arrive_tangent = Some(p(f64::INFINITY, 0.0, 0.0));
        let r = road(RoadGeometry::Spline(vec![sp(a, PointKind::Curve), bad_tangent]), false);
        assert_eq!(bad_road_point(flatten_road(&r, 0.05)), Some(1));
        let r = spline(&[a, p(f64::MAX, 0.0, 0.0), p(-f64::MAX, 1.0, 0.0)], PointKind::Curve, false);
        assert!(matches!(flatten_road(&r, 0.05), Err(Error::BadRoad { point: Some(_), .. })));
    }

    #[test]
    fn single_point_and_bad_tolerance() {
        let one = spline(&[p(1.0, 2.0, 3.0)], PointKind::Curve, false);
        assert_eq!(bad_road_point(flatten_road(&one, 0.05)), None);
        let none = road(RoadGeometry::Spline(Vec::new()), false);
        assert_eq!(bad_road_point(flatten_road(&none, 0.05)), None);
        let two = spline(&[p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0)], PointKind::Curve, true);
        assert_eq!(bad_road_point(flatten_road(&two, 0.05)), None);
        for tolerance in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(matches!(flatten_road(&one, tolerance), Err(Error::BadSetting { name: "tolerance", .. })));
        }
        assert!(auto_tangents(&[], true).is_empty());
    }

    #[test]
    fn degenerate_curves_do_not_panic() {
        let a = p(0.0, 0.0, 0.0);
        let b = p(10.0, 0.0, 0.0);
        // Zero tangents: the Bézier control points sit on the end points -> the chord.
        let zero = road(
            RoadGeometry::Spline(vec![
                sp_t(a, ZERO, ZERO, PointKind::CurveCustomTangent),
                sp_t(b, ZERO, ZERO, PointKind::CurveCustomTangent),
            ]),
            false,
        );
        assert_eq!(flatten_road(&zero, 0.01).unwrap(), vec![a, b]);
        // A cusp: the control polygon crosses itself.
        let cusp = road(
            RoadGeometry::Spline(vec![
                sp_t(a, ZERO, p(30.0, 30.0, 0.0), PointKind::CurveCustomTangent),
                sp_t(b, p(30.0, -30.0, 0.0), ZERO, PointKind::CurveCustomTangent),
            ]),
            false,
        );
        let line = flatten_road(&cusp, 0.01).unwrap();
        assert!(line.len() > 2 && line.iter().all(|q| is_finite(*q)));
        assert!(line.windows(2).all(|w| !same_xy(w[0], w[1])));
        // Huge tangents: the depth cap ends the subdivision.
        let huge = road(
            RoadGeometry::Spline(vec![
                sp_t(a, ZERO, p(1e300, -1e300, 0.0), PointKind::CurveCustomTangent),
                sp_t(b, p(-1e300, 1e300, 1e300), ZERO, PointKind::CurveCustomTangent),
            ]),
            false,
        );
        let line = flatten_road(&huge, 0.01).unwrap();
        assert!(line.len() <= (1 << MAX_DEPTH) + 1);
        assert!(line.iter().all(|q| is_finite(*q)));
        // Points only differing in height along a vertical curve piece are merged.
        let vertical = road(
            RoadGeometry::Spline(vec![
                sp_t(a, ZERO, p(0.0, 0.0, 30.0), PointKind::CurveCustomTangent),
                sp_t(b, ZERO, ZERO, PointKind::CurveCustomTangent),
            ]),
            false,
        );
        let line = flatten_road(&vertical, 0.01).unwrap();
        assert!(line.windows(2).all(|w| !same_xy(w[0], w[1])));
    }
}
