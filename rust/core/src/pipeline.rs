//! The pipeline: input roads to a [`Network`], stage by stage.

use std::collections::{BTreeMap, BTreeSet};

use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::overlay_rule::OverlayRule;
use i_overlay::float::relate::FloatRelate;
use rayon::prelude::*;
use rstar::primitives::{GeomWithData, Line as RLine, Rectangle};
use rstar::{RTree, AABB};

use crate::blocks::extract_blocks;
use crate::curb::{offset_at, Side};
use crate::flatten::flatten_road;
use crate::geom::{dedup_ring, ring_area, Line};
use crate::graph::{build_graph, Graph, RoadLine, UnionFind};
use crate::junction::{build_junction, strip, ArmIn, JunctionOut};
use crate::types::*;
use crate::{Error, Settings};

/// Runs the whole pipeline: junctions, road pieces and blocks from input roads.
///
/// Bad roads (too few points, non-finite coordinates, a width that is not a positive number)
/// are left out with a [`DiagnosticCode::RoadSkipped`] diagnostic, or stop the run with
/// [`Error::BadRoad`] when `settings.strict` is set. Never panics.
///
/// ```
/// use roadgen_core::{build, Input, Point3, Road, RoadGeometry, Settings};
/// let road = |id: &str, a: (f64, f64), b: (f64, f64)| Road {
///     id: id.into(), width: 7.0, layer: 0, closed: false, has_height: false,
///     geometry: RoadGeometry::Polyline(vec![Point3::new(a.0, a.1, 0.0), Point3::new(b.0, b.1, 0.0)]),
/// };
/// let input = Input { roads: vec![road("a", (-100.0, 0.0), (100.0, 0.0)), road("b", (0.0, -100.0), (0.0, 100.0))] };
/// let net = build(&input, &Settings::default()).unwrap();
/// assert_eq!(net.junctions.len(), 1);
/// assert_eq!(net.junctions[0].degree, 4);
/// assert_eq!(net.pieces.len(), 4);
/// ```
pub fn build(input: &Input, settings: &Settings) -> Result<Network, Error> {
    settings.validate()?;
    let mut diags = Vec::new();
    let roads = prepare_roads(input, settings, &mut diags)?;
    let (graph, mut uf) = build_graph(roads, settings, &mut diags);
    let layout = settle_junctions(&graph, &mut uf, settings, &mut diags);
    let mut net = assemble(&graph, &layout, settings, &mut diags);
    net.blocks = extract_blocks(&net, settings, &mut diags);
    diags.sort_by(|a, b| {
        a.code
            .cmp(&b.code)
            .then(a.position.x.total_cmp(&b.position.x))
            .then(a.position.y.total_cmp(&b.position.y))
            .then(a.road.cmp(&b.road))
            .then(a.message.cmp(&b.message))
    });
    diags.dedup();
    net.diagnostics = diags;
    Ok(net)
}

fn skip(road: &Road, point: Option<usize>, reason: String, settings: &Settings, diags: &mut Vec<Diagnostic>) -> Result<(), Error> {
    if settings.strict {
        return Err(Error::BadRoad { road: road.id.clone(), point, reason });
    }
    let position = match &road.geometry {
        RoadGeometry::Polyline(p) => p.iter().find(|q| q.x.is_finite() && q.y.is_finite()).map(|q| q.xy()),
        RoadGeometry::Spline(p) => p
            .iter()
            .find(|q| q.location.x.is_finite() && q.location.y.is_finite())
            .map(|q| q.location.xy()),
    }
    .unwrap_or_default();
    let at = point.map(|i| format!(", point {i}")).unwrap_or_default();
    diags.push(Diagnostic {
        code: DiagnosticCode::RoadSkipped,
        position,
        road: Some(road.id.clone()),
        message: format!("road {}{}: {}; left out", road.id, at, reason),
    });
    Ok(())
}

/// Stage 1: flatten every usable road.
fn prepare_roads(input: &Input, settings: &Settings, diags: &mut Vec<Diagnostic>) -> Result<Vec<RoadLine>, Error> {
    let flat: Vec<Result<Vec<Point3>, Error>> =
        input.roads.par_iter().map(|r| flatten_road(r, settings.tolerance)).collect();
    let mut roads = Vec::new();
    let mut seen = BTreeSet::new();
    for (i, (road, pts)) in input.roads.iter().zip(flat).enumerate() {
        if !seen.insert(road.id.as_str()) {
            skip(road, None, "another road has the same id".into(), settings, diags)?;
            continue;
        }
        if !(road.width.is_finite() && road.width > 0.0) {
            skip(road, None, format!("width {} is not a positive number", road.width), settings, diags)?;
            continue;
        }
        let pts = match pts {
            Ok(p) => p,
            Err(Error::BadRoad { point, reason, .. }) => {
                skip(road, point, reason, settings, diags)?;
                continue;
            }
            Err(e) => return Err(e),
        };
        let line = Line::new(pts);
        let len = line.length();
        if !(len > 0.0) || !len.is_finite() {
            skip(road, None, "centerline has no length".into(), settings, diags)?;
            continue;
        }
        roads.push(RoadLine {
            input: i,
            id: road.id.clone(),
            width: road.width,
            layer: road.layer,
            closed: road.closed,
            has_height: road.has_height,
            line,
            lo: 0.0,
            hi: len,
        });
    }
    Ok(roads)
}

/// An arm of a cluster: which edge, and whether it leaves from the edge's start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct ArmRef {
    edge: usize,
    at_start: bool,
}

/// The settled junctions: clusters, their arms, outlines, and which edges are inside them.
struct Layout {
    /// Cluster root of each node.
    root: Vec<usize>,
    /// Per cluster root: arms (sorted), nodes, edges inside, and its geometry.
    clusters: BTreeMap<usize, ClusterOut>,
    internal: Vec<bool>,
}

struct ClusterOut {
    nodes: Vec<usize>,
    arms: Vec<ArmRef>,
    inner: Vec<usize>,
    geo: JunctionOut,
}

fn arm_line(g: &Graph, a: ArmRef) -> Line {
    let e = &g.edges[a.edge];
    if a.at_start {
        e.line.clone()
    } else {
        let mut pts = e.line.pts.clone();
        pts.reverse();
        Line::new(pts)
    }
}

/// Stages 3 to 5: clusters become junctions; junctions whose setbacks overlap along a short
/// edge, or whose outlines overlap, are merged until none do.
fn settle_junctions(g: &Graph, uf: &mut UnionFind, settings: &Settings, diags: &mut Vec<Diagnostic>) -> Layout {
    let mut forced_internal = vec![false; g.edges.len()];
    // Each round merges at least two clusters or moves an edge inside a junction, so the loop
    // ends after at most (nodes + edges) rounds; in practice two or three.
    let max_rounds = g.nodes.len() + g.edges.len() + 1;
    let mut round = 0;
    loop {
        round += 1;
        let root: Vec<usize> = (0..g.nodes.len()).map(|i| uf.find(i)).collect();
        let mut cwidth: BTreeMap<usize, f64> = BTreeMap::new();
        for (i, n) in g.nodes.iter().enumerate() {
            let w = cwidth.entry(root[i]).or_insert(0.0);
            *w = w.max(n.width);
        }
        let mut internal = vec![false; g.edges.len()];
        let mut members: BTreeMap<usize, (Vec<usize>, Vec<ArmRef>, Vec<usize>)> = BTreeMap::new();
        for (i, _) in g.nodes.iter().enumerate() {
            members.entry(root[i]).or_default().0.push(i);
        }
        for (ei, e) in g.edges.iter().enumerate() {
            let c0 = e.n0.map(|n| root[n]);
            let c1 = e.n1.map(|n| root[n]);
            if let (Some(a), Some(b)) = (c0, c1) {
                let limit = cwidth.get(&a).copied().unwrap_or(0.0) + settings.merge_distance;
                if a == b && (forced_internal[ei] || e.line.length() <= limit) {
                    internal[ei] = true;
                    members.entry(a).or_default().2.push(ei);
                    continue;
                }
            }
            if let Some(c) = c0 {
                members.entry(c).or_default().1.push(ArmRef { edge: ei, at_start: true });
            }
            if let Some(c) = c1 {
                members.entry(c).or_default().1.push(ArmRef { edge: ei, at_start: false });
            }
        }
        let list: Vec<(usize, (Vec<usize>, Vec<ArmRef>, Vec<usize>))> = members.into_iter().collect();
        let outs: Vec<JunctionOut> = list
            .par_iter()
            .map(|(_, (nodes, arms, inner))| {
                let center = mean(nodes.iter().map(|&n| g.nodes[n].pos));
                let arm_in: Vec<ArmIn> = arms
                    .iter()
                    .map(|&a| {
                        let e = &g.edges[a.edge];
                        let far = if a.at_start { e.n1 } else { e.n0 };
                        let len = e.line.length();
                        ArmIn {
                            line: arm_line(g, a),
                            width: g.roads[e.road].width,
                            avail: if far.is_some() { 0.5 * len } else { len },
                            road: g.roads[e.road].id.clone(),
                        }
                    })
                    .collect();
                let extra: Vec<Vec<Point>> = inner
                    .iter()
                    .map(|&ei| {
                        let e = &g.edges[ei];
                        strip(&e.line, 0.0, e.line.length(), 0.5 * g.roads[e.road].width)
                    })
                    .collect();
                build_junction(center, &arm_in, &extra, settings)
            })
            .collect();
        let mut clusters = BTreeMap::new();
        for ((r, (nodes, arms, inner)), geo) in list.into_iter().zip(outs) {
            clusters.insert(r, ClusterOut { nodes, arms, inner, geo });
        }

        // Setbacks that overlap along an edge.
        let mut changed = false;
        let mut merge_diags = Vec::new();
        let setback_of = |c: &ClusterOut, a: ArmRef| -> f64 {
            c.arms.iter().position(|&x| x == a).and_then(|i| c.geo.setbacks.get(i).copied()).unwrap_or(0.0)
        };
        let mut unions = Vec::new();
        for (ei, e) in g.edges.iter().enumerate() {
            if internal[ei] {
                continue;
            }
            let (Some(n0), Some(n1)) = (e.n0, e.n1) else { continue };
            let (c0, c1) = (root[n0], root[n1]);
            let (Some(j0), Some(j1)) = (clusters.get(&c0), clusters.get(&c1)) else { continue };
            let sb = setback_of(j0, ArmRef { edge: ei, at_start: true }) + setback_of(j1, ArmRef { edge: ei, at_start: false });
            if sb >= e.line.length() {
                if c0 == c1 {
                    forced_internal[ei] = true;
                    changed = true;
                } else {
                    unions.push((c0, c1, e.line.point_at(0.5 * e.line.length()).xy(), Some(g.roads[e.road].id.clone())));
                }
            }
        }
        // Outlines that overlap.
        let rings: Vec<(usize, &Vec<Point>)> = clusters.iter().map(|(r, c)| (*r, &c.geo.ring)).collect();
        for (a, b) in overlapping_rings(&rings) {
            let pa = mean(rings[a].1.iter().copied());
            unions.push((rings[a].0, rings[b].0, pa, None));
        }
        for (c0, c1, p, road) in unions {
            if uf.union(c0, c1) {
                changed = true;
                merge_diags.push(Diagnostic {
                    code: DiagnosticCode::JunctionsMerged,
                    position: p,
                    message: match &road {
                        Some(r) => format!("two junctions need more of road {r} than it has between them: merged into one"),
                        None => "two junction outlines overlapped: merged into one".into(),
                    },
                    road,
                });
            }
        }
        diags.extend(merge_diags);
        // A short edge between two junctions that were just merged lies inside the new one:
        // short meaning no longer than the two junctions could reach along it (each the widest
        // road plus a corner radius).
        if changed {
            for (ei, e) in g.edges.iter().enumerate() {
                let (Some(n0), Some(n1)) = (e.n0, e.n1) else { continue };
                let (a, b) = (root[n0], root[n1]);
                let w = |c: usize| cwidth.get(&c).copied().unwrap_or(0.0);
                let reach = 2.0 * settings.corner_radius + w(a) + w(b) + settings.merge_distance;
                if a != b && uf.find(a) == uf.find(b) && e.line.length() <= reach {
                    forced_internal[ei] = true;
                }
            }
        }
        if !changed || round >= max_rounds {
            for c in clusters.values() {
                diags.extend(c.geo.diags.iter().cloned());
            }
            return Layout { root, clusters, internal };
        }
    }
}

fn mean(pts: impl Iterator<Item = Point>) -> Point {
    let (mut x, mut y, mut n) = (0.0, 0.0, 0.0);
    for p in pts {
        x += p.x;
        y += p.y;
        n += 1.0;
    }
    if n > 0.0 {
        Point::new(x / n, y / n)
    } else {
        Point::default()
    }
}

fn bbox(r: &[Point]) -> Option<AABB<[f64; 2]>> {
    let first = r.first()?;
    let mut lo = [first.x, first.y];
    let mut hi = lo;
    for p in r {
        lo = [lo[0].min(p.x), lo[1].min(p.y)];
        hi = [hi[0].max(p.x), hi[1].max(p.y)];
    }
    Some(AABB::from_corners(lo, hi))
}

/// Pairs (by index) of rings whose interiors overlap.
fn overlapping_rings(rings: &[(usize, &Vec<Point>)]) -> Vec<(usize, usize)> {
    let entries: Vec<GeomWithData<Rectangle<[f64; 2]>, usize>> = rings
        .iter()
        .enumerate()
        .filter_map(|(i, r)| bbox(r.1).map(|b| GeomWithData::new(Rectangle::from_aabb(b), i)))
        .collect();
    let tree = RTree::bulk_load(entries);
    let pairs: Vec<Vec<(usize, usize)>> = rings
        .par_iter()
        .enumerate()
        .map(|(i, r)| {
            let Some(b) = bbox(r.1) else { return Vec::new() };
            let mut out = Vec::new();
            for c in tree.locate_in_envelope_intersecting(b) {
                let j = c.data;
                if j <= i {
                    continue;
                }
                let pa: Vec<[f64; 2]> = r.1.iter().map(|p| [p.x, p.y]).collect();
                let pb: Vec<[f64; 2]> = rings[j].1.iter().map(|p| [p.x, p.y]).collect();
                if pa.len() >= 3 && pb.len() >= 3 && pa.interiors_intersect(&pb) {
                    out.push((i, j));
                }
            }
            out
        })
        .collect();
    pairs.into_iter().flatten().collect()
}

/// Stage 6 and the features: junctions and road pieces with their ids.
fn assemble(g: &Graph, layout: &Layout, settings: &Settings, diags: &mut Vec<Diagnostic>) -> Network {
    let _ = diags;
    // Junction ids: the smallest (road id, position) among the stops of the cluster.
    let mut junctions = Vec::new();
    let mut jid: BTreeMap<usize, String> = BTreeMap::new();
    let mut used = BTreeMap::new();
    for (&r, c) in &layout.clusters {
        let mut keys: Vec<(String, f64)> = Vec::new();
        let mut roads = BTreeSet::new();
        for a in &c.arms {
            let e = &g.edges[a.edge];
            let s = if a.at_start { e.s0 } else { e.s1 };
            let road = &g.roads[e.road];
            let s = if road.closed && s >= road.line.length() { s - road.line.length() } else { s };
            keys.push((road.id.clone(), s));
            roads.insert(road.id.clone());
        }
        for &ei in &c.inner {
            let e = &g.edges[ei];
            keys.push((g.roads[e.road].id.clone(), e.s0));
            roads.insert(g.roads[e.road].id.clone());
        }
        keys.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        let base = match keys.first() {
            Some((id, s)) => format!("j/{}/{:.2}", id, s),
            None => {
                let p = mean(c.nodes.iter().map(|&n| g.nodes[n].pos));
                format!("j/@{:.2},{:.2}", p.x, p.y)
            }
        };
        let id = unique(base, &mut used);
        jid.insert(r, id.clone());
        let mut ring = c.geo.ring.clone();
        dedup_ring(&mut ring);
        if ring_area(&ring) < 0.0 {
            ring.reverse();
        }
        if ring.len() < 3 {
            continue;
        }
        junctions.push(Junction {
            id,
            center: mean(c.nodes.iter().map(|&n| g.nodes[n].pos)),
            degree: c.arms.len(),
            roads: roads.into_iter().collect(),
            polygon: Polygon { exterior: ring, holes: Vec::new() },
        });
    }

    // Road pieces.
    let setback = |node: Option<usize>, a: ArmRef| -> (Option<String>, f64) {
        let Some(n) = node else { return (None, 0.0) };
        let r = layout.root[n];
        let Some(c) = layout.clusters.get(&r) else { return (None, 0.0) };
        let s = c.arms.iter().position(|&x| x == a).and_then(|i| c.geo.setbacks.get(i).copied()).unwrap_or(0.0);
        (jid.get(&r).cloned(), s)
    };
    let mut used_p = BTreeMap::new();
    let mut specs = Vec::new();
    for (ei, e) in g.edges.iter().enumerate() {
        if layout.internal[ei] {
            continue;
        }
        let (from, sb0) = setback(e.n0, ArmRef { edge: ei, at_start: true });
        let (to, sb1) = setback(e.n1, ArmRef { edge: ei, at_start: false });
        let len = e.line.length();
        let (a, b) = (sb0, len - sb1);
        // Shorter than the flattening tolerance: the two mouths touch, nothing lies between.
        if !(b - a > settings.tolerance) {
            continue;
        }
        let road = &g.roads[e.road];
        let id = unique(format!("r/{}/{:.2}", road.id, e.s0), &mut used_p);
        specs.push((ei, id, from, to, a, b));
    }
    let pieces: Vec<RoadPiece> = specs
        .into_par_iter()
        .map(|(ei, id, from, to, a, b)| {
            let e = &g.edges[ei];
            let road = &g.roads[e.road];
            let half = 0.5 * road.width;
            let whole_loop = road.closed && e.n0.is_none() && e.n1.is_none();
            let polygon = if whole_loop { loop_polygon(&e.line, half) } else { clean_polygon(strip(&e.line, a, b, half)) };
            (polygon.exterior.len() >= 3).then(|| RoadPiece {
                id,
                road: road.id.clone(),
                from,
                to,
                start: e.s0 + a,
                end: e.s0 + b,
                centerline: e.line.cut(a, b),
                width: road.width,
                polygon,
            })
        })
        .collect::<Vec<Option<RoadPiece>>>()
        .into_iter()
        .flatten()
        .collect();
    let _ = settings;
    let mut net = Network { junctions, pieces, blocks: Vec::new(), diagnostics: Vec::new() };
    net.junctions.sort_by(|a, b| a.id.cmp(&b.id));
    net.pieces.sort_by(|a, b| a.id.cmp(&b.id));
    net
}

/// Makes `base` unique among the ids seen so far by appending `#2`, `#3`, ...
fn unique(base: String, used: &mut BTreeMap<String, usize>) -> String {
    let n = used.entry(base.clone()).or_insert(0);
    *n += 1;
    if *n == 1 {
        base
    } else {
        format!("{}#{}", base, n)
    }
}

/// A polygon from a ring that may fold over itself: the ring as it is when it is simple, else
/// its non-zero fill, largest part.
fn clean_polygon(mut ring: Vec<Point>) -> Polygon {
    dedup_ring(&mut ring);
    if ring_area(&ring) > 0.0 && crate::validate::ring_is_simple(&ring) {
        return Polygon { exterior: ring, holes: Vec::new() };
    }
    let subj = vec![ring.iter().map(|p| [p.x, p.y]).collect::<Vec<[f64; 2]>>()];
    let empty: Vec<Vec<[f64; 2]>> = Vec::new();
    let shapes = crate::overlay::overlay(&subj, &empty, OverlayRule::Subject, FillRule::NonZero);
    largest(shapes)
}

/// The largest shape of an overlay result, as a polygon.
pub(crate) fn largest(shapes: Vec<Vec<Vec<[f64; 2]>>>) -> Polygon {
    let mut best: Option<(f64, Polygon)> = None;
    for shape in shapes {
        let mut rings = shape
            .into_iter()
            .map(|c| c.into_iter().map(|p| Point::new(p[0], p[1])).collect::<Vec<Point>>());
        let Some(exterior) = rings.next() else { continue };
        let holes: Vec<Vec<Point>> = rings.collect();
        let a = ring_area(&exterior) + holes.iter().map(|h| ring_area(h)).sum::<f64>();
        if best.as_ref().is_none_or(|b| a > b.0) {
            best = Some((a, Polygon { exterior, holes }));
        }
    }
    best.map(|b| b.1).unwrap_or_default()
}

/// The carriageway of a closed road with no junction: a ring between its two curbs.
fn loop_polygon(line: &Line, half: f64) -> Polygon {
    // Offsets of a closed polyline: every vertex is a joint, including the seam.
    let n = line.pts.len();
    if n < 4 {
        return clean_polygon(strip(line, 0.0, line.length(), half));
    }
    let ring_of = |side: Side| -> Vec<Point> {
        let mut out = Vec::with_capacity(n);
        // The seam vertex: join the last segment to the first.
        let mut wrapped = line.pts.clone();
        if let Some(second) = line.pts.get(1).copied() {
            wrapped.push(second);
        }
        let wl = Line::new(wrapped);
        let mut pts = Vec::new();
        crate::curb::inner_vertices(&wl, 0.0, wl.length(), half, side, &mut pts);
        out.extend(pts);
        if out.is_empty() {
            out.push(offset_at(line, 0.0, half, side));
        }
        out
    };
    let mut a = ring_of(Side::Left);
    let mut b = ring_of(Side::Right);
    dedup_ring(&mut a);
    dedup_ring(&mut b);
    let (mut outer, mut inner) = if ring_area(&a).abs() >= ring_area(&b).abs() { (a, b) } else { (b, a) };
    if ring_area(&outer) < 0.0 {
        outer.reverse();
    }
    if ring_area(&inner) > 0.0 {
        inner.reverse();
    }
    let simple = crate::validate::ring_is_simple(&outer) && crate::validate::ring_is_simple(&inner);
    if simple {
        return Polygon { exterior: outer, holes: vec![inner] };
    }
    let subj = vec![
        outer.iter().map(|p| [p.x, p.y]).collect::<Vec<[f64; 2]>>(),
        inner.iter().map(|p| [p.x, p.y]).collect::<Vec<[f64; 2]>>(),
    ];
    let empty: Vec<Vec<[f64; 2]>> = Vec::new();
    largest(crate::overlay::overlay(&subj, &empty, OverlayRule::Subject, FillRule::NonZero))
}

#[allow(dead_code)]
type SegLine = GeomWithData<RLine<[f64; 2]>, (usize, usize)>;
