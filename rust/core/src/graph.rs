//! Stages 2 to 4: crossings, connections and the noded graph of road edges.
//!
//! Every road is flattened into a [`Line`]. Crossings between segments come from a sweep along x
//! over boxes of runs of segments and are decided with exact predicates. Road ends join the road
//! (or road end) nearest to them within the snap distance (found by a sweep too); an end that
//! overshoots a crossing by less than the junction's size is trimmed back to it. Every connection is a node; nodes closer together than
//! the roads are wide are gathered into one cluster (one junction). Each road is then cut at its
//! nodes into edges.

use rayon::prelude::*;
use rstar::primitives::{GeomWithData, Rectangle};
use rstar::{RTree, AABB};

use crate::geom::{project_on_segment, segment_hit, Line, SegHit};
use crate::types::{Diagnostic, DiagnosticCode, Point};
use crate::Settings;

/// A road after flattening, with the part of it that is kept.
#[derive(Clone, Debug)]
pub(crate) struct RoadLine {
    pub(crate) id: String,
    pub(crate) width: f64,
    pub(crate) layer: i32,
    pub(crate) closed: bool,
    pub(crate) has_height: bool,
    pub(crate) profile: crate::Profile,
    /// Radius of the junction corners beside this road, metres.
    pub(crate) corner_radius: f64,
    /// The centerline; for a closed road the last point repeats the first.
    pub(crate) line: Line,
    /// Kept range of arc length (an overshoot trims it).
    pub(crate) lo: f64,
    pub(crate) hi: f64,
}

/// A node of the graph: a crossing or a connection, at a position.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub(crate) pos: Point,
    /// Widest road with a stop at this node, metres.
    pub(crate) width: f64,
}

/// One edge: the part of one road between two stops (or a dead end).
#[derive(Clone, Debug)]
pub(crate) struct Edge {
    pub(crate) road: usize,
    /// Arc length along the road of the edge's start and end (`s1` may exceed the road's length
    /// for the edge that runs across the seam of a closed road).
    pub(crate) s0: f64,
    pub(crate) s1: f64,
    /// Nodes at the ends (`None` at a dead end or a closed road without nodes).
    pub(crate) n0: Option<usize>,
    pub(crate) n1: Option<usize>,
    /// The centerline of the edge, from `s0` to `s1`.
    pub(crate) line: Line,
}

/// The noded network.
#[derive(Debug, Default)]
pub(crate) struct Graph {
    pub(crate) roads: Vec<RoadLine>,
    pub(crate) nodes: Vec<Node>,
    pub(crate) edges: Vec<Edge>,
}

/// Consecutive segments of a road that share one box of the sweeps. A flattened centerline has
/// many short segments in a row; boxing them in runs makes the sweeps several times cheaper,
/// and each run found is then read segment by segment.
const SEGMENTS_PER_ENTRY: usize = 8;

/// Where a connection lies along a road.
#[derive(Clone, Copy, Debug)]
struct Stop {
    road: usize,
    s: f64,
    node: usize,
}

/// A crossing between two roads (or a road and itself).
#[derive(Clone, Copy, Debug)]
struct Crossing {
    a: usize,
    sa: f64,
    b: usize,
    sb: f64,
    p: Point,
}

/// A box as lowest and highest corners, closed, in plain arithmetic (an R-tree's envelopes,
/// used here before, cost several times as many instructions through their generic point
/// operations; for finite coordinates both give the same answers).
pub(crate) type Box2 = ([f64; 2], [f64; 2]);

/// The box of the run of segments of road `r` that starts at segment `first`.
fn entry_box(roads: &[RoadLine], r: usize, first: usize) -> Box2 {
    entry_segments(roads, r, first).fold(seg_box(roads, r, first), |(lo, hi), k| {
        let (l, h) = seg_box(roads, r, k);
        ([lo[0].min(l[0]), lo[1].min(l[1])], [hi[0].max(h[0]), hi[1].max(h[1])])
    })
}

/// The box of segment `k` of road `r`.
fn seg_box(roads: &[RoadLine], r: usize, k: usize) -> Box2 {
    let (a, b) = seg(roads, r, k);
    ([a.x.min(b.x), a.y.min(b.y)], [a.x.max(b.x), a.y.max(b.y)])
}

/// Whether two closed boxes meet.
fn boxes_meet(a: &Box2, b: &Box2) -> bool {
    a.0[0] <= b.1[0] && a.0[1] <= b.1[1] && a.1[0] >= b.0[0] && a.1[1] >= b.0[1]
}

/// For each box of a list, the indices of the boxes that meet it, ascending, all in one list
/// (one allocation, not one per box).
#[derive(Debug)]
pub(crate) struct Meetings {
    /// Where each box's indices start in `list`, and where the last one's end.
    starts: Vec<usize>,
    list: Vec<usize>,
}

impl Meetings {
    /// From (box, index) pairs in any order, for `n` boxes.
    fn from_pairs(n: usize, pairs: &[(usize, usize)]) -> Self {
        let mut starts = vec![0usize; n + 1];
        for &(i, _) in pairs {
            starts[i + 1] += 1;
        }
        for i in 0..n {
            starts[i + 1] += starts[i];
        }
        let mut next = starts[..n].to_vec();
        let mut list = vec![0usize; pairs.len()];
        for &(i, j) in pairs {
            list[next[i]] = j;
            next[i] += 1;
        }
        // Each box's row sorted on its own, the rows side by side.
        let mut rows: Vec<&mut [usize]> = Vec::with_capacity(n);
        let mut rest: &mut [usize] = &mut list;
        for i in 0..n {
            let (row, tail) = std::mem::take(&mut rest).split_at_mut(starts[i + 1] - starts[i]);
            rows.push(row);
            rest = tail;
        }
        rows.into_par_iter().for_each(|row| row.sort_unstable());
        Self { starts, list }
    }

    /// From each box's indices in turn (each row sorted here, the rows side by side).
    fn from_rows(mut rows: Vec<Vec<usize>>) -> Self {
        rows.par_iter_mut().for_each(|row| row.sort_unstable());
        let mut m = Self { starts: Vec::with_capacity(rows.len() + 1), list: Vec::new() };
        m.starts.push(0);
        m.list.reserve(rows.iter().map(Vec::len).sum());
        for row in rows {
            m.list.extend(row);
            m.starts.push(m.list.len());
        }
        m
    }

    /// The indices that meet box `i`, ascending.
    pub(crate) fn of(&self, i: usize) -> &[usize] {
        &self.list[self.starts[i]..self.starts[i + 1]]
    }

    /// How many boxes.
    fn len(&self) -> usize {
        self.starts.len() - 1
    }

    #[cfg(test)]
    fn rows(&self) -> Vec<Vec<usize>> {
        (0..self.len()).map(|i| self.of(i).to_vec()).collect()
    }
}

/// For each box of `boxes`, the indices of the boxes that meet it from its own on (itself
/// included), ascending: one sweep along x over the boxes sorted by their lowest x, each
/// tested against those still open there (instead of one R-tree search per box); an R-tree
/// search per box when the sweep would make more than [`SWEEP_WORK_PER_BOX`] comparisons per
/// box (many long segments side by side, open together all along the sweep), with the same
/// answer.
pub(crate) fn meeting_from(boxes: &[Box2]) -> Meetings {
    if let Some(out) = sweep_from(boxes, boxes.len().saturating_mul(SWEEP_WORK_PER_BOX)) {
        return out;
    }
    let tree = box_tree(boxes);
    Meetings::from_rows(
        boxes
            .par_iter()
            .enumerate()
            .map(|(i, b)| {
                // The tree takes an inverted box (one that meets nothing) for the box between
                // its corners: only the boxes that really meet are kept.
                let meets = |&j: &usize| j >= i && boxes_meet(b, &boxes[j]);
                tree.locate_in_envelope_intersecting(aabb(b)).map(|e| e.data).filter(meets).collect()
            })
            .collect(),
    )
}

/// The sweep of [`meeting_from`]; `None` when it would make more than `budget` comparisons.
/// Cut into stretches of the sweep order ([`sweep_stretches`]) swept side by side, each
/// starting with the boxes the whole sweep would have open there ([`open_before`]): the same
/// pairs, in the same order, and the same count of comparisons as one sweep from end to end.
fn sweep_from(boxes: &[Box2], budget: usize) -> Option<Meetings> {
    let mut order: Vec<usize> = (0..boxes.len()).collect();
    order.par_sort_unstable_by(|&a, &b| boxes[a].0[0].total_cmp(&boxes[b].0[0]).then(a.cmp(&b)));
    let (lo, hi) = (|i: &usize| boxes[*i].0[0], |i: &usize| boxes[*i].1[0]);
    let shared = SharedWork::new(budget);
    let swept = sweep_stretches(&order, lo).into_par_iter().map(|stretch| {
        let mut open = open_before(&order, stretch.start, lo, hi);
        let mut pairs: Vec<(usize, usize)> = Vec::with_capacity(2 * stretch.len());
        let (mut work, mut told) = (0usize, 0usize);
        for &i in &order[stretch] {
            let b = &boxes[i];
            work = work.saturating_add(open.len());
            if work > budget || shared.past_budget(work, &mut told) {
                return None;
            }
            // A box that ends before this one starts ends before every later one starts.
            open.retain(|&o| !(boxes[o].1[0] < b.0[0]));
            for &o in &open {
                if boxes_meet(&boxes[o], b) {
                    pairs.push(if o < i { (o, i) } else { (i, o) });
                }
            }
            if boxes_meet(b, b) {
                pairs.push((i, i));
            }
            open.push(i);
        }
        Some((pairs, work))
    });
    let pairs = joined_stretches(swept.collect(), budget)?;
    Some(Meetings::from_pairs(boxes.len(), &pairs))
}

/// Items of a sweep order that a stretch of [`sweep_stretches`] holds at least (fewer items
/// are swept in one stretch: the boxes the whole sweep has open at a cut are found by a look at
/// every item before it).
const SWEEP_STRETCH: usize = 8192;

/// Most stretches a sweep is cut into.
const MAX_SWEEP_STRETCHES: usize = 8;

/// The stretches of `order` (sorted by `lo`) that the sweeps of [`sweep_from`] and
/// [`sweep_of`] sweep side by side: about [`SWEEP_STRETCH`] items each, at most
/// [`MAX_SWEEP_STRETCHES`], the same whatever the number of threads. One stretch when some `lo`
/// is not a number, where [`open_before`] would not know what the sweep keeps open.
fn sweep_stretches<T>(order: &[T], lo: impl Fn(&T) -> f64) -> Vec<std::ops::Range<usize>> {
    let n = order.len();
    let count = (n / SWEEP_STRETCH).clamp(1, MAX_SWEEP_STRETCHES);
    if count == 1 || order.iter().any(|t| lo(t).is_nan()) {
        return std::iter::once(0..n).collect();
    }
    (0..count).map(|c| c * n / count..(c + 1) * n / count).collect()
}

/// What a sweep over `order` (sorted by `lo`, no `lo` that is not a number) holds open when it
/// comes to item `start`, before it drops the items that end before that one: the items before
/// `start - 1` that do not end before `start - 1` starts (an item the sweep dropped earlier ended
/// before an earlier, lower start), then item `start - 1`, in sweep order.
fn open_before<T: Copy>(order: &[T], start: usize, lo: impl Fn(&T) -> f64, hi: impl Fn(&T) -> f64) -> Vec<T> {
    let Some(last) = start.checked_sub(1).and_then(|k| order.get(k)) else { return Vec::new() };
    let x = lo(last);
    let mut open: Vec<T> = order[..start - 1].iter().filter(|t| !(hi(t) < x)).copied().collect();
    open.push(*last);
    open
}

/// The comparisons that the stretches of one sweep have made so far, as each tells them, so
/// that every stretch gives up once all of them together are past the budget (one sweep gives
/// up there; a stretch alone would run on to the whole budget). A stretch tells its count in
/// steps of [`SHARED_WORK_STEP`]: the total told never exceeds what was made, so a sweep gives
/// up early only where the whole count would be past the budget too.
struct SharedWork {
    told: std::sync::atomic::AtomicUsize,
    budget: usize,
}

/// Comparisons a stretch makes between two tellings of [`SharedWork`].
const SHARED_WORK_STEP: usize = 1 << 16;

impl SharedWork {
    fn new(budget: usize) -> Self {
        Self { told: std::sync::atomic::AtomicUsize::new(0), budget }
    }

    /// Tells the stretch's comparisons since it last told them (`told`, updated), when they are
    /// a step or more; whether the total told is past the budget.
    fn past_budget(&self, work: usize, told: &mut usize) -> bool {
        let fresh = work - *told;
        if fresh < SHARED_WORK_STEP {
            return false;
        }
        *told = work;
        let before = self.told.fetch_add(fresh, std::sync::atomic::Ordering::Relaxed);
        before.saturating_add(fresh) > self.budget
    }
}

/// What one stretch of a sweep found: its pairs, and the comparisons it made.
type Stretch = (Vec<(usize, usize)>, usize);

/// The pairs of the stretches of a sweep, in order; `None` when one of them gave up or they made
/// more than `budget` comparisons in all.
fn joined_stretches(swept: Vec<Option<Stretch>>, budget: usize) -> Option<Vec<(usize, usize)>> {
    let mut work = 0usize;
    let mut pairs = Vec::with_capacity(swept.iter().flatten().map(|(p, _)| p.len()).sum());
    for stretch in swept {
        let (found, w) = stretch?;
        work = work.saturating_add(w);
        if work > budget {
            return None;
        }
        pairs.extend(found);
    }
    Some(pairs)
}

/// Comparisons per box that the sweeps of [`meeting_from`] and [`meeting_of`] may make before
/// they give the search to an R-tree. A city's segment runs are short, but a sweep along x
/// compares each with every run open in a column of the city, which grows with the city's
/// height: liege makes about 80 comparisons per box, liege tiled 2 × 2 about 160, and there
/// the sweep still beats a tree search per box (liege's network stage 17 % faster than with
/// the tree). Boxes that overlap in x far more (many long roads side by side) would make the
/// sweep quadratic.
const SWEEP_WORK_PER_BOX: usize = 256;

/// An R-tree of boxes, each with its index.
fn box_tree(boxes: &[Box2]) -> RTree<GeomWithData<Rectangle<[f64; 2]>, usize>> {
    RTree::bulk_load(
        boxes.iter().enumerate().map(|(i, b)| GeomWithData::new(Rectangle::from_corners(b.0, b.1), i)).collect(),
    )
}

/// A box as the R-tree takes it.
fn aabb(b: &Box2) -> AABB<[f64; 2]> {
    AABB::from_corners(b.0, b.1)
}

/// The segments of road `r` in the run that starts at segment `first`.
fn entry_segments(roads: &[RoadLine], r: usize, first: usize) -> std::ops::Range<usize> {
    first..(first + SEGMENTS_PER_ENTRY).min(roads[r].line.pts.len().saturating_sub(1))
}

/// For each box of `queries`, the indices of the boxes of `boxes` that meet it, ascending: the
/// sweep of [`meeting_from`] over both lists together (or, past its budget, an R-tree of
/// `boxes` searched with each query).
fn meeting_of(queries: &[Box2], boxes: &[Box2]) -> Meetings {
    let budget = (queries.len() + boxes.len()).saturating_mul(SWEEP_WORK_PER_BOX);
    if let Some(out) = sweep_of(queries, boxes, budget) {
        return out;
    }
    let tree = box_tree(boxes);
    Meetings::from_rows(
        queries
            .par_iter()
            .map(|q| {
                let meets = |&j: &usize| boxes_meet(q, &boxes[j]);
                tree.locate_in_envelope_intersecting(aabb(q)).map(|e| e.data).filter(meets).collect()
            })
            .collect(),
    )
}

/// The sweep of [`meeting_of`]; `None` when it would make more than `budget` comparisons.
/// Cut into stretches swept side by side, as [`sweep_from`] is.
fn sweep_of(queries: &[Box2], boxes: &[Box2], budget: usize) -> Option<Meetings> {
    // (is a box of `boxes`, index), in order of lowest x.
    let mut order: Vec<(bool, usize)> = (0..queries.len()).map(|i| (false, i)).collect();
    order.extend((0..boxes.len()).map(|i| (true, i)));
    let of = |&(b, i): &(bool, usize)| if b { &boxes[i] } else { &queries[i] };
    order.par_sort_unstable_by(|a, b| of(a).0[0].total_cmp(&of(b).0[0]).then(a.cmp(b)));
    let (lo, hi) = (|t: &(bool, usize)| of(t).0[0], |t: &(bool, usize)| of(t).1[0]);
    let shared = SharedWork::new(budget);
    let swept = sweep_stretches(&order, lo).into_par_iter().map(|stretch| {
        let (mut open_q, mut open_b): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
        for (is_box, i) in open_before(&order, stretch.start, lo, hi) {
            if is_box { &mut open_b } else { &mut open_q }.push(i);
        }
        let mut pairs: Vec<(usize, usize)> = Vec::with_capacity(2 * stretch.len());
        let (mut work, mut told) = (0usize, 0usize);
        for item in &order[stretch] {
            let x = of(item);
            work = work.saturating_add(open_q.len() + open_b.len());
            if work > budget || shared.past_budget(work, &mut told) {
                return None;
            }
            open_q.retain(|&o| !(queries[o].1[0] < x.0[0]));
            open_b.retain(|&o| !(boxes[o].1[0] < x.0[0]));
            match *item {
                (true, i) => {
                    pairs.extend(open_q.iter().filter(|&&q| boxes_meet(&queries[q], x)).map(|&q| (q, i)));
                    open_b.push(i);
                }
                (false, q) => {
                    pairs.extend(open_b.iter().filter(|&&o| boxes_meet(x, &boxes[o])).map(|&o| (q, o)));
                    open_q.push(q);
                }
            }
        }
        Some((pairs, work))
    });
    let pairs = joined_stretches(swept.collect(), budget)?;
    Some(Meetings::from_pairs(queries.len(), &pairs))
}

/// The runs of segments (road, first segment) of every road, in order of road and segment.
fn segment_runs(roads: &[RoadLine]) -> Vec<(usize, usize)> {
    roads
        .iter()
        .enumerate()
        .flat_map(|(r, road)| {
            (0..road.line.pts.len().saturating_sub(1)).step_by(SEGMENTS_PER_ENTRY).map(move |first| (r, first))
        })
        .collect()
}

fn seg(roads: &[RoadLine], r: usize, k: usize) -> (Point, Point) {
    let l = &roads[r].line;
    (l.pts[k].xy(), l.pts[k + 1].xy())
}

/// Segments `k1` and `k2` of one road share an end point by construction.
fn adjacent(road: &RoadLine, k1: usize, k2: usize) -> bool {
    let nseg = road.line.pts.len().saturating_sub(1);
    k1.abs_diff(k2) <= 1 || (road.closed && nseg > 2 && (k1.min(k2) == 0 && k1.max(k2) == nseg - 1))
}

/// Normalises a position on a closed road so that the seam is 0.
fn norm_s(road: &RoadLine, s: f64) -> f64 {
    if road.closed && s >= road.line.length() {
        0.0
    } else {
        s
    }
}

fn is_end(road: &RoadLine, s: f64) -> bool {
    !road.closed && (s <= 0.0 || s >= road.line.length())
}

fn height_at(road: &RoadLine, s: f64) -> f64 {
    road.line.point_at(s).z
}

/// All crossings between segments, with grade-separated ones reported and left out.
fn find_crossings(roads: &[RoadLine], settings: &Settings, diags: &mut Vec<Diagnostic>) -> Vec<Crossing> {
    // Each run of segments against the runs its box meets, then segment by segment: the pairs
    // of segments whose boxes meet, each once, in order of the first segment, then the second.
    let entries = segment_runs(roads);
    // The entries are in order of road and first segment: the entries from one on are those
    // after it.
    let boxes: Vec<Box2> = entries.iter().map(|&(r, first)| entry_box(roads, r, first)).collect();
    let meeting = meeting_from(&boxes);
    let found: Vec<Vec<Crossing>> = entries
        .par_iter()
        .enumerate()
        .map(|(e, &(r1, first1))| {
            let cands = meeting.of(e);
            let mut out = Vec::new();
            for k1 in entry_segments(roads, r1, first1) {
                let (a0, a1) = seg(roads, r1, k1);
                let env1 = seg_box(roads, r1, k1);
                for &(r2, first2) in cands.iter().map(|&c| &entries[c]) {
                    for k2 in entry_segments(roads, r2, first2) {
                        if (r2, k2) <= (r1, k1) || !boxes_meet(&seg_box(roads, r2, k2), &env1) {
                            continue;
                        }
                        if r1 == r2 && adjacent(&roads[r1], k1, k2) {
                            continue;
                        }
                        crossings_of(roads, (r1, k1, a0, a1), (r2, k2), &mut out);
                    }
                }
            }
            out
        })
        .collect();
    let mut crossings = Vec::new();
    for c in found.into_iter().flatten() {
        if c.a == c.b && c.sa == c.sb {
            continue;
        }
        // The smaller id first, so that a diagnostic names the same road in any input order.
        let ((ra, sa), (rb, sb)) = if roads[c.a].id <= roads[c.b].id {
            ((&roads[c.a], c.sa), (&roads[c.b], c.sb))
        } else {
            ((&roads[c.b], c.sb), (&roads[c.a], c.sa))
        };
        let shared_end = is_end(ra, sa) || is_end(rb, sb);
        if !shared_end {
            let layered = ra.layer != rb.layer;
            let dz = (height_at(ra, sa) - height_at(rb, sb)).abs();
            let high = ra.has_height && rb.has_height && dz > settings.clearance;
            if layered || high {
                diags.push(Diagnostic {
                    code: DiagnosticCode::GradeSeparated,
                    position: c.p,
                    road: Some(ra.id.clone()),
                    message: if layered {
                        format!(
                            "road {} (layer {}) crosses road {} (layer {}): bridge or tunnel, no junction",
                            ra.id, ra.layer, rb.id, rb.layer
                        )
                    } else {
                        format!(
                            "road {} crosses road {} {:.2} m above or below it: bridge or tunnel, no junction",
                            ra.id, rb.id, dz
                        )
                    },
                });
                continue;
            }
        }
        crossings.push(c);
    }
    crossings
}

/// The crossings of segment `k1` of road `r1` (from `a0` to `a1`) with segment `k2` of road
/// `r2`, added to `out`: the point where they cross, or both ends of the part they share.
fn crossings_of(
    roads: &[RoadLine],
    (r1, k1, a0, a1): (usize, usize, Point, Point),
    (r2, k2): (usize, usize),
    out: &mut Vec<Crossing>,
) {
    let (b0, b1) = seg(roads, r2, k2);
    let mut push = |ta: f64, tb: f64| {
        let p = if ta == 0.0 {
            a0
        } else if ta == 1.0 {
            a1
        } else if tb == 0.0 {
            b0
        } else if tb == 1.0 {
            b1
        } else {
            a0.lerp(a1, ta)
        };
        out.push(Crossing {
            a: r1,
            sa: norm_s(&roads[r1], roads[r1].line.s_of(k1, ta)),
            b: r2,
            sb: norm_s(&roads[r2], roads[r2].line.s_of(k2, tb)),
            p,
        });
    };
    match segment_hit(a0, a1, b0, b1) {
        SegHit::None => {}
        SegHit::Point { ta, tb } => push(ta, tb),
        SegHit::Overlap { ta0, ta1 } => {
            for ta in [ta0, ta1] {
                let p = a0.lerp(a1, ta);
                let (tb, _) = project_on_segment(p, b0, b1);
                push(ta, tb);
            }
        }
    }
}

/// What the end search finds: the links, which ends are connected (start, end) per road, and
/// near misses (road, end, diagnostic) to report unless the end is trimmed later.
type EndLinks = (Vec<EndLink>, Vec<[bool; 2]>, Vec<(usize, usize, Diagnostic)>);

/// The road ends that join another road, as stops; ends already on a crossing are skipped.
struct EndLink {
    road: usize,
    s_end: f64,
    other: usize,
    s_other: f64,
    p: Point,
}

/// What [`find_end_links`] finds for one open end.
enum EndFound {
    /// The road it joins: (distance, road, position along it, point).
    Joins((f64, usize, f64, Point)),
    /// The nearest road just past the snap distance: (distance, road).
    Misses((f64, usize)),
    Nothing,
}

fn find_end_links(
    roads: &[RoadLine],
    crossings: &[Crossing],
    settings: &Settings,
    diags: &mut Vec<Diagnostic>,
) -> EndLinks {
    // Ends that a crossing already touches.
    let mut connected = vec![[false; 2]; roads.len()];
    for c in crossings {
        for (r, s) in [(c.a, c.sa), (c.b, c.sb)] {
            let road = &roads[r];
            if !road.closed {
                if s <= 0.0 {
                    connected[r][0] = true;
                }
                if s >= road.line.length() {
                    connected[r][1] = true;
                }
            }
        }
    }
    let max_width = roads.iter().map(|r| r.width).fold(0.0, f64::max);
    let reach = settings.snap_distance + max_width;
    let mut links = Vec::new();
    let mut near_misses = Vec::new();
    // The open ends not on a crossing (road, end, position along it, point), each with the box
    // of what it may join; then the runs of segments whose boxes meet each, all in one sweep.
    let mut ends: Vec<(usize, usize, f64, Point)> = Vec::new();
    for (r, road) in roads.iter().enumerate() {
        if road.closed || road.line.pts.len() < 2 {
            continue;
        }
        let len = road.line.length();
        for (end, s_end) in [(0usize, 0.0), (1usize, len)] {
            if !connected[r][end] {
                ends.push((r, end, s_end, road.line.point_at(s_end).xy()));
            }
        }
    }
    let envs: Vec<Box2> =
        ends.iter().map(|&(_, _, _, e)| ([e.x - reach, e.y - reach], [e.x + reach, e.y + reach])).collect();
    let runs = segment_runs(roads);
    let run_boxes: Vec<Box2> = runs.iter().map(|&(r, first)| entry_box(roads, r, first)).collect();
    let meeting = meeting_of(&envs, &run_boxes);
    // What each end joins, found for every end side by side (an end's search reads nothing that
    // another's changes), then taken in order of the ends.
    let found: Vec<EndFound> = ends
        .par_iter()
        .zip(&envs)
        .enumerate()
        .map(|(k, (&(r, _, s_end, e), env))| {
            let near_runs = meeting.of(k);
            let road = &roads[r];
            // Candidates within the snap distance: (distance, road, s, point).
            let mut within: Vec<(f64, usize, f64, Point)> = Vec::new();
            let mut near: Option<(f64, usize)> = None;
            let segments = near_runs.iter().flat_map(|&i| {
                let (r2, first) = runs[i];
                entry_segments(roads, r2, first)
                    .filter(move |&k| boxes_meet(&seg_box(roads, r2, k), env))
                    .map(move |k| (r2, k))
            });
            for (r2, k2) in segments {
                let (b0, b1) = seg(roads, r2, k2);
                let (t, d) = project_on_segment(e, b0, b1);
                let s2 = roads[r2].line.s_of(k2, t);
                if r2 == r {
                    // The road near its own end is not another road.
                    if (s2 - s_end).abs() <= road.width + settings.snap_distance {
                        continue;
                    }
                }
                if d <= settings.snap_distance {
                    within.push((d, r2, s2, b0.lerp(b1, t)));
                } else if d <= settings.snap_distance + 0.5 * (road.width + roads[r2].width)
                    && near.is_none_or(|n| (d, r2) < n)
                {
                    near = Some((d, r2));
                }
            }
            // The nearest; roads as near as it up to a rounding step (an end halfway between
            // two roads) are a tie, broken by road and position whatever the rounding.
            let dmin = within.iter().fold(f64::INFINITY, |m, c| m.min(c.0));
            let tie = crate::geom::COINCIDENT_SHARE * settings.tolerance;
            let best = within
                .into_iter()
                .filter(|c| c.0 <= dmin + tie)
                .min_by(|a, b| a.1.cmp(&b.1).then(a.2.total_cmp(&b.2)).then(a.0.total_cmp(&b.0)));
            match (best, near) {
                (Some(joined), _) => EndFound::Joins(joined),
                (None, Some(missed)) => EndFound::Misses(missed),
                (None, None) => EndFound::Nothing,
            }
        })
        .collect();
    for (&(r, end, s_end, e), found) in ends.iter().zip(found) {
        let road = &roads[r];
        match found {
            EndFound::Joins((d, r2, s2, p)) => {
                connected[r][end] = true;
                if d > 0.0 {
                    diags.push(Diagnostic {
                        code: DiagnosticCode::EndSnapped,
                        position: e,
                        road: Some(road.id.clone()),
                        message: format!("road {} ends {:.2} m from road {}: joined to it", road.id, d, roads[r2].id),
                    });
                }
                links.push(EndLink { road: r, s_end, other: r2, s_other: norm_s(&roads[r2], s2), p });
            }
            EndFound::Misses((d, r2)) => {
                near_misses.push((
                    r,
                    end,
                    Diagnostic {
                        code: DiagnosticCode::NearMiss,
                        position: e,
                        road: Some(road.id.clone()),
                        message: format!(
                            "road {} ends {:.2} m from road {}, further than the snap distance ({} m): not joined",
                            road.id, d, roads[r2].id, settings.snap_distance
                        ),
                    },
                ));
            }
            EndFound::Nothing => {}
        }
    }
    (links, connected, near_misses)
}

/// Union-find with path halving; the smaller index is the root, so that the result does not
/// depend on the order of unions.
#[derive(Clone, Debug)]
pub(crate) struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    pub(crate) fn new(n: usize) -> Self {
        Self { parent: (0..n).collect() }
    }
    pub(crate) fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }
    /// Joins the sets of `a` and `b`; true when they were apart.
    pub(crate) fn union(&mut self, a: usize, b: usize) -> bool {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return false;
        }
        let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
        self.parent[hi] = lo;
        true
    }
}

/// Builds the noded graph and the node clusters (one per junction).
pub(crate) fn build_graph(
    roads: Vec<RoadLine>,
    settings: &Settings,
    diags: &mut Vec<Diagnostic>,
) -> (Graph, UnionFind) {
    let mut roads = roads;
    let crossings = find_crossings(&roads, settings, diags);
    let (links, connected, near_misses) = find_end_links(&roads, &crossings, settings, diags);

    let mut nodes: Vec<Node> = Vec::new();
    let mut stops: Vec<Stop> = Vec::new();
    for c in &crossings {
        let w = roads[c.a].width.max(roads[c.b].width);
        let n = nodes.len();
        nodes.push(Node { pos: c.p, width: w });
        stops.push(Stop { road: c.a, s: c.sa, node: n });
        stops.push(Stop { road: c.b, s: c.sb, node: n });
    }
    for l in &links {
        let w = roads[l.road].width.max(roads[l.other].width);
        let n = nodes.len();
        nodes.push(Node { pos: l.p, width: w });
        stops.push(Stop { road: l.road, s: l.s_end, node: n });
        stops.push(Stop { road: l.other, s: l.s_other, node: n });
    }

    // Overshoots: an unconnected end just past a crossing is trimmed back to the crossing.
    let mut by_road: Vec<Vec<(f64, usize)>> = vec![Vec::new(); roads.len()];
    for (i, st) in stops.iter().enumerate() {
        by_road[st.road].push((st.s, i));
    }
    for v in &mut by_road {
        v.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    }
    // Width of the widest other road at each stop's node.
    let mut node_roads: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for st in &stops {
        node_roads[st.node].push(st.road);
    }
    let crossed: Vec<f64> = stops
        .iter()
        .map(|st| node_roads[st.node].iter().filter(|&&r| r != st.road).map(|&r| roads[r].width).fold(0.0, f64::max))
        .collect();
    for r in 0..roads.len() {
        if roads[r].closed {
            continue;
        }
        let len = roads[r].line.length();
        let list = &by_road[r];
        for (end, &joined) in connected[r].iter().enumerate() {
            if joined || list.is_empty() {
                continue;
            }
            let (s_c, idx) = if end == 0 { list[0] } else { list[list.len() - 1] };
            let stub = if end == 0 { s_c } else { len - s_c };
            // Only a road that goes on past the crossing overshoots it: a short road that
            // starts (or ends) on the crossed road is a dead end of its own.
            let goes_on = if end == 0 { s_c < len } else { s_c > 0.0 };
            let w_other = crossed[idx];
            if w_other <= 0.0 || stub <= 0.0 || !goes_on {
                continue;
            }
            let limit = 0.5 * w_other + settings.corner_radius;
            if stub < limit {
                let road = &mut roads[r];
                if end == 0 {
                    road.lo = s_c;
                } else {
                    road.hi = s_c;
                }
                diags.push(Diagnostic {
                    code: DiagnosticCode::OvershootTrimmed,
                    position: nodes[stops[idx].node].pos,
                    road: Some(road.id.clone()),
                    message: format!(
                        "road {} ends {:.2} m past a crossing (less than the junction's {:.2} m): trimmed to a T",
                        road.id, stub, limit
                    ),
                });
            }
        }
    }

    // A near miss at an end that was trimmed to a crossing is no miss.
    for (r, end, d) in near_misses {
        let road = &roads[r];
        let trimmed = if end == 0 { road.lo > 0.0 } else { road.hi < road.line.length() };
        if !trimmed {
            diags.push(d);
        }
    }

    // Clusters: stops at the same place of the same road, and nodes closer than the roads are wide.
    let mut uf = UnionFind::new(nodes.len());
    for list in &by_road {
        for w in list.windows(2) {
            let (a, b) = (&stops[w[0].1], &stops[w[1].1]);
            if a.s == b.s {
                uf.union(a.node, b.node);
            }
        }
    }
    for st in &stops {
        let w = roads[st.road].width;
        if w > nodes[st.node].width {
            nodes[st.node].width = w;
        }
    }
    let max_w = nodes.iter().map(|n| n.width).fold(0.0, f64::max) + settings.merge_distance;
    // The pairs within `max_w` (squared distance at most its square, as the R-tree search by
    // distance used before decided it), among the pairs whose boxes meet ([`meeting_from`],
    // with its fallback for nodes crowded along x). A node's box reaches its own width and the
    // merge distance around it: two nodes closer than the larger of those reaches have boxes
    // that meet (their sum is larger still, by at least a road's width). The union-find's
    // result does not depend on the order of the pairs.
    let max_d2 = max_w * max_w;
    let around: Vec<Box2> = nodes
        .iter()
        .map(|n| {
            let r = n.width + settings.merge_distance;
            ([n.pos.x - r, n.pos.y - r], [n.pos.x + r, n.pos.y + r])
        })
        .collect();
    let meeting = meeting_from(&around);
    let close: Vec<Vec<usize>> = (0..meeting.len())
        .into_par_iter()
        .map(|i| {
            let n = &nodes[i];
            let near = |m: &Node| {
                let (dx, dy) = (m.pos.x - n.pos.x, m.pos.y - n.pos.y);
                dy * dy + dx * dx <= max_d2 && n.pos.dist(m.pos) < n.width.max(m.width) + settings.merge_distance
            };
            meeting.of(i).iter().copied().filter(|&j| j > i && near(&nodes[j])).collect()
        })
        .collect();
    for (i, near) in close.into_iter().enumerate() {
        for j in near {
            uf.union(i, j);
        }
    }

    // Edges: each road cut at its stops inside the kept range, road by road side by side; the
    // nodes each road's stops join, joined after, in order of the roads.
    let merge = crate::geom::COINCIDENT_SHARE * settings.tolerance;
    let cut: Vec<RoadEdges> =
        roads.par_iter().enumerate().map(|(r, road)| road_edges(r, road, &by_road[r], &stops, merge)).collect();
    let mut edges = Vec::with_capacity(cut.iter().map(|(_, e)| e.len()).sum());
    for (joins, road_edges) in cut {
        for (a, b) in joins {
            uf.union(a, b);
        }
        edges.extend(road_edges);
    }
    (Graph { roads, nodes, edges }, uf)
}

/// What [`road_edges`] gives: the pairs of nodes joined, and the edges.
type RoadEdges = (Vec<(usize, usize)>, Vec<Edge>);

/// The edges of road `r`: the road cut at its stops inside its kept range (`stops_along`, the
/// stops along it by position, each with its index in `stops`), stops closer together than
/// `merge` taken as one; and the pairs of nodes that such stops join, in order along the road.
fn road_edges(r: usize, road: &RoadLine, stops_along: &[(f64, usize)], stops: &[Stop], merge: f64) -> RoadEdges {
    let mut edges = Vec::new();
    let mut list: Vec<(f64, usize)> =
        stops_along.iter().map(|&(s, i)| (s, stops[i].node)).filter(|&(s, _)| s >= road.lo && s <= road.hi).collect();
    let len = road.line.length();
    // Stops closer together along the road than the merge distance (two crossings that are
    // one point, computed along different roads) are one stop, and their nodes one junction:
    // an edge between them would be a rounding error. Each run of stops that follow each
    // other that closely is one, at the stop whose point is lowest (x, then y): the first
    // along the road would be another stop with the road drawn the other way.
    let mut joins = Vec::new();
    let mut runs: Vec<(f64, usize)> = Vec::with_capacity(list.len());
    let mut from = 0;
    while from < list.len() {
        let mut to = from + 1;
        while to < list.len() && list[to].0 - list[to - 1].0 < merge {
            if list[to].1 != list[to - 1].1 {
                joins.push((list[to - 1].1, list[to].1));
            }
            to += 1;
        }
        let at = |k: usize| road.line.point_at(list[k].0);
        let lowest = (from..to)
            .min_by(|&a, &b| {
                let (p, q) = (at(a), at(b));
                p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y)).then(a.cmp(&b))
            })
            .unwrap_or(from);
        runs.push(list[lowest]);
        from = to;
    }
    list = runs;
    // A stop a rounding step from an open road's end is at the end: no dead end of no
    // length hangs from it.
    if !road.closed {
        if let Some(first) = list.first_mut().filter(|f| f.0 - road.lo < merge) {
            first.0 = road.lo;
        }
        if let Some(last) = list.last_mut().filter(|l| road.hi - l.0 < merge) {
            last.0 = road.hi;
        }
    }
    let mut push = |s0: f64, s1: f64, n0: Option<usize>, n1: Option<usize>| {
        if s1 > s0 {
            let line = if s1 <= len {
                Line::new(road.line.cut(s0, s1, merge))
            } else {
                let mut pts = road.line.cut(s0, len, merge);
                let rest = road.line.cut(0.0, s1 - len, merge);
                pts.extend(rest.into_iter().skip(1));
                Line::new(pts)
            };
            edges.push(Edge { road: r, s0, s1, n0, n1, line });
        }
    };
    if list.is_empty() {
        push(road.lo, road.hi, None, None);
        return (joins, edges);
    }
    if road.closed {
        for w in list.windows(2) {
            push(w[0].0, w[1].0, Some(w[0].1), Some(w[1].1));
        }
        let (first, last) = (list[0], list[list.len() - 1]);
        push(last.0, first.0 + len, Some(last.1), Some(first.1));
    } else {
        let (first, last) = (list[0], list[list.len() - 1]);
        push(road.lo, first.0, None, Some(first.1));
        for w in list.windows(2) {
            push(w[0].0, w[1].0, Some(w[0].1), Some(w[1].1));
        }
        push(last.0, road.hi, Some(last.1), None);
    }
    (joins, edges)
}

#[cfg(test)]
#[path = "proptests/crossings.rs"]
mod proptests;

#[cfg(test)]
mod tests {
    use super::*;

    /// The pairs of boxes that meet, by brute force, as [`meeting_from`] gives them.
    fn brute_from(boxes: &[Box2]) -> Vec<Vec<usize>> {
        (0..boxes.len()).map(|i| (i..boxes.len()).filter(|&j| boxes_meet(&boxes[i], &boxes[j])).collect()).collect()
    }

    /// Small boxes scattered over a square, and long strips side by side (every strip open
    /// all along the sweep).
    fn scattered_and_strips() -> (Vec<Box2>, Vec<Box2>) {
        let scattered: Vec<Box2> = (0..400)
            .map(|k| {
                let (x, y) = ((k * 37 % 101) as f64, (k * 53 % 97) as f64);
                ([x, y], [x + 3.0, y + 2.0])
            })
            .collect();
        let mut strips: Vec<Box2> = (0..1200).map(|k| ([0.0, k as f64], [1000.0, k as f64 + 0.5])).collect();
        // A box that holds nothing (inverted), which meets no box, the tree's search included.
        strips.push(([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]));
        (scattered, strips)
    }

    /// Long segments side by side would make the sweep quadratic: past its budget the R-tree
    /// answers, with the sweep's answer.
    #[test]
    fn the_sweeps_give_way_to_a_tree_with_the_same_answer() {
        let (scattered, strips) = scattered_and_strips();
        let budget = |b: &[Box2]| b.len() * SWEEP_WORK_PER_BOX;
        assert!(sweep_from(&scattered, budget(&scattered)).is_some());
        assert!(sweep_from(&strips, budget(&strips)).is_none());
        for boxes in [&scattered, &strips] {
            assert_eq!(meeting_from(boxes).rows(), brute_from(boxes));
            let all = sweep_from(boxes, usize::MAX).expect("no budget");
            assert_eq!(all.rows(), brute_from(boxes));
        }
        // Queries against boxes: the same, through the sweep of both lists or the tree.
        let queries: Vec<Box2> =
            scattered.iter().map(|&(lo, hi)| ([lo[0] + 1.0, lo[1]], [hi[0] + 1.0, hi[1]])).collect();
        for boxes in [&scattered, &strips] {
            let brute: Vec<Vec<usize>> =
                queries.iter().map(|q| (0..boxes.len()).filter(|&j| boxes_meet(q, &boxes[j])).collect()).collect();
            assert_eq!(meeting_of(&queries, boxes).rows(), brute);
            assert_eq!(sweep_of(&queries, boxes, usize::MAX).expect("no budget").rows(), brute);
        }
        assert!(sweep_of(&queries, &strips, (queries.len() + strips.len()) * SWEEP_WORK_PER_BOX).is_none());
    }

    /// Boxes of many lengths over a long band, some reaching across several stretches of the
    /// sweep, many starting at the same x.
    fn band_of_boxes(n: usize, salt: usize) -> Vec<Box2> {
        (0..n)
            .map(|k| {
                let h = (k * 2_654_435_761 + salt) % 1_000_003;
                let (x, y) = ((h % 5000) as f64 * 0.5, (h / 5000 % 200) as f64);
                let long = [0.5, 3.0, 40.0, 900.0][h % 4];
                ([x, y], [x + long, y + (h % 7) as f64])
            })
            .collect()
    }

    /// The comparisons of one sweep over `boxes` from end to end, as the sweep made them
    /// before it was cut into stretches.
    fn comparisons_of_one_sweep(boxes: &[Box2]) -> usize {
        let mut order: Vec<usize> = (0..boxes.len()).collect();
        order.sort_by(|&a, &b| boxes[a].0[0].total_cmp(&boxes[b].0[0]).then(a.cmp(&b)));
        let (mut open, mut work): (Vec<usize>, usize) = (Vec::new(), 0);
        for &i in &order {
            work += open.len();
            open.retain(|&o| !(boxes[o].1[0] < boxes[i].0[0]));
            open.push(i);
        }
        work
    }

    /// The comparisons of one sweep of `queries` against `boxes` from end to end, as
    /// [`sweep_of`] made them before it was cut into stretches.
    fn comparisons_of_one_sweep_of(queries: &[Box2], boxes: &[Box2]) -> usize {
        let mut order: Vec<(bool, usize)> = (0..queries.len()).map(|i| (false, i)).collect();
        order.extend((0..boxes.len()).map(|i| (true, i)));
        let of = |&(b, i): &(bool, usize)| if b { boxes[i] } else { queries[i] };
        order.sort_by(|a, b| of(a).0[0].total_cmp(&of(b).0[0]).then(a.cmp(b)));
        let (mut open, mut work): (Vec<(bool, usize)>, usize) = (Vec::new(), 0);
        for item in &order {
            work += open.len();
            open.retain(|o| !(of(o).1[0] < of(item).0[0]));
            open.push(*item);
        }
        work
    }

    /// A sweep cut into stretches finds the pairs an R-tree finds, and gives up at the very
    /// budget one sweep from end to end gives up at.
    #[test]
    fn stretches_swept_side_by_side_are_one_sweep() {
        let boxes = band_of_boxes(5 * SWEEP_STRETCH, 7);
        assert!(sweep_stretches(&boxes, |b| b.0[0]).len() > 1);
        let tree = box_tree(&boxes);
        let by_tree: Vec<Vec<usize>> = boxes
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let mut row: Vec<usize> =
                    tree.locate_in_envelope_intersecting(aabb(b)).map(|e| e.data).filter(|&j| j >= i).collect();
                row.sort_unstable();
                row
            })
            .collect();
        let work = comparisons_of_one_sweep(&boxes);
        assert_eq!(sweep_from(&boxes, work).expect("within the budget").rows(), by_tree);
        assert!(sweep_from(&boxes, work - 1).is_none());
        // Queries against boxes, in stretches too.
        let queries = band_of_boxes(3 * SWEEP_STRETCH, 11);
        let by_tree: Vec<Vec<usize>> = queries
            .iter()
            .map(|q| {
                let mut row: Vec<usize> = tree.locate_in_envelope_intersecting(aabb(q)).map(|e| e.data).collect();
                row.sort_unstable();
                row
            })
            .collect();
        let work = comparisons_of_one_sweep_of(&queries, &boxes);
        assert_eq!(sweep_of(&queries, &boxes, work).expect("within the budget").rows(), by_tree);
        assert!(sweep_of(&queries, &boxes, work - 1).is_none());
    }
}
