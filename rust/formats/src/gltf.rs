//! The glTF 2.0 binary writer (`.glb`): the meshes of a network's features, ready for any glTF
//! viewer or engine.
//!
//! ## Layout
//! - One node per feature (features without triangles are skipped), named with the feature's id,
//!   with `extras: {"kind": "road" | "junction" | "block"}`, all in a single scene.
//! - Each node's `translation` is the centre of its feature's bounding box, and its mesh's
//!   positions are relative to it: projected coordinates (tens of kilometres from the origin)
//!   would lose millimetres as the 32-bit floats glTF stores; offsets within a feature do not.
//! - One glTF mesh per feature, with one primitive per material slot the feature uses (in slot
//!   order). The primitives share the feature's vertex data (POSITION with `min`/`max`, unit
//!   NORMAL, TEXCOORD_0 in metres as given) and each has its own triangle indices (16-bit when
//!   the feature has at most 65 535 vertices, else 32-bit). Vertices that no triangle uses are
//!   left out.
//! - Five materials, always present, in [`MaterialSlot::ALL`] order (so a slot's material index
//!   is its number), named by [`MaterialSlot::as_str`]: metallic-roughness, not metallic, rough,
//!   single-sided.
//! - One buffer, the GLB's BIN chunk; every buffer view starts on a 4-byte boundary.
//!
//! ## Units and axes
//! Metres. The core's frame (right-handed, z up) is turned into glTF's (right-handed, y up) in
//! one place (`to_y_up`): (x, y, z) → (x, z, −y), a rotation, so counter-clockwise triangles
//! keep facing the same way.
//!
//! The output is deterministic: the same meshes and options give the same bytes.

use roadgen_core::{FeatureMesh, MaterialSlot, Point3};
use serde_json::{json, Map, Value};

/// `bufferView.target` for vertex attributes.
const ARRAY_BUFFER: u32 = 34962;
/// `bufferView.target` for triangle indices.
const ELEMENT_ARRAY_BUFFER: u32 = 34963;
/// `accessor.componentType` values.
const UNSIGNED_SHORT: u32 = 5123;
/// See [`UNSIGNED_SHORT`].
const UNSIGNED_INT: u32 = 5125;
/// See [`UNSIGNED_SHORT`].
const FLOAT: u32 = 5126;
/// `primitive.mode` for triangle lists.
const TRIANGLES: u32 = 4;

/// GLB magic (`glTF`), container version and chunk types.
const GLB_MAGIC: u32 = 0x4654_6C67;
/// See [`GLB_MAGIC`].
const GLB_VERSION: u32 = 2;
/// See [`GLB_MAGIC`].
const CHUNK_JSON: u32 = 0x4E4F_534A;
/// See [`GLB_MAGIC`].
const CHUNK_BIN: u32 = 0x004E_4942;

/// The largest file a GLB's 32-bit lengths can describe.
const MAX_GLB_BYTES: u64 = u32::MAX as u64;

/// Largest vertex count whose indices fit 16 bits (65 535 itself is the primitive-restart value).
const MAX_U16_VERTICES: usize = 65_535;

/// Linear base colour (RGBA) of each slot's material.
pub(crate) const fn base_color(slot: MaterialSlot) -> [f64; 4] {
    match slot {
        MaterialSlot::Carriageway => [0.09, 0.09, 0.10, 1.0],
        MaterialSlot::Curb => [0.62, 0.62, 0.62, 1.0],
        MaterialSlot::Sidewalk => [0.58, 0.53, 0.47, 1.0],
        MaterialSlot::Junction => [0.13, 0.12, 0.12, 1.0],
        MaterialSlot::Block => [0.22, 0.42, 0.16, 1.0],
    }
}

/// Roughness of every material.
const ROUGHNESS: f64 = 0.9;

/// How the glTF file is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GltfOptions {
    /// `asset.generator` (default `"RoadGen <version>"`).
    pub generator: String,
}

impl Default for GltfOptions {
    fn default() -> Self {
        Self { generator: format!("RoadGen {}", env!("CARGO_PKG_VERSION")) }
    }
}

/// Why a glTF file could not be written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GltfError {
    /// A vertex has a NaN or infinite position, normal or texture coordinate.
    #[error("feature '{feature}': non-finite {what} at vertex {vertex}")]
    NonFinite {
        /// The feature's id.
        feature: String,
        /// `"position"`, `"normal"` or `"texture coordinate"`.
        what: &'static str,
        /// The vertex's index within the feature.
        vertex: usize,
    },
    /// A vertex is too far from its feature's centre (or a texture coordinate too large) for
    /// the 32-bit floats glTF stores.
    #[error("feature '{feature}': {what} at vertex {vertex} is too large for a 32-bit float")]
    OutOfRange {
        /// The feature's id.
        feature: String,
        /// `"position"` or `"texture coordinate"`.
        what: &'static str,
        /// The vertex's index within the feature.
        vertex: usize,
    },
    /// A triangle refers to a vertex the feature does not have.
    #[error("feature '{feature}': triangle {triangle} uses vertex {index}, but the feature has {vertices} vertices")]
    IndexOutOfRange {
        /// The feature's id.
        feature: String,
        /// The triangle's index within the feature.
        triangle: usize,
        /// The offending vertex index.
        index: u32,
        /// The feature's vertex count.
        vertices: usize,
    },
    /// The feature's `triangles` and `slots` differ in length.
    #[error("feature '{feature}': {triangles} triangles but {slots} material slots")]
    SlotCountMismatch {
        /// The feature's id.
        feature: String,
        /// Length of `triangles`.
        triangles: usize,
        /// Length of `slots`.
        slots: usize,
    },
    /// The file would be larger than a GLB's 32-bit lengths can describe.
    #[error("the glTF file would need at least {bytes} bytes, more than a .glb can hold ({MAX_GLB_BYTES})")]
    TooLarge {
        /// The size reached when writing stopped.
        bytes: u64,
    },
}

/// Writes the meshes as a glTF 2.0 binary file (`.glb`); see the [module docs](self) for the
/// layout.
///
/// # Errors
/// [`GltfError::NonFinite`] for a NaN or infinite coordinate, [`GltfError::OutOfRange`] for one
/// too large for 32-bit floats, [`GltfError::IndexOutOfRange`] and
/// [`GltfError::SlotCountMismatch`] for inconsistent triangles (each naming the feature), and
/// [`GltfError::TooLarge`] when the data exceeds what a GLB can hold.
pub fn write_glb(meshes: &[FeatureMesh], opts: &GltfOptions) -> Result<Vec<u8>, GltfError> {
    write_glb_limited(meshes, opts, MAX_GLB_BYTES)
}

/// [`write_glb`] with a size limit (so that the limit can be tested).
///
/// Two passes over the meshes: the first lays the file out (every buffer view's offset and
/// length, the accessors' bounds) and writes the JSON; the second writes the header, the JSON
/// and the binary data once, into a buffer of the file's exact size. A file of hundreds of
/// megabytes is then written without growing a buffer step by step and copying it into another,
/// each copy touching fresh memory (on the benchmark machine, writing liege tiled 2 × 2 this way
/// took 12 to 19 s, with the kernel's zeroing of fresh pages 30 % of the whole benchmark run;
/// docs/PERFORMANCE.md).
fn write_glb_limited(meshes: &[FeatureMesh], opts: &GltfOptions, limit: u64) -> Result<Vec<u8>, GltfError> {
    let mut layout = Builder::laying_out(limit);
    let mut nodes = Vec::new();
    let mut gltf_meshes = Vec::new();
    for mesh in meshes {
        let Some(feature) = prepare(mesh)? else { continue };
        let primitives = layout.add_feature(&feature)?;
        let mut gltf_mesh = Map::new();
        gltf_mesh.insert("name".into(), json!(mesh.id));
        gltf_mesh.insert("primitives".into(), Value::Array(primitives));
        let mut node = Map::new();
        node.insert("name".into(), json!(mesh.id));
        node.insert("mesh".into(), json!(gltf_meshes.len()));
        node.insert("translation".into(), json!(feature.translation));
        if let Some(kind) = mesh.kind {
            node.insert("extras".into(), json!({ "kind": kind.as_str() }));
        }
        gltf_meshes.push(Value::Object(gltf_mesh));
        nodes.push(Value::Object(node));
    }

    let mut root = Map::new();
    root.insert("asset".into(), json!({ "version": "2.0", "generator": opts.generator }));
    root.insert("scene".into(), json!(0));
    // glTF forbids empty arrays: an empty scene has no `nodes`, an empty file no buffers.
    let scene_nodes: Vec<usize> = (0..nodes.len()).collect();
    let scene = if scene_nodes.is_empty() { json!({}) } else { json!({ "nodes": scene_nodes }) };
    root.insert("scenes".into(), json!([scene]));
    root.insert("materials".into(), Value::Array(MaterialSlot::ALL.iter().map(|&s| material(s)).collect()));
    let bin_len = layout.len;
    for (key, list) in
        [("nodes", nodes), ("meshes", gltf_meshes), ("accessors", layout.accessors), ("bufferViews", layout.views)]
    {
        if !list.is_empty() {
            root.insert(key.into(), Value::Array(list));
        }
    }
    if bin_len > 0 {
        root.insert("buffers".into(), json!([{ "byteLength": bin_len }]));
    }
    let mut out = glb_head(Value::Object(root).to_string().into_bytes(), bin_len, limit)?;
    if bin_len > 0 {
        let mut data = Builder::writing(out, limit);
        for mesh in meshes {
            if let Some(feature) = prepare(mesh)? {
                data.add_feature(&feature)?;
            }
        }
        // The second pass writes what the first laid out: `prepare` gives the same feature
        // both times (the test `two_passes_fill_the_file_exactly`).
        out = data.bytes;
    }
    Ok(out)
}

/// The material of a slot.
fn material(slot: MaterialSlot) -> Value {
    json!({
        "name": slot.as_str(),
        "pbrMetallicRoughness": {
            "baseColorFactor": base_color(slot),
            "metallicFactor": 0.0,
            "roughnessFactor": ROUGHNESS,
        },
        "doubleSided": false,
    })
}

/// The start of a GLB container whose BIN chunk holds `bin_len` bytes (a multiple of 4): the
/// header, the JSON chunk and the BIN chunk's header, in a buffer with room for the whole file.
fn glb_head(mut json: Vec<u8>, bin_len: usize, limit: u64) -> Result<Vec<u8>, GltfError> {
    pad(&mut json, b' ');
    let bin_chunk = if bin_len == 0 { 0 } else { 8 + bin_len as u64 };
    let total = 12 + 8 + json.len() as u64 + bin_chunk;
    let too_large = || GltfError::TooLarge { bytes: total };
    if total > limit.min(MAX_GLB_BYTES) {
        return Err(too_large());
    }
    let len32 = |n: usize| u32::try_from(n).map_err(|_| too_large());
    let mut out = Vec::with_capacity(total as usize);
    for word in [GLB_MAGIC, GLB_VERSION, len32(total as usize)?, len32(json.len())?, CHUNK_JSON] {
        out.extend_from_slice(&word.to_le_bytes());
    }
    out.extend_from_slice(&json);
    if bin_len > 0 {
        out.extend_from_slice(&len32(bin_len)?.to_le_bytes());
        out.extend_from_slice(&CHUNK_BIN.to_le_bytes());
    }
    Ok(out)
}

/// Pads `bytes` to a multiple of 4 with `fill`.
fn pad(bytes: &mut Vec<u8>, fill: u8) {
    while !bytes.len().is_multiple_of(4) {
        bytes.push(fill);
    }
}

/// The core's frame (z up) to glTF's (y up): (x, y, z) → (x, z, −y). The only place the axes are
/// converted. Adding 0 turns −0 into 0.
pub(crate) fn to_y_up(p: Point3) -> [f64; 3] {
    [p.x + 0.0, p.z + 0.0, -p.y + 0.0]
}

/// A feature's data in glTF's frame, checked and ready to write.
struct Feature {
    /// Node translation: the bounding-box centre.
    translation: [f64; 3],
    /// Positions relative to `translation`.
    positions: Vec<[f32; 3]>,
    /// Unit normals.
    normals: Vec<[f32; 3]>,
    /// Texture coordinates.
    uvs: Vec<[f32; 2]>,
    /// One list of triangles (indices into the vertices above) per slot used, in slot order.
    primitives: Vec<(MaterialSlot, Vec<[u32; 3]>)>,
}

/// Checks a feature and converts it; `None` if it has no triangles.
fn prepare(mesh: &FeatureMesh) -> Result<Option<Feature>, GltfError> {
    let feature = || mesh.id.clone();
    if mesh.triangles.len() != mesh.slots.len() {
        return Err(GltfError::SlotCountMismatch {
            feature: feature(),
            triangles: mesh.triangles.len(),
            slots: mesh.slots.len(),
        });
    }
    for (vertex, v) in mesh.vertices.iter().enumerate() {
        let what = if !finite(v.position) {
            "position"
        } else if !finite(v.normal) {
            "normal"
        } else if !v.uv.iter().all(|c| c.is_finite()) {
            "texture coordinate"
        } else {
            continue;
        };
        return Err(GltfError::NonFinite { feature: feature(), what, vertex });
    }
    // Keep the vertices that triangles use, in their order.
    let mut new_index: Vec<Option<u32>> = vec![None; mesh.vertices.len()];
    for (triangle, tri) in mesh.triangles.iter().enumerate() {
        for &index in tri {
            match new_index.get_mut(index as usize) {
                Some(slot) => *slot = Some(0),
                None => {
                    return Err(GltfError::IndexOutOfRange {
                        feature: feature(),
                        triangle,
                        index,
                        vertices: mesh.vertices.len(),
                    })
                }
            }
        }
    }
    if mesh.triangles.is_empty() {
        return Ok(None);
    }
    let mut used = Vec::new();
    for ((old, slot), v) in new_index.iter_mut().enumerate().zip(&mesh.vertices) {
        if let Some(new) = slot {
            // At most 2^32 vertices can be used; the 2^32nd would not fit a GLB anyway.
            *new = u32::try_from(used.len()).map_err(|_| GltfError::TooLarge { bytes: MAX_GLB_BYTES + 1 })?;
            used.push((old, v));
        }
    }

    let points: Vec<[f64; 3]> = used.iter().map(|(_, v)| to_y_up(v.position)).collect();
    let mut min = [f64::INFINITY; 3];
    let mut max = [f64::NEG_INFINITY; 3];
    for p in &points {
        for k in 0..3 {
            min[k] = min[k].min(p[k]);
            max[k] = max[k].max(p[k]);
        }
    }
    // Halves first, so that the sum cannot overflow.
    let translation = [0, 1, 2].map(|k| min[k] / 2.0 + max[k] / 2.0 + 0.0);
    let mut positions = Vec::with_capacity(used.len());
    let mut normals = Vec::with_capacity(used.len());
    let mut uvs = Vec::with_capacity(used.len());
    for (&(old, v), p) in used.iter().zip(&points) {
        let out_of_range = |what| GltfError::OutOfRange { feature: feature(), what, vertex: old };
        let rel = [0, 1, 2].map(|k| (p[k] - translation[k]) as f32);
        if !rel.iter().all(|c| c.is_finite()) {
            return Err(out_of_range("position"));
        }
        positions.push(rel);
        normals.push(unit(to_y_up(v.normal)));
        let uv = v.uv.map(|c| c as f32);
        if !uv.iter().all(|c| c.is_finite()) {
            return Err(out_of_range("texture coordinate"));
        }
        uvs.push(uv);
    }

    let remap = |i: u32| new_index.get(i as usize).copied().flatten().unwrap_or(0);
    let primitives = MaterialSlot::ALL
        .iter()
        .map(|&slot| {
            let tris: Vec<[u32; 3]> = mesh
                .triangles
                .iter()
                .zip(&mesh.slots)
                .filter(|&(_, &s)| s == slot)
                .map(|(t, _)| t.map(remap))
                .collect();
            (slot, tris)
        })
        .filter(|(_, tris)| !tris.is_empty())
        .collect();
    Ok(Some(Feature { translation, positions, normals, uvs, primitives }))
}

/// Whether every coordinate is finite.
fn finite(p: Point3) -> bool {
    p.x.is_finite() && p.y.is_finite() && p.z.is_finite()
}

/// The unit vector along a finite `n`, or (0, 1, 0) (up) for a zero vector.
fn unit(n: [f64; 3]) -> [f32; 3] {
    // Scale by the largest component first, so that squares neither overflow nor underflow.
    let scale = n.iter().fold(0.0_f64, |m, c| m.max(c.abs()));
    if scale <= 0.0 || !scale.is_finite() {
        return [0.0, 1.0, 0.0];
    }
    let s = n.map(|c| c / scale);
    let len = (s[0] * s[0] + s[1] * s[1] + s[2] * s[2]).sqrt();
    s.map(|c| (c / len + 0.0) as f32)
}

/// The BIN chunk and the JSON arrays that describe it: laid out in a first pass (lengths and
/// descriptions, no bytes), written in a second (bytes only).
struct Builder {
    /// Length of the BIN chunk so far, always a multiple of 4 bytes.
    len: usize,
    /// Whether this pass writes the bytes (else it lays the chunk out and describes it).
    writing: bool,
    /// Where the bytes go when writing: the file so far, the BIN chunk at its end.
    bytes: Vec<u8>,
    /// `bufferViews` (laying out only).
    views: Vec<Value>,
    /// `accessors` (laying out only).
    accessors: Vec<Value>,
    /// Buffer views and accessors so far, in either pass.
    view_count: usize,
    /// See `view_count`.
    accessor_count: usize,
    /// Largest file size allowed.
    limit: u64,
}

impl Builder {
    /// The first pass: lays the BIN chunk out and describes it.
    fn laying_out(limit: u64) -> Self {
        Self {
            len: 0,
            writing: false,
            bytes: Vec::new(),
            views: Vec::new(),
            accessors: Vec::new(),
            view_count: 0,
            accessor_count: 0,
            limit,
        }
    }

    /// The second pass: appends the BIN chunk's bytes to `file`.
    fn writing(file: Vec<u8>, limit: u64) -> Self {
        Self { writing: true, bytes: file, ..Self::laying_out(limit) }
    }

    /// Writes a feature's vertex data and indices; returns its mesh primitives.
    fn add_feature(&mut self, f: &Feature) -> Result<Vec<Value>, GltfError> {
        let count = f.positions.len();
        let mut min = [f32::INFINITY; 3];
        let mut max = [f32::NEG_INFINITY; 3];
        for p in &f.positions {
            for k in 0..3 {
                min[k] = min[k].min(p[k]);
                max[k] = max[k].max(p[k]);
            }
        }
        let bounds = (min.map(f64::from).to_vec(), max.map(f64::from).to_vec());
        let view =
            self.push_view(f.positions.iter().flatten().flat_map(|c| c.to_le_bytes()), count * 12, ARRAY_BUFFER)?;
        let position = self.push_accessor(view, FLOAT, count, "VEC3", Some(bounds));
        let view =
            self.push_view(f.normals.iter().flatten().flat_map(|c| c.to_le_bytes()), count * 12, ARRAY_BUFFER)?;
        let normal = self.push_accessor(view, FLOAT, count, "VEC3", None);
        let view = self.push_view(f.uvs.iter().flatten().flat_map(|c| c.to_le_bytes()), count * 8, ARRAY_BUFFER)?;
        let uv = self.push_accessor(view, FLOAT, count, "VEC2", None);

        let mut primitives = Vec::with_capacity(f.primitives.len());
        for (slot, tris) in &f.primitives {
            let indices = tris.iter().flatten();
            let n = tris.len() * 3;
            let view = if count <= MAX_U16_VERTICES {
                let bytes = indices.flat_map(|&i| u16::try_from(i).unwrap_or(u16::MAX).to_le_bytes());
                self.push_view(bytes, n * 2, ELEMENT_ARRAY_BUFFER)?
            } else {
                self.push_view(indices.flat_map(|i| i.to_le_bytes()), n * 4, ELEMENT_ARRAY_BUFFER)?
            };
            let component = if count <= MAX_U16_VERTICES { UNSIGNED_SHORT } else { UNSIGNED_INT };
            let indices = self.push_accessor(view, component, n, "SCALAR", None);
            primitives.push(json!({
                "attributes": { "POSITION": position, "NORMAL": normal, "TEXCOORD_0": uv },
                "indices": indices,
                "material": *slot as usize,
                "mode": TRIANGLES,
            }));
        }
        Ok(primitives)
    }

    /// Appends `len` bytes as a new buffer view (padded to 4 bytes; `bytes` is only read when
    /// writing); returns its index.
    fn push_view(&mut self, bytes: impl Iterator<Item = u8>, len: usize, target: u32) -> Result<usize, GltfError> {
        let offset = self.len;
        let end = (offset as u64).saturating_add(len as u64).saturating_add(3) / 4 * 4;
        // The JSON chunk and the headers come on top; `glb_head` checks the final size.
        if end > self.limit {
            return Err(GltfError::TooLarge { bytes: end });
        }
        // Within the limit, which fits in 32 bits.
        self.len = end as usize;
        if self.writing {
            self.bytes.extend(bytes);
            self.bytes.resize(self.bytes.len() + (self.len - offset - len), 0);
        } else {
            self.views.push(json!({ "buffer": 0, "byteOffset": offset, "byteLength": len, "target": target }));
        }
        self.view_count += 1;
        Ok(self.view_count - 1)
    }

    /// Adds an accessor over a whole buffer view; returns its index.
    fn push_accessor(
        &mut self,
        view: usize,
        component: u32,
        count: usize,
        kind: &str,
        bounds: Option<(Vec<f64>, Vec<f64>)>,
    ) -> usize {
        self.accessor_count += 1;
        if self.writing {
            return self.accessor_count - 1;
        }
        let mut accessor = Map::new();
        accessor.insert("bufferView".into(), json!(view));
        accessor.insert("componentType".into(), json!(component));
        accessor.insert("count".into(), json!(count));
        accessor.insert("type".into(), json!(kind));
        if let Some((min, max)) = bounds {
            accessor.insert("min".into(), json!(min));
            accessor.insert("max".into(), json!(max));
        }
        self.accessors.push(Value::Object(accessor));
        self.accessor_count - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use roadgen_core::{FeatureKind, MeshVertex};

    fn triangle() -> FeatureMesh {
        let v = |x, y| MeshVertex { position: Point3::new(x, y, 0.0), normal: Point3::new(0.0, 0.0, 1.0), uv: [x, y] };
        FeatureMesh {
            kind: Some(FeatureKind::Road),
            id: "r".into(),
            vertices: vec![v(0.0, 0.0), v(1.0, 0.0), v(0.0, 1.0)],
            triangles: vec![[0, 1, 2]],
            slots: vec![MaterialSlot::Carriageway],
        }
    }

    #[test]
    fn size_limit_is_an_error() {
        let opts = GltfOptions::default();
        let ok = write_glb_limited(&[triangle()], &opts, MAX_GLB_BYTES);
        let Ok(bytes) = ok else { panic!("{ok:?}") };
        let fits = write_glb_limited(&[triangle()], &opts, bytes.len() as u64);
        assert!(fits.is_ok(), "{fits:?}");
        let err = write_glb_limited(&[triangle()], &opts, bytes.len() as u64 - 1);
        assert!(matches!(err, Err(GltfError::TooLarge { .. })), "{err:?}");
        let err = write_glb_limited(&[triangle()], &opts, 40);
        assert!(matches!(err, Err(GltfError::TooLarge { .. })), "{err:?}");
    }

    #[test]
    fn two_passes_fill_the_file_exactly() {
        // Two features, one with two material slots, one vertex unused.
        let mut second = triangle();
        second.id = "s".into();
        second.vertices.push(second.vertices[0]);
        second.triangles.push([0, 2, 1]);
        second.slots.push(MaterialSlot::Sidewalk);
        let bytes = write_glb(&[triangle(), second], &GltfOptions::default()).expect("written");
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("four bytes")) as usize;
        assert_eq!(word(8), bytes.len());
        let json_len = word(12);
        let bin_at = 20 + json_len;
        assert_eq!(word(bin_at + 4), CHUNK_BIN as usize);
        assert_eq!(bin_at + 8 + word(bin_at), bytes.len());
        let json: Value = serde_json::from_slice(&bytes[20..bin_at]).expect("json");
        assert_eq!(json["buffers"][0]["byteLength"].as_u64(), Some(word(bin_at) as u64));
        // The last view ends where the chunk does, but for its padding.
        let views = json["bufferViews"].as_array().expect("views");
        let last = &views[views.len() - 1];
        let end = last["byteOffset"].as_u64().unwrap_or(0) + last["byteLength"].as_u64().unwrap_or(0);
        assert_eq!(end.div_ceil(4) * 4, word(bin_at) as u64);
        // Positions of the first feature, as written.
        let first = views[0]["byteOffset"].as_u64().unwrap_or(1) as usize;
        let x1 = f32::from_le_bytes(bytes[bin_at + 8 + first + 12..bin_at + 8 + first + 16].try_into().expect("f32"));
        assert_eq!(x1, 0.5);
    }

    #[test]
    fn axes() {
        assert_eq!(to_y_up(Point3::new(1.0, 2.0, 3.0)), [1.0, 3.0, -2.0]);
        assert_eq!(unit([0.0, 0.0, 0.0]), [0.0, 1.0, 0.0]);
        assert_eq!(unit([0.0, 5.0, 0.0]), [0.0, 1.0, 0.0]);
        assert_eq!(unit([1e300, 0.0, 0.0]), [1.0, 0.0, 0.0]);
    }
}
