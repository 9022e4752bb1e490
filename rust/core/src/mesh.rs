//! Stage 8: meshes for every road piece, junction and block, handed to a [`MeshSink`].
//!
//! - A road piece is its polygon, following its centerline's heights: the carriageway swept
//!   along the cut centerline where the sweep's outline is the polygon's (most pieces), else
//!   the polygon triangulated, its mouth corners on the junction's vertices either way (and, for
//!   the few polygons that end elsewhere than their mouths, the sweep with curb points held
//!   where a tight bend would run them backwards). No triangle folds over another. A dead end
//!   gets a half-disc cap. `u` runs across the road (metres from the centerline, positive to
//!   the left), `v` along it (metres along the input road), so textures run on from piece to
//!   piece.
//! - A junction is its surface, constrained-Delaunay triangulated, with heights blended from
//!   its mouths (inverse square distance), exact on each mouth so that no step opens there. Its
//!   mouth vertices are the very vertices of the road pieces' ends.
//! - A block is a platform at curb height: its sidewalk band (slot `Sidewalk`) and its lots
//!   (slot `Block`) on top, a skirt down to the road along its outline (slot `Curb`: the curb
//!   face), and a bottom, so it is a closed solid. Its heights follow the nearest road. The top
//!   is one constrained Delaunay triangulation of the block with its lots' rings inside, from
//!   which the bottom (the block alone) is read off on the way; where the rings do not nest
//!   cleanly, the band, each lot and the bottom are triangulated on their own.
//!
//! Curbs and sidewalks belong to blocks: the sidewalk is the band inside a block along its curb,
//! as wide as the roads beside it say (`Block::bands`), so road and block meshes never overlap.

use rstar::primitives::{GeomWithData, Line as RLine};
use rstar::RTree;

use crate::curb::{offset_at, Side};
use crate::geom::{arc_steps, Line};
use crate::mesh_types::{FeatureKind, MaterialSlot, MeshCollector, MeshSink, MeshVertex};
use crate::triangulate::{
    triangulate, triangulate_nested, triangulate_plain, Nested, Triangulation, MIN_TRIANGLE_AREA,
};
use crate::types::{Junction, Network, Point, Point3, Polygon, RoadPiece};
use crate::Settings;

const UP: Point3 = Point3::new(0.0, 0.0, 1.0);
const DOWN: Point3 = Point3::new(0.0, 0.0, -1.0);

fn sub3(a: Point3, b: Point3) -> Point3 {
    Point3::new(a.x - b.x, a.y - b.y, a.z - b.z)
}

fn cross3(a: Point3, b: Point3) -> Point3 {
    Point3::new(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}

fn unit3(a: Point3) -> Point3 {
    let l = (a.x * a.x + a.y * a.y + a.z * a.z).sqrt();
    if l > 0.0 && l.is_finite() {
        Point3::new(a.x / l, a.y / l, a.z / l)
    } else {
        UP
    }
}

/// Area of a triangle in space.
fn area3(a: Point3, b: Point3, c: Point3) -> f64 {
    let n = cross3(sub3(b, a), sub3(c, a));
    0.5 * (n.x * n.x + n.y * n.y + n.z * n.z).sqrt()
}

/// Builds the meshes of a network, piece by piece, junction by junction, block by block (each
/// list in id order), into `sink`.
pub fn build_meshes(net: &Network, settings: &Settings, sink: &mut dyn MeshSink) {
    build_meshes_of(net, settings, &|_, _| true, sink);
}

/// Like [`build_meshes`], for the features that `wanted` picks (by kind and id) only: after an
/// incremental update, the meshes of [`crate::Changes::remesh`]. Each mesh is the one that
/// [`build_meshes`] gives for the same network.
pub fn build_meshes_of(
    net: &Network,
    settings: &Settings,
    wanted: &(dyn Fn(FeatureKind, &str) -> bool + Sync),
    sink: &mut dyn MeshSink,
) {
    let meshes = crate::in_pool_eager(|| {
        let (roads, junctions) = surface_meshes(net, settings, wanted);
        Built { roads, junctions, blocks: block_meshes(net, wanted) }
    });
    meshes.hand_over(sink);
}

/// Every feature is built on its own (in parallel), then handed to the sink in order, so the
/// sink sees the same sequence at any thread count.
fn one(f: &dyn Fn(&mut MeshCollector)) -> MeshCollector {
    let mut c = MeshCollector::default();
    f(&mut c);
    c
}

/// Meshes built, each list in id order, not yet handed to a sink.
pub(crate) struct Built {
    roads: Vec<MeshCollector>,
    junctions: Vec<MeshCollector>,
    blocks: Vec<MeshCollector>,
}

impl Built {
    /// Hands each feature's mesh over (and releases its memory) in turn, road pieces, then
    /// junctions, then blocks, so that the collected meshes and the sink's copy do not both
    /// hold every mesh at once. On the caller's thread: the sink need not be `Send`.
    pub(crate) fn hand_over(self, sink: &mut dyn MeshSink) {
        for c in self.roads.into_iter().chain(self.junctions).chain(self.blocks) {
            for m in c.meshes {
                sink.feature(m);
            }
        }
    }
}

/// Picks every feature (for the meshes of a whole network).
pub(crate) fn every_feature(_: FeatureKind, _: &str) -> bool {
    true
}

/// The road and junction meshes of [`surface_meshes`], each list in id order.
pub(crate) type SurfaceMeshes = (Vec<MeshCollector>, Vec<MeshCollector>);

/// The rest of [`build_meshes`] once `net` has its blocks and `surfaces` are built: the block
/// meshes, with the others, ready to hand over in order.
pub(crate) fn finish_meshes(net: &Network, surfaces: SurfaceMeshes) -> Built {
    finish_meshes_of(net, surfaces, &every_feature)
}

/// [`finish_meshes`] for the blocks that `wanted` picks (`surfaces` built for the same choice).
pub(crate) fn finish_meshes_of(
    net: &Network,
    surfaces: SurfaceMeshes,
    wanted: &(dyn Fn(FeatureKind, &str) -> bool + Sync),
) -> Built {
    Built { roads: surfaces.0, junctions: surfaces.1, blocks: block_meshes(net, wanted) }
}

/// The meshes of the blocks that `wanted` picks, in id order.
pub(crate) fn block_meshes(net: &Network, wanted: &(dyn Fn(FeatureKind, &str) -> bool + Sync)) -> Vec<MeshCollector> {
    use rayon::prelude::*;
    let any_block = net.blocks.iter().any(|b| wanted(FeatureKind::Block, &b.id));
    let heights = if any_block { Heights::new(net) } else { Heights::none() };
    net.blocks
        .par_iter()
        .filter(|b| wanted(FeatureKind::Block, &b.id))
        .map(|b| one(&|c| block_mesh(b, &heights, c)))
        .collect()
}

/// The meshes of the road pieces and junctions that `wanted` picks, each list in id order;
/// they do not depend on the blocks.
pub(crate) fn surface_meshes(
    net: &Network,
    settings: &Settings,
    wanted: &(dyn Fn(FeatureKind, &str) -> bool + Sync),
) -> SurfaceMeshes {
    use rayon::prelude::*;
    // As the network stage's mouth stitching: corners within the tolerance are the same.
    let snap = settings.tolerance;
    let junction_of: std::collections::BTreeMap<&str, &Junction> =
        net.junctions.iter().map(|j| (j.id.as_str(), j)).collect();
    let mut mouths: std::collections::BTreeMap<&str, Vec<Mouth>> = std::collections::BTreeMap::new();
    // Only the mouths at junctions that are built.
    let at_wanted = |j: &Option<String>| j.as_deref().is_some_and(|j| wanted(FeatureKind::Junction, j));
    for (id, right, left, z) in
        crate::curb::mouths(net.pieces.iter().filter(|p| at_wanted(&p.from) || at_wanted(&p.to)))
    {
        mouths.entry(id).or_default().push((right, left, z));
    }
    let roads: Vec<MeshCollector> = net
        .pieces
        .par_iter()
        .filter(|p| wanted(FeatureKind::Road, &p.id))
        .map(|p| {
            let ends = [p.from.as_deref(), p.to.as_deref()].map(|id| id.and_then(|id| junction_of.get(id).copied()));
            one(&|c| road_mesh(p, ends, settings, snap, c))
        })
        .collect();
    let junctions: Vec<MeshCollector> = net
        .junctions
        .par_iter()
        .filter(|j| wanted(FeatureKind::Junction, &j.id))
        .map(|j| one(&|c| junction_mesh(j, mouths.get(j.id.as_str()).map_or(&[], |m| m.as_slice()), snap, c)))
        .collect();
    (roads, junctions)
}

/// Hands one collected feature mesh to a sink, vertex by vertex and triangle by triangle.
pub(crate) fn replay<S: MeshSink + ?Sized>(m: &crate::mesh_types::FeatureMesh, sink: &mut S) {
    let Some(kind) = m.kind else { return };
    sink.begin_feature(kind, &m.id);
    sink.reserve(m.vertices.len(), m.triangles.len());
    for v in &m.vertices {
        sink.vertex(*v);
    }
    for (t, slot) in m.triangles.iter().zip(&m.slots) {
        sink.triangle(t[0], t[1], t[2], *slot);
    }
    sink.end_feature();
}

/// Emits a triangle unless it is smaller than the triangulation's minimum area.
fn tri(sink: &mut dyn MeshSink, v: &[MeshVertex], idx: [u32; 3], slot: MaterialSlot) {
    let [a, b, c] = idx.map(|i| v.get(i as usize).map(|m| m.position).unwrap_or_default());
    if area3(a, b, c) >= MIN_TRIANGLE_AREA {
        sink.triangle(idx[0], idx[1], idx[2], slot);
    }
}

/// The exact vertex of `ring` within `snap` of `p`, or `p`.
fn snap_to(p: Point, ring: &[Point], snap: f64) -> Point {
    ring.iter().copied().filter(|q| q.dist(p) <= snap).min_by(|a, b| a.dist(p).total_cmp(&b.dist(p))).unwrap_or(p)
}

/// The vertex of a junction's outline `junction` that a road piece's outline `piece` shares
/// (within `snap`, metres), that lies on the mouth segment `mouth` (within `snap`) and is
/// nearest the corner `q`, closer than `half`: where a curb folded back over the mouth
/// crosses it.
fn folded_corner(
    q: Point,
    mouth: [Point; 2],
    piece: &[Point],
    junction: &[Point],
    half: f64,
    snap: f64,
) -> Option<Point> {
    junction
        .iter()
        .copied()
        .filter(|w| w.dist(q) < half && crate::geom::project_on_segment(*w, mouth[0], mouth[1]).1 <= snap)
        .filter(|w| piece.iter().any(|v| v.dist(*w) <= snap))
        .min_by(|a, b| a.dist(q).total_cmp(&b.dist(q)))
}

/// How near (metres) a vertex of the sweep's outline must come to its polygon's to count as
/// the same: far below anything visible, far above the rounding of the two computations.
const SAME_OUTLINE: f64 = 1e-7;

/// The mesh of a road piece: its polygon, exactly, so that it meets its junctions and blocks
/// without a gap or an overlap. Most pieces are the sweep ([`swept`]) whose outline is the
/// polygon; the rest (sharp turns that the polygon bevels, bends tighter than the half-width,
/// ends whose cross-section is not the sweep's) are the polygon triangulated
/// ([`polygon_mesh`]); a closed road without a junction, or a polygon that ends elsewhere than
/// its mouths, the sweep with its curb points held where they would run backwards.
fn road_mesh(p: &RoadPiece, ends: [Option<&Junction>; 2], settings: &Settings, snap: f64, sink: &mut dyn MeshSink) {
    let line = Line::new(p.centerline.clone());
    sink.begin_feature(FeatureKind::Road, &p.id);
    let closed = p.from.is_none() && p.to.is_none() && line.pts.first() == line.pts.last();
    if line.pts.len() >= 2 {
        let (verts, tris) = match swept(p, &line, ends, settings, snap, false) {
            Ok(mesh) => mesh,
            // A closed road with no junction keeps the sweep, whose seam has its own vertices
            // for each side of `v` (a triangulated ring would spread one triangle's texture
            // over the whole length).
            Err(_) if closed => swept(p, &line, ends, settings, snap, true).unwrap_or_default(),
            Err(corners) => (polygon_len(&p.polygon) <= POLYGON_MESH_MAX_VERTICES)
                .then(|| polygon_mesh(p, &line, &corners))
                .flatten()
                .or_else(|| swept(p, &line, ends, settings, snap, true).ok())
                .unwrap_or_default(),
        };
        sink.reserve(verts.len(), tris.len());
        for v in &verts {
            sink.vertex(*v);
        }
        for t in tris {
            tri(sink, &verts, t, MaterialSlot::Carriageway);
        }
    }
    sink.end_feature();
}

/// A dead end's cap: the centerline's end, its direction and normal there, and the arc's points
/// strictly between the two corners.
type CapArc = (Point3, Point, Point, Vec<Point>);

/// An end corner of a piece: where the sweep finds it (`before`) and puts it (`after`: on a
/// mouth, the junction's own vertex), at centerline vertex `at`, and whether it is a mouth's
/// (else a dead end's).
#[derive(Clone, Copy, Debug)]
struct Corner {
    before: Point,
    after: Point,
    at: usize,
    mouth: bool,
}

/// The end corners of a piece, right then left, start then end.
type Corners = Vec<Corner>;

/// The carriageway swept along the centerline: a cross-section (right, left) at every
/// centerline vertex, its curb points the polygon's miter points, mouth corners the
/// junction's own vertices, a dead end's half-disc cap. Vertices: the cross-sections first,
/// then each cap's centre and arc. `Err` with the mouth corners when its outline would not be
/// the polygon's (a bevelled turn, a curb point that would run backwards, or any other
/// difference), unless `lenient`: then a curb point that would run backwards is held where
/// the one before it is, and of a quad whose diagonals both leave a triangle facing down only
/// the triangles facing up are kept, so that none folds over (for a piece whose polygon
/// cannot be triangulated with its mouth corners on the junction's vertices).
fn swept(
    p: &RoadPiece,
    line: &Line,
    ends: [Option<&Junction>; 2],
    settings: &Settings,
    snap: f64,
    lenient: bool,
) -> Result<(Vec<MeshVertex>, Vec<[u32; 3]>), Corners> {
    let n = line.pts.len();
    let half = 0.5 * p.width;
    let len = line.length();
    let mut exact = p.polygon.holes.is_empty();
    // Cross-sections: (right, left) curb points at every centerline vertex.
    let mut sides: Vec<[Point; 2]> = Vec::with_capacity(n);
    for i in 0..n {
        let s = line.cum[i];
        let pair = if i == 0 || i + 1 == n {
            [offset_at(line, s, half, Side::Right), offset_at(line, s, half, Side::Left)]
        } else {
            let (r, rb) = joint(line, i, half, Side::Right);
            let (l, lb) = joint(line, i, half, Side::Left);
            exact &= !rb && !lb;
            [r, l]
        };
        sides.push(pair);
    }
    // A closed road with no junction: the seam is a joint like any other vertex (its first
    // segment follows its last), as in its polygon.
    let closed_loop = p.from.is_none() && p.to.is_none() && line.pts.first() == line.pts.last();
    if closed_loop && n >= 4 {
        let mut wrapped = line.pts.clone();
        wrapped.push(line.pts[1]);
        let wl = Line::new(wrapped);
        let (r, rb) = joint(&wl, n - 1, half, Side::Right);
        let (l, lb) = joint(&wl, n - 1, half, Side::Left);
        exact &= !rb && !lb;
        sides[0] = [r, l];
        sides[n - 1] = [r, l];
    }
    // A curb point that would run backwards (the inner side of a bend tighter than the
    // half-width, or an end cross-section turned back by a short last segment).
    for i in 1..n {
        let d = line.pts[i].xy().sub(line.pts[i - 1].xy());
        exact &= (0..2).all(|k| sides[i][k].sub(sides[i - 1][k]).dot(d) > 0.0);
        if lenient && i + 1 < n {
            // Never an end, which is shared with a junction or closes a cap.
            let prev = sides[i - 1];
            for (k, q) in sides[i].iter_mut().enumerate() {
                if q.sub(prev[k]).dot(d) < 0.0 {
                    *q = prev[k];
                }
            }
        }
    }
    // The outline, as the polygon's ring runs: the right curb forward, the end cap, the left
    // curb back, the start cap.
    let caps: Vec<Option<(usize, f64)>> = (0..2)
        .map(|end| {
            let dead = ends[end].is_none() && (if end == 0 { p.from.is_none() } else { p.to.is_none() });
            (dead && !closed_loop).then(|| if end == 0 { (0, 0.0) } else { (n - 1, len) })
        })
        .collect();
    // A cap's centre, direction, normal and arc points (strictly between its two corners).
    let arc = |(i, s): (usize, f64), end: usize| -> CapArc {
        let c = line.pts[i];
        let dir = line.dir(line.segment_at(s));
        let nrm = dir.perp();
        // Counter-clockwise half turn from the right corner (end) or the left corner (start).
        let start = if end == 1 { nrm.scale(-1.0) } else { nrm };
        let a0 = start.y.atan2(start.x);
        let steps = arc_steps(half, std::f64::consts::PI, settings.tolerance);
        let pts = (1..steps)
            .map(|k| {
                let a = a0 + std::f64::consts::PI * k as f64 / steps as f64;
                Point::new(c.x + half * a.cos(), c.y + half * a.sin())
            })
            .collect();
        (c, dir, nrm, pts)
    };
    let mut arcs: [Option<CapArc>; 2] = [caps[0].map(|c| arc(c, 0)), caps[1].map(|c| arc(c, 1))];
    if closed_loop {
        // A closed road with no junction: its polygon is the ring between its two curbs (an
        // outer ring and a hole), the sweep's two sides, the seam once.
        exact &= same_points(&sides[..n - 1], &p.polygon);
    } else if exact {
        let mut ring: Vec<Point> = sides.iter().map(|s| s[0]).collect();
        if let Some(a) = &arcs[1] {
            ring.extend(&a.3);
        }
        ring.extend(sides.iter().rev().map(|s| s[1]));
        if let Some(a) = &arcs[0] {
            ring.extend(&a.3);
        }
        crate::geom::dedup_ring(&mut ring);
        let poly = &p.polygon.exterior;
        exact = ring.len() == poly.len() && ring.iter().zip(poly).all(|(a, b)| a.dist(*b) <= SAME_OUTLINE);
    }
    // Mouth corners are the junction's own vertices. Where the inner curb of a bend tighter
    // than the half-width folds back over the mouth, the piece's carriageway (and the
    // junction's outline beside it) ends where the folded curb crosses the mouth: the corner
    // is that crossing, a vertex of both, on the mouth within the half-width of the corner.
    let mut corners: Corners = Vec::new();
    for (end, j) in ends.iter().enumerate() {
        let i = if end == 0 { 0 } else { n - 1 };
        if caps[end].is_some() {
            corners.extend(sides[i].map(|q| Corner { before: q, after: q, at: i, mouth: false }));
        }
        if let Some(j) = j {
            let mouth = sides[i];
            for q in sides[i].iter_mut() {
                let snapped = snap_to(*q, &j.polygon.exterior, snap);
                let put = if snapped != *q || j.polygon.exterior.contains(q) {
                    snapped
                } else {
                    folded_corner(*q, mouth, &p.polygon.exterior, &j.polygon.exterior, half, snap).unwrap_or(*q)
                };
                corners.push(Corner { before: *q, after: put, at: i, mouth: true });
                *q = put;
            }
        }
    }
    if !exact && !lenient {
        return Err(corners);
    }
    let mut verts = Vec::with_capacity(2 * n);
    for (i, pair) in sides.iter().enumerate() {
        let c = line.pts[i];
        let normal = section_normal(line, i);
        let v = p.start + line.cum[i];
        for (k, u) in [(0, -half), (1, half)] {
            let q = pair[k];
            verts.push(MeshVertex { position: Point3::new(q.x, q.y, c.z), normal, uv: [u, v] });
        }
    }
    let mut tris = Vec::with_capacity(2 * n);
    let up = |verts: &[MeshVertex], t: [u32; 3]| {
        let [a, b, c] = t.map(|k| verts[k as usize].position);
        (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y) > 0.0
    };
    // A dead end's cap fans out from the centerline's end, which lies on the end
    // cross-section: the quad next to it takes that point as a vertex too (no T-vertex).
    let mut center = [None, None];
    for end in 0..2 {
        if let Some((i, s)) = caps[end] {
            center[end] = Some(verts.len() as u32);
            verts.push(MeshVertex { position: line.pts[i], normal: UP, uv: [0.0, p.start + s] });
        }
    }
    for i in 0..n - 1 {
        let (r0, l0, r1, l1) = (2 * i as u32, 2 * i as u32 + 1, 2 * i as u32 + 2, 2 * i as u32 + 3);
        let c0 = center[0].filter(|_| i == 0);
        let c1 = center[1].filter(|_| i + 2 == n);
        if c0.is_some() || c1.is_some() {
            // The quad with its cap centres, counter-clockwise, fanned from one of them.
            let ring: Vec<u32> = match (c0, c1) {
                (Some(c0), Some(c1)) => vec![c0, r0, r1, c1, l1, l0],
                (Some(c0), None) => vec![c0, r0, r1, l1, l0],
                (None, Some(c1)) => vec![c1, l1, l0, r0, r1],
                (None, None) => unreachable!("one of them is some"),
            };
            for k in 1..ring.len() - 1 {
                let t = [ring[0], ring[k], ring[k + 1]];
                if up(&verts, t) {
                    tris.push(t);
                } else if !lenient {
                    return Err(corners);
                }
            }
            continue;
        }
        // Of the quad's two diagonals take one whose triangles both face up.
        let (a, b) = ([r0, r1, l1], [r0, l1, l0]);
        let (c, d) = ([r0, r1, l0], [r1, l1, l0]);
        if up(&verts, a) && up(&verts, b) {
            tris.extend([a, b]);
        } else if up(&verts, c) && up(&verts, d) {
            tris.extend([c, d]);
        } else if lenient {
            tris.extend([a, b].into_iter().filter(|t| up(&verts, *t)));
        } else {
            return Err(corners);
        }
    }
    // Dead ends: a half-disc cap beyond the last cross-section.
    for end in 0..2 {
        let (Some((i, s)), Some(center), Some((c, dir, nrm, pts))) = (caps[end], center[end], arcs[end].take()) else {
            continue;
        };
        let first = if end == 1 { 2 * i as u32 } else { 2 * i as u32 + 1 };
        let last = if end == 1 { 2 * i as u32 + 1 } else { 2 * i as u32 };
        let mut prev = first;
        for q in pts {
            let rel = q.sub(c.xy());
            let uv = [rel.dot(nrm), p.start + s + rel.dot(dir)];
            let vi = verts.len() as u32;
            verts.push(MeshVertex { position: Point3::new(q.x, q.y, c.z), normal: UP, uv });
            tris.push([center, prev, vi]);
            prev = vi;
        }
        tris.push([center, prev, last]);
    }
    Ok((verts, tris))
}

/// Most vertices a piece's polygon may have to be triangulated ([`polygon_mesh`]); a larger
/// one (a spline flattened into very many points, a road thousands of kilometres long) keeps
/// the held sweep, whose work grows only linearly with its vertices (found by fuzzing the C ABI: a
/// piece whose triangulation ran for minutes).
const POLYGON_MESH_MAX_VERTICES: usize = 1 << 14;

/// The number of vertices of a polygon, all rings.
fn polygon_len(p: &Polygon) -> usize {
    p.exterior.len() + p.holes.iter().map(Vec::len).sum::<usize>()
}

/// How much of its area (share) a piece's triangulated carriageway may gain or lose when its
/// mouth corners are moved onto the junction's vertices, beyond the width times the distance
/// moved; past it the piece keeps the held sweep ([`polygon_mesh`] gives none).
const CORNER_MOVE_AREA: f64 = 1e-9;

/// Most points [`same_points`] compares one by one.
const SAME_POINTS_MAX: usize = 4096;

/// Whether the curb points of `sides` are the vertices of `poly` (each within
/// [`SAME_OUTLINE`] of one, as many of each), for a closed road's sweep. `false` beyond
/// [`SAME_POINTS_MAX`] points (the road keeps the held sweep then).
fn same_points(sides: &[[Point; 2]], poly: &Polygon) -> bool {
    let ours: Vec<Point> = sides.iter().flatten().copied().collect();
    let theirs: Vec<Point> = std::iter::once(&poly.exterior).chain(poly.holes.iter()).flatten().copied().collect();
    ours.len() == theirs.len()
        && ours.len() <= SAME_POINTS_MAX
        && ours.iter().all(|q| theirs.iter().any(|t| t.dist(*q) <= SAME_OUTLINE))
        && theirs.iter().all(|t| ours.iter().any(|q| q.dist(*t) <= SAME_OUTLINE))
}

/// The normal of the cross-section at centerline vertex `i`: square to the road's slope there
/// and level across it.
fn section_normal(line: &Line, i: usize) -> Point3 {
    let n = line.pts.len();
    let t = unit3(sub3(line.pts[(i + 1).min(n - 1)], line.pts[i.saturating_sub(1)]));
    let lat = line.dir(i.min(n - 2)).perp();
    unit3(cross3(t, Point3::new(lat.x, lat.y, 0.0)))
}

/// The carriageway as its polygon triangulated (without Steiner points), the mouth corners
/// put where the sweep puts them (`corners`: the junction's own vertices). Each vertex takes
/// its height, normal and `v` from its nearest point on the centerline (`v` running on past
/// an end, as on a cap), `u` its signed distance from it (positive to the left); a mouth
/// corner has exactly the height and `v` of the centerline's end. `None` when moving the
/// corners changes the carriageway by more than it moves them (a polygon that ends elsewhere
/// than its mouths: the junction's outline was stitched to the sweep's corners).
fn polygon_mesh(p: &RoadPiece, line: &Line, corners: &Corners) -> Option<(Vec<MeshVertex>, Vec<[u32; 3]>)> {
    let mut poly = p.polygon.clone();
    let mut corner_at: Vec<(Point, usize)> = Vec::new();
    let mut used: Vec<usize> = Vec::new();
    let mut moved = 0.0;
    let mut placed = 0;
    let n = line.pts.len();
    let half = 0.5 * p.width;
    for c in corners {
        // The polygon's corner is its vertex nearest the sweep's (a mouth on a centerline
        // vertex is square to the next segment of the input road there, not the piece's last);
        // a dead end's is the sweep's.
        let reach = if c.mouth { half } else { SAME_OUTLINE };
        let nearest = (0..poly.exterior.len())
            .filter(|k| !used.contains(k))
            .map(|k| (poly.exterior[k].dist(c.before), k))
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .filter(|(d, _)| *d <= reach);
        if let Some((_, k)) = nearest {
            moved += poly.exterior[k].dist(c.after);
            poly.exterior[k] = c.after;
            used.push(k);
            corner_at.push((c.after, c.at));
            placed += usize::from(c.mouth);
        }
    }
    let t = triangulate_plain(&poly);
    // Moving the corners must leave the carriageway as it was, up to the move; where it does
    // not (a piece whose polygon is not the road's cross-section swept, mouths all but on top
    // of each other), the piece keeps the held sweep.
    let area = |t: &Triangulation| -> f64 {
        t.triangles.iter().map(|tr| crate::geom::ring_area(&tr.map(|k| t.vertices[k as usize]))).sum()
    };
    let whole = crate::validate::polygon_area(&p.polygon);
    // Every mouth corner on a vertex of its own and in a triangle kept (beside curb vertices a
    // millimetre from it, property seed 895, none was), the area kept, and something to show.
    let kept = |q: Point| t.triangles.iter().flatten().any(|&k| t.vertices.get(k as usize) == Some(&q));
    if t.triangles.is_empty()
        || placed < corners.iter().filter(|c| c.mouth).count()
        || !corner_at.iter().all(|&(q, _)| kept(q))
        || !((area(&t) - whole).abs() <= CORNER_MOVE_AREA * whole.abs() + moved * p.width)
    {
        return None;
    }
    let segs: Vec<GeomWithData<RLine<[f64; 2]>, usize>> = (0..n - 1)
        .map(|k| {
            GeomWithData::new(RLine::new([line.pts[k].x, line.pts[k].y], [line.pts[k + 1].x, line.pts[k + 1].y]), k)
        })
        .collect();
    let tree = RTree::bulk_load(segs);
    let verts = t
        .vertices
        .iter()
        .map(|&q| {
            let k = nearest(&tree, q).map_or(0, |g| g.data);
            let (a, b) = (line.pts[k], line.pts[k + 1]);
            let d = b.xy().sub(a.xy());
            let l2 = d.dot(d);
            let raw = if l2 > 0.0 { q.sub(a.xy()).dot(d) / l2 } else { 0.0 };
            // Past the first or last vertex `v` runs on (a cap); elsewhere the foot is on the
            // segment.
            let tt = if (k == 0 && raw < 0.0) || (k + 2 == n && raw > 1.0) { raw } else { raw.clamp(0.0, 1.0) };
            let z = a.z + tt.clamp(0.0, 1.0) * (b.z - a.z);
            let foot = a.xy().add(d.scale(tt));
            let len = l2.sqrt();
            let u = if len > 0.0 { q.sub(foot).dot(d.scale(1.0 / len).perp()) } else { 0.0 };
            let v = p.start + line.cum[k] + tt * len;
            let normal = section_normal(line, if tt > 0.5 { k + 1 } else { k });
            match corner_at.iter().find(|c| c.0 == q) {
                Some(&(_, i)) => MeshVertex {
                    position: Point3::new(q.x, q.y, line.pts[i].z),
                    normal: section_normal(line, i),
                    uv: [u, p.start + line.cum[i]],
                },
                None => MeshVertex { position: Point3::new(q.x, q.y, z), normal, uv: [u, v] },
            }
        })
        .collect();
    Some((verts, t.triangles))
}

/// The segment of `tree` nearest `q` (the first of several as near), by rstar's
/// nearest-neighbour iterator, which visits the boxes in order of their distance. Its
/// single-answer search (`nearest_neighbor`, which prunes more) can give a segment that is not
/// the nearest: for a corner of a dead end's cap it gave one 38 m away where one lay 3.06 m
/// away, and the cap's texture ran from the wrong part of the road (property seed 769).
fn nearest<T>(tree: &RTree<GeomWithData<RLine<[f64; 2]>, T>>, q: Point) -> Option<&GeomWithData<RLine<[f64; 2]>, T>> {
    tree.nearest_neighbor_iter([q.x, q.y]).next()
}

fn sink_vertex(
    sink: &mut dyn MeshSink,
    verts: &mut Vec<MeshVertex>,
    position: Point3,
    normal: Point3,
    uv: [f64; 2],
) -> u32 {
    let v = MeshVertex { position, normal, uv };
    verts.push(v);
    sink.vertex(v)
}

/// The curb point of interior vertex `i`: the miter point, or the middle of a bevel (and
/// whether it is one).
fn joint(line: &Line, i: usize, half: f64, side: Side) -> (Point, bool) {
    let mut pts = Vec::with_capacity(2);
    let s = line.cum[i];
    // `inner_vertices` gives the joint of every vertex strictly inside the range.
    let lo = if i > 0 { line.cum[i - 1] } else { s };
    let hi = line.cum.get(i + 1).copied().unwrap_or(s);
    let (s0, s1) = (0.5 * (lo + s), 0.5 * (s + hi));
    let n = line.pts.len();
    if line.length().is_finite() {
        // Arc lengths never decrease, so the interior vertices strictly inside (s0, s1) are one
        // run `j0..j1`: hand `inner_vertices` only that run and its two neighbours (all of
        // whose interior vertices it then takes), not the whole line, which made a piece's
        // mesh quadratic in its vertex count (found by fuzzing: a 30,000 km spline).
        let j0 = line.cum.partition_point(|&c| c <= s0).max(1);
        let j1 = line.cum.partition_point(|&c| c < s1).min(n.saturating_sub(1));
        if j0 < j1 {
            let run = Line::new(line.pts[j0 - 1..=j1].to_vec());
            crate::curb::inner_vertices(&run, f64::NEG_INFINITY, f64::INFINITY, half, side, &mut pts);
        }
    } else {
        crate::curb::inner_vertices(line, s0, s1, half, side, &mut pts);
    }
    match pts.len() {
        0 => (offset_at(line, s, half, side), false),
        1 => (pts[0], false),
        _ => (pts[0].lerp(pts[pts.len() - 1], 0.5), true),
    }
}

/// A junction's mouth: the segment between its two corners, and the road's height there.
type Mouth = (Point, Point, f64);

fn junction_mesh(j: &Junction, ms: &[Mouth], snap: f64, sink: &mut dyn MeshSink) {
    sink.begin_feature(FeatureKind::Junction, &j.id);
    let t = triangulate(&j.polygon);
    let height = |q: Point| -> f64 {
        let (mut wsum, mut zsum) = (0.0, 0.0);
        for &(a, b, z) in ms {
            let (_, d) = crate::geom::project_on_segment(q, a, b);
            if d <= snap {
                return z;
            }
            let w = 1.0 / (d * d);
            wsum += w;
            zsum += w * z;
        }
        if wsum > 0.0 {
            zsum / wsum
        } else {
            0.0
        }
    };
    let pos: Vec<Point3> = t.vertices.iter().map(|q| Point3::new(q.x, q.y, height(*q))).collect();
    let normals = smooth_normals(&pos, &t.triangles);
    sink.reserve(pos.len(), t.triangles.len());
    let mut verts = Vec::with_capacity(pos.len());
    for (q, nrm) in pos.iter().zip(&normals) {
        let v = MeshVertex { position: *q, normal: *nrm, uv: [q.x, q.y] };
        verts.push(v);
        sink.vertex(v);
    }
    for tr in &t.triangles {
        tri(sink, &verts, *tr, MaterialSlot::Junction);
    }
    sink.end_feature();
}

/// Edges of a mesh not matched by the same edge the other way (by position): 0 for a closed
/// surface.
#[cfg(test)]
pub(crate) fn open_edges(m: &crate::mesh_types::FeatureMesh) -> usize {
    let key = |i: u32| {
        let q = m.vertices[i as usize].position;
        [q.x.to_bits(), q.y.to_bits(), q.z.to_bits()]
    };
    let mut edges: std::collections::BTreeMap<_, i64> = std::collections::BTreeMap::new();
    for t in &m.triangles {
        for e in 0..3 {
            let (a, c) = (key(t[e]), key(t[(e + 1) % 3]));
            *edges.entry(if a < c { (a, c) } else { (c, a) }).or_default() += if a < c { 1 } else { -1 };
        }
    }
    edges.values().filter(|&&n| n != 0).count()
}

/// Smooth unit normals of a surface: at each vertex the area-weighted mean of the normals of
/// the triangles around it (up where it has none or they cancel).
fn smooth_normals(pos: &[Point3], triangles: &[[u32; 3]]) -> Vec<Point3> {
    let mut normals = vec![Point3::default(); pos.len()];
    for tr in triangles {
        let [a, b, c] = tr.map(|i| pos.get(i as usize).copied().unwrap_or_default());
        let nf = cross3(sub3(b, a), sub3(c, a));
        for &i in tr {
            if let Some(n) = normals.get_mut(i as usize) {
                *n = Point3::new(n.x + nf.x, n.y + nf.y, n.z + nf.z);
            }
        }
    }
    normals.into_iter().map(unit3).collect()
}

/// Road heights near any point: the height of the nearest road-piece centerline.
/// A centerline segment with the heights at its two ends.
type HeightSeg = GeomWithData<RLine<[f64; 2]>, (f64, f64)>;

struct Heights {
    tree: RTree<HeightSeg>,
    /// The one height of every road, when they all have the same (a flat network).
    flat: Option<f64>,
}

impl Heights {
    fn new(net: &Network) -> Self {
        let first = net.pieces.iter().flat_map(|p| p.centerline.iter()).map(|c| c.z).next().unwrap_or(0.0);
        let flat = net.pieces.iter().flat_map(|p| p.centerline.iter()).all(|c| c.z == first).then_some(first);
        if flat.is_some() {
            // One height everywhere: no tree to ask.
            return Self { tree: RTree::new(), flat };
        }
        let mut segs = Vec::new();
        for p in &net.pieces {
            for w in p.centerline.windows(2) {
                segs.push(GeomWithData::new(RLine::new([w[0].x, w[0].y], [w[1].x, w[1].y]), (w[0].z, w[1].z)));
            }
        }
        Self { tree: RTree::bulk_load(segs), flat }
    }

    /// No heights (for a call that builds no block).
    fn none() -> Self {
        Self { tree: RTree::new(), flat: Some(0.0) }
    }

    fn at(&self, q: Point) -> f64 {
        if let Some(z) = self.flat {
            return z;
        }
        match nearest(&self.tree, q) {
            Some(seg) => {
                let (a, b) = (seg.geom().from, seg.geom().to);
                let (t, _) = crate::geom::project_on_segment(q, Point::new(a[0], a[1]), Point::new(b[0], b[1]));
                seg.data.0 + (seg.data.1 - seg.data.0) * t
            }
            None => 0.0,
        }
    }
}

fn block_mesh(b: &crate::types::Block, heights: &Heights, sink: &mut dyn MeshSink) {
    sink.begin_feature(FeatureKind::Block, &b.id);
    let h = b.profile.curb_height;
    let mut verts: Vec<MeshVertex> = Vec::new();
    // The top: the sidewalk band (the block minus its lots) and the lots, at curb height.
    let BlockTop { surfaces: top, bottom } = block_top(b);
    let bottom = bottom.unwrap_or_else(|| triangulate_plain(&b.polygon));
    // Room for it all at once: the top's, four vertices and two triangles per skirt edge, the
    // bottom's.
    let edges: usize = std::iter::once(&b.polygon.exterior).chain(b.polygon.holes.iter()).map(Vec::len).sum();
    let vertices = top.iter().map(|(t, _)| t.vertices.len()).sum::<usize>() + 4 * edges + bottom.vertices.len();
    let triangles = top.iter().map(|(t, _)| t.triangles.len()).sum::<usize>() + 2 * edges + bottom.triangles.len();
    verts.reserve(vertices);
    sink.reserve(vertices, triangles);
    for (t, slots) in &top {
        let base = verts.len() as u32;
        // Smooth across the top, following the road's heights (up where the block is level).
        let pos: Vec<Point3> = t.vertices.iter().map(|q| Point3::new(q.x, q.y, heights.at(*q) + h)).collect();
        for (q, normal) in pos.iter().zip(smooth_normals(&pos, &t.triangles)) {
            sink_vertex(sink, &mut verts, *q, normal, [q.x, q.y]);
        }
        for (tr, slot) in t.triangles.iter().zip(slots) {
            tri(sink, &verts, tr.map(|i| base + i), *slot);
        }
    }
    // The skirt: the curb face along every ring of the outline, facing out of the block.
    for ring in std::iter::once(&b.polygon.exterior).chain(b.polygon.holes.iter()) {
        let m = ring.len();
        let mut along = 0.0;
        for i in 0..m {
            let (a, c) = (ring[i], ring[(i + 1) % m]);
            let d = c.sub(a);
            let out = Point3::new(d.y, -d.x, 0.0);
            let normal = unit3(out);
            let (za, zc) = (heights.at(a), heights.at(c));
            let l = d.len();
            let ab = sink_vertex(sink, &mut verts, Point3::new(a.x, a.y, za), normal, [along, 0.0]);
            let cb = sink_vertex(sink, &mut verts, Point3::new(c.x, c.y, zc), normal, [along + l, 0.0]);
            let ct = sink_vertex(sink, &mut verts, Point3::new(c.x, c.y, zc + h), normal, [along + l, h]);
            let at = sink_vertex(sink, &mut verts, Point3::new(a.x, a.y, za + h), normal, [along, h]);
            tri(sink, &verts, [ab, cb, ct], MaterialSlot::Curb);
            tri(sink, &verts, [ab, ct, at], MaterialSlot::Curb);
            along += l;
        }
    }
    // The bottom, at road level, facing down: the platform is a closed solid. The block's own
    // triangulation, not the top's triangles turned over: those hold the lots' rings too, about
    // twice as many triangles.
    let base = verts.len() as u32;
    for q in &bottom.vertices {
        sink_vertex(sink, &mut verts, Point3::new(q.x, q.y, heights.at(*q)), DOWN, [q.x, q.y]);
    }
    for tr in &bottom.triangles {
        tri(sink, &verts, [base + tr[0], base + tr[2], base + tr[1]], MaterialSlot::Curb);
    }
    sink.end_feature();
}

/// A triangulated surface with the material slot of each triangle.
type Surface = (Triangulation, Vec<MaterialSlot>);

/// The triangulations of a block's platform that [`block_top`] gives.
struct BlockTop {
    /// The top's surfaces, each at curb height: the sidewalk band's triangles (slot `Sidewalk`)
    /// before the lots' (slot `Block`).
    surfaces: Vec<Surface>,
    /// The block's outline on its own (for the bottom), when it came with the top.
    bottom: Option<Triangulation>,
}

/// The top of a block: one constrained triangulation of the block with its lots' rings inside
/// ([`triangulate_nested`]), which also gives the block alone for the bottom; where the rings
/// do not nest cleanly (a lot that is the whole block, a lot ring along or on the block's), the
/// band and each lot triangulated on their own ([`block_top_apart`]) and no bottom.
///
/// A triangle too small to keep leaves the top open (three ring vertices nearly on one line,
/// at the tip of a lot a few centimetres wide): the lot vertex nearest the line through the
/// other two is taken out of the top's copy of the lot ring, and the top triangulated again,
/// at most [`MAX_LOT_VERTICES_TAKEN_OUT`] times. The lot keeps its outline; the top's edge
/// there moves by at most [`LOT_VERTEX_MAX_SHIFT`].
fn block_top(b: &crate::types::Block) -> BlockTop {
    let mut lots = std::borrow::Cow::Borrowed(&b.lots);
    let mut nested = triangulate_nested(&b.polygon, &lots);
    for _ in 0..MAX_LOT_VERTICES_TAKEN_OUT {
        let Some(fewer) = nested.as_ref().and_then(|n| n.small).and_then(|tri| without_lot_vertex(&lots, tri)) else {
            break;
        };
        let again = triangulate_nested(&b.polygon, &fewer);
        if again.is_none() {
            break;
        }
        (lots, nested) = (std::borrow::Cow::Owned(fewer), again);
    }
    let Some(Nested { all: mut t, in_inner, outer, .. }) = nested else {
        return BlockTop { surfaces: block_top_apart(b), bottom: None };
    };
    let (lots, band): (Vec<_>, Vec<_>) = t.triangles.iter().zip(&in_inner).partition(|(_, &lot)| lot);
    let slots = std::iter::repeat_n(MaterialSlot::Sidewalk, band.len())
        .chain(std::iter::repeat_n(MaterialSlot::Block, lots.len()))
        .collect();
    t.triangles = band.into_iter().chain(lots).map(|(tr, _)| *tr).collect();
    BlockTop { surfaces: vec![(t, slots)], bottom: Some(outer) }
}

/// Most lot vertices [`block_top`] takes out of a block's top (a guard on the work: one
/// triangulation of the top per vertex).
const MAX_LOT_VERTICES_TAKEN_OUT: usize = 8;

/// Farthest a lot vertex that [`block_top`] takes out of the top may lie from the segment
/// between its neighbours on the ring (metres): the top's edge between the sidewalk band and
/// the lot moves by that much at most.
const LOT_VERTEX_MAX_SHIFT: f64 = 0.01;

/// `lots` without the vertex among the corners of `tri` that lies nearest the line through the
/// other two, when it is a vertex of a lot ring that keeps at least three vertices, lies within
/// [`LOT_VERTEX_MAX_SHIFT`] of the segment between its neighbours, and the lot stays valid
/// without it; `None` otherwise.
fn without_lot_vertex(lots: &[Polygon], tri: [Point; 3]) -> Option<Vec<Polygon>> {
    let height = |k: usize| {
        let (a, b, c) = (tri[(k + 1) % 3], tri[(k + 2) % 3], tri[k]);
        crate::geom::project_on_segment(c, a, b).1
    };
    let k = (0..3).min_by(|&i, &j| height(i).total_cmp(&height(j)))?;
    let q = tri[k];
    let mut out = lots.to_vec();
    for lot in &mut out {
        for ring in std::iter::once(&mut lot.exterior).chain(lot.holes.iter_mut()) {
            let Some(i) = ring.iter().position(|p| *p == q) else { continue };
            let n = ring.len();
            if n <= 3 {
                return None;
            }
            // The top's edge moves from q to the segment between its neighbours on the ring.
            let (before, after) = (ring[(i + n - 1) % n], ring[(i + 1) % n]);
            if crate::geom::project_on_segment(q, before, after).1 > LOT_VERTEX_MAX_SHIFT {
                return None;
            }
            ring.remove(i);
            return crate::validate::check_polygon(lot).is_ok().then_some(out);
        }
    }
    None
}

/// The top of a block with the sidewalk band (its parts from [`band_polygons`]) and each lot
/// triangulated on their own.
fn block_top_apart(b: &crate::types::Block) -> Vec<Surface> {
    let band = band_polygons(b);
    let surfaces =
        band.iter().map(|p| (p, MaterialSlot::Sidewalk)).chain(b.lots.iter().map(|p| (p, MaterialSlot::Block)));
    surfaces
        .map(|(poly, slot)| {
            let t = triangulate_plain(poly);
            let slots = vec![slot; t.triangles.len()];
            (t, slots)
        })
        .collect()
}

/// The sidewalk band of a block: the block minus its lots, built from the very rings of the
/// block and its lots (no boolean operation, which would move vertices), so that the top, the
/// skirt and the bottom share every vertex.
fn band_polygons(b: &crate::types::Block) -> Vec<Polygon> {
    if b.lots.is_empty() {
        return vec![b.polygon.clone()];
    }
    // A sidewalk band of width 0: the lot is the whole block, and there is no band.
    if b.lots.contains(&b.polygon) {
        return Vec::new();
    }
    let inside =
        |ring: &[Point], hole: &[Point]| hole.first().is_some_and(|q| crate::validate::point_in_ring(*q, ring));
    let reversed = |r: &Vec<Point>| -> Vec<Point> { r.iter().rev().copied().collect() };
    let lot_holes: Vec<&Vec<Point>> = b.lots.iter().flat_map(|l| l.holes.iter()).collect();
    // Between the block's outline and the lots' outlines.
    let mut outer =
        Polygon { exterior: b.polygon.exterior.clone(), holes: b.lots.iter().map(|l| reversed(&l.exterior)).collect() };
    outer.holes.extend(b.polygon.holes.iter().filter(|h| !lot_holes.iter().any(|lh| inside(lh, h))).cloned());
    let mut out = vec![outer];
    // Inside each hole of a lot, around the block's holes there.
    for lh in lot_holes {
        out.push(Polygon {
            exterior: reversed(lh),
            holes: b.polygon.holes.iter().filter(|h| inside(lh, h)).cloned().collect(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Block;

    fn p(x: f64, y: f64) -> Point {
        Point::new(x, y)
    }

    fn poly(exterior: Vec<Point>, holes: Vec<Vec<Point>>) -> Polygon {
        Polygon { exterior, holes }
    }

    fn square(x0: f64, y0: f64, side: f64) -> Vec<Point> {
        vec![p(x0, y0), p(x0 + side, y0), p(x0 + side, y0 + side), p(x0, y0 + side)]
    }

    fn reversed(r: Vec<Point>) -> Vec<Point> {
        r.into_iter().rev().collect()
    }

    fn block(polygon: Polygon, lots: Vec<Polygon>) -> Block {
        let area = crate::validate::polygon_area(&polygon);
        Block { id: "b".to_string(), polygon, area, profile: crate::Profile::default(), bands: Vec::new(), lots }
    }

    /// The block's platform mesh.
    fn platform(b: &Block) -> crate::mesh_types::FeatureMesh {
        let mut c = MeshCollector::default();
        block_mesh(b, &Heights::none(), &mut c);
        c.meshes.into_iter().next().unwrap()
    }

    /// Area of the platform's triangles in `slot`.
    fn slot_area(m: &crate::mesh_types::FeatureMesh, slot: MaterialSlot) -> f64 {
        let at = |i: u32| m.vertices[i as usize].position;
        m.triangles
            .iter()
            .zip(&m.slots)
            .filter(|(_, &s)| s == slot)
            .map(|(t, _)| area3(at(t[0]), at(t[1]), at(t[2])))
            .sum()
    }

    #[test]
    fn nested_top_has_the_parts_of_the_separate_triangulations() {
        let blocks = [
            block(poly(square(0.0, 0.0, 10.0), vec![]), vec![poly(square(2.0, 2.0, 6.0), vec![])]),
            // A hole of the block in the band.
            block(
                poly(
                    vec![p(0.0, 0.0), p(30.0, 0.0), p(30.0, 10.0), p(0.0, 10.0)],
                    vec![reversed(square(22.0, 4.0, 2.0))],
                ),
                vec![poly(vec![p(2.0, 2.0), p(18.0, 2.0), p(18.0, 8.0), p(2.0, 8.0)], vec![])],
            ),
            // A hole of the block in a lot's hole.
            block(
                poly(square(0.0, 0.0, 20.0), vec![reversed(square(8.0, 8.0, 4.0))]),
                vec![poly(square(2.0, 2.0, 16.0), vec![reversed(square(6.0, 6.0, 8.0))])],
            ),
            // No lots.
            block(poly(square(0.0, 0.0, 10.0), vec![]), vec![]),
        ];
        for b in &blocks {
            let top = block_top(b);
            assert_eq!(top.surfaces.len(), 1, "one triangulation for the whole top");
            assert_eq!(top.bottom, Some(triangulate_plain(&b.polygon)));
            let m = platform(b);
            assert_eq!(open_edges(&m), 0);
            // The same parts as the band and each lot triangulated on their own.
            let mut apart = MeshCollector::default();
            apart.begin_feature(FeatureKind::Block, &b.id);
            let mut verts = Vec::new();
            for (t, slots) in block_top_apart(b) {
                let base = verts.len() as u32;
                for q in &t.vertices {
                    sink_vertex(&mut apart, &mut verts, Point3::new(q.x, q.y, b.profile.curb_height), UP, [q.x, q.y]);
                }
                for (tr, slot) in t.triangles.iter().zip(slots) {
                    tri(&mut apart, &verts, tr.map(|i| base + i), slot);
                }
            }
            let apart = &apart.meshes[0];
            for slot in [MaterialSlot::Sidewalk, MaterialSlot::Block] {
                assert_eq!(slot_area(&m, slot), slot_area(apart, slot), "{slot:?}");
                let count = |m: &crate::mesh_types::FeatureMesh| m.slots.iter().filter(|&&s| s == slot).count();
                assert_eq!(count(&m), count(apart), "{slot:?}");
            }
        }
    }

    #[test]
    fn rings_that_do_not_nest_give_the_separate_triangulations() {
        let outline = poly(square(0.0, 0.0, 10.0), vec![]);
        let cases = [
            // A sidewalk band of 0: the lot is the block.
            vec![outline.clone()],
            // A lot vertex on the block's edge.
            vec![poly(vec![p(5.0, 0.0), p(8.0, 3.0), p(2.0, 3.0)], vec![])],
            // A lot along the block's edge.
            vec![poly(vec![p(0.0, 0.0), p(10.0, 0.0), p(10.0, 4.0), p(0.0, 4.0)], vec![])],
        ];
        for lots in cases {
            let b = block(outline.clone(), lots);
            let top = block_top(&b);
            assert_eq!(top.bottom, None);
            assert_eq!(top.surfaces, block_top_apart(&b));
            // Built without a panic.
            assert!(!platform(&b).triangles.is_empty());
        }
    }

    /// With a sidewalk band of 0 the lot is the whole block: the top is the lot alone (no band
    /// under it), and the platform is closed.
    #[test]
    fn lot_that_is_the_whole_block_leaves_no_band() {
        let outline = poly(square(0.0, 0.0, 10.0), vec![reversed(square(4.0, 4.0, 2.0))]);
        let m = platform(&block(outline.clone(), vec![outline]));
        assert_eq!(slot_area(&m, MaterialSlot::Sidewalk), 0.0);
        assert!((slot_area(&m, MaterialSlot::Block) - 96.0).abs() < 1e-9);
        assert_eq!(open_edges(&m), 0);
    }
}
