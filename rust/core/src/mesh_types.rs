//! Mesh output: what the meshing stage hands to a [`MeshSink`] (the glTF writer, the Unreal
//! plugin's `FDynamicMesh3` filler, or the [`MeshCollector`] that keeps everything in memory).
//!
//! ## Units and axes
//! Metres, right-handed, z up (the core's frame). Writers convert to their target's frame in one
//! place each (glTF: y up; Unreal: centimetres, left-handed).

use crate::types::Point3;

/// The material slot of a triangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MaterialSlot {
    /// The driving surface of a road piece.
    Carriageway = 0,
    /// Curb faces (the skirts of block platforms) and the platforms' bottoms.
    Curb = 1,
    /// Sidewalks with the curbs' tops: the band inside a block along its curb.
    Sidewalk = 2,
    /// The driving surface of a junction.
    Junction = 3,
    /// The top of a block's lot.
    Block = 4,
}

impl MaterialSlot {
    /// Every slot, in numeric order.
    pub const ALL: [MaterialSlot; 5] = [Self::Carriageway, Self::Curb, Self::Sidewalk, Self::Junction, Self::Block];

    /// The slot's name as written in outputs (`snake_case`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Carriageway => "carriageway",
            Self::Curb => "curb",
            Self::Sidewalk => "sidewalk",
            Self::Junction => "junction",
            Self::Block => "block",
        }
    }
}

/// Which network feature a mesh belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FeatureKind {
    /// A road piece.
    Road,
    /// A junction.
    Junction,
    /// A block platform.
    Block,
}

impl FeatureKind {
    /// The kind as written in outputs.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Road => "road",
            Self::Junction => "junction",
            Self::Block => "block",
        }
    }
}

/// One mesh vertex.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshVertex {
    /// Position, metres.
    pub position: Point3,
    /// Unit normal.
    pub normal: Point3,
    /// Texture coordinates in metres: `u` across the road, `v` along it (for blocks, the plan
    /// position).
    pub uv: [f64; 2],
}

/// Receives meshes feature by feature, as lyon's geometry builders do: the meshing code never
/// dictates a vertex format. Indices are per feature, starting at 0 after each
/// [`begin_feature`](MeshSink::begin_feature).
pub trait MeshSink {
    /// Starts the mesh of one feature.
    fn begin_feature(&mut self, kind: FeatureKind, id: &str);
    /// Adds a vertex; returns its index within the feature.
    fn vertex(&mut self, v: MeshVertex) -> u32;
    /// Adds a counter-clockwise (seen from its front) triangle of three vertices of the feature.
    fn triangle(&mut self, a: u32, b: u32, c: u32, slot: MaterialSlot);
    /// Ends the feature's mesh.
    fn end_feature(&mut self);
    /// A hint, after [`begin_feature`](MeshSink::begin_feature): about this many more vertices
    /// and triangles will follow in this feature, so that a sink can make room for them at once.
    /// By default nothing.
    fn reserve(&mut self, vertices: usize, triangles: usize) {
        let _ = (vertices, triangles);
    }
    /// Takes one whole feature's mesh: by default, through the calls above. A sink that keeps
    /// [`FeatureMesh`]es can take it as it is, without a copy.
    fn feature(&mut self, mesh: FeatureMesh) {
        crate::mesh::replay(&mesh, self);
    }
}

/// The mesh of one feature, as [`MeshCollector`] keeps it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FeatureMesh {
    /// The feature's kind (`None` only for a default value).
    pub kind: Option<FeatureKind>,
    /// The feature's id (as in the network).
    pub id: String,
    /// Vertices.
    pub vertices: Vec<MeshVertex>,
    /// Triangles: vertex indices, counter-clockwise seen from the front.
    pub triangles: Vec<[u32; 3]>,
    /// Material slot of each triangle.
    pub slots: Vec<MaterialSlot>,
}

/// A [`MeshSink`] that keeps every feature's mesh in memory.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeshCollector {
    /// The meshes, in the order they were built.
    pub meshes: Vec<FeatureMesh>,
}

impl MeshSink for MeshCollector {
    fn begin_feature(&mut self, kind: FeatureKind, id: &str) {
        self.meshes.push(FeatureMesh { kind: Some(kind), id: id.to_string(), ..FeatureMesh::default() });
    }

    fn vertex(&mut self, v: MeshVertex) -> u32 {
        match self.meshes.last_mut() {
            Some(m) => {
                m.vertices.push(v);
                (m.vertices.len() - 1) as u32
            }
            None => 0,
        }
    }

    fn triangle(&mut self, a: u32, b: u32, c: u32, slot: MaterialSlot) {
        if let Some(m) = self.meshes.last_mut() {
            m.triangles.push([a, b, c]);
            m.slots.push(slot);
        }
    }

    fn end_feature(&mut self) {}

    fn reserve(&mut self, vertices: usize, triangles: usize) {
        if let Some(m) = self.meshes.last_mut() {
            m.vertices.reserve(vertices);
            m.triangles.reserve(triangles);
            m.slots.reserve(triangles);
        }
    }

    fn feature(&mut self, mesh: FeatureMesh) {
        if mesh.kind.is_some() {
            self.meshes.push(mesh);
        }
    }
}
