//! Small vector helpers and polylines parameterised by arc length.

use crate::types::{Point, Point3};

impl Point {
    pub(crate) fn sub(self, o: Point) -> Point {
        Point::new(self.x - o.x, self.y - o.y)
    }
    pub(crate) fn add(self, o: Point) -> Point {
        Point::new(self.x + o.x, self.y + o.y)
    }
    pub(crate) fn scale(self, k: f64) -> Point {
        Point::new(self.x * k, self.y * k)
    }
    pub(crate) fn dot(self, o: Point) -> f64 {
        self.x * o.x + self.y * o.y
    }
    pub(crate) fn cross(self, o: Point) -> f64 {
        self.x * o.y - self.y * o.x
    }
    pub(crate) fn len(self) -> f64 {
        // Coordinates are bounded (`Settings::max_coordinate`), so the plain form cannot
        // overflow and is much cheaper than `hypot`.
        (self.x * self.x + self.y * self.y).sqrt()
    }
    pub(crate) fn dist(self, o: Point) -> f64 {
        self.sub(o).len()
    }
    /// Unit vector, or zero for a zero vector.
    pub(crate) fn unit(self) -> Point {
        let l = self.len();
        if l > 0.0 {
            self.scale(1.0 / l)
        } else {
            Point::default()
        }
    }
    /// Rotated a quarter turn counter-clockwise (the left normal of a direction).
    pub(crate) fn perp(self) -> Point {
        Point::new(-self.y, self.x)
    }
    pub(crate) fn lerp(self, o: Point, t: f64) -> Point {
        Point::new(self.x + (o.x - self.x) * t, self.y + (o.y - self.y) * t)
    }
    pub(crate) fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }
}

impl Point3 {
    pub(crate) fn lerp(self, o: Point3, t: f64) -> Point3 {
        Point3::new(self.x + (o.x - self.x) * t, self.y + (o.y - self.y) * t, self.z + (o.z - self.z) * t)
    }
}

/// Exact orientation of `c` relative to the line `a -> b`: positive when `c` is to the left.
pub(crate) fn orient(a: Point, b: Point, c: Point) -> f64 {
    robust::orient2d(
        robust::Coord { x: a.x, y: a.y },
        robust::Coord { x: b.x, y: b.y },
        robust::Coord { x: c.x, y: c.y },
    )
}

/// How two closed segments meet, decided with exact predicates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum SegHit {
    /// They do not meet.
    None,
    /// They meet in one point, at parameters `ta` along `a` and `tb` along `b` (0..=1).
    Point { ta: f64, tb: f64 },
    /// They are collinear and overlap between the parameter ranges given along `a`.
    Overlap { ta0: f64, ta1: f64 },
}

/// Intersection of segments `a0-a1` and `b0-b1`. The topological decision is exact; the
/// parameters are computed afterwards, and an endpoint's parameter is exactly 0 or 1 when the
/// crossing is at it.
pub(crate) fn segment_hit(a0: Point, a1: Point, b0: Point, b1: Point) -> SegHit {
    let o1 = orient(a0, a1, b0);
    let o2 = orient(a0, a1, b1);
    let o3 = orient(b0, b1, a0);
    let o4 = orient(b0, b1, a1);
    if o1 == 0.0 && o2 == 0.0 {
        // Collinear (or a degenerate segment).
        let d = a1.sub(a0);
        let dd = d.dot(d);
        if dd == 0.0 {
            return SegHit::None;
        }
        let t0 = b0.sub(a0).dot(d) / dd;
        let t1 = b1.sub(a0).dot(d) / dd;
        let (lo, hi) = if t0 <= t1 { (t0, t1) } else { (t1, t0) };
        let lo = lo.max(0.0);
        let hi = hi.min(1.0);
        if lo > hi {
            return SegHit::None;
        }
        if lo == hi {
            let tb = if b1.sub(b0).dot(b1.sub(b0)) > 0.0 {
                let bd = b1.sub(b0);
                (a0.lerp(a1, lo).sub(b0).dot(bd) / bd.dot(bd)).clamp(0.0, 1.0)
            } else {
                0.0
            };
            return SegHit::Point { ta: lo, tb };
        }
        return SegHit::Overlap { ta0: lo, ta1: hi };
    }
    if (o1 > 0.0 && o2 > 0.0) || (o1 < 0.0 && o2 < 0.0) {
        return SegHit::None;
    }
    if (o3 > 0.0 && o4 > 0.0) || (o3 < 0.0 && o4 < 0.0) {
        return SegHit::None;
    }
    // They meet in exactly one point. Copy endpoints exactly when the crossing is at one.
    let ta = if o3 == 0.0 {
        0.0
    } else if o4 == 0.0 {
        1.0
    } else {
        o3 / (o3 - o4)
    };
    let tb = if o1 == 0.0 {
        0.0
    } else if o2 == 0.0 {
        1.0
    } else {
        o1 / (o1 - o2)
    };
    SegHit::Point { ta: ta.clamp(0.0, 1.0), tb: tb.clamp(0.0, 1.0) }
}

/// Closest point of segment `a-b` to `p`: the parameter (0..=1) and the distance.
pub(crate) fn project_on_segment(p: Point, a: Point, b: Point) -> (f64, f64) {
    let d = b.sub(a);
    let dd = d.dot(d);
    let t = if dd > 0.0 { (p.sub(a).dot(d) / dd).clamp(0.0, 1.0) } else { 0.0 };
    (t, a.lerp(b, t).dist(p))
}

/// A polyline with cumulative arc lengths (measured in the plane).
#[derive(Clone, Debug, Default)]
pub(crate) struct Line {
    pub(crate) pts: Vec<Point3>,
    /// `cum[i]` is the arc length from the first point to point `i`.
    pub(crate) cum: Vec<f64>,
}

impl Line {
    pub(crate) fn new(pts: Vec<Point3>) -> Self {
        let mut cum = Vec::with_capacity(pts.len());
        let mut acc = 0.0;
        for (i, p) in pts.iter().enumerate() {
            if i > 0 {
                acc += pts[i - 1].xy().dist(p.xy());
            }
            cum.push(acc);
        }
        Self { pts, cum }
    }

    pub(crate) fn length(&self) -> f64 {
        self.cum.last().copied().unwrap_or(0.0)
    }

    /// Index of the segment that holds arc length `s` (clamped to the line).
    pub(crate) fn segment_at(&self, s: f64) -> usize {
        let n = self.pts.len();
        if n < 2 {
            return 0;
        }
        // First index with cum > s, minus one.
        let i = self.cum.partition_point(|&c| c <= s);
        i.saturating_sub(1).min(n - 2)
    }

    /// The point at arc length `s` (clamped to the line).
    pub(crate) fn point_at(&self, s: f64) -> Point3 {
        let n = self.pts.len();
        if n == 0 {
            return Point3::default();
        }
        if n == 1 || s <= 0.0 {
            return self.pts[0];
        }
        if s >= self.length() {
            return self.pts[n - 1];
        }
        let k = self.segment_at(s);
        let len = self.cum[k + 1] - self.cum[k];
        let t = if len > 0.0 { (s - self.cum[k]) / len } else { 0.0 };
        self.pts[k].lerp(self.pts[k + 1], t)
    }

    /// Unit direction of segment `k` in the plane.
    pub(crate) fn dir(&self, k: usize) -> Point {
        match (self.pts.get(k), self.pts.get(k + 1)) {
            (Some(a), Some(b)) => b.xy().sub(a.xy()).unit(),
            _ => Point::default(),
        }
    }

    /// The part of the line between arc lengths `s0 < s1` (clamped), with interpolated ends.
    /// A vertex closer than `merge` (metres, along the line) to either end is left out, so that
    /// no end segment is so short that rounding decides its direction (a cut a few ulps past a
    /// vertex would otherwise point anywhere, and with it the road's mouth).
    pub(crate) fn cut(&self, s0: f64, s1: f64, merge: f64) -> Vec<Point3> {
        let len = self.length();
        let s0 = s0.clamp(0.0, len);
        let s1 = s1.clamp(0.0, len);
        if s1 <= s0 {
            return vec![self.point_at(s0)];
        }
        // The vertices strictly between the cuts (`cum` ascends).
        let (from, to) = (self.cum.partition_point(|&c| c <= s0), self.cum.partition_point(|&c| c < s1));
        let mut out = Vec::with_capacity(to.saturating_sub(from) + 2);
        out.push(self.point_at(s0));
        for i in from..to {
            let c = self.cum[i];
            if c - s0 > merge && s1 - c > merge {
                out.push(self.pts[i]);
            }
        }
        out.push(self.point_at(s1));
        out
    }

    /// Arc length of the point of segment `k` at parameter `t`.
    pub(crate) fn s_of(&self, k: usize, t: f64) -> f64 {
        match (self.cum.get(k), self.cum.get(k + 1)) {
            (Some(a), Some(b)) => a + (b - a) * t,
            _ => self.length(),
        }
    }
}

/// Signed area of a ring (counter-clockwise positive).
pub(crate) fn ring_area(ring: &[Point]) -> f64 {
    let n = ring.len();
    if n < 3 {
        return 0.0;
    }
    let mut a = 0.0;
    for i in 0..n {
        let p = ring[i];
        let q = ring[(i + 1) % n];
        a += p.x * q.y - q.x * p.y;
    }
    a * 0.5
}

/// Removes consecutive repeated points (and a last point equal to the first).
pub(crate) fn dedup_ring(ring: &mut Vec<Point>) {
    dedup_ring_within(ring, 0.0);
}

/// Removes consecutive points closer than `eps` to the point kept before them (and last points
/// that close to the first): the same point computed along two routes.
pub(crate) fn dedup_ring_within(ring: &mut Vec<Point>, eps: f64) {
    ring.dedup_by(|b, a| b.dist(*a) <= eps);
    while ring.len() > 1 && ring.first().zip(ring.last()).is_some_and(|(f, l)| f.dist(*l) <= eps) {
        ring.pop();
    }
}

/// Removes from a ring every vertex that is closer than `sqrt(min_area)` to the vertex before it,
/// that makes a triangle smaller than `min_area` with its two neighbours (in line with them), or
/// that lies less than `min_height` from the line through them, or whose neighbours are closer
/// than `min_height` or `sqrt(min_area)` to each other (a spike or notch thinner than that,
/// however long): such vertices only give meshes slivers. Keeps at least three vertices.
pub(crate) fn simplify_ring(ring: &mut Vec<Point>, min_area: f64, min_height: f64) {
    let min_len = min_area.sqrt();
    let min_base = min_len.max(min_height);
    let small = |a: Point, b: Point, c: Point| {
        let twice = b.sub(a).cross(c.sub(a)).abs();
        b.dist(a) < min_len || 0.5 * twice < min_area || twice < min_height * c.dist(a) || c.dist(a) < min_base
    };
    // Each pass is linear (a stack walk); a pass that removes nothing ends the loop, and every
    // other pass removes at least one vertex.
    loop {
        let n = ring.len();
        if n <= 3 {
            return;
        }
        let mut out: Vec<Point> = Vec::with_capacity(n);
        for &v in ring.iter() {
            while out.len() >= 2 && small(out[out.len() - 2], out[out.len() - 1], v) {
                out.pop();
            }
            out.push(v);
        }
        // Across the seam: the last vertex against the first two, the first against the ends.
        while out.len() > 3 && small(out[out.len() - 2], out[out.len() - 1], out[0]) {
            out.pop();
        }
        while out.len() > 3 && small(out[out.len() - 1], out[0], out[1]) {
            out.remove(0);
        }
        if out.len() < 3 {
            return;
        }
        let done = out.len() == n;
        *ring = out;
        if done {
            return;
        }
    }
}

/// Points closer than this share of the flattening tolerance are one point (the same corner
/// computed along two routes, which differ by rounding only).
pub(crate) const COINCIDENT_SHARE: f64 = 1e-3;

/// Number of pieces an arc of `angle` radians and radius `r` needs so that it stays within
/// `tolerance` of the true circle (at least one).
pub(crate) fn arc_steps(r: f64, angle: f64, tolerance: f64) -> usize {
    if !(r > tolerance) || !angle.is_finite() {
        return 1;
    }
    let step = 2.0 * (1.0 - tolerance / r).acos();
    if !(step > 0.0) {
        return 1;
    }
    // An arc is never more than a full turn; the cap keeps a tiny tolerance from asking for a
    // huge number of points.
    ((angle.abs() / step).ceil() as usize).clamp(1, MAX_ARC_STEPS)
}

/// Most pieces one fillet arc is split into, whatever the tolerance.
const MAX_ARC_STEPS: usize = 256;

#[cfg(test)]
mod tests {
    use super::*;

    /// A cut that ends or starts a rounding error away from a vertex leaves that vertex out,
    /// so its end segments point along the line, not anywhere.
    #[test]
    fn cuts_next_to_a_vertex_have_no_tiny_end_segment() {
        let line =
            Line::new(vec![Point3::new(0.0, 0.0, 0.0), Point3::new(10.0, 0.0, 0.0), Point3::new(10.0, 10.0, 0.0)]);
        let merge = 1e-6;
        let end = line.cut(2.0, 10.0 + 3e-14, merge);
        assert_eq!(end.len(), 2, "{end:?}");
        let start = line.cut(10.0 - 3e-14, 15.0, merge);
        assert_eq!(start.len(), 2, "{start:?}");
        let (a, b) = (start[0], start[1]);
        assert!((b.x - a.x).abs() < 1e-9 && b.y - a.y > 4.9, "{start:?}");
        // A vertex further than `merge` from both ends stays.
        assert_eq!(line.cut(2.0, 10.5, merge).len(), 3);
        assert_eq!(line.cut(9.5, 15.0, merge).len(), 3);
    }

    /// A spike whose neighbours lie closer together than the square root of the smallest
    /// triangle goes, however much wider than `min_height` its base is; a corner a few
    /// millimetres across stays.
    #[test]
    fn simplify_drops_a_spike_on_a_sub_millimetre_base() {
        let (min_area, min_height) = (1e-6, 1.0 / 8192.0);
        let p = Point::new;
        // A square with a spike 10 mm long on a base of 0.35 mm in its top edge.
        let mut ring = vec![
            p(0.0, 0.0),
            p(1.0, 0.0),
            p(1.0, 1.0),
            p(0.5, 1.0),
            p(0.5 + 0.008, 1.006),
            p(0.5 - 0.00035, 1.0),
            p(0.0, 1.0),
        ];
        simplify_ring(&mut ring, min_area, min_height);
        assert_eq!(ring, vec![p(0.0, 0.0), p(1.0, 0.0), p(1.0, 1.0), p(0.0, 1.0)]);
        // A notch 5 mm wide and 5 mm deep stays.
        let mut notch =
            vec![p(0.0, 0.0), p(1.0, 0.0), p(1.0, 1.0), p(0.5, 1.0), p(0.4975, 0.995), p(0.495, 1.0), p(0.0, 1.0)];
        let before = notch.clone();
        simplify_ring(&mut notch, min_area, min_height);
        assert_eq!(notch, before);
    }
}
