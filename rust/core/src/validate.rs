//! Polygon validity and the network's invariants.
//!
//! The pipeline calls [`ring_is_simple`], [`check_polygon`] and [`signed_area`] on its hot
//! paths; every test calls [`check_network`] on what the pipeline builds (in the spirit of
//! spade's `sanity_check`).
//!
//! ## Conventions
//! Rings are open (the first point is not repeated). The exterior ring is counter-clockwise
//! (positive signed area), holes are clockwise. Every topological decision (do two edges meet,
//! which way does a ring turn, is a point inside) is taken with the exact predicate
//! [`robust::orient2d`] and exact coordinate comparisons; no tolerance is involved. Rings of
//! more than [`BRUTE_FORCE_LIMIT`] edges are checked by sorting their boxes and sweeping them (an
//! R-tree when that would take long), so a check costs about O(n log n) for the rings the
//! pipeline makes.
//!
//! [`check_network`] is for tests and reports: it measures overlaps and gaps with `i_overlay`'s
//! boolean operations (floating point, snapped to an integer grid).

use std::cmp::Ordering;
use std::ops::ControlFlow;

use i_overlay::core::{fill_rule::FillRule, overlay_rule::OverlayRule};
use i_overlay::float::overlay::FloatOverlay;
use i_overlay::float::single::SingleFloatOverlay;
use rayon::prelude::*;
use rstar::primitives::{GeomWithData, Rectangle};
use rstar::{RTree, AABB};

use crate::{Network, Point, Polygon};

/// Up to this many boxes (ring edges, holes, features), pairs are found by brute force; above
/// it, by sorting and sweeping (or an R-tree). 32 made the network stage of liege cheapest
/// (instructions counted against 16 and 64; docs/PERFORMANCE_LOG.md).
pub const BRUTE_FORCE_LIMIT: usize = 32;

/// What makes a ring or polygon invalid, with where.
///
/// Rings are numbered as in [`Polygon`]: ring 0 is the exterior, ring `k >= 1` is
/// `holes[k - 1]`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Invalid {
    /// A ring has fewer than three points.
    #[error("ring {ring} has fewer than 3 points")]
    TooFewPoints {
        /// The ring.
        ring: usize,
    },
    /// A coordinate is NaN or infinite.
    #[error("ring {ring}, point {index}: coordinate is not finite")]
    NonFinite {
        /// The ring.
        ring: usize,
        /// The point's index in the ring.
        index: usize,
    },
    /// A point equals the point after it (the last point is followed by the first, so a ring
    /// stored closed is reported here).
    #[error("ring {ring}, point {index}: equal to the next point")]
    RepeatedPoint {
        /// The ring.
        ring: usize,
        /// The index of the point that equals the next one.
        index: usize,
    },
    /// Two edges of a ring cross or touch, or two consecutive edges fold back onto each other.
    #[error("ring {ring} intersects itself at ({}, {})", .at.x, .at.y)]
    SelfIntersection {
        /// The ring.
        ring: usize,
        /// Where (a crossing point, the touching point, or the vertex where the ring folds back).
        at: Point,
    },
    /// The exterior is not counter-clockwise, or a hole is not clockwise.
    #[error("ring {ring} has the wrong orientation")]
    WrongOrientation {
        /// The ring.
        ring: usize,
    },
    /// A hole is not inside the exterior, or lies inside another hole.
    #[error("hole ring {hole} is outside the polygon")]
    HoleOutside {
        /// The hole's ring number (1 is `holes[0]`).
        hole: usize,
    },
    /// Two rings cross, share a stretch of boundary, or touch in a way that cuts the interior
    /// apart (touching at a point each is allowed as long as the interior stays connected).
    #[error("rings {a} and {b} cross at ({}, {})", .at.x, .at.y)]
    RingsCross {
        /// The lower ring number.
        a: usize,
        /// The higher ring number.
        b: usize,
        /// Where.
        at: Point,
    },
}

// ---------------------------------------------------------------------------------------------
// Exact predicates.

/// `orient2d(a, b, c)`: positive when a, b, c turn counter-clockwise.
fn orient(a: Point, b: Point, c: Point) -> f64 {
    robust::orient2d(
        robust::Coord { x: a.x, y: a.y },
        robust::Coord { x: b.x, y: b.y },
        robust::Coord { x: c.x, y: c.y },
    )
}

/// Sign of [`orient`]: 1 counter-clockwise, -1 clockwise, 0 collinear (or not a number).
fn orient_sign(a: Point, b: Point, c: Point) -> i8 {
    let o = orient(a, b, c);
    if o > 0.0 {
        1
    } else if o < 0.0 {
        -1
    } else {
        0
    }
}

/// Lexicographic order (x, then y); on a line this is the order along the line.
fn lex(a: Point, b: Point) -> Ordering {
    a.x.partial_cmp(&b.x).unwrap_or(Ordering::Equal).then(a.y.partial_cmp(&b.y).unwrap_or(Ordering::Equal))
}

fn lex_min(a: Point, b: Point) -> Point {
    if lex(a, b) == Ordering::Greater {
        b
    } else {
        a
    }
}

fn lex_max(a: Point, b: Point) -> Point {
    if lex(a, b) == Ordering::Less {
        b
    } else {
        a
    }
}

/// `a` and `b` (both different from `p`) lie on the same ray from `p`.
fn same_direction(p: Point, a: Point, b: Point) -> bool {
    orient_sign(p, a, b) == 0 && lex(a, p) == lex(b, p) && lex(a, p) != Ordering::Equal
}

/// The direction `p -> x` is strictly inside the counter-clockwise wedge that turns from
/// `p -> u` to `p -> v` (`u`, `v`, `x` all different from `p`).
fn in_wedge(p: Point, u: Point, v: Point, x: Point) -> bool {
    match orient_sign(p, u, v) {
        1 => orient_sign(p, u, x) > 0 && orient_sign(p, x, v) > 0,
        -1 => !(orient_sign(p, v, x) >= 0 && orient_sign(p, x, u) >= 0),
        _ => !same_direction(p, u, v) && orient_sign(p, u, x) > 0,
    }
}

fn is_finite(p: Point) -> bool {
    p.x.is_finite() && p.y.is_finite()
}

/// How two segments meet.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Hit {
    /// They do not meet.
    Apart,
    /// They cross at one point inside both.
    Cross(Point),
    /// They meet at one point that is an endpoint of at least one of them.
    Touch(Point),
    /// They are collinear and share a stretch of positive length, starting here.
    Overlap(Point),
}

/// How segments `pq` and `rs` meet (both of positive length).
fn segment_hit(p: Point, q: Point, r: Point, s: Point) -> Hit {
    let o1 = orient_sign(p, q, r);
    let o2 = orient_sign(p, q, s);
    if o1 == 0 && o2 == 0 {
        let lo = lex_max(lex_min(p, q), lex_min(r, s));
        let hi = lex_min(lex_max(p, q), lex_max(r, s));
        return match lex(lo, hi) {
            Ordering::Less => Hit::Overlap(lo),
            Ordering::Equal => Hit::Touch(lo),
            Ordering::Greater => Hit::Apart,
        };
    }
    if o1 * o2 > 0 {
        return Hit::Apart;
    }
    let o3 = orient_sign(r, s, p);
    let o4 = orient_sign(r, s, q);
    if o3 * o4 > 0 {
        return Hit::Apart;
    }
    if o1 != 0 && o2 != 0 && o3 != 0 && o4 != 0 {
        let d3 = orient(r, s, p);
        let d4 = orient(r, s, q);
        let t = d3 / (d3 - d4);
        return Hit::Cross(Point::new(p.x + t * (q.x - p.x), p.y + t * (q.y - p.y)));
    }
    // The lines are distinct and meet at one point, which is an endpoint lying on the other
    // segment.
    if o1 == 0 {
        Hit::Touch(r)
    } else if o2 == 0 {
        Hit::Touch(s)
    } else if o3 == 0 {
        Hit::Touch(p)
    } else {
        Hit::Touch(q)
    }
}

// ---------------------------------------------------------------------------------------------
// Boxes and candidate pairs.

/// An axis-aligned box, bounds included.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Bbox {
    min: [f64; 2],
    max: [f64; 2],
}

impl Bbox {
    fn of_points<'a>(points: impl IntoIterator<Item = &'a Point>) -> Self {
        let mut b = Self { min: [f64::INFINITY; 2], max: [f64::NEG_INFINITY; 2] };
        for p in points {
            b.min = [b.min[0].min(p.x), b.min[1].min(p.y)];
            b.max = [b.max[0].max(p.x), b.max[1].max(p.y)];
        }
        b
    }

    fn of_xy(points: &[[f64; 2]]) -> Self {
        let mut b = Self { min: [f64::INFINITY; 2], max: [f64::NEG_INFINITY; 2] };
        for p in points {
            b.min = [b.min[0].min(p[0]), b.min[1].min(p[1])];
            b.max = [b.max[0].max(p[0]), b.max[1].max(p[1])];
        }
        b
    }

    fn overlaps(&self, o: &Self) -> bool {
        self.min[0] <= o.max[0] && o.min[0] <= self.max[0] && self.min[1] <= o.max[1] && o.min[1] <= self.max[1]
    }

    fn is_finite(&self) -> bool {
        self.min.iter().chain(self.max.iter()).all(|v| v.is_finite())
    }
}

/// Comparisons per box that the sweep of [`overlapping_pairs_by_sweep`] may make before it gives
/// the search to the R-tree: boxes that overlap in x far more than a ring's edges do (many long
/// edges side by side) would make the sweep quadratic.
const SWEEP_WORK_PER_BOX: usize = 32;

/// The overlapping pairs `(i, j)`, `i < j`, of the finite boxes, sorted, found by sweeping the
/// boxes in order of their lowest x ([`sweep_pairs`]). `None` when that takes more than
/// `budget` comparisons.
fn overlapping_pairs_by_sweep(boxes: &[Bbox], budget: usize) -> Option<Vec<(usize, usize)>> {
    let mut pairs = Vec::new();
    let done = sweep_pairs(boxes, budget, |i, j| {
        pairs.push((i, j));
        ControlFlow::<()>::Continue(())
    });
    if done.is_break() {
        return None;
    }
    pairs.sort_unstable();
    Some(pairs)
}

/// Calls `f(i, j)`, `i < j`, for the overlapping pairs of the finite boxes in the order a sweep
/// finds them (sort and sweep: the boxes in order of their lowest x, each meeting only the
/// boxes that start before it ends), until `f` breaks. `Break(None)` when the sweep would take
/// more than `budget` comparisons, `Break(Some(t))` when `f` broke with `t`.
fn sweep_pairs<T>(
    boxes: &[Bbox],
    budget: usize,
    mut f: impl FnMut(usize, usize) -> ControlFlow<T>,
) -> ControlFlow<Option<T>> {
    // Sorted by (lowest x, index) as plain integers: `f64::total_cmp`'s order of the lowest x is
    // the order of these keys, and a sort of pairs of integers runs several times faster than
    // one that looks the boxes up to compare them.
    let mut keyed: Vec<(i64, usize)> =
        (0..boxes.len()).filter(|&i| boxes[i].is_finite()).map(|i| (total_order_key(boxes[i].min[0]), i)).collect();
    keyed.sort_unstable();
    let mut work = 0usize;
    for (k, &(_, i)) in keyed.iter().enumerate() {
        let a = &boxes[i];
        for &(_, j) in &keyed[k + 1..] {
            let b = &boxes[j];
            if b.min[0] > a.max[0] {
                break;
            }
            work += 1;
            if work > budget {
                return ControlFlow::Break(None);
            }
            if a.min[1] <= b.max[1] && b.min[1] <= a.max[1] {
                f(i.min(j), i.max(j)).map_break(Some)?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// An integer whose order is [`f64::total_cmp`]'s order of `x`.
fn total_order_key(x: f64) -> i64 {
    let bits = x.to_bits() as i64;
    // Negative numbers: flip every bit but the sign, so that larger magnitudes come first.
    bits ^ (((bits >> 63) as u64) >> 1) as i64
}

/// Calls `f(i, j)` for every pair `i < j` of overlapping boxes, in increasing `(i, j)` order,
/// until `f` breaks. Brute force up to `limit` boxes; above, sort and sweep
/// ([`overlapping_pairs_by_sweep`]), or an R-tree when the sweep would take too long. Boxes that
/// are not finite are skipped.
fn for_each_overlapping_pair<T>(
    boxes: &[Bbox],
    limit: usize,
    mut f: impl FnMut(usize, usize) -> ControlFlow<T>,
) -> Option<T> {
    if boxes.len() <= limit {
        for (i, a) in boxes.iter().enumerate() {
            if !a.is_finite() {
                continue;
            }
            for (j, b) in boxes.iter().enumerate().skip(i + 1) {
                if b.is_finite() && a.overlaps(b) {
                    if let ControlFlow::Break(t) = f(i, j) {
                        return Some(t);
                    }
                }
            }
        }
        return None;
    }
    if let Some(pairs) = overlapping_pairs_by_sweep(boxes, boxes.len().saturating_mul(SWEEP_WORK_PER_BOX)) {
        for (i, j) in pairs {
            if let ControlFlow::Break(t) = f(i, j) {
                return Some(t);
            }
        }
        return None;
    }
    let entries: Vec<GeomWithData<Rectangle<[f64; 2]>, usize>> = boxes
        .iter()
        .enumerate()
        .filter(|(_, b)| b.is_finite())
        .map(|(i, b)| GeomWithData::new(Rectangle::from_corners(b.min, b.max), i))
        .collect();
    let tree = RTree::bulk_load(entries);
    let mut candidates = Vec::new();
    for (i, a) in boxes.iter().enumerate() {
        if !a.is_finite() {
            continue;
        }
        candidates.clear();
        candidates.extend(
            tree.locate_in_envelope_intersecting(AABB::from_corners(a.min, a.max)).map(|e| e.data).filter(|&j| j > i),
        );
        candidates.sort_unstable();
        for &j in &candidates {
            if let ControlFlow::Break(t) = f(i, j) {
                return Some(t);
            }
        }
    }
    None
}

/// [`for_each_overlapping_pair`] for an `f` whose breaks depend on the pair alone and whose
/// other effects do not depend on the order of the pairs: above `limit` boxes the pairs are
/// offered as the sweep finds them, without gathering and sorting them first. Where `f` breaks
/// (or the sweep runs over its budget), every pair is offered again in increasing `(i, j)`
/// order, so that the break given is the first in that order; `f` may then see a pair twice.
fn for_each_overlapping_pair_any_order<T>(
    boxes: &[Bbox],
    limit: usize,
    mut f: impl FnMut(usize, usize) -> ControlFlow<T>,
) -> Option<T> {
    if boxes.len() <= limit {
        return for_each_overlapping_pair(boxes, limit, f);
    }
    let budget = boxes.len().saturating_mul(SWEEP_WORK_PER_BOX);
    if sweep_pairs(boxes, budget, &mut f).is_continue() {
        return None;
    }
    for_each_overlapping_pair(boxes, limit, f)
}

// ---------------------------------------------------------------------------------------------
// Rings.

/// Shoelace area of a ring: positive when counter-clockwise. Rings of fewer than three points
/// have area 0.
pub fn signed_area(ring: &[Point]) -> f64 {
    let Some(&o) = ring.first() else {
        return 0.0;
    };
    if ring.len() < 3 {
        return 0.0;
    }
    let mut twice = 0.0;
    let mut prev = Point::new(0.0, 0.0);
    for p in ring.iter().skip(1) {
        let cur = Point::new(p.x - o.x, p.y - o.y);
        twice += prev.x * cur.y - prev.y * cur.x;
        prev = cur;
    }
    0.5 * twice
}

/// Why a ring is not simple (the ring number is added by the caller).
#[derive(Clone, Copy, Debug, PartialEq)]
enum RingProblem {
    TooFew,
    NonFinite(usize),
    Repeated(usize),
    Crossing(Point),
}

impl RingProblem {
    fn in_ring(self, ring: usize) -> Invalid {
        match self {
            Self::TooFew => Invalid::TooFewPoints { ring },
            Self::NonFinite(index) => Invalid::NonFinite { ring, index },
            Self::Repeated(index) => Invalid::RepeatedPoint { ring, index },
            Self::Crossing(at) => Invalid::SelfIntersection { ring, at },
        }
    }
}

/// The point after index `i` in a ring of `n >= 1` points.
fn next(i: usize, n: usize) -> usize {
    if i + 1 >= n {
        0
    } else {
        i + 1
    }
}

/// The point before index `i` in a ring of `n >= 1` points.
fn prev(i: usize, n: usize) -> usize {
    if i == 0 {
        n.saturating_sub(1)
    } else {
        i - 1
    }
}

/// The first reason (in a fixed order) why a ring is not simple.
fn ring_problem(ring: &[Point]) -> Option<RingProblem> {
    ring_problem_beside(ring, &[]).err()
}

/// The problems of a ring that its vertices alone show, in [`ring_problem`]'s order: too few,
/// not finite, a point repeated by the next, consecutive edges folding back onto each other (a
/// spike, or a flat ring).
fn vertex_problem(ring: &[Point]) -> Result<(), RingProblem> {
    let n = ring.len();
    if n < 3 {
        return Err(RingProblem::TooFew);
    }
    if let Some(i) = ring.iter().position(|&p| !is_finite(p)) {
        return Err(RingProblem::NonFinite(i));
    }
    for i in 0..n {
        if ring[i] == ring[next(i, n)] {
            return Err(RingProblem::Repeated(i));
        }
    }
    for i in 0..n {
        if same_direction(ring[i], ring[prev(i, n)], ring[next(i, n)]) {
            return Err(RingProblem::Crossing(ring[i]));
        }
    }
    Ok(())
}

/// [`ring_problem`], and whether the ring stays clear of the closed ring `other` (`Ok(true)`:
/// no edge of one touches or crosses an edge of the other), in one pass over the edges' boxes.
fn ring_problem_beside(ring: &[Point], other: &[Point]) -> Result<bool, RingProblem> {
    vertex_problem(ring)?;
    let n = ring.len();
    if n == 3 && other.is_empty() {
        return Ok(true); // every pair of edges is adjacent
    }
    let m = other.len();
    // Edges `0..n` are the ring's, `n..n + m` the other ring's.
    let edge = |k: usize| if k < n { (ring[k], ring[next(k, n)]) } else { (other[k - n], other[next(k - n, m)]) };
    let boxes: Vec<Bbox> = (0..n + m)
        .map(|k| {
            let (a, b) = edge(k);
            Bbox::of_points([&a, &b])
        })
        .collect();
    let mut clear = true;
    // Whether the rings stay clear does not depend on the order of the pairs, and a crossing
    // on the pair alone.
    let problem = for_each_overlapping_pair_any_order(&boxes, BRUTE_FORCE_LIMIT, |i, j| {
        if j >= n {
            // Only a pair with one edge of each ring matters; a hit there is noted, and the
            // search goes on for the ring's own crossings.
            if i < n && clear {
                let ((a, b), (c, d)) = (edge(i), edge(j));
                clear = segment_hit(a, b, c, d) == Hit::Apart;
            }
            return ControlFlow::Continue(());
        }
        if j == i + 1 || (i == 0 && j == n - 1) {
            return ControlFlow::Continue(());
        }
        match segment_hit(ring[i], ring[next(i, n)], ring[j], ring[next(j, n)]) {
            Hit::Apart => ControlFlow::Continue(()),
            Hit::Cross(at) | Hit::Touch(at) | Hit::Overlap(at) => ControlFlow::Break(RingProblem::Crossing(at)),
        }
    });
    match problem {
        Some(p) => Err(p),
        None => Ok(clear),
    }
}

/// Whether `ring` is simple and counter-clockwise ([`check_polygon`] of it as an exterior) and,
/// if so, whether it stays clear of the ring `other` (no edge of one touches or crosses an
/// edge of the other; exact). `None` when it is not a valid exterior. O((n + m) log(n + m)).
pub(crate) fn exterior_clear_of(ring: &[Point], other: &[Point]) -> Option<bool> {
    let clear = ring_problem_beside(ring, other).ok()?;
    (ring_orientation(ring) > 0).then_some(clear)
}

/// A ring is simple: at least three points, all finite, no point equal to the next, no two
/// non-adjacent edges touching or crossing, and no two consecutive edges folding back onto each
/// other. Exact; O(n log n) for rings of more than [`BRUTE_FORCE_LIMIT`] points.
pub fn ring_is_simple(ring: &[Point]) -> bool {
    ring_problem(ring).is_none()
}

/// A simple ring ([`ring_is_simple`]) whose every vertex lies further than `clearance` from
/// each edge that does not end at it: no pinch that a boolean operation on a coarser grid
/// would close, cutting the ring in two. O(n log n) above [`BRUTE_FORCE_LIMIT`] points.
pub(crate) fn ring_is_clear(ring: &[Point], clearance: f64) -> bool {
    if !(clearance >= 0.0) {
        // No pinch can be nearer than that: the ring only has to be simple.
        return ring_is_simple(ring);
    }
    if vertex_problem(ring).is_err() {
        return false;
    }
    let n = ring.len();
    let boxes: Vec<Bbox> = (0..n)
        .map(|i| {
            let b = Bbox::of_points([&ring[i], &ring[next(i, n)]]);
            Bbox {
                min: [b.min[0] - clearance, b.min[1] - clearance],
                max: [b.max[0] + clearance, b.max[1] + clearance],
            }
        })
        .collect();
    // Along the ring, from the start: a vertex near an edge only a few short edges away is a
    // bend of the outline, not a pinch.
    let mut cum = Vec::with_capacity(n + 1);
    cum.push(0.0);
    for i in 0..n {
        cum.push(cum[i] + ring[i].dist(ring[next(i, n)]));
    }
    let perimeter = cum[n];
    let apart = |k: usize, e: usize| {
        let (a, b) = (cum[k], cum[e]);
        let d =
            if a <= b { (b - a).min(perimeter - (cum[e + 1] - a)) } else { (a - cum[e + 1]).min(perimeter - (a - b)) };
        d > PINCH_PATH * clearance
    };
    // Two edges that do not cross are nearest at an end of one of them.
    let pinch = |k: usize, e: usize| {
        apart(k, e) && crate::geom::project_on_segment(ring[k], ring[e], ring[next(e, n)]).1 <= clearance
    };
    // One search of the grown boxes finds both the crossings that make the ring not simple
    // (every pair of edges whose own boxes meet is among those) and the pinches.
    let adjacent = |i: usize, j: usize| next(i, n) == j || next(j, n) == i;
    for_each_overlapping_pair_any_order(&boxes, BRUTE_FORCE_LIMIT, |i, j| {
        let (ni, nj) = (next(i, n), next(j, n));
        if !adjacent(i, j) && segment_hit(ring[i], ring[ni], ring[j], ring[nj]) != Hit::Apart {
            return ControlFlow::Break(());
        }
        if pinch(j, i) || pinch(nj, i) || pinch(i, j) || pinch(ni, j) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .is_none()
}

/// How far along the ring, in clearances, a vertex must be from an edge for
/// [`ring_is_clear`] to call their nearness a pinch.
const PINCH_PATH: f64 = 10.0;

/// Orientation of a simple ring, exactly: 1 counter-clockwise, -1 clockwise (0 only for rings
/// that are not simple).
fn ring_orientation(ring: &[Point]) -> i8 {
    let n = ring.len();
    let Some((k, _)) = ring.iter().enumerate().min_by(|a, b| lex(*a.1, *b.1).then(a.0.cmp(&b.0))) else {
        return 0;
    };
    if n < 3 {
        return 0;
    }
    orient_sign(ring[prev(k, n)], ring[k], ring[next(k, n)])
}

/// `p` is strictly inside `ring` (points on the boundary are not). Works for either orientation
/// (non-zero winding number); exact. O(n).
pub fn point_in_ring(p: Point, ring: &[Point]) -> bool {
    let n = ring.len();
    if n < 3 || !is_finite(p) {
        return false;
    }
    let mut winding: i64 = 0;
    for i in 0..n {
        let a = ring[i];
        let b = ring[next(i, n)];
        // A ring with a vertex that is not finite holds no point (every vertex is an `a` once).
        if !is_finite(a) {
            return false;
        }
        // Only an edge that spans `p.y` can change the winding number, and only one whose box
        // holds `p` can hold `p`: the others need no orientation test.
        let spans = (a.y <= p.y) != (b.y <= p.y);
        let boxed = a.x.min(b.x) <= p.x && p.x <= a.x.max(b.x) && a.y.min(b.y) <= p.y && p.y <= a.y.max(b.y);
        if !(spans || boxed) {
            continue;
        }
        let o = orient_sign(a, b, p);
        if o == 0 && lex(lex_min(a, b), p) != Ordering::Greater && lex(p, lex_max(a, b)) != Ordering::Greater {
            return false; // on the boundary
        }
        if a.y <= p.y {
            if b.y > p.y && o > 0 {
                winding += 1;
            }
        } else if b.y <= p.y && o < 0 {
            winding -= 1;
        }
    }
    winding != 0
}

/// `p` is inside `poly`: strictly inside its exterior and not strictly inside any of its holes
/// (a point on the exterior is not inside; one on a hole's outline is). Exact. O(n).
pub fn point_in_polygon(p: Point, poly: &Polygon) -> bool {
    point_in_ring(p, &poly.exterior) && !poly.holes.iter().any(|h| point_in_ring(p, h))
}

/// Area of a polygon: the exterior's area minus the holes' areas (orientation ignored).
pub fn polygon_area(p: &Polygon) -> f64 {
    signed_area(&p.exterior).abs() - p.holes.iter().map(|h| signed_area(h).abs()).sum::<f64>()
}

// ---------------------------------------------------------------------------------------------
// Polygons.

/// Where a point lies on a ring: at a vertex, or inside an edge.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Loc {
    Vertex(usize),
    Edge(usize),
}

/// Two rings meeting at one isolated point.
#[derive(Clone, Copy, Debug)]
struct Touch {
    a: usize,
    b: usize,
    at: Point,
    loc_a: Loc,
    loc_b: Loc,
}

/// Exact key of a point (-0 and 0 are the same point).
fn key(p: Point) -> (u64, u64) {
    ((p.x + 0.0).to_bits(), (p.y + 0.0).to_bits())
}

fn loc_on(ring: &[Point], edge: usize, p: Point) -> Loc {
    let n = ring.len();
    if ring.get(edge) == Some(&p) {
        Loc::Vertex(edge)
    } else if ring.get(next(edge, n)) == Some(&p) {
        Loc::Vertex(next(edge, n))
    } else {
        Loc::Edge(edge)
    }
}

/// The points before and after `loc` along a ring (of at least three points).
fn around(ring: &[Point], loc: Loc) -> Option<(Point, Point)> {
    let n = ring.len();
    let (b, a) = match loc {
        Loc::Vertex(k) => (prev(k, n), next(k, n)),
        Loc::Edge(k) => (k, next(k, n)),
    };
    Some((*ring.get(b)?, *ring.get(a)?))
}

/// Finds where different rings meet: an error when two rings cross or share a stretch, else
/// the isolated touching points, sorted by rings and point, without repeats.
fn ring_touches(rings: &[&[Point]]) -> Result<Vec<Touch>, Invalid> {
    let mut segments = Vec::new();
    let mut boxes = Vec::new();
    for (r, ring) in rings.iter().enumerate() {
        let n = ring.len();
        for i in 0..n {
            segments.push((r, i));
            boxes.push(Bbox::of_points([&ring[i], &ring[next(i, n)]]));
        }
    }
    let mut touches = Vec::new();
    let crossing = for_each_overlapping_pair(&boxes, BRUTE_FORCE_LIMIT, |i, j| {
        let (Some(&(ra, ia)), Some(&(rb, ib))) = (segments.get(i), segments.get(j)) else {
            return ControlFlow::Continue(());
        };
        if ra == rb {
            return ControlFlow::Continue(());
        }
        let (Some(ring_a), Some(ring_b)) = (rings.get(ra), rings.get(rb)) else {
            return ControlFlow::Continue(());
        };
        let (na, nb) = (ring_a.len(), ring_b.len());
        let hit = segment_hit(ring_a[ia], ring_a[next(ia, na)], ring_b[ib], ring_b[next(ib, nb)]);
        match hit {
            Hit::Apart => ControlFlow::Continue(()),
            Hit::Cross(at) | Hit::Overlap(at) => ControlFlow::Break(Invalid::RingsCross { a: ra, b: rb, at }),
            Hit::Touch(at) => {
                touches.push(Touch { a: ra, b: rb, at, loc_a: loc_on(ring_a, ia, at), loc_b: loc_on(ring_b, ib, at) });
                ControlFlow::Continue(())
            }
        }
    });
    if let Some(e) = crossing {
        return Err(e);
    }
    touches.sort_by_key(|t| (t.a, t.b, key(t.at)));
    touches.dedup_by(|s, t| (s.a, s.b, key(s.at)) == (t.a, t.b, key(t.at)));
    Ok(touches)
}

/// Rings that touch at a point must not pass through each other there.
fn check_touch_crossings(rings: &[&[Point]], touches: &[Touch]) -> Result<(), Invalid> {
    for t in touches {
        let cross = Invalid::RingsCross { a: t.a, b: t.b, at: t.at };
        let (Some(ra), Some(rb)) = (rings.get(t.a), rings.get(t.b)) else {
            continue;
        };
        let (Some((a1, a2)), Some((b1, b2))) = (around(ra, t.loc_a), around(rb, t.loc_b)) else {
            continue;
        };
        let p = t.at;
        if [b1, b2].iter().any(|&b| same_direction(p, b, a1) || same_direction(p, b, a2)) {
            return Err(cross);
        }
        if in_wedge(p, a2, a1, b1) != in_wedge(p, a2, a1, b2) {
            return Err(cross);
        }
    }
    Ok(())
}

/// Union-find over small integers.
struct Sets(Vec<usize>);

impl Sets {
    fn find(&mut self, mut i: usize) -> usize {
        while let Some(&p) = self.0.get(i) {
            if p == i {
                break;
            }
            let grand = self.0.get(p).copied().unwrap_or(p);
            if let Some(slot) = self.0.get_mut(i) {
                *slot = grand;
            }
            i = p;
        }
        i
    }

    /// Joins the sets of `a` and `b`; false when they were already one set.
    fn union(&mut self, a: usize, b: usize) -> bool {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return false;
        }
        if let Some(slot) = self.0.get_mut(ra) {
            *slot = rb;
        }
        true
    }
}

/// The interior stays connected: the graph of rings and touching points has no cycle.
fn check_interior_connected(ring_count: usize, touches: &[Touch]) -> Result<(), Invalid> {
    let mut points: Vec<(u64, u64)> = touches.iter().map(|t| key(t.at)).collect();
    points.sort_unstable();
    points.dedup();
    let mut sets = Sets((0..ring_count + points.len()).collect());
    let mut seen: Vec<(usize, usize)> = Vec::new();
    for t in touches {
        let Ok(pi) = points.binary_search(&key(t.at)) else {
            continue;
        };
        let node = ring_count + pi;
        for r in [t.a, t.b] {
            if seen.contains(&(r, pi)) {
                continue;
            }
            seen.push((r, pi));
            if !sets.union(r, node) {
                return Err(Invalid::RingsCross { a: t.a, b: t.b, at: t.at });
            }
        }
    }
    Ok(())
}

/// Ring `inner` lies inside ring `outer` (the two neither cross nor overlap; they may touch).
fn ring_inside(rings: &[&[Point]], touches: &[Touch], inner: usize, outer: usize) -> bool {
    let (Some(&inn), Some(&out)) = (rings.get(inner), rings.get(outer)) else {
        return false;
    };
    let pair = (inner.min(outer), inner.max(outer));
    let shared: Vec<&Touch> = touches.iter().filter(|t| (t.a, t.b) == pair).collect();
    let mut on_boundary: Vec<(u64, u64)> = shared.iter().map(|t| key(t.at)).collect();
    on_boundary.sort_unstable();
    if let Some(&v) = inn.iter().find(|&&v| on_boundary.binary_search(&key(v)).is_err()) {
        return point_in_ring(v, out);
    }
    // Every vertex of `inner` is on `outer`: look at which side the first edge leaves.
    let (Some(&v), Some(&w)) = (inn.first(), inn.get(1)) else {
        return false;
    };
    let Some(t) = shared.iter().find(|t| key(t.at) == key(v)) else {
        return false;
    };
    let loc = if t.a == outer { t.loc_a } else { t.loc_b };
    let Some((before, after)) = around(out, loc) else {
        return false;
    };
    if ring_orientation(out) > 0 {
        in_wedge(v, after, before, w)
    } else {
        in_wedge(v, before, after, w)
    }
}

/// Checks a polygon: every ring simple ([`ring_is_simple`]), the exterior counter-clockwise and
/// the holes clockwise, no two rings crossing or sharing more than isolated points (rings may
/// touch at a point, as OGC allows, as long as the interior stays connected), every hole inside
/// the exterior and no hole inside another. Returns the first problem found, in that order.
/// Exact; about O(n log n) in the total number of points.
pub fn check_polygon(p: &Polygon) -> Result<(), Invalid> {
    let rings: Vec<&[Point]> =
        std::iter::once(p.exterior.as_slice()).chain(p.holes.iter().map(Vec::as_slice)).collect();
    for (r, ring) in rings.iter().enumerate() {
        if let Some(problem) = ring_problem(ring) {
            return Err(problem.in_ring(r));
        }
    }
    for (r, ring) in rings.iter().enumerate() {
        if (ring_orientation(ring) > 0) != (r == 0) {
            return Err(Invalid::WrongOrientation { ring: r });
        }
    }
    if rings.len() < 2 {
        return Ok(());
    }
    let touches = ring_touches(&rings)?;
    check_touch_crossings(&rings, &touches)?;
    check_interior_connected(rings.len(), &touches)?;
    for hole in 1..rings.len() {
        if !ring_inside(&rings, &touches, hole, 0) {
            return Err(Invalid::HoleOutside { hole });
        }
    }
    let boxes: Vec<Bbox> = p.holes.iter().map(Bbox::of_points).collect();
    let nested = for_each_overlapping_pair(&boxes, BRUTE_FORCE_LIMIT, |i, j| {
        let (a, b) = (i + 1, j + 1);
        if ring_inside(&rings, &touches, b, a) {
            ControlFlow::Break(Invalid::HoleOutside { hole: b })
        } else if ring_inside(&rings, &touches, a, b) {
            ControlFlow::Break(Invalid::HoleOutside { hole: a })
        } else {
            ControlFlow::Continue(())
        }
    });
    match nested {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

// ---------------------------------------------------------------------------------------------
// The network.

/// Overlaps, coverage and validity of a whole network (for tests and reports).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NetworkReport {
    /// Features whose polygon fails [`check_polygon`]: (feature id, first problem), junctions
    /// first, then road pieces, then blocks.
    pub invalid: Vec<(String, Invalid)>,
    /// Total area of the pairwise intersections of junction polygons, m².
    pub junction_overlap_area: f64,
    /// Total area of the pairwise intersections of block polygons, m².
    pub block_overlap_area: f64,
    /// Area of (union of blocks) ∩ (road surface), m².
    pub block_road_overlap_area: f64,
    /// Area of the union of all road piece and junction polygons, m².
    pub road_surface_area: f64,
    /// Sum of the block polygons' areas, m².
    pub block_area: f64,
    /// Area enclosed by the road surface (its holes filled), m².
    pub enclosed_area: f64,
    /// Enclosed area covered neither by road surface nor by blocks, m² (at least 0).
    pub gap_area: f64,
}

impl NetworkReport {
    /// The share of the enclosed area that is a gap (0 when nothing is enclosed).
    pub fn gap_fraction(&self) -> f64 {
        if self.enclosed_area > 0.0 {
            self.gap_area / self.enclosed_area
        } else {
            0.0
        }
    }
}

type Contour = Vec<[f64; 2]>;
type Shape = Vec<Contour>;

/// Coordinates `i_overlay` accepts without panicking (it refuses values beyond 2^500).
fn overlay_safe(p: Point) -> bool {
    is_finite(p) && p.x.abs() < 1e150 && p.y.abs() < 1e150
}

/// The signed area of an `i_overlay` contour (positive counter-clockwise; see [`signed_area`]).
pub(crate) fn contour_area(c: &[[f64; 2]]) -> f64 {
    let points: Vec<Point> = c.iter().map(|p| Point::new(p[0], p[1])).collect();
    signed_area(&points)
}

/// A ring as an `i_overlay` contour, counter-clockwise when `ccw` (else clockwise); `None` when
/// unusable.
fn to_contour(ring: &[Point], ccw: bool) -> Option<Contour> {
    if ring.len() < 3 || !ring.iter().all(|&p| overlay_safe(p)) {
        return None;
    }
    let mut c: Contour = ring.iter().map(|p| [p.x, p.y]).collect();
    if (signed_area(ring) > 0.0) != ccw {
        c.reverse();
    }
    Some(c)
}

/// A polygon as an `i_overlay` shape (exterior counter-clockwise, holes clockwise, so that the
/// non-zero rule is right whatever the input's orientation); `None` when unusable.
fn to_shape(p: &Polygon) -> Option<Shape> {
    let mut shape = vec![to_contour(&p.exterior, true)?];
    shape.extend(p.holes.iter().filter_map(|h| to_contour(h, false)));
    Some(shape)
}

fn shapes_area(shapes: &[Shape]) -> f64 {
    shapes.iter().flatten().map(|c| contour_area(c)).sum()
}

/// Union of shapes with the non-zero rule.
fn union(shapes: &[Shape]) -> Vec<Shape> {
    if shapes.is_empty() {
        return Vec::new();
    }
    FloatOverlay::<[f64; 2]>::with_subj(shapes).overlay(OverlayRule::Subject, FillRule::NonZero)
}

/// Total area of the pairwise intersections of shapes whose boxes overlap.
fn pairwise_overlap_area(shapes: &[Shape]) -> f64 {
    let boxes: Vec<Bbox> = shapes.iter().map(|s| s.first().map_or(Bbox::of_xy(&[]), |c| Bbox::of_xy(c))).collect();
    let mut pairs = Vec::new();
    for_each_overlapping_pair::<()>(&boxes, BRUTE_FORCE_LIMIT, |i, j| {
        pairs.push((i, j));
        ControlFlow::Continue(())
    });
    let areas: Vec<f64> = pairs
        .par_iter()
        .map(|&(i, j)| match (shapes.get(i), shapes.get(j)) {
            (Some(a), Some(b)) => shapes_area(&a.overlay(b, OverlayRule::Intersect, FillRule::NonZero)),
            _ => 0.0,
        })
        .collect();
    areas.iter().sum()
}

/// Checks every feature's polygon and measures overlaps and gaps of a network.
///
/// Polygons with non-finite (or absurdly large) coordinates are reported in `invalid` and left
/// out of the areas.
pub fn check_network(n: &Network) -> NetworkReport {
    let features: Vec<(&String, &Polygon)> = n
        .junctions
        .iter()
        .map(|j| (&j.id, &j.polygon))
        .chain(n.pieces.iter().map(|p| (&p.id, &p.polygon)))
        .chain(n.blocks.iter().map(|b| (&b.id, &b.polygon)))
        .collect();
    let invalid: Vec<(String, Invalid)> =
        features.par_iter().filter_map(|&(id, p)| check_polygon(p).err().map(|e| (id.clone(), e))).collect();

    let junctions: Vec<Shape> = n.junctions.iter().filter_map(|j| to_shape(&j.polygon)).collect();
    let pieces: Vec<Shape> = n.pieces.iter().filter_map(|p| to_shape(&p.polygon)).collect();
    let blocks: Vec<Shape> = n.blocks.iter().filter_map(|b| to_shape(&b.polygon)).collect();

    let junction_overlap_area = pairwise_overlap_area(&junctions);
    let block_overlap_area = pairwise_overlap_area(&blocks);

    let roads: Vec<Shape> = junctions.iter().chain(pieces.iter()).cloned().collect();
    let road_union = union(&roads);
    let road_surface_area = shapes_area(&road_union);

    let block_road_overlap_area = if blocks.is_empty() || road_union.is_empty() {
        0.0
    } else {
        shapes_area(
            &FloatOverlay::<[f64; 2]>::with_subj_and_clip(&blocks, &road_union)
                .overlay(OverlayRule::Intersect, FillRule::NonZero),
        )
    };

    let outlines: Vec<Shape> = road_union.iter().filter_map(|s| s.first().map(|c| vec![c.clone()])).collect();
    let enclosed_area = shapes_area(&union(&outlines));

    let block_area: f64 = blocks
        .iter()
        .map(|s| {
            let mut it = s.iter().map(|c| contour_area(c).abs());
            let outer = it.next().unwrap_or(0.0);
            outer - it.sum::<f64>()
        })
        .sum();

    let gap_area = (enclosed_area - road_surface_area - (block_area - block_road_overlap_area)).max(0.0);

    NetworkReport {
        invalid,
        junction_overlap_area,
        block_overlap_area,
        block_road_overlap_area,
        road_surface_area,
        block_area,
        enclosed_area,
        gap_area,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn total_order_key_orders_as_total_cmp() {
        let xs = [
            f64::NEG_INFINITY,
            -1e300,
            -2.5,
            -f64::MIN_POSITIVE,
            -5e-324,
            -0.0,
            0.0,
            5e-324,
            f64::MIN_POSITIVE,
            1.0,
            1.0 + f64::EPSILON,
            3e8,
            f64::INFINITY,
        ];
        for a in xs {
            for b in xs {
                assert_eq!(
                    super::total_order_key(a).cmp(&super::total_order_key(b)),
                    a.total_cmp(&b),
                    "{a} against {b}"
                );
            }
        }
    }

    use super::*;
    use crate::{Block, Junction, RoadPiece};

    fn pts(c: &[(f64, f64)]) -> Vec<Point> {
        c.iter().map(|&(x, y)| Point::new(x, y)).collect()
    }

    fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<Point> {
        pts(&[(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    }

    fn poly(exterior: Vec<Point>, holes: Vec<Vec<Point>>) -> Polygon {
        Polygon { exterior, holes }
    }

    /// A star with `n` points alternating between radius 10 and 5: simple, counter-clockwise.
    fn star(n: usize) -> Vec<Point> {
        (0..n)
            .map(|k| {
                let a = std::f64::consts::TAU * k as f64 / n as f64;
                let r = if k % 2 == 0 { 10.0 } else { 5.0 };
                Point::new(r * a.cos(), r * a.sin())
            })
            .collect()
    }

    #[test]
    fn validate_square_is_simple_and_valid() {
        let sq = rect(0.0, 0.0, 1.0, 1.0);
        assert!(ring_is_simple(&sq));
        assert_eq!(check_polygon(&poly(sq.clone(), vec![])), Ok(()));
        assert_eq!(signed_area(&sq), 1.0);
        assert_eq!(polygon_area(&poly(sq, vec![])), 1.0);
    }

    #[test]
    fn validate_square_with_hole() {
        let mut hole = rect(1.0, 1.0, 2.0, 2.0);
        hole.reverse();
        let p = poly(rect(0.0, 0.0, 4.0, 4.0), vec![hole]);
        assert_eq!(check_polygon(&p), Ok(()));
        assert_eq!(polygon_area(&p), 15.0);
    }

    #[test]
    fn validate_pinch_is_not_clear() {
        // Two lobes joined where (2, 1e-5) comes within 1e-5 m of the bottom edge.
        let pinch = pts(&[(0.0, 0.0), (4.0, 0.0), (4.0, 2.0), (2.0, 1e-5), (0.0, 2.0)]);
        assert!(ring_is_simple(&pinch));
        assert!(!ring_is_clear(&pinch, 1e-4));
        assert!(ring_is_clear(&pinch, 1e-6));
        // A notch of a few short edges is a bend, not a pinch.
        let bend = pts(&[(0.0, 0.0), (4.0, 0.0), (4.0, 2.0), (2.0, 2.0), (2.0 - 3e-5, 2.0 - 3e-5), (0.0, 2.0)]);
        assert!(ring_is_simple(&bend));
        assert!(ring_is_clear(&bend, 1e-4));
        // More edges than the brute-force limit (the bottom edge in 100 collinear steps): the
        // R-tree finds the same pinch.
        let mut long: Vec<Point> = (0..100).map(|k| Point::new(0.04 * k as f64, 0.0)).collect();
        long.extend(pts(&[(4.0, 0.0), (4.0, 2.0), (2.0, 1e-5), (0.0, 2.0)]));
        assert!(long.len() > BRUTE_FORCE_LIMIT && ring_is_simple(&long));
        assert!(!ring_is_clear(&long, 1e-4));
        assert!(ring_is_clear(&long, 1e-6));
    }

    /// `ring_is_clear` looks for crossings and pinches in one search of grown boxes: it must
    /// say what a simplicity check followed by a look at every vertex and edge says, on rings
    /// that cross themselves, touch, pinch or do none of these, below and above the
    /// brute-force limit.
    #[test]
    fn ring_is_clear_is_simple_and_without_pinches() {
        fn reference(ring: &[Point], clearance: f64) -> bool {
            let n = ring.len();
            if !ring_is_simple(ring) {
                return false;
            }
            let mut cum = vec![0.0];
            for i in 0..n {
                cum.push(cum[i] + ring[i].dist(ring[next(i, n)]));
            }
            let perimeter = cum[n];
            let path = |k: usize, e: usize| {
                let (a, b) = (cum[k], cum[e]);
                if a <= b {
                    (b - a).min(perimeter - (cum[e + 1] - a))
                } else {
                    (a - cum[e + 1]).min(perimeter - (a - b))
                }
            };
            !(0..n).any(|k| {
                (0..n).any(|e| {
                    path(k, e) > PINCH_PATH * clearance
                        && crate::geom::project_on_segment(ring[k], ring[e], ring[next(e, n)]).1 <= clearance
                })
            })
        }
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut unit = move || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let (mut clear, mut not_clear) = (0, 0);
        for case in 0..600 {
            let n = 3 + case % 60;
            // A star-shaped ring around the origin (simple), its radii jittered; some with
            // two vertices pulled near each other's edges, some shuffled (crossing).
            let mut ring: Vec<Point> = (0..n)
                .map(|k| {
                    let t = std::f64::consts::TAU * (k as f64 + 0.4 * unit()) / n as f64;
                    let r = 1.0 + 0.8 * unit();
                    // On a grid of 1/64 m, so that touches and collinear edges come up.
                    Point::new((64.0 * r * t.cos()).round() / 64.0, (64.0 * r * t.sin()).round() / 64.0)
                })
                .collect();
            ring.dedup();
            if case % 5 == 1 && ring.len() > 4 {
                let m = ring.len() / 2;
                ring.swap(1, m);
            }
            if case % 5 == 2 && ring.len() > 6 {
                let k = ring.len() / 2;
                ring[k] = Point::new(ring[0].x * 0.02, ring[0].y * 0.02);
            }
            for clearance in [0.0, 0.01, 0.05, 0.3] {
                let got = ring_is_clear(&ring, clearance);
                assert_eq!(got, reference(&ring, clearance), "case {case}, clearance {clearance}: {ring:?}");
                if got {
                    clear += 1;
                } else {
                    not_clear += 1;
                }
            }
        }
        assert!(clear > 200 && not_clear > 200, "{clear} clear, {not_clear} not");
    }

    #[test]
    fn validate_bow_tie_is_not_simple() {
        let bow = pts(&[(0.0, 0.0), (2.0, 2.0), (2.0, 0.0), (0.0, 2.0)]);
        assert!(!ring_is_simple(&bow));
        match check_polygon(&poly(bow, vec![])) {
            Err(Invalid::SelfIntersection { ring: 0, at }) => {
                assert!((at.x - 1.0).abs() < 1e-12 && (at.y - 1.0).abs() < 1e-12, "{at:?}");
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn validate_spike_is_not_simple() {
        // The edge to (3, 0.5) comes straight back along itself.
        let spike = pts(&[(0.0, 0.0), (2.0, 0.0), (2.0, 0.5), (3.0, 0.5), (2.0, 0.5), (2.0, 1.0), (0.0, 1.0)]);
        assert!(!ring_is_simple(&spike));
        // Folding back only partly, without a repeated point.
        let spike = pts(&[(0.0, 0.0), (2.0, 0.0), (2.0, 0.5), (3.0, 0.5), (2.5, 0.5), (2.5, 1.0), (0.0, 1.0)]);
        assert!(!ring_is_simple(&spike));
        assert!(matches!(check_polygon(&poly(spike, vec![])), Err(Invalid::SelfIntersection { ring: 0, .. })));
        // A flat triangle.
        assert!(!ring_is_simple(&pts(&[(0.0, 0.0), (1.0, 0.0), (2.0, 0.0)])));
        // But a straight vertex going on is fine.
        assert!(ring_is_simple(&pts(&[(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (2.0, 1.0)])));
    }

    #[test]
    fn validate_ring_touching_itself_is_not_simple() {
        // Two squares sharing the vertex (1, 1), as one ring.
        let eight =
            pts(&[(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (2.0, 1.0), (2.0, 2.0), (1.0, 2.0), (1.0, 1.0), (0.0, 1.0)]);
        assert!(!ring_is_simple(&eight));
        assert_eq!(
            check_polygon(&poly(eight, vec![])),
            Err(Invalid::SelfIntersection { ring: 0, at: Point::new(1.0, 1.0) })
        );
        // A vertex on another edge's interior.
        let t = pts(&[(0.0, 0.0), (4.0, 0.0), (4.0, 2.0), (2.0, 0.0), (0.0, 2.0)]);
        assert!(!ring_is_simple(&t));
    }

    #[test]
    fn validate_basic_ring_problems() {
        assert!(!ring_is_simple(&pts(&[(0.0, 0.0), (1.0, 0.0)])));
        let closed = pts(&[(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 0.0)]);
        assert_eq!(check_polygon(&poly(closed, vec![])), Err(Invalid::RepeatedPoint { ring: 0, index: 3 }));
        let nan = pts(&[(0.0, 0.0), (1.0, 0.0), (f64::NAN, 1.0)]);
        assert_eq!(check_polygon(&poly(nan, vec![])), Err(Invalid::NonFinite { ring: 0, index: 2 }));
        assert_eq!(check_polygon(&poly(vec![], vec![])), Err(Invalid::TooFewPoints { ring: 0 }));
    }

    #[test]
    fn validate_cw_exterior_is_wrong_orientation() {
        let mut sq = rect(0.0, 0.0, 1.0, 1.0);
        sq.reverse();
        assert!(ring_is_simple(&sq));
        assert_eq!(check_polygon(&poly(sq, vec![])), Err(Invalid::WrongOrientation { ring: 0 }));
        // A counter-clockwise hole.
        let p = poly(rect(0.0, 0.0, 4.0, 4.0), vec![rect(1.0, 1.0, 2.0, 2.0)]);
        assert_eq!(check_polygon(&p), Err(Invalid::WrongOrientation { ring: 1 }));
    }

    #[test]
    fn validate_hole_outside() {
        let mut hole = rect(5.0, 5.0, 6.0, 6.0);
        hole.reverse();
        let p = poly(rect(0.0, 0.0, 4.0, 4.0), vec![hole]);
        assert_eq!(check_polygon(&p), Err(Invalid::HoleOutside { hole: 1 }));
        // A hole touching the exterior from outside at one vertex, all its vertices elsewhere.
        let mut hole = pts(&[(4.0, 2.0), (6.0, 1.0), (6.0, 3.0)]);
        hole.reverse();
        let p = poly(rect(0.0, 0.0, 4.0, 4.0), vec![hole]);
        assert_eq!(check_polygon(&p), Err(Invalid::HoleOutside { hole: 1 }));
        // A hole inside another hole.
        let mut big = rect(1.0, 1.0, 9.0, 9.0);
        big.reverse();
        let mut small = rect(4.0, 4.0, 5.0, 5.0);
        small.reverse();
        let p = poly(rect(0.0, 0.0, 10.0, 10.0), vec![big, small]);
        assert_eq!(check_polygon(&p), Err(Invalid::HoleOutside { hole: 2 }));
    }

    #[test]
    fn validate_hole_touching_exterior() {
        // Touching at one point (a hole vertex on an exterior edge) is allowed.
        let mut hole = pts(&[(2.0, 0.0), (3.0, 1.0), (1.0, 1.0)]);
        hole.reverse();
        let p = poly(rect(0.0, 0.0, 4.0, 4.0), vec![hole]);
        assert_eq!(check_polygon(&p), Ok(()));
        // A triangle hole with every vertex on the exterior: the interior falls apart.
        let mut hole = pts(&[(2.0, 0.0), (4.0, 2.0), (0.0, 2.0)]);
        hole.reverse();
        let p = poly(rect(0.0, 0.0, 4.0, 4.0), vec![hole]);
        assert!(matches!(check_polygon(&p), Err(Invalid::RingsCross { a: 0, b: 1, .. })));
    }

    #[test]
    fn validate_touching_chain_cuts_interior() {
        let rev = |mut v: Vec<Point>| {
            v.reverse();
            v
        };
        let h1 = rev(pts(&[(0.0, 2.0), (1.0, 1.0), (2.0, 2.0), (1.0, 3.0)]));
        let h2 = rev(pts(&[(2.0, 2.0), (3.0, 1.0), (4.0, 2.0), (3.0, 3.0)]));
        let h2_short = rev(pts(&[(2.0, 2.0), (3.0, 1.0), (3.5, 2.0), (3.0, 3.0)]));
        let ext = rect(0.0, 0.0, 4.0, 4.0);
        assert_eq!(check_polygon(&poly(ext.clone(), vec![h1.clone()])), Ok(()));
        assert_eq!(check_polygon(&poly(ext.clone(), vec![h1.clone(), h2_short])), Ok(()));
        assert!(matches!(check_polygon(&poly(ext, vec![h1, h2])), Err(Invalid::RingsCross { .. })));
    }

    #[test]
    fn validate_hole_crossing_exterior() {
        let mut hole = rect(3.0, 1.0, 5.0, 2.0);
        hole.reverse();
        let p = poly(rect(0.0, 0.0, 4.0, 4.0), vec![hole]);
        match check_polygon(&p) {
            Err(Invalid::RingsCross { a: 0, b: 1, at }) => assert_eq!(at.x, 4.0),
            other => panic!("unexpected {other:?}"),
        }
        // Sharing a stretch of edge.
        let mut hole = rect(2.0, 0.0, 3.0, 1.0);
        hole.reverse();
        let p = poly(rect(0.0, 0.0, 4.0, 4.0), vec![hole]);
        assert!(matches!(check_polygon(&p), Err(Invalid::RingsCross { a: 0, b: 1, .. })));
        // Crossing through the exterior's corner and through a point of an exterior edge.
        let hole = pts(&[(3.0, 3.0), (4.0, 4.0), (5.0, 5.0), (5.0, 3.0), (4.0, 2.0)]);
        let p = poly(rect(0.0, 0.0, 4.0, 4.0), vec![hole.clone()]);
        let touches = ring_touches(&[&p.exterior, &hole]).unwrap_or_default();
        assert_eq!(touches.len(), 2);
        assert!(check_touch_crossings(&[&p.exterior, &hole], &touches).is_err());
        assert!(matches!(check_polygon(&p), Err(Invalid::RingsCross { a: 0, b: 1, .. })));
        // Two holes crossing each other.
        let mut h1 = rect(1.0, 1.0, 3.0, 3.0);
        h1.reverse();
        let mut h2 = rect(2.0, 2.0, 4.0, 4.0);
        h2.reverse();
        let p = poly(rect(0.0, 0.0, 5.0, 5.0), vec![h1, h2]);
        assert!(matches!(check_polygon(&p), Err(Invalid::RingsCross { a: 1, b: 2, .. })));
    }

    #[test]
    fn validate_large_star_uses_tree() {
        let s = star(2000);
        assert!(s.len() > BRUTE_FORCE_LIMIT);
        assert!(ring_is_simple(&s));
        assert!(signed_area(&s) > 0.0);
        assert_eq!(check_polygon(&poly(s.clone(), vec![])), Ok(()));

        // One vertex moved through the middle to the other side: its edges cross the far side.
        let mut bad = s.clone();
        bad[700] = Point::new(-bad[700].x, -bad[700].y);
        assert!(!ring_is_simple(&bad));
        assert!(matches!(check_polygon(&poly(bad, vec![])), Err(Invalid::SelfIntersection { ring: 0, .. })));

        // One vertex moved just across the edge 1002-1003 (outwards, past its middle).
        let mut bad = s.clone();
        let (a, b) = (s[1002], s[1003]);
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        bad[1001] = Point::new(0.5 * (a.x + b.x) + 0.1 * dy, 0.5 * (a.y + b.y) - 0.1 * dx);
        assert!(!ring_is_simple(&bad));

        // One vertex moved onto another vertex: touching, not simple.
        let mut bad = s.clone();
        bad[10] = s[1500];
        assert!(!ring_is_simple(&bad));

        // Big hole inside: valid; hole crossing the star's edges: not.
        let mut hole = star(1000);
        for p in &mut hole {
            p.x *= 0.4;
            p.y *= 0.4;
        }
        hole.reverse();
        assert_eq!(check_polygon(&poly(s.clone(), vec![hole.clone()])), Ok(()));
        for p in &mut hole {
            p.x *= 2.0;
            p.y *= 2.0;
        }
        assert!(matches!(check_polygon(&poly(s, vec![hole])), Err(Invalid::RingsCross { a: 0, b: 1, .. })));
    }

    #[test]
    fn validate_sweep_tree_and_brute_force_agree() {
        // Pseudo-random boxes, some touching exactly.
        let mut seed: u64 = 12345;
        let mut rnd = move || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 33) % 100) as f64
        };
        let small: Vec<Bbox> = (0..300)
            .map(|_| {
                let (x, y, w, h) = (rnd(), rnd(), rnd() / 10.0, rnd() / 10.0);
                Bbox { min: [x, y], max: [x + w, y + h] }
            })
            .collect();
        // Long strips side by side: every pair overlaps in x, too much work for the sweep.
        let strips: Vec<Bbox> = (0..300)
            .map(|_| {
                let (y, h) = (rnd(), rnd() / 10.0);
                Bbox { min: [rnd() / 100.0, y], max: [100.0, y + h] }
            })
            .collect();
        let budget = |b: &[Bbox]| b.len() * SWEEP_WORK_PER_BOX;
        assert!(overlapping_pairs_by_sweep(&small, budget(&small)).is_some());
        assert!(overlapping_pairs_by_sweep(&strips, budget(&strips)).is_none());
        for boxes in [small, strips] {
            let collect = |limit: usize| {
                let mut v = Vec::new();
                for_each_overlapping_pair::<()>(&boxes, limit, |i, j| {
                    v.push((i, j));
                    ControlFlow::Continue(())
                });
                v
            };
            let brute = collect(usize::MAX);
            assert!(!brute.is_empty());
            assert_eq!(brute, collect(0));
            // In any order: the same pairs (some twice where the sweep ran over its budget),
            // and the first break in (i, j) order.
            let mut any = Vec::new();
            for_each_overlapping_pair_any_order::<()>(&boxes, 0, |i, j| {
                any.push((i, j));
                ControlFlow::Continue(())
            });
            any.sort_unstable();
            any.dedup();
            assert_eq!(brute, any);
            let breaks = |i: usize, j: usize| {
                if (i + j) % 7 == 3 {
                    ControlFlow::Break((i, j))
                } else {
                    ControlFlow::Continue(())
                }
            };
            let first = for_each_overlapping_pair(&boxes, usize::MAX, breaks);
            assert!(first.is_some());
            assert_eq!(first, for_each_overlapping_pair_any_order(&boxes, 0, breaks));
            assert_eq!(Some(brute), overlapping_pairs_by_sweep(&boxes, usize::MAX));
        }
    }

    #[test]
    fn validate_wedges() {
        let o = Point::new(0.0, 0.0);
        let (e, n, w, s) = (Point::new(1.0, 0.0), Point::new(0.0, 1.0), Point::new(-1.0, 0.0), Point::new(0.0, -1.0));
        let ne = Point::new(1.0, 1.0);
        assert!(in_wedge(o, e, n, ne)); // convex
        assert!(!in_wedge(o, n, e, ne)); // reflex, the other side
        assert!(in_wedge(o, n, e, s));
        assert!(!in_wedge(o, e, n, e)); // on a ray: not strictly inside
        assert!(in_wedge(o, e, w, n)); // straight
        assert!(!in_wedge(o, e, w, s));
    }

    #[test]
    fn validate_point_in_ring() {
        let sq = rect(0.0, 0.0, 1.0, 1.0);
        assert!(point_in_ring(Point::new(0.5, 0.5), &sq));
        assert!(!point_in_ring(Point::new(1.5, 0.5), &sq));
        assert!(!point_in_ring(Point::new(-0.5, 0.5), &sq));
        assert!(!point_in_ring(Point::new(1.0, 0.5), &sq)); // on an edge
        assert!(!point_in_ring(Point::new(0.0, 0.0), &sq)); // on a vertex
        assert!(!point_in_ring(Point::new(0.5, 1.0), &sq));
        let mut cw = sq.clone();
        cw.reverse();
        assert!(point_in_ring(Point::new(0.5, 0.5), &cw));
        // Concave: a U shape.
        let u = pts(&[(0.0, 0.0), (3.0, 0.0), (3.0, 3.0), (2.0, 3.0), (2.0, 1.0), (1.0, 1.0), (1.0, 3.0), (0.0, 3.0)]);
        assert!(point_in_ring(Point::new(0.5, 2.0), &u));
        assert!(!point_in_ring(Point::new(1.5, 2.0), &u));
        assert!(point_in_ring(Point::new(1.5, 0.5), &u));
        // Ray through a vertex.
        assert!(point_in_ring(Point::new(0.5, 1.0), &u));
        assert!(!point_in_ring(Point::new(f64::NAN, 0.5), &sq));
    }

    fn junction(id: &str, exterior: Vec<Point>) -> Junction {
        Junction {
            id: id.to_string(),
            center: Point::default(),
            degree: 0,
            roads: vec![],
            polygon: poly(exterior, vec![]),
        }
    }

    fn piece(id: &str, exterior: Vec<Point>) -> RoadPiece {
        RoadPiece {
            id: id.to_string(),
            road: id.to_string(),
            from: None,
            to: None,
            start: 0.0,
            end: 1.0,
            centerline: vec![],
            width: 1.0,
            profile: crate::Profile::default(),
            polygon: poly(exterior, vec![]),
        }
    }

    fn block(id: &str, exterior: Vec<Point>) -> Block {
        let polygon = poly(exterior, vec![]);
        Block {
            id: id.to_string(),
            area: polygon_area(&polygon),
            polygon,
            profile: crate::Profile::default(),
            bands: vec![],
            lots: vec![],
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    #[test]
    fn validate_network_junction_overlap() {
        let n = Network {
            junctions: vec![junction("a", rect(0.0, 0.0, 2.0, 2.0)), junction("b", rect(1.0, 1.0, 3.0, 3.0))],
            ..Network::default()
        };
        let r = check_network(&n);
        assert!(r.invalid.is_empty());
        assert!(close(r.junction_overlap_area, 1.0), "{r:?}");
        assert!(close(r.road_surface_area, 7.0), "{r:?}");

        let n = Network {
            junctions: vec![junction("a", rect(0.0, 0.0, 1.0, 1.0)), junction("b", rect(1.0, 0.0, 2.0, 1.0))],
            ..Network::default()
        };
        let r = check_network(&n);
        assert_eq!(r.junction_overlap_area, 0.0);
        assert!(close(r.road_surface_area, 2.0), "{r:?}");
    }

    #[test]
    fn validate_network_reports_invalid_and_block_overlaps() {
        let bow = pts(&[(0.0, 0.0), (2.0, 2.0), (2.0, 0.0), (0.0, 2.0)]);
        let n = Network {
            junctions: vec![junction("bad", bow)],
            pieces: vec![piece("p", rect(1.0, 0.0, 3.0, 2.0))],
            blocks: vec![block("b1", rect(0.0, 0.0, 2.0, 2.0)), block("b2", rect(1.5, 0.0, 2.5, 1.0))],
            ..Network::default()
        };
        let r = check_network(&n);
        assert_eq!(r.invalid.len(), 1);
        assert_eq!(r.invalid[0].0, "bad");
        assert!(matches!(r.invalid[0].1, Invalid::SelfIntersection { .. }));
        assert!(r.block_road_overlap_area > 0.0, "{r:?}");
        assert!(close(r.block_overlap_area, 0.5), "{r:?}");
        assert!(close(r.block_area, 5.0), "{r:?}");
    }

    #[test]
    fn validate_network_gap_fraction() {
        // Eight unit road squares around a unit block.
        let mut pieces = Vec::new();
        let mut junctions = Vec::new();
        for i in 0..3 {
            for j in 0..3 {
                if (i, j) == (1, 1) {
                    continue;
                }
                let sq = rect(i as f64, j as f64, i as f64 + 1.0, j as f64 + 1.0);
                if (i + j) % 2 == 0 {
                    junctions.push(junction(&format!("j{i}{j}"), sq));
                } else {
                    pieces.push(piece(&format!("p{i}{j}"), sq));
                }
            }
        }
        let mut n =
            Network { junctions, pieces, blocks: vec![block("b", rect(1.0, 1.0, 2.0, 2.0))], ..Network::default() };
        let r = check_network(&n);
        assert!(r.invalid.is_empty(), "{r:?}");
        assert!(close(r.road_surface_area, 8.0), "{r:?}");
        assert!(close(r.enclosed_area, 9.0), "{r:?}");
        assert!(close(r.block_road_overlap_area, 0.0), "{r:?}");
        assert!(r.gap_fraction().abs() < 1e-9, "{r:?}");

        n.blocks.clear();
        let r = check_network(&n);
        assert!(close(r.gap_area, 1.0), "{r:?}");
        assert!(close(r.gap_fraction(), 1.0 / 9.0), "{r:?}");

        assert_eq!(check_network(&Network::default()).gap_fraction(), 0.0);
    }

    #[test]
    fn validate_never_panics_on_odd_input() {
        let odd = vec![
            vec![],
            pts(&[(f64::INFINITY, 0.0), (1.0, 0.0), (0.0, 1.0)]),
            pts(&[(1e300, 0.0), (-1e300, 0.0), (0.0, 1e300)]),
            pts(&[(0.0, 0.0), (0.0, 0.0), (0.0, 0.0)]),
        ];
        for ring in &odd {
            let _ = ring_is_simple(ring);
            let _ = signed_area(ring);
            let _ = point_in_ring(Point::new(0.0, 0.5), ring);
            let p = poly(ring.clone(), vec![ring.clone()]);
            let _ = check_polygon(&p);
            let n = Network {
                junctions: vec![junction("j", ring.clone())],
                blocks: vec![block("b", ring.clone())],
                ..Network::default()
            };
            let r = check_network(&n);
            assert!(!r.invalid.is_empty() || ring.len() == 3);
        }
    }
}
