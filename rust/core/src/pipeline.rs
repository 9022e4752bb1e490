//! The pipeline: input roads to a [`Network`], stage by stage.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::RwLock;

use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::overlay_rule::OverlayRule;
use i_overlay::float::relate::FloatRelate;
use rayon::prelude::*;
use rstar::{Envelope, AABB};

use crate::blocks::{extract_blocks, polygon_box, Bbox};
use crate::curb::{offset_at, Side};
use crate::flatten::flatten_road;
use crate::geom::{dedup_ring, ring_area, Line, COINCIDENT_SHARE};
use crate::graph::{build_graph, Graph, RoadLine, UnionFind};
use crate::junction::{build_junction, strip, strip_capped, strip_is_plain, strip_parts, ArmIn, JunctionOut};
use crate::overlay::{ccw_contour, contour, largest, shape, Contour};
use crate::types::*;
use crate::{Error, MeshSink, Settings};

/// Runs the whole pipeline: junctions, road pieces and blocks from input roads.
///
/// Bad roads (too few points, non-finite coordinates, a width that is not a positive number)
/// are left out with a [`DiagnosticCode::RoadSkipped`] diagnostic, or stop the run with
/// [`Error::BadRoad`] when `settings.strict` is set. Never panics.
///
/// ```
/// use roadgen_core::{build, Input, Point3, Road, RoadGeometry, Settings};
/// let road = |id: &str, a: (f64, f64), b: (f64, f64)| Road {
///     id: id.into(), width: 7.0, layer: 0, closed: false, has_height: false, profile: Default::default(),
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
    crate::in_pool(|| {
        let mut diags = Vec::new();
        let roads = prepare_roads(input, settings, &mut diags)?;
        let mut net = network_only(roads, settings, &mut diags);
        net.blocks = extract_blocks(&net, settings, &mut diags);
        sort_diagnostics(&mut diags);
        net.diagnostics = diags;
        Ok(net)
    })
}

/// [`build`] and [`crate::build_meshes`] in one: the meshes of the road pieces and junctions
/// are built while the blocks are found, then those of the blocks; `sink` gets the same meshes
/// in the same order as from [`crate::build_meshes`] on the network returned.
pub fn build_with_meshes(input: &Input, settings: &Settings, sink: &mut dyn MeshSink) -> Result<Network, Error> {
    settings.validate()?;
    let (net, meshes) = crate::in_pool(|| {
        let mut diags = Vec::new();
        let roads = prepare_roads(input, settings, &mut diags)?;
        let mut net = network_only(roads, settings, &mut diags);
        let ((blocks, block_diags), surfaces) = rayon::join(
            || {
                let mut d = Vec::new();
                let b = extract_blocks(&net, settings, &mut d);
                (b, d)
            },
            || crate::mesh::surface_meshes(&net, settings, &crate::mesh::every_feature),
        );
        net.blocks = blocks;
        diags.extend(block_diags);
        sort_diagnostics(&mut diags);
        net.diagnostics = diags;
        let meshes = crate::mesh::finish_meshes(&net, surfaces);
        Ok::<_, Error>((net, meshes))
    })?;
    meshes.hand_over(sink);
    Ok(net)
}

/// The output order of diagnostics: by code, position (x, then y), road, message.
pub(crate) fn diagnostic_order(a: &Diagnostic, b: &Diagnostic) -> std::cmp::Ordering {
    a.code
        .cmp(&b.code)
        .then(a.position.x.total_cmp(&b.position.x))
        .then(a.position.y.total_cmp(&b.position.y))
        .then(a.road.cmp(&b.road))
        .then(a.message.cmp(&b.message))
}

/// Diagnostics in their output order ([`diagnostic_order`]), without repeats.
pub(crate) fn sort_diagnostics(diags: &mut Vec<Diagnostic>) {
    diags.sort_by(diagnostic_order);
    diags.dedup();
}

/// Stages 2 to 6 on prepared roads (sorted by id): junctions and road pieces, no blocks; and
/// how far each one's inputs reach (see [`Extents`]).
pub(crate) fn network_stage(
    roads: Vec<RoadLine>,
    settings: &Settings,
    diags: &mut Vec<Diagnostic>,
    memo: Option<&Memo>,
) -> (Network, Extents) {
    network_stage_in(roads, settings, diags, None, memo, true)
}

/// [`network_stage`] for a build that keeps nothing for later updates: no extents, no memo.
fn network_only(roads: Vec<RoadLine>, settings: &Settings, diags: &mut Vec<Diagnostic>) -> Network {
    network_stage_in(roads, settings, diags, None, None, false).0
}

/// Which boxes a partial build must get right: a junction whose every node lies outside it is
/// not built (its surface left empty, its setbacks zero), nor a road piece with no end (or, for
/// a piece without junctions, no part) in it. What is built next to such a junction is wrong,
/// and its extent says so: it reaches the junction's nodes.
pub(crate) type Focus<'a> = &'a dyn Fn(Bbox) -> bool;

/// [`network_stage`], building only what meets `focus` (everything without one); the extents
/// only `with_extents` (empty without).
pub(crate) fn network_stage_in(
    roads: Vec<RoadLine>,
    settings: &Settings,
    diags: &mut Vec<Diagnostic>,
    focus: Option<Focus<'_>>,
    memo: Option<&Memo>,
    with_extents: bool,
) -> (Network, Extents) {
    let (graph, mut uf) = build_graph(roads, settings, diags);
    let node_in = |n: usize| {
        focus.is_none_or(|f| {
            f(([graph.nodes[n].pos.x, graph.nodes[n].pos.y], [graph.nodes[n].pos.x, graph.nodes[n].pos.y]))
        })
    };
    let layout = settle_junctions(&graph, &mut uf, settings, diags, &node_in, memo);
    let edge_in = |e: &crate::graph::Edge| match (e.n0, e.n1) {
        (None, None) => focus.is_none_or(|f| f(line_box(&e.line.pts))),
        (a, b) => a.is_some_and(node_in) || b.is_some_and(node_in),
    };
    assemble(&graph, &layout, settings, &edge_in, diags, memo, with_extents)
}

pub(crate) fn skip(
    road: &Road,
    point: Option<usize>,
    reason: String,
    settings: &Settings,
    diags: &mut Vec<Diagnostic>,
) -> Result<(), Error> {
    if settings.strict {
        return Err(Error::BadRoad { road: road.id.clone(), point, reason });
    }
    let position = match &road.geometry {
        RoadGeometry::Polyline(p) => p.iter().find(|q| q.x.is_finite() && q.y.is_finite()).map(|q| q.xy()),
        RoadGeometry::Spline(p) => {
            p.iter().find(|q| q.location.x.is_finite() && q.location.y.is_finite()).map(|q| q.location.xy())
        }
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

/// Stage 1 for one road: its flattened centerline with everything the later stages need, or
/// why it cannot be used (the point concerned, and a reason for a person).
pub(crate) fn prepare_one(road: &Road, settings: &Settings) -> Prepared {
    if !settings.profile.with(&road.profile).is_valid()
        || road.profile.corner_radius.is_some_and(|r| !(r.is_finite() && r >= 0.0))
    {
        return Err((None, "profile lengths must be finite and not negative".into()));
    }
    if !(road.width.is_finite() && road.width > 0.0 && road.width <= settings.max_coordinate) {
        return Err((
            None,
            format!("width {} is not a positive number up to {} m", road.width, settings.max_coordinate),
        ));
    }
    let pts = match flatten_road(road, settings.tolerance) {
        Ok(p) => p,
        Err(Error::BadRoad { point, reason, .. }) => return Err((point, reason)),
        Err(e) => return Err((None, e.to_string())),
    };
    let far = settings.max_coordinate;
    if let Some(i) = pts.iter().position(|p| p.x.abs() > far || p.y.abs() > far || p.z.abs() > far) {
        return Err((Some(i), format!("coordinate beyond ±{far} m")));
    }
    let line = Line::new(pts);
    let len = line.length();
    if !(len > 0.0) || !len.is_finite() {
        return Err((None, "centerline has no length".into()));
    }
    Ok(RoadLine {
        id: road.id.clone(),
        width: road.width,
        layer: road.layer,
        closed: road.closed,
        has_height: road.has_height,
        profile: settings.profile.with(&road.profile),
        corner_radius: road.profile.corner_radius.unwrap_or(settings.corner_radius),
        line,
        lo: 0.0,
        hi: len,
    })
}

/// A prepared road, or why it is left out: the point concerned and a reason for a person.
pub(crate) type Prepared = Result<RoadLine, (Option<usize>, String)>;

/// Stage 1: flatten every usable road.
fn prepare_roads(input: &Input, settings: &Settings, diags: &mut Vec<Diagnostic>) -> Result<Vec<RoadLine>, Error> {
    let seen = first_of_each_id(&input.roads);
    let prepared: Vec<Option<Prepared>> = input
        .roads
        .par_iter()
        .zip(seen.par_iter())
        .map(|(r, &first)| first.then(|| prepare_one(r, settings)))
        .collect();
    let mut roads = Vec::new();
    for (road, p) in input.roads.iter().zip(prepared) {
        match p {
            None => skip(road, None, DUPLICATE_ID.into(), settings, diags)?,
            Some(Err((point, reason))) => skip(road, point, reason, settings, diags)?,
            Some(Ok(line)) => roads.push(line),
        }
    }
    // Canonical order: every later tie (crossing points computed along the first road of a
    // pair, node and edge numbering, union-find roots, arm order at equal angles, the order of
    // polygons handed to the booleans) is broken by road index, so the index must come from
    // the id, never from where the road stood in the input. Ids are unique by now.
    roads.par_sort_unstable_by(|a, b| a.id.cmp(&b.id));
    Ok(roads)
}

/// Why a road with the id of an earlier one is left out.
pub(crate) const DUPLICATE_ID: &str = "another road has the same id";

/// For each road, whether it is the first with its id (later ones are left out).
pub(crate) fn first_of_each_id(roads: &[Road]) -> Vec<bool> {
    let mut seen = rustc_hash::FxHashSet::default();
    seen.reserve(roads.len());
    roads.iter().map(|r| seen.insert(r.id.as_str())).collect()
}

/// An arm of a cluster: which edge, and whether it leaves from the edge's start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct ArmRef {
    edge: usize,
    at_start: bool,
}

/// The settled junctions.
///
/// A *base* junction is one cluster of crossings (closer together than the roads are wide),
/// with its own outline. Base junctions whose setbacks overlap along an edge, or whose outlines
/// overlap, form one *group*: one output junction whose surface is the union of its bases and
/// of the edges that join them. A block enclosed by a group stays a block (a hole of the
/// junction surface), so merging never swallows one.
struct Layout {
    /// Group of each node (its smallest base root).
    group_of: Vec<usize>,
    groups: BTreeMap<usize, Group>,
    /// Edges inside a junction (no road piece).
    internal: Vec<bool>,
    /// Setback of each edge at its start and at its end, metres.
    setback: Vec<[f64; 2]>,
}

struct Group {
    nodes: Vec<usize>,
    /// Arms leaving the group.
    arms: Vec<ArmRef>,
    /// Edges inside the group.
    inner: Vec<usize>,
    polygon: Polygon,
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

/// One base junction's members.
#[derive(Default)]
struct Base {
    nodes: Vec<usize>,
    arms: Vec<ArmRef>,
    inner: Vec<usize>,
}

/// The base junctions, in ascending order of their roots (the order of every loop over them).
struct Bases {
    /// Each base's root node.
    roots: Vec<usize>,
    /// The place of each root among the bases, by node ([`NO_BASE`] for a node that is no root).
    slot: Vec<usize>,
    members: Vec<Base>,
    /// What each base built (nothing for a base out of focus).
    outs: Vec<Option<JunctionOut>>,
}

/// [`Bases::slot`] of a node that roots no base.
const NO_BASE: usize = usize::MAX;

impl Bases {
    /// What the base rooted at `r` built.
    fn out(&self, r: usize) -> Option<&JunctionOut> {
        self.slot.get(r).and_then(|&b| self.outs.get(b)).and_then(Option::as_ref)
    }
}

fn compute_base(g: &Graph, base: &Base, settings: &Settings) -> JunctionOut {
    let center = mean(base.nodes.iter().map(|&n| g.nodes[n].pos));
    let arm_in: Vec<ArmIn> = base
        .arms
        .iter()
        .map(|&a| {
            let e = &g.edges[a.edge];
            ArmIn {
                line: arm_line(g, a),
                width: g.roads[e.road].width,
                avail: e.line.length(),
                corner_radius: g.roads[e.road].corner_radius,
                road: g.roads[e.road].id.clone(),
                twin: base.arms.iter().position(|b| b.edge == a.edge && b.at_start != a.at_start),
            }
        })
        .collect();
    let extra: Vec<Contour> = base
        .inner
        .iter()
        .flat_map(|&ei| {
            let e = &g.edges[ei];
            let overlap = COINCIDENT_SHARE * settings.tolerance;
            strip_parts(&e.line, (0.0, e.line.length()), 0.5 * g.roads[e.road].width, overlap, [false, false])
        })
        .collect();
    build_junction(center, &arm_in, &extra, settings)
}

/// Stages 3 to 5: base junctions, then groups of bases that overlap.
fn settle_junctions(
    g: &Graph,
    uf: &mut UnionFind,
    settings: &Settings,
    diags: &mut Vec<Diagnostic>,
    node_in: &dyn Fn(usize) -> bool,
    memo: Option<&Memo>,
) -> Layout {
    let n_nodes = g.nodes.len();
    let base_root: Vec<usize> = (0..n_nodes).map(|i| uf.find(i)).collect();
    // The bases in ascending order of their roots (the order every loop over them keeps), and
    // the place of each root among them.
    let mut slot = vec![NO_BASE; n_nodes];
    for &r in &base_root {
        slot[r] = 0;
    }
    let mut roots: Vec<usize> = Vec::new();
    for (r, s) in slot.iter_mut().enumerate() {
        if *s != NO_BASE {
            *s = roots.len();
            roots.push(r);
        }
    }
    let base_of: Vec<usize> = base_root.iter().map(|&r| slot[r]).collect();
    let mut bwidth = vec![0.0f64; roots.len()];
    for (n, &b) in g.nodes.iter().zip(&base_of) {
        bwidth[b] = bwidth[b].max(n.width);
    }
    let ends = |e: &crate::graph::Edge| (e.n0.map(|n| base_root[n]), e.n1.map(|n| base_root[n]));

    // Base junctions. An edge from a base back to itself lies inside it when it is short, or
    // when the base's setbacks along it overlap (found after a first computation).
    let mut base_internal = vec![false; g.edges.len()];
    let mut bases: Vec<Base> = roots.iter().map(|_| Base::default()).collect();
    for (i, &b) in base_of.iter().enumerate() {
        bases[b].nodes.push(i);
    }
    for (ei, e) in g.edges.iter().enumerate() {
        let (b0, b1) = (e.n0.map(|n| base_of[n]), e.n1.map(|n| base_of[n]));
        if let (Some(a), Some(b)) = (b0, b1) {
            let limit = bwidth[a] + settings.merge_distance;
            if a == b && e.line.length() <= limit {
                base_internal[ei] = true;
                bases[a].inner.push(ei);
                continue;
            }
        }
        if let Some(c) = b0 {
            bases[c].arms.push(ArmRef { edge: ei, at_start: true });
        }
        if let Some(c) = b1 {
            bases[c].arms.push(ArmRef { edge: ei, at_start: false });
        }
    }
    let mut outs: Vec<Option<JunctionOut>> = roots.iter().map(|_| None).collect();
    // Each round moves at least one edge inside its base, so there are at most edges + 1. The
    // first round builds every base with a node in focus; a later one only the bases whose
    // members changed (an edge moved inside), the others' results standing.
    let mut rounds_left = g.edges.len() + 1;
    let mut todo: Vec<usize> = (0..bases.len()).filter(|&b| bases[b].nodes.iter().any(|&n| node_in(n))).collect();
    loop {
        let fresh: Vec<JunctionOut> = todo
            .par_iter()
            .map(|&b| {
                let base = &bases[b];
                let Some(memo) = memo else { return compute_base(g, base, settings) };
                let key = base_key(g, base);
                memo.get(bases_of, &key).unwrap_or_else(|| {
                    let out = compute_base(g, base, settings);
                    memo.keep(bases_of, key, out.clone());
                    out
                })
            })
            .collect();
        for (&b, o) in todo.iter().zip(fresh) {
            outs[b] = Some(o);
        }
        // A base that was not built again has the members and result it had when it was
        // last looked at here: only the bases just built can move an edge inside.
        let forced: Vec<(usize, usize)> = todo
            .par_iter()
            .flat_map_iter(|&b| {
                let (r, base) = (roots[b], &bases[b]);
                let o = outs[b].as_ref();
                base.arms.iter().enumerate().filter_map(move |(i, a)| {
                    let (o, e) = (o?, &g.edges[a.edge]);
                    if !a.at_start || ends(e).1 != Some(r) {
                        return None;
                    }
                    let j = base.arms.iter().position(|x| *x == ArmRef { edge: a.edge, at_start: false });
                    let sb = o.setbacks.get(i).copied().unwrap_or(0.0)
                        + j.and_then(|j| o.setbacks.get(j).copied()).unwrap_or(0.0);
                    (sb - e.line.length() > COINCIDENT_SHARE * settings.tolerance).then_some((b, a.edge))
                })
            })
            .collect();
        rounds_left -= 1;
        if forced.is_empty() || rounds_left == 0 {
            break;
        }
        // Each forced edge leaves its base's arms (both ends) for its inner edges, which stay
        // in edge order, as a fresh sorting of the edges would place them.
        todo.clear();
        for (b, ei) in forced {
            let base = &mut bases[b];
            base.arms.retain(|a| a.edge != ei);
            let at = base.inner.partition_point(|&x| x < ei);
            base.inner.insert(at, ei);
            base_internal[ei] = true;
            todo.push(b);
        }
        todo.dedup();
    }

    let bases = Bases { roots, slot, members: bases, outs };

    let mut setback = vec![[0.0f64; 2]; g.edges.len()];
    for (b, o) in bases.members.iter().zip(&bases.outs) {
        let Some(o) = o else { continue };
        for (i, a) in b.arms.iter().enumerate() {
            setback[a.edge][if a.at_start { 0 } else { 1 }] = o.setbacks.get(i).copied().unwrap_or(0.0);
        }
        diags.extend(o.diags.iter().cloned());
    }

    // Groups: bases whose setbacks overlap along an edge.
    let mut guf = UnionFind::new(n_nodes);
    for (ei, e) in g.edges.iter().enumerate() {
        if base_internal[ei] {
            continue;
        }
        let (Some(c0), Some(c1)) = ends(e) else { continue };
        if c0 != c1 && setback[ei][0] + setback[ei][1] - e.line.length() > COINCIDENT_SHARE * settings.tolerance {
            // One diagnostic per such edge, whether or not another edge already joined the two:
            // which one comes first depends on numbering, not on the network.
            guf.union(c0, c1);
            diags.push(needs_more_of(g, e));
        }
    }
    // ... and groups whose surfaces overlap, until none do. Each round joins at least two
    // groups, so there are at most as many rounds as bases.
    let mut rounds_left = bases.roots.len() + 1;
    // Surfaces by member bases: a group that did not change keeps its surface, and two groups
    // that did not change were already found apart.
    let mut cache: GroupSurfaces = GroupSurfaces::default();
    loop {
        let (surface_keys, fresh) =
            group_polygons(g, &bases, &base_root, &mut guf, &base_internal, &setback, settings, &mut cache, memo);
        let (keys, shapes): (Vec<usize>, Vec<&Polygon>) =
            surface_keys.iter().filter_map(|(gr, k)| cache.get(k).map(|p| (*gr, p))).unzip();
        let changed: Vec<bool> = keys.iter().map(|k| fresh.contains(k)).collect();
        let mut joined = false;
        let pairs = overlapping(&shapes, &changed, memo);
        for &(a, b) in &pairs {
            joined |= guf.union(keys[a], keys[b]);
        }
        diags.extend(overlap_diagnostics(&pairs, &shapes));
        rounds_left -= 1;
        if joined && rounds_left > 0 {
            continue;
        }
        let polys = surface_keys.into_iter().filter_map(|(gr, k)| cache.remove(&k).map(|p| (gr, p))).collect();
        let mut layout = finish_layout(g, &bases, &base_root, &mut guf, base_internal, setback, polys);
        let mut only: Option<BTreeSet<usize>> = None;
        // The carriageway an arm gives up to unbury its mouth may reach into another group's
        // surface: those two are one junction, whose surface is the union of theirs (built
        // from their bases instead, it could fall apart where only the stretches joined them),
        // and its mouths are unburied again. Each round joins at least two groups.
        loop {
            let (before, stuck) = unbury_mouths(g, &mut layout, settings, only.as_ref(), memo);
            let keys: Vec<usize> = layout.groups.keys().copied().collect();
            let shapes: Vec<&Polygon> = layout.groups.values().map(|gr| &gr.polygon).collect();
            // Surfaces that grew: by unburying, or by joining (a road taken in between two
            // junctions may reach a third).
            let joined = |k: &usize| only.as_ref().is_some_and(|o| o.contains(k));
            let grown: Vec<bool> =
                keys.iter().zip(&shapes).map(|(k, p)| joined(k) || before.get(k).is_some_and(|b| b != *p)).collect();
            let pairs = overlapping(&shapes, &grown, memo);
            // A mouth still buried halfway along its arm: the junctions at the two ends (or the
            // one junction at both) need more of the road than it has between them, and are one
            // junction, the road between them inside it.
            let mut bridges: BTreeMap<usize, Vec<Point>> = BTreeMap::new();
            for &ei in &stuck {
                let e = &g.edges[ei];
                let short = e.line.length() <= BRIDGE_MAX_WIDTHS * g.roads[e.road].width;
                if e.n0.is_some() && e.n1.is_some() && short {
                    bridges.insert(ei, bridge_strip(g, ei, &layout.setback, settings));
                }
            }
            if pairs.is_empty() && bridges.is_empty() {
                return layout;
            }
            for &(a, b) in &pairs {
                guf.union(keys[a], keys[b]);
            }
            diags.extend(overlap_diagnostics(&pairs, &shapes));
            for &ei in bridges.keys() {
                let e = &g.edges[ei];
                if let (Some(n0), Some(n1)) = (e.n0, e.n1) {
                    guf.union(layout.group_of[n0], layout.group_of[n1]);
                }
                layout.internal[ei] = true;
                diags.push(needs_more_of(g, e));
            }
            only = Some(join_groups(&mut layout, &mut guf, &bridges, settings));
        }
    }
}

/// Joins the groups of `layout` that `guf` has joined: nodes, arms and inner edges together,
/// the surface the union of theirs (largest part; holes below `min_block_area` filled). An arm
/// edge in `bridges` becomes an inner edge of its group, its carriageway (the ring given)
/// united with the surface, whether or not the group joined another. Returns the groups that
/// changed.
fn join_groups(
    layout: &mut Layout,
    guf: &mut UnionFind,
    bridges: &BTreeMap<usize, Vec<Point>>,
    settings: &Settings,
) -> BTreeSet<usize> {
    // Only the groups that joined another or hold a bridged arm change: the others stay where
    // they are, untouched (a round joins a handful of a city's thousands).
    let bridged: Vec<usize> = if bridges.is_empty() {
        Vec::new()
    } else {
        let holds = |gr: &Group| gr.arms.iter().any(|a| bridges.contains_key(&a.edge));
        layout.groups.iter().filter(|(_, gr)| holds(gr)).map(|(&r, _)| r).collect()
    };
    // The old roots of each changed group (its own root added below), ascending.
    let mut roots: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for &r in layout.groups.keys() {
        let root = guf.find(r);
        if root != r {
            roots.entry(root).or_default().push(r);
        }
    }
    for r in bridged {
        roots.entry(guf.find(r)).or_default();
    }
    let parts: Vec<(usize, Vec<Group>)> = roots
        .into_iter()
        .map(|(root, mut old)| {
            old.push(root);
            old.sort_unstable();
            (root, old.iter().filter_map(|r| layout.groups.remove(r)).collect())
        })
        .collect();
    for root in &mut layout.group_of {
        *root = guf.find(*root);
    }
    let joined: Vec<(usize, Group)> = parts
        .into_par_iter()
        .map(|(r, members)| {
            let mut shapes: Vec<Vec<Contour>> = members.iter().map(|m| shape(&m.polygon)).collect();
            let mut group =
                Group { nodes: Vec::new(), arms: Vec::new(), inner: Vec::new(), polygon: Polygon::default() };
            for m in members {
                group.nodes.extend(m.nodes);
                group.arms.extend(m.arms);
                group.inner.extend(m.inner);
            }
            // A road between two of the members that joins them lies inside the junction.
            let mut inside: Vec<usize> =
                group.arms.iter().map(|a| a.edge).filter(|e| bridges.contains_key(e)).collect();
            inside.sort_unstable();
            inside.dedup();
            for ei in inside {
                group.arms.retain(|a| a.edge != ei);
                group.inner.push(ei);
                if let Some(ring) = bridges.get(&ei).filter(|r| r.len() >= 3) {
                    shapes.push(vec![ccw_contour(ring)]);
                }
            }
            group.polygon = junction_surface(&shapes, settings);
            (r, group)
        })
        .collect();
    let mut fresh = BTreeSet::new();
    for (r, gr) in joined {
        fresh.insert(r);
        layout.groups.insert(r, gr);
    }
    fresh
}

/// Longest road between two junctions, in widths of the road, that joins them when a mouth on
/// it stays buried halfway: the junctions of roads drawn over each other for a short way. A
/// longer road stays a road piece (its mouths are left to the mouth stitching): joining over it
/// would make one junction of two far apart, whose mouths then take long marches to unbury.
const BRIDGE_MAX_WIDTHS: f64 = 25.0;

/// The carriageway of edge `ei` between its two mouths (at the setbacks `setback`), reaching
/// back into each junction by up to half the road's width (no further than half the setback)
/// so that it overlaps both surfaces rather than only touching them.
fn bridge_strip(g: &Graph, ei: usize, setback: &[[f64; 2]], settings: &Settings) -> Vec<Point> {
    let e = &g.edges[ei];
    let half = 0.5 * g.roads[e.road].width;
    let len = e.line.length();
    let [s0, s1] = setback.get(ei).copied().unwrap_or([0.0, 0.0]);
    let (a, b) = ((s0 - half.min(0.5 * s0)).max(0.0), (len - s1 + half.min(0.5 * s1)).min(len));
    if !(b - a > COINCIDENT_SHARE * settings.tolerance) {
        return Vec::new();
    }
    let mut r = strip(&e.line, a, b, half);
    dedup_ring(&mut r);
    r
}

/// The union of some shapes as one junction surface: its largest part, with the holes too
/// small to be blocks (below `min_block_area`) filled.
fn junction_surface(shapes: &[Vec<Contour>], settings: &Settings) -> Polygon {
    let empty: Vec<Contour> = Vec::new();
    surface_of(crate::overlay::overlay(shapes, &empty, OverlayRule::Subject, FillRule::NonZero), settings)
}

/// A union's largest part, without its holes smaller than `min_block_area`.
fn surface_of(union: crate::overlay::Shapes, settings: &Settings) -> Polygon {
    let mut poly = largest(union);
    poly.holes.retain(|h| -ring_area(h) >= settings.min_block_area);
    poly
}

/// The diagnostic for junctions that need more of edge `e`'s road than it has between them
/// (merged into one), at the middle of the edge.
fn needs_more_of(g: &Graph, e: &crate::graph::Edge) -> Diagnostic {
    let road = &g.roads[e.road].id;
    Diagnostic {
        code: DiagnosticCode::JunctionsMerged,
        position: e.line.point_at(0.5 * e.line.length()).xy(),
        road: Some(road.clone()),
        message: format!("two junctions need more of road {road} than it has between them: merged into one"),
    }
}

/// The diagnostics of [`overlap_diagnostic`] for the `pairs` of `shapes` (by index), in order.
fn overlap_diagnostics(pairs: &[(usize, usize)], shapes: &[&Polygon]) -> Vec<Diagnostic> {
    pairs.par_iter().map(|&(a, b)| overlap_diagnostic(shapes[a], shapes[b])).collect()
}

/// One diagnostic per overlapping pair, halfway between the two surfaces' centres: neither
/// which pair comes first nor which of the two is `a` may show.
fn overlap_diagnostic(a: &Polygon, b: &Polygon) -> Diagnostic {
    let (ma, mb) = (mean(a.exterior.iter().copied()), mean(b.exterior.iter().copied()));
    Diagnostic {
        code: DiagnosticCode::JunctionsMerged,
        position: ma.lerp(mb, 0.5),
        road: None,
        message: "two junction surfaces overlapped: merged into one".into(),
    }
}

/// Results of the costliest steps of junction building, kept between the builds of one
/// [`crate::Session`]: while a road is dragged, the same junctions around it are built again
/// and again. Base junctions ([`compute_base`]) are keyed by their centre and their arms' and
/// inner edges' lines, widths, corner radii and road ids; groups whose buried mouths had to
/// move ([`unbury_mouths`]) by their surface and each arm's line, width, setback and whether a
/// junction waits at its far end; the surfaces of groups of several bases ([`group_polygons`])
/// by their bases' surfaces and the lines, widths and setbacks of the edges between them; the
/// surfaces of road pieces ([`piece_surface`]) by their edge's line, ends, width and caps; the
/// outlines of junctions with their mouths stitched ([`stitch_mouths`]) by the outline before,
/// the mouth corners and the widths of their pieces, where no piece had to be yielded; whether
/// two junction surfaces overlap ([`overlapping`]) by both outlines. Keys
/// hold every input bit for bit, so a hit gives exactly what the computation gives; the
/// settings are the session's.
///
/// Each table has a lock of its own that lookups share (a result's last use is an atomic
/// mark): the parallel loops of a build look up many results at once.
#[derive(Default)]
pub(crate) struct Memo {
    /// Groups whose mouths had to move (see [`unbury_mouths`]).
    unburied: RwLock<Kept<Unburied>>,
    /// Base junctions (see [`compute_base`]).
    bases: RwLock<Kept<JunctionOut>>,
    /// Surfaces of groups of several bases (see [`group_polygons`]).
    groups: RwLock<Kept<Polygon>>,
    /// Surfaces of road pieces (see [`piece_surface`]).
    pieces: RwLock<Kept<Polygon>>,
    /// Junction outlines with their mouths stitched (see [`stitch_mouths`]).
    stitched: RwLock<Kept<Polygon>>,
    /// Whether the interiors of two surfaces meet (see [`overlapping`]).
    overlaps: RwLock<Kept<bool>>,
    /// The build that is running.
    build: AtomicU64,
}

/// Results by key, each with the last build that used it. The keys are long (every point of
/// an outline or of a junction's arms): hashed with rustc's fast hasher, not the default one,
/// which took about 2 % of an update's instructions (the keys are not chosen by an attacker).
type Kept<T> = HashMap<Vec<u64>, (T, AtomicU64), rustc_hash::FxBuildHasher>;

/// What [`unbury_mouths`] did to one group: its surface, the setbacks it moved (arm index in
/// the group, new setback, in order) and the arms left stuck halfway.
#[derive(Clone)]
struct Unburied {
    polygon: Polygon,
    moved: Vec<(usize, f64)>,
    stuck: Vec<usize>,
}

impl Memo {
    /// The result kept under `key` in the table `of` picks, marked as used by this build.
    fn get<T: Clone>(&self, of: fn(&Memo) -> &RwLock<Kept<T>>, key: &[u64]) -> Option<T> {
        let table = of(self).read().ok()?;
        table.get(key).map(|(t, used)| {
            used.store(self.build.load(Ordering::Relaxed), Ordering::Relaxed);
            t.clone()
        })
    }

    fn keep<T>(&self, of: fn(&Memo) -> &RwLock<Kept<T>>, key: Vec<u64>, t: T) {
        if let Ok(mut table) = of(self).write() {
            table.insert(key, (t, AtomicU64::new(self.build.load(Ordering::Relaxed))));
        }
    }

    /// Starts a build; first, when more than `limit` results of a kind are kept, drops those
    /// of that kind that the last build did not use.
    pub(crate) fn next_build(&self, limit: usize) {
        let last = self.build.load(Ordering::Relaxed);
        fn prune<T>(table: &RwLock<Kept<T>>, limit: usize, last: u64) {
            if let Ok(mut t) = table.write() {
                if t.len() > limit {
                    t.retain(|_, (_, used)| *used.get_mut() == last);
                }
            }
        }
        prune(&self.unburied, limit, last);
        prune(&self.bases, limit, last);
        prune(&self.groups, limit, last);
        prune(&self.pieces, limit, last);
        prune(&self.stitched, limit, last);
        prune(&self.overlaps, limit, last);
        self.build.store(last + 1, Ordering::Relaxed);
    }
}

/// The tables of [`Memo`], to pick one for [`Memo::get`] and [`Memo::keep`].
fn unburied_of(m: &Memo) -> &RwLock<Kept<Unburied>> {
    &m.unburied
}

fn bases_of(m: &Memo) -> &RwLock<Kept<JunctionOut>> {
    &m.bases
}

fn groups_of(m: &Memo) -> &RwLock<Kept<Polygon>> {
    &m.groups
}

fn pieces_of(m: &Memo) -> &RwLock<Kept<Polygon>> {
    &m.pieces
}

fn stitched_of(m: &Memo) -> &RwLock<Kept<Polygon>> {
    &m.stitched
}

fn overlaps_of(m: &Memo) -> &RwLock<Kept<bool>> {
    &m.overlaps
}

/// Every input of a road piece's surface in [`piece_surface`], as bits: the ends along the
/// edge, the half width, the caps, the tolerance and the edge's line (its arc lengths follow
/// from its points).
fn piece_key(line: &Line, a: f64, b: f64, half: f64, caps: [bool; 2], tolerance: f64) -> Vec<u64> {
    let mut k = Vec::with_capacity(6 + 3 * line.pts.len());
    k.extend([a.to_bits(), b.to_bits(), half.to_bits(), tolerance.to_bits()]);
    k.push(u64::from(caps[0]) | u64::from(caps[1]) << 1);
    k.push(line.pts.len() as u64);
    k.extend(line.pts.iter().flat_map(|p| [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()]));
    k
}

/// The surface of a road piece between `a` and `b` along `line` (not a whole loop), capped at
/// a dead end: kept in the memo, since a window builds again the pieces of roads that did not
/// change (their strips and validity checks were about 3 % of the instructions of a median
/// liege_center update).
fn piece_surface(
    line: &Line,
    (a, b): (f64, f64),
    half: f64,
    caps: [bool; 2],
    tolerance: f64,
    memo: Option<&Memo>,
) -> Polygon {
    let make = || clean_polygon(strip_capped(line, a, b, half, caps, tolerance));
    let Some(memo) = memo else { return make() };
    let key = piece_key(line, a, b, half, caps, tolerance);
    if let Some(hit) = memo.get(pieces_of, &key) {
        return hit;
    }
    let polygon = make();
    memo.keep(pieces_of, key, polygon.clone());
    polygon
}

/// A polygon's points as bits, for a memo key: its number of holes, then each ring (exterior
/// first) as its length and its points.
fn push_polygon(k: &mut Vec<u64>, p: &Polygon) {
    k.push(p.holes.len() as u64);
    for r in std::iter::once(&p.exterior).chain(&p.holes) {
        k.push(r.len() as u64);
        k.extend(r.iter().flat_map(|v| [v.x.to_bits(), v.y.to_bits()]));
    }
}

/// Every input of the union of a group's surface in [`group_polygons`], as bits: its bases'
/// surfaces and, for each edge between them, the road's width, the two setbacks and the line.
fn group_key(polys: &[&Polygon], edges: &[usize], g: &Graph, setback: &[[f64; 2]]) -> Vec<u64> {
    let mut k = Vec::new();
    k.push(polys.len() as u64);
    for p in polys {
        push_polygon(&mut k, p);
    }
    k.push(edges.len() as u64);
    for &ei in edges {
        let e = &g.edges[ei];
        k.extend([g.roads[e.road].width.to_bits(), setback[ei][0].to_bits(), setback[ei][1].to_bits()]);
        k.push(e.line.pts.len() as u64);
        k.extend(e.line.pts.iter().flat_map(|p| [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()]));
    }
    k
}

/// Every input of [`compute_base`] for one base, as bits (road ids as bytes: diagnostics name
/// them).
fn base_key(g: &Graph, base: &Base) -> Vec<u64> {
    let center = mean(base.nodes.iter().map(|&n| g.nodes[n].pos));
    let mut k = vec![center.x.to_bits(), center.y.to_bits(), base.arms.len() as u64];
    let line = |k: &mut Vec<u64>, pts: &[crate::types::Point3]| {
        k.push(pts.len() as u64);
        k.extend(pts.iter().flat_map(|p| [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()]));
    };
    for a in &base.arms {
        let e = &g.edges[a.edge];
        let road = &g.roads[e.road];
        k.extend([u64::from(a.at_start), road.width.to_bits(), road.corner_radius.to_bits()]);
        k.push(road.id.len() as u64);
        k.extend(road.id.bytes().map(u64::from));
        line(&mut k, &e.line.pts);
    }
    k.push(base.inner.len() as u64);
    for &ei in &base.inner {
        let e = &g.edges[ei];
        k.push(g.roads[e.road].width.to_bits());
        line(&mut k, &e.line.pts);
    }
    k
}

/// Every input of [`unbury_mouths`] for one group, as bits.
fn unbury_key(g: &Graph, group: &Group, setback: &[[f64; 2]]) -> Vec<u64> {
    let mut k = Vec::new();
    push_polygon(&mut k, &group.polygon);
    k.push(group.arms.len() as u64);
    for a in &group.arms {
        let e = &g.edges[a.edge];
        let end = if a.at_start { 0 } else { 1 };
        let far = if a.at_start { e.n1 } else { e.n0 };
        k.extend([u64::from(a.at_start), u64::from(far.is_some()), g.roads[e.road].width.to_bits()]);
        k.extend([setback[a.edge][end].to_bits(), e.line.pts.len() as u64]);
        k.extend(e.line.pts.iter().flat_map(|p| [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()]));
    }
    k
}

/// In a junction made of several bases, one base's surface may cover the mouth of another
/// base's arm (and a junction built from the union of its arms may cover one of its own
/// mouths). Such an arm is set back further, to where both its mouth corners are out of the
/// junction's surface, and the stretch of carriageway it gave up joins the junction, so that
/// every mouth lies on the junction's outline.
///
/// Works on the groups in `only` (every group without it); returns what each group it worked
/// on covered before.
fn unbury_mouths(
    g: &Graph,
    layout: &mut Layout,
    settings: &Settings,
    only: Option<&BTreeSet<usize>>,
    memo: Option<&Memo>,
) -> (BTreeMap<usize, Polygon>, BTreeSet<usize>) {
    let snap = mouth_snap(settings);
    let inside = |poly: &Polygon, q: Point| buried_in(poly, q, snap);
    // Groups are independent (an arm's end belongs to one group): each works on its own and
    // reports the setbacks it moved.
    let setback = &layout.setback;
    let todo: Vec<(&usize, &Group)> = match only {
        Some(o) => o.iter().filter_map(|r| layout.groups.get_key_value(r)).collect(),
        None => layout.groups.iter().collect(),
    };
    let results: Vec<(usize, Polygon, Moved, Vec<usize>)> = todo
        .into_par_iter()
        .map(|(&root, group)| {
            let arms = &group.arms;
            let end_of = |a: &ArmRef| if a.at_start { 0 } else { 1 };
            // A group whose mouths are all clear (the test of the march's first round) has
            // nothing to march and nothing kept in the memo: its key, which holds every point of
            // its arms, is not worth making.
            let clear = arms.iter().all(|a| {
                let e = &g.edges[a.edge];
                let (line, half) = (arm_line(g, *a), 0.5 * g.roads[e.road].width);
                let s = setback[a.edge][end_of(a)];
                [Side::Left, Side::Right].iter().all(|&side| !inside(&group.polygon, offset_at(&line, s, half, side)))
            });
            let key = memo.filter(|_| !clear).map(|_| unbury_key(g, group, setback));
            if let Some(hit) = memo.zip(key.as_ref()).and_then(|(m, k)| m.get(unburied_of, k)) {
                let moved = hit.moved.iter().map(|&(i, s)| (arms[i].edge, end_of(&arms[i]), s)).collect();
                let stuck = hit.stuck.iter().map(|&i| arms[i].edge).collect();
                return (root, hit.polygon, moved, stuck);
            }
            // Every stretch the march gives up is first kept apart and tested point by point,
            // and joins the surface in one union at the end; where that union loses a new mouth
            // corner (a stretch folded over itself), the march is made again with a union after
            // every move, which can decline such a move.
            let (polygon, moved) = if clear {
                (group.polygon.clone(), Vec::new())
            } else {
                march_mouths(g, group, setback, settings, false)
                    .or_else(|| march_mouths(g, group, setback, settings, true))
                    .unwrap_or_else(|| (group.polygon.clone(), Vec::new()))
            };
            // Arms whose mouth is still buried where the march had to stop, halfway to the
            // junction at their other end.
            let stuck: Vec<usize> = arms
                .iter()
                .filter(|a| {
                    let e = &g.edges[a.edge];
                    let end = if a.at_start { 0 } else { 1 };
                    if (if a.at_start { e.n1 } else { e.n0 }).is_none() {
                        return false;
                    }
                    // Most mouths are nowhere near halfway: only those are looked at again.
                    let s = setback_after(setback, &moved, a.edge, end);
                    if s < 0.5 * e.line.length() * (1.0 - HALFWAY_SHARE) {
                        return false;
                    }
                    let line = arm_line(g, **a);
                    let half = 0.5 * g.roads[e.road].width;
                    s >= 0.5 * line.length()
                        && [Side::Left, Side::Right]
                            .iter()
                            .any(|&side| inside(&polygon, offset_at(&line, s, half, side)))
                })
                .map(|a| a.edge)
                .collect();
            if let Some((m, k)) = memo.zip(key) {
                // Only work that was worth keeping: a group whose mouths were all clear costs
                // two point tests per arm.
                if !moved.is_empty() || !stuck.is_empty() || polygon != group.polygon {
                    let arm = |edge: usize, end: usize| arms.iter().position(|a| a.edge == edge && end_of(a) == end);
                    let moved_arms = moved.iter().filter_map(|&(e, end, s)| arm(e, end).map(|i| (i, s))).collect();
                    let stuck_arms = arms.iter().enumerate().filter(|(_, a)| stuck.contains(&a.edge)).map(|(i, _)| i);
                    let u = Unburied { polygon: polygon.clone(), moved: moved_arms, stuck: stuck_arms.collect() };
                    m.keep(unburied_of, k, u);
                }
            }
            (root, polygon, moved, stuck)
        })
        .collect();
    let mut before = BTreeMap::new();
    let mut stuck = BTreeSet::new();
    for (root, polygon, moved, edges) in results {
        for (edge, end, s) in moved {
            layout.setback[edge][end] = s;
        }
        if let Some(gr) = layout.groups.get_mut(&root) {
            before.insert(root, std::mem::replace(&mut gr.polygon, polygon));
        }
        stuck.extend(edges);
    }
    (before, stuck)
}

/// The march of one group's buried mouths for [`unbury_mouths`]: the group's surface with the
/// stretches its arms gave up, and the setbacks moved, in order.
///
/// A stretch given to the junction may bury another arm's mouth, so the march goes round until
/// no mouth is buried, at most once per arm: roads drawn on top of each other bury each other's
/// mouths in turn, a step per round, and are left overlapping. With `each_move`, every stretch
/// joins the surface (a union) before the next mouth is tested, and a move whose new corners
/// that union loses is not made. Without it, the stretches are kept apart and tested point by
/// point ([`Cover`]) and join the surface in one union at the end; `None` when that union loses
/// a new mouth corner.
fn march_mouths(
    g: &Graph,
    group: &Group,
    setback: &[[f64; 2]],
    settings: &Settings,
    each_move: bool,
) -> Option<(Polygon, Moved)> {
    let snap = mouth_snap(settings);
    let arms = &group.arms;
    let mut cover = Cover::new(group.polygon.clone());
    let mut moved: Moved = Vec::new();
    // Arms whose move was not made (see below): the same march would come out the same.
    let mut declined: Vec<ArmRef> = Vec::new();
    let lines: Vec<Line> = arms.iter().map(|a| arm_line(g, *a)).collect();
    // Without `each_move` the parts only grow: a mouth found clear stays clear until a part
    // added since lies near one of its corners (a corner's test reads only the parts near it).
    // Per arm, where its mouth was last found clear and how many parts there were then.
    let mut clear_at: Vec<Option<(f64, usize)>> = vec![None; arms.len()];
    // The first round would find every mouth clear and end the march.
    let mut changed = true;
    let mut rounds = 0usize;
    while changed && rounds <= arms.len() {
        changed = false;
        rounds += 1;
        for (i, (a, line)) in arms.iter().zip(&lines).enumerate() {
            if declined.contains(a) {
                continue;
            }
            let e = &g.edges[a.edge];
            let half = 0.5 * g.roads[e.road].width;
            let end = if a.at_start { 0 } else { 1 };
            let s0 = setback_after(setback, &moved, a.edge, end);
            if let Some((at, parts)) = clear_at[i] {
                if at == s0
                    && mouth_corners(line, s0, half).iter().all(|&q| cover.near_since(parts, q, snap).next().is_none())
                {
                    continue;
                }
            }
            let s = march_out(g, *a, line, s0, &cover, settings);
            if s <= s0 {
                if !each_move {
                    clear_at[i] = Some((s0, cover.parts.len()));
                }
                continue;
            }
            // The stretch's carriageway: one ring, or where the arm turns so sharply that a curb
            // folds, the parts whose union it is (a folded ring would count some of its area
            // negatively in the union and cut it out of the surface).
            let stretch = strip_parts(line, (s0, s), half, COINCIDENT_SHARE * settings.tolerance, [false, false]);
            let pieces = polygons_of(&stretch);
            if pieces.is_empty() {
                moved.push((a.edge, end, s));
                continue;
            }
            if each_move {
                let grown = junction_surface(&[shape(cover.base()), stretch], settings);
                // Where the arm turns sharply at the new mouth the stretch can fold over itself,
                // and the union lose the part that holds a new corner: the mouth would end off
                // the surface. Such a move is not made.
                if mouth_corners(line, s, half).iter().any(|&q| !covers(&grown, q, snap)) {
                    declined.push(*a);
                    continue;
                }
                cover = Cover::new(grown);
            } else {
                pieces.into_iter().for_each(|p| cover.add(p));
            }
            moved.push((a.edge, end, s));
            changed = true;
        }
    }
    if cover.parts.len() == 1 {
        return cover.parts.pop().map(|(base, _)| (base, moved));
    }
    let mut shapes = vec![shape(cover.base())];
    shapes.extend(cover.parts[1..].iter().map(|(p, _)| shape(p)));
    let grown = junction_surface(&shapes, settings);
    // Every mouth that moved has both its new corners on the joined surface.
    let held = arms.iter().zip(&lines).all(|(a, line)| {
        let end = if a.at_start { 0 } else { 1 };
        let s = setback_after(setback, &moved, a.edge, end);
        let half = 0.5 * g.roads[g.edges[a.edge].road].width;
        s == setback[a.edge][end] || mouth_corners(line, s, half).iter().all(|&q| covers(&grown, q, snap))
    });
    held.then_some((grown, moved))
}

/// Contours whose sum under the non-zero rule is a region (outer rings counter-clockwise, each
/// followed by its holes, clockwise; as `strip_parts` gives them) as polygons, rings of fewer
/// than three points left out.
fn polygons_of(contours: &[Contour]) -> Vec<Polygon> {
    let mut out: Vec<Polygon> = Vec::new();
    for c in contours {
        let ring: Vec<Point> = c.iter().map(|p| Point::new(p[0], p[1])).collect();
        if ring.len() < 3 {
            continue;
        }
        match out.last_mut() {
            Some(p) if ring_area(&ring) < 0.0 => p.holes.push(ring),
            _ => out.push(Polygon { exterior: ring, holes: Vec::new() }),
        }
    }
    out
}

/// A junction's surface and the stretches of carriageway its buried mouths gave up, not yet
/// joined to it: a point is buried in their union where it lies further than the snap inside
/// one of them, or inside one of them near its outline with every point of a circle of the
/// snap's radius around it covered by some of them ([`DISC_SAMPLES`] points). Each part keeps
/// its box, so that a point is tested only against the parts whose box holds it.
struct Cover {
    parts: Vec<(Polygon, crate::blocks::Bbox)>,
}

/// Points on the circle around a mouth corner that [`Cover`] tests where the corner lies
/// inside one of its parts near that part's outline and within the box of another.
const DISC_SAMPLES: usize = 16;

impl Cover {
    fn new(base: Polygon) -> Self {
        let b = crate::blocks::polygon_box(&base);
        Cover { parts: vec![(base, b)] }
    }

    fn base(&self) -> &Polygon {
        &self.parts[0].0
    }

    fn add(&mut self, stretch: Polygon) {
        let b = crate::blocks::polygon_box(&stretch);
        self.parts.push((stretch, b));
    }

    /// The parts whose box, grown by `snap`, holds `q`.
    fn near(&self, q: Point, snap: f64) -> impl Iterator<Item = &Polygon> {
        self.near_since(0, q, snap)
    }

    /// The parts from the `from`th on whose box, grown by `snap`, holds `q`, the newest first:
    /// a corner buried by a stretch is most often buried by the last, and a stretch is tested
    /// in a few steps where the surface takes one per outline edge.
    fn near_since(&self, from: usize, q: Point, snap: f64) -> impl Iterator<Item = &Polygon> {
        self.parts[from.min(self.parts.len())..]
            .iter()
            .rev()
            .filter(move |(_, (lo, hi))| {
                lo[0] - snap <= q.x && q.x <= hi[0] + snap && lo[1] - snap <= q.y && q.y <= hi[1] + snap
            })
            .map(|(p, _)| p)
    }

    fn buried(&self, q: Point, snap: f64) -> bool {
        let mut near = 0usize;
        for p in self.near(q, snap) {
            if buried_in(p, q, snap) {
                return true;
            }
            near += 1;
        }
        if near < 2 {
            return false;
        }
        let covered = |p: Point| self.near(q, snap).any(|x| crate::validate::point_in_polygon(p, x));
        covered(q)
            && (0..DISC_SAMPLES).all(|i| {
                let t = std::f64::consts::TAU * i as f64 / DISC_SAMPLES as f64;
                covered(Point::new(q.x + snap * t.cos(), q.y + snap * t.sin()))
            })
    }

    /// How far a corner at `q` can move along `u` before it may come out: until it comes
    /// within `r` of the outline of a part it lies deep inside (0 where it lies deep in none).
    fn clear_run(&self, q: Point, u: Point, snap: f64, r: f64) -> f64 {
        self.near(q, snap).filter(|p| buried_in(p, q, snap)).map(|p| first_approach(q, u, p, r)).fold(0.0, f64::max)
    }
}

/// Where the mouth of arm `a` (`line` its centerline from the junction, the mouth now at `s0`)
/// comes out of `cover`: marched out along the arm in steps of the flattening tolerance while
/// a mouth corner lies buried in it, at most to the arm's end (or its middle when another
/// junction waits there). `s0` when the mouth is not buried.
fn march_out(g: &Graph, a: ArmRef, line: &Line, s0: f64, cover: &Cover, settings: &Settings) -> f64 {
    let snap = mouth_snap(settings);
    let e = &g.edges[a.edge];
    let half = 0.5 * g.roads[e.road].width;
    let buried = |s: f64| {
        cover.buried(offset_at(line, s, half, Side::Left), snap)
            || cover.buried(offset_at(line, s, half, Side::Right), snap)
    };
    if !buried(s0) {
        return s0;
    }
    let len = line.length();
    let far = if (if a.at_start { e.n1 } else { e.n0 }).is_some() { 0.5 * len } else { len };
    let step = settings.tolerance;
    let mut s = s0;
    while s < far && buried(s) {
        // Within one segment of the arm a mouth corner moves in a straight line, exactly as
        // far as `s` does. A corner deep in a part stays buried until it comes within `snap`
        // of that part's outline: take the steps before that without testing them (the same
        // additions as one by one, so the same `s` comes out), then test again.
        let k = line.segment_at(s);
        let u = line.dir(k);
        let clear =
            mouth_corners(line, s, half).iter().map(|&q| cover.clear_run(q, u, snap, 2.0 * snap)).fold(0.0, f64::max);
        let segment_end = line.cum.get(k + 1).copied().unwrap_or(far);
        let from = s;
        s = (s + step).min(far);
        // A skip of millions of steps (roads of thousands of kilometres) jumps by one
        // multiplication to just short of its end, then adds the rest.
        let limit = far.min(segment_end).min(from + clear);
        let steps = ((limit - s) / step).floor();
        if steps > MARCH_ADDITIONS {
            s += (steps - MARCH_ADDITIONS) * step;
        }
        while s < far && s < segment_end && s - from < clear {
            s = (s + step).min(far);
        }
    }
    s
}

/// How close to a junction's outline a mouth corner counts as on it (metres). A fallback
/// outline's corner patches are grown by a hair (`junction::grown_by_a_hair`, `COINCIDENT_SHARE`
/// × tolerance), and so may be parts that only touched the rest: a corner within twice that of
/// the outline is on it, whichever way the rounding went.
fn mouth_snap(settings: &Settings) -> f64 {
    2.0 * COINCIDENT_SHARE * settings.tolerance
}

/// The two corners of a mouth at arc length `s` of an arm's `line` (left, right).
fn mouth_corners(line: &Line, s: f64, half: f64) -> [Point; 2] {
    [Side::Left, Side::Right].map(|side| offset_at(line, s, half, side))
}

/// Setbacks moved by [`unbury_mouths`]: (edge, end, new setback), in order.
type Moved = Vec<(usize, usize, f64)>;

/// The setback of `edge`'s `end` after the moves in `moved` (its last one), else as in `setback`.
fn setback_after(setback: &[[f64; 2]], moved: &[(usize, usize, f64)], edge: usize, end: usize) -> f64 {
    moved.iter().rev().find(|m| m.0 == edge && m.1 == end).map_or(setback[edge][end], |m| m.2)
}

/// Whether `q` lies inside `poly` or within `snap` of its outline.
fn covers(poly: &Polygon, q: Point, snap: f64) -> bool {
    crate::validate::point_in_polygon(q, poly)
        || std::iter::once(&poly.exterior)
            .chain(poly.holes.iter())
            .any(|r| (0..r.len()).any(|i| crate::geom::project_on_segment(q, r[i], r[(i + 1) % r.len()]).1 <= snap))
}

/// Whether `q` lies inside `poly` further than `snap` from its outline (a mouth corner on the
/// outline is not buried).
fn buried_in(poly: &Polygon, q: Point, snap: f64) -> bool {
    // Most points tested are mouth corners on the outline, which the distances rule out
    // before the whole outline is walked.
    std::iter::once(&poly.exterior)
        .chain(poly.holes.iter())
        .all(|r| ring_edges(r).all(|(&a, &b)| crate::geom::project_on_segment(q, a, b).1 > snap))
        && crate::validate::point_in_polygon(q, poly)
}

/// The edges of a closed ring, in order: each vertex with the next, the last with the first.
fn ring_edges(r: &[Point]) -> impl Iterator<Item = (&Point, &Point)> {
    r.iter().zip(r.iter().skip(1).chain(r.first()))
}

/// Steps of a buried mouth's march that are taken by repeated addition (as one by one, so the
/// same position comes out) before a longer skip jumps by a multiplication instead.
const MARCH_ADDITIONS: f64 = 65_536.0;

/// How far a point moving from `a` in the unit direction `u` goes before it first comes within
/// `r` of the outline of `poly` (infinity if it never does): the first entry of the ray into the
/// capsule of radius `r` around any edge. A capsule is entered through one of its two end
/// circles or through one of its long sides, so the first entry is the smallest of those.
fn first_approach(a: Point, u: Point, poly: &Polygon, r: f64) -> f64 {
    let circle = |c: Point| {
        let w = a.sub(c);
        let b = u.dot(w);
        let disc = b * b - (w.dot(w) - r * r);
        if disc < 0.0 {
            return f64::INFINITY;
        }
        let t = -b - disc.sqrt();
        if t >= 0.0 {
            t
        } else if -b + disc.sqrt() >= 0.0 {
            0.0 // already inside the circle
        } else {
            f64::INFINITY
        }
    };
    let side = |e: Point, f: Point| {
        let len = e.dist(f);
        if !(len > 0.0) {
            return f64::INFINITY;
        }
        let dir = f.sub(e).scale(1.0 / len);
        let n = dir.perp();
        let (h, v) = (n.dot(a.sub(e)), n.dot(u));
        let t = if h.abs() <= r {
            0.0
        } else if h > 0.0 && v < 0.0 {
            (r - h) / v
        } else if h < 0.0 && v > 0.0 {
            (-r - h) / v
        } else {
            return f64::INFINITY;
        };
        let along = a.add(u.scale(t)).sub(e).dot(dir);
        if (0.0..=len).contains(&along) {
            t
        } else {
            f64::INFINITY
        }
    };
    std::iter::once(&poly.exterior)
        .chain(poly.holes.iter())
        .flat_map(|ring| (0..ring.len()).map(move |i| (ring[i], ring[(i + 1) % ring.len()])))
        .map(|(e, f)| circle(e).min(side(e, f)))
        .fold(f64::INFINITY, f64::min)
}

/// The edges joining two different bases of one group lie inside the group.
fn group_internal(g: &Graph, base_root: &[usize], guf: &mut UnionFind, base_internal: &[bool]) -> Vec<bool> {
    g.edges
        .iter()
        .enumerate()
        .map(|(ei, e)| {
            base_internal[ei]
                || match (e.n0, e.n1) {
                    (Some(a), Some(b)) => {
                        let (ra, rb) = (base_root[a], base_root[b]);
                        ra != rb && guf.find(ra) == guf.find(rb)
                    }
                    _ => false,
                }
        })
        .collect()
}

/// A group's bases (by root) and the edges that join them.
type GroupMembers = (Vec<usize>, Vec<usize>);

/// Group surfaces by the roots of their bases (ascending), kept between the rounds of
/// [`settle_junctions`].
type GroupSurfaces = HashMap<Vec<usize>, Polygon, rustc_hash::FxBuildHasher>;

/// The surface of every group: a base's outline, or for a group of several bases the union of
/// their outlines and of the edges that join them (holes kept where they are blocks). Each
/// surface is kept in `cache` under the group's bases; what is returned is, by group, that key
/// (a group that did not change since an earlier round finds its surface there, not a copy of
/// it), and the groups whose surfaces were made in this call.
#[allow(clippy::too_many_arguments)]
fn group_polygons(
    g: &Graph,
    bases: &Bases,
    base_root: &[usize],
    guf: &mut UnionFind,
    base_internal: &[bool],
    setback: &[[f64; 2]],
    settings: &Settings,
    cache: &mut GroupSurfaces,
    memo: Option<&Memo>,
) -> (BTreeMap<usize, Vec<usize>>, BTreeSet<usize>) {
    let internal = group_internal(g, base_root, guf, base_internal);
    let mut members: BTreeMap<usize, GroupMembers> = BTreeMap::new();
    for &r in &bases.roots {
        members.entry(guf.find(r)).or_default().0.push(r);
    }
    for (ei, e) in g.edges.iter().enumerate() {
        if internal[ei] && !base_internal[ei] {
            if let Some(a) = e.n0 {
                members.entry(guf.find(base_root[a])).or_default().1.push(ei);
            }
        }
    }
    let (known, todo): (Vec<_>, Vec<_>) = members.into_iter().partition(|(_, (brs, _))| cache.contains_key(brs));
    let fresh: BTreeSet<usize> = todo.iter().map(|(gr, _)| *gr).collect();
    let computed: Vec<(usize, Vec<usize>, Polygon)> = todo
        .into_par_iter()
        .map(|(gr, (brs, edges))| {
            let polys: Vec<&Polygon> = brs.iter().filter_map(|&r| bases.out(r)).map(|o| &o.polygon).collect();
            if brs.len() == 1 && edges.is_empty() {
                let poly = polys.first().map(|p| (*p).clone()).unwrap_or_default();
                return (gr, brs, poly);
            }
            let key = memo.map(|_| group_key(&polys, &edges, g, setback));
            if let Some(hit) = memo.zip(key.as_ref()).and_then(|(m, k)| m.get(groups_of, k)) {
                return (gr, brs, hit);
            }
            // Each base as one shape (outer ring, then its holes), all edge strips as more.
            let mut shapes_in: Vec<Vec<Vec<[f64; 2]>>> = polys
                .iter()
                .filter(|p| p.exterior.len() >= 3)
                .map(|p| {
                    std::iter::once(ccw_contour(&p.exterior))
                        .chain(p.holes.iter().map(|h| h.iter().map(|q| [q.x, q.y]).collect()))
                        .collect()
                })
                .collect();
            // The part of each edge between the two mouths, overlapping them a little so the
            // union is one piece; where `parted`, an edge whose one ring does not hold its
            // carriageway as the parts of `strip_parts`: a curb that folds, or a ring that
            // crosses itself (an end on a sharp vertex takes the next segment's cross-section),
            // whose lobe of the wrong sign takes away what it overlaps under the non-zero rule.
            // Also says whether some edge came as parts.
            let strips = |parted: bool| {
                let mut parts: Vec<Vec<[f64; 2]>> = Vec::new();
                let mut split = false;
                for &ei in &edges {
                    let e = &g.edges[ei];
                    let (a, b) = (setback[ei][0], e.line.length() - setback[ei][1]);
                    let (a, b) = if b > a { (a, b) } else { (0.0, e.line.length()) };
                    let half = 0.5 * g.roads[e.road].width;
                    let r = strip(&e.line, a, b, half);
                    if parted && !strip_is_plain(&e.line, (a, b), half, &r) {
                        split = true;
                        let overlap = COINCIDENT_SHARE * settings.tolerance;
                        parts.extend(strip_parts(&e.line, (a, b), half, overlap, [false, false]));
                        continue;
                    }
                    if r.len() >= 3 {
                        parts.push(ccw_contour(&r));
                    }
                }
                (parts.into_iter().map(|c| vec![c]), split)
            };
            let bases_in = shapes_in.len();
            shapes_in.extend(strips(false).0);
            let empty: Vec<Contour> = Vec::new();
            let mut union = crate::overlay::overlay(&shapes_in, &empty, OverlayRule::Subject, FillRule::NonZero);
            if union.len() > 1 {
                // Fallen apart: a strip that folds or crosses itself may have left two bases
                // apart (where none does, the union would come out the same).
                let (parted, split) = strips(true);
                if split {
                    shapes_in.truncate(bases_in);
                    shapes_in.extend(parted);
                    let again = crate::overlay::overlay(&shapes_in, &empty, OverlayRule::Subject, FillRule::NonZero);
                    if again.len() < union.len() {
                        union = again;
                    }
                }
            }
            let poly = surface_of(union, settings);
            if let Some((m, k)) = memo.zip(key) {
                m.keep(groups_of, k, poly.clone());
            }
            (gr, brs, poly)
        })
        .collect();
    let mut out: BTreeMap<usize, Vec<usize>> = known.into_iter().map(|(gr, (brs, _))| (gr, brs)).collect();
    for (gr, brs, poly) in computed {
        cache.insert(brs.clone(), poly);
        out.insert(gr, brs);
    }
    (out, fresh)
}

fn finish_layout(
    g: &Graph,
    bases: &Bases,
    base_root: &[usize],
    guf: &mut UnionFind,
    base_internal: Vec<bool>,
    setback: Vec<[f64; 2]>,
    mut polys: BTreeMap<usize, Polygon>,
) -> Layout {
    let internal = group_internal(g, base_root, guf, &base_internal);
    let group_of: Vec<usize> = base_root.iter().map(|&r| guf.find(r)).collect();
    let mut groups: BTreeMap<usize, Group> = BTreeMap::new();
    for (r, b) in bases.roots.iter().zip(&bases.members) {
        let gr = guf.find(*r);
        let entry = groups.entry(gr).or_insert_with(|| Group {
            nodes: Vec::new(),
            arms: Vec::new(),
            inner: Vec::new(),
            polygon: polys.remove(&gr).unwrap_or_default(),
        });
        entry.nodes.extend(b.nodes.iter().copied());
        entry.arms.extend(b.arms.iter().copied().filter(|a| !internal[a.edge]));
        entry.inner.extend(b.inner.iter().copied());
    }
    for (ei, e) in g.edges.iter().enumerate() {
        if internal[ei] && !base_internal[ei] {
            if let Some(n) = e.n0 {
                if let Some(gr) = groups.get_mut(&group_of[n]) {
                    gr.inner.push(ei);
                }
            }
        }
    }
    Layout { group_of, groups, internal, setback }
}

/// The mean of some points, summed in a fixed order (by x, then y) so that it does not depend
/// on the order the points come in (node numbering depends on which roads are built together).
fn mean(pts: impl Iterator<Item = Point>) -> Point {
    let mut v: Vec<Point> = pts.collect();
    v.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    let (mut x, mut y, mut n) = (0.0, 0.0, 0.0);
    for p in v {
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

/// Both outlines of a pair that [`overlapping`] tests, as bits.
fn pair_key(p: &Polygon, q: &Polygon) -> Vec<u64> {
    let mut k = Vec::new();
    push_polygon(&mut k, p);
    push_polygon(&mut k, q);
    k
}

/// Pairs (by index) of polygons whose interiors overlap, among the pairs where at least one
/// polygon is `changed`.
fn overlapping(polys: &[&Polygon], changed: &[bool], memo: Option<&Memo>) -> Vec<(usize, usize)> {
    // Nothing changed (a missing flag counts as changed): no pair to test.
    if changed.len() >= polys.len() && !changed.iter().any(|&c| c) {
        return Vec::new();
    }
    let boxes: Vec<Option<AABB<[f64; 2]>>> = polys.par_iter().map(|p| bbox(&p.exterior)).collect();
    let is_changed = |i: usize| changed.get(i).copied().unwrap_or(true);
    // Whether the interiors of polygon `i` (changed) and `j` overlap; `own` holds `i`'s outline
    // for the test once made.
    let meet = |i: usize, j: usize, own: &mut Option<Vec<Contour>>| {
        let (p, q) = (polys[i], polys[j]);
        let (Some(bp), Some(bq)) = (boxes[i], boxes[j]) else { return false };
        if p.exterior.len() < 3 || q.exterior.len() < 3 || apart_in_common_box(p, bp, q, bq) {
            return false;
        }
        let mut test = || own.get_or_insert_with(|| shape(p)).interiors_intersect(&shape(q));
        match memo {
            Some(m) => {
                let key = pair_key(p, q);
                m.get(overlaps_of, &key).unwrap_or_else(|| {
                    let meet = test();
                    m.keep(overlaps_of, key, meet);
                    meet
                })
            }
            None => test(),
        }
    };
    // Every pair with a changed polygon is tested from that polygon (from the first one when
    // both changed).
    let pairs: Vec<Vec<(usize, usize)>> = if (0..polys.len()).filter(|&i| is_changed(i)).count() <= FEW_CHANGED {
        // With few changed polygons, their boxes compared with every box.
        polys
            .par_iter()
            .enumerate()
            .filter(|&(i, _)| is_changed(i))
            .map(|(i, _)| {
                let Some(b) = boxes[i] else { return Vec::new() };
                let mut own = None;
                (0..boxes.len())
                    .filter(|&j| j != i && !(j < i && is_changed(j)))
                    .filter(|&j| boxes[j].is_some_and(|bj| bj.intersects(&b)))
                    .filter(|&j| meet(i, j, &mut own))
                    .map(|j| (i.min(j), i.max(j)))
                    .collect()
            })
            .collect()
    } else {
        // The pairs whose boxes meet (touching boxes do), each tested from its first polygon
        // when that changed, else from the second.
        let empty = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        let corners: Vec<crate::graph::Box2> =
            boxes.iter().map(|b| b.map_or(empty, |b| (b.lower(), b.upper()))).collect();
        let meeting = crate::graph::meeting_from(&corners);
        (0..polys.len())
            .into_par_iter()
            .map(|a| {
                let mut own = None;
                let mut out = Vec::new();
                for &b in meeting.of(a).iter().filter(|&&b| b != a) {
                    let found =
                        if is_changed(a) { meet(a, b, &mut own) } else { is_changed(b) && meet(b, a, &mut None) };
                    if found {
                        out.push((a, b));
                    }
                }
                out
            })
            .collect()
    };
    let mut pairs: Vec<(usize, usize)> = pairs.into_iter().flatten().collect();
    pairs.sort_unstable();
    pairs
}

/// Most changed polygons for which [`overlapping`] compares boxes pair by pair rather than
/// through a tree of all boxes: an incremental update changes a handful of surfaces among
/// hundreds, and a tree is worth building only when many polygons look for neighbours.
const FEW_CHANGED: usize = 64;

/// Whether `p` and `q` are certainly apart: where their boxes meet (grown by a margin far
/// beyond what the polygon library's rounding moves a point: [`APART_MARGIN`], or
/// [`APART_SHARE`] of the pair's extent when that is more), one of them has no edge and no
/// area. `bp` and `bq` are the boxes around their exteriors.
fn apart_in_common_box(p: &Polygon, bp: AABB<[f64; 2]>, q: &Polygon, bq: AABB<[f64; 2]>) -> bool {
    let both = bp.merged(&bq);
    let extent = (both.upper()[0] - both.lower()[0]).max(both.upper()[1] - both.lower()[1]);
    let m = APART_MARGIN.max(APART_SHARE * extent);
    let lo = [bp.lower()[0].max(bq.lower()[0]) - m, bp.lower()[1].max(bq.lower()[1]) - m];
    let hi = [bp.upper()[0].min(bq.upper()[0]) + m, bp.upper()[1].min(bq.upper()[1]) + m];
    let empty_in = |poly: &Polygon| {
        let crosses = std::iter::once(&poly.exterior).chain(poly.holes.iter()).any(|r| {
            ring_edges(r).any(|(a, b)| {
                a.x.max(b.x) >= lo[0] && a.x.min(b.x) <= hi[0] && a.y.max(b.y) >= lo[1] && a.y.min(b.y) <= hi[1]
            })
        });
        // With no edge in the box, the box lies wholly inside or wholly outside: its corner
        // tells which.
        !crosses && !crate::validate::point_in_polygon(Point::new(lo[0], lo[1]), poly)
    };
    empty_in(p) || empty_in(q)
}

/// Least margin around the box two surfaces share in which [`apart_in_common_box`] looks for
/// their edges, metres.
const APART_MARGIN: f64 = 1e-3;

/// The margin of [`apart_in_common_box`] as a share of the two surfaces' extent: 2^-20, a
/// thousand times the grid step of the polygon library's test (its 32-bit grid spans the
/// extent in about 2^30 steps), so that huge surfaces are judged as that test judges them.
const APART_SHARE: f64 = 1.0 / (1u64 << 20) as f64;

/// How far the inputs of each junction and road piece reach, by id (see [`Extent`]). Anything
/// that can change a feature lies near its extent.
#[derive(Debug, Default)]
pub(crate) struct Extents {
    pub(crate) junctions: BTreeMap<String, Extent>,
    pub(crate) pieces: BTreeMap<String, Extent>,
}

/// Where a feature's inputs lie: boxes around every road edge it was built from and, for a
/// junction, around its surface (a junction: the box of its surface and one box per arm and
/// inner edge; a piece: one box for its edge and the boxes of its junctions' extents, each box
/// once). A piece's surface reaches half its width past its edge's box, within the reach an
/// update grows an extent by. Kept as the boxes, not the one box around them, which for a
/// junction of long arms or a long piece holds much that is neither, and would bring it into
/// an update's window.
pub(crate) type Extent = Vec<Bbox>;

/// The smallest box holding both.
pub(crate) fn union_box(a: Bbox, b: Bbox) -> Bbox {
    ([a.0[0].min(b.0[0]), a.0[1].min(b.0[1])], [a.1[0].max(b.1[0]), a.1[1].max(b.1[1])])
}

/// A box that holds nothing and meets nothing: inverted, the start of a union of boxes.
pub(crate) const EMPTY_BOX: Bbox = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);

/// The box around a polyline ([`EMPTY_BOX`] when it has no point).
pub(crate) fn line_box(pts: &[Point3]) -> Bbox {
    pts.iter().fold(EMPTY_BOX, |(lo, hi), p| ([lo[0].min(p.x), lo[1].min(p.y)], [hi[0].max(p.x), hi[1].max(p.y)]))
}

/// An edge that may give a road piece: the edge, the junction ids at its ends, where the
/// piece is cut (arc lengths along the edge) and its id before it is made unique.
type Candidate<'a> = (usize, Option<&'a String>, Option<&'a String>, f64, f64, String);

/// A road piece to build: its edge, id, the junctions at its ends, where it is cut, which of
/// its mouths stopped halfway along their arm, and how far its inputs reach.
struct PieceSpec {
    edge: usize,
    id: String,
    from: Option<String>,
    to: Option<String>,
    a: f64,
    b: f64,
    capped: [bool; 2],
    reach: Extent,
}

/// Stage 6 and the features: junctions and road pieces with their ids.
fn assemble(
    g: &Graph,
    layout: &Layout,
    settings: &Settings,
    edge_in: &dyn Fn(&crate::graph::Edge) -> bool,
    diags: &mut Vec<Diagnostic>,
    memo: Option<&Memo>,
    with_extents: bool,
) -> (Network, Extents) {
    let tolerance = settings.tolerance;
    let mut extents = Extents::default();
    // Junction ids: the smallest (road id, position) among the stops of the cluster. Each
    // junction is made in parallel; ids are made unique in group order.
    let made: Vec<(usize, String, Extent, Option<Junction>)> = layout
        .groups
        .par_iter()
        .map(|(&r, c)| {
            let mut keys: Vec<(&str, f64)> = Vec::new();
            let mut roads = BTreeSet::new();
            for a in &c.arms {
                let e = &g.edges[a.edge];
                let s = if a.at_start { e.s0 } else { e.s1 };
                let road = &g.roads[e.road];
                let s = if road.closed && s >= road.line.length() { s - road.line.length() } else { s };
                keys.push((&road.id, s));
                roads.insert(road.id.clone());
            }
            for &ei in &c.inner {
                let e = &g.edges[ei];
                keys.push((&g.roads[e.road].id, e.s0));
                roads.insert(g.roads[e.road].id.clone());
            }
            keys.sort_by(|a, b| a.0.cmp(b.0).then(a.1.total_cmp(&b.1)));
            let center = mean(c.nodes.iter().map(|&n| g.nodes[n].pos));
            let base = match keys.first() {
                Some((id, s)) => format!("j/{}/{:.2}", id, s),
                None => format!("j/@{:.2},{:.2}", center.x, center.y),
            };
            let reach: Extent = if with_extents {
                std::iter::once(polygon_box(&c.polygon))
                    .chain(
                        c.arms
                            .iter()
                            .map(|a| a.edge)
                            .chain(c.inner.iter().copied())
                            .map(|ei| line_box(&g.edges[ei].line.pts)),
                    )
                    .collect()
            } else {
                Vec::new()
            };
            let mut polygon = c.polygon.clone();
            dedup_ring(&mut polygon.exterior);
            if ring_area(&polygon.exterior) < 0.0 {
                polygon.exterior.reverse();
            }
            let junction = (polygon.exterior.len() >= 3).then(|| Junction {
                id: String::new(),
                center,
                degree: c.arms.len(),
                roads: roads.into_iter().collect(),
                polygon,
            });
            (r, base, reach, junction)
        })
        .collect();
    let mut junctions = Vec::new();
    let mut jid: BTreeMap<usize, String> = BTreeMap::new();
    let mut used = IdCounts::default();
    for (r, base, reach, junction) in made {
        let id = unique(base, &mut used);
        jid.insert(r, id.clone());
        if with_extents {
            extents.junctions.insert(id.clone(), reach);
        }
        if let Some(mut j) = junction {
            j.id = id;
            junctions.push(j);
        }
    }

    // Road pieces.
    let setback = |node: Option<usize>, a: ArmRef| -> (Option<&String>, f64) {
        let Some(n) = node else { return (None, 0.0) };
        let r = layout.group_of[n];
        let s = layout.setback[a.edge][if a.at_start { 0 } else { 1 }];
        (jid.get(&r), s)
    };
    // Each edge's ends, mouths and id base, in parallel; what needs the edges in order (ids
    // made unique, slivers taken into junctions) after.
    let candidates: Vec<Candidate> = g
        .edges
        .par_iter()
        .enumerate()
        .filter_map(|(ei, e)| {
            if layout.internal[ei] {
                return None;
            }
            let (from, sb0) = setback(e.n0, ArmRef { edge: ei, at_start: true });
            let (to, sb1) = setback(e.n1, ArmRef { edge: ei, at_start: false });
            let (a, b) = (sb0, e.line.length() - sb1);
            // Mouths that meet or overlap leave no piece between them; a piece however short
            // stays, so that no crack opens between the two junctions. At a dead end a piece
            // shorter than the coincidence distance would only be a cap on nothing.
            let dead_end = e.n0.is_none() || e.n1.is_none();
            if !(b > a) || (dead_end && b - a <= COINCIDENT_SHARE * tolerance) {
                return None;
            }
            Some((ei, from, to, a, b, format!("r/{}/{:.2}", g.roads[e.road].id, e.s0)))
        })
        .collect();
    // Each candidate's number among those of its id base (1 for the first, which keeps the
    // base as its id), or 0 for one that is not built.
    let mut number = vec![0usize; candidates.len()];
    let mut used_p: HashMap<&str, usize, rustc_hash::FxBuildHasher> = HashMap::default();
    used_p.reserve(candidates.len());
    // Junctions by id, and the box of each surface, made the first time a piece comes back to
    // its junction (few do).
    let mut junction_at: Option<(HashMap<String, usize, rustc_hash::FxBuildHasher>, Vec<Bbox>)> = None;
    for (k, &(ei, from, to, a, b, ref base)) in candidates.iter().enumerate() {
        let e = &g.edges[ei];
        let road = &g.roads[e.road];
        // A piece that leaves a junction and comes back to it, shorter than the road is wide,
        // is a sliver between two of the junction's own mouths; so is one shorter than
        // `HAIRPIN_WIDTHS` widths whose mouth corners the junction still covers (the tip of a
        // hairpin whose legs overlap up to it, where no mouth could be moved out): it becomes
        // junction surface. Decided for every edge, in focus or not, so that an update builds
        // the same outline. When the union is refused, the piece stays.
        if let Some(j) = from.filter(|j| to == Some(*j)) {
            let (at, boxes) = junction_at.get_or_insert_with(|| {
                let at = junctions.iter().enumerate().map(|(k, jn)| (jn.id.clone(), k)).collect();
                (at, junctions.par_iter().map(|jn| polygon_box(&jn.polygon)).collect())
            });
            let k = at.get(j.as_str()).copied();
            let buried = || {
                let (half, snap) = (0.5 * road.width, COINCIDENT_SHARE * tolerance);
                k.and_then(|k| junctions.get(k)).is_some_and(|jn| {
                    [a, b].iter().any(|&s| {
                        [Side::Left, Side::Right]
                            .iter()
                            .any(|&side| buried_in(&jn.polygon, offset_at(&e.line, s, half, side), snap))
                    })
                })
            };
            let absorb = b - a < road.width || (b - a < HAIRPIN_WIDTHS * road.width && buried());
            // The other junctions the sliver may reach (each took its surface apart from this
            // one's): the junction takes only what none of them covers.
            let others: Vec<Polygon> = if absorb {
                let reach = crate::blocks::grow(line_box(&e.line.pts), road.width);
                (junctions.iter().zip(boxes.iter()).enumerate())
                    .filter(|&(i, (_, &b))| Some(i) != k && crate::blocks::boxes_meet(b, reach))
                    .map(|(_, (o, _))| o.polygon.clone())
                    .collect()
            } else {
                Vec::new()
            };
            if let Some((k, jn)) = k.filter(|_| absorb).and_then(|k| Some((k, junctions.get_mut(k)?))) {
                if absorb_sliver(jn, &others, e, road, (a, b), settings, diags) {
                    if let Some(b) = boxes.get_mut(k) {
                        *b = polygon_box(&jn.polygon);
                    }
                    continue;
                }
            }
        }
        // Numbered with the others, built only when in focus.
        let n = used_p.entry(base.as_str()).or_insert(0);
        *n += 1;
        if edge_in(e) {
            number[k] = *n;
        }
    }
    let kept: Vec<_> = candidates
        .into_par_iter()
        .zip(number)
        .filter(|&(_, n)| n > 0)
        .map(|((ei, from, to, a, b, base), n)| (ei, numbered(base, n), from.cloned(), to.cloned(), a, b))
        .collect();
    let extents_j = &extents.junctions;
    let mut specs: Vec<PieceSpec> = kept
        .into_par_iter()
        .map(|(ei, id, from, to, a, b)| {
            let e = &g.edges[ei];
            let len = e.line.length();
            // The piece's edge is an arm of each of its junctions (and a piece from a junction
            // back to it meets that junction twice): each box is kept once.
            let mut reach: Extent = Vec::new();
            if with_extents {
                reach.push(line_box(&e.line.pts));
                for &b in [&from, &to].into_iter().flatten().filter_map(|j| extents_j.get(j)).flatten() {
                    if !reach.contains(&b) {
                        reach.push(b);
                    }
                }
            }
            // A mouth exactly halfway along its arm is where `unbury_mouths` stopped a march
            // that had another junction waiting at the far end, whether or not its corners
            // were out (the setback compared with half the arm's length as the march computed
            // it: the arm from the end is the reversed line, whose length may differ in the
            // last bit).
            let halfway = |sb: f64, at_start: bool| {
                (sb - 0.5 * len).abs() <= HALFWAY_SHARE * len
                    && sb == 0.5 * (if at_start { len } else { arm_line(g, ArmRef { edge: ei, at_start }).length() })
            };
            let sb1 = if e.n1.is_some() { layout.setback[ei][1] } else { 0.0 };
            let capped = [from.is_some() && halfway(a, true), to.is_some() && halfway(sb1, false)];
            PieceSpec { edge: ei, id, from, to, a, b, capped, reach }
        })
        .collect();
    if with_extents {
        for sp in &mut specs {
            extents.pieces.insert(sp.id.clone(), std::mem::take(&mut sp.reach));
        }
    }
    let capped: BTreeMap<String, [bool; 2]> =
        specs.iter().filter(|sp| sp.capped.iter().any(|&c| c)).map(|sp| (sp.id.clone(), sp.capped)).collect();
    let pieces: Vec<RoadPiece> = specs
        .into_par_iter()
        .map(|PieceSpec { edge: ei, id, from, to, a, b, .. }| {
            let e = &g.edges[ei];
            let road = &g.roads[e.road];
            let half = 0.5 * road.width;
            let whole_loop = road.closed && e.n0.is_none() && e.n1.is_none();
            let caps = [!road.closed && e.n0.is_none(), !road.closed && e.n1.is_none()];
            let polygon = if whole_loop {
                loop_polygon(&e.line, half)
            } else {
                piece_surface(&e.line, (a, b), half, caps, tolerance, memo)
            };
            (polygon.exterior.len() >= 3).then(|| RoadPiece {
                id,
                road: road.id.clone(),
                from,
                to,
                start: e.s0 + a,
                end: e.s0 + b,
                centerline: e.line.cut(a, b, COINCIDENT_SHARE * tolerance),
                width: road.width,
                profile: road.profile,
                polygon,
            })
        })
        .collect::<Vec<Option<RoadPiece>>>()
        .into_iter()
        .flatten()
        .collect();
    let mut net = Network { junctions, pieces, blocks: Vec::new(), diagnostics: Vec::new() };
    // A mouth's corners are computed along the road and along the junction's arm, which may
    // differ by up to the flattening tolerance where a mouth falls on a centerline vertex.
    stitch_mouths(&mut net, tolerance, &capped, memo);
    // Ids are unique: any sort gives the one order.
    net.junctions.par_sort_unstable_by(|a, b| a.id.cmp(&b.id));
    net.pieces.par_sort_unstable_by(|a, b| a.id.cmp(&b.id));
    (net, extents)
}

/// How close (as a share of the edge's length) a setback must be to half the edge before it
/// is compared exactly with half the arm's own length (see `assemble`): rounding of a
/// reversed line's length stays far below this.
const HALFWAY_SHARE: f64 = 1e-9;

/// A piece that leaves a junction and comes back to it with a mouth still buried in the
/// junction becomes junction surface when it is shorter than this many times the road's width
/// (the tip of a hairpin); a longer one is a stretch of road of its own, which only its ends
/// overlap.
const HAIRPIN_WIDTHS: f64 = 2.0;

/// Joins a sliver piece (the span `a..b` of edge `e`; see `assemble`) to junction `j`'s
/// outline: the union of the two, kept when it is one valid polygon, holes and all (a loop
/// that encloses a block keeps it as a hole). The part of the sliver that one of `others` (the
/// other junctions near it) covers stays theirs: where roads cross within a few metres of each
/// other, the road between two mouths of one junction can run across another. Whether it was
/// joined.
fn absorb_sliver(
    j: &mut Junction,
    others: &[Polygon],
    e: &crate::graph::Edge,
    road: &RoadLine,
    (a, b): (f64, f64),
    settings: &Settings,
    diags: &mut Vec<Diagnostic>,
) -> bool {
    let tolerance = settings.tolerance;
    let union = |a: f64, b: f64| {
        let sliver = clean_polygon(strip_capped(&e.line, a, b, 0.5 * road.width, [false, false], tolerance));
        if sliver.exterior.len() < 3 {
            return None;
        }
        let mut add = shape(&sliver);
        if !others.is_empty() {
            let taken: Vec<Vec<Contour>> = others.iter().map(shape).collect();
            add = crate::overlay::overlay(&add, &taken, OverlayRule::Difference, FillRule::NonZero)
                .into_iter()
                .flatten()
                .collect();
        }
        let parts = crate::overlay::overlay(&shape(&j.polygon), &add, OverlayRule::Union, FillRule::NonZero);
        (parts.len() == 1).then(|| largest(parts))
    };
    // Around the tip of a hairpin tighter than the road is wide, the carriageway up to a mouth
    // can fold away from the junction's surface and leave a gap: the stretch grown back into
    // the junction by the road's width on both sides bridges it.
    let Some(mut joined) =
        union(a, b).or_else(|| union((a - road.width).max(0.0), (b + road.width).min(e.line.length())))
    else {
        return false;
    };
    // Where the two met along a mouth that rounding left a hair apart, the union keeps a slit
    // of no width; its vertices go (and collinear ones with them: stitching puts the mouth
    // corners back). Holes too small for a block are junction surface, as in every junction.
    joined.holes.retain(|h| -ring_area(h) >= settings.min_block_area);
    let snap = COINCIDENT_SHARE * tolerance;
    for ring in std::iter::once(&mut joined.exterior).chain(joined.holes.iter_mut()) {
        crate::geom::simplify_ring(ring, snap * snap, snap);
    }
    if crate::validate::check_polygon(&joined).is_err() {
        return false;
    }
    j.polygon = joined;
    diags.push(Diagnostic {
        code: DiagnosticCode::JunctionsMerged,
        position: e.line.point_at(0.5 * (a + b)).xy(),
        road: Some(road.id.clone()),
        message: format!(
            "road {} leaves junction {} and comes back to it after {:.2} m{}: that part is junction surface",
            road.id,
            j.id,
            b - a,
            if b - a < road.width { ", less than its width" } else { " with its mouths inside the junction" }
        ),
    });
    true
}

/// Makes every mouth corner of every road piece a vertex of its junction's outline, exactly:
/// an outline that came out of a boolean operation may have moved it by a rounding step, or
/// dropped it as collinear. `snap` is how far (metres) a corner may lie from the outline.
/// `capped` names the pieces with a mouth (at their start, at their end) where a march of
/// `unbury_mouths` stopped halfway along the edge.
fn stitch_mouths(net: &mut Network, snap: f64, capped: &BTreeMap<String, [bool; 2]>, memo: Option<&Memo>) {
    // Each corner with the piece it belongs to, and whether its mouth is capped.
    let found: Vec<Vec<(&str, Point, Point, bool)>> = net
        .pieces
        .par_iter()
        .map(|piece| {
            let caps = capped.get(&piece.id).copied().unwrap_or_default();
            let mouths = crate::curb::mouths(std::iter::once(piece)).into_iter().enumerate();
            mouths
                .map(|(k, (id, right, left, _))| (id, right, left, caps[usize::from(k > 0 || piece.from.is_none())]))
                .collect()
        })
        .collect();
    // Each junction's corners and their caps, by its place in the list, in order of the pieces.
    let place: HashMap<&str, usize, rustc_hash::FxBuildHasher> =
        net.junctions.iter().enumerate().map(|(k, j)| (j.id.as_str(), k)).collect();
    let mut corners: Vec<Vec<(Point, usize)>> = vec![Vec::new(); net.junctions.len()];
    let mut capped_at: Vec<Vec<bool>> = vec![Vec::new(); net.junctions.len()];
    for (pi, mouths) in found.iter().enumerate() {
        for &(id, right, left, cap) in mouths {
            if let Some(&k) = place.get(id) {
                corners[k].extend([(right, pi), (left, pi)]);
                capped_at[k].extend([cap; 2]);
            }
        }
    }
    let pieces = &net.pieces;
    net.junctions.par_iter_mut().zip(corners.par_iter().zip(&capped_at)).for_each(|(j, (cs, caps))| {
        if cs.is_empty() {
            return;
        }
        let key = memo.map(|_| stitch_key(&j.polygon, cs, caps, pieces, snap));
        if let Some(hit) = memo.zip(key.as_ref()).and_then(|(m, k)| m.get(stitched_of, k)) {
            j.polygon = hit;
            return;
        }
        snap_all(&mut j.polygon, cs.iter().map(|c| c.0), snap);
        // Where a piece was yielded, the outline depends on that piece's surface too: not kept.
        let yielded = yield_to_buried(&mut j.polygon, cs, caps, pieces, snap);
        // A hole with a vertex next to (not on) a mouth corner that another ring has as a
        // vertex (a sliver between two arms, left by the union) puts two vertices closer than
        // any mesh can keep apart: the sliver is junction surface.
        let outer = j.polygon.exterior.clone();
        let holes = std::mem::take(&mut j.polygon.holes);
        let on_ring = |r: &[Point], c: Point| r.contains(&c);
        let kept: Vec<Vec<Point>> = holes
            .iter()
            .enumerate()
            .filter(|(k, h)| {
                // A hole with a mouth corner of its own is no sliver: dropping it would bury
                // that mouth in the junction.
                cs.iter().any(|(c, _)| on_ring(h, *c))
                    || !h.iter().any(|v| {
                        cs.iter().any(|(c, _)| {
                            *v != *c
                                && v.dist(*c) <= snap
                                && (on_ring(&outer, *c)
                                    || holes.iter().enumerate().any(|(m, o)| m != *k && on_ring(o, *c)))
                        })
                    })
            })
            .map(|(_, h)| h.clone())
            .collect();
        j.polygon.holes = kept;
        // A fallback outline's corner patches are grown by a hair: a vertex of the grown patch
        // can lie that far from a corner, so twins lie within twice that.
        drop_twins(&mut j.polygon, cs, twin_distance(snap), snap);
        if let (Some(m), Some(k), false) = (memo, key, yielded) {
            m.keep(stitched_of, k, j.polygon.clone());
        }
    });
}

/// Every input of [`stitch_mouths`] for one junction, as bits, but for the surfaces of its
/// pieces (which only a yielded piece reads): its outline, each mouth corner with the width of
/// its piece and whether its march was capped, and the snap distance.
fn stitch_key(polygon: &Polygon, cs: &[(Point, usize)], caps: &[bool], pieces: &[RoadPiece], snap: f64) -> Vec<u64> {
    let mut k = vec![snap.to_bits()];
    push_polygon(&mut k, polygon);
    k.push(cs.len() as u64);
    for (i, (c, pi)) in cs.iter().enumerate() {
        let width = pieces.get(*pi).map_or(u64::MAX, |p| p.width.to_bits());
        k.extend([c.x.to_bits(), c.y.to_bits(), width, u64::from(caps.get(i).copied().unwrap_or(false))]);
    }
    k
}

/// Makes each mouth corner of `cs` that has vertices within `eps` (metres) one vertex, exactly
/// the corner: the nearest of them becomes the corner, and its neighbours along the ring that
/// also lie within `eps` (rounding twins left by a boolean operation, which would give the
/// junction's mesh triangles too small to keep, and with them lose the corner) are removed.
/// Another pass of the ring through the same spot is left alone. Then a corner that makes a
/// triangle smaller than the mesh keeps with its two neighbours (a tooth of a millimetre left
/// by the booleans beside it) loses the nearer neighbour that is not a corner and lies within
/// `tolerance` of the outline without it, until it does not. Each change is kept when the
/// polygon stays valid.
fn drop_twins(polygon: &mut Polygon, cs: &[(Point, usize)], eps: f64, tolerance: f64) {
    let near = |v: &Point| cs.iter().any(|(c, _)| *v != *c && v.dist(*c) <= eps);
    if std::iter::once(&polygon.exterior).chain(polygon.holes.iter()).flatten().any(near) {
        per_corner(polygon, cs.iter().map(|c| c.0), |p, c| drop_twins_of(p, c, cs, eps));
    }
    // Most junctions have no such corner: nothing to copy or check then.
    if cs.iter().any(|&(c, _)| sliver_at(polygon, c)) {
        per_corner(polygon, cs.iter().map(|c| c.0), |p, c| clear_tooth_at(p, c, cs, tolerance));
    }
}

/// Applies `f` for every corner of `cs`: to all at once when that keeps `polygon` valid, else
/// corner by corner, each kept only where it does (one corner that cannot be helped must not
/// keep the others as they were).
fn per_corner(polygon: &mut Polygon, cs: impl Iterator<Item = Point> + Clone, f: impl Fn(&mut Polygon, Point)) {
    let mut all = polygon.clone();
    for c in cs.clone() {
        f(&mut all, c);
    }
    if all == *polygon {
        return;
    }
    if crate::validate::check_polygon(&all).is_ok() {
        *polygon = all;
        return;
    }
    for c in cs {
        let mut one = polygon.clone();
        f(&mut one, c);
        if one != *polygon && crate::validate::check_polygon(&one).is_ok() {
            *polygon = one;
        }
    }
}

/// [`drop_twins`]'s first step for the one corner `c` of `cs`, unchecked.
fn drop_twins_of(polygon: &mut Polygon, c: Point, cs: &[(Point, usize)], eps: f64) {
    for ring in std::iter::once(&mut polygon.exterior).chain(polygon.holes.iter_mut()) {
        let n = ring.len();
        // Another corner that is a vertex stays as it is.
        let twin = |v: Point| v.dist(c) <= eps && (v == c || !cs.iter().any(|o| o.0 == v));
        let Some(keep) = (0..n).filter(|&i| twin(ring[i])).min_by(|&a, &b| ring[a].dist(c).total_cmp(&ring[b].dist(c)))
        else {
            continue;
        };
        // The run of twins on either side of it.
        let mut drop = Vec::new();
        for step in [1, n - 1] {
            let mut i = (keep + step) % n;
            while i != keep && twin(ring[i]) && !drop.contains(&i) {
                drop.push(i);
                i = (i + step) % n;
            }
        }
        if n - drop.len() < 3 {
            continue;
        }
        ring[keep] = c;
        let mut i = 0;
        ring.retain(|_| {
            let gone = drop.contains(&i);
            i += 1;
            !gone
        });
    }
}

/// The triangle at a vertex of a ring with its two neighbours is smaller than the mesh keeps.
fn tooth(ring: &[Point], k: usize) -> bool {
    let n = ring.len();
    let (a, b, c) = (ring[(k + n - 1) % n], ring[k], ring[(k + 1) % n]);
    n > 3 && 0.5 * a.sub(b).cross(c.sub(b)).abs() < crate::triangulate::MIN_TRIANGLE_AREA
}

/// Corner `c` is a vertex of `polygon` that makes a [`tooth`].
fn sliver_at(polygon: &Polygon, c: Point) -> bool {
    std::iter::once(&polygon.exterior)
        .chain(polygon.holes.iter())
        .any(|r| r.iter().position(|v| *v == c).is_some_and(|k| tooth(r, k)))
}

/// [`drop_twins`]'s second step for the one corner `c` of `cs`, unchecked: a neighbour of `c`
/// that is not a corner may go when the outline moves by no more than `tolerance` metres where
/// it was (its distance from the line that replaces its two edges).
fn clear_tooth_at(polygon: &mut Polygon, c: Point, cs: &[(Point, usize)], tolerance: f64) {
    for ring in std::iter::once(&mut polygon.exterior).chain(polygon.holes.iter_mut()) {
        let Some(mut k) = ring.iter().position(|v| *v == c) else { continue };
        while tooth(ring, k) {
            let n = ring.len();
            let (prev, next) = ((k + n - 1) % n, (k + 1) % n);
            // A neighbour may go if it is not a corner and lies within `tolerance` of the line
            // from `c` to the vertex beyond it; the nearer of two such.
            let height = |i: usize, far: usize| crate::geom::project_on_segment(ring[i], c, ring[far]).1;
            let may = |i: usize, far: usize| !cs.iter().any(|o| o.0 == ring[i]) && height(i, far) <= tolerance;
            let gone = match (may(prev, (k + n - 2) % n), may(next, (k + 2) % n)) {
                (false, false) => break,
                (true, false) => prev,
                (false, true) => next,
                (true, true) => {
                    if ring[prev].dist(c) <= ring[next].dist(c) {
                        prev
                    } else {
                        next
                    }
                }
            };
            ring.remove(gone);
            if gone < k {
                k -= 1;
            }
        }
    }
}

/// Snaps every corner of `cs` onto `polygon` (see [`snap_corner`]), all at once when that keeps
/// the outline valid, else one by one, each kept only where the outline stays valid: a snap is
/// never worth an invalid polygon.
fn snap_all(polygon: &mut Polygon, cs: impl Iterator<Item = Point> + Clone, snap: f64) {
    // The corners that are a vertex already, up to rounding (within twice the coincidence
    // distance), first, then the others, each in the given order: a corner on the outline
    // takes its own vertex before a corner further off can take it.
    let twins = twin_distance(snap);
    let on_vertex = |c: &Point| {
        std::iter::once(&polygon.exterior).chain(polygon.holes.iter()).flatten().any(|v| v.dist(*c) <= twins)
    };
    let (mut all, rest): (Vec<Point>, Vec<Point>) = cs.partition(on_vertex);
    all.extend(rest);
    per_corner(polygon, all.iter().copied(), |p, c| snap_corner(p, c, snap, &all));
}

/// How close (metres) two mouth corners or a corner and a vertex are to be twins, for a snap
/// distance `snap`: twice the coincidence distance (a fallback outline's corner patches are
/// grown by a hair, so a vertex of the grown patch can lie that far from a corner).
fn twin_distance(snap: f64) -> f64 {
    2.0 * COINCIDENT_SHARE * snap
}

/// How deep (as a share of the road's width) a mouth corner must lie inside its junction for
/// the junction to yield the piece's carriageway.
const BURIED_SHARE: f64 = 0.05;

/// A mouth whose corner is still buried deep inside its junction's surface (roads that overlap
/// along more than half an arm, so that `unbury_mouths` could not move it out) is given its
/// carriageway back: the junction's surface minus the piece, kept only when that leaves one
/// valid polygon on which every mouth corner that was a vertex still is, and more are. A
/// corner whose march stopped halfway along its edge (`capped`, one flag per corner of `cs`)
/// is known to be buried by the surface, not by rounding: any depth beyond `snap` (metres) counts.
/// Returns whether some mouth was buried (and the pieces' surfaces were read).
fn yield_to_buried(
    polygon: &mut Polygon,
    cs: &[(Point, usize)],
    capped: &[bool],
    pieces: &[RoadPiece],
    snap: f64,
) -> bool {
    let is_vertex = |p: &Polygon, c: Point| std::iter::once(&p.exterior).chain(p.holes.iter()).any(|r| r.contains(&c));
    let deep = |p: &Polygon, c: Point, depth: f64| {
        crate::validate::point_in_polygon(c, p)
            && std::iter::once(&p.exterior)
                .chain(p.holes.iter())
                .all(|r| (0..r.len()).all(|i| crate::geom::project_on_segment(c, r[i], r[(i + 1) % r.len()]).1 > depth))
    };
    // Deep: further inside than `BURIED_SHARE` of the road's width (and than `snap`), so that no
    // rounding of the outline decides it.
    let buried: BTreeSet<usize> = cs
        .iter()
        .zip(capped.iter().copied().chain(std::iter::repeat(false)))
        .filter(|((c, pi), capped)| {
            let share = if *capped { 0.0 } else { BURIED_SHARE };
            let depth = pieces.get(*pi).map_or(snap, |p| (share * p.width).max(snap));
            !is_vertex(polygon, *c) && deep(polygon, *c, depth)
        })
        .map(|((_, pi), _)| *pi)
        .collect();
    if buried.is_empty() {
        return false;
    }
    // One piece at a time: roads that overlap one another can bury each other's mouths, and
    // taking one out must not uncover another's.
    for pi in buried {
        let Some(piece) = pieces.get(pi) else { continue };
        let parts = crate::overlay::overlay(
            &shape(polygon),
            &shape(&piece.polygon),
            OverlayRule::Difference,
            FillRule::NonZero,
        );
        if parts.len() != 1 {
            continue;
        }
        let mut cut = largest(parts);
        dedup_ring(&mut cut.exterior);
        snap_all(&mut cut, cs.iter().map(|c| c.0), snap);
        // A corner that the cut passes a hair away, beside a tooth of rounding twins (where
        // moving the nearest vertex onto it would make the ring cross itself), is made a vertex
        // as the finished outline's corners are.
        drop_twins(&mut cut, cs, twin_distance(snap), snap);
        // Every corner stitched before still is (or lies on the yielded carriageway: a piece
        // of a road that overlaps this one, whose mouth the yielded piece covers), and more are.
        let on_piece = |c: Point| {
            crate::validate::point_in_ring(c, &piece.polygon.exterior)
                || (0..piece.polygon.exterior.len()).any(|i| {
                    let r = &piece.polygon.exterior;
                    crate::geom::project_on_segment(c, r[i], r[(i + 1) % r.len()]).1 <= snap
                })
        };
        let keeps = cs.iter().all(|(c, _)| !is_vertex(polygon, *c) || is_vertex(&cut, *c) || on_piece(*c));
        let gains = cs.iter().any(|(c, _)| !is_vertex(polygon, *c) && is_vertex(&cut, *c));
        if keeps && gains && crate::validate::check_polygon(&cut).is_ok() {
            *polygon = cut;
        }
    }
    true
}

/// Makes `c` a vertex of `polygon`: the nearest vertex within `snap` becomes `c`; else `c` goes
/// into the nearest edge within `snap`; else nothing changes. A vertex that already is another
/// corner of `corners` stays that corner, unless the two are twins (within twice the
/// coincidence distance, as [`drop_twins`] takes them: the corners of two pieces that meet,
/// computed along two routes): where two mouths lie within the snap of each other (the arms
/// of a fan of nearly parallel roads), one must not take the other's vertex.
fn snap_corner(polygon: &mut Polygon, c: Point, snap: f64, corners: &[Point]) {
    let twins = twin_distance(snap);
    let theirs = |v: &Point| corners.iter().any(|o| *v == *o && o.dist(c) > twins);
    let mut best_v: Option<(f64, usize, usize)> = None;
    for (ri, ring) in std::iter::once(&polygon.exterior).chain(polygon.holes.iter()).enumerate() {
        for (i, v) in ring.iter().enumerate() {
            let d = v.dist(c);
            if d <= snap && best_v.is_none_or(|b| d < b.0) && !theirs(v) {
                best_v = Some((d, ri, i));
            }
        }
    }
    // The edges matter only when no vertex is near enough (most corners are vertices already),
    // or when the nearest is a vertex on the straight line between its neighbours: that one
    // only splits an edge (whether a union leaves such a vertex depends on how its input lands
    // on the grid), so the corner goes where it would go without it, into a nearer edge that
    // does not end at it, if there is one.
    let (ri, i, replace) = match best_v {
        Some((_, ri, i)) => match nearer_edge_than_straight_vertex(polygon, ri, i, c, snap) {
            Some((ri, e)) => (ri, e, false),
            None => (ri, i, true),
        },
        None => match nearest_edge(polygon, c, snap, &|_, _| false) {
            Some((_, ri, e)) => (ri, e, false),
            None => return,
        },
    };
    let ring = if ri == 0 { Some(&mut polygon.exterior) } else { polygon.holes.get_mut(ri - 1) };
    if let Some(ring) = ring {
        if replace {
            ring[i] = c;
        } else {
            ring.insert(i + 1, c);
        }
    }
}

/// The edge (its distance from `c`, ring, index; ring 0 the exterior) of `polygon` nearest `c`
/// and within `limit`, among those `skip` does not rule out; the first of those as near.
fn nearest_edge(
    polygon: &Polygon,
    c: Point,
    limit: f64,
    skip: &dyn Fn(usize, usize) -> bool,
) -> Option<(f64, usize, usize)> {
    let mut best: Option<(f64, usize, usize)> = None;
    for (ri, ring) in std::iter::once(&polygon.exterior).chain(polygon.holes.iter()).enumerate() {
        for (k, (&a, &b)) in ring_edges(ring).enumerate() {
            let (_, de) = crate::geom::project_on_segment(c, a, b);
            if de <= limit && best.is_none_or(|x| de < x.0) && !skip(ri, k) {
                best = Some((de, ri, k));
            }
        }
    }
    best
}

/// Where vertex `i` of ring `ri` of `polygon` lies on the straight line between its neighbours
/// (within [`STRAIGHT_SHARE`] of `snap`): the edge (ring, index) nearest `c` that does not end at
/// it, if that edge lies within `snap` and nearer `c` than the line through the neighbours.
fn nearer_edge_than_straight_vertex(
    polygon: &Polygon,
    ri: usize,
    i: usize,
    c: Point,
    snap: f64,
) -> Option<(usize, usize)> {
    let ring = if ri == 0 { &polygon.exterior } else { polygon.holes.get(ri - 1)? };
    let n = ring.len();
    if n < 4 {
        return None;
    }
    let (prev, v, next) = (ring[(i + n - 1) % n], ring[i], ring[(i + 1) % n]);
    if crate::geom::project_on_segment(v, prev, next).1 > STRAIGHT_SHARE * snap {
        return None;
    }
    let through = crate::geom::project_on_segment(c, prev, next).1;
    let (de, ri, k) = nearest_edge(polygon, c, snap, &|rj, k| rj == ri && (k == i || (k + 1) % n == i))?;
    (de < through).then_some((ri, k))
}

/// A vertex within this share of the snap distance of the line through its neighbours lies on
/// that line, for [`snap_corner`]: 10⁻⁵ (0.5 µm at the default tolerance), far below the hair
/// by which corner patches are grown, far above the rounding of points computed along a line.
const STRAIGHT_SHARE: f64 = 1e-5;

/// How many times each id base was given out, for [`unique`].
type IdCounts = HashMap<String, usize, rustc_hash::FxBuildHasher>;

/// Makes `base` unique among the ids seen so far by appending `#2`, `#3`, ...
fn unique(base: String, used: &mut IdCounts) -> String {
    let n = used.entry(base.clone()).or_insert(0);
    *n += 1;
    numbered(base, *n)
}

/// The id of the `n`-th feature (from 1) whose id base is `base`: the base itself for the
/// first, then the base with `#2`, `#3`, ...
fn numbered(base: String, n: usize) -> String {
    if n == 1 {
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
    let subj = vec![contour(&ring)];
    let empty: Vec<Vec<[f64; 2]>> = Vec::new();
    let shapes = crate::overlay::overlay(&subj, &empty, OverlayRule::Subject, FillRule::NonZero);
    largest(shapes)
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
    // The centerline's own turning decides which curb is inside: the left one of a
    // counter-clockwise loop. An inner curb whose orientation flipped has collapsed (the loop
    // is tighter than the road is wide) and leaves no hole.
    let center: Vec<Point> = line.pts.iter().map(|p| p.xy()).collect();
    let ccw = ring_area(&center) >= 0.0;
    let (mut outer, mut inner) =
        if ccw { (ring_of(Side::Right), ring_of(Side::Left)) } else { (ring_of(Side::Left), ring_of(Side::Right)) };
    dedup_ring(&mut outer);
    dedup_ring(&mut inner);
    let collapsed = (ring_area(&inner) >= 0.0) != ccw || ring_area(&inner).abs() >= ring_area(&center).abs();
    if ring_area(&outer) < 0.0 {
        outer.reverse();
    }
    if ring_area(&inner) > 0.0 {
        inner.reverse();
    }
    let holes = if collapsed { Vec::new() } else { vec![inner] };
    let candidate = Polygon { exterior: outer, holes };
    if crate::validate::check_polygon(&candidate).is_ok() {
        return candidate;
    }
    let subj = shape(&candidate);
    let empty: Vec<Vec<[f64; 2]>> = Vec::new();
    largest(crate::overlay::overlay(&subj, &empty, OverlayRule::Subject, FillRule::NonZero))
}

#[cfg(test)]
mod memo_tests {
    use super::*;
    use crate::types::test_road as road;
    use crate::Input;

    /// Five roads of unequal widths crossing at acute angles within 40 m: junctions that
    /// overlap, are joined, and bury each other's mouths.
    fn input() -> Input {
        Input {
            roads: vec![
                road("r0", 7.8, &[(84.3, -113.6), (-50.5, 154.4)]),
                road("r1", 4.7, &[(57.1, -127.8), (6.5, 167.9)]),
                road("r2", 9.4, &[(138.2, -99.5), (-71.1, 115.4)]),
                road("r3", 11.5, &[(-76.8, -91.2), (139.5, 116.6)]),
                road("r4", 6.0, &[(73.4, -116.1), (-39.4, 161.9)]),
            ],
        }
    }

    fn lines(settings: &Settings) -> Vec<RoadLine> {
        let mut roads = input().roads;
        roads.sort_by(|a, b| a.id.cmp(&b.id));
        roads.iter().filter_map(|r| prepare_one(r, settings).ok()).collect()
    }

    /// A build that takes every junction result from the memo gives the network of a build
    /// without one, and so does the build that filled it.
    #[test]
    fn memo_hits_give_what_the_computation_gives() {
        let settings = Settings::default();
        let plain = network_stage(lines(&settings), &settings, &mut Vec::new(), None).0;
        let memo = Memo::default();
        memo.next_build(usize::MAX);
        let first = network_stage(lines(&settings), &settings, &mut Vec::new(), Some(&memo)).0;
        fn len<T>(t: &RwLock<Kept<T>>) -> usize {
            t.read().unwrap().len()
        }
        let (kept_unburied, kept_bases, kept_groups) = (len(&memo.unburied), len(&memo.bases), len(&memo.groups));
        assert!(
            kept_unburied > 0 && kept_bases > 0 && kept_groups > 0,
            "{kept_unburied} unburied groups, {kept_bases} bases and {kept_groups} group surfaces kept"
        );
        memo.next_build(usize::MAX);
        let second = network_stage(lines(&settings), &settings, &mut Vec::new(), Some(&memo)).0;
        // Every kept result was used by the second build.
        fn all_used<T>(t: &RwLock<Kept<T>>, build: u64) -> bool {
            t.read().unwrap().values().all(|u| u.1.load(Ordering::Relaxed) == build)
        }
        let build = memo.build.load(Ordering::Relaxed);
        assert!(all_used(&memo.unburied, build) && all_used(&memo.bases, build) && all_used(&memo.groups, build));
        assert_eq!(len(&memo.unburied), kept_unburied);
        assert_eq!(len(&memo.groups), kept_groups);
        assert_eq!(first, plain);
        assert_eq!(second, plain);
    }

    /// Past its limit the memo keeps only what the last build used.
    #[test]
    fn memo_drops_what_the_last_build_did_not_use() {
        let settings = Settings::default();
        let memo = Memo::default();
        memo.next_build(usize::MAX);
        network_stage(lines(&settings), &settings, &mut Vec::new(), Some(&memo));
        memo.next_build(usize::MAX);
        // A build without road r3 uses few of the results of the build with it.
        let fewer: Vec<RoadLine> = lines(&settings).into_iter().filter(|l| l.id != "r3").collect();
        network_stage(fewer, &settings, &mut Vec::new(), Some(&memo));
        let before = memo.bases.read().unwrap().len();
        memo.next_build(0);
        let bases = memo.bases.read().unwrap();
        assert!(bases.len() < before, "{} of {before} bases kept", bases.len());
        let build = memo.build.load(Ordering::Relaxed);
        assert!(bases.values().all(|b| b.1.load(Ordering::Relaxed) + 1 == build));
    }
}

#[cfg(test)]
mod extent_tests {
    use super::*;
    use crate::types::test_road as road;

    fn holds(b: &Bbox, p: (f64, f64)) -> bool {
        b.0[0] <= p.0 && p.0 <= b.1[0] && b.0[1] <= p.1 && p.1 <= b.1[1]
    }

    /// A T of long roads: the junction's extent holds its surface and every point of its arms,
    /// and a piece's holds its own edge and its junction's boxes, while neither holds the
    /// empty square between the arms, which the one box around them would.
    #[test]
    fn extents_hold_their_inputs_and_not_the_space_between() {
        let settings = Settings::default();
        let mut roads = [road("a", 8.0, &[(-200.0, 0.0), (200.0, 0.0)]), road("b", 8.0, &[(0.0, 0.0), (0.0, 200.0)])];
        roads.sort_by(|x, y| x.id.cmp(&y.id));
        let lines: Vec<RoadLine> = roads.iter().filter_map(|r| prepare_one(r, &settings).ok()).collect();
        let (net, ext) = network_stage(lines, &settings, &mut Vec::new(), None);
        assert_eq!(net.junctions.len(), 1);
        let j = &net.junctions[0];
        let je = &ext.junctions[&j.id];
        // The surface box and one box per arm.
        assert_eq!(je.len(), 4, "{je:?}");
        assert_eq!(je[0], polygon_box(&j.polygon));
        let on_roads = [(-200.0, 0.0), (-100.0, 0.0), (100.0, 0.0), (200.0, 0.0), (0.0, 100.0), (0.0, 200.0)];
        for p in on_roads {
            assert!(je.iter().any(|b| holds(b, p)), "{p:?} is in no box of the junction's extent {je:?}");
        }
        let between = (150.0, 150.0);
        assert!(!je.iter().any(|b| holds(b, between)));
        assert_eq!(net.pieces.len(), 3);
        for piece in &net.pieces {
            let pe = &ext.pieces[&piece.id];
            assert!(je.iter().all(|b| pe.contains(b)), "{}: {pe:?} lacks a box of {je:?}", piece.id);
            // Its edge first: the middle of a straight piece lies on it.
            let (lo, hi) = polygon_box(&piece.polygon);
            assert!(holds(&pe[0], (0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]))), "{}: {pe:?}", piece.id);
            // The piece's edge is an arm of the junction: its box is there once.
            assert!(je.contains(&pe[0]), "{}: {pe:?}", piece.id);
            assert_eq!(pe.len(), je.len(), "{}: {pe:?}", piece.id);
            assert!(!pe.iter().any(|b| holds(b, between)), "{}: {pe:?}", piece.id);
        }
    }
}
