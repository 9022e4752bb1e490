//! Curb lines: a centerline offset sideways by half the carriageway width.
//!
//! A curb point at arc length `s` is the perpendicular offset of the centerline point at `s`
//! (`c(s) + side * w/2 * n_k`, with `n_k` the left normal of the segment that holds `s`).
//! Between centerline vertices the curb runs on the parallel line of each segment; at a vertex
//! the two parallel lines meet at their miter point, or, for turns sharper than the miter limit,
//! are joined by a bevel. Road pieces and junction mouths both use this one definition, so the
//! edges they share coincide exactly.

use crate::geom::Line;
use crate::types::Point;

/// Miter points further from the centerline than this many half-widths become bevels (a
/// ratio, not a length: 4 allows turns up to about 151 degrees between segments).
const MITER_LIMIT: f64 = 4.0;

/// Which side of a centerline, looking along it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    Left,
    Right,
}

impl Side {
    pub(crate) fn sign(self) -> f64 {
        match self {
            Side::Left => 1.0,
            Side::Right => -1.0,
        }
    }
}

/// One vertex of a curb polyline.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CurbVertex {
    pub(crate) p: Point,
}

/// A curb polyline along a centerline.
#[derive(Clone, Debug)]
pub(crate) struct Curb {
    pub(crate) verts: Vec<CurbVertex>,
    /// Centerline segment that each curb segment runs along (`usize::MAX` for the extension).
    pub(crate) seg: Vec<usize>,
}

/// The perpendicular offset of centerline point at `s`.
pub(crate) fn offset_at(line: &Line, s: f64, half: f64, side: Side) -> Point {
    let k = line.segment_at(s);
    let n = line.dir(k).perp();
    line.point_at(s).xy().add(n.scale(half * side.sign()))
}

/// The corner of a mouth at arc length `s` of an arm's line, which leads away from its
/// junction: the centerline point at `s` offset along the segment on the arm's side of it, a
/// vertex less than `merge` metres past `s` counting as at `s` (as [`Line::cut`] leaves such a
/// vertex out of the road piece). The junction's corner is then the piece's however `s` was
/// rounded: a setback a few ulps short of a vertex would otherwise take the segment inside the
/// junction, turned from the piece's last one by however much the road bends there.
pub(crate) fn mouth_at(line: &Line, s: f64, half: f64, side: Side, merge: f64) -> Point {
    let k = line.segment_at(s + merge);
    let n = line.dir(k).perp();
    line.point_at(s).xy().add(n.scale(half * side.sign()))
}

/// Curb vertices strictly inside `(s0, s1)`: the miter or bevel points of the centerline
/// vertices there, in order of increasing arc length.
pub(crate) fn inner_vertices(line: &Line, s0: f64, s1: f64, half: f64, side: Side, out: &mut Vec<Point>) {
    let n = line.pts.len();
    for i in 1..n.saturating_sub(1) {
        let s = line.cum[i];
        if s <= s0 || s >= s1 {
            continue;
        }
        push_joint(line, i, half, side, out);
    }
}

/// The miter point (or the two bevel points) of interior vertex `i`.
pub(crate) fn push_joint(line: &Line, i: usize, half: f64, side: Side, out: &mut Vec<Point>) {
    let c = line.pts[i].xy();
    let n0 = line.dir(i - 1).perp();
    let n1 = line.dir(i).perp();
    let h = half * side.sign();
    let denom = 1.0 + n0.dot(n1);
    if denom >= 2.0 / (MITER_LIMIT * MITER_LIMIT) {
        out.push(c.add(n0.add(n1).scale(h / denom)));
    } else {
        out.push(c.add(n0.scale(h)));
        out.push(c.add(n1.scale(h)));
    }
}

impl Curb {
    /// The curb of `line` on `side`, up to arc length `s_max`, extended backwards from the
    /// start along the first segment by `ext` metres.
    pub(crate) fn new(line: &Line, half: f64, side: Side, s_max: f64, ext: f64) -> Self {
        let n = line.pts.len();
        if n < 2 {
            return Self { verts: Vec::new(), seg: Vec::new() };
        }
        // Room for the ends, the extension and two points (a bevel) at each joint before `s_max`.
        let joints = line.cum.get(1..n - 1).map_or(0, |c| c.partition_point(|&c| c < s_max));
        let mut verts = Vec::with_capacity(2 * joints + 3);
        let mut seg = Vec::with_capacity(2 * joints + 3);
        let start = offset_at(line, 0.0, half, side);
        let d0 = line.dir(0);
        if ext > 0.0 {
            verts.push(CurbVertex { p: start.sub(d0.scale(ext)) });
            seg.push(usize::MAX);
        }
        verts.push(CurbVertex { p: start });
        let mut tmp = Vec::with_capacity(2);
        for i in 1..n - 1 {
            if line.cum[i] >= s_max {
                break;
            }
            tmp.clear();
            push_joint(line, i, half, side, &mut tmp);
            for &p in &tmp {
                seg.push(i - 1);
                verts.push(CurbVertex { p });
            }
            // A bevel's connector runs along the vertex, counted as the next segment.
            if let Some(last) = seg.last_mut() {
                if tmp.len() == 2 {
                    *last = i;
                }
            }
        }
        let s_end = s_max.min(line.length());
        let k = line.segment_at(s_end);
        seg.push(k);
        verts.push(CurbVertex { p: offset_at(line, s_end, half, side) });
        Self { verts, seg }
    }

    /// Centerline arc length of point `p` lying on curb segment `q`.
    pub(crate) fn s_of(&self, line: &Line, q: usize, p: Point) -> f64 {
        match self.seg.get(q) {
            Some(&k) if k != usize::MAX && k + 1 < line.pts.len() => {
                let c0 = line.pts[k].xy();
                (line.cum[k] + p.sub(c0).dot(line.dir(k))).clamp(line.cum[k], line.cum[k + 1])
            }
            _ => {
                // Backward extension: the distance before the start, negative.
                let start = self.verts.get(q + 1).map_or(p, |v| v.p);
                -p.dist(start)
            }
        }
    }

    /// Walks `dist` metres forward along the curb from point `p` on segment `q` (stopping at
    /// the curb's end). Returns the point reached and its segment.
    pub(crate) fn walk(&self, q: usize, p: Point, dist: f64) -> (Point, usize) {
        let mut q = q;
        let mut cur = p;
        let mut left = dist.max(0.0);
        while let Some(next) = self.verts.get(q + 1) {
            let l = cur.dist(next.p);
            if l >= left {
                let t = if l > 0.0 { left / l } else { 0.0 };
                return (cur.lerp(next.p, t), q);
            }
            left -= l;
            cur = next.p;
            if q + 2 >= self.verts.len() {
                break;
            }
            q += 1;
        }
        (cur, q)
    }

    /// Distance along the curb from point `p` on segment `q` forward to where the centerline
    /// position reaches `s_target` (or to the curb's end).
    pub(crate) fn reach(&self, line: &Line, q: usize, p: Point, s_target: f64) -> f64 {
        let mut q = q;
        let mut cur = p;
        let mut acc = 0.0;
        if self.s_of(line, q, p) >= s_target {
            return 0.0;
        }
        while let Some(next) = self.verts.get(q + 1) {
            let s_next = self.s_of(line, q, next.p);
            if s_next >= s_target {
                let s_cur = self.s_of(line, q, cur);
                let t = if s_next > s_cur { ((s_target - s_cur) / (s_next - s_cur)).clamp(0.0, 1.0) } else { 0.0 };
                return acc + cur.dist(next.p) * t;
            }
            acc += cur.dist(next.p);
            cur = next.p;
            if q + 2 >= self.verts.len() {
                break;
            }
            q += 1;
        }
        acc
    }

    /// Unit direction of curb segment `q`.
    pub(crate) fn dir(&self, q: usize) -> Point {
        match (self.verts.get(q), self.verts.get(q + 1)) {
            (Some(a), Some(b)) => b.p.sub(a.p).unit(),
            _ => Point::default(),
        }
    }

    pub(crate) fn len_segments(&self) -> usize {
        self.verts.len().saturating_sub(1)
    }
}

/// A road piece's mouth at a junction: the junction's id, the right and left corners, and the
/// road's height there.
pub(crate) type Mouth<'a> = (&'a str, Point, Point, f64);

/// The mouths of every road piece, at its start and its end when a junction is there: the one
/// definition that junction outlines and meshes are stitched to.
pub(crate) fn mouths<'a>(pieces: impl IntoIterator<Item = &'a crate::types::RoadPiece>) -> Vec<Mouth<'a>> {
    let mut out = Vec::new();
    for p in pieces {
        let line = Line::new(p.centerline.clone());
        let half = 0.5 * p.width;
        for (id, s) in [(&p.from, 0.0), (&p.to, line.length())] {
            if let Some(id) = id {
                let right = offset_at(&line, s, half, Side::Right);
                let left = offset_at(&line, s, half, Side::Left);
                out.push((id.as_str(), right, left, line.point_at(s).z));
            }
        }
    }
    out
}

#[cfg(test)]
#[path = "proptests/curb.rs"]
mod proptests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Point3;

    /// A setback a rounding error short of a vertex gives the corner of the segment past the
    /// vertex (the piece's), not of the one before it (inside the junction), as a setback just
    /// past it does.
    #[test]
    fn mouth_corner_takes_the_arm_side_of_a_vertex_at_the_setback() {
        let line =
            Line::new(vec![Point3::new(0.0, 0.0, 0.0), Point3::new(10.0, 0.0, 0.0), Point3::new(20.0, 10.0, 0.0)]);
        let merge = 1e-4;
        let short = 10.0 - 1e-12;
        let past = 10.0 + 1e-12;
        let turned = mouth_at(&line, past, 1.0, Side::Left, merge);
        let before = mouth_at(&line, short, 1.0, Side::Left, merge);
        assert!(before.dist(turned) < 1e-9, "{before:?} against {turned:?}");
        // The plain offset takes the segment that holds the setback: the first one.
        let plain = offset_at(&line, short, 1.0, Side::Left);
        assert!(plain.dist(Point::new(10.0, 1.0)) < 1e-9, "{plain:?}");
        assert!(plain.dist(turned) > 0.5, "{plain:?} against {turned:?}");
        // Further from the vertex than `merge`, the segment that holds the setback.
        let earlier = mouth_at(&line, 9.0, 1.0, Side::Left, merge);
        assert!(earlier.dist(Point::new(9.0, 1.0)) < 1e-9, "{earlier:?}");
    }
}
