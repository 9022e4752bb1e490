//! The `#[repr(C)]` types of the C ABI: what the host passes in and the read-only views it gets
//! back.
//!
//! Inputs carry plain numbers (`uint32_t` codes, never Rust enums: an out-of-range value from C
//! would be undefined behaviour); outputs may use enums because the library writes them.

use std::ffi::c_char;
use std::ptr;

/// Lengths in metres.
pub const RG_UNITS_METRES: u32 = 0;
/// Lengths in centimetres (Unreal Engine's unit).
pub const RG_UNITS_CENTIMETRES: u32 = 1;

/// Right-handed, z up (the core's own frame: x east, y north).
pub const RG_FRAME_RIGHT_HANDED_Z_UP: u32 = 0;
/// Left-handed, z up (Unreal Engine: x forward, y right). The library mirrors y on the way in
/// and on the way out.
pub const RG_FRAME_LEFT_HANDED_Z_UP: u32 = 1;

/// Straight line to the next point (Unreal's `ESplinePointType::Linear`).
pub const RG_POINT_LINEAR: u32 = 0;
/// Cubic Hermite segment (`ESplinePointType::Curve`).
pub const RG_POINT_CURVE: u32 = 1;
/// Held value, read as a straight line (`ESplinePointType::Constant`).
pub const RG_POINT_CONSTANT: u32 = 2;
/// Cubic Hermite segment with clamped automatic tangents (`ESplinePointType::CurveClamped`).
pub const RG_POINT_CURVE_CLAMPED: u32 = 3;
/// Cubic Hermite segment with the user's tangents (`ESplinePointType::CurveCustomTangent`).
pub const RG_POINT_CURVE_CUSTOM_TANGENT: u32 = 4;

/// `RgSpline::profile_mask` bit: `profile.curb_height` overrides the default.
pub const RG_PROFILE_CURB_HEIGHT: u32 = 1;
/// `RgSpline::profile_mask` bit: `profile.curb_width` overrides the default.
pub const RG_PROFILE_CURB_WIDTH: u32 = 2;
/// `RgSpline::profile_mask` bit: `profile.sidewalk_left` overrides the default.
pub const RG_PROFILE_SIDEWALK_LEFT: u32 = 4;
/// `RgSpline::profile_mask` bit: `profile.sidewalk_right` overrides the default.
pub const RG_PROFILE_SIDEWALK_RIGHT: u32 = 8;
/// `RgSpline::profile_mask` bit: `RgSpline::corner_radius` overrides `RgSettings::corner_radius`
/// for the junction corners beside this road (a corner between two roads takes the smaller).
pub const RG_PROFILE_CORNER_RADIUS: u32 = 16;

/// The outcome of a call. The numeric values are fixed and never reused.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RgResult {
    /// Success.
    Ok = 0,
    /// A required pointer was null: an output pointer, the settings, or an array whose count is
    /// not 0.
    NullArgument = 1,
    /// An argument is out of range or inconsistent (an unknown code, a setting that is not
    /// finite, a misaligned pointer, a count too large for memory).
    InvalidArgument = 2,
    /// The handle is not (or no longer) a live handle: never created, or already freed.
    InvalidHandle = 3,
    /// Strict mode: a road could not be used. The message names the road and the point.
    InvalidRoad = 4,
    /// The caller's buffer was too small; the output was truncated.
    BufferTooSmall = 5,
    /// The library panicked (a bug); the handle holds no result and the message says where.
    Panic = 6,
}

/// A point or vector in the plane, in the caller's units and frame.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RgVec2 {
    /// x.
    pub x: f64,
    /// y.
    pub y: f64,
}

/// A point or vector in space, in the caller's units and frame.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RgVec3 {
    /// x.
    pub x: f64,
    /// y.
    pub y: f64,
    /// z (up).
    pub z: f64,
}

/// A road's cross-section beside its carriageway, in the caller's units.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RgProfile {
    /// Height of the curb above the carriageway.
    pub curb_height: f64,
    /// Width of the curb's top.
    pub curb_width: f64,
    /// Sidewalk width on the left, looking along the road (in the caller's frame).
    pub sidewalk_left: f64,
    /// Sidewalk width on the right.
    pub sidewalk_right: f64,
}

/// One spline point with Unreal's semantics (world space, the caller's units and frame).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RgSplinePoint {
    /// Position.
    pub location: RgVec3,
    /// Tangent arriving at this point (per unit of spline input key).
    pub arrive_tangent: RgVec3,
    /// Tangent leaving this point.
    pub leave_tangent: RgVec3,
    /// One of the `RG_POINT_*` codes: how the segment that starts here is interpolated.
    pub point_type: u32,
}

/// One input road: a spline with a width, a layer and an optional profile.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct RgSpline {
    /// The road's id, UTF-8 (need not be NUL-terminated); ids should be unique.
    pub id: *const c_char,
    /// Length of `id` in bytes.
    pub id_len: usize,
    /// The points, in order.
    pub points: *const RgSplinePoint,
    /// Number of points.
    pub point_count: usize,
    /// Carriageway width, curb to curb.
    pub width: f64,
    /// Grade level: roads on different layers that cross in the middle do not meet.
    pub layer: i32,
    /// Non-zero: the spline returns from its last point to its first.
    pub closed: u8,
    /// Non-zero: ignore the given tangents and compute Unreal's automatic ones.
    pub auto_tangents: u8,
    /// Which fields of `profile` override the settings' default (`RG_PROFILE_*` bits).
    pub profile_mask: u32,
    /// The road's own profile values, where `profile_mask` says so.
    pub profile: RgProfile,
    /// The road's own corner radius, where `profile_mask` has `RG_PROFILE_CORNER_RADIUS`.
    pub corner_radius: f64,
}

/// Settings of a generation. Every length is in the caller's units; fill with
/// [`rg_settings_default`](crate::rg_settings_default) and change what you need.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RgSettings {
    /// One of the `RG_UNITS_*` codes: the unit of every length in and out.
    pub units: u32,
    /// One of the `RG_FRAME_*` codes: the handedness of every position in and out.
    pub frame: u32,
    /// Largest distance between a spline and its flattened polyline.
    pub tolerance: f64,
    /// A road end within this distance of another road joins it.
    pub snap_distance: f64,
    /// Crossing roads further apart in height than this are grade-separated.
    pub clearance: f64,
    /// Radius of the fillet that rounds each junction corner.
    pub corner_radius: f64,
    /// Crossings closer together than the widest road plus this become one junction.
    pub merge_distance: f64,
    /// Faces smaller than this area (square units) give no block.
    pub min_block_area: f64,
    /// Roads with a coordinate beyond this distance from the origin are left out.
    pub max_coordinate: f64,
    /// The default cross-section profile.
    pub profile: RgProfile,
    /// Non-zero: stop at the first bad road with `RgResult_InvalidRoad`.
    pub strict: u8,
    /// Non-zero: build the meshes as well as the 2D network.
    pub build_meshes: u8,
}

/// A UTF-8 string owned by the library: `len` bytes at `ptr`, followed by a NUL. `ptr` is null
/// for "none" (a road piece's missing junction at a dead end, a diagnostic without a road).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct RgStr {
    /// The bytes, NUL-terminated; null for none.
    pub ptr: *const c_char,
    /// Length in bytes, without the NUL.
    pub len: usize,
}

impl RgStr {
    /// The "none" string.
    pub(crate) const NONE: RgStr = RgStr { ptr: ptr::null(), len: 0 };
}

/// A closed ring, stored open (the first point is not repeated).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct RgRing {
    /// The points.
    pub points: *const RgVec2,
    /// Number of points.
    pub point_count: usize,
}

/// A polygon: `rings[0]` is the outer boundary, any further rings are holes. The outer ring has
/// a positive shoelace area in the caller's coordinates, holes a negative one.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct RgPolygon {
    /// The rings.
    pub rings: *const RgRing,
    /// Number of rings (at least 1 for a non-empty polygon).
    pub ring_count: usize,
}

/// A junction.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct RgJunction {
    /// Stable id.
    pub id: RgStr,
    /// A representative point.
    pub center: RgVec2,
    /// Number of arms.
    pub degree: usize,
    /// Ids of the input roads that meet here, sorted, without repeats.
    pub roads: *const RgStr,
    /// Number of `roads`.
    pub road_count: usize,
    /// The junction surface.
    pub polygon: RgPolygon,
}

/// A piece of one input road between two junctions (or a dead end).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct RgRoadPiece {
    /// Stable id.
    pub id: RgStr,
    /// The input road's id.
    pub road: RgStr,
    /// Junction id at the start; none at a dead end.
    pub from: RgStr,
    /// Junction id at the end; none at a dead end.
    pub to: RgStr,
    /// Carriageway width.
    pub width: f64,
    /// Distance of the start along the input road.
    pub start: f64,
    /// Distance of the end along the input road.
    pub end: f64,
    /// The cut centerline, with heights.
    pub centerline: *const RgVec3,
    /// Number of centerline points.
    pub centerline_count: usize,
    /// The carriageway surface.
    pub polygon: RgPolygon,
}

/// A city block.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct RgBlock {
    /// Stable id.
    pub id: RgStr,
    /// Area, square units.
    pub area: f64,
    /// The outline; holes are other parts of the network inside it.
    pub polygon: RgPolygon,
    /// The lots: the block minus its sidewalk band.
    pub lots: *const RgPolygon,
    /// Number of lots.
    pub lot_count: usize,
}

/// What a diagnostic is about. The numeric values are fixed and never reused.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RgDiagnosticCode {
    /// A road could not be used and was left out.
    RoadSkipped = 0,
    /// A corner radius did not fit and was reduced.
    RadiusReduced = 1,
    /// Junctions were merged into one.
    JunctionsMerged = 2,
    /// A road end came close to another road but was not joined.
    NearMiss = 3,
    /// Two roads cross at different layers or heights: no junction.
    GradeSeparated = 4,
    /// A face was too small to be a block.
    FaceDropped = 5,
    /// A stub past a crossing was trimmed.
    OvershootTrimmed = 6,
    /// A road end was moved onto a nearby road.
    EndSnapped = 7,
    /// A junction outline was built from the union of its arms.
    JunctionFallback = 8,
}

/// A warning that is part of the result.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct RgDiagnostic {
    /// What happened.
    pub code: RgDiagnosticCode,
    /// The code's name in `snake_case`, as in the CLI's GeoJSON.
    pub code_name: RgStr,
    /// Where.
    pub position: RgVec2,
    /// The input road concerned; none when there is none.
    pub road: RgStr,
    /// A sentence for a person.
    pub message: RgStr,
}

/// Which feature a mesh belongs to. The numeric values are fixed and never reused.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RgFeatureKind {
    /// A road piece.
    Road = 0,
    /// A junction.
    Junction = 1,
    /// A block platform.
    Block = 2,
}

/// One feature named by an update: its kind and id.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct RgFeatureRef {
    /// The feature's kind.
    pub kind: RgFeatureKind,
    /// The feature's id.
    pub id: RgStr,
}

/// What the last `rg_update` changed: read-only arrays owned by the handle, valid until
/// the handle is generated or updated again, or freed. Each list is sorted by kind, then id.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct RgChangesView {
    /// Features that did not exist before.
    pub added: *const RgFeatureRef,
    /// Number of added features.
    pub added_count: usize,
    /// Features whose content changed.
    pub changed: *const RgFeatureRef,
    /// Number of changed features.
    pub changed_count: usize,
    /// Features that no longer exist (their meshes are gone too).
    pub removed: *const RgFeatureRef,
    /// Number of removed features.
    pub removed_count: usize,
    /// Features whose meshes were built again (added and changed features and their
    /// neighbours): the meshes a host replaces. Empty unless meshes are built.
    pub remeshed: *const RgFeatureRef,
    /// Number of features whose meshes were built again.
    pub remeshed_count: usize,
    /// 1 when the diagnostics changed.
    pub diagnostics_changed: u8,
    /// 1 when the update built the whole network again (same result, only slower).
    pub full_build: u8,
}

impl Default for RgChangesView {
    fn default() -> Self {
        Self {
            added: ptr::null(),
            added_count: 0,
            changed: ptr::null(),
            changed_count: 0,
            removed: ptr::null(),
            removed_count: 0,
            remeshed: ptr::null(),
            remeshed_count: 0,
            diagnostics_changed: 0,
            full_build: 0,
        }
    }
}

/// Material slot of a triangle (`RgMesh::material_slots`).
pub const RG_SLOT_CARRIAGEWAY: u32 = 0;
/// Curb faces and platform bottoms.
pub const RG_SLOT_CURB: u32 = 1;
/// Sidewalks with the curbs' tops.
pub const RG_SLOT_SIDEWALK: u32 = 2;
/// The driving surface of a junction.
pub const RG_SLOT_JUNCTION: u32 = 3;
/// The top of a block's lot.
pub const RG_SLOT_BLOCK: u32 = 4;
/// Number of material slots.
pub const RG_SLOT_COUNT: u32 = 5;

/// The mesh of one feature, in the caller's units and frame. Triangles face the caller's
/// "front" convention: in the right-handed frame a triangle (a, b, c) faces
/// `(b - a) x (c - a)`; in the left-handed frame (Unreal) it faces `-((b - a) x (c - a))`, which
/// is what `FDynamicMesh3` expects, so indices are appended as they are.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct RgMesh {
    /// The feature's kind.
    pub kind: RgFeatureKind,
    /// The feature's id (as in the network's junctions, road pieces and blocks).
    pub id: RgStr,
    /// Number of vertices.
    pub vertex_count: usize,
    /// Positions, `3 * vertex_count` doubles (x, y, z).
    pub positions: *const f64,
    /// Unit normals, `3 * vertex_count` floats.
    pub normals: *const f32,
    /// Texture coordinates in metres, `2 * vertex_count` floats (u across, v along a road).
    pub uvs: *const f32,
    /// Number of triangles.
    pub triangle_count: usize,
    /// Vertex indices, `3 * triangle_count`.
    pub indices: *const u32,
    /// Material slot of each triangle (`RG_SLOT_*`), `triangle_count` values.
    pub material_slots: *const u32,
}

/// Everything a generation (and the updates after it) produced: read-only arrays owned by the
/// handle, valid until the handle is generated or updated again, or freed.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct RgNetworkView {
    /// Junctions, sorted by id.
    pub junctions: *const RgJunction,
    /// Number of junctions.
    pub junction_count: usize,
    /// Road pieces, sorted by id.
    pub pieces: *const RgRoadPiece,
    /// Number of road pieces.
    pub piece_count: usize,
    /// Blocks, sorted by id.
    pub blocks: *const RgBlock,
    /// Number of blocks.
    pub block_count: usize,
    /// Diagnostics.
    pub diagnostics: *const RgDiagnostic,
    /// Number of diagnostics.
    pub diagnostic_count: usize,
    /// Meshes: road pieces, then junctions, then blocks, each in id order (none unless
    /// `build_meshes` was set).
    pub meshes: *const RgMesh,
    /// Number of meshes.
    pub mesh_count: usize,
}

impl Default for RgNetworkView {
    fn default() -> Self {
        Self {
            junctions: ptr::null(),
            junction_count: 0,
            pieces: ptr::null(),
            piece_count: 0,
            blocks: ptr::null(),
            block_count: 0,
            diagnostics: ptr::null(),
            diagnostic_count: 0,
            meshes: ptr::null(),
            mesh_count: 0,
        }
    }
}
