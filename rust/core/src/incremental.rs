//! Incremental updates: a network kept between calls, re-solved only where roads changed.
//!
//! A [`Session`] holds the input roads, their flattened centerlines and the built
//! [`Network`]. [`Session::update`] takes edits (roads changed, added or removed) and re-solves
//! only the junctions, road pieces and blocks they can reach; the result is the network that
//! [`crate::build`] gives for the edited input, byte for byte, and [`Changes`] lists the ids of
//! the features that were added, changed or removed, so that a host replaces only those meshes.
//!
//! ## How a region is re-solved
//! Every feature of the network depends only on the roads near it. The pipeline reports each
//! junction's and road piece's *extent*: a box around its surface and every road edge it was
//! built from. Roads influence each other only within the *reach* (twice the widest road, twice
//! the largest corner radius, the snap and merge distances), so a feature built from a subset of
//! the roads is exactly the feature of the whole network when every road within the reach of its
//! extent is in the subset: it is *trusted*.
//!
//! An update grows two regions until both are closed:
//! - the *dirty* region `Z`, first the edited roads' old and new boxes within the reach. A
//!   feature whose old or new version meets `Z` and differs brings its boxes into `Z`: changes
//!   spread only from a feature to the features it touches, so when no feature at the border of
//!   `Z` differs, nothing outside it does;
//! - the *window* `Y` of roads that are built again, `Z` and a halo around it. A feature that
//!   meets `Z` but is not trusted brings its extent (within the reach) into `Y`.
//!
//! Blocks are faces of the complement of the road surfaces. Where surfaces changed, the faces
//! are found again inside a frame around the changed surfaces and the old blocks they touch; a
//! face that reaches the frame there is part of a face larger than the frame, so the frame
//! doubles until none does (or until it holds the whole network). Block outlines come from an
//! overlay on a grid anchored at the origin, so a face found in a frame is the face found with
//! the whole network.
//!
//! Whatever the regions cannot settle (ids made unique with a `#n` suffix among features outside
//! the region, a window that holds most of the network) is done by a full build instead; the
//! result is the same either way, only slower.

use std::collections::{BTreeMap, BTreeSet};

use i_overlay::float::relate::FloatRelate;
use rayon::prelude::*;

use crate::blocks::{face_dropped, faces, finish_blocks, name_faces, network_frame, polygon_box, Bbox, Face};
use crate::graph::RoadLine;
use crate::overlay::shape;
use crate::pipeline::{
    first_of_each_id, network_stage, prepare_one, skip, sort_diagnostics, union_box, Extents, DUPLICATE_ID,
};
use crate::types::*;
use crate::{Error, FeatureKind, Settings};

/// One edit of the input.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// Adds a road, or replaces the road with the same id (every road with that id).
    Upsert(Road),
    /// Removes the road with this id (every road with that id); nothing happens when there is
    /// none.
    Remove(String),
}

/// What an update changed, by feature id (each list sorted).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Changes {
    /// Features that did not exist before.
    pub added: Vec<(FeatureKind, String)>,
    /// Features whose content changed (same id).
    pub changed: Vec<(FeatureKind, String)>,
    /// Features that no longer exist.
    pub removed: Vec<(FeatureKind, String)>,
    /// The diagnostics changed.
    pub diagnostics_changed: bool,
    /// How the update was done (for benchmarks and tests; the result is the same either way).
    pub stats: UpdateStats,
}

impl Changes {
    /// True when nothing changed.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.changed.is_empty() && self.removed.is_empty() && !self.diagnostics_changed
    }
}

/// How an update was done.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UpdateStats {
    /// Roads built again for junctions and road pieces (the last round).
    pub roads_rebuilt: usize,
    /// Rounds of the junction and road piece stage (each builds the window's roads).
    pub rounds: usize,
    /// The whole network was built again.
    pub full_build: bool,
    /// The block stage covered the whole network.
    pub full_blocks: bool,
}

/// A network kept between calls; see the module documentation.
pub struct Session {
    settings: Settings,
    /// The input, in order.
    roads: Vec<Road>,
    /// The first road of each id, prepared (flattened) or why it is left out.
    prepared: BTreeMap<String, Result<RoadLine, (Option<usize>, String)>>,
    /// The box of each prepared road's centerline.
    road_box: BTreeMap<String, Bbox>,
    net: Network,
    /// Boxes of every junction's and piece's surface, and their extents.
    junction_box: BTreeMap<String, Bbox>,
    piece_box: BTreeMap<String, Bbox>,
    block_box: BTreeMap<String, Bbox>,
    extents: Extents,
    /// Diagnostics of the junction and road piece stage.
    stage_diags: Vec<Diagnostic>,
    /// Faces too small to be blocks: their diagnostics and boxes.
    dropped: Vec<(Diagnostic, Bbox)>,
}

/// Share of the roads beyond which a window is built as a whole network instead.
const FULL_BUILD_SHARE: f64 = 0.5;

/// Rounds of the junction and road piece stage before an update falls back to a full build.
const MAX_ROUNDS: usize = 32;

/// Doublings of the block frame before the block stage covers the whole network.
const MAX_FRAME_DOUBLINGS: usize = 8;

impl Session {
    /// Builds the network of `input` and keeps it for updates.
    pub fn new(input: Input, settings: Settings) -> Result<Self, Error> {
        settings.validate()?;
        let mut s = Session {
            settings,
            roads: input.roads,
            prepared: BTreeMap::new(),
            road_box: BTreeMap::new(),
            net: Network::default(),
            junction_box: BTreeMap::new(),
            piece_box: BTreeMap::new(),
            block_box: BTreeMap::new(),
            extents: Extents::default(),
            stage_diags: Vec::new(),
            dropped: Vec::new(),
        };
        let first = first_of_each_id(&s.roads);
        let prepared: Vec<(String, Result<RoadLine, (Option<usize>, String)>)> = s
            .roads
            .par_iter()
            .zip(first.par_iter())
            .filter(|(_, f)| **f)
            .map(|(r, _)| (r.id.clone(), prepare_one(r, &settings)))
            .collect();
        for (id, p) in prepared {
            s.set_prepared(id, Some(p));
        }
        s.skip_diagnostics()?;
        s.full_build();
        Ok(s)
    }

    /// The current network (what [`crate::build`] gives for [`Session::input`]).
    pub fn network(&self) -> &Network {
        &self.net
    }

    /// The current input, in order.
    pub fn input(&self) -> Input {
        Input { roads: self.roads.clone() }
    }

    /// The settings the session was made with.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Applies `edits` in order and re-solves the network where they reach. In strict mode an
    /// edit that makes a road unusable is refused with [`Error::BadRoad`] and nothing changes.
    pub fn update(&mut self, edits: &[Edit]) -> Result<Changes, Error> {
        // The edited input, and the ids it touches.
        let mut roads = self.roads.clone();
        let mut touched: BTreeSet<String> = BTreeSet::new();
        for e in edits {
            match e {
                Edit::Upsert(r) => {
                    touched.insert(r.id.clone());
                    match roads.iter().position(|x| x.id == r.id) {
                        Some(i) => {
                            roads[i] = r.clone();
                            let mut k = 0;
                            roads.retain(|x| {
                                k += 1;
                                x.id != r.id || k - 1 == i
                            });
                        }
                        None => roads.push(r.clone()),
                    }
                }
                Edit::Remove(id) => {
                    touched.insert(id.clone());
                    roads.retain(|x| x.id != *id);
                }
            }
        }
        let fresh: Vec<(String, Option<Result<RoadLine, (Option<usize>, String)>>)> = touched
            .par_iter()
            .map(|id| (id.clone(), roads.iter().find(|r| r.id == *id).map(|r| prepare_one(r, &self.settings))))
            .collect();
        if self.settings.strict {
            for (id, p) in &fresh {
                if let Some(Err((point, reason))) = p {
                    return Err(Error::BadRoad { road: id.clone(), point: *point, reason: reason.clone() });
                }
            }
        }
        // The dirty region starts at the edited roads' old and new boxes.
        let old_boxes: Vec<Bbox> = touched.iter().filter_map(|id| self.road_box.get(id).copied()).collect();
        self.roads = roads;
        for (id, p) in fresh {
            self.set_prepared(id, p);
        }
        let new_boxes: Vec<Bbox> = touched.iter().filter_map(|id| self.road_box.get(id).copied()).collect();
        let reach = self.reach();
        let mut dirty = Regions::default();
        for b in old_boxes.into_iter().chain(new_boxes) {
            dirty.add(grow(b, reach));
        }
        let mut changes = Changes::default();
        let old_diags = std::mem::take(&mut self.net.diagnostics);
        match self.local_network(&dirty, reach, &mut changes) {
            Some(surfaces) => {
                if !surfaces.boxes.is_empty() && !self.local_blocks(&surfaces, &mut changes) {
                    changes.stats.full_blocks = true;
                    let old_blocks = std::mem::take(&mut self.net.blocks);
                    self.full_blocks();
                    diff_features(FeatureKind::Block, &old_blocks, &self.net.blocks, |b| &b.id, &mut changes);
                }
            }
            None => {
                let old = std::mem::take(&mut self.net);
                let stats = changes.stats;
                changes = Changes { stats, ..Changes::default() };
                changes.stats.full_build = true;
                self.full_build();
                diff_features(FeatureKind::Junction, &old.junctions, &self.net.junctions, |f| &f.id, &mut changes);
                diff_features(FeatureKind::Road, &old.pieces, &self.net.pieces, |f| &f.id, &mut changes);
                diff_features(FeatureKind::Block, &old.blocks, &self.net.blocks, |f| &f.id, &mut changes);
            }
        }
        self.collect_diagnostics();
        changes.diagnostics_changed = old_diags != self.net.diagnostics;
        for list in [&mut changes.added, &mut changes.changed, &mut changes.removed] {
            list.sort();
        }
        Ok(changes)
    }

    /// Records road `id`'s preparation (or its absence) and its box.
    fn set_prepared(&mut self, id: String, p: Option<Result<RoadLine, (Option<usize>, String)>>) {
        match p {
            Some(p) => {
                match &p {
                    Ok(line) => {
                        let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
                        for q in &line.line.pts {
                            lo = [lo[0].min(q.x), lo[1].min(q.y)];
                            hi = [hi[0].max(q.x), hi[1].max(q.y)];
                        }
                        self.road_box.insert(id.clone(), (lo, hi));
                    }
                    Err(_) => {
                        self.road_box.remove(&id);
                    }
                }
                self.prepared.insert(id, p);
            }
            None => {
                self.road_box.remove(&id);
                self.prepared.remove(&id);
            }
        }
    }

    /// The diagnostics of roads left out, as the pipeline writes them; an error in strict mode.
    fn skip_diagnostics(&self) -> Result<Vec<Diagnostic>, Error> {
        let mut diags = Vec::new();
        for (road, first) in self.roads.iter().zip(first_of_each_id(&self.roads)) {
            if !first {
                skip(road, None, DUPLICATE_ID.into(), &self.settings, &mut diags)?;
            } else if let Some(Err((point, reason))) = self.prepared.get(&road.id) {
                skip(road, *point, reason.clone(), &self.settings, &mut diags)?;
            }
        }
        Ok(diags)
    }

    /// How far roads influence each other (see the module documentation), metres.
    fn reach(&self) -> f64 {
        let (mut w, mut r) = (0.0f64, self.settings.corner_radius);
        for line in self.prepared.values().flatten() {
            w = w.max(line.width);
            r = r.max(line.corner_radius);
        }
        2.0 * w + 2.0 * r + self.settings.snap_distance + self.settings.merge_distance + self.settings.tolerance
    }

    /// The usable roads, sorted by id.
    fn lines<'a>(&'a self, ids: impl Iterator<Item = &'a String>) -> Vec<RoadLine> {
        ids.filter_map(|id| self.prepared.get(id).and_then(|p| p.as_ref().ok()).cloned()).collect()
    }

    /// Builds everything again.
    fn full_build(&mut self) {
        let mut diags = Vec::new();
        let lines = self.lines(self.prepared.keys());
        let (net, extents) = network_stage(lines, &self.settings, &mut diags);
        self.junction_box = net.junctions.iter().map(|j| (j.id.clone(), polygon_box(&j.polygon))).collect();
        self.piece_box = net.pieces.iter().map(|p| (p.id.clone(), polygon_box(&p.polygon))).collect();
        self.net = net;
        self.extents = extents;
        self.stage_diags = diags;
        self.full_blocks();
        self.collect_diagnostics();
    }

    /// Finds every block again, as the pipeline does.
    fn full_blocks(&mut self) {
        self.dropped.clear();
        let Some(frame) = network_frame(&self.net, &self.settings) else {
            self.net.blocks.clear();
            self.block_box.clear();
            return;
        };
        let surfaces = self.net.pieces.iter().map(|p| &p.polygon).chain(self.net.junctions.iter().map(|j| &j.polygon));
        let found = faces(surfaces, frame);
        let mut kept = Vec::new();
        for face in found.inner {
            if face.area < self.settings.min_block_area {
                self.dropped.push((face_dropped(&face, &self.settings), polygon_box(&face.polygon)));
            } else {
                kept.push(face);
            }
        }
        let pieces: Vec<&RoadPiece> = self.net.pieces.iter().collect();
        let named = name_faces(kept, &pieces, &self.settings).into_iter().map(|(n, _)| n).collect();
        self.net.blocks = finish_blocks(named, &self.settings);
        self.block_box = self.net.blocks.iter().map(|b| (b.id.clone(), polygon_box(&b.polygon))).collect();
    }

    /// The network's diagnostics: roads left out, the junction stage's, faces dropped.
    fn collect_diagnostics(&mut self) {
        let mut diags = self.skip_diagnostics().unwrap_or_default();
        diags.extend(self.stage_diags.iter().cloned());
        diags.extend(self.dropped.iter().map(|d| d.0.clone()));
        sort_diagnostics(&mut diags);
        self.net.diagnostics = diags;
    }

    /// Re-solves junctions and road pieces around `dirty`; returns the boxes of the surfaces that
    /// changed, or `None` when a full build is needed instead.
    fn local_network(&mut self, dirty: &Regions, reach: f64, changes: &mut Changes) -> Option<Regions> {
        let stats = &mut changes.stats;
        let halo = 2.0 * reach;
        let mut z = dirty.clone();
        let mut y = Regions::default();
        for b in &z.boxes {
            y.add(grow(*b, halo));
        }
        let usable = self.road_box.len();
        loop {
            stats.rounds += 1;
            if stats.rounds > MAX_ROUNDS {
                return None;
            }
            let ids: Vec<&String> =
                self.road_box.iter().filter(|(_, b)| y.meets(**b)).map(|(id, _)| id).collect();
            if ids.len() as f64 > FULL_BUILD_SHARE * usable as f64 {
                return None;
            }
            stats.roads_rebuilt = ids.len();
            let lines = self.lines(ids.into_iter());
            let mut diags = Vec::new();
            let (local, ext) = network_stage(lines, &self.settings, &mut diags);
            // Trust is judged against the window the roads were taken from.
            let built = y.clone();
            let trusted = |b: Bbox| built.holds(grow(b, reach));
            let mut grew = false;
            // Junctions and pieces: every one whose old or new version meets the dirty region
            // must be trusted, and one that differs brings both versions into the region.
            macro_rules! settle {
                ($new:expr, $old:expr, $boxes:expr, $exts:expr, $new_ext:expr) => {{
                    for f in $new.iter() {
                        let nb = polygon_box(&f.polygon);
                        let old = $old.binary_search_by(|o| o.id.as_str().cmp(f.id.as_str())).ok().map(|i| &$old[i]);
                        let ob = old.and_then(|o| $boxes.get(&o.id).copied());
                        if !(z.meets(nb) || ob.is_some_and(|b| z.meets(b))) {
                            continue;
                        }
                        if suffixed(&f.id) {
                            return None;
                        }
                        let e = $new_ext.get(&f.id).copied().unwrap_or(nb);
                        if !trusted(e) {
                            y.add(grow(e, reach + halo));
                            grew = true;
                        } else if old != Some(f) {
                            grew |= z.add(nb);
                            if let Some(b) = ob {
                                grew |= z.add(b);
                            }
                        }
                    }
                    for o in $old.iter() {
                        let Some(ob) = $boxes.get(&o.id).copied() else { continue };
                        if !z.meets(ob) || $new.binary_search_by(|f| f.id.as_str().cmp(o.id.as_str())).is_ok() {
                            continue;
                        }
                        if suffixed(&o.id) {
                            return None;
                        }
                        // Gone from the window: trusted only if the window covers where it was.
                        let e = $exts.get(&o.id).copied().unwrap_or(ob);
                        if !trusted(e) {
                            y.add(grow(e, reach + halo));
                            grew = true;
                        } else {
                            grew |= z.add(ob);
                        }
                    }
                }};
            }
            settle!(local.junctions, self.net.junctions, self.junction_box, self.extents.junctions, ext.junctions);
            settle!(local.pieces, self.net.pieces, self.piece_box, self.extents.pieces, ext.pieces);
            for d in &diags {
                let p = ([d.position.x, d.position.y], [d.position.x, d.position.y]);
                if z.meets(p) && !built.holds(grow(p, 2.0 * reach)) {
                    y.add(grow(p, 2.0 * reach + halo));
                    grew = true;
                }
            }
            if grew {
                // The window always holds the dirty region with its halo.
                for b in z.boxes.clone() {
                    y.add(grow(b, halo));
                }
                continue;
            }
            // Settled: replace what meets the dirty region.
            let mut changed = Regions::default();
            replace(
                FeatureKind::Junction,
                changes,
                &mut self.net.junctions,
                local.junctions,
                &mut self.junction_box,
                &mut self.extents.junctions,
                &ext.junctions,
                &z,
                &mut changed,
            );
            replace(
                FeatureKind::Road,
                changes,
                &mut self.net.pieces,
                local.pieces,
                &mut self.piece_box,
                &mut self.extents.pieces,
                &ext.pieces,
                &z,
                &mut changed,
            );
            let at = |d: &Diagnostic| z.meets(([d.position.x, d.position.y], [d.position.x, d.position.y]));
            self.stage_diags.retain(|d| !at(d));
            self.stage_diags.extend(diags.into_iter().filter(|d| at(d)));
            return Some(changed);
        }
    }

    /// Finds the blocks again around the surfaces that changed; false when the block stage
    /// must cover the whole network instead.
    fn local_blocks(&mut self, changed: &Regions, changes: &mut Changes) -> bool {
        let Some(whole) = network_frame(&self.net, &self.settings) else { return false };
        let margin = frame_margin(&self.net, &self.settings);
        // The frame: the changed surfaces and every old block or dropped face they touch.
        let mut w: Option<Bbox> = None;
        let mut add = |b: Bbox| w = Some(w.map_or(b, |w| union_box(w, b)));
        for b in &changed.boxes {
            add(*b);
        }
        for b in self.block_box.values().chain(self.dropped.iter().map(|d| &d.1)) {
            if changed.meets(*b) {
                add(*b);
            }
        }
        let Some(mut w) = w else { return true };
        let mut doublings = 0;
        let (frame, found) = loop {
            let frame = grow(w, margin);
            if contains(frame, whole) {
                return false;
            }
            let surfaces = self
                .net
                .pieces
                .iter()
                .filter(|p| self.piece_box.get(&p.id).is_some_and(|b| meets(*b, frame)))
                .map(|p| &p.polygon)
                .chain(
                    self.net
                        .junctions
                        .iter()
                        .filter(|j| self.junction_box.get(&j.id).is_some_and(|b| meets(*b, frame)))
                        .map(|j| &j.polygon),
                );
            let found = faces(surfaces, frame);
            // A face that reaches the frame where surfaces changed is larger than the frame.
            let open = found.outer.iter().any(|o| {
                changed.boxes.iter().any(|b| {
                    let ([x0, y0], [x1, y1]) = *b;
                    let rect = vec![vec![[x0, y0], [x1, y0], [x1, y1], [x0, y1]]];
                    meets(polygon_box(o), *b) && shape(o).interiors_intersect(&rect)
                })
            });
            if !open {
                break (frame, found);
            }
            doublings += 1;
            if doublings > MAX_FRAME_DOUBLINGS {
                return false;
            }
            let (lo, hi) = w;
            w = grow(w, (hi[0] - lo[0]).max(hi[1] - lo[1]).max(margin));
        };
        // The faces that meet the changed surfaces replace the old blocks that do.
        let (mut kept, mut small): (Vec<Face>, Vec<Face>) = (Vec::new(), Vec::new());
        for face in found.inner {
            if !changed.meets(polygon_box(&face.polygon)) {
                continue;
            }
            if face.area < self.settings.min_block_area {
                small.push(face);
            } else {
                kept.push(face);
            }
        }
        let pieces: Vec<&RoadPiece> =
            self.net.pieces.iter().filter(|p| self.piece_box.get(&p.id).is_some_and(|b| meets(*b, frame))).collect();
        let corners: Vec<Point> = kept.iter().map(|f| f.corner).collect();
        let named = name_faces(kept, &pieces, &self.settings);
        // A block is named by the nearest road piece: one outside the frame could be nearer
        // than those inside only if the corner is closer to the frame than to them.
        for ((_, d2), c) in named.iter().zip(&corners) {
            let to_frame =
                (c.x - frame.0[0]).min(frame.1[0] - c.x).min(c.y - frame.0[1]).min(frame.1[1] - c.y).max(0.0);
            if !(d2.sqrt() < to_frame) {
                return false;
            }
        }
        let named: Vec<_> = named.into_iter().map(|(n, _)| n).collect();
        // Ids made unique among blocks outside the region cannot be settled here.
        let gone: BTreeSet<&String> = self.block_box.iter().filter(|(_, b)| changed.meets(**b)).map(|(id, _)| id).collect();
        let mut bases = BTreeSet::new();
        for (base, _, _) in &named {
            if !bases.insert(base.clone()) || suffixed(base) {
                return false;
            }
            let hash = format!("{base}#");
            if self.net.blocks.iter().any(|b| !gone.contains(&b.id) && (b.id == *base || b.id.starts_with(&hash))) {
                return false;
            }
        }
        if gone.iter().any(|id| suffixed(id)) {
            return false;
        }
        let fresh = finish_blocks(named, &self.settings);
        let gone: BTreeSet<String> = gone.into_iter().cloned().collect();
        let old: Vec<Block> = self.net.blocks.iter().filter(|b| gone.contains(&b.id)).cloned().collect();
        diff_features(FeatureKind::Block, &old, &fresh, |b| &b.id, changes);
        self.net.blocks.retain(|b| !gone.contains(&b.id));
        for id in &gone {
            self.block_box.remove(id);
        }
        for b in &fresh {
            self.block_box.insert(b.id.clone(), polygon_box(&b.polygon));
        }
        self.net.blocks.extend(fresh);
        self.net.blocks.sort_by(|a, b| a.id.cmp(&b.id));
        self.dropped.retain(|d| !changed.meets(d.1));
        for f in small {
            self.dropped.push((face_dropped(&f, &self.settings), polygon_box(&f.polygon)));
        }
        true
    }
}

/// How far a block frame reaches past what it must hold: the widest road, at least the snap
/// distance and a metre, metres.
fn frame_margin(net: &Network, settings: &Settings) -> f64 {
    let wmax = net.pieces.iter().fold(0.0f64, |m, p| m.max(p.width));
    wmax.max(settings.snap_distance).max(1.0)
}

/// Replaces the features of `all` that meet `z` by those of `local` that do, keeping `all`
/// sorted by id; the boxes of surfaces that changed go into `changed`.
#[allow(clippy::too_many_arguments)]
fn replace<F: Feature>(
    kind: FeatureKind,
    changes: &mut Changes,
    all: &mut Vec<F>,
    local: Vec<F>,
    boxes: &mut BTreeMap<String, Bbox>,
    exts: &mut BTreeMap<String, Bbox>,
    local_ext: &BTreeMap<String, Bbox>,
    z: &Regions,
    changed: &mut Regions,
) {
    let mut incoming: BTreeMap<String, F> = local
        .into_iter()
        .filter(|f| z.meets(polygon_box(f.polygon())))
        .map(|f| (f.id().to_string(), f))
        .collect();
    let mut out = Vec::with_capacity(all.len() + incoming.len());
    for f in std::mem::take(all) {
        let b = boxes.get(f.id()).copied().unwrap_or_else(|| polygon_box(f.polygon()));
        if !z.meets(b) {
            out.push(f);
            continue;
        }
        match incoming.remove(f.id()) {
            Some(n) if n == f => out.push(f),
            Some(n) => {
                changes.changed.push((kind, n.id().to_string()));
                changed.add(b);
                changed.add(polygon_box(n.polygon()));
                out.push(n);
            }
            None => {
                changes.removed.push((kind, f.id().to_string()));
                changed.add(b);
                boxes.remove(f.id());
                exts.remove(f.id());
            }
        }
    }
    for (_, n) in incoming {
        changes.added.push((kind, n.id().to_string()));
        changed.add(polygon_box(n.polygon()));
        out.push(n);
    }
    out.sort_by(|a, b| a.id().cmp(b.id()));
    for f in &out {
        if let Some(e) = local_ext.get(f.id()) {
            if z.meets(polygon_box(f.polygon())) {
                boxes.insert(f.id().to_string(), polygon_box(f.polygon()));
                exts.insert(f.id().to_string(), *e);
            }
        }
    }
    *all = out;
}

/// A junction or a road piece, as [`replace`] handles them.
trait Feature: PartialEq {
    fn id(&self) -> &str;
    fn polygon(&self) -> &Polygon;
}

impl Feature for Junction {
    fn id(&self) -> &str {
        &self.id
    }
    fn polygon(&self) -> &Polygon {
        &self.polygon
    }
}

impl Feature for RoadPiece {
    fn id(&self) -> &str {
        &self.id
    }
    fn polygon(&self) -> &Polygon {
        &self.polygon
    }
}

/// An id made unique with a `#n` suffix: its number depends on features far away.
fn suffixed(id: &str) -> bool {
    id.rsplit_once('#').is_some_and(|(_, n)| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()))
}

/// What changed between two lists of features sorted by id, added to `c`.
fn diff_features<F: PartialEq>(kind: FeatureKind, old: &[F], new: &[F], id: impl Fn(&F) -> &str, c: &mut Changes) {
    let (mut i, mut j) = (0, 0);
    while i < old.len() || j < new.len() {
        let ord = match (old.get(i), new.get(j)) {
            (Some(a), Some(b)) => id(a).cmp(id(b)),
            (Some(_), None) => std::cmp::Ordering::Less,
            _ => std::cmp::Ordering::Greater,
        };
        match ord {
            std::cmp::Ordering::Less => {
                c.removed.push((kind, id(&old[i]).to_string()));
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                c.added.push((kind, id(&new[j]).to_string()));
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                if old[i] != new[j] {
                    c.changed.push((kind, id(&new[j]).to_string()));
                }
                i += 1;
                j += 1;
            }
        }
    }
}

/// A set of boxes; overlapping boxes are merged into their union.
#[derive(Clone, Debug, Default)]
struct Regions {
    boxes: Vec<Bbox>,
}

impl Regions {
    /// Adds a box; true when the region grew.
    fn add(&mut self, b: Bbox) -> bool {
        if !(b.0[0] <= b.1[0] && b.0[1] <= b.1[1]) || self.holds(b) {
            return false;
        }
        let mut b = b;
        loop {
            let before = self.boxes.len();
            self.boxes.retain(|x| {
                if meets(*x, b) {
                    b = union_box(*x, b);
                    false
                } else {
                    true
                }
            });
            if self.boxes.len() == before {
                break;
            }
        }
        self.boxes.push(b);
        true
    }

    fn meets(&self, b: Bbox) -> bool {
        self.boxes.iter().any(|x| meets(*x, b))
    }

    /// One box of the region holds all of `b`.
    fn holds(&self, b: Bbox) -> bool {
        self.boxes.iter().any(|x| contains(*x, b))
    }
}

fn grow(b: Bbox, d: f64) -> Bbox {
    ([b.0[0] - d, b.0[1] - d], [b.1[0] + d, b.1[1] + d])
}

fn meets(a: Bbox, b: Bbox) -> bool {
    a.0[0] <= b.1[0] && b.0[0] <= a.1[0] && a.0[1] <= b.1[1] && b.0[1] <= a.1[1]
}

fn contains(outer: Bbox, inner: Bbox) -> bool {
    outer.0[0] <= inner.0[0] && outer.0[1] <= inner.0[1] && inner.1[0] <= outer.1[0] && inner.1[1] <= outer.1[1]
}
