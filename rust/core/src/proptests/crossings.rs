//! Property test of the crossing search (a child module of `graph`): the sweep finds
//! exactly the crossings that testing every pair of segments finds.

use crate::proptest_config as config;

use proptest::prelude::*;

use super::{adjacent, find_crossings, norm_s, RoadLine};
use crate::geom::{project_on_segment, segment_hit, Line, SegHit};
use crate::types::{Point, Point3};
use crate::Settings;

/// Cases of the property.
const CASES: u32 = 256;
/// Seed of the case generator, so that every run (and CI) draws the same cases; set
/// `PROPTEST_RNG_SEED` to draw others.
const SEED: u64 = 0x5EED_C805;

/// A coordinate: mostly on a 10 m grid (so that roads share points, touch at ends and overlap
/// along collinear stretches), otherwise anywhere.
fn coord() -> impl Strategy<Value = f64> {
    prop_oneof![3 => (0..20i32).prop_map(|i| f64::from(i) * 10.0), 1 => 0.0..200.0f64]
}

fn road(i: usize, pts: Vec<(f64, f64)>, closed: bool) -> Option<RoadLine> {
    let mut pts: Vec<Point3> = pts.into_iter().map(|(x, y)| Point3::new(x, y, 0.0)).collect();
    pts.dedup_by(|b, a| a.xy() == b.xy());
    let closed = closed && pts.len() >= 3 && pts[0].xy() != pts[pts.len() - 1].xy();
    if closed {
        pts.push(pts[0]);
    }
    (pts.len() >= 2).then(|| {
        let line = Line::new(pts);
        let hi = line.length();
        RoadLine {
            id: format!("r{i}"),
            width: 7.0,
            layer: 0,
            closed,
            has_height: false,
            profile: crate::Profile::default(),
            corner_radius: Settings::default().corner_radius,
            line,
            lo: 0.0,
            hi,
        }
    })
}

fn roads() -> impl Strategy<Value = Vec<RoadLine>> {
    proptest::collection::vec((proptest::collection::vec((coord(), coord()), 2..8), any::<bool>()), 1..12)
        .prop_map(|v| v.into_iter().enumerate().filter_map(|(i, (pts, closed))| road(i, pts, closed)).collect())
}

/// (road a, arc length on a, road b, arc length on b, x, y) of a crossing.
type Key = (usize, f64, usize, f64, f64, f64);

/// Every pair of segments, tested with the exact `segment_hit`: a crossing point, or each end
/// of a collinear overlap; neighbouring segments of one road are not tested.
fn brute_force(roads: &[RoadLine]) -> Vec<Key> {
    let mut segs = Vec::new();
    for (r, road) in roads.iter().enumerate() {
        for k in 0..road.line.pts.len() - 1 {
            segs.push((r, k));
        }
    }
    let mut out = Vec::new();
    for (i, &(r1, k1)) in segs.iter().enumerate() {
        for &(r2, k2) in &segs[i + 1..] {
            if r1 == r2 && adjacent(&roads[r1], k1, k2) {
                continue;
            }
            let (l1, l2) = (&roads[r1].line, &roads[r2].line);
            let (a0, a1) = (l1.pts[k1].xy(), l1.pts[k1 + 1].xy());
            let (b0, b1) = (l2.pts[k2].xy(), l2.pts[k2 + 1].xy());
            let hits: Vec<(f64, f64)> = match segment_hit(a0, a1, b0, b1) {
                SegHit::None => Vec::new(),
                SegHit::Point { ta, tb } => vec![(ta, tb)],
                SegHit::Overlap { ta0, ta1 } => {
                    [ta0, ta1].iter().map(|&ta| (ta, project_on_segment(a0.lerp(a1, ta), b0, b1).0)).collect()
                }
            };
            for (ta, tb) in hits {
                let sa = norm_s(&roads[r1], l1.s_of(k1, ta));
                let sb = norm_s(&roads[r2], l2.s_of(k2, tb));
                if r1 == r2 && sa == sb {
                    continue;
                }
                let p: Point = a0.lerp(a1, ta);
                out.push((r1, sa, r2, sb, p.x, p.y));
            }
        }
    }
    out
}

fn sorted(mut v: Vec<Key>) -> Vec<Key> {
    v.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then(a.1.total_cmp(&b.1))
            .then(a.2.cmp(&b.2))
            .then(a.3.total_cmp(&b.3))
            .then(a.4.total_cmp(&b.4))
            .then(a.5.total_cmp(&b.5))
    });
    v
}

proptest! {
    #![proptest_config(config::proptest_config(CASES, SEED))]

    /// The same crossings, one for one: same roads, same positions along them (exactly) and the
    /// same points (within rounding: the search copies a segment's end point exactly where the
    /// brute force interpolates).
    #[test]
    fn sweep_finds_what_brute_force_finds(roads in roads()) {
        let mut diags = Vec::new();
        let found: Vec<Key> = find_crossings(&roads, &Settings::default(), &mut diags)
            .into_iter()
            .map(|c| (c.a, c.sa, c.b, c.sb, c.p.x, c.p.y))
            .collect();
        prop_assert!(diags.is_empty(), "one layer, no heights: no grade separation expected");
        let (found, expected) = (sorted(found), sorted(brute_force(&roads)));
        prop_assert_eq!(found.len(), expected.len(), "found {:?}, expected {:?}", found, expected);
        for (f, e) in found.iter().zip(&expected) {
            prop_assert!(f.0 == e.0 && f.1 == e.1 && f.2 == e.2 && f.3 == e.3, "{f:?} != {e:?}");
            prop_assert!((f.4 - e.4).abs() <= 1e-9 && (f.5 - e.5).abs() <= 1e-9, "{f:?} != {e:?}");
        }
    }
}
