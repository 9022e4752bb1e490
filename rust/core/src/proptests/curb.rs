//! Property tests of curb lines (a child module of `curb`): offsets are at the right distance
//! and on the right side of the centerline.

use crate::proptest_config as config;

use proptest::prelude::*;

use super::{offset_at, Curb, Side, MITER_LIMIT};
use crate::geom::{orient, Line};
use crate::types::{Point, Point3};

/// Cases per property.
const CASES: u32 = 512;
/// Seed of the case generator, so that every run (and CI) draws the same cases; set
/// `PROPTEST_RNG_SEED` to draw others.
const SEED: u64 = 0x5EED_C0B5;
/// Relative slack for rounding: centerlines are within 1 km, half-widths up to 20 m.
const REL: f64 = 1e-9;

/// A centerline of 2 to 11 points within 1 km whose consecutive points are at least 1 m apart.
fn centerline() -> impl Strategy<Value = Vec<Point3>> {
    proptest::collection::vec((-500.0..500.0f64, -500.0..500.0f64), 2..12).prop_filter_map(
        "consecutive points closer than 1 m",
        |xy| {
            let pts: Vec<Point3> = xy.into_iter().map(|(x, y)| Point3::new(x, y, 0.0)).collect();
            pts.windows(2).all(|w| w[0].xy().dist(w[1].xy()) >= 1.0).then_some(pts)
        },
    )
}

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::Left), Just(Side::Right)]
}

/// Signed distance of `p` from the infinite line of centerline segment `k`, positive on the
/// left.
fn signed_dist(line: &Line, k: usize, p: Point) -> f64 {
    p.sub(line.pts[k].xy()).dot(line.dir(k).perp())
}

fn close(a: f64, b: f64, scale: f64) -> bool {
    (a - b).abs() <= REL * scale
}

proptest! {
    #![proptest_config(config::proptest_config(CASES, SEED))]

    /// The offset at any arc length is `half` away from the centerline point there, square to
    /// the segment and on the asked side.
    #[test]
    fn offsets_are_at_the_half_width(pts in centerline(), half in 0.1..20.0f64, side in side(), f in 0.0..1.0f64) {
        let line = Line::new(pts);
        let s = f * line.length();
        let c = line.point_at(s).xy();
        let o = offset_at(&line, s, half, side);
        let k = line.segment_at(s);
        let scale = 1000.0;
        prop_assert!(close(o.dist(c), half, scale), "offset {} m from the centerline, half-width {half}", o.dist(c));
        prop_assert!(o.sub(c).dot(line.dir(k)).abs() <= REL * scale, "offset not square to the segment");
        let sign = if side == Side::Left { 1.0 } else { -1.0 };
        prop_assert!(close(signed_dist(&line, k, o), sign * half, scale), "offset on the wrong side");
    }

    /// Every curb segment runs on the parallel of the centerline segment it follows: its end
    /// lies on that parallel, its start too (or, for a bevel's connector, on the parallel of
    /// the previous segment, exactly `half` from the centerline vertex between them); mitre
    /// points stay within the mitre limit.
    #[test]
    fn curb_segments_run_at_the_half_width(pts in centerline(), half in 0.1..20.0f64, side in side()) {
        let line = Line::new(pts);
        let curb = Curb::new(&line, half, side, line.length(), 0.0);
        let sign = if side == Side::Left { 1.0 } else { -1.0 };
        let scale = 1000.0;
        prop_assert_eq!(curb.verts.len(), curb.seg.len() + 1);
        prop_assert!(curb.len_segments() >= line.pts.len() - 1);
        for (q, &k) in curb.seg.iter().enumerate() {
            let (a, b) = (curb.verts[q].p, curb.verts[q + 1].p);
            prop_assert!(close(signed_dist(&line, k, b), sign * half, scale), "segment {q}: end off the parallel of {k}");
            let on_parallel = close(signed_dist(&line, k, a), sign * half, scale);
            let bevel = k >= 1
                && close(signed_dist(&line, k - 1, a), sign * half, scale)
                && close(a.dist(line.pts[k].xy()), half, scale)
                && close(b.dist(line.pts[k].xy()), half, scale);
            prop_assert!(on_parallel || bevel, "segment {q}: start off the parallel of {k}");
        }
        // Each curb vertex of an inner centerline vertex is within the mitre limit of it, on
        // the asked side of both segments that meet there.
        for v in &curb.verts {
            let near = (1..line.pts.len() - 1)
                .filter(|&i| v.p.dist(line.pts[i].xy()) <= MITER_LIMIT * half * (1.0 + REL))
                .count();
            let on_end = [0, line.pts.len() - 1].iter().any(|&i| close(v.p.dist(line.pts[i].xy()), half, scale));
            prop_assert!(near > 0 || on_end, "curb vertex {v:?} is beyond the mitre limit of every vertex");
        }
        // Start and end of the curb are the perpendicular offsets of the centerline's ends.
        let first = curb.verts[0].p;
        let last = curb.verts[curb.verts.len() - 1].p;
        prop_assert!(first.dist(offset_at(&line, 0.0, half, side)) == 0.0);
        prop_assert!(last.dist(offset_at(&line, line.length(), half, side)) == 0.0);
        // The curb starts on the asked side of the first segment.
        let c0 = line.pts[0].xy();
        let c1 = line.pts[1].xy();
        prop_assert!(orient(c0, c1, first) * sign > 0.0);
    }
}
