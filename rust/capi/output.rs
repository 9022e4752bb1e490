//! A generation's result as the C side sees it: every string, ring and array owned here, and
//! `#[repr(C)]` views that point into them. Nothing is written after the views are made, so the
//! pointers stay valid for as long as the `Output` lives.

use std::collections::BTreeSet;
use std::ffi::c_char;

use roadgen_core::{
    Block, DiagnosticCode, FeatureKind, Junction, MaterialSlot, MeshSink, MeshVertex, Network, Polygon as CorePolygon,
    RoadPiece,
};

use crate::frame::Frame;
use crate::types::*;

/// The boxes that views point into: every string, point array, ring array and list.
#[derive(Default)]
struct Store {
    strings: Vec<Box<[u8]>>,
    points: Vec<Box<[RgVec2]>>,
    points3: Vec<Box<[RgVec3]>>,
    rings: Vec<Box<[RgRing]>>,
    polygons: Vec<Box<[RgPolygon]>>,
    string_lists: Vec<Box<[RgStr]>>,
}

/// One feature's view and the boxes it points into (moving a part keeps its pointers valid:
/// they point into the heap).
struct Part<V> {
    view: V,
    _store: Store,
}

/// Storage and views of one result. Junctions, road pieces and blocks are kept as parts, with
/// their ids, in the network's order (by id), so that an update converts again only the
/// features it added or changed.
#[derive(Default)]
pub(crate) struct Output {
    store: Store,
    junction_parts: Vec<(String, Part<RgJunction>)>,
    piece_parts: Vec<(String, Part<RgRoadPiece>)>,
    block_parts: Vec<(String, Part<RgBlock>)>,
    junctions: Vec<RgJunction>,
    pieces: Vec<RgRoadPiece>,
    blocks: Vec<RgBlock>,
    diagnostics: Vec<RgDiagnostic>,
    meshes: Vec<RgMesh>,
}

// The raw pointers in the views point into boxes this value owns and never changes; moving the
// value to another thread moves the boxes' ownership with it.
#[allow(unsafe_code)]
unsafe impl Send for Output {}

/// The arrays of one feature's mesh, in the caller's frame.
#[derive(Default)]
pub(crate) struct MeshData {
    pub(crate) kind: Option<FeatureKind>,
    pub(crate) id: String,
    positions: Vec<f64>,
    normals: Vec<f32>,
    uvs: Vec<f32>,
    indices: Vec<u32>,
    slots: Vec<u32>,
}

/// A [`MeshSink`] that writes each feature's mesh straight into the caller's frame.
pub(crate) struct AbiMeshSink {
    frame: Frame,
    meshes: Vec<MeshData>,
}

impl AbiMeshSink {
    pub(crate) fn new(frame: Frame) -> Self {
        Self { frame, meshes: Vec::new() }
    }

    /// The meshes written, in order.
    pub(crate) fn into_meshes(self) -> Vec<MeshData> {
        self.meshes
    }
}

/// Where a feature's mesh stands among the meshes of a view: road pieces, then junctions, then
/// blocks, each in id order.
pub(crate) type MeshKey = (u8, String);

/// The key of a feature's mesh.
pub(crate) fn mesh_key(kind: FeatureKind, id: &str) -> MeshKey {
    let order = match kind {
        FeatureKind::Road => 0,
        FeatureKind::Junction => 1,
        FeatureKind::Block => 2,
    };
    (order, id.to_string())
}

impl MeshSink for AbiMeshSink {
    fn begin_feature(&mut self, kind: FeatureKind, id: &str) {
        self.meshes.push(MeshData { kind: Some(kind), id: id.to_string(), ..MeshData::default() });
    }

    fn vertex(&mut self, v: MeshVertex) -> u32 {
        let Some(m) = self.meshes.last_mut() else { return 0 };
        let p = self.frame.point_out(v.position);
        m.positions.extend_from_slice(&[p.x, p.y, p.z]);
        m.normals.extend_from_slice(&self.frame.normal_out(v.normal));
        m.uvs.extend_from_slice(&[v.uv[0] as f32, v.uv[1] as f32]);
        (m.positions.len() / 3 - 1) as u32
    }

    fn triangle(&mut self, a: u32, b: u32, c: u32, slot: MaterialSlot) {
        if let Some(m) = self.meshes.last_mut() {
            m.indices.extend_from_slice(&[a, b, c]);
            m.slots.push(slot_code(slot));
        }
    }

    fn end_feature(&mut self) {}

    fn reserve(&mut self, vertices: usize, triangles: usize) {
        if let Some(m) = self.meshes.last_mut() {
            m.positions.reserve(3 * vertices);
            m.normals.reserve(3 * vertices);
            m.uvs.reserve(2 * vertices);
            m.indices.reserve(3 * triangles);
            m.slots.reserve(triangles);
        }
    }
}

const fn slot_code(slot: MaterialSlot) -> u32 {
    match slot {
        MaterialSlot::Carriageway => RG_SLOT_CARRIAGEWAY,
        MaterialSlot::Curb => RG_SLOT_CURB,
        MaterialSlot::Sidewalk => RG_SLOT_SIDEWALK,
        MaterialSlot::Junction => RG_SLOT_JUNCTION,
        MaterialSlot::Block => RG_SLOT_BLOCK,
    }
}

const fn diagnostic_code(code: DiagnosticCode) -> RgDiagnosticCode {
    match code {
        DiagnosticCode::RoadSkipped => RgDiagnosticCode::RoadSkipped,
        DiagnosticCode::RadiusReduced => RgDiagnosticCode::RadiusReduced,
        DiagnosticCode::JunctionsMerged => RgDiagnosticCode::JunctionsMerged,
        DiagnosticCode::NearMiss => RgDiagnosticCode::NearMiss,
        DiagnosticCode::GradeSeparated => RgDiagnosticCode::GradeSeparated,
        DiagnosticCode::FaceDropped => RgDiagnosticCode::FaceDropped,
        DiagnosticCode::OvershootTrimmed => RgDiagnosticCode::OvershootTrimmed,
        DiagnosticCode::EndSnapped => RgDiagnosticCode::EndSnapped,
        DiagnosticCode::JunctionFallback => RgDiagnosticCode::JunctionFallback,
    }
}

const fn feature_kind(kind: Option<FeatureKind>) -> RgFeatureKind {
    match kind {
        Some(FeatureKind::Junction) => RgFeatureKind::Junction,
        Some(FeatureKind::Block) => RgFeatureKind::Block,
        Some(FeatureKind::Road) | None => RgFeatureKind::Road,
    }
}

impl Output {
    /// The views of `net` and of `meshes` in the caller's frame. The mesh views point into
    /// `meshes`, which must outlive this value and not change while it lives.
    pub(crate) fn new<'a>(net: &Network, meshes: impl Iterator<Item = &'a MeshData>, frame: Frame) -> Self {
        Self::renewed(Output::default(), &BTreeSet::new(), net, meshes, frame)
    }

    /// As [`Output::new`], reusing the junctions, road pieces and blocks of `previous` (made
    /// with the same `frame`) that are not in `stale` (kind and id: what an update added or
    /// changed); a feature that is gone is dropped with its part. Diagnostics and mesh views
    /// are made again.
    pub(crate) fn renewed<'a>(
        mut previous: Output,
        stale: &BTreeSet<(FeatureKind, &str)>,
        net: &Network,
        meshes: impl Iterator<Item = &'a MeshData>,
        frame: Frame,
    ) -> Self {
        let mut out = Output::default();
        out.junction_parts = renew(
            std::mem::take(&mut previous.junction_parts),
            &net.junctions,
            |j| &j.id,
            |j| stale.contains(&(FeatureKind::Junction, j.id.as_str())),
            |j| junction_part(j, frame),
        );
        out.piece_parts = renew(
            std::mem::take(&mut previous.piece_parts),
            &net.pieces,
            |p| &p.id,
            |p| stale.contains(&(FeatureKind::Road, p.id.as_str())),
            |p| piece_part(p, frame),
        );
        out.block_parts = renew(
            std::mem::take(&mut previous.block_parts),
            &net.blocks,
            |b| &b.id,
            |b| stale.contains(&(FeatureKind::Block, b.id.as_str())),
            |b| block_part(b, frame),
        );
        out.junctions = out.junction_parts.iter().map(|(_, p)| p.view).collect();
        out.pieces = out.piece_parts.iter().map(|(_, p)| p.view).collect();
        out.blocks = out.block_parts.iter().map(|(_, p)| p.view).collect();
        let store = &mut out.store;
        for d in &net.diagnostics {
            let view = RgDiagnostic {
                code: diagnostic_code(d.code),
                code_name: store.string(d.code.as_str()),
                position: frame.point2_out(d.position),
                road: store.optional(d.road.as_deref()),
                message: store.string(&d.message),
            };
            out.diagnostics.push(view);
        }
        for m in meshes {
            let id = store.string(&m.id);
            out.meshes.push(RgMesh {
                kind: feature_kind(m.kind),
                id,
                vertex_count: m.positions.len() / 3,
                positions: m.positions.as_ptr(),
                normals: m.normals.as_ptr(),
                uvs: m.uvs.as_ptr(),
                triangle_count: m.slots.len(),
                indices: m.indices.as_ptr(),
                material_slots: m.slots.as_ptr(),
            });
        }
        out
    }

    /// A list of features as the caller sees it (the strings are kept here).
    pub(crate) fn features(&mut self, list: &[(FeatureKind, String)]) -> Vec<RgFeatureRef> {
        list.iter().map(|(k, id)| RgFeatureRef { kind: feature_kind(Some(*k)), id: self.store.string(id) }).collect()
    }

    /// The view of everything.
    pub(crate) fn view(&self) -> RgNetworkView {
        RgNetworkView {
            junctions: self.junctions.as_ptr(),
            junction_count: self.junctions.len(),
            pieces: self.pieces.as_ptr(),
            piece_count: self.pieces.len(),
            blocks: self.blocks.as_ptr(),
            block_count: self.blocks.len(),
            diagnostics: self.diagnostics.as_ptr(),
            diagnostic_count: self.diagnostics.len(),
            meshes: self.meshes.as_ptr(),
            mesh_count: self.meshes.len(),
        }
    }
}

impl Store {
    fn string(&mut self, s: &str) -> RgStr {
        let mut bytes = Vec::with_capacity(s.len() + 1);
        bytes.extend_from_slice(s.as_bytes());
        bytes.push(0);
        let bytes = bytes.into_boxed_slice();
        let view = RgStr { ptr: bytes.as_ptr().cast::<c_char>(), len: s.len() };
        self.strings.push(bytes);
        view
    }

    fn optional(&mut self, s: Option<&str>) -> RgStr {
        match s {
            Some(s) => self.string(s),
            None => RgStr::NONE,
        }
    }

    fn string_list(&mut self, list: Vec<RgStr>) -> (*const RgStr, usize) {
        let list = list.into_boxed_slice();
        let view = (list.as_ptr(), list.len());
        self.string_lists.push(list);
        view
    }

    fn polygon(&mut self, p: &CorePolygon, frame: Frame) -> RgPolygon {
        if p.exterior.is_empty() {
            return RgPolygon { rings: std::ptr::null(), ring_count: 0 };
        }
        let rings: Box<[RgRing]> = std::iter::once(&p.exterior)
            .chain(&p.holes)
            .map(|ring| {
                let pts = frame.ring_out(ring).into_boxed_slice();
                let view = RgRing { points: pts.as_ptr(), point_count: pts.len() };
                self.points.push(pts);
                view
            })
            .collect();
        let view = RgPolygon { rings: rings.as_ptr(), ring_count: rings.len() };
        self.rings.push(rings);
        view
    }
}

/// The parts of `features` (sorted by id, as the network keeps them): those of `previous` (sorted
/// the same way) whose feature is not `stale`, moved over, and new ones made by `make` for the
/// rest; the parts of features that are gone are dropped.
fn renew<F, V>(
    previous: Vec<(String, Part<V>)>,
    features: &[F],
    id: impl Fn(&F) -> &String,
    stale: impl Fn(&F) -> bool,
    make: impl Fn(&F) -> Part<V>,
) -> Vec<(String, Part<V>)> {
    let mut old = previous.into_iter().peekable();
    let mut out = Vec::with_capacity(features.len());
    for f in features {
        let key = id(f);
        while old.next_if(|(k, _)| k < key).is_some() {}
        match old.next_if(|(k, _)| k == key) {
            Some(kept) if !stale(f) => out.push(kept),
            _ => out.push((key.clone(), make(f))),
        }
    }
    out
}

/// The view of one junction with its boxes.
fn junction_part(j: &Junction, frame: Frame) -> Part<RgJunction> {
    let mut store = Store::default();
    let roads: Vec<RgStr> = j.roads.iter().map(|r| store.string(r)).collect();
    let (roads, road_count) = store.string_list(roads);
    let view = RgJunction {
        id: store.string(&j.id),
        center: frame.point2_out(j.center),
        degree: j.degree,
        roads,
        road_count,
        polygon: store.polygon(&j.polygon, frame),
    };
    Part { view, _store: store }
}

/// The view of one road piece with its boxes.
fn piece_part(p: &RoadPiece, frame: Frame) -> Part<RgRoadPiece> {
    let mut store = Store::default();
    let line: Box<[RgVec3]> = p.centerline.iter().map(|&q| frame.point_out(q)).collect();
    let (centerline, centerline_count) = (line.as_ptr(), line.len());
    store.points3.push(line);
    let view = RgRoadPiece {
        id: store.string(&p.id),
        road: store.string(&p.road),
        from: store.optional(p.from.as_deref()),
        to: store.optional(p.to.as_deref()),
        width: frame.length_out(p.width),
        start: frame.length_out(p.start),
        end: frame.length_out(p.end),
        centerline,
        centerline_count,
        polygon: store.polygon(&p.polygon, frame),
    };
    Part { view, _store: store }
}

/// The view of one block (with its lots) with its boxes.
fn block_part(b: &Block, frame: Frame) -> Part<RgBlock> {
    let mut store = Store::default();
    let lots: Box<[RgPolygon]> = b.lots.iter().map(|l| store.polygon(l, frame)).collect();
    let (lots_ptr, lot_count) = (lots.as_ptr(), lots.len());
    store.polygons.push(lots);
    let view = RgBlock {
        id: store.string(&b.id),
        area: frame.area_out(b.area),
        polygon: store.polygon(&b.polygon, frame),
        lots: lots_ptr,
        lot_count,
    };
    Part { view, _store: store }
}
