//! The Wavefront OBJ writer: the same meshes as the glTF writer, as text that every modelling
//! tool reads, with a companion MTL file for the material slots.
//!
//! ## Layout
//! - One object (`o`) per feature with triangles, named with the feature's id (whitespace
//!   replaced by `_`, which OBJ names cannot hold), preceded by a comment with its kind.
//! - Per vertex a position (`v`), texture coordinates in metres (`vt`) and a unit normal (`vn`),
//!   all sharing one index, so faces read `f a/a/a b/b/b c/c/c` (1-based, counted over the
//!   whole file).
//! - `usemtl <slot>` before each run of triangles of one material slot; the MTL file defines
//!   the five slots ([`MaterialSlot::as_str`]) with the glTF writer's colours.
//!
//! ## Units and axes
//! Metres, y up, as the glTF writer (and as Blender, Houdini and most tools read OBJ): the core's
//! (x, y, z) is written as (x, z, −y), in the glTF writer's one conversion function. Positions
//! are written to a tenth of a millimetre, normals and texture coordinates to four decimals.
//!
//! The output is deterministic: the same meshes give the same bytes.

use std::fmt::Write;

use roadgen_core::{FeatureMesh, MaterialSlot};

use crate::gltf::{base_color, to_y_up};

/// Decimals of positions (metres: a tenth of a millimetre).
const POSITION_DECIMALS: usize = 4;
/// Decimals of normals and texture coordinates.
const ATTRIBUTE_DECIMALS: usize = 4;

/// An OBJ file and its MTL file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjFiles {
    /// The OBJ text; it names the MTL file with `mtllib`.
    pub obj: String,
    /// The MTL text.
    pub mtl: String,
}

/// Writes `meshes` as OBJ text that refers to its materials as `mtl_name` (the MTL file's name,
/// to be written next to it).
pub fn write_obj(meshes: &[FeatureMesh], mtl_name: &str) -> ObjFiles {
    let mut obj = String::new();
    let _ = writeln!(obj, "# RoadGen {}: meshes of a street network (metres, y up)", env!("CARGO_PKG_VERSION"));
    let _ = writeln!(obj, "mtllib {mtl_name}");
    // OBJ indices are 1-based and global.
    let mut base = 1usize;
    for mesh in meshes.iter().filter(|m| !m.triangles.is_empty()) {
        let kind = mesh.kind.map_or("feature", |k| k.as_str());
        let name: String = mesh.id.chars().map(|c| if c.is_whitespace() { '_' } else { c }).collect();
        let _ = writeln!(obj, "# {kind} {}", mesh.id);
        let _ = writeln!(obj, "o {name}");
        for v in &mesh.vertices {
            let [x, y, z] = to_y_up(v.position);
            let _ = writeln!(obj, "v {x:.p$} {y:.p$} {z:.p$}", p = POSITION_DECIMALS);
        }
        for v in &mesh.vertices {
            let _ = writeln!(obj, "vt {:.p$} {:.p$}", v.uv[0] + 0.0, v.uv[1] + 0.0, p = ATTRIBUTE_DECIMALS);
        }
        for v in &mesh.vertices {
            let [x, y, z] = to_y_up(v.normal);
            let _ = writeln!(obj, "vn {x:.p$} {y:.p$} {z:.p$}", p = ATTRIBUTE_DECIMALS);
        }
        let mut slot: Option<MaterialSlot> = None;
        for (t, &s) in mesh.triangles.iter().zip(&mesh.slots) {
            if slot != Some(s) {
                let _ = writeln!(obj, "usemtl {}", s.as_str());
                slot = Some(s);
            }
            let [a, b, c] = t.map(|i| i as usize + base);
            let _ = writeln!(obj, "f {a}/{a}/{a} {b}/{b}/{b} {c}/{c}/{c}");
        }
        base += mesh.vertices.len();
    }
    let mut mtl = String::new();
    let _ = writeln!(mtl, "# RoadGen {}: material slots", env!("CARGO_PKG_VERSION"));
    for slot in MaterialSlot::ALL {
        let [r, g, b, _] = base_color(slot);
        let _ = writeln!(mtl, "\nnewmtl {}\nKd {r:.3} {g:.3} {b:.3}\nKs 0.000 0.000 0.000\nillum 1", slot.as_str());
    }
    ObjFiles { obj, mtl }
}
