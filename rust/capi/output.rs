//! A generation's result as the C side sees it: every string, ring and array owned here, and
//! `#[repr(C)]` views that point into them. Nothing is written after the views are made, so the
//! pointers stay valid for as long as the `Output` lives.

use std::ffi::c_char;

use roadgen_core::{DiagnosticCode, FeatureKind, MaterialSlot, MeshSink, MeshVertex, Network, Polygon as CorePolygon};

use crate::frame::Frame;
use crate::types::*;

/// Storage and views of one result.
#[derive(Default)]
pub(crate) struct Output {
    strings: Vec<Box<[u8]>>,
    points: Vec<Box<[RgVec2]>>,
    points3: Vec<Box<[RgVec3]>>,
    rings: Vec<Box<[RgRing]>>,
    polygons: Vec<Box<[RgPolygon]>>,
    string_lists: Vec<Box<[RgStr]>>,
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
        let mut out = Output::default();
        for j in &net.junctions {
            let roads: Vec<RgStr> = j.roads.iter().map(|r| out.string(r)).collect();
            let (roads, road_count) = out.string_list(roads);
            let view = RgJunction {
                id: out.string(&j.id),
                center: frame.point2_out(j.center),
                degree: j.degree,
                roads,
                road_count,
                polygon: out.polygon(&j.polygon, frame),
            };
            out.junctions.push(view);
        }
        for p in &net.pieces {
            let line: Box<[RgVec3]> = p.centerline.iter().map(|&q| frame.point_out(q)).collect();
            let (centerline, centerline_count) = (line.as_ptr(), line.len());
            out.points3.push(line);
            let view = RgRoadPiece {
                id: out.string(&p.id),
                road: out.string(&p.road),
                from: out.optional(p.from.as_deref()),
                to: out.optional(p.to.as_deref()),
                width: frame.length_out(p.width),
                start: frame.length_out(p.start),
                end: frame.length_out(p.end),
                centerline,
                centerline_count,
                polygon: out.polygon(&p.polygon, frame),
            };
            out.pieces.push(view);
        }
        for b in &net.blocks {
            let lots: Box<[RgPolygon]> = b.lots.iter().map(|l| out.polygon(l, frame)).collect();
            let (lots_ptr, lot_count) = (lots.as_ptr(), lots.len());
            out.polygons.push(lots);
            let view = RgBlock {
                id: out.string(&b.id),
                area: frame.area_out(b.area),
                polygon: out.polygon(&b.polygon, frame),
                lots: lots_ptr,
                lot_count,
            };
            out.blocks.push(view);
        }
        for d in &net.diagnostics {
            let view = RgDiagnostic {
                code: diagnostic_code(d.code),
                code_name: out.string(d.code.as_str()),
                position: frame.point2_out(d.position),
                road: out.optional(d.road.as_deref()),
                message: out.string(&d.message),
            };
            out.diagnostics.push(view);
        }
        for m in meshes {
            let id = out.string(&m.id);
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
        list.iter().map(|(k, id)| RgFeatureRef { kind: feature_kind(Some(*k)), id: self.string(id) }).collect()
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
