//! Stage 8: meshes for every road piece, junction and block, handed to a [`MeshSink`].
//!
//! - A road piece is its carriageway swept along the cut centerline, following its heights; on
//!   the inner side of a bend tighter than the half-width the curb line would run backwards,
//!   and is held still instead, so triangles never fold over each other. A dead end gets a
//!   half-disc cap. `u` runs across the road (metres from the centerline, positive to the left),
//!   `v` along it (metres along the input road), so textures run on from piece to piece.
//! - A junction is its surface, constrained-Delaunay triangulated, with heights blended from
//!   its mouths (inverse square distance), exact on each mouth so that no step opens there. Its
//!   mouth vertices are the very vertices of the road pieces' ends.
//! - A block is a platform at curb height: its sidewalk band (slot `Sidewalk`) and its lots
//!   (slot `Block`) on top, a skirt down to the road along its outline (slot `Curb`: the curb
//!   face), and a bottom, so it is a closed solid. Its heights follow the nearest road.
//!
//! Curbs and sidewalks belong to blocks: the sidewalk is the band inside a block along its curb,
//! as the block's profile says, so road and block meshes never overlap.

use rstar::primitives::{GeomWithData, Line as RLine};
use rstar::RTree;

use crate::curb::{offset_at, Side};
use crate::geom::{arc_steps, Line};
use crate::mesh_types::{FeatureKind, MaterialSlot, MeshCollector, MeshSink, MeshVertex};
use crate::triangulate::{triangulate, triangulate_plain, MIN_TRIANGLE_AREA};
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
    let any_block = net.blocks.iter().any(|b| wanted(FeatureKind::Block, &b.id));
    let heights = if any_block { Heights::new(net) } else { Heights::none() };
    // Every feature is built on its own (in parallel), then handed to the sink in order, so the
    // sink sees the same sequence at any thread count.
    let one = |f: &dyn Fn(&mut MeshCollector)| {
        let mut c = MeshCollector::default();
        f(&mut c);
        c
    };
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
    let blocks: Vec<MeshCollector> = net
        .blocks
        .par_iter()
        .filter(|b| wanted(FeatureKind::Block, &b.id))
        .map(|b| one(&|c| block_mesh(b, &heights, c)))
        .collect();
    // Each feature's mesh is handed over (and its memory released) in turn, so that the
    // collected meshes and the sink's copy do not both hold every mesh at once.
    for c in roads.into_iter().chain(junctions).chain(blocks) {
        for m in c.meshes {
            sink.feature(m);
        }
    }
}

/// Hands one collected feature mesh to a sink, vertex by vertex and triangle by triangle.
pub(crate) fn replay<S: MeshSink + ?Sized>(m: &crate::mesh_types::FeatureMesh, sink: &mut S) {
    let Some(kind) = m.kind else { return };
    sink.begin_feature(kind, &m.id);
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

fn road_mesh(p: &RoadPiece, ends: [Option<&Junction>; 2], settings: &Settings, snap: f64, sink: &mut dyn MeshSink) {
    let line = Line::new(p.centerline.clone());
    let n = line.pts.len();
    sink.begin_feature(FeatureKind::Road, &p.id);
    if n < 2 {
        sink.end_feature();
        return;
    }
    let half = 0.5 * p.width;
    let len = line.length();
    // Cross-sections: (right, left) curb points at every centerline vertex.
    let mut sides: Vec<[Point; 2]> = Vec::with_capacity(n);
    for i in 0..n {
        let s = line.cum[i];
        let pair = if i == 0 || i + 1 == n {
            [offset_at(&line, s, half, Side::Right), offset_at(&line, s, half, Side::Left)]
        } else {
            [joint(&line, i, half, Side::Right), joint(&line, i, half, Side::Left)]
        };
        sides.push(pair);
    }
    // The inner side of a bend tighter than the half-width would run backwards: hold it (but
    // never move an end, which is shared with a junction or closes a cap).
    for i in 1..n.saturating_sub(1) {
        let d = line.pts[i].xy().sub(line.pts[i - 1].xy());
        let prev = sides[i - 1];
        for (k, q) in sides[i].iter_mut().enumerate() {
            if q.sub(prev[k]).dot(d) < 0.0 {
                *q = prev[k];
            }
        }
    }
    // Mouth corners are the junction's own vertices. Where the inner curb of a bend tighter
    // than the half-width folds back over the mouth, the piece's carriageway (and the
    // junction's outline beside it) ends where the folded curb crosses the mouth: the corner
    // is that crossing, a vertex of both, on the mouth within the half-width of the corner.
    for (end, j) in ends.iter().enumerate() {
        if let Some(j) = j {
            let i = if end == 0 { 0 } else { n - 1 };
            let mouth = sides[i];
            for q in sides[i].iter_mut() {
                let snapped = snap_to(*q, &j.polygon.exterior, snap);
                *q = if snapped != *q || j.polygon.exterior.contains(q) {
                    snapped
                } else {
                    folded_corner(*q, mouth, &p.polygon.exterior, &j.polygon.exterior, half, snap).unwrap_or(*q)
                };
            }
        }
    }
    let mut verts = Vec::with_capacity(2 * n);
    for (i, pair) in sides.iter().enumerate() {
        let c = line.pts[i];
        let t = unit3(sub3(line.pts[(i + 1).min(n - 1)], line.pts[i.saturating_sub(1)]));
        let lat = line.dir(i.min(n - 2)).perp();
        let normal = unit3(cross3(t, Point3::new(lat.x, lat.y, 0.0)));
        let v = p.start + line.cum[i];
        for (k, u) in [(0, -half), (1, half)] {
            let q = pair[k];
            let vert = MeshVertex { position: Point3::new(q.x, q.y, c.z), normal, uv: [u, v] };
            verts.push(vert);
            sink.vertex(vert);
        }
    }
    for i in 0..n - 1 {
        let (r0, l0, r1, l1) = (2 * i as u32, 2 * i as u32 + 1, 2 * i as u32 + 2, 2 * i as u32 + 3);
        // Of the quad's two diagonals take one whose triangles both face up; where a tight
        // bend leaves neither, keep only the triangles that do (never one folded over).
        let up = |t: [u32; 3]| {
            let [a, b, c] = t.map(|k| verts[k as usize].position);
            (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y) > 0.0
        };
        let (a, b) = ([r0, r1, l1], [r0, l1, l0]);
        let (c, d) = ([r0, r1, l0], [r1, l1, l0]);
        let pick = if up(a) && up(b) {
            [a, b]
        } else if up(c) && up(d) {
            [c, d]
        } else {
            [a, b]
        };
        for t in pick {
            if up(t) {
                tri(sink, &verts, t, MaterialSlot::Carriageway);
            }
        }
    }
    // Dead ends: a half-disc cap beyond the last cross-section.
    for (end, j) in ends.iter().enumerate() {
        let dead = j.is_none() && (if end == 0 { p.from.is_none() } else { p.to.is_none() });
        let closed_loop = p.from.is_none() && p.to.is_none() && line.pts.first() == line.pts.last();
        if !dead || closed_loop {
            continue;
        }
        let (i, s) = if end == 0 { (0, 0.0) } else { (n - 1, len) };
        let c = line.pts[i];
        let dir = line.dir(line.segment_at(s));
        let nrm = dir.perp();
        // Counter-clockwise half turn from the right corner (end) or the left corner (start).
        let start = if end == 1 { nrm.scale(-1.0) } else { nrm };
        let a0 = start.y.atan2(start.x);
        let steps = arc_steps(half, std::f64::consts::PI, settings.tolerance);
        let center = sink_vertex(sink, &mut verts, Point3::new(c.x, c.y, c.z), UP, [0.0, p.start + s]);
        let first = if end == 1 { 2 * i as u32 } else { 2 * i as u32 + 1 };
        let last = if end == 1 { 2 * i as u32 + 1 } else { 2 * i as u32 };
        let mut prev = first;
        for k in 1..steps {
            let a = a0 + std::f64::consts::PI * k as f64 / steps as f64;
            let q = Point::new(c.x + half * a.cos(), c.y + half * a.sin());
            let rel = q.sub(c.xy());
            let uv = [rel.dot(nrm), p.start + s + rel.dot(dir)];
            let vi = sink_vertex(sink, &mut verts, Point3::new(q.x, q.y, c.z), UP, uv);
            tri(sink, &verts, [center, prev, vi], MaterialSlot::Carriageway);
            prev = vi;
        }
        tri(sink, &verts, [center, prev, last], MaterialSlot::Carriageway);
    }
    sink.end_feature();
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

/// The curb point of interior vertex `i`: the miter point, or the middle of a bevel.
fn joint(line: &Line, i: usize, half: f64, side: Side) -> Point {
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
        0 => offset_at(line, s, half, side),
        1 => pts[0],
        _ => pts[0].lerp(pts[pts.len() - 1], 0.5),
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
    // Smooth normals: the area-weighted mean of the faces around each vertex.
    let mut normals = vec![Point3::default(); pos.len()];
    for tr in &t.triangles {
        let [a, b, c] = tr.map(|i| pos.get(i as usize).copied().unwrap_or_default());
        let nf = cross3(sub3(b, a), sub3(c, a));
        for &i in tr {
            if let Some(n) = normals.get_mut(i as usize) {
                *n = Point3::new(n.x + nf.x, n.y + nf.y, n.z + nf.z);
            }
        }
    }
    let mut verts = Vec::with_capacity(pos.len());
    for (q, nrm) in pos.iter().zip(&normals) {
        let v = MeshVertex { position: *q, normal: unit3(*nrm), uv: [q.x, q.y] };
        verts.push(v);
        sink.vertex(v);
    }
    for tr in &t.triangles {
        tri(sink, &verts, *tr, MaterialSlot::Junction);
    }
    sink.end_feature();
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
        match self.tree.nearest_neighbor([q.x, q.y]) {
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
    let band = band_polygons(b);
    let mut surfaces: Vec<(&Polygon, MaterialSlot)> = band.iter().map(|p| (p, MaterialSlot::Sidewalk)).collect();
    surfaces.extend(b.lots.iter().map(|p| (p, MaterialSlot::Block)));
    for (poly, slot) in surfaces {
        let t = triangulate_plain(poly);
        let base = verts.len() as u32;
        for q in &t.vertices {
            sink_vertex(sink, &mut verts, Point3::new(q.x, q.y, heights.at(*q) + h), UP, [q.x, q.y]);
        }
        for tr in &t.triangles {
            tri(sink, &verts, tr.map(|i| base + i), slot);
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
    // The bottom, at road level, facing down: the platform is a closed solid.
    let t = triangulate_plain(&b.polygon);
    let base = verts.len() as u32;
    for q in &t.vertices {
        sink_vertex(sink, &mut verts, Point3::new(q.x, q.y, heights.at(*q)), DOWN, [q.x, q.y]);
    }
    for tr in &t.triangles {
        tri(sink, &verts, [base + tr[0], base + tr[2], base + tr[1]], MaterialSlot::Curb);
    }
    sink.end_feature();
}

/// The sidewalk band of a block: the block minus its lots, built from the very rings of the
/// block and its lots (no boolean operation, which would move vertices), so that the top, the
/// skirt and the bottom share every vertex.
fn band_polygons(b: &crate::types::Block) -> Vec<Polygon> {
    if b.lots.is_empty() {
        return vec![b.polygon.clone()];
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
