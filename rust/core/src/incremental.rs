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
//! junction's and road piece's *extent*: boxes around every road edge it was built from and, for
//! a junction, around its surface. Roads influence each other only within the *reach* (twice the widest road, twice
//! the largest corner radius, the snap and merge distances), so a feature built from a subset of
//! the roads is exactly the feature of the whole network when every road within the reach of its
//! extent is in the subset: it is *trusted*.
//!
//! An update grows two regions until both are closed:
//! - the *dirty* region `Z`, first the edited roads' old and new boxes within the reach. A
//!   feature whose old or new version meets `Z` and differs brings its boxes into `Z`: changes
//!   spread only from a feature to the features it touches, so when no feature at the border of
//!   `Z` differs, nothing outside it does (a road piece at a junction in `Z` counts as touching
//!   it: the junction's outline may stay while the mouth there moves by a rounding step);
//! - the *window* `Y` of roads that are built again, `Z` and a halo around it. A feature that
//!   meets `Z` but is not trusted brings its extent (within the reach) into `Y`.
//!
//! Blocks are faces of the complement of the road surfaces. Where surfaces changed, the faces
//! are found again inside a frame around the changed surfaces and the old blocks they touch; a
//! face that reaches the frame there is part of a face larger than the frame, so the frame
//! doubles until none does (or until it holds the whole network). Block outlines come from an
//! overlay on a grid anchored at the origin, so a face found in a frame is the face found with
//! the whole network, with one known exception: a crack between two road surfaces thinner than
//! the grid may come out open in one frame and closed in another, which moves the face's
//! lowest-left vertex before cleaning and so can change the block's name (docs/ARCHITECTURE.md).
//!
//! A [`Memo`] keeps base junctions and the groups whose mouths had to move between the
//! session's builds, keyed by their inputs bit for bit.
//!
//! Whatever the regions cannot settle (ids made unique with a `#n` suffix among features outside
//! the region, a window that holds most of the network) is done by a full build instead; the
//! result is the same either way, only slower.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex, PoisonError};

use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::solver::Solver;
use i_overlay::float::relate::FloatPredicateOverlay;
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::blocks::{
    band_reach, boxes_meet as meets, face_dropped, faces, finish_blocks, grow, name_at, name_faces, polygon_box,
    seg_box, side_band, whole_faces, Bbox, Face, Faces,
};
use crate::boxgrid::{BoxGrid, CellsAlong, PlacedGrid};
use crate::geom::{segment_hit, SegHit};
use crate::graph::RoadLine;
use crate::overlay::{shape, Contour};
use crate::pipeline::{
    diagnostic_order, first_of_each_id, line_box, network_stage, network_stage_in, prepare_one, skip, sort_diagnostics,
    union_box, Extent, Extents, Memo, Prepared, DUPLICATE_ID, EMPTY_BOX,
};
use crate::types::*;
use crate::{Error, FeatureKind, MeshSink, Settings};

/// One edit of the input.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// Adds a road, or replaces the road with the same id (every road with that id).
    Upsert(Road),
    /// Removes the road with this id (every road with that id); nothing happens when there is
    /// none.
    Remove(String),
}

/// What an update changed, by feature kind and id (each list sorted).
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
    /// The features whose meshes must be built again ([`crate::build_meshes_of`]): those added
    /// or changed, the junctions at the ends of road pieces that changed (their mouths carry
    /// the road's height), the road pieces at junctions that changed (they end on the junction's
    /// outline), and the blocks whose heights come from road pieces that changed (every block,
    /// unless the whole network is flat at one height before and after). Sorted.
    pub remesh: Vec<(FeatureKind, String)>,
    /// How the update was done (for benchmarks and tests; the result is the same either way).
    pub stats: UpdateStats,
}

impl Changes {
    /// True when nothing changed.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.changed.is_empty() && self.removed.is_empty() && !self.diagnostics_changed
    }
}

/// How an update was done. Informative only: the wall times differ from run to run, and none
/// of it changes the network.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct UpdateStats {
    /// Roads built again for junctions and road pieces (in the last build of the window).
    pub roads_rebuilt: usize,
    /// Builds of the window (each builds its roads' junctions and road pieces).
    pub rounds: usize,
    /// The whole network was built again.
    pub full_build: bool,
    /// The block stage looked at the whole network (a face that changed reaches far).
    pub full_blocks: bool,
    /// Times the block stage tried to find the faces around the change by joining the old
    /// outlines to one overlay of the region that changed, and times that worked (the other
    /// tries fell back to frames). A block stage tries twice when its first try and frames
    /// left a face that no straight ray showed to be the outer face (the second try looks for
    /// bent ways out).
    pub joins_tried: usize,
    /// See [`UpdateStats::joins_tried`].
    pub joins_made: usize,
    /// Times the block stage took in more blocks to find again because blocks that stay
    /// shared an id base (numbered `#2`, `#3`, ... all together) with blocks found again.
    pub numbering_rounds: usize,
    /// Wall time of the junction and road piece stage, seconds.
    pub network_s: f64,
    /// Wall time of the block stage, seconds.
    pub blocks_s: f64,
}

/// A network kept between calls; see the module documentation.
pub struct Session {
    settings: Settings,
    /// The input, in order.
    roads: Vec<Road>,
    /// The first road of each id, prepared (flattened) or why it is left out.
    prepared: BTreeMap<String, Prepared>,
    /// The box of each usable road's centerline grown by its own reach.
    road_zone: BTreeMap<String, Bbox>,
    /// The roads of `road_zone` by where their zones lie, when they are many
    /// ([`crate::boxgrid::MIN_LIST`]; fewer are looked through).
    road_grid: Option<BoxGrid<Arc<str>>>,
    /// How many usable roads have each own reach (metres, as bits: the reaches are never
    /// negative, so their bits sort as they do), for the largest of them in [`Session::reach`].
    own_reaches: BTreeMap<u64, usize>,
    /// The diagnostics of the roads of each id that are left out.
    skips: BTreeMap<String, Vec<Diagnostic>>,
    net: Network,
    /// The boxes of the junctions', pieces' and blocks' outlines, in the order of the network's
    /// lists.
    junction_box: Vec<Bbox>,
    piece_box: Vec<Bbox>,
    block_box: Vec<Bbox>,
    /// The junctions and pieces (their positions in the network's lists) by where their boxes
    /// lie.
    junction_grid: PlacedGrid,
    piece_grid: PlacedGrid,
    /// The junctions' and pieces' outlines as a whole, kept in step with the lists.
    junction_tally: Tally,
    piece_tally: Tally,
    /// For each block, its corner and the distance from it to the piece that names it: a road
    /// piece that comes nearer may change its name.
    block_naming: Vec<(Point, f64)>,
    /// For each block, its outline as the overlay gave it (before cleaning), where it is known:
    /// an update joins it, outside the region that changed, to the new outline inside.
    block_raw: Vec<Raw>,
    extents: Extents,
    /// Diagnostics of the junction and road piece stage.
    stage_diags: Vec<Diagnostic>,
    /// Faces too small to be blocks: their diagnostics and boxes.
    dropped: Vec<(Diagnostic, Bbox, Polygon)>,
    /// Diagnostics an update took out of `skips`, `stage_diags` and `dropped`, and those it put
    /// in, for [`Session::settle_diagnostics`].
    diags_out: Vec<Diagnostic>,
    diags_in: Vec<Diagnostic>,
    /// Junction results kept between builds of the window.
    memo: Memo,
    /// The one height of every road piece's centerline, if they share one ([`flat_height`]).
    flat: Option<f64>,
    /// What the outer-face test of the block stage under way found: the bent ways out, and
    /// what straight rays showed from each point (behind a lock only so that the session can
    /// be shared with the stage's other threads; one thread looks for bent ways).
    ways: Mutex<Ways>,
}

/// Junction results the session keeps per road of its input, at most, before it drops those
/// that the last build did not use.
const MEMO_LIMIT_PER_ROAD: usize = 2;

/// Share of the roads beyond which a window is built as a whole network instead.
const FULL_BUILD_SHARE: f64 = 0.5;

/// Builds of the window before an update falls back to a full build.
const MAX_ROUNDS: usize = 16;

/// Points of a face from which [`Session::escapes`] casts rays, and rays per point (evenly
/// spread directions).
const ESCAPE_POINTS: usize = 8;
const ESCAPE_DIRECTIONS: usize = 8;

/// When no ray of [`ESCAPE_DIRECTIONS`] leaves the network, the points (the first ones) from
/// which [`Session::open_from`] looks for the gaps between the surfaces, and the rays it casts
/// through the widest gaps of each.
const GAP_POINTS: usize = 2;
const GAP_RAYS: usize = 8;

/// Half the side (metres) of the first square around a point in which
/// [`Session::gap_rays`] takes the surfaces from the grids (one grid cell); the square doubles
/// until it holds every surface, at most [`GAP_LOOK_ROUNDS`] times, of which at most
/// [`GAP_SCAN_ROUNDS`] past what the grids answer (each of those looks through every surface),
/// before every surface left is taken at once. Seen from a bay of the network, the surfaces
/// within a few hundred metres most often close every direction, and the search stops there;
/// 64 m · 2¹¹ (131 km) holds a city region.
const GAP_LOOK: f64 = crate::boxgrid::GRID_CELL;
const GAP_LOOK_ROUNDS: usize = 12;
const GAP_SCAN_ROUNDS: usize = 8;

/// When no straight ray from a face's points leaves the network, [`Session::open_from`] looks
/// for a bent way out: legs of straight rays, each stopped short of the surface it meets,
/// turning where it stops to cast rays again. It turns at this many points at most: the way
/// out of a bay of the network takes a few turns, and a face that is a block has none, which
/// only the bound ends.
const WAY_TURNS: usize = 64;

/// How far short of the surface it meets a leg of a bent way out stops, metres.
const WAY_BACKOFF: f64 = 1.0;

/// Legs shorter than this are not taken, metres.
const WAY_MIN_LEG: f64 = 2.0;

/// How near a leg of a bent way out may come to a road surface, metres: far more than the
/// polygon library's grid ([`crate::blocks::BLOCK_GRID`]), so that a way out never passes
/// through a gap that the faces' grid closes.
const WAY_CLEARANCE: f64 = 0.01;

/// The directions, in degrees from the leg that came to a turning point, in which a bent way
/// out looks on from it.
const WAY_FAN_DEG: [f64; 9] = [0.0, -3.0, 3.0, -8.0, 8.0, -16.0, 16.0, -32.0, 32.0];

/// The longest legs from a turning point that a bent way out takes on, at most.
const WAY_BRANCHES: usize = 3;

/// A bent way out turns at most once in each square of this side, metres.
const WAY_CELL: f64 = 8.0;

/// How far around a turning point the surfaces are looked at for the gaps between them,
/// metres.
const WAY_LOOK: f64 = 64.0;

/// The side (metres) of the squares among which a search for a bent way out spreads its
/// turns: it turns next from a point in a square it has turned in least often.
const WAY_AREA: f64 = 128.0;

/// Where the join found no straight way out of a face, it looks for bent ways before the
/// first block frame that holds more road surfaces (road pieces and junctions) than this:
/// about where the frame's overlay costs as much as a search for bent ways.
const BENT_BEFORE_SURFACES: usize = 2000;

/// Walks of more grid cells than this along a ray look at every surface instead.
const MAX_WALK_CELLS: u64 = 4096;

/// Block frames stretched to a side of the network before the block stage looks at the whole
/// network.
const STRETCHED_FRAMES: usize = 2;

impl Session {
    /// Builds the network of `input` and keeps it for updates.
    pub fn new(input: Input, settings: Settings) -> Result<Self, Error> {
        Self::start(input, settings, None)
    }

    /// [`Session::new`], and the meshes of the network into `sink`: those that
    /// [`crate::build_meshes`] gives for [`Session::network`], in the same order, the road
    /// pieces' and junctions' built while the blocks are found (as in
    /// [`crate::build_with_meshes`]).
    pub fn with_meshes(input: Input, settings: Settings, sink: &mut dyn MeshSink) -> Result<Self, Error> {
        Self::start(input, settings, Some(sink))
    }

    fn start(input: Input, settings: Settings, sink: Option<&mut dyn MeshSink>) -> Result<Self, Error> {
        settings.validate()?;
        let want_meshes = sink.is_some();
        let (s, meshes) = crate::in_pool(|| Self::start_in_pool(input, settings, want_meshes))?;
        if let (Some(sink), Some(meshes)) = (sink, meshes) {
            meshes.hand_over(sink);
        }
        Ok(s)
    }

    /// The work of [`Session::start`], on a thread of the worker pool.
    fn start_in_pool(
        input: Input,
        settings: Settings,
        want_meshes: bool,
    ) -> Result<(Self, Option<crate::mesh::Built>), Error> {
        let mut s = Session {
            settings,
            roads: input.roads,
            prepared: BTreeMap::new(),
            road_zone: BTreeMap::new(),
            road_grid: None,
            own_reaches: BTreeMap::new(),
            skips: BTreeMap::new(),
            net: Network::default(),
            junction_box: Vec::new(),
            piece_box: Vec::new(),
            block_box: Vec::new(),
            junction_grid: PlacedGrid::default(),
            piece_grid: PlacedGrid::default(),
            junction_tally: Tally::default(),
            piece_tally: Tally::default(),
            block_naming: Vec::new(),
            block_raw: Vec::new(),
            extents: Extents::default(),
            stage_diags: Vec::new(),
            dropped: Vec::new(),
            diags_out: Vec::new(),
            diags_in: Vec::new(),
            memo: Memo::default(),
            flat: None,
            ways: Mutex::default(),
        };
        let first = first_of_each_id(&s.roads);
        let prepared: Vec<(String, Prepared)> = s
            .roads
            .par_iter()
            .zip(first.par_iter())
            .filter(|(_, f)| **f)
            .map(|(r, _)| (r.id.clone(), prepare_one(r, &settings)))
            .collect();
        for (id, p) in prepared {
            s.set_prepared(id, Some(p));
        }
        if s.road_zone.len() >= crate::boxgrid::MIN_LIST {
            s.road_grid = Some(BoxGrid::of(s.road_zone.iter().map(|(id, b)| (Arc::from(id.as_str()), *b))));
        }
        for (road, first) in s.roads.iter().zip(first) {
            let diags = s.skips.entry(road.id.clone()).or_default();
            if !first {
                skip(road, None, DUPLICATE_ID.into(), &settings, diags)?;
            } else if let Some(Err((point, reason))) = s.prepared.get(&road.id) {
                skip(road, *point, reason.clone(), &settings, diags)?;
            }
        }
        s.skips.retain(|_, d| !d.is_empty());
        let meshes = s.full_build(want_meshes);
        Ok((s, meshes))
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
        crate::in_pool_eager(|| self.update_in_pool(edits, false)).map(|(c, _)| c)
    }

    /// [`Session::update`], and the meshes of [`Changes::remesh`] into `sink`: those that
    /// [`crate::build_meshes_of`] gives for [`Session::network`] and the features of
    /// `remesh`, in the same order. The road pieces' and junctions' meshes are built while the
    /// blocks around the change are found (as in [`Session::with_meshes`]), so a host that
    /// replaces meshes while a spline is dragged waits for less than the two calls one after
    /// the other. Nothing goes to `sink` when the update fails.
    pub fn update_with_meshes(&mut self, edits: &[Edit], sink: &mut dyn MeshSink) -> Result<Changes, Error> {
        let (changes, meshes) = crate::in_pool_eager(|| self.update_in_pool(edits, true))?;
        if let Some(meshes) = meshes {
            meshes.hand_over(sink);
        }
        Ok(changes)
    }

    /// The work of [`Session::update`] and [`Session::update_with_meshes`] (with
    /// `want_meshes`), on a thread of the worker pool.
    fn update_in_pool(
        &mut self,
        edits: &[Edit],
        want_meshes: bool,
    ) -> Result<(Changes, Option<crate::mesh::Built>), Error> {
        self.diags_out.clear();
        self.diags_in.clear();
        // What each touched id ends as: the last edit of it wins.
        let mut last: BTreeMap<&str, Option<&Road>> = BTreeMap::new();
        for e in edits {
            match e {
                Edit::Upsert(r) => last.insert(&r.id, Some(r)),
                Edit::Remove(id) => last.insert(id, None),
            };
        }
        let fresh: Vec<(String, Option<(Road, Prepared)>)> = last
            .par_iter()
            .map(|(id, r)| (id.to_string(), r.map(|r| (r.clone(), prepare_one(r, &self.settings)))))
            .collect();
        if self.settings.strict {
            for (id, p) in &fresh {
                if let Some((_, Err((point, reason)))) = p {
                    return Err(Error::BadRoad { road: id.clone(), point: *point, reason: reason.clone() });
                }
            }
        }
        // The dirty region starts at the edited roads' old and new zones.
        let slack = self.settings.snap_distance + self.settings.tolerance;
        let mut dirty = Regions::default();
        for (id, _) in &fresh {
            self.add_road_chunks(id, slack, &mut dirty);
        }
        for (id, p) in fresh {
            let first = self.roads.iter().position(|r| r.id == id);
            self.diags_out.extend(self.skips.remove(&id).into_iter().flatten());
            match p {
                Some((road, prepared)) => {
                    if let Err((point, reason)) = &prepared {
                        let mut diags = Vec::new();
                        skip(&road, *point, reason.clone(), &self.settings, &mut diags)?;
                        self.diags_in.extend(diags.iter().cloned());
                        self.skips.insert(id.clone(), diags);
                    }
                    match first {
                        Some(i) => {
                            self.roads[i] = road;
                            let mut k = 0;
                            self.roads.retain(|r| {
                                k += 1;
                                r.id != id || k - 1 == i
                            });
                        }
                        None => self.roads.push(road),
                    }
                    self.set_prepared(id.clone(), Some(prepared));
                }
                None => {
                    self.roads.retain(|r| r.id != id);
                    self.set_prepared(id.clone(), None);
                }
            }
            self.add_road_chunks(&id, slack, &mut dirty);
        }
        let mut changes = Changes::default();
        let old_flat = self.flat;
        let t = std::time::Instant::now();
        let surfaces =
            if dirty.boxes.is_empty() { Some(Regions::default()) } else { self.local_network(&dirty, &mut changes) };
        changes.stats.network_s = t.elapsed().as_secs_f64();
        // With meshes: those of the road pieces and junctions to build again, made while the
        // blocks are found (they do not depend on the blocks, which change no piece or junction).
        let mut early: Option<(Vec<(FeatureKind, String)>, crate::mesh::SurfaceMeshes)> = None;
        let mut full_meshes = None;
        match surfaces {
            Some(surfaces) => {
                let t = std::time::Instant::now();
                let blocks = |s: &mut Self, changes: &mut Changes| {
                    if !surfaces.boxes.is_empty() {
                        s.local_blocks(&surfaces, changes);
                    }
                };
                if want_meshes {
                    let list = self.remesh_surfaces(&changes);
                    let part = self.surfaces_around(&list);
                    let settings = self.settings;
                    let wanted: BTreeSet<(FeatureKind, &str)> = list.iter().map(|(k, id)| (*k, id.as_str())).collect();
                    let meshes = || crate::mesh::surface_meshes(&part, &settings, &|k, id| wanted.contains(&(k, id)));
                    let ((), meshes) = rayon::join(|| blocks(self, &mut changes), meshes);
                    early = Some((list, meshes));
                } else {
                    blocks(self, &mut changes);
                }
                changes.stats.blocks_s = t.elapsed().as_secs_f64();
            }
            None => {
                let old = std::mem::take(&mut self.net);
                changes = Changes { stats: changes.stats, ..Changes::default() };
                changes.stats.full_build = true;
                full_meshes = self.full_build(want_meshes);
                changes.diagnostics_changed = old.diagnostics != self.net.diagnostics;
                diff_features(FeatureKind::Junction, &old.junctions, &self.net.junctions, |f| &f.id, &mut changes);
                diff_features(FeatureKind::Road, &old.pieces, &self.net.pieces, |f| &f.id, &mut changes);
                diff_features(FeatureKind::Block, &old.blocks, &self.net.blocks, |f| &f.id, &mut changes);
            }
        }
        // A full build collected the diagnostics and found the flat height itself.
        if !changes.stats.full_build {
            changes.diagnostics_changed = self.settle_diagnostics();
            self.flat = self.flat_after(&changes);
        }
        let (surfaces, early) = early.unzip();
        self.remesh(&mut changes, old_flat, surfaces);
        for list in [&mut changes.added, &mut changes.changed, &mut changes.removed, &mut changes.remesh] {
            list.sort();
            list.dedup();
        }
        let meshes = match full_meshes {
            Some(all) => Some(all),
            None => want_meshes.then(|| self.remeshed(&changes, early)),
        };
        Ok((changes, meshes))
    }

    /// The meshes of [`Changes::remesh`], in [`crate::build_meshes_of`]'s order: the road
    /// pieces' and junctions' from `early` when they were built beside the block stage (for the
    /// list that [`Session::remesh`] was then handed), else built now.
    fn remeshed(&self, changes: &Changes, early: Option<crate::mesh::SurfaceMeshes>) -> crate::mesh::Built {
        let wanted: BTreeSet<(FeatureKind, &str)> = changes.remesh.iter().map(|(k, id)| (*k, id.as_str())).collect();
        let wanted = |k: FeatureKind, id: &str| wanted.contains(&(k, id));
        let surfaces = early.unwrap_or_else(|| crate::mesh::surface_meshes(&self.net, &self.settings, &wanted));
        crate::mesh::finish_meshes_of(&self.net, surfaces, &wanted)
    }

    /// The part of the network that the meshes of the road pieces and junctions of `list`
    /// read: those junctions and the pieces that end at them, those pieces and the junctions
    /// at their ends; each list in id order, as in the network.
    fn surfaces_around(&self, list: &[(FeatureKind, String)]) -> Network {
        let of = |kind: FeatureKind| -> BTreeSet<&str> {
            list.iter().filter(|(k, _)| *k == kind).map(|(_, id)| id.as_str()).collect()
        };
        let (junctions, pieces) = (of(FeatureKind::Junction), of(FeatureKind::Road));
        let mut ends: BTreeSet<&str> = junctions.clone();
        let mut at: Vec<usize> = self.pieces_at(&junctions);
        for id in &pieces {
            if let Ok(i) = self.net.pieces.binary_search_by(|p| p.id.as_str().cmp(id)) {
                ends.extend(
                    [&self.net.pieces[i].from, &self.net.pieces[i].to].into_iter().flatten().map(String::as_str),
                );
                at.push(i);
            }
        }
        at.sort_unstable();
        at.dedup();
        Network {
            junctions: self.net.junctions.iter().filter(|j| ends.contains(j.id.as_str())).cloned().collect(),
            pieces: at.into_iter().map(|i| self.net.pieces[i].clone()).collect(),
            ..Network::default()
        }
    }

    /// The positions of the road pieces that end at one of `junctions`, in order. A piece at a
    /// junction has its mouth on the junction's outline, so its box comes within a snap
    /// distance of the junction's: only the pieces the grid finds there are looked at (every
    /// piece when a junction has no box; a piece with no outline has none either, but
    /// `pipeline::assemble` makes none).
    fn pieces_at(&self, junctions: &BTreeSet<&str>) -> Vec<usize> {
        let at = |i: &usize| {
            let p = &self.net.pieces[*i];
            [&p.from, &p.to].into_iter().flatten().any(|j| junctions.contains(j.as_str()))
        };
        let slack = self.settings.snap_distance + self.settings.tolerance;
        let mut region = Vec::with_capacity(junctions.len());
        for id in junctions {
            if let Ok(i) = self.net.junctions.binary_search_by(|j| j.id.as_str().cmp(id)) {
                if self.junction_box[i] == EMPTY_BOX {
                    return (0..self.net.pieces.len()).filter(at).collect();
                }
                region.push(grow(self.junction_box[i], slack));
            }
        }
        if region.is_empty() {
            return Vec::new();
        }
        self.pieces_meeting(&region).into_iter().filter(at).collect()
    }

    /// Completes [`Changes::remesh`]: what was added or changed, the junctions at both ends of
    /// road pieces that changed (the old ends are in already), the road pieces at junctions that
    /// changed, and the blocks whose heights may have moved.
    fn remesh(&self, changes: &mut Changes, old_flat: Option<f64>, surfaces: Option<Vec<(FeatureKind, String)>>) {
        if changes.stats.full_build {
            changes.remesh = self.all_features();
            return;
        }
        // The block stage changes no road piece or junction: a list made before it holds.
        let mut list = surfaces.unwrap_or_else(|| self.remesh_surfaces(changes));
        let blocks = changes.added.iter().chain(&changes.changed).filter(|(k, _)| *k == FeatureKind::Block);
        list.extend(
            blocks.filter(|(_, id)| self.net.blocks.binary_search_by(|b| b.id.as_str().cmp(id)).is_ok()).cloned(),
        );
        let surfaces_changed =
            changes.added.iter().chain(&changes.changed).chain(&changes.removed).any(|(k, _)| *k != FeatureKind::Block);
        if surfaces_changed && !(old_flat.is_some() && old_flat == self.flat) {
            list.extend(self.net.blocks.iter().map(|b| (FeatureKind::Block, b.id.clone())));
        }
        // What the window's build put there already (the junctions old pieces ended at) is in
        // `list`, as far as it still exists.
        changes.remesh = list;
    }

    /// The road pieces and junctions of [`Session::remesh`], each once or more, that exist now:
    /// those added or changed, the road pieces at junctions that changed, the junctions at both
    /// ends of road pieces that changed, and those `remesh` holds already (the junctions that
    /// old road pieces ended at, put there by the window's build).
    fn remesh_surfaces(&self, changes: &Changes) -> Vec<(FeatureKind, String)> {
        let fresh = changes.added.iter().chain(&changes.changed).filter(|(k, _)| *k != FeatureKind::Block);
        let fresh: Vec<(FeatureKind, String)> = fresh.cloned().collect();
        let junctions: BTreeSet<&str> =
            fresh.iter().filter(|(k, _)| *k == FeatureKind::Junction).map(|(_, id)| id.as_str()).collect();
        let pieces: BTreeSet<&str> =
            fresh.iter().filter(|(k, _)| *k == FeatureKind::Road).map(|(_, id)| id.as_str()).collect();
        let mut extra: Vec<(FeatureKind, String)> = self
            .pieces_at(&junctions)
            .into_iter()
            .map(|i| (FeatureKind::Road, self.net.pieces[i].id.clone()))
            .collect();
        for id in &pieces {
            if let Ok(i) = self.net.pieces.binary_search_by(|p| p.id.as_str().cmp(id)) {
                let p = &self.net.pieces[i];
                for j in [&p.from, &p.to].into_iter().flatten() {
                    extra.push((FeatureKind::Junction, j.clone()));
                }
            }
        }
        // Only what exists now.
        let exists = |k: FeatureKind, id: &str| match k {
            FeatureKind::Junction => self.net.junctions.binary_search_by(|j| j.id.as_str().cmp(id)).is_ok(),
            FeatureKind::Road => self.net.pieces.binary_search_by(|p| p.id.as_str().cmp(id)).is_ok(),
            FeatureKind::Block => false,
        };
        let before = changes.remesh.iter().filter(|(k, _)| *k != FeatureKind::Block).cloned();
        fresh.into_iter().chain(extra).chain(before).filter(|(k, id)| exists(*k, id)).collect()
    }

    /// [`flat_height`] of the network after an update that changed the road pieces in
    /// `changes` (and no others), without reading every piece when the network was flat: the
    /// pieces kept were at the old height, so it stays when every new one is at it too.
    fn flat_after(&self, changes: &Changes) -> Option<f64> {
        let Some(h) = self.flat else { return flat_height(&self.net) };
        let pieces = &self.net.pieces;
        let at_h =
            changes.added.iter().chain(&changes.changed).filter(|(k, _)| *k == FeatureKind::Road).all(|(_, id)| {
                pieces
                    .binary_search_by(|p| p.id.as_str().cmp(id))
                    .map_or(true, |i| pieces[i].centerline.iter().all(|c| c.z == h))
            });
        // With no centerline point left, the height is 0 whatever it was.
        if at_h && pieces.iter().any(|p| !p.centerline.is_empty()) {
            Some(h)
        } else {
            flat_height(&self.net)
        }
    }

    /// Every feature of the network.
    fn all_features(&self) -> Vec<(FeatureKind, String)> {
        let n = &self.net;
        n.junctions
            .iter()
            .map(|j| (FeatureKind::Junction, j.id.clone()))
            .chain(n.pieces.iter().map(|p| (FeatureKind::Road, p.id.clone())))
            .chain(n.blocks.iter().map(|b| (FeatureKind::Block, b.id.clone())))
            .collect()
    }

    /// Adds the zone of road `id` to `region`, piece by piece along its centerline (grown by
    /// its own reach and `slack`): a long diagonal road does not bring in everything in its box.
    fn add_road_chunks(&self, id: &str, slack: f64, region: &mut Regions) {
        if let Some(Ok(line)) = self.prepared.get(id) {
            let pts: Vec<Point> = line.line.pts.iter().map(|p| p.xy()).collect();
            for b in chunk_boxes(&pts, false) {
                region.add(grow(b, own_reach(line) + slack));
            }
        }
    }

    /// Records road `id`'s preparation (or its absence) and its zone.
    fn set_prepared(&mut self, id: String, p: Option<Prepared>) {
        if let Some(Ok(line)) = self.prepared.get(&id) {
            let bits = own_reach_bits(line);
            if let Some(n) = self.own_reaches.get_mut(&bits) {
                *n -= 1;
                if *n == 0 {
                    self.own_reaches.remove(&bits);
                }
            }
        }
        if let Some(Ok(line)) = &p {
            *self.own_reaches.entry(own_reach_bits(line)).or_insert(0) += 1;
        }
        match p {
            Some(p) => {
                match &p {
                    Ok(line) => {
                        let zone = grow(line_box(&line.line.pts), own_reach(line));
                        let old = self.road_zone.insert(id.clone(), zone);
                        if let Some(grid) = &mut self.road_grid {
                            let key: Arc<str> = Arc::from(id.as_str());
                            if let Some(old) = old {
                                grid.remove(&key, old);
                            }
                            grid.insert(key, zone);
                        }
                    }
                    Err(_) => {
                        let old = self.road_zone.remove(&id);
                        if let (Some(grid), Some(old)) = (&mut self.road_grid, old) {
                            grid.remove(&Arc::from(id.as_str()), old);
                        }
                    }
                }
                self.prepared.insert(id, p);
            }
            None => {
                let old = self.road_zone.remove(&id);
                if let (Some(grid), Some(old)) = (&mut self.road_grid, old) {
                    grid.remove(&Arc::from(id.as_str()), old);
                }
                self.prepared.remove(&id);
            }
        }
    }

    /// How far beyond its extent a feature can feel another road's zone (see the module
    /// documentation): the largest reach of any road, the snap and merge distances, metres.
    fn reach(&self) -> f64 {
        let own = self.own_reaches.keys().next_back().map_or(0.0, |&bits| f64::from_bits(bits));
        own + self.settings.snap_distance + self.settings.merge_distance + self.settings.tolerance
    }

    /// The usable roads of `ids`, sorted by id.
    fn lines<'a>(&'a self, ids: impl Iterator<Item = &'a String>) -> Vec<RoadLine> {
        ids.filter_map(|id| self.prepared.get(id).and_then(|p| p.as_ref().ok()).cloned()).collect()
    }

    /// Builds everything again; with `want_meshes`, the meshes of the whole network too.
    fn full_build(&mut self, want_meshes: bool) -> Option<crate::mesh::Built> {
        let mut diags = Vec::new();
        let lines = self.lines(self.prepared.keys());
        self.memo.next_build(MEMO_LIMIT_PER_ROAD * self.prepared.len());
        let (net, extents) = network_stage(lines, &self.settings, &mut diags, Some(&self.memo));
        self.junction_box = net.junctions.iter().map(|j| surface_box(&j.polygon)).collect();
        self.piece_box = net.pieces.iter().map(|p| surface_box(&p.polygon)).collect();
        self.junction_grid = PlacedGrid::of(&self.junction_box);
        self.piece_grid = PlacedGrid::of(&self.piece_box);
        let band = crate::blocks::uniform_band(&self.settings.profile);
        self.junction_tally = Tally::of(&net.junctions, &self.junction_box, band);
        self.piece_tally = Tally::of(&net.pieces, &self.piece_box, band);
        self.net = net;
        self.flat = flat_height(&self.net);
        self.extents = extents;
        self.stage_diags = diags;
        self.net.blocks.clear();
        self.block_box.clear();
        self.block_naming.clear();
        self.block_raw.clear();
        self.dropped.clear();
        let surface_meshes =
            || want_meshes.then(|| crate::mesh::surface_meshes(&self.net, &self.settings, &crate::mesh::every_feature));
        let surfaces = match self.whole_frame() {
            Some(frame) => {
                let all = Regions::of(frame);
                // The road pieces' and junctions' meshes do not depend on the blocks.
                let (found, surfaces) = rayon::join(|| self.find_blocks(frame, &all, &all, None, None), surface_meshes);
                // No block stays, so none can clash; and the whole frame refuses nothing.
                if let Ok(found) = found {
                    self.take_blocks(found, &all, &mut Changes::default());
                }
                surfaces
            }
            None => surface_meshes(),
        };
        self.collect_diagnostics();
        surfaces.map(|surfaces| crate::mesh::finish_meshes(&self.net, surfaces))
    }

    /// The frame around the whole network, as the pipeline's block stage takes it.
    fn whole_frame(&self) -> Option<Bbox> {
        // The kept boxes of surfaces with fewer than 3 points are empty: they add nothing.
        let hull = union_box(self.junction_tally.hull, self.piece_tally.hull);
        crate::blocks::frame_of(hull, self.piece_tally.widest(), &self.settings)
    }

    /// The network's diagnostics: roads left out, the junction stage's, faces dropped.
    fn collect_diagnostics(&mut self) {
        // Nothing is left to settle.
        self.diags_out.clear();
        self.diags_in.clear();
        let mut diags: Vec<Diagnostic> = self.skips.values().flatten().cloned().collect();
        diags.extend(self.stage_diags.iter().cloned());
        diags.extend(self.dropped.iter().map(|d| d.0.clone()));
        sort_diagnostics(&mut diags);
        self.net.diagnostics = diags;
    }

    /// Brings the network's diagnostics up to date with what the update took out of their
    /// sources and put into them (`diags_out`, `diags_in`); returns whether they changed. They
    /// end as [`Session::collect_diagnostics`] makes them, sorted and without repeats, without
    /// copying every one of them again: a diagnostic taken out goes unless a source still
    /// holds it, one put in comes unless it is there already.
    fn settle_diagnostics(&mut self) -> bool {
        let mut changed = false;
        for d in std::mem::take(&mut self.diags_out) {
            let held = self.stage_diags.contains(&d)
                || self.dropped.iter().any(|x| x.0 == d)
                || self.skips.values().flatten().any(|x| *x == d);
            if held {
                continue;
            }
            if let Ok(i) = self.net.diagnostics.binary_search_by(|x| diagnostic_order(x, &d)) {
                self.net.diagnostics.remove(i);
                changed = true;
            }
        }
        for d in std::mem::take(&mut self.diags_in) {
            if let Err(i) = self.net.diagnostics.binary_search_by(|x| diagnostic_order(x, &d)) {
                self.net.diagnostics.insert(i, d);
                changed = true;
            }
        }
        changed
    }

    /// Re-solves junctions and road pieces around `dirty`; returns the boxes of the surfaces that
    /// changed, or `None` when a full build is needed instead.
    fn local_network(&mut self, dirty: &Regions, changes: &mut Changes) -> Option<Regions> {
        let reach = self.reach();
        let stats = &mut changes.stats;
        let mut z = dirty.clone();
        // The window: the dirty region and the extents of the features in it, within reach.
        let mut y = Regions::default();
        for b in &z.boxes {
            y.add(grow(*b, reach));
        }
        // The features in the dirty region usually change, and bring their neighbours in:
        // take those neighbours' extents into the window from the start.
        let mut near = Regions::default();
        for i in self.junctions_meeting(&z.boxes) {
            near.add(self.junction_box[i]);
        }
        for i in self.pieces_meeting(&z.boxes) {
            near.add(self.piece_box[i]);
        }
        let around: Vec<Bbox> = z.boxes.iter().chain(&near.boxes).copied().collect();
        let junctions = self.junctions_meeting(&around).into_iter().map(|i| (&self.net.junctions[i].id, i));
        let pieces = self.pieces_meeting(&around).into_iter().map(|i| (&self.net.pieces[i].id, i));
        for (id, b, exts) in junctions
            .map(|(id, i)| (id, &self.junction_box[i], &self.extents.junctions))
            .chain(pieces.map(|(id, i)| (id, &self.piece_box[i], &self.extents.pieces)))
        {
            // The box around each extent (trust asks for its boxes one by one): a first window
            // of the boxes alone is smaller, but is built again on more moves, at more cost.
            y.add(grow(union_of(extent_of(exts, id, b)), reach));
        }
        let usable = self.road_zone.len();
        let mut local: Option<WindowBuild> = None;
        loop {
            if local.as_ref().is_none_or(|l| l.built.boxes != y.boxes) {
                stats.rounds += 1;
                if stats.rounds > MAX_ROUNDS {
                    return None;
                }
                // In id order, as the zones are kept.
                let near = self.road_grid.as_ref().and_then(|g| g.near_names(&y.boxes, self.road_zone.len()));
                let zones: Vec<(&String, &Bbox)> = match near {
                    Some(near) => near.into_iter().filter_map(|id| self.road_zone.get_key_value(id)).collect(),
                    None => self.road_zone.iter().collect(),
                };
                let ids: Vec<&String> = zones.into_iter().filter(|(_, b)| y.meets(**b)).map(|(id, _)| id).collect();
                if ids.len() as f64 > FULL_BUILD_SHARE * usable as f64 {
                    return None;
                }
                stats.roads_rebuilt = ids.len();
                let lines = self.lines(ids.into_iter());
                let mut diags = Vec::new();
                let window = y.clone();
                let focus = |b: Bbox| window.meets(b);
                self.memo.next_build(MEMO_LIMIT_PER_ROAD * self.prepared.len());
                let (net, ext) =
                    network_stage_in(lines, &self.settings, &mut diags, Some(&focus), Some(&self.memo), true);
                let junction_box = net.junctions.iter().map(|j| surface_box(&j.polygon)).collect();
                let piece_box = net.pieces.iter().map(|p| surface_box(&p.polygon)).collect();
                local = Some(WindowBuild { net, ext, diags, built: y.clone(), junction_box, piece_box });
            }
            let WindowBuild { net: lnet, ext, diags, built, junction_box: ljb, piece_box: lpb } = local.as_ref()?;
            // Trust is judged against the window the roads were taken from.
            let trusted = |e: &[Bbox]| e.iter().all(|b| built.covers(grow(*b, reach)));
            let (mut grew_y, mut grew_z) = (false, false);
            // Junctions and pieces: every one whose old or new version meets the dirty region
            // must be trusted, and one that differs brings both versions into the region.
            // A feature at a junction that meets the region (`$at_z`) is looked at too when it
            // came out different: a junction can keep its outline while the setback of one of its
            // mouths moves by a rounding step (another arm changed at its far end), which only
            // the road piece there shows. One that came out the same is the same: its other end
            // lies outside the region, where nothing changed.
            macro_rules! settle {
                ($new:expr, $new_boxes:expr, $old:expr, $boxes:expr, $exts:expr, $new_ext:expr, $at_z:expr, $meeting:ident) => {{
                    for (f, &nb) in $new.iter().zip($new_boxes.iter()) {
                        let at = $old.binary_search_by(|o| o.id.as_str().cmp(f.id.as_str())).ok();
                        let old = at.map(|i| &$old[i]);
                        let ob = at.map(|i| $boxes[i]);
                        let meets_z = z.meets(nb) || ob.is_some_and(|b| z.meets(b));
                        let at_z = $at_z(f) || old.is_some_and(|o| $at_z(o));
                        if !(meets_z || (at_z && old != Some(f))) {
                            continue;
                        }
                        if suffixed(&f.id) {
                            return None;
                        }
                        let e = extent_of(&$new_ext, &f.id, &nb);
                        if !trusted(e) {
                            grew_y |= add_grown(&mut y, e, reach);
                        } else if old != Some(f) {
                            grew_z |= z.add_outline(&f.polygon);
                            if let Some(o) = old {
                                grew_z |= z.add_outline(&o.polygon);
                            }
                        }
                    }
                    // The old features that meet the region as it is now (it grows on, and the
                    // loop is run again until it does not).
                    for i in self.$meeting(&z.boxes) {
                        let (o, ob) = (&$old[i], &$boxes[i]);
                        if $new.binary_search_by(|f| f.id.as_str().cmp(o.id.as_str())).is_ok() {
                            continue;
                        }
                        if suffixed(&o.id) {
                            return None;
                        }
                        // Gone from the window: trusted only if the window covers where it was.
                        let e = extent_of(&$exts, &o.id, ob);
                        if !trusted(e) {
                            grew_y |= add_grown(&mut y, e, reach);
                        } else {
                            grew_z |= z.add_outline(&o.polygon);
                        }
                    }
                }};
            }
            let no_junction = |_: &Junction| false;
            settle!(
                lnet.junctions,
                ljb,
                self.net.junctions,
                self.junction_box,
                self.extents.junctions,
                ext.junctions,
                no_junction,
                junctions_meeting
            );
            // The junctions that meet the region, in the window's build or in the network: a
            // window's piece (either version) whose end is one of them is at the region.
            let junctions_at_z: BTreeSet<&str> = (lnet.junctions.iter().zip(ljb.iter()))
                .filter(|(_, b)| z.meets(**b))
                .map(|(j, _)| j.id.as_str())
                .chain(self.junctions_meeting(&z.boxes).into_iter().map(|i| self.net.junctions[i].id.as_str()))
                .collect();
            let at_junction_at_z = |p: &RoadPiece| p.ends().iter().flatten().any(|j| junctions_at_z.contains(j));
            settle!(
                lnet.pieces,
                lpb,
                self.net.pieces,
                self.piece_box,
                self.extents.pieces,
                ext.pieces,
                at_junction_at_z,
                pieces_meeting
            );
            // The diagnostics to replace: in the dirty region, or in a feature (old or new) that
            // meets it and differs; each must come from a trusted part of the window. A feature
            // that comes out the same (and trusted, as every feature meeting the region now is)
            // keeps the diagnostics of its making.
            let mut diag_region = z.clone();
            macro_rules! differing {
                ($new:expr, $new_boxes:expr, $old:expr, $boxes:expr, $meeting:ident) => {{
                    for i in self.$meeting(&z.boxes) {
                        let (o, b) = (&$old[i], &$boxes[i]);
                        if $new.binary_search_by(|f| f.id.as_str().cmp(o.id.as_str())).map_or(true, |i| $new[i] != *o) {
                            diag_region.add(*b);
                        }
                    }
                    for (f, &b) in $new.iter().zip($new_boxes.iter()) {
                        if z.meets(b)
                            && $old
                                .binary_search_by(|o| o.id.as_str().cmp(f.id.as_str()))
                                .map_or(true, |i| $old[i] != *f)
                        {
                            diag_region.add(b);
                        }
                    }
                }};
            }
            differing!(lnet.junctions, ljb, self.net.junctions, self.junction_box, junctions_meeting);
            differing!(lnet.pieces, lpb, self.net.pieces, self.piece_box, pieces_meeting);
            // A trusted junction that came out the same may still have moved the diagnostic of a
            // corner by a rounding step (an arm edge cut shorter far away moves its curb
            // crossing, not its outline): where the window's corner diagnostics in its box and
            // the network's differ outside the region, the diagnostics in its box are replaced
            // too.
            {
                let bound = union_of(&built.boxes);
                let corner_near = |d: &&Diagnostic| {
                    let p = diagnostic_box(d);
                    d.code == DiagnosticCode::RadiusReduced && contains(bound, p) && !diag_region.meets(p)
                };
                let mut old_near: Vec<&Diagnostic> = self.stage_diags.iter().filter(corner_near).collect();
                let mut new_near: Vec<&Diagnostic> = diags.iter().filter(corner_near).collect();
                old_near.sort_by(|a, b| diagnostic_order(a, b));
                new_near.sort_by(|a, b| diagnostic_order(a, b));
                if !(old_near.is_empty() && new_near.is_empty()) {
                    for (j, &b) in lnet.junctions.iter().zip(ljb.iter()) {
                        // Both lists are in order, and so are the parts of them in the box.
                        let within = |d: &&&Diagnostic| contains(b, diagnostic_box(d));
                        let differ = !new_near.iter().filter(within).eq(old_near.iter().filter(within));
                        if differ && trusted(extent_of(&ext.junctions, &j.id, &b)) {
                            diag_region.add(b);
                        }
                    }
                }
            }
            // A diagnostic comes from the making of a feature whose outline holds its position:
            // every such feature, old or new, must be trusted for the diagnostics there (old
            // ones dropped, new ones taken) to be the full build's.
            let local_features = (lnet.junctions.iter().zip(ljb))
                .map(|(j, b)| (&j.id, b, &ext.junctions))
                .chain(lnet.pieces.iter().zip(lpb).map(|(f, b)| (&f.id, b, &ext.pieces)));
            // The old features' boxes are kept: no outline of the whole network is read.
            let old_features = (self.junctions_meeting(&diag_region.boxes).into_iter())
                .map(|i| (&self.net.junctions[i].id, &self.junction_box[i], &self.extents.junctions))
                .chain(
                    (self.pieces_meeting(&diag_region.boxes).into_iter())
                        .map(|i| (&self.net.pieces[i].id, &self.piece_box[i], &self.extents.pieces)),
                );
            // Only a feature whose box meets the region can hold a diagnostic in it.
            let sources: Vec<(Bbox, &[Bbox])> = local_features
                .chain(old_features)
                .filter(|&(_, b, _)| diag_region.meets(*b))
                .map(|(id, b, exts)| (*b, extent_of(exts, id, b)))
                .collect();
            for d in diags.iter().chain(self.stage_diags.iter()) {
                let p = diagnostic_box(d);
                if !diag_region.meets(p) {
                    continue;
                }
                if !built.covers(grow(p, reach)) {
                    grew_y |= y.add(grow(p, reach));
                }
                for &(b, e) in &sources {
                    if contains(b, p) && !trusted(e) {
                        grew_y |= add_grown(&mut y, e, reach);
                    }
                }
            }
            if grew_y || grew_z {
                continue;
            }
            // Settled: replace what meets the dirty region.
            let WindowBuild { net: lnet, ext, diags, junction_box: ljb, piece_box: lpb, .. } = local?;
            let mut changed = Regions::default();
            replace(
                FeatureKind::Junction,
                changes,
                (
                    &mut self.net.junctions,
                    &mut self.junction_box,
                    &mut self.extents.junctions,
                    &mut self.junction_grid,
                    &mut self.junction_tally,
                ),
                lnet.junctions.into_iter().zip(ljb).collect(),
                &ext.junctions,
                &z,
                &mut changed,
            );
            replace(
                FeatureKind::Road,
                changes,
                (
                    &mut self.net.pieces,
                    &mut self.piece_box,
                    &mut self.extents.pieces,
                    &mut self.piece_grid,
                    &mut self.piece_tally,
                ),
                lnet.pieces.into_iter().zip(lpb).collect(),
                &ext.pieces,
                &z,
                &mut changed,
            );
            // Diagnostics lie on or in the feature whose making raised them: those in the dirty
            // region or in a feature that meets it are replaced (`diag_region`, checked above).
            let at = |d: &Diagnostic| diag_region.meets(diagnostic_box(d));
            // In place: the few that go leave, the rest stay where they are.
            self.diags_out.extend(self.stage_diags.extract_if(.., |d| at(d)));
            for d in diags.into_iter().filter(|d| at(d)) {
                self.diags_in.push(d.clone());
                self.stage_diags.push(d);
            }
            return Some(changed);
        }
    }

    /// Finds the blocks again around the surfaces that changed (`changed`): in a frame around
    /// them and the old blocks they touch, doubled while a face there reaches the frame, or
    /// around the whole network.
    fn local_blocks(&mut self, changed: &Regions, changes: &mut Changes) {
        // The surfaces changed since the last block stage: what its ways out found is stale.
        *self.ways.get_mut().unwrap_or_else(PoisonError::into_inner) = Ways::default();
        let Some(whole) = self.whole_frame() else {
            let old = std::mem::take(&mut self.net.blocks);
            diff_features(FeatureKind::Block, &old, &[], |b| &b.id, changes);
            self.block_box.clear();
            self.block_naming.clear();
            self.block_raw.clear();
            self.diags_out.extend(self.dropped.drain(..).map(|d| d.0));
            return;
        };
        // A block may keep its outline and still take another name (a changed piece came nearer
        // to its corner than the piece that names it): it is found again too.
        // `redo`: the changed surfaces and the outlines of such blocks; the faces that meet it
        // replace the blocks that do. Only a face that meets a changed surface can be new.
        // A block takes its bands from the pieces whose surfaces come within `band_reach` of
        // it (`blocks::vertex_bands`): one that only comes that near a changed surface is found
        // again too (one that meets it is anyway), even where a piece changed only its profile.
        // Where no block has bands of its own before or after, a tolerance is reach enough.
        let reach = self.band_reach();
        let mut redo = changed.clone();
        for i in 0..self.net.blocks.len() {
            let bx = self.block_box[i];
            if !changed.meets(bx) && changed.meets(grow(bx, reach)) {
                redo.add(bx);
                continue;
            }
            let (c, r) = self.block_naming[i];
            let disc = ([c.x - r, c.y - r], [c.x + r, c.y + r]);
            if !changed.meets(disc) {
                continue;
            }
            // Every piece nearer than `r` has its box in the disc's box; the name stays when the
            // nearest of them still gives it.
            let near: Vec<&RoadPiece> = self.pieces_meeting(&[disc]).into_iter().map(|i| &self.net.pieces[i]).collect();
            let (name, profile, d2) = name_at(c, &near, &self.settings);
            let b = &self.net.blocks[i];
            if d2 <= r * r && name == b.id && profile == b.profile {
                self.block_naming[i].1 = d2.sqrt();
            } else {
                redo.add(self.block_box[i]);
            }
        }
        let margin = self.frame_margin();
        // Blocks that stay but share an id base with blocks found again are found again too
        // (see `Refused::Clash`), with larger frames; rounds bounded as the window's are.
        for _ in 0..MAX_ROUNDS {
            match self.local_frames(changed, &redo, whole, margin, changes) {
                Ok(()) => return,
                Err(Refused::Frame) => break,
                Err(Refused::Clash(boxes)) => {
                    changes.stats.numbering_rounds += 1;
                    for b in boxes {
                        redo.add(b);
                    }
                }
            }
        }
        changes.stats.full_blocks = true;
        let _ = self.blocks_in(whole, changed, &redo, None, changes);
    }

    /// The frames that [`Session::local_blocks`] tries, in turn, around what `redo` holds:
    /// `Ok` once one of them gave the blocks, the reason the last one refused otherwise.
    fn local_frames(
        &mut self,
        changed: &Regions,
        redo: &Regions,
        whole: Bbox,
        margin: f64,
        changes: &mut Changes,
    ) -> Result<(), Refused> {
        let mut w = EMPTY_BOX;
        for b in changed.boxes.iter().chain(&self.block_box).chain(self.dropped.iter().map(|d| &d.1)) {
            if redo.meets(*b) {
                w = union_box(w, *b);
            }
        }
        // Frames to try: around the changed surfaces and the blocks they touch; twice as large;
        // stretched to the nearest side of the network, then to the next (a face that reaches
        // past the network's side is the outer face).
        let (lo, hi) = w;
        let mut frames = vec![grow(w, margin), grow(w, (hi[0] - lo[0]).max(hi[1] - lo[1]).max(margin) + margin)];
        let mut sides =
            [(lo[0] - whole.0[0], 0), (whole.1[0] - hi[0], 1), (lo[1] - whole.0[1], 2), (whole.1[1] - hi[1], 3)];
        sides.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (_, side) in sides.iter().take(STRETCHED_FRAMES) {
            let mut f = grow(w, margin);
            match side {
                0 => f.0[0] = whole.0[0],
                1 => f.1[0] = whole.1[0],
                2 => f.0[1] = whole.0[1],
                _ => f.1[1] = whole.1[1],
            }
            frames.push(f);
        }
        // Far from the origin the overlay's grid depends on its extent: only the whole
        // network's frame gives the pipeline's outlines there.
        let anchored = |f: Bbox| crate::overlay::anchored(f, crate::blocks::BLOCK_GRID);
        let usable = |f: Bbox| !contains(f, whole) && anchored(f) && anchored(whole);
        // The join, then the frames, each first with straight rays out of the network only;
        // then with bent ways out (the outer face behind a bend, in a bay or along the strip
        // between two carriageways, which no frame holds). A bent way costs more to look for
        // than a small frame, and less than one that takes in a district: where the join's
        // straight rays missed, it tries bent ways before the first frame that holds more than
        // `BENT_BEFORE_SURFACES` surfaces.
        let missed = |s: &mut Self| s.ways.get_mut().unwrap_or_else(PoisonError::into_inner).missed;
        let join = |s: &mut Self, bent: bool, changes: &mut Changes| {
            s.allow_bent_ways(bent);
            changes.stats.joins_tried += 1;
            let done = s.spliced_blocks(changed, redo, whole, margin, changes);
            changes.stats.joins_made += usize::from(done.is_some());
            done
        };
        if let Some(done) = join(self, false, changes) {
            return done;
        }
        let join_missed = missed(self);
        let mut missed_any = join_missed;
        let mut joined_bent = false;
        for bent in [false, true] {
            if bent {
                // Only a face that no straight ray showed to be the outer face gives bent ways
                // a chance.
                if !missed_any {
                    break;
                }
                if std::mem::replace(&mut joined_bent, true) {
                    self.allow_bent_ways(true);
                } else if let Some(done) = join(self, true, changes) {
                    return done;
                }
            }
            for &frame in frames.iter().take_while(|f| usable(**f)) {
                let large = |s: &Self| {
                    s.pieces_meeting(&[frame]).len() + s.junctions_meeting(&[frame]).len() > BENT_BEFORE_SURFACES
                };
                if !bent && join_missed && !joined_bent && large(self) {
                    joined_bent = true;
                    missed_any |= missed(self);
                    if let Some(done) = join(self, true, changes) {
                        return done;
                    }
                    self.allow_bent_ways(false);
                }
                // Every frame takes all the surfaces that meet it. (A first frame with only the
                // surfaces near the boxes that make it up missed a block that a copied road
                // closed with a road it left out: the face ran out to the frame through the
                // gap, and, joined to the outer face, passed for it.)
                match self.blocks_in(frame, changed, redo, Some(whole), changes) {
                    Err(Refused::Frame) => continue,
                    done_or_clash => return done_or_clash,
                }
            }
            missed_any |= missed(self);
        }
        Err(Refused::Frame)
    }

    /// Whether the outer-face test of the block stage may look for bent ways out
    /// ([`Session::bent_way_out`]); no face missed a way out so far.
    fn allow_bent_ways(&mut self, allow: bool) {
        let ways = self.ways.get_mut().unwrap_or_else(PoisonError::into_inner);
        ways.allowed = allow;
        ways.missed = false;
    }

    /// The blocks found again by [`spliced_faces`] in the region around the changed surfaces
    /// (their boxes grown by `margin`), the old blocks' outlines outside it: `None` where it
    /// cannot tell (then the frames decide), the outcome of putting them in place otherwise.
    fn spliced_blocks(
        &mut self,
        changed: &Regions,
        redo: &Regions,
        whole: Bbox,
        margin: f64,
        changes: &mut Changes,
    ) -> Option<Result<(), Refused>> {
        let boxes: Vec<Bbox> = changed.boxes.iter().map(|b| odd_grid_box(grow(*b, margin))).collect();
        let region = union_of(&boxes);
        let anchored = |f: Bbox| crate::overlay::anchored(f, crate::blocks::BLOCK_GRID);
        if boxes.is_empty() || !anchored(region) || !anchored(whole) {
            return None;
        }
        let meets_region = |b: Bbox| meets(region, b) && boxes.iter().any(|x| meets(*x, b));
        let mut old: Vec<&Polygon> = Vec::new();
        let mut kept: Vec<Face> = Vec::new();
        let raws = self.block_raw.iter().zip(&self.block_box).map(|(r, b)| (r.as_ref().map(|(p, rb)| (p, *rb)), *b));
        let dropped = self.dropped.iter().map(|(_, b, r)| (Some((r, *b)), *b));
        for (raw, b) in raws.chain(dropped) {
            // The cleaned outline's box lies in the raw one's: test the raw outline.
            let Some((raw, raw_box)) = raw else {
                if meets_region(b) || redo.meets(b) {
                    return None;
                }
                continue;
            };
            if meets_region(raw_box) {
                old.push(raw);
            } else if redo.meets(b) {
                // Found again unchanged (to be named again).
                kept.push(crate::blocks::face_of(raw.exterior.clone(), raw.holes.clone()));
            }
        }
        let surfaces: Vec<&Polygon> = (self.pieces_meeting(&boxes).into_iter().map(|i| &self.net.pieces[i].polygon))
            .chain(self.junctions_meeting(&boxes).into_iter().map(|i| &self.net.junctions[i].polygon))
            .collect();
        let clearance = self.settings.tolerance;
        let beside = |a: Point, b: Point| {
            let bx = grow(seg_box((a, b)), clearance);
            let near = (self.pieces_meeting(&[bx]).into_iter().map(|i| &self.net.pieces[i].polygon))
                .chain(self.junctions_meeting(&[bx]).into_iter().map(|i| &self.net.junctions[i].polygon));
            surfaces_beside(near, a, b, &boxes, clearance)
        };
        let mut found = spliced_faces(&surfaces, &boxes, whole, &old, &|m| self.open_from(m, whole), &beside)?;
        found.extend(kept);
        let frame = found.iter().fold(region, |u, f| union_box(u, polygon_box(&f.polygon)));
        match self.find_blocks(grow(frame, margin), changed, redo, Some(whole), Some(found)) {
            Ok(found) => {
                self.take_blocks(found, redo, changes);
                Some(Ok(()))
            }
            Err(Refused::Clash(b)) => Some(Err(Refused::Clash(b))),
            Err(Refused::Frame) => None,
        }
    }

    /// Whether a face that reaches `frame` runs on to infinity: from the middle of some stretch
    /// of its outline along a side of the frame (a point of the face, on no road surface), a
    /// straight ray out past the network (`net_frame`) crosses no road surface of the updated
    /// network, so the face is the outer face.
    fn escapes(&self, face: &Polygon, frame: Bbox, net_frame: Bbox) -> bool {
        let mut starts = leaving_points(face, frame);
        starts.truncate(ESCAPE_POINTS);
        self.open_from(&starts, net_frame)
    }

    /// Whether a straight ray from one of the points `starts` (on no road surface) leaves the
    /// network's frame `net_frame` without crossing a road surface: then they lie in the outer
    /// face. First [`ESCAPE_DIRECTIONS`] directions from each point; then, from the first
    /// [`GAP_POINTS`] points, the directions between the surfaces as seen from there
    /// ([`Session::gap_rays`]), for a way out of a bay of the network that those miss; then a
    /// bent way ([`Session::bent_way_out`]).
    fn open_from(&self, starts: &[Point], net_frame: Bbox) -> bool {
        // Long enough to leave the network's frame from anywhere inside it.
        let span = (net_frame.1[0] - net_frame.0[0]) + (net_frame.1[1] - net_frame.0[1]);
        let along = |m: Point, d: Point| Point::new(m.x + span * d.x, m.y + span * d.y);
        let evenly = |m: Point| {
            (0..ESCAPE_DIRECTIONS).any(|k| {
                let angle = std::f64::consts::TAU * k as f64 / ESCAPE_DIRECTIONS as f64;
                self.ray_out(m, along(m, Point::new(angle.cos(), angle.sin())))
            })
        };
        let gaps = |m: Point| self.gap_rays(m, &mut |dirs, _| dirs.iter().any(|&d| self.ray_out(m, along(m, d))));
        // What a point showed is kept for the rest of the block stage: the frames that grow
        // look from the same points again.
        let lock = || self.ways.lock().unwrap_or_else(PoisonError::into_inner);
        let straight = |m: Point, through_gaps: bool| {
            let key = (m.x.to_bits(), m.y.to_bits(), through_gaps);
            let kept = lock().straight.get(&key).copied();
            if let Some((frame, out)) = kept {
                if frame == net_frame {
                    return out;
                }
            }
            let out = if through_gaps { gaps(m) } else { evenly(m) };
            lock().straight.insert(key, (net_frame, out));
            out
        };
        if starts.iter().any(|&m| straight(m, false)) {
            return true;
        }
        starts.iter().take(GAP_POINTS).any(|&m| straight(m, true)) || self.bent_way_out(starts, net_frame)
    }

    /// [`Session::ray_clear`], the surfaces along the segment looked at first where the grids
    /// are kept: a segment that meets one nearby is told blocked without a look at every
    /// surface of the network.
    fn ray_out(&self, m: Point, far: Point) -> bool {
        let walks = self.walk_along(m, far).is_some();
        // A contact that the walk finds is an exact one: the segment is blocked.
        (!walks || self.first_contact(m, far) >= 1.0) && self.ray_clear(m, far)
    }

    /// Whether the grids of road pieces and junctions are kept (long lists).
    fn grids_kept(&self) -> bool {
        self.piece_grid.is_kept() && self.junction_grid.is_kept()
    }

    /// The walk of the grids' cells along the segment from `m` to `far`, where the grids are
    /// kept and the walk is short enough ([`MAX_WALK_CELLS`]).
    fn walk_along(&self, m: Point, far: Point) -> Option<CellsAlong> {
        let walk = CellsAlong::new([m.x, m.y], [far.x, far.y]);
        (self.grids_kept() && walk.len_bound() <= MAX_WALK_CELLS).then_some(walk)
    }

    /// Whether `clear` takes one of the directions from `m` between the road surfaces as seen
    /// from there: [`free_directions`] over every surface of the network, the first
    /// [`GAP_RAYS`], given as the last batch (`true` with it); the surfaces with an empty box
    /// (outlines of fewer than 3 points, which the block stage and [`Session::ray_clear`] leave
    /// out) are not taken. The search stops as soon as no direction is left. Where the grids
    /// are kept, they give the surfaces in a square around `m` first ([`GAP_LOOK`]), then in
    /// squares twice as large until one holds every surface, each square's nearest box first,
    /// and the directions through the gaps seen after each square are given too (`false` with
    /// them, when the square added a ring): a farther surface only narrows a gap, and a clear
    /// ray is a way out whichever gap it passes through, so a way out is most often found
    /// before every surface of the network is looked at. Without the grids every surface is
    /// taken in one pass, nearest box first.
    fn gap_rays(&self, m: Point, clear: &mut dyn FnMut(&[Point], bool) -> bool) -> bool {
        let mut arcs = SeenArcs::new(m);
        let early = self.grids_kept();
        let mut give = |arcs: &SeenArcs, last: bool| {
            let dirs = arcs.directions();
            clear(&dirs[..dirs.len().min(GAP_RAYS)], last)
        };
        let hull = union_box(self.junction_tally.hull, self.piece_tally.hull);
        // The square whose surfaces were taken (every surface whose box meets it).
        let mut taken: Option<Bbox> = None;
        let mut half = GAP_LOOK;
        // Without the grids each square would look through every surface: one pass does.
        let rounds = if early { GAP_LOOK_ROUNDS } else { 0 };
        let (mut scans, mut given) = (0, 0);
        for _ in 0..rounds {
            let square = grow(([m.x, m.y], [m.x, m.y]), half);
            let asked = (self.piece_grid.meeting(&[square]), self.junction_grid.meeting(&[square]));
            let (pieces, junctions) = match asked {
                (Some(pieces), Some(junctions)) => (pieces, junctions),
                _ if scans == GAP_SCAN_ROUNDS => break,
                _ => {
                    scans += 1;
                    (self.pieces_meeting(&[square]), self.junctions_meeting(&[square]))
                }
            };
            let pieces =
                pieces.into_iter().map(|i| (self.net.pieces[i].polygon.exterior.as_slice(), self.piece_box[i]));
            let junctions = (junctions.into_iter())
                .map(|i| (self.net.junctions[i].polygon.exterior.as_slice(), self.junction_box[i]));
            let found =
                pieces.chain(junctions).filter(|(_, b)| meets(square, *b) && !taken.is_some_and(|t| meets(t, *b)));
            if !arcs.take_nearest_first(found) {
                return false;
            }
            taken = Some(square);
            if contains(square, hull) {
                return give(&arcs, true);
            }
            // The same directions as the last batch when no ring was added.
            if arcs.looked > given && give(&arcs, false) {
                return true;
            }
            given = arcs.looked;
            half *= 2.0;
        }
        // Without the grids, or past the squares (a network wider than they grow, or a point
        // that is not finite): every surface left.
        let pieces = self.net.pieces.iter().map(|p| p.polygon.exterior.as_slice()).zip(self.piece_box.iter().copied());
        let junctions =
            self.net.junctions.iter().map(|j| j.polygon.exterior.as_slice()).zip(self.junction_box.iter().copied());
        let rest = pieces
            .chain(junctions)
            .filter(|(_, b)| b.0[0] <= b.1[0] && b.0[1] <= b.1[1] && !taken.is_some_and(|t| meets(t, *b)));
        arcs.take_nearest_first(rest) && give(&arcs, true)
    }

    /// Whether a path of straight legs from one of `starts` (points on no road surface) leaves
    /// the network's frame `net_frame`, each leg more than [`WAY_CLEARANCE`] from every road
    /// surface, the last a ray out of the frame as clear: then they lie in the outer face.
    /// From each turning point (nearest the frame's sides first, among those in the squares of
    /// side [`WAY_AREA`] turned in least often), rays on along the leg that came there
    /// ([`WAY_FAN_DEG`]), in [`ESCAPE_DIRECTIONS`] directions and through the widest gaps
    /// between the surfaces around it; a ray that meets a surface gives a leg to a turning
    /// point [`WAY_BACKOFF`] short of it, the longest [`WAY_BRANCHES`] legs are taken on. At
    /// most [`WAY_TURNS`] turning points (the starts among them), at most one in each square of
    /// side [`WAY_CELL`]. False when none was found: the face may still be the outer face, by a
    /// way this misses (the frames then grow).
    fn bent_way_out(&self, starts: &[Point], net_frame: Bbox) -> bool {
        let span = (net_frame.1[0] - net_frame.0[0]) + (net_frame.1[1] - net_frame.0[1]);
        // How far a point lies inside the frame from its nearest side.
        let inside = |p: Point| {
            (p.x - net_frame.0[0]).min(net_frame.1[0] - p.x).min(p.y - net_frame.0[1]).min(net_frame.1[1] - p.y)
        };
        let mut ways = self.ways.lock().unwrap_or_else(PoisonError::into_inner);
        if !ways.allowed {
            ways.missed = true;
            return false;
        }
        let mut seen: FxHashSet<(i64, i64)> = starts.iter().map(|&p| way_square(p)).collect();
        // Turning points still to look from, each with the direction of the leg to it, and
        // those looked from.
        let mut open: Vec<(Point, Option<Point>)> = starts.iter().map(|&p| (p, None)).collect();
        let mut looked: Vec<Point> = Vec::new();
        let mut visits: FxHashMap<(i64, i64), u32> = FxHashMap::default();
        let found = 'search: {
            for _ in 0..WAY_TURNS {
                // The point nearest a side of the frame, the first of those as near, among those
                // in the areas looked from least: a pocket near a side is left once each of its
                // areas has been looked from, for points further from the side.
                let key = |k: usize| (visits.get(&way_area(open[k].0)).copied().unwrap_or(0), inside(open[k].0), k);
                let nearest = (0..open.len())
                    .map(key)
                    .min_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)))
                    .map(|(_, _, k)| k);
                let Some(k) = nearest else {
                    break 'search false;
                };
                let (p, came) = open.remove(k);
                *visits.entry(way_area(p)).or_insert(0) += 1;
                looked.push(p);
                // A clear leg to a point of a way found out before is a way out.
                let known = ways.out.get(&way_square(p)).into_iter().flatten();
                if known.copied().any(|q| self.leg_clear(p, q)) {
                    break 'search true;
                }
                let look = grow(([p.x, p.y], [p.x, p.y]), WAY_LOOK);
                let pieces =
                    self.pieces_meeting(&[look]).into_iter().map(|i| (&self.net.pieces[i].polygon, self.piece_box[i]));
                let junctions = (self.junctions_meeting(&[look]).into_iter())
                    .map(|i| (&self.net.junctions[i].polygon, self.junction_box[i]));
                let outlines: Vec<(&[Point], Bbox)> =
                    pieces.chain(junctions).map(|(q, b)| (q.exterior.as_slice(), b)).collect();
                let turned = |d: Point, deg: f64| {
                    let (sin, cos) = deg.to_radians().sin_cos();
                    Point::new(d.x * cos - d.y * sin, d.x * sin + d.y * cos)
                };
                // On along the leg that came here, a little either way (a way along a curving
                // strip between two roads), evenly round, through the gaps.
                let on = came.into_iter().flat_map(|d| WAY_FAN_DEG.iter().map(move |&deg| turned(d, deg)));
                let evenly = (0..ESCAPE_DIRECTIONS)
                    .map(|k| turned(Point::new(1.0, 0.0), 360.0 * k as f64 / ESCAPE_DIRECTIONS as f64));
                let gaps = free_directions(p, &outlines).into_iter().take(GAP_RAYS);
                let mut legs: Vec<(f64, Point)> = Vec::new();
                for d in on.chain(evenly).chain(gaps) {
                    let length = span / d.len().max(f64::MIN_POSITIVE);
                    let far = Point::new(p.x + length * d.x, p.y + length * d.y);
                    let t = self.first_contact(p, far);
                    if t >= 1.0 {
                        // Out, as clear of every surface as the legs before.
                        if self.leg_clear(p, far) {
                            break 'search true;
                        }
                        continue;
                    }
                    let leg = t * span - WAY_BACKOFF;
                    if leg >= WAY_MIN_LEG {
                        legs.push((leg, p.lerp(far, leg / span)));
                    }
                }
                // The longest legs first, the first of those as long; none into a square that a
                // search which found no way out looked from.
                legs.sort_by(|a, b| b.0.total_cmp(&a.0));
                let mut taken = 0;
                for (leg, q) in legs {
                    if taken == WAY_BRANCHES {
                        break;
                    }
                    let at = way_square(q);
                    if !seen.contains(&at) && !ways.explored.contains(&at) && self.leg_clear(p, q) {
                        seen.insert(at);
                        open.push((q, Some(q.sub(p).scale(1.0 / leg))));
                        taken += 1;
                    }
                }
            }
            false
        };
        for p in looked {
            if found {
                ways.out.entry(way_square(p)).or_default().push(p);
            } else {
                ways.explored.insert(way_square(p));
            }
        }
        found
    }

    /// The parameter along the segment from `m` to `far` of its first contact with a road
    /// surface (1 when it meets none). Walks the grid's cells along the segment, nearest first,
    /// where the grids are kept and the walk is short ([`MAX_WALK_CELLS`]); looks at every
    /// surface otherwise. A contact it finds is exact (a segment that reaches one is blocked),
    /// but the walk may step past a cell that a segment grazes at a corner and miss one: a
    /// segment it finds clear is checked exactly ([`Session::ray_clear`],
    /// [`Session::leg_clear`]).
    fn first_contact(&self, m: Point, far: Point) -> f64 {
        let contact = |p: &Polygon, b: &Bbox| {
            if !segment_meets(m, far, grow(*b, crate::blocks::BLOCK_GRID)) {
                return 1.0;
            }
            let mut first = 1.0f64;
            for r in std::iter::once(&p.exterior).chain(&p.holes) {
                for k in 0..r.len() {
                    match segment_hit(m, far, r[k], r[(k + 1) % r.len()]) {
                        SegHit::None => {}
                        SegHit::Point { ta, .. } => first = first.min(ta),
                        SegHit::Overlap { ta0, .. } => first = first.min(ta0),
                    }
                }
            }
            first
        };
        let piece = |i: usize| contact(&self.net.pieces[i].polygon, &self.piece_box[i]);
        let junction = |i: usize| contact(&self.net.junctions[i].polygon, &self.junction_box[i]);
        let Some(walk) = self.walk_along(m, far) else {
            let pieces = (0..self.net.pieces.len()).map(piece);
            return pieces.chain((0..self.net.junctions.len()).map(junction)).fold(1.0, f64::min);
        };
        let mut first = 1.0f64;
        let (mut pieces_seen, mut junctions_seen) = (FxHashSet::default(), FxHashSet::default());
        for (n, (cell, leave)) in walk.enumerate() {
            self.piece_grid.each_in_cell(cell, n == 0, |i| {
                if pieces_seen.insert(i) {
                    first = first.min(piece(i));
                }
            });
            self.junction_grid.each_in_cell(cell, n == 0, |i| {
                if junctions_seen.insert(i) {
                    first = first.min(junction(i));
                }
            });
            if first <= leave {
                break;
            }
        }
        first
    }

    /// Whether the segment from `p` to `q` keeps more than [`WAY_CLEARANCE`] from every road
    /// surface: then, from a point on no surface, it crosses and touches none.
    fn leg_clear(&self, p: Point, q: Point) -> bool {
        let bx = grow(seg_box((p, q)), WAY_CLEARANCE);
        // A surface whose box, grown by the clearance, the segment misses is farther away.
        let clear_of = |poly: &Polygon, b: &Bbox| {
            !segment_meets(p, q, grow(*b, WAY_CLEARANCE))
                || std::iter::once(&poly.exterior)
                    .chain(&poly.holes)
                    .all(|r| (0..r.len()).all(|k| segment_distance(p, q, r[k], r[(k + 1) % r.len()]) > WAY_CLEARANCE))
        };
        self.pieces_meeting(&[bx]).into_iter().all(|i| clear_of(&self.net.pieces[i].polygon, &self.piece_box[i]))
            && (self.junctions_meeting(&[bx]).into_iter())
                .all(|i| clear_of(&self.net.junctions[i].polygon, &self.junction_box[i]))
    }

    /// Whether the segment from `m` to `far` crosses or touches no road surface (exact).
    fn ray_clear(&self, m: Point, far: Point) -> bool {
        let ray = ([m.x.min(far.x), m.y.min(far.y)], [m.x.max(far.x), m.y.max(far.y)]);
        let blocked = |p: &Polygon, b: &Bbox| {
            // The box grown by the block grid: rounding in the slab test cannot skip a
            // surface the ray only grazes.
            meets(*b, ray)
                && segment_meets(m, far, grow(*b, crate::blocks::BLOCK_GRID))
                && std::iter::once(&p.exterior)
                    .chain(&p.holes)
                    .any(|r| (0..r.len()).any(|k| segment_hit(m, far, r[k], r[(k + 1) % r.len()]) != SegHit::None))
        };
        !(self.net.pieces.iter().zip(&self.piece_box).any(|(p, b)| blocked(&p.polygon, b))
            || self.net.junctions.iter().zip(&self.junction_box).any(|(j, b)| blocked(&j.polygon, b)))
    }

    /// How far the pieces that give a block its bands may lie from it (`blocks::band_reach`),
    /// metres. A tolerance where no block had bands of its own before the update and every
    /// piece has the default band on both sides after it: then no block has bands either way,
    /// and the surfaces a block touches give its one band.
    fn band_reach(&self) -> f64 {
        let varied = self.piece_tally.varied > 0 || self.net.blocks.iter().any(|b| !b.bands.is_empty());
        if varied {
            band_reach(&self.settings)
        } else {
            self.settings.tolerance
        }
    }

    /// The positions of the junctions whose boxes meet one of `region`, in order.
    fn junctions_meeting(&self, region: &[Bbox]) -> Vec<usize> {
        meeting(&self.junction_grid, &self.junction_box, region)
    }

    /// The positions of the road pieces whose boxes meet one of `region`, in order.
    fn pieces_meeting(&self, region: &[Bbox]) -> Vec<usize> {
        meeting(&self.piece_grid, &self.piece_box, region)
    }

    /// How far a block frame reaches past what it must hold: the widest road, at least the snap
    /// distance and a metre, metres.
    fn frame_margin(&self) -> f64 {
        self.piece_tally.widest().max(self.settings.snap_distance).max(1.0)
    }

    /// Finds the faces inside `frame` and replaces the blocks (and dropped faces) that meet
    /// `redo` (the surfaces that `changed`, and blocks to name again) by the faces that do.
    /// Without `network` the frame is the whole network's (faces that reach it are the outer
    /// face), and it always succeeds. With it (the whole network's frame), an error, with
    /// nothing changed, when a face that meets `changed` reaches the frame only inside the
    /// network (it may be larger than the frame) or cannot be named from inside the frame
    /// ([`Refused::Frame`]), or when blocks that stay would need numbering again
    /// ([`Refused::Clash`]).
    fn blocks_in(
        &mut self,
        frame: Bbox,
        changed: &Regions,
        redo: &Regions,
        network: Option<Bbox>,
        changes: &mut Changes,
    ) -> Result<(), Refused> {
        if network.is_none() {
            return self.whole_blocks(frame, changed, redo, changes);
        }
        let found = self.find_blocks(frame, changed, redo, network, None)?;
        self.take_blocks(found, redo, changes);
        Ok(())
    }

    /// [`Session::blocks_in`] with the whole network's frame. Its faces do not depend on what
    /// changed: found once, those that meet `redo` are named, and all of them when blocks that
    /// stay would need numbering again.
    fn whole_blocks(
        &mut self,
        frame: Bbox,
        changed: &Regions,
        redo: &Regions,
        changes: &mut Changes,
    ) -> Result<(), Refused> {
        let faces = whole_faces(&self.net, &self.settings).map_or_else(Vec::new, |f| f.inner);
        // The faces that `find_blocks` would keep of them, in order.
        let near: Vec<Face> = faces.iter().filter(|f| redo.meets(polygon_box(&f.polygon))).cloned().collect();
        match self.find_blocks(frame, changed, redo, None, Some(near)) {
            Ok(found) => {
                self.take_blocks(found, redo, changes);
                Ok(())
            }
            Err(Refused::Clash(_)) => {
                // The pipeline numbers blocks with one base by their corners, all together:
                // find every block again (no block stays, so no clash is left: the region holds
                // every old block and dropped face, even one outside the network's new frame).
                let old = self.block_box.iter().chain(self.dropped.iter().map(|d| &d.1));
                let all = Regions::of(old.fold(frame, |u, b| union_box(u, *b)));
                let found = self.find_blocks(frame, &all, &all, None, Some(faces))?;
                self.take_blocks(found, &all, changes);
                Ok(())
            }
            Err(e) => Err(e),
        }
    }

    /// The work of [`Session::blocks_in`] that changes nothing: the faces found and what
    /// they replace, or why there are none.
    fn find_blocks(
        &self,
        frame: Bbox,
        changed: &Regions,
        redo: &Regions,
        network: Option<Bbox>,
        given: Option<Vec<Face>>,
    ) -> Result<FoundBlocks, Refused> {
        let whole = network.is_none();
        // Faces given have their surfaces already.
        let (pi, ji) = match given {
            Some(_) => (Vec::new(), Vec::new()),
            None => (self.pieces_meeting(&[frame]), self.junctions_meeting(&[frame])),
        };
        let surfaces =
            pi.iter().map(|&i| &self.net.pieces[i].polygon).chain(ji.iter().map(|&i| &self.net.junctions[i].polygon));
        // The whole network's faces are found as the pipeline finds them, part by part.
        let found = match (given, whole) {
            (Some(inner), _) => Faces { inner, outer: Vec::new() },
            (None, true) => {
                whole_faces(&self.net, &self.settings).unwrap_or(Faces { inner: Vec::new(), outer: Vec::new() })
            }
            (None, false) => faces(surfaces, frame),
        };
        if let Some(net_frame) = network {
            // A face that reaches the frame where surfaces changed may be larger than the frame,
            // unless it reaches a side of the frame that lies outside the network's frame: from
            // there it runs on to infinity, so it is the outer face.
            let ([x0, y0], [x1, y1]) = frame;
            let near = 2.0 * crate::blocks::BLOCK_GRID;
            let outside = |p: &Point| {
                (x0 < net_frame.0[0] && p.x <= x0 + near)
                    || (x1 > net_frame.1[0] && p.x >= x1 - near)
                    || (y0 < net_frame.0[1] && p.y <= y0 + near)
                    || (y1 > net_frame.1[1] && p.y >= y1 - near)
            };
            // The cheap test first: most faces that reach the frame miss the boxes of the changed
            // surfaces, and casting rays from them tests every surface of the network.
            let open = found.outer.iter().any(|o| {
                let ob = polygon_box(o);
                if o.exterior.iter().any(outside) {
                    return false;
                }
                let rects: Vec<Vec<[f64; 2]>> = changed
                    .boxes
                    .iter()
                    .filter(|b| meets(ob, **b))
                    .map(|&([bx0, by0], [bx1, by1])| vec![[bx0, by0], [bx1, by0], [bx1, by1], [bx0, by1]])
                    .collect();
                // Chunk boxes overlap one another: the non-zero rule takes their union.
                !rects.is_empty()
                    && !self.escapes(o, frame, net_frame)
                    && FloatPredicateOverlay::with_subj_and_clip_custom(
                        &shape(o),
                        &rects,
                        FillRule::NonZero,
                        Solver::default(),
                    )
                    .interiors_intersect()
            });
            if open {
                return Err(Refused::Frame);
            }
        }
        // The faces that meet the changed surfaces replace the old blocks that do (judged on
        // the cleaned outline, as the old blocks' boxes are).
        let (mut kept, mut small): (Vec<Face>, Vec<Face>) = (Vec::new(), Vec::new());
        for face in found.inner {
            // A cleaned outline's box lies in the raw one's: faces whose raw box misses `redo`
            // are not named at all.
            let fb = polygon_box(&face.polygon);
            if !redo.meets(fb) {
                continue;
            }
            if face.area < self.settings.min_block_area {
                small.push(face);
            } else {
                kept.push(face);
            }
        }
        let gone: Vec<bool> = self.block_box.iter().map(|b| redo.meets(*b)).collect();
        if !whole {
            // A block (or dropped face) to find again that no changed surface meets keeps its
            // face, whose corner names it: a frame that does not find that face again (left a
            // surface out that closed it, so that it ran out to the frame) would lose it.
            let mut found_corners: Vec<(f64, f64)> =
                kept.iter().chain(&small).map(|f| (f.corner.x, f.corner.y)).collect();
            found_corners.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
            let refound =
                |c: Point| found_corners.binary_search_by(|f| f.0.total_cmp(&c.x).then(f.1.total_cmp(&c.y))).is_ok();
            let blocks = (self.block_box.iter().zip(&self.block_naming).zip(&gone))
                .filter(|(_, g)| **g)
                .map(|((b, n), _)| (*b, n.0));
            let dropped = self.dropped.iter().filter(|(_, b, _)| redo.meets(*b)).map(|(d, b, _)| (*b, d.position));
            for (b, corner) in blocks.chain(dropped) {
                if !changed.meets(b) && !refound(corner) {
                    return Err(Refused::Frame);
                }
            }
        }
        // The pieces that may name a face or give it its bands (`band_reach` of it).
        let named_by = grow(frame, self.band_reach());
        let pieces: Vec<&RoadPiece> =
            self.pieces_meeting(&[named_by]).into_iter().map(|i| &self.net.pieces[i]).collect();
        let corners: Vec<Point> = kept.iter().map(|f| f.corner).collect();
        // The raw outline of each face by its corner (none where two faces share a corner).
        let mut raw_at: BTreeMap<(u64, u64), Raw> = BTreeMap::new();
        for f in &kept {
            let key = (f.corner.x.to_bits(), f.corner.y.to_bits());
            let fresh = !raw_at.contains_key(&key);
            raw_at.insert(key, fresh.then(|| (f.polygon.clone(), polygon_box(&f.polygon))));
        }
        let (named, corners): (Vec<_>, Vec<Point>) = name_faces(kept, &pieces, &self.settings)
            .into_iter()
            .zip(corners)
            .filter(|(n, _)| redo.meets(polygon_box(&n.0 .2.polygon)))
            .unzip();
        if !whole {
            // A block is named by the nearest road piece: one outside the frame could be nearer
            // than those inside only if the corner is closer to the frame than to them.
            // Then every piece nearer than the one found has its box in the box of the disc
            // through it: the corner is named again by those, and the frame stands when the
            // name, profile and distance come out the same.
            for (((base, _, block), d2), c) in named.iter().zip(&corners) {
                let to_frame =
                    (c.x - frame.0[0]).min(frame.1[0] - c.x).min(c.y - frame.0[1]).min(frame.1[1] - c.y).max(0.0);
                let d = d2.sqrt();
                if d < to_frame {
                    continue;
                }
                if !d.is_finite() {
                    return Err(Refused::Frame);
                }
                let disc = ([c.x - d, c.y - d], [c.x + d, c.y + d]);
                let near: Vec<&RoadPiece> =
                    self.pieces_meeting(&[disc]).into_iter().map(|i| &self.net.pieces[i]).collect();
                let (name, profile, nearest) = name_at(*c, &near, &self.settings);
                if name != *base || profile != block.profile || nearest != *d2 {
                    return Err(Refused::Frame);
                }
            }
        }
        // Ids made unique among blocks that stay cannot be settled here: blocks are numbered
        // by base all together, so a block that stays and shares its base with a block found
        // again, or with one that goes (its `#n` may count it), needs them all.
        fn base_of(id: &str) -> &str {
            id.rsplit_once('#').filter(|_| suffixed(id)).map_or(id, |x| x.0)
        }
        let mut bases: BTreeSet<&str> = named.iter().map(|((base, _, _), _)| base.as_str()).collect();
        bases.extend(self.net.blocks.iter().zip(&gone).filter(|(_, g)| **g).map(|(b, _)| base_of(&b.id)));
        let clash: Vec<Bbox> = (self.net.blocks.iter().zip(&gone).zip(&self.block_box))
            .filter(|((b, g), _)| !**g && bases.contains(base_of(&b.id)))
            .map(|(_, bx)| *bx)
            .collect();
        if !clash.is_empty() {
            return Err(Refused::Clash(clash));
        }
        // Lots depend on nothing but a block's outline, profile and bands: an old block that comes out
        // again keeps its lots.
        let old_lots: BTreeMap<&str, &Block> =
            self.net.blocks.iter().zip(&gone).filter(|(_, g)| **g).map(|(b, _)| (b.id.as_str(), b)).collect();
        let known = |b: &Block| {
            old_lots
                .get(b.id.as_str())
                .filter(|o| o.polygon == b.polygon && o.profile == b.profile && o.bands == b.bands)
                .map(|o| o.lots.clone())
        };
        let fresh = finish_blocks(named, &self.settings, &known)
            .into_iter()
            .map(|(b, n)| {
                let raw = raw_at.get(&(n.0.x.to_bits(), n.0.y.to_bits())).cloned().flatten();
                (b, n, raw)
            })
            .collect();
        Ok(FoundBlocks { fresh, small, gone })
    }

    /// Puts what [`Session::find_blocks`] found in place of what it replaces; the rest of
    /// [`Session::blocks_in`].
    fn take_blocks(&mut self, found: FoundBlocks, redo: &Regions, changes: &mut Changes) {
        let FoundBlocks { fresh, small, gone } = found;
        {
            let old_refs: Vec<&Block> =
                self.net.blocks.iter().zip(&gone).filter(|(_, g)| **g).map(|(b, _)| b).collect();
            let fresh_refs: Vec<&Block> = fresh.iter().map(|(b, _, _)| b).collect();
            diff_features(FeatureKind::Block, &old_refs, &fresh_refs, |b| &b.id, changes);
        }
        // In place, as `replace` does: a block found again with its id keeps its slot; the
        // blocks that go leave, and the new ones are put where the order of ids has them.
        let mut by_id: BTreeMap<String, FoundBlock> =
            fresh.into_iter().map(|(b, n, raw)| (b.id.clone(), (b, n, raw))).collect();
        let mut leave = gone;
        for (i, g) in leave.iter_mut().enumerate() {
            if !*g {
                continue;
            }
            if let Some((b, n, raw)) = by_id.remove(&self.net.blocks[i].id) {
                self.block_box[i] = polygon_box(&b.polygon);
                self.block_naming[i] = n;
                self.block_raw[i] = raw;
                self.net.blocks[i] = b;
                *g = false;
            }
        }
        if leave.iter().any(|g| *g) {
            drop_marked(&mut self.net.blocks, &leave);
            drop_marked(&mut self.block_box, &leave);
            drop_marked(&mut self.block_naming, &leave);
            drop_marked(&mut self.block_raw, &leave);
        }
        if by_id.len() <= FEW_INSERTS {
            for (_, (b, n, raw)) in by_id {
                let at = self.net.blocks.partition_point(|x| x.id < b.id);
                self.block_box.insert(at, polygon_box(&b.polygon));
                self.block_naming.insert(at, n);
                self.block_raw.insert(at, raw);
                self.net.blocks.insert(at, b);
            }
        } else {
            type Kept = (Block, (Point, f64), Bbox, Raw);
            let mut blocks: Vec<Kept> = (std::mem::take(&mut self.net.blocks).into_iter())
                .zip(std::mem::take(&mut self.block_naming))
                .zip(std::mem::take(&mut self.block_box))
                .zip(std::mem::take(&mut self.block_raw))
                .map(|(((b, n), bb), raw)| (b, n, bb, raw))
                .collect();
            blocks.extend(by_id.into_values().map(|(b, n, raw)| {
                let bb = polygon_box(&b.polygon);
                (b, n, bb, raw)
            }));
            // Both runs are in id order: a stable sort merges them.
            blocks.sort_by(|a, b| a.0.id.cmp(&b.0.id));
            self.block_box = blocks.iter().map(|k| k.2).collect();
            self.block_naming = blocks.iter().map(|k| k.1).collect();
            let (blocks, raw): (Vec<Block>, Vec<Raw>) = blocks.into_iter().map(|k| (k.0, k.3)).unzip();
            self.net.blocks = blocks;
            self.block_raw = raw;
        }
        self.diags_out.extend(self.dropped.extract_if(.., |d| redo.meets(d.1)).map(|d| d.0));
        for f in small {
            let d = face_dropped(&f, &self.settings);
            self.diags_in.push(d.clone());
            self.dropped.push((d, polygon_box(&f.polygon), f.polygon));
        }
    }
}

/// A build of an update's window: its network, extents and diagnostics, the window it was built
/// from, and the boxes of its junctions' and pieces' outlines (in the network's order).
struct WindowBuild {
    net: Network,
    ext: Extents,
    diags: Vec<Diagnostic>,
    built: Regions,
    junction_box: Vec<Bbox>,
    piece_box: Vec<Bbox>,
}

/// What [`Session::find_blocks`] found: the new blocks with their naming (corner, distance to
/// the piece that names them), the faces too small to be blocks, and which old blocks go (by
/// index).
struct FoundBlocks {
    fresh: Vec<FoundBlock>,
    small: Vec<Face>,
    gone: Vec<bool>,
}

/// A block found again, with its corner and distance to the piece that names it, and its raw
/// outline (where known).
type FoundBlock = (Block, (Point, f64), Raw);

/// A face's outline as the overlay gave it, with its box, where it is known.
type Raw = Option<(Polygon, Bbox)>;

/// Why [`Session::find_blocks`] found no blocks to put in place in a frame.
enum Refused {
    /// A face that meets the changed surfaces may run on past the frame, or be named from
    /// outside it: a larger frame may do.
    Frame,
    /// Blocks that stay share an id base with blocks found again or gone (their boxes): the
    /// pipeline numbers the blocks of one base (`#2`, `#3`, ...) by their corners all
    /// together, so those must be found again as well.
    Clash(Vec<Bbox>),
}

/// How far a road's surface, its corners and its nodes reach from its centerline: its width and
/// its corner radius, metres.
fn own_reach(line: &RoadLine) -> f64 {
    line.width + line.corner_radius
}

/// A road's own reach as bits that sort as the reaches do (one that is not above zero, which a
/// prepared road never has, counts as zero, as it does in the largest reach).
fn own_reach_bits(line: &RoadLine) -> u64 {
    let r = own_reach(line);
    if r > 0.0 {
        r.to_bits()
    } else {
        0
    }
}

/// The boxes of a feature's extent, or the box of its surface when none was kept.
fn extent_of<'a>(exts: &'a BTreeMap<String, Extent>, id: &str, surface: &'a Bbox) -> &'a [Bbox] {
    exts.get(id).map_or(std::slice::from_ref(surface), Vec::as_slice)
}

/// Adds each box of an extent, grown by `reach`, to a region; true when the region grew.
fn add_grown(region: &mut Regions, extent: &[Bbox], reach: f64) -> bool {
    let mut grew = false;
    for b in extent {
        grew |= region.add(grow(*b, reach));
    }
    grew
}

/// The box of a diagnostic's position (a point).
fn diagnostic_box(d: &Diagnostic) -> Bbox {
    ([d.position.x, d.position.y], [d.position.x, d.position.y])
}

/// The box of a surface's outline; empty for an outline the block stage leaves out.
fn surface_box(p: &Polygon) -> Bbox {
    if p.exterior.len() < 3 {
        EMPTY_BOX
    } else {
        polygon_box(p)
    }
}

/// A junction or a road piece, as [`replace`] handles them.
trait Feature: PartialEq {
    fn id(&self) -> &str;
    fn polygon(&self) -> &Polygon;
    /// The junctions a road piece ends at.
    fn ends(&self) -> [Option<&str>; 2] {
        [None, None]
    }
    /// A road piece's width and whether a side band of it differs from `band`.
    fn width_and_varied(&self, _band: f64) -> Option<(f64, bool)> {
        None
    }
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
    fn ends(&self) -> [Option<&str>; 2] {
        [self.from.as_deref(), self.to.as_deref()]
    }
    fn width_and_varied(&self, band: f64) -> Option<(f64, bool)> {
        Some((self.width, [true, false].into_iter().any(|l| side_band(&self.profile, l) != band)))
    }
}

/// The outlines of a list of junctions or road pieces as a whole, kept in step with the list
/// as features come, go and change, so that an update does not read every feature for them.
struct Tally {
    /// The box around every outline's box.
    hull: Bbox,
    /// Whether a box that went lay on a side of `hull`: then it is found again from the list.
    stale: bool,
    /// How many pieces have each width (metres, as bits: see [`width_bits`]).
    widths: BTreeMap<u64, usize>,
    /// How many pieces have a side band other than the profile's.
    varied: usize,
    /// The profile's side band ([`crate::blocks::uniform_band`]), metres.
    band: f64,
}

impl Default for Tally {
    fn default() -> Self {
        Tally { hull: EMPTY_BOX, stale: false, widths: BTreeMap::new(), varied: 0, band: 0.0 }
    }
}

impl Tally {
    /// The tally of a list and its boxes; `band`, the profile's side band.
    fn of<F: Feature>(all: &[F], boxes: &[Bbox], band: f64) -> Self {
        let mut t = Tally { band, ..Tally::default() };
        for (f, b) in all.iter().zip(boxes) {
            t.come(f, *b);
        }
        t
    }

    fn come<F: Feature>(&mut self, f: &F, b: Bbox) {
        self.hull = union_box(self.hull, b);
        if let Some((w, varied)) = f.width_and_varied(self.band) {
            *self.widths.entry(width_bits(w)).or_default() += 1;
            self.varied += usize::from(varied);
        }
    }

    fn go<F: Feature>(&mut self, f: &F, b: Bbox) {
        let h = self.hull;
        self.stale |= b.0[0] <= h.0[0] || b.0[1] <= h.0[1] || b.1[0] >= h.1[0] || b.1[1] >= h.1[1];
        if let Some((w, varied)) = f.width_and_varied(self.band) {
            let key = width_bits(w);
            if let Some(n) = self.widths.get_mut(&key) {
                *n -= 1;
                if *n == 0 {
                    self.widths.remove(&key);
                }
            }
            self.varied = self.varied.saturating_sub(usize::from(varied));
        }
    }

    /// Finds the hull again from the list's boxes when a box left from its side.
    fn settle(&mut self, boxes: &[Bbox]) {
        if std::mem::take(&mut self.stale) {
            self.hull = union_of(boxes);
        }
    }

    /// The widest piece's width (0 without a piece), as `fold(0.0, f64::max)` over the widths.
    fn widest(&self) -> f64 {
        self.widths.keys().next_back().map_or(0.0, |&bits| f64::from_bits(bits))
    }
}

/// A width as bits that sort as the widths do: those not above zero (and NaN), which the
/// widest width passes over, as zero.
fn width_bits(w: f64) -> u64 {
    if w > 0.0 {
        w.to_bits()
    } else {
        0
    }
}

/// Replaces the features of a list (with their boxes and extents, kept in step) that meet `z`
/// by the features of `local` (with their outlines' boxes) that do, keeping the list sorted by id; records what changed in
/// `changes` and the boxes of the surfaces that changed in `changed`.
fn replace<F: Feature>(
    kind: FeatureKind,
    changes: &mut Changes,
    (all, boxes, exts, grid, tally): (
        &mut Vec<F>,
        &mut Vec<Bbox>,
        &mut BTreeMap<String, Extent>,
        &mut PlacedGrid,
        &mut Tally,
    ),
    local: Vec<(F, Bbox)>,
    local_ext: &BTreeMap<String, Extent>,
    z: &Regions,
    changed: &mut Regions,
) {
    let mut incoming: BTreeMap<String, (F, Bbox)> =
        local.into_iter().filter(|(_, b)| z.meets(*b)).map(|(f, b)| (f.id().to_string(), (f, b))).collect();
    let fresh = |f: &F, exts: &mut BTreeMap<String, Extent>| {
        if let Some(e) = local_ext.get(f.id()).filter(|&e| exts.get(f.id()) != Some(e)) {
            exts.insert(f.id().to_string(), e.clone());
        }
    };
    // In place: a feature that changes keeps its slot, and only features that go or come move
    // the others (an update touches a few of the network's features; moving them all, and
    // sorting them by id again, cost liege's updates more than their geometry).
    let mut gone: Vec<bool> = Vec::new();
    for i in meeting(grid, boxes, &z.boxes) {
        let f = &all[i];
        match incoming.remove(f.id()) {
            // The same feature, but its inputs may have moved (an arm edge cut shorter or
            // longer far away): the window's extent, trusted as every feature here is, is kept.
            Some((n, _)) if n == *f => fresh(&n, exts),
            Some((n, nb)) => {
                changes.changed.push((kind, n.id().to_string()));
                ends_of(f, changes);
                changed.add_outline(f.polygon());
                changed.add_outline(n.polygon());
                fresh(&n, exts);
                grid.set(i, boxes[i], nb);
                tally.go(f, boxes[i]);
                tally.come(&n, nb);
                all[i] = n;
                boxes[i] = nb;
            }
            None => {
                changes.removed.push((kind, f.id().to_string()));
                ends_of(f, changes);
                changed.add_outline(f.polygon());
                exts.remove(f.id());
                tally.go(f, boxes[i]);
                gone.resize(all.len(), false);
                gone[i] = true;
            }
        }
    }
    if !gone.is_empty() {
        grid.drop_marked(&gone, boxes);
        drop_marked(all, &gone);
        drop_marked(boxes, &gone);
    }
    // The features that come, in id order: put where the order of ids has it, one by one when
    // they are few, else merged with the others in one pass.
    let mut come = Vec::with_capacity(incoming.len());
    for (_, (n, nb)) in incoming {
        changes.added.push((kind, n.id().to_string()));
        changed.add_outline(n.polygon());
        fresh(&n, exts);
        tally.come(&n, nb);
        come.push((n, nb));
    }
    if come.len() <= FEW_INSERTS {
        for (n, nb) in come {
            let at = all.partition_point(|f| f.id() < n.id());
            all.insert(at, n);
            boxes.insert(at, nb);
            grid.insert(at, nb);
        }
        grid.settle();
    } else {
        let mut out: Vec<(F, Bbox)> = std::mem::take(all).into_iter().zip(std::mem::take(boxes)).collect();
        out.extend(come);
        // Both runs are in id order: a stable sort merges them.
        out.sort_by(|a, b| a.0.id().cmp(b.0.id()));
        (*all, *boxes) = out.into_iter().unzip();
        *grid = PlacedGrid::of(boxes);
    }
    tally.settle(boxes);
}

/// The positions of the boxes `boxes` (as `grid` holds them) that meet one of `region`, in
/// order: the grid names them, or every one is looked at when the region is too large for it.
fn meeting(grid: &PlacedGrid, boxes: &[Bbox], region: &[Bbox]) -> Vec<usize> {
    grid.meeting(region).unwrap_or_else(|| {
        // The box around the region first: most boxes of a list lie far from a small region.
        let bound = union_of(region);
        let hit = |b: Bbox| meets(bound, b) && region.iter().any(|r| meets(*r, b));
        (0..boxes.len()).filter(|&i| hit(boxes[i])).collect()
    })
}

/// Removes the items whose marks are set (`marks[i]` for item `i`), keeping the others in order.
fn drop_marked<T>(items: &mut Vec<T>, marks: &[bool]) {
    let mut i = 0;
    items.retain(|_| {
        i += 1;
        !marks[i - 1]
    });
}

/// At most this many features (or blocks) that an update adds are put in their places one by
/// one (each moves those after it); more are merged with the rest in one pass.
const FEW_INSERTS: usize = 16;

/// The junctions an old road piece ended at need new meshes.
fn ends_of<F: Feature>(f: &F, changes: &mut Changes) {
    for j in f.ends().into_iter().flatten() {
        changes.remesh.push((FeatureKind::Junction, j.to_string()));
    }
}

/// The one height of every road piece, when they all have the same.
fn flat_height(net: &Network) -> Option<f64> {
    let mut zs = net.pieces.iter().flat_map(|p| p.centerline.iter().map(|c| c.z));
    let first = zs.next().unwrap_or(0.0);
    zs.all(|z| z == first).then_some(first)
}

/// An id made unique with a `#n` suffix: its number depends on features far away.
fn suffixed(id: &str) -> bool {
    id.rsplit_once('#').is_some_and(|(_, n)| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()))
}

/// What changed between two lists of features sorted by id, added to `c`.
fn diff_features<F: PartialEq>(kind: FeatureKind, old: &[F], new: &[F], id: impl Fn(&F) -> &str, c: &mut Changes) {
    use std::cmp::Ordering;
    let (mut i, mut j) = (0, 0);
    while i < old.len() || j < new.len() {
        let ord = match (old.get(i), new.get(j)) {
            (Some(a), Some(b)) => id(a).cmp(id(b)),
            (Some(_), None) => Ordering::Less,
            _ => Ordering::Greater,
        };
        match ord {
            Ordering::Less => {
                c.removed.push((kind, id(&old[i]).to_string()));
                i += 1;
            }
            Ordering::Greater => {
                c.added.push((kind, id(&new[j]).to_string()));
                j += 1;
            }
            Ordering::Equal => {
                if old[i] != new[j] {
                    c.changed.push((kind, id(&new[j]).to_string()));
                }
                i += 1;
                j += 1;
            }
        }
    }
}

/// A region: a union of boxes.
#[derive(Clone, Debug)]
struct Regions {
    boxes: Vec<Bbox>,
    /// The box around them all: most questions about a small region are answered by it.
    bound: Bbox,
}

impl Default for Regions {
    fn default() -> Self {
        Self { boxes: Vec::new(), bound: EMPTY_BOX }
    }
}

impl Regions {
    /// A region of one box.
    fn of(b: Bbox) -> Self {
        let mut r = Self::default();
        r.add(b);
        r
    }

    /// Adds a box (dropping the boxes it holds); true when the region grew.
    fn add(&mut self, b: Bbox) -> bool {
        if !(b.0[0] <= b.1[0] && b.0[1] <= b.1[1]) || self.holds(b) {
            return false;
        }
        self.boxes.retain(|x| !contains(b, *x));
        self.boxes.push(b);
        self.bound = union_box(self.bound, b);
        true
    }

    /// Adds a polygon's outline, piece by piece (see [`chunk_boxes`]); true when the region
    /// grew.
    fn add_outline(&mut self, p: &Polygon) -> bool {
        let mut grew = false;
        for ring in std::iter::once(&p.exterior).chain(&p.holes) {
            for b in chunk_boxes(ring, true) {
                grew |= self.add(b);
            }
        }
        grew
    }

    fn meets(&self, b: Bbox) -> bool {
        meets(self.bound, b) && self.boxes.iter().any(|x| meets(*x, b))
    }

    /// One box of the region holds all of `b`.
    fn holds(&self, b: Bbox) -> bool {
        contains(self.bound, b) && self.boxes.iter().any(|x| contains(*x, b))
    }

    /// The boxes together hold all of `b` (a box that meets `b` meets one of them). Exact
    /// for closed boxes: `b` is cut by each box in turn into the parts it leaves uncovered;
    /// past [`COVER_PARTS`] parts the answer is "no", which only costs a larger window.
    fn covers(&self, b: Bbox) -> bool {
        if !contains(self.bound, b) {
            return false;
        }
        if self.boxes.iter().any(|x| contains(*x, b)) {
            return true;
        }
        let mut rest = vec![b];
        for x in &self.boxes {
            let mut next = Vec::with_capacity(rest.len());
            for r in rest {
                if !meets(*x, r) {
                    next.push(r);
                    continue;
                }
                // What `x` leaves of `r`: a slab on each side in x, then one below and above
                // in y between them. Each keeps the side it shares with `x` (closed boxes).
                let (lo, hi) = r;
                if lo[0] < x.0[0] {
                    next.push((lo, [x.0[0], hi[1]]));
                }
                if hi[0] > x.1[0] {
                    next.push(([x.1[0], lo[1]], hi));
                }
                let (mid_lo, mid_hi) = (lo[0].max(x.0[0]), hi[0].min(x.1[0]));
                if lo[1] < x.0[1] {
                    next.push(([mid_lo, lo[1]], [mid_hi, x.0[1]]));
                }
                if hi[1] > x.1[1] {
                    next.push(([mid_lo, x.1[1]], [mid_hi, hi[1]]));
                }
            }
            if next.is_empty() {
                return true;
            }
            if next.len() > COVER_PARTS {
                return false;
            }
            rest = next;
        }
        false
    }
}

/// Parts of a box left uncovered beyond which [`Regions::covers`] gives up (and says no).
const COVER_PARTS: usize = 64;

/// Vertices of a line or ring per box of [`chunk_boxes`].
const CHUNK: usize = 8;

/// Boxes around runs of [`CHUNK`] consecutive segments of a line (of a closed ring with
/// `closed`): together they hold every point of it, and hug a long diagonal far closer than one
/// box does.
fn chunk_boxes(pts: &[Point], closed: bool) -> Vec<Bbox> {
    let n = pts.len();
    let segments = if closed { n } else { n.saturating_sub(1) };
    let mut out = Vec::new();
    if n == 1 {
        out.push(([pts[0].x, pts[0].y], [pts[0].x, pts[0].y]));
    }
    let mut start = 0;
    while start < segments {
        let end = (start + CHUNK).min(segments);
        let b = (start..=end)
            .map(|i| pts[i % n])
            .fold(EMPTY_BOX, |(lo, hi), q| ([lo[0].min(q.x), lo[1].min(q.y)], [hi[0].max(q.x), hi[1].max(q.y)]));
        out.push(b);
        start = end;
    }
    out
}

/// The box around every box of `boxes` ([`EMPTY_BOX`] without one).
fn union_of(boxes: &[Bbox]) -> Bbox {
    boxes.iter().fold(EMPTY_BOX, |u, b| union_box(u, *b))
}

/// What the outer-face test found in one block stage, during which no surface changes: what
/// the bent ways out looked at ([`Session::bent_way_out`]), and what straight rays showed from
/// each point ([`Session::open_from`]).
#[derive(Default)]
struct Ways {
    /// The turning points of the ways found out, by square ([`way_square`]): they lie in the
    /// outer face.
    out: FxHashMap<(i64, i64), Vec<Point>>,
    /// The squares that searches which found no way out looked from.
    explored: FxHashSet<(i64, i64)>,
    /// Whether the block stage looks for bent ways out at all ([`Session::local_frames`]).
    allowed: bool,
    /// Whether the straight rays found no way out of some face while bent ways were not
    /// looked for.
    missed: bool,
    /// Whether a straight ray leaves the network from a point (its coordinates' bits; evenly
    /// spread rays, or rays through the gaps), with the network's frame it was asked with.
    straight: FxHashMap<(u64, u64, bool), (Bbox, bool)>,
}

/// The square of side [`WAY_AREA`] that holds `p`.
fn way_area(p: Point) -> (i64, i64) {
    ((p.x / WAY_AREA).floor() as i64, (p.y / WAY_AREA).floor() as i64)
}

/// The square of side [`WAY_CELL`] that holds `p`.
fn way_square(p: Point) -> (i64, i64) {
    ((p.x / WAY_CELL).floor() as i64, (p.y / WAY_CELL).floor() as i64)
}

/// The distance between the segments `p`-`q` and `a`-`b`: 0 when they meet (decided exactly),
/// the least distance from an end of one to the other otherwise.
fn segment_distance(p: Point, q: Point, a: Point, b: Point) -> f64 {
    if segment_hit(p, q, a, b) != SegHit::None {
        return 0.0;
    }
    let to_segment = |x: Point, u: Point, v: Point| {
        let d = v.sub(u);
        let dd = d.dot(d);
        let t = if dd > 0.0 { (x.sub(u).dot(d) / dd).clamp(0.0, 1.0) } else { 0.0 };
        x.dist(u.lerp(v, t))
    };
    to_segment(p, a, b).min(to_segment(q, a, b)).min(to_segment(a, p, q)).min(to_segment(b, p, q))
}

/// The middles of the edges of `face`'s outline that lie along a side of `frame` (within twice
/// the faces' grid of it): where the face reaches the frame.
fn leaving_points(face: &Polygon, frame: Bbox) -> Vec<Point> {
    let ([x0, y0], [x1, y1]) = frame;
    let near = 2.0 * crate::blocks::BLOCK_GRID;
    let on_side = |a: Point, b: Point| {
        (a.x <= x0 + near && b.x <= x0 + near)
            || (a.x >= x1 - near && b.x >= x1 - near)
            || (a.y <= y0 + near && b.y <= y0 + near)
            || (a.y >= y1 - near && b.y >= y1 - near)
    };
    let ring = &face.exterior;
    (0..ring.len())
        .map(|i| (ring[i], ring[(i + 1) % ring.len()]))
        .filter(|&(a, b)| on_side(a, b))
        .map(|(a, b)| a.lerp(b, 0.5))
        .collect()
}

/// Whether the segment from `a` to `b` meets the box `bx` (closed): the slab test, the part of
/// the segment's parameter range inside both slabs is not empty.
fn segment_meets(a: Point, b: Point, bx: Bbox) -> bool {
    if !(bx.0[0] <= bx.1[0] && bx.0[1] <= bx.1[1]) {
        return false; // an empty box
    }
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, d, lo, hi) in [(a.x, b.x - a.x, bx.0[0], bx.1[0]), (a.y, b.y - a.y, bx.0[1], bx.1[1])] {
        if d == 0.0 {
            if p < lo || p > hi {
                return false;
            }
            continue;
        }
        let (u, v) = ((lo - p) / d, (hi - p) / d);
        let (u, v) = if u <= v { (u, v) } else { (v, u) };
        t0 = t0.max(u);
        t1 = t1.min(v);
        if t0 > t1 {
            return false;
        }
    }
    true
}

/// Whether one of `surfaces` comes up to the segment from `a` to `b` outside the region
/// `boxes`, where a spliced face would take the segment for a straight edge of its outline
/// ([`spliced_faces`], across a notch of the region): a vertex within `clearance` of it, or an
/// edge that crosses it and leaves its line by more than that. Where the outline leaves a
/// straight edge there is a vertex on the edge: of a surface, or where one surface's edge
/// crosses another's. (A surface whose edge runs along the segment, within `clearance` of its
/// line, a road's straight curb, leaves it at no vertex beside it.)
fn surfaces_beside<'a>(
    surfaces: impl Iterator<Item = &'a Polygon>,
    a: Point,
    b: Point,
    boxes: &[Bbox],
    clearance: f64,
) -> bool {
    let inside = |p: Point| boxes.iter().any(|x| x.0[0] <= p.x && p.x <= x.1[0] && x.0[1] <= p.y && p.y <= x.1[1]);
    let len = a.dist(b);
    for poly in surfaces {
        for r in std::iter::once(&poly.exterior).chain(&poly.holes) {
            let n = r.len();
            for k in 0..n {
                let (u, w) = (r[k], r[(k + 1) % n]);
                if !inside(u) && crate::geom::project_on_segment(u, a, b).1 <= clearance {
                    return true;
                }
                let (su, sw) = (crate::geom::orient(a, b, u), crate::geom::orient(a, b, w));
                let (sa, sb) = (crate::geom::orient(u, w, a), crate::geom::orient(u, w, b));
                // A crossing needs `a` and `b` apart (else both orientations are 0), so `len > 0`;
                // `|orient| / len` is the distance from the segment's line.
                let crosses = su * sw < 0.0 && sa * sb < 0.0;
                if crosses && su.abs().max(sw.abs()) / len > clearance {
                    let t = su / (su - sw);
                    if !inside(u.lerp(w, t)) {
                        return true;
                    }
                }
            }
        }
    }
    false
}

fn contains(outer: Bbox, inner: Bbox) -> bool {
    outer.0[0] <= inner.0[0] && outer.0[1] <= inner.0[1] && inner.1[0] <= outer.1[0] && inner.1[1] <= outer.1[1]
}

/// A box grown outwards to the nearest odd multiples of the block grid: the overlay's grid
/// lines there hold no vertex of a polygon drawn on whole or half metres, so that a surface
/// edge seldom runs along the box's side.
fn odd_grid_box(b: Bbox) -> Bbox {
    let g = crate::blocks::BLOCK_GRID;
    let down = |v: f64| (2.0 * ((v - g) / (2.0 * g)).floor() + 1.0) * g;
    let up = |v: f64| (2.0 * ((v - g) / (2.0 * g)).ceil() + 1.0) * g;
    ([down(b.0[0]), down(b.0[1])], [up(b.1[0]), up(b.1[1])])
}

/// A direction's pseudo-angle (the diamond angle): a number in [0, 4) that grows with the
/// angle from the x axis, a quarter turn per unit, and half a turn apart for opposite
/// directions; without trigonometry. `None` for the zero vector or one that is not finite.
fn pseudo_angle(d: Point) -> Option<f64> {
    let (x, y) = (d.x, d.y);
    let sum = x.abs() + y.abs();
    if !(sum > 0.0 && sum.is_finite()) {
        return None;
    }
    Some(match (x >= 0.0, y >= 0.0) {
        (true, true) => y / sum,
        (false, true) => 1.0 - x / sum,
        (false, false) => 2.0 - y / sum,
        (true, false) => 3.0 + x / sum,
    })
}

/// The direction (not of unit length) whose [`pseudo_angle`] is `p` (taken modulo 4).
fn pseudo_direction(p: f64) -> Point {
    let p = p.rem_euclid(4.0);
    let (k, q) = (p.floor(), p - p.floor());
    match k as u8 {
        0 => Point::new(1.0 - q, q),
        1 => Point::new(-q, 1.0 - q),
        2 => Point::new(q - 1.0, -q),
        _ => Point::new(q, q - 1.0),
    }
}

/// How far (pseudo-angle) the direction from `m` may turn along one edge of a ring before
/// [`ring_arc`] takes the edge to pass too near `m` to tell which way it turned (half a turn
/// is 2).
const ARC_STEP_LIMIT: f64 = 1.9;

/// The directions in which a ray from `m` meets the ring (a closed polyline that does not
/// pass through `m`): an arc, as its start and length in [`pseudo_angle`] units. `None` when
/// that is every direction (the ring goes round `m`, or an edge passes too near `m` to tell).
/// A connected set not holding `m` is seen from it within one arc, and its outline's arc is
/// the set's.
fn ring_arc(m: Point, ring: &[Point]) -> Option<(f64, f64)> {
    let first = pseudo_angle(ring.first()?.sub(m))?;
    let (mut at, mut lo, mut hi, mut prev) = (first, first, first, first);
    for q in ring.iter().skip(1).chain(ring.first()) {
        let a = pseudo_angle(q.sub(m))?;
        let step = (a - prev + 2.0).rem_euclid(4.0) - 2.0;
        if step.abs() > ARC_STEP_LIMIT {
            return None;
        }
        at += step;
        lo = lo.min(at);
        hi = hi.max(at);
        prev = a;
    }
    (hi - lo < 4.0).then(|| (lo.rem_euclid(4.0), hi - lo))
}

/// Directions from `m` in which a ray meets none of the rings `outlines` (the surfaces'
/// outer rings with a box holding each, `m` in none of them), the middles of the gaps between
/// the arcs they are seen in, widest gap first. A ray in one of them may still graze a surface
/// (the arcs are found in floating point): each needs the exact test.
///
/// The rings are taken nearest box first, and a ring whose box is seen within the arcs of those
/// taken before it is passed over: its own arc lies inside its box's, so the arcs together,
/// and the gaps between them, are those of every ring (seen from a bay of the network, the
/// near surfaces hide nearly all of the far ones). A ring is always looked at whole where its
/// box could hide an edge that [`ring_arc`] cannot tell: `m` in or on the box, or the box seen
/// within [`ARC_STEP_LIMIT`] or more. The rings stop being taken as soon as no direction is
/// left.
fn free_directions(m: Point, outlines: &[(&[Point], Bbox)]) -> Vec<Point> {
    free_directions_looking(m, outlines).0
}

/// [`free_directions`], and how many rings it looked at whole.
fn free_directions_looking(m: Point, outlines: &[(&[Point], Bbox)]) -> (Vec<Point>, usize) {
    let mut arcs = SeenArcs::new(m);
    // Stopped early, the arcs cover every direction: no gap.
    arcs.take_nearest_first(outlines.iter().copied());
    (arcs.directions(), arcs.looked)
}

/// The arcs in which the rings taken so far are seen from a point, as [`free_directions`]
/// gathers them: their union, as disjoint intervals of [0, 4] in order.
struct SeenArcs {
    m: Point,
    seen: Vec<(f64, f64)>,
    /// How many rings were looked at whole.
    looked: usize,
}

impl SeenArcs {
    fn new(m: Point) -> Self {
        Self { m, seen: Vec::new(), looked: 0 }
    }

    /// Takes the rings `rings` (each with a box holding it), nearest box first (ties in the
    /// order given); false as soon as no direction is left: every direction is seen in some
    /// arc, or a ring hides an edge that [`ring_arc`] cannot tell. A ring whose box is seen
    /// within the arcs taken before it is passed over.
    fn take_nearest_first<'a>(&mut self, rings: impl Iterator<Item = (&'a [Point], Bbox)>) -> bool {
        let m = self.m;
        let gap_to = |b: &Bbox| {
            let dx = (b.0[0] - m.x).max(m.x - b.1[0]).max(0.0);
            let dy = (b.0[1] - m.y).max(m.y - b.1[1]).max(0.0);
            dx * dx + dy * dy
        };
        // Room for as many as the rings may be (a filter's bound): no copy while they come.
        let (least, most) = rings.size_hint();
        let mut all: Vec<(&[Point], Bbox)> = Vec::with_capacity(most.unwrap_or(least));
        all.extend(rings);
        let rings = all;
        // A sum of squares is never negative, not even -0, so its bits sort as its value does
        // (a distance that is not a number, last).
        let mut order: Vec<(u64, usize)> =
            rings.iter().enumerate().map(|(k, (_, b))| (gap_to(b).to_bits(), k)).collect();
        order.sort_unstable();
        order.into_iter().all(|(_, k)| self.take(rings[k].0, &rings[k].1))
    }

    /// Takes one ring with its box: false when no direction is left.
    fn take(&mut self, ring: &[Point], b: &Bbox) -> bool {
        if box_arc(self.m, b).is_some_and(|arc| arc_within(&self.seen, arc)) {
            return true;
        }
        self.looked += 1;
        let Some(arc) = ring_arc(self.m, ring) else {
            self.seen = vec![(0.0, 4.0)];
            return false;
        };
        for (lo, hi) in arc_parts(arc) {
            add_interval(&mut self.seen, lo, hi);
        }
        !matches!(self.seen.as_slice(), [(lo, hi)] if *lo <= 0.0 && *hi >= 4.0)
    }

    /// The directions through the middles of the gaps between the arcs, widest gap first.
    fn directions(&self) -> Vec<Point> {
        gap_directions(self.seen.clone())
    }
}

/// The directions through the middles of the gaps between `arcs` (intervals of [0, 4] in order
/// of their starts, overlapping or not), widest gap first; direction 0 when there are none.
fn gap_directions(arcs: Vec<(f64, f64)>) -> Vec<Point> {
    let Some(&(first, _)) = arcs.first() else {
        return vec![pseudo_direction(0.0)];
    };
    // Round the circle from the first arc's start, and back to it.
    let mut gaps: Vec<(f64, f64)> = Vec::new();
    let mut covered = first;
    for (a, b) in arcs.into_iter().chain([(first + 4.0, first + 4.0)]) {
        if a > covered {
            gaps.push((covered, a));
        }
        covered = covered.max(b);
    }
    gaps.sort_by(|a, b| (b.1 - b.0).total_cmp(&(a.1 - a.0)).then(a.0.total_cmp(&b.0)));
    gaps.into_iter().map(|(a, b)| pseudo_direction(0.5 * (a + b))).collect()
}

/// An arc (start in [0, 4), length) as one or two intervals of [0, 4].
fn arc_parts((start, len): (f64, f64)) -> impl Iterator<Item = (f64, f64)> {
    let end = start + len;
    let (first, second) = if end > 4.0 { ((start, 4.0), Some((0.0, end - 4.0))) } else { ((start, end), None) };
    std::iter::once(first).chain(second)
}

/// Adds the interval `[lo, hi]` to the disjoint intervals `seen` (in order), merging those it
/// meets.
fn add_interval(seen: &mut Vec<(f64, f64)>, mut lo: f64, mut hi: f64) {
    // The intervals before the first that reaches `lo`, and from the first that starts past
    // `hi`, stay; those between are merged into the new one.
    let from = seen.partition_point(|&(_, b)| b < lo);
    let to = seen.partition_point(|&(a, _)| a <= hi);
    if from < to {
        lo = lo.min(seen[from].0);
        hi = hi.max(seen[to - 1].1);
    }
    seen.splice(from..to, [(lo, hi)]);
}

/// Whether the arc lies inside the disjoint intervals `seen`, each of its parts within one.
fn arc_within(seen: &[(f64, f64)], arc: (f64, f64)) -> bool {
    arc_parts(arc).all(|(lo, hi)| {
        let i = seen.partition_point(|&(_, b)| b < hi);
        seen.get(i).is_some_and(|&(a, b)| a <= lo && hi <= b)
    })
}

/// The arc (start in [0, 4), length, in [`pseudo_angle`] units) in which the box `b` is seen
/// from `m`, widened by [`BOX_ARC_MARGIN`] at both ends; `None` where a ring in the box could
/// hold an edge [`ring_arc`] cannot tell: `m` in or on the box, a corner that is not finite, or
/// the box seen within [`ARC_STEP_LIMIT`] or more.
fn box_arc(m: Point, b: &Bbox) -> Option<(f64, f64)> {
    if b.0[0] <= m.x && m.x <= b.1[0] && b.0[1] <= m.y && m.y <= b.1[1] {
        return None;
    }
    let corners = [[b.0[0], b.0[1]], [b.1[0], b.0[1]], [b.1[0], b.1[1]], [b.0[0], b.1[1]]];
    let first = pseudo_angle(Point::new(corners[0][0] - m.x, corners[0][1] - m.y))?;
    let (mut lo, mut hi) = (0.0f64, 0.0f64);
    for c in &corners[1..] {
        let a = pseudo_angle(Point::new(c[0] - m.x, c[1] - m.y))?;
        // Seen from outside, a box lies within half a turn: each corner within 2 of the first.
        let d = (a - first + 2.0).rem_euclid(4.0) - 2.0;
        lo = lo.min(d);
        hi = hi.max(d);
    }
    let len = hi - lo + 2.0 * BOX_ARC_MARGIN;
    (len < ARC_STEP_LIMIT).then(|| ((first + lo - BOX_ARC_MARGIN).rem_euclid(4.0), len))
}

/// How far (pseudo-angle) [`box_arc`] widens a box's arc at each end, far more than the
/// rounding of the pseudo-angles of the box's corners and of a ring's vertices inside it.
const BOX_ARC_MARGIN: f64 = 1e-9;

/// How far (metres) a vertex that the overlay put on a side of the region may lie from the
/// straight edge of the whole outline that it cuts: two steps of the block grid (rounding
/// puts it within one).
const SPLICE_TOLERANCE: f64 = 2.0 * crate::blocks::BLOCK_GRID;

/// The faces of the complement of `surfaces` that meet the region `boxes` (on odd grid lines,
/// see [`odd_grid_box`]), inside the region from one overlay of the region minus the
/// surfaces, outside it from the raw outlines `old` of the faces that met it before (nothing
/// changed outside the region). Where an outline leaves the region, the overlay's piece and
/// the old outline are joined: the vertex the overlay put on the region's side lies on the
/// edge from the last vertex inside to the first old one outside. `None` where that is not
/// clear (a vertex on a side of the region, a surface edge along one, a piece of an outline
/// that no old outline continues, such as the outer face's): then the frames decide.
fn spliced_faces(
    surfaces: &[&Polygon],
    boxes: &[Bbox],
    extent: Bbox,
    old: &[&Polygon],
    outer: &dyn Fn(&[Point]) -> bool,
    beside: &dyn Fn(Point, Point) -> bool,
) -> Option<Vec<Face>> {
    use i_overlay::core::overlay_rule::OverlayRule;
    // Most vertices of the old outlines lie far from the region: its box answers for them.
    let bound = union_of(boxes);
    let within = |b: &Bbox, p: Point| b.0[0] <= p.x && p.x <= b.1[0] && b.0[1] <= p.y && p.y <= b.1[1];
    let deep = |p: Point| {
        within(&bound, p) && boxes.iter().any(|b| b.0[0] < p.x && p.x < b.1[0] && b.0[1] < p.y && p.y < b.1[1])
    };
    let touches = |p: Point| within(&bound, p) && boxes.iter().any(|b| within(b, p));
    let mut xs: Vec<f64> = boxes.iter().flat_map(|b| [b.0[0], b.1[0]]).collect();
    let mut ys: Vec<f64> = boxes.iter().flat_map(|b| [b.0[1], b.1[1]]).collect();
    xs.sort_by(f64::total_cmp);
    ys.sort_by(f64::total_cmp);
    let g = crate::blocks::BLOCK_GRID;
    let on_line = |lines: &[f64], v: f64| {
        let i = lines.partition_point(|&l| l < v - 2.0 * g);
        lines.get(i).is_some_and(|&l| l <= v + 2.0 * g)
    };
    // A surface edge along a side of the region would pass for a piece of that side.
    for p in surfaces {
        for r in std::iter::once(&p.exterior).chain(&p.holes) {
            for (k, a) in r.iter().enumerate() {
                let b = r[(k + 1) % r.len()];
                if ((a.x - b.x).abs() <= 2.0 * g && on_line(&xs, a.x))
                    || ((a.y - b.y).abs() <= 2.0 * g && on_line(&ys, a.y))
                {
                    return None;
                }
            }
        }
    }
    // The region as one outline first (exact: every corner lies on the grid), so that no side
    // of a box inside it cuts a surface edge and leaves a vertex there.
    let rects: Vec<Contour> =
        boxes.iter().map(|&([x0, y0], [x1, y1])| vec![[x0, y0], [x1, y0], [x1, y1], [x0, y1]]).collect();
    let none: Vec<Contour> = Vec::new();
    let subject =
        crate::overlay::overlay_on_grid(&rects, &none, OverlayRule::Subject, FillRule::NonZero, g, Some(extent));
    let clip: Vec<Vec<Contour>> = surfaces.iter().filter(|p| p.exterior.len() >= 3).map(|p| shape(p)).collect();
    let shapes =
        crate::overlay::overlay_on_grid(&subject, &clip, OverlayRule::Difference, FillRule::NonZero, g, Some(extent));
    let fresh: Vec<Vec<Point>> =
        shapes.iter().flatten().map(|c| c.iter().map(|q| Point::new(q[0], q[1])).collect()).collect();
    let mut rings: Vec<Vec<Point>> = Vec::new();
    // The old outlines: whole rings that stay, and runs of vertices outside the region joined
    // by edges that stay outside it (start, end, vertices).
    let mut chains: Vec<Vec<Point>> = Vec::new();
    for poly in old {
        for r in std::iter::once(&poly.exterior).chain(&poly.holes) {
            let n = r.len();
            if n < 3 || r.iter().any(|&p| touches(p) && !deep(p)) {
                return None;
            }
            let out: Vec<bool> = r.iter().map(|&p| !touches(p)).collect();
            let stays = |k: usize| {
                let (a, b) = (r[k], r[(k + 1) % n]);
                let ab = seg_box((a, b));
                out[k] && out[(k + 1) % n] && (!meets(ab, bound) || !boxes.iter().any(|bx| segment_meets(a, b, *bx)))
            };
            let edges: Vec<bool> = (0..n).map(stays).collect();
            if edges.iter().all(|&e| e) {
                rings.push(r.clone());
                continue;
            }
            // Each run starts at an outside vertex whose edge in does not stay outside.
            for k in 0..n {
                if !out[k] || edges[(k + n - 1) % n] {
                    continue;
                }
                let mut run = vec![r[k]];
                let mut j = k;
                while edges[j] {
                    j = (j + 1) % n;
                    run.push(r[j]);
                }
                chains.push(run);
            }
        }
    }
    // The overlay's rings: whole rings inside the region, and pieces between two sides.
    let along = |a: Point, b: Point| (a.x == b.x && on_line(&xs, a.x)) || (a.y == b.y && on_line(&ys, a.y));
    let mut pieces: Vec<Vec<Point>> = Vec::new();
    // For each piece, the middles of the side edges of its ring: points of its face.
    let mut beyond: Vec<usize> = Vec::new();
    let mut sides: Vec<Vec<Point>> = Vec::new();
    for r in fresh.iter().filter(|r| r.len() >= 3) {
        let n = r.len();
        let side: Vec<bool> =
            (0..n).map(|k| !deep(r[k]) && !deep(r[(k + 1) % n]) && along(r[k], r[(k + 1) % n])).collect();
        sides.push((0..n).filter(|&k| side[k]).map(|k| r[k].lerp(r[(k + 1) % n], 0.5)).take(ESCAPE_POINTS).collect());
        if !side.iter().any(|&s| s) {
            if r.iter().any(|&p| !deep(p)) {
                return None;
            }
            rings.push(r.clone());
            continue;
        }
        for k in 0..n {
            // A piece starts after a side edge and runs to the next one.
            if !side[(k + n - 1) % n] || side[k] {
                continue;
            }
            let mut piece = vec![r[k]];
            let mut j = k;
            while !side[j] {
                j = (j + 1) % n;
                piece.push(r[j]);
            }
            if piece[1..piece.len() - 1].iter().any(|&p| !deep(p)) {
                return None;
            }
            beyond.push(sides.len() - 1);
            pieces.push(piece);
        }
    }
    // Each piece's end goes on along a straight edge: to a chain whose first vertex lies
    // beyond it, or (an edge that leaves the region and comes back) to a piece whose start
    // lies further on that edge, the nearest of these. Each chain's last vertex goes on to the
    // nearest piece whose start lies on the way to that piece's next vertex.
    let near = |q: Point, a: Point, b: Point| crate::geom::project_on_segment(q, a, b).1 <= SPLICE_TOLERANCE;
    // Several candidates lie on one straight edge where it leaves the region and comes back
    // (across a notch between the region's boxes): the edge goes on to the first of them,
    // the one nearest `from`. A tie is not clear.
    let nearest = |from: Point, found: &mut dyn Iterator<Item = (Next, Point)>| {
        let mut best: Option<(Next, f64)> = None;
        let mut tie = false;
        for (n, at) in found {
            let d = from.dist(at);
            match best {
                Some((_, b)) if d == b => tie = true,
                Some((_, b)) if d > b => {}
                _ => (best, tie) = (Some((n, d)), false),
            }
        }
        best.filter(|_| !tie).map(|(n, _)| n)
    };
    #[derive(Clone, Copy, PartialEq)]
    enum Next {
        Chain(usize),
        Piece(usize),
    }
    let mut after_piece: Vec<Option<Next>> = Vec::with_capacity(pieces.len());
    for p in &pieces {
        let (last, end) = (p[p.len() - 2], p[p.len() - 1]);
        let to_chain =
            (0..chains.len()).filter(|&c| near(end, last, chains[c][0])).map(|c| (Next::Chain(c), chains[c][0]));
        let to_piece = (0..pieces.len())
            .filter(|&j| {
                let (start, next) = (pieces[j][0], pieces[j][1]);
                near(end, last, next) && near(start, last, next) && last.dist(end) < last.dist(start)
            })
            .map(|j| (Next::Piece(j), pieces[j][0]));
        // The nearest of both: the edge may cross a notch of the region (a piece) before it
        // reaches its vertex outside (a chain); and a vertex outside that only just turns the
        // edge lets a piece further on pass for its continuation too, but lies nearer.
        let mut all = to_chain.chain(to_piece).peekable();
        let next = match all.peek() {
            None => None,
            Some(_) => Some(nearest(end, &mut all)?),
        };
        // Across a notch no old outline says where the face's outline runs: the straight edge
        // holds only where no surface outside the region lies along it.
        if let Some(Next::Piece(j)) = next {
            if beside(end, pieces[j][0]) {
                return None;
            }
        }
        after_piece.push(next);
    }
    // A piece that goes on to nothing is part of the outer face (which no old outline holds),
    // if a ray from its face leaves the network; so are the pieces it runs into across a notch
    // of the region, and those that run into it.
    let mut outer_piece: Vec<bool> = (0..pieces.len()).map(|i| after_piece[i].is_none()).collect();
    for i in 0..pieces.len() {
        if outer_piece[i] && !outer(&sides[beyond[i]]) {
            return None;
        }
    }
    loop {
        let mut grew = false;
        for i in 0..pieces.len() {
            if let Some(Next::Piece(j)) = after_piece[i] {
                if outer_piece[i] != outer_piece[j] {
                    outer_piece[i] = true;
                    outer_piece[j] = true;
                    grew = true;
                }
            }
        }
        if !grew {
            break;
        }
    }
    let mut after_chain = Vec::with_capacity(chains.len());
    for c in &chains {
        let tail = c[c.len() - 1];
        let starts = (0..pieces.len()).filter(|&i| near(pieces[i][0], tail, pieces[i][1]));
        after_chain.push(nearest(tail, &mut starts.map(|i| (Next::Piece(i), pieces[i][0])))?);
    }
    // Every chain and every piece of a bounded face is taken once, and only by those.
    let (mut chain_in, mut piece_in) = (vec![0usize; chains.len()], vec![0usize; pieces.len()]);
    let links = (0..pieces.len())
        .filter(|&i| !outer_piece[i])
        .filter_map(|i| after_piece[i])
        .chain(after_chain.iter().copied());
    for n in links {
        match n {
            Next::Chain(c) => chain_in[c] += 1,
            Next::Piece(i) if outer_piece[i] => return None,
            Next::Piece(i) => piece_in[i] += 1,
        }
    }
    if chain_in.iter().any(|&k| k != 1) || (0..pieces.len()).any(|i| !outer_piece[i] && piece_in[i] != 1) {
        return None;
    }
    let mut used = outer_piece.clone();
    for start in 0..pieces.len() {
        if used[start] {
            continue;
        }
        let mut ring = Vec::new();
        let mut i = start;
        while !used[i] {
            used[i] = true;
            let p = &pieces[i];
            ring.extend_from_slice(&p[1..p.len() - 1]);
            let mut next = after_piece[i]?;
            if let Next::Chain(c) = next {
                ring.extend_from_slice(&chains[c]);
                next = after_chain[c];
            }
            let Next::Piece(j) = next else { return None };
            i = j;
        }
        if i != start || ring.len() < 3 {
            return None;
        }
        rings.push(ring);
    }
    // Outlines and holes, each hole in the smallest outline that holds it (`face_of` starts
    // each ring at its lowest-left vertex, as it does the overlay's).
    let (outer, holes): (Vec<Vec<Point>>, Vec<Vec<Point>>) =
        rings.into_iter().partition(|r| crate::geom::ring_area(r) > 0.0);
    let mut faces: Vec<(Vec<Point>, Vec<Vec<Point>>)> = outer.into_iter().map(|r| (r, Vec::new())).collect();
    for h in holes {
        let q = h.iter().copied().find(|v| !faces.iter().any(|(e, _)| e.contains(v)))?;
        let within = (0..faces.len())
            .filter(|&f| crate::validate::point_in_ring(q, &faces[f].0))
            .min_by(|&a, &b| crate::geom::ring_area(&faces[a].0).total_cmp(&crate::geom::ring_area(&faces[b].0)))?;
        faces[within].1.push(h);
    }
    Some(faces.into_iter().map(|(e, hs)| crate::blocks::face_of(e, hs)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pseudo_angles_grow_with_the_angle_and_turn_back_into_directions() {
        let mut last = -1.0;
        for k in 0..360 {
            let angle = (k as f64).to_radians();
            let d = Point::new(angle.cos(), angle.sin());
            let p = pseudo_angle(d).unwrap();
            assert!((0.0..4.0).contains(&p) && p > last, "{k}°: {p} after {last}");
            last = p;
            let back = pseudo_direction(p);
            let cross = back.x * d.y - back.y * d.x;
            assert!(cross.abs() < 1e-12 && back.x * d.x + back.y * d.y > 0.0, "{k}°: {back:?}");
            // Opposite directions are 2 apart.
            let opposite = pseudo_angle(Point::new(-d.x, -d.y)).unwrap();
            assert!(((opposite - p).rem_euclid(4.0) - 2.0).abs() < 1e-12, "{k}°");
        }
        assert_eq!(pseudo_angle(Point::new(0.0, 0.0)), None);
        assert_eq!(pseudo_angle(Point::new(f64::NAN, 1.0)), None);
    }

    /// The largest reach follows the roads: a wider road added widens it, and once it is gone
    /// (replaced by a narrower one, then removed) the reach is that of the roads left.
    #[test]
    fn reach_follows_the_widest_road() {
        let road = |id: &str, y: f64, width: f64| Road {
            id: id.to_owned(),
            width,
            layer: 0,
            closed: false,
            has_height: false,
            geometry: RoadGeometry::Polyline(vec![Point3::new(0.0, y, 0.0), Point3::new(100.0, y, 0.0)]),
            profile: Default::default(),
        };
        let input = Input { roads: vec![road("a", 0.0, 8.0), road("b", 50.0, 8.0)] };
        let mut s = Session::new(input, Settings::default()).expect("session");
        let every_road = |s: &Session| {
            let own = s.prepared.values().flatten().map(own_reach).fold(0.0f64, f64::max);
            own + s.settings.snap_distance + s.settings.merge_distance + s.settings.tolerance
        };
        let narrow = s.reach();
        assert_eq!(narrow, every_road(&s));
        s.update(&[Edit::Upsert(road("c", 100.0, 20.0))]).expect("update");
        assert!(s.reach() > narrow);
        assert_eq!(s.reach(), every_road(&s));
        s.update(&[Edit::Upsert(road("c", 100.0, 6.0))]).expect("update");
        assert_eq!(s.reach(), narrow);
        s.update(&[Edit::Remove("c".to_owned()), Edit::Remove("a".to_owned())]).expect("update");
        assert_eq!(s.reach(), narrow);
        s.update(&[Edit::Remove("b".to_owned())]).expect("update");
        assert_eq!(s.reach(), every_road(&s));
    }

    /// Numbers in [0, 1) from a xorshift generator started at `seed` (not 0).
    fn uniform(mut seed: u64) -> impl FnMut() -> f64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// A straight street 8 m wide from `a` to `b`.
    fn street(id: &str, a: (f64, f64), b: (f64, f64)) -> Road {
        Road {
            id: id.to_owned(),
            width: 8.0,
            layer: 0,
            closed: false,
            has_height: false,
            geometry: RoadGeometry::Polyline(vec![Point3::new(a.0, a.1, 0.0), Point3::new(b.0, b.1, 0.0)]),
            profile: Default::default(),
        }
    }

    /// The part of the network that [`Session::update_with_meshes`] meshes early holds, for
    /// the road pieces and junctions asked for, every piece at those junctions and every
    /// junction at those pieces' ends, and nothing else.
    #[test]
    fn surfaces_around_hold_what_their_meshes_read() {
        // A grid of streets 80 m apart, a road from each crossing to the next.
        let mut roads = Vec::new();
        let at = |k: usize| 80.0 * k as f64;
        for i in 0..5 {
            for k in 0..4 {
                roads.push(street(&format!("x{i}.{k}"), (at(k), at(i)), (at(k + 1), at(i))));
                roads.push(street(&format!("y{i}.{k}"), (at(i), at(k)), (at(i), at(k + 1))));
            }
        }
        let s = Session::new(Input { roads }, Settings::default()).expect("session");
        let net = s.network();
        let ends = |p: &RoadPiece| [p.from.clone(), p.to.clone()].into_iter().flatten().collect::<Vec<String>>();
        let inner = net.junctions.iter().find(|j| net.pieces.iter().filter(|p| ends(p).contains(&j.id)).count() == 4);
        let (j, p) = (inner.expect("a crossing of four pieces"), &net.pieces[0]);
        let list = vec![(FeatureKind::Junction, j.id.clone()), (FeatureKind::Road, p.id.clone())];
        let part = s.surfaces_around(&list);
        let mut want_pieces: Vec<&str> =
            net.pieces.iter().filter(|q| q.id == p.id || ends(q).contains(&j.id)).map(|q| q.id.as_str()).collect();
        want_pieces.dedup();
        let mut want_junctions: Vec<String> = ends(p);
        want_junctions.push(j.id.clone());
        want_junctions.sort();
        want_junctions.dedup();
        let got_pieces: Vec<&str> = part.pieces.iter().map(|q| q.id.as_str()).collect();
        let got_junctions: Vec<String> = part.junctions.iter().map(|q| q.id.clone()).collect();
        assert_eq!(got_pieces, want_pieces);
        assert_eq!(got_junctions, want_junctions);
        assert!(got_pieces.len() == 5 || got_pieces.len() == 4, "{got_pieces:?}");
        assert!(part.blocks.is_empty() && part.diagnostics.is_empty());
    }

    fn square(cx: f64, cy: f64, r: f64) -> Vec<Point> {
        vec![
            Point::new(cx - r, cy - r),
            Point::new(cx + r, cy - r),
            Point::new(cx + r, cy + r),
            Point::new(cx - r, cy + r),
        ]
    }

    /// The tallies kept through updates are those of the lists as they stand: the box around
    /// the outlines (grown, shrunk from a side, moved), the widest piece, the pieces with bands
    /// of their own; and the frames and reaches read from them are those read from every
    /// feature.
    #[test]
    fn tallies_follow_the_features_through_updates() {
        let road = |id: &str, a: (f64, f64), b: (f64, f64), width: f64, sidewalk: Option<f64>| Road {
            id: id.to_owned(),
            width,
            layer: 0,
            closed: false,
            has_height: false,
            geometry: RoadGeometry::Polyline(vec![Point3::new(a.0, a.1, 0.0), Point3::new(b.0, b.1, 0.0)]),
            profile: ProfileOverride { sidewalk_left: sidewalk, ..Default::default() },
        };
        // A grid of streets 80 m apart, a road from each crossing to the next.
        let mut roads = Vec::new();
        let at = |k: usize| 80.0 * k as f64;
        for i in 0..14 {
            for k in 0..13 {
                roads.push(road(&format!("x{i}.{k}"), (at(k), at(i)), (at(k + 1), at(i)), 8.0, None));
                roads.push(road(&format!("y{i}.{k}"), (at(i), at(k)), (at(i), at(k + 1)), 8.0, None));
            }
        }
        let mut s = Session::new(Input { roads }, Settings::default()).expect("session");
        let check = |s: &Session, step: &str| {
            assert_eq!(s.junction_tally.hull, union_of(&s.junction_box), "{step}: junctions' hull");
            assert_eq!(s.piece_tally.hull, union_of(&s.piece_box), "{step}: pieces' hull");
            let boxes = s.junction_box.iter().chain(&s.piece_box).copied();
            let frame = crate::blocks::frame_around(boxes, &s.net, &s.settings);
            assert_eq!(s.whole_frame(), frame, "{step}: frame");
            let wmax = s.net.pieces.iter().fold(0.0f64, |m, p| m.max(p.width));
            assert_eq!(s.piece_tally.widest(), wmax, "{step}: widest piece");
            let band = crate::blocks::uniform_band(&s.settings.profile);
            let varied = s.net.pieces.iter().filter(|p| p.width_and_varied(band).is_some_and(|v| v.1)).count();
            assert_eq!(s.piece_tally.varied, varied, "{step}: pieces with bands of their own");
            assert!(s.junction_tally.widths.is_empty() && s.junction_tally.varied == 0, "{step}: junctions");
        };
        check(&s, "start");
        let steps: Vec<(&str, Vec<Edit>)> = vec![
            ("a wide road", vec![Edit::Upsert(road("x3.3", (240.0, 240.0), (320.0, 240.0), 14.0, None))]),
            (
                "a road out past the east side",
                vec![Edit::Upsert(road("e", (1040.0, 160.0), (1120.0, 160.0), 8.0, None))],
            ),
            ("a sidewalk of its own", vec![Edit::Upsert(road("y2.2", (160.0, 160.0), (160.0, 240.0), 8.0, Some(4.0)))]),
            ("the wide road narrow again", vec![Edit::Upsert(road("x3.3", (240.0, 240.0), (320.0, 240.0), 8.0, None))]),
            ("the road past the east side gone", vec![Edit::Remove("e".into())]),
            ("a road of the south side gone", vec![Edit::Remove("x0.3".into())]),
            ("the sidewalk back", vec![Edit::Upsert(road("y2.2", (160.0, 160.0), (160.0, 240.0), 8.0, None))]),
            ("a road moved", vec![Edit::Upsert(road("y4.4", (330.0, 320.0), (330.0, 400.0), 8.0, None))]),
        ];
        for (step, edits) in steps {
            let changes = s.update(&edits).expect("update");
            assert!(!changes.stats.full_build, "{step}: an update, not a full build");
            check(&s, step);
        }
    }

    #[test]
    fn a_ring_is_seen_in_one_arc_unless_it_goes_round() {
        let m = Point::new(0.0, 0.0);
        // A square to the east, seen between -45° and +45°: pseudo-angles 3.5 to 0.5.
        let (start, len) = ring_arc(m, &square(2.0, 0.0, 1.0)).unwrap();
        assert!((start - 3.5).abs() < 1e-12 && (len - 1.0).abs() < 1e-12, "{start} {len}");
        // A U open to the west, round the point: more than half a turn, not all of it.
        let u = vec![
            Point::new(-1.0, 2.0),
            Point::new(2.0, 2.0),
            Point::new(2.0, -2.0),
            Point::new(-1.0, -2.0),
            Point::new(-1.0, -1.0),
            Point::new(1.0, -1.0),
            Point::new(1.0, 1.0),
            Point::new(-1.0, 1.0),
        ];
        let (_, len) = ring_arc(m, &u).unwrap();
        assert!(len > 2.0 && len < 4.0, "{len}");
        // A ring round the point: every direction.
        assert_eq!(ring_arc(m, &square(0.0, 0.0, 1.0)), None);
        // An edge through the point cannot be told.
        assert_eq!(ring_arc(m, &[Point::new(-1.0, 0.0), Point::new(1.0, 0.0), Point::new(0.0, 1.0)]), None);
    }

    /// Each ring with its box, as [`free_directions`] takes them.
    fn boxed(rings: &[Vec<Point>]) -> Vec<(&[Point], Bbox)> {
        rings.iter().map(|r| (r.as_slice(), polygon_box(&Polygon { exterior: r.clone(), holes: Vec::new() }))).collect()
    }

    /// [`free_directions`] looking at every ring whole, in the given order, every arc kept as
    /// it is (not merged).
    fn free_directions_of_every_ring(m: Point, rings: &[Vec<Point>]) -> Vec<Point> {
        let mut arcs: Vec<(f64, f64)> = Vec::new();
        for ring in rings {
            let Some(arc) = ring_arc(m, ring) else {
                return Vec::new();
            };
            arcs.extend(arc_parts(arc));
        }
        arcs.sort_by(|a, b| a.0.total_cmp(&b.0));
        gap_directions(arcs)
    }

    /// Passing over the rings hidden behind nearer ones changes no direction: the same as
    /// looking at every ring, on scattered triangles and thin slivers round a point, some
    /// near it and some crossing the start of the circle.
    #[test]
    fn free_directions_are_those_of_every_ring() {
        let mut next = uniform(0x9e37_79b9_7f4a_7c15);
        let (mut passed_over, mut with_gaps) = (0, 0);
        for case in 0..300 {
            let m = Point::new(next() * 10.0 - 5.0, next() * 10.0 - 5.0);
            let count = 1 + case % 60;
            let mut rings: Vec<Vec<Point>> = Vec::new();
            while rings.len() < count {
                let (r, t) = (0.3 + 40.0 * next() * next(), std::f64::consts::TAU * next());
                let c = Point::new(m.x + r * t.cos(), m.y + r * t.sin());
                let size = 0.05 + 3.0 * next();
                let ring: Vec<Point> = (0..3)
                    .map(|k| {
                        let a = std::f64::consts::TAU * (next() + k as f64) / 3.0;
                        Point::new(c.x + size * a.cos(), c.y + size * a.sin() * (0.02 + next()))
                    })
                    .collect();
                // The point in no ring (the triangle's box may still hold it).
                if !crate::validate::point_in_ring(m, &ring) {
                    rings.push(ring);
                }
            }
            let want = free_directions_of_every_ring(m, &rings);
            with_gaps += usize::from(want.len() > 1);
            let (got, looked) = free_directions_looking(m, &boxed(&rings));
            assert_eq!(got, want, "case {case}");
            passed_over += count - looked;
            // Rings as far as each other are taken in the order given: the directions do not
            // depend on it.
            let mut reversed = rings.clone();
            reversed.reverse();
            assert_eq!(free_directions(m, &boxed(&reversed)), want, "case {case}, reversed");
        }
        // Most rings lie behind nearer ones (7,033 of 9,150 passed over): the test means
        // something only if many were.
        assert!(passed_over > 1000, "{passed_over}");
        // And many points see gaps between them (182 of the 300 see more than one).
        assert!(with_gaps > 100, "{with_gaps}");
    }

    #[test]
    fn free_directions_pass_between_the_rings() {
        let m = Point::new(0.0, 0.0);
        // Squares east, north and south, and west: the gaps are the four diagonals.
        let rings = [square(3.0, 0.0, 1.0), square(0.0, 3.0, 1.0), square(0.0, -3.0, 1.0), square(-3.0, 0.0, 1.0)];
        let free = free_directions(m, &boxed(&rings));
        assert_eq!(free.len(), 4);
        for d in &free {
            assert!((d.x.abs() - d.y.abs()).abs() < 1e-12, "{d:?}");
        }
        // Closed off on every side by a ring round the point: none.
        let round = [square(0.0, 0.0, 5.0)];
        assert!(free_directions(m, &boxed(&round)).is_empty());
        // Only a gap across the start of the circle (east): found.
        let u = [vec![
            Point::new(1.0, 1.0),
            Point::new(-2.0, 1.0),
            Point::new(-2.0, -1.0),
            Point::new(1.0, -1.0),
            Point::new(-1.0, -0.5),
            Point::new(-1.0, 0.5),
        ]];
        let free = free_directions(m, &boxed(&u));
        assert!(!free.is_empty() && free[0].x > 0.0 && free[0].y.abs() < 1e-12, "{free:?}");
    }

    /// The gaps that [`Session::gap_rays`] gives last, taking the surfaces square by square
    /// from the grids and stopping once no direction is left, are those of
    /// [`free_directions`] over every surface of the network; rays through them leave the
    /// network from outside it, and none does from inside a block ([`Session::ray_out`], the
    /// same as [`Session::ray_clear`] on every ray). On an L-shaped grid of
    /// streets wider than the squares the grids answer, with points in its blocks, in the
    /// notch of the L and around it.
    #[test]
    fn gaps_found_square_by_square_are_those_of_every_surface() {
        // Streets 40 m apart, 30 each way; the rows below 10 and the columns past 15 meet only
        // where both are in the L, leaving a notch 560 m by 400 m open to the south-east.
        let (n, step, notch_row, notch_col) = (30usize, 40.0, 10usize, 15usize);
        let at = |k: usize| step * k as f64;
        let end = at(n - 1) + 20.0;
        let mut roads = Vec::new();
        for i in 0..n {
            let x_end = if i < notch_row { at(notch_col) + 20.0 } else { end };
            roads.push(street(&format!("x{i}"), (-20.0, at(i)), (x_end, at(i))));
            let y_start = if i > notch_col { at(notch_row) - 20.0 } else { -20.0 };
            roads.push(street(&format!("y{i}"), (at(i), y_start), (at(i), end)));
        }
        let mut s = Session::new(Input { roads }, Settings::default()).expect("session");
        let rings: Vec<(Vec<Point>, Bbox)> = (s.net.pieces.iter().map(|p| &p.polygon))
            .chain(s.net.junctions.iter().map(|j| &j.polygon))
            .filter(|p| p.exterior.len() >= 3)
            .map(|p| (p.exterior.clone(), polygon_box(p)))
            .collect();
        let every: Vec<(&[Point], Bbox)> = rings.iter().map(|(r, b)| (r.as_slice(), *b)).collect();
        let on_surface = |m: Point| every.iter().any(|(r, _)| crate::validate::point_in_ring(m, r));
        let net_frame = grow(union_box(s.junction_tally.hull, s.piece_tally.hull), 10.0);
        let span = (net_frame.1[0] - net_frame.0[0]) + (net_frame.1[1] - net_frame.0[1]);
        // The same points with the grids kept (as a network of liege's size keeps them) and
        // without (as this one, which is smaller, would).
        for kept in [true, false] {
            if kept {
                s.piece_grid = PlacedGrid::kept(&s.piece_box);
                s.junction_grid = PlacedGrid::kept(&s.junction_box);
            } else {
                s.piece_grid = PlacedGrid::default();
                s.junction_grid = PlacedGrid::default();
            }
            let mut next = uniform(0x2545_f491_4f6c_dd1d);
            let (mut closed, mut open, mut early_tries, mut outside) = (0, 0, 0, 0);
            let mut k = 0;
            while k < 160 {
                // Points in the notch, from 300 m west and south of the network to 300 m past
                // it, and (half of them) among the streets.
                let m = match k % 4 {
                    0 => Point::new(at(notch_col) + 30.0 + 520.0 * next(), -10.0 + 380.0 * next()),
                    1 => Point::new(-300.0 + (end + 600.0) * next(), -300.0 + (end + 600.0) * next()),
                    _ => Point::new(end * next(), end * next()),
                };
                if on_surface(m) {
                    continue;
                }
                k += 1;
                let want: Vec<Point> = free_directions(m, &every).into_iter().take(GAP_RAYS).collect();
                let mut batches: Vec<(Vec<Point>, bool)> = Vec::new();
                s.gap_rays(m, &mut |dirs, last| {
                    batches.push((dirs.to_vec(), last));
                    false
                });
                let last = batches.iter().find(|b| b.1).map(|b| b.0.clone());
                assert!(batches.iter().rev().skip(1).all(|b| !b.1), "point {k}: the last batch comes last");
                if want.is_empty() {
                    closed += 1;
                    assert_eq!(last, None, "point {k} at {m:?}: no direction is left");
                } else {
                    open += 1;
                    assert_eq!(last, Some(want), "point {k} at {m:?}, grids kept: {kept}");
                }
                early_tries += batches.iter().filter(|b| !b.1).count();
                // With exact rays: out from outside the network, or from the notch; never from
                // a block.
                let along = |d: Point| Point::new(m.x + span * d.x, m.y + span * d.y);
                let out = s.gap_rays(m, &mut |dirs, _| {
                    dirs.iter().any(|&d| {
                        let out = s.ray_out(m, along(d));
                        assert_eq!(out, s.ray_clear(m, along(d)), "point {k} at {m:?}, direction {d:?}");
                        out
                    })
                });
                let in_notch = m.x > at(notch_col) + 4.0 && m.y < at(notch_row) - 4.0;
                let beyond = m.x < -25.0 || m.y < -25.0 || m.x > end + 5.0 || m.y > end + 5.0;
                if beyond || in_notch {
                    outside += 1;
                    assert!(out, "point {k} at {m:?} is outside the network");
                } else if m.x > 4.0 && m.y > 4.0 && m.x < at(n - 1) - 4.0 && m.y < at(n - 1) - 4.0 {
                    assert!(!out, "point {k} at {m:?} lies in a block");
                }
            }
            // The cases are there: points closed in, points with gaps, points outside; tries
            // before every surface was looked at only where the grids are kept.
            assert!(closed > 40 && open > 40 && outside > 40, "{closed} {open} {outside}");
            if kept {
                assert!(early_tries > 10, "{early_tries}");
            } else {
                assert_eq!(early_tries, 0);
            }
        }
    }

    /// The distance between two segments: 0 where they cross or touch, the nearest ends'
    /// distance otherwise, whichever way round.
    #[test]
    fn segment_distance_is_zero_where_segments_meet_and_the_gap_otherwise() {
        let p = |x: f64, y: f64| Point::new(x, y);
        let cases = [
            ((p(0.0, 0.0), p(10.0, 0.0)), (p(5.0, -1.0), p(5.0, 1.0)), 0.0),
            ((p(0.0, 0.0), p(10.0, 0.0)), (p(10.0, 0.0), p(12.0, 3.0)), 0.0),
            ((p(0.0, 0.0), p(10.0, 0.0)), (p(3.0, 0.0), p(7.0, 0.0)), 0.0),
            ((p(0.0, 0.0), p(10.0, 0.0)), (p(5.0, 0.01), p(5.0, 4.0)), 0.01),
            ((p(0.0, 0.0), p(10.0, 0.0)), (p(12.0, 0.0), p(20.0, 0.0)), 2.0),
            ((p(0.0, 0.0), p(10.0, 0.0)), (p(13.0, 4.0), p(13.0, 9.0)), 5.0),
            ((p(0.0, 0.0), p(4.0, 4.0)), (p(0.0, 2.0), p(2.0, 4.0)), 2f64.sqrt()),
        ];
        for ((a, b), (c, d), want) in cases {
            for (s, t) in [((a, b), (c, d)), ((b, a), (d, c)), ((c, d), (a, b))] {
                let got = segment_distance(s.0, s.1, t.0, t.1);
                assert!((got - want).abs() < 1e-12, "{s:?} {t:?}: {got} against {want}");
            }
        }
    }

    /// A join across a notch of the region is refused where a surface outside the region has
    /// a vertex beside it (a junction along the curb, a stub's mouth) or crosses it; a curb
    /// that runs along it does not refuse it, nor anything inside the region.
    #[test]
    fn surfaces_beside_a_join_are_those_that_would_bend_it() {
        let p = Point::new;
        let poly = |exterior: Vec<Point>| Polygon { exterior, holes: Vec::new() };
        // The region: two boxes left and right of a notch from x = -10 to 10; the join runs
        // along y = 0 across it.
        let boxes: Vec<Bbox> = vec![([-50.0, -20.0], [-10.0, 20.0]), ([10.0, -20.0], [50.0, 20.0])];
        let (a, b, clearance) = (p(-10.0, 0.0), p(10.0, 0.0), 0.05);
        let beside = |s: &[Polygon]| surfaces_beside(s.iter(), a, b, &boxes, clearance);
        // A road whose curb is the join, its vertices far past the notch, its curb a hair off
        // the line.
        let road = poly(vec![p(-100.0, 0.0), p(100.0, 1e-4), p(100.0, -8.0), p(-100.0, -8.0)]);
        assert!(!beside(std::slice::from_ref(&road)));
        // A junction whose edge lies along the curb 3.5e-4 m off it, inside the notch.
        let junction = poly(vec![p(-3.0, 3.5e-4), p(4.0, 3.5e-4), p(4.0, 9.0), p(-3.0, 9.0)]);
        assert!(beside(&[road.clone(), junction]));
        // A road across the notch, its vertices far from the join.
        let across = poly(vec![p(-1.0, -100.0), p(1.0, -100.0), p(1.0, 100.0), p(-1.0, 100.0)]);
        assert!(beside(&[across]));
        // The same junction inside a box of the region: the overlay sees it.
        let inside = poly(vec![p(20.0, 3.5e-4), p(30.0, 3.5e-4), p(30.0, 9.0), p(20.0, 9.0)]);
        assert!(!beside(&[road, inside]));
        // A square a metre off the join.
        assert!(!beside(&[poly(square(0.0, 2.0, 0.5))]));
    }

    #[test]
    fn segment_meets_boxes_it_crosses_only() {
        let bx: Bbox = ([0.0, 0.0], [1.0, 1.0]);
        let p = Point::new;
        // Through, touching a corner, ending inside, along an edge.
        assert!(segment_meets(p(-1.0, 0.5), p(2.0, 0.5), bx));
        assert!(segment_meets(p(-1.0, 2.0), p(2.0, -1.0), bx));
        assert!(segment_meets(p(0.5, 0.5), p(9.0, 9.0), bx));
        assert!(segment_meets(p(-1.0, 0.0), p(2.0, 0.0), bx));
        assert!(segment_meets(p(0.0, 2.0), p(2.0, 0.0), bx));
        // Passing by, stopping short, vertical outside, parallel above.
        assert!(!segment_meets(p(-1.0, 3.5), p(3.5, -1.0), bx));
        assert!(!segment_meets(p(-3.0, 0.5), p(-0.1, 0.5), bx));
        assert!(!segment_meets(p(1.5, -5.0), p(1.5, 5.0), bx));
        assert!(!segment_meets(p(-5.0, 1.5), p(5.0, 1.5), bx));
        // A box that holds nothing meets nothing.
        assert!(!segment_meets(p(-1.0, 0.5), p(2.0, 0.5), EMPTY_BOX));
    }

    #[test]
    fn regions_cover_a_box_that_no_one_of_them_holds() {
        let mut r = Regions::default();
        r.add(([0.0, 0.0], [2.0, 2.0]));
        r.add(([2.0, 0.0], [4.0, 2.0]));
        r.add(([0.0, 2.0], [4.0, 3.0]));
        // Across all three, touching the shared sides.
        assert!(!r.holds(([1.0, 1.0], [3.0, 2.5])));
        assert!(r.covers(([1.0, 1.0], [3.0, 2.5])));
        assert!(r.covers(([0.0, 0.0], [4.0, 3.0])));
        // Past the outside, or into a gap.
        assert!(!r.covers(([1.0, 1.0], [4.5, 2.0])));
        let mut gap = Regions::default();
        gap.add(([0.0, 0.0], [1.0, 1.0]));
        gap.add(([1.5, 0.0], [3.0, 1.0]));
        gap.add(([0.0, 1.0], [3.0, 2.0]));
        assert!(!gap.covers(([0.5, 0.5], [2.0, 1.5])));
        assert!(gap.covers(([0.5, 1.0], [2.0, 1.5])));
    }

    #[test]
    fn regions_cover_as_points_on_a_grid_say() {
        // Boxes on a grid of quarter steps: a box is covered exactly when every grid point of
        // it (the grid is fine enough to see every part left out) lies in some box.
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n) as f64
        };
        for _ in 0..300 {
            let mut r = Regions::default();
            for _ in 0..1 + next(6) as usize {
                let (x, y) = (next(8), next(8));
                r.add(([x, y], [x + 1.0 + next(4), y + 1.0 + next(4)]));
            }
            let (x, y) = (next(10), next(10));
            let b = ([x, y], [x + next(4), y + next(4)]);
            let mut all = true;
            let mut gx = b.0[0];
            while gx <= b.1[0] {
                let mut gy = b.0[1];
                while gy <= b.1[1] {
                    all &= r.boxes.iter().any(|q| contains(*q, ([gx, gy], [gx, gy])));
                    gy += 0.25;
                }
                gx += 0.25;
            }
            assert_eq!(r.covers(b), all, "{:?} {:?}", r.boxes, b);
        }
    }
}
